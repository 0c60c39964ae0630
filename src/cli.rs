//! The command line: arguments → validated requests → the pipeline → files and a
//! report. Exit codes: 0 success; 1 a problem in a kit, or a position or move the
//! rules refuse; 2 a usage or I/O error, or text that is not a position or move (see
//! [`EXIT_CODES`]).

use std::collections::BTreeMap;
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::calibrate::{self, Calibration};
use crate::diag::Diagnostic;
use crate::games::GameId;
use crate::io;
use crate::kit::{self, Kit, Source};
use crate::layout::Paper;
use crate::layout::draw::CutLayout;
use crate::pipeline::class::Class;
use crate::pipeline::{self, Options};
use crate::preview::{self, Format as PreviewFormat, Previews};
use crate::rules::{Engine, RulesError};
use crate::sheet::template::TemplateSet;

/// The exit-code table, for [`EXIT_CODES`] and the top-level help.
macro_rules! exit_codes {
    () => {
        "\
  0  success
  1  a problem in a kit (every one is listed: a translation that lacks a key, two
     kits with one id, with `check --strict` a translation under 100 %, …), or a position or move the rules refuse (an illegal move, a
     position no game reaches, a `*` on a carry that flattens no wall)
  2  a usage error (an unknown command, game, kit or paper; a language, board size,
     cell or puzzle length the kit does not offer; a printer correction that leaves
     too little paper to lay a sheet out on; a kits folder that holds no kit; a malformed
     SOURCE_DATE_EPOCH), text that is not a position, move or square in the game's
     notation, or a file error (also a settings file that cannot be read, and a
     sheets folder holding files tablekit did not write, which is left as it was)
An error that cannot be written (standard error closed) still exits with its code."
    };
}

/// The `rules` command's exit codes, for `tablekit rules --help`.
macro_rules! rules_exit_codes {
    () => {
        "\
Exit codes:
  0  the answer was printed (an empty list of moves is an answer)
  1  the rules refuse a well-formed position or move: an illegal move in `apply`, a
     position no game reaches (too many pieces, a player to move who already won),
     a `*` on a carry that flattens no wall, a position `solve` finds no puzzle
  2  a malformed command: an unknown game, a missing argument, or text that is not a
     position, move or square in the game's notation (a bad row, an unknown square,
     `+3` as a move number, `*` on a placement)
An error that cannot be written (standard error closed) still exits with its code."
    };
}

/// What every exit code means, as `--help` shows it (README.md says the same).
pub const EXIT_CODES: &str = concat!("Exit codes:\n", exit_codes!());

