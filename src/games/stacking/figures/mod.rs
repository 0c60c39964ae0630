//! Drawings for the stacking games (Stack-top roads, Pathstone): a board of cells
//! with road edges, paper stones, the stack ledger and stack diagrams. Geometry comes
//! from the kit, counts from the rules' variant, positions from the rules module.

use super::{self as stacks, Kind, Piece, Square, StackGame, State, Variant};
use crate::layout::cut::CutLayout;
use crate::layout::diagram::{self, Window};
use crate::layout::diagram_style::{
    self as style, ARROW_INSET, ARROW_LANE_MM, ARROW_MM, CAP_OF_ASCENT, EDGE_LINE_MM,
    GRID_LINE_MM, HEIGHT_LABEL_TOP, KEY_BASELINE_MM, KEY_MIDLINE_MM, KEY_SAMPLE_MM,
    LABEL_GAP_MM, LABEL_STEP_MM, LAYER_MOST, LAYERS_FILL, LETTERED_LAYER_MM, OUTLINE_MM,
    ROAD_TONE, STACK_FOOT, STACK_LEFT, STACK_WIDTH,
};
use crate::layout::draw::{self, Side, cut_tiles, diagram_row, legend_entry, tile_rows};
use crate::layout::flow::Chunk;
use crate::layout::poster::Poster;
use crate::layout::table::{self, Columns, Head};
use crate::layout::{BODY_PT, FigureContext, FigureError, MIN_LABEL_PT};
use crate::page::{Color, Item, Page, Paint, Point, Role, Stroke, Tag};
use crate::text::{self, Reading, Shaper, Style};
use crate::verify::{Verified, When};

mod diagrams;
mod records;

use self::diagrams::{diagram_key, diagrams};
use self::records::{ledger, move_record, reserves};

/// A verified example of a stacking game.
type Example = Verified<StackGame>;

/// The figures these games draw, for error messages.
pub const FIGURES: &[&str] = &[
    "board",
    "stones",
    "crowns",
    "ledger",
    "reserves",
    "moves",
    "diagrams",
    "diagram-key",
];

// The board to play on.

/// The board's grid lines, and its edges: heavy, as a road joins two of them.
const BOARD_LINE_MM: f64 = 0.4;
/// See [`BOARD_LINE_MM`].
const BOARD_EDGE_MM: f64 = 2.2;
/// The legend's sample of an edge.
const EDGE_SAMPLE_MM: f64 = 16.0;

// Pieces to cut out, as shares of a piece's size.

/// White's ring, and its line: White's mark, which Black's cut corners stand for.
const RING: f64 = 0.4;
/// See [`RING`].
const RING_LINE_MM: f64 = 0.35;
/// A thin solid edge inside a faint dashed cut line.
const EDGE_INSET_MM: f64 = 0.6;
/// Black's cut corners: a piece told apart by its shape in the hand.
const CUT_CORNER: f64 = 0.2;
/// A piece's letter in points per millimetre of its size.
const LETTER_PT_PER_MM: f64 = 0.9;
/// The fold line of a folding strip: width, dash and gap.
const FOLD_LINE_MM: (f64, f64, f64) = (0.3, 0.3, 1.2);
/// A wall face's bar: its width, top and height.
const WALL_BAR: (f64, f64, f64) = (0.22, 0.15, 0.7);
/// A wall face's letters: left, right, and their size in points per mm of the piece.
const WALL_LETTERS: (f64, f64, f64) = (0.22, 0.78, 0.36);
/// A Crown's mark, as shares of its radius: its width, top and base above the centre.
const CROWN_MARK: (f64, f64, f64) = (0.9, 0.75, 0.2);
/// The Crown mark's points: the side points' drop (of the radius), the inner points'
/// place along its width, their drop, and the last inner point's place.
const CROWN_POINTS: (f64, f64, f64, f64) = (0.15, 0.25, 0.3, 0.75);
/// The Crown mark's outline on a dark Crown.
const CROWN_MARK_LINE_MM: f64 = 0.4;
/// A Crown's letter: its drop below the centre (of the radius), its size in points
/// per mm of the piece.
const CROWN_LETTER: (f64, f64) = (0.35, 0.8);
/// The room between rows of pieces of one kind, and between the two sides' pieces.
const PIECES_GAP_MM: f64 = 3.0;
/// See [`PIECES_GAP_MM`].
const SIDES_GAP_MM: f64 = 8.0;
/// Crowns side by side: the gap between the two sides, the captions' line height,
/// first baseline and room under them, and the room after the row or after rows.
const CROWNS_GAP_MM: f64 = 3.0;
/// See [`CROWNS_GAP_MM`].
const CAPTION_LINE_MM: f64 = 4.6;
/// See [`CROWNS_GAP_MM`].
const CAPTION_BASELINE_MM: f64 = 3.6;
/// See [`CROWNS_GAP_MM`].
const CAPTION_AFTER_MM: f64 = 1.5;
/// See [`CROWNS_GAP_MM`].
const CROWNS_AFTER_MM: f64 = 4.0;
/// See [`CROWNS_GAP_MM`].
const CROWN_ROWS_AFTER_MM: f64 = 6.0;

