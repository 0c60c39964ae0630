//! One sheet's markup as chunks to flow onto pages: text set, figures drawn, and the
//! ties that keep things together across a page break (a list's ends, a paragraph and
//! the drawing it introduces). Parsing and drawing are apart from pagination so that
//! a sheet can be set again at another width or type size and measured.

use std::ops::{ControlFlow, Range};

use super::MAX_PAGES;
use super::board_words::{Portion, is_board};
use super::lay_out::LayoutContext;
use crate::diag::{Diagnostic, Diagnostics};
use crate::games::Sheets;
use crate::kit::SheetKind;
use crate::layout::flow::Chunk;
use crate::layout::{self, FigureContext, FigureError, forms};
use crate::preview::thumbnail;
use crate::sheet::markup::{self, Block};
use crate::text;

/// The most problems one sheet's markup reports: a template that repeats a mistake
/// in a loop is told a few times, not thousands.
const MAX_PROBLEMS_PER_SHEET: usize = 20;

/// A sheet's markup, or part of it, and what of it to lay out.
#[derive(Clone, Copy)]
pub(super) struct Source<'a> {
    /// The sheet it belongs to.
    pub sheet: SheetKind,
    /// The markup.
    pub markup: &'a str,
    /// The template it was filled from, where problems in it are told.
    pub template_path: &'a str,
    /// What of it to lay out.
    pub portion: Portion<'a>,
}

/// Chunks to flow: `None` is a page break.
pub(super) type Chunks = Vec<Option<Chunk>>;

/// A sheet's markup as chunks to flow, figures drawn `cx.width` wide, and the
/// sheet's title (empty when it has no title block).
pub(super) fn chunks_of(
    layout_cx: &LayoutContext,
    source: &Source,
    cx: &FigureContext,
) -> Result<(Chunks, String), Diagnostics> {
    let blocks = markup::parse(source.markup);
    let mut setter = Setter::new(layout_cx, source, cx, &blocks);
    for (index, block) in blocks.iter().enumerate() {
        if setter.add(index, block).is_break() {
            break;
        }
    }
    setter.finish()
}

/// Sets a sheet's blocks one by one, collecting the problems found.
struct Setter<'a> {
    layout: &'a LayoutContext<'a>,
    game: &'a dyn Sheets,
    source: &'a Source<'a>,
    cx: &'a FigureContext<'a>,
    blocks: &'a [Block],
    chunks: Chunks,
    diags: Diagnostics,
    title: String,
    breaks: usize,
    /// The blocks before this one are a board's words, which go to the contents
    /// sheet (0 when none move).
    moved_words: usize,
    /// The words moved from the board are placed (on the contents sheet).
    placed_moved: bool,
    /// Each item of the list being set, as the range of its chunks.
    list_items: Vec<Range<usize>>,
}

