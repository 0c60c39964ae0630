//! Drawings for the stacking games (Stack-top roads, Pathstone): a board of cells
//! with road edges, paper stones, the stack ledger and stack diagrams. Geometry comes
//! from the kit, counts from the rules' variant, positions from the rules module.

use super::draw::{self, Side};
use super::flow::{Chunk, Table};
use super::{BODY_PT, FigureContext, lines};
use crate::page::{Color, Item, Page, Paint, Point, Stroke};
use crate::rules::Game;
use crate::rules::stacks::{self, Kind, Piece, Square, StackGame, State, Variant};
use crate::text::{self, Style};

/// The figures these games draw, for error messages.
pub const FIGURES: &[&str] = &["board", "stones", "ledger", "end-box", "diagrams"];

/// Draws figure `name` for `variant`.
pub fn figure(
    variant: &Variant,
    name: &str,
    args: &[String],
    cx: &FigureContext,
) -> Result<Vec<Chunk>, String> {
    match name {
        "board" => board(variant, cx),
        "stones" => stones(variant, cx),
        "ledger" => ledger(variant, cx),
        "end-box" => end_box(cx),
        "diagrams" => diagrams(variant, args, cx),
        _ => Err(format!(
            "unknown figure `@{name}`, expected one of: {}",
            FIGURES.join(", ")
        )),
    }
}

fn side(color: stacks::Color) -> Side {
    match color {
        stacks::Color::White => Side::Light,
        stacks::Color::Black => Side::Dark,
    }
}

fn column_letter(col: u8) -> String {
    ((b'A' + col) as char).to_string()
}

/// The top-left corner of a cell, with rank 1 at the bottom.
fn cell_origin(origin: Point, cell: f64, size: u8, sq: Square) -> Point {
    Point::new(
        origin.x + sq.col as f64 * cell,
        origin.y + (size - 1 - sq.row) as f64 * cell,
    )
}

fn board(variant: &Variant, cx: &FigureContext) -> Result<Vec<Chunk>, String> {
    let cell = cx.kit.board.spacing_mm;
    let n = variant.size;
    let label_band = 9.0;
    let span = n as f64 * cell;
    let total = span + 2.0 * label_band;
    if total > cx.width {
        return Err(format!(
            "the board is {total:.0} mm wide with its labels, the page has {:.0} mm",
            cx.width
        ));
    }
    let mut page = Page::new(0.0, 0.0);
    let origin = Point::new((cx.width - span) / 2.0, label_band);
    cells(&mut page, origin, cell, n, 0.4);
    // The four edges: heavy, because a road is a chain of cells joining two of them.
    page.rect(origin, span, span, Paint::outline(Stroke::solid(2.2)));
    let label_pt = 12.0;
    for col in 0..n {
        let x = origin.x + (col as f64 + 0.5) * cell;
        let letter = column_letter(col);
        page.text_centered(
            x,
            label_band - 2.5,
            text::shape(&letter, Style::Bold, label_pt),
        );
        page.text_centered(
            x,
            label_band + span + 6.5,
            text::shape(&letter, Style::Bold, label_pt),
        );
    }
    for row in 0..n {
        let y = origin.y + (n - 1 - row) as f64 * cell + cell / 2.0 + 1.6;
        let digit = (row + 1).to_string();
        page.text_centered(
            origin.x - label_band / 2.0,
            y,
            text::shape(&digit, Style::Bold, label_pt),
        );
        page.text_centered(
            origin.x + span + label_band / 2.0,
            y,
            text::shape(&digit, Style::Bold, label_pt),
        );
    }
    let mut chunks = vec![Chunk::new(total + 2.0, page.items)];
    let mut legend =
        lines(&cx.text("board.legend_edges")?, Style::Regular, BODY_PT, cx.width, 20.0);
    if let Some(first) = legend.first_mut() {
        let mut sample = Page::new(0.0, 0.0);
        sample.line(Point::new(0.0, 2.2), Point::new(16.0, 2.2), Stroke::solid(2.2));
        first.items.extend(sample.items);
    }
    chunks.extend(legend);
    Ok(chunks)
}

/// The grid lines of an `n`×`n` board of `cell`-sized cells.
fn cells(page: &mut Page, origin: Point, cell: f64, n: u8, width: f64) {
    let span = n as f64 * cell;
    for i in 0..=n {
        let o = i as f64 * cell;
        let stroke = Stroke::solid(width);
        page.line(
            Point::new(origin.x + o, origin.y),
            Point::new(origin.x + o, origin.y + span),
            stroke,
        );
        page.line(
            Point::new(origin.x, origin.y + o),
            Point::new(origin.x + span, origin.y + o),
            stroke,
        );
    }
}

