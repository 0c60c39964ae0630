//! What a game's figures may use ([`FigureContext`]), and the figures every game
//! shares (`@end-box`).

use super::flow::Chunk;
use super::poster::PosterLabels;
use super::{BODY_PT, MAX_TEXT_MM, MIN_TEXT_PT, TEXT_MEASURE_MM, measured_lines};
use crate::kit::Kit;
use crate::page::{Page, Paint, Point, Role, Stroke, Tag};
use crate::rules::Game;
use crate::text::{self, Reading, Style};
use crate::verify::{Verified, When};

/// What a game's figure drawing may use.
pub struct FigureContext<'a> {
    /// The kit (geometry, spares).
    pub kit: &'a Kit,
    /// The sheet language's strings, placeholders filled.
    pub strings: &'a toml::Table,
    /// Width of the content area in millimetres.
    pub width: f64,
    /// Width of running text (its lines), at most `width`.
    pub measure: f64,
    /// The board size being built.
    pub size: u8,
    /// Which way the sheet's text runs.
    pub reading: Reading,
    /// Who reads the sheet: a player sheet never shows a puzzle's answer.
    pub audience: Audience,
    /// How pieces are laid out for cutting.
    pub cut: super::draw::CutLayout,
    /// The sheet's running text at this multiple of its usual sizes.
    pub text_scale: f64,
    /// Large print: the smallest type the sheet's reader gets, in points, sizes of
    /// figures scaled by `text_scale`; 0 for the usual sizes.
    pub min_pt: f64,
    /// Every key [`text`](Self::text) has given: `check` reports strings that no
    /// sheet prints.
    pub read: &'a std::cell::RefCell<std::collections::BTreeSet<String>>,
}

/// Who a sheet is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// The players: no answer to a puzzle, no host-key strings.
    Players,
    /// The facilitator: the host key.
    Host,
}

/// Why a figure could not be drawn, and where its reader should look: at a strings
/// key when a text does not fit its box (one language's strings file is to blame,
/// not the template, which is the same in every language), else at the template line
/// that asked for the figure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FigureError {
    key: Option<String>,
    message: String,
}

impl FigureError {
    /// The text at strings key `key` does not fit its box.
    pub fn too_long(key: &str, message: String) -> FigureError {
        FigureError { key: Some(key.to_string()), message }
    }

    /// The strings key to blame, if the problem is in one language's strings.
    pub fn key(&self) -> Option<&str> {
        self.key.as_deref()
    }

    /// What went wrong, lowercase, as a diagnostic tells it.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// A problem with no key to blame is the template's: `?` on the helpers that return
/// a plain message keeps working.
impl From<String> for FigureError {
    fn from(message: String) -> FigureError {
        FigureError { key: None, message }
    }
}

impl From<&str> for FigureError {
    fn from(message: &str) -> FigureError {
        FigureError::from(message.to_string())
    }
}

impl std::fmt::Display for FigureError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FigureError {}

impl<'a> FigureContext<'a> {
    /// The string at a dotted key.
    pub fn text(&self, key: &str) -> Result<String, String> {
        let mut table = self.strings;
        let mut parts = key.split('.').peekable();
        while let Some(part) = parts.next() {
            match (table.get(part), parts.peek()) {
                (Some(toml::Value::Table(inner)), Some(_)) => table = inner,
                (Some(toml::Value::String(text)), None) => {
                    self.read.borrow_mut().insert(key.to_string());
                    return Ok(text.clone());
                }
                _ => break,
            }
        }
        Err(format!("no string `{key}` in the kit's strings"))
    }

    /// The same context with running text `measure` mm wide.
    pub fn with_measure(&self, measure: f64) -> FigureContext<'a> {
        FigureContext { measure, ..self.narrowed(self.width) }
    }

