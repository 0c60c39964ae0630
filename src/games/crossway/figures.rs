//! Drawings for Crossway: a Go-style board of intersections with the players' edges
//! marked, paper stones, the move record, and diagrams drawn from positions the rules
//! module computed (legal placements, a winning path, the forbidden checkerboards).

use super::rules::{self as crossway, Crossway, Player, State, stones_needed};
use crate::layout::diagram;
use crate::layout::diagram_style::{
    self as style, CAPTION_PT, CHAIN_TONE, GRID_LINE_MM, KEY_MIDLINE_MM, OUTLINE_MM,
};
use crate::layout::draw::{self, Side, cut_tiles, diagram_row, legend_entry};
use crate::layout::flow::Chunk;
use crate::layout::poster::Poster;
use crate::layout::table::{self, Columns, Head};
use crate::layout::{BODY_PT, FigureContext, FigureError, MIN_LABEL_PT};
use crate::page::{Color, Page, Paint, Point, Role, Stroke, Tag};
use crate::text::{Reading, Shaper, Style};
use crate::verify::{Verified, When};

/// A verified example of this game.
type Example = Verified<Crossway>;

/// The figures this game draws, for error messages.
pub const FIGURES: &[&str] =
    &["board", "stones", "moves", "diagrams", "diagram-key", "checkerboards"];

/// Draws figure `name`.
pub fn figure(
    name: &str,
    args: &[String],
    cx: &FigureContext,
    examples: &[Example],
) -> Result<Vec<Chunk>, FigureError> {
    match name {
        "board" => board(cx, args.iter().any(|a| a == "compact")),
        "stones" => stones(cx),
        "moves" => move_record(cx),
        "diagrams" => diagrams(args, cx, examples),
        "diagram-key" => diagram_key(cx),
        "checkerboards" => checkerboards(cx),
        _ => Err(format!(
            "unknown figure `@{name}`, expected one of: {}",
            FIGURES.join(", ")
        )
        .into()),
    }
}

fn side(player: Player) -> Side {
    match player {
        Player::V => Side::Dark,
        Player::H => Side::Light,
    }
}

/// A stone: V is a grey disc with its V (dark in a diagram, where the V is white), H a
/// white disc with a ring and a black H. A letter reads the same however a round
/// stone is turned. `outline` is the cut line on a sheet of stones.
fn stone(
    shaper: &Shaper,
    page: &mut Page,
    center: Point,
    diameter: f64,
    player: Player,
    (outline, drawn): (Stroke, draw::Drawn),
) {
    let r = diameter / 2.0;
    let (fill, mark) = drawn.inks(side(player));
    page.circle(center, r, Paint::both(fill, outline));
    if side(player) == Side::Light {
        let ring =
            Stroke::solid((diameter * RING_LINE).clamp(RING_LINE_MM.0, RING_LINE_MM.1));
        page.circle(center, r * RING, Paint::outline(ring));
    }
    draw::centred_letter(
        shaper,
        page,
        center,
        &player.to_string(),
        diameter * LETTER_PT_PER_MM,
        mark,
    );
}

/// A stone as drawn in a diagram or legend: a thin solid outline.
fn drawn_stone(
    shaper: &Shaper,
    page: &mut Page,
    center: Point,
    diameter: f64,
    player: Player,
) {
    let outline =
        Stroke::solid((diameter * OUTLINE).clamp(OUTLINE_MM_RANGE.0, OUTLINE_MM_RANGE.1));
    stone(shaper, page, center, diameter, player, (outline, draw::Drawn::InDiagram));
}

/// Column and row pitch from the kit.
fn pitch(cx: &FigureContext) -> (f64, f64) {
    let dx = cx.kit.board.spacing_mm;
    (dx, cx.kit.board.row_spacing_mm.unwrap_or(dx))
}

fn column_letter(col: u8) -> String {
    ((b'a' + col) as char).to_string()
}

/// Room between the outer lines and the players' edge bars.
const BAR_GAP_MM: f64 = 2.0;

