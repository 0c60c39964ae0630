//! The only code that touches the disk: reading kits and templates, writing PDFs.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use anyhow::{Context, Result, bail};

use crate::kit::Source;

/// Kits carried in a binary: each kit's id with its files, as (path inside the kit
/// folder, text) pairs.
pub type EmbeddedKits =
    &'static [(&'static str, &'static [(&'static str, &'static str)])];

/// The kits the `tablekit` binary carries (its `build.rs` gathers them), so that
/// `build` works from any folder. The binary, not this library, embeds them: an edit
/// under `kits/` then recompiles only the small binary crate.
static BUILTIN_KITS: OnceLock<EmbeddedKits> = OnceLock::new();

/// Sets the built-in kits; the binary calls it once at start. Later calls are ignored.
pub fn set_builtin_kits(kits: EmbeddedKits) {
    let _ = BUILTIN_KITS.set(kits);
    crate::kit::defaults::set_from(&builtin_kits());
}

/// The built-in kits, as sources named `kits/<id>`; none unless the program set them.
pub fn builtin_kits() -> Vec<Source> {
    BUILTIN_KITS
        .get()
        .copied()
        .unwrap_or_default()
        .iter()
        .map(|(id, files)| Source {
            dir: format!("kits/{id} (built in)"),
            files: files.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect(),
            unreadable: Vec::new(),
        })
        .collect()
}

/// The web page's words carried in a binary: (language code, text of
/// `kits/web/<lang>.toml`).
pub type EmbeddedWords = &'static [(&'static str, &'static str)];

static PAGE_WORDS: OnceLock<EmbeddedWords> = OnceLock::new();

/// Sets the web page's words; the binary calls it once at start.
pub fn set_page_words(words: EmbeddedWords) {
    let _ = PAGE_WORDS.set(words);
}

/// The web page's words by language; none unless the program set them.
pub fn page_words() -> EmbeddedWords {
    PAGE_WORDS.get().copied().unwrap_or_default()
}

/// The largest file a kit may hold: far more than any kit needs, small enough that
/// a stray file cannot exhaust memory.
pub const MAX_KIT_FILE_BYTES: u64 = 1 << 20;

/// What a folder read with [`read_inside`] is, for its messages: the folder, and
/// one of its files.
struct Folder {
    folder: &'static str,
    file: &'static str,
}

const KIT_FOLDER: Folder = Folder { folder: "its kit folder", file: "a kit file" };
const TEMPLATES_FOLDER: Folder =
    Folder { folder: "the templates folder", file: "a template file" };

/// Reads `rel` inside `root`, refusing a path that leads outside it once symbolic
/// links are resolved, a link, and a file larger than [`MAX_KIT_FILE_BYTES`].
fn read_inside(root: &Path, rel: &str, what: Folder) -> Result<String> {
    let path = root.join(rel);
    let real_root = root
        .canonicalize()
        .with_context(|| format!("failed to read {}", root.display()))?;
    let real = path
        .canonicalize()
        .with_context(|| format!("failed to read {}", path.display()))?;
    if !real.starts_with(&real_root) {
        bail!(
            "{} leads outside {} (to {}): only files inside it are read",
            path.display(),
            what.folder,
            real.display()
        );
    }
    // A link inside the folder would let one file be read as another (a template
    // linked to a strings file prints its host-only words as they are).
    if fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
        let target = real.strip_prefix(&real_root).unwrap_or(&real);
        bail!(
            "{} is a link (to {}): {} is read as itself, never through a link; copy the \
             file instead",
            path.display(),
            target.display(),
            what.file
        );
    }
    let size = fs::metadata(&real)
        .with_context(|| format!("failed to read {}", path.display()))?
        .len();
    if size > MAX_KIT_FILE_BYTES {
        bail!(
            "{} is {size} bytes: {} may have at most {MAX_KIT_FILE_BYTES}",
            path.display(),
            what.file
        );
    }
    let bytes =
        fs::read(&real).with_context(|| format!("failed to read {}", path.display()))?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let before = &e.as_bytes()[..at];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        anyhow::anyhow!(
            "{}:{line}:{column}: not UTF-8 text (byte {at}); save the file as UTF-8",
            path.display()
        )
    })
}

