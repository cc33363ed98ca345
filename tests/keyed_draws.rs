//! Keyed tile draws (`Setup::keyed`): the order of the tiles two packs share
//! does not depend on what else the packs add, which is what lets `meeple
//! compare` play a variant that adds tiles on the same tile order as the
//! game it changes; and a player's view still learns nothing of that order.

use meeple::{load, play, Agent, Game, PackRef, Player, RandomAgent, Rules, Setup};
use std::sync::Arc;

fn rules(packs: &[&str]) -> Arc<Rules> {
    let refs: Vec<PackRef> = packs.iter().map(|p| PackRef::Bundled(p.to_string())).collect();
    Arc::new(Rules::new(load(&refs).expect("bundled packs load")))
}

/// The names of the tiles placed, in the order they were placed (the start
/// tile first), after a game of random agents.
fn placed_names(rules: &Arc<Rules>, setup: Setup) -> Vec<String> {
    let mut game = Game::new(rules.clone(), setup).expect("the game starts");
    let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(RandomAgent::new(1)), Box::new(RandomAgent::new(2))];
    play(&mut game, &mut agents).expect("the game ends");
    let tiles = rules.pack().tiles();
    game.board()
        .tiles()
        .iter()
        .map(|p| tiles[p.tile as usize].name.clone())
        .collect()
}

#[test]
fn the_tiles_two_packs_share_come_in_the_same_order() {
    let base = rules(&["base"]);
    let more = rules(&["base", "inns_cathedrals"]);
    let base_names: Vec<String> = base.pack().tiles().iter().map(|t| t.name.clone()).collect();
    let mut compared = 0;
    for key in [1, 7, 42] {
        let a = placed_names(&base, Setup::new(2).seed(key).keyed(key));
        let b = placed_names(&more, Setup::new(2).seed(key).keyed(key));
        assert!(b.len() > a.len(), "inns_cathedrals adds tiles");
        let shared: Vec<&String> = b.iter().filter(|n| base_names.contains(n)).collect();
        // A tile that fits nowhere is discarded, not placed; apart from
        // such, the base tiles come in the same order in both games.
        let discards = 72 - a.len() + (more.pack().tile_count() as usize - b.len());
        assert!(discards <= 2, "key {key}: {discards} discards");
        if discards == 0 {
            assert_eq!(shared, a.iter().collect::<Vec<_>>(), "key {key}");
            compared += 1;
        }
        // Random draws give no such thing.
        let a = placed_names(&base, Setup::new(2).seed(key));
        let b = placed_names(&more, Setup::new(2).seed(key));
        let shared: Vec<&String> = b.iter().filter(|n| base_names.contains(n)).collect();
        assert_ne!(shared, a.iter().collect::<Vec<_>>(), "key {key}");
    }
    assert!(compared > 0, "some game had no discard to compare orders by");
}

#[test]
fn keyed_draws_are_the_same_for_the_same_key_and_differ_between_keys() {
    let base = rules(&["base"]);
    let one = placed_names(&base, Setup::new(2).seed(5).keyed(9));
    assert_eq!(one, placed_names(&base, Setup::new(2).seed(5).keyed(9)));
    assert_ne!(one, placed_names(&base, Setup::new(2).seed(5).keyed(10)));
}

/// The tile drawn for the second turn, after the first turn is played with
/// each decision's first option.
fn second_tile(mut game: Game) -> Option<meeple::ir::TileId> {
    while game.turn() < 2 {
        let first = *game.options().first()?;
        game.apply(first).expect("a legal option");
    }
    match game.decision() {
        Some(meeple::Decision::Place { tile, .. }) => Some(tile),
        _ => None,
    }
}

#[test]
fn a_view_of_a_keyed_game_does_not_know_the_order() {
    // The real game's next tile is fixed by the key; a player's views,
    // resampled with their seeds, draw their next tile at random.
    let base = rules(&["base"]);
    let game = Game::new(base.clone(), Setup::new(2).seed(3).keyed(3)).expect("the game starts");
    let real = second_tile(game.clone()).expect("base has a second turn");
    let guesses: Vec<_> = (0..20)
        .map(|seed| {
            second_tile(
                game.view_with_seed(Player(0), seed)
                    .expect("a player of the game")
                    .search_clone(),
            )
        })
        .collect();
    assert!(
        guesses.iter().any(|g| *g != Some(real)),
        "every view knew the real game's next tile"
    );
}
