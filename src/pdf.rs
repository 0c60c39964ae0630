//! Page model → PDF bytes. The only module that knows printpdf, lopdf or points.
//!
//! printpdf writes the document around page streams written here (`pdf/content.rs`);
//! the fonts are subset here first (`pdf/fonts.rs`, `pdf/trimmed.rs`), and a second
//! pass with lopdf, the parser printpdf is built on, makes the bytes reproducible,
//! states what the document is and asks viewers to print at actual size
//! (`pdf/info.rs`).

mod content;
mod fonts;
mod info;
mod outline;
mod pdfa;
mod structure;
mod trimmed;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use printpdf::{PdfDocument, PdfPage, PdfSaveOptions, Point as PdfPoint, Pt, Rect};

use self::content::{Content, Operand, Shown};
use self::fonts::Subset;
pub use self::info::{DocInfo, check_source_date_epoch};
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
    let contents = page_streams(pages, &fonts, scale, &mut elements);
    // printpdf writes the document around the streams written here: it is given
    // empty pages, and the first one shows every glyph once, so that it embeds each
    // face with the widths and ToUnicode map of the glyphs used.
    let pdf_pages = pages
        .iter()
        .enumerate()
        .map(|(index, page)| {
            let paper = || Rect::from_wh(pt(page.width), pt(page.height));
            let ops = if index == 0 { fonts::glyph_usage(&fonts) } else { Vec::new() };
            PdfPage { media_box: paper(), trim_box: paper(), crop_box: paper(), ops }
        })
        .collect();
    doc.with_pages(pdf_pages);
    // printpdf hands over its object tree directly: saving it and parsing the bytes
    // back for the post-pass cost as much as writing the pages.
    let mut warnings = Vec::new();
    let mut doc = doc.to_lopdf_document(&PdfSaveOptions::default(), &mut warnings);
    let page_ids: Vec<_> = doc.get_pages().into_values().collect();
    for (&page_id, content) in page_ids.iter().zip(contents) {
        let stream = doc
            .get_dictionary(page_id)
            .and_then(|page| page.get(b"Contents"))
            .and_then(lopdf::Object::as_reference)
            .expect("printpdf gives every page a content stream");
        doc.get_object_mut(stream)
            .and_then(lopdf::Object::as_stream_mut)
            .expect("a page's content is a stream")
            .set_content(content);
    }
    fonts::correct_descriptors(&mut doc, &fonts);
    structure::write_tree(&mut doc, &page_ids, &elements);
    if pages.len() > 1 {
        outline::write(
            &mut doc,
            &page_ids,
            &outline::entries(&elements, pages.len(), info),
        );
    }
    compress_streams(&mut doc);
    info::describe(&mut doc, info);
    pdfa::add(&mut doc, info, &info::stated(info));
    info::save_with_id(doc)
}

/// Each page's content stream, scaled by `scale` about the page's centre; the
/// structure elements its marked content belongs to are added to `elements`.
fn page_streams(
    pages: &[Page],
    fonts: &BTreeMap<Style, Subset>,
    scale: Option<(f64, f64)>,
    elements: &mut Vec<structure::Element>,
) -> Vec<Vec<u8>> {
    pages
        .iter()
        .enumerate()
        .map(|(index, page)| {
            let flip = |p: Point| point(p, page.height);
            let mut content = Content::default();
            if let Some((sx, sy)) = scale {
                let (cx, cy) = (pt(page.width).0 / 2.0, pt(page.height).0 / 2.0);
                let (sx, sy) = (sx as f32, sy as f32);
                content
                    .numbers(&[sx, 0.0, 0.0, sy, cx * (1.0 - sx), cy * (1.0 - sy)], "cm");
            }
            let mut marks = structure::PageMarks::new(elements, index);
            for item in &page.items {
                // Where a heading's first line starts, for the outline to point at.
                let top = || match item {
                    Item::Text { origin, shaped, .. } => {
                        flip(*origin).y.0 + shaped.size_pt as f32
                    }
                    _ => 0.0,
                };
                if !marks.before(item, top, &mut content) {
                    draw(item, &flip, fonts, &mut content);
                }
            }
            marks.finish(&mut content);
            content.into_bytes()
        })
        .collect()
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
        // Font programs (with their `Length1`) and small streams (the colour profile,
        // the ToUnicode maps of common glyph sets) recur across a build's variants,
        // and resetting the compressor alone costs more than looking a small stream
        // up; large page streams hardly ever recur.
        let memo = match stream.content.len() {
            _ if stream.dict.has(b"Length1") => Some(&FONT_PROGRAMS),
            n if n < SMALL_STREAM => Some(&SMALL_STREAMS),
            _ => None,
        };
        let deflated = match memo {
            Some(memo) => {
                memo.get_or_make(&stream.content[..], || deflate(&stream.content))
            }
            None => deflate(&stream.content),
        };
        if let Some(deflated) = deflated {
            stream.dict.set("Filter", "FlateDecode");
            stream.set_content(deflated.to_vec());
        }
    }
}

