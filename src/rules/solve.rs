//! A bounded AND-OR search over any [`Game`]: can the player to move at the root
//! force a win within a number of plies, whatever the opponent does?
//!
//! "Win" is read off [`Outcome::Win`]'s winner compared with the root mover's name
//! from [`Game::to_move`], so a move that hands the opponent a road (stacking games)
//! or a draw counts against the mover, and an opponent's move that completes the
//! mover's road counts for them. Whose turn it is comes from the state, not from the
//! ply's parity, so a swap (Crossway's pie rule, the same colour moving again) is
//! followed correctly.

use super::{Game, Outcome};

/// The search ran out of its node budget before it could decide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutOfBudget;

/// What a position proved to be as a puzzle of `plies` plies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict<M> {
    /// A puzzle: the only winning first move, then a main line to the win.
    Puzzle(Vec<M>),
    /// Not a puzzle: no forced win, several winning first moves, or a faster win.
    NotAPuzzle,
}

/// One search from one root position, with its node budget and move-ordering memory.
pub struct Solver<'g, G: Game> {
    game: &'g G,
    /// The root mover's name, as `Outcome::Win` names winners.
    mover: String,
    /// Moves played so far (each `play` is one node).
    pub nodes: u64,
    budget: u64,
    /// Per remaining depth, the move that last decided a node there (a win for the
    /// mover, a refutation for the opponent): tried first next time (killer moves).
    killers: Vec<Option<G::Move>>,
}

impl<'g, G: Game> Solver<'g, G> {
    /// A solver for positions where `mover` is to move at the root, allowed `budget`
    /// nodes in all.
    pub fn new(game: &'g G, mover: String, budget: u64) -> Self {
        Solver { game, mover, nodes: 0, budget, killers: Vec::new() }
    }

