//! Strings files (`lang/<code>.toml`): every word a sheet prints, per language.
//!
//! Values may hold placeholders such as `{turn_limit}`, filled from facts that the
//! kit and the rules provide, so no printed number is typed into a translation.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use toml::{Table, Value};

use super::Source;
use crate::diag::{Diagnostic, Diagnostics};

/// The language every kit must have, and the fallback for missing keys.
pub const REFERENCE_LANGUAGE: &str = "en";

/// One language's strings.
#[derive(Clone, Debug)]
pub struct Strings {
    /// The language code (`en`, `fr`).
    pub lang: String,
    /// The file as shown in messages.
    pub file: String,
    /// The file's text.
    pub source: Arc<str>,
    /// Dotted key → text, sorted.
    pub entries: BTreeMap<String, String>,
    /// Keys the file lacks, filled from the game's own strings in this language.
    pub from_game: BTreeSet<String>,
    /// Keys whose text is the same as English on purpose (a name, a move), listed
    /// in the file's top-level `same_as_english`.
    pub same_on_purpose: BTreeSet<String>,
}

/// The top-level key of a translation that lists the keys left as in English on
/// purpose.
pub const SAME_AS_ENGLISH: &str = "same_as_english";

impl Strings {
    /// Parses one strings file.
    pub fn parse(lang: &str, file: &str, text: &str) -> Result<Strings, Diagnostics> {
        let source: Arc<str> = Arc::from(text);
        let mut table: Table = toml::from_str(text).map_err(|e| {
            let span = e.span().unwrap_or(0..0);
            vec![Diagnostic::at(
                file,
                &source,
                span,
                crate::diag::plain_toml_message(e.message()),
            )]
        })?;
        let mut entries = BTreeMap::new();
        let mut diags = Diagnostics::new();
        let same_on_purpose = same_as_english(table.remove(SAME_AS_ENGLISH), &mut |m| {
            diags.push(Diagnostic::at(file, &source, key_span(text, SAME_AS_ENGLISH), m));
        });
        flatten("", &table, &mut entries, &mut |key| {
            diags.push(Diagnostic::at(
                file,
                &source,
                key_span(text, key),
                format!("`{key}` must be text"),
            ));
        });
        for (key, value) in &entries {
            let length = value.chars().count();
            if length > MAX_STRING_CHARS {
                diags.push(Diagnostic::at(
                    file,
                    &source,
                    key_span(text, key),
                    format!(
                        "`{key}` is {length} characters long: a sheet string has at most \
                         {MAX_STRING_CHARS}"
                    ),
                ));
            }
            if let Some(c) = value.chars().find(|&c| unprintable(c)) {
                diags.push(Diagnostic::at(
                    file,
                    &source,
                    key_span(text, key),
                    format!(
                        "`{key}` holds U+{:04X}, a control or non-character that cannot be printed",
                        c as u32
                    ),
                ));
            }
        }
        if let Some(key) = same_on_purpose.iter().find(|k| !entries.contains_key(*k)) {
            diags.push(Diagnostic::at(
                file,
                &source,
                key_span(text, SAME_AS_ENGLISH),
                format!(
                    "`{SAME_AS_ENGLISH}` lists `{key}`, which this file does not hold"
                ),
            ));
        }
        if !diags.is_empty() {
            return Err(diags);
        }
        Ok(Strings {
            lang: lang.to_string(),
            file: file.to_string(),
            source,
            entries,
            from_game: BTreeSet::new(),
            same_on_purpose,
        })
    }

    /// How much of `reference` this language really translates: of English's keys
    /// with words to translate (not "{label}: {value}"), those it holds with a text
    /// that differs from English, or is the same on purpose. Returns (translated,
    /// total).
    pub fn translated(&self, reference: &Strings) -> (usize, usize) {
        let wordy: Vec<_> =
            reference.entries.iter().filter(|(_, english)| has_words(english)).collect();
        let done = wordy
            .iter()
            .filter(|(key, english)| match self.entries.get(*key) {
                None => false,
                Some(text) => {
                    text != *english
                        || self.same_on_purpose.contains(*key)
                        || !has_words(text)
                }
            })
            .count();
        (done, wordy.len())
    }

    /// Keys held with English's very text, neither marked the same on purpose nor
    /// free of words.
    pub fn copied_from(&self, reference: &Strings) -> Vec<&str> {
        self.entries
            .iter()
            .filter(|(key, text)| {
                reference.entries.get(*key) == Some(*text)
                    && !self.same_on_purpose.contains(*key)
                    && has_words(text)
            })
            .map(|(key, _)| key.as_str())
            .collect()
    }

