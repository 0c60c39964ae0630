//! Structure a reader or a screen reader finds in the files, read back with lopdf:
//! the outline of multi-page files, and the tagged structure (headings, paragraphs,
//! lists, figures with alternative text) behind every mark of text.

use std::collections::{BTreeMap, BTreeSet};

use lopdf::{Dictionary, Document, Object, ObjectId};

use crate::pdf_archive::raw;
use crate::pdf_standards::{all, get, sample, string};
use crate::support::{games, shared};

/// The outline's entries: title and the page object its destination names.
fn outline(doc: &Document) -> Option<Vec<(String, ObjectId)>> {
    let root = get(doc, doc.catalog().unwrap(), b"Outlines")?.as_dict().unwrap();
    let count = root.get(b"Count").unwrap().as_i64().unwrap();
    let mut entries = Vec::new();
    let mut next = root.get(b"First").ok().map(|o| o.as_reference().unwrap());
    while let Some(id) = next {
        let item = doc.get_dictionary(id).unwrap();
        let dest = get(doc, item, b"Dest").unwrap().as_array().unwrap();
        let title = string(item, b"Title").unwrap();
        entries.push((title, dest[0].as_reference().unwrap()));
        next = item.get(b"Next").ok().map(|o| o.as_reference().unwrap());
    }
    assert_eq!(entries.len() as i64, count, "/Count");
    Some(entries)
}

#[test]
fn multi_page_files_have_an_outline_pointing_at_their_pages() {
    multi_page_files_have_an_outline_pointing_at_their_pages_in(sample());
}

fn multi_page_files_have_an_outline_pointing_at_their_pages_in(
    docs: &[(String, Document)],
) {
    let mut labels = 0;
    for (name, doc) in docs {
        let pages: Vec<ObjectId> = doc.get_pages().into_values().collect();
        let Some(entries) = outline(doc) else {
            assert_eq!(pages.len(), 1, "{name}: {} pages and no outline", pages.len());
            continue;
        };
        assert!(pages.len() > 1, "{name}: an outline on a single page");
        // In page order, every page reached, no entry without a title.
        let order: Vec<usize> = entries
            .iter()
            .map(|(title, page)| {
                assert!(!title.trim().is_empty(), "{name}: an empty entry");
                pages.iter().position(|p| p == page).expect("a page of the file")
            })
            .collect();
        assert!(order.windows(2).all(|w| w[0] <= w[1]), "{name}: {order:?}");
        let reached: BTreeSet<usize> = order.iter().copied().collect();
        assert_eq!(reached.len(), pages.len(), "{name}: pages without an entry");
        // The first entry is the sheet's title, as its Info dictionary gives it.
        let title = string(crate::pdf_standards::info(doc), b"Title").unwrap();
        assert!(title.contains(&format!(" · {} (", entries[0].0)), "{name}: {title}");
        if name.starts_with("pathstone/en") {
            labels += entries.iter().filter(|(t, _)| t.starts_with("page ")).count();
        }
    }
    // A page that starts no heading is named by its page label.
    assert!(labels > 0, "no page label in the outlines");
    // A board split into parts: the title (and assembly plan), then each part.
    let (name, bytes) =
        raw().iter().find(|(n, _)| n.ends_with("en-a4-8/board.pdf")).unwrap();
    let doc = Document::load_mem(bytes).unwrap();
    let entries = outline(&doc).expect("an outline");
    let parts: Vec<&str> =
        entries.iter().map(|(t, _)| t.as_str()).filter(|t| t.contains("Part ")).collect();
    // Each part once ("Part k of n"), in page order (a small part may share the
    // assembly plan's page).
    let n = parts.len();
    assert!(n >= doc.get_pages().len() - 1, "{name}: {entries:?}");
    for k in 1..=n {
        let label = format!("Part {k} of {n}:");
        assert!(parts.iter().any(|p| p.contains(&label)), "{name}: {parts:?}");
    }
}

/// Every structure element under the root: its type, its dictionary and its
/// parent's type.
fn elements(doc: &Document) -> Vec<(String, Dictionary, String)> {
    let catalog = doc.catalog().unwrap();
    let root = get(doc, catalog, b"StructTreeRoot").expect("a structure tree");
    let mut found = Vec::new();
    let mut stack = vec![(root.as_dict().unwrap().clone(), String::from("root"))];
    while let Some((dict, _)) = stack.pop() {
        let kids = match dict.get(b"K") {
            Ok(Object::Array(kids)) => kids.clone(),
            Ok(kid) => vec![kid.clone()],
            Err(_) => Vec::new(),
        };
        let me =
            dict.get(b"S").map(|s| s.as_name().unwrap().to_vec()).unwrap_or_default();
        let me = String::from_utf8(me).unwrap();
        for kid in kids {
            let Ok(id) = kid.as_reference() else { continue };
            let child = doc.get_dictionary(id).unwrap().clone();
            let s = child.get(b"S").unwrap().as_name().unwrap().to_vec();
            found.push((String::from_utf8(s).unwrap(), child.clone(), me.clone()));
            stack.push((child, me.clone()));
        }
    }
    found
}

