//! Sheet templates: Tera templates that turn a kit's data and strings into sheet
//! markup (see `layout::markup`). The built-in set is compiled in; a folder given
//! with `--templates`, or a kit's own `templates/`, overrides it by file name.

use std::collections::BTreeMap;
use std::error::Error as _;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::sandbox::{self, Stopped};
use crate::diag::Diagnostic;
use crate::game_id::GameId;

/// The built-in templates every game shares, by sheet name; a game's own
/// (`GameKit::templates`) replace them.
const SHARED: &[(&str, &str)] = &[
    ("board", include_str!("../../templates/board.tera")),
    ("counters", include_str!("../../templates/counters.tera")),
    ("stones", include_str!("../../templates/stones.tera")),
    ("repetition-log", include_str!("../../templates/repetition-log.tera")),
    ("ledger", include_str!("../../templates/ledger.tera")),
    ("contents", include_str!("../../templates/contents.tera")),
    ("puzzles", include_str!("../../templates/puzzles.tera")),
    ("puzzle-answers", include_str!("../../templates/puzzle-answers.tera")),
];

/// Template texts by sheet name, each with the path to name in messages.
#[derive(Clone, Debug, Default)]
pub struct TemplateSet {
    /// Sheet name → (path for messages, text).
    pub templates: BTreeMap<String, (String, String)>,
    /// The sheets whose template came from a kit or a templates folder: untrusted
    /// code, run in isolation under [`Budget`].
    untrusted: std::collections::BTreeSet<String>,
    /// Shared by every clone, so one command's variants share one budget.
    budget: Arc<Budget>,
}

impl TemplateSet {
    /// The built-in templates for `game`: the shared ones, then `own`, the game's
    /// (from its home in `games/`).
    pub fn builtin(game: GameId, own: &[(&str, &str)]) -> Self {
        let mut templates = BTreeMap::new();
        for (sheet, text) in SHARED {
            let path = format!("templates/{sheet}.tera (built in)");
            templates.insert(sheet.to_string(), (path, text.to_string()));
        }
        for (sheet, text) in own {
            let path = format!("templates/{game}/{sheet}.tera (built in)");
            templates.insert(sheet.to_string(), (path, text.to_string()));
        }
        TemplateSet { templates, ..TemplateSet::default() }
    }

    /// This set with `overrides` (sheet name → (path, text)) taking precedence.
    pub fn with_overrides(
        mut self,
        overrides: &BTreeMap<String, (String, String)>,
    ) -> Self {
        for (name, entry) in overrides {
            self.templates.insert(name.clone(), entry.clone());
            self.untrusted.insert(name.clone());
        }
        self
    }

    /// Every string `t.section.key` that the template for `sheet` prints and
    /// `strings` lacks, each a problem at its place in the template: all of them at
    /// once, before the engine would stop at the first. A string the template tests
    /// with `is defined` is optional.
    pub fn missing_strings(&self, sheet: &str, strings: &toml::Table) -> Vec<Diagnostic> {
        let Some((path, text)) = self.templates.get(sheet) else { return Vec::new() };
        let uses = string_uses(text);
        let optional: Vec<&str> = uses
            .iter()
            .filter(|(_, key)| text_after_is_defined(text, key))
            .map(|(_, key)| key.as_str())
            .collect();
        let source: std::sync::Arc<str> = std::sync::Arc::from(text.as_str());
        let mut seen = Vec::new();
        uses.iter()
            .filter(|(_, key)| !optional.contains(&key.as_str()) && !key.ends_with(ANY))
            .filter(|(_, key)| !holds(strings, key))
            .filter_map(|(span, key)| {
                if seen.contains(key) {
                    return None;
                }
                seen.push(key.clone());
                let (section, name) = key.rsplit_once('.').unwrap_or(("", key));
                Diagnostic::at(
                    path,
                    &source,
                    span.clone(),
                    format!(
                        "the template prints `t.{key}`, which no strings file defines"
                    ),
                )
                .with_label(format!("add `{name}` under [{section}] in lang/en.toml"))
                .into()
            })
            .collect()
    }

