//! Every kit in every shipped language: translated text on the sheets, every glyph in
//! the embedded font, nothing outside the safe area, Arabic read back in logical
//! order, and translation mistakes caught by `check`.

use std::borrow::Cow;
use std::fs;
use std::path::{Path, PathBuf};

use crate::cli::{copy_of, edit, stderr, tablekit};
use crate::support::pdf_probe::{self, Probe};
use crate::support::{games, shared};

/// The languages the Three-men slide kit ships in, which its tests walk through.
fn langs() -> &'static [String] {
    &games::kit("three-men-slide").languages
}

fn kit_dir(kit: &str) -> PathBuf {
    crate::support::kit_dir(kit)
}

/// A string from a kit's strings file, as the translator wrote it.
fn string(kit: &str, lang: &str, table: &str, key: &str) -> String {
    let text = fs::read_to_string(kit_dir(kit).join("lang").join(format!("{lang}.toml")))
        .unwrap();
    let value: toml::Table = toml::from_str(&text).unwrap();
    value[table][key].as_str().unwrap().to_string()
}

#[test]
fn a_kit_prints_in_every_language_with_every_glyph_inside_the_page() {
    prints_in_every_language(&["stack-top-roads"]);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn every_kit_prints_in_every_language_with_every_glyph_inside_the_page() {
    prints_in_every_language(&games::ids());
}

/// Each of `kits`, built in all its languages, titles its sheets in each, embeds a
/// subset of every font it uses, maps every glyph to text and keeps marks inside.
fn prints_in_every_language(kits: &[&str]) {
    // Every kit in every language is one shared build; each test reads its kits.
    let built = shared::every_language();
    assert!(
        !built.stderr.contains("used English"),
        "a shipped language fell back: {}",
        built.stderr
    );
    for &kit in kits {
        for lang in &games::kit(kit).languages {
            let dir = fs::read_dir(built.dir().join(kit))
                .unwrap()
                .map(|e| e.unwrap().path())
                .find(|p| {
                    p.file_name()
                        .unwrap()
                        .to_str()
                        .unwrap()
                        .starts_with(&format!("{lang}-"))
                        && !p.to_string_lossy().ends_with("-host")
                })
                .unwrap_or_else(|| panic!("no {lang} build of {kit}"));
            for (sheet, table, key) in [
                ("rule-card", "rules", "title"),
                ("host-key", "host", "title"),
                ("board", "board", "title"),
            ] {
                let pdf = shared::probe(&crate::support::sheet_pdf(&dir, sheet));
                let heading = string(kit, lang, table, key);
                let text = pdf.text();
                assert!(
                    text.contains(&heading),
                    "{kit} {lang} {sheet}: {heading:?} not in\n{text}"
                );
                assert!(
                    !text.contains('\u{FFFD}'),
                    "{kit} {lang} {sheet}: a glyph maps to no text"
                );
                assert!(
                    pdf.fonts.iter().all(|f| f.embedded && f.subset),
                    "{kit} {lang} {sheet}"
                );
                for (i, page) in pdf.pages.iter().enumerate() {
                    if let Err(e) = page.all_marks_inside(10.0) {
                        panic!("{kit} {lang} {sheet} page {i}: {e}");
                    }
                }
            }
        }
    }
}

#[test]
fn arabic_reads_back_in_logical_order_and_is_set_flush_right() {
    let dir = shared::variant("three-men-slide", "ar", "a4", 3);
    let pdf = shared::probe(&dir.join("rule-card.pdf"));
    let title = string("three-men-slide", "ar", "rules", "title");
    let page = &pdf.pages[0];
    let run = page
        .texts
        .iter()
        .find(|t| t.text == title)
        .expect("the title as one logical run");
    // Flush right: the title ends at the right margin, so it starts well right of the left one.
    assert!(run.x > 60.0, "the Arabic title starts at {} mm", run.x);
    // Numbers inside Arabic keep their order: "A1" and "C3" read as written.
    let board = string("three-men-slide", "ar", "rules", "board");
    assert!(board.contains("A1") && page.contains_text(&board), "{}", page.text());
}

#[test]
fn check_names_a_misspelt_placeholder_with_its_file_and_key() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = copy_of("stack-top-roads", tmp.path());
    // `check` builds every variant of the kit; English and German are all this
    // mistake needs, and a sixth of the work.
    for entry in fs::read_dir(kit.join("lang")).unwrap() {
        let path = entry.unwrap().path();
        if !["en.toml", "de.toml"].contains(&path.file_name().unwrap().to_str().unwrap())
        {
            fs::remove_file(path).unwrap();
        }
    }
    let de = kit.join("lang/de.toml");
    edit(&de, "{turn_limit}", "{turnlimit}");
    let run = tablekit(&["check", kit.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(1));
    let err = stderr(&run);
    assert!(err.contains("de.toml"), "{err}");
    assert!(err.contains("placeholders in `"), "{err}");
    assert!(err.contains("expected {turn_limit}, found {turnlimit}"), "{err}");
}

#[test]
fn a_character_the_font_lacks_is_an_error_naming_the_key() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = copy_of("three-men-slide", tmp.path());
    let el = kit.join("lang/el.toml");
    let title = string("three-men-slide", "el", "board", "title");
    edit(&el, &format!("title = \"{title}\""), "title = \"棋盘\"");
    let out = tmp.path().join("out");
    let run = tablekit(&[
        "build",
        kit.to_str().unwrap(),
        "--lang",
        "el",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(1));
    let err = stderr(&run);
    assert!(
        err.contains("the font has no glyph for '棋' (U+68CB), '盘' (U+76D8)"),
        "{err}"
    );
    assert!(err.contains("in `board.title`") && err.contains("el.toml"), "{err}");
    assert!(!out.exists(), "nothing is written");
}

#[test]
fn a_translation_too_long_for_its_box_fails_naming_the_key_and_the_sheet() {
    let tmp = tempfile::tempdir().unwrap();
    let kit = copy_of("stack-top-roads", tmp.path());
    let long = "White made a road from one edge of the board to the opposite edge and so \
                won the game outright, which the host records with a tick in this box";
    let en = kit.join("lang/en.toml");
    edit(&en, "end_road_w = \"White road\"", &format!("end_road_w = \"{long}\""));
    let out = tmp.path().join("out");
    let run = tablekit(&["build", kit.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(1));
    let err = stderr(&run);
    assert!(
        err.contains("sheet `ledger` (en): the text of `ledger.end_road_w` does not fit"),
        "{err}"
    );
    assert!(!out.exists(), "nothing is written");
}

#[test]
fn no_player_sheet_in_any_language_names_the_practice_answer() {
    for lang in langs() {
        let dir = shared::variant("three-men-slide", lang, "a4", 3);
        for sheet in ["board", "counters", "repetition-log", "rule-card"] {
            let text = shared::probe(&dir.join(format!("{sheet}.pdf"))).text();
            // The answer is the slide C2 to C1, however a language writes it.
            let telling = text.lines().find(|l| l.contains("C2") && l.contains("C1"));
            assert!(
                telling.is_none(),
                "{lang} {sheet} gives the answer away: {telling:?}"
            );
        }
    }
}

/// An outline as the commands that draw it, to tell one glyph's shape from another's.
fn outline(face: &rustybuzz::ttf_parser::Face, glyph: u16) -> Vec<String> {
    struct Pen(Vec<String>);
    impl rustybuzz::ttf_parser::OutlineBuilder for Pen {
        fn move_to(&mut self, x: f32, y: f32) {
            self.0.push(format!("M{x} {y}"));
        }
        fn line_to(&mut self, x: f32, y: f32) {
            self.0.push(format!("L{x} {y}"));
        }
        fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
            self.0.push(format!("Q{x1} {y1} {x} {y}"));
        }
        fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
            self.0.push(format!("C{x1} {y1} {x2} {y2} {x} {y}"));
        }
        fn close(&mut self) {
            self.0.push("Z".into());
        }
    }
    let mut pen = Pen(Vec::new());
    face.outline_glyph(rustybuzz::ttf_parser::GlyphId(glyph), &mut pen);
    pen.0
}

