//! The seam every game's rules implement: pure code, no I/O, no PDF.
//!
//! Each game implements [`Game`] on its own typed state and moves (the engines live in
//! `games/<game>/`). The CLI talks to them through the string-level [`Engine`] facade,
//! which every [`Game`] gets for free; the kit verifier works on the typed values.

use std::fmt;

/// Why a position or a move was refused. The message is lowercase, with no final
/// period, and says what was found and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesError(pub String);

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RulesError {}

/// Shorthand for building a [`RulesError`] from `format!` arguments.
#[macro_export]
macro_rules! rules_err {
    ($($arg:tt)*) => { $crate::rules::RulesError(format!($($arg)*)) };
}

/// The state of a game: still going, won, or drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)] // each variant's comment names its fields
pub enum Outcome {
    /// The player to move has at least one move.
    Ongoing,
    /// `winner` won; `reason` is a short key such as `line` or `road`; `cells` are the
    /// squares that prove it (the winning line or road), in board order.
    Win { winner: String, reason: String, cells: Vec<String> },
    /// Nobody won; `reason` is a short key such as `repetition`, `turn-limit` or `no-moves`.
    Draw { reason: String },
}

impl Outcome {
    /// True once the game has ended.
    pub fn is_over(&self) -> bool {
        !matches!(self, Outcome::Ongoing)
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Ongoing => f.write_str("ongoing"),
            Outcome::Win { winner, reason, cells } if cells.is_empty() => {
                write!(f, "{winner} wins ({reason})")
            }
            Outcome::Win { winner, reason, cells } => {
                write!(f, "{winner} wins ({reason} {})", cells.join(" "))
            }
            Outcome::Draw { reason } => write!(f, "draw ({reason})"),
        }
    }
}

/// One game's rules on typed positions and moves.
///
/// `State` is the whole game state, including whatever history the end conditions
/// need (repetitions, turn counts); `parse_state` starts that history at the given
/// position.
pub trait Game {
    /// Full game state.
    type State: Clone + fmt::Debug;
    /// One move.
    type Move: Clone + PartialEq + fmt::Display;
    /// A square or point of the board.
    type Square: Copy + PartialEq + fmt::Display;

    /// Parses a position in the game's notation.
    fn parse_state(&self, text: &str) -> Result<Self::State, RulesError>;
    /// Writes the position part of a state in the game's notation (round-trips with
    /// `parse_state`).
    fn format_state(&self, state: &Self::State) -> String;
    /// Parses a move's notation. Only the syntax (and squares on the board) is checked
    /// here; legality is `play`'s job.
    fn parse_move(
        &self,
        state: &Self::State,
        text: &str,
    ) -> Result<Self::Move, RulesError>;
    /// Every legal move, in no particular order. Empty once the game is over.
    fn legal_moves(&self, state: &Self::State) -> Vec<Self::Move>;
    /// Plays a move, or says why it is illegal.
    fn play(
        &self,
        state: &Self::State,
        mv: &Self::Move,
    ) -> Result<Self::State, RulesError>;
    /// Whether the game is over at this state, and how.
    fn outcome(&self, state: &Self::State) -> Outcome;
    /// The player to move, named as [`Outcome::Win`] names a winner (`A`, `W`, `V`, …).
    fn to_move(&self, state: &Self::State) -> String;
    /// Who owns the top piece on a square (`A`, `W`, …), or `None` if it is empty.
    fn top(
        &self,
        state: &Self::State,
        square: &str,
    ) -> Result<Option<String>, RulesError>;
    /// Parses a square's name on the board of `state`.
    fn parse_square(
        &self,
        state: &Self::State,
        text: &str,
    ) -> Result<Self::Square, RulesError>;
    /// The square a move takes pieces from (a slide or a carry); `None` for a move
    /// that takes nothing from the board (a placement, a swap, a pass).
    fn origin(&self, mv: &Self::Move) -> Option<Self::Square>;
    /// The square a move puts its piece on, where that is one square (a placement or
    /// a slide); `None` otherwise.
    fn target(&self, mv: &Self::Move) -> Option<Self::Square> {
        let _ = mv;
        None
    }

