//! Embeds every kit under `kits/` in the `tablekit` binary (`src/main.rs`, not the
//! library, includes the list), so that `tablekit build` works from
//! any folder and adding a strings file needs no code change; and the words of the
//! web page (`kits/web/<lang>.toml`), which `tablekit serve` shows.

use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs};

fn main() {
    println!("cargo:rerun-if-changed=kits");
    // Read when the script runs, not when it was compiled: a target folder shared by
    // two checkouts must embed the kits of the one being built.
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest).join("kits");
    let mut out = String::from("&[\n");
    for kit in sorted(&root) {
        if !kit.join("kit.toml").is_file() {
            continue;
        }
        let id = kit.file_name().unwrap().to_string_lossy().into_owned();
        writeln!(out, "    ({id:?}, &[").unwrap();
        let mut files = vec!["kit.toml".to_string()];
        for sub in ["lang", "templates"] {
            let dir = kit.join(sub);
            for file in sorted(&dir) {
                let name = file.file_name().unwrap().to_string_lossy().into_owned();
                if !name.starts_with('.') && file.is_file() {
                    files.push(format!("{sub}/{name}"));
                }
            }
        }
        for rel in files {
            let path = kit.join(&rel);
            writeln!(
                out,
                "        ({rel:?}, include_str!({:?})),",
                path.display().to_string()
            )
            .unwrap();
        }
        writeln!(out, "    ]),").unwrap();
    }
    out.push(']');
    let out_dir = env::var("OUT_DIR").unwrap();
    fs::write(Path::new(&out_dir).join("builtin_kits.rs"), out).unwrap();
    // The web page's words, one strings file per language (`kits/web/<lang>.toml`).
    let mut words = String::from("&[\n");
    for file in sorted(&root.join("web")) {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        if let Some(lang) = name.strip_suffix(".toml") {
            let path = file.display().to_string();
            writeln!(words, "    ({lang:?}, include_str!({path:?})),").unwrap();
        }
    }
    words.push(']');
    fs::write(Path::new(&out_dir).join("page_words.rs"), words).unwrap();
}

fn sorted(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .map(|r| r.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    entries.sort();
    entries
}
