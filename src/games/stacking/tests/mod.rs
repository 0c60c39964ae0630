//! The engine against the seeds' examples and the rules' corner cases.

use super::*;
use crate::rules::{Engine, perft};
use proptest::prelude::*;

/// The seed's worked example: a1 holds B under W, White to move.
const WORKED: &str = "x3/x,2,x/21,x2 1 3";

fn roads() -> StackGame {
    StackGame { variant: Variant::stack_top_roads() }
}

fn pathstone(size: u8) -> StackGame {
    StackGame { variant: Variant::pathstone(size).expect("a Pathstone size") }
}

fn state(game: &StackGame, text: &str) -> State {
    game.parse_state(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn mv(game: &StackGame, s: &State, text: &str) -> Move {
    game.parse_move(s, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn play_all(game: &StackGame, start: &State, moves: &[&str]) -> State {
    moves.iter().fold(start.clone(), |s, text| {
        let m = mv(game, &s, text);
        game.play(&s, &m).unwrap_or_else(|e| panic!("{text} at\n{s:?}\n{e}"))
    })
}

fn play_err(game: &StackGame, s: &State, text: &str) -> String {
    game.play(s, &mv(game, s, text)).expect_err(text).0
}

fn sq(text: &str) -> Square {
    Square::parse(text, MAX_SIZE).unwrap()
}

fn tops(s: &State, squares: &[&str]) -> String {
    let top = |text: &&str| s.stack(sq(text)).last().map_or('.', |p| p.color.letter());
    squares.iter().map(top).collect()
}

fn win(winner: &str, reason: &str, cells: &[&str]) -> Outcome {
    Outcome::Win {
        winner: winner.to_string(),
        reason: reason.to_string(),
        cells: cells.iter().map(ToString::to_string).collect(),
    }
}

fn draw(reason: &str) -> Outcome {
    Outcome::Draw { reason: reason.to_string() }
}

#[test]
fn variants_carry_the_rules_parameters() {
    let roads = Variant::stack_top_roads();
    assert_eq!((roads.size, roads.stones, roads.crowns, roads.carry_limit), (3, 8, 0, 3));
    assert_eq!(
        (roads.walls, roads.opening_swap, roads.turn_limit),
        (false, false, Some(40))
    );
    let reserves: Vec<(u32, u32)> = PATHSTONE_SIZES
        .map(|n| Variant::pathstone(n).map(|v| (v.stones, v.crowns)).unwrap())
        .collect();
    assert_eq!(reserves, [(10, 0), (15, 0), (21, 1), (30, 1), (40, 2), (50, 2)]);
    let six = Variant::pathstone(6).unwrap();
    assert_eq!((six.id.as_str(), six.carry_limit, six.walls), ("pathstone-6", 6, true));
    assert!(six.opening_swap && six.turn_limit.is_none());
    assert_eq!(Variant::pathstone(2), None);
    assert_eq!(Variant::pathstone(9), None);
    assert_eq!(Variant::from_id("pathstone-8"), Variant::pathstone(8));
    assert_eq!(Variant::from_id("stack-top-roads"), Some(roads));
    assert_eq!(Variant::from_id("pathstone-08"), None);
    assert_eq!(Variant::all().len(), 7);
    let wide = Variant { size: 9, ..Variant::stack_top_roads() };
    let e = StackGame { variant: wide }.parse_state("x9 1 1").unwrap_err().0;
    assert_eq!(e, "stack-top-roads has a board of size 9, expected 3 to 8");
}

#[test]
fn squares_and_colours_have_names() {
    assert_eq!(Square::parse("a1", 3), Ok(Square { col: 0, row: 0 }));
    assert_eq!(Square::parse("C2", 3), Ok(Square { col: 2, row: 1 }));
    assert_eq!(
        Square::parse("d4", 3).unwrap_err().0,
        "unknown square `d4`, expected a1 to c3"
    );
    assert_eq!(
        Square::parse("a0", 3).unwrap_err().0,
        "unknown square `a0`, expected a1 to c3"
    );
    assert!(Square::parse("a", 3).is_err() && Square::parse("1a", 3).is_err());
    assert_eq!(Square { col: 7, row: 7 }.to_string(), "h8");
    assert_eq!(square_name_upper(Square { col: 1, row: 2 }), "B3");
    assert_eq!(
        (Color::White.to_string(), Color::Black.to_string()),
        ("W".into(), "B".into())
    );
    assert_eq!((Color::White.digit(), Color::Black.digit()), ('1', '2'));
    assert_eq!(Color::White.other(), Color::Black);
}

#[test]
fn the_worked_example_drops_the_bottom_stone_first() {
    let game = roads();
    let start = state(&game, WORKED);
    let flat = |color| Piece { color, kind: Kind::Flat };
    assert_eq!(start.stack(sq("a1")), [flat(Color::Black), flat(Color::White)]);
    let after = play_all(&game, &start, &["2a1>11"]);
    assert_eq!(after.stack(sq("a1")), []);
    assert_eq!(after.stack(sq("b1")), [flat(Color::Black)]);
    assert_eq!(after.stack(sq("c1")), [flat(Color::White)]);
    assert_eq!(tops(&after, &["a1", "b1", "c1"]), ".BW");
    assert_eq!(game.format_state(&after), "x3/x,2,x/x,2,1 2 3");
    assert_eq!(Game::top(&game, &after, "b1"), Ok(Some("B".to_string())));
    assert_eq!(Game::top(&game, &after, "a1"), Ok(None));
    assert!(game.legal_moves(&start).contains(&mv(&game, &start, "2a1>11")));
}

#[test]
fn a_reversed_drop_list_is_refused() {
    let game = roads();
    let start = state(&game, WORKED);
    assert_eq!(
        play_err(&game, &start, "2a1>11:WB"),
        "the lifted group must be dropped in order, bottom first: B then W, found W then B"
    );
    let listed = mv(&game, &start, "2a1>11:BW");
    assert_eq!(listed.to_string(), "2a1>11:BW");
    let plain = play_all(&game, &start, &["2a1>11"]);
    assert_eq!(game.play(&start, &listed), Ok(plain));
    // The list names the lifted stones, so its length is the count.
    assert_eq!(
        game.parse_move(&start, "2a1>11:B").unwrap_err().0,
        "`2a1>11:B`: the stone list names 1 stones, but the carry lifts 2"
    );
    let short = Move::Carry {
        from: sq("a1"),
        dir: Dir::Right,
        drops: vec![1],
        order: Some(vec![]),
    };
    let e = game.play(&start, &short).unwrap_err().0;
    assert_eq!(e, "the stone list names 0 stones, but 1 are lifted");
    // Generated moves never carry a list.
    let listed_any = |m: &Move| matches!(m, Move::Carry { order: Some(_), .. });
    assert!(!game.legal_moves(&start).iter().any(listed_any));
}

#[test]
fn placement_needs_an_empty_square() {
    let game = roads();
    let start = state(&game, WORKED);
    assert_eq!(
        play_err(&game, &start, "a1"),
        "a1 is occupied (a stack of 2, W on top): place only on an empty square"
    );
    assert!(play_err(&game, &start, "b2").starts_with("b2 is occupied (a stack of 1, B"));
    assert_eq!(play_err(&game, &start, "Sa2"), "walls are not used in stack-top-roads");
    assert_eq!(play_err(&game, &start, "Ca2"), "Crowns are not used in stack-top-roads");
}

#[test]
fn the_carry_limit_and_the_board_bound_a_carry() {
    let game = roads();
    let tall = state(&game, "x3/x3/12121,x2 1 5");
    assert_eq!(play_err(&game, &tall, "4a1>"), "cannot carry 4: the carry limit is 3");
    assert_eq!(play_err(&game, &tall, "4a1>13"), "cannot carry 4: the carry limit is 3");
    assert!(game.legal_moves(&tall).iter().all(|m| match m {
        Move::Carry { drops, .. } => drops.iter().sum::<u8>() <= 3,
        Move::Place { .. } => true,
    }));
    let three = play_all(&game, &tall, &["3a1>12"]);
    assert_eq!(game.format_state(&three), "x3/x3/12,1,21 2 5");
    assert_eq!(
        play_err(&game, &tall, "3a1>111"),
        "the carry from a1 drops on 3 squares right, but the board has 2 that way"
    );
    assert_eq!(
        play_err(&game, &tall, "a1<"),
        "the carry from a1 drops on 1 squares left, but the board has 0 that way"
    );
    let start = state(&game, WORKED);
    assert_eq!(
        play_err(&game, &start, "3a1+"),
        "cannot lift 3 from a1: the stack there has 2"
    );
    assert_eq!(
        play_err(&game, &start, "b2>"),
        "b2 has Black on top: White carries only stacks with their own piece on top"
    );
    assert_eq!(play_err(&game, &start, "c3-"), "c3 is empty: there is nothing to carry");
    let zero =
        Move::Carry { from: sq("a1"), dir: Dir::Up, drops: vec![1, 0], order: None };
    assert!(game.play(&start, &zero).unwrap_err().0.contains("found drops [1, 0]"));
}

#[test]
fn the_mover_wins_when_both_complete_a_road() {
    let game = roads();
    // 2c3-11 drops B on c2 (Black's row 2) and W on c1 (White's row 1).
    let both = play_all(&game, &state(&game, "x2,21/2,2,x/1,1,x 1 4"), &["2c3-11"]);
    assert_eq!(game.outcome(&both), win("W", "road", &["a1", "b1", "c1"]));
    assert!(game.legal_moves(&both).is_empty());
    assert_eq!(play_err(&game, &both, "a3"), "the game is over: W wins (road a1 b1 c1)");
    // Without White's road the same carry completes only Black's, and Black wins.
    let gift = play_all(&game, &state(&game, "x2,21/2,2,x/1,x2 1 4"), &["2c3-11"]);
    assert_eq!(game.outcome(&gift), win("B", "road", &["a2", "b2", "c2"]));
}

#[test]
fn roads_run_edge_to_edge_in_path_order() {
    let game = roads();
    let column = state(&game, "x,1,x/x,1,x/2,1,2 2 4");
    assert_eq!(game.outcome(&column), win("W", "road", &["b1", "b2", "b3"]));
    let bent = state(&pathstone(5), "x5/x5/x,1,1,1,1/1,1,x3/x5 2 10");
    let path = ["a2", "b2", "b3", "c3", "d3", "e3"];
    assert_eq!(pathstone(5).outcome(&bent), win("W", "road", &path));
    // Walls are no part of a road; Crowns are.
    let walled = "x5/x5/1,1,1S,1,1/2,2,2,x2/x5 2 10";
    assert_eq!(pathstone(5).outcome(&state(&pathstone(5), walled)), Outcome::Ongoing);
    let crowned = state(&pathstone(5), "x5/x5/1,1,1C,1,1/2,2,2,x2/x5 2 10");
    let row = ["a3", "b3", "c3", "d3", "e3"];
    assert_eq!(pathstone(5).outcome(&crowned), win("W", "road", &row));
    // The shorter of two roads is reported.
    let two = state(&pathstone(5), "1,x4/1,x4/1,1,1,1,1/1,x4/1,x4 2 10");
    let short = pathstone(5).outcome(&two);
    assert!(matches!(&short, Outcome::Win { cells, .. } if cells.len() == 5), "{short}");
}

#[test]
fn a_full_board_is_counted() {
    let game = roads();
    let full = play_all(&game, &state(&game, "1,2,1/2,1,2/1,2,x 1 5"), &["c1"]);
    assert_eq!(game.outcome(&full), win("W", "flats", &[]));
    assert!(game.legal_moves(&full).is_empty());
    // In Pathstone only flats count: White's wall on a3 does not.
    let path3 = pathstone(3);
    let walled = play_all(&path3, &state(&path3, "1S,2,1/2,1,2/1,2,x 1 5"), &["c1"]);
    assert_eq!(path3.outcome(&walled), draw("flats"));
}

#[test]
fn an_empty_reserve_is_counted() {
    let game = roads();
    let before = state(&game, "1,x,1/2,1,2/2221,1112,x 1 10");
    assert_eq!(before.reserves(Color::White), (1, 0));
    let last = play_all(&game, &before, &["c1"]);
    assert_eq!(last.reserves(Color::White), (0, 0));
    assert!(last.stack(sq("b3")).is_empty());
    assert_eq!(game.outcome(&last), win("W", "flats", &[]));
    let even = play_all(&game, &state(&game, "1,2,1/2,x,2/2211,1112,x 1 10"), &["c1"]);
    assert_eq!(game.outcome(&even), draw("flats"));
    // Either player's empty reserve ends it, whoever is to move.
    let black_out = state(&game, "2,x,2/x,22222,x/2,x,1 1 8");
    assert_eq!(black_out.reserves(Color::Black), (0, 0));
    assert_eq!(game.outcome(&black_out), win("B", "flats", &[]));
}

#[test]
fn forty_turns_draw_at_forty_not_thirty_nine() {
    let game = roads();
    let start = state(&game, "x3/x3/x3 1 1");
    let six = play_all(&game, &start, &["a1", "b2", "c3", "a3", "a1+", "b2<"]);
    assert_eq!((six.turns_played(), six.move_number()), (6, 4));
    let s38 = state(&game, "x3/x,2,x/1,x2 1 20");
    assert_eq!(s38.turns_played(), 38);
    let s39 = play_all(&game, &s38, &["c3"]);
    assert_eq!((s39.turns_played(), game.outcome(&s39)), (39, Outcome::Ongoing));
    assert!(!game.legal_moves(&s39).is_empty());
    let s40 = play_all(&game, &s39, &["a3"]);
    assert_eq!((s40.turns_played(), game.outcome(&s40)), (40, draw("turn-limit")));
    assert!(game.legal_moves(&s40).is_empty());
    assert_eq!(play_err(&game, &s40, "b1"), "the game is over: draw (turn-limit)");
    // Every second move would be turn 41: none is counted.
    assert_eq!((game.fast_perft(&s39, 1) > 0, game.fast_perft(&s39, 2)), (true, 0));
    // A road on the fortieth turn wins rather than draws.
    let won = play_all(&game, &state(&game, "x3/2,2,x/1,1,x 2 20"), &["c2"]);
    assert_eq!(
        (won.turns_played(), game.outcome(&won)),
        (40, win("B", "road", &["a2", "b2", "c2"]))
    );
    // Pathstone has no turn limit.
    let late = state(&pathstone(3), "x3/x,2,x/1,x2 1 900");
    assert_eq!(pathstone(3).outcome(&late), Outcome::Ongoing);
}

#[test]
fn pathstone_opens_with_the_opponents_flat() {
    let game = pathstone(5);
    let start = state(&game, "x5/x5/x5/x5/x5 1 1");
    let first = game.legal_moves(&start);
    assert_eq!(first.len(), 25);
    assert!(first.iter().all(|m| matches!(m, Move::Place { kind: Kind::Flat, .. })));
    assert_eq!(
        play_err(&game, &start, "Sa1"),
        "on their first turn each player places a flat of the opponent's colour, not a wall"
    );
    assert!(play_err(&game, &start, "Ca1").ends_with("not a Crown"));
    let one = play_all(&game, &start, &["a1"]);
    assert_eq!(one.stack(sq("a1")), [Piece { color: Color::Black, kind: Kind::Flat }]);
    assert_eq!(
        (one.reserves(Color::White), one.reserves(Color::Black)),
        ((21, 1), (20, 1))
    );
    assert!(play_err(&game, &one, "a1+").starts_with("on their first turn"));
    let two = play_all(&game, &one, &["e5"]);
    assert_eq!(game.format_state(&two), "x4,1/x5/x5/x5/2,x4 1 2");
    // From the second turn: flats, walls and Crowns on 23 squares, and one carry.
    assert_eq!(game.legal_moves(&two).len(), 3 * 23 + 2);
    // A TPS at move 1 is the opening whatever the board shows (as tiltak reads it).
    let odd = state(&game, "x5/x5/x2,1,x2/x5/x5 2 1");
    assert_eq!(game.legal_moves(&odd).len(), 24);
    // Stack-top roads places its own colour from the start.
    let own = play_all(&roads(), &state(&roads(), "x3/x3/x3 1 1"), &["a1"]);
    assert_eq!(tops(&own, &["a1"]), "W");
}

#[test]
fn walls_block_and_a_lone_crown_flattens_them() {
    let game = pathstone(5);
    // b3: B flat under White's Crown; d3: a Black wall; b2 and d2: White flats.
    let s = state(&game, "x5/x5/x,21C,x,2S,x/x,1,x,1,x/x5 1 8");
    let flattened = play_all(&game, &s, &["2b3>11"]);
    let flat = |color| Piece { color, kind: Kind::Flat };
    let crown = Piece { color: Color::White, kind: Kind::Crown };
    assert_eq!(flattened.stack(sq("c3")), [flat(Color::Black)]);
    assert_eq!(flattened.stack(sq("d3")), [flat(Color::Black), crown]);
    assert_eq!(game.parse_move(&s, "2b3>11*"), game.parse_move(&s, "2b3>11"));
    let wall = "d3 has a wall on top: only a Crown moving alone, as the last drop, may \
                    move onto it";
    assert_eq!(play_err(&game, &s, "d2+"), wall);
    assert_eq!(
        play_err(&game, &s, "b2+"),
        "b3 has a Crown on top, and nothing moves onto a Crown"
    );
    let generated: Vec<String> =
        game.legal_moves(&s).iter().map(ToString::to_string).collect();
    assert!(generated.contains(&"2b3>11".to_string()), "{generated:?}");
    assert!(!generated.iter().any(|m| m.starts_with("d2+") || m.starts_with("b2+")));
    // Next to the wall: the Crown alone may go on, not with the flat under it.
    let next = state(&game, "x5/x5/x2,21C,2S,x/x,1,x2,1/x5 1 8");
    assert_eq!(play_err(&game, &next, "2c3>"), wall);
    assert_eq!(play_err(&game, &next, "2c3>11"), wall);
    let smash = play_all(&game, &next, &["c3>"]);
    assert_eq!(game.format_state(&smash), "x5/x5/x2,2,21C,x/x,1,x2,1/x5 2 8");
    let smashes: Vec<String> = game
        .legal_moves(&next)
        .iter()
        .map(ToString::to_string)
        .filter(|m| m.contains("c3>"))
        .collect();
    assert_eq!(smashes, ["c3>"]);
}

#[test]
fn malformed_positions_are_refused() {
    let cases = [
        ("x3/x3 1 1", "the board has 2 rows, expected 3 separated by `/`"),
        ("x3/x4/x3 1 1", "row 2 has 4 squares, expected 3"),
        ("x3//x3 1 1", "row 2 is empty: write `x3` for a row of 3 empty squares"),
        ("x3/x3/1 1 1", "row 1 has 1 square, expected 3"),
        ("x3/x3/x,1 1 3", "row 1 has 2 squares, expected 3"),
        ("x3/x3/x3 3 1", "player must be 1 or 2, found `3`"),
        ("x3/x3/x3 1 0", "move number must be a whole number from 1, found `0`"),
        ("x3/x3/x3 1 x", "move number must be a whole number from 1, found `x`"),
        ("x3/x3/x3 1 +3", "move number must be a whole number from 1, found `+3`"),
        ("x3/x3/x+3 1 3", "unknown cell `x+3` in row 1"),
        ("x3/x3/x3 1", "expected a board, the player to move and the move number"),
        ("x3/x3/13,x2 1 3", "unknown stack `13` at a1, expected digits 1 (White) and 2"),
        ("x3/x3/x,S,x 1 3", "unknown stack `S` at b1"),
        ("x3/x3/x0,x2 1 3", "unknown cell `x0` in row 1"),
        (
            "111,111,111/x3/x3 2 5",
            "White has 9 stones on the board, more than the reserve of 8",
        ),
        (
            "222,222,222/x3/x3 1 5",
            "Black has 9 stones on the board, more than the reserve of 8",
        ),
        ("1S,x2/x3/x3 2 1", "walls are not used in stack-top-roads, found `1S` at a3"),
        ("x3/x3/x2,1C 2 1", "Crowns are not used in stack-top-roads, found `1C` at c1"),
    ];
    for (text, message) in cases {
        let e = roads().parse_state(text).expect_err(text);
        assert!(e.0.contains(message), "{text}: got `{e}`, wanted `{message}`");
        // Well-formed positions no game reaches are refusals; the rest bad notation.
        let refused = ["more than the reserve", "are not used"];
        let refusal = refused.iter().any(|r| message.contains(r));
        assert_eq!(e.is_refusal(), refusal, "{text}: {e}");
    }
    let e = pathstone(5).parse_state("1C,1C,x3/x5/x5/x5/x5 2 3").unwrap_err().0;
    assert_eq!(e, "White has 2 Crowns on the board, more than the reserve of 1");
    let e = pathstone(3).parse_state("1C,x2/x3/x3 2 3").unwrap_err().0;
    assert_eq!(e, "Crowns are not used in pathstone-3, found `1C` at a3");
}

#[test]
fn positions_are_written_canonically() {
    let game = pathstone(6);
    let loose = state(&game, "x,x,x,x,x,x/x6/x2,x,x3/x6/x6/1,2,x,x,12S,21C 2 7");
    assert_eq!(game.format_state(&loose), "x6/x6/x6/x6/x6/1,2,x2,12S,21C 2 7");
    assert_eq!(loose.turns_played(), 13);
    assert_eq!(loose.reserves(Color::White), (28, 0));
    assert_eq!(loose.reserves(Color::Black), (27, 1));
    assert_eq!(
        game.format_state(&state(&game, "  x6/x6/x6/x6/x6/x6   1 1 ")),
        "x6/x6/x6/x6/x6/x6 1 1"
    );
    let drawn = format!("{:?}", state(&roads(), WORKED));
    assert!(
        drawn.contains(" 1  21 .  .") && drawn.contains("W to move, move 3"),
        "{drawn}"
    );
}

#[test]
fn move_notation_reads_and_writes_ptn() {
    let game = pathstone(5);
    let s = state(&game, "x5/x5/x5/x5/x5 1 3");
    let cases = [
        ("a1", "a1"),
        ("Fa1", "a1"),
        ("Sa1", "Sa1"),
        ("Ca1", "Ca1"),
        ("C3", "c3"),
        ("Cc3", "Cc3"),
        ("A1", "a1"),
        ("1a1>", "a1>"),
        ("a1+", "a1+"),
        ("2a1>", "2a1>"),
        ("2a1>2", "2a1>"),
        ("2a1>11", "2a1>11"),
        ("3c3-12", "3c3-12"),
        ("5c3<23", "5c3<23"),
        ("a1>*", "a1>"),
        ("2a1>11'!", "2a1>11"),
        ("Sa1?\"", "Sa1"),
        ("2a1>11:bw", "2a1>11:BW"),
        ("2a1>11*:BW!", "2a1>11:BW"),
    ];
    for (text, canonical) in cases {
        assert_eq!(mv(&game, &s, text).to_string(), canonical, "{text}");
    }
    let errors = [
        ("", "empty move"),
        ("  ", "empty move"),
        ("3a1>11", "`3a1>11`: the drops `11` add up to 2, but the carry lifts 3"),
        ("a1>11", "the drops `11` add up to 2, but the carry lifts 1"),
        ("2a1>10", "`2a1>10`: unknown drop `0`, expected one digit 1 to 9 per square"),
        ("0a1>", "a carry lifts 1 or more pieces, found a count of `0`"),
        ("2a1>11:BX", "unknown stone `X` in the stone list, expected W or B"),
        ("a1:W", "a stone list after `:` only goes with a carry"),
        ("f1", "unknown square `f1`, expected a1 to e5"),
        ("2f1>", "unknown square `f1`"),
        ("Sz1", "unknown square `z1`"),
    ];
    for (text, message) in errors {
        let e = game.parse_move(&s, text).expect_err(text).0;
        assert!(e.contains(message), "{text}: got `{e}`, wanted `{message}`");
    }
}

mod perft;
mod properties;
