//! PDF/A-2b (ISO 19005-2, level B), clause by clause, by reading the files back: no
//! validator is installable here, so each test names the clauses it checks.
//! Checked: 6.1.2 (header and binary comment), 6.1.3 (trailer /ID, no /Encrypt, nothing
//! after %%EOF), 6.1.4 (cross-reference table), 6.1.7 (stream keywords; no LZW), 6.1.13
//! (no JavaScript or additional actions), 6.2.3 and 6.2.4.3 (one output intent, its ICC
//! profile valid and matching /N; DeviceGray and DeviceRGB covered by the RGB intent),
//! 6.2.10 and 6.4 (no transparency: no SMask, no transparency group, no constant alpha
//! below 1, no blend mode), 6.2.11.3 (CIDFontType2 with CIDToGIDMap), 6.2.11.4 (every
//! font embedded; no CIDSet, so none incomplete), 6.2.11.5 (widths agree with the
//! embedded program), 6.2.11.8 (no .notdef shown), 6.6.2 (an unfiltered XMP metadata
//! stream with the PDF/A identification) and 6.6.2.3.1 (XMP agrees with the Info
//! dictionary).

use std::collections::BTreeMap;
use std::fs;
use std::sync::OnceLock;

use lopdf::{Dictionary, Document, Object};
use rustybuzz::ttf_parser;

use crate::pdf_standards::{all, get, info, sample, string};
use crate::support::shared;

/// Raw bytes of a few files (a five-page board, a two-page rule card, Arabic),
/// for the clauses about the file's bytes rather than its objects.
pub(crate) fn raw() -> &'static [(String, Vec<u8>)] {
    static RAW: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    RAW.get_or_init(|| {
        // The Arabic build is a build of its own, apart from that of `all`, so that
        // the two can be compared.
        let arabic = shared::build(&["three-men-slide", "--lang", "ar"]);
        let board = shared::variant("pathstone", "en", "a4", 8);
        let folders = [
            arabic.dir().join("three-men-slide/ar-a4"),
            arabic.dir().join("three-men-slide/ar-a4-host"),
            crate::support::host_dir(&board),
            board,
        ];
        let mut files = Vec::new();
        for folder in folders {
            for file in fs::read_dir(folder).unwrap() {
                let path = file.unwrap().path();
                files.push((path.display().to_string(), fs::read(&path).unwrap()));
            }
        }
        files.sort();
        assert!(files.len() >= 10, "only {} files", files.len());
        files
    })
}

#[test]
fn header_trailer_and_streams_follow_the_file_structure_clauses() {
    for (name, bytes) in raw() {
        // 6.1.2: `%PDF-1.n`, then a comment of at least four bytes above 127.
        assert!(bytes.starts_with(b"%PDF-1."), "{name}");
        let eol = bytes.iter().position(|&b| b == b'\n').unwrap();
        let comment = &bytes[eol + 1..];
        assert_eq!(comment[0], b'%', "{name}: no binary comment");
        assert!(comment[1..5].iter().all(|&b| b > 127), "{name}: binary comment");
        // 6.1.3: nothing but an end of line after the last %%EOF.
        let end = bytes.trim_ascii_end();
        assert!(end.ends_with(b"%%EOF"), "{name}");
        assert!(bytes.len() - end.len() <= 2, "{name}: data after %%EOF");
        // 6.1.4: `startxref` points at the `xref` keyword, its subsection header
        // follows after a single end of line, and each entry is 20 bytes.
        let start = bytes.windows(9).rposition(|w| w == b"startxref").unwrap();
        let offset: usize = std::str::from_utf8(&bytes[start + 10..end.len() - 6])
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        assert!(bytes[offset..].starts_with(b"xref\n0 "), "{name}: startxref");
        let table = &bytes[offset + 5..];
        let header_end = table.iter().position(|&b| b == b'\n').unwrap();
        let header = std::str::from_utf8(&table[..header_end]).unwrap();
        let count: usize = header.split(' ').nth(1).unwrap().parse().unwrap();
        for entry in table[header_end + 1..].chunks(20).take(count) {
            assert!(
                entry.ends_with(b" \n") || entry.ends_with(b"\r\n"),
                "{name}: {entry:?}"
            );
            assert!([b'n', b'f'].contains(&entry[17]), "{name}: xref entry");
        }
        // 6.1.7: `stream` followed by an end of line, `endstream` preceded by one.
        let text = String::from_utf8_lossy(bytes);
        let keywords: Vec<usize> = text.match_indices("stream").map(|(i, _)| i).collect();
        assert!(!keywords.is_empty(), "{name}");
        for at in keywords {
            match text[..at].ends_with("end") {
                true => assert!(text[..at - 3].ends_with('\n'), "{name}: endstream"),
                false => assert!(text[at + 6..].starts_with('\n'), "{name}: stream"),
            }
        }
    }
}

