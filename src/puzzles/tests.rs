//! Puzzles re-checked by an independent search: a plain recursive minimax over the
//! string-level [`Engine`], sharing nothing with the generator but the rules.

use super::*;
use crate::games::{generate, generate_with, home};
use crate::rules::{Engine, Outcome};

/// Whether the root mover (to move when `line` is empty) forces a win within `plies`
/// more plies after playing `line` from `position`. Plain minimax: every move, every
/// reply, each position replayed from the puzzle's position so the rules' history
/// starts where the puzzle does. Turns alternate by ply (no swap is ever legal here).
fn forced_win(
    engine: &dyn Engine,
    position: &str,
    line: &mut Vec<String>,
    mover: &str,
    plies: u32,
) -> bool {
    let replay = engine.replay(position, line).unwrap();
    assert_eq!(replay.illegal, None, "{position} {line:?}");
    match &replay.outcome {
        Outcome::Win { winner, .. } => return winner == mover,
        Outcome::Draw { .. } => return false,
        Outcome::Ongoing => {}
    }
    if plies == 0 {
        return false;
    }
    assert!(!replay.legal_moves.iter().any(|m| m == "swap"), "{position} {line:?}");
    let ours = line.len().is_multiple_of(2);
    for mv in replay.legal_moves {
        line.push(mv);
        let won = forced_win(engine, position, line, mover, plies - 1);
        line.pop();
        if ours && won {
            return true;
        }
        if !ours && !won {
            return false;
        }
    }
    !ours
}

/// The player to move as written in each game's notation.
fn mover_in_notation(game: GameId, position: &str) -> String {
    let fields: Vec<&str> = position.split_whitespace().collect();
    match game {
        GameId::THREE_MEN_SLIDE | GameId::CROSSWAY => fields[1].to_string(),
        GameId::STACK_TOP_ROADS | GameId::PATHSTONE => {
            if fields[1] == "1" { "W" } else { "B" }.to_string()
        }
        other => panic!("no notation known for {other}"),
    }
}

/// Every claim of a puzzle, checked without the generator's code.
fn check(puzzle: &Puzzle) {
    let engine = home(puzzle.game).engine();
    let engine = engine.as_ref();
    let (position, plies) = (puzzle.position.as_str(), puzzle.plies);
    let context = format!("{} {} P={plies}: {}", puzzle.game, puzzle.size, puzzle.line());
    assert_eq!(plies % 2, 1, "{context}");

    // Reachable: the recorded game leads there from the start, legally.
    let game = engine.replay(&puzzle.start, &puzzle.reached_by).unwrap();
    assert_eq!(game.illegal, None, "{context}");
    assert_eq!(game.positions.last().map(String::as_str), Some(position), "{context}");
    assert!(puzzle.start.split('/').count() == usize::from(puzzle.size), "{context}");

    // Not finished, and the mover is the one the notation names.
    let root = engine.replay(position, &[]).unwrap();
    assert_eq!(root.outcome, Outcome::Ongoing, "{context}");
    let mover = mover_in_notation(puzzle.game, position);
    assert_eq!(puzzle.to_move, mover, "{context}");

    // The first move, and only it, forces a win within `plies`.
    let first = &puzzle.solution[0];
    assert!(root.legal_moves.contains(first), "{context}");
    for mv in &root.legal_moves {
        let wins = forced_win(engine, position, &mut vec![mv.clone()], &mover, plies - 1);
        assert_eq!(wins, mv == first, "{context}: first move {mv}");
    }
    // No faster win.
    assert!(
        !forced_win(engine, position, &mut Vec::new(), &mover, plies - 1),
        "{context}"
    );

    // The main line is legal and ends in the mover's win, within `plies`.
    assert!(puzzle.solution.len() <= plies as usize, "{context}");
    let main = engine.replay(position, &puzzle.solution).unwrap();
    assert_eq!(main.illegal, None, "{context}");
    assert!(
        matches!(&main.outcome, Outcome::Win { winner, .. } if *winner == mover),
        "{context}: {}",
        main.outcome
    );
}

fn default_size(game: GameId) -> u8 {
    match game {
        GameId::THREE_MEN_SLIDE | GameId::STACK_TOP_ROADS => 3,
        GameId::PATHSTONE => 5,
        GameId::CROSSWAY => 9,
        other => panic!("no default size known for {other}"),
    }
}

/// Three-ply puzzles on the 3×3 boards; those of the larger boards, whose search
/// takes some 0.4 s, are the full tier's ([`full_tier`]).
#[test]
fn one_and_three_ply_puzzles_hold_for_every_game_at_its_default_size() {
    for game in GameId::all() {
        let plies: &[u32] = if default_size(game) > 3 { &[1] } else { &[1, 3] };
        for &plies in plies {
            default_size_puzzles_hold(game, plies);
        }
    }
}

/// Two puzzles of `plies` plies at `game`'s default size, each proved by [`check`].
fn default_size_puzzles_hold(game: GameId, plies: u32) {
    let size = default_size(game);
    let puzzles = generate(game, size, 2, plies, 18).unwrap();
    assert_eq!(puzzles.len(), 2, "{game} P={plies}");
    for puzzle in &puzzles {
        assert_eq!((puzzle.game, puzzle.size, puzzle.plies), (game, size, plies));
        check(puzzle);
    }
}

/// The library's share of the full tier, which `.ci/run` runs by this module's name.
mod full_tier {
    use super::*;

    #[test]
    #[ignore = "full tier: run by .ci/run, or cargo test --release -p tablekit-core -- --ignored full_tier::"]
    fn three_ply_puzzles_hold_on_the_larger_default_boards() {
        let larger = GameId::all().filter(|&game| default_size(game) > 3);
        larger.for_each(|game| default_size_puzzles_hold(game, 3));
    }
}

