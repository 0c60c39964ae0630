//! Boards read back from PDFs: grid lines, target marks, and boards split into parts
//! put back together through their marks.
#![allow(dead_code)]

use super::pdf_probe::PageProbe;

const MM: f64 = 0.05;

/// Centres of the round target marks on a page.
pub fn targets(page: &PageProbe) -> Vec<(f64, f64)> {
    page.curves
        .iter()
        .filter(|c| {
            ((c.max_x - c.min_x) - 5.0).abs() < MM
                && ((c.max_y - c.min_y) - 5.0).abs() < MM
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

/// Where a part sits, from its label "Part k of n: row r, column c".
fn grid_position(part: &PageProbe) -> (usize, usize) {
    let text = part.text();
    let number = |after: &str| -> usize {
        let rest = &text[text.find(after).expect("a part label") + after.len()..];
        rest.chars().take_while(char::is_ascii_digit).collect::<String>().parse().unwrap()
    };
    (number("row "), number("column "))
}

/// The offset that carries part `b`'s marks onto part `a`'s, `b` being the part to the
/// right of `a` (`right`) or below it: the shift, in that direction, shared by at least
/// two pairs of target marks.
fn shared_offset(a: &PageProbe, b: &PageProbe, right: bool) -> Option<(f64, f64)> {
    let (ta, tb) = (targets(a), targets(b));
    let shifts: Vec<(f64, f64)> =
        ta.iter().flat_map(|p| tb.iter().map(move |q| (p.0 - q.0, p.1 - q.1))).collect();
    let along = |s: &(f64, f64)| {
        if right { s.0 > 1.0 && s.1.abs() < MM } else { s.1 > 1.0 && s.0.abs() < MM }
    };
    // The shared marks sit in the overlap at the far edge of `a`, so the true shift is
    // the largest one in that direction that at least two pairs of marks agree on.
    let agreed = |s: &(f64, f64)| {
        shifts.iter().filter(|t| (t.0 - s.0).abs() < MM && (t.1 - s.1).abs() < MM).count()
            >= 2
    };
    let reach = |s: &(f64, f64)| if right { s.0 } else { s.1 };
    shifts
        .iter()
        .copied()
        .filter(along)
        .filter(agreed)
        .max_by(|a, b| reach(a).total_cmp(&reach(b)))
}

/// Puts the parts of a split board back together through their target marks and
/// returns the grid lines in one frame.
pub fn reassemble(parts: &[PageProbe], width: f64) -> (Vec<f64>, Vec<f64>) {
    let cells: Vec<(usize, usize)> = parts.iter().map(grid_position).collect();
    let mut placed: Vec<Option<(f64, f64)>> = vec![None; parts.len()];
    placed[0] = Some((0.0, 0.0));
    for _ in 0..parts.len() {
        for i in 0..parts.len() {
            for j in 0..parts.len() {
                let ((ri, ci), (rj, cj)) = (cells[i], cells[j]);
                let right = ri == rj && cj == ci + 1;
                let below = ci == cj && rj == ri + 1;
                if let (Some(at), None, true) = (placed[i], placed[j], right || below) {
                    let shift = shared_offset(&parts[i], &parts[j], right)
                        .unwrap_or_else(|| {
                            panic!("parts {i} and {j} share no target marks")
                        });
                    placed[j] = Some((at.0 + shift.0, at.1 + shift.1));
                }
            }
        }
    }
    assert!(
        placed.iter().all(Option::is_some),
        "some part could not be placed: {placed:?}"
    );
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    for (part, at) in parts.iter().zip(placed.iter().flatten()) {
        xs.extend(grid_lines(part, true, width).into_iter().map(|x| x + at.0));
        ys.extend(grid_lines(part, false, width).into_iter().map(|y| y + at.1));
    }
    (distinct(xs), distinct(ys))
}

/// The grid lines of a board as printed: read off the one page that holds it whole, or
/// put together from its parts when it was split.
pub fn board_grid(pages: &[PageProbe], width: f64) -> (Vec<f64>, Vec<f64>) {
    let parts: Vec<PageProbe> =
        pages.iter().filter(|p| p.contains_text("Part ")).cloned().collect();
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