#[test]
fn every_file_has_a_deterministic_document_id() {
    // 6.1.3: an /ID of two byte strings; content-derived, so a rebuild (the
    // `raw` build and the build of `all`) gives the same id, and two files differ.
    let mut seen = BTreeMap::new();
    for (name, bytes) in raw() {
        let doc = Document::load_mem(bytes).unwrap();
        assert!(doc.trailer.get(b"Encrypt").is_err(), "{name}");
        let id = doc.trailer.get(b"ID").unwrap().as_array().unwrap();
        assert_eq!(id.len(), 2, "{name}");
        let first = id[0].as_str().unwrap().to_vec();
        assert!(first.len() >= 16, "{name}");
        assert!(seen.insert(first.clone(), name).is_none(), "{name}: id shared");
        if name.contains("three-men-slide/ar-a4/") {
            let file = name.rsplit('/').next().unwrap();
            let twin = format!("three-men-slide/ar-a4/{file}");
            let (_, other) = sample().iter().find(|(n, _)| *n == twin).unwrap();
            let other = other.trailer.get(b"ID").unwrap().as_array().unwrap();
            assert_eq!(other[0].as_str().unwrap(), first, "{name}: id changed");
        }
    }
}

/// `D:20260101000000+00'00'` as the XMP date `2026-01-01T00:00:00+00:00`.
fn xmp_date(pdf: &str) -> String {
    let d = &pdf[2..];
    format!(
        "{}-{}-{}T{}:{}:{}{}:{}",
        &d[0..4],
        &d[4..6],
        &d[6..8],
        &d[8..10],
        &d[10..12],
        &d[12..14],
        &d[14..17],
        &d[18..20]
    )
}

/// Checks that `xml` is well formed (every element closed, in order) and returns the
/// text of each simple element by name, entities decoded.
fn parse_xml(xml: &str) -> BTreeMap<String, String> {
    let mut stack: Vec<String> = Vec::new();
    let mut texts = BTreeMap::new();
    let mut rest = xml;
    while let Some(open) = rest.find('<') {
        let text = &rest[..open];
        assert!(!text.contains('>'), "stray `>` in {text:?}");
        let close = rest[open..].find('>').expect("an unclosed tag") + open;
        let tag = &rest[open + 1..close];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop().as_deref(), Some(name), "mismatched </{name}>");
            let value = text.replace("&lt;", "<").replace("&gt;", ">");
            let value = value.replace("&quot;", "\"").replace("&apos;", "'");
            texts.entry(name.to_string()).or_insert(value.replace("&amp;", "&"));
        } else if !tag.starts_with('?') && !tag.ends_with('/') {
            assert_eq!(tag.matches('"').count() % 2, 0, "unquoted attribute in <{tag}>");
            stack.push(tag.split_whitespace().next().unwrap().to_string());
        }
        rest = &rest[close + 1..];
    }
    assert!(stack.is_empty(), "unclosed elements {stack:?}");
    texts
}

#[test]
fn xmp_metadata_parses_and_agrees_with_the_info_dictionary() {
    xmp_metadata_parses_and_agrees_with_the_info_dictionary_in(sample());
}

