//! Practice puzzles: positions reached by random play where the player to move wins
//! by force in exactly `plies` plies, with one first move only. A game may keep out
//! positions its diagrams cannot show whole (a stack taller than they draw).
//!
//! `plies` is odd: 1 is a win in one move, 3 a win with the mover's second move
//! whatever the opponent replies, and so on. Every puzzle is proven by the game's own
//! rules (through [`Game`]): its first move forces a win within `plies` plies against
//! every defence, no other first move does, there is no forced win in fewer plies,
//! and the position is not finished. Positions come from random games played from the
//! start position by a simple policy of the game's (a stacking game plays flat
//! stones more often than walls, as players do), so each is reachable and looks
//! like play; [`Puzzle::reached_by`] is the game that got there.
//!
//! Generation is deterministic: random games use the seeded [`SplitMix64`] below and
//! moves are chosen in notation order, and the search is bounded by node counts, not
//! by time. The same request gives the same puzzles on every machine.
//!
//! Each game plugs in through `GameKit::puzzles`, which calls [`search`] with its
//! typed rules and start position.

mod rng;
#[cfg(test)]
mod tests;

use std::collections::BTreeSet;
use std::fmt;
use std::ops::RangeInclusive;

use crate::game_id::GameId;
use crate::rules::Game;
use crate::rules::solve::{self, Solver, Verdict};
pub use rng::SplitMix64;

/// The longest puzzle offered, in plies (a win with the mover's fifth move).
pub const MAX_PLIES: u32 = 9;

/// Node budget per candidate position unless a [`Request`] says otherwise.
pub const DEFAULT_NODE_BUDGET: u64 = 200_000;

/// Overall node budget per puzzle asked for unless a [`Request`] says otherwise.
pub const DEFAULT_BUDGET_PER_PUZZLE: u64 = 4_000_000;

/// Random games are cut off after this many plies (none of the games needs more).
const MAX_GAME_PLIES: usize = 1_000;

/// Candidate positions tried per random game, counted back from its end.
const CANDIDATES_PER_GAME: u32 = 4;

/// One proven puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// The game it is played in.
    pub game: GameId,
    /// The board size.
    pub size: u8,
    /// Plies to the win, the first move and the winning move included (odd).
    pub plies: u32,
    /// The position in the game's notation, as `rules moves` and `rules play` read it.
    pub position: String,
    /// The player to move, who wins: named as the rules name winners (`A`, `W`, `V`).
    pub to_move: String,
    /// The only winning first move, then one main line to the win: the defence that
    /// holds out longest, the fastest win (notation order among equals).
    pub solution: Vec<String>,
    /// The start position the random game was played from.
    pub start: String,
    /// The random game's moves from `start` to `position`.
    pub reached_by: Vec<String>,
}

impl Puzzle {
    /// `position<TAB>first reply second …`: one line of `tablekit rules puzzles`.
    pub fn line(&self) -> String {
        format!("{}\t{}", self.position, self.solution.join(" "))
    }
}

/// Why no puzzles could be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PuzzleError {
    /// The game is not played at this board size.
    Size {
        /// The game asked for.
        game: GameId,
        /// The size asked for.
        size: u8,
        /// The sizes the game is played at.
        sizes: RangeInclusive<u8>,
    },
    /// The puzzle length is not an odd number from 1 to [`MAX_PLIES`].
    Plies(u32),
    /// The overall budget ran out before a single puzzle was proven.
    NoneFound {
        /// The game asked for.
        game: GameId,
        /// The size asked for.
        size: u8,
        /// The puzzle length asked for.
        plies: u32,
        /// Nodes (moves played) spent in random games and searches.
        nodes: u64,
    },
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PuzzleError::Size { game, size, sizes } => write!(
                f,
                "{game} is played on boards of {} to {}, not {size}",
                sizes.start(),
                sizes.end()
            ),
            PuzzleError::Plies(plies) => write!(
                f,
                "a puzzle is an odd number of plies from 1 to {MAX_PLIES}, not {plies}"
            ),
            PuzzleError::NoneFound { game, size, plies, nodes } => write!(
                f,
                "no {plies}-ply {game} puzzle found on size {size} within the budget \
                 ({nodes} moves searched); try another seed or fewer plies"
            ),
        }
    }
}

impl std::error::Error for PuzzleError {}

/// What to generate, with the search budgets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The board size (one of the game's sizes).
    pub size: u8,
    /// How many puzzles.
    pub count: usize,
    /// Plies to the win (odd, 1 to [`MAX_PLIES`]).
    pub plies: u32,
    /// The random games' seed.
    pub seed: u64,
    /// Moves one candidate position may search before it is given up.
    pub node_budget: u64,
    /// Moves all random games and searches together may play before generation
    /// stops with what it has.
    pub total_budget: u64,
    /// The kit's own numbers for the game (reserves, carry and turn limits).
    pub rules: crate::kit::RuleParams,
}

impl Request {
    /// A request with the default budgets.
    pub fn new(size: u8, count: usize, plies: u32, seed: u64) -> Request {
        let puzzles = u64::try_from(count.max(1)).unwrap_or(u64::MAX);
        Request {
            size,
            count,
            plies,
            seed,
            node_budget: DEFAULT_NODE_BUDGET,
            total_budget: puzzles.saturating_mul(DEFAULT_BUDGET_PER_PUZZLE),
            rules: Default::default(),
        }
    }
}

