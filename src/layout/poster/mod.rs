//! Splitting a drawing that is larger than the paper into parts at exact scale.
//!
//! Parts meet on the drawing's own grid lines: each part but the last of a row (or
//! column) carries a shaded glue tab beyond its seam, and its neighbour is trimmed
//! exactly on that grid line (a dashed cut line) and laid over the tab. Round target
//! marks sit in a blank band around the drawing, off the playing surface, and print on
//! both parts that share them. Each part is cut geometrically (lines are clipped,
//! anything else is kept only where it lies wholly inside), so what reaches the PDF is
//! exactly what prints, and an independent reader can check it.

use crate::page::{Color, Item, Page, Paint, Point, Role, Stroke, Tag};
use crate::text::{self, Reading, Shaper, Style};

mod clip;
mod seams;

pub use self::clip::{Window, clip};

use self::seams::{balanced, rows, windows};

/// A drawing that must never be shrunk; see [`Chunk::poster`](super::flow::Chunk).
#[derive(Clone, Debug, PartialEq)]
pub struct Poster {
    /// Width in millimetres, as the page flow sees it.
    pub width: f64,
    /// Height in millimetres.
    pub height: f64,
    /// What to draw, relative to the drawing's top-left corner.
    pub items: Vec<Item>,
    /// Words for the parts, when it has to be split.
    pub labels: PosterLabels,
    /// How far the drawing reaches beyond `width` on the left and on the right, into the
    /// page's side margins (never past the printer's safe margin): see [`Poster::new`].
    pub bleed: f64,
    /// Where the drawing may be cut into parts across its width: its grid lines, from
    /// its left edge (as `items`).
    pub seams_x: Vec<f64>,
    /// Where it may be cut down its height.
    pub seams_y: Vec<f64>,
    /// The assembly plan is drawn elsewhere (the contents sheet), so a split puts
    /// only the parts on the sheet, each label led by the sheet's title: see
    /// `plan_figure`.
    pub plan_elsewhere: bool,
}

impl Poster {
    /// A drawing `width` × `height`, to be placed on pages whose content is
    /// `content_width` wide. A drawing slightly wider than that is let into the side
    /// margins, up to the printer's safe margin, rather than split. `seams_x` and
    /// `seams_y` are its grid lines, where parts may meet if it must be split.
    pub fn new(
        width: f64,
        height: f64,
        items: Vec<Item>,
        labels: PosterLabels,
        content_width: f64,
        seams_x: Vec<f64>,
        seams_y: Vec<f64>,
    ) -> Poster {
        let room = super::MARGIN_MM - super::SAFE_MARGIN_MM;
        let over = width - content_width;
        if over > 0.0 && over <= 2.0 * room + super::EPS_MM {
            let bleed = over / 2.0;
            return Poster {
                width: content_width,
                height,
                items: items.iter().map(|i| i.translated(-bleed, 0.0)).collect(),
                labels,
                bleed,
                seams_x: seams_x.iter().map(|x| x - bleed).collect(),
                seams_y,
                plan_elsewhere: false,
            };
        }
        let plan_elsewhere = false;
        Poster {
            width,
            height,
            items,
            labels,
            bleed: 0.0,
            seams_x,
            seams_y,
            plan_elsewhere,
        }
    }
}

impl Poster {
    /// Whole within `frame`: it need not be split into parts.
    pub fn fits(&self, frame: Frame) -> bool {
        self.width <= frame.width + super::EPS_MM
            && self.height <= frame.bottom - frame.top
    }
}

/// The words on a split drawing's pages.
#[derive(Clone, Debug, PartialEq)]
pub struct PosterLabels {
    /// Above each part: a pattern with `{part}`, `{parts}`, `{row}` and `{column}`.
    pub part: String,
    /// Title of the assembly page.
    pub assembly_title: String,
    /// Instructions on the assembly page, with `{parts}`.
    pub assembly_note: String,
    /// Which way the sheet's text runs.
    pub reading: Reading,
    /// The smallest type of the labels (large print), or 0.
    pub min_pt: f64,
}

