//! The games: one home each, and the one registry that lists them.
//!
//! A game's folder owns everything that belongs to it: its rules engine, the facts its
//! strings may quote, its figures (board, pieces, ledger, diagrams), its templates and
//! the checks of its example claims. The shared pipeline sees a game only through
//! [`GameKit`] and [`Sheets`]; `docs/adding-a-game.md` walks through adding one.

mod crossway;
mod pathstone;
mod stack_top_roads;
mod stacking;
mod three_men_slide;

use std::collections::BTreeMap;
use std::ops::RangeInclusive;
use std::sync::OnceLock;

use crate::diag::Diagnostics;
use crate::game_id::GameId;
use crate::kit::{Example, Kit, Schema};
use crate::layout::flow::Chunk;
use crate::layout::{FigureContext, FigureError};
use crate::puzzles::{Puzzle, PuzzleError, Request};
use crate::rules::Engine;
use crate::verify::Summary;

/// The built-in games, in the order listings show them ([`GameId::BUILTIN`]'s).
/// Adding a built-in game adds one line here and one constant to [`GameId`].
const BUILTIN: &[&dyn GameKit] = &[
    &three_men_slide::ThreeMenSlideKit,
    &stack_top_roads::StackTopRoadsKit,
    &pathstone::PathstoneKit,
    &crossway::CrosswayKit,
];

/// A set of games, in the order listings show them: the built-in ones, and any a
/// program adds (a game that lives outside this library). The command takes one
/// (`cli::run_with`); the shipped `tablekit` passes [`Games::builtin`].
#[derive(Clone)]
pub struct Games {
    homes: Vec<&'static dyn GameKit>,
}

impl Games {
    /// The games this library carries.
    pub fn builtin() -> Games {
        Games { homes: BUILTIN.to_vec() }
    }

    /// The same games and `game` after them.
    ///
    /// # Panics
    /// If a game of the same id is already in the set: kits name games by id.
    #[must_use]
    pub fn with(mut self, game: &'static dyn GameKit) -> Games {
        let id = game.id();
        assert!(self.homes.iter().all(|home| home.id() != id), "two games named {id}");
        self.homes.push(game);
        self
    }

    /// The ids of the games, in order.
    pub fn ids(&self) -> Vec<GameId> {
        self.homes.iter().map(|home| home.id()).collect()
    }
}

/// The games in play, once a program installed them ([`install`]).
static INSTALLED: OnceLock<Games> = OnceLock::new();

/// Makes `games` the games in play for the rest of the process: kits may name them,
/// and every command lists and builds them. Kits are loaded, verified and drawn far
/// from the command that knows which games it carries, so the set is installed once
/// at start-up (as `io::set_builtin_kits` installs the kits) rather than passed down
/// every stage. Until a program installs a set, the built-in games are in play.
/// Returns false, and changes nothing, if a set was installed before.
pub fn install(games: Games) -> bool {
    let ids = games.ids();
    INSTALLED.set(games).is_ok() && GameId::install(ids)
}

/// The games in play, in registry order.
fn registry() -> &'static [&'static dyn GameKit] {
    INSTALLED.get().map_or(BUILTIN, |games| games.homes.as_slice())
}

/// The game's home: its rules, facts, figures and templates.
pub fn home(game: GameId) -> &'static dyn GameKit {
    *registry().iter().find(|home| home.id() == game).expect("every id is registered")
}

/// `count` puzzles of `plies` plies for `game` at board `size`, from random games
/// seeded with `seed`, with the default budgets. See `generate_with`.
pub fn generate(
    game: GameId,
    size: u8,
    count: usize,
    plies: u32,
    seed: u64,
) -> Result<Vec<Puzzle>, PuzzleError> {
    generate_with(game, &Request::new(size, count, plies, seed))
}

/// The puzzles a request asks for, all different. If the overall budget runs out
/// first, the ones found so far (check the length); an error if there are none.
pub fn generate_with(
    game: GameId,
    request: &Request,
) -> Result<Vec<Puzzle>, PuzzleError> {
    if request.plies.is_multiple_of(2) || request.plies > crate::puzzles::MAX_PLIES {
        return Err(PuzzleError::Plies(request.plies));
    }
    let kit = home(game);
    if !kit.sizes().contains(&request.size) {
        return Err(PuzzleError::Size { game, size: request.size, sizes: kit.sizes() });
    }
    if request.count == 0 {
        return Ok(Vec::new());
    }
    kit.puzzles(request)
}

