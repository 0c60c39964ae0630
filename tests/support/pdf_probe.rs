//! An independent PDF reader for integration tests.
//!
//! It parses a finished PDF with `lopdf` (not with the library that wrote it),
//! interprets each page's content stream and reports what is drawn in
//! millimetres, measured from the TOP-LEFT corner of the page (x right, y down).
//!
//! Interpreted: `q Q cm`, `w d gs` (ExtGState /LW and /D), the path operators
//! `m l c v y h re`, the painting operators `S s f F f* B B* b b* n`, the text
//! operators `BT ET Tf Tc Tw Tz TL Ts Td TD Tm T* Tj TJ ' "`, and `Do` of Form
//! XObjects (under their /Matrix). Images, shadings, clipping and /Rotate are
//! ignored. Type0 fonts are read as 2-byte codes (Identity-H), simple fonts as
//! 1-byte codes. After each glyph the text position advances by the font's
//! /W or /Widths (0 where the font gives none, e.g. an unembedded standard
//! font), so consecutive runs without repositioning get their own origins.
#![allow(dead_code)]

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use lopdf::content::{Content, Operation};
use lopdf::{Dictionary, Document, Object};

/// Millimetres per PDF point.
const MM_PER_PT: f64 = 25.4 / 72.0;
/// Slack for the margin check, in millimetres: PDF numbers are often rounded
/// (lopdf reads reals as f32), so a mark exactly on the margin must pass.
const EPS_MM: f64 = 1e-3;
/// Runs whose baselines differ by at most this much (mm) are on one line.
const LINE_TOLERANCE_MM: f64 = 0.5;
/// A TJ adjustment below this (thousandths of an em) reads as a word gap.
const WORD_GAP: f64 = -200.0;
/// The cap height, in ems, of a font whose descriptor gives none.
const DEFAULT_CAP_HEIGHT: f64 = 0.7;
/// How deep Form XObjects and the page tree are followed.
const MAX_DEPTH: usize = 32;
/// The most codes one `bfrange` or `/W` range may expand to.
const MAX_RANGE: u32 = 0x1_0000;

// ---------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------

/// Everything the probe read from one PDF document.
#[derive(Debug, Clone)]
pub struct Probe {
    /// The pages, in document order.
    pub pages: Vec<PageProbe>,
    /// Every font in the pages' resources (and their Form XObjects'), once each.
    pub fonts: Vec<FontInfo>,
    /// The catalog's `/ViewerPreferences /PrintScaling` name, e.g. `"None"`.
    pub catalog_print_scaling: Option<String>,
    /// The header version, e.g. `"1.7"`.
    pub version: String,
}

/// What is drawn on one page, in millimetres from the top-left corner.
#[derive(Debug, Clone, Default)]
pub struct PageProbe {
    /// Page width from the MediaBox.
    pub width_mm: f64,
    /// Page height from the MediaBox.
    pub height_mm: f64,
    /// Every straight stroked line piece (`l`, closing `h`, and stroked `re` sides).
    pub segments: Vec<Segment>,
    /// Every painted `re` rectangle (its bounding box after the CTM).
    pub rects: Vec<RectMm>,
    /// Every painted path containing bezier pieces, as a bounding box.
    pub curves: Vec<CurveMm>,
    /// Every painted path of straight pieces other than `re` (a polygon, an arrow's
    /// head), as a bounding box.
    pub polygons: Vec<CurveMm>,
    /// Every text-showing operation, at its origin.
    pub texts: Vec<TextRun>,
    /// Every glyph drawn, in drawing order: what the page shows, before any
    /// ActualText or reordering stands in for it.
    pub glyphs: Vec<GlyphMark>,
}

/// A straight stroked line piece.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    /// Start x (mm from the left edge).
    pub x1: f64,
    /// Start y (mm from the top edge).
    pub y1: f64,
    /// End x (mm from the left edge).
    pub x2: f64,
    /// End y (mm from the top edge).
    pub y2: f64,
    /// Stroke thickness across the segment, in mm, after the CTM.
    pub width_mm: f64,
    /// Whether a non-empty dash array was in effect.
    pub dashed: bool,
    /// The stroking grey (`G`), 0 black to 1 white.
    pub gray: f64,
}

/// A rectangle drawn with `re` (top-left corner, width and height, in mm).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RectMm {
    /// Left edge (mm from the page's left edge).
    pub x: f64,
    /// Top edge (mm from the page's top edge).
    pub y: f64,
    /// Width in mm.
    pub w: f64,
    /// Height in mm.
    pub h: f64,
    /// Painted with a fill operator.
    pub filled: bool,
    /// Painted with a stroke operator.
    pub stroked: bool,
    /// The filling grey (`g`) it was painted with, 0 black to 1 white.
    pub fill_gray: f64,
}

/// The bounding box of a path with bezier pieces (on-curve and control points).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CurveMm {
    /// Left of the box (mm).
    pub min_x: f64,
    /// Top of the box (mm).
    pub min_y: f64,
    /// Right of the box (mm).
    pub max_x: f64,
    /// Bottom of the box (mm).
    pub max_y: f64,
    /// Painted with a fill operator.
    pub filled: bool,
    /// Painted with a stroke operator.
    pub stroked: bool,
}

/// The text shown by one `Tj`, `TJ`, `'` or `"` operation.
#[derive(Debug, Clone, PartialEq)]
pub struct TextRun {
    /// Decoded text (ToUnicode, else Latin-1); TJ word gaps become a space.
    pub text: String,
    /// Origin x (start of the baseline), mm from the left edge.
    pub x: f64,
    /// Where the text position ended after the run's last glyph, mm from the left
    /// edge: with `x`, the run's extent along its baseline.
    pub x_end: f64,
    /// Origin y (the baseline), mm from the top edge.
    pub y: f64,
    /// Effective size in points: the `Tf` size scaled by the text matrix and CTM.
    pub size_pt: f64,
    /// The font's `/BaseFont` name.
    pub font: String,
    /// Drawn inside an `/Artifact` marked-content sequence: decoration a screen
    /// reader skips.
    pub artifact: bool,
    /// Drawn inside a `/Figure` marked-content sequence: part of a drawing.
    pub figure: bool,
    /// The font's cap height (`/CapHeight` of its descriptor, else 0.7 em) at this
    /// size, in mm: how far capitals and figures rise above the baseline.
    pub cap_mm: f64,
}

impl TextRun {
    /// The box a run of capitals, figures and signs inks: from its origin to where it
    /// ended along the baseline (side bearings included), from the baseline up to the
    /// cap height, as (left, top, right, bottom) in mm.
    pub fn cap_box(&self) -> (f64, f64, f64, f64) {
        (self.x.min(self.x_end), self.y - self.cap_mm, self.x.max(self.x_end), self.y)
    }
}

/// One glyph as drawn: its code in the font (under Identity-H and an identity
/// CIDToGIDMap, the glyph's index in the embedded program) and where it starts.
#[derive(Debug, Clone, PartialEq)]
pub struct GlyphMark {
    /// The character code shown.
    pub code: u32,
    /// What the ToUnicode map says the glyph stands for.
    pub text: String,
    /// Origin x, mm from the left edge.
    pub x: f64,
    /// Baseline, mm from the top edge.
    pub y: f64,
    /// The font's `/BaseFont` name.
    pub font: String,
}

