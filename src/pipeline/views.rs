//! The strings and facts a build's sheets may show, resolved for its language and
//! board size. Kept apart per audience: the host key sees everything, player sheets
//! see no `host.*` string, no puzzle answer and no host list, so nothing in a player
//! sheet's strings or template can reach host-only content.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use super::puzzles;
use super::variant::Variant;
use crate::diag::Diagnostics;
use crate::games::{self, Facts, PuzzleFacts, Sheets, number};
use crate::kit::strings::REFERENCE_LANGUAGE;
use crate::kit::{Kit, Strings};
use crate::layout::figure::Audience;
use crate::text;
use crate::verify::Summary;

/// Some of a kit's strings in each of `langs`, placeholders filled for its default
/// board size but `{size}` itself, which is left for the reader of the words to fill
/// with the size chosen, English filling any gap: for listing kits (the web page's
/// catalog).
pub fn kit_words(
    kit: &Kit,
    verified: &super::Verified,
    langs: &[&str],
    keys: &[&str],
) -> Result<BTreeMap<String, BTreeMap<String, String>>, Diagnostics> {
    let size = kit.board.default_size;
    let game = verified.examples.sheets(kit, size, &[])?;
    let mut facts = facts(kit, size, game.as_ref());
    facts.insert("size".to_string(), "{size}".to_string());
    let reference = &kit.languages[REFERENCE_LANGUAGE];
    let mut words = BTreeMap::new();
    for lang in langs {
        let strings = kit.languages.get(*lang).unwrap_or(reference);
        let (table, _) =
            strings.resolve(reference, &facts, &|key| keys.contains(&key))?;
        let found = keys.iter().filter_map(|key| {
            let (section, name) = key.split_once('.')?;
            let text = table.get(section)?.get(name)?.as_str()?;
            Some((key.to_string(), text.to_string()))
        });
        words.insert(lang.to_string(), found.collect());
    }
    Ok(words)
}

/// Numbers and facts that strings may quote as `{name}`: all from the kit or the
/// rules, never typed into a translation.
pub fn facts(kit: &Kit, size: u8, game: &dyn Sheets) -> Facts {
    let mut facts = Facts::new();
    let mut put = |k: &str, v: String| {
        facts.insert(k.to_string(), v);
    };
    put("spacing_mm", number(kit.board.spacing_mm));
    put("piece_mm", number(kit.pieces.size_mm));
    put("spares", kit.pieces.spares.to_string());
    put("cell_mm", number(kit.board.spacing_mm));
    put("size", size.to_string());
    // "win in 2 moves": the winner's moves in the kit's puzzles (a sheet's
    // strings are resolved whether or not it has puzzles, so it is always set).
    let moves = kit.puzzle_sheet().map_or(2, |spec| spec.moves());
    put("puzzle_moves", moves.to_string());
    let (least, most) = (kit.game_minutes.get(&size).copied())
        .unwrap_or_else(|| games::home(kit.game).game_minutes(size));
    put("game_minutes_least", least.to_string());
    put("game_minutes_most", most.to_string());
    game.facts(&mut facts);
    facts
}

/// Facts about each verified example, as `{id.moves}`, `{id.line}`, `{id.from}`,
/// `{id.shown}`, `{id.destinations}` and `{id.illegal}`: what the rules computed.
fn example_facts(examples: &[&Summary], comma: &str) -> Facts {
    let mut facts = Facts::new();
    for v in examples {
        let illegal = v.illegal.as_ref().map(|i| i.text.clone()).unwrap_or_default();
        for (name, value) in [
            ("moves", v.moves.join(comma)),
            ("line", v.line.join("–")),
            ("from", v.from.clone().unwrap_or_default()),
            ("shown", v.shown_moves.join(comma)),
            ("destinations", v.destinations.join(comma)),
            ("illegal", illegal),
            ("count", v.shown_moves.len().to_string()),
        ] {
            facts.insert(format!("{}.{name}", v.id), value);
        }
    }
    facts
}

/// What one audience's sheets may show: its facts, strings and examples.
pub(super) struct View {
    /// The facts its strings quote, numbers as its language writes them.
    pub facts: Facts,
    /// Its strings, placeholders filled.
    pub table: toml::Table,
    /// String keys the language lacked, filled from the reference language.
    pub fell_back: Vec<String>,
    /// The verified examples it may show, by id.
    pub examples: Vec<(String, Summary)>,
    /// The game's own lists (host only).
    pub lists: BTreeMap<&'static str, Vec<String>>,
    /// The puzzle sheet's puzzles, in rows: only the host's carry their answers.
    pub puzzle_rows: Vec<Vec<puzzles::Entry>>,
    /// The string keys the sheets' drawings have read.
    pub read: RefCell<BTreeSet<String>>,
}

/// The two views of one build, and what they are made from, for a view made again
/// with other facts.
pub(super) struct Views<'a> {
    /// What player sheets may show.
    pub players: View,
    /// What the host key may show.
    pub host: View,
    resolver: Resolver<'a>,
}

impl<'a> Views<'a> {
    /// The players' and the host's views of `variant`, whose examples `game` has
    /// verified. A character the font lacks in any string is an error at its key.
    pub fn resolve(
        variant: &'a Variant<'a>,
        game: &'a dyn Sheets,
    ) -> Result<Views<'a>, Diagnostics> {
        let summaries = game.summaries();
        let facts = facts(&variant.kit, variant.size, game);
        let resolver = Resolver { variant, game, summaries, facts };
        let players = resolver.view(Audience::Players, &resolver.facts)?;
        let host = resolver.view(Audience::Host, &resolver.facts)?;
        all_showable(variant.strings())?;
        Ok(Views { players, host, resolver })
    }

    /// The players' view with the time to cut out and glue a board in `parts` added
    /// to the preparation time: the contents sheet times the board's parts too.
    pub fn with_gluing(&self, parts: usize) -> Result<View, Diagnostics> {
        let facts = with_gluing(&self.resolver.facts, parts);
        self.resolver.view(Audience::Players, &facts)
    }
}

