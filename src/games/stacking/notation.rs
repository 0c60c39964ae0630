//! Tak notation: PTN moves and TPS positions, read and written.

use super::*;

/// Trailing PTN marks: the flattening star, read by [`check_star`], and annotations,
/// which carry no rule meaning.
pub(super) const IGNORED_MARKS: &[char] = &['*', '\'', '"', '!', '?'];

/// PTN's mark for a carry that flattens a wall.
pub(super) const STAR: char = '*';

/// A PTN move, and whether it ends with the flattening star `*`. A placement with `*`
/// is refused here (it never flattens anything); a carry's star needs the position,
/// and [`check_star`] checks it.
pub(super) fn parse_move(text: &str, size: u8) -> Result<(Move, bool), RulesError> {
    let whole = text.trim();
    let trimmed = whole.trim_end_matches(IGNORED_MARKS);
    let mut star = whole[trimmed.len()..].contains(STAR);
    if trimmed.is_empty() {
        return Err(crate::rules_err!(
            "empty move, expected a placement like `a1`, `Sa1` or `Ca1`, or a carry like \
             `2a1>11`"
        ));
    }
    let (body, order) = match trimmed.split_once(':') {
        Some((marked, order)) => {
            let body = marked.trim_end_matches(IGNORED_MARKS);
            star |= marked[body.len()..].contains(STAR);
            (body, Some(order))
        }
        None => (trimmed, None),
    };
    match body.find(|c| Dir::from_symbol(c).is_some()) {
        Some(at) => Ok((parse_carry(text, body, at, order, size)?, star)),
        None if order.is_some() => Err(crate::rules_err!(
            "`{text}`: a stone list after `:` only goes with a carry like `2a1>11:BW`"
        )),
        None => {
            let placement = parse_placement(body, size)?;
            if star {
                return Err(crate::rules_err!(
                    "`{whole}`: `*` marks a carry that flattens a wall, and a placement \
                     flattens nothing"
                ));
            }
            Ok((placement, false))
        }
    }
}

/// Refuses a carry written with `*` that flattens no wall. A move the rules refuse
/// anyway (or any move once the game is over) is left for `play` to explain.
pub(super) fn check_star(
    variant: &Variant,
    state: &State,
    text: &str,
    mv: &Move,
) -> Result<(), RulesError> {
    if state.end(variant).is_some() {
        return Ok(());
    }
    let Ok(Action::Spread(spread)) = state.check(variant, mv) else {
        return Ok(());
    };
    let last =
        spread.drops().iter().fold(spread.from, |at, _| state.step(at, spread.dir));
    if state.top(last).is_some_and(|piece| piece.kind == Kind::Wall) {
        return Ok(());
    }
    Err(crate::rules_err!(
        "`*` marks a carry that flattens a wall, but `{}` ends on {}, which has no wall \
         on top",
        text.trim(),
        state.square_at(last)
    )
    .refused())
}

pub(super) fn parse_placement(body: &str, size: u8) -> Result<Move, RulesError> {
    let kinds = [('F', Kind::Flat), ('S', Kind::Wall), ('C', Kind::Crown)];
    let mut chars = body.chars();
    let first = chars.next();
    let rest = chars.as_str();
    // `C3` is the square c3; `Cc3` a Crown on it.
    if let Some(&(_, kind)) = kinds.iter().find(|(mark, _)| Some(*mark) == first)
        && rest.len() >= 2
    {
        return Ok(Move::Place { square: Square::parse(rest, size)?, kind });
    }
    Ok(Move::Place { square: Square::parse(body, size)?, kind: Kind::Flat })
}

pub(super) fn parse_carry(
    text: &str,
    body: &str,
    at: usize,
    order: Option<&str>,
    size: u8,
) -> Result<Move, RulesError> {
    let (head, tail) = body.split_at(at);
    let mut tail = tail.chars();
    let dir = tail.next().and_then(Dir::from_symbol).expect("`at` is a direction");
    let digits = head.len() - head.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let (count_text, square_text) = head.split_at(digits);
    let from = Square::parse(square_text, size)?;
    let count = parse_count(text, count_text)?;
    let drops = parse_drops(text, tail.as_str(), count)?;
    let order = order.map(|list| parse_order(text, list, count)).transpose()?;
    Ok(Move::Carry { from, dir, drops, order })
}

