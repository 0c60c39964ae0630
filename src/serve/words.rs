//! The web page's own words (`kits/web/<lang>.toml`), checked against English the
//! way a kit's translations are: a key a language lacks is taken from English and
//! reported when the server starts.

use std::collections::BTreeMap;

use crate::diag::Diagnostics;
use crate::kit::strings::{self, REFERENCE_LANGUAGE, Strings};

/// Every language's words, each complete (English fills any gap).
#[derive(Debug)]
pub struct Words {
    /// Language code → dotted key → text.
    pub by_lang: BTreeMap<String, BTreeMap<String, String>>,
}

impl Words {
    /// Parses the embedded files; problems in a translation (missing or unknown keys,
    /// placeholders that differ) are returned beside the words, a broken English file
    /// is an error.
    pub fn load(files: &[(&str, &str)]) -> Result<(Words, Diagnostics), Diagnostics> {
        let mut parsed = BTreeMap::new();
        let mut problems = Diagnostics::new();
        for (lang, text) in files {
            let file = format!("kits/web/{lang}.toml");
            match Strings::parse(lang, &file, text) {
                Ok(words) => {
                    parsed.insert(lang.to_string(), words);
                }
                Err(diags) => problems.extend(diags),
            }
        }
        let Some(reference) = parsed.get(REFERENCE_LANGUAGE) else {
            problems.push(crate::diag::Diagnostic::file(
                "kits/web/en.toml",
                "the web page's English words are missing or unreadable",
            ));
            return Err(problems);
        };
        let mut by_lang = BTreeMap::new();
        for (lang, words) in &parsed {
            problems.extend(strings::compare(reference, words));
            let mut complete = reference.entries.clone();
            complete.extend(
                words
                    .entries
                    .iter()
                    .filter(|(key, _)| reference.entries.contains_key(*key))
                    .map(|(k, v)| (k.clone(), v.clone())),
            );
            by_lang.insert(lang.clone(), complete);
        }
        Ok((Words { by_lang }, problems))
    }

    /// The language's own name (`Français`), or its code if the page lacks it.
    pub fn language_name(&self, lang: &str) -> String {
        let base = strings::language_of(lang);
        self.by_lang
            .get(lang)
            .or_else(|| self.by_lang.get(&base))
            .and_then(|w| w.get("page.language_name"))
            .cloned()
            .unwrap_or_else(|| lang.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_key_is_reported_and_filled_from_english() {
        let en = "[page]\ntitle = \"Title\"\nintro = \"Intro {n}\"\n";
        let fr = "[page]\ntitle = \"Titre\"\n";
        let (words, problems) = Words::load(&[("en", en), ("fr", fr)]).unwrap();
        assert_eq!(words.by_lang["fr"]["page.title"], "Titre");
        assert_eq!(words.by_lang["fr"]["page.intro"], "Intro {n}");
        assert_eq!(problems.len(), 1);
        assert!(problems[0].message.contains("missing key `page.intro`"), "{problems:?}");
    }

    #[test]
    fn without_english_the_words_are_refused() {
        assert!(Words::load(&[("fr", "[page]\ntitle = \"Titre\"\n")]).is_err());
    }
}
