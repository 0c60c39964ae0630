//! Measures puzzle generation: `cargo bench --bench puzzles`. Prints the time per
//! puzzle for each game, board size and length (plies), and how the positions look:
//! the move number they are reached at (median and range) and, in the stacking
//! games, the share of stacks topped by a wall. No assertions, because timings
//! belong in a benchmark, not in a test. Pass a filter such as `crossway` to run
//! only the lines whose label contains it.

use std::time::Instant;

use tablekit::GameId;
use tablekit::generate_puzzles as generate;
use tablekit::puzzles::Puzzle;

/// The median, least and greatest move number the puzzles are reached at (a move
/// is both players' turns, as in the stacking games' notation).
fn move_numbers(puzzles: &[Puzzle]) -> (usize, usize, usize) {
    let mut numbers: Vec<usize> =
        puzzles.iter().map(|p| p.reached_by.len() / 2 + 1).collect();
    numbers.sort_unstable();
    (numbers[numbers.len() / 2], numbers[0], numbers[numbers.len() - 1])
}

/// Of the stacks on the puzzles' boards (TPS cells), the share topped by a wall.
fn walls_on_top(puzzles: &[Puzzle]) -> Option<f64> {
    let cells: Vec<&str> = puzzles
        .iter()
        .flat_map(|p| p.position.split(' ').next().unwrap_or("").split(['/', ',']))
        .filter(|cell| cell.starts_with(['1', '2']))
        .collect();
    let walls = cells.iter().filter(|cell| cell.ends_with('S')).count();
    (!cells.is_empty()).then(|| 100.0 * walls as f64 / cells.len() as f64)
}

fn main() {
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let mut cases: Vec<(GameId, u8, u32)> = Vec::new();
    for plies in [1, 3, 5] {
        cases.push((GameId::THREE_MEN_SLIDE, 3, plies));
        cases.push((GameId::STACK_TOP_ROADS, 3, plies));
    }
    for size in 3..=8 {
        for plies in [1, 3] {
            cases.push((GameId::PATHSTONE, size, plies));
        }
    }
    cases.push((GameId::PATHSTONE, 3, 5));
    cases.push((GameId::PATHSTONE, 4, 5));
    for size in [5, 7, 9, 11, 13, 15, 17, 19] {
        for plies in [1, 3] {
            cases.push((GameId::CROSSWAY, size, plies));
        }
    }
    cases.push((GameId::CROSSWAY, 5, 5));

    let count = 8;
    println!("puzzle generation, {count} puzzles per line, seed 1");
    for (game, size, plies) in cases {
        let label = format!("{game} {size} P={plies}");
        if filter.as_ref().is_some_and(|f| !label.contains(f.as_str())) {
            continue;
        }
        let started = Instant::now();
        let result = generate(game, size, count, plies, 1);
        let elapsed = started.elapsed().as_secs_f64() * 1000.0;
        match result {
            Ok(puzzles) => {
                let (median, least, most) = move_numbers(&puzzles);
                let walls = walls_on_top(&puzzles)
                    .map_or(String::new(), |w| format!(", walls on top {w:.0} %"));
                println!(
                    "  {label:<24} {:>3} found  {:>10.1} ms/puzzle  ({elapsed:.0} ms)  \
                     move {median} ({least}–{most}){walls}",
                    puzzles.len(),
                    elapsed / puzzles.len() as f64
                )
            }
            Err(why) => println!("  {label:<24}   0 found  ({elapsed:.0} ms): {why}"),
        }
    }
}
