//! Print-ready pieces and boards, measured on the PDFs: every piece is cut on its own
//! outline at its printed size, pieces fit the board they are played on at every cell
//! preset, rows and sheets are packed, and boards use the fewest sheets, split on grid
//! lines with their marks off the playing surface.

use std::path::{Path, PathBuf};

use crate::cli::{stderr, tablekit};
use crate::support::boards::{self, board_grid};
use crate::support::pdf_probe::{PageProbe, Probe};
use crate::support::{games, shared};

/// Cut lines must follow the piece to this.
const CUT: f64 = 0.1;
const MM: f64 = 0.05;
/// The house cut line's width.
const CUT_WIDTH: f64 = 0.25;

/// A kit, its pieces sheet, its board lines' width and its default size suffix.
struct Case {
    id: &'static str,
    sheet: &'static str,
    line: f64,
    suffix: String,
}

/// Every built-in kit as a case.
fn cases() -> Vec<Case> {
    games::kits().iter().map(|kit| case(&kit.id)).collect()
}

fn case(id: &str) -> Case {
    let kit = games::kit(id);
    Case {
        id: &kit.id,
        sheet: kit.pieces_sheet(),
        line: kit.expected().line_width_mm,
        suffix: kit.default_suffix(),
    }
}

/// The English players' folder of `id` built with `extra`: a build shared between
/// tests, which read it and leave it as it is.
fn build(id: &str, extra: &[&str]) -> PathBuf {
    let paper = extra.windows(2).find(|w| w[0] == "--paper").map_or("a4", |w| w[1]);
    let size = extra.windows(2).find(|w| w[0] == "--size").map(|w| w[1]);
    let builtin = games::kits().iter().any(|k| k.id == id);
    // Paper and size alone: the variant other tests read too (on A4 at the default
    // size, a folder of the build of every kit in every language).
    let named = |option: &&str| *option == "--paper" || *option == "--size";
    let plain = extra.iter().step_by(2).all(named) && extra.len().is_multiple_of(2);
    if builtin && plain {
        let size = size.map_or(games::kit(id).default_size, |n| n.parse().unwrap());
        return shared::variant(id, "en", paper, size);
    }
    let args = [&[id][..], extra].concat();
    let out = shared::build(&args).dir();
    let suffix = match size {
        Some(n) => format!("-{n}"),
        None if builtin => case(id).suffix,
        None => String::new(),
    };
    // A cell size sets the edition apart: `-cell-large`, `-cell-36mm`.
    let cell = match extra.windows(2).find(|w| w[0] == "--cell").map(|w| w[1]) {
        Some(v) if v.parse::<f64>().is_ok() => format!("-cell-{v}mm"),
        Some(preset) => format!("-cell-{preset}"),
        None => String::new(),
    };
    let outline = extra.windows(2).any(|w| w == ["--cut", "outline"]);
    let cut = if outline { "-cut-outline" } else { "" };
    out.join(id).join(format!("en-{paper}{suffix}{cell}{cut}"))
}

fn probe(dir: &Path, sheet: &str) -> &'static Probe {
    shared::probe(&crate::support::sheet_pdf(dir, sheet))
}

