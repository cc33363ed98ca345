//! Name tables: one namespace per sort of thing, with duplicate detection,
//! visibility through `requires`, and "did you mean" suggestions.

use crate::diagnostic::{did_you_mean, Code, Diagnostic};
use crate::source::Span;
use crate::syntax::ast::Ident;

/// One declared name.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    pub(crate) name: String,
    /// The unit (file) that declared it.
    pub(crate) unit: usize,
    pub(crate) span: Span,
    pub(crate) id: u16,
}

/// Most names of one sort a load may declare, so that ids fit their types.
pub(crate) const MAX_NAMES: usize = 10_000;

/// All names of one sort (feature kinds, tiles, ...).
#[derive(Debug)]
pub(crate) struct Namespace {
    /// What the names are, for messages ("feature kind").
    pub(crate) what: &'static str,
    pub(crate) entries: Vec<Entry>,
    index: std::collections::HashMap<String, usize>,
}

/// Which units each unit may see: itself and every pack it requires, transitively.
pub(crate) struct Visibility {
    pub(crate) visible: Vec<Vec<bool>>,
    pub(crate) pack_names: Vec<String>,
}

impl Visibility {
    /// Whether declarations of `target` may be used from `from`.
    pub(crate) fn sees(&self, from: usize, target: usize) -> bool {
        self.visible[from][target]
    }
}

impl Namespace {
    /// An empty namespace.
    pub(crate) fn new(what: &'static str) -> Namespace {
        Namespace {
            what,
            entries: Vec::new(),
            index: Default::default(),
        }
    }

    /// The entry named `name`.
    pub(crate) fn get(&self, name: &str) -> Option<&Entry> {
        self.index.get(name).map(|i| &self.entries[*i])
    }

    /// The id given to the declaration `ident` (not to an earlier one of the same name).
    pub(crate) fn declared(&self, ident: &Ident) -> Option<u16> {
        self.get(&ident.name).filter(|e| e.span == ident.span).map(|e| e.id)
    }

    /// Declares a name; a second declaration is reported and ignored.
    pub(crate) fn declare(&mut self, ident: &Ident, unit: usize, id: u16, diags: &mut Vec<Diagnostic>) -> bool {
        if let Some(first) = self.get(&ident.name) {
            diags.push(
                Diagnostic::new(
                    Code::Duplicate,
                    format!("{} `{}` is defined twice", self.what, ident.name),
                )
                .at(ident.span, "defined again here")
                .also(first.span, "first defined here")
                .note(match self.what {
                    "tile" => format!(
                        "rename one of them; to change a tile of another pack use `extend tile {}` or `replace tile {}`",
                        ident.name, ident.name
                    ),
                    "action" => "rename one of them; a card played from the hand is an action of the card's name".into(),
                    _ => "rename one of them".into(),
                }),
            );
            return false;
        }
        if self.entries.len() >= MAX_NAMES {
            diags.push(
                Diagnostic::new(Code::NumberOutOfRange, format!("too many {}s", self.what))
                    .at(ident.span, format!("{} number {}", self.what, MAX_NAMES + 1))
                    .note(format!("a load may declare at most {MAX_NAMES} of each sort of name")),
            );
            return false;
        }
        self.index.insert(ident.name.clone(), self.entries.len());
        self.entries.push(Entry {
            name: ident.name.clone(),
            unit,
            span: ident.span,
            id,
        });
        true
    }