/// tablekit: print-ready tabletop kits at exact scale.
#[derive(Debug, Parser)]
#[command(
    name = "tablekit",
    version,
    about = "Print-ready tabletop kits at exact 100% scale, with worked examples checked by \
             a rules engine",
    after_help = concat!(
        "Exit codes:\n", exit_codes!(), "\n\n",
        "Examples:\n",
        "  tablekit build                                every kit, English, A4, into output/\n",
        "  tablekit build pathstone --size 6 --lang fr   one kit at one size, in French\n",
        "  tablekit serve --open                         the web page, in your browser"
    )
)]
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
    #[command(after_help = "Examples:
  tablekit build                                      every kit, English, A4, into output/
  tablekit build crossway --paper letter --lang all   one kit in every language
  tablekit build pathstone --players 24 --tables 6    a class: copies, totals, print-all.pdf")]
    Build {
        /// Kit ids or paths to kit folders.
        kit: Vec<String>,
        /// Language code (en, fr, de, es, el, ar), or `all` for every language a kit has
        /// [default: en, or `lang` in config.toml].
        #[arg(long)]
        lang: Option<String>,
        /// Paper: a4, letter, a3, legal, a5, tabloid, or a size such as 300x400mm or
        /// 8.5x11in [default: a4, or `paper` in config.toml].
        #[arg(long)]
        paper: Option<String>,
        /// Turn the paper to landscape.
        #[arg(long)]
        landscape: bool,
        /// Cell size: millimetres, or one of the kit's presets (small, standard, large).
        #[arg(long)]
        cell: Option<String>,
        /// Board size, for games played at several sizes (default: the kit's).
        #[arg(long, conflicts_with = "all_sizes")]
        size: Option<u8>,
        /// Every board size each kit offers.
        #[arg(long)]
        all_sizes: bool,
        /// Output folder.
        #[arg(long, default_value = "output")]
        out: PathBuf,
        /// Folder of templates that override the built-in ones by name.
        #[arg(long)]
        templates: Option<PathBuf>,
        /// Correct for a printer: the 100 mm bar as it printed, in mm, across and down
        /// (`99.2x100.6`), or one number for both; every sheet is drawn to match.
        #[arg(long, value_name = "ACROSSxDOWN", conflicts_with = "printer")]
        measured: Option<String>,
        /// Correct for a printer kept with `tablekit calibrate NAME --measured …`
        /// (`none` for no correction) [default: `printer` in config.toml, else none].
        #[arg(long, value_name = "NAME")]
        printer: Option<String>,
        /// Add puzzles.pdf: this many practice puzzles (1 to 24) made and proven by the
        /// rules, answers in the host key only; 0 leaves out a kit's own [puzzles].
        #[arg(long, value_name = "COUNT")]
        puzzles: Option<i64>,
        /// Plies to the win for --puzzles: 1, 3 or 5 (a win with the first, second or
        /// third move; default 3).
        #[arg(long, requires = "puzzles")]
        plies: Option<i64>,
        /// Seed of the random games the puzzles come from (default 1): another seed,
        /// other puzzles.
        #[arg(long, requires = "puzzles", value_name = "SEED")]
        puzzle_seed: Option<u64>,
        /// Also write a picture of every page, into the variant's preview/ folder
        /// (board-1.png, board-2.png …).
        #[arg(long, value_name = "FORMAT", value_parser = ["png", "svg"])]
        preview: Option<String>,
        /// Resolution of PNG previews, in dots per inch (24 to 600).
        #[arg(long, default_value_t = preview::DEFAULT_DPI, requires = "preview",
              value_parser = clap::value_parser!(u32).range(24..=600))]
        dpi: u32,
        /// Also write a cutting-machine file (stones.cut.svg …) for every sheet with
        /// pieces or parts to cut: the cut paths and registration marks, in layers.
        #[arg(long)]
        cut_file: bool,
        /// Print registration marks on the sheets with cut lines, for print-then-cut
        /// machines (use with --cut-file).
        #[arg(long)]
        cut_marks: bool,
        /// Build for a class of this many players: copies of every sheet, totals of
        /// paper, cutting and preparation, and print-all.pdf, one print job for all.
        #[arg(long, value_name = "N")]
        players: Option<u32>,
        /// How pieces are laid out for cutting: `grid` (edge to edge, cut apart on
        /// a few long straight lines; each square token carries its piece's shape) or
        /// `outline` (each piece cut on its own outline, round pieces round).
        #[arg(long, value_name = "LAYOUT", default_value = "grid", value_parser = ["grid", "outline"])]
        cut: String,
        /// The tables the class sits at (one rule card each; default one game to a
        /// table); alone, two players to a table.
        #[arg(long, value_name = "N")]
        tables: Option<u32>,
        /// Large print: player sheets' text at 14 pt (nothing under 12 pt), drawings'
        /// labels to match, board and pieces at the kit's large cell.
        #[arg(long)]
        large_print: bool,
    },
    /// Printer calibration: print the calibration page, keep what a printer made of
    /// it under a name (for `build --printer NAME`), or list the printers kept.
    ///
    /// Profiles are kept in printers.toml in tablekit's configuration folder (the
    /// platform's usual place, or the folder TABLEKIT_CONFIG_DIR names).
    #[command(after_help = "Examples:
  tablekit calibrate --sheet --paper letter          the page to print and measure
  tablekit calibrate office --measured 99.2x100.6    keep what the office printer made of it
  tablekit build --printer office                    every sheet corrected for it")]
    Calibrate {
        /// The printer's name (lowercase letters, digits and hyphens).
        #[arg(required_unless_present_any = ["list", "sheet"])]
        name: Option<String>,
        /// The 100 mm bar of the calibration page as this printer printed it, in mm,
        /// across and down (`99.2x100.6`), or one number for both.
        #[arg(
            long,
            value_name = "ACROSSxDOWN",
            requires = "name",
            conflicts_with_all = ["sheet", "list"]
        )]
        measured: Option<String>,
        /// List the printers kept, with their measurements.
        #[arg(long, conflicts_with_all = ["name", "sheet"])]
        list: bool,
        /// Write the calibration page (calibration.pdf) to measure.
        #[arg(long, conflicts_with = "name")]
        sheet: bool,
        /// Paper of the calibration page [default: a4, or `paper` in config.toml].
        #[arg(long)]
        paper: Option<String>,
        /// Language of the calibration page [default: en, or `lang` in config.toml].
        #[arg(long)]
        lang: Option<String>,
        /// Output folder for the calibration page.
        #[arg(long, default_value = "output")]
        out: PathBuf,
    },
    /// Load and verify kits, report every problem, write nothing.
    #[command(after_help = "Examples:
  tablekit check                       every kit in kits/ (or the built-in ones)
  tablekit check ./my-roads            one kit folder
  tablekit check --strict my-roads     also fail on a translation under 100 % or a leftover string")]
    Check {
        /// Kit ids or paths to kit folders.
        kit: Vec<String>,
        /// Also fail when a translation is not complete (a missing key, or a text
        /// left as in English that `same_as_english` does not list), or when a
        /// string of lang/en.toml is printed by no sheet.
        #[arg(long)]
        strict: bool,
    },
    /// Show each kit with its languages, paper sizes, board size and sheets.
    #[command(after_help = "Examples:
  tablekit list                        the built-in kits (or those in kits/)
  tablekit list --kits ~/my-kits       the kits in another folder")]
    List,
    /// Serve a web page on this computer for building, previewing and downloading
    /// kits: open the address it prints in a browser.
    #[command(after_help = "Examples:
  tablekit serve --open                the page on http://127.0.0.1:8421/, opened for you
  tablekit serve --port 0              any free port (the address is printed)
  tablekit serve --listen 0.0.0.0      other computers too, by this one's IP address")]
    Serve {
        /// Port to listen on (0 for any free port).
        #[arg(long, default_value_t = crate::serve::DEFAULT_PORT)]
        port: u16,
        /// Open the page in the default browser.
        #[arg(long)]
        open: bool,
        /// Listen on this address instead of 127.0.0.1 (0.0.0.0 lets other computers
        /// on the network use the page; a warning says so).
        #[arg(long, value_name = "ADDR")]
        listen: Option<std::net::IpAddr>,
    },
    /// Ask the rules module directly.
    #[command(after_help = concat!(rules_exit_codes!(), "

