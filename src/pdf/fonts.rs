//! The faces as one document embeds them: subset to the glyphs its pages use, named
//! with a tag derived from that glyph set, and with one text per glyph for the
//! ToUnicode map.
//!
//! A ToUnicode map gives each code one text for the whole file, but one glyph can
//! stand for different text in different places (a fathatan on its own, or read
//! with the alef of the lam-alef ligature it sits in). Such a glyph is put into the subset once per text,
//! so each copy has its own code and its own entry.
//!
//! printpdf is used without its `text_layout` feature (which brings in a whole GUI
//! layout engine), and in that configuration it embeds whatever font program it is
//! given. So the subsetting happens here, with the subsetter of allsorts, the font
//! library printpdf itself is built on (no extra dependency), and printpdf embeds
//! the finished subset.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, OnceLock};

use allsorts::subset::{CmapTarget, SubsetProfile, subset};
use printpdf::{FontId, ParsedFont, PdfFont};
use rustybuzz::ttf_parser;

use super::trimmed::FaceTables;
use crate::page::{Item, Page};
use crate::text::Style;

/// One face, subset for one document.
pub(super) struct Subset {
    /// The resource name the content streams use.
    pub id: FontId,
    /// The subset font, as printpdf embeds it.
    pub font: PdfFont,
    /// Original glyph id and the text it stands for → its glyph id in the subset.
    glyphs: rustc_hash::FxHashMap<(u16, Arc<str>), u16>,
    /// The face's cap height in thousandths of an em.
    cap_height: i64,
}

/// A glyph as the content stream writes it.
pub(super) struct SubsetGlyph {
    /// Glyph id in the subset (what the content stream shows).
    pub id: u16,
    /// Advance width in font units (what the viewer advances by).
    pub advance: u16,
}

impl Subset {
    /// The subset's glyph for an original glyph id standing for `text`.
    pub fn glyph(&self, original: u16, text: &Arc<str>) -> SubsetGlyph {
        let key = (original, text.clone());
        let id = *self.glyphs.get(&key).expect("glyph was collected");
        let advance = self.font.parsed_font.get_glyph_width(id).unwrap_or(0);
        SubsetGlyph { id, advance }
    }
}

/// The subsets of every face the pages use, in a fixed order.
pub(super) fn subsets(pages: &[Page]) -> BTreeMap<Style, Subset> {
    used_glyphs(pages)
        .into_iter()
        .map(|(style, usage)| (style, subset_face(style, usage)))
        .collect()
}

/// The glyphs one face shows in a document.
#[derive(Default)]
struct Usage {
    /// Every glyph, with each text it stands for somewhere.
    glyphs: BTreeSet<(u16, Arc<str>)>,
}

/// What each face the pages use shows.
fn used_glyphs(pages: &[Page]) -> BTreeMap<Style, Usage> {
    let mut used: BTreeMap<Style, Usage> = BTreeMap::new();
    for item in pages.iter().flat_map(|p| &p.items) {
        let Item::Text { shaped, .. } = item else { continue };
        let face = used.entry(shaped.style).or_default();
        for glyph in &shaped.glyphs {
            face.glyphs.insert((glyph.id, glyph.text.clone()));
        }
    }
    used
}

fn subset_face(style: Style, Usage { glyphs: usage }: Usage) -> Subset {
    // .notdef first, then the used glyphs in ascending order, a glyph once per text
    // it stands for; allsorts gives each requested glyph its position in this list as
    // its new id (composite glyphs' components are appended after them) and copies a
    // glyph requested twice.
    let (notdef, usage): (Vec<_>, Vec<_>) = usage.into_iter().partition(|(g, _)| *g == 0);
    let ids: Vec<u16> = std::iter::once(0).chain(usage.iter().map(|(g, _)| *g)).collect();
    let bytes = style.font_bytes();
    let program = subset_program(style, &ids);
    let mut parsed =
        ParsedFont::from_bytes(&program, 0, &mut Vec::new()).expect("subset parses");
    let face = ttf_parser::Face::parse(bytes, 0).expect("shipped font parses");
    // The subset has no OS/2 table; printpdf estimates /StemV from its weight class.
    parsed.pdf_font_metrics.us_weight_class = face.weight().to_number();
    let cap_height = cap_height(&face) as i64 * 1000 / face.units_per_em() as i64;
    let name = postscript_name(style);
    parsed.font_name = Some(format!("{}+{name}", subset_tag(name, &ids)));
    let glyphs =
        notdef.into_iter().map(|key| (key, 0)).chain(usage.into_iter().zip(1u16..));
    let glyphs = glyphs.collect();
    Subset { id: font_id(style), font: PdfFont::new(parsed), glyphs, cap_height }
}

