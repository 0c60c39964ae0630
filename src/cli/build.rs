//! `build`: the command line's choices checked into a [`Request`], each kit's
//! examples verified once, every variant built in memory, then written folder by
//! folder and reported. `check` builds through the same [`variants_of`], [`jobs_of`] and
//! [`build_all`], so a kit that passes it builds.

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};

use super::kits::{load_all, sources, verify_each};
use super::{BuildArgs, Failure, settings};
use crate::calibrate::{self, Calibration};
use crate::diag::Diagnostic;
use crate::io;
use crate::kit::{self, Kit};
use crate::layout::Paper;
use crate::layout::cut::CutLayout;
use crate::pipeline::class::Class;
use crate::pipeline::{self, Options, Verified};
use crate::preview::{Format as PreviewFormat, Previews};
use crate::sheet::template::TemplateSet;
use crate::text::Shaper;

/// `build`: what the command line leaves out comes from the settings; every option
/// is checked before any kit is loaded.
pub(super) fn run(kits_dir: Option<&Path>, args: BuildArgs) -> Result<(), Failure> {
    let previews = Previews {
        format: args.preview.as_deref().and_then(PreviewFormat::parse),
        dpi: args.dpi,
        cut_file: args.cut_file,
        cut_marks: args.cut_marks,
    };
    let settings = settings();
    let lang = args.lang.or_else(|| settings.lang.clone()).unwrap_or_else(|| "en".into());
    let paper =
        args.paper.or_else(|| settings.paper.clone()).unwrap_or_else(|| "a4".into());
    let landscape = args.landscape || settings.landscape == Some(true);
    let printer = match (&args.measured, args.printer) {
        (None, None) => settings.printer.clone(),
        (_, printer) => printer,
    };
    let printer = printer.filter(|name| name != "none");
    let calibration = correction(args.measured.as_deref(), printer.as_deref())?;
    let puzzles = puzzle_request(args.puzzles, args.plies, args.puzzle_seed)?;
    let class = Class::new(args.players, args.tables)
        .map_err(|e| anyhow::anyhow!("--players/--tables: {e}"))?;
    let request = Request {
        lang,
        paper,
        landscape,
        size: args.size,
        all_sizes: args.all_sizes,
        cell: args.cell,
        out: args.out,
        templates: args.templates,
        calibration,
        puzzles,
        previews,
        class,
        cut: CutLayout::parse(&args.cut).unwrap_or_default(),
        large_print: args.large_print,
    };
    build_cmd(kits_dir, &args.kit, &request)
}

/// What `build` was asked for.
pub(super) struct Request {
    pub(super) lang: String,
    pub(super) paper: String,
    pub(super) landscape: bool,
    pub(super) size: Option<u8>,
    pub(super) all_sizes: bool,
    pub(super) cell: Option<String>,
    pub(super) out: PathBuf,
    pub(super) templates: Option<PathBuf>,
    pub(super) calibration: Option<Calibration>,
    /// The puzzle sheet the command line asks for: `Some(None)` for none at all.
    pub(super) puzzles: Option<Option<kit::PuzzleSpec>>,
    pub(super) previews: Previews,
    pub(super) class: Option<Class>,
    pub(super) cut: CutLayout,
    pub(super) large_print: bool,
}

