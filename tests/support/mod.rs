pub mod boards;
pub mod games;
pub mod pdf_probe;
pub mod server;
pub mod shared;

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

/// The folder a build writes a variant's host key to: beside the players' folder.
pub fn host_dir(variant: &std::path::Path) -> std::path::PathBuf {
    let name = variant.file_name().unwrap().to_string_lossy();
    variant.with_file_name(format!("{name}-host"))
}

/// Where a build wrote a sheet of a variant: the host key in the host's folder.
pub fn sheet_pdf(variant: &std::path::Path, sheet: &str) -> std::path::PathBuf {
    match sheet {
        "host-key" => host_dir(variant).join("host-key.pdf"),
        _ => variant.join(format!("{sheet}.pdf")),
    }
}

/// Every PDF a build wrote for a variant, by file name: the players' folder and the
/// host's folder beside it.
pub fn variant_pdfs(variant: &std::path::Path) -> Vec<(String, std::path::PathBuf)> {
    let mut found = Vec::new();
    for dir in [variant.to_path_buf(), host_dir(variant)] {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if name.ends_with(".pdf") {
                found.push((name, path));
            }
        }
    }
    found.sort();
    found
}

/// The players' folder of a variant under `kit_dir` whose name is `base` or `base`
/// followed by the options that set its edition apart (`en-a4-5-cell-large`); one
/// such folder is expected.
pub fn variant_dir(kit_dir: &std::path::Path, base: &str) -> std::path::PathBuf {
    let edition = |name: &str| {
        name == base
            || name
                .strip_prefix(base)
                .and_then(|rest| rest.strip_prefix('-'))
                .is_some_and(|rest| {
                    !rest.starts_with(|c: char| c.is_ascii_digit())
                        && !rest.ends_with("host")
                })
    };
    let found: Vec<std::path::PathBuf> = std::fs::read_dir(kit_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| edition(&p.file_name().unwrap().to_string_lossy()))
        .collect();
    assert_eq!(found.len(), 1, "one {base} folder in {}: {found:?}", kit_dir.display());
    found.into_iter().next().unwrap()
}
