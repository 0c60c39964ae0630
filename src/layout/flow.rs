//! Flowing chunks of drawing down the pages of a sheet.
//!
//! Text and figures are first cut into chunks (a line of text, a row of counters, a
//! ledger row), each drawn relative to its own top-left corner. Flowing then places
//! chunks one under another and starts a new page where the next one does not fit;
//! a chunk is never split or shrunk, so whatever is drawn keeps its exact size (only
//! blank space between blocks may give way, to save a nearly empty last page).

use super::poster::{Frame, Poster};
use crate::page::Item;
use crate::text::Shaper;

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

    /// Only vertical space: nothing drawn, no table, no drawing.
    pub fn is_space(&self) -> bool {
        self.items.is_empty() && self.table.is_none() && self.poster.is_none()
    }
}

/// How a page's content area is divided: one frame, or columns side by side (wide
/// paper), filled one after the other.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Columns {
    /// Columns per page.
    pub count: usize,
    /// Gap between columns, in millimetres.
    pub gap: f64,
    /// The first column is the right-hand one, as a right-to-left reader expects.
    pub right_to_left: bool,
}

impl Columns {
    /// The whole width in one frame.
    pub const ONE: Columns = Columns { count: 1, gap: 0.0, right_to_left: false };

    /// The width of one column of a frame `width` wide.
    pub fn width(&self, width: f64) -> f64 {
        (width - self.gap * (self.count - 1) as f64) / self.count as f64
    }
}

/// The least share of its frame the last page of a sheet should fill; a last page
/// holding less is rebalanced when the flow can move content onto it.
pub const MIN_LAST_FILL: f64 = 1.0 / 3.0;

/// What the flow aims for: a little over [`MIN_LAST_FILL`], as a chunk's height
/// includes some space under what it draws.
const TARGET_FILL: f64 = MIN_LAST_FILL + 0.03;

/// Vertical space may give way down to this share of its height to save a page.
const MIN_SQUEEZE: f64 = 0.5;
/// How many steps the space between blocks is tightened in, towards `MIN_SQUEEZE`.
const SQUEEZE_STEPS: f64 = 5.0;
/// The page before the last may end earlier in steps of this share of a page (of 36,
/// 24 steps at most: two thirds of it).
const LIMIT_STEPS: f64 = 36.0;
/// How close the search for a table's shortest columns comes, in mm.
const COLUMN_PRECISION_MM: f64 = 0.25;

/// Places chunks on as many pages as needed, in `columns`; returns each page's
/// items. A `None` chunk forces a page break. Paged as a typesetter would: vertical
/// space is dropped at the top of a page and never starts one; if the last page
/// would be under [`MIN_LAST_FILL`] full, the space between blocks is first
/// tightened (to no less than half) to save that page, else content moves over from
/// the page before.
pub fn flow_in(
    shaper: &Shaper,
    chunks: &[Option<Chunk>],
    frame: Frame,
    columns: Columns,
) -> (Vec<Vec<Item>>, Vec<usize>) {
    let (squeeze, limit) = settle(shaper, chunks, frame, columns);
    let pass = Pass::new(shaper, chunks, frame, columns, Draw::Items);
    pass.run(squeeze, limit).into_pages()
}

/// How many pages [`flow_in`] makes of `chunks`, found without drawing them.
pub fn page_count(
    shaper: &Shaper,
    chunks: &[Option<Chunk>],
    frame: Frame,
    columns: Columns,
) -> usize {
    let (squeeze, limit) = settle(shaper, chunks, frame, columns);
    let pass = Pass::new(shaper, chunks, frame, columns, Draw::Nothing);
    pass.run(squeeze, limit).pages.len()
}

