//! Kits: loading `kit.toml` and the strings files into a validated model.
//!
//! Nothing here touches the disk: a kit arrives as a [`Source`], a set of named
//! texts that `io.rs` read from a folder or that the binary carries built in.

pub mod defaults;
mod load;
mod raw;
pub mod strings;

use std::collections::BTreeMap;
use std::ops::Range;

use crate::diag::Diagnostics;
use crate::game_id::GameId;
pub use load::{Schema, load};
pub use strings::Strings;

/// A kit's files, by path relative to the kit folder (`kit.toml`,
/// `lang/en.toml`, `templates/board.tera`).
#[derive(Clone, Debug, Default)]
pub struct Source {
    /// How to name the kit folder in messages (e.g. `kits/<kit>`).
    pub dir: String,
    /// File texts by relative path, `/`-separated.
    pub files: BTreeMap<String, String>,
    /// Each file that could not be read (not text, too large, a link leading out),
    /// relative path and why, so that it is told with every other problem.
    pub unreadable: Vec<(String, String)>,
}

impl Source {
    /// The path to show for a file of this kit.
    pub fn display_path(&self, relative: &str) -> String {
        if self.dir.is_empty() {
            relative.to_string()
        } else {
            format!("{}/{relative}", self.dir)
        }
    }
}

/// The template of the puzzles' answers, appended to the host key when the build has
/// a puzzle sheet: a template a kit may hold, though no sheet is named for it.
pub const PUZZLE_ANSWERS: &str = "puzzle-answers";

/// A sheet a kit can print.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SheetKind {
    /// The playing surface at exact size.
    Board,
    /// Paper counters to cut out (games of placing and sliding).
    Counters,
    /// Paper stones to cut out.
    Stones,
    /// The record sheet for repeated positions.
    RepetitionLog,
    /// The move record (and stack record, where pieces stack).
    Ledger,
    /// The rules with worked examples.
    RuleCard,
    /// The game in pictures, for the table: the rule card's verified examples with a
    /// short line under each.
    QuickStart,
    /// Practice puzzles made by the rules, with room for the answers; made when
    /// `[puzzles]` or `--puzzles` asks for them, never listed.
    Puzzles,
    /// Answers and check-lists for the host; always a separate PDF.
    HostKey,
    /// What each PDF of the build is, how many copies to print and how to prepare
    /// them; always made, always the first file, never shows host content.
    Contents,
}

impl SheetKind {
    /// Sheets a kit may list (the host key is always made and never listed).
    pub const PLAYER_SHEETS: [SheetKind; 7] = [
        SheetKind::Board,
        SheetKind::Counters,
        SheetKind::Stones,
        SheetKind::RepetitionLog,
        SheetKind::Ledger,
        SheetKind::RuleCard,
        SheetKind::QuickStart,
    ];

    /// The name used in kit.toml, templates and file names.
    pub fn name(self) -> &'static str {
        match self {
            SheetKind::Board => "board",
            SheetKind::Counters => "counters",
            SheetKind::Stones => "stones",
            SheetKind::RepetitionLog => "repetition-log",
            SheetKind::Ledger => "ledger",
            SheetKind::RuleCard => "rule-card",
            SheetKind::QuickStart => "quick-start",
            SheetKind::Puzzles => "puzzles",
            SheetKind::HostKey => "host-key",
            SheetKind::Contents => "contents",
        }
    }

    /// The sheet with this name, if any.
    pub fn from_name(name: &str) -> Option<SheetKind> {
        Self::PLAYER_SHEETS
            .into_iter()
            .chain([SheetKind::Puzzles, SheetKind::HostKey, SheetKind::Contents])
            .find(|s| s.name() == name)
    }
}

/// Where a value sits in `kit.toml`, for diagnostics.
pub type Span = Range<usize>;

/// Board geometry as declared.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardSpec {
    /// The board size built when none is asked for (games with several sizes).
    pub default_size: u8,
    /// The sizes this kit offers: the game's, or fewer.
    pub sizes: std::ops::RangeInclusive<u8>,
    /// Named cell sizes (`small`, `standard`, `large`) in mm, for `--cell`.
    pub presets: BTreeMap<String, f64>,
    /// Centre-to-centre distance between neighbouring points or cells, in mm (for a
    /// board of cells, the cell size).
    pub spacing_mm: f64,
    /// Distance between rows, where it differs from `spacing_mm` (Go boards are a
    /// little taller than wide), in mm.
    pub row_spacing_mm: Option<f64>,
    /// Diameter of the printed point marks, in mm (boards of points only).
    pub point_diameter_mm: Option<f64>,
}

