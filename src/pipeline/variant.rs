//! The first stage of a build: the kit and options as this edition draws them. The
//! paper is narrowed for a printer correction, the cells set to the size asked for,
//! the language and board size checked, and the puzzle sheet's puzzles made, so that
//! every later stage works from one checked variant.

use std::borrow::Cow;

use super::Verified;
use super::views::View;
use super::{DECIMAL_COMMA_LANGUAGES, Options, puzzles};
use crate::diag::{Diagnostic, Diagnostics};
use crate::games::Sheets;
use crate::kit::strings::{REFERENCE_LANGUAGE, Strings};
use crate::kit::{Example, Kit, strings as kit_strings};
use crate::layout::figure::Audience;
use crate::layout::{self, FigureContext, FigureError};
use crate::puzzles::Puzzle;
use crate::text::{Reading, Shaper};

/// One kit in one language, paper and board size, checked, as its sheets are drawn.
pub(super) struct Variant<'a> {
    /// The kit, its cells at the size asked for.
    pub kit: Cow<'a, Kit>,
    /// The options, the paper narrowed to what a corrected sheet is laid out on.
    pub options: Cow<'a, Options>,
    /// The board size.
    pub size: u8,
    /// The puzzle sheet's puzzles (none without a puzzle sheet).
    pub puzzles: Vec<Puzzle>,
    /// The same puzzles as puzzle examples of the kit, for the rules to replay.
    puzzle_examples: Vec<Example>,
    /// What the reader should know about the build (fewer puzzles than asked).
    pub notes: Vec<String>,
    /// Which way the language reads.
    pub reading: Reading,
    /// What sets the variant's text, with what it keeps.
    pub shaper: &'a Shaper,
}

impl<'a> Variant<'a> {
    /// The variant `options` ask of `kit`, or why it cannot be built.
    pub fn of(
        kit: &'a Kit,
        options: &'a Options,
        made: &puzzles::Made,
        shaper: &'a Shaper,
    ) -> Result<Variant<'a>, Diagnostics> {
        let options = corrected(kit, options)?;
        let kit = scaled(kit, &options)?;
        cell_fits(&kit, &options)?;
        has_language(&kit, &options.lang)?;
        let size = board_size(&kit, &options)?;
        let (puzzles, puzzle_examples, notes) = with_puzzles(&kit, size, made)?;
        let language = kit_strings::language_of(&options.lang);
        let reading = match kit_strings::is_right_to_left(&language) {
            true => Reading::RightToLeft,
            false => Reading::Natural,
        };
        Ok(Variant {
            kit,
            options,
            size,
            puzzles,
            puzzle_examples,
            notes,
            reading,
            shaper,
        })
    }

    /// The game ready to draw this variant's figures: the kit's examples, `verified`
    /// once for every variant, as this board size shows them, and the puzzles made
    /// for this build replayed through the rules, every claim checked.
    pub fn sheets(
        &self,
        verified: &Verified,
    ) -> Result<Box<dyn Sheets + '_>, Diagnostics> {
        verified.examples.sheets(&self.kit, self.size, &self.puzzle_examples)
    }

    /// The strings of the build's language.
    pub fn strings(&self) -> &Strings {
        &self.kit.languages[&self.options.lang]
    }

    /// The strings of the reference language, which fill any gap.
    pub fn reference(&self) -> &Strings {
        &self.kit.languages[REFERENCE_LANGUAGE]
    }

    /// Whether the language writes a decimal comma (23,7 mm).
    pub fn decimal_comma(&self) -> bool {
        let language = kit_strings::language_of(&self.options.lang);
        DECIMAL_COMMA_LANGUAGES.contains(&language.as_str())
    }

    /// A problem with the string at `key`, told at its line in the strings file that
    /// holds it: the language's own, else the reference's it fell back on. A string
    /// that does not fit its box is the strings file's problem, not the template's.
    pub fn blame(&self, key: &str, message: String) -> Diagnostic {
        let strings = self.strings();
        match strings.entries.contains_key(key) {
            true => strings.diagnostic(key, message),
            false => self.reference().diagnostic(key, message),
        }
    }

    /// A figure's words that do not fit their box on `sheet`, told at their strings
    /// key ([`Variant::blame`]); `None` for a problem of another kind, which is the
    /// template's.
    pub fn blame_figure(&self, sheet: &str, error: &FigureError) -> Option<Diagnostic> {
        let key = error.key()?;
        let lang = &self.options.lang;
        Some(self.blame(key, format!("sheet `{sheet}` ({lang}): {error}")))
    }

    /// What a figure of `audience`'s sheets is drawn with: `view`'s strings, the
    /// paper's full content width and, for players in large print, larger type.
    pub fn figure_context<'v>(
        &'v self,
        view: &'v View,
        audience: Audience,
    ) -> FigureContext<'v> {
        let width = layout::content_width(&self.options.paper);
        let large = self.options.large_print && audience == Audience::Players;
        FigureContext {
            kit: &self.kit,
            strings: &view.table,
            width,
            measure: width.min(layout::TEXT_MEASURE_MM),
            size: self.size,
            reading: self.reading,
            audience,
            cut: self.options.cut,
            text_scale: if large { layout::LARGE_PRINT_SCALE } else { 1.0 },
            min_pt: if large { layout::LARGE_PRINT_MIN_PT } else { 0.0 },
            read: &view.read,
            shaper: self.shaper,
        }
    }
}

