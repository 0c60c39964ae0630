//! Pathstone: the game Tak, on boards of 3×3 to 8×8, with walls and Crowns. It shares
//! the stacking engine and drawings with Stack-top roads (`games/stacking`); what is
//! its own is here: its sizes, variant per size, and templates.

use std::ops::RangeInclusive;

use super::stacking::{self, PATHSTONE_SIZES, StackGame, StackSheets, Variant};
use super::{GameId, GameKit, Sheets, VerifiedExamples};
use crate::diag::Diagnostics;
use crate::kit::{Example, Kit, RuleKey, RuleParams};
use crate::puzzles::{self, Puzzle, PuzzleError, Request};
use crate::rules::{Divided, Engine, Progress, Replay, RulesError};
use crate::rules_err;
use crate::verify;

/// Pathstone's home in the registry.
pub struct PathstoneKit;

impl GameKit for PathstoneKit {
    fn game_minutes(&self, size: u8) -> (u32, u32) {
        match size {
            0..=4 => (10, 15),
            5 => (20, 30),
            6 => (30, 45),
            7 => (40, 60),
            _ => (50, 75),
        }
    }

    fn id(&self) -> GameId {
        GameId::PATHSTONE
    }

    fn sizes(&self) -> RangeInclusive<u8> {
        PATHSTONE_SIZES
    }

    fn engine(&self) -> Box<dyn Engine> {
        Box::new(PathstoneAnySize)
    }

    fn templates(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("rule-card", include_str!("../../../templates/pathstone/rule-card.tera")),
            (
                "quick-start",
                include_str!("../../../templates/pathstone/quick-start.tera"),
            ),
            ("host-key", include_str!("../../../templates/pathstone/host-key.tera")),
            ("stones", include_str!("../../../templates/pathstone/stones.tera")),
            ("ledger", include_str!("../../../templates/pathstone/ledger.tera")),
        ]
    }

    fn plays_in_cells(&self) -> bool {
        true
    }

    fn rule_keys(&self) -> &'static [RuleKey] {
        const KEYS: &[RuleKey] = &[
            RuleKey { name: "stones", range: 1..=100 },
            RuleKey { name: "crowns", range: 0..=4 },
            RuleKey { name: "carry-limit", range: 1..=8 },
        ];
        KEYS
    }

    fn puzzles(&self, request: &Request) -> Result<Vec<Puzzle>, PuzzleError> {
        let size = request.size;
        let variant = Variant::pathstone(size).ok_or_else(|| PuzzleError::Size {
            game: self.id(),
            size,
            sizes: self.sizes(),
        })?;
        let variant = variant.with_params(&request.rules);
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
            &Variant::pathstone(puzzle.size)?.with_params(rules),
            puzzle,
            asked,
        )
    }

    fn verify(&self, kit: &Kit) -> Result<Box<dyn VerifiedExamples>, Diagnostics> {
        let params = kit.rule_params();
        let examples = verify::verify(kit, |position| rules_at(position, params))?;
        Ok(Box::new(PathstoneExamples(examples)))
    }
}

/// A Pathstone kit's examples, replayed once, each at its own board size (sized ones,
/// `road@3`, too); a build shows those [`verify::for_size`] picks for its size.
struct PathstoneExamples(Vec<verify::Verified<StackGame>>);

impl VerifiedExamples for PathstoneExamples {
    fn replayed(&self) -> usize {
        self.0.len()
    }

    fn sheets<'k>(
        &self,
        kit: &'k Kit,
        size: u8,
        puzzles: &[Example],
    ) -> Result<Box<dyn Sheets + 'k>, Diagnostics> {
        let variant = Variant::pathstone(size).ok_or_else(|| {
            vec![crate::diag::Diagnostic::file(
                &kit.kit_file,
                format!("Pathstone is played on 3×3 to 8×8, not {size}×{size}"),
            )]
        })?;
        let variant = variant.with_params(kit.rule_params());
        let params = kit.rule_params();
        let examples = verify::with_puzzles(&self.0, kit, puzzles, |position| {
            rules_at(position, params)
        })?;
        Ok(Box::new(StackSheets::new(kit, variant, verify::for_size(examples, size))))
    }
}

/// The rules an example is played by: at its own board size, so a 5×5 example can
/// show Crowns in a kit built for any size; always with the kit's own numbers.
fn rules_at(position: &str, params: &RuleParams) -> Result<StackGame, RulesError> {
    let game = game_for(position)?;
    Ok(StackGame { variant: game.variant.with_params(params) })
}

/// The rules at the size of a position: a TPS has one row per rank.
fn game_for(position: &str) -> Result<StackGame, RulesError> {
    let board = position.split_whitespace().next().unwrap_or("");
    let size = board.split('/').count();
    let variant = u8::try_from(size)
        .ok()
        .and_then(Variant::pathstone)
        .ok_or_else(|| rules_err!("a Pathstone board has 3 to 8 rows, found {size}"))?;
    Ok(StackGame { variant })
}

/// Pathstone at the size of whatever position it is given, so one game id serves
/// every board size on the command line.
struct PathstoneAnySize;

impl Engine for PathstoneAnySize {
    fn moves(&self, position: &str) -> Result<Vec<String>, RulesError> {
        game_for(position)?.moves(position)
    }

    fn moves_from(
        &self,
        position: &str,
        square: &str,
    ) -> Result<Vec<String>, RulesError> {
        Engine::moves_from(&game_for(position)?, position, square)
    }

    fn perft(&self, position: &str, depth: u32) -> Result<u64, RulesError> {
        Engine::perft(&game_for(position)?, position, depth)
    }

    fn perft_divide(
        &self,
        position: &str,
        depth: u32,
        progress: &mut Progress<'_>,
    ) -> Result<Divided, RulesError> {
        game_for(position)?.perft_divide(position, depth, progress)
    }

    fn replay(&self, position: &str, moves: &[String]) -> Result<Replay, RulesError> {
        game_for(position)?.replay(position, moves)
    }

    fn solve(
        &self,
        position: &str,
        plies: u32,
        budget: u64,
    ) -> Result<Option<Vec<String>>, RulesError> {
        Engine::solve(&game_for(position)?, position, plies, budget)
    }
}
