//! The Pathstone kit at every size from 3×3 to 8×8, on A4 and Letter: counts from the
//! rules, boards at exact pitch, and split boards that reassemble.

use std::path::{Path, PathBuf};

use crate::cli::{copy_of, stderr, tablekit};
use crate::support::boards::board_grid;
use crate::support::pdf_probe::Probe;

const KIT: &str = "pathstone";
const CELL: f64 = 32.0;
const MM: f64 = 0.05;
/// Stones and Crowns per player, by size (the seed's table).
const RESERVES: [(u8, usize, usize); 6] =
    [(3, 10, 0), (4, 15, 0), (5, 21, 1), (6, 30, 1), (7, 40, 2), (8, 50, 2)];

/// The kit in English on `paper` at `size`, from the builds shared between tests.
fn build(paper: &str, size: u8) -> PathBuf {
    crate::support::shared::variant(KIT, "en", paper, size)
}

fn probe(dir: &Path, sheet: &str) -> &'static Probe {
    crate::support::shared::probe(&crate::support::sheet_pdf(dir, sheet))
}

fn assert_pitch(lines: &[f64], n: u8, what: &str) {
    assert_eq!(lines.len(), n as usize + 1, "{what}: {lines:?}");
    for pair in lines.windows(2) {
        assert!((pair[1] - pair[0] - CELL).abs() < MM, "{what}: pitch {pair:?}");
    }
}

/// Sizes the default tier builds: one without Crowns, one with a Crown, and the
/// largest, with two Crowns and a board in parts.
const SAMPLE: [u8; 3] = [4, 5, 8];

fn reserves(sizes: &[u8]) -> impl Iterator<Item = (u8, usize, usize)> {
    RESERVES.into_iter().filter(|(size, _, _)| sizes.contains(size))
}

