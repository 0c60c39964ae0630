//! A face as allsorts' subsetter needs to see it for one subset, and no more.
//!
//! Cutting a subset, allsorts reads the record of every glyph in the face (six
//! thousand), searches the requested glyph list once for every character of the
//! character map and reads every glyph name, for each document: most of the time a
//! build spent on fonts. What it writes depends only on the glyphs it copies (the
//! requested ones and those they are built from), their metrics and characters, and
//! their order; it renumbers them and drops the names. So a face holding just those
//! glyphs, in the same order, gives it the same subset, byte for byte (checked over
//! the whole build matrix). [`Trimmed`] is that face: `glyf`, `loca`, `hmtx`, `cmap`,
//! `maxp` and `hhea` for the kept glyphs alone, numbered in their original order
//! (composite glyphs' references renumbered to match), and `post` without names;
//! every other table is the face's own.

use std::borrow::Cow;
use std::collections::BTreeSet;

use allsorts::binary::read::ReadScope;
use allsorts::error::ParseError;
use allsorts::tables::FontTableProvider;
use allsorts::tables::cmap::Cmap;
use allsorts::tag;

/// What every subset of one face reads from it, found once.
pub(super) struct FaceTables<'a> {
    provider: allsorts::font_data::DynamicFontTableProvider<'a>,
    glyf: &'a [u8],
    /// Where each glyph's outline starts in `glyf`, and after the last one ends.
    loca: Vec<u32>,
    /// The characters of each glyph in the character map allsorts reads.
    chars: Vec<Vec<u32>>,
    /// `post` as allsorts writes it into a subset: version 3, no glyph names.
    post: Vec<u8>,
    /// `name` with one copy of each record: see [`single_platform_names`].
    name: Vec<u8>,
    /// Whether `loca` holds 32-bit offsets (else 16-bit halves), as `head` says.
    long_offsets: bool,
    hmtx: &'a [u8],
    /// How many long records `hmtx` has (`hhea`'s numberOfHMetrics).
    h_metrics: usize,
    hhea: &'a [u8],
    maxp: &'a [u8],
}

impl<'a> FaceTables<'a> {
    pub fn new(font: &'a [u8]) -> Self {
        let face = rustybuzz::ttf_parser::RawFace::parse(font, 0).expect("shipped font");
        let table = |name: &[u8; 4]| {
            face.table(rustybuzz::ttf_parser::Tag::from_bytes(name))
                .expect("TrueType table")
        };
        let long_offsets =
            i16::from_be_bytes(table(b"head")[50..52].try_into().unwrap()) == 1;
        let loca: Vec<u32> = if long_offsets {
            table(b"loca")
                .chunks_exact(4)
                .map(|b| u32::from_be_bytes(b.try_into().unwrap()))
                .collect()
        } else {
            let short = table(b"loca").chunks_exact(2);
            short.map(|b| u16::from_be_bytes(b.try_into().unwrap()) as u32 * 2).collect()
        };
        let mut chars = vec![Vec::new(); loca.len().saturating_sub(1)];
        let cmap =
            ReadScope::new(table(b"cmap")).read::<Cmap<'_>>().expect("cmap parses");
        let (_, subtable) = allsorts::font::read_cmap_subtable(&cmap)
            .expect("cmap parses")
            .expect("a Unicode character map");
        subtable
            .mappings_fn(|ch, gid| {
                if let Some(list) = chars.get_mut(gid as usize) {
                    list.push(ch);
                }
            })
            .expect("cmap parses");
        let mut post = table(b"post")[..32].to_vec();
        post[..4].copy_from_slice(&0x0003_0000_u32.to_be_bytes());
        let data = ReadScope::new(font).read::<allsorts::font_data::FontData<'_>>();
        let provider =
            data.expect("shipped font parses").table_provider(0).expect("one face");
        let hhea = table(b"hhea");
        let h_metrics = u16::from_be_bytes([hhea[34], hhea[35]]) as usize;
        FaceTables {
            provider,
            glyf: table(b"glyf"),
            loca,
            chars,
            post,
            name: single_platform_names(table(b"name")),
            long_offsets,
            hmtx: table(b"hmtx"),
            h_metrics,
            hhea,
            maxp: table(b"maxp"),
        }
    }