/// On every Arabic sheet, each `<` and `>` is drawn as the sign typed, not as its
/// mirror image: read from the glyph the page draws (its outline in the embedded
/// font against the original face's), not from the text layer, which stays logical.
/// The Stack-top roads key to the notation draws its rightward move left to right.
#[test]
fn arabic_sheets_draw_each_direction_sign_as_typed() {
    // Every kit in Arabic with puzzles of one move: a build the diagram tests share.
    let built = shared::build(&["--puzzles", "2", "--plies", "1", "--lang", "ar"]);
    direction_signs_as_typed(built.dir(), |path| Cow::Borrowed(shared::probe(path)));
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn arabic_sheets_with_four_full_length_puzzles_draw_each_direction_sign_as_typed() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().to_str().unwrap();
    let args = ["build", "--lang", "ar", "--puzzles", "4", "--out", out];
    let run = crate::support::fixture(&args).output().expect("the fixture runs");
    assert!(run.status.success(), "{}", stderr(&run));
    direction_signs_as_typed(tmp.path(), |path| Cow::Owned(pdf_probe::load_file(path)));
}

/// Every `<` and `>` drawn on the Arabic sheets of every kit under `out` is the
/// font's glyph for the sign typed, and the Stack-top roads notation key reads left
/// to right. Each sheet is read with `read`.
fn direction_signs_as_typed(out: &Path, read: fn(&Path) -> Cow<'static, Probe>) {
    let fonts = Path::new(env!("CARGO_MANIFEST_DIR")).join("fonts");
    let regular = fs::read(fonts.join("DejaVuSans.ttf")).unwrap();
    let bold = fs::read(fonts.join("DejaVuSans-Bold.ttf")).unwrap();
    let mut signs = 0;
    let ids = games::ids();
    let folders = ids.iter().flat_map(|kit| fs::read_dir(out.join(kit)).unwrap());
    let variants = folders.map(|entry| entry.unwrap().path());
    for variant in variants.filter(|path| !path.to_string_lossy().ends_with("-host")) {
        let kit = variant.parent().unwrap().file_name().unwrap().to_string_lossy();
        for (sheet, path) in crate::support::variant_pdfs(&variant) {
            let pdf = read(&path);
            let marks = pdf.pages.iter().flat_map(|p| &p.glyphs);
            for mark in marks.filter(|m| m.text == "<" || m.text == ">") {
                let font = pdf.fonts.iter().find(|f| f.base_font == mark.font).unwrap();
                let program = font.program.as_ref().expect("an embedded TrueType font");
                let subset = rustybuzz::ttf_parser::Face::parse(program, 0).unwrap();
                let original = if mark.font.contains("Bold") { &bold } else { &regular };
                let face = rustybuzz::ttf_parser::Face::parse(original, 0).unwrap();
                let sign = mark.text.chars().next().unwrap();
                let typed = face.glyph_index(sign).unwrap().0;
                assert_eq!(
                    outline(&subset, mark.code as u16),
                    outline(&face, typed),
                    "{kit} {sheet}: a `{sign}` drawn as another glyph"
                );
                signs += 1;
            }
        }
    }
    // Enough that the check means something (the notation keys and examples).
    assert!(signs >= 16, "{signs} direction signs read");
    // The key to the notation on the Stack-top roads rule card: `2a1>11`, drawn left
    // to right, `>` pointing right.
    let variant = crate::support::variant_dir(&out.join("stack-top-roads"), "ar-a4");
    let card = read(&variant.join("rule-card.pdf"));
    let rightward = card.pages.iter().any(|page| {
        let mut marks: Vec<_> = page.glyphs.iter().collect();
        marks.sort_by(|a, b| a.y.total_cmp(&b.y).then(a.x.total_cmp(&b.x)));
        let drawn: String = marks.iter().map(|m| m.text.as_str()).collect();
        drawn.contains("2a1>11")
    });
    assert!(rightward, "no 2a1>11 drawn left to right on the Arabic rule card");
}

