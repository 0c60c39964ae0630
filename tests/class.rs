//! A class build (`--players`, `--tables`): the contents sheet's copies and totals,
//! recomputed here from the PDFs written; the one print job; the host key in its own
//! folder; and every option that changes the sheets naming its own folder.

use std::path::{Path, PathBuf};

use crate::cli::{stderr, stdout, tablekit};
use std::collections::BTreeMap;

use crate::support::pdf_probe::{self, PageProbe, Probe};
use crate::support::{games, shared};

/// Every built-in kit, with the folder suffix of its default size (`-9`, or none).
fn kits() -> Vec<(&'static str, String)> {
    games::kits().iter().map(|k| (k.id.as_str(), k.default_suffix())).collect()
}

fn build(out: &Path, args: &[&str]) {
    let mut all = vec!["build", "--out", out.to_str().unwrap()];
    all.extend_from_slice(args);
    let run = crate::support::fixture(&all).output().expect("the fixture runs");
    assert!(run.status.success(), "{}", stderr(&run));
}

/// The text of a PDF with its line breaks and runs of spaces as single spaces.
fn flat_text(probe: &Probe) -> String {
    probe.text().split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The cuts a page asks for, read from its dashed cut lines: each straight line once
/// however many strokes draw it (touching or overlapping strokes along one row or
/// column are one cut). A grid build has no other cut.
fn straight_cuts(page: &PageProbe) -> usize {
    let mut lines: BTreeMap<(bool, i64), Vec<(f64, f64)>> = BTreeMap::new();
    for s in page.segments.iter().filter(|s| s.dashed && (s.width_mm - 0.25).abs() < 0.02)
    {
        let key = |v: f64| (v * 20.0).round() as i64;
        let (horizontal, at, a, b) = match (s.y1 - s.y2).abs() < 1e-3 {
            true => (true, key(s.y1), s.x1.min(s.x2), s.x1.max(s.x2)),
            false => {
                assert!((s.x1 - s.x2).abs() < 1e-3, "a slanted cut line: {s:?}");
                (false, key(s.x1), s.y1.min(s.y2), s.y1.max(s.y2))
            }
        };
        lines.entry((horizontal, at)).or_default().push((a, b));
    }
    lines
        .into_values()
        .map(|mut spans| {
            spans.sort_by(|a, b| a.0.total_cmp(&b.0));
            let (mut cuts, mut end) = (0, f64::NEG_INFINITY);
            for (a, b) in spans {
                cuts += usize::from(a > end + 0.05);
                end = end.max(b);
            }
            cuts
        })
        .sum()
}

fn cuts(probe: &Probe) -> usize {
    probe.pages.iter().map(straight_cuts).sum()
}

fn copies(sheet: &str) -> usize {
    match sheet {
        "contents" | "host-key" => 1,
        "rule-card" | "quick-start" => 6,
        _ => 12,
    }
}

fn pdfs_in(dir: &Path) -> Vec<(String, Probe)> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".pdf"))
        .collect();
    names.sort();
    names.into_iter().map(|n| (n.clone(), pdf_probe::load_file(&dir.join(n)))).collect()
}

