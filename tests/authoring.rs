//! Authoring without Rust: kits that survive upgrades, honest translation counts, a
//! new kit from a built-in one, the settings file, completions, the manual page,
//! the schemas and the examples in every `--help`.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use crate::cli::{copy_of, stderr, stdout};
use crate::support::pdf_probe;

/// Runs tablekit in `dir` with its own (empty) configuration folder.
fn tablekit_in(dir: &Path, config: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tablekit"))
        .current_dir(dir)
        .env("TABLEKIT_CONFIG_DIR", config)
        .args(args)
        .output()
        .expect("tablekit runs")
}

fn run(args: &[&str]) -> Output {
    let tmp = tempfile::tempdir().unwrap();
    tablekit_in(Path::new(env!("CARGO_MANIFEST_DIR")), &tmp.path().join("config"), args)
}

/// Removes `key` (`[section]` then `name = …` on one line) from a strings file.
fn without_key(text: &str, section: &str, name: &str) -> String {
    let mut in_section = false;
    let mut out = String::new();
    for line in text.lines() {
        if line.starts_with('[') {
            in_section = line.trim() == format!("[{section}]");
        }
        let dropped = in_section && line.starts_with(&format!("{name} ="));
        if !dropped {
            out.push_str(line);
            out.push('\n');
        }
    }
    assert_ne!(out.len(), text.len() + 1, "{section}.{name} was in the file");
    out
}

#[test]
fn a_kit_from_the_previous_release_builds_unchanged_in_english_and_french() {
    previous_release_builds(&["en", "fr"], false);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn a_kit_from_the_previous_release_builds_unchanged_in_every_language() {
    previous_release_builds(&["all"], true);
}

/// The previous release's Stack-top kit builds in `langs` (and passes `check` if
/// `checked`), the game's own words filling in a key that came later.
fn previous_release_builds(langs: &[&str], checked: bool) {
    let tmp = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/previous-release/stack-top-roads");
    let out = tmp.path().join("out");
    for lang in langs {
        let args = ["build", fixture.to_str().unwrap(), "--lang", lang, "--out"];
        let built = run(&[&args[..], &[out.to_str().unwrap()]].concat());
        assert!(built.status.success(), "{}", stderr(&built));
    }
    // The ledger's action note came after that release: the game's own text fills in.
    let ledger = pdf_probe::load_file(&out.join("stack-top-roads/en-a4/ledger.pdf"));
    assert!(ledger.text().contains("In the Action column"), "{}", ledger.text());
    let french = pdf_probe::load_file(&out.join("stack-top-roads/fr-a4/ledger.pdf"));
    assert!(!french.text().contains("In the Action column"), "French, not English");
    if checked {
        let checked = run(&["check", fixture.to_str().unwrap()]);
        assert!(checked.status.success(), "{}", stderr(&checked));
    }
}

#[test]
fn a_key_removed_from_every_strings_file_falls_back_to_the_game_s_own_words() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = copy_of("stack-top-roads", tmp.path());
    for entry in fs::read_dir(kit.join("lang")).unwrap() {
        let path = entry.unwrap().path();
        let text = fs::read_to_string(&path).unwrap();
        fs::write(&path, without_key(&text, "rules", "helpers")).unwrap();
    }
    let out = tmp.path().join("out");
    let args =
        ["build", kit.to_str().unwrap(), "--lang", "all", "--out", out.to_str().unwrap()];
    let built = run(&args);
    assert!(built.status.success(), "{}", stderr(&built));
    let card = pdf_probe::load_file(&out.join("stack-top-roads/en-a4/rule-card.pdf"));
    assert!(card.text().contains("An adult may prepare the pieces"), "{}", card.text());
    assert!(!stderr(&built).contains("used English"), "{}", stderr(&built));
}

