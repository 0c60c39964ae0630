//! `check`: everything `build` does but writing, over every language, size and
//! paper a kit offers, so that a kit that passes builds; and the problems only an
//! author needs told (translations, strings no sheet prints, typography).

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Path, PathBuf};

use super::Failure;
use super::build::{Job, Request, build_all, jobs_of, variants_of};
use super::kits::{load_all, sources, verify_each};
use super::list::completeness;
use super::to_stderr;
use crate::calibrate::Calibration;
use crate::diag::Diagnostic;
use crate::kit::{self, Kit};
use crate::layout::Paper;
use crate::pipeline::{self, Verified, class::Class};
use crate::preview::Previews;
use crate::sheet::template::TemplateSet;

/// The strings each kit's builds read, by kit id.
type StringsRead = BTreeMap<String, BTreeSet<String>>;

/// `check`: loads and verifies the kits, builds every variant in memory, and
/// reports every problem found (exit 1), or one line per kit.
pub(super) fn run(
    kits_dir: Option<&Path>,
    names: &[String],
    strict: bool,
) -> Result<(), Failure> {
    let kits = load_all(&sources(kits_dir, names)?)?;
    let mut problems: Vec<Diagnostic> =
        kits.iter().flat_map(Kit::translation_problems).collect();
    if strict {
        problems.extend(kits.iter().flat_map(untranslated));
    }
    let (mut built, read) = build_every_variant(&kits)?;
    // Strings no sheet prints harm no sheet: told as leftovers to tidy, and a
    // failure only under --strict.
    let mut leftovers: Vec<Diagnostic> = match built.is_empty() {
        true => kits
            .iter()
            .flat_map(|k| unprinted_strings(k, read.get(k.id.as_str())))
            .collect(),
        false => Vec::new(),
    };
    // So are plain spaces where the language's typography keeps one from breaking.
    leftovers.extend(kits.iter().flat_map(Kit::typography_problems));
    if strict {
        built.extend(leftovers);
    } else {
        for leftover in &leftovers {
            to_stderr(&leftover.render_warning());
        }
    }
    drop_broken_in_english(&mut problems, &built);
    problems.extend(built);
    // The same problem in every language or size is reported once.
    let mut seen = HashSet::new();
    problems.retain(|d| seen.insert(d.render()));
    if !problems.is_empty() {
        return Err(Failure::Kit(problems));
    }
    for kit in &kits {
        say!(
            "ok {} ({} example{} verified; every sheet built in {} on A4 and Letter)",
            kit.id,
            kit.examples.len(),
            if kit.examples.len() == 1 { "" } else { "s" },
            completeness(kit).join(", ")
        );
    }
    Ok(())
}

/// Builds, in memory, every variant [`check_jobs`] lists; returns the problems the
/// builds found and the strings they read.
fn build_every_variant(kits: &[Kit]) -> Result<(Vec<Diagnostic>, StringsRead), Failure> {
    // A kit whose strings can make a puzzle sheet is also built once per language
    // with a small one (unless it has its own), so that those strings are checked
    // too; a kit with no puzzle strings is never asked for them.
    let small_sheet = kit::PuzzleSpec::new(2, 1, 1, 0..0).expect("in range");
    let with_extras: Vec<Kit> = kits
        .iter()
        .map(|kit| match kit.puzzle_sheet() {
            None if kit.has_strings_for("puzzles") => {
                kit.with_puzzle_sheet(Some(small_sheet.clone()))
            }
            _ => kit.clone(),
        })
        .collect();
    // One set of templates per kit for the whole command: a template stopped once is
    // not run again in any variant, and all share one time budget.
    let templates: BTreeMap<&str, TemplateSet> = kits
        .iter()
        .map(|kit| (kit.id.as_str(), pipeline::templates_for(kit, &BTreeMap::new())))
        .collect();
    // Each kit's examples are replayed once, for every variant of it and of its copy
    // with a puzzle sheet.
    let verified = verify_each(kits);
    let mut built: Vec<Diagnostic> =
        verified.iter().filter_map(|v| v.as_ref().err()).flatten().cloned().collect();
    let jobs = check_jobs((kits, &with_extras), &verified, &templates)?;
    let mut read = StringsRead::new();
    for (job, result) in jobs.iter().zip(build_all(&jobs)) {
        match result {
            Ok(done) => {
                read.entry(job.kit.id.clone()).or_default().extend(done.strings_read)
            }
            Err(errors) => built.extend(errors),
        }
    }
    Ok((built, read))
}