/// Reads a kit folder: `kit.toml`, `lang/*.toml` and `templates/*.tera`, none of them
/// outside the folder.
pub fn read_kit(dir: &Path) -> Result<Source> {
    if !dir.join("kit.toml").is_file() {
        bail!("{} is not a kit folder (no kit.toml in it)", dir.display());
    }
    unused_entries(dir)?;
    let mut files = BTreeMap::new();
    let mut unreadable = Vec::new();
    let mut names = vec!["kit.toml".to_string()];
    for (sub, ext) in [("lang", "toml"), ("templates", "tera")] {
        names.extend(
            sorted_files(&dir.join(sub), ext)?.iter().map(|n| format!("{sub}/{n}")),
        );
    }
    // A file that cannot be read is one problem among the kit's others, not the end.
    for rel in names {
        match read_inside(dir, &rel, KIT_FOLDER) {
            Ok(text) => {
                files.insert(rel, text);
            }
            Err(e) => unreadable.push((rel, format!("{e:#}"))),
        }
    }
    Ok(Source { dir: dir.display().to_string(), files, unreadable })
}

/// What a kit folder holds: `kit.toml`, `lang/` and `templates/`; anything else
/// would be ignored, so it is an error naming it (hidden files aside).
fn unused_entries(dir: &Path) -> Result<()> {
    let mut unused: Vec<String> = fs::read_dir(dir)
        .with_context(|| format!("failed to read {}", dir.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| !name.starts_with('.'))
        .filter(|name| !matches!(name.as_str(), "kit.toml" | "lang" | "templates"))
        .collect();
    unused.sort();
    if unused.is_empty() {
        return Ok(());
    }
    bail!(
        "{} holds what a kit does not use: {}; a kit folder holds kit.toml, lang/ and \
         templates/ only",
        dir.display(),
        unused.join(", ")
    )
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
        let text = read_inside(dir, &name, TEMPLATES_FOLDER)?;
        let sheet = name.trim_end_matches(".tera").to_string();
        out.insert(sheet, (path.display().to_string(), text));
    }
    Ok(out)
}

