//! Small pictures of a build's sheets for its contents sheet, drawn as vectors from
//! the same page model: each sheet's first page scaled down, its text "greeked" into
//! grey bars (at this size letters cannot be read, and no sheet's words, the host
//! key's least of all, should reach the contents sheet as text), with the file's
//! name underneath.

use crate::layout::flow::Chunk;
use crate::page::{Color, Item, Page, Paint, Point, Role, Stroke, Tag};
use crate::text::{self, Reading, Shaper, Style};

/// Width of one picture.
const WIDTH_MM: f64 = 24.0;
/// Space between pictures, and above their names.
const GAP_MM: f64 = 5.0;
/// The narrowest a picture is drawn so that every file fits on one row.
const MIN_WIDTH_MM: f64 = 18.0;
/// Size of the file names.
const LABEL_PT: f64 = 7.0;
/// Lines thinner than this after scaling are drawn this thin, so they still show.
const MIN_LINE_MM: f64 = 0.08;
/// The grey of greeked text.
const GREEKED: Color = Color::gray(0.55);

/// One sheet to picture: its file name, and its first page unless it is not to be
/// shown (the host key, or the contents sheet itself): then only its outline.
pub struct Thumbnail<'p> {
    /// The file's name, printed under the picture.
    pub name: String,
    /// The page to draw.
    pub page: Option<&'p Page>,
    /// The size of the page, for an outline only.
    pub size: (f64, f64),
}

/// Rows of pictures `width` mm wide at most, `scale` times their usual size (never
/// under [`MIN_WIDTH_MM`]), as one figure whose alternative text names the files.
pub fn chunks(
    shaper: &Shaper,
    thumbnails: &[Thumbnail],
    width: f64,
    reading: Reading,
    scale: f64,
) -> Vec<Chunk> {
    // Every file on one row when the pictures stay recognisable; else rows of full
    // size. A plan set small to fit its page draws them smaller too.
    let full = (WIDTH_MM * scale).max(MIN_WIDTH_MM);
    let one_row = ((width + GAP_MM) / thumbnails.len().max(1) as f64 - GAP_MM).min(full);
    let picture_w = if one_row >= MIN_WIDTH_MM { one_row } else { full };
    let per_row =
        (((width + GAP_MM) / (picture_w + GAP_MM) + 1e-9).floor() as usize).max(1);
    let (ascent, descent) = text::vertical_metrics_mm(Style::Regular, LABEL_PT);
    let mut chunks = Vec::new();
    for row in thumbnails.chunks(per_row) {
        let tallest =
            row.iter().map(|t| t.size.1 / t.size.0 * picture_w).fold(0.0, f64::max);
        let mut page = Page::new(width, 0.0);
        for (i, thumb) in row.iter().enumerate() {
            let slot = match reading.rtl() {
                true => per_row.min(row.len()) - 1 - i,
                false => i,
            };
            let x = slot as f64 * (picture_w + GAP_MM);
            let x = if reading.rtl() { width - x - picture_w } else { x };
            draw(thumb, Point::new(x, GAP_MM), picture_w, &mut page);
            let label = shaper.shape(&thumb.name, Style::Regular, LABEL_PT, reading);
            let label_x = x + (picture_w - label.width_mm()).max(0.0) / 2.0;
            page.text(Point::new(label_x, GAP_MM + tallest + 1.5 + ascent), label);
        }
        let alt: Vec<&str> = row.iter().map(|t| t.name.as_str()).collect();
        Tag::wrap_all(Role::Figure { alt: alt.join(", ") }, &mut page.items);
        let height = GAP_MM + tallest + 1.5 + ascent + descent;
        chunks.push(Chunk::new(height, page.items));
    }
    chunks
}

fn draw(thumb: &Thumbnail, at: Point, width: f64, out: &mut Page) {
    let scale = width / thumb.size.0;
    let height = thumb.size.1 * scale;
    out.rect(at, width, height, Paint::both(Color::WHITE, Stroke::solid(0.2)));
    let Some(page) = thumb.page else { return };
    for item in &page.items {
        if let Some(item) = scaled(item, scale, at) {
            out.items.push(item);
        }
    }
}

/// An item drawn `scale` times its size with the page's corner at `at`; text becomes
/// a grey bar the height of its lowercase letters, structure marks are dropped.
fn scaled(item: &Item, scale: f64, at: Point) -> Option<Item> {
    let p = |q: &Point| Point::new(at.x + q.x * scale, at.y + q.y * scale);
    let thin = |s: &Stroke| Stroke {
        width: (s.width * scale).max(MIN_LINE_MM),
        dash: s.dash.map(|(on, off)| (on * scale, off * scale)),
        ..*s
    };
    let paint = |paint: &Paint| Paint {
        fill: paint.fill,
        stroke: paint.stroke.as_ref().map(thin),
    };
    Some(match item {
        Item::Line { from, to, stroke } => {
            Item::Line { from: p(from), to: p(to), stroke: thin(stroke) }
        }
        Item::Rect { origin, width, height, paint: fill } => Item::Rect {
            origin: p(origin),
            width: width * scale,
            height: height * scale,
            paint: paint(fill),
        },
        Item::Circle { center, radius, paint: fill } => {
            Item::Circle { center: p(center), radius: radius * scale, paint: paint(fill) }
        }
        Item::Polygon { points, paint: fill } => {
            Item::Polygon { points: points.iter().map(p).collect(), paint: paint(fill) }
        }
        Item::Text { origin, shaped, .. } => {
            let x_height = shaped.size_pt * 25.4 / 72.0 * 0.55 * scale;
            let top = Point::new(origin.x, origin.y);
            let top = p(&top);
            Item::Rect {
                origin: Point::new(top.x, top.y - x_height),
                width: shaped.width_mm() * scale,
                height: x_height,
                paint: Paint::fill(GREEKED),
            }
        }
        Item::Begin(_) | Item::End => return None,
    })
}
