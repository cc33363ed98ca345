//! Replay names the first illegal step: each step is checked completely, in
//! order, so a later step's unknown name never hides an earlier step's
//! illegal move, and a wrong set-up is a set-up error.

use meeple::engine::{ErrorKind, Rules};
use meeple::record::{replay_with, Deploy, Record, ReplayError, Step};
use std::path::Path;

mod common;
use std::sync::Arc;

fn replayed(text: &str) -> Result<meeple::engine::Game, ReplayError> {
    let record = Record::parse("r.ron", text)?;
    meeple::record::replay(&record, Path::new("."))
}

#[test]
fn an_illegal_placement_is_named_before_a_later_unknown_tile() {
    let e = replayed(
        r#"Record(rules: ["base"], players: ["A", "B"], turns: [
            Turn(tile: "E", at: (5, 5), rot: 0),
            Turn(tile: "NOPE", at: (0, 1), rot: 0),
        ])"#,
    )
    .unwrap_err();
    assert_eq!((e.step(), e.kind()), (Some(0), ErrorKind::NotAdjacent), "{e}");
    // A later step's tile drawn too often, or a card that does not exist.
    let e = replayed(
        r#"Record(rules: ["base"], players: ["A", "B"], tiles: Some(["E"]), turns: [
            Turn(tile: "E", at: (5, 5), rot: 0),
            Turn(tile: "E", at: (0, 1), rot: 0),
        ])"#,
    )
    .unwrap_err();
    assert_eq!((e.step(), e.kind()), (Some(0), ErrorKind::NotAdjacent), "{e}");
}

#[test]
fn no_players_is_a_setup_error() {
    let e = replayed(r#"Record(rules: ["base"], players: [], turns: [Turn(tile: "NOPE", at: (0, 1), rot: 0)])"#)
        .unwrap_err();
    assert_eq!((e.step(), e.kind()), (None, ErrorKind::Setup), "{e}");
    assert!(e.to_string().contains("1 to 6 players, not 0"), "{e}");
}

#[test]
fn an_unknown_name_is_named_at_its_own_step_after_the_earlier_ones_play() {
    let e = replayed(
        r#"Record(rules: ["base"], players: ["A", "B"], turns: [
            Turn(tile: "E", at: (0, -1), rot: 180),
            Turn(tile: "NOPE", at: (0, 1), rot: 0),
        ])"#,
    )
    .unwrap_err();
    assert_eq!((e.step(), e.kind()), (Some(1), ErrorKind::UnknownName), "{e}");
}

/// splitmix64: a small seeded generator, so the mutations never change.
struct Seeded(u64);

impl Seeded {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One step of `record` changed at random: its tile, square, rotation,
/// deployment, choices or cards, or the step removed or repeated.
fn mutate(record: &mut Record, rules: &Rules, rng: &mut Seeded) {
    let moves: Vec<usize> = (0..record.turns.len())
        .filter(|i| !matches!(record.turns[*i], Step::Check(_)))
        .collect();
    if moves.is_empty() {
        return;
    }
    let i = moves[rng.below(moves.len())];
    let tiles = &rules.pack().tiles();
    match rng.below(8) {
        0 => {
            let step = record.turns.remove(i);
            // Sometimes back in a later place, sometimes gone.
            if rng.below(2) == 0 {
                let at = i + rng.below(record.turns.len() - i + 1);
                record.turns.insert(at, step);
            }
        }
        1 => {
            let step = record.turns[i].clone();
            record.turns.insert(i, step);
        }
        k => match &mut record.turns[i] {
            Step::Turn {
                tile,
                at,
                rot,
                deploy,
                choices,
                cards,
                ..
            } => match k {
                2 => {
                    *tile = match rng.below(4) {
                        0 => "NO_SUCH_TILE".to_string(),
                        _ => tiles[rng.below(tiles.len())].name.clone(),
                    }
                }
                3 => *at = (at.0 + rng.below(5) as i32 - 2, at.1 + rng.below(5) as i32 - 2),
                4 => *rot = [0, 90, 180, 270, 45][rng.below(5)],
                5 => {
                    let spots = ["N", "E", "S", "W", "NL", "SR", "monastery", "field 2"];
                    *deploy = match rng.below(3) {
                        0 => None,
                        _ => Some(Deploy {
                            figure: None,
                            on: spots[rng.below(spots.len())].to_string(),
                        }),
                    }
                }
                6 => {
                    if !choices.is_empty() {
                        choices.remove(rng.below(choices.len()));
                    } else {
                        *tile = "NO_SUCH_TILE".to_string();
                    }
                }
                _ => {
                    if !cards.is_empty() {
                        cards.clear();
                    } else {
                        *at = (at.0, at.1 + 1);
                    }
                }
            },
            Step::Discard { tile } => *tile = tiles[rng.below(tiles.len())].name.clone(),
            Step::Check(_) => {}
        },
    }
}

/// The first step `k` such that the record cut after step `k` fails: the
/// first step that is illegal when the record is replayed prefix by prefix.
fn first_illegal(record: &Record, rules: &Arc<Rules>) -> Option<usize> {
    (0..record.turns.len()).find(|k| {
        let prefix = Record {
            turns: record.turns[..=*k].to_vec(),
            ..record.clone()
        };
        replay_with(&prefix, rules.clone()).is_err()
    })
}

#[test]
fn a_mutated_record_fails_no_later_than_its_first_illegal_step() {
    let files = common::scenario_files();
    assert!(files.len() > 50, "the scenarios are in tests/scenarios");
    let mut rng = Seeded(10);
    let (mut failed, mut exact) = (0, 0);
    for path in &files {
        let mut original = Record::read(path).unwrap();
        // Only the steps are judged.
        original.expect.clear();
        original.fails = None;
        let rules = Arc::new(original.load_rules(path.parent().unwrap()).unwrap());
        for _ in 0..6 {
            let mut record = original.clone();
            mutate(&mut record, &rules, &mut rng);
            let Err(e) = replay_with(&record, rules.clone()) else {
                continue;
            };
            failed += 1;
            let Some(reported) = e.step() else {
                // A record left with no step fails at its setup when the
                // setup draws cards, which only a step can list.
                if record.turns.is_empty() && e.kind() == meeple::engine::ErrorKind::Setup {
                    assert!(e.to_string().contains("`cards`"), "{}: {e}", path.display());
                    continue;
                }
                panic!("{}: a mutated step failed outside the steps: {e}", path.display());
            };
            let first = first_illegal(&record, &rules);
            // Seeing a step's own draws can show an earlier step illegal
            // sooner than a prefix does; never later.
            assert!(
                first.is_some_and(|f| reported <= f),
                "{}: replay names step {reported} ({e}), but the first illegal step is {first:?}\n{}",
                path.display(),
                record.to_ron()
            );
            exact += usize::from(first == Some(reported));
        }
    }
    assert!(failed > 200, "only {failed} mutated records failed");
    eprintln!("{failed} mutated records failed; {exact} named exactly the first illegal step");
}