/// The lifted count; PTN leaves it out when it is 1.
pub(super) fn parse_count(text: &str, digits: &str) -> Result<u32, RulesError> {
    if digits.is_empty() {
        return Ok(1);
    }
    match digits.parse::<u32>() {
        Ok(count) if count >= 1 => Ok(count),
        _ => Err(crate::rules_err!(
            "`{text}`: a carry lifts 1 or more pieces, found a count of `{digits}`"
        )),
    }
}

/// The drops, one digit per square; PTN leaves them out when all drop on one square.
pub(super) fn parse_drops(
    text: &str,
    digits: &str,
    count: u32,
) -> Result<Vec<u8>, RulesError> {
    if digits.is_empty() {
        let all = u8::try_from(count)
            .map_err(|_| crate::rules_err!("`{text}`: cannot lift {count} pieces"))?;
        return Ok(vec![all]);
    }
    let drops = digits
        .chars()
        .map(|c| match c.to_digit(10) {
            Some(drop @ 1..=9) => Ok(u8::try_from(drop).expect("a digit")),
            _ => Err(crate::rules_err!(
                "`{text}`: unknown drop `{c}`, expected one digit 1 to 9 per square"
            )),
        })
        .collect::<Result<Vec<u8>, RulesError>>()?;
    let sum: u32 = drops.iter().map(|&d| u32::from(d)).sum();
    if sum != count {
        return Err(crate::rules_err!(
            "`{text}`: the drops `{digits}` add up to {sum}, but the carry lifts {count}"
        ));
    }
    Ok(drops)
}

pub(super) fn parse_order(
    text: &str,
    list: &str,
    count: u32,
) -> Result<Vec<Color>, RulesError> {
    let order = list
        .trim_end_matches(IGNORED_MARKS)
        .chars()
        .map(|c| {
            Color::from_letter(c).ok_or_else(|| {
                crate::rules_err!(
                    "`{text}`: unknown stone `{c}` in the stone list, expected W or B"
                )
            })
        })
        .collect::<Result<Vec<Color>, RulesError>>()?;
    if order.len() != count as usize {
        return Err(crate::rules_err!(
            "`{text}`: the stone list names {} stones, but the carry lifts {count}",
            order.len()
        ));
    }
    Ok(order)
}

// TPS: reading and writing positions.

/// One comma-separated cell of a TPS row.
pub(super) enum Cell<'a> {
    Empty(usize),
    Stack(&'a str),
}

impl Cell<'_> {
    pub(super) fn width(&self) -> usize {
        match self {
            Cell::Empty(run) => *run,
            Cell::Stack(_) => 1,
        }
    }
}

pub(super) fn parse_tps(variant: &Variant, text: &str) -> Result<State, RulesError> {
    let parts: Vec<&str> = text.split_whitespace().collect();
    let &[board, player, number] = parts.as_slice() else {
        return Err(crate::rules_err!(
            "expected a board, the player to move and the move number separated by \
             spaces, like `x3/x3/x3 1 1`, found `{}`",
            text.trim()
        ));
    };
    let to_move = match player {
        "1" => Color::White,
        "2" => Color::Black,
        _ => return Err(crate::rules_err!("player must be 1 or 2, found `{player}`")),
    };
    let move_number = parse_move_number(number)?;
    let black = u32::from(to_move == Color::Black);
    let turns = (move_number - 1)
        .checked_mul(2)
        .and_then(|turns| turns.checked_add(black))
        .ok_or_else(|| crate::rules_err!("move number `{number}` is too large"))?;
    let stacks = parse_board(variant, board)?;
    let mut state = State {
        size: variant.size,
        stacks,
        to_move,
        move_number,
        reserves: [Reserve { stones: 0, crowns: 0 }; 2],
        turns,
    };
    state.reserves = Color::ALL.map(|color| reserve_left(variant, &state, color));
    for color in Color::ALL {
        check_reserve_count(variant, &state, color).map_err(RulesError::refused)?;
    }
    Ok(state)
}