/// The area chunks flow into, in millimetres on the page.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    /// Left edge of the content.
    pub left: f64,
    /// Width of the content.
    pub width: f64,
    /// Top edge of the content.
    pub top: f64,
    /// Bottom edge of the content.
    pub bottom: f64,
}

/// Width of the glue tab a part carries beyond its seam.
pub const TAB_MM: f64 = 8.0;
/// The blank band around a split drawing that holds the target marks.
pub const MARK_BAND_MM: f64 = 5.5;
/// Room above each part for its label: the band a board's coordinates take.
const LABEL_MM: f64 = super::diagram_style::LABEL_BAND_MM;
/// The room under a part, or under the plan, before what comes next on the page.
const PART_GAP_MM: f64 = 4.0;
/// A part's label's baseline under the part's top.
const PART_LABEL_BASELINE_MM: f64 = 4.0;
/// The part's number and arrow stand in a tab this far from its end, or this far from
/// the corner of the last part, at most [`MARK_SPAN_MM`] along: near the corner
/// where a gluer starts.
const MARK_SPAN_MM: f64 = 30.0;
/// See [`MARK_SPAN_MM`].
const MARK_OFFSET_MM: f64 = 4.0;
/// See [`MARK_SPAN_MM`].
const MARK_CORNER_MM: f64 = 12.0;
/// A part mark: the number's baseline under its centre, the up-arrow's tip and base
/// above it, and the arrow's half-width.
const MARK_BASELINE_MM: f64 = 1.2;
/// See [`MARK_BASELINE_MM`].
const MARK_TIP_MM: f64 = 5.5;
/// See [`MARK_BASELINE_MM`].
const MARK_BASE_MM: f64 = 2.8;
/// See [`MARK_BASELINE_MM`].
const MARK_HALF_WIDTH_MM: f64 = 1.6;
/// A part's number on its sheet, and in the assembly plan.
const PART_NUMBER_PT: f64 = 9.0;
/// See [`PART_NUMBER_PT`].
const PLAN_NUMBER_PT: f64 = 14.0;
/// A part's label, at least.
const PART_LABEL_PT: f64 = 10.0;
/// A target mark's line, and its cross's reach as a share of its radius.
const TARGET_LINE_MM: f64 = 0.25;
/// See [`TARGET_LINE_MM`].
const TARGET_CROSS: f64 = 1.3;
/// The assembly plan: its title's baseline under its top, the title's size and the
/// room after it, a note line per body size step, parts' gaps, the plan's greatest
/// height, the parts' outlines and their number's drop.
const PLAN_TITLE_BASELINE_MM: f64 = 8.0;
/// See [`PLAN_TITLE_BASELINE_MM`].
const PLAN_TITLE_PT: f64 = 12.5;
/// See [`PLAN_TITLE_BASELINE_MM`].
const PLAN_TITLE_AFTER_MM: f64 = 7.0;
/// See [`PLAN_TITLE_BASELINE_MM`].
const PLAN_NOTE_LINE_MM: f64 = 5.0;
/// See [`PLAN_TITLE_BASELINE_MM`].
const PLAN_GAP_MM: f64 = 3.0;
/// See [`PLAN_TITLE_BASELINE_MM`].
const PLAN_MOST_MM: f64 = 60.0;
/// See [`PLAN_TITLE_BASELINE_MM`].
const PLAN_OUTLINE_MM: f64 = 0.4;
/// See [`PLAN_TITLE_BASELINE_MM`].
const PLAN_NUMBER_DROP_MM: f64 = 2.5;
/// Radius of the round target marks that line parts up.
pub const TARGET_RADIUS_MM: f64 = 2.0;
/// Shade of a glue tab.
const TAB_TONE: f64 = 0.88;

/// How a drawing is cut for pages of one orientation.
struct Cutting {
    /// Where the content goes on such a page.
    frame: Frame,
    /// Landscape: the page is turned.
    turned: bool,
    cuts_x: Vec<f64>,
    cuts_y: Vec<f64>,
    windows: Vec<Window>,
}

