//! The command line: arguments → validated requests → the pipeline → files and a
//! report. Exit codes: 0 success, 1 a kit or rules problem, 2 usage or I/O.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::diag::Diagnostic;
use crate::games::GameId;
use crate::io;
use crate::kit::{self, Kit, Source};
use crate::layout::Paper;
use crate::pipeline::{self, Options};
use crate::rules::RulesError;
use crate::sheet::template::TemplateSet;

/// tablekit: print-ready tabletop kits at exact scale.
#[derive(Debug, Parser)]
#[command(name = "tablekit", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Folder of kits (default: `kits` in the current folder, else the built-in kits).
    #[arg(long, global = true)]
    kits: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Build PDFs for kits (all of them if none is named).
    Build {
        /// Kit ids or paths to kit folders.
        kit: Vec<String>,
        /// Language code (en, fr, de, es, el, ar), or `all` for every language a kit has.
        #[arg(long, default_value = "en")]
        lang: String,
        /// Paper: a4, letter, a3, legal, or a size such as 300x400mm.
        #[arg(long, default_value = "a4")]
        paper: String,
        /// Turn the paper to landscape.
        #[arg(long)]
        landscape: bool,
        /// Cell size: millimetres, or one of the kit's presets (small, standard, large).
        #[arg(long)]
        cell: Option<String>,
        /// Board size, for games played at several sizes (default: the kit's).
        #[arg(long)]
        size: Option<u8>,
        /// Output folder.
        #[arg(long, default_value = "output")]
        out: PathBuf,
        /// Folder of templates that override the built-in ones by name.
        #[arg(long)]
        templates: Option<PathBuf>,
    },
    /// Load and verify kits, report every problem, write nothing.
    Check {
        /// Kit ids or paths to kit folders.
        kit: Vec<String>,
    },
    /// Show each kit with its languages, paper sizes, board size and sheets.
    List,
    /// Ask the rules module directly.
    Rules {
        #[command(subcommand)]
        query: RulesQuery,
    },
}

#[derive(Debug, Subcommand)]
enum RulesQuery {
    /// Every legal move, one per line, sorted.
    Moves { game: String, position: String },
    /// The number of move sequences of exactly DEPTH moves.
    Perft { game: String, position: String, depth: u32 },
    /// Play moves and print the resulting position and game state.
    Apply {
        game: String,
        position: String,
        #[arg(num_args = 1.., required = true)]
        moves: Vec<String>,
    },
}

/// `println!` that ends the program quietly when the reader has gone away
/// (`tablekit list | head`), instead of panicking on a broken pipe.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout(), $($arg)*) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
            panic!("failed to write to standard output: {e}");
        }
    }};
}

/// A failure: either kit diagnostics (exit 1) or a usage / I/O error (exit 2).
enum Failure {
    Kit(Vec<Diagnostic>),
    Other(anyhow::Error),
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Self {
        Failure::Other(e)
    }
}

/// Runs the command line and returns the exit code.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Build { kit, lang, paper, landscape, size, cell, out, templates } => {
            let request = Request { lang, paper, landscape, size, cell, out, templates };
            build_cmd(cli.kits.as_deref(), &kit, &request)
        }
        Command::Check { kit } => check_cmd(cli.kits.as_deref(), &kit),
        Command::List => list_cmd(cli.kits.as_deref()),
        Command::Rules { query } => rules_cmd(query),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Kit(diags)) => {
            for d in &diags {
                eprint!("{}", d.render());
            }
            eprintln!(
                "{} problem{} found",
                diags.len(),
                if diags.len() == 1 { "" } else { "s" }
            );
            ExitCode::from(1)
        }
        Err(Failure::Other(e)) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// The kits named on the command line, or all of them.
fn sources(kits_dir: Option<&Path>, names: &[String]) -> Result<Vec<Source>, Failure> {
    let default_dir = Path::new("kits");
    let dir = kits_dir.unwrap_or(default_dir);
    let all = if kits_dir.is_some() || default_dir.is_dir() {
        io::read_kits_dir(dir)?
    } else {
        io::builtin_kits()
    };
    if names.is_empty() {
        return Ok(all);
    }
    names
        .iter()
        .map(|name| {
            let path = Path::new(name);
            if path.join("kit.toml").is_file() {
                return Ok(io::read_kit(path)?);
            }
            let id = |s: &Source| {
                s.dir
                    .rsplit('/')
                    .next()
                    .unwrap_or("")
                    .split(' ')
                    .next()
                    .map(str::to_string)
            };
            all.iter().find(|s| id(s).as_deref() == Some(name)).cloned().ok_or_else(
                || {
                    let known: Vec<String> = all.iter().filter_map(id).collect();
                    Failure::Other(anyhow::anyhow!(
                        "unknown kit `{name}`: expected a kit folder or one of: {}",
                        known.join(", ")
                    ))
                },
            )
        })
        .collect()
}

