//! Layout: sheet markup and game drawings → pages in millimetres.

pub mod crossway;
pub mod draw;
pub mod flow;
pub mod footer;
pub mod markup;
pub mod stacks;
pub mod three_men;
pub mod tile;

use std::fmt;

use crate::page::{Color, Page, Paint, Point, Stroke};
use crate::text::{self, Style};
use flow::{Chunk, Frame};
use markup::Block;

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

/// A sheet of paper: a named size (`a4`, `letter`, `a3`, `legal`), turned to
/// landscape or not, or any `WxHmm`.
#[derive(Clone, Debug, PartialEq)]
pub struct Paper {
    name: String,
    width: f64,
    height: f64,
    imperial: bool,
}

/// The named sizes: name, width and height in mm (portrait), measured in inches.
const NAMED_PAPERS: [(&str, f64, f64, bool); 4] = [
    ("a4", 210.0, 297.0, false),
    ("letter", 8.5 * 25.4, 11.0 * 25.4, true),
    ("a3", 297.0, 420.0, false),
    ("legal", 8.5 * 25.4, 14.0 * 25.4, true),
];

/// The smallest paper that leaves room for a footer and some content.
const MIN_PAPER_MM: (f64, f64) = (120.0, 150.0);

impl Paper {
    /// The names `--paper` accepts, for listings and messages.
    pub fn names() -> Vec<&'static str> {
        NAMED_PAPERS.iter().map(|p| p.0).collect()
    }

    /// ISO A4, 210 × 297 mm.
    pub fn a4() -> Paper {
        Paper::parse("a4", false).expect("a4 is a known paper")
    }

    /// A paper from its name or `WxHmm` (e.g. `300x400mm`), turned to landscape if asked.
    pub fn parse(text: &str, landscape: bool) -> Result<Paper, String> {
        let lower = text.to_ascii_lowercase();
        let (name, width, height, imperial) = if let Some(named) =
            NAMED_PAPERS.iter().find(|p| p.0 == lower)
        {
            (named.0.to_string(), named.1, named.2, named.3)
        } else if let Some((w, h)) =
            lower.strip_suffix("mm").and_then(|dims| dims.split_once('x'))
        {
            let number = |v: &str| v.trim().parse::<f64>().ok().filter(|n| n.is_finite());
            let (Some(w), Some(h)) = (number(w), number(h)) else {
                return Err(format!("`{text}` is not a paper size like 300x400mm"));
            };
            if w < MIN_PAPER_MM.0 || h < MIN_PAPER_MM.0 || w.max(h) < MIN_PAPER_MM.1 {
                return Err(format!(
                    "a {w} × {h} mm sheet is too small to print on: at least {} × {} mm",
                    MIN_PAPER_MM.0, MIN_PAPER_MM.1
                ));
            }
            (format!("{}x{}mm", trim(w), trim(h)), w, h, false)
        } else {
            return Err(format!(
                "unknown paper `{text}`: expected one of {} or a size like 300x400mm",
                Paper::names().join(", ")
            ));
        };
        let (width, height, name) = match landscape {
            true => (width.max(height), width.min(height), format!("{name}-landscape")),
            false => (width, height, name),
        };
        Ok(Paper { name, width, height, imperial })
    }

    /// Width and height in millimetres, as printed.
    pub fn size_mm(&self) -> (f64, f64) {
        (self.width, self.height)
    }

    /// The name used in folder names (`a4`, `letter-landscape`, `300x400mm`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Measured in inches (US papers): pages add an inch scale to the 100 mm bar.
    pub fn imperial(&self) -> bool {
        self.imperial
    }
}

/// A length without a needless `.0`.
fn trim(value: f64) -> String {
    if value.fract() == 0.0 { format!("{value:.0}") } else { format!("{value}") }
}