#[test]
fn rule_cards_and_host_keys_are_tagged_with_headings_paragraphs_lists_and_figures() {
    rule_cards_and_host_keys_are_tagged_with_headings_paragraphs_lists_and_figures_in(
        sample(),
    );
}

fn rule_cards_and_host_keys_are_tagged_with_headings_paragraphs_lists_and_figures_in(
    docs: &[(String, Document)],
) {
    for (name, doc) in docs {
        let catalog = doc.catalog().unwrap();
        let mark_info = get(doc, catalog, b"MarkInfo").unwrap().as_dict().unwrap();
        assert!(mark_info.get(b"Marked").unwrap().as_bool().unwrap(), "{name}");
        let found = elements(doc);
        let kinds: BTreeSet<&str> = found.iter().map(|(s, _, _)| s.as_str()).collect();
        // Every sheet starts with its title.
        assert!(kinds.contains("H1"), "{name}: {kinds:?}");
        let needs: &[&str] = if name.ends_with("rule-card.pdf") {
            &["H1", "H2", "P", "Figure"]
        } else if name.ends_with("host-key.pdf") {
            &["H1", "H2", "P", "L", "LI", "LBody"]
        } else {
            &[]
        };
        for kind in needs {
            assert!(kinds.contains(kind), "{name}: no {kind} in {kinds:?}");
        }
        for (kind, dict, parent) in &found {
            match kind.as_str() {
                "Figure" => {
                    let alt = string(dict, b"Alt").unwrap_or_default();
                    assert!(alt.trim().chars().count() > 10, "{name}: alt {alt:?}");
                }
                "LI" => assert_eq!(parent, "L", "{name}"),
                "LBody" => assert_eq!(parent, "LI", "{name}"),
                "TR" => assert_eq!(parent, "Table", "{name}"),
                "TH" | "TD" => assert_eq!(parent, "TR", "{name}"),
                "L" | "H1" | "H2" | "P" | "Table" => {
                    assert_eq!(parent, "Document", "{name}")
                }
                "Document" => assert_eq!(parent, "", "{name}"),
                other => panic!("{name}: unexpected structure type {other}"),
            }
        }
    }
}

/// The MCIDs a structure element holds on `page`.
fn mcids_on(dict: &Dictionary, page: ObjectId) -> Vec<i64> {
    let own_page = dict.get(b"Pg").and_then(Object::as_reference).ok();
    let kids = match dict.get(b"K") {
        Ok(Object::Array(kids)) => kids.clone(),
        Ok(kid) => vec![kid.clone()],
        Err(_) => Vec::new(),
    };
    kids.iter()
        .filter_map(|kid| match kid {
            Object::Integer(m) => (own_page == Some(page)).then_some(*m),
            Object::Dictionary(mcr) => {
                let on = mcr.get(b"Pg").and_then(Object::as_reference).ok() == Some(page);
                on.then(|| mcr.get(b"MCID").unwrap().as_i64().unwrap())
            }
            _ => None,
        })
        .collect()
}

#[test]
fn all_text_is_tagged_or_an_artifact_and_every_mcid_has_its_element() {
    all_text_is_tagged_or_an_artifact_and_every_mcid_has_its_element_in(sample());
}

