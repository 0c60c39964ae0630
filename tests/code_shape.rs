//! The shape of the code a newcomer reads: no production function longer than a
//! screen or two (80 lines, its signature and closing brace included), so that each
//! reads as one step. Test code (`#[cfg(test)]` modules, `tests/` folders) is left out.

use std::fs;
use std::path::{Path, PathBuf};

/// The longest a production function may be, in lines.
const MOST_LINES: usize = 80;

/// Every Rust source file under `dir`, but test folders.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() && path.file_name().is_some_and(|n| n != "tests") {
            found.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.file_name().is_some_and(|n| n != "tests.rs")
        {
            found.push(path);
        }
    }
    found
}

/// The name of the function a line opens, if it opens one (`pub(crate) fn name(`).
fn opens_fn(line: &str) -> Option<&str> {
    let rest = line.trim_start();
    let rest = rest.strip_prefix("pub").map_or(rest, |r| {
        r.strip_prefix("(crate)")
            .or_else(|| r.strip_prefix("(super)"))
            .unwrap_or(r)
            .trim_start()
    });
    let rest = rest.strip_prefix("const ").unwrap_or(rest);
    let rest = rest.strip_prefix("async ").unwrap_or(rest);
    let name = rest.strip_prefix("fn ")?;
    let end = name.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    Some(&name[..end])
}

/// Each function of `text` (up to its first test module) with its length in lines:
/// from its `fn` line to the brace that closes it at the same indentation.
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> =
        text.lines().take_while(|l| !l.contains("#[cfg(test)]")).collect();
    let mut found = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let Some(name) = opens_fn(line) else { continue };
        let indent = line.len() - line.trim_start().len();
        let closing = format!("{}}}", " ".repeat(indent));
        // A declaration without a body (in a trait) ends at its semicolon.
        let body = lines[start..]
            .iter()
            .position(|l| l.trim_end().ends_with(';') || l.contains('{'));
        if body.is_some_and(|i| !lines[start + i].contains('{')) {
            continue;
        }
        let end = lines[start..].iter().position(|l| l.trim_end() == closing);
        let one_line = line.trim_end().ends_with('}');
        if let (Some(end), false) = (end, one_line) {
            found.push((name.to_string(), start + 1, end + 1));
        }
    }
    found
}

#[test]
fn no_production_function_is_longer_than_eighty_lines() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut long = Vec::new();
    let mut counted = 0;
    for path in sources(&src) {
        let text = fs::read_to_string(&path).unwrap();
        for (name, line, length) in functions(&text) {
            counted += 1;
            if length > MOST_LINES {
                let file = path.strip_prefix(&src).unwrap().display();
                long.push(format!("src/{file}:{line} {name}: {length} lines"));
            }
        }
    }
    assert!(counted > 500, "only {counted} functions read");
    assert!(long.is_empty(), "functions over {MOST_LINES} lines:\n{}", long.join("\n"));
}

#[test]
fn a_function_is_measured_from_its_signature_to_its_closing_brace() {
    let text = "pub(crate) fn short() {\n    1;\n}\n\nfn tall(\n    a: u8,\n) -> u8 {\n    a\n}\n";
    let found = functions(text);
    assert_eq!(found, [("short".to_string(), 1, 3), ("tall".to_string(), 5, 5)]);
    let trait_text =
        "trait T {\n    fn f(&self);\n    fn g(&self) {\n        1;\n    }\n}\n";
    assert_eq!(functions(trait_text), [("g".to_string(), 3, 3)]);
}