/// Facts about one font dictionary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FontInfo {
    /// The `/BaseFont` name (with any subset prefix).
    pub base_font: String,
    /// `/FontFile`, `/FontFile2` or `/FontFile3` is present in its descriptor.
    pub embedded: bool,
    /// The name starts with a six-capital-letter subset tag and `+`.
    pub subset: bool,
    /// `numGlyphs` from the embedded font's `maxp` table, if it is an sfnt.
    pub glyph_count: Option<usize>,
    /// The embedded TrueType program (`/FontFile2`), decompressed.
    pub program: Option<Vec<u8>>,
}

/// Parses a PDF held in memory; panics with a clear message if it does not parse.
pub fn load(bytes: &[u8]) -> Probe {
    let doc = Document::load_mem(bytes).unwrap_or_else(|e| {
        panic!("pdf_probe: the PDF ({} bytes) does not parse: {e}", bytes.len())
    });
    let page_ids: Vec<_> = doc.get_pages().into_values().collect();
    assert!(!page_ids.is_empty(), "pdf_probe: the PDF has no pages");
    let pages = page_ids.iter().enumerate().map(|(i, &id)| probe_page(&doc, i + 1, id));
    Probe {
        pages: pages.collect(),
        fonts: collect_fonts(&doc, &page_ids),
        catalog_print_scaling: print_scaling(&doc),
        version: doc.version.clone(),
    }
}

/// Reads and parses a PDF file; panics with a clear message on failure.
pub fn load_file(path: &std::path::Path) -> Probe {
    let bytes = std::fs::read(path)
        .unwrap_or_else(|e| panic!("pdf_probe: cannot read {}: {e}", path.display()));
    load(&bytes)
}

impl Probe {
    /// The text of all pages, page after page, joined with `'\n'`.
    pub fn text(&self) -> String {
        let pages: Vec<String> = self.pages.iter().map(PageProbe::text).collect();
        pages.join("\n")
    }

    /// The text of pages set in two columns (a contents sheet's plan): each page's
    /// left half, then its right half, each top to bottom.
    pub fn column_text(&self) -> String {
        let pages: Vec<String> = self.pages.iter().map(PageProbe::column_text).collect();
        pages.join("\n")
    }
}

impl PageProbe {
    /// All runs' text joined with `'\n'`, top to bottom, then left to right.
    pub fn text(&self) -> String {
        let runs: Vec<&str> =
            self.runs_in_reading_order().iter().map(|r| &*r.text).collect();
        runs.join("\n")
    }

    /// The page's left half, then its right half, each top to bottom.
    pub fn column_text(&self) -> String {
        let half = |right: bool| PageProbe {
            texts: self
                .texts
                .iter()
                .filter(|t| (t.x > self.width_mm / 2.0) == right)
                .cloned()
                .collect(),
            ..self.clone()
        };
        format!("{}\n{}", half(false).text(), half(true).text())
    }

    /// Whether `needle` occurs in [`Self::text`], either verbatim or once all
    /// whitespace is removed from both sides (so words split across runs match).
    pub fn contains_text(&self, needle: &str) -> bool {
        let text = self.text();
        text.contains(needle)
            || strip_whitespace(&text).contains(&strip_whitespace(needle))
    }

    /// Checks that every segment end, rect corner, curve box corner and text
    /// origin lies at least `margin_mm` from every page edge; `Err` lists offenders.
    pub fn all_marks_inside(&self, margin_mm: f64) -> Result<(), String> {
        let offenders: Vec<String> = self
            .mark_points()
            .into_iter()
            .filter_map(|(what, x, y)| self.edge_violation(&what, x, y, margin_mm))
            .collect();
        if offenders.is_empty() {
            return Ok(());
        }
        Err(format!(
            "{} mark(s) closer than {margin_mm} mm to an edge of the {:.2} x {:.2} mm page:\n{}",
            offenders.len(),
            self.width_mm,
            self.height_mm,
            offenders.join("\n")
        ))
    }

    /// The text runs sorted into lines (top to bottom) and along each line.
    fn runs_in_reading_order(&self) -> Vec<&TextRun> {
        let mut runs: Vec<&TextRun> = self.texts.iter().collect();
        runs.sort_by(|a, b| a.y.total_cmp(&b.y));
        let mut lines: Vec<Vec<&TextRun>> = Vec::new();
        for run in runs {
            match lines.last_mut() {
                Some(line) if (run.y - line[0].y).abs() <= LINE_TOLERANCE_MM => {
                    line.push(run)
                }
                _ => lines.push(vec![run]),
            }
        }
        for line in &mut lines {
            line.sort_by(|a, b| a.x.total_cmp(&b.x));
        }
        lines.into_iter().flatten().collect()
    }

    /// Every point `all_marks_inside` checks, with a description of its mark.
    fn mark_points(&self) -> Vec<(String, f64, f64)> {
        let mut points = Vec::new();
        for (i, s) in self.segments.iter().enumerate() {
            points.push((format!("segment #{i} start"), s.x1, s.y1));
            points.push((format!("segment #{i} end"), s.x2, s.y2));
        }
        for (i, r) in self.rects.iter().enumerate() {
            for (cx, cy) in
                [(r.x, r.y), (r.x + r.w, r.y), (r.x, r.y + r.h), (r.x + r.w, r.y + r.h)]
            {
                points.push((format!("rect #{i} corner"), cx, cy));
            }
        }
        for (i, c) in self.curves.iter().enumerate() {
            points.push((format!("curve #{i} box corner"), c.min_x, c.min_y));
            points.push((format!("curve #{i} box corner"), c.max_x, c.max_y));
        }
        for t in &self.texts {
            points.push((format!("text {:?} origin", t.text), t.x, t.y));
        }
        points
    }

    /// A description of how (x, y) breaks the margin, if it does.
    fn edge_violation(&self, what: &str, x: f64, y: f64, margin: f64) -> Option<String> {
        let distances = [
            ("left", x),
            ("top", y),
            ("right", self.width_mm - x),
            ("bottom", self.height_mm - y),
        ];
        let near_edges: Vec<String> = distances
            .into_iter()
            .filter(|&(_, distance)| distance < margin - EPS_MM)
            .map(|(edge, distance)| format!("{distance:.2} mm from the {edge} edge"))
            .collect();
        (!near_edges.is_empty()).then(|| {
            format!("  {what} at ({x:.2}, {y:.2}) mm: {}", near_edges.join(", "))
        })
    }
}

/// `s` without any whitespace characters.
fn strip_whitespace(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

// ---------------------------------------------------------------------------
// Geometry
// ---------------------------------------------------------------------------

/// A point in PDF device space (points, y up).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Pt {
    x: f64,
    y: f64,
}

/// A PDF transformation matrix `[a b c d e f]`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Matrix {
    a: f64,
    b: f64,
    c: f64,
    d: f64,
    e: f64,
    f: f64,
}

