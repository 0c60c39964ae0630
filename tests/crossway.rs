//! The Crossway kit at every offered size, on A4 and Letter: a Go-spaced board that
//! reassembles at exact pitch, stone counts, and the seed's figures verified.

use std::path::{Path, PathBuf};

use crate::cli::{edit, stderr, tablekit};
use crate::support::boards::board_grid;
use crate::support::pdf_probe::Probe;

const KIT: &str = "crossway";
const MM: f64 = 0.05;
const LINE_MM: f64 = 0.35;

/// The kit in English on `paper` at `size`, from the builds shared between tests.
fn build(paper: &str, size: u8) -> PathBuf {
    crate::support::shared::variant(KIT, "en", paper, size)
}

fn probe(dir: &Path, sheet: &str) -> &'static Probe {
    crate::support::shared::probe(&crate::support::sheet_pdf(dir, sheet))
}

fn assert_spacing(lines: &[f64], n: u8, pitch: f64, what: &str) {
    assert_eq!(lines.len(), n as usize, "{what}: {lines:?}");
    for pair in lines.windows(2) {
        assert!((pair[1] - pair[0] - pitch).abs() < MM, "{what}: {pair:?}");
    }
}

#[test]
fn the_smallest_default_and_largest_sizes_build_with_go_spacing_on_a4_and_letter() {
    go_spacing_holds(&[5, 9, 19]);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn every_offered_size_builds_with_go_spacing_on_a4_and_letter() {
    go_spacing_holds(&(5..=19).collect::<Vec<_>>());
}

/// The board at each of `sizes` on A4 and Letter keeps its marks inside and is ruled
/// at Go spacing.
fn go_spacing_holds(sizes: &[u8]) {
    for paper in ["a4", "letter"] {
        for &size in sizes {
            let board = probe(&build(paper, size), "board");
            let what = format!("{paper} {size}×{size}");
            for page in &board.pages {
                page.all_marks_inside(10.0).unwrap_or_else(|e| panic!("{what}: {e}"));
            }
            let (xs, ys) = board_grid(&board.pages, LINE_MM);
            // 22 mm between columns and 23.7 mm between rows, as Go boards are drawn.
            assert_spacing(&xs, size, 22.0, &format!("{what} columns"));
            assert_spacing(&ys, size, 23.7, &format!("{what} rows"));
        }
    }
}

#[test]
fn stones_are_enough_for_any_game_and_their_number_is_stated() {
    for (size, v, h) in [(5u8, 13usize, 12usize), (9, 41, 40)] {
        let sheet = probe(&build("a4", size), "stones");
        let stones = sheet
            .pages
            .iter()
            .flat_map(|p| &p.curves)
            .filter(|c| ((c.max_x - c.min_x) - 20.0).abs() < MM)
            .count();
        // At most half the points each (V rounded up), plus two spares a side.
        assert_eq!(stones, v + h + 4, "{size}×{size}");
        let text = sheet.text();
        assert!(text.contains(&format!("{} dark stones", v + 2)), "{text}");
        assert!(text.contains(&format!("{} white stones", h + 2)), "{text}");
    }
}

#[test]
fn the_seed_figures_are_drawn_from_the_rules_and_answered_in_the_host_key() {
    let dir = build("a4", 9);
    let card = probe(&dir, "rule-card").text();
    assert!(card.contains("the marked points are the only ones V may play"), "{card}");
    assert!(card.contains("must pass"), "{card}");
    let key = probe(&dir, "host-key").text();
    assert!(key.contains("V may play only these points: a5, c2, d4"), "{key}");
    assert!(key.contains("H's winning chain runs a2–b3–c3–d4–e5"), "{key}");
    let ledger = probe(&dir, "ledger").text();
    assert!(ledger.contains("swap") && ledger.contains("The winner's path"), "{ledger}");
}

#[test]
fn claiming_figure_2_shows_h_legal_placements_fails_check() {
    let tmp = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("kits").join(KIT);
    let kit = tmp.path().join(KIT);
    std::fs::create_dir_all(kit.join("lang")).unwrap();
    for entry in std::fs::read_dir(src.join("lang")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), kit.join("lang").join(entry.file_name())).unwrap();
    }
    std::fs::copy(src.join("kit.toml"), kit.join("kit.toml")).unwrap();
    // The seed's caption, "legal placements for Black (H)", as a claim: H to move.
    edit(
        &kit.join("kit.toml"),
        ".HVVV/H.H.H/VVV.H/VH.HV/H.V.H V",
        ".HVVV/H.H.H/VVV.H/VH.HV/H.V.H H",
    );
    let out = tablekit(&["check", kit.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("example `figure2`"), "{err}");
    // With H to move the board itself is impossible: V moves first, so V would have
    // one stone more. The check says so, at the position.
    assert!(
        err.contains("with H to move, expected V to have one stone more than H"),
        "{err}"
    );
    let line = crate::cli::line_of(KIT, ".HVVV/H.H.H/VVV.H/VH.HV/H.V.H V");
    assert!(err.contains(&format!("kit.toml:{line}:12")), "{err}");
}

/// An example whose id ends in `@N` stands in for its plain id on an N×N board only, in
/// Crossway as in Pathstone: the convention is the verifier's, not one game's.
#[test]
fn an_example_for_one_size_is_drawn_at_that_size_only() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = crate::cli::copy_of(KIT, tmp.path());
    edit(&kit.join("kit.toml"), "id = \"stuck\"", "id = \"stuck@7\"");
    let (kit, out) = (kit.to_str().unwrap(), tmp.path().join("out"));
    let out = out.to_str().unwrap();
    let at_seven = tablekit(&["build", kit, "--size", "7", "--out", out]);
    assert!(at_seven.status.success(), "{}", stderr(&at_seven));
    let card = crate::support::pdf_probe::load_file(
        &tmp.path().join("out/crossway/en-a4-7/rule-card.pdf"),
    );
    assert!(card.text().contains("H to move has no legal point"), "{}", card.text());
    // On 9×9 the rule card asks for `stuck`, and no example of that size is there.
    let at_nine = tablekit(&["build", kit, "--size", "9", "--out", out]);
    assert_eq!(at_nine.status.code(), Some(1), "{}", stderr(&at_nine));
    assert!(stderr(&at_nine).contains("stuck"), "{}", stderr(&at_nine));
}