    /// The face trimmed for a subset of `ids`, and `ids` in its numbering.
    pub fn trimmed(&self, ids: &[u16]) -> (Trimmed<'_, 'a>, Vec<u16>) {
        let count = self.loca.len().saturating_sub(1);
        let mut kept = vec![false; count];
        let mut pending: Vec<u16> = ids.to_vec();
        while let Some(id) = pending.pop() {
            if let Some(keep) = kept.get_mut(id as usize).filter(|keep| !**keep) {
                *keep = true;
                pending.extend(components(self.outline(id)).into_iter().map(|(_, c)| c));
            }
        }
        // Kept glyphs keep their order; `number[original]` is the new number.
        let mut number = vec![0u16; count];
        let mut originals = Vec::new();
        for (id, _) in kept.iter().enumerate().filter(|(_, keep)| **keep) {
            number[id] = originals.len() as u16;
            originals.push(id as u16);
        }
        let (mut glyf, mut loca, mut hmtx) = (Vec::new(), Vec::new(), Vec::new());
        let offset = |loca: &mut Vec<u8>, at: usize| match self.long_offsets {
            true => loca.extend_from_slice(&(at as u32).to_be_bytes()),
            false => loca.extend_from_slice(&((at / 2) as u16).to_be_bytes()),
        };
        for &id in &originals {
            offset(&mut loca, glyf.len());
            let start = glyf.len();
            let outline = self.outline(id);
            glyf.extend_from_slice(outline);
            for (at, component) in components(outline) {
                let renumbered = number[component as usize].to_be_bytes();
                glyf[start + at..start + at + 2].copy_from_slice(&renumbered);
            }
            hmtx.extend_from_slice(&self.metrics(id));
        }
        offset(&mut loca, glyf.len());
        let requested: BTreeSet<u16> =
            ids.iter().copied().filter(|&id| id != 0).collect();
        let mut mappings: Vec<(u32, u16)> = requested
            .iter()
            .flat_map(|&id| self.chars[id as usize].iter().map(move |&ch| (ch, id)))
            .map(|(ch, id)| (ch, number[id as usize]))
            .collect();
        mappings.sort_unstable();
        let with_count = |table: &[u8], at: usize| {
            let mut table = table.to_vec();
            table[at..at + 2].copy_from_slice(&(originals.len() as u16).to_be_bytes());
            table
        };
        let trimmed = Trimmed {
            face: self,
            glyf,
            loca,
            hmtx,
            hhea: with_count(self.hhea, 34),
            maxp: with_count(self.maxp, 4),
            cmap: format_12_cmap(&mappings),
        };
        (trimmed, ids.iter().map(|&id| number[id as usize]).collect())
    }

    fn outline(&self, id: u16) -> &'a [u8] {
        let id = id as usize;
        match (self.loca.get(id), self.loca.get(id + 1)) {
            (Some(&start), Some(&end)) if start < end => {
                &self.glyf[start as usize..end as usize]
            }
            _ => &[],
        }
    }

    /// A glyph's advance and left side bearing, as one long `hmtx` record: past the
    /// last record, the last advance with the glyph's own bearing.
    fn metrics(&self, id: u16) -> [u8; 4] {
        let id = id as usize;
        let record = |i: usize| &self.hmtx[4 * i..4 * i + 4];
        if id < self.h_metrics {
            record(id).try_into().expect("four bytes")
        } else {
            let bearing = 4 * self.h_metrics + 2 * (id - self.h_metrics);
            let advance = &record(self.h_metrics - 1)[..2];
            [advance[0], advance[1], self.hmtx[bearing], self.hmtx[bearing + 1]]
        }
    }
}