/// Each player's stones (and Crowns, if the game has them), with cut lines.
fn stones(variant: &Variant, cx: &FigureContext) -> Result<Vec<Chunk>, String> {
    let size = cx.kit.pieces.size_mm;
    let tile = size + 6.0;
    let per_row = ((cx.width / tile).floor() as usize).max(1);
    let count = (variant.stones + cx.kit.pieces.spares) as usize;
    let mut chunks = Vec::new();
    for color in [stacks::Color::White, stacks::Color::Black] {
        let key = format!("stones.caption_{}", color.to_string().to_lowercase());
        chunks.extend(
            lines(&cx.text(&key)?, Style::Bold, BODY_PT, cx.width, 0.0)
                .into_iter()
                .map(Chunk::keep),
        );
        chunks.push(Chunk::space(2.0).keep());
        for row_start in (0..count).step_by(per_row) {
            let mut page = Page::new(0.0, 0.0);
            for i in 0..per_row.min(count - row_start) {
                let x = i as f64 * tile;
                page.rect(
                    Point::new(x, 0.0),
                    tile,
                    tile,
                    Paint::outline(draw::cut_stroke()),
                );
                stone(&mut page, Point::new(x + 3.0, 3.0), size, color);
            }
            chunks.push(Chunk::new(tile, page.items));
        }
        chunks.push(Chunk::space(8.0));
    }
    Ok(chunks)
}

/// A flat stone, `size` mm square, top-left at `at`: White is a white square with a
/// ring, Black a dark square with cut corners; each carries its letter.
fn stone(page: &mut Page, at: Point, size: f64, color: stacks::Color) {
    let outline = Stroke::solid(0.6);
    let center = Point::new(at.x + size / 2.0, at.y + size / 2.0);
    match side(color) {
        Side::Light => {
            page.rect(at, size, size, Paint::both(Color::WHITE, outline));
            page.circle(center, size * 0.4, Paint::outline(Stroke::solid(0.35)));
        }
        Side::Dark => {
            let c = size * 0.2;
            let (x0, y0, x1, y1) = (at.x, at.y, at.x + size, at.y + size);
            let corners = vec![
                Point::new(x0 + c, y0),
                Point::new(x1 - c, y0),
                Point::new(x1, y0 + c),
                Point::new(x1, y1 - c),
                Point::new(x1 - c, y1),
                Point::new(x0 + c, y1),
                Point::new(x0, y1 - c),
                Point::new(x0, y0 + c),
            ];
            page.polygon(corners, Paint::both(Color::gray(draw::DARK_TONE), outline));
        }
    }
    letter(page, center, size * 0.9, color);
}

fn letter(page: &mut Page, center: Point, size_pt: f64, color: stacks::Color) {
    let shaped = text::shape(&color.to_string(), Style::Bold, size_pt);
    let (ascent, _) = text::vertical_metrics_mm(Style::Bold, size_pt);
    let origin =
        Point::new(center.x - shaped.width_mm() / 2.0, center.y + ascent * 0.73 / 2.0);
    let fill = if color == stacks::Color::White { Color::BLACK } else { Color::WHITE };
    page.items.push(Item::Text { origin, shaped, color: fill });
}

