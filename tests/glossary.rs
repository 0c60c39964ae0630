//! The glossary (`kits/glossary/<lang>.toml`): each game term has one translation
//! per language, and every kit's strings use it. Where an English string of a kit
//! uses a term, the same key in every translation uses that language's term (one of
//! its listed forms: plurals, cases, the article or a clitic glued on).

use crate::support::games;
use crate::support::without_placeholders;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("kits")
}

fn toml_file(path: &Path) -> toml::Table {
    let text = fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The English glossary's `not_game_terms`: phrases where a term's word means
/// something else ("lay this sheet flat").
const NOT_TERMS: &str = "not_game_terms";

/// A language's glossary: term → its accepted forms (the first is the headword).
fn glossary(lang: &str) -> BTreeMap<String, Vec<String>> {
    let path = root().join("glossary").join(format!("{lang}.toml"));
    toml_file(&path)
        .into_iter()
        .filter(|(term, _)| term != NOT_TERMS)
        .map(|(term, forms)| {
            let forms: Vec<String> = forms
                .as_array()
                .unwrap_or_else(|| panic!("{lang}.toml: `{term}` is not a list of forms"))
                .iter()
                .map(|f| folded(f.as_str().expect("a form is a string")))
                .collect();
            assert!(!forms.is_empty(), "{lang}.toml: `{term}` has no form");
            (term, forms)
        })
        .collect()
}

fn not_game_terms() -> Vec<String> {
    let en = toml_file(&root().join("glossary").join("en.toml"));
    let phrases = en[NOT_TERMS].as_array().expect("a list of phrases");
    phrases.iter().map(|p| p.as_str().unwrap().to_lowercase()).collect()
}

/// Every string of a kit's strings file by its dotted key, folded, with its
/// `{placeholders}` cut out (`{carry_limit}` is no use of "carry"). Game titles
/// are left out: they are names, listed in GLOSSARY.md, not sentences.
fn strings(kit: &str, lang: &str) -> BTreeMap<String, String> {
    let table = toml_file(
        &crate::support::kit_dir(kit).join("lang").join(format!("{lang}.toml")),
    );
    let mut out = BTreeMap::new();
    for (name, value) in &table {
        if let Some(section) = value.as_table() {
            for (key, v) in section {
                let Some(s) = v.as_str() else { continue };
                if (name.as_str(), key.as_str()) != ("common", "game_title") {
                    out.insert(format!("{name}.{key}"), folded(&without_placeholders(s)));
                }
            }
        }
    }
    out
}

/// Lowercased and without Arabic harakat, which a translator writes on some words
/// and not others (`يُنزل`, `ينزل`).
fn folded(s: &str) -> String {
    let haraka = |c: char| ('\u{064B}'..='\u{0652}').contains(&c) || c == '\u{0670}';
    s.to_lowercase().chars().filter(|&c| !haraka(c)).collect()
}

/// `form` occurs in `text` as a whole word (English: no letter either side).
fn has_word(text: &str, form: &str) -> bool {
    text.match_indices(form).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + form.len()..].chars().next();
        !before.is_some_and(char::is_alphabetic)
            && !after.is_some_and(char::is_alphabetic)
    })
}

#[test]
fn every_language_has_a_form_for_every_term_of_the_english_glossary() {
    let english = glossary("en");
    assert!(english.len() >= 12, "the glossary holds the game's terms");
    for lang in games::languages() {
        let terms = glossary(lang);
        let missing: Vec<&String> =
            english.keys().filter(|t| !terms.contains_key(*t)).collect();
        let extra: Vec<&String> =
            terms.keys().filter(|t| !english.contains_key(*t)).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{lang}: {missing:?} / {extra:?}"
        );
    }
}

#[test]
fn every_kit_translates_each_game_term_with_its_glossary_term() {
    let english = glossary("en");
    let not_terms = not_game_terms();
    let mut uses = 0;
    let mut faults = Vec::new();
    for kit in games::kits() {
        for lang in kit.languages.iter().filter(|l| *l != "en") {
            let terms = glossary(lang);
            let kit = kit.id.as_str();
            let source = strings(kit, "en");
            let translated = strings(kit, lang);
            for (key, text) in &source {
                let text = not_terms.iter().fold(text.clone(), |t, p| t.replace(p, " "));
                for (term, en_forms) in &english {
                    if !en_forms.iter().any(|f| has_word(&text, f)) {
                        continue;
                    }
                    uses += 1;
                    let forms = &terms[term];
                    let theirs = translated.get(key).map(String::as_str).unwrap_or("");
                    if !forms.iter().any(|f| theirs.contains(f.as_str())) {
                        faults.push(format!(
                            "{kit} {lang} `{key}`: \"{term}\" but none of {forms:?} in {theirs:?}"
                        ));
                    }
                }
            }
        }
    }
    assert!(faults.is_empty(), "{} faults:\n{}", faults.len(), faults.join("\n"));
    // Not vacuous: the terms are used hundreds of times across the kits.
    assert!(uses > 300, "only {uses} uses of glossary terms checked");
}