fn sorted_files(dir: &Path, ext: &str) -> Result<Vec<String>> {
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let mut names = Vec::new();
    let mut unused = Vec::new();
    for entry in
        fs::read_dir(dir).with_context(|| format!("failed to read {}", dir.display()))?
    {
        let entry = entry.with_context(|| format!("failed to read {}", dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        // Hidden files (`.DS_Store`, an editor's swap file) are the system's, not the kit's.
        if name.starts_with('.') {
            continue;
        }
        let path = entry.path();
        match (path.is_file(), name.ends_with(&format!(".{ext}"))) {
            (true, true) => names.push(name),
            (is_file, _) => {
                unused.push(format!("{} ({})", path.display(), kind_of(&path, is_file)))
            }
        }
    }
    if !unused.is_empty() {
        unused.sort();
        bail!(
            "{} holds what a kit cannot use: {}; it may hold only .{ext} files",
            dir.display(),
            unused.join(", ")
        );
    }
    names.sort();
    Ok(names)
}

/// What a kit folder entry is, for a message about it.
fn kind_of(path: &Path, is_file: bool) -> &'static str {
    let link = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    match (link, path.exists(), path.is_dir(), is_file) {
        (true, false, _, _) => "a link to nothing",
        (_, _, true, _) => "a folder",
        (_, _, _, true) => "a file of another kind",
        _ => "not a regular file (a pipe or a device)",
    }
}

/// What [`write_all`] wrote, and the earlier folder it could not remove, if any.
#[derive(Debug)]
pub struct Replaced {
    /// Every file written, in the order given.
    pub paths: Vec<PathBuf>,
    /// The earlier content, moved aside but not removed (and why): the new files are
    /// in place all the same.
    pub left_over: Option<String>,
}

/// Writes files as the whole content of `dir`, all together or not at all: they are
/// written into a fresh folder beside `dir`, which then takes `dir`'s place. On any
/// failure the fresh folder is removed and `dir` stays byte for byte as it was. A
/// `dir` holding anything but sheets and previews (a note, a folder of one's own) is
/// not replaced: nothing of the reader's is removed.
pub fn write_all(dir: &Path, files: &[(&str, &[u8])]) -> Result<Replaced> {
    let parent =
        dir.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = dir
        .file_name()
        .with_context(|| format!("{} is not a folder name", dir.display()))?
        .to_string_lossy()
        .into_owned();
    refuse_foreign_entries(dir)?;
    fs::create_dir_all(parent).with_context(|| {
        format!("failed to create output folder {}", parent.display())
    })?;
    let pid = std::process::id();
    let fresh = parent.join(format!(".{name}.new-{pid}"));
    let old = parent.join(format!(".{name}.old-{pid}"));
    let result = (|| -> Result<Option<String>> {
        fs::create_dir(&fresh)
            .with_context(|| format!("failed to create {}", fresh.display()))?;
        for (file, bytes) in files {
            let path = fresh.join(file);
            // Previews go in a folder of their own inside the variant's.
            if let Some(folder) = path.parent().filter(|p| *p != fresh) {
                fs::create_dir_all(folder)
                    .with_context(|| format!("failed to create {}", folder.display()))?;
            }
            fs::write(&path, bytes)
                .with_context(|| format!("failed to write {}", path.display()))?;
        }
        swap_in(&fresh, dir, &old)
    })();
    if result.is_err() {
        let _ = fs::remove_dir_all(&fresh);
    }
    let left_over = result?;
    Ok(Replaced {
        paths: files.iter().map(|(file, _)| dir.join(file)).collect(),
        left_over,
    })
}

/// What a build writes in a variant folder: anything else there is the reader's.
fn is_output(entry: &fs::DirEntry) -> bool {
    let name = entry.file_name().to_string_lossy().into_owned();
    let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
    name.starts_with('.')
        || (is_dir && name == "preview")
        || (!is_dir && [".pdf", ".svg", ".png"].iter().any(|ext| name.ends_with(ext)))
}

/// An error naming what `dir` holds that no build wrote, if anything.
fn refuse_foreign_entries(dir: &Path) -> Result<()> {
    let Ok(entries) = fs::read_dir(dir) else { return Ok(()) };
    let mut foreign: Vec<String> = entries
        .flatten()
        .filter(|entry| !is_output(entry))
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    if foreign.is_empty() {
        return Ok(());
    }
    foreign.sort();
    let shown = foreign.iter().take(5).cloned().collect::<Vec<_>>().join(", ");
    bail!(
        "{} holds {shown}{}, which tablekit did not write; a build replaces the whole \
         folder, so nothing was changed: move {} elsewhere and build again",
        dir.display(),
        if foreign.len() > 5 {
            format!(" and {} more", foreign.len() - 5)
        } else {
            String::new()
        },
        if foreign.len() == 1 { "it" } else { "them" }
    )
}

/// Puts `fresh` in the place of `dir`, keeping the old folder at `old` until the new
/// one is in, and putting it back if that fails. Once the new folder is in, the old
/// one is removed; if that fails (a read-only folder inside, say), the build still
/// stands and the message says where the old one was left.
fn swap_in(fresh: &Path, dir: &Path, old: &Path) -> Result<Option<String>> {
    let had_old = dir.exists();
    if had_old {
        fs::rename(dir, old)
            .with_context(|| format!("failed to move {} aside", dir.display()))?;
    }
    if let Err(e) = fs::rename(fresh, dir) {
        if had_old {
            let _ = fs::rename(old, dir);
        }
        return Err(e)
            .with_context(|| format!("failed to move {} into place", dir.display()));
    }
    if !had_old {
        return Ok(None);
    }
    let removed = fs::remove_dir_all(old).or_else(|_| {
        // A folder made read-only inside is ours to open again, then remove.
        make_writable(old);
        fs::remove_dir_all(old)
    });
    Ok(removed.err().map(|e| {
        format!(
            "the earlier sheets could not be removed ({e}); they are in {}, which can be \
             deleted",
            old.display()
        )
    }))
}

/// Gives the owner write permission on `dir` and every folder in it (links not
/// followed), so that their entries can be removed.
fn make_writable(dir: &Path) {
    let Ok(meta) = fs::symlink_metadata(dir) else { return };
    if !meta.is_dir() {
        return;
    }
    let mut permissions = meta.permissions();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        permissions.set_mode(permissions.mode() | 0o700);
    }
    #[cfg(not(unix))]
    #[allow(clippy::permissions_set_readonly_false)]
    permissions.set_readonly(false);
    let _ = fs::set_permissions(dir, permissions);
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        make_writable(&entry.path());
    }
}

