//! Drawings for Three-men slide: the board, counters, the repetition log and the
//! worked-example diagrams. Geometry comes from the kit, positions from the rules.

use super::rules::{self as three_men, Player, Square, ThreeMenSlide};
use crate::layout::diagram_style::{
    ARROW_MM, CAPTION_PT, CUT_LINE_TONE, KEY_MIDLINE_MM, KEY_SAMPLE_MM,
};
use crate::layout::draw::{self, Side, cut_tiles, diagram_row, legend_entry};
use crate::layout::flow::Chunk;
use crate::layout::poster::Poster;
use crate::layout::table::{self, Columns, Head};
use crate::layout::{FigureContext, FigureError, MIN_LABEL_PT};
use crate::page::{Color, Page, Paint, Point, Stroke};
use crate::text::{self, Style};
use crate::verify::{Verified, When};

/// A verified example of this game.
type Example = Verified<ThreeMenSlide>;

/// The figures this game draws, for error messages.
pub const FIGURES: &[&str] =
    &["board", "counters", "repetition-log", "diagrams", "diagram-key"];

/// Draws figure `name`.
pub fn figure(
    name: &str,
    args: &[String],
    cx: &FigureContext,
    examples: &[Example],
) -> Result<Vec<Chunk>, FigureError> {
    match name {
        "board" => board(cx),
        "counters" => counters(cx),
        "repetition-log" => repetition_log(cx),
        "diagrams" => diagrams(args, cx, examples),
        "diagram-key" => diagram_key(cx),
        _ => Err(format!(
            "unknown figure `@{name}`, expected one of: {}",
            FIGURES.join(", ")
        )
        .into()),
    }
}

/// The board's lines where counters slide (heavy), its winning diagonals (a share
/// of that, dashed: never a path) and the legend's sample of a diagonal (the same
/// share of the board's line); the dash.
const BOARD_EDGE_MM: f64 = 1.4;
/// See [`BOARD_EDGE_MM`].
const DIAGONAL: f64 = 0.45;
/// See [`BOARD_EDGE_MM`].
const BOARD_DIAGONAL_MM: f64 = 0.63;
/// See [`BOARD_EDGE_MM`].
const DIAGONAL_DASH_MM: f64 = 3.0;
/// A point's ring on the board; its name's size (points per mm of the point, at
/// most), and baseline below the centre (a share of its size in points).
const POINT_LINE_MM: f64 = 0.8;
/// See [`POINT_LINE_MM`].
const POINT_LABEL: (f64, f64, f64) = (0.9, 7.0, 0.13);
/// The legend's samples and the room after each; the room after each side's counters.
const LEGEND_SAMPLE_MM: f64 = 16.0;
/// See [`LEGEND_SAMPLE_MM`].
const LEGEND_GAP_MM: f64 = 1.5;
/// See [`LEGEND_SAMPLE_MM`].
const SIDES_GAP_MM: f64 = 9.0;
/// The repetition log's columns, narrowest and widest: turn, next to move, tally, a
/// square's cell (room for one written capital at least); and the squares.
const LOG_TURN_MM: (f64, f64) = (11.0, 25.0);
/// See [`LOG_TURN_MM`].
const LOG_NEXT_MM: (f64, f64) = (22.0, 30.0);
/// See [`LOG_TURN_MM`].
const LOG_TALLY_MM: (f64, f64) = (20.0, 40.0);
/// See [`LOG_TURN_MM`].
const LOG_SQUARE_MM: (f64, f64) = (5.5, 9.0);
/// See [`LOG_TURN_MM`].
const SQUARES: f64 = 9.0;
/// "Next to move": the first circle's place, the step to the second, their radius
/// and the letter's drop below the centre.
const NEXT_CIRCLE_MM: (f64, f64, f64, f64) = (3.0, 8.5, 3.2, 1.1);
/// A diagram: the room besides its points (counters and coordinates), the largest
/// spacing, the room above, a caption's margin.
const DIAGRAM_FRAME_MM: f64 = 14.0;
/// See [`DIAGRAM_FRAME_MM`].
const DIAGRAM_MOST_SPACING_MM: f64 = 16.0;
/// See [`DIAGRAM_FRAME_MM`].
const DIAGRAM_TOP_MM: f64 = 5.0;
/// See [`DIAGRAM_FRAME_MM`].
const CAPTION_MARGIN_MM: f64 = 4.0;
/// A diagram's lines and points.
const DIAGRAM_LINE_MM: f64 = 0.6;
/// See [`DIAGRAM_LINE_MM`].
const DIAGRAM_POINT_MM: f64 = 0.9;
/// A counter in a diagram, as a share of the spacing: neighbours stay apart.
const COUNTER: f64 = 0.62;
/// The coordinates: the letters' baseline under the last counters, the numbers'
/// baseline below the points and their gap before the first counters.
const COLUMN_LABEL_DROP_MM: f64 = 3.5;
/// See [`COLUMN_LABEL_DROP_MM`].
const ROW_LABEL_DROP_MM: f64 = 0.9;
/// See [`COLUMN_LABEL_DROP_MM`].
const ROW_LABEL_GAP_MM: f64 = 2.5;
/// A winning line's band (a share of the spacing) and its tone.
const LINE_BAND: f64 = 0.55;
/// See [`LINE_BAND`].
const LINE_TONE: f64 = 0.82;
/// A slide's arrow runs beside the line it slides along, this share of the spacing
/// away, so that the line does not hide its shaft; it starts and ends this share
/// of a counter from the points.
const ARROW_SHIFT: f64 = 0.16;
/// See [`ARROW_SHIFT`].
const COUNTER_ARROW_INSET: f64 = 0.45;
/// The key's samples: the counters' centres and size; the band's start, end, width.
const KEY_COUNTERS_MM: (f64, f64, f64) = (3.2, 10.8, 6.2);
/// See [`KEY_COUNTERS_MM`].
const KEY_BAND_MM: (f64, f64, f64) = (1.0, 13.0, 2.4);

