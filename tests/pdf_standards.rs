//! What the PDFs say about themselves, read back with lopdf from every built-in kit
//! (in English and Arabic; the full tier reads every language): no conformance claim
//! they do not meet, grey art in DeviceGray, tablekit as producer with reproducible
//! dates, subset fonts named after their glyph sets, exact page boxes, and the
//! writer's `DocInfo` reaching the catalog.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use lopdf::{Dictionary, Document, Object};

use crate::support::shared;

/// The date written when `SOURCE_DATE_EPOCH` is not set and the kit states none
/// (2026-01-01, UTC).
const FIXED_DATE: &str = "D:20260101000000+00'00'";

/// The date the built-in kits state (`date = 2026-12-02` in each kit.toml).
const KIT_DATE: &str = "D:20261202000000+00'00'";

/// Runs tablekit with `SOURCE_DATE_EPOCH` set to `epoch`, or unset.
pub(crate) fn run(args: &[&str], epoch: Option<&str>) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tablekit"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR")).args(args);
    match epoch {
        Some(e) => cmd.env("SOURCE_DATE_EPOCH", e),
        None => cmd.env_remove("SOURCE_DATE_EPOCH"),
    };
    let out = cmd.output().expect("tablekit runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

fn pdf_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            pdf_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "pdf") {
            found.push(path);
        }
    }
}

/// Every PDF under `dir`, by path relative to it, parsed.
pub(crate) fn load_all(dir: &Path) -> Vec<(String, Document)> {
    load_where(dir, |_| true)
}

/// The PDFs under `dir` whose path relative to it `keep` accepts, by that path, parsed.
fn load_where(dir: &Path, keep: impl Fn(&str) -> bool) -> Vec<(String, Document)> {
    let mut paths = Vec::new();
    pdf_files(dir, &mut paths);
    paths.sort();
    paths
        .into_iter()
        .map(|p| (p.strip_prefix(dir).unwrap().display().to_string(), p))
        .filter(|(name, _)| keep(name))
        .map(|(name, p)| {
            let doc = Document::load(&p).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, doc)
        })
        .collect()
}

/// The languages the default tier reads every kit's files in: English, which the kits
/// are written in, and Arabic, set right to left. The full tier reads them all.
pub(crate) const SAMPLED_LANGUAGES: [&str; 2] = ["en", "ar"];

/// Whether `path` (`kit/variant/file.pdf`, or deeper) is of a variant in one of the
/// [`SAMPLED_LANGUAGES`].
pub(crate) fn in_sampled_language(path: &str) -> bool {
    let variant = path.split('/').nth(1).unwrap_or_default();
    SAMPLED_LANGUAGES.iter().any(|lang| variant.starts_with(&format!("{lang}-")))
}

/// The files of [`all`] in the [`SAMPLED_LANGUAGES`], parsed once for this module:
/// what the default tier checks.
pub(crate) fn sample() -> &'static [(String, Document)] {
    static SAMPLE: OnceLock<Vec<(String, Document)>> = OnceLock::new();
    SAMPLE.get_or_init(|| {
        let mut docs = load_where(shared::every_language().dir(), in_sampled_language);
        docs.extend(load_all(
            shared::build(&["three-men-slide", "--paper", "letter"]).dir(),
        ));
        docs.sort_by(|a, b| a.0.cmp(&b.0));
        assert!(docs.len() > 50, "only {} PDFs", docs.len());
        docs
    })
}

/// Every built-in kit in every language on A4, plus three-men-slide on Letter,
/// parsed once for this module.
pub(crate) fn all() -> &'static [(String, Document)] {
    static ALL: OnceLock<Vec<(String, Document)>> = OnceLock::new();
    ALL.get_or_init(|| {
        // The builds other modules read too: built once, without SOURCE_DATE_EPOCH.
        let mut docs = load_all(shared::every_language().dir());
        docs.extend(load_all(
            shared::build(&["three-men-slide", "--paper", "letter"]).dir(),
        ));
        docs.sort_by(|a, b| a.0.cmp(&b.0));
        assert!(docs.len() > 100, "only {} PDFs", docs.len());
        docs
    })
}

pub(crate) fn info(doc: &Document) -> &Dictionary {
    let id = doc.trailer.get(b"Info").and_then(Object::as_reference).expect("an Info");
    doc.get_dictionary(id).unwrap()
}

pub(crate) fn string(dict: &Dictionary, key: &[u8]) -> Option<String> {
    let bytes = dict.get(key).ok()?.as_str().ok()?;
    Some(match bytes {
        [0xfe, 0xff, rest @ ..] => {
            let units: Vec<u16> =
                rest.chunks(2).map(|c| u16::from_be_bytes([c[0], c[1]])).collect();
            String::from_utf16(&units).unwrap()
        }
        _ => String::from_utf8(bytes.to_vec()).unwrap(),
    })
}

