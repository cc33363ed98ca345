//! Scenario records: every `.ron` file under `tests/scenarios/` is one test,
//! named after the file. A record named `illegal_*.ron` must say how it fails
//! (`fails`: the step, the error kind, optionally a fragment of the message)
//! and fail just so; every other record must replay, meet its expectations,
//! and expect something.

use meeple::record::{replay, Record, Step};
use std::path::Path;

/// A failure, shown as its words (the harness prints errors with `Debug`).
struct Failure(String);

impl std::fmt::Debug for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Failure {}

fn scenario(path: &Path) -> datatest_stable::Result<()> {
    check(path).map_err(|m| Failure(format!("{}: {m}", path.display())).into())
}

fn check(path: &Path) -> Result<(), String> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let record = Record::read(path).map_err(|e| e.to_string())?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let illegal = name.starts_with("illegal_");
    let result = replay(&record, dir);
    match (&record.fails, illegal) {
        (None, true) => Err(
            "a record named illegal_* must say how it fails: add `fails: Fails(step: N, kind: KIND, message: \"...\")` (docs/records.md)".into(),
        ),
        (Some(_), false) => Err("a record with `fails` must be named illegal_*".into()),
        (Some(fails), true) => match result {
            Ok(_) => Err(format!("every step replayed, but the record expects {fails}")),
            Err(e) if fails.matches(&e) => Ok(()),
            Err(e) => Err(format!("the record expects {fails}, but it failed with {}: {e}", e.kind())),
        },
        (None, false) => {
            result.map_err(|e| e.to_string())?;
            let checks = record.turns.iter().filter(|s| matches!(s, Step::Check(_))).count();
            if record.expect.len() + checks == 0 {
                return Err("the record expects nothing; add `expect` entries or `Check` steps".into());
            }
            Ok(())
        }
    }
}

datatest_stable::harness! {
    { test = scenario, root = "tests/scenarios", pattern = r"\.ron$" },
}