fn side(player: Player) -> Side {
    match player {
        Player::A => Side::Light,
        Player::B => Side::Dark,
    }
}

/// Where a square's point sits, with A1 at the bottom left of a board whose top-left
/// point is at `origin`.
fn point_at(origin: Point, spacing: f64, sq: Square) -> Point {
    Point::new(
        origin.x + sq.col() as f64 * spacing,
        origin.y + (2 - sq.row()) as f64 * spacing,
    )
}

/// Lines of the board: movement edges solid and heavy, winning diagonals dashed and
/// light, so nobody mistakes a diagonal for a path.
fn board_lines(page: &mut Page, origin: Point, spacing: f64, edge_width: f64) {
    let diagonal = Stroke::dashed(edge_width * DIAGONAL, DIAGONAL_DASH_MM, 2.0)
        .colored(Color::gray(CUT_LINE_TONE));
    for line in three_men::winning_lines() {
        let (a, c) = (line[0], line[2]);
        if a.col() != c.col() && a.row() != c.row() {
            page.line(
                point_at(origin, spacing, a),
                point_at(origin, spacing, c),
                diagonal,
            );
        }
    }
    for (a, b) in three_men::movement_edges() {
        let stroke = Stroke::solid(edge_width);
        page.line(point_at(origin, spacing, a), point_at(origin, spacing, b), stroke);
    }
}

fn board(cx: &FigureContext) -> Result<Vec<Chunk>, FigureError> {
    let spacing = cx.kit.board.spacing_mm;
    let dot = cx
        .kit
        .board
        .point_diameter_mm
        .ok_or("a board of points needs `point-diameter-mm` in [board]")?;
    // The frame clears a counter on an outer point by a little, no more.
    let pad = (cx.kit.pieces.size_mm / 2.0 + 2.0).max(dot);
    let span = 2.0 * spacing + 2.0 * pad;
    let label_band = draw::label_band(span, cx.width);
    let total = span + 2.0 * label_band;
    let mut page = Page::new(0.0, 0.0);
    let left = label_band;
    // The frame as lines, so that a board split into parts keeps its sides.
    let (x0, y0, x1, y1) = (left, label_band, left + span, label_band + span);
    let frame = Stroke::solid(0.5);
    for (a, b) in [
        ((x0, y0), (x1, y0)),
        ((x1, y0), (x1, y1)),
        ((x1, y1), (x0, y1)),
        ((x0, y1), (x0, y0)),
    ] {
        page.line(Point::new(a.0, a.1), Point::new(b.0, b.1), frame);
    }
    let origin = Point::new(left + pad, label_band + pad);
    board_lines(&mut page, origin, spacing, BOARD_EDGE_MM);
    for sq in Square::all() {
        let c = point_at(origin, spacing, sq);
        page.circle(
            c,
            dot / 2.0,
            Paint::both(Color::WHITE, Stroke::solid(POINT_LINE_MM)),
        );
        let label = cx.shape(
            &sq.to_string(),
            Style::Regular,
            (dot * POINT_LABEL.0).min(POINT_LABEL.1),
        );
        page.text_centered(c.x, c.y + label.size_pt * POINT_LABEL.2, label);
    }
    // Coordinates on all four sides, as the rules name the squares.
    let columns: Vec<f64> = (0..3).map(|c| origin.x + c as f64 * spacing).collect();
    let rows: Vec<f64> = (0..3).map(|r| origin.y + (2 - r) as f64 * spacing).collect();
    draw::coordinates(
        cx.shaper,
        &mut page,
        (x0, y0, x1, y1),
        &columns,
        &rows,
        label_band,
    );
    // Counters stand on the points: a board in parts is cut midway between two.
    let midway = |lines: &[f64]| -> Vec<f64> {
        lines.windows(2).map(|w| (w[0] + w[1]) / 2.0).collect()
    };
    let rows_down: Vec<f64> = rows.iter().rev().copied().collect();
    let (seams_x, seams_y) = (midway(&columns), midway(&rows_down));
    draw::board_drawing(cx, &mut page.items)?;
    let poster = Poster::new(
        total,
        total + 2.0,
        page.items,
        draw::poster_labels(cx)?,
        cx.width,
        seams_x,
        seams_y,
    );
    // The legend above the board, as on every kit's board, kept on its page.
    let mut chunks = legend(cx)?;
    for chunk in &mut chunks {
        chunk.keep_with_next = true;
    }
    chunks.push(Chunk::poster(poster));
    Ok(chunks)
}

