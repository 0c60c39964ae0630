//! The PDFs, read back with an independent parser: page sizes, geometry in
//! millimetres, fonts, text, the host key kept apart, and byte-identical rebuilds.

use std::fs;
use std::path::{Path, PathBuf};

use crate::cli::{KIT, tablekit};
use crate::support::pdf_probe::{self, PageProbe, Probe};
use crate::support::shared;

const PLAYER_SHEETS: [&str; 4] = ["board", "counters", "repetition-log", "rule-card"];
const MM: f64 = 0.05;

/// The default kit built in `lang` on `paper`, shared with the other modules.
fn built(lang: &str, paper: &str) -> PathBuf {
    shared::variant(KIT, lang, paper, 3)
}

fn probe(dir: &Path, sheet: &str) -> &'static Probe {
    shared::probe(&crate::support::sheet_pdf(dir, sheet))
}

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}

#[test]
fn pages_are_exactly_a4_or_letter() {
    for (paper, w, h) in [("a4", 210.0, 297.0), ("letter", 215.9, 279.4)] {
        let dir = built("en", paper);
        for sheet in PLAYER_SHEETS.iter().chain(&["host-key"]) {
            for (i, page) in probe(&dir, sheet).pages.iter().enumerate() {
                assert!(
                    close(page.width_mm, w, 0.01) && close(page.height_mm, h, 0.01),
                    "{paper} {sheet} page {i}: {} × {}",
                    page.width_mm,
                    page.height_mm
                );
            }
        }
    }
}

/// Centres of the circles of a given diameter on a page.
fn circle_centres(page: &PageProbe, diameter: f64) -> Vec<(f64, f64)> {
    page.curves
        .iter()
        .filter(|c| {
            close(c.max_x - c.min_x, diameter, MM)
                && close(c.max_y - c.min_y, diameter, MM)
        })
        .map(|c| ((c.min_x + c.max_x) / 2.0, (c.min_y + c.max_y) / 2.0))
        .collect()
}

#[test]
fn board_points_are_the_declared_spacing_apart() {
    for paper in ["a4", "letter"] {
        let page = &probe(&built("en", paper), "board").pages[0];
        // kit.toml: 9 mm points, 50 mm apart.
        let points = circle_centres(page, 9.0);
        assert_eq!(points.len(), 9, "{paper}: {points:?}");
        let mut xs: Vec<f64> = points.iter().map(|p| p.0).collect();
        let mut ys: Vec<f64> = points.iter().map(|p| p.1).collect();
        xs.sort_by(f64::total_cmp);
        ys.sort_by(f64::total_cmp);
        xs.dedup_by(|a, b| close(*a, *b, MM));
        ys.dedup_by(|a, b| close(*a, *b, MM));
        assert_eq!((xs.len(), ys.len()), (3, 3), "{paper}: a 3×3 grid");
        for pair in xs.windows(2).chain(ys.windows(2)) {
            assert!(close(pair[1] - pair[0], 50.0, MM), "{paper}: spacing {pair:?}");
        }
        // Movement edges join neighbouring points: twelve solid 50 mm segments.
        let edges = page
            .segments
            .iter()
            .filter(|s| !s.dashed && close(length(s), 50.0, MM) && s.width_mm > 1.0)
            .count();
        assert_eq!(edges, 12, "{paper}");
        // The two diagonals are dashed and thinner: winning lines, not paths.
        let diagonals: Vec<_> = page
            .segments
            .iter()
            .filter(|s| s.dashed && close(length(s), 100.0 * 2f64.sqrt(), MM))
            .collect();
        assert_eq!(diagonals.len(), 2, "{paper}");
        assert!(diagonals.iter().all(|d| d.width_mm < 1.0));
    }
}

fn length(s: &pdf_probe::Segment) -> f64 {
    ((s.x2 - s.x1).powi(2) + (s.y2 - s.y1).powi(2)).sqrt()
}

#[test]
fn every_page_has_a_100_mm_calibration_bar_and_the_print_note() {
    for (lang, note) in [("en", "Print at 100% / actual size"), ("fr", "Imprimez à 100")]
    {
        let dir = built(lang, "a4");
        for sheet in PLAYER_SHEETS.iter().chain(&["host-key"]) {
            for (i, page) in probe(&dir, sheet).pages.iter().enumerate() {
                let bar = page.segments.iter().any(|s| {
                    close(length(s), 100.0, MM) && close(s.y1, s.y2, 0.001) && !s.dashed
                });
                assert!(bar, "{lang} {sheet} page {i}: no 100 mm bar");
                assert!(
                    page.contains_text(note),
                    "{lang} {sheet} page {i}: no print note"
                );
            }
        }
    }
}

#[test]
fn nothing_is_drawn_within_10_mm_of_the_paper_edge() {
    for paper in ["a4", "letter"] {
        let dir = built("fr", paper);
        for sheet in PLAYER_SHEETS.iter().chain(&["host-key"]) {
            for (i, page) in probe(&dir, sheet).pages.iter().enumerate() {
                if let Err(e) = page.all_marks_inside(10.0) {
                    panic!("{paper} {sheet} page {i}: {e}");
                }
            }
        }
    }
}