    /// Resolves a use of a name from `unit`, reporting unknown and invisible names.
    pub(crate) fn lookup(
        &self,
        ident: &Ident,
        unit: usize,
        vis: &Visibility,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<u16> {
        match self.get(&ident.name) {
            Some(e) if vis.sees(unit, e.unit) => Some(e.id),
            Some(e) => {
                let pack = &vis.pack_names[e.unit];
                diags.push(
                    Diagnostic::new(
                        Code::NotRequired,
                        format!(
                            "{} `{}` is declared in pack `{pack}`, which this pack does not require",
                            self.what, ident.name
                        ),
                    )
                    .at(ident.span, "used here")
                    .also(e.span, format!("declared in `{pack}` here"))
                    .note(if vis.sees(e.unit, unit) {
                        // Requiring it would close a cycle (E0008).
                        format!(
                            "`{pack}` requires this pack, so this pack cannot require `{pack}`; move the declaration of `{}` into this pack, or into a pack that both require",
                            ident.name
                        )
                    } else {
                        format!("add `requires {pack}` to the header of this file")
                    }),
                );
                None
            }
            None => {
                diags.push(self.unknown(ident, unit, vis));
                None
            }
        }
    }

    /// The "unknown name" diagnostic, with a suggestion among visible names.
    pub(crate) fn unknown(&self, ident: &Ident, unit: usize, vis: &Visibility) -> Diagnostic {
        self.unknown_or(ident, unit, vis, &[])
    }

    /// The "unknown name" diagnostic, with a suggestion among visible names
    /// and `others`, the words that could also stand at this place.
    pub(crate) fn unknown_or(&self, ident: &Ident, unit: usize, vis: &Visibility, others: &[&str]) -> Diagnostic {
        let candidates = self.visible_names(unit, vis).chain(others.iter().copied());
        Diagnostic::new(Code::UnknownName, format!("unknown {} `{}`", self.what, ident.name))
            .at(ident.span, format!("no {} has this name", self.what))
            .maybe_note(did_you_mean(&ident.name, candidates))
    }

    /// Names visible from `unit`.
    pub(crate) fn visible_names<'a>(&'a self, unit: usize, vis: &'a Visibility) -> impl Iterator<Item = &'a str> + 'a {
        self.entries
            .iter()
            .filter(move |e| vis.sees(unit, e.unit))
            .map(|e| e.name.as_str())
    }
}

/// A word a rule reads as the language's own wherever a name stands.
const NOTHING: &str = "none";

/// Words that a call reaches as an expression of the language's own
/// (`count(x in ...)`, `if ... then`), before a function with a value.
const CALL_WORDS: &[&str] = &["count", "if"];

/// What a rule would read instead of a declared name, if anything: `none`
/// (or, for a function with a value, `count` and `if`), a global
/// built-in, or a feature's built-in (read by its bare name inside a kind's
/// clauses); with the label and where.
fn taken_by_language(name: &str, called: bool) -> Option<(String, String)> {
    use crate::ir::expr::{Builtin, Receiver};
    if name == NOTHING || (called && CALL_WORDS.contains(&name)) {
        Some((
            format!("`{name}` is a word of the language"),
            "a rule reads the language's".into(),
        ))
    } else if Builtin::find(Receiver::Global, name).is_some() {
        Some((format!("`{name}` is a built-in"), "a rule reads the built-in".into()))
    } else if Builtin::find(Receiver::Feature, name).is_some() {
        Some((
            format!("`{name}` is a feature's built-in"),
            "inside a kind's clauses (`score completed = ...`), a rule reads the feature's own".into(),
        ))
    } else {
        None
    }
}

