//! How a command fails: each failure carries its exit code (see `EXIT_CODES`) and
//! is told on standard error in one place, so every command reports alike.

use super::to_stderr;
use crate::diag::Diagnostic;
use crate::rules::RulesError;

/// A failure, and the exit code it gives.
pub(crate) enum Failure {
    /// Kit diagnostics: exit 1.
    Kit(Vec<Diagnostic>),
    /// The rules refuse a well-formed position or move: exit 1.
    Refused(anyhow::Error),
    /// A usage or I/O error, or text the rules cannot read: exit 2.
    Other(anyhow::Error),
}

impl Failure {
    pub(super) fn code(&self) -> u8 {
        match self {
            Failure::Kit(_) | Failure::Refused(_) => 1,
            Failure::Other(_) => 2,
        }
    }

    /// Tells the failure on standard error: every kit problem and their count, or
    /// the one error.
    pub(super) fn report(&self) {
        match self {
            Failure::Kit(diags) => {
                for d in diags {
                    to_stderr(&d.render());
                }
                tell!(
                    "{} problem{} found",
                    diags.len(),
                    if diags.len() == 1 { "" } else { "s" }
                );
            }
            Failure::Refused(e) | Failure::Other(e) => tell!("error: {e:#}"),
        }
    }
}

impl From<RulesError> for Failure {
    fn from(e: RulesError) -> Self {
        let message = shorten_quotes(&e.to_string());
        if e.is_refusal() {
            Failure::Refused(anyhow::anyhow!(message))
        } else {
            Failure::Other(anyhow::anyhow!(message))
        }
    }
}

/// The most characters of a quoted token a message shows: enough to recognise it.
const MAX_QUOTED_CHARS: usize = 40;

/// `message` with each `quoted` token longer than [`MAX_QUOTED_CHARS`] cut short
/// and its length told, so a pasted page of text is not echoed whole.
fn shorten_quotes(message: &str) -> String {
    let mut out = String::new();
    for (i, part) in message.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        let chars = part.chars().count();
        if i % 2 == 1 && chars > MAX_QUOTED_CHARS {
            let start: String = part.chars().take(MAX_QUOTED_CHARS - 10).collect();
            out.push_str(&format!("{start}… ({chars} characters)"));
        } else {
            out.push_str(part);
        }
    }
    out
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Self {
        Failure::Other(e)
    }
}
