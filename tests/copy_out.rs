//! Copy-out: the text a reader takes from the sheets is the text of the strings
//! files, word for word, in every language; Arabic words with harakat included.
//!
//! The reader is the test probe (`support::pdf_probe`): it decodes every code
//! through the file's ToUnicode map and, like the common readers, reverses a
//! right-to-left line character by character.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use crate::cli::{copy_of, edit, stderr, tablekit};
use crate::support::{games, pdf_probe, shared, without_placeholders};

/// Arabic harakat (fathatan … sukun, superscript alef).
fn is_haraka(c: char) -> bool {
    ('\u{064B}'..='\u{0652}').contains(&c) || c == '\u{0670}'
}

/// A letter of a word: letters, Latin and Greek combining accents, harakat.
fn in_word(c: char) -> bool {
    c.is_alphabetic() || ('\u{0300}'..='\u{036F}').contains(&c) || is_haraka(c)
}

/// The words of a text: runs of letters (punctuation and spaces split them).
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !in_word(c)).filter(|w| !w.is_empty())
}

/// The words of a sheet's text that come from its strings file. Left out: what
/// the code prints itself, which no translator writes: file names (`rule-card.pdf`),
/// runs with digits (coordinates, moves, the build stamp, also when its six hex digits
/// are all letters), capitals-only runs of
/// notation (`WB`, a stack's pieces) and the unit symbols of the footer's ruler and
/// the contents sheet's cell size (`cm`, `mm`).
fn sheet_words(text: &str) -> Vec<&str> {
    text.split(char::is_whitespace)
        .filter(|token| !token.trim_end_matches([',', '.', ':', ';']).ends_with(".pdf"))
        .flat_map(|token| token.split(|c: char| !in_word(c) && !c.is_ascii_digit()))
        .filter(|run| !run.chars().any(|c| c.is_ascii_digit()))
        .flat_map(words)
        .filter(|w| w.chars().count() > 1)
        .filter(|w| !w.chars().all(|c| c.is_ascii_uppercase()))
        .filter(|w| !["cm", "mm"].contains(w))
        // A build stamp (six hex digits) that happens to have no decimal digit.
        .filter(|w| !(w.len() == 6 && w.chars().all(|c| matches!(c, 'a'..='f'))))
        .collect()
}

/// Every string value of a strings file, with its `{placeholders}` cut out.
fn strings(kit: &str, lang: &str) -> Vec<String> {
    let path = crate::support::kit_dir(kit).join("lang").join(format!("{lang}.toml"));
    let table: toml::Table = toml::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    let mut out = Vec::new();
    let mut stack: Vec<&toml::Value> = table.values().collect();
    while let Some(value) = stack.pop() {
        match value {
            toml::Value::String(s) => {
                out.push(without_placeholders(s));
                out.extend(plural_forms(s));
            }
            toml::Value::Table(t) => stack.extend(t.values()),
            toml::Value::Array(a) => stack.extend(a),
            _ => {}
        }
    }
    out
}

/// The forms of a text's plural choices (`{pages:one=# page|other=# pages}`): words
/// a sheet prints too.
fn plural_forms(text: &str) -> Vec<String> {
    text.split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}')?.0.split_once(':'))
        .flat_map(|(_, forms)| forms.split('|'))
        .filter_map(|form| form.split_once('=').map(|(_, words)| words.replace('#', " ")))
        // Arabic joins "and" (و) to the word after it, a counted noun included.
        .flat_map(|words| [format!("و{words}"), words])
        .collect()
}

/// The folder a `build --lang all` wrote one kit and language into.
fn build_dir(root: &Path, kit: &str, lang: &str) -> PathBuf {
    fs::read_dir(root.join(kit))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name().unwrap().to_str().unwrap().starts_with(&format!("{lang}-"))
        })
        .unwrap_or_else(|| panic!("no {lang} build of {kit}"))
}

fn pdfs_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pdf"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_word_a_reader_copies_from_a_kit_s_sheets_is_a_word_of_its_strings_file() {
    copied_words_are_strings(&["pathstone"], 120, 20);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn every_word_a_reader_copies_from_any_sheet_is_a_word_of_its_strings_file() {
    copied_words_are_strings(&games::ids(), 300, 80);
}

