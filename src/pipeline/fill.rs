//! Templates to markup: every sheet's template filled from its audience's view, and
//! the build's stamps, which are made from that markup, filled in. Every sheet is
//! filled before any is laid out because the stamp every page carries depends on all
//! of them.

use super::PUZZLE_ANSWERS;
use super::variant::Variant;
use super::views::Views;
use crate::diag::Diagnostics;
use crate::games::number;
use crate::kit::SheetKind;

/// Every sheet's markup, the stamps filled in.
pub(super) struct Filled {
    /// Each sheet and its markup: the kit's sheets, the puzzle sheet, the host key
    /// (closed by the puzzles' answers).
    pub sheets: Vec<(SheetKind, String)>,
    /// The build's stamp, which every footer carries.
    pub stamp: String,
}

/// Fills every sheet's template, then the stamps made from them. All problems found
/// are reported together.
pub(super) fn every_sheet(
    variant: &Variant,
    views: &Views,
) -> Result<Filled, Diagnostics> {
    let (mut sheets, answers) = render(variant, views)?;
    let lines = variant
        .puzzles
        .iter()
        .map(crate::puzzles::Puzzle::line)
        .collect::<Vec<_>>()
        .join("\n");
    let answers_and_lines = answers.as_ref().map(|answers| format!("{answers}\n{lines}"));
    let (stamp, puzzle_set) = stamps(&sheets, answers_and_lines.as_deref(), variant);
    fill_stamps(&mut sheets, answers, &stamp, &puzzle_set);
    Ok(Filled { sheets, stamp })
}

/// Every sheet's template filled, the stamps still to fill, and the puzzles'
/// answers, which close the host key, kept apart until the stamps are made.
type Rendered = (Vec<(SheetKind, String)>, Option<String>);

/// Every sheet's template filled from its audience's view.
fn render(variant: &Variant, views: &Views) -> Result<Rendered, Diagnostics> {
    let (kit, options) = (&*variant.kit, &*variant.options);
    let mut diags = Diagnostics::new();
    let mut rendered = Vec::new();
    let mut answers = None;
    let puzzle_sheet = (!variant.puzzles.is_empty()).then_some(SheetKind::Puzzles);
    let sheets =
        kit.sheets.iter().copied().chain(puzzle_sheet).chain([SheetKind::HostKey]);
    for sheet in sheets {
        let view = if sheet == SheetKind::HostKey { &views.host } else { &views.players };
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
        let context = view.context(kit, options);
        // The puzzles' answers close the host key, whichever game's key it is.
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
    match diags.is_empty() {
        true => Ok((rendered, answers)),
        false => Err(diags),
    }
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
    variant: &Variant,
) -> (String, String) {
    let (puzzles, others): (Vec<_>, Vec<_>) =
        rendered.iter().partition(|(sheet, _)| *sheet == SheetKind::Puzzles);
    let stamp = build_stamp(others.into_iter(), variant);
    let mut puzzle_markup = puzzles.into_iter().cloned().collect::<Vec<_>>();
    puzzle_markup.push((SheetKind::HostKey, answers.unwrap_or_default().to_string()));
    puzzle_markup.push((SheetKind::HostKey, stamp.clone()));
    let puzzle_set = build_stamp(puzzle_markup.iter(), variant);
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
    variant: &Variant,
) -> String {
    let (kit, options) = (&variant.kit, &variant.options);
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
    feed(&[variant.size]);
    feed(number(kit.board.spacing_mm).as_bytes());
    for (sheet, markup) in rendered {
        feed(sheet.name().as_bytes());
        feed(markup.as_bytes());
    }
    format!("{:06x}", hash >> 40)
}
