//! The pipeline, as short typed stages: a kit's examples verified by the rules, once
//! per kit ([`verify`]); then for each variant, the kit as this edition draws it
//! (`variant`) and the game ready to draw it, its puzzles replayed → the strings and
//! facts each audience may see (`views`) → every template filled, with the build's
//! stamps (`fill`) → markup laid out on pages (`lay_out`, `chunks`, `contents`) → the
//! PDFs and their extras (`write`).
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
use std::sync::Arc;

use crate::calibrate::Calibration;
use crate::diag::Diagnostics;
use crate::games;
use crate::kit::{self, Kit, SheetKind, Source};
use crate::layout::{self, Paper};
use crate::preview::Previews;
use crate::sheet::template::TemplateSet;
pub use crate::text::Shaper;

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

/// A kit's worked examples replayed by its game's rules, every claim checked: what
/// [`verify`] makes once per kit and every variant [`build_verified`] builds shares,
/// with the puzzles those variants make (each board size's made once).
#[derive(Clone)]
pub struct Verified {
    kit_id: String,
    examples: Arc<dyn games::VerifiedExamples>,
    made: Arc<puzzles::Made>,
}

impl Verified {
    /// How many of the kit's examples the rules replayed (each once).
    pub fn replayed(&self) -> usize {
        self.examples.replayed()
    }
}

impl std::fmt::Debug for Verified {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Verified")
            .field("kit_id", &self.kit_id)
            .field("replayed", &self.replayed())
            .finish()
    }
}

/// The second stage: every worked example of `kit` replayed by its game's rules and
/// every claim checked, each false claim reported at its line. Done once per kit;
/// hand the result to [`build_verified`] for each language, paper and size.
pub fn verify(kit: &Kit) -> Result<Verified, Diagnostics> {
    let examples = games::home(kit.game).verify(kit)?;
    let made = Arc::default();
    Ok(Verified { kit_id: kit.id.clone(), examples: Arc::from(examples), made })
}

/// Builds every sheet of a kit: [`verify`], then [`build_verified`]. All problems
/// found are reported together.
pub fn build(kit: &Kit, options: &Options) -> Result<Built, Diagnostics> {
    build_verified(kit, &verify(kit)?, options)
}

/// Builds every sheet of a kit whose examples [`verify`] has replayed: only the
/// puzzles made for this build are replayed here. All problems found are reported
/// together.
///
/// # Panics
///
/// If `verified` was made for a kit of another id.
pub fn build_verified(
    kit: &Kit,
    verified: &Verified,
    options: &Options,
) -> Result<Built, Diagnostics> {
    build_shaped(kit, verified, options, &Shaper::new())
}

