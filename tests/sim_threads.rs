//! `meeple::sim::play_games` gives the same games on 1 thread and on 4:
//! every game's record is the same, and a run stops at the same first failed
//! game.

use meeple::sim::{play_games, Run};
use meeple::{load, Agent, GreedyAgent, PackRef, RandomAgent, Record, Rules};
use std::sync::Arc;

fn rules(packs: &[PackRef]) -> Arc<Rules> {
    Arc::new(Rules::new(load(packs).expect("the packs load")))
}

fn bundled(names: &[&str]) -> Arc<Rules> {
    rules(
        &names
            .iter()
            .map(|n| PackRef::Bundled(n.to_string()))
            .collect::<Vec<_>>(),
    )
}

/// Random agents, and a greedy one in seat 1, so views are played too.
fn agent(seat: usize, seed: u64) -> Box<dyn Agent> {
    if seat == 1 {
        Box::new(GreedyAgent::new(seed))
    } else {
        Box::new(RandomAgent::new(seed))
    }
}

/// Each game's record (or the error that stopped it), in game order.
fn records(rules: &Arc<Rules>, run: &Run) -> Vec<Result<String, String>> {
    play_games(rules, run, &agent, |g, played| match played {
        Ok(game) => Ok(Record::from_game(&game, vec![], vec![], Some(g as u64))
            .expect("a played game has a record")
            .to_ron()),
        Err(stopped) => Err(stopped.error.to_string()),
    })
}

fn same_on_1_and_4_threads(rules: &Arc<Rules>, players: usize, games: usize) {
    let run = Run::new(players, games).seed(11).logging(true);
    let one = records(rules, &run.clone().threads(1));
    let four = records(rules, &run.threads(4));
    assert_eq!(one.len(), games);
    assert!(one.iter().all(Result::is_ok), "random games finish");
    assert_eq!(one, four);
}

#[test]
fn base_games_are_the_same_on_1_and_4_threads() {
    same_on_1_and_4_threads(&bundled(&["base"]), 2, 40);
}

#[test]
fn seed_pack_games_are_the_same_on_1_and_4_threads() {
    let packs = ["winter", "gingerbread_man", "abbot", "the_gifts", "christmas_present"];
    same_on_1_and_4_threads(&bundled(&packs), 3, 30);
}

#[test]
fn a_run_stops_at_its_first_failed_game_on_any_number_of_threads() {
    // Fails in the games where someone passes 40 points before the end.
    let text = "pack flaky\nrequires base\n\nvar game zero: int = 0\n\n\
                on turn_end(p) when p.score > 40 {\n  set zero = 1 / zero\n}\n";
    let rules = rules(&[
        PackRef::Bundled("base".into()),
        PackRef::Text {
            name: "flaky.rules".into(),
            text: text.into(),
        },
    ]);
    let run = Run::new(2, 60).seed(3).logging(true);
    let one = records(&rules, &run.clone().threads(1));
    let four = records(&rules, &run.threads(4));
    assert!(
        one.last().is_some_and(Result::is_err),
        "the run ends with the failed game"
    );
    assert!(one[..one.len() - 1].iter().all(Result::is_ok));
    assert!(
        one.len() > 1 && one.len() < 60,
        "a later game fails first: {}",
        one.len()
    );
    assert_eq!(one, four);
}

/// Totals made for fewer seats than a run's games have (a program's slip)
/// count every seat and every lineup slot all the same, seats rotating or
/// not: the same totals as those made for the run's players.
#[test]
fn totals_made_for_too_few_seats_count_every_seat() {
    use meeple::sim::{GameResult, Totals};
    let rules = bundled(&["base"]);
    for rotate in [false, true] {
        let run = Run::new(3, 6).seed(4).rotate_seats(rotate).threads(1);
        let results = play_games(&rules, &run, &agent, |_, played| {
            GameResult::of(&played.expect("random games finish"))
        });
        let (mut few, mut right) = (Totals::new(2), Totals::new(3));
        for (g, result) in results.iter().enumerate() {
            few.add(&run, g, result);
            right.add(&run, g, result);
        }
        assert_eq!(few.seats.len(), 3);
        assert_eq!(few, right, "seats rotating: {rotate}");
    }
}
