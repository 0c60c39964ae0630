//! What the facilitator reads: the contents sheet of every build, the build stamp on
//! every page, squares named in text that exist on the board being built, and no
//! host-key text on a player sheet or the contents sheet.

use std::path::{Path, PathBuf};

use crate::cli::{stderr, tablekit};
use crate::support::games::{self, Kit};
use crate::support::pdf_probe::{self, Probe};
use crate::support::shared;

/// One variant on A4, from the builds shared between tests; returns its folder and
/// the files in the order `build` wrote them.
fn build(kit: &str, lang: &str, size: u8) -> (PathBuf, Vec<String>) {
    let (built, dir) = shared::variant_built(kit, lang, "a4", size);
    let written = shared::written(built, &dir);
    (dir, written)
}

/// The sheets of a shared build's variant, each read once for all tests.
fn pdfs(dir: &Path) -> Vec<(String, &'static Probe)> {
    crate::support::variant_pdfs(dir)
        .into_iter()
        .map(|(name, path)| (name, shared::probe(&path)))
        .collect()
}

/// Squares named in a text: `a1`, `C3`, `Sc3`, `Cc3`, and the square of a move
/// such as `3a1>21` or `c2+` (the alphanumeric run before the sign). Runs that are
/// not square-shaped (`8611a6`, `mm`, `100`) are not squares.
fn squares(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for run in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        // A move may start with one digit (the count lifted); a longer run of
        // digits and letters (a build stamp) is no square.
        let body = match run.as_bytes() {
            [first, second, ..]
                if first.is_ascii_digit() && second.is_ascii_alphabetic() =>
            {
                &run[1..]
            }
            _ => run,
        };
        let body = match body.as_bytes() {
            [b'S' | b'C', second, ..] if second.is_ascii_lowercase() => &body[1..],
            _ => body,
        };
        let mut chars = body.chars();
        let Some(letter) = chars.next() else { continue };
        let digits: String = chars.collect();
        if letter.is_ascii_alphabetic()
            && (1..=2).contains(&digits.len())
            && digits.chars().all(|c| c.is_ascii_digit())
            && !digits.starts_with('0')
        {
            found.push(body.to_string());
        }
    }
    found
}

fn on_board(square: &str, size: u8) -> bool {
    let column = square.chars().next().unwrap().to_ascii_lowercase() as u8 - b'a';
    let row: u8 = square[1..].parse().unwrap();
    column < size && (1..=size).contains(&row)
}

#[test]
fn a_square_token_is_read_from_moves_and_placements_but_not_from_stamps() {
    assert_eq!(squares("3a1>21 lifts, Sc3 and Cc3, then c2+"), ["a1", "c3", "c3", "c2"]);
    assert_eq!(squares("stamp 8611a6 · 804c15 · 100 mm · A1–B1–C1"), ["A1", "B1", "C1"]);
    assert!(on_board("C3", 3) && !on_board("d3", 3) && !on_board("a4", 3));
}

