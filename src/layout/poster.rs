//! Splitting a drawing that is larger than the paper into tiles at exact scale.
//!
//! Tiles overlap by a glue margin; each is cut geometrically (lines are clipped,
//! anything else is kept only where it lies wholly inside), so what reaches the PDF
//! is exactly what prints, and an independent reader can check it.

use crate::page::{Color, Item, Page, Paint, Point, Stroke};
use crate::text::{self, Reading, Style};

/// A drawing that must never be shrunk; see [`Chunk::poster`].
#[derive(Clone, Debug, PartialEq)]
pub struct Poster {
    /// Width in millimetres.
    pub width: f64,
    /// Height in millimetres.
    pub height: f64,
    /// What to draw, relative to the drawing's top-left corner.
    pub items: Vec<Item>,
    /// Words for the parts, when it has to be split.
    pub labels: PosterLabels,
}

/// The words on a split drawing's pages.
#[derive(Clone, Debug, PartialEq)]
pub struct PosterLabels {
    /// Above each part: a pattern with `{part}`, `{parts}`, `{row}` and `{column}`.
    pub part: String,
    /// Title of the assembly page.
    pub assembly_title: String,
    /// Instructions on the assembly page, with `{parts}`.
    pub assembly_note: String,
    /// Which way the sheet's text runs.
    pub reading: Reading,
}

/// The area chunks flow into, in millimetres on the page.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    /// Left edge of the content.
    pub left: f64,
    /// Width of the content.
    pub width: f64,
    /// Top edge of the content.
    pub top: f64,
    /// Bottom edge of the content.
    pub bottom: f64,
}

/// How much neighbouring parts share, for gluing: wide enough for a target mark.
pub const OVERLAP_MM: f64 = 15.0;
/// Room above each part for its label.
const LABEL_MM: f64 = 9.0;
/// Radius of the round target marks that line parts up.
pub const TARGET_RADIUS_MM: f64 = 2.5;

/// Splits `poster` into parts, each on a page of its own, after an assembly page with a
/// plan of the parts. The drawing keeps its exact size.
pub fn split(poster: &Poster, frame: Frame, y: f64, pages: &mut Vec<Vec<Item>>) {
    let (tile_w, tile_h) = (frame.width, frame.bottom - frame.top - LABEL_MM);
    let (windows, cols, rows) =
        plan(poster.width, poster.height, tile_w, tile_h, OVERLAP_MM);
    let mut items = poster.items.clone();
    items.extend(targets(&windows, cols, rows));
    // The plan goes under what is already on the page, if there is room for it.
    let mut top = y;
    if frame.bottom - y < 90.0 {
        pages.push(Vec::new());
        top = frame.top;
    }
    assembly_plan(poster, &windows, frame, top, pages.last_mut().expect("a page"));
    for (index, window) in windows.iter().enumerate() {
        let mut page = Page::new(0.0, 0.0);
        let label = poster
            .labels
            .part
            .replace("{part}", &(index + 1).to_string())
            .replace("{parts}", &windows.len().to_string())
            .replace("{row}", &(index / cols + 1).to_string())
            .replace("{column}", &(index % cols + 1).to_string());
        page.text(
            Point::new(frame.left, frame.top + 4.0),
            text::shape(&label, Style::Bold, 10.0, poster.labels.reading),
        );
        let (x, y) = (frame.left, frame.top + LABEL_MM);
        page.rect(
            Point::new(x, y),
            window.w,
            window.h,
            Paint::outline(Stroke::solid(0.2).colored(Color::gray(0.6))),
        );
        for item in &items {
            for clipped in clip(item, window) {
                page.items.push(clipped.translated(x, y));
            }
        }
        pages.push(page.items);
    }
}

/// Where a line of text starts: at the left margin, or flush right when it reads
/// right to left.
fn start_x(line: &text::Shaped, frame: Frame) -> f64 {
    if line.rtl { frame.left + frame.width - line.width_mm() } else { frame.left }
}

