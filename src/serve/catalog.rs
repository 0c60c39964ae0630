//! What the page offers: the kits with their words, pictures and choices, the
//! papers, the printers kept on this computer, and the page's own words.

use serde_json::{Value, json};

use super::state::{AppState, Offered};
use super::words::Words;
use crate::kit::SheetKind;
use crate::layout::Paper;
use crate::pipeline::{self, Options};
use crate::preview::{Format, Previews};

/// The kit words the page shows.
pub(crate) const KIT_KEYS: [&str; 2] = ["common.game_title", "common.tagline"];

/// The resolution of a kit's picture in the list: enough to recognise the board.
const THUMBNAIL_DPI: u32 = 24;

/// Everything the page needs before its first build.
pub fn catalog(state: &AppState) -> Value {
    let (printers, printers_problem) = match crate::io::read_profiles() {
        Ok((_, profiles)) => (profiles.0, None),
        Err(e) => (Default::default(), Some(format!("{e:#}"))),
    };
    let printers: Vec<Value> = printers
        .iter()
        .map(|(name, c)| {
            let (across, down) = c.shown(false);
            json!({ "name": name, "across": across, "down": down })
        })
        .collect();
    let languages: Vec<Value> =
        state.words.by_lang.keys().map(|lang| language(lang, &state.words)).collect();
    json!({
        "languages": languages,
        "words": state.words.by_lang,
        "papers": Paper::names(),
        "kits": state.kits.iter().map(|offered| kit_entry(offered, &state.words, None)).collect::<Vec<_>>(),
        "printers": printers,
        "printers_problem": printers_problem,
    })
}

fn language(lang: &str, words: &Words) -> Value {
    json!({ "code": lang, "name": words.language_name(lang), "rtl": crate::kit::strings::is_right_to_left(lang) })
}

/// One kit as the page lists it; `upload` is the token of an uploaded kit.
pub fn kit_entry(offered: &Offered, words: &Words, upload: Option<&str>) -> Value {
    let kit = &offered.kit;
    let langs: Vec<&str> = kit.languages.keys().map(String::as_str).collect();
    let kit_words = pipeline::kit_words(kit, &offered.verified, &langs, &KIT_KEYS)
        .unwrap_or_default();
    let text = |key: &str| -> Value {
        kit_words
            .iter()
            .filter_map(|(lang, w)| {
                w.get(key).map(|t| (lang.clone(), Value::from(t.as_str())))
            })
            .collect::<serde_json::Map<_, _>>()
            .into()
    };
    let id = match upload {
        Some(token) => format!("upload:{token}"),
        None => kit.id.clone(),
    };
    let presets: Vec<Value> = kit
        .board
        .presets
        .iter()
        .map(|(name, mm)| json!({ "name": name, "mm": crate::games::number(*mm) }))
        .collect();
    json!({
        "id": id,
        "kit": kit.id,
        "uploaded": upload.is_some(),
        "titles": text("common.game_title"),
        "taglines": text("common.tagline"),
        "languages": langs.iter().map(|l| language(l, words)).collect::<Vec<_>>(),
        "sizes": [kit.board.sizes.start(), kit.board.sizes.end()],
        "default_size": kit.board.default_size,
        "cell_mm": crate::games::number(kit.board.spacing_mm),
        "presets": presets,
        "puzzles": kit.puzzle_sheet().map(|p| json!({ "count": p.count, "plies": p.plies })),
        "thumbnail": format!("/api/kits/{id}/thumbnail.png"),
    })
}

/// A small picture of the kit's board as the default build prints it (the first
/// player sheet's first page for a kit without a board).
pub fn thumbnail(Offered { kit, verified }: &Offered) -> Option<Vec<u8>> {
    let options = Options {
        lang: crate::kit::strings::REFERENCE_LANGUAGE.to_string(),
        paper: Paper::a4(),
        size: None,
        cell: None,
        templates: pipeline::templates_for(kit, &Default::default()),
        calibration: None,
        previews: Previews {
            format: Some(Format::Png),
            dpi: THUMBNAIL_DPI,
            ..Previews::default()
        },
        class: None,
        cut: Default::default(),
        large_print: false,
    };
    let built = pipeline::build_verified(kit, verified, &options).ok()?;
    let sheet = |o: &&pipeline::Output| o.sheet == SheetKind::Board;
    let other = |o: &&pipeline::Output| {
        !matches!(o.sheet, SheetKind::Contents | SheetKind::HostKey)
    };
    let output =
        built.outputs.iter().find(sheet).or_else(|| built.outputs.iter().find(other))?;
    output.extras.first().map(|(_, png)| png.clone())
}
