//! Boards read back from PDFs: grid lines, target marks, and boards split into parts
//! put back together through their marks.
#![allow(dead_code)]

use super::pdf_probe::PageProbe;

const MM: f64 = 0.05;

/// Diameter of the round target marks that line parts up.
pub const TARGET_MM: f64 = 4.0;

/// Centres of the round target marks on a page.
pub fn targets(page: &PageProbe) -> Vec<(f64, f64)> {
    page.curves
        .iter()
        .filter(|c| {
            ((c.max_x - c.min_x) - TARGET_MM).abs() < MM
                && ((c.max_y - c.min_y) - TARGET_MM).abs() < MM
        })
        .map(|c| ((c.min_x + c.max_x) / 2.0, (c.min_y + c.max_y) / 2.0))
        .collect()
}

/// Positions of the grid lines of a given width, vertical or horizontal.
pub fn grid_lines(page: &PageProbe, vertical: bool, width: f64) -> Vec<f64> {
    // Legends draw 16 mm samples of the same lines; board lines here are longer.
    let long = |s: &&super::pdf_probe::Segment| (s.x2 - s.x1).hypot(s.y2 - s.y1) > 17.0;
    page.segments
        .iter()
        .filter(|s| (s.width_mm - width).abs() < 0.02)
        .filter(long)
        .filter(|s| {
            if vertical { (s.x1 - s.x2).abs() < 1e-3 } else { (s.y1 - s.y2).abs() < 1e-3 }
        })
        .map(|s| if vertical { s.x1 } else { s.y1 })
        .collect()
}

pub fn distinct(mut values: Vec<f64>) -> Vec<f64> {
    values.sort_by(f64::total_cmp);
    values.dedup_by(|a, b| (*a - *b).abs() < MM);
    values
}

/// A part of a split board: what lies between its label and the next part's.
#[derive(Clone)]
pub struct Part {
    /// The part's marks and lines only.
    pub page: PageProbe,
    /// Its row and column in the split, from 1.
    pub row: usize,
    pub column: usize,
    /// The baseline of its label: parts in one row or column of the split have their
    /// frames at the same offset from it.
    pub label_y: f64,
}

/// The parts on a board's pages, from their labels "Part k of n: row r, column c" (after
/// the sheet's title on a sheet of parts only); a
/// page may hold several.
pub fn parts(pages: &[PageProbe]) -> Vec<Part> {
    let mut out = Vec::new();
    for page in pages {
        let mut labels: Vec<&super::pdf_probe::TextRun> =
            page.texts.iter().filter(|t| t.text.contains("Part ")).collect();
        labels.sort_by(|a, b| a.y.total_cmp(&b.y));
        for (i, label) in labels.iter().enumerate() {
            let (top, bottom) =
                (label.y - 5.0, labels.get(i + 1).map_or(f64::INFINITY, |n| n.y - 5.0));
            let inside = |y: f64| y >= top && y < bottom;
            let mut part = page.clone();
            part.segments.retain(|s| inside(s.y1.min(s.y2)));
            part.curves.retain(|c| inside(c.min_y));
            part.rects.retain(|r| inside(r.y));
            part.texts.retain(|t| inside(t.y));
            let number = |after: &str| -> usize {
                let rest = &label.text
                    [label.text.find(after).expect("a part label") + after.len()..];
                rest.chars()
                    .take_while(char::is_ascii_digit)
                    .collect::<String>()
                    .parse()
                    .unwrap()
            };
            out.push(Part {
                page: part,
                row: number("row "),
                column: number("column "),
                label_y: label.y,
            });
        }
    }
    out.sort_by_key(|p| (p.row, p.column));
    out
}

/// The offset that carries part `b`'s marks onto part `a`'s, `b` being the part to the
/// right of `a` (`right`) or below it. Parts of one row share their frames' height on
/// the page, parts of one column their left edge, so one mark seen on both gives the
/// shift; it is the largest one in that direction.
fn shared_offset(a: &Part, b: &Part, right: bool) -> Option<(f64, f64)> {
    let (ta, tb) = (targets(&a.page), targets(&b.page));
    let across = if right { a.label_y - b.label_y } else { 0.0 };
    ta.iter()
        .flat_map(|p| tb.iter().map(move |q| (p.0 - q.0, p.1 - q.1)))
        .filter(|s| {
            if right {
                s.0 > 1.0 && (s.1 - across).abs() < MM
            } else {
                s.1 > 1.0 && (s.0 - across).abs() < MM
            }
        })
        .max_by(|x, y| if right { x.0.total_cmp(&y.0) } else { x.1.total_cmp(&y.1) })
}

