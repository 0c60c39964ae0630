//! Builds shared between tests. Most tests read a few sheets of one ordinary build,
//! and a `tablekit build` costs far more than reading its sheets back: each distinct
//! build runs once for the whole test binary, whichever test asks first, and every
//! other test that asks for it waits for that one and reads the same folder. The
//! folders are read-only by agreement: a test that writes into its output (a rebuild,
//! a folder made unwritable, a file removed) makes a build of its own.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use crate::support::games::{self, Kit};
use crate::support::pdf_probe::{self, Probe};

/// A finished build: the folder it wrote into and what it printed.
pub struct Built {
    dir: tempfile::TempDir,
    /// What the build printed on standard output (`wrote …` lines).
    pub stdout: String,
    /// What it printed on standard error (notes, such as a language that fell back).
    pub stderr: String,
}

impl Built {
    /// The `--out` folder of the build.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}

/// The build `tablekit build <args> --out <folder>`, run once per distinct `args` by
/// the fifth-game fixture (the shipped command with one game more, see
/// [`crate::support::fixture`]) and without `SOURCE_DATE_EPOCH`, so that the sheets
/// carry the kits' own dates.
///
/// Builds that differ only in how their arguments are written (`crossway --size 19
/// --paper letter` and `crossway --lang en --paper letter --size 19`) are one build.
pub fn build(args: &[&str]) -> &'static Built {
    type Cell = &'static OnceLock<Built>;
    static BUILDS: Mutex<BTreeMap<Vec<String>, Cell>> = Mutex::new(BTreeMap::new());
    let key = canonical(args);
    let args: Vec<&str> = key.iter().map(String::as_str).collect();
    let args = args.as_slice();
    // The map is held only to find the build's cell; the build itself runs outside
    // the lock, so that two different builds run side by side.
    let cell: Cell = *BUILDS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(key.clone())
        .or_insert_with(|| Box::leak(Box::new(OnceLock::new())));
    cell.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let out = crate::support::fixture(&["build"])
            .env_remove("SOURCE_DATE_EPOCH")
            .args(args)
            .arg("--out")
            .arg(dir.path())
            .output()
            .expect("tablekit runs");
        assert!(
            out.status.success(),
            "build {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
        Built { dir, stdout: text(&out.stdout), stderr: text(&out.stderr) }
    })
}

/// The options of `tablekit build` that take no value.
const FLAGS: [&str; 5] =
    ["--all-sizes", "--cut-file", "--cut-marks", "--landscape", "--large-print"];

/// `args` written one way: the kits named, then each option with its value, both
/// sorted, without the options that say what the build does anyway (English, A4, a
/// kit's default board size).
fn canonical(args: &[&str]) -> Vec<String> {
    let mut kits = Vec::new();
    let mut options: Vec<[&str; 2]> = Vec::new();
    let mut rest = args.iter().copied();
    while let Some(arg) = rest.next() {
        match arg {
            _ if FLAGS.contains(&arg) => options.push([arg, ""]),
            _ if arg.starts_with("--") => options.push([arg, rest.next().unwrap_or("")]),
            _ => kits.push(arg),
        }
    }
    // A kit read from another folder (`--kits`) may have another default size.
    let from_elsewhere = options.iter().any(|[option, _]| *option == "--kits");
    let default_size = match kits.as_slice() {
        [kit] if !from_elsewhere => {
            games::kits().iter().find(|k| k.id == *kit).map(|k| k.default_size)
        }
        _ => None,
    };
    options.retain(|option| match *option {
        ["--lang", "en"] | ["--paper", "a4"] => false,
        ["--size", size] => default_size.is_none_or(|d| size != d.to_string()),
        _ => true,
    });
    kits.sort();
    options.sort();
    let options = options.into_iter().flatten().filter(|part| !part.is_empty());
    kits.into_iter().chain(options).map(str::to_string).collect()
}

/// Every built-in kit in every language on A4 at its default size: the build most
/// tests read from.
pub fn every_language() -> &'static Built {
    build(&["--lang", "all"])
}

/// The players' folder of `kit` built in `lang` on `paper` at board size `size` with
/// no other option. On A4 at the kit's default size it is the folder of
/// [`every_language`]; otherwise a build of that one variant.
pub fn variant(kit: &str, lang: &str, paper: &str, size: u8) -> PathBuf {
    variant_built(kit, lang, paper, size).1
}

