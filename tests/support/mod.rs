pub mod boards;
pub mod pdf_probe;

/// A strings-file value with each `{placeholder}` replaced by a space: the words a
/// translator wrote.
pub fn without_placeholders(s: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in s.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth > 0 => {
                depth -= 1;
                out.push(' ');
            }
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}