/// Width of a glue tab.
pub const TAB_MM: f64 = 8.0;

/// The cut lines around a part: `vertical` ones' x, or horizontal ones' y.
pub fn cut_lines(part: &Part, vertical: bool) -> Vec<f64> {
    part.page
        .segments
        .iter()
        .filter(|s| s.dashed && (s.width_mm - 0.25).abs() < 0.02)
        .filter(|s| {
            if vertical { (s.x1 - s.x2).abs() < 1e-3 } else { (s.y1 - s.y2).abs() < 1e-3 }
        })
        .map(|s| if vertical { s.x1 } else { s.y1 })
        .collect()
}

/// The shift that lays `b`'s trimmed edge on the seam at the start of `a`'s glue tab.
fn by_cut_lines(a: &Part, b: &Part, right: bool) -> Option<(f64, f64)> {
    let far = cut_lines(a, right).into_iter().reduce(f64::max)?;
    let near = cut_lines(b, right).into_iter().reduce(f64::min)?;
    let along = far - TAB_MM - near;
    Some(if right { (along, a.label_y - b.label_y) } else { (0.0, along) })
}

/// Puts the parts of a split board back together through their target marks and
/// returns the grid lines in one frame.
pub fn reassemble(parts: &[Part], width: f64) -> (Vec<f64>, Vec<f64>) {
    let (xs, ys, _) = reassembled(parts, width);
    (xs, ys)
}

/// [`reassemble`], with the centres of every part's target marks in the same frame.
#[allow(clippy::type_complexity)]
pub fn reassembled(parts: &[Part], width: f64) -> (Vec<f64>, Vec<f64>, Vec<(f64, f64)>) {
    let mut placed: Vec<Option<(f64, f64)>> = vec![None; parts.len()];
    placed[0] = Some((0.0, 0.0));
    for _ in 0..parts.len() {
        for i in 0..parts.len() {
            for j in 0..parts.len() {
                let (a, b) = (&parts[i], &parts[j]);
                let right = a.row == b.row && b.column == a.column + 1;
                let below = a.column == b.column && b.row == a.row + 1;
                if let (Some(at), None, true) = (placed[i], placed[j], right || below) {
                    // A part in the middle of a large split shares no mark with
                    // some neighbours: its trimmed edge then lies on the tab's seam.
                    let shift =
                        shared_offset(a, b, right).or_else(|| by_cut_lines(a, b, right));
                    if let Some(shift) = shift {
                        placed[j] = Some((at.0 + shift.0, at.1 + shift.1));
                    }
                }
            }
        }
    }
    assert!(
        placed.iter().all(Option::is_some),
        "some part could not be placed through the marks: {placed:?}"
    );
    let (mut xs, mut ys, mut marks) = (Vec::new(), Vec::new(), Vec::new());
    for (part, at) in parts.iter().zip(placed.iter().flatten()) {
        xs.extend(grid_lines(&part.page, true, width).into_iter().map(|x| x + at.0));
        ys.extend(grid_lines(&part.page, false, width).into_iter().map(|y| y + at.1));
        marks.extend(targets(&part.page).into_iter().map(|(x, y)| (x + at.0, y + at.1)));
    }
    (distinct(xs), distinct(ys), marks)
}

/// The grid lines of a board as printed: read off the one page that holds it whole, or
/// put together from its parts when it was split.
pub fn board_grid(pages: &[PageProbe], width: f64) -> (Vec<f64>, Vec<f64>) {
    let parts = parts(pages);
    if !parts.is_empty() {
        return reassemble(&parts, width);
    }
    let whole: Vec<&PageProbe> =
        pages.iter().filter(|p| !grid_lines(p, true, width).is_empty()).collect();
    assert_eq!(whole.len(), 1, "a board that is not split is on one page");
    (
        distinct(grid_lines(whole[0], true, width)),
        distinct(grid_lines(whole[0], false, width)),
    )
}
