//! The `tablekit` command; all the work is in the library (`crates/core`, whose
//! sources are the rest of `src/`). Only this crate carries the built-in kits, so an
//! edit under `kits/` recompiles it alone.

/// Layout builds and drops many small strings and vectors; mimalloc serves them
/// faster than the system allocator (measured with `cargo bench --bench build`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Every file of every kit folder under `kits/`, gathered by `build.rs`.
const BUILTIN_KITS: tablekit::io::EmbeddedKits =
    include!(concat!(env!("OUT_DIR"), "/builtin_kits.rs"));

/// The web page's words, by language (`kits/web/<lang>.toml`).
const PAGE_WORDS: tablekit::io::EmbeddedWords =
    include!(concat!(env!("OUT_DIR"), "/page_words.rs"));

fn main() -> std::process::ExitCode {
    tablekit::io::set_builtin_kits(BUILTIN_KITS);
    tablekit::io::set_page_words(PAGE_WORDS);
    tablekit::cli::run()
}
