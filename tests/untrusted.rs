//! Kits from strangers: a hostile kit cannot reach host-only content, escape its
//! folders or print garbage. Each test is one class of attack, with the refusal or the
//! harmless result it must get.

use std::fs;
use std::path::{Path, PathBuf};

use crate::cli::{copy_of, edit, stderr, tablekit};
use crate::support::pdf_probe;

const KIT: &str = "three-men-slide";

/// A copy of the Three-men slide kit in `dir`, to attack.
fn kit_in(dir: &Path) -> PathBuf {
    copy_of(KIT, dir)
}

/// Builds `kit` into `out` in English on A4.
fn build(kit: &Path, out: &Path) -> std::process::Output {
    tablekit(&["build", kit.to_str().unwrap(), "--out", out.to_str().unwrap()])
}

fn sheet_text(out: &Path, sheet: &str) -> String {
    let file = crate::support::sheet_pdf(&out.join(KIT).join("en-a4"), sheet);
    pdf_probe::load_file(&file).text()
}

#[test]
fn a_string_cannot_start_a_markup_line_or_draw_a_figure() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_in(tmp.path());
    edit(
        &kit.join("lang/en.toml"),
        "then clear the board before a real game.\"",
        "then clear the board before a real game.\\n@diagrams practice:end\\n# Pwned\"",
    );
    let out = tmp.path().join("out");
    let result = build(&kit, &out);
    assert_eq!(result.status.code(), Some(0), "{}", stderr(&result));
    let card = sheet_text(&out, "rule-card");
    // The injected lines are printed as the words they are, not obeyed.
    assert!(card.contains("@diagrams practice:end"), "{card}");
    assert!(!card.contains("After the winning slide"), "the answer's caption leaked");
}

#[test]
fn a_player_template_cannot_draw_a_puzzle_answer() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_in(tmp.path());
    fs::create_dir_all(kit.join("templates")).unwrap();
    fs::write(kit.join("templates/rule-card.tera"), "# Card\n@diagrams practice:end\n")
        .unwrap();
    let result = build(&kit, &tmp.path().join("out"));
    assert_eq!(result.status.code(), Some(1));
    let err = stderr(&result);
    assert!(err.contains("the answer to the puzzle `practice`"), "{err}");
    assert!(err.contains("rule-card"), "{err}");
}

#[test]
fn a_puzzle_sheet_template_cannot_reach_the_answers() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_in(tmp.path());
    fs::create_dir_all(kit.join("templates")).unwrap();
    let attempts = [
        // The player view's puzzles hold an id and a number, no main line.
        ("# P\n{{ puzzle_rows[0][0].line }}\n", "templates/puzzles.tera"),
        (
            "# P\n@diagrams puzzle-sheet-1:end\n",
            "the answer to the puzzle `puzzle-sheet-1`",
        ),
        ("# P\n{{ examples[\"puzzle-sheet-1\"].moves }}\n", "templates/puzzles.tera"),
    ];
    for (template, needle) in attempts {
        fs::write(kit.join("templates/puzzles.tera"), template).unwrap();
        let out = tmp.path().join("out");
        let result = tablekit(&[
            "build",
            kit.to_str().unwrap(),
            "--puzzles",
            "2",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(result.status.code(), Some(1), "{template}");
        assert!(stderr(&result).contains(needle), "{template}: {}", stderr(&result));
    }
    // Nor can a player string quote a puzzle's moves.
    fs::remove_file(kit.join("templates/puzzles.tera")).unwrap();
    edit(
        &kit.join("lang/en.toml"),
        "then clear the board before a real game.\"",
        "then clear the board before a real game. Hint: {puzzle-sheet-1.moves}\"",
    );
    let out = tmp.path().join("out");
    let result = tablekit(&[
        "build",
        kit.to_str().unwrap(),
        "--puzzles",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(result.status.code(), Some(1));
    assert!(stderr(&result).contains("unknown placeholder `{puzzle-sheet-1.moves}`"));
}

#[test]
fn a_player_template_cannot_read_host_strings() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_in(tmp.path());
    fs::create_dir_all(kit.join("templates")).unwrap();
    fs::write(kit.join("templates/board.tera"), "# B\n{{ t.host.practice_answer }}\n")
        .unwrap();
    let result = build(&kit, &tmp.path().join("out"));
    assert_eq!(result.status.code(), Some(1));
    let err = stderr(&result);
    assert!(err.contains("templates/board.tera"), "{err}");
}

#[test]
fn a_player_string_cannot_quote_a_puzzle_answer() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_in(tmp.path());
    edit(
        &kit.join("lang/en.toml"),
        "then clear the board before a real game.\"",
        "then clear the board before a real game. Hint: {practice.moves}\"",
    );
    let result = build(&kit, &tmp.path().join("out"));
    assert_eq!(result.status.code(), Some(1));
    let err = stderr(&result);
    assert!(err.contains("unknown placeholder `{practice.moves}`"), "{err}");
    assert!(err.contains("lang/en.toml"), "{err}");
}

#[test]
fn the_host_key_still_shows_the_answer() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let result = build(&kit_in(tmp.path()), &out);
    assert_eq!(result.status.code(), Some(0), "{}", stderr(&result));
    let key = sheet_text(&out, "host-key");
    assert!(key.contains("After the winning slide"), "{key}");
    assert!(key.contains("C2-C1"), "{key}");
    for sheet in ["board", "counters", "repetition-log", "rule-card"] {
        let text = sheet_text(&out, sheet);
        assert!(!text.contains("C2-C1"), "the answer is on the {sheet}");
    }
}

