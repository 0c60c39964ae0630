//! Page model → PDF bytes. The only module that knows printpdf, lopdf or points.
//!
//! printpdf writes the document; the fonts are subset here first (`pdf/fonts.rs`), and a
//! second pass with lopdf, the parser printpdf is built on, makes the bytes
//! reproducible, states what the document is and asks viewers to print at actual
//! size (`pdf/info.rs`).

mod fonts;
mod info;
mod outline;
mod pdfa;
mod structure;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, OnceLock};

use printpdf::{
    Color as PdfColor, Greyscale, LineCapStyle, LineDashPattern, LinePoint, Op,
    PaintMode, PdfDocument, PdfFontHandle, PdfPage, PdfSaveOptions, Point as PdfPoint,
    Polygon, PolygonRing, Pt, Rect, Rgb, TextItem, TextMatrix, WindingOrder,
};

use self::fonts::Subset;
pub use self::info::DocInfo;
use crate::page::{Color, Item, Page, Paint, Point, Stroke};
use crate::text::{Shaped, Style};

const PT_PER_MM: f64 = 72.0 / 25.4;
/// Control-point distance for a quarter circle drawn as one cubic Bézier.
const KAPPA: f64 = 0.552_284_749_8;

/// Millimetres to points, computed in f64 and rounded once to printpdf's f32, so a
/// Letter page is 612 pt, not 612.00006.
fn pt(mm: f64) -> Pt {
    Pt((mm * PT_PER_MM) as f32)
}

/// Writes the pages as one PDF with the given title, language and direction. The
/// same pages and info always give the same bytes (the dates come from
/// `SOURCE_DATE_EPOCH` when it is set, otherwise they are a fixed date).
pub fn write_with(pages: &[Page], info: &DocInfo) -> Vec<u8> {
    write_scaled(pages, info, None)
}

/// [`write_with`], every page drawn `scale` = (across, down) times larger about its
/// centre: one `cm` before anything else, so every length scales alike (a printer
/// correction, `calibrate.rs`). `None` writes exactly what `write_with` writes.
pub fn write_scaled(
    pages: &[Page],
    info: &DocInfo,
    scale: Option<(f64, f64)>,
) -> Vec<u8> {
    let fonts = fonts::subsets(pages);
    let mut doc = PdfDocument::new(&info.title);
    for subset in fonts.values() {
        doc.resources.fonts.map.insert(subset.id.clone(), subset.font.clone());
    }
    let mut elements = Vec::new();
    let pdf_pages = pages
        .iter()
        .enumerate()
        .map(|(index, page)| {
            let flip = |p: Point| point(p, page.height);
            let mut ops = Vec::new();
            if let Some((sx, sy)) = scale {
                let (cx, cy) = (pt(page.width).0 / 2.0, pt(page.height).0 / 2.0);
                let (sx, sy) = (sx as f32, sy as f32);
                let matrix = [sx, 0.0, 0.0, sy, cx * (1.0 - sx), cy * (1.0 - sy)];
                let matrix = printpdf::CurTransMat::Raw(matrix);
                ops.push(Op::SetTransformationMatrix { matrix });
            }
            let mut marks = structure::PageMarks::new(&mut elements, index);
            for item in &page.items {
                // Where a heading's first line starts, for the outline to point at.
                let top = || match item {
                    Item::Text { origin, shaped, .. } => {
                        flip(*origin).y.0 + shaped.size_pt as f32
                    }
                    _ => 0.0,
                };
                if !marks.before(item, top, &mut ops) {
                    item_ops(item, &flip, &fonts, &mut ops);
                }
            }
            marks.finish(&mut ops);
            let paper = || Rect::from_wh(pt(page.width), pt(page.height));
            PdfPage { media_box: paper(), trim_box: paper(), crop_box: paper(), ops }
        })
        .collect();
    doc.with_pages(pdf_pages);
    // printpdf hands over its object tree directly: saving it and parsing the bytes
    // back for the post-pass cost as much as writing the pages.
    let mut warnings = Vec::new();
    let mut doc = doc.to_lopdf_document(&PdfSaveOptions::default(), &mut warnings);
    fonts::correct_descriptors(&mut doc, &fonts);
    let page_ids: Vec<_> = doc.get_pages().into_values().collect();
    structure::write_tree(&mut doc, &page_ids, &elements);
    if pages.len() > 1 {
        outline::write(
            &mut doc,
            &page_ids,
            &outline::entries(&elements, pages.len(), info),
        );
    }
    compress_streams(&mut doc);
    info::finish(doc, info)
}

