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
    ("puzzles", include_str!("../../templates/puzzles.tera")),
    ("puzzle-answers", include_str!("../../templates/puzzle-answers.tera")),
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
            .filter(|(_, key)| !optional.contains(&key.as_str()))
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

    /// Renders the template for `sheet` with `context`.
    pub fn render<C: serde::Serialize>(
        &self,
        sheet: &str,
        context: &C,
    ) -> Result<String, Box<Diagnostic>> {
        self.render_within(sheet, context, TEMPLATE_BUDGET)
    }

    /// [`render`](Self::render) with a given time budget.
    fn render_within<C: serde::Serialize>(
        &self,
        sheet: &str,
        context: &C,
        budget: std::time::Duration,
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
        tera.register_function("range", small_range);
        tera.add_raw_template(sheet, text).map_err(fail)?;
        let context = tera::Context::from_serialize(context).map_err(fail)?;
        // A kit's template is untrusted: it runs on another thread under a time budget,
        // so nested loops end in an error naming the template, not a hang.
        let name = sheet.to_string();
        match within_budget(move || tera.render(&name, &context), budget) {
            Some(rendered) => rendered.map_err(fail),
            None => Err(Box::new(Diagnostic::file(
                path,
                format!(
                    "the template ran for more than {:.1} s: a loop that does not end?",
                    budget.as_secs_f64()
                ),
            ))),
        }
    }
}

type Job = Box<dyn FnOnce() + Send>;

thread_local! {
    /// Where this thread's renders run. The worker is kept for the next render
    /// (starting a thread for every sheet cost more than most renders); one that
    /// overran its budget is left behind, running until the command ends, and a new
    /// one started.
    static WORKER: std::cell::RefCell<Option<std::sync::mpsc::Sender<Job>>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `job` on this thread's worker and waits at most `budget` for its result:
/// `None` if it ran longer (or panicked).
fn within_budget<T: Send + 'static>(
    job: impl FnOnce() -> T + Send + 'static,
    budget: std::time::Duration,
) -> Option<T> {
    let (done, result) = std::sync::mpsc::channel();
    let mut job: Job = Box::new(move || {
        let _ = done.send(job());
    });
    WORKER.with_borrow_mut(|worker| {
        loop {
            let sender = worker.get_or_insert_with(start_worker);
            match sender.send(job) {
                Ok(()) => break,
                // The worker is gone (a render panicked): start another.
                Err(std::sync::mpsc::SendError(returned)) => {
                    job = returned;
                    *worker = None;
                }
            }
        }
    });
    let outcome = result.recv_timeout(budget).ok();
    if outcome.is_none() {
        WORKER.with_borrow_mut(|worker| *worker = None);
    }
    outcome
}

fn start_worker() -> std::sync::mpsc::Sender<Job> {
    let (jobs, queue) = std::sync::mpsc::channel::<Job>();
    std::thread::spawn(move || {
        for job in queue {
            job();
        }
    });
    jobs
}

/// How long one sheet's template may run. The built-in ones take milliseconds.
const TEMPLATE_BUDGET: std::time::Duration = std::time::Duration::from_secs(5);

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

/// Each `t.a.b…` path printed or tested inside a tag of `text`: its span, the key
/// after `t.` (`rules.title`).
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
        let set = TemplateSet::builtin(any_game()).with_overrides(&overrides);
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
        let set = TemplateSet::builtin(any_game()).with_overrides(&overrides);
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
            let set = TemplateSet::builtin(any_game()).with_overrides(&overrides);
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
        let set = TemplateSet::builtin(any_game()).with_overrides(&overrides);
        let budget = std::time::Duration::from_millis(200);
        let err = set.render_within("board", &serde_json_like(), budget).unwrap_err();
        let err = err.render();
        assert!(err.contains("loop.tera"), "{err}");
        assert!(err.contains("ran for more than 0.2 s"), "{err}");
        // The next render on this thread gets a fresh worker, not the busy one.
        overrides
            .insert("board".to_string(), ("quick.tera".to_string(), "x".to_string()));
        let quick = TemplateSet::builtin(any_game()).with_overrides(&overrides);
        let rendered = quick.render_within("board", &serde_json_like(), budget);
        assert_eq!(rendered.map_err(|e| e.render()).unwrap(), "x");
    }

    #[test]
    fn renders_on_one_thread_share_a_worker_and_survive_a_panic() {
        let budget = std::time::Duration::from_secs(5);
        let thread_of = || within_budget(|| std::thread::current().id(), budget);
        let first = thread_of().unwrap();
        assert_ne!(first, std::thread::current().id(), "renders run on the worker");
        assert_eq!(thread_of().unwrap(), first, "and the worker is kept");
        assert_eq!(within_budget(|| -> u8 { panic!("a render panicked") }, budget), None);
        assert!(within_budget(|| 7, budget) == Some(7), "a new worker takes over");
    }

    #[test]
    fn a_syntax_error_is_reported() {
        let mut overrides = BTreeMap::new();
        overrides
            .insert("board".to_string(), ("b.tera".to_string(), "{% if %}".to_string()));
        let set = TemplateSet::builtin(any_game()).with_overrides(&overrides);
        let err = set.render("board", &serde_json_like()).unwrap_err();
        assert!(err.render().contains("b.tera"));
    }

    /// The templates of some registered game; which one does not matter here.
    fn any_game() -> GameId {
        GameId::all().next().expect("a registered game")
    }

    fn serde_json_like() -> BTreeMap<String, BTreeMap<String, String>> {
        BTreeMap::from([("t".to_string(), BTreeMap::new())])
    }
}
