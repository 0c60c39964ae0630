//! Crossway: a placement game on a square board of any size from 3×3 to 26×26. V
//! (Black) moves first and connects the North and South edges, H (White) connects West
//! and East, each with a chain of stones linked orthogonally or diagonally. No
//! placement may complete a 2×2 checkerboard. On White's first turn White may swap
//! sides instead of placing (the pie rule). A player with no legal placement passes.
//!
//! Notation: a position is the rows from North to South separated by `/` (each row
//! West to East, `.` empty, `V` or `H`), a space, the player to move, and ` swapped`
//! once the pie swap has been used, e.g. `..../.V../..../.... H swapped`. A move is a
//! point named by column letter (`a` at West) and row number (`1` at South) such as
//! `c3`, or `swap`, or `pass`.
//!
//! Stone counts: the swap only changes who holds which colour, so the colours keep
//! alternating through it: V has as many stones as H with V to move and one more with
//! H to move, swapped or not. A pass breaks that, but only a player with no legal
//! placement may pass, and such a player never gets one back (stones are never
//! removed, so a completing checkerboard stays completing). So a position may leave
//! one player behind the alternation by any number of stones only if that player has
//! no legal placement in it.
//!
//! End: the player who just moved wins once they have a path. Both players stuck with
//! no path cannot happen (see the test
//! `a_point_closed_to_both_colours_has_two_h_and_two_v_neighbours`); were it to, the
//! board could never change, so the game is drawn (`no-placements`) right there rather
//! than passing forever.

use std::collections::VecDeque;
use std::fmt;

use crate::rules::{Game, Outcome, RulesError};

/// The smallest board side the rules accept.
pub const MIN_SIZE: u8 = 3;
/// The largest board side the rules accept (one column letter per column).
pub const MAX_SIZE: u8 = 26;

/// One of the two players, named by the colour of their stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// Black: moves first and connects the North and South edges.
    V,
    /// White: connects the West and East edges, and may swap on its first turn.
    H,
}

impl Player {
    /// The opponent.
    pub fn other(self) -> Player {
        match self {
            Player::V => Player::H,
            Player::H => Player::V,
        }
    }

    fn from_letter(letter: char) -> Option<Player> {
        match letter {
            'V' => Some(Player::V),
            'H' => Some(Player::H),
            _ => None,
        }
    }