#[test]
fn a_kit_id_that_is_not_a_plain_folder_name_is_refused() {
    for id in ["../escaped", "/tmp/anywhere", "a/b", "UPPER", ""] {
        let tmp = tempfile::tempdir().unwrap();
        let kit = kit_in(tmp.path());
        edit(&kit.join("kit.toml"), "id = \"three-men-slide\"", &format!("id = {id:?}"));
        let out = tmp.path().join("out");
        let result = build(&kit, &out);
        assert_eq!(result.status.code(), Some(1), "{id}");
        let err = stderr(&result);
        assert!(err.contains("is not a safe folder name"), "{id}: {err}");
        assert!(err.contains("kit.toml:"), "{id}: {err}");
        assert!(!out.exists() && !tmp.path().join("escaped").exists(), "{id}");
    }
}

#[test]
fn spares_beyond_the_documented_range_are_refused_before_any_work() {
    for spares in ["51", "200000", "4294967295"] {
        let tmp = tempfile::tempdir().unwrap();
        let kit = kit_in(tmp.path());
        edit(&kit.join("kit.toml"), "spares = 1", &format!("spares = {spares}"));
        let result = build(&kit, &tmp.path().join("out"));
        assert_eq!(result.status.code(), Some(1), "{spares}");
        let err = stderr(&result);
        assert!(err.contains("spares must be 0 to 50"), "{spares}: {err}");
        assert!(err.contains(&format!("found {spares}")), "{spares}: {err}");
    }
}

#[test]
fn a_control_or_non_character_is_refused_at_its_key() {
    for (escape, code) in
        [("\\u0007", "U+0007"), ("\\u007F", "U+007F"), ("\\uFFFF", "U+FFFF")]
    {
        let tmp = tempfile::tempdir().unwrap();
        let kit = kit_in(tmp.path());
        edit(
            &kit.join("lang/en.toml"),
            "then clear the board before a real game.\"",
            &format!("then clear the board{escape} before a real game.\""),
        );
        let result = tablekit(&["check", kit.to_str().unwrap()]);
        assert_eq!(result.status.code(), Some(1), "{code}");
        let err = stderr(&result);
        assert!(err.contains(&format!("`rules.practice` holds {code}")), "{err}");
        assert!(err.contains("lang/en.toml:"), "{err}");
    }
}

#[test]
fn paper_larger_than_a_pdf_page_is_refused() {
    for paper in ["100000x100000mm", "1e20x1e20mm", "5081x300mm"] {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        let result =
            tablekit(&["build", KIT, "--paper", paper, "--out", out.to_str().unwrap()]);
        assert_ne!(result.status.code(), Some(0), "{paper}");
        let err = stderr(&result);
        assert!(err.contains("at most 5080 mm a side"), "{paper}: {err}");
        assert!(!out.exists(), "{paper}");
    }
}