/// The board, after its legend. `compact`: the sheet's title is set here too and the
/// legend tightly, with no other words, so that a board that nearly fills the page (9×9
/// at Go spacing, on A4 and on Letter) shares it with them: one sheet, not two.
fn board(cx: &FigureContext, compact: bool) -> Result<Vec<Chunk>, FigureError> {
    let grid = Grid::of(cx);
    let mut page = Page::new(0.0, 0.0);
    grid.draw_bars(&mut page);
    grid.draw_lines(&mut page);
    grid.draw_coordinates(cx, &mut page);
    let mut chunks = Vec::new();
    if compact {
        let mut title =
            cx.lines(&cx.text("board.title")?, Style::Bold, crate::layout::TITLE_PT, 0.0);
        // Still the sheet's title for a screen reader and the outline.
        crate::page::Tag::wrap_text(
            crate::page::Role::Title,
            title.iter_mut().map(|c| &mut c.items),
        );
        chunks.extend(title);
        chunks.push(Chunk::space(1.0));
    }
    let gap = if compact { COMPACT_GAP_MM } else { 2.0 };
    for (key, sample) in [("board.legend_v", Player::V), ("board.legend_h", Player::H)] {
        chunks.extend(legend_entry(cx, key, LEGEND_SAMPLE_MM, &|page, x| {
            let at = Point::new(x + LEGEND_SAMPLE_MM / 2.0, 2.0);
            drawn_stone(cx.shaper, page, at, LEGEND_STONE_MM, sample)
        })?);
        chunks.push(Chunk::space(gap));
    }
    chunks.push(Chunk::space(gap));
    let Grid { n, dx, dy, origin, w, h, margin, .. } = grid;
    // Stones stand on the lines: a board in parts is cut midway between two, never
    // through a point or its coordinate.
    let seams_x = (0..n - 1).map(|i| origin.x + (i as f64 + 0.5) * dx).collect();
    let seams_y = (0..n - 1).map(|i| origin.y + (i as f64 + 0.5) * dy).collect();
    draw::board_drawing(cx, &mut page.items)?;
    let poster = Poster::new(
        w + 2.0 * margin,
        h + 2.0 * margin,
        page.items,
        draw::poster_labels(cx)?,
        cx.width,
        seams_x,
        seams_y,
    );
    chunks.push(Chunk::poster(poster));
    Ok(chunks)
}

/// Where the board's lines, the players' edge bars and the coordinates go.
struct Grid {
    /// Lines each way.
    n: u8,
    /// Column and row pitch.
    dx: f64,
    dy: f64,
    /// The bars' thickness: room for the widest row number.
    bar: f64,
    /// From the drawing's edge to the outer lines: the bar and the gap inside it.
    margin: f64,
    /// The top-left point.
    origin: Point,
    /// The grid's width and height, outer line to outer line.
    w: f64,
    h: f64,
    /// Size of the coordinates.
    label_pt: f64,
}

impl Grid {
    fn of(cx: &FigureContext) -> Grid {
        let n = cx.size;
        let (dx, dy) = pitch(cx);
        // The players' edges are bars just outside the grid, and the coordinates are
        // set inside them, so the furniture takes 7 mm a side and a 9×9 board fits one
        // sheet.
        let label_pt = BAR_LABEL_PT;
        let digits = cx.shape(&n.to_string(), Style::Bold, label_pt).width_mm();
        let bar = (digits + BAR_MARGIN_MM).max(BAR_LEAST_MM);
        let margin = BAR_GAP_MM + bar;
        let (w, h) = ((n - 1) as f64 * dx, (n - 1) as f64 * dy);
        let origin = Point::new(margin, margin);
        Grid { n, dx, dy, bar, margin, origin, w, h, label_pt }
    }

    /// The tops of the North and South bars.
    fn bar_tops(&self) -> [f64; 2] {
        [self.origin.y - BAR_GAP_MM - self.bar, self.origin.y + self.h + BAR_GAP_MM]
    }

    /// The left edges of the West and East bars.
    fn bar_lefts(&self) -> [f64; 2] {
        [self.origin.x - BAR_GAP_MM - self.bar, self.origin.x + self.w + BAR_GAP_MM]
    }

