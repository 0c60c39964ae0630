//! The one style of every record sheet (ledgers, logs, move records): header type,
//! rule weights and a row pitch for handwriting, kept here so that all kits' records
//! look alike; columns mirrored on right-to-left sheets; and spare rows that fill a
//! record's last page.

use super::flow::{self, Chunk, Table};
use super::poster::Frame;
use super::{FigureContext, FigureError};
use crate::page::{Color, Item, Page, Point, Role, Stroke, Tag};
use crate::text::{Reading, Shaper, Style};

/// Column headings: bold, never smaller.
pub const HEAD_PT: f64 = 8.0;
/// Printed row labels (turn numbers) and the letters inside rows.
pub const BODY_PT: f64 = 8.5;
/// Row pitch of a write-in row: room for a handwritten move or stack.
pub const ROW_MM: f64 = 8.0;
/// The smallest write-in cell, across and down.
pub const MIN_CELL_MM: f64 = 6.0;
/// Space between heading lines.
const HEAD_LINE_MM: f64 = 3.4;
/// Room between the last heading line's baseline and the heading rule, clear of
/// descenders and brackets.
const HEAD_CLEAR_MM: f64 = 2.0;
/// Lines a heading may take.
const HEAD_LINES: usize = 3;

/// The heavy rule under the headings.
pub fn head_rule() -> Stroke {
    Stroke::solid(0.5)
}

/// A cell rule's line: light, as the heavier head rule sets the head apart.
const CELL_RULE_MM: f64 = 0.25;
/// The room a heading leaves in its column: its rules and a gap beside them.
const HEAD_MARGIN_MM: f64 = 1.2;
/// The first heading line's baseline under the head's top.
const HEAD_FIRST_BASELINE_MM: f64 = 2.9;
/// The room under a group's label, and under the head's rule.
const HEAD_RULE_GAP_MM: f64 = 0.6;
/// How far below a row's middle a [`BODY_PT`] line's baseline goes to sit centred.
const BODY_BASELINE_DROP_MM: f64 = 1.4;

/// The light rules between rows and columns.
pub fn cell_rule() -> Stroke {
    Stroke::solid(CELL_RULE_MM).colored(Color::gray(0.5))
}

/// A column heading: a strings key (reported if it does not fit) or fixed text such as
/// a square's name.
pub enum Head<'a> {
    /// The text at a strings key.
    Key(&'a str),
    /// Text that is no translation (a coordinate).
    Fixed(String),
}

/// The columns of a table, in reading order, and where each stands: from the left, or
/// from the right on a right-to-left sheet (the first column, Turn, at the right).
#[derive(Clone, Debug)]
pub struct Columns {
    /// Left edge of each column, in reading order, as drawn.
    lefts: Vec<f64>,
    widths: Vec<f64>,
    /// The whole width.
    pub width: f64,
    rtl: bool,
}

impl Columns {
    /// Columns of `widths` in reading order, mirrored on a right-to-left sheet.
    pub fn new(widths: &[f64], reading: Reading) -> Columns {
        let width: f64 = widths.iter().sum();
        let rtl = reading.rtl();
        let mut lefts = Vec::with_capacity(widths.len());
        let mut x = 0.0;
        for &w in widths {
            lefts.push(if rtl { width - x - w } else { x });
            x += w;
        }
        Columns { lefts, widths: widths.to_vec(), width, rtl }
    }

    /// The side of column `i` where the previous column is: its left, or its right when
    /// reading leftward.
    pub fn leading_edge(&self, i: usize) -> f64 {
        if self.rtl { self.lefts[i] + self.widths[i] } else { self.lefts[i] }
    }

    /// The middle of column `i`.
    pub fn mid(&self, i: usize) -> f64 {
        self.lefts[i] + self.widths[i] / 2.0
    }

    /// The middle of columns `from..to` taken together.
    pub fn mid_of(&self, from: usize, to: usize) -> f64 {
        let left = (from..to).map(|i| self.lefts[i]).fold(f64::INFINITY, f64::min);
        let right = (from..to)
            .map(|i| self.lefts[i] + self.widths[i])
            .fold(f64::NEG_INFINITY, f64::max);
        (left + right) / 2.0
    }