/// The names in a folder, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_rebuild_replaces_the_whole_variant_folder_and_leaves_nothing_beside_it() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_in(tmp.path());
    let out = tmp.path().join("out");
    assert!(build(&kit, &out).status.success());
    let variant = out.join(KIT).join("en-a4");
    let sheets = names(&variant);
    fs::write(variant.join("stale.pdf"), b"from an older build").unwrap();
    assert!(build(&kit, &out).status.success());
    assert_eq!(names(&variant), sheets, "the folder holds exactly this build's files");
    assert_eq!(
        names(&out.join(KIT)),
        ["en-a4", "en-a4-host"],
        "no temporary folder is left"
    );
}

#[test]
fn a_rebuild_removes_nothing_it_did_not_write() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let kit = kit_in(tmp.path());
    assert!(build(&kit, &out).status.success());
    let folder = out.join(KIT).join("en-a4");
    fs::write(folder.join("notes.txt"), "table 3 lost a counter").unwrap();
    fs::create_dir(folder.join("scans")).unwrap();
    let before = names(&folder);
    let result = build(&kit, &out);
    let err = stderr(&result);
    assert_eq!(result.status.code(), Some(2), "{err}");
    assert!(
        err.contains("holds notes.txt, scans, which tablekit did not write"),
        "{err}"
    );
    assert_eq!(names(&folder), before, "the folder is as it was");
    assert_eq!(
        fs::read_to_string(folder.join("notes.txt")).unwrap(),
        "table 3 lost a counter"
    );
}

#[test]
fn a_read_only_folder_in_the_old_sheets_does_not_stop_the_rebuild() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let kit = kit_in(tmp.path());
    let with_previews = |out: &Path| {
        let args = ["build", kit.to_str().unwrap(), "--out", out.to_str().unwrap()];
        tablekit(&[&args[..], &["--preview", "svg"]].concat())
    };
    assert!(with_previews(&out).status.success());
    let previews = out.join(KIT).join("en-a4/preview");
    fs::set_permissions(&previews, fs::Permissions::from_mode(0o555)).unwrap();
    let result = build(&kit, &out);
    assert_eq!(result.status.code(), Some(0), "{}", stderr(&result));
    // Opened again and removed: no hidden folder is left beside the new sheets.
    assert_eq!(names(&out.join(KIT)), ["en-a4", "en-a4-host"]);
    assert!(!out.join(KIT).join("en-a4/preview").exists());
}

#[test]
fn an_unwritable_output_fails_cleanly() {
    let tmp = tempfile::tempdir().unwrap();
    let blocker = tmp.path().join("not-a-folder");
    fs::write(&blocker, b"a file where the output folder should go").unwrap();
    let out = blocker.join("out");
    let result = build(&kit_in(tmp.path()), &out);
    assert!(!result.status.success());
    assert!(stderr(&result).contains("not-a-folder"), "{}", stderr(&result));
    assert_eq!(fs::read(&blocker).unwrap(), b"a file where the output folder should go");
}

#[test]
fn a_kit_file_that_links_outside_the_kit_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let secret = tmp.path().join("secret.txt");
    fs::write(&secret, "the answer is C2-C1").unwrap();
    let kit = kit_in(tmp.path());
    fs::create_dir_all(kit.join("templates")).unwrap();
    std::os::unix::fs::symlink(&secret, kit.join("templates/board.tera")).unwrap();
    let out = tmp.path().join("out");
    let result = build(&kit, &out);
    assert!(!result.status.success());
    let err = stderr(&result);
    assert!(err.contains("leads outside its kit folder"), "{err}");
    assert!(!err.contains("the answer is"), "{err}");
    assert!(!out.exists());
    // Nor through a link that stays inside: a board template linked to the strings
    // would print the host's words on a player sheet.
    fs::remove_file(kit.join("templates/board.tera")).unwrap();
    std::os::unix::fs::symlink("../lang/en.toml", kit.join("templates/board.tera"))
        .unwrap();
    let result = build(&kit, &out);
    let err = stderr(&result);
    assert_eq!(result.status.code(), Some(1), "{err}");
    assert!(err.contains("templates/board.tera is a link (to lang/en.toml)"), "{err}");
    assert!(!out.exists());
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn a_kit_template_that_loops_for_ever_is_stopped_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_in(tmp.path());
    fs::create_dir_all(kit.join("templates")).unwrap();
    let nested = "{% for a in range(end=1000) %}{% for b in range(end=1000) %}\
                  {% for c in range(end=1000) %}{% endfor %}{% endfor %}{% endfor %}";
    fs::write(kit.join("templates/board.tera"), nested).unwrap();
    let result = build(&kit, &tmp.path().join("out"));
    assert_eq!(result.status.code(), Some(1));
    let err = stderr(&result);
    assert!(err.contains("templates/board.tera"), "{err}");
    assert!(err.contains("ran for more than 5.0 s and was stopped"), "{err}");
    // `check` builds the sheet in 36 variants: the template stopped once is not run
    // again, so the whole check costs one render's limit, not 36.
    let started = std::time::Instant::now();
    let result = tablekit(&["check", kit.to_str().unwrap()]);
    let took = started.elapsed();
    assert_eq!(result.status.code(), Some(1), "{}", stderr(&result));
    assert!(took < std::time::Duration::from_secs(15), "check took {took:?}");
    assert!(stderr(&result).contains("1 problem found"), "{}", stderr(&result));
}

