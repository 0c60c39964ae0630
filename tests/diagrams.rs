//! The diagrams of rule cards, quick starts and puzzles, measured from the PDFs: cells
//! big enough to read at arm's length at every board size, stack layers thick
//! enough to count.

use std::collections::BTreeMap;
use std::path::Path;

use crate::cli::tablekit;
use crate::support::pdf_probe::PageProbe;
use crate::support::shared;

/// The cells of every drawn grid on `page`: vertical lines of one length (20 mm or
/// more: three cells at least) starting at one height, four or more side by side, are
/// a diagram's columns; their most common spacing (the sides of a board's edge bars
/// stand closer, once each side) is its cell, or on a board of points the distance
/// between them.
fn grid_cells(page: &PageProbe) -> Vec<f64> {
    let mut columns: BTreeMap<(i64, i64), Vec<f64>> = BTreeMap::new();
    for s in &page.segments {
        let vertical = (s.x1 - s.x2).abs() < 0.01 && (s.y1 - s.y2).abs() >= 20.0;
        if vertical && !s.dashed {
            let key = (
                (s.y1.min(s.y2) * 10.0).round() as i64,
                ((s.y1 - s.y2).abs() * 10.0).round() as i64,
            );
            columns.entry(key).or_default().push(s.x1);
        }
    }
    let mut cells = Vec::new();
    for mut xs in columns.into_values().filter(|xs| xs.len() >= 4) {
        xs.sort_by(f64::total_cmp);
        xs.dedup_by(|a, b| (*a - *b).abs() < 0.05);
        let mut counts: BTreeMap<i64, usize> = BTreeMap::new();
        for w in xs.windows(2) {
            *counts.entry(((w[1] - w[0]) * 10.0).round() as i64).or_default() += 1;
        }
        let most = counts.values().max().copied().unwrap_or(0);
        let cell = counts.iter().filter(|&(_, &n)| n == most).map(|(&gap, _)| gap).max();
        cells.extend(cell.map(|gap| gap as f64 / 10.0));
    }
    cells
}

/// Diagram cells at least 10 mm on rule cards and quick starts and 8 mm in puzzles and
/// their answers, stack layers at least 1 mm thick, on the sheets of each build of
/// `builds` (the options after `build`, each a build shared between tests); more
/// than `least` cells measured.
fn check_diagram_cells(builds: &[Vec<&str>], least: usize) {
    let mut measured = 0;
    for args in builds {
        for path in pdfs(shared::build(args).dir()) {
            let name = path.file_name().unwrap().to_str().unwrap().to_string();
            let least = match name.as_str() {
                "rule-card.pdf" | "quick-start.pdf" => 10.0,
                "puzzles.pdf" | "host-key.pdf" => 8.0,
                _ => continue,
            };
            let probe = shared::probe(&path);
            for (number, page) in probe.pages.iter().enumerate() {
                for cell in grid_cells(page) {
                    measured += 1;
                    assert!(
                        cell >= least - 0.01,
                        "{args:?} {name} page {}: a diagram cell of {cell:.2} mm",
                        number + 1
                    );
                }
                // A stack's layers are outlined and filled; each at least 1 mm thick.
                for rect in
                    page.rects.iter().filter(|r| r.filled && r.stroked && r.w > 1.5)
                {
                    assert!(
                        rect.h >= 1.0 - 0.01,
                        "{args:?} {name} page {}: a layer {:.2} mm thick at {:.0}, {:.0}",
                        number + 1,
                        rect.h,
                        rect.x,
                        rect.y
                    );
                }
            }
        }
    }
    assert!(measured > least, "only {measured} diagrams measured");
}