/// Round target marks in the middle of every overlap, drawn into the drawing itself so
/// that the same mark prints on both parts that share it.
fn targets(windows: &[Window], cols: usize, rows: usize) -> Vec<Item> {
    let stroke = Stroke::solid(0.25);
    let mut marks = Vec::new();
    let mut mark = |c: Point| {
        let r = TARGET_RADIUS_MM;
        marks.push(Item::Circle { center: c, radius: r, paint: Paint::outline(stroke) });
        marks.push(Item::Line {
            from: Point::new(c.x - 2.0 * r, c.y),
            to: Point::new(c.x + 2.0 * r, c.y),
            stroke,
        });
        marks.push(Item::Line {
            from: Point::new(c.x, c.y - 2.0 * r),
            to: Point::new(c.x, c.y + 2.0 * r),
            stroke,
        });
    };
    for r in 0..rows {
        for c in 0..cols {
            let w = windows[r * cols + c];
            if c + 1 < cols {
                let next = windows[r * cols + c + 1];
                let x = (next.x + w.x + w.w) / 2.0;
                for y in [w.y + w.h * 0.25, w.y + w.h * 0.75] {
                    mark(Point::new(x, y));
                }
            }
            if r + 1 < rows {
                let below = windows[(r + 1) * cols + c];
                let y = (below.y + w.y + w.h) / 2.0;
                for x in [w.x + w.w * 0.25, w.x + w.w * 0.75] {
                    mark(Point::new(x, y));
                }
            }
        }
    }
    marks
}

/// How to put the parts together, with a small plan of them, from `top` down.
fn assembly_plan(
    poster: &Poster,
    windows: &[Window],
    frame: Frame,
    top: f64,
    page: &mut Vec<Item>,
) {
    let mut out = Page::new(0.0, 0.0);
    let mut y = top + 8.0;
    let title = text::shape(
        &poster.labels.assembly_title,
        Style::Bold,
        12.5,
        poster.labels.reading,
    );
    out.text(Point::new(start_x(&title, frame), y), title);
    y += 7.0;
    let note = poster.labels.assembly_note.replace("{parts}", &windows.len().to_string());
    for line in text::wrap(
        &note,
        Style::Regular,
        super::BODY_PT,
        frame.width,
        poster.labels.reading,
    ) {
        out.text(Point::new(start_x(&line, frame), y), line);
        y += 5.0;
    }
    y += 4.0;
    // The plan: not to scale, only where each part goes.
    let scale =
        (frame.width / poster.width).min((frame.bottom - y) / poster.height).min(0.5);
    let origin = Point::new(frame.left + (frame.width - poster.width * scale) / 2.0, y);
    out.rect(
        origin,
        poster.width * scale,
        poster.height * scale,
        Paint::both(Color::gray(0.92), Stroke::solid(0.5)),
    );
    for (i, w) in windows.iter().enumerate() {
        let at = Point::new(origin.x + w.x * scale, origin.y + w.y * scale);
        out.rect(
            at,
            w.w * scale,
            w.h * scale,
            Paint::outline(Stroke::dashed(0.3, 1.5, 1.0)),
        );
        let number =
            text::shape(&(i + 1).to_string(), Style::Bold, 14.0, poster.labels.reading);
        out.text_centered(
            at.x + w.w * scale / 2.0,
            at.y + w.h * scale / 2.0 + 2.5,
            number,
        );
    }
    page.extend(out.items);
}

/// A rectangle in millimetres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

impl Window {
    fn contains(&self, p: Point) -> bool {
        const EPS: f64 = 1e-6;
        p.x >= self.x - EPS
            && p.x <= self.x + self.w + EPS
            && p.y >= self.y - EPS
            && p.y <= self.y + self.h + EPS
    }
}

