//! Tile stacks (`stack NAME before|after OTHER`, `tile ... in STACK [last]`,
//! `draw tile from STACK`): draws follow the stacks' order and pins, a
//! replay of a draw not allowed now fails with `TileNotNext`, and an exact
//! stack given to the setup is shared out among the stacks.

use meeple::agents::{play, Agent, RandomAgent};
use meeple::engine::{ErrorKind, Event, Game, Rules, Setup};
use meeple::record::{replay_with, Record};
use meeple::{load, PackRef};
use std::sync::Arc;

fn rules() -> Arc<Rules> {
    let refs = [
        PackRef::Bundled("base".into()),
        PackRef::Path("tests/data/stacks.rules".into()),
    ];
    Arc::new(Rules::new(load(&refs).unwrap_or_else(|e| panic!("{}", e.render()))))
}

/// The stack of each drawn or discarded tile, in the order drawn (the
/// turn's draws only; extra tiles are drawn from a named stack).
fn turn_draws(game: &Game) -> Vec<String> {
    let pack = game.rules().pack();
    game.log()
        .iter()
        .filter_map(|e| match e {
            Event::Drew { tile, .. } => Some(pack.tiles()[*tile as usize].name.clone()),
            _ => None,
        })
        .collect()
}

fn stack_of(name: &str) -> &'static str {
    match name {
        "EARLY_V" | "EARLY_U" | "LAKE" => "early",
        "D" => "late",
        _ => "main",
    }
}

#[test]
fn draws_take_the_early_stack_then_its_pinned_tile_then_main_then_late() {
    let rules = rules();
    for seed in 0..20 {
        let mut game = Game::new(rules.clone(), Setup::new(2).seed(seed)).unwrap();
        let mut agents: Vec<Box<dyn Agent>> =
            vec![Box::new(RandomAgent::new(seed)), Box::new(RandomAgent::new(seed + 1))];
        play(&mut game, &mut agents).unwrap();
        let draws = turn_draws(&game);
        let rank = |s: &str| ["early", "main", "late"].iter().position(|x| *x == s).unwrap();
        for pair in draws.windows(2) {
            assert!(
                rank(stack_of(&pair[0])) <= rank(stack_of(&pair[1])),
                "seed {seed}: {} drawn before {}",
                pair[0],
                pair[1]
            );
        }
        // A drawn tile goes back when the extra one is placed instead, so
        // early tiles may be drawn more than once; the lake still ends them.
        let lake = draws.iter().position(|d| d == "LAKE").expect("the lake is drawn");
        assert!(
            draws[..lake].iter().all(|d| d.starts_with("EARLY_")),
            "seed {seed}: {draws:?}"
        );
        assert!(
            !draws[lake..].iter().any(|d| d.starts_with("EARLY_")),
            "seed {seed}: {draws:?}"
        );
    }
}

#[test]
fn a_replayed_draw_from_a_later_stack_or_a_pinned_tile_too_soon_fails() {
    let rules = rules();
    let pack = rules.pack();
    for (name, why) in [("E", "stack `early`"), ("LAKE", "pinned last"), ("D", "stack `early`")] {
        let tile = pack.tile(name).unwrap();
        let err = Game::new(rules.clone(), Setup::new(2).replay(vec![tile], Vec::new()))
            .err()
            .unwrap_or_else(|| panic!("drawing {name} first is refused"));
        assert_eq!(err.kind(), ErrorKind::TileNotNext, "{name}: {}", err.message());
        assert!(err.message().contains(why), "{name}: {}", err.message());
    }
    let v = pack.tile("EARLY_V").unwrap();
    assert!(Game::new(rules.clone(), Setup::new(2).replay(vec![v], Vec::new())).is_ok());
}

#[test]
fn an_exact_stack_is_shared_out_among_the_stacks() {
    let rules = rules();
    let pack = rules.pack();
    assert_eq!(pack.stacks(), ["early", "main", "late"], "the draw order of the stacks");
    let names = ["D", "E", "LAKE", "EARLY_U"];
    let tiles = names.iter().map(|n| pack.tile(n).unwrap()).collect();
    let mut game = Game::new(rules.clone(), Setup::new(2).seed(3).stack(tiles)).unwrap();
    let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(RandomAgent::new(3)), Box::new(RandomAgent::new(4))];
    play(&mut game, &mut agents).unwrap();
    let draws = turn_draws(&game);
    let discarded: Vec<String> = game
        .log()
        .iter()
        .filter_map(|e| match e {
            Event::DrewExtra { tile, .. } => Some(pack.tiles()[*tile as usize].name.clone()),
            _ => None,
        })
        .collect();
    // The late D may have been drawn as an extra tile and placed instead.
    let expected: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| *n != "D" || !discarded.contains(&"D".to_string()))
        .collect();
    let mut order = expected.clone();
    order.sort_by_key(|n| match *n {
        "EARLY_U" => 0,
        "LAKE" => 1,
        "E" => 2,
        _ => 3,
    });
    assert_eq!(draws, order);
}

#[test]
fn a_view_resamples_within_stacks_and_plays_on_in_stack_order() {
    let rules = rules();
    let game = Game::new(rules.clone(), Setup::new(2).seed(5)).unwrap();
    for seed in 0..5 {
        let view = game.view_with_seed(meeple::engine::Player(1), seed).unwrap();
        assert_eq!(view.tiles_left(), game.tiles_left());
        let mut sample: Game = (*view).clone();
        let mut agents: Vec<Box<dyn Agent>> =
            vec![Box::new(RandomAgent::new(seed)), Box::new(RandomAgent::new(seed + 1))];
        play(&mut sample, &mut agents).unwrap();
        let draws = turn_draws(&sample);
        let rank = |s: &str| ["early", "main", "late"].iter().position(|x| *x == s).unwrap();
        assert!(
            draws.windows(2).all(|p| rank(stack_of(&p[0])) <= rank(stack_of(&p[1]))),
            "view seed {seed}: {draws:?}"
        );
    }
}

/// Every record of a game with stacks replays: a `draw tile from` an empty
/// stack takes nothing, in a replay as in the game (it once took the next
/// turn's recorded tile).
#[test]
fn records_of_games_with_stacks_replay() {
    let rules = rules();
    for seed in 0..40 {
        let mut game = Game::new(rules.clone(), Setup::new(2).seed(seed)).unwrap();
        let mut agents: Vec<Box<dyn Agent>> =
            vec![Box::new(RandomAgent::new(seed)), Box::new(RandomAgent::new(seed + 1))];
        play(&mut game, &mut agents).unwrap();
        let packs = vec!["base".to_string(), "tests/data/stacks.rules".to_string()];
        let record = Record::from_game(&game, packs, vec!["a".into(), "b".into()], Some(seed)).unwrap();
        let again = replay_with(&record, rules.clone()).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(again.log(), game.log(), "seed {seed}");
    }
}