impl Matrix {
    const IDENTITY: Matrix = Matrix { a: 1.0, b: 0.0, c: 0.0, d: 1.0, e: 0.0, f: 0.0 };

    /// A matrix from six numbers, if there are at least six.
    fn from_numbers(n: &[f64]) -> Option<Matrix> {
        match *n {
            [a, b, c, d, e, f, ..] => Some(Matrix { a, b, c, d, e, f }),
            _ => None,
        }
    }

    /// A pure translation.
    fn translation(tx: f64, ty: f64) -> Matrix {
        Matrix { e: tx, f: ty, ..Matrix::IDENTITY }
    }

    /// The matrix applying `self` first and then `next`.
    fn then(&self, next: &Matrix) -> Matrix {
        Matrix {
            a: self.a * next.a + self.b * next.c,
            b: self.a * next.b + self.b * next.d,
            c: self.c * next.a + self.d * next.c,
            d: self.c * next.b + self.d * next.d,
            e: self.e * next.a + self.f * next.c + next.e,
            f: self.e * next.b + self.f * next.d + next.f,
        }
    }

    /// Transforms a point.
    fn apply(&self, x: f64, y: f64) -> Pt {
        Pt { x: self.a * x + self.c * y + self.e, y: self.b * x + self.d * y + self.f }
    }

    /// The determinant of the linear part.
    fn det(&self) -> f64 {
        self.a * self.d - self.b * self.c
    }

    /// Maps a device-space vector back to user space (None if singular).
    fn inverse_vector(&self, dx: f64, dy: f64) -> Option<(f64, f64)> {
        let det = self.det();
        (det.abs() > 1e-12).then(|| {
            ((self.d * dx - self.c * dy) / det, (self.a * dy - self.b * dx) / det)
        })
    }
}

/// The page's MediaBox, used to turn device points into top-left millimetres.
#[derive(Debug, Clone, Copy)]
struct Frame {
    left: f64,
    top: f64,
    width: f64,
    height: f64,
}

impl Frame {
    /// The frame of a MediaBox `[x0 y0 x1 y1]` (corners in any order).
    fn from_media_box(b: [f64; 4]) -> Frame {
        let (left, right) = (b[0].min(b[2]), b[0].max(b[2]));
        let (bottom, top) = (b[1].min(b[3]), b[1].max(b[3]));
        Frame { left, top, width: right - left, height: top - bottom }
    }

    /// A device point in millimetres from the top-left corner.
    fn to_mm(self, p: Pt) -> (f64, f64) {
        ((p.x - self.left) * MM_PER_PT, (self.top - p.y) * MM_PER_PT)
    }

    /// The bounding box (min_x, min_y, max_x, max_y) in mm of device points.
    fn bbox_mm(self, points: &[Pt]) -> (f64, f64, f64, f64) {
        let mm: Vec<(f64, f64)> = points.iter().map(|&p| self.to_mm(p)).collect();
        let min_x = mm.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
        let min_y = mm.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
        let max_x = mm.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
        let max_y = mm.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
        (min_x, min_y, max_x, max_y)
    }
}

/// The path under construction, in device space.
#[derive(Debug, Default)]
struct PendingPath {
    /// Straight pieces from `l` and closing `h`.
    lines: Vec<(Pt, Pt)>,
    /// Corners of each `re`, in drawing order.
    rects: Vec<[Pt; 4]>,
    /// Every point of `m`, `l`, `c`, `v`, `y` (on-curve and control).
    points: Vec<Pt>,
    /// Whether any bezier piece was added.
    has_curve: bool,
    /// The current point.
    current: Option<Pt>,
    /// The start of the current subpath.
    start: Option<Pt>,
}

impl PendingPath {
    /// `m`: begins a new subpath.
    fn move_to(&mut self, p: Pt) {
        self.current = Some(p);
        self.start = Some(p);
        self.points.push(p);
    }

    /// `l`: a straight piece from the current point.
    fn line_to(&mut self, p: Pt) {
        match self.current {
            Some(from) => {
                self.lines.push((from, p));
                self.current = Some(p);
                self.points.push(p);
            }
            None => self.move_to(p),
        }
    }

    /// `c`, `v`, `y`: a cubic bezier through two control points to `end`.
    fn curve_to(&mut self, c1: Pt, c2: Pt, end: Pt) {
        if self.current.is_none() {
            self.move_to(c1);
        }
        self.points.extend([c1, c2, end]);
        self.has_curve = true;
        self.current = Some(end);
    }

    /// `h`: closes the subpath with a straight piece back to its start.
    fn close(&mut self) {
        if let (Some(from), Some(to)) = (self.current, self.start)
            && from != to
        {
            self.lines.push((from, to));
        }
        self.current = self.start;
    }

    /// `re`: a closed rectangle subpath given by its four device corners.
    fn rect(&mut self, corners: [Pt; 4]) {
        self.rects.push(corners);
        self.current = Some(corners[0]);
        self.start = Some(corners[0]);
    }
}

// ---------------------------------------------------------------------------
// Page interpretation
// ---------------------------------------------------------------------------

/// The parts of the graphics state the probe tracks (saved by `q`, restored by `Q`).
#[derive(Debug, Clone)]
struct GState {
    ctm: Matrix,
    line_width: f64,
    dashed: bool,
    stroke_gray: f64,
    fill_gray: f64,
    font: Option<Rc<FontDecoder>>,
    font_size: f64,
    char_spacing: f64,
    word_spacing: f64,
    h_scale: f64,
    leading: f64,
    rise: f64,
}

impl Default for GState {
    fn default() -> Self {
        GState {
            ctm: Matrix::IDENTITY,
            line_width: 1.0,
            dashed: false,
            stroke_gray: 0.0,
            fill_gray: 0.0,
            font: None,
            font_size: 0.0,
            char_spacing: 0.0,
            word_spacing: 0.0,
            h_scale: 1.0,
            leading: 0.0,
            rise: 0.0,
        }
    }
}

/// A content-stream interpreter that records marks for one page.
struct Interp<'a> {
    doc: &'a Document,
    frame: Frame,
    gs: GState,
    stack: Vec<GState>,
    path: PendingPath,
    tm: Matrix,
    tlm: Matrix,
    fonts: HashMap<*const Dictionary, Rc<FontDecoder>>,
    out: PageProbe,
    depth: usize,
    /// The logical text of an open `/Span << /ActualText … >> BDC` section, and whether
    /// a text run has taken it yet: the glyphs inside are shown but not read.
    actual_text: Option<(String, bool)>,
    /// The tags of the marked-content sequences open here, outermost first.
    marks: Vec<String>,
}