/// The face cut down to `ids`, in that order, by allsorts from a face trimmed to
/// those glyphs (`trimmed.rs`: the same bytes, a tenth of the work).
fn subset_program(style: Style, ids: &[u16]) -> Vec<u8> {
    // The shipped faces' tables, found on first use: constants of the program (the
    // fonts are compiled in), not a cache of anything a build computes.
    static REGULAR: OnceLock<FaceTables<'static>> = OnceLock::new();
    static BOLD: OnceLock<FaceTables<'static>> = OnceLock::new();
    let face = match style {
        Style::Regular => &REGULAR,
        Style::Bold => &BOLD,
    };
    let face = face.get_or_init(|| FaceTables::new(style.font_bytes()));
    let (trimmed, ids_there) = face.trimmed(ids);
    subset(&trimmed, &ids_there, &SubsetProfile::Pdf, CmapTarget::Unicode)
        .expect("shipped font subsets")
}

/// The height of capital letters in font units: OS/2 `sCapHeight` where the table
/// has it (DejaVu's OS/2 is too old to), else the top of the `H`.
fn cap_height(face: &ttf_parser::Face) -> i16 {
    face.capital_height()
        .or_else(|| face.glyph_bounding_box(face.glyph_index('H')?).map(|b| b.y_max))
        .unwrap_or(face.ascender())
}

/// Sets each embedded subset's `/CapHeight` to the face's own (printpdf writes the
/// ascent there when it has not parsed the font itself).
pub(super) fn correct_descriptors(
    doc: &mut lopdf::Document,
    fonts: &BTreeMap<Style, Subset>,
) {
    for object in doc.objects.values_mut() {
        let Ok(dict) = object.as_dict_mut() else { continue };
        if !dict.has_type(b"FontDescriptor") {
            continue;
        }
        let Ok(name) = dict.get(b"FontName").and_then(lopdf::Object::as_name) else {
            continue;
        };
        let font = fonts.values().find(|f| {
            f.font.parsed_font.font_name.as_deref().map(str::as_bytes) == Some(name)
        });
        if let Some(font) = font {
            dict.set("CapHeight", lopdf::Object::Integer(font.cap_height));
        }
    }
}

/// Fixed resource names, so that fonts are named the same in every run (printpdf's
/// own ids come from a process-wide counter).
fn font_id(style: Style) -> FontId {
    FontId(match style {
        Style::Regular => "TKSANS".to_string(),
        Style::Bold => "TKBOLD".to_string(),
    })
}

/// The face's PostScript name (name id 6), e.g. `DejaVuSans-Bold`: read from the
/// compiled-in font on first use, a constant of the program rather than a cache.
fn postscript_name(style: Style) -> &'static str {
    static REGULAR: OnceLock<String> = OnceLock::new();
    static BOLD: OnceLock<String> = OnceLock::new();
    let cell = match style {
        Style::Regular => &REGULAR,
        Style::Bold => &BOLD,
    };
    cell.get_or_init(|| {
        let face = ttf_parser::Face::parse(style.font_bytes(), 0).expect("font parses");
        face.names()
            .into_iter()
            .filter(|n| n.name_id == ttf_parser::name_id::POST_SCRIPT_NAME)
            .find_map(|n| n.to_string())
            .unwrap_or_else(|| format!("{style:?}"))
    })
}

