//! Kits: loading `kit.toml` and the strings files into a validated model.
//!
//! Nothing here touches the disk: a kit arrives as a [`Source`], a set of named
//! texts that `io.rs` read from a folder or that the binary carries built in.

pub mod defaults;
mod raw;
pub mod strings;

use std::collections::BTreeMap;
use std::ops::Range;

use crate::diag::{Diagnostic, Diagnostics};
use crate::games::GameId;
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
fn too_large(piece: f64, tightest: f64) -> Option<f64> {
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

/// Each `[examples.<id>]` table of the kit's own English strings whose id names no
/// example of kit.toml: an example renamed in one file and not the other, told once
/// at the table rather than as a broken placeholder in every language.
fn strings_of_no_example(source: &Source, examples: &[Example]) -> Diagnostics {
    let file = format!("lang/{}.toml", strings::REFERENCE_LANGUAGE);
    let Some(text) = source.files.get(&file) else { return Vec::new() };
    // `stack@5` is example `stack` at one board size: its strings are `stack`'s.
    let mut ids: Vec<&str> = Vec::new();
    for id in examples.iter().map(|e| e.id.split('@').next().unwrap_or(&e.id)) {
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    let shared: std::sync::Arc<str> = std::sync::Arc::from(text.as_str());
    let mut diags = Vec::new();
    for (at, line) in text.match_indices("[examples.") {
        let Some(end) = text[at..].find(']') else { continue };
        let id = &text[at + "[examples.".len()..at + end];
        let starts_line = at == 0 || text[..at].ends_with('\n');
        if !starts_line || ids.contains(&id) || id.contains('.') || line.is_empty() {
            continue;
        }
        diags.push(
            Diagnostic::at(
                &source.display_path(&file),
                &shared,
                at..at + end + 1,
                format!("strings for example `{id}`, which kit.toml does not have"),
            )
            .with_label(match ids.is_empty() {
                true => "kit.toml has no examples".to_string(),
                false => format!("kit.toml's examples: {}; renamed?", ids.join(", ")),
            }),
        );
    }
    diags
}

/// A template a kit holds whose name is no sheet's would be ignored: each is a
/// problem, naming the names that are used.
fn unknown_templates(source: &Source) -> Diagnostics {
    let known: Vec<&str> = SheetKind::PLAYER_SHEETS
        .iter()
        .chain(&[SheetKind::Puzzles, SheetKind::HostKey, SheetKind::Contents])
        .map(|sheet| sheet.name())
        .chain([crate::pipeline::PUZZLE_ANSWERS])
        .collect();
    source
        .files
        .keys()
        .filter_map(|path| {
            Some((path, path.strip_prefix("templates/")?.strip_suffix(".tera")?))
        })
        .filter(|(_, name)| !known.contains(name))
        .map(|(path, name)| {
            Diagnostic::file(
                &source.display_path(path),
                format!(
                    "no sheet is called `{name}`, so this template would never be used"
                ),
            )
            .with_note(format!(
                "a template is named after its sheet: {}",
                known.join(", ")
            ))
        })
        .collect()
}

/// Loads and validates a kit, reporting every problem found.
pub fn load(source: &Source) -> Result<Kit, Diagnostics> {
    let kit_file = source.display_path("kit.toml");
    let mut diags: Diagnostics = (source.unreadable.iter())
        .map(|(file, why)| Diagnostic::file(&source.display_path(file), why.clone()))
        .collect();
    let Some(text) = source.files.get("kit.toml") else {
        if diags.is_empty() {
            diags.push(Diagnostic::file(&kit_file, "no kit.toml in the kit folder"));
        }
        return Err(diags);
    };
    let shared: std::sync::Arc<str> = std::sync::Arc::from(text.as_str());
    let raw: raw::RawKit = match toml::from_str(text) {
        Ok(raw) => raw,
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            let message = crate::diag::plain_toml_message(e.message());
            diags.push(Diagnostic::at(&kit_file, &shared, span, message));
            return Err(diags);
        }
    };
    let at = |span: Span, msg: String| Diagnostic::at(&kit_file, &shared, span, msg);
    // Each check goes on after a problem, so that one run tells every problem.
    let game = check_head(&raw, &at, &mut diags);
    let sheets = sheet_list(raw.sheets.get_ref(), &at, &mut diags);
    check_lengths(&raw, game, &at, &mut diags);
    let (sizes, default_size) = board_sizes(&raw, game, &at, &mut diags);
    if let Some(ledger) = &raw.ledger {
        check_ledger(ledger, &at, &mut diags);
    }
    let examples = examples(&raw.example, &at, &mut diags);
    let puzzles = raw.puzzles.as_ref().and_then(|p| puzzle_spec(p, &at, &mut diags));
    let rules = raw.rules.as_ref().map_or_else(RuleParams::default, |rules| {
        rule_params(rules, game, &sizes, &at, &mut diags)
    });
    let game_minutes = raw
        .time
        .as_ref()
        .map(|time| game_minutes(time, &sizes, &at, &mut diags))
        .unwrap_or_default();
    let date = raw.date.as_ref().and_then(|date| date_of(date, &at, &mut diags));
    let (mut languages, lang_diags) = strings::load_all(source);
    diags.extend(lang_diags);
    if let Some(game) = game {
        defaults::fill_in(game, source, &mut languages);
    }
    diags.extend(unknown_templates(source));
    diags.extend(strings_of_no_example(source, &examples));
    let card = card_sheets(raw.card.iter().flatten(), &sheets, &at, &mut diags);
    let Some(game) = game.filter(|_| diags.is_empty()) else {
        return Err(diags);
    };
    Ok(Kit {
        id: raw.id.into_inner(),
        game,
        sheets,
        card,
        board: board_spec(raw.board, sizes, default_size),
        pieces: PieceSpec {
            size_mm: *raw.pieces.size_mm.get_ref(),
            spares: *raw.pieces.spares.get_ref(),
        },
        ledger_moves: raw.ledger.as_ref().map(|l| *l.moves.get_ref()),
        examples,
        puzzles,
        rules,
        game_minutes,
        date,
        languages,
        templates: templates_of(source),
        kit_file,
        kit_source: shared,
    })
}

/// Checks the kit's id, its spares and its game, the first things kit.toml says;
/// returns the game, if it is one.
fn check_head(
    raw: &raw::RawKit,
    at: &dyn Fn(Span, String) -> Diagnostic,
    diags: &mut Diagnostics,
) -> Option<GameId> {
    if !is_slug(raw.id.get_ref()) {
        diags.push(
            at(
                raw.id.span(),
                format!("kit id `{}` is not a safe folder name", raw.id.get_ref()),
            )
            .with_label(
                "expected lowercase letters, digits and inner hyphens (at most 64)",
            ),
        );
    }
    if *raw.pieces.spares.get_ref() > MAX_SPARES {
        diags.push(
            at(raw.pieces.spares.span(), format!("spares must be 0 to {MAX_SPARES}"))
                .with_label(format!("found {}", raw.pieces.spares.get_ref())),
        );
    }
    let game = GameId::parse(raw.game.get_ref());
    if game.is_none() {
        diags.push(
            at(raw.game.span(), format!("unknown game `{}`", raw.game.get_ref()))
                .with_label(format!("expected one of: {}", GameId::names().join(", "))),
        );
    }
    game
}

/// The player sheets `sheets` lists, in order: the sheets every kit gets (contents,
/// puzzles, host key) and repeats are problems, not sheets.
fn sheet_list(
    listed: &[toml::Spanned<String>],
    at: &dyn Fn(Span, String) -> Diagnostic,
    diags: &mut Diagnostics,
) -> Vec<SheetKind> {
    let mut sheets = Vec::new();
    for sheet in listed {
        match SheetKind::from_name(sheet.get_ref()) {
            Some(SheetKind::HostKey) => diags.push(
                at(sheet.span(), "the host key is always made; do not list it".into())
                    .with_label("remove this entry"),
            ),
            Some(SheetKind::Puzzles) => diags.push(
                at(
                    sheet.span(),
                    "the puzzle sheet is made when `[puzzles]` asks for it; do not list \
                     it"
                    .into(),
                )
                .with_label("remove this entry, and add a [puzzles] table"),
            ),
            Some(SheetKind::Contents) => diags.push(
                at(
                    sheet.span(),
                    "the contents sheet is always made; do not list it".into(),
                )
                .with_label("remove this entry"),
            ),
            Some(kind) if sheets.contains(&kind) => diags.push(at(
                sheet.span(),
                format!("sheet `{}` listed twice", sheet.get_ref()),
            )),
            Some(kind) => sheets.push(kind),
            None => {
                let names: Vec<_> =
                    SheetKind::PLAYER_SHEETS.iter().map(|s| s.name()).collect();
                diags.push(
                    at(sheet.span(), format!("unknown sheet `{}`", sheet.get_ref()))
                        .with_label(format!("expected one of: {}", names.join(", "))),
                );
            }
        }
    }
    sheets
}

/// Checks the board's and the pieces' lengths: each in range, points that do not
/// overlap, pieces that fit, and no length the game's board does not use.
fn check_lengths(
    raw: &raw::RawKit,
    game: Option<GameId>,
    at: &dyn Fn(Span, String) -> Diagnostic,
    diags: &mut Diagnostics,
) {
    // The board's spacing obeys the same range as `--cell`; marks and pieces only
    // need to be positive and no larger than a cell can be.
    let lengths = [
        Some((&raw.board.spacing_mm, "board spacing", MIN_CELL_MM)),
        raw.board.row_spacing_mm.as_ref().map(|d| (d, "row spacing", MIN_CELL_MM)),
        raw.board.point_diameter_mm.as_ref().map(|d| (d, "point diameter", 0.0)),
        Some((&raw.pieces.size_mm, "piece size", 0.0)),
    ];
    for (value, what, min) in lengths.into_iter().flatten() {
        let mm = *value.get_ref();
        let ok = if min > 0.0 { mm >= min } else { mm > 0.0 } && mm <= MAX_CELL_MM;
        if !ok {
            let range = if min > 0.0 {
                format!("{min} to {MAX_CELL_MM} mm")
            } else {
                format!("more than 0 and at most {MAX_CELL_MM} mm")
            };
            diags.push(
                at(value.span(), format!("{what} must be {range}"))
                    .with_label(format!("found {mm}")),
            );
        }
    }
    let row_spacing =
        raw.board.row_spacing_mm.as_ref().map_or(f64::INFINITY, |r| *r.get_ref());
    let tightest = raw.board.spacing_mm.get_ref().min(row_spacing);
    if let Some(dot) = &raw.board.point_diameter_mm
        && *dot.get_ref() >= tightest
    {
        diags.push(at(dot.span(), "the board's points would overlap".into()).with_label(
            format!("expected less than the point spacing of {tightest} mm"),
        ));
    }
    if let Some(most) = too_large(*raw.pieces.size_mm.get_ref(), tightest) {
        diags.push(
            at(raw.pieces.size_mm.span(), "pieces are too large for the board".into())
                .with_label(format!(
                    "expected at most {most} mm: {PIECE_CLEARANCE_MM} mm less than the \
                     spacing of {tightest} mm, so that neighbours lie side by side"
                )),
        );
    }
    if let Some(game) = game {
        let optional = [
            ("row-spacing-mm", raw.board.row_spacing_mm.as_ref().map(|v| v.span())),
            ("point-diameter-mm", raw.board.point_diameter_mm.as_ref().map(|v| v.span())),
        ];
        for (key, span) in optional {
            if let Some(span) = span
                && !game.kit().board_keys().contains(&key)
            {
                diags.push(
                    at(span, format!("`{key}` has no effect on a `{game}` board"))
                        .with_label("remove it"),
                );
            }
        }
    }
}

/// The board sizes the kit offers, and the one built when none is asked for.
fn board_sizes(
    raw: &raw::RawKit,
    game: Option<GameId>,
    at: &dyn Fn(Span, String) -> Diagnostic,
    diags: &mut Diagnostics,
) -> (std::ops::RangeInclusive<u8>, u8) {
    let game_sizes = game.map_or(1..=1, |game| game.kit().sizes());
    let sizes = match &raw.board.size_range {
        Some(range) => {
            let [lo, hi] = *range.get_ref();
            if lo > hi || !game_sizes.contains(&lo) || !game_sizes.contains(&hi) {
                diags.push(
                    at(range.span(), format!("no size range {lo} to {hi}")).with_label(
                        format!(
                            "`{}` is played on {}",
                            raw.game.get_ref(),
                            size_range(&game_sizes)
                        ),
                    ),
                );
            }
            lo.max(*game_sizes.start())..=hi.min(*game_sizes.end())
        }
        // A kit that names no range offers the game's usual sizes, or just the one
        // size it sets beyond them (a Stack-top roads kit of 4×4).
        None => {
            let usual = game.map_or(1..=1, |game| game.kit().usual_sizes());
            match &raw.board.size {
                Some(size)
                    if !usual.contains(size.get_ref())
                        && game_sizes.contains(size.get_ref()) =>
                {
                    *size.get_ref()..=*size.get_ref()
                }
                _ => usual,
            }
        }
    };
    let default_size = match &raw.board.size {
        Some(size) if !sizes.contains(size.get_ref()) => {
            diags.push(
                at(size.span(), format!("no board size {}", size.get_ref())).with_label(
                    format!(
                        "`{}` is played on {}",
                        raw.game.get_ref(),
                        size_range(&sizes)
                    ),
                ),
            );
            *sizes.start()
        }
        Some(size) => *size.get_ref(),
        None => *sizes.start(),
    };
    (sizes, default_size)
}

/// A ledger holds 1 to 500 move rows.
fn check_ledger(
    ledger: &raw::RawLedger,
    at: &dyn Fn(Span, String) -> Diagnostic,
    diags: &mut Diagnostics,
) {
    if !(1..=500).contains(ledger.moves.get_ref()) {
        diags.push(
            at(ledger.moves.span(), "the ledger needs 1 to 500 move rows".into())
                .with_label(format!("found {}", ledger.moves.get_ref())),
        );
    }
}

/// The kit's `date` as seconds since 1970 (see [`kit_date`]), if it is a day.
fn date_of(
    date: &toml::Spanned<toml::value::Datetime>,
    at: &dyn Fn(Span, String) -> Diagnostic,
    diags: &mut Diagnostics,
) -> Option<i64> {
    match kit_date(date.get_ref()) {
        Ok(seconds) => Some(seconds),
        Err(message) => {
            diags.push(
                at(date.span(), message).with_label(format!("found {}", date.get_ref())),
            );
            None
        }
    }
}

/// The kit's `[puzzles]` table as a puzzle sheet, if its numbers are in range; the
/// problem names the count or the plies, whichever is out of it.
fn puzzle_spec(
    p: &raw::RawPuzzles,
    at: &dyn Fn(Span, String) -> Diagnostic,
    diags: &mut Diagnostics,
) -> Option<PuzzleSpec> {
    let seed = p.seed.as_ref().map_or(1, |s| *s.get_ref());
    let span = p.count.span().start..p.plies.span().end.max(p.count.span().end);
    match PuzzleSpec::new(*p.count.get_ref(), *p.plies.get_ref(), seed, span) {
        Ok(spec) => Some(spec),
        Err(e) => {
            let bad_count = PuzzleSpec::new(*p.count.get_ref(), 1, seed, 0..0).is_err();
            let value = if bad_count { &p.count } else { &p.plies };
            diags.push(
                at(value.span(), e).with_label(format!("found {}", value.get_ref())),
            );
            None
        }
    }
}

/// The sheets `card` names, each of which must be one of the kit's `sheets`.
fn card_sheets<'a>(
    listed: impl Iterator<Item = &'a toml::Spanned<String>>,
    sheets: &[SheetKind],
    at: &dyn Fn(Span, String) -> Diagnostic,
    diags: &mut Diagnostics,
) -> Vec<SheetKind> {
    let mut card = Vec::new();
    for sheet in listed {
        match SheetKind::from_name(sheet.get_ref()) {
            Some(kind) if sheets.contains(&kind) => card.push(kind),
            _ => diags.push(
                at(
                    sheet.span(),
                    format!("`{}` is not one of the kit's sheets", sheet.get_ref()),
                )
                .with_label("list only sheets named in `sheets`"),
            ),
        }
    }
    card
}

