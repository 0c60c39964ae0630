//! The Stack-top roads kit: its sheets read back, and its worked example guarded by
//! the stacking rules.

use crate::cli::{edit, stderr, tablekit};
use crate::support::pdf_probe::{self, Probe};
use crate::support::shared;
use std::path::{Path, PathBuf};

const KIT: &str = "stack-top-roads";
const MM: f64 = 0.05;

/// The kit in `lang` on A4, from the builds shared between tests.
fn built(lang: &str) -> PathBuf {
    crate::support::shared::variant(KIT, lang, "a4", 3)
}

fn length(s: &pdf_probe::Segment) -> f64 {
    ((s.x2 - s.x1).powi(2) + (s.y2 - s.y1).powi(2)).sqrt()
}

fn probe(dir: &Path, sheet: &str) -> &'static Probe {
    crate::support::shared::probe(&crate::support::sheet_pdf(dir, sheet))
}

#[test]
fn board_cells_are_the_declared_size_with_heavy_road_edges() {
    let page = &probe(&built("en"), "board").pages[0];
    // Grid lines: 4 vertical and 4 horizontal lines of 3 × 45 mm, 45 mm apart.
    let mut xs: Vec<f64> = page
        .segments
        .iter()
        .filter(|s| {
            (s.x1 - s.x2).abs() < 1e-3 && ((s.y2 - s.y1).abs() - 135.0).abs() < MM
        })
        .map(|s| s.x1)
        .collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup_by(|a, b| (*a - *b).abs() < MM);
    assert_eq!(xs.len(), 4, "{xs:?}");
    for pair in xs.windows(2) {
        assert!((pair[1] - pair[0] - 45.0).abs() < MM, "{pair:?}");
    }
    // The road edges: four heavy 135 mm lines around the cells.
    let edges = page
        .segments
        .iter()
        .filter(|s| s.width_mm > 2.0 && (length(s) - 135.0).abs() < MM)
        .count();
    assert_eq!(edges, 4, "the four road edges");
    assert!(page.contains_text("a road is a chain of side-by-side cells"));
}

#[test]
fn stones_sheet_has_eight_plus_a_spare_per_player() {
    let page = &probe(&built("en"), "stones").pages[0];
    let white = page.rects.iter().filter(|r| (r.w - 30.0).abs() < MM && r.filled).count();
    assert_eq!(white, 9, "white square stones");
    let letters =
        |l: &str| page.texts.iter().filter(|t| t.text == l && t.size_pt > 20.0).count();
    assert_eq!((letters("W"), letters("B")), (9, 9));
    assert!(page.contains_text("Each player has 8 flat stones"));
}

#[test]
fn ledger_has_a_row_per_turn_and_a_column_per_cell() {
    let pdf = probe(&built("en"), "ledger");
    let text = pdf.text();
    for cell in ["A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3"] {
        assert!(text.contains(cell), "no column {cell}");
    }
    let numbers: Vec<u32> = pdf
        .pages
        .iter()
        .flat_map(|p| &p.texts)
        .filter_map(|t| t.text.trim().parse().ok())
        .collect();
    assert!((1..=40).all(|n| numbers.contains(&n)) && !numbers.contains(&41));
    assert!(text.contains("bottom → top"), "{text}");
}

#[test]
fn rule_card_and_host_key_show_what_the_rules_computed() {
    let dir = built("en");
    let card = probe(&dir, "rule-card").text();
    assert!(card.contains("B tops b1, W tops c1"), "{card}");
    assert!(card.contains("lift 1 to 3 stones"), "{card}");
    let key = probe(&dir, "host-key").text();
    assert!(key.contains("White plays 2a1>11"), "{key}");
    assert!(key.contains("13 legal turns"), "{key}");
    for mv in ["2a1+11", "2a1>11", "a1+", "c3"] {
        assert!(key.contains(mv), "{mv} missing from the host key");
    }
    for sheet in ["board", "stones", "ledger", "rule-card"] {
        assert!(!probe(&dir, sheet).text().contains("13 legal turns"), "{sheet}");
    }
}

