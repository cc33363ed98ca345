//! Runaway rules end the game with an error naming the rule's file and line,
//! never a hang or a stack overflow.

use meeple::agents::{play, Agent, RandomAgent};
use meeple::engine::{ErrorKind, Game, GameError, Player, Rules, Setup};
use meeple::{load, PackRef};
use std::sync::Arc;

/// A 2-player random game of the pack `text` (named runaway.rules), played
/// to its end or to the error that stopped it.
fn played(text: &str) -> Result<Game, GameError> {
    let pack = load(&[PackRef::Text {
        name: "runaway.rules".into(),
        text: text.into(),
    }])
    .unwrap_or_else(|e| panic!("{}", e.render()));
    let rules = Arc::new(Rules::new(pack));
    Game::new(rules, Setup::new(2).seed(1)).and_then(|mut game| {
        let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(RandomAgent::new(1)), Box::new(RandomAgent::new(2))];
        play(&mut game, &mut agents).map(|()| game)
    })
}

fn run(text: &str) -> GameError {
    played(text).expect_err("the rules run away")
}

#[test]
fn a_handler_that_triggers_itself_is_stopped() {
    // Returning a figure fires figure_returned, whose handler places and
    // returns a figure again: an endless chain of events.
    let err = run(
        "pack runaway\nrequires base\n\nfigure token x1 neutral { stands on road }\n\n\
                   on setup {\n  place token on start_tile.feature(road)\n  take back token\n}\n\n\
                   on figure_returned(x) {\n  place token on start_tile.feature(road)\n  take back token\n}\n",
    );
    let message = err.to_string();
    assert_eq!(err.kind(), ErrorKind::Runaway, "{message}");
    assert_eq!(
        message,
        "a rule ran away: handlers triggered each other 32 deep (at runaway.rules:11)"
    );
}

#[test]
fn points_scored_inside_points_scored_is_stopped() {
    // Every payment fires points_scored, whose handler pays again: the chain
    // stops at the handler depth limit.
    let err = run("pack echo\nrequires base\n\non points_scored(p, n) {\n  score 1 to p reason \"echo\"\n}\n");
    let message = err.to_string();
    assert_eq!(err.kind(), ErrorKind::Runaway, "{message}");
    assert_eq!(
        message,
        "a rule ran away: handlers triggered each other 32 deep (at runaway.rules:4)"
    );
}

#[test]
fn a_chain_past_the_step_budget_is_stopped() {
    // Loops over the players nested 18 deep: 2^18 iterations at turn start,
    // more steps than a decision allows (each iteration costs one unit of
    // evaluation, and several steps).
    let mut text = String::from("pack busy\nrequires base\n\nvar game n: int = 0\n\non turn_start {\n");
    for depth in 0..18 {
        text += &format!("{}for player p{depth} {{\n", "  ".repeat(depth + 1));
    }
    text += &format!("{}set n = n + 1\n", "  ".repeat(19));
    for depth in (0..18).rev() {
        text += &format!("{}}}\n", "  ".repeat(depth + 1));
    }
    text += "}\n";
    let err = run(&text);
    let message = err.to_string();
    assert_eq!(err.kind(), ErrorKind::Runaway, "{message}");
    assert_eq!(
        message,
        format!(
            "a rule ran away: more than {} steps without a decision (last at runaway.rules:24)",
            meeple::engine::STEP_BUDGET
        )
    );
}

/// Forty functions, each calling the one before twice (2^40 calls), are
/// refused when the pack loads (E0041).
#[test]
fn exponential_function_calls_are_refused_at_load() {
    let mut text = String::from("pack runaway\nrequires base\n\nfn f0(n: int) = n\n");
    for i in 1..=40 {
        text += &format!("fn f{i}(n: int) = f{}(n) + f{}(n)\n", i - 1, i - 1);
    }
    let err = load(&[PackRef::Text {
        name: "runaway.rules".into(),
        text,
    }])
    .expect_err("the pack is refused");
    // One error, at the first function past the limit; those calling it are
    // refused through it.
    assert_eq!(err.diagnostics.len(), 1, "{}", err.render());
    let first = &err.diagnostics[0];
    assert_eq!(first.code, meeple::Code::TooManyCalls);
    assert_eq!(first.message, "function `f19` makes 1048575 calls each time it runs");
}

/// Functions that call the one before inside a comprehension over every
/// feature: the count of calls depends on the board, so the pack loads,
/// and the calls are charged while the game runs.
#[test]
fn calls_inside_comprehensions_are_charged() {
    let mut text = String::from("pack runaway\nrequires base\n\nfn f0(n: int) = n\n");
    for i in 1..=8 {
        text += &format!("fn f{i}(n: int) = count(a in features where f{}(n) >= 0)\n", i - 1);
    }
    text += "\non tile_placed(t) {\n  score f8(0) to current_player reason \"x\"\n}\n";
    let err = run(&text);
    assert_eq!(err.kind(), ErrorKind::Runaway, "{err}");
    assert!(err.to_string().contains("runaway.rules:15"), "{err}");
}

