//! A game's result never depends on the order in which its packs are listed:
//! for every combination of bundled packs that loads, the same seed and the
//! same agents play the identical game (every draw, decision and point) with
//! the packs listed in any order.

use meeple::agents::{play, Agent, RandomAgent};
use meeple::bundled::bundled_names;
use meeple::engine::{Game, Rng, Rules, Setup};
use meeple::record::Record;
use meeple::{load, PackRef};
use std::sync::Arc;

mod common;

/// The whole game in the game's own terms: the record (without its pack
/// list, which is the listing under test) and the scores.
fn game_text(packs: &[&str], seed: u64) -> Option<String> {
    let refs: Vec<PackRef> = packs.iter().map(|p| PackRef::Bundled(p.to_string())).collect();
    let rules = Arc::new(Rules::new(load(&refs).ok()?));
    let mut game = Game::new(rules, Setup::new(2).seed(seed)).expect("two players can play");
    let mut agents: Vec<Box<dyn Agent>> = (0..2u64)
        .map(|i| Box::new(RandomAgent::new(seed ^ (i + 1))) as Box<dyn Agent>)
        .collect();
    play(&mut game, &mut agents).unwrap_or_else(|e| panic!("{packs:?}: {e}"));
    let record = Record::from_game(&game, Vec::new(), Vec::new(), Some(seed)).expect("a game, not a view");
    Some(format!("{:?}\n{}", game.scores(), record.to_ron()))
}

/// The listings tried besides the sorted one: every order of up to three
/// packs; for more, the reverse, every rotation and a few shuffles.
fn listings(packs: &[&'static str], seed: u64) -> Vec<Vec<&'static str>> {
    if packs.len() <= 3 {
        let mut all = Vec::new();
        permute(&mut packs.to_vec(), 0, &mut all);
        all.retain(|l| l.as_slice() != packs);
        return all;
    }
    let mut out: Vec<Vec<&str>> = (1..packs.len())
        .map(|r| packs.iter().cycle().skip(r).take(packs.len()).copied().collect())
        .collect();
    out.push(packs.iter().rev().copied().collect());
    let mut rng = Rng::new(seed);
    for _ in 0..3 {
        let mut shuffled = packs.to_vec();
        for i in (1..shuffled.len()).rev() {
            shuffled.swap(i, rng.below(i + 1));
        }
        out.push(shuffled);
    }
    out
}

fn permute(items: &mut Vec<&'static str>, k: usize, out: &mut Vec<Vec<&'static str>>) {
    if k == items.len() {
        out.push(items.clone());
        return;
    }
    for i in k..items.len() {
        items.swap(k, i);
        permute(items, k + 1, out);
        items.swap(k, i);
    }
}

#[test]
fn every_listing_order_plays_the_same_game() {
    let names: Vec<&'static str> = bundled_names().collect();
    let mut combinations = 0;
    for mask in 1u32..(1 << names.len()) {
        let packs: Vec<&'static str> = (0..names.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| names[i])
            .collect();
        let seed = u64::from(mask) * 7919;
        let Some(first) = game_text(&packs, seed) else {
            continue;
        };
        combinations += 1;
        for listing in listings(&packs, seed) {
            let other = game_text(&listing, seed).expect("a combination that loads loads in any order");
            assert!(
                other == first,
                "listing {listing:?} played a different game than {packs:?} (seed {seed})"
            );
        }
    }
    assert!(combinations >= 100, "only {combinations} combinations loaded");
}

/// Every `when` of an event is judged when the event fires: a handler that
/// runs first cannot switch off (or on) one that follows it.
#[test]
fn guards_are_judged_when_the_event_fires() {
    let text = r#"
pack guards
requires base

var game first_ran: bool = false

on tile_placed(t) when not first_ran {
  set first_ran = true
  score 1 to current_player reason "first"
}

# Judged with the first handler, before it ran: it runs on the first turn.
on tile_placed(t) when not first_ran {
  score 10 to current_player reason "second"
}
"#;
    let rules = common::rules_over_base("guards.rules", text);
    let mut game = Game::new(rules, Setup::new(2).seed(5)).expect("two players can play");
    let place = game.options()[0];
    game.apply(place).expect("options are legal");
    assert_eq!(game.scores(), &[11, 0], "both handlers ran for the first placement");
}

/// The canonical order: each pack after the packs it requires, and among
/// the packs whose requirements are loaded, the first by name.
#[test]
fn packs_load_after_their_requirements_then_by_name() {
    let pack = |name: &str, requires: &str| PackRef::Text {
        name: format!("{name}.rules"),
        text: format!(
            "pack {name}\nrequires {requires}\ntile {}_tile from E x1 {{ }}\n",
            name.to_uppercase()
        ),
    };
    let expected = ["B_tile", "Z_tile", "A_tile"];
    for refs in [
        vec![pack("a", "base, z"), pack("z", "base"), pack("b", "base")],
        vec![pack("b", "base"), pack("z", "base"), pack("a", "base, z")],
    ] {
        let loaded = load(&refs).unwrap_or_else(|e| panic!("{}", e.render()));
        let last: Vec<&str> = loaded
            .tiles()
            .iter()
            .rev()
            .take(3)
            .rev()
            .map(|t| t.name.as_str())
            .collect();
        assert_eq!(last, expected, "base, then b, then z, then a (which requires z)");
    }
}
