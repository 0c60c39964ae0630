pub mod boards;
pub mod games;
pub mod pdf_probe;
pub mod server;
pub mod shared;

// The fifth game, compiled into the tests too: its rules' unit tests (the published
// perft counts of tic-tac-toe among them) run here, as the fixture program is not a
// test harness, and the shared tests that build in this process install its game
// ([`library_kits`]).
#[allow(dead_code)]
#[path = "../fixtures/fifth-game"]
mod fifth_game {
    pub mod figures;
    pub mod game;
    pub mod rules;
}

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::SystemTime;

/// The kit id of the fifth game, the fixture the shared tests build beside the
/// shipped kits.
pub const FIXTURE_KIT: &str = "three-in-a-row";

/// The game the fixture kit plays (`game = "…"` in its `kit.toml`).
pub const FIXTURE_GAME: &str = "three-in-a-row";

/// The folder of the fixture game (`tests/fixtures/fifth-game`).
fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fifth-game")
}

/// The program the shared tests run: the fifth-game fixture, the shipped command
/// with one game more and its kit built in (`cargo build --release --example
/// fifth-game`; a plain `cargo test --release` builds it). It must be newer than every
/// source it is built from, or the tests would read an old program's sheets.
pub fn fixture_program() -> &'static Path {
    static PROGRAM: OnceLock<PathBuf> = OnceLock::new();
    PROGRAM.get_or_init(|| {
        let shipped = Path::new(env!("CARGO_BIN_EXE_tablekit"));
        let name = format!("fifth-game{}", std::env::consts::EXE_SUFFIX);
        let program = shipped.parent().unwrap().join("examples").join(name);
        let built = std::fs::metadata(&program).and_then(|m| m.modified()).ok();
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let sources = ["src", "templates", "kits", "tests/fixtures/fifth-game"];
        let newest = sources.iter().filter_map(|dir| newest_in(&root.join(dir))).max();
        assert!(
            built.is_some_and(|built| newest.is_none_or(|newest| built >= newest)),
            "{} is missing or older than its sources: build it with `cargo build \
             --release --example fifth-game` (a plain `cargo test --release` builds it, \
             `cargo test --release --test tests` does not), then run the tests again",
            program.display()
        );
        program
    })
}

/// The latest change of any file under `dir`.
fn newest_in(dir: &Path) -> Option<SystemTime> {
    let mut newest = None;
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        let time = match path.is_dir() {
            true => newest_in(&path),
            false => entry.metadata().and_then(|m| m.modified()).ok(),
        };
        newest = newest.max(time);
    }
    newest
}

/// The fixture program ready to run with `args`, away from this computer's settings,
/// in a folder with no `kits/` (so that it builds its built-in kits, the fixture's
/// among them).
pub fn fixture(args: &[&str]) -> Command {
    let cwd = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fifth-game");
    std::fs::create_dir_all(&cwd).unwrap();
    let mut command = Command::new(fixture_program());
    command
        .current_dir(cwd)
        .env("TABLEKIT_CONFIG_DIR", concat!(env!("CARGO_TARGET_TMPDIR"), "/no-settings"))
        .args(args);
    command
}

/// Runs the fixture program with `args`, as `crate::cli::tablekit` runs the shipped
/// command: what a shared test that builds every listed kit runs.
pub fn tablekit(args: &[&str]) -> std::process::Output {
    fixture(args).output().expect("the fixture runs")
}

/// The folder of the kit `id` as the shared tests know it: under `kits/`, or the
/// fixture's own.
pub fn kit_dir(id: &str) -> PathBuf {
    match id {
        FIXTURE_KIT => fixture_dir().join("kit"),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("kits").join(id),
    }
}

/// The folder of the built-in templates of the game `game` as the shared tests know
/// it: under `templates/`, or the fixture's own.
pub fn templates_dir(game: &str) -> PathBuf {
    match game {
        FIXTURE_GAME => fixture_dir().join("templates"),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("templates").join(game),
    }
}

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

/// What a shared test that builds in this process reads: the shipped kits and the
/// fifth game's, with its game installed beside the built-in ones (once for the whole
/// test process, as the fixture program installs it at start-up). A test that
/// iterates the games in play calls this first.
pub fn library_kits() -> Vec<tablekit::kit::Source> {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        let games =
            tablekit::game::Games::builtin().with(&fifth_game::game::ThreeInARowKit);
        assert!(tablekit::game::install(games), "the games in play are installed once");
    });
    let fixture =
        tablekit::io::read_kit(&kit_dir(FIXTURE_KIT)).expect("the fixture kit reads");
    [shipped_kits(), vec![fixture]].concat()
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