#[test]
fn every_square_named_on_a_small_board_s_sheets_is_on_it() {
    // Pathstone 3×3: its sheets would name a square of the larger boards if any did.
    squares_named_are_on_the_board(games::kit("pathstone"), "en", 3);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn every_square_named_on_any_sheet_is_on_the_board_being_built() {
    for kit in games::kits() {
        let sizes = kit.sizes_built();
        for &size in &sizes {
            for lang in &kit.languages {
                // Every language at the smallest and the default size; English at all.
                if lang != "en" && size != sizes[0] && size != kit.default_size {
                    continue;
                }
                squares_named_are_on_the_board(kit, lang, size);
            }
        }
    }
}

fn tmp_dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// Every square any sheet of the build names is on its `size`×`size` board.
fn squares_named_are_on_the_board(kit: &Kit, lang: &str, size: u8) {
    let (dir, _) = build(&kit.id, lang, size);
    for (name, pdf) in pdfs(&dir) {
        let text = pdf.text();
        for square in squares(&text) {
            // The paper's name on the contents sheet is not a square.
            if name == "contents.pdf" && square.eq_ignore_ascii_case("a4") {
                continue;
            }
            assert!(
                on_board(&square, size),
                "{} {lang} {size}×{size} {name} names {square}:\n{text}",
                kit.id
            );
        }
    }
}

#[test]
fn the_contents_sheet_comes_first_and_lists_the_files_written_with_their_pages() {
    contents_lists_the_files_written(games::kit("three-men-slide"), "en");
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn the_contents_sheet_comes_first_and_lists_exactly_the_files_written_with_their_pages() {
    for kit in games::kits() {
        for lang in &kit.languages {
            contents_lists_the_files_written(kit, lang);
        }
    }
}

/// The build's contents sheet is written first and lists every file written, each
/// twice, with its page count; at the kit's smallest size.
fn contents_lists_the_files_written(kit: &Kit, lang: &str) {
    let id = &kit.id;
    {
        {
            let (dir, written) = build(id, lang, *kit.sizes.start());
            assert_eq!(written.first().map(String::as_str), Some("contents.pdf"), "{id}");
            let files = pdfs(&dir);
            let mut on_disk: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
            let mut reported: Vec<&str> = written.iter().map(String::as_str).collect();
            on_disk.sort();
            reported.sort();
            assert_eq!(on_disk, reported, "{id} {lang}");
            let contents = &files.iter().find(|(n, _)| n == "contents.pdf").unwrap().1;
            let text =
                contents.column_text().split_whitespace().collect::<Vec<_>>().join(" ");
            // Every file name the sheet mentions is a file written, and each twice:
            // in the list, and under its picture.
            let listed: Vec<&str> = text
                .split(|c: char| c.is_whitespace() || c == '(' || c == ')')
                .filter(|w| w.ends_with(".pdf"))
                .collect();
            let mut listed_sorted = listed.clone();
            listed_sorted.sort();
            let mut twice: Vec<&str> = reported.iter().flat_map(|r| [*r, *r]).collect();
            twice.sort();
            assert_eq!(listed_sorted, twice, "{id} {lang}: {text}");
            if lang == "ar" {
                return; // read right to left: numbers and names are not in run order
            }
            // Each entry reads `name.pdf (N pages)`: the first number after the name.
            for (name, pdf) in &files {
                let entry = format!("{name} (");
                let at = text.find(&entry).unwrap_or_else(|| panic!("{entry} in {text}"))
                    + name.len();
                let pages: String = text[at..]
                    .chars()
                    .skip_while(|c| !c.is_ascii_digit())
                    .take_while(char::is_ascii_digit)
                    .collect();
                assert_eq!(
                    pages.parse::<usize>().unwrap(),
                    pdf.pages.len(),
                    "{id} {lang}: pages of {name} in {text}"
                );
            }
        }
    }
}

/// The stamp the English contents sheet names after its label.
fn stamp(contents: &Probe) -> String {
    let text = contents.text();
    let at = text.find("Build stamp:").unwrap_or_else(|| panic!("no stamp in:\n{text}"));
    let stamp: String = text[at + "Build stamp:".len()..]
        .trim_start()
        .chars()
        .take_while(char::is_ascii_hexdigit)
        .collect();
    assert_eq!(stamp.len(), 6, "{text}");
    stamp
}

#[test]
fn every_page_of_a_kit_s_builds_carries_its_stamp_and_builds_differ() {
    // Two sizes of one kit: builds that differ only in their size.
    stamps_on_every_page_and_distinct(&["pathstone"]);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn every_page_of_a_build_carries_its_stamp_and_builds_differ() {
    stamps_on_every_page_and_distinct(&[]);
}

/// Every page of the English builds of `only` (every kit if none is named), at their
/// two smallest sizes, carries the build's stamp, and no two builds share one.
fn stamps_on_every_page_and_distinct(only: &[&str]) {
    let mut stamps = Vec::new();
    for kit in games::kits().iter().filter(|k| only.is_empty() || only.contains(&&*k.id))
    {
        let (kit, sizes) = (&kit.id, kit.sizes_built());
        for &size in &sizes[..sizes.len().min(2)] {
            let (dir, _) = build(kit, "en", size);
            let files = pdfs(&dir);
            let contents = &files.iter().find(|(n, _)| n == "contents.pdf").unwrap().1;
            let stamp = stamp(contents);
            for (name, pdf) in &files {
                for (i, page) in pdf.pages.iter().enumerate() {
                    assert!(
                        page.contains_text(&stamp),
                        "{kit} {size} {name} page {} lacks {stamp}",
                        i + 1
                    );
                }
            }
            stamps.push(stamp);
        }
    }
    let mut unique = stamps.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), stamps.len(), "{stamps:?}");
}

/// Literal pieces of every `host.*` string (split at placeholders), long enough to
/// be telling.
fn host_phrases(kit: &str, lang: &str) -> Vec<String> {
    let path = crate::support::kit_dir(kit).join("lang").join(format!("{lang}.toml"));
    let table: toml::Table = std::fs::read_to_string(path).unwrap().parse().unwrap();
    let host = table["host"].as_table().unwrap();
    let mut phrases = Vec::new();
    for (key, value) in host {
        if matches!(key.as_str(), "title" | "keep_away") {
            continue;
        }
        let text = value.as_str().unwrap();
        for piece in text.split(['{', '}']).step_by(2) {
            // The first sentence-sized piece, whitespace removed as the probe compares.
            let piece: String = piece.split_whitespace().collect();
            if piece.chars().count() >= 24 {
                phrases.push(piece);
            }
        }
    }
    phrases
}

#[test]
fn a_kit_s_player_sheets_and_contents_sheet_show_no_host_key_text() {
    for lang in ["en", "ar"] {
        no_host_key_text_beside_the_key(games::kit("crossway"), lang);
    }
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn player_sheets_and_the_contents_sheet_show_no_host_key_text() {
    for kit in games::kits() {
        for lang in &kit.languages {
            no_host_key_text_beside_the_key(kit, lang);
        }
    }
}

/// No phrase of the kit's host-key strings is on a sheet of the build but the key,
/// at the kit's smallest size.
fn no_host_key_text_beside_the_key(kit: &Kit, lang: &str) {
    let kit = kit.id.as_str();
    {
        {
            let (dir, _) = build(kit, lang, *games::kit(kit).sizes.start());
            let phrases = host_phrases(kit, lang);
            assert!(!phrases.is_empty(), "{kit} {lang}");
            let files = pdfs(&dir);
            let squash = |p: &Probe| -> String { p.text().split_whitespace().collect() };
            let key = squash(files.iter().find(|(n, _)| n == "host-key.pdf").unwrap().1);
            if lang != "ar" {
                // The phrases are really host-key text (checked where runs read in order).
                assert!(phrases.iter().any(|p| key.contains(p.as_str())), "{kit} {lang}");
            }
            for (name, pdf) in &files {
                if name == "host-key.pdf" {
                    continue;
                }
                let text = squash(pdf);
                for phrase in &phrases {
                    assert!(
                        !text.contains(phrase.as_str()),
                        "{kit} {lang} {name}: {phrase}"
                    );
                }
            }
        }
    }
}

/// Stack-top roads' reversed-drop figure shows the wrong landing, not a forbidden path:
/// the carry's arrow is plain (no dashed, crossed arrow), and an X is drawn over the
/// white stone said to land first, on b1.
#[test]
fn the_reversed_drop_figure_crosses_out_w_landing_first_not_the_path() {
    let (dir, _) = build("stack-top-roads", "en", 3);
    let card = pdf_probe::load_file(&dir.join("rule-card.pdf"));
    let page = &card.pages[0];
    // The X: two solid diagonal strokes 0.45 mm wide that cross.
    let diagonals: Vec<_> = page
        .segments
        .iter()
        .filter(|s| !s.dashed && (s.width_mm - 0.45).abs() < 0.02)
        .filter(|s| (s.x1 - s.x2).abs() > 1.0 && (s.y1 - s.y2).abs() > 1.0)
        .collect();
    assert_eq!(diagonals.len(), 2, "one X in the figures: {diagonals:?}");
    let centre = |s: &pdf_probe::Segment| ((s.x1 + s.x2) / 2.0, (s.y1 + s.y2) / 2.0);
    let (cx, cy) = centre(diagonals[0]);
    let other = centre(diagonals[1]);
    assert!((cx - other.0).abs() < 0.1 && (cy - other.1).abs() < 0.1);
    // Under it, a W (and no B): the white stone, said to be dropped first.
    let under: Vec<&str> = page
        .texts
        .iter()
        .filter(|t| (t.x - cx).abs() < 4.0 && (t.y - cy).abs() < 3.0)
        .map(|t| t.text.as_str())
        .collect();
    assert_eq!(under, ["W"], "the crossed stone");
    // No crossed path: the only dashed strokes are the ghost stones' outlines.
    let dashed_arrows = page
        .segments
        .iter()
        .filter(|s| s.dashed && (s.width_mm - 0.5).abs() < 0.02)
        .count();
    assert_eq!(dashed_arrows, 0, "a dashed arrow along the legal path");
    // The path keeps a plain arrow: the diagram after the carry and the refused one
    // have one each.
    let arrows = page
        .segments
        .iter()
        .filter(|s| {
            !s.dashed && (s.width_mm - 0.5).abs() < 0.02 && (s.y1 - s.y2).abs() < 1e-3
        })
        .filter(|s| (s.x2 - s.x1).abs() > 10.0)
        .count();
    assert!(arrows >= 2, "the carry's arrows: {arrows}");
}

/// Three-men slide's rule card ties the starter to A, says who slides first, and asks
/// players to agree the stopping rules before the list of them, not inside its last
/// item; in every language the sentence leads the list.
#[test]
fn three_men_slide_says_who_starts_and_agrees_the_stopping_rules_first() {
    let (dir, _) = build("three-men-slide", "en", 3);
    let card = pdf_probe::load_file(&dir.join("rule-card.pdf")).text();
    let card = card.split_whitespace().collect::<Vec<_>>().join(" ");
    for words in [
        "Before anyone takes a colour, decide who starts",
        "The starter plays A",
        "A, who placed first, makes the first slide",
    ] {
        assert!(card.contains(words), "{words:?} missing");
    }
    let agree = card.find("Agree on these stopping rules").expect("the agreement");
    let first_rule = card.find("A line of three ends the game").expect("the first rule");
    let stuck = card.find("has no slide at all").expect("the last rule");
    assert!(agree < first_rule && first_rule < stuck, "the agreement leads the list");
    assert!(!card[stuck..].contains("Agree"), "the agreement inside the last rule");
    // The other languages carry the same sentence, once, before the rules it introduces.
    let kit = games::kit("three-men-slide");
    for lang in kit.languages.iter().filter(|l| *l != "en") {
        let (dir, _) = build("three-men-slide", lang, 3);
        let strings =
            std::fs::read_to_string(format!("kits/three-men-slide/lang/{lang}.toml"))
                .unwrap();
        let value = |key: &str| {
            strings
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{key} = \"")))
                .map(|v| v.trim_end_matches('"').to_string())
                .unwrap_or_else(|| panic!("{lang}: no {key}"))
        };
        let card = pdf_probe::load_file(&dir.join("rule-card.pdf")).text();
        let card = card.split_whitespace().collect::<Vec<_>>().join(" ");
        let stuck = value("end_stuck");
        let first_words: String =
            stuck.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
        let intro_words: String =
            value("end_intro").split_whitespace().take(3).collect::<Vec<_>>().join(" ");
        let (Some(a), Some(b)) = (card.find(&intro_words), card.find(&first_words))
        else {
            // Arabic is stored in visual order by the reader: its sentences are not
            // found word for word; the strings file still keeps them apart.
            assert!(
                !stuck.contains(&intro_words),
                "{lang}: the agreement in the last rule"
            );
            continue;
        };
        assert!(a < b, "{lang}: the agreement leads the rules");
    }
}

