//! Printer calibration: a corrected build is the same drawing scaled
//! exactly by 100/measured across and down, says so in its footer, and profiles kept
//! with `tablekit calibrate` apply the same correction. Read back with the probe.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::cli::{stderr, stdout};
use crate::support::boards::{distinct, grid_lines};
use crate::support::pdf_probe::{self, PageProbe, Probe, Segment};

/// Within a hundredth of a millimetre: far below what a ruler shows, so any error
/// seen here is in the scaling, not in rounding.
const EXACT_MM: f64 = 0.01;

/// `tablekit` with its configuration folder in `config` (never the user's).
fn tablekit_in(config: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tablekit"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("TABLEKIT_CONFIG_DIR", config)
        .output()
        .expect("tablekit runs")
}

/// Builds Pathstone 5×5 in `lang` into `out` with extra options; the variant folder.
fn build(config: &Path, out: &Path, lang: &str, extra: &[&str]) -> PathBuf {
    build_on(config, out, lang, "a4", extra)
}

/// Builds Pathstone 5×5 in `lang` on `paper` into `out`; the variant folder.
fn build_on(
    config: &Path,
    out: &Path,
    lang: &str,
    paper: &str,
    extra: &[&str],
) -> PathBuf {
    let mut args = vec!["build", "pathstone", "--lang", lang, "--paper", paper, "--out"];
    args.push(out.to_str().unwrap());
    args.extend(extra);
    let result = tablekit_in(config, &args);
    assert_eq!(result.status.code(), Some(0), "{}", stderr(&result));
    crate::support::variant_dir(&out.join("pathstone"), &format!("{lang}-{paper}-5"))
}

fn probe(dir: &Path, sheet: &str) -> Probe {
    pdf_probe::load_file(&crate::support::sheet_pdf(dir, sheet))
}

fn length(s: &Segment) -> f64 {
    (s.x2 - s.x1).hypot(s.y2 - s.y1)
}

/// Where a point of `page` lands when the page is centred on a `sheet` and scaled
/// by `(sx, sy)` about the sheet's centre.
fn scaled(
    page: &PageProbe,
    sheet: (f64, f64),
    (sx, sy): (f64, f64),
    (x, y): (f64, f64),
) -> (f64, f64) {
    let (cx, cy) = (page.width_mm / 2.0, page.height_mm / 2.0);
    (sheet.0 / 2.0 + (x - cx) * sx, sheet.1 / 2.0 + (y - cy) * sy)
}