    /// Where a thing `w` wide stands `inset` into column `i` from where the column's
    /// text starts (its left, or its right when reading leftward).
    pub fn start(&self, i: usize, inset: f64, w: f64) -> f64 {
        if self.rtl {
            self.lefts[i] + self.widths[i] - inset - w
        } else {
            self.lefts[i] + inset
        }
    }

    /// The heading row: each heading bold at [`HEAD_PT`], centred in its column in at
    /// most three lines, the lines of all headings ending on one baseline above the
    /// heavy rule; `group` sets a label over columns `from..to` above them. A heading
    /// that does not fit at that size is an error naming its key.
    pub fn header(
        &self,
        cx: &FigureContext,
        heads: &[Head],
        group: Option<(&str, usize, usize)>,
    ) -> Result<Chunk, FigureError> {
        let mut set = Vec::new();
        for (i, head) in heads.iter().enumerate() {
            let w = self.widths[i] - HEAD_MARGIN_MM;
            let lines = match head {
                Head::Key(key) => {
                    cx.fit_down_to(key, Style::Bold, (HEAD_PT, HEAD_PT), w, HEAD_LINES)?
                }
                Head::Fixed(t) => {
                    let pt = cx.pt(HEAD_PT);
                    cx.shaper.fit(t, Style::Bold, (pt, pt), w, 1, cx.reading).ok_or_else(
                        || format!("the heading {t:?} does not fit its column"),
                    )?
                }
            };
            set.push(lines);
        }
        let most = set.iter().map(Vec::len).max().unwrap_or(1) as f64;
        // Large print: lines and baselines further apart with the type.
        let (line_mm, first) = (cx.mm(HEAD_LINE_MM), cx.mm(HEAD_FIRST_BASELINE_MM));
        let mut top = 1.0;
        let mut page = Page::new(0.0, 0.0);
        if let Some((key, from, to)) = group {
            let span: f64 = (from..to).map(|i| self.widths[i]).sum();
            let lines =
                cx.fit_down_to(key, Style::Regular, (HEAD_PT, HEAD_PT), span, 2)?;
            let mut label = Page::new(0.0, 0.0);
            for l in lines {
                label.text_centered(self.mid_of(from, to), top + first, l);
                top += line_mm;
            }
            Tag::wrap_all(Role::Paragraph, &mut label.items);
            page.items.append(&mut label.items);
            top += HEAD_RULE_GAP_MM;
        }
        let rule_y = top + first + (most - 1.0) * line_mm + HEAD_CLEAR_MM;
        for (i, lines) in set.into_iter().enumerate() {
            let n = lines.len() as f64;
            let mut cell = Page::new(0.0, 0.0);
            for (j, line) in lines.into_iter().enumerate() {
                let y = rule_y - HEAD_CLEAR_MM - (n - 1.0 - j as f64) * line_mm;
                cell.text_centered(self.mid(i), y, line);
            }
            let role = Role::Cell { head: true, starts_row: i == 0 };
            Tag::wrap_all(role, &mut cell.items);
            page.items.append(&mut cell.items);
        }
        page.line(Point::new(0.0, rule_y), Point::new(self.width, rule_y), head_rule());
        Ok(Chunk::new(rule_y + HEAD_RULE_GAP_MM, page.items))
    }

    /// An empty row `height` mm tall: its bottom rule, and rules between the columns
    /// listed in `ruled` (a rule on the side of column `i` where the previous one is).
    pub fn row(&self, height: f64, ruled: &[usize]) -> Page {
        let mut page = Page::new(0.0, 0.0);
        for &i in ruled {
            let x = self.leading_edge(i);
            page.line(Point::new(x, 0.0), Point::new(x, height), cell_rule());
        }
        page.line(Point::new(0.0, height), Point::new(self.width, height), cell_rule());
        page
    }

