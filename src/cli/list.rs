//! `list`: what each kit offers, read without building anything. The words on
//! translation completeness are shared with `check`, which reports them too.

use std::path::Path;

use super::Failure;
use super::kits::sources;
use crate::kit::Kit;
use crate::layout::Paper;

/// `list`: each kit with its game, languages, paper, board and sheets.
pub(super) fn run(kits_dir: Option<&Path>) -> Result<(), Failure> {
    let sources = sources(kits_dir, &[])?;
    let kits = sources
        .iter()
        .map(crate::pipeline::load)
        .collect::<Result<Vec<_>, _>>()
        .map_err(Failure::Kit)?;
    let papers = Paper::names();
    for kit in &kits {
        // Every build writes the contents sheet first and the host key last.
        let mut sheets = vec!["contents"];
        sheets.extend(kit.sheets.iter().map(|s| s.name()));
        if kit.puzzle_sheet().is_some() {
            sheets.push("puzzles");
        }
        sheets.push("host-key");
        say!("{}", kit.id);
        say!("  game:      {}", kit.game);
        say!("  languages: {}", completeness(kit).join(", "));
        say!("  paper:     {}, or WxHmm or WxHin; --landscape", papers.join(", "));
        say!("  board:     {}", board_size(kit));
        say!("  sheets:    {}", sheets.join(", "));
    }
    Ok(())
}

/// Each language with how much of the English it really translates: `en`,
/// `fr 100%`, `de 97% (2 missing)`, `pt 0% (160 as in English)`. A text left as in
/// English is not translated unless `same_as_english` says it is so on purpose.
pub(super) fn completeness(kit: &Kit) -> Vec<String> {
    let reference = &kit.languages[crate::kit::strings::REFERENCE_LANGUAGE];
    kit.languages
        .values()
        .map(|strings| {
            if strings.lang == reference.lang {
                return strings.lang.clone();
            }
            let (done, total) = strings.translated(reference);
            let copied = strings.copied_from(reference).len();
            let missing = total - done - copied;
            // Rounded down: 99.6 % is not yet 100 %.
            let percent = done * 100 / total.max(1);
            let mut gaps = Vec::new();
            if missing > 0 {
                gaps.push(format!("{missing} missing"));
            }
            if copied > 0 {
                gaps.push(format!("{copied} as in English"));
            }
            match gaps.is_empty() {
                true => format!("{} {percent}%", strings.lang),
                false => format!("{} {percent}% ({})", strings.lang, gaps.join(", ")),
            }
        })
        .collect()
}

/// The board sizes a kit offers and its spacing, in the terms of its game.
fn board_size(kit: &Kit) -> String {
    let sizes = crate::kit::size_range(&kit.board.sizes);
    let (dx, dy) = (kit.board.spacing_mm, kit.board.row_spacing_mm);
    if crate::games::home(kit.game).plays_in_cells() {
        if kit.board.sizes.start() == kit.board.sizes.end() {
            return format!("{sizes} cells of {dx} mm");
        }
        return format!(
            "{sizes} cells of {dx} mm (default {0}×{0})",
            kit.board.default_size
        );
    }
    match dy {
        Some(dy) => format!(
            "{sizes} points, {dx} × {dy} mm apart (default {0}×{0})",
            kit.board.default_size
        ),
        None => format!("{sizes} points, {dx} mm apart"),
    }
}