impl fmt::Display for Paper {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

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

/// Text chunks for one block; figures are made by the caller.
pub fn text_chunks(block: &Block, width: f64) -> Vec<Chunk> {
    let width = width.min(MAX_TEXT_MM);
    match block {
        Block::Title(t) => {
            let mut chunks = lines(t, Style::Bold, TITLE_PT, width, 0.0);
            chunks.push(Chunk::space(3.0));
            chunks
        }
        Block::Heading(t) => {
            let mut chunks = vec![Chunk::space(3.5).keep()];
            chunks.extend(
                lines(t, Style::Bold, HEADING_PT, width, 0.0)
                    .into_iter()
                    .map(Chunk::keep),
            );
            chunks.push(Chunk::space(1.0).keep());
            chunks
        }
        Block::Paragraph(t) => {
            let mut chunks = lines(t, Style::Regular, BODY_PT, width, 0.0);
            chunks.push(Chunk::space(2.0));
            chunks
        }
        Block::Bullet(t) => marked(t, width, Mark::Bullet),
        Block::Check(t) => marked(t, width, Mark::Box),
        Block::Note(t) => note(t, width),
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
) -> Vec<Chunk> {
    let (ascent, descent) = text::vertical_metrics_mm(style, size_pt);
    let line_height = (ascent + descent) * LINE_GAP / 1.16;
    text::wrap(text, style, size_pt, width - indent)
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

fn marked(text: &str, width: f64, mark: Mark) -> Vec<Chunk> {
    let indent = 7.0;
    let mut chunks = lines(text, Style::Regular, BODY_PT, width, indent);
    // The mark stands where lines start: on the right for right-to-left text.
    let rtl = text::shape(text, Style::Regular, BODY_PT).rtl;
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

fn note(text: &str, width: f64) -> Vec<Chunk> {
    let pad = 3.0;
    let inner = lines(text, Style::Bold, BODY_PT, width - 2.0 * pad, 0.0);
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
        page.items.extend(chunk.items.iter().map(|i| flow::translate(i, pad, y)));
        y += chunk.height;
    }
    vec![Chunk::new(height, page.items), Chunk::space(3.0)]
}

/// Flows a sheet's chunks onto pages of `paper` and adds the footer to each.
pub fn paginate(
    chunks: Vec<Option<Chunk>>,
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
    let contents = flow::flow(chunks, frame);
    let count = contents.len();
    contents
        .into_iter()
        .enumerate()
        .map(|(index, items)| {
            let mut page = Page { width, height, items };
            footer.draw(&mut page, index + 1, count, paper.imperial());
            page
        })
        .collect()
}

/// What a game's figure drawing may use.
pub struct FigureContext<'a> {
    /// The kit (geometry, spares).
    pub kit: &'a crate::kit::Kit,
    /// Worked examples as the rules played them.
    pub verified: &'a [crate::verify::Verified],
    /// The sheet language's strings, placeholders filled.
    pub strings: &'a toml::Table,
    /// Width of the content area in millimetres.
    pub width: f64,
    /// The board size being built.
    pub size: u8,
}

impl FigureContext<'_> {
    /// The string at a dotted key.
    pub fn text(&self, key: &str) -> Result<String, String> {
        let mut table = self.strings;
        let mut parts = key.split('.').peekable();
        while let Some(part) = parts.next() {
            match (table.get(part), parts.peek()) {
                (Some(toml::Value::Table(inner)), Some(_)) => table = inner,
                (Some(toml::Value::String(text)), None) => return Ok(text.clone()),
                _ => break,
            }
        }
        Err(format!("no string `{key}` in the kit's strings"))
    }

    /// The string at `key` set into a box `width` mm wide and at most `max_lines` lines
    /// tall, smaller than `size_pt` if it must be (down to 70%); an error naming the
    /// key if it cannot fit, so no text is ever cut off.
    pub fn fit(
        &self,
        key: &str,
        style: Style,
        size_pt: f64,
        width: f64,
        max_lines: usize,
    ) -> Result<Vec<text::Shaped>, String> {
        let value = self.text(key)?;
        let min_pt = (size_pt * 0.7).max(5.0);
        text::fit(&value, style, size_pt, min_pt, width, max_lines).ok_or_else(|| {
            format!(
                "the text of `{key}` does not fit its {width:.0} mm box in {max_lines} line(s), \
                 even at {min_pt:.1} pt: shorten it"
            )
        })
    }

    /// The words for a drawing split into parts.
    pub fn poster_labels(&self) -> Result<flow::PosterLabels, String> {
        Ok(flow::PosterLabels {
            part: self.text("common.part_label")?,
            assembly_title: self.text("common.assembly_title")?,
            assembly_note: self.text("common.assembly_note")?,
        })
    }

    /// The width of each diagram in an `@diagrams` row, and where the row starts so it
    /// sits centred: never fewer than `min_slots` slots, so one diagram stays small.
    pub fn diagram_slots(
        &self,
        args: &[String],
        min_slots: usize,
    ) -> Result<(f64, f64), String> {
        if args.is_empty() {
            return Err(
                "`@diagrams` needs at least one example, e.g. `@diagrams id:start`"
                    .into(),
            );
        }
        let slot = self.width / args.len().max(min_slots) as f64;
        Ok((slot, (self.width - slot * args.len() as f64) / 2.0))
    }

    /// The example an `@diagrams` argument names (`id:start`, `id:end`, with an
    /// optional third part for the game), which of its positions to draw, and that
    /// position: the start, or where its moves lead.
    pub fn diagram_position<'a>(
        &'a self,
        arg: &'a str,
    ) -> Result<(&'a crate::verify::Verified, &'a str, &'a str), String> {
        let mut parts = arg.split(':');
        let id = parts.next().unwrap_or_default();
        let when = parts.next().unwrap_or("start");
        let ex = self.example(id)?;
        let position = match when {
            "start" => ex.positions.first(),
            "end" => ex.positions.last(),
            _ => return Err(format!("`{arg}`: expected `{id}:start` or `{id}:end`")),
        }
        .ok_or_else(|| format!("example `{id}` has no positions"))?;
        Ok((ex, when, position))
    }

