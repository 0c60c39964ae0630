//! The foot of every page: a 100 mm calibration bar, the note to print at actual
//! size, and where this page belongs.

use super::{MARGIN_MM, SAFE_MARGIN_MM};
use crate::page::{Page, Point, Stroke};
use crate::text::{self, Reading, Shaper, Style};

/// Height reserved at the bottom of every page for the footer.
pub const FOOTER_HEIGHT_MM: f64 = 34.0;
/// Length of the calibration bar: a facilitator checks it with a ruler.
pub const CALIBRATION_MM: f64 = 100.0;

const SMALL_PT: f64 = 7.5;

/// The print note beside the bar may take this many lines before the footer's rule.
const NOTE_LINES: usize = 3;

/// What the footer says; the words come from the kit's strings.
#[derive(Clone, Debug)]
pub struct Footer {
    /// The note beside the bar ("print at 100% …"), set to fit its box.
    note: Vec<text::Shaped>,
    /// Where the note starts: beside the bar, or above it on narrow paper.
    note_at: (f64, f64),
    /// The note's box width; right-to-left notes are set flush right in it.
    note_width: f64,
    /// Left of the bottom line: kit and sheet.
    caption: text::Shaped,
    /// At the head of the page, for a sheet corrected for one printer: which one.
    correction: Option<text::Shaped>,
    /// Page numbering pattern with `{page}` and `{pages}`.
    page_label: String,
    /// Which way the sheet's text runs.
    reading: Reading,
    /// The size of the caption and page number.
    size_pt: f64,
}

impl Footer {
    /// A footer for pages `page_width` mm wide; the print note is set smaller if it
    /// must be, and refused (with the reason) if it cannot fit its box at all.
    pub fn new(
        shaper: &Shaper,
        (print_note, correction): (&str, Option<&str>),
        caption: String,
        page_label: String,
        (page_width, min_pt): (f64, f64),
        reading: Reading,
    ) -> Result<Footer, String> {
        // Large print: its words at `min_pt`, the note (a short one) in two lines.
        let (size_pt, least) = (SMALL_PT.max(min_pt), LEAST_PT.max(min_pt));
        let most_lines = if min_pt > 0.0 { 2 } else { NOTE_LINES };
        // Beside the bar where there is room; on narrow paper, above it, full width.
        let beside = page_width - MARGIN_MM - note_x();
        let (note_width, lines, note_at) = if beside >= NOTE_BESIDE_MM {
            (beside, most_lines, (note_x(), NOTE_BESIDE_TOP_MM))
        } else {
            (page_width - 2.0 * MARGIN_MM, 2, (MARGIN_MM, NOTE_ABOVE_TOP_MM))
        };
        let note = shaper
            .fit(print_note, Style::Regular, (size_pt, least), note_width, lines, reading)
            .ok_or_else(|| {
            format!(
                "the text of `common.print_note` does not fit its box by the calibration \
                     bar ({note_width:.0} mm, {lines} lines): shorten it"
            )
        })?;
        // The caption shares its line with the page number: set smaller if it must be.
        let widest_label = page_label.replace("{page}", "99").replace("{pages}", "99");
        let label_width =
            shaper.shape(&widest_label, Style::Regular, size_pt, reading).width_mm();
        let room = page_width - 2.0 * MARGIN_MM - label_width - LABEL_GAP_MM;
        let caption = shaper
            .fit(&caption, Style::Regular, (size_pt, least), room, 1, reading)
            .and_then(|lines| lines.into_iter().next())
        .ok_or_else(|| {
            format!(
                "the footer caption {caption:?} does not fit in {room:.0} mm: shorten it"
            )
        })?;
        // In the band above the content, clear of the printer's unprintable border.
        let correction = match correction {
            Some(words) => {
                let width = page_width - 2.0 * MARGIN_MM;
                let fitted = shaper.fit(
                    words,
                    Style::Regular,
                    (size_pt, least),
                    width,
                    1,
                    reading,
                );
                let line = fitted.and_then(|lines| lines.into_iter().next());
                Some(line.ok_or_else(|| {
                    format!(
                        "the text of `common.corrected` does not fit the head of the \
                         page ({width:.0} mm): shorten it"
                    )
                })?)
            }
            None => None,
        };
        Ok(Footer {
            note,
            note_at,
            note_width,
            caption,
            correction,
            page_label,
            reading,
            size_pt,
        })
    }