/// Runs the command with its data segment (heap and private mappings, render workers
/// included, which inherit the limit) capped at `bytes`.
#[cfg(target_os = "linux")]
fn tablekit_capped(args: &[&str], bytes: u64) -> std::process::Output {
    use std::os::unix::process::CommandExt;
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_tablekit"));
    command.args(args);
    // SAFETY: setrlimit is async-signal-safe and touches nothing of the parent.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit { rlim_cur: bytes, rlim_max: bytes };
            match libc::setrlimit(libc::RLIMIT_DATA, &limit) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        });
    }
    command.output().unwrap()
}

#[cfg(target_os = "linux")]
#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn a_template_that_doubles_a_string_is_stopped_under_its_memory_ceiling() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_in(tmp.path());
    fs::create_dir_all(kit.join("templates")).unwrap();
    let doubling = "{% set_global s = \"xxxxxxxxxxxxxxxx\" %}{% for i in range(end=40) %}\
                    {% set_global s = s ~ s %}{% endfor %}{{ s }}";
    fs::write(kit.join("templates/board.tera"), doubling).unwrap();
    // Under 512 MiB for the command and each of its workers: a render past the
    // worker's ceiling ends that worker, not the command.
    let started = std::time::Instant::now();
    let result = tablekit_capped(&["check", kit.to_str().unwrap()], 512 << 20);
    let took = started.elapsed();
    let err = stderr(&result);
    assert_eq!(result.status.code(), Some(1), "{err}");
    assert!(err.contains("templates/board.tera"), "{err}");
    assert!(err.contains("needed more than 256 MiB of memory and was stopped"), "{err}");
    assert!(err.contains("1 problem found"), "{err}");
    assert!(took < std::time::Duration::from_secs(15), "check took {took:?}");
    // The same kit without that template builds under the same cap.
    fs::remove_dir_all(kit.join("templates")).unwrap();
    let result = tablekit_capped(&["check", kit.to_str().unwrap()], 512 << 20);
    assert_eq!(result.status.code(), Some(0), "{}", stderr(&result));
}

#[test]
fn a_template_that_prints_without_end_is_stopped_as_it_writes() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_in(tmp.path());
    fs::create_dir_all(kit.join("templates")).unwrap();
    let printing = "{% for a in range(end=1000) %}{% for b in range(end=1000) %}\
                    A line of words {{ a }} {{ b }}\n{% endfor %}{% endfor %}";
    fs::write(kit.join("templates/board.tera"), printing).unwrap();
    let result = build(&kit, &tmp.path().join("out"));
    let err = stderr(&result);
    assert_eq!(result.status.code(), Some(1), "{err}");
    assert!(err.contains("templates/board.tera"), "{err}");
    assert!(err.contains("wrote more than 1024 KiB"), "{err}");
    // A mistake repeated in a loop is listed a few times, not a thousand.
    let repeated = "{% for a in range(end=1000) %}@nosuch\n{% endfor %}";
    fs::write(kit.join("templates/board.tera"), repeated).unwrap();
    let err = stderr(&build(&kit, &tmp.path().join("out")));
    assert!(err.contains("more problems not listed"), "{err}");
    assert!(err.matches("unknown figure").count() <= 20, "{err}");
}

