//! Paper: the named sizes and any `WxHmm`, portrait or landscape.

use std::fmt;

/// A sheet of paper: a named size (`a4`, `letter`, `a5`, `tabloid` …), turned to
/// landscape or not, or any `WxHmm` or `WxHin`.
#[derive(Clone, Debug, PartialEq)]
pub struct Paper {
    name: String,
    width: f64,
    height: f64,
    imperial: bool,
    /// The whole sheet when sheets are laid out on a smaller area centred on it.
    sheet: Option<(f64, f64)>,
}

/// The named sizes: name, width and height in mm (portrait), measured in inches,
/// and the name a sheet prints.
const NAMED_PAPERS: [(&str, f64, f64, bool, &str); 6] = [
    ("a4", 210.0, 297.0, false, "A4"),
    ("letter", 8.5 * 25.4, 11.0 * 25.4, true, "Letter"),
    ("a3", 297.0, 420.0, false, "A3"),
    ("legal", 8.5 * 25.4, 14.0 * 25.4, true, "Legal"),
    ("a5", 148.0, 210.0, false, "A5"),
    ("tabloid", 11.0 * 25.4, 17.0 * 25.4, true, "Tabloid"),
];

/// A paper as a sheet names it (see [`Paper::shown`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Shown {
    /// A named size, by the name it is sold under.
    Named(&'static str),
    /// A custom size: its sides as given (`300`, `400`), in inches or millimetres.
    Custom {
        /// Width and height as written in `--paper`.
        sides: (String, String),
        /// Measured in inches.
        inches: bool,
    },
}

/// How long a unit a custom size may be written in is, in mm.
const UNITS: [(&str, f64); 2] = [("mm", 1.0), ("in", 25.4)];

/// The largest side a PDF page may have (200 inches, the PDF page-size limit).
pub const MAX_PAPER_MM: f64 = 5080.0;

/// The smallest paper every built-in kit builds on: room for a footer, the
/// widest ledger and a column of rules.
pub const MIN_PAPER_MM: (f64, f64) = (140.0, 150.0);

impl Paper {
    /// The names `--paper` accepts, for listings and messages.
    pub fn names() -> Vec<&'static str> {
        NAMED_PAPERS.iter().map(|p| p.0).collect()
    }

    /// ISO A4, 210 × 297 mm.
    pub fn a4() -> Paper {
        Paper::parse("a4", false).expect("a4 is a known paper")
    }

    /// A paper from its name, `WxHmm` (`300x400mm`) or `WxHin` (`8.5x11in`), turned to
    /// landscape if asked.
    pub fn parse(text: &str, landscape: bool) -> Result<Paper, String> {
        let lower = text.trim().to_ascii_lowercase();
        let (name, width, height, imperial) = if let Some(named) =
            NAMED_PAPERS.iter().find(|p| p.0 == lower)
        {
            (named.0.to_string(), named.1, named.2, named.3)
        } else if let Some((unit, per_unit)) =
            UNITS.iter().find(|(unit, _)| lower.ends_with(unit))
        {
            custom(text, &lower, unit, *per_unit)?
        } else {
            return Err(format!(
                "unknown paper `{text}`: expected one of {} or a size like 300x400mm or \
                     8.5x11in",
                Paper::names().join(", ")
            ));
        };
        let (width, height, name) = match landscape {
            true => (width.max(height), width.min(height), format!("{name}-landscape")),
            false => (width, height, name),
        };
        Ok(Paper { name, width, height, imperial, sheet: None })
    }

    /// Width and height in millimetres of the area sheets are laid out on: the
    /// whole sheet unless [`Paper::within`] made it smaller.
    pub fn size_mm(&self) -> (f64, f64) {
        (self.width, self.height)
    }

    /// Width and height in millimetres of the sheet itself.
    pub fn sheet_mm(&self) -> (f64, f64) {
        self.sheet.unwrap_or((self.width, self.height))
    }

    /// This paper, with sheets laid out on a `width` × `height` mm area centred on
    /// it (a printer correction enlarges that area to the sheet's margins). Its
    /// name and its pages' size stay the sheet's.
    pub fn within(&self, width: f64, height: f64) -> Paper {
        Paper { width, height, sheet: Some(self.sheet_mm()), ..self.clone() }
    }

    /// The name used in folder names (`a4`, `letter-landscape`, `300x400mm`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// How a sheet names the paper: a named size by its own name (`A4`, `Letter`,
    /// the same in every language), a custom one by its sides as given, and whether
    /// it is turned to landscape.
    pub fn shown(&self) -> (Shown, bool) {
        let (base, landscape) = match self.name.strip_suffix("-landscape") {
            Some(base) => (base, true),
            None => (self.name.as_str(), false),
        };
        if let Some(named) = NAMED_PAPERS.iter().find(|p| p.0 == base) {
            return (Shown::Named(named.4), landscape);
        }
        let (dims, inches) = match base.strip_suffix("in") {
            Some(dims) => (dims, true),
            None => (base.strip_suffix("mm").unwrap_or(base), false),
        };
        let (width, height) = dims.split_once('x').unwrap_or((dims, ""));
        let sides = (width.to_string(), height.to_string());
        (Shown::Custom { sides, inches }, landscape)
    }

    /// Measured in inches (US papers): pages add an inch scale to the 100 mm bar.
    pub fn imperial(&self) -> bool {
        self.imperial
    }
}

/// A custom size, `WxH` in `unit` (`per_unit` mm each): its name, width and height in
/// mm, and whether it is measured in inches.
fn custom(
    text: &str,
    lower: &str,
    unit: &str,
    per_unit: f64,
) -> Result<(String, f64, f64, bool), String> {
    let dims = lower.strip_suffix(unit).unwrap_or(lower);
    let number =
        |v: &str| v.trim().parse::<f64>().ok().filter(|n| n.is_finite() && *n > 0.0);
    let Some((Some(w), Some(h))) =
        dims.split_once(['x', '×']).map(|(w, h)| (number(w), number(h)))
    else {
        return Err(format!("`{text}` is not a paper size like 300x400mm or 8.5x11in"));
    };
    let (w_mm, h_mm) = (w * per_unit, h * per_unit);
    if w_mm.max(h_mm) > MAX_PAPER_MM {
        return Err(format!(
            "a {} × {} {unit} sheet is larger than a PDF page may be: at most \
             {MAX_PAPER_MM} mm a side (200 in)",
            trim(w),
            trim(h)
        ));
    }
    if w_mm < MIN_PAPER_MM.0 || h_mm < MIN_PAPER_MM.0 || w_mm.max(h_mm) < MIN_PAPER_MM.1 {
        return Err(format!(
            "a {} × {} {unit} sheet is too small to print on: at least {} × {} mm",
            trim(w),
            trim(h),
            MIN_PAPER_MM.0,
            MIN_PAPER_MM.1
        ));
    }
    Ok((format!("{}x{}{unit}", trim(w), trim(h)), w_mm, h_mm, unit == "in"))
}

/// A length without a needless `.0`.
fn trim(value: f64) -> String {
    if value.fract() == 0.0 { format!("{value:.0}") } else { format!("{value}") }
}

impl fmt::Display for Paper {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}
