//! What the two stacking games print, ready to draw: the variant at the board size
//! being built and the verified examples (each at its own board size).

use super::{StackGame, Variant, figures};
use crate::games::{Facts, Sheets};
use crate::kit::Kit;
use crate::layout::FigureContext;
use crate::layout::flow::Chunk;
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
        let mut put = |k: &str, v: u32| {
            facts.insert(k.to_string(), v.to_string());
        };
        put("stones", variant.stones);
        put("stones_total", variant.stones + self.kit.pieces.spares);
        put("crowns", variant.crowns);
        put("carry_limit", u32::from(variant.carry_limit));
        if let Some(limit) = variant.turn_limit {
            put("turn_limit", limit);
        }
    }

    fn figure(
        &self,
        name: &str,
        args: &[String],
        cx: &FigureContext,
    ) -> Result<Vec<Chunk>, String> {
        figures::figure(&self.variant, name, args, cx, &self.examples)
    }
}