fn xmp_metadata_parses_and_agrees_with_the_info_dictionary_in(
    docs: &[(String, Document)],
) {
    for (name, doc) in docs {
        let catalog = doc.catalog().unwrap();
        let stream = get(doc, catalog, b"Metadata").unwrap().as_stream().unwrap();
        // 6.6.2.1: an unfiltered stream of type Metadata, subtype XML.
        assert!(stream.dict.get(b"Filter").is_err(), "{name}: filtered XMP");
        assert_eq!(stream.dict.get(b"Type").unwrap().as_name().unwrap(), b"Metadata");
        assert_eq!(stream.dict.get(b"Subtype").unwrap().as_name().unwrap(), b"XML");
        let xmp = std::str::from_utf8(&stream.content).unwrap();
        // 6.6.2.2: a packet header without `bytes` or `encoding`.
        assert!(xmp.starts_with("<?xpacket begin=\"\u{feff}\" id=\""), "{name}");
        assert!(!xmp.contains("bytes=") && !xmp.contains("encoding="), "{name}");
        let xml = parse_xml(xmp);
        let info = info(doc);
        let field = |key: &str| xml.get(key).cloned().unwrap_or_default();
        assert_eq!(field("pdfaid:part"), "2", "{name}");
        assert_eq!(field("pdfaid:conformance"), "B", "{name}");
        // 6.6.2.3.1: every Info entry has its XMP equivalent, with the same value.
        assert_eq!(Some(field("rdf:li")), string(info, b"Title"), "{name}: title");
        assert_eq!(Some(field("xmp:CreatorTool")), string(info, b"Creator"), "{name}");
        assert_eq!(Some(field("pdf:Producer")), string(info, b"Producer"), "{name}");
        let created = xmp_date(&string(info, b"CreationDate").unwrap());
        assert_eq!(field("xmp:CreateDate"), created, "{name}");
        let modified = xmp_date(&string(info, b"ModDate").unwrap());
        assert_eq!(field("xmp:ModifyDate"), modified, "{name}");
        // 6.6.2.3.1: "All properties specified in XMP form shall use either the
        // predefined schemas defined in the XMP Specification, ISO 19005-1 or this part
        // of ISO 19005, or any extension schemas that comply with 6.6.2.3.2." The pdf:
        // schema of PDF/A-2 has no `Trapped` (veraPDF fails it there), and the one
        // extension schema declared is PDF/UA's identification: no pdf:Trapped.
        assert!(
            !xmp.contains("pdf:Trapped"),
            "{name}: pdf:Trapped needs an extension schema"
        );
        // The PDF/UA identification's schema, declared as 6.6.2.3.2 asks: its
        // namespace, prefix and the one property used, with its value type.
        assert_eq!(field("pdfuaid:part"), "1", "{name}");
        assert_eq!(field("pdfaSchema:prefix"), "pdfuaid", "{name}");
        assert_eq!(
            field("pdfaSchema:namespaceURI"),
            "http://www.aiim.org/pdfua/ns/id/",
            "{name}"
        );
        assert_eq!(field("pdfaProperty:name"), "part", "{name}");
        assert_eq!(field("pdfaProperty:valueType"), "Integer", "{name}");
        // The language, as the catalog's /Lang says.
        let lang = string(catalog, b"Lang").unwrap();
        assert!(
            xmp.contains(&format!("<dc:language><rdf:Bag><rdf:li>{lang}<")),
            "{name}"
        );
    }
}

#[test]
fn the_output_intent_embeds_a_valid_srgb_profile() {
    the_output_intent_embeds_a_valid_srgb_profile_in(sample());
}

