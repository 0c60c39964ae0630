//! Three-men slide: each player places three counters on a 3×3 board, then slides
//! them along orthogonal edges; three in a row, column or long diagonal wins.
//!
//! Notation: a position is rows 3, 2, 1 separated by `/` (each three of `.`, `A`,
//! `B`, columns A to C), a space, then the player to move, e.g. `.../B../A.. A`.
//! A move is a placement `C2` or a slide `C2-C1`.

use std::collections::VecDeque;
use std::fmt;

use crate::rules::{Game, Outcome, RulesError};

/// How many counters each player places, and then slides.
pub const COUNTERS_PER_PLAYER: u32 = 3;
/// Sliding turns (both players' together) after which the game is drawn.
pub const SLIDING_TURN_LIMIT: u32 = 40;
/// The occurrence of the same sliding position (and player to move) that draws.
pub const REPETITION_LIMIT: u32 = 3;

/// Points along one side of the board.
const SIDE: u8 = 3;
/// Points on the whole board.
const POINTS: usize = (SIDE * SIDE) as usize;

/// One of the two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// Player A.
    A,
    /// Player B.
    B,
}

impl Player {
    /// The opponent.
    pub fn other(self) -> Player {
        match self {
            Player::A => Player::B,
            Player::B => Player::A,
        }
    }

    fn from_letter(letter: char) -> Option<Player> {
        match letter {
            'A' => Some(Player::A),
            'B' => Some(Player::B),
            _ => None,
        }
    }

    fn letter(self) -> char {
        match self {
            Player::A => 'A',
            Player::B => 'B',
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A point of the board, `A1` (bottom left) to `C3` (top right).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square at a 0-based column (A = 0) and row (row 1 = 0), if on the board.
    pub fn new(col: u8, row: u8) -> Option<Square> {
        (col < SIDE && row < SIDE).then_some(Square(col + SIDE * row))
    }

    /// The 0-based column: A = 0.
    pub fn col(self) -> u8 {
        self.0 % SIDE
    }

    /// The 0-based row: row 1 = 0.
    pub fn row(self) -> u8 {
        self.0 / SIDE
    }

    /// Parses `A1` to `C3` (letters in either case).
    pub fn parse(text: &str) -> Result<Square, RulesError> {
        Self::parse_parts(text).ok_or_else(|| {
            crate::rules_err!("unknown square `{text}`, expected A1 to C3")
        })
    }

    fn parse_parts(text: &str) -> Option<Square> {
        let mut chars = text.chars();
        let (Some(letter), Some(digit), None) =
            (chars.next(), chars.next(), chars.next())
        else {
            return None;
        };
        let col = u8::try_from(letter.to_ascii_uppercase()).ok()?.checked_sub(b'A')?;
        let row = u8::try_from(digit.to_digit(10)?).ok()?.checked_sub(1)?;
        Square::new(col, row)
    }

    /// Every square, A1, B1, C1, A2, … C3.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SIDE * SIDE).map(Square)
    }

    fn index(self) -> usize {
        usize::from(self.0)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'A' + self.col()), self.row() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Whether two squares are joined by a movement edge (orthogonal neighbours).
fn is_edge(a: Square, b: Square) -> bool {
    a.col().abs_diff(b.col()) + a.row().abs_diff(b.row()) == 1
}

/// The 12 movement edges, each once, lower square first.
pub fn movement_edges() -> Vec<(Square, Square)> {
    Square::all()
        .flat_map(|a| {
            Square::all().filter(move |&b| a < b && is_edge(a, b)).map(move |b| (a, b))
        })
        .collect()
}

#[cfg(test)]
/// The orthogonal neighbours of a square, in square order.
pub fn neighbours(sq: Square) -> Vec<Square> {
    Square::all().filter(|&other| is_edge(sq, other)).collect()
}

/// The 8 winning lines: rows bottom-up, columns left to right, then the diagonals
/// A1-B2-C3 and A3-B2-C1.
pub fn winning_lines() -> [[Square; 3]; 8] {
    let line = |points: [(u8, u8); 3]| points.map(|(col, row)| Square(col + SIDE * row));
    let row = |r: u8| line([(0, r), (1, r), (2, r)]);
    let column = |c: u8| line([(c, 0), (c, 1), (c, 2)]);
    [
        row(0),
        row(1),
        row(2),
        column(0),
        column(1),
        column(2),
        line([(0, 0), (1, 1), (2, 2)]),
        line([(0, 2), (1, 1), (2, 0)]),
    ]
}

/// A move: place a new counter, or slide one along an edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// Place a counter on an empty point (placement phase).
    Place(Square),
    /// Slide a counter from the first square to the second (sliding phase).
    Slide(Square, Square),
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(sq) => write!(f, "{sq}"),
            Move::Slide(from, to) => write!(f, "{from}-{to}"),
        }
    }
}

fn parse_move(text: &str) -> Result<Move, RulesError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(crate::rules_err!(
            "empty move, expected a placement like `C2` or a slide like `C2-C1`"
        ));
    }
    match text.split_once('-') {
        None => Ok(Move::Place(Square::parse(text)?)),
        Some((from, to)) => Ok(Move::Slide(Square::parse(from)?, Square::parse(to)?)),
    }
}

