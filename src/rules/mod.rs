//! The seam every game's rules implement: pure code, no I/O, no PDF.
//!
//! Each game implements [`Game`] on its own typed state and moves (the engines live in
//! `games/<game>/`). The CLI talks to them through the string-level [`Engine`] facade,
//! which every [`Game`] gets for free; the kit verifier works on the typed values.

use std::fmt;

pub mod solve;

/// Why a position or a move was refused. The message (`.0`) is lowercase, with no
/// final period, and says what was found and what was expected; `.1` says whether the
/// text was not understood or the rules refuse what it says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesError(pub String, pub Fault);

/// The two ways the rules can say no; the `rules` command exits 2 for the first, 1 for
/// the second.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// The text is not a position, move or square in the game's notation (or on its
    /// board): bad syntax, an unknown square.
    Malformed,
    /// The text is well-formed, but the rules refuse what it says: a position no game
    /// reaches, an illegal move, a mark that claims what the move does not do.
    Refused,
}

impl RulesError {
    /// The same message, as a refusal by the rules rather than a notation error.
    #[must_use]
    pub fn refused(self) -> Self {
        RulesError(self.0, Fault::Refused)
    }

    /// Whether the rules refuse a well-formed position or move.
    pub fn is_refusal(&self) -> bool {
        self.1 == Fault::Refused
    }
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RulesError {}

/// Shorthand for building a [`RulesError`] from `format!` arguments: a notation error
/// ([`Fault::Malformed`]); add `.refused()` for a refusal by the rules.
#[macro_export]
macro_rules! rules_err {
    ($($arg:tt)*) => {
        $crate::rules::RulesError(format!($($arg)*), $crate::rules::Fault::Malformed)
    };
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

    /// Parses a position in the game's notation. Text that is not a position is
    /// [`Fault::Malformed`]; a well-formed position that no game reaches (too many
    /// pieces, a finished game with the loser to move) is [`Fault::Refused`].
    fn parse_state(&self, text: &str) -> Result<Self::State, RulesError>;
    /// Writes the position part of a state in the game's notation (round-trips with
    /// `parse_state`).
    fn format_state(&self, state: &Self::State) -> String;
    /// Parses a move's notation. Only the syntax (and squares on the board) is checked
    /// here, as [`Fault::Malformed`]; legality is `play`'s job. A game whose notation
    /// carries claims about the move (Tak's `*` for a flattening carry) checks them
    /// here against `state`, as [`Fault::Refused`].
    fn parse_move(
        &self,
        state: &Self::State,
        text: &str,
    ) -> Result<Self::Move, RulesError>;
    /// Every legal move, in no particular order. Empty once the game is over.
    fn legal_moves(&self, state: &Self::State) -> Vec<Self::Move>;
    /// Plays a move, or says why it is illegal ([`Fault::Refused`]).
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

/// Perft split at the first move, as perft tools print it with `divide`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divided {
    /// Each legal first move, sorted, with the sequences that start with it.
    pub moves: Vec<(String, u64)>,
    /// Their sum: the perft count (1 at depth 0, where there are no first moves).
    pub total: u64,
}

/// Told of each first move [`Engine::perft_divide`] has counted: how many are done, how
/// many there are, the move and its count.
pub type Progress<'a> = dyn FnMut(usize, usize, &str, u64) + 'a;

/// See [`Engine::perft_divide`]: the first moves are played with [`Game::play`], the
/// rest counted with [`Game::perft_of`].
pub fn divide<G: Game>(
    game: &G,
    state: &G::State,
    depth: u32,
    progress: &mut Progress<'_>,
) -> Divided {
    if depth == 0 {
        return Divided { moves: Vec::new(), total: 1 };
    }
    let mut first: Vec<(String, G::Move)> =
        game.legal_moves(state).into_iter().map(|mv| (mv.to_string(), mv)).collect();
    first.sort_by(|a, b| a.0.cmp(&b.0));
    let total_moves = first.len();
    let mut moves = Vec::with_capacity(total_moves);
    for (done, (text, mv)) in first.into_iter().enumerate() {
        let next = game.play(state, &mv).expect("a generated move is legal");
        let count = game.perft_of(&next, depth - 1);
        progress(done + 1, total_moves, &text, count);
        moves.push((text, count));
    }
    let total = moves.iter().map(|(_, count)| count).sum();
    Divided { moves, total }
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
    /// Every legal move at a position that takes pieces from `square`, sorted.
    fn moves_from(&self, position: &str, square: &str)
    -> Result<Vec<String>, RulesError>;
    /// See [`perft`]; uses the game's fast count ([`Game::perft_of`]).
    fn perft(&self, position: &str, depth: u32) -> Result<u64, RulesError>;
    /// [`perft`] split at the first move: each legal move, sorted, with the number of
    /// sequences of `depth` moves that start with it, counted by [`Game::perft_of`].
    /// `progress` is called after each first move is counted, in order, with how many
    /// first moves are done, how many there are, the move and its count.
    fn perft_divide(
        &self,
        position: &str,
        depth: u32,
        progress: &mut Progress<'_>,
    ) -> Result<Divided, RulesError>;
    /// Plays `moves` from `position`, stopping at the first illegal one. A move that
    /// cannot even be parsed ([`Fault::Malformed`]) is an error, not an illegal move;
    /// one whose notation claims what it does not do ([`Fault::Refused`]) is illegal.
    fn replay(&self, position: &str, moves: &[String]) -> Result<Replay, RulesError>;
    /// Whether an unfinished position is a puzzle of `plies` plies (see
    /// [`solve::Solver::puzzle`]): its only winning first move and a main line to the
    /// win, or `None`. Refused when the search needs more than `budget` moves.
    fn solve(
        &self,
        position: &str,
        plies: u32,
        budget: u64,
    ) -> Result<Option<Vec<String>>, RulesError>;
}

impl<G: Game> Engine for G {
    fn moves(&self, position: &str) -> Result<Vec<String>, RulesError> {
        let state = self.parse_state(position)?;
        Ok(sorted_moves(self, &state))
    }

