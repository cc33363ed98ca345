//! Named options (`choose { NAME { ... } ... }`), the `points_scored`
//! event and the order statements run in, played by agents: every game
//! writes a record that replays to the same game.

use meeple::agents::{agent_by_name, Agent};
use meeple::engine::{Choice, Game, Rules, Setup, Target};
use meeple::record::{replay_with, Record};
use meeple::{load, PackRef};
use std::sync::Arc;

fn rules(text: &str) -> Arc<Rules> {
    let pack = load(&[PackRef::Text {
        name: "test pack".into(),
        text: text.into(),
    }])
    .unwrap_or_else(|e| panic!("the pack loads:\n{}", e.render()));
    Arc::new(Rules::new(pack))
}

/// Plays a game with agents (greedy for the first seat on even seeds),
/// checks that its record replays to the same log, and returns it.
fn play_and_replay(rules: &Arc<Rules>, seed: u64, players: usize) -> (Game, Record) {
    let mut game = Game::new(rules.clone(), Setup::new(players).seed(seed)).unwrap();
    let mut agents: Vec<Box<dyn Agent>> = (0..players)
        .map(|p| {
            let name = if p == 0 && seed % 2 == 0 { "greedy" } else { "random" };
            agent_by_name(name, seed + p as u64).unwrap()
        })
        .collect();
    meeple::agents::play(&mut game, &mut agents).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    assert!(game.is_over());
    let names = (0..players).map(|p| format!("P{p}")).collect();
    let record = Record::from_game(&game, Vec::new(), names, Some(seed)).expect("a game");
    let parsed = Record::parse("generated", &record.to_ron()).unwrap();
    assert_eq!(parsed, record, "seed {seed}: the record survives RON");
    let again = replay_with(&parsed, rules.clone()).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    assert_eq!(again.log(), game.log(), "seed {seed}: the replay differs");
    (game, record)
}

const OPTIONS: &str = "pack options_test
requires base

on turn_end {
  for player p {
    choose by p {
      take_back when count(x in features where x.kind == road and x.followers(p) > 0) > 0 {
        choose by p figure x where x.owner == p and x.feature.kind == road {
          take back x
        }
      }
      buy when p.score >= 2 {
        score -2 to p reason \"bought\"
        score 3 to p reason \"bought\"
      }
      pass { }
    }
  }
}
";

#[test]
fn named_options_are_decisions_and_records_name_them() {
    let rules = rules(OPTIONS);
    let mut named = 0;
    for seed in 0..6 {
        let (_, record) = play_and_replay(&rules, seed, 2 + seed as usize % 3);
        let ron = record.to_ron();
        named += ron.matches("Option(\"").count();
        assert!(!ron.contains("Option(\"nope"), "seed {seed}");
    }
    assert!(named > 100, "records name the picked options ({named})");
}

#[test]
fn only_options_whose_when_holds_are_offered() {
    let rules = rules(OPTIONS);
    let mut game = Game::new(rules.clone(), Setup::new(2).seed(3)).unwrap();
    let program = rules.pack().program();
    let mut seen_without_buy = false;
    while game.decision().is_some() {
        let options = game.options();
        let names: Vec<&str> = options
            .iter()
            .filter_map(|c| match c {
                Choice::Pick(Target::Option(b)) => program.option_name(*b),
                _ => None,
            })
            .collect();
        if !names.is_empty() {
            assert!(names.contains(&"pass"), "{names:?}");
            let player = game.deciding_player().unwrap();
            let score = game.scores()[player.index()];
            assert_eq!(names.contains(&"buy"), score >= 2, "{names:?} at score {score}");
            seen_without_buy |= !names.contains(&"buy");
        }
        let pick = options
            .iter()
            .copied()
            .find(|c| !matches!(c, Choice::Pass))
            .unwrap_or(options[0]);
        game.apply(pick).unwrap();
    }
    assert!(seen_without_buy);
}

/// Statements run in order, and what one fires runs before the next: the
/// `points_scored` handler of a turn's "tick" sees `ticks` not yet counted
/// (the next statement counts it), and a statement after an `if` and one
/// after a `for` run after the blocks they follow. Each check that holds
/// pays 1 point for its reason, every turn.
#[test]
fn statements_run_in_order_and_what_they_fire_runs_before_the_next() {
    let text = "pack order_test
requires base
var game ticks: int = 0
var game heard: int = 0
var game steps: int = 0
on turn_start {
  score 1 to current_player reason \"tick\"
  set ticks = ticks + 1
  if ticks > 0 {
    set steps = 1
  }
  if steps == 1 {
    score 1 to current_player reason \"after if\"
  }
  for player p {
    set steps = 2
  }
  if steps == 2 {
    score 1 to current_player reason \"after for\"
  }
}
on points_scored(p, n, r) when r == \"tick\" and heard == ticks {
  set heard = heard + 1
  score 1 to p reason \"heard before the next\"
}
";
    let rules = rules(text);
    let reason = |name: &str| rules.pack().reasons().iter().position(|r| r == name).unwrap() as u16;
    for seed in 0..3 {
        let (game, _) = play_and_replay(&rules, seed, 2);
        let total = |name: &str| -> i64 {
            (0..2)
                .map(|p| game.points(meeple::engine::Player(p), reason(name)).unwrap())
                .sum()
        };
        let turns = total("tick");
        assert!(turns > 70, "seed {seed}: a turn starts for every tile ({turns})");
        for name in ["heard before the next", "after if", "after for"] {
            assert_eq!(total(name), turns, "seed {seed}: {name}");
        }
    }
}