/// A list is broken across pages only where two of its items stay on each side, as
/// a paragraph keeps two lines: the Three-men slide stopping rules, in every
/// language, on A4, Letter and A5.
#[test]
fn a_list_keeps_two_items_on_each_side_of_a_page_break_on_a4() {
    lists_keep_two_items_a_side(&["a4"]);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn a_list_keeps_two_items_on_each_side_of_a_page_break() {
    lists_keep_two_items_a_side(&["a4", "letter", "a5"]);
}

/// The Three-men slide stopping rules, in every language on each of `papers`, break
/// across pages only with two items on each side; and some do break.
fn lists_keep_two_items_a_side(papers: &[&str]) {
    let mut broken = 0;
    for &paper in papers {
        let kit = shared::kit_in_every_language("three-men-slide", paper);
        for lang in langs() {
            let card = kit.join(format!("{lang}-{paper}/rule-card.pdf"));
            let pdf = shared::probe(&card);
            let pages: Vec<String> = pdf
                .pages
                .iter()
                .map(|p| p.text().split_whitespace().collect::<Vec<_>>().join(" "))
                .collect();
            let keys = ["end_line", "end_repetition", "end_turns", "end_stuck"];
            let item_pages: Vec<usize> = keys
                .iter()
                .map(|key| {
                    let text = string("three-men-slide", lang, "rules", key);
                    // Three words of its longest stretch without a placeholder.
                    let stretches = text.split(['{', '}']).step_by(2);
                    let longest = stretches.max_by_key(|s| s.len()).unwrap();
                    let opening = longest.split_whitespace().take(3);
                    let opening = opening.collect::<Vec<_>>().join(" ");
                    pages.iter().position(|p| p.contains(&opening)).unwrap_or_else(|| {
                        panic!("{lang} {paper}: {opening:?} on no page")
                    })
                })
                .collect();
            for page in &item_pages {
                let here = item_pages.iter().filter(|p| *p == page).count();
                assert!(here >= 2, "{lang} {paper}: one stopping rule alone on a page");
            }
            broken += usize::from(item_pages[0] != item_pages[3]);
        }
    }
    assert!(broken > 0, "no list crossed a page: the test tests nothing");
}

/// Whether `line` ends with a square and a hyphen (`C3-`) and `next` begins with a
/// square (`C2`): a move such as C3-C2 broken across two lines.
fn move_broken_between(line: &str, next: &str) -> bool {
    let end: Vec<char> = line.trim_end().chars().rev().take(3).collect();
    let ends_half = matches!(end.as_slice(), ['-', d, c] if d.is_ascii_digit() && c.is_ascii_alphabetic());
    let mut start = next.trim_start().chars();
    let begins_square = start.next().is_some_and(|c| c.is_ascii_alphabetic())
        && start.next().is_some_and(|c| c.is_ascii_digit());
    ends_half && begins_square
}

/// No move is broken across lines on any sheet, in English and Arabic: the Three-men
/// slide moves (C3-C2) of the rule card, host key and puzzle answers among them. The
/// full tier reads every kit in every language.
#[test]
fn no_move_of_a_kit_is_broken_across_lines_left_to_right_or_right_to_left() {
    assert!(move_broken_between("then C3-", "C2 wins"), "the test sees a broken move");
    assert!(!move_broken_between("then C3-C2", "wins"));
    no_move_broken(&["three-men-slide"], &["en", "ar"], 600);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn no_move_is_broken_across_lines_in_any_language() {
    no_move_broken(&games::ids(), &["all"], 1000);
}

/// No line of any sheet of `kits`, built with puzzles in each of `langs` (`all` for
/// every language), ends in half a move (more than `at_least` lines read).
fn no_move_broken(kits: &[&str], langs: &[&str], at_least: usize) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().to_str().unwrap();
    for lang in langs {
        let args = ["build", "--lang", lang, "--puzzles", "4", "--out", out];
        let run = crate::support::fixture(&[&args[..], kits].concat()).output().unwrap();
        assert!(run.status.success(), "{}", stderr(&run));
    }
    let mut lines_read = 0;
    for kit in kits {
        for folder in fs::read_dir(tmp.path().join(kit)).unwrap() {
            for (sheet, path) in crate::support::variant_pdfs(&folder.unwrap().path()) {
                for page in pdf_probe::load_file(&path).pages {
                    let text = page.text();
                    let lines: Vec<&str> = text.lines().collect();
                    lines_read += lines.len();
                    for pair in lines.windows(2) {
                        assert!(
                            !move_broken_between(pair[0], pair[1]),
                            "{kit} {sheet}: {:?} / {:?}",
                            pair[0],
                            pair[1]
                        );
                    }
                }
            }
        }
    }
    assert!(lines_read > at_least, "{lines_read} lines read");
}

/// Every registered game's built-in kit builds every sheet in every language it has,
/// on A4 and on Letter, through the library (the default tier builds two languages
/// each, `games::tests` in the library), and a registered game without a kit fails.
#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn every_registered_game_builds_in_every_language_on_a4_and_letter() {
    use tablekit::pipeline::{Options, build, builtin_templates, load};
    let kits: Vec<tablekit::kit::Kit> = crate::support::library_kits()
        .iter()
        .map(|source| load(source).expect("a built-in kit loads"))
        .collect();
    for game in tablekit::GameId::all() {
        let kit = kits.iter().find(|kit| kit.game() == game);
        let kit = kit.unwrap_or_else(|| panic!("no built-in kit plays {game}"));
        let listed = games::kit(kit.id());
        for lang in &listed.languages {
            for paper in ["a4", "letter"] {
                let options = Options {
                    lang: lang.clone(),
                    paper: tablekit::Paper::parse(paper, false).unwrap(),
                    size: None,
                    cell: None,
                    calibration: None,
                    previews: Default::default(),
                    class: None,
                    cut: Default::default(),
                    large_print: false,
                    templates: builtin_templates(game),
                };
                let built = build(kit, &options).unwrap_or_else(|e| {
                    panic!("{game} in {lang} on {paper}: {}", e[0].render())
                });
                // Every sheet the listing names: the kit's, the host key and the
                // contents sheet.
                let mut written: Vec<&str> = built
                    .outputs
                    .iter()
                    .map(|o| o.file_name.trim_end_matches(".pdf"))
                    .collect();
                let mut listed_sheets: Vec<&str> =
                    listed.sheets.iter().map(String::as_str).collect();
                written.sort();
                listed_sheets.sort();
                assert_eq!(written, listed_sheets, "{game} in {lang} on {paper}");
                assert!(built.outputs.iter().all(|o| o.pages > 0), "{game}");
            }
        }
    }
}