/// The board and the player to move: what repetition compares.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Position {
    cells: [Option<Player>; POINTS],
    to_move: Player,
}

impl Position {
    fn empty(to_move: Player) -> Position {
        Position { cells: [None; POINTS], to_move }
    }

    fn at(&self, sq: Square) -> Option<Player> {
        self.cells[sq.index()]
    }

    fn count(&self, player: Player) -> u32 {
        let count = self.cells.iter().filter(|&&cell| cell == Some(player)).count();
        u32::try_from(count).expect("at most nine counters")
    }

    fn is_sliding(&self) -> bool {
        [Player::A, Player::B].iter().all(|&p| self.count(p) == COUNTERS_PER_PLAYER)
    }

    /// The first winning line (in `winning_lines` order) held by `player`.
    fn line_of(&self, player: Player) -> Option<[Square; 3]> {
        winning_lines()
            .into_iter()
            .find(|line| line.iter().all(|&sq| self.at(sq) == Some(player)))
    }

    /// Only the player who just moved can have a line (parsing rejects the rest).
    fn winner(&self) -> Option<(Player, [Square; 3])> {
        let last = self.to_move.other();
        self.line_of(last).map(|line| (last, line))
    }

    fn placements(&self) -> Vec<Move> {
        Square::all().filter(|&sq| self.at(sq).is_none()).map(Move::Place).collect()
    }

    fn slides(&self) -> Vec<Move> {
        // A constant of the rules (the board's lines), worked out on first use rather
        // than written out: not a cache. The stuck-position search asks every
        // position for its slides.
        static EDGES: std::sync::OnceLock<Vec<(Square, Square)>> =
            std::sync::OnceLock::new();
        EDGES
            .get_or_init(movement_edges)
            .iter()
            .flat_map(|&(a, b)| [(a, b), (b, a)])
            .filter(|&(from, to)| {
                self.at(from) == Some(self.to_move) && self.at(to).is_none()
            })
            .map(|(from, to)| Move::Slide(from, to))
            .collect()
    }

    /// The moves of the rules without the draw conditions, which need history.
    fn moves_ignoring_draws(&self) -> Vec<Move> {
        if self.winner().is_some() {
            Vec::new()
        } else if self.is_sliding() {
            self.slides()
        } else {
            self.placements()
        }
    }

    /// Says why `mv` breaks the rules here (draws aside), or `Ok` if it is legal.
    fn check(&self, mv: Move) -> Result<(), RulesError> {
        let mover = self.to_move;
        match mv {
            Move::Place(_) if self.is_sliding() => {
                Err(crate::rules_err!("placement is over: slide a counter instead"))
            }
            Move::Place(sq) => self.check_empty(sq),
            Move::Slide(..) if !self.is_sliding() => Err(crate::rules_err!(
                "placement is not over: {mover} has placed {} of {COUNTERS_PER_PLAYER} \
                 counters, place a counter instead",
                self.count(mover)
            )),
            Move::Slide(from, to) => {
                check_edge(from, to)?;
                if self.at(from) != Some(mover) {
                    return Err(crate::rules_err!("{from} is not {mover}'s counter"));
                }
                self.check_empty(to)
            }
        }
    }

    fn check_empty(&self, sq: Square) -> Result<(), RulesError> {
        match self.at(sq) {
            Some(owner) => Err(crate::rules_err!("{sq} is occupied (by {owner})")),
            None => Ok(()),
        }
    }

    /// Plays a move already known to be legal.
    fn after(&self, mv: Move) -> Position {
        let mut next = *self;
        match mv {
            Move::Place(sq) => next.cells[sq.index()] = Some(self.to_move),
            Move::Slide(from, to) => {
                next.cells[from.index()] = None;
                next.cells[to.index()] = Some(self.to_move);
            }
        }
        next.to_move = self.to_move.other();
        next
    }

    /// The rows top first, as in the notation.
    fn rows_top_first(&self) -> impl Iterator<Item = String> + '_ {
        (0..SIDE).rev().map(move |row| {
            (0..SIDE)
                .filter_map(|col| Square::new(col, row))
                .map(|sq| self.at(sq).map_or('.', Player::letter))
                .collect()
        })
    }
}

fn check_edge(from: Square, to: Square) -> Result<(), RulesError> {
    if is_edge(from, to) {
        return Ok(());
    }
    let diagonal =
        from.col().abs_diff(to.col()) == 1 && from.row().abs_diff(to.row()) == 1;
    let why = if diagonal { "diagonal" } else { "the points are not neighbours" };
    Err(crate::rules_err!("{from}-{to} is not along a movement edge ({why})"))
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows: Vec<String> = self.rows_top_first().collect();
        write!(f, "{} {}", rows.join("/"), self.to_move)
    }
}

fn parse_position(text: &str) -> Result<Position, RulesError> {
    let Some((board, mover)) = text.trim().split_once(' ') else {
        return Err(crate::rules_err!(
            "expected a board and the player to move separated by a space, like \
             `.../.../... A`, found `{text}`"
        ));
    };
    let mover = mover.trim();
    let to_move =
        mover.parse::<char>().ok().and_then(Player::from_letter).ok_or_else(|| {
            crate::rules_err!("unknown player to move `{mover}`, expected A or B")
        })?;
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != usize::from(SIDE) {
        return Err(crate::rules_err!(
            "the board has {} rows, expected {SIDE} separated by `/`",
            rows.len()
        ));
    }
    let mut position = Position::empty(to_move);
    for (row_text, row) in rows.into_iter().zip((0..SIDE).rev()) {
        parse_row(&mut position, row_text, row)?;
    }
    Ok(position)
}

