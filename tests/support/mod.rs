pub mod boards;
pub mod pdf_probe;
pub mod server;

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

/// The kits shipped in `kits/`, read from the checkout: the same files the binary
/// embeds.
pub fn shipped_kits() -> Vec<tablekit::kit::Source> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("kits");
    tablekit::io::read_kits_dir(&dir).expect("kits/ reads")
}
