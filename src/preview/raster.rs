//! A page as a PNG: the page model drawn by tiny-skia (anti-aliased, no system
//! libraries) on white, written as 8-bit grey, since every ink the sheets use is grey.

use tiny_skia::{
    FillRule, LineCap, Paint as SkPaint, Path, PathBuilder, Pixmap, Rect, StrokeDash,
    Transform,
};

use super::{Segment, glyph_scale, outline, pen_positions};
use crate::page::{Color, Item, Page, Paint, Point, Stroke};
use crate::text::Shaped;

/// The pixel size of a `width_mm` × `height_mm` page at `dpi`.
pub fn pixel_size(width_mm: f64, height_mm: f64, dpi: u32) -> (u32, u32) {
    // Whole pixels that cover the page, as PDF rasterisers size their canvas.
    let px = |v: f64| ((v / 25.4 * f64::from(dpi) - 1e-6).ceil() as u32).max(1);
    (px(width_mm), px(height_mm))
}

/// The glyphs one build's pictures have drawn, by size, grey and quarter-pixel
/// offset: a page shows the same few dozen glyphs hundreds of times, so each is drawn
/// once and then copied. Owned by the build's last stage and handed to every
/// [`page`]. Measured (default build with PNG previews, one thread): 0.33 s of CPU
/// with the glyphs kept, 0.46 s without.
#[derive(Default)]
pub struct Glyphs(rustc_hash::FxHashMap<GlyphKey, Option<std::rc::Rc<GlyphImage>>>);

impl Glyphs {
    /// Glyph `key`'s pixels, drawn the first time it is asked for.
    fn get(&mut self, key: GlyphKey) -> Option<std::rc::Rc<GlyphImage>> {
        self.0.entry(key).or_insert_with(|| draw_glyph(key).map(Into::into)).clone()
    }
}

/// The PNG of one page at `dpi`, drawn `scale` = (across, down) times larger about
/// its centre when the build is printer-corrected, as its PDF is; its text from the
/// build's `glyphs`.
pub fn page(
    page: &Page,
    dpi: u32,
    scale: Option<(f64, f64)>,
    glyphs: &mut Glyphs,
) -> Vec<u8> {
    let (w, h) = pixel_size(page.width, page.height, dpi);
    let mut pixmap = Pixmap::new(w, h).expect("a page has a positive size");
    pixmap.fill(tiny_skia::Color::WHITE);
    // Millimetres to pixels, the same scale both ways.
    let px_per_mm = (f64::from(dpi) / 25.4) as f32;
    let mut to_px = Transform::from_scale(px_per_mm, px_per_mm);
    if let Some((sx, sy)) = scale {
        let (cx, cy) = (page.width / 2.0, page.height / 2.0);
        to_px = to_px.pre_concat(Transform::from_row(
            sx as f32,
            0.0,
            0.0,
            sy as f32,
            (cx * (1.0 - sx)) as f32,
            (cy * (1.0 - sy)) as f32,
        ));
    }
    for item in &page.items {
        draw(item, &mut pixmap, to_px, glyphs);
    }
    encode_grey(&pixmap)
}

fn draw(item: &Item, pixmap: &mut Pixmap, to_px: Transform, glyphs: &mut Glyphs) {
    match item {
        Item::Line { from, to, stroke } => {
            let (mut a, mut b) = (device(*from, to_px), device(*to, to_px));
            let mut stroke = *stroke;
            let width = stroke.width as f32 * to_px.sx;
            // Rules along the axes cover whole pixels, as PDF viewers' stroke
            // adjustment draws them: a hairline stays one crisp pixel, not two grey.
            stroke.width = f64::from(width);
            if a.x == b.x && to_px.kx == 0.0 {
                let (x, w) = snap(a.x, width);
                (a.x, b.x, stroke.width) = (x, x, f64::from(w));
            } else if a.y == b.y && to_px.ky == 0.0 {
                let (y, w) = snap(a.y, width);
                (a.y, b.y, stroke.width) = (y, y, f64::from(w));
            }
            stroke.dash = stroke
                .dash
                .map(|(on, off)| (on * f64::from(to_px.sx), off * f64::from(to_px.sx)));
            let mut path = PathBuilder::new();
            path.move_to(a.x, a.y);
            path.line_to(b.x, b.y);
            if let Some(path) = path.finish() {
                stroke_path(&path, &stroke, pixmap, Transform::identity());
            }
        }
        Item::Rect { origin, width, height, paint } => {
            let corner = Point::new(origin.x + width, origin.y + height);
            let (a, b) = (device(*origin, to_px), device(corner, to_px));
            if to_px.kx != 0.0 || to_px.ky != 0.0 {
                let rect = Rect::from_ltrb(a.x, a.y, b.x, b.y);
                if let Some(rect) = rect {
                    paint_path(
                        &PathBuilder::from_rect(rect),
                        paint,
                        pixmap,
                        Transform::identity(),
                    );
                }
                return;
            }
            rect(a, b, paint, to_px.sx, pixmap);
        }
        Item::Circle { center, radius, paint } => {
            let circle = PathBuilder::from_circle(
                center.x as f32,
                center.y as f32,
                *radius as f32,
            );
            if let Some(path) = circle {
                paint_path(&path, paint, pixmap, to_px);
            }
        }
        Item::Polygon { points, paint } => {
            if let Some(path) = polygon(points) {
                paint_path(&path, paint, pixmap, to_px);
            }
        }
        Item::Text { origin, shaped, color } => {
            text(*origin, (shaped, *color), (pixmap, to_px), glyphs)
        }
        Item::Begin(_) | Item::End => {}
    }
}