fn parse_row(position: &mut Position, text: &str, row: u8) -> Result<(), RulesError> {
    let points = text.chars().count();
    if points != usize::from(SIDE) {
        return Err(crate::rules_err!(
            "row {} has {points} points, expected {SIDE}",
            row + 1
        ));
    }
    for (point, col) in text.chars().zip(0..SIDE) {
        let sq = Square::new(col, row).expect("col and row are below SIDE");
        position.cells[sq.index()] = match point {
            '.' => None,
            _ => Some(Player::from_letter(point).ok_or_else(|| {
                crate::rules_err!(
                    "unknown point `{point}` at {sq}, expected `.`, `A` or `B`"
                )
            })?),
        };
    }
    Ok(())
}

/// Refuses positions that legal play cannot reach.
fn validate(position: &Position) -> Result<(), RulesError> {
    let (a, b) = (position.count(Player::A), position.count(Player::B));
    for (player, count) in [(Player::A, a), (Player::B, b)] {
        if count > COUNTERS_PER_PLAYER {
            return Err(crate::rules_err!(
                "{player} has {count} counters, at most {COUNTERS_PER_PLAYER} allowed"
            ));
        }
    }
    if a.abs_diff(b) > 1 {
        return Err(crate::rules_err!(
            "A has placed {a} and B {b}, but players alternate so the counts differ by \
             at most 1"
        ));
    }
    // Equal counts: either may move. Otherwise the one behind must catch up.
    let mover = position.to_move;
    if position.count(mover) > position.count(mover.other()) {
        return Err(crate::rules_err!(
            "it cannot be {mover}'s turn: A has placed {a} and B {b}"
        ));
    }
    if position.line_of(Player::A).is_some() && position.line_of(Player::B).is_some() {
        return Err(crate::rules_err!(
            "both A and B have a line, which cannot happen: the first line ends the game"
        ));
    }
    if let Some(line) = position.line_of(mover) {
        return Err(crate::rules_err!(
            "{mover} is to move but already has a line {}, which cannot happen: the \
             game ended when it was made",
            squares_text(&line).join(" ")
        ));
    }
    Ok(())
}

fn squares_text(squares: &[Square]) -> Vec<String> {
    squares.iter().map(ToString::to_string).collect()
}

/// Why a game has ended.
enum End {
    Line(Player, [Square; 3]),
    Repetition,
    TurnLimit,
    NoMoves,
}

impl End {
    fn outcome(&self) -> Outcome {
        let draw = |reason: &str| Outcome::Draw { reason: reason.to_string() };
        match self {
            End::Line(winner, line) => Outcome::Win {
                winner: winner.to_string(),
                reason: "line".to_string(),
                cells: squares_text(line),
            },
            End::Repetition => draw("repetition"),
            End::TurnLimit => draw("turn-limit"),
            End::NoMoves => draw("no-moves"),
        }
    }
}

/// A game in progress: the position plus the history the draw rules need.
#[derive(Clone, PartialEq, Eq)]
pub struct State {
    position: Position,
    slides: u32,
    /// Every sliding position so far, the current one included.
    history: Vec<Position>,
}

impl State {
    fn start(position: Position) -> State {
        let history = if position.is_sliding() { vec![position] } else { Vec::new() };
        State { position, slides: 0, history }
    }

    /// Whose counter is on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Player> {
        self.position.at(sq)
    }

    /// The player to move.
    pub fn to_move(&self) -> Player {
        self.position.to_move
    }

    /// True once both players have placed all their counters.
    pub fn is_sliding(&self) -> bool {
        self.position.is_sliding()
    }

    #[cfg(test)]
    /// Sliding turns played since the start of the history (both players together).
    pub fn slides_played(&self) -> u32 {
        self.slides
    }

    fn repetitions(&self) -> u32 {
        let count = self.history.iter().filter(|&&seen| seen == self.position).count();
        u32::try_from(count).expect("history is short")
    }

    /// A win first: it takes precedence over a draw arising at the same move.
    fn end(&self) -> Option<End> {
        if let Some((winner, line)) = self.position.winner() {
            return Some(End::Line(winner, line));
        }
        if !self.position.is_sliding() {
            return None;
        }
        if self.repetitions() >= REPETITION_LIMIT {
            Some(End::Repetition)
        } else if self.slides >= SLIDING_TURN_LIMIT {
            Some(End::TurnLimit)
        } else if self.position.slides().is_empty() {
            Some(End::NoMoves)
        } else {
            None
        }
    }

    fn after(&self, mv: Move) -> State {
        let position = self.position.after(mv);
        let mut next =
            State { position, slides: self.slides, history: self.history.clone() };
        if matches!(mv, Move::Slide(..)) {
            next.slides += 1;
        }
        if position.is_sliding() {
            next.history.push(position);
        }
        next
    }
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in self.position.rows_top_first() {
            writeln!(f, "{row}")?;
        }
        write!(f, "{} to move", self.position.to_move)?;
        if self.is_sliding() {
            write!(f, ", {} slides played", self.slides)?;
        }
        Ok(())
    }
}

