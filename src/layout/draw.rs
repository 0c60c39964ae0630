//! Drawing helpers that several sheets share: pieces, arrows, cut marks.

use crate::page::{Color, Page, Paint, Point, Stroke};
use crate::text::{self, Style};

/// The two sides' looks. Each side differs by shape, letter and tone, so pieces stay
/// apart in black-and-white print and for colour-blind players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Light pieces: a white disc with a dark letter.
    Light,
    /// Dark pieces: a dark hexagon with a white letter.
    Dark,
}

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
    let shaped = text::shape(letter, Style::Bold, letter_pt);
    let (ascent, _) = text::vertical_metrics_mm(Style::Bold, letter_pt);
    // Cap height is about 0.73 of the ascent in DejaVu Sans: centre the capital.
    let baseline = center.y + ascent * 0.73 / 2.0;
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
    let band = 9.0;
    let label = |t: &str| text::shape(t, Style::Bold, 12.0);
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