#[test]
fn three_sizes_build_on_a4_and_letter_with_the_board_at_exact_pitch() {
    board_at_exact_pitch(&SAMPLE);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn every_size_builds_on_a4_and_letter_with_the_board_at_exact_pitch() {
    board_at_exact_pitch(&[3, 4, 5, 6, 7, 8]);
}

/// At each of `sizes`, on A4 and Letter, the board keeps its marks inside, tells how
/// to put its parts together once, and is ruled at 32 mm.
fn board_at_exact_pitch(sizes: &[u8]) {
    for paper in ["a4", "letter"] {
        for (size, _, _) in reserves(sizes) {
            let dir = build(paper, size);
            let board = probe(&dir, "board");
            let what = format!("{paper} {size}×{size}");
            for page in &board.pages {
                page.all_marks_inside(10.0).unwrap_or_else(|e| panic!("{what}: {e}"));
            }
            if board.pages.len() > 1 {
                // The assembly plan opens the board, or the board is parts only and
                // the plan is on the contents sheet.
                let contents = probe(&dir, "contents");
                let on_board = board.pages[0].contains_text("Putting the board together");
                let on_contents = contents
                    .pages
                    .iter()
                    .any(|p| p.contains_text("Putting the board together"));
                assert!(on_board != on_contents, "{what}: the plan once");
                if on_contents {
                    assert!(board.pages[0].contains_text("Board · Part 1 of"), "{what}");
                }
            }
            let (xs, ys) = board_grid(&board.pages, 0.4);
            assert_pitch(&xs, size, &format!("{what} columns"));
            assert_pitch(&ys, size, &format!("{what} rows"));
        }
    }
}

#[test]
fn boards_too_large_for_the_paper_are_split_never_shrunk() {
    // 5×5 at 32 mm fits A4's 180 mm; 6×6 (192 mm plus labels) does not.
    assert_eq!(probe(&build("a4", 5), "board").pages.len(), 1);
    let six = probe(&build("a4", 6), "board");
    // Two parts; their words and plan are on the contents sheet.
    assert_eq!(six.pages.len(), 2, "two parts");
    // 8×8 needs four parts on portrait Letter; the two short ones share a sheet.
    let eight = probe(&build("letter", 8), "board");
    assert_eq!(eight.pages.len(), 3, "8×8 on Letter: {} pages", eight.pages.len());
}

#[test]
fn pieces_and_reserves_come_from_the_rules_for_three_sizes() {
    pieces_and_reserves_from_the_rules(&SAMPLE);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn pieces_and_reserves_come_from_the_rules_for_each_size() {
    pieces_and_reserves_from_the_rules(&[3, 4, 5, 6, 7, 8]);
}

/// At each of `sizes`, the stones sheet and the rule card give the stones and Crowns
/// the rules hand each player, a spare of each, a fold line for every stone.
fn pieces_and_reserves_from_the_rules(sizes: &[u8]) {
    for (size, stones, crowns) in reserves(sizes) {
        let dir = build("a4", size);
        let sheet = probe(&dir, "stones");
        let count = |letter: &str, pt: f64| {
            sheet
                .pages
                .iter()
                .flat_map(|p| &p.texts)
                .filter(|t| t.text == letter && (t.size_pt - pt).abs() < 0.1)
                .count()
        };
        // 24 mm pieces: stone letters are 21.6 pt, Crown letters 19.2 pt.
        assert_eq!(count("W", 21.6), stones + 1, "{size}: white stones (one spare)");
        assert_eq!(count("B", 21.6), stones + 1, "{size}: black stones (one spare)");
        // Crowns have a spare like the stones, where the size has Crowns at all.
        let printed = if crowns > 0 { crowns + 1 } else { 0 };
        assert_eq!(count("W", 19.2), printed, "{size}: white Crowns and a spare");
        assert_eq!(count("B", 19.2), printed, "{size}: black Crowns and a spare");
        let folds =
            sheet.pages.iter().flat_map(|p| &p.segments).filter(|s| s.dashed).count();
        assert!(folds >= 2 * (stones + 1), "{size}: every stone has a fold line");
        let card = probe(&dir, "rule-card").text();
        let card = card.split_whitespace().collect::<Vec<_>>().join(" ");
        // The Crowns are counted in words; a size without them never names them.
        let crowns_said = match crowns {
            0 => None,
            1 => Some("Each also has 1 Crown.".to_string()),
            n => Some(format!("Each also has {n} Crowns.")),
        };
        for setup in [Some(format!("each start with {stones} stones")), crowns_said]
            .iter()
            .flatten()
        {
            assert!(card.contains(setup), "{size}: {setup:?} not on the rule card");
        }
        if crowns == 0 {
            assert!(!card.to_lowercase().contains("crown"), "{size}: {card}");
        }
        let stones_sheet = sheet.text();
        assert!(
            !card.contains(": 0") && !stones_sheet.contains(": 0"),
            "{size}: a count of 0"
        );
        assert!(
            card.contains(&format!("lift 1 to {size} pieces")),
            "{size}: carry limit"
        );
        let ledger = probe(&dir, "ledger");
        let boxes = ledger
            .pages
            .iter()
            .flat_map(|p| &p.rects)
            .filter(|r| (r.w - 5.0).abs() < MM && (r.h - 5.0).abs() < MM)
            .count();
        assert_eq!(boxes, 2 * (stones + crowns), "{size}: a box per piece in hand");
    }
}

#[test]
fn the_rule_card_draws_the_examples_and_the_host_key_answers_them() {
    let dir = build("a4", 5);
    let card = probe(&dir, "rule-card").text();
    for caption in ["After c2+: the Crown flattens the wall", "White's road joins", "+2"]
    {
        assert!(card.contains(caption), "{caption:?} not on the rule card");
    }
    let key = probe(&dir, "host-key").text();
    assert!(
        key.contains("White plays e1 and completes the road a1–b1–c1–d1–e1"),
        "{key}"
    );
    assert!(key.contains("c2+ is refused"), "{key}");
    // Without Crowns (3×3) the card shows no Crown example and names none; the host
    // key refuses the move onto a wall without them.
    let small = build("a4", 3);
    let card = probe(&small, "rule-card").text();
    assert!(!card.contains("flattens the wall") && !card.contains("Crown"), "{card}");
    let key = probe(&small, "host-key").text();
    assert!(key.contains("is refused: nothing may land on a wall"), "{key}");
}

#[test]
fn a_size_the_game_does_not_have_is_refused_before_anything_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().to_str().unwrap();
    let run = tablekit(&["build", KIT, "--size", "9", "--out", out]);
    assert_eq!(run.status.code(), Some(2), "a command-line mistake");
    assert!(stderr(&run).contains("--size: no board size 9"), "{}", stderr(&run));
    assert!(stderr(&run).contains("3×3 to 8×8"), "{}", stderr(&run));
    let other = tablekit(&["build", "three-men-slide", "--size", "5", "--out", out]);
    assert_eq!(other.status.code(), Some(2));
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
}

/// Appends an example to a copy of a kit and runs `check` on it.
fn check_with_example(kit: &str, example: &str) -> std::process::Output {
    let tmp = tempfile::tempdir().unwrap();
    let dir = copy_of(kit, tmp.path());
    let toml = dir.join("kit.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, format!("{text}\n[[example]]\n{example}\n")).unwrap();
    tablekit(&["check", dir.to_str().unwrap()])
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn moves_from_a_square_are_every_carry_from_it_whatever_its_count() {
    // The seed's stack on a1 (B under W): one or two stones, up or right, in one or
    // two drops. A prefix match on "a1" used to miss the four that start with "2".
    let all_six = r#"id = "from-a1"
position = "x3/x,2,x/21,x2 1 3"
from = "a1"
legal-moves = ["a1+", "a1>", "2a1+", "2a1>", "2a1+11", "2a1>11"]"#;
    let out = check_with_example("stack-top-roads", all_six);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let two_only = all_six.replace(r#", "2a1+", "2a1>", "2a1+11", "2a1>11""#, "");
    let out = check_with_example("stack-top-roads", &two_only);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("example `from-a1`: the rules disagree"), "{err}");
    assert!(err.contains("2a1+, 2a1+11, 2a1>, 2a1>11, a1+, a1>"), "{err}");
}

#[test]
fn a_false_count_of_moves_from_a_tall_stack_is_refused() {
    // A five-stack on c3 of a 5×5 board: 1 to 5 stones in each of four directions,
    // over one or two squares: 15 ways a direction, 60 in all, not the 4 claimed.
    let claim = r#"id = "tall"
position = "x5/x5/x2,12121,x2/x5/x5 1 10"
from = "c3"
legal-moves = ["c3+", "c3-", "c3<", "c3>"]"#;
    let out = check_with_example(KIT, claim);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("example `tall`: the rules disagree"), "{err}");
    let listed = err.split("the legal moves are: ").nth(1).unwrap_or_default();
    let count = listed.lines().next().unwrap_or_default().split(", ").count();
    assert_eq!(count, 60, "{err}");
}

#[test]
fn a_from_square_off_the_board_is_refused_at_the_claim() {
    let claim = r#"id = "off"
position = "x5/x5/x2,12121,x2/x5/x5 1 10"
from = "f9"
legal-moves = []"#;
    let out = check_with_example(KIT, claim);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("unknown square `f9`"), "{err}");
    assert!(err.contains("kit.toml:"), "{err}");
}
