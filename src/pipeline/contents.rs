//! The contents sheet: every file of the build with its pages, itself included, so
//! it is laid out last and again until its own page count is the one it prints; with
//! a class's copies, pictures of the sheets and any board words moved to it, set as a
//! plan on one page when it fits.

use super::board_words::{MovedBoard, Portion};
use super::chunks::{Chunks, Source, chunks_of};
use super::class;
use super::context::{Context, FileInfo};
use super::edition::rebuild_command;
use super::lay_out::{Laid, LayoutContext};
use super::views::View;
use super::write::file_name;
use crate::diag::Diagnostics;
use crate::kit::SheetKind;
use crate::layout::figure::Audience;
use crate::layout::{self, FigureContext};
use crate::preview::{self, thumbnail::Thumbnail};

/// Each file the contents sheet lists: its sheet, its pages and its cut lines.
type Listed = (SheetKind, usize, usize);

/// The contents sheet for the `sheets` laid out, made from `view`, with the board's
/// words `moved` to it if they were; and the class's print job's title (empty
/// without a class).
pub(super) fn lay_out(
    layout_cx: &LayoutContext,
    view: &View,
    sheets: &[Laid],
    moved: Option<&MovedBoard>,
) -> Result<(Laid, String), Diagnostics> {
    let (variant, options) = (layout_cx.variant, &*layout_cx.variant.options);
    let cx = variant.figure_context(view, Audience::Players);
    let thumbnails = thumbnails(sheets, options.paper.sheet_mm());
    let cuts: Vec<usize> =
        sheets.iter().map(|o| o.pages.iter().map(preview::cut_count).sum()).collect();
    let template = SheetKind::Contents.name();
    // Laid out again until its own page count is the one it prints (it settles at
    // once).
    let mut own_pages = 1;
    loop {
        let listed: Vec<Listed> = [(SheetKind::Contents, own_pages, 0)]
            .into_iter()
            .chain(sheets.iter().zip(&cuts).map(|(o, c)| (o.sheet, o.pages.len(), *c)))
            .collect();
        let (files, class_words) = files(layout_cx, view, &listed)?;
        let job_title =
            class_words.as_ref().map(|w| w.job_title.clone()).unwrap_or_default();
        let context = Context {
            stamp: layout_cx.stamp.to_string(),
            // One left-to-right piece, so that it reads in order on an Arabic sheet.
            rebuild: crate::text::left_to_right(&rebuild_command(
                &variant.kit,
                options,
                variant.size,
            )),
            files,
            board_in_parts: moved.is_some_and(|m| m.split),
            class: class_words,
            board_parts: sheets
                .iter()
                .any(|o| o.sheet == SheetKind::Board && o.pages.len() > 1),
            ..view.context(&variant.kit, options)
        };
        let missing = options.templates.missing_strings(template, &view.table);
        if !missing.is_empty() {
            return Err(missing);
        }
        let markup =
            options.templates.render(template, &context).map_err(|d| vec![*d])?;
        let portion = Portion::Contents(moved, &thumbnails);
        let laid = layout_cx.lay_out(SheetKind::Contents, &markup, &cx, portion)?;
        if laid.pages.len() == own_pages || own_pages > 3 {
            return Ok((laid, job_title));
        }
        own_pages = laid.pages.len();
    }
}

/// Pictures of the sheets' first pages. The contents sheet cannot picture itself,
/// nor show the host key to players: they are outlines of the paper.
fn thumbnails(sheets: &[Laid], paper: (f64, f64)) -> Vec<Thumbnail<'_>> {
    let outline_only = |name: String| Thumbnail { name, page: None, size: paper };
    let pictured = sheets.iter().map(|laid| match laid.sheet {
        SheetKind::HostKey => outline_only(file_name(laid.sheet)),
        sheet => {
            let first = &laid.pages[0];
            Thumbnail {
                name: file_name(sheet),
                page: Some(first),
                size: (first.width, first.height),
            }
        }
    });
    std::iter::once(outline_only(file_name(SheetKind::Contents)))
        .chain(pictured)
        .collect()
}

