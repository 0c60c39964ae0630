//! The record sheets (ledgers, the repetition log, move records) read back: one table
//! style (headings 8 pt, nothing under 7 pt, write-in cells of at least 6 mm), mirrored
//! in Arabic, the Crossway record's who column, and no record ending on a page that is
//! nearly empty.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::cli::{stderr, tablekit};
use crate::support::games;
use crate::support::pdf_probe::{PageProbe, Probe, TextRun};
use crate::support::shared;

/// Each built-in kit's record sheet, the strings table and key of its first column's
/// heading, and its languages; or those of the kits named in `only`.
fn records(
    only: &[&str],
) -> Vec<(&'static str, &'static str, &'static str, &'static str)> {
    let kits = games::kits().iter().filter(|k| only.is_empty() || only.contains(&&*k.id));
    kits.map(|kit| {
        let (table, key) = kit.expected().record_heading;
        (kit.id.as_str(), kit.record_sheet(), table, key)
    })
    .collect()
}

fn langs(kit: &str) -> &'static [String] {
    &games::kit(kit).languages
}
/// Top margin and footer band of every sheet, in millimetres.
const TOP_MM: f64 = 15.0;
const FOOTER_MM: f64 = 34.0;

fn string(kit: &str, lang: &str, table: &str, key: &str) -> String {
    let path = crate::support::kit_dir(kit).join("lang").join(format!("{lang}.toml"));
    let value: toml::Table = toml::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    value[table][key].as_str().unwrap().to_string()
}

/// The folder of a build of `kits` (every kit if none is named) in every language on
/// `paper` with `extra` options, shared between tests: on A4 without options, the
/// build of every kit in every language.
fn build_all(kits: &[&str], paper: &str, extra: &[&str]) -> PathBuf {
    if paper == "a4" && extra.is_empty() {
        return shared::every_language().dir().to_path_buf();
    }
    let args = [&["--lang", "all", "--paper", paper][..], kits, extra].concat();
    shared::build(&args).dir().to_path_buf()
}

/// The record sheet of `kit` in `lang` under `out`.
fn record(out: &Path, kit: &str, sheet: &str, lang: &str) -> (PathBuf, &'static Probe) {
    let dir = fs::read_dir(out.join(kit))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            let name = p.file_name().unwrap().to_str().unwrap();
            name.starts_with(&format!("{lang}-")) && !name.ends_with("-host")
        })
        .unwrap_or_else(|| panic!("no {lang} build of {kit}"));
    let path = dir.join(format!("{sheet}.pdf"));
    let probe = shared::probe(&path);
    (path, probe)
}

/// What is drawn above the footer band.
fn above_footer(page: &PageProbe) -> impl Fn(f64) -> bool {
    let limit = page.height_mm - FOOTER_MM;
    move |y| y < limit
}

fn bold(run: &TextRun) -> bool {
    run.font.contains("Bold")
}