#[test]
fn the_contents_sheet_speaks_of_board_parts_only_when_the_board_has_them() {
    let tmp = tempfile::tempdir().unwrap();
    let run = crate::cli::tablekit(&[
        "build",
        "crossway",
        "pathstone",
        "--out",
        tmp.path().to_str().unwrap(),
    ]);
    assert!(run.status.success());
    for dir in ["crossway/en-a4-9", "pathstone/en-a4-5"] {
        let dir = tmp.path().join(dir);
        let board = pdf_probe::load_file(&dir.join("board.pdf"));
        assert_eq!(board.pages.len(), 1, "{}", dir.display());
        let contents = pdf_probe::load_file(&dir.join("contents.pdf")).column_text();
        let flat: String = contents.split_whitespace().collect::<Vec<_>>().join(" ");
        let entry = "board.pdf (1 page), 1 per table: the board at full size.";
        assert!(flat.contains(entry), "{flat}");
        assert!(!flat.contains("if it has several pages"), "{}: {flat}", dir.display());
    }
}

#[test]
fn the_preparing_steps_name_board_parts_only_for_a_board_in_parts() {
    // The English A4 builds shared between tests.
    let variant = |kit: &str, size: u8| shared::variant(kit, "en", "a4", size);
    for (dir, parts) in [
        (variant("crossway", 9), false),
        (variant("crossway", 19), true),
        (variant("pathstone", 5), false),
        (variant("pathstone", 8), true),
    ] {
        let board = shared::probe(&dir.join("board.pdf"));
        assert_eq!(board.pages.len() > 1, parts, "{}", dir.display());
        let text = shared::probe(&dir.join("contents.pdf")).column_text();
        let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(
            flat.contains("The board comes in parts"),
            parts,
            "{}: {flat}",
            dir.display()
        );
        assert!(!flat.contains("If the board comes in parts"), "{}", dir.display());
        let more = flat.contains("gluing the board's parts included");
        assert_eq!(more, parts, "{}: the time for parts only with parts", dir.display());
    }
    // Crowns to cut out only on the sizes that have them.
    let crowns = |dir: PathBuf| {
        let text = shared::probe(&dir.join("contents.pdf")).text();
        text.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .contains("cut out the Crowns")
    };
    assert!(crowns(variant("pathstone", 5)));
    assert!(!crowns(variant("pathstone", 4)), "Pathstone 4×4 has no Crowns");
    // A board in one piece, where the kit says so.
    let text = shared::probe(&variant("three-men-slide", 3).join("contents.pdf")).text();
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("Lay the board on the table; it needs no cutting."), "{flat}");
    assert!(!flat.contains("The board comes in parts"), "{flat}");
}

