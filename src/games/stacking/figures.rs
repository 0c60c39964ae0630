//! Drawings for the stacking games (Stack-top roads, Pathstone): a board of cells
//! with road edges, paper stones, the stack ledger and stack diagrams. Geometry comes
//! from the kit, counts from the rules' variant, positions from the rules module.

use super::{self as stacks, Kind, Piece, Square, StackGame, State, Variant};
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
use crate::layout::{BODY_PT, FigureContext, MIN_LABEL_PT};
use crate::page::{Color, Item, Page, Paint, Point, Role, Stroke, Tag};
use crate::text::{self, Reading, Style};
use crate::verify::{Verified, When};

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
) -> Result<Vec<Chunk>, String> {
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
    draw::coordinates(&mut page, (x0, y0, x1, y1), &columns, &rows, label_band);
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
fn stones(variant: &Variant, cx: &FigureContext) -> Result<Vec<Chunk>, String> {
    let size = cx.kit.pieces.size_mm;
    let count = (variant.stones + cx.kit.pieces.spares) as usize;
    let mut chunks = Vec::new();
    for color in stacks::Color::ALL {
        let tiles =
            cut_tiles(count, size, cx.width, (cx.reading, cx.cut), &|page, centre| {
                let corner = Point::new(centre.x - size / 2.0, centre.y - size / 2.0);
                stone(page, corner, size, color, cx.cut.outline())
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
fn stone(page: &mut Page, at: Point, size: f64, color: stacks::Color, outline: Stroke) {
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
    letter(page, center, size * LETTER_PT_PER_MM, (color, Color::BLACK));
}

fn letter(
    page: &mut Page,
    center: Point,
    size_pt: f64,
    (color, ink): (stacks::Color, Color),
) {
    // Small diagram pieces still carry a letter one can read.
    let size_pt = size_pt.max(MIN_LABEL_PT);
    let shaped = text::shape(&color.to_string(), Style::Bold, size_pt, Reading::Natural);
    let (ascent, _) = text::vertical_metrics_mm(Style::Bold, size_pt);
    let origin = Point::new(
        center.x - shaped.width_mm() / 2.0,
        center.y + ascent * draw::CAP_HEIGHT / 2.0,
    );
    page.items.push(Item::Text { origin, shaped, color: ink });
}

/// One row per turn (or a band of two rows read as one): who played, what, every stack after it (bottom to top) and the
/// reserves left.
fn ledger(variant: &Variant, cx: &FigureContext) -> Result<Vec<Chunk>, String> {
    let turns =
        variant.turn_limit.ok_or("this game has no turn limit to size the ledger")?;
    let n = variant.size;
    let squares: Vec<Square> =
        (0..n).flat_map(|row| (0..n).map(move |col| Square { col, row })).collect();
    // Turn, who, the action, the drops in order; a cell per square for its stack; then
    // whether a road shows, and each side's stones left, as the rules document asks.
    // Each heading's column as narrow as its words allow, the stacks sharing the rest.
    let before = [
        ("ledger.col_turn", LEDGER_LEAST_MM[0]),
        ("ledger.col_player", LEDGER_LEAST_MM[1]),
        ("ledger.col_action", LEDGER_LEAST_MM[2]),
        ("ledger.col_drops", LEDGER_LEAST_MM[3]),
    ];
    let after = [
        ("ledger.col_road", LEDGER_LEAST_MM[4]),
        ("ledger.col_reserve_w", LEDGER_LEAST_MM[5]),
        ("ledger.col_reserve_b", LEDGER_LEAST_MM[6]),
    ];
    let (before_w, after_w) = heading_widths(cx, &before, &after)?;
    let fixed: f64 = before_w.iter().chain(&after_w).sum();
    let cell_w = (cx.width - fixed) / squares.len() as f64;
    let square_heads: Vec<Head> =
        squares.iter().map(|sq| Head::Fixed(stacks::square_name_upper(*sq))).collect();
    let widest_square = square_heads
        .iter()
        .map(|h| match h {
            Head::Fixed(t) => {
                cx.shape(t, Style::Bold, table::HEAD_PT).width_mm() + HEAD_ROOM_MM
            }
            Head::Key(_) => 0.0,
        })
        .fold(table::MIN_CELL_MM, f64::max);
    // Each stack cell holds the tallest stack the rules allow, in handwriting: a row
    // of the turn's columns above a band of roomier stack cells, when that is shorter
    // or the squares do not fit beside the turn's columns.
    let tallest = 2 * (variant.stones + variant.crowns);
    let row_h = stack_cell_height(cell_w, tallest);
    let band_h =
        table::ROW_MM + stack_cell_height(cx.width / squares.len() as f64, tallest);
    if cell_w < widest_square || band_h < row_h {
        let widths = (before_w, after_w);
        return banded_ledger(
            cx,
            (&before, &after),
            widths,
            square_heads,
            (turns, tallest),
        );
    }
    let widths: Vec<f64> = before_w
        .iter()
        .copied()
        .chain(squares.iter().map(|_| cell_w))
        .chain(after_w.iter().copied())
        .collect();
    let cols = Columns::new(&widths, cx.reading);
    let first_square = before.len();
    let mut heads: Vec<Head> = before.iter().map(|(k, _)| Head::Key(k)).collect();
    heads.extend(squares.iter().map(|sq| Head::Fixed(stacks::square_name_upper(*sq))));
    heads.extend(after.iter().map(|(k, _)| Head::Key(k)));
    let group = ("ledger.stacks_label", first_square, first_square + squares.len());
    let header = cols.header(cx, &heads, Some(group))?;
    let ruled: Vec<usize> = (1..widths.len()).collect();
    let rows = (1..=turns)
        .map(|turn| {
            let row = turn_row(cx, &cols, (&ruled, row_h), turn);
            Chunk::new(row_h, row.items)
        })
        .collect();
    Ok(vec![cols.table(header, rows, 1, 0.0, 0)])
}

/// The widths of the ledger's columns before and after the stacks: each heading's
/// column as narrow as its words allow, both sides' stock columns alike.
fn heading_widths(
    cx: &FigureContext,
    before: &[Heading],
    after: &[Heading],
) -> Result<(Vec<f64>, Vec<f64>), String> {
    let fit = |&(key, min): &Heading| table::fitted_width(cx, key, min, LEDGER_WIDEST_MM);
    let before_w = before.iter().map(fit).collect::<Result<Vec<_>, _>>()?;
    let mut after_w = after.iter().map(fit).collect::<Result<Vec<_>, _>>()?;
    // Both sides' stock columns alike, so their headings wrap alike: on one line if
    // that costs little.
    let one_line = |key: &str| -> Result<f64, String> {
        let head = cx.shape(&cx.text(key)?, Style::Bold, table::HEAD_PT);
        Ok((head.width_mm() + STOCK_ROOM_MM).ceil())
    };
    let single = one_line(after[1].0)?.max(one_line(after[2].0)?);
    let stock =
        if single <= STOCK_ONE_LINE_MM { single } else { after_w[1].max(after_w[2]) };
    (after_w[1], after_w[2]) = (stock, stock);
    Ok((before_w, after_w))
}

/// The width of a pencilled capital and the height of a line of handwriting: what a
/// ledger's stack cell must give each stone it may have to record.
const HANDWRITTEN_LETTER_MM: f64 = 3.0;
const HANDWRITING_LINE_MM: f64 = 5.0;

/// The height of a stack cell `width` mm wide that holds `tallest` letters in lines of
/// handwriting (never less than a ledger row).
fn stack_cell_height(width: f64, tallest: u32) -> f64 {
    // A millimetre of the width is the cell's rules and the gap beside them.
    let per_line = ((width - 1.0) / HANDWRITTEN_LETTER_MM).floor().max(1.0);
    let lines = (f64::from(tallest) / per_line).ceil();
    (lines * HANDWRITING_LINE_MM).max(table::ROW_MM)
}

/// A ledger row `height` tall with its turn's number and whose turn it is (turns
/// alternate, White first), in its first two columns.
fn turn_row(
    cx: &FigureContext,
    cols: &Columns,
    (ruled, height): (&[usize], f64),
    turn: u32,
) -> Page {
    let mut row = cols.row(height, ruled);
    cols.label(&mut row, cx, 0, height, &turn.to_string());
    let who = if turn % 2 == 1 { stacks::Color::White } else { stacks::Color::Black };
    let shaped = cx.shape(&who.to_string(), Style::Regular, table::BODY_PT);
    let y = height / 2.0 + table::baseline_drop(cx);
    row.text_centered(cols.mid(1), y, shaped);
    row
}

/// A column heading's strings key and its narrowest width.
type Heading<'k> = (&'k str, f64);

/// The ledger of a board whose stacks need more room than a row beside the turn's
/// columns gives them: each turn is a band of two rows, the turn's columns stretched
/// across the page above a cell for each square's stack, tall enough for `tallest`
/// stones in handwriting.
fn banded_ledger(
    cx: &FigureContext,
    (before, after): (&[Heading], &[Heading]),
    (before_w, after_w): (Vec<f64>, Vec<f64>),
    square_heads: Vec<Head>,
    (turns, tallest): (u32, u32),
) -> Result<Vec<Chunk>, String> {
    let natural: f64 = before_w.iter().chain(&after_w).sum();
    let stretch = cx.width / natural;
    let top_w: Vec<f64> = before_w.iter().chain(&after_w).map(|w| w * stretch).collect();
    let top = Columns::new(&top_w, cx.reading);
    let per_row = square_heads.len();
    let cell_w = cx.width / per_row as f64;
    if cell_w < table::MIN_CELL_MM {
        return Err(format!(
            "the ledger's stack cells would be {cell_w:.0} mm wide: the paper is too narrow"
        ));
    }
    let below = Columns::new(&vec![cell_w; per_row], cx.reading);
    let top_heads: Vec<Head> =
        before.iter().chain(after).map(|(key, _)| Head::Key(key)).collect();
    let header = table::band_header(
        top.header(cx, &top_heads, None)?,
        below.header(cx, &square_heads, Some(("ledger.stacks_label", 0, per_row)))?,
    );
    let all_top: Vec<usize> = (1..top_w.len()).collect();
    let all_below: Vec<usize> = (1..per_row).collect();
    let cells_h = stack_cell_height(cell_w, tallest);
    let rows = (1..=turns)
        .map(|turn| {
            let mut band = turn_row(cx, &top, (&all_top, table::ROW_MM), turn);
            let cells = below.row(cells_h, &all_below);
            band.items
                .extend(cells.items.iter().map(|i| i.translated(0.0, table::ROW_MM)));
            // The band's end: a heavier rule, so that turns stand apart.
            let end = table::ROW_MM + cells_h;
            band.line(
                Point::new(0.0, end),
                Point::new(cx.width, end),
                table::head_rule(),
            );
            Chunk::new(end, band.items)
        })
        .collect();
    Ok(vec![top.banded_table(header, rows, per_row, (1, 0.0, 0))])
}

/// The key to the symbols of the diagrams: the pieces side-on, a stack's numbers, a
/// move's arrow and a road's shading, as `diagrams` draws them.
fn diagram_key(variant: &Variant, cx: &FigureContext) -> Result<Vec<Chunk>, String> {
    let piece = |color, kind| Piece { color, kind };
    let flats = |page: &mut Page, x: f64| {
        layer(
            page,
            Point::new(x, KEY_FLAT_MM.0),
            KEY_FLAT_MM.1,
            KEY_FLAT_MM.2,
            &piece(stacks::Color::White, Kind::Flat),
        );
        layer(
            page,
            Point::new(x + KEY_SECOND_FLAT_MM, KEY_FLAT_MM.0),
            KEY_FLAT_MM.1,
            KEY_FLAT_MM.2,
            &piece(stacks::Color::Black, Kind::Flat),
        );
    };
    let wall = |page: &mut Page, x: f64| {
        layer(
            page,
            Point::new(x + KEY_UPRIGHT_MM.0, KEY_WALL_MM.0),
            KEY_UPRIGHT_MM.1,
            KEY_WALL_MM.1,
            &piece(stacks::Color::White, Kind::Wall),
        );
    };
    let crown = |page: &mut Page, x: f64| {
        layer(
            page,
            Point::new(x + KEY_UPRIGHT_MM.0, KEY_CROWN_MM.0),
            KEY_UPRIGHT_MM.1,
            KEY_CROWN_MM.1,
            &piece(stacks::Color::White, Kind::Crown),
        );
    };
    let numbers = |page: &mut Page, x: f64| {
        let pt = cx.pt(MIN_LABEL_PT);
        let height = text::shape("3", Style::Bold, pt, cx.reading);
        page.text_centered(x + KEY_NUMBERS_MM.0, KEY_BASELINE_MM, height);
        page.text_centered(
            x + KEY_NUMBERS_MM.1,
            KEY_BASELINE_MM,
            text::shape("+2", Style::Regular, pt, cx.reading),
        );
    };
    let arrow = |page: &mut Page, x: f64| {
        let (from, to) = (x, x + KEY_SAMPLE_MM);
        let (from, to) =
            (Point::new(from, KEY_MIDLINE_MM), Point::new(to, KEY_MIDLINE_MM));
        draw::arrow(page, from, to, 0.5, ARROW_MM, false)
    };
    let road = |page: &mut Page, x: f64| {
        let (w, h) = KEY_ROAD_MM;
        page.rect(Point::new(x + 2.0, 0.0), w, h, Paint::fill(Color::gray(ROAD_TONE)));
    };
    let mut entries: Vec<draw::KeyEntry> = vec![("diagrams.key_flats", &flats)];
    if variant.walls {
        entries.push(("diagrams.key_wall", &wall));
    }
    if variant.crowns > 0 {
        entries.push(("diagrams.key_crown", &crown));
    }
    entries.extend([
        ("diagrams.key_numbers", &numbers as &dyn Fn(&mut Page, f64)),
        ("diagrams.key_arrow", &arrow),
        ("diagrams.key_road", &road),
    ]);
    draw::symbol_key(cx, &entries)
}

/// What stands on each square of `state`, row by row from a1, for a diagram's
/// alternative text: a piece by its letter (a wall or a Crown so named), a stack as
/// its pieces from the bottom up.
fn position_words(cx: &FigureContext, state: &State) -> Result<String, String> {
    let n = state.size();
    let comma = cx.text("alt.comma")?;
    let mut groups = Vec::new();
    for row in 0..n {
        for col in 0..n {
            let sq = Square { col, row };
            let stack = state.stack(sq);
            let words = stack
                .iter()
                .map(|p| piece_words(cx, p))
                .collect::<Result<Vec<_>, _>>()?;
            let pieces = match words.len() {
                0 => continue,
                1 => words.concat(),
                _ => draw::filled(cx, "alt.stack", &[("pieces", &words.join(&comma))])?,
            };
            let square = sq.to_string();
            groups.push(draw::filled(
                cx,
                "alt.square",
                &[("square", &square), ("pieces", &pieces)],
            )?);
        }
    }
    draw::position_words(cx, &groups)
}

/// One piece in words: its letter, with `alt.wall` or `alt.crown` round it.
fn piece_words(cx: &FigureContext, piece: &Piece) -> Result<String, String> {
    let letter = piece.color.to_string();
    match piece.kind {
        Kind::Flat => Ok(letter),
        Kind::Wall => draw::filled(cx, "alt.wall", &[("piece", &letter)]),
        Kind::Crown => draw::filled(cx, "alt.crown", &[("piece", &letter)]),
    }
}

/// Rows of small boards, one per `example:when` argument; stacks are drawn as layers,
/// bottom to top. Each example shows the part of its board it is about (see
/// [`Window::around`]) at a cell no smaller than [`diagram::least_cell`]; diagrams
/// share a row while each keeps that room.
fn diagrams(
    args: &[String],
    cx: &FigureContext,
    examples: &[Example],
) -> Result<Vec<Chunk>, String> {
    cx.diagram_slots(args, 2)?;
    let mut drawn = Vec::new();
    for arg in args {
        let (ex, when, state) = cx.diagram_position(examples, arg)?;
        let arrow = match when {
            When::End => ex.moves.last().map(|m| (m, false)),
            When::Start => ex.illegal.as_ref().map(|(m, _)| (m, true)),
        };
        let road = if when == When::End { ex.line.as_slice() } else { &[] };
        let window = window_of(state, road, arrow.map(|(m, _)| m));
        let layers = state.tallest().min(super::drawn_layers(state.size()));
        let cell = diagram::least_cell(ex.puzzle, layers, LAYERS_FILL);
        drawn.push((ex, when, state, arrow, window, cell));
    }
    let needs: Vec<f64> =
        drawn.iter().map(|d| d.4.span() as f64 * d.5 + diagram::FRAME_MM).collect();
    let mut chunks = Vec::new();
    for row in diagram::rows(cx.width, &needs, 2) {
        let count = row.len();
        let slot = diagram::slot_width(cx.width, &needs[row.clone()], 2);
        let left = (cx.width - slot * count as f64) / 2.0;
        let mut page = Page::new(0.0, 0.0);
        let (mut captions, mut positions) = (Vec::new(), Vec::new());
        let mut board_h: f64 = 0.0;
        for (i, &(ex, when, state, arrow, window, least)) in drawn[row].iter().enumerate()
        {
            let span = window.span() as f64;
            let cell = ((slot - diagram::FRAME_MM) / span)
                .min(largest_cell(cx, state))
                .max(least);
            let origin = Point::new(
                left + cx.slot(i, count) as f64 * slot
                    + (slot - window.cols as f64 * cell) / 2.0
                    + 2.0,
                2.0,
            );
            let board = window.board_origin(origin, cell);
            let n = state.size();
            if when == When::End {
                highlight(&mut page, board, cell, n, &ex.line);
            }
            let labels = (cx.reading, cx.pt(MIN_LABEL_PT));
            draw_stacks(&mut page, (origin, window), cell, state, labels);
            if let Some((mv, crossed)) = arrow {
                carry_arrow(&mut page, board, cell, state, mv, crossed);
            }
            let key = if when == When::End { "caption_end" } else { "caption" };
            let caption = cx.text(&format!("examples.{}.{key}", ex.id))?;
            let caption_w = slot - CAPTION_MARGIN_MM;
            captions.push(cx.wrap(
                &caption,
                Style::Regular,
                style::CAPTION_PT,
                caption_w,
            ));
            positions.push(position_words(cx, state)?);
            board_h = board_h.max(window.rows as f64 * cell + diagram::FRAME_MM);
        }
        chunks.push(diagram_row(cx, page, (&captions, &positions), left, slot, board_h));
    }
    Ok(chunks)
}

/// The part of the board a diagram of `state` is about: every piece, the road it
/// shades and the squares its move passes.
fn window_of(state: &State, road: &[Square], mv: Option<&stacks::Move>) -> Window {
    let n = state.size();
    let mut squares: Vec<(u8, u8)> = road.iter().map(|sq| (sq.col, sq.row)).collect();
    for row in 0..n {
        for col in 0..n {
            if !state.stack(Square { col, row }).is_empty() {
                squares.push((col, row));
            }
        }
    }
    match mv {
        Some(stacks::Move::Carry { from, dir, drops, .. }) => {
            let (dc, dr) = dir_step(*dir);
            for k in 0..=drops.len() as i16 {
                let col = (from.col as i16 + dc * k).clamp(0, n as i16 - 1) as u8;
                let row = (from.row as i16 + dr * k).clamp(0, n as i16 - 1) as u8;
                squares.push((col, row));
            }
        }
        Some(stacks::Move::Place { square, .. }) => {
            squares.push((square.col, square.row))
        }
        None => {}
    }
    Window::around(n, squares)
}

/// The column and row steps of a carry's direction.
fn dir_step(dir: stacks::Dir) -> (i16, i16) {
    match dir {
        stacks::Dir::Up => (0, 1),
        stacks::Dir::Down => (0, -1),
        stacks::Dir::Left => (-1, 0),
        stacks::Dir::Right => (1, 0),
    }
}

/// The largest cell of a diagram: [`diagram::MAX_CELL_MM`]; in large print, big enough for every layer
/// of its tallest stack to hold its letter at 12 pt (a 3.8 mm layer), and at least
/// 20 mm, so that two diagrams of small stacks share a page.
fn largest_cell(cx: &FigureContext, state: &State) -> f64 {
    if cx.min_pt <= 0.0 {
        return diagram::MAX_CELL_MM;
    }
    let n = state.size();
    let shown = state.tallest().min(super::drawn_layers(n)) as f64;
    (shown * LARGE_LAYER_MM / LAYERS_FILL).max(LARGE_CELL_MM)
}

/// Shades the cells of a winning road.
fn highlight(page: &mut Page, origin: Point, cell: f64, n: u8, road: &[Square]) {
    for &sq in road {
        page.rect(
            cell_origin(origin, cell, n, sq),
            cell,
            cell,
            Paint::fill(Color::gray(ROAD_TONE)),
        );
    }
}

/// The cells of `window` with their stacks as layers: each piece a bar, bottom piece
/// lowest, so the top of the drawing is the top of the stack; `origin` is the window's
/// top-left corner. At most the board's width plus one layers are drawn; a taller
/// stack shows its height and "+k" for the hidden pieces. The board's edges are heavy,
/// a side where the window cuts the board light, and the coordinates are the board's.
fn draw_stacks(
    page: &mut Page,
    (origin, window): (Point, Window),
    cell: f64,
    state: &State,
    (reading, label_pt): (Reading, f64),
) {
    let n = state.size();
    let board = window.board_origin(origin, cell);
    // Labels further from what they label as their type grows.
    let k = label_pt / MIN_LABEL_PT;
    let (w, h) = (window.cols as f64 * cell, window.rows as f64 * cell);
    for i in 1..window.cols {
        let x = origin.x + i as f64 * cell;
        page.line(
            Point::new(x, origin.y),
            Point::new(x, origin.y + h),
            Stroke::solid(GRID_LINE_MM),
        );
    }
    for i in 1..window.rows {
        let y = origin.y + i as f64 * cell;
        page.line(
            Point::new(origin.x, y),
            Point::new(origin.x + w, y),
            Stroke::solid(GRID_LINE_MM),
        );
    }
    let [left, right, bottom, top] = window.edges();
    let side = |edge: bool| Stroke::solid(if edge { EDGE_LINE_MM } else { GRID_LINE_MM });
    let (x0, y0, x1, y1) = (origin.x, origin.y, origin.x + w, origin.y + h);
    page.line(Point::new(x0, y0), Point::new(x0, y1), side(left));
    page.line(Point::new(x1, y0), Point::new(x1, y1), side(right));
    page.line(Point::new(x0, y1), Point::new(x1, y1), side(bottom));
    page.line(Point::new(x0, y0), Point::new(x1, y0), side(top));
    for col in window.col..window.col + window.cols {
        let x = board.x + (col as f64 + 0.5) * cell;
        let label = text::shape(&column_letter(col), Style::Regular, label_pt, reading);
        page.text_centered(x, y1 + COLUMN_LABEL_DROP_MM * k, label);
    }
    for row in window.row..window.row + window.rows {
        let y = board.y + (n - 1 - row) as f64 * cell + cell / 2.0 + k;
        let label =
            text::shape(&(row + 1).to_string(), Style::Regular, label_pt, reading);
        page.text_centered(x0 - ROW_LABEL_GAP_MM * k, y, label);
    }
    let max_layers = super::drawn_layers(n);
    for row in window.row..window.row + window.rows {
        for col in window.col..window.col + window.cols {
            let sq = Square { col, row };
            let stack = state.stack(sq);
            if !stack.is_empty() {
                let at = cell_origin(board, cell, n, sq);
                draw_stack(page, (at, cell), stack, max_layers, (reading, label_pt));
            }
        }
    }
}

/// One square's stack in its cell at `at`: the layers left of centre, clear of the
/// lane of the grid line on their left; its height and hidden count to their right,
/// clear of them and of the lanes of the grid lines above and on the right, the
/// layers narrowed as far as the labels need.
fn draw_stack(
    page: &mut Page,
    (at, cell): (Point, f64),
    stack: &[Piece],
    max_layers: usize,
    (reading, label_pt): (Reading, f64),
) {
    let k = label_pt / MIN_LABEL_PT;
    let hidden = stack.len().saturating_sub(max_layers);
    let shown = &stack[hidden..];
    let mut labels = Vec::new();
    if stack.len() > 1 {
        labels.push(text::shape(
            &stack.len().to_string(),
            Style::Bold,
            label_pt,
            reading,
        ));
    }
    if hidden > 0 {
        labels.push(text::shape(
            &format!("+{hidden}"),
            Style::Regular,
            label_pt,
            reading,
        ));
    }
    let label_w = labels.iter().map(text::Shaped::width_mm).fold(0.0, f64::max);
    let x = at.x + (cell * STACK_LEFT).max(ARROW_LANE_MM);
    let right = at.x + cell - ARROW_LANE_MM;
    let bar_w = if labels.is_empty() {
        cell * STACK_WIDTH
    } else {
        (cell * STACK_WIDTH).min(right - label_w - LABEL_GAP_MM - x)
    };
    let layer_h = ((cell * LAYERS_FILL) / shown.len() as f64).min(cell * LAYER_MOST);
    let mut y = at.y + cell * STACK_FOOT - layer_h;
    for piece in shown {
        layer(page, Point::new(x, y), bar_w, layer_h, piece);
        y -= layer_h;
    }
    // The first label's top below the lane of the grid line above.
    let (ascent, _) = text::vertical_metrics_mm(Style::Bold, label_pt);
    let mut baseline =
        at.y + (cell * HEIGHT_LABEL_TOP).max(ARROW_LANE_MM + ascent * CAP_OF_ASCENT);
    let centre = (x + bar_w + LABEL_GAP_MM + right) / 2.0;
    for label in labels {
        page.text_centered(centre, baseline, label);
        baseline += LABEL_STEP_MM * k;
    }
}

/// One piece of a stack drawn side-on: a flat is a wide bar, a wall a narrow upright
/// one, a Crown a bar with a notched top.
fn layer(page: &mut Page, at: Point, w: f64, h: f64, piece: &Piece) {
    let (fill, ink) = draw::Drawn::InDiagram.inks(side(piece.color));
    let outline = Stroke::solid(OUTLINE_MM);
    match piece.kind {
        Kind::Flat => page.rect(at, w, h, Paint::both(fill, outline)),
        Kind::Wall => {
            let width = w * WALL_WIDTH;
            let top = at.y - h;
            page.rect(
                Point::new(at.x + (w - width) / 2.0, top),
                width,
                2.0 * h,
                Paint::both(fill, outline),
            );
        }
        Kind::Crown => {
            let (x0, x1, y0, y1) =
                (at.x + w * CROWN_SIDES.0, at.x + w * CROWN_SIDES.1, at.y, at.y + h);
            let mid = (x0 + x1) / 2.0;
            let notch = y0 - h * 0.5;
            let points = vec![
                Point::new(x0, y1),
                Point::new(x0, notch),
                Point::new((x0 + mid) / 2.0, y0),
                Point::new(mid, notch),
                Point::new((mid + x1) / 2.0, y0),
                Point::new(x1, notch),
                Point::new(x1, y1),
            ];
            page.polygon(points, Paint::both(fill, outline));
        }
    }
    if piece.kind == Kind::Flat && h >= LETTERED_LAYER_MM {
        letter(
            page,
            Point::new(at.x + w / 2.0, at.y + h / 2.0),
            (h * 2.0).min(LAYER_LETTER_MOST_PT),
            (piece.color, ink),
        );
    }
}

/// An arrow along a carry, from its square to the last square it drops on.
fn carry_arrow(
    page: &mut Page,
    origin: Point,
    cell: f64,
    state: &State,
    mv: &stacks::Move,
    crossed: bool,
) {
    let stacks::Move::Carry { from, dir, drops, order } = mv else {
        return;
    };
    // A carry refused for its drop order is a legal path: the arrow stays plain, and
    // the wrong landings are drawn and crossed instead (see `wrong_drops`).
    let crossed = crossed && order.is_none();
    let from = *from;
    let n = state.size();
    let steps = drops.len() as i16;
    let (dc, dr) = dir_step(*dir);
    let to = Square {
        col: (from.col as i16 + dc * steps) as u8,
        row: (from.row as i16 + dr * steps) as u8,
    };
    // On the grid line along the top of the cells for a sideways carry, on the one
    // down their left side for an upward or downward one: the stacks and their
    // labels keep clear of those lines (see `draw_stack`), so the arrow hides none.
    let vertical = matches!(dir, stacks::Dir::Up | stacks::Dir::Down);
    let on_line = |sq: Square| {
        let o = cell_origin(origin, cell, n, sq);
        if vertical {
            Point::new(o.x, o.y + cell / 2.0)
        } else {
            Point::new(o.x + cell / 2.0, o.y)
        }
    };
    draw::arrow(page, on_line(from), on_line(to), cell * ARROW_INSET, ARROW_MM, crossed);
    if let Some(order) = order {
        let path = (1..=steps).map(|k| Square {
            col: (from.col as i16 + dc * k) as u8,
            row: (from.row as i16 + dr * k) as u8,
        });
        let stack = state.stack(from);
        let lifted: Vec<stacks::Color> = stack[stack.len().saturating_sub(order.len())..]
            .iter()
            .map(|p| p.color)
            .collect();
        wrong_drops(page, (origin, cell, n), path.collect(), drops, order, &lifted);
    }
}

/// The stones a refused carry says it drops, in the order given, each on the cell it
/// would land on, drawn dashed as not played; the first one that breaks the lifted
/// order (`lifted`, bottom first) is crossed out: "this stone may not land here first".
fn wrong_drops(
    page: &mut Page,
    (origin, cell, n): (Point, f64, u8),
    path: Vec<Square>,
    drops: &[u8],
    order: &[stacks::Color],
    lifted: &[stacks::Color],
) {
    let wrong = order.iter().zip(lifted).position(|(said, was)| said != was);
    let mut said = order.iter().enumerate();
    let layer_h = cell * WRONG_DROP.0;
    let (x, w) = (cell * WRONG_DROP.1, cell * WRONG_DROP.2);
    for (sq, &count) in path.iter().zip(drops) {
        let at = cell_origin(origin, cell, n, *sq);
        let mut y = at.y + cell * STACK_FOOT - layer_h;
        for _ in 0..count {
            let Some((i, &color)) = said.next() else { return };
            let (fill, ink) = draw::Drawn::InDiagram.inks(side(color));
            let corner = Point::new(at.x + x, y);
            page.rect(
                corner,
                w,
                layer_h,
                Paint::both(fill, Stroke::dashed(OUTLINE_MM, NOT_PLAYED_DASH_MM, 0.5)),
            );
            if wrong == Some(i) {
                // Under the letter, which stays legible through it.
                let (m, cross) = (CROSS_REACH_MM, Stroke::solid(CROSS_LINE_MM));
                let (x0, y0) = (corner.x - m, y - m);
                let (x1, y1) = (corner.x + w + m, y + layer_h + m);
                page.line(Point::new(x0, y0), Point::new(x1, y1), cross);
                page.line(Point::new(x0, y1), Point::new(x1, y0), cross);
            }
            let centre = Point::new(corner.x + w / 2.0, y + layer_h / 2.0);
            letter(page, centre, layer_h * WRONG_DROP_LETTER, (color, ink));
            y -= layer_h;
        }
    }
}

/// Stones for games with walls: a strip of two faces, folded in half and glued. The
/// top face (letter) is the flat side, the bottom face (a heavy bar) the wall side. The
/// strip's outline is its cut line: a plain rectangle for White, cut corners and
/// notches at the fold for Black, so that a folded Black stone has four cut corners.
fn folding_stones(variant: &Variant, cx: &FigureContext) -> Result<Vec<Chunk>, String> {
    let size = cx.kit.pieces.size_mm;
    let count = (variant.stones + cx.kit.pieces.spares) as usize;
    let mut chunks = Vec::new();
    for color in stacks::Color::ALL {
        let tiles = tile_rows(
            count,
            (size, 2.0 * size),
            cx.width,
            (cx.reading, cx.cut),
            &|page, at| folding_strip(page, at, size, color, cx.cut),
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
    page: &mut Page,
    at: Point,
    size: f64,
    color: stacks::Color,
    cut: draw::CutLayout,
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
    letter(page, center, size * LETTER_PT_PER_MM, (color, Color::BLACK));
    let fold_y = at.y + size;
    let inset = if side(color) == Side::Dark { size * CUT_CORNER } else { 0.0 };
    page.line(
        Point::new(at.x + inset, fold_y),
        Point::new(at.x + size - inset, fold_y),
        fold_stroke(),
    );
    wall_face(page, Point::new(at.x, fold_y), size, color);
}

/// The house fold line: black and dotted, unlike the grey dashed cut line.
fn fold_stroke() -> Stroke {
    Stroke::dashed(FOLD_LINE_MM.0, FOLD_LINE_MM.1, FOLD_LINE_MM.2)
}

/// The wall side's mark: a heavy upright bar, a symbol that reads the same either way
/// up (the face is upside down until folded), with the owner's letter small on each
/// side of it, so that a wall is told apart by its letter as well as by its shade.
fn wall_face(page: &mut Page, at: Point, size: f64, color: stacks::Color) {
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
        letter(page, Point::new(x, y), size * WALL_LETTERS.2, (color, Color::BLACK));
    }
}

/// Each player's Crowns; nothing at a size that has none, whose sheets never name them.
fn crowns(variant: &Variant, cx: &FigureContext) -> Result<Vec<Chunk>, String> {
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
                crown(&mut page, Point::new(cx0, top + size / 2.0), size, *color, cx.cut);
            }
            if cx.cut == draw::CutLayout::Grid {
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
                crown(page, centre, size, color, cx.cut)
            });
        let key = format!("stones.crowns_{}", color.to_string().to_lowercase());
        chunks.extend(draw::pieces(cx, &key, tiles)?);
        chunks.push(Chunk::space(CROWN_ROWS_AFTER_MM));
    }
    Ok(chunks)
}

/// A Crown: a round piece with a three-pointed crown above its letter, unlike any stone.
fn crown(
    page: &mut Page,
    center: Point,
    size: f64,
    color: stacks::Color,
    cut: draw::CutLayout,
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
        page,
        Point::new(center.x, center.y + r * CROWN_LETTER.0),
        size * CROWN_LETTER.1,
        (color, Color::BLACK),
    );
}

/// Boxes to cross out, one per piece in hand, for each player: the label where the
/// sheet's lines start, the boxes after it (both mirrored on a right-to-left sheet).
fn reserves(variant: &Variant, cx: &FigureContext) -> Result<Vec<Chunk>, String> {
    let box_size = RESERVE_BOX_MM;
    let rows = [
        ("ledger.reserve_w", variant.stones),
        ("ledger.reserve_b", variant.stones),
        ("ledger.crowns_w", variant.crowns),
        ("ledger.crowns_b", variant.crowns),
    ];
    let mut labels = Vec::new();
    for (key, count) in rows.into_iter().filter(|(_, count)| *count > 0) {
        let label = format!("{} ({count})", cx.text(key)?);
        labels.push((cx.shape(&label, Style::Regular, table::BODY_PT), count as usize));
    }
    let label_w = labels.iter().map(|(l, _)| l.width_mm()).fold(0.0, f64::max)
        + RESERVE_LABEL_GAP_MM;
    let per_row = (((cx.width - label_w) / (box_size + 1.0)).floor() as usize).max(1);
    let rtl = cx.reading.rtl();
    let mut chunks = Vec::new();
    for (label, count) in labels {
        for (line, start) in (0..count).step_by(per_row).enumerate() {
            let mut page = Page::new(0.0, 0.0);
            if line == 0 {
                let x = if rtl { cx.width - label.width_mm() } else { 0.0 };
                page.text(Point::new(x, RESERVE_BASELINE_MM), label.clone());
            }
            for i in 0..per_row.min(count - start) {
                let along = label_w + i as f64 * (box_size + 1.0);
                let x = if rtl { cx.width - along - box_size } else { along };
                page.rect(
                    Point::new(x, 0.5),
                    box_size,
                    box_size,
                    Paint::outline(Stroke::solid(OUTLINE_MM)),
                );
            }
            chunks.push(Chunk::new(box_size + 2.0, page.items));
        }
        chunks.push(Chunk::space(RESERVES_AFTER_MM));
    }
    Ok(chunks)
}

/// Numbered move rows, White and Black side by side, in two blocks per A4 page; rows
/// past the kit's count are spares that fill the last page.
fn move_record(cx: &FigureContext) -> Result<Vec<Chunk>, String> {
    let moves =
        cx.kit.ledger_moves.ok_or("`@moves` needs `[ledger] moves = N` in kit.toml")?;
    let gap = RECORD_GAP_MM;
    let (blocks, block_width) = table::blocks(cx.width, cx.mm(RECORD_BLOCK_MM), gap, 4);
    let number_w = table::fitted_width(
        cx,
        "ledger.col_move",
        RECORD_NUMBER_MM.0,
        RECORD_NUMBER_MM.1,
    )?;
    let half = (block_width - number_w) / 2.0;
    let cols = Columns::new(&[number_w, half, half], cx.reading);
    let heads = ["ledger.col_move", "ledger.col_white", "ledger.col_black"];
    let header = cols.header(cx, &heads.map(Head::Key), None)?;
    // Spares enough to fill a page of blocks, trimmed to the page the record ends on.
    let spare = 40 * blocks as u32;
    let rows = (1..=moves + spare)
        .map(|n| {
            let mut row = cols.row(table::ROW_MM, &[1, 2]);
            cols.label(&mut row, cx, 0, table::ROW_MM, &n.to_string());
            Chunk::new(table::ROW_MM, row.items)
        })
        .collect();
    Ok(vec![
        Chunk::space(RECORD_BEFORE_MM),
        cols.table(header, rows, blocks, gap, spare as usize),
    ])
}
