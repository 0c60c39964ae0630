//! Page model → PDF bytes. The only module that knows printpdf, lopdf or points.
//!
//! printpdf writes the document, its pages and their drawing operations (made from
//! the page model in `pdf/draw.rs`) with the fonts, subset here first
//! (`pdf/fonts.rs`, `pdf/trimmed.rs`); a second pass with lopdf, the parser printpdf
//! is built on, adds what printpdf cannot write (the structure tree, the outline, the
//! PDF/A metadata and output intent), makes the bytes reproducible, states what the
//! document is and asks viewers to print at actual size (`pdf/info.rs`).

mod draw;
mod fonts;
mod info;
mod outline;
mod pdfa;
mod structure;
mod trimmed;

use std::sync::{Arc, Mutex};

use printpdf::{PdfDocument, PdfPage, PdfSaveOptions, Point as PdfPoint, Pt, Rect};

pub use self::info::{DocInfo, check_source_date_epoch, days_from_civil};
use crate::page::{Page, Point};

const PT_PER_MM: f64 = 72.0 / 25.4;

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
    let ops = draw::page_ops(pages, &fonts, scale, &mut elements);
    let pdf_pages = pages
        .iter()
        .zip(ops)
        .map(|(page, ops)| {
            let paper = || Rect::from_wh(pt(page.width), pt(page.height));
            PdfPage { media_box: paper(), trim_box: paper(), crop_box: paper(), ops }
        })
        .collect();
    doc.with_pages(pdf_pages);
    // printpdf hands over its object tree directly: saving it and parsing the bytes
    // back for the post-pass cost as much as writing the pages.
    let mut warnings = Vec::new();
    let mut doc = doc.to_lopdf_document(&PdfSaveOptions::default(), &mut warnings);
    let page_ids: Vec<_> = doc.get_pages().into_values().collect();
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