/// Interprets page `number` (1-based) with object id `id`.
fn probe_page(doc: &Document, number: usize, id: lopdf::ObjectId) -> PageProbe {
    let page = doc
        .get_dictionary(id)
        .unwrap_or_else(|e| panic!("pdf_probe: page {number} is not a dictionary: {e}"));
    let frame = Frame::from_media_box(media_box(doc, page, number));
    let resources = inherited(doc, page, b"Resources").and_then(|o| o.as_dict().ok());
    let content = doc.get_page_content(id);
    let ops = Content::decode(&content).unwrap_or_else(|e| {
        panic!("pdf_probe: the content stream of page {number} does not parse: {e}")
    });
    let out = PageProbe {
        width_mm: frame.width * MM_PER_PT,
        height_mm: frame.height * MM_PER_PT,
        ..PageProbe::default()
    };
    let mut interp = Interp {
        doc,
        frame,
        gs: GState::default(),
        stack: Vec::new(),
        path: PendingPath::default(),
        tm: Matrix::IDENTITY,
        tlm: Matrix::IDENTITY,
        fonts: HashMap::new(),
        out,
        depth: 0,
        actual_text: None,
        marks: Vec::new(),
    };
    interp.run(&ops.operations, resources);
    interp.out
}

/// The tag a `BMC` or `BDC` operation opens.
fn tag_of(op: &Operation) -> String {
    match op.operands.first() {
        Some(Object::Name(name)) => String::from_utf8_lossy(name).into_owned(),
        _ => String::new(),
    }
}

/// The page's (possibly inherited) MediaBox as four numbers.
fn media_box(doc: &Document, page: &Dictionary, number: usize) -> [f64; 4] {
    let values: Vec<f64> = inherited(doc, page, b"MediaBox")
        .and_then(|o| o.as_array().ok())
        .map(|a| a.iter().filter_map(|o| number_of(deref(doc, o))).collect())
        .unwrap_or_default();
    match *values {
        [x0, y0, x1, y1] => [x0, y0, x1, y1],
        _ => panic!("pdf_probe: page {number} has no valid MediaBox (got {values:?})"),
    }
}

impl<'a> Interp<'a> {
    /// Runs a list of operations with the given resource dictionary.
    fn run(&mut self, ops: &[Operation], res: Option<&'a Dictionary>) {
        for op in ops {
            self.exec(op, res);
        }
    }

    /// Executes one operation.
    fn exec(&mut self, op: &Operation, res: Option<&'a Dictionary>) {
        let n: Vec<f64> = op.operands.iter().filter_map(number_of).collect();
        let first = n.first().copied();
        match op.operator.as_str() {
            "q" => self.stack.push(self.gs.clone()),
            "Q" => self.gs = self.stack.pop().unwrap_or_else(|| self.gs.clone()),
            "cm" => {
                if let Some(m) = Matrix::from_numbers(&n) {
                    self.gs.ctm = m.then(&self.gs.ctm);
                }
            }
            "w" => self.gs.line_width = first.unwrap_or(self.gs.line_width),
            "d" => self.gs.dashed = op.operands.first().is_some_and(is_non_empty_array),
            "G" => self.gs.stroke_gray = n.first().copied().unwrap_or(0.0),
            "g" => self.gs.fill_gray = n.first().copied().unwrap_or(0.0),
            "gs" => self.apply_ext_gstate(op, res),
            "m" | "l" | "c" | "v" | "y" | "re" | "h" => self.build_path(&op.operator, &n),
            "S" => self.paint(false, false, true),
            "s" => self.paint(true, false, true),
            "f" | "F" | "f*" => self.paint(false, true, false),
            "B" | "B*" => self.paint(false, true, true),
            "b" | "b*" => self.paint(true, true, true),
            "n" => self.path = PendingPath::default(),
            "Do" => self.draw_xobject(op, res),
            "BMC" => self.marks.push(tag_of(op)),
            "BDC" => {
                self.marks.push(tag_of(op));
                let dict = op.operands.get(1).and_then(|o| o.as_dict().ok());
                let actual = dict.and_then(|d| d.get(b"ActualText").ok());
                if let Some(Object::String(bytes, _)) = actual {
                    self.actual_text = Some((decode_text_string(bytes), false));
                }
            }
            "EMC" => {
                self.marks.pop();
                self.actual_text = None;
            }
            _ => self.exec_text(op, &n, res),
        }
    }

    /// Executes a text operation (anything else is ignored).
    fn exec_text(&mut self, op: &Operation, n: &[f64], res: Option<&'a Dictionary>) {
        let first = n.first().copied();
        let last_operand = &op.operands[op.operands.len().saturating_sub(1)..];
        match op.operator.as_str() {
            "BT" => (self.tm, self.tlm) = (Matrix::IDENTITY, Matrix::IDENTITY),
            "Tf" => self.set_font(op, res),
            "Tc" => self.gs.char_spacing = first.unwrap_or(0.0),
            "Tw" => self.gs.word_spacing = first.unwrap_or(0.0),
            "Tz" => self.gs.h_scale = first.unwrap_or(100.0) / 100.0,
            "TL" => self.gs.leading = first.unwrap_or(0.0),
            "Ts" => self.gs.rise = first.unwrap_or(0.0),
            "Td" | "TD" => {
                if let [tx, ty, ..] = *n {
                    if op.operator == "TD" {
                        self.gs.leading = -ty;
                    }
                    self.move_line(tx, ty);
                }
            }
            "Tm" => {
                if let Some(m) = Matrix::from_numbers(n) {
                    (self.tm, self.tlm) = (m, m);
                }
            }
            "T*" => self.move_line(0.0, -self.gs.leading),
            "Tj" => self.show(last_operand),
            "TJ" => {
                if let Some(Ok(items)) = op.operands.first().map(Object::as_array) {
                    self.show(items);
                }
            }
            "'" | "\"" => {
                if let ("\"", [aw, ac, ..]) = (op.operator.as_str(), n) {
                    (self.gs.word_spacing, self.gs.char_spacing) = (*aw, *ac);
                }
                self.move_line(0.0, -self.gs.leading);
                self.show(last_operand);
            }
            _ => {}
        }
    }

    /// Applies a path-construction operator with its numeric operands.
    fn build_path(&mut self, operator: &str, n: &[f64]) {
        let ctm = self.gs.ctm;
        let p = |i: usize| ctm.apply(n[i], n[i + 1]);
        match (operator, n.len()) {
            ("m", 2..) => self.path.move_to(p(0)),
            ("l", 2..) => self.path.line_to(p(0)),
            ("c", 6..) => self.path.curve_to(p(0), p(2), p(4)),
            ("v", 4..) => {
                let c1 = self.path.current.unwrap_or(p(0));
                self.path.curve_to(c1, p(0), p(2));
            }
            ("y", 4..) => self.path.curve_to(p(0), p(2), p(2)),
            ("re", 4..) => {
                let (x, y, w, h) = (n[0], n[1], n[2], n[3]);
                let corners = [
                    ctm.apply(x, y),
                    ctm.apply(x + w, y),
                    ctm.apply(x + w, y + h),
                    ctm.apply(x, y + h),
                ];
                self.path.rect(corners);
            }
            ("h", _) => self.path.close(),
            _ => {}
        }
    }