/// What a kit may say for `game`: the sizes it plays and the keys it reads, which
/// [`crate::kit::load`] checks a kit against.
pub fn schema(game: GameId) -> Schema {
    let home = home(game);
    Schema {
        sizes: home.sizes(),
        usual_sizes: home.usual_sizes(),
        board_keys: home.board_keys(),
        rule_keys: home.rule_keys(),
    }
}

/// Numbers and facts that strings may quote as `{name}`, by name.
pub type Facts = BTreeMap<String, String>;

/// What a puzzle's caption may tell, where the game's rules count it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzleFacts {
    /// What each player holds in hand in the position.
    InHand,
    /// Why the main line wins: how the game ends after it.
    WhyItWins,
}

/// The seam between the shared pipeline and one game.
pub trait GameKit: Sync {
    /// Which game this is.
    fn id(&self) -> GameId;
    /// The board sizes the game can be played at.
    fn sizes(&self) -> RangeInclusive<u8>;
    /// The rules seen through strings, for the `rules` command.
    fn engine(&self) -> Box<dyn Engine>;
    /// The game's own templates by sheet name; they win over the shared ones.
    fn templates(&self) -> &'static [(&'static str, &'static str)];
    /// The optional `[board]` keys this game's drawings read (`row-spacing-mm`,
    /// `point-diameter-mm`); a kit that sets another is told it has no effect.
    fn board_keys(&self) -> &'static [&'static str] {
        &[]
    }
    /// The sizes a kit offers when it names none: all the game's, unless its rules
    /// document plays one (Stack-top roads: 3×3, though the engine plays up to 8×8).
    fn usual_sizes(&self) -> RangeInclusive<u8> {
        self.sizes()
    }
    /// The `[rules]` keys a kit may set for this game, with the values its engine
    /// plays (none by default).
    fn rule_keys(&self) -> &'static [crate::kit::RuleKey] {
        &[]
    }
    /// The fewest and most minutes a game at board `size` takes, for a kit that does
    /// not say (`[time] game-minutes`).
    fn game_minutes(&self, size: u8) -> (u32, u32);
    /// The board size `rules puzzles` uses when none is asked for: the smallest.
    fn puzzle_size(&self) -> u8 {
        *self.sizes().start()
    }
    /// Whether pieces stand in cells (stacking games) rather than on points.
    fn plays_in_cells(&self) -> bool {
        false
    }
    /// Practice puzzles at the request's board size (one of [`GameKit::sizes`]): the
    /// game's typed rules and start position handed to [`crate::puzzles::search`].
    fn puzzles(&self, request: &Request) -> Result<Vec<Puzzle>, PuzzleError>;
    /// What the rules say of a puzzle for its captions (see [`PuzzleFacts`]): the
    /// strings key that says it and the facts that fill it. By default, why the
    /// answer wins: the line or chain its last move completes.
    fn puzzle_facts(
        &self,
        puzzle: &Puzzle,
        _rules: &crate::kit::RuleParams,
        asked: PuzzleFacts,
    ) -> Option<(&'static str, Facts)> {
        match asked {
            PuzzleFacts::WhyItWins => line_it_completes(self.engine().as_ref(), puzzle),
            PuzzleFacts::InHand => None,
        }
    }
    /// Replays the kit's worked examples through the rules and checks every claim:
    /// the verify stage, run once per kit however many variants are built from it.
    fn verify(&self, kit: &Kit) -> Result<Box<dyn VerifiedExamples>, Diagnostics>;
}

/// A kit's worked examples as its game's rules replayed them, typed: made once per
/// kit by [`GameKit::verify`], shared by every language, paper and size built.
pub trait VerifiedExamples: Send + Sync {
    /// How many of the kit's examples were replayed.
    fn replayed(&self) -> usize;
    /// The game ready to draw its sheets for `kit` (as the variant draws it: its cells
    /// may be scaled) on a board of `size`: the examples that size shows, and
    /// `puzzles`, made for this build at `size`, replayed and checked here.
    fn sheets<'k>(
        &self,
        kit: &'k Kit,
        size: u8,
        puzzles: &[Example],
    ) -> Result<Box<dyn Sheets + 'k>, Diagnostics>;
}

