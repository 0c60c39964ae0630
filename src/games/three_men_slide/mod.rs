//! Three-men slide: three men's morris on a 3×3 board of points, placing then
//! sliding along the lines. Rules in [`rules`], drawings in [`figures`].

mod figures;
pub(crate) mod rules;

use std::collections::BTreeMap;
use std::ops::RangeInclusive;

use super::{Facts, GameId, GameKit, Sheets, VerifiedExamples};
use crate::diag::Diagnostics;
use crate::kit::{Example, Kit};
use crate::layout::flow::Chunk;
use crate::layout::{FigureContext, FigureError};
use crate::puzzles::{self, Puzzle, PuzzleError, Request};
use crate::rules::Engine;
use crate::verify::{self, Summary, Verified};
use rules::ThreeMenSlide;

/// Three-men slide's home in the registry.
pub struct ThreeMenSlideKit;

impl GameKit for ThreeMenSlideKit {
    fn game_minutes(&self, _size: u8) -> (u32, u32) {
        (10, 15)
    }

    fn id(&self) -> GameId {
        GameId::THREE_MEN_SLIDE
    }

    fn sizes(&self) -> RangeInclusive<u8> {
        3..=3
    }

    fn engine(&self) -> Box<dyn Engine> {
        Box::new(ThreeMenSlide)
    }

    fn board_keys(&self) -> &'static [&'static str] {
        &["point-diameter-mm"]
    }

    fn templates(&self) -> &'static [(&'static str, &'static str)] {
        &[
            (
                "rule-card",
                include_str!("../../../templates/three-men-slide/rule-card.tera"),
            ),
            (
                "quick-start",
                include_str!("../../../templates/three-men-slide/quick-start.tera"),
            ),
            (
                "host-key",
                include_str!("../../../templates/three-men-slide/host-key.tera"),
            ),
        ]
    }

    fn puzzles(&self, request: &Request) -> Result<Vec<Puzzle>, PuzzleError> {
        let policy = puzzles::Policy::uniform();
        puzzles::search(&ThreeMenSlide, self.id(), ".../.../... A", &policy, request)
    }

    fn verify(&self, kit: &Kit) -> Result<Box<dyn VerifiedExamples>, Diagnostics> {
        Ok(Box::new(ThreeMenExamples(verify::verify(kit, |_| Ok(ThreeMenSlide))?)))
    }
}

/// A Three-men slide kit's examples, replayed once: the game has one board size.
struct ThreeMenExamples(Vec<Verified<ThreeMenSlide>>);

impl VerifiedExamples for ThreeMenExamples {
    fn replayed(&self) -> usize {
        self.0.len()
    }

    fn sheets<'k>(
        &self,
        kit: &'k Kit,
        _size: u8,
        puzzles: &[Example],
    ) -> Result<Box<dyn Sheets + 'k>, Diagnostics> {
        let examples =
            verify::with_puzzles(&self.0, kit, puzzles, |_| Ok(ThreeMenSlide))?;
        Ok(Box::new(ThreeMenSheets { kit, examples }))
    }
}

/// Three-men slide ready to draw: the kit and its verified examples.
struct ThreeMenSheets<'k> {
    kit: &'k Kit,
    examples: Vec<Verified<ThreeMenSlide>>,
}

impl Sheets for ThreeMenSheets<'_> {
    fn summaries(&self) -> Vec<Summary> {
        self.examples.iter().map(Verified::summary).collect()
    }

    fn facts(&self, facts: &mut Facts) {
        let spares = self.kit.pieces.spares;
        let mut put = |k: &str, v: u32| {
            facts.insert(k.to_string(), v.to_string());
        };
        put("counters", rules::COUNTERS_PER_PLAYER);
        put("counters_total", rules::COUNTERS_PER_PLAYER + spares);
        put("turn_limit", rules::SLIDING_TURN_LIMIT);
        put("repetitions", rules::REPETITION_LIMIT);
        // Preparation, for the contents sheet: eight counters to cut, rounded up to 5
        // minutes.
        put(
            "prep_minutes",
            (2 * (rules::COUNTERS_PER_PLAYER + spares)).div_ceil(4).div_ceil(5).max(1)
                * 5,
        );
    }

    fn lists(&self) -> BTreeMap<&'static str, Vec<String>> {
        // Reachable positions where the player to move is stuck: the host key's answer.
        BTreeMap::from([("stuck", rules::stuck_positions())])
    }

    fn figure(
        &self,
        name: &str,
        args: &[String],
        cx: &FigureContext,
    ) -> Result<Vec<Chunk>, FigureError> {
        figures::figure(name, args, cx, &self.examples)
    }
}
