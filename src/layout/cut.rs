//! How the pieces of a sheet are laid out for cutting, and the line they are cut on:
//! figures are told the layout, drawings and posters draw the line.

use super::diagram_style::{CUT_LINE_MM, CUT_LINE_TONE};
use crate::page::{Color, Stroke};

/// Room left between neighbouring pieces on a sheet, for the scissors: the cut line is
/// the piece's own outline, so this is all the paper between two pieces.
pub const CUT_GAP_MM: f64 = 1.5;

/// The house cut line ([`Stroke::CUT`]).
pub fn cut_stroke() -> Stroke {
    Stroke::CUT
}

/// How the pieces of a sheet are laid out for cutting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CutLayout {
    /// Edge to edge in rows, each piece's shape printed inside its cell: a block is
    /// cut apart along its grid lines, a few long straight cuts (a ruler and knife or
    /// a guillotine), and each square token carries its piece's shape.
    #[default]
    Grid,
    /// Apart, each piece cut along its own outline (round pieces stay round), for
    /// scissors or a cutting machine.
    Outline,
}

impl CutLayout {
    /// The layout `--cut` names (`grid`, `outline`).
    pub fn parse(text: &str) -> Option<CutLayout> {
        match text {
            "grid" => Some(CutLayout::Grid),
            "outline" => Some(CutLayout::Outline),
            _ => None,
        }
    }

    /// Its name, as `--cut` takes it and templates see it.
    pub fn name(self) -> &'static str {
        match self {
            CutLayout::Grid => "grid",
            CutLayout::Outline => "outline",
        }
    }

    /// The pitch between pieces: none on a grid, a cutting gap between outlines.
    pub fn gap(self) -> f64 {
        match self {
            CutLayout::Grid => 0.0,
            CutLayout::Outline => CUT_GAP_MM,
        }
    }

    /// The line a piece's outline is drawn with: the cut line when it is cut on its
    /// outline, a printed outline when it is cut on the grid.
    pub fn outline(self) -> Stroke {
        match self {
            CutLayout::Grid => {
                Stroke::solid(CUT_LINE_MM).colored(Color::gray(CUT_LINE_TONE))
            }
            CutLayout::Outline => cut_stroke(),
        }
    }
}
