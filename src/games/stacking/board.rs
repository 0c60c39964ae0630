//! Pieces, squares, moves and the position with its counts.

use super::*;

/// One of the two players. White moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player, `1` in TPS.
    White,
    /// The second player, `2` in TPS.
    Black,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The opponent.
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The TPS digit: `1` for White, `2` for Black.
    pub fn digit(self) -> char {
        match self {
            Color::White => '1',
            Color::Black => '2',
        }
    }

    /// The full name, for messages: `White` or `Black`.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }

    pub(super) fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }

    pub(super) fn from_digit(digit: char) -> Option<Color> {
        Color::ALL.into_iter().find(|c| c.digit() == digit)
    }

    pub(super) fn from_letter(letter: char) -> Option<Color> {
        Color::ALL.into_iter().find(|c| c.letter() == letter.to_ascii_uppercase())
    }

    pub(super) fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// What a piece is. Only the top piece of a stack can be a wall or a Crown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A flat stone: counts for roads and for the count, can be covered.
    Flat,
    /// A standing stone (Tak's wall): blocks carries, is no part of a road.
    Wall,
    /// Tak's capstone: part of roads, never covered, flattens a wall alone.
    Crown,
}

impl Kind {
    /// The TPS and PTN mark: none for a flat, `S` for a wall, `C` for a Crown.
    pub(super) fn mark(self) -> &'static str {
        match self {
            Kind::Flat => "",
            Kind::Wall => "S",
            Kind::Crown => "C",
        }
    }

    pub(super) fn name(self) -> &'static str {
        match self {
            Kind::Flat => "flat",
            Kind::Wall => "wall",
            Kind::Crown => "Crown",
        }
    }
}

/// One stone or Crown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its owner.
    pub color: Color,
    /// Flat, wall or Crown.
    pub kind: Kind,
}

/// A game's parameters: the kit's sheets print these, and the rules read only these.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// The game id, e.g. `stack-top-roads` or `pathstone-5`.
    pub id: String,
    /// Squares along one side of the board.
    pub size: u8,
    /// Stones (flats or walls) each player starts with.
    pub stones: u32,
    /// Crowns each player starts with.
    pub crowns: u32,
    /// The most pieces one carry may lift.
    pub carry_limit: u8,
    /// Whether stones may be placed standing, as walls.
    pub walls: bool,
    /// Whether each player's first turn places a flat of the opponent's colour.
    pub opening_swap: bool,
    /// Turns (both players' counted) after which the game is drawn, if any.
    pub turn_limit: Option<u32>,
}

impl Variant {
    /// Stack-top roads: 3×3, 8 flats each, carry limit 3, drawn after 40 turns.
    pub fn stack_top_roads() -> Variant {
        Variant {
            id: STACK_TOP_ROADS_ID.to_string(),
            size: 3,
            stones: 8,
            crowns: 0,
            carry_limit: 3,
            walls: false,
            opening_swap: false,
            turn_limit: Some(40),
        }
    }

    /// Stack-top roads on a `size`×`size` board (3 to 8): the same rules, the carry
    /// limit never more than the board is wide.
    pub fn stack_top_roads_sized(size: u8) -> Variant {
        let base = Variant::stack_top_roads();
        Variant { size, carry_limit: base.carry_limit.min(size), ..base }
    }

    /// This variant with the numbers a kit sets in `[rules]`.
    pub fn with_params(self, params: &crate::kit::RuleParams) -> Variant {
        let carry_limit = params
            .carry_limit
            .and_then(|c| u8::try_from(c).ok())
            .unwrap_or(self.carry_limit);
        Variant {
            stones: params.stones.unwrap_or(self.stones),
            crowns: params.crowns.unwrap_or(self.crowns),
            carry_limit,
            turn_limit: params.turn_limit.or(self.turn_limit),
            ..self
        }
    }

    /// Pathstone (Tak) on a `size`×`size` board, or `None` outside [`PATHSTONE_SIZES`].
    pub fn pathstone(size: u8) -> Option<Variant> {
        let &(_, stones, crowns) = PATHSTONE_RESERVES.iter().find(|row| row.0 == size)?;
        Some(Variant {
            id: format!("{PATHSTONE_PREFIX}{size}"),
            size,
            stones,
            crowns,
            carry_limit: size,
            walls: true,
            opening_swap: true,
            turn_limit: None,
        })
    }

    #[cfg(test)]
    /// The variant with this game id, if there is one.
    pub fn from_id(id: &str) -> Option<Variant> {
        Variant::all().into_iter().find(|variant| variant.id == id)
    }

