//! Worked examples are replayed through the rules, and every claim a kit makes about
//! them is checked on typed positions and moves. A false claim is a diagnostic pointing
//! at the claim in kit.toml.

use serde::Serialize;

use crate::diag::{Diagnostic, Diagnostics};
use crate::kit::{Claim, Example, Kit, Span};
use crate::rules::{Game, Outcome, RulesError};

/// An example as the rules played it, typed: what diagrams are drawn from.
#[derive(Clone, Debug)]
pub struct Verified<G: Game> {
    /// The example's id.
    pub id: String,
    /// The rules the example was played by (at its own board size).
    pub game: G,
    /// The moves, as written in the kit.
    pub written: Vec<String>,
    /// The legal moves played, in order.
    pub moves: Vec<G::Move>,
    /// The start position, then the position after each legal move.
    pub positions: Vec<G::State>,
    /// The illegal move the example shows, and the rules' reason.
    pub illegal: Option<(G::Move, String)>,
    /// How the game stands at the end.
    pub outcome: Outcome,
    /// The winning line or road at the end, in board order.
    pub line: Vec<G::Square>,
    /// Every legal move at the end, sorted by notation.
    pub legal_moves: Vec<G::Move>,
    /// The legal moves the example asks about (those from `from`, or all), sorted.
    pub shown_moves: Vec<G::Move>,
    /// The square the shown moves start from, if the example names one.
    pub from: Option<G::Square>,
    /// A question for the players, answered only in the host key.
    pub puzzle: bool,
}

/// Where an `@diagrams` argument looks: an example's start or its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// The position before the example's moves.
    Start,
    /// The position its moves lead to.
    End,
}

impl<G: Game> Verified<G> {
    /// The position at the start or at the end.
    pub fn position(&self, when: When) -> &G::State {
        let found = match when {
            When::Start => self.positions.first(),
            When::End => self.positions.last(),
        };
        found.expect("a verified example has its start position")
    }

    /// The example as text, for templates and strings.
    pub fn summary(&self) -> Summary {
        let text = |moves: &[G::Move]| moves.iter().map(ToString::to_string).collect();
        let (winner, draw) = match &self.outcome {
            Outcome::Win { winner, .. } => (Some(winner.clone()), None),
            Outcome::Draw { reason } => (None, Some(reason.clone())),
            Outcome::Ongoing => (None, None),
        };
        Summary {
            id: self.id.clone(),
            moves: self.written.clone(),
            positions: self.positions.iter().map(|s| self.game.format_state(s)).collect(),
            illegal: self.illegal.as_ref().map(|(mv, reason)| IllegalMove {
                text: self.written[self.moves.len()].clone(),
                reason: reason.clone(),
                shown: mv.to_string(),
            }),
            winner,
            draw,
            line: self.line.iter().map(ToString::to_string).collect(),
            legal_moves: text(&self.legal_moves),
            destinations: self
                .shown_moves
                .iter()
                .map(|mv| self.game.target(mv).map_or(mv.to_string(), |t| t.to_string()))
                .collect(),
            shown_moves: text(&self.shown_moves),
            from: self.from.map(|sq| sq.to_string()),
            puzzle: self.puzzle,
        }
    }
}

/// An example as text: what templates see as `examples.<id>`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The example's id.
    pub id: String,
    /// The moves, as written in the kit.
    pub moves: Vec<String>,
    /// The start position, then the position after each legal move.
    pub positions: Vec<String>,
    /// The illegal move and the rules' reason, if the example shows one.
    pub illegal: Option<IllegalMove>,
    /// Winner at the end (`None` if nobody has won).
    pub winner: Option<String>,
    /// Draw reason at the end, if drawn.
    pub draw: Option<String>,
    /// The winning line or road at the end.
    pub line: Vec<String>,
    /// Every legal move at the end, sorted.
    pub legal_moves: Vec<String>,
    /// The legal moves the example asks about (those from `from`, or all).
    pub shown_moves: Vec<String>,
    /// Where each shown move puts its piece.
    pub destinations: Vec<String>,
    /// The square the shown moves start from, if the example names one.
    pub from: Option<String>,
    /// A question for the players, answered only in the host key.
    pub puzzle: bool,
}

/// A move the rules refused.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct IllegalMove {
    /// The move as written.
    pub text: String,
    /// Why the rules refuse it.
    pub reason: String,
    /// The move in the rules' notation.
    pub shown: String,
}

