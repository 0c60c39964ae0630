//! Layout: sheet markup and figures → pages in millimetres. Knows no game: games
//! draw their figures through [`FigureContext`] with the helpers in [`draw`].

pub mod cut;
pub mod diagram;
pub mod diagram_style;
pub mod draw;
pub mod figure;
pub mod flow;
pub mod footer;
pub mod forms;
pub mod paper;
pub mod poster;
pub mod table;

use crate::page::{Color, Item, Page, Paint, Point, Role, Stroke, Tag};
use crate::sheet::markup::Block;
use crate::text::{self, Reading, Shaper, Style};
pub use figure::{FigureContext, FigureError};
use flow::Chunk;
pub use paper::Paper;
use poster::Frame;

/// Every mark stays at least this far from the paper's edge (printers cannot
/// print closer).
pub const SAFE_MARGIN_MM: f64 = 10.0;
/// Side and top margins of the content.
pub const MARGIN_MM: f64 = 15.0;

/// Body text size in points.
pub const BODY_PT: f64 = 10.0;
/// A sheet's title.
pub const TITLE_PT: f64 = 20.0;
const HEADING_PT: f64 = 12.5;
const LINE_GAP: f64 = 1.4;

/// The content area of a page of this paper: between the margins, above the footer.
pub fn content_width(paper: &Paper) -> f64 {
    paper.size_mm().0 - 2.0 * MARGIN_MM
}

/// The height pages give to content: between the top margin and the footer.
pub fn content_height(paper: &Paper) -> f64 {
    paper.size_mm().1 - MARGIN_MM - footer::FOOTER_HEIGHT_MM
}

/// Boxes of text (the two columns of an end-of-game box) are never set wider than
/// this, however wide the paper.
pub const MAX_TEXT_MM: f64 = 190.0;

/// The measure of running text: at [`BODY_PT`] about 75 characters of a Latin or
/// Greek script to the line (60–80 read comfortably; A4's 180 mm gave 90–104).
/// Figures still use the whole width; text on a right-to-left sheet keeps to the
/// right-hand edge of it.
pub const TEXT_MEASURE_MM: f64 = 145.0;

/// Where a page of `paper` holds content: between the margins, above the footer.
pub fn frame(paper: &Paper) -> Frame {
    let (width, height) = paper.size_mm();
    Frame {
        width: width - 2.0 * MARGIN_MM,
        left: MARGIN_MM,
        top: MARGIN_MM,
        bottom: height - footer::FOOTER_HEIGHT_MM,
    }
}

/// Paper this wide or wider (between the margins) is set in two columns, each at
/// least as wide as A4's content, so that figures keep their A4 size.
pub const TWO_COLUMNS_MM: f64 = 2.0 * 180.0 + COLUMN_GAP_MM;
/// Gap between two columns of text.
pub const COLUMN_GAP_MM: f64 = 12.0;

/// Smallest type a player reads: running text, captions, table headers.
pub const MIN_TEXT_PT: f64 = 7.0;
/// Large print: every size this many times its usual one (10 pt text at 14 pt) …
pub const LARGE_PRINT_SCALE: f64 = 1.4;
/// … and nothing a player reads under this.
pub const LARGE_PRINT_MIN_PT: f64 = 12.0;
/// Smallest type of a label in a drawing (a coordinate, a stack's height).
pub const MIN_LABEL_PT: f64 = 6.5;

/// Slack for comparing lengths that sums of floats reach only nearly.
pub const EPS_MM: f64 = 1e-9;

/// The room after a title, and before a heading (times the print's scale).
const TITLE_AFTER_MM: f64 = 3.0;
/// See [`TITLE_AFTER_MM`].
const HEADING_BEFORE_MM: f64 = 3.5;
/// The line height of DejaVu Sans (ascent and descent) as a share of the body's line
/// spacing: `LINE_GAP` is set against it.
const FONT_LINE_SHARE: f64 = 1.16;
/// A list item's indent, its bullet's centre and radius, a box's side, and the room
/// after the item (times the print's scale).
const ITEM_INDENT_MM: f64 = 7.0;
/// See [`ITEM_INDENT_MM`].
const BULLET_X_MM: f64 = 2.5;
/// See [`ITEM_INDENT_MM`].
const BULLET_RADIUS_MM: f64 = 0.8;
/// See [`ITEM_INDENT_MM`].
const ITEM_BOX_MM: f64 = 4.0;
/// See [`ITEM_INDENT_MM`].
const ITEM_AFTER_MM: f64 = 1.2;
/// A bullet or box stands centred this share of the ascent above the baseline: on the
/// middle of a lowercase letter.
const MARK_RISE: f64 = 0.62;
/// A note's padding, its box's tone and line, and the room after it (times the
/// print's scale).
const NOTE_PAD_MM: f64 = 3.0;
/// See [`NOTE_PAD_MM`].
const NOTE_TONE: f64 = 0.93;
/// See [`NOTE_PAD_MM`].
const NOTE_LINE_MM: f64 = 0.35;
/// The "print on card" mark's padding and box line.
const CARD_MARK_PAD_MM: f64 = 0.8;
/// See [`CARD_MARK_PAD_MM`].
const CARD_MARK_LINE_MM: f64 = 0.4;

