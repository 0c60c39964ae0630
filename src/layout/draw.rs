//! Drawing helpers that several sheets share: pieces, arrows, cut marks.

use super::cut::{CutLayout, cut_stroke};
use super::diagram_style::{
    ARROW_CROSS, ARROW_CROSS_STROKE, ARROW_DASH, ARROW_HEAD, DARK_TONE,
    DIAGRAM_DARK_TONE, KEY_SAMPLE_MM, LABEL_BAND_MM, MM_PER_PT,
};
use super::flow::Chunk;
use super::{BODY_PT, FigureContext, FigureError};
use crate::page::{Color, Item, Page, Paint, Point, Role, Stroke, Tag};
use crate::text::{self, Reading, Shaper, Style};

/// The two sides' looks. Each side differs by shape, letter and tone, so pieces stay
/// apart in black-and-white print and for colour-blind players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Light pieces: a white disc with a dark letter.
    Light,
    /// Dark pieces: a grey hexagon with a black letter.
    Dark,
}

/// Cap height as a share of the ascent in DejaVu Sans: capitals are centred with it.
pub const CAP_HEIGHT: f64 = 0.73;

/// How a piece is printed: small in a diagram, where a stack's layers may be too
/// thin for a letter, or full size on a sheet of pieces to cut out.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Drawn {
    /// Small, in a diagram.
    InDiagram,
    /// Full size, on a sheet of pieces to cut out.
    ToCut,
}

impl Drawn {
    /// The dark side's fill and the colour of its letter.
    pub fn dark(self) -> (Color, Color) {
        match self {
            Drawn::InDiagram => (Color::gray(DIAGRAM_DARK_TONE), Color::WHITE),
            Drawn::ToCut => (Color::gray(DARK_TONE), Color::BLACK),
        }
    }

    /// A side's fill and the colour of its letter.
    pub fn inks(self, side: Side) -> (Color, Color) {
        match side {
            Side::Light => (Color::WHITE, Color::BLACK),
            Side::Dark => self.dark(),
        }
    }
}

/// Draws a piece of `side` with `letter`, `size` mm across, centred on `center`, as
/// it stands in a diagram (a solid outline).
pub fn piece(
    shaper: &Shaper,
    page: &mut Page,
    center: Point,
    size: f64,
    side: Side,
    letter: &str,
) {
    let outline = Stroke::solid(
        (size * PIECE_OUTLINE).clamp(PIECE_OUTLINE_MM.0, PIECE_OUTLINE_MM.1),
    );
    draw_piece(shaper, page, center, size, (side, letter), (outline, Drawn::InDiagram));
}

/// The same piece as printed to be cut out: its outline drawn as `cut` asks (the
/// house cut line, so the piece cut along it is exactly `size` mm across, or a printed
/// outline inside its grid cell).
pub fn cut_piece(
    shaper: &Shaper,
    page: &mut Page,
    center: Point,
    size: f64,
    (side, letter): (Side, &str),
    cut: CutLayout,
) {
    draw_piece(shaper, page, center, size, (side, letter), (cut.outline(), Drawn::ToCut));
}

/// A piece's outline in a diagram, as a share of its size, kept between a line that
/// prints and one that does not swallow a small piece.
const PIECE_OUTLINE: f64 = 0.03;
/// See [`PIECE_OUTLINE`].
const PIECE_OUTLINE_MM: (f64, f64) = (0.25, 0.8);
/// A piece's letter in points per millimetre of its size: a capital about half as
/// tall as the piece.
const PIECE_LETTER_PT: f64 = 1.2;
/// The Light side's inner ring, as a share of its radius, and its line as a share of
/// its size between two bounds: a ring the Dark side's hexagon has not.
const LIGHT_RING: f64 = 0.82;
/// See [`LIGHT_RING`].
const LIGHT_RING_LINE: f64 = 0.015;
/// See [`LIGHT_RING`].
const LIGHT_RING_LINE_MM: (f64, f64) = (0.2, 0.4);

fn draw_piece(
    shaper: &Shaper,
    page: &mut Page,
    center: Point,
    size: f64,
    (side, letter): (Side, &str),
    (outline, drawn): (Stroke, Drawn),
) {
    let r = size / 2.0;
    let letter_pt = size * PIECE_LETTER_PT;
    let (fill, ink) = drawn.inks(side);
    match side {
        Side::Light => {
            page.circle(center, r, Paint::both(Color::WHITE, outline));
            page.circle(
                center,
                r * LIGHT_RING,
                Paint::outline(Stroke::solid(
                    (size * LIGHT_RING_LINE)
                        .clamp(LIGHT_RING_LINE_MM.0, LIGHT_RING_LINE_MM.1),
                )),
            );
        }
        Side::Dark => {
            page.polygon(hexagon(center, r), Paint::both(fill, outline));
        }
    }
    centred_letter(shaper, page, center, letter, letter_pt, ink);
}