/// Builds the variants `req` asks of the named kits and writes them under
/// `req.out`, telling each file written.
fn build_cmd(
    kits_dir: Option<&Path>,
    names: &[String],
    req: &Request,
) -> Result<(), Failure> {
    let out = req.out.as_path();
    let paper = Paper::parse(&req.paper, req.landscape)
        .map_err(|e| anyhow::anyhow!("--paper: {e}"))?;
    if let Some(calibration) = &req.calibration {
        calibration
            .printable(&paper)
            .map_err(|e| anyhow::anyhow!("--measured/--printer on {paper}: {e}"))?;
    }
    let overrides = match &req.templates {
        Some(dir) => io::read_templates(dir)?,
        None => Default::default(),
    };
    let mut kits = load_all(&sources(kits_dir, names)?)?;
    if let Some(spec) = &req.puzzles {
        kits = kits.iter().map(|kit| kit.with_puzzle_sheet(spec.clone())).collect();
    }
    let mut asked = Vec::new();
    for kit in &kits {
        let templates = pipeline::templates_for(kit, &overrides);
        asked.push(variants_of(kit, req, &paper, &templates)?);
    }
    // Each kit's examples are replayed once, for all its variants; a kit whose claims
    // fail builds nothing, and the others are still built for their problems.
    let mut problems = Vec::new();
    let mut jobs_to_do = Vec::new();
    for ((kit, variants), verified) in kits.iter().zip(asked).zip(verify_each(&kits)) {
        match verified {
            Ok(verified) => jobs_to_do.push((kit, verified, variants)),
            Err(errors) => problems.extend(errors),
        }
    }
    let jobs: Vec<Job> = (jobs_to_do.iter())
        .flat_map(|(kit, verified, variants)| jobs_of(kit, verified, variants))
        .collect();
    let done = build_or_fail(&jobs, problems)?;
    // Each variant's folders are written whole or not at all (`io::write_all`), so
    // variants can be written side by side; what is said about them keeps the order,
    // every file written is told, and the first failure is the error.
    let written: Vec<_> = {
        use rayon::prelude::*;
        done.par_iter()
            .map(|(job, built)| write_variant(out, job, req.puzzles.as_ref(), built))
            .collect()
    };
    let mut failed = None;
    for ((job, built), written) in done.iter().zip(written) {
        if let Some(error) = report_variant(job, built, written) {
            failed.get_or_insert(error);
        }
    }
    failed.map_or(Ok(()), |error| Err(error.into()))
}

/// Builds everything in memory first, variants in parallel: a kit that fails writes
/// nothing, and neither does any if `diags` (the kits' problems found before) has
/// any. Results keep the order of `jobs`, so output is the same on any machine.
fn build_or_fail<'j, 'k>(
    jobs: &'j [Job<'k>],
    mut diags: Vec<Diagnostic>,
) -> Result<Vec<(&'j Job<'k>, pipeline::Built)>, Failure> {
    let mut done = Vec::new();
    for (job, result) in jobs.iter().zip(build_all(jobs)) {
        match result {
            Ok(built) => done.push((job, built)),
            Err(errors) => diags.extend(errors),
        }
    }
    if !diags.is_empty() {
        // A template's mistake is the same in every language and size: told once.
        let mut seen = std::collections::HashSet::new();
        diags.retain(|d| seen.insert(d.render()));
        return Err(Failure::Kit(diags));
    }
    Ok(done)
}

/// Tells what was written of one variant (files, page pictures by folder) with its
/// notes and warnings, and returns its error, if any.
fn report_variant(
    job: &Job,
    built: &pipeline::Built,
    (written, warnings, error): (Vec<Written>, Vec<String>, Option<anyhow::Error>),
) -> Option<anyhow::Error> {
    let (kit, options) = (job.kit, &job.options);
    let lang = options.lang.as_str();
    for note in &built.notes {
        tell!("note: {} [{lang}]: {note}", kit.id);
    }
    if !built.fell_back.is_empty() {
        tell!(
            "note: {} [{lang}] used English for {} missing string(s): {}",
            kit.id,
            built.fell_back.len(),
            built.fell_back.join(", ")
        );
    }
    let mut pictures: Vec<&PathBuf> = Vec::new();
    for file in &written {
        match file.pages {
            Some(pages) => {
                let s = if pages == 1 { "" } else { "s" };
                say!("wrote {} ({pages} page{s})", file.path.display());
            }
            None if file.picture => pictures.push(&file.path),
            None => say!("wrote {}", file.path.display()),
        }
    }
    if let Some(first) = pictures.first().and_then(|p| p.parent()) {
        say!("wrote {} page pictures in {}", pictures.len(), first.display());
    }
    for warning in warnings {
        tell!("warning: {warning}");
    }
    error
}

/// A file a build wrote, as the report tells it.
struct Written {
    path: PathBuf,
    /// A PDF's pages; `None` for a picture or a cut file.
    pages: Option<usize>,
    /// A page picture (reported by folder, not one by one).
    picture: bool,
}

