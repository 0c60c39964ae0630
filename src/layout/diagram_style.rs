//! One style for every game's drawings: the tones of the two sides, the weights of
//! lines, the sizes of labels and the gaps around them, arrows, the symbol key's
//! samples and the proportions of a stack drawn side-on. A game's figures draw with
//! these, so that a diagram of one game reads like a diagram of another; sizes that
//! are a fact of one game's pieces stay beside that game's drawing.
//!
//! Lengths are in millimetres (`_MM`), type sizes in points (`_PT`); a bare name is a
//! share of something, said in its comment.

// Tones (0 black, 1 white).

/// Gray of the dark side's pieces: a light grey, clearly apart from white in greyscale
/// print, at under a third of the toner of the solid 70 % grey pieces once had (a sheet
/// of dark pieces is mostly face). Its letter is black, as a white one would not read on
/// so light a tone; the shape and the letter still tell the sides apart.
pub const DARK_TONE: f64 = 0.82;

/// Gray of the dark side in diagrams: dark enough that Black reads as black in
/// greyscale at arm's length, even on a layer too thin for its letter, which is white.
/// A diagram is a small area, so the toner that `DARK_TONE` saves does not matter.
pub const DIAGRAM_DARK_TONE: f64 = 0.3;

/// Gray of the dark side's marks on boards (edge bars): they carry no letter, so they
/// may be darker than a piece.
pub const DARK_MARK_TONE: f64 = 0.35;

/// Shading of a winning road's cells: pale enough that pieces and labels read on it.
pub const ROAD_TONE: f64 = 0.85;

/// A winning chain's band under the stones of a board of points: darker than a
/// road's cells, as it is a thin band rather than whole cells.
pub const CHAIN_TONE: f64 = 0.75;

/// Gray of a cut line or a faint rule: visible, yet lighter than anything drawn.
pub const CUT_LINE_TONE: f64 = 0.45;

// Lines.

/// A diagram's grid lines: thinner than its edges and its pieces' outlines' tone.
pub const GRID_LINE_MM: f64 = 0.35;

/// A diagram's side where the board ends: heavier than a grid line, as a road joins
/// two of them; a side where the diagram cuts the board stays a grid line.
pub const EDGE_LINE_MM: f64 = 1.0;

/// The outline of a piece in a diagram or a key, and of a box to write in.
pub const OUTLINE_MM: f64 = 0.3;

/// A cut line on a sheet of pieces.
pub const CUT_LINE_MM: f64 = 0.3;

// Labels.

/// Width of the band around a board's frame that holds its coordinates; a split
/// board's parts carry their labels in a band as wide.
pub const LABEL_BAND_MM: f64 = 9.0;

/// A diagram's caption, under it.
pub const CAPTION_PT: f64 = 8.0;

/// The least paper between a label and the stroke or piece beside it.
pub const LABEL_GAP_MM: f64 = 0.3;

/// Cap height as a share of the ascent in DejaVu Sans (729 / 928 units): how far a
/// figure or a capital rises above its baseline.
pub const CAP_OF_ASCENT: f64 = 0.79;

/// Points to millimetres, as the type sizes of labels are set.
pub const MM_PER_PT: f64 = 0.3528;

// Arrows.

/// The shaft of a move's arrow.
pub const ARROW_MM: f64 = 0.5;

/// An arrow's head is this many shaft widths long, and half as wide as long.
pub const ARROW_HEAD: f64 = 4.0;

/// A refused move's dashed shaft: dashes of this many shaft widths.
pub const ARROW_DASH: f64 = 3.0;

/// The cross on a refused move's arrow: its half-size as a share of the head's
/// length, and its strokes as a multiple of the shaft's width.
pub const ARROW_CROSS: f64 = 0.8;
/// See [`ARROW_CROSS`].
pub const ARROW_CROSS_STROKE: f64 = 1.4;

/// Room kept clear on each side of a diagram's grid lines, where a move's arrow runs:
/// half the width of the arrow's head and a gap, so that no label or stack meets an
/// arrow on any line.
pub const ARROW_LANE_MM: f64 = ARROW_MM * ARROW_HEAD / 2.0 + LABEL_GAP_MM;

// The symbol key under a sheet's diagrams.

/// The width of a key's sample of a line or an arrow.
pub const KEY_SAMPLE_MM: f64 = 14.0;

/// The height at which a key's samples stand on their line.
pub const KEY_MIDLINE_MM: f64 = 2.2;

/// The baseline of a key's sample label.
pub const KEY_BASELINE_MM: f64 = 3.2;

// Stacks drawn side-on, as shares of a cell.

/// How much of a cell's height a stack's layers fill at most.
pub const LAYERS_FILL: f64 = 0.66;

/// The least distance from a cell's left side to its stack.
pub const STACK_LEFT: f64 = 0.08;

/// A stack's width, when its labels leave it room.
pub const STACK_WIDTH: f64 = 0.62;

/// The foot of a stack: above the cell's lower side, clear of its line.
pub const STACK_FOOT: f64 = 0.84;

/// The thickest layer: a short stack stays a pile of bars, not a block.
pub const LAYER_MOST: f64 = 0.22;

/// The baseline of a stack's height label, at least.
pub const HEIGHT_LABEL_TOP: f64 = 0.3;

/// A stack's "+k" under its height, this many millimetres per label size step.
pub const LABEL_STEP_MM: f64 = 2.2;

/// The thinnest layer that carries its letter.
pub const LETTERED_LAYER_MM: f64 = 2.2;

/// A move's arrow starts and ends this share of a cell from the cells' centres.
pub const ARROW_INSET: f64 = 0.2;
