//! What people read: numbers printed for people, not as the computer holds them.

use std::path::Path;

use crate::cli::{stderr, tablekit};
use crate::support::pdf_probe;

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
fn no_sheet_prints_a_number_with_more_than_two_decimals() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().to_str().unwrap();
    for cell in ["small", "41"] {
        for lang in ["en", "fr"] {
            let run = tablekit(&["build", "--cell", cell, "--lang", lang, "--out", out]);
            assert!(run.status.success(), "{}", stderr(&run));
            for pdf in pdfs(tmp.path()) {
                let text = pdf_probe::load_file(&pdf).text();
                if let Some(number) = long_decimal(&text) {
                    panic!("{} (--cell {cell}) prints {number:?}", pdf.display());
                }
            }
        }
    }
}
