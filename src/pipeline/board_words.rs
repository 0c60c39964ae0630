//! A board sheet's words, legend and assembly plan moved to the contents sheet, when
//! that saves a board sheet: a board whose words would push it onto a second sheet,
//! or a split board that would open with a sheet of words and plan.

use super::chunks::draw_figure;
use super::variant::Variant;
use crate::diag::{Diagnostic, Diagnostics};
use crate::games::Sheets;
use crate::kit::SheetKind;
use crate::layout::{self, FigureContext, FigureError};
use crate::sheet::markup::{self, Block};
use crate::text::Shaper;

/// What of a sheet to lay out.
#[derive(Clone, Copy)]
pub(super) enum Portion<'m> {
    /// All of it.
    Whole,
    /// A board sheet without its words, which go on the contents sheet, and without
    /// its legend unless `legend`. A board in one piece keeps its title; a `split` one
    /// is its parts only, the title leading their labels, and its assembly plan goes
    /// with the words.
    BoardOnly { split: bool, legend: bool },
    /// The contents sheet, with a board's words and plan moved to it (where the
    /// template says `@board-assembly`, else at the end) and pictures of the sheets
    /// (where it says `@thumbnails`).
    Contents(Option<&'m MovedBoard>, &'m [crate::preview::thumbnail::Thumbnail<'m>]),
}

/// The `@board` line: the drawing whose words may move.
pub(super) fn is_board(block: &Block) -> bool {
    matches!(block, Block::Figure { name, .. } if name == "board")
}

/// A board sheet's words, legend and (when it is split) assembly plan, moved to the
/// contents sheet.
pub(super) struct MovedBoard {
    /// The board sheet's blocks before its drawing, its title made a heading.
    words: Vec<Block>,
    /// The drawing's `@` line (name and arguments), whose legend comes along.
    figure: (String, Vec<String>),
    /// The drawing, for the plan of its parts.
    poster: layout::poster::Poster,
    /// The board sheet's frame, where the parts are cut to fit.
    frame: layout::poster::Frame,
    /// The board is larger than the frame: it is split into parts.
    pub(super) split: bool,
    /// The board's legend comes along too.
    pub(super) legend_moved: bool,
    /// The sheets the board is printed on (landscape sheets may hold two parts).
    pub(super) sheets: usize,
}

impl MovedBoard {
    /// How many parts the board is printed in (1 when it is whole).
    pub(super) fn parts(&self, shaper: &Shaper) -> usize {
        match self.split {
            true => {
                let (frame, width) = (self.frame, self.frame.width);
                layout::poster::plan_figure(shaper, &self.poster, frame, width).2
            }
            false => 1,
        }
    }

    /// The words and drawing of a board sheet's markup; `None` if it has no drawing at
    /// exact scale.
    pub(super) fn of(
        markup: &str,
        cx: &FigureContext,
        game: &dyn Sheets,
        variant: &Variant,
    ) -> Result<Option<MovedBoard>, Diagnostics> {
        let options = &variant.options;
        let blocks = markup::parse(markup);
        let Some(at) = blocks.iter().position(is_board) else {
            return Ok(None);
        };
        // Only words move: a drawing or a page break before the board keeps it all
        // where the template put it.
        let words_only = blocks[..at].iter().all(|b| {
            matches!(
                b,
                Block::Title(_)
                    | Block::Heading(_)
                    | Block::Paragraph(_)
                    | Block::Bullet(_)
                    | Block::Check(_)
                    | Block::Note(_)
            )
        });
        if !words_only {
            return Ok(None);
        }
        let Block::Figure { name, args, .. } = &blocks[at] else { unreachable!() };
        let template = options.templates.templates.get(SheetKind::Board.name());
        let path = template.map_or("templates/board.tera", |(path, _)| path.as_str());
        // Words that do not fit are told at their strings key, as on the board sheet.
        let chunks = draw_figure(name, args, cx, game).map_err(|e| {
            let board = SheetKind::Board.name();
            vec![
                variant
                    .blame_figure(board, &e)
                    .unwrap_or_else(|| Diagnostic::file(path, e.to_string())),
            ]
        })?;
        let frame = layout::frame(&options.paper);
        let Some(poster) = chunks.into_iter().find_map(|c| c.poster) else {
            return Ok(None);
        };
        let split = !poster.fits(frame);
        let words = blocks[..at]
            .iter()
            .map(|b| match b {
                Block::Title(t) => Block::Heading(t.clone()),
                other => other.clone(),
            })
            .collect();
        Ok(Some(MovedBoard {
            words,
            figure: (name.clone(), args.clone()),
            poster,
            frame,
            split,
            legend_moved: true,
            sheets: 1,
        }))
    }

    /// Its chunks on a sheet set `cx.width` wide: the words, the legend, then (for a
    /// split board) how to put the parts together and the plan.
    pub(super) fn chunks(
        &self,
        cx: &FigureContext,
        game: &dyn Sheets,
    ) -> Result<Vec<layout::flow::Chunk>, FigureError> {
        let text = |block: &Block| cx.text_chunks(block);
        let mut chunks: Vec<layout::flow::Chunk> =
            self.words.iter().flat_map(text).collect();
        let (name, args) = &self.figure;
        if self.legend_moved {
            let legend = draw_figure(name, args, cx, game)?;
            chunks.extend(legend.into_iter().filter(|c| c.poster.is_none()));
        }
        if !self.split {
            return Ok(chunks);
        }
        let labels = &self.poster.labels;
        let (items, height, _parts) =
            layout::poster::plan_figure(cx.shaper, &self.poster, self.frame, cx.width);
        // "Printed on N sheets": the sheets, which may be fewer than the parts.
        let note = labels.assembly_note.replace("{parts}", &self.sheets.to_string());
        chunks.extend(text(&Block::Heading(labels.assembly_title.clone())));
        chunks.extend(text(&Block::Paragraph(note)));
        // The plan stays with the words that explain it.
        if let Some(last) = chunks.last_mut() {
            last.keep_with_next = true;
        }
        chunks.push(layout::flow::Chunk::space(3.0));
        let mut plan = crate::page::Page::new(0.0, 0.0);
        plan.items = items;
        let alt = labels.assembly_title.clone();
        crate::page::Tag::wrap_all(crate::page::Role::Figure { alt }, &mut plan.items);
        chunks.push(layout::flow::Chunk::new(height, plan.items));
        Ok(chunks)
    }
}
