//! Hostile packs: inputs that used to make a score wrap. Each test asserts
//! on the work done or the error given, never on the time taken.

use meeple::agents::{play, Agent, RandomAgent};
use meeple::engine::{ErrorKind, Game, GameError, Rules};
use meeple::{load, PackRef};
use std::sync::Arc;

fn text(name: &str, text: &str) -> Vec<PackRef> {
    vec![PackRef::Text {
        name: name.into(),
        text: text.into(),
    }]
}

fn run(pack_text: &str) -> Result<Game, GameError> {
    let pack = load(&text("scores.rules", pack_text)).unwrap_or_else(|e| panic!("{}", e.render()));
    let mut game = Game::new(Arc::new(Rules::new(pack)), 2, 1)?;
    let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(RandomAgent::new(1)), Box::new(RandomAgent::new(2))];
    play(&mut game, &mut agents)?;
    Ok(game)
}

/// 2^62, written with numbers the language allows.
const HUGE: &str = "1024 * 1024 * 1024 * 1024 * 1024 * 1024 * 4";

#[test]
fn a_score_past_the_largest_number_names_the_rule() {
    let pack = format!("pack scores\nrequires base\n\non setup {{\n  score {HUGE} to current_player reason \"huge\"\n  score {HUGE} to current_player reason \"huge\"\n}}\n");
    let err = run(&pack).expect_err("the second score overflows");
    assert_eq!(err.kind(), ErrorKind::Overflow, "{err}");
    assert_eq!(err.to_string(), "arithmetic overflow in the rule at scores.rules:6");
}

#[test]
fn an_adjustment_past_the_largest_number_names_the_rule() {
    let pack = format!(
        "pack scores\nrequires base\n\non tile_placed(t) {{\n  for each feature f {{\n    adjust scoring of f by {HUGE}\n    adjust scoring of f by {HUGE}\n  }}\n}}\n"
    );
    let err = run(&pack).expect_err("the second adjustment overflows");
    assert_eq!(err.kind(), ErrorKind::Overflow, "{err}");
    assert_eq!(err.to_string(), "arithmetic overflow in the rule at scores.rules:7");
}

#[test]
fn scores_near_the_limit_that_do_not_pass_it_are_kept() {
    let pack =
        format!("pack scores\nrequires base\n\non setup {{\n  score {HUGE} to current_player reason \"huge\"\n}}\n");
    let game = run(&pack).expect("no score passes the limit");
    assert!(game.scores()[0] >= 1 << 62, "{:?}", game.scores());
}