/// The sample: the cells shrink as the board grows, so the largest board of each game
/// with puzzles (Pathstone 8×8, Crossway 19×19), the smallest Pathstone, and every
/// kit at its default size in Arabic, all with one-move puzzles (drawn on the same
/// cells, and found in a fraction of the time; the label tests read these builds).
#[test]
fn diagram_cells_are_ten_millimetres_on_cards_and_eight_in_puzzles_and_layers_one() {
    let quick = |options: &[&'static str]| [&QUICK_PUZZLES[..], options].concat();
    let builds = [
        quick(&["pathstone", "--lang", "en", "--size", "8"]),
        quick(&["pathstone", "--size", "3"]),
        quick(&["crossway", "--size", "19"]),
        quick(&["--lang", "ar"]),
    ];
    check_diagram_cells(&builds, 20);
}

/// Every Pathstone size with puzzles as they are built by default (deeper answers,
/// other positions), Crossway at its default and largest size.
#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn diagram_cells_at_every_pathstone_size_are_ten_millimetres_on_cards_and_eight_in_puzzles()
 {
    let sizes = ["3", "4", "5", "6", "7", "8"].map(|size| ("pathstone", size));
    let mut builds: Vec<Vec<&str>> = sizes
        .into_iter()
        .chain([("crossway", "9"), ("crossway", "19")])
        .map(|(kit, size)| vec![kit, "--size", size, "--puzzles", "2"])
        .collect();
    builds.push(vec!["stack-top-roads"]);
    check_diagram_cells(&builds, 60);
}

fn pdfs(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(pdfs(&path));
        } else if path.extension().is_some_and(|x| x == "pdf") {
            out.push(path);
        }
    }
    out
}

/// Options for puzzles of one move: quick to find, and drawn as any others.
const QUICK_PUZZLES: [&str; 4] = ["--puzzles", "2", "--plies", "1"];