/// Paper pieces as declared.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceSpec {
    /// Piece diameter (or width), in mm.
    pub size_mm: f64,
    /// Extra pieces per player beyond the rules' count.
    pub spares: u32,
}

/// What a worked example claims; each is checked against the rules.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)] // each variant's comment names its fields
pub enum Claim {
    /// All moves are legal (`true`), or the last one is illegal (`false`).
    Legal(bool),
    /// The named player has won at the end (`none` for a game still going).
    Winner(String),
    /// The game is drawn for this reason at the end.
    Draw(String),
    /// The winning line or road, as squares.
    Line(Vec<String>),
    /// The full set of legal moves at the end (only those from `from`, if given).
    LegalMoves { from: Option<String>, moves: Vec<String> },
    /// Who owns the top piece of each named square at the end (`none` if empty).
    Tops(Vec<(String, String)>),
}

/// One worked example.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    /// Its id, used by templates (`@diagram practice`) and strings.
    pub id: String,
    /// The start position in the game's notation.
    pub position: String,
    /// Where the position is written in kit.toml.
    pub position_span: Span,
    /// Moves to play from the position, in order, each with its span.
    pub moves: Vec<(String, Span)>,
    /// Claims with the span of each.
    pub claims: Vec<(Claim, Span)>,
    /// A question for the players: its moves and end are the answer, which only the
    /// host key may show.
    pub puzzle: bool,
}

/// A game's numbers as a kit sets them in `[rules]`; `None` keeps the game's own.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RuleParams {
    /// Flat stones each player starts with.
    pub stones: Option<u32>,
    /// Crowns each player starts with.
    pub crowns: Option<u32>,
    /// The most stones one carry may lift.
    pub carry_limit: Option<u32>,
    /// Turns after which the game is drawn.
    pub turn_limit: Option<u32>,
}

/// A `[rules]` key a game reads, and the values its rules engine plays.
#[derive(Clone, Debug)]
pub struct RuleKey {
    /// The key in kit.toml (`carry-limit`).
    pub name: &'static str,
    /// The values allowed.
    pub range: std::ops::RangeInclusive<u32>,
}

/// The most puzzles one sheet holds: four pages of them.
pub const MAX_SHEET_PUZZLES: usize = 24;
/// The longest puzzle a sheet offers, in plies: a win with the third move. Longer
/// ones take too long to prove on the larger boards to make on every build.
pub const MAX_SHEET_PLIES: u32 = 5;
/// The largest board a sheet's 5-ply puzzles are made on: proving them takes about
/// 40 s for six on 5×5, minutes on 6×6, and finds none in minutes on 19×19.
pub const MAX_FIVE_PLY_SIZE: u8 = 5;

/// A sheet of practice puzzles, as `[puzzles]` or the command line asks for it.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleSpec {
    /// How many puzzles.
    pub count: usize,
    /// Plies to the win: 1, 3 or 5.
    pub plies: u32,
    /// The seed of the random games the puzzles come from.
    pub seed: u64,
    /// Where `[puzzles]` is in kit.toml (empty when the command line asked).
    pub span: Span,
}

impl PuzzleSpec {
    /// Checks a count and a length against what a sheet offers; the message says
    /// what is allowed.
    pub fn new(
        count: i64,
        plies: i64,
        seed: u64,
        span: Span,
    ) -> Result<PuzzleSpec, String> {
        let max = MAX_SHEET_PUZZLES as i64;
        if !(1..=max).contains(&count) {
            return Err(format!("a puzzle sheet holds 1 to {max} puzzles, not {count}"));
        }
        if !(1..=i64::from(MAX_SHEET_PLIES)).contains(&plies) || plies % 2 == 0 {
            return Err(format!(
                "a sheet's puzzles are 1, 3 or 5 plies long (a win with the first, second \
                 or third move), not {plies}"
            ));
        }
        Ok(PuzzleSpec { count: count as usize, plies: plies as u32, seed, span })
    }

    /// Whether these puzzles can be made on a board of `size`: 5-ply ones only up to
    /// [`MAX_FIVE_PLY_SIZE`], where proving them takes seconds, not minutes.
    pub fn fits_board(&self, size: u8) -> bool {
        self.plies <= 3 || size <= MAX_FIVE_PLY_SIZE
    }

    /// The moves the winner makes: 2 for a 3-ply puzzle.
    pub fn moves(&self) -> u32 {
        self.plies.div_ceil(2)
    }
}

