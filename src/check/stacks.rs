//! Tile stacks: `stack NAME before|after OTHER` declarations, their draw
//! order, and resolving a stack's name (`in STACK`, `draw tile from STACK`).
//! `main` is the implicit stack of every tile declared without `in`.

use super::names::{Namespace, Visibility};
use crate::diagnostic::{did_you_mean, Code, Diagnostic};
use crate::source::Span;
use crate::syntax::ast::{self, Ident, Item};

/// The name of the implicit stack.
pub(crate) const MAIN: &str = "main";

/// Every stack of the load, with its place in the draw order.
pub(crate) struct Stacks {
    /// Declared stacks (ids are declaration order, `main` not among them).
    names: Namespace,
    /// Draw position of `main`, then of each declared stack by id.
    position: Vec<u16>,
    /// Names in draw order.
    pub(crate) order: Vec<String>,
}

impl Stacks {
    /// Reads every `stack` declaration in load order and orders the stacks:
    /// each declaration puts its stack before or after another; among stacks
    /// the declarations leave unordered, `main` comes first, then the others
    /// in declaration order.
    pub(crate) fn declare(
        order: &[usize],
        asts: &[Option<&ast::File>],
        vis: &Visibility,
        diags: &mut Vec<Diagnostic>,
    ) -> Stacks {
        let mut names = Namespace::new("stack");
        let mut decls: Vec<(usize, &ast::StackDecl)> = Vec::new();
        for &u in order {
            let Some(file) = asts[u] else { continue };
            for item in &file.items {
                let Item::Stack(s) = item else { continue };
                if s.name.name == MAIN {
                    diags.push(
                        Diagnostic::new(
                            Code::ImplicitStack,
                            "the stack `main` is implicit and cannot be declared",
                        )
                        .at(s.name.span, "declared here")
                        .note(format!(
                            "order the other stack instead: `stack {} {} main`",
                            s.other.name,
                            if s.before { "after" } else { "before" }
                        )),
                    );
                    continue;
                }
                if names.declare(&s.name, u, decls.len() as u16 + 1, diags) {
                    decls.push((u, s));
                }
            }
        }
        // Node 0 is `main`, node i + 1 the i-th declared stack; an edge a -> b
        // says a is drawn before b.
        let n = decls.len() + 1;
        let mut edges: Vec<(usize, usize, Span)> = Vec::new();
        let mut partial = Stacks {
            names,
            position: Vec::new(),
            order: Vec::new(),
        };
        for (i, (u, s)) in decls.iter().enumerate() {
            let Some(other) = partial.node(&s.other, *u, vis, diags) else {
                continue;
            };
            let me = i + 1;
            let (a, b) = if s.before { (me, other) } else { (other, me) };
            edges.push((a, b, s.name.span));
        }
        let mut indegree = vec![0usize; n];
        for &(_, b, _) in &edges {
            indegree[b] += 1;
        }
        let mut done = vec![false; n];
        let mut sequence = Vec::with_capacity(n);
        while let Some(next) = (0..n).find(|&x| !done[x] && indegree[x] == 0) {
            done[next] = true;
            sequence.push(next);
            for &(a, b, _) in &edges {
                if a == next {
                    indegree[b] -= 1;
                }
            }
        }
        if sequence.len() < n {
            let stuck: Vec<&(usize, usize, Span)> = edges.iter().filter(|(a, b, _)| !done[*a] && !done[*b]).collect();
            let names: Vec<String> = (1..n)
                .filter(|&x| !done[x])
                .map(|x| format!("`{}`", decls[x - 1].1.name.name))
                .collect();
            let mut d = Diagnostic::new(
                Code::StackCycle,
                format!("the stacks {} are ordered in a circle", names.join(", ")),
            );
            for (k, (_, _, span)) in stuck.iter().enumerate() {
                d = if k == 0 {
                    d.at(*span, "ordered here")
                } else {
                    d.also(*span, "and here")
                };
            }
            diags.push(d.note("no draw order puts each of these stacks where its declaration asks; drop or turn round one `before`/`after`"));
            // Still give every stack a place, so later checks can go on.
            sequence.extend((0..n).filter(|&x| !done[x]));
        }
        let mut position = vec![0u16; n];
        for (p, &x) in sequence.iter().enumerate() {
            position[x] = p as u16;
        }
        partial.order = sequence
            .iter()
            .map(|&x| {
                if x == 0 {
                    MAIN.to_string()
                } else {
                    decls[x - 1].1.name.name.clone()
                }
            })
            .collect();
        partial.position = position;
        partial
    }

    /// The node of a stack name (0 for `main`), reporting unknown and invisible names.
    fn node(&self, ident: &Ident, unit: usize, vis: &Visibility, diags: &mut Vec<Diagnostic>) -> Option<usize> {
        if ident.name == MAIN {
            return Some(0);
        }
        if self.names.get(&ident.name).is_none() {
            let candidates = self.names.visible_names(unit, vis).chain(std::iter::once(MAIN));
            diags.push(
                Diagnostic::new(Code::UnknownStack, format!("unknown tile stack `{}`", ident.name))
                    .at(ident.span, "no stack has this name")
                    .maybe_note(did_you_mean(&ident.name, candidates))
                    .note(
                        "declare it with `stack NAME before main` (or `after main`); tiles without `in` are in `main`",
                    ),
            );
            return None;
        }
        self.names.lookup(ident, unit, vis, diags).map(usize::from)
    }

    /// The stack named `ident` as a draw position (the id the IR uses).
    pub(crate) fn resolve(
        &self,
        ident: &Ident,
        unit: usize,
        vis: &Visibility,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<u16> {
        self.node(ident, unit, vis, diags).map(|x| self.position[x])
    }

    /// The draw position of `main`.
    pub(crate) fn main(&self) -> u16 {
        self.position[0]
    }
}