    /// Every string key a template of the set prints or tests (`rules.title`; a
    /// table used whole, as `t.rules`, stands for every key under it).
    pub fn printed_keys(&self) -> impl Iterator<Item = String> + '_ {
        self.templates
            .values()
            .flat_map(|(_, text)| string_uses(text))
            .map(|(_, key)| key)
    }

    /// Renders the template for `sheet` with `context`.
    pub fn render<C: serde::Serialize>(
        &self,
        sheet: &str,
        context: &C,
    ) -> Result<String, Box<Diagnostic>> {
        self.render_within(sheet, context, RENDER_LIMIT)
    }

    /// [`render`](Self::render) with a given time limit for one render.
    fn render_within<C: serde::Serialize>(
        &self,
        sheet: &str,
        context: &C,
        limit: Duration,
    ) -> Result<String, Box<Diagnostic>> {
        let Some((path, text)) = self.templates.get(sheet) else {
            return Err(Box::new(Diagnostic::file(
                &format!("templates/{sheet}.tera"),
                format!("no template for sheet `{sheet}`"),
            )));
        };
        let fail = |message: String| Box::new(Diagnostic::file(path, message));
        if !self.untrusted.contains(sheet) {
            // Built-in templates are part of the program: they run here.
            return render_text(sheet, text, context).map_err(fail);
        }
        let context = serde_json::to_value(context).map_err(|e| fail(e.to_string()))?;
        let limit = self.budget.allows(path, limit).map_err(fail)?;
        let started = std::time::Instant::now();
        let outcome = match sandbox::render_isolated(sheet, text, context.clone(), limit)
        {
            Some(outcome) => outcome,
            None => {
                let (sheet, text) = (sheet.to_string(), text.clone());
                sandbox::on_worker_thread(
                    move || render_text(&sheet, &text, &context),
                    limit,
                )
                .ok_or(Stopped::Time)
            }
        };
        self.budget.spend(started.elapsed());
        match outcome {
            Ok(rendered) => rendered.map_err(fail),
            Err(stopped) => Err(fail(self.budget.stop(path, stopped, limit))),
        }
    }
}

/// How long one render of a kit's template may run. The built-in ones take
/// milliseconds.
const RENDER_LIMIT: Duration = Duration::from_secs(5);

/// How long all renders of a kit's own templates may run in one command (every
/// variant `check` builds included), so that a slow template cannot multiply its
/// cost by the number of languages and sizes.
const TOTAL_LIMIT: Duration = Duration::from_secs(20);

/// The most text one template may write: a hundred times what the longest built-in
/// sheet needs, and checked as it is written.
pub(crate) const MAX_OUTPUT_BYTES: usize = 1 << 20;

/// The time a set's untrusted templates have used, and those stopped: one that
/// overran is not run again in the same command.
#[derive(Debug, Default)]
struct Budget {
    spent: Mutex<Duration>,
    stopped: Mutex<BTreeMap<String, String>>,
}

impl Budget {
    /// The limit for the next render of `path`, or why it may not run.
    fn allows(&self, path: &str, limit: Duration) -> Result<Duration, String> {
        if let Some(why) = self.stopped.lock().expect("not poisoned").get(path) {
            return Err(why.clone());
        }
        let spent = *self.spent.lock().expect("not poisoned");
        match TOTAL_LIMIT.checked_sub(spent) {
            Some(left) if !left.is_zero() => Ok(limit.min(left)),
            _ => Err(format!(
                "the kit's templates ran for more than {} s in all: a template too slow \
                 for every language and size",
                TOTAL_LIMIT.as_secs()
            )),
        }
    }

    fn spend(&self, time: Duration) {
        *self.spent.lock().expect("not poisoned") += time;
    }

    /// The message for a stopped render of `path`, kept for its next render.
    fn stop(&self, path: &str, stopped: Stopped, limit: Duration) -> String {
        let why = match stopped {
            Stopped::Time => format!(
                "the template ran for more than {:.1} s and was stopped: a loop that \
                 does not end?",
                limit.as_secs_f64()
            ),
            Stopped::Memory => format!(
                "the template needed more than {} MiB of memory and was stopped: a \
                 string or list that grows without end?",
                sandbox::HEAP_CEILING_BYTES >> 20
            ),
            Stopped::Unavailable(why) => why,
        };
        self.stopped.lock().expect("not poisoned").insert(path.to_string(), why.clone());
        why
    }
}

/// Renders one template's `text` with `context`, in whatever process or thread
/// calls it: the rendered markup, or the template's error.
pub(crate) fn render_text(
    sheet: &str,
    text: &str,
    context: &impl serde::Serialize,
) -> Result<String, String> {
    let mut tera = tera::Tera::new();
    // Every printed value is escaped: strings are text, never markup.
    tera.set_escape_fn(super::markup::escape);
    tera.autoescape_on([""]);
    tera.register_function("range", small_range);
    tera.add_raw_template(sheet, text).map_err(|e| describe(&e))?;
    let context = tera::Context::from_serialize(context).map_err(|e| describe(&e))?;
    let mut output = Capped::default();
    match tera.render_to(sheet, &context, &mut output) {
        Ok(()) => String::from_utf8(output.bytes).map_err(|e| e.to_string()),
        Err(_) if output.full => Err(format!(
            "the template wrote more than {} KiB: a loop that prints without end?",
            MAX_OUTPUT_BYTES >> 10
        )),
        Err(e) => Err(describe(&e)),
    }
}

