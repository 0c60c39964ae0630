//! The stacking games' records: the ledger of every turn's stacks, the reserves
//! form and the move record.

use super::*;

/// One row per turn (or a band of two rows read as one): who played, what, every stack after it (bottom to top) and the
/// reserves left.
pub(super) fn ledger(
    variant: &Variant,
    cx: &FigureContext,
) -> Result<Vec<Chunk>, FigureError> {
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
) -> Result<Vec<Chunk>, FigureError> {
    let natural: f64 = before_w.iter().chain(&after_w).sum();
    let stretch = cx.width / natural;
    let top_w: Vec<f64> = before_w.iter().chain(&after_w).map(|w| w * stretch).collect();
    let top = Columns::new(&top_w, cx.reading);
    let per_row = square_heads.len();
    let cell_w = cx.width / per_row as f64;
    if cell_w < table::MIN_CELL_MM {
        return Err(format!(
            "the ledger's stack cells would be {cell_w:.0} mm wide: the paper is too narrow"
        ).into());
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

/// Boxes to cross out, one per piece in hand, for each player: the label where the
/// sheet's lines start, the boxes after it (both mirrored on a right-to-left sheet).
pub(super) fn reserves(
    variant: &Variant,
    cx: &FigureContext,
) -> Result<Vec<Chunk>, FigureError> {
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
pub(super) fn move_record(cx: &FigureContext) -> Result<Vec<Chunk>, FigureError> {
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