    /// The same context with running text `text_scale` times its usual size.
    pub fn with_text_scale(&self, text_scale: f64) -> FigureContext<'a> {
        FigureContext { text_scale, measure: self.measure, ..self.narrowed(self.width) }
    }

    /// A type size of the usual sheet (`nominal` points) as this sheet sets it:
    /// scaled, never under the sheet's smallest type.
    pub fn pt(&self, nominal: f64) -> f64 {
        match self.min_pt > 0.0 {
            true => (nominal * self.text_scale).max(self.min_pt),
            false => nominal,
        }
    }

    /// A length that holds type (a row, a gap around a label): scaled with it.
    pub fn mm(&self, nominal: f64) -> f64 {
        match self.min_pt > 0.0 {
            true => nominal * self.text_scale,
            false => nominal,
        }
    }

    /// Chunks of a block of running text, at the context's width, measure and scale.
    pub fn text_chunks(&self, block: &crate::sheet::markup::Block) -> Vec<Chunk> {
        super::scaled_text_chunks(
            block,
            (self.width, self.measure),
            self.reading,
            self.text_scale,
        )
    }

    /// The same context for figures `width` mm wide (a column of a wide page).
    pub fn narrowed(&self, width: f64) -> FigureContext<'a> {
        FigureContext {
            kit: self.kit,
            strings: self.strings,
            width,
            measure: width.min(TEXT_MEASURE_MM),
            size: self.size,
            reading: self.reading,
            audience: self.audience,
            cut: self.cut,
            text_scale: self.text_scale,
            min_pt: self.min_pt,
            read: self.read,
        }
    }

    /// The string at `key` set into a box `width` mm wide and at most `max_lines` lines
    /// tall, smaller than `size_pt` if it must be (down to 70%, never under
    /// [`MIN_TEXT_PT`]: players read it); an error naming the key if it cannot fit, so
    /// no text is ever cut off.
    pub fn fit(
        &self,
        key: &str,
        style: Style,
        size_pt: f64,
        width: f64,
        max_lines: usize,
    ) -> Result<Vec<text::Shaped>, FigureError> {
        let value = self.text(key)?;
        let size_pt = self.pt(size_pt).max(MIN_TEXT_PT);
        let min_pt = (size_pt * LEAST_FIT).max(MIN_TEXT_PT).max(self.min_pt);
        text::fit(&value, style, size_pt, min_pt, width, max_lines, self.reading)
            .ok_or_else(|| {
                FigureError::too_long(
                    key,
                    format!(
                        "the text of `{key}` does not fit its {width:.0} mm box in \
                     {max_lines} line(s), even at {min_pt:.1} pt: shorten it"
                    ),
                )
            })
    }

    /// The string at `key` in a box `width` mm wide and at most `max_lines` lines tall,
    /// at `size_pt` or smaller down to `min_pt` (column headings keep one size, and
    /// nothing a player reads goes below 7 pt); an error naming the key if it does not
    /// fit.
    pub fn fit_down_to(
        &self,
        key: &str,
        style: Style,
        (size_pt, min_pt): (f64, f64),
        width: f64,
        max_lines: usize,
    ) -> Result<Vec<text::Shaped>, FigureError> {
        let value = self.text(key)?;
        let (size_pt, min_pt) = (self.pt(size_pt), self.pt(min_pt));
        text::fit(&value, style, size_pt, min_pt, width, max_lines, self.reading)
            .ok_or_else(|| {
                FigureError::too_long(
                    key,
                    format!(
                        "the text of `{key}` does not fit its {width:.0} mm column in \
                         {max_lines} line(s) at {min_pt:.0} pt: shorten it"
                    ),
                )
            })
    }

    /// The words for a drawing split into parts.
    pub fn poster_labels(&self) -> Result<PosterLabels, String> {
        Ok(PosterLabels {
            part: self.text("common.part_label")?,
            assembly_title: self.text("common.assembly_title")?,
            assembly_note: self.text("common.assembly_note")?,
            reading: self.reading,
            min_pt: self.min_pt,
        })
    }

    /// One line of text shaped the way the sheet reads.
    pub fn shape(&self, text: &str, style: Style, size_pt: f64) -> text::Shaped {
        text::shape(text, style, self.pt(size_pt), self.reading)
    }

    /// Text broken into lines no wider than `width` mm, the way the sheet reads.
    pub fn wrap(
        &self,
        text: &str,
        style: Style,
        size_pt: f64,
        width: f64,
    ) -> Vec<text::Shaped> {
        text::wrap(text, style, self.pt(size_pt), width, self.reading)
    }

    /// One chunk per wrapped line of `text` at the text measure, indented.
    pub fn lines(
        &self,
        text: &str,
        style: Style,
        size_pt: f64,
        indent: f64,
    ) -> Vec<Chunk> {
        measured_lines(
            text,
            style,
            self.pt(size_pt),
            (self.width, self.measure),
            indent,
            self.reading,
        )
    }

    /// Where item `index` of `count` goes along a row, in reading order.
    pub fn slot(&self, index: usize, count: usize) -> usize {
        self.reading.slot(index, count)
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
        let slots =
            if self.min_pt > 0.0 { args.len() } else { args.len().max(min_slots) };
        let slot = self.width / slots as f64;
        Ok((slot, (self.width - slot * args.len() as f64) / 2.0))
    }

    /// The example an `@diagrams` argument names (`id:start` or `id:end`, with an
    /// optional third part for the game), which of
    /// its positions to draw, and that position.
    pub fn diagram_position<'e, G: Game>(
        &self,
        examples: &'e [Verified<G>],
        arg: &str,
    ) -> Result<(&'e Verified<G>, When, &'e G::State), String> {
        // A third part (`id:start:marks`) is the game's own option.
        let mut parts = arg.split(':');
        let id = parts.next().unwrap_or_default();
        let when = match parts.next().unwrap_or("start") {
            "start" => When::Start,
            "end" => When::End,
            _ => return Err(format!("`{arg}`: expected `{id}:start` or `{id}:end`")),
        };
        let ex = examples
            .iter()
            .find(|v| v.id == id)
            .ok_or_else(|| format!("no example `{id}` in kit.toml"))?;
        if ex.puzzle && when == When::End && self.audience == Audience::Players {
            return Err(format!(
                "`{arg}` draws the answer to the puzzle `{id}`: only the host key may"
            ));
        }
        Ok((ex, when, ex.position(when)))
    }
}