/// Writes a variant: the players' folder (every sheet but the host key, and the
/// class's print job), then the host's folder beside it (`en-a4-host/`), each whole
/// or not at all. Returns what was written, what could not be cleaned up, and the
/// first error.
fn write_variant(
    out: &Path,
    job: &Job,
    puzzles: Option<&Option<kit::PuzzleSpec>>,
    built: &pipeline::Built,
) -> (Vec<Written>, Vec<String>, Option<anyhow::Error>) {
    let name = pipeline::variant_name(job.kit, &job.options, puzzles);
    let kit_dir = out.join(&job.kit.id);
    let mut written = Vec::new();
    let mut warnings = Vec::new();
    let host_folder = format!("{name}{}", pipeline::HOST_FOLDER_SUFFIX);
    for (folder, host) in [(name, false), (host_folder, true)] {
        let mut files: Vec<(&str, &[u8], Option<usize>)> = Vec::new();
        let outputs =
            built.outputs.iter().filter(|o| (o.sheet == kit::SheetKind::HostKey) == host);
        for output in outputs {
            files.push((&output.file_name, &output.bytes, Some(output.pages)));
            files.extend(
                output.extras.iter().map(|(n, b)| (n.as_str(), b.as_slice(), None)),
            );
        }
        if let (false, Some((pages, bytes))) = (host, &built.print_all) {
            files.push((pipeline::PRINT_ALL_FILE, bytes, Some(*pages)));
        }
        let list: Vec<(&str, &[u8])> = files.iter().map(|(n, b, _)| (*n, *b)).collect();
        match io::write_all(&kit_dir.join(&folder), &list) {
            Ok(replaced) => {
                warnings.extend(replaced.left_over);
                written.extend(replaced.paths.into_iter().zip(&files).map(
                    |(path, file)| Written {
                        path,
                        pages: file.2,
                        picture: file.0.starts_with("preview/"),
                    },
                ))
            }
            Err(error) => return (written, warnings, Some(error)),
        }
    }
    (written, warnings, None)
}

/// One variant to build: a kit in one language, paper and size.
pub(super) struct Job<'k> {
    pub(super) kit: &'k Kit,
    /// The kit's examples, verified once for all its variants.
    pub(super) verified: &'k Verified,
    pub(super) options: Options,
}

/// `kit`'s `variants` as jobs, all drawn from its examples verified once.
pub(super) fn jobs_of<'k>(
    kit: &'k Kit,
    verified: &'k Verified,
    variants: &[Options],
) -> Vec<Job<'k>> {
    let job = |options: &Options| Job { kit, verified, options: options.clone() };
    variants.iter().map(job).collect()
}

/// The variants `req` asks of `kit`, with every command-line choice checked against
/// the kit first: a language, size or cell it does not have is a usage error (exit 2)
/// naming the option.
pub(super) fn variants_of(
    kit: &Kit,
    req: &Request,
    paper: &Paper,
    templates: &TemplateSet,
) -> Result<Vec<Options>, Failure> {
    let usage = |option: &str, message: String| {
        Failure::Other(anyhow::anyhow!("{option}: {message} (kit `{}`)", kit.id))
    };
    // The options are checked by the kit's own rules, as the pipeline checks them, but
    // told as the command line's mistakes.
    let langs: Vec<String> = match req.lang.as_str() {
        "all" => kit.languages.keys().cloned().collect(),
        lang => {
            kit.language(lang).map_err(|e| usage("--lang", e))?;
            vec![lang.to_string()]
        }
    };
    let sizes: Vec<Option<u8>> = match req.size {
        _ if req.all_sizes => kit.board.sizes.clone().map(Some).collect(),
        Some(size) => {
            kit.board_size(Some(size)).map_err(|e| usage("--size", e))?;
            vec![Some(size)]
        }
        None => vec![None],
    };
    // Five-ply puzzles asked on the command line, on a board too large to prove them
    // in time, are the command line's mistake, not the kit's.
    if let Some(Some(spec)) = &req.puzzles
        && let Some(size) = sizes
            .iter()
            .map(|s| s.unwrap_or(kit.board.default_size))
            .find(|&s| !spec.fits_board(s))
    {
        let most = kit::MAX_FIVE_PLY_SIZE;
        return Err(usage(
            "--plies",
            format!(
                "{}-ply puzzles are made on boards up to {most}×{most}, and this build is \
                 {size}×{size}: ask for --plies 3, or --size {most} or smaller",
                spec.plies
            ),
        ));
    }
    if let Some(cell) = &req.cell {
        kit.at_cell(cell).map_err(|e| usage("--cell", e))?;
    }
    let mut variants = Vec::new();
    for lang in &langs {
        for size in &sizes {
            variants.push(Options {
                lang: lang.clone(),
                paper: paper.clone(),
                size: *size,
                cell: req.cell.clone(),
                templates: templates.clone(),
                calibration: req.calibration,
                previews: req.previews,
                class: req.class,
                cut: req.cut,
                large_print: req.large_print,
            });
        }
    }
    Ok(variants)
}