impl Cutting {
    /// The parts of a drawing `width` × `height` (its mark band included) on pages
    /// whose content is `frame`: each part may reach into the side margins as far as
    /// the printer's safe margin, as a whole drawing may.
    fn new(
        frame: Frame,
        turned: bool,
        size: (f64, f64),
        seams: (&[f64], &[f64]),
    ) -> Self {
        let room = super::MARGIN_MM - super::SAFE_MARGIN_MM;
        let (tile_w, tile_h) =
            (frame.width + 2.0 * room, frame.bottom - frame.top - LABEL_MM);
        let cuts_x = balanced(size.0, tile_w, seams.0);
        let cuts_y = rows(size.1, tile_h, seams.1);
        let windows = windows(&cuts_x, &cuts_y);
        Cutting { frame, turned, cuts_x, cuts_y, windows }
    }

    /// Where the parts go: for each, its page (an index past `first_new` is a page
    /// the split adds, in this cutting's orientation) and the top of its label. `free`
    /// holds the pages already in use that have room, with where their room starts.
    fn placements(
        &self,
        mut free: Vec<(usize, f64)>,
        first_new: usize,
    ) -> (Vec<(usize, f64)>, usize) {
        let mut added = 0;
        let mut out = Vec::new();
        // Parts go in their numbers' order: never on a page before the last one's.
        let mut from = 0;
        for window in &self.windows {
            let needed = LABEL_MM + window.h + PART_GAP_MM;
            let slot = (from..free.len())
                .find(|&slot| free[slot].1 + needed <= self.frame.bottom + super::EPS_MM)
                .unwrap_or_else(|| {
                    free.push((first_new + added, self.frame.top));
                    added += 1;
                    free.len() - 1
                });
            from = slot;
            out.push(free[slot]);
            free[slot].1 += needed;
        }
        (out, added)
    }
}

/// The same page turned a quarter: its content frame in landscape, margins and footer
/// kept.
fn turned(frame: Frame) -> Frame {
    let page_width = frame.width + 2.0 * frame.left;
    let page_height = frame.bottom + super::footer::FOOTER_HEIGHT_MM;
    Frame {
        left: frame.left,
        width: page_height - 2.0 * frame.left,
        top: frame.top,
        bottom: page_width - super::footer::FOOTER_HEIGHT_MM,
    }
}

/// Where a split puts things, for one cutting.
struct Layout {
    /// The page and top of the assembly plan; `None` when it is drawn elsewhere.
    plan_at: Option<(usize, f64)>,
    /// Each part's page and the top of its label.
    placements: Vec<(usize, f64)>,
    /// Pages in use afterwards.
    used: usize,
    /// The first page in the cutting's orientation: the pages from it to `used` are
    /// turned if the cutting is.
    first_own: usize,
}

