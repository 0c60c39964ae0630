//! The command line end to end: builds, checks, the rules queries, and every kind of
//! bad input a kit author or a script can give it (each must end in a message, never
//! a panic).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const KIT: &str = "three-men-slide";

/// Runs tablekit in the project folder with `args`, away from this computer's own
/// settings (a `config.toml` there would change the defaults).
pub fn tablekit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tablekit"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("TABLEKIT_CONFIG_DIR", concat!(env!("CARGO_TARGET_TMPDIR"), "/no-settings"))
        .args(args)
        .output()
        .expect("tablekit runs")
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A copy of the shipped kit in a temporary folder, to break on purpose.
pub fn kit_copy(dir: &Path) -> PathBuf {
    copy_of(KIT, dir)
}

/// A copy of the shipped kit `kit` (its kit.toml and strings) in `dir`.
pub fn copy_of(kit: &str, dir: &Path) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("kits").join(kit);
    let dst = dir.join(kit);
    fs::create_dir_all(dst.join("lang")).unwrap();
    fs::copy(src.join("kit.toml"), dst.join("kit.toml")).unwrap();
    for entry in fs::read_dir(src.join("lang")).unwrap() {
        let entry = entry.unwrap();
        fs::copy(entry.path(), dst.join("lang").join(entry.file_name())).unwrap();
    }
    dst
}

/// Replaces `from` by `to` in a kit file, failing loudly if `from` is not there.
pub fn edit(file: &Path, from: &str, to: &str) {
    let text = fs::read_to_string(file).unwrap();
    assert!(text.contains(from), "{from:?} not in {}", file.display());
    fs::write(file, text.replacen(from, to, 1)).unwrap();
}

/// Builds the kit at `kit` into `out` in English on A4.
pub fn build_into(kit: &Path, out: &Path) -> Output {
    tablekit(&["build", kit.to_str().unwrap(), "--out", out.to_str().unwrap()])
}

fn variant_dir(out: &Path) -> PathBuf {
    out.join(KIT).join("en-a4")
}

fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (e.file_name().into_string().unwrap(), fs::read(e.path()).unwrap())
        })
        .collect();
    files.sort();
    files
}

#[test]
fn build_with_no_arguments_builds_every_kit_and_reports_each_file() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tablekit(&["build", "--out", tmp.path().to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for sheet in
        ["contents", "board", "counters", "repetition-log", "rule-card", "host-key"]
    {
        let line = text
            .lines()
            .find(|l| {
                let folder = if sheet == "host-key" { "en-a4-host" } else { "en-a4" };
                l.contains(&format!("{folder}/{sheet}.pdf"))
            })
            .unwrap_or_else(|| panic!("no line for {sheet} in:\n{text}"));
        assert!(line.starts_with("wrote ") && line.contains(" page"), "{line}");
    }
    let names: Vec<String> =
        snapshot(&variant_dir(tmp.path())).into_iter().map(|f| f.0).collect();
    assert_eq!(
        names,
        [
            "board.pdf",
            "contents.pdf",
            "counters.pdf",
            "quick-start.pdf",
            "repetition-log.pdf",
            "rule-card.pdf"
        ]
    );
    // The host key is in its own folder beside the players'.
    let host: Vec<String> = snapshot(&tmp.path().join(KIT).join("en-a4-host"))
        .into_iter()
        .map(|f| f.0)
        .collect();
    assert_eq!(host, ["host-key.pdf"]);
}

#[test]
fn build_a_named_variant_by_id_or_path() {
    let tmp = tempfile::tempdir().unwrap();
    let out_dir = tmp.path().to_str().unwrap();
    let by_id =
        tablekit(&["build", KIT, "--lang", "fr", "--paper", "letter", "--out", out_dir]);
    assert!(by_id.status.success(), "{}", stderr(&by_id));
    assert!(tmp.path().join(KIT).join("fr-letter-host").join("host-key.pdf").is_file());
    let path = tmp.path().join("copy");
    let kit = kit_copy(&path);
    let by_path = build_into(&kit, &tmp.path().join("out2"));
    assert!(by_path.status.success(), "{}", stderr(&by_path));
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn check_passes_on_the_shipped_kits_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tablekit"))
        .current_dir(tmp.path())
        .args(["check"])
        .output()
        .unwrap();
    // No kits/ folder here: the built-in kits are checked.
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("ok three-men-slide (3 examples verified"),
        "{}",
        stdout(&out)
    );
    assert_eq!(fs::read_dir(tmp.path()).unwrap().count(), 0, "check wrote something");
}