    /// V joins North and South (dark bars), H joins West and East (white bars), so
    /// the goal of each side reads without colour.
    fn draw_bars(&self, page: &mut Page) {
        let Grid { dx, dy, bar, origin, w, h, .. } = *self;
        for y in self.bar_tops() {
            page.rect(
                Point::new(origin.x - dx * BAR_OVERHANG, y),
                w + dx * 0.5,
                bar,
                Paint::fill(Color::gray(style::DARK_MARK_TONE)),
            );
        }
        for x in self.bar_lefts() {
            page.rect(
                Point::new(x, origin.y - dy * BAR_OVERHANG),
                bar,
                h + dy * 0.5,
                Paint::both(Color::WHITE, Stroke::solid(0.5)),
            );
        }
    }

    fn draw_lines(&self, page: &mut Page) {
        let Grid { n, dx, dy, origin, w, h, .. } = *self;
        let line = Stroke::solid(GRID_LINE_MM);
        for i in 0..n {
            let x = origin.x + i as f64 * dx;
            let y = origin.y + i as f64 * dy;
            page.line(Point::new(x, origin.y), Point::new(x, origin.y + h), line);
            page.line(Point::new(origin.x, y), Point::new(origin.x + w, y), line);
        }
    }

    /// Column letters in white on the dark bars, row numbers on the white ones,
    /// counted from the bottom.
    fn draw_coordinates(&self, cx: &FigureContext, page: &mut Page) {
        let Grid { n, dx, dy, bar, origin, label_pt, .. } = *self;
        let cap = label_pt * style::MM_PER_PT * draw::CAP_HEIGHT;
        for i in 0..n {
            let x = origin.x + i as f64 * dx;
            for bar_top in self.bar_tops() {
                let letter = cx.shape(&column_letter(i), Style::Bold, label_pt);
                let at =
                    Point::new(x - letter.width_mm() / 2.0, bar_top + (bar + cap) / 2.0);
                page.items.push(crate::page::Item::Text {
                    origin: at,
                    shaped: letter,
                    color: Color::WHITE,
                });
            }
            let y = origin.y + (n - 1 - i) as f64 * dy + cap / 2.0;
            let number = (i + 1).to_string();
            for bar_left in self.bar_lefts() {
                page.text_centered(
                    bar_left + bar / 2.0,
                    y,
                    cx.shape(&number, Style::Bold, label_pt),
                );
            }
        }
    }
}

fn stones(cx: &FigureContext) -> Result<Vec<Chunk>, FigureError> {
    let size = cx.kit.pieces.size_mm;
    let (v, h) = stones_needed(cx.size);
    let spares = cx.kit.pieces.spares;
    let mut chunks = Vec::new();
    for (player, count, key) in [
        (Player::V, v, "stones.caption_v_marked"),
        (Player::H, h, "stones.caption_h_marked"),
    ] {
        let tiles = cut_tiles(
            (count + spares) as usize,
            size,
            cx.width,
            (cx.reading, cx.cut),
            &|page, centre| {
                stone(
                    cx.shaper,
                    page,
                    centre,
                    size,
                    player,
                    (cx.cut.outline(), draw::Drawn::ToCut),
                )
            },
        );
        chunks.extend(draw::pieces(cx, key, tiles)?);
        chunks.push(Chunk::space(SIDES_GAP_MM));
    }
    Ok(chunks)
}

