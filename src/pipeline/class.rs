//! A class, not a table: how many copies of each sheet a class needs, and what the
//! whole print job adds up to. The counts come from the class size and from the
//! pages and cut lines actually laid out, never from a translation.

use crate::kit::SheetKind;

/// Every game tablekit prints is played by two.
pub const PLAYERS_PER_GAME: u32 = 2;

/// The largest class: far beyond a school class, short of a print job no printer
/// tray holds.
pub const MAX_PLAYERS: u32 = 400;

/// Who the build is for: `players` at `tables`, playing `games` games at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Class {
    /// Players in the class.
    pub players: u32,
    /// Tables they sit at (each table gets a rule card).
    pub tables: u32,
}

impl Class {
    /// The class `--players` and `--tables` describe: tables alone seat one game
    /// each; players alone sit one game to a table.
    pub fn new(
        players: Option<u32>,
        tables: Option<u32>,
    ) -> Result<Option<Class>, String> {
        let players = match (players, tables) {
            (None, None) => return Ok(None),
            (Some(p), _) => p,
            (None, Some(t)) => t.saturating_mul(PLAYERS_PER_GAME),
        };
        if !(PLAYERS_PER_GAME..=MAX_PLAYERS).contains(&players) {
            return Err(format!(
                "a class has {PLAYERS_PER_GAME} to {MAX_PLAYERS} players, not {players}"
            ));
        }
        let games = players.div_ceil(PLAYERS_PER_GAME);
        let tables = tables.unwrap_or(games);
        if tables == 0 || tables > games {
            return Err(format!(
                "{players} players play {games} games at once, so they need 1 to {games} \
                 tables, not {tables}"
            ));
        }
        Ok(Some(Class { players, tables }))
    }

    /// Games played at once: every player in one.
    pub fn games(&self) -> u32 {
        self.players.div_ceil(PLAYERS_PER_GAME)
    }

    /// Copies of a sheet the class needs: one board, set of pieces and record per
    /// game, one rule card per table, one puzzle sheet per player, and one contents
    /// sheet and host key for the facilitator.
    pub fn copies(&self, sheet: SheetKind) -> u32 {
        match sheet {
            SheetKind::Contents | SheetKind::HostKey => 1,
            SheetKind::RuleCard | SheetKind::QuickStart => self.tables,
            SheetKind::Puzzles => self.players,
            SheetKind::Board
            | SheetKind::Counters
            | SheetKind::Stones
            | SheetKind::RepetitionLog
            | SheetKind::Ledger => self.games(),
        }
    }

    /// The suffix of the folder a class build is written to (`players-24-tables-6`).
    pub fn folder_suffix(&self) -> String {
        match self.tables == self.games() {
            true => format!("players-{}", self.players),
            false => format!("players-{}-tables-{}", self.players, self.tables),
        }
    }
}

/// The order a facilitator prepares the sheets in, and so the order of the print
/// job: the facilitator's plan, then what takes longest to cut, then the board (its
/// parts to glue), then what goes on the table as printed.
pub fn preparation_rank(sheet: SheetKind) -> u8 {
    match sheet {
        SheetKind::Contents => 0,
        SheetKind::Stones | SheetKind::Counters => 1,
        SheetKind::Board => 2,
        SheetKind::Ledger | SheetKind::RepetitionLog => 3,
        SheetKind::RuleCard | SheetKind::QuickStart => 4,
        SheetKind::Puzzles => 5,
        SheetKind::HostKey => 6,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_four_players_at_six_tables_play_twelve_games() {
        let class = Class::new(Some(24), Some(6)).unwrap().unwrap();
        assert_eq!(class.games(), 12);
        assert_eq!(class.copies(SheetKind::Board), 12);
        assert_eq!(class.copies(SheetKind::RuleCard), 6);
        assert_eq!(class.copies(SheetKind::Puzzles), 24);
        assert_eq!(class.copies(SheetKind::HostKey), 1);
        assert_eq!(class.folder_suffix(), "players-24-tables-6");
    }

    #[test]
    fn an_odd_player_makes_a_game_of_their_own_and_tables_alone_seat_two_each() {
        assert_eq!(Class::new(Some(25), None).unwrap().unwrap().games(), 13);
        let tables = Class::new(None, Some(6)).unwrap().unwrap();
        assert_eq!((tables.players, tables.tables), (12, 6));
        assert_eq!(Class::new(None, None), Ok(None));
    }

    #[test]
    fn impossible_classes_are_refused_with_the_numbers() {
        assert!(Class::new(Some(1), None).unwrap_err().contains("not 1"));
        assert!(Class::new(Some(24), Some(13)).unwrap_err().contains("1 to 12 tables"));
        assert!(Class::new(Some(24), Some(0)).is_err());
        assert!(Class::new(Some(401), None).is_err());
    }
}

/// What a class build adds up to, from the pages and cut lines laid out.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// The class.
    pub class: Class,
    /// Sheets of paper for everything printed (one side each).
    pub sheets: u32,
    /// Pieces and board parts to cut out, each along its own outline.
    pub cuts: u32,
    /// Minutes to prepare one game's set (the kit's own estimate).
    pub set_minutes: u32,
    /// Of the sheets, those best printed on card.
    pub card_sheets: u32,
}

