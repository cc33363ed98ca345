//! Unknown names that a missing `requires` explains. A pack that forgets
//! `requires base` uses every base name without seeing it; instead of one
//! "unknown name" error per use, it gets one error per missing requirement,
//! naming the pack that declares the names and the line to add.

use super::load::Unit;
use super::names::Visibility;
use crate::bundled::{bundled, bundled_names};
use crate::diagnostic::{suggest, Code, Diagnostic};
use crate::source::{FileId, Sources, Span};
use crate::syntax::ast::{self, Item, TileMode};
use crate::syntax::parse_file;
use std::collections::HashMap;
use std::sync::OnceLock;

/// Most uses labelled in one error; the rest are counted in a note.
const MAX_LABELS: usize = 10;

/// The file id given to a bundled pack parsed only to read its names, until
/// a label points into it and it joins the sources.
const NOT_ADDED: FileId = FileId::MAX;

/// A pack that may declare the names: a loaded unit, or a bundled pack that
/// was not loaded.
#[derive(Clone)]
struct Candidate {
    name: String,
    unit: Option<usize>,
    /// The text of a bundled pack, to add to the sources when labelled.
    text: Option<&'static str>,
    /// `(what, name, span)` of each declaration.
    decls: Vec<(&'static str, String, Span)>,
    /// The packs this one requires, directly.
    requires: Vec<String>,
}

/// One unknown-name error that a missing requirement might explain.
struct Use {
    diag: usize,
    unit: usize,
    name: String,
    span: Span,
    /// Only functions and variables are reached as properties or calls.
    callable_only: bool,
}

/// The names a file declares, with what each names ("feature kind").
pub(crate) fn declarations(file: &ast::File) -> Vec<(&'static str, &ast::Ident)> {
    file.items
        .iter()
        .filter_map(|item| match item {
            Item::Feature(f) => Some(("feature kind", &f.name)),
            Item::Figure(f) => Some(("figure", &f.name)),
            Item::Marker(m) => Some(("marker", &m.name)),
            Item::Icon(i) => Some(("icon", &i.name)),
            Item::Tile(t) if t.mode == TileMode::Define => Some(("tile", &t.name)),
            Item::Var(v) => Some(("variable", &v.name)),
            Item::Fn(f) => Some(("function", &f.name)),
            Item::Action(a) => Some(("action", &a.name)),
            Item::Deck(d) => Some(("deck", &d.name)),
            Item::Card(c) => Some(("card", &c.name)),
            Item::Stack(s) => Some(("stack", &s.name)),
            Item::Spot { name, .. } => Some(("spot", name)),
            Item::Tile(_)
            | Item::Start(_)
            | Item::Forbid(_)
            | Item::Handler(_)
            | Item::HandLimit(..)
            | Item::Style(_)
            | Item::ExtendFeature(..)
            | Item::ExtendFigure(..) => None,
        })
        .collect()
}

fn is_name(text: &str) -> bool {
    text.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Replaces the unknown-name errors that a missing `requires` explains with
/// one error per file and missing pack. When the file names a pack that was
/// not found and is a misspelling of that pack (`requires bsae`), the names
/// are mentioned on that error instead.
pub(crate) fn explain(diags: &mut Vec<Diagnostic>, units: &[Unit], vis: &Visibility, sources: &mut Sources) {
    let uses: Vec<Use> = diags
        .iter()
        .enumerate()
        .filter(|(_, d)| matches!(d.code, Code::UnknownName | Code::NotRequired | Code::UnknownProperty))
        .filter_map(|(i, d)| {
            let span = d.primary.as_ref()?.0;
            let unit = units.iter().position(|u| u.file == span.file && u.ast.is_some())?;
            let name = sources.slice(span);
            is_name(name).then(|| Use {
                diag: i,
                unit,
                name: name.to_string(),
                span,
                callable_only: d.code == Code::UnknownProperty,
            })
        })
        .collect();
    if uses.is_empty() {
        return;
    }
    let candidates = candidates(units);
    // The packs that could explain each use.
    let options: Vec<Vec<usize>> = uses
        .iter()
        .map(|u| {
            let Some(header) = units[u.unit].ast.as_ref().map(|a| &a.header) else {
                return Vec::new();
            };
            let seen = candidates
                .iter()
                .any(|c| c.unit.is_some_and(|v| vis.sees(u.unit, v)) && c.decls.iter().any(|d| d.1 == u.name));
            if seen {
                // Declared where this file sees it: the error is about something else.
                return Vec::new();
            }
            (0..candidates.len())
                .filter(|&c| {
                    let cand = &candidates[c];
                    let usable = match cand.unit {
                        // Requiring a pack that requires this one would close a cycle.
                        Some(v) => !vis.sees(u.unit, v) && !vis.sees(v, u.unit),
                        None => !cand.requires.contains(&header.name.name),
                    };
                    // A pack the file already requires failed to load; that error says why.
                    let required = header.requires.iter().any(|r| r.name == cand.name);
                    usable && !required && cand.name != header.name.name && declares(cand, u).is_some()
                })
                .collect()
        })
        .collect();
    // Each use goes to the pack that explains most uses of its file; loaded packs first.
    let mut explained: HashMap<(usize, usize), usize> = HashMap::new();
    for (u, o) in uses.iter().zip(&options) {
        for &c in o {
            *explained.entry((u.unit, c)).or_default() += 1;
        }
    }
    let choice: Vec<Option<usize>> = uses
        .iter()
        .zip(&options)
        .map(|(u, o)| {
            o.iter().copied().max_by_key(|&c| {
                let count = explained.get(&(u.unit, c)).copied().unwrap_or(0);
                (count, candidates[c].unit.is_some(), std::cmp::Reverse(c))
            })
        })
        .collect();
    let mut groups: Vec<(usize, usize, Vec<&Use>)> = Vec::new();
    for (u, c) in uses.iter().zip(&choice) {
        let Some(c) = *c else { continue };
        match groups.iter_mut().find(|(unit, cand, _)| *unit == u.unit && *cand == c) {
            Some((_, _, members)) => members.push(u),
            None => groups.push((u.unit, c, vec![u])),
        }
    }
    let mut remove = vec![false; diags.len()];
    let mut added: Vec<(usize, FileId)> = Vec::new();
    for (unit, c, mut members) in groups {
        let cand = &candidates[c];
        let Some(header) = units[unit].ast.as_ref().map(|a| &a.header) else {
            continue;
        };
        members.sort_by_key(|m| m.span.start);
        let mut names: Vec<&str> = Vec::new();
        for m in &members {
            if !names.contains(&m.name.as_str()) {
                names.push(&m.name);
            }
        }
        // A misspelt requirement of this pack (`requires bsae`) explains the names.
        let misspelt = diags.iter().position(|d| {
            d.code == Code::MissingPack
                && d.primary.as_ref().is_some_and(|(span, _)| {
                    span.file == units[unit].file && suggest(sources.slice(*span), [cand.name.as_str()]).is_some()
                })
        });
        if let Some(j) = misspelt {
            let note = format!("`{}` declares {}, which this file uses", cand.name, quoted_list(&names));
            diags[j].notes.push(note);
            for m in &members {
                remove[m.diag] = true;
            }
            continue;
        }
        let Some((first, (what, _, decl_span))) = members.first().and_then(|m| Some((*m, declares(cand, m)?))) else {
            continue;
        };
        let decl_span = match (cand.text, cand.unit) {
            (Some(text), None) => {
                let file = match added.iter().find(|(k, _)| *k == c) {
                    Some((_, file)) => *file,
                    None => {
                        let file = sources.add(format!("rules/{}.rules", cand.name), text);
                        added.push((c, file));
                        file
                    }
                };
                Span { file, ..*decl_span }
            }
            _ => *decl_span,
        };
        let pack = &cand.name;
        let mut d = Diagnostic::new(
            Code::NotRequired,
            format!(
                "{what} `{}` is declared in pack `{pack}`, which this pack does not require",
                first.name
            ),
        )
        .at(first.span, "used here");
        for m in members.iter().skip(1).take(MAX_LABELS) {
            d = d.also(m.span, "");
        }
        d = d.also(decl_span, format!("declared in `{pack}` here"));
        d = d.note(match header.requires.as_slice() {
            [] => format!("add `requires {pack}` to the header of this file"),
            reqs => {
                let line: Vec<&str> = reqs.iter().map(|r| r.name.as_str()).collect();
                format!(
                    "add `{pack}` to the `requires` line of this file: `requires {}, {pack}`",
                    line.join(", ")
                )
            }
        });
        if names.len() > 1 {
            d = d.note(format!(
                "`{pack}` also declares {}, used in this file",
                quoted_list(&names[1..])
            ));
        }
        match members.len().saturating_sub(MAX_LABELS + 1) {
            0 => {}
            1 => d = d.note("one more use is not underlined"),
            n => d = d.note(format!("{n} more uses are not underlined")),
        }
        // The error takes the place of the first one it replaces.
        let kept = members.iter().map(|m| m.diag).min().unwrap_or(first.diag);
        diags[kept] = d;
        for m in &members {
            remove[m.diag] = m.diag != kept;
        }
    }
    let mut i = 0;
    diags.retain(|_| {
        i += 1;
        !remove[i - 1]
    });
}

/// The declaration in `c` that `u` could mean.
fn declares<'c>(c: &'c Candidate, u: &Use) -> Option<&'c (&'static str, String, Span)> {
    c.decls
        .iter()
        .find(|(what, name, _)| *name == u.name && (!u.callable_only || matches!(*what, "function" | "variable")))
}

