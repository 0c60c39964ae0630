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

/// The most unnamed float literals the drawing code may hold: layout (`src/layout/`)
/// and every game's figures (`src/games/*/figures.rs`). A size, a gap, a tone or a
/// share of a cell is named once, with a comment saying why it is so, in
/// `layout::diagram_style` when every game draws with it, beside the game's figures
/// when it is a fact of that game's pieces.
///
/// A constant's own value is its name and is not counted (a `const` or `static` item,
/// to its `;`). Neither are `0.0`, `1.0`, `0.5` and `2.0`: they are arithmetic, not
/// choices (nothing, the whole, half of a span to centre it, both sides of a margin),
/// and naming them would hide what the expression does.
const MOST_UNNAMED_FLOATS: usize = 40;

/// Literals that are arithmetic rather than a choice (see [`MOST_UNNAMED_FLOATS`]).
const ARITHMETIC: [f64; 4] = [0.0, 1.0, 0.5, 2.0];

/// `line` without its comment and with each string literal emptied.
fn code_of(line: &str) -> String {
    let mut code = String::new();
    let mut chars = line.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        match (in_string, c) {
            (true, '\\') => {
                chars.next();
            }
            (true, '"') => {
                in_string = false;
                code.push('"');
            }
            (true, _) => {}
            (false, '"') => {
                in_string = true;
                code.push('"');
            }
            (false, '/') if chars.peek() == Some(&'/') => break,
            (false, _) => code.push(c),
        }
    }
    code
}

/// The float literals of one line of code (`0.35`, `1e-9`, `10.0_f64`), as written.
fn float_literals(code: &str) -> Vec<String> {
    let chars: Vec<char> = code.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts = chars[i].is_ascii_digit()
            && (i == 0
                || !(chars[i - 1].is_alphanumeric() || "_.".contains(chars[i - 1])));
        if !starts {
            i += 1;
            continue;
        }
        let from = i;
        let digits = |i: &mut usize| {
            while *i < chars.len() && (chars[*i].is_ascii_digit() || chars[*i] == '_') {
                *i += 1;
            }
        };
        digits(&mut i);
        let mut float = false;
        // A fraction, but not a range (`1..=5`) or a method call (`2.max(…)`).
        if chars.get(i) == Some(&'.')
            && chars.get(i + 1).is_some_and(char::is_ascii_digit)
        {
            float = true;
            i += 1;
            digits(&mut i);
        }
        if chars.get(i) == Some(&'e') {
            let sign = usize::from(matches!(chars.get(i + 1), Some('+' | '-')));
            if chars.get(i + 1 + sign).is_some_and(char::is_ascii_digit) {
                float = true;
                i += 1 + sign;
                digits(&mut i);
            }
        }
        let suffix: String = chars[i..].iter().take(4).collect();
        for tail in ["_f64", "_f32", "f64", "f32"] {
            if suffix.starts_with(tail) {
                float = true;
                i += tail.len();
                break;
            }
        }
        if float {
            found.push(chars[from..i].iter().collect());
        }
    }
    found
}

/// The unnamed float literals of a source file's production code, with their lines.
fn unnamed_floats(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut in_constant = false;
    for (number, line) in text.lines().enumerate() {
        if line.contains("#[cfg(test)]") {
            break;
        }
        let code = code_of(line);
        let item = code.trim_start();
        let item = item
            .strip_prefix("pub ")
            .or(item.strip_prefix("pub(crate) "))
            .unwrap_or(item);
        if item.starts_with("const ") || item.starts_with("static ") {
            in_constant = true;
        }
        if in_constant {
            in_constant = !code.trim_end().ends_with(';');
            continue;
        }
        for literal in float_literals(&code) {
            let digits: String = literal
                .trim_end_matches("f64")
                .trim_end_matches("f32")
                .chars()
                .filter(|&c| c != '_')
                .collect();
            let value: f64 = digits.parse().unwrap_or(f64::NAN);
            if !ARITHMETIC.contains(&value) {
                found.push((number + 1, literal));
            }
        }
    }
    found
}

#[test]
fn layout_and_figures_hold_under_forty_unnamed_float_literals() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files: Vec<PathBuf> = sources(&src.join("layout"));
    for game in fs::read_dir(src.join("games")).unwrap() {
        let figures = game.unwrap().path().join("figures.rs");
        if figures.exists() {
            files.push(figures);
        }
    }
    files.sort();
    assert!(files.len() >= 12, "only {} files read", files.len());
    let mut unnamed = Vec::new();
    for path in &files {
        let file = path.strip_prefix(&src).unwrap().display().to_string();
        for (line, literal) in unnamed_floats(&fs::read_to_string(path).unwrap()) {
            unnamed.push(format!("src/{file}:{line} {literal}"));
        }
    }
    assert!(
        unnamed.len() <= MOST_UNNAMED_FLOATS,
        "{} unnamed float literals in layout and figures (at most {MOST_UNNAMED_FLOATS}); \
         name them, with a comment saying why:\n{}",
        unnamed.len(),
        unnamed.join("\n")
    );
}

#[test]
fn a_float_literal_is_unnamed_outside_constants_and_beyond_arithmetic() {
    let text = "const GAP: f64 = 1.5;\nconst PAIR: (f64, f64) =\n    (0.2, 0.4);\n\
        fn f(x: f64) -> f64 {\n    // 9.9 in a comment\n    let s = \"3.5\";\n    \
        x * 0.35 + 2.0 * GAP.max(10.0_f64) + PAIR.0 + 1e-9\n}\n\
        fn g() { for _ in 1..=5 {} }\n#[cfg(test)]\nmod tests { const A: f64 = 0.7 * 0.3; }\n";
    let found = unnamed_floats(text);
    let literals: Vec<(usize, &str)> =
        found.iter().map(|(l, s)| (*l, s.as_str())).collect();
    assert_eq!(literals, [(7, "0.35"), (7, "10.0_f64"), (7, "1e-9")]);
}
