//! A page as SVG: millimetres throughout (`width`/`height` in mm, `viewBox` in mm),
//! every stroke, dash, fill and grey as the PDF draws it, and text as the PDF's own
//! glyphs (outlines defined once, placed with `<use>`), with the text itself beside
//! them, transparent, for search and screen readers.

use std::fmt::Write as _;

use rustc_hash::FxHashSet;

use super::{Segment, glyph_scale, mm, outline, pen_positions};
use crate::page::{Color, Item, Page, Paint, Point, Role, Stroke};
use crate::text::{Shaped, Style};

/// What the SVG says about itself.
pub struct SvgInfo<'a> {
    /// The document's title (`<title>`).
    pub title: &'a str,
    /// The language tag (`xml:lang`).
    pub lang: &'a str,
    /// Every item drawn `(across, down)` times larger about the page's centre, as
    /// the PDF of a printer-corrected build is.
    pub scale: Option<(f64, f64)>,
}

/// The SVG of one page.
pub fn page(page: &Page, info: &SvgInfo) -> String {
    let mut out = String::with_capacity(64 * 1024);
    let (w, h) = (page.width, page.height);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"");
    mm(w, &mut out);
    out.push_str("mm\" height=\"");
    mm(h, &mut out);
    out.push_str("mm\" viewBox=\"0 0 ");
    mm(w, &mut out);
    out.push(' ');
    mm(h, &mut out);
    let _ = write!(out, "\" xml:lang=\"{}\">\n<title>", escape(info.lang));
    out.push_str(&escape(info.title));
    out.push_str("</title>\n");
    glyph_defs(page, &mut out);
    out.push_str("<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n");
    // PDF's default miter limit; SVG's own is 4.
    out.push_str("<g stroke-miterlimit=\"10\"");
    if let Some((sx, sy)) = info.scale {
        out.push_str(" transform=\"matrix(");
        for (i, v) in [sx, 0.0, 0.0, sy, w / 2.0 * (1.0 - sx), h / 2.0 * (1.0 - sy)]
            .into_iter()
            .enumerate()
        {
            if i > 0 {
                out.push(' ');
            }
            let _ = write!(out, "{v}");
        }
        out.push_str(")\"");
    }
    out.push_str(">\n");
    for item in &page.items {
        draw(item, &mut out);
    }
    out.push_str("</g>\n</svg>\n");
    out
}

/// `<path id="r12" …>` for every glyph the page shows, in font units (y up).
fn glyph_defs(page: &Page, out: &mut String) {
    let mut seen = FxHashSet::default();
    let mut defs = String::new();
    for item in &page.items {
        let Item::Text { shaped, .. } = item else { continue };
        for glyph in &shaped.glyphs {
            if !seen.insert((shaped.style, glyph.id)) {
                continue;
            }
            let d = path_data(&outline(shaped.style, glyph.id));
            if !d.is_empty() {
                let _ = writeln!(
                    defs,
                    "<path id=\"{}\" d=\"{d}\"/>",
                    glyph_id(shaped.style, glyph.id)
                );
            }
        }
    }
    if !defs.is_empty() {
        out.push_str("<defs>\n");
        out.push_str(&defs);
        out.push_str("</defs>\n");
    }
}

fn glyph_id(style: Style, id: u16) -> String {
    match style {
        Style::Regular => format!("r{id}"),
        Style::Bold => format!("b{id}"),
    }
}

fn path_data(segments: &[Segment]) -> String {
    let mut d = String::new();
    for segment in segments {
        let _ = match *segment {
            Segment::Move(x, y) => write!(d, "M{x} {y}"),
            Segment::Line(x, y) => write!(d, "L{x} {y}"),
            Segment::Quad(a, b, x, y) => write!(d, "Q{a} {b} {x} {y}"),
            Segment::Cubic(a, b, c, e, x, y) => write!(d, "C{a} {b} {c} {e} {x} {y}"),
            Segment::Close => write!(d, "Z"),
        };
    }
    d
}

