//! The shape of the code a newcomer reads: no production function longer than a
//! screen or two (80 lines, its signature and closing brace included), so that each
//! reads as one step; no file longer than a sitting (800 lines); and no import
//! circle, so that every module can be read after the ones it uses. Test code
//! (`#[cfg(test)]` items, `tests/` folders) is left out.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The longest a production function may be, in lines.
const MOST_LINES: usize = 80;

/// The most production lines a source file may hold.
const MOST_FILE_LINES: usize = 800;

/// Files still over [`MOST_FILE_LINES`], each with the lines it may hold until it is
/// split; the list may only shrink.
const LONG_FILES: &[(&str, usize)] = &[];

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

/// `text` without its test items (a `#[cfg(test)]` line and the item after it, up to
/// its closing brace), comments and the insides of string literals.
fn production(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut kept = Vec::new();
    let mut at = 0;
    while at < lines.len() {
        if lines[at].trim_start().starts_with("#[cfg(test)]") {
            let item = (at + 1).min(lines.len() - 1);
            let indent = lines[item].len() - lines[item].trim_start().len();
            let closing = format!("{}}}", " ".repeat(indent));
            let end = if lines[item].trim_end().ends_with(';') {
                Some(0)
            } else {
                lines[item..].iter().position(|l| l.trim_end() == closing)
            };
            at = item + end.unwrap_or(lines.len()) + 1;
            continue;
        }
        let line = lines[at];
        let code = match line.find("//") {
            Some(i) if !line[..i].contains('"') => &line[..i],
            _ => line,
        };
        kept.push(blank_strings(code));
        at += 1;
    }
    kept.join("\n")
}

/// A line with what its string literals say left out (`"…"` becomes `""`).
fn blank_strings(line: &str) -> String {
    let mut out = String::new();
    let (mut inside, mut escaped) = (false, false);
    for c in line.chars() {
        if inside {
            match (escaped, c) {
                (false, '\\') => escaped = true,
                (false, '"') => {
                    inside = false;
                    out.push(c);
                }
                _ => escaped = false,
            }
        } else {
            inside = c == '"' && !out.ends_with('\'');
            out.push(c);
        }
    }
    out
}

#[test]
fn no_file_holds_more_than_eight_hundred_production_lines() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut long = Vec::new();
    for path in sources(&src) {
        let file = format!("src/{}", path.strip_prefix(&src).unwrap().display());
        let text = fs::read_to_string(&path).unwrap();
        let lines = production(&text).lines().count();
        let known = LONG_FILES.iter().find(|(name, _)| *name == file);
        let most = known.map_or(MOST_FILE_LINES, |(_, most)| *most);
        if lines > most {
            long.push(format!("{file}: {lines} lines"));
        }
        if known.is_some_and(|(_, most)| lines < *most) {
            long.push(format!("{file}: {lines} lines, fewer than its exception says"));
        }
    }
    assert!(long.is_empty(), "files over {MOST_FILE_LINES} lines:\n{}", long.join("\n"));
}

#[test]
fn test_items_comments_and_strings_are_not_production_code() {
    let text = "fn a() {\n    // crate::x\n    \"crate::y\";\n}\n#[cfg(test)]\nmod tests {\n    fn t() {}\n}\nfn b() {}\n";
    assert_eq!(production(text), "fn a() {\n    \n    \"\";\n}\nfn b() {}");
}

/// The module path of a source file (`src/pdf/info.rs` is `pdf::info`,
/// `src/kit/mod.rs` is `kit`); the crate root is empty.
fn module_of(src: &Path, path: &Path) -> Vec<String> {
    let relative = path.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> =
        relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        parts.pop();
    }
    parts
}

/// The paths a use tree at the start of `text` names, expanded (`a::{b, c::d}` gives
/// `a::b` and `a::c::d`): `use` trees and paths in code alike.
fn use_tree(text: &mut std::iter::Peekable<std::str::Chars>) -> Vec<Vec<String>> {
    while text.next_if(|c| c.is_whitespace()).is_some() {}
    if text.next_if_eq(&'{').is_some() {
        let mut all = Vec::new();
        loop {
            all.extend(use_tree(text));
            // Past `as name`, to the comma or the closing brace.
            while text.next_if(|c| *c != ',' && *c != '}').is_some() {}
            if text.next() != Some(',') {
                return all;
            }
        }
    }
    let mut name = String::new();
    while let Some(c) = text.next_if(|c| c.is_alphanumeric() || *c == '_') {
        name.push(c);
    }
    if name.is_empty() {
        return vec![Vec::new()];
    }
    let mut ahead = text.clone();
    if ahead.next() == Some(':') && ahead.next() == Some(':') {
        *text = ahead;
        let mut below = use_tree(text);
        below.iter_mut().for_each(|path| path.insert(0, name.clone()));
        return below;
    }
    vec![vec![name]]
}