/// A render's output, refused once it would pass [`MAX_OUTPUT_BYTES`].
#[derive(Default)]
struct Capped {
    bytes: Vec<u8>,
    full: bool,
}

impl std::io::Write for Capped {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.bytes.len() + buf.len() > MAX_OUTPUT_BYTES {
            self.full = true;
            return Err(std::io::Error::other("too much output"));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The most numbers `range` gives a template: plenty for rows of a sheet.
const MAX_RANGE: i128 = 1000;

/// Tera's `range(end=…, start=…, step_by=…)`, capped at [`MAX_RANGE`] numbers so a
/// template cannot ask for a billion.
fn small_range(kwargs: tera::Kwargs, _: &tera::State) -> tera::TeraResult<Vec<i128>> {
    let start = kwargs.get::<i128>("start")?.unwrap_or_default();
    let end = kwargs.must_get::<i128>("end")?;
    let step = kwargs.get::<i128>("step_by")?.unwrap_or(1);
    if step == 0 {
        return Err(tera::Error::message("`range` needs a step other than 0"));
    }
    // As many numbers as Tera's own `range` gives: start, start + step, … short of end.
    let (span, stride) = if step > 0 {
        (end.saturating_sub(start), step)
    } else {
        (start.saturating_sub(end), -step)
    };
    let len = if span <= 0 { 0 } else { span.saturating_add(stride - 1) / stride };
    if len > MAX_RANGE {
        return Err(tera::Error::message(format!(
            "`range` would give {len} numbers: at most {MAX_RANGE}"
        )));
    }
    Ok((0..len).map(|i| start + i * step).collect())
}

/// Ends a key that stands for every key it begins (`contents.file_*`).
pub(crate) const ANY: char = '*';

/// Each `t.a.b…` path printed or tested inside a tag of `text`: its span, the key
/// after `t.` (`rules.title`); a table indexed with a text that begins with a
/// literal, as `t.contents["file_" ~ sheet]`, gives that beginning and [`ANY`].
fn string_uses(text: &str) -> Vec<(std::ops::Range<usize>, String)> {
    let bytes = text.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut uses = Vec::new();
    let mut in_tag = false;
    let mut i = 0;
    while i + 1 < bytes.len() {
        let pair = &bytes[i..i + 2];
        if pair == b"{{" || pair == b"{%" {
            in_tag = true;
        } else if pair == b"}}" || pair == b"%}" {
            in_tag = false;
        }
        let starts = in_tag
            && bytes[i] == b't'
            && bytes[i + 1] == b'.'
            && (i == 0 || !(ident(bytes[i - 1]) || bytes[i - 1] == b'.'));
        if !starts {
            i += 1;
            continue;
        }
        let mut end = i + 2;
        while end < bytes.len() && (ident(bytes[end]) || bytes[end] == b'.') {
            end += 1;
        }
        let key = text[i + 2..end].trim_end_matches('.').to_string();
        if key.contains('.') {
            uses.push((i..i + 2 + key.len(), key));
        } else if let Some(rest) = text[end..].strip_prefix("[\"")
            && let Some(close) = rest.find('"')
        {
            // `t.contents["file_" ~ sheet]`: every key of that table so begun.
            let prefix = format!("{key}.{}{ANY}", &rest[..close]);
            uses.push((i..end, prefix));
        }
        i = end;
    }
    uses
}

/// Whether `t.<key>` is tested with `is defined` somewhere in `text`.
fn text_after_is_defined(text: &str, key: &str) -> bool {
    let probe = format!("t.{key} is defined");
    text.contains(&probe)
}

/// Whether the strings hold `key` (dotted), or a text somewhere along it (a filter
/// or an index the scan cannot follow).
fn holds(strings: &toml::Table, key: &str) -> bool {
    let mut table = strings;
    for part in key.split('.') {
        match table.get(part) {
            None => return false,
            Some(toml::Value::Table(next)) => table = next,
            Some(_) => return true,
        }
    }
    true
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
        let set = builtin(any_game()).with_overrides(&overrides);
        let err = set.render("board", &serde_json_like()).unwrap_err();
        let text = err.render();
        assert!(text.contains("my/board.tera"), "{text}");
        assert!(text.contains(":2:"), "{text}");
    }