/// The glyphs a composite glyph's outline is built from, each with where its number
/// is in the outline (none for a simple glyph).
fn components(outline: &[u8]) -> Vec<(usize, u16)> {
    const ARGS_ARE_WORDS: u16 = 0x0001;
    const HAS_SCALE: u16 = 0x0008;
    const MORE_COMPONENTS: u16 = 0x0020;
    const HAS_X_AND_Y_SCALE: u16 = 0x0040;
    const HAS_TWO_BY_TWO: u16 = 0x0080;
    let word =
        |at: usize| outline.get(at..at + 2).map(|b| u16::from_be_bytes([b[0], b[1]]));
    let mut found = Vec::new();
    // A simple glyph starts with its number of contours, a composite with -1.
    if word(0).is_none_or(|contours| (contours as i16) >= 0) {
        return found;
    }
    let mut at = 10;
    while let (Some(flags), Some(glyph)) = (word(at), word(at + 2)) {
        found.push((at + 2, glyph));
        at += 4 + if flags & ARGS_ARE_WORDS != 0 { 4 } else { 2 };
        at += match flags {
            f if f & HAS_SCALE != 0 => 2,
            f if f & HAS_X_AND_Y_SCALE != 0 => 4,
            f if f & HAS_TWO_BY_TWO != 0 => 8,
            _ => 0,
        };
        if flags & MORE_COMPONENTS == 0 {
            break;
        }
    }
    found
}

/// A `cmap` with one Windows Unicode (UCS-4) subtable in format 12 holding exactly
/// `mappings` (character, glyph), sorted by character.
fn format_12_cmap(mappings: &[(u32, u16)]) -> Vec<u8> {
    let length = 16 + 12 * mappings.len() as u32;
    let mut cmap = Vec::with_capacity(12 + length as usize);
    let put16 = |cmap: &mut Vec<u8>, v: u16| cmap.extend_from_slice(&v.to_be_bytes());
    put16(&mut cmap, 0); // version
    put16(&mut cmap, 1); // one subtable
    put16(&mut cmap, 3); // Windows
    put16(&mut cmap, 10); // Unicode, UCS-4
    cmap.extend_from_slice(&12_u32.to_be_bytes());
    put16(&mut cmap, 12); // format
    put16(&mut cmap, 0);
    for v in [length, 0, mappings.len() as u32] {
        cmap.extend_from_slice(&v.to_be_bytes());
    }
    for &(ch, gid) in mappings {
        for v in [ch, ch, gid as u32] {
            cmap.extend_from_slice(&v.to_be_bytes());
        }
    }
    cmap
}

/// A face trimmed for one subset (see the module's comment).
pub(super) struct Trimmed<'t, 'a> {
    face: &'t FaceTables<'a>,
    glyf: Vec<u8>,
    loca: Vec<u8>,
    hmtx: Vec<u8>,
    hhea: Vec<u8>,
    maxp: Vec<u8>,
    cmap: Vec<u8>,
}

impl FontTableProvider for Trimmed<'_, '_> {
    fn table_data(&self, tag: u32) -> Result<Option<Cow<'_, [u8]>>, ParseError> {
        let own = match tag {
            tag::GLYF => &self.glyf,
            tag::LOCA => &self.loca,
            tag::CMAP => &self.cmap,
            tag::HMTX => &self.hmtx,
            tag::HHEA => &self.hhea,
            tag::MAXP => &self.maxp,
            tag::POST => &self.face.post,
            tag::NAME => &self.face.name,
            _ => return self.face.provider.table_data(tag),
        };
        Ok(Some(Cow::Borrowed(own)))
    }

    fn has_table(&self, tag: u32) -> bool {
        self.face.provider.has_table(tag)
    }

    fn table_tags(&self) -> Option<Vec<u32>> {
        self.face.provider.table_tags()
    }
}

/// A `name` table (format 0) holding only the Macintosh Roman records: the face's
/// names, copyright and whole licence once, one byte a character, without the
/// Windows copies in UTF-16 that repeat them at twice the size (two thirds of a
/// small subset). Readers of an embedded font need no more; the licence asks that
/// its notice travel with every copy of the font, and it does.
fn single_platform_names(name: &[u8]) -> Vec<u8> {
    let word = |at: usize| u16::from_be_bytes([name[at], name[at + 1]]);
    let (count, strings) = (word(2) as usize, word(4) as usize);
    let records: Vec<[u16; 6]> = (0..count)
        .map(|i| std::array::from_fn(|k| word(6 + 12 * i + 2 * k)))
        .filter(|r| r[0] == 1 && r[1] == 0)
        .collect();
    let header = 6 + 12 * records.len();
    let mut out = Vec::new();
    let mut data = Vec::new();
    for &n in &[0u16, records.len() as u16, header as u16] {
        out.extend_from_slice(&n.to_be_bytes());
    }
    for [platform, encoding, language, id, length, offset] in records {
        let text = &name[strings + offset as usize..][..length as usize];
        for n in [platform, encoding, language, id, length, data.len() as u16] {
            out.extend_from_slice(&n.to_be_bytes());
        }
        data.extend_from_slice(text);
    }
    out.extend_from_slice(&data);
    out
}