#[test]
fn fonts_are_embedded_and_subset_and_viewers_are_asked_not_to_scale() {
    let dir = built("en", "a4");
    for sheet in PLAYER_SHEETS.iter().chain(&["host-key"]) {
        let pdf = probe(&dir, sheet);
        assert!(!pdf.fonts.is_empty(), "{sheet}");
        for font in &pdf.fonts {
            assert!(font.embedded, "{sheet}: {} not embedded", font.base_font);
            assert!(font.subset, "{sheet}: {} not marked as a subset", font.base_font);
            assert!(font.base_font.contains("DejaVuSans"), "{sheet}: {}", font.base_font);
            // DejaVu Sans has over 6000 glyphs; a sheet uses a few dozen.
            let glyphs = font.glyph_count.expect("glyph count");
            assert!(glyphs < 200, "{sheet}: {} has {glyphs} glyphs", font.base_font);
        }
        assert_eq!(pdf.catalog_print_scaling.as_deref(), Some("None"), "{sheet}");
        assert_eq!(pdf.version, "1.6", "{sheet}");
    }
}

#[test]
fn sheets_carry_their_text_in_each_language() {
    let cases = [
        ("en", "board", "Movement edge"),
        ("en", "counters", "Player A: 4 round white counters"),
        ("en", "repetition-log", "Repetition log"),
        ("en", "rule-card", "From A1, a counter can slide only to"),
        ("en", "host-key", "Watching a game: stopping check-list"),
        ("fr", "board", "Plateau"),
        ("fr", "rule-card", "Fiche de règles"),
        ("fr", "host-key", "Corrigé"),
    ];
    for (lang, sheet, needle) in cases {
        let pdf = probe(&built(lang, "a4"), sheet);
        assert!(
            pdf.pages.iter().any(|p| p.contains_text(needle)),
            "{lang} {sheet}: {needle:?} not in\n{}",
            pdf.text()
        );
    }
}

#[test]
fn the_practice_answer_is_only_in_the_host_key() {
    for lang in ["en", "fr"] {
        let dir = built(lang, "a4");
        for sheet in PLAYER_SHEETS {
            let text = probe(&dir, sheet).text();
            assert!(!text.contains("C2-C1"), "{lang} {sheet} gives the answer away");
        }
        let key = probe(&dir, "host-key").text();
        assert!(key.contains("C2-C1"), "{lang} host key lacks the answer:\n{key}");
        assert!(key.contains("A1–B1–C1"), "{lang} host key lacks the line:\n{key}");
    }
}

#[test]
fn the_repetition_log_has_a_row_per_sliding_turn_up_to_40() {
    let pdf = probe(&built("en", "a4"), "repetition-log");
    let text = pdf.text();
    let numbers: Vec<u32> = pdf
        .pages
        .iter()
        .flat_map(|p| p.texts.iter())
        .filter_map(|t| t.text.trim().parse().ok())
        .filter(|n| *n >= 1)
        .collect();
    for turn in 1..=40 {
        assert!(numbers.contains(&turn), "no row {turn}");
    }
    assert!(!numbers.contains(&41), "a row past the limit");
    assert!(text.contains("start"), "no row for the first sliding position");
    assert!(text.contains("How the game ended"));
}

#[test]
fn counters_sheet_has_three_plus_a_spare_per_player_at_the_declared_size() {
    let page = &probe(&built("en", "a4"), "counters").pages[0];
    // Player A's counters are 30 mm circles; B's are hexagons of the same size.
    assert_eq!(circle_centres(page, 30.0).len(), 4);
    // Each counter is cut on its own outline: no cut squares around them.
    let cut_tiles = page.rects.iter().filter(|r| r.w > 30.0 + MM && r.w < 40.0);
    assert_eq!(cut_tiles.count(), 0, "no cut square around a counter");
    assert!(page.segments.iter().any(|s| s.dashed), "cut lines are dashed");
}

#[test]
fn rebuilding_gives_identical_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let first = built("en", "a4");
    let out = tablekit(&["build", "--out", tmp.path().to_str().unwrap()]);
    assert!(out.status.success());
    for sheet in PLAYER_SHEETS.iter().chain(&["host-key"]) {
        let a = fs::read(crate::support::sheet_pdf(&first, sheet)).unwrap();
        let b = fs::read(crate::support::sheet_pdf(
            &tmp.path().join(KIT).join("en-a4"),
            sheet,
        ))
        .unwrap();
        assert!(a == b, "{sheet} differs between two builds");
    }
}

#[test]
fn building_in_one_process_and_in_parallel_gives_identical_bytes() {
    use tablekit::Paper;
    use tablekit::pipeline::{Options, build};
    let sources = crate::support::shipped_kits();
    let source =
        sources.iter().find(|s| s.dir.contains(KIT)).expect("the kit is built in");
    let kit = tablekit::pipeline::load(source).unwrap();
    let options = Options {
        lang: "en".into(),
        paper: Paper::a4(),
        size: None,
        cell: None,
        calibration: None,
        previews: Default::default(),
        class: None,
        cut: Default::default(),
        large_print: false,
        templates: tablekit::pipeline::builtin_templates(kit.game()),
    };
    let bytes = |b: tablekit::pipeline::Built| -> Vec<Vec<u8>> {
        b.outputs.into_iter().map(|o| o.bytes).collect()
    };
    let once = bytes(build(&kit, &options).unwrap());
    let again = bytes(build(&kit, &options).unwrap());
    assert!(once == again, "a second build in the same process differs");
    let parallel: Vec<Vec<Vec<u8>>> = std::thread::scope(|s| {
        let handles: Vec<_> =
            (0..3).map(|_| s.spawn(|| bytes(build(&kit, &options).unwrap()))).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(parallel.iter().all(|p| *p == once), "parallel builds differ");
    let cli = fs::read(built("en", "a4").join("board.pdf")).unwrap();
    // The contents sheet comes first; the board second.
    assert!(cli == once[1], "the library and the command line disagree");
}