fn all_text_is_tagged_or_an_artifact_and_every_mcid_has_its_element_in(
    docs: &[(String, Document)],
) {
    const SHOW: [&str; 4] = ["Tj", "TJ", "'", "\""];
    for (name, doc) in docs {
        let catalog = doc.catalog().unwrap();
        let root = get(doc, catalog, b"StructTreeRoot").unwrap().as_dict().unwrap();
        let tree = get(doc, root, b"ParentTree").unwrap().as_dict().unwrap();
        let nums = get(doc, tree, b"Nums").unwrap().as_array().unwrap();
        let parents: BTreeMap<i64, &Object> =
            nums.chunks(2).map(|p| (p[0].as_i64().unwrap(), &p[1])).collect();
        for (number, page_id) in doc.get_pages() {
            let page = doc.get_dictionary(page_id).unwrap();
            let key = page.get(b"StructParents").unwrap().as_i64().unwrap();
            let owners = doc.dereference(parents[&key]).unwrap().1.as_array().unwrap();
            let content = doc.get_and_decode_page_content(page_id).unwrap();
            let (mut depth, mut mcids, mut shown) = (0, Vec::new(), 0);
            for op in &content.operations {
                match op.operator.as_str() {
                    "BMC" => depth += 1,
                    "BDC" => {
                        depth += 1;
                        let props = op.operands[1].as_dict().unwrap();
                        mcids.push(props.get(b"MCID").unwrap().as_i64().unwrap());
                    }
                    "EMC" => depth -= 1,
                    show if SHOW.contains(&show) => {
                        assert!(depth > 0, "{name} page {number}: unmarked text");
                        shown += 1;
                    }
                    _ => {}
                }
                assert!(depth >= 0, "{name} page {number}: EMC without a begin");
            }
            assert_eq!(depth, 0, "{name} page {number}: unclosed marked content");
            assert!(shown > 0, "{name} page {number}");
            // MCIDs 0, 1, 2… each owned by the element the parent tree names.
            let expected: Vec<i64> = (0..mcids.len() as i64).collect();
            assert_eq!(mcids, expected, "{name} page {number}");
            assert_eq!(owners.len(), mcids.len(), "{name} page {number}");
            for (mcid, owner) in owners.iter().enumerate() {
                let element = doc.get_dictionary(owner.as_reference().unwrap()).unwrap();
                assert!(
                    mcids_on(element, page_id).contains(&(mcid as i64)),
                    "{name} page {number}: MCID {mcid} not in its element"
                );
            }
        }
    }
}

/// The alternative text of every figure in `doc`.
pub(crate) fn figure_alts(doc: &Document) -> Vec<String> {
    elements(doc)
        .into_iter()
        .filter(|(kind, _, _)| kind == "Figure")
        .filter_map(|(_, dict, _)| string(&dict, b"Alt"))
        .collect()
}

#[test]
fn every_word_a_sheet_shows_is_read_and_only_footers_and_repeated_heads_are_decoration() {
    words_are_read_or_decoration(crate::pdf_standards::in_sampled_language);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn every_word_of_every_language_is_read_and_only_footers_and_repeated_heads_are_decoration()
 {
    words_are_read_or_decoration(|_| true);
}

/// Every word a sheet shows is read, and only footers and repeated heads are
/// decoration: in the files of the shared builds whose path (`kit/variant/file.pdf`)
/// `keep` accepts, a calibration sheet and a puzzle sheet.
fn words_are_read_or_decoration(keep: fn(&str) -> bool) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().to_str().unwrap();
    crate::pdf_standards::run(
        &["calibrate", "--sheet", "--lang", "ar", "--out", out],
        None,
    );
    crate::pdf_standards::run(
        &["build", "pathstone", "--size", "4", "--puzzles", "3", "--out", out],
        None,
    );
    // The files `pdf_standards::all` reads, each read once for every test that
    // probes it, and this test's own.
    let shared_builds = [
        shared::every_language().dir(),
        shared::build(&["three-men-slide", "--paper", "letter"]).dir(),
    ];
    let own: Vec<_> = pdfs_under(tmp.path())
        .into_iter()
        .map(|path| {
            let probe = crate::support::pdf_probe::load_file(&path);
            (path, probe)
        })
        .collect();
    let files = shared_builds
        .into_iter()
        .flat_map(|dir| {
            let kept = move |path: &std::path::PathBuf| {
                keep(&path.strip_prefix(dir).unwrap().to_string_lossy())
            };
            pdfs_under(dir).into_iter().filter(kept)
        })
        .map(|path| {
            let probe = shared::probe(&path);
            (path, probe)
        })
        .chain(own.iter().map(|(path, probe)| (path.clone(), probe)));
    let mut kinds = BTreeSet::new();
    for (path, probe) in files {
        let name = path.display();
        kinds.insert(
            path.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .trim_end_matches(".pdf")
                .to_string(),
        );
        let read: BTreeSet<&str> = probe
            .pages
            .iter()
            .flat_map(|p| &p.texts)
            .filter(|t| !t.artifact)
            .map(|t| t.text.trim())
            .collect();
        for (number, page) in probe.pages.iter().enumerate() {
            // The footer: the print note, the ruler, the stamp and the page number.
            let footer_top = page.height_mm - 32.0;
            for text in page.texts.iter().filter(|t| t.artifact) {
                let repeat = read.contains(text.text.trim());
                assert!(
                    text.y > footer_top || repeat,
                    "{name} page {}: {:?} at {:.0} mm down is decoration, never read",
                    number + 1,
                    text.text,
                    text.y
                );
            }
        }
    }
    for kind in [
        "board",
        "stones",
        "counters",
        "ledger",
        "repetition-log",
        "rule-card",
        "host-key",
        "contents",
        "quick-start",
        "puzzles",
        "calibration-ar-a4",
    ] {
        assert!(kinds.contains(kind), "no {kind} among {kinds:?}");
    }
}