/// The rules of three-men slide.
#[derive(Clone, Copy, Debug)]
pub struct ThreeMenSlide;

impl Game for ThreeMenSlide {
    type State = State;
    type Move = Move;
    type Square = Square;

    fn parse_state(&self, text: &str) -> Result<State, RulesError> {
        let position = parse_position(text)?;
        validate(&position).map_err(RulesError::refused)?;
        Ok(State::start(position))
    }

    fn format_state(&self, state: &State) -> String {
        state.position.to_string()
    }

    fn parse_move(&self, _state: &State, text: &str) -> Result<Move, RulesError> {
        parse_move(text)
    }

    fn legal_moves(&self, state: &State) -> Vec<Move> {
        if state.end().is_some() {
            return Vec::new();
        }
        state.position.moves_ignoring_draws()
    }

    fn play(&self, state: &State, mv: &Move) -> Result<State, RulesError> {
        if state.end().is_some() {
            // Told as every game tells it: the outcome `rules apply` prints.
            let outcome = self.outcome(state);
            return Err(crate::rules_err!("the game is over: {outcome}").refused());
        }
        state.position.check(*mv).map_err(RulesError::refused)?;
        Ok(state.after(*mv))
    }

    fn outcome(&self, state: &State) -> Outcome {
        state.end().map_or(Outcome::Ongoing, |end| end.outcome())
    }

    fn to_move(&self, state: &State) -> String {
        state.to_move().to_string()
    }

    fn top(&self, state: &State, square: &str) -> Result<Option<String>, RulesError> {
        Ok(state.piece_at(Square::parse(square)?).map(|p| p.to_string()))
    }

    fn parse_square(&self, _state: &State, text: &str) -> Result<Square, RulesError> {
        Square::parse(text)
    }

    fn origin(&self, mv: &Move) -> Option<Square> {
        match *mv {
            Move::Place(_) => None,
            Move::Slide(from, _) => Some(from),
        }
    }

    fn target(&self, mv: &Move) -> Option<Square> {
        match *mv {
            Move::Place(to) | Move::Slide(_, to) => Some(to),
        }
    }
}

/// Every sliding position reachable from the empty board (either player starting)
/// where nobody has won and the player to move has no slide, in notation, sorted.
/// Repetition and the turn limit are ignored for reachability.
pub fn stuck_positions() -> Vec<String> {
    // A constant of the rules, the same for every kit and build, searched on first
    // use rather than written out: not a cache of anything a build computes.
    static STUCK: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    STUCK.get_or_init(search_stuck_positions).clone()
}