// Ledgers and records.

/// The narrowest widths of the ledger's columns before the stacks (turn, player,
/// action, drops) and after them (road, each side's stones left).
const LEDGER_LEAST_MM: [f64; 7] = [9.0, 9.0, 19.0, 15.0, 11.0, 10.0, 10.0];
/// The widest a ledger column grows to fit its heading.
const LEDGER_WIDEST_MM: f64 = 30.0;
/// The room a square's heading leaves in its column, and a stock heading on one line.
const HEAD_ROOM_MM: f64 = 1.2;
/// See [`HEAD_ROOM_MM`].
const STOCK_ROOM_MM: f64 = 1.5;
/// The widest the stock columns grow to keep their headings on one line.
const STOCK_ONE_LINE_MM: f64 = 13.0;
/// Boxes to cross out for pieces in hand: the box, the gap after the label, the
/// label's baseline, the room after a side's rows.
const RESERVE_BOX_MM: f64 = 5.0;
/// See [`RESERVE_BOX_MM`].
const RESERVE_LABEL_GAP_MM: f64 = 3.0;
/// See [`RESERVE_BOX_MM`].
const RESERVE_BASELINE_MM: f64 = 4.2;
/// See [`RESERVE_BOX_MM`].
const RESERVES_AFTER_MM: f64 = 1.5;
/// The move record: the gap between blocks, a block's width, the move number's
/// narrowest and widest column, the room before it.
const RECORD_GAP_MM: f64 = 8.0;
/// See [`RECORD_GAP_MM`].
const RECORD_BLOCK_MM: f64 = 80.0;
/// See [`RECORD_GAP_MM`].
const RECORD_NUMBER_MM: (f64, f64) = (12.0, 20.0);
/// See [`RECORD_GAP_MM`].
const RECORD_BEFORE_MM: f64 = 4.0;

// Diagrams.

/// The symbol key's samples: a flat's top, width and height, the second flat's
/// place; a wall's or Crown's place and width; a wall's and a Crown's top and layer;
/// the numbers' places; the road's shading.
const KEY_FLAT_MM: (f64, f64, f64) = (1.2, 6.0, 2.6);
/// See [`KEY_FLAT_MM`].
const KEY_SECOND_FLAT_MM: f64 = 7.5;
/// See [`KEY_FLAT_MM`].
const KEY_UPRIGHT_MM: (f64, f64) = (3.0, 8.0);
/// See [`KEY_FLAT_MM`].
const KEY_WALL_MM: (f64, f64) = (2.2, 1.8);
/// See [`KEY_FLAT_MM`].
const KEY_CROWN_MM: (f64, f64) = (1.8, 2.2);
/// See [`KEY_FLAT_MM`].
const KEY_NUMBERS_MM: (f64, f64) = (4.0, 10.0);
/// See [`KEY_FLAT_MM`].
const KEY_ROAD_MM: (f64, f64) = (10.0, 4.4);
/// A caption's margin within its slot.
const CAPTION_MARGIN_MM: f64 = 4.0;
/// Large print: a layer that holds its letter at 12 pt, and the least cell.
const LARGE_LAYER_MM: f64 = 3.8;
/// See [`LARGE_LAYER_MM`].
const LARGE_CELL_MM: f64 = 20.0;
/// A diagram's coordinates: the column letters' baseline under the diagram and the
/// row numbers' gap beside it, per label size step.
const COLUMN_LABEL_DROP_MM: f64 = 4.0;
/// See [`COLUMN_LABEL_DROP_MM`].
const ROW_LABEL_GAP_MM: f64 = 3.0;
/// A wall drawn side-on: its width as a share of a flat's.
const WALL_WIDTH: f64 = 0.3;
/// A Crown drawn side-on: its sides as shares of a flat's width.
const CROWN_SIDES: (f64, f64) = (0.2, 0.8);
/// The largest letter on a layer.
const LAYER_LETTER_MOST_PT: f64 = 8.0;
/// A refused carry's stones, as shares of a cell: a layer's height, its left side
/// and width; their letters in points per mm of a layer.
const WRONG_DROP: (f64, f64, f64) = (0.2, 0.2, 0.6);
/// See [`WRONG_DROP`].
const WRONG_DROP_LETTER: f64 = 2.2;
/// A stone not played: dashed.
const NOT_PLAYED_DASH_MM: f64 = 0.8;
/// The cross on a stone that may not land first: its reach past the stone, its line.
const CROSS_REACH_MM: f64 = 1.5;
/// See [`CROSS_REACH_MM`].
const CROSS_LINE_MM: f64 = 0.45;