/// zlib level for content and font streams (zlib-rs). Measured over the full build
/// matrix (`--lang all --all-sizes`, one thread): level 2 took 3.9 s and wrote
/// 40.2 MB, level 6 4.6 s and 38.2 MB, level 9 5.5 s and 38.0 MB.
const DEFLATE_LEVEL: u32 = 2;

/// Deflates every stream that allows it and is not already filtered, keeping the
/// raw bytes where deflating would not make them smaller (as lopdf's own pass does).
fn compress_streams(doc: &mut lopdf::Document) {
    for object in doc.objects.values_mut() {
        let lopdf::Object::Stream(stream) = object else { continue };
        if !stream.allows_compression || stream.dict.get(b"Filter").is_ok() {
            continue;
        }
        if let Some(deflated) = deflated(&stream.content) {
            stream.dict.set("Filter", "FlateDecode");
            stream.set_content(deflated.to_vec());
        }
    }
}

/// `content` deflated, or `None` where that would not make it smaller. Large streams
/// (font programs, mostly) recur across the variants of one build, so they are
/// deflated once per process.
fn deflated(content: &[u8]) -> Option<Arc<[u8]>> {
    /// Smaller streams are content streams, rarely repeated.
    const REMEMBERED_FROM: usize = 4096;
    /// Streams remembered before starting afresh: at most a few tens of megabytes.
    const KEPT: usize = 512;
    type Deflated = Mutex<HashMap<Vec<u8>, Option<Arc<[u8]>>>>;
    static DEFLATED: OnceLock<Deflated> = OnceLock::new();
    if content.len() < REMEMBERED_FROM || content.len() > MAX_REMEMBERED {
        return deflate(content);
    }
    let memo = DEFLATED.get_or_init(Deflated::default);
    if let Some(known) = memo.lock().expect("no panic holds the lock").get(content) {
        return known.clone();
    }
    let result = deflate(content);
    let mut memo = memo.lock().expect("no panic holds the lock");
    if memo.len() >= KEPT {
        memo.clear();
    }
    memo.insert(content.to_vec(), result.clone());
    result
}

/// The largest stream remembered (a subset of both faces is under 300 kB).
const MAX_REMEMBERED: usize = 1 << 20;

fn deflate(content: &[u8]) -> Option<Arc<[u8]>> {
    use std::io::Write;
    let level = flate2::Compression::new(DEFLATE_LEVEL);
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), level);
    encoder.write_all(content).expect("writing to memory cannot fail");
    let deflated = encoder.finish().expect("writing to memory cannot fail");
    (deflated.len() + 19 < content.len()).then(|| deflated.into())
}

fn point(p: Point, page_height: f64) -> PdfPoint {
    PdfPoint { x: pt(p.x), y: pt(page_height - p.y) }
}

/// Greys (every colour the sheets use) go to DeviceGray, so they print on black ink
/// alone; a colour with hue would stay RGB.
fn color(c: Color) -> PdfColor {
    if c.0 == c.1 && c.1 == c.2 {
        PdfColor::Greyscale(Greyscale { percent: c.0 as f32, icc_profile: None })
    } else {
        PdfColor::Rgb(Rgb {
            r: c.0 as f32,
            g: c.1 as f32,
            b: c.2 as f32,
            icc_profile: None,
        })
    }
}

fn item_ops(
    item: &Item,
    flip: &dyn Fn(Point) -> PdfPoint,
    fonts: &BTreeMap<Style, Subset>,
    ops: &mut Vec<Op>,
) {
    match item {
        Item::Line { from, to, stroke } => {
            set_stroke(stroke, ops);
            let points = vec![corner(flip(*from)), corner(flip(*to))];
            ops.push(Op::DrawLine { line: printpdf::Line { points, is_closed: false } });
        }
        Item::Rect { origin, width, height, paint } => {
            // A real `re`, so readers see a rectangle rather than four lines.
            let Some(mode) = paint_mode(paint) else { return };
            set_paint(paint, ops);
            let bottom_left = flip(Point::new(origin.x, origin.y + height));
            ops.push(Op::DrawRectangle {
                rectangle: printpdf::Rect {
                    x: bottom_left.x,
                    y: bottom_left.y,
                    width: pt(*width),
                    height: pt(*height),
                    mode: Some(mode),
                    winding_order: None,
                },
            });
        }
        Item::Circle { center, radius, paint } => {
            shape(circle_ring(*center, *radius, flip), paint, ops);
        }
        Item::Polygon { points, paint } => {
            let ring = points.iter().map(|&p| corner(flip(p))).collect();
            shape(ring, paint, ops);
        }
        Item::Text { origin, shaped, color: c } => {
            text_ops(*origin, shaped, *c, flip, &fonts[&shaped.style], ops)
        }
        // Structure markers are written by `structure::PageMarks`.
        Item::Begin(_) | Item::End => {}
    }
}