/// Every word of every sheet of `kits`, built in all their languages, is a word of
/// the strings file of its kit and language; and not vacuously: more than `words`
/// distinct words read back in each language, and `harakat` Arabic words with harakat.
fn copied_words_are_strings(kits: &[&str], at_least: usize, harakat_at_least: usize) {
    // Every kit in every language on A4: the build most tests read.
    let out = shared::every_language().dir();
    let mut checked: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    let mut strays = BTreeSet::new();
    for &kit in kits {
        for lang in games::kit(kit).languages.iter().map(String::as_str) {
            let mut vocabulary: BTreeSet<String> = strings(kit, lang)
                .iter()
                .flat_map(|s| words(s))
                .map(str::to_string)
                .collect();
            // The contents sheet quotes the command that makes the build again.
            let command = format!("tablekit build {kit} --lang {lang} --paper a4 --size");
            vocabulary.extend(words(&command).map(str::to_string));
            for pdf in pdfs_in(&build_dir(out, kit, lang)) {
                let bytes = fs::read(&pdf).unwrap();
                for (font, map) in pdf_probe::to_unicode_maps(&bytes) {
                    let bad = map.iter().find(|(_, t)| t.contains('\u{FFFD}'));
                    assert!(bad.is_none(), "{}: {font} maps {bad:?}", pdf.display());
                }
                let text = shared::probe(&pdf).text();
                let sheet = pdf.file_name().unwrap().to_str().unwrap().to_string();
                for word in sheet_words(&text) {
                    if vocabulary.contains(word) {
                        checked.entry(lang).or_default().insert(word.to_string());
                    } else {
                        strays.insert(format!("{kit} {lang} {sheet}: {word:?}"));
                    }
                }
            }
        }
    }
    assert!(strays.is_empty(), "words in no string of their language:\n{strays:#?}");
    // Not vacuous: each language's sheets give back hundreds of distinct words, and
    // Arabic dozens with harakat (the words a wrong glyph-to-text map garbles).
    for lang in games::languages() {
        let count = checked.get(lang).map_or(0, BTreeSet::len);
        assert!(count > at_least, "{lang}: only {count} words read back");
    }
    let harakat = checked["ar"].iter().filter(|w| w.chars().any(is_haraka)).count();
    assert!(
        harakat > harakat_at_least,
        "only {harakat} Arabic words with harakat read back"
    );
}

#[test]
fn arabic_words_with_harakat_copy_out_exactly() {
    // The ten words the translation review found garbled in every reader (a base
    // letter doubled into a shadda ligature, a tanween moved behind a lam-alef), and
    // a word with a final feh, which one file mapped to U+FFFD. They are printed here
    // through a copy of a kit whose rule-card goal holds them all.
    let review = [
        "مكمِّلة",
        "المعلَّمة",
        "وتُكدَّس",
        "صفٌّ",
        "شاملًا",
        "أولًا",
        "إجمالًا",
        "بدلًا",
        "كاملًا",
        "مثلًا",
        "فأضف",
    ];
    let tmp = tempfile::tempdir().unwrap();
    let kit = copy_of("three-men-slide", tmp.path());
    let ar = kit.join("lang/ar.toml");
    let table: toml::Table = toml::from_str(&fs::read_to_string(&ar).unwrap()).unwrap();
    let goal = table["rules"]["goal"].as_str().unwrap();
    let sentence = format!("{} {goal}", review.join(" "));
    edit(&ar, &format!("goal = \"{goal}\""), &format!("goal = \"{sentence}\""));
    let out = tmp.path().join("out");
    let run = tablekit(&[
        "build",
        kit.to_str().unwrap(),
        "--lang",
        "ar",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    let card = pdf_probe::load_file(&out.join("three-men-slide/ar-a4/rule-card.pdf"));
    let text = card.text();
    let read: BTreeSet<&str> = words(&text).collect();
    for word in review {
        assert!(read.contains(word), "{word:?} not read back in\n{text}");
    }
    assert!(card.pages[0].contains_text(&review.join(" ")), "in order:\n{text}");
}