/// A validated kit.
#[derive(Clone, Debug)]
pub struct Kit {
    /// The kit's id (its folder name for the built-in kits).
    pub(crate) id: String,
    /// The rules it is played by.
    pub(crate) game: GameId,
    /// The player sheets it prints, in order.
    pub(crate) sheets: Vec<SheetKind>,
    /// The sheets best printed on thin card.
    pub(crate) card: Vec<SheetKind>,
    /// Board geometry.
    pub(crate) board: BoardSpec,
    /// Pieces.
    pub(crate) pieces: PieceSpec,
    /// Numbered move rows on a move-record ledger, if the kit has one.
    pub(crate) ledger_moves: Option<u32>,
    /// Worked examples.
    pub(crate) examples: Vec<Example>,
    /// The puzzle sheet asked for, if any.
    pub(crate) puzzles: Option<PuzzleSpec>,
    /// The game's numbers the kit sets.
    pub(crate) rules: RuleParams,
    /// The fewest and most minutes a game takes, by board size, where the kit says.
    pub(crate) game_minutes: BTreeMap<u8, (u32, u32)>,
    /// The kit's date (`date`), as seconds since 1970 at midnight UTC.
    pub(crate) date: Option<i64>,
    /// Strings by language code, sorted.
    pub(crate) languages: BTreeMap<String, Strings>,
    /// The kit's own template overrides by sheet name.
    pub(crate) templates: BTreeMap<String, String>,
    /// `kit.toml` as shown in messages, and its text, for diagnostics.
    pub(crate) kit_file: String,
    /// The text of `kit.toml`.
    pub(crate) kit_source: std::sync::Arc<str>,
}

/// Spare pieces a kit may add per player: enough for any table, small enough that a
/// typo cannot fill a printer tray (or memory).
pub const MAX_SPARES: u32 = 50;

/// Whether `id` is a safe folder name: lowercase letters, digits and inner hyphens,
/// at most 64 characters. The id names the output folder, so it can never be `..`,
/// absolute or hold a path separator.
pub fn is_slug(id: &str) -> bool {
    let ok = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-';
    !id.is_empty()
        && id.len() <= 64
        && id.chars().all(ok)
        && !id.starts_with('-')
        && !id.ends_with('-')
}

/// Cells smaller than this cannot hold the letters and numbers printed in them.
pub const MIN_CELL_MM: f64 = 12.0;
/// Cells larger than this make no playable board on any paper.
pub const MAX_CELL_MM: f64 = 500.0;

/// Room left between neighbouring pieces, so that they lie flat side by side (or a
/// stack sits inside its cell).
pub const PIECE_CLEARANCE_MM: f64 = 1.0;

/// The largest piece that fits points or cells `tightest` mm apart, if `piece` mm is
/// larger: the one rule of a piece's fit, for a kit as written (`load`) and for a
/// board built at another cell size ([`piece_fit`]).
pub(crate) fn too_large(piece: f64, tightest: f64) -> Option<f64> {
    let most = tightest - PIECE_CLEARANCE_MM;
    (piece > most + 1e-9).then_some(most)
}

/// Refuses pieces that do not fit the board they are played on: a piece must be
/// [`PIECE_CLEARANCE_MM`] narrower than the tightest spacing of its points or cells.
pub fn piece_fit(kit: &Kit) -> Result<(), String> {
    let spacing = kit.board.spacing_mm;
    let tightest = kit.board.row_spacing_mm.map_or(spacing, |r| r.min(spacing));
    let piece = kit.pieces.size_mm;
    match too_large(piece, tightest) {
        Some(most) => Err(format!(
            "{piece:.1} mm pieces do not fit a board whose points or cells are {tightest:.1} mm \
             apart: a piece must be at most {most:.1} mm, leaving {PIECE_CLEARANCE_MM} mm to \
             its neighbour"
        )),
        None => Ok(()),
    }
}

impl Kit {
    /// The kit's folder as messages name it (`kits/crossway`).
    pub fn folder(&self) -> &str {
        self.kit_file.trim_end_matches("/kit.toml")
    }

    /// The kit's id (its folder name for the built-in kits).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The board's geometry: sizes, spacing and presets.
    pub fn board(&self) -> &BoardSpec {
        &self.board
    }

    /// The pieces: their size and the spares a set adds.
    pub fn pieces(&self) -> &PieceSpec {
        &self.pieces
    }

    /// The game it is played by.
    pub fn game(&self) -> GameId {
        self.game
    }

    /// This kit with its board at another cell size: the point or cell spacing becomes
    /// `cell`, and the rows, point marks and pieces scale with it, so pieces keep the
    /// margin the kit declares relative to their cells.
    pub fn with_cell(&self, cell: f64) -> Result<Kit, String> {
        if !(MIN_CELL_MM..=MAX_CELL_MM).contains(&cell) {
            return Err(format!(
                "a {cell} mm cell is out of range: cells are {MIN_CELL_MM} to {MAX_CELL_MM} mm \
                 (smaller ones cannot hold their coordinates)"
            ));
        }
        let ratio = cell / self.board.spacing_mm;
        let mut kit = self.clone();
        kit.board.spacing_mm = cell;
        kit.board.row_spacing_mm = self.board.row_spacing_mm.map(|r| r * ratio);
        kit.board.point_diameter_mm = self.board.point_diameter_mm.map(|d| d * ratio);
        kit.pieces.size_mm = self.pieces.size_mm * ratio;
        piece_fit(&kit)?;
        Ok(kit)
    }

