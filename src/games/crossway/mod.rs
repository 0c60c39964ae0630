//! Crossway: a connection game on the points of a Go board, played with a Go set or
//! paper stones. Rules in [`rules`], drawings in [`figures`].

mod figures;
pub(crate) mod rules;

use std::ops::RangeInclusive;

use super::{Facts, GameId, GameKit, Sheets, VerifiedExamples, number};
use crate::diag::Diagnostics;
use crate::kit::{Example, Kit};
use crate::layout::flow::Chunk;
use crate::layout::{FigureContext, FigureError};
use crate::puzzles::{self, Puzzle, PuzzleError, Request};
use crate::rules::Engine;
use crate::verify::{self, Summary, Verified};
use rules::Crossway;

/// Crossway's home in the registry.
pub struct CrosswayKit;

impl GameKit for CrosswayKit {
    fn game_minutes(&self, size: u8) -> (u32, u32) {
        // About a stone every 12 to 20 seconds, and at most half the points filled
        // before a path joins: 15 to 25 minutes on 9×9, rounded to 5.
        let points = u32::from(size) * u32::from(size);
        let round = |m: u32| (m.div_ceil(5) * 5).max(5);
        (round(points * 10 / 54), round(points * 10 / 32))
    }

    fn id(&self) -> GameId {
        GameId::CROSSWAY
    }

    fn sizes(&self) -> RangeInclusive<u8> {
        rules::MIN_SIZE..=rules::MAX_SIZE
    }

    fn engine(&self) -> Box<dyn Engine> {
        Box::new(Crossway)
    }

    fn board_keys(&self) -> &'static [&'static str] {
        &["row-spacing-mm"]
    }

    fn puzzle_size(&self) -> u8 {
        // The smallest board the kit prints; the rules also know 3×3 and 4×4.
        5
    }

    fn templates(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("rule-card", include_str!("../../../templates/crossway/rule-card.tera")),
            ("quick-start", include_str!("../../../templates/crossway/quick-start.tera")),
            ("host-key", include_str!("../../../templates/crossway/host-key.tera")),
            ("stones", include_str!("../../../templates/crossway/stones.tera")),
            ("ledger", include_str!("../../../templates/crossway/ledger.tera")),
            ("board", include_str!("../../../templates/crossway/board.tera")),
        ]
    }

    fn puzzles(&self, request: &Request) -> Result<Vec<Puzzle>, PuzzleError> {
        let row = ".".repeat(usize::from(request.size));
        let start = format!("{} V", vec![row; usize::from(request.size)].join("/"));
        puzzles::search(
            &Crossway,
            self.id(),
            &start,
            &puzzles::Policy::uniform(),
            request,
        )
    }

    fn verify(&self, kit: &Kit) -> Result<Box<dyn VerifiedExamples>, Diagnostics> {
        Ok(Box::new(CrosswayExamples(verify::verify(kit, |_| Ok(Crossway))?)))
    }
}

/// A Crossway kit's examples, replayed once: each position carries its own board
/// size, so every build size shows them all.
struct CrosswayExamples(Vec<Verified<Crossway>>);

impl VerifiedExamples for CrosswayExamples {
    fn replayed(&self) -> usize {
        self.0.len()
    }

    fn sheets<'k>(
        &self,
        kit: &'k Kit,
        size: u8,
        puzzles: &[Example],
    ) -> Result<Box<dyn Sheets + 'k>, Diagnostics> {
        let examples = verify::with_puzzles(&self.0, kit, puzzles, |_| Ok(Crossway))?;
        let examples = verify::for_size(examples, size);
        Ok(Box::new(CrosswaySheets { kit, size, examples }))
    }
}

/// Crossway ready to draw: the kit, the board size and the verified examples.
struct CrosswaySheets<'k> {
    kit: &'k Kit,
    size: u8,
    examples: Vec<Verified<Crossway>>,
}

impl Sheets for CrosswaySheets<'_> {
    fn summaries(&self) -> Vec<Summary> {
        self.examples.iter().map(Verified::summary).collect()
    }

    fn facts(&self, facts: &mut Facts) {
        let (kit, size) = (self.kit, self.size);
        let (v, h) = rules::stones_needed(size);
        let spares = kit.pieces.spares;
        let row_spacing = kit.board.row_spacing_mm.unwrap_or(kit.board.spacing_mm);
        for (key, value) in [
            ("points", (u32::from(size) * u32::from(size)).to_string()),
            // The board's last column letter, for "columns a to i".
            ("last_column", char::from(b'a' + size - 1).to_string()),
            ("stones_v", (v + spares).to_string()),
            ("stones_h", (h + spares).to_string()),
            ("row_spacing_mm", number(row_spacing)),
            // Preparation, for the contents sheet: a paper stone is a square cut
            // out in about 15 seconds; rounded up to 5 minutes.
            (
                "prep_minutes",
                ((v + h + 2 * spares).div_ceil(4).div_ceil(5).max(1) * 5).to_string(),
            ),
        ] {
            facts.insert(key.to_string(), value);
        }
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