/// Loads and verifies kits, collecting every problem.
fn load_all(sources: &[Source]) -> Result<Vec<Kit>, Failure> {
    let mut kits = Vec::new();
    let mut diags = Vec::new();
    for source in sources {
        match kit::load(source) {
            Ok(kit) => {
                let verified =
                    kit.game.kit().prepare(&kit, kit.board.default_size).map(|_| ());
                match verified {
                    Ok(()) => kits.push(kit),
                    Err(errors) => diags.extend(errors),
                }
            }
            Err(errors) => diags.extend(errors),
        }
    }
    if diags.is_empty() { Ok(kits) } else { Err(Failure::Kit(diags)) }
}

/// What `build` was asked for.
struct Request {
    lang: String,
    paper: String,
    landscape: bool,
    size: Option<u8>,
    cell: Option<String>,
    out: PathBuf,
    templates: Option<PathBuf>,
}

fn build_cmd(
    kits_dir: Option<&Path>,
    names: &[String],
    req: &Request,
) -> Result<(), Failure> {
    let out = req.out.as_path();
    let paper =
        Paper::parse(&req.paper, req.landscape).map_err(|e| anyhow::anyhow!(e))?;
    let overrides = match &req.templates {
        Some(dir) => io::read_templates(dir)?,
        None => Default::default(),
    };
    let kits = load_all(&sources(kits_dir, names)?)?;
    // Build everything in memory first: a kit that fails writes nothing.
    let mut variants = Vec::new();
    let mut diags = Vec::new();
    for kit in &kits {
        let kit_templates = kit
            .templates
            .iter()
            .map(|(name, text)| {
                (
                    name.clone(),
                    (format!("{}/templates/{name}.tera", kit_dir(kit)), text.clone()),
                )
            })
            .collect();
        // `all`: every language this kit has.
        let langs: Vec<String> = if req.lang == "all" {
            kit.languages.keys().cloned().collect()
        } else {
            vec![req.lang.clone()]
        };
        for lang in langs {
            let options = Options {
                lang,
                paper: paper.clone(),
                size: req.size,
                cell: req.cell.clone(),
                templates: TemplateSet::builtin(kit.game)
                    .with_overrides(&overrides)
                    .with_overrides(&kit_templates),
            };
            match pipeline::build(kit, &options) {
                Ok(built) => variants.push((kit, built, options)),
                Err(errors) => diags.extend(errors),
            }
        }
    }
    if !diags.is_empty() {
        return Err(Failure::Kit(diags));
    }
    for (kit, built, options) in variants {
        let (lang, size) = (options.lang.as_str(), options.size);
        if !built.fell_back.is_empty() {
            eprintln!(
                "note: {} [{lang}] used English for {} missing string(s): {}",
                kit.id,
                built.fell_back.len(),
                built.fell_back.join(", ")
            );
        }
        let dir = out.join(&kit.id).join(variant_name(kit, lang, &options.paper, size));
        let files: Vec<(String, Vec<u8>)> = built
            .outputs
            .iter()
            .map(|o| (o.file_name.clone(), o.bytes.clone()))
            .collect();
        let written = io::write_all(&dir, &files)?;
        for (path, output) in written.iter().zip(&built.outputs) {
            let s = if output.pages == 1 { "" } else { "s" };
            say!("wrote {} ({} page{s})", path.display(), output.pages);
        }
    }
    Ok(())
}

/// `en-a4`, with the board size added for games played at several sizes (`en-a4-5`).
fn variant_name(kit: &Kit, lang: &str, paper: &Paper, size: Option<u8>) -> String {
    let sizes = &kit.board.sizes;
    if sizes.start() == sizes.end() {
        format!("{lang}-{}", paper.name())
    } else {
        format!("{lang}-{}-{}", paper.name(), size.unwrap_or(kit.board.default_size))
    }
}

fn kit_dir(kit: &Kit) -> String {
    kit.kit_file.trim_end_matches("/kit.toml").to_string()
}

