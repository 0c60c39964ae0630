//! Drawing helpers that several sheets share: pieces, arrows, cut marks.

use super::flow::Chunk;
use super::{BODY_PT, FigureContext, MAX_TEXT_MM};
use crate::page::{Color, Page, Paint, Point, Stroke};
use crate::text::{self, Reading, Style};

/// The two sides' looks. Each side differs by shape, letter and tone, so pieces stay
/// apart in black-and-white print and for colour-blind players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Light pieces: a white disc with a dark letter.
    Light,
    /// Dark pieces: a dark hexagon with a white letter.
    Dark,
}

/// Width of the band around a board's frame that holds its coordinates.
pub const LABEL_BAND_MM: f64 = 9.0;

/// A cut tile is this much wider than the piece drawn in it, so the cut line
/// clears the piece on every side.
pub const CUT_TILE_MARGIN_MM: f64 = 6.0;

/// Cap height as a share of the ascent in DejaVu Sans: capitals are centred with it.
pub const CAP_HEIGHT: f64 = 0.73;

/// Gray of the dark side's pieces: dark enough to tell apart, light enough to save ink.
pub const DARK_TONE: f64 = 0.3;

/// Draws a piece of `side` with `letter`, `size` mm across, centred on `center`.
pub fn piece(page: &mut Page, center: Point, size: f64, side: Side, letter: &str) {
    let r = size / 2.0;
    let outline = Stroke::solid((size * 0.03).clamp(0.25, 0.8));
    let letter_pt = size * 1.2;
    let text_color = match side {
        Side::Light => {
            page.circle(center, r, Paint::both(Color::WHITE, outline));
            page.circle(
                center,
                r * 0.82,
                Paint::outline(Stroke::solid(outline.width * 0.5)),
            );
            Color::BLACK
        }
        Side::Dark => {
            page.polygon(
                hexagon(center, r),
                Paint::both(Color::gray(DARK_TONE), outline),
            );
            Color::WHITE
        }
    };
    let shaped = text::shape(letter, Style::Bold, letter_pt, Reading::Natural);
    let (ascent, _) = text::vertical_metrics_mm(Style::Bold, letter_pt);
    let baseline = center.y + ascent * CAP_HEIGHT / 2.0;
    let x = center.x - shaped.width_mm() / 2.0;
    page.items.push(crate::page::Item::Text {
        origin: Point::new(x, baseline),
        shaped,
        color: text_color,
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
    let head = width * 4.0;
    let base = Point::new(tip.x - ux * head, tip.y - uy * head);
    let stroke = if crossed {
        Stroke::dashed(width, width * 3.0, width * 2.0)
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
        let s = head * 0.8;
        let x = Stroke::solid(width * 1.4);
        page.line(Point::new(mid.x - s, mid.y - s), Point::new(mid.x + s, mid.y + s), x);
        page.line(Point::new(mid.x - s, mid.y + s), Point::new(mid.x + s, mid.y - s), x);
    }
}

/// The house cut line: thin, dashed, mid grey.
pub fn cut_stroke() -> Stroke {
    Stroke::dashed(0.25, 2.0, 1.5).colored(Color::gray(0.45))
}

/// Coordinates around a board's frame (`x0, y0` top-left to `x1, y1`): column letters
/// above and below at `columns` (A first), row numbers left and right at `rows` (row 1
/// first), so players on every side can name a square.
pub fn coordinates(
    page: &mut Page,
    frame: (f64, f64, f64, f64),
    columns: &[f64],
    rows: &[f64],
) {
    let (x0, y0, x1, y1) = frame;
    let band = LABEL_BAND_MM;
    let label = |t: &str| text::shape(t, Style::Bold, 12.0, Reading::Natural);
    for (i, &x) in columns.iter().enumerate() {
        let letter = ((b'A' + i as u8) as char).to_string();
        page.text_centered(x, y0 - 2.5, label(&letter));
        page.text_centered(x, y1 + 6.5, label(&letter));
    }
    for (i, &y) in rows.iter().enumerate() {
        let number = (i + 1).to_string();
        page.text_centered(x0 - band / 2.0, y + 1.6, label(&number));
        page.text_centered(x1 + band / 2.0, y + 1.6, label(&number));
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

/// A bold caption kept on the page of what follows it (a row of pieces).
pub fn caption(cx: &FigureContext, key: &str) -> Result<Vec<Chunk>, String> {
    let mut chunks: Vec<Chunk> = cx
        .lines(&cx.text(key)?, Style::Bold, BODY_PT, 0.0)
        .into_iter()
        .map(Chunk::keep)
        .collect();
    chunks.push(Chunk::space(2.0).keep());
    Ok(chunks)
}

/// Rows of `count` tiles of `tile_w` × `tile_h` across `width`, each drawn by `draw`
/// at its top-left: pieces packed as densely as the paper allows.
pub fn tile_rows(
    count: usize,
    tile_w: f64,
    tile_h: f64,
    width: f64,
    reading: Reading,
    draw: &dyn Fn(&mut Page, Point),
) -> Vec<Chunk> {
    let per_row = ((width / tile_w).floor() as usize).max(1);
    (0..count)
        .step_by(per_row)
        .map(|start| {
            let mut page = Page::new(0.0, 0.0);
            for i in 0..per_row.min(count - start) {
                let x = match reading.rtl() {
                    true => width - (i + 1) as f64 * tile_w,
                    false => i as f64 * tile_w,
                };
                draw(&mut page, Point::new(x, 0.0));
            }
            Chunk::new(tile_h, page.items)
        })
        .collect()
}

/// `count` square tiles `tile` mm wide, each with the house cut line around it and a
/// piece drawn by `piece` at its centre.
pub fn cut_tiles(
    count: usize,
    tile: f64,
    width: f64,
    reading: Reading,
    piece: &dyn Fn(&mut Page, Point),
) -> Vec<Chunk> {
    tile_rows(count, tile, tile, width, reading, &|page, at| {
        page.rect(at, tile, tile, Paint::outline(cut_stroke()));
        piece(page, Point::new(at.x + tile / 2.0, at.y + tile / 2.0));
    })
}

/// Captions centred under a row of diagrams `slot` mm wide starting at `left`, below
/// `top`; returns the chunk holding the diagrams and their captions.
pub fn diagram_row(
    cx: &FigureContext,
    mut page: Page,
    captions: &[Vec<text::Shaped>],
    left: f64,
    slot: f64,
    top: f64,
) -> Chunk {
    let line_h = 3.6;
    for (i, lines) in captions.iter().enumerate() {
        let i = cx.slot(i, captions.len());
        for (j, line) in lines.iter().enumerate() {
            let mid = left + i as f64 * slot + slot / 2.0;
            page.text_centered(mid, top + 3.0 + j as f64 * line_h, line.clone());
        }
    }
    let tallest = captions.iter().map(Vec::len).max().unwrap_or(0) as f64;
    Chunk::new(top + 2.0 + tallest * line_h + 3.0, page.items)
}

/// A legend line: a sample drawn by `sample` in a box `sample_w` wide at the start of
/// the line (the right end on a right-to-left sheet), then the text at `key`.
pub fn legend_entry(
    cx: &FigureContext,
    key: &str,
    sample_w: f64,
    sample: &dyn Fn(&mut Page, f64),
) -> Result<Vec<Chunk>, String> {
    let mut chunks = cx.lines(&cx.text(key)?, Style::Regular, BODY_PT, sample_w + 4.0);
    if let Some(first) = chunks.first_mut() {
        let mut page = Page::new(0.0, 0.0);
        let x = if cx.reading.rtl() { cx.width.min(MAX_TEXT_MM) - sample_w } else { 0.0 };
        sample(&mut page, x);
        first.items.extend(page.items);
    }
    Ok(chunks)
}
