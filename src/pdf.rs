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

use printpdf::{PdfDocument, PdfPage, PdfSaveOptions, Point as PdfPoint, Pt, Rect};

pub use self::info::{DocInfo, check_source_date_epoch};
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
    info::describe(&mut doc, info);
    pdfa::add(&mut doc, info, &info::stated(info));
    info::save_with_id(doc)
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
        let deflated = deflate(&stream.content);
        if let Some(deflated) = deflated {
            stream.dict.set("Filter", "FlateDecode");
            stream.set_content(deflated);
        }
    }
}

/// A stream deflated, or `None` where that would not make it smaller.
fn deflate(content: &[u8]) -> Option<Vec<u8>> {
    use flate2::{Compress, Compression, FlushCompress, Status};
    // A compressor made for each stream: keeping one per thread saved no measurable
    // time (A4 matrix on one thread, 4.17 s of CPU with one kept, 4.23 s without,
    // within the noise of the shared machine).
    let mut compressor = Compress::new(Compression::new(DEFLATE_LEVEL), true);
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
    (deflated.len() + 19 < content.len()).then_some(deflated)
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
