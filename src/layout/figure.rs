//! What a game's figures may use ([`FigureContext`]), and how a figure tells what
//! went wrong ([`FigureError`]).

use super::flow::Chunk;
use super::poster::PosterLabels;
use super::{MIN_TEXT_PT, TEXT_MEASURE_MM, measured_lines};
use crate::kit::Kit;
use crate::rules::Game;
use crate::text::{self, Reading, Shaper, Style};
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
    pub cut: super::cut::CutLayout,
    /// The sheet's running text at this multiple of its usual sizes.
    pub text_scale: f64,
    /// Large print: the smallest type the sheet's reader gets, in points, sizes of
    /// figures scaled by `text_scale`; 0 for the usual sizes.
    pub min_pt: f64,
    /// Every key [`text`](Self::text) has given: `check` reports strings that no
    /// sheet prints.
    pub read: &'a std::cell::RefCell<std::collections::BTreeSet<String>>,
    /// What sets the sheet's text: the build's shaping, with what it keeps.
    pub shaper: &'a Shaper,
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
            self.shaper,
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
            shaper: self.shaper,
        }
    }

    /// The string at `key` set into a box `width` mm wide and at most `max_lines` lines
    /// tall, smaller than `size_pt` if it must be (down to 70%, never under
    /// `MIN_TEXT_PT`: players read it); an error naming the key if it cannot fit, so
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
        (self.shaper)
            .fit(&value, style, (size_pt, min_pt), width, max_lines, self.reading)
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
        (self.shaper)
            .fit(&value, style, (size_pt, min_pt), width, max_lines, self.reading)
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
        self.shaper.shape(text, style, self.pt(size_pt), self.reading)
    }

    /// Text broken into lines no wider than `width` mm, the way the sheet reads.
    pub fn wrap(
        &self,
        text: &str,
        style: Style,
        size_pt: f64,
        width: f64,
    ) -> Vec<text::Shaped> {
        self.shaper.wrap(text, style, self.pt(size_pt), width, self.reading)
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
            self.shaper,
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
