//! What a game needs to live outside this library: the seam a game implements
//! ([`GameKit`], [`VerifiedExamples`], [`Sheets`], the rules trait [`Game`]), the checks
//! it hands its rules to ([`verify()`], [`with_puzzles`], [`for_size`], [`search`]), and what its figures draw with (the context, the
//! page, text styles, the shared drawing helpers and [`diagram_style`]).
//!
//! A program adds its games to the built-in ones and runs the command with them:
//!
//! ```no_run
//! # fn fifth() -> &'static dyn tablekit::game::GameKit { unimplemented!() }
//! let games = tablekit::game::Games::builtin().with(fifth());
//! tablekit::cli::run_with(games);
//! ```
//!
//! `docs/adding-a-game.md` walks through a game, and `tests/fixtures/fifth-game/` is
//! the smallest one written against this module alone.

pub use crate::diag::{Diagnostic, Diagnostics};
pub use crate::game_id::GameId;
pub use crate::games::{
    Facts, GameKit, Games, PuzzleFacts, Sheets, VerifiedExamples, install, number,
};
pub use crate::kit::{Example, Kit, RuleParams};
pub use crate::layout::flow::Chunk;
pub use crate::layout::poster::Poster;
pub use crate::layout::{
    FigureContext, FigureError, MIN_LABEL_PT, diagram_style, draw, table,
};
pub use crate::page::{Color, Page, Paint, Point, Stroke};
pub use crate::puzzles::{Policy, Puzzle, PuzzleError, Request, search};
pub use crate::rules::{Engine, Fault, Game, Outcome, RulesError, perft};
pub use crate::rules_err;
pub use crate::text::{Shaped, Shaper, Style};
pub use crate::verify::{Summary, Verified, When, for_size, verify, with_puzzles};