/// The columns a page of `paper` is set in, in reading order.
pub fn columns(paper: &Paper, reading: Reading) -> flow::Columns {
    match content_width(paper) >= TWO_COLUMNS_MM - EPS_MM {
        true => {
            flow::Columns { count: 2, gap: COLUMN_GAP_MM, right_to_left: reading.rtl() }
        }
        false => flow::Columns::ONE,
    }
}

/// Text chunks for one block, set `measure` wide within `width`; figures are made
/// by the caller. The text is tagged with the block's role.
/// Every size and space of the text is `scale` times its usual one (a plan set
/// small to fit its page, large print).
pub fn scaled_text_chunks(
    shaper: &Shaper,
    block: &Block,
    (width, measure): (f64, f64),
    reading: Reading,
    scale: f64,
) -> Vec<Chunk> {
    let measure = width.min(measure);
    let mut chunks = measured_chunks(shaper, block, measure, reading, scale);
    to_right_edge(&mut chunks, width - measure, reading);
    // The text is tagged with the block's role for screen readers and the outline.
    let role = match block {
        Block::Title(_) => Role::Title,
        Block::Heading(_) => Role::Heading,
        Block::Paragraph(_) | Block::Note(_) => Role::Paragraph,
        Block::Bullet(_) | Block::Check(_) => Role::ListItem,
        Block::Figure { .. } | Block::PageBreak => return chunks,
    };
    Tag::wrap_text(role, chunks.iter_mut().map(|c| &mut c.items));
    chunks
}

/// Right-to-left text set at the measure keeps to the right-hand edge of the frame,
/// `slack` further right.
fn to_right_edge(chunks: &mut [Chunk], slack: f64, reading: Reading) {
    if reading.rtl() && slack > 0.0 {
        for chunk in chunks {
            for item in &mut chunk.items {
                *item = item.translated(slack, 0.0);
            }
        }
    }
}

fn measured_chunks(
    shaper: &Shaper,
    block: &Block,
    width: f64,
    reading: Reading,
    scale: f64,
) -> Vec<Chunk> {
    match block {
        Block::Title(t) => {
            let mut chunks =
                lines(shaper, t, Style::Bold, TITLE_PT * scale, width, 0.0, reading);
            chunks.push(Chunk::space(TITLE_AFTER_MM * scale));
            chunks
        }
        Block::Heading(t) => {
            let mut chunks = vec![Chunk::space(HEADING_BEFORE_MM * scale).keep()];
            chunks.extend(
                lines(shaper, t, Style::Bold, HEADING_PT * scale, width, 0.0, reading)
                    .into_iter()
                    .map(Chunk::keep),
            );
            chunks.push(Chunk::space(1.0 * scale).keep());
            chunks
        }
        Block::Paragraph(t) => {
            let mut chunks =
                lines(shaper, t, Style::Regular, BODY_PT * scale, width, 0.0, reading);
            // A paragraph that ends in a colon leads into what follows (a list).
            if t.trim_end().ends_with(':')
                && let Some(last) = chunks.last_mut()
            {
                last.keep_with_next = true;
            }
            let space = Chunk::space(2.0 * scale);
            chunks.push(match t.trim_end().ends_with(':') {
                true => space.keep(),
                false => space,
            });
            chunks
        }
        Block::Bullet(t) => marked(shaper, t, width, (Mark::Bullet, scale), reading),
        Block::Check(t) => marked(shaper, t, width, (Mark::Box, scale), reading),
        Block::Note(t) => note(shaper, t, width, reading, scale),
        Block::Figure { .. } | Block::PageBreak => Vec::new(),
    }
}

/// One chunk per wrapped line of text, indented by `indent`. A paragraph is broken
/// across pages only where at least two of its lines stay on each side: its first
/// line, and the one before its last, keep with the line that follows.
pub fn lines(
    shaper: &Shaper,
    text: &str,
    style: Style,
    size_pt: f64,
    width: f64,
    indent: f64,
    reading: Reading,
) -> Vec<Chunk> {
    let (ascent, descent) = text::vertical_metrics_mm(style, size_pt);
    let line_height = (ascent + descent) * LINE_GAP / FONT_LINE_SHARE;
    let wrapped = shaper.wrap(text, style, size_pt, width - indent, reading);
    let count = wrapped.len();
    wrapped
        .into_iter()
        .enumerate()
        .map(|(index, shaped)| {
            let mut page = Page::new(0.0, 0.0);
            // Right-to-left text is set flush right, its indent on the right.
            let x = if shaped.rtl { width - indent - shaped.width_mm() } else { indent };
            page.text(Point::new(x, ascent), shaped);
            let chunk = Chunk::new(line_height, page.items);
            match count >= 2 && (index == 0 || index + 2 == count) {
                true => chunk.keep(),
                false => chunk,
            }
        })
        .collect()
}