#[test]
fn page_and_part_placeholders_are_refused_outside_their_keys() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_in(tmp.path());
    edit(
        &kit.join("lang/en.toml"),
        "then clear the board before a real game.\"",
        "then clear the board before a real game. Part {part} of {parts}.\"",
    );
    let result = build(&kit, &tmp.path().join("out"));
    assert_eq!(result.status.code(), Some(1));
    let err = stderr(&result);
    assert!(err.contains("unknown placeholder `{part}` in `rules.practice`"), "{err}");
}

#[test]
fn a_regional_tag_reads_like_its_language() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_in(tmp.path());
    fs::copy(kit.join("lang/ar.toml"), kit.join("lang/ar-EG.toml")).unwrap();
    let out = tmp.path().join("out");
    for lang in ["ar", "ar-EG"] {
        let result = tablekit(&[
            "build",
            kit.to_str().unwrap(),
            "--lang",
            lang,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(result.status.success(), "{}", stderr(&result));
    }
    // The pages are drawn alike: every text run at the same place, shapes the same.
    // (The footer's build stamp names the language, so its caption is left out.)
    for sheet in ["board", "counters", "repetition-log", "rule-card", "host-key"] {
        let layout = |lang: &str| {
            let file = crate::support::sheet_pdf(
                &out.join(KIT).join(format!("{lang}-a4")),
                sheet,
            );
            let probe = pdf_probe::load_file(&file);
            let pages: Vec<_> = probe
                .pages
                .iter()
                .map(|page| {
                    // The stamp differs by language, and the host key's first page
                    // names it in a line of its own: that line is left out too.
                    let caption = page.texts.iter().find(|t| t.text.contains(" · "));
                    let stamp =
                        caption.and_then(|t| t.text.rsplit(" · ").next()).unwrap_or("");
                    let stamp = stamp.trim();
                    let stamped: Vec<f64> = page
                        .texts
                        .iter()
                        .filter(|t| !stamp.is_empty() && t.text.contains(stamp))
                        .map(|t| t.y)
                        .collect();
                    let texts: Vec<String> = page
                        .texts
                        .iter()
                        .filter(|t| !t.text.contains(" · "))
                        .filter(|t| !stamped.iter().any(|y| (y - t.y).abs() < 0.01))
                        .map(|t| format!("{:.2} {:.2} {}", t.x, t.y, t.text))
                        .collect();
                    (texts, page.segments.len(), page.rects.len(), page.curves.len())
                })
                .collect();
            pages
        };
        assert!(layout("ar") == layout("ar-EG"), "{sheet} is laid out differently");
    }
}

#[test]
fn a_board_key_the_game_does_not_use_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_in(tmp.path());
    edit(
        &kit.join("kit.toml"),
        "point-diameter-mm = 9.0",
        "point-diameter-mm = 9.0\nrow-spacing-mm = 40.0",
    );
    let result = tablekit(&["check", kit.to_str().unwrap()]);
    assert_eq!(result.status.code(), Some(1));
    let err = stderr(&result);
    assert!(
        err.contains("`row-spacing-mm` has no effect on a `three-men-slide` board"),
        "{err}"
    );
}

#[test]
fn a_strings_file_that_is_not_utf8_is_located() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_in(tmp.path());
    let mut bytes = fs::read(kit.join("lang/fr.toml")).unwrap();
    let second_line = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
    bytes.insert(second_line + 2, 0xFF);
    fs::write(kit.join("lang/fr.toml"), bytes).unwrap();
    let result = tablekit(&["check", kit.to_str().unwrap()]);
    assert!(!result.status.success());
    let err = stderr(&result);
    assert!(err.contains("lang/fr.toml:2:3: not UTF-8 text"), "{err}");
}

