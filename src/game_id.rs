//! The names of the games this program knows. Kits, templates and puzzles name a game
//! by its id; what a game is (its rules, facts and figures) lives in its home under
//! `games/`, which depends on those modules, so the id lives apart from it.
//!
//! The set of games is open: a program may add games of its own to the built-in ones
//! (`games::Games`). Kits are read deep in the pipeline, far from the command that
//! knows which games it carries, so the ids of the games in play are installed here
//! once at start-up, as the built-in kits are in `io`; until then (a library user,
//! the unit tests) they are the built-in games.

use std::fmt;
use std::sync::OnceLock;

/// A game, as `game = "…"` names it in `kit.toml`: an open set of names, the built-in
/// games' among them as associated constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameId(&'static str);

/// The ids of the games in play, in registry order, once a program installed them.
static INSTALLED: OnceLock<Vec<GameId>> = OnceLock::new();

impl GameId {
    /// Three men's morris with sliding (`three-men-slide`).
    pub const THREE_MEN_SLIDE: GameId = GameId("three-men-slide");
    /// The 3×3 stacking game (`stack-top-roads`).
    pub const STACK_TOP_ROADS: GameId = GameId("stack-top-roads");
    /// Tak at 3×3 to 8×8 (`pathstone`).
    pub const PATHSTONE: GameId = GameId("pathstone");
    /// The connection game on a Go board (`crossway`).
    pub const CROSSWAY: GameId = GameId("crossway");

    /// The built-in games, in the order listings show them (the built-in registry's).
    pub const BUILTIN: [GameId; 4] = [
        GameId::THREE_MEN_SLIDE,
        GameId::STACK_TOP_ROADS,
        GameId::PATHSTONE,
        GameId::CROSSWAY,
    ];

    /// The id of a game called `name` in kits: lowercase letters, digits and inner
    /// hyphens, as a kit's own id.
    pub const fn new(name: &'static str) -> GameId {
        GameId(name)
    }

    /// Every game in play, in registry order: the installed ones, or the built-in
    /// games when none were installed.
    pub fn all() -> impl Iterator<Item = GameId> {
        let installed = INSTALLED.get().map(Vec::as_slice);
        installed.unwrap_or(&GameId::BUILTIN).iter().copied()
    }

    /// The game in play that `kit.toml` calls `name`, if there is one.
    pub fn parse(name: &str) -> Option<GameId> {
        GameId::all().find(|id| id.name() == name)
    }

    /// The name kits use (`three-men-slide`).
    pub fn name(self) -> &'static str {
        self.0
    }

    /// The names of every game in play, for messages.
    pub fn names() -> Vec<&'static str> {
        GameId::all().map(GameId::name).collect()
    }

    /// Sets the games in play, once, before any kit is read (`games::install`).
    /// Returns false if they were already set, and leaves them as they were.
    pub(crate) fn install(ids: Vec<GameId>) -> bool {
        INSTALLED.set(ids).is_ok()
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