/// [`lines`] `measure` wide within `width`, kept to the right-hand edge of `width`
/// when the text reads right to left.
pub fn measured_lines(
    shaper: &Shaper,
    text: &str,
    style: Style,
    size_pt: f64,
    (width, measure): (f64, f64),
    indent: f64,
    reading: Reading,
) -> Vec<Chunk> {
    let measure = width.min(measure);
    let mut chunks = lines(shaper, text, style, size_pt, measure, indent, reading);
    to_right_edge(&mut chunks, width - measure, reading);
    chunks
}

enum Mark {
    Bullet,
    Box,
}

fn marked(
    shaper: &Shaper,
    text: &str,
    width: f64,
    (mark, scale): (Mark, f64),
    reading: Reading,
) -> Vec<Chunk> {
    let indent = ITEM_INDENT_MM * scale;
    let size_pt = BODY_PT * scale;
    let mut chunks = lines(shaper, text, Style::Regular, size_pt, width, indent, reading);
    // The mark stands where lines start: on the right for right-to-left text.
    let rtl = text::reads_right_to_left(text, reading);
    let at = |x: f64, w: f64| if rtl { width - x - w } else { x };
    if let Some(first) = chunks.first_mut() {
        let (ascent, _) = text::vertical_metrics_mm(Style::Regular, size_pt);
        let mut page = Page::new(0.0, 0.0);
        match mark {
            Mark::Bullet => page.circle(
                Point::new(at(BULLET_X_MM * scale, 0.0), ascent * MARK_RISE),
                BULLET_RADIUS_MM * scale,
                Paint::fill(Color::BLACK),
            ),
            Mark::Box => page.rect(
                Point::new(
                    at(0.5, ITEM_BOX_MM * scale),
                    ascent * MARK_RISE - 2.0 * scale,
                ),
                ITEM_BOX_MM * scale,
                ITEM_BOX_MM * scale,
                Paint::outline(Stroke::solid(diagram_style::OUTLINE_MM)),
            ),
        }
        first.items.extend(page.items);
    }
    if let Some(last) = chunks.last_mut() {
        last.height += ITEM_AFTER_MM * scale;
    }
    chunks
}

fn note(
    shaper: &Shaper,
    text: &str,
    width: f64,
    reading: Reading,
    scale: f64,
) -> Vec<Chunk> {
    let pad = NOTE_PAD_MM * scale;
    let inner = lines(
        shaper,
        text,
        Style::Bold,
        BODY_PT * scale,
        width - 2.0 * pad,
        0.0,
        reading,
    );
    let height: f64 = inner.iter().map(|c| c.height).sum::<f64>() + 2.0 * pad;
    let mut page = Page::new(0.0, 0.0);
    page.rect(
        Point::new(0.0, 0.0),
        width,
        height,
        Paint::both(Color::gray(NOTE_TONE), Stroke::solid(NOTE_LINE_MM)),
    );
    let mut y = pad;
    for chunk in inner {
        page.items.extend(chunk.items.iter().map(|i| i.translated(pad, y)));
        y += chunk.height;
    }
    vec![Chunk::new(height, page.items), Chunk::space(NOTE_PAD_MM * scale)]
}

/// Large print: any text of a drawing under `min_pt` (a letter sized to its piece, a
/// coordinate sized to its band) set at `min_pt` instead, about the same centre.
pub fn raise_small_text(shaper: &Shaper, items: &mut [Item], min_pt: f64) {
    for item in items {
        let Item::Text { origin, shaped, .. } = item else { continue };
        if shaped.size_pt >= min_pt - EPS_MM {
            continue;
        }
        let reading = if shaped.rtl { Reading::RightToLeft } else { Reading::Natural };
        let larger = shaper.shape(&shaped.text, shaped.style, min_pt, reading);
        let (old_ascent, _) = text::vertical_metrics_mm(shaped.style, shaped.size_pt);
        let (new_ascent, _) = text::vertical_metrics_mm(shaped.style, min_pt);
        let centre_x = origin.x + shaped.width_mm() / 2.0;
        let centre_y = origin.y - old_ascent * draw::CAP_HEIGHT / 2.0;
        *origin = Point::new(
            centre_x - larger.width_mm() / 2.0,
            centre_y + new_ascent * draw::CAP_HEIGHT / 2.0,
        );
        *shaped = larger;
    }
}

