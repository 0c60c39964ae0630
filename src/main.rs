//! The `tablekit` command; all the work is in the library (`crates/core`, whose
//! sources are the rest of `src/`). Only this crate carries the built-in kits, so an
//! edit under `kits/` recompiles it alone. The start-up is `src/launch.rs`, shared
//! with the fifth-game test fixture.

mod launch;

/// Every file of every kit folder under `kits/`, gathered by `build.rs`.
const BUILTIN_KITS: tablekit::io::EmbeddedKits =
    include!(concat!(env!("OUT_DIR"), "/builtin_kits.rs"));

/// The web page's words, by language (`kits/web/<lang>.toml`).
const PAGE_WORDS: tablekit::io::EmbeddedWords =
    include!(concat!(env!("OUT_DIR"), "/page_words.rs"));

fn main() -> std::process::ExitCode {
    launch::run(BUILTIN_KITS, PAGE_WORDS, tablekit::game::Games::builtin())
}
