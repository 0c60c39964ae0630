//! A fuzzing harness over kits: the shipped kits, mutated at random (their TOML, their
//! strings and their templates), loaded and built in process. No input may panic, and
//! every refusal names a file. It runs briefly in the suite (`FUZZ_CASES`, default
//! 6 per target, and 54 more in the full tier); for a longer run:
//!
//! ```text
//! FUZZ_CASES=5000 cargo test --release fuzz -- --nocapture
//! ```

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use tablekit::Paper;
use tablekit::kit::Source;
use tablekit::pipeline::{Options, build};

/// How many cases each target runs: `FUZZ_CASES`, else `default`.
fn cases(default: u32) -> u32 {
    std::env::var("FUZZ_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(default)
}

/// Cases per target in the default tier, and in the full tier, which runs every
/// target again at greater length; together, as many cases as before the default
/// tier was made quick.
const QUICK: u32 = 3;
const FULL: u32 = 57;

/// Text a hostile author might type: markup, placeholders, controls, bidi marks,
/// huge numbers, long words.
fn nasty() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("\n@diagrams practice:end\n".to_string()),
        Just("{part}".to_string()),
        Just("{practice.moves}".to_string()),
        Just("{".to_string()),
        Just("}".to_string()),
        Just("\u{0007}".to_string()),
        Just("\u{202E}".to_string()),
        Just("\u{FFFF}".to_string()),
        Just("# ".to_string()),
        Just("{{ t.host.title }}".to_string()),
        Just("{% for i in range(end=100) %}x{% endfor %}".to_string()),
        Just("4294967295".to_string()),
        Just("-1".to_string()),
        Just("1e308".to_string()),
        Just("0.001".to_string()),
        Just("nan".to_string()),
        Just("\"".to_string()),
        Just("[[example]]\n".to_string()),
        "[a-z]{150}",
        "\\PC{0,12}",
    ]
}

/// The text with `insert` put at a character boundary near `at` (a fraction), and
/// `cut` characters removed there.
fn mutate(text: &str, at: f64, cut: usize, insert: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let i = ((chars.len() as f64) * at) as usize;
    let i = i.min(chars.len());
    let end = (i + cut).min(chars.len());
    let mut out: String = chars[..i].iter().collect();
    out.push_str(insert);
    out.extend(&chars[end..]);
    out
}

/// Loads and builds `source` in English (and Arabic, if it has it) on A4; panics
/// are the failures this harness looks for.
fn run(source: &Source) -> Result<(), TestCaseError> {
    let kit = match tablekit::pipeline::load(source) {
        Ok(kit) => kit,
        Err(diags) => {
            prop_assert!(
                diags.iter().all(|d| !d.file.is_empty()),
                "a refusal names no file"
            );
            return Ok(());
        }
    };
    for lang in ["en", "ar"] {
        let options = Options {
            lang: lang.into(),
            paper: Paper::a4(),
            size: None,
            cell: None,
            calibration: None,
            previews: Default::default(),
            class: None,
            cut: Default::default(),
            large_print: false,
            templates: tablekit::pipeline::builtin_templates(kit.game()).with_overrides(
                &source
                    .files
                    .iter()
                    .filter_map(|(path, text)| {
                        let name =
                            path.strip_prefix("templates/")?.strip_suffix(".tera")?;
                        Some((name.to_string(), (path.clone(), text.clone())))
                    })
                    .collect(),
            ),
        };
        if let Err(diags) = build(&kit, &options) {
            prop_assert!(
                diags.iter().all(|d| !d.file.is_empty()),
                "a refusal names no file"
            );
        }
    }
    Ok(())
}

/// Runs `cases(count)` mutations of one file of every built-in kit.
fn fuzz_file(
    file: &'static str,
    extra: Option<(&'static str, &'static str)>,
    count: u32,
) {
    let kits = crate::support::library_kits();
    let mut runner = TestRunner::new(Config { cases: cases(count), ..Config::default() });
    let strategy = (0..kits.len(), 0.0..1.0f64, 0..8usize, nasty());
    runner
        .run(&strategy, |(k, at, cut, insert)| {
            let mut source = kits[k].clone();
            if let Some((path, text)) = extra {
                source.files.insert(path.to_string(), text.to_string());
            }
            let text = source.files.get(file).cloned().unwrap_or_default();
            source.files.insert(file.to_string(), mutate(&text, at, cut, &insert));
            run(&source)
        })
        .unwrap();
}

/// The files mutated: kit.toml, the English and Arabic strings, and a template the
/// kit brings (one that draws the board and its legend).
const TARGETS: [(&str, Option<(&str, &str)>); 4] = [
    ("kit.toml", None),
    ("lang/en.toml", None),
    ("lang/ar.toml", None),
    (
        "templates/board.tera",
        Some((
            "templates/board.tera",
            "# {{ t.board.title }}\n@board\n{{ t.board.legend }}\n",
        )),
    ),
];

#[test]
fn fuzz_kit_toml() {
    fuzz_file(TARGETS[0].0, TARGETS[0].1, QUICK);
}

#[test]
fn fuzz_english_strings() {
    fuzz_file(TARGETS[1].0, TARGETS[1].1, QUICK);
}

#[test]
fn fuzz_arabic_strings() {
    fuzz_file(TARGETS[2].0, TARGETS[2].1, QUICK);
}

#[test]
fn fuzz_a_kit_template() {
    fuzz_file(TARGETS[3].0, TARGETS[3].1, QUICK);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn fuzz_every_target_at_full_length() {
    for (file, extra) in TARGETS {
        fuzz_file(file, extra, FULL);
    }
}