/// How a drawing of `width` × `height` is cut into tiles no larger than
/// `tile_w` × `tile_h`, overlapping by `overlap`: the windows in reading order
/// (rows top to bottom), and the number of columns and rows.
pub fn plan(
    width: f64,
    height: f64,
    tile_w: f64,
    tile_h: f64,
    overlap: f64,
) -> (Vec<Window>, usize, usize) {
    let cols = count(width, tile_w, overlap);
    let rows = count(height, tile_h, overlap);
    // Spread the drawing evenly: every tile the same size, every overlap the same.
    let step_x = if cols > 1 { (width - overlap) / cols as f64 } else { width };
    let step_y = if rows > 1 { (height - overlap) / rows as f64 } else { height };
    let w = if cols > 1 { step_x + overlap } else { width };
    let h = if rows > 1 { step_y + overlap } else { height };
    let mut windows = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            windows.push(Window { x: c as f64 * step_x, y: r as f64 * step_y, w, h });
        }
    }
    (windows, cols, rows)
}

/// Tiles needed along one side.
fn count(length: f64, tile: f64, overlap: f64) -> usize {
    if length <= tile {
        1
    } else {
        ((length - overlap) / (tile - overlap)).ceil() as usize
    }
}

/// The part of `item` inside `window`, moved so the window's corner is at (0, 0).
pub fn clip(item: &Item, window: &Window) -> Vec<Item> {
    if let Item::Rect { origin, width, height, paint } = item {
        return clip_rect(*origin, *width, *height, paint, window);
    }
    clip_shape(item, window).into_iter().collect()
}

/// [`clip`] for everything but rectangles: lines are cut, other shapes and text are
/// kept only when wholly inside.
fn clip_shape(item: &Item, window: &Window) -> Option<Item> {
    let shift = |p: Point| Point::new(p.x - window.x, p.y - window.y);
    match item {
        Item::Line { from, to, stroke } => {
            let (a, b) = clip_line(*from, *to, window)?;
            Some(Item::Line { from: shift(a), to: shift(b), stroke: *stroke })
        }
        // Rectangles are cut by `clip_rect`.
        Item::Rect { .. } => None,
        Item::Circle { center, radius, paint } => {
            let inside = window
                .contains(Point::new(center.x - radius, center.y - radius))
                && window.contains(Point::new(center.x + radius, center.y + radius));
            inside.then(|| Item::Circle {
                center: shift(*center),
                radius: *radius,
                paint: *paint,
            })
        }
        Item::Polygon { points, paint } => {
            points.iter().all(|p| window.contains(*p)).then(|| Item::Polygon {
                points: points.iter().map(|p| shift(*p)).collect(),
                paint: *paint,
            })
        }
        Item::Text { origin, shaped, color } => {
            let end = Point::new(origin.x + shaped.width_mm(), origin.y);
            (window.contains(*origin) && window.contains(end)).then(|| Item::Text {
                origin: shift(*origin),
                shaped: shaped.clone(),
                color: *color,
            })
        }
    }
}

/// A rectangle cut to the window: the fill is cut to the overlap, and the outline is
/// kept only along the sides that really are the rectangle's (a cut edge is no edge).
fn clip_rect(
    origin: Point,
    width: f64,
    height: f64,
    paint: &Paint,
    window: &Window,
) -> Vec<Item> {
    let x0 = origin.x.max(window.x);
    let y0 = origin.y.max(window.y);
    let x1 = (origin.x + width).min(window.x + window.w);
    let y1 = (origin.y + height).min(window.y + window.h);
    if x1 <= x0 || y1 <= y0 {
        return Vec::new();
    }
    let shift = |p: Point| Point::new(p.x - window.x, p.y - window.y);
    let whole = x0 == origin.x
        && y0 == origin.y
        && x1 == origin.x + width
        && y1 == origin.y + height;
    if whole {
        return vec![Item::Rect { origin: shift(origin), width, height, paint: *paint }];
    }
    let mut items = Vec::new();
    if let Some(fill) = paint.fill {
        let at = shift(Point::new(x0, y0));
        items.push(Item::Rect {
            origin: at,
            width: x1 - x0,
            height: y1 - y0,
            paint: Paint::fill(fill),
        });
    }
    if let Some(stroke) = paint.stroke {
        let (a, b) = (origin, Point::new(origin.x + width, origin.y + height));
        let sides = [
            (a, Point::new(b.x, a.y)),
            (Point::new(b.x, a.y), b),
            (b, Point::new(a.x, b.y)),
            (Point::new(a.x, b.y), a),
        ];
        for (from, to) in sides {
            if let Some((p, q)) = clip_line(from, to, window) {
                items.push(Item::Line { from: shift(p), to: shift(q), stroke });
            }
        }
    }
    items
}