/// A game ready to fill its sheets: its verified examples, typed, and a board size.
pub trait Sheets {
    /// The verified examples as text, for templates and `{id.…}` facts.
    fn summaries(&self) -> Vec<Summary>;
    /// Adds the game's own facts (piece counts, limits) for strings to quote.
    fn facts(&self, facts: &mut Facts);
    /// Lists the game's templates may show (e.g. `stuck` positions), by name.
    fn lists(&self) -> BTreeMap<&'static str, Vec<String>> {
        BTreeMap::new()
    }
    /// Draws figure `@name args…` of a sheet.
    fn figure(
        &self,
        name: &str,
        args: &[String],
        cx: &FigureContext,
    ) -> Result<Vec<Chunk>, FigureError>;
}

/// A length for people: to a tenth of a millimetre at most, without a needless `.0`
/// (`22`, `23.7`, `23.3` for 23.333…).
pub fn number(value: f64) -> String {
    let tenths = (value * 10.0).round() / 10.0;
    if tenths.fract() == 0.0 { format!("{tenths:.0}") } else { format!("{tenths:.1}") }
}

/// Why a puzzle's main line wins, as the rules find the end after its last move: the
/// winning line or chain (`puzzles.why_line`, `{cells}` its points in order).
fn line_it_completes(
    engine: &dyn crate::rules::Engine,
    puzzle: &Puzzle,
) -> Option<(&'static str, Facts)> {
    let replay = engine.replay(&puzzle.position, &puzzle.solution).ok()?;
    match replay.outcome {
        crate::rules::Outcome::Win { cells, .. } if !cells.is_empty() => {
            let mut facts = Facts::new();
            facts.insert("cells".into(), cells.join("–"));
            Some(("puzzles.why_line", facts))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_are_printed_to_a_tenth_at_most() {
        assert_eq!(number(22.0), "22");
        assert_eq!(number(23.7), "23.7");
        assert_eq!(number(70.0 / 3.0), "23.3");
        assert_eq!(number(24.599999999999998), "24.6");
        assert_eq!(number(29.96), "30");
    }

    #[test]
    fn every_game_is_registered_once_under_its_own_name() {
        let ids: Vec<GameId> = Games::builtin().ids();
        assert_eq!(
            ids,
            GameId::BUILTIN,
            "the registry lists the games in GameId::BUILTIN's order"
        );
        let mut unique = ids.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), ids.len());
        for id in ids {
            assert_eq!(GameId::parse(id.name()), Some(id));
            assert_eq!(home(id).id(), id);
        }
        assert_eq!(GameId::parse("chess"), None);
    }

    /// The "Adding a game" walk-through ends here: a registered game ships a kit that
    /// builds every sheet on A4 and on Letter. Here in two of its languages, English on
    /// A4 and its first (Arabic, right to left, in the built-in kits) on Letter; the
    /// full tier builds every language on both papers (`tests/languages.rs`).
    #[test]
    fn every_registered_game_builds_in_two_languages_on_a4_and_letter() {
        use crate::pipeline::{Options, build};
        use crate::sheet::template::TemplateSet;
        let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../kits");
        let kits: Vec<Kit> = crate::io::read_kits_dir(&shipped)
            .expect("kits/ reads")
            .iter()
            .map(|source| crate::kit::load(source, schema).expect("a built-in kit loads"))
            .collect();
        for game in GameId::all() {
            let kit = kits.iter().find(|kit| kit.game() == game);
            let kit = kit.unwrap_or_else(|| panic!("no built-in kit plays {game}"));
            let first = kit.languages.keys().next().expect("a language");
            for (lang, paper) in [("en", "a4"), (first.as_str(), "letter")] {
                let options = Options {
                    lang: lang.to_string(),
                    paper: crate::layout::Paper::parse(paper, false).unwrap(),
                    size: None,
                    cell: None,
                    calibration: None,
                    previews: Default::default(),
                    class: None,
                    cut: Default::default(),
                    large_print: false,
                    templates: TemplateSet::builtin(game, home(game).templates()),
                };
                let built = build(kit, &options).unwrap_or_else(|e| {
                    panic!("{game} in {lang} on {paper}: {}", e[0].render())
                });
                // Every listed sheet, the host key and the contents sheet.
                assert_eq!(built.outputs.len(), kit.sheets.len() + 2, "{game}");
                assert!(built.outputs.iter().all(|o| o.pages > 0), "{game}");
            }
        }
    }
}
