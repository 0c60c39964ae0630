//! Flowing chunks of drawing down the pages of a sheet.
//!
//! Text and figures are first cut into chunks (a line of text, a row of counters, a
//! ledger row), each drawn relative to its own top-left corner. Flowing then places
//! chunks one under another and starts a new page where the next one does not fit;
//! a chunk is never split or shrunk, so whatever is drawn keeps its exact size.

use super::poster::{Frame, Poster};
use crate::page::Item;

/// A piece of a sheet that must stay in one piece.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Chunk {
    /// Height in millimetres, including any space above it.
    pub height: f64,
    /// What to draw, relative to the chunk's top-left corner.
    pub items: Vec<Item>,
    /// Move to the next page with the following chunk (headings, captions).
    pub keep_with_next: bool,
    /// Rows to set in several columns (a ledger); flowed column by column, with the
    /// header repeated at the top of every column.
    pub table: Option<Table>,
    /// A drawing at exact scale that is placed whole, or split into parts on pages of
    /// their own when it is larger than the page.
    pub poster: Option<Poster>,
}

/// Rows laid out in columns; see [`Chunk::table`].
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// Drawn at the top of every column.
    pub header: Box<Chunk>,
    /// The rows, in order.
    pub rows: Vec<Chunk>,
    /// Columns per page.
    pub columns: usize,
    /// Width of one column, in millimetres.
    pub column_width: f64,
    /// Gap between columns, in millimetres.
    pub gap: f64,
    /// The first column of rows at the right (right-to-left sheets).
    pub rtl: bool,
    /// How many of the last rows are spares, kept only as far as they fill the table's
    /// last page ([`super::table::fill_spare_rows`], before flowing).
    pub spare_rows: usize,
}

impl Chunk {
    /// A chunk of the given height and items.
    pub fn new(height: f64, items: Vec<Item>) -> Self {
        Chunk { height, items, ..Chunk::default() }
    }

    /// Vertical space.
    pub fn space(height: f64) -> Self {
        Chunk::new(height, Vec::new())
    }

    /// The same chunk, kept on the page of the chunk that follows.
    pub fn keep(mut self) -> Self {
        self.keep_with_next = true;
        self
    }

    /// A table of rows flowed in columns.
    pub fn table(table: Table) -> Self {
        Chunk { table: Some(table), ..Chunk::default() }
    }

    /// A drawing at exact scale, split across pages if it must be.
    pub fn poster(poster: Poster) -> Self {
        Chunk { height: poster.height, poster: Some(poster), ..Chunk::default() }
    }
}

/// Places chunks on as many pages as needed; returns each page's items. A `None`
/// chunk forces a page break.
#[cfg(test)]
pub fn flow(chunks: Vec<Option<Chunk>>, frame: Frame) -> Vec<Vec<Item>> {
    flow_turning(chunks, frame).0
}

/// [`flow`], and the pages turned to landscape (parts of a split drawing; their
/// items are laid out for the turned page).
pub fn flow_turning(
    chunks: Vec<Option<Chunk>>,
    frame: Frame,
) -> (Vec<Vec<Item>>, Vec<usize>) {
    let mut turned = Vec::new();
    let mut pages: Vec<Vec<Item>> = vec![Vec::new()];
    let mut y = frame.top;
    let avail = frame.bottom - frame.top;
    for (index, chunk) in chunks.iter().enumerate() {
        let Some(chunk) = chunk else {
            pages.push(Vec::new());
            y = frame.top;
            continue;
        };
        if let Some(table) = &chunk.table {
            y = flow_table(table, frame, y, &mut pages);
            continue;
        }
        if let Some(poster) = &chunk.poster
            && (poster.width > frame.width || poster.height > avail)
        {
            turned.extend(super::poster::split(poster, frame, y, &mut pages));
            y = frame.bottom;
            continue;
        }
        // Headings and captions travel with what follows them.
        let mut needed = chunk.height;
        let mut next = index + 1;
        let mut last = chunk;
        while last.keep_with_next
            && let Some(Some(following)) = chunks.get(next)
        {
            needed += following.table.as_ref().map_or(following.height, first_table_row);
            last = following;
            next += 1;
        }
        if y + needed.min(avail) > frame.bottom && y > frame.top {
            pages.push(Vec::new());
            y = frame.top;
        }
        // A drawing narrower than the page is centred.
        let x = chunk
            .poster
            .as_ref()
            .map_or(frame.left, |p| frame.left + (frame.width - p.width) / 2.0);
        match &chunk.poster {
            Some(poster) => {
                let page = pages.last_mut().expect("a page");
                page.extend(poster.items.iter().map(|item| item.translated(x, y)));
            }
            None => place(chunk, x, y, pages.last_mut().expect("a page")),
        }
        y += chunk.height;
    }
    (pages, turned)
}

