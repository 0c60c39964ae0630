//! What a sheet's template sees: one view's strings, facts and examples, and what
//! the build says of itself. The one place the template context is made, so that
//! every sheet, the contents sheet included, sees the same names.

use std::collections::BTreeMap;

use serde::Serialize;

use super::views::View;
use super::{DECIMAL_COMMA_LANGUAGES, Options, class, puzzles};
use crate::games::Facts;
use crate::kit::Kit;
use crate::layout::{self, Paper};
use crate::verify::Summary;

/// The strings [`paper_words`] reads, whichever paper is built.
pub(super) const PAPER_STRINGS: [&str; 3] =
    ["contents.paper_custom_mm", "contents.paper_custom_in", "contents.paper_landscape"];

/// The paper as `table`'s language names it: a named size by its name, a custom one
/// by its sides and unit (`contents.paper_custom_mm`, `…_in`), turned or not
/// (`contents.paper_landscape`).
fn paper_words(paper: &Paper, table: &toml::Table, lang: &str) -> String {
    let text = |key: &str| {
        table
            .get("contents")
            .and_then(|c| c.get(key))
            .and_then(|v| v.as_str())
            .unwrap_or("")
    };
    let (shown, landscape) = paper.shown();
    let name = match shown {
        layout::paper::Shown::Named(name) => name.to_string(),
        layout::paper::Shown::Custom { sides: (width, height), inches } => {
            let number = |side: &str| match DECIMAL_COMMA_LANGUAGES.contains(&lang) {
                true => side.replace('.', ","),
                false => side.to_string(),
            };
            let key = if inches { "paper_custom_in" } else { "paper_custom_mm" };
            text(key)
                .replace("{paper_width}", &number(&width))
                .replace("{paper_height}", &number(&height))
        }
    };
    match landscape {
        true => text("paper_landscape").replace("{paper}", &name),
        false => name,
    }
}

/// The context a template is filled with.
#[derive(Serialize)]
pub(super) struct Context<'a> {
    pub t: &'a toml::Table,
    pub kit: KitInfo<'a>,
    pub facts: &'a Facts,
    pub examples: BTreeMap<&'a str, &'a Summary>,
    /// The game's own lists (e.g. `stuck` positions), at the top level.
    #[serde(flatten)]
    pub lists: BTreeMap<&'static str, Vec<String>>,
    /// The puzzle sheet's puzzles, [`puzzles::PER_ROW`] to a row (empty without one).
    pub puzzle_rows: &'a [Vec<puzzles::Entry>],
    pub lang: &'a str,
    pub paper: &'a str,
    /// The paper as the sheet's language names it (`A4, landscape`, `300 × 400 mm`).
    pub paper_shown: String,
    /// How pieces are laid out for cutting: `grid` or `outline`.
    pub cut: &'static str,
    /// The build's stamp (contents sheet only; every footer carries it).
    pub stamp: String,
    /// The command that makes this build again (contents sheet only).
    pub rebuild: String,
    /// The player sheets are in large print.
    pub large_print: bool,
    /// Every file of the build with its pages (contents sheet only).
    pub files: Vec<FileInfo>,
    /// The board's sheets hold only its parts: its words and plan are on the
    /// contents sheet.
    pub board_in_parts: bool,
    /// The class section (contents sheet of a class build only).
    pub class: Option<class::Words>,
    /// The board is printed on more than one sheet, in parts to glue (contents
    /// sheet only).
    pub board_parts: bool,
}

/// One file of the build, as the contents sheet lists it.
#[derive(Serialize)]
pub(super) struct FileInfo {
    /// `board.pdf`.
    pub name: String,
    /// The sheet's name (`board`), for choosing its description.
    pub sheet: &'static str,
    /// Its number of pages.
    pub pages: usize,
    /// Copies to print: 1 each without a class.
    pub copies: u32,
    /// "Print 12 copies.", for a class build; empty without one.
    pub copies_text: String,
    /// "2 pages".
    pub pages_text: String,
}

#[derive(Serialize)]
pub(super) struct KitInfo<'a> {
    pub id: &'a str,
    pub game: &'a str,
}

impl View {
    /// The context of a sheet of this view, for `kit` built with `options`: what
    /// only the contents sheet says of the build left empty.
    pub(super) fn context<'v>(
        &'v self,
        kit: &'v Kit,
        options: &'v Options,
    ) -> Context<'v> {
        Context {
            t: &self.table,
            kit: KitInfo { id: &kit.id, game: kit.game.name() },
            facts: &self.facts,
            examples: self.examples.iter().map(|(id, v)| (id.as_str(), v)).collect(),
            lists: self.lists.clone(),
            puzzle_rows: &self.puzzle_rows,
            lang: &options.lang,
            paper: options.paper.name(),
            paper_shown: paper_words(&options.paper, &self.table, &options.lang),
            cut: options.cut.name(),
            stamp: String::new(),
            rebuild: String::new(),
            large_print: options.large_print,
            files: Vec::new(),
            board_in_parts: false,
            class: None,
            board_parts: false,
        }
    }
}