/// How `poster` is cut for pages whose content is `frame`: upright or turned to
/// landscape, whichever takes fewer sheets (upright when even), starting at `y` on
/// the last of `pages`. The drawing's size with its bleed and mark band, the
/// cutting and where everything goes.
fn choose(
    shaper: &Shaper,
    poster: &Poster,
    frame: Frame,
    y: f64,
    pages: &[Vec<Item>],
) -> ((f64, f64), Cutting, Layout) {
    let band = MARK_BAND_MM;
    let dx = poster.bleed + band;
    let width = poster.width + 2.0 * poster.bleed + 2.0 * band;
    let height = poster.height + 2.0 * band;
    let seams_x: Vec<f64> = poster.seams_x.iter().map(|x| x + dx).collect();
    let seams_y: Vec<f64> = poster.seams_y.iter().map(|y| y + band).collect();
    let size = (width, height);
    let options = [
        Cutting::new(frame, false, size, (&seams_x, &seams_y)),
        Cutting::new(turned(frame), true, size, (&seams_x, &seams_y)),
    ];
    let here = pages.len() - 1;
    // A page with nothing on it yet takes the cutting's orientation.
    let blank = pages[here].is_empty();
    let layout = |c: &Cutting| {
        let (plan_at, free, first_new) = if poster.plan_elsewhere {
            match (blank, c.turned) {
                (true, true) => (None, vec![(here, c.frame.top)], here + 1),
                (true, false) | (false, false) => (None, vec![(here, y)], here + 1),
                (false, true) => (None, Vec::new(), here + 1),
            }
        } else {
            // The plan goes under what is already on the page if it fits there, else
            // at the top of a page of the cutting's own orientation, parts after it.
            let plan = Plan::of(size, c);
            let plan_h = assembly_plan(
                shaper,
                poster,
                &plan,
                &c.windows,
                c.frame,
                0.0,
                &mut Vec::new(),
            ) + PART_GAP_MM;
            if y + plan_h <= frame.bottom {
                // Parts share the plan's page only when they are upright like it.
                let free = if c.turned { Vec::new() } else { vec![(here, y + plan_h)] };
                (Some((here, y)), free, here + 1)
            } else {
                let new = here + 1;
                (Some((new, c.frame.top)), vec![(new, c.frame.top + plan_h)], new + 1)
            }
        };
        let (placements, added) = c.placements(free, first_new);
        let first_own = if blank && poster.plan_elsewhere { here } else { here + 1 };
        Layout { plan_at, placements, used: first_new + added, first_own }
    };
    let (choice, layout) = options
        .into_iter()
        .map(|c| {
            let l = layout(&c);
            (c, l)
        })
        .min_by_key(|(c, l)| (l.used, c.windows.len(), c.turned))
        .expect("two cuttings");
    (size, choice, layout)
}

/// Splits `poster` into parts after an assembly plan (unless it is drawn elsewhere),
/// on pages of their own, upright or turned to landscape, whichever takes fewer
/// sheets. The drawing keeps its exact size. Returns the indices of the pages it
/// turned.
pub fn split(
    shaper: &Shaper,
    poster: &Poster,
    frame: Frame,
    y: f64,
    pages: &mut Vec<Vec<Item>>,
) -> Vec<usize> {
    let ((width, height), choice, layout) = choose(shaper, poster, frame, y, pages);
    let Layout { plan_at, placements, used, first_own } = layout;
    while pages.len() < used {
        pages.push(Vec::new());
    }
    // Every page in the cutting's own orientation is turned with it.
    let turned_pages: Vec<usize> =
        if choice.turned { (first_own..used).collect() } else { Vec::new() };
    let plan = Plan::of((width, height), &choice);
    let Cutting { frame: part_frame, cuts_x, cuts_y, windows, .. } = choice;
    let (cols, rows) = (plan.cols, plan.rows);
    let dx = poster.bleed + MARK_BAND_MM;
    let mut items: Vec<Item> =
        poster.items.iter().map(|i| i.translated(dx, MARK_BAND_MM)).collect();
    items.extend(targets(&cuts_x, &cuts_y, width, height));
    let frame_of =
        |page: usize| if turned_pages.contains(&page) { part_frame } else { frame };
    if let Some((page, top)) = plan_at {
        assembly_plan(
            shaper,
            poster,
            &plan,
            &windows,
            frame_of(page),
            top,
            &mut pages[page],
        );
    }
    let parts = Parts { cols, rows, cuts_x: &cuts_x, cuts_y: &cuts_y, items: &items };
    for (index, (window, &(page_index, part_top))) in
        windows.iter().zip(placements.iter()).enumerate()
    {
        let frame = frame_of(page_index);
        let mut page = Page::new(0.0, 0.0);
        let part = Part { index, window: *window, frame, top: part_top };
        draw_part(shaper, poster, &mut page, &parts, &part);
        pages[page_index].extend(page.items);
    }
    turned_pages
}

