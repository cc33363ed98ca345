//! Every `rules` block of docs/language.md loads as documented: clean, or
//! failing with the code in `rules,fails=E00NN`.

use meeple::agents::{play, Agent, RandomAgent};
use meeple::engine::{Game, Rules, Setup};
use meeple::{load, PackRef, RulePack};
use std::sync::Arc;

/// Every example that loads also runs: a few random games to the end.
fn play_a_few_games(pack: RulePack, block: usize) {
    let rules = Arc::new(Rules::new(pack));
    for seed in 0..3 {
        let mut game = Game::new(rules.clone(), Setup::new(2).seed(seed)).unwrap();
        let mut agents: Vec<Box<dyn Agent>> =
            vec![Box::new(RandomAgent::new(seed)), Box::new(RandomAgent::new(seed + 7))];
        play(&mut game, &mut agents).unwrap_or_else(|e| panic!("block {block}, seed {seed}: {e}"));
        assert!(game.is_over());
    }
}

#[test]
fn language_reference_examples_hold() {
    let doc = std::fs::read_to_string("docs/language.md").unwrap();
    let mut blocks = 0;
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        let Some(info) = line.strip_prefix("```rules") else {
            continue;
        };
        let expected_code = info.strip_prefix(",fails=").map(str::to_string);
        let body: Vec<&str> = lines.by_ref().take_while(|l| !l.starts_with("```")).collect();
        blocks += 1;
        let text = body.join("\n") + "\n";
        let result = load(&[PackRef::Text {
            name: format!("docs/language.md block {blocks}"),
            text: text.clone(),
        }]);
        match (result, expected_code) {
            (Ok(pack), None) => play_a_few_games(pack, blocks),
            (Err(e), None) => panic!("block {blocks} should load:\n{text}\n{}", e.render()),
            (Ok(_), Some(code)) => panic!("block {blocks} should fail with {code}:\n{text}"),
            (Err(e), Some(code)) => {
                assert_eq!(
                    e.diagnostics[0].code.to_string(),
                    code,
                    "block {blocks}:\n{}",
                    e.render()
                );
            }
        }
    }
    assert!(blocks >= 8, "only {blocks} examples found");
}

#[test]
fn reference_tables_match_the_language() {
    use meeple::ir::reference::{tables, BEGIN, END};
    let path = "docs/language.md";
    let doc = std::fs::read_to_string(path).unwrap();
    let (head, rest) = doc.split_once(BEGIN).expect("docs/language.md has the begin marker");
    let (current, tail) = rest.split_once(END).expect("docs/language.md has the end marker");
    let wanted = format!("\n{}", tables());
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(path, format!("{head}{BEGIN}{wanted}{END}{tail}")).unwrap();
        return;
    }
    let stale = "docs/language.md's tables are stale: run UPDATE_GOLDEN=1 cargo test --test language_docs";
    if let Some((now, want)) = current.lines().zip(wanted.lines()).find(|(a, b)| a != b) {
        panic!("{stale}\n  doc:   {now}\n  table: {want}");
    }
    assert_eq!(current.lines().count(), wanted.lines().count(), "{stale}");
}
