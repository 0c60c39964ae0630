//! Stack-top roads: the stacking game of flat stones only (no walls or Crowns),
//! on 3×3 with eight stones each as the rules document plays it, or on a board of up
//! to 8×8 with other numbers where a kit sets them. It shares the stacking engine
//! and drawings with Pathstone (`games/stacking`); what is its own is here: its
//! sizes, variant and templates.

use std::ops::RangeInclusive;

use super::stacking::{self, StackGame, StackSheets, Variant};
use super::{GameId, GameKit, Sheets, VerifiedExamples};
use crate::diag::Diagnostics;
use crate::kit::{Example, Kit, RuleKey};
use crate::puzzles::{self, Puzzle, PuzzleError, Request};
use crate::rules::{Engine, Game};
use crate::verify::{self, Verified};

/// Stack-top roads' home in the registry.
pub struct StackTopRoadsKit;

impl GameKit for StackTopRoadsKit {
    fn game_minutes(&self, size: u8) -> (u32, u32) {
        // 3×3 as the rules document says; each size up adds stones and turns.
        match size {
            0..=3 => (15, 25),
            4 => (20, 30),
            5 => (25, 40),
            6 => (30, 50),
            7 => (40, 60),
            _ => (45, 75),
        }
    }

    fn id(&self) -> GameId {
        GameId::STACK_TOP_ROADS
    }

    fn sizes(&self) -> RangeInclusive<u8> {
        3..=8
    }

    fn usual_sizes(&self) -> RangeInclusive<u8> {
        3..=3
    }

    fn rule_keys(&self) -> &'static [RuleKey] {
        const KEYS: &[RuleKey] = &[
            RuleKey { name: "stones", range: 1..=64 },
            RuleKey { name: "carry-limit", range: 1..=8 },
            RuleKey { name: "turn-limit", range: 10..=200 },
        ];
        KEYS
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
        let size = request.size;
        let variant = Variant::stack_top_roads_sized(size).with_params(&request.rules);
        let row = format!("x{size}");
        let start = format!("{} 1 1", vec![row; usize::from(size)].join("/"));
        let game = StackGame { variant };
        let shown = stacking::shown_whole(&game.variant, request.plies);
        let policy =
            puzzles::Policy { shown_whole: &shown, weight: &stacking::played_weight };
        puzzles::search(&game, self.id(), &start, &policy, request)
    }

    fn puzzle_facts(
        &self,
        puzzle: &Puzzle,
        rules: &crate::kit::RuleParams,
        asked: super::PuzzleFacts,
    ) -> Option<(&'static str, super::Facts)> {
        stacking::puzzle_facts(
            &Variant::stack_top_roads_sized(puzzle.size).with_params(rules),
            puzzle,
            asked,
        )
    }

    fn verify(&self, kit: &Kit) -> Result<Box<dyn VerifiedExamples>, Diagnostics> {
        // Examples are verified under the kit's own rules: its numbers, and the size
        // of their own position (which a build of another size refuses).
        let default = kit.board.default_size;
        let examples = verify::verify(kit, |position| {
            let rows =
                position.split_whitespace().next().unwrap_or("").split('/').count();
            let size = u8::try_from(rows).ok().filter(|s| self.sizes().contains(s));
            let variant = Variant::stack_top_roads_sized(size.unwrap_or(default));
            Ok(StackGame { variant: variant.with_params(kit.rule_params()) })
        })?;
        Ok(Box::new(StackTopRoadsExamples(examples)))
    }
}

/// A Stack-top roads kit's examples, replayed once, each at the size of its position.
struct StackTopRoadsExamples(Vec<Verified<StackGame>>);

impl VerifiedExamples for StackTopRoadsExamples {
    fn replayed(&self) -> usize {
        self.0.len()
    }

    fn sheets<'k>(
        &self,
        kit: &'k Kit,
        size: u8,
        puzzles: &[Example],
    ) -> Result<Box<dyn Sheets + 'k>, Diagnostics> {
        let variant = Variant::stack_top_roads_sized(size).with_params(kit.rule_params());
        let game = StackGame { variant: variant.clone() };
        // Every example is played on the board being built: one of another size is
        // told at its position, as the rules of this size refuse it.
        let wrong_size: Diagnostics = (self.0.iter())
            .filter(|verified| verified.game.variant.size != size)
            .filter_map(|verified| {
                let example = kit.examples.iter().find(|e| e.id == verified.id)?;
                let refusal = game.parse_state(&example.position).err()?;
                Some(verify::refused(kit, example, &refusal))
            })
            .collect();
        if !wrong_size.is_empty() {
            return Err(wrong_size);
        }
        let examples = verify::with_puzzles(&self.0, kit, puzzles, |_| Ok(game.clone()))?;
        Ok(Box::new(StackSheets::new(kit, variant, examples)))
    }
}
