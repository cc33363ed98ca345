//! The scripted agent and the replay read a record's steps through one
//! walker (`record/walk.rs`): played through `play` with `ScriptedAgent`s,
//! every legal scenario record gives exactly the game its replay gives.

use meeple::record::{replay_with, Record, ScriptedAgent};
use meeple::{play, Game, GameError, Setup};
use std::sync::Arc;

mod common;

#[test]
fn scripted_agents_play_every_legal_scenario_as_its_replay_does() {
    let files = common::scenario_files();
    let mut played = 0;
    for path in &files {
        let record = Record::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if record.fails.is_some() {
            continue; // an illegal record has no game to compare with
        }
        let dir = path.parent().expect("a file in a folder");
        let rules = Arc::new(
            record
                .load_rules(dir)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display())),
        );
        let replayed = replay_with(&record, rules.clone()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));

        let tile = |name: &str| rules.pack().tile(name).expect("a replayed record names real tiles");
        let card = |name: &str| {
            let cards = &rules.pack().program().cards;
            cards
                .iter()
                .position(|c| c.name == name)
                .expect("a replayed record names real cards") as u16
        };
        let mut setup = Setup::new(record.players.len()).replay(
            record.draw_names().map(tile).collect(),
            record.card_names().map(card).collect(),
        );
        if let Some(stack) = &record.tiles {
            setup = setup.stack(stack.iter().map(|n| tile(n)).collect());
        }
        let mut game = Game::new(rules.clone(), setup).expect("a replayed record sets up");
        let mut agents = ScriptedAgent::seats(&record, record.players.len());
        // The script runs out where the record ends (unless the game ended).
        let end: Result<(), GameError> = play(&mut game, &mut agents);
        if let Err(e) = &end {
            assert!(
                !game.is_over() && e.message().contains("no more turns"),
                "{}: the scripted game stopped with: {e}",
                path.display()
            );
        }
        assert_eq!(game.log(), replayed.log(), "{}", path.display());
        assert_eq!(game.scores(), replayed.scores(), "{}", path.display());
        played += 1;
    }
    assert!(played >= 50, "only {played} legal scenarios were played");
}
