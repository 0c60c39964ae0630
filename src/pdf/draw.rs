//! The page model as printpdf's drawing operations: one list of [`Op`]s per page,
//! which printpdf writes into the page's content stream. Structure markers become
//! marked content on the way (`structure.rs`).

use std::collections::BTreeMap;

use printpdf::{
    Codepoint, CurTransMat, Line, LineCapStyle, LineDashPattern, LinePoint, Op,
    PaintMode, PdfFontHandle, Point as PdfPoint, Polygon, PolygonRing, Pt, Rect,
    TextItem, TextMatrix, WindingOrder,
};

use super::fonts::Subset;
use super::structure::{Element, PageMarks};
use super::{point, pt};
use crate::page::{Color, Item, Page, Paint, Point, Stroke};
use crate::text::{Shaped, Style};

/// Control-point distance for a quarter circle drawn as one cubic Bézier.
const KAPPA: f64 = 0.552_284_749_8;

/// Each page's operations, scaled by `scale` about the page's centre; the structure
/// elements its marked content belongs to are added to `elements`.
pub(super) fn page_ops(
    pages: &[Page],
    fonts: &BTreeMap<Style, Subset>,
    scale: Option<(f64, f64)>,
    elements: &mut Vec<Element>,
) -> Vec<Vec<Op>> {
    pages
        .iter()
        .enumerate()
        .map(|(index, page)| {
            let flip = |p: Point| point(p, page.height);
            let mut ops = Vec::new();
            if let Some((sx, sy)) = scale {
                let (cx, cy) = (pt(page.width).0 / 2.0, pt(page.height).0 / 2.0);
                let (sx, sy) = (sx as f32, sy as f32);
                let matrix = [sx, 0.0, 0.0, sy, cx * (1.0 - sx), cy * (1.0 - sy)];
                ops.push(Op::SetTransformationMatrix {
                    matrix: CurTransMat::Raw(matrix),
                });
            }
            let mut marks = PageMarks::new(elements, index);
            for item in &page.items {
                // Where a heading's first line starts, for the outline to point at.
                let top = || match item {
                    Item::Text { origin, shaped, .. } => {
                        flip(*origin).y.0 + shaped.size_pt as f32
                    }
                    _ => 0.0,
                };
                if !marks.before(item, top, &mut ops) {
                    draw(item, &flip, fonts, &mut ops);
                }
            }
            marks.finish(&mut ops);
            ops
        })
        .collect()
}

fn draw(
    item: &Item,
    flip: &dyn Fn(Point) -> PdfPoint,
    fonts: &BTreeMap<Style, Subset>,
    ops: &mut Vec<Op>,
) {
    match item {
        Item::Line { from, to, stroke } => {
            set_stroke(stroke, ops);
            let points = [from, to].map(|p| LinePoint { p: flip(*p), bezier: false });
            let line = Line { points: points.to_vec(), is_closed: false };
            ops.push(Op::DrawLine { line });
        }
        Item::Rect { origin, width, height, paint } => {
            // A real `re`, so readers see a rectangle rather than four lines.
            let Some(mode) = paint_mode(paint) else { return };
            set_paint(paint, ops);
            let bottom_left = flip(Point::new(origin.x, origin.y + height));
            let rectangle = Rect {
                x: bottom_left.x,
                y: bottom_left.y,
                width: pt(*width),
                height: pt(*height),
                mode: Some(mode),
                winding_order: Some(WindingOrder::NonZero),
            };
            ops.push(Op::DrawRectangle { rectangle });
        }
        Item::Circle { center, radius, paint } => {
            let points = circle_path(*center, *radius, flip);
            fill_shape(points, paint, ops);
        }
        Item::Polygon { points, paint } => {
            let points = points.iter().map(|&p| LinePoint { p: flip(p), bezier: false });
            fill_shape(points.collect(), paint, ops);
        }
        Item::Text { origin, shaped, color: c } => {
            text(flip(*origin), shaped, *c, &fonts[&shaped.style], ops)
        }
        // Structure markers are written by `structure::PageMarks`.
        Item::Begin(_) | Item::End => {}
    }
}

/// A closed path through `points`, painted as `paint` asks.
fn fill_shape(points: Vec<LinePoint>, paint: &Paint, ops: &mut Vec<Op>) {
    let Some(mode) = paint_mode(paint) else { return };
    set_paint(paint, ops);
    let polygon = Polygon {
        rings: vec![PolygonRing { points }],
        mode,
        winding_order: WindingOrder::NonZero,
    };
    ops.push(Op::DrawPolygon { polygon });
}

