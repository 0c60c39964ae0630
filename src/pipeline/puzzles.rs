//! The puzzle sheet's part of a build: puzzles made by the rules become
//! puzzle examples of the kit, so the game's own `@diagrams` draws them and the
//! variant's sheets replay them once more; the player view learns only their numbers.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use serde::Serialize;

use crate::diag::{Diagnostic, Diagnostics};
use crate::game_id::GameId;
use crate::games;
use crate::kit::{Claim, Example, Kit, MAX_FIVE_PLY_SIZE, PuzzleSpec};
use crate::puzzles::{Puzzle, PuzzleError, Request};

/// One puzzle as a sheet's template sees it. The player view is made with
/// [`Entry::question`], which has no answer to give; only [`Entry::answer`] (the
/// host view) fills `line`.
#[derive(Clone, Debug, Serialize)]
pub(super) struct Entry {
    /// The example id its diagrams are drawn from (`puzzle-sheet-1`).
    pub id: String,
    /// Its number on the sheet, from 1.
    pub number: usize,
    /// The winning first move and the main line, moves separated by spaces (host
    /// view only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<String>,
}

impl Entry {
    /// What a player sheet may know of puzzle `number`: which diagram it is.
    pub fn question(number: usize) -> Entry {
        Entry { id: id(number), number, line: None }
    }

    /// What the host key shows of a puzzle: the question and its main line.
    pub fn answer(number: usize, puzzle: &Puzzle) -> Entry {
        Entry { line: Some(puzzle.solution.join(" ")), ..Entry::question(number) }
    }
}

/// Puzzles per row on the sheets: two diagrams side by side.
pub(super) const PER_ROW: usize = 2;

/// The example id of puzzle `number` (from 1).
pub(super) fn id(number: usize) -> String {
    format!("puzzle-sheet-{number}")
}

/// What one generation is keyed by: a build in six languages and two papers asks
/// for the same puzzles twelve times, and they are made once.
type Key = (GameId, u8, usize, u32, u64, crate::kit::RuleParams);

/// One generation's result, made by the first build to ask for it; builds asking at
/// the same time wait for it rather than make it again.
type Generation = Arc<OnceLock<Result<Vec<Puzzle>, PuzzleError>>>;

/// The puzzles a kit's variants have made, by what they asked: owned by what they
/// share (the kit's [`super::Verified`]), so it lasts as long as the build command, or
/// the web page's kit, and no longer. Making them once is worth it: `build --lang
/// all --puzzles 4` on one thread takes 1.0 s of CPU with it, 1.9 s without.
#[derive(Default)]
pub(super) struct Made(Mutex<HashMap<Key, Generation>>);

/// How many generations are kept before the memo starts again.
const MAX_KEPT_GENERATIONS: usize = 64;

/// The puzzles `spec` asks of `kit` at board `size`: proven by the rules, the same
/// on every machine. Fewer than asked when the search budget runs out first.
pub(super) fn generate(
    kit: &Kit,
    size: u8,
    spec: &PuzzleSpec,
    made: &Made,
) -> Result<Vec<Puzzle>, Diagnostics> {
    let at = |message: String| match spec.span.is_empty() {
        true => Diagnostic::file(&kit.kit_file, message),
        false => {
            Diagnostic::at(&kit.kit_file, &kit.kit_source, spec.span.clone(), message)
        }
    };
    if !spec.fits_board(size) {
        return Err(vec![at(format!(
            "puzzle sheet: {}-ply puzzles are made on boards up to \
             {MAX_FIVE_PLY_SIZE}×{MAX_FIVE_PLY_SIZE} (on larger ones they take minutes to \
             prove); this build is {size}×{size}: ask for 3 plies (`plies` in [puzzles], or \
             --plies)",
            spec.plies
        ))]);
    }
    let key = (kit.game, size, spec.count, spec.plies, spec.seed, kit.rules.clone());
    let generation: Generation = match made.0.lock() {
        Ok(mut made) => {
            // A long-running server keeps the recent ones, not every seed asked.
            if made.len() >= MAX_KEPT_GENERATIONS && !made.contains_key(&key) {
                made.clear();
            }
            made.entry(key).or_default().clone()
        }
        Err(_) => Generation::default(),
    };
    let result = generation.get_or_init(|| {
        let request = Request {
            rules: kit.rules.clone(),
            ..Request::new(size, spec.count, spec.plies, spec.seed)
        };
        games::generate_with(kit.game, &request)
    });
    result.clone().map_err(|e| vec![at(format!("puzzle sheet: {e}"))])
}

