//! Faults that fuzzing the command line once found, each run through the real binary
//! so that it stays fixed where users meet it: errors to a closed standard error, two kits with one id, a
//! kits folder with no kit in it, the `rules` exit codes and notation that was taken
//! silently, and perft's divide, warning and fast path.

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::Duration;

use crate::cli::{KIT, edit, kit_copy, stderr, stdout, tablekit};

/// A writer whose reader is already gone: every write to it fails with a broken pipe,
/// as `2>&1 | head -0` makes it, without racing the program to close it.
fn closed_pipe() -> std::io::PipeWriter {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    writer
}

/// Runs tablekit in the project folder with standard error closed (and standard output
/// too if `close_stdout`), and returns how it exited.
fn run_with_closed_stderr(args: &[&str], close_stdout: bool) -> ExitStatus {
    let stdout = if close_stdout { Stdio::from(closed_pipe()) } else { Stdio::null() };
    Command::new(env!("CARGO_BIN_EXE_tablekit"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(closed_pipe())
        .status()
        .expect("tablekit runs")
}

#[test]
fn an_error_to_a_closed_stderr_exits_with_its_own_code_not_a_panic() {
    let tmp = tempfile::tempdir().unwrap();
    let broken = kit_copy(tmp.path());
    edit(&broken.join("kit.toml"), "spares = 1", "spares = one");
    let broken = broken.to_str().unwrap();
    let cases: [(&[&str], i32); 6] = [
        // `tablekit build nosuch 2>&1 | head -0`: a pipeline that stops reading at
        // once, as `head -0` does, must not turn the error into a panic.
        (&["build", "nosuch"], 2),
        (&["check", broken], 1),
        (&["rules", "apply", KIT, "..B/BBA/AA. A", "A2-B3"], 1),
        (&["rules", "moves", KIT, "..../.../... A"], 2),
        (&["rules", "moves", "chess", ".../.../... A"], 2),
        // clap's own usage errors.
        (&["build", "--no-such-flag"], 2),
    ];
    for (args, code) in cases {
        for close_stdout in [false, true] {
            let status = run_with_closed_stderr(args, close_stdout);
            assert_eq!(
                status.code(),
                Some(code),
                "{args:?} (stdout closed too: {close_stdout})"
            );
        }
    }
}

#[test]
fn a_note_to_a_closed_stderr_does_not_stop_the_build() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = kit_copy(tmp.path());
    // A French file with a key missing: the build says so on stderr, and goes on.
    let fr = kit.join("lang").join("fr.toml");
    let text = fs::read_to_string(&fr).unwrap();
    let without: String = text
        .lines()
        .filter(|l| !l.starts_with("legend_edge"))
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(&fr, without).unwrap();
    let out = tmp.path().join("out");
    let args =
        ["build", kit.to_str().unwrap(), "--lang", "fr", "--out", out.to_str().unwrap()];
    let status = run_with_closed_stderr(&args, false);
    assert_eq!(status.code(), Some(0));
    assert!(out.join(KIT).join("fr-a4-host").join("host-key.pdf").is_file());
}

#[test]
fn two_kits_with_one_id_are_refused_before_anything_is_built() {
    let tmp = tempfile::tempdir().unwrap();
    let copy = kit_copy(&tmp.path().join("other"));
    let out = tmp.path().join("out");
    let run =
        tablekit(&["build", KIT, copy.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let err = stderr(&run);
    assert!(err.contains("two kits have the id `three-men-slide`"), "{err}");
    assert!(err.contains(&format!("kits/{KIT} and {}", copy.display())), "{err}");
    assert!(err.contains("1 problem found"), "{err}");
    assert!(!out.exists(), "a refused build wrote {}", out.display());

    // `check` reports it too, and so does a kits folder holding both.
    let check = tablekit(&["check", KIT, copy.to_str().unwrap()]);
    assert_eq!(check.status.code(), Some(1), "{}", stderr(&check));
    let twin = tmp.path().join("other").join("twin");
    fs::rename(kit_copy(&tmp.path().join("spare")), &twin).unwrap();
    let folder = tmp.path().join("other");
    let both = tablekit(&["check", "--kits", folder.to_str().unwrap()]);
    assert_eq!(both.status.code(), Some(1), "{}", stderr(&both));
    let err = stderr(&both);
    assert!(err.contains(&format!("{} and {}", copy.display(), twin.display())), "{err}");
    // The duplicate is pointed at in its kit.toml.
    assert!(err.contains(&format!("{}/kit.toml:4:6", twin.display())), "{err}");

    // One folder named twice, by id and by path, is one kit, built once.
    let once =
        tablekit(&["build", KIT, &format!("kits/{KIT}"), "--out", out.to_str().unwrap()]);
    assert!(once.status.success(), "{}", stderr(&once));
    let wrote = stdout(&once).lines().filter(|l| l.contains("host-key.pdf")).count();
    assert_eq!(wrote, 1, "{}", stdout(&once));
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn a_kits_folder_with_no_kit_in_it_is_an_error_not_success() {
    let tmp = tempfile::tempdir().unwrap();
    let empty = tmp.path().join("empty");
    fs::create_dir_all(&empty).unwrap();
    let kit = kit_copy(&tmp.path().join("kits"));
    let out = tmp.path().join("out");
    for command in ["build", "check", "list"] {
        for folder in [&empty, &kit] {
            let mut args = vec![command, "--kits", folder.to_str().unwrap()];
            if command == "build" {
                args.extend(["--out", out.to_str().unwrap()]);
            }
            let run = tablekit(&args);
            assert_eq!(run.status.code(), Some(2), "{args:?}: {}", stderr(&run));
            let err = stderr(&run);
            let said = format!("error: no kit found in {}", folder.display());
            assert!(err.starts_with(&said), "{args:?}: {err}");
            assert_eq!(stdout(&run), "", "{args:?}");
        }
    }
    // A kit folder given as the kits folder says how to name it instead.
    let run = tablekit(&["check", "--kits", kit.to_str().unwrap()]);
    let err = stderr(&run);
    assert!(err.contains("is itself a kit folder"), "{err}");
    assert!(
        err.contains(&format!("--kits {}", tmp.path().join("kits").display())),
        "{err}"
    );
    // An id looked up in an empty folder says the folder is empty.
    let run = tablekit(&["check", KIT, "--kits", empty.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr(&run).contains("no kit found in"), "{}", stderr(&run));
    assert!(!out.exists(), "something was built");
    // A kit named by path is still found whatever --kits holds.
    let by_path =
        tablekit(&["check", kit.to_str().unwrap(), "--kits", empty.to_str().unwrap()]);
    assert!(by_path.status.success(), "{}", stderr(&by_path));
}

/// Runs `tablekit rules ARGS…` and checks its exit code and that stderr holds `needle`.
fn rules_exit(args: &[&str], code: i32, needle: &str) {
    let mut all = vec!["rules"];
    all.extend(args);
    let run = tablekit(&all);
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(code), "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: wanted `{needle}` in: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

#[test]
fn rules_exit_1_for_what_the_rules_refuse_and_2_for_a_malformed_command() {
    const ROADS: &str = "stack-top-roads";
    // Refused: illegal moves, positions no game reaches.
    rules_exit(&["apply", KIT, "..B/BBA/AA. A", "A2-B3"], 1, "move 1 `A2-B3` is illegal");
    rules_exit(&["moves", KIT, "AAA/AA./B.. B"], 1, "A has 5 counters, at most 3");
    rules_exit(&["moves", KIT, "BBB/AA./A.. B"], 1, "already has a line");
    rules_exit(&["moves", ROADS, "1S,x2/x3/x3 2 1"], 1, "walls are not used");
    rules_exit(
        &["perft", ROADS, "111,111,111/x3/x3 2 5", "1"],
        1,
        "more than the reserve",
    );
    rules_exit(&["moves", "crossway", "VH./HV./... V"], 1, "is a checkerboard");
    rules_exit(
        &["apply", ROADS, "x3/x3/x3 1 1", "a1", "a1"],
        1,
        "move 2 `a1` is illegal",
    );
    // Malformed: unknown game, bad notation, unknown squares, missing arguments.
    rules_exit(&["moves", "chess", ".../.../... A"], 2, "unknown game `chess`");
    rules_exit(&["moves", KIT, "..../.../... A"], 2, "row 3 has 4 points");
    rules_exit(&["apply", KIT, "..B/BBA/AA. A", "Z9"], 2, "unknown square `Z9`");
    rules_exit(&["moves", ROADS, "x3/x3/x3 1 +3"], 2, "found `+3`");
    rules_exit(&["moves", ROADS, "x3/x3/x+3 1 3"], 2, "unknown cell `x+3`");
    rules_exit(
        &["apply", ROADS, "x3/x3/x3 1 1", "a1*"],
        2,
        "a placement flattens nothing",
    );
    rules_exit(&["moves", KIT], 2, "required");
    rules_exit(&["perft", KIT, ".../.../... A", "-1"], 2, "");
    // The codes are documented where the command is.
    let help = tablekit(&["rules", "--help"]);
    assert!(help.status.success());
    let text = stdout(&help);
    assert!(text.contains("Exit codes:"), "{text}");
    assert!(
        text.contains("1  the rules refuse a well-formed position or move"),
        "{text}"
    );
    assert!(text.contains("2  a malformed command"), "{text}");
}

#[test]
fn a_star_must_flatten_a_wall() {
    // b3: a White Crown on a Black flat; d3: a Black wall; b2 and d2: White flats.
    let position = "x5/x5/x,21C,x,2S,x/x,1,x,1,x/x5 1 8";
    // `2b3>11` drops the Crown alone on the wall: `*` is right, and optional.
    for mv in ["2b3>11*", "2b3>11"] {
        let run = tablekit(&["rules", "apply", "pathstone", position, mv]);
        assert!(run.status.success(), "{mv}: {}", stderr(&run));
        assert_eq!(stdout(&run), "x5/x5/x2,2,21C,x/x,1,x,1,x/x5 2 8\nongoing\n", "{mv}");
    }
    // A carry that flattens nothing, or a star and annotations: refused, exit 1.
    for (mv, end) in
        [("b2<*", "a2"), ("2b3>*", "c3"), ("b2>*!", "c2"), ("2b3>2*:BW", "c3")]
    {
        let message = format!(
            "move 1 `{mv}` is illegal: `*` marks a carry that flattens a wall, but \
             `{mv}` ends on {end}, which has no wall on top"
        );
        rules_exit(&["apply", "pathstone", position, mv], 1, &message);
    }
    // An illegal carry with a star is refused for what is wrong with it.
    rules_exit(&["apply", "pathstone", position, "d2+*"], 1, "d3 has a wall on top");
    // A placement with a star is not PTN: exit 2.
    rules_exit(
        &["apply", "pathstone", position, "Sa1*"],
        2,
        "a placement flattens nothing",
    );
}

#[test]
fn rules_moves_from_lists_the_moves_that_take_pieces_from_a_square() {
    let from = tablekit(&["rules", "moves", KIT, "BAB/..A/A.B A", "--from", "A1"]);
    assert!(from.status.success(), "{}", stderr(&from));
    assert_eq!(stdout(&from), "A1-A2\nA1-B1\n");
    let position = "x5/x5/x,21C,x,2S,x/x,1,x,1,x/x5 1 8";
    let all = stdout(&tablekit(&["rules", "moves", "pathstone", position]));
    let run = tablekit(&["rules", "moves", "pathstone", position, "--from", "b3"]);
    assert!(run.status.success(), "{}", stderr(&run));
    let text = stdout(&run);
    let expected: Vec<&str> = all
        .lines()
        .filter(|mv| {
            mv.trim_start_matches(|c: char| c.is_ascii_digit()).starts_with("b3")
        })
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(text.lines().collect::<Vec<_>>(), expected);
    assert!(text.contains("2b3>11\n"), "{text}");
    // An empty square or a placement game has none: an empty answer, not an error.
    for (game, position, square) in
        [("pathstone", position, "a1"), ("crossway", "V../.../... H", "a3")]
    {
        let run = tablekit(&["rules", "moves", game, position, "--from", square]);
        assert!(run.status.success(), "{game} {square}: {}", stderr(&run));
        assert_eq!(stdout(&run), "", "{game} {square}");
    }
    rules_exit(
        &["moves", "pathstone", position, "--from", "f1"],
        2,
        "unknown square `f1`",
    );
}

/// Parses `--divide` output: the `move: count` lines and the total.
fn divided(text: &str) -> (Vec<(String, u64)>, u64) {
    let mut lines: Vec<&str> = text.lines().collect();
    let total =
        lines.pop().and_then(|l| l.strip_prefix("total: ")).expect("a total line");
    let moves = lines
        .iter()
        .map(|line| {
            let (mv, count) = line.split_once(": ").expect("`move: count`");
            (mv.to_string(), count.parse().expect("a count"))
        })
        .collect();
    (moves, total.parse().expect("a total"))
}

#[test]
fn perft_divide_gives_each_first_move_and_the_total() {
    let run = tablekit(&["rules", "perft", "pathstone", "x3/x3/x3 1 1", "2", "--divide"]);
    assert!(run.status.success(), "{}", stderr(&run));
    assert_eq!(stderr(&run), "", "no progress or warning when stderr is not a terminal");
    let (moves, total) = divided(&stdout(&run));
    assert_eq!(total, 72);
    assert_eq!(moves.len(), 9);
    assert!(moves.iter().all(|(_, count)| *count == 8), "{moves:?}");
    assert_eq!(moves[0].0, "a1");
    // A mid-game 6×6 position from the published tables (tak-perft, tiltak): the
    // divide adds up to the plain count, and both to the published 17322.
    let mid = "x,2,2,22S,2,111S/21S,22C,112,x,1112S,11S/x,2,112212,2,2S,2/x,2,121122,x,\
               1112,211/21C,x,1,2S,21S,x/2S,x,212,1S,12S,1S 1 33";
    let plain = tablekit(&["rules", "perft", "pathstone", mid, "2"]);
    assert_eq!(stdout(&plain), "17322\n", "{}", stderr(&plain));
    let run = tablekit(&["rules", "perft", "pathstone", mid, "2", "--divide"]);
    let (moves, total) = divided(&stdout(&run));
    assert_eq!(total, 17322);
    assert_eq!(moves.len(), 56);
    assert_eq!(moves.iter().map(|(_, count)| count).sum::<u64>(), 17322);
    let sorted = {
        let mut names: Vec<&String> = moves.iter().map(|(mv, _)| mv).collect();
        names.sort();
        names
    };
    assert_eq!(sorted, moves.iter().map(|(mv, _)| mv).collect::<Vec<_>>());
    // Every game divides, down to depth 0 (one empty sequence, no first move).
    let slide = tablekit(&["rules", "perft", KIT, ".../.../... A", "3", "--divide"]);
    assert_eq!(divided(&stdout(&slide)).1, 504);
    let zero = tablekit(&["rules", "perft", KIT, ".../.../... A", "0", "--divide"]);
    assert_eq!(stdout(&zero), "total: 1\n");
}

/// Starts a perft that would run for hours, reads the first line it writes to stderr,
/// checks that it is still counting, and stops it.
fn first_warning(args: &[&str]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tablekit"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tablekit runs");
    let mut line = String::new();
    let read = BufReader::new(child.stderr.take().unwrap()).read_line(&mut line);
    std::thread::sleep(Duration::from_millis(50));
    let running = child.try_wait().expect("a status").is_none();
    child.kill().expect("the child can be stopped");
    child.wait().expect("the child ends");
    read.expect("a line on stderr");
    assert!(running, "{args:?} stopped after: {line}");
    line
}

#[test]
fn a_large_perft_is_announced_on_stderr() {
    let start = "x5/x5/x5/x5/x5 1 1";
    let line = first_warning(&["rules", "perft", "pathstone", start, "7"]);
    let about = line
        .strip_prefix("warning: perft to depth 7 will count about ")
        .and_then(|rest| rest.split_once(" move sequences"))
        .and_then(|(number, _)| number.parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no estimate in: {line}"));
    // The true count is not published; 11 293 470 152 at depth 6 and a branching
    // factor near 60 put it near 7e11.
    assert!((1e11..1e13).contains(&about), "{line}");
    assert!(line.contains("extrapolated from the count to depth 4"), "{line}");
    // A depth far past any count is refused at once (it would only exhaust the stack).
    let far = tablekit(&["rules", "perft", "pathstone", start, "4000000000"]);
    assert_eq!(far.status.code(), Some(2));
    assert!(stderr(&far).contains("at most 64"), "{}", stderr(&far));
    // A quick count says nothing.
    let quick = tablekit(&["rules", "perft", "pathstone", start, "3"]);
    assert_eq!(stdout(&quick), "43320\n");
    assert_eq!(stderr(&quick), "");
}

#[test]
fn perft_shows_progress_when_stderr_is_a_terminal() {
    // `script` runs the command on a pseudo-terminal; without it there is no terminal
    // to test with.
    let script = Path::new("/usr/bin/script");
    if !script.is_file() {
        eprintln!("skipped: no /usr/bin/script to make a terminal");
        return;
    }
    let command = format!(
        "{} rules perft pathstone 'x3/x3/x3 1 1' 2",
        env!("CARGO_BIN_EXE_tablekit")
    );
    let run = Command::new(script)
        .args(["-qec", &command, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("script runs");
    let screen = stdout(&run);
    assert!(run.status.success(), "{screen}");
    assert!(screen.contains("\rperft: 1/9 first moves counted"), "{screen:?}");
    assert!(screen.contains("\rperft: 8/9 first moves counted"), "{screen:?}");
    // The progress line is cleared before the count is printed.
    assert!(screen.contains("\r\x1b[2K72"), "{screen:?}");
}

#[test]
fn all_sizes_builds_every_size_a_kit_offers() {
    // The build `content` reads the sheet counts of.
    let args = ["pathstone", "--all-sizes", "--paper", "a4"];
    let out = crate::support::shared::build(&args).dir();
    let mut folders: Vec<String> = std::fs::read_dir(out.join("pathstone"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| !name.ends_with("-host"))
        .collect();
    folders.sort();
    assert_eq!(
        folders,
        ["en-a4-3", "en-a4-4", "en-a4-5", "en-a4-6", "en-a4-7", "en-a4-8"]
    );
}

#[test]
fn a_cell_out_of_range_is_a_command_line_mistake_naming_the_option() {
    let run =
        tablekit(&["build", "three-men-slide", "--cell", "600", "--out", "/nonexistent"]);
    assert_eq!(run.status.code(), Some(2));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("--cell: a 600 mm cell is out of range"), "{err}");
    assert!(!err.contains("kit.toml"), "{err}");
}

#[test]
fn check_builds_every_sheet_so_a_broken_template_fails_check() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = crate::cli::kit_copy(tmp.path());
    std::fs::create_dir_all(kit.join("templates")).unwrap();
    std::fs::write(kit.join("templates/board.tera"), "# Board\n@bord\n").unwrap();
    let run = tablekit(&["check", kit.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(1));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("unknown figure `@bord`"), "{err}");
    // One mistake in the template, told once, not once per language.
    assert_eq!(err.matches("unknown figure").count(), 1, "{err}");
    assert!(err.contains("1 problem found"), "{err}");
}

#[test]
fn rules_puzzles_prints_proven_puzzles_the_same_for_a_seed() {
    let args = ["rules", "puzzles", "three-men-slide", "--count", "3", "--plies", "3"];
    let run = tablekit(&args);
    assert!(run.status.success(), "{}", stderr(&run));
    let lines = stdout(&run);
    assert_eq!(lines.lines().count(), 3, "{lines}");
    assert_eq!(stdout(&tablekit(&args)), lines, "the same seed gives the same puzzles");
    for line in lines.lines() {
        let (position, solution) = line.split_once('\t').expect("position, tab, moves");
        let moves: Vec<&str> = solution.split(' ').collect();
        assert_eq!(moves.len(), 3, "{line}");
        // Replayed by the rules command: the main line ends in the mover's win.
        let mover = position.rsplit(' ').next().unwrap();
        let mut apply = vec!["rules", "apply", "three-men-slide", position];
        apply.extend(&moves);
        let replay = tablekit(&apply);
        assert!(replay.status.success(), "{}", stderr(&replay));
        assert!(stdout(&replay).contains(&format!("{mover} wins")), "{line}");
    }
    let even = tablekit(&["rules", "puzzles", "pathstone", "--plies", "4"]);
    assert_eq!(even.status.code(), Some(2));
    assert!(stderr(&even).contains("odd number of plies"), "{}", stderr(&even));
}

#[test]
fn a_source_date_epoch_that_is_no_date_is_refused_naming_the_variable() {
    for bad in ["yesterday", "-5", "1e9", "999999999999999"] {
        let run = std::process::Command::new(env!("CARGO_BIN_EXE_tablekit"))
            .args(["build", "three-men-slide", "--out", "/nonexistent/never-written"])
            .env("SOURCE_DATE_EPOCH", bad)
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(err.contains("SOURCE_DATE_EPOCH"), "{bad}: {err}");
    }
}

#[test]
fn five_ply_puzzles_on_a_large_board_are_the_command_line_s_mistake() {
    let run = tablekit(&[
        "build",
        "crossway",
        "--puzzles",
        "2",
        "--plies",
        "5",
        "--out",
        "/nonexistent/x",
    ]);
    assert_eq!(run.status.code(), Some(2));
    let err = String::from_utf8_lossy(&run.stderr).into_owned();
    assert!(err.contains("--plies") && err.contains("9×9"), "{err}");
    assert!(!err.contains("kit.toml"), "the built-in kit is not to blame: {err}");
    let lang =
        tablekit(&["build", "crossway", "--lang", "xx", "--out", "/nonexistent/x"]);
    assert_eq!(
        lang.status.code(),
        Some(2),
        "a language the kit lacks is a usage error, as documented"
    );
}

#[test]
fn rules_messages_cut_long_tokens_and_say_the_game_is_over_alike() {
    let long = "a".repeat(2000);
    let run = tablekit(&["rules", "apply", "stack-top-roads", "x3/x3/x3 1 1", &long]);
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains("… (2000 characters)"), "{err}");
    assert!(err.len() < 300, "{err}");
    let run = tablekit(&["rules", "moves", "pathstone", "x5/x5//x5/x5 1 10"]);
    assert!(stderr(&run).contains("row 3 is empty: write `x5`"), "{}", stderr(&run));
    // Every game tells a move after the end the same way: the outcome as `apply` prints it.
    for (game, won, winner) in [
        ("three-men-slide", ".BA/.AB/A.B B", "A wins (line"),
        ("stack-top-roads", "x3/2,2,x/1,1,1 2 3", "W wins (road"),
        ("crossway", "VHVHV/V.HHH/HVHHH/HVHVV/VVV.V H", "V wins (path"),
    ] {
        let err = stderr(&tablekit(&["rules", "apply", game, won, "a1"]));
        assert!(err.contains(&format!("the game is over: {winner}")), "{game}: {err}");
    }
}

#[test]
fn a_kit_date_with_a_time_of_day_or_out_of_range_is_told_at_its_line() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = crate::cli::copy_of("three-men-slide", tmp.path());
    let toml = kit.join("kit.toml");
    let dated = "date = 2026-12-02 ";
    for (bad, says) in [
        ("date = 2026-12-02T10:00:00 ", "without a time"),
        ("date = 1969-12-31 ", "from 1970-01-01 to 9999-12-31"),
    ] {
        crate::cli::edit(&toml, dated, bad);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_tablekit"))
            .args(["check", kit.to_str().unwrap()])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).to_string()
            + &String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{bad}: {err}");
        assert!(err.contains(says) && err.contains("kit.toml:7:8"), "{bad}: {err}");
        crate::cli::edit(&toml, bad, dated);
    }
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn check_and_build_agree_on_whether_a_piece_fits_its_board() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = crate::cli::copy_of("three-men-slide", tmp.path());
    let toml = kit.join("kit.toml");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_tablekit"))
            .args(args)
            .output()
            .unwrap()
    };
    let dir = kit.to_str().unwrap();
    let out = tmp.path().join("out");
    let out = out.to_str().unwrap();
    // 49.5 mm counters on points 50 mm apart: no room between them, for both commands.
    crate::cli::edit(&toml, "size-mm = 30.0 ", "size-mm = 49.5 ");
    let checked = run(&["check", dir]);
    let said = String::from_utf8_lossy(&checked.stderr).to_string();
    assert_eq!(checked.status.code(), Some(1), "{said}");
    assert!(said.contains("too large") && said.contains("at most 49 mm"), "{said}");
    let built = run(&["build", dir, "--cell", "standard", "--out", out]);
    assert!(!built.status.success());
    // 49 mm leaves the millimetre: both accept it.
    crate::cli::edit(&toml, "size-mm = 49.5 ", "size-mm = 49.0 ");
    assert!(run(&["check", dir]).status.success());
    let built = run(&["build", dir, "--cell", "standard", "--out", out]);
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
}

#[test]
fn the_command_line_and_the_library_refuse_a_language_or_size_by_one_rule() {
    use tablekit::pipeline::{Options, build};
    let sources = crate::support::shipped_kits();
    let source = sources.iter().find(|s| s.dir.contains(KIT)).expect("built in");
    let kit = tablekit::pipeline::load(source).unwrap();
    let options = |lang: &str, size: Option<u8>| Options {
        lang: lang.into(),
        paper: tablekit::Paper::a4(),
        size,
        cell: None,
        calibration: None,
        previews: Default::default(),
        class: None,
        cut: Default::default(),
        large_print: false,
        templates: tablekit::pipeline::builtin_templates(kit.game()),
    };
    let refused =
        |options: Options| build(&kit, &options).err().unwrap()[0].message.clone();
    let languages = "no language `xx`; available: ar, de, el, en, es, fr";
    assert_eq!(refused(options("xx", None)), format!("kit `{KIT}`: {languages}"));
    let sizes = "no board size 4; offered: 3×3";
    assert_eq!(refused(options("en", Some(4))), format!("kit `{KIT}`: {sizes}"));
    // The command line tells the same words as its own mistake (exit 2).
    let lang = tablekit(&["build", KIT, "--lang", "xx", "--out", "/nonexistent"]);
    assert_eq!(lang.status.code(), Some(2));
    assert!(stderr(&lang).contains(&format!("--lang: {languages}")), "{}", stderr(&lang));
    let size = tablekit(&["build", KIT, "--size", "4", "--out", "/nonexistent"]);
    assert_eq!(size.status.code(), Some(2));
    assert!(stderr(&size).contains(&format!("--size: {sizes}")), "{}", stderr(&size));
}

#[test]
fn a_refuted_example_is_told_once_by_build_in_every_language() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = crate::cli::copy_of(KIT, tmp.path());
    edit(
        &kit.join("kit.toml"),
        "moves = [\"A2-B3\"]\nlegal = false",
        "moves = [\"A2-B3\"]\nlegal = true",
    );
    let out = tmp.path().join("out");
    let run = tablekit(&[
        "build",
        kit.to_str().unwrap(),
        "--lang",
        "all",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let err = stderr(&run);
    assert_eq!(err.matches("example `diagonal`").count(), 1, "{err}");
    assert!(err.contains("1 problem found"), "{err}");
    assert!(!out.exists(), "nothing is written when an example is refuted");
}
