//! Puzzles re-checked by an independent search: a plain recursive minimax over the
//! string-level [`Engine`], sharing nothing with the generator but the rules.

use super::*;
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
        GameId::ThreeMenSlide | GameId::Crossway => fields[1].to_string(),
        GameId::StackTopRoads | GameId::Pathstone => {
            if fields[1] == "1" { "W" } else { "B" }.to_string()
        }
    }
}

/// Every claim of a puzzle, checked without the generator's code.
fn check(puzzle: &Puzzle) {
    let engine = puzzle.game.kit().engine();
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
        GameId::ThreeMenSlide | GameId::StackTopRoads => 3,
        GameId::Pathstone => 5,
        GameId::Crossway => 9,
    }
}

#[test]
fn one_and_three_ply_puzzles_hold_for_every_game_at_its_default_size() {
    for game in GameId::all() {
        for plies in [1, 3] {
            let size = default_size(game);
            let puzzles = generate(game, size, 2, plies, 18).unwrap();
            assert_eq!(puzzles.len(), 2, "{game} P={plies}");
            for puzzle in &puzzles {
                assert_eq!((puzzle.game, puzzle.size, puzzle.plies), (game, size, plies));
                check(puzzle);
            }
        }
    }
}

#[test]
fn five_ply_puzzles_hold_on_small_boards() {
    for (game, size) in [(GameId::ThreeMenSlide, 3), (GameId::Crossway, 5)] {
        let puzzles = generate(game, size, 2, 5, 5).unwrap();
        assert_eq!(puzzles.len(), 2, "{game} {size}");
        puzzles.iter().for_each(check);
    }
}