    fn letter(self) -> char {
        match self {
            Player::V => 'V',
            Player::H => 'H',
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A point of the board: 0-based column (0 = West, `a`) and row (0 = South, `1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// The column, 0 at the West edge.
    pub col: u8,
    /// The row, 0 at the South edge.
    pub row: u8,
}

impl Point {
    /// Parses a point such as `c3` (letter in either case) on a board of `size` points
    /// a side.
    pub fn parse(text: &str, size: u8) -> Result<Point, RulesError> {
        let Some((col, row)) = split_point(text) else {
            return Err(crate::rules_err!(
                "unknown square `{text}`, expected a column letter and a row number \
                 such as c3"
            ));
        };
        match u8::try_from(row) {
            Ok(row) if col < size && row < size => Ok(Point { col, row }),
            _ => Err(crate::rules_err!(
                "unknown square `{text}` on a {size}×{size} board, expected a1 to {}",
                Point { col: size.saturating_sub(1), row: size.saturating_sub(1) }
            )),
        }
    }

    fn index(self, size: u8) -> usize {
        usize::from(self.row) * usize::from(size) + usize::from(self.col)
    }

    /// The up to 8 points touching this one orthogonally or diagonally.
    fn neighbours(self, size: u8) -> impl Iterator<Item = Point> {
        let steps = [-1i16, 0, 1];
        steps
            .into_iter()
            .flat_map(move |dc| steps.into_iter().map(move |dr| (dc, dr)))
            .filter(|&step| step != (0, 0))
            .filter_map(move |(dc, dr)| self.offset(dc, dr, size))
    }

    fn offset(self, dc: i16, dr: i16, size: u8) -> Option<Point> {
        let col = u8::try_from(i16::from(self.col) + dc).ok()?;
        let row = u8::try_from(i16::from(self.row) + dr).ok()?;
        (col < size && row < size).then_some(Point { col, row })
    }
}

/// The 0-based column and row of `c3`-like text, whatever the board size. Leading
/// zeros are refused so that every point has exactly one spelling.
fn split_point(text: &str) -> Option<(u8, u32)> {
    let mut chars = text.chars();
    let letter = chars.next()?.to_ascii_lowercase();
    let digits = chars.as_str();
    let canonical =
        !digits.starts_with('0') && digits.bytes().all(|b| b.is_ascii_digit());
    if !letter.is_ascii_lowercase() || digits.is_empty() || !canonical {
        return None;
    }
    let col = u8::try_from(letter).ok()? - b'a';
    Some((col, digits.parse::<u32>().ok()? - 1))
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", column_letter(self.col), u32::from(self.row) + 1)
    }
}

/// `a` for column 0; past `z` (no such board) some later character, never a panic.
fn column_letter(col: u8) -> char {
    char::from_u32(u32::from(b'a') + u32::from(col)).unwrap_or('?')
}

/// Every point of a `size`×`size` grid, South row first, West to East within a row.
fn grid(size: u8) -> impl Iterator<Item = Point> {
    (0..size).flat_map(move |row| (0..size).map(move |col| Point { col, row }))
}

/// A filled 2×2 block of points, row-major with the North row first:
/// `[[north_west, north_east], [south_west, south_east]]`.
pub type Block = [[Player; 2]; 2];

/// The two forbidden checkerboards (the seed's Figure 1): one colour on each diagonal.
/// No placement may complete either.
pub fn forbidden_patterns() -> [Block; 2] {
    use Player::{H, V};
    [[[H, V], [V, H]], [[V, H], [H, V]]]
}

/// A move: place a stone, swap sides (the pie rule), or pass when no placement is
/// legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// Put a stone of the mover's colour on an empty point.
    Place(Point),
    /// White's first turn only: exchange colours instead of placing.
    Swap,
    /// Only for a player with no legal placement.
    Pass,
}

impl Move {
    /// Parses `c3` (either case), `swap` or `pass` on a board of `size` points a side.
    pub fn parse(text: &str, size: u8) -> Result<Move, RulesError> {
        let text = text.trim();
        match text.to_ascii_lowercase().as_str() {
            "" => Err(crate::rules_err!(
                "empty move, expected a point such as c3, `swap` or `pass`"
            )),
            "swap" => Ok(Move::Swap),
            "pass" => Ok(Move::Pass),
            _ => Point::parse(text, size).map(Move::Place),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(point) => write!(f, "{point}"),
            Move::Swap => f.write_str("swap"),
            Move::Pass => f.write_str("pass"),
        }
    }
}

#[cfg(test)]
/// The empty position of a `size`×`size` board with V to move, e.g.
/// `.../.../... V`. Sizes outside [`MIN_SIZE`]..=[`MAX_SIZE`] give text that
/// `parse_state` refuses.
pub fn empty_position(size: u8) -> String {
    let row = ".".repeat(usize::from(size));
    format!("{} V", vec![row; usize::from(size)].join("/"))
}

/// `1 stone`, `2 stones`.
fn counted(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// The whole game state: board, player to move and whether the pie swap was used.
/// Passes need no history: a player with no placement never gets one back.
#[derive(Clone, PartialEq, Eq)]
pub struct State {
    size: u8,
    /// Row-major from the South row, West first (see [`Point::index`]).
    cells: Vec<Option<Player>>,
    to_move: Player,
    swapped: bool,
}

impl State {
    fn empty(size: u8) -> State {
        let cells = vec![None; usize::from(size) * usize::from(size)];
        State { size, cells, to_move: Player::V, swapped: false }
    }

    /// Points along one side of the board.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The stone on a point, or `None` if it is empty or off the board.
    pub fn stone(&self, p: Point) -> Option<Player> {
        self.on_board(p).then(|| self.cells[p.index(self.size)]).flatten()
    }

    /// The player whose colour moves next.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    #[cfg(test)]
    /// Whether White has used the pie swap.
    pub fn swapped(&self) -> bool {
        self.swapped
    }

    fn on_board(&self, p: Point) -> bool {
        p.col < self.size && p.row < self.size
    }

    /// Every point, South row first, West to East within a row.
    fn points(&self) -> impl Iterator<Item = Point> + use<> {
        grid(self.size)
    }

    fn count(&self, player: Player) -> usize {
        self.cells.iter().filter(|&&c| c == Some(player)).count()
    }

    /// The points of the 2×2 block whose South-West corner is `sw`, laid out like a
    /// [`Block`].
    fn block_points(sw: Point) -> [[Point; 2]; 2] {
        let at = |dc, dr| Point { col: sw.col + dc, row: sw.row + dr };
        [[at(0, 1), at(1, 1)], [at(0, 0), at(1, 0)]]
    }

    /// The South-West corners of every 2×2 block of the board.
    fn block_corners(&self) -> impl Iterator<Item = Point> + use<> {
        grid(self.size - 1)
    }

    /// The South-West corners of the (up to 4) blocks that contain `p`.
    fn blocks_around(&self, p: Point) -> impl Iterator<Item = Point> + use<> {
        let last = self.size - 1;
        let cols = p.col.saturating_sub(1)..=p.col.min(last - 1);
        let rows = p.row.saturating_sub(1)..=p.row.min(last - 1);
        rows.flat_map(move |row| cols.clone().map(move |col| Point { col, row }))
    }

    /// Whether the block at `sw`, with `extra` stone added, is a forbidden pattern.
    fn is_checkerboard(&self, sw: Point, extra: Option<(Point, Player)>) -> bool {
        let stone_at = |q: Point| match extra {
            Some((p, player)) if p == q => Some(player),
            _ => self.stone(q),
        };
        let points = State::block_points(sw);
        let matches = |pattern: &Block| {
            let rows = points.iter().zip(pattern);
            rows.flat_map(|(row, colours)| row.iter().zip(colours))
                .all(|(&q, &colour)| stone_at(q) == Some(colour))
        };
        forbidden_patterns().iter().any(matches)
    }

    /// If `player` placing on `p` would complete a checkerboard, the block's other
    /// three points, South row first.
    fn completed_by(&self, p: Point, player: Player) -> Option<Vec<Point>> {
        let sw = self
            .blocks_around(p)
            .find(|&sw| self.is_checkerboard(sw, Some((p, player))))?;
        let [[nw, ne], [sw, se]] = State::block_points(sw);
        Some([sw, se, nw, ne].into_iter().filter(|&q| q != p).collect())
    }

    fn can_place(&self, p: Point, player: Player) -> bool {
        self.stone(p).is_none() && self.completed_by(p, player).is_none()
    }

    /// Every legal placement for `player`, whoever is to move, in point order.
    fn placements(&self, player: Player) -> Vec<Point> {
        self.points().filter(|&p| self.can_place(p, player)).collect()
    }

    fn first_placement(&self, player: Player) -> Option<Point> {
        self.points().find(|&p| self.can_place(p, player))
    }

    /// One chain of `player`'s stones joining their two edges, from the North (V) or
    /// West (H) edge: a shortest one, found breadth first.
    fn path(&self, player: Player) -> Option<Vec<Point>> {
        let mut parent: Vec<Option<Point>> = vec![None; self.cells.len()];
        let mut seen = vec![false; self.cells.len()];
        let mut queue = VecDeque::new();
        for p in self.points().filter(|&p| self.is_edge_stone(p, player, false)) {
            seen[p.index(self.size)] = true;
            queue.push_back(p);
        }
        while let Some(p) = queue.pop_front() {
            if self.is_edge_stone(p, player, true) {
                return Some(self.trace(&parent, p));
            }
            for q in p.neighbours(self.size) {
                let i = q.index(self.size);
                if !seen[i] && self.stone(q) == Some(player) {
                    seen[i] = true;
                    parent[i] = Some(p);
                    queue.push_back(q);
                }
            }
        }
        None
    }

    /// Whether `p` holds `player`'s stone on their first edge (North for V, West for
    /// H), or on the far edge.
    fn is_edge_stone(&self, p: Point, player: Player, far: bool) -> bool {
        let last = self.size - 1;
        let (coordinate, first) = match player {
            Player::V => (p.row, last),
            Player::H => (p.col, 0),
        };
        let edge = if far { last - first } else { first };
        coordinate == edge && self.stone(p) == Some(player)
    }

    /// The chain from the start edge to `end`, following parent links.
    fn trace(&self, parent: &[Option<Point>], end: Point) -> Vec<Point> {
        let mut chain = vec![end];
        while let Some(p) = parent[chain[chain.len() - 1].index(self.size)] {
            chain.push(p);
        }
        chain.reverse();
        chain
    }

    fn swap_allowed(&self) -> bool {
        self.swap_refusal().is_none()
    }

    /// Why `swap` is not legal now, if it is not.
    fn swap_refusal(&self) -> Option<String> {
        let (v, h) = (self.count(Player::V), self.count(Player::H));
        if self.swapped {
            Some("and the sides were already swapped".to_string())
        } else if self.to_move == Player::V {
            Some("and V is to move".to_string())
        } else if (v, h) != (1, 0) {
            Some(format!("and the board has {v} V and {h} H stones, not V's first alone"))
        } else {
            None
        }
    }

    /// The result once the game is over: the last mover's path, or a draw when
    /// neither player can ever place again.
    fn end(&self) -> Option<Outcome> {
        let last = self.to_move.other();
        if let Some(chain) = self.path(last) {
            let cells = chain.iter().map(ToString::to_string).collect();
            return Some(Outcome::Win {
                winner: last.to_string(),
                reason: "path".to_string(),
                cells,
            });
        }
        let stuck = |player| self.first_placement(player).is_none();
        (stuck(Player::V) && stuck(Player::H))
            .then(|| Outcome::Draw { reason: "no-placements".to_string() })
    }

    fn legal_moves(&self) -> Vec<Move> {
        if self.end().is_some() {
            return Vec::new();
        }
        let mut moves: Vec<Move> =
            self.placements(self.to_move).into_iter().map(Move::Place).collect();
        if moves.is_empty() {
            return vec![Move::Pass];
        }
        if self.swap_allowed() {
            moves.push(Move::Swap);
        }
        moves
    }

    fn check(&self, mv: Move) -> Result<(), RulesError> {
        match mv {
            Move::Place(p) => self.check_place(p),
            Move::Swap => match self.swap_refusal() {
                Some(why) => Err(crate::rules_err!(
                    "`swap` is only legal on White's first turn, {why}"
                )),
                None => Ok(()),
            },
            Move::Pass => match self.first_placement(self.to_move) {
                Some(p) => Err(crate::rules_err!(
                    "`pass` is only legal with no placement left, and {} can play {p}",
                    self.to_move
                )),
                None => Ok(()),
            },
        }
    }

    fn check_place(&self, p: Point) -> Result<(), RulesError> {
        if !self.on_board(p) {
            let size = self.size;
            return Err(crate::rules_err!(
                "unknown square `{p}` on a {size}×{size} board"
            ));
        }
        if let Some(owner) = self.stone(p) {
            return Err(crate::rules_err!("{p} is already taken by {owner}"));
        }
        match self.completed_by(p, self.to_move) {
            Some(others) => Err(crate::rules_err!(
                "{p} would complete a checkerboard with {}",
                names(&others).join(", ")
            )),
            None => Ok(()),
        }
    }

    fn after(&self, mv: Move) -> State {
        let mut next = self.clone();
        match mv {
            Move::Place(p) => next.cells[p.index(self.size)] = Some(self.to_move),
            // The colours stay put; only their owners change, so H moves again.
            Move::Swap => next.swapped = true,
            Move::Pass => {}
        }
        if mv != Move::Swap {
            next.to_move = self.to_move.other();
        }
        next
    }

    /// The rows in notation, North first.
    fn rows_north_first(&self) -> impl Iterator<Item = String> + '_ {
        (0..self.size).rev().map(move |row| {
            (0..self.size)
                .map(|col| self.stone(Point { col, row }).map_or('.', Player::letter))
                .collect()
        })
    }
}

fn names(points: &[Point]) -> Vec<String> {
    points.iter().map(ToString::to_string).collect()
}

/// The position in notation, e.g. `..../.V../..../.... H swapped`.
impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows: Vec<String> = self.rows_north_first().collect();
        write!(f, "{} {}", rows.join("/"), self.to_move)?;
        if self.swapped {
            f.write_str(" swapped")?;
        }
        Ok(())
    }
}

/// Draws the board with its coordinates, so failing tests show it.
impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for (row, text) in (1..=self.size).rev().zip(self.rows_north_first()) {
            let spaced: Vec<String> = text.chars().map(String::from).collect();
            writeln!(f, "{row:>2} {}", spaced.join(" "))?;
        }
        let letters: Vec<String> =
            (0..self.size).map(|col| column_letter(col).to_string()).collect();
        writeln!(f, "   {}", letters.join(" "))?;
        let swapped = if self.swapped { ", swapped" } else { "" };
        write!(f, "{} to move{swapped}", self.to_move)
    }
}

fn parse_position(text: &str) -> Result<State, RulesError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let (board, mover, swapped) = match fields.as_slice() {
        [board, mover] => (*board, *mover, false),
        [board, mover, "swapped"] => (*board, *mover, true),
        [_, _, extra] => {
            return Err(crate::rules_err!(
                "expected `swapped` or nothing after the player to move, found `{extra}`"
            ));
        }
        _ => {
            return Err(crate::rules_err!(
                "expected rows separated by `/`, a space, the player to move and \
                 optionally ` swapped`, found `{text}`"
            ));
        }
    };
    let mut state = parse_board(board)?;
    state.to_move = parse_mover(mover)?;
    state.swapped = swapped;
    validate(&state).map_err(RulesError::refused)?;
    Ok(state)
}

fn parse_mover(text: &str) -> Result<Player, RulesError> {
    let mut chars = text.chars();
    match (chars.next().and_then(Player::from_letter), chars.next()) {
        (Some(player), None) => Ok(player),
        _ => Err(crate::rules_err!("unknown player to move `{text}`, expected V or H")),
    }
}

/// The board part, rows North first; the board must be square, its side the number
/// of rows.
fn parse_board(board: &str) -> Result<State, RulesError> {
    let rows: Vec<&str> = board.split('/').collect();
    let size = match u8::try_from(rows.len()) {
        Ok(n) if (MIN_SIZE..=MAX_SIZE).contains(&n) => n,
        _ => {
            return Err(crate::rules_err!(
                "the board has {}, expected {MIN_SIZE} to {MAX_SIZE} separated by `/`",
                counted(rows.len(), "row")
            ));
        }
    };
    let mut state = State::empty(size);
    for (row, text) in (0..size).rev().zip(rows) {
        parse_row(&mut state, text, row)?;
    }
    Ok(state)
}

fn parse_row(state: &mut State, text: &str, row: u8) -> Result<(), RulesError> {
    let size = state.size;
    let length = text.chars().count();
    if length != usize::from(size) {
        return Err(crate::rules_err!(
            "row {} has {}, expected {size}",
            u32::from(row) + 1,
            counted(length, "point")
        ));
    }
    for (col, letter) in (0..size).zip(text.chars()) {
        let point = Point { col, row };
        state.cells[point.index(size)] = match letter {
            '.' => None,
            _ => Some(Player::from_letter(letter).ok_or_else(|| {
                crate::rules_err!(
                    "unknown point `{letter}` at {point}, expected `.`, `V` or `H`"
                )
            })?),
        };
    }
    Ok(())
}

/// Refuses boards no game reaches: see the module notes on stone counts and ends.
fn validate(state: &State) -> Result<(), RulesError> {
    if let Some(sw) = state.block_corners().find(|&sw| state.is_checkerboard(sw, None)) {
        let [[nw, ne], [sw, se]] = State::block_points(sw);
        return Err(crate::rules_err!(
            "the block {sw}, {se}, {nw}, {ne} is a checkerboard, which no placement may \
             complete"
        ));
    }
    if let Some(chain) = state.path(state.to_move) {
        return Err(crate::rules_err!(
            "{} is to move but already has a path {}; only the player who just moved \
             can have completed one",
            state.to_move,
            names(&chain).join(" ")
        ));
    }
    if state.swapped && state.count(Player::V) == 0 {
        return Err(crate::rules_err!(
            "`swapped` needs V's first stone on the board, found none"
        ));
    }
    check_counts(state)
}

/// The colours alternate (V first, the swap changing owners, not colours), except
/// that a player with no placement falls behind by passing.
fn check_counts(state: &State) -> Result<(), RulesError> {
    let (v, h) = (state.count(Player::V), state.count(Player::H));
    let expected_v = h + usize::from(state.to_move == Player::H);
    if v == expected_v {
        return Ok(());
    }
    let behind = if v > expected_v { Player::H } else { Player::V };
    let expected = match state.to_move {
        Player::V => "V to have as many stones as H",
        Player::H => "V to have one stone more than H",
    };
    let found = format!(
        "V has {} and H has {} with {} to move, expected {expected}",
        counted(v, "stone"),
        counted(h, "stone"),
        state.to_move
    );
    if let Some(p) = state.first_placement(behind) {
        return Err(crate::rules_err!(
            "{found} (only a player with no placement falls behind, by passing, and \
             {behind} can play {p})"
        ));
    }
    if state.path(behind).is_some() {
        // Their passes came after their last stone, so the path was there before.
        return Err(crate::rules_err!(
            "{found}, and {behind} has a path, so the game ended before their passes"
        ));
    }
    Ok(())
}

/// The Crossway rules; the board size comes from each parsed position.
#[derive(Clone, Copy, Debug)]
pub struct Crossway;

impl Game for Crossway {
    type State = State;
    type Move = Move;
    type Square = Point;

    fn parse_state(&self, text: &str) -> Result<State, RulesError> {
        parse_position(text)
    }

    fn format_state(&self, state: &State) -> String {
        state.to_string()
    }

    fn parse_move(&self, state: &State, text: &str) -> Result<Move, RulesError> {
        Move::parse(text, state.size)
    }

    fn legal_moves(&self, state: &State) -> Vec<Move> {
        state.legal_moves()
    }

    fn play(&self, state: &State, mv: &Move) -> Result<State, RulesError> {
        if let Some(end) = state.end() {
            return Err(crate::rules_err!("the game is over: {end}").refused());
        }
        state.check(*mv).map_err(RulesError::refused)?;
        Ok(state.after(*mv))
    }

    fn outcome(&self, state: &State) -> Outcome {
        state.end().unwrap_or(Outcome::Ongoing)
    }

    fn to_move(&self, state: &State) -> String {
        state.to_move().to_string()
    }

    fn top(&self, state: &State, square: &str) -> Result<Option<String>, RulesError> {
        Ok(state.stone(Point::parse(square, state.size)?).map(|p| p.to_string()))
    }

    fn parse_square(&self, state: &State, text: &str) -> Result<Point, RulesError> {
        Point::parse(text, state.size)
    }

    fn origin(&self, _mv: &Move) -> Option<Point> {
        // Stones are only ever placed: no move takes one from the board.
        None
    }

    fn target(&self, mv: &Move) -> Option<Point> {
        match *mv {
            Move::Place(at) => Some(at),
            Move::Swap | Move::Pass => None,
        }
    }
}

/// Stones each side may need on an N×N board: V moves first, so at most half the
/// points rounded up; H at most half rounded down.
pub fn stones_needed(size: u8) -> (u32, u32) {
    let points = size as u32 * size as u32;
    (points.div_ceil(2), points / 2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Engine;
    use Player::{H, V};
    use proptest::prelude::*;

    const GAME: Crossway = Crossway;
    /// Seed Figure 2, rows North to South; the `?` points a5, d4 and c2 are empty.
    const FIGURE_2: &str = ".HVVV/H.H.H/VVV.H/VH.HV/H.V.H V";
    /// Seed Figure 3: H has just joined West to East.
    const FIGURE_3: &str = "....H/V..HV/VHHV./H.V../..... V";
    /// H to move, and each of a3, c2 and c3 would complete a checkerboard for H.
    const STUCK: &str = "VHVV/.V.H/VH.V/HHVH H";

    fn state(text: &str) -> State {
        GAME.parse_state(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    /// A position without the validation, for board patterns no game reaches.
    fn raw(text: &str) -> State {
        let (board, mover) = text.split_once(' ').unwrap();
        let mut s = parse_board(board).unwrap();
        s.to_move = parse_mover(mover).unwrap();
        s
    }

    fn pt(text: &str) -> Point {
        Point::parse(text, MAX_SIZE).unwrap()
    }

    fn mv(s: &State, text: &str) -> Move {
        GAME.parse_move(s, text).unwrap()
    }

    fn play_all(start: &State, moves: &[&str]) -> State {
        moves.iter().fold(start.clone(), |s, m| {
            GAME.play(&s, &mv(&s, m)).unwrap_or_else(|e| panic!("{m} at {s:?}\n{e}"))
        })
    }

    fn play_err(s: &State, text: &str) -> String {
        GAME.play(s, &mv(s, text)).expect_err(text).0
    }

    fn parse_err(text: &str) -> String {
        GAME.parse_state(text).expect_err(text).0
    }

    fn win(winner: &str, cells: &[&str]) -> Outcome {
        let (winner, reason) = (winner.to_string(), "path".to_string());
        Outcome::Win { winner, reason, cells: strings(cells) }
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(ToString::to_string).collect()
    }

    fn placement_names(s: &State, player: Player) -> Vec<String> {
        names(&s.placements(player))
    }

    fn has_checkerboard(s: &State) -> bool {
        s.block_corners().any(|sw| s.is_checkerboard(sw, None))
    }

    /// The position mirrored in the a1 diagonal with colours and mover exchanged:
    /// V's North-South paths become H's West-East ones.
    fn mirrored(text: &str) -> String {
        let s = raw(text);
        let mut turned = State::empty(s.size);
        for p in s.points() {
            let q = Point { col: p.row, row: p.col };
            turned.cells[q.index(s.size)] = s.stone(p).map(Player::other);
        }
        turned.to_move = s.to_move.other();
        turned.to_string()
    }

    fn adjacent(a: Point, b: Point) -> bool {
        a != b && a.col.abs_diff(b.col) <= 1 && a.row.abs_diff(b.row) <= 1
    }

    #[test]
    fn points_parse_and_print() {
        assert_eq!(pt("a1"), Point { col: 0, row: 0 });
        assert_eq!(pt("C3"), Point { col: 2, row: 2 });
        assert_eq!(pt("z26"), Point { col: 25, row: 25 });
        assert_eq!(Point::parse("e5", 5).unwrap().to_string(), "e5");
        assert_eq!(Point { col: 9, row: 18 }.to_string(), "j19");
        let off_board = Point::parse("z9", 9).unwrap_err().0;
        assert_eq!(off_board, "unknown square `z9` on a 9×9 board, expected a1 to i9");
        assert!(
            Point::parse("a10", 9).unwrap_err().0.starts_with("unknown square `a10` on")
        );
        for bad in ["", "c", "3c", "c0", "c03", "c-1", "cc3", "é3", "c99999999999"] {
            let e = Point::parse(bad, 9).unwrap_err().0;
            let wanted = format!(
                "unknown square `{bad}`, expected a column letter and a row number such \
                 as c3"
            );
            assert_eq!(e, wanted);
        }
    }

    #[test]
    fn moves_parse_and_print() {
        let s = state(&empty_position(5));
        for (text, printed) in
            [("c3", "c3"), ("C3", "c3"), (" swap ", "swap"), ("PASS", "pass")]
        {
            assert_eq!(mv(&s, text).to_string(), printed);
        }
        assert_eq!(mv(&s, "b4"), Move::Place(pt("b4")));
        assert_eq!(mv(&s, "Swap"), Move::Swap);
        let e = GAME.parse_move(&s, "").unwrap_err().0;
        assert_eq!(e, "empty move, expected a point such as c3, `swap` or `pass`");
        let e = GAME.parse_move(&s, "f1").unwrap_err().0;
        assert_eq!(e, "unknown square `f1` on a 5×5 board, expected a1 to e5");
        let e = GAME.play(&s, &Move::Place(pt("f1"))).unwrap_err().0;
        assert_eq!(e, "unknown square `f1` on a 5×5 board");
    }

    #[test]
    fn positions_round_trip_and_debug_draws_the_board() {
        assert_eq!(empty_position(5), "...../...../...../...../..... V");
        assert_eq!(empty_position(3), ".../.../... V");
        for size in MIN_SIZE..=MAX_SIZE {
            let s = state(&empty_position(size));
            assert_eq!((s.size(), s.to_move(), s.swapped()), (size, V, false));
            assert_eq!(GAME.format_state(&s), empty_position(size));
        }
        for text in [FIGURE_2, FIGURE_3, STUCK, "..../.V../..../.... H swapped"] {
            assert_eq!(GAME.format_state(&state(text)), text);
        }
        // Extra spaces are tolerated but not kept.
        assert_eq!(GAME.format_state(&state("  .../.V./... \t H ")), ".../.V./... H");
        let s = state("..../.V../..../.... H swapped");
        assert_eq!(s.stone(pt("b3")), Some(V));
        assert_eq!(s.stone(pt("b2")), None);
        assert_eq!(s.stone(pt("e1")), None);
        let drawn = "\n 4 . . . .\n 3 . V . .\n 2 . . . .\n 1 . . . .\n   a b c d\n\
                     H to move, swapped";
        assert_eq!(format!("{s:?}"), drawn);
    }

    #[test]
    fn top_names_the_stone_on_a_point() {
        let s = state(FIGURE_2);
        assert_eq!(Game::top(&GAME, &s, "b5").unwrap(), Some("H".to_string()));
        assert_eq!(Game::top(&GAME, &s, "C1").unwrap(), Some("V".to_string()));
        assert_eq!(Game::top(&GAME, &s, "a5").unwrap(), None);
        assert!(
            Game::top(&GAME, &s, "f5").unwrap_err().0.starts_with("unknown square `f5`")
        );
        assert_eq!(Game::top(&GAME, &s, "e5").unwrap(), Some("V".to_string()));
    }

    #[test]
    fn malformed_positions_are_refused() {
        let cases = [
            (
                "..../..../..../....",
                "expected rows separated by `/`, a space, the player",
            ),
            ("", "expected rows separated by `/`"),
            (".../.../... V swapped x", "expected rows separated by `/`"),
            (
                ".../.../... V twice",
                "expected `swapped` or nothing after the player to move, found `twice`",
            ),
            ("... V", "the board has 1 row, expected 3 to 26 separated by `/`"),
            ("../.. V", "the board has 2 rows, expected 3 to 26"),
            (".../..../... V", "row 2 has 4 points, expected 3"),
            ("..../..../..../... V", "row 1 has 3 points, expected 4"),
            (".../.../. V", "row 1 has 1 point, expected 3"),
            (".../.../... X", "unknown player to move `X`, expected V or H"),
            (".../.../... v", "unknown player to move `v`"),
            (".../.../... VH", "unknown player to move `VH`"),
            (".../.x./... V", "unknown point `x` at b2, expected `.`, `V` or `H`"),
            (".../.v./... V", "unknown point `v` at b2"),
            (
                "..../.VH./.HV./.... V",
                "the block b2, c2, b3, c3 is a checkerboard, which no placement may \
                 complete",
            ),
            ("HV../VH../..../.... V", "the block a3, b3, a4, b4 is a checkerboard"),
            (
                "V../V../V.. V",
                "V is to move but already has a path a3 a2 a1; only the player who just \
                 moved can have completed one",
            ),
            ("HHH/.../V.. H", "H is to move but already has a path a3 b3 c3"),
            (
                ".../.../... V swapped",
                "`swapped` needs V's first stone on the board, found none",
            ),
            (
                ".../.../... H",
                "V has 0 stones and H has 0 stones with H to move, expected V to have \
                 one stone more than H (only a player with no placement falls behind, by \
                 passing, and V can play a1)",
            ),
            (
                ".../.V./... V",
                "V has 1 stone and H has 0 stones with V to move, expected V to have as \
                 many stones as H (only a player with no placement falls behind, by \
                 passing, and H can play a1)",
            ),
            ("..../..../..../VV.. V swapped", "and H can play c1"),
            (
                ".../.H./... V",
                "expected V to have as many stones as H (only a player with no placement \
                 falls behind, by passing, and V can play a1)",
            ),
        ];
        for (text, message) in cases {
            let e = parse_err(text);
            assert!(e.contains(message), "{text}: got `{e}`, wanted `{message}`");
        }
        let too_big = vec![".".repeat(27); 27].join("/") + " V";
        assert_eq!(
            parse_err(&too_big),
            "the board has 27 rows, expected 3 to 26 separated by `/`"
        );
    }

    #[test]
    fn seed_figure_2_legal_placements_for_v() {
        let s = state(FIGURE_2);
        let v_moves = strings(&["a5", "c2", "d4"]);
        assert_eq!(GAME.moves(FIGURE_2).unwrap(), v_moves);
        assert_eq!(placement_names(&s, V), strings(&["c2", "d4", "a5"]));
        // The caption's "Black (H)" is a slip: H's placements are other points.
        let h_moves = placement_names(&s, H);
        assert_eq!(h_moves, strings(&["b1", "d1", "c2", "d3", "b4", "d4", "a5"]));
        assert_ne!(h_moves, placement_names(&s, V));
        // The other empty points are closed to V by a checkerboard.
        let e = play_err(&s, "b4");
        assert_eq!(e, "b4 would complete a checkerboard with c4, b5, c5");
        assert_eq!(
            play_err(&s, "d3"),
            "d3 would complete a checkerboard with d2, e2, e3"
        );
        assert_eq!(GAME.outcome(&s), Outcome::Ongoing);
    }

    #[test]
    fn seed_figure_3_is_a_diagonal_win_for_h() {
        let won = state(FIGURE_3);
        let cells = ["a2", "b3", "c3", "d4", "e5"];
        let expected = win("H", &cells);
        assert_eq!(GAME.outcome(&won), expected);
        let points: Vec<Point> = cells.iter().map(|c| pt(c)).collect();
        assert_eq!((points[0].col, points[4].col), (0, 4));
        assert!(points.iter().all(|&p| won.stone(p) == Some(H)));
        assert!(points.windows(2).all(|w| adjacent(w[0], w[1])));
        let diagonal_links =
            points.windows(2).filter(|w| w[0].col != w[1].col && w[0].row != w[1].row);
        assert_eq!(diagonal_links.count(), 3);
        assert!(GAME.legal_moves(&won).is_empty());
        assert_eq!(GAME.perft(FIGURE_3, 2).unwrap(), 0);
        // The same win, made by the placement on e5.
        let before = state("...../V..HV/VHHV./H.V../..... H");
        assert_eq!(GAME.outcome(&before), Outcome::Ongoing);
        let after = play_all(&before, &["e5"]);
        assert_eq!(after, won);
        assert_eq!(GAME.outcome(&after), expected);
        let e = play_err(&after, "e1");
        assert_eq!(e, "the game is over: H wins (path a2 b3 c3 d4 e5)");
    }

    #[test]
    fn v_wins_north_to_south_and_corners_count_for_both_edges() {
        let won = play_all(&state(&empty_position(3)), &["c3", "a1", "b2", "a2", "c1"]);
        assert_eq!(GAME.outcome(&won), win("V", &["c3", "b2", "c1"]));
        // a3 is on H's West edge (and V's North), c1 on H's East edge.
        assert_eq!(GAME.outcome(&state("H.V/.H./VVH V")), win("H", &["a3", "b2", "c1"]));
    }

    #[test]
    fn forbidden_patterns_are_the_two_checkerboards() {
        assert_eq!(forbidden_patterns(), [[[H, V], [V, H]], [[V, H], [H, V]]]);
        for pattern in forbidden_patterns() {
            assert_eq!(pattern[0][0], pattern[1][1]);
            assert_eq!(pattern[0][1], pattern[1][0]);
            assert_ne!(pattern[0][0], pattern[0][1]);
        }
    }

    /// Every block of a 4×4 board, both patterns, each point of the pattern left out:
    /// the left-out colour may not fill it, the other colour may.
    #[test]
    fn completing_a_checkerboard_is_refused_for_both_players() {
        let mut refused = 0;
        for sw in state(&empty_position(4)).block_corners() {
            for pattern in forbidden_patterns() {
                let points = State::block_points(sw);
                for (r, c) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                    let mut s = State::empty(4);
                    for (rr, cc) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                        s.cells[points[rr][cc].index(4)] = Some(pattern[rr][cc]);
                    }
                    let p = points[r][c];
                    s.cells[p.index(4)] = None;
                    let completing = pattern[r][c];
                    s.to_move = completing;
                    let e = s.check(Move::Place(p)).unwrap_err().0;
                    assert!(
                        e.starts_with(&format!("{p} would complete a checkerboard with"))
                    );
                    s.to_move = completing.other();
                    assert_eq!(s.check(Move::Place(p)), Ok(()), "{p} in {s:?}");
                    refused += 1;
                }
            }
        }
        assert_eq!(refused, 9 * 2 * 4);
    }

    #[test]
    fn checkerboard_refusal_names_the_other_three_points() {
        // The block c3, d3, c4, d4 with V on c3 and H on d3 and c4.
        let s = state("..H./..VH/..../V... V");
        assert_eq!(
            play_err(&s, "d4"),
            "d4 would complete a checkerboard with c3, d3, c4"
        );
        assert_eq!(play_err(&s, "c3"), "c3 is already taken by V");
        // The same point is fine for H, whose stone makes no checkerboard.
        let s = state("..H./..VH/..../VV.. H");
        assert_eq!(GAME.play(&s, &mv(&s, "d4")).map(|n| n.stone(pt("d4"))), Ok(Some(H)));
    }

    #[test]
    fn a_player_with_no_placement_passes() {
        let s = state(STUCK);
        assert_eq!(GAME.moves(STUCK).unwrap(), strings(&["pass"]));
        assert!(s.placements(H).is_empty());
        for point in ["a3", "c3", "c2"] {
            assert!(play_err(&s, point).contains("would complete a checkerboard"));
        }
        assert_eq!(GAME.outcome(&s), Outcome::Ongoing);
        let passed = play_all(&s, &["pass"]);
        assert_eq!(GAME.format_state(&passed), "VHVV/.V.H/VH.V/HHVH V");
        assert_eq!(passed.cells, s.cells);
        assert_eq!(
            GAME.moves("VHVV/.V.H/VH.V/HHVH V").unwrap(),
            strings(&["a3", "c2", "c3"])
        );
        let e = play_err(&passed, "pass");
        assert_eq!(e, "`pass` is only legal with no placement left, and V can play c2");
        let e = play_err(&state(&empty_position(5)), "pass");
        assert_eq!(e, "`pass` is only legal with no placement left, and V can play a1");
    }

    /// A stuck player never gets a placement back, so from STUCK every line has H
    /// passing each turn and ends with V winning.
    #[test]
    fn a_stuck_player_stays_stuck_and_loses() {
        fn walk(s: &State, lines: &mut u32) {
            match GAME.outcome(s) {
                Outcome::Win { winner, .. } => {
                    assert_eq!(winner, "V", "{s:?}");
                    *lines += 1;
                }
                Outcome::Draw { .. } => panic!("draw at {s:?}"),
                Outcome::Ongoing => {
                    let moves = GAME.legal_moves(s);
                    if s.to_move() == H {
                        assert_eq!(moves, vec![Move::Pass], "{s:?}");
                    }
                    for next in moves {
                        walk(&GAME.play(s, &next).unwrap(), lines);
                    }
                }
            }
        }
        let mut lines = 0;
        walk(&state(STUCK), &mut lines);
        assert!(lines > 0);
    }

    #[test]
    fn counts_may_lag_only_for_a_stuck_player() {
        // After H's pass, H is a stone behind the alternation: fine, H is stuck.
        assert_eq!(state("VHVV/.V.H/VH.V/HHVH V").to_move(), V);
        // STUCK mirrored in the a1-d4 diagonal with the colours exchanged: V is
        // stuck, to move, one stone behind.
        let turned = mirrored(STUCK);
        assert_eq!(turned, "VHVH/H..H/VVHV/VH.H V");
        let s = state(&turned);
        assert_eq!(GAME.moves(&turned).unwrap(), strings(&["pass"]));
        assert_eq!((s.count(V), s.count(H)), (6, 7));
        // Two stones behind, from a random 5×5 game where V passed twice.
        let twice = "HHVHV/VHVHV/VH..H/VVHVV/HHHHV H";
        let s = state(twice);
        assert_eq!((s.count(V), s.count(H)), (11, 12));
        assert!(s.placements(V).is_empty() && !s.placements(H).is_empty());
        // One pass earlier, with V to move and about to pass again.
        let once = "HHVHV/VHVHV/VH..H/VVHVV/HHHHV V";
        assert_eq!(GAME.moves(once).unwrap(), strings(&["pass"]));
        // A laggard who could still place is refused.
        let e = parse_err("HHVHV/VHVHV/VH..H/VVHVV/HHHH. H");
        assert!(e.contains("V has 10 stones and H has 12 stones with H to move"), "{e}");
        assert!(e.contains("and V can play e1"), "{e}");
    }

    #[test]
    fn a_winner_cannot_have_passed() {
        // H is stuck (d2 and a1 complete checkerboards) and holds a West-East path,
        // yet is a stone behind: H's passes came after the game had ended.
        let text = "VVHH/HHHV/VHV./.V.V";
        let e = parse_err(&format!("{text} V"));
        assert!(
            e.contains("and H has a path, so the game ended before their passes"),
            "{e}"
        );
        // With H to move instead, the counts alternate but the path is H's own.
        assert!(parse_err(&format!("{text} H")).starts_with("H is to move but already"));
    }

    #[test]
    fn the_pie_swap() {
        let start = state(&empty_position(5));
        assert_eq!(
            play_err(&start, "swap"),
            "`swap` is only legal on White's first turn, and V is to move"
        );
        let first = play_all(&start, &["c3"]);
        let moves = GAME.legal_moves(&first);
        assert_eq!(moves.len(), 25);
        assert!(moves.contains(&Move::Swap));
        let swapped = play_all(&first, &["swap"]);
        assert_eq!(
            GAME.format_state(&swapped),
            "...../...../..V../...../..... H swapped"
        );
        assert_eq!((swapped.to_move(), swapped.swapped()), (H, true));
        assert_eq!(swapped.cells, first.cells);
        assert_eq!(GAME.legal_moves(&swapped).len(), 24);
        assert!(!GAME.legal_moves(&swapped).contains(&Move::Swap));
        let again = "`swap` is only legal on White's first turn, and the sides were \
                     already swapped";
        assert_eq!(play_err(&swapped, "swap"), again);
        let later = play_all(&swapped, &["b2", "d4"]);
        assert_eq!(GAME.format_state(&later), "...../...V./..V../.H.../..... H swapped");
        assert_eq!(play_err(&later, "swap"), again);
        // Without the swap, H's second turn is too late.
        let second = play_all(&first, &["b2", "d4"]);
        let e = play_err(&second, "swap");
        assert_eq!(
            e,
            "`swap` is only legal on White's first turn, and the board has 2 V and 1 H \
             stones, not V's first alone"
        );
        assert_eq!(
            play_err(&play_all(&first, &["b2"]), "swap"),
            "`swap` is only legal on White's first turn, and V is to move"
        );
        assert_eq!(GAME.moves("..../.V../..../.... H swapped").unwrap().len(), 15);
    }

    /// Perft re-derived without the module's helpers: a board of chars (South row
    /// first), every rule checked by scanning the whole board, paths by flood fill.
    struct Naive {
        n: usize,
        board: Vec<char>,
        mover: char,
        swapped: bool,
    }

    impl Naive {
        fn start(n: usize) -> Naive {
            Naive { n, board: vec!['.'; n * n], mover: 'V', swapped: false }
        }

        fn any_checkerboard(&self) -> bool {
            let n = self.n;
            let at = |c: usize, r: usize| self.board[r * n + c];
            (0..n - 1).any(|r| {
                (0..n - 1).any(|c| {
                    let (a, b, x, y) =
                        (at(c, r), at(c + 1, r), at(c, r + 1), at(c + 1, r + 1));
                    a != '.' && b != '.' && a != b && a == y && b == x
                })
            })
        }

        fn fill(&self, i: usize, who: char, seen: &mut Vec<bool>) -> bool {
            let n = self.n;
            if seen[i] || self.board[i] != who {
                return false;
            }
            seen[i] = true;
            let (c, r) = (i % n, i / n);
            if (who == 'V' && r == n - 1) || (who == 'H' && c == n - 1) {
                return true;
            }
            let (cs, rs) = (
                c.saturating_sub(1)..=(c + 1).min(n - 1),
                r.saturating_sub(1)..=(r + 1).min(n - 1),
            );
            rs.flat_map(|rr| cs.clone().map(move |cc| rr * n + cc))
                .any(|j| self.fill(j, who, seen))
        }

        fn connected(&self, who: char) -> bool {
            let n = self.n;
            let starts: Vec<usize> =
                (0..n).map(|k| if who == 'V' { k } else { k * n }).collect();
            let mut seen = vec![false; n * n];
            starts.into_iter().any(|i| self.fill(i, who, &mut seen))
        }

        fn perft(&mut self, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            let other = if self.mover == 'V' { 'H' } else { 'V' };
            if self.connected(other) {
                return 0;
            }
            let mut total = 0;
            for i in 0..self.board.len() {
                if self.board[i] != '.' {
                    continue;
                }
                self.board[i] = self.mover;
                if !self.any_checkerboard() {
                    self.mover = other;
                    total += self.perft(depth - 1);
                    self.mover = if other == 'V' { 'H' } else { 'V' };
                }
                self.board[i] = '.';
            }
            let count = |who| self.board.iter().filter(|&&c| c == who).count();
            if self.mover == 'H' && !self.swapped && count('V') == 1 && count('H') == 0 {
                self.swapped = true;
                total += self.perft(depth - 1);
                self.swapped = false;
            }
            assert!(total > 0, "no pass this early");
            total
        }
    }

    #[test]
    fn perft_matches_a_naive_count() {
        for (size, depth) in [(3, 5), (4, 4), (5, 3), (6, 3)] {
            let ours = GAME.perft(&empty_position(size), depth).unwrap();
            assert_eq!(
                ours,
                Naive::start(usize::from(size)).perft(depth),
                "{size}×{size}"
            );
        }
        let counts: Vec<u64> =
            (1..=5).map(|d| GAME.perft(&empty_position(3), d).unwrap()).collect();
        // 9 × (8 × 8): after the first stone, H's 8 placements or the swap, then 8.
        assert_eq!(counts, [9, 81, 576, 3496, 17632]);
        assert_eq!(GAME.perft(&empty_position(4), 4).unwrap(), 46968);
        assert_eq!(GAME.perft(&empty_position(6), 3).unwrap(), 44100);
    }

    #[test]
    fn perft_two_counts_the_swap() {
        // N² first stones, then N² − 1 placements or the swap.
        for size in 3..=8u64 {
            let depth_two = GAME.perft(&empty_position(size as u8), 2).unwrap();
            assert_eq!(depth_two, size * size * (size * size - 1 + 1));
        }
        // After the swap H places on any of the N² − 1 empty points.
        let after = GAME.perft("...../...../..V../...../..... H swapped", 1).unwrap();
        assert_eq!(after, 24);
    }

    /// Why no position leaves both players stuck: a point closed to both colours sits
    /// between a V-closing block and an H-closing block at opposite corners (adjacent
    /// blocks share an orthogonal neighbour, which would need both colours), so its
    /// orthogonal neighbours are two adjacent H stones and two adjacent V stones.
    /// Then V's blocking chain of H-or-empty points (4-connected, West to East) and
    /// H's chain of V-or-empty points (North to South) only meet at such points, and
    /// each meeting is a touch, not a crossing; but two such chains must cross.
    #[test]
    fn a_point_closed_to_both_colours_has_two_h_and_two_v_neighbours() {
        let mut closed_to_both = 0;
        for code in 0..3u32.pow(8) {
            let mut s = State::empty(3);
            let mut rest = code;
            for i in (0..9).filter(|&i| i != 4) {
                s.cells[i] = [None, Some(V), Some(H)][(rest % 3) as usize];
                rest /= 3;
            }
            for i in 0..9 {
                let p = Point { col: (i % 3) as u8, row: (i / 3) as u8 };
                let mut s = s.clone();
                s.cells[4] = s.cells[i];
                s.cells[i] = None;
                if s.completed_by(p, V).is_none() || s.completed_by(p, H).is_none() {
                    continue;
                }
                assert_eq!(p, pt("b2"), "{s:?}");
                closed_to_both += 1;
                let around = ["b3", "c2", "b1", "a2"].map(|q| s.stone(pt(q)));
                let h_pairs = (0..4)
                    .filter(|&k| around[k] == Some(H) && around[(k + 1) % 4] == Some(H));
                let v_pairs = (0..4)
                    .filter(|&k| around[k] == Some(V) && around[(k + 1) % 4] == Some(V));
                assert_eq!((h_pairs.count(), v_pairs.count()), (1, 1), "{s:?}");
            }
        }
        // 4 choices of the V-closing block, 3 × 3 for the two free corners.
        assert_eq!(closed_to_both, 36);
    }

    /// Fills `s` from cell `i` on (South row first) keeping no checkerboard, no H path
    /// in finished rows, and every empty point with all neighbours set closed to both
    /// colours; collects the finished boards with an empty point and no path.
    fn double_stuck_boards(s: &mut State, i: usize, found: &mut Vec<String>) {
        let n = s.size;
        if i == s.cells.len() {
            let open = s.cells.contains(&None);
            if open && s.path(V).is_none() && s.path(H).is_none() {
                found.push(s.to_string());
            }
            return;
        }
        let p =
            Point { col: (i % usize::from(n)) as u8, row: (i / usize::from(n)) as u8 };
        for stone in [None, Some(V), Some(H)] {
            s.cells[i] = stone;
            let row_done = p.col == n - 1;
            if settled_ok(s, p) && !(row_done && s.path(H).is_some()) {
                double_stuck_boards(s, i + 1, found);
            }
        }
        s.cells[i] = None;
    }

    /// The checks that setting `p` (the last cell set) makes final.
    fn settled_ok(s: &State, p: Point) -> bool {
        let last = s.size - 1;
        let sw = Point { col: p.col.wrapping_sub(1), row: p.row.wrapping_sub(1) };
        if p.col > 0 && p.row > 0 && s.is_checkerboard(sw, None) {
            return false;
        }
        let settles =
            |q: &Point| (q.col + 1).min(last) == p.col && (q.row + 1).min(last) == p.row;
        let closed =
            |q: Point| s.completed_by(q, V).is_some() && s.completed_by(q, H).is_some();
        p.neighbours(s.size)
            .chain([p])
            .filter(settles)
            .all(|q| s.stone(q).is_some() || closed(q))
    }

    #[test]
    fn no_small_board_leaves_both_players_stuck() {
        for size in [3, 4] {
            let mut found = Vec::new();
            double_stuck_boards(&mut State::empty(size), 0, &mut found);
            assert_eq!(found, Vec::<String>::new());
        }
        // One stuck player does happen (on 4×4 already); both at once never.
        let s = raw(STUCK);
        assert!(s.placements(H).is_empty() && !s.placements(V).is_empty());
    }

    /// Exhaustive on 5×5: about 15 s with `cargo test --release -- --ignored`.
    #[test]
    #[ignore]
    fn no_5x5_board_leaves_both_players_stuck() {
        let mut found = Vec::new();
        double_stuck_boards(&mut State::empty(5), 0, &mut found);
        assert_eq!(found, Vec::<String>::new());
    }

    #[test]
    fn the_no_placements_draw_guards_impossible_boards() {
        // Only boards with a checkerboard leave both stuck with no path; the draw
        // stops the engine there instead of passing forever.
        let s = raw("VHH/VHH/VHH V");
        assert!(s.placements(V).is_empty() && s.placements(H).is_empty());
        assert!(s.path(V).is_some() && GAME.parse_state("VHH/VHH/VHH V").is_err());
        assert_eq!(
            GAME.outcome(&s),
            Outcome::Draw { reason: "no-placements".to_string() }
        );
        assert!(GAME.legal_moves(&s).is_empty());
    }

    /// Splitmix64: a fixed-seed generator for reproducible statistics.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((z ^ (z >> 31)) % n as u64) as usize
        }
    }

    /// What one random game did.
    #[derive(Default)]
    struct Tally {
        passes: u32,
        passers: Vec<Player>,
        moves: u32,
        winner: Option<Player>,
    }

    fn random_game(size: u8, mut pick: impl FnMut(usize) -> usize) -> Tally {
        let mut s = state(&empty_position(size));
        let mut tally = Tally::default();
        loop {
            let moves = GAME.legal_moves(&s);
            if moves.is_empty() {
                break;
            }
            let chosen = moves[pick(moves.len())];
            if chosen == Move::Pass {
                tally.passes += 1;
                tally.passers.push(s.to_move());
            }
            s = GAME.play(&s, &chosen).unwrap();
            tally.moves += 1;
        }
        if let Outcome::Win { winner, .. } = GAME.outcome(&s) {
            tally.winner = Some(if winner == "V" { V } else { H });
        }
        tally
    }

    /// Run with `cargo test --release -- --ignored --nocapture random_game_statistics`.
    /// Seed 42, 2000 uniformly random games per size: games with a forced pass were
    /// 5×5: 0, 6×6: 1 (2 passes), 7×7: 0, 8×8: 0, 9×9: 1 (1), 10×10: 0,
    /// 11×11: 1 (2), so 3 in 14000; never a draw; only the loser ever passed. About
    /// 20 s in release.
    #[test]
    #[ignore]
    fn random_game_statistics() {
        let mut rng = Rng(42);
        for size in 5..=11 {
            let (mut games_with_pass, mut passes, mut most, mut moves) = (0, 0, 0, 0);
            let mut wins = [0; 2];
            for _ in 0..2000 {
                let tally = random_game(size, |n| rng.below(n));
                let winner = tally.winner.expect("every game has a winner");
                wins[winner as usize] += 1;
                moves += tally.moves;
                if tally.passes > 0 {
                    games_with_pass += 1;
                    assert!(tally.passers.iter().all(|&p| p == winner.other()));
                }
                passes += tally.passes;
                most = most.max(tally.passes);
            }
            println!(
                "{size}×{size}: 2000 games, V {} H {}, {games_with_pass} with a pass, \
                 {passes} passes (at most {most} in a game), {:.1} moves a game",
                wins[0],
                wins[1],
                f64::from(moves) / 2000.0
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]

        #[test]
        fn random_games_keep_the_rules(
            size in 5u8..=11,
            picks in prop::collection::vec(any::<u16>(), 1..32),
        ) {
            let mut s = state(&empty_position(size));
            let mut last_placer = None;
            for turn in 0.. {
                let moves = GAME.legal_moves(&s);
                prop_assert_eq!(moves.is_empty(), GAME.outcome(&s).is_over(), "{:?}", s);
                if moves.is_empty() {
                    break;
                }
                let chosen = moves[usize::from(picks[turn % picks.len()]) % moves.len()];
                let mover = s.to_move();
                let stuck = s.placements(mover).is_empty();
                prop_assert_eq!(chosen == Move::Pass, stuck, "{:?}", s);
                prop_assert!(!stuck || s.first_placement(mover.other()).is_some());
                let next = GAME.play(&s, &chosen).unwrap();
                let stones = |t: &State| t.cells.iter().flatten().count();
                let grown = stones(&next) - stones(&s);
                if let Move::Place(p) = chosen {
                    prop_assert_eq!((grown, next.stone(p)), (1, Some(mover)));
                    last_placer = Some(mover);
                } else {
                    prop_assert_eq!(grown, 0);
                }
                prop_assert!(!has_checkerboard(&next), "{:?}", next);
                let text = GAME.format_state(&next);
                prop_assert_eq!(GAME.parse_state(&text), Ok(next.clone()));
                s = next;
            }
            let winner = match GAME.outcome(&s) {
                Outcome::Win { winner, .. } => winner,
                other => return Err(TestCaseError::fail(format!("{other} at {s:?}"))),
            };
            prop_assert_eq!(Some(winner), last_placer.map(|p| p.to_string()));
        }
    }
}
