//! `forbid placement` and `forbid deployment`: forbidden candidates are not
//! offered, choosing one fails with `ErrorKind::Forbidden` and the rule's
//! reason, and a tile forbidden everywhere it fits is discarded.

use meeple::agents::{play, Agent, RandomAgent};
use meeple::engine::{Choice, Decision, ErrorKind, Event, Game, Rotation, Rules, Setup};
use meeple::{load, PackRef};
use std::sync::Arc;

mod common;

fn rules() -> Arc<Rules> {
    let refs = [
        PackRef::Bundled("base".into()),
        PackRef::Path("tests/data/forbid.rules".into()),
    ];
    Arc::new(Rules::new(load(&refs).unwrap_or_else(|e| panic!("{}", e.render()))))
}

#[test]
fn forbidden_placements_and_deployments_are_never_offered_nor_played() {
    let rules = rules();
    let field = rules.pack().kinds().iter().position(|k| k.name == "field").unwrap();
    for seed in 0..10 {
        let mut game = Game::new(rules.clone(), Setup::new(2).seed(seed)).unwrap();
        let mut agents: Vec<Box<dyn Agent>> =
            vec![Box::new(RandomAgent::new(seed)), Box::new(RandomAgent::new(seed + 1))];
        play(&mut game, &mut agents).unwrap();
        for event in game.log() {
            if let Event::Placed { pos, .. } = event {
                assert!(pos.0 >= 0, "seed {seed}: a tile was placed west of the start: {pos:?}");
            }
        }
        for figure in game.figures() {
            let placed = &game.board().tiles()[figure.placed.index()];
            let kind = rules.pack().tiles()[placed.tile as usize].segments[figure.seg as usize].kind;
            assert_ne!(usize::from(kind), field, "seed {seed}: a follower lies on a field");
        }
    }
}

#[test]
fn a_forbidden_placement_fails_with_the_reason_and_a_tile_forbidden_everywhere_is_discarded() {
    let rules = rules();
    let pack = rules.pack();
    let u = pack.tile("U").unwrap();
    let game = Game::new(rules.clone(), Setup::new(2).seed(0).stack(vec![u, u])).unwrap();
    assert!(matches!(game.decision(), Some(Decision::Place { .. })));
    // U (a straight road) fits west of the start tile D, turned to carry D's road on.
    let mut west = game.clone();
    let err = west
        .apply(Choice::Place {
            tile: u,
            pos: (-1, 0),
            rot: Rotation::new(0).unwrap(),
        })
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Forbidden, "{}", err.message());
    assert!(
        err.message().contains("nothing may lie west of the start tile"),
        "{}",
        err.message()
    );
    assert!(game
        .options()
        .iter()
        .all(|c| !matches!(c, Choice::Place { pos, .. } if pos.0 < 0)));

    // C (a city on every side) fits only north of D, where an open city would face north.
    let c = pack.tile("C").unwrap();
    let game = Game::new(rules.clone(), Setup::new(2).seed(0).stack(vec![c])).unwrap();
    assert!(game.is_over(), "C fits only where it is forbidden, so it is discarded");
    assert!(game.log().iter().any(|e| matches!(e, Event::Discarded { .. })));
}

#[test]
fn a_demanded_square_where_every_placement_is_forbidden_does_not_bind() {
    let text = r#"
pack steer_forbid
requires base

forbid placement of t when t.x < 0 reason "nothing may lie west of the start tile"
on setup {
  choose square s {
    steer next placement to s
  }
}
"#;
    let rules = common::rules_over_base("steer_forbid.rules", text);
    let u = rules.pack().tile("U").unwrap();
    let mut game = Game::new(rules.clone(), Setup::new(2).seed(0).stack(vec![u])).unwrap();
    game.apply(Choice::Pick(meeple::engine::Target::Square(-1, 0))).unwrap();
    let places: Vec<Choice> = game
        .options()
        .into_iter()
        .filter(|c| matches!(c, Choice::Place { .. }))
        .collect();
    assert!(!places.is_empty(), "the tile may still go where it is not forbidden");
    assert!(places
        .iter()
        .all(|c| matches!(c, Choice::Place { pos, .. } if pos.0 >= 0)));
}
