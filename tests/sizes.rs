//! Any paper, any cell size: for every kit, on every named paper and at two cell
//! sizes, the board keeps the requested pitch (split into parts where it must be), the
//! pages are exact, every mark stays in the safe area, and the pieces are all there.

use std::fs;
use std::path::Path;

use crate::cli::stderr;
use crate::support::boards::board_grid;
use crate::support::games::{self, Kit, Marks, kit};
use crate::support::pdf_probe::{self, Probe};
use crate::support::tablekit;

const MM: f64 = 0.05;
const PAPERS: [(&str, f64, f64); 4] = [
    ("a4", 210.0, 297.0),
    ("letter", 215.9, 279.4),
    ("a3", 297.0, 420.0),
    ("legal", 215.9, 355.6),
];

fn build(out: &Path, kit: &Kit, paper: &str, cell: f64) -> std::path::PathBuf {
    let cell_arg = cell.to_string();
    let args = [
        "build",
        &kit.id,
        "--paper",
        paper,
        "--cell",
        &cell_arg,
        "--out",
        out.to_str().unwrap(),
    ];
    let run = tablekit(&args);
    assert!(run.status.success(), "{}", stderr(&run));
    // The cell size sets the edition apart (`-cell-40mm`).
    let suffix = kit.default_suffix();
    out.join(&kit.id).join(format!("en-{paper}{suffix}-cell-{cell_arg}mm"))
}

/// The letters (or discs) that mark each player's pieces, counted over a pieces
/// sheet: pieces are drawn at `piece` mm, letters at a size that follows it.
fn pieces(pdf: &Probe, kit: &Kit, piece: f64) -> (usize, usize) {
    let texts = || pdf.pages.iter().flat_map(|p| &p.texts);
    let big = |t: &&pdf_probe::TextRun| t.size_pt > piece * 0.6;
    match kit.expected().marks {
        Marks::Letters(a, b) => (
            texts().filter(big).filter(|t| t.text == a).count(),
            texts().filter(big).filter(|t| t.text == b).count(),
        ),
        Marks::Discs => {
            let discs = pdf
                .pages
                .iter()
                .flat_map(|p| &p.curves)
                .filter(|c| ((c.max_x - c.min_x) - piece).abs() < MM)
                .count();
            (discs, 0)
        }
    }
}

#[test]
fn a_kit_on_a_paper_at_two_cell_sizes() {
    // Crossway on Letter: rows and columns at different pitches, a US paper.
    kit_on_paper_at_two_cell_sizes(kit("crossway"), PAPERS[1]);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn every_kit_on_every_paper_at_two_cell_sizes() {
    for kit in games::kits() {
        for paper in PAPERS {
            kit_on_paper_at_two_cell_sizes(kit, paper);
        }
    }
}

/// The kit's board keeps its pitch at 0.8 and 1.3 times its cell size, split where it
/// must be; every page is the paper's and keeps its marks inside; every piece is there.
fn kit_on_paper_at_two_cell_sizes(kit: &Kit, (paper, w, h): (&str, f64, f64)) {
    let tmp = tempfile::tempdir().unwrap();
    let expected = kit.expected();
    let (columns, rows) = kit.pitch_mm;
    for scale in [0.8, 1.3] {
        let cell = (columns * scale * 10.0).round() / 10.0;
        let dir = build(tmp.path(), kit, paper, cell);
        let what = format!("{} on {paper} at {cell} mm", kit.id);
        let board = pdf_probe::load_file(&dir.join("board.pdf"));
        let split = board.pages.len() > 1;
        for (i, page) in board.pages.iter().enumerate() {
            // The paper asked for, upright, or turned for a part of a board.
            let is = |a: f64, b: f64| {
                (page.width_mm - a).abs() < 0.01 && (page.height_mm - b).abs() < 0.01
            };
            assert!(is(w, h) || (split && is(h, w)), "{what} p{i}: page size");
            page.all_marks_inside(10.0).unwrap_or_else(|e| panic!("{what} p{i}: {e}"));
        }
        let (xs, ys) = board_grid(&board.pages, expected.line_width_mm);
        for (lines, pitch) in [(&xs, cell), (&ys, cell * rows / columns)] {
            assert!(lines.len() >= 3, "{what}: {lines:?}");
            for pair in lines.windows(2) {
                assert!((pair[1] - pair[0] - pitch).abs() < MM, "{what}: pitch {pair:?}");
            }
        }
        let sheet = kit.pieces_sheet();
        let pdf = pdf_probe::load_file(&dir.join(format!("{sheet}.pdf")));
        for page in &pdf.pages {
            page.all_marks_inside(10.0).unwrap_or_else(|e| panic!("{what} {sheet}: {e}"));
        }
        let counted = pieces(&pdf, kit, expected.piece_mm * cell / columns);
        assert_eq!(counted, expected.pieces_each, "{what}: pieces per player");
    }
}

/// A turned paper and one given in inches; the full tier adds millimetres and a
/// named paper spelt in capitals.
#[test]
fn landscape_and_custom_papers_are_exact() {
    papers_are_exact(2);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn landscape_custom_and_named_papers_are_exact() {
    papers_are_exact(4);
}

/// The first `count` of the papers below give pages of exactly their size.
fn papers_are_exact(count: usize) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().to_str().unwrap();
    let papers = [
        (vec!["--paper", "a4", "--landscape"], "en-a4-landscape", 297.0, 210.0),
        (vec!["--paper", "8.5x11in"], "en-8.5x11in", 215.9, 279.4),
        (vec!["--paper", "300x400mm"], "en-300x400mm", 300.0, 400.0),
        (vec!["--paper", "Tabloid"], "en-tabloid", 279.4, 431.8),
    ];
    for (args, dir, w, h) in papers.into_iter().take(count) {
        let mut full = vec!["build", "stack-top-roads", "--out", out];
        full.extend(args);
        let run = tablekit(&full);
        assert!(run.status.success(), "{}", stderr(&run));
        let pdf = pdf_probe::load_file(
            &tmp.path().join("stack-top-roads").join(dir).join("board.pdf"),
        );
        for page in &pdf.pages {
            assert!(
                (page.width_mm - w).abs() < 0.01 && (page.height_mm - h).abs() < 0.01
            );
        }
    }
}

#[test]
fn a_kit_builds_on_small_paper() {
    // One kit in one language; the full tier builds every kit in every language.
    builds_on_small_paper(&["pathstone", "--lang", "el"], 1);
}

/// Small paper: every kit builds on A5 and on 150 × 200 mm in every language, every
/// page of every file that size (either way up), nothing inside the 10 mm margin.
#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn every_kit_builds_on_small_paper_in_every_language() {
    builds_on_small_paper(&["--lang", "all"], games::kits().len());
}