    /// Every legal move that takes pieces from `square`, decided on typed moves.
    fn moves_from(
        &self,
        state: &Self::State,
        square: &str,
    ) -> Result<Vec<Self::Move>, RulesError> {
        let square = self.parse_square(state, square)?;
        let mut moves = self.legal_moves(state);
        moves.retain(|mv| self.origin(mv) == Some(square));
        Ok(moves)
    }

    /// See [`perft`]; a game with a faster move generator overrides this.
    fn perft_of(&self, state: &Self::State, depth: u32) -> u64
    where
        Self: Sized,
    {
        perft(self, state, depth)
    }
}

/// The number of move sequences of exactly `depth` moves (a finished game has none).
pub fn perft<G: Game>(game: &G, state: &G::State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = game.legal_moves(state);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|mv| {
            let next = game.play(state, mv).expect("a generated move is legal");
            perft(game, &next, depth - 1)
        })
        .sum()
}

/// What replaying a list of moves from a position gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    /// The start position, then the position after each move that was played.
    pub positions: Vec<String>,
    /// The outcome at the last position reached.
    pub outcome: Outcome,
    /// The index of the first illegal move and why, if one was refused; the moves after
    /// it are not played.
    pub illegal: Option<(usize, String)>,
    /// Every legal move at the last position reached, sorted.
    pub legal_moves: Vec<String>,
}

/// A game seen through strings: what the CLI and the kit verifier use.
pub trait Engine {
    /// Every legal move at a position, sorted.
    fn moves(&self, position: &str) -> Result<Vec<String>, RulesError>;
    /// See [`perft`].
    fn perft(&self, position: &str, depth: u32) -> Result<u64, RulesError>;
    /// Plays `moves` from `position`, stopping at the first illegal one. A move that
    /// cannot even be parsed is an error, not an illegal move.
    fn replay(&self, position: &str, moves: &[String]) -> Result<Replay, RulesError>;
    /// Who owns the top piece on a square of a position, or `None` if it is empty.
    fn top(&self, position: &str, square: &str) -> Result<Option<String>, RulesError>;
}

impl<G: Game> Engine for G {
    fn moves(&self, position: &str) -> Result<Vec<String>, RulesError> {
        let state = self.parse_state(position)?;
        Ok(sorted_moves(self, &state))
    }

    fn perft(&self, position: &str, depth: u32) -> Result<u64, RulesError> {
        let state = self.parse_state(position)?;
        Ok(self.perft_of(&state, depth))
    }

    fn replay(&self, position: &str, moves: &[String]) -> Result<Replay, RulesError> {
        let mut state = self.parse_state(position)?;
        let mut positions = vec![self.format_state(&state)];
        let mut illegal = None;
        for (index, text) in moves.iter().enumerate() {
            let mv = self.parse_move(&state, text)?;
            match self.play(&state, &mv) {
                Ok(next) => {
                    state = next;
                    positions.push(self.format_state(&state));
                }
                Err(why) => {
                    illegal = Some((index, why.0));
                    break;
                }
            }
        }
        Ok(Replay {
            positions,
            outcome: Game::outcome(self, &state),
            illegal,
            legal_moves: sorted_moves(self, &state),
        })
    }

    fn top(&self, position: &str, square: &str) -> Result<Option<String>, RulesError> {
        top_of(self, position, square)
    }
}

fn top_of<G: Game>(
    game: &G,
    position: &str,
    square: &str,
) -> Result<Option<String>, RulesError> {
    let state = game.parse_state(position)?;
    game.top(&state, square)
}

fn sorted_moves<G: Game>(game: &G, state: &G::State) -> Vec<String> {
    let mut moves: Vec<String> =
        game.legal_moves(state).iter().map(ToString::to_string).collect();
    moves.sort();
    moves
}
