//! Embeds every kit under `kits/` in the `tablekit` binary (`src/main.rs`, not the
//! library, includes the list), so that `tablekit build` works from
//! any folder and adding a strings file needs no code change.

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
    let dest = Path::new(&env::var("OUT_DIR").unwrap()).join("builtin_kits.rs");
    fs::write(dest, out).unwrap();
}

fn sorted(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .map(|r| r.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    entries.sort();
    entries
}