fn the_output_intent_embeds_a_valid_srgb_profile_in(docs: &[(String, Document)]) {
    for (name, doc) in docs {
        let catalog = doc.catalog().unwrap();
        let intents = get(doc, catalog, b"OutputIntents").unwrap().as_array().unwrap();
        // 6.2.3: one PDF/A output intent (several must share one profile).
        assert_eq!(intents.len(), 1, "{name}");
        let intent = doc.dereference(&intents[0]).unwrap().1.as_dict().unwrap();
        assert_eq!(intent.get(b"S").unwrap().as_name().unwrap(), b"GTS_PDFA1", "{name}");
        assert!(string(intent, b"OutputConditionIdentifier").is_some(), "{name}");
        let profile =
            get(doc, intent, b"DestOutputProfile").unwrap().as_stream().unwrap();
        let icc = profile.decompressed_content().unwrap_or(profile.content.clone());
        let size = u32::from_be_bytes(icc[0..4].try_into().unwrap()) as usize;
        assert_eq!(size, icc.len(), "{name}: ICC size field");
        assert_eq!(&icc[36..40], b"acsp", "{name}: ICC signature");
        // An output profile is a monitor or printer profile, ICC version 2 to 4.
        assert!([&b"mntr"[..], b"prtr"].contains(&&icc[12..16]), "{name}: class");
        assert!((2..=4).contains(&icc[8]), "{name}: ICC version {}", icc[8]);
        let n = profile.dict.get(b"N").unwrap().as_i64().unwrap();
        let space = &icc[16..20];
        let expected = match n {
            1 => &b"GRAY"[..],
            3 => b"RGB ",
            4 => b"CMYK",
            _ => panic!("{name}: /N {n}"),
        };
        assert_eq!(space, expected, "{name}: /N {n} but the profile is {space:?}");
        // 6.2.4.3: DeviceRGB needs an RGB intent; DeviceGray any intent.
        assert_eq!(n, 3, "{name}: greys and any RGB need an RGB intent");
    }
}

/// Each Type0 font's descendant and its embedded TrueType program.
fn cid_fonts(doc: &Document) -> Vec<(Dictionary, Vec<u8>)> {
    let mut found = Vec::new();
    for (_, page) in doc.get_pages() {
        for (_, font) in doc.get_page_fonts(page).unwrap() {
            let descendants =
                get(doc, font, b"DescendantFonts").unwrap().as_array().unwrap();
            let cid =
                doc.dereference(&descendants[0]).unwrap().1.as_dict().unwrap().clone();
            let descriptor =
                get(doc, &cid, b"FontDescriptor").unwrap().as_dict().unwrap();
            let file = get(doc, descriptor, b"FontFile2")
                .unwrap_or_else(|| panic!("font not embedded"))
                .as_stream()
                .unwrap();
            let program = file.decompressed_content().unwrap_or(file.content.clone());
            found.push((cid, program));
        }
    }
    found
}

/// The widths a /W array gives, by CID (`c [w…]` and `c_first c_last w`).
fn widths(doc: &Document, cid: &Dictionary) -> BTreeMap<i64, f32> {
    let w =
        get(doc, cid, b"W").map(|w| w.as_array().unwrap().clone()).unwrap_or_default();
    let num =
        |o: &Object| o.as_float().or_else(|_| o.as_i64().map(|i| i as f32)).unwrap();
    let mut out = BTreeMap::new();
    let mut i = 0;
    while i < w.len() {
        let first = w[i].as_i64().unwrap();
        match &w[i + 1] {
            Object::Array(list) => {
                for (k, width) in list.iter().enumerate() {
                    out.insert(first + k as i64, num(width));
                }
                i += 2;
            }
            last => {
                for c in first..=last.as_i64().unwrap() {
                    out.insert(c, num(&w[i + 2]));
                }
                i += 3;
            }
        }
    }
    out
}

#[test]
fn fonts_are_embedded_with_widths_that_agree_with_their_programs() {
    fonts_are_embedded_with_widths_that_agree_with_their_programs_in(sample());
}