/// How a game's puzzles are found: which positions a page shows whole (the page
/// must give everything the answer depends on), and how often the random games
/// that lead to them play each kind of move, so that positions look like play.
pub struct Policy<'a, G: Game> {
    /// Whether a position can be a puzzle: only those a page shows whole are tried.
    pub shown_whole: &'a dyn Fn(&G::State) -> bool,
    /// A move's weight in the random games: 1 for every move plays uniformly.
    pub weight: &'a dyn Fn(&G::Move) -> u32,
}

impl<G: Game> Policy<'static, G> {
    /// Every position tried, every move as likely as the next.
    pub fn uniform() -> Self {
        Policy { shown_whole: &|_| true, weight: &|_| 1 }
    }
}

/// The puzzles of a request for one game's typed rules, from random games played
/// from `start` (the game's start position at the request's size, in notation)
/// by `policy`.
pub fn search<G: Game>(
    game: &G,
    id: GameId,
    start: &str,
    policy: &Policy<'_, G>,
    request: &Request,
) -> Result<Vec<Puzzle>, PuzzleError> {
    let start_state = game.parse_state(start).expect("a game's start position parses");
    let mut rng = SplitMix64::new(request.seed);
    let mut puzzles = Vec::new();
    let mut seen = BTreeSet::new();
    let mut spent: u64 = 0;
    while puzzles.len() < request.count && spent < request.total_budget {
        let (states, moves) = random_game(game, &start_state, policy.weight, &mut rng);
        spent += moves.len() as u64;
        let last = states.len() - 1;
        let backs =
            (0..CANDIDATES_PER_GAME).map(|k| request.plies as usize + 2 * k as usize);
        for back in backs.take_while(|&back| back <= last) {
            if spent >= request.total_budget {
                break;
            }
            let at = last - back;
            // The puzzle is the position as its notation gives it (history starts
            // there), so it is proven from the parsed text.
            let position = game.format_state(&states[at]);
            if seen.contains(&position) {
                continue;
            }
            let root = game.parse_state(&position).expect("a formatted position parses");
            if game.outcome(&root).is_over() || !(policy.shown_whole)(&root) {
                continue;
            }
            let budget = request.node_budget.min(request.total_budget - spent);
            let mover = game.to_move(&root);
            let mut solver = Solver::new(game, mover.clone(), budget);
            let verdict = solver.puzzle(&root, request.plies);
            spent += solver.nodes.min(budget);
            if let Ok(Verdict::Puzzle(line)) = verdict {
                seen.insert(position.clone());
                puzzles.push(Puzzle {
                    game: id,
                    size: request.size,
                    plies: request.plies,
                    position,
                    to_move: mover,
                    solution: line.iter().map(ToString::to_string).collect(),
                    start: start.to_string(),
                    reached_by: moves[..at].to_vec(),
                });
                break;
            }
        }
    }
    if puzzles.is_empty() {
        return Err(PuzzleError::NoneFound {
            game: id,
            size: request.size,
            plies: request.plies,
            nodes: spent,
        });
    }
    Ok(puzzles)
}

/// A game of random legal moves, each as likely as its `weight` (chosen in notation
/// order, so the choice does not depend on move generation), from `start` to its
/// end or [`MAX_GAME_PLIES`]: every state, and the moves between them.
fn random_game<G: Game>(
    game: &G,
    start: &G::State,
    weight: &dyn Fn(&G::Move) -> u32,
    rng: &mut SplitMix64,
) -> (Vec<G::State>, Vec<String>) {
    let mut states = vec![start.clone()];
    let mut moves = Vec::new();
    let mut state = start.clone();
    while moves.len() < MAX_GAME_PLIES && !game.outcome(&state).is_over() {
        let Some(mv) = weighted_in_notation_order(game.legal_moves(&state), weight, rng)
        else {
            break;
        };
        let mv = &mv;
        state = game.play(&state, mv).expect("a generated move is legal");
        moves.push(mv.to_string());
        states.push(state.clone());
    }
    (states, moves)
}

/// A random one of `moves`, each as likely as its weight, in notation order (as
/// [`solve::sorted`] lists them); uniform choices take the faster path below.
fn weighted_in_notation_order<M: fmt::Display>(
    moves: Vec<M>,
    weight: &dyn Fn(&M) -> u32,
    rng: &mut SplitMix64,
) -> Option<M> {
    let weights: Vec<u64> = moves.iter().map(|mv| u64::from(weight(mv))).collect();
    if weights.windows(2).all(|w| w[0] == w[1]) {
        return nth_in_notation_order(moves, rng);
    }
    let notations = solve::Notations::of(&moves);
    let mut order: Vec<usize> = (0..moves.len()).collect();
    order.sort_unstable_by(|&a, &b| notations.get(a).cmp(notations.get(b)));
    let total: u64 = weights.iter().sum();
    let mut pick = rng.below(usize::try_from(total).ok()?) as u64;
    for i in order {
        if pick < weights[i] {
            return moves.into_iter().nth(i);
        }
        pick -= weights[i];
    }
    None
}

/// A uniformly random one of `moves`, chosen by its place in notation order (as
/// [`sorted`] would list them) without sorting them all; `None` if there are none.
fn nth_in_notation_order<M: fmt::Display>(
    moves: Vec<M>,
    rng: &mut SplitMix64,
) -> Option<M> {
    if moves.is_empty() {
        return None;
    }
    let n = rng.below(moves.len());
    let notations = solve::Notations::of(&moves);
    let mut order: Vec<usize> = (0..moves.len()).collect();
    // Notations are unique, so the n-th in order is one move whatever the method.
    order.select_nth_unstable_by(n, |&a, &b| notations.get(a).cmp(notations.get(b)));
    moves.into_iter().nth(order[n])
}