/// The plan of how `poster` splits when it starts a sheet whose content is `frame`
/// (its words left to go elsewhere): the drawing only, from (0, 0), at most
/// `width` wide, and its height and number of parts.
pub fn plan_figure(
    shaper: &Shaper,
    poster: &Poster,
    frame: Frame,
    width: f64,
) -> (Vec<Item>, f64, usize) {
    let (size, choice, _) = choose(shaper, poster, frame, frame.top, &[Vec::new()]);
    let plan = Plan::of(size, &choice);
    let room = Frame { left: 0.0, width, top: 0.0, bottom: f64::INFINITY };
    let mut items = Vec::new();
    let height = draw_plan(
        shaper,
        &plan,
        &choice.windows,
        room,
        0.0,
        poster.labels.reading,
        &mut items,
    );
    (items, height, choice.windows.len())
}

/// A drawing cut into `cols` × `rows` parts, as every part is drawn from it.
struct Parts<'a> {
    cols: usize,
    rows: usize,
    /// Where the parts meet across and down, with the drawing's outer edges.
    cuts_x: &'a [f64],
    cuts_y: &'a [f64],
    /// The whole drawing with its target marks, clipped to each part.
    items: &'a [Item],
}

/// One part, and where it goes.
struct Part {
    /// Its place in the split, row by row from 0.
    index: usize,
    /// What of the drawing it shows.
    window: Window,
    /// The content frame of the page it is on.
    frame: Frame,
    /// Where its label's top is.
    top: f64,
}

impl Part {
    /// Where the window's top-left corner goes on the page: below the label, and
    /// reaching into both side margins alike when the part is wider than the frame.
    fn offset(&self) -> (f64, f64) {
        let x = self.frame.left - ((self.window.w - self.frame.width) / 2.0).max(0.0);
        (x, self.top + LABEL_MM)
    }

    /// Where a point of the drawing lands on the page.
    fn local(&self, p: Point) -> Point {
        let (x, y) = self.offset();
        Point::new(x + p.x - self.window.x, y + p.y - self.window.y)
    }
}

/// Draws one part of a split: its label, glue tabs, the drawing clipped to it, its
/// cut line and its mark.
fn draw_part(
    shaper: &Shaper,
    poster: &Poster,
    page: &mut Page,
    parts: &Parts,
    part: &Part,
) {
    let (index, cols, rows) = (part.index, parts.cols, parts.rows);
    let (window, frame) = (part.window, part.frame);
    let (row, col) = (index / cols, index % cols);
    let label = poster
        .labels
        .part
        .replace("{part}", &(index + 1).to_string())
        .replace("{parts}", &(cols * rows).to_string())
        .replace("{row}", &(row + 1).to_string())
        .replace("{column}", &(col + 1).to_string());
    let size = PART_LABEL_PT.max(poster.labels.min_pt);
    let shaped = shaper.shape(&label, Style::Bold, size, poster.labels.reading);
    page.text(
        Point::new(start_x(&shaped, frame), part.top + PART_LABEL_BASELINE_MM),
        shaped,
    );
    // The part's label heads it in the outline and for screen readers; on a sheet of
    // parts only, the first part's label is the sheet's title.
    let role = match poster.plan_elsewhere && index == 0 {
        true => Role::Title,
        false => Role::Heading,
    };
    Tag::wrap_all(role, &mut page.items);
    // Glue tabs first, under the drawing.
    let (right, below) = (col + 1 < cols, row + 1 < rows);
    if right {
        let at = part.local(Point::new(parts.cuts_x[col + 1], window.y));
        page.rect(at, TAB_MM, window.h, Paint::fill(Color::gray(TAB_TONE)));
    }
    if below {
        let at = part.local(Point::new(window.x, parts.cuts_y[row + 1]));
        page.rect(at, window.w, TAB_MM, Paint::fill(Color::gray(TAB_TONE)));
    }
    let (x, y) = part.offset();
    for item in parts.items {
        for clipped in clip(item, &window) {
            page.items.push(clipped.translated(x, y));
        }
    }
    cut_outline(page, part);
    // The part's number and which way is up, where they will be covered or stay off
    // the board: in a glue tab, or in the mark band of the last part.
    let spot = if right {
        Point::new(
            parts.cuts_x[col + 1] + TAB_MM / 2.0,
            window.y + window.h.min(MARK_SPAN_MM) / 2.0 + MARK_OFFSET_MM,
        )
    } else if below {
        Point::new(
            window.x + window.w.min(MARK_SPAN_MM) / 2.0 + MARK_OFFSET_MM,
            parts.cuts_y[row + 1] + TAB_MM / 2.0,
        )
    } else {
        Point::new(
            window.x + window.w - MARK_CORNER_MM,
            window.y + window.h - MARK_BAND_MM / 2.0,
        )
    };
    let labels = &poster.labels;
    part_mark(shaper, page, part.local(spot), index + 1, (labels.reading, labels.min_pt));
}