fn check_cmd(kits_dir: Option<&Path>, names: &[String]) -> Result<(), Failure> {
    let kits = load_all(&sources(kits_dir, names)?)?;
    let problems: Vec<Diagnostic> =
        kits.iter().flat_map(Kit::translation_problems).collect();
    if !problems.is_empty() {
        return Err(Failure::Kit(problems));
    }
    for kit in &kits {
        let langs: Vec<&str> = kit.languages.keys().map(String::as_str).collect();
        say!(
            "ok {} ({} example{} verified; languages: {})",
            kit.id,
            kit.examples.len(),
            if kit.examples.len() == 1 { "" } else { "s" },
            langs.join(", ")
        );
    }
    Ok(())
}

fn list_cmd(kits_dir: Option<&Path>) -> Result<(), Failure> {
    let sources = sources(kits_dir, &[])?;
    let kits = sources
        .iter()
        .map(kit::load)
        .collect::<Result<Vec<_>, _>>()
        .map_err(Failure::Kit)?;
    let papers = Paper::names();
    for kit in &kits {
        let mut sheets: Vec<&str> = kit.sheets.iter().map(|s| s.name()).collect();
        sheets.push("host-key");
        say!("{}", kit.id);
        say!("  game:      {}", kit.game);
        say!("  languages: {}", completeness(kit).join(", "));
        say!("  paper:     {}, or WxHmm; --landscape", papers.join(", "));
        say!("  board:     {}", board_size(kit));
        say!("  sheets:    {}", sheets.join(", "));
    }
    Ok(())
}

/// Each language with how much of the English it translates: `en`, `fr 100%`,
/// `de 97% (2 missing)`.
fn completeness(kit: &Kit) -> Vec<String> {
    let reference = &kit.languages[crate::kit::strings::REFERENCE_LANGUAGE];
    let total = reference.entries.len().max(1);
    kit.languages
        .values()
        .map(|strings| {
            if strings.lang == reference.lang {
                return strings.lang.clone();
            }
            let missing = reference
                .entries
                .keys()
                .filter(|k| !strings.entries.contains_key(*k))
                .count();
            let percent = (total - missing) * 100 / total;
            match missing {
                0 => format!("{} 100%", strings.lang),
                n => format!("{} {percent}% ({n} missing)", strings.lang),
            }
        })
        .collect()
}

fn board_size(kit: &Kit) -> String {
    let sizes = crate::kit::size_range(&kit.board.sizes);
    let (dx, dy) = (kit.board.spacing_mm, kit.board.row_spacing_mm);
    if kit.game.kit().plays_in_cells() {
        if kit.board.sizes.start() == kit.board.sizes.end() {
            return format!("{sizes} cells of {dx} mm");
        }
        return format!(
            "{sizes} cells of {dx} mm (default {0}×{0})",
            kit.board.default_size
        );
    }
    match dy {
        Some(dy) => format!(
            "{sizes} points, {dx} × {dy} mm apart (default {0}×{0})",
            kit.board.default_size
        ),
        None => format!("{sizes} points, {dx} mm apart"),
    }
}

fn rules_cmd(query: RulesQuery) -> Result<(), Failure> {
    let game_id = match &query {
        RulesQuery::Moves { game, .. }
        | RulesQuery::Perft { game, .. }
        | RulesQuery::Apply { game, .. } => game.clone(),
    };
    let game = GameId::parse(&game_id).ok_or_else(|| {
        anyhow::anyhow!(
            "unknown game `{game_id}`: expected one of {}",
            GameId::names().join(", ")
        )
    })?;
    let engine = game.kit().engine();
    let invalid = |e: RulesError| Failure::Other(anyhow::anyhow!("{e}"));
    match query {
        RulesQuery::Moves { position, .. } => {
            for mv in engine.moves(&position).map_err(invalid)? {
                say!("{mv}");
            }
        }
        RulesQuery::Perft { position, depth, .. } => {
            say!("{}", engine.perft(&position, depth).map_err(invalid)?);
        }
        RulesQuery::Apply { position, moves, .. } => {
            let replay = engine.replay(&position, &moves).map_err(invalid)?;
            if let Some((index, why)) = &replay.illegal {
                return Err(Failure::Other(anyhow::anyhow!(
                    "move {} `{}` is illegal: {why}",
                    index + 1,
                    moves[*index]
                )));
            }
            say!("{}", replay.positions.last().expect("the start position"));
            say!("{}", replay.outcome);
        }
    }
    Ok(())
}
