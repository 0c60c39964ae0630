//! Stacking games of the Tak family: one engine, the game's parameters as data.
//!
//! - **Stack-top roads** (`stack-top-roads`): 3×3, eight flat stones each, carry limit
//!   3, no walls, no Crowns, each player places their own colour from the start, and a
//!   draw after 40 turns.
//! - **Pathstone** (`pathstone-3` … `pathstone-8`): the game Tak. Walls are Tak's
//!   standing stones and Crowns its capstones; each player's first turn places a flat
//!   of the opponent's colour.
//!
//! Notation is Tak's. A position is TPS: rows from the top rank separated by `/`,
//! cells by `,`, `x`/`x2`… for empty squares, a stack as digits bottom to top (`1`
//! White, `2` Black) with an optional `S` (wall) or `C` (Crown); then the player to
//! move and the move number, e.g. `x3/x3/21,x2 1 3`. A move is PTN: `a1`, `Sa1`,
//! `Ca1`, or a carry `[count]<square><dir>[drops]` such as `2a1>11`.

//!
//! The engine is split by job: [`board`] (pieces, squares, the position), [`notation`]
//! (PTN and TPS), [`moves`] (generation, play, legality), [`end`] (roads and counts),
//! and this module (the [`Game`] implementation and the fast perft). [`figures`] draws
//! the boards, stones and diagrams both games print.

mod board;
mod end;
mod figures;
mod moves;
mod notation;
mod sheets;
#[cfg(test)]
mod tests;

use std::collections::VecDeque;
use std::fmt;
use std::ops::RangeInclusive;

use crate::rules::{Game, Outcome, RulesError};
pub(crate) use board::*;
use end::*;
use notation::*;
pub(crate) use sheets::StackSheets;

/// The largest board side: roads are found with one bit per square in a `u64`.
pub const MAX_SIZE: u8 = 8;
/// The smallest board side the engine accepts.
pub const MIN_SIZE: u8 = 3;
/// The board sizes of Pathstone, one game id (`pathstone-N`) each.
pub const PATHSTONE_SIZES: RangeInclusive<u8> = 3..=8;

/// Pathstone's reserves per board size: (size, stones, Crowns), as in Tak.
pub(super) const PATHSTONE_RESERVES: [(u8, u32, u32); 6] =
    [(3, 10, 0), (4, 15, 0), (5, 21, 1), (6, 30, 1), (7, 40, 2), (8, 50, 2)];
pub(super) const STACK_TOP_ROADS_ID: &str = "stack-top-roads";
pub(super) const PATHSTONE_PREFIX: &str = "pathstone-";
/// A carry crosses at most `MAX_SIZE - 1` squares, so drops fit in this many slots.
pub(super) const MAX_DROPS: usize = MAX_SIZE as usize;

/// How many pieces of one stack a diagram of an N×N board draws: one more than the
/// board is wide. A taller stack shows the rest as a count, which hides their colours.
pub fn drawn_layers(size: u8) -> usize {
    usize::from(size) + 1
}

/// Whether a puzzle of `plies` plies at `state` turns only on what its page shows:
/// every piece is drawn (stacks that hid pieces under a count could turn on their
/// colours), and no turn limit falls within the puzzle (the page gives no turn
/// number, and need not).
pub(crate) fn shown_whole(variant: &Variant, plies: u32) -> impl Fn(&State) -> bool {
    let limit = variant.turn_limit;
    move |state| {
        let tallest = state.tallest() <= drawn_layers(state.size());
        tallest && limit.is_none_or(|limit| state.turns_played() + plies < limit)
    }
}

/// How often the random games that lead to puzzles play a move: a flat stone
/// most, a carry, a Crown and a wall least, so that about one stack in seven is
/// topped by a wall, as in games people play (a uniform choice gave over half).
pub(crate) fn played_weight(mv: &Move) -> u32 {
    match mv {
        Move::Place { kind: Kind::Flat, .. } => 8,
        Move::Place { kind: Kind::Crown, .. } => 2,
        Move::Place { kind: Kind::Wall, .. } => 1,
        Move::Carry { .. } => 2,
    }
}

/// What the rules say of a puzzle in this variant for its captions.
pub(crate) fn puzzle_facts(
    variant: &Variant,
    puzzle: &crate::puzzles::Puzzle,
    asked: crate::games::PuzzleFacts,
) -> Option<(&'static str, crate::games::Facts)> {
    match asked {
        crate::games::PuzzleFacts::InHand => in_hand(variant, &puzzle.position),
        crate::games::PuzzleFacts::WhyItWins => {
            why_it_wins(variant, &puzzle.position, &puzzle.solution)
        }
    }
}

/// Why a puzzle's main line wins, for its answer in the host key, as the rules find
/// the end after its last move: the road that move completes (`puzzles.why_road`,
/// `{road}` its squares in order) or, when the board fills or a hand empties, the
/// flat stones on top (`puzzles.why_count`, `{w_flats}` and `{b_flats}`).
fn why_it_wins(
    variant: &Variant,
    position: &str,
    line: &[String],
) -> Option<(&'static str, crate::games::Facts)> {
    let game = StackGame { variant: variant.clone() };
    let mut state = game.parse_state(position).ok()?;
    for text in line {
        let mv = game.parse_move(&state, text).ok()?;
        state = game.play(&state, &mv).ok()?;
    }
    let mut facts = crate::games::Facts::new();
    match state.end(variant)? {
        End::Road(color) => {
            let squares: Vec<String> =
                state.road_of(color).iter().map(ToString::to_string).collect();
            facts.insert("road".into(), squares.join("–"));
            Some(("puzzles.why_road", facts))
        }
        End::Count(_) => {
            let [white, black] = state.tops().flats;
            facts.insert("w_flats".into(), white.to_string());
            facts.insert("b_flats".into(), black.to_string());
            Some(("puzzles.why_count", facts))
        }
        End::TurnLimit => None,
    }
}

