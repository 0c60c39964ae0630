//! The page model: what layout produces and the PDF writer prints.
//!
//! Every length is in millimetres, measured from the page's top-left corner with y
//! pointing down, as a ruler on the printed sheet would read it. Points exist only in
//! `pdf.rs`.

use crate::text::Shaped;

/// A point on the page, in millimetres from the top-left corner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Distance from the left edge.
    pub x: f64,
    /// Distance from the top edge.
    pub y: f64,
}

impl Point {
    /// A point at `x`, `y` millimetres.
    pub const fn new(x: f64, y: f64) -> Self {
        Point { x, y }
    }
}

/// An RGB colour with components from 0 to 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Color(pub f64, pub f64, pub f64);

impl Color {
    /// Full black: text and outlines.
    pub const BLACK: Color = Color(0.0, 0.0, 0.0);
    /// White: the light player's pieces.
    pub const WHITE: Color = Color(1.0, 1.0, 1.0);
    /// A grey of the given lightness (0 black, 1 white).
    pub const fn gray(level: f64) -> Color {
        Color(level, level, level)
    }
}

/// How a line or outline is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stroke {
    /// Line width in millimetres.
    pub width: f64,
    /// Line colour.
    pub color: Color,
    /// Dash and gap lengths in millimetres; `None` for a solid line.
    pub dash: Option<(f64, f64)>,
}

impl Stroke {
    /// A solid black line of the given width.
    pub const fn solid(width: f64) -> Stroke {
        Stroke { width, color: Color::BLACK, dash: None }
    }

    /// A dashed line: the house style for cut lines.
    pub const fn dashed(width: f64, dash: f64, gap: f64) -> Stroke {
        Stroke { width, color: Color::BLACK, dash: Some((dash, gap)) }
    }

    /// The house cut line: thin, dashed, mid grey. Drawn only where paper is cut, so
    /// the cut file (`preview/cut.rs`) finds a sheet's cut paths by it.
    pub const CUT: Stroke = Stroke::dashed(0.25, 2.0, 1.5).colored(Color::gray(0.45));

    /// The same line in another colour.
    pub const fn colored(self, color: Color) -> Stroke {
        Stroke { color, ..self }
    }
}

/// Fill and outline of a closed shape; either may be absent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Paint {
    /// Fill colour.
    pub fill: Option<Color>,
    /// Outline.
    pub stroke: Option<Stroke>,
}

impl Paint {
    /// Outline only.
    pub const fn outline(stroke: Stroke) -> Paint {
        Paint { fill: None, stroke: Some(stroke) }
    }

    /// Fill only.
    pub const fn fill(color: Color) -> Paint {
        Paint { fill: Some(color), stroke: None }
    }

    /// Fill and outline.
    pub const fn both(color: Color, stroke: Stroke) -> Paint {
        Paint { fill: Some(color), stroke: Some(stroke) }
    }
}

/// One thing drawn on a page.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)] // each variant's comment names its fields
pub enum Item {
    /// A straight line.
    Line { from: Point, to: Point, stroke: Stroke },
    /// An axis-aligned rectangle with its top-left corner at `origin`.
    Rect { origin: Point, width: f64, height: f64, paint: Paint },
    /// A circle.
    Circle { center: Point, radius: f64, paint: Paint },
    /// A closed polygon.
    Polygon { points: Vec<Point>, paint: Paint },
    /// Shaped text with its baseline starting at `origin`.
    Text { origin: Point, shaped: Shaped, color: Color },
    /// The items up to the matching [`Item::End`] are one run of a structure element
    /// (a heading, a paragraph…): what a screen reader reads. Items outside any run
    /// are decoration (footers, cut lines, rulers). Markers have no geometry, so they
    /// travel with their chunk through flowing and splitting.
    Begin(Tag),
    /// Ends the run begun by the last [`Item::Begin`].
    End,
}

impl Item {
    /// A structure marker ([`Item::Begin`] or [`Item::End`]), which draws nothing.
    pub fn is_marker(&self) -> bool {
        matches!(self, Item::Begin(_) | Item::End)
    }
}

/// What a run of items is in the document's structure.
#[derive(Clone, Debug, PartialEq)]
pub struct Tag {
    /// Its role.
    pub role: Role,
    /// The run continues the element of the run before it (the next line of a
    /// paragraph, on this page or the next) rather than starting a new one.
    pub continues: bool,
}

/// The role of a structure element, as a screen reader announces it.
#[derive(Clone, Debug, PartialEq)]
pub enum Role {
    /// The sheet's title.
    Title,
    /// A section heading.
    Heading,
    /// A paragraph (also a boxed note or a caption).
    Paragraph,
    /// One item of a list (a bullet or a box to tick); consecutive items form a list.
    ListItem,
    /// One cell of a table: consecutive cells form a table, and a cell that starts
    /// a row opens the row.
    Cell {
        /// A column heading rather than a cell of the body.
        head: bool,
        /// The first cell of its row.
        starts_row: bool,
    },
    /// A drawing, read as its alternative text.
    Figure {
        /// What the drawing shows, in the sheet's language.
        alt: String,
    },
}

