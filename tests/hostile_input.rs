//! Hostile packs: inputs that used to make loading slow, a score wrap or a
//! syntax error name an invisible character. Each test asserts on the work
//! done or the error given, never on the time taken.

use meeple::agents::{play, Agent, RandomAgent};
use meeple::engine::{ErrorKind, Game, GameError, Rules, Setup};
use meeple::{load, Code, PackRef};
use std::sync::Arc;

fn text(name: &str, text: &str) -> Vec<PackRef> {
    vec![PackRef::Text {
        name: name.into(),
        text: text.into(),
    }]
}

fn run(pack_text: &str) -> Result<Game, GameError> {
    let pack = load(&text("scores.rules", pack_text)).unwrap_or_else(|e| panic!("{}", e.render()));
    let mut game = Game::new(Arc::new(Rules::new(pack)), Setup::new(2).seed(1))?;
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
        "pack scores\nrequires base\n\non tile_placed(t) {{\n  for feature f {{\n    adjust scoring of f by {HUGE}\n    adjust scoring of f by {HUGE}\n  }}\n}}\n"
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

#[test]
fn a_byte_order_mark_starts_a_pack() {
    let pack = "\u{FEFF}pack marked\nrequires base\n\ntile ZZ x1 { city N; field E S W touches N }\n";
    load(&text("marked.rules", pack)).unwrap_or_else(|e| panic!("{}", e.render()));
}

#[test]
fn a_byte_order_mark_elsewhere_is_named() {
    let pack = "pack marked\nrequires base\n\u{FEFF}\ntile ZZ x1 { city N; field E S W touches N }\n";
    let err = load(&text("marked.rules", pack)).expect_err("a mark mid-file is an error");
    let d = &err.diagnostics[0];
    assert_eq!(d.code, Code::Syntax);
    assert!(
        d.message.ends_with("found U+FEFF, an invisible byte-order mark"),
        "{}",
        d.message
    );
    // The label points at the mark itself.
    let (span, _) = d.primary.as_ref().expect("a place");
    let at = pack.find('\u{FEFF}').unwrap();
    assert_eq!(span.range(), at..at + '\u{FEFF}'.len_utf8());
}

#[test]
fn a_name_too_long_is_refused_without_comparing_it() {
    let long = "A".repeat(60_000);
    let other = format!("{}B", "A".repeat(59_999));
    let pack = format!(
        "pack long\nrequires base\n\ntile {long} x1 {{ city N; field E S W touches N }}\ntile ZZ from {other} x1\n"
    );
    let err = load(&text("long.rules", &pack)).expect_err("the name is too long");
    assert_eq!(err.diagnostics.len(), 1, "{}", err.render());
    assert_eq!(err.diagnostics[0].code, Code::NameTooLong);
}

#[test]
fn one_mistake_repeated_is_reported_a_bounded_number_of_times() {
    let mut pack = String::from("pack many\nrequires base\n\n");
    for i in 0..1000 {
        pack += &format!("start Unknowntile{}\n", i % 7);
    }
    let err = load(&text("many.rules", &pack)).expect_err("the names are unknown");
    let unknown: Vec<_> = err.diagnostics.iter().filter(|d| d.code == Code::UnknownName).collect();
    assert_eq!(unknown.len(), meeple::check::MAX_REPEATED_ERRORS, "{}", err.render());
    assert!(
        unknown
            .last()
            .unwrap()
            .notes
            .iter()
            .any(|n| n.starts_with("and 980 more E0003 errors in this file")),
        "{:?}",
        unknown.last().unwrap().notes
    );
}
