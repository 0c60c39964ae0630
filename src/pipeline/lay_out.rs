//! Markup to pages: each sheet set in columns or one, at the width that keeps a
//! drawing on its first page, with its footer and the description its file carries;
//! then a board's words moved to the contents sheet when that saves a board sheet,
//! and the contents sheet, which lists them all, laid out last.

use std::collections::BTreeSet;

use super::board_words::{MovedBoard, Portion};
use super::chunks::{Chunks, Source, chunks_of};
use super::variant::Variant;
use super::views::{View, Views};
use super::{MAX_PAGES, Options, contents};
use crate::diag::{Diagnostic, Diagnostics};
use crate::games::Sheets;
use crate::kit::SheetKind;
use crate::layout::figure::Audience;
use crate::layout::flow::Columns;
use crate::layout::{self, FigureContext, footer::Footer};
use crate::pdf;
use crate::preview;

/// What every sheet of one build is laid out with.
pub(super) struct LayoutContext<'a> {
    /// The kit and options as this edition draws them.
    pub variant: &'a Variant<'a>,
    /// The game, which draws its own figures.
    pub game: &'a dyn Sheets,
    /// The build's stamp, which every footer carries.
    pub stamp: &'a str,
}

/// A sheet laid out, not yet written: trial layouts (the contents sheet's page count,
/// a board without its words) are only counted.
pub(super) struct Laid {
    pub sheet: SheetKind,
    pub title: String,
    pub pages: Vec<crate::page::Page>,
    pub info: pdf::DocInfo,
}

/// Every sheet of a build laid out.
pub(super) struct LaidOut {
    /// The sheets: the contents sheet first, the host key last.
    pub sheets: Vec<Laid>,
    /// The class's print job's title (empty without a class).
    pub job_title: String,
    /// The string keys read by the drawings of the contents sheet's own view, when
    /// it has one (a board in parts adds to the preparation time it quotes).
    pub plan_read: BTreeSet<String>,
}

