//! Properties: symmetry, colour swap, conservation of pieces, make and undo.

use super::perft::{CARRY_LIMIT_GAME, SEVEN_CROWNS, SUICIDE_GAME, empty_board};
use super::*;

/// A board symmetry: `turns` quarter turns, then a mirror left to right if `mirror`.
fn symmetry(size: u8, turns: u8, mirror: bool) -> impl Fn(Square) -> Square {
    let last = size - 1;
    move |sq: Square| {
        let turned = (0..turns).fold(sq, |s, _| Square { col: s.row, row: last - s.col });
        if mirror { Square { col: last - turned.col, ..turned } } else { turned }
    }
}

/// The position moved by `map`, with colours (and the player to move) swapped if
/// `swap`; read back from its TPS so the turn count follows the move number.
fn transformed(
    game: &StackGame,
    s: &State,
    map: &dyn Fn(Square) -> Square,
    swap: bool,
) -> State {
    let mut moved = s.clone();
    for (at, stack) in s.stacks.iter().enumerate() {
        let target = moved.index_of(map(s.square_at(at))).expect("on the board");
        let recolor = |p: &Piece| Piece {
            color: if swap { p.color.other() } else { p.color },
            kind: p.kind,
        };
        moved.stacks[target] = stack.iter().map(recolor).collect();
    }
    if swap {
        moved.to_move = s.to_move.other();
    }
    state(game, &game.format_state(&moved))
}

fn winner_and_reason(outcome: Outcome) -> Option<(String, String)> {
    match outcome {
        Outcome::Win { winner, reason, .. } => Some((winner, reason)),
        _ => None,
    }
}

#[test]
fn perft_is_symmetric_under_rotation_reflection_and_colour_swap() {
    let five = pathstone(5);
    let start = state(&five, &empty_board(5));
    // (game, position, depth, whether swapping colours is a symmetry there)
    let cases: Vec<(StackGame, State, u32, bool)> = vec![
        (five.clone(), play_all(&five, &start, CARRY_LIMIT_GAME), 2, true),
        (five.clone(), play_all(&five, &start, SUICIDE_GAME), 2, true),
        (five.clone(), state(&five, "x5/x5/2S,211C,2C,212S,x/x5/x5 1 7"), 3, true),
        (
            pathstone(3),
            state(&pathstone(3), "x3/x,111222111222111222,x/x3 2 10"),
            4,
            true,
        ),
        (
            pathstone(4),
            state(&pathstone(4), "1,2,x2/x,12S,x2/x2,21,x/2S,x3 1 5"),
            3,
            true,
        ),
        (pathstone(7), state(&pathstone(7), SEVEN_CROWNS), 2, true),
        // At move 1 with Black to move one opening turn is left; swapped, White to
        // move at move 1 has two (the move number rises only after Black's turn).
        (five.clone(), state(&five, "x5/x,21C,x3/x5/x5/x4,1 2 1"), 2, false),
        // Stack-top roads is symmetric in colour too while the turn limit is out of
        // reach: swapping the player to move shifts the turn count by one.
        (roads(), state(&roads(), WORKED), 4, true),
        (roads(), state(&roads(), "x2,21/2,2,x/1,1,x 1 4"), 3, true),
        // Finished: the winner's colour follows the swap.
        (roads(), state(&roads(), "x3/2,2,2/1,1,1 2 4"), 1, true),
        (five.clone(), state(&five, "2,x4/2,x4/2,1,1,1,1/2,x4/2,x4 1 7"), 1, true),
    ];
    for (game, s, depth, colour_symmetric) in cases {
        let expected = game.fast_perft(&s, depth);
        let outcome = winner_and_reason(game.outcome(&s));
        assert_eq!(expected == 0, outcome.is_some(), "{s:?}");
        let swaps: &[bool] = if colour_symmetric { &[false, true] } else { &[false] };
        for turns in 0..4 {
            for (mirror, &swap) in
                [false, true].into_iter().flat_map(|m| swaps.iter().map(move |s| (m, s)))
            {
                let moved =
                    transformed(&game, &s, &symmetry(s.size, turns, mirror), swap);
                let label =
                    format!("{turns} turns, mirror {mirror}, swap {swap}:\n{moved:?}");
                assert_eq!(game.fast_perft(&moved, depth), expected, "{label}");
                let recolor =
                    |(winner, reason): (String, String)| match (swap, winner.as_str()) {
                        (true, "W") => ("B".to_string(), reason),
                        (true, _) => ("W".to_string(), reason),
                        (false, _) => (winner, reason),
                    };
                assert_eq!(
                    winner_and_reason(game.outcome(&moved)),
                    outcome.clone().map(recolor)
                );
            }
        }
    }
}

#[test]
fn a_finished_position_has_no_moves_and_refuses_play() {
    let game = pathstone(5);
    let won = state(&game, "x5/x5/1,1,1,1,1/2,2,2,2,x/x5 2 6");
    assert_eq!(game.outcome(&won), win("W", "road", &["a3", "b3", "c3", "d3", "e3"]));
    assert!(game.legal_moves(&won).is_empty());
    assert_eq!((game.fast_perft(&won, 0), game.fast_perft(&won, 3)), (1, 0));
    assert_eq!(game.perft(&game.format_state(&won), 2), Ok(0));
    assert!(play_err(&game, &won, "e2").starts_with("the game is over: W wins (road a3"));
}

fn any_variant() -> impl Strategy<Value = Variant> {
    let all = Variant::all();
    (0..all.len()).prop_map(move |i| all[i].clone())
}