    #[cfg(test)]
    /// Every variant: Stack-top roads, then Pathstone by size.
    pub fn all() -> Vec<Variant> {
        let pathstones = PATHSTONE_SIZES.filter_map(Variant::pathstone);
        std::iter::once(Variant::stack_top_roads()).chain(pathstones).collect()
    }

    /// Refuses parameters the engine cannot play (it has public fields).
    pub(super) fn check(&self) -> Result<(), RulesError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&self.size) {
            return Err(crate::rules_err!(
                "{} has a board of size {}, expected {MIN_SIZE} to {MAX_SIZE}",
                self.id,
                self.size
            ));
        }
        if self.carry_limit == 0 {
            return Err(crate::rules_err!(
                "{} has a carry limit of 0, expected 1 or more",
                self.id
            ));
        }
        Ok(())
    }
}

/// A square: 0-based column (a = 0) and row (rank 1 = 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// 0-based column: file a = 0.
    pub col: u8,
    /// 0-based row: rank 1 = 0.
    pub row: u8,
}

impl Square {
    /// Parses `a1` (or `A1`) on a board of side `size`.
    pub fn parse(text: &str, size: u8) -> Result<Square, RulesError> {
        parse_square(text).filter(|sq| sq.col < size && sq.row < size).ok_or_else(|| {
            let last =
                Square { col: size.saturating_sub(1), row: size.saturating_sub(1) };
            crate::rules_err!("unknown square `{text}`, expected a1 to {last}")
        })
    }

    pub(super) fn file(self) -> char {
        char::from(b'a'.saturating_add(self.col))
    }

    pub(super) fn rank(self) -> u16 {
        u16::from(self.row) + 1
    }
}

pub(super) fn parse_square(text: &str) -> Option<Square> {
    let mut chars = text.chars();
    let letter = chars.next()?.to_ascii_lowercase();
    let digits = chars.as_str();
    if !letter.is_ascii_lowercase() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let rank: u8 = digits.parse().ok()?;
    Some(Square { col: u8::try_from(letter).ok()? - b'a', row: rank.checked_sub(1)? })
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), self.rank())
    }
}

/// A square's name in capitals, `A1`, for sheets.
pub fn square_name_upper(sq: Square) -> String {
    sq.to_string().to_ascii_uppercase()
}

/// A carry's direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Towards the higher ranks, `+`.
    Up,
    /// Towards rank 1, `-`.
    Down,
    /// Towards file a, `<`.
    Left,
    /// Away from file a, `>`.
    Right,
}

impl Dir {
    /// Every direction.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// The PTN symbol: `+`, `-`, `<` or `>`.
    pub fn symbol(self) -> char {
        match self {
            Dir::Up => '+',
            Dir::Down => '-',
            Dir::Left => '<',
            Dir::Right => '>',
        }
    }

    pub(super) fn from_symbol(symbol: char) -> Option<Dir> {
        Dir::ALL.into_iter().find(|dir| dir.symbol() == symbol)
    }

    pub(super) fn name(self) -> &'static str {
        match self {
            Dir::Up => "up",
            Dir::Down => "down",
            Dir::Left => "left",
            Dir::Right => "right",
        }
    }
}

/// A move: place a piece, or carry part of a stack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Move {
    /// Place a piece from the reserve on an empty square.
    Place {
        /// Where.
        square: Square,
        /// Flat, wall or Crown.
        kind: Kind,
    },
    /// Lift `drops.iter().sum()` pieces from `from` and drop `drops[i]` of them on the
    /// `i + 1`-th square in direction `dir`, bottom of the lifted group first.
    Carry {
        /// The stack carried from.
        from: Square,
        /// The direction of travel.
        dir: Dir,
        /// How many pieces are dropped on each successive square.
        drops: Vec<u8>,
        /// The stones as the player says they drop them (first dropped first), if given
        /// with `:WB`; `play` refuses a list that is not the lifted group bottom to top.
        order: Option<Vec<Color>>,
    },
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place { square, kind } => write!(f, "{}{square}", kind.mark()),
            Move::Carry { from, dir, drops, order } => {
                let count: u32 = drops.iter().map(|&d| u32::from(d)).sum();
                if count != 1 {
                    write!(f, "{count}")?;
                }
                write!(f, "{from}{}", dir.symbol())?;
                if drops.len() != 1 {
                    drops.iter().try_for_each(|drop| write!(f, "{drop}"))?;
                }
                if let Some(order) = order {
                    f.write_str(":")?;
                    order.iter().try_for_each(|color| write!(f, "{color}"))?;
                }
                Ok(())
            }
        }
    }
}