/// The part's outline is its cut line: on a grid line wherever it meets a neighbour
/// laid over a tab.
fn cut_outline(page: &mut Page, part: &Part) {
    let window = part.window;
    let (a, b) = (
        part.local(Point::new(window.x, window.y)),
        part.local(Point::new(window.x + window.w, window.y + window.h)),
    );
    for (from, to) in [
        ((a.x, a.y), (b.x, a.y)),
        ((b.x, a.y), (b.x, b.y)),
        ((b.x, b.y), (a.x, b.y)),
        ((a.x, b.y), (a.x, a.y)),
    ] {
        page.line(
            Point::new(from.0, from.1),
            Point::new(to.0, to.1),
            super::cut::cut_stroke(),
        );
    }
}

/// A part's number with an arrow pointing to the top of the board, centred on `at`.
fn part_mark(
    shaper: &Shaper,
    page: &mut Page,
    at: Point,
    number: usize,
    (reading, min_pt): (Reading, f64),
) {
    let shaped = shaper.shape(
        &number.to_string(),
        Style::Bold,
        PART_NUMBER_PT.max(min_pt),
        reading,
    );
    page.text_centered(at.x, at.y + MARK_BASELINE_MM, shaped);
    let (tip, base) = (at.y - MARK_TIP_MM, at.y - MARK_BASE_MM);
    page.polygon(
        vec![
            Point::new(at.x, tip),
            Point::new(at.x + MARK_HALF_WIDTH_MM, base),
            Point::new(at.x - MARK_HALF_WIDTH_MM, base),
        ],
        Paint::fill(Color::BLACK),
    );
}

/// Where a line of text starts: at the left margin, or flush right when it reads
/// right to left.
fn start_x(line: &text::Shaped, frame: Frame) -> f64 {
    if line.rtl { frame.left + frame.width - line.width_mm() } else { frame.left }
}

/// Round target marks in the blank band around the drawing, in the middle of each glue
/// tab: the same mark prints on the tab and on the part laid over it, and stays off the
/// playing surface.
fn targets(cuts_x: &[f64], cuts_y: &[f64], width: f64, height: f64) -> Vec<Item> {
    let stroke = Stroke::solid(TARGET_LINE_MM);
    let mut marks = Vec::new();
    let mut mark = |c: Point| {
        let r = TARGET_RADIUS_MM;
        marks.push(Item::Circle { center: c, radius: r, paint: Paint::outline(stroke) });
        marks.push(Item::Line {
            from: Point::new(c.x - TARGET_CROSS * r, c.y),
            to: Point::new(c.x + TARGET_CROSS * r, c.y),
            stroke,
        });
        marks.push(Item::Line {
            from: Point::new(c.x, c.y - TARGET_CROSS * r),
            to: Point::new(c.x, c.y + TARGET_CROSS * r),
            stroke,
        });
    };
    let mid = MARK_BAND_MM / 2.0;
    for &x in &cuts_x[1..cuts_x.len() - 1] {
        for y in [mid, height - mid] {
            mark(Point::new(x + TAB_MM / 2.0, y));
        }
    }
    for &y in &cuts_y[1..cuts_y.len() - 1] {
        for x in [mid, width - mid] {
            mark(Point::new(x, y + TAB_MM / 2.0));
        }
    }
    marks
}