/// A bold letter whose capital is centred on `center`.
pub fn centred_letter(
    shaper: &Shaper,
    page: &mut Page,
    center: Point,
    letter: &str,
    pt: f64,
    color: Color,
) {
    let shaped = shaper.shape(letter, Style::Bold, pt, Reading::Natural);
    let (ascent, _) = text::vertical_metrics_mm(Style::Bold, pt);
    let baseline = center.y + ascent * CAP_HEIGHT / 2.0;
    let x = center.x - shaped.width_mm() / 2.0;
    page.items.push(crate::page::Item::Text {
        origin: Point::new(x, baseline),
        shaped,
        color,
    });
}

/// A regular hexagon with pointed top and bottom, circumradius `r`.
pub fn hexagon(center: Point, r: f64) -> Vec<Point> {
    // Corners at 90°, 150°, … : exact values, so no trigonometry is needed.
    let h = r * 3f64.sqrt() / 2.0;
    [(0.0, -r), (h, -r / 2.0), (h, r / 2.0), (0.0, r), (-h, r / 2.0), (-h, -r / 2.0)]
        .iter()
        .map(|&(dx, dy)| Point::new(center.x + dx, center.y + dy))
        .collect()
}

/// An arrow from `from` to `to`, stopping `inset` short of each end. A `crossed`
/// arrow is dashed with an X through its middle: a move that is not allowed.
pub fn arrow(
    page: &mut Page,
    from: Point,
    to: Point,
    inset: f64,
    width: f64,
    crossed: bool,
) {
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    let len = (dx * dx + dy * dy).sqrt();
    if len <= 2.0 * inset {
        return;
    }
    let (ux, uy) = (dx / len, dy / len);
    let start = Point::new(from.x + ux * inset, from.y + uy * inset);
    let tip = Point::new(to.x - ux * inset, to.y - uy * inset);
    let head = width * ARROW_HEAD;
    let base = Point::new(tip.x - ux * head, tip.y - uy * head);
    let stroke = if crossed {
        Stroke::dashed(width, width * ARROW_DASH, width * 2.0)
    } else {
        Stroke::solid(width)
    };
    page.line(start, base, stroke);
    let (px, py) = (-uy * head * 0.5, ux * head * 0.5);
    page.polygon(
        vec![
            tip,
            Point::new(base.x + px, base.y + py),
            Point::new(base.x - px, base.y - py),
        ],
        Paint::fill(Color::BLACK),
    );
    if crossed {
        let mid = Point::new((start.x + base.x) / 2.0, (start.y + base.y) / 2.0);
        let s = head * ARROW_CROSS;
        let x = Stroke::solid(width * ARROW_CROSS_STROKE);
        page.line(Point::new(mid.x - s, mid.y - s), Point::new(mid.x + s, mid.y + s), x);
        page.line(Point::new(mid.x - s, mid.y + s), Point::new(mid.x + s, mid.y - s), x);
    }
}

/// Coordinates around a board's frame (`x0, y0` top-left to `x1, y1`): column letters
/// above and below at `columns` (A first), row numbers left and right at `rows` (row 1
/// first), so players on every side can name a square. They are set in a band `band` mm
/// wide ([`LABEL_BAND_MM`] unless the paper is tight), in type that fits it.
pub fn coordinates(
    shaper: &Shaper,
    page: &mut Page,
    frame: (f64, f64, f64, f64),
    columns: &[f64],
    rows: &[f64],
    band: f64,
) {
    let (x0, y0, x1, y1) = frame;
    // Capitals at most the band less 1.2 mm a side, clear of a heavy edge line.
    let pt = ((band - 2.0 * EDGE_CLEARANCE_MM) / (MM_PER_PT * CAP_HEIGHT))
        .min(COORDINATE_MOST_PT);
    let cap = pt * MM_PER_PT * CAP_HEIGHT;
    let label = |t: &str| shaper.shape(t, Style::Bold, pt, Reading::Natural);
    for (i, &x) in columns.iter().enumerate() {
        let letter = ((b'A' + i as u8) as char).to_string();
        page.text_centered(x, y0 - (band - cap) / 2.0, label(&letter));
        page.text_centered(x, y1 + (band + cap) / 2.0, label(&letter));
    }
    for (i, &y) in rows.iter().enumerate() {
        let number = (i + 1).to_string();
        page.text_centered(x0 - band / 2.0, y + cap / 2.0, label(&number));
        page.text_centered(x1 + band / 2.0, y + cap / 2.0, label(&number));
    }
}