/// The board as declared, with the sizes [`board_sizes`] settled.
fn board_spec(
    board: raw::RawBoard,
    sizes: std::ops::RangeInclusive<u8>,
    default_size: u8,
) -> BoardSpec {
    BoardSpec {
        default_size,
        sizes,
        presets: board.presets.iter().map(|(k, v)| (k.clone(), *v.get_ref())).collect(),
        spacing_mm: *board.spacing_mm.get_ref(),
        row_spacing_mm: board.row_spacing_mm.map(|d| d.into_inner()),
        point_diameter_mm: board.point_diameter_mm.map(|d| d.into_inner()),
    }
}

/// The kit's own templates (`templates/<sheet>.tera`), by sheet name.
fn templates_of(source: &Source) -> BTreeMap<String, String> {
    source
        .files
        .iter()
        .filter_map(|(path, text)| {
            let name = path.strip_prefix("templates/")?.strip_suffix(".tera")?;
            Some((name.to_string(), text.clone()))
        })
        .collect()
}

/// `date`: a day (no time of day), from 1970 to 9999, as seconds since 1970 at its
/// midnight UTC.
fn kit_date(value: &toml::value::Datetime) -> Result<i64, String> {
    let expected = "a day from 1970-01-01 to 9999-12-31, such as 2026-12-02";
    let (Some(date), None, None) = (value.date, value.time, value.offset) else {
        return Err(format!("`date` is {expected}, without a time"));
    };
    let (y, m, d) = (i64::from(date.year), i64::from(date.month), i64::from(date.day));
    if !(1970..=9999).contains(&y) {
        return Err(format!("`date` is {expected}"));
    }
    Ok(crate::pdf::days_from_civil(y, m, d) * 86_400)
}