/// The winner's path first (a few ruled lines, so it never ends up on a page of its
/// own), then one numbered row per turn: who played it (after a swap, V's turns are no
/// longer the odd ones) and the point, swap or pass. Rows past the most a game can
/// need are spares that fill the last page.
fn move_record(cx: &FigureContext) -> Result<Vec<Chunk>, FigureError> {
    let n = cx.size as u32;
    let mut chunks: Vec<Chunk> = cx
        .lines(&cx.text("ledger.path")?, Style::Bold, BODY_PT, 0.0)
        .into_iter()
        .map(Chunk::keep)
        .collect();
    let mut write = Page::new(0.0, 0.0);
    for i in 0..2 {
        let y = PATH_FIRST_LINE_MM + i as f64 * table::ROW_MM;
        write.line(Point::new(0.0, y), Point::new(cx.width, y), table::cell_rule());
    }
    let path_h = PATH_FIRST_LINE_MM + table::ROW_MM + PATH_AFTER_MM;
    chunks.push(Chunk::new(path_h, write.items));
    // Every point can be filled once, plus the swap; passes are rare.
    let turns = n * n + 1;
    let gap = RECORD_GAP_MM;
    let (blocks, block_width) = table::blocks(cx.width, cx.mm(RECORD_BLOCK_MM), gap, 6);
    let (least, most) = RECORD_TURN_MM;
    let turn_w = table::fitted_width(cx, "ledger.col_move", least, most)?;
    let (least, most) = RECORD_WHO_MM;
    let who_w = table::fitted_width(cx, "ledger.col_who", least, most)?;
    let widths = [turn_w, who_w, block_width - turn_w - who_w];
    let cols = Columns::new(&widths, cx.reading);
    let heads = [
        Head::Key("ledger.col_move"),
        Head::Key("ledger.col_who"),
        Head::Key("ledger.col_play"),
    ];
    let header = cols.header(cx, &heads, None)?;
    // Spares enough to fill a page of blocks, trimmed to the page the record ends on.
    let spare = 40 * blocks as u32;
    let rows = (1..=turns + spare)
        .map(|turn| {
            let mut row = cols.row(table::ROW_MM, &[1, 2]);
            cols.label(&mut row, cx, 0, table::ROW_MM, &turn.to_string());
            Chunk::new(table::ROW_MM, row.items)
        })
        .collect();
    chunks.push(cols.table(header, rows, blocks, gap, spare as usize));
    Ok(chunks)
}

/// Each player's points in `state`, for a diagram's alternative text.
fn position_words(cx: &FigureContext, state: &State) -> Result<String, String> {
    let n = state.size();
    let points = |player| {
        let all =
            (0..n).flat_map(|row| (0..n).map(move |col| crossway::Point { col, row }));
        all.filter(|&p| state.stone(p) == Some(player)).map(|p| p.to_string()).collect()
    };
    let players =
        [Player::V, Player::H].map(|player| (player.to_string(), points(player)));
    draw::players_words(cx, &players)
}

/// Rows of small boards, one per `example:when` argument (`:marks` adds a "?" on
/// every point the example's legal moves name), the end of an example with its
/// winning path. Points are at least [`diagram::least_cell`] apart; diagrams share a
/// row while each keeps that room.
fn diagrams(
    args: &[String],
    cx: &FigureContext,
    examples: &[Example],
) -> Result<Vec<Chunk>, FigureError> {
    cx.diagram_slots(args, 2)?;
    let mut drawn = Vec::new();
    for arg in args {
        let (ex, when, state) = cx.diagram_position(examples, arg)?;
        drawn.push((arg, ex, when, state, diagram::least_cell(ex.puzzle, 0, 1.0)));
    }
    // The lines end half a step inside the edge bars: a board is `n` steps wide.
    let needs: Vec<f64> =
        drawn.iter().map(|d| d.3.size() as f64 * d.4 + DIAGRAM_FRAME_MM).collect();
    let mut chunks = Vec::new();
    for row in diagram::rows(cx.width, &needs, 2) {
        let count = row.len();
        let slot = diagram::slot_width(cx.width, &needs[row.clone()], 2);
        let left = (cx.width - slot * count as f64) / 2.0;
        let mut page = Page::new(0.0, 0.0);
        let (mut captions, mut positions) = (Vec::new(), Vec::new());
        let mut board_h: f64 = 0.0;
        for (i, &(arg, ex, when, state, least)) in drawn[row].iter().enumerate() {
            let n = state.size();
            let step = ((slot - DIAGRAM_FRAME_MM) / n as f64)
                .min(cx.mm(DIAGRAM_MOST_STEP_MM).max(least));
            let origin = Point::new(
                left + cx.slot(i, count) as f64 * slot
                    + (slot - (n - 1) as f64 * step) / 2.0,
                step * 0.5 + DIAGRAM_TOP_MM,
            );
            draw_example(
                cx,
                &mut page,
                (origin, step),
                (ex, when, state),
                arg.ends_with(":marks"),
            );
            let key = if when == When::End { "caption_end" } else { "caption" };
            let caption = cx.text(&format!("examples.{}.{key}", ex.id))?;
            let caption_w = slot - CAPTION_MARGIN_MM;
            captions.push(cx.wrap(&caption, Style::Regular, CAPTION_PT, caption_w));
            positions.push(position_words(cx, state)?);
            board_h = board_h
                .max(origin.y + (n - 1) as f64 * step + step * 0.5 + DIAGRAM_BOTTOM_MM);
        }
        chunks.push(diagram_row(cx, page, (&captions, &positions), left, slot, board_h));
    }
    Ok(chunks)
}