fn first_table_row(table: &Table) -> f64 {
    table.header.height + table.rows.first().map_or(0.0, |r| r.height)
}

fn flow_table(
    table: &Table,
    frame: Frame,
    mut y: f64,
    pages: &mut Vec<Vec<Item>>,
) -> f64 {
    let mut column = 0;
    let mut column_top = y;
    let mut bottom_reached = y;
    let column_x = |c: usize| match table.rtl {
        true => {
            frame.left + frame.width
                - table.column_width
                - c as f64 * (table.column_width + table.gap)
        }
        false => frame.left + c as f64 * (table.column_width + table.gap),
    };
    if y + first_table_row(table) > frame.bottom {
        pages.push(Vec::new());
        y = frame.top;
        column_top = y;
    }
    place(&table.header, column_x(0), y, pages.last_mut().expect("a page"));
    y += table.header.height;
    for row in &table.rows {
        if y + row.height > frame.bottom {
            column += 1;
            if column == table.columns {
                column = 0;
                pages.push(Vec::new());
                column_top = frame.top;
                bottom_reached = frame.top;
            }
            y = column_top;
            place(&table.header, column_x(column), y, pages.last_mut().expect("a page"));
            y += table.header.height;
        }
        place(row, column_x(column), y, pages.last_mut().expect("a page"));
        y += row.height;
        bottom_reached = bottom_reached.max(y);
    }
    bottom_reached
}

fn place(chunk: &Chunk, x: f64, y: f64, page: &mut Vec<Item>) {
    page.extend(chunk.items.iter().map(|item| item.translated(x, y)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::{Color, Paint, Point};

    fn boxed(height: f64) -> Chunk {
        let item = Item::Rect {
            origin: Point::new(0.0, 0.0),
            width: 10.0,
            height,
            paint: Paint::fill(Color::BLACK),
        };
        Chunk::new(height, vec![item])
    }

    fn tops(page: &[Item]) -> Vec<f64> {
        page.iter()
            .map(|i| match i {
                Item::Rect { origin, .. } => origin.y,
                _ => f64::NAN,
            })
            .collect()
    }

    const FRAME: Frame = Frame { left: 15.0, width: 180.0, top: 20.0, bottom: 100.0 };

    #[test]
    fn chunks_stack_and_break_to_a_new_page() {
        let pages =
            flow(vec![Some(boxed(30.0)), Some(boxed(30.0)), Some(boxed(30.0))], FRAME);
        assert_eq!(pages.len(), 2);
        assert_eq!(tops(&pages[0]), [20.0, 50.0]);
        assert_eq!(tops(&pages[1]), [20.0]);
    }

    #[test]
    fn a_kept_chunk_moves_with_the_next() {
        let chunks = vec![Some(boxed(50.0)), Some(boxed(10.0).keep()), Some(boxed(25.0))];
        let pages = flow(chunks, FRAME);
        assert_eq!(tops(&pages[0]), [20.0]);
        assert_eq!(tops(&pages[1]), [20.0, 30.0]);
    }

    #[test]
    fn table_rows_fill_columns_then_pages() {
        let table = Table {
            header: Box::new(boxed(10.0)),
            rows: (0..10).map(|_| boxed(20.0)).collect(),
            columns: 2,
            column_width: 50.0,
            gap: 5.0,
            rtl: false,
            spare_rows: 0,
        };
        let pages = flow(vec![Some(Chunk::table(table))], FRAME);
        // 80 mm per column: header + 3 rows; two columns a page → 6 rows a page.
        assert_eq!(pages.len(), 2);
        assert_eq!(pages[0].len(), 2 * (1 + 3));
        assert_eq!(pages[1].len(), 2 * (1 + 3) - 2);
    }
}
