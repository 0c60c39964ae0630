//! What sets one edition of a kit apart, outside its sheets: the templates it is
//! built with, the folder it is written to and the command that makes it again. The
//! folder name and the command both follow the options, so they live side by side.

use std::collections::BTreeMap;

use super::Options;
use crate::game_id::GameId;
use crate::games::{self, number};
use crate::kit::{Kit, PuzzleSpec};
use crate::layout;
use crate::sheet::template::TemplateSet;

/// The built-in templates for `game`: the shared ones, then the game's own.
pub fn builtin_templates(game: GameId) -> TemplateSet {
    TemplateSet::builtin(game, games::home(game).templates())
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
    builtin_templates(kit.game).with_overrides(overrides).with_overrides(&own)
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
    if options.cut == layout::cut::CutLayout::Outline {
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

/// The command line that makes this build again: the kit, its language, paper and
/// size, and every option that changed its sheets.
pub(super) fn rebuild_command(kit: &Kit, options: &Options, size: u8) -> String {
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
    if options.cut == layout::cut::CutLayout::Outline {
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
