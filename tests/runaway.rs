//! Runaway rules end the game with an error naming the rule's file and line,
//! never a hang or a stack overflow.

use meeple::agents::{play, Agent, RandomAgent};
use meeple::engine::{ErrorKind, Game, GameError, Rules};
use meeple::{load, PackRef};
use std::sync::Arc;

fn run(text: &str) -> GameError {
    let pack = load(&[PackRef::Text {
        name: "runaway.rules".into(),
        text: text.into(),
    }])
    .unwrap_or_else(|e| panic!("{}", e.render()));
    let rules = Arc::new(Rules::new(pack));
    let result = Game::new(rules, 2, 1).and_then(|mut game| {
        let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(RandomAgent::new(1)), Box::new(RandomAgent::new(2))];
        play(&mut game, &mut agents)
    });
    result.expect_err("the rules run away")
}

#[test]
fn a_handler_that_triggers_itself_is_stopped() {
    // Returning a figure fires figure_returned, whose handler places and
    // returns a figure again: an endless chain of events.
    let err = run(
        "pack runaway\nrequires base\n\nfigure token neutral 1 { stands on road }\n\n\
                   on setup {\n  place token on start_tile.feature(road)\n  return token\n}\n\n\
                   on figure_returned(x) {\n  place token on start_tile.feature(road)\n  return token\n}\n",
    );
    let message = err.to_string();
    assert_eq!(err.kind(), ErrorKind::Runaway, "{message}");
    assert_eq!(
        message,
        "a rule ran away: handlers triggered each other 32 deep (at runaway.rules:11)"
    );
}

#[test]
fn a_chain_past_the_step_budget_is_stopped() {
    // Each turn start loops over every tile and every player many times over.
    let mut text = String::from("pack busy\nrequires base\n\nvar game n: int = 0\n\nfn spin() {\n");
    text += "  for each tile t {\n    for each player p {\n      for each feature f {\n        set n = n + 1\n      }\n    }\n  }\n}\n\n";
    text += "on turn_start {\n";
    for _ in 0..40 {
        text += "  spin()\n";
    }
    text += "}\n";
    let err = run(&text);
    let message = err.to_string();
    assert_eq!(err.kind(), ErrorKind::Runaway, "{message}");
    assert_eq!(
        message,
        format!(
            "a rule ran away: more than {} steps without a decision (last at runaway.rules:10)",
            meeple::engine::STEP_BUDGET
        )
    );
}