#[test]
fn a_kit_s_arabic_record_starts_at_the_right_and_english_at_the_left() {
    records_start_where_their_language_reads(&["three-men-slide"]);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn arabic_records_start_at_the_right_and_english_at_the_left() {
    records_start_where_their_language_reads(&[]);
}

/// The record sheets of `kits` (every kit if none is named) start their first column
/// at the right in Arabic and at the left in English.
fn records_start_where_their_language_reads(kits: &[&str]) {
    let out = build_all(kits, "a4", &[]);
    for (kit, sheet, table, key) in records(kits) {
        for lang in ["en", "ar"] {
            let (path, pdf) = record(&out, kit, sheet, lang);
            let heading = string(kit, lang, table, key);
            let page = &pdf.pages[0];
            let turns: Vec<&TextRun> = page
                .texts
                .iter()
                .filter(|t| t.text.trim() == heading && bold(t))
                .collect();
            assert!(!turns.is_empty(), "{}: no heading {heading:?}", path.display());
            // The first block: the rightmost in Arabic, the leftmost in English.
            let first = match lang {
                "ar" => turns.iter().max_by(|a, b| a.x.total_cmp(&b.x)),
                _ => turns.iter().min_by(|a, b| a.x.total_cmp(&b.x)),
            }
            .unwrap();
            let others: Vec<&TextRun> = page
                .texts
                .iter()
                .filter(|t| {
                    bold(t) && (t.y - first.y).abs() < 0.5 && t.text != first.text
                })
                .collect();
            assert!(
                others.len() >= 2,
                "{}: the headings beside {heading:?}",
                path.display()
            );
            for other in others {
                let right_of = first.x > other.x;
                assert_eq!(
                    right_of,
                    lang == "ar",
                    "{}: {heading:?} at {:.1} mm, {:?} at {:.1} mm",
                    path.display(),
                    first.x,
                    other.text,
                    other.x
                );
            }
            // Turn 1 stands in the first block, on the side the sheet is read from.
            let one = page
                .texts
                .iter()
                .filter(|t| t.text.trim() == "1" && bold(t))
                .map(|t| t.x)
                .next()
                .unwrap_or_else(|| panic!("{}: no row 1", path.display()));
            let middle = page.width_mm / 2.0;
            assert_eq!(
                one > middle,
                lang == "ar",
                "{}: row 1 at {one:.1} mm",
                path.display()
            );
        }
    }
}

#[test]
fn a_record_s_type_is_readable_and_its_write_in_cells_take_handwriting() {
    // One kit's record sheet, on Letter in English and Arabic; the full tier reads
    // every kit's in every language on both papers.
    record_type_is_readable(&["stack-top-roads"], &["en", "ar"]);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn record_type_is_readable_and_write_in_cells_take_handwriting() {
    record_type_is_readable(&[], &[]);
}

/// The record sheets of `kits` (every kit if none is named), in every language on A4
/// and on Letter in `letter_langs` (every language if none is named): type at least
/// 7 pt (8 pt bold), rows and columns at least 6 mm apart.
fn record_type_is_readable(kits: &[&str], letter_langs: &[&'static str]) {
    for (kit, sheet, _, _) in records(kits) {
        for (out, lang) in record_builds(kits, kit, letter_langs) {
            let (path, pdf) = record(&out, kit, sheet, lang);
            for (i, page) in pdf.pages.iter().enumerate() {
                let inside = above_footer(page);
                let what = format!("{} page {}", path.display(), i + 1);
                for run in page.texts.iter().filter(|t| inside(t.y)) {
                    assert!(run.size_pt >= 7.0 - 1e-6, "{what}: {run:?}");
                    // Headings and printed labels are bold: never under 8 pt.
                    if bold(run) {
                        assert!(run.size_pt >= 8.0 - 1e-6, "{what}: {run:?}");
                    }
                }
                // The light rules of rows and columns: at least 6 mm apart.
                let rules: Vec<_> = page
                    .segments
                    .iter()
                    .filter(|s| (s.width_mm - 0.25).abs() < 0.02 && !s.dashed)
                    .filter(|s| inside(s.y1.max(s.y2)))
                    .collect();
                let across = rules.iter().filter(|s| (s.y1 - s.y2).abs() < 1e-3);
                let down = rules.iter().filter(|s| (s.x1 - s.x2).abs() < 1e-3);
                // Columns are compared within a row: a ledger's band of stacks
                // below its turn's row has columns of its own.
                let mut rows: BTreeMap<i64, Vec<f64>> = BTreeMap::new();
                for s in down {
                    let top = (s.y1.min(s.y2) * 10.0).round() as i64;
                    rows.entry(top).or_default().push(s.x1);
                }
                let columns: Vec<_> =
                    rows.into_values().filter(|xs| xs.len() > 1).collect();
                assert!(!columns.is_empty(), "{what}: no column rules");
                let across = across.map(|s| s.y1).collect::<Vec<_>>();
                let named = columns.into_iter().map(|xs| ("column", xs));
                for (name, values) in std::iter::once(("row", across)).chain(named) {
                    let mut values = values;
                    values.sort_by(f64::total_cmp);
                    values.dedup_by(|a, b| (*a - *b).abs() < 0.1);
                    assert!(values.len() > 1, "{what}: no {name} rules");
                    for pair in values.windows(2) {
                        assert!(
                            pair[1] - pair[0] >= 6.0 - 1e-3,
                            "{what}: {name} rules {:.2} and {:.2} mm",
                            pair[0],
                            pair[1]
                        );
                    }
                }
            }
        }
    }
}

/// The builds whose record sheets of `kit` [`record_type_is_readable`] reads, each
/// with the language to read: every language on A4, and on Letter those of
/// `letter_langs` (all if none is named), each from a build shared between tests.
fn record_builds(
    kits: &[&str],
    kit: &'static str,
    letter_langs: &[&'static str],
) -> Vec<(PathBuf, &'static str)> {
    let a4 = build_all(kits, "a4", &[]);
    let mut builds: Vec<(PathBuf, &str)> =
        langs(kit).iter().map(|lang| (a4.clone(), lang.as_str())).collect();
    if letter_langs.is_empty() {
        let letter = build_all(kits, "letter", &[]);
        builds.extend(langs(kit).iter().map(|lang| (letter.clone(), lang.as_str())));
    }
    for &lang in letter_langs {
        let size = games::kit(kit).default_size;
        let (built, _) = shared::variant_built(kit, lang, "letter", size);
        builds.push((built.dir().to_path_buf(), lang));
    }
    builds
}

#[test]
fn the_crossway_record_says_who_played_each_turn_in_every_language() {
    let out = build_all(&["crossway"], "a4", &[]);
    for lang in langs("crossway") {
        let (path, pdf) = record(&out, "crossway", "ledger", lang);
        let who = string("crossway", lang, "ledger", "col_who");
        for (i, page) in pdf.pages.iter().enumerate() {
            // The who heading over the rows on every page (its words may wrap).
            for word in who.split_whitespace() {
                let found = page.texts.iter().any(|t| bold(t) && t.text.contains(word));
                assert!(found, "{} page {}: no {who:?}", path.display(), i + 1);
            }
        }
        for key in ["name_v", "name_h", "date", "table"] {
            let label = string("crossway", lang, "ledger", key);
            assert!(pdf.pages[0].contains_text(&label), "{}: {label:?}", path.display());
        }
    }
}

/// How far down its content area the last page of `pdf` is drawn on, 0 to 1.
/// A record of several pages fills more than a third of its last.
fn assert_last_page_filled(path: &Path, pdf: &Probe) {
    let fill = last_page_fill(pdf);
    assert!(
        pdf.pages.len() == 1 || fill > 1.0 / 3.0,
        "{}: its last page is {:.0} % full",
        path.display(),
        fill * 100.0
    );
}

fn last_page_fill(pdf: &Probe) -> f64 {
    let page = pdf.pages.last().unwrap();
    let inside = above_footer(page);
    let bottoms = page
        .texts
        .iter()
        .map(|t| t.y)
        .chain(page.segments.iter().map(|s| s.y1.max(s.y2)))
        .chain(page.rects.iter().map(|r| r.y + r.h))
        .filter(|&y| inside(y));
    let bottom = bottoms.fold(TOP_MM, f64::max);
    (bottom - TOP_MM) / (page.height_mm - FOOTER_MM - TOP_MM)
}

#[test]
fn a_record_sheet_does_not_end_on_a_nearly_empty_page() {
    // The Crossway record grows with the board: its default and its largest.
    for size in [9, 19] {
        let (built, _) = shared::variant_built("crossway", "en", "a4", size);
        let (path, pdf) = record(built.dir(), "crossway", "ledger", "en");
        assert_last_page_filled(&path, pdf);
    }
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn no_record_sheet_ends_on_a_nearly_empty_page() {
    let runs: [(&str, &[&str]); 3] =
        [("a4", &[]), ("letter", &[]), ("a3", &["--landscape"])];
    for (paper, extra) in runs {
        let out = build_all(&[], paper, extra);
        for (kit, sheet, _, _) in records(&[]) {
            for lang in langs(kit) {
                let (path, pdf) = record(&out, kit, sheet, lang);
                assert_last_page_filled(&path, pdf);
            }
        }
    }
    // Other sizes of the games whose records grow with the board.
    for (kit, size) in [
        ("crossway", 5),
        ("crossway", 13),
        ("crossway", 19),
        ("pathstone", 3),
        ("pathstone", 8),
    ] {
        let (built, _) = shared::variant_built(kit, "en", "a4", size);
        let (path, pdf) = record(built.dir(), kit, "ledger", "en");
        assert_last_page_filled(&path, pdf);
    }
}

#[test]
fn a_column_heading_too_long_at_8_pt_fails_naming_its_key_sheet_and_language() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = crate::cli::copy_of("stack-top-roads", tmp.path());
    let de = kit.join("lang/de.toml");
    let long = "Ablagenreihenfolgevonuntennachobenmitallenzahlen";
    crate::cli::edit(
        &de,
        "col_drops = \"Ablagen der Reihe nach\"",
        &format!("col_drops = \"{long}\""),
    );
    let out = tmp.path().join("out");
    let run = tablekit(&[
        "build",
        kit.to_str().unwrap(),
        "--lang",
        "de",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(1));
    let err = stderr(&run);
    assert!(
        err.contains("sheet `ledger` (de): the text of `ledger.col_drops` does not fit")
            && err.contains("at 8 pt"),
        "{err}"
    );
    assert!(err.contains("de.toml"), "{err}");
    assert!(!out.exists(), "nothing is written");
}