pub(crate) fn get<'a>(
    doc: &'a Document,
    dict: &'a Dictionary,
    key: &[u8],
) -> Option<&'a Object> {
    doc.dereference(dict.get(key).ok()?).ok().map(|(_, o)| o)
}

#[test]
fn no_file_claims_a_standard_it_does_not_meet() {
    no_file_claims_a_standard_it_does_not_meet_in(sample());
}

fn no_file_claims_a_standard_it_does_not_meet_in(docs: &[(String, Document)]) {
    for (name, doc) in docs {
        let info = info(doc);
        for key in [&b"GTS_PDFXVersion"[..], b"GTS_PDFXConformance", b"Identifier"] {
            assert!(!info.has(key), "{name}: Info has /{}", String::from_utf8_lossy(key));
        }
        // Nothing empty: an empty /Author or /Keywords says nothing.
        for (key, value) in info.iter() {
            if let Ok(s) = value.as_str() {
                assert!(!s.is_empty(), "{name}: empty /{}", String::from_utf8_lossy(key));
            }
        }
        // The claims a file makes are PDF/A-2b and PDF/UA-1, in its XMP metadata: what
        // they ask is checked in `pdf_archive` and `pdf_tagged`, and by veraPDF in
        // scripts/check-pdfa.sh.
        let catalog = doc.catalog().unwrap();
        let xmp = get(doc, catalog, b"Metadata").unwrap().as_stream().unwrap();
        let xmp = String::from_utf8_lossy(&xmp.content);
        assert!(xmp.contains("<pdfaid:part>2</pdfaid:part>"), "{name}");
        assert!(xmp.contains("<pdfuaid:part>1</pdfuaid:part>"), "{name}");
        assert!(!xmp.contains("pdfx"), "{name}");
    }
}

#[test]
fn the_producer_is_tablekit_and_the_dates_are_the_kits() {
    the_producer_is_tablekit_and_the_dates_are_the_kits_in(sample());
}

fn the_producer_is_tablekit_and_the_dates_are_the_kits_in(docs: &[(String, Document)]) {
    let producer = format!("tablekit {}", env!("CARGO_PKG_VERSION"));
    for (name, doc) in docs {
        let info = info(doc);
        assert_eq!(string(info, b"Producer"), Some(producer.clone()), "{name}");
        assert_eq!(string(info, b"CreationDate").as_deref(), Some(KIT_DATE), "{name}");
        assert_eq!(string(info, b"ModDate").as_deref(), Some(KIT_DATE), "{name}");
        assert!(string(info, b"Title").is_some_and(|t| !t.is_empty()), "{name}");
    }
    // A kit that states no date, and the calibration page, carry tablekit's own.
    let tmp = tempfile::tempdir().unwrap();
    let kit = crate::cli::copy_of("three-men-slide", tmp.path());
    let dated = "date = 2026-12-02          # the day the kit was last revised: the date its PDFs state\n";
    crate::cli::edit(&kit.join("kit.toml"), dated, "");
    let out = tmp.path().join("out");
    run(&["build", kit.to_str().unwrap(), "--out", out.to_str().unwrap()], None);
    run(&["calibrate", "--sheet", "--out", out.to_str().unwrap()], None);
    let docs = load_all(&out);
    assert!(docs.len() > 3);
    for (name, doc) in &docs {
        assert_eq!(
            string(info(doc), b"CreationDate").as_deref(),
            Some(FIXED_DATE),
            "{name}"
        );
    }
}

#[test]
fn source_date_epoch_sets_the_dates_and_builds_stay_identical() {
    let tmp = tempfile::tempdir().unwrap();
    let build = |dir: &str| {
        let out = tmp.path().join(dir);
        let args = ["build", "three-men-slide", "--out", out.to_str().unwrap()];
        run(&args, Some("1700000000"));
        load_all(&out)
    };
    let (first, second) = (build("a"), build("b"));
    for ((name, a), (_, b)) in first.iter().zip(&second) {
        let info = info(a);
        let date = "D:20231114221320+00'00'";
        assert_eq!(string(info, b"CreationDate").as_deref(), Some(date), "{name}");
        assert_eq!(string(info, b"ModDate").as_deref(), Some(date), "{name}");
        // The XMP metadata says the same instant.
        let xmp = get(a, a.catalog().unwrap(), b"Metadata").unwrap().as_stream().unwrap();
        let xmp = String::from_utf8_lossy(&xmp.content);
        assert!(xmp.contains("<xmp:CreateDate>2023-11-14T22:13:20+00:00<"), "{name}");
        let bytes = |d: &Document| {
            let mut v = Vec::new();
            d.clone().save_to(&mut v).unwrap();
            v
        };
        assert!(bytes(a) == bytes(b), "{name} differs between two builds");
    }
    assert!(!first.is_empty());
}

