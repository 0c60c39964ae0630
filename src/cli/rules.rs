//! `rules`: asks a game's rules engine directly (moves, perft, a line played, a
//! puzzle solved or made), in the game's own notation, for authors and for testing
//! the engines from outside.

use std::io::IsTerminal as _;

use super::{Failure, RulesQuery, to_stderr};
use crate::game_id::GameId;
use crate::games;
use crate::rules::{Engine, RulesError};

/// The deepest perft the command accepts.
const MAX_PERFT_DEPTH: u32 = 64;

/// `rules QUERY`: the game named first, then the query's answer on standard output.
pub(super) fn run(query: RulesQuery) -> Result<(), Failure> {
    let game_id = match &query {
        RulesQuery::Moves { game, .. }
        | RulesQuery::Perft { game, .. }
        | RulesQuery::Apply { game, .. }
        | RulesQuery::Puzzles { game, .. }
        | RulesQuery::Solve { game, .. } => game.clone(),
    };
    let game = GameId::parse(&game_id).ok_or_else(|| {
        anyhow::anyhow!(
            "unknown game `{game_id}`: expected one of {}",
            GameId::names().join(", ")
        )
    })?;
    let engine = games::home(game).engine();
    match query {
        RulesQuery::Puzzles { size, count, plies, seed, .. } => {
            let size = size.unwrap_or_else(|| games::home(game).puzzle_size());
            let request =
                crate::puzzles::Request::new(size, usize::from(count), plies, seed);
            puzzles_cmd(game, &request)?;
        }
        RulesQuery::Solve { position, plies, .. } => {
            solve_cmd(engine.as_ref(), &position, plies)?;
        }
        RulesQuery::Moves { position, from: None, .. } => {
            for mv in engine.moves(&position)? {
                say!("{mv}");
            }
        }
        RulesQuery::Moves { position, from: Some(square), .. } => {
            for mv in engine.moves_from(&position, &square)? {
                say!("{mv}");
            }
        }
        RulesQuery::Perft { position, depth, divide, .. } => {
            perft_cmd(engine.as_ref(), &position, depth, divide)?;
        }
        RulesQuery::Apply { position, moves, .. } => {
            apply_cmd(engine.as_ref(), &position, &moves)?;
        }
    }
    Ok(())
}

/// `rules puzzles`: one puzzle a line, and a note when the search budget ran out
/// before `request`'s count was found.
fn puzzles_cmd(game: GameId, request: &crate::puzzles::Request) -> Result<(), Failure> {
    let puzzles = games::generate_with(game, request)
        .map_err(|e| Failure::Other(anyhow::anyhow!("{e}")))?;
    if puzzles.len() < request.count {
        tell!(
            "note: found {} of {} puzzles within the search budget",
            puzzles.len(),
            request.count
        );
    }
    for puzzle in puzzles {
        say!("{}", puzzle.line());
    }
    Ok(())
}

/// `rules solve`: the only winning first move and a main line, or a refusal (exit 1)
/// when `position` is no puzzle of `plies` plies.
fn solve_cmd(engine: &dyn Engine, position: &str, plies: u32) -> Result<(), Failure> {
    if plies.is_multiple_of(2) || plies > crate::puzzles::MAX_PLIES {
        return Err(Failure::Other(anyhow::anyhow!(
            "--plies {plies}: a puzzle is an odd number of plies from 1 to {}",
            crate::puzzles::MAX_PLIES
        )));
    }
    let budget = crate::puzzles::DEFAULT_NODE_BUDGET;
    match engine.solve(position, plies, budget)? {
        Some(line) => say!("{}", line.join(" ")),
        None => {
            return Err(Failure::Refused(anyhow::anyhow!(
                "not a puzzle of {plies} {}: the player to move has no forced win that \
                 fast, more than one winning first move, or a faster win",
                if plies == 1 { "ply" } else { "plies" }
            )));
        }
    }
    Ok(())
}