/// Streams shorter than this are remembered whatever they hold.
const SMALL_STREAM: usize = 4096;

/// Deflated font programs (each kept whole and deflated): some tens of megabytes
/// at most, a few in a usual build.
static FONT_PROGRAMS: Memo<Vec<u8>, DeflateResult> = Memo::keeping(512);
/// Deflated small streams: at most about 12 MB.
static SMALL_STREAMS: Memo<Vec<u8>, DeflateResult> = Memo::keeping(2048);

/// A stream deflated, or `None` where that would not make it smaller.
type DeflateResult = Option<Arc<[u8]>>;

/// Values made once per process: `kept` of them, then it starts afresh.
struct Memo<K, V> {
    known: Mutex<rustc_hash::FxHashMap<K, V>>,
    kept: usize,
}

impl<K: std::hash::Hash + Eq, V: Clone> Memo<K, V> {
    const fn keeping(kept: usize) -> Self {
        let known = std::collections::HashMap::with_hasher(rustc_hash::FxBuildHasher);
        Memo { known: Mutex::new(known), kept }
    }

    /// The value for `key`, made by `make` the first time.
    fn get_or_make<Q>(&self, key: &Q, make: impl FnOnce() -> V) -> V
    where
        K: std::borrow::Borrow<Q>,
        Q: std::hash::Hash + Eq + ToOwned<Owned = K> + ?Sized,
    {
        if let Some(known) = self.known.lock().expect("no panic holds the lock").get(key)
        {
            return known.clone();
        }
        let value = make();
        let mut known = self.known.lock().expect("no panic holds the lock");
        if known.len() >= self.kept {
            known.clear();
        }
        known.insert(key.to_owned(), value.clone());
        value
    }
}

fn deflate(content: &[u8]) -> Option<Arc<[u8]>> {
    use flate2::{Compress, Compression, FlushCompress, Status};
    thread_local! {
        /// One compressor per thread, reset for each stream: making one clears
        /// hundreds of kilobytes of tables, a third of the cost of a small stream.
        static COMPRESSOR: std::cell::RefCell<Compress> =
            std::cell::RefCell::new(Compress::new(Compression::new(DEFLATE_LEVEL), true));
    }
    COMPRESSOR.with_borrow_mut(|compressor| {
        compressor.reset();
        let mut deflated = Vec::with_capacity(content.len() / 2 + 64);
        loop {
            let rest = &content[compressor.total_in() as usize..];
            let status = compressor
                .compress_vec(rest, &mut deflated, FlushCompress::Finish)
                .expect("deflating in memory cannot fail");
            if status == Status::StreamEnd {
                break;
            }
            deflated.reserve(deflated.capacity());
        }
        (deflated.len() + 19 < content.len()).then(|| deflated.into())
    })
}

fn point(p: Point, page_height: f64) -> PdfPoint {
    PdfPoint { x: pt(p.x), y: pt(page_height - p.y) }
}

/// Greys (every colour the sheets use) go to DeviceGray, so they print on black ink
/// alone; a colour with hue would stay RGB. `operators` are the grey and RGB
/// operators for fill (`g`, `rg`) or stroke (`G`, `RG`).
fn set_color(c: Color, operators: [&str; 2], content: &mut Content) {
    if c.0 == c.1 && c.1 == c.2 {
        content.numbers(&[c.0 as f32], operators[0]);
    } else {
        content.numbers(&[c.0 as f32, c.1 as f32, c.2 as f32], operators[1]);
    }
}

fn draw(
    item: &Item,
    flip: &dyn Fn(Point) -> PdfPoint,
    fonts: &BTreeMap<Style, Subset>,
    content: &mut Content,
) {
    match item {
        Item::Line { from, to, stroke } => {
            set_stroke(stroke, content);
            let (from, to) = (flip(*from), flip(*to));
            content.numbers(&[from.x.0, from.y.0], "m");
            content.numbers(&[to.x.0, to.y.0], "l");
            content.op(&[], "S");
        }
        Item::Rect { origin, width, height, paint } => {
            // A real `re`, so readers see a rectangle rather than four lines.
            let Some(paint_op) = paint_operator(paint, "B") else { return };
            set_paint(paint, content);
            let bottom_left = flip(Point::new(origin.x, origin.y + height));
            let size = [pt(*width).0, pt(*height).0];
            content.numbers(&[bottom_left.x.0, bottom_left.y.0, size[0], size[1]], "re");
            content.op(&[], paint_op);
        }
        Item::Circle { center, radius, paint } => {
            let Some(paint_op) = paint_operator(paint, "b") else { return };
            set_paint(paint, content);
            circle_path(*center, *radius, flip, content);
            content.op(&[], "h");
            content.op(&[], paint_op);
        }
        Item::Polygon { points, paint } => {
            let Some(paint_op) = paint_operator(paint, "b") else { return };
            set_paint(paint, content);
            for (i, &p) in points.iter().enumerate() {
                let p = flip(p);
                content.numbers(&[p.x.0, p.y.0], if i == 0 { "m" } else { "l" });
            }
            content.op(&[], "h");
            content.op(&[], paint_op);
        }
        Item::Text { origin, shaped, color: c } => {
            text(*origin, shaped, *c, flip, &fonts[&shaped.style], content)
        }
        // Structure markers are written by `structure::PageMarks`.
        Item::Begin(_) | Item::End => {}
    }
}

