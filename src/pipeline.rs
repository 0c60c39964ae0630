//! The pipeline for one kit variant: verify → fill templates → lay out → PDF bytes.
//! Pure: the caller reads the kit and writes the files.

mod board_words;
pub mod class;
mod puzzles;

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use self::board_words::{MovedBoard, Portion, is_board};
use crate::calibrate::Calibration;
use crate::diag::{Diagnostic, Diagnostics};
use crate::games::{Facts, PuzzleFacts, Sheets, number};
use crate::kit::strings::REFERENCE_LANGUAGE;
use crate::kit::{Kit, PuzzleSpec, SheetKind};
use crate::layout::figure::Audience;
use crate::layout::{self, FigureContext, Paper, figure, footer::Footer};
use crate::pdf;
use crate::preview::thumbnail::{self, Thumbnail};
use crate::preview::{self, Format, Previews};
use crate::sheet::markup::{self, Block};
use crate::sheet::template::TemplateSet;
use crate::text::{self, Reading};
use crate::verify::Summary;

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
    pub cut: layout::draw::CutLayout,
    /// Large print: player text at 14 pt (nothing under 12 pt), the kit's large cells.
    pub large_print: bool,
}

/// The template of the puzzles' answers, appended to the host key when the build has
/// a puzzle sheet.
pub const PUZZLE_ANSWERS: &str = "puzzle-answers";

/// The most pages one sheet may have: far beyond any kit, short of exhausting memory.
pub const MAX_PAGES: usize = 200;

/// The most problems one sheet's markup reports: a template that repeats a mistake
/// in a loop is told a few times, not thousands.
const MAX_PROBLEMS_PER_SHEET: usize = 20;

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

/// The strings [`paper_words`] reads, whichever paper is built.
const PAPER_STRINGS: [&str; 3] =
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

/// The templates a kit is built with: its game's, then `overrides` (a templates
/// folder, by sheet name), then the kit's own.
pub fn templates_for(
    kit: &Kit,
    overrides: &BTreeMap<String, (String, String)>,
) -> TemplateSet {
    let own: BTreeMap<String, (String, String)> = kit
        .templates
        .iter()
        .map(|(name, text)| {
            let path = format!("{}/templates/{name}.tera", kit.folder());
            (name.clone(), (path, text.clone()))
        })
        .collect();
    TemplateSet::builtin(kit.game).with_overrides(overrides).with_overrides(&own)
}

/// A variant's folder name: `en-a4`, with the board size added for games played at
/// several sizes (`en-a4-5`), then whatever else sets this edition apart from the
/// standard one (see [`edition_suffix`]).
pub fn variant_name(
    kit: &Kit,
    options: &Options,
    puzzles: Option<&Option<PuzzleSpec>>,
) -> String {
    let (lang, paper) = (&options.lang, options.paper.name());
    let sizes = &kit.board.sizes;
    let base = match sizes.start() == sizes.end() {
        true => format!("{lang}-{paper}"),
        false => {
            format!("{lang}-{paper}-{}", options.size.unwrap_or(kit.board.default_size))
        }
    };
    format!("{base}{}", edition_suffix(kit, options, puzzles))
}

/// Every option that changes the sheets, as folder-name parts, so that two editions
/// never share a folder: `-cell-large`, `-cell-25mm`, `-corrected-99.2x100.6`,
/// `-puzzles-6-plies-3`, `-no-puzzles`, `-cut-marks`, `-players-24-tables-6`.
/// `puzzles` is the puzzle sheet asked for beyond the kit's own.
pub fn edition_suffix(
    kit: &Kit,
    options: &Options,
    puzzles: Option<&Option<PuzzleSpec>>,
) -> String {
    let mut parts = Vec::new();
    if let Some(cell) = &options.cell {
        let preset = kit.board.presets.contains_key(cell) && crate::kit::is_slug(cell);
        match (preset, kit.cell_request(cell)) {
            (true, _) => parts.push(format!("cell-{cell}")),
            (false, Ok(mm)) => parts.push(format!("cell-{}mm", number(mm))),
            (false, Err(_)) => {}
        }
    }
    if let Some(calibration) = &options.calibration {
        let (across, down) = calibration.shown(false);
        parts.push(format!("corrected-{across}x{down}"));
    }
    match puzzles {
        Some(None) => parts.push("no-puzzles".to_string()),
        Some(Some(spec)) => {
            let seed = if spec.seed == 1 {
                String::new()
            } else {
                format!("-seed-{}", spec.seed)
            };
            parts.push(format!("puzzles-{}-plies-{}{seed}", spec.count, spec.plies));
        }
        None => {}
    }
    if options.cut == layout::draw::CutLayout::Outline {
        parts.push("cut-outline".to_string());
    }
    if options.previews.cut_marks {
        parts.push("cut-marks".to_string());
    }
    if options.large_print {
        parts.push("large-print".to_string());
    }
    if let Some(class) = &options.class {
        parts.push(class.folder_suffix());
    }
    parts.iter().map(|part| format!("-{part}")).collect()
}

/// Some of a kit's strings in each of `langs`, placeholders filled for its default
/// board size but `{size}` itself, which is left for the reader of the words to fill
/// with the size chosen, English filling any gap: for listing kits (the web page's
/// catalog).
pub fn kit_words(
    kit: &Kit,
    langs: &[&str],
    keys: &[&str],
) -> Result<BTreeMap<String, BTreeMap<String, String>>, Diagnostics> {
    let size = kit.board.default_size;
    let game = kit.game.kit().prepare(kit, size)?;
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
        .unwrap_or_else(|| kit.game.kit().game_minutes(size));
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
struct View {
    facts: Facts,
    table: toml::Table,
    fell_back: Vec<String>,
    examples: Vec<(String, Summary)>,
    lists: BTreeMap<&'static str, Vec<String>>,
    /// The puzzle sheet's puzzles, in rows: only the host's carry their answers.
    puzzle_rows: Vec<Vec<puzzles::Entry>>,
    /// The string keys the sheets' drawings have read.
    read: std::cell::RefCell<BTreeSet<String>>,
}

#[derive(Serialize)]
struct Context<'a> {
    t: &'a toml::Table,
    kit: KitInfo<'a>,
    facts: &'a Facts,
    examples: BTreeMap<&'a str, &'a Summary>,
    /// The game's own lists (e.g. `stuck` positions), at the top level.
    #[serde(flatten)]
    lists: BTreeMap<&'static str, Vec<String>>,
    /// The puzzle sheet's puzzles, [`puzzles::PER_ROW`] to a row (empty without one).
    puzzle_rows: &'a [Vec<puzzles::Entry>],
    lang: &'a str,
    paper: &'a str,
    /// The paper as the sheet's language names it (`A4, landscape`, `300 × 400 mm`).
    paper_shown: String,
    /// How pieces are laid out for cutting: `grid` or `outline`.
    cut: &'static str,
    /// The build's stamp (contents sheet only; every footer carries it).
    stamp: String,
    /// The command that makes this build again (contents sheet only).
    rebuild: String,
    /// The player sheets are in large print.
    large_print: bool,
    /// Every file of the build with its pages (contents sheet only).
    files: Vec<FileInfo>,
    /// The board's sheets hold only its parts: its words and plan are on the
    /// contents sheet.
    board_in_parts: bool,
    /// The class section (contents sheet of a class build only).
    class: Option<class::Words>,
    /// The board is printed on more than one sheet, in parts to glue (contents
    /// sheet only).
    board_parts: bool,
}