/// Comprehensions nested four deep over every feature of the board.
#[test]
fn nested_comprehensions_are_charged() {
    // Each count is compared with a number it never reaches, so every
    // member of every level is judged: features^4 work per tile.
    let err = run("pack runaway\nrequires base\n\n\
         on tile_placed(t) when count(a in features where count(b in features where \
         count(c in features where count(d in features where d == a) > 9) > 9) > 9) > 9 {\n\
         \x20 score 1 to current_player reason \"x\"\n}\n");
    assert_eq!(err.kind(), ErrorKind::Runaway, "{err}");
    assert!(err.to_string().contains("runaway.rules:4"), "{err}");
}

#[test]
fn an_existence_test_stops_at_the_first_member() {
    // The same nesting asking only whether some member passes (`> 0`) judges
    // one member per level: the game ends normally.
    let game = played(
        "pack exists\nrequires base\n\n\
         on tile_placed(t) when count(a in features where count(b in features where \
         count(c in features where count(d in features where d == a) > 0) > 0) > 0) > 0 {\n\
         \x20 score 1 to current_player reason \"x\"\n}\n",
    )
    .expect("an existence test is cheap");
    // One point per placed tile (the start tile is not placed in a turn).
    let points: i64 = game.scores().iter().sum::<i64>();
    assert!(points >= game.board().tiles().len() as i64 - 1, "{points}");
}

/// Always takes an action when one is offered.
struct ActionTaker;

impl Agent for ActionTaker {
    fn choose(
        &mut self,
        _game: &Game,
        options: &[meeple::engine::Choice],
    ) -> Result<meeple::engine::Choice, GameError> {
        let action = options
            .iter()
            .find(|c| matches!(c, meeple::engine::Choice::Action { .. }));
        Ok(*action.unwrap_or(&options[0]))
    }

    fn name(&self) -> &str {
        "action taker"
    }

    fn looks(&self) -> bool {
        false
    }
}

/// An action that is not a card's play is offered once a turn on each
/// target: one that changes nothing cannot be taken again and again.
#[test]
fn an_action_is_offered_once_a_turn() {
    let pack = load(&[PackRef::Text {
        name: "idle.rules".into(),
        text: "pack idle\nrequires base\n\naction idle in before_place {\n  score 1 to current_player reason \"idle\"\n}\n"
            .into(),
    }])
    .unwrap_or_else(|e| panic!("{}", e.render()));
    let mut game = Game::new(Arc::new(Rules::new(pack)), Setup::new(2).seed(1)).expect("two players can play");
    let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(ActionTaker), Box::new(ActionTaker)];
    play(&mut game, &mut agents).expect("the game ends");
    let idle = game
        .rules()
        .pack()
        .reasons()
        .iter()
        .position(|r| r == "idle")
        .expect("a reason") as u16;
    let taken: i64 = (0..2).map(|p| game.points(Player(p), idle).expect("in range")).sum();
    let turns_placed = game.board().tiles().len() as i64 - 1;
    assert_eq!(
        taken, turns_placed,
        "the action was taken once in each turn that placed a tile"
    );
}

/// A turn that asks for ever more decisions (a yes-or-no for every pair of
/// features) is stopped by the bound on a turn's decisions, naming the rule.
#[test]
fn a_turn_that_keeps_asking_is_stopped() {
    let err = run(
        "pack runaway\nrequires base\n\non tile_placed(t) {\n  for feature a {\n    for feature b {\n      \
         may {\n        score 0 to current_player reason \"x\"\n      }\n    }\n  }\n}\n",
    );
    assert_eq!(err.kind(), ErrorKind::Runaway, "{err}");
    assert_eq!(
        err.to_string(),
        format!(
            "a rule ran away: more than {} decisions in one turn (the rule that keeps asking: runaway.rules:4)",
            meeple::engine::MAX_TURN_DECISIONS
        )
    );
}

/// Every turn a little under the budget of a decision still adds up: the
/// game as a whole may evaluate only so much for tile of its set.
#[test]
fn a_game_that_works_hard_every_turn_is_stopped() {
    let err = run(
        "pack busy\nrequires base\n\nvar game n: int = 0\n\non turn_start {\n  for feature a {\n    \
         for feature b {\n      set n = n + 1\n    }\n  }\n}\n",
    );
    assert_eq!(err.kind(), ErrorKind::Runaway, "{err}");
    assert!(
        err.to_string().starts_with(&format!(
            "a rule ran away: the game evaluated more than {} function calls",
            meeple::engine::GAME_EVAL_BUDGET_PER_TILE
        )),
        "{err}"
    );
}

#[test]
fn a_count_over_the_features_list_is_charged_as_a_list() {
    // Near the game's budget: each member of `x in features` is charged
    // once, as the list always was (the engine reads it as the features
    // domain, which charges a member twice), so this game ends normally.
    played(
        "pack listed\nrequires base\n\nvar game n: int = 0\n\n\
         on turn_end(p) {\n  set n = n + 1\n}\n\
         on tile_placed(t) when n < 60 and count(a in features where count(b in features where a == b) > 999) > 999 {\n\
         \x20 score 1 to current_player reason \"never\"\n}\n",
    )
    .expect("within the game's budget");
}
