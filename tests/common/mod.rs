//! Helpers shared by integration tests (`mod common;` in each; a test
//! file uses some of them, so the others are allowed to go unused there).

use meeple::{load, PackRef, Rules};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The six seed mini-expansions together (with the base game and the
/// Winter Edition they require).
#[allow(dead_code, reason = "used by some of the test files that share this module")]
pub const ALL_SEED_PACKS: [&str; 6] = [
    "winter",
    "gingerbread_man",
    "abbot",
    "wind_roses",
    "the_gifts",
    "christmas_present",
];

/// The bundled packs named, loaded and checked together (a load error is
/// shown whole).
#[allow(dead_code, reason = "used by some of the test files that share this module")]
pub fn bundled_rules(names: &[&str]) -> Arc<Rules> {
    let refs: Vec<PackRef> = names.iter().map(|n| PackRef::Bundled(n.to_string())).collect();
    loaded(&refs)
}

/// The bundled base pack with a pack written as `text` (named `name`) over
/// it, loaded and checked together (a load error is shown whole).
#[allow(dead_code, reason = "used by some of the test files that share this module")]
pub fn rules_over_base(name: &str, text: &str) -> Arc<Rules> {
    let refs = [
        PackRef::Bundled("base".into()),
        PackRef::Text {
            name: name.into(),
            text: text.into(),
        },
    ];
    loaded(&refs)
}

/// The packs `refs` loaded and checked together (a load error is shown whole).
fn loaded(refs: &[PackRef]) -> Arc<Rules> {
    Arc::new(Rules::new(load(refs).unwrap_or_else(|e| panic!("{}", e.render()))))
}

/// Every scenario record (`.ron`) under `tests/scenarios/`, in a stable order.
#[allow(dead_code, reason = "used by some of the test files that share this module")]
pub fn scenario_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("a readable entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "ron") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios"), &mut out);
    out
}