/// Every path from the crate (`crate::`, `super::`, `self::`) that the production code
/// of the file at `module` names, made absolute (`super::draw::x` in `layout::flow`
/// is `layout::draw::x`).
fn crate_paths(module: &[String], text: &str) -> Vec<Vec<String>> {
    let code = production(text);
    let mut found = Vec::new();
    for (at, _) in code.match_indices("::") {
        let start = code[..at]
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        let before = &code[..start];
        if before.ends_with("::") || before.ends_with(|c: char| c.is_alphanumeric()) {
            continue;
        }
        if !["crate", "super", "self"].contains(&&code[start..at]) {
            continue;
        }
        for path in use_tree(&mut code[start..].chars().peekable()) {
            let mut absolute = module.to_vec();
            let mut rest = path.as_slice();
            match rest.first().map(String::as_str) {
                Some("crate") => absolute.clear(),
                Some("self") => {}
                _ => {}
            }
            if rest.first().is_some_and(|s| s == "crate" || s == "self") {
                rest = &rest[1..];
            }
            while rest.first().is_some_and(|s| s == "super") {
                absolute.pop();
                rest = &rest[1..];
            }
            absolute.extend(rest.iter().cloned());
            found.push(absolute);
        }
    }
    found
}

/// The items a module's own file brings in from its children (`pub use
/// figure::FigureContext;` in `layout`), so that `super::FigureContext` counts as
/// `figure`: name → child.
fn brought_in(text: &str, children: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for line in production(text).lines() {
        let line = line.trim();
        let line = ["pub(crate) ", "pub(super) ", "pub "]
            .iter()
            .find_map(|public| line.strip_prefix(public))
            .unwrap_or(line);
        let Some(tree) = line.strip_prefix("use ") else { continue };
        let tree = tree.strip_prefix("self::").unwrap_or(tree);
        for path in use_tree(&mut tree.chars().peekable()) {
            if let (Some(child), Some(name)) = (path.first(), path.last())
                && children.contains(child)
            {
                names.insert(name.clone(), child.clone());
            }
        }
    }
    names
}

/// Who uses whom: module → module it names → the files that name it.
type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