/// Operators that set a colour in a space other than DeviceGray.
const NOT_GRAY: [&str; 10] = ["rg", "RG", "k", "K", "sc", "SC", "scn", "SCN", "cs", "CS"];

#[test]
fn all_colour_is_device_gray() {
    all_colour_is_device_gray_in(sample());
}

fn all_colour_is_device_gray_in(docs: &[(String, Document)]) {
    for (name, doc) in docs {
        for (number, page) in doc.get_pages() {
            let content = doc.get_and_decode_page_content(page).unwrap();
            let mut gray = 0;
            for op in &content.operations {
                assert!(
                    !NOT_GRAY.contains(&op.operator.as_str()),
                    "{name} page {number}: `{} {}`",
                    op.operator,
                    op.operands.iter().map(|o| format!("{o:?}")).collect::<String>()
                );
                gray += usize::from(op.operator == "g" || op.operator == "G");
            }
            assert!(gray > 0, "{name} page {number}: no grey set at all");
        }
    }
}

/// Each Type0 font of the document: its /BaseFont, the descendant's /BaseFont, the
/// descriptor's /FontName, the embedded program and the ToUnicode map.
struct Font {
    names: [String; 3],
    program: Vec<u8>,
    to_unicode: String,
    /// The descriptor's /CapHeight and /Ascent.
    cap_height: i64,
    ascent: i64,
}

fn fonts(doc: &Document) -> Vec<Font> {
    let name = |o: Option<&Object>| {
        String::from_utf8(o.unwrap().as_name().unwrap().to_vec()).unwrap()
    };
    let stream = |o: Option<&Object>| {
        let s = o.unwrap().as_stream().unwrap();
        s.decompressed_content().unwrap_or_else(|_| s.content.clone())
    };
    doc.objects
        .values()
        .filter_map(|o| o.as_dict().ok())
        .filter(|d| d.get_type().is_ok_and(|t| t == b"Font"))
        .filter(|d| {
            d.get(b"Subtype").and_then(Object::as_name).is_ok_and(|s| s == b"Type0")
        })
        .map(|font| {
            let descendants = get(doc, font, b"DescendantFonts").unwrap().as_array();
            let cid = doc.dereference(&descendants.unwrap()[0]).unwrap().1;
            let cid = cid.as_dict().unwrap();
            let descriptor = get(doc, cid, b"FontDescriptor").unwrap().as_dict().unwrap();
            Font {
                names: [
                    name(get(doc, font, b"BaseFont")),
                    name(get(doc, cid, b"BaseFont")),
                    name(get(doc, descriptor, b"FontName")),
                ],
                program: stream(get(doc, descriptor, b"FontFile2")),
                to_unicode: String::from_utf8(stream(get(doc, font, b"ToUnicode")))
                    .unwrap(),
                cap_height: descriptor.get(b"CapHeight").unwrap().as_i64().unwrap(),
                ascent: descriptor.get(b"Ascent").unwrap().as_i64().unwrap(),
            }
        })
        .collect()
}

#[test]
fn subset_fonts_are_named_after_their_glyph_sets() {
    subset_fonts_are_named_after_their_glyph_sets_in(sample());
}

fn subset_fonts_are_named_after_their_glyph_sets_in(docs: &[(String, Document)]) {
    // Subset name → the program it stands for, across every file.
    let mut programs: BTreeMap<String, (&str, Vec<u8>)> = BTreeMap::new();
    for (file, doc) in docs {
        let fonts = fonts(doc);
        assert!(!fonts.is_empty(), "{file}");
        for font in fonts {
            let [base, descendant, descriptor] = &font.names;
            assert!(base == descendant && base == descriptor, "{file}: {:?}", font.names);
            let (tag, face) = base.split_once('+').expect("a subset tag");
            assert!(
                tag.len() == 6 && tag.bytes().all(|b| b.is_ascii_uppercase()),
                "{file}: {base}"
            );
            assert!(face.starts_with("DejaVuSans"), "{file}: {base}");
            // DejaVu Sans: capitals are 729/1000 em tall, the ascent is 928.
            assert_eq!((font.cap_height, font.ascent), (729, 928), "{file}: {base}");
            match programs.get(base) {
                Some((other, program)) => assert!(
                    *program == font.program,
                    "{file} and {other} name different subsets {base}"
                ),
                None => {
                    programs.insert(base.clone(), (file, font.program));
                }
            }
        }
    }
    // Different subsets, different names: as many names as distinct programs.
    let mut distinct: Vec<&Vec<u8>> = programs.values().map(|(_, p)| p).collect();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), programs.len(), "one subset under two names");
    assert!(programs.len() > 20, "only {} distinct subsets", programs.len());
}

