//! What the two stacking games print, ready to draw: the variant at the board size
//! being built and the verified examples (each at its own board size).

use super::{StackGame, Variant, figures};
use crate::games::{Facts, Sheets};
use crate::kit::Kit;
use crate::layout::flow::Chunk;
use crate::layout::{FigureContext, FigureError};
use crate::verify::{Summary, Verified};

/// A stacking game's sheets for one board size.
pub(crate) struct StackSheets<'k> {
    kit: &'k Kit,
    variant: Variant,
    examples: Vec<Verified<StackGame>>,
}

impl<'k> StackSheets<'k> {
    /// Sheets for `variant`, with the kit's verified examples.
    pub(crate) fn new(
        kit: &'k Kit,
        variant: Variant,
        examples: Vec<Verified<StackGame>>,
    ) -> Self {
        StackSheets { kit, variant, examples }
    }
}

impl Sheets for StackSheets<'_> {
    fn summaries(&self) -> Vec<Summary> {
        self.examples.iter().map(Verified::summary).collect()
    }

    fn facts(&self, facts: &mut Facts) {
        let variant = &self.variant;
        let put = |facts: &mut Facts, k: &str, v: u32| {
            facts.insert(k.to_string(), v.to_string());
        };
        put(facts, "stones", variant.stones);
        put(facts, "stones_total", variant.stones + self.kit.pieces.spares);
        put(facts, "crowns", variant.crowns);
        // Crowns are printed with spares like the stones (none where the game has none).
        let crown_spares = if variant.crowns > 0 { self.kit.pieces.spares } else { 0 };
        put(facts, "crowns_total", variant.crowns + crown_spares);
        put(facts, "carry_limit", u32::from(variant.carry_limit));
        if let Some(limit) = variant.turn_limit {
            put(facts, "turn_limit", limit);
        }
        // The board's last column letter, for "columns A to C".
        facts.insert(
            "last_column".into(),
            char::from(b'A' + variant.size - 1).to_string(),
        );
        // Stack diagrams show at most one layer more than the board is wide.
        put(facts, "layers", u32::from(variant.size) + 1);
        // Preparation, for the contents sheet: a stone with a wall face is a strip to
        // cut, fold and glue (about a minute each); a flat square takes a quarter of
        // that. Rounded up to 5 minutes.
        let stones = 2 * (variant.stones + self.kit.pieces.spares);
        let minutes =
            if variant.walls { stones + 2 * variant.crowns } else { stones.div_ceil(4) };
        put(facts, "prep_minutes", minutes.div_ceil(5).max(1) * 5);
    }

    fn figure(
        &self,
        name: &str,
        args: &[String],
        cx: &FigureContext,
    ) -> Result<Vec<Chunk>, FigureError> {
        figures::figure(&self.variant, name, args, cx, &self.examples)
    }
}