/// One row per turn: who played, what, every stack after it (bottom to top) and the
/// reserves left.
fn ledger(variant: &Variant, cx: &FigureContext) -> Result<Vec<Chunk>, String> {
    let turns =
        variant.turn_limit.ok_or("this game has no turn limit to size the ledger")?;
    let n = variant.size;
    let squares: Vec<Square> =
        (0..n).flat_map(|row| (0..n).map(move |col| Square { col, row })).collect();
    let fixed = [9.0, 9.0, 22.0];
    let reserve_w = 11.0;
    let cell_w =
        (cx.width - fixed.iter().sum::<f64>() - 2.0 * reserve_w) / squares.len() as f64;
    let mut xs = vec![0.0];
    for w in
        fixed.iter().copied().chain(squares.iter().map(|_| cell_w)).chain([reserve_w; 2])
    {
        xs.push(xs.last().unwrap() + w);
    }
    let row_h = 8.0;
    let head_h = 12.0;
    let mut header = Page::new(0.0, 0.0);
    let head_pt = 6.5;
    let mut heads = vec![
        cx.text("ledger.col_turn")?,
        cx.text("ledger.col_player")?,
        cx.text("ledger.col_action")?,
    ];
    heads.extend(squares.iter().map(|sq| stacks::square_name_upper(*sq)));
    heads.push(cx.text("ledger.col_reserve_w")?);
    heads.push(cx.text("ledger.col_reserve_b")?);
    for (i, head) in heads.iter().enumerate() {
        let w = xs[i + 1] - xs[i];
        let mut y = 6.0;
        for line in text::wrap(head, Style::Bold, head_pt, w - 1.0) {
            header.text_centered(xs[i] + w / 2.0, y, line);
            y += 2.8;
        }
    }
    let stacks_label = cx.text("ledger.stacks_label")?;
    let shaped = text::shape(&stacks_label, Style::Regular, 6.0);
    header.text_centered((xs[3] + xs[3 + squares.len()]) / 2.0, 2.4, shaped);
    header.line(
        Point::new(0.0, head_h),
        Point::new(cx.width, head_h),
        Stroke::solid(0.5),
    );
    let grid = Stroke::solid(0.2).colored(Color::gray(0.5));
    let rows = (1..=turns)
        .map(|turn| {
            let mut row = Page::new(0.0, 0.0);
            let label = text::shape(&turn.to_string(), Style::Bold, 8.5);
            row.text(Point::new(1.0, row_h / 2.0 + 1.4), label);
            // Turns alternate, White first: print whose turn it is.
            let who =
                if turn % 2 == 1 { stacks::Color::White } else { stacks::Color::Black };
            let shaped = text::shape(&who.to_string(), Style::Regular, 8.5);
            row.text_centered((xs[1] + xs[2]) / 2.0, row_h / 2.0 + 1.4, shaped);
            for &x in &xs[1..xs.len() - 1] {
                row.line(Point::new(x, 0.0), Point::new(x, row_h), grid);
            }
            row.line(Point::new(0.0, row_h), Point::new(cx.width, row_h), grid);
            Chunk::new(row_h, row.items)
        })
        .collect();
    Ok(vec![Chunk::table(Table {
        header: Box::new(Chunk::new(head_h + 1.0, header.items)),
        rows,
        columns: 1,
        column_width: cx.width,
        gap: 0.0,
    })])
}

/// A box to tick how the game ended, from the strings `ledger.end_*`.
fn end_box(cx: &FigureContext) -> Result<Vec<Chunk>, String> {
    let mut chunks = vec![Chunk::space(5.0).keep()];
    chunks.extend(
        lines(&cx.text("ledger.end_heading")?, Style::Bold, BODY_PT + 1.0, cx.width, 0.0)
            .into_iter()
            .map(Chunk::keep),
    );
    let keys = [
        "ledger.end_road_w",
        "ledger.end_road_b",
        "ledger.end_count",
        "ledger.end_turns",
    ];
    let mut page = Page::new(0.0, 0.0);
    let col = cx.width / 2.0;
    for (i, key) in keys.iter().enumerate() {
        let x = (i % 2) as f64 * col;
        let y = (i / 2) as f64 * 9.0 + 2.0;
        page.rect(Point::new(x, y), 4.5, 4.5, Paint::outline(Stroke::solid(0.35)));
        for (j, line) in text::wrap(&cx.text(key)?, Style::Regular, BODY_PT, col - 9.0)
            .into_iter()
            .enumerate()
        {
            page.text(Point::new(x + 7.0, y + 3.6 + j as f64 * 4.2), line);
        }
    }
    chunks.push(Chunk::new(20.0, page.items));
    Ok(chunks)
}

/// A row of small boards, one per `example:when` argument; stacks are drawn as layers,
/// bottom to top.
fn diagrams(
    variant: &Variant,
    args: &[String],
    cx: &FigureContext,
) -> Result<Vec<Chunk>, String> {
    if args.is_empty() {
        return Err(
            "`@diagrams` needs at least one example, e.g. `@diagrams carry:start`".into(),
        );
    }
    let n = variant.size;
    let slot = cx.width / args.len().max(3) as f64;
    let cell = ((slot - 12.0) / n as f64).min(17.0);
    let left = (cx.width - slot * args.len() as f64) / 2.0;
    let game = StackGame { variant: variant.clone() };
    let mut page = Page::new(0.0, 0.0);
    let mut captions = Vec::new();
    for (i, arg) in args.iter().enumerate() {
        let (id, when) = arg.split_once(':').unwrap_or((arg, "start"));
        let ex = cx.example(id)?;
        let position = match when {
            "start" => ex.positions.first(),
            "end" => ex.positions.last(),
            _ => return Err(format!("`{arg}`: expected `{id}:start` or `{id}:end`")),
        }
        .ok_or_else(|| format!("example `{id}` has no positions"))?;
        let state = game.parse_state(position).map_err(|e| e.to_string())?;
        let origin = Point::new(
            left + i as f64 * slot + (slot - n as f64 * cell) / 2.0 + 2.0,
            2.0,
        );
        draw_stacks(&mut page, origin, cell, &state);
        let arrow = match when {
            "end" => ex.moves.last().map(|m| (m.as_str(), false)),
            _ => ex.illegal.as_ref().map(|m| (m.text.as_str(), true)),
        };
        if let Some((mv, crossed)) = arrow {
            carry_arrow(&mut page, origin, cell, &game, &state, mv, crossed)?;
        }
        let key = if when == "end" { "caption_end" } else { "caption" };
        let caption = cx.text(&format!("examples.{id}.{key}"))?;
        captions.push(text::wrap(&caption, Style::Regular, 8.0, slot - 4.0));
    }
    let board_h = n as f64 * cell + 10.0;
    let line_h = 3.6;
    for (i, lines) in captions.iter().enumerate() {
        for (j, line) in lines.iter().enumerate() {
            let mid = left + i as f64 * slot + slot / 2.0;
            page.text_centered(mid, board_h + 3.0 + j as f64 * line_h, line.clone());
        }
    }
    let tallest = captions.iter().map(Vec::len).max().unwrap_or(0) as f64;
    Ok(vec![Chunk::new(board_h + 2.0 + tallest * line_h + 3.0, page.items)])
}