Examples:
  tablekit rules moves three-men-slide \".../B../A.. A\"
  tablekit rules perft pathstone \"x5/x5/x5/x5/x5 1 1\" 3
  tablekit rules apply stack-top-roads \"x3/x,2,x/21,x2 1 3\" 2a1>11"))]
    Rules {
        #[command(subcommand)]
        query: RulesQuery,
    },
    /// Print a shell's completion script (bash, zsh, fish, powershell, elvish).
    #[command(after_help = "Examples:
  tablekit completions bash > ~/.local/share/bash-completion/completions/tablekit
  tablekit completions zsh > ~/.zfunc/_tablekit
  tablekit completions fish > ~/.config/fish/completions/tablekit.fish")]
    Completions {
        /// The shell to complete for.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) of tablekit and of each command.
    #[command(after_help = "Examples:
  tablekit man | man -l -                                  read it now
  tablekit man > ~/.local/share/man/man1/tablekit.1        install it for `man tablekit`")]
    Man,
    /// Show the settings (config.toml: default language, paper, printer), or set one.
    ///
    /// The file sits beside printers.toml in tablekit's configuration folder; the
    /// command line always wins over it.
    #[command(after_help = "Examples:
  tablekit config                      each setting, its value and where it comes from
  tablekit config lang fr              build in French unless --lang says otherwise
  tablekit config --unset printer      back to no printer correction")]
    Config {
        /// The setting: lang, paper, landscape or printer.
        #[arg(required_if_eq("unset", "true"))]
        key: Option<String>,
        /// Its new value (without one, the value is printed).
        #[arg(conflicts_with = "unset")]
        value: Option<String>,
        /// Remove the setting, back to the built-in default.
        #[arg(long)]
        unset: bool,
    },
    /// Print a JSON Schema of kit.toml or of a game's strings file, for an editor.
    #[command(after_help = "Examples:
  tablekit schema kit > kit.schema.json
  tablekit schema strings --game stack-top-roads > strings.schema.json")]
    Schema {
        /// Which file: `kit` (kit.toml) or `strings` (lang/<code>.toml).
        #[arg(value_enum)]
        of: authoring::SchemaOf,
        /// The game whose strings file (default: pathstone).
        #[arg(long)]
        game: Option<String>,
    },
    /// Make a new kit folder to edit, from a built-in kit (never over a folder).
    #[command(after_help = "Examples:
  tablekit new my-roads --from stack-top-roads     ./my-roads (or kits/my-roads)
  tablekit build ./my-roads                        then build it")]
    New {
        /// The new kit's id and folder name (lowercase letters, digits, hyphens).
        name: String,
        /// The kit to start from: a built-in kit's id or a kit folder.
        #[arg(long, value_name = "KIT")]
        from: String,
    },
}

#[derive(Debug, Subcommand)]
enum RulesQuery {
    /// Every legal move, one per line, sorted.
    #[command(after_help = "Examples:
  tablekit rules moves three-men-slide \".../B../A.. A\"
  tablekit rules moves stack-top-roads \"x3/x,2,x/21,x2 1 3\" --from a1")]
    Moves {
        /// The game: three-men-slide, stack-top-roads, pathstone or crossway.
        game: String,
        /// The position in the game's notation (Tak's TPS for the stacking games).
        position: String,
        /// Only the moves that take pieces from this square (slides and carries).
        #[arg(long, value_name = "SQUARE")]
        from: Option<String>,
    },
    /// The number of move sequences of exactly DEPTH moves.
    ///
    /// Counted with the game's own fast generator. Warns on standard error when the
    /// count looks larger than a billion (and goes on), and shows progress there when it
    /// is a terminal.
    #[command(after_help = "Examples:
  tablekit rules perft pathstone \"x5/x5/x5/x5/x5 1 1\" 3
  tablekit rules perft pathstone \"x5/x5/x5/x5/x5 1 1\" 3 --divide")]
    Perft {
        /// The game: three-men-slide, stack-top-roads, pathstone or crossway.
        game: String,
        /// The position in the game's notation (Tak's TPS for the stacking games).
        position: String,
        /// How many moves deep to count.
        depth: u32,
        /// Print each legal first move with its count (`a1: 24`), then `total: N`.
        #[arg(long)]
        divide: bool,
    },
    /// Play moves and print the resulting position and game state.
    #[command(after_help = "Examples:
  tablekit rules apply stack-top-roads \"x3/x,2,x/21,x2 1 3\" 2a1>11
  tablekit rules apply pathstone \"x5/x5/x5/x5/x5 1 1\" a1 e5 c3")]
    Apply {
        /// The game: three-men-slide, stack-top-roads, pathstone or crossway.
        game: String,
        /// The position in the game's notation (Tak's TPS for the stacking games).
        position: String,
        /// The moves to play, in order, in the game's notation (PTN for the stacking
        /// games).
        #[arg(num_args = 1.., required = true)]
        moves: Vec<String>,
    },
    /// Whether a position is a puzzle: prints its only winning first move and one main
    /// line to the win, or exits 1 saying why it is not one.
    ///
    /// A puzzle of PLIES plies (odd: 3 is a win with the mover's second move whatever
    /// the defence) has exactly one first move that forces the win that fast, and no
    /// faster win. Checks a puzzle of your own before you print it.
    #[command(after_help = "Examples:
  tablekit rules solve three-men-slide \".BA/.AB/.AB A\" --plies 1
  tablekit rules solve stack-top-roads \"112,1,1/x3/x,2,x 1 7\" --plies 3")]
    Solve {
        /// The game: three-men-slide, stack-top-roads, pathstone or crossway.
        game: String,
        /// The position in the game's notation (Tak's TPS for the stacking games).
        position: String,
        /// Plies to the win (odd).
        #[arg(long, default_value_t = 3)]
        plies: u32,
    },
    /// Practice puzzles proven by the rules, one a line: the position, a tab, then the
    /// only winning first move and one main line to the win.
    ///
    /// PLIES is odd: 1 is a win in one move, 3 a win with the mover's second move
    /// whatever the defence, and so on. Each puzzle is reached by play from the start,
    /// not yet won, has exactly one winning first move and no faster win. The same seed
    /// gives the same puzzles on every machine.
    #[command(after_help = "Examples:
  tablekit rules puzzles pathstone --size 4 --plies 3
  tablekit rules puzzles crossway --count 3 --plies 1 --seed 7")]
    Puzzles {
        /// The game: three-men-slide, stack-top-roads, pathstone or crossway.
        game: String,
        /// Board size (default: the game's smallest a kit offers).
        #[arg(long)]
        size: Option<u8>,
        /// How many puzzles (1 to 24, as a sheet holds).
        #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u16).range(1..=24))]
        count: u16,
        /// Plies to the win (odd).
        #[arg(long, default_value_t = 3)]
        plies: u32,
        /// Seed for the random games the puzzles come from.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// `eprintln!` that never panics: a message that cannot be written (standard error
/// closed, `2>&1 | head -0`) is dropped, and the program goes on to exit with its own
/// code.
macro_rules! tell {
    ($($arg:tt)*) => {
        $crate::cli::to_stderr(&format!("{}\n", format_args!($($arg)*)))
    };
}

/// Writes to standard error, dropping the text if it cannot be written.
pub(crate) fn to_stderr(text: &str) {
    use std::io::Write as _;
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_all(text.as_bytes()).and_then(|()| stderr.flush());
}

/// `println!` that ends the program quietly when the reader has gone away
/// (`tablekit list | head`), instead of panicking on a broken pipe; any other failed
/// write is an I/O error (exit 2).
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout(), $($arg)*) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
            tell!("error: failed to write to standard output: {e}");
            std::process::exit(2);
        }
    }};
}