/// The build [`variant`] reads, and the players' folder in it.
pub fn variant_built(
    kit: &str,
    lang: &str,
    paper: &str,
    size: u8,
) -> (&'static Built, PathBuf) {
    let listed: &Kit = games::kit(kit);
    let name = listed.variant(lang, paper, size);
    let built = if paper == "a4" && size == listed.default_size {
        every_language()
    } else {
        let size = size.to_string();
        let mut args = vec![kit, "--lang", lang, "--paper", paper];
        if listed.several_sizes() {
            args.extend(["--size", &size]);
        }
        build(&args)
    };
    (built, built.dir().join(kit).join(name))
}

/// The names of the files `built` wrote for the variant whose players' folder is
/// `dir` (its host key beside it included), in the order the build wrote them.
pub fn written(built: &Built, dir: &Path) -> Vec<String> {
    let host = crate::support::host_dir(dir);
    built
        .stdout
        .lines()
        .filter_map(|l| l.strip_prefix("wrote "))
        .map(|l| Path::new(l.split(" (").next().unwrap()))
        .filter(|path| path.parent().is_some_and(|p| p == dir || p == host))
        .map(|path| path.file_name().unwrap().to_string_lossy().into_owned())
        .collect()
}

/// The folder of `kit` built in every language on `paper` at its default size: on A4
/// that of [`every_language`], otherwise a build of the kit alone.
pub fn kit_in_every_language(kit: &str, paper: &str) -> PathBuf {
    match paper {
        "a4" => every_language().dir().join(kit),
        _ => build(&[kit, "--lang", "all", "--paper", paper]).dir().join(kit),
    }
}

/// The PDF at `path`, read once: `path` must be in a shared build's folder, which no
/// test changes.
pub fn probe(path: &Path) -> &'static Probe {
    type Cell = &'static OnceLock<Probe>;
    static PROBES: Mutex<BTreeMap<PathBuf, Cell>> = Mutex::new(BTreeMap::new());
    let cell: Cell = *PROBES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(path.to_path_buf())
        .or_insert_with(|| Box::leak(Box::new(OnceLock::new())));
    cell.get_or_init(|| pdf_probe::load_file(path))
}

#[test]
fn a_build_is_known_by_what_it_builds_not_by_how_its_arguments_are_written() {
    let key = |args: &[&str]| canonical(args).join(" ");
    // Crossway's default board is 9×9; English and A4 are every build's defaults.
    let spelled_out = ["crossway", "--lang", "en", "--paper", "letter", "--size", "9"];
    assert_eq!(key(&spelled_out), "crossway --paper letter");
    assert_eq!(key(&["--paper", "letter", "crossway"]), "crossway --paper letter");
    assert_eq!(key(&["crossway", "--size", "19"]), "crossway --size 19");
    // Flags take no value, and kits are sorted wherever they stand.
    let flags = ["--cut-file", "crossway", "--lang", "ar", "three-men-slide"];
    assert_eq!(key(&flags), "crossway three-men-slide --cut-file --lang ar");
    // With two kits, or a kit from another folder, no size is known to be a default.
    let two = ["pathstone", "crossway", "--size", "9"];
    assert_eq!(key(&two), "crossway pathstone --size 9");
    let elsewhere = ["crossway", "--kits", "k", "--size", "9"];
    assert_eq!(key(&elsewhere), "crossway --kits k --size 9");
}

#[test]
fn the_options_read_as_flags_are_those_build_takes_without_a_value() {
    let help = crate::support::tablekit(&["build", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    // `      --landscape   Turn the paper…`, against `      --lang <LANG>   …`.
    let mut flags: Vec<&str> = help
        .lines()
        .filter_map(|line| line.trim_start().strip_prefix("--"))
        .map(|rest| rest.split_whitespace().collect::<Vec<_>>())
        .filter(|words| words.get(1).is_none_or(|next| !next.starts_with('<')))
        .map(|words| words[0])
        .filter(|name| *name != "help")
        .collect();
    flags.sort();
    let mut listed: Vec<&str> =
        FLAGS.iter().map(|f| f.trim_start_matches("--")).collect();
    listed.sort();
    assert!(!flags.is_empty(), "no option in `build --help`:\n{help}");
    assert_eq!(listed, flags, "`build --help` lists these flags:\n{help}");
}
