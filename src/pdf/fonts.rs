//! The faces as one document embeds them: subset to the glyphs its pages use, named
//! with a tag derived from that glyph set, and with one text per glyph for the
//! ToUnicode map.
//!
//! printpdf is used without its `text_layout` feature (which brings in a whole GUI
//! layout engine), and in that configuration it embeds whatever font program it is
//! given. So the subsetting happens here, with the subsetter of allsorts, the font
//! library printpdf itself is built on (no extra dependency), and printpdf embeds
//! the finished subset.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use allsorts::binary::read::ReadScope;
use allsorts::font_data::FontData;
use allsorts::subset::{CmapTarget, SubsetProfile, subset};
use printpdf::{FontId, ParsedFont, PdfFont};
use rustybuzz::ttf_parser;

use crate::page::{Item, Page};
use crate::text::Style;

/// One face, subset for one document.
pub(super) struct Subset {
    /// The resource name the content streams use.
    pub id: FontId,
    /// The subset font, as printpdf embeds it.
    pub font: PdfFont,
    /// Original glyph id → its glyph id in the subset and the text it stands for.
    glyphs: BTreeMap<u16, (u16, String)>,
    /// The face's cap height in thousandths of an em.
    cap_height: i64,
}

/// A glyph as the content stream writes it.
pub(super) struct SubsetGlyph<'a> {
    /// Glyph id in the subset (what the content stream shows).
    pub id: u16,
    /// Advance width in font units (what the viewer advances by).
    pub advance: u16,
    /// The text the glyph stands for, the same for every occurrence in the document
    /// (a ToUnicode map has one entry per glyph); empty for none.
    pub text: &'a str,
}

impl Subset {
    /// The subset's view of an original glyph id that the document uses.
    pub fn glyph(&self, original: u16) -> SubsetGlyph<'_> {
        let (id, text) = self.glyphs.get(&original).expect("glyph was collected");
        let advance = self.font.parsed_font.get_glyph_width(*id).unwrap_or(0);
        SubsetGlyph { id: *id, advance, text }
    }
}

/// The subsets of every face the pages use, in a fixed order.
pub(super) fn subsets(pages: &[Page]) -> BTreeMap<Style, Subset> {
    used_glyphs(pages)
        .into_iter()
        .map(|(style, usage)| (style, subset_face(style, usage)))
        .collect()
}

/// Every glyph the pages show, per face, with the text it stands for: the first
/// non-empty text any of its occurrences carries (document order), so the map
/// never depends on which occurrence happens to come last.
fn used_glyphs(pages: &[Page]) -> BTreeMap<Style, BTreeMap<u16, String>> {
    let mut used: BTreeMap<Style, BTreeMap<u16, String>> = BTreeMap::new();
    for item in pages.iter().flat_map(|p| &p.items) {
        let Item::Text { shaped, .. } = item else { continue };
        let face = used.entry(shaped.style).or_default();
        for glyph in &shaped.glyphs {
            let text = face.entry(glyph.id).or_default();
            if text.is_empty() {
                text.clone_from(&glyph.text);
            }
        }
    }
    used
}

fn subset_face(style: Style, usage: BTreeMap<u16, String>) -> Subset {
    // .notdef first, then the used glyphs in ascending order; allsorts gives each
    // requested glyph its position in this list as its new id (composite glyphs'
    // components are appended after them).
    let ids: Vec<u16> =
        std::iter::once(0).chain(usage.keys().copied().filter(|&g| g != 0)).collect();
    let bytes = style.font_bytes();
    let data = ReadScope::new(bytes).read::<FontData<'_>>().expect("shipped font parses");
    let provider = data.table_provider(0).expect("shipped font has one face");
    let program = subset(&provider, &ids, &SubsetProfile::Pdf, CmapTarget::Unicode)
        .expect("shipped font subsets");
    let mut parsed =
        ParsedFont::from_bytes(&program, 0, &mut Vec::new()).expect("subset parses");
    let face = ttf_parser::Face::parse(bytes, 0).expect("shipped font parses");
    // The subset has no OS/2 table; printpdf estimates /StemV from its weight class.
    parsed.pdf_font_metrics.us_weight_class = face.weight().to_number();
    let cap_height = cap_height(&face) as i64 * 1000 / face.units_per_em() as i64;
    let name = postscript_name(style);
    parsed.font_name = Some(format!("{}+{name}", subset_tag(name, &ids)));
    let glyphs = ids
        .iter()
        .enumerate()
        .filter_map(|(new, old)| {
            let text = usage.get(old)?;
            Some((*old, (new as u16, fallback_text(style, *old, text))))
        })
        .collect();
    Subset { id: font_id(style), font: PdfFont::new(parsed), glyphs, cap_height }
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

/// A glyph that no occurrence gave any text to (the second glyph of a cluster
/// everywhere it appears) maps to the character the font's cmap draws with it, as
/// printpdf's own font path did; a glyph no character maps to gets no entry.
fn fallback_text(style: Style, gid: u16, text: &str) -> String {
    if !text.is_empty() {
        return text.to_string();
    }
    primary_chars(style).get(&gid).map(|c| c.to_string()).unwrap_or_default()
}

/// The lowest character the font's Unicode cmap maps to each glyph.
fn primary_chars(style: Style) -> &'static BTreeMap<u16, char> {
    static REGULAR: OnceLock<BTreeMap<u16, char>> = OnceLock::new();
    static BOLD: OnceLock<BTreeMap<u16, char>> = OnceLock::new();
    let cell = match style {
        Style::Regular => &REGULAR,
        Style::Bold => &BOLD,
    };
    cell.get_or_init(|| {
        let face = ttf_parser::Face::parse(style.font_bytes(), 0).expect("font parses");
        let mut map = BTreeMap::new();
        let Some(cmap) = face.tables().cmap else { return map };
        for table in cmap.subtables.into_iter().filter(|t| t.is_unicode()) {
            table.codepoints(|cp| {
                if let (Some(c), Some(g)) = (char::from_u32(cp), table.glyph_index(cp)) {
                    map.entry(g.0)
                        .and_modify(|e: &mut char| *e = (*e).min(c))
                        .or_insert(c);
                }
            });
        }
        map
    })
}

/// Fixed resource names, so that fonts are named the same in every run (printpdf's
/// own ids come from a process-wide counter).
fn font_id(style: Style) -> FontId {
    FontId(match style {
        Style::Regular => "TKSANS".to_string(),
        Style::Bold => "TKBOLD".to_string(),
    })
}

/// The face's PostScript name (name id 6), e.g. `DejaVuSans-Bold`.
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
    fn the_shipped_faces_have_their_postscript_names() {
        assert_eq!(postscript_name(Style::Regular), "DejaVuSans");
        assert_eq!(postscript_name(Style::Bold), "DejaVuSans-Bold");
    }
}
