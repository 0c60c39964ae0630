//! Pictures of the pages the PDF prints, drawn from the same page model: SVG
//! ([`svg`]), PNG ([`raster`]) and the cutting-machine file ([`cut`]). Text is drawn
//! as the very glyphs the PDF shows, at the same pen positions.

pub mod cut;
pub mod raster;
pub mod svg;
pub mod thumbnail;

use std::fmt::Write as _;
use std::rc::Rc;

use rustybuzz::ttf_parser::OutlineBuilder;

use crate::page::{Page, Point, Stroke};
use crate::text::{Shaped, Style};

const MM_PER_PT: f64 = 25.4 / 72.0;

/// A picture format for previews.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One SVG per page.
    Svg,
    /// One PNG per page.
    Png,
}

impl Format {
    /// The format named `name`.
    pub fn parse(name: &str) -> Option<Format> {
        match name {
            "svg" => Some(Format::Svg),
            "png" => Some(Format::Png),
            _ => None,
        }
    }
}

/// The resolution of a PNG preview unless asked otherwise.
pub const DEFAULT_DPI: u32 = 96;

/// What a build writes besides its PDFs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Previews {
    /// Pictures of every page, into the variant's `preview/` folder.
    pub format: Option<Format>,
    /// The resolution of PNG pictures.
    pub dpi: u32,
    /// A cutting-machine file for every sheet with cut lines.
    pub cut_file: bool,
    /// Registration marks on the printed sheets that have cut lines.
    pub cut_marks: bool,
}

/// One segment of a glyph outline, in font units with y up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Segment {
    /// Starts a contour.
    Move(f32, f32),
    /// A straight edge.
    Line(f32, f32),
    /// A quadratic curve: control point, end point.
    Quad(f32, f32, f32, f32),
    /// A cubic curve: two control points, end point.
    Cubic(f32, f32, f32, f32, f32, f32),
    /// Closes the contour.
    Close,
}

#[derive(Default)]
struct Collect(Vec<Segment>);

impl OutlineBuilder for Collect {
    fn move_to(&mut self, x: f32, y: f32) {
        self.0.push(Segment::Move(x, y));
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.0.push(Segment::Line(x, y));
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        self.0.push(Segment::Quad(x1, y1, x, y));
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        self.0.push(Segment::Cubic(x1, y1, x2, y2, x, y));
    }
    fn close(&mut self) {
        self.0.push(Segment::Close);
    }
}

/// The outline of glyph `id` of `style`, traced each time it is asked for: keeping
/// them saved no measurable time (PNG previews keep the glyphs' pixels instead; the
/// default build with SVG previews took 0.21-0.22 s of CPU either way).
pub fn outline(style: Style, id: u16) -> Rc<[Segment]> {
    let mut collect = Collect::default();
    style.outline(id, &mut collect);
    collect.0.into()
}

/// Each glyph of a run with its pen position: the x of its origin in millimetres
/// from the run's start, where the PDF puts it. A PDF viewer advances each glyph by
/// the width the font dictionary declares (printpdf truncates it to thousandths of
/// an em) less the `TJ` adjustment written after it (`pdf.rs`: the shaper's advance
/// where it differs from the font's), so the pictures follow the same sums.
pub fn pen_positions(shaped: &Shaped) -> impl Iterator<Item = (u16, f64)> + '_ {
    let upem = shaped.units_per_em as f32;
    let per_thousandth = shaped.size_pt * MM_PER_PT / 1000.0;
    let mut pen = 0.0f64;
    shaped.glyphs.iter().map(move |g| {
        let at = pen;
        let font_advance = shaped.style.advance(g.id) as f32;
        let declared = (font_advance * 1000.0 / upem) as i64 as f64;
        let adjust = (font_advance - g.advance as f32) * 1000.0 / upem;
        pen += (declared - f64::from(adjust)) * per_thousandth;
        (g.id, at)
    })
}

/// Millimetres per font unit for a run.
pub fn glyph_scale(shaped: &Shaped) -> f64 {
    shaped.size_pt * MM_PER_PT / f64::from(shaped.units_per_em)
}

/// A length in millimetres as SVG writes it: at most three decimals (a micrometre),
/// no trailing zeros, never `-0`.
pub fn mm(value: f64, out: &mut String) {
    let rounded = (value * 1000.0).round() / 1000.0;
    let rounded = if rounded == 0.0 { 0.0 } else { rounded };
    let start = out.len();
    let _ = write!(out, "{rounded:.3}");
    while out.ends_with('0') {
        out.pop();
    }
    if out.ends_with('.') {
        out.pop();
    }
    debug_assert!(out.len() > start);
}