    /// A printed label (a turn number) centred in column `i` of a row `height` tall.
    pub fn label(
        &self,
        page: &mut Page,
        cx: &FigureContext,
        i: usize,
        height: f64,
        t: &str,
    ) {
        let shaped = cx.shape(t, Style::Bold, BODY_PT);
        page.text_centered(self.mid(i), height / 2.0 + baseline_drop(cx), shaped);
    }

    /// Reads a row as one cell per column, in reading order, each holding the text
    /// drawn over that column (none for a cell left to write in), so that every row
    /// has as many cells as the table has columns; the rules and boxes are decoration.
    /// `blank` empty cells follow them: a band's cells left to write in.
    fn tag_cells(&self, items: &mut Vec<Item>, blank: usize) {
        let mut cells: Vec<Vec<Item>> = vec![Vec::new(); self.widths.len() + blank];
        let mut drawn = Vec::with_capacity(items.len());
        for item in items.drain(..) {
            let Item::Text { origin, shaped, .. } = &item else {
                drawn.push(item);
                continue;
            };
            let column = self.column_at(origin.x + shaped.width_mm() / 2.0);
            cells[column].push(item);
        }
        for (i, mut cell) in cells.into_iter().enumerate() {
            let role = Role::Cell { head: false, starts_row: i == 0 };
            drawn.push(Item::Begin(Tag { role, continues: false }));
            drawn.append(&mut cell);
            drawn.push(Item::End);
        }
        *items = drawn;
    }

    /// The column `x` falls in, or the nearest.
    fn column_at(&self, x: f64) -> usize {
        let columns = 0..self.widths.len();
        let inside =
            |&i: &usize| self.lefts[i] <= x && x < self.lefts[i] + self.widths[i];
        let off = |i: usize| (self.mid(i) - x).abs();
        columns
            .clone()
            .find(inside)
            .or_else(|| columns.min_by(|&a, &b| off(a).total_cmp(&off(b))))
            .unwrap_or(0)
    }

    /// The table chunk: `rows` flowed in `columns` blocks per page `gap` apart, the
    /// first block at the right on a right-to-left sheet; the last `spare` rows are
    /// kept only as far as they fill the page the record ends on.
    pub fn table(
        &self,
        header: Chunk,
        rows: Vec<Chunk>,
        columns: usize,
        gap: f64,
        spare: usize,
    ) -> Chunk {
        self.banded_table(header, rows, 0, (columns, gap, spare))
    }

    /// The table chunk of bands whose second row is `blank` cells to write in, each
    /// band read as one row: its text in these columns, then the blank cells. Flowed
    /// as [`Columns::table`] flows `(columns, gap, spare)`.
    pub fn banded_table(
        &self,
        header: Chunk,
        rows: Vec<Chunk>,
        blank: usize,
        (columns, gap, spare): (usize, f64, usize),
    ) -> Chunk {
        let mut rows = rows;
        for row in &mut rows {
            self.tag_cells(&mut row.items, blank);
        }
        Chunk::table(Table {
            header: Box::new(header),
            rows,
            columns,
            column_width: self.width,
            gap,
            rtl: self.rtl,
            spare_rows: spare,
        })
    }
}

/// The headings of a band: `below`'s drawn under `top`'s and read as the rest of its
/// row, so that every row of the table has as many cells; the label over `below`'s
/// headings is read first, before the table.
pub fn band_header(top: Chunk, below: Chunk) -> Chunk {
    let (mut label, mut cells) = (Vec::new(), Vec::new());
    let mut in_label = false;
    for item in below.items.iter().map(|i| i.translated(0.0, top.height)) {
        let item = match item {
            Item::Begin(Tag { role: Role::Paragraph, .. }) => {
                in_label = true;
                item
            }
            Item::Begin(Tag { role: Role::Cell { head, .. }, continues }) => {
                Item::Begin(Tag {
                    role: Role::Cell { head, starts_row: false },
                    continues,
                })
            }
            _ => item,
        };
        let ends_label = in_label && item == Item::End;
        if in_label {
            label.push(item)
        } else {
            cells.push(item)
        }
        in_label &= !ends_label;
    }
    label.extend(top.items);
    label.extend(cells);
    Chunk::new(top.height + below.height, label)
}