/// The six capital letters before the `+` of a subset's name (ISO 32000-1, 9.6.4),
/// derived from the face and the glyph set: the same subset always gets the same
/// tag, and different subsets get different tags (up to a 1 in 26⁶ collision).
fn subset_tag(name: &str, ids: &[u16]) -> String {
    let mut bytes = name.as_bytes().to_vec();
    bytes.push(0);
    bytes.extend(ids.iter().flat_map(|id| id.to_be_bytes()));
    let mut hash = super::fnv1a(&bytes, 0);
    (0..6)
        .map(|_| {
            let letter = b'A' + (hash % 26) as u8;
            hash /= 26;
            letter as char
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subset_tags_are_six_capitals_and_follow_the_glyph_set() {
        let a = subset_tag("DejaVuSans", &[0, 3, 4]);
        assert_eq!(a.len(), 6);
        assert!(a.bytes().all(|b| b.is_ascii_uppercase()), "{a}");
        assert_eq!(a, subset_tag("DejaVuSans", &[0, 3, 4]));
        assert_ne!(a, subset_tag("DejaVuSans", &[0, 3, 5]));
        assert_ne!(a, subset_tag("DejaVuSans-Bold", &[0, 3, 4]));
    }

    #[test]
    fn a_glyph_standing_for_two_texts_gets_a_code_for_each() {
        use crate::page::{Color, Point};
        use crate::text::{Reading, Shaper};
        // The fathatan is read on its own after a teh marbuta, but with the alef
        // of the lam-alef ligature it sits in.
        let mut page = Page::new(210.0, 297.0);
        for word in ["مباشرةً", "أولًا"] {
            let shaped =
                Shaper::new().shape(word, Style::Regular, 10.0, Reading::RightToLeft);
            let origin = Point::new(20.0, 20.0);
            page.items.push(Item::Text { origin, shaped, color: Color(0.0, 0.0, 0.0) });
        }
        let fonts = subsets(&[page]);
        let font = &fonts[&Style::Regular];
        let face = ttf_parser::Face::parse(Style::Regular.font_bytes(), 0).unwrap();
        let fathatan = face.glyph_index('\u{64b}').unwrap().0;
        let alone = font.glyph(fathatan, &"\u{64b}".into());
        // Stored reversed, as right-to-left text is.
        let with_alef = font.glyph(fathatan, &"ا\u{64b}".into());
        assert_ne!(alone.id, with_alef.id, "two codes");
        assert_eq!(alone.advance, with_alef.advance, "one outline");
        // Exactly these two copies, whatever else the page uses.
        let codes = font.glyphs.keys().filter(|(g, _)| *g == fathatan).count();
        assert_eq!(codes, 2);
    }

    #[test]
    fn the_missing_glyph_box_reads_as_the_last_text_it_stood_for() {
        use crate::page::{Color, Point};
        use crate::text::{Reading, Shaper};
        // DejaVu has no CJK: both characters show the missing-glyph box, which has
        // one entry in the ToUnicode map, the last one shown (as printpdf chose).
        let mut page = Page::new(210.0, 297.0);
        for text in ["一", "a", "丁", "b"] {
            let shaped =
                Shaper::new().shape(text, Style::Regular, 10.0, Reading::Natural);
            let origin = Point::new(20.0, 20.0);
            page.items.push(Item::Text { origin, shaped, color: Color(0.0, 0.0, 0.0) });
        }
        let bytes = super::super::write_with(&[page], &Default::default());
        let doc = lopdf::Document::load_mem(&bytes).unwrap();
        let maps: Vec<String> = doc
            .objects
            .values()
            .filter_map(|o| o.as_stream().ok())
            .filter_map(|s| s.decompressed_content().ok())
            .map(|c| String::from_utf8_lossy(&c).into_owned())
            .filter(|c| c.contains("begincmap"))
            .collect();
        assert_eq!(maps.len(), 1, "one face, one map");
        // 丁 is U+4E01; 一 (U+4E00) is forgotten.
        assert!(maps[0].contains("<0000> <4E01>"), "{}", maps[0]);
        assert!(!maps[0].contains("4E00"), "{}", maps[0]);
    }

    #[test]
    fn the_shipped_faces_have_their_postscript_names() {
        assert_eq!(postscript_name(Style::Regular), "DejaVuSans");
        assert_eq!(postscript_name(Style::Bold), "DejaVuSans-Bold");
    }
}