/// The room between a coordinate and the board's heavy edge, or the band's outer side.
const EDGE_CLEARANCE_MM: f64 = 1.2;
/// The largest coordinates: a wide band does not make them shout.
const COORDINATE_MOST_PT: f64 = 12.0;
/// The narrowest coordinate band, which still holds a readable letter.
const LEAST_LABEL_BAND_MM: f64 = 5.0;

/// The width of the coordinate band around a board `span` mm across on a sheet
/// `content_width` wide: [`LABEL_BAND_MM`], or narrower (down to 5 mm) when that lets
/// the board print whole, reaching into the side margins no further than the printer's
/// safe margin.
pub fn label_band(span: f64, content_width: f64) -> f64 {
    let room = content_width + 2.0 * (super::MARGIN_MM - super::SAFE_MARGIN_MM);
    if span + 2.0 * LABEL_BAND_MM <= room {
        LABEL_BAND_MM
    } else {
        ((room - span) / 2.0).clamp(LEAST_LABEL_BAND_MM, LABEL_BAND_MM)
    }
}

/// A square grid of `lines` vertical and `lines` horizontal lines, `step` mm apart,
/// its top-left corner at `origin`.
pub fn grid(page: &mut Page, origin: Point, step: f64, lines: u8, stroke: Stroke) {
    let span = lines.saturating_sub(1) as f64 * step;
    for i in 0..lines {
        let o = i as f64 * step;
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

/// The words for a board split into parts, with the assembly steps that match how
/// `poster::split` cuts it (glue tabs, parts trimmed on grid lines).
pub fn poster_labels(cx: &FigureContext) -> Result<super::poster::PosterLabels, String> {
    let mut labels = cx.poster_labels()?;
    labels.assembly_note = cx.text("common.assembly_steps")?;
    Ok(labels)
}

/// A bold caption kept on the page of what follows it (a row of pieces).
pub fn caption(cx: &FigureContext, key: &str) -> Result<Vec<Chunk>, FigureError> {
    let mut chunks: Vec<Chunk> = cx
        .lines(&cx.text(key)?, Style::Bold, BODY_PT, 0.0)
        .into_iter()
        .map(Chunk::keep)
        .collect();
    Tag::wrap_text(Role::Paragraph, chunks.iter_mut().map(|c| &mut c.items));
    chunks.push(Chunk::space(2.0).keep());
    Ok(chunks)
}

/// A set of pieces to cut out under its caption at `key`: the caption is read as a
/// paragraph, and the pieces as one drawing that the caption describes.
pub fn pieces(
    cx: &FigureContext,
    key: &str,
    mut tiles: Vec<Chunk>,
) -> Result<Vec<Chunk>, FigureError> {
    let mut chunks = caption(cx, key)?;
    let alt = cx.text(key)?;
    Tag::wrap_each(Role::Figure { alt }, tiles.iter_mut().map(|c| &mut c.items));
    chunks.extend(tiles);
    Ok(chunks)
}

/// The tallest block of pieces kept on one page: under half of the smallest paper's
/// page, so that keeping it whole never leaves much of a page empty.
const KEEP_BLOCK_MM: f64 = 110.0;

/// The cut lines of a row of `count` cells `cell_w` × `cell_h` edge to edge, its
/// top-left cell at `(left, top)`: its top and bottom edges and every cell boundary.
/// Rows drawn one under another share their edges, so each grid line is one cut.
pub fn row_cuts(
    page: &mut Page,
    (left, top): (f64, f64),
    (cell_w, cell_h): (f64, f64),
    count: usize,
) {
    row_cuts_into(&mut page.items, (left, top), (cell_w, cell_h), count);
}

fn row_cuts_into(
    items: &mut Vec<Item>,
    (left, top): (f64, f64),
    (cell_w, cell_h): (f64, f64),
    count: usize,
) {
    let right = left + count as f64 * cell_w;
    let line = |from: Point, to: Point| Item::Line { from, to, stroke: cut_stroke() };
    for y in [top, top + cell_h] {
        items.push(line(Point::new(left, y), Point::new(right, y)));
    }
    for i in 0..=count {
        let x = left + i as f64 * cell_w;
        items.push(line(Point::new(x, top), Point::new(x, top + cell_h)));
    }
}

/// Rows of `count` pieces `piece_w` × `piece_h` across `width`, laid out for
/// `cut`, each drawn by `draw` at its top-left: as many rows as needed when each
/// holds as many as fit, and the pieces spread evenly over them, so no row holds a
/// lone leftover (43 = 8 + 7 + 7 + 7 + 7 + 7, never 8 × 5 + 3). On a grid the rows
/// touch and carry their cut lines; a right-to-left sheet fills rows from the right.
pub fn tile_rows(
    count: usize,
    (piece_w, piece_h): (f64, f64),
    width: f64,
    (reading, cut): (Reading, CutLayout),
    draw: &dyn Fn(&mut Page, Point),
) -> Vec<Chunk> {
    let pitch = piece_w + cut.gap();
    let rows = row_sizes(count, piece_w, width, cut);
    let last = rows.len().saturating_sub(1);
    let block_height = rows.len() as f64 * piece_h;
    rows.into_iter()
        .enumerate()
        .map(|(index, in_row)| {
            let mut page = Page::new(0.0, 0.0);
            let x_of = |i: usize| match reading.rtl() {
                true => width - i as f64 * pitch - piece_w,
                false => i as f64 * pitch,
            };
            for i in 0..in_row {
                draw(&mut page, Point::new(x_of(i), 0.0));
            }
            let chunk = Chunk::new(piece_h + cut.gap(), page.items);
            if cut == CutLayout::Outline {
                return chunk;
            }
            let left = x_of(0).min(x_of(in_row - 1));
            let mut chunk = chunk;
            row_cuts_into(&mut chunk.items, (left, 0.0), (piece_w, piece_h), in_row);
            // A short block is kept on one page, so that its lines run through it
            // (a block split over two pages takes two more cuts); a tall one flows.
            match index < last && block_height <= KEEP_BLOCK_MM {
                true => chunk.keep(),
                false => chunk,
            }
        })
        .collect()
}

/// How many of `count` pieces `piece_w` wide go in each row across `width`.
pub fn row_sizes(count: usize, piece_w: f64, width: f64, cut: CutLayout) -> Vec<usize> {
    let gap = cut.gap();
    let fit = (((width + gap) / (piece_w + gap) + super::EPS_MM).floor() as usize).max(1);
    let rows = count.div_ceil(fit);
    (0..rows).map(|r| count / rows + usize::from(r < count % rows)).collect()
}

/// `count` pieces `size` mm across drawn by `piece` at their centres, packed in rows
/// laid out for `cut`.
pub fn cut_tiles(
    count: usize,
    size: f64,
    width: f64,
    layout: (Reading, CutLayout),
    piece: &dyn Fn(&mut Page, Point),
) -> Vec<Chunk> {
    tile_rows(count, (size, size), width, layout, &|page, at| {
        piece(page, Point::new(at.x + size / 2.0, at.y + size / 2.0));
    })
}

/// Marks `items`, a whole board, as one drawing described by `board.alt` (each of
/// its parts, when it is printed in parts).
pub fn board_drawing(cx: &FigureContext, items: &mut Vec<Item>) -> Result<(), String> {
    Tag::wrap_all(Role::Figure { alt: cx.text("board.alt")? }, items);
    Ok(())
}

/// What a diagram shows, for its alternative text: `groups` (each square with what
/// stands on it, or each player with their points, as the game words them) in the
/// sentence at `alt.position`; nothing for an empty board, which its caption names.
pub fn position_words(cx: &FigureContext, groups: &[String]) -> Result<String, String> {
    if groups.is_empty() {
        return Ok(String::new());
    }
    let separator = cx.text("alt.separator")?;
    Ok(cx.text("alt.position")?.replace("{squares}", &groups.join(&separator)))
}

/// What a board of points shows, for its alternative text: each player's letter and
/// the points their pieces stand on (`alt.player`), in [`position_words`].
pub fn players_words(
    cx: &FigureContext,
    players: &[(String, Vec<String>)],
) -> Result<String, String> {
    let comma = cx.text("alt.comma")?;
    let mut groups = Vec::new();
    for (piece, points) in players.iter().filter(|(_, points)| !points.is_empty()) {
        let squares = points.join(&comma);
        groups.push(filled(
            cx,
            "alt.player",
            &[("piece", piece), ("squares", &squares)],
        )?);
    }
    position_words(cx, &groups)
}

/// The words at `key` with its placeholders filled from `values`.
pub fn filled(
    cx: &FigureContext,
    key: &str,
    values: &[(&str, &str)],
) -> Result<String, String> {
    let mut text = cx.text(key)?;
    for (name, value) in values {
        text = text.replace(&format!("{{{name}}}"), value);
    }
    Ok(text)
}

/// A diagram caption's line height (its type is [`super::diagram_style::CAPTION_PT`]).
const CAPTION_LINE_MM: f64 = 3.6;
/// The first caption line's baseline under the diagrams, and the room after the last.
const CAPTION_DROP_MM: f64 = 3.0;
/// The room after a symbol key, before what follows it.
const KEY_AFTER_MM: f64 = 3.0;
/// The room between a legend's sample and its words.
const LEGEND_GAP_MM: f64 = 4.0;

/// Captions centred under a row of diagrams `slot` mm wide starting at `left`, below
/// `top`; returns the chunk holding the diagrams and their captions, read as one
/// figure whose alternative text is each caption followed by the words of its
/// position (`positions`, one per caption).
pub fn diagram_row(
    cx: &FigureContext,
    mut page: Page,
    (captions, positions): (&[Vec<text::Shaped>], &[String]),
    left: f64,
    slot: f64,
    top: f64,
) -> Chunk {
    let line_h = CAPTION_LINE_MM;
    for (i, lines) in captions.iter().enumerate() {
        let i = cx.slot(i, captions.len());
        for (j, line) in lines.iter().enumerate() {
            let mid = left + i as f64 * slot + slot / 2.0;
            page.text_centered(
                mid,
                top + CAPTION_DROP_MM + j as f64 * line_h,
                line.clone(),
            );
        }
    }
    let tallest = captions.iter().map(Vec::len).max().unwrap_or(0) as f64;
    let alt = captions
        .iter()
        .zip(positions)
        .map(|(lines, position)| {
            let caption: Vec<&str> = lines.iter().map(|l| l.text.trim()).collect();
            format!("{} {position}", caption.join(" ")).trim_end().to_string()
        })
        .collect::<Vec<_>>()
        .join(" ");
    Tag::wrap_all(Role::Figure { alt }, &mut page.items);
    Chunk::new(top + 2.0 + tallest * line_h + CAPTION_DROP_MM, page.items)
}

/// One symbol of a diagram key: the strings key that says what it means, and how to
/// draw a sample of it in a box [`KEY_SAMPLE_MM`] wide from its `x`.
pub type KeyEntry<'a> = (&'a str, &'a dyn Fn(&mut Page, f64));

/// `@diagram-key`: what the symbols of a sheet's diagrams mean, under the heading at
/// `diagrams.key_title`, one line per symbol with its sample drawn beside it.
pub fn symbol_key(
    cx: &FigureContext,
    entries: &[KeyEntry],
) -> Result<Vec<Chunk>, FigureError> {
    let mut chunks = caption(cx, "diagrams.key_title")?;
    for (key, sample) in entries {
        // An entry's lines stay on one page.
        let mut lines = legend_entry(cx, key, KEY_SAMPLE_MM, *sample)?;
        let last = lines.len().saturating_sub(1);
        for line in &mut lines[..last] {
            line.keep_with_next = true;
        }
        chunks.extend(lines);
    }
    chunks.push(Chunk::space(KEY_AFTER_MM));
    Ok(chunks)
}

/// A legend line: a sample drawn by `sample` in a box `sample_w` wide at the start of
/// the line (the right end on a right-to-left sheet), then the text at `key`.
pub fn legend_entry(
    cx: &FigureContext,
    key: &str,
    sample_w: f64,
    sample: &dyn Fn(&mut Page, f64),
) -> Result<Vec<Chunk>, FigureError> {
    let mut chunks =
        cx.lines(&cx.text(key)?, Style::Regular, BODY_PT, sample_w + LEGEND_GAP_MM);
    Tag::wrap_text(Role::ListItem, chunks.iter_mut().map(|c| &mut c.items));
    if let Some(first) = chunks.first_mut() {
        let mut page = Page::new(0.0, 0.0);
        // The text keeps to the frame's right-hand edge on a right-to-left sheet.
        let x = if cx.reading.rtl() { cx.width - sample_w } else { 0.0 };
        sample(&mut page, x);
        // The sample is read with its words (a stone's letter is part of them).
        let end = first.items.iter().position(|i| matches!(i, Item::End));
        let at = end.unwrap_or(first.items.len());
        first.items.splice(at..at, page.items);
    }
    Ok(chunks)
}