    /// The one check of a language asked for (`--lang`, the web page's form, the
    /// library's options): the kit must have its strings. The error names the
    /// languages it has.
    pub fn language(&self, lang: &str) -> Result<&Strings, String> {
        self.languages.get(lang).ok_or_else(|| {
            let known: Vec<&str> = self.languages.keys().map(String::as_str).collect();
            // What was asked may come from a web form: shown, but not at any length.
            let asked: String = lang.chars().take(20).collect();
            format!("no language `{asked}`; available: {}", known.join(", "))
        })
    }

    /// The one check of a board size asked for (`--size`, the form, the options):
    /// one the kit offers, its default when none is asked.
    pub fn board_size(&self, size: Option<u8>) -> Result<u8, String> {
        let size = size.unwrap_or(self.board.default_size);
        match self.board.sizes.contains(&size) {
            true => Ok(size),
            false => Err(format!(
                "no board size {size}; offered: {}",
                size_range(&self.board.sizes)
            )),
        }
    }

    /// The one check of a cell size asked for (`--cell`, the form, large print): this
    /// kit at that size, millimetres or a preset's name, if its pieces still fit.
    pub fn at_cell(&self, request: &str) -> Result<Kit, String> {
        self.with_cell(self.cell_request(request)?)
    }

    /// This kit with another puzzle sheet (the command line's), or none.
    pub fn with_puzzle_sheet(&self, spec: Option<PuzzleSpec>) -> Kit {
        Kit { puzzles: spec, ..self.clone() }
    }

    /// The game's numbers this kit sets in `[rules]`.
    pub fn rule_params(&self) -> &RuleParams {
        &self.rules
    }

    /// The puzzle sheet this kit asks for, if any.
    pub fn puzzle_sheet(&self) -> Option<&PuzzleSpec> {
        self.puzzles.as_ref()
    }

    /// The cell size asked for with `--cell`: millimetres, or a preset's name.
    pub fn cell_request(&self, request: &str) -> Result<f64, String> {
        if let Some(mm) = self.board.presets.get(request) {
            return Ok(*mm);
        }
        let number = request.strip_suffix("mm").unwrap_or(request).trim();
        number.parse::<f64>().ok().filter(|n| n.is_finite()).ok_or_else(|| {
            let names: Vec<&str> = self.board.presets.keys().map(String::as_str).collect();
            format!(
                "kit `{}` has no cell size `{request}`: expected millimetres or one of {}",
                self.id,
                names.join(", ")
            )
        })
    }

    /// Whether the kit's English strings have a section `section` (`puzzles`): what
    /// its sheets can print.
    pub fn has_strings_for(&self, section: &str) -> bool {
        let prefix = format!("{section}.");
        self.languages[strings::REFERENCE_LANGUAGE]
            .entries
            .keys()
            .any(|key| key.starts_with(&prefix))
    }

    /// What each translation gets wrong against English: missing and unknown keys,
    /// dropped or misspelt placeholders. A build still works (missing keys fall back
    /// to English and are named); `check` reports these as errors.
    pub fn translation_problems(&self) -> Diagnostics {
        let reference = &self.languages[strings::REFERENCE_LANGUAGE];
        let translations =
            self.languages.values().filter(|s| s.lang != strings::REFERENCE_LANGUAGE);
        translations.flat_map(|s| strings::compare(reference, s)).collect()
    }

    /// Spaces that a language's typography keeps from breaking, written plain (see
    /// [`strings::typography`]): in every file, English too.
    pub fn typography_problems(&self) -> Diagnostics {
        self.languages.values().flat_map(strings::typography).collect()
    }
}

/// The most minutes a game may be said to take: a long afternoon.
pub const MAX_GAME_MINUTES: u32 = 600;

/// A JSON Schema of `kit.toml`, from the very types that read it.
pub fn kit_schema() -> serde_json::Value {
    let schema = schemars::schema_for!(raw::RawKit);
    serde_json::to_value(&schema).expect("a schema is JSON")
}

/// "3×3" or "3×3 to 8×8".
pub fn size_range(sizes: &std::ops::RangeInclusive<u8>) -> String {
    let (a, b) = (sizes.start(), sizes.end());
    if a == b { format!("{a}×{a}") } else { format!("{a}×{a} to {b}×{b}") }
}
