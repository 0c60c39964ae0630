//! The second pass over printpdf's output, with lopdf: what the document says about
//! itself (Info dictionary, catalog), the header version, and a document id derived
//! from the content. Nothing here reads a clock or a counter, so the same pages and
//! [`DocInfo`] always give the same bytes.

use lopdf::{Dictionary, Object, StringFormat};

/// What a document says about itself, beyond its pages. `DocInfo::default()` gives
/// a document without title or language.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DocInfo {
    /// The title viewers show in their title bar (`/Title`, with
    /// `/DisplayDocTitle`); none when empty.
    pub title: String,
    /// The language of the text as a BCP 47 tag, e.g. `"ar"` or `"fr"` (the
    /// catalog's `/Lang`, which screen readers and search use).
    pub lang: Option<String>,
    /// The text reads right to left: viewers are told to show pages side by side
    /// and to turn pages from right to left (`/Direction /R2L`).
    pub right_to_left: bool,
    /// The page label with `{page}` and `{pages}` ("page {page} of {pages}"), in
    /// the sheet's language: the outline's entry for a page that starts no heading.
    pub page_label: String,
    /// The date the document states when `SOURCE_DATE_EPOCH` is not set (its kit's
    /// `date`), in seconds since 1970; else tablekit's own fixed date.
    pub epoch: Option<i64>,
}

/// `/Creator` (XMP `xmp:CreatorTool`): what made the content.
const CREATOR: &str = "tablekit";

/// `/Producer`: the program and its version.
const PRODUCER: &str = concat!("tablekit ", env!("CARGO_PKG_VERSION"));

/// The date written when `SOURCE_DATE_EPOCH` is not set and the kit states none (and
/// on the calibration page): 2026-01-01 00:00:00 UTC.
/// A fixed date, not the clock, so that a rebuild gives the same bytes.
const FIXED_EPOCH: i64 = 1_767_225_600;

/// What the metadata states, besides the document's own [`DocInfo`]: the same in the
/// Info dictionary and in the PDF/A metadata.
pub(super) struct Stated<'a> {
    pub creator: &'a str,
    pub producer: &'a str,
    /// Creation and modification date, seconds since 1970 (UTC).
    pub epoch: i64,
}

/// What `info` makes the document state about its making.
pub(super) fn stated(info: &DocInfo) -> Stated<'static> {
    Stated { creator: CREATOR, producer: PRODUCER, epoch: stated_epoch(info) }
}

/// Rewrites printpdf's output: PDF 1.6 (for `PrintScaling`), an Info dictionary
/// with only true statements (printpdf's empty `/GTS_PDFXVersion` claims PDF/X
/// conformance, and its empty `/Author`, `/Identifier`… say nothing), and the
/// catalog's viewer preferences and language.
pub(super) fn describe(doc: &mut lopdf::Document, info: &DocInfo) {
    doc.version = "1.6".to_string();

    let info_dict = info_dictionary(info);
    match doc.trailer.get(b"Info").and_then(Object::as_reference) {
        Ok(id) => {
            doc.objects.insert(id, Object::Dictionary(info_dict));
        }
        Err(_) => {
            let id = doc.add_object(Object::Dictionary(info_dict));
            doc.trailer.set("Info", Object::Reference(id));
        }
    }

    let mut prefs = Dictionary::new();
    prefs.set("PrintScaling", name("None"));
    if !info.title.is_empty() {
        prefs.set("DisplayDocTitle", Object::Boolean(true));
    }
    if info.right_to_left {
        prefs.set("Direction", name("R2L"));
    }
    let catalog = doc.catalog_mut().expect("printpdf writes a catalog");
    catalog.set("ViewerPreferences", Object::Dictionary(prefs));
    if let Some(lang) = info.lang.as_deref().filter(|l| !l.is_empty()) {
        catalog.set("Lang", text_string(lang));
    }
}

/// The document's bytes, with a content-derived id.
pub(super) fn save_with_id(mut doc: lopdf::Document) -> Vec<u8> {
    // The id is a hash of the file written with a placeholder id of the same length,
    // patched in place: one save instead of two.
    let placeholder = Object::String(vec![0; ID_BYTES], StringFormat::Hexadecimal);
    doc.trailer.set("ID", Object::Array(vec![placeholder.clone(), placeholder]));
    // Room for every stream and a little more for the objects around them, so the
    // file is written without growing (and copying) its buffer again and again.
    let streams: usize = doc
        .objects
        .values()
        .filter_map(|object| object.as_stream().ok())
        .map(|stream| stream.content.len())
        .sum();
    let mut out = Vec::with_capacity(streams + 64 * doc.objects.len() + 4096);
    doc.save_to(&mut out).expect("writing to memory cannot fail");
    let [head, tail] = super::fnv1a_salted(&out, [0, 1]);
    let id = format!("{head:016x}{tail:016x}");
    let zeros = format!("<{}>", "00".repeat(ID_BYTES));
    let at =
        find_last(&out, zeros.as_bytes()).expect("the trailer holds the placeholder");
    let patched = format!("<{id}>");
    // Both halves of the id array are the placeholder; the last two occurrences.
    let first = find_last(&out[..at], zeros.as_bytes()).expect("the id has two parts");
    for start in [first, at] {
        out[start..start + patched.len()].copy_from_slice(patched.as_bytes());
    }
    out
}

/// Bytes in the document id (two 64-bit hashes).
const ID_BYTES: usize = 16;

