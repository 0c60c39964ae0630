//! A kit uploaded as a zip: unpacked into a temporary folder of its own, read there
//! under exactly the rules the command line applies to a kit folder (`io::read_kit`),
//! and the folder removed again. Nothing in the zip can name a place outside it.

use std::io::{Read as _, Write as _};
use std::path::{Component, Path, PathBuf};

use crate::io;
use crate::kit::Source;

/// The largest upload accepted, as sent.
pub const MAX_UPLOAD_BYTES: usize = 10 << 20;

/// The most the files of a zip may hold once unpacked.
pub const MAX_UNPACKED_BYTES: u64 = 10 << 20;

/// The most entries (files and folders) a zip may hold: far more than a kit has.
pub const MAX_ENTRIES: usize = 256;

/// Why an upload was refused, in words for the person who sent it.
pub type Refusal = String;

/// The kit in a zip: `kit.toml` at its top, or in its one top folder. `name` is the
/// zip's file name, used only in messages.
pub fn unpack(name: &str, bytes: &[u8]) -> Result<Source, Refusal> {
    let name = shown_name(name);
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| format!("{name} is not a zip file that can be read ({e})"))?;
    let entries = check_entries(&name, &mut archive)?;
    let folder = tempfile::Builder::new()
        .prefix("tablekit-upload-")
        .tempdir()
        .map_err(|e| format!("no temporary folder for {name}: {e}"))?;
    for (index, path, is_dir) in &entries {
        // What macOS adds to a zip it makes (resource forks) is no part of the kit.
        if path.starts_with("__MACOSX") {
            continue;
        }
        let target = folder.path().join(path);
        if *is_dir {
            std::fs::create_dir_all(&target).map_err(|e| write_failed(&name, path, e))?;
            continue;
        }
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| write_failed(&name, path, e))?;
        }
        let mut entry = archive
            .by_index(*index)
            .map_err(|e| format!("{name}: {} cannot be read ({e})", path.display()))?;
        let mut file = std::fs::File::create_new(&target)
            .map_err(|e| write_failed(&name, path, e))?;
        // A zip may state sizes that its data does not keep: read one byte past the
        // stated size to catch a lie, and never more.
        let mut data = Vec::new();
        let stated = entry.size();
        (&mut entry)
            .take(stated + 1)
            .read_to_end(&mut data)
            .map_err(|e| format!("{name}: {} cannot be read ({e})", path.display()))?;
        if data.len() as u64 > stated {
            return Err(format!(
                "{name}: {} holds more than its stated size",
                path.display()
            ));
        }
        file.write_all(&data).map_err(|e| write_failed(&name, path, e))?;
    }
    let root = kit_root(folder.path(), &entries).ok_or_else(|| {
        format!("{name} holds no kit: put kit.toml at its top, or in one folder")
    })?;
    let mut source = io::read_kit(&root).map_err(|e| {
        // Name the files as they are in the zip, not in the temporary folder.
        format!("{e:#}").replace(&folder.path().display().to_string(), &name)
    })?;
    let inside = root.strip_prefix(folder.path()).unwrap_or(Path::new(""));
    source.dir = Path::new(&name).join(inside).display().to_string();
    Ok(source)
}

/// Every entry's index, safe relative path and whether it is a folder, after
/// checking the archive as a whole: count, total size, names and kinds.
fn check_entries<R: std::io::Read + std::io::Seek>(
    name: &str,
    archive: &mut zip::ZipArchive<R>,
) -> Result<Vec<(usize, PathBuf, bool)>, Refusal> {
    if archive.len() > MAX_ENTRIES {
        return Err(format!(
            "{name} holds {} entries: a kit zip may hold at most {MAX_ENTRIES}",
            archive.len()
        ));
    }
    let mut entries = Vec::new();
    let mut total: u64 = 0;
    for index in 0..archive.len() {
        let entry = archive
            .by_index_raw(index)
            .map_err(|e| format!("{name}: entry {} cannot be read ({e})", index + 1))?;
        let entry_name = entry
            .name()
            .map_err(|e| {
                format!("{name}: entry {} has no readable name ({e})", index + 1)
            })?
            .to_string();
        let path = safe_path(&entry_name).ok_or_else(|| {
            format!(
                "{name}: the entry `{entry_name}` names a place outside the kit folder \
                 (an absolute path or `..`), so the zip is refused"
            )
        })?;
        if entry.is_symlink() {
            return Err(format!(
                "{name}: the entry `{entry_name}` is a link; a kit zip may hold only files \
                 and folders"
            ));
        }
        total = total.saturating_add(entry.size());
        if total > MAX_UNPACKED_BYTES {
            return Err(format!(
                "{name} unpacks to more than {} MiB: a kit zip may hold at most that",
                MAX_UNPACKED_BYTES >> 20
            ));
        }
        entries.push((index, path, entry.is_dir()));
    }
    Ok(entries)
}

/// The entry's name as a relative path of plain parts, or `None` if it is absolute,
/// climbs with `..`, or names a drive.
fn safe_path(entry: &str) -> Option<PathBuf> {
    if entry.starts_with(['/', '\\']) || entry.contains(['\\', ':', '\0']) {
        return None;
    }
    let path = Path::new(entry);
    let plain =
        path.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    (plain && path.components().next().is_some()).then(|| path.to_path_buf())
}

/// The folder holding `kit.toml`: the zip's top, or its one top folder.
fn kit_root(folder: &Path, entries: &[(usize, PathBuf, bool)]) -> Option<PathBuf> {
    if folder.join("kit.toml").is_file() {
        return Some(folder.to_path_buf());
    }
    let mut tops: Vec<&std::ffi::OsStr> = entries
        .iter()
        .filter_map(|(_, path, _)| path.components().next())
        .map(|c| c.as_os_str())
        .filter(|top| *top != "__MACOSX")
        .collect();
    tops.sort();
    tops.dedup();
    match tops.as_slice() {
        [top] if folder.join(top).join("kit.toml").is_file() => Some(folder.join(top)),
        _ => None,
    }
}

/// The zip's name as messages show it: its last part, printable, at most 80 chars.
fn shown_name(name: &str) -> String {
    let last = name.rsplit(['/', '\\']).next().unwrap_or("");
    let clean: String = last.chars().filter(|c| !c.is_control()).take(80).collect();
    if clean.is_empty() { "the zip".to_string() } else { clean }
}

fn write_failed(name: &str, path: &Path, error: std::io::Error) -> Refusal {
    format!("{name}: {} could not be unpacked ({error})", path.display())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_that_climbs_or_is_absolute_is_refused() {
        for bad in ["../kit.toml", "a/../../b", "/etc/passwd", "C:/x", "a\\..\\b", ""] {
            assert_eq!(safe_path(bad), None, "{bad}");
        }
        assert_eq!(
            safe_path("my-kit/lang/en.toml"),
            Some(PathBuf::from("my-kit/lang/en.toml"))
        );
    }

    #[test]
    fn the_shown_name_is_the_last_part_without_controls() {
        assert_eq!(shown_name("C:\\Users\\x\\my-kit.zip"), "my-kit.zip");
        assert_eq!(shown_name("a\u{7}b.zip"), "ab.zip");
        assert_eq!(shown_name(""), "the zip");
    }
}
