//! The page's form, as the browser sends it: checked and turned into the pipeline's
//! [`Options`] under the same rules as the command line's options.

use serde::Deserialize;

use crate::calibrate::{Calibration, Profiles};
use crate::kit::{Kit, PuzzleSpec};
use crate::layout::Paper;
use crate::layout::cut::CutLayout;
use crate::pipeline::class::Class;
use crate::pipeline::{self, Options};
use crate::preview::{Format, Previews};

/// What the form asks for. Every field but `kit` and `lang` may be left out for the
/// build's default.
#[derive(Debug, Deserialize, Hash, PartialEq, Eq, Clone)]
#[serde(deny_unknown_fields)]
pub struct Form {
    /// A kit id from the catalog, or `upload:<token>` for an uploaded kit.
    pub kit: String,
    /// Language code.
    pub lang: String,
    /// `a4`, `letter`, `a3`, `legal`, or `custom` with `width` and `height`.
    #[serde(default = "a4")]
    pub paper: String,
    /// Custom paper width and height in millimetres, as typed.
    #[serde(default)]
    pub width: Option<String>,
    #[serde(default)]
    #[allow(missing_docs)]
    pub height: Option<String>,
    /// Landscape.
    #[serde(default)]
    pub landscape: bool,
    /// Board size.
    #[serde(default)]
    pub size: Option<u8>,
    /// A preset's name or millimetres.
    #[serde(default)]
    pub cell: Option<String>,
    /// A kept printer's name.
    #[serde(default)]
    pub printer: Option<String>,
    /// The calibration bar as measured, across and down, in mm.
    #[serde(default)]
    pub across: Option<String>,
    #[serde(default)]
    #[allow(missing_docs)]
    pub down: Option<String>,
    /// Puzzles: `None` for the kit's own, 0 for none.
    #[serde(default)]
    pub puzzles: Option<i64>,
    /// Plies to the win (1, 3 or 5).
    #[serde(default)]
    pub plies: Option<i64>,
    /// Players in the class: copies, totals and the print job for them.
    #[serde(default)]
    pub players: Option<u32>,
    /// Tables the class sits at.
    #[serde(default)]
    pub tables: Option<u32>,
    /// `grid` (the default) or `outline`.
    #[serde(default)]
    pub cut: Option<String>,
    /// Present (any value) for large print.
    #[serde(default)]
    pub large_print: Option<String>,
}

fn a4() -> String {
    "a4".to_string()
}

/// A form checked against its kit: what to build, and the name its files carry.
pub struct Checked {
    /// The kit, with the form's puzzle sheet.
    pub kit: Kit,
    /// The pipeline's options.
    pub options: Options,
    /// `crossway-en-a4-9x9`: kit, language, paper and size, for file names.
    pub name: String,
}

/// Checks a form; the error names the field in the page's terms.
pub fn check(form: &Form, kit: &Kit, printers: &Profiles) -> Result<Checked, String> {
    // The language names the files, so it must be one the kit has.
    kit.language(&form.lang).map_err(|e| format!("language: kit `{}`: {e}", kit.id))?;
    let paper = paper(form)?;
    let calibration = calibration(form, printers)?;
    if let Some(calibration) = &calibration {
        calibration.printable(&paper).map_err(|e| format!("printer correction: {e}"))?;
    }
    let puzzles = puzzles(form)?;
    let kit = match &puzzles {
        None => kit.clone(),
        Some(spec) => kit.with_puzzle_sheet(spec.clone()),
    };
    let cell = form.cell.as_deref().map(decimal).filter(|c| !c.is_empty());
    let size = form.size.unwrap_or(kit.board.default_size);
    let options = Options {
        lang: form.lang.clone(),
        paper,
        size: form.size,
        cell,
        templates: pipeline::templates_for(&kit, &Default::default()),
        calibration,
        previews: Previews { format: Some(Format::Svg), ..Previews::default() },
        class: Class::new(form.players, form.tables)
            .map_err(|e| format!("class: {e}"))?,
        cut: match form.cut.as_deref() {
            None | Some("grid") => CutLayout::Grid,
            Some("outline") => CutLayout::Outline,
            Some(other) => return Err(format!("cut: `{other}` is not grid or outline")),
        },
        large_print: form.large_print.is_some(),
    };
    let suffix = pipeline::edition_suffix(&kit, &options, puzzles.as_ref());
    let name = format!(
        "{}-{}-{}-{size}x{size}{suffix}",
        kit.id,
        form.lang,
        options.paper.name()
    );
    Ok(Checked { kit, options, name })
}

/// The paper: a named one, or `custom` with a width and height.
fn paper(form: &Form) -> Result<Paper, String> {
    match form.paper.as_str() {
        "custom" => {
            let (w, h) = (field(&form.width, "width")?, field(&form.height, "height")?);
            Paper::parse(&format!("{w}x{h}mm"), form.landscape)
        }
        named => Paper::parse(named, form.landscape),
    }
    .map_err(|e| format!("paper: {e}"))
}

/// The printer correction: a kept printer, both measurements, or none.
fn calibration(form: &Form, printers: &Profiles) -> Result<Option<Calibration>, String> {
    match (&form.printer, &form.across, &form.down) {
        (Some(name), None, None) => Ok(Some(*printers.0.get(name).ok_or_else(|| {
            format!("printer: no printer `{name}` is kept on this computer")
        })?)),
        (None, Some(across), Some(down)) => {
            let text = format!("{}x{}", decimal(across), decimal(down));
            Ok(Some(
                Calibration::parse(&text)
                    .map_err(|e| format!("printer correction: {e}"))?,
            ))
        }
        (None, None, None) => Ok(None),
        _ => Err("printer correction: give a kept printer, or both measurements".into()),
    }
}

/// The puzzle sheet, as for the command line: `None` for the kit's own, `Some(None)`
/// for none at all.
fn puzzles(form: &Form) -> Result<Option<Option<PuzzleSpec>>, String> {
    match form.puzzles {
        None => Ok(None),
        Some(0) => Ok(Some(None)),
        Some(count) => {
            let plies = form.plies.unwrap_or(3);
            let spec = PuzzleSpec::new(count, plies, 1, 0..0)
                .map_err(|e| format!("puzzles: {e}"))?;
            Ok(Some(Some(spec)))
        }
    }
}

/// A required number field, as typed.
fn field(value: &Option<String>, name: &str) -> Result<String, String> {
    match value.as_deref().map(str::trim) {
        Some(v) if !v.is_empty() => Ok(decimal(v)),
        _ => Err(format!("paper: the {name} of the paper is missing")),
    }
}

/// A number as typed, with a decimal comma read as a point (23,7 → 23.7).
fn decimal(text: &str) -> String {
    text.trim().replace(',', ".")
}