/// The environment variable that moves tablekit's configuration folder (tests, or a
/// setup kept on a USB stick); when it is unset or empty, the platform's usual place
/// is used (`~/.config/tablekit` on Linux, `~/Library/Application Support/tablekit`
/// on macOS, `%APPDATA%\tablekit` on Windows).
pub const CONFIG_DIR_ENV: &str = "TABLEKIT_CONFIG_DIR";

/// tablekit's configuration folder (it may not exist yet).
pub fn config_dir() -> Result<PathBuf> {
    if let Some(dir) = std::env::var_os(CONFIG_DIR_ENV).filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    match dirs::config_dir() {
        Some(dir) => Ok(dir.join("tablekit")),
        None => bail!(
            "this system has no configuration folder for tablekit: set {CONFIG_DIR_ENV} \
             to a folder to keep printer profiles in"
        ),
    }
}

/// The printer profiles kept in the configuration folder, and the file's path; none
/// when the file does not exist yet.
pub fn read_profiles() -> Result<(PathBuf, crate::calibrate::Profiles)> {
    let (path, text) = read_profiles_text()?;
    let profiles = crate::calibrate::Profiles::parse(&text, &path.display().to_string())
        .map_err(|e| anyhow::anyhow!(e))?;
    Ok((path, profiles))
}

/// The largest file read from the configuration folder: thousands of printers.
const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// The printer profiles file's path and text (empty when it does not exist yet).
pub fn read_profiles_text() -> Result<(PathBuf, String)> {
    read_config_text(crate::calibrate::PROFILES_FILE)
}

/// The settings (`config.toml`) and the file's path; all unset when there is none.
pub fn read_config() -> Result<(PathBuf, crate::config::Config)> {
    let (path, text) = read_config_text(crate::config::CONFIG_FILE)?;
    let config = crate::config::Config::parse(&text, &path.display().to_string())
        .map_err(|d| anyhow::anyhow!("{}", crate::config::bare(&d)))?;
    Ok((path, config))
}

/// A file of the configuration folder, its path and text (empty when it does not
/// exist yet): a regular file of at most `MAX_CONFIG_BYTES`, never a pipe or a
/// device.
pub fn read_config_text(name: &str) -> Result<(PathBuf, String)> {
    let path = config_dir()?.join(name);
    let Ok(meta) = fs::metadata(&path) else {
        return Ok((path, String::new()));
    };
    if !meta.is_file() {
        bail!("{} is not a file: remove it, or set {CONFIG_DIR_ENV}", path.display());
    }
    if meta.len() > MAX_CONFIG_BYTES {
        bail!(
            "{} is {} bytes: a configuration file has at most {MAX_CONFIG_BYTES}",
            path.display(),
            meta.len()
        );
    }
    let text = fs::read_to_string(&path)
        .with_context(|| format!("failed to read {}", path.display()))?;
    Ok((path, text))
}

/// Writes a file of the configuration folder (`printers.toml`, `config.toml`),
/// creating the folder if needed.
pub fn write_config_file(path: &Path, text: &str) -> Result<()> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)
            .with_context(|| format!("failed to create {}", dir.display()))?;
    }
    // Written beside, then renamed over: a failure leaves the old file whole.
    let fresh = path.with_extension(format!("toml.new-{}", std::process::id()));
    let written = fs::write(&fresh, text).and_then(|()| fs::rename(&fresh, path));
    if written.is_err() {
        let _ = fs::remove_file(&fresh);
    }
    written.with_context(|| format!("failed to write {}", path.display()))
}

/// Writes one file, creating its folder if needed.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)
            .with_context(|| format!("failed to create {}", dir.display()))?;
    }
    fs::write(path, bytes).with_context(|| format!("failed to write {}", path.display()))
}
