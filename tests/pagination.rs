//! Pagination and type measured on every kit in every language on A4, Letter and
//! A3 landscape, read back from the PDFs: no blank page, no last page under a third
//! full where the flow could have avoided it, no single line of a paragraph alone at
//! the top or foot of a page, no player text under 7 pt, lines of a readable length,
//! and no number printed with more than two decimals.

use rayon::prelude::*;
use tablekit::Paper;
use tablekit::pipeline::{Options, build};

use crate::support::boards;
use crate::support::games;
use crate::support::pdf_probe::{self, PageProbe, TextRun};
use crate::typography::long_decimal;

/// Space the footer takes at the foot of every page (`layout::footer`), and the top
/// margin: content lies between them.
const FOOTER_MM: f64 = 34.0;
const TOP_MM: f64 = 15.0;
/// Running text is set at 10 pt, and at 14 pt in large print, where nothing a player
/// reads is under 12 pt.
const BODY_PT: f64 = 10.0;
const LARGE_BODY_PT: f64 = 14.0;
const LARGE_MIN_PT: f64 = 12.0;
/// Text sizes: what players read, labels in a drawing (three characters at most: a
/// coordinate, a stack's height), and the footer (page number, ruler).
const MIN_TEXT_PT: f64 = 7.0;
const MIN_LABEL_PT: f64 = 6.5;
const MIN_FOOTER_PT: f64 = 6.0;

/// One PDF of the matrix, read back.
struct Sheet {
    name: String,
    lang: &'static str,
    paper: &'static str,
    pdf: pdf_probe::Probe,
    /// The size of its running text: 10 pt, or 14 pt in large print.
    body_pt: f64,
}