/// A copy of `page` with `words` ("Print on card") boxed in its top margin, at the
/// corner where lines start, for the one who feeds the printer.
pub fn marked_for_card(
    shaper: &Shaper,
    page: &Page,
    words: &str,
    reading: Reading,
) -> Page {
    let mut marked = page.clone();
    let shaped = shaper.shape(words, Style::Bold, CARD_MARK_PT, reading);
    let (ascent, descent) = text::vertical_metrics_mm(Style::Bold, CARD_MARK_PT);
    let (pad, width) = (CARD_MARK_PAD_MM, shaped.width_mm());
    let x = match reading.rtl() {
        true => page.width - MARGIN_MM - width - 2.0 * pad,
        false => MARGIN_MM,
    };
    let top = SAFE_MARGIN_MM;
    let mut mark = Page::new(0.0, 0.0);
    let height = ascent + descent + 2.0 * pad;
    mark.rect(
        Point::new(x, top),
        width + 2.0 * pad,
        height,
        Paint::outline(Stroke::solid(CARD_MARK_LINE_MM)),
    );
    mark.text(Point::new(x + pad, top + pad + ascent), shaped);
    Tag::wrap_text(Role::Paragraph, std::iter::once(&mut mark.items));
    marked.items.extend(mark.items);
    marked
}

/// The size of the card mark: read at a glance over the printer's tray.
const CARD_MARK_PT: f64 = 8.0;

/// Flows a sheet's chunks onto pages of `paper`, in `columns`, and adds the footer
/// to each.
pub fn paginate(
    shaper: &Shaper,
    mut chunks: Vec<Option<Chunk>>,
    paper: &Paper,
    columns: flow::Columns,
    footer: &footer::Footer,
) -> Vec<Page> {
    let frame = frame(paper);
    table::fill_spare_rows(shaper, &mut chunks, frame, columns);
    let (contents, turned) = flow::flow_in(shaper, &chunks, frame, columns);
    paginate_flowed(shaper, contents, &turned, paper, footer)
}

/// Pages of `paper` holding each page's items flowed already, with the footer; the
/// pages in `turned` are landscape.
pub fn paginate_flowed(
    shaper: &Shaper,
    contents: Vec<Vec<Item>>,
    turned: &[usize],
    paper: &Paper,
    footer: &footer::Footer,
) -> Vec<Page> {
    let (width, height) = paper.size_mm();
    let count = contents.len();
    contents
        .into_iter()
        .enumerate()
        .map(|(index, items)| {
            // A page holding a landscape part of a split drawing is turned.
            let turn = |(w, h): (f64, f64)| match turned.contains(&index) {
                true => (h, w),
                false => (w, h),
            };
            let (width, height) = turn((width, height));
            let mut page = Page { width, height, items };
            footer.draw(shaper, &mut page, index + 1, count, paper.imperial());
            centred_on(page, turn(paper.sheet_mm()))
        })
        .collect()
}

/// A page laid out on part of a sheet, moved to the middle of the whole sheet.
fn centred_on(page: Page, (width, height): (f64, f64)) -> Page {
    if (width, height) == (page.width, page.height) {
        return page;
    }
    let (dx, dy) = ((width - page.width) / 2.0, (height - page.height) / 2.0);
    let items = page.items.iter().map(|item| item.translated(dx, dy)).collect();
    Page { width, height, items }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_paragraph_keeps_two_lines_together_at_each_end() {
        let text = "word ".repeat(80);
        let chunks = lines(
            &Shaper::new(),
            &text,
            Style::Regular,
            BODY_PT,
            60.0,
            0.0,
            Reading::Natural,
        );
        let n = chunks.len();
        assert!(n >= 5, "{n} lines");
        let kept: Vec<usize> = (0..n).filter(|&i| chunks[i].keep_with_next).collect();
        // A break after the first line or before the last is never taken.
        assert_eq!(kept, [0, n - 2]);
    }

    #[test]
    fn running_text_keeps_to_the_measure_and_to_the_right_edge_when_rtl() {
        let block = Block::Paragraph("نص ".repeat(60));
        let chunks = scaled_text_chunks(
            &Shaper::new(),
            &block,
            (390.0, TEXT_MEASURE_MM),
            Reading::RightToLeft,
            1.0,
        );
        for chunk in &chunks {
            for item in &chunk.items {
                if let crate::page::Item::Text { origin, shaped, .. } = item {
                    assert!(shaped.width_mm() <= TEXT_MEASURE_MM + 1e-6);
                    assert!((origin.x + shaped.width_mm() - 390.0).abs() < 1e-6);
                }
            }
        }
    }
}