/// The squeeze of vertical space and the limit on one frame that the flow settles
/// on, tried in passes that draw nothing (a sheet may take thirty).
fn settle(
    shaper: &Shaper,
    chunks: &[Option<Chunk>],
    frame: Frame,
    columns: Columns,
) -> (f64, Option<(usize, f64)>) {
    let base = Pass::new(shaper, chunks, frame, columns, Draw::Nothing);
    let plain = base.run(1.0, None);
    if plain.pages.len() < 2 || plain.last_fill >= TARGET_FILL || plain.last_fixed {
        return (1.0, None);
    }
    // Tighten the space between blocks, as little as saves the last page.
    let (mut squeeze, mut settled) = (1.0, plain);
    for step in 1..=SQUEEZE_STEPS as u32 {
        let tight_squeeze = 1.0 - (1.0 - MIN_SQUEEZE) * step as f64 / SQUEEZE_STEPS;
        let tight = base.run(tight_squeeze, None);
        if tight.pages.len() < settled.pages.len() {
            (squeeze, settled) = (tight_squeeze, tight);
            break;
        }
    }
    if settled.pages.len() < 2 || settled.last_fill >= TARGET_FILL || settled.last_fixed {
        return (squeeze, None);
    }
    // Move content from the page before: lower where that page may end, step by
    // step, until the last page holds enough and the page before still does.
    let from = settled.frames_before_last - 1;
    let avail = frame.bottom - frame.top;
    for step in 1..=24 {
        let limit = frame.bottom - avail * step as f64 / LIMIT_STEPS;
        let moved = base.run(squeeze, Some((from, limit)));
        if moved.pages.len() != settled.pages.len() || moved.fill(from) < TARGET_FILL {
            break;
        }
        if moved.last_fill >= TARGET_FILL {
            return (squeeze, Some((from, limit)));
        }
    }
    (squeeze, None)
}

/// What a pass puts on its pages.
#[derive(Clone, Copy, PartialEq)]
enum Draw {
    /// Every item, in place.
    Items,
    /// One marker per chunk that draws something: enough to tell an empty page, for
    /// passes that only measure.
    Nothing,
}

impl Draw {
    /// Puts `items` on `page`, moved by (`x`, `y`).
    fn place(self, items: &[Item], x: f64, y: f64, page: &mut Vec<Item>) {
        match self {
            Draw::Items => page.extend(items.iter().map(|item| item.translated(x, y))),
            Draw::Nothing if !items.is_empty() => page.push(Item::End),
            Draw::Nothing => {}
        }
    }
}

/// One greedy pass of the flow over a sheet's chunks.
struct Pass<'a> {
    /// Sets the words of a drawing split into parts.
    shaper: &'a Shaper,
    chunks: &'a [Option<Chunk>],
    draw: Draw,
    frame: Frame,
    columns: Columns,
}

/// What one pass made.
struct Placed {
    pages: Vec<Vec<Item>>,
    /// Lowest content edge in each frame (column) used, from the frame's top.
    depth: Vec<f64>,
    avail: f64,
    /// Share of the last page's height its content fills (its fullest column).
    last_fill: f64,
    /// Frames (columns) on the pages before the last.
    frames_before_last: usize,
    /// The last page was started by a forced break, or by or after a drawing split
    /// into parts: nothing can flow onto it from the page before.
    last_fixed: bool,
    /// Pages turned to landscape (parts of a split drawing laid out for them).
    turned: Vec<usize>,
}

impl Placed {
    fn into_pages(self) -> (Vec<Vec<Item>>, Vec<usize>) {
        (self.pages, self.turned)
    }

    fn fill(&self, frame: usize) -> f64 {
        self.depth.get(frame).copied().unwrap_or(0.0) / self.avail
    }
}

/// Why the flow is at the top of a frame.
#[derive(Clone, Copy, PartialEq)]
enum Top {
    /// Something is already placed above.
    No,
    /// The sheet's first page, or a page the template asked for: space there is kept.
    Kept,
    /// A page or column begun because the last did not fit: space there is dropped.
    Dropped,
}

/// Where the flow stands.
struct Cursor {
    pages: Vec<Vec<Item>>,
    /// Frame (column) index over the whole sheet.
    index: usize,
    y: f64,
    top: Top,
    depth: Vec<f64>,
    /// The last page begun where nothing can flow onto it from the page before: by
    /// a forced break, or by or after a drawing split into parts.
    fixed_start: Option<usize>,
    turned: Vec<usize>,
}

impl<'a> Pass<'a> {
    fn new(
        shaper: &'a Shaper,
        chunks: &'a [Option<Chunk>],
        frame: Frame,
        columns: Columns,
        draw: Draw,
    ) -> Self {
        Pass { shaper, chunks, draw, frame, columns }
    }