fn legend(cx: &FigureContext) -> Result<Vec<Chunk>, FigureError> {
    let mut chunks = Vec::new();
    let sample = LEGEND_SAMPLE_MM;
    for (key, stroke) in [
        ("board.legend_edge", Stroke::solid(BOARD_EDGE_MM)),
        (
            "board.legend_diagonal",
            Stroke::dashed(BOARD_DIAGONAL_MM, DIAGONAL_DASH_MM, 2.0)
                .colored(Color::gray(CUT_LINE_TONE)),
        ),
    ] {
        chunks.extend(legend_entry(cx, key, sample, &|page, x| {
            let y = KEY_MIDLINE_MM;
            page.line(Point::new(x, y), Point::new(x + sample, y), stroke)
        })?);
        chunks.push(Chunk::space(LEGEND_GAP_MM));
    }
    Ok(chunks)
}

fn counters(cx: &FigureContext) -> Result<Vec<Chunk>, FigureError> {
    let size = cx.kit.pieces.size_mm;
    let per_player = (three_men::COUNTERS_PER_PLAYER + cx.kit.pieces.spares) as usize;
    let mut chunks = Vec::new();
    for player in [Player::A, Player::B] {
        let letter = player.to_string();
        let tiles = cut_tiles(
            per_player,
            size,
            cx.width,
            (cx.reading, cx.cut),
            &|page, centre| {
                draw::cut_piece(
                    cx.shaper,
                    page,
                    centre,
                    size,
                    (side(player), &letter),
                    cx.cut,
                )
            },
        );
        let key = format!("counters.caption_{}", player.to_string().to_lowercase());
        chunks.extend(draw::pieces(cx, &key, tiles)?);
        chunks.push(Chunk::space(SIDES_GAP_MM));
    }
    Ok(chunks)
}