    /// Draws the footer on page `number` of `count`.
    pub fn draw(
        &self,
        shaper: &Shaper,
        page: &mut Page,
        number: usize,
        count: usize,
        inches: bool,
    ) {
        let bottom = page.height - SAFE_MARGIN_MM - 2.0;
        let bar_y = page.height - FOOTER_HEIGHT_MM + BAR_DROP_MM;
        calibration_bar(shaper, page, Point::new(MARGIN_MM, bar_y));
        if inches {
            inch_scale(shaper, page, Point::new(MARGIN_MM, bar_y - 1.0));
        }

        let size = self.note.first().map_or(SMALL_PT, |l| l.size_pt);
        let (ascent, descent) = text::vertical_metrics_mm(Style::Regular, size);
        let mut y = bar_y + self.note_at.1 + ascent;
        for line in &self.note {
            let x = match line.rtl {
                true => self.note_at.0 + self.note_width - line.width_mm(),
                false => self.note_at.0,
            };
            page.text(Point::new(x, y), line.clone());
            y += (ascent + descent) * NOTE_LEADING;
        }

        page.line(
            Point::new(MARGIN_MM, bottom - RULE_RISE_MM),
            Point::new(page.width - MARGIN_MM, bottom - RULE_RISE_MM),
            Stroke::solid(RULE_MM),
        );
        page.text(Point::new(MARGIN_MM, bottom), self.caption.clone());
        let label = self
            .page_label
            .replace("{page}", &number.to_string())
            .replace("{pages}", &count.to_string());
        let shaped = shaper.shape(&label, Style::Regular, self.size_pt, self.reading);
        let x = page.width - MARGIN_MM - shaped.width_mm();
        page.text(Point::new(x, bottom), shaped);
        if let Some(line) = &self.correction {
            let (ascent, _) = text::vertical_metrics_mm(Style::Regular, line.size_pt);
            let x = match line.rtl {
                true => page.width - MARGIN_MM - line.width_mm(),
                false => MARGIN_MM,
            };
            page.text(Point::new(x, SAFE_MARGIN_MM + ascent), line.clone());
        }
    }
}

/// The least size of the footer's words, where the note is squeezed to fit.
const LEAST_PT: f64 = 5.5;
/// The narrowest note that stands beside the bar; narrower, it goes above it, full
/// width. Its top relative to the bar in each place.
const NOTE_BESIDE_MM: f64 = 45.0;
/// See [`NOTE_BESIDE_MM`].
const NOTE_BESIDE_TOP_MM: f64 = -6.0;
/// See [`NOTE_BESIDE_MM`].
const NOTE_ABOVE_TOP_MM: f64 = -11.5;
/// The room between the footer's caption and the page's label.
const LABEL_GAP_MM: f64 = 5.0;
/// The calibration bar's height under the footer's top.
const BAR_DROP_MM: f64 = 12.0;
/// The note's line spacing, as a share of the font's height.
const NOTE_LEADING: f64 = 1.1;
/// The footer's rule: above the caption's baseline, and its line.
const RULE_RISE_MM: f64 = 3.6;
/// See [`RULE_RISE_MM`].
const RULE_MM: f64 = 0.2;
/// The gap between the calibration bar and the note beside it.
const NOTE_GAP_MM: f64 = 8.0;
/// A ruler's line and its millimetre ticks' line.
const RULER_LINE_MM: f64 = 0.3;
/// See [`RULER_LINE_MM`].
const MM_TICK_LINE_MM: f64 = 0.12;
/// Ticks: a whole inch's and a quarter's, a half-decimetre's and a centimetre's, a
/// millimetre's; how far a number stands from its tick, and its size.
const INCH_TICK_MM: f64 = 3.5;
/// See [`INCH_TICK_MM`].
const QUARTER_TICK_MM: f64 = 1.5;
/// See [`INCH_TICK_MM`].
const HALF_DM_TICK_MM: f64 = 3.2;
/// See [`INCH_TICK_MM`].
const CM_TICK_MM: f64 = 2.2;
/// See [`INCH_TICK_MM`].
const MM_TICK_MM: f64 = 1.2;
/// See [`INCH_TICK_MM`].
const INCH_NUMBER_GAP_MM: f64 = 0.8;
/// See [`INCH_TICK_MM`].
const CM_NUMBER_DROP_MM: f64 = 5.4;
/// See [`INCH_TICK_MM`].
const RULER_PT: f64 = 6.0;
/// A ruler's unit stands this far past its end.
const UNIT_GAP_MM: f64 = 1.5;
/// The inch scale's length in inches, and its ticks per inch.
const INCHES: f64 = 4.0;
/// See [`INCHES`].
const QUARTERS: f64 = 4.0;
/// Millimetres in a centimetre.
const CM: f64 = 10.0;

