//! Measures the default build (every built-in kit, English, A4) in process:
//! `cargo bench`. Prints the time per build and per page; no assertions, because
//! timings belong in a benchmark, not in a test.

use std::time::{Duration, Instant};

/// The allocator the `tablekit` command uses (`src/main.rs`), so the figures match it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use tablekit::Paper;
use tablekit::pipeline::{Options, build};

fn main() {
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("kits");
    let kits: Vec<_> = tablekit::io::read_kits_dir(&shipped)
        .expect("kits/ reads")
        .iter()
        .map(|source| tablekit::pipeline::load(source).expect("built-in kit loads"))
        .collect();
    let build_all = || -> usize {
        kits.iter()
            .map(|kit| {
                let options = Options {
                    lang: "en".into(),
                    paper: Paper::a4(),
                    size: None,
                    cell: None,
                    calibration: None,
                    previews: Default::default(),
                    class: None,
                    cut: Default::default(),
                    large_print: false,
                    templates: tablekit::pipeline::builtin_templates(kit.game()),
                };
                let built = build(kit, &options).expect("built-in kit builds");
                built.outputs.iter().map(|o| o.pages).sum::<usize>()
            })
            .sum()
    };
    // The first build pays for parsing fonts and searching positions once.
    let started = Instant::now();
    let pages = build_all();
    let cold = started.elapsed();

    let rounds = 20;
    let started = Instant::now();
    for _ in 0..rounds {
        build_all();
    }
    let warm = started.elapsed() / rounds;
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!("default build: {} kit(s), {pages} pages", kits.len());
    println!("  first build (cold): {:8.1} ms", ms(cold));
    println!("  later builds (mean of {rounds}): {:8.1} ms", ms(warm));
    println!("  per page: {:8.2} ms", ms(warm) / pages as f64);
}