#[test]
fn a_measured_build_scales_every_line_bar_and_board_pitch_exactly() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("config");
    let corrected =
        build(&config, &tmp.path().join("fixed"), "en", &["--measured", "99.2x100.6"]);
    let factors = (100.0 / 99.2, 100.0 / 100.6);
    // Drawn 100/99.2 as wide, the sheet is laid out 2 × 95 × 0.992 + 20 mm wide so
    // its ink keeps 10 mm from the edge; drawn smaller down, it keeps A4's height.
    let area = "208.48x297mm";
    let plain = build_on(&config, &tmp.path().join("plain"), "en", area, &[]);
    let a4 = (210.0, 297.0);
    // The contents name the paper and the command, so only its margin is compared.
    for page in &probe(&corrected, "contents").pages {
        page.all_marks_inside(9.99).unwrap_or_else(|e| panic!("contents: {e}"));
    }
    for sheet in ["board", "stones", "ledger", "rule-card", "host-key"] {
        let (a, b) = (probe(&plain, sheet), probe(&corrected, sheet));
        assert_eq!(a.pages.len(), b.pages.len(), "{sheet}");
        for (i, (pa, pb)) in a.pages.iter().zip(&b.pages).enumerate() {
            assert!((pb.width_mm - a4.0).abs() < EXACT_MM, "{sheet}: still A4");
            assert!((pb.height_mm - a4.1).abs() < EXACT_MM, "{sheet}: still A4");
            pb.all_marks_inside(9.99).unwrap_or_else(|e| panic!("{sheet} page {i}: {e}"));
            // Only the footer's words differ: every line is the same line, moved.
            assert_eq!(pa.segments.len(), pb.segments.len(), "{sheet} page {i}");
            for (sa, sb) in pa.segments.iter().zip(&pb.segments) {
                let (x1, y1) = scaled(pa, a4, factors, (sa.x1, sa.y1));
                let (x2, y2) = scaled(pa, a4, factors, (sa.x2, sa.y2));
                for (want, got) in [(x1, sb.x1), (y1, sb.y1), (x2, sb.x2), (y2, sb.y2)] {
                    assert!(
                        (want - got).abs() < EXACT_MM,
                        "{sheet} page {i}: {sa:?} {sb:?}"
                    );
                }
            }
            // The 100 mm bar prints 100/99.2 as long, so 99.2 % of it is 100 mm.
            let bar = pa
                .segments
                .iter()
                .position(|s| {
                    (length(s) - 100.0).abs() < 1e-3 && (s.y1 - s.y2).abs() < 1e-3
                })
                .unwrap_or_else(|| panic!("{sheet} page {i}: no bar"));
            let got = length(&pb.segments[bar]);
            assert!((got - 100.0 * factors.0).abs() < EXACT_MM, "{sheet}: bar {got}");
            assert!(
                pb.contains_text(
                    "Corrected for a printer whose 100 mm bar measured 99.2 × 100.6 mm"
                ),
                "{sheet} page {i}: no correction note"
            );
            assert!(!pa.contains_text("Corrected for a printer"), "{sheet}");
        }
    }
    // The board's pitch, across and down: its 0.4 mm grid lines in both builds.
    let (a, b) = (probe(&plain, "board"), probe(&corrected, "board"));
    let page = |p: &Probe| -> PageProbe {
        p.pages.iter().find(|p| !grid_lines(p, true, 0.4).is_empty()).unwrap().clone()
    };
    let (pa, pb) = (page(&a), page(&b));
    for (vertical, factor) in [(true, factors.0), (false, factors.1)] {
        let lines = distinct(grid_lines(&pa, vertical, 0.4));
        assert!(lines.len() >= 6, "{lines:?}");
        let pitch = lines[1] - lines[0];
        // The same lines in the corrected board, whatever width they are drawn at now.
        let moved: Vec<f64> = pb
            .segments
            .iter()
            .zip(&pa.segments)
            .filter(|(_, sa)| (sa.width_mm - 0.4).abs() < 0.02 && length(sa) > 17.0)
            .filter(|(_, sa)| match vertical {
                true => (sa.x1 - sa.x2).abs() < 1e-3,
                false => (sa.y1 - sa.y2).abs() < 1e-3,
            })
            .map(|(sb, _)| if vertical { sb.x1 } else { sb.y1 })
            .collect();
        let moved = distinct(moved);
        assert_eq!(moved.len(), lines.len());
        for pair in moved.windows(2) {
            let got = pair[1] - pair[0];
            assert!((got - pitch * factor).abs() < EXACT_MM, "pitch {got} vs {pitch}");
        }
    }
}

#[test]
fn the_correction_note_is_in_the_sheet_s_language_and_decimal_mark() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("config");
    let dir = build(&config, tmp.path(), "fr", &["--measured", "101.5"]);
    let board = probe(&dir, "board");
    assert!(
        board.pages[0].contains_text("mesurait 101,5 × 101,5 mm"),
        "{}",
        board.text()
    );
}