fn pdfs_under(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(pdfs_under(&path));
        } else if path.extension().is_some_and(|x| x == "pdf") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// What a stacking position (TPS: rows from the top, `x`/`xN` empty, a stack's
/// colours bottom up as 1 and 2, then `S` or `C` for a wall or Crown on top) shows,
/// square by square from a1, in the English words of a diagram's alternative text.
fn stacking_words(position: &str) -> Vec<String> {
    let board = position.split(' ').next().unwrap();
    let rows: Vec<&str> = board.split('/').collect();
    let mut squares = Vec::new();
    for (row, text) in rows.iter().rev().enumerate() {
        let mut col = 0u8;
        for cell in text.split(',') {
            if let Some(run) = cell.strip_prefix('x') {
                col += run.parse::<u8>().unwrap_or(1);
                continue;
            }
            let letter = |c: char| if c == '1' { "W" } else { "B" };
            let mut pieces: Vec<String> = cell
                .chars()
                .filter(char::is_ascii_digit)
                .map(|c| letter(c).to_string())
                .collect();
            let top = pieces.last_mut().unwrap();
            match cell.chars().last() {
                Some('S') => *top = format!("{top} wall"),
                Some('C') => *top = format!("{top} Crown"),
                _ => {}
            }
            let pieces = match pieces.len() {
                1 => pieces.concat(),
                _ => format!("{} (bottom to top)", pieces.join(", ")),
            };
            squares.push((
                row,
                col,
                format!("{}{}: {pieces}", (b'a' + col) as char, row + 1),
            ));
            col += 1;
        }
    }
    squares.sort();
    squares.into_iter().map(|(_, _, words)| words).collect()
}

/// What a position of points (rows from the top, `.` empty, a player's letter where
/// their piece stands) shows, player by player, in the English words of a diagram's
/// alternative text; `upper`: points named A1 rather than a1.
fn point_words(position: &str, players: [char; 2], upper: bool) -> Vec<String> {
    let board = position.split(' ').next().unwrap();
    let rows: Vec<&str> = board.split('/').collect();
    let mut groups = Vec::new();
    for player in players {
        let mut points = Vec::new();
        for (row, text) in rows.iter().rev().enumerate() {
            for (col, c) in text.chars().enumerate() {
                if c == player {
                    let letter = (if upper { b'A' } else { b'a' } + col as u8) as char;
                    points.push(format!("{letter}{}", row + 1));
                }
            }
        }
        if !points.is_empty() {
            groups.push(format!("{player} on {}", points.join(", ")));
        }
    }
    groups
}

#[test]
fn every_diagram_s_alternative_text_names_every_piece_of_its_position() {
    // Every game at its smallest, default and largest board, in English on A4: the
    // builds shared between tests.
    for kit in games::kits() {
        let sizes = [*kit.sizes.start(), kit.default_size, *kit.sizes.end()];
        let mut sizes = sizes.to_vec();
        sizes.dedup();
        for size in sizes {
            alternative_texts_name_every_piece(kit, size);
        }
    }
}