/// Builds with `args` on A5 and on 150 × 200 mm (`kits` kits), and checks every page
/// of every file is that size, either way up, with nothing inside the 10 mm margin.
fn builds_on_small_paper(args: &[&str], kits_built: usize) {
    let tmp = tempfile::tempdir().unwrap();
    for (paper, width, height) in [("a5", 148.0, 210.0), ("150x200mm", 150.0, 200.0)] {
        let out = tmp.path().join(paper);
        let fixed = ["build", "--paper", paper, "--out", out.to_str().unwrap()];
        let run = tablekit(&[&fixed[..], args].concat());
        assert!(run.status.success(), "{paper}: {}", stderr(&run));
        let mut kits = 0;
        for kit in fs::read_dir(&out).unwrap() {
            kits += 1;
            for folder in fs::read_dir(kit.unwrap().path()).unwrap() {
                for pdf in fs::read_dir(folder.unwrap().path()).unwrap() {
                    let pdf = pdf.unwrap().path();
                    let probe = pdf_probe::load_file(&pdf);
                    for page in &probe.pages {
                        // Portrait, or landscape where a board is turned to fit.
                        let off = |w: f64, h: f64| {
                            (page.width_mm - w).abs() + (page.height_mm - h).abs()
                        };
                        let size = off(width, height).min(off(height, width));
                        assert!(
                            size < 0.02,
                            "{}: {} × {}",
                            pdf.display(),
                            page.width_mm,
                            page.height_mm
                        );
                        if let Err(e) = page.all_marks_inside(10.0) {
                            panic!("{}: {e}", pdf.display());
                        }
                    }
                }
            }
        }
        assert_eq!(kits, kits_built, "{paper}: every kit");
    }
}

#[test]
fn a5_is_a_named_paper() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tablekit(&[
        "build",
        "crossway",
        "--paper",
        "A5",
        "--out",
        tmp.path().to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    let folder = fs::read_dir(tmp.path().join("crossway"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            let name = p.file_name().unwrap().to_str().unwrap();
            name.starts_with("en-a5") && !name.ends_with("-host")
        })
        .unwrap();
    let pdf = pdf_probe::load_file(&folder.join("rule-card.pdf"));
    for page in &pdf.pages {
        assert!(
            (page.width_mm - 148.0).abs() < 0.01 && (page.height_mm - 210.0).abs() < 0.01
        );
    }
}

#[test]
fn us_papers_carry_an_inch_scale_too() {
    let papers = [
        ("letter", true),
        ("legal", true),
        ("8.5x11in", true),
        ("tabloid", true),
        ("a4", false),
    ];
    for (paper, inches) in papers {
        // The English builds shared between tests.
        let dir = crate::support::shared::variant("three-men-slide", "en", paper, 3);
        let pdf = crate::support::shared::probe(&dir.join("board.pdf"));
        let page = &pdf.pages[0];
        let four_inches =
            page.segments.iter().any(|s| ((s.x2 - s.x1).abs() - 101.6).abs() < MM);
        assert_eq!(four_inches, inches, "{paper}");
    }
}

#[test]
fn impossible_requests_are_refused_before_anything_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().to_str().unwrap();
    for (args, needle) in [
        (vec!["--cell", "5"], "cells are 12 to 500 mm"),
        (vec!["--cell", "250"], "does not fit on a4 paper"),
        (vec!["--cell", "huge"], "has no cell size `huge`"),
        (vec!["--paper", "80x90mm"], "too small to print on"),
        (vec!["--paper", "b5"], "unknown paper `b5`"),
    ] {
        let mut full = vec!["build", "pathstone", "--out", out];
        full.extend(args.iter().copied());
        let run = tablekit(&full);
        assert!(!run.status.success(), "{args:?}");
        assert!(stderr(&run).contains(needle), "{args:?}: {}", stderr(&run));
    }
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
}