mod authoring;

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
    fn code(&self) -> u8 {
        match self {
            Failure::Kit(_) | Failure::Refused(_) => 1,
            Failure::Other(_) => 2,
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

/// Runs the command line and returns the exit code.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    // Every PDF is dated from it: a value no date can be is a usage error at once.
    if let Err(e) = crate::pdf::check_source_date_epoch() {
        tell!("error: {e}");
        return ExitCode::from(Failure::Other(anyhow::anyhow!(e)).code());
    }
    let result = match cli.command {
        Command::Build {
            kit,
            lang,
            paper,
            landscape,
            size,
            all_sizes,
            cell,
            out,
            templates,
            measured,
            printer,
            puzzles,
            plies,
            puzzle_seed,
            preview,
            dpi,
            cut_file,
            cut_marks,
            players,
            large_print,
            tables,
            cut,
        } => {
            let previews = Previews {
                format: preview.as_deref().and_then(PreviewFormat::parse),
                dpi,
                cut_file,
                cut_marks,
            };
            let settings = settings();
            let lang =
                lang.or_else(|| settings.lang.clone()).unwrap_or_else(|| "en".into());
            let paper =
                paper.or_else(|| settings.paper.clone()).unwrap_or_else(|| "a4".into());
            let landscape = landscape || settings.landscape == Some(true);
            let printer = match (&measured, printer) {
                (None, None) => settings.printer.clone(),
                (_, printer) => printer,
            };
            let printer = printer.filter(|name| name != "none");
            correction(measured.as_deref(), printer.as_deref()).and_then(|calibration| {
                let puzzles = puzzle_request(puzzles, plies, puzzle_seed)?;
                let class = Class::new(players, tables)
                    .map_err(|e| anyhow::anyhow!("--players/--tables: {e}"))?;
                let request = Request {
                    lang,
                    paper,
                    landscape,
                    size,
                    all_sizes,
                    cell,
                    out,
                    templates,
                    calibration,
                    puzzles,
                    previews,
                    class,
                    cut: CutLayout::parse(&cut).unwrap_or_default(),
                    large_print,
                };
                build_cmd(cli.kits.as_deref(), &kit, &request)
            })
        }
        Command::Calibrate { name, measured, list, sheet, paper, lang, out } => {
            let settings = settings();
            let paper = paper.or(settings.paper.clone()).unwrap_or_else(|| "a4".into());
            let lang = lang.or(settings.lang.clone()).unwrap_or_else(|| "en".into());
            calibrate_cmd(name, measured, list, sheet, (&paper, &lang, &out))
        }
        Command::Check { kit, strict } => check_cmd(cli.kits.as_deref(), &kit, strict),
        Command::Completions { shell } => authoring::completions(shell),
        Command::Man => authoring::man(),
        Command::Config { key, value, unset } => authoring::config(key, value, unset),
        Command::Schema { of, game } => authoring::schema(of, game.as_deref()),
        Command::New { name, from } => {
            authoring::new_kit(cli.kits.as_deref(), &name, &from)
        }
        Command::List => list_cmd(cli.kits.as_deref()),
        Command::Serve { port, open, listen } => {
            serve_cmd(cli.kits.as_deref(), port, open, listen)
        }
        Command::Rules { query } => rules_cmd(query),
    };
    let Err(failure) = result else {
        return ExitCode::SUCCESS;
    };
    match &failure {
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
    ExitCode::from(failure.code())
}

/// The settings of config.toml, read for the commands that use them. A file that
/// cannot be read is an error that ends the program (exit 2): building with other
/// defaults than the ones set would be a surprise.
fn settings() -> crate::config::Config {
    match io::read_config() {
        Ok((_, settings)) => settings,
        Err(e) => {
            tell!("error: {e:#}");
            std::process::exit(Failure::Other(e).code().into());
        }
    }
}

/// The kits named on the command line, or all of them; at least one, each folder
/// once.
pub(crate) fn sources(
    kits_dir: Option<&Path>,
    names: &[String],
) -> Result<Vec<Source>, Failure> {
    let default_dir = Path::new("kits");
    let dir = kits_dir.unwrap_or(default_dir);
    let all = if kits_dir.is_some() || default_dir.is_dir() {
        io::read_kits_dir(dir)?
    } else {
        io::builtin_kits()
    };
    let by_id = |name: &str| {
        if all.is_empty() {
            return Failure::Other(anyhow::anyhow!(
                "unknown kit `{name}`: {}",
                no_kit_in(dir)
            ));
        }
        let known: Vec<String> = all.iter().filter_map(folder_id).collect();
        Failure::Other(anyhow::anyhow!(
            "unknown kit `{name}`: expected a kit folder or one of: {}",
            known.join(", ")
        ))
    };
    if names.is_empty() {
        if all.is_empty() {
            return Err(Failure::Other(anyhow::anyhow!("{}", no_kit_in(dir))));
        }
        return Ok(all);
    }
    let named = names
        .iter()
        .map(|name| {
            let path = Path::new(name);
            if path.join("kit.toml").is_file() {
                return Ok(io::read_kit(path)?);
            }
            all.iter()
                .find(|s| folder_id(s).as_deref() == Some(name))
                .cloned()
                .ok_or_else(|| by_id(name))
        })
        .collect::<Result<Vec<Source>, Failure>>()?;
    // A folder named twice (by id and by path) is one kit, built once.
    let mut seen = Vec::new();
    Ok(named
        .into_iter()
        .filter(|source| {
            let folder = Path::new(&source.dir);
            let key = std::fs::canonicalize(folder).unwrap_or_else(|_| folder.into());
            let new = !seen.contains(&key);
            seen.push(key);
            new
        })
        .collect())
}

/// A kit folder's name up to the first space: `three-men-slide` for
/// `kits/three-men-slide (built in)`.
fn folder_id(source: &Source) -> Option<String> {
    source.dir.rsplit('/').next().unwrap_or("").split(' ').next().map(str::to_string)
}

/// Says that `dir` holds no kit, and what to do if it is a kit itself.
fn no_kit_in(dir: &Path) -> String {
    let shown = dir.display();
    let mut message = format!(
        "no kit found in {shown}: a kits folder holds one folder per kit, each with a \
         kit.toml"
    );
    if dir.join("kit.toml").is_file() {
        let parent = dir.parent().filter(|p| !p.as_os_str().is_empty());
        let parent = parent.map_or_else(|| ".".to_string(), |p| p.display().to_string());
        message.push_str(&format!(
            "; {shown} is itself a kit folder: name it as a kit (`tablekit build \
             {shown}`), or give its parent to --kits (`--kits {parent}`)"
        ));
    }
    message
}

/// Loads and verifies kits, collecting every problem; two kits with one id are one
/// (they would be built into one folder).
fn load_all(sources: &[Source]) -> Result<Vec<Kit>, Failure> {
    use rayon::prelude::*;
    // Kits load and are checked side by side (every build waits for this); results
    // and problems keep the kits' order.
    let mut loaded = Vec::new();
    let mut diags = Vec::new();
    let results: Vec<_> = sources.par_iter().map(kit::load).collect();
    for result in results {
        match result {
            Ok(kit) => loaded.push(kit),
            Err(errors) => diags.extend(errors),
        }
    }
    diags.extend(same_ids(&loaded));
    let verified: Vec<_> = loaded
        .par_iter()
        .map(|kit| kit.game.kit().prepare(kit, kit.board.default_size).map(|_| ()))
        .collect();
    let mut kits = Vec::new();
    for (kit, verified) in loaded.into_iter().zip(verified) {
        match verified {
            Ok(()) => kits.push(kit),
            Err(errors) => diags.extend(errors),
        }
    }
    if diags.is_empty() { Ok(kits) } else { Err(Failure::Kit(diags)) }
}

/// One problem for each kit whose id an earlier kit already has, naming both folders.
fn same_ids(kits: &[Kit]) -> Vec<Diagnostic> {
    #[derive(serde::Deserialize)]
    struct IdOnly {
        id: toml::Spanned<String>,
    }
    let mut diags = Vec::new();
    for (i, kit) in kits.iter().enumerate() {
        let Some(first) = kits[..i].iter().find(|k| k.id == kit.id) else {
            continue;
        };
        let message = format!(
            "two kits have the id `{}`: {} and {}",
            kit.id,
            kit_dir(first),
            kit_dir(kit)
        );
        let span = toml::from_str::<IdOnly>(&kit.kit_source).ok().map(|k| k.id.span());
        let diag = match span {
            Some(span) => Diagnostic::at(&kit.kit_file, &kit.kit_source, span, message)
                .with_label("an id another kit has"),
            None => Diagnostic::file(&kit.kit_file, message),
        };
        diags.push(diag.with_note(
            "a build writes each kit into a folder named by its id, so these two would \
             share one: give one of them another `id`, or name only one",
        ));
    }
    diags
}

/// What `build` was asked for.
struct Request {
    lang: String,
    paper: String,
    landscape: bool,
    size: Option<u8>,
    all_sizes: bool,
    cell: Option<String>,
    out: PathBuf,
    templates: Option<PathBuf>,
    calibration: Option<Calibration>,
    /// The puzzle sheet the command line asks for: `Some(None)` for none at all.
    puzzles: Option<Option<kit::PuzzleSpec>>,
    previews: Previews,
    class: Option<Class>,
    cut: CutLayout,
    large_print: bool,
}

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
    let mut jobs = Vec::new();
    for kit in &kits {
        let templates = pipeline::templates_for(kit, &overrides);
        jobs.extend(variants_of(kit, req, &paper, &templates)?);
    }
    // Build everything in memory first, variants in parallel: a kit that fails writes
    // nothing. Results keep the order of `jobs`, so output is the same on any machine.
    let built = build_all(&jobs);
    let mut diags = Vec::new();
    let mut done = Vec::new();
    for (job, result) in jobs.iter().zip(built) {
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
        let (written, warnings, error) = written;
        if let Some(error) = error {
            failed.get_or_insert(error);
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
    }
    failed.map_or(Ok(()), |error| Err(error.into()))
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
struct Job<'k> {
    kit: &'k Kit,
    options: Options,
}

/// The variants `req` asks of `kit`, with every command-line choice checked against
/// the kit first: a language, size or cell it does not have is a usage error (exit 2)
/// naming the option.
fn variants_of<'k>(
    kit: &'k Kit,
    req: &Request,
    paper: &Paper,
    templates: &TemplateSet,
) -> Result<Vec<Job<'k>>, Failure> {
    let usage = |option: &str, message: String| {
        Failure::Other(anyhow::anyhow!("{option}: {message} (kit `{}`)", kit.id))
    };
    let langs: Vec<String> = if req.lang == "all" {
        kit.languages.keys().cloned().collect()
    } else if kit.languages.contains_key(&req.lang) {
        vec![req.lang.clone()]
    } else {
        let known: Vec<&str> = kit.languages.keys().map(String::as_str).collect();
        return Err(usage(
            "--lang",
            format!("no language `{}`; available: {}", req.lang, known.join(", ")),
        ));
    };
    let sizes: Vec<Option<u8>> = match req.size {
        _ if req.all_sizes => kit.board.sizes.clone().map(Some).collect(),
        Some(size) if !kit.board.sizes.contains(&size) => {
            return Err(usage(
                "--size",
                format!(
                    "no board size {size}; offered: {}",
                    kit::size_range(&kit.board.sizes)
                ),
            ));
        }
        size => vec![size],
    };
    // Five-ply puzzles asked on the command line, on a board too large to prove them
    // in time, are the command line's mistake, not the kit's.
    if let Some(Some(spec)) = &req.puzzles
        && spec.plies > 3
        && let Some(size) = sizes
            .iter()
            .map(|s| s.unwrap_or(kit.board.default_size))
            .find(|&s| s > kit::MAX_FIVE_PLY_SIZE)
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
        kit.cell_request(cell)
            .and_then(|mm| kit.with_cell(mm))
            .map_err(|e| usage("--cell", e))?;
    }
    let mut jobs = Vec::new();
    for lang in &langs {
        for size in &sizes {
            let options = Options {
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
            };
            jobs.push(Job { kit, options });
        }
    }
    Ok(jobs)
}