    /// A verified example by id.
    pub fn example(&self, id: &str) -> Result<&crate::verify::Verified, String> {
        self.verified
            .iter()
            .find(|v| v.id == id)
            .ok_or_else(|| format!("no example `{id}` in kit.toml"))
    }
}

/// Draws a figure of the kit's game.
pub fn figure(
    name: &str,
    args: &[String],
    cx: &FigureContext,
) -> Result<Vec<Chunk>, String> {
    if name == "end-box" {
        return end_box(args, cx);
    }
    if let Some(variant) = crate::rules::stack_variant(&cx.kit.game, cx.size) {
        return stacks::figure(&variant, name, args, cx);
    }
    match cx.kit.game.as_str() {
        "three-men-slide" => three_men::figure(name, args, cx),
        "crossway" => crossway::figure(name, args, cx),
        other => Err(format!("no figures for game `{other}`")),
    }
}

/// `@end-box HEADING OPTION…`: a heading and a box to tick for each way the game can
/// end; the arguments are string keys.
fn end_box(args: &[String], cx: &FigureContext) -> Result<Vec<Chunk>, String> {
    let Some((heading, options)) = args.split_first() else {
        return Err("`@end-box` needs a heading key and option keys".into());
    };
    let mut chunks = vec![Chunk::space(5.0).keep()];
    chunks.extend(
        lines(&cx.text(heading)?, Style::Bold, BODY_PT + 1.0, cx.width, 0.0)
            .into_iter()
            .map(Chunk::keep),
    );
    let col = cx.width.min(MAX_TEXT_MM) / 2.0;
    let row_h = 9.0;
    let rows = options.len().div_ceil(2);
    for (row, pair) in options.chunks(2).enumerate() {
        let mut page = Page::new(0.0, 0.0);
        let rtl = text::right_to_left();
        for (i, key) in pair.iter().enumerate() {
            let x = reading_slot(i, 2) as f64 * col;
            // The box stands where the line starts: left, or right when reading leftward.
            let box_x = if rtl { x + col - 4.5 } else { x };
            page.rect(
                Point::new(box_x, 2.0),
                4.5,
                4.5,
                Paint::outline(Stroke::solid(0.35)),
            );
            let wrapped = cx.fit(key, Style::Regular, BODY_PT, col - 9.0, 2)?;
            for (j, line) in wrapped.into_iter().enumerate() {
                let tx = if rtl { x + col - 7.0 - line.width_mm() } else { x + 7.0 };
                page.text(Point::new(tx, 5.6 + j as f64 * 4.2), line);
            }
        }
        // The whole box stays on one page.
        let chunk = Chunk::new(row_h, page.items);
        chunks.push(if row + 1 < rows { chunk.keep() } else { chunk });
    }
    Ok(chunks)
}

