//! The built-in kits as the command lists them, and what each game's sheets are
//! expected to show: the one place a shared test learns about a game.
//!
//! Cross-kit tests iterate [`kits`], read from `tablekit list` (the registry's view:
//! every kit the binary builds), so a new game gets every shared check without a test
//! file naming it. What the listing cannot say (the line width of a board, how its
//! pieces are marked, how many a set holds) each game states once in [`EXPECTED`];
//! `every_listed_kit_has_its_expectations_written_down` fails until a new game does.

use std::ops::RangeInclusive;
use std::sync::OnceLock;

/// A built-in kit, as `tablekit list` shows it.
#[derive(Debug)]
pub struct Kit {
    /// The kit's id (its folder under `kits/`), as `build` takes it.
    pub id: String,
    /// The game it plays (`game = "…"`).
    pub game: String,
    /// Its languages, sorted as listed.
    pub languages: Vec<String>,
    /// The board sizes it can be built at, and the one built when none is asked for.
    pub sizes: RangeInclusive<u8>,
    pub default_size: u8,
    /// Distance between neighbouring columns and rows of the board, in mm.
    pub pitch_mm: (f64, f64),
    /// The sheets a build writes, in the order listed.
    pub sheets: Vec<String>,
}

impl Kit {
    /// Whether builds are told apart by board size (`en-a4-9` rather than `en-a4`).
    pub fn several_sizes(&self) -> bool {
        self.sizes.start() != self.sizes.end()
    }

    /// The players' folder a build in `lang` on `paper` at `size` writes.
    pub fn variant(&self, lang: &str, paper: &str, size: u8) -> String {
        match self.several_sizes() {
            true => format!("{lang}-{paper}-{size}"),
            false => format!("{lang}-{paper}"),
        }
    }

    /// The folder suffix of a build at the default size (`-9`, or nothing).
    pub fn default_suffix(&self) -> String {
        match self.several_sizes() {
            true => format!("-{}", self.default_size),
            false => String::new(),
        }
    }

    /// The sheet that holds the pieces to cut out (`stones`, `counters`).
    pub fn pieces_sheet(&self) -> &str {
        let sheets = ["stones", "counters"];
        self.sheets.iter().find(|s| sheets.contains(&s.as_str())).expect("a pieces sheet")
    }

    /// The sheet players record a game on (`ledger`, `repetition-log`).
    pub fn record_sheet(&self) -> &str {
        let sheets = ["ledger", "repetition-log"];
        self.sheets.iter().find(|s| sheets.contains(&s.as_str())).expect("a record sheet")
    }

    /// What the tests expect of this kit's game.
    pub fn expected(&self) -> &'static Expected {
        expected(&self.game)
    }

    /// The board sizes the shared tests build: the smallest, the default, the largest
    /// and any the game adds, in order.
    pub fn sizes_built(&self) -> Vec<u8> {
        let mut sizes = vec![*self.sizes.start(), self.default_size, *self.sizes.end()];
        sizes.extend(self.expected().more_sizes);
        sizes.sort();
        sizes.dedup();
        sizes
    }
}

/// How a pieces sheet tells the players' pieces apart.
#[derive(Debug)]
pub enum Marks {
    /// A letter on each piece, one per player (`A`/`B`, `W`/`B`).
    Letters(&'static str, &'static str),
    /// Plain discs, counted together for both players.
    Discs,
}

/// How `rules solve` takes a position read from a diagram's alternative text.
#[derive(Debug)]
pub enum Notation {
    /// Stacks in cells, bottom to top, as TPS (`x3/x,12,x/x3 1 2`).
    Stacks,
    /// One piece a point, each marked by its player's name; the side to move by the
    /// name's first letter (`..V/.H./... V`).
    PointsMoverInitial,
    /// One piece a point, marked by its player's name; the side to move by its name.
    PointsMoverName,
}

/// How a diagram's alternative text spells out a position, in English.
#[derive(Debug)]
pub enum Spelled {
    /// Square by square from a1, each stack bottom to top with its colours (`W`,
    /// `B`) and its top piece's kind (`a1: W, B wall (bottom to top)`).
    Stacks,
    /// Player by player, each with the points their pieces stand on (`V on b2,
    /// c3`); `capitals`: points named `A1` rather than `a1`.
    Points { players: [char; 2], capitals: bool },
}

/// What a game's sheets show that `tablekit list` does not say.
#[derive(Debug)]
pub struct Expected {
    /// The game, as `kit.toml` names it.
    pub game: &'static str,
    /// Board sizes worth building besides the smallest, the default and the largest.
    pub more_sizes: &'static [u8],
    /// Width of the board's grid lines, in mm.
    pub line_width_mm: f64,
    /// Diameter (or width) of a piece at the kit's own cell size, in mm.
    pub piece_mm: f64,
    /// How the pieces sheet marks each player's pieces.
    pub marks: Marks,
    /// Pieces per player on the pieces sheet at the default size, spares included
    /// (for [`Marks::Discs`], both players' together and 0).
    pub pieces_each: (usize, usize),
    /// Puzzle sheets whose every puzzle is proved from its page: board size and the
    /// plies of the answer (`rules solve` reads the position in the game's notation).
    pub puzzles_proved: &'static [(u8, &'static str)],
    /// The strings table and key of the heading of the record sheet's first column.
    pub record_heading: (&'static str, &'static str),
    /// How the puzzles' positions are written for `rules solve`.
    pub notation: Notation,
    /// How a diagram's alternative text spells out its position.
    pub spelled: Spelled,
}