#[test]
fn runaway_strings_and_page_breaks_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_in(tmp.path());
    let long = "word ".repeat(700);
    edit(
        &kit.join("lang/en.toml"),
        "then clear the board before a real game.\"",
        &format!("then clear the board before a real game. {long}\""),
    );
    let result = tablekit(&["check", kit.to_str().unwrap()]);
    assert_eq!(result.status.code(), Some(1));
    assert!(
        stderr(&result).contains("a sheet string has at most 3000"),
        "{}",
        stderr(&result)
    );

    let kit = copy_of(KIT, &tmp.path().join("breaks"));
    fs::create_dir_all(kit.join("templates")).unwrap();
    fs::write(
        kit.join("templates/board.tera"),
        "# B\n".to_string() + &"@pagebreak\n".repeat(20_000),
    )
    .unwrap();
    let result = build(&kit, &tmp.path().join("out"));
    assert_eq!(result.status.code(), Some(1));
    assert!(stderr(&result).contains("more than 200 pages"), "{}", stderr(&result));
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn a_misspelt_placeholder_in_english_is_blamed_on_english_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_in(tmp.path());
    let en = fs::read_to_string(kit.join("lang/en.toml")).unwrap();
    let line =
        en.lines().find(|l| l.contains("{turn_limit}")).expect("a string quoting it");
    edit(&kit.join("lang/en.toml"), line, &line.replace("{turn_limit}", "{turn_limt}"));
    let result = tablekit(&["check", kit.to_str().unwrap()]);
    assert_eq!(result.status.code(), Some(1));
    let err = stderr(&result);
    assert!(err.contains("unknown placeholder `{turn_limt}`"), "{err}");
    assert!(err.contains("lang/en.toml"), "{err}");
    for lang in ["fr", "de", "es", "el", "ar"] {
        assert!(!err.contains(&format!("lang/{lang}.toml")), "{lang} blamed: {err}");
    }
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn a_string_too_long_for_its_box_is_blamed_on_its_strings_file_and_key() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_in(tmp.path());
    let fr = fs::read_to_string(kit.join("lang/fr.toml")).unwrap();
    let line =
        fr.lines().find(|l| l.starts_with("end_win_a =")).expect("the end-box option");
    let long = format!(
        "end_win_a = \"{}\"",
        "Le joueur A aligne trois pions et gagne. ".repeat(8)
    );
    edit(&kit.join("lang/fr.toml"), line, &long);
    let result = tablekit(&["check", kit.to_str().unwrap()]);
    assert_eq!(result.status.code(), Some(1));
    let err = stderr(&result);
    assert!(err.contains("the text of `log.end_win_a` does not fit"), "{err}");
    assert!(err.contains("lang/fr.toml:"), "{err}");
    assert!(!err.contains("repetition-log.tera"), "{err}");
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn every_entry_of_a_kit_folder_is_used_or_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let check = |kit: &Path| tablekit(&["check", kit.to_str().unwrap()]);
    // A template named after no sheet would be ignored.
    let kit = kit_in(&tmp.path().join("a"));
    fs::create_dir_all(kit.join("templates")).unwrap();
    fs::write(kit.join("templates/rulecard.tera"), "# Rules\n").unwrap();
    let run = check(&kit);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert!(stderr(&run).contains("templates/rulecard.tera"), "{}", stderr(&run));
    assert!(stderr(&run).contains("no sheet is called `rulecard`"), "{}", stderr(&run));
    // In lang/: a folder named like a strings file, another file, a link to nothing.
    let kit = kit_in(&tmp.path().join("b"));
    fs::create_dir_all(kit.join("lang/pt.toml")).unwrap();
    fs::write(kit.join("lang/notes.txt"), "to do").unwrap();
    std::os::unix::fs::symlink(kit.join("lang/missing.toml"), kit.join("lang/pl.toml"))
        .unwrap();
    let run = check(&kit);
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    for named in [
        "pt.toml (a folder)",
        "notes.txt (a file of another kind)",
        "pl.toml (a link to nothing)",
    ] {
        assert!(stderr(&run).contains(named), "{named}: {}", stderr(&run));
    }
    // Beside kit.toml: only lang/ and templates/.
    let kit = kit_in(&tmp.path().join("c"));
    fs::write(kit.join("README.md"), "my kit").unwrap();
    let run = check(&kit);
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr(&run).contains("README.md"), "{}", stderr(&run));
    // Hidden files are the system's, not the kit's.
    let kit = kit_in(&tmp.path().join("d"));
    fs::write(kit.join(".DS_Store"), "").unwrap();
    fs::write(kit.join("lang/.fr.toml.swp"), "").unwrap();
    assert_eq!(check(&kit).status.code(), Some(0));
}

