//! Sheet templates: Tera templates that turn a kit's data and strings into sheet
//! markup (see `layout::markup`). The built-in set is compiled in; a folder given
//! with `--templates`, or a kit's own `templates/`, overrides it by file name.

use std::collections::BTreeMap;
use std::error::Error as _;

use crate::diag::Diagnostic;
use crate::games::GameId;

/// The built-in templates every game shares, by sheet name; a game's own
/// (`GameKit::templates`) replace them.
const SHARED: &[(&str, &str)] = &[
    ("board", include_str!("../../templates/board.tera")),
    ("counters", include_str!("../../templates/counters.tera")),
    ("stones", include_str!("../../templates/stones.tera")),
    ("repetition-log", include_str!("../../templates/repetition-log.tera")),
    ("ledger", include_str!("../../templates/ledger.tera")),
    ("contents", include_str!("../../templates/contents.tera")),
];

/// Template texts by sheet name, each with the path to name in messages.
#[derive(Clone, Debug, Default)]
pub struct TemplateSet {
    /// Sheet name → (path for messages, text).
    pub templates: BTreeMap<String, (String, String)>,
}

impl TemplateSet {
    /// The built-in templates for a game: the shared ones, then the game's own.
    pub fn builtin(game: GameId) -> Self {
        let mut templates = BTreeMap::new();
        for (sheet, text) in SHARED {
            let path = format!("templates/{sheet}.tera (built in)");
            templates.insert(sheet.to_string(), (path, text.to_string()));
        }
        for (sheet, text) in game.kit().templates() {
            let path = format!("templates/{game}/{sheet}.tera (built in)");
            templates.insert(sheet.to_string(), (path, text.to_string()));
        }
        TemplateSet { templates }
    }

    /// This set with `overrides` (sheet name → (path, text)) taking precedence.
    pub fn with_overrides(
        mut self,
        overrides: &BTreeMap<String, (String, String)>,
    ) -> Self {
        for (name, entry) in overrides {
            self.templates.insert(name.clone(), entry.clone());
        }
        self
    }

    /// Renders the template for `sheet` with `context`.
    pub fn render<C: serde::Serialize>(
        &self,
        sheet: &str,
        context: &C,
    ) -> Result<String, Box<Diagnostic>> {
        let Some((path, text)) = self.templates.get(sheet) else {
            return Err(Box::new(Diagnostic::file(
                &format!("templates/{sheet}.tera"),
                format!("no template for sheet `{sheet}`"),
            )));
        };
        let fail = |e: tera::Error| Box::new(Diagnostic::file(path, describe(&e)));
        let mut tera = tera::Tera::new();
        // Every printed value is escaped: strings are text, never markup.
        tera.set_escape_fn(super::markup::escape);
        tera.autoescape_on([""]);
        tera.add_raw_template(sheet, text).map_err(fail)?;
        let context = tera::Context::from_serialize(context).map_err(fail)?;
        tera.render(sheet, &context).map_err(fail)
    }
}

/// Tera's message with every cause (its `Display` alone hides the real one).
fn describe(error: &tera::Error) -> String {
    // The message may start with its own "error:"; the report adds one already.
    let mut text = error.to_string().trim_start_matches("error: ").to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    text.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_error_names_the_template_and_line() {
        let mut overrides = BTreeMap::new();
        overrides.insert(
            "board".to_string(),
            ("my/board.tera".to_string(), "# ok\n{{ t.missing.key }}\n".to_string()),
        );
        let set = TemplateSet::builtin(GameId::ThreeMenSlide).with_overrides(&overrides);
        let err = set.render("board", &serde_json_like()).unwrap_err();
        let text = err.render();
        assert!(text.contains("my/board.tera"), "{text}");
        assert!(text.contains(":2:"), "{text}");
    }

    #[test]
    fn a_syntax_error_is_reported() {
        let mut overrides = BTreeMap::new();
        overrides
            .insert("board".to_string(), ("b.tera".to_string(), "{% if %}".to_string()));
        let set = TemplateSet::builtin(GameId::ThreeMenSlide).with_overrides(&overrides);
        let err = set.render("board", &serde_json_like()).unwrap_err();
        assert!(err.render().contains("b.tera"));
    }

    fn serde_json_like() -> BTreeMap<String, BTreeMap<String, String>> {
        BTreeMap::from([("t".to_string(), BTreeMap::new())])
    }
}