#[test]
fn a_kit_claiming_the_reversed_drop_is_legal_fails_check() {
    let tmp = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("kits").join(KIT);
    let kit = tmp.path().join(KIT);
    std::fs::create_dir_all(kit.join("lang")).unwrap();
    for file in ["kit.toml", "lang/en.toml", "lang/fr.toml"] {
        std::fs::copy(src.join(file), kit.join(file)).unwrap();
    }
    edit(&kit.join("kit.toml"), "legal = false", "legal = true");
    let out = tablekit(&["check", kit.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("example `reversed`: the rules disagree"), "{err}");
    assert!(err.contains("must be dropped in order"), "{err}");
}

#[test]
fn french_sheets_are_translated() {
    let dir = built("fr");
    assert!(probe(&dir, "rule-card").text().contains("Fiche de règles"));
    assert!(probe(&dir, "host-key").text().contains("Corrigé de l’animateur"));
}

#[test]
fn the_ledger_has_the_columns_the_rules_document_asks_for() {
    let dir = built("en");
    let ledger = probe(&dir, "ledger");
    for heading in
        ["Turn", "Drops in order", "Visible road?", "W left", "B left", "A1", "C3"]
    {
        // A heading may wrap in its column: each of its words is there.
        let text = ledger.pages[0].text();
        assert!(
            heading.split_whitespace().all(|word| text.contains(word)),
            "{heading:?} missing from the ledger: {}",
            ledger.text()
        );
    }
}

/// The stack cells of a ledger page: the most common width between neighbouring
/// column rules that start at one height (the cells under A1 … C3, nine of them), and
/// the rules' length, their height.
fn stack_cells(page: &pdf_probe::PageProbe) -> Option<(f64, f64, usize)> {
    let mut rows: std::collections::BTreeMap<(i64, i64), Vec<f64>> = Default::default();
    // The light rules of a table (the footer's ruler has finer ticks).
    let rules = page.segments.iter().filter(|s| (s.width_mm - 0.25).abs() < 0.02);
    for s in rules.filter(|s| (s.x1 - s.x2).abs() < 1e-3 && !s.dashed) {
        let key =
            ((s.y1.min(s.y2) * 10.0).round() as i64, (length(s) * 10.0).round() as i64);
        rows.entry(key).or_default().push(s.x1);
    }
    let mut best: Option<(f64, f64, usize)> = None;
    for ((_, len), mut xs) in rows {
        xs.sort_by(f64::total_cmp);
        let mut widths: std::collections::BTreeMap<i64, usize> = Default::default();
        for w in xs.windows(2) {
            *widths.entry(((w[1] - w[0]) * 10.0).round() as i64).or_default() += 1;
        }
        if let Some((&w, &n)) = widths.iter().max_by_key(|&(_, n)| *n)
            && best.is_none_or(|(_, _, most)| n > most)
        {
            best = Some((w as f64 / 10.0, len as f64 / 10.0, n));
        }
    }
    best
}

/// A ledger's stack cell holds the tallest stack the rules allow (every stone of
/// both players, 16) in handwriting: letters 3 mm wide on lines 5 mm apart, on every
/// paper and in large print.
#[test]
fn the_ledger_stack_cells_hold_the_tallest_stack_in_handwriting() {
    // Builds shared with other tests: A4 and Letter as every test reads them, A5 and
    // large print as `pdf_tagged` reads their tables.
    let builds: [(&[&str], PathBuf); 4] = [
        (&["--paper", "a4"], shared::variant(KIT, "en", "a4", 3)),
        (&["--paper", "letter"], shared::variant(KIT, "en", "letter", 3)),
        (&["--paper", "a5"], ledger_build(&[KIT, "--paper", "a5"])),
        (&["--large-print"], ledger_build(&[KIT, "--large-print"])),
    ];
    for (extra, variant) in builds {
        let ledger = shared::probe(&variant.join("ledger.pdf"));
        let (w, h, n) = stack_cells(&ledger.pages[0]).expect("a row of cells");
        // Nine cells: eight rules between them, seven gaps alike at least.
        assert!(n >= 7, "{extra:?}: {n} cells alike");
        let letters = ((w - 1.0) / 3.0).floor() * (h / 5.0 + 1e-6).floor();
        assert!(letters >= 16.0, "{extra:?}: stack cells {w} × {h} mm hold {letters}");
    }
}

/// The players' folder of the shared build `tablekit build <args>` of one variant.
fn ledger_build(args: &[&str]) -> PathBuf {
    let out = shared::build(args).dir().join(KIT);
    let variants = std::fs::read_dir(out).unwrap().map(|e| e.unwrap().path());
    variants.into_iter().find(|p| !p.to_string_lossy().ends_with("-host")).unwrap()
}
