//! Stack-top roads: the 3×3 stacking game, eight flat stones each, no walls or
//! Crowns. It shares the stacking engine and drawings with Pathstone
//! (`games/stacking`); what is its own is here: its size, variant and templates.

use std::ops::RangeInclusive;

use super::stacking::{StackGame, StackSheets, Variant};
use super::{GameId, GameKit, Sheets};
use crate::diag::Diagnostics;
use crate::kit::Kit;
use crate::puzzles::{self, Puzzle, PuzzleError, Request};
use crate::rules::Engine;
use crate::verify;

/// Stack-top roads' home in the registry.
pub struct StackTopRoadsKit;

impl GameKit for StackTopRoadsKit {
    fn id(&self) -> GameId {
        GameId::StackTopRoads
    }

    fn sizes(&self) -> RangeInclusive<u8> {
        3..=3
    }

    fn engine(&self) -> Box<dyn Engine> {
        Box::new(StackGame { variant: Variant::stack_top_roads() })
    }

    fn templates(&self) -> &'static [(&'static str, &'static str)] {
        &[
            (
                "rule-card",
                include_str!("../../../templates/stack-top-roads/rule-card.tera"),
            ),
            (
                "quick-start",
                include_str!("../../../templates/stack-top-roads/quick-start.tera"),
            ),
            (
                "host-key",
                include_str!("../../../templates/stack-top-roads/host-key.tera"),
            ),
        ]
    }

    fn plays_in_cells(&self) -> bool {
        true
    }

    fn puzzles(&self, request: &Request) -> Result<Vec<Puzzle>, PuzzleError> {
        let game = StackGame { variant: Variant::stack_top_roads() };
        puzzles::search(&game, self.id(), "x3/x3/x3 1 1", request)
    }

    fn prepare<'k>(
        &self,
        kit: &'k Kit,
        _size: u8,
    ) -> Result<Box<dyn Sheets + 'k>, Diagnostics> {
        let variant = Variant::stack_top_roads();
        let examples =
            verify::verify(kit, |_| Ok(StackGame { variant: variant.clone() }))?;
        Ok(Box::new(StackSheets::new(kit, variant, examples)))
    }
}