/// A random move, legal or not, on a board of side `size`.
fn any_move(size: u8) -> impl Strategy<Value = Move> {
    let square = (0..size, 0..size).prop_map(|(col, row)| Square { col, row });
    let kind = prop_oneof![Just(Kind::Flat), Just(Kind::Wall), Just(Kind::Crown)];
    let dir =
        prop_oneof![Just(Dir::Up), Just(Dir::Down), Just(Dir::Left), Just(Dir::Right)];
    let drops = prop::collection::vec(0..=4u8, 0..=4);
    prop_oneof![
        (square.clone(), kind).prop_map(|(square, kind)| Move::Place { square, kind }),
        (square, dir, drops).prop_map(|(from, dir, drops)| Move::Carry {
            from,
            dir,
            drops,
            order: None
        }),
    ]
}

fn any_game() -> impl Strategy<Value = (Variant, Vec<usize>, Vec<Move>)> {
    any_variant().prop_flat_map(|variant| {
        let picks = prop::collection::vec(any::<usize>(), 0..100);
        let tries = prop::collection::vec(any_move(variant.size), 100);
        (Just(variant), picks, tries)
    })
}

/// Each colour's stones (flats and walls: a flattened wall is still a stone) and
/// Crowns, on the board and in reserve, are what the variant started with; only a top
/// piece is ever a wall or a Crown.
fn check_conservation(variant: &Variant, s: &State) -> Result<(), TestCaseError> {
    for color in Color::ALL {
        let (stones, crowns) = on_board(s, color);
        let (left_stones, left_crowns) = s.reserves(color);
        prop_assert_eq!(
            (stones + left_stones, crowns + left_crowns),
            (variant.stones, variant.crowns)
        );
    }
    for stack in &s.stacks {
        let below = stack.len().saturating_sub(1);
        prop_assert!(stack[..below].iter().all(|p| p.kind == Kind::Flat), "{:?}", s);
    }
    Ok(())
}

/// A generated carry lifts 1..=min(limit, height), drops one or more on each square,
/// and the dropped pieces, read in order, are the lifted group bottom to top.
fn check_carry(
    variant: &Variant,
    before: &State,
    after: &State,
    mv: &Move,
) -> Result<(), TestCaseError> {
    let Move::Carry { from, dir, drops, order } = mv else { return Ok(()) };
    prop_assert!(order.is_none());
    let origin = before.stack(*from);
    let lifted: usize = drops.iter().map(|&d| usize::from(d)).sum();
    prop_assert!(!drops.is_empty() && drops.iter().all(|&d| d >= 1), "{}", mv);
    prop_assert!(
        lifted <= usize::from(variant.carry_limit) && lifted <= origin.len(),
        "{}",
        mv
    );
    let base = origin.len() - lifted;
    prop_assert_eq!(after.stack(*from), &origin[..base]);
    let mut at = before.index_of(*from).expect("on the board");
    let mut dropped = Vec::new();
    for &drop in drops {
        at = before.step(at, *dir);
        let (old, new) = (&before.stacks[at], &after.stacks[at]);
        let keep = new.len() - usize::from(drop);
        prop_assert_eq!(keep, old.len());
        let flat = |p: &Piece| Piece { kind: Kind::Flat, ..*p };
        prop_assert_eq!(
            new[..keep].iter().map(flat).collect::<Vec<_>>(),
            old.iter().map(flat).collect::<Vec<_>>()
        );
        dropped.extend_from_slice(&new[keep..]);
    }
    prop_assert_eq!(&dropped[..], &origin[base..], "{}", mv);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_play_keeps_the_rules((variant, picks, tries) in any_game()) {
        let game = StackGame { variant: variant.clone() };
        let mut s = state(&game, &empty_board(variant.size));
        for (pick, attempt) in picks.into_iter().zip(tries) {
            let moves = game.legal_moves(&s);
            let over = game.outcome(&s).is_over();
            prop_assert_eq!(moves.is_empty(), over, "{:?}", s);
            prop_assert_eq!(game.fast_perft(&s, 1), moves.len() as u64);
            // `play` accepts exactly the generated moves.
            let accepted = game.play(&s, &attempt).is_ok();
            prop_assert_eq!(accepted, moves.contains(&attempt), "{} at {:?}", attempt, s);
            if over {
                break;
            }
            let chosen = &moves[pick % moves.len()];
            let next = game.play(&s, chosen);
            prop_assert!(next.is_ok(), "{} refused at {:?}: {:?}", chosen, s, next);
            let next = next.unwrap();
            check_conservation(&variant, &next)?;
            check_carry(&variant, &s, &next, chosen)?;
            prop_assert_eq!(next.turns_played(), s.turns_played() + 1);
            prop_assert_eq!(next.to_move(), s.to_move().other());
            // The fast path's make and unmake agree with `play`.
            let mut undone = s.clone();
            let undo = undone.apply(s.check(&variant, chosen).unwrap());
            prop_assert_eq!(&undone, &next);
            undone.undo(&undo);
            prop_assert_eq!(&undone, &s);
            // Notation round-trips.
            let text = game.format_state(&next);
            prop_assert_eq!(&state(&game, &text), &next, "{}", text);
            let reread = game.parse_move(&s, &chosen.to_string());
            prop_assert_eq!(reread.as_ref(), Ok(chosen));
            s = next;
        }
    }

    #[test]
    fn fast_perft_counts_as_the_trait_does(
        variant in any_variant(),
        picks in prop::collection::vec(any::<usize>(), 0..40),
    ) {
        let game = StackGame { variant: variant.clone() };
        let mut s = state(&game, &empty_board(variant.size));
        for pick in picks {
            let moves = game.legal_moves(&s);
            if moves.is_empty() {
                break;
            }
            s = game.play(&s, &moves[pick % moves.len()]).unwrap();
        }
        prop_assert_eq!(game.fast_perft(&s, 2), perft(&game, &s, 2), "{:?}", s);
    }
}