/// What a player has left to place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Reserve {
    pub(super) stones: u32,
    pub(super) crowns: u32,
}

impl Reserve {
    pub(super) fn is_empty(self) -> bool {
        self.stones == 0 && self.crowns == 0
    }
}

/// A carry already checked against the board: the engine's own move form, which needs no
/// allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Spread {
    pub(super) from: usize,
    pub(super) dir: Dir,
    pub(super) drops: [u8; MAX_DROPS],
    pub(super) squares: usize,
}

impl Spread {
    pub(super) fn new(from: usize, dir: Dir, drops: &[u8]) -> Spread {
        let mut slots = [0; MAX_DROPS];
        slots[..drops.len()].copy_from_slice(drops);
        Spread { from, dir, drops: slots, squares: drops.len() }
    }

    pub(super) fn drops(&self) -> &[u8] {
        &self.drops[..self.squares]
    }

    pub(super) fn lifted(&self) -> usize {
        self.drops().iter().map(|&d| usize::from(d)).sum()
    }
}

/// A legal move in the engine's own form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Action {
    Place { at: usize, piece: Piece },
    Spread(Spread),
}

/// What `State::undo` needs to take an action back.
pub(super) struct Undo {
    pub(super) action: Action,
    pub(super) flattened: bool,
    pub(super) to_move: Color,
    pub(super) move_number: u32,
    pub(super) turns: u32,
    pub(super) reserves: [Reserve; 2],
}

/// A position with the counts the end conditions need.
#[derive(Clone, PartialEq, Eq)]
pub struct State {
    pub(super) size: u8,
    /// Square `row * size + col`, each bottom to top.
    pub(super) stacks: Vec<Vec<Piece>>,
    pub(super) to_move: Color,
    pub(super) move_number: u32,
    pub(super) reserves: [Reserve; 2],
    pub(super) turns: u32,
}

impl State {
    /// Squares along one side.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The pieces on `sq`, bottom to top (empty off the board).
    pub fn stack(&self, sq: Square) -> &[Piece] {
        self.index_of(sq).map_or(&[], |at| &self.stacks[at])
    }

    /// The player to move.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    #[cfg(test)]
    /// The TPS move number: a full move is both players' turns; it starts at 1.
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// Stones and Crowns `color` has left to place.
    pub fn reserves(&self, color: Color) -> (u32, u32) {
        let reserve = self.reserves[color.index()];
        (reserve.stones, reserve.crowns)
    }

    /// Turns played since the game's start, both players' counted.
    pub fn turns_played(&self) -> u32 {
        self.turns
    }

    /// The height of the tallest stack.
    pub fn tallest(&self) -> usize {
        self.stacks.iter().map(Vec::len).max().unwrap_or(0)
    }

    pub(super) fn side(&self) -> usize {
        usize::from(self.size)
    }

    pub(super) fn index_of(&self, sq: Square) -> Result<usize, RulesError> {
        if sq.col < self.size && sq.row < self.size {
            return Ok(usize::from(sq.row) * self.side() + usize::from(sq.col));
        }
        let last = Square { col: self.size - 1, row: self.size - 1 };
        Err(crate::rules_err!("unknown square `{sq}`, expected a1 to {last}"))
    }

    pub(super) fn square_at(&self, at: usize) -> Square {
        let side = self.side();
        let coord = |n: usize| u8::try_from(n).expect("boards are at most 8 wide");
        Square { col: coord(at % side), row: coord(at / side) }
    }

    /// Squares between `at` and the edge in direction `dir`.
    pub(super) fn room(&self, at: usize, dir: Dir) -> usize {
        let side = self.side();
        let (col, row) = (at % side, at / side);
        match dir {
            Dir::Up => side - 1 - row,
            Dir::Down => row,
            Dir::Left => col,
            Dir::Right => side - 1 - col,
        }
    }

    /// The neighbour of `at` in direction `dir`; the caller knows it is on the board.
    pub(super) fn step(&self, at: usize, dir: Dir) -> usize {
        match dir {
            Dir::Up => at + self.side(),
            Dir::Down => at - self.side(),
            Dir::Left => at - 1,
            Dir::Right => at + 1,
        }
    }

    pub(super) fn top(&self, at: usize) -> Option<Piece> {
        self.stacks[at].last().copied()
    }

    pub(super) fn in_opening(&self, variant: &Variant) -> bool {
        variant.opening_swap && self.move_number == 1
    }
}