/// E0064: names a rule could not reach, or that would hide the language's,
/// because the language or another declaration answers to them first.
/// `bare` are the namespaces whose names a rule reads bare, in the order a
/// rule looks a name up in them (kinds, markers, icons, figures, cards,
/// decks, spots); `vars` with each variable's scope (game variables are
/// read bare, after those, and player and feature ones as `p.NAME`,
/// `c.NAME`, before the built-ins; `None` for a declaration already
/// refused); `fns` with whether each gives a value (a call for a value
/// reaches the built-ins first, a call of effects only functions). `vis`
/// tells a clash within what one pack sees from one between packs that do
/// not require each other.
pub(crate) fn taken(
    bare: &[&Namespace],
    vars: &Namespace,
    scope_of: impl Fn(u16) -> Option<crate::ir::program::VarScope>,
    fns: &Namespace,
    gives_value: impl Fn(u16) -> bool,
    vis: &Visibility,
    diags: &mut Vec<Diagnostic>,
) {
    use crate::ir::expr::{Builtin, Receiver};
    use crate::ir::geometry::COMPASS_NAMES;
    use crate::ir::program::VarScope;
    let rename = |e: &Entry| format!("give it another name, such as `my_{}`", e.name);
    let language = |what: &str, e: &Entry, (why, reads): (String, String), called: bool| {
        let used = if called {
            format!("`{}(...)`", e.name)
        } else {
            format!("`{}`", e.name)
        };
        Diagnostic::new(
            Code::NameTaken,
            format!("{what} `{}` has a name the language uses", e.name),
        )
        .at(e.span, why)
        .note(format!("{reads} {used}, not this {what}; {}", rename(e)))
    };
    // Names read bare, in the order a rule looks for them: the first of
    // each name is the one a rule reads.
    let read_bare = bare
        .iter()
        .flat_map(|ns| ns.entries.iter().map(move |e| (ns.what, e)))
        .chain(
            vars.entries
                .iter()
                .filter(|e| scope_of(e.id) == Some(VarScope::Game))
                .map(|e| ("variable", e)),
        );
    let mut first: std::collections::HashMap<&str, (&str, &Entry)> = Default::default();
    for (what, e) in read_bare {
        if let Some(taken) = taken_by_language(&e.name, false) {
            diags.push(language(what, e, taken, false));
        } else if COMPASS_NAMES.contains(&e.name.as_str()) {
            // The compass points are looked up after every declared name.
            diags.push(
                Diagnostic::new(
                    Code::NameTaken,
                    format!("{what} `{}` would hide the compass point `{}`", e.name, e.name),
                )
                .at(e.span, format!("`{}` is a compass point", e.name))
                .note(format!(
                    "every rule of the load would read this {what} where it means the direction `{}`; {}",
                    e.name,
                    rename(e)
                )),
            );
        } else if let Some(&(other, earlier)) = first.get(e.name.as_str()) {
            diags.push(
                Diagnostic::new(
                    Code::NameTaken,
                    format!("{what} `{}` has the name of the {other} `{}`", e.name, e.name),
                )
                .at(
                    e.span,
                    // A pack that cannot see the other declaration still
                    // meets it first, and is refused for naming it (E0005).
                    if vis.sees(e.unit, earlier.unit) {
                        format!("a rule reads a bare `{}` as the {other}", e.name)
                    } else {
                        format!(
                            "a bare `{}` in this pack's rules names the {other} of pack `{}`, which it does not require (E0005), never this {what}",
                            e.name, vis.pack_names[earlier.unit]
                        )
                    },
                )
                .also(earlier.span, format!("the {other} `{}`", e.name))
                .note(format!("rename one of the two, such as `my_{}`", e.name)),
            );
        } else {
            first.insert(&e.name, (what, e));
        }
    }
    for e in &vars.entries {
        let (receiver, whose, of) = match scope_of(e.id) {
            None | Some(VarScope::Game) => continue,
            Some(VarScope::Player) => (Receiver::Player, "a player's", "p"),
            Some(VarScope::Feature) => (Receiver::Feature, "a feature's", "c"),
        };
        if Builtin::find(receiver, &e.name).is_some() {
            diags.push(
                Diagnostic::new(
                    Code::NameTaken,
                    format!("variable `{}` hides {whose} built-in `{}`", e.name, e.name),
                )
                .at(e.span, format!("`{}` is {whose} built-in", e.name))
                .note(format!(
                    "`{of}.{}` would read and set this variable, and the built-in could no longer be read; {}",
                    e.name,
                    rename(e)
                )),
            );
        }
    }
    for e in fns.entries.iter().filter(|e| gives_value(e.id)) {
        if let Some(taken) = taken_by_language(&e.name, true) {
            diags.push(language("function", e, taken, true));
        }
    }
}
