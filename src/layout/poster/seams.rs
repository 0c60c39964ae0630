//! Where a drawing larger than the paper is cut: on its grid lines (seams), leaving
//! room for each glue tab, in as few and as even parts as the seams allow.

use super::TAB_MM;
use super::clip::Window;
use crate::layout::EPS_MM;

/// Where the parts meet along one side `length` long, parts at most `tile` long: from
/// 0 to `length`, each cut on a seam (a grid line) and leaving room for a glue tab, as
/// few parts as the seams allow. A side without a usable seam is cut where it must be.
pub(super) fn cuts(length: f64, tile: f64, seams: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0];
    let mut start = 0.0;
    while length - start > tile + EPS_MM {
        let reach = start + tile - TAB_MM;
        let next = seams
            .iter()
            .copied()
            .filter(|&s| s > start + 1.0 && s <= reach + EPS_MM)
            .fold(None, |best: Option<f64>, s| Some(best.map_or(s, |b| b.max(s))))
            .unwrap_or(reach);
        out.push(next);
        start = next;
    }
    out.push(length);
    out
}

/// [`cuts`] with the same number of parts, each cut on the seam nearest an even share
/// of what is left, so that no part is a narrow leftover. (Rows are left as [`cuts`]
/// makes them: a short last row packs onto sheets with room.)
pub(super) fn balanced(length: f64, tile: f64, seams: &[f64]) -> Vec<f64> {
    let greedy = cuts(length, tile, seams);
    let parts = greedy.len() - 1;
    let mut out = vec![0.0];
    let mut start = 0.0;
    for left in (2..=parts).rev() {
        let target = start + (length - start) / left as f64;
        let fits = |s: f64| {
            s > start + 1.0
                && s <= start + tile - TAB_MM + EPS_MM
                && cuts(length - s, tile, &shifted(seams, s)).len() - 1 < left
        };
        let Some(next) = seams
            .iter()
            .copied()
            .filter(|&s| fits(s))
            .min_by(|a, b| (a - target).abs().total_cmp(&(b - target).abs()))
        else {
            return greedy;
        };
        out.push(next);
        start = next;
    }
    out.push(length);
    out
}

/// Where the rows of parts meet: as [`cuts`] makes them, so that a short last row
/// packs onto a sheet with room, unless that row would be narrower than two cells,
/// fiddly to glue straight: then [`balanced`].
pub(super) fn rows(length: f64, tile: f64, seams: &[f64]) -> Vec<f64> {
    let greedy = cuts(length, tile, seams);
    let cell = seams.windows(2).map(|w| w[1] - w[0]).fold(f64::INFINITY, f64::min);
    let last = greedy[greedy.len() - 1] - greedy[greedy.len() - 2];
    match greedy.len() > 2 && cell.is_finite() && last < 2.0 * cell {
        true => balanced(length, tile, seams),
        false => greedy,
    }
}

/// Seams measured from `from` instead of 0.
fn shifted(seams: &[f64], from: f64) -> Vec<f64> {
    seams.iter().map(|s| s - from).collect()
}

/// The parts' windows in reading order: each from its seam to the next, plus the glue
/// tab on its right and below where it has a neighbour there.
pub(super) fn windows(cuts_x: &[f64], cuts_y: &[f64]) -> Vec<Window> {
    let (cols, rows) = (cuts_x.len() - 1, cuts_y.len() - 1);
    let mut out = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            let tab_x = if c + 1 < cols { TAB_MM } else { 0.0 };
            let tab_y = if r + 1 < rows { TAB_MM } else { 0.0 };
            out.push(Window {
                x: cuts_x[c],
                y: cuts_y[r],
                w: cuts_x[c + 1] - cuts_x[c] + tab_x,
                h: cuts_y[r + 1] - cuts_y[r] + tab_y,
            });
        }
    }
    out
}
