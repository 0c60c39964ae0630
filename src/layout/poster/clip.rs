//! Cutting a drawing to one part's window: lines are clipped, rectangles cut to the
//! window, and anything else kept only where it lies wholly inside, so that what
//! reaches the PDF is exactly what prints.

use crate::layout::EPS_MM;
use crate::page::{Item, Paint, Point};

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
        // Structure markers have no extent: every part keeps them.
        Item::Begin(_) | Item::End => Some(item.clone()),
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
    if t0 > t1 || (t1 - t0) * (dx.abs() + dy.abs()) < EPS_MM {
        return None;
    }
    Some((
        Point::new(a.x + t0 * dx, a.y + t0 * dy),
        Point::new(a.x + t1 * dx, a.y + t1 * dy),
    ))
}