/// Where the print note starts: right of the calibration bar.
fn note_x() -> f64 {
    MARGIN_MM + CALIBRATION_MM + NOTE_GAP_MM
}

/// Four inches marked above the centimetre bar, for rulers in inches: ticks every
/// quarter inch, numbered at each inch, drawn upward from `at`.
pub fn inch_scale(shaper: &Shaper, page: &mut Page, at: Point) {
    const INCH: f64 = 25.4;
    let stroke = Stroke::solid(RULER_LINE_MM);
    page.line(at, Point::new(at.x + INCHES * INCH, at.y), stroke);
    for quarter in 0..=16 {
        let x = at.x + quarter as f64 * INCH / QUARTERS;
        let tick = if quarter % 4 == 0 { INCH_TICK_MM } else { QUARTER_TICK_MM };
        page.line(Point::new(x, at.y), Point::new(x, at.y - tick), stroke);
        if quarter % 4 == 0 {
            let label = shaper.shape(
                &(quarter / 4).to_string(),
                Style::Regular,
                RULER_PT,
                Reading::Natural,
            );
            page.text_centered(x, at.y - tick - INCH_NUMBER_GAP_MM, label);
        }
    }
    let unit = shaper.shape("in", Style::Regular, RULER_PT, Reading::Natural);
    page.text(Point::new(at.x + INCHES * INCH + UNIT_GAP_MM, at.y - 1.0), unit);
}

/// A 100 mm bar with a tick every centimetre, numbered 0 to 10, its top-left at
/// `at`.
pub fn calibration_bar(shaper: &Shaper, page: &mut Page, at: Point) {
    let stroke = Stroke::solid(RULER_LINE_MM);
    page.line(at, Point::new(at.x + CALIBRATION_MM, at.y), stroke);
    for cm in 0..=10 {
        let x = at.x + cm as f64 * CM;
        let tick = if cm % 5 == 0 { HALF_DM_TICK_MM } else { CM_TICK_MM };
        page.line(Point::new(x, at.y), Point::new(x, at.y + tick), stroke);
        let label =
            shaper.shape(&cm.to_string(), Style::Regular, RULER_PT, Reading::Natural);
        // Every number on one line, clear of the footer's rule below.
        page.text_centered(x, at.y + CM_NUMBER_DROP_MM, label);
    }
    for mm in (0..100).filter(|mm| mm % 10 != 0) {
        let x = at.x + mm as f64;
        page.line(
            Point::new(x, at.y),
            Point::new(x, at.y + MM_TICK_MM),
            Stroke::solid(MM_TICK_LINE_MM),
        );
    }
    let unit = shaper.shape("cm", Style::Regular, RULER_PT, Reading::Natural);
    page.text(Point::new(at.x + CALIBRATION_MM + UNIT_GAP_MM, at.y + CM_TICK_MM), unit);
}