    #[test]
    fn every_missing_string_is_found_at_once_with_its_place() {
        let text = "# {{ t.rules.title }}\n{{ t.rules.one }} {{ t.rules.two | upper }}\n\
                    {% if t.rules.maybe is defined %}{{ t.rules.maybe }}{% endif %}\n\
                    {{ t.other.three }} {{ t.rules.one }} it's t.rules.prose\n";
        let mut overrides = BTreeMap::new();
        overrides.insert("board".to_string(), ("b.tera".to_string(), text.to_string()));
        let set = builtin(any_game()).with_overrides(&overrides);
        let strings: toml::Table = toml::from_str("[rules]\ntitle = \"T\"\n").unwrap();
        let missing: Vec<String> =
            set.missing_strings("board", &strings).iter().map(|d| d.render()).collect();
        assert_eq!(missing.len(), 3, "{missing:?}");
        assert!(
            missing[0].contains("`t.rules.one`") && missing[0].contains("b.tera:2:4")
        );
        assert!(missing[1].contains("`t.rules.two`"), "{}", missing[1]);
        assert!(missing[2].contains("add `three` under [other]"), "{}", missing[2]);
    }

    #[test]
    fn range_counts_as_tera_does_and_is_capped() {
        let render = |text: &str| {
            let mut overrides = BTreeMap::new();
            overrides
                .insert("board".to_string(), ("b.tera".to_string(), text.to_string()));
            let set = builtin(any_game()).with_overrides(&overrides);
            set.render("board", &serde_json_like()).map_err(|d| d.render())
        };
        let listed =
            "{% for i in range(start=0, end=5, step_by=2) %}{{ i }},{% endfor %}";
        assert_eq!(render(listed).unwrap().replace('\u{E000}', ""), "0,2,4,");
        let down = "{% for i in range(start=5, end=0, step_by=-2) %}{{ i }},{% endfor %}";
        assert_eq!(render(down).unwrap().replace('\u{E000}', ""), "5,3,1,");
        let huge = "{% for i in range(end=1000000000) %}x{% endfor %}";
        assert!(render(huge).unwrap_err().contains("at most 1000"));
    }

    #[test]
    fn a_template_that_runs_too_long_is_stopped_with_its_name() {
        let mut overrides = BTreeMap::new();
        // Loops that print nothing: the runaway render costs time, not memory.
        // About a second of work: well past the budget, and soon over.
        let nested = "{% for a in range(end=1000) %}{% for b in range(end=1000) %}\
                      {% for c in range(end=10) %}{% endfor %}{% endfor %}{% endfor %}";
        overrides
            .insert("board".to_string(), ("loop.tera".to_string(), nested.to_string()));
        let set = builtin(any_game()).with_overrides(&overrides);
        let budget = std::time::Duration::from_millis(200);
        let err = set.render_within("board", &serde_json_like(), budget).unwrap_err();
        let err = err.render();
        assert!(err.contains("loop.tera"), "{err}");
        assert!(err.contains("ran for more than 0.2 s"), "{err}");
        // The next render on this thread gets a fresh worker, not the busy one.
        overrides
            .insert("board".to_string(), ("quick.tera".to_string(), "x".to_string()));
        let quick = builtin(any_game()).with_overrides(&overrides);
        let rendered = quick.render_within("board", &serde_json_like(), budget);
        assert_eq!(rendered.map_err(|e| e.render()).unwrap(), "x");
    }

    #[test]
    fn a_budget_spent_or_stopped_lets_no_more_renders_run() {
        let budget = Budget::default();
        let limit = Duration::from_secs(5);
        assert_eq!(budget.allows("a.tera", limit), Ok(limit));
        budget.spend(TOTAL_LIMIT - Duration::from_secs(1));
        assert_eq!(budget.allows("a.tera", limit), Ok(Duration::from_secs(1)));
        budget.spend(Duration::from_secs(1));
        assert!(budget.allows("a.tera", limit).unwrap_err().contains("in all"));
        let fresh = Budget::default();
        let why = fresh.stop("b.tera", Stopped::Memory, limit);
        assert!(why.contains("256 MiB"), "{why}");
        assert_eq!(fresh.allows("b.tera", limit), Err(why));
        assert_eq!(fresh.allows("c.tera", limit), Ok(limit), "others still run");
    }

    #[test]
    fn a_syntax_error_is_reported() {
        let mut overrides = BTreeMap::new();
        overrides
            .insert("board".to_string(), ("b.tera".to_string(), "{% if %}".to_string()));
        let set = builtin(any_game()).with_overrides(&overrides);
        let err = set.render("board", &serde_json_like()).unwrap_err();
        assert!(err.render().contains("b.tera"));
    }

    /// The built-in templates of `game`, its own included.
    fn builtin(game: GameId) -> TemplateSet {
        TemplateSet::builtin(game, crate::games::home(game).templates())
    }

    /// The templates of some registered game; which one does not matter here.
    fn any_game() -> GameId {
        GameId::all().next().expect("a registered game")
    }

    fn serde_json_like() -> BTreeMap<String, BTreeMap<String, String>> {
        BTreeMap::from([("t".to_string(), BTreeMap::new())])
    }
}
