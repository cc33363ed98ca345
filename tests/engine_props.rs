//! Properties of many random seeded games: placed tiles match their
//! neighbours, figures are conserved, every tile is placed or discarded,
//! scores never fall, and a game's record replays to the same final state.

use meeple::agents::{agent_by_name, play, Agent};
use meeple::engine::{Choice, Decision, Event, Game, Player, Rules, Setup};
use meeple::ir::geometry::{opposite_edge, EDGE_OFFSETS};
use meeple::record::{replay_with, Record, ScriptedAgent};
use meeple::{load, PackRef};
use proptest::prelude::*;
use std::sync::{Arc, OnceLock};

fn base() -> Arc<Rules> {
    static RULES: OnceLock<Arc<Rules>> = OnceLock::new();
    RULES
        .get_or_init(|| Arc::new(Rules::new(load(&[PackRef::Bundled("base".into())]).unwrap())))
        .clone()
}

/// Every shared edge on the board shows the same thing on both sides.
fn assert_board_matches(game: &Game) {
    let rules = game.rules();
    for p in game.board().tiles() {
        let mine = &rules.rotated(p.tile, p.rot).expect("a tile of the pack");
        for (edge, (dx, dy)) in EDGE_OFFSETS.iter().enumerate() {
            if let Some(n) = game.board().tile_at((p.pos.0 + dx, p.pos.1 + dy)) {
                let theirs = &rules.rotated(n.tile, n.rot).expect("a tile of the pack");
                assert_eq!(
                    mine.sig[edge],
                    theirs.sig[opposite_edge(edge as u8) as usize],
                    "tiles at {:?} and {:?} do not match",
                    p.pos,
                    n.pos
                );
            }
        }
    }
}

/// Figures on the board plus figures in supply equal the declared count.
fn assert_figures_conserved(game: &Game) {
    let pack = game.rules().pack();
    for player in 0..game.players() {
        for (f, fig) in pack.figures().iter().enumerate() {
            let on_board = game
                .figures()
                .iter()
                .filter(|m| m.owner == Some(Player(player as u8)) && m.figure_type as usize == f)
                .count();
            assert_eq!(
                on_board + game.supply(Player(player as u8), f as u16).expect("ids are in range") as usize,
                fig.count as usize,
                "player {player}"
            );
        }
    }
}

/// The options (from the frontier's packed requirements) are exactly the
/// squares and rotations that the full fit check accepts.
fn assert_fast_fit_agrees(game: &Game, tile: u16, options: &[Choice]) {
    let rules = game.rules();
    for pos in game.board().open_squares() {
        for &rot in rules.distinct_rotations(tile) {
            let listed = options.contains(&Choice::Place { tile, pos, rot });
            let fits = game.board().fits(rules, tile, pos, rot).is_ok();
            assert_eq!(listed, fits, "tile {tile} at {:?} rot {rot}", pos);
        }
    }
}

fn play_checked(players: usize, seed: u64, agents: &[&str]) -> Game {
    let rules = base();
    let mut game = Game::new(rules, Setup::new(players).seed(seed)).unwrap();
    let mut agents: Vec<Box<dyn Agent>> = (0..players)
        .map(|p| agent_by_name(agents[p % agents.len()], seed + p as u64).unwrap())
        .collect();
    let mut last_scores = game.scores().to_vec();
    let mut options: Vec<Choice> = Vec::new();
    while let Some(decision) = game.decision() {
        game.options_into(&mut options);
        assert!(!options.is_empty(), "a pending decision has no options");
        if let Decision::Place { tile, .. } = decision {
            assert_fast_fit_agrees(&game, tile, &options);
        }
        let choice = agents[game.current_player().index()].choose(&game, &options).unwrap();
        game.apply(choice).unwrap();
        assert_figures_conserved(&game);
        for (now, before) in game.scores().iter().zip(&last_scores) {
            assert!(now >= before, "a score fell");
        }
        last_scores = game.scores().to_vec();
    }
    assert_board_matches(&game);
    game
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_the_rules(seed in any::<u64>(), players in 1usize..=6) {
        let game = play_checked(players, seed, &["random"]);
        let placed = game.board().tiles().len();
        let discarded = game.log().iter().filter(|e| matches!(e, Event::Discarded { .. })).count();
        prop_assert_eq!(placed + discarded, 72);
        prop_assert!(game.is_over());
        let total_by_reason: i64 = (0..players)
            .map(|p| (0..game.rules().pack().reasons().len()).map(|r| game.points(Player(p as u8), r as u16).expect("ids are in range")).sum::<i64>())
            .sum();
        prop_assert_eq!(total_by_reason, game.scores().iter().sum::<i64>());
    }

    #[test]
    fn a_record_replays_to_the_same_final_state(seed in any::<u64>(), players in 2usize..=4) {
        let game = play_checked(players, seed, &["random", "greedy"]);
        let names: Vec<String> = (0..players).map(|p| format!("P{p}")).collect();
        let record = Record::from_game(&game, vec!["base".into()], names, Some(seed))
        .expect("a game, not a view");
        let text = record.to_ron();
        let parsed = Record::parse("generated", &text).unwrap();
        prop_assert_eq!(&parsed, &record);
        let replayed = replay_with(&parsed, base()).unwrap();
        prop_assert_eq!(replayed.scores(), game.scores());
        prop_assert_eq!(&replayed.board().tiles(), &game.board().tiles());
        prop_assert_eq!(replayed.figures(), game.figures());
        prop_assert_eq!(replayed.log(), game.log());
    }
}

#[test]
fn scripted_agents_reproduce_a_recorded_game() {
    let game = play_checked(3, 2024, &["greedy", "random"]);
    let record = Record::from_game(
        &game,
        vec!["base".into()],
        vec!["a".into(), "b".into(), "c".into()],
        None,
    )
    .expect("a game, not a view");
    let rules = base();
    let draws = record.draw_names().map(|n| rules.pack().tile(n).unwrap()).collect();
    let mut again = Game::new(rules, Setup::new(3).replay(draws, Vec::new())).unwrap();
    let mut agents = ScriptedAgent::seats(&record, 3);
    play(&mut again, &mut agents).unwrap();
    assert_eq!(again.log(), game.log());
    assert_eq!(again.scores(), game.scores());
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let a = play_checked(3, 99, &["random"]);
    let b = play_checked(3, 99, &["random"]);
    assert_eq!(a.log(), b.log());
    let c = play_checked(3, 100, &["random"]);
    assert_ne!(a.log(), c.log());
}