/// Each example the English rule card of `kit` at board `size` draws at its start
/// has an alternative text that reads, after its caption, every piece of its position
/// as the game spells it out.
fn alternative_texts_name_every_piece(kit: &games::Kit, size: u8) {
    let what = format!("{} {size}×{size}", kit.id);
    let dir = shared::variant(&kit.id, "en", "a4", size);
    let read = |path: std::path::PathBuf| {
        let text = std::fs::read_to_string(&path).unwrap();
        text.parse::<toml::Table>().unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    let template = crate::support::templates_dir(&kit.game).join("rule-card.tera");
    let template = std::fs::read_to_string(template).unwrap();
    let kit_toml = read(crate::support::kit_dir(&kit.id).join("kit.toml"));
    let strings = read(crate::support::kit_dir(&kit.id).join("lang/en.toml"));
    let examples = kit_toml["example"].as_array().unwrap();
    let alts = figure_alts(&Document::load(dir.join("rule-card.pdf")).unwrap());
    let find = |want: &str| examples.iter().find(|e| e["id"].as_str() == Some(want));
    let mut checked = 0;
    for id in template.split_whitespace().filter_map(|w| w.strip_suffix(":start")) {
        // An example of this size (`id@5`) stands in for the plain one.
        let Some(example) = find(&format!("{id}@{size}")).or_else(|| find(id)) else {
            continue;
        };
        // Only what the card draws at this size: its caption leads a figure's text.
        let caption = strings["examples"][id]["caption"].as_str().unwrap();
        let Some(alt) = alts.iter().find(|alt| alt.contains(caption)) else {
            continue;
        };
        let position = example["position"].as_str().unwrap();
        let groups = match kit.expected().spelled {
            games::Spelled::Stacks => stacking_words(position),
            games::Spelled::Points { players, capitals } => {
                point_words(position, players, capitals)
            }
        };
        let words = format!("Position: {}.", groups.join("; "));
        let after = &alt[alt.find(caption).unwrap() + caption.len()..];
        assert!(
            after.trim_start().starts_with(&words),
            "{what}: `{id}` should read {words:?} after its caption: {alt:?}"
        );
        checked += 1;
    }
    assert!(checked > 0, "{what}: no example drawn at its start");
}

/// The kids of a structure element that are elements themselves.
fn element_kids(doc: &Document, dict: &Dictionary) -> Vec<Dictionary> {
    let kids = match dict.get(b"K") {
        Ok(Object::Array(kids)) => kids.clone(),
        Ok(kid) => vec![kid.clone()],
        Err(_) => Vec::new(),
    };
    kids.iter()
        .filter_map(|k| k.as_reference().ok())
        .filter_map(|id| doc.get_dictionary(id).ok())
        .filter(|d| d.get(b"S").is_ok())
        .cloned()
        .collect()
}

/// The number of cells in each row of each table of `doc`.
fn table_rows(doc: &Document) -> Vec<Vec<usize>> {
    let catalog = doc.catalog().unwrap();
    let root = get(doc, catalog, b"StructTreeRoot").unwrap().as_dict().unwrap();
    let mut stack = vec![root.clone()];
    let mut tables = Vec::new();
    while let Some(dict) = stack.pop() {
        let kids = element_kids(doc, &dict);
        if dict.get(b"S").and_then(Object::as_name).ok() == Some(b"Table".as_slice()) {
            tables.push(kids.iter().map(|row| element_kids(doc, row).len()).collect());
        }
        stack.extend(kids);
    }
    tables
}

/// "Table rows shall have the same number of columns" (veraPDF's PDF/UA-1 rule
/// 7.2-43, from ISO 32000-1 14.8.4.3.4): a ledger whose turn takes a band of two rows
/// (the turn's columns above its stacks) reads each band as one row, on every paper.
#[test]
fn every_row_of_a_table_has_as_many_cells() {
    every_row_of_a_table_has_as_many_cells_in(sample(), 4);
}

/// Every table of `docs` and of Stack-top roads built on A5 and in large print has as
/// many cells in each row; more than `at_least` banded Stack-top ledgers are read.
fn every_row_of_a_table_has_as_many_cells_in(
    docs: &[(String, Document)],
    at_least: usize,
) {
    // Builds shared with `stack_top`, which measures their ledgers' cells.
    let kit = "stack-top-roads";
    let builds: [&[&str]; 2] = [&[kit, "--paper", "a5"], &[kit, "--large-print"]];
    let banded: Vec<(String, Document)> = builds
        .iter()
        .flat_map(|args| pdfs_under(shared::build(args).dir()))
        .map(|p| (p.display().to_string(), Document::load(&p).unwrap()))
        .collect();
    let mut ledgers = 0;
    for (name, doc) in docs.iter().chain(&banded) {
        for rows in table_rows(doc) {
            assert!(rows.iter().all(|&n| n == rows[0] && n > 0), "{name}: {rows:?}");
            ledgers += usize::from(name.contains("stack-top-roads") && rows[0] == 16);
        }
    }
    // The Stack-top ledgers: seven columns and nine stacks, one row a turn.
    assert!(ledgers >= at_least, "{ledgers} banded ledgers");
}

/// The checks above, which the default tier runs on every kit in English and Arabic,
/// over every kit in every language.
#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn the_structure_holds_for_every_kit_in_every_language() {
    let docs = all();
    multi_page_files_have_an_outline_pointing_at_their_pages_in(docs);
    rule_cards_and_host_keys_are_tagged_with_headings_paragraphs_lists_and_figures_in(
        docs,
    );
    all_text_is_tagged_or_an_artifact_and_every_mcid_has_its_element_in(docs);
    every_row_of_a_table_has_as_many_cells_in(docs, 8);
}
