//! Scenario records: every `.ron` file under `tests/scenarios/` is replayed.
//! A record named `illegal_*.ron` must fail, and its `// expect-error: TEXT`
//! comment says what the message must contain; every other record must replay
//! and meet its expectations. Each record must expect something.

use meeple::record::{replay, Record};
use std::path::{Path, PathBuf};

fn records(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            records(&path, out);
        } else if path.extension().is_some_and(|e| e == "ron") {
            out.push(path);
        }
    }
}

#[test]
fn every_scenario_replays_as_its_comments_say() {
    let mut paths = Vec::new();
    records(Path::new("tests/scenarios"), &mut paths);
    paths.sort();
    assert!(!paths.is_empty(), "no scenarios found");
    let mut failures = Vec::new();
    for path in &paths {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let dir = path.parent().unwrap();
        let outcome = Record::parse(&path.display().to_string(), &text).and_then(|r| {
            let expects = r.expect.len()
                + r.turns
                    .iter()
                    .filter(|s| matches!(s, meeple::record::Step::Check(_)))
                    .count();
            replay(&r, dir).map(|_| expects)
        });
        if name.starts_with("illegal_") {
            let wanted = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("// expect-error:"))
                .map(str::trim)
                .unwrap_or_else(|| panic!("{name}: an illegal record needs a `// expect-error: TEXT` line"));
            match outcome {
                Ok(_) => failures.push(format!("{name}: replayed, but should fail with `{wanted}`")),
                Err(e) if e.to_string().contains(wanted) => {}
                Err(e) => failures.push(format!("{name}: failed with `{e}`, expected `{wanted}`")),
            }
        } else {
            match outcome {
                Ok(0) => failures.push(format!("{name}: expects nothing; add `expect` entries")),
                Ok(_) => {}
                Err(e) => failures.push(format!("{name}: {e}")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} scenarios failed:\n{}",
        failures.len(),
        paths.len(),
        failures.join("\n")
    );
}