/// [`build_verified`], its text set by `shaper`, which keeps what it shaped for
/// the next build handed it: a command building many variants on one thread hands
/// each the same one (the variants share most of their words and numbers).
///
/// # Panics
///
/// If `verified` was made for a kit of another id.
pub fn build_shaped(
    kit: &Kit,
    verified: &Verified,
    options: &Options,
    shaper: &Shaper,
) -> Result<Built, Diagnostics> {
    assert_eq!(kit.id, verified.kit_id, "examples verified for another kit");
    // The kit and options as this edition draws them, puzzles made.
    let variant = Variant::of(kit, options, &verified.made, shaper)?;
    // The game ready to draw its figures: the examples this size shows, the puzzles
    // replayed by the rules.
    let game = variant.sheets(verified)?;
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

#[cfg(test)]
mod tests {
    use super::board_words::{self, MovedBoard};
    use super::*;
    use crate::kit::Claim;

    /// The built-in kit `id`, its kit.toml edited by `edit`.
    fn shipped(id: &str, edit: impl Fn(&str) -> String) -> Kit {
        let kits = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../kits");
        let mut source = crate::io::read_kits_dir(&kits)
            .expect("kits/ reads")
            .into_iter()
            .find(|source| source.dir.ends_with(id))
            .expect("the kit ships");
        let toml = source.files.get_mut("kit.toml").expect("a kit.toml");
        *toml = edit(toml);
        load(&source).expect("the kit loads")
    }

    fn options(kit: &Kit, lang: &str) -> Options {
        Options {
            lang: lang.to_string(),
            paper: Paper::a4(),
            size: None,
            cell: None,
            calibration: None,
            previews: Default::default(),
            class: None,
            cut: Default::default(),
            large_print: false,
            templates: templates_for(kit, &Default::default()),
        }
    }

    #[test]
    fn a_kits_examples_are_replayed_once_not_once_per_variant() {
        let kit = shipped("three-men-slide", str::to_string);
        let verified = verify(&kit).expect("the kit's claims hold");
        assert_eq!(verified.replayed(), kit.examples.len());
        // A claim made false after the kit was verified: a variant's build replays
        // none of the kit's own examples, so every language builds from what was
        // verified once, and only verifying again finds the false claim.
        let mut broken = kit.clone();
        let span = broken.examples[0].position_span.clone();
        broken.examples[0].claims = vec![(Claim::Winner("nobody".into()), span)];
        for lang in kit.languages.keys() {
            let built = build_verified(&broken, &verified, &options(&broken, lang));
            assert!(built.is_ok(), "{lang}: a variant replayed the kit's examples");
        }
        let told = verify(&broken).expect_err("the false claim is found");
        assert_eq!(told.len(), 1, "{told:?}");
        assert!(told[0].render().contains("the rules disagree"), "{}", told[0].render());
        assert!(build(&broken, &options(&broken, "en")).is_err());
    }

    /// A game that draws as `real` does, but whose board drawing, after `boards` good
    /// ones, finds its words too long for their box.
    struct Flaky<'g> {
        real: &'g dyn games::Sheets,
        boards: std::cell::Cell<usize>,
    }

    impl games::Sheets for Flaky<'_> {
        fn summaries(&self) -> Vec<crate::verify::Summary> {
            self.real.summaries()
        }

        fn facts(&self, facts: &mut games::Facts) {
            self.real.facts(facts)
        }

        fn figure(
            &self,
            name: &str,
            args: &[String],
            cx: &layout::FigureContext,
        ) -> Result<Vec<layout::flow::Chunk>, layout::FigureError> {
            if name == "board" {
                let Some(left) = self.boards.get().checked_sub(1) else {
                    let message = "`board.title` is too long".to_string();
                    return Err(layout::FigureError::too_long("board.title", message));
                };
                self.boards.set(left);
            }
            self.real.figure(name, args, cx)
        }
    }

    #[test]
    fn a_moved_board_words_problem_is_told_at_its_strings_key() {
        use crate::layout::figure::Audience;
        let kit = shipped("three-men-slide", str::to_string);
        let options = options(&kit, "fr");
        let verified = verify(&kit).expect("the kit's claims hold");
        let made = Default::default();
        let shaper = crate::text::Shaper::new();
        let variant = Variant::of(&kit, &options, &made, &shaper).expect("the variant");
        let real = variant.sheets(&verified).expect("the sheets");
        let views = Views::resolve(&variant, real.as_ref()).expect("the views");
        let filled = fill::every_sheet(&variant, &views).expect("filled");
        let (_, board) = (filled.sheets.iter())
            .find(|(sheet, _)| *sheet == SheetKind::Board)
            .expect("a board sheet");
        let cx = variant.figure_context(&views.players, Audience::Players);
        let flaky = |boards: usize| Flaky { real: real.as_ref(), boards: boards.into() };
        // Where the key is, in the French strings file.
        let strings = &kit.languages["fr"];
        let board_at = strings.source.lines().position(|l| l == "[board]").unwrap();
        let line = (strings.source.lines().enumerate().skip(board_at))
            .find(|(_, l)| l.starts_with("title"))
            .map(|(n, _)| n + 1)
            .unwrap();
        let at_key = format!("{}:{line}:", strings.file);
        // The board's words measured for the move.
        let told = MovedBoard::of(board, &cx, &flaky(0), &variant).err().unwrap();
        assert!(told[0].render().contains(&at_key), "{}", told[0].render());
        // The moved words set on the contents sheet, at its marker or at its end.
        let moved = MovedBoard::of(board, &cx, &flaky(1), &variant).unwrap().unwrap();
        for contents in ["@board-assembly\n", "Contents\n"] {
            let game = flaky(0);
            let layout = LayoutContext { variant: &variant, game: &game, stamp: "" };
            let portion = board_words::Portion::Contents(Some(&moved), &[]);
            let laid = layout.lay_out(SheetKind::Contents, contents, &cx, portion);
            let told = laid.err().expect("the legend does not fit");
            assert!(
                told[0].render().contains(&at_key),
                "{contents}: {}",
                told[0].render()
            );
        }
    }

    #[test]
    fn a_stack_top_roads_example_of_another_size_is_refused_at_its_position() {
        // Offered on 3×3 and 4×4, with the 3×3 examples: verified once, at their own
        // size; the 4×4 build refuses them at their position, as its rules would.
        let kit = shipped("stack-top-roads", |toml| {
            toml.replacen("[board]\n", "[board]\nsize-range = [3, 4]\n", 1)
        });
        let verified = verify(&kit).expect("the 3×3 examples hold");
        assert!(build_verified(&kit, &verified, &options(&kit, "en")).is_ok());
        let at_four = Options { size: Some(4), ..options(&kit, "en") };
        let told = build_verified(&kit, &verified, &at_four).expect_err("refused");
        let shown = told[0].render();
        assert!(shown.contains("the board has 3 rows, expected 4"), "{shown}");
        assert!(shown.contains("kit.toml:"), "{shown}");
    }
}