#[cfg(test)]
mod tests {
    use allsorts::subset::{CmapTarget, SubsetProfile, subset};
    use rustybuzz::ttf_parser;

    use super::*;
    use crate::text::Style;

    /// The whole face, its `name` table as a subset keeps it.
    struct WholeFace<'a> {
        provider: allsorts::font_data::DynamicFontTableProvider<'a>,
        name: Vec<u8>,
    }

    impl FontTableProvider for WholeFace<'_> {
        fn table_data(&self, tag: u32) -> Result<Option<Cow<'_, [u8]>>, ParseError> {
            match tag {
                tag::NAME => Ok(Some(Cow::Borrowed(&self.name))),
                _ => self.provider.table_data(tag),
            }
        }

        fn has_table(&self, tag: u32) -> bool {
            self.provider.has_table(tag)
        }

        fn table_tags(&self) -> Option<Vec<u32>> {
            self.provider.table_tags()
        }
    }

    /// The subset allsorts cuts from the whole face.
    fn from_whole_face(font: &[u8], ids: &[u16]) -> Vec<u8> {
        let data =
            ReadScope::new(font).read::<allsorts::font_data::FontData<'_>>().unwrap();
        let provider = data.table_provider(0).unwrap();
        let face = ttf_parser::RawFace::parse(font, 0).unwrap();
        let name = face.table(ttf_parser::Tag::from_bytes(b"name")).unwrap();
        let whole = WholeFace { provider, name: single_platform_names(name) };
        subset(&whole, ids, &SubsetProfile::Pdf, CmapTarget::Unicode).unwrap()
    }

    #[test]
    fn a_subset_keeps_each_name_once_with_the_licence() {
        let font = Style::Regular.font_bytes();
        let face = ttf_parser::RawFace::parse(font, 0).unwrap();
        let whole = face.table(ttf_parser::Tag::from_bytes(b"name")).unwrap();
        let kept = single_platform_names(whole);
        assert!(kept.len() * 2 < whole.len(), "{} of {} bytes", kept.len(), whole.len());
        let names = ttf_parser::name::Table::parse(&kept).unwrap().names;
        let ids: Vec<u16> = names.into_iter().map(|n| n.name_id).collect();
        // Copyright, family, style, full and PostScript names, licence and its address.
        for id in [0, 1, 2, 4, 6, 13, 14] {
            assert_eq!(ids.iter().filter(|&&i| i == id).count(), 1, "name {id}: {ids:?}");
        }
        let licence = names.into_iter().find(|n| n.name_id == 13).unwrap();
        let text = String::from_utf8_lossy(licence.name);
        assert!(text.contains("Bitstream Vera Fonts Copyright") && text.contains("Arev"));
    }

    #[test]
    fn a_trimmed_face_gives_the_same_subset_as_the_whole_face() {
        for style in [Style::Regular, Style::Bold] {
            let font = style.font_bytes();
            let face = ttf_parser::Face::parse(font, 0).unwrap();
            let tables = FaceTables::new(font);
            let glyph = |c: char| face.glyph_index(c).unwrap().0;
            // Accented letters are built from other glyphs: the trimmed face must
            // keep those too, renumbered.
            let composite = glyph('ǻ');
            assert!(!components(tables.outline(composite)).is_empty());
            let texts = ["Stack top, roads 5×5", "ǻ é ñ Ω ά ή", "لا حرّك حجرًا ١٢", "a"];
            for text in texts {
                let mut ids: Vec<u16> = text.chars().map(glyph).collect();
                ids.sort_unstable();
                ids.dedup();
                ids.insert(0, 0);
                // A glyph asked for twice is copied (fonts.rs relies on it).
                ids.push(ids[ids.len() / 2]);
                let (trimmed, renumbered) = tables.trimmed(&ids);
                let cut = subset(
                    &trimmed,
                    &renumbered,
                    &SubsetProfile::Pdf,
                    CmapTarget::Unicode,
                );
                assert!(cut.unwrap() == from_whole_face(font, &ids), "{style:?} {text}");
            }
        }
    }
}
