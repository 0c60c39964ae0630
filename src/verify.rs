//! Worked examples are replayed through the rules, and every claim a kit makes about
//! them is checked. A false claim is a diagnostic pointing at the claim in kit.toml.

use serde::Serialize;

use crate::diag::{Diagnostic, Diagnostics};
use crate::kit::{Claim, Example, Kit};
use crate::rules::{self, Outcome, Replay};

/// An example as the rules played it: what diagrams and answers are drawn from.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verified {
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
    /// The square the shown moves start from, if the example names one.
    pub from: Option<String>,
}

/// A move the rules refused.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct IllegalMove {
    /// The move as written.
    pub text: String,
    /// Why the rules refuse it.
    pub reason: String,
}

/// Replays every example of a kit; all false claims are reported, not only the first.
pub fn verify(kit: &Kit) -> Result<Vec<Verified>, Diagnostics> {
    let Some(engine) = rules::engine(&kit.game) else {
        return Err(vec![Diagnostic::file(
            &kit.kit_file,
            format!("unknown game `{}`", kit.game),
        )]);
    };
    let mut out = Vec::new();
    let mut diags = Diagnostics::new();
    for example in &kit.examples {
        match verify_one(kit, engine.as_ref(), example) {
            Ok(v) => out.push(v),
            Err(errors) => diags.extend(errors),
        }
    }
    if diags.is_empty() { Ok(out) } else { Err(diags) }
}

fn verify_one(
    kit: &Kit,
    engine: &dyn rules::Engine,
    ex: &Example,
) -> Result<Verified, Diagnostics> {
    let at = |span: std::ops::Range<usize>, msg: String| {
        Diagnostic::at(&kit.kit_file, &kit.kit_source, span, msg)
    };
    let moves: Vec<String> = ex.moves.iter().map(|(m, _)| m.clone()).collect();
    let replay = engine.replay(&ex.position, &moves).map_err(|e| {
        // The position or a move does not parse: point at whichever one fails.
        let span = match engine.replay(&ex.position, &[]) {
            Err(_) => ex.position_span.clone(),
            Ok(_) => first_unparsable(engine, ex).unwrap_or(ex.position_span.clone()),
        };
        vec![at(span, format!("example `{}`: {e}", ex.id))]
    })?;
    let from = ex.claims.iter().find_map(|(c, _)| match c {
        Claim::LegalMoves { from, .. } => from.clone(),
        _ => None,
    });
    let shown_moves = moves_from(&replay.legal_moves, from.as_deref());
    let mut diags = Diagnostics::new();
    for (claim, span) in &ex.claims {
        if let Err(actual) = check(claim, &replay, moves.len(), engine) {
            diags.push(
                at(span.clone(), format!("example `{}`: the rules disagree", ex.id))
                    .with_label(actual),
            );
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    let (winner, draw, line) = match &replay.outcome {
        Outcome::Win { winner, cells, .. } => (Some(winner.clone()), None, cells.clone()),
        Outcome::Draw { reason } => (None, Some(reason.clone()), Vec::new()),
        Outcome::Ongoing => (None, None, Vec::new()),
    };
    Ok(Verified {
        id: ex.id.clone(),
        illegal: replay.illegal.as_ref().map(|(i, reason)| IllegalMove {
            text: moves[*i].clone(),
            reason: reason.clone(),
        }),
        moves,
        positions: replay.positions,
        winner,
        draw,
        line,
        legal_moves: replay.legal_moves,
        shown_moves,
        from,
    })
}

fn first_unparsable(
    engine: &dyn rules::Engine,
    ex: &Example,
) -> Option<std::ops::Range<usize>> {
    (1..=ex.moves.len()).find_map(|n| {
        let prefix: Vec<String> = ex.moves[..n].iter().map(|(m, _)| m.clone()).collect();
        engine.replay(&ex.position, &prefix).err().map(|_| ex.moves[n - 1].1.clone())
    })
}

fn moves_from(moves: &[String], from: Option<&str>) -> Vec<String> {
    match from {
        None => moves.to_vec(),
        Some(sq) => moves
            .iter()
            .filter(|m| m.to_ascii_uppercase().starts_with(&sq.to_ascii_uppercase()))
            .cloned()
            .collect(),
    }
}

/// `Ok` if the claim holds; otherwise what the rules say instead.
fn check(
    claim: &Claim,
    replay: &Replay,
    move_count: usize,
    engine: &dyn rules::Engine,
) -> Result<(), String> {
    match claim {
        Claim::Legal(true) => match &replay.illegal {
            None => Ok(()),
            Some((i, why)) => Err(format!("move {} is illegal: {why}", i + 1)),
        },
        Claim::Legal(false) => match &replay.illegal {
            Some((i, _)) if *i + 1 == move_count => Ok(()),
            Some((i, why)) => Err(format!("move {} is already illegal: {why}", i + 1)),
            None => Err("every move is legal".to_string()),
        },
        Claim::Winner(who) => {
            let actual = match &replay.outcome {
                Outcome::Win { winner, .. } => winner.clone(),
                _ => "none".to_string(),
            };
            if actual.eq_ignore_ascii_case(who) {
                Ok(())
            } else {
                Err(format!("the outcome is {}", replay.outcome))
            }
        }
        Claim::Draw(reason) => match &replay.outcome {
            Outcome::Draw { reason: r } if r == reason => Ok(()),
            other => Err(format!("the outcome is {other}")),
        },
        Claim::Line(cells) => match &replay.outcome {
            Outcome::Win { cells: actual, .. } if same_set(actual, cells) => Ok(()),
            Outcome::Win { cells: actual, .. } => {
                Err(format!("the winning line is {}", actual.join(" ")))
            }
            other => Err(format!("there is no winning line: the outcome is {other}")),
        },
        Claim::Tops(tops) => {
            let last = replay.positions.last().expect("the start position");
            let mut wrong = Vec::new();
            for (square, owner) in tops {
                let actual = engine.top(last, square).map_err(|e| e.to_string())?;
                let actual = actual.unwrap_or_else(|| "none".to_string());
                if !actual.eq_ignore_ascii_case(owner) {
                    wrong.push(format!("{square} is topped by {actual}"));
                }
            }
            if wrong.is_empty() { Ok(()) } else { Err(wrong.join(", ")) }
        }
        Claim::LegalMoves { from, moves } => {
            let actual = moves_from(&replay.legal_moves, from.as_deref());
            if same_set(&actual, moves) {
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
