//! The command line: arguments → validated requests → the pipeline → files and a
//! report. Exit codes: 0 success; 1 a problem in a kit, or a position or move the
//! rules refuse; 2 a usage or I/O error, or text that is not a position or move (see
//! [`EXIT_CODES`]).
//!
//! This module holds the clap types, the output macros and the dispatch; each command
//! is a module of its own (`build`, `check`, `list`, `rules`, `calibrate`, `serve`,
//! and the authoring commands in `authoring`), finding kits is `kits` and the
//! failure and its exit code are `failure`, so that every command finds kits and
//! fails alike.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::io;
use crate::preview;

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
    Build(BuildArgs),
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

/// What `build` is asked for on the command line (the command's own help is on
/// [`Command::Build`]); `build::run` checks it.
#[derive(Debug, clap::Args)]
struct BuildArgs {
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
mod build;
mod calibrate;
mod check;
mod failure;
mod kits;
mod list;
mod rules;
mod serve;

pub(crate) use self::failure::Failure;
use self::kits::sources;

/// Runs the command line with the built-in games and returns the exit code.
pub fn run() -> ExitCode {
    run_with(crate::games::Games::builtin())
}

/// Runs the command line with `games` in play (the built-in ones and any the program
/// adds, see [`crate::game::Games`]) and returns the exit code.
///
/// # Panics
/// If another set of games was installed before in this process.
pub fn run_with(games: crate::games::Games) -> ExitCode {
    assert!(crate::games::install(games), "the games in play were already installed");
    let cli = Cli::parse();
    // Every PDF is dated from it: a value no date can be is a usage error at once.
    if let Err(e) = crate::pdf::check_source_date_epoch() {
        tell!("error: {e}");
        return ExitCode::from(Failure::Other(anyhow::anyhow!(e)).code());
    }
    let kits = cli.kits.as_deref();
    let result = match cli.command {
        Command::Build(args) => build::run(kits, args),
        Command::Calibrate { name, measured, list, sheet, paper, lang, out } => {
            let settings = settings();
            let paper = paper.or(settings.paper.clone()).unwrap_or_else(|| "a4".into());
            let lang = lang.or(settings.lang.clone()).unwrap_or_else(|| "en".into());
            calibrate::run(name, measured, list, sheet, (&paper, &lang, &out))
        }
        Command::Check { kit, strict } => check::run(kits, &kit, strict),
        Command::Completions { shell } => authoring::completions(shell),
        Command::Man => authoring::man(),
        Command::Config { key, value, unset } => authoring::config(key, value, unset),
        Command::Schema { of, game } => authoring::schema(of, game.as_deref()),
        Command::New { name, from } => authoring::new_kit(kits, &name, &from),
        Command::List => list::run(kits),
        Command::Serve { port, open, listen } => serve::run(kits, port, open, listen),
        Command::Rules { query } => rules::run(query),
    };
    let Err(failure) = result else {
        return ExitCode::SUCCESS;
    };
    failure.report();
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