    /// The frame of column `index` (over the whole sheet).
    fn column(&self, index: usize) -> Frame {
        let width = self.columns.width(self.frame.width);
        let count = self.columns.count;
        let col = match self.columns.right_to_left {
            true => count - 1 - index % count,
            false => index % count,
        };
        Frame {
            left: self.frame.left + col as f64 * (width + self.columns.gap),
            width,
            ..self.frame
        }
    }

    /// Flows every chunk, space scaled by `squeeze`; `limit` = (frame, bottom) ends
    /// that one frame higher than the page does.
    fn run(&self, squeeze: f64, limit: Option<(usize, f64)>) -> Placed {
        let frame = self.frame;
        let per_page = self.columns.count;
        let mut at = Cursor {
            pages: vec![Vec::new()],
            index: 0,
            y: frame.top,
            top: Top::Kept,
            depth: vec![0.0],
            fixed_start: None,
            turned: Vec::new(),
        };
        let bottom = |index: usize| match limit {
            Some((f, b)) if f == index => b,
            _ => frame.bottom,
        };
        for (index, chunk) in self.chunks.iter().enumerate() {
            let Some(chunk) = chunk else {
                at.next_page(per_page, frame.top, Top::Kept);
                at.fixed_start = Some(at.pages.len() - 1);
                continue;
            };
            if let Some(table) = &chunk.table {
                self.place_table(table, &mut at, &bottom);
                continue;
            }
            if let Some(poster) = &chunk.poster
                && !poster.fits(self.column(at.index))
            {
                self.split_poster(poster, &mut at);
                continue;
            }
            self.place(index, chunk, squeeze, &mut at, &bottom);
        }
        self.placed(at)
    }

    /// Sets a table, which sets its own columns across the page: on a page of its
    /// own columns, from the first column, each page it goes on from filled to its
    /// foot.
    fn place_table(&self, table: &Table, at: &mut Cursor, bottom: &dyn Fn(usize) -> f64) {
        let (frame, per_page) = (self.frame, self.columns.count);
        if !at.index.is_multiple_of(per_page) {
            at.next_page(per_page, frame.top, Top::Dropped);
        }
        let first = at.pages.len();
        let start = at.index;
        // Where each page's rows must end (a page the balancing shortens too).
        let foot = |page: usize| bottom(start + (page + 1 - first) * per_page);
        at.y = flow_table(table, frame, at.y, &mut at.pages, &foot, self.draw);
        for page in first - 1..at.pages.len() - 1 {
            // A page the table goes on from is filled to its foot.
            at.depth[at.index] = foot(page) - frame.top;
            at.index += per_page;
            at.depth.resize(at.index + 1, 0.0);
        }
        at.top = Top::No;
        at.reach(frame.top);
    }

    /// Splits a drawing too large for its column into parts, on pages of their own
    /// that nothing flows back onto.
    fn split_poster(&self, poster: &Poster, at: &mut Cursor) {
        let (frame, per_page) = (self.frame, self.columns.count);
        if !at.index.is_multiple_of(per_page) {
            at.next_page(per_page, frame.top, Top::Dropped);
        }
        at.turned.extend(super::poster::split(
            self.shaper,
            poster,
            frame,
            at.y,
            &mut at.pages,
        ));
        at.fixed_start = Some(at.pages.len());
        at.index = (at.pages.len() - 1) * per_page;
        at.depth.resize(at.index + 1, frame.bottom - frame.top);
        at.y = frame.bottom;
        at.top = Top::No;
    }