/// Builds every job on all cores, in the order given; a progress bar appears on a
/// terminal once the work has taken more than a second.
fn build_all(jobs: &[Job]) -> Vec<Result<pipeline::Built, Vec<Diagnostic>>> {
    use rayon::prelude::*;
    let started = std::time::Instant::now();
    let bar = indicatif::ProgressBar::hidden();
    bar.set_length(jobs.len() as u64);
    let shown = std::sync::atomic::AtomicBool::new(false);
    let results = jobs
        .par_iter()
        .map(|job| {
            let result = pipeline::build(job.kit, &job.options);
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

fn kit_dir(kit: &Kit) -> String {
    kit.folder().to_string()
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

/// `serve`: every kit loaded and verified first, as `build` would, then the page.
fn serve_cmd(
    kits_dir: Option<&Path>,
    port: u16,
    open: bool,
    listen: Option<std::net::IpAddr>,
) -> Result<(), Failure> {
    let kits = load_all(&sources(kits_dir, &[])?)?;
    let ip = listen.unwrap_or(std::net::Ipv4Addr::LOCALHOST.into());
    let config = crate::serve::Config { addr: (ip, port).into(), open, kits };
    crate::serve::run(config).map_err(Failure::Other)
}

/// `calibrate`: keep a printer's measurement, list the printers kept, or write the
/// calibration page.
fn calibrate_cmd(
    name: Option<String>,
    measured: Option<String>,
    list: bool,
    sheet: bool,
    (paper, lang, out): (&str, &str, &Path),
) -> Result<(), Failure> {
    if sheet {
        let paper =
            Paper::parse(paper, false).map_err(|e| anyhow::anyhow!("--paper: {e}"))?;
        let bytes = calibrate::sheet(&paper, lang)
            .map_err(|e| anyhow::anyhow!("--sheet: {e}"))?;
        let path = out.join(format!("calibration-{lang}-{}.pdf", paper.name()));
        io::write_file(&path, &bytes)?;
        say!("wrote {} (1 page)", path.display());
        return Ok(());
    }
    let (path, profiles) = io::read_profiles()?;
    if list {
        if profiles.0.is_empty() {
            say!("no printer kept yet in {}", path.display());
        }
        for (name, calibration) in &profiles.0 {
            let (across, down) = calibration.shown(false);
            let name = calibrate::shown_name(name);
            say!("{name}: {across} x {down} mm (the 100 mm bar across x down)");
        }
        return Ok(());
    }
    let name = name.expect("clap requires a name without --list or --sheet");
    calibrate::valid_name(&name).map_err(|e| anyhow::anyhow!(e))?;
    let Some(measured) = measured else {
        return Err(Failure::Other(anyhow::anyhow!(
            "calibrate {name}: give what the printer made of the 100 mm bar with \
             --measured ACROSSxDOWN (print the page from `tablekit calibrate --sheet`)"
        )));
    };
    let calibration =
        Calibration::parse(&measured).map_err(|e| anyhow::anyhow!("--measured: {e}"))?;
    let (_, text) = io::read_profiles_text()?;
    let kept = calibrate::Profiles::keep(&text, &name, calibration)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    io::write_config_file(&path, &kept)?;
    let (sx, sy) = calibration.scale();
    say!(
        "kept printer `{name}` in {}: sheets built with --printer {name} are drawn at \
         {:.2} % across and {:.2} % down",
        path.display(),
        sx * 100.0,
        sy * 100.0
    );
    Ok(())
}

fn check_cmd(
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
    // Everything `build` does but writing: every language and size, on A4 and Letter,
    // so a kit that passes `check` builds. A kit whose strings can make a puzzle sheet
    // is also built once per language with a small one (unless it has its own), and
    // every kit with a printer correction, so that those strings are checked too; a
    // kit with no puzzle strings is never asked for them.
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
    // Every language on `paper`, at the default size or every size.
    let every_language = |paper: &Paper, all_sizes: bool| Request {
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
    };
    let a4 = Paper::a4();
    let mut jobs = Vec::new();
    for kit in &with_extras {
        let calibration = Some(Calibration::new(99.5, 100.5).expect("in range"));
        let req = Request { calibration, ..every_language(&a4, false) };
        jobs.extend(variants_of(kit, &req, &a4, &templates[kit.id.as_str()])?);
    }
    for kit in &kits {
        for paper in [a4.clone(), Paper::parse("letter", false).expect("a named paper")] {
            let req = every_language(&paper, true);
            jobs.extend(variants_of(kit, &req, &paper, &templates[kit.id.as_str()])?);
        }
        // Large print for a class: the strings only those builds print.
        let class = Class::new(Some(24), Some(6)).expect("in range");
        let req = Request { class, large_print: true, ..every_language(&a4, false) };
        jobs.extend(variants_of(kit, &req, &a4, &templates[kit.id.as_str()])?);
    }
    let mut built = Vec::new();
    let mut read: BTreeMap<&str, std::collections::BTreeSet<String>> = BTreeMap::new();
    for (job, result) in jobs.iter().zip(build_all(&jobs)) {
        match result {
            Ok(done) => read.entry(&job.kit.id).or_default().extend(done.strings_read),
            Err(errors) => built.extend(errors),
        }
    }
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
    // A key whose English text is itself broken (a misspelt placeholder) is reported
    // once, in the English file, not as a difference in every translation.
    let broken_in_english: std::collections::HashSet<(String, String)> = built
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
    problems.extend(built);
    // The same problem in every language or size is reported once.
    let mut seen = std::collections::HashSet::new();
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

/// Each string of the kit's own English file that no sheet of any build `check`
/// made printed or read (nor the web page): a leftover, told at its key.
fn unprinted_strings(
    kit: &Kit,
    read: Option<&std::collections::BTreeSet<String>>,
) -> Vec<Diagnostic> {
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

fn list_cmd(kits_dir: Option<&Path>) -> Result<(), Failure> {
    let sources = sources(kits_dir, &[])?;
    let kits = sources
        .iter()
        .map(kit::load)
        .collect::<Result<Vec<_>, _>>()
        .map_err(Failure::Kit)?;
    let papers = Paper::names();
    for kit in &kits {
        // Every build writes the contents sheet first and the host key last.
        let mut sheets = vec!["contents"];
        sheets.extend(kit.sheets.iter().map(|s| s.name()));
        if kit.puzzle_sheet().is_some() {
            sheets.push("puzzles");
        }
        sheets.push("host-key");
        say!("{}", kit.id);
        say!("  game:      {}", kit.game);
        say!("  languages: {}", completeness(kit).join(", "));
        say!("  paper:     {}, or WxHmm or WxHin; --landscape", papers.join(", "));
        say!("  board:     {}", board_size(kit));
        say!("  sheets:    {}", sheets.join(", "));
    }
    Ok(())
}

/// Each language with how much of the English it really translates: `en`,
/// `fr 100%`, `de 97% (2 missing)`, `pt 0% (160 as in English)`. A text left as in
/// English is not translated unless `same_as_english` says it is so on purpose.
fn completeness(kit: &Kit) -> Vec<String> {
    let reference = &kit.languages[crate::kit::strings::REFERENCE_LANGUAGE];
    kit.languages
        .values()
        .map(|strings| {
            if strings.lang == reference.lang {
                return strings.lang.clone();
            }
            let (done, total) = strings.translated(reference);
            let copied = strings.copied_from(reference).len();
            let missing = total - done - copied;
            // Rounded down: 99.6 % is not yet 100 %.
            let percent = done * 100 / total.max(1);
            let mut gaps = Vec::new();
            if missing > 0 {
                gaps.push(format!("{missing} missing"));
            }
            if copied > 0 {
                gaps.push(format!("{copied} as in English"));
            }
            match gaps.is_empty() {
                true => format!("{} {percent}%", strings.lang),
                false => format!("{} {percent}% ({})", strings.lang, gaps.join(", ")),
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

/// The deepest perft the command accepts.
const MAX_PERFT_DEPTH: u32 = 64;

fn rules_cmd(query: RulesQuery) -> Result<(), Failure> {
    let game_id = match &query {
        RulesQuery::Moves { game, .. }
        | RulesQuery::Perft { game, .. }
        | RulesQuery::Apply { game, .. }
        | RulesQuery::Puzzles { game, .. }
        | RulesQuery::Solve { game, .. } => game.clone(),
    };
    let game = GameId::parse(&game_id).ok_or_else(|| {
        anyhow::anyhow!(
            "unknown game `{game_id}`: expected one of {}",
            GameId::names().join(", ")
        )
    })?;
    let engine = game.kit().engine();
    match query {
        RulesQuery::Puzzles { size, count, plies, seed, .. } => {
            let size = size.unwrap_or_else(|| game.kit().puzzle_size());
            let count = usize::from(count);
            let request = crate::puzzles::Request::new(size, count, plies, seed);
            let puzzles = crate::puzzles::generate_with(game, &request)
                .map_err(|e| Failure::Other(anyhow::anyhow!("{e}")))?;
            if puzzles.len() < count {
                tell!(
                    "note: found {} of {count} puzzles within the search budget",
                    puzzles.len()
                );
            }
            for puzzle in puzzles {
                say!("{}", puzzle.line());
            }
        }
        RulesQuery::Solve { position, plies, .. } => {
            if plies.is_multiple_of(2) || plies > crate::puzzles::MAX_PLIES {
                return Err(Failure::Other(anyhow::anyhow!(
                    "--plies {plies}: a puzzle is an odd number of plies from 1 to {}",
                    crate::puzzles::MAX_PLIES
                )));
            }
            let budget = crate::puzzles::DEFAULT_NODE_BUDGET;
            match engine.solve(&position, plies, budget)? {
                Some(line) => say!("{}", line.join(" ")),
                None => {
                    return Err(Failure::Refused(anyhow::anyhow!(
                        "not a puzzle of {plies} {}: the player to move has no forced \
                         win that fast, more than one winning first move, or a faster win",
                        if plies == 1 { "ply" } else { "plies" }
                    )));
                }
            }
        }
        RulesQuery::Moves { position, from: None, .. } => {
            for mv in engine.moves(&position)? {
                say!("{mv}");
            }
        }
        RulesQuery::Moves { position, from: Some(square), .. } => {
            for mv in engine.moves_from(&position, &square)? {
                say!("{mv}");
            }
        }
        RulesQuery::Perft { position, depth, divide, .. } => {
            // Deeper counts are out of reach anyway, and a game without an end in
            // sight (Tak carries never run out) would recurse until the stack fails.
            if depth > MAX_PERFT_DEPTH {
                return Err(Failure::Other(anyhow::anyhow!(
                    "perft depth {depth} is out of reach: at most {MAX_PERFT_DEPTH}"
                )));
            }
            perft_cmd(engine.as_ref(), &position, depth, divide)?;
        }
        RulesQuery::Apply { position, moves, .. } => {
            let replay = engine.replay(&position, &moves)?;
            if let Some((index, why)) = &replay.illegal {
                return Err(Failure::Refused(anyhow::anyhow!(
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

/// A perft count above this many sequences gets a warning before it starts.
const LARGE_PERFT: f64 = 1e9;
/// The estimate counts shallower depths until one reaches this many sequences…
const SAMPLE_PERFT: u64 = 50_000;
/// … or this depth.
const MAX_SAMPLE_DEPTH: u32 = 16;

/// `rules perft`: warns when the count looks large, shows progress over the first
/// moves on a terminal, and prints the total (with `--divide`, each first move's count
/// too, as it is found).
fn perft_cmd(
    engine: &dyn Engine,
    position: &str,
    depth: u32,
    divide: bool,
) -> Result<(), Failure> {
    if let Some((estimate, from_depth)) = perft_estimate(engine, position, depth)?
        && estimate > LARGE_PERFT
    {
        let about = if estimate.is_finite() {
            format!("about {estimate:.1e}")
        } else {
            format!("more than {:.0e}", f64::MAX)
        };
        tell!(
            "warning: perft to depth {depth} will count {about} move sequences \
             (extrapolated from the count to depth {from_depth}); Ctrl-C stops it"
        );
    }
    let progress = std::io::stderr().is_terminal();
    let clear = || {
        if progress {
            to_stderr("\r\x1b[2K");
        }
    };
    let mut each = |done: usize, of: usize, mv: &str, count: u64| {
        if divide {
            clear();
            // Counts are found in the order they are printed.
            say!("{mv}: {count}");
        }
        if progress && done < of {
            to_stderr(&format!("\rperft: {done}/{of} first moves counted"));
        }
    };
    let divided = engine.perft_divide(position, depth, &mut each)?;
    clear();
    if divide {
        say!("total: {}", divided.total);
    } else {
        say!("{}", divided.total);
    }
    Ok(())
}

/// About how many sequences perft to `depth` counts, and from which depth that is
/// extrapolated: the counts to depth 1, 2, … (cheap, with the game's own perft) until
/// one reaches [`SAMPLE_PERFT`], then the last growth from one depth to the next,
/// assumed to hold. `None` when there is nothing shallower to go by.
fn perft_estimate(
    engine: &dyn Engine,
    position: &str,
    depth: u32,
) -> Result<Option<(f64, u32)>, RulesError> {
    let mut previous = 1;
    for sampled in 1..depth {
        let count = engine.perft(position, sampled)?;
        if count == 0 {
            return Ok(Some((0.0, sampled)));
        }
        if count >= SAMPLE_PERFT || sampled + 1 == depth || sampled == MAX_SAMPLE_DEPTH {
            #[allow(clippy::cast_precision_loss)] // an estimate
            let (count, growth) = (count as f64, count as f64 / previous as f64);
            let estimate = count * growth.powf(f64::from(depth - sampled));
            return Ok(Some((estimate, sampled)));
        }
        previous = count;
    }
    Ok(None)
}