impl Plan {
    /// The plan for `files`: each sheet with its pages and the cut outlines drawn on
    /// them.
    pub fn of(
        class: Class,
        files: &[(SheetKind, usize, usize)],
        set_minutes: u32,
        card: &[SheetKind],
    ) -> Plan {
        let count = |f: &dyn Fn(&(SheetKind, usize, usize)) -> usize| -> u32 {
            files.iter().map(|file| f(file) as u32 * class.copies(file.0)).sum()
        };
        let card_sheets = count(&|f| if card.contains(&f.0) { f.1 } else { 0 });
        Plan {
            class,
            sheets: count(&|f| f.1),
            cuts: count(&|f| f.2),
            set_minutes,
            card_sheets,
        }
    }

    /// The numbers the class strings quote, as facts.
    pub fn facts(&self) -> crate::games::Facts {
        let class = &self.class;
        [
            ("players", class.players),
            ("tables", class.tables),
            ("games", class.games()),
            ("sheets", self.sheets),
            ("cuts", self.cuts),
            ("card_sheets", self.card_sheets),
            ("minutes", self.set_minutes),
            ("class_minutes", self.set_minutes * class.games()),
            // One helper a table, each preparing the sets of its games.
            ("helper_minutes", self.set_minutes * class.games().div_ceil(class.tables)),
        ]
        .into_iter()
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect()
    }
}

/// The class section of the contents sheet, in the sheet's language.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Words {
    /// `contents.class_heading` … `contents.class_print_all`, filled.
    pub heading: String,
    #[allow(missing_docs)]
    pub summary: String,
    #[allow(missing_docs)]
    pub paper: String,
    #[allow(missing_docs)]
    pub cuts: String,
    #[allow(missing_docs)]
    pub time: String,
    #[allow(missing_docs)]
    pub print_all: String,
    /// The sheets to print on card; empty when the kit names none.
    pub card: String,
    /// The print job's title.
    pub job_title: String,
}

/// The strings a class build reads besides its templates' (`check` counts them as
/// printed).
pub const STRINGS_READ: &[&str] = &[
    "contents.class_heading",
    "contents.class_summary",
    "contents.class_paper",
    "contents.class_cuts",
    "contents.class_time",
    "contents.class_print_all",
    "contents.class_job_title",
    "contents.class_card",
    "contents.class_copies",
];

/// The class strings filled from the plan, and "Print 12 copies." for each count
/// of copies the files need.
pub fn words(
    strings: &crate::kit::Strings,
    reference: &crate::kit::Strings,
    base: &crate::games::Facts,
    plan: &Plan,
    copies: &[u32],
) -> Result<(Words, std::collections::BTreeMap<u32, String>), crate::diag::Diagnostics> {
    let mut facts = base.clone();
    facts.extend(plan.facts());
    let wanted = |key: &str| STRINGS_READ.contains(&key);
    let (table, _) = strings.resolve(reference, &facts, &wanted)?;
    let text = |key: &str| {
        table
            .get("contents")
            .and_then(|c| c.get(format!("class_{key}")))
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string()
    };
    let words = Words {
        heading: text("heading"),
        summary: text("summary"),
        paper: text("paper"),
        cuts: text("cuts"),
        time: text("time"),
        print_all: text("print_all"),
        card: if plan.card_sheets > 0 { text("card") } else { String::new() },
        job_title: text("job_title"),
    };
    let per_count =
        counted(strings, reference, &facts, ("class_copies", "copies"), copies)?;
    Ok((words, per_count))
}

/// `contents.<key>` filled with each of `counts` as the fact `fact` ("Print 12
/// copies." for 12 under `class_copies`), by count: plural forms need the number.
pub fn counted(
    strings: &crate::kit::Strings,
    reference: &crate::kit::Strings,
    base: &crate::games::Facts,
    (key, fact): (&str, &str),
    counts: &[u32],
) -> Result<std::collections::BTreeMap<u32, String>, crate::diag::Diagnostics> {
    let mut facts = base.clone();
    let full_key = format!("contents.{key}");
    let mut per_count = std::collections::BTreeMap::new();
    for &count in counts {
        facts.insert(fact.to_string(), count.to_string());
        let (table, _) = strings.resolve(reference, &facts, &|k: &str| k == full_key)?;
        let filled = table
            .get("contents")
            .and_then(|c| c.get(key))
            .and_then(|v| v.as_str())
            .unwrap_or_default();
        per_count.insert(count, filled.to_string());
    }
    Ok(per_count)
}

/// The class's print job: each player sheet `copies` times, in preparation order.
/// A page with cut lines is followed by a blank page, and every copy of a file
/// starts on a fresh sheet, so the job can go through a printer on both sides
/// without a piece or a file printed on the back of another.
pub fn print_job<'p>(
    class: &Class,
    sheets: &[(SheetKind, &'p [crate::page::Page])],
    blank: &'p crate::page::Page,
) -> Vec<&'p crate::page::Page> {
    let mut order: Vec<&(SheetKind, &[crate::page::Page])> =
        sheets.iter().filter(|(sheet, _)| *sheet != SheetKind::HostKey).collect();
    order.sort_by_key(|(sheet, _)| preparation_rank(*sheet));
    let mut job = Vec::new();
    for (sheet, pages) in order {
        for _ in 0..class.copies(*sheet) {
            for page in pages.iter() {
                job.push(page);
                if crate::preview::has_cut_lines(page) {
                    job.push(blank);
                }
            }
            if job.len() % 2 == 1 {
                job.push(blank);
            }
        }
    }
    job
}