/// The side of the square registration mark and the length of the two bars, as
/// print-then-cut software (Silhouette Studio's type 1 marks) expects them.
pub const MARK_MM: f64 = 5.0;
/// Length of each arm of the two corner bars.
pub const BAR_MM: f64 = 20.0;
/// Thickness of the bars.
pub const BAR_WIDTH_MM: f64 = 0.5;
/// How far the marks sit from the paper's edges: inside every printer's printable
/// area, and in the margin the sheets leave free.
pub const MARK_INSET_MM: f64 = crate::layout::SAFE_MARGIN_MM;

/// The registration marks of a `width` × `height` page: a filled square in the
/// top-left corner, and an L-shaped bar in the top-right and bottom-left corners,
/// each as a closed outline (x, y in millimetres from the top-left corner).
pub fn registration_marks(width: f64, height: f64) -> Vec<Vec<Point>> {
    let i = MARK_INSET_MM;
    let (b, t) = (BAR_MM, BAR_WIDTH_MM);
    let square = vec![
        Point::new(i, i),
        Point::new(i + MARK_MM, i),
        Point::new(i + MARK_MM, i + MARK_MM),
        Point::new(i, i + MARK_MM),
    ];
    let (r, bottom) = (width - i, height - i);
    let top_right = vec![
        Point::new(r - b, i),
        Point::new(r, i),
        Point::new(r, i + b),
        Point::new(r - t, i + b),
        Point::new(r - t, i + t),
        Point::new(r - b, i + t),
    ];
    let bottom_left = vec![
        Point::new(i, bottom - b),
        Point::new(i + t, bottom - b),
        Point::new(i + t, bottom - t),
        Point::new(i + b, bottom - t),
        Point::new(i + b, bottom),
        Point::new(i, bottom),
    ];
    vec![square, top_right, bottom_left]
}

/// Whether a page has anything to cut along.
pub fn has_cut_lines(page: &Page) -> bool {
    page.items.iter().any(|item| cut::cut_shape(item).is_some())
}

/// The cuts a page asks for: each straight cut once however many lines draw it
/// (lines along one row or column that touch or overlap are one cut, as a ruler and
/// knife make it), and each other outline (a round piece, a shaped part) as one.
pub fn cut_count(page: &Page) -> usize {
    use cut::CutShape;
    // Straight pieces by the line they lie on: (horizontal?, position) → spans.
    let mut lines: std::collections::BTreeMap<(bool, i64), Vec<(f64, f64)>> =
        Default::default();
    let mut put = |from: Point, to: Point| -> bool {
        let key = |v: f64| (v * 1000.0).round() as i64;
        if (from.y - to.y).abs() < 1e-6 {
            lines
                .entry((true, key(from.y)))
                .or_default()
                .push((from.x.min(to.x), from.x.max(to.x)));
        } else if (from.x - to.x).abs() < 1e-6 {
            lines
                .entry((false, key(from.x)))
                .or_default()
                .push((from.y.min(to.y), from.y.max(to.y)));
        } else {
            return false;
        }
        true
    };
    let mut others = 0;
    for shape in page.items.iter().filter_map(cut::cut_shape) {
        match shape {
            CutShape::Line(from, to) if put(from, to) => {}
            CutShape::Rect(o, w, h) => {
                let corners = [
                    o,
                    Point::new(o.x + w, o.y),
                    Point::new(o.x + w, o.y + h),
                    Point::new(o.x, o.y + h),
                ];
                for i in 0..4 {
                    put(corners[i], corners[(i + 1) % 4]);
                }
            }
            _ => others += 1,
        }
    }
    let merged: usize = lines
        .into_values()
        .map(|mut spans| {
            spans.sort_by(|a, b| a.0.total_cmp(&b.0));
            let mut cuts = 0;
            let mut end = f64::NEG_INFINITY;
            for (start, stop) in spans {
                if start > end + 1e-6 {
                    cuts += 1;
                }
                end = end.max(stop);
            }
            cuts
        })
        .sum();
    merged + others
}

/// Adds the registration marks to a page, as decoration (outside any tagged run).
pub fn add_registration_marks(page: &mut Page) {
    for mark in registration_marks(page.width, page.height) {
        page.polygon(mark, crate::page::Paint::fill(crate::page::Color::BLACK));
    }
}

/// Whether a stroke is the house cut line.
pub fn is_cut(stroke: &Option<Stroke>) -> bool {
    *stroke == Some(Stroke::CUT)
}