/// Replays every example of a kit with the rules `rules_for` gives for its position
/// (a game played at several sizes reads the size from the position); every false
/// claim is reported, not only the first. See `verify_examples`.
pub fn verify<G: Game>(
    kit: &Kit,
    rules_for: impl Fn(&str) -> Result<G, RulesError>,
) -> Result<Vec<Verified<G>>, Diagnostics> {
    verify_examples(kit, &kit.examples, rules_for)
}

/// Replays `examples` (the kit's own, or puzzles made for one build) as [`verify`]
/// does, each problem told at its place in `kit`'s kit.toml.
pub fn verify_examples<G: Game>(
    kit: &Kit,
    examples: &[Example],
    rules_for: impl Fn(&str) -> Result<G, RulesError>,
) -> Result<Vec<Verified<G>>, Diagnostics> {
    let mut out = Vec::new();
    let mut diags = Diagnostics::new();
    for example in examples {
        match rules_for(&example.position) {
            Ok(game) => {
                match verify_one(game, example, &|span, msg| at(kit, span, msg)) {
                    Ok(v) => out.push(v),
                    Err(errors) => diags.extend(errors),
                }
            }
            Err(e) => diags.push(refused(kit, example, &e)),
        }
    }
    if diags.is_empty() { Ok(out) } else { Err(diags) }
}

/// A problem at `span` of `kit`'s kit.toml.
fn at(kit: &Kit, span: Span, message: String) -> Diagnostic {
    Diagnostic::at(&kit.kit_file, &kit.kit_source, span, message)
}

/// `example`'s position refused by the rules, told at the position.
pub fn refused(kit: &Kit, example: &Example, error: &RulesError) -> Diagnostic {
    at(kit, example.position_span.clone(), format!("example `{}`: {error}", example.id))
}

fn verify_one<G: Game>(
    game: G,
    ex: &Example,
    at: &dyn Fn(Span, String) -> Diagnostic,
) -> Result<Verified<G>, Diagnostics> {
    let fail = |span: &Span, e: RulesError| {
        vec![at(span.clone(), format!("example `{}`: {e}", ex.id))]
    };
    let mut state =
        game.parse_state(&ex.position).map_err(|e| fail(&ex.position_span, e))?;
    let mut positions = vec![state.clone()];
    let mut moves = Vec::new();
    let mut illegal = None;
    for (text, span) in &ex.moves {
        let mv = game.parse_move(&state, text).map_err(|e| fail(span, e))?;
        match game.play(&state, &mv) {
            Ok(next) => {
                state = next;
                positions.push(state.clone());
                moves.push(mv);
            }
            Err(why) => {
                illegal = Some((mv, why.0));
                break;
            }
        }
    }
    let outcome = game.outcome(&state);
    let line = match &outcome {
        Outcome::Win { cells, .. } => cells
            .iter()
            .map(|cell| game.parse_square(&state, cell))
            .collect::<Result<_, _>>()
            .map_err(|e| fail(&ex.position_span, e))?,
        _ => Vec::new(),
    };
    let from_text = ex.claims.iter().find_map(|(c, span)| match c {
        Claim::LegalMoves { from: Some(from), .. } => Some((from.clone(), span)),
        _ => None,
    });
    let from = match &from_text {
        Some((text, span)) => {
            Some(game.parse_square(&state, text).map_err(|e| fail(span, e))?)
        }
        None => None,
    };
    let legal_moves = sorted::<G>(game.legal_moves(&state));
    let shown_moves = match &from_text {
        Some((text, span)) => {
            sorted::<G>(game.moves_from(&state, text).map_err(|e| fail(span, e))?)
        }
        None => legal_moves.clone(),
    };
    let verified = Verified {
        id: ex.id.clone(),
        written: ex.moves.iter().map(|(m, _)| m.clone()).collect(),
        moves,
        positions,
        illegal,
        outcome,
        line,
        legal_moves,
        shown_moves,
        from,
        game,
        puzzle: ex.puzzle,
    };
    let diags: Diagnostics = ex
        .claims
        .iter()
        .filter_map(|(claim, span)| {
            let actual = check(claim, &verified).err()?;
            Some(
                at(span.clone(), format!("example `{}`: the rules disagree", ex.id))
                    .with_label(actual),
            )
        })
        .collect();
    if diags.is_empty() { Ok(verified) } else { Err(diags) }
}

/// Moves in the order of their notation, as listings show them.
fn sorted<G: Game>(moves: Vec<G::Move>) -> Vec<G::Move> {
    let mut keyed: Vec<(String, G::Move)> =
        moves.into_iter().map(|mv| (mv.to_string(), mv)).collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    keyed.into_iter().map(|(_, mv)| mv).collect()
}