/// The import graph of `src/`: between top-level modules (`parent` empty), or
/// between the children of `parent` (what they take from the parent's own file does
/// not count, but what it brings in from a child counts as that child).
fn import_graph(parent: &str) -> Graph {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files: Vec<(Vec<String>, PathBuf)> =
        sources(&src).into_iter().map(|path| (module_of(&src, &path), path)).collect();
    let depth = usize::from(!parent.is_empty());
    let inside =
        |module: &[String]| depth == 0 || module.first().is_some_and(|m| m == parent);
    let nodes: BTreeSet<String> = files
        .iter()
        .filter(|(module, _)| inside(module) && module.len() > depth)
        .map(|(module, _)| module[depth].clone())
        .collect();
    let root = files
        .iter()
        .find(|(module, _)| module.len() == depth && (depth == 0 || module[0] == parent));
    let root_text = root.map(|(_, path)| fs::read_to_string(path).unwrap());
    let mut names = brought_in(root_text.as_deref().unwrap_or(""), &nodes);
    if depth == 0 {
        // Macros exported at the crate root belong to the module that defines them.
        for (module, path) in &files {
            let text = fs::read_to_string(path).unwrap();
            for (at, _) in text.match_indices("macro_rules! ") {
                let name: String = text[at + 13..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if let Some(top) = module.first() {
                    names.insert(name, top.clone());
                }
            }
        }
    }
    let mut graph = Graph::new();
    for (module, path) in &files {
        if !inside(module) || module.len() <= depth {
            continue;
        }
        let from = &module[depth];
        let file = format!("src/{}", path.strip_prefix(&src).unwrap().display());
        for used in crate_paths(module, &fs::read_to_string(path).unwrap()) {
            if depth == 1 && used.first().is_none_or(|m| m != parent) {
                continue;
            }
            let Some(first) = used.get(depth) else { continue };
            let to = if nodes.contains(first) {
                first
            } else {
                names.get(first).unwrap_or(first)
            };
            if to != from && nodes.contains(to) {
                let users = graph.entry(from.clone()).or_default();
                users.entry(to.clone()).or_default().insert(file.clone());
            }
        }
    }
    graph
}

/// The circles of `graph`: each group of modules that reach one another.
fn circles(graph: &Graph) -> Vec<BTreeSet<String>> {
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut next = vec![from.clone()];
        while let Some(module) = next.pop() {
            for to in graph.get(&module).into_iter().flat_map(|uses| uses.keys()) {
                if seen.insert(to.clone()) {
                    next.push(to.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> =
        graph.keys().map(|module| (module, reach(module))).collect();
    let mut groups = BTreeSet::new();
    for (module, seen) in &reached {
        if seen.contains(*module) {
            let back =
                |other: &&String| reached.get(other).is_some_and(|s| s.contains(*module));
            groups.insert(seen.iter().filter(back).cloned().collect());
        }
    }
    groups.into_iter().collect()
}

/// A circle as the uses that make it, one a line: `a → b (the files that name b)`.
fn describe(graph: &Graph, group: &BTreeSet<String>) -> String {
    let mut uses = Vec::new();
    for from in group {
        for (to, files) in graph[from].iter().filter(|(to, _)| group.contains(*to)) {
            let files: Vec<&str> = files.iter().map(String::as_str).collect();
            uses.push(format!("  {from} → {to} ({})", files.join(", ")));
        }
    }
    format!(
        "{}:\n{}",
        group.iter().cloned().collect::<Vec<_>>().join(", "),
        uses.join("\n")
    )
}

/// Fails on any circle of `graph`, naming the modules in it and the uses that close
/// it.
fn assert_no_circles(graph: &Graph) {
    let found: Vec<String> =
        circles(graph).iter().map(|group| describe(graph, group)).collect();
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

#[test]
fn paths_are_read_from_use_trees_and_code_and_made_absolute() {
    let module = ["layout".to_string(), "flow".to_string()];
    let text = "use super::{draw::Cut, poster::{self, Frame as F}};\nuse crate::kit::Kit;\nfn f() { crate::page::x(super::MARGIN); }\n";
    let found: Vec<String> =
        crate_paths(&module, text).iter().map(|p| p.join("::")).collect();
    assert_eq!(
        found,
        [
            "layout::draw::Cut",
            "layout::poster::self",
            "layout::poster::Frame",
            "kit::Kit",
            "page::x",
            "layout::MARGIN"
        ]
    );
}

#[test]
fn a_circle_is_found_and_named_with_the_uses_that_close_it() {
    let mut graph = Graph::new();
    for (from, to) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "e")] {
        let uses = graph.entry(from.to_string()).or_default();
        uses.entry(to.to_string()).or_default().insert(format!("src/{from}.rs"));
    }
    let found = circles(&graph);
    let names: Vec<Vec<&str>> =
        found.iter().map(|g| g.iter().map(String::as_str).collect()).collect();
    assert_eq!(names, [["a", "b", "c"]]);
    let told = describe(&graph, &found[0]);
    assert!(told.contains("c → a (src/c.rs)") && !told.contains("→ d"), "{told}");
    let text = "pub mod draw;\npub(crate) use draw::{Cut, Pen as P};\npub use self::flow::Chunk;\n";
    let children = BTreeSet::from(["draw".to_string(), "flow".to_string()]);
    let names = brought_in(text, &children);
    assert_eq!(names.get("Cut").map(String::as_str), Some("draw"));
    assert_eq!(names.get("Chunk").map(String::as_str), Some("flow"));
}

#[test]
fn top_level_modules_use_one_another_without_circles() {
    let graph = import_graph("");
    assert!(graph.len() > 10, "only {} modules read", graph.len());
    assert_no_circles(&graph);
}

#[test]
fn the_pdf_writer_s_parts_use_one_another_without_circles() {
    let graph = import_graph("pdf");
    assert!(graph.len() > 3, "only {} parts read", graph.len());
    assert_no_circles(&graph);
}

#[test]
fn the_layout_s_parts_use_one_another_without_circles() {
    let graph = import_graph("layout");
    assert!(graph.len() > 4, "only {} parts read", graph.len());
    assert_no_circles(&graph);
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