/// Every game's expectations, one entry each.
pub const EXPECTED: &[Expected] = &[
    Expected {
        game: "three-men-slide",
        more_sizes: &[],
        line_width_mm: 1.4,
        piece_mm: 30.0,
        marks: Marks::Letters("A", "B"),
        pieces_each: (4, 4),
        puzzles_proved: &[(3, "3")],
        record_heading: ("log", "col_turn"),
        notation: Notation::PointsMoverName,
        spelled: Spelled::Points { players: ['A', 'B'], capitals: true },
    },
    Expected {
        game: "stack-top-roads",
        more_sizes: &[],
        line_width_mm: 0.4,
        piece_mm: 30.0,
        marks: Marks::Letters("W", "B"),
        pieces_each: (9, 9),
        puzzles_proved: &[(3, "3")],
        record_heading: ("ledger", "col_turn"),
        notation: Notation::Stacks,
        spelled: Spelled::Stacks,
    },
    Expected {
        game: "pathstone",
        // Every size: 4×4 is the one without Crowns.
        more_sizes: &[4, 6, 7],
        line_width_mm: 0.4,
        piece_mm: 24.0,
        marks: Marks::Letters("W", "B"),
        // 5×5: 21 stones and a spare, and one Crown and a spare, each.
        pieces_each: (24, 24),
        puzzles_proved: &[(4, "3"), (6, "1")],
        record_heading: ("ledger", "col_move"),
        notation: Notation::Stacks,
        spelled: Spelled::Stacks,
    },
    Expected {
        game: "crossway",
        more_sizes: &[13],
        line_width_mm: 0.35,
        piece_mm: 20.0,
        marks: Marks::Discs,
        // 9×9: V 41 and H 40, two spares each; discs of both colours.
        pieces_each: (85, 0),
        puzzles_proved: &[(5, "3"), (9, "1")],
        record_heading: ("ledger", "col_move"),
        notation: Notation::PointsMoverInitial,
        spelled: Spelled::Points { players: ['V', 'H'], capitals: false },
    },
    // The fifth game, a test fixture outside the library (tests/fixtures/fifth-game).
    Expected {
        game: "three-in-a-row",
        more_sizes: &[],
        line_width_mm: 0.35,
        piece_mm: 28.0,
        marks: Marks::Letters("X", "O"),
        // Five counters (X places the fifth) and a spare, each.
        pieces_each: (6, 6),
        puzzles_proved: &[(3, "3")],
        record_heading: ("ledger", "col_turn"),
        notation: Notation::PointsMoverName,
        spelled: Spelled::Points { players: ['X', 'O'], capitals: true },
    },
];

/// The expectations of `game`.
pub fn expected(game: &str) -> &'static Expected {
    EXPECTED.iter().find(|e| e.game == game).unwrap_or_else(|| {
        panic!(
            "tests/support/games.rs says nothing of the game `{game}`: add its \
             expectations to EXPECTED (see docs/adding-a-game.md)"
        )
    })
}

/// Every built-in kit of the program the shared tests run, in the order `tablekit
/// list` shows them: the shipped kits and the fifth game's (see
/// [`crate::support::fixture`]).
pub fn kits() -> &'static [Kit] {
    static KITS: OnceLock<Vec<Kit>> = OnceLock::new();
    KITS.get_or_init(|| {
        let run = crate::support::fixture(&["list"]).output().expect("the fixture runs");
        assert!(run.status.success(), "{}", crate::cli::stderr(&run));
        let kits = parse_list(&crate::cli::stdout(&run));
        assert!(!kits.is_empty(), "`tablekit list` lists no kit");
        kits
    })
}

/// The built-in kit `id`.
pub fn kit(id: &str) -> &'static Kit {
    kits().iter().find(|k| k.id == id).unwrap_or_else(|| panic!("no built-in kit `{id}`"))
}

/// The ids of every built-in kit.
pub fn ids() -> Vec<&'static str> {
    kits().iter().map(|k| k.id.as_str()).collect()
}

/// Every language some built-in kit is written in, sorted.
pub fn languages() -> Vec<&'static str> {
    let mut all: Vec<&str> =
        kits().iter().flat_map(|k| k.languages.iter().map(String::as_str)).collect();
    all.sort();
    all.dedup();
    all
}

