//! What people read: numbers printed for people, not as the computer holds them.

use std::path::Path;

use crate::cli::stderr;
use crate::support::games;
use crate::support::pdf_probe;
use crate::support::tablekit;

/// Every PDF under `dir`, recursively.
fn pdfs(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(pdfs(&path));
        } else if path.extension().is_some_and(|e| e == "pdf") {
            found.push(path);
        }
    }
    found
}

/// The first number in `text` with more than two decimals, if any.
pub fn long_decimal(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if (*c == '.' || *c == ',') && i > 0 && chars[i - 1].is_ascii_digit() {
            let digits = chars[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
            if digits > 2 {
                let start = i.saturating_sub(4);
                return Some(
                    chars[start..(i + 1 + digits).min(chars.len())].iter().collect(),
                );
            }
        }
    }
    None
}

#[test]
fn no_sheet_of_a_kit_prints_a_number_with_more_than_two_decimals() {
    // Crossway: rows 23.7 mm apart, scaled with the cell; a preset cell in English
    // and 41 mm with a decimal comma.
    no_long_decimals(&["crossway"], &[("small", "en"), ("41", "fr")]);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn no_sheet_prints_a_number_with_more_than_two_decimals() {
    let every = [("small", "en"), ("small", "fr"), ("41", "en"), ("41", "fr")];
    no_long_decimals(&[], &every);
}

/// No sheet of `kits` (every kit if none is named), at each cell size (a preset or
/// mm) and language of `builds` (French writes a decimal comma), prints a number with
/// more than two decimals.
fn no_long_decimals(kits: &[&str], builds: &[(&str, &str)]) {
    let tmp = tempfile::tempdir().unwrap();
    for &(cell, lang) in builds {
        // Each build in a folder of its own, so that each sheet is read once.
        let dir = tmp.path().join(format!("{cell}-{lang}"));
        let out = dir.to_str().unwrap();
        let args = ["build", "--cell", cell, "--lang", lang, "--out", out];
        let run = tablekit(&[&args[..], kits].concat());
        assert!(run.status.success(), "{}", stderr(&run));
        for pdf in pdfs(&dir) {
            let text = pdf_probe::load_file(&pdf).text();
            if let Some(number) = long_decimal(&text) {
                panic!("{} (--cell {cell}) prints {number:?}", pdf.display());
            }
        }
    }
}

/// The player sheets of a large-print build: nothing a player reads under 12 pt,
/// running text at 14 pt; the board and pieces at the kit's large cell.
#[test]
fn large_print_of_a_kit_sets_no_player_text_under_twelve_points() {
    // One kit, read left to right and right to left; the full tier builds every kit
    // in every language.
    large_print_holds(&["stack-top-roads"], &["en", "ar"]);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn large_print_sets_no_player_text_under_twelve_points() {
    large_print_holds(&[], &[]);
}

/// The large-print build of `kits` (every kit if none is named) in `langs` (every
/// language if none is named).
fn large_print_holds(kits: &[&str], langs: &[&str]) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().to_str().unwrap();
    for lang in if langs.is_empty() { &["all"][..] } else { langs } {
        let args = ["build", "--large-print", "--lang", lang, "--out", out];
        let run = tablekit(&[&args[..], kits].concat());
        assert!(run.status.success(), "{}", crate::cli::stderr(&run));
    }
    let mut small = std::collections::BTreeSet::new();
    let mut folders = 0;
    for kit in std::fs::read_dir(tmp.path()).unwrap() {
        for variant in std::fs::read_dir(kit.unwrap().path()).unwrap() {
            let variant = variant.unwrap().path();
            let name = variant.file_name().unwrap().to_string_lossy().into_owned();
            if name.ends_with("-host") {
                continue;
            }
            assert!(name.contains("-large-print"), "{name}");
            folders += 1;
            for (file, path) in crate::support::variant_pdfs(&variant) {
                // The plan and the host key are the facilitator's.
                if file == "contents.pdf" || file == "host-key.pdf" {
                    continue;
                }
                for page in &pdf_probe::load_file(&path).pages {
                    // The calibration bar's scale (0 … 10, cm, in) is a ruler's, set
                    // at a ruler's size.
                    let ruler = |t: &pdf_probe::TextRun| {
                        let scale = t.text.chars().all(|c| c.is_ascii_digit())
                            || ["cm", "in"].contains(&t.text.trim());
                        scale && t.y > page.height_mm - 34.0
                    };
                    let under = page.texts.iter().filter(|t| t.size_pt < 12.0 - 1e-6);
                    for t in under.filter(|t| !ruler(t)) {
                        let (size, text) = (t.size_pt, &t.text);
                        small.insert(format!("{name}/{file}: {size:.1} pt {text:?}"));
                    }
                }
            }
        }
    }
    let built =
        games::kits().iter().filter(|k| kits.is_empty() || kits.contains(&&*k.id));
    let expected: usize = match langs.len() {
        0 => built.map(|k| k.languages.len()).sum(),
        n => built.count() * n,
    };
    assert_eq!(folders, expected, "every kit built in each of its languages");
    // Counted by sheet and size, with one example of each.
    let mut by_kind: std::collections::BTreeMap<String, (usize, &String)> =
        Default::default();
    for run in &small {
        let (place, rest) = run.split_once(": ").unwrap();
        let sheet = place.split('/').nth(1).unwrap();
        let size = rest.split(" pt").next().unwrap();
        by_kind.entry(format!("{sheet} {size} pt")).or_insert((0, run)).0 += 1;
    }
    assert!(small.is_empty(), "{} runs under 12 pt:\n{by_kind:#?}", small.len());
}
