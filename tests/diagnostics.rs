//! Golden diagnostics: every case under `tests/diagnostics/` (a `.rules`
//! file, or a folder whose `main*.rules` files load together) must produce
//! exactly the text in its `.stderr` file. The case name starts with the code
//! of its first diagnostic. Rebuild the expectations with
//! `UPDATE_GOLDEN=1 cargo test --test diagnostics`, then review the diff.

use meeple::{load, Code, PackRef};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const DIR: &str = "tests/diagnostics";

fn cases() -> Vec<(String, Vec<PackRef>)> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(DIR).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    let mut cases = Vec::new();
    for path in entries {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let display = |p: &Path| PathBuf::from(DIR).join(p.strip_prefix(DIR).unwrap());
        if path.is_dir() {
            let mut mains: Vec<PathBuf> = std::fs::read_dir(&path)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("main"))
                .collect();
            mains.sort();
            assert!(!mains.is_empty(), "{name}: a case folder needs main*.rules files");
            cases.push((name, mains.iter().map(|p| PackRef::Path(display(p))).collect()));
        } else if path.extension().is_some_and(|e| e == "rules") {
            cases.push((name, vec![PackRef::Path(display(&path))]));
        }
    }
    cases
}

#[test]
fn every_case_renders_its_golden_diagnostics() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut failures = Vec::new();
    let mut codes_seen = BTreeSet::new();
    let cases = cases();
    assert!(cases.len() >= 20, "only {} cases", cases.len());
    for (name, refs) in &cases {
        let error = match load(refs) {
            Ok(_) => {
                failures.push(format!("{name}: loaded without errors"));
                continue;
            }
            Err(e) => e,
        };
        let first = error.diagnostics[0].code;
        let prefix = format!("e{:04}", first.number());
        if !name.starts_with(&prefix) {
            failures.push(format!(
                "{name}: first diagnostic is {first}, but the case name says otherwise"
            ));
        }
        codes_seen.extend(error.diagnostics.iter().map(|d| d.code));
        let actual = error.render();
        let golden = PathBuf::from(DIR).join(format!("{name}.stderr"));
        if update {
            std::fs::write(&golden, &actual).unwrap();
            continue;
        }
        match std::fs::read_to_string(&golden) {
            Ok(expected) if expected == actual => {}
            Ok(expected) => failures.push(format!(
                "{name}: diagnostics differ\n--- expected ({})\n{expected}\n--- actual\n{actual}",
                golden.display()
            )),
            Err(_) => failures.push(format!(
                "{name}: no golden file {}; run with UPDATE_GOLDEN=1",
                golden.display()
            )),
        }
    }
    let missing: Vec<String> = Code::ALL
        .iter()
        .filter(|c| !codes_seen.contains(c))
        .map(|c| c.to_string())
        .collect();
    if !missing.is_empty() {
        failures.push(format!("no case produces {}", missing.join(", ")));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_golden_file_has_a_case() {
    let names: BTreeSet<String> = cases().into_iter().map(|(n, _)| n).collect();
    for entry in std::fs::read_dir(DIR).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "stderr") {
            let stem = path.file_stem().unwrap().to_string_lossy().to_string();
            assert!(names.contains(&stem), "{} has no case", path.display());
        }
    }
}