/// The most minutes a game may be said to take: a long afternoon.
pub const MAX_GAME_MINUTES: u32 = 600;

/// `[time] game-minutes`: each key a board size the kit offers, each value the
/// fewest and most minutes, 1 to [`MAX_GAME_MINUTES`], fewest first.
fn game_minutes(
    time: &raw::RawTime,
    sizes: &std::ops::RangeInclusive<u8>,
    at: &dyn Fn(Span, String) -> Diagnostic,
    diags: &mut Diagnostics,
) -> BTreeMap<u8, (u32, u32)> {
    let mut minutes = BTreeMap::new();
    for (size, range) in time.game_minutes.get_ref() {
        let Some(size) = size.parse::<u8>().ok().filter(|s| sizes.contains(s)) else {
            let message = format!("`{size}` is not a board size the kit offers");
            diags.push(
                at(time.game_minutes.span(), message)
                    .with_label(format!("sizes: {}", size_range(sizes))),
            );
            continue;
        };
        match range.get_ref().as_slice() {
            &[least, most] if (1..=most).contains(&least) && most <= MAX_GAME_MINUTES => {
                minutes.insert(size, (least, most));
            }
            _ => diags.push(
                at(range.span(), format!("game minutes for {size}×{size}"))
                    .with_label(format!(
                        "expected [fewest, most], from 1 to {MAX_GAME_MINUTES}, fewest first"
                    )),
            ),
        }
    }
    minutes
}

