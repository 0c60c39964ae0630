//! The `tablekit` command; all the work is in the library.

/// Layout builds and drops many small strings and vectors; mimalloc serves them
/// faster than the system allocator (measured with `cargo bench --bench build`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    tablekit::cli::run()
}