/// A circle as four quarter arcs, each one cubic Bézier: east → south → west →
/// north → east (y grows downward).
fn circle_path(c: Point, r: f64, flip: &dyn Fn(Point) -> PdfPoint) -> Vec<LinePoint> {
    let k = r * KAPPA;
    let (x, y) = (c.x, c.y);
    let at =
        |(px, py): (f64, f64), bezier| LinePoint { p: flip(Point::new(px, py)), bezier };
    let arcs = [
        [(x + r, y + k), (x + k, y + r), (x, y + r)],
        [(x - k, y + r), (x - r, y + k), (x - r, y)],
        [(x - r, y - k), (x - k, y - r), (x, y - r)],
        [(x + k, y - r), (x + r, y - k), (x + r, y)],
    ];
    let mut points = vec![at((x + r, y), false)];
    for [a, b, end] in arcs {
        points.extend([at(a, true), at(b, true), at(end, false)]);
    }
    points
}

/// How a path is painted as `paint` asks; `None` when it asks for nothing.
fn paint_mode(paint: &Paint) -> Option<PaintMode> {
    match (paint.fill, paint.stroke) {
        (Some(_), Some(_)) => Some(PaintMode::FillStroke),
        (Some(_), None) => Some(PaintMode::Fill),
        (None, Some(_)) => Some(PaintMode::Stroke),
        (None, None) => None,
    }
}

fn set_paint(paint: &Paint, ops: &mut Vec<Op>) {
    if let Some(fill) = paint.fill {
        ops.push(Op::SetFillColor { col: color(fill) });
    }
    if let Some(stroke) = &paint.stroke {
        set_stroke(stroke, ops);
    }
}

/// Greys (every colour the sheets use) go to DeviceGray, so they print on black ink
/// alone; a colour with hue would stay RGB.
fn color(c: Color) -> printpdf::Color {
    if c.0 == c.1 && c.1 == c.2 {
        printpdf::Color::Greyscale(printpdf::Greyscale::new(c.0 as f32, None))
    } else {
        printpdf::Color::Rgb(printpdf::Rgb::new(c.0 as f32, c.1 as f32, c.2 as f32, None))
    }
}

fn set_stroke(stroke: &Stroke, ops: &mut Vec<Op>) {
    ops.push(Op::SetOutlineColor { col: color(stroke.color) });
    ops.push(Op::SetOutlineThickness { pt: pt(stroke.width) });
    let dash = match stroke.dash {
        Some((on, off)) => LineDashPattern::new(0.0, &[pt(on).0, pt(off).0]),
        None => LineDashPattern::solid(),
    };
    ops.push(Op::SetLineDashPattern { dash });
    // Square ends on heavy solid lines, so board edges meet cleanly at the corners;
    // thin lines and dashes keep flat ends, so rulers and cut lines measure as drawn.
    let heavy = stroke.dash.is_none() && stroke.width >= 1.0;
    let cap = if heavy { LineCapStyle::ProjectingSquare } else { LineCapStyle::Butt };
    ops.push(Op::SetLineCapStyle { cap });
}

fn text(at: PdfPoint, shaped: &Shaped, c: Color, font: &Subset, ops: &mut Vec<Op>) {
    if shaped.glyphs.is_empty() {
        return;
    }
    ops.push(Op::StartTextSection);
    ops.push(Op::SetFillColor { col: color(c) });
    let handle = PdfFontHandle::External(font.id.clone());
    ops.push(Op::SetFont { font: handle, size: Pt(shaped.size_pt as f32) });
    let matrix = TextMatrix::Raw([1.0, 0.0, 0.0, 1.0, at.x.0, at.y.0]);
    ops.push(Op::SetTextMatrix { matrix });
    // The viewer advances by the font's own widths; the shaper's advances can differ
    // (kerning), so each glyph carries the difference as a TJ adjustment. The subset
    // has a copy of a glyph for each text it stands for, so each code has one text
    // in the ToUnicode map (`fonts.rs`), which printpdf writes from these glyphs.
    let upem = shaped.units_per_em as f32;
    let glyphs = shaped.glyphs.iter().map(|g| {
        let glyph = font.glyph(g.id, &g.text);
        Codepoint {
            gid: glyph.id,
            offset: (glyph.advance as f32 - g.advance as f32) * 1000.0 / upem,
            cid: Some(g.text.to_string()),
        }
    });
    ops.push(Op::ShowText { items: vec![TextItem::GlyphIds(glyphs.collect())] });
    ops.push(Op::EndTextSection);
}