    /// Paints (and ends) the current path, recording its marks.
    fn paint(&mut self, close: bool, filled: bool, stroked: bool) {
        let mut path = std::mem::take(&mut self.path);
        if close {
            path.close();
        }
        if stroked {
            for &(a, b) in &path.lines {
                self.record_segment(a, b);
            }
        }
        for corners in &path.rects {
            self.record_rect(corners, filled, stroked);
        }
        if path.has_curve {
            let (min_x, min_y, max_x, max_y) = self.frame.bbox_mm(&path.points);
            self.out.curves.push(CurveMm { min_x, min_y, max_x, max_y, filled, stroked });
        } else if path.lines.len() >= 2 {
            let (min_x, min_y, max_x, max_y) = self.frame.bbox_mm(&path.points);
            let shape = CurveMm { min_x, min_y, max_x, max_y, filled, stroked };
            self.out.polygons.push(shape);
        }
    }

    /// Records a rectangle, and its four sides when stroked.
    fn record_rect(&mut self, corners: &[Pt; 4], filled: bool, stroked: bool) {
        let (x, y, max_x, max_y) = self.frame.bbox_mm(corners);
        let (w, h, fill_gray) = (max_x - x, max_y - y, self.gs.fill_gray);
        self.out.rects.push(RectMm { x, y, w, h, filled, stroked, fill_gray });
        if stroked {
            for i in 0..4 {
                self.record_segment(corners[i], corners[(i + 1) % 4]);
            }
        }
    }

    /// Records a stroked straight piece between two device points.
    fn record_segment(&mut self, a: Pt, b: Pt) {
        let width_mm = self.stroke_width(a, b) * MM_PER_PT;
        let ((x1, y1), (x2, y2)) = (self.frame.to_mm(a), self.frame.to_mm(b));
        self.out.segments.push(Segment {
            x1,
            y1,
            x2,
            y2,
            width_mm,
            dashed: self.gs.dashed,
            gray: self.gs.stroke_gray,
        });
    }

    /// The device-space thickness (points) of a stroke from `a` to `b`.
    ///
    /// A user-space strip of width w maps to a parallelogram whose thickness
    /// across the device direction D is `w * |det M| * |M⁻¹ D| / |D|`.
    fn stroke_width(&self, a: Pt, b: Pt) -> f64 {
        let m = self.gs.ctm;
        let w = self.gs.line_width;
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let length = dx.hypot(dy);
        match m.inverse_vector(dx, dy) {
            Some((ux, uy)) if length > 1e-9 => w * m.det().abs() * ux.hypot(uy) / length,
            _ => w * m.det().abs().sqrt(),
        }
    }

    /// `gs`: takes the line width and dash pattern from an ExtGState.
    fn apply_ext_gstate(&mut self, op: &Operation, res: Option<&'a Dictionary>) {
        let Some(state) =
            self.resource(res, b"ExtGState", op).and_then(|o| o.as_dict().ok())
        else {
            return;
        };
        if let Some(w) = state.get(b"LW").ok().and_then(number_of) {
            self.gs.line_width = w;
        }
        if let Ok(dash) = state.get(b"D").map(|o| deref(self.doc, o)) {
            let pattern = dash.as_array().ok().and_then(|a| a.first());
            self.gs.dashed =
                pattern.is_some_and(|p| is_non_empty_array(deref(self.doc, p)));
        }
    }

    /// `Do`: runs a Form XObject's content under its /Matrix (images are ignored).
    fn draw_xobject(&mut self, op: &Operation, res: Option<&'a Dictionary>) {
        let Some(Ok(form)) = self.resource(res, b"XObject", op).map(Object::as_stream)
        else {
            return;
        };
        let is_form = form.dict.get(b"Subtype").and_then(Object::as_name).ok()
            == Some(&b"Form"[..]);
        if !is_form || self.depth >= MAX_DEPTH {
            return;
        }
        let content =
            form.decompressed_content().unwrap_or_else(|_| form.content.clone());
        let Ok(ops) = Content::decode(&content) else {
            panic!("pdf_probe: the content stream of a Form XObject does not parse");
        };
        let matrix = form.dict.get(b"Matrix").ok().map(|o| numbers_of(self.doc, o));
        let matrix =
            matrix.and_then(|n| Matrix::from_numbers(&n)).unwrap_or(Matrix::IDENTITY);
        let form_res =
            form.dict.get(b"Resources").ok().and_then(|o| self.dict_of(o)).or(res);
        let (saved, stack_len) = (self.gs.clone(), self.stack.len());
        self.gs.ctm = matrix.then(&self.gs.ctm);
        self.depth += 1;
        self.run(&ops.operations, form_res);
        self.depth -= 1;
        self.stack.truncate(stack_len);
        self.gs = saved;
    }

    /// `Tf`: selects a font resource and size.
    fn set_font(&mut self, op: &Operation, res: Option<&'a Dictionary>) {
        if let Some(size) = op.operands.get(1).and_then(number_of) {
            self.gs.font_size = size;
        }
        let Some(dict) = self.resource(res, b"Font", op).and_then(|o| o.as_dict().ok())
        else {
            self.gs.font = None;
            return;
        };
        let doc = self.doc;
        let decoder = self
            .fonts
            .entry(dict as *const Dictionary)
            .or_insert_with(|| Rc::new(FontDecoder::new(doc, dict)));
        self.gs.font = Some(Rc::clone(decoder));
    }

    /// Moves to the start of a new line offset by (tx, ty) in text space.
    fn move_line(&mut self, tx: f64, ty: f64) {
        self.tlm = Matrix::translation(tx, ty).then(&self.tlm);
        self.tm = self.tlm;
    }

    /// Shows strings (with TJ adjustments between them) as one text run.
    fn show(&mut self, items: &[Object]) {
        let font = self.gs.font.clone().unwrap_or_default();
        let (x, y) =
            self.frame.to_mm(self.tm.then(&self.gs.ctm).apply(0.0, self.gs.rise));
        let size_pt = self.effective_font_size();
        let mut text = String::new();
        let mut gap = false;
        for item in items {
            if let Object::String(bytes, _) = item {
                if gap && !text.is_empty() && !text.ends_with(char::is_whitespace) {
                    text.push(' ');
                }
                gap = false;
                self.show_string(&font, bytes, &mut text);
            } else if let Some(adjust) = number_of(item) {
                gap |= adjust < WORD_GAP;
                self.advance(-adjust / 1000.0 * self.gs.font_size * self.gs.h_scale);
            }
        }
        let text = visual_to_logical(&text);
        // Inside an ActualText span the span's text replaces the glyphs, once.
        let text = match &mut self.actual_text {
            Some((_, true)) => return,
            Some((actual, taken)) => {
                *taken = true;
                actual.clone()
            }
            None => text,
        };
        if !text.is_empty() {
            let font_cap = Rc::clone(&font);
            let font = font.base_font.clone();
            let (x_end, _) =
                self.frame.to_mm(self.tm.then(&self.gs.ctm).apply(0.0, self.gs.rise));
            let artifact = self.marks.iter().any(|tag| tag == "Artifact");
            let figure = self.marks.iter().any(|tag| tag == "Figure");
            let cap_mm = font_cap.cap_height * size_pt * MM_PER_PT;
            self.out.texts.push(TextRun {
                text,
                x,
                x_end,
                y,
                size_pt,
                font,
                artifact,
                figure,
                cap_mm,
            });
        }
    }

