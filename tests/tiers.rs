//! The suite's two tiers. `cargo test --release` is the default tier: unit tests and
//! each property checked on one kit, language, size or paper, quick enough to run after
//! every edit. The full tier is the integration tests ignored with the reason below:
//! the whole language × size × paper × kit matrix, the tests that run `check` (which
//! builds every variant itself), those that wait out a time limit and the one that
//! drives a real browser. `.ci/run` runs
//! both, the full tier as `cargo test --release --test tests -- --ignored`, and the
//! library's unit tests of the full tier, each in a module `full_tier`, by that name;
//! the library's other ignored unit tests (deep perft, every f32) are run by hand.

use std::fs;
use std::path::Path;

/// The only reason an integration test may be ignored for.
const FULL_TIER: &str = r#"= "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]"#;

/// The command `.ci/run` runs the full tier with.
const FULL_TIER_COMMAND: &str = "cargo test --release --test tests -- --ignored";

/// The reason a library unit test of the full tier is ignored for.
const LIBRARY_FULL_TIER: &str = r#"= "full tier: run by .ci/run, or cargo test --release -p tablekit-core -- --ignored full_tier::"]"#;

/// The command `.ci/run` runs the library's share of the full tier with: the ignored
/// tests whose path has a module `full_tier`.
const LIBRARY_FULL_TIER_COMMAND: &str =
    "cargo test --release -p tablekit-core -- --ignored full_tier::";

#[test]
fn every_ignored_integration_test_is_in_the_full_tier_which_ci_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Written in two pieces so that this file does not match itself.
    let attribute = concat!("#[", "ignore");
    let mut full = 0;
    for (path, text) in rust_files(&root.join("tests")) {
        for (n, line) in text.lines().enumerate() {
            let Some(rest) = line.trim().strip_prefix(attribute) else { continue };
            assert_eq!(
                rest.trim(),
                FULL_TIER,
                "{}:{}: an integration test ignored for another reason would be \
                     run by .ci/run all the same",
                path.display(),
                n + 1
            );
            full += 1;
        }
    }
    assert!(full > 0, "no test in the full tier");
    let ci = fs::read_to_string(root.join(".ci/run")).unwrap();
    let runs = ci.lines().any(|l| l.trim() == FULL_TIER_COMMAND);
    assert!(runs, ".ci/run does not run the full tier ({FULL_TIER_COMMAND})");
}

#[test]
fn every_library_test_of_the_full_tier_is_in_a_full_tier_module_which_ci_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Written in pieces so that this file does not match itself.
    let attribute = concat!("#[", "ignore");
    let module = concat!("mod ", "full_tier {");
    let mut full = 0;
    for (path, text) in rust_files(&root.join("src")) {
        let mut in_module = false;
        for (n, line) in text.lines().enumerate() {
            in_module |= line.trim() == module;
            let Some(rest) = line.trim().strip_prefix(attribute) else { continue };
            if !rest.trim_start_matches([' ', '=', '"']).starts_with("full tier") {
                continue;
            }
            let place = format!("{}:{}", path.display(), n + 1);
            assert_eq!(rest.trim(), LIBRARY_FULL_TIER, "{place}");
            // Only the filter `full_tier::` selects it for .ci/run.
            assert!(in_module, "{place}: a full-tier test outside a `full_tier` module");
            full += 1;
        }
    }
    assert!(full > 0, "no library test in the full tier");
    let ci = fs::read_to_string(root.join(".ci/run")).unwrap();
    let runs = ci.lines().any(|l| l.trim() == LIBRARY_FULL_TIER_COMMAND);
    assert!(runs, ".ci/run does not run the library's full tier");
}

/// Every Rust file under `dir`, with its text.
fn rust_files(dir: &Path) -> Vec<(std::path::PathBuf, String)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = fs::read_to_string(&path).unwrap();
                files.push((path, text));
            }
        }
    }
    files
}