/// The `[rules]` a kit sets, each checked against the keys and ranges its game's
/// engine plays; a carry may not lift more stones than the smallest board is wide.
fn rule_params(
    raw: &raw::RawRules,
    game: Option<GameId>,
    sizes: &std::ops::RangeInclusive<u8>,
    at: &dyn Fn(Span, String) -> Diagnostic,
    diags: &mut Diagnostics,
) -> RuleParams {
    let keys = game.map_or(&[][..], |game| game.kit().rule_keys());
    let entries = [
        ("stones", &raw.stones),
        ("crowns", &raw.crowns),
        ("carry-limit", &raw.carry_limit),
        ("turn-limit", &raw.turn_limit),
    ];
    let mut checked = [None; 4];
    for (slot, (name, value)) in checked.iter_mut().zip(entries) {
        let Some(value) = value else { continue };
        let Some(key) = keys.iter().find(|key| key.name == name) else {
            let game = game.map_or("this".to_string(), |g| format!("`{g}`"));
            diags.push(
                at(value.span(), format!("`{name}` has no effect on a {game} game"))
                    .with_label("remove it"),
            );
            continue;
        };
        let mut range = key.range.clone();
        if name == "carry-limit" {
            range = *range.start()..=(*range.end()).min(u32::from(*sizes.start()));
        }
        if !range.contains(value.get_ref()) {
            diags.push(
                at(
                    value.span(),
                    format!("`{name}` is {} to {}", range.start(), range.end()),
                )
                .with_label(format!("found {}", value.get_ref())),
            );
            continue;
        }
        *slot = Some(*value.get_ref());
    }
    let [stones, crowns, carry_limit, turn_limit] = checked;
    RuleParams { stones, crowns, carry_limit, turn_limit }
}

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

