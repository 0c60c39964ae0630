//! Drawings for Crossway: a Go-style board of intersections with the players' edges
//! marked, paper stones, the move record, and diagrams drawn from positions the rules
//! module computed (legal placements, a winning path, the forbidden checkerboards).

use super::rules::{self as crossway, Crossway, Player, State, stones_needed};
use crate::layout::draw::{self, Side, caption, cut_tiles, diagram_row, legend_entry};
use crate::layout::flow::{Chunk, Table};
use crate::layout::poster::Poster;
use crate::layout::{BODY_PT, FigureContext};
use crate::page::{Color, Page, Paint, Point, Stroke};
use crate::text::{self, Reading, Style};
use crate::verify::{Verified, When};

/// A verified example of this game.
type Example = Verified<Crossway>;

/// The figures this game draws, for error messages.
pub const FIGURES: &[&str] = &["board", "stones", "moves", "diagrams", "checkerboards"];

/// Draws figure `name`.
pub fn figure(
    name: &str,
    args: &[String],
    cx: &FigureContext,
    examples: &[Example],
) -> Result<Vec<Chunk>, String> {
    match name {
        "board" => board(cx),
        "stones" => stones(cx),
        "moves" => move_record(cx),
        "diagrams" => diagrams(args, cx, examples),
        "checkerboards" => checkerboards(cx),
        _ => Err(format!(
            "unknown figure `@{name}`, expected one of: {}",
            FIGURES.join(", ")
        )),
    }
}

fn side(player: Player) -> Side {
    match player {
        Player::V => Side::Dark,
        Player::H => Side::Light,
    }
}

/// A stone: V is dark with a vertical bar (it joins North and South), H is white with
/// a horizontal bar (West and East): the mark says which way each player builds.
fn stone(page: &mut Page, center: Point, diameter: f64, player: Player) {
    let r = diameter / 2.0;
    let (fill, mark) = match side(player) {
        Side::Dark => (Color::gray(draw::DARK_TONE), Color::WHITE),
        Side::Light => (Color::WHITE, Color::BLACK),
    };
    page.circle(
        center,
        r,
        Paint::both(fill, Stroke::solid((diameter * 0.03).clamp(0.25, 0.6))),
    );
    let (long, thick) = (r * 1.1, r * 0.28);
    let (w, h) = match player {
        Player::V => (thick, long),
        Player::H => (long, thick),
    };
    page.rect(
        Point::new(center.x - w / 2.0, center.y - h / 2.0),
        w,
        h,
        Paint::fill(mark),
    );
}

/// Column and row pitch from the kit.
fn pitch(cx: &FigureContext) -> (f64, f64) {
    let dx = cx.kit.board.spacing_mm;
    (dx, cx.kit.board.row_spacing_mm.unwrap_or(dx))
}

fn column_letter(col: u8) -> String {
    ((b'a' + col) as char).to_string()
}

fn board(cx: &FigureContext) -> Result<Vec<Chunk>, String> {
    let n = cx.size;
    let (dx, dy) = pitch(cx);
    let margin = 16.0;
    let (w, h) = ((n - 1) as f64 * dx, (n - 1) as f64 * dy);
    let origin = Point::new(margin, margin);
    let mut page = Page::new(0.0, 0.0);
    let line = Stroke::solid(0.35);
    for i in 0..n {
        let x = origin.x + i as f64 * dx;
        let y = origin.y + i as f64 * dy;
        page.line(Point::new(x, origin.y), Point::new(x, origin.y + h), line);
        page.line(Point::new(origin.x, y), Point::new(origin.x + w, y), line);
    }
    // The players' edges: V joins North and South (solid bars), H joins West and East
    // (open bars), so the goal of each side reads without colour.
    let band = 3.0;
    let gap = 5.0;
    for y in [origin.y - gap - band, origin.y + h + gap] {
        page.rect(
            Point::new(origin.x, y),
            w,
            band,
            Paint::fill(Color::gray(draw::DARK_TONE)),
        );
    }
    for x in [origin.x - gap - band, origin.x + w + gap] {
        page.rect(
            Point::new(x, origin.y),
            band,
            h,
            Paint::both(Color::WHITE, Stroke::solid(0.5)),
        );
    }
    let label = |text: &str| cx.shape(text, Style::Bold, 9.0);
    for i in 0..n {
        let x = origin.x + i as f64 * dx;
        page.text_centered(x, origin.y - gap - band - 2.0, label(&column_letter(i)));
        page.text_centered(x, origin.y + h + gap + band + 5.5, label(&column_letter(i)));
        let y = origin.y + (n - 1 - i) as f64 * dy + 1.2;
        let number = (i + 1).to_string();
        page.text_centered(origin.x - gap - band - 4.5, y, label(&number));
        page.text_centered(origin.x + w + gap + band + 4.5, y, label(&number));
    }
    let mut chunks = Vec::new();
    for (key, sample) in [("board.legend_v", Player::V), ("board.legend_h", Player::H)] {
        chunks.extend(legend_entry(cx, key, 8.0, &|page, x| {
            stone(page, Point::new(x + 4.0, 2.0), 7.0, sample)
        })?);
        chunks.push(Chunk::space(2.0));
    }
    chunks.push(Chunk::space(2.0));
    let poster = Poster {
        width: w + 2.0 * margin,
        height: h + 2.0 * margin,
        items: page.items,
        labels: cx.poster_labels()?,
    };
    chunks.push(Chunk::poster(poster));
    Ok(chunks)
}