/// Each puzzle as a puzzle example of `kit` (`puzzle-sheet-1`, …): its moves are
/// the main line, and it claims them legal and won by the player to move.
pub(super) fn as_examples(
    kit: &Kit,
    puzzles: &[Puzzle],
) -> Result<Vec<Example>, Diagnostics> {
    let span = kit.puzzles.as_ref().map(|s| s.span.clone()).unwrap_or_default();
    let mut examples = Vec::new();
    for (i, puzzle) in puzzles.iter().enumerate() {
        let id = id(i + 1);
        if let Some(taken) = kit.examples.iter().find(|e| e.id == id) {
            let message = format!(
                "example id `{id}` is kept for the puzzle sheet: rename the example"
            );
            return Err(vec![Diagnostic::at(
                &kit.kit_file,
                &kit.kit_source,
                taken.position_span.clone(),
                message,
            )]);
        }
        examples.push(Example {
            id,
            position: puzzle.position.clone(),
            position_span: span.clone(),
            moves: puzzle.solution.iter().map(|m| (m.clone(), span.clone())).collect(),
            claims: vec![
                (Claim::Legal(true), span.clone()),
                (Claim::Winner(puzzle.to_move.clone()), span.clone()),
            ],
            puzzle: true,
        });
    }
    Ok(examples)
}

/// The strings a puzzle sheet reads besides its templates' (`*`: every key so
/// begun, one per player).
pub(super) const STRINGS_READ: &[&str] =
    &["puzzles.answer_line", "puzzles.to_move_*", "puzzles.in_hand*", "puzzles.why_*"];

/// One line per puzzle of what its game's rules say of it (`asked`): what both
/// players hold in hand (`puzzles.in_hand…`), so that a win placing the last piece in
/// hand is solvable from the page, or why the answer wins (`puzzles.why_…`, for the
/// host key); `None` where the game has nothing to say.
pub(super) fn lines(
    kit: &Kit,
    (strings, reference): (&crate::kit::Strings, &crate::kit::Strings),
    facts: &crate::games::Facts,
    (puzzles, asked): (&[Puzzle], crate::games::PuzzleFacts),
) -> Result<Vec<Option<String>>, Diagnostics> {
    let game = games::home(kit.game);
    let mut lines = Vec::new();
    for puzzle in puzzles {
        let Some((key, numbers)) = game.puzzle_facts(puzzle, kit.rule_params(), asked)
        else {
            lines.push(None);
            continue;
        };
        let mut facts = facts.clone();
        facts.extend(numbers);
        let (table, _) = strings.resolve(reference, &facts, &|k: &str| k == key)?;
        let (group, name) = key.split_once('.').unwrap_or(("", key));
        let line = table.get(group).and_then(|g| g.get(name)).and_then(|v| v.as_str());
        lines.push(line.map(str::to_string));
    }
    Ok(lines)
}

/// The strings key of the caption "A to move and win in 2 moves" for `puzzle`: one
/// per player, as the rules name them, so each language can word it its own way.
pub(super) fn caption_key(puzzle: &Puzzle) -> String {
    format!("puzzles.to_move_{}", puzzle.to_move.to_lowercase())
}

/// Sets each puzzle's diagram captions in a view's strings: the question ("1. A to
/// move and win in 2 moves") for everyone, and for the host the answer under the
/// drawn end of the main line ("1. Main line: C2-C1 …"), so that the two stay on one
/// page. On failure, the key that is missing.
pub(super) fn add_captions(
    table: &mut toml::Table,
    (puzzles, hands, reasons): (&[Puzzle], &[Option<String>], &[Option<String>]),
    host: bool,
) -> Result<(), String> {
    let text = |table: &toml::Table, key: &str| -> Result<String, String> {
        let (group, name) = key.split_once('.').unwrap_or(("", key));
        table
            .get(group)
            .and_then(|g| g.get(name))
            .and_then(|v| v.as_str())
            .map(str::to_string)
            .ok_or_else(|| key.to_string())
    };
    // A build without a puzzle sheet needs none of its strings.
    if puzzles.is_empty() {
        return Ok(());
    }
    let main_line = match host {
        true => Some(text(table, "puzzles.answer_line")?),
        false => None,
    };
    for (i, puzzle) in puzzles.iter().enumerate() {
        let mut question = format!("{}. {}", i + 1, text(table, &caption_key(puzzle))?);
        if let Some(Some(hand)) = hands.get(i) {
            question = format!("{question}\n{hand}");
        }
        let mut captions = toml::Table::new();
        captions.insert("caption".into(), question.into());
        if let Some(main_line) = &main_line {
            let mut answer =
                format!("{}. {main_line} {}", i + 1, puzzle.solution.join(" "));
            if let Some(Some(reason)) = reasons.get(i) {
                answer = format!("{answer}\n{reason}");
            }
            captions.insert("caption_end".into(), answer.into());
        }
        let examples = table
            .entry("examples")
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        if let toml::Value::Table(examples) = examples {
            examples.insert(id(i + 1), toml::Value::Table(captions));
        }
    }
    Ok(())
}
