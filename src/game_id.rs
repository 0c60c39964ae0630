//! The names of the games this build knows. Kits, templates and puzzles name a game
//! by its id; what a game is (its rules, facts and figures) lives in its home under
//! `games/`, which depends on those modules, so the id lives apart from it.

use std::fmt;

/// A game, as `game = "…"` names it in `kit.toml`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GameId {
    /// Three men's morris with sliding (`three-men-slide`).
    ThreeMenSlide,
    /// The 3×3 stacking game (`stack-top-roads`).
    StackTopRoads,
    /// Tak at 3×3 to 8×8 (`pathstone`).
    Pathstone,
    /// The connection game on a Go board (`crossway`).
    Crossway,
}

impl GameId {
    /// Every game, in the order listings show them (the registry's, in `games/`).
    pub const ALL: [GameId; 4] = [
        GameId::ThreeMenSlide,
        GameId::StackTopRoads,
        GameId::Pathstone,
        GameId::Crossway,
    ];

    /// Every game, in registry order.
    pub fn all() -> impl Iterator<Item = GameId> {
        GameId::ALL.into_iter()
    }

    /// The game `kit.toml` calls `name`, if there is one.
    pub fn parse(name: &str) -> Option<GameId> {
        GameId::all().find(|id| id.name() == name)
    }

    /// The name kits use (`three-men-slide`).
    pub fn name(self) -> &'static str {
        match self {
            GameId::ThreeMenSlide => "three-men-slide",
            GameId::StackTopRoads => "stack-top-roads",
            GameId::Pathstone => "pathstone",
            GameId::Crossway => "crossway",
        }
    }

    /// The names of every game, for messages.
    pub fn names() -> Vec<&'static str> {
        GameId::all().map(GameId::name).collect()
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