#[test]
fn implausible_measurements_are_refused_with_exit_2() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    for bad in ["89", "111", "99x89.9", "ninety"] {
        let result = tablekit_in(
            tmp.path(),
            &[
                "build",
                "three-men-slide",
                "--measured",
                bad,
                "--out",
                out.to_str().unwrap(),
            ],
        );
        assert_eq!(result.status.code(), Some(2), "{bad}");
        assert!(stderr(&result).contains("--measured"), "{}", stderr(&result));
        let kept = tablekit_in(tmp.path(), &["calibrate", "office", "--measured", bad]);
        assert_eq!(kept.status.code(), Some(2), "{bad}");
    }
    let result = tablekit_in(tmp.path(), &["calibrate", "office", "--measured", "89"]);
    assert!(stderr(&result).contains("89 mm"), "{}", stderr(&result));
    assert!(stderr(&result).contains("90 to 110 mm"), "{}", stderr(&result));
    assert!(!out.exists(), "nothing is written");
    assert!(!tmp.path().join("printers.toml").exists(), "nothing is kept");
}

#[test]
fn a_kept_printer_is_listed_and_applies_the_same_correction() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("config");
    let listed = tablekit_in(&config, &["calibrate", "--list"]);
    assert_eq!(listed.status.code(), Some(0), "{}", stderr(&listed));
    assert!(stdout(&listed).contains("no printer kept yet"), "{}", stdout(&listed));
    for (name, measured) in [("office", "99.2x100.6"), ("home-inkjet", "101")] {
        let kept = tablekit_in(&config, &["calibrate", name, "--measured", measured]);
        assert_eq!(kept.status.code(), Some(0), "{}", stderr(&kept));
    }
    assert!(config.join("printers.toml").is_file());
    let listed = stdout(&tablekit_in(&config, &["calibrate", "--list"]));
    assert!(listed.contains("office: 99.2 x 100.6 mm"), "{listed}");
    assert!(listed.contains("home-inkjet: 101 x 101 mm"), "{listed}");
    // Keeping a name again replaces its measurement.
    tablekit_in(&config, &["calibrate", "home-inkjet", "--measured", "100.4"]);
    let listed = stdout(&tablekit_in(&config, &["calibrate", "--list"]));
    assert!(listed.contains("home-inkjet: 100.4 x 100.4 mm"), "{listed}");

    let by_name = build(&config, &tmp.path().join("a"), "en", &["--printer", "office"]);
    let measured =
        build(&config, &tmp.path().join("b"), "en", &["--measured", "99.2x100.6"]);
    for sheet in ["board", "rule-card", "host-key"] {
        let read =
            |dir: &Path| std::fs::read(crate::support::sheet_pdf(dir, sheet)).unwrap();
        assert_eq!(read(&by_name), read(&measured), "{sheet}");
    }
    let unknown = tablekit_in(
        &config,
        &[
            "build",
            "pathstone",
            "--printer",
            "nope",
            "--out",
            tmp.path().to_str().unwrap(),
        ],
    );
    assert_eq!(unknown.status.code(), Some(2));
    assert!(stderr(&unknown).contains("no printer `nope`"), "{}", stderr(&unknown));
    assert!(
        stderr(&unknown).contains("kept: home-inkjet, office"),
        "{}",
        stderr(&unknown)
    );
    let bad_name = tablekit_in(&config, &["calibrate", "../x", "--measured", "100"]);
    assert_eq!(bad_name.status.code(), Some(2));
}