fn fonts_are_embedded_with_widths_that_agree_with_their_programs_in(
    docs: &[(String, Document)],
) {
    for (name, doc) in docs {
        for (cid, program) in cid_fonts(doc) {
            // 6.2.11.3.2: a CIDFontType2 maps CIDs to glyphs; 6.2.11.4.2: a CIDSet,
            // optional, would have to list every glyph: tablekit writes none.
            assert_eq!(cid.get(b"Subtype").unwrap().as_name().unwrap(), b"CIDFontType2");
            let map = cid.get(b"CIDToGIDMap").unwrap().as_name().unwrap();
            assert_eq!(map, b"Identity", "{name}");
            let descriptor =
                get(doc, &cid, b"FontDescriptor").unwrap().as_dict().unwrap();
            assert!(descriptor.get(b"CIDSet").is_err(), "{name}: a CIDSet");
            // 6.2.11.5: each width is the program's advance, in 1/1000 em.
            let face = ttf_parser::Face::parse(&program, 0).unwrap();
            let upem = face.units_per_em() as f32;
            let widths = widths(doc, &cid);
            assert!(!widths.is_empty(), "{name}: no /W");
            for (gid, width) in widths {
                let advance = face.glyph_hor_advance(ttf_parser::GlyphId(gid as u16));
                let expected = advance.unwrap() as f32 * 1000.0 / upem;
                assert!((width - expected).abs() <= 1.0, "{name}: glyph {gid} {width}");
            }
        }
    }
}

#[test]
fn no_text_shows_the_notdef_glyph() {
    no_text_shows_the_notdef_glyph_in(sample());
}

fn no_text_shows_the_notdef_glyph_in(docs: &[(String, Document)]) {
    // 6.2.11.8: glyph 0 (.notdef) is never shown (two-byte codes, Identity-H).
    for (name, doc) in docs {
        for (number, page) in doc.get_pages() {
            let content = doc.get_and_decode_page_content(page).unwrap();
            for op in content.operations.iter().filter(|op| op.operator == "TJ") {
                for part in op.operands[0].as_array().unwrap() {
                    if let Ok(bytes) = part.as_str() {
                        let zero = bytes.chunks(2).any(|c| c == [0, 0]);
                        assert!(!zero, "{name} page {number}: .notdef shown");
                    }
                }
            }
        }
    }
}

#[test]
fn nothing_is_transparent_encrypted_scripted_or_lzw_compressed() {
    nothing_is_transparent_encrypted_scripted_or_lzw_compressed_in(sample());
}

fn nothing_is_transparent_encrypted_scripted_or_lzw_compressed_in(
    docs: &[(String, Document)],
) {
    // 6.4: no soft mask, no blend mode, no transparency group, no constant alpha
    // below 1; 6.1.7.2: no LZW; 6.1.3: no encryption; 6.1.13 and 6.5: no JavaScript,
    // no additional actions.
    for (name, doc) in docs {
        for (id, object) in &doc.objects {
            let dict = match object {
                Object::Dictionary(d) => d,
                Object::Stream(s) => &s.dict,
                _ => continue,
            };
            for key in [&b"SMask"[..], b"BM", b"Encrypt", b"JS", b"JavaScript", b"AA"] {
                let key_name = String::from_utf8_lossy(key);
                assert!(dict.get(key).is_err(), "{name}: /{key_name} in {id:?}");
            }
            if let Ok(filter) = dict.get(b"Filter") {
                let lzw = Object::Name(b"LZWDecode".to_vec());
                let arr = filter.as_array().map(|a| a.contains(&lzw)).unwrap_or(false);
                assert!(filter != &lzw && !arr, "{name}: LZW in {id:?}");
            }
            if let Ok(group) = dict.get(b"Group").and_then(Object::as_dict) {
                assert_ne!(group.get(b"S").unwrap().as_name().unwrap(), b"Transparency");
            }
            for key in [&b"CA"[..], b"ca"] {
                if let Ok(alpha) = dict.get(key) {
                    let alpha = alpha.as_float().unwrap_or(1.0);
                    assert_eq!(alpha, 1.0, "{name}: alpha in {id:?}");
                }
            }
        }
    }
}

/// The checks above, which the default tier runs on every kit in English and Arabic,
/// over every kit in every language.
#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn pdf_a_holds_for_every_kit_in_every_language() {
    let docs = all();
    xmp_metadata_parses_and_agrees_with_the_info_dictionary_in(docs);
    the_output_intent_embeds_a_valid_srgb_profile_in(docs);
    fonts_are_embedded_with_widths_that_agree_with_their_programs_in(docs);
    no_text_shows_the_notdef_glyph_in(docs);
    nothing_is_transparent_encrypted_scripted_or_lzw_compressed_in(docs);
}