/// The options with the paper a corrected sheet is laid out on: drawn larger, it
/// needs a smaller area, centred on the paper.
fn corrected<'a>(
    kit: &Kit,
    options: &'a Options,
) -> Result<Cow<'a, Options>, Diagnostics> {
    let Some(calibration) = &options.calibration else {
        return Ok(Cow::Borrowed(options));
    };
    let fail = |e: String| vec![Diagnostic::file(&kit.kit_file, e)];
    let paper = calibration.printable(&options.paper).map_err(fail)?;
    Ok(Cow::Owned(Options { paper, ..options.clone() }))
}

/// The kit with the cells asked for (`--cell`, or its large cells in large print).
fn scaled<'a>(kit: &'a Kit, options: &Options) -> Result<Cow<'a, Kit>, Diagnostics> {
    let large = match options.large_print && kit.board.presets.contains_key("large") {
        true => Some("large".to_string()),
        false => None,
    };
    let Some(request) = options.cell.as_ref().or(large.as_ref()) else {
        return Ok(Cow::Borrowed(kit));
    };
    let scaled =
        kit.at_cell(request).map_err(|e| vec![Diagnostic::file(&kit.kit_file, e)])?;
    Ok(Cow::Owned(scaled))
}

/// A cell must fit on the paper with room around it.
fn cell_fits(kit: &Kit, options: &Options) -> Result<(), Diagnostics> {
    let biggest = kit.board.spacing_mm.max(kit.board.row_spacing_mm.unwrap_or(0.0));
    let room =
        layout::content_width(&options.paper).min(layout::content_height(&options.paper));
    if biggest + 20.0 > room {
        return Err(vec![Diagnostic::file(
            &kit.kit_file,
            format!(
                "a {biggest} mm cell does not fit on {} paper: at most {:.0} mm",
                options.paper,
                room - 20.0
            ),
        )]);
    }
    Ok(())
}

/// The kit must have strings in the language asked for ([`Kit::language`]).
fn has_language(kit: &Kit, lang: &str) -> Result<(), Diagnostics> {
    kit.language(lang).map(|_| ()).map_err(|e| {
        vec![Diagnostic::file(&kit.kit_file, format!("kit `{}`: {e}", kit.id))]
    })
}

/// The board size asked for, or the kit's default: one the kit offers
/// ([`Kit::board_size`]).
fn board_size(kit: &Kit, options: &Options) -> Result<u8, Diagnostics> {
    kit.board_size(options.size).map_err(|e| {
        vec![Diagnostic::file(&kit.kit_file, format!("kit `{}`: {e}", kit.id))]
    })
}

/// A build's puzzles, as puzzle examples too, and the notes on them.
type WithPuzzles = (Vec<Puzzle>, Vec<Example>, Vec<String>);

/// The kit's puzzle sheet's puzzles, made by the rules, the same as puzzle examples
/// (verified like any), and a note when fewer were found than asked for.
fn with_puzzles(
    kit: &Kit,
    size: u8,
    made: &puzzles::Made,
) -> Result<WithPuzzles, Diagnostics> {
    let Some(spec) = kit.puzzle_sheet() else {
        return Ok((Vec::new(), Vec::new(), Vec::new()));
    };
    let made = puzzles::generate(kit, size, spec, made)?;
    let mut notes = Vec::new();
    if made.len() < spec.count {
        notes.push(format!(
            "found {} of {} puzzles within the search budget; another seed may find more",
            made.len(),
            spec.count
        ));
    }
    let examples = puzzles::as_examples(kit, &made)?;
    Ok((made, examples, notes))
}