/// `Ok` if the claim holds; otherwise what the rules say instead.
fn check<G: Game>(claim: &Claim, v: &Verified<G>) -> Result<(), String> {
    let outcome = &v.outcome;
    match claim {
        Claim::Legal(true) => match &v.illegal {
            None => Ok(()),
            Some((_, why)) => {
                Err(format!("move {} is illegal: {why}", v.moves.len() + 1))
            }
        },
        Claim::Legal(false) => match &v.illegal {
            Some(_) if v.moves.len() + 1 == v.written.len() => Ok(()),
            Some((_, why)) => {
                Err(format!("move {} is already illegal: {why}", v.moves.len() + 1))
            }
            None => Err("every move is legal".to_string()),
        },
        Claim::Winner(who) => {
            let actual = match outcome {
                Outcome::Win { winner, .. } => winner.clone(),
                _ => "none".to_string(),
            };
            if actual.eq_ignore_ascii_case(who) {
                Ok(())
            } else {
                Err(format!("the outcome is {outcome}"))
            }
        }
        Claim::Draw(reason) => match outcome {
            Outcome::Draw { reason: r } if r == reason => Ok(()),
            other => Err(format!("the outcome is {other}")),
        },
        Claim::Line(cells) => match outcome {
            Outcome::Win { cells: actual, .. } if same_set(actual, cells) => Ok(()),
            Outcome::Win { cells: actual, .. } => {
                Err(format!("the winning line is {}", actual.join(" ")))
            }
            other => Err(format!("there is no winning line: the outcome is {other}")),
        },
        Claim::Tops(tops) => {
            let last = v.position(When::End);
            let mut wrong = Vec::new();
            for (square, owner) in tops {
                let actual = v.game.top(last, square).map_err(|e| e.to_string())?;
                let actual = actual.unwrap_or_else(|| "none".to_string());
                if !actual.eq_ignore_ascii_case(owner) {
                    wrong.push(format!("{square} is topped by {actual}"));
                }
            }
            if wrong.is_empty() { Ok(()) } else { Err(wrong.join(", ")) }
        }
        Claim::LegalMoves { moves, .. } => {
            let last = v.position(When::End);
            let mut claimed = Vec::new();
            for text in moves {
                let mv = v
                    .game
                    .parse_move(last, text)
                    .map_err(|e| format!("`{text}` is not a move: {e}"))?;
                claimed.push(mv.to_string());
            }
            let actual: Vec<String> =
                v.shown_moves.iter().map(ToString::to_string).collect();
            if same_set(&actual, &claimed) {
                Ok(())
            } else {
                Err(format!("the legal moves are: {}", list_or_none(&actual)))
            }
        }
    }
}

fn same_set(a: &[String], b: &[String]) -> bool {
    let norm = |v: &[String]| {
        let mut v: Vec<String> = v.iter().map(|s| s.to_ascii_uppercase()).collect();
        v.sort();
        v
    };
    norm(a) == norm(b)
}

fn list_or_none(moves: &[String]) -> String {
    if moves.is_empty() { "none".to_string() } else { moves.join(", ") }
}

/// The kit's own examples, replayed once per kit, followed by `puzzles` (made for one
/// build) replayed now with `rules_for`: what one variant's sheets draw from.
pub fn with_puzzles<G: Game + Clone>(
    own: &[Verified<G>],
    kit: &Kit,
    puzzles: &[Example],
    rules_for: impl Fn(&str) -> Result<G, RulesError>,
) -> Result<Vec<Verified<G>>, Diagnostics> {
    let made = verify_examples(kit, puzzles, rules_for)?;
    Ok(own.iter().cloned().chain(made).collect())
}

/// The examples for an N×N build: one whose id ends in `@N` is kept under the id before
/// the `@` (`road@3` becomes `road` on 3×3), one for another size is left out, and one
/// without `@` is kept unless a sized one of that name replaces it. Every example is
/// verified, whichever size is built. Every game played at several sizes shows its
/// examples through this, so the convention holds for all of them.
pub fn for_size<G: Game>(examples: Vec<Verified<G>>, size: u8) -> Vec<Verified<G>> {
    let suffix = format!("@{size}");
    let sized: Vec<String> = examples
        .iter()
        .filter_map(|e| e.id.strip_suffix(&suffix).map(str::to_string))
        .collect();
    examples
        .into_iter()
        .filter_map(|mut example| match example.id.split_once('@') {
            None => (!sized.contains(&example.id)).then_some(example),
            Some((name, n)) if n == size.to_string() => {
                example.id = name.to_string();
                Some(example)
            }
            Some(_) => None,
        })
        .collect()
}