#[test]
fn the_calibration_page_has_both_bars_a_square_and_four_inches() {
    let tmp = tempfile::tempdir().unwrap();
    for (lang, paper) in [("en", "a4"), ("ar", "letter")] {
        let out = tmp.path().to_str().unwrap();
        let result = tablekit_in(
            tmp.path(),
            &["calibrate", "--sheet", "--lang", lang, "--paper", paper, "--out", out],
        );
        assert_eq!(result.status.code(), Some(0), "{}", stderr(&result));
        let file = tmp.path().join(format!("calibration-{lang}-{paper}.pdf"));
        let page = &pdf_probe::load_file(&file).pages[0];
        let solid = |s: &&Segment| !s.dashed;
        let across = page
            .segments
            .iter()
            .filter(solid)
            .any(|s| (length(s) - 100.0).abs() < 1e-3 && (s.y1 - s.y2).abs() < 1e-3);
        let down = page
            .segments
            .iter()
            .filter(solid)
            .any(|s| (length(s) - 100.0).abs() < 1e-3 && (s.x1 - s.x2).abs() < 1e-3);
        let inches = page.segments.iter().any(|s| (length(s) - 101.6).abs() < 1e-3);
        let square = page.rects.iter().any(|r| {
            (r.w - 100.0).abs() < 1e-3 && (r.h - 100.0).abs() < 1e-3 && r.stroked
        });
        assert!(
            across && down && inches && square,
            "{lang}: {across} {down} {inches} {square}"
        );
    }
    let unknown = tablekit_in(tmp.path(), &["calibrate", "--sheet", "--lang", "xx"]);
    assert_eq!(unknown.status.code(), Some(2));
}

#[test]
fn keeping_a_printer_keeps_the_file_s_comments_and_hand_written_names() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("config");
    std::fs::create_dir_all(&config).unwrap();
    let file = config.join("printers.toml");
    let written = "# Our printers, kept by hand.\n\n[printers.\"room 12\"]  # the old laser\nacross = 99.5\ndown = 100.5\n\n[printers.\"bad\\u001b[31mname\"]\nacross = 100.0\ndown = 100.0\n";
    std::fs::write(&file, written).unwrap();
    let kept = tablekit_in(&config, &["calibrate", "office", "--measured", "99.2x100.6"]);
    assert_eq!(kept.status.code(), Some(0), "{}", stderr(&kept));
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.starts_with("# Our printers, kept by hand."), "{text}");
    assert!(text.contains("[printers.\"room 12\"]  # the old laser"), "{text}");
    assert!(
        text.contains("[printers.office]") && text.contains("across = 99.2"),
        "{text}"
    );
    // The file still reads, every printer in it.
    let listed = tablekit_in(&config, &["calibrate", "--list"]);
    let list = String::from_utf8_lossy(&listed.stdout).into_owned();
    assert!(
        list.contains("room 12: 99.5 x 100.5 mm")
            && list.contains("office: 99.2 x 100.6")
    );
    assert!(!list.contains('\u{1b}'), "a name cannot drive the terminal: {list:?}");
    let out = tmp.path().join("out");
    let by_name = [
        "build",
        "three-men-slide",
        "--printer",
        "room 12",
        "--out",
        out.to_str().unwrap(),
    ];
    assert_eq!(tablekit_in(&config, &by_name).status.code(), Some(0));
    // No temporary file is left beside it.
    let names: Vec<_> =
        std::fs::read_dir(&config).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, ["printers.toml"]);
    // A syntax error names its line and column.
    std::fs::write(&file, "[printers.x]\nacross = = 1\n").unwrap();
    let broken = tablekit_in(&config, &["calibrate", "--list"]);
    assert_eq!(broken.status.code(), Some(2));
    assert!(stderr(&broken).contains("printers.toml:2:"), "{}", stderr(&broken));
}

#[test]
fn a_correction_keeps_the_margin_or_is_refused_naming_the_least_one_allowed() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("config");
    let out = tmp.path().join("out");
    // One kit with a board in parts; the full tier corrects every kit.
    correction_keeps_the_margin(&config, &out, &["pathstone", "--size", "8"], 10);
    // On small paper the same kind of correction leaves too little room: refused,
    // naming the least bars that work, and those build.
    let small = ["build", "three-men-slide", "--paper", "150x200mm"];
    let small = |measured: &str| {
        let args =
            [&small[..], &["--measured", measured, "--out", out.to_str().unwrap()]];
        tablekit_in(&config, &args.concat())
    };
    let refused = small("90");
    let err = stderr(&refused);
    assert_eq!(refused.status.code(), Some(2), "{err}");
    assert!(err.contains("at least 92.4 mm across and 90 mm down"), "{err}");
    assert!(!out.exists(), "nothing is built");
    let built = small("92.4x90");
    assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
}

