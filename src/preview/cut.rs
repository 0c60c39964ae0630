//! The cutting-machine file of a sheet's page: an SVG at the page's exact size with
//! only what a blade follows, in two named layers: `cut` (every outline the sheet
//! draws in the house cut line) and `registration` (the marks a print-then-cut
//! machine's sensor finds on the printed sheet, which `--cut-marks` prints).

use std::fmt::Write as _;

use super::{is_cut, mm, registration_marks};
use crate::page::{Item, Page, Point};

/// One path to cut, in millimetres from the page's top-left corner.
#[derive(Clone, Debug, PartialEq)]
pub enum CutShape {
    /// A straight cut (a trim across a board part).
    Line(Point, Point),
    /// A rectangle: top-left corner, width, height.
    Rect(Point, f64, f64),
    /// A round piece: centre, radius.
    Circle(Point, f64),
    /// A closed outline.
    Polygon(Vec<Point>),
}

/// The cut path an item draws, if it is drawn as a cut line.
pub fn cut_shape(item: &Item) -> Option<CutShape> {
    match item {
        Item::Line { from, to, stroke } if is_cut(&Some(*stroke)) => {
            Some(CutShape::Line(*from, *to))
        }
        Item::Rect { origin, width, height, paint } if is_cut(&paint.stroke) => {
            Some(CutShape::Rect(*origin, *width, *height))
        }
        Item::Circle { center, radius, paint } if is_cut(&paint.stroke) => {
            Some(CutShape::Circle(*center, *radius))
        }
        Item::Polygon { points, paint } if is_cut(&paint.stroke) => {
            Some(CutShape::Polygon(points.clone()))
        }
        _ => None,
    }
}

/// The cut file of a page (`None` when nothing on it is cut), drawn `scale` times
/// larger about the centre for a printer-corrected build, as the printed page is.
pub fn page(page: &Page, scale: Option<(f64, f64)>) -> Option<String> {
    let cuts: Vec<CutShape> = page.items.iter().filter_map(cut_shape).collect();
    if cuts.is_empty() {
        return None;
    }
    let (w, h) = (page.width, page.height);
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" \
         xmlns:inkscape=\"http://www.inkscape.org/namespaces/inkscape\" width=\"",
    );
    mm(w, &mut out);
    out.push_str("mm\" height=\"");
    mm(h, &mut out);
    out.push_str("mm\" viewBox=\"0 0 ");
    mm(w, &mut out);
    out.push(' ');
    mm(h, &mut out);
    out.push_str("\">\n");
    let transform = scale.map(|(sx, sy)| {
        format!(
            " transform=\"matrix({sx} 0 0 {sy} {} {})\"",
            w / 2.0 * (1.0 - sx),
            h / 2.0 * (1.0 - sy)
        )
    });
    let transform = transform.unwrap_or_default();
    out.push_str(&format!(
        "<g id=\"registration\" inkscape:groupmode=\"layer\" inkscape:label=\"registration\" fill=\"#000\"{transform}>\n"
    ));
    for mark in registration_marks(w, h) {
        polygon(&mark, &mut out);
    }
    out.push_str("</g>\n");
    out.push_str(&format!(
        "<g id=\"cut\" inkscape:groupmode=\"layer\" inkscape:label=\"cut\" fill=\"none\" stroke=\"#f00\" stroke-width=\"0.1\"{transform}>\n"
    ));
    for cut in &cuts {
        shape(cut, &mut out);
    }
    out.push_str("</g>\n</svg>\n");
    Some(out)
}

fn shape(cut: &CutShape, out: &mut String) {
    let pair = |name: (&str, &str), p: &Point, out: &mut String| {
        let _ = write!(out, " {}=\"", name.0);
        mm(p.x, out);
        let _ = write!(out, "\" {}=\"", name.1);
        mm(p.y, out);
        out.push('"');
    };
    match cut {
        CutShape::Line(from, to) => {
            out.push_str("<line");
            pair(("x1", "y1"), from, out);
            pair(("x2", "y2"), to, out);
            out.push_str("/>\n");
        }
        CutShape::Rect(origin, width, height) => {
            out.push_str("<rect");
            pair(("x", "y"), origin, out);
            out.push_str(" width=\"");
            mm(*width, out);
            out.push_str("\" height=\"");
            mm(*height, out);
            out.push_str("\"/>\n");
        }
        CutShape::Circle(center, radius) => {
            out.push_str("<circle");
            pair(("cx", "cy"), center, out);
            out.push_str(" r=\"");
            mm(*radius, out);
            out.push_str("\"/>\n");
        }
        CutShape::Polygon(points) => polygon(points, out),
    }
}

fn polygon(points: &[Point], out: &mut String) {
    out.push_str("<polygon");
    super::svg::points_attr(points, out);
    out.push_str("/>\n");
}
