//! The `tablekit` command; all the work is in the library.

fn main() -> std::process::ExitCode {
    tablekit::cli::run()
}