/// What each player has in hand in `position`, for a puzzle's caption: the strings
/// key that says it (with Crowns where the variant has them) and its numbers.
fn in_hand(
    variant: &Variant,
    position: &str,
) -> Option<(&'static str, crate::games::Facts)> {
    let game = StackGame { variant: variant.clone() };
    let state = game.parse_state(position).ok()?;
    let mut facts = crate::games::Facts::new();
    for (color, prefix) in [(Color::White, "w"), (Color::Black, "b")] {
        let (stones, crowns) = state.reserves(color);
        facts.insert(format!("{prefix}_stones"), stones.to_string());
        facts.insert(format!("{prefix}_crowns"), crowns.to_string());
    }
    let key = match variant.crowns > 0 {
        true => "puzzles.in_hand_crowns",
        false => "puzzles.in_hand",
    };
    Some((key, facts))
}

/// The rules of one stacking game, given by its [`Variant`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StackGame {
    /// The game's parameters.
    pub variant: Variant,
}

impl StackGame {
    /// The same count as [`crate::rules::perft`], made and unmade in place without
    /// re-checking generated moves: fast enough for deep counts.
    pub fn fast_perft(&self, state: &State, depth: u32) -> u64 {
        let mut position = state.clone();
        // One move list per level, made as the count first reaches it: a huge depth
        // asks for no memory up front.
        let mut spare = Vec::new();
        self.count(&mut position, depth, &mut spare)
    }

    fn count(
        &self,
        position: &mut State,
        depth: u32,
        spare: &mut Vec<Vec<Action>>,
    ) -> u64 {
        if depth == 0 {
            return 1;
        }
        if position.end(&self.variant).is_some() {
            return 0;
        }
        if depth == 1 {
            // The last ply only needs how many moves there are, not the moves.
            return position.count_actions(&self.variant);
        }
        let mut moves = spare.pop().unwrap_or_default();
        moves.clear();
        position.actions(&self.variant, &mut moves);
        let mut total = 0;
        for &action in &moves {
            let undo = position.apply(action);
            total += self.count(position, depth - 1, spare);
            position.undo(&undo);
        }
        spare.push(moves);
        total
    }

    fn to_move(state: &State, action: Action) -> Move {
        match action {
            Action::Place { at, piece } => {
                Move::Place { square: state.square_at(at), kind: piece.kind }
            }
            Action::Spread(spread) => Move::Carry {
                from: state.square_at(spread.from),
                dir: spread.dir,
                drops: spread.drops().to_vec(),
                order: None,
            },
        }
    }
}

impl Game for StackGame {
    type State = State;
    type Move = Move;
    type Square = Square;

    fn parse_state(&self, text: &str) -> Result<State, RulesError> {
        self.variant.check()?;
        parse_tps(&self.variant, text)
    }

    fn format_state(&self, state: &State) -> String {
        format_tps(state)
    }

    fn parse_move(&self, state: &State, text: &str) -> Result<Move, RulesError> {
        let (mv, star) = parse_move(text, state.size)?;
        if star {
            check_star(&self.variant, state, text, &mv)?;
        }
        Ok(mv)
    }

    fn legal_moves(&self, state: &State) -> Vec<Move> {
        if state.end(&self.variant).is_some() {
            return Vec::new();
        }
        let mut actions = Vec::new();
        state.actions(&self.variant, &mut actions);
        actions.into_iter().map(|action| StackGame::to_move(state, action)).collect()
    }

    fn play(&self, state: &State, mv: &Move) -> Result<State, RulesError> {
        if state.end(&self.variant).is_some() {
            let over = crate::rules_err!("the game is over: {}", self.outcome(state));
            return Err(over.refused());
        }
        let action = state.check(&self.variant, mv).map_err(RulesError::refused)?;
        let mut next = state.clone();
        next.apply(action);
        Ok(next)
    }

    fn outcome(&self, state: &State) -> Outcome {
        let win = |winner: Color, reason: &str, cells: Vec<Square>| Outcome::Win {
            winner: winner.to_string(),
            reason: reason.to_string(),
            cells: cells.iter().map(ToString::to_string).collect(),
        };
        let draw = |reason: &str| Outcome::Draw { reason: reason.to_string() };
        match state.end(&self.variant) {
            None => Outcome::Ongoing,
            Some(End::Road(winner)) => win(winner, "road", state.road_of(winner)),
            Some(End::Count(Some(winner))) => win(winner, "flats", Vec::new()),
            Some(End::Count(None)) => draw("flats"),
            Some(End::TurnLimit) => draw("turn-limit"),
        }
    }

    fn to_move(&self, state: &State) -> String {
        state.to_move().to_string()
    }

    fn top(&self, state: &State, square: &str) -> Result<Option<String>, RulesError> {
        let sq = Square::parse(square, state.size)?;
        Ok(state.stack(sq).last().map(|piece| piece.color.to_string()))
    }

    fn parse_square(&self, state: &State, text: &str) -> Result<Square, RulesError> {
        Square::parse(text, state.size())
    }

    fn origin(&self, mv: &Move) -> Option<Square> {
        match mv {
            Move::Place { .. } => None,
            Move::Carry { from, .. } => Some(*from),
        }
    }

    fn perft_of(&self, state: &State, depth: u32) -> u64 {
        self.fast_perft(state, depth)
    }
}
