//! The stacking games' diagrams: positions with their stacks side-on, carries,
//! roads and wrong drops, each zoomed to the part of the board it is about, and the
//! key to their symbols.

use super::*;

/// The key to the symbols of the diagrams: the pieces side-on, a stack's numbers, a
/// move's arrow and a road's shading, as `diagrams` draws them.
pub(super) fn diagram_key(
    variant: &Variant,
    cx: &FigureContext,
) -> Result<Vec<Chunk>, FigureError> {
    let shaper = cx.shaper;
    let piece = |color, kind| Piece { color, kind };
    let flats = |page: &mut Page, x: f64| {
        layer(
            shaper,
            page,
            Point::new(x, KEY_FLAT_MM.0),
            KEY_FLAT_MM.1,
            KEY_FLAT_MM.2,
            &piece(stacks::Color::White, Kind::Flat),
        );
        layer(
            shaper,
            page,
            Point::new(x + KEY_SECOND_FLAT_MM, KEY_FLAT_MM.0),
            KEY_FLAT_MM.1,
            KEY_FLAT_MM.2,
            &piece(stacks::Color::Black, Kind::Flat),
        );
    };
    let wall = |page: &mut Page, x: f64| {
        layer(
            shaper,
            page,
            Point::new(x + KEY_UPRIGHT_MM.0, KEY_WALL_MM.0),
            KEY_UPRIGHT_MM.1,
            KEY_WALL_MM.1,
            &piece(stacks::Color::White, Kind::Wall),
        );
    };
    let crown = |page: &mut Page, x: f64| {
        layer(
            shaper,
            page,
            Point::new(x + KEY_UPRIGHT_MM.0, KEY_CROWN_MM.0),
            KEY_UPRIGHT_MM.1,
            KEY_CROWN_MM.1,
            &piece(stacks::Color::White, Kind::Crown),
        );
    };
    let numbers = |page: &mut Page, x: f64| {
        let pt = cx.pt(MIN_LABEL_PT);
        let height = shaper.shape("3", Style::Bold, pt, cx.reading);
        page.text_centered(x + KEY_NUMBERS_MM.0, KEY_BASELINE_MM, height);
        page.text_centered(
            x + KEY_NUMBERS_MM.1,
            KEY_BASELINE_MM,
            shaper.shape("+2", Style::Regular, pt, cx.reading),
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
pub(super) fn diagrams(
    args: &[String],
    cx: &FigureContext,
    examples: &[Example],
) -> Result<Vec<Chunk>, FigureError> {
    let shaper = cx.shaper;
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
        let layers = state.tallest().min(stacks::drawn_layers(state.size()));
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
            draw_stacks(shaper, &mut page, (origin, window), cell, state, labels);
            if let Some((mv, crossed)) = arrow {
                carry_arrow(shaper, &mut page, board, cell, state, mv, crossed);
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
    let shown = state.tallest().min(stacks::drawn_layers(n)) as f64;
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
    shaper: &Shaper,
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
        let label = shaper.shape(&column_letter(col), Style::Regular, label_pt, reading);
        page.text_centered(x, y1 + COLUMN_LABEL_DROP_MM * k, label);
    }
    for row in window.row..window.row + window.rows {
        let y = board.y + (n - 1 - row) as f64 * cell + cell / 2.0 + k;
        let label =
            shaper.shape(&(row + 1).to_string(), Style::Regular, label_pt, reading);
        page.text_centered(x0 - ROW_LABEL_GAP_MM * k, y, label);
    }
    let max_layers = stacks::drawn_layers(n);
    for row in window.row..window.row + window.rows {
        for col in window.col..window.col + window.cols {
            let sq = Square { col, row };
            let stack = state.stack(sq);
            if !stack.is_empty() {
                let at = cell_origin(board, cell, n, sq);
                draw_stack(
                    shaper,
                    page,
                    (at, cell),
                    stack,
                    max_layers,
                    (reading, label_pt),
                );
            }
        }
    }
}

/// One square's stack in its cell at `at`: the layers left of centre, clear of the
/// lane of the grid line on their left; its height and hidden count to their right,
/// clear of them and of the lanes of the grid lines above and on the right, the
/// layers narrowed as far as the labels need.
fn draw_stack(
    shaper: &Shaper,
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
        labels.push(shaper.shape(
            &stack.len().to_string(),
            Style::Bold,
            label_pt,
            reading,
        ));
    }
    if hidden > 0 {
        labels.push(shaper.shape(
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
        layer(shaper, page, Point::new(x, y), bar_w, layer_h, piece);
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
fn layer(shaper: &Shaper, page: &mut Page, at: Point, w: f64, h: f64, piece: &Piece) {
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
            shaper,
            page,
            Point::new(at.x + w / 2.0, at.y + h / 2.0),
            (h * 2.0).min(LAYER_LETTER_MOST_PT),
            (piece.color, ink),
        );
    }
}

/// An arrow along a carry, from its square to the last square it drops on.
fn carry_arrow(
    shaper: &Shaper,
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
        wrong_drops(
            shaper,
            page,
            (origin, cell, n),
            path.collect(),
            drops,
            order,
            &lifted,
        );
    }
}

/// The stones a refused carry says it drops, in the order given, each on the cell it
/// would land on, drawn dashed as not played; the first one that breaks the lifted
/// order (`lifted`, bottom first) is crossed out: "this stone may not land here first".
fn wrong_drops(
    shaper: &Shaper,
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
            letter(shaper, page, centre, layer_h * WRONG_DROP_LETTER, (color, ink));
            y -= layer_h;
        }
    }
}