    fn moves_from(
        &self,
        position: &str,
        square: &str,
    ) -> Result<Vec<String>, RulesError> {
        let state = self.parse_state(position)?;
        let mut moves: Vec<String> = Game::moves_from(self, &state, square)?
            .iter()
            .map(ToString::to_string)
            .collect();
        moves.sort();
        Ok(moves)
    }

    fn perft(&self, position: &str, depth: u32) -> Result<u64, RulesError> {
        let state = self.parse_state(position)?;
        Ok(self.perft_of(&state, depth))
    }

    fn perft_divide(
        &self,
        position: &str,
        depth: u32,
        progress: &mut Progress<'_>,
    ) -> Result<Divided, RulesError> {
        let state = self.parse_state(position)?;
        Ok(divide(self, &state, depth, progress))
    }

    fn replay(&self, position: &str, moves: &[String]) -> Result<Replay, RulesError> {
        let mut state = self.parse_state(position)?;
        let mut positions = vec![self.format_state(&state)];
        let mut illegal = None;
        for (index, text) in moves.iter().enumerate() {
            let mv = match self.parse_move(&state, text) {
                Ok(mv) => mv,
                Err(why) if why.is_refusal() => {
                    illegal = Some((index, why.0));
                    break;
                }
                Err(why) => return Err(why),
            };
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

    fn solve(
        &self,
        position: &str,
        plies: u32,
        budget: u64,
    ) -> Result<Option<Vec<String>>, RulesError> {
        let state = self.parse_state(position)?;
        if let Outcome::Win { .. } | Outcome::Draw { .. } = self.outcome(&state) {
            return Err(rules_err!("the game is already over at `{position}`").refused());
        }
        let mut solver = solve::Solver::new(self, self.to_move(&state), budget);
        match solver.puzzle(&state, plies) {
            Ok(solve::Verdict::Puzzle(line)) => {
                Ok(Some(line.iter().map(ToString::to_string).collect()))
            }
            Ok(solve::Verdict::NotAPuzzle) => Ok(None),
            Err(solve::OutOfBudget) => Err(rules_err!(
                "the search gave up after {budget} moves: ask for fewer plies"
            )),
        }
    }
}

fn sorted_moves<G: Game>(game: &G, state: &G::State) -> Vec<String> {
    let mut moves: Vec<String> =
        game.legal_moves(state).iter().map(ToString::to_string).collect();
    moves.sort();
    moves
}