/// Draws figure `name` for `variant`.
pub fn figure(
    variant: &Variant,
    name: &str,
    args: &[String],
    cx: &FigureContext,
    examples: &[Example],
) -> Result<Vec<Chunk>, FigureError> {
    match name {
        "board" => board(variant, cx),
        // Games with walls need stones with a wall face: fold-over strips.
        "stones" if variant.walls => folding_stones(variant, cx),
        "stones" => stones(variant, cx),
        "crowns" => crowns(variant, cx),
        "ledger" => ledger(variant, cx),
        "reserves" => reserves(variant, cx),
        "moves" => move_record(cx),
        "diagrams" => diagrams(args, cx, examples),
        "diagram-key" => diagram_key(variant, cx),
        _ => Err(format!(
            "unknown figure `@{name}`, expected one of: {}",
            FIGURES.join(", ")
        )
        .into()),
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

fn board(variant: &Variant, cx: &FigureContext) -> Result<Vec<Chunk>, FigureError> {
    let cell = cx.kit.board.spacing_mm;
    let n = variant.size;
    let span = n as f64 * cell;
    let label_band = draw::label_band(span, cx.width);
    let total = span + 2.0 * label_band;
    let mut page = Page::new(0.0, 0.0);
    let origin = Point::new(label_band, label_band);
    cells(&mut page, origin, cell, n, BOARD_LINE_MM);
    // The four edges: heavy, because a road is a chain of cells joining two of them.
    // Drawn as lines, so that a board split into parts keeps its edges on each part.
    let edge = Stroke::solid(BOARD_EDGE_MM);
    let (x0, y0, x1, y1) = (origin.x, origin.y, origin.x + span, origin.y + span);
    for (a, b) in [
        ((x0, y0), (x1, y0)),
        ((x1, y0), (x1, y1)),
        ((x1, y1), (x0, y1)),
        ((x0, y1), (x0, y0)),
    ] {
        page.line(Point::new(a.0, a.1), Point::new(b.0, b.1), edge);
    }
    let columns: Vec<f64> = (0..n).map(|c| origin.x + (c as f64 + 0.5) * cell).collect();
    let rows: Vec<f64> =
        (0..n).map(|r| origin.y + (n - 1 - r) as f64 * cell + cell / 2.0).collect();
    draw::coordinates(
        cx.shaper,
        &mut page,
        (x0, y0, x1, y1),
        &columns,
        &rows,
        label_band,
    );
    // The legend comes first: a board too large for the paper continues on parts.
    let mut chunks =
        legend_entry(cx, "board.legend_edges", EDGE_SAMPLE_MM, &|page, x| {
            let y = KEY_MIDLINE_MM;
            let edge = Stroke::solid(BOARD_EDGE_MM);
            page.line(Point::new(x, y), Point::new(x + EDGE_SAMPLE_MM, y), edge)
        })?;
    chunks.push(Chunk::space(PIECES_GAP_MM));
    let seams_x = (0..=n).map(|k| origin.x + k as f64 * cell).collect();
    let seams_y = (0..=n).map(|k| origin.y + k as f64 * cell).collect();
    draw::board_drawing(cx, &mut page.items)?;
    chunks.push(Chunk::poster(Poster::new(
        total,
        total,
        page.items,
        draw::poster_labels(cx)?,
        cx.width,
        seams_x,
        seams_y,
    )));
    Ok(chunks)
}

/// The grid lines of an `n`×`n` board of `cell`-sized cells.
fn cells(page: &mut Page, origin: Point, cell: f64, n: u8, width: f64) {
    draw::grid(page, origin, cell, n + 1, Stroke::solid(width));
}

/// Each player's stones (and Crowns, if the game has them), with cut lines.
fn stones(variant: &Variant, cx: &FigureContext) -> Result<Vec<Chunk>, FigureError> {
    let size = cx.kit.pieces.size_mm;
    let count = (variant.stones + cx.kit.pieces.spares) as usize;
    let mut chunks = Vec::new();
    for color in stacks::Color::ALL {
        let tiles =
            cut_tiles(count, size, cx.width, (cx.reading, cx.cut), &|page, centre| {
                let corner = Point::new(centre.x - size / 2.0, centre.y - size / 2.0);
                stone(cx.shaper, page, corner, size, color, cx.cut.outline())
            });
        let key = format!("stones.caption_{}", color.to_string().to_lowercase());
        chunks.extend(draw::pieces(cx, &key, tiles)?);
        chunks.push(Chunk::space(SIDES_GAP_MM));
    }
    Ok(chunks)
}

/// A flat stone, `size` mm square, top-left at `at`: White is a white square with a
/// ring, Black a dark square with cut corners; each carries its letter. `outline` is
/// the cut line on a sheet of pieces.
fn stone(
    shaper: &Shaper,
    page: &mut Page,
    at: Point,
    size: f64,
    color: stacks::Color,
    outline: Stroke,
) {
    let center = Point::new(at.x + size / 2.0, at.y + size / 2.0);
    match side(color) {
        Side::Light => {
            page.rect(at, size, size, Paint::both(Color::WHITE, outline));
            page.circle(center, size * RING, Paint::outline(Stroke::solid(RING_LINE_MM)));
            if outline.dash.is_some() {
                // A cut line alone is faint: a thin solid edge just inside it.
                let i = EDGE_INSET_MM;
                page.rect(
                    Point::new(at.x + i, at.y + i),
                    size - 2.0 * i,
                    size - 2.0 * i,
                    Paint::outline(Stroke::solid(OUTLINE_MM)),
                );
            }
        }
        Side::Dark => {
            let c = size * CUT_CORNER;
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
            page.polygon(corners, Paint::both(Color::gray(style::DARK_TONE), outline));
        }
    }
    letter(shaper, page, center, size * LETTER_PT_PER_MM, (color, Color::BLACK));
}

fn letter(
    shaper: &Shaper,
    page: &mut Page,
    center: Point,
    size_pt: f64,
    (color, ink): (stacks::Color, Color),
) {
    // Small diagram pieces still carry a letter one can read.
    let size_pt = size_pt.max(MIN_LABEL_PT);
    let shaped = shaper.shape(&color.to_string(), Style::Bold, size_pt, Reading::Natural);
    let (ascent, _) = text::vertical_metrics_mm(Style::Bold, size_pt);
    let origin = Point::new(
        center.x - shaped.width_mm() / 2.0,
        center.y + ascent * draw::CAP_HEIGHT / 2.0,
    );
    page.items.push(Item::Text { origin, shaped, color: ink });
}

/// Stones for games with walls: a strip of two faces, folded in half and glued. The
/// top face (letter) is the flat side, the bottom face (a heavy bar) the wall side. The
/// strip's outline is its cut line: a plain rectangle for White, cut corners and
/// notches at the fold for Black, so that a folded Black stone has four cut corners.
fn folding_stones(
    variant: &Variant,
    cx: &FigureContext,
) -> Result<Vec<Chunk>, FigureError> {
    let size = cx.kit.pieces.size_mm;
    let count = (variant.stones + cx.kit.pieces.spares) as usize;
    let mut chunks = Vec::new();
    for color in stacks::Color::ALL {
        let tiles = tile_rows(
            count,
            (size, 2.0 * size),
            cx.width,
            (cx.reading, cx.cut),
            &|page, at| folding_strip(cx.shaper, page, at, size, color, cx.cut),
        );
        let key = format!("stones.caption_{}", color.to_string().to_lowercase());
        chunks.extend(draw::pieces(cx, &key, tiles)?);
        chunks.push(Chunk::space(PIECES_GAP_MM));
    }
    Ok(chunks)
}

/// The outline of a folding strip `size` wide and `2 × size` tall, top-left at `at`.
pub fn strip_outline(at: Point, size: f64, color: stacks::Color) -> Vec<Point> {
    let (x0, y0, x1) = (at.x, at.y, at.x + size);
    let (ym, y1) = (y0 + size, y0 + 2.0 * size);
    let p = Point::new;
    match side(color) {
        Side::Light => vec![p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1)],
        Side::Dark => {
            let c = size * CUT_CORNER;
            vec![
                p(x0 + c, y0),
                p(x1 - c, y0),
                p(x1, y0 + c),
                p(x1, ym - c),
                p(x1 - c, ym),
                p(x1, ym + c),
                p(x1, y1 - c),
                p(x1 - c, y1),
                p(x0 + c, y1),
                p(x0, y1 - c),
                p(x0, ym + c),
                p(x0 + c, ym),
                p(x0, ym - c),
                p(x0, y0 + c),
            ]
        }
    }
}

/// A folding strip: one path that is both the strip's tone and its cut line, the flat
/// face's letter on top, the fold, and the wall face's bar below.
fn folding_strip(
    shaper: &Shaper,
    page: &mut Page,
    at: Point,
    size: f64,
    color: stacks::Color,
    cut: CutLayout,
) {
    let fill = match side(color) {
        Side::Light => Color::WHITE,
        Side::Dark => Color::gray(style::DARK_TONE),
    };
    page.polygon(strip_outline(at, size, color), Paint::both(fill, cut.outline()));
    let center = Point::new(at.x + size / 2.0, at.y + size / 2.0);
    if side(color) == Side::Light {
        page.circle(center, size * RING, Paint::outline(Stroke::solid(RING_LINE_MM)));
    }
    letter(shaper, page, center, size * LETTER_PT_PER_MM, (color, Color::BLACK));
    let fold_y = at.y + size;
    let inset = if side(color) == Side::Dark { size * CUT_CORNER } else { 0.0 };
    page.line(
        Point::new(at.x + inset, fold_y),
        Point::new(at.x + size - inset, fold_y),
        fold_stroke(),
    );
    wall_face(shaper, page, Point::new(at.x, fold_y), size, color);
}

/// The house fold line: black and dotted, unlike the grey dashed cut line.
fn fold_stroke() -> Stroke {
    Stroke::dashed(FOLD_LINE_MM.0, FOLD_LINE_MM.1, FOLD_LINE_MM.2)
}

/// The wall side's mark: a heavy upright bar, a symbol that reads the same either way
/// up (the face is upside down until folded), with the owner's letter small on each
/// side of it, so that a wall is told apart by its letter as well as by its shade.
fn wall_face(
    shaper: &Shaper,
    page: &mut Page,
    at: Point,
    size: f64,
    color: stacks::Color,
) {
    let bar_w = size * WALL_BAR.0;
    // Black on White's wall; on Black's grey wall an outlined white bar, which reads
    // as clearly for a fraction of the toner.
    let paint = match side(color) {
        Side::Light => Paint::fill(Color::BLACK),
        Side::Dark => Paint::both(Color::WHITE, Stroke::solid(0.5)),
    };
    page.rect(
        Point::new(at.x + (size - bar_w) / 2.0, at.y + size * WALL_BAR.1),
        bar_w,
        size * WALL_BAR.2,
        paint,
    );
    let y = at.y + size / 2.0;
    for x in [at.x + size * WALL_LETTERS.0, at.x + size * WALL_LETTERS.1] {
        letter(
            shaper,
            page,
            Point::new(x, y),
            size * WALL_LETTERS.2,
            (color, Color::BLACK),
        );
    }
}

/// Each player's Crowns; nothing at a size that has none, whose sheets never name them.
fn crowns(variant: &Variant, cx: &FigureContext) -> Result<Vec<Chunk>, FigureError> {
    if variant.crowns == 0 {
        return Ok(Vec::new());
    }
    let size = cx.kit.pieces.size_mm;
    // The rules' Crowns and the kit's spares, as for the stones.
    let count = (variant.crowns + cx.kit.pieces.spares) as usize;
    // A few Crowns a side: both sides in one row, each under its own caption, rather
    // than two short rows that may be carried to a sheet of their own.
    let half = cx.width / 2.0;
    if draw::row_sizes(count, size, half - CROWNS_GAP_MM, cx.cut).len() == 1 {
        let mut page = Page::new(0.0, 0.0);
        let mut top: f64 = 0.0;
        let (mut captions, mut alt) = (Vec::new(), Vec::new());
        for color in stacks::Color::ALL {
            let key = format!("stones.crowns_{}", color.to_string().to_lowercase());
            alt.push(cx.text(&key)?);
            let lines = cx.fit(&key, Style::Bold, BODY_PT, half - CROWNS_GAP_MM, 2)?;
            top = top.max(lines.len() as f64 * CAPTION_LINE_MM + CAPTION_AFTER_MM);
            captions.push(lines);
        }
        for (i, (color, lines)) in stacks::Color::ALL.iter().zip(captions).enumerate() {
            let x0 = cx.slot(i, 2) as f64 * half;
            for (j, line) in lines.into_iter().enumerate() {
                let x = if cx.reading.rtl() { x0 + half - line.width_mm() } else { x0 };
                let y = CAPTION_BASELINE_MM + j as f64 * CAPTION_LINE_MM;
                page.text(Point::new(x, y), line);
            }
            let pitch = size + cx.cut.gap();
            for k in 0..count {
                let step = k as f64 * pitch;
                let cx0 = if cx.reading.rtl() {
                    x0 + half - step - size / 2.0
                } else {
                    x0 + step + size / 2.0
                };
                crown(
                    cx.shaper,
                    &mut page,
                    Point::new(cx0, top + size / 2.0),
                    size,
                    *color,
                    cx.cut,
                );
            }
            if cx.cut == CutLayout::Grid {
                let left =
                    if cx.reading.rtl() { x0 + half - count as f64 * size } else { x0 };
                draw::row_cuts(&mut page, (left, top), (size, size), count);
            }
        }
        // Both captions and their Crowns, read as one drawing the captions describe.
        Tag::wrap_all(Role::Figure { alt: alt.join(". ") }, &mut page.items);
        return Ok(vec![
            Chunk::new(top + size + cx.cut.gap(), page.items),
            Chunk::space(CROWNS_AFTER_MM),
        ]);
    }
    let mut chunks = Vec::new();
    for color in stacks::Color::ALL {
        let tiles =
            cut_tiles(count, size, cx.width, (cx.reading, cx.cut), &|page, centre| {
                crown(cx.shaper, page, centre, size, color, cx.cut)
            });
        let key = format!("stones.crowns_{}", color.to_string().to_lowercase());
        chunks.extend(draw::pieces(cx, &key, tiles)?);
        chunks.push(Chunk::space(CROWN_ROWS_AFTER_MM));
    }
    Ok(chunks)
}

/// A Crown: a round piece with a three-pointed crown above its letter, unlike any stone.
fn crown(
    shaper: &Shaper,
    page: &mut Page,
    center: Point,
    size: f64,
    color: stacks::Color,
    cut: CutLayout,
) {
    let (fill, mark) = match side(color) {
        Side::Light => (Color::WHITE, Color::BLACK),
        Side::Dark => (Color::gray(style::DARK_TONE), Color::WHITE),
    };
    let r = size / 2.0;
    page.circle(center, r, Paint::both(fill, cut.outline()));
    let (w, top, base) =
        (r * CROWN_MARK.0, center.y - r * CROWN_MARK.1, center.y - r * CROWN_MARK.2);
    let x0 = center.x - w / 2.0;
    let points = vec![
        Point::new(x0, base),
        Point::new(x0, top + r * CROWN_POINTS.0),
        Point::new(x0 + w * CROWN_POINTS.1, top + r * CROWN_POINTS.2),
        Point::new(x0 + w * 0.5, top),
        Point::new(x0 + w * CROWN_POINTS.3, top + r * CROWN_POINTS.2),
        Point::new(x0 + w, top + r * CROWN_POINTS.0),
        Point::new(x0 + w, base),
    ];
    let outline = Stroke::solid(CROWN_MARK_LINE_MM);
    let paint =
        if mark == Color::WHITE { Paint::both(mark, outline) } else { Paint::fill(mark) };
    page.polygon(points, paint);
    letter(
        shaper,
        page,
        Point::new(center.x, center.y + r * CROWN_LETTER.0),
        size * CROWN_LETTER.1,
        (color, Color::BLACK),
    );
}