#[test]
fn a_file_that_cannot_be_read_is_told_with_the_kits_other_problems() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_in(tmp.path());
    let mut french = fs::read(kit.join("lang/fr.toml")).unwrap();
    french.push(0xFF);
    fs::write(kit.join("lang/fr.toml"), french).unwrap();
    let mut german = fs::read_to_string(kit.join("lang/de.toml")).unwrap();
    german.push_str("\noops = = 1\n");
    fs::write(kit.join("lang/de.toml"), german).unwrap();
    edit(&kit.join("kit.toml"), "spares = 1 ", "spares = 99 ");
    let result = tablekit(&["check", kit.to_str().unwrap()]);
    let err = stderr(&result);
    assert_eq!(result.status.code(), Some(1), "{err}");
    for problem in [
        "fr.toml",
        "not UTF-8 text",
        "spares must be 0 to 50",
        "de.toml",
        "3 problems found",
    ] {
        assert!(err.contains(problem), "{problem}: {err}");
    }
}

#[test]
fn a_templates_folder_is_named_as_such_in_its_messages() {
    let tmp = tempfile::tempdir().unwrap();
    let templates = tmp.path().join("tpl");
    fs::create_dir(&templates).unwrap();
    std::os::unix::fs::symlink("/etc/hostname", templates.join("board.tera")).unwrap();
    let out = tmp.path().join("out");
    let args = ["build", KIT, "--templates", templates.to_str().unwrap()];
    let result = tablekit(&[&args[..], &["--out", out.to_str().unwrap()]].concat());
    let err = stderr(&result);
    assert_eq!(result.status.code(), Some(2), "{err}");
    assert!(err.contains("leads outside the templates folder"), "{err}");
    assert!(!err.contains("kit"), "{err}");
}

#[test]
fn points_larger_than_their_spacing_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_in(tmp.path());
    edit(&kit.join("kit.toml"), "point-diameter-mm = 9.0", "point-diameter-mm = 200.0");
    let result = tablekit(&["check", kit.to_str().unwrap()]);
    let err = stderr(&result);
    assert_eq!(result.status.code(), Some(1), "{err}");
    assert!(err.contains("the board's points would overlap"), "{err}");
}

#[test]
fn a_value_of_the_wrong_type_is_told_in_plain_words() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_in(tmp.path());
    edit(&kit.join("kit.toml"), "spares = 1 ", "spares = -1 ");
    let err = stderr(&tablekit(&["check", kit.to_str().unwrap()]));
    assert!(err.contains("found `-1`, expected a whole number, 0 or more"), "{err}");
    assert!(!err.contains("u32"), "{err}");
}