/// Text squeezed to fit a line shrinks to this share of its size at most.
const LEAST_FIT: f64 = 0.7;
/// A row of two form entries (a box to tick, a line to write on): tall enough to
/// tick or write in by hand.
const FORM_ROW_MM: f64 = 9.0;
/// The room before a heading over boxes to tick, and after a form's rows.
const FORM_BEFORE_MM: f64 = 5.0;
/// See [`FORM_BEFORE_MM`].
const FORM_AFTER_MM: f64 = 3.0;
/// A box to tick: its side, its top, its line; its words start past it, the first
/// line's baseline and the lines' spacing.
const TICK_BOX_MM: f64 = 4.5;
/// See [`TICK_BOX_MM`].
const TICK_LINE_MM: f64 = 0.35;
/// See [`TICK_BOX_MM`].
const TICK_WORDS_INSET_MM: f64 = 7.0;
/// See [`TICK_BOX_MM`].
const TICK_WORDS_ROOM_MM: f64 = 9.0;
/// See [`TICK_BOX_MM`].
const TICK_BASELINE_MM: f64 = 5.6;
/// See [`TICK_BOX_MM`].
const TICK_LINE_STEP_MM: f64 = 4.2;
/// A line to write on: the gap before the next pair and after its label, the label's
/// baseline and the line's height under the row's top.
const WRITE_IN_END_MM: f64 = 4.0;
/// See [`WRITE_IN_END_MM`].
const WRITE_IN_GAP_MM: f64 = 1.5;
/// See [`WRITE_IN_END_MM`].
const WRITE_IN_BASELINE_MM: f64 = 6.5;
/// See [`WRITE_IN_END_MM`].
const WRITE_IN_LINE_MM: f64 = 7.3;
/// Answer lines: their spacing (a line of handwriting and more), the first one's
/// distance below the label's top, the label's baseline, the gap at a column's end,
/// their rule and its tone, the room under them and after the block.
const ANSWER_LINE_STEP_MM: f64 = 8.0;
/// See [`ANSWER_LINE_STEP_MM`].
const ANSWER_TOP_MM: f64 = 9.0;
/// See [`ANSWER_LINE_STEP_MM`].
const ANSWER_BASELINE_MM: f64 = 4.0;
/// See [`ANSWER_LINE_STEP_MM`].
const ANSWER_COLUMN_GAP_MM: f64 = 4.0;
/// See [`ANSWER_LINE_STEP_MM`].
const ANSWER_LABEL_ROOM_MM: f64 = 6.0;
/// See [`ANSWER_LINE_STEP_MM`].
const ANSWER_RULE_MM: f64 = 0.2;
/// See [`ANSWER_LINE_STEP_MM`].
const ANSWER_RULE_TONE: f64 = 0.45;
/// See [`ANSWER_LINE_STEP_MM`].
const ANSWER_BELOW_MM: f64 = 6.0;
/// See [`ANSWER_LINE_STEP_MM`].
const ANSWER_AFTER_MM: f64 = 4.0;