    fn play(&mut self, state: &G::State, mv: &G::Move) -> Result<G::State, OutOfBudget> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return Err(OutOfBudget);
        }
        Ok(self.game.play(state, mv).expect("a generated move is legal"))
    }

    /// Whether the root mover has won at a state (`Some(true)`), the game ended any
    /// other way (`Some(false)`), or it goes on (`None`).
    fn decided(&self, state: &G::State) -> Option<bool> {
        match self.game.outcome(state) {
            Outcome::Ongoing => None,
            Outcome::Win { winner, .. } => Some(winner == self.mover),
            Outcome::Draw { .. } => Some(false),
        }
    }

    /// Whether the root mover wins after `mv` from `state` within `plies` plies,
    /// `mv` included.
    pub fn wins_with(
        &mut self,
        state: &G::State,
        mv: &G::Move,
        plies: u32,
    ) -> Result<bool, OutOfBudget> {
        let next = self.play(state, mv)?;
        match self.decided(&next) {
            Some(won) => Ok(won),
            None => self.wins(&next, plies.saturating_sub(1)),
        }
    }

    /// Whether the root mover can force a win within `plies` plies from an
    /// unfinished `state`, whoever is to move there.
    pub fn wins(&mut self, state: &G::State, plies: u32) -> Result<bool, OutOfBudget> {
        if plies == 0 {
            return Ok(false);
        }
        let ours = self.game.to_move(state) == self.mover;
        let mut moves = self.game.legal_moves(state);
        if moves.is_empty() {
            // Only a finished game has no moves; nothing is forced here.
            return Ok(false);
        }
        let depth = plies as usize;
        if self.killers.len() <= depth {
            self.killers.resize(depth + 1, None);
        }
        if let Some(killer) = &self.killers[depth]
            && let Some(at) = moves.iter().position(|mv| mv == killer)
        {
            moves.swap(0, at);
        }
        for mv in moves {
            let won = self.wins_with(state, &mv, plies)?;
            // The mover needs one winning move; the opponent one escape.
            if won == ours {
                self.killers[depth] = Some(mv);
                return Ok(won);
            }
        }
        Ok(!ours)
    }

    /// Decides whether an unfinished `root` (the mover to move) is a puzzle of
    /// `plies` plies: exactly one first move forces a win within `plies`, and there is
    /// no forced win in fewer plies. For a puzzle, returns that move and a main
    /// line: the opponent resisting longest, the mover winning fastest.
    pub fn puzzle(
        &mut self,
        root: &G::State,
        plies: u32,
    ) -> Result<Verdict<G::Move>, OutOfBudget> {
        if plies >= 2 && self.wins(root, plies - 1)? {
            return Ok(Verdict::NotAPuzzle);
        }
        let mut winning = None;
        for mv in sorted(self.game, self.game.legal_moves(root)) {
            if self.wins_with(root, &mv, plies)? {
                if winning.is_some() {
                    return Ok(Verdict::NotAPuzzle);
                }
                winning = Some(mv);
            }
        }
        let Some(first) = winning else {
            return Ok(Verdict::NotAPuzzle);
        };
        Ok(Verdict::Puzzle(self.main_line(root, first, plies)?))
    }

    /// The fewest plies (up to `most`) within which the mover forces a win from
    /// `state`, if any.
    fn distance(
        &mut self,
        state: &G::State,
        most: u32,
    ) -> Result<Option<u32>, OutOfBudget> {
        for plies in 1..=most {
            if self.wins(state, plies)? {
                return Ok(Some(plies));
            }
        }
        Ok(None)
    }

    /// `first`, then alternately the defence that puts the win furthest off and the
    /// mover's fastest win (the first in notation order among equals), to the win.
    fn main_line(
        &mut self,
        root: &G::State,
        first: G::Move,
        plies: u32,
    ) -> Result<Vec<G::Move>, OutOfBudget> {
        let mut state = self.play(root, &first)?;
        let mut line = vec![first];
        let mut left = plies - 1;
        while self.decided(&state).is_none() && left > 0 {
            let ours = self.game.to_move(&state) == self.mover;
            let mut best: Option<(u32, G::Move, G::State)> = None;
            for mv in sorted(self.game, self.game.legal_moves(&state)) {
                let next = self.play(&state, &mv)?;
                let distance = match self.decided(&next) {
                    Some(true) => Some(0),
                    Some(false) => None,
                    None => self.distance(&next, left - 1)?,
                };
                // Every defence loses and the mover has a winning move: both exist.
                let Some(distance) = distance else { continue };
                let better = match &best {
                    None => true,
                    Some((old, ..)) if ours => distance < *old,
                    Some((old, ..)) => distance > *old,
                };
                if better {
                    best = Some((distance, mv, next));
                }
            }
            let (_, mv, next) = best.expect("the win is forced, so a line exists");
            line.push(mv);
            state = next;
            left -= 1;
        }
        Ok(line)
    }
}

/// Moves in notation order, so choices never depend on generation order.
pub fn sorted<G: Game>(_game: &G, moves: Vec<G::Move>) -> Vec<G::Move> {
    let notations = Notations::of(&moves);
    let mut order: Vec<usize> = (0..moves.len()).collect();
    order.sort_by(|&a, &b| notations.get(a).cmp(notations.get(b)));
    let mut moves: Vec<Option<G::Move>> = moves.into_iter().map(Some).collect();
    order.into_iter().map(|i| moves[i].take().expect("each once")).collect()
}

/// Every move's notation, written into one buffer (a string each cost more than
/// the search around them).
pub struct Notations {
    text: String,
    ends: Vec<usize>,
}

impl Notations {
    /// The notations of `moves`, in their order.
    pub fn of<M: std::fmt::Display>(moves: &[M]) -> Notations {
        use std::fmt::Write;
        let mut text = String::with_capacity(moves.len() * 6);
        let mut ends = Vec::with_capacity(moves.len());
        for mv in moves {
            write!(text, "{mv}").expect("a String takes any text");
            ends.push(text.len());
        }
        Notations { text, ends }
    }

    /// The notation of move `i`.
    pub fn get(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.text[start..self.ends[i]]
    }
}
