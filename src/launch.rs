//! The start-up every `tablekit` program shares: the allocator, the render sandbox's
//! worker, the kits and words it carries and the games it plays. The shipped command
//! (`src/main.rs`) and the fifth-game fixture (`tests/fixtures/fifth-game/main.rs`)
//! include this file by path, so that both start alike and nothing is copied.

use std::alloc::{GlobalAlloc, Layout};
use std::process::ExitCode;
use std::sync::atomic::{AtomicIsize, Ordering::Relaxed};

use tablekit::game::Games;
use tablekit::io::{EmbeddedKits, EmbeddedWords};
use tablekit::sandbox;

/// Layout builds and drops many small strings and vectors; mimalloc serves them
/// faster than the system allocator (measured with `cargo bench --bench build`).
/// In a render worker the heap is capped ([`Ceiling`]).
#[global_allocator]
static ALLOCATOR: Ceiling = Ceiling;

/// Runs the program: a render worker when started as one, else the command line
/// with `kits` built in, the web page's `words` and `games` in play.
pub fn run(kits: EmbeddedKits, words: EmbeddedWords, games: Games) -> ExitCode {
    if std::env::args_os().nth(1).is_some_and(|arg| arg == sandbox::WORKER_ARG) {
        CEILING.store(sandbox::HEAP_CEILING_BYTES as isize, Relaxed);
        return sandbox::serve_renders();
    }
    if let Ok(program) = std::env::current_exe() {
        sandbox::run_renders_in(program);
    }
    tablekit::io::set_builtin_kits(kits);
    tablekit::io::set_page_words(words);
    tablekit::cli::run_with(games)
}

/// mimalloc with an optional cap on the bytes held: an allocation past the cap
/// fails, and the process ends (Rust aborts when memory runs out). Only a render
/// worker sets the cap, so a kit's template can exhaust nothing but its own process.
struct Ceiling;

/// The cap in bytes; 0 for none.
static CEILING: AtomicIsize = AtomicIsize::new(0);
/// Bytes held since the cap was set (frees of older blocks may take it below 0).
static HELD: AtomicIsize = AtomicIsize::new(0);

/// Counts `bytes` more as held, unless that passes the cap.
fn take(bytes: usize) -> bool {
    let ceiling = CEILING.load(Relaxed);
    if ceiling == 0 {
        return true;
    }
    let bytes = bytes as isize;
    if HELD.fetch_add(bytes, Relaxed) + bytes > ceiling {
        HELD.fetch_sub(bytes, Relaxed);
        return false;
    }
    true
}

fn give_back(bytes: usize) {
    if CEILING.load(Relaxed) != 0 {
        HELD.fetch_sub(bytes as isize, Relaxed);
    }
}

// SAFETY: every call goes to mimalloc with the caller's own arguments; the counting
// around it only decides whether to fail an allocation, which callers must handle.
unsafe impl GlobalAlloc for Ceiling {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !take(layout.size()) {
            return std::ptr::null_mut();
        }
        unsafe { mimalloc::MiMalloc.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !take(layout.size()) {
            return std::ptr::null_mut();
        }
        unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        give_back(layout.size());
        unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old = layout.size();
        if new_size > old && !take(new_size - old) {
            return std::ptr::null_mut();
        }
        let moved = unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) };
        if moved.is_null() {
            give_back(new_size.saturating_sub(old));
        } else if new_size < old {
            give_back(old - new_size);
        }
        moved
    }
}