    /// A diagnostic pointing at a key of this file (or at the file, if the key is
    /// not in it).
    pub fn diagnostic(&self, key: &str, message: String) -> Diagnostic {
        let mut diagnostic = Diagnostic::at(
            &self.file,
            &self.source,
            key_span(&self.source, key),
            message,
        );
        diagnostic.key = Some(key.to_string());
        diagnostic
    }

    /// The strings with every placeholder filled from `facts`, as nested tables for
    /// templates. Keys this language lacks are taken from `fallback`, and listed in
    /// the second value. An unknown placeholder is an error naming file and key.
    pub fn resolve(
        &self,
        fallback: &Strings,
        facts: &BTreeMap<String, String>,
        keep: &dyn Fn(&str) -> bool,
    ) -> Result<(Table, Vec<String>), Diagnostics> {
        let mut table = Table::new();
        let mut fell_back = Vec::new();
        let mut diags = Diagnostics::new();
        for (key, reference) in fallback.entries.iter().filter(|(key, _)| keep(key)) {
            let (owner, text) = match self.entries.get(key) {
                Some(text) => (self, text),
                None => {
                    fell_back.push(key.clone());
                    (fallback, reference)
                }
            };
            match fill(text, facts, filled_later(key), &owner.lang) {
                Ok(filled) => insert_dotted(&mut table, key, bind_units(&filled)),
                Err(name) => diags.push(owner.diagnostic(
                    key,
                    format!("unknown placeholder `{{{name}}}` in `{key}`"),
                )),
            }
        }
        if diags.is_empty() { Ok((table, fell_back)) } else { Err(diags) }
    }
}

/// Where a language's typography puts a space that must not break, each place a
/// plain space stands instead, at its key: in French before `:` `;` `?` `!` `»` and
/// after `«`; in every language between a number and `%`. (The line breaker would
/// otherwise leave a colon or a `%` alone at the start of a line.) In right-to-left
/// languages, a direction sign standing apart from a move, too.
pub fn typography(strings: &Strings) -> Diagnostics {
    let french = language_of(&strings.lang) == "fr";
    let right_to_left = is_right_to_left(&strings.lang);
    let mut problems = Diagnostics::new();
    for (key, text) in
        strings.entries.iter().filter(|(key, _)| !strings.from_game.contains(*key))
    {
        if let Some(sign) = right_to_left.then(|| bare_direction_sign(text)).flatten() {
            problems.push(strings.diagnostic(
                key,
                format!(
                    "a bare `{sign}` in `{key}`: in right-to-left text a direction sign \
                     standing apart from a move is mirrored wherever the text is copied \
                     out of the sheet; write it inside a move, such as 2a1{sign}11"
                ),
            ));
        }
        let chars: Vec<char> = text.chars().collect();
        let bad = chars.windows(2).enumerate().find_map(|(i, pair)| {
            let before_mark = french && pair[0] == ' ' && ":;?!»".contains(pair[1]);
            let after_quote = french && pair[0] == '«' && pair[1] == ' ';
            let percent = pair[0] == ' '
                && pair[1] == '%'
                && i > 0
                && chars[i - 1].is_ascii_digit();
            (before_mark || after_quote || percent).then(|| match pair[1] {
                ' ' => "«".to_string(),
                mark => mark.to_string(),
            })
        });
        if let Some(mark) = bad {
            let rule = if mark == "%" { "a number and %" } else { "French punctuation" };
            problems.push(strings.diagnostic(
                key,
                format!(
                    "a plain space beside `{mark}` in `{key}`: {rule} takes a no-break \
                     space (U+00A0), so that the line never breaks there"
                ),
            ));
        }
    }
    problems
}

/// The first `<` or `>` of `text` with no letter or digit touching it: a key to the
/// notation written as bare signs rather than as moves.
fn bare_direction_sign(text: &str) -> Option<char> {
    let chars: Vec<char> = text.chars().collect();
    let notation = |i: Option<usize>| {
        i.and_then(|i| chars.get(i)).is_some_and(|c| c.is_ascii_alphanumeric())
    };
    (0..chars.len()).find_map(|i| {
        let sign = chars[i];
        let bare = matches!(sign, '<' | '>')
            && !notation(i.checked_sub(1))
            && !notation(Some(i + 1));
        bare.then_some(sign)
    })
}