/// A bold caption kept on the page of what follows it (a row of pieces).
pub fn caption(cx: &FigureContext, key: &str) -> Result<Vec<Chunk>, String> {
    let mut chunks: Vec<Chunk> =
        lines(&cx.text(key)?, Style::Bold, BODY_PT, cx.width, 0.0)
            .into_iter()
            .map(Chunk::keep)
            .collect();
    chunks.push(Chunk::space(2.0).keep());
    Ok(chunks)
}

/// Rows of `count` tiles of `tile_w` × `tile_h` across `width`, each drawn by `draw`
/// at its top-left: pieces packed as densely as the paper allows.
pub fn tile_rows(
    count: usize,
    tile_w: f64,
    tile_h: f64,
    width: f64,
    draw: &dyn Fn(&mut Page, Point),
) -> Vec<Chunk> {
    let per_row = ((width / tile_w).floor() as usize).max(1);
    (0..count)
        .step_by(per_row)
        .map(|start| {
            let mut page = Page::new(0.0, 0.0);
            for i in 0..per_row.min(count - start) {
                let x = match text::right_to_left() {
                    true => width - (i + 1) as f64 * tile_w,
                    false => i as f64 * tile_w,
                };
                draw(&mut page, Point::new(x, 0.0));
            }
            Chunk::new(tile_h, page.items)
        })
        .collect()
}

/// `count` square tiles `tile` mm wide, each with the house cut line around it and a
/// piece drawn by `piece` at its centre.
pub fn cut_tiles(
    count: usize,
    tile: f64,
    width: f64,
    piece: &dyn Fn(&mut Page, Point),
) -> Vec<Chunk> {
    tile_rows(count, tile, tile, width, &|page, at| {
        page.rect(at, tile, tile, Paint::outline(draw::cut_stroke()));
        piece(page, Point::new(at.x + tile / 2.0, at.y + tile / 2.0));
    })
}

/// Captions centred under a row of diagrams `slot` mm wide starting at `left`, below
/// `top`; returns the chunk holding the diagrams and their captions.
pub fn diagram_row(
    mut page: Page,
    captions: &[Vec<text::Shaped>],
    left: f64,
    slot: f64,
    top: f64,
) -> Chunk {
    let line_h = 3.6;
    for (i, lines) in captions.iter().enumerate() {
        let i = reading_slot(i, captions.len());
        for (j, line) in lines.iter().enumerate() {
            let mid = left + i as f64 * slot + slot / 2.0;
            page.text_centered(mid, top + 3.0 + j as f64 * line_h, line.clone());
        }
    }
    let tallest = captions.iter().map(Vec::len).max().unwrap_or(0) as f64;
    Chunk::new(top + 2.0 + tallest * line_h + 3.0, page.items)
}

/// A legend line: a sample drawn by `sample` in a box `sample_w` wide at the start of
/// the line (the right end on a right-to-left sheet), then the text at `key`.
pub fn legend_entry(
    cx: &FigureContext,
    key: &str,
    sample_w: f64,
    sample: &dyn Fn(&mut Page, f64),
) -> Result<Vec<Chunk>, String> {
    let mut chunks =
        lines(&cx.text(key)?, Style::Regular, BODY_PT, cx.width, sample_w + 4.0);
    if let Some(first) = chunks.first_mut() {
        let mut page = Page::new(0.0, 0.0);
        let x = if text::right_to_left() {
            cx.width.min(MAX_TEXT_MM) - sample_w
        } else {
            0.0
        };
        sample(&mut page, x);
        first.items.extend(page.items);
    }
    Ok(chunks)
}

/// Where item `index` of `count` goes along a row, in reading order: from the left, or
/// from the right on a right-to-left sheet.
pub fn reading_slot(index: usize, count: usize) -> usize {
    if text::right_to_left() { count - 1 - index } else { index }
}