#[test]
fn five_ply_puzzles_hold_on_small_boards() {
    for (game, size) in [(GameId::THREE_MEN_SLIDE, 3), (GameId::CROSSWAY, 5)] {
        let puzzles = generate(game, size, 2, 5, 5).unwrap();
        assert_eq!(puzzles.len(), 2, "{game} {size}");
        puzzles.iter().for_each(check);
    }
}

#[test]
fn five_ply_puzzles_hold_on_the_stacking_3x3_board() {
    let puzzles = generate(GameId::STACK_TOP_ROADS, 3, 1, 5, 5).unwrap();
    assert_eq!(puzzles.len(), 1);
    puzzles.iter().for_each(check);
}

/// Every game at one ply, and Three-men slide at three; the full tier asks every game
/// for three-ply puzzles (`tests/puzzle_sheet.rs`), which takes a second.
#[test]
fn the_same_seed_gives_the_same_puzzles_and_another_seed_others() {
    let one_ply = GameId::all().map(|game| (game, 1));
    for (game, plies) in one_ply.chain([(GameId::THREE_MEN_SLIDE, 3)]) {
        let size = default_size(game);
        let once = generate(game, size, 3, plies, 42).unwrap();
        let again = generate(game, size, 3, plies, 42).unwrap();
        assert_eq!(once, again, "{game} P={plies}");
        let other = generate(game, size, 3, plies, 43).unwrap();
        assert_ne!(once, other, "{game} P={plies}");
        let positions: BTreeSet<&str> =
            once.iter().map(|p| p.position.as_str()).collect();
        assert_eq!(positions.len(), once.len(), "{game}: puzzles are all different");
    }
}

/// Pinned output, so a change to the generator that changes every kit's puzzles is
/// seen in review (update the line when that is intended).
#[test]
fn a_known_seed_gives_a_known_puzzle() {
    let puzzles = generate(GameId::THREE_MEN_SLIDE, 3, 1, 3, 1).unwrap();
    assert_eq!(puzzles[0].line(), PINNED_THREE_MEN_P3_SEED1);
}

const PINNED_THREE_MEN_P3_SEED1: &str = "BAA/..B/.AB A\tB3-B2 A3-A2 B1-A1";

#[test]
fn line_is_the_position_a_tab_and_the_moves() {
    let puzzle = Puzzle {
        game: GameId::THREE_MEN_SLIDE,
        size: 3,
        plies: 1,
        position: "..B/BBA/AA. A".to_string(),
        to_move: "A".to_string(),
        solution: vec!["C2-C1".to_string()],
        start: ".../.../... A".to_string(),
        reached_by: Vec::new(),
    };
    assert_eq!(puzzle.line(), "..B/BBA/AA. A\tC2-C1");
}

/// A hand-made win in one: A at A1, B1, C2; B at A2, B2, C3; C2-C1 completes row 1
/// and nothing else wins.
fn hand_made(solution: &str) -> Puzzle {
    Puzzle {
        game: GameId::THREE_MEN_SLIDE,
        size: 3,
        plies: 1,
        position: "..B/BBA/AA. A".to_string(),
        to_move: "A".to_string(),
        solution: vec![solution.to_string()],
        start: ".../.../... A".to_string(),
        reached_by: ["A1", "B2", "B1", "A2", "C2", "C3"].map(String::from).to_vec(),
    }
}

#[test]
fn the_checker_accepts_a_hand_made_win_in_one() {
    check(&hand_made("C2-C1"));
}

#[test]
#[should_panic(expected = "first move")]
fn the_checker_refuses_a_move_that_does_not_win() {
    check(&hand_made("B1-C1"));
}

#[test]
fn bad_requests_are_refused() {
    let three_men = GameId::THREE_MEN_SLIDE;
    for plies in [0, 2, 4, MAX_PLIES + 2] {
        assert_eq!(generate(three_men, 3, 1, plies, 1), Err(PuzzleError::Plies(plies)));
    }
    let too_big = generate(three_men, 4, 1, 1, 1).unwrap_err();
    assert_eq!(
        too_big.to_string(),
        "three-men-slide is played on boards of 3 to 3, not 4"
    );
    assert!(matches!(
        generate(GameId::PATHSTONE, 9, 1, 1, 1),
        Err(PuzzleError::Size { .. })
    ));
    assert_eq!(generate(three_men, 3, 0, 1, 1), Ok(Vec::new()));
}

#[test]
fn an_exhausted_budget_is_an_error_not_a_hang() {
    let mut request = Request::new(9, 1, 5, 1);
    request.total_budget = 50;
    let error = generate_with(GameId::CROSSWAY, &request).unwrap_err();
    assert!(matches!(error, PuzzleError::NoneFound { plies: 5, .. }), "{error}");
}

#[test]
#[ignore = "prints sample puzzles: cargo test --release puzzles::tests::samples -- --ignored --nocapture"]
fn samples() {
    for game in GameId::all() {
        for plies in [1, 3] {
            for p in generate(game, default_size(game), 2, plies, 7).unwrap() {
                println!("{game} P={plies} {} | {}", p.to_move, p.line());
            }
        }
    }
}

#[test]
#[ignore = "slow (about 20 s): cargo test --release puzzles::tests::every_offered \
            -- --ignored"]
fn every_offered_size_gives_checked_puzzles_of_one_and_three_plies() {
    for game in GameId::all() {
        let sizes = match game {
            GameId::CROSSWAY => 5..=19,
            _ => home(game).sizes(),
        };
        for size in sizes {
            for plies in [1, 3] {
                let puzzles = generate(game, size, 1, plies, 3).unwrap();
                puzzles.iter().for_each(check);
            }
        }
    }
}