/// Here in French (inches) and Arabic (millimetres); the full tier adds English
/// landscape A4 and millimetres.
#[test]
fn the_contents_sheet_names_the_paper_in_the_sheet_s_language() {
    contents_sheets_name_their_paper(&["fr", "ar"]);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn the_contents_sheet_names_every_paper_in_the_sheet_s_language() {
    contents_sheets_name_their_paper(&["en", "fr", "ar"]);
}

/// The contents sheet of Three-men slide names the paper in the sheet's language, for
/// each paper in the cases whose language is one of `langs`.
fn contents_sheets_name_their_paper(langs: &[&str]) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().to_str().unwrap();
    let cases = [
        (
            &["--landscape"][..],
            "en",
            "en-a4-landscape",
            "Paper: A4, landscape",
            "a4-landscape",
        ),
        (
            &["--paper", "300x400mm"][..],
            "en",
            "en-300x400mm",
            "Paper: 300 × 400 mm",
            "300x400mm",
        ),
        (
            &["--paper", "8.5x11in"][..],
            "fr",
            "fr-8.5x11in",
            "8,5 × 11\u{a0}po",
            "8.5x11in",
        ),
        (&["--paper", "300x400mm"][..], "ar", "ar-300x400mm", "مم", "300x400mm"),
    ];
    for (options, lang, folder, shown, slug) in cases {
        if !langs.contains(&lang) {
            continue;
        }
        let mut args = vec!["build", "three-men-slide", "--lang", lang, "--out", out];
        args.extend(options);
        let run = tablekit(&args);
        assert!(run.status.success(), "{}", stderr(&run));
        let file = tmp.path().join("three-men-slide").join(folder).join("contents.pdf");
        let text = pdf_probe::load_file(&file).text();
        assert!(text.contains(shown), "{folder}: {text}");
        // The slug stays in the command that builds the kit again, and nowhere else.
        let prose = text.replace(&format!("--paper {slug}"), "").to_lowercase();
        assert!(!prose.contains(slug), "{folder}: the folder's slug: {text}");
    }
}

