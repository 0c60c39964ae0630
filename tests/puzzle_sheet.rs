//! The puzzle sheet: puzzles.pdf shows each position with its question
//! and lines to answer on; the answers are in the host key and on no player sheet.
//! The answers are read from `tablekit rules puzzles`, which the sheet's puzzles
//! must match (same generator, same seed).

use std::fs;
use std::path::{Path, PathBuf};

use crate::cli::{copy_of, edit, stderr, stdout};
use crate::support::games::{self, Notation};
use crate::support::pdf_probe::{self, Probe};
use crate::support::shared;
use crate::support::tablekit;

/// The caption of a three-ply puzzle in English.
const CAPTION: &str = "to move and win in 2 moves";

fn variant(out: &Path, kit: &str, lang: &str, size: u8) -> PathBuf {
    let base = games::kit(kit).variant(lang, "a4", size);
    crate::support::variant_dir(&out.join(kit), &base)
}

/// The folder of a shared English build of `kit` at `size` with four puzzles of
/// `plies` plies: several tests read the same sheets.
fn with_puzzles(kit: &str, size: u8, plies: &str) -> PathBuf {
    let size_arg = size.to_string();
    let out =
        shared::build(&[kit, "--size", &size_arg, "--puzzles", "4", "--plies", plies]);
    variant(out.dir(), kit, "en", size)
}

/// The puzzles' main lines, as `rules puzzles` gives them.
fn answers(kit: &str, size: u8, count: usize) -> Vec<String> {
    let size = size.to_string();
    let count = count.to_string();
    let result = tablekit(&[
        "rules", "puzzles", kit, "--size", &size, "--count", &count, "--plies", "3",
    ]);
    assert_eq!(result.status.code(), Some(0), "{}", stderr(&result));
    stdout(&result)
        .lines()
        .map(|line| line.split_once('\t').unwrap().1.to_string())
        .collect()
}

fn squash(p: &Probe) -> String {
    p.text().split_whitespace().collect()
}

fn pdfs(dir: &Path) -> Vec<(String, Probe)> {
    crate::support::variant_pdfs(dir)
        .into_iter()
        .map(|(name, path)| (name, pdf_probe::load_file(&path)))
        .collect()
}