fn device(p: Point, to_px: Transform) -> tiny_skia::Point {
    let mut at = tiny_skia::Point::from_xy(p.x as f32, p.y as f32);
    to_px.map_point(&mut at);
    at
}

/// Where a rule centred on `c`, `width` pixels wide, is drawn with its edges on
/// pixel boundaries, each edge rounded on its own (at least one pixel wide): its
/// new centre and width.
fn snap(c: f32, width: f32) -> (f32, f32) {
    let low = (c - width / 2.0).round();
    let high = (c + width / 2.0).round().max(low + 1.0);
    ((low + high) / 2.0, high - low)
}

/// A rectangle from device corner `a` to `b`, its edges on pixel boundaries as
/// stroke adjustment puts them (the fill to the nearest boundary, the outline's
/// sides as whole-pixel rules).
fn rect(
    a: tiny_skia::Point,
    b: tiny_skia::Point,
    paint: &Paint,
    px_per_mm: f32,
    pixmap: &mut Pixmap,
) {
    if let Some(fill) = paint.fill {
        let (l, t, r, bottom) = (a.x.round(), a.y.round(), b.x.round(), b.y.round());
        let snapped = Rect::from_ltrb(l, t, r.max(l + 1.0), bottom.max(t + 1.0));
        if let Some(snapped) = snapped {
            pixmap.fill_rect(snapped, &sk_paint(fill), Transform::identity(), None);
        }
    }
    let Some(stroke) = paint.stroke else { return };
    let width = stroke.width as f32 * px_per_mm;
    let ((l, w), (r, _)) = (snap(a.x, width), snap(b.x, width));
    let ((t, _), (bottom, _)) = (snap(a.y, width), snap(b.y, width));
    let width = w;
    let mut path = PathBuilder::new();
    path.move_to(l, t);
    path.line_to(r, t);
    path.line_to(r, bottom);
    path.line_to(l, bottom);
    path.close();
    let device_stroke = Stroke {
        width: f64::from(width),
        dash: stroke
            .dash
            .map(|(on, off)| (on * f64::from(px_per_mm), off * f64::from(px_per_mm))),
        ..stroke
    };
    if let Some(path) = path.finish() {
        stroke_path(&path, &device_stroke, pixmap, Transform::identity());
    }
}

fn polygon(points: &[Point]) -> Option<Path> {
    let mut path = PathBuilder::new();
    let (first, rest) = points.split_first()?;
    path.move_to(first.x as f32, first.y as f32);
    for p in rest {
        path.line_to(p.x as f32, p.y as f32);
    }
    path.close();
    path.finish()
}

fn sk_paint(color: Color) -> SkPaint<'static> {
    let mut paint = SkPaint::default();
    let byte = |v: f64| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    paint.set_color_rgba8(byte(color.0), byte(color.1), byte(color.2), 255);
    paint.anti_alias = true;
    paint
}

fn paint_path(path: &Path, paint: &Paint, pixmap: &mut Pixmap, to_px: Transform) {
    if let Some(fill) = paint.fill {
        pixmap.fill_path(path, &sk_paint(fill), FillRule::Winding, to_px, None);
    }
    if let Some(stroke) = &paint.stroke {
        stroke_path(path, stroke, pixmap, to_px);
    }
}

/// Strokes as the PDF sets them: square ends on heavy solid lines, flat otherwise.
fn stroke_path(path: &Path, stroke: &Stroke, pixmap: &mut Pixmap, to_px: Transform) {
    let heavy = stroke.dash.is_none() && stroke.width >= 1.0;
    let sk = tiny_skia::Stroke {
        width: stroke.width as f32,
        miter_limit: 10.0,
        line_cap: if heavy { LineCap::Square } else { LineCap::Butt },
        dash: stroke
            .dash
            .and_then(|(on, off)| StrokeDash::new(vec![on as f32, off as f32], 0.0)),
        ..tiny_skia::Stroke::default()
    };
    pixmap.stroke_path(path, &sk_paint(stroke.color), &sk, to_px, None);
}

