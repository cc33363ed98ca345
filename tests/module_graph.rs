//! The modules inside each part of the library (`src/engine/`, `src/ir/`,
//! `src/record/`, `src/check/`, ...) depend on each other in one direction:
//! a file that refers to a sibling (`use super::board`, `super::state::X`,
//! `crate::engine::eval`) is above it, and no chain of such references comes
//! back. The part's own root file (`src/engine.rs`, `src/record/mod.rs`),
//! which declares and re-exports the modules, is not a node of the graph,
//! but a name it re-exports (`crate::engine::Game`, `super::Game`) counts as
//! a reference to the module that defines it. Unit tests (from a file's
//! `#[cfg(test)]` on) are modules of their own and are not read.
//!
//! This test reads the sources, so a circle fails `cargo test` with the path
//! of the circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The sibling modules a file refers to, among `siblings`; a name the
/// part's root re-exports counts as its defining module (`exported`).
fn references(
    text: &str,
    part: &str,
    siblings: &BTreeSet<String>,
    exported: &BTreeMap<String, String>,
) -> BTreeSet<String> {
    // Comments may name modules freely; unit tests are modules of their own.
    let code: String = text
        .lines()
        .take_while(|l| l.trim() != "#[cfg(test)]")
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut found = BTreeSet::new();
    let prefixes = ["super::".to_string(), format!("crate::{part}::")];
    for prefix in &prefixes {
        let mut rest = code.as_str();
        while let Some(i) = rest.find(prefix.as_str()) {
            rest = &rest[i + prefix.len()..];
            let names: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
                // `super::{a::X, b, c::{Y, Z}}`: the first name of each member.
                let end = closing_brace(group);
                split_top_level(&group[..end])
                    .into_iter()
                    .map(|m| m.trim().split("::").next().unwrap_or("").trim())
                    .collect()
            } else {
                vec![rest
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .next()
                    .unwrap_or("")]
            };
            for name in names {
                if siblings.contains(name) {
                    found.insert(name.to_string());
                } else if let Some(module) = exported.get(name) {
                    found.insert(module.clone());
                }
            }
        }
    }
    found
}

/// The index of the brace that closes a group opened just before `s`.
fn closing_brace(s: &str) -> usize {
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return i,
            '}' => depth -= 1,
            _ => {}
        }
    }
    s.len()
}

/// The members of a `{...}` group, split at commas outside inner groups.
fn split_top_level(s: &str) -> Vec<&str> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// The names a part's root file re-exports (`pub use state::State;`,
/// `pub(crate) use ids::{PlacedId, Player};`), each with the module that
/// defines it.
fn re_exports(root: &str, siblings: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let code = root.replace('\n', " ");
    for statement in code.split(';') {
        let statement = statement.trim();
        let Some(rest) = ["pub use ", "pub(crate) use ", "pub(super) use "]
            .iter()
            .find_map(|p| statement.strip_prefix(p))
        else {
            continue;
        };
        let Some((module, items)) = rest.split_once("::") else {
            continue;
        };
        if !siblings.contains(module.trim()) {
            continue;
        }
        let items = items.trim().trim_start_matches('{').trim_end_matches('}');
        for item in split_top_level(items) {
            let name = item.trim().rsplit(" as ").next().unwrap_or("").trim();
            if !name.is_empty() && !name.contains("::") {
                out.insert(name.to_string(), module.trim().to_string());
            }
        }
    }
    out
}

/// The dependency graph of one part's modules: file stem → siblings it uses.
fn graph(part: &str) -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let dir = src.join(part);
    let root = std::fs::read_to_string(src.join(format!("{part}.rs")))
        .or_else(|_| std::fs::read_to_string(dir.join("mod.rs")))
        .unwrap_or_default();
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("readable folder").path();
        if path.extension().is_some_and(|e| e == "rs") {
            let stem = path
                .file_stem()
                .and_then(|s| s.to_str())
                .expect("UTF-8 names")
                .to_string();
            if stem != "mod" {
                files.insert(stem, std::fs::read_to_string(&path).expect("readable source"));
            }
        }
    }
    let siblings: BTreeSet<String> = files.keys().cloned().collect();
    let exported = re_exports(&root, &siblings);
    files
        .iter()
        .map(|(name, text)| {
            let mut uses = references(text, part, &siblings, &exported);
            uses.remove(name);
            (name.clone(), uses)
        })
        .collect()
}

/// A circle in the graph, as the path that closes it, if there is one.
fn circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == node) {
            let mut found = path[i..].to_vec();
            found.push(node.to_string());
            return Some(found);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(found) = visit(next, graph, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

/// Every part of the library that is a folder of modules.
fn parts() -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut parts: Vec<String> = std::fs::read_dir(&src)
        .expect("src/ is readable")
        .map(|e| e.expect("readable folder").path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().and_then(|n| n.to_str()).expect("UTF-8 names").to_string())
        .collect();
    parts.sort();
    parts
}

#[test]
fn no_part_of_the_library_imports_in_a_circle() {
    let parts = parts();
    for must in ["engine", "ir", "check"] {
        assert!(parts.iter().any(|p| p == must), "src/{must}/ is gone; update this test");
    }
    for part in parts {
        let graph = graph(&part);
        if let Some(found) = circle(&graph) {
            panic!(
                "modules of src/{part}/ import each other in a circle: {}; \
                 move what both need into a lower module",
                found.join(" → ")
            );
        }
    }
}

#[test]
fn the_checker_sees_circles_and_groups() {
    let siblings: BTreeSet<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
    let exported = re_exports(
        "mod a;\npub use a::{Alpha, Beta as B};\npub(crate) use c::Gamma;",
        &siblings,
    );
    assert_eq!(exported.get("Beta").map(String::as_str), None);
    assert_eq!(exported.get("B").map(String::as_str), Some("a"));
    assert_eq!(exported.get("Gamma").map(String::as_str), Some("c"));
    let uses = references(
        "use super::{a::X, b};\n// super::c is only a comment\nfn f() { crate::engine::c::g(); }",
        "engine",
        &siblings,
        &exported,
    );
    assert_eq!(uses, siblings);
    let through_root = references(
        "use crate::engine::Gamma;\nuse super::Alpha;",
        "engine",
        &siblings,
        &exported,
    );
    assert_eq!(through_root, BTreeSet::from(["a".to_string(), "c".to_string()]));
    let tests_only = references(
        "fn f() {}\n#[cfg(test)]\nmod tests { use super::b::X; }",
        "engine",
        &siblings,
        &exported,
    );
    assert!(tests_only.is_empty());
    let mut g = BTreeMap::new();
    g.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    g.insert("b".to_string(), BTreeSet::from(["c".to_string()]));
    g.insert("c".to_string(), BTreeSet::new());
    assert_eq!(circle(&g), None);
    g.get_mut("c").unwrap().insert("a".to_string());
    assert_eq!(circle(&g).map(|c| c.join(" ")), Some("a b c a".to_string()));
}