#[test]
fn an_example_renamed_in_kit_toml_alone_is_told_once_at_its_strings() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_in(tmp.path());
    edit(&kit.join("kit.toml"), "id = \"neighbours\"", "id = \"neighbors\"");
    let err = stderr(&tablekit(&["check", kit.to_str().unwrap()]));
    assert!(
        err.contains("strings for example `neighbours`, which kit.toml does not have"),
        "{err}"
    );
    assert!(err.contains("lang/en.toml:"), "{err}");
    assert!(err.contains("practice, neighbors, diagonal; renamed?"), "{err}");
    assert!(err.contains("1 problem found"), "{err}");
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn a_string_no_sheet_prints_is_told_as_a_leftover() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_in(tmp.path());
    let mut english = fs::read_to_string(kit.join("lang/en.toml")).unwrap();
    english.push_str("\n[leftovers]\nold_caption = \"Nobody prints this\"\n");
    fs::write(kit.join("lang/en.toml"), english).unwrap();
    for lang in ["ar", "de", "el", "es", "fr"] {
        let path = kit.join(format!("lang/{lang}.toml"));
        let mut text = fs::read_to_string(&path).unwrap();
        text.push_str("\n[leftovers]\nold_caption = \"x\"\n");
        fs::write(&path, text).unwrap();
    }
    let run = tablekit(&["check", kit.to_str().unwrap()]);
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(0), "{err}");
    assert!(
        err.contains("warning: `leftovers.old_caption` is printed by no sheet"),
        "{err}"
    );
    assert!(err.contains("lang/en.toml:"), "{err}");
    let strict = tablekit(&["check", "--strict", kit.to_str().unwrap()]);
    assert_eq!(strict.status.code(), Some(1), "{}", stderr(&strict));
    // Every built-in kit prints every string it holds (the fifth game's too).
    for id in crate::support::games::ids() {
        let run = crate::support::tablekit(&["check", id]);
        assert!(run.status.success(), "{id}: {}", stderr(&run));
        assert!(!stderr(&run).contains("printed by no sheet"), "{id}: {}", stderr(&run));
    }
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn check_flags_a_breaking_space_where_french_or_a_percentage_keeps_one() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_in(tmp.path());
    let path = kit.join("lang/fr.toml");
    let text = fs::read_to_string(&path).unwrap();
    // The first no-break space before a colon, made plain.
    let at = text.find("\u{a0}:").expect("a French colon");
    fs::write(&path, format!("{} :{}", &text[..at], &text[at + "\u{a0}:".len()..]))
        .unwrap();
    let run = tablekit(&["check", kit.to_str().unwrap()]);
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(0), "a warning: {err}");
    assert!(err.contains("warning: a plain space beside `:`"), "{err}");
    assert!(err.contains("lang/fr.toml:"), "{err}");
    let strict = tablekit(&["check", "--strict", kit.to_str().unwrap()]);
    assert_eq!(strict.status.code(), Some(1), "{}", stderr(&strict));
    assert!(stderr(&strict).contains("1 problem found"), "{}", stderr(&strict));
    // A number and its per cent sign, in any language.
    let kit = kit_in(&tmp.path().join("b"));
    edit(&kit.join("lang/en.toml"), "title = \"Board\"", "title = \"Board at 100 %\"");
    let err = stderr(&tablekit(&["check", kit.to_str().unwrap()]));
    assert!(err.contains("a plain space beside `%`"), "{err}");
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn check_flags_a_direction_sign_standing_apart_in_right_to_left_text() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_in(tmp.path());
    let path = kit.join("lang/ar.toml");
    let text = fs::read_to_string(&path).unwrap();
    // A key to the notation as bare signs, "> right, < left", in Arabic.
    let at = text.find("\ntitle = \"").expect("a title") + "\ntitle = \"".len();
    fs::write(&path, format!("{}(> يمين، < يسار) {}", &text[..at], &text[at..])).unwrap();
    let run = tablekit(&["check", kit.to_str().unwrap()]);
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(0), "a warning: {err}");
    assert!(err.contains("warning: a bare `>`"), "{err}");
    assert!(err.contains("lang/ar.toml:"), "{err}");
    let strict = tablekit(&["check", "--strict", kit.to_str().unwrap()]);
    assert_eq!(strict.status.code(), Some(1), "{}", stderr(&strict));
    // In a left-to-right language the same signs are read as typed.
    let kit = kit_in(&tmp.path().join("b"));
    let path = kit.join("lang/en.toml");
    let text = fs::read_to_string(&path).unwrap();
    let at = text.find("\ntitle = \"").expect("a title") + "\ntitle = \"".len();
    fs::write(&path, format!("{}(> right, < left) {}", &text[..at], &text[at..]))
        .unwrap();
    let err = stderr(&tablekit(&["check", kit.to_str().unwrap()]));
    assert!(!err.contains("a bare"), "{err}");
}

#[test]
fn a_kit_gives_its_own_game_time_per_size_within_range() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_in(tmp.path());
    let mut text = fs::read_to_string(kit.join("kit.toml")).unwrap();
    let first_example = text.find("[[example]]").expect("examples");
    text.insert_str(first_example, "[time]\ngame-minutes = { 3 = [12, 18] }\n\n");
    fs::write(kit.join("kit.toml"), &text).unwrap();
    let out = tmp.path().join("out");
    assert!(build(&kit, &out).status.success());
    let contents = sheet_text(&out, "contents");
    assert!(contents.contains("12–18 minutes"), "{contents}");
    for (bad, message) in [
        ("{ 4 = [12, 18] }", "`4` is not a board size the kit offers"),
        ("{ 3 = [18, 12] }", "game minutes for 3×3"),
        ("{ 3 = [10, 900] }", "from 1 to 600"),
    ] {
        let broken = text.replace("{ 3 = [12, 18] }", bad);
        fs::write(kit.join("kit.toml"), broken).unwrap();
        let err = stderr(&tablekit(&["check", kit.to_str().unwrap()]));
        assert!(err.contains(message), "{bad}: {err}");
    }
}
