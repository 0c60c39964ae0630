//! Layout: sheet markup and figures → pages in millimetres. Knows no game: games
//! draw their figures through [`FigureContext`] with the helpers in [`draw`].

pub mod draw;
pub mod figure;
pub mod flow;
pub mod footer;
pub mod paper;
pub mod poster;
pub mod table;

use crate::page::{Color, Page, Paint, Point, Role, Stroke, Tag};
use crate::sheet::markup::Block;
use crate::text::{self, Reading, Style};
pub use figure::FigureContext;
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
const TITLE_PT: f64 = 20.0;
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

/// Running text is never set wider than this, however wide the paper (A3 landscape):
/// longer lines are hard to read.
pub const MAX_TEXT_MM: f64 = 190.0;

/// Text chunks for one block, their text tagged with the block's role (title,
/// heading, paragraph, list item) for screen readers; figures are made by the caller.
pub fn text_chunks(block: &Block, width: f64, reading: Reading) -> Vec<Chunk> {
    let mut chunks = untagged_chunks(block, width, reading);
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

fn untagged_chunks(block: &Block, width: f64, reading: Reading) -> Vec<Chunk> {
    let width = width.min(MAX_TEXT_MM);
    match block {
        Block::Title(t) => {
            let mut chunks = lines(t, Style::Bold, TITLE_PT, width, 0.0, reading);
            chunks.push(Chunk::space(3.0));
            chunks
        }
        Block::Heading(t) => {
            let mut chunks = vec![Chunk::space(3.5).keep()];
            chunks.extend(
                lines(t, Style::Bold, HEADING_PT, width, 0.0, reading)
                    .into_iter()
                    .map(Chunk::keep),
            );
            chunks.push(Chunk::space(1.0).keep());
            chunks
        }
        Block::Paragraph(t) => {
            let mut chunks = lines(t, Style::Regular, BODY_PT, width, 0.0, reading);
            chunks.push(Chunk::space(2.0));
            chunks
        }
        Block::Bullet(t) => marked(t, width, Mark::Bullet, reading),
        Block::Check(t) => marked(t, width, Mark::Box, reading),
        Block::Note(t) => note(t, width, reading),
        Block::Figure { .. } | Block::PageBreak => Vec::new(),
    }
}

/// One chunk per wrapped line of text, indented by `indent`.
pub fn lines(
    text: &str,
    style: Style,
    size_pt: f64,
    width: f64,
    indent: f64,
    reading: Reading,
) -> Vec<Chunk> {
    let (ascent, descent) = text::vertical_metrics_mm(style, size_pt);
    let line_height = (ascent + descent) * LINE_GAP / 1.16;
    text::wrap(text, style, size_pt, width - indent, reading)
        .into_iter()
        .map(|shaped| {
            let mut page = Page::new(0.0, 0.0);
            // Right-to-left text is set flush right, its indent on the right.
            let x = if shaped.rtl { width - indent - shaped.width_mm() } else { indent };
            page.text(Point::new(x, ascent), shaped);
            Chunk::new(line_height, page.items)
        })
        .collect()
}

enum Mark {
    Bullet,
    Box,
}

fn marked(text: &str, width: f64, mark: Mark, reading: Reading) -> Vec<Chunk> {
    let indent = 7.0;
    let mut chunks = lines(text, Style::Regular, BODY_PT, width, indent, reading);
    // The mark stands where lines start: on the right for right-to-left text.
    let rtl = text::shape(text, Style::Regular, BODY_PT, reading).rtl;
    let at = |x: f64, w: f64| if rtl { width - x - w } else { x };
    if let Some(first) = chunks.first_mut() {
        let (ascent, _) = text::vertical_metrics_mm(Style::Regular, BODY_PT);
        let mut page = Page::new(0.0, 0.0);
        match mark {
            Mark::Bullet => page.circle(
                Point::new(at(2.5, 0.0), ascent * 0.62),
                0.8,
                Paint::fill(Color::BLACK),
            ),
            Mark::Box => page.rect(
                Point::new(at(0.5, 4.0), ascent * 0.62 - 2.0),
                4.0,
                4.0,
                Paint::outline(Stroke::solid(0.3)),
            ),
        }
        first.items.extend(page.items);
    }
    if let Some(last) = chunks.last_mut() {
        last.height += 1.2;
    }
    chunks
}

fn note(text: &str, width: f64, reading: Reading) -> Vec<Chunk> {
    let pad = 3.0;
    let inner = lines(text, Style::Bold, BODY_PT, width - 2.0 * pad, 0.0, reading);
    let height: f64 = inner.iter().map(|c| c.height).sum::<f64>() + 2.0 * pad;
    let mut page = Page::new(0.0, 0.0);
    page.rect(
        Point::new(0.0, 0.0),
        width,
        height,
        Paint::both(Color::gray(0.93), Stroke::solid(0.35)),
    );
    let mut y = pad;
    for chunk in inner {
        page.items.extend(chunk.items.iter().map(|i| i.translated(pad, y)));
        y += chunk.height;
    }
    vec![Chunk::new(height, page.items), Chunk::space(3.0)]
}

/// Flows a sheet's chunks onto pages of `paper` and adds the footer to each.
pub fn paginate(
    mut chunks: Vec<Option<Chunk>>,
    paper: &Paper,
    footer: &footer::Footer,
) -> Vec<Page> {
    let (width, height) = paper.size_mm();
    let frame = Frame {
        width: width - 2.0 * MARGIN_MM,
        left: MARGIN_MM,
        top: MARGIN_MM,
        bottom: height - footer::FOOTER_HEIGHT_MM,
    };
    table::fill_spare_rows(&mut chunks, frame);
    let (contents, turned) = flow::flow_turning(chunks, frame);
    let count = contents.len();
    contents
        .into_iter()
        .enumerate()
        .map(|(index, items)| {
            // A page holding a landscape part of a split drawing is turned.
            let (width, height) =
                if turned.contains(&index) { (height, width) } else { (width, height) };
            let mut page = Page { width, height, items };
            footer.draw(&mut page, index + 1, count, paper.imperial());
            page
        })
        .collect()
}