/// The split's shape, for the plan.
struct Plan {
    width: f64,
    height: f64,
    cols: usize,
    rows: usize,
}

impl Plan {
    /// The plan of a drawing `size` (with its band) cut as `cutting` cuts it.
    fn of(size: (f64, f64), cutting: &Cutting) -> Plan {
        let (cols, rows) = (cutting.cuts_x.len() - 1, cutting.cuts_y.len() - 1);
        Plan { width: size.0, height: size.1, cols, rows }
    }
}

/// How to put the parts together, with a small plan of them, from `top` down: each
/// part numbered in gluing order, its tabs shaded. Returns where the plan ends.
fn assembly_plan(
    shaper: &Shaper,
    poster: &Poster,
    plan: &Plan,
    windows: &[Window],
    frame: Frame,
    top: f64,
    page: &mut Vec<Item>,
) -> f64 {
    let mut out = Page::new(0.0, 0.0);
    let mut y = top + PLAN_TITLE_BASELINE_MM;
    let title = shaper.shape(
        &poster.labels.assembly_title,
        Style::Bold,
        PLAN_TITLE_PT,
        poster.labels.reading,
    );
    out.text(Point::new(start_x(&title, frame), y), title);
    y += PLAN_TITLE_AFTER_MM;
    let note = poster.labels.assembly_note.replace("{parts}", &windows.len().to_string());
    let body_pt = super::BODY_PT.max(poster.labels.min_pt);
    for line in
        shaper.wrap(&note, Style::Regular, body_pt, frame.width, poster.labels.reading)
    {
        out.text(Point::new(start_x(&line, frame), y), line);
        y += PLAN_NOTE_LINE_MM * body_pt / super::BODY_PT;
    }
    y += PART_GAP_MM;
    page.extend(out.items);
    draw_plan(shaper, plan, windows, frame, y, poster.labels.reading, page)
}

/// The plan itself, centred in `frame` from `top` down: not to scale, parts drawn
/// apart a little so each reads whole, numbered in gluing order, tabs shaded.
/// Returns where it ends.
fn draw_plan(
    shaper: &Shaper,
    plan: &Plan,
    windows: &[Window],
    frame: Frame,
    top: f64,
    reading: Reading,
    page: &mut Vec<Item>,
) -> f64 {
    let mut out = Page::new(0.0, 0.0);
    let y = top;
    let gap = PLAN_GAP_MM;
    let scale = ((frame.width - gap * (plan.cols - 1) as f64) / plan.width)
        .min((frame.bottom - y - gap * (plan.rows - 1) as f64) / plan.height)
        .min(PLAN_MOST_MM / plan.height)
        .min(0.5);
    let span = plan.width * scale + gap * (plan.cols - 1) as f64 + TAB_MM * scale;
    let left = frame.left + (frame.width - span) / 2.0;
    for (i, w) in windows.iter().enumerate() {
        let (r, c) = (i / plan.cols, i % plan.cols);
        let at = Point::new(
            left + w.x * scale + gap * c as f64,
            y + w.y * scale + gap * r as f64,
        );
        out.rect(
            at,
            w.w * scale,
            w.h * scale,
            Paint::both(Color::WHITE, Stroke::solid(PLAN_OUTLINE_MM)),
        );
        if c + 1 < plan.cols {
            out.rect(
                Point::new(at.x + (w.w - TAB_MM) * scale, at.y),
                TAB_MM * scale,
                w.h * scale,
                Paint::fill(Color::gray(TAB_TONE)),
            );
        }
        if r + 1 < plan.rows {
            out.rect(
                Point::new(at.x, at.y + (w.h - TAB_MM) * scale),
                w.w * scale,
                TAB_MM * scale,
                Paint::fill(Color::gray(TAB_TONE)),
            );
        }
        let number =
            shaper.shape(&(i + 1).to_string(), Style::Bold, PLAN_NUMBER_PT, reading);
        out.text_centered(
            at.x + w.w * scale / 2.0,
            at.y + w.h * scale / 2.0 + PLAN_NUMBER_DROP_MM,
            number,
        );
    }
    page.extend(out.items);
    y + plan.height * scale + gap * (plan.rows - 1) as f64
}