#[test]
fn every_string_a_template_lacks_is_listed_in_one_run() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = copy_of("stack-top-roads", tmp.path());
    fs::create_dir_all(kit.join("templates")).unwrap();
    let template = "# {{ t.rules.title }}\n{{ t.rules.first_new }}\n\n\
                    {{ t.rules.second_new }}\n\n{{ t.extra.third_new }}\n";
    fs::write(kit.join("templates/rule-card.tera"), template).unwrap();
    let out = tmp.path().join("out");
    for args in [
        vec!["check", kit.to_str().unwrap()],
        vec![
            "build",
            kit.to_str().unwrap(),
            "--lang",
            "all",
            "--out",
            out.to_str().unwrap(),
        ],
    ] {
        let result = run(&args);
        assert_eq!(result.status.code(), Some(1), "{}", stderr(&result));
        let text = stderr(&result);
        for (key, line) in
            [("rules.first_new", 2), ("rules.second_new", 4), ("extra.third_new", 6)]
        {
            let told =
                format!("the template prints `t.{key}`, which no strings file defines");
            assert_eq!(text.matches(&told).count(), 1, "{key} once: {text}");
            assert!(
                text.contains(&format!("templates/rule-card.tera:{line}:4")),
                "{text}"
            );
        }
        assert!(text.contains("3 problems found"), "{text}");
        assert!(!text.contains("Field"), "no raw template engine error: {text}");
    }
    assert!(!out.exists(), "a failed build writes nothing");
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn a_strings_file_copied_from_english_counts_as_untranslated() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = copy_of("stack-top-roads", tmp.path());
    fs::copy(kit.join("lang/en.toml"), kit.join("lang/pt.toml")).unwrap();
    let kits = tmp.path().to_str().unwrap();
    let listed = run(&["list", "--kits", kits]);
    let languages = stdout(&listed);
    assert!(languages.contains("pt 0% ("), "{languages}");
    assert!(languages.contains("fr 100%"), "{languages}");
    let checked = run(&["check", kit.to_str().unwrap()]);
    assert!(checked.status.success(), "{}", stderr(&checked));
    assert!(stdout(&checked).contains("pt 0%"), "{}", stdout(&checked));
    let strict = run(&["check", "--strict", kit.to_str().unwrap()]);
    assert_eq!(strict.status.code(), Some(1), "{}", stderr(&strict));
    assert!(stderr(&strict).contains("`pt` is 0% translated"), "{}", stderr(&strict));
    // Marked the same on purpose, a copied text counts as translated.
    let mut marked = fs::read_to_string(kit.join("lang/en.toml")).unwrap();
    marked.insert_str(0, "same_as_english = [\"common.game_title\"]\n");
    fs::write(kit.join("lang/pt.toml"), marked).unwrap();
    let listed = stdout(&run(&["list", "--kits", kits]));
    assert!(listed.contains("as in English"), "{listed}");
    let copied = |text: &str| -> u32 {
        let pt = text.split("pt ").nth(1).unwrap();
        pt.split('(').nth(1).unwrap().split(' ').next().unwrap().parse().unwrap()
    };
    assert_eq!(copied(&languages), copied(&listed) + 1, "{listed}");
    // The shipped translations are complete by this count too.
    let shipped = run(&["check", "--strict"]);
    assert!(shipped.status.success(), "{}", stderr(&shipped));
}

#[test]
fn a_new_kit_is_made_from_a_built_in_one_and_never_over_a_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("config");
    let made = tablekit_in(
        tmp.path(),
        &config,
        &["new", "my-roads", "--from", "stack-top-roads"],
    );
    assert!(made.status.success(), "{}", stderr(&made));
    let kit_toml = fs::read_to_string(tmp.path().join("my-roads/kit.toml")).unwrap();
    assert!(kit_toml.contains("id = \"my-roads\""), "{kit_toml}");
    assert!(kit_toml.contains("# Stack-top roads"), "comments kept: {kit_toml}");
    assert!(tmp.path().join("my-roads/lang/fr.toml").is_file());
    fs::write(tmp.path().join("my-roads/lang/en.toml.keep"), "mine").ok();
    let again =
        tablekit_in(tmp.path(), &config, &["new", "my-roads", "--from", "pathstone"]);
    assert_eq!(again.status.code(), Some(2));
    assert!(stderr(&again).contains("already exists"), "{}", stderr(&again));
    let unchanged = fs::read_to_string(tmp.path().join("my-roads/kit.toml")).unwrap();
    assert_eq!(unchanged, kit_toml);
    let bad = tablekit_in(tmp.path(), &config, &["new", "../up", "--from", "pathstone"]);
    assert_eq!(bad.status.code(), Some(2));
    fs::remove_file(tmp.path().join("my-roads/lang/en.toml.keep")).ok();
    let built =
        tablekit_in(tmp.path(), &config, &["build", "./my-roads", "--out", "out"]);
    assert!(built.status.success(), "{}", stderr(&built));
    assert!(tmp.path().join("out/my-roads/en-a4/rule-card.pdf").is_file());
}