#[test]
fn every_glyph_maps_to_text_and_none_to_the_replacement_character() {
    every_glyph_maps_to_text_and_none_to_the_replacement_character_in(sample());
}

fn every_glyph_maps_to_text_and_none_to_the_replacement_character_in(
    docs: &[(String, Document)],
) {
    for (file, doc) in docs {
        for font in fonts(doc) {
            assert!(font.to_unicode.contains("beginbfchar"), "{file}: {:?}", font.names);
            assert!(
                !font.to_unicode.to_ascii_uppercase().contains("<FFFD>"),
                "{file}: {} maps a glyph to U+FFFD",
                font.names[0]
            );
        }
    }
}

fn numbers(doc: &Document, page: &Dictionary, key: &[u8]) -> Vec<f32> {
    let array = get(doc, page, key).unwrap().as_array().unwrap();
    array.iter().map(|o| o.as_float().unwrap()).collect()
}

#[test]
fn page_boxes_are_the_paper_exactly() {
    page_boxes_are_the_paper_exactly_in(sample());
}

fn page_boxes_are_the_paper_exactly_in(docs: &[(String, Document)]) {
    let a4 = [0.0, 0.0, (210.0 * 72.0 / 25.4) as f32, (297.0 * 72.0 / 25.4) as f32];
    let mut letters = 0;
    for (name, doc) in docs {
        let letter = name.contains("letter");
        letters += usize::from(letter);
        for (number, id) in doc.get_pages() {
            let page = doc.get_dictionary(id).unwrap();
            for key in [&b"MediaBox"[..], b"TrimBox", b"CropBox"] {
                let values = numbers(doc, page, key);
                let expected =
                    if letter { vec![0.0, 0.0, 612.0, 792.0] } else { a4.to_vec() };
                assert_eq!(values, expected, "{name} page {number}");
            }
        }
    }
    assert!(letters > 0);
    // Written as the shortest decimal, not as a float32 artefact.
    let (_, doc) = docs.iter().find(|(n, _)| n.contains("letter")).unwrap();
    let mut bytes = Vec::new();
    doc.clone().save_to(&mut bytes).unwrap();
    let text = String::from_utf8_lossy(&bytes);
    assert!(text.contains("/MediaBox[0 0 612 792]"), "Letter box not written exactly");
}

#[test]
fn each_file_has_its_title_language_and_direction() {
    each_file_has_its_title_language_and_direction_in(sample());
}

fn each_file_has_its_title_language_and_direction_in(docs: &[(String, Document)]) {
    for (name, doc) in docs {
        let lang = name.split('/').nth(1).and_then(|v| v.split('-').next()).unwrap();
        let catalog = doc.catalog().unwrap();
        assert_eq!(string(catalog, b"Lang").as_deref(), Some(lang), "{name}");
        let title = string(self::info(doc), b"Title").unwrap_or_default();
        assert!(
            title.contains(" · ") && title.contains(&format!("({lang}, ")),
            "{name}: {title}"
        );
        let prefs = get(doc, catalog, b"ViewerPreferences").unwrap().as_dict().unwrap();
        assert!(prefs.get(b"DisplayDocTitle").unwrap().as_bool().unwrap(), "{name}");
        assert_eq!(prefs.get(b"PrintScaling").unwrap().as_name().unwrap(), b"None");
        let direction = prefs.get(b"Direction").ok().and_then(|d| d.as_name().ok());
        let rtl = lang == "ar";
        assert_eq!(direction, rtl.then_some(&b"R2L"[..]), "{name}");
    }
    // Titles are in the sheet's language: no board in another language than English
    // (Arabic, Greek, …) is titled "Board".
    let boards =
        docs.iter().filter(|(n, _)| n.ends_with("/board.pdf") && !n.contains("/en-"));
    let mut translated = 0;
    for (name, board) in boards {
        let title = string(self::info(board), b"Title").unwrap();
        assert!(!title.contains("Board"), "{name}: {title}");
        translated += 1;
    }
    assert!(translated > 0, "no board in another language than English");
}

/// The checks above, which the default tier runs on every kit in English and Arabic,
/// over every kit in every language.
#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn the_standards_hold_for_every_kit_in_every_language() {
    let docs = all();
    no_file_claims_a_standard_it_does_not_meet_in(docs);
    the_producer_is_tablekit_and_the_dates_are_the_kits_in(docs);
    all_colour_is_device_gray_in(docs);
    subset_fonts_are_named_after_their_glyph_sets_in(docs);
    every_glyph_maps_to_text_and_none_to_the_replacement_character_in(docs);
    page_boxes_are_the_paper_exactly_in(docs);
    each_file_has_its_title_language_and_direction_in(docs);
}