#[test]
fn a_kit_s_class_plan_counts_copies_paper_and_cuts_that_the_pdfs_bear_out() {
    // Pathstone: stones and Crowns, spares per table.
    class_plan_holds(&["pathstone"]);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn a_class_plan_counts_copies_paper_and_cuts_that_the_pdfs_bear_out() {
    class_plan_holds(&[]);
}

/// The class build of `only` (every kit if none is named): the contents sheet's
/// copies, paper and cuts are those of the files written.
fn class_plan_holds(only: &[&str]) {
    let tmp = tempfile::tempdir().unwrap();
    build(tmp.path(), &[&["--players", "24", "--tables", "6"][..], only].concat());
    for (kit, size) in
        kits().into_iter().filter(|(k, _)| only.is_empty() || only.contains(k))
    {
        let players =
            tmp.path().join(kit).join(format!("en-a4{size}-players-24-tables-6"));
        let host = PathBuf::from(format!("{}-host", players.display()));
        let host_files = pdfs_in(&host);
        let names: Vec<&str> = host_files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            ["host-key.pdf"],
            "{kit}: the host's folder holds the key alone"
        );
        let mut files = pdfs_in(&players);
        assert!(
            files.iter().all(|(n, _)| n != "host-key.pdf"),
            "{kit}: no key with the players"
        );
        let job_at =
            files.iter().position(|(n, _)| n == "print-all.pdf").expect("print-all.pdf");
        let (_, job) = files.remove(job_at);
        files.extend(host_files);
        let contents =
            flat_text(&files.iter().find(|(n, _)| n == "contents.pdf").unwrap().1);
        let (mut sheets, mut cut_total, mut job_pages) = (0, 0, 0);
        for (name, probe) in &files {
            let sheet = name.trim_end_matches(".pdf");
            let (pages, n) = (probe.pages.len(), copies(sheet));
            let unit = if pages == 1 { "page" } else { "pages" };
            let print = if n == 1 { "1 copy".to_string() } else { format!("{n} copies") };
            let listed = format!("{name} ({pages} {unit}), {print}:");
            assert!(contents.contains(&listed), "{kit}: {listed:?} not in\n{contents}");
            sheets += pages * n;
            cut_total += cuts(probe) * n;
            if sheet != "host-key" {
                // Every page with cut lines has a blank back; each copy starts a sheet.
                let cut_pages =
                    probe.pages.iter().filter(|p| straight_cuts(p) > 0).count();
                job_pages += (pages + cut_pages).div_ceil(2) * 2 * n;
            }
        }
        assert!(
            contents.contains(&format!("Paper: {sheets} sheets, one-sided")),
            "{kit}: {sheets} sheets\n{contents}"
        );
        assert!(cut_total > 0, "{kit} has pieces to cut");
        let cut_words = format!("Cutting: {cut_total} cuts along");
        assert!(contents.contains(&cut_words), "{kit}: {cut_words:?}\n{contents}");
        assert!(contents.contains("24 players at 6 tables: 12 games at a time"), "{kit}");
        assert_eq!(job.pages.len(), job_pages, "{kit}: print-all.pdf pages");
        let job_text = flat_text(&job);
        let key = flat_text(&files.iter().find(|(n, _)| n == "host-key.pdf").unwrap().1);
        let key_title =
            key.split(" · ").nth(1).unwrap().split(" · ").next().unwrap().to_string();
        assert!(
            !job_text.contains(&format!("· {key_title} ·")),
            "{kit}: a host-key page in print-all"
        );
    }
}

#[test]
fn pieces_on_a_grid_take_few_straight_cuts_each_the_size_printed() {
    for (kit, sheet, most) in [("pathstone", "stones", 60), ("crossway", "stones", 40)] {
        let dir = shared::variant(kit, "en", "a4", games::kit(kit).default_size);
        let probe = shared::probe(&dir.join(format!("{sheet}.pdf")));
        let cuts = cuts(probe);
        assert!(cuts > 0 && cuts <= most, "{kit}: {cuts} cuts, at most {most}");
        // The first page's cut lines are a grid whose cells are the pieces' size.
        let size = if kit == "pathstone" { 24.0 } else { 20.0 };
        for page in probe.pages.iter().take(1) {
            let mut xs: Vec<f64> = page
                .segments
                .iter()
                .filter(|s| s.dashed && (s.x1 - s.x2).abs() < 1e-3)
                .map(|s| (s.x1 * 100.0).round() / 100.0)
                .collect();
            xs.sort_by(f64::total_cmp);
            xs.dedup_by(|a, b| (*a - *b).abs() < 0.05);
            for pair in xs.windows(2) {
                let step = pair[1] - pair[0];
                assert!(
                    (step - size).abs() < 0.1,
                    "{kit}: cells {step} mm apart, pieces {size} mm"
                );
            }
        }
    }
}

#[test]
fn print_all_is_in_preparation_order_pieces_before_the_board() {
    let tmp = tempfile::tempdir().unwrap();
    build(tmp.path(), &["three-men-slide", "--players", "4"]);
    let dir = tmp.path().join("three-men-slide/en-a4-players-4");
    let job = pdf_probe::load_file(&dir.join("print-all.pdf"));
    let firsts: Vec<String> = job
        .pages
        .iter()
        .filter(|p| !p.texts.is_empty())
        .map(|p| p.texts.iter().map(|t| t.text.as_str()).collect::<Vec<_>>().join(" "))
        .collect();
    let at = |word: &str| {
        firsts.iter().position(|t| t.contains(word)).unwrap_or_else(|| panic!("{word}"))
    };
    // Each page's footer names its sheet: "Three-men slide · Board · 1e03c6".
    assert!(at("· Contents of this kit ·") < at("· Counters ·"));
    assert!(at("· Counters ·") < at("· Board ·"));
    assert!(at("· Board ·") < at("· Rule card ·"));
    assert!(firsts.iter().all(|t| !t.contains("· Host key ·")));
    let blank =
        job.pages.iter().filter(|p| p.texts.is_empty() && p.segments.is_empty()).count();
    assert!(blank > 0, "blank backs");
}