/// One row per sliding position: the start, then one per turn up to the limit. The
/// position is copied into a cell per square, the board's rows side by side (row 3
/// first, as the board is read from the top), so repeats line up down the page and
/// each cell has room for a handwritten A or B.
fn repetition_log(cx: &FigureContext) -> Result<Vec<Chunk>, FigureError> {
    // The Turn column holds its heading and the "start" label at full size.
    let start = cx.shape(&cx.text("log.start_row")?, Style::Bold, table::BODY_PT);
    let turn_min = (start.width_mm() + 2.0).max(LOG_TURN_MM.0);
    let turn_w = table::fitted_width(cx, "log.col_turn", turn_min, LOG_TURN_MM.1)?;
    let (least, most) = LOG_NEXT_MM;
    let next_w = table::fitted_width(cx, "log.col_next", least, most)?;
    // A square's cell is 9 mm wide, narrowing on narrow paper such as A5 (the tally
    // keeping the width its heading needs) down to 5.5 mm: still room for one
    // written capital letter.
    let (least, most) = LOG_TALLY_MM;
    let tally_least = table::narrowest_width(cx, "log.col_tally", least, most)?;
    let (square_least, square_most) = LOG_SQUARE_MM;
    let room = (cx.width - turn_w - next_w - tally_least) / SQUARES;
    if room < square_least {
        return Err("the paper is too narrow for the repetition log".into());
    }
    let square_w = room.min(square_most);
    let tally_w = cx.width - turn_w - next_w - SQUARES * square_w;
    let squares: Vec<Square> = (0..3u8)
        .rev()
        .flat_map(|row| (0..3u8).filter_map(move |col| Square::new(col, row)))
        .collect();
    let mut widths = vec![turn_w];
    widths.extend(squares.iter().map(|_| square_w));
    widths.extend([next_w, tally_w]);
    let cols = Columns::new(&widths, cx.reading);
    let mut heads = vec![Head::Key("log.col_turn")];
    heads.extend(squares.iter().map(|sq| Head::Fixed(sq.to_string())));
    heads.extend([Head::Key("log.col_next"), Head::Key("log.col_tally")]);
    let header = cols.header(cx, &heads, Some(("log.col_board", 1, 10)))?;
    let start_label = cx.fit_down_to(
        "log.start_row",
        Style::Bold,
        (table::BODY_PT, table::BODY_PT),
        turn_w - 1.0,
        1,
    )?;
    let row_h = table::ROW_MM;
    let ruled: Vec<usize> = (1..widths.len()).collect();
    let rows = (0..=three_men::SLIDING_TURN_LIMIT)
        .map(|turn| {
            let mut row = cols.row(row_h, &ruled);
            match turn {
                0 => {
                    for line in &start_label {
                        row.text_centered(
                            cols.mid(0),
                            row_h / 2.0 + table::baseline_drop(cx),
                            line.clone(),
                        );
                    }
                }
                _ => cols.label(&mut row, cx, 0, row_h, &turn.to_string()),
            }
            // Heavier rules around each board row.
            for i in [1, 4, 7, 10] {
                let x = cols.leading_edge(i);
                row.line(Point::new(x, 0.0), Point::new(x, row_h), Stroke::solid(0.5));
            }
            // "Next to move": circle A or B.
            for (i, player) in [Player::A, Player::B].into_iter().enumerate() {
                let (first, step, radius, drop) = NEXT_CIRCLE_MM;
                let x = cols.start(10, first + i as f64 * step, 2.0 * radius) + radius;
                let c = Point::new(x, row_h / 2.0);
                row.circle(c, radius, Paint::outline(table::cell_rule()));
                let t = cx.shape(&player.to_string(), Style::Regular, table::BODY_PT);
                row.text_centered(c.x, c.y + drop, t);
            }
            Chunk::new(row_h, row.items)
        })
        .collect();
    Ok(vec![cols.table(header, rows, 1, 0.0, 0)])
}

/// Each player's points in `state`, for a diagram's alternative text.
fn position_words(
    cx: &FigureContext,
    state: &three_men::State,
) -> Result<String, String> {
    let points = |player| {
        let on = Square::all().filter(|&sq| state.piece_at(sq) == Some(player));
        on.map(|sq| sq.to_string()).collect()
    };
    let players =
        [Player::A, Player::B].map(|player| (player.to_string(), points(player)));
    draw::players_words(cx, &players)
}

/// A row of small boards, one per `example:when` argument (`when` is `start`, the
/// position to think about, or `end`, the position after the example's moves).
fn diagrams(
    args: &[String],
    cx: &FigureContext,
    examples: &[Example],
) -> Result<Vec<Chunk>, FigureError> {
    let (slot, left) = cx.diagram_slots(args, 3)?;
    let spacing = ((slot - DIAGRAM_FRAME_MM) / 2.0).min(DIAGRAM_MOST_SPACING_MM);
    let mut page = Page::new(0.0, 0.0);
    let mut captions: Vec<Vec<text::Shaped>> = Vec::new();
    let mut positions = Vec::new();
    for (i, arg) in args.iter().enumerate() {
        let (ex, when, state) = cx.diagram_position(examples, arg)?;
        let id = ex.id.as_str();
        let x0 =
            left + cx.slot(i, args.len()) as f64 * slot + (slot - 2.0 * spacing) / 2.0;
        let origin = Point::new(x0, DIAGRAM_TOP_MM);
        draw_position(cx, &mut page, origin, spacing, state, ex, when == When::End);
        let key = if when == When::End { "caption_end" } else { "caption" };
        let caption = cx.text(&format!("examples.{id}.{key}"))?;
        let caption_w = slot - CAPTION_MARGIN_MM;
        captions.push(cx.wrap(&caption, Style::Regular, CAPTION_PT, caption_w));
        positions.push(position_words(cx, state)?);
    }
    let board_h = 2.0 * spacing + DIAGRAM_FRAME_MM;
    Ok(vec![diagram_row(cx, page, (&captions, &positions), left, slot, board_h)])
}