pub(super) fn parse_move_number(number: &str) -> Result<u32, RulesError> {
    // Digits only: `parse` alone would take `+3`.
    let digits = !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit());
    let parsed = if digits { number.parse::<u32>().ok() } else { None };
    parsed.filter(|&n| n >= 1).ok_or_else(|| {
        crate::rules_err!("move number must be a whole number from 1, found `{number}`")
    })
}

pub(super) fn parse_board(
    variant: &Variant,
    board: &str,
) -> Result<Vec<Vec<Piece>>, RulesError> {
    let size = variant.size;
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != usize::from(size) {
        return Err(crate::rules_err!(
            "the board has {} rows, expected {size} separated by `/`",
            rows.len()
        ));
    }
    let side = usize::from(size);
    let mut stacks = vec![Vec::new(); side * side];
    for (row_text, row) in rows.into_iter().zip((0..size).rev()) {
        let cells = parse_row(row_text, row, size)?;
        let mut col = 0;
        for cell in cells {
            if let Cell::Stack(token) = cell {
                let sq = Square { col, row };
                stacks[usize::from(row) * side + usize::from(col)] =
                    parse_stack(variant, token, sq)?;
            }
            col += u8::try_from(cell.width()).expect("the row width was checked");
        }
    }
    Ok(stacks)
}

pub(super) fn parse_row(
    text: &str,
    row: u8,
    size: u8,
) -> Result<Vec<Cell<'_>>, RulesError> {
    let rank = row + 1;
    if text.is_empty() {
        return Err(crate::rules_err!(
            "row {rank} is empty: write `x{size}` for a row of {size} empty squares"
        ));
    }
    let cells = text
        .split(',')
        .map(|token| match token.strip_prefix('x') {
            Some("") => Ok(Cell::Empty(1)),
            // Digits only: `parse` alone would take `x+2`.
            Some(run) => match run.parse::<usize>() {
                Ok(count) if count >= 1 && run.bytes().all(|b| b.is_ascii_digit()) => {
                    Ok(Cell::Empty(count))
                }
                _ => Err(crate::rules_err!(
                    "unknown cell `{token}` in row {rank}, expected `x`, `x2`, … for \
                     empty squares"
                )),
            },
            None => Ok(Cell::Stack(token)),
        })
        .collect::<Result<Vec<Cell>, RulesError>>()?;
    let squares: usize = cells.iter().map(Cell::width).sum();
    if squares != usize::from(size) {
        let noun = if squares == 1 { "square" } else { "squares" };
        return Err(crate::rules_err!(
            "row {rank} has {squares} {noun}, expected {size}"
        ));
    }
    Ok(cells)
}

pub(super) fn parse_stack(
    variant: &Variant,
    token: &str,
    sq: Square,
) -> Result<Vec<Piece>, RulesError> {
    let (digits, kind) = match token.strip_suffix(['S', 'C']) {
        Some(digits) if token.ends_with('S') => (digits, Kind::Wall),
        Some(digits) => (digits, Kind::Crown),
        None => (token, Kind::Flat),
    };
    let colors: Option<Vec<Color>> = digits.chars().map(Color::from_digit).collect();
    let colors = colors.filter(|colors| !colors.is_empty()).ok_or_else(|| {
        crate::rules_err!(
            "unknown stack `{token}` at {sq}, expected digits 1 (White) and 2 (Black) \
             bottom to top, then an optional S or C"
        )
    })?;
    if kind == Kind::Wall && !variant.walls {
        return Err(crate::rules_err!(
            "walls are not used in {}, found `{token}` at {sq}",
            variant.id
        )
        .refused());
    }
    if kind == Kind::Crown && variant.crowns == 0 {
        return Err(crate::rules_err!(
            "Crowns are not used in {}, found `{token}` at {sq}",
            variant.id
        )
        .refused());
    }
    let top = colors.len() - 1;
    let piece =
        |(i, color)| Piece { color, kind: if i == top { kind } else { Kind::Flat } };
    Ok(colors.into_iter().enumerate().map(piece).collect())
}