/// One file of the build, as the contents sheet lists it.
#[derive(Serialize)]
struct FileInfo {
    /// `board.pdf`.
    name: String,
    /// The sheet's name (`board`), for choosing its description.
    sheet: &'static str,
    /// Its number of pages.
    pages: usize,
    /// Copies to print: 1 each without a class.
    copies: u32,
    /// "Print 12 copies.", for a class build; empty without one.
    copies_text: String,
    /// "2 pages".
    pages_text: String,
}

#[derive(Serialize)]
struct KitInfo<'a> {
    id: &'a str,
    game: &'a str,
}

/// Builds every sheet of a kit. All problems found are reported together.
pub fn build(kit: &Kit, options: &Options) -> Result<Built, Diagnostics> {
    let corrected;
    let options = match &options.calibration {
        Some(calibration) => {
            let fail = |e: String| vec![Diagnostic::file(&kit.kit_file, e)];
            let paper = calibration.printable(&options.paper).map_err(fail)?;
            corrected = Options { paper, ..options.clone() };
            &corrected
        }
        None => options,
    };
    let scaled;
    let large = match options.large_print && kit.board.presets.contains_key("large") {
        true => Some("large".to_string()),
        false => None,
    };
    let kit = match options.cell.as_ref().or(large.as_ref()) {
        Some(request) => {
            let fail = |e: String| vec![Diagnostic::file(&kit.kit_file, e)];
            scaled =
                kit.with_cell(kit.cell_request(request).map_err(fail)?).map_err(fail)?;
            &scaled
        }
        None => kit,
    };
    let biggest = kit.board.spacing_mm.max(kit.board.row_spacing_mm.unwrap_or(0.0));
    let room =
        layout::content_width(&options.paper).min(layout::content_height(&options.paper));
    if biggest + 20.0 > room {
        return Err(vec![Diagnostic::file(
            &kit.kit_file,
            format!(
                "a {biggest} mm cell does not fit on {} paper: at most {:.0} mm",
                options.paper,
                room - 20.0
            ),
        )]);
    }
    let reference = &kit.languages[REFERENCE_LANGUAGE];
    let Some(strings) = kit.languages.get(&options.lang) else {
        let known: Vec<&str> = kit.languages.keys().map(String::as_str).collect();
        return Err(vec![
            Diagnostic::file(
                &kit.kit_file,
                format!("kit `{}` has no language `{}`", kit.id, options.lang),
            )
            .with_note(format!("available: {}", known.join(", "))),
        ]);
    };
    let size = options.size.unwrap_or(kit.board.default_size);
    let sizes = &kit.board.sizes;
    if !sizes.contains(&size) {
        return Err(vec![
            Diagnostic::file(
                &kit.kit_file,
                format!("kit `{}` has no board size {size}", kit.id),
            )
            .with_note(format!(
                "kit `{}` offers {}",
                kit.id,
                crate::kit::size_range(sizes)
            )),
        ]);
    }
    // Puzzles made by the rules join the kit as puzzle examples, verified like any.
    let sheet_puzzles = match kit.puzzle_sheet() {
        Some(spec) => puzzles::generate(kit, size, spec)?,
        None => Vec::new(),
    };
    let mut notes = Vec::new();
    if let Some(spec) = kit.puzzle_sheet()
        && sheet_puzzles.len() < spec.count
    {
        notes.push(format!(
            "found {} of {} puzzles within the search budget; another seed may find more",
            sheet_puzzles.len(),
            spec.count
        ));
    }
    let with_puzzles;
    let kit = match sheet_puzzles.is_empty() {
        true => kit,
        false => {
            with_puzzles = puzzles::with_examples(kit, &sheet_puzzles)?;
            &with_puzzles
        }
    };
    let game = kit.game.kit().prepare(kit, size)?;
    let summaries = game.summaries();
    let language = crate::kit::strings::language_of(&options.lang);
    let reading = if crate::kit::strings::is_right_to_left(&language) {
        Reading::RightToLeft
    } else {
        Reading::Natural
    };
    let base_facts = facts(kit, size, game.as_ref());
    // Two views of the same kit: the host key sees everything; player sheets see no
    // `host.*` string, no puzzle answer and no host list. Built apart, so nothing in a
    // player sheet's strings or template can reach host-only content.
    let view = |audience: Audience, base_facts: &Facts| -> Result<View, Diagnostics> {
        let shown: Vec<&Summary> = summaries
            .iter()
            .filter(|v| audience == Audience::Host || !v.puzzle)
            .collect();
        let mut facts = base_facts.clone();
        let comma = if reading.rtl() { "، " } else { ", " };
        facts.extend(example_facts(&shown, comma));
        if DECIMAL_COMMA_LANGUAGES.contains(&language.as_str()) {
            // 23.7 mm is written 23,7 mm in these languages.
            for value in facts.values_mut() {
                if value.contains('.') && value.parse::<f64>().is_ok() {
                    *value = value.replace('.', ",");
                }
            }
        }
        let host_only = |key: &str| key.starts_with("host.");
        let keep = |key: &str| audience == Audience::Host || !host_only(key);
        let (mut table, fell_back) = strings.resolve(reference, &facts, &keep)?;
        let host = audience == Audience::Host;
        let words = (strings, reference);
        let hands =
            puzzles::lines(kit, words, &facts, (&sheet_puzzles, PuzzleFacts::InHand))?;
        let reasons = match host {
            true => puzzles::lines(
                kit,
                words,
                &facts,
                (&sheet_puzzles, PuzzleFacts::WhyItWins),
            )?,
            false => Vec::new(),
        };
        let captions = (&sheet_puzzles[..], &hands[..], &reasons[..]);
        puzzles::add_captions(&mut table, captions, host).map_err(|key| {
            let message = format!(
                "the puzzle sheet needs the string `{key}` (kit `{}`, {})",
                kit.id, options.lang
            );
            vec![strings.diagnostic(&key, message)]
        })?;
        let entries = sheet_puzzles.iter().enumerate().map(|(i, puzzle)| match host {
            true => puzzles::Entry::answer(i + 1, puzzle),
            false => puzzles::Entry::question(i + 1),
        });
        let entries: Vec<puzzles::Entry> = entries.collect();
        let puzzle_rows = entries.chunks(puzzles::PER_ROW).map(<[_]>::to_vec).collect();
        let examples = shown.iter().map(|v| (v.id.clone(), (*v).clone())).collect();
        let lists =
            if audience == Audience::Host { game.lists() } else { BTreeMap::new() };
        let read = Default::default();
        Ok(View { facts, table, fell_back, examples, lists, puzzle_rows, read })
    };
    let players = view(Audience::Players, &base_facts)?;
    let host = view(Audience::Host, &base_facts)?;
    let fell_back = host.fell_back.clone();
    // A character the font lacks is an error at its key, never a blank box on paper.
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
    if !unshowable.is_empty() {
        return Err(unshowable);
    }
    fn context_for<'v>(
        view: &'v View,
        kit: &'v Kit,
        options: &'v Options,
    ) -> Context<'v> {
        Context {
            t: &view.table,
            kit: KitInfo { id: &kit.id, game: kit.game.name() },
            facts: &view.facts,
            examples: view.examples.iter().map(|(id, v)| (id.as_str(), v)).collect(),
            lists: view.lists.clone(),
            puzzle_rows: &view.puzzle_rows,
            lang: &options.lang,
            paper: options.paper.name(),
            paper_shown: paper_words(&options.paper, &view.table, &options.lang),
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
    let width = layout::content_width(&options.paper);
    fn figure_context<'v>(
        view: &'v View,
        audience: Audience,
        kit: &'v Kit,
        (width, size, reading, cut, large): (
            f64,
            u8,
            Reading,
            layout::draw::CutLayout,
            bool,
        ),
    ) -> FigureContext<'v> {
        let large = large && audience == Audience::Players;
        FigureContext {
            kit,
            strings: &view.table,
            width,
            measure: width.min(layout::TEXT_MEASURE_MM),
            size,
            reading,
            audience,
            too_long: Default::default(),
            cut,
            text_scale: if large { layout::LARGE_PRINT_SCALE } else { 1.0 },
            min_pt: if large { layout::LARGE_PRINT_MIN_PT } else { 0.0 },
            read: &view.read,
        }
    }
    let geometry = (width, size, reading, options.cut, options.large_print);
    // A string that does not fit its box is the strings file's problem, at its key.
    let blame = |key: &str, message: String| match strings.entries.contains_key(key) {
        true => strings.diagnostic(key, message),
        false => reference.diagnostic(key, message),
    };
    // Every sheet's markup first: the build stamp is made from all of it, so that
    // each page can carry it.
    let mut diags = Diagnostics::new();
    let mut rendered = Vec::new();
    let mut answers = None;
    let puzzle_sheet = (!sheet_puzzles.is_empty()).then_some(SheetKind::Puzzles);
    let sheets =
        kit.sheets.iter().copied().chain(puzzle_sheet).chain([SheetKind::HostKey]);
    for sheet in sheets {
        let view = if sheet == SheetKind::HostKey { &host } else { &players };
        // Every string a template lacks is told at once, in our words, before the
        // template engine would stop at the first.
        let mut missing = options.templates.missing_strings(sheet.name(), &view.table);
        if sheet == SheetKind::HostKey && puzzle_sheet.is_some() {
            missing
                .extend(options.templates.missing_strings(PUZZLE_ANSWERS, &view.table));
        }
        if !missing.is_empty() {
            diags.extend(missing);
            continue;
        }
        let context = context_for(view, kit, options);
        // The puzzles' answers close the host key, whichever game's key it is; they
        // are kept apart until the stamps are made.
        if sheet == SheetKind::HostKey && puzzle_sheet.is_some() {
            match options.templates.render(PUZZLE_ANSWERS, &context) {
                Ok(markup) => answers = Some(markup),
                Err(d) => diags.push(*d),
            }
        }
        match options.templates.render(sheet.name(), &context) {
            Ok(markup) => rendered.push((sheet, markup)),
            Err(d) => diags.push(*d),
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    let lines = sheet_puzzles
        .iter()
        .map(crate::puzzles::Puzzle::line)
        .collect::<Vec<_>>()
        .join("\n");
    let answers_and_lines = answers.as_ref().map(|answers| format!("{answers}\n{lines}"));
    let (stamp, puzzle_set) =
        stamps(&rendered, answers_and_lines.as_deref(), options, kit, size);
    fill_stamps(&mut rendered, answers, &stamp, &puzzle_set);
    let mut outputs = Vec::new();
    for (sheet, markup) in &rendered {
        let (view, audience) = match sheet {
            SheetKind::HostKey => (&host, Audience::Host),
            _ => (&players, Audience::Players),
        };
        let cx = figure_context(view, audience, kit, geometry);
        let portion = Portion::Whole;
        match lay_out(
            *sheet,
            markup,
            &stamp,
            &cx,
            game.as_ref(),
            options,
            &blame,
            portion,
        ) {
            Ok(output) => outputs.push(output),
            Err(errors) => diags.extend(errors),
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    // A board whose words push it onto a second sheet, or a board split into parts
    // that would open with a sheet of words and the assembly plan, has its words (and
    // plan) moved to the contents sheet, which the facilitator reads before cutting,
    // when that saves a board sheet.
    let board = rendered.iter().find(|(sheet, _)| *sheet == SheetKind::Board);
    let at = outputs.iter().position(|o| o.sheet == SheetKind::Board);
    let mut moved = None;
    if let (Some((_, markup)), Some(at)) = (board, at)
        && outputs[at].pages.len() > 1
    {
        let cx = figure_context(&players, Audience::Players, kit, geometry);
        if let Some(mut words) = MovedBoard::of(markup, &cx, game.as_ref(), options)? {
            let (sheet, game) = (SheetKind::Board, game.as_ref());
            // A board in one piece keeps its legend if it still fits on one sheet.
            let keep = if words.split { vec![false] } else { vec![true, false] };
            for legend in keep {
                let portion = Portion::BoardOnly { split: words.split, legend };
                let board =
                    lay_out(sheet, markup, &stamp, &cx, game, options, &blame, portion)?;
                if board.pages.len() < outputs[at].pages.len() {
                    words.sheets = board.pages.len();
                    outputs[at] = board;
                    words.legend_moved = !legend;
                    moved = Some(words);
                    break;
                }
            }
        }
    }
    // The board's parts are part of the preparation the contents sheet times.
    let with_parts = match moved.as_ref().filter(|board| board.split) {
        Some(board) => {
            Some(view(Audience::Players, &with_gluing(&base_facts, board.parts()))?)
        }
        None => None,
    };
    let players_plan = with_parts.as_ref().unwrap_or(&players);
    // The contents sheet lists every file with its pages, itself included: laid out
    // again until its own page count is the one it prints (it settles at once).
    let cx = figure_context(players_plan, Audience::Players, kit, geometry);
    let mut own_pages = 1;
    let paper = options.paper.sheet_mm();
    let outline_only = |name: String| Thumbnail { name, page: None, size: paper };
    // The contents sheet cannot picture itself, nor show the host key to players.
    let thumbnails: Vec<Thumbnail> =
        std::iter::once(outline_only(file_name(SheetKind::Contents)))
            .chain(outputs.iter().map(|laid| match laid.sheet {
                SheetKind::HostKey => outline_only(file_name(laid.sheet)),
                sheet => {
                    let first = &laid.pages[0];
                    Thumbnail {
                        name: file_name(sheet),
                        page: Some(first),
                        size: (first.width, first.height),
                    }
                }
            }))
            .collect();
    let cuts: Vec<usize> =
        outputs.iter().map(|o| o.pages.iter().map(preview::cut_count).sum()).collect();
    let set_minutes = players_plan.facts.get("prep_minutes").and_then(|m| m.parse().ok());
    let mut job_title: String;
    let contents = loop {
        let sheets: Vec<(SheetKind, usize, usize)> =
            [(SheetKind::Contents, own_pages, 0)]
                .into_iter()
                .chain(
                    outputs.iter().zip(&cuts).map(|(o, c)| (o.sheet, o.pages.len(), *c)),
                )
                .collect();
        let class_words = match options.class {
            Some(class) => {
                let minutes = set_minutes.unwrap_or(0);
                let plan = class::Plan::of(class, &sheets, minutes, &kit.card);
                let copies: Vec<u32> = sheets.iter().map(|s| class.copies(s.0)).collect();
                Some(class::words(
                    strings,
                    reference,
                    &players_plan.facts,
                    &plan,
                    &copies,
                )?)
            }
            None => None,
        };
        let counts: Vec<u32> = sheets.iter().map(|s| s.1 as u32).collect();
        let pages_texts = class::counted(
            strings,
            reference,
            &players_plan.facts,
            ("pages", "pages"),
            &counts,
        )?;
        let files: Vec<FileInfo> = sheets
            .iter()
            .map(|&(sheet, pages, _)| {
                let copies = options.class.map_or(1, |class| class.copies(sheet));
                let copies_text = class_words
                    .as_ref()
                    .and_then(|(_, texts)| texts.get(&copies).cloned())
                    .unwrap_or_default();
                FileInfo {
                    name: file_name(sheet),
                    sheet: sheet.name(),
                    pages,
                    copies,
                    copies_text,
                    pages_text: pages_texts
                        .get(&(pages as u32))
                        .cloned()
                        .unwrap_or_default(),
                }
            })
            .collect();
        job_title =
            class_words.as_ref().map(|(w, _)| w.job_title.clone()).unwrap_or_default();
        let context = Context {
            stamp: stamp.clone(),
            // One left-to-right piece, so that it reads in order on an Arabic sheet.
            rebuild: crate::text::left_to_right(&rebuild_command(kit, options, size)),
            files,
            board_in_parts: moved.as_ref().is_some_and(|m| m.split),
            class: class_words.map(|(words, _)| words),
            board_parts: outputs
                .iter()
                .any(|o| o.sheet == SheetKind::Board && o.pages.len() > 1),
            ..context_for(players_plan, kit, options)
        };
        let missing = options
            .templates
            .missing_strings(SheetKind::Contents.name(), &players_plan.table);
        if !missing.is_empty() {
            return Err(missing);
        }
        let markup = options
            .templates
            .render(SheetKind::Contents.name(), &context)
            .map_err(|d| vec![*d])?;
        let output = lay_out(
            SheetKind::Contents,
            &markup,
            &stamp,
            &cx,
            game.as_ref(),
            options,
            &blame,
            Portion::Contents(moved.as_ref(), &thumbnails),
        )?;
        if output.pages.len() == own_pages || own_pages > 3 {
            break output;
        }
        own_pages = output.pages.len();
    };
    outputs.insert(0, contents);
    for laid in &mut outputs {
        laid.mark_for_cutting(options);
    }
    let card_words = players
        .table
        .get("common")
        .and_then(|c| c.get("on_card"))
        .and_then(|v| v.as_str())
        .unwrap_or_default();
    let on_card = (kit.card.as_slice(), card_words, reading);
    let print_all = options
        .class
        .map(|class| print_all(&class, &outputs, (&job_title, on_card), options));
    let outputs = outputs.into_iter().map(|laid| laid.write(options)).collect();
    let mut strings_read: BTreeSet<String> =
        players.read.take().into_iter().chain(host.read.take()).collect();
    strings_read.extend(with_parts.map(|view| view.read.take()).unwrap_or_default());
    strings_read.extend(options.templates.printed_keys());
    strings_read.extend(["common.on_card", "contents.pages"].map(String::from));
    strings_read.extend(PAPER_STRINGS.map(String::from));
    if options.class.is_some() {
        strings_read.extend(class::STRINGS_READ.iter().map(|k| k.to_string()));
    }
    if !sheet_puzzles.is_empty() {
        strings_read.extend(puzzles::STRINGS_READ.iter().map(|k| k.to_string()));
    }
    Ok(Built { outputs, print_all, fell_back, notes, strings_read })
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

/// A class's print job as one PDF (its pages, its bytes), titled `title` and
/// otherwise described like the contents sheet.
/// Pages of the sheets in `card` carry a mark saying so.
fn print_all(
    class: &class::Class,
    laid: &[Laid],
    (title, (card, on_card, reading)): (&str, (&[SheetKind], &str, Reading)),
    options: &Options,
) -> (usize, Vec<u8>) {
    let (width, height) = options.paper.sheet_mm();
    let blank = crate::page::Page::new(width, height);
    let marked: Vec<Vec<crate::page::Page>> = laid
        .iter()
        .map(|l| match card.contains(&l.sheet) {
            true => l
                .pages
                .iter()
                .map(|p| layout::marked_for_card(p, on_card, reading))
                .collect(),
            false => Vec::new(),
        })
        .collect();
    let sheets: Vec<(SheetKind, &[crate::page::Page])> = laid
        .iter()
        .zip(&marked)
        .map(|(l, m)| {
            (l.sheet, if m.is_empty() { l.pages.as_slice() } else { m.as_slice() })
        })
        .collect();
    let pages: Vec<crate::page::Page> =
        class::print_job(class, &sheets, &blank).into_iter().cloned().collect();
    let mut info = laid[0].info.clone();
    info.title = format!("{title} · {}", info.title);
    let scale = options.calibration.map(|c| c.scale());
    (pages.len(), pdf::write_scaled(&pages, &info, scale))
}

/// The contents sheet as a plan on one page: what comes before its `@columns` line
/// across the page, the rest in two columns below, and the words and plan of a board
/// in parts on pages of their own after it; `None` when the plan does not fit one page
/// (it is then set in one column, as any sheet).
fn plan_on_one_page(
    markup: &str,
    cx: &FigureContext,
    sheet_chunks: &SheetChunks,
    options: &Options,
) -> Result<Option<Vec<Vec<crate::page::Item>>>, Diagnostics> {
    let Some((head, body)) = markup.split_once("\n@columns\n") else {
        return Ok(None);
    };
    let frame = layout::frame(&options.paper);
    let columns = layout::flow::Columns {
        count: 2,
        gap: layout::COLUMN_GAP_MM,
        right_to_left: cx.reading.rtl(),
    };
    let column = cx.narrowed(columns.width(cx.width));
    let one = layout::flow::Columns::ONE;
    // A board's words go in the plan if they fit, else on a page of their own; the
    // plan is set smaller where a language runs longer, down to the 7 pt a player
    // reads.
    for words_within in [true, false] {
        for scale in PLAN_TEXT_SCALES {
            let (head, _) =
                sheet_chunks(&cx.with_text_scale(scale), head, PlanPart::Head)?;
            let column = column.with_text_scale(scale);
            let (mut body, _) = sheet_chunks(&column, body, PlanPart::Body)?;
            if words_within {
                body.extend(sheet_chunks(&column, "", PlanPart::Assembly)?.0);
            }
            let head_height: f64 = head.iter().flatten().map(|c| c.height).sum();
            let below = layout::poster::Frame { top: frame.top + head_height, ..frame };
            if head.iter().any(Option::is_none) || below.top >= frame.bottom {
                return Ok(None);
            }
            if layout::flow::page_count(&head, frame, one) != 1
                || layout::flow::page_count(&body, below, columns) != 1
            {
                continue;
            }
            let (mut head, _) = layout::flow::flow_in(&head, frame, one);
            let (body, _) = layout::flow::flow_in(&body, below, columns);
            let mut page = head.remove(0);
            page.extend(body.into_iter().flatten());
            let mut pages = vec![page];
            let (assembly, _) = sheet_chunks(cx, "", PlanPart::Assembly)?;
            if !words_within && !assembly.is_empty() {
                pages.extend(layout::flow::flow_in(&assembly, frame, one).0);
            }
            return Ok(Some(pages));
        }
    }
    Ok(None)
}

/// A part of the contents sheet's plan.
#[derive(Clone, Copy)]
enum PlanPart {
    /// Across the page: the title, the build and the pictures of the sheets.
    Head,
    /// In two columns: the plan itself.
    Body,
    /// The words and assembly plan of a board in parts, on a page of their own.
    Assembly,
}

/// Lays out part of a sheet's markup for a context.
type SheetChunks<'s> = dyn Fn(
        &FigureContext,
        &str,
        PlanPart,
    ) -> Result<(Vec<Option<layout::flow::Chunk>>, String), Diagnostics>
    + 's;

/// The sizes a plan's text is tried at, as multiples of the body's 10 pt.
const PLAN_TEXT_SCALES: [f64; 7] = [1.0, 0.95, 0.9, 0.85, 0.8, 0.75, 0.7];

/// The command line that makes this build again: the kit, its language, paper and
/// size, and every option that changed its sheets.
fn rebuild_command(kit: &Kit, options: &Options, size: u8) -> String {
    let paper = options.paper.name();
    let mut words = vec![format!("tablekit build {} --lang {}", kit.id, options.lang)];
    match paper.strip_suffix("-landscape") {
        Some(name) => words.push(format!("--paper {name} --landscape")),
        None => words.push(format!("--paper {paper}")),
    }
    if kit.board.sizes.start() != kit.board.sizes.end() {
        words.push(format!("--size {size}"));
    }
    if let Some(cell) = &options.cell {
        words.push(format!("--cell {cell}"));
    }
    if options.cut == layout::draw::CutLayout::Outline {
        words.push("--cut outline".to_string());
    }
    if let Some(calibration) = &options.calibration {
        let (across, down) = calibration.shown(false);
        words.push(format!("--measured {across}x{down}"));
    }
    if options.large_print {
        words.push("--large-print".to_string());
    }
    if let Some(class) = &options.class {
        words.push(format!("--players {} --tables {}", class.players, class.tables));
    }
    words.join(" ")
}

/// The file a sheet is written to, the same in every language.
fn file_name(sheet: SheetKind) -> String {
    format!("{}.pdf", sheet.name())
}

/// The build stamp and the puzzle set. The stamp names one build: every page carries
/// it, so a host key can be matched to its player sheets. It is made from every
/// sheet's markup but the puzzles' and their answers', so that adding puzzles, or
/// others, leaves the other sheets as they were. The puzzle set, made from the stamp,
/// the puzzle sheet and `answers` (their markup and the puzzles' own lines), matches
/// the puzzle sheet to its answers.
fn stamps(
    rendered: &[(SheetKind, String)],
    answers: Option<&str>,
    options: &Options,
    kit: &Kit,
    size: u8,
) -> (String, String) {
    let (puzzles, others): (Vec<_>, Vec<_>) =
        rendered.iter().partition(|(sheet, _)| *sheet == SheetKind::Puzzles);
    let stamp = build_stamp(others.into_iter(), options, kit, size);
    let mut puzzle_markup = puzzles.into_iter().cloned().collect::<Vec<_>>();
    puzzle_markup.push((SheetKind::HostKey, answers.unwrap_or_default().to_string()));
    puzzle_markup.push((SheetKind::HostKey, stamp.clone()));
    let puzzle_set = build_stamp(puzzle_markup.iter(), options, kit, size);
    (stamp, puzzle_set)
}

/// Fills the stamps into the markup that names them (the host key names the player
/// sheets it belongs to; the puzzle sheet and its answers name their set), and closes
/// the host key with the puzzles' answers.
fn fill_stamps(
    rendered: &mut [(SheetKind, String)],
    answers: Option<String>,
    stamp: &str,
    puzzle_set: &str,
) {
    for (sheet, markup) in rendered.iter_mut() {
        if *sheet == SheetKind::HostKey
            && let Some(answers) = &answers
        {
            markup.push_str(&format!("\n\n{answers}"));
        }
        *markup = markup.replace("{stamp}", stamp).replace("{puzzle_set}", puzzle_set);
    }
}

/// A short stamp: the first six hex digits of a 64-bit FNV-1a hash of the sheets'
/// markup and the build's language, paper, size and cell.
fn build_stamp<'a>(
    rendered: impl Iterator<Item = &'a (SheetKind, String)>,
    options: &Options,
    kit: &Kit,
    size: u8,
) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for b in bytes {
            hash ^= u64::from(*b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        // A separator, so that "ab" + "c" and "a" + "bc" differ.
        hash ^= 0xff;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    };
    feed(env!("CARGO_PKG_VERSION").as_bytes());
    feed(kit.id.as_bytes());
    feed(options.lang.as_bytes());
    feed(options.paper.name().as_bytes());
    feed(&[size]);
    feed(number(kit.board.spacing_mm).as_bytes());
    for (sheet, markup) in rendered {
        feed(sheet.name().as_bytes());
        feed(markup.as_bytes());
    }
    format!("{:06x}", hash >> 40)
}

#[allow(clippy::too_many_arguments)]
fn lay_out(
    sheet: SheetKind,
    markup: &str,
    stamp: &str,
    cx: &FigureContext,
    game: &dyn Sheets,
    options: &Options,
    blame: &dyn Fn(&str, String) -> Diagnostic,
    portion: Portion,
) -> Result<Laid, Diagnostics> {
    let template_path = options
        .templates
        .templates
        .get(sheet.name())
        .map(|(path, _)| path.clone())
        .unwrap_or_default();
    let sheet_chunks = |cx: &FigureContext| {
        chunks_of(sheet, markup, cx, game, options, blame, &template_path, portion)
    };
    // The contents sheet's plan, in parts: its head has the pictures of the sheets,
    // its body any board words moved to it.
    let part_chunks = |cx: &FigureContext, part: &str, which: PlanPart| {
        let portion = match (portion, which) {
            (Portion::Contents(_, pictures), PlanPart::Head) => {
                Portion::Contents(None, pictures)
            }
            (Portion::Contents(_, _), PlanPart::Body) => Portion::Contents(None, &[]),
            (Portion::Contents(moved, _), PlanPart::Assembly) => {
                Portion::Contents(moved, &[])
            }
            (other, _) => other,
        };
        chunks_of(sheet, part, cx, game, options, blame, &template_path, portion)
    };
    let (mut chunks, title) = sheet_chunks(cx)?;
    // A sheet that draws its title inside a figure (a compact board) has no title
    // block: its section's title names it in the footer and the file's title.
    let title = match title.is_empty() {
        true => cx.text(&format!("{}.title", title_section(sheet))).unwrap_or_default(),
        false => title,
    };
    // Wide paper is set in columns, each as wide as a narrower page, unless the sheet
    // holds a table (it sets its own columns) or a drawing at exact scale (it is
    // centred on the page, or split).
    let mut columns = layout::columns(&options.paper, cx.reading);
    let whole = |c: &layout::flow::Chunk| c.table.is_some() || c.poster.is_some();
    let drawing = chunks.iter().flatten().any(|c| c.poster.is_some());
    if columns.count > 1 {
        match chunks.iter().flatten().any(whole) {
            true => columns = layout::flow::Columns::ONE,
            false => chunks = sheet_chunks(&cx.narrowed(columns.width(cx.width)))?.0,
        }
    }
    // The few lines around a drawing at exact scale (a board) run wider than the
    // measure when that keeps the drawing on the sheet's first page.
    if drawing && columns.count == 1 {
        let wide = sheet_chunks(&cx.with_measure(cx.width.min(layout::MAX_TEXT_MM)))?.0;
        let frame = layout::frame(&options.paper);
        let pages = |c: &[Option<layout::flow::Chunk>]| {
            layout::flow::page_count(c, frame, columns)
        };
        if pages(&wide) < pages(&chunks) {
            chunks = wide;
        }
    }
    let in_template = |e: String| vec![Diagnostic::file(&template_path, e)];
    let game_title = cx.text("common.game_title").map_err(in_template)?;
    let caption = format!("{game_title} · {title} · {stamp}");
    // The sheet says it was drawn for one printer, and for what measurement.
    let correction = match &options.calibration {
        Some(calibration) => {
            let comma = DECIMAL_COMMA_LANGUAGES
                .contains(&crate::kit::strings::language_of(&options.lang).as_str());
            let (across, down) = calibration.shown(comma);
            let note = cx.text("common.corrected").map_err(in_template)?;
            Some(note.replace("{across}", &across).replace("{down}", &down))
        }
        None => None,
    };
    // Large print has a short note: it must fit beside the bar at 12 pt.
    let note_key = match cx.min_pt > 0.0 {
        true => "common.print_note_large",
        false => "common.print_note",
    };
    let footer = Footer::new(
        (&cx.text(note_key).map_err(in_template)?, correction.as_deref()),
        caption,
        cx.text("common.page_label").map_err(in_template)?,
        (options.paper.size_mm().0, cx.min_pt),
        cx.reading,
    )
    .map_err(|e| {
        let message = format!("sheet `{}` ({}): {e}", sheet.name(), options.lang);
        if e.contains("`common.print_note`") {
            return vec![blame(note_key, message)];
        }
        if e.contains("`common.corrected`") {
            return vec![blame("common.corrected", message)];
        }
        in_template(message)
    })?;
    let plan = match (sheet, columns.count) {
        (SheetKind::Contents, 1) => plan_on_one_page(markup, cx, &part_chunks, options)?,
        _ => None,
    };
    let pages = match plan {
        Some(pages) => layout::paginate_flowed(pages, &[], &options.paper, &footer),
        None => layout::paginate(chunks, &options.paper, columns, &footer),
    };
    if pages.len() > MAX_PAGES {
        return Err(in_template(format!(
            "sheet `{}` ({}) would have {} pages: at most {MAX_PAGES}",
            sheet.name(),
            options.lang,
            pages.len()
        )));
    }
    // The file names the kit, the sheet and the build, in the sheet's language, and
    // says which language it is in and which way it reads.
    let size = match cx.kit.board.sizes.start() == cx.kit.board.sizes.end() {
        true => String::new(),
        false => format!(", {0}×{0}", cx.size),
    };
    let info = pdf::DocInfo {
        title: format!(
            "{game_title} · {title} ({}, {}{size})",
            options.lang, options.paper
        ),
        lang: Some(options.lang.clone()),
        right_to_left: cx.reading.rtl(),
        page_label: cx.text("common.page_label").map_err(in_template)?,
        epoch: cx.kit.date,
    };
    Ok(Laid { sheet, pages, info, title })
}

/// A sheet laid out, not yet written: trial layouts (the contents sheet's page count,
/// a board without its words) are only counted.
struct Laid {
    sheet: SheetKind,
    title: String,
    pages: Vec<crate::page::Page>,
    info: pdf::DocInfo,
}

impl Laid {
    /// The PDF, drawn with the build's printer correction if it has one, and the
    /// previews and cut files asked for, from the same pages.
    /// Adds the registration marks the build asks for to the player pages with
    /// cut lines.
    fn mark_for_cutting(&mut self, options: &Options) {
        if options.previews.cut_marks && self.sheet != SheetKind::HostKey {
            for page in self.pages.iter_mut().filter(|p| preview::has_cut_lines(p)) {
                preview::add_registration_marks(page);
            }
        }
    }

    fn write(self, options: &Options) -> Output {
        let scale = options.calibration.map(|c| c.scale());
        let previews = &options.previews;
        let player_sheet = self.sheet != SheetKind::HostKey;
        let name = self.sheet.name();
        let mut extras = Vec::new();
        if let Some(format) = previews.format {
            let lang = self.info.lang.clone().unwrap_or_default();
            let svg_info =
                preview::svg::SvgInfo { title: &self.info.title, lang: &lang, scale };
            for (index, page) in self.pages.iter().enumerate() {
                let (extension, bytes) = match format {
                    Format::Svg => {
                        ("svg", preview::svg::page(page, &svg_info).into_bytes())
                    }
                    Format::Png => {
                        ("png", preview::raster::page(page, previews.dpi, scale))
                    }
                };
                extras.push((format!("preview/{name}-{}.{extension}", index + 1), bytes));
            }
        }
        if previews.cut_file && player_sheet {
            let cuts: Vec<String> = self
                .pages
                .iter()
                .filter_map(|page| preview::cut::page(page, scale))
                .collect();
            let numbered = cuts.len() > 1;
            for (index, svg) in cuts.into_iter().enumerate() {
                let file = match numbered {
                    true => format!("{name}-{}.cut.svg", index + 1),
                    false => format!("{name}.cut.svg"),
                };
                extras.push((file, svg.into_bytes()));
            }
        }
        Output {
            sheet: self.sheet,
            file_name: file_name(self.sheet),
            title: self.title,
            pages: self.pages.len(),
            bytes: pdf::write_scaled(&self.pages, &self.info, scale),
            extras,
        }
    }
}

/// The strings section that holds a sheet's words (`rules` for the rule card).
fn title_section(sheet: SheetKind) -> &'static str {
    match sheet {
        SheetKind::RepetitionLog => "log",
        SheetKind::RuleCard => "rules",
        SheetKind::QuickStart => "quick",
        SheetKind::HostKey => "host",
        other => other.name(),
    }
}

/// A sheet's markup as chunks to flow, figures drawn `cx.width` wide, and the
/// sheet's title.
#[allow(clippy::too_many_arguments)]
fn chunks_of(
    sheet: SheetKind,
    markup: &str,
    cx: &FigureContext,
    game: &dyn Sheets,
    options: &Options,
    blame: &dyn Fn(&str, String) -> Diagnostic,
    template_path: &str,
    portion: Portion,
) -> Result<(Vec<Option<layout::flow::Chunk>>, String), Diagnostics> {
    let template_path = template_path.to_string();
    let mut chunks: Vec<Option<layout::flow::Chunk>> = Vec::new();
    let mut diags = Diagnostics::new();
    let mut title = String::new();
    let mut breaks = 0;
    let blocks = markup::parse(markup);
    // A board's words before its drawing go to the contents sheet.
    let moved_words = match portion {
        Portion::BoardOnly { .. } => blocks.iter().position(is_board).unwrap_or(0),
        _ => 0,
    };
    let split = matches!(portion, Portion::BoardOnly { split: true, .. });
    let keep_legend = matches!(portion, Portion::BoardOnly { legend: true, .. });
    let mut placed_moved = false;
    let mut list_items = Vec::new();
    for (index, block) in blocks.iter().enumerate() {
        if !matches!(block, Block::Bullet(_) | Block::Check(_)) {
            hold_list_together(&mut chunks, &mut list_items);
        }
        if diags.len() >= MAX_PROBLEMS_PER_SHEET {
            diags.push(Diagnostic::file(
                &template_path,
                format!("sheet `{}`: more problems not listed", sheet.name()),
            ));
            break;
        }
        if index < moved_words {
            let is_title = matches!(block, Block::Title(_));
            if let Block::Title(t) = block
                && title.is_empty()
            {
                title = t.clone();
            }
            // A split board's title leads each part's label instead.
            if split || !is_title {
                continue;
            }
        }
        // Where a plan's columns begin, when it is set in them.
        if matches!(block, Block::Figure { name, .. } if name == "columns") {
            continue;
        }
        if let Block::Figure { name, .. } = block
            && name == "thumbnails"
        {
            if let Portion::Contents(_, thumbnails) = portion {
                let pictures =
                    thumbnail::chunks(thumbnails, cx.width, cx.reading, cx.text_scale);
                chunks.extend(pictures.into_iter().map(Some));
            }
            continue;
        }
        if let Block::Figure { name, line, .. } = block
            && name == "board-assembly"
        {
            if let Portion::Contents(Some(moved), _) = portion
                && !placed_moved
            {
                placed_moved = true;
                match moved.chunks(cx, game) {
                    Ok(moved) => chunks.extend(moved.into_iter().map(Some)),
                    Err(message) => diags.push(Diagnostic::file(
                        &format!("{template_path} (rendered line {line})"),
                        message,
                    )),
                }
            }
            continue;
        }
        match block {
            Block::PageBreak if breaks >= MAX_PAGES => {
                diags.push(Diagnostic::file(
                    &template_path,
                    format!(
                        "sheet `{}` asks for more than {MAX_PAGES} pages",
                        sheet.name()
                    ),
                ));
                break;
            }
            Block::PageBreak => {
                breaks += 1;
                chunks.push(None);
            }
            Block::Figure { name, args, line } => match draw_figure(name, args, cx, game)
            {
                Ok(figure) => {
                    // Lines to answer on stay on the page of what they answer.
                    if name == "answer-lines"
                        && let Some(Some(last)) = chunks.last_mut()
                    {
                        last.keep_with_next = true;
                    }
                    let board_only =
                        matches!(portion, Portion::BoardOnly { .. }) && is_board(block);
                    for mut chunk in figure {
                        // Words a figure draws are read, whatever it tagged itself.
                        crate::page::Tag::wrap_loose_text(
                            crate::page::Role::Paragraph,
                            &mut chunk.items,
                        );
                        if cx.min_pt > 0.0 {
                            layout::raise_small_text(&mut chunk.items, cx.min_pt);
                            if let Some(poster) = &mut chunk.poster {
                                layout::raise_small_text(&mut poster.items, cx.min_pt);
                            }
                        }
                        match (&mut chunk.poster, board_only) {
                            (Some(poster), true) if split => {
                                poster.plan_elsewhere = true;
                                let part = &poster.labels.part;
                                poster.labels.part = format!("{title} · {part}");
                            }
                            // Its legend went to the contents sheet with its words.
                            (None, true) if !keep_legend => continue,
                            _ => {}
                        }
                        chunks.push(Some(chunk));
                    }
                }
                Err(message) => {
                    let message =
                        format!("sheet `{}` ({}): {message}", sheet.name(), options.lang);
                    diags.push(match cx.too_long.take() {
                        Some(key) => blame(&key, message),
                        None => Diagnostic::file(
                            &format!("{template_path} (rendered line {line})"),
                            message,
                        ),
                    });
                }
            },
            _ => {
                if let Block::Title(t) = block
                    && title.is_empty()
                {
                    title = t.clone();
                }
                check_glyphs(block, sheet, &template_path, &mut diags);
                let start = chunks.len();
                chunks.extend(cx.text_chunks(block).into_iter().map(Some));
                if matches!(block, Block::Bullet(_) | Block::Check(_)) {
                    list_items.push(start..chunks.len());
                } else if introduces_figure(&blocks, index) {
                    // A section's one paragraph leads into its drawing: its last line
                    // and the space after it go where the drawing goes.
                    for chunk in chunks[start..].iter_mut().rev().take(2).flatten() {
                        chunk.keep_with_next = true;
                    }
                }
            }
        }
    }
    hold_list_together(&mut chunks, &mut list_items);
    // A contents template without the marker still gets the board's words and plan.
    if let Portion::Contents(Some(moved), _) = portion
        && !placed_moved
    {
        match moved.chunks(cx, game) {
            Ok(moved) => chunks.extend(moved.into_iter().map(Some)),
            Err(message) => diags.push(Diagnostic::file(&template_path, message)),
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    Ok((chunks, title))
}

/// Keeps at least two items of a list on each side of a page break, as lines are
/// kept in a paragraph: a list never ends, or begins, with one item alone on a page.
/// `items` holds each item's chunks, and is emptied for the next list.
fn hold_list_together(
    chunks: &mut [Option<layout::flow::Chunk>],
    items: &mut Vec<std::ops::Range<usize>>,
) {
    let count = items.len();
    for (i, item) in items.drain(..).enumerate() {
        if count >= 2
            && (i == 0 || i + 2 == count)
            && !item.is_empty()
            && let Some(Some(last)) = chunks.get_mut(item.end - 1)
        {
            last.keep_with_next = true;
        }
    }
}

/// Whether the paragraph at `index` is the whole text of a section that leads into
/// a drawing: a heading before it, a figure after it.
fn introduces_figure(blocks: &[Block], index: usize) -> bool {
    let after_heading = index > 0 && matches!(blocks[index - 1], Block::Heading(_));
    matches!(blocks[index], Block::Paragraph(_))
        && after_heading
        && matches!(blocks.get(index + 1), Some(Block::Figure { .. }))
}

/// Draws `@name args…`: the figures every game shares, else the game's own.
fn draw_figure(
    name: &str,
    args: &[String],
    cx: &FigureContext,
    game: &dyn Sheets,
) -> Result<Vec<layout::flow::Chunk>, String> {
    match name {
        // Large print draws each diagram on a row of its own, the whole width.
        "diagrams" if cx.min_pt > 0.0 && args.len() > 1 => {
            let rows =
                args.iter().map(|arg| game.figure(name, std::slice::from_ref(arg), cx));
            Ok(rows.collect::<Result<Vec<_>, _>>()?.concat())
        }
        "end-box" => figure::end_box(args, cx),
        "write-in" => figure::write_in(args, cx),
        "answer-lines" => figure::answer_lines(args, cx),
        _ => game.figure(name, args, cx),
    }
}

/// A character the font cannot show is an error, never a blank box.
fn check_glyphs(
    block: &Block,
    sheet: SheetKind,
    template: &str,
    diags: &mut Diagnostics,
) {
    let text = match block {
        Block::Title(t)
        | Block::Heading(t)
        | Block::Paragraph(t)
        | Block::Bullet(t)
        | Block::Check(t)
        | Block::Note(t) => t,
        _ => return,
    };
    let missing = text::missing_chars(text);
    if !missing.is_empty() {
        diags.push(Diagnostic::file(
            template,
            format!(
                "the font has no glyph for {:?} in sheet `{}`: \"{text}\"",
                missing,
                sheet.name()
            ),
        ));
    }
}