#[test]
fn list_shows_languages_papers_board_and_sheets() {
    let out = tablekit(&["list"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("three-men-slide"), "{text}");
    assert!(
        text.contains("languages: ar 100%, de 100%, el 100%, en, es 100%, fr 100%"),
        "{text}"
    );
    assert!(
        text.contains("paper:     a4, letter, a3, legal, a5, tabloid, or WxHmm or WxHin; --landscape"),
        "{text}"
    );
    assert!(text.contains("3×3 points, 50 mm apart"), "{text}");
    assert!(
        text.contains(
            "board, quick-start, counters, repetition-log, rule-card, host-key"
        ),
        "{text}"
    );
}

/// The 1-based line of the shipped kit.toml on which `needle` stands.
pub fn line_of(kit: &str, needle: &str) -> usize {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("kits").join(kit).join("kit.toml");
    let text = fs::read_to_string(path).unwrap();
    text.lines().position(|l| l.contains(needle)).expect("needle in kit.toml") + 1
}

/// Checks a copy of the kit with `edits` made to its kit.toml; the check must fail
/// with exit code 1, and its report is returned.
fn check_fails_after(edits: &[(&str, &str)]) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_copy(tmp.path());
    for (from, to) in edits {
        edit(&kit.join("kit.toml"), from, to);
    }
    let out = tablekit(&["check", kit.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    stderr(&out)
}

#[test]
fn malformed_toml_names_file_line_and_column() {
    let err = check_fails_after(&[("spares = 1", "spares = one")]);
    let line = line_of(KIT, "spares = 1");
    assert!(err.contains(&format!("kit.toml:{line}:10")), "{err}");
}

#[test]
fn an_unknown_key_is_refused_with_the_expected_ones() {
    let err = check_fails_after(&[("spares = 1", "spare = 1")]);
    assert!(err.contains("unknown field `spare`"), "{err}");
    let line = line_of(KIT, "spares = 1");
    assert!(err.contains(&format!("kit.toml:{line}:1")), "{err}");
}

#[test]
fn an_unknown_square_names_the_move_in_the_kit() {
    let err = check_fails_after(&[(r#"moves = ["A2-B3"]"#, r#"moves = ["A2-D4"]"#)]);
    assert!(err.contains("unknown square `D4`"), "{err}");
    let line = line_of(KIT, r#"moves = ["A2-B3"]"#);
    assert!(err.contains(&format!("kit.toml:{line}:10")), "{err}");
}

#[test]
fn a_false_claim_stops_the_build_and_says_what_the_rules_say() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_copy(tmp.path());
    // The seed's slip turned into a claim: the diagonal step declared legal.
    edit(&kit.join("kit.toml"), "legal = false", "legal = true");
    let out = build_into(&kit, &tmp.path().join("out"));
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("example `diagonal`: the rules disagree"), "{err}");
    let line = line_of(KIT, "legal = false");
    assert!(err.contains(&format!("kit.toml:{line}:9")), "{err}");
    assert!(
        err.contains("move 1 is illegal: A2-B3 is not along a movement edge"),
        "{err}"
    );
    assert!(!tmp.path().join("out").exists(), "a failed build wrote files");
}

#[test]
fn every_false_claim_is_reported_not_just_the_first() {
    let err = check_fails_after(&[
        (r#"winner = "A""#, r#"winner = "B""#),
        (r#"legal-moves = ["A1-A2", "A1-B1"]"#, r#"legal-moves = ["A1-A2"]"#),
    ]);
    assert!(err.contains("the outcome is A wins (line A1 B1 C1)"), "{err}");
    assert!(err.contains("the legal moves are: A1-A2, A1-B1"), "{err}");
    assert!(err.contains("2 problems found"), "{err}");
}

#[test]
fn unknown_language_and_paper_are_clear_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let out_dir = tmp.path().to_str().unwrap();
    // A command-line mistake: exit 2, naming the option.
    let lang = tablekit(&["build", KIT, "--lang", "xx", "--out", out_dir]);
    assert_eq!(lang.status.code(), Some(2));
    assert!(stderr(&lang).contains("--lang: no language `xx`"), "{}", stderr(&lang));
    assert!(!stderr(&lang).contains("kit.toml"), "{}", stderr(&lang));
    assert!(
        stderr(&lang).contains("available: ar, de, el, en, es, fr"),
        "{}",
        stderr(&lang)
    );
    let paper = tablekit(&["build", KIT, "--paper", "b5", "--out", out_dir]);
    assert_eq!(paper.status.code(), Some(2));
    assert!(
        stderr(&paper).contains(
            "unknown paper `b5`: expected one of a4, letter, a3, legal, a5, tabloid or a size"
        ),
        "{}",
        stderr(&paper)
    );
    assert_eq!(fs::read_dir(tmp.path()).unwrap().count(), 0);
}

#[test]
fn an_unwritable_output_folder_is_an_error_and_nothing_is_half_written() {
    let tmp = tempfile::tempdir().unwrap();
    let blocker = tmp.path().join("not-a-folder");
    fs::write(&blocker, "a file where the output folder should go").unwrap();
    let out = tablekit(&["build", KIT, "--out", blocker.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("failed to create output folder"), "{err}");
    assert_eq!(
        fs::read_to_string(&blocker).unwrap(),
        "a file where the output folder should go"
    );
}

#[test]
fn a_folder_that_cannot_be_written_fails_the_build_but_the_others_are_told() {
    // Folders are written side by side: one kit's folder blocked by a file fails the
    // build, and every folder that was written is still listed.
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    fs::create_dir(&out).unwrap();
    let blocker = out.join("crossway");
    fs::write(&blocker, "not a folder").unwrap();
    let run = tablekit(&["build", "--out", out.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(2));
    let err = stderr(&run);
    assert!(err.contains("crossway"), "{err}");
    let told = String::from_utf8_lossy(&run.stdout).to_string();
    for (kit, variant) in [
        ("pathstone", "en-a4-5"),
        ("stack-top-roads", "en-a4"),
        ("three-men-slide", "en-a4"),
    ] {
        let card = out.join(kit).join(variant).join("rule-card.pdf");
        assert!(told.contains(&card.display().to_string()), "{kit} not told: {told}");
        assert!(card.is_file(), "{}", card.display());
    }
    assert!(!told.contains("crossway/"), "{told}");
    assert_eq!(fs::read_to_string(&blocker).unwrap(), "not a folder");
}

#[test]
fn a_failed_build_leaves_earlier_output_intact() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_copy(tmp.path());
    let out = tmp.path().join("out");
    assert!(build_into(&kit, &out).status.success());
    let before = snapshot(&variant_dir(&out));
    edit(&kit.join("kit.toml"), r#"winner = "A""#, r#"winner = "B""#);
    let failed = build_into(&kit, &out);
    assert_eq!(failed.status.code(), Some(1));
    assert_eq!(snapshot(&variant_dir(&out)), before, "earlier output changed");
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn a_translation_with_a_missing_key_falls_back_and_check_names_it() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_copy(tmp.path());
    let fr = kit.join("lang").join("fr.toml");
    let text = fs::read_to_string(&fr).unwrap();
    let without: String = text
        .lines()
        .filter(|l| !l.starts_with("legend_edge"))
        .map(|l| format!("{l}\n"))
        .collect();
    // In a language the game ships, the game's own French fills the gap.
    fs::write(&fr, &without).unwrap();
    let check = tablekit(&["check", kit.to_str().unwrap()]);
    assert!(check.status.success(), "{}", stderr(&check));
    // In one it does not ship (a French text standing in for Portuguese), English
    // does, and both commands name the key.
    fs::write(&fr, &text).unwrap();
    fs::write(kit.join("lang").join("pt.toml"), &without).unwrap();
    let check = tablekit(&["check", kit.to_str().unwrap()]);
    assert_eq!(check.status.code(), Some(1));
    assert!(
        stderr(&check).contains("missing key `board.legend_edge`"),
        "{}",
        stderr(&check)
    );
    assert!(stderr(&check).contains("pt.toml"), "{}", stderr(&check));
    let out = tmp.path().join("out");
    let build = tablekit(&[
        "build",
        kit.to_str().unwrap(),
        "--lang",
        "pt",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(build.status.success(), "{}", stderr(&build));
    assert!(
        stderr(&build)
            .contains("used English for 1 missing string(s): board.legend_edge")
    );
}

#[test]
fn a_template_override_is_used_and_its_errors_name_the_template() {
    let tmp = tempfile::tempdir().unwrap();
    let templates = tmp.path().join("templates");
    fs::create_dir_all(&templates).unwrap();
    fs::write(
        templates.join("board.tera"),
        "# {{ t.board.title }}\n{{ t.board.nope }}\n",
    )
    .unwrap();
    let out = tmp.path().join("out");
    let args = [
        "build",
        KIT,
        "--templates",
        templates.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    let run = tablekit(&args);
    assert_eq!(run.status.code(), Some(1));
    let err = stderr(&run);
    assert!(err.contains("board.tera"), "{err}");
    assert!(err.contains(":2:"), "{err}");
    fs::write(templates.join("board.tera"), "# Custom {{ t.board.title }}\n@board\n")
        .unwrap();
    let ok = tablekit(&args);
    assert!(ok.status.success(), "{}", stderr(&ok));
}

#[test]
fn rules_moves_perft_and_apply() {
    let moves = tablekit(&["rules", "moves", KIT, "BAB/..A/A.B A"]);
    assert!(moves.status.success());
    assert_eq!(stdout(&moves), "A1-A2\nA1-B1\nB3-B2\nC2-B2\n");
    let perft = tablekit(&["rules", "perft", KIT, ".../.../... A", "3"]);
    assert_eq!(stdout(&perft).trim(), "504");
    let apply = tablekit(&["rules", "apply", KIT, "..B/BBA/AA. A", "C2-C1"]);
    assert!(apply.status.success());
    assert_eq!(stdout(&apply), "..B/BB./AAA B\nA wins (line A1 B1 C1)\n");
}

/// `rules solve` checks a puzzle of one's own: the only winning first move and a
/// main line for a puzzle; exit 1 saying why for a position without a forced win;
/// exit 2 for a length no puzzle has.
#[test]
fn rules_solve_says_whether_a_position_is_a_puzzle() {
    let puzzle = tablekit(&["rules", "solve", KIT, ".BA/.AB/.AB A", "--plies", "1"]);
    assert_eq!(puzzle.status.code(), Some(0), "{}", stderr(&puzzle));
    assert_eq!(stdout(&puzzle), "B1-A1\n");
    let apply = tablekit(&["rules", "apply", KIT, ".BA/.AB/.AB A", "B1-A1"]);
    assert!(stdout(&apply).contains("A wins"), "{}", stdout(&apply));
    let none = tablekit(&["rules", "solve", KIT, ".../B../A.. A", "--plies", "1"]);
    assert_eq!(none.status.code(), Some(1));
    assert!(stderr(&none).contains("not a puzzle of 1 ply"), "{}", stderr(&none));
    let even = tablekit(&["rules", "solve", KIT, ".BA/.AB/.AB A", "--plies", "2"]);
    assert_eq!(even.status.code(), Some(2), "{}", stderr(&even));
}

#[test]
fn rules_refuse_bad_positions_and_moves_without_panicking() {
    for (args, needle) in [
        (vec!["rules", "moves", KIT, "..../.../... A"], "row 3 has 4 points"),
        (vec!["rules", "moves", KIT, ".../.../... C"], ""),
        (vec!["rules", "apply", KIT, "..B/BBA/AA. A", "A2-B3"], "is illegal"),
        (vec!["rules", "apply", KIT, "..B/BBA/AA. A", "Z9"], "unknown square"),
        (vec!["rules", "perft", "chess", ".../.../... A", "1"], "unknown game `chess`"),
    ] {
        let out = tablekit(&args);
        assert!(!out.status.success(), "{args:?} succeeded");
        let err = stderr(&out);
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn a_kit_can_carry_its_own_template() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_copy(tmp.path());
    fs::create_dir_all(kit.join("templates")).unwrap();
    let custom = "# {{ t.board.title }} for the library club\n@board\n";
    fs::write(kit.join("templates").join("board.tera"), custom).unwrap();
    let out = tmp.path().join("out");
    let run = build_into(&kit, &out);
    assert!(run.status.success(), "{}", stderr(&run));
    let pdf = crate::support::pdf_probe::load_file(&variant_dir(&out).join("board.pdf"));
    assert!(pdf.text().contains("Board for the library club"), "{}", pdf.text());
}