#[test]
fn a_printers_file_that_is_a_pipe_too_large_or_full_of_names_is_read_safely() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("config");
    std::fs::create_dir_all(&config).unwrap();
    let file = config.join("printers.toml");
    // A pipe would block a plain read for ever.
    assert!(Command::new("mkfifo").arg(&file).status().unwrap().success());
    let run = tablekit_in(&config, &["calibrate", "--list"]);
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(stderr(&run).contains("is not a file"), "{}", stderr(&run));
    std::fs::remove_file(&file).unwrap();
    // Larger than any list of printers: refused, not read whole.
    std::fs::write(&file, "#".repeat(2 << 20)).unwrap();
    let run = tablekit_in(&config, &["calibrate", "--list"]);
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    // Twenty printers, one named with a terminal escape: an unknown name lists ten,
    // and no name reaches the terminal raw.
    let mut text =
        String::from("[printers.\"room\\u001b[31m\"]\nacross = 99.0\ndown = 99.0\n");
    for i in 0..19 {
        text.push_str(&format!("[printers.p{i:02}]\nacross = 99.0\ndown = 99.0\n"));
    }
    std::fs::write(&file, text).unwrap();
    let run = tablekit_in(&config, &["build", "three-men-slide", "--printer", "nosuch"]);
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains("and 10 more"), "{err}");
    let list = stdout(&tablekit_in(&config, &["calibrate", "--list"]));
    assert!(!list.contains('\u{1b}'), "{list:?}");
    assert!(list.contains("room\\u{1b}[31m"), "{list}");
}

#[test]
fn options_that_would_be_ignored_or_run_without_end_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let run = tablekit_in(tmp.path(), &["calibrate", "--sheet", "--measured", "100"]);
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(stderr(&run).contains("cannot be used with"), "{}", stderr(&run));
    let run =
        tablekit_in(tmp.path(), &["rules", "puzzles", "pathstone", "--count", "25"]);
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(stderr(&run).contains("25 is not in 1..=24"), "{}", stderr(&run));
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn a_correction_keeps_every_kit_s_marks_inside_the_margin() {
    let tmp = tempfile::tempdir().unwrap();
    let (config, out) = (tmp.path().join("config"), tmp.path().join("out"));
    correction_keeps_the_margin(&config, &out, &[], 30);
}

/// A strong correction on office paper: the sheets are laid out on a smaller area, so
/// every mark of every page built with `args` (more than `pages` on each paper) keeps
/// 10 mm from the PDF page's edge, on A4 and on Letter.
fn correction_keeps_the_margin(config: &Path, out: &Path, args: &[&str], pages: usize) {
    for paper in ["a4", "letter"] {
        let fixed = ["build", "--lang", "en", "--paper", paper, "--measured", "92x92"];
        let built = tablekit_in(
            config,
            &[&fixed[..], args, &["--out", out.to_str().unwrap()]].concat(),
        );
        assert_eq!(built.status.code(), Some(0), "{paper}: {}", stderr(&built));
        let mut checked = 0;
        for kit in std::fs::read_dir(out).unwrap() {
            for folder in std::fs::read_dir(kit.unwrap().path()).unwrap() {
                for file in std::fs::read_dir(folder.unwrap().path()).unwrap() {
                    let path = file.unwrap().path();
                    for (i, page) in pdf_probe::load_file(&path).pages.iter().enumerate()
                    {
                        page.all_marks_inside(9.99).unwrap_or_else(|e| {
                            panic!("{} page {i}: {e}", path.display())
                        });
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > pages, "{paper}: {checked} pages");
        std::fs::remove_dir_all(out).unwrap();
    }
}