    /// Places chunk `index` (words, space, or a drawing that fits its column), in the
    /// next frame if it and what it keeps with do not fit in this one.
    fn place(
        &self,
        index: usize,
        chunk: &Chunk,
        squeeze: f64,
        at: &mut Cursor,
        bottom: &dyn Fn(usize) -> f64,
    ) {
        let (frame, per_page) = (self.frame, self.columns.count);
        let avail = frame.bottom - frame.top;
        let space = chunk.is_space();
        // Headings, captions and the lines a paragraph keeps together travel with
        // what follows them.
        if !space || chunk.keep_with_next {
            let needed = self.chain(index, squeeze, self.column(at.index).width);
            if at.y + needed.min(avail) > bottom(at.index) + super::EPS_MM
                && at.top == Top::No
            {
                at.next_frame(per_page, frame.top);
            }
        }
        if space {
            // Space between blocks never begins a page and is dropped at a break.
            if at.top != Top::Dropped {
                at.y = (at.y + chunk.height * squeeze).min(bottom(at.index));
                at.top = Top::No;
            }
            return;
        }
        let column = self.column(at.index);
        // A drawing narrower than its column is centred.
        let x = chunk
            .poster
            .as_ref()
            .map_or(column.left, |p| column.left + (column.width - p.width) / 2.0);
        let items = chunk.poster.as_ref().map_or(&chunk.items, |p| &p.items);
        let page = at.pages.last_mut().expect("a page");
        self.draw.place(items, x, at.y, page);
        at.y += chunk.height;
        at.top = Top::No;
        at.reach(frame.top);
    }

    /// What the pass made, once every chunk is placed.
    fn placed(&self, mut at: Cursor) -> Placed {
        let avail = self.frame.bottom - self.frame.top;
        // A page the template forced at the very end holds nothing: never print it.
        while at.pages.len() > 1 && at.pages.last().is_some_and(Vec::is_empty) {
            at.pages.pop();
        }
        let pages = at.pages.len();
        let frames_before_last = (pages - 1) * self.columns.count;
        let last_depth =
            at.depth.iter().skip(frames_before_last).fold(0.0f64, |a, &b| a.max(b));
        Placed {
            last_fill: last_depth / avail,
            last_fixed: at.fixed_start.is_some_and(|p| p + 1 >= pages),
            frames_before_last,
            pages: at.pages,
            turned: at.turned,
            depth: at.depth,
            avail,
        }
    }

    /// The height chunk `index` needs on its page: its own, and that of every chunk
    /// it keeps with (a drawing to be split into parts counts nothing: it starts
    /// where it must).
    fn chain(&self, index: usize, squeeze: f64, width: f64) -> f64 {
        let avail = self.frame.bottom - self.frame.top;
        let height = |c: &Chunk| match (&c.table, &c.poster) {
            (Some(table), _) => first_table_row(table),
            (_, Some(p)) if p.width > width + super::EPS_MM || p.height > avail => 0.0,
            _ if c.is_space() => c.height * squeeze,
            _ => c.height,
        };
        let mut next = index;
        let mut needed = 0.0;
        while let Some(Some(chunk)) = self.chunks.get(next) {
            needed += height(chunk);
            if !chunk.keep_with_next {
                break;
            }
            next += 1;
        }
        needed
    }
}

impl Cursor {
    /// Records how far down the current frame content reaches.
    fn reach(&mut self, top: f64) {
        let depth = (self.y - top).max(0.0);
        let slot = &mut self.depth[self.index];
        *slot = slot.max(depth);
    }

    /// Moves to the next column, or the next page after the last column.
    fn next_frame(&mut self, per_page: usize, top: f64) {
        self.index += 1;
        if self.index.is_multiple_of(per_page) {
            self.pages.push(Vec::new());
        }
        self.depth.resize(self.index + 1, 0.0);
        self.y = top;
        self.top = Top::Dropped;
    }

    /// Moves to the first column of a new page.
    fn next_page(&mut self, per_page: usize, top: f64, why: Top) {
        self.index = self.pages.len() * per_page;
        self.pages.push(Vec::new());
        self.depth.resize(self.index + 1, 0.0);
        self.y = top;
        self.top = why;
    }
}

fn first_table_row(table: &Table) -> f64 {
    table.header.height + table.rows.first().map_or(0.0, |r| r.height)
}