/// Builds every kit (or those named in `only`) in every language it has (or those of
/// `langs` it has) on the three papers, and Pathstone's largest boards (their stones
/// once ended on a blank page) on A4, in parallel.
fn matrix(only: &[&str], langs: &[&str]) -> Vec<Sheet> {
    let kits: Vec<_> = crate::support::library_kits()
        .iter()
        .filter(|source| {
            let id = std::path::Path::new(&source.dir).file_name().unwrap();
            only.is_empty() || only.iter().any(|o| *o == id)
        })
        .map(|source| {
            tablekit::pipeline::load(source).unwrap_or_else(|_| panic!("{}", source.dir))
        })
        .collect();
    let papers: [(&str, Paper); 3] = [
        ("a4", Paper::a4()),
        ("letter", Paper::parse("letter", false).unwrap()),
        ("a3 landscape", Paper::parse("a3", true).unwrap()),
    ];
    let papers = &papers;
    let mut jobs = Vec::new();
    for kit in &kits {
        let has = games::kit(kit.id()).languages.iter().map(String::as_str);
        for lang in has.filter(|l| langs.is_empty() || langs.contains(l)) {
            for paper in papers {
                jobs.push((kit, lang, paper, None, false));
            }
            if kit.id() == "pathstone" {
                jobs.extend(
                    [7, 8].map(|size| (kit, lang, &papers[0], Some(size), false)),
                );
            }
            // Large print, paginated by the same rules.
            jobs.push((kit, lang, &papers[0], None, true));
        }
    }
    jobs.par_iter()
        .flat_map_iter(|(kit, lang, (paper_name, paper), size, large_print)| {
            let options = Options {
                lang: (*lang).into(),
                paper: paper.clone(),
                size: *size,
                cell: None,
                templates: tablekit::pipeline::builtin_templates(kit.game()),
                calibration: None,
                previews: Default::default(),
                class: None,
                cut: Default::default(),
                large_print: *large_print,
            };
            let built = build(kit, &options).unwrap_or_else(|e| {
                panic!("{} {lang} {paper_name} {size:?}: {e:?}", kit.id())
            });
            built
                .outputs
                .into_iter()
                .map(|o| Sheet {
                    name: format!(
                        "{}{}{} {lang} {paper_name} {}",
                        kit.id(),
                        size.map_or(String::new(), |n| format!(" {n}×{n}")),
                        if *large_print { " large print" } else { "" },
                        o.file_name
                    ),
                    lang,
                    paper: paper_name,
                    pdf: pdf_probe::load(&o.bytes),
                    // The facilitator's sheets are not in large print.
                    body_pt: match *large_print
                        && !["contents.pdf", "host-key.pdf"]
                            .contains(&o.file_name.as_str())
                    {
                        true => LARGE_BODY_PT,
                        false => BODY_PT,
                    },
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The foot of the content area of a page: the footer lies below.
fn content_bottom(page: &PageProbe) -> f64 {
    page.height_mm - FOOTER_MM
}

/// How far down its content area a page's marks reach, as a share of its height; the
/// footer does not count.
fn fill(page: &PageProbe) -> f64 {
    let bottom = content_bottom(page);
    let marks = page
        .texts
        .iter()
        .map(|t| t.y)
        .chain(page.segments.iter().map(|s| s.y1.max(s.y2)))
        .chain(page.rects.iter().map(|r| r.y + r.h))
        .chain(page.curves.iter().map(|c| c.max_y));
    let lowest = marks.filter(|&y| y < bottom).fold(TOP_MM, f64::max);
    (lowest - TOP_MM) / (bottom - TOP_MM)
}

/// Whether anything is drawn on the page above the footer.
fn has_content(page: &PageProbe) -> bool {
    let bottom = content_bottom(page);
    page.texts.iter().any(|t| t.y < bottom)
        || page.segments.iter().any(|s| s.y1.min(s.y2) < bottom)
        || page.rects.iter().any(|r| r.y < bottom)
        || page.curves.iter().any(|c| c.min_y < bottom)
}

/// A line of running text: 10 pt runs on one baseline, in the content area.
struct Line {
    y: f64,
    left: f64,
    right: f64,
    chars: usize,
}

/// The lines of running text on a page, top to bottom; runs on one baseline more
/// than a word gap apart (two columns) are separate lines.
fn body_lines(page: &PageProbe, body_pt: f64) -> Vec<Line> {
    let mut runs: Vec<&TextRun> = page
        .texts
        .iter()
        .filter(|t| (t.size_pt - body_pt).abs() < 0.05 && t.y < content_bottom(page))
        .collect();
    runs.sort_by(|a, b| {
        (a.y * 2.0).round().total_cmp(&(b.y * 2.0).round()).then(a.x.total_cmp(&b.x))
    });
    let mut lines: Vec<Line> = Vec::new();
    for run in runs {
        let (left, right) = (run.x.min(run.x_end), run.x.max(run.x_end));
        let chars = run.text.chars().count();
        match lines.last_mut() {
            // A run on the line's baseline within a word gap of it, on either side
            // (runs rounded to different half-millimetres may come in either order).
            Some(line)
                if (line.y - run.y).abs() < 0.5
                    && (left - line.right).max(line.left - right) < 6.0 =>
            {
                line.left = line.left.min(left);
                line.right = line.right.max(right);
                line.chars += chars + 1;
            }
            _ => lines.push(Line { y: run.y, left, right, chars }),
        }
    }
    lines
}

/// Whether a bullet or a check box stands at the start of `line`: a new item, not
/// the rest of the paragraph before.
fn starts_item(page: &PageProbe, line: &Line) -> bool {
    let band = |top: f64, bottom: f64| top > line.y - 5.0 && bottom < line.y + 1.0;
    // A key's entry: its sample drawn just before the words (after them, reading
    // leftward), as a bullet is.
    let beside = |left: f64, right: f64| {
        (right <= line.left + 0.5 && left >= line.left - 18.0)
            || (left >= line.right - 0.5 && right <= line.right + 18.0)
    };
    page.curves.iter().any(|c| c.max_x - c.min_x < 2.5 && band(c.min_y, c.max_y))
        || page.rects.iter().any(|r| (r.w - 4.0).abs() < 0.6 && band(r.y, r.y + r.h))
        || page.rects.iter().any(|r| beside(r.x, r.x + r.w) && band(r.y, r.y + r.h))
        || page.curves.iter().any(|c| beside(c.min_x, c.max_x) && band(c.min_y, c.max_y))
        || page.segments.iter().any(|s| {
            beside(s.x1.min(s.x2), s.x1.max(s.x2)) && band(s.y1.min(s.y2), s.y1.max(s.y2))
        })
}

#[test]
fn a_kit_paginates_and_sets_type_as_a_typesetter_would() {
    // One kit, read left to right and right to left; the full tier builds them all.
    paginates_as_a_typesetter_would(&["stack-top-roads"], &["en", "ar"], 40);
}

#[test]
#[ignore = "full tier: run by .ci/run, or cargo test --release --test tests -- --ignored"]
fn every_kit_paginates_and_sets_type_as_a_typesetter_would() {
    paginates_as_a_typesetter_would(&[], &[], 300);
}

/// Every sheet of [`matrix`]`(only, langs)`, more than `at_least` of them, is paginated
/// and set as a typesetter would.
fn paginates_as_a_typesetter_would(only: &[&str], langs: &[&str], at_least: usize) {
    let sheets = matrix(only, langs);
    assert!(sheets.len() > at_least, "only {} PDFs built", sheets.len());
    let mut faults = Vec::new();
    let mut fault =
        |sheet: &Sheet, what: String| faults.push(format!("{}: {what}", sheet.name));
    // The line pitch of running text and the measure, from all the sheets.
    let all_lines: Vec<Vec<Vec<Line>>> = sheets
        .iter()
        .map(|s| s.pdf.pages.iter().map(|p| body_lines(p, s.body_pt)).collect())
        .collect();
    // The line pitch of running text of each size: the most common distance between
    // baselines.
    let pitch_of = |body_pt: f64| {
        let mut tally = std::collections::BTreeMap::new();
        let of_size = sheets.iter().zip(&all_lines).filter(|(s, _)| s.body_pt == body_pt);
        for lines in of_size.flat_map(|(_, pages)| pages) {
            for w in lines.windows(2) {
                *tally.entry(((w[1].y - w[0].y) * 10.0).round() as i64).or_insert(0) += 1;
            }
        }
        tally.iter().max_by_key(|(_, n)| **n).map_or(0.0, |(d, _)| *d as f64 / 10.0)
    };
    let (usual, large) = (pitch_of(BODY_PT), pitch_of(LARGE_BODY_PT));
    assert!((3.0..7.0).contains(&usual), "running text line pitch {usual} mm");
    assert!((5.0..9.0).contains(&large), "large print line pitch {large} mm");
    for (sheet, pages) in sheets.iter().zip(&all_lines) {
        let pitch = if sheet.body_pt == BODY_PT { usual } else { large };
        let continues = |d: f64| (d - pitch).abs() < 0.15;
        let count = sheet.pdf.pages.len();
        // A board split into parts: its labels (English), or its round target marks.
        let split = !boards::parts(&sheet.pdf.pages).is_empty()
            || sheet.pdf.pages.last().is_some_and(|p| !boards::targets(p).is_empty());
        for (index, page) in sheet.pdf.pages.iter().enumerate() {
            let number = index + 1;
            // No blank page: something is drawn above the footer.
            if !has_content(page) {
                fault(sheet, format!("page {number} of {count} is blank"));
            }
            // Type sizes.
            for run in &page.texts {
                let short = run.text.chars().filter(|c| !c.is_whitespace()).count() <= 3;
                let large = sheet.body_pt == LARGE_BODY_PT;
                let min = match (run.y >= content_bottom(page), short, large) {
                    (true, _, _) => MIN_FOOTER_PT,
                    (false, _, true) => LARGE_MIN_PT,
                    (false, true, false) => MIN_LABEL_PT,
                    (false, false, false) => MIN_TEXT_PT,
                };
                if run.size_pt < min - 0.05 {
                    fault(
                        sheet,
                        format!(
                            "p{number}: {:?} at {:.2} pt (< {min})",
                            run.text, run.size_pt
                        ),
                    );
                }
            }
        }
        // The last page holds at least a third of a page, unless the sheet is one page
        // or ends on the parts of a board split at exact scale (their size is the
        // board's, not the flow's).
        if count > 1 && !split {
            let last = fill(&sheet.pdf.pages[count - 1]);
            if last < 1.0 / 3.0 {
                fault(
                    sheet,
                    format!("last page of {count} only {:.0} % full", last * 100.0),
                );
            }
        }
        // No line of a paragraph alone across a break. The widest running-text line
        // on the sheet stands for the measure; a line reaching 85 % of it is a full
        // line, so a paragraph went on after it. A widow: a page opens with a single
        // line (the next is not at the line pitch) after a page that ends on a full
        // line. An orphan: a page ends on a single full line (the one before is not
        // at the pitch) and the next page opens at the pitch of a continuing paragraph.
        let widest = pages.iter().flatten().map(|l| l.right - l.left).fold(0.0, f64::max);
        let full = |l: &Line| l.right - l.left >= 0.85 * widest;
        let at_top = |l: &Line| l.y < TOP_MM + pitch + 1.0;
        for k in 1..pages.len() {
            let (before, here) = (&pages[k - 1], &pages[k]);
            let (Some(end), Some(start)) = (before.last(), here.first()) else {
                continue;
            };
            let ends_low =
                end.y > content_bottom(&sheet.pdf.pages[k - 1]) - 2.0 * pitch - 4.0;
            if !(at_top(start) && ends_low && full(end)) {
                continue;
            }
            if starts_item(&sheet.pdf.pages[k], start) {
                continue;
            }
            let alone_here = here.get(1).is_none_or(|n| !continues(n.y - start.y));
            let alone_there =
                before.len() < 2 || !continues(end.y - before[before.len() - 2].y);
            if alone_here {
                fault(
                    sheet,
                    format!("p{}: one line alone at the top of the page", k + 1),
                );
            }
            if alone_there && here.get(1).is_some_and(|n| continues(n.y - start.y)) {
                fault(sheet, format!("p{k}: one line alone at the foot of the page"));
            }
        }
        // Readable lines: the full lines of a Latin or Greek sheet run 55–82
        // characters (about 75 at the measure; right-to-left scripts are narrower).
        // The few lines around a board may run wider when that keeps the board on
        // its first sheet.
        if sheet.lang != "ar"
            && !sheet.name.ends_with("board.pdf")
            && sheet.body_pt == BODY_PT
        {
            let mut lengths: Vec<usize> =
                pages.iter().flatten().filter(|l| full(l)).map(|l| l.chars).collect();
            lengths.sort_unstable();
            if lengths.len() >= 5 {
                let median = lengths[lengths.len() / 2];
                if !(55..=82).contains(&median) {
                    fault(sheet, format!("running text lines of {median} characters"));
                }
            }
        }
        // Numbers for people.
        if let Some(number) = long_decimal(&sheet.pdf.text()) {
            fault(sheet, format!("prints {number:?}"));
        }
        // Wide paper is used: a rule card takes at most two A3 sheets.
        if sheet.paper == "a3 landscape"
            && sheet.name.ends_with("rule-card.pdf")
            && count > 2
        {
            fault(sheet, format!("{count} A3 sheets"));
        }
    }
    assert!(faults.is_empty(), "{} faults:\n{}", faults.len(), faults.join("\n"));
}