#[test]
fn settings_give_the_defaults_and_the_command_line_wins() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("config");
    let project = Path::new(env!("CARGO_MANIFEST_DIR"));
    let set = tablekit_in(project, &config, &["config", "lang", "fr"]);
    assert!(set.status.success(), "{}", stderr(&set));
    let set = tablekit_in(project, &config, &["config", "paper", "letter"]);
    assert!(set.status.success(), "{}", stderr(&set));
    let shown = stdout(&tablekit_in(project, &config, &["config"]));
    assert!(shown.contains("lang       fr         set in config.toml"), "{shown}");
    assert!(shown.contains("printer    none       default"), "{shown}");
    let out = tmp.path().join("out");
    let out = out.to_str().unwrap();
    let built =
        tablekit_in(project, &config, &["build", "three-men-slide", "--out", out]);
    assert!(built.status.success(), "{}", stderr(&built));
    assert!(tmp.path().join("out/three-men-slide/fr-letter/board.pdf").is_file());
    let args =
        ["build", "three-men-slide", "--lang", "de", "--paper", "a4", "--out", out];
    assert!(tablekit_in(project, &config, &args).status.success());
    assert!(tmp.path().join("out/three-men-slide/de-a4/board.pdf").is_file());
    // A setting no paper can be is refused where it stands, and the file is kept.
    let refused = tablekit_in(project, &config, &["config", "paper", "b9"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(fs::read_to_string(config.join("config.toml")).unwrap().contains("letter"));
    fs::write(config.join("config.toml"), "# ours\nlang = \"fr\"\npaper = 12\n").unwrap();
    let broken =
        tablekit_in(project, &config, &["build", "three-men-slide", "--out", out]);
    assert_eq!(broken.status.code(), Some(2));
    assert!(stderr(&broken).contains("config.toml:3:9"), "{}", stderr(&broken));
}

#[test]
fn completions_manual_and_schemas_are_printed() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let script = run(&["completions", shell]);
        assert!(script.status.success(), "{shell}: {}", stderr(&script));
        let text = stdout(&script);
        assert!(text.contains("tablekit") && text.contains("players"), "{shell}");
    }
    let man = stdout(&run(&["man"]));
    assert!(man.starts_with(".ie") || man.contains(".TH tablekit"), "{}", &man[..200]);
    for page in ["tablekit-build", "tablekit-check", "tablekit-rules", "tablekit-new"] {
        assert!(man.contains(&format!(".TH {page}")), "{page}");
    }
    let kit: serde_json::Value =
        serde_json::from_str(&stdout(&run(&["schema", "kit"]))).unwrap();
    let properties = &kit["properties"];
    for key in ["id", "game", "sheets", "board", "pieces", "example"] {
        assert!(properties.get(key).is_some(), "kit.toml schema has {key}: {kit}");
    }
    assert_eq!(kit["additionalProperties"], serde_json::json!(false));
    let strings = stdout(&run(&["schema", "strings", "--game", "stack-top-roads"]));
    let strings: serde_json::Value = serde_json::from_str(&strings).unwrap();
    let title = &strings["properties"]["rules"]["properties"]["title"];
    assert_eq!(title["type"], "string", "{strings}");
    assert_eq!(title["description"], "Rule card");
    let unknown = run(&["schema", "strings", "--game", "chess"]);
    assert_eq!(unknown.status.code(), Some(2));
}