/// The narrowest width, at least `min` mm, at which the heading at `key` fits at
/// [`HEAD_PT`] in two lines, or else in three (a little wider for a language with long
/// words); `max` if none does, so that the heading reports itself as too long.
pub fn fitted_width(
    cx: &FigureContext,
    key: &str,
    min: f64,
    max: f64,
) -> Result<f64, String> {
    for lines in 2..=HEAD_LINES {
        if let Some(width) = first_fitting(cx, key, (min, max), lines)? {
            return Ok(width);
        }
    }
    Ok(cx.mm(max))
}

/// The narrowest width from `min` to `max` mm at which the heading at `key` fits its
/// column in as many lines as a heading may take; `max` if none.
pub fn narrowest_width(
    cx: &FigureContext,
    key: &str,
    min: f64,
    max: f64,
) -> Result<f64, String> {
    Ok(first_fitting(cx, key, (min, max), HEAD_LINES)?.unwrap_or(cx.mm(max)))
}

/// The first width from `min` to `max` mm, in 1 mm steps, at which the heading at
/// `key` fits in `lines` lines at [`HEAD_PT`].
fn first_fitting(
    cx: &FigureContext,
    key: &str,
    (min, max): (f64, f64),
    lines: usize,
) -> Result<Option<f64>, String> {
    let value = cx.text(key)?;
    let (pt, min, max) = (cx.pt(HEAD_PT), cx.mm(min), cx.mm(max));
    let mut widths = (0..).map(|step| min + step as f64).take_while(|w| *w <= max);
    Ok(widths.find(|w| {
        let width = w - HEAD_MARGIN_MM;
        cx.shaper.fit(&value, Style::Bold, (pt, pt), width, lines, cx.reading).is_some()
    }))
}

/// How far below a row's middle the baseline of its [`BODY_PT`] text goes, so that
/// the text sits in the middle (further at a larger size).
pub fn baseline_drop(cx: &FigureContext) -> f64 {
    BODY_BASELINE_DROP_MM * cx.pt(BODY_PT) / BODY_PT
}

/// How many blocks of `min_width` mm (at most `most`) fit across `width` with `gap`
/// between them, and the width of each.
pub fn blocks(width: f64, min_width: f64, gap: f64, most: usize) -> (usize, f64) {
    let n = (((width + gap) / (min_width + gap)).floor() as usize).clamp(1, most);
    (n, (width - gap * (n - 1) as f64) / n as f64)
}