/// The keys listed in `same_as_english`, if any; anything but a list of texts is a
/// problem told to `problem`.
fn same_as_english(
    value: Option<Value>,
    problem: &mut dyn FnMut(String),
) -> BTreeSet<String> {
    let Some(value) = value else { return BTreeSet::new() };
    let keys = value.as_array().and_then(|items| {
        items.iter().map(|item| item.as_str().map(str::to_string)).collect::<Option<_>>()
    });
    keys.unwrap_or_else(|| {
        problem(format!(
            "`{SAME_AS_ENGLISH}` must be a list of keys, such as [\"ledger.date\"]"
        ));
        BTreeSet::new()
    })
}

/// Whether a text has anything to translate: a letter outside its placeholders.
fn has_words(text: &str) -> bool {
    let mut depth = 0;
    text.chars().any(|c| {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => return depth == 0 && c.is_alphabetic(),
        }
        false
    })
}

/// A JSON Schema of a strings file whose keys are `reference`'s: each a text,
/// described by its English, and nothing else (an unknown key is a mistake).
pub fn schema(reference: &Strings) -> serde_json::Value {
    use serde_json::{Map, Value as Json, json};
    fn table() -> Map<String, Json> {
        let mut map = Map::new();
        map.insert("type".into(), json!("object"));
        map.insert("additionalProperties".into(), json!(false));
        map.insert("properties".into(), json!({}));
        map
    }
    let mut root = table();
    root["properties"][SAME_AS_ENGLISH] = json!({
        "type": "array",
        "items": { "type": "string" },
        "description": "Keys whose text is the same as English on purpose (a name, a move)"
    });
    for (key, english) in &reference.entries {
        let mut at = &mut root;
        let parts: Vec<&str> = key.split('.').collect();
        for part in &parts[..parts.len() - 1] {
            let properties = at["properties"].as_object_mut().expect("a table");
            let next = properties.entry(*part).or_insert_with(|| Json::Object(table()));
            at = next.as_object_mut().expect("a table");
        }
        at["properties"][parts[parts.len() - 1]] =
            json!({ "type": "string", "description": english });
    }
    Json::Object(root)
}

/// The longest string a sheet prints: a long paragraph, far short of a runaway file.
pub const MAX_STRING_CHARS: usize = 3000;

/// A character no sheet can print: controls (a line break is allowed: it breaks the
/// line), and Unicode non-characters.
fn unprintable(c: char) -> bool {
    let code = c as u32;
    let nonchar = (0xFDD0..=0xFDEF).contains(&code) || code & 0xFFFE == 0xFFFE;
    (c.is_control() && c != '\n') || nonchar
}

/// Loads every `lang/*.toml` of a kit; the English file must be there. How complete
/// each translation is, is [`compare`]'s business.
pub fn load_all(source: &Source) -> (BTreeMap<String, Strings>, Diagnostics) {
    use rayon::prelude::*;
    let files: Vec<_> = source
        .files
        .iter()
        .filter_map(|(path, text)| {
            let lang = path.strip_prefix("lang/")?.strip_suffix(".toml")?;
            Some((lang, path, text))
        })
        .collect();
    // Parsed side by side: reading a kit's six languages is most of loading it, and
    // every build waits for it. The results are taken in file order, as before.
    let parsed: Vec<_> = files
        .par_iter()
        .map(|&(lang, path, text)| {
            (lang, Strings::parse(lang, &source.display_path(path), text))
        })
        .collect();
    let mut languages = BTreeMap::new();
    let mut diags = Diagnostics::new();
    for (lang, result) in parsed {
        match result {
            Ok(strings) => {
                languages.insert(lang.to_string(), strings);
            }
            Err(errors) => diags.extend(errors),
        }
    }
    if diags.is_empty() && !languages.contains_key(REFERENCE_LANGUAGE) {
        let file = source.display_path(&format!("lang/{REFERENCE_LANGUAGE}.toml"));
        diags.push(Diagnostic::file(&file, "every kit needs English strings"));
    }
    (languages, diags)
}

/// What a translation got wrong against the reference: missing and unknown keys,
/// dropped or misspelt placeholders.
pub fn compare(reference: &Strings, translation: &Strings) -> Diagnostics {
    let mut diags = Diagnostics::new();
    for key in reference.entries.keys().filter(|k| !translation.entries.contains_key(*k))
    {
        diags.push(Diagnostic::file(
            &translation.file,
            format!("missing key `{key}` (present in {})", reference.file),
        ));
    }
    for (key, text) in &translation.entries {
        let Some(expected) = reference.entries.get(key) else {
            diags.push(translation.diagnostic(
                key,
                format!("unknown key `{key}` (not in {})", reference.file),
            ));
            continue;
        };
        let (want, got) = (placeholders(expected), placeholders(text));
        if want != got {
            diags.push(
                translation
                    .diagnostic(
                        key,
                        format!("placeholders in `{key}` differ from English"),
                    )
                    .with_note(format!(
                        "expected {}, found {}",
                        braces(&want),
                        braces(&got)
                    )),
            );
        }
    }
    diags
}

