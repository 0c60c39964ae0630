//! The only code that touches the disk: reading kits and templates, writing PDFs.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::kit::Source;

/// The kits the binary carries, so that `build` works from any folder: every file of
/// every kit folder, gathered by `build.rs`.
const BUILTIN_KITS: &[(&str, &[(&str, &str)])] =
    include!(concat!(env!("OUT_DIR"), "/builtin_kits.rs"));

/// The built-in kits, as sources named `kits/<id>`.
pub fn builtin_kits() -> Vec<Source> {
    BUILTIN_KITS
        .iter()
        .map(|(id, files)| Source {
            dir: format!("kits/{id} (built in)"),
            files: files.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect(),
        })
        .collect()
}

/// Reads a kit folder: `kit.toml`, `lang/*.toml` and `templates/*.tera`.
pub fn read_kit(dir: &Path) -> Result<Source> {
    if !dir.join("kit.toml").is_file() {
        bail!("{} is not a kit folder (no kit.toml in it)", dir.display());
    }
    let mut files = BTreeMap::new();
    let text = |rel: &str| -> Result<String> {
        let path = dir.join(rel);
        fs::read_to_string(&path)
            .with_context(|| format!("failed to read {}", path.display()))
    };
    files.insert("kit.toml".to_string(), text("kit.toml")?);
    for (sub, ext) in [("lang", "toml"), ("templates", "tera")] {
        for name in sorted_files(&dir.join(sub), ext)? {
            let rel = format!("{sub}/{name}");
            files.insert(rel.clone(), text(&rel)?);
        }
    }
    Ok(Source { dir: dir.display().to_string(), files })
}

/// Every kit folder under `kits_dir`, sorted by name.
pub fn read_kits_dir(kits_dir: &Path) -> Result<Vec<Source>> {
    let mut dirs: Vec<PathBuf> = fs::read_dir(kits_dir)
        .with_context(|| format!("failed to read {}", kits_dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("kit.toml").is_file())
        .collect();
    dirs.sort();
    dirs.iter().map(|d| read_kit(d)).collect()
}

/// Template overrides in a folder: `<sheet>.tera` → (path, text).
pub fn read_templates(dir: &Path) -> Result<BTreeMap<String, (String, String)>> {
    if !dir.is_dir() {
        bail!("templates folder {} does not exist", dir.display());
    }
    let mut out = BTreeMap::new();
    for name in sorted_files(dir, "tera")? {
        let path = dir.join(&name);
        let text = fs::read_to_string(&path)
            .with_context(|| format!("failed to read {}", path.display()))?;
        let sheet = name.trim_end_matches(".tera").to_string();
        out.insert(sheet, (path.display().to_string(), text));
    }
    Ok(out)
}

fn sorted_files(dir: &Path, ext: &str) -> Result<Vec<String>> {
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let mut names: Vec<String> = fs::read_dir(dir)
        .with_context(|| format!("failed to read {}", dir.display()))?
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_file())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.ends_with(&format!(".{ext}")) && !n.starts_with('.'))
        .collect();
    names.sort();
    Ok(names)
}

/// Writes files into `dir` so that nothing is ever half-written: every file goes to
/// a temporary name first, and only when all are written are they renamed into
/// place. On failure the temporaries are removed and earlier files stay as they were.
pub fn write_all(dir: &Path, files: &[(String, Vec<u8>)]) -> Result<Vec<PathBuf>> {
    fs::create_dir_all(dir)
        .with_context(|| format!("failed to create output folder {}", dir.display()))?;
    let mut temps = Vec::new();
    let result = (|| -> Result<Vec<PathBuf>> {
        for (name, bytes) in files {
            let temp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
            temps.push(temp.clone());
            fs::write(&temp, bytes)
                .with_context(|| format!("failed to write {}", temp.display()))?;
        }
        let mut written = Vec::new();
        for ((name, _), temp) in files.iter().zip(&temps) {
            let target = dir.join(name);
            fs::rename(temp, &target).with_context(|| {
                format!("failed to move {} into place", target.display())
            })?;
            written.push(target);
        }
        Ok(written)
    })();
    if result.is_err() {
        for temp in &temps {
            let _ = fs::remove_file(temp);
        }
    }
    result
}