/// A circle as four quarter arcs, each one cubic Bézier: east → south → west →
/// north → east (y grows downward).
fn circle_path(
    c: Point,
    r: f64,
    flip: &dyn Fn(Point) -> PdfPoint,
    content: &mut Content,
) {
    let k = r * KAPPA;
    let (x, y) = (c.x, c.y);
    let start = flip(Point::new(x + r, y));
    content.numbers(&[start.x.0, start.y.0], "m");
    let arcs = [
        [(x + r, y + k), (x + k, y + r), (x, y + r)],
        [(x - k, y + r), (x - r, y + k), (x - r, y)],
        [(x - r, y - k), (x - k, y - r), (x, y - r)],
        [(x + k, y - r), (x + r, y - k), (x + r, y)],
    ];
    for arc in arcs {
        let [a, b, end] = arc.map(|(px, py)| flip(Point::new(px, py)));
        content.numbers(&[a.x.0, a.y.0, b.x.0, b.y.0, end.x.0, end.y.0], "c");
    }
}

/// The operator that paints a path as `paint` asks: fill `f`, stroke `S`, both
/// `fill_and_stroke`; `None` when it asks for neither.
fn paint_operator(paint: &Paint, fill_and_stroke: &'static str) -> Option<&'static str> {
    match (paint.fill, paint.stroke) {
        (Some(_), Some(_)) => Some(fill_and_stroke),
        (Some(_), None) => Some("f"),
        (None, Some(_)) => Some("S"),
        (None, None) => None,
    }
}

fn set_paint(paint: &Paint, content: &mut Content) {
    if let Some(fill) = paint.fill {
        set_color(fill, ["g", "rg"], content);
    }
    if let Some(stroke) = &paint.stroke {
        set_stroke(stroke, content);
    }
}

fn set_stroke(stroke: &Stroke, content: &mut Content) {
    set_color(stroke.color, ["G", "RG"], content);
    content.numbers(&[pt(stroke.width).0], "w");
    let dash = match stroke.dash {
        Some((on, off)) => [pt(on).0, pt(off).0],
        None => [0.0; 2],
    };
    let dash = if stroke.dash.is_some() { &dash[..] } else { &[] };
    content.op(&[Operand::Numbers(dash), Operand::Number(0.0)], "d");
    // Square ends on heavy solid lines, so board edges meet cleanly at the corners;
    // thin lines and dashes keep flat ends, so rulers and cut lines measure as drawn.
    let heavy = stroke.dash.is_none() && stroke.width >= 1.0;
    content.op(&[Operand::Integer(if heavy { 2 } else { 0 })], "J");
}

fn text(
    origin: Point,
    shaped: &Shaped,
    c: Color,
    flip: &dyn Fn(Point) -> PdfPoint,
    font: &Subset,
    content: &mut Content,
) {
    if shaped.glyphs.is_empty() {
        return;
    }
    let at = flip(origin);
    content.op(&[], "BT");
    set_color(c, ["g", "rg"], content);
    let size = Operand::Number(shaped.size_pt as f32);
    content.op(&[Operand::Name(&font.id.0), size], "Tf");
    content.numbers(&[1.0, 0.0, 0.0, 1.0, at.x.0, at.y.0], "Tm");
    // The viewer advances by the font's own widths; the shaper's advances can differ
    // (kerning), so each glyph carries the difference as a TJ adjustment. The subset
    // has a copy of a glyph for each text it stands for, so each code has one text
    // in the ToUnicode map (`fonts.rs`).
    let upem = shaped.units_per_em as f32;
    content.show(shaped.glyphs.iter().flat_map(|g| {
        let glyph = font.glyph(g.id, &g.text);
        let offset = (glyph.advance as f32 - g.advance as f32) * 1000.0 / upem;
        let adjust = (offset != 0.0).then_some(Shown::Adjust(offset));
        std::iter::once(Shown::Code(glyph.id)).chain(adjust)
    }));
    content.op(&[], "ET");
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