/// Sets a table's rows in its columns, page after page (each page's rows ending at
/// `foot` of its index: the balancing may shorten one), the header at the top of
/// every column; on the table's last page the rows are shared evenly between the
/// columns, so that what follows the table can sit under it. Returns where the
/// table ends.
fn flow_table(
    table: &Table,
    frame: Frame,
    mut y: f64,
    pages: &mut Vec<Vec<Item>>,
    foot: &dyn Fn(usize) -> f64,
    draw: Draw,
) -> f64 {
    if y + first_table_row(table) > foot(pages.len() - 1) {
        pages.push(Vec::new());
        y = frame.top;
    }
    let mut rest = &table.rows[..];
    let mut first = true;
    loop {
        let page_bottom = foot(pages.len() - 1);
        let fit = rows_that_fit(table, rest, y, page_bottom);
        if fit >= rest.len() {
            // The shortest columns that still hold every row left.
            let mut bottom = page_bottom;
            let mut low = y + first_table_row(table);
            while bottom - low > COLUMN_PRECISION_MM {
                let mid = (low + bottom) / 2.0;
                match rows_that_fit(table, rest, y, mid) >= rest.len() {
                    true => bottom = mid,
                    false => low = mid,
                }
            }
            return set_rows(table, rest, frame, (y, bottom), pages, draw, first);
        }
        set_rows(table, &rest[..fit], frame, (y, page_bottom), pages, draw, first);
        first = false;
        pages.push(Vec::new());
        y = frame.top;
        rest = &rest[fit..];
    }
}

/// How many of `rows` fit in the table's columns between `y` and `bottom`.
fn rows_that_fit(table: &Table, rows: &[Chunk], y: f64, bottom: f64) -> usize {
    let mut count = 0;
    for _ in 0..table.columns {
        let mut at = y + table.header.height;
        while let Some(row) = rows.get(count) {
            // A column always takes one row, however tall.
            if at + row.height > bottom + super::EPS_MM && at > y + table.header.height {
                break;
            }
            at += row.height;
            count += 1;
        }
    }
    count
}