#[cfg(test)]
mod tests {
    use super::seams::cuts;
    use super::*;
    use crate::page::Stroke;

    #[test]
    fn a_side_that_fits_is_one_part() {
        assert_eq!(cuts(100.0, 180.0, &[10.0, 50.0]), [0.0, 100.0]);
    }

    #[test]
    fn parts_meet_on_grid_lines_with_room_for_a_tab() {
        let seams: Vec<f64> = (0..=10).map(|i| 5.0 + 32.0 * i as f64).collect();
        let cuts = cuts(330.0, 180.0, &seams);
        // The first part ends on the last grid line that leaves room for its tab.
        assert_eq!(cuts, [0.0, 165.0, 330.0]);
        let windows = windows(&cuts, &[0.0, 100.0]);
        assert_eq!(windows[0].w, 165.0 + TAB_MM);
        assert_eq!(windows[1], Window { x: 165.0, y: 0.0, w: 165.0, h: 100.0 });
        assert!(windows.iter().all(|w| w.w <= 180.0));
    }

    #[test]
    fn balanced_parts_are_as_many_and_even() {
        // A 19×19 Go board on A4: three parts across either way, but not 172 + 172 + 100.
        let seams: Vec<f64> = (0..19).map(|i| 12.0 + 22.0 * i as f64).collect();
        let (greedy, even) = (cuts(420.0, 180.0, &seams), balanced(420.0, 180.0, &seams));
        assert_eq!(greedy.len(), even.len());
        let widest = |c: &[f64]| c.windows(2).map(|w| w[1] - w[0]).fold(0.0, f64::max);
        assert!(widest(&even) < widest(&greedy), "{even:?} vs {greedy:?}");
        assert!(even[1..even.len() - 1].iter().all(|c| seams.contains(c)));
        for w in windows(&even, &[0.0, 100.0]) {
            assert!(w.w <= 180.0 + 1e-9, "{w:?}");
        }
    }

    #[test]
    fn lines_are_cut_at_the_window() {
        let window = Window { x: 10.0, y: 10.0, w: 20.0, h: 20.0 };
        let line = Item::Line {
            from: Point::new(0.0, 20.0),
            to: Point::new(50.0, 20.0),
            stroke: Stroke::solid(0.5),
        };
        let [Item::Line { from, to, .. }] = clip(&line, &window)[..] else { panic!() };
        assert_eq!((from, to), (Point::new(0.0, 10.0), Point::new(20.0, 10.0)));
        let outside = Item::Line {
            from: Point::new(0.0, 0.0),
            to: Point::new(5.0, 5.0),
            stroke: Stroke::solid(0.5),
        };
        assert!(clip(&outside, &window).is_empty());
    }

    #[test]
    fn shapes_are_kept_only_when_wholly_inside() {
        let window = Window { x: 0.0, y: 0.0, w: 20.0, h: 20.0 };
        let paint = Paint::outline(Stroke::solid(0.2));
        let inside = Item::Circle { center: Point::new(10.0, 10.0), radius: 5.0, paint };
        let across = Item::Circle { center: Point::new(18.0, 10.0), radius: 5.0, paint };
        assert_eq!(clip(&inside, &window).len(), 1);
        assert!(clip(&across, &window).is_empty());
        // A cut rectangle keeps its fill and its real sides only.
        let bar = Item::Rect {
            origin: Point::new(-10.0, 5.0),
            width: 20.0,
            height: 3.0,
            paint: Paint::both(crate::page::Color::WHITE, Stroke::solid(0.5)),
        };
        let parts = clip(&bar, &window);
        let lines = parts.iter().filter(|i| matches!(i, Item::Line { .. })).count();
        assert_eq!((parts.len(), lines), (4, 3), "fill, top, right and bottom sides");
    }
}
