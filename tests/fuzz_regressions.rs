//! Every input the fuzzer (`examples/fuzz.rs`) ever caught failing loads or
//! replays without a panic, and its game ends or stops with an error (time is
//! measured by the fuzzer, not here: tests run on shared machines). Open
//! findings under `tests/fuzz_regressions/known/` are skipped with a note.

use meeple::agents::{play, Agent, RandomAgent};
use meeple::engine::{Game, Rules, Setup};
use meeple::record::{replay_with, Record};
use meeple::{load, PackRef};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::Arc;

fn run_pack(name: &str, text: &str) {
    if let Ok(pack) = load(&[PackRef::Text {
        name: name.to_string(),
        text: text.to_string(),
    }]) {
        let rules = Arc::new(Rules::new(pack));
        if let Ok(mut game) = Game::new(rules, Setup::new(2).seed(1)) {
            let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(RandomAgent::new(1)), Box::new(RandomAgent::new(2))];
            let _ = play(&mut game, &mut agents);
        }
    }
}

fn run_record(name: &str, text: &str) {
    // `record-<packs joined by +>-s<seed>-<input>.ron`
    let packs = name
        .strip_prefix("record-")
        .and_then(|rest| rest.rsplit_once("-s"))
        .map(|(packs, _)| packs)
        .unwrap_or_else(|| panic!("{name}: not named record-<packs>-s<seed>-<input>.ron"));
    let refs: Vec<PackRef> = packs.split('+').map(|p| PackRef::Bundled(p.to_string())).collect();
    let rules = Arc::new(Rules::new(load(&refs).expect("the record's packs load")));
    if let Ok(record) = Record::parse(name, text) {
        let _ = replay_with(&record, rules);
    }
}

#[test]
fn every_kept_fuzz_failure_runs_without_panic() {
    let dir = Path::new("tests/fuzz_regressions");
    let known: Vec<_> = std::fs::read_dir(dir.join("known")).into_iter().flatten().collect();
    if !known.is_empty() {
        eprintln!(
            "skipping {} known open finding(s) in {}/known (see its README)",
            known.len(),
            dir.display()
        );
    }
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("tests/fuzz_regressions exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "rules" || e == "ron"))
        .collect();
    files.sort();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            if name.ends_with(".ron") {
                run_record(&name, &text)
            } else {
                run_pack(&name, &text)
            }
        }));
        assert!(outcome.is_ok(), "{}: panicked", path.display());
    }
    eprintln!("{} kept fuzz inputs ran", files.len());
}