/// What a view is made from: the variant, its verified examples and the kit's and
/// rules' facts.
struct Resolver<'a> {
    variant: &'a Variant<'a>,
    game: &'a dyn Sheets,
    summaries: Vec<Summary>,
    facts: Facts,
}

impl Resolver<'_> {
    /// What `audience` may see, `facts` quoted in its strings.
    fn view(&self, audience: Audience, facts: &Facts) -> Result<View, Diagnostics> {
        let host = audience == Audience::Host;
        let shown: Vec<&Summary> =
            self.summaries.iter().filter(|v| host || !v.puzzle).collect();
        let facts = self.facts_shown(facts, &shown);
        let (strings, reference) = (self.variant.strings(), self.variant.reference());
        let keep = |key: &str| host || !key.starts_with("host.");
        let (mut table, fell_back) = strings.resolve(reference, &facts, &keep)?;
        self.add_puzzle_captions(&mut table, &facts, host)?;
        let examples = shown.iter().map(|v| (v.id.clone(), (*v).clone())).collect();
        let lists = if host { self.game.lists() } else { BTreeMap::new() };
        let puzzle_rows = puzzle_rows(&self.variant.puzzles, host);
        let read = Default::default();
        Ok(View { facts, table, fell_back, examples, lists, puzzle_rows, read })
    }

    /// `facts` with those of the `shown` examples, numbers written as the language
    /// writes them.
    fn facts_shown(&self, facts: &Facts, shown: &[&Summary]) -> Facts {
        let mut facts = facts.clone();
        let comma = if self.variant.reading.rtl() { "، " } else { ", " };
        facts.extend(example_facts(shown, comma));
        if self.variant.decimal_comma() {
            // 23.7 mm is written 23,7 mm in these languages.
            for value in facts.values_mut() {
                if value.contains('.') && value.parse::<f64>().is_ok() {
                    *value = value.replace('.', ",");
                }
            }
        }
        facts
    }

    /// Sets the puzzles' captions in `table`: what both players hold in hand for
    /// everyone, why the answer wins for the host.
    fn add_puzzle_captions(
        &self,
        table: &mut toml::Table,
        facts: &Facts,
        host: bool,
    ) -> Result<(), Diagnostics> {
        let (kit, made) = (&self.variant.kit, &self.variant.puzzles[..]);
        let strings = self.variant.strings();
        let words = (strings, self.variant.reference());
        let hands = puzzles::lines(kit, words, facts, (made, PuzzleFacts::InHand))?;
        let reasons = match host {
            true => puzzles::lines(kit, words, facts, (made, PuzzleFacts::WhyItWins))?,
            false => Vec::new(),
        };
        let captions = (made, &hands[..], &reasons[..]);
        puzzles::add_captions(table, captions, host).map_err(|key| {
            let message = format!(
                "the puzzle sheet needs the string `{key}` (kit `{}`, {})",
                kit.id, self.variant.options.lang
            );
            vec![strings.diagnostic(&key, message)]
        })
    }
}

/// The puzzle sheet's puzzles, [`puzzles::PER_ROW`] to a row: only the host's carry
/// their answers.
fn puzzle_rows(
    sheet_puzzles: &[crate::puzzles::Puzzle],
    host: bool,
) -> Vec<Vec<puzzles::Entry>> {
    let entries = sheet_puzzles.iter().enumerate().map(|(i, puzzle)| match host {
        true => puzzles::Entry::answer(i + 1, puzzle),
        false => puzzles::Entry::question(i + 1),
    });
    let entries: Vec<puzzles::Entry> = entries.collect();
    entries.chunks(puzzles::PER_ROW).map(<[_]>::to_vec).collect()
}

/// A character the font lacks is an error at its key, never a blank box on paper.
fn all_showable(strings: &Strings) -> Result<(), Diagnostics> {
    let unshowable: Diagnostics = strings
        .entries
        .iter()
        .filter_map(|(key, value)| {
            let missing = text::missing_chars(value);
            (!missing.is_empty()).then(|| {
                let shown: Vec<String> = missing
                    .iter()
                    .map(|c| format!("{c:?} (U+{:04X})", *c as u32))
                    .collect();
                strings.diagnostic(
                    key,
                    format!("the font has no glyph for {} in `{key}`", shown.join(", ")),
                )
            })
        })
        .collect();
    match unshowable.is_empty() {
        true => Ok(()),
        false => Err(unshowable),
    }
}

/// Minutes to cut out and glue one part of a board printed in parts.
const MINUTES_PER_BOARD_PART: u32 = 3;

/// `facts` with the preparation time of a board in `parts` added to `prep_minutes`,
/// rounded up to 5 minutes as the games round theirs.
fn with_gluing(facts: &Facts, parts: usize) -> Facts {
    let mut facts = facts.clone();
    if let Some(minutes) = facts.get("prep_minutes").and_then(|m| m.parse::<u32>().ok()) {
        let total = minutes + MINUTES_PER_BOARD_PART * parts as u32;
        facts.insert("prep_minutes".into(), (total.div_ceil(5) * 5).to_string());
    }
    facts
}