/// Every text a template prints comes from the strings: outside its tags a template
/// holds markup and placeholders only, and inside them no literal word, unit or
/// separator but spaces.
#[test]
fn templates_hold_no_word_unit_separator_or_paper_name_of_their_own() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
    let mut files = Vec::new();
    let mut folders = vec![root];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "tera") {
                files.push(path);
            }
        }
    }
    assert!(files.len() >= 20, "{files:?}");
    // Literals a template may hold: names of sheets, examples and strings keys, the
    // page's own placeholders, numbers, and whitespace.
    let allowed = |literal: &str| {
        literal.trim().is_empty()
            || literal
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "_-".contains(c))
            || (literal.starts_with('{') && literal.ends_with('}'))
    };
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let mut rest = text.as_str();
        let mut outside = String::new();
        while let Some(open) = rest.find('{') {
            outside.push_str(&rest[..open]);
            let close_mark = match rest[open..].chars().nth(1) {
                Some('{') => "}}",
                Some('%') => "%}",
                Some('#') => "#}",
                _ => {
                    outside.push('{');
                    rest = &rest[open + 1..];
                    continue;
                }
            };
            let end = rest[open..].find(close_mark).expect("a closed tag") + open;
            let tag = &rest[open..end];
            if !tag.starts_with("{#") {
                for (i, literal) in tag.split('"').enumerate() {
                    if i % 2 == 1 {
                        assert!(
                            allowed(literal),
                            "{}: literal \"{literal}\"",
                            file.display()
                        );
                    }
                }
                assert!(!tag.contains("capitalize"), "{}: {tag}", file.display());
            }
            rest = &rest[end + 2..];
        }
        outside.push_str(rest);
        for line in outside.lines() {
            // Markup: a figure line (`@board compact`), a heading or list mark.
            let words = line.trim_start_matches(['#', '-', '>', ' ', '[', ']', '!']);
            if words.starts_with('@') {
                continue;
            }
            assert!(
                !words.chars().any(char::is_alphabetic),
                "{}: `{line}` prints words of its own",
                file.display()
            );
        }
    }
}