/// Places `rows` column by column between `y` and `bottom` on the last page, each
/// column under its header; returns the bottom of the tallest column. The header is
/// read once, where the table starts (its `first` column): its repeats are
/// decoration, as a running head is.
fn set_rows(
    table: &Table,
    rows: &[Chunk],
    frame: Frame,
    (y, bottom): (f64, f64),
    pages: &mut [Vec<Item>],
    draw: Draw,
    first: bool,
) -> f64 {
    let page = pages.last_mut().expect("a page");
    // On a right-to-left sheet the first column of rows is the right-hand one.
    let column_x = |c: usize| match table.rtl {
        true => {
            frame.left + frame.width
                - table.column_width
                - c as f64 * (table.column_width + table.gap)
        }
        false => frame.left + c as f64 * (table.column_width + table.gap),
    };
    let mut reached = y + table.header.height;
    let mut column = 0;
    let mut at = y + table.header.height;
    let repeat: Vec<Item> =
        table.header.items.iter().filter(|i| !i.is_marker()).cloned().collect();
    let header = if first { &table.header.items } else { &repeat };
    draw.place(header, column_x(0), y, page);
    for row in rows {
        if at + row.height > bottom + super::EPS_MM && at > y + table.header.height {
            column += 1;
            at = y + table.header.height;
            draw.place(&repeat, column_x(column), y, page);
        }
        draw.place(&row.items, column_x(column), at, page);
        at += row.height;
        reached = reached.max(at);
    }
    reached
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::{Color, Paint, Point};

    fn flow(chunks: Vec<Option<Chunk>>, frame: Frame) -> Vec<Vec<Item>> {
        flow_in(&Shaper::new(), &chunks, frame, Columns::ONE).0
    }

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

    fn lefts(page: &[Item]) -> Vec<f64> {
        page.iter()
            .map(|i| match i {
                Item::Rect { origin, .. } => origin.x,
                _ => f64::NAN,
            })
            .collect()
    }

    /// `n` lines of a paragraph, kept as [`super::super::lines`] keeps them.
    fn paragraph(n: usize) -> Vec<Option<Chunk>> {
        (0..n)
            .map(|i| {
                let line = boxed(10.0);
                Some(if n >= 2 && (i == 0 || i + 2 == n) { line.keep() } else { line })
            })
            .collect()
    }

    #[test]
    fn space_never_starts_a_page_and_is_dropped_at_a_break() {
        // Trailing space that does not fit makes no blank page.
        let pages = flow(vec![Some(boxed(70.0)), Some(Chunk::space(8.0))], FRAME);
        assert_eq!(pages.len(), 1);
        // Space before a chunk carried over is not set at the top of the new page.
        let chunks = vec![Some(boxed(70.0)), Some(Chunk::space(5.0)), Some(boxed(20.0))];
        let pages = flow(chunks, FRAME);
        assert_eq!(tops(&pages[1]), [20.0]);
    }

    #[test]
    fn a_paragraph_leaves_no_single_line_at_a_foot_or_top() {
        // One line would fit under the box: the paragraph's first two go over together.
        let mut chunks = vec![Some(boxed(65.0))];
        chunks.extend(paragraph(5));
        let pages = flow(chunks, FRAME);
        assert_eq!((pages[0].len(), pages[1].len()), (1, 5));
        // Four lines would fit: the last would be alone, so two go over (and the last
        // page then takes a third to fill a third of its page).
        let mut chunks = vec![Some(boxed(35.0))];
        chunks.extend(paragraph(5));
        let pages = flow(chunks, FRAME);
        assert!(pages[1].len() >= 2, "{:?}", tops(&pages[1]));
        assert_eq!(pages[0].len() + pages[1].len(), 6);
    }

    #[test]
    fn a_nearly_empty_last_page_is_saved_by_tighter_space() {
        let mut chunks = Vec::new();
        for _ in 0..3 {
            chunks.extend([Some(boxed(20.0)), Some(Chunk::space(10.0))]);
        }
        chunks.push(Some(boxed(3.0)));
        // 3 × 20 + 3 × 10 + 3 = 93 mm on 80: the space gives way, down to half.
        let pages = flow(chunks, FRAME);
        assert_eq!(pages.len(), 1);
    }

    #[test]
    fn a_nearly_empty_last_page_takes_content_from_the_page_before() {
        // Ten 9 mm chunks: greedy gives 8 + 2 (the last page 22 % full).
        let chunks = (0..10).map(|_| Some(boxed(9.0))).collect();
        let pages = flow(chunks, FRAME);
        assert_eq!((pages[0].len(), pages[1].len()), (6, 4));
    }

    #[test]
    fn wide_pages_fill_two_columns_before_the_next_page() {
        let chunks: Vec<_> = (0..10).map(|_| Some(boxed(30.0))).collect();
        let two = Columns { count: 2, gap: 10.0, right_to_left: false };
        let pages = flow_in(&Shaper::new(), &chunks, FRAME, two).0;
        assert_eq!(pages.len(), 3);
        assert_eq!(lefts(&pages[0]), [15.0, 15.0, 110.0, 110.0]);
        assert_eq!(tops(&pages[0]), [20.0, 50.0, 20.0, 50.0]);
        assert_eq!(lefts(&pages[2]), [15.0, 15.0]);
        // Right to left, the first column is the right-hand one.
        let pages = flow_in(
            &Shaper::new(),
            &chunks,
            FRAME,
            Columns { right_to_left: true, ..two },
        )
        .0;
        assert_eq!(lefts(&pages[0]), [110.0, 110.0, 15.0, 15.0]);
    }

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
        // The last page's four rows are shared two and two between the columns.
        assert_eq!(lefts(&pages[1]), [15.0, 15.0, 15.0, 70.0, 70.0, 70.0]);
    }

    /// A chunk drawn as one rectangle whose width is `id`, so that a snapshot can
    /// tell the chunks apart.
    fn tagged(id: u8, height: f64) -> Chunk {
        let item = Item::Rect {
            origin: Point::new(0.0, 0.0),
            width: f64::from(id),
            height,
            paint: Paint::fill(Color::BLACK),
        };
        Chunk::new(height, vec![item])
    }

    /// Where each chunk went: per page, (id, x, y) of each rectangle, to the micron.
    fn snapshot(chunks: &[Option<Chunk>], columns: Columns) -> Vec<Vec<(u8, f64, f64)>> {
        let micron = |v: f64| (v * 1000.0).round() / 1000.0;
        let (pages, _) = flow_in(&Shaper::new(), chunks, FRAME, columns);
        assert_eq!(page_count(&Shaper::new(), chunks, FRAME, columns), pages.len());
        pages
            .iter()
            .map(|page| {
                page.iter()
                    .map(|i| match i {
                        Item::Rect { origin, width, .. } => {
                            (*width as u8, micron(origin.x), micron(origin.y))
                        }
                        _ => panic!("only rectangles are drawn"),
                    })
                    .collect()
            })
            .collect()
    }

    fn one_column(chunks: &[Option<Chunk>]) -> Vec<Vec<(u8, f64, f64)>> {
        snapshot(chunks, Columns::ONE)
    }

    #[test]
    fn space_is_a_chunk_that_draws_nothing() {
        let space = Chunk::space(7.5);
        assert_eq!((space.height, space.is_space()), (7.5, true));
        assert!(!tagged(1, 7.5).is_space());
        assert!(!Chunk { table: tagged(1, 1.0).table, ..tagged(1, 1.0) }.is_space());
        assert!(tagged(1, 2.0).keep().keep_with_next);
        assert_eq!(
            Columns { count: 3, gap: 6.0, right_to_left: false }.width(180.0),
            56.0
        );
    }

    #[test]
    fn the_space_between_blocks_gives_way_as_little_as_saves_the_last_page() {
        // The frame is 80 mm deep (y 20 to 100). Boxes 25 + 25 + 11 and two spaces of
        // 10 make 81 mm: at full space, box 3 (ending at 90 + 11 = 101) goes over.
        // The first squeeze step, 0.9, makes the spaces 9 mm: box 2 at 20 + 25 + 9
        // = 54, box 3 at 54 + 25 + 9 = 88, ending at 99.
        let chunks = [
            Some(tagged(1, 25.0)),
            Some(Chunk::space(10.0)),
            Some(tagged(2, 25.0)),
            Some(Chunk::space(10.0)),
            Some(tagged(3, 11.0)),
        ];
        assert_eq!(
            one_column(&chunks),
            [vec![(1, 15.0, 20.0), (2, 15.0, 54.0), (3, 15.0, 88.0)]]
        );
        // After a page the template forces, the same: the squeeze saves the third page.
        let mut forced = vec![Some(tagged(9, 80.0)), None];
        forced.extend(chunks.iter().cloned());
        let snap = one_column(&forced);
        assert_eq!(snap.len(), 2);
        assert_eq!(snap[1], [(1, 15.0, 20.0), (2, 15.0, 54.0), (3, 15.0, 88.0)]);
    }

    #[test]
    fn a_last_page_a_third_full_keeps_its_space() {
        // Boxes of 10 and spaces of 15: 20-30, 45-55, 70-80, box 4 at 95 goes over
        // (to 20-30, then 45-55). The last page is 35/80 = 44 % full: nothing changes,
        // though halving the space (7.5 mm) would make one page of exactly 80 mm.
        let mut chunks = Vec::new();
        for id in 1..=5 {
            chunks.push(Some(tagged(id, 10.0)));
            if id < 5 {
                chunks.push(Some(Chunk::space(15.0)));
            }
        }
        assert_eq!(
            one_column(&chunks),
            [
                vec![(1, 15.0, 20.0), (2, 15.0, 45.0), (3, 15.0, 70.0)],
                vec![(4, 15.0, 20.0), (5, 15.0, 45.0)],
            ]
        );
    }

    #[test]
    fn the_page_before_ends_at_the_first_step_that_fills_the_last() {
        // Greedy: 1 (20-90), 2 (90-97), 3 (97-98.5), 4 (98.5-99.5) on page 1 and 5
        // (29 mm) alone on page 2: 29/80 = 36.25 %, under the 36.33 % aimed for. The
        // page before may end 80/36 = 2.22 mm higher per step: at the first step
        // (97.78) chunks 3 and 4 move over, chunk 2 (ending at 97) stays, and page 2
        // holds 1.5 + 1 + 29 = 31.5 mm.
        let chunks = [
            Some(tagged(1, 70.0)),
            Some(tagged(2, 7.0)),
            Some(tagged(3, 1.5)),
            Some(tagged(4, 1.0)),
            Some(tagged(5, 29.0)),
        ];
        let moved = vec![(3, 15.0, 20.0), (4, 15.0, 21.5), (5, 15.0, 22.5)];
        assert_eq!(
            one_column(&chunks),
            [vec![(1, 15.0, 20.0), (2, 15.0, 90.0)], moved.clone()]
        );
        // Two pages before it: only the page before the last ends higher; the first
        // page's last millimetre (79 to 80 of 80) stays where it is.
        let mut three = vec![Some(tagged(7, 79.0)), Some(tagged(8, 1.0))];
        three.extend(chunks.iter().cloned());
        let snap = one_column(&three);
        assert_eq!(snap[0], [(7, 15.0, 20.0), (8, 15.0, 99.0)]);
        assert_eq!(snap[2], moved);
        // The first page of a sheet starting with a forced break is no page before.
        let mut after_break = vec![Some(tagged(7, 30.0)), None];
        after_break.extend((10..20).map(|id| Some(tagged(id, 9.0))));
        let snap = one_column(&after_break);
        assert_eq!((snap.len(), snap[1].len(), snap[2].len()), (3, 6, 4));
    }

    #[test]
    fn the_page_before_keeps_a_third_of_its_own() {
        // 28 mm, then 50 (48-98), then 3 alone on page 2. Moving the 50 would leave
        // page 1 at 28/80 = 35 %: the greedy pages stay.
        let chunks = [Some(tagged(1, 28.0)), Some(tagged(2, 50.0)), Some(tagged(3, 3.0))];
        assert_eq!(
            one_column(&chunks),
            [vec![(1, 15.0, 20.0), (2, 15.0, 48.0)], vec![(3, 15.0, 20.0)]]
        );
    }

    #[test]
    fn a_heading_goes_over_with_the_first_row_of_its_table() {
        // The heading (5 mm) needs the table's header and first row (10 + 10) under it:
        // at y 80 that is 105, past the foot, so heading and table start page 2.
        let table = Table {
            header: Box::new(tagged(4, 10.0)),
            rows: (0..4).map(|_| tagged(5, 10.0)).collect(),
            columns: 1,
            column_width: 50.0,
            gap: 5.0,
            rtl: false,
            spare_rows: 0,
        };
        let chunks = [
            Some(tagged(1, 60.0)),
            Some(tagged(2, 5.0).keep()),
            Some(Chunk::table(table)),
        ];
        let snap = one_column(&chunks);
        assert_eq!(snap[0], [(1, 15.0, 20.0)]);
        assert_eq!(
            snap[1],
            [
                (2, 15.0, 20.0),
                (4, 15.0, 25.0),
                (5, 15.0, 35.0),
                (5, 15.0, 45.0),
                (5, 15.0, 55.0),
                (5, 15.0, 65.0)
            ]
        );
    }

    #[test]
    fn a_table_splits_at_the_foot_and_what_follows_sits_under_it() {
        // Header 10 and rows of 20 in two 50 mm columns (x 15 and 70): three rows a
        // column (30, 50, 70) on page 1; the four left share page 2 two and two, and
        // the chunk after the table starts where the columns end, at 20 + 10 + 40.
        let table = Table {
            header: Box::new(tagged(4, 10.0)),
            rows: (0..10).map(|i| tagged(10 + i, 20.0)).collect(),
            columns: 2,
            column_width: 50.0,
            gap: 5.0,
            rtl: false,
            spare_rows: 0,
        };
        let chunks = [Some(Chunk::table(table)), Some(tagged(1, 5.0))];
        let snap = one_column(&chunks);
        assert_eq!(
            snap,
            [
                vec![
                    (4, 15.0, 20.0),
                    (10, 15.0, 30.0),
                    (11, 15.0, 50.0),
                    (12, 15.0, 70.0),
                    (4, 70.0, 20.0),
                    (13, 70.0, 30.0),
                    (14, 70.0, 50.0),
                    (15, 70.0, 70.0),
                ],
                vec![
                    (4, 15.0, 20.0),
                    (16, 15.0, 30.0),
                    (17, 15.0, 50.0),
                    (4, 70.0, 20.0),
                    (18, 70.0, 30.0),
                    (19, 70.0, 50.0),
                    (1, 15.0, 70.0),
                ],
            ]
        );
    }
}