/// The key to the symbols of the diagrams: both players' counters, a slide's arrow
/// and a winning line's band, as `draw_position` draws them.
fn diagram_key(cx: &FigureContext) -> Result<Vec<Chunk>, FigureError> {
    let counters = |page: &mut Page, x: f64| {
        // As large as the letters' smallest size allows.
        let (a, b, size) = KEY_COUNTERS_MM;
        draw::piece(
            cx.shaper,
            page,
            Point::new(x + a, KEY_MIDLINE_MM),
            size,
            side(Player::A),
            "A",
        );
        draw::piece(
            cx.shaper,
            page,
            Point::new(x + b, KEY_MIDLINE_MM),
            size,
            side(Player::B),
            "B",
        );
    };
    let slide = |page: &mut Page, x: f64| {
        let (from, to) = (x, x + KEY_SAMPLE_MM);
        let (from, to) =
            (Point::new(from, KEY_MIDLINE_MM), Point::new(to, KEY_MIDLINE_MM));
        draw::arrow(page, from, to, 0.5, ARROW_MM, false)
    };
    let line = |page: &mut Page, x: f64| {
        let (start, end, width) = KEY_BAND_MM;
        let band = Stroke::solid(width).colored(Color::gray(LINE_TONE));
        let y = KEY_MIDLINE_MM;
        page.line(Point::new(x + start, y), Point::new(x + end, y), band);
    };
    draw::symbol_key(
        cx,
        &[
            ("diagrams.key_counters", &counters),
            ("diagrams.key_slide", &slide),
            ("diagrams.key_line", &line),
        ],
    )
}

fn draw_position(
    cx: &FigureContext,
    page: &mut Page,
    origin: Point,
    spacing: f64,
    state: &three_men::State,
    ex: &Example,
    end: bool,
) {
    let at = |sq: Square| point_at(origin, spacing, sq);
    if end && !ex.line.is_empty() {
        // The winning line as a broad grey band under the pieces.
        let squares = &ex.line;
        let band = Stroke::solid(spacing * LINE_BAND).colored(Color::gray(LINE_TONE));
        page.line(at(squares[0]), at(squares[2]), band);
    }
    board_lines(page, origin, spacing, DIAGRAM_LINE_MM);
    for sq in Square::all() {
        page.circle(at(sq), DIAGRAM_POINT_MM, Paint::fill(Color::BLACK));
    }
    let piece = spacing * COUNTER;
    for sq in Square::all() {
        if let Some(player) = state.piece_at(sq) {
            draw::piece(
                cx.shaper,
                page,
                at(sq),
                piece,
                side(player),
                &player.to_string(),
            );
        }
    }
    // Small coordinates so a caption can name squares.
    for col in 0..3u8 {
        let letter = ((b'A' + col) as char).to_string();
        let x = origin.x + col as f64 * spacing;
        page.text_centered(
            x,
            origin.y + 2.0 * spacing + piece / 2.0 + COLUMN_LABEL_DROP_MM,
            cx.shape(&letter, Style::Regular, MIN_LABEL_PT),
        );
    }
    for row in 0..3u8 {
        let y = origin.y + (2 - row) as f64 * spacing + ROW_LABEL_DROP_MM;
        page.text_centered(
            origin.x - piece / 2.0 - ROW_LABEL_GAP_MM,
            y,
            cx.shape(&(row + 1).to_string(), Style::Regular, MIN_LABEL_PT),
        );
    }
    let arrows: Vec<(three_men::Move, bool)> = if end {
        ex.moves.last().map(|m| (*m, false)).into_iter().collect()
    } else if let Some((illegal, _)) = &ex.illegal {
        vec![(*illegal, true)]
    } else if ex.from.is_some() {
        ex.shown_moves.iter().map(|m| (*m, false)).collect()
    } else {
        Vec::new()
    };
    for (mv, crossed) in arrows {
        if let three_men::Move::Slide(a, b) = mv {
            // Beside the board line rather than on it, so the arrow stays visible.
            let (from, to) = (at(a), at(b));
            let len = ((to.x - from.x).powi(2) + (to.y - from.y).powi(2)).sqrt();
            let shift = spacing * ARROW_SHIFT;
            let (nx, ny) = ((from.y - to.y) / len * shift, (to.x - from.x) / len * shift);
            let side = |p: Point| Point::new(p.x + nx, p.y + ny);
            draw::arrow(
                page,
                side(from),
                side(to),
                piece * COUNTER_ARROW_INSET,
                ARROW_MM,
                crossed,
            );
        }
    }
}