/// Liang–Barsky: the part of the segment inside the window.
fn clip_line(a: Point, b: Point, w: &Window) -> Option<(Point, Point)> {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let mut t0: f64 = 0.0;
    let mut t1: f64 = 1.0;
    for (p, q) in
        [(-dx, a.x - w.x), (dx, w.x + w.w - a.x), (-dy, a.y - w.y), (dy, w.y + w.h - a.y)]
    {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    if t0 > t1 || (t1 - t0) * (dx.abs() + dy.abs()) < 1e-9 {
        return None;
    }
    Some((
        Point::new(a.x + t0 * dx, a.y + t0 * dy),
        Point::new(a.x + t1 * dx, a.y + t1 * dy),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::Stroke;

    #[test]
    fn a_drawing_that_fits_is_one_tile() {
        let (windows, cols, rows) = plan(100.0, 80.0, 180.0, 240.0, 10.0);
        assert_eq!((cols, rows), (1, 1));
        assert_eq!(windows, [Window { x: 0.0, y: 0.0, w: 100.0, h: 80.0 }]);
    }

    #[test]
    fn tiles_overlap_evenly_and_cover_everything() {
        let (windows, cols, rows) = plan(400.0, 300.0, 180.0, 240.0, 10.0);
        assert_eq!((cols, rows), (3, 2));
        for w in &windows {
            assert!(w.w <= 180.0 && w.h <= 240.0, "{w:?}");
        }
        // Neighbours overlap by exactly the glue margin; the last tile ends at the edge.
        assert!((windows[0].x + windows[0].w - windows[1].x - 10.0).abs() < 1e-9);
        let last = windows.last().unwrap();
        assert!(
            (last.x + last.w - 400.0).abs() < 1e-9
                && (last.y + last.h - 300.0).abs() < 1e-9
        );
    }

    #[test]
    fn lines_are_cut_at_the_window() {
        let window = Window { x: 10.0, y: 10.0, w: 20.0, h: 20.0 };
        let line = Item::Line {
            from: Point::new(0.0, 20.0),
            to: Point::new(50.0, 20.0),
            stroke: Stroke::solid(0.5),
        };
        let [Item::Line { from, to, .. }] = clip(&line, &window)[..] else { panic!() };
        assert_eq!((from, to), (Point::new(0.0, 10.0), Point::new(20.0, 10.0)));
        let outside = Item::Line {
            from: Point::new(0.0, 0.0),
            to: Point::new(5.0, 5.0),
            stroke: Stroke::solid(0.5),
        };
        assert!(clip(&outside, &window).is_empty());
    }

    #[test]
    fn shapes_are_kept_only_when_wholly_inside() {
        let window = Window { x: 0.0, y: 0.0, w: 20.0, h: 20.0 };
        let paint = Paint::outline(Stroke::solid(0.2));
        let inside = Item::Circle { center: Point::new(10.0, 10.0), radius: 5.0, paint };
        let across = Item::Circle { center: Point::new(18.0, 10.0), radius: 5.0, paint };
        assert_eq!(clip(&inside, &window).len(), 1);
        assert!(clip(&across, &window).is_empty());
        // A cut rectangle keeps its fill and its real sides only.
        let bar = Item::Rect {
            origin: Point::new(-10.0, 5.0),
            width: 20.0,
            height: 3.0,
            paint: Paint::both(crate::page::Color::WHITE, Stroke::solid(0.5)),
        };
        let parts = clip(&bar, &window);
        let lines = parts.iter().filter(|i| matches!(i, Item::Line { .. })).count();
        assert_eq!((parts.len(), lines), (4, 3), "fill, top, right and bottom sides");
    }
}