/// The loaded packs, then the bundled packs that were not loaded.
fn candidates(units: &[Unit]) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = units
        .iter()
        .enumerate()
        .filter_map(|(i, u)| {
            let ast = u.ast.as_ref()?;
            Some(Candidate {
                name: ast.header.name.name.clone(),
                unit: Some(i),
                text: None,
                decls: declarations(ast)
                    .into_iter()
                    .map(|(what, id)| (what, id.name.clone(), id.span))
                    .collect(),
                requires: ast.header.requires.iter().map(|r| r.name.clone()).collect(),
            })
        })
        .collect();
    for pack in bundled_declarations() {
        if out.iter().any(|c| c.name == pack.name) {
            continue;
        }
        out.push(pack.clone());
    }
    out
}

/// The declarations of every bundled pack, read once.
fn bundled_declarations() -> &'static [Candidate] {
    static TABLE: OnceLock<Vec<Candidate>> = OnceLock::new();
    TABLE.get_or_init(|| {
        bundled_names()
            .filter_map(|name| {
                let text = bundled(name)?;
                let ast = parse_file(NOT_ADDED, text).ok()?;
                Some(Candidate {
                    name: name.to_string(),
                    unit: None,
                    text: Some(text),
                    decls: declarations(&ast)
                        .into_iter()
                        .map(|(what, id)| (what, id.name.clone(), id.span))
                        .collect(),
                    requires: ast.header.requires.iter().map(|r| r.name.clone()).collect(),
                })
            })
            .collect()
    })
}

/// `a`, `` `a` and `b` ``, `` `a`, `b` and `c` ``.
fn quoted_list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}
