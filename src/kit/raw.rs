//! The serde mirror of `kit.toml`: strict (unknown keys are errors), kebab-case,
//! with spans on the values that later checks may need to point at.

use serde::Deserialize;
use toml::Spanned;

/// `kit.toml` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawKit {
    pub id: Spanned<String>,
    pub game: Spanned<String>,
    pub sheets: Spanned<Vec<Spanned<String>>>,
    pub board: RawBoard,
    pub pieces: RawPieces,
    pub ledger: Option<RawLedger>,
    pub puzzles: Option<RawPuzzles>,
    #[serde(default)]
    pub example: Vec<RawExample>,
}

/// `[puzzles]`: a sheet of practice puzzles.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawPuzzles {
    pub count: Spanned<i64>,
    pub plies: Spanned<i64>,
    pub seed: Option<Spanned<u64>>,
}

/// `[board]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawBoard {
    pub size: Option<Spanned<u8>>,
    pub size_range: Option<Spanned<[u8; 2]>>,
    #[serde(default)]
    pub presets: std::collections::BTreeMap<String, Spanned<f64>>,
    pub spacing_mm: Spanned<f64>,
    pub row_spacing_mm: Option<Spanned<f64>>,
    pub point_diameter_mm: Option<Spanned<f64>>,
}

/// `[pieces]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawPieces {
    pub size_mm: Spanned<f64>,
    pub spares: Spanned<u32>,
}

/// `[ledger]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawLedger {
    pub moves: Spanned<u32>,
}

/// One `[[example]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawExample {
    pub id: Spanned<String>,
    pub position: Spanned<String>,
    #[serde(default)]
    pub moves: Vec<Spanned<String>>,
    pub legal: Option<Spanned<bool>>,
    pub winner: Option<Spanned<String>>,
    pub draw: Option<Spanned<String>>,
    pub line: Option<Spanned<Vec<String>>>,
    pub from: Option<Spanned<String>>,
    pub legal_moves: Option<Spanned<Vec<String>>>,
    pub tops: Option<Spanned<std::collections::BTreeMap<String, String>>>,
    #[serde(default)]
    pub puzzle: bool,
}