/// Everything `build` does but writing: every language and size, on A4 and Letter,
/// so a kit that passes `check` builds. Each kit is also built with a printer
/// correction (and `with_extras`, its puzzle sheet) and in large print for a class,
/// so that the strings only those builds print are checked too.
fn check_jobs<'k>(
    (kits, with_extras): (&'k [Kit], &'k [Kit]),
    verified: &'k [Result<Verified, Vec<Diagnostic>>],
    templates: &BTreeMap<&str, TemplateSet>,
) -> Result<Vec<Job<'k>>, Failure> {
    let a4 = Paper::a4();
    let mut jobs = Vec::new();
    // A kit whose examples fail is told so once, and not built.
    let verified_only = |kits: &'k [Kit]| {
        kits.iter().zip(verified).filter_map(|(kit, v)| Some((kit, v.as_ref().ok()?)))
    };
    for (kit, verified) in verified_only(with_extras) {
        let calibration = Some(Calibration::new(99.5, 100.5).expect("in range"));
        let req = Request { calibration, ..every_language(&a4, false) };
        let templates = &templates[kit.id.as_str()];
        jobs.extend(jobs_of(kit, verified, &variants_of(kit, &req, &a4, templates)?));
    }
    for (kit, verified) in verified_only(kits) {
        let templates = &templates[kit.id.as_str()];
        for paper in [a4.clone(), Paper::parse("letter", false).expect("a named paper")] {
            let req = every_language(&paper, true);
            let variants = variants_of(kit, &req, &paper, templates)?;
            jobs.extend(jobs_of(kit, verified, &variants));
        }
        // Large print for a class: the strings only those builds print.
        let class = Class::new(Some(24), Some(6)).expect("in range");
        let req = Request { class, large_print: true, ..every_language(&a4, false) };
        jobs.extend(jobs_of(kit, verified, &variants_of(kit, &req, &a4, templates)?));
    }
    Ok(jobs)
}

/// Every language on `paper`, at the default size or every size.
fn every_language(paper: &Paper, all_sizes: bool) -> Request {
    Request {
        lang: "all".into(),
        paper: paper.name().into(),
        landscape: false,
        size: None,
        all_sizes,
        cell: None,
        out: PathBuf::new(),
        templates: None,
        calibration: None,
        previews: Previews::default(),
        puzzles: None,
        class: None,
        cut: Default::default(),
        large_print: false,
    }
}

/// A key whose English text is itself broken (a misspelt placeholder) is reported
/// once, in the English file, not as a difference in every translation: drops from
/// `problems` each difference at a key that `built` finds broken in English.
fn drop_broken_in_english(problems: &mut Vec<Diagnostic>, built: &[Diagnostic]) {
    let broken_in_english: HashSet<(String, String)> = built
        .iter()
        .filter(|d| {
            d.file.ends_with(&format!("lang/{}.toml", kit::strings::REFERENCE_LANGUAGE))
        })
        .filter_map(|d| {
            Some((d.file.rsplit_once("/lang/")?.0.to_string(), d.key.clone()?))
        })
        .collect();
    problems.retain(|d| {
        let place = d.file.rsplit_once("/lang/").map(|(dir, _)| dir.to_string());
        match (place, &d.key) {
            (Some(dir), Some(key)) => !broken_in_english.contains(&(dir, key.clone())),
            _ => true,
        }
    });
}

/// Each string of the kit's own English file that no sheet of any build `check`
/// made printed or read (nor the web page): a leftover, told at its key.
fn unprinted_strings(kit: &Kit, read: Option<&BTreeSet<String>>) -> Vec<Diagnostic> {
    let Some(read) = read else { return Vec::new() };
    let reference = &kit.languages[crate::kit::strings::REFERENCE_LANGUAGE];
    // A key is read itself, or as part of a table read whole (`rules.items` covers
    // `rules.items.first`), or by a beginning that ends in `*`.
    let covers = |read: &str, key: &str| match read.strip_suffix('*') {
        Some(start) => key.starts_with(start),
        None => key.strip_prefix(read).is_some_and(|rest| rest.starts_with('.')),
    };
    let covered = |key: &str| {
        crate::serve::catalog::KIT_KEYS.contains(&key)
            || read.contains(key)
            || read.iter().any(|r| covers(r, key))
    };
    reference
        .entries
        .keys()
        .filter(|key| !reference.from_game.contains(*key) && !covered(key))
        .map(|key| {
            reference.diagnostic(
                key,
                format!(
                    "`{key}` is printed by no sheet: remove it (and its translations), or \
                     print it from a template"
                ),
            )
        })
        .collect()
}

/// `check --strict`: a translation that leaves English words in place, one problem
/// per file, naming the first keys.
fn untranslated(kit: &Kit) -> Vec<Diagnostic> {
    let reference = &kit.languages[crate::kit::strings::REFERENCE_LANGUAGE];
    kit.languages
        .values()
        .filter(|strings| strings.lang != reference.lang)
        .filter_map(|strings| {
            let copied = strings.copied_from(reference);
            let (done, total) = strings.translated(reference);
            if done == total {
                return None;
            }
            let missing = total - done - copied.len();
            let first: Vec<&str> = copied.iter().copied().take(5).collect();
            let mut diagnostic = Diagnostic::file(
                &strings.file,
                format!(
                    "`{}` is {}% translated: of {total} strings, {} {} English's own text \
                     and {missing} {} missing",
                    strings.lang,
                    done * 100 / total.max(1),
                    copied.len(),
                    if copied.len() == 1 { "is" } else { "are" },
                    if missing == 1 { "is" } else { "are" },
                ),
            );
            if !first.is_empty() {
                diagnostic = diagnostic
                    .with_note(format!("left in English: {}", first.join(", ")))
                    .with_note(format!(
                        "a text that is the same in English on purpose (a name, a move) \
                         goes in the file's top-level `{}` list",
                        crate::kit::strings::SAME_AS_ENGLISH
                    ));
            }
            Some(diagnostic)
        })
        .collect()
}