/// The closed outlines drawn with the house cut line, as bounding boxes (w, h, x, y):
/// dashed segments joined end to end.
pub fn cut_outlines(page: &PageProbe) -> Vec<(f64, f64, f64, f64)> {
    let cuts: Vec<_> = page
        .segments
        .iter()
        .filter(|s| s.dashed && (s.width_mm - CUT_WIDTH).abs() < 0.02)
        .collect();
    let mut group: Vec<usize> = (0..cuts.len()).collect();
    fn root(g: &mut [usize], i: usize) -> usize {
        let mut i = i;
        while g[i] != i {
            g[i] = g[g[i]];
            i = g[i];
        }
        i
    }
    let near = |a: (f64, f64), b: (f64, f64)| {
        (a.0 - b.0).abs() < 1e-3 && (a.1 - b.1).abs() < 1e-3
    };
    for i in 0..cuts.len() {
        for j in i + 1..cuts.len() {
            let (a, b) = (cuts[i], cuts[j]);
            let ends_a = [(a.x1, a.y1), (a.x2, a.y2)];
            let ends_b = [(b.x1, b.y1), (b.x2, b.y2)];
            if ends_a.iter().any(|p| ends_b.iter().any(|q| near(*p, *q))) {
                let (ri, rj) = (root(&mut group, i), root(&mut group, j));
                group[ri] = rj;
            }
        }
    }
    let mut boxes = std::collections::BTreeMap::new();
    for (i, s) in cuts.iter().enumerate() {
        let r = root(&mut group, i);
        let b = boxes.entry(r).or_insert((f64::MAX, f64::MAX, f64::MIN, f64::MIN));
        b.0 = b.0.min(s.x1.min(s.x2));
        b.1 = b.1.min(s.y1.min(s.y2));
        b.2 = b.2.max(s.x1.max(s.x2));
        b.3 = b.3.max(s.y1.max(s.y2));
    }
    boxes.values().map(|b| (b.2 - b.0, b.3 - b.1, b.0, b.1)).collect()
}

/// Discs drawn filled and stroked in one path: a round piece whose outline is its cut
/// line. (w, h, x, y)
pub fn discs(page: &PageProbe, size: f64) -> Vec<(f64, f64, f64, f64)> {
    page.curves
        .iter()
        .filter(|c| c.filled && c.stroked && ((c.max_x - c.min_x) - size).abs() < CUT)
        .map(|c| (c.max_x - c.min_x, c.max_y - c.min_y, c.min_x, c.min_y))
        .collect()
}

/// The pieces on a sheet: every cut outline and round piece, as (w, h, x, y).
fn pieces(pdf: &Probe, size: f64) -> Vec<Vec<(f64, f64, f64, f64)>> {
    pdf.pages
        .iter()
        .map(|p| {
            let mut all = cut_outlines(p);
            all.extend(discs(p, size));
            all
        })
        .collect()
}

pub fn piece_size(id: &str) -> f64 {
    games::kit(id).expected().piece_mm
}

#[test]
fn every_piece_is_cut_on_its_own_outline_at_its_printed_size() {
    for case in &cases() {
        let dir = build(case.id, &["--cut", "outline"]);
        let sheet = probe(&dir, case.sheet);
        let size = piece_size(case.id);
        // Allowed outlines: a disc or square `size` across, a hexagon `size` tall
        // (pointed top), a folding strip `size` × 2 `size`.
        let hex = size * 3f64.sqrt() / 2.0;
        let allowed = [(size, size), (hex, size), (size, 2.0 * size)];
        let mut count = 0;
        for (page, found) in sheet.pages.iter().zip(pieces(sheet, size)) {
            // No cut square or tile around a piece.
            assert!(
                page.rects
                    .iter()
                    .all(|r| !(r.stroked && r.w > size + CUT && r.w < size + 10.0)),
                "{}: a cut tile around a piece",
                case.id
            );
            for (w, h, x, y) in found {
                assert!(
                    allowed
                        .iter()
                        .any(|(aw, ah)| (w - aw).abs() < CUT && (h - ah).abs() < CUT),
                    "{}: cut outline {w:.2} × {h:.2} mm at ({x:.1}, {y:.1}) is not a piece's",
                    case.id
                );
                count += 1;
            }
        }
        assert!(count >= 8, "{}: {count} pieces", case.id);
    }
}

