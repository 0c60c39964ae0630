//! Loading a kit: `kit.toml` and the strings files, read and checked into a [`Kit`],
//! with every problem found reported at once (each check goes on after a problem).

use std::collections::BTreeMap;
use std::ops::RangeInclusive;

use super::{
    BoardSpec, Claim, Example, Kit, MAX_CELL_MM, MAX_GAME_MINUTES, MAX_SPARES,
    MIN_CELL_MM, PIECE_CLEARANCE_MM, PUZZLE_ANSWERS, PieceSpec, PuzzleSpec, RuleKey,
    RuleParams, SheetKind, Source, Span, defaults, is_slug, raw, size_range, strings,
    too_large,
};
use crate::diag::{Diagnostic, Diagnostics};
use crate::game_id::GameId;

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
        .chain([PUZZLE_ANSWERS])
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

/// What loading a kit needs to know of the game it names, from the game's home
/// (`games::schema`): passed in, so that kits do not depend on the games that read
/// them.
#[derive(Clone, Debug)]
pub struct Schema {
    /// The board sizes the game can be played at.
    pub sizes: RangeInclusive<u8>,
    /// The sizes a kit offers when it names none.
    pub usual_sizes: RangeInclusive<u8>,
    /// The optional `[board]` keys the game's drawings read.
    pub board_keys: &'static [&'static str],
    /// The `[rules]` keys a kit may set, with the values the game's engine plays.
    pub rule_keys: &'static [RuleKey],
}

/// A kit's game and what a kit may say for it, once kit.toml names a known game.
type Game<'a> = Option<(GameId, &'a Schema)>;

/// Loads and validates a kit against its game's `schema`, reporting every problem
/// found.
pub fn load(source: &Source, schema: fn(GameId) -> Schema) -> Result<Kit, Diagnostics> {
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
    let id = check_head(&raw, &at, &mut diags);
    let schema = id.map(schema);
    let game = id.zip(schema.as_ref());
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
    if let Some(id) = id {
        defaults::fill_in(id, source, &mut languages);
    }
    diags.extend(unknown_templates(source));
    diags.extend(strings_of_no_example(source, &examples));
    let card = card_sheets(raw.card.iter().flatten(), &sheets, &at, &mut diags);
    let Some(game) = id.filter(|_| diags.is_empty()) else {
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
    game: Game,
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
    if let Some((game, schema)) = game {
        let optional = [
            ("row-spacing-mm", raw.board.row_spacing_mm.as_ref().map(|v| v.span())),
            ("point-diameter-mm", raw.board.point_diameter_mm.as_ref().map(|v| v.span())),
        ];
        for (key, span) in optional {
            if let Some(span) = span
                && !schema.board_keys.contains(&key)
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
    game: Game,
    at: &dyn Fn(Span, String) -> Diagnostic,
    diags: &mut Diagnostics,
) -> (RangeInclusive<u8>, u8) {
    let game_sizes = game.map_or(1..=1, |(_, schema)| schema.sizes.clone());
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
            let usual = game.map_or(1..=1, |(_, schema)| schema.usual_sizes.clone());
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
    sizes: RangeInclusive<u8>,
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
    Ok(crate::civil::days_from_civil(y, m, d) * 86_400)
}

/// `[time] game-minutes`: each key a board size the kit offers, each value the
/// fewest and most minutes, 1 to [`MAX_GAME_MINUTES`], fewest first.
fn game_minutes(
    time: &raw::RawTime,
    sizes: &RangeInclusive<u8>,
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
    game: Game,
    sizes: &RangeInclusive<u8>,
    at: &dyn Fn(Span, String) -> Diagnostic,
    diags: &mut Diagnostics,
) -> RuleParams {
    let keys = game.map_or(&[][..], |(_, schema)| schema.rule_keys);
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
            let game = game.map_or("this".to_string(), |(g, _)| format!("`{g}`"));
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
