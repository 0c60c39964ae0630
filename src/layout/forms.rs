//! The figures every game shares: forms to fill in by hand (`@end-box`,
//! `@write-in`, `@answer-lines`).

use super::flow::Chunk;
use super::{BODY_PT, FigureContext, FigureError, MAX_TEXT_MM};
use crate::page::{Page, Paint, Point, Role, Stroke, Tag};
use crate::text::Style;

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

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::collections::BTreeSet;

    use super::*;
    use crate::kit::{Kit, Source};
    use crate::layout::cut::CutLayout;
    use crate::layout::figure::Audience;
    use crate::text::Reading;

    /// The smallest kit a figure can be drawn for.
    fn kit() -> Kit {
        let kit = "id = \"form-test\"\ngame = \"three-men-slide\"\nsheets = [\"board\"]\n\
                   date = 2026-12-02\n\
                   [board]\nspacing-mm = 50.0\npoint-diameter-mm = 9.0\n\
                   [pieces]\nsize-mm = 30.0\nspares = 1\n";
        let files = [("kit.toml", kit), ("lang/en.toml", "[common]\n")];
        let source = Source {
            dir: "kits/form-test".into(),
            files: files.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect(),
            unreadable: Vec::new(),
        };
        crate::pipeline::load(&source).expect("the kit loads")
    }

    /// Draws `@write-in` with `strings` on an A4-wide sheet.
    fn write_in_with(strings: &str, keys: &[&str]) -> Result<Vec<Chunk>, FigureError> {
        let (kit, read) = (kit(), RefCell::new(BTreeSet::new()));
        let shaper = crate::text::Shaper::new();
        let strings: toml::Table = toml::from_str(strings).unwrap();
        let cx = FigureContext {
            kit: &kit,
            strings: &strings,
            width: 180.0,
            measure: 145.0,
            size: 3,
            reading: Reading::Natural,
            audience: Audience::Players,
            cut: CutLayout::Grid,
            text_scale: 1.0,
            min_pt: 0.0,
            read: &read,
            shaper: &shaper,
        };
        let keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
        write_in(&keys, &cx)
    }

    #[test]
    fn a_label_too_long_for_its_line_is_blamed_on_its_strings_key() {
        let long = "date of the game, written out in full with the weekday ".repeat(3);
        let strings = format!("[ledger]\nplayers = \"Players\"\ndate = \"{long}\"\n");
        let error =
            write_in_with(&strings, &["ledger.players", "ledger.date"]).unwrap_err();
        assert_eq!(error.key(), Some("ledger.date"), "{error}");
        assert!(error.message().starts_with("the text of `ledger.date` does not fit"));
    }

    #[test]
    fn a_missing_string_is_the_template_s_problem_and_names_no_key() {
        let error = write_in_with("[ledger]\n", &["ledger.date"]).unwrap_err();
        assert_eq!(error.key(), None);
        assert_eq!(error.to_string(), "no string `ledger.date` in the kit's strings");
        assert!(write_in_with("[ledger]\ndate = \"Date\"\n", &["ledger.date"]).is_ok());
    }
}