/// The command that builds a kit again reads left to right on a right-to-left sheet,
/// across a line break too: checked from where poppler finds each word's glyphs on
/// the page, not from the text layer (which keeps reading order).
#[test]
fn the_rebuild_command_reads_in_order_on_an_arabic_sheet() {
    if !crate::previews::poppler() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().to_str().unwrap();
    let args = ["build", "pathstone", "--lang", "ar", "--paper", "a5", "--size", "7"];
    let class = ["--players", "24", "--tables", "6", "--out", out];
    let run = tablekit(&[&args[..], &class[..]].concat());
    assert!(run.status.success(), "{}", stderr(&run));
    let file = tmp.path().join("pathstone/ar-a5-7-players-24-tables-6/contents.pdf");
    let boxes = std::process::Command::new("pdftotext")
        .args(["-bbox", file.to_str().unwrap(), "-"])
        .output()
        .unwrap();
    let html = String::from_utf8(boxes.stdout).unwrap();
    // Each word with its page's number, left edge and baseline.
    let mut words = Vec::new();
    for (page, text) in html.split("<page ").skip(1).enumerate() {
        for word in text.split("<word ").skip(1) {
            let number = |name: &str| -> f64 {
                let at = word.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
                word[at..].split('"').next().unwrap().parse().unwrap()
            };
            let text = word.split('>').nth(1).unwrap().split('<').next().unwrap();
            words.push((page, number("xMin"), number("yMax"), text.to_string()));
        }
    }
    let command = ["tablekit", "build", "pathstone", "--lang", "ar", "--paper", "a5"];
    let at = words.iter().position(|w| w.3 == "tablekit").expect("the command");
    let mut line: Vec<&(usize, f64, f64, String)> = words
        .iter()
        .filter(|w| w.0 == words[at].0 && (w.2 - words[at].2).abs() < 1.0)
        .collect();
    line.sort_by(|a, b| a.1.total_cmp(&b.1));
    let left_to_right: Vec<&str> = line.iter().map(|w| w.3.as_str()).collect();
    let start = left_to_right.iter().position(|w| *w == "tablekit").unwrap();
    assert_eq!(left_to_right[start..start + command.len()], command, "{left_to_right:?}");
    // Its end, on the next line, in order too.
    let rest = ["--players", "24", "--tables", "6"];
    let players = words.iter().find(|w| w.3 == "--players").expect("the class options");
    let mut next: Vec<&(usize, f64, f64, String)> = words
        .iter()
        .filter(|w| w.0 == players.0 && (w.2 - players.2).abs() < 1.0)
        .collect();
    next.sort_by(|a, b| a.1.total_cmp(&b.1));
    let next: Vec<&str> = next.iter().map(|w| w.3.as_str()).collect();
    let from = next.iter().position(|w| *w == "--players").unwrap();
    assert_eq!(next[from..from + rest.len()], rest, "{next:?}");
}