/// The files as the contents sheet lists them, with their pages and (for a class)
/// copies in words, and a class's own words.
fn files(
    layout_cx: &LayoutContext,
    view: &View,
    listed: &[Listed],
) -> Result<(Vec<FileInfo>, Option<class::Words>), Diagnostics> {
    let variant = layout_cx.variant;
    let (strings, reference) = (variant.strings(), variant.reference());
    let class = variant.options.class;
    let class_words = match class {
        Some(class) => {
            let minutes = view.facts.get("prep_minutes").and_then(|m| m.parse().ok());
            let plan =
                class::Plan::of(class, listed, minutes.unwrap_or(0), &variant.kit.card);
            let copies: Vec<u32> = listed.iter().map(|s| class.copies(s.0)).collect();
            Some(class::words(strings, reference, &view.facts, &plan, &copies)?)
        }
        None => None,
    };
    let counts: Vec<u32> = listed.iter().map(|s| s.1 as u32).collect();
    let pages_texts =
        class::counted(strings, reference, &view.facts, ("pages", "pages"), &counts)?;
    let files = listed
        .iter()
        .map(|&(sheet, pages, _)| {
            let copies = class.map_or(1, |class| class.copies(sheet));
            let copies_text = class_words
                .as_ref()
                .and_then(|(_, texts)| texts.get(&copies).cloned())
                .unwrap_or_default();
            FileInfo {
                name: file_name(sheet),
                sheet: sheet.name(),
                pages,
                copies,
                copies_text,
                pages_text: pages_texts.get(&(pages as u32)).cloned().unwrap_or_default(),
            }
        })
        .collect();
    Ok((files, class_words.map(|(words, _)| words)))
}

/// A part of the contents sheet's plan.
#[derive(Clone, Copy)]
enum PlanPart {
    /// Across the page: the title, the build and the pictures of the sheets.
    Head,
    /// In two columns: the plan itself.
    Body,
    /// The words and assembly plan of a board in parts, on a page of their own.
    Assembly,
}

impl PlanPart {
    /// `markup`, this part of the contents sheet: its head has the pictures of the
    /// sheets, its assembly any board words moved to it.
    fn of<'a>(self, source: &Source<'a>, markup: &'a str) -> Source<'a> {
        let portion = match (source.portion, self) {
            (Portion::Contents(_, pictures), PlanPart::Head) => {
                Portion::Contents(None, pictures)
            }
            (Portion::Contents(_, _), PlanPart::Body) => Portion::Contents(None, &[]),
            (Portion::Contents(moved, _), PlanPart::Assembly) => {
                Portion::Contents(moved, &[])
            }
            (other, _) => other,
        };
        Source { markup, portion, ..*source }
    }
}

/// The sizes a plan's text is tried at, as multiples of the body's 10 pt.
const PLAN_TEXT_SCALES: [f64; 7] = [1.0, 0.95, 0.9, 0.85, 0.8, 0.75, 0.7];

/// Pages, each the items on it, before their footers.
type PlanPages = Vec<Vec<crate::page::Item>>;

/// The contents sheet as a plan on one page: what comes before its `@columns` line
/// across the page, the rest in two columns below, and the words and plan of a board
/// in parts on pages of their own after it; `None` when the plan does not fit one page
/// (it is then set in one column, as any sheet).
pub(super) fn plan_on_one_page(
    layout_cx: &LayoutContext,
    source: &Source,
    cx: &FigureContext,
) -> Result<Option<PlanPages>, Diagnostics> {
    let Some((head, body)) = source.markup.split_once("\n@columns\n") else {
        return Ok(None);
    };
    let part = |cx: &FigureContext,
                markup: &str,
                which: PlanPart|
     -> Result<Chunks, Diagnostics> {
        Ok(chunks_of(layout_cx, &which.of(source, markup), cx)?.0)
    };
    let frame = layout::frame(&layout_cx.variant.options.paper);
    let columns = layout::flow::Columns {
        count: 2,
        gap: layout::COLUMN_GAP_MM,
        right_to_left: cx.reading.rtl(),
    };
    let column = cx.narrowed(columns.width(cx.width));
    let one = layout::flow::Columns::ONE;
    // A board's words go in the plan if they fit, else on a page of their own; the
    // plan is set smaller where a language runs longer, down to the 7 pt a player
    // reads.
    for words_within in [true, false] {
        for scale in PLAN_TEXT_SCALES {
            let head = part(&cx.with_text_scale(scale), head, PlanPart::Head)?;
            let column = column.with_text_scale(scale);
            let mut body = part(&column, body, PlanPart::Body)?;
            if words_within {
                body.extend(part(&column, "", PlanPart::Assembly)?);
            }
            let head_height: f64 = head.iter().flatten().map(|c| c.height).sum();
            let below = layout::poster::Frame { top: frame.top + head_height, ..frame };
            if head.iter().any(Option::is_none) || below.top >= frame.bottom {
                return Ok(None);
            }
            if layout::flow::page_count(cx.shaper, &head, frame, one) != 1
                || layout::flow::page_count(cx.shaper, &body, below, columns) != 1
            {
                continue;
            }
            let (mut head, _) = layout::flow::flow_in(cx.shaper, &head, frame, one);
            let (body, _) = layout::flow::flow_in(cx.shaper, &body, below, columns);
            let mut page = head.remove(0);
            page.extend(body.into_iter().flatten());
            let mut pages = vec![page];
            let assembly = part(cx, "", PlanPart::Assembly)?;
            if !words_within && !assembly.is_empty() {
                pages.extend(layout::flow::flow_in(cx.shaper, &assembly, frame, one).0);
            }
            return Ok(Some(pages));
        }
    }
    Ok(None)
}