/// `rules apply`: the position after `moves` and the game's state, or a refusal
/// (exit 1) naming the first illegal move.
fn apply_cmd(
    engine: &dyn Engine,
    position: &str,
    moves: &[String],
) -> Result<(), Failure> {
    let replay = engine.replay(position, moves)?;
    if let Some((index, why)) = &replay.illegal {
        return Err(Failure::Refused(anyhow::anyhow!(
            "move {} `{}` is illegal: {why}",
            index + 1,
            moves[*index]
        )));
    }
    say!("{}", replay.positions.last().expect("the start position"));
    say!("{}", replay.outcome);
    Ok(())
}

/// A perft count above this many sequences gets a warning before it starts.
const LARGE_PERFT: f64 = 1e9;
/// The estimate counts shallower depths until one reaches this many sequences…
const SAMPLE_PERFT: u64 = 50_000;
/// … or this depth.
const MAX_SAMPLE_DEPTH: u32 = 16;

/// `rules perft`: warns when the count looks large, shows progress over the first
/// moves on a terminal, and prints the total (with `--divide`, each first move's count
/// too, as it is found).
fn perft_cmd(
    engine: &dyn Engine,
    position: &str,
    depth: u32,
    divide: bool,
) -> Result<(), Failure> {
    // Deeper counts are out of reach anyway, and a game without an end in sight (Tak
    // carries never run out) would recurse until the stack fails.
    if depth > MAX_PERFT_DEPTH {
        return Err(Failure::Other(anyhow::anyhow!(
            "perft depth {depth} is out of reach: at most {MAX_PERFT_DEPTH}"
        )));
    }
    if let Some((estimate, from_depth)) = perft_estimate(engine, position, depth)?
        && estimate > LARGE_PERFT
    {
        let about = if estimate.is_finite() {
            format!("about {estimate:.1e}")
        } else {
            format!("more than {:.0e}", f64::MAX)
        };
        tell!(
            "warning: perft to depth {depth} will count {about} move sequences \
             (extrapolated from the count to depth {from_depth}); Ctrl-C stops it"
        );
    }
    let progress = std::io::stderr().is_terminal();
    let clear = || {
        if progress {
            to_stderr("\r\x1b[2K");
        }
    };
    let mut each = |done: usize, of: usize, mv: &str, count: u64| {
        if divide {
            clear();
            // Counts are found in the order they are printed.
            say!("{mv}: {count}");
        }
        if progress && done < of {
            to_stderr(&format!("\rperft: {done}/{of} first moves counted"));
        }
    };
    let divided = engine.perft_divide(position, depth, &mut each)?;
    clear();
    if divide {
        say!("total: {}", divided.total);
    } else {
        say!("{}", divided.total);
    }
    Ok(())
}

/// About how many sequences perft to `depth` counts, and from which depth that is
/// extrapolated: the counts to depth 1, 2, … (cheap, with the game's own perft) until
/// one reaches [`SAMPLE_PERFT`], then the last growth from one depth to the next,
/// assumed to hold. `None` when there is nothing shallower to go by.
fn perft_estimate(
    engine: &dyn Engine,
    position: &str,
    depth: u32,
) -> Result<Option<(f64, u32)>, RulesError> {
    let mut previous = 1;
    for sampled in 1..depth {
        let count = engine.perft(position, sampled)?;
        if count == 0 {
            return Ok(Some((0.0, sampled)));
        }
        if count >= SAMPLE_PERFT || sampled + 1 == depth || sampled == MAX_SAMPLE_DEPTH {
            #[allow(clippy::cast_precision_loss)] // an estimate
            let (count, growth) = (count as f64, count as f64 / previous as f64);
            let estimate = count * growth.powf(f64::from(depth - sampled));
            return Ok(Some((estimate, sampled)));
        }
        previous = count;
    }
    Ok(None)
}