fn stones(cx: &FigureContext) -> Result<Vec<Chunk>, String> {
    let size = cx.kit.pieces.size_mm;
    // A millimetre tighter than the house margin: Crossway prints hundreds of stones.
    let tile = size + draw::CUT_TILE_MARGIN_MM - 1.0;
    let (v, h) = stones_needed(cx.size);
    let spares = cx.kit.pieces.spares;
    let mut chunks = Vec::new();
    for (player, count, key) in
        [(Player::V, v, "stones.caption_v"), (Player::H, h, "stones.caption_h")]
    {
        chunks.extend(caption(cx, key)?);
        chunks.extend(cut_tiles(
            (count + spares) as usize,
            tile,
            cx.width,
            cx.reading,
            &|page, centre| stone(page, centre, size, player),
        ));
        chunks.push(Chunk::space(6.0));
    }
    Ok(chunks)
}

/// One numbered row per move, with the swap written where it happens; the winner's
/// path is written under the list.
fn move_record(cx: &FigureContext) -> Result<Vec<Chunk>, String> {
    let n = cx.size as u32;
    // Every point can be filled once, plus the swap.
    let moves = n * n + 1;
    let gap = 6.0;
    let columns = (((cx.width + gap) / (50.0 + gap)).floor() as usize).clamp(1, 3);
    let column_width = (cx.width - gap * (columns - 1) as f64) / columns as f64;
    let number_w = 10.0;
    let row_h = 6.5;
    let grid = Stroke::solid(0.2).colored(Color::gray(0.5));
    let mut header = Page::new(0.0, 0.0);
    let heads = [
        (cx.text("ledger.col_move")?, number_w / 2.0),
        (cx.text("ledger.col_play")?, number_w + (column_width - number_w) / 2.0),
    ];
    for (head, x) in heads {
        header.text_centered(x, 5.0, cx.shape(&head, Style::Bold, 7.5));
    }
    header.line(Point::new(0.0, 7.0), Point::new(column_width, 7.0), Stroke::solid(0.5));
    let rows = (1..=moves)
        .map(|m| {
            let mut row = Page::new(0.0, 0.0);
            row.text(
                Point::new(1.0, row_h / 2.0 + 1.3),
                cx.shape(&m.to_string(), Style::Bold, 8.0),
            );
            // Odd moves are V's unless a swap came first; the player writes who.
            row.line(Point::new(number_w, 0.0), Point::new(number_w, row_h), grid);
            row.line(Point::new(0.0, row_h), Point::new(column_width, row_h), grid);
            Chunk::new(row_h, row.items)
        })
        .collect();
    let mut chunks = vec![Chunk::table(Table {
        header: Box::new(Chunk::new(8.0, header.items)),
        rows,
        columns,
        column_width,
        gap,
    })];
    chunks.push(Chunk::space(6.0).keep());
    chunks.extend(
        cx.lines(&cx.text("ledger.path")?, Style::Bold, BODY_PT, 0.0)
            .into_iter()
            .map(Chunk::keep),
    );
    let mut write = Page::new(0.0, 0.0);
    for i in 0..3 {
        let y = 8.0 + i as f64 * 8.0;
        write.line(
            Point::new(0.0, y),
            Point::new(cx.width, y),
            Stroke::solid(0.25).colored(Color::gray(0.5)),
        );
    }
    chunks.push(Chunk::new(26.0, write.items));
    Ok(chunks)
}