fn search_stuck_positions() -> Vec<String> {
    let starts = [Player::A, Player::B].map(Position::empty);
    // Fx rather than std's SipHash: nothing here is chosen by an adversary, and
    // hashing was most of this search's time.
    let mut seen: rustc_hash::FxHashSet<Position> = starts.into_iter().collect();
    let mut queue: VecDeque<Position> = starts.into_iter().collect();
    let mut stuck = Vec::new();
    while let Some(position) = queue.pop_front() {
        let stuck_here = position.is_sliding()
            && position.winner().is_none()
            && position.slides().is_empty();
        if stuck_here {
            stuck.push(position.to_string());
        }
        for mv in position.moves_ignoring_draws() {
            let next = position.after(mv);
            if seen.insert(next) {
                queue.push_back(next);
            }
        }
    }
    stuck.sort();
    stuck
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Engine, perft};
    use proptest::prelude::*;

    const GAME: ThreeMenSlide = ThreeMenSlide;
    /// A at A1, B1, C2; B at A2, B2, C3; A to move: C2-C1 wins.
    const PRACTICE: &str = "..B/BBA/AA. A";
    /// A at A1, C2, B3; B at B2, C1, C3; A2, B1 and A3 empty; no lines.
    const QUIET: &str = ".AB/.BA/A.B A";

    fn state(text: &str) -> State {
        GAME.parse_state(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn sq(text: &str) -> Square {
        Square::parse(text).unwrap()
    }

    fn mv(text: &str) -> Move {
        parse_move(text).unwrap()
    }

    fn play_all(start: &State, moves: &[&str]) -> State {
        moves.iter().fold(start.clone(), |s, m| {
            GAME.play(&s, &mv(m)).unwrap_or_else(|e| panic!("{m} at\n{s:?}\n{e}"))
        })
    }

    fn play_err(state: &State, text: &str) -> String {
        GAME.play(state, &mv(text)).expect_err(text).0
    }

    fn parse_err(text: &str) -> String {
        GAME.parse_state(text).expect_err(text).0
    }

    fn draw(reason: &str) -> Outcome {
        Outcome::Draw { reason: reason.to_string() }
    }

    fn win(winner: &str, cells: &[&str]) -> Outcome {
        Outcome::Win {
            winner: winner.to_string(),
            reason: "line".to_string(),
            cells: cells.iter().map(ToString::to_string).collect(),
        }
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(ToString::to_string).collect()
    }

    /// Swaps the colours of every counter and of the player to move.
    fn swap_colours(text: &str) -> String {
        let swap = |c| match c {
            'A' => 'B',
            'B' => 'A',
            other => other,
        };
        text.chars().map(swap).collect()
    }

    #[test]
    fn squares_parse_print_and_convert() {
        assert_eq!(Square::all().count(), POINTS);
        assert_eq!(sq("A1"), Square::new(0, 0).unwrap());
        assert_eq!(sq("c2"), Square::new(2, 1).unwrap());
        assert_eq!((sq("B3").col(), sq("B3").row()), (1, 2));
        assert_eq!(Square::new(3, 0), None);
        assert_eq!(Square::new(0, 3), None);
        let names: Vec<String> = Square::all().map(|s| s.to_string()).collect();
        assert_eq!(
            names,
            strings(&["A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3"])
        );
        assert_eq!(format!("{:?}", sq("C3")), "C3");
        for bad in ["D4", "A0", "A4", "", "A", "A10", "1A", "-"] {
            let e = Square::parse(bad).unwrap_err().0;
            assert_eq!(e, format!("unknown square `{bad}`, expected A1 to C3"));
        }
    }

    #[test]
    fn board_geometry() {
        let edges = movement_edges();
        assert_eq!(edges.len(), 12);
        assert!(edges.iter().all(|&(a, b)| a < b && is_edge(a, b)));
        let unique: std::collections::HashSet<_> = edges.iter().collect();
        assert_eq!(unique.len(), edges.len());
        assert_eq!(neighbours(sq("A1")), vec![sq("B1"), sq("A2")]);
        assert_eq!(neighbours(sq("B2")), vec![sq("B1"), sq("A2"), sq("C2"), sq("B3")]);
        assert_eq!(neighbours(sq("C2")), vec![sq("C1"), sq("B2"), sq("C3")]);
        let lines: Vec<String> =
            winning_lines().iter().map(|line| squares_text(line).join(" ")).collect();
        let expected = [
            "A1 B1 C1", "A2 B2 C2", "A3 B3 C3", "A1 A2 A3", "B1 B2 B3", "C1 C2 C3",
            "A1 B2 C3", "A3 B2 C1",
        ];
        assert_eq!(lines, strings(&expected));
    }

    #[test]
    fn moves_print_and_parse() {
        assert_eq!(Move::Place(sq("C2")).to_string(), "C2");
        assert_eq!(Move::Slide(sq("C2"), sq("C1")).to_string(), "C2-C1");
        assert_eq!(mv("c2-c1"), Move::Slide(sq("C2"), sq("C1")));
        assert_eq!(mv(" b3 "), Move::Place(sq("B3")));
        let start = state(".../.../... A");
        // Syntax only: an illegal but well-formed move parses.
        assert_eq!(GAME.parse_move(&start, "A1-C3"), Ok(Move::Slide(sq("A1"), sq("C3"))));
        let cases = [
            ("D4", "unknown square `D4`, expected A1 to C3"),
            ("A1-", "unknown square ``"),
            ("A1-B1-C1", "unknown square `B1-C1`"),
            ("", "empty move"),
            ("xx", "unknown square `xx`"),
        ];
        for (text, message) in cases {
            let e = GAME.parse_move(&start, text).unwrap_err().0;
            assert!(e.contains(message), "{text}: {e}");
        }
    }

    #[test]
    fn positions_round_trip_and_debug_draws_the_board() {
        for text in [".../.../... A", ".../B../A.. A", PRACTICE, QUIET, "B../.../... A"] {
            assert_eq!(GAME.format_state(&state(text)), text);
        }
        assert_eq!(format!("{:?}", state(".../B../A.. A")), "...\nB..\nA..\nA to move");
        let practice = format!("{:?}", state(PRACTICE));
        assert_eq!(practice, "..B\nBBA\nAA.\nA to move, 0 slides played");
        let s = state(PRACTICE);
        assert_eq!(s.piece_at(sq("C2")), Some(Player::A));
        assert_eq!(s.piece_at(sq("C3")), Some(Player::B));
        assert_eq!(s.piece_at(sq("C1")), None);
        assert_eq!(
            (s.to_move(), s.is_sliding(), s.slides_played()),
            (Player::A, true, 0)
        );
        assert_eq!(Player::A.other(), Player::B);
        assert_eq!(Player::B.to_string(), "B");
    }

    #[test]
    fn practice_position_c2_c1_wins_for_a() {
        let s = state(PRACTICE);
        assert_eq!(GAME.outcome(&s), Outcome::Ongoing);
        let after = play_all(&s, &["C2-C1"]);
        assert_eq!(GAME.outcome(&after), win("A", &["A1", "B1", "C1"]));
        assert!(GAME.legal_moves(&after).is_empty());
        assert_eq!(after.slides_played(), 1);

        let replay = GAME.replay(PRACTICE, &strings(&["C2-C1"])).unwrap();
        assert_eq!(replay.positions, strings(&[PRACTICE, "..B/BB./AAA B"]));
        assert_eq!(replay.outcome, win("A", &["A1", "B1", "C1"]));
        assert_eq!(replay.outcome.to_string(), "A wins (line A1 B1 C1)");
        assert_eq!(replay.illegal, None);
        assert!(replay.legal_moves.is_empty());

        let refused = GAME.replay(PRACTICE, &strings(&["C2-C1", "B2-C2"])).unwrap();
        let (index, why) = refused.illegal.unwrap();
        assert_eq!(
            (index, why.as_str()),
            (1, "the game is over: A wins (line A1 B1 C1)")
        );
    }

    #[test]
    fn slides_follow_orthogonal_edges_only() {
        let s = state(QUIET);
        assert_eq!(GAME.moves(QUIET).unwrap(), strings(&["A1-A2", "A1-B1", "B3-A3"]));
        let from_a1: Vec<Move> = GAME
            .legal_moves(&s)
            .into_iter()
            .filter(|m| matches!(m, Move::Slide(from, _) if *from == sq("A1")))
            .collect();
        assert_eq!(from_a1.len(), 2);
        assert!(from_a1.contains(&mv("A1-A2")) && from_a1.contains(&mv("A1-B1")));
        // A on A2 with B3 empty: still no diagonal slide.
        let diagonal = state("..A/AB./BBA A");
        assert_eq!(diagonal.piece_at(sq("B3")), None);
        assert!(!GAME.legal_moves(&diagonal).contains(&mv("A2-B3")));
        let e = play_err(&diagonal, "A2-B3");
        assert_eq!(e, "A2-B3 is not along a movement edge (diagonal)");
        let e = play_err(&s, "A1-A3");
        assert_eq!(
            e,
            "A1-A3 is not along a movement edge (the points are not neighbours)"
        );
    }

    #[test]
    fn illegal_moves_say_why() {
        let quiet = state(QUIET);
        assert_eq!(play_err(&quiet, "B3-C3"), "C3 is occupied (by B)");
        assert_eq!(play_err(&quiet, "B2-B1"), "B2 is not A's counter");
        assert_eq!(play_err(&quiet, "A2-A3"), "A2 is not A's counter");
        assert_eq!(play_err(&quiet, "A2"), "placement is over: slide a counter instead");
        let placing = state(".../B../A.. A");
        assert_eq!(play_err(&placing, "A2"), "A2 is occupied (by B)");
        let e = play_err(&placing, "A1-B1");
        assert_eq!(
            e,
            "placement is not over: A has placed 1 of 3 counters, place a counter instead"
        );
    }

    #[test]
    fn a_line_on_the_fifth_placement_ends_the_game() {
        let start = state(".../.../... A");
        let four = play_all(&start, &["A1", "A2", "B1", "B2"]);
        assert_eq!(GAME.outcome(&four), Outcome::Ongoing);
        let won = play_all(&four, &["C1"]);
        assert_eq!(GAME.outcome(&won), win("A", &["A1", "B1", "C1"]));
        assert!(!won.is_sliding());
        assert!(GAME.legal_moves(&won).is_empty());
        assert_eq!(play_err(&won, "C2"), "the game is over: A wins (line A1 B1 C1)");
        // B may start too, and then wins on its third placement (the sixth).
        let b_start = state(".../.../... B");
        let b_won = play_all(&b_start, &["A3", "A1", "B3", "B1", "C3"]);
        assert_eq!(GAME.outcome(&b_won), win("B", &["A3", "B3", "C3"]));
    }

    #[test]
    fn six_placements_without_a_line_start_sliding() {
        let start = state(".../.../... A");
        let placed = play_all(&start, &["A1", "B2", "C2", "C1", "A3", "A2"]);
        assert!(placed.is_sliding());
        assert_eq!(placed.slides_played(), 0);
        assert_eq!(GAME.format_state(&placed), "A../BBA/A.B A");
        assert_eq!(GAME.outcome(&placed), Outcome::Ongoing);
        assert!(GAME.legal_moves(&placed).iter().all(|m| matches!(m, Move::Slide(..))));
    }

    #[test]
    fn the_third_occurrence_draws_by_repetition() {
        let cycle = ["A1-A2", "B2-B1", "A2-A1", "B1-B2"];
        let start = state(QUIET);
        let once_round = play_all(&start, &cycle);
        assert_eq!(GAME.format_state(&once_round), QUIET);
        assert_eq!(GAME.outcome(&once_round), Outcome::Ongoing);
        let almost = play_all(&once_round, &cycle[..3]);
        assert_eq!(GAME.outcome(&almost), Outcome::Ongoing);
        let twice_round = play_all(&almost, &cycle[3..]);
        assert_eq!(GAME.outcome(&twice_round), draw("repetition"));
        assert_eq!(twice_round.slides_played(), 8);
        assert!(GAME.legal_moves(&twice_round).is_empty());
        assert_eq!(
            play_err(&twice_round, "A1-A2"),
            "the game is over: draw (repetition)"
        );
    }

    #[test]
    fn repetition_counts_positions_reached_by_placement() {
        // The position after the sixth placement is the first occurrence.
        let start = state(".../.../... A");
        let placed = play_all(&start, &["A1", "B2", "C2", "C1", "A3", "A2"]);
        let cycle = ["A3-B3", "C1-B1", "B3-A3", "B1-C1"];
        let once = play_all(&placed, &cycle);
        assert_eq!(GAME.format_state(&once), GAME.format_state(&placed));
        assert_eq!(GAME.outcome(&once), Outcome::Ongoing);
        assert_eq!(GAME.outcome(&play_all(&once, &cycle)), draw("repetition"));
    }

    /// Depth-first search for `left` more slides after which the game is still going
    /// (the last one may end it with the turn limit, but not with a win).
    fn quiet_slides(state: &State, left: u32, path: &mut Vec<Move>) -> bool {
        if left == 0 {
            return true;
        }
        let mut moves = GAME.legal_moves(state);
        moves.sort_by_key(ToString::to_string);
        for next_move in moves {
            let next = GAME.play(state, &next_move).unwrap();
            let ok = match GAME.outcome(&next) {
                Outcome::Ongoing => true,
                Outcome::Draw { reason } => left == 1 && reason == "turn-limit",
                Outcome::Win { .. } => false,
            };
            path.push(next_move);
            if ok && quiet_slides(&next, left - 1, path) {
                return true;
            }
            path.pop();
        }
        false
    }

    #[test]
    fn forty_slides_draw_by_turn_limit_not_thirty_nine() {
        let start = state(QUIET);
        let mut path = Vec::new();
        assert!(
            quiet_slides(&start, SLIDING_TURN_LIMIT, &mut path),
            "no quiet line found"
        );
        let mut s = start;
        for (turn, next_move) in (1..).zip(&path) {
            s = GAME.play(&s, next_move).unwrap();
            assert_eq!(s.slides_played(), turn);
            if turn < SLIDING_TURN_LIMIT {
                assert_eq!(
                    GAME.outcome(&s),
                    Outcome::Ongoing,
                    "after {turn} slides:\n{s:?}"
                );
            }
        }
        assert_eq!(s.slides_played(), 40);
        assert_eq!(GAME.outcome(&s), draw("turn-limit"));
        assert!(GAME.legal_moves(&s).is_empty());
        let slide = s.position.moves_ignoring_draws()[0];
        let e = GAME.play(&s, &slide).unwrap_err().0;
        assert_eq!(e, "the game is over: draw (turn-limit)");
    }

    #[test]
    fn a_win_on_the_fortieth_slide_beats_the_turn_limit() {
        let mut practice = state(PRACTICE);
        practice.slides = SLIDING_TURN_LIMIT - 1;
        assert_eq!(GAME.outcome(&practice), Outcome::Ongoing);
        let won = play_all(&practice, &["C2-C1"]);
        assert_eq!(won.slides_played(), SLIDING_TURN_LIMIT);
        assert_eq!(GAME.outcome(&won), win("A", &["A1", "B1", "C1"]));
    }

    #[test]
    fn malformed_positions_are_refused() {
        let cases = [
            (
                ".../.../...",
                "expected a board and the player to move separated by a space",
            ),
            (".../.../... C", "unknown player to move `C`, expected A or B"),
            (".../.../... AB", "unknown player to move `AB`"),
            (".../... A", "the board has 2 rows, expected 3 separated by `/`"),
            (".../.../.../... A", "the board has 4 rows"),
            ("..../.../... A", "row 3 has 4 points, expected 3"),
            (".../../... A", "row 2 has 2 points, expected 3"),
            (".../.../..x A", "unknown point `x` at C1, expected `.`, `A` or `B`"),
            (".../.../..a A", "unknown point `a` at C1"),
            ("AAA/A../BBB B", "A has 4 counters, at most 3 allowed"),
            ("BBB/B../AAA A", "B has 4 counters, at most 3 allowed"),
            ("B../B../A.. B", "it cannot be B's turn: A has placed 1 and B 2"),
            ("AA./.../B.. A", "it cannot be A's turn: A has placed 2 and B 1"),
            ("AAA/.../B.. B", "A has placed 3 and B 1, but players alternate"),
            ("AAA/BBB/... A", "both A and B have a line"),
            ("AAA/BB./B.. A", "A is to move but already has a line A3 B3 C3"),
            ("B.A/BA./AB. A", "A is to move but already has a line A1 B2 C3"),
        ];
        for (text, message) in cases {
            let e = parse_err(text);
            assert!(e.contains(message), "{text}: got `{e}`, wanted `{message}`");
        }
    }

    #[test]
    fn a_finished_position_reports_the_winner_of_the_line() {
        let won = state("AAA/BB./... B");
        assert_eq!(GAME.outcome(&won), win("A", &["A3", "B3", "C3"]));
        assert!(GAME.legal_moves(&won).is_empty());
        let sliding_win = state("A.A/BBB/A.. A");
        assert_eq!(GAME.outcome(&sliding_win), win("B", &["A2", "B2", "C2"]));
        let diagonal = state("B.A/.A./AB. B");
        assert_eq!(GAME.outcome(&diagonal), win("A", &["A1", "B2", "C3"]));
        assert_eq!(GAME.perft("AAA/BB./... B", 3).unwrap(), 0);
    }

    #[test]
    fn perft_from_the_empty_board() {
        let start = state(".../.../... A");
        let counts: Vec<u64> = (1..=5).map(|depth| perft(&GAME, &start, depth)).collect();
        // No line before the fifth placement, so every placement sequence counts.
        assert_eq!(counts, vec![9, 72, 504, 3024, 15120]);
        assert_eq!(GAME.perft(".../.../... B", 4).unwrap(), 3024);
    }

    #[test]
    fn perft_is_colour_symmetric() {
        let cases = [
            (".../.../... A", 6),
            ("A../.B./... A", 5),
            (PRACTICE, 5),
            (QUIET, 8),
            ("..A/AB./BBA A", 6),
        ];
        for (text, depth) in cases {
            let swapped = swap_colours(text);
            let ours = GAME.perft(text, depth).unwrap();
            assert_eq!(ours, GAME.perft(&swapped, depth).unwrap(), "{text} vs {swapped}");
            assert!(ours > 0);
        }
    }

    #[test]
    fn perft_respects_repetition_from_the_parsed_start() {
        // Every line of 8 slides that comes back to QUIET twice ends there, so
        // perft(9) is smaller than it would be without the repetition rule.
        let with_history = GAME.perft(QUIET, 9).unwrap();
        let mut no_history = 0;
        count_ignoring_draws(&state(QUIET).position, 9, &mut no_history);
        assert!(with_history < no_history, "{with_history} vs {no_history}");
    }

    fn count_ignoring_draws(position: &Position, depth: u32, total: &mut u64) {
        if depth == 0 {
            *total += 1;
            return;
        }
        for next_move in position.moves_ignoring_draws() {
            count_ignoring_draws(&position.after(next_move), depth - 1, total);
        }
    }

    #[test]
    fn no_reachable_position_leaves_the_mover_without_a_slide() {
        assert_eq!(stuck_positions(), Vec::<String>::new());
    }

    #[test]
    fn every_blocked_board_already_has_a_winner() {
        // Why stuck_positions is empty: in every sliding board where the mover cannot
        // slide (8 of them), the opponent holds a line, so the game is already won.
        let mut blocked = 0;
        for code in 0..3u32.pow(POINTS as u32) {
            let mut position = Position::empty(Player::A);
            let mut rest = code;
            for cell in position.cells.iter_mut() {
                *cell = [None, Some(Player::A), Some(Player::B)][(rest % 3) as usize];
                rest /= 3;
            }
            if position.is_sliding() && position.slides().is_empty() {
                blocked += 1;
                assert!(position.line_of(Player::B).is_some(), "{position}");
                // The win takes precedence, so the no-moves draw never shows.
                let s = State::start(position);
                assert!(
                    matches!(GAME.outcome(&s), Outcome::Win { winner, .. } if winner == "B")
                );
            }
        }
        assert_eq!(blocked, 8);
    }

    /// A start (empty board, either player first) and move choices, played out.
    fn random_game() -> impl Strategy<Value = (Player, Vec<usize>)> {
        (any::<bool>(), prop::collection::vec(any::<usize>(), 0..90)).prop_map(
            |(b_first, picks)| (if b_first { Player::B } else { Player::A }, picks),
        )
    }

    proptest! {
        #[test]
        fn random_play_keeps_the_rules((first, picks) in random_game()) {
            let mut s = GAME.parse_state(&format!(".../.../... {first}")).unwrap();
            for pick in picks {
                let moves = GAME.legal_moves(&s);
                let over = GAME.outcome(&s).is_over();
                // A finished game has no moves, and a game with no moves is over.
                prop_assert_eq!(moves.is_empty(), over, "{:?}", s);
                if over {
                    break;
                }
                let chosen = moves[pick % moves.len()];
                let mover = s.to_move();
                let before = [Player::A, Player::B].map(|p| s.position.count(p));
                let next = GAME.play(&s, &chosen);
                prop_assert!(next.is_ok(), "{} refused at {:?}: {:?}", chosen, s, next);
                let next = next.unwrap();
                let after = [Player::A, Player::B].map(|p| next.position.count(p));
                prop_assert!(after.iter().all(|&n| n <= COUNTERS_PER_PLAYER));
                match chosen {
                    Move::Slide(..) => prop_assert_eq!(before, after),
                    Move::Place(_) => {
                        let i = mover as usize;
                        prop_assert_eq!(after[i], before[i] + 1);
                        prop_assert_eq!(after[1 - i], before[1 - i]);
                    }
                }
                if let Outcome::Win { winner, .. } = GAME.outcome(&next) {
                    prop_assert_eq!(winner, mover.to_string());
                }
                prop_assert_eq!(next.to_move(), mover.other());
                prop_assert!(next.slides_played() <= SLIDING_TURN_LIMIT);
                prop_assert!(next.repetitions() <= REPETITION_LIMIT);
                s = next;
            }
        }

        #[test]
        fn reachable_positions_round_trip((first, picks) in random_game()) {
            let mut s = GAME.parse_state(&format!(".../.../... {first}")).unwrap();
            for pick in picks {
                let text = GAME.format_state(&s);
                let parsed = GAME.parse_state(&text);
                prop_assert!(parsed.is_ok(), "{} refused: {:?}", text, parsed);
                prop_assert_eq!(GAME.format_state(&parsed.unwrap()), text);
                let moves = GAME.legal_moves(&s);
                if moves.is_empty() {
                    break;
                }
                let chosen = moves[pick % moves.len()];
                let reparsed = GAME.parse_move(&s, &chosen.to_string().to_lowercase());
                prop_assert_eq!(reparsed, Ok(chosen));
                s = GAME.play(&s, &chosen).unwrap();
            }
        }
    }
}
