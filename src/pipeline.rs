//! The pipeline for one kit variant, as short typed stages: the kit as this edition
//! draws it (`variant`) → its examples verified by the rules → the strings and facts
//! each audience may see (`views`) → every template filled, with the build's stamps
//! (`fill`) → markup laid out on pages (`lay_out`, `chunks`, `contents`) → the PDFs
//! and their extras (`write`).
//! Pure: the caller reads the kit and writes the files.

mod board_words;
mod chunks;
pub mod class;
mod contents;
mod context;
mod edition;
mod fill;
mod lay_out;
mod puzzles;
mod variant;
mod views;
mod write;

use std::collections::BTreeSet;

use crate::calibrate::Calibration;
use crate::diag::Diagnostics;
use crate::games;
use crate::kit::{self, Kit, SheetKind, Source};
use crate::layout::{self, Paper};
use crate::preview::Previews;
use crate::sheet::template::TemplateSet;

pub use self::edition::{builtin_templates, edition_suffix, templates_for, variant_name};
use self::lay_out::LayoutContext;
use self::variant::Variant;
use self::views::Views;
pub use self::views::{facts, kit_words};

/// What to build.
#[derive(Clone, Debug)]
pub struct Options {
    /// Language code.
    pub lang: String,
    /// Paper size.
    pub paper: Paper,
    /// Board size; `None` for the kit's default.
    pub size: Option<u8>,
    /// Cell size (millimetres or a preset's name); `None` for the kit's own.
    pub cell: Option<String>,
    /// Templates to use (built-in, with any overrides applied).
    pub templates: TemplateSet,
    /// The printer correction to draw every sheet with; `None` for exact sizes.
    pub calibration: Option<Calibration>,
    /// Pictures, cut files and registration marks to add.
    pub previews: Previews,
    /// The class the build is for (copies, totals and the print job); `None` for
    /// one game's worth.
    pub class: Option<class::Class>,
    /// How pieces are laid out for cutting.
    pub cut: layout::cut::CutLayout,
    /// Large print: player text at 14 pt (nothing under 12 pt), the kit's large cells.
    pub large_print: bool,
}

pub use crate::kit::PUZZLE_ANSWERS;

/// The first stage: a kit's files as a validated kit, checked against what its game
/// plays (sizes, board and rules keys), with every problem found.
pub fn load(source: &Source) -> Result<Kit, Diagnostics> {
    kit::load(source, games::schema)
}

/// The most pages one sheet may have: far beyond any kit, short of exhausting memory.
pub const MAX_PAGES: usize = 200;

/// Languages that write a decimal comma (23,7 mm).
pub const DECIMAL_COMMA_LANGUAGES: &[&str] = &["de", "el", "es", "fr"];

/// One PDF made.
#[derive(Clone, Debug)]
pub struct Output {
    /// The sheet it holds.
    pub sheet: SheetKind,
    /// File name, the same in every language (`board.pdf`, `host-key.pdf`).
    pub file_name: String,
    /// The sheet's title as printed, in the build's language ("Game record").
    pub title: String,
    /// Number of pages.
    pub pages: usize,
    /// The PDF.
    pub bytes: Vec<u8>,
    /// Files made beside the PDF, by path inside the variant's folder: its pages'
    /// pictures (`preview/board-1.png`) and cut files (`board.cut.svg`).
    pub extras: Vec<(String, Vec<u8>)>,
}

/// The host key's folder is the players' folder name with this added
/// (`en-a4-host/` beside `en-a4/`): never inside the players' folder.
pub const HOST_FOLDER_SUFFIX: &str = "-host";

/// A class build's one print job, written with the player sheets.
pub const PRINT_ALL_FILE: &str = "print-all.pdf";

/// Every PDF of one kit in one language and paper size.
#[derive(Clone, Debug)]
pub struct Built {
    /// The PDFs: the contents sheet first, then the player sheets, the host key last.
    pub outputs: Vec<Output>,
    /// For a class: every player sheet as many times as the class needs, in
    /// preparation order, as one PDF (its pages, its bytes).
    pub print_all: Option<(usize, Vec<u8>)>,
    /// String keys this language lacked, filled from English.
    pub fell_back: Vec<String>,
    /// What the reader should know about the build (fewer puzzles than asked).
    pub notes: Vec<String>,
    /// Every string key the build printed or read, its templates' included.
    pub strings_read: BTreeSet<String>,
}

/// Builds every sheet of a kit. All problems found are reported together.
pub fn build(kit: &Kit, options: &Options) -> Result<Built, Diagnostics> {
    // The kit and options as this edition draws them, puzzles made and added.
    let variant = Variant::of(kit, options)?;
    // Every worked example replayed by the rules: the game ready to draw its figures.
    let game = variant.verify()?;
    // The strings and facts the players may see, and those the host may.
    let views = Views::resolve(&variant, game.as_ref())?;
    // Every sheet's template filled in, the build's stamps with them.
    let filled = fill::every_sheet(&variant, &views)?;
    // The markup on pages: every sheet, the board's words moved if that saves a
    // sheet, the contents sheet last.
    let layout =
        LayoutContext { variant: &variant, game: game.as_ref(), stamp: &filled.stamp };
    let laid = layout.every_sheet(&views, &filled.sheets)?;
    // The PDFs, their previews and cut files, and a class's print job.
    Ok(write::built(&variant, &views, laid))
}