fn draw(item: &Item, out: &mut String) {
    match item {
        Item::Line { from, to, stroke } => {
            out.push_str("<line");
            point_attrs(("x1", "y1"), *from, out);
            point_attrs(("x2", "y2"), *to, out);
            stroke_attrs(stroke, out);
            out.push_str("/>\n");
        }
        Item::Rect { origin, width, height, paint } => {
            out.push_str("<rect");
            point_attrs(("x", "y"), *origin, out);
            attr("width", *width, out);
            attr("height", *height, out);
            paint_attrs(paint, out);
            out.push_str("/>\n");
        }
        Item::Circle { center, radius, paint } => {
            out.push_str("<circle");
            point_attrs(("cx", "cy"), *center, out);
            attr("r", *radius, out);
            paint_attrs(paint, out);
            out.push_str("/>\n");
        }
        Item::Polygon { points, paint } => {
            out.push_str("<polygon");
            points_attr(points, out);
            paint_attrs(paint, out);
            out.push_str("/>\n");
        }
        Item::Text { origin, shaped, color } => text(*origin, shaped, *color, out),
        Item::Begin(tag) => match &tag.role {
            Role::Figure { alt } => {
                let _ = writeln!(out, "<g role=\"img\" aria-label=\"{}\">", escape(alt));
            }
            Role::Title | Role::Heading => out.push_str("<g role=\"heading\">\n"),
            Role::Paragraph | Role::ListItem | Role::Cell { .. } => out.push_str("<g>\n"),
        },
        Item::End => out.push_str("</g>\n"),
    }
}

/// The glyphs at the PDF's pen positions, then the text, transparent and stretched
/// over the same width, so that a search or a selection finds it where it is drawn.
fn text(origin: Point, shaped: &Shaped, color: Color, out: &mut String) {
    if shaped.glyphs.is_empty() {
        return;
    }
    out.push_str("<g fill=\"");
    out.push_str(&hex(color));
    out.push_str("\" aria-hidden=\"true\">");
    let scale = glyph_scale(shaped);
    for (id, x) in pen_positions(shaped) {
        if outline(shaped.style, id).is_empty() {
            continue;
        }
        let _ = write!(
            out,
            "<use href=\"#{}\" transform=\"matrix(",
            glyph_id(shaped.style, id)
        );
        let _ = write!(out, "{scale} 0 0 -{scale} ");
        mm(origin.x + x, out);
        out.push(' ');
        mm(origin.y, out);
        out.push_str(")\"/>");
    }
    out.push_str("</g>\n<text");
    point_attrs(("x", "y"), origin, out);
    attr("font-size", shaped.size_pt * super::MM_PER_PT, out);
    attr("textLength", shaped.width_mm().max(0.001), out);
    out.push_str(" lengthAdjust=\"spacingAndGlyphs\" font-family=\"DejaVu Sans\"");
    if shaped.style == Style::Bold {
        out.push_str(" font-weight=\"bold\"");
    }
    if shaped.has_rtl {
        // The glyphs are in visual order; the text stays in reading order.
        out.push_str(" direction=\"rtl\" unicode-bidi=\"plaintext\"");
    }
    out.push_str(" fill-opacity=\"0\">");
    out.push_str(&escape(&shaped.text));
    out.push_str("</text>\n");
}

/// ` points="x,y x,y …"`, in millimetres.
pub fn points_attr(points: &[Point], out: &mut String) {
    out.push_str(" points=\"");
    for (i, p) in points.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        mm(p.x, out);
        out.push(',');
        mm(p.y, out);
    }
    out.push('"');
}

fn attr(name: &str, value: f64, out: &mut String) {
    let _ = write!(out, " {name}=\"");
    mm(value, out);
    out.push('"');
}

fn point_attrs(names: (&str, &str), p: Point, out: &mut String) {
    attr(names.0, p.x, out);
    attr(names.1, p.y, out);
}

fn paint_attrs(paint: &Paint, out: &mut String) {
    match paint.fill {
        Some(fill) => {
            out.push_str(" fill=\"");
            out.push_str(&hex(fill));
            out.push('"');
        }
        None => out.push_str(" fill=\"none\""),
    }
    if let Some(stroke) = &paint.stroke {
        stroke_attrs(stroke, out);
    }
}

/// A stroke as the PDF writer sets it (`pdf.rs` `set_stroke`): square ends on heavy
/// solid lines, flat ends on thin lines and dashes.
fn stroke_attrs(stroke: &Stroke, out: &mut String) {
    out.push_str(" stroke=\"");
    out.push_str(&hex(stroke.color));
    out.push('"');
    attr("stroke-width", stroke.width, out);
    if let Some((on, off)) = stroke.dash {
        out.push_str(" stroke-dasharray=\"");
        mm(on, out);
        out.push(' ');
        mm(off, out);
        out.push('"');
    }
    if stroke.dash.is_none() && stroke.width >= 1.0 {
        out.push_str(" stroke-linecap=\"square\"");
    }
}

/// A colour as `#rrggbb`.
pub fn hex(c: Color) -> String {
    let byte = |v: f64| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    format!("#{:02x}{:02x}{:02x}", byte(c.0), byte(c.1), byte(c.2))
}

/// Text made safe for XML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            // Control characters XML 1.0 does not allow.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {}
            c => out.push(c),
        }
    }
    out
}