fn find_last(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).rposition(|w| w == needle)
}

fn info_dictionary(info: &DocInfo) -> Dictionary {
    let date = Object::string_literal(pdf_date(stated_epoch(info)));
    let mut dict = Dictionary::new();
    if !info.title.is_empty() {
        dict.set("Title", text_string(&info.title));
    }
    dict.set("Creator", Object::string_literal(CREATOR));
    dict.set("Producer", Object::string_literal(PRODUCER));
    dict.set("CreationDate", date.clone());
    dict.set("ModDate", date);
    // No trapping was done (nor is any needed: nothing overprints).
    dict.set("Trapped", name("False"));
    dict
}

/// The date a document states: `SOURCE_DATE_EPOCH`, else its kit's, else the fixed
/// one.
fn stated_epoch(info: &DocInfo) -> i64 {
    source_date_epoch().or(info.epoch).unwrap_or(FIXED_EPOCH)
}

/// The latest date a PDF date can hold: 9999-12-31 23:59:59 UTC.
const LAST_EPOCH: i64 = 253_402_300_799;

/// `SOURCE_DATE_EPOCH` (reproducible-builds.org) when set to a whole number of
/// seconds (checked once at start by [`check_source_date_epoch`]).
fn source_date_epoch() -> Option<i64> {
    parse_epoch(&std::env::var("SOURCE_DATE_EPOCH").ok()?).ok().flatten()
}

/// `SOURCE_DATE_EPOCH` as set: `None` when empty, else seconds since 1970 within
/// what a PDF date can say.
fn parse_epoch(text: &str) -> Result<Option<i64>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let shown: String = text.chars().take(40).flat_map(char::escape_debug).collect();
    match text.parse::<i64>() {
        Ok(seconds) if (0..=LAST_EPOCH).contains(&seconds) => Ok(Some(seconds)),
        Ok(_) => Err(format!(
            "SOURCE_DATE_EPOCH is {shown}: a date must be 0 (1970) to {LAST_EPOCH} (the end of \
             9999), in seconds"
        )),
        Err(_) => Err(format!(
            "SOURCE_DATE_EPOCH is `{shown}`: it must be a whole number of seconds since \
             1970-01-01 (such as 1767225600), or unset"
        )),
    }
}

/// Refuses a `SOURCE_DATE_EPOCH` that is set but is not a date a PDF can hold,
/// rather than writing a wrong date or silently ignoring it.
pub fn check_source_date_epoch() -> Result<(), String> {
    match std::env::var("SOURCE_DATE_EPOCH") {
        Ok(text) => parse_epoch(&text).map(|_| ()),
        Err(std::env::VarError::NotPresent) => Ok(()),
        Err(std::env::VarError::NotUnicode(_)) => {
            Err("SOURCE_DATE_EPOCH is not text: it must be a whole number of seconds"
                .into())
        }
    }
}

fn name(n: &str) -> Object {
    Object::Name(n.as_bytes().to_vec())
}

/// A PDF text string: ASCII as a literal string, anything else as UTF-16BE with a
/// byte order mark (ISO 32000-1, 7.9.2.2).
pub(super) fn text_string(text: &str) -> Object {
    if text.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return Object::string_literal(text);
    }
    let bytes = [0xfe, 0xff]
        .into_iter()
        .chain(text.encode_utf16().flat_map(|u| u.to_be_bytes()))
        .collect();
    Object::String(bytes, StringFormat::Hexadecimal)
}

/// A PDF date (ISO 32000-1, 7.9.4) in UTC: `D:YYYYMMDDHHmmSS+00'00'`.
fn pdf_date(epoch: i64) -> String {
    let (days, secs) = (epoch.div_euclid(86_400), epoch.rem_euclid(86_400));
    let (y, m, d) = crate::civil::civil_from_days(days);
    format!(
        "D:{y:04}{m:02}{d:02}{:02}{:02}{:02}+00'00'",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_source_date_epoch_is_a_whole_number_of_seconds_a_pdf_date_can_hold() {
        assert_eq!(parse_epoch(" 1767225600 "), Ok(Some(1_767_225_600)));
        assert_eq!(parse_epoch(""), Ok(None));
        assert!(parse_epoch("yesterday").unwrap_err().contains("whole number"));
        assert!(parse_epoch("-1").unwrap_err().contains("0 (1970)"));
        assert!(parse_epoch("999999999999").unwrap_err().contains("9999"));
        assert_eq!(pdf_date(LAST_EPOCH), "D:99991231235959+00'00'");
    }

    #[test]
    fn dates_are_utc_calendar_dates() {
        assert_eq!(pdf_date(0), "D:19700101000000+00'00'");
        assert_eq!(pdf_date(FIXED_EPOCH), "D:20260101000000+00'00'");
        // 2000-02-29 (a leap day of a century year) 12:34:56.
        assert_eq!(pdf_date(951_827_696), "D:20000229123456+00'00'");
        assert_eq!(pdf_date(1_700_000_000), "D:20231114221320+00'00'");
    }

    #[test]
    fn text_strings_are_ascii_or_utf16() {
        assert_eq!(text_string("Board"), Object::string_literal("Board"));
        let Object::String(bytes, _) = text_string("Ωμέγα") else { panic!() };
        assert_eq!(&bytes[..4], &[0xfe, 0xff, 0x03, 0xa9]);
    }
}