    /// Decodes one string into `text`, advancing the text matrix glyph by glyph.
    fn show_string(&mut self, font: &FontDecoder, bytes: &[u8], text: &mut String) {
        for code in font.codes(bytes) {
            let (x, y) =
                self.frame.to_mm(self.tm.then(&self.gs.ctm).apply(0.0, self.gs.rise));
            let decoded = font.decode(code);
            let font_name = font.base_font.clone();
            self.out.glyphs.push(GlyphMark {
                code,
                text: decoded.clone(),
                x,
                y,
                font: font_name,
            });
            text.push_str(&decoded);
            let word =
                if !font.two_byte && code == 32 { self.gs.word_spacing } else { 0.0 };
            let glyph = font.width(code) / 1000.0 * self.gs.font_size;
            self.advance((glyph + self.gs.char_spacing + word) * self.gs.h_scale);
        }
    }

    /// Moves the text matrix `tx` text-space units along the baseline.
    fn advance(&mut self, tx: f64) {
        self.tm = Matrix::translation(tx, 0.0).then(&self.tm);
    }

    /// The `Tf` size scaled by the text matrix and CTM (vertical axis).
    fn effective_font_size(&self) -> f64 {
        let m = self.tm.then(&self.gs.ctm);
        self.gs.font_size * m.c.hypot(m.d)
    }

    /// Looks up the resource named by the operation's first operand.
    fn resource(
        &self,
        res: Option<&'a Dictionary>,
        category: &[u8],
        op: &Operation,
    ) -> Option<&'a Object> {
        let name = op.operands.first()?.as_name().ok()?;
        let group = self.dict_of(res?.get(category).ok()?)?;
        group.get(name).ok().map(|o| deref(self.doc, o))
    }

    /// The dictionary an object is or refers to.
    fn dict_of(&self, obj: &'a Object) -> Option<&'a Dictionary> {
        deref(self.doc, obj).as_dict().ok()
    }
}

// ---------------------------------------------------------------------------
// Fonts: decoding text and widths
// ---------------------------------------------------------------------------

/// What the probe needs to decode and advance text in one font.
#[derive(Debug, Clone, Default)]
struct FontDecoder {
    base_font: String,
    /// Type0 fonts use 2-byte codes (Identity-H); simple fonts 1-byte codes.
    two_byte: bool,
    /// Code to Unicode text, from the /ToUnicode CMap.
    to_unicode: Option<HashMap<u32, String>>,
    /// Glyph widths in thousandths of an em, by code.
    widths: HashMap<u32, f64>,
    /// Width of codes missing from `widths`.
    default_width: f64,
    /// The descriptor's `/CapHeight`, in ems.
    cap_height: f64,
}

impl FontDecoder {
    /// Reads a font dictionary.
    fn new(doc: &Document, font: &Dictionary) -> FontDecoder {
        let two_byte = name_in(font, b"Subtype").as_deref() == Some("Type0");
        let to_unicode = font
            .get(b"ToUnicode")
            .ok()
            .and_then(|o| deref(doc, o).as_stream().ok())
            .map(|s| parse_to_unicode(&s.decompressed_content().unwrap_or_default()));
        let (widths, default_width) =
            if two_byte { cid_widths(doc, font) } else { simple_widths(doc, font) };
        let cap_height = font_descriptor(doc, font)
            .and_then(|d| d.get(b"CapHeight").ok())
            .and_then(|o| number_of(deref(doc, o)))
            .map_or(DEFAULT_CAP_HEIGHT, |c| c / 1000.0);
        FontDecoder {
            base_font: name_in(font, b"BaseFont").unwrap_or_default(),
            two_byte,
            to_unicode,
            widths,
            default_width,
            cap_height,
        }
    }

    /// Splits a string into character codes.
    fn codes(&self, bytes: &[u8]) -> Vec<u32> {
        if self.two_byte {
            bytes
                .chunks(2)
                .map(|c| c.iter().fold(0, |acc, &b| acc << 8 | u32::from(b)))
                .collect()
        } else {
            bytes.iter().map(|&b| u32::from(b)).collect()
        }
    }

    /// The Unicode text of one code: ToUnicode, else Latin-1 (simple fonts) or U+FFFD.
    fn decode(&self, code: u32) -> String {
        if let Some(text) = self.to_unicode.as_ref().and_then(|m| m.get(&code)) {
            return text.clone();
        }
        match char::from_u32(code) {
            Some(c) if !self.two_byte => c.to_string(),
            _ => char::REPLACEMENT_CHARACTER.to_string(),
        }
    }

    /// The advance width of one code, in thousandths of an em.
    fn width(&self, code: u32) -> f64 {
        self.widths.get(&code).copied().unwrap_or(self.default_width)
    }
}

/// Widths of a simple font from /FirstChar and /Widths (MissingWidth, else 0).
fn simple_widths(doc: &Document, font: &Dictionary) -> (HashMap<u32, f64>, f64) {
    let first = font.get(b"FirstChar").ok().and_then(number_of).unwrap_or(0.0) as u32;
    let widths = font.get(b"Widths").map(|o| numbers_of(doc, o)).unwrap_or_default();
    let map = (first..).zip(widths).collect();
    let missing = font_descriptor(doc, font)
        .and_then(|d| d.get(b"MissingWidth").ok().and_then(number_of))
        .unwrap_or(0.0);
    (map, missing)
}

/// Widths of a Type0 font from its descendant's /W and /DW (default 1000).
fn cid_widths(doc: &Document, font: &Dictionary) -> (HashMap<u32, f64>, f64) {
    let Some(cid_font) = descendant_font(doc, font) else {
        return (HashMap::new(), 1000.0);
    };
    let default = cid_font.get(b"DW").ok().and_then(number_of).unwrap_or(1000.0);
    let w = cid_font.get(b"W").ok().and_then(|o| deref(doc, o).as_array().ok());
    (w.map(|w| parse_w_array(doc, w)).unwrap_or_default(), default)
}

/// Parses a CIDFont /W array: `c [w1 w2 ...]` and `c_first c_last w` entries.
fn parse_w_array(doc: &Document, w: &[Object]) -> HashMap<u32, f64> {
    let mut map = HashMap::new();
    let mut i = 0;
    while let Some(first) = w.get(i).and_then(number_of) {
        let first = first as u32;
        match w.get(i + 1).map(|o| deref(doc, o)) {
            Some(Object::Array(list)) => {
                map.extend((first..).zip(list.iter().filter_map(number_of)));
                i += 2;
            }
            Some(last) => {
                let (Some(last), Some(width)) =
                    (number_of(last), w.get(i + 2).and_then(number_of))
                else {
                    break;
                };
                let last = (last as u32).min(first.saturating_add(MAX_RANGE));
                map.extend((first..=last).map(|c| (c, width)));
                i += 3;
            }
            None => break,
        }
    }
    map
}

/// The first /DescendantFonts entry of a Type0 font.
fn descendant_font<'a>(
    doc: &'a Document,
    font: &'a Dictionary,
) -> Option<&'a Dictionary> {
    let list = deref(doc, font.get(b"DescendantFonts").ok()?).as_array().ok()?;
    deref(doc, list.first()?).as_dict().ok()
}