/// The key to the symbols of the diagrams: both players' stones, a marked point and
/// a winning chain's band, as `diagrams` draws them.
fn diagram_key(cx: &FigureContext) -> Result<Vec<Chunk>, FigureError> {
    let stones = |page: &mut Page, x: f64| {
        // As large as the letters' smallest size allows.
        let (v, h, size) = KEY_STONES_MM;
        drawn_stone(cx.shaper, page, Point::new(x + v, KEY_MIDLINE_MM), size, Player::V);
        drawn_stone(cx.shaper, page, Point::new(x + h, KEY_MIDLINE_MM), size, Player::H);
    };
    let mark = |page: &mut Page, x: f64| {
        let ring = Paint::both(Color::WHITE, Stroke::solid(0.5));
        let (mid, radius, baseline, pt) = KEY_MARK_MM;
        page.circle(Point::new(x + mid, KEY_MIDLINE_MM), radius, ring);
        page.text_centered(x + mid, baseline, cx.shape("?", Style::Bold, pt));
    };
    let chain = |page: &mut Page, x: f64| {
        let (start, end, width) = KEY_CHAIN_MM;
        let band = Stroke::solid(width).colored(Color::gray(CHAIN_TONE));
        let y = KEY_MIDLINE_MM;
        page.line(Point::new(x + start, y), Point::new(x + end, y), band);
    };
    draw::symbol_key(
        cx,
        &[
            ("diagrams.key_stones", &stones),
            ("diagrams.key_marks", &mark),
            ("diagrams.key_chain", &chain),
        ],
    )
}