/// `@end-box HEADING OPTION…`: a heading and a box to tick for each way the game can
/// end; the arguments are string keys.
pub fn end_box(args: &[String], cx: &FigureContext) -> Result<Vec<Chunk>, FigureError> {
    let Some((heading, options)) = args.split_first() else {
        return Err("`@end-box` needs a heading key and option keys".into());
    };
    let mut chunks = vec![Chunk::space(FORM_BEFORE_MM).keep()];
    let mut title = cx.lines(&cx.text(heading)?, Style::Bold, BODY_PT + 1.0, 0.0);
    Tag::wrap_text(Role::Heading, title.iter_mut().map(|c| &mut c.items));
    chunks.extend(title.into_iter().map(Chunk::keep));
    let col = cx.width.min(MAX_TEXT_MM) / 2.0;
    let row_h = FORM_ROW_MM;
    let rows = options.len().div_ceil(2);
    for (row, pair) in options.chunks(2).enumerate() {
        let mut page = Page::new(0.0, 0.0);
        let rtl = cx.reading.rtl();
        for (i, key) in pair.iter().enumerate() {
            let x = cx.slot(i, 2) as f64 * col;
            // The box stands where the line starts: left, or right when reading leftward.
            let box_x = if rtl { x + col - TICK_BOX_MM } else { x };
            page.rect(
                Point::new(box_x, 2.0),
                TICK_BOX_MM,
                TICK_BOX_MM,
                Paint::outline(Stroke::solid(TICK_LINE_MM)),
            );
            let wrapped =
                cx.fit(key, Style::Regular, BODY_PT, col - TICK_WORDS_ROOM_MM, 2)?;
            // Each option is an item of a list to tick; its box is decoration.
            let mut option = Page::new(0.0, 0.0);
            for (j, line) in wrapped.into_iter().enumerate() {
                let tx = if rtl {
                    x + col - TICK_WORDS_INSET_MM - line.width_mm()
                } else {
                    x + TICK_WORDS_INSET_MM
                };
                let y = TICK_BASELINE_MM + j as f64 * TICK_LINE_STEP_MM;
                option.text(Point::new(tx, y), line);
            }
            Tag::wrap_all(Role::ListItem, &mut option.items);
            page.items.extend(option.items);
        }
        // The whole box stays on one page.
        let chunk = Chunk::new(row_h, page.items);
        chunks.push(if row + 1 < rows { chunk.keep() } else { chunk });
    }
    Ok(chunks)
}