#[test]
fn a_kit_s_pieces_fit_its_board_at_every_cell_preset() {
    // Crossway: 20 mm stones on points 22 mm apart, the least room of the built-in kits.
    pieces_fit_at_every_preset(&[case("crossway")]);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn pieces_fit_their_board_at_every_cell_preset() {
    pieces_fit_at_every_preset(&cases());
}

/// At each cell preset the widest piece of each case is at least 1 mm narrower than
/// the tightest spacing of its board.
fn pieces_fit_at_every_preset(cases: &[Case]) {
    for case in cases {
        for preset in ["small", "standard", "large"] {
            let dir = build(case.id, &["--cell", preset, "--cut", "outline"]);
            let (xs, ys) = board_grid(&probe(&dir, "board").pages, case.line);
            let tightest = xs
                .windows(2)
                .chain(ys.windows(2))
                .map(|p| p[1] - p[0])
                .fold(f64::MAX, f64::min);
            let sheet = probe(&dir, case.sheet);
            let widest = sheet
                .pages
                .iter()
                .flat_map(|p| {
                    let mut all = cut_outlines(p);
                    all.extend(p.curves.iter().filter(|c| c.filled && c.stroked).map(
                        |c| (c.max_x - c.min_x, c.max_y - c.min_y, c.min_x, c.min_y),
                    ));
                    all
                })
                .map(|(w, h, _, _)| w.min(h))
                .fold(0.0, f64::max);
            assert!(widest > 5.0, "{} {preset}: no pieces found", case.id);
            assert!(
                widest <= tightest - 1.0 + MM,
                "{} {preset}: {widest:.2} mm pieces on a board {tightest:.2} mm apart",
                case.id
            );
        }
    }
    // Crossway at Go spacing: stones of at most about 20 mm on 22 × 23.7 mm.
    let dir = build("crossway", &["--cut", "outline"]);
    let stones = pieces(probe(&dir, "stones"), 20.0);
    assert!(stones.iter().flatten().all(|(w, _, _, _)| *w <= 20.0 + CUT));
}

#[test]
fn a_cell_too_small_for_its_pieces_is_refused_with_the_numbers() {
    let tmp = tempfile::tempdir().unwrap();
    let crossway = crate::cli::copy_of("crossway", tmp.path());
    let toml = crossway.join("kit.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replace("size-mm = 20.0", "size-mm = 21.0")).unwrap();
    let out = tmp.path().join("out");
    let run = tablekit(&[
        "build",
        crossway.to_str().unwrap(),
        "--cell",
        "18",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!run.status.success());
    let err = stderr(&run);
    assert!(err.contains("17.2 mm pieces") && err.contains("18.0 mm"), "{err}");
    assert!(!out.exists(), "nothing written");
}

#[test]
fn rows_of_pieces_are_balanced_and_no_sheet_is_blank() {
    for (id, extra) in [
        ("crossway", vec![]),
        ("crossway", vec!["--size", "5"]),
        ("pathstone", vec!["--size", "8"]),
        ("three-men-slide", vec![]),
    ] {
        let extra = [extra, vec!["--cut", "outline"]].concat();
        let dir = build(id, &extra);
        let case = case(id);
        let sheet = probe(&dir, case.sheet);
        let size = piece_size(id);
        for (i, found) in pieces(sheet, size).iter().enumerate() {
            assert!(!found.is_empty(), "{id} {extra:?}: page {} has no piece", i + 1);
            // Rows by their top; the pieces of one kind (same outline) in consecutive
            // rows differ by at most one.
            let mut rows: std::collections::BTreeMap<(i64, i64, i64), usize> =
                Default::default();
            for (w, h, _, y) in found {
                let key = (
                    (w * 10.0).round() as i64,
                    (h * 10.0).round() as i64,
                    (y * 10.0).round() as i64,
                );
                *rows.entry(key).or_default() += 1;
            }
            let mut by_kind: std::collections::BTreeMap<(i64, i64), Vec<usize>> =
                Default::default();
            for ((w, h, _), n) in rows {
                by_kind.entry((w, h)).or_default().push(n);
            }
            for counts in by_kind.values() {
                let (lo, hi) =
                    (counts.iter().min().unwrap(), counts.iter().max().unwrap());
                assert!(
                    hi - lo <= 1 || counts.len() == 1,
                    "{id} {extra:?}: page {} rows of {counts:?}",
                    i + 1
                );
            }
        }
    }
}

/// The pages of a board sheet, and how many of its parts there are.
fn board(dir: &Path) -> (usize, usize) {
    let pdf = probe(dir, "board");
    (pdf.pages.len(), boards::parts(&pdf.pages).len())
}

#[test]
fn boards_use_the_fewest_sheets() {
    // Crossway 9×9 prints whole on A4 and on Letter.
    for paper in ["a4", "letter"] {
        let dir = build("crossway", &["--paper", paper]);
        // One page: the board with its title and legend, no page of words alone.
        assert_eq!(board(&dir), (1, 0), "crossway 9×9 on {paper}: one sheet, not split");
        let text = probe(&dir, "board").pages[0].text();
        for words in ["Board", "V (Black) builds", "H (White) builds"] {
            assert!(text.contains(words), "{paper}: {words:?} with the board");
        }
        let (xs, ys) = board_grid(&probe(&dir, "board").pages, 0.35);
        assert_eq!((xs.len(), ys.len()), (9, 9));
        probe(&dir, "board").pages.iter().for_each(|p| p.all_marks_inside(10.0).unwrap());
    }
    // Three-men slide and Stack-top roads at `--cell large` on one A4 page.
    for id in ["three-men-slide", "stack-top-roads"] {
        let dir = build(id, &["--cell", "large"]);
        assert_eq!(board(&dir), (1, 0), "{id} --cell large");
        probe(&dir, "board").pages[0].all_marks_inside(10.0).unwrap();
    }
    // Crossway 8×8 on Letter fits one sheet with its title and legend; its other words
    // go on the contents sheet rather than take a sheet of their own.
    let dir = build("crossway", &["--size", "8", "--paper", "letter"]);
    assert_eq!(board(&dir), (1, 0), "crossway 8×8 on Letter");
    let sheet = probe(&dir, "board");
    assert!(sheet.pages[0].contains_text("Board"), "the board keeps its title");
    assert!(sheet.pages[0].contains_text("builds between"), "and its legend");
    let contents = probe(&dir, "contents");
    assert!(
        contents.pages.iter().any(|p| p.contains_text("If a ruler does not find 22 mm"))
    );
    assert!(
        !contents.pages.iter().any(|p| p.contains_text("Putting the board together"))
    );
    // Pathstone 8×8 on A4: two halves, each on a sheet turned to landscape, the board's
    // words and plan on the contents sheet: two sheets in all (four upright).
    let dir = build("pathstone", &["--size", "8"]);
    assert_eq!(board(&dir), (2, 2), "pathstone 8×8");
    let contents = probe(&dir, "contents");
    let section =
        contents.pages.iter().find(|p| p.contains_text("Putting the board together"));
    let section = section.expect("the plan is on the contents sheet");
    assert!(section.contains_text("printed at full size on 2 sheets"));
    // The plan: the two parts drawn small, numbered in gluing order.
    for number in ["1", "2"] {
        assert!(
            section.texts.iter().any(|t| t.text == number),
            "part {number} in the plan"
        );
    }
    let pdf = probe(&dir, "board");
    assert!(pdf.pages[0].contains_text("Board · Part 1 of 2"), "the title leads part 1");
    for page in &pdf.pages {
        assert!(page.width_mm > page.height_mm, "a part sheet is landscape");
        // The footer and the part stay inside the printable area of the turned page.
        page.all_marks_inside(10.0).unwrap();
        let bar = page.segments.iter().filter(|s| (s.y1 - s.y2).abs() < 1e-3);
        let lowest = bar.map(|s| s.y1).fold(0.0, f64::max);
        assert!(
            lowest > page.height_mm - 34.0,
            "the footer sits at the foot of the turned page"
        );
    }
    // 19×19 Crossway: 3 × 2 parts on upright A4; on Letter 3 × 3, the last row's
    // three on one sheet, 7 sheets rather than 10 (and no one-row strip).
    let dir = build("crossway", &["--size", "19"]);
    assert_eq!(board(&dir).1, 6, "crossway 19×19 on A4");
    let dir = build("crossway", &["--size", "19", "--paper", "letter"]);
    assert_eq!(board(&dir), (7, 9), "crossway 19×19 on Letter");
}

#[test]
fn every_board_legend_sits_above_its_board() {
    for (id, legend) in [
        ("three-men-slide", "Movement edge"),
        ("stack-top-roads", "heavy edges"),
        ("pathstone", "heavy outline"),
        ("crossway", "builds between"),
    ] {
        let dir = build(id, &[]);
        let page = &probe(&dir, "board").pages[0];
        let at = |wanted: &dyn Fn(&str) -> bool| {
            page.texts
                .iter()
                .filter(|t| wanted(&t.text))
                .map(|t| t.y)
                .fold(f64::NAN, f64::min)
        };
        let legend_y = at(&|t| t.contains(legend));
        // The top row of coordinates (column letters) is the board's upper edge.
        let board_y = at(&|t| t.trim().eq_ignore_ascii_case("a"));
        assert!(
            legend_y < board_y,
            "{id}: legend at {legend_y} mm, board from {board_y} mm"
        );
    }
}

#[test]
fn a_board_template_with_more_than_words_before_the_board_keeps_it_all_in_place() {
    let tmp = tempfile::tempdir().unwrap();
    let templates = tmp.path().join("templates");
    std::fs::create_dir_all(&templates).unwrap();
    let board =
        "# {{ t.board.title }}\n{{ t.board.intro }}\n\n@write-in ledger.date\n\n@board\n";
    std::fs::write(templates.join("board.tera"), board).unwrap();
    let extra = ["--size", "8", "--templates", templates.to_str().unwrap()];
    let dir = build("pathstone", &extra);
    // The write-in line stays with the board, and so do its words and the plan.
    let board = probe(&dir, "board");
    assert!(board.pages[0].contains_text("Putting the board together"));
    let contents = probe(&dir, "contents");
    assert!(
        !contents.pages.iter().any(|p| p.contains_text("Putting the board together"))
    );
}

#[test]
fn split_boards_meet_on_their_seams_and_reassemble_exactly_with_marks_off_the_board() {
    for (id, extra, line, pitch) in [
        ("pathstone", vec!["--size", "8"], 0.4, (32.0, 32.0)),
        ("crossway", vec!["--size", "19"], 0.35, (22.0, 23.7)),
        ("crossway", vec!["--size", "13", "--paper", "letter"], 0.35, (22.0, 23.7)),
        ("stack-top-roads", vec!["--cell", "80"], 0.4, (80.0, 80.0)),
    ] {
        let dir = build(id, &extra);
        let pdf = probe(&dir, "board");
        let parts = boards::parts(&pdf.pages);
        assert!(parts.len() > 1, "{id} {extra:?} is split");
        // Pathstone 8×8's parts are on landscape sheets: they reassemble all the same.
        let turned = pdf.pages.iter().filter(|p| p.width_mm > p.height_mm).count();
        if id == "pathstone" {
            assert!(turned > 0, "{id} {extra:?}: landscape parts");
        }
        let (xs, ys, marks) = boards::reassembled(&parts, line);
        for (lines, step) in [(&xs, pitch.0), (&ys, pitch.1)] {
            for pair in lines.windows(2) {
                assert!(
                    (pair[1] - pair[0] - step).abs() < MM,
                    "{id} {extra:?}: {pair:?}"
                );
            }
        }
        // Every mark lies outside the grid: off the playing surface.
        let (x0, x1) = (xs[0], xs[xs.len() - 1]);
        let (y0, y1) = (ys[0], ys[ys.len() - 1]);
        for (x, y) in marks {
            let inside = x > x0 - 2.0 && x < x1 + 2.0 && y > y0 - 2.0 && y < y1 + 2.0;
            assert!(!inside, "{id} {extra:?}: a mark on the board at ({x:.1}, {y:.1})");
        }
        // Each seam lies on a grid line, a part's trimmed edge one of its lines; where
        // stones stand on the lines (Crossway), midway between two.
        let midway = id == "crossway";
        for part in &parts[1..] {
            let cuts: Vec<f64> = part
                .page
                .segments
                .iter()
                .filter(|s| s.dashed && (s.x1 - s.x2).abs() < 1e-3)
                .map(|s| s.x1)
                .collect();
            let left = cuts.iter().copied().fold(f64::MAX, f64::min);
            if part.column > 1 {
                let lines = boards::grid_lines(&part.page, true, line);
                let on_line = lines.iter().any(|x| (x - left).abs() < MM);
                // Half a column from the part's first line.
                let between = lines.iter().any(|x| (x - left - pitch.0 / 2.0).abs() < MM);
                assert!(
                    if midway { between && !on_line } else { on_line },
                    "{id} {extra:?}: part r{}c{} is not trimmed on its seam",
                    part.row,
                    part.column
                );
            }
        }
    }
}

/// Ink in the dark side's pieces on each page, read from the content stream: each
/// grey-filled shape of piece size is a dark face, and every filled path whose centre
/// lies in one (the face itself, its bar, its Crown) adds its area (shoelace over its
/// points, curves by their end and control points) times its fill's darkness, in mm².
/// Returns, per page, that ink, the faces' area, and the lightest face's grey. Text is
/// left out: a letter is a small share of a piece.
fn ink(bytes: &[u8]) -> Vec<(f64, f64, f64)> {
    use lopdf::content::Content;
    const MM: f64 = 25.4 / 72.0;
    let doc = lopdf::Document::load_mem(bytes).expect("a PDF");
    let mut out = Vec::new();
    for (_, id) in doc.get_pages() {
        let content = Content::decode(&doc.get_page_content(id)).unwrap();
        let (mut gray, mut stack) = (0.0_f64, Vec::new());
        let mut paths: Vec<Vec<(f64, f64)>> = Vec::new();
        // (min x, min y, max x, max y), area, grey of every filled shape.
        let mut shapes: Vec<([f64; 4], f64, f64)> = Vec::new();
        let num = |o: &lopdf::Object| o.as_float().map(f64::from).unwrap_or(0.0);
        for op in &content.operations {
            let a: Vec<f64> = op.operands.iter().map(num).collect();
            match op.operator.as_str() {
                "q" => stack.push(gray),
                "Q" => gray = stack.pop().unwrap_or(0.0),
                "g" => gray = a[0],
                "rg" => gray = (a[0] + a[1] + a[2]) / 3.0,
                "m" => paths.push(vec![(a[0], a[1])]),
                "l" => paths.last_mut().unwrap().push((a[0], a[1])),
                "c" => paths.last_mut().unwrap().extend([
                    (a[0], a[1]),
                    (a[2], a[3]),
                    (a[4], a[5]),
                ]),
                "re" => paths.push(vec![
                    (a[0], a[1]),
                    (a[0] + a[2], a[1]),
                    (a[0] + a[2], a[1] + a[3]),
                    (a[0], a[1] + a[3]),
                ]),
                "f" | "F" | "f*" | "B" | "B*" | "b" | "b*" => {
                    for path in paths.drain(..) {
                        let next = path.iter().cycle().skip(1);
                        let twice: f64 = path
                            .iter()
                            .zip(next)
                            .map(|(p, q)| p.0 * q.1 - q.0 * p.1)
                            .sum();
                        let xs = path.iter().map(|p| p.0 * MM);
                        let ys = path.iter().map(|p| p.1 * MM);
                        let bbox = [
                            xs.clone().fold(f64::MAX, f64::min),
                            ys.clone().fold(f64::MAX, f64::min),
                            xs.fold(f64::MIN, f64::max),
                            ys.fold(f64::MIN, f64::max),
                        ];
                        shapes.push((bbox, twice.abs() / 2.0 * MM * MM, gray));
                    }
                }
                "S" | "s" | "n" => paths.clear(),
                _ => {}
            }
        }
        let faces: Vec<_> = shapes
            .iter()
            .filter(|(_, area, g)| *g > 0.05 && *g < 0.95 && *area > 100.0)
            .collect();
        let inside = |b: &[f64; 4]| {
            let (x, y) = ((b[0] + b[2]) / 2.0, (b[1] + b[3]) / 2.0);
            faces.iter().any(|(f, _, _)| x > f[0] && x < f[2] && y > f[1] && y < f[3])
        };
        let ink: f64 = shapes
            .iter()
            .filter(|(b, _, _)| inside(b))
            .map(|(_, area, g)| area * (1.0 - g))
            .sum();
        let area: f64 = faces.iter().map(|f| f.1).sum();
        let lightest = faces.iter().map(|f| f.2).fold(0.0, f64::max);
        out.push((ink, area, lightest));
    }
    out
}

#[test]
fn dark_pieces_take_at_most_a_third_of_the_ink_of_solid_dark_faces() {
    // Each kit's dark pieces (Pathstone's strips and Crowns at 8×8), against the same
    // faces printed solid 70 % grey as they once were.
    for (id, sheet, extra) in [
        ("pathstone", "stones", vec!["--size", "8"]),
        ("crossway", "stones", vec![]),
        ("stack-top-roads", "stones", vec![]),
        ("three-men-slide", "counters", vec![]),
    ] {
        let dir = build(id, &extra);
        let bytes = std::fs::read(dir.join(format!("{sheet}.pdf"))).unwrap();
        let pages = ink(&bytes);
        let (ink, faces) =
            pages.iter().fold((0.0, 0.0), |(i, f), (a, b, _)| (i + a, f + b));
        assert!(faces > 0.0, "{id}: no dark pieces found");
        let before = faces * 0.7;
        assert!(ink <= before / 3.0, "{id}: {ink:.0} mm² of ink, {before:.0} mm² before");
        // The dark faces stay apart from white in greyscale: at least 15 % grey.
        let lightest = pages.iter().map(|p| p.2).fold(0.0, f64::max);
        assert!(lightest <= 0.85, "{id}: dark faces as light as {lightest}");
    }
}

/// The part numbers on a board's pages, page by page, in the order they stand.
fn part_numbers(pages: &[PageProbe]) -> Vec<usize> {
    let mut numbers = Vec::new();
    for page in pages {
        let mut labels: Vec<_> =
            page.texts.iter().filter(|t| t.text.contains("Part ")).collect();
        labels.sort_by(|a, b| a.y.total_cmp(&b.y));
        for label in labels {
            let rest = &label.text[label.text.find("Part ").unwrap() + 5..];
            numbers.push(
                rest.chars()
                    .take_while(char::is_ascii_digit)
                    .collect::<String>()
                    .parse()
                    .unwrap(),
            );
        }
    }
    numbers
}

/// Split boards read and glue well: parts are printed in the order of their numbers,
/// none is narrower than two cells, and no coordinate or other label is crossed by
/// a part's cut line or lies on a glue tab, where the next part covers it. The full
/// tier checks every kit with a board in parts, on the papers and cells that split it.
#[test]
fn split_board_parts_come_in_order_and_keep_their_labels_whole() {
    // A sample of the full tier's splits: a board split in a row, one split both
    // ways on Letter, a small landscape paper, and Pathstone's landscape halves.
    split_parts_in_order_with_labels_whole(&[
        ("crossway", &["--size", "13"], 22.0),
        ("crossway", &["--size", "19", "--paper", "letter"], 22.0),
        ("three-men-slide", &["--paper", "150x200mm", "--landscape"], 0.0),
        ("pathstone", &["--size", "8"], 32.0),
    ]);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn split_board_parts_on_every_paper_and_cell_come_in_order_and_keep_their_labels_whole() {
    split_parts_in_order_with_labels_whole(&[
        ("crossway", &["--size", "13"], 22.0),
        ("crossway", &["--size", "13", "--paper", "legal"], 22.0),
        ("crossway", &["--size", "19", "--paper", "letter"], 22.0),
        ("crossway", &["--paper", "150x200mm"], 22.0),
        ("crossway", &["--cell", "large"], 30.0),
        ("three-men-slide", &["--paper", "150x200mm", "--landscape"], 0.0),
        ("pathstone", &["--size", "8"], 32.0),
        ("pathstone", &["--size", "7", "--paper", "letter"], 32.0),
    ]);
}

/// The board of each of `builds` (a kit, its options, and the least part side in
/// cells, 0 for none) is split into parts in order, none crossing a label.
fn split_parts_in_order_with_labels_whole(builds: &[(&str, &[&str], f64)]) {
    for &(kit, options, cell) in builds {
        // The builds the other tests of this module read too.
        let out = shared::build(&[&[kit][..], options].concat()).dir();
        let folder = std::fs::read_dir(out.join(kit))
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| !p.to_string_lossy().ends_with("-host"))
            .unwrap();
        let pdf = shared::probe(&folder.join("board.pdf"));
        let what = format!("{kit} {options:?}");
        let numbers = part_numbers(&pdf.pages);
        assert!(numbers.len() > 1, "{what}: not split");
        assert!(numbers.windows(2).all(|w| w[0] < w[1]), "{what}: parts {numbers:?}");
        let parts = boards::parts(&pdf.pages);
        let columns = parts.iter().map(|p| p.column).max().unwrap();
        for part in parts {
            // The part's own number, printed on its tab to be covered.
            let own = ((part.row - 1) * columns + part.column).to_string();
            let (xs, ys) =
                (boards::cut_lines(&part, true), boards::cut_lines(&part, false));
            let (left, right) = (
                xs.iter().copied().fold(f64::INFINITY, f64::min),
                xs.iter().copied().fold(0.0, f64::max),
            );
            let (top, bottom) = (
                ys.iter().copied().fold(f64::INFINITY, f64::min),
                ys.iter().copied().fold(0.0, f64::max),
            );
            if cell > 0.0 {
                assert!(
                    right - left >= 2.0 * cell && bottom - top >= 2.0 * cell,
                    "{what}: part {} is {:.0} × {:.0} mm",
                    part.row,
                    right - left,
                    bottom - top
                );
            }
            // A part with a neighbour to its right or below carries a tab there.
            let tab_right = has_neighbour(&pdf.pages, &part, true);
            let tab_below = has_neighbour(&pdf.pages, &part, false);
            let labels = part.page.texts.iter().filter(|t| !t.text.contains("Part "));
            for label in labels.filter(|t| t.text.trim() != own) {
                let (x0, x1) = (label.x.min(label.x_end), label.x.max(label.x_end));
                let (y0, y1) = (label.y - label.size_pt * 0.3, label.y);
                // What the part's outline reaches: the footer and its label lie outside.
                if x1 < left || x0 > right || y1 < top || y0 > bottom {
                    continue;
                }
                let inside_y = |y: f64| y > y0 + 0.05 && y < y1 - 0.05;
                let inside_x = |x: f64| x > x0 + 0.05 && x < x1 - 0.05;
                for &x in &xs {
                    assert!(
                        !(inside_x(x) && y0 > top && y1 < bottom),
                        "{what}: {:?} crossed by a cut at x {x:.1}",
                        label.text
                    );
                }
                for &y in &ys {
                    assert!(
                        !(inside_y(y) && x0 > left && x1 < right),
                        "{what}: {:?} crossed by a cut at y {y:.1}",
                        label.text
                    );
                }
                let on_tab = (tab_right
                    && x1 > right - boards::TAB_MM + 0.05
                    && x0 < right)
                    || (tab_below && y1 > bottom - boards::TAB_MM + 0.05 && y0 < bottom);
                assert!(
                    !on_tab,
                    "{what}: {:?} on a glue tab, under the next part",
                    label.text
                );
            }
        }
    }
}

/// Whether the split has a part right of (or below) `part`.
fn has_neighbour(pages: &[PageProbe], part: &boards::Part, right: bool) -> bool {
    boards::parts(pages).iter().any(|p| match right {
        true => p.row == part.row && p.column == part.column + 1,
        false => p.column == part.column && p.row == part.row + 1,
    })
}
