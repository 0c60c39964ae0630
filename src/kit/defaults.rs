//! The strings each game ships, in every language it ships: those of the built-in
//! kit that plays it. A kit's own strings override them key by key, so a kit written
//! for an earlier release, which lacks keys that today's templates use, still builds.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use super::{Source, Strings};
use crate::game_id::GameId;

/// The built-in kit that gives each game its strings, set once when the program starts
/// (`io`): the program's own files, not a cache of anything a build computes.
static SOURCES: OnceLock<BTreeMap<GameId, Source>> = OnceLock::new();

/// Takes each game's defaults from the built-in kits: the kit named after the game,
/// or else the first that plays it. Later calls are ignored.
pub fn set_from(builtin: &[Source]) {
    let mut chosen: BTreeMap<GameId, Source> = BTreeMap::new();
    for source in builtin {
        let Some(game) = game_of(source) else { continue };
        let named_after =
            |s: &Source| s.dir.split(['/', ' ']).any(|p| p == game.to_string());
        if chosen.get(&game).is_none_or(|kept| !named_after(kept) && named_after(source))
        {
            chosen.insert(game, source.clone());
        }
    }
    let _ = SOURCES.set(chosen);
}

/// The game a kit source says it plays, if its kit.toml can say.
fn game_of(source: &Source) -> Option<GameId> {
    let text = source.files.get("kit.toml")?;
    let table: toml::Table = toml::from_str(text).ok()?;
    GameId::parse(table.get("game")?.as_str()?)
}

/// The text of the game's strings file for `lang`, if it ships that language.
fn text_of(game: GameId, lang: &str) -> Option<(&'static Source, &'static String)> {
    let source = SOURCES.get()?.get(&game)?;
    Some((source, source.files.get(&format!("lang/{lang}.toml"))?))
}

/// The game's strings in `lang`, if it ships that language. Parsed each time: only a
/// kit that is not the game's own reads them (a built-in kit's files are the game's
/// own and need nothing), once per language when it loads.
pub fn strings(game: GameId, lang: &str) -> Option<Arc<Strings>> {
    let (source, text) = text_of(game, lang)?;
    let file = source.display_path(&format!("lang/{lang}.toml"));
    Strings::parse(lang, &file, text).ok().map(Arc::new)
}

/// The game's English strings (empty when no defaults were set).
pub fn reference(game: GameId) -> Strings {
    match strings(game, super::strings::REFERENCE_LANGUAGE) {
        Some(strings) => (*strings).clone(),
        None => Strings {
            lang: super::strings::REFERENCE_LANGUAGE.into(),
            file: String::new(),
            source: Arc::from(""),
            entries: BTreeMap::new(),
            from_game: Default::default(),
            same_on_purpose: Default::default(),
        },
    }
}

/// Fills every key a kit's language lacks from the game's strings in that language:
/// the kit's own text always wins. Languages the game does not ship stay as they are
/// (their missing keys fall back to English when built, and are reported). A file
/// that is the game's own, word for word, needs nothing and is not parsed twice.
pub fn fill_in(game: GameId, source: &Source, languages: &mut BTreeMap<String, Strings>) {
    for (lang, strings) in languages.iter_mut() {
        let own = source.files.get(&format!("lang/{lang}.toml"));
        if text_of(game, lang).is_none_or(|(_, text)| Some(text) == own) {
            continue;
        }
        let Some(defaults) = self::strings(game, lang) else { continue };
        for (key, text) in &defaults.entries {
            if !strings.entries.contains_key(key) {
                strings.entries.insert(key.clone(), text.clone());
                strings.from_game.insert(key.clone());
            }
        }
        strings.same_on_purpose.extend(defaults.same_on_purpose.iter().cloned());
    }
}