impl Tag {
    /// Wraps each chunk's text in a run of `role`, the first starting the element
    /// and the others continuing it: one element however many lines or pages it
    /// takes. Drawings around the text (a bullet, a note's box) stay decoration.
    pub fn wrap_text<'a>(role: Role, runs: impl IntoIterator<Item = &'a mut Vec<Item>>) {
        let mut continues = false;
        for items in runs {
            let is_text = |i: &Item| matches!(i, Item::Text { .. });
            let (Some(first), Some(last)) =
                (items.iter().position(is_text), items.iter().rposition(is_text))
            else {
                continue;
            };
            items.insert(last + 1, Item::End);
            items.insert(first, Item::Begin(Tag { role: role.clone(), continues }));
            continues = true;
        }
    }

    /// Wraps each of `runs` whole (drawings too) in a run of `role`, the first
    /// starting the element and the others continuing it: one drawing over rows
    /// that may fall on two pages.
    pub fn wrap_each<'a>(role: Role, runs: impl IntoIterator<Item = &'a mut Vec<Item>>) {
        let mut continues = false;
        for items in runs.into_iter().filter(|items| !items.is_empty()) {
            items.insert(0, Item::Begin(Tag { role: role.clone(), continues }));
            items.push(Item::End);
            continues = true;
        }
    }

    /// Wraps each piece of text outside any run (a form's field label, a heading
    /// drawn by a figure) in a run of `role` of its own, so that no words are left
    /// as decoration.
    pub fn wrap_loose_text(role: Role, items: &mut Vec<Item>) {
        let mut out = Vec::with_capacity(items.len());
        let mut depth = 0usize;
        for item in items.drain(..) {
            match item {
                Item::Begin(_) => depth += 1,
                Item::End => depth = depth.saturating_sub(1),
                Item::Text { .. } if depth == 0 => {
                    out.push(Item::Begin(Tag { role: role.clone(), continues: false }));
                    out.push(item);
                    out.push(Item::End);
                    continue;
                }
                _ => {}
            }
            out.push(item);
        }
        *items = out;
    }

    /// Wraps all of `items` in one run of `role`.
    pub fn wrap_all(role: Role, items: &mut Vec<Item>) {
        if items.is_empty() {
            return;
        }
        items.insert(0, Item::Begin(Tag { role, continues: false }));
        items.push(Item::End);
    }
}

/// One page: its size and what is drawn on it, in drawing order.
#[derive(Clone, Debug, PartialEq)]
pub struct Page {
    /// Page width in millimetres.
    pub width: f64,
    /// Page height in millimetres.
    pub height: f64,
    /// Everything drawn, bottom first.
    pub items: Vec<Item>,
}

impl Page {
    /// An empty page of the given size.
    pub fn new(width: f64, height: f64) -> Self {
        Page { width, height, items: Vec::new() }
    }

    /// Draws a line.
    pub fn line(&mut self, from: Point, to: Point, stroke: Stroke) {
        self.items.push(Item::Line { from, to, stroke });
    }

    /// Draws a rectangle.
    pub fn rect(&mut self, origin: Point, width: f64, height: f64, paint: Paint) {
        self.items.push(Item::Rect { origin, width, height, paint });
    }

    /// Draws a circle.
    pub fn circle(&mut self, center: Point, radius: f64, paint: Paint) {
        self.items.push(Item::Circle { center, radius, paint });
    }

    /// Draws a closed polygon.
    pub fn polygon(&mut self, points: Vec<Point>, paint: Paint) {
        self.items.push(Item::Polygon { points, paint });
    }

    /// Draws shaped text with its baseline starting at `origin`.
    pub fn text(&mut self, origin: Point, shaped: Shaped) {
        self.items.push(Item::Text { origin, shaped, color: Color::BLACK });
    }

    /// Draws shaped text centred horizontally on `center_x`.
    pub fn text_centered(&mut self, center_x: f64, baseline: f64, shaped: Shaped) {
        let x = center_x - shaped.width_mm() / 2.0;
        self.text(Point::new(x, baseline), shaped);
    }
}

impl Item {
    /// The item moved by `dx`, `dy` millimetres.
    pub fn translated(&self, dx: f64, dy: f64) -> Item {
        let mv = |p: &Point| Point::new(p.x + dx, p.y + dy);
        match self {
            Item::Line { from, to, stroke } => {
                Item::Line { from: mv(from), to: mv(to), stroke: *stroke }
            }
            Item::Rect { origin, width, height, paint } => Item::Rect {
                origin: mv(origin),
                width: *width,
                height: *height,
                paint: *paint,
            },
            Item::Circle { center, radius, paint } => {
                Item::Circle { center: mv(center), radius: *radius, paint: *paint }
            }
            Item::Polygon { points, paint } => {
                Item::Polygon { points: points.iter().map(mv).collect(), paint: *paint }
            }
            Item::Text { origin, shaped, color } => {
                Item::Text { origin: mv(origin), shaped: shaped.clone(), color: *color }
            }
            Item::Begin(_) | Item::End => self.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{Reading, Shaper, Style};

    #[test]
    fn wrapped_text_starts_one_element_and_continues_it_and_leaves_marks_out() {
        let text = || Item::Text {
            origin: Point::new(0.0, 0.0),
            shaped: Shaper::new().shape("word", Style::Regular, 10.0, Reading::Natural),
            color: Color::BLACK,
        };
        let dot = Item::Circle {
            center: Point::new(1.0, 1.0),
            radius: 1.0,
            paint: Paint::fill(Color::BLACK),
        };
        let mut runs = [vec![text(), dot.clone()], Vec::new(), vec![text()]];
        Tag::wrap_text(Role::ListItem, runs.iter_mut());
        let begin = |continues| Item::Begin(Tag { role: Role::ListItem, continues });
        assert_eq!(runs[0], [begin(false), text(), Item::End, dot]);
        assert!(runs[1].is_empty());
        assert_eq!(runs[2], [begin(true), text(), Item::End]);
        // Flowing moves the drawing and keeps the markers.
        let moved: Vec<Item> = runs[2].iter().map(|i| i.translated(5.0, 5.0)).collect();
        assert_eq!(moved[0], begin(true));
        assert_eq!(moved[2], Item::End);
    }
}