/// The forms of a game term in a language, as its glossary lists them.
fn glossary_forms(lang: &str, term: &str) -> Vec<String> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("kits/glossary/{lang}.toml"));
    let table: toml::Table =
        toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let forms = table[term].as_array().unwrap();
    forms.iter().map(|form| form.as_str().unwrap().to_lowercase()).collect()
}

/// A sheet of a Pathstone size without Crowns names none, in any language: every
/// PDF of the build, the host key's too, read for the glossary's word for a Crown.
fn assert_no_crowns_named(folder: &Path, lang: &str) {
    let forms = glossary_forms(lang, "crown");
    for (sheet, pdf) in crate::support::variant_pdfs(folder) {
        let text = pdf_probe::load_file(&pdf).text().to_lowercase();
        for form in &forms {
            assert!(!text.contains(form), "{}: {sheet} names {form:?}", folder.display());
        }
    }
}

/// Every size of every kit says how long a game takes there, in every language: two
/// numbers of minutes after the board's size, in the contents sheet's table notes.
/// A Pathstone size without Crowns names none on any sheet.
#[test]
fn every_size_of_a_kit_has_a_game_time_and_names_only_its_pieces() {
    // Pathstone in French: six sizes, two of them without Crowns.
    game_times_and_pieces_hold(&["pathstone", "--lang", "fr"], 6, 2);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn every_size_of_every_kit_has_a_game_time_and_names_only_its_pieces() {
    // Pathstone 3×3 and 4×4 in six languages have no Crowns.
    game_times_and_pieces_hold(&["--lang", "all"], 100, 12);
}

/// Builds every size with `args`: at least `builds` of them, `crownless` without
/// Crowns.
fn game_times_and_pieces_hold(args: &[&str], builds: usize, crownless_builds: usize) {
    let tmp = tmp_dir();
    let out = tmp.path().to_str().unwrap();
    let run = tablekit(&[&["build", "--all-sizes", "--out", out], args].concat());
    assert!(run.status.success(), "{}", stderr(&run));
    let (mut checked, mut crownless) = (0, 0);
    for kit in std::fs::read_dir(tmp.path()).unwrap() {
        let kit = kit.unwrap().path();
        for folder in std::fs::read_dir(&kit).unwrap() {
            let folder = folder.unwrap().path();
            let name = folder.file_name().unwrap().to_string_lossy().into_owned();
            if name.ends_with("-host") {
                continue;
            }
            let lang = name.split('-').next().unwrap();
            if kit.ends_with("pathstone")
                && (name.ends_with("-3") || name.ends_with("-4"))
            {
                assert_no_crowns_named(&folder, lang);
                crownless += 1;
            }
            // Read column by column: the plan is set in two.
            let text = pdf_probe::load_file(&folder.join("contents.pdf")).column_text();
            let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
            // The size as built: the folder's trailing number, or 3 for Three-men slide.
            let size: u8 = name.rsplit('-').next().unwrap().parse().unwrap_or(3);
            let board = format!("{size}×{size}");
            let after = flat.split(&board).skip(1).find(|rest| {
                let numbers: Vec<u32> = rest
                    .split(|c: char| !c.is_ascii_digit())
                    .filter_map(|n| n.parse().ok())
                    .take(2)
                    .collect();
                numbers.len() == 2 && numbers[0] >= 5 && numbers[0] < numbers[1]
            });
            assert!(after.is_some(), "{name}: no game time for {board}: {flat}");
            if name.starts_with("en-") {
                assert!(flat.contains(&format!("A game on {board}: ")), "{name}: {flat}");
            }
            checked += 1;
        }
    }
    assert!(checked >= builds, "{checked} builds");
    assert_eq!(crownless, crownless_builds, "Pathstone 3×3 and 4×4");
}

/// "The board is printed at full size on N sheets" counts the board file's pages,
/// which hold two parts each when they are landscape.
#[test]
fn a_board_s_sheet_count_is_its_file_s_page_count() {
    // Pathstone's larger boards come in parts on A4.
    sheet_counts_are_page_counts(&["pathstone"], &["a4"], 3);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn the_board_s_sheet_count_is_its_file_s_page_count() {
    sheet_counts_are_page_counts(&[], &["a4", "letter"], 10);
}

/// Builds every size with `args` on each of `papers`, and compares the sheets the
/// contents sheet says a board in parts takes with its file's pages (at least `boards`).
fn sheet_counts_are_page_counts(args: &[&str], papers: &[&str], boards: usize) {
    let mut checked = 0;
    for &paper in papers {
        // Shared: `cli_faults` reads the folders of Pathstone's sizes on A4 too.
        let out =
            shared::build(&[args, &["--all-sizes", "--paper", paper]].concat()).dir();
        for kit in std::fs::read_dir(out).unwrap() {
            for folder in std::fs::read_dir(kit.unwrap().path()).unwrap() {
                let folder = folder.unwrap().path();
                if folder.to_string_lossy().ends_with("-host") {
                    continue;
                }
                let contents = shared::probe(&folder.join("contents.pdf")).column_text();
                let flat = contents.split_whitespace().collect::<Vec<_>>().join(" ");
                let Some(rest) = flat.split("printed at full size on ").nth(1) else {
                    continue;
                };
                let said: usize = rest.split(' ').next().unwrap().parse().unwrap();
                let pages = shared::probe(&folder.join("board.pdf")).pages.len();
                assert_eq!(said, pages, "{}", folder.display());
                checked += 1;
            }
        }
    }
    assert!(checked >= boards, "{checked} boards in parts");
}

/// The minutes the contents sheet gives for preparing include the board's parts: a
/// board split into N parts adds three minutes a part (rounded up to 5) to the time
/// the same kit takes with the board whole, on paper large enough for it.
/// The sample: Pathstone at its largest.
#[test]
fn the_preparation_time_includes_gluing_the_board_s_parts() {
    preparation_time_includes_gluing(&[("pathstone", "8")]);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn the_preparation_time_of_every_board_in_parts_includes_gluing_them() {
    preparation_time_includes_gluing(&[("crossway", "13"), ("pathstone", "8")]);
}

/// Each of `boards` (a kit and a size), split on A4 and whole on a large paper, is
/// given three minutes more to prepare for each of its parts.
fn preparation_time_includes_gluing(boards: &[(&str, &str)]) {
    let tmp = tempfile::tempdir().unwrap();
    let minutes = |folder: &Path| -> u32 {
        let text = pdf_probe::load_file(&folder.join("contents.pdf")).column_text();
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let rest = flat.split("Allow about ").nth(1).expect("a preparation time");
        rest.split(' ').next().unwrap().parse().unwrap()
    };
    for &(kit, size) in boards {
        let mut said = Vec::new();
        for paper in ["a4", "1000x1000mm"] {
            let out = tmp.path().join(paper);
            let args = ["build", kit, "--size", size, "--paper", paper, "--out"];
            let run = tablekit(&[&args[..], &[out.to_str().unwrap()]].concat());
            assert!(run.status.success(), "{}", stderr(&run));
            let folder = out.join(kit).join(format!("en-{paper}-{size}"));
            let board = pdf_probe::load_file(&folder.join("board.pdf")).text();
            let parts: u32 = board.split("Part 1 of ").nth(1).map_or(1, |rest| {
                rest.split(|c: char| !c.is_ascii_digit()).next().unwrap().parse().unwrap()
            });
            said.push((minutes(&folder), parts));
        }
        let [(split, parts), (whole, one)] = said[..] else { unreachable!() };
        assert!(
            parts > 1 && one == 1,
            "{kit} {size}: {parts} parts on A4, {one} on the large paper"
        );
        let least = whole + 3 * parts;
        assert!(
            (least..least + 5).contains(&split),
            "{kit} {size}: {split} minutes split, {whole} whole, {parts} parts"
        );
    }
}