#[test]
fn every_command_s_help_ends_with_examples() {
    let commands: &[&[&str]] = &[
        &[],
        &["build"],
        &["calibrate"],
        &["check"],
        &["list"],
        &["serve"],
        &["rules"],
        &["rules", "moves"],
        &["rules", "perft"],
        &["rules", "apply"],
        &["rules", "puzzles"],
        &["completions"],
        &["man"],
        &["config"],
        &["schema"],
        &["new"],
    ];
    for command in commands {
        let mut args = command.to_vec();
        args.push("--help");
        let help = stdout(&run(&args));
        let tail: Vec<&str> = help
            .trim_end()
            .lines()
            .rev()
            .take_while(|l| l.starts_with("  tablekit"))
            .collect();
        assert!((2..=3).contains(&tail.len()), "{command:?}: {help}");
        assert!(help.contains("Examples:"), "{command:?}");
    }
    // Every argument of `rules` says what it is.
    let moves = stdout(&run(&["rules", "moves", "--help"]));
    for (argument, says) in [("<GAME>", "The game"), ("<POSITION>", "The position")] {
        let line = moves.lines().find(|l| l.trim_start().starts_with(argument)).unwrap();
        assert!(line.contains(says), "{moves}");
    }
}

#[test]
fn a_decimal_comma_is_read_as_a_point() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().to_str().unwrap();
    let comma =
        run(&["build", "three-men-slide", "--measured", "99,2x100,6", "--out", out]);
    assert!(comma.status.success(), "{}", stderr(&comma));
    let point =
        run(&["build", "three-men-slide", "--measured", "99.2x100.6", "--out", out]);
    let folders = |o: &Output| -> Vec<String> {
        stdout(o)
            .lines()
            .filter_map(|l| l.split('/').nth_back(1).map(str::to_string))
            .collect()
    };
    assert_eq!(folders(&comma), folders(&point));
}

#[test]
fn the_4x4_variant_builds_with_its_own_size_and_stones_verified_by_the_rules() {
    let tmp = tempfile::tempdir().unwrap();
    let project = Path::new(env!("CARGO_MANIFEST_DIR"));
    let example = project.join("examples/stack-top-roads-4x4");
    let out = tmp.path().join("out");
    let built =
        run(&["build", example.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(built.status.success(), "{}", stderr(&built));
    let folder = out.join("stack-top-roads-4x4/en-a4");
    let card = pdf_probe::load_file(&folder.join("rule-card.pdf")).text();
    assert!(card.contains("each start with 10 flat stones"), "{card}");
    assert!(card.contains("an empty 4×4 board"), "{card}");
    assert!(card.contains("after 60 turns"), "{card}");
    let board = pdf_probe::load_file(&folder.join("board.pdf"));
    assert!(board.text().contains("A to D"), "{}", board.text());
    let ledger = pdf_probe::load_file(&folder.join("ledger.pdf")).text();
    assert!(ledger.contains("White stones (10)"), "{ledger}");
    // The examples are the rules' own at 4×4: a 3×3 position is refused there.
    let broken = tmp.path().join("broken");
    fs::create_dir_all(broken.join("lang")).unwrap();
    for file in ["kit.toml", "lang/en.toml"] {
        fs::copy(example.join(file), broken.join(file)).unwrap();
    }
    let kit = fs::read_to_string(example.join("kit.toml")).unwrap();
    let three = kit.replacen("x4/x4/x,2,x2/21,x3 1 3", "x3/x,2,x/21,x2 1 3", 1);
    fs::write(broken.join("kit.toml"), three).unwrap();
    let refused = run(&["check", broken.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(1), "{}", stderr(&refused));
    // Numbers the rules do not play are refused where they stand.
    for (from, to, said) in [
        ("carry-limit = 3", "carry-limit = 5", "`carry-limit` is 1 to 4"),
        ("stones = 10", "stones = 10\ncrowns = 1", "`crowns` has no effect"),
        ("turn-limit = 60", "turn-limit = 5", "`turn-limit` is 10 to 200"),
    ] {
        fs::write(broken.join("kit.toml"), kit.replacen(from, to, 1)).unwrap();
        let refused = run(&["check", broken.to_str().unwrap()]);
        assert_eq!(refused.status.code(), Some(1), "{to}");
        assert!(stderr(&refused).contains(said), "{to}: {}", stderr(&refused));
        assert!(stderr(&refused).contains("kit.toml:"), "{}", stderr(&refused));
    }
}