/// A row of small boards, one per `example:when[:marks]` argument. `marks` draws the
/// legal placements of the player to move as rings; `end` positions highlight the
/// winning path.
fn diagrams(
    args: &[String],
    cx: &FigureContext,
    examples: &[Example],
) -> Result<Vec<Chunk>, String> {
    let (slot, left) = cx.diagram_slots(args, 2)?;
    let mut page = Page::new(0.0, 0.0);
    let mut captions = Vec::new();
    let mut board_h: f64 = 0.0;
    for (i, arg) in args.iter().enumerate() {
        let (ex, when, state) = cx.diagram_position(examples, arg)?;
        let id = ex.id.as_str();
        let marks = arg.ends_with(":marks");
        let n = state.size();
        let step = ((slot - 16.0) / (n - 1) as f64).min(12.0);
        let origin = Point::new(
            left + cx.slot(i, args.len()) as f64 * slot
                + (slot - (n - 1) as f64 * step) / 2.0,
            step * 0.5 + 3.0,
        );
        let at = |p: crossway::Point| {
            Point::new(
                origin.x + p.col as f64 * step,
                origin.y + (n - 1 - p.row) as f64 * step,
            )
        };
        if when == When::End && ex.line.len() > 1 {
            let band = Stroke::solid(step * 0.45).colored(Color::gray(0.75));
            let points: Vec<Point> = ex.line.iter().map(|&p| at(p)).collect();
            for pair in points.windows(2) {
                page.line(pair[0], pair[1], band);
            }
        }
        small_board(&mut page, origin, step, state, cx.reading);
        if marks {
            for mv in &ex.legal_moves {
                if let crossway::Move::Place(p) = *mv {
                    page.circle(at(p), step * 0.3, Paint::outline(Stroke::solid(0.5)));
                    let q = cx.shape("?", Style::Bold, step * 1.4);
                    page.text_centered(at(p).x, at(p).y + step * 0.18, q);
                }
            }
        }
        let key = if when == When::End { "caption_end" } else { "caption" };
        let caption = cx.text(&format!("examples.{id}.{key}"))?;
        captions.push(cx.wrap(&caption, Style::Regular, 8.0, slot - 4.0));
        board_h = board_h.max(origin.y + (n - 1) as f64 * step + step * 0.5 + 8.0);
    }
    Ok(vec![diagram_row(cx, page, &captions, left, slot, board_h)])
}

/// Grid, edge marks, coordinates and stones of a small diagram board.
fn small_board(
    page: &mut Page,
    origin: Point,
    step: f64,
    state: &State,
    reading: Reading,
) {
    let n = state.size();
    let span = (n - 1) as f64 * step;
    draw::grid(page, origin, step, n, Stroke::solid(0.3));
    let band = 1.2;
    let off = step * 0.5;
    for i in 0..n {
        let o = i as f64 * step;
        let letter = text::shape(&column_letter(i), Style::Regular, 6.0, reading);
        page.text_centered(origin.x + o, origin.y + span + off + band + 3.0, letter);
        let number = text::shape(&(n - i).to_string(), Style::Regular, 6.0, reading);
        page.text_centered(origin.x - off - band - 2.2, origin.y + o + 1.0, number);
    }
    for y in [origin.y - off - band, origin.y + span + off] {
        page.rect(
            Point::new(origin.x, y),
            span,
            band,
            Paint::fill(Color::gray(draw::DARK_TONE)),
        );
    }
    for x in [origin.x - off - band, origin.x + span + off] {
        page.rect(
            Point::new(x, origin.y),
            band,
            span,
            Paint::both(Color::WHITE, Stroke::solid(0.3)),
        );
    }
    for row in 0..n {
        for col in 0..n {
            let p = crossway::Point { col, row };
            if let Some(player) = state.stone(p) {
                let c = Point::new(
                    origin.x + col as f64 * step,
                    origin.y + (n - 1 - row) as f64 * step,
                );
                stone(page, c, step * 0.8, player);
            }
        }
    }
}

/// The two forbidden 2×2 checkerboards, from the rules, each crossed out.
fn checkerboards(cx: &FigureContext) -> Result<Vec<Chunk>, String> {
    let step = 12.0;
    let mut page = Page::new(0.0, 0.0);
    let patterns = crossway::forbidden_patterns();
    let slot = 45.0;
    let left = (cx.width - slot * patterns.len() as f64) / 2.0;
    for (i, block) in patterns.iter().enumerate() {
        let at = cx.slot(i, patterns.len()) as f64;
        let origin = Point::new(left + at * slot + (slot - step) / 2.0, step + 2.0);
        let thin = Stroke::solid(0.3);
        for k in 0..4 {
            let o = k as f64 * step - step * 1.5 + step / 2.0;
            page.line(
                Point::new(origin.x + o, origin.y - step),
                Point::new(origin.x + o, origin.y + 2.0 * step),
                thin,
            );
            page.line(
                Point::new(origin.x - step, origin.y + o),
                Point::new(origin.x + 2.0 * step, origin.y + o),
                thin,
            );
        }
        for (r, row) in block.iter().enumerate() {
            for (c, player) in row.iter().enumerate() {
                let at =
                    Point::new(origin.x + c as f64 * step, origin.y + r as f64 * step);
                stone(&mut page, at, step * 0.8, *player);
            }
        }
        let cross = Stroke::solid(0.9);
        let (a, b) = (step * 1.3, step * 0.3);
        page.line(
            Point::new(origin.x - b, origin.y - b),
            Point::new(origin.x + a, origin.y + a),
            cross,
        );
        page.line(
            Point::new(origin.x + a, origin.y - b),
            Point::new(origin.x - b, origin.y + a),
            cross,
        );
    }
    let mut chunks = vec![Chunk::new(3.0 * step + 6.0, page.items)];
    chunks.extend(cx.lines(
        &cx.text("rules.checkerboard_caption")?,
        Style::Regular,
        8.0,
        0.0,
    ));
    chunks.push(Chunk::space(3.0));
    Ok(chunks)
}
