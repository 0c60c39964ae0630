//! Diagnostics for kit authors: what went wrong, in which file, at which line and
//! column, with the offending line shown and a caret under it.

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use codespan_reporting::diagnostic::{Diagnostic as Report, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, Config};

/// One problem found in a kit, a strings file or a template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file as the user named it (e.g. `kits/<kit>/kit.toml`).
    pub file: String,
    /// The file's text, so the report can quote the line; empty if unknown. Shared:
    /// a thousand problems in one file hold one copy of it.
    pub source: Arc<str>,
    /// Byte range of the offending text in `source`, if known.
    pub span: Option<Range<usize>>,
    /// What is wrong: lowercase, no final period.
    pub message: String,
    /// A label under the caret: what was expected instead.
    pub label: String,
    /// Extra lines of help.
    pub notes: Vec<String>,
    /// The strings key the problem is about, when it is about one.
    pub key: Option<String>,
}

impl Diagnostic {
    /// A problem with a whole file (no position).
    pub fn file(file: &str, message: impl Into<String>) -> Self {
        Diagnostic {
            file: file.to_string(),
            source: Arc::from(""),
            span: None,
            message: message.into(),
            label: String::new(),
            notes: Vec::new(),
            key: None,
        }
    }

    /// A problem at a place in a file.
    pub fn at(
        file: &str,
        source: &Arc<str>,
        span: Range<usize>,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            span: Some(span),
            source: Arc::clone(source),
            ..Diagnostic::file(file, message)
        }
    }

    /// Adds a label under the caret.
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    /// Adds a help line.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// 1-based line and column of the span's start, if there is one.
    pub fn line_col(&self) -> Option<(usize, usize)> {
        self.span.as_ref().map(|span| line_col(&self.source, span.start))
    }

    /// The full report: `error: …`, `--> file:line:col`, the line and a caret.
    pub fn render(&self) -> String {
        self.render_as(Report::error())
    }

    /// The same report as a warning: something to tidy, not a failure.
    pub fn render_warning(&self) -> String {
        self.render_as(Report::warning())
    }

    fn render_as(&self, report: Report<()>) -> String {
        let word = if report.severity == codespan_reporting::diagnostic::Severity::Warning
        {
            "warning"
        } else {
            "error"
        };
        let Some(span) = self.span.clone() else {
            let mut out = format!("{word}: {}\n  --> {}\n", self.message, self.file);
            for note in &self.notes {
                out.push_str(&format!("   = {note}\n"));
            }
            return out;
        };
        let file = SimpleFile::new(self.file.as_str(), &*self.source);
        let report = report
            .with_message(&self.message)
            .with_labels(vec![Label::primary((), span).with_message(&self.label)])
            .with_notes(self.notes.clone());
        term::emit_into_string(&Config::default(), &file, &report).unwrap_or_else(|_| {
            format!("{word}: {}\n  --> {}\n", self.message, self.file)
        })
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line_col() {
            Some((line, col)) => {
                write!(f, "{}:{line}:{col}: {}", self.file, self.message)
            }
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(source.len());
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = source[line_start..offset].chars().count() + 1;
    (line, col)
}

/// Every problem found, in the order found.
pub type Diagnostics = Vec<Diagnostic>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_from_one_in_characters() {
        let src = "a = 1\nbé = \"x\"\n";
        assert_eq!(line_col(src, 0), (1, 1));
        assert_eq!(line_col(src, 6), (2, 1));
        // 'é' is two bytes but one column.
        let quote = src.find('"').unwrap();
        assert_eq!(line_col(src, quote), (2, 6));
        assert_eq!(line_col(src, src.len()), (3, 1));
    }

    #[test]
    fn render_names_file_line_and_column() {
        let src = "id = \"x\"\nsquare = \"D4\"\n";
        let start = src.find("\"D4\"").unwrap();
        let d = Diagnostic::at(
            "kit.toml",
            &Arc::from(src),
            start..start + 4,
            "unknown square `D4`",
        )
        .with_label("expected A1 to C3");
        let text = d.render();
        assert!(text.contains("kit.toml:2:10"), "{text}");
        assert!(text.contains("unknown square `D4`"), "{text}");
        assert!(text.contains("expected A1 to C3"), "{text}");
        assert_eq!(d.to_string(), "kit.toml:2:10: unknown square `D4`");
    }
}

/// A TOML reader's message in the words of the file's author, not of Rust's types:
/// "invalid value: integer `-1`, expected u32" reads "found -1, expected a whole
/// number, 0 or more".
pub fn plain_toml_message(message: &str) -> String {
    const EXPECTED: &[(&str, &str)] = &[
        ("expected u8", "expected a whole number from 0 to 255"),
        ("expected u16", "expected a whole number from 0 to 65535"),
        ("expected u32", "expected a whole number, 0 or more"),
        ("expected u64", "expected a whole number, 0 or more"),
        ("expected usize", "expected a whole number, 0 or more"),
        ("expected i64", "expected a whole number"),
        ("expected i32", "expected a whole number"),
        ("expected f64", "expected a number"),
        ("expected f32", "expected a number"),
        ("expected a sequence", "expected a list in [ ]"),
        ("expected a map", "expected a table"),
    ];
    let mut text = message.trim().to_string();
    for (rust, plain) in EXPECTED {
        if let Some(at) = text.find(rust)
            && !text[at + rust.len()..].starts_with(|c: char| c.is_ascii_alphanumeric())
        {
            text.replace_range(at..at + rust.len(), plain);
        }
    }
    for (rust, plain) in [
        ("invalid type: integer `", "found the whole number `"),
        ("invalid type: floating point `", "found the number `"),
        ("invalid type: string ", "found the text "),
        ("invalid type: boolean `", "found `"),
        ("invalid value: integer `", "found `"),
        ("invalid type: sequence", "found a list"),
        ("invalid type: map", "found a table"),
    ] {
        if let Some(rest) = text.strip_prefix(rust) {
            text = format!("{plain}{rest}");
        }
    }
    text
}

#[cfg(test)]
mod plain_tests {
    use super::plain_toml_message;

    #[test]
    fn rust_type_names_read_as_plain_words() {
        let plain = |m: &str| plain_toml_message(m);
        assert_eq!(
            plain("invalid value: integer `-1`, expected u32"),
            "found `-1`, expected a whole number, 0 or more"
        );
        assert_eq!(
            plain("invalid type: string \"big\", expected f64"),
            "found the text \"big\", expected a number"
        );
        assert_eq!(
            plain("invalid type: integer `3`, expected a sequence"),
            "found the whole number `3`, expected a list in [ ]"
        );
        assert_eq!(plain("unknown field `sise`"), "unknown field `sise`");
    }
}