/// The /FontDescriptor of a font (of its descendant, for Type0 fonts).
fn font_descriptor<'a>(
    doc: &'a Document,
    font: &'a Dictionary,
) -> Option<&'a Dictionary> {
    let owner = descendant_font(doc, font).unwrap_or(font);
    deref(doc, owner.get(b"FontDescriptor").ok()?).as_dict().ok()
}

// ---------------------------------------------------------------------------
// ToUnicode CMaps
// ---------------------------------------------------------------------------

/// A token of a CMap program.
#[derive(Debug, Clone, PartialEq)]
enum Token {
    Hex(Vec<u8>),
    Word(String),
    Open,
    Close,
}

/// Every ToUnicode map in a PDF, with the `/BaseFont` of the font that carries it:
/// what a reader will turn each code of that font into.
pub fn to_unicode_maps(bytes: &[u8]) -> Vec<(String, HashMap<u32, String>)> {
    let doc = Document::load_mem(bytes).expect("pdf_probe: the PDF parses");
    doc.objects
        .values()
        .filter_map(|o| o.as_dict().ok())
        .filter_map(|font| {
            let cmap = deref(&doc, font.get(b"ToUnicode").ok()?).as_stream().ok()?;
            let data =
                cmap.decompressed_content().unwrap_or_else(|_| cmap.content.clone());
            Some((
                name_in(font, b"BaseFont").unwrap_or_default(),
                parse_to_unicode(&data),
            ))
        })
        .collect()
}

/// Parses the `bfchar` and `bfrange` sections of a ToUnicode CMap.
fn parse_to_unicode(data: &[u8]) -> HashMap<u32, String> {
    let tokens = tokenize_cmap(data);
    let mut map = HashMap::new();
    let mut i = 0;
    while i < tokens.len() {
        i = match &tokens[i] {
            Token::Word(w) if w == "beginbfchar" => {
                parse_bfchar(&tokens, i + 1, &mut map)
            }
            Token::Word(w) if w == "beginbfrange" => {
                parse_bfrange(&tokens, i + 1, &mut map)
            }
            _ => i + 1,
        };
    }
    map
}

/// Reads `<src> <dst>` pairs from `i` up to `endbfchar`; returns the next index.
fn parse_bfchar(tokens: &[Token], mut i: usize, map: &mut HashMap<u32, String>) -> usize {
    while let [Token::Hex(src), dst, ..] = &tokens[i.min(tokens.len())..] {
        if let Token::Hex(dst) = dst {
            map.insert(code_of(src), utf16_text(dst, 0));
        }
        i += 2;
    }
    i
}

/// Reads `<lo> <hi> <dst>` and `<lo> <hi> [<dst>...]` entries up to `endbfrange`.
fn parse_bfrange(
    tokens: &[Token],
    mut i: usize,
    map: &mut HashMap<u32, String>,
) -> usize {
    while let [Token::Hex(lo), Token::Hex(hi), next, ..] = &tokens[i.min(tokens.len())..]
    {
        let (lo, hi) =
            (code_of(lo), code_of(hi).min(code_of(lo).saturating_add(MAX_RANGE)));
        i += 3;
        match next {
            Token::Hex(dst) => {
                map.extend((lo..=hi).map(|code| (code, utf16_text(dst, code - lo))));
            }
            Token::Open => {
                let mut code = lo;
                while let Some(Token::Hex(dst)) = tokens.get(i) {
                    map.insert(code, utf16_text(dst, 0));
                    code += 1;
                    i += 1;
                }
                i += 1; // the closing `]`
            }
            _ => {}
        }
    }
    i
}

/// A big-endian code from its bytes.
fn code_of(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0, |acc, &b| acc << 8 | u32::from(b))
}

/// UTF-16BE bytes as text, with `offset` added to the last code unit.
fn utf16_text(bytes: &[u8], offset: u32) -> String {
    if bytes.len() % 2 == 1 {
        return bytes.iter().map(|&b| char::from(b)).collect();
    }
    let mut units: Vec<u16> =
        bytes.chunks(2).map(|c| u16::from_be_bytes([c[0], c[1]])).collect();
    if let Some(last) = units.last_mut() {
        *last = last.wrapping_add(offset as u16);
    }
    String::from_utf16_lossy(&units)
}

/// Splits a CMap program into hex strings, brackets and words.
fn tokenize_cmap(data: &[u8]) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < data.len() {
        let rest = &data[i..];
        i += match rest[0] {
            b'%' => {
                rest.iter().position(|&b| b == b'\n' || b == b'\r').unwrap_or(rest.len())
            }
            b'<' if rest.get(1) == Some(&b'<') => 2,
            b'>' if rest.get(1) == Some(&b'>') => 2,
            b'<' => {
                let end = rest.iter().position(|&b| b == b'>').unwrap_or(rest.len());
                tokens.push(Token::Hex(hex_bytes(&rest[1..end])));
                end + 1
            }
            b'[' => {
                tokens.push(Token::Open);
                1
            }
            b']' => {
                tokens.push(Token::Close);
                1
            }
            b'(' => literal_string_length(rest),
            b if b.is_ascii_whitespace() => 1,
            _ => {
                let end = rest[1..]
                    .iter()
                    .position(|&b| is_delimiter(b))
                    .map_or(rest.len(), |p| p + 1);
                tokens.push(Token::Word(
                    String::from_utf8_lossy(&rest[..end]).into_owned(),
                ));
                end
            }
        };
    }
    tokens
}

/// Whether a byte ends a CMap word.
fn is_delimiter(b: u8) -> bool {
    b.is_ascii_whitespace() || b"<>[]()/%{}".contains(&b)
}

/// The length of a `( ... )` literal string (balanced, with escapes) at the start.
fn literal_string_length(rest: &[u8]) -> usize {
    let mut depth = 0;
    let mut i = 0;
    while i < rest.len() {
        match rest[i] {
            b'\\' => i += 1,
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    rest.len()
}

/// The bytes of hex digits (whitespace ignored, an odd last digit padded with 0).
fn hex_bytes(digits: &[u8]) -> Vec<u8> {
    let nibbles: Vec<u8> = digits
        .iter()
        .filter_map(|&d| (d as char).to_digit(16))
        .map(|d| d as u8)
        .collect();
    nibbles.chunks(2).map(|p| p[0] << 4 | p.get(1).copied().unwrap_or(0)).collect()
}

// ---------------------------------------------------------------------------
// Document-level facts
// ---------------------------------------------------------------------------

/// Every font in the pages' resources and their Form XObjects, once each.
fn collect_fonts(doc: &Document, page_ids: &[lopdf::ObjectId]) -> Vec<FontInfo> {
    let mut seen = HashSet::new();
    let mut fonts = Vec::new();
    for &id in page_ids {
        let Ok(page) = doc.get_dictionary(id) else { continue };
        if let Some(res) =
            inherited(doc, page, b"Resources").and_then(|o| o.as_dict().ok())
        {
            fonts_in_resources(doc, res, &mut seen, &mut fonts, 0);
        }
    }
    fonts
}

/// Adds the fonts of a resource dictionary (recursing into Form XObjects).
fn fonts_in_resources(
    doc: &Document,
    res: &Dictionary,
    seen: &mut HashSet<*const Dictionary>,
    fonts: &mut Vec<FontInfo>,
    depth: usize,
) {
    if depth > MAX_DEPTH || !seen.insert(res as *const Dictionary) {
        return;
    }
    for font in entries_of(doc, res, b"Font").filter_map(|o| o.as_dict().ok()) {
        if seen.insert(font as *const Dictionary) {
            fonts.push(font_info(doc, font));
        }
    }
    for xobject in entries_of(doc, res, b"XObject").filter_map(|o| o.as_stream().ok()) {
        let inner = xobject.dict.get(b"Resources").ok().map(|o| deref(doc, o));
        if let Some(Ok(inner)) = inner.map(Object::as_dict) {
            fonts_in_resources(doc, inner, seen, fonts, depth + 1);
        }
    }
}

/// The dereferenced values of the sub-dictionary `category` of a resource dictionary.
fn entries_of<'a>(
    doc: &'a Document,
    res: &'a Dictionary,
    category: &[u8],
) -> impl Iterator<Item = &'a Object> {
    let group = res.get(category).ok().and_then(|o| deref(doc, o).as_dict().ok());
    group.into_iter().flat_map(|g| g.iter().map(|(_, v)| deref(doc, v)))
}

