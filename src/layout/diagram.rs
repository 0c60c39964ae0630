//! The layout of a diagram, the same for every game: which part of the board it shows,
//! how large its cells are, and how many diagrams share a row, so that a diagram is
//! read at a glance at any board size.

use std::ops::Range;

use crate::page::Point;

/// The smallest cell of a rule card's or quick start's diagram.
pub const MIN_CELL_MM: f64 = 10.0;
/// The smallest cell of a puzzle's diagram.
pub const MIN_PUZZLE_CELL_MM: f64 = 8.0;
/// The thinnest layer of a stack drawn side-on.
pub const MIN_LAYER_MM: f64 = 1.0;
/// Room a diagram takes besides its cells: the coordinates and the gap to the next.
pub const FRAME_MM: f64 = 10.0;
/// The largest cell of a diagram in ordinary print: room to spare is left between
/// diagrams rather than spent on cells, so that three of a 5 × 5 board share a row.
pub const MAX_CELL_MM: f64 = 13.0;

/// The part of a `size` × `size` board a diagram shows: columns `col..col + cols` and
/// rows `row..row + rows`, numbered from 0 at the bottom left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// The first column shown.
    pub col: u8,
    /// The first row shown (the lowest).
    pub row: u8,
    /// How many columns are shown.
    pub cols: u8,
    /// How many rows are shown.
    pub rows: u8,
    /// The whole board's width.
    pub size: u8,
}

impl Window {
    /// The whole board.
    pub fn whole(size: u8) -> Window {
        Window { col: 0, row: 0, cols: size, rows: size, size }
    }

    /// The least of the board that shows every square of `squares` (column, row) with
    /// a square of board around them, at least three squares a side; the whole board
    /// if `squares` is empty.
    pub fn around(size: u8, squares: impl IntoIterator<Item = (u8, u8)>) -> Window {
        let (mut cols, mut rows) = ((u8::MAX, 0u8), (u8::MAX, 0u8));
        for (col, row) in squares {
            cols = (cols.0.min(col), cols.1.max(col));
            rows = (rows.0.min(row), rows.1.max(row));
        }
        if cols.0 > cols.1 {
            return Window::whole(size);
        }
        let (col, width) = span(cols, size);
        let (row, height) = span(rows, size);
        Window { col, row, cols: width, rows: height, size }
    }

    /// The larger of its width and height, in squares.
    pub fn span(&self) -> u8 {
        self.cols.max(self.rows)
    }

    /// Where the whole board's top-left corner would be, with cells `cell` mm wide, for
    /// the window's top-left corner to stand at `origin`: a game places its squares
    /// from that corner as on a whole board.
    pub fn board_origin(&self, origin: Point, cell: f64) -> Point {
        let above = self.size - (self.row + self.rows);
        Point::new(origin.x - self.col as f64 * cell, origin.y - above as f64 * cell)
    }

    /// Whether its left, right, bottom and top sides are the board's edges.
    pub fn edges(&self) -> [bool; 4] {
        [
            self.col == 0,
            self.col + self.cols == self.size,
            self.row == 0,
            self.row + self.rows == self.size,
        ]
    }
}

/// From `first` to `last` with one more on each side, at least three: where it
/// starts and how many.
fn span((first, last): (u8, u8), size: u8) -> (u8, u8) {
    let mut from = first.saturating_sub(1);
    let mut to = (last + 1).min(size - 1);
    while to - from + 1 < 3.min(size) {
        if from > 0 {
            from -= 1;
        } else {
            to += 1;
        }
    }
    (from, to - from + 1)
}

/// The smallest cell a diagram may have: larger than [`MIN_CELL_MM`] (or
/// [`MIN_PUZZLE_CELL_MM`] for a puzzle) where a stack of `layers` layers, filling
/// `fill` of a cell's height, needs it for each layer to be [`MIN_LAYER_MM`] thick.
pub fn least_cell(puzzle: bool, layers: usize, fill: f64) -> f64 {
    let least = if puzzle { MIN_PUZZLE_CELL_MM } else { MIN_CELL_MM };
    least.max(layers as f64 * MIN_LAYER_MM / fill)
}

/// The width of each slot of a row of diagrams needing `needs` mm each across
/// `width`: `min_slots` slots at least, so one small diagram stays small, but all of
/// the row's width for a diagram that needs it.
pub fn slot_width(width: f64, needs: &[f64], min_slots: usize) -> f64 {
    let slot = width / needs.len().max(min_slots) as f64;
    match needs.iter().any(|&need| need > slot) {
        true => width / needs.len().max(1) as f64,
        false => slot,
    }
}

/// Diagrams needing `needs[i]` mm each, set in rows across `width`: consecutive ones
/// share a row while each still gets its room in a slot of the row's width divided by
/// the row's count, or `min_slots` if more.
pub fn rows(width: f64, needs: &[f64], min_slots: usize) -> Vec<Range<usize>> {
    let mut rows = Vec::new();
    let mut start = 0;
    while start < needs.len() {
        let mut end = start + 1;
        while end < needs.len() {
            let slot = width / (end + 1 - start).max(min_slots) as f64;
            if needs[start..=end].iter().any(|&need| need > slot) {
                break;
            }
            end += 1;
        }
        rows.push(start..end);
        start = end;
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_shows_the_squares_with_a_square_around_them() {
        // One stack on c3 of 8×8: b2 to d4.
        assert_eq!(
            Window::around(8, [(2, 2)]),
            Window { col: 1, row: 1, cols: 3, rows: 3, size: 8 }
        );
        // On 5×5, a3 to c3 with a square around: columns a to d, rows 2 to 4.
        let road = Window::around(5, [(0, 2), (1, 2), (2, 2)]);
        assert_eq!(road, Window { col: 0, row: 1, cols: 4, rows: 3, size: 5 });
        assert_eq!(road.edges(), [true, false, false, false]);
        // A corner: at least three squares a side.
        assert_eq!(
            Window::around(4, [(0, 0)]),
            Window { col: 0, row: 0, cols: 3, rows: 3, size: 4 }
        );
        assert_eq!(Window::around(6, [(0, 0)]).cols, 3);
        assert_eq!(Window::around(3, []), Window::whole(3));
    }

    #[test]
    fn the_board_origin_puts_the_window_corner_where_asked() {
        let window = Window { col: 1, row: 1, cols: 3, rows: 3, size: 8 };
        // Square b4 (column 1, row 3) is the window's top-left cell.
        let board = window.board_origin(Point::new(50.0, 20.0), 10.0);
        assert_eq!((board.x, board.y), (40.0, 20.0 - 4.0 * 10.0));
    }

    #[test]
    fn diagrams_share_a_row_only_while_each_keeps_its_room() {
        assert_eq!(rows(180.0, &[60.0, 60.0, 60.0], 2), vec![0..3]);
        assert_eq!(rows(180.0, &[60.0, 100.0, 60.0], 2), vec![0..1, 1..2, 2..3]);
        assert_eq!(rows(180.0, &[90.0, 90.0, 90.0], 2), vec![0..2, 2..3]);
        // One diagram alone keeps to half the width unless it needs more.
        assert_eq!(slot_width(180.0, &[60.0], 2), 90.0);
        assert_eq!(slot_width(180.0, &[160.0], 2), 180.0);
        assert_eq!(least_cell(false, 3, 0.66), MIN_CELL_MM);
        assert!((least_cell(true, 9, 0.66) - 9.0 / 0.66).abs() < 1e-9);
    }
}