/// A stone, as shares of its diameter: White's inner ring and its line (kept between
/// two bounds), the letter in points per mm, a drawn stone's outline (kept between
/// two bounds).
const RING: f64 = 0.84;
/// See [`RING`].
const RING_LINE: f64 = 0.015;
/// See [`RING`].
const RING_LINE_MM: (f64, f64) = (0.15, 0.35);
/// See [`RING`].
const LETTER_PT_PER_MM: f64 = 1.05;
/// See [`RING`].
const OUTLINE: f64 = 0.03;
/// See [`RING`].
const OUTLINE_MM_RANGE: (f64, f64) = (0.25, 0.6);
/// A stone in a diagram, as a share of the points' distance: neighbours stay apart.
const STONE: f64 = 0.8;
/// The board's legend: a sample's width and stone, the gap between lines on a
/// compact board.
const LEGEND_SAMPLE_MM: f64 = 8.0;
/// See [`LEGEND_SAMPLE_MM`].
const LEGEND_STONE_MM: f64 = 7.0;
/// See [`LEGEND_SAMPLE_MM`].
const COMPACT_GAP_MM: f64 = 1.5;
/// The edge bars' coordinates, the room around the widest, the narrowest bar, and
/// how far a bar reaches past the outer lines (of the points' distance).
const BAR_LABEL_PT: f64 = 8.0;
/// See [`BAR_LABEL_PT`].
const BAR_MARGIN_MM: f64 = 1.6;
/// See [`BAR_LABEL_PT`].
const BAR_LEAST_MM: f64 = 5.0;
/// See [`BAR_LABEL_PT`].
const BAR_OVERHANG: f64 = 0.25;
/// The room after each side's stones.
const SIDES_GAP_MM: f64 = 6.0;
/// The winner's path: the first ruled line's height, the room after the lines.
const PATH_FIRST_LINE_MM: f64 = 8.0;
/// See [`PATH_FIRST_LINE_MM`].
const PATH_AFTER_MM: f64 = 4.0;
/// The move record: the gap between blocks, a block's width, the turn's and the
/// player's narrowest and widest columns.
const RECORD_GAP_MM: f64 = 6.0;
/// See [`RECORD_GAP_MM`].
const RECORD_BLOCK_MM: f64 = 50.0;
/// See [`RECORD_GAP_MM`].
const RECORD_TURN_MM: (f64, f64) = (10.0, 20.0);
/// See [`RECORD_GAP_MM`].
const RECORD_WHO_MM: (f64, f64) = (12.0, 20.0);
/// A diagram: the largest distance between points, the room above the first row's
/// stones, below the last row's for the coordinates, and a caption's margin.
const DIAGRAM_MOST_STEP_MM: f64 = 12.0;
/// See [`DIAGRAM_MOST_STEP_MM`].
const DIAGRAM_TOP_MM: f64 = 3.0;
/// See [`DIAGRAM_MOST_STEP_MM`].
const DIAGRAM_BOTTOM_MM: f64 = 8.0;
/// See [`DIAGRAM_MOST_STEP_MM`].
const CAPTION_MARGIN_MM: f64 = 4.0;
/// A diagram's edge bars, and its coordinates' distance from them per label size step.
const DIAGRAM_BAR_MM: f64 = 1.2;
/// See [`DIAGRAM_BAR_MM`].
const COLUMN_LABEL_DROP_MM: f64 = 3.0;
/// See [`DIAGRAM_BAR_MM`].
const ROW_LABEL_GAP_MM: f64 = 2.2;
/// A winning chain's band, as a share of the points' distance.
const CHAIN_BAND: f64 = 0.45;
/// A marked point, as shares of the points' distance: the disc's radius, the "?" in
/// points per mm, its baseline below the point.
const MARK: (f64, f64, f64) = (0.3, 1.4, 0.18);
/// The key's samples: the stones' centres and size; the mark's centre, radius,
/// baseline and type; the chain's start, end and width.
const KEY_STONES_MM: (f64, f64, f64) = (3.2, 10.8, 6.4);
/// See [`KEY_STONES_MM`].
const KEY_MARK_MM: (f64, f64, f64, f64) = (7.0, 2.2, 3.6, 9.0);
/// See [`KEY_STONES_MM`].
const KEY_CHAIN_MM: (f64, f64, f64) = (1.0, 13.0, 2.4);
/// The forbidden checkerboards: the points' distance, each pattern's slot, where the
/// lines start (in steps before the first point), the cross's line and reach past
/// the pattern and before it (in steps), the drawing's height in steps, the room
/// under it and after the caption.
const CHECKER_STEP_MM: f64 = 12.0;
/// See [`CHECKER_STEP_MM`].
const CHECKER_SLOT_MM: f64 = 45.0;
/// See [`CHECKER_STEP_MM`].
const CHECKER_LINES_FROM: f64 = 1.5;
/// See [`CHECKER_STEP_MM`].
const CHECKER_CROSS_MM: f64 = 0.9;
/// See [`CHECKER_STEP_MM`].
const CHECKER_CROSS: (f64, f64) = (1.3, 0.3);
/// See [`CHECKER_STEP_MM`].
const CHECKER_STEPS: f64 = 3.0;
/// See [`CHECKER_STEP_MM`].
const CHECKER_BELOW_MM: f64 = 6.0;
/// See [`CHECKER_STEP_MM`].
const CHECKER_AFTER_MM: f64 = 3.0;

/// Room a diagram takes besides its points: the edge bars, the coordinates and a gap.
const DIAGRAM_FRAME_MM: f64 = 16.0;

/// One example's board at `origin` with points `step` apart: its winning path under
/// the stones at its end, and with `marks` a "?" on each point its legal moves name.
fn draw_example(
    cx: &FigureContext,
    page: &mut Page,
    (origin, step): (Point, f64),
    (ex, when, state): (&Example, When, &State),
    marks: bool,
) {
    let n = state.size();
    let at = |p: crossway::Point| {
        Point::new(
            origin.x + p.col as f64 * step,
            origin.y + (n - 1 - p.row) as f64 * step,
        )
    };
    if when == When::End && ex.line.len() > 1 {
        let band = Stroke::solid(step * CHAIN_BAND).colored(Color::gray(CHAIN_TONE));
        let points: Vec<Point> = ex.line.iter().map(|&p| at(p)).collect();
        for pair in points.windows(2) {
            page.line(pair[0], pair[1], band);
        }
    }
    small_board(cx.shaper, page, origin, step, state, (cx.reading, cx.pt(MIN_LABEL_PT)));
    if marks {
        for mv in &ex.legal_moves {
            if let crossway::Move::Place(p) = *mv {
                // A white disc: the grid lines stop at its ring, clear of the mark.
                let ring = Paint::both(Color::WHITE, Stroke::solid(0.5));
                page.circle(at(p), step * MARK.0, ring);
                let q = cx.shape("?", Style::Bold, step * MARK.1);
                page.text_centered(at(p).x, at(p).y + step * MARK.2, q);
            }
        }
    }
}