/// Keeps as many of each table's spare rows as fit without adding a page, so that a
/// record ends on a full page rather than a few lines (and never on a page of its own
/// for what follows the rows).
pub fn fill_spare_rows(
    shaper: &Shaper,
    chunks: &mut [Option<Chunk>],
    frame: Frame,
    columns: flow::Columns,
) {
    for i in 0..chunks.len() {
        let spare = match &chunks[i] {
            Some(Chunk { table: Some(t), .. }) => t.spare_rows,
            _ => continue,
        };
        if spare == 0 {
            continue;
        }
        let pages_with = |chunks: &mut [Option<Chunk>], keep: usize| {
            let table =
                chunks[i].as_mut().and_then(|c| c.table.as_mut()).expect("a table");
            let all = std::mem::take(&mut table.rows);
            let required = all.len() - spare;
            table.rows = all[..required + keep].to_vec();
            table.spare_rows = 0;
            let pages = flow::page_count(shaper, chunks, frame, columns);
            let table =
                chunks[i].as_mut().and_then(|c| c.table.as_mut()).expect("a table");
            table.rows = all;
            table.spare_rows = spare;
            pages
        };
        let target = pages_with(chunks, 0);
        // The most spares that keep the page count: pages only grow with rows.
        let (mut lo, mut hi) = (0, spare);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if pages_with(chunks, mid) == target { lo = mid } else { hi = mid - 1 }
        }
        let table = chunks[i].as_mut().and_then(|c| c.table.as_mut()).expect("a table");
        let keep = table.rows.len() - spare + lo;
        table.rows.truncate(keep);
        table.spare_rows = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::Paint;

    fn boxed(height: f64) -> Chunk {
        let mut page = Page::new(0.0, 0.0);
        page.rect(Point::new(0.0, 0.0), 10.0, height, Paint::fill(Color::BLACK));
        Chunk::new(height, page.items)
    }

    fn table(rows: usize, spare: usize) -> Chunk {
        let cols = Columns::new(&[10.0, 20.0], Reading::Natural);
        cols.table(boxed(10.0), (0..rows).map(|_| boxed(20.0)).collect(), 2, 5.0, spare)
    }

    const FRAME: Frame = Frame { left: 15.0, width: 180.0, top: 20.0, bottom: 100.0 };

    fn rows_kept(chunks: &[Option<Chunk>]) -> usize {
        chunks[0].as_ref().unwrap().table.as_ref().unwrap().rows.len()
    }

    #[test]
    fn columns_run_from_the_right_on_a_right_to_left_sheet() {
        let ltr = Columns::new(&[10.0, 20.0, 30.0], Reading::Natural);
        let rtl = Columns::new(&[10.0, 20.0, 30.0], Reading::RightToLeft);
        assert_eq!((ltr.mid(0), ltr.mid(2)), (5.0, 45.0));
        assert_eq!((rtl.mid(0), rtl.mid(2)), (55.0, 15.0));
        // A rule between columns 0 and 1 stands where they meet.
        assert_eq!((ltr.leading_edge(1), rtl.leading_edge(1)), (10.0, 50.0));
        assert_eq!(rtl.start(0, 1.0, 4.0), 55.0);
    }

    #[test]
    fn spare_rows_fill_the_last_page_and_add_none() {
        // 80 mm a column: the header and 3 rows; two columns a page. 7 rows need two
        // pages, which hold 12: five spares are kept, the other five dropped.
        let mut chunks = vec![Some(table(17, 10))];
        fill_spare_rows(&Shaper::new(), &mut chunks, FRAME, flow::Columns::ONE);
        assert_eq!(rows_kept(&chunks), 12);
        assert_eq!(
            flow::flow_in(&Shaper::new(), &chunks, FRAME, flow::Columns::ONE).0.len(),
            2
        );
        // What follows the table stays on the table's last page.
        let mut chunks = vec![Some(table(17, 10)), Some(boxed(30.0))];
        fill_spare_rows(&Shaper::new(), &mut chunks, FRAME, flow::Columns::ONE);
        let pages = flow::flow_in(&Shaper::new(), &chunks, FRAME, flow::Columns::ONE).0;
        assert_eq!(pages.len(), 2);
        assert!(
            pages[1]
                .iter()
                .any(|i| matches!(i, Item::Rect { height, .. } if *height == 30.0))
        );
        // The last page shares its rows between both columns, so four rows (two a
        // column: 50 mm) leave the 30 mm box room under them.
        assert_eq!(rows_kept(&chunks), 6 + 4);
    }

    #[test]
    fn a_table_on_the_right_to_left_sheet_starts_its_rows_at_the_right() {
        let cols = Columns::new(&[10.0, 20.0], Reading::RightToLeft);
        let chunk =
            cols.table(boxed(10.0), (0..6).map(|_| boxed(20.0)).collect(), 2, 5.0, 0);
        let pages =
            flow::flow_in(&Shaper::new(), &[Some(chunk)], FRAME, flow::Columns::ONE).0;
        let lefts: Vec<f64> = pages[0]
            .iter()
            .filter_map(|i| match i {
                Item::Rect { origin, .. } => Some(origin.x),
                _ => None,
            })
            .collect();
        // The first block (header and three rows) at the right edge of the frame.
        assert_eq!(lefts[..4], [165.0; 4]);
        assert_eq!(lefts[4..], [130.0; 4]);
    }
}