fn examples(
    raw: &[raw::RawExample],
    at: &dyn Fn(Span, String) -> Diagnostic,
    diags: &mut Diagnostics,
) -> Vec<Example> {
    let mut seen: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for ex in raw {
        if seen.contains(&ex.id.get_ref().as_str()) {
            diags.push(at(
                ex.id.span(),
                format!("example `{}` defined twice", ex.id.get_ref()),
            ));
        }
        seen.push(ex.id.get_ref());
        let mut claims = Vec::new();
        if let Some(v) = &ex.legal {
            claims.push((Claim::Legal(*v.get_ref()), v.span()));
        }
        if let Some(v) = &ex.winner {
            claims.push((Claim::Winner(v.get_ref().clone()), v.span()));
        }
        if let Some(v) = &ex.draw {
            claims.push((Claim::Draw(v.get_ref().clone()), v.span()));
        }
        if let Some(v) = &ex.line {
            claims.push((Claim::Line(v.get_ref().clone()), v.span()));
        }
        if let Some(v) = &ex.tops {
            let tops = v.get_ref().iter().map(|(k, v)| (k.clone(), v.clone())).collect();
            claims.push((Claim::Tops(tops), v.span()));
        }
        match (&ex.legal_moves, &ex.from) {
            (Some(v), from) => claims.push((
                Claim::LegalMoves {
                    from: from.as_ref().map(|f| f.get_ref().clone()),
                    moves: v.get_ref().clone(),
                },
                v.span(),
            )),
            (None, Some(from)) => diags.push(
                at(from.span(), "`from` needs `legal-moves` beside it".into())
                    .with_label("add legal-moves = [...] to this example"),
            ),
            (None, None) => {}
        }
        if claims.is_empty() {
            diags.push(
                at(ex.id.span(), format!("example `{}` claims nothing", ex.id.get_ref()))
                    .with_label(
                        "expected legal, winner, draw, line, tops or legal-moves",
                    ),
            );
        }
        out.push(Example {
            id: ex.id.get_ref().clone(),
            position: ex.position.get_ref().clone(),
            position_span: ex.position.span(),
            moves: ex.moves.iter().map(|m| (m.get_ref().clone(), m.span())).collect(),
            claims,
            puzzle: ex.puzzle,
        });
    }
    out
}