fn corner(p: PdfPoint) -> LinePoint {
    LinePoint { p, bezier: false }
}

fn circle_ring(c: Point, r: f64, flip: &dyn Fn(Point) -> PdfPoint) -> Vec<LinePoint> {
    let k = r * KAPPA;
    // Four quarter arcs: east → south → west → north → east (y grows downward).
    let (x, y) = (c.x, c.y);
    let pts = [
        (x + r, y, false),
        (x + r, y + k, true),
        (x + k, y + r, true),
        (x, y + r, false),
        (x - k, y + r, true),
        (x - r, y + k, true),
        (x - r, y, false),
        (x - r, y - k, true),
        (x - k, y - r, true),
        (x, y - r, false),
        (x + k, y - r, true),
        (x + r, y - k, true),
        (x + r, y, false),
    ];
    pts.iter()
        .map(|&(px, py, bezier)| LinePoint { p: flip(Point::new(px, py)), bezier })
        .collect()
}

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

fn shape(points: Vec<LinePoint>, paint: &Paint, ops: &mut Vec<Op>) {
    let Some(mode) = paint_mode(paint) else { return };
    set_paint(paint, ops);
    let polygon = Polygon {
        rings: vec![PolygonRing { points }],
        mode,
        winding_order: WindingOrder::NonZero,
    };
    ops.push(Op::DrawPolygon { polygon });
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

fn text_ops(
    origin: Point,
    shaped: &Shaped,
    c: Color,
    flip: &dyn Fn(Point) -> PdfPoint,
    font: &Subset,
    ops: &mut Vec<Op>,
) {
    if shaped.glyphs.is_empty() {
        return;
    }
    let at = flip(origin);
    // The viewer advances by the font's own widths; the shaper's advances can differ
    // (kerning), so each glyph carries the difference as a TJ adjustment.
    let upem = shaped.units_per_em as f32;
    let glyphs = shaped
        .glyphs
        .iter()
        .map(|g| {
            let glyph = font.glyph(g.id, &g.text);
            let offset = (glyph.advance as f32 - g.advance as f32) * 1000.0 / upem;
            // The subset has a copy of the glyph for each text it stands for, so
            // each code carries one text (printpdf builds the ToUnicode map from
            // them; an empty text leaves the code unmapped).
            printpdf::Codepoint {
                gid: glyph.id,
                offset,
                cid: Some(glyph.text.to_string()),
            }
        })
        .collect();
    ops.push(Op::StartTextSection);
    ops.push(Op::SetFillColor { col: color(c) });
    ops.push(Op::SetFont {
        font: PdfFontHandle::External(font.id.clone()),
        size: Pt(shaped.size_pt as f32),
    });
    ops.push(Op::SetTextMatrix { matrix: TextMatrix::Translate(at.x, at.y) });
    ops.push(Op::ShowText { items: vec![TextItem::GlyphIds(glyphs)] });
    ops.push(Op::EndTextSection);
}

/// FNV-1a: a stable hash for the document id (std's hashers may change between
/// releases; this one never does).
fn fnv1a(bytes: &[u8], salt: u8) -> u64 {
    fnv1a_salted(bytes, [salt])[0]
}

/// [`fnv1a`] with several salts in one pass: the chains of multiplications overlap,
/// so two hashes cost about what one does.
fn fnv1a_salted<const N: usize>(bytes: &[u8], salts: [u8; N]) -> [u64; N] {
    const BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut hashes = salts.map(|salt| BASIS ^ salt as u64);
    for &b in bytes {
        for hash in &mut hashes {
            *hash = (*hash ^ b as u64).wrapping_mul(PRIME);
        }
    }
    hashes
}