impl<'a> Setter<'a> {
    fn new(
        layout_cx: &'a LayoutContext<'a>,
        source: &'a Source<'a>,
        cx: &'a FigureContext<'a>,
        blocks: &'a [Block],
    ) -> Setter<'a> {
        // A board's words before its drawing go to the contents sheet.
        let moved_words = match source.portion {
            Portion::BoardOnly { .. } => blocks.iter().position(is_board).unwrap_or(0),
            _ => 0,
        };
        Setter {
            layout: layout_cx,
            game: layout_cx.game,
            source,
            cx,
            blocks,
            chunks: Vec::new(),
            diags: Diagnostics::new(),
            title: String::new(),
            breaks: 0,
            moved_words,
            placed_moved: false,
            list_items: Vec::new(),
        }
    }

    /// A split board's sheets are its parts only.
    fn split(&self) -> bool {
        matches!(self.source.portion, Portion::BoardOnly { split: true, .. })
    }

    fn template_path(&self) -> &'a str {
        self.source.template_path
    }

    /// Text of a figure that does not fit is a problem of one language's strings, told
    /// at its key; `None` for anything else, which is the template's, the same in
    /// every language, so its message names none and `check` tells it once.
    fn figure_problem(&self, error: &FigureError) -> Option<Diagnostic> {
        self.layout.variant.blame_figure(self.source.sheet.name(), error)
    }

    /// A problem at a line of the filled template.
    fn at_line(&self, line: usize, message: String) -> Diagnostic {
        Diagnostic::file(
            &format!("{} (rendered line {line})", self.template_path()),
            message,
        )
    }

    /// Sets the block at `index`; breaks off when the sheet has too many problems or
    /// pages to go on.
    fn add(&mut self, index: usize, block: &Block) -> ControlFlow<()> {
        if !matches!(block, Block::Bullet(_) | Block::Check(_)) {
            hold_list_together(&mut self.chunks, &mut self.list_items);
        }
        if self.diags.len() >= MAX_PROBLEMS_PER_SHEET {
            self.diags.push(Diagnostic::file(
                self.template_path(),
                format!("sheet `{}`: more problems not listed", self.source.sheet.name()),
            ));
            return ControlFlow::Break(());
        }
        if index < self.moved_words && self.is_moved(block) {
            return ControlFlow::Continue(());
        }
        match block {
            // Where a plan's columns begin, when it is set in them.
            Block::Figure { name, .. } if name == "columns" => {}
            Block::Figure { name, .. } if name == "thumbnails" => self.thumbnails(),
            Block::Figure { name, line, .. } if name == "board-assembly" => {
                self.board_assembly(*line);
            }
            Block::PageBreak => return self.page_break(),
            Block::Figure { name, args, line } => self.figure(block, name, args, *line),
            _ => self.text(index, block),
        }
        ControlFlow::Continue(())
    }

    /// Whether a block of a board's words, before its drawing, moves to the contents
    /// sheet (it is then left out here). A board in one piece keeps its title, and
    /// its title names the sheet either way.
    fn is_moved(&mut self, block: &Block) -> bool {
        let is_title = matches!(block, Block::Title(_));
        if let Block::Title(t) = block
            && self.title.is_empty()
        {
            self.title = t.clone();
        }
        // A split board's title leads each part's label instead.
        self.split() || !is_title
    }

    /// `@thumbnails`: pictures of the sheets, on the contents sheet.
    fn thumbnails(&mut self) {
        if let Portion::Contents(_, thumbnails) = self.source.portion {
            let cx = self.cx;
            let pictures = thumbnail::chunks(
                cx.shaper,
                thumbnails,
                cx.width,
                cx.reading,
                cx.text_scale,
            );
            self.chunks.extend(pictures.into_iter().map(Some));
        }
    }

    /// `@board-assembly`: where the contents sheet places a board's words and plan.
    fn board_assembly(&mut self, line: usize) {
        if let Portion::Contents(Some(moved), _) = self.source.portion
            && !self.placed_moved
        {
            self.placed_moved = true;
            match moved.chunks(self.cx, self.game) {
                Ok(moved) => self.chunks.extend(moved.into_iter().map(Some)),
                Err(error) => {
                    let diag = self.figure_problem(&error);
                    self.diags.push(
                        diag.unwrap_or_else(|| self.at_line(line, error.to_string())),
                    );
                }
            }
        }
    }

    /// A page break, unless the sheet already asks for too many pages.
    fn page_break(&mut self) -> ControlFlow<()> {
        if self.breaks >= MAX_PAGES {
            self.diags.push(Diagnostic::file(
                self.template_path(),
                format!(
                    "sheet `{}` asks for more than {MAX_PAGES} pages",
                    self.source.sheet.name()
                ),
            ));
            return ControlFlow::Break(());
        }
        self.breaks += 1;
        self.chunks.push(None);
        ControlFlow::Continue(())
    }

    /// `@name args…`: a figure drawn, or the problem with it told at its key or line.
    fn figure(&mut self, block: &Block, name: &str, args: &[String], line: usize) {
        let figure = match draw_figure(name, args, self.cx, self.game) {
            Ok(figure) => figure,
            Err(error) => {
                let sheet = self.source.sheet.name();
                let diag = self.figure_problem(&error).unwrap_or_else(|| {
                    self.at_line(line, format!("sheet `{sheet}`: {error}"))
                });
                self.diags.push(diag);
                return;
            }
        };
        // Lines to answer on stay on the page of what they answer.
        if name == "answer-lines"
            && let Some(Some(last)) = self.chunks.last_mut()
        {
            last.keep_with_next = true;
        }
        let board_only =
            matches!(self.source.portion, Portion::BoardOnly { .. }) && is_board(block);
        for chunk in figure {
            self.figure_chunk(chunk, board_only);
        }
    }

    /// One chunk of a figure: its words tagged and at least the least type size, a
    /// board's parts labelled with its title or its legend left out when they moved.
    fn figure_chunk(&mut self, mut chunk: Chunk, board_only: bool) {
        let min_pt = self.cx.min_pt;
        // Words a figure draws are read, whatever it tagged itself.
        crate::page::Tag::wrap_loose_text(crate::page::Role::Paragraph, &mut chunk.items);
        if min_pt > 0.0 {
            layout::raise_small_text(self.cx.shaper, &mut chunk.items, min_pt);
            if let Some(poster) = &mut chunk.poster {
                layout::raise_small_text(self.cx.shaper, &mut poster.items, min_pt);
            }
        }
        let keep_legend =
            matches!(self.source.portion, Portion::BoardOnly { legend: true, .. });
        match (&mut chunk.poster, board_only) {
            (Some(poster), true) if self.split() => {
                poster.plan_elsewhere = true;
                let part = &poster.labels.part;
                poster.labels.part = format!("{} · {part}", self.title);
            }
            // Its legend went to the contents sheet with its words.
            (None, true) if !keep_legend => return,
            _ => {}
        }
        self.chunks.push(Some(chunk));
    }

    /// A block of text: a title, heading, paragraph, list item or note.
    fn text(&mut self, index: usize, block: &Block) {
        if let Block::Title(t) = block
            && self.title.is_empty()
        {
            self.title = t.clone();
        }
        check_glyphs(block, self.source.sheet, self.template_path(), &mut self.diags);
        let start = self.chunks.len();
        self.chunks.extend(self.cx.text_chunks(block).into_iter().map(Some));
        if matches!(block, Block::Bullet(_) | Block::Check(_)) {
            self.list_items.push(start..self.chunks.len());
        } else if introduces_figure(self.blocks, index) {
            // A section's one paragraph leads into its drawing: its last line and the
            // space after it go where the drawing goes.
            for chunk in self.chunks[start..].iter_mut().rev().take(2).flatten() {
                chunk.keep_with_next = true;
            }
        }
    }

    /// The chunks and title, or every problem found.
    fn finish(mut self) -> Result<(Chunks, String), Diagnostics> {
        hold_list_together(&mut self.chunks, &mut self.list_items);
        // A contents template without the marker still gets the board's words and plan.
        if let Portion::Contents(Some(moved), _) = self.source.portion
            && !self.placed_moved
        {
            match moved.chunks(self.cx, self.game) {
                Ok(moved) => self.chunks.extend(moved.into_iter().map(Some)),
                Err(error) => {
                    let diag = self.figure_problem(&error).unwrap_or_else(|| {
                        Diagnostic::file(self.template_path(), error.to_string())
                    });
                    self.diags.push(diag);
                }
            }
        }
        if !self.diags.is_empty() {
            return Err(self.diags);
        }
        Ok((self.chunks, self.title))
    }
}