/// The sample: a cell preset, a correction, no puzzles and a class, beside the plain
/// build.
#[test]
fn every_option_that_changes_the_sheets_names_its_own_folder() {
    options_name_their_own_folders(&[
        (&[], "en-a4"),
        (&["--cell", "large"], "en-a4-cell-large"),
        (&["--measured", "99.2x100.6"], "en-a4-corrected-99.2x100.6"),
        (&["--puzzles", "0"], "en-a4-no-puzzles"),
        (&["--players", "6"], "en-a4-players-6"),
    ]);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn each_of_the_options_that_change_the_sheets_names_its_own_folder() {
    options_name_their_own_folders(&[
        (&[], "en-a4"),
        (&["--cell", "large"], "en-a4-cell-large"),
        (&["--cell", "36"], "en-a4-cell-36mm"),
        (&["--measured", "99.2x100.6"], "en-a4-corrected-99.2x100.6"),
        (&["--puzzles", "2", "--plies", "1"], "en-a4-puzzles-2-plies-1"),
        (&["--puzzles", "0"], "en-a4-no-puzzles"),
        (&["--cut-marks"], "en-a4-cut-marks"),
        (&["--players", "6"], "en-a4-players-6"),
        (&["--large-print"], "en-a4-large-print"),
    ]);
}

/// Three-men slide built into one folder with each of `builds`' options writes the
/// players' folder named beside them, with its host key beside that, and no other.
fn options_name_their_own_folders(builds: &[(&[&str], &str)]) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path();
    for (extra, _) in builds {
        let mut args = vec!["three-men-slide"];
        args.extend_from_slice(extra);
        build(out, &args);
    }
    let mut folders: Vec<String> = std::fs::read_dir(out.join("three-men-slide"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.ends_with("-host"))
        .collect();
    folders.sort();
    let mut named: Vec<&str> = builds.iter().map(|(_, folder)| *folder).collect();
    named.sort();
    assert_eq!(folders, named);
    for folder in &folders {
        let host =
            out.join("three-men-slide").join(format!("{folder}-host/host-key.pdf"));
        assert!(host.is_file(), "{folder}: its host key beside it");
    }
}

#[test]
fn a_kit_s_host_key_names_the_player_sheets_it_belongs_to_on_its_first_page() {
    host_key_names_its_sheets(&["three-men-slide"]);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn the_host_key_names_the_player_sheets_it_belongs_to_on_its_first_page() {
    host_key_names_its_sheets(&[]);
}

/// In `only` (every kit if none is named), in English, French and Arabic, the host
/// key's first page names the build stamp of the player sheets it belongs to.
fn host_key_names_its_sheets(only: &[&str]) {
    // Every kit in every language is one build shared between tests.
    let built = shared::every_language().dir();
    for (kit, size) in
        kits().into_iter().filter(|(k, _)| only.is_empty() || only.contains(k))
    {
        for lang in ["en", "fr", "ar"] {
            let players = built.join(kit).join(format!("{lang}-a4{size}"));
            let contents = shared::probe(&players.join("contents.pdf"));
            // Every page's footer ends its caption with the build stamp.
            let footer =
                contents.pages[0].texts.iter().rfind(|t| t.text.contains(" · ")).unwrap();
            let stamp = footer.text.rsplit(" · ").next().unwrap().trim().to_string();
            assert_eq!(stamp.len(), 6, "{kit} {lang}: {stamp:?}");
            let key = shared::probe(&crate::support::sheet_pdf(&players, "host-key"));
            let first: String = key.pages[0]
                .texts
                .iter()
                .filter(|t| !t.text.contains(" · "))
                .map(|t| t.text.as_str())
                .collect();
            assert!(
                first.contains(&stamp),
                "{kit} {lang}: {stamp} not on the key's first page"
            );
        }
    }
}

#[test]
fn an_impossible_class_is_refused_with_the_numbers() {
    let run = tablekit(&["build", "crossway", "--players", "24", "--tables", "13"]);
    assert_eq!(run.status.code(), Some(2), "{}", stdout(&run));
    assert!(stderr(&run).contains("1 to 12 tables, not 13"), "{}", stderr(&run));
}

/// The text of the column of a two-column page that holds `words`, top to bottom.
fn column_text(page: &PageProbe, words: &str) -> String {
    let at = page.texts.iter().find(|t| t.text.contains(words)).unwrap();
    let right = at.x > page.width_mm / 2.0;
    let mut column: Vec<_> =
        page.texts.iter().filter(|t| (t.x > page.width_mm / 2.0) == right).collect();
    column.sort_by(|a, b| a.y.total_cmp(&b.y).then(a.x.total_cmp(&b.x)));
    let column: Vec<&str> = column.iter().map(|t| t.text.trim()).collect();
    column.join(" ").split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every variant folder under `out` (not the host's), with its contents sheet.
fn contents_sheets(out: &Path) -> Vec<(PathBuf, Probe)> {
    let mut found = Vec::new();
    for kit in std::fs::read_dir(out).unwrap() {
        for variant in std::fs::read_dir(kit.unwrap().path()).unwrap() {
            let variant = variant.unwrap().path();
            let contents = variant.join("contents.pdf");
            if contents.exists() {
                found.push((variant, pdf_probe::load_file(&contents)));
            }
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

#[test]
fn the_contents_sheet_is_a_one_page_plan_for_a_board_in_parts_and_for_a_class() {
    // Pathstone 8×8 on A4 is a board in parts.
    let tmp = tempfile::tempdir().unwrap();
    let base = ["pathstone", "--size", "8", "--lang", "ar"];
    build(tmp.path(), &base);
    build(tmp.path(), &[&base[..], &["--players", "24", "--tables", "6"]].concat());
    contents_plans_hold(tmp.path(), 2);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn the_contents_sheet_is_a_one_page_plan_in_every_language_size_paper_and_class() {
    let tmp = tempfile::tempdir().unwrap();
    for paper in ["a4", "letter", "a3"] {
        let base = ["--all-sizes", "--lang", "all", "--paper", paper];
        build(tmp.path(), &base);
        build(tmp.path(), &[&base[..], &["--players", "24", "--tables", "6"]].concat());
    }
    contents_plans_hold(tmp.path(), 600);
}

/// Every contents sheet under `out` (at least `builds` of them) is a plan of one page,
/// or two where a board's words go on a second, never set under 7 pt.
fn contents_plans_hold(out: &Path, builds: usize) {
    let sheets = contents_sheets(out);
    assert!(sheets.len() >= builds, "{} builds", sheets.len());
    for (variant, probe) in &sheets {
        // The plan is one page; the words and gluing plan of a board in parts (or of a
        // board whose words would take it onto a second sheet) follow on a second.
        let (pages, board) = (probe.pages.len(), variant.join("board.pdf"));
        let moved = pdf_probe::load_file(&board).pages.len() > 1 || pages == 2;
        assert!(pages == 1 || (pages == 2 && moved), "{}: {pages}", variant.display());
        if pages == 2 {
            let second = probe.pages[1].text();
            assert!(!second.contains(".pdf"), "{}: {second}", variant.display());
        }
        // The plan is for the facilitator: smaller than a player sheet where it must
        // be, never under the 7 pt a player reads (the ruler's figures aside).
        // The footer's print note is set as on every sheet, smaller where it must.
        let ruler = ["cm", "in"];
        let words = probe.pages[0].texts.iter().filter(|t| {
            t.text.chars().any(char::is_alphabetic)
                && !ruler.contains(&t.text.trim())
                && t.y < probe.pages[0].height_mm - 34.0
        });
        for text in words {
            assert!(text.size_pt >= 7.0 - 1e-6, "{}: {text:?}", variant.display());
        }
    }
}

#[test]
fn the_plan_says_what_to_do_when_a_piece_is_lost_and_its_command_remakes_the_build() {
    let tmp = tempfile::tempdir().unwrap();
    build(tmp.path(), &["pathstone", "--size", "4", "--players", "24", "--tables", "6"]);
    let variant = tmp.path().join("pathstone/en-a4-4-players-24-tables-6");
    let before = std::fs::read(variant.join("stones.pdf")).unwrap();
    let probe = pdf_probe::load_file(&variant.join("contents.pdf"));
    let plan = column_text(&probe.pages[0], "make them again");
    for words in ["If a piece goes missing", "Storing the sets", "a spare stone"] {
        assert!(plan.contains(words), "{words:?} not in\n{plan}");
    }
    // A 4×4 set has no Crowns, and its storing note says so by leaving them out.
    assert!(plan.contains("the board, 16 stones a side, a blank record"), "{plan}");
    let command = plan.split("make them again: ").nth(1).unwrap();
    let command = command.split(" Meanwhile").next().unwrap();
    let args: Vec<&str> = command.split(' ').collect();
    assert_eq!(args[..2], ["tablekit", "build"], "{command}");
    std::fs::remove_dir_all(tmp.path().join("pathstone")).unwrap();
    build(tmp.path(), &args[2..]);
    assert_eq!(std::fs::read(variant.join("stones.pdf")).unwrap(), before, "{command}");
}
