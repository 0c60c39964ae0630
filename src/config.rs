//! `config.toml`: the defaults a facilitator sets once (language, paper, printer),
//! kept beside `printers.toml` in tablekit's configuration folder. The command line
//! always wins over it, and it over the built-in defaults.

use std::sync::Arc;

use serde::Deserialize;
use toml::Spanned;

use crate::diag::Diagnostic;

/// The configuration file's name, in the configuration folder.
pub const CONFIG_FILE: &str = "config.toml";

/// The keys the file may hold, with what each sets, for messages and `config`.
pub const KEYS: [(&str, &str); 4] = [
    ("lang", "language of the sheets (en, fr, de, es, el, ar, or all)"),
    ("paper", "paper (a4, letter, a3, legal, a5, tabloid, 300x400mm, 8.5x11in)"),
    ("landscape", "turn the paper to landscape (true or false)"),
    ("printer", "a printer kept with `tablekit calibrate NAME`, or none"),
];

/// The defaults read from `config.toml`; a key left out is `None`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Config {
    /// Language code, or `all`.
    pub lang: Option<String>,
    /// Paper, as `--paper` takes it.
    pub paper: Option<String>,
    /// Landscape paper.
    pub landscape: Option<bool>,
    /// A kept printer's name; `none` turns a correction off.
    pub printer: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    lang: Option<Spanned<String>>,
    paper: Option<Spanned<String>>,
    landscape: Option<bool>,
    printer: Option<Spanned<String>>,
}

impl Config {
    /// Reads the file's text; a problem names the file, line and column.
    pub fn parse(text: &str, file: &str) -> Result<Config, Box<Diagnostic>> {
        let source: Arc<str> = Arc::from(text);
        let raw: RawConfig = toml::from_str(text).map_err(|e| {
            let keys: Vec<&str> = KEYS.iter().map(|(key, _)| *key).collect();
            Box::new(
                Diagnostic::at(
                    file,
                    &source,
                    e.span().unwrap_or(0..0),
                    crate::diag::plain_toml_message(e.message()),
                )
                .with_note(format!("the keys are {}", keys.join(", "))),
            )
        })?;
        let at = |value: &Spanned<String>, message: String| {
            Box::new(Diagnostic::at(file, &source, value.span(), message))
        };
        if let Some(lang) = &raw.lang {
            let code = lang.get_ref();
            let ok = code == "all"
                || (2..=8).contains(&code.len())
                    && code.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
            if !ok {
                return Err(at(lang, format!("`{code}` is not a language code")));
            }
        }
        if let Some(paper) = &raw.paper {
            crate::layout::Paper::parse(paper.get_ref(), false)
                .map_err(|e| at(paper, format!("paper: {e}")))?;
        }
        if let Some(printer) = &raw.printer
            && printer.get_ref() != "none"
        {
            crate::calibrate::valid_name(printer.get_ref())
                .map_err(|e| at(printer, format!("printer: {e}")))?;
        }
        Ok(Config {
            lang: raw.lang.map(Spanned::into_inner),
            paper: raw.paper.map(Spanned::into_inner),
            landscape: raw.landscape,
            printer: raw.printer.map(Spanned::into_inner),
        })
    }

    /// The value of one key as the file holds it, if set.
    pub fn get(&self, key: &str) -> Option<String> {
        match key {
            "lang" => self.lang.clone(),
            "paper" => self.paper.clone(),
            "landscape" => self.landscape.map(|l| l.to_string()),
            "printer" => self.printer.clone(),
            _ => None,
        }
    }
}

/// `text` with `key` set to `value` (comments and other keys kept as they are), or
/// removed when `value` is `None`; the result is checked as the file would be read.
pub fn set(
    text: &str,
    file: &str,
    key: &str,
    value: Option<&str>,
) -> Result<String, String> {
    if !KEYS.iter().any(|(k, _)| *k == key) {
        let keys: Vec<&str> = KEYS.iter().map(|(k, _)| *k).collect();
        return Err(format!("no setting `{key}`: the settings are {}", keys.join(", ")));
    }
    let mut doc: toml_edit::DocumentMut =
        text.parse().map_err(|e: toml_edit::TomlError| format!("{file}: {e}"))?;
    match value {
        None => {
            doc.remove(key);
        }
        Some(value) if key == "landscape" => {
            let on = match value {
                "true" | "yes" | "on" => true,
                "false" | "no" | "off" => false,
                _ => return Err(format!("landscape is true or false, not `{value}`")),
            };
            doc[key] = toml_edit::value(on);
        }
        Some(value) => doc[key] = toml_edit::value(value),
    }
    let mut written = doc.to_string();
    if !written.ends_with('\n') {
        written.push('\n');
    }
    Config::parse(&written, file).map_err(|d| bare(&d))?;
    Ok(written)
}

/// A problem as text for an error message that adds its own `error:`.
pub fn bare(diagnostic: &Diagnostic) -> String {
    let text = diagnostic.render();
    text.trim_start_matches("error: ").trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_read_and_checked_with_their_place() {
        let text = "# mine\nlang = \"fr\"\npaper = \"letter\"\nprinter = \"office\"\n";
        let config = Config::parse(text, "config.toml").unwrap();
        assert_eq!(config.lang.as_deref(), Some("fr"));
        assert_eq!(config.paper.as_deref(), Some("letter"));
        assert_eq!(config.printer.as_deref(), Some("office"));
        let bad = Config::parse("paper = \"b9\"\n", "config.toml").unwrap_err();
        assert!(bad.render().contains("config.toml:1:9"), "{}", bad.render());
        let unknown = Config::parse("colour = \"red\"\n", "config.toml").unwrap_err();
        assert!(
            unknown.render().contains("the keys are lang, paper"),
            "{}",
            unknown.render()
        );
        assert!(Config::parse("printer = \"../x\"\n", "c").is_err());
        assert!(Config::parse("printer = \"none\"\n", "c").is_ok());
    }

    #[test]
    fn setting_a_key_keeps_the_comments_and_the_other_keys() {
        let text = "# set by the school\nlang = \"de\" # German classes\n";
        let written = set(text, "c", "paper", Some("a5")).unwrap();
        assert!(written.contains("# set by the school") && written.contains("# German"));
        assert_eq!(Config::parse(&written, "c").unwrap().paper.as_deref(), Some("a5"));
        let removed = set(&written, "c", "lang", None).unwrap();
        assert_eq!(Config::parse(&removed, "c").unwrap().lang, None);
        assert!(set(text, "c", "paper", Some("b9")).is_err());
        assert!(
            set(text, "c", "colour", Some("red")).unwrap_err().contains("no setting")
        );
    }
}
