//! `steer next placement to SQUARE`: a demand binds the next turn's
//! placement (the first turn's when issued in `setup`), demands queue in the
//! order issued, and a later demand never cancels an earlier one.

use meeple::engine::{Choice, Decision, Game, Rotation, Setup, Target};

mod common;

/// Base with two demands made in `setup`, both chosen by the first player.
const TWO_DEMANDS: &str = r#"
pack demands
requires base

on setup {
  choose square s {
    steer next placement to s
  }
  choose square t {
    steer next placement to t
  }
}
"#;

/// A game of base plus `TWO_DEMANDS` whose stack holds two E tiles (a city
/// on one edge, fields elsewhere); the setup picks `first` then `second`.
fn game_with_demands(first: (i32, i32), second: (i32, i32)) -> Game {
    let rules = common::rules_over_base("demands.rules", TWO_DEMANDS);
    let e = rules.pack().tile("E").expect("base has tile E");
    let mut game = Game::new(rules, Setup::new(2).seed(1).stack(vec![e, e])).expect("two players can play");
    for square in [first, second] {
        assert!(matches!(game.decision(), Some(Decision::Choose { .. })));
        game.apply(Choice::Pick(Target::Square(square.0, square.1)))
            .expect("an empty square next to the board is an option");
    }
    assert!(matches!(game.decision(), Some(Decision::Place { .. })));
    game
}

/// The squares the pending placement may use.
fn squares(game: &Game) -> Vec<(i32, i32)> {
    let mut out: Vec<(i32, i32)> = game
        .options()
        .iter()
        .filter_map(|c| match c {
            Choice::Place { pos, .. } => Some(*pos),
            _ => None,
        })
        .collect();
    out.dedup();
    out
}

// Around the start tile D (city N, road W–E, field S): tile E fits north of
// it, at (0, -1), and south of it, at (0, 1); not east, at (1, 0), where D's
// road would meet E's field.

#[test]
fn a_demand_made_in_setup_binds_the_first_placement() {
    let game = game_with_demands((0, -1), (0, -1));
    assert_eq!(game.turn(), 1);
    assert_eq!(squares(&game), vec![(0, -1)]);
}

#[test]
fn a_later_demand_does_not_cancel_an_earlier_one() {
    let mut game = game_with_demands((0, -1), (0, 1));
    assert_eq!(squares(&game), vec![(0, -1)], "the first demand binds");
    let e = game.rules().pack().tile("E").expect("base has tile E");
    let refused = game.apply(Choice::Place {
        tile: e,
        pos: (0, 1),
        rot: Rotation::new(2).unwrap(),
    });
    let err = refused.expect_err("the second square does not lift the first demand");
    assert!(err.to_string().contains("square (0, -1)"), "{err}");
}

#[test]
fn a_demand_where_the_tile_does_not_fit_gives_way_to_the_next() {
    let game = game_with_demands((1, 0), (0, 1));
    assert_eq!(squares(&game), vec![(0, 1)]);
}

#[test]
fn a_demand_binds_one_turn_only() {
    let mut game = game_with_demands((0, -1), (0, 1));
    let first = game.options()[0];
    game.apply(first).expect("options are legal");
    game.apply(Choice::Pass).expect("passing is legal");
    assert_eq!(game.turn(), 2);
    assert!(squares(&game).len() > 1, "the second turn places freely");
}
