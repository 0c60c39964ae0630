//! The serde mirror of `kit.toml`: strict (unknown keys are errors), kebab-case,
//! with spans on the values that later checks may need to point at.

use serde::Deserialize;
use toml::Spanned;

/// `kit.toml` as written.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawKit {
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    #[schemars(with = "String")]
    pub game: Spanned<String>,
    #[schemars(with = "Vec<String>")]
    pub sheets: Spanned<Vec<Spanned<String>>>,
    /// The sheets best printed on thin card (listed in `sheets`).
    #[schemars(with = "Option<Vec<String>>")]
    pub card: Option<Vec<Spanned<String>>>,
    pub board: RawBoard,
    pub pieces: RawPieces,
    pub ledger: Option<RawLedger>,
    pub puzzles: Option<RawPuzzles>,
    pub rules: Option<RawRules>,
    pub time: Option<RawTime>,
    /// The day the kit was last revised (`date = 2026-12-02`): the date its PDFs state
    /// when `SOURCE_DATE_EPOCH` is not set.
    #[schemars(with = "Option<String>")]
    pub date: Option<Spanned<toml::value::Datetime>>,
    #[serde(default)]
    pub example: Vec<RawExample>,
}

/// `[time]`: how long a game takes, for the contents sheet.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawTime {
    /// The fewest and most minutes a game takes, by board size (`5 = [20, 30]`);
    /// a size left out keeps the game's own estimate.
    #[schemars(with = "std::collections::BTreeMap<String, [u32; 2]>")]
    pub game_minutes: Spanned<std::collections::BTreeMap<String, Spanned<Vec<u32>>>>,
}

/// `[rules]`: the game's own numbers, within what its rules engine plays (see
/// docs/kit-format.md for each game's ranges).
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawRules {
    /// Flat stones each player starts with.
    #[schemars(with = "Option<u32>")]
    pub stones: Option<Spanned<u32>>,
    /// Crowns each player starts with (Pathstone).
    #[schemars(with = "Option<u32>")]
    pub crowns: Option<Spanned<u32>>,
    /// The most stones one carry may lift.
    #[schemars(with = "Option<u32>")]
    pub carry_limit: Option<Spanned<u32>>,
    /// Turns, both players' counted, after which the game is drawn.
    #[schemars(with = "Option<u32>")]
    pub turn_limit: Option<Spanned<u32>>,
}

/// `[puzzles]`: a sheet of practice puzzles.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawPuzzles {
    #[schemars(with = "i64")]
    pub count: Spanned<i64>,
    #[schemars(with = "i64")]
    pub plies: Spanned<i64>,
    #[schemars(with = "Option<u64>")]
    pub seed: Option<Spanned<u64>>,
}

/// `[board]`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawBoard {
    #[schemars(with = "Option<u8>")]
    pub size: Option<Spanned<u8>>,
    #[schemars(with = "Option<[u8; 2]>")]
    pub size_range: Option<Spanned<[u8; 2]>>,
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, f64>")]
    pub presets: std::collections::BTreeMap<String, Spanned<f64>>,
    #[schemars(with = "f64")]
    pub spacing_mm: Spanned<f64>,
    #[schemars(with = "Option<f64>")]
    pub row_spacing_mm: Option<Spanned<f64>>,
    #[schemars(with = "Option<f64>")]
    pub point_diameter_mm: Option<Spanned<f64>>,
}

/// `[pieces]`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawPieces {
    #[schemars(with = "f64")]
    pub size_mm: Spanned<f64>,
    #[schemars(with = "u32")]
    pub spares: Spanned<u32>,
}

/// `[ledger]`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawLedger {
    #[schemars(with = "u32")]
    pub moves: Spanned<u32>,
}

/// One `[[example]]`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawExample {
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    #[schemars(with = "String")]
    pub position: Spanned<String>,
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub moves: Vec<Spanned<String>>,
    #[schemars(with = "Option<bool>")]
    pub legal: Option<Spanned<bool>>,
    #[schemars(with = "Option<String>")]
    pub winner: Option<Spanned<String>>,
    #[schemars(with = "Option<String>")]
    pub draw: Option<Spanned<String>>,
    #[schemars(with = "Option<Vec<String>>")]
    pub line: Option<Spanned<Vec<String>>>,
    #[schemars(with = "Option<String>")]
    pub from: Option<Spanned<String>>,
    #[schemars(with = "Option<Vec<String>>")]
    pub legal_moves: Option<Spanned<Vec<String>>>,
    #[schemars(with = "Option<std::collections::BTreeMap<String, String>>")]
    pub tops: Option<Spanned<std::collections::BTreeMap<String, String>>>,
    #[serde(default)]
    pub puzzle: bool,
}