/// Builds every job on all cores, in the order given; a progress bar appears on a
/// terminal once the work has taken more than a second.
pub(super) fn build_all(jobs: &[Job]) -> Vec<Result<pipeline::Built, Vec<Diagnostic>>> {
    use rayon::prelude::*;
    let started = std::time::Instant::now();
    let bar = indicatif::ProgressBar::hidden();
    bar.set_length(jobs.len() as u64);
    let shown = std::sync::atomic::AtomicBool::new(false);
    // One shaper for each run of jobs a worker thread takes: variants of a build
    // share most of their words and numbers, and a shaper per variant would shape
    // them again (measured in the README's Performance section).
    let results = jobs
        .par_iter()
        .map_init(Shaper::new, |shaper, job| {
            let result =
                pipeline::build_shaped(job.kit, job.verified, &job.options, shaper);
            bar.inc(1);
            let late = started.elapsed() > std::time::Duration::from_secs(1);
            if late
                && std::io::stderr().is_terminal()
                && !shown.swap(true, std::sync::atomic::Ordering::Relaxed)
            {
                bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            }
            result
        })
        .collect();
    bar.finish_and_clear();
    results
}

/// The printer correction `build` asks for: a measurement, a kept printer, or none.
fn correction(
    measured: Option<&str>,
    printer: Option<&str>,
) -> Result<Option<Calibration>, Failure> {
    if let Some(measured) = measured {
        let calibration = Calibration::parse(measured)
            .map_err(|e| anyhow::anyhow!("--measured: {e}"))?;
        return Ok(Some(calibration));
    }
    let Some(name) = printer else { return Ok(None) };
    let (path, profiles) = io::read_profiles()?;
    match profiles.0.get(name) {
        Some(calibration) => Ok(Some(*calibration)),
        None => {
            let shown: Vec<String> =
                profiles.0.keys().take(10).map(|n| calibrate::shown_name(n)).collect();
            let more = profiles.0.len().saturating_sub(shown.len());
            let known = match (shown.is_empty(), more) {
                (true, _) => "none is kept yet".to_string(),
                (false, 0) => format!("kept: {}", shown.join(", ")),
                (false, more) => format!("kept: {} and {more} more", shown.join(", ")),
            };
            Err(Failure::Other(anyhow::anyhow!(
                "--printer: no printer `{}` in {} ({known}); keep one with `tablekit \
                 calibrate NAME --measured ACROSSxDOWN`",
                calibrate::shown_name(name),
                path.display()
            )))
        }
    }
}

/// The puzzle sheet `--puzzles`, `--plies` and `--puzzle-seed` ask for, checked:
/// `None` leaves each kit's own, `Some(None)` (`--puzzles 0`) turns it off.
fn puzzle_request(
    count: Option<i64>,
    plies: Option<i64>,
    seed: Option<u64>,
) -> Result<Option<Option<kit::PuzzleSpec>>, Failure> {
    let Some(count) = count else { return Ok(None) };
    if count == 0 {
        return Ok(Some(None));
    }
    let plies = plies.unwrap_or(3);
    kit::PuzzleSpec::new(count, 1, 1, 0..0)
        .map_err(|e| anyhow::anyhow!("--puzzles: {e}"))?;
    let spec = kit::PuzzleSpec::new(count, plies, seed.unwrap_or(1), 0..0)
        .map_err(|e| anyhow::anyhow!("--plies: {e}"))?;
    Ok(Some(Some(spec)))
}