impl LayoutContext<'_> {
    fn options(&self) -> &Options {
        &self.variant.options
    }

    /// Lays out every sheet of `rendered` (each sheet and its markup), then the
    /// contents sheet, which lists them with their pages.
    pub fn every_sheet(
        &self,
        views: &Views,
        rendered: &[(SheetKind, String)],
    ) -> Result<LaidOut, Diagnostics> {
        let mut sheets = self.each_sheet(views, rendered)?;
        let moved = self.move_board_words(&views.players, rendered, &mut sheets)?;
        // The board's parts are part of the preparation the contents sheet times.
        let with_parts = match moved.as_ref().filter(|board| board.split) {
            Some(board) => Some(views.with_gluing(board.parts(self.variant.shaper))?),
            None => None,
        };
        let plan_view = with_parts.as_ref().unwrap_or(&views.players);
        let (contents, job_title) =
            contents::lay_out(self, plan_view, &sheets, moved.as_ref())?;
        sheets.insert(0, contents);
        for laid in &mut sheets {
            laid.mark_for_cutting(self.options());
        }
        let plan_read = with_parts.map(|view| view.read.take()).unwrap_or_default();
        Ok(LaidOut { sheets, job_title, plan_read })
    }

    /// Each sheet whole, the host key from the host's view, the others from the
    /// players'. All problems found are reported together.
    fn each_sheet(
        &self,
        views: &Views,
        rendered: &[(SheetKind, String)],
    ) -> Result<Vec<Laid>, Diagnostics> {
        let mut diags = Diagnostics::new();
        let mut sheets = Vec::new();
        for (sheet, markup) in rendered {
            let (view, audience) = match sheet {
                SheetKind::HostKey => (&views.host, Audience::Host),
                _ => (&views.players, Audience::Players),
            };
            let cx = self.variant.figure_context(view, audience);
            match self.lay_out(*sheet, markup, &cx, Portion::Whole) {
                Ok(laid) => sheets.push(laid),
                Err(errors) => diags.extend(errors),
            }
        }
        match diags.is_empty() {
            true => Ok(sheets),
            false => Err(diags),
        }
    }

    /// A board whose words push it onto a second sheet, or a board split into parts
    /// that would open with a sheet of words and the assembly plan, has its words
    /// (and plan) moved to the contents sheet, which the facilitator reads before
    /// cutting, when that saves a board sheet: `sheets` then holds the board laid out
    /// without them, and the words moved are returned.
    fn move_board_words(
        &self,
        players: &View,
        rendered: &[(SheetKind, String)],
        sheets: &mut [Laid],
    ) -> Result<Option<MovedBoard>, Diagnostics> {
        let board = rendered.iter().find(|(sheet, _)| *sheet == SheetKind::Board);
        let at = sheets.iter().position(|laid| laid.sheet == SheetKind::Board);
        let (Some((_, markup)), Some(at)) = (board, at) else {
            return Ok(None);
        };
        if sheets[at].pages.len() <= 1 {
            return Ok(None);
        }
        let cx = self.variant.figure_context(players, Audience::Players);
        let Some(mut words) = MovedBoard::of(markup, &cx, self.game, self.variant)?
        else {
            return Ok(None);
        };
        // A board in one piece keeps its legend if it still fits on one sheet.
        let keep = if words.split { vec![false] } else { vec![true, false] };
        for legend in keep {
            let portion = Portion::BoardOnly { split: words.split, legend };
            let board = self.lay_out(SheetKind::Board, markup, &cx, portion)?;
            if board.pages.len() < sheets[at].pages.len() {
                words.sheets = board.pages.len();
                sheets[at] = board;
                words.legend_moved = !legend;
                return Ok(Some(words));
            }
        }
        Ok(None)
    }

    /// The path of the template a sheet was filled from, where problems in its markup
    /// are told.
    fn template_path(&self, sheet: SheetKind) -> String {
        let templates = &self.options().templates.templates;
        templates.get(sheet.name()).map(|(path, _)| path.clone()).unwrap_or_default()
    }

    /// `portion` of a sheet's `markup` laid out on pages, figures drawn with `cx`.
    pub fn lay_out(
        &self,
        sheet: SheetKind,
        markup: &str,
        cx: &FigureContext,
        portion: Portion,
    ) -> Result<Laid, Diagnostics> {
        let options = self.options();
        let template_path = self.template_path(sheet);
        let source = Source { sheet, markup, template_path: &template_path, portion };
        let (chunks, columns, title) = self.chunks_to_flow(&source, cx)?;
        let in_template = |e: String| vec![Diagnostic::file(&template_path, e)];
        let game_title = cx.text("common.game_title").map_err(in_template)?;
        let footer = self.footer(&source, cx, &format!("{game_title} · {title}"))?;
        let plan = match (sheet, columns.count) {
            (SheetKind::Contents, 1) => contents::plan_on_one_page(self, &source, cx)?,
            _ => None,
        };
        let pages = match plan {
            Some(pages) => {
                layout::paginate_flowed(cx.shaper, pages, &[], &options.paper, &footer)
            }
            None => layout::paginate(cx.shaper, chunks, &options.paper, columns, &footer),
        };
        if pages.len() > MAX_PAGES {
            return Err(in_template(format!(
                "sheet `{}` ({}) would have {} pages: at most {MAX_PAGES}",
                sheet.name(),
                options.lang,
                pages.len()
            )));
        }
        let info = self.doc_info(cx, &game_title, &title).map_err(in_template)?;
        Ok(Laid { sheet, pages, info, title })
    }

    /// A sheet's chunks set for the columns they flow in, the columns, and the
    /// sheet's title.
    fn chunks_to_flow(
        &self,
        source: &Source,
        cx: &FigureContext,
    ) -> Result<(Chunks, Columns, String), Diagnostics> {
        let (mut chunks, title) = chunks_of(self, source, cx)?;
        // A sheet that draws its title inside a figure (a compact board) has no title
        // block: its section's title names it in the footer and the file's title.
        let title = match title.is_empty() {
            true => {
                let key = format!("{}.title", title_section(source.sheet));
                cx.text(&key).unwrap_or_default()
            }
            false => title,
        };
        // Wide paper is set in columns, each as wide as a narrower page, unless the
        // sheet holds a table (it sets its own columns) or a drawing at exact scale
        // (it is centred on the page, or split).
        let paper = &self.options().paper;
        let mut columns = layout::columns(paper, cx.reading);
        let whole = |c: &layout::flow::Chunk| c.table.is_some() || c.poster.is_some();
        let drawing = chunks.iter().flatten().any(|c| c.poster.is_some());
        if columns.count > 1 {
            match chunks.iter().flatten().any(whole) {
                true => columns = Columns::ONE,
                false => {
                    let narrow = cx.narrowed(columns.width(cx.width));
                    chunks = chunks_of(self, source, &narrow)?.0;
                }
            }
        }
        // The few lines around a drawing at exact scale (a board) run wider than the
        // measure when that keeps the drawing on the sheet's first page.
        if drawing && columns.count == 1 {
            let wide = cx.with_measure(cx.width.min(layout::MAX_TEXT_MM));
            let wide = chunks_of(self, source, &wide)?.0;
            let frame = layout::frame(paper);
            let pages = |c: &[Option<layout::flow::Chunk>]| {
                layout::flow::page_count(cx.shaper, c, frame, columns)
            };
            if pages(&wide) < pages(&chunks) {
                chunks = wide;
            }
        }
        Ok((chunks, columns, title))
    }

    /// A sheet's footer: the print note (and the printer correction the sheet is
    /// drawn with), `caption` and the stamp, and the page numbers. A note too long
    /// for its place is its string's problem.
    fn footer(
        &self,
        source: &Source,
        cx: &FigureContext,
        caption: &str,
    ) -> Result<Footer, Diagnostics> {
        let options = self.options();
        let in_template = |e: String| vec![Diagnostic::file(source.template_path, e)];
        let caption = format!("{caption} · {}", self.stamp);
        // The sheet says it was drawn for one printer, and for what measurement.
        let correction = match &options.calibration {
            Some(calibration) => {
                let (across, down) = calibration.shown(self.variant.decimal_comma());
                let note = cx.text("common.corrected").map_err(in_template)?;
                Some(note.replace("{across}", &across).replace("{down}", &down))
            }
            None => None,
        };
        // Large print has a short note: it must fit beside the bar at 12 pt.
        let note_key = match cx.min_pt > 0.0 {
            true => "common.print_note_large",
            false => "common.print_note",
        };
        Footer::new(
            cx.shaper,
            (&cx.text(note_key).map_err(in_template)?, correction.as_deref()),
            caption,
            cx.text("common.page_label").map_err(in_template)?,
            (options.paper.size_mm().0, cx.min_pt),
            cx.reading,
        )
        .map_err(|e| {
            let sheet = source.sheet.name();
            let message = format!("sheet `{sheet}` ({}): {e}", options.lang);
            if e.contains("`common.print_note`") {
                return vec![self.variant.blame(note_key, message)];
            }
            if e.contains("`common.corrected`") {
                return vec![self.variant.blame("common.corrected", message)];
            }
            in_template(message)
        })
    }

    /// The file's description: it names the kit, the sheet and the build, in the
    /// sheet's language, and says which language it is in and which way it reads.
    fn doc_info(
        &self,
        cx: &FigureContext,
        game_title: &str,
        title: &str,
    ) -> Result<pdf::DocInfo, String> {
        let options = self.options();
        let size = match cx.kit.board.sizes.start() == cx.kit.board.sizes.end() {
            true => String::new(),
            false => format!(", {0}×{0}", cx.size),
        };
        Ok(pdf::DocInfo {
            title: format!(
                "{game_title} · {title} ({}, {}{size})",
                options.lang, options.paper
            ),
            lang: Some(options.lang.clone()),
            right_to_left: cx.reading.rtl(),
            page_label: cx.text("common.page_label")?,
            epoch: cx.kit.date,
        })
    }
}

impl Laid {
    /// Adds the registration marks the build asks for to the player pages with
    /// cut lines.
    fn mark_for_cutting(&mut self, options: &Options) {
        if options.previews.cut_marks && self.sheet != SheetKind::HostKey {
            for page in self.pages.iter_mut().filter(|p| preview::has_cut_lines(p)) {
                preview::add_registration_marks(page);
            }
        }
    }
}

/// The strings section that holds a sheet's words (`rules` for the rule card).
fn title_section(sheet: SheetKind) -> &'static str {
    match sheet {
        SheetKind::RepetitionLog => "log",
        SheetKind::RuleCard => "rules",
        SheetKind::QuickStart => "quick",
        SheetKind::HostKey => "host",
        other => other.name(),
    }
}