fn braces(names: &[String]) -> String {
    if names.is_empty() {
        return "none".to_string();
    }
    names.iter().map(|n| format!("{{{n}}}")).collect::<Vec<_>>().join(" ")
}

/// The placeholder names in a text, sorted and without repeats.
pub fn placeholders(text: &str) -> Vec<String> {
    // A plural choice `{count:one=…|other=…}` quotes `count`; its forms differ by
    // language, so only the name is compared.
    let mut names: Vec<String> = text
        .split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}').map(|(name, _)| name.to_string()))
        .map(|name| {
            name.split_once(':').map_or(name.clone(), |(count, _)| count.to_string())
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Fills `{name}` placeholders; the error is the first unknown name.
/// Placeholders that only some keys may hold, filled per page or per part of a split
/// board when the page is drawn; anywhere else they are unknown.
const FILLED_LATER: &[(&str, &[&str])] = &[
    ("puzzles.in_hand", &["w_stones", "b_stones"]),
    ("puzzles.why_road", &["road"]),
    ("puzzles.why_line", &["cells"]),
    ("puzzles.why_count", &["w_flats", "b_flats"]),
    ("puzzles.in_hand_crowns", &["w_stones", "b_stones", "w_crowns", "b_crowns"]),
    ("common.page_label", &["page", "pages"]),
    // A diagram's alternative text, filled by its game as it draws.
    ("alt.position", &["squares"]),
    ("alt.square", &["square", "pieces"]),
    ("alt.stack", &["pieces"]),
    ("alt.wall", &["piece"]),
    ("alt.crown", &["piece"]),
    ("alt.player", &["piece", "squares"]),
    ("common.part_label", &["part", "parts", "row", "column"]),
    ("common.assembly_note", &["parts"]),
    ("common.corrected", &["across", "down"]),
    ("common.assembly_steps", &["parts"]),
    ("contents.stamp_note", &["stamp"]),
    ("host.stamp", &["stamp"]),
    ("puzzles.set", &["puzzle_set"]),
    ("puzzles.answers_set", &["puzzle_set"]),
    // A class build's numbers, known once every sheet is laid out.
    ("contents.class_summary", &["players", "tables", "games"]),
    ("contents.class_copies", &["copies"]),
    ("contents.class_paper", &["sheets"]),
    ("contents.class_cuts", &["cuts"]),
    ("contents.class_time", &["minutes", "class_minutes", "helper_minutes"]),
    ("contents.pages", &["pages"]),
    ("contents.class_card", &["card_sheets"]),
    ("contents.field", &["label", "value"]),
    ("contents.file_entry", &["file", "pages", "what", "copies"]),
    ("contents.lost_reprint", &["command"]),
    ("contents.storing", &["stamp"]),
    ("contents.storing_crownless", &["stamp"]),
    ("contents.paper_custom_mm", &["paper_width", "paper_height"]),
    ("contents.paper_custom_in", &["paper_width", "paper_height"]),
    ("contents.paper_landscape", &["paper"]),
];

/// The placeholders `key` may keep as they are, for the page to fill.
fn filled_later(key: &str) -> &'static [&'static str] {
    FILLED_LATER.iter().find(|(k, _)| *k == key).map_or(&[], |(_, names)| names)
}

fn fill(
    text: &str,
    facts: &BTreeMap<String, String>,
    later: &[&str],
    lang: &str,
) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            return Err(after.to_string());
        };
        let name = &after[..close];
        let base = name.split(':').next().unwrap_or(name);
        // Kept for later unless the facts already have it (a second, fuller pass).
        if later.contains(&base) && !facts.contains_key(base) {
            out.push_str(&rest[open..open + close + 2]);
        } else if let Some((count, forms)) = name.split_once(':') {
            let value = facts.get(count).ok_or_else(|| count.to_string())?;
            out.push_str(&plural(value, forms, lang).ok_or_else(|| name.to_string())?);
        } else {
            out.push_str(facts.get(name).ok_or_else(|| name.to_string())?);
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The form of `{count:one=# Crown|other=# Crowns}` that `count` calls for under the
/// language's CLDR plural rules (`zero`, `one`, `two`, `few`, `many`, `other`; `other`
/// is required and serves any category not given); `#` stands for the number. `None`
/// if the forms are malformed or `count` is not a number.
fn plural(count: &str, forms: &str, lang: &str) -> Option<String> {
    use intl_pluralrules::{PluralCategory, PluralRuleType, PluralRules};
    let number: f64 = count.replace(',', ".").parse().ok()?;
    let forms: Vec<(&str, &str)> =
        forms.split('|').map(|form| form.split_once('=')).collect::<Option<_>>()?;
    let known = ["zero", "one", "two", "few", "many", "other"];
    if forms.iter().any(|(category, _)| !known.contains(category)) {
        return None;
    }
    let language = language_of(lang);
    let category = language
        .parse::<unic_langid::LanguageIdentifier>()
        .ok()
        .and_then(|id| PluralRules::create(id, PluralRuleType::CARDINAL).ok())
        .and_then(|rules| rules.select(number).ok())
        .map_or("other", |category| match category {
            PluralCategory::ZERO => "zero",
            PluralCategory::ONE => "one",
            PluralCategory::TWO => "two",
            PluralCategory::FEW => "few",
            PluralCategory::MANY => "many",
            PluralCategory::OTHER => "other",
        });
    let pick = |wanted: &str| forms.iter().find(|(c, _)| *c == wanted).map(|(_, t)| *t);
    let form = pick(category).or_else(|| pick("other"))?;
    Some(form.replace('#', count))
}

/// Languages whose sheets read right to left, so every paragraph is set that way
/// even when it starts with a move or a coordinate.
/// Decided by the language alone, whatever region or script follows it in the tag.
pub const RIGHT_TO_LEFT_LANGUAGES: &[&str] =
    &["ar", "ckb", "dv", "fa", "he", "ps", "sd", "ug", "ur", "yi"];

/// Whether a language tag's sheets read right to left (`ar`, `ar-EG`).
pub fn is_right_to_left(lang: &str) -> bool {
    let language = language_of(lang);
    RIGHT_TO_LEFT_LANGUAGES.contains(&language.as_str())
}

/// The language of a BCP 47 tag (`ar` of `ar-EG`, `fr` of `fr_CA`), lowercased: what
/// direction, decimal commas and plural rules are decided by.
pub fn language_of(tag: &str) -> String {
    tag.split(['-', '_']).next().unwrap_or(tag).to_ascii_lowercase()
}

/// A number and its unit (`45 mm`) never part at a line break: the space between them
/// becomes a no-break space.
fn bind_units(text: &str) -> String {
    const UNITS: [&str; 4] = ["mm", "cm", "in", "مم"];
    let mut out = String::with_capacity(text.len());
    let mut last = None;
    for (i, c) in text.char_indices() {
        let after_digit = last.is_some_and(|d: char| d.is_ascii_digit());
        // Only a space (one byte) is looked past, so `i + 1` is a character boundary.
        let unit_follows = || {
            UNITS.iter().any(|u| {
                text[i + 1..].starts_with(u)
                    && !text[i + 1 + u.len()..].starts_with(|n: char| n.is_alphanumeric())
            })
        };
        if c == ' ' && after_digit && unit_follows() {
            out.push('\u{00A0}');
        } else {
            out.push(c);
        }
        last = Some(c);
    }
    out
}

fn flatten(
    prefix: &str,
    table: &Table,
    out: &mut BTreeMap<String, String>,
    not_text: &mut dyn FnMut(&str),
) {
    for (key, value) in table {
        let full =
            if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
        match value {
            Value::String(text) => {
                out.insert(full, text.clone());
            }
            Value::Table(inner) => flatten(&full, inner, out, not_text),
            _ => not_text(&full),
        }
    }
}

fn insert_dotted(table: &mut Table, key: &str, value: String) {
    match key.split_once('.') {
        None => {
            table.insert(key.to_string(), Value::String(value));
        }
        Some((head, tail)) => {
            let inner = table
                .entry(head.to_string())
                .or_insert_with(|| Value::Table(Table::new()));
            if let Value::Table(inner) = inner {
                insert_dotted(inner, tail, value);
            }
        }
    }
}

/// Where `a.b.c = …` is written: the line `c = …` after the header `[a.b]`, or the
/// start of the file if it cannot be found.
fn key_span(source: &str, dotted: &str) -> std::ops::Range<usize> {
    let (section, leaf) = dotted.rsplit_once('.').unwrap_or(("", dotted));
    let mut in_section = section.is_empty();
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            in_section = trimmed.trim_matches(|c| c == '[' || c == ']').trim() == section;
        } else if in_section
            && let Some((name, _)) = trimmed.split_once('=')
            && name.trim().trim_matches('"') == leaf
        {
            let start = offset + (line.len() - line.trim_start().len());
            return start..start + name.trim_end().len();
        }
        offset += line.len();
    }
    0..0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_direction_sign_is_bare_only_with_no_letter_or_digit_beside_it() {
        for inside in ["2a1>11 لليمين", "2a3> ينقل", "b3< ", "(c2+)", "{carry.moves}"]
        {
            assert_eq!(bare_direction_sign(inside), None, "{inside}");
        }
        assert_eq!(bare_direction_sign("(> يمين، < يسار)"), Some('>'));
        assert_eq!(bare_direction_sign("يمين <"), Some('<'));
    }

    fn strings(lang: &str, src: &str) -> Strings {
        Strings::parse(lang, &format!("lang/{lang}.toml"), src).unwrap()
    }

    #[test]
    fn plural_forms_follow_each_language_s_rules() {
        let facts = |n: &str| BTreeMap::from([("crowns".to_string(), n.to_string())]);
        let en = "{crowns:one=# Crown|other=# Crowns}";
        assert_eq!(fill(en, &facts("1"), &[], "en").unwrap(), "1 Crown");
        assert_eq!(fill(en, &facts("0"), &[], "en").unwrap(), "0 Crowns");
        assert_eq!(fill(en, &facts("2"), &[], "en").unwrap(), "2 Crowns");
        // French counts 0 as singular; Arabic has six forms, `other` serves the rest.
        let fr = "{crowns:one=# Couronne|other=# Couronnes}";
        assert_eq!(fill(fr, &facts("0"), &[], "fr").unwrap(), "0 Couronne");
        let ar = "{crowns:zero=لا تيجان|one=تاج واحد|two=تاجان|few=# تيجان|other=# تاجًا}";
        assert_eq!(fill(ar, &facts("0"), &[], "ar").unwrap(), "لا تيجان");
        assert_eq!(fill(ar, &facts("2"), &[], "ar").unwrap(), "تاجان");
        assert_eq!(fill(ar, &facts("5"), &[], "ar").unwrap(), "5 تيجان");
        assert_eq!(fill(ar, &facts("11"), &[], "ar").unwrap(), "11 تاجًا");
        // Placeholders compare by name across languages, forms apart.
        assert_eq!(placeholders(en), placeholders(ar));
        assert!(fill("{crowns:one=x}", &facts("3"), &[], "en").is_err(), "no `other`");
        assert!(fill("{crowns:lots=x|other=y}", &facts("3"), &[], "en").is_err());
    }

    #[test]
    fn placeholders_are_found_and_filled() {
        assert_eq!(
            placeholders("draw after {turn_limit} turns, {n} {n}"),
            ["n", "turn_limit"]
        );
        let facts = BTreeMap::from([("turn_limit".to_string(), "40".to_string())]);
        assert_eq!(
            fill("after {turn_limit} turns", &facts, &[], "en").unwrap(),
            "after 40 turns"
        );
        assert_eq!(fill("after {turns} turns", &facts, &[], "en").unwrap_err(), "turns");
    }

    #[test]
    fn a_number_keeps_its_unit() {
        assert_eq!(
            bind_units("cells of 45 mm and 3 in, 2 mmm"),
            "cells of 45\u{a0}mm and 3\u{a0}in, 2 mmm"
        );
    }

    #[test]
    fn a_translation_is_checked_key_by_key() {
        let en = strings("en", "[log]\ntitle = \"Log\"\nnote = \"after {turn_limit}\"\n");
        let fr = strings("fr", "[log]\nnote = \"après {turn_limt}\"\nextra = \"x\"\n");
        let found: Vec<String> =
            compare(&en, &fr).iter().map(|d| d.to_string()).collect();
        assert_eq!(found.len(), 3, "{found:#?}");
        assert!(found[0].contains("missing key `log.title`"));
        assert!(
            found[1].contains("lang/fr.toml:3:1: unknown key `log.extra`"),
            "{}",
            found[1]
        );
        assert!(found[2].contains("lang/fr.toml:2:1: placeholders in `log.note`"));
    }

    #[test]
    fn resolve_falls_back_to_the_reference_and_names_it() {
        let en = strings("en", "a = \"one\"\nb = \"{n} more\"\n");
        let fr = strings("fr", "a = \"un\"\n");
        let facts = BTreeMap::from([("n".to_string(), "3".to_string())]);
        let (table, fell_back) = fr.resolve(&en, &facts, &|_| true).unwrap();
        assert_eq!(table["a"].as_str(), Some("un"));
        assert_eq!(table["b"].as_str(), Some("3 more"));
        assert_eq!(fell_back, ["b"]);
    }

    /// The messages of a strings file that does not parse.
    fn refused(src: &str) -> Vec<String> {
        let diags = Strings::parse("en", "lang/en.toml", src).unwrap_err();
        diags.iter().map(|d| d.to_string()).collect()
    }

    #[test]
    fn controls_and_non_characters_are_unprintable() {
        // Controls, C0 and C1 (tab too: a sheet has no tab stops), and the Unicode
        // non-characters: U+FDD0..U+FDEF and the last two code points of every plane.
        let refused = [
            '\u{0}',
            '\u{7}',
            '\t',
            '\r',
            '\u{1f}',
            '\u{7f}',
            '\u{80}',
            '\u{9f}',
            '\u{fdd0}',
            '\u{fde0}',
            '\u{fdef}',
            '\u{fffe}',
            '\u{ffff}',
            '\u{1fffe}',
            '\u{1ffff}',
            '\u{10fffe}',
            '\u{10ffff}',
        ];
        for c in refused {
            assert!(unprintable(c), "U+{:04X} must be refused", c as u32);
        }
        // A line break, and the neighbours of each refused range, are printable.
        let printed = [
            '\n',
            ' ',
            'a',
            'é',
            '\u{a0}',
            '\u{fdcf}',
            '\u{fdf0}',
            '\u{fffd}',
            '\u{fffc}',
            '\u{1fffd}',
            '\u{20000}',
            '\u{10fffd}',
            '\u{1f600}',
        ];
        for c in printed {
            assert!(!unprintable(c), "U+{:04X} must be printed", c as u32);
        }
    }

    #[test]
    fn a_string_with_an_unprintable_character_is_refused_at_its_key() {
        let found = refused("ok = \"fine\"\n[log]\nbell = \"ding\\u0007\"\n");
        assert_eq!(found.len(), 1, "{found:#?}");
        assert_eq!(
            found[0],
            "lang/en.toml:3:1: `log.bell` holds U+0007, a control or non-character \
             that cannot be printed"
        );
        let found = refused("odd = \"\u{fdd0}\"\n");
        assert!(found[0].contains("holds U+FDD0"), "{found:#?}");
        // A line break is text, and so is every other character.
        let text = "a = \"two\\nlines, 45\u{a0}mm, \u{fffd}\"\n";
        assert!(Strings::parse("en", "lang/en.toml", text).is_ok());
    }

    #[test]
    fn a_string_may_be_3000_characters_long_and_no_longer() {
        // Counted in characters, not bytes: `é` is two bytes.
        let at_most = "é".repeat(MAX_STRING_CHARS);
        let ok = Strings::parse("en", "lang/en.toml", &format!("a = \"{at_most}\"\n"));
        assert_eq!(ok.unwrap().entries["a"].chars().count(), 3000);
        let found = refused(&format!("ok = \"x\"\nlong = \"{at_most}x\"\n"));
        assert_eq!(
            found,
            ["lang/en.toml:2:1: `long` is 3001 characters long: a sheet string has \
              at most 3000"]
        );
    }

    #[test]
    fn only_the_listed_keys_keep_placeholders_for_the_page() {
        assert_eq!(filled_later("common.page_label"), ["page", "pages"]);
        assert_eq!(filled_later("alt.square"), ["square", "pieces"]);
        assert!(filled_later("common.title").is_empty());
        assert!(filled_later("").is_empty());
        // A placeholder kept for later stays exactly as written, plural forms and
        // all, with the text around it filled.
        let facts = BTreeMap::from([("n".to_string(), "4".to_string())]);
        let later = ["page", "pages"];
        let text = "{n}: page {page} of {pages:one=# page|other=# pages}, {n}.";
        assert_eq!(
            fill(text, &facts, &later, "en").unwrap(),
            "4: page {page} of {pages:one=# page|other=# pages}, 4."
        );
        // Once the facts hold it (the second pass), it is filled.
        let facts = BTreeMap::from([
            ("n".to_string(), "4".to_string()),
            ("page".to_string(), "2".to_string()),
            ("pages".to_string(), "1".to_string()),
        ]);
        assert_eq!(fill(text, &facts, &later, "en").unwrap(), "4: page 2 of 1 page, 4.");
    }

    #[test]
    fn resolve_keeps_a_page_s_placeholders_only_where_they_belong() {
        let en = strings(
            "en",
            "[common]\npage_label = \"Page {page} of {pages}\"\ntitle = \"{page}\"\n",
        );
        let found: Vec<String> = en
            .resolve(&en, &BTreeMap::new(), &|_| true)
            .unwrap_err()
            .iter()
            .map(|d| d.to_string())
            .collect();
        assert_eq!(
            found,
            ["lang/en.toml:3:1: unknown placeholder `{page}` in `common.title`"]
        );
        let (table, _) =
            en.resolve(&en, &BTreeMap::new(), &|k| k != "common.title").unwrap();
        assert_eq!(
            table["common"]["page_label"].as_str(),
            Some("Page {page} of {pages}")
        );
    }

    /// Of English's keys with words, a translation counts those it holds with other
    /// text, the same text marked the same on purpose, or text with no words; a key
    /// that only fills placeholders (`{label}: {value}`) is not counted at all.
    #[test]
    fn a_translation_counts_only_keys_with_words_it_really_translates() {
        let en = strings(
            "en",
            "[a]\none = \"Board\"\ntwo = \"Ledger\"\nthree = \"Stones\"\n\
             four = \"Time\"\nfill = \"{label}: {value}\"\n",
        );
        let fr = strings(
            "fr",
            "same_as_english = [\"a.three\"]\n[a]\none = \"Plateau\"\n\
             two = \"Ledger\"\nthree = \"Stones\"\nfill = \"{label} : {value}\"\n",
        );
        // `one` differs, `three` is the same on purpose, `two` is copied and `four`
        // missing: 2 of the 4 keys with words.
        assert_eq!(fr.translated(&en), (2, 4));
        assert_eq!(fr.copied_from(&en), vec!["a.two"]);
        assert_eq!(en.translated(&en), (0, 4), "English copies itself");
        assert_eq!(strings("de", "").translated(&en), (0, 4));
    }

    #[test]
    fn words_are_letters_outside_placeholders() {
        assert!(has_words("Board"));
        assert!(has_words("{n} stones"));
        assert!(has_words("{a}{b} x"));
        assert!(!has_words("{label}: {value}"));
        assert!(!has_words("{a} {b} – 12"));
        assert!(!has_words(""));
    }

    /// French takes a no-break space before `:;?!»` and after `«`, every language
    /// between a number and `%`; a space elsewhere, or before `%` after a word, is
    /// fine.
    #[test]
    fn typography_finds_a_plain_space_where_a_no_break_space_belongs() {
        let told = |lang: &str, text: &str| {
            let src = format!("[a]\nb = \"{text}\"\n");
            typography(&strings(lang, &src)).len()
        };
        for bad in ["Tour : 3", "Qui ?", "« Tour", "Tour »", "50 %"] {
            assert_eq!(told("fr", bad), 1, "{bad}");
        }
        for good in ["Tour\u{a0}: 3", "«\u{a0}Tour\u{a0}»", "50\u{a0}%", "le %"] {
            assert_eq!(told("fr", good), 0, "{good}");
        }
        assert_eq!(told("en", "Turn : 3"), 0, "only French spaces its colons");
        assert_eq!(told("en", "50 %"), 1);
        assert_eq!(told("en", " %"), 0, "no number before the space");
        let rule = |lang: &str, text: &str| {
            let src = format!("[a]\nb = \"{text}\"\n");
            typography(&strings(lang, &src))[0].to_string()
        };
        assert!(rule("fr", "50 %").contains("a number and %"));
        assert!(rule("fr", "Qui ?").contains("French punctuation"));
    }

    #[test]
    fn same_as_english_is_a_list_of_keys_or_a_problem() {
        let listed = strings(
            "fr",
            "same_as_english = [\"a.b\", \"a.c\"]\n[a]\nb = \"x\"\nc = \"y\"\n",
        );
        assert_eq!(
            listed.same_on_purpose,
            BTreeSet::from(["a.b".to_string(), "a.c".to_string()])
        );
        let error =
            Strings::parse("fr", "lang/fr.toml", "same_as_english = 3\n").unwrap_err();
        assert!(error[0].to_string().contains("must be a list of keys"), "{}", error[0]);
    }

    /// The schema nests each dotted key as tables down to a string described by its
    /// English: `a.b.c` is properties a → b → c.
    #[test]
    fn the_schema_nests_dotted_keys_down_to_their_english() {
        let en = strings("en", "[a.b]\nc = \"Board\"\n[top]\nd = \"Ledger\"\n");
        let schema = schema(&en);
        let c = &schema["properties"]["a"]["properties"]["b"]["properties"]["c"];
        assert_eq!(c["description"], "Board");
        assert_eq!(c["type"], "string");
        assert_eq!(
            schema["properties"]["top"]["properties"]["d"]["description"],
            "Ledger"
        );
        assert_eq!(schema["properties"]["a"]["additionalProperties"], false);
    }
}