fn text(
    origin: Point,
    (shaped, color): (&Shaped, Color),
    (pixmap, to_px): (&mut Pixmap, Transform),
    glyphs: &mut Glyphs,
) {
    let scale = glyph_scale(shaped) as f32;
    let grey = (color.0.clamp(0.0, 1.0) * 255.0).round() as u8;
    for (id, x) in pen_positions(shaped) {
        // Glyphs on a quarter-pixel grid across and whole pixels down, as PDF
        // viewers' glyph caches place them; each drawn once per size and quarter.
        let mut at = tiny_skia::Point::from_xy((origin.x + x) as f32, origin.y as f32);
        to_px.map_point(&mut at);
        let quarters = (at.x * 4.0).floor() as i64;
        let key = GlyphKey {
            style: shaped.style,
            id,
            scale: [(to_px.sx * scale).to_bits(), (to_px.sy * scale).to_bits()],
            grey,
            quarter: quarters.rem_euclid(4) as u8,
        };
        let Some(glyph) = glyphs.get(key) else { continue };
        let pen_x = quarters.div_euclid(4) as i32;
        let (x, y) = (pen_x + glyph.left, at.y.floor() as i32 + glyph.top);
        let paint = tiny_skia::PixmapPaint::default();
        pixmap.draw_pixmap(
            x,
            y,
            glyph.pixels.as_ref(),
            &paint,
            Transform::identity(),
            None,
        );
    }
}

/// A glyph as drawn at one size, grey and quarter-pixel offset.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct GlyphKey {
    style: crate::text::Style,
    id: u16,
    scale: [u32; 2],
    grey: u8,
    quarter: u8,
}

/// A glyph's pixels and where their corner sits from the pen's pixel.
struct GlyphImage {
    pixels: Pixmap,
    left: i32,
    top: i32,
}

fn draw_glyph(key: GlyphKey) -> Option<GlyphImage> {
    let path = glyph_path(&outline(key.style, key.id))?;
    let (sx, sy) = (f32::from_bits(key.scale[0]), f32::from_bits(key.scale[1]));
    let place = Transform::from_row(sx, 0.0, 0.0, -sy, f32::from(key.quarter) / 4.0, 0.0);
    let bounds = path.clone().transform(place)?.bounds();
    let (left, top) = (bounds.left().floor() as i32 - 1, bounds.top().floor() as i32 - 1);
    let width = (bounds.right().ceil() as i32 + 1 - left).max(1) as u32;
    let height = (bounds.bottom().ceil() as i32 + 1 - top).max(1) as u32;
    let mut pixels = Pixmap::new(width, height)?;
    let mut paint = SkPaint::default();
    paint.set_color_rgba8(key.grey, key.grey, key.grey, 255);
    paint.anti_alias = true;
    let place = place.post_translate(-left as f32, -top as f32);
    pixels.fill_path(&path, &paint, FillRule::Winding, place, None);
    Some(GlyphImage { pixels, left, top })
}

fn glyph_path(segments: &[Segment]) -> Option<Path> {
    let mut path = PathBuilder::new();
    for segment in segments {
        match *segment {
            Segment::Move(x, y) => path.move_to(x, y),
            Segment::Line(x, y) => path.line_to(x, y),
            Segment::Quad(a, b, x, y) => path.quad_to(a, b, x, y),
            Segment::Cubic(a, b, c, d, x, y) => path.cubic_to(a, b, c, d, x, y),
            Segment::Close => path.close(),
        }
    }
    path.finish()
}

/// The pixmap as an 8-bit grey PNG (the page is opaque, so alpha is dropped; a
/// colour would be kept as its luma).
fn encode_grey(pixmap: &Pixmap) -> Vec<u8> {
    let grey: Vec<u8> = pixmap
        .data()
        .chunks_exact(4)
        .map(|p| {
            ((u32::from(p[0]) * 299
                + u32::from(p[1]) * 587
                + u32::from(p[2]) * 114
                + 500)
                / 1000) as u8
        })
        .collect();
    let mut bytes = Vec::with_capacity(grey.len() / 4);
    let mut encoder = png::Encoder::new(&mut bytes, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header().expect("a PNG header writes to memory");
    writer.write_image_data(&grey).expect("PNG data writes to memory");
    writer.finish().expect("a PNG finishes in memory");
    bytes
}