/// Grid, edge marks, coordinates and stones of a small diagram board.
fn small_board(
    shaper: &Shaper,
    page: &mut Page,
    origin: Point,
    step: f64,
    state: &State,
    (reading, label_pt): (Reading, f64),
) {
    let n = state.size();
    let span = (n - 1) as f64 * step;
    draw::grid(page, origin, step, n, Stroke::solid(OUTLINE_MM));
    let band = DIAGRAM_BAR_MM;
    let off = step * 0.5;
    // Coordinates a label's size from the edge: further for larger type.
    let k = label_pt / MIN_LABEL_PT;
    for i in 0..n {
        let o = i as f64 * step;
        let letter = shaper.shape(&column_letter(i), Style::Regular, label_pt, reading);
        page.text_centered(
            origin.x + o,
            origin.y + span + off + band + COLUMN_LABEL_DROP_MM * k,
            letter,
        );
        let number =
            shaper.shape(&(n - i).to_string(), Style::Regular, label_pt, reading);
        page.text_centered(
            origin.x - off - band - ROW_LABEL_GAP_MM * k,
            origin.y + o + k,
            number,
        );
    }
    for y in [origin.y - off - band, origin.y + span + off] {
        page.rect(
            Point::new(origin.x, y),
            span,
            band,
            Paint::fill(Color::gray(style::DARK_MARK_TONE)),
        );
    }
    for x in [origin.x - off - band, origin.x + span + off] {
        page.rect(
            Point::new(x, origin.y),
            band,
            span,
            Paint::both(Color::WHITE, Stroke::solid(OUTLINE_MM)),
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
                drawn_stone(shaper, page, c, step * STONE, player);
            }
        }
    }
}

/// The two forbidden 2×2 checkerboards, from the rules, each crossed out.
fn checkerboards(cx: &FigureContext) -> Result<Vec<Chunk>, FigureError> {
    let step = CHECKER_STEP_MM;
    let mut page = Page::new(0.0, 0.0);
    let patterns = crossway::forbidden_patterns();
    let slot = CHECKER_SLOT_MM;
    let left = (cx.width - slot * patterns.len() as f64) / 2.0;
    for (i, block) in patterns.iter().enumerate() {
        let at = cx.slot(i, patterns.len()) as f64;
        let origin = Point::new(left + at * slot + (slot - step) / 2.0, step + 2.0);
        let thin = Stroke::solid(OUTLINE_MM);
        for k in 0..4 {
            let o = k as f64 * step - step * CHECKER_LINES_FROM + step / 2.0;
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
                drawn_stone(cx.shaper, &mut page, at, step * STONE, *player);
            }
        }
        let cross = Stroke::solid(CHECKER_CROSS_MM);
        let (a, b) = (step * CHECKER_CROSS.0, step * CHECKER_CROSS.1);
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
    // The two patterns, read as a drawing its caption describes.
    let caption = cx.text("rules.checkerboard_caption")?;
    Tag::wrap_all(Role::Figure { alt: caption.clone() }, &mut page.items);
    let height = CHECKER_STEPS * step + CHECKER_BELOW_MM;
    let mut chunks = vec![Chunk::new(height, page.items)];
    let mut lines = cx.lines(&caption, Style::Regular, CAPTION_PT, 0.0);
    Tag::wrap_text(Role::Paragraph, lines.iter_mut().map(|c| &mut c.items));
    chunks.extend(lines);
    chunks.push(Chunk::space(CHECKER_AFTER_MM));
    Ok(chunks)
}