#[test]
fn a_kit_s_puzzles_pdf_numbers_each_question_and_only_the_host_key_answers_it() {
    puzzles_numbered_and_answered_on_the_key_alone(&[games::kit("crossway")]);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn puzzles_pdf_numbers_each_question_and_only_the_host_key_answers_it() {
    puzzles_numbered_and_answered_on_the_key_alone(
        &games::kits().iter().collect::<Vec<_>>(),
    );
}

/// Each kit's puzzle sheet at its default size numbers three questions, the contents
/// sheet lists it, and only the host key gives the main lines.
fn puzzles_numbered_and_answered_on_the_key_alone(kits: &[&games::Kit]) {
    let tmp = tempfile::tempdir().unwrap();
    let count = 3;
    for listed in kits {
        let (kit, size, caption) = (listed.id.as_str(), listed.default_size, CAPTION);
        let out = tmp.path().join(kit);
        let result = tablekit(&[
            "build",
            kit,
            "--puzzles",
            "3",
            "--plies",
            "3",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(result.status.code(), Some(0), "{kit}: {}", stderr(&result));
        let dir = variant(&out, kit, "en", size);
        let files = pdfs(&dir);
        let sheet = &files.iter().find(|(n, _)| n == "puzzles.pdf").unwrap().1;
        let text = sheet.text();
        // K numbered questions, K places to answer.
        assert_eq!(text.matches(caption).count(), count, "{kit}: {text}");
        assert_eq!(text.matches("Your moves:").count(), count, "{kit}: {text}");
        for n in 1..=count {
            assert!(text.contains(&format!("{n}. ")), "{kit}: no puzzle {n}");
        }
        // The contents sheet lists it with its pages.
        let contents = &files.iter().find(|(n, _)| n == "contents.pdf").unwrap().1;
        let pages = sheet.pages.len();
        assert!(
            contents
                .column_text()
                .split_whitespace()
                .collect::<String>()
                .contains(&format!("puzzles.pdf({pages}page")),
            "{kit}: {}",
            contents.text()
        );
        let key = squash(&files.iter().find(|(n, _)| n == "host-key.pdf").unwrap().1);
        assert!(key.contains("Answerstothepracticepuzzles"), "{kit}");
        for line in answers(kit, size, count) {
            let line: String = line.split_whitespace().collect();
            assert!(
                key.contains(&format!("Mainline:{line}")),
                "{kit}: {line} not in {key}"
            );
            for (name, pdf) in files.iter().filter(|(n, _)| n != "host-key.pdf") {
                let text = squash(pdf);
                assert!(!text.contains(&line), "{kit}: the answer {line} is on {name}");
                assert!(!text.contains("Mainline:"), "{kit}: {name}");
            }
        }
    }
}

#[test]
fn the_question_counts_moves_with_the_language_s_plural_rules() {
    let tmp = tempfile::tempdir().unwrap();
    for (lang, plies, wanted) in [
        ("en", "1", "to move and win in 1 move"),
        ("fr", "1", "joue et gagne en 1 coup"),
        ("fr", "5", "joue et gagne en 3 coups"),
        ("de", "3", "am Zug gewinnt in 2 Zügen"),
    ] {
        let out = tmp.path().join(format!("{lang}{plies}"));
        let result = tablekit(&[
            "build",
            "three-men-slide",
            "--lang",
            lang,
            "--puzzles",
            "2",
            "--plies",
            plies,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(result.status.code(), Some(0), "{}", stderr(&result));
        let file = variant(&out, "three-men-slide", lang, 3).join("puzzles.pdf");
        let text = pdf_probe::load_file(&file).text();
        assert_eq!(text.matches(wanted).count(), 2, "{lang} {plies}: {text}");
    }
}

#[test]
fn a_kit_asks_for_puzzles_in_kit_toml_and_the_command_line_can_turn_them_off() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = copy_of("three-men-slide", tmp.path());
    edit(
        &kit.join("kit.toml"),
        "\n[pieces]",
        "\n[puzzles]\ncount = 2\nplies = 3\nseed = 7\n\n[pieces]",
    );
    let out = tmp.path().join("out");
    let built =
        tablekit(&["build", kit.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
    assert!(stdout(&built).contains("puzzles.pdf"), "{}", stdout(&built));
    let listed = tablekit(&["--kits", tmp.path().to_str().unwrap(), "list"]);
    assert!(
        stdout(&listed).contains("rule-card, puzzles, host-key"),
        "{}",
        stdout(&listed)
    );
    let off = tablekit(&[
        "build",
        kit.to_str().unwrap(),
        "--puzzles",
        "0",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(off.status.code(), Some(0), "{}", stderr(&off));
    assert!(!stdout(&off).contains("puzzles.pdf"), "{}", stdout(&off));
}

#[test]
fn puzzle_counts_and_lengths_out_of_range_are_refused_where_they_are_written() {
    let tmp = tempfile::tempdir().unwrap();
    for (i, (table, needle)) in [
        ("count = 25\nplies = 3", "a puzzle sheet holds 1 to 24 puzzles, not 25"),
        ("count = 2\nplies = 4", "1, 3 or 5 plies long"),
        ("count = 2\nplies = 7", "not 7"),
    ]
    .into_iter()
    .enumerate()
    {
        let kit = copy_of("three-men-slide", &tmp.path().join(i.to_string()));
        edit(
            &kit.join("kit.toml"),
            "\n[pieces]",
            &format!("\n[puzzles]\n{table}\n\n[pieces]"),
        );
        let result = tablekit(&["check", kit.to_str().unwrap()]);
        assert_eq!(result.status.code(), Some(1), "{table}");
        let err = stderr(&result);
        assert!(err.contains(needle), "{err}");
        assert!(err.contains("kit.toml:"), "{err}");
    }
    // Five plies only on small boards: Pathstone is built at 5×5 by default, 6×6 here.
    let result = tablekit(&[
        "build",
        "pathstone",
        "--size",
        "6",
        "--puzzles",
        "2",
        "--plies",
        "5",
        "--out",
        tmp.path().to_str().unwrap(),
    ]);
    // Asked on the command line: a usage error naming the option, not the kit's.
    assert_eq!(result.status.code(), Some(2));
    assert!(
        stderr(&result).contains("--plies: 5-ply puzzles are made on boards up to 5×5"),
        "{}",
        stderr(&result)
    );
    for (args, needle) in [
        (&["--puzzles", "25"][..], "--puzzles: a puzzle sheet holds 1 to 24"),
        (
            &["--puzzles", "2", "--plies", "2"][..],
            "--plies: a sheet's puzzles are 1, 3 or 5",
        ),
    ] {
        let mut all =
            vec!["build", "three-men-slide", "--out", tmp.path().to_str().unwrap()];
        all.extend(args);
        let result = tablekit(&all);
        assert_eq!(result.status.code(), Some(2), "{args:?}");
        assert!(stderr(&result).contains(needle), "{}", stderr(&result));
    }
}

#[test]
fn a_kit_without_puzzle_strings_builds_until_it_asks_for_puzzles() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = copy_of("three-men-slide", tmp.path());
    for entry in fs::read_dir(kit.join("lang")).unwrap() {
        let path = entry.unwrap().path();
        let text = fs::read_to_string(&path).unwrap();
        let start = text.find("[puzzles]").unwrap();
        let end = start + text[start..].find("[host]").unwrap();
        fs::write(&path, format!("{}{}", &text[..start], &text[end..])).unwrap();
    }
    let out = tmp.path().join("out");
    let built =
        tablekit(&["build", kit.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
    // Asked for puzzles, the kit borrows the game's own puzzle words.
    let asked = tablekit(&[
        "build",
        kit.to_str().unwrap(),
        "--puzzles",
        "2",
        "--lang",
        "fr",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(asked.status.code(), Some(0), "{}", stderr(&asked));
    let folder = fs::read_dir(out.join("three-men-slide"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.to_str().unwrap().contains("fr-a4-puzzles")
                && !p.to_str().unwrap().ends_with("-host")
        })
        .expect("the puzzles variant");
    let sheet = pdf_probe::load_file(&folder.join("puzzles.pdf"));
    assert!(!sheet.text().is_empty());
    assert!(!stderr(&asked).contains("used English"), "{}", stderr(&asked));
}

/// Stones and Crowns of each colour (1 White, 2 Black) on a TPS board.
fn pieces_on_board(tps: &str) -> [(u32, u32); 2] {
    let mut count = [(0, 0); 2];
    let board = tps.split(' ').next().unwrap();
    for cell in board.split(['/', ',']).filter(|c| !c.starts_with('x')) {
        let digits: Vec<usize> =
            cell.chars().filter_map(|c| c.to_digit(10)).map(|d| d as usize - 1).collect();
        for (i, &color) in digits.iter().enumerate() {
            let crown = i + 1 == digits.len() && cell.ends_with('C');
            match crown {
                true => count[color].1 += 1,
                false => count[color].0 += 1,
            }
        }
    }
    count
}

/// The numbers that follow each `marker` in `text`.
fn numbers_after(text: &str, marker: &str) -> Vec<u32> {
    let parts = text.split(marker).skip(1);
    parts
        .map(|rest| rest.chars().take_while(char::is_ascii_digit).collect::<String>())
        .map(|n| n.parse().unwrap())
        .collect()
}

/// A stacking game's puzzle is solvable from the page: no stack hides a piece under
/// a count, and each puzzle prints both players' stones in hand, which with the
/// stones on its board make each player's starting stones.
#[test]
fn stacking_puzzles_show_every_piece_and_both_hands() {
    for (kit, size, plies) in
        [("pathstone", 4, "1"), ("pathstone", 6, "1"), ("stack-top-roads", 3, "3")]
    {
        let dir = with_puzzles(kit, size as u8, plies);
        let size_arg = size.to_string();
        let sheet = pdf_probe::load_file(&dir.join("puzzles.pdf"));
        for page in &sheet.pages {
            // The key to the symbols shows a "+2" as a sample, under its title.
            let key = page.texts.iter().find(|t| t.text.contains("Key to the diagrams"));
            let above_key = |t: &&pdf_probe::TextRun| key.is_none_or(|k| t.y < k.y);
            let count_label = page.texts.iter().filter(above_key).find(|t| {
                let text = t.text.trim();
                text.len() > 1
                    && text.starts_with('+')
                    && text[1..].chars().all(|c| c.is_ascii_digit())
            });
            assert!(
                count_label.is_none(),
                "{kit} {size}: a stack hides pieces: {count_label:?}"
            );
        }
        let text: String =
            sheet.pages.iter().map(|p| p.column_text()).collect::<Vec<_>>().join("\n");
        let text: String = text.split_whitespace().collect();
        let white = numbers_after(&text, "Inhand:White");
        let black = numbers_after(&text, ",Black");
        assert_eq!((white.len(), black.len()), (4, 4), "{kit} {size}: {text}");
        let card: String = pdf_probe::load_file(&dir.join("rule-card.pdf"))
            .text()
            .split_whitespace()
            .collect();
        let start = numbers_after(&card, "startwith")[0];
        let listed = tablekit(&[
            "rules", "puzzles", kit, "--size", &size_arg, "--count", "4", "--plies",
            plies,
        ]);
        let on_board = stdout(&listed)
            .lines()
            .map(pieces_on_board)
            .fold([0, 0], |sum, [w, b]| [sum[0] + w.0, sum[1] + b.0]);
        assert_eq!(
            white.iter().sum::<u32>() + on_board[0],
            4 * start,
            "{kit} {size}: White's stones"
        );
        assert_eq!(
            black.iter().sum::<u32>() + on_board[1],
            4 * start,
            "{kit} {size}: Black's stones"
        );
    }
}

/// The host key says why each stacking puzzle's answer wins, as the rules find the
/// end: the road its last move completes, square by square, each beside the next and
/// joining two opposite edges; or, without a road, the flat stones on top.
#[test]
fn the_host_key_says_why_each_answer_wins() {
    let mut roads = 0;
    for (kit, size) in [("pathstone", 4u8), ("pathstone", 6), ("stack-top-roads", 3)] {
        let dir = with_puzzles(kit, size, "1");
        let host = crate::support::host_dir(&dir);
        let key = pdf_probe::load_file(&host.join("host-key.pdf")).column_text();
        // A long road may wrap after one of its dashes.
        let key = key.split_whitespace().collect::<Vec<_>>().join(" ").replace("– ", "–");
        let reasons = key.matches("The last move ").count();
        assert_eq!(reasons, 4, "{kit} {size}: one reason per answer in {key}");
        for rest in key.split("completes the road ").skip(1) {
            let road: Vec<(u8, u8)> = rest
                .split(['.', ' '])
                .next()
                .unwrap()
                .split('–')
                .map(|sq| (sq.as_bytes()[0] - b'a', sq[1..].parse::<u8>().unwrap() - 1))
                .collect();
            let beside =
                |a: (u8, u8), b: (u8, u8)| a.0.abs_diff(b.0) + a.1.abs_diff(b.1) == 1;
            assert!(
                road.windows(2).all(|w| beside(w[0], w[1])),
                "{kit} {size}: {road:?}"
            );
            let (first, last) = (road[0], road[road.len() - 1]);
            let across = first.0.min(last.0) == 0 && first.0.max(last.0) == size - 1;
            let down = first.1.min(last.1) == 0 && first.1.max(last.1) == size - 1;
            assert!(across || down, "{kit} {size}: {road:?} joins no two edges");
            roads += 1;
        }
    }
    assert!(roads > 0, "no road explained");
}

/// On a board of points the host key names the line or chain each answer's last
/// move completes: the points the rules find after the main line, each touching
/// the next (along a side or a corner), as many as a line needs.
#[test]
fn the_host_key_names_the_line_or_chain_each_answer_completes() {
    for (kit, size, marker, plies) in [
        ("three-men-slide", 3u8, "three counters in a row: ", "3"),
        ("crossway", 5, "completes the chain ", "3"),
    ] {
        let dir = with_puzzles(kit, size, plies);
        let size_arg = size.to_string();
        let host = crate::support::host_dir(&dir);
        let key = pdf_probe::load_file(&host.join("host-key.pdf")).column_text();
        let key = key.split_whitespace().collect::<Vec<_>>().join(" ");
        // Each answer's number, then its reason: the columns may interleave answers.
        let segments: Vec<&str> = key.split("Main line: ").collect();
        let mut printed: Vec<(usize, &str)> = Vec::new();
        for pair in segments.windows(2) {
            let number = pair[0].trim_end().trim_end_matches('.').rsplit(' ').next();
            let number: usize = number.unwrap().parse().unwrap();
            let Some(rest) = pair[1].split(marker).nth(1) else { continue };
            printed.push((number, rest.split(['.', ' ']).next().unwrap()));
        }
        printed.sort();
        let printed: Vec<&str> = printed.into_iter().map(|(_, cells)| cells).collect();
        let listed = tablekit(&[
            "rules", "puzzles", kit, "--size", &size_arg, "--count", "4", "--plies",
            plies,
        ]);
        let lines: Vec<String> = stdout(&listed).lines().map(str::to_string).collect();
        assert_eq!(printed.len(), lines.len(), "{kit}: one reason per answer in {key}");
        for (cells, line) in printed.iter().zip(&lines) {
            let (position, moves) = line.split_once('\t').unwrap();
            let mut args = vec!["rules", "apply", kit, position];
            args.extend(moves.split(' '));
            let end = stdout(&tablekit(&args));
            let found = end.lines().nth(1).unwrap().split_once(" wins (").unwrap().1;
            let found: Vec<&str> =
                found.trim_end_matches(')').split(' ').skip(1).collect();
            let points: Vec<&str> = cells.split('–').collect();
            assert_eq!(points, found, "{kit}: printed {cells}, the rules find {end}");
            let at = |p: &str| {
                let p = p.to_ascii_lowercase();
                (i32::from(p.as_bytes()[0]), p[1..].parse::<i32>().unwrap())
            };
            for pair in points.windows(2) {
                let ((c0, r0), (c1, r1)) = (at(pair[0]), at(pair[1]));
                let touch = (c0 - c1).abs() <= 1 && (r0 - r1).abs() <= 1;
                assert!(touch && pair[0] != pair[1], "{kit}: {cells} is not one line");
            }
            assert!(
                points.len() >= 3 || kit == "crossway" && points.len() >= size as usize
            );
        }
    }
}

/// The position a puzzle diagram's alternative text gives, in the game's notation:
/// the pieces square by square (`Position: c1: B, W wall (bottom to top); …` for a
/// stacking game, `V on b1, e1; H on a1` for points), and the player to move. A
/// stacking position gets move number 2: past the opening, and the page prints no
/// turn number, so the answer must not depend on one.
fn notation_of(kit: &str, size: usize, alt: &str) -> String {
    let words = alt.split("Position: ").nth(1).unwrap().trim_end_matches('.');
    let mut grid = vec![vec![String::new(); size]; size];
    let square = |name: &str| -> (usize, usize) {
        let name = name.to_ascii_lowercase();
        let col = usize::from(name.as_bytes()[0] - b'a');
        (name[1..].parse::<usize>().unwrap() - 1, col)
    };
    let notation = &games::kit(kit).expected().notation;
    let stacking = matches!(notation, Notation::Stacks);
    for group in words.split("; ").filter(|g| !g.is_empty()) {
        if stacking {
            let (name, pieces) = group.split_once(": ").unwrap();
            let (row, col) = square(name);
            let pieces = pieces.trim_end_matches(" (bottom to top)");
            for piece in pieces.split(", ") {
                let colour = if piece.starts_with('W') { "1" } else { "2" };
                grid[row][col].push_str(colour);
                grid[row][col].push_str(match piece.split_once(' ') {
                    Some((_, "wall")) => "S",
                    Some((_, "Crown")) => "C",
                    None => "",
                    Some((_, other)) => panic!("{kit}: a piece `{other}` in {alt}"),
                });
            }
        } else {
            let (player, points) = group.split_once(" on ").unwrap();
            for point in points.split(", ") {
                let (row, col) = square(point);
                grid[row][col] = player.to_string();
            }
        }
    }
    let mover = alt.split(" to move").next().unwrap();
    let mover = mover
        .rsplit(". ")
        .next()
        .unwrap()
        .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ' ');
    let rows = grid.iter().rev().map(|row| match stacking {
        true => row
            .iter()
            .map(|cell| if cell.is_empty() { "x" } else { cell })
            .collect::<Vec<_>>()
            .join(","),
        false => row.iter().map(|c| if c.is_empty() { "." } else { c }).collect(),
    });
    let board = rows.collect::<Vec<_>>().join("/");
    match notation {
        Notation::PointsMoverInitial => format!("{board} {}", &mover[..1]),
        Notation::PointsMoverName => format!("{board} {mover}"),
        Notation::Stacks => {
            format!("{board} {} 2", if mover.starts_with("White") { 1 } else { 2 })
        }
    }
}

/// The texts of puzzles 1 to `count` in `text`, where a diagram's text may hold a
/// row of puzzles, each starting with its number (`2. Black (B) to move …`).
fn numbered(text: &str, count: usize) -> Vec<String> {
    let start = |n: usize| {
        let mark = format!("{n}. ");
        match text.starts_with(&mark) {
            true => Some(0),
            false => text.find(&format!(". {mark}")).map(|at| at + 2),
        }
    };
    (1..=count)
        .map(|n| {
            let from = start(n).unwrap_or_else(|| panic!("no puzzle {n} in {text}"));
            let to = start(n + 1).unwrap_or(text.len());
            text[from..to].trim().to_string()
        })
        .collect()
}

/// Every printed puzzle is proved from its own page alone: the position its diagram
/// shows (read from the diagram's alternative text, which names every piece) and the
/// player to move, solved by the rules at the length the question asks, has exactly
/// one winning first move, and the line the host key prints is the rules' own.
///
/// Here each game's first proved sheet; the full tier proves them all.
#[test]
fn every_printed_puzzle_is_proved_from_its_own_page() {
    puzzles_are_proved_from_their_pages(1);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn every_printed_puzzle_of_every_proved_sheet_is_proved_from_its_own_page() {
    puzzles_are_proved_from_their_pages(usize::MAX);
}

/// The first `sheets` puzzle sheets of each game's `puzzles_proved`, each puzzle
/// proved from its own page.
fn puzzles_are_proved_from_their_pages(sheets: usize) {
    let builds = games::kits().iter().flat_map(|kit| {
        let sizes = kit.expected().puzzles_proved.iter().take(sheets);
        sizes.map(|&(size, plies)| (kit.id.as_str(), size as usize, plies))
    });
    let mut proved = 0;
    for (kit, size, plies) in builds {
        let dir = with_puzzles(kit, size as u8, plies);
        let sheet = lopdf::Document::load(dir.join("puzzles.pdf")).unwrap();
        let alts = crate::pdf_tagged::figure_alts(&sheet);
        let key =
            pdf_probe::load_file(&crate::support::host_dir(&dir).join("host-key.pdf"));
        let key = key.text().split_whitespace().collect::<Vec<_>>().join(" ");
        let puzzles = numbered(&alts.join(" "), 4);
        for (i, alt) in puzzles.iter().enumerate() {
            let position = notation_of(kit, size, alt);
            let solved = tablekit(&["rules", "solve", kit, &position, "--plies", plies]);
            assert!(
                solved.status.success(),
                "{kit} {size} puzzle {}: `{position}` from {alt:?}: {}",
                i + 1,
                stderr(&solved)
            );
            let line = stdout(&solved).trim().to_string();
            let printed = format!("{}. Main line: {line}", i + 1);
            assert!(key.contains(&printed), "{kit} {size}: {printed:?} not in {key}");
            proved += 1;
        }
    }
    let builds: usize =
        games::kits().iter().map(|k| k.expected().puzzles_proved.len().min(sheets)).sum();
    assert_eq!(proved, 4 * builds);
}

/// The six hex digits that follow `label` in `text` (whitespace removed).
fn mark_after(text: &str, label: &str) -> String {
    let at = text.find(label).unwrap_or_else(|| panic!("no {label:?} in {text}"));
    let mark: String = text[at + label.len()..].chars().take(6).collect();
    assert!(mark.chars().all(|c| c.is_ascii_hexdigit()), "{label:?} in {text}");
    mark
}

/// Adding puzzles, or changing them, leaves every other sheet as it was (its build
/// stamp included); the puzzle sheet and its answers in the host key name one set,
/// which another seed changes.
#[test]
fn puzzles_leave_the_other_sheets_and_their_stamp_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let (kit, size) = ("pathstone", games::kit("pathstone").default_size);
    let build = |name: &str, extra: &[&str]| {
        let out = tmp.path().join(name);
        let args = [&["build", kit, "--out", out.to_str().unwrap()][..], extra].concat();
        let run = tablekit(&args);
        assert!(run.status.success(), "{}", stderr(&run));
        variant(&out, kit, "en", size)
    };
    let plain = build("plain", &["--puzzles", "0"]);
    let seeds = [
        build("seed1", &["--puzzles", "2", "--plies", "1"]),
        build("seed2", &["--puzzles", "2", "--plies", "1", "--puzzle-seed", "2"]),
    ];
    let mut sets = Vec::new();
    for with in &seeds {
        for (name, path) in crate::support::variant_pdfs(&plain) {
            let other = crate::support::sheet_pdf(with, name.trim_end_matches(".pdf"));
            let same = fs::read(&path).unwrap() == fs::read(&other).unwrap();
            // The host key gains the answers and the contents sheet lists the puzzle
            // sheet; every other sheet is the same file.
            let grows = name == "host-key.pdf" || name == "contents.pdf";
            assert_eq!(same, !grows, "{name}: unchanged by puzzles? {same}");
            let stamp = |path: &Path| {
                mark_after(&squash(&pdf_probe::load_file(path)), "Buildstamp:")
            };
            if name == "contents.pdf" {
                assert_eq!(stamp(&path), stamp(&other), "the contents sheet's stamp");
            }
        }
        let sheet = squash(&pdf_probe::load_file(&with.join("puzzles.pdf")));
        let host = crate::support::host_dir(with);
        let key = squash(&pdf_probe::load_file(&host.join("host-key.pdf")));
        let set = mark_after(&sheet, "Puzzleset");
        assert_eq!(mark_after(&key, "markedpuzzleset"), set, "the answers' set");
        sets.push(set);
    }
    assert_ne!(sets[0], sets[1], "another seed, another set");
}

/// The generator's seed decides its puzzles: the same seed gives the same three-ply
/// puzzles for every game at its kit's default size, another seed others, all
/// different (the library's unit test asks every game for one-ply puzzles, and only
/// Three-men slide for three-ply ones).
#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn the_same_seed_gives_every_game_the_same_three_ply_puzzles_and_another_seed_others() {
    crate::support::library_kits();
    for game in tablekit::GameId::all() {
        let kit = games::kits().iter().find(|kit| kit.game == game.name());
        let size =
            kit.unwrap_or_else(|| panic!("no built-in kit plays {game}")).default_size;
        let once = tablekit::generate_puzzles(game, size, 3, 3, 42).unwrap();
        let again = tablekit::generate_puzzles(game, size, 3, 3, 42).unwrap();
        assert_eq!(once, again, "{game}");
        let other = tablekit::generate_puzzles(game, size, 3, 3, 43).unwrap();
        assert_ne!(once, other, "{game}");
        let positions: std::collections::BTreeSet<&str> =
            once.iter().map(|p| p.position.as_str()).collect();
        assert_eq!(positions.len(), once.len(), "{game}: puzzles are all different");
    }
}