/// Cells with their stacks as layers: each piece a bar, bottom piece lowest, so the
/// top of the drawing is the top of the stack.
fn draw_stacks(page: &mut Page, origin: Point, cell: f64, state: &State) {
    let n = state.size();
    cells(page, origin, cell, n, 0.35);
    page.rect(
        origin,
        n as f64 * cell,
        n as f64 * cell,
        Paint::outline(Stroke::solid(1.0)),
    );
    for col in 0..n {
        let x = origin.x + (col as f64 + 0.5) * cell;
        page.text_centered(
            x,
            origin.y + n as f64 * cell + 4.0,
            text::shape(&column_letter(col), Style::Regular, 6.5),
        );
    }
    for row in 0..n {
        let y = origin.y + (n - 1 - row) as f64 * cell + cell / 2.0 + 1.0;
        page.text_centered(
            origin.x - 3.0,
            y,
            text::shape(&(row + 1).to_string(), Style::Regular, 6.5),
        );
    }
    for row in 0..n {
        for col in 0..n {
            let sq = Square { col, row };
            let stack = state.stack(sq);
            if stack.is_empty() {
                continue;
            }
            let at = cell_origin(origin, cell, n, sq);
            let layer_h = ((cell * 0.8) / stack.len() as f64).min(cell * 0.26);
            let bar_w = cell * 0.72;
            let x = at.x + (cell - bar_w) / 2.0;
            let mut y = at.y + cell * 0.9 - layer_h;
            for piece in stack {
                layer(page, Point::new(x, y), bar_w, layer_h, piece);
                y -= layer_h;
            }
        }
    }
}

fn layer(page: &mut Page, at: Point, w: f64, h: f64, piece: &Piece) {
    let fill = match side(piece.color) {
        Side::Light => Color::WHITE,
        Side::Dark => Color::gray(draw::DARK_TONE),
    };
    let width = if piece.kind == Kind::Flat { w } else { w * 0.5 };
    let x = at.x + (w - width) / 2.0;
    page.rect(Point::new(x, at.y), width, h, Paint::both(fill, Stroke::solid(0.3)));
    if h >= 2.2 {
        letter(
            page,
            Point::new(at.x + w / 2.0, at.y + h / 2.0),
            (h * 2.0).min(8.0),
            piece.color,
        );
    }
}

/// An arrow along a carry, from its square to the last square it drops on.
fn carry_arrow(
    page: &mut Page,
    origin: Point,
    cell: f64,
    game: &StackGame,
    state: &State,
    mv: &str,
    crossed: bool,
) -> Result<(), String> {
    let Ok(stacks::Move::Carry { from, dir, drops, .. }) = game.parse_move(state, mv)
    else {
        return Ok(());
    };
    let n = state.size();
    let steps = drops.len() as i16;
    let (dc, dr) = match dir {
        stacks::Dir::Up => (0, 1),
        stacks::Dir::Down => (0, -1),
        stacks::Dir::Left => (-1, 0),
        stacks::Dir::Right => (1, 0),
    };
    let to = Square {
        col: (from.col as i16 + dc * steps) as u8,
        row: (from.row as i16 + dr * steps) as u8,
    };
    let centre = |sq: Square| {
        let o = cell_origin(origin, cell, n, sq);
        Point::new(o.x + cell / 2.0, o.y + cell * 0.12)
    };
    draw::arrow(page, centre(from), centre(to), cell * 0.2, 0.5, crossed);
    Ok(())
}