/// Facts about one font dictionary.
fn font_info(doc: &Document, font: &Dictionary) -> FontInfo {
    let base_font = name_in(font, b"BaseFont").unwrap_or_default();
    let descriptor = font_descriptor(doc, font);
    let file =
        |key: &[u8]| descriptor.and_then(|d| d.get(key).ok()).map(|o| deref(doc, o));
    let files = [file(b"FontFile"), file(b"FontFile2"), file(b"FontFile3")];
    let glyph_count = files[1..]
        .iter()
        .flatten()
        .filter_map(|o| o.as_stream().ok())
        .find_map(|s| sfnt_glyph_count(&s.decompressed_content().ok()?));
    let program = files[1].and_then(|o| o.as_stream().ok()?.decompressed_content().ok());
    FontInfo {
        subset: is_subset_name(&base_font),
        base_font,
        embedded: files.iter().any(Option::is_some),
        glyph_count,
        program,
    }
}

/// Whether a font name starts with a subset tag like `ABCDEF+`.
fn is_subset_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    bytes.len() > 7 && bytes[6] == b'+' && bytes[..6].iter().all(u8::is_ascii_uppercase)
}

/// `numGlyphs` from the `maxp` table of a TrueType/OpenType (sfnt) font.
fn sfnt_glyph_count(data: &[u8]) -> Option<usize> {
    let u16_at =
        |at: usize| Some(u16::from_be_bytes(data.get(at..at + 2)?.try_into().ok()?));
    let u32_at =
        |at: usize| Some(u32::from_be_bytes(data.get(at..at + 4)?.try_into().ok()?));
    let version = data.get(..4)?;
    if ![&[0, 1, 0, 0][..], b"true", b"OTTO"].contains(&version) {
        return None;
    }
    let tables = usize::from(u16_at(4)?);
    let maxp = (0..tables)
        .map(|i| 12 + 16 * i)
        .find(|&rec| data.get(rec..rec + 4) == Some(&b"maxp"[..]))?;
    let offset = u32_at(maxp + 8)? as usize;
    u16_at(offset + 4).map(usize::from)
}

/// The catalog's /ViewerPreferences /PrintScaling name.
fn print_scaling(doc: &Document) -> Option<String> {
    let prefs = deref(doc, doc.catalog().ok()?.get(b"ViewerPreferences").ok()?);
    name_in(prefs.as_dict().ok()?, b"PrintScaling")
}

// ---------------------------------------------------------------------------
// Small object helpers
// ---------------------------------------------------------------------------

/// The object a reference points to (or the object itself).
fn deref<'a>(doc: &'a Document, obj: &'a Object) -> &'a Object {
    doc.dereference(obj).map(|(_, o)| o).unwrap_or(obj)
}

/// An attribute of a page, inherited through the page tree, dereferenced.
fn inherited<'a>(
    doc: &'a Document,
    page: &'a Dictionary,
    key: &[u8],
) -> Option<&'a Object> {
    let mut node = page;
    for _ in 0..MAX_DEPTH {
        if let Ok(value) = node.get(key) {
            return Some(deref(doc, value));
        }
        node = deref(doc, node.get(b"Parent").ok()?).as_dict().ok()?;
    }
    None
}

/// A number (integer or real) as f64.
fn number_of(obj: &Object) -> Option<f64> {
    obj.as_float().ok().map(f64::from)
}

/// The numbers of an array object (dereferencing the array and its items).
fn numbers_of(doc: &Document, obj: &Object) -> Vec<f64> {
    let items = deref(doc, obj).as_array().map(Vec::as_slice).unwrap_or_default();
    items.iter().filter_map(|o| number_of(deref(doc, o))).collect()
}

/// Whether an object is a non-empty array (a dash pattern that dashes).
fn is_non_empty_array(obj: &Object) -> bool {
    obj.as_array().is_ok_and(|a| !a.is_empty())
}

/// A name entry of a dictionary as a String.
fn name_in(dict: &Dictionary, key: &[u8]) -> Option<String> {
    dict.get(key).ok()?.as_name().ok().map(|n| String::from_utf8_lossy(n).into_owned())
}

/// A PDF text string: UTF-16BE after a byte-order mark, else PDFDocEncoding (read as
/// Latin-1, which agrees for the characters tests use).
fn decode_text_string(bytes: &[u8]) -> String {
    match bytes {
        [0xFE, 0xFF, rest @ ..] => {
            let units: Vec<u16> =
                rest.chunks_exact(2).map(|p| u16::from_be_bytes([p[0], p[1]])).collect();
            String::from_utf16_lossy(&units)
        }
        _ => bytes.iter().map(|&b| b as char).collect(),
    }
}

/// Right-to-left script (Hebrew, Arabic and their presentation forms).
fn is_rtl(c: char) -> bool {
    matches!(c as u32, 0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF)
}

/// A run shown in visual order back in reading order, as text extractors do: a run
/// with right-to-left letters is read from its right end, while numbers and Latin
/// words inside it (A1, 2a1>11, 40) keep their left-to-right order.
pub fn visual_to_logical(visual: &str) -> String {
    if !visual.chars().any(is_rtl) {
        return visual.to_string();
    }
    let reversed: Vec<char> = visual.chars().rev().collect();
    let left_to_right = |c: char| c.is_ascii_alphanumeric() || "+-<>:.,/–*".contains(c);
    let mut out = String::new();
    let mut i = 0;
    while i < reversed.len() {
        if reversed[i].is_ascii_alphanumeric() {
            let mut end = i;
            while end < reversed.len() && left_to_right(reversed[end]) {
                end += 1;
            }
            // Trailing punctuation belongs to the right-to-left text around the run.
            while end > i + 1 && !reversed[end - 1].is_ascii_alphanumeric() {
                end -= 1;
            }
            out.extend(reversed[i..end].iter().rev());
            i = end;
        } else {
            out.push(reversed[i]);
            i += 1;
        }
    }
    out
}