/// `@write-in KEY…`: a line to write on after each label (the players' names, the
/// date, the table), two to a row, starting where the sheet's lines start.
pub fn write_in(keys: &[String], cx: &FigureContext) -> Result<Vec<Chunk>, FigureError> {
    if keys.is_empty() {
        return Err("`@write-in` needs label keys, e.g. `@write-in ledger.date`".into());
    }
    let col = cx.width.min(MAX_TEXT_MM) / 2.0;
    let row_h = FORM_ROW_MM;
    let rtl = cx.reading.rtl();
    let mut chunks = Vec::new();
    for pair in keys.chunks(2) {
        let mut page = Page::new(0.0, 0.0);
        for (i, key) in pair.iter().enumerate() {
            let x = cx.slot(i, 2) as f64 * col;
            let label = cx.fit(key, Style::Regular, BODY_PT, col / 2.0, 1)?;
            let label = label.into_iter().next().expect("one line");
            let w = label.width_mm();
            // The label where the line starts, then the line to write on, to a gap
            // before the next pair.
            let (tx, line) = match rtl {
                true => {
                    (x + col - w, (x + WRITE_IN_END_MM, x + col - w - WRITE_IN_GAP_MM))
                }
                false => (x, (x + w + WRITE_IN_GAP_MM, x + col - WRITE_IN_END_MM)),
            };
            page.text(Point::new(tx, WRITE_IN_BASELINE_MM), label);
            page.line(
                Point::new(line.0, WRITE_IN_LINE_MM),
                Point::new(line.1, WRITE_IN_LINE_MM),
                super::table::cell_rule(),
            );
        }
        chunks.push(Chunk::new(row_h, page.items));
    }
    chunks.push(Chunk::space(FORM_AFTER_MM));
    Ok(chunks)
}

/// `@answer-lines N…`: for each puzzle number, side by side, its number with the
/// words `puzzles.answer_label` and ruled lines to write the answer on.
pub fn answer_lines(
    args: &[String],
    cx: &FigureContext,
) -> Result<Vec<Chunk>, FigureError> {
    if args.is_empty() || args.iter().any(|a| a.parse::<u32>().is_err()) {
        return Err(
            "`@answer-lines` needs puzzle numbers, e.g. `@answer-lines 1 2`".into()
        );
    }
    let column = cx.width / args.len().max(2) as f64;
    let (rows, gap, top) = (3, ANSWER_LINE_STEP_MM, ANSWER_TOP_MM);
    let mut page = Page::new(0.0, 0.0);
    let label = cx.text("puzzles.answer_label")?;
    for (i, number) in args.iter().enumerate() {
        let x = cx.slot(i, args.len()) as f64 * column;
        let words = format!("{number}. {label}");
        let shaped =
            cx.wrap(&words, Style::Bold, BODY_PT - 1.0, column - ANSWER_LABEL_ROOM_MM);
        let Some(line) = shaped.into_iter().next() else { continue };
        let tx = if line.rtl {
            x + column - ANSWER_COLUMN_GAP_MM - line.width_mm()
        } else {
            x
        };
        page.text(Point::new(tx, ANSWER_BASELINE_MM), line);
        for row in 0..rows {
            let y = top + gap * f64::from(row + 1);
            let stroke = Stroke::solid(ANSWER_RULE_MM)
                .colored(crate::page::Color::gray(ANSWER_RULE_TONE));
            let end = x + column - ANSWER_COLUMN_GAP_MM;
            page.line(Point::new(x, y), Point::new(end, y), stroke);
        }
    }
    let height = top + gap * f64::from(rows) + ANSWER_BELOW_MM;
    Ok(vec![Chunk::new(height, page.items).keep(), Chunk::space(ANSWER_AFTER_MM)])
}