/// The sample: every kit in Arabic and Stack-top roads in every language, with
/// puzzles of one move (builds the label test reads too).
#[test]
fn every_sheet_with_diagrams_has_a_key_to_their_symbols_in_its_language() {
    let mut checked = 0;
    for options in [&["--lang", "ar"][..], &["stack-top-roads", "--lang", "all"]] {
        let out = shared::build(&[&QUICK_PUZZLES[..], options].concat()).dir();
        checked += sheets_have_a_key_in_their_language(out);
    }
    assert!(checked >= 40, "{checked}");
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn every_sheet_with_diagrams_in_every_language_has_a_key_to_their_symbols() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let done = tablekit(&[
        "build",
        "--lang",
        "all",
        "--puzzles",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
    let checked = sheets_have_a_key_in_their_language(&out);
    assert!(checked >= 96, "{checked}");
}

/// Every sheet with diagrams under `out` has the key to their symbols, titled in the
/// sheet's language; a host key without puzzles has none. Returns the sheets read.
fn sheets_have_a_key_in_their_language(out: &Path) -> usize {
    let mut checked = 0;
    for path in pdfs(out) {
        let name = path.file_name().unwrap().to_str().unwrap();
        if !["rule-card.pdf", "quick-start.pdf", "puzzles.pdf", "host-key.pdf"]
            .contains(&name)
        {
            continue;
        }
        let variant = path.parent().unwrap().file_name().unwrap().to_str().unwrap();
        let kit = path
            .parent()
            .unwrap()
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap();
        let lang = variant.split('-').next().unwrap();
        let strings: toml::Table = toml::from_str(
            &std::fs::read_to_string(
                crate::support::kit_dir(kit).join(format!("lang/{lang}.toml")),
            )
            .unwrap(),
        )
        .unwrap();
        let title = strings["diagrams"]["key_title"].as_str().unwrap();
        let probe = shared::probe(&path);
        // A host key without puzzles draws no diagram, and needs no key.
        let drawn = name != "host-key.pdf" || variant.contains("puzzles");
        let shown = probe.pages.iter().any(|page| page.contains_text(title));
        assert_eq!(shown, drawn, "{kit} {variant} {name}: {title:?}");
        checked += 1;
    }
    checked
}

/// Black's pieces in diagrams are dark, White's white: in greyscale at arm's length
/// the sides differ by tone even on a layer too thin for its letter. Every outlined
/// and filled rectangle (a stack's layer, a wall, a key's sample) on the sheets with
/// diagrams of the stacking games is one or the other.
#[test]
fn diagram_pieces_of_the_two_sides_differ_by_tone() {
    let (mut dark, mut light) = (0, 0);
    // The English folders of builds the cell and key tests read too: Pathstone 8×8
    // and Stack-top roads 3×3, with puzzles of one move.
    let builds: [(&str, &[&str]); 2] = [
        ("pathstone", &["pathstone", "--lang", "en", "--size", "8"]),
        ("stack-top-roads", &["stack-top-roads", "--lang", "all"]),
    ];
    for (kit, options) in builds {
        let out = shared::build(&[&QUICK_PUZZLES[..], options].concat()).dir();
        let english = |path: &std::path::PathBuf| {
            let variant = path.parent().unwrap().file_name().unwrap().to_string_lossy();
            variant.starts_with("en-")
        };
        for path in pdfs(&out.join(kit)).into_iter().filter(english) {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if !["rule-card.pdf", "quick-start.pdf", "puzzles.pdf"]
                .contains(&name.as_str())
            {
                continue;
            }
            let probe = shared::probe(&path);
            let pieces = probe.pages.iter().flat_map(|p| &p.rects);
            for rect in pieces.filter(|r| r.filled && r.stroked) {
                match rect.fill_gray {
                    g if g >= 0.99 => light += 1,
                    g if g <= 0.35 => dark += 1,
                    g => panic!("{kit} {name}: a piece of grey {g} at {rect:?}"),
                }
            }
        }
    }
    assert!(dark > 20 && light > 20, "{dark} dark and {light} light pieces read");
}

/// A box on the page, in mm: left, top, right, bottom.
type MmBox = (f64, f64, f64, f64);

/// How far a label's box may run into a stroke or a piece and still count as clear
/// of it: PDF numbers are rounded, and a glyph's side bearings are inside the box.
const TOUCH_MM: f64 = 0.02;

/// The pieces drawn on `page`: outlined and filled rectangles (a stack's layer, a
/// wall), filled round shapes (stones, counters) and filled polygons (walls on cut
/// sheets, Crowns, an arrow's head), as boxes. Filled rectangles without an outline
/// pale enough to print under things (a road's shading) are ground, not pieces.
fn piece_boxes(page: &PageProbe) -> Vec<MmBox> {
    let rects = page
        .rects
        .iter()
        .filter(|r| r.filled && (r.stroked || r.fill_gray < 0.7))
        .map(|r| (r.x, r.y, r.x + r.w, r.y + r.h));
    let shapes = page.curves.iter().chain(&page.polygons).filter(|c| c.filled);
    rects.chain(shapes.map(|c| (c.min_x, c.min_y, c.max_x, c.max_y))).collect()
}

/// Whether box `a` holds box `b`, give or take `slack` mm.
fn holds(a: MmBox, b: MmBox, slack: f64) -> bool {
    b.0 >= a.0 - slack && b.1 >= a.1 - slack && b.2 <= a.2 + slack && b.3 <= a.3 + slack
}

/// How far boxes `a` and `b` overlap, as the lesser of the overlap's width and height
/// (0 when they do not meet).
fn overlap(a: MmBox, b: MmBox) -> f64 {
    let w = a.2.min(b.2) - a.0.max(b.0);
    let h = a.3.min(b.3) - a.1.max(b.1);
    w.min(h).max(0.0)
}

/// Whether the straight piece from `p` to `q` passes through box `b` (Liang–Barsky).
fn crosses(b: MmBox, (p, q): ((f64, f64), (f64, f64))) -> bool {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    for (step, room) in
        [(-dx, p.0 - b.0), (dx, b.2 - p.0), (-dy, p.1 - b.1), (dy, b.3 - p.1)]
    {
        if step == 0.0 {
            if room < 0.0 {
                return false;
            }
        } else {
            let t = room / step;
            if step < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    t0 < t1
}

/// What a label at `label` runs into on `page`: each stroke it crosses (a grid line,
/// a board's edge, a piece's outline, an arrow) and each piece it overlaps, in words.
fn label_faults(page: &PageProbe, label: MmBox, pieces: &[MmBox]) -> Vec<String> {
    let mut faults = Vec::new();
    let inner =
        (label.0 + TOUCH_MM, label.1 + TOUCH_MM, label.2 - TOUCH_MM, label.3 - TOUCH_MM);
    for s in &page.segments {
        // The stroke as drawn is its width wide: the label's box grown by half of it.
        let half = s.width_mm / 2.0;
        let grown = (inner.0 - half, inner.1 - half, inner.2 + half, inner.3 + half);
        if crosses(grown, ((s.x1, s.y1), (s.x2, s.y2))) {
            faults.push(format!(
                "crosses a {:.2} mm stroke ({:.2}, {:.2})–({:.2}, {:.2})",
                s.width_mm, s.x1, s.y1, s.x2, s.y2
            ));
        }
    }
    for &piece in pieces {
        if overlap(inner, piece) > 0.0 {
            faults.push(format!(
                "overlaps a piece at ({:.2}, {:.2})–({:.2}, {:.2})",
                piece.0, piece.1, piece.2, piece.3
            ));
        }
    }
    faults
}

/// Every label of a diagram (a coordinate, a stack's height, its "+k" of hidden
/// pieces, a mark on a point) stands in free space: it crosses no stroke (grid line,
/// board edge, piece outline, arrow) and overlaps no piece, on every rule card, quick
/// start, puzzle sheet and host key of each build of `builds` (the options after
/// `build`, each with `--puzzles 2 --plies 1`). A piece's own letter, drawn inside
/// the piece, is the piece's, not a label. Returns the labels read and how many of
/// them count hidden pieces ("+k").
fn check_diagram_labels(builds: &[&[&str]]) -> (usize, usize) {
    let (mut labels, mut hidden_counts, mut faults) = (0, 0, Vec::new());
    let paths = builds.iter().flat_map(|options| {
        let out = shared::build(&[&QUICK_PUZZLES[..], options].concat()).dir();
        pdfs(out).into_iter().map(move |path| (out, path))
    });
    for (out, path) in paths {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !["rule-card.pdf", "quick-start.pdf", "puzzles.pdf", "host-key.pdf"]
            .contains(&name.as_str())
        {
            continue;
        }
        let sheet = path.strip_prefix(out).unwrap().display().to_string();
        let probe = shared::probe(&path);
        for (number, page) in probe.pages.iter().enumerate() {
            let pieces = piece_boxes(page);
            for run in page.texts.iter().filter(|t| t.figure && !t.artifact) {
                let label = run.cap_box();
                if pieces.iter().any(|&p| holds(p, label, 0.3)) {
                    continue;
                }
                labels += 1;
                hidden_counts += usize::from(run.text.starts_with('+'));
                for fault in label_faults(page, label, &pieces) {
                    faults.push(format!(
                        "{sheet} page {}: {:?} at ({:.2}, {:.2})–({:.2}, {:.2}) {fault}",
                        number + 1,
                        run.text,
                        label.0,
                        label.1,
                        label.2,
                        label.3
                    ));
                }
            }
        }
    }
    assert!(faults.is_empty(), "{} label faults:\n{}", faults.len(), faults.join("\n"));
    (labels, hidden_counts)
}

/// The sample: every built-in kit at its default size in Arabic (read right to left),
/// and the largest Pathstone board, whose small cells and tall stacks crowd the labels
/// most, in English.
#[test]
fn diagram_labels_cross_no_stroke_and_overlap_no_piece() {
    let builds: [&[&str]; 2] =
        [&["--lang", "ar"], &["pathstone", "--lang", "en", "--size", "8"]];
    let (labels, hidden_counts) = check_diagram_labels(&builds);
    assert!(labels > 500 && hidden_counts > 2, "{labels} labels, {hidden_counts} +k");
}

/// Every built-in kit at every board size, in English and in Arabic.
#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn diagram_labels_at_every_size_cross_no_stroke_and_overlap_no_piece() {
    let builds: [&[&str]; 2] =
        [&["--lang", "en", "--all-sizes"], &["--lang", "ar", "--all-sizes"]];
    let (labels, hidden_counts) = check_diagram_labels(&builds);
    assert!(labels > 2000 && hidden_counts > 10, "{labels} labels, {hidden_counts} +k");
}