/// Keeps at least two items of a list on each side of a page break, as lines are
/// kept in a paragraph: a list never ends, or begins, with one item alone on a page.
/// `items` holds each item's chunks, and is emptied for the next list.
fn hold_list_together(
    chunks: &mut [Option<layout::flow::Chunk>],
    items: &mut Vec<std::ops::Range<usize>>,
) {
    let count = items.len();
    for (i, item) in items.drain(..).enumerate() {
        if count >= 2
            && (i == 0 || i + 2 == count)
            && !item.is_empty()
            && let Some(Some(last)) = chunks.get_mut(item.end - 1)
        {
            last.keep_with_next = true;
        }
    }
}

/// Whether the paragraph at `index` is the whole text of a section that leads into
/// a drawing: a heading before it, a figure after it.
fn introduces_figure(blocks: &[Block], index: usize) -> bool {
    let after_heading = index > 0 && matches!(blocks[index - 1], Block::Heading(_));
    matches!(blocks[index], Block::Paragraph(_))
        && after_heading
        && matches!(blocks.get(index + 1), Some(Block::Figure { .. }))
}

/// Draws `@name args…`: the figures every game shares, else the game's own.
pub(super) fn draw_figure(
    name: &str,
    args: &[String],
    cx: &FigureContext,
    game: &dyn Sheets,
) -> Result<Vec<layout::flow::Chunk>, FigureError> {
    match name {
        // Large print draws each diagram on a row of its own, the whole width.
        "diagrams" if cx.min_pt > 0.0 && args.len() > 1 => {
            let rows =
                args.iter().map(|arg| game.figure(name, std::slice::from_ref(arg), cx));
            Ok(rows.collect::<Result<Vec<_>, _>>()?.concat())
        }
        "end-box" => forms::end_box(args, cx),
        "write-in" => forms::write_in(args, cx),
        "answer-lines" => forms::answer_lines(args, cx),
        _ => game.figure(name, args, cx),
    }
}

/// A character the font cannot show is an error, never a blank box.
fn check_glyphs(
    block: &Block,
    sheet: SheetKind,
    template: &str,
    diags: &mut Diagnostics,
) {
    let text = match block {
        Block::Title(t)
        | Block::Heading(t)
        | Block::Paragraph(t)
        | Block::Bullet(t)
        | Block::Check(t)
        | Block::Note(t) => t,
        _ => return,
    };
    let missing = text::missing_chars(text);
    if !missing.is_empty() {
        diags.push(Diagnostic::file(
            template,
            format!(
                "the font has no glyph for {:?} in sheet `{}`: \"{text}\"",
                missing,
                sheet.name()
            ),
        ));
    }
}