/// Reads `tablekit list`: a line with the kit's id, then indented `key: value` lines.
fn parse_list(text: &str) -> Vec<Kit> {
    let mut kits = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(id) = lines.next() {
        let mut field = std::collections::BTreeMap::new();
        while let Some(line) = lines.next_if(|l| l.starts_with(' ')) {
            let (key, value) = line.trim().split_once(':').expect("a `key: value` line");
            field.insert(key.to_string(), value.trim().to_string());
        }
        let get = |key: &str| -> &str {
            field.get(key).unwrap_or_else(|| panic!("{id}: no `{key}:` in the listing"))
        };
        let (sizes, default_size, pitch_mm) = parse_board(get("board"));
        kits.push(Kit {
            id: id.to_string(),
            game: get("game").to_string(),
            languages: get("languages")
                .split(", ")
                .map(|l| l.split(' ').next().unwrap().to_string())
                .collect(),
            sizes,
            default_size,
            pitch_mm,
            sheets: get("sheets").split(", ").map(str::to_string).collect(),
        });
    }
    kits
}

/// Reads a listing's board line: `5×5 to 19×19 points, 22 × 23.7 mm apart (default
/// 9×9)`, `3×3 cells of 45 mm`.
fn parse_board(text: &str) -> (RangeInclusive<u8>, u8, (f64, f64)) {
    let sizes: Vec<u8> = text
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '×')
        .filter_map(|w| w.split_once('×'))
        .filter(|(n, _)| !n.is_empty())
        .map(|(n, _)| n.parse().expect("a board size"))
        .collect();
    let ranged = text.contains(" to ");
    let range = match ranged {
        true => sizes[0]..=sizes[1],
        false => sizes[0]..=sizes[0],
    };
    let default = match text.contains("(default") {
        true => *sizes.last().unwrap(),
        false => sizes[0],
    };
    // The pitch: the number (or `columns × rows`) just before `mm`.
    let before = text.split(" mm").next().unwrap();
    let numbers: Vec<f64> = before
        .rsplit(|c: char| c.is_alphabetic() || c == ',')
        .next()
        .unwrap()
        .split('×')
        .map(|n| n.trim().parse().expect("a pitch in mm"))
        .collect();
    let pitch = (numbers[0], *numbers.last().unwrap());
    (range, default, pitch)
}

#[test]
fn the_listing_is_read_as_the_command_prints_it() {
    let (sizes, default, pitch) =
        parse_board("5×5 to 19×19 points, 22 × 23.7 mm apart (default 9×9)");
    assert_eq!((sizes, default, pitch), (5..=19, 9, (22.0, 23.7)));
    let (sizes, default, pitch) = parse_board("3×3 to 8×8 cells of 32 mm (default 5×5)");
    assert_eq!((sizes, default, pitch), (3..=8, 5, (32.0, 32.0)));
    assert_eq!(parse_board("3×3 cells of 45 mm"), (3..=3, 3, (45.0, 45.0)));
    assert_eq!(parse_board("3×3 points, 50 mm apart"), (3..=3, 3, (50.0, 50.0)));
}

#[test]
fn every_listed_kit_has_its_expectations_written_down() {
    let on_disk: Vec<String> = crate::support::shipped_kits()
        .iter()
        .map(|source| {
            let dir = std::path::Path::new(&source.dir);
            dir.file_name().unwrap().to_string_lossy().into_owned()
        })
        .collect();
    let with_fixture = [on_disk, vec![crate::support::FIXTURE_KIT.to_string()]].concat();
    assert_eq!(
        ids(),
        with_fixture,
        "the fixture's listing, kits/ and the fifth game disagree"
    );
    for kit in kits() {
        let expected = kit.expected();
        assert!(kit.languages.iter().any(|l| l == "en"), "{}: no English", kit.id);
        for size in expected.more_sizes {
            assert!(kit.sizes.contains(size), "{}: no size {size}", kit.id);
        }
        kit.pieces_sheet();
        kit.record_sheet();
    }
}

/// The ids of the kits the shipped command carries: every kit but the fixture's.
pub fn shipped_ids() -> Vec<&'static str> {
    ids().into_iter().filter(|id| *id != crate::support::FIXTURE_KIT).collect()
}

#[test]
fn the_shipped_command_carries_the_shipped_kits_and_not_the_fixture() {
    // Away from the project's kits/, so that it lists the kits built into it.
    let away = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("shipped");
    std::fs::create_dir_all(&away).unwrap();
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_tablekit"))
        .current_dir(&away)
        .env("TABLEKIT_CONFIG_DIR", concat!(env!("CARGO_TARGET_TMPDIR"), "/no-settings"))
        .arg("list")
        .output()
        .expect("tablekit runs");
    assert!(run.status.success(), "{}", crate::cli::stderr(&run));
    let listed = parse_list(&crate::cli::stdout(&run));
    let shipped: Vec<&str> = listed.iter().map(|k| k.id.as_str()).collect();
    assert_eq!(shipped, shipped_ids(), "the shipped command carries kits/ alone");
}
