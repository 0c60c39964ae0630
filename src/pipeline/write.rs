//! The last stage: the pages laid out written as PDFs, with the pictures and cut
//! files asked for, and a class's whole print job as one more PDF; and what the build
//! read, for `check` to report strings no sheet prints.

use std::collections::BTreeSet;

use super::context::PAPER_STRINGS;
use super::lay_out::{Laid, LaidOut};
use super::variant::Variant;
use super::views::Views;
use super::{Built, Options, Output, class, puzzles};
use crate::kit::SheetKind;
use crate::layout;
use crate::pdf;
use crate::preview::{self, Format};
use crate::text::{Reading, Shaper};

/// The build: every sheet written, a class's print job, and what the build read and
/// fell back on.
pub(super) fn built(variant: &Variant, views: &Views, laid: LaidOut) -> Built {
    let options = &*variant.options;
    let card_words = views
        .players
        .table
        .get("common")
        .and_then(|c| c.get("on_card"))
        .and_then(|v| v.as_str())
        .unwrap_or_default();
    let on_card = (variant.kit.card.as_slice(), card_words, variant.reading);
    let print_all = options.class.map(|class| {
        print_all(
            &class,
            &laid.sheets,
            (&laid.job_title, on_card),
            options,
            variant.shaper,
        )
    });
    // Every page picture of the build draws its glyphs from one set.
    let mut glyphs = preview::raster::Glyphs::default();
    let outputs =
        laid.sheets.into_iter().map(|laid| laid.write(options, &mut glyphs)).collect();
    Built {
        outputs,
        print_all,
        fell_back: views.host.fell_back.clone(),
        notes: variant.notes.clone(),
        strings_read: strings_read(variant, views, laid.plan_read),
    }
}

/// Every string key the build printed or read: those its drawings read, its
/// templates print, and the pipeline's own.
fn strings_read(
    variant: &Variant,
    views: &Views,
    plan_read: BTreeSet<String>,
) -> BTreeSet<String> {
    let options = &variant.options;
    let mut strings_read: BTreeSet<String> =
        views.players.read.take().into_iter().chain(views.host.read.take()).collect();
    strings_read.extend(plan_read);
    strings_read.extend(options.templates.printed_keys());
    strings_read.extend(["common.on_card", "contents.pages"].map(String::from));
    strings_read.extend(PAPER_STRINGS.map(String::from));
    if options.class.is_some() {
        strings_read.extend(class::STRINGS_READ.iter().map(|k| k.to_string()));
    }
    if !variant.puzzles.is_empty() {
        strings_read.extend(puzzles::STRINGS_READ.iter().map(|k| k.to_string()));
    }
    strings_read
}

/// The file a sheet is written to, the same in every language.
pub(super) fn file_name(sheet: SheetKind) -> String {
    format!("{}.pdf", sheet.name())
}

impl Laid {
    /// The PDF, drawn with the build's printer correction if it has one, and the
    /// previews and cut files asked for, from the same pages.
    fn write(self, options: &Options, glyphs: &mut preview::raster::Glyphs) -> Output {
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
                        let png =
                            preview::raster::page(page, previews.dpi, scale, glyphs);
                        ("png", png)
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

/// A class's print job as one PDF (its pages, its bytes), titled `title` and
/// otherwise described like the contents sheet.
/// Pages of the sheets in `card` carry a mark saying so.
fn print_all(
    class: &class::Class,
    laid: &[Laid],
    (title, (card, on_card, reading)): (&str, (&[SheetKind], &str, Reading)),
    options: &Options,
    shaper: &Shaper,
) -> (usize, Vec<u8>) {
    let (width, height) = options.paper.sheet_mm();
    let blank = crate::page::Page::new(width, height);
    let marked: Vec<Vec<crate::page::Page>> = laid
        .iter()
        .map(|l| match card.contains(&l.sheet) {
            true => l
                .pages
                .iter()
                .map(|p| layout::marked_for_card(shaper, p, on_card, reading))
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
