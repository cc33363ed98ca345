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

/// A chain of `n` `else if` in one handler, each scoring 1.
fn else_if_chain(n: usize) -> String {
    let mut pack = String::from(
        "pack chain\nrequires base\n\non turn_end {\n  if tiles_left == 0 { score 1 to current_player reason \"c\" }\n",
    );
    for i in 1..n {
        pack.push_str(&format!(
            "  else if tiles_left == {i} {{ score 1 to current_player reason \"c\" }}\n"
        ));
    }
    pack.push_str("}\n");
    pack
}

/// `n` `if ... then ... else` nested with no operator between them.
fn nested_if_expression(n: usize) -> String {
    format!(
        "pack nested\nrequires base\n\nfn f(): int = {}1{}\n\non turn_end {{\n  score f() to current_player reason \"n\"\n}}\n",
        "if true then ".repeat(n),
        " else 2".repeat(n)
    )
}

#[test]
fn a_long_else_if_chain_is_refused_not_a_stack_overflow() {
    // 3000 used to overflow the stack while the file was read.
    for n in [257, 3000, 20_000] {
        let err = load(&text("chain.rules", &else_if_chain(n))).expect_err("too deep");
        let d = &err.diagnostics[0];
        assert_eq!(d.code, Code::TooDeep, "{}", err.render());
        assert!(
            d.message.contains("`if` statements nested too deeply"),
            "{}",
            err.render()
        );
        // The 257th `if`: line 5 is the first.
        assert!(err.render().contains("chain.rules:261:8"), "{}", err.render());
    }
}

#[test]
fn if_expressions_nested_too_deeply_are_refused_not_a_stack_overflow() {
    // 700 used to overflow the stack while the file was read; 5000 failed
    // in the grammar with "expected `not`".
    for n in [65, 700, 5000] {
        let err = load(&text("nested.rules", &nested_if_expression(n))).expect_err("too deep");
        let d = &err.diagnostics[0];
        assert_eq!(d.code, Code::TooDeep, "{}", err.render());
        assert!(
            d.message.contains("`if` expressions nested too deeply"),
            "{}",
            err.render()
        );
    }
    // Nested in the `else` branch: no `then` is left open, but the tree is as deep.
    for n in [65, 700, 5000] {
        let chain = format!(
            "pack nested\nrequires base\n\nfn f(x: int): int = {}0\n",
            (0..n)
                .map(|i| format!("if x == {i} then {i} else "))
                .collect::<String>()
        );
        let err = load(&text("chain.rules", &chain)).expect_err("too deep");
        assert_eq!(err.diagnostics[0].code, Code::TooDeep, "{}", err.render());
    }
}

#[test]
fn a_then_of_no_if_expression_nests_nothing() {
    // 100 `draw tile then remove` in one handler, and 100 short chains of
    // `if` expressions, are no nesting at all.
    let mut pack = String::from("pack many\nrequires base\n\non turn_end {\n");
    for i in 0..100 {
        pack.push_str(&format!("  if tiles_left == {i} {{ draw tile then remove }}\n"));
        pack.push_str(&format!("  score if tiles_left == {i} then 1 else if tiles_left == 0 then 2 else 0 to current_player reason \"m\"\n"));
    }
    pack.push_str("}\n");
    if let Err(err) = load(&text("many.rules", &pack)) {
        assert!(
            err.diagnostics.iter().all(|d| d.code != Code::TooDeep),
            "{}",
            err.render()
        );
    }
}

#[test]
fn an_else_if_chain_at_the_limit_plays() {
    let game = run(&else_if_chain(256)).expect("a chain of 256 plays");
    assert!(game.scores().iter().sum::<i64>() > 0, "{:?}", game.scores());
}

#[test]
fn if_expressions_at_the_limit_play() {
    run(&nested_if_expression(64)).expect("64 nested `if` expressions play");
    // As deep as brackets and `if` expressions may nest together.
    let both = format!(
        "pack nested\nrequires base\n\nfn f(): int = {}1{}\n\non turn_end {{\n  score f() to current_player reason \"n\"\n}}\n",
        "(if true then ".repeat(63),
        " else 2)".repeat(63)
    );
    run(&both).expect("63 `if` expressions in 63 brackets play");
}

#[test]
fn ifs_nested_by_braces_count_with_the_else_if_chain_inside_them() {
    // 60 `if` blocks, and in the innermost a chain of 200 `else if`: 261 `if`s
    // nest, more than the 256 allowed, though no chain alone is too long.
    let mut pack = String::from("pack both\nrequires base\n\non turn_end {\n");
    pack.push_str(&"if true {\n".repeat(60));
    pack.push_str("if tiles_left == 0 { score 1 to current_player reason \"b\" }\n");
    for i in 1..=200 {
        pack.push_str(&format!(
            "else if tiles_left == {i} {{ score 1 to current_player reason \"b\" }}\n"
        ));
    }
    pack.push_str(&"}\n".repeat(61));
    let err = load(&text("both.rules", &pack)).expect_err("too deep");
    assert_eq!(err.diagnostics[0].code, Code::TooDeep, "{}", err.render());
    // The 257th `if`: the 196th `else if`, on line 65 + 196.
    assert!(err.render().contains("both.rules:261:6"), "{}", err.render());
}

#[test]
fn a_tile_set_past_its_limit_is_told_once_with_its_total() {
    // 20 types of 1000 tiles: the limit (10 000) is passed at the 10th type.
    let mut pack = String::from("pack big\nrequires base\n");
    for i in 0..20 {
        pack.push_str(&format!("tile T{i} from V x1000\n"));
    }
    let err = load(&text("big.rules", &pack)).expect_err("too many tiles");
    let told: Vec<_> = err
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::NumberOutOfRange)
        .collect();
    assert_eq!(told.len(), 1, "{}", err.render());
    // Base's 72 tiles and the 20 000 added.
    assert_eq!(told[0].message, "the tile set holds 20072 tiles, more than 10000");
    assert!(err.render().contains("big.rules:12:16"), "{}", err.render());
}