/// Pieces of `color` on the board: (stones, Crowns).
pub(super) fn on_board(state: &State, color: Color) -> (u32, u32) {
    let pieces = state.stacks.iter().flatten().filter(|piece| piece.color == color);
    pieces.fold((0, 0), |(stones, crowns), piece| match piece.kind {
        Kind::Crown => (stones, crowns + 1),
        Kind::Flat | Kind::Wall => (stones + 1, crowns),
    })
}

pub(super) fn reserve_left(variant: &Variant, state: &State, color: Color) -> Reserve {
    let (stones, crowns) = on_board(state, color);
    Reserve {
        stones: variant.stones.saturating_sub(stones),
        crowns: variant.crowns.saturating_sub(crowns),
    }
}

pub(super) fn check_reserve_count(
    variant: &Variant,
    state: &State,
    color: Color,
) -> Result<(), RulesError> {
    let (stones, crowns) = on_board(state, color);
    let counts = [(stones, variant.stones, "stone"), (crowns, variant.crowns, "Crown")];
    for (count, reserve, what) in counts {
        if count > reserve {
            let plural = if count == 1 { "" } else { "s" };
            return Err(crate::rules_err!(
                "{} has {count} {what}{plural} on the board, more than the reserve of \
                 {reserve}",
                color.name()
            ));
        }
    }
    Ok(())
}

/// A stack as TPS writes it: `12S`.
pub(super) fn stack_text(stack: &[Piece]) -> String {
    let digits: String = stack.iter().map(|piece| piece.color.digit()).collect();
    let mark = stack.last().map_or("", |top| top.kind.mark());
    format!("{digits}{mark}")
}

pub(super) fn format_tps(state: &State) -> String {
    let rows: Vec<String> =
        (0..state.size).rev().map(|row| format_row(state, row)).collect();
    format!("{} {} {}", rows.join("/"), state.to_move.digit(), state.move_number)
}

pub(super) fn format_row(state: &State, row: u8) -> String {
    let mut cells = Vec::new();
    let mut empties = 0;
    for col in 0..state.size {
        let stack = state.stack(Square { col, row });
        if stack.is_empty() {
            empties += 1;
            continue;
        }
        push_empties(&mut cells, &mut empties);
        cells.push(stack_text(stack));
    }
    push_empties(&mut cells, &mut empties);
    cells.join(",")
}

pub(super) fn push_empties(cells: &mut Vec<String>, empties: &mut usize) {
    match *empties {
        0 => {}
        1 => cells.push("x".to_string()),
        run => cells.push(format!("x{run}")),
    }
    *empties = 0;
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let texts: Vec<String> = self
            .stacks
            .iter()
            .map(
                |stack| {
                    if stack.is_empty() { ".".to_string() } else { stack_text(stack) }
                },
            )
            .collect();
        let width = texts.iter().map(String::len).max().unwrap_or(1);
        for row in (0..self.side()).rev() {
            write!(f, "{:>2} ", row + 1)?;
            for text in &texts[row * self.side()..(row + 1) * self.side()] {
                write!(f, " {text:<width$}")?;
            }
            writeln!(f)?;
        }
        write!(f, "   ")?;
        for col in 0..self.size {
            write!(f, " {:<width$}", Square { col, row: 0 }.file())?;
        }
        writeln!(f)?;
        write!(
            f,
            "{} to move, move {} ({} turns played); left to place: ",
            self.to_move, self.move_number, self.turns
        )?;
        let [white, black] = self.reserves;
        write!(f, "W {} stones {} Crowns, ", white.stones, white.crowns)?;
        write!(f, "B {} stones {} Crowns", black.stones, black.crowns)
    }
}
