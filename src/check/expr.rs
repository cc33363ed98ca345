//! Typing expressions: names resolved to locals, built-ins, variables, kinds,
//! markers, icons, figure types, functions and compass directions; every
//! operator checked; errors reported once, without cascades.

use super::names::{Namespace, Visibility};
use crate::diagnostic::{did_you_mean, Code, Diagnostic};
use crate::ir::expr::{Builtin, BuiltinDef, Expr, Receiver, Type};
use crate::ir::geometry::COMPASS_NAMES;
use crate::ir::program::{Var, VarScope};
use crate::ir::shared::Domain;
use crate::ir::{KindId, Topology};
use crate::syntax::ast::{self, BinOp, UnOp};

/// Most local variables (parameters, `let`, loop and `count` variables) one
/// handler, action, card or function may bind.
pub(crate) const MAX_LOCALS: usize = 4096;

/// Largest integer literal accepted in an expression.
const MAX_LITERAL: u32 = 1_000_000;

/// A checked expression: IR, type, and the feature kind when statically known.
#[derive(Clone, Debug)]
pub(crate) struct Typed {
    pub(crate) expr: Expr,
    pub(crate) ty: Type,
    pub(crate) kind: Option<KindId>,
}

impl Typed {
    fn new(expr: Expr, ty: Type) -> Typed {
        Typed { expr, ty, kind: None }
    }
}

/// A function's signature, once its declaration is checked.
#[derive(Clone, Debug)]
pub(crate) struct FnSig {
    pub(crate) params: Vec<Type>,
    /// `Some` for an expression function, `None` for an effect function.
    pub(crate) result: Option<Type>,
}

/// Every name an expression may use.
pub(crate) struct Names<'a> {
    pub(crate) kinds: &'a Namespace,
    pub(crate) markers: &'a Namespace,
    pub(crate) icons: &'a Namespace,
    pub(crate) figures: &'a Namespace,
    pub(crate) vars: &'a Namespace,
    pub(crate) decks: &'a Namespace,
    pub(crate) cards: &'a Namespace,
    pub(crate) fns: &'a Namespace,
    pub(crate) var_decls: &'a [Var],
    /// Signatures of functions checked so far, by function id.
    pub(crate) fn_sigs: &'a [Option<FnSig>],
    pub(crate) kind_topology: &'a [Topology],
    /// Tile stacks, for `draw tile from STACK`.
    pub(crate) stacks: &'a super::stacks::Stacks,
    /// Scoring reasons, shared with statements: a quoted text in an
    /// expression is interned as a reason.
    pub(crate) reasons: &'a std::cell::RefCell<Vec<String>>,
    pub(crate) spots: &'a Namespace,
}

/// Where an expression appears.
pub(crate) struct ExprScope<'a> {
    /// The feature kind whose clause this is (the implicit subject).
    pub(crate) subject: Option<(KindId, &'a str)>,
    /// Inside `complete when`, where `completed` would be circular.
    pub(crate) in_complete: bool,
    pub(crate) unit: usize,
    pub(crate) names: &'a Names<'a>,
    pub(crate) vis: &'a Visibility,
}

impl<'a> ExprScope<'a> {
    /// The scope of rules outside feature kinds: no implicit subject.
    pub(crate) fn plain(unit: usize, names: &'a Names<'a>, vis: &'a Visibility) -> ExprScope<'a> {
        ExprScope {
            subject: None,
            in_complete: false,
            unit,
            names,
            vis,
        }
    }

    /// A function's id and signature; an error when it is declared after the use.
    pub(crate) fn function(&self, func: &ast::Ident, diags: &mut Vec<Diagnostic>) -> Option<(u16, FnSig)> {
        let id = self.names.fns.lookup(func, self.unit, self.vis, diags)?;
        match self.names.fn_sigs.get(id as usize).cloned().flatten() {
            Some(sig) => Some((id, sig)),
            None => {
                diags.push(
                    Diagnostic::new(
                        Code::FnOrder,
                        format!("function `{}` is used before its declaration", func.name),
                    )
                    .at(func.span, "used here")
                    .also(self.names.fns.entries[id as usize].span, "declared here")
                    .note("a function may only call functions declared before it, so rules cannot recurse"),
                );
                None
            }
        }
    }
}

/// Local variables in scope, with their slots.
#[derive(Default, Debug)]
pub(crate) struct Locals {
    vars: Vec<(String, Type, Option<KindId>, u16)>,
    next: u16,
    /// In a handler, its event and how many of the event's parameters the
    /// handler names: an unknown name there may be one it left unnamed.
    event: Option<(crate::ir::program::EventKind, usize)>,
}

impl Locals {
    /// Binds a name to a fresh slot (slots beyond [`MAX_LOCALS`] are
    /// refused by the checker through [`Locals::overflowed`]).
    pub(crate) fn bind(&mut self, name: &str, ty: Type, kind: Option<KindId>) -> u16 {
        let slot = self.next;
        self.next = self.next.saturating_add(1);
        self.vars.push((name.to_string(), ty, kind, slot));
        slot
    }

    /// How many bindings are in scope (to restore with [`Locals::truncate`]).
    pub(crate) fn depth(&self) -> usize {
        self.vars.len()
    }

    /// Leaves the scopes opened since `depth`.
    pub(crate) fn truncate(&mut self, depth: usize) {
        self.vars.truncate(depth);
    }

    /// Slots used so far: the frame size a handler or function needs.
    pub(crate) fn slots(&self) -> u16 {
        self.next
    }

    /// Whether more variables were bound than a frame may hold.
    pub(crate) fn overflowed(&self) -> bool {
        usize::from(self.next) > MAX_LOCALS
    }

    /// Whether `name` is a local variable here.
    pub(crate) fn holds(&self, name: &str) -> bool {
        self.find(name).is_some()
    }

    fn find(&self, name: &str) -> Option<&(String, Type, Option<KindId>, u16)> {
        self.vars.iter().rev().find(|(n, ..)| n == name)
    }

    /// The names a rule may write (not the slots kept for unnamed event
    /// parameters and the like, whose names begin with `#`).
    fn names(&self) -> impl Iterator<Item = &str> {
        self.vars
            .iter()
            .map(|(n, ..)| n.as_str())
            .filter(|n| !n.starts_with('#'))
    }

    /// Marks these locals as a handler's of `event`, naming `named` of its
    /// parameters.
    pub(crate) fn in_handler(&mut self, event: crate::ir::program::EventKind, named: usize) {
        self.event = Some((event, named));
    }

    /// For a handler that names some of its event's parameters but not
    /// all, how to name the rest (for `name`, an unknown name there, which
    /// may be meant as one of them).
    fn unnamed_params(&self, name: &str) -> Option<String> {
        // (A handler that names none, `on turn_end { ... }`, is taken to
        // read none: an unknown name there is more likely a slip.)
        let (event, named) = self.event.filter(|&(_, named)| named > 0)?;
        let def = event.def();
        let rest = def.params.get(named..).filter(|r| !r.is_empty())?;
        let given: Vec<String> = self.vars.iter().take(named).map(|(n, ..)| n.clone()).collect();
        // The rest by the event's names for them, unless the handler
        // already uses one of those for another parameter.
        let mut head = given.clone();
        for (n, _) in rest {
            let mut free = (*n).to_string();
            while head.contains(&free) {
                free.push('2');
            }
            head.push(free);
        }
        let left: Vec<String> = rest.iter().map(|(n, t)| format!("`{n}` ({})", t.name())).collect();
        let left = match left.as_slice() {
            [init @ .., last] if !init.is_empty() => format!("{} or {last}", init.join(", ")),
            _ => left.join(""),
        };
        Some(format!(
            "if `{name}` is meant as {} of `{}`'s parameters this handler leaves unnamed, {left}, name it in the handler's head, as in `on {}({})`",
            if rest.len() == 1 { "the one" } else { "one" },
            def.name,
            def.name,
            head.join(", ")
        ))
    }
}

/// The reason id for a `reason "..."` (or a quoted text in an
/// expression), adding it when new.
pub(crate) fn reason_id(
    reasons: &std::cell::RefCell<Vec<String>>,
    name: &str,
    span: crate::source::Span,
    diags: &mut Vec<Diagnostic>,
) -> Option<u16> {
    let mut reasons = reasons.borrow_mut();
    match reasons.iter().position(|r| r == name) {
        Some(i) => Some(i as u16),
        None if reasons.len() >= super::names::MAX_NAMES => {
            diags.push(
                Diagnostic::new(Code::NumberOutOfRange, "too many scoring reasons")
                    .at(span, format!("reason number {}", super::names::MAX_NAMES + 1))
                    .note(format!("rules may name at most {} reasons", super::names::MAX_NAMES)),
            );
            None
        }
        None => {
            reasons.push(name.to_string());
            Some((reasons.len() - 1) as u16)
        }
    }
}

fn mismatch(span: crate::source::Span, want: Type, got: Type, place: &str) -> Diagnostic {
    Diagnostic::new(Code::TypeMismatch, format!("expected {}, found {}", want.a(), got.a()))
        .at(span, format!("this is {}", got.a()))
        .note(format!("{place} needs {}", want.a()))
}

/// [`mismatch`] for `expr`, with the built-in of a near name that gives the
/// type wanted when `expr` is a bare name (`tile` where `tiles`, an int, is
/// meant): a global one, or in a feature kind's clauses one of the feature's.
fn mismatch_of(scope: &ExprScope, expr: &ast::Expr, want: Type, got: Type, place: &str) -> Diagnostic {
    let near = match expr {
        ast::Expr::Name(id) => crate::diagnostic::suggest(
            &id.name,
            crate::ir::expr::BUILTINS
                .iter()
                .filter(|b| {
                    b.result == want
                        && b.name != id.name
                        && b.params.is_empty()
                        && (b.receiver == Receiver::Global
                            || (b.receiver == Receiver::Feature && scope.subject.is_some()))
                })
                .map(|b| b.name),
        ),
        _ => None,
    };
    mismatch(expr.span(), want, got, place)
        .maybe_note(near.map(|n| format!("did you mean `{n}` ({})?", want.a())))
        .maybe_note(quoting(expr, got, want))
}

/// A note for a value written with the wrong quoting: a declared name in
/// quotes where the name itself is meant (`c.kind == "city"`), or a bare
/// name where a reason, which is quoted, is meant (`reason city`).
fn quoting(expr: &ast::Expr, got: Type, want: Type) -> Option<String> {
    let a_name = |text: &str| {
        text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    match (expr, got, want) {
        // A kind's name is also the reason its points are scored under.
        (ast::Expr::Name(id), Type::Kind, Type::Reason) => {
            Some(format!("a reason is written in quotes: `\"{}\"`", id.name))
        }
        (
            ast::Expr::Str(text, _),
            Type::Reason,
            Type::Kind | Type::Marker | Type::FigureType | Type::Icon | Type::Card | Type::Deck | Type::Spot,
        ) if a_name(text) => Some(format!("{} is written by its name, without quotes: `{text}`", want.a())),
        _ => None,
    }
}

/// Checks `expr` and requires a value of type `want`.
pub(crate) fn check_expr(
    scope: &ExprScope,
    locals: &mut Locals,
    expr: &ast::Expr,
    want: Type,
    place: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Typed> {
    let typed = infer(scope, locals, expr, diags)?;
    if !want.accepts(typed.ty) {
        diags.push(mismatch_of(scope, expr, want, typed.ty, place));
        return None;
    }
    Some(typed)
}

/// Checks `expr` and returns whatever type it has.
pub(crate) fn infer(
    scope: &ExprScope,
    locals: &mut Locals,
    expr: &ast::Expr,
    diags: &mut Vec<Diagnostic>,
) -> Option<Typed> {
    Cx { scope, locals, diags }.expr(expr)
}

struct Cx<'a, 'l, 'd> {
    scope: &'a ExprScope<'a>,
    locals: &'l mut Locals,
    diags: &'d mut Vec<Diagnostic>,
}

impl Cx<'_, '_, '_> {
    fn expr(&mut self, expr: &ast::Expr) -> Option<Typed> {
        match expr {
            ast::Expr::Int(n) => {
                if n.value > MAX_LITERAL {
                    self.diags.push(
                        Diagnostic::new(Code::NumberOutOfRange, "number too large")
                            .at(n.span, format!("numbers are limited to {MAX_LITERAL}")),
                    );
                    return None;
                }
                Some(Typed::new(Expr::Int(i64::from(n.value)), Type::Int))
            }
            ast::Expr::Bool(b, _) => Some(Typed::new(Expr::Bool(*b), Type::Bool)),
            ast::Expr::Str(text, span) => {
                // A reason no rule pays is interned too: it never matches.
                let id = reason_id(self.scope.names.reasons, text, *span, self.diags)?;
                Some(Typed::new(Expr::Reason(id), Type::Reason))
            }
            ast::Expr::Name(id) => self.name(id),
            ast::Expr::Call { func, args, span } => self.call(func, args, *span),
            ast::Expr::Member { base, name, args, span } => {
                let base_t = self.expr(base)?;
                self.member(base_t, base.span(), name, args.as_ref(), *span)
            }
            ast::Expr::Unary { op, expr: inner, .. } => {
                let want = match op {
                    UnOp::Not => Type::Bool,
                    UnOp::Neg => Type::Int,
                };
                let t = self.expr(inner)?;
                if t.ty != want {
                    let place = if *op == UnOp::Not { "`not`" } else { "`-`" };
                    self.diags.push(mismatch(inner.span(), want, t.ty, place));
                    return None;
                }
                Some(Typed::new(Expr::Unary(*op, Box::new(t.expr)), want))
            }
            ast::Expr::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs),
            ast::Expr::If {
                cond, then, otherwise, ..
            } => self.if_expr(cond, then, otherwise),
            ast::Expr::Count {
                domain: d,
                var,
                list,
                filter,
                ..
            } => {
                let depth = self.locals.depth();
                let (first, second) = match d {
                    Some(d) => (d, Some(var)),
                    None => (var, None),
                };
                let bound = bind_range(
                    self.scope,
                    self.locals,
                    first,
                    second,
                    list.as_deref(),
                    filter.as_deref(),
                    "count",
                    self.diags,
                );
                self.locals.truncate(depth);
                let b = bound?;
                // A list's members are counted as they are; a domain is
                // narrowed to the list, or ranges in full.
                let mut domain = if d.is_some() { b.domain } else { None };
                let mut list = b.list;
                let mut listed = false;
                // `x in features` is the whole domain of features (the same
                // members, in the same order; charged as the list was).
                if domain.is_none()
                    && matches!(&list, Some(Expr::Query { builtin: Builtin::AllFeatures, of: None, args }) if args.is_empty())
                {
                    (domain, list, listed) = (Some(Domain::Features(None)), None, true);
                }
                let whole_board = list.is_none() && domain.is_some_and(Domain::is_board);
                let mut count = Expr::Count {
                    slot: b.slot,
                    domain,
                    list: list.map(Box::new),
                    filter: b.filter.map(Box::new),
                    memo: None,
                    listed,
                };
                // Remembered by the locals it reads (see `Expr::Count::memo`).
                if whole_board {
                    let free = count.free_slots();
                    if let Expr::Count { memo, .. } = &mut count {
                        *memo = free.map(Vec::into_boxed_slice);
                    }
                }
                Some(Typed::new(count, Type::Int))
            }
        }
    }

    fn name(&mut self, id: &ast::Ident) -> Option<Typed> {
        let s = self.scope;
        let n = s.names;
        if let Some((_, ty, kind, slot)) = self.locals.find(&id.name) {
            return Some(Typed {
                expr: Expr::Local(*slot),
                ty: *ty,
                kind: *kind,
            });
        }
        if id.name == "none" {
            return Some(Typed::new(Expr::Nothing, Type::Nothing));
        }
        if let Some((kind, _)) = s.subject {
            if let Some(def) = Builtin::find(Receiver::Feature, &id.name) {
                return self.query(def, Some((Expr::Subject, Some(kind))), id, None, id.span);
            }
        }
        if let Some(def) = Builtin::find(Receiver::Global, &id.name) {
            return self.query(def, None, id, None, id.span);
        }
        if n.kinds.get(&id.name).is_some() {
            let k = n.kinds.lookup(id, s.unit, s.vis, self.diags)?;
            return Some(Typed::new(Expr::Kind(k), Type::Kind));
        }
        if n.markers.get(&id.name).is_some() {
            let m = n.markers.lookup(id, s.unit, s.vis, self.diags)?;
            return Some(Typed::new(Expr::Marker(m), Type::Marker));
        }
        if n.icons.get(&id.name).is_some() {
            let i = n.icons.lookup(id, s.unit, s.vis, self.diags)?;
            return Some(Typed::new(Expr::Icon(i), Type::Icon));
        }
        if n.figures.get(&id.name).is_some() {
            let f = n.figures.lookup(id, s.unit, s.vis, self.diags)?;
            return Some(Typed::new(Expr::FigureType(f), Type::FigureType));
        }
        if n.cards.get(&id.name).is_some() {
            let c = n.cards.lookup(id, s.unit, s.vis, self.diags)?;
            return Some(Typed::new(Expr::Card(c), Type::Card));
        }
        if n.decks.get(&id.name).is_some() {
            let d = n.decks.lookup(id, s.unit, s.vis, self.diags)?;
            return Some(Typed::new(Expr::Deck(d), Type::Deck));
        }
        if n.spots.get(&id.name).is_some() {
            let d = n.spots.lookup(id, s.unit, s.vis, self.diags)?;
            return Some(Typed::new(Expr::Spot(d), Type::Spot));
        }
        if let Some(e) = n.vars.get(&id.name) {
            let var = &n.var_decls[e.id as usize];
            if var.scope == VarScope::Game {
                let v = n.vars.lookup(id, s.unit, s.vis, self.diags)?;
                return Some(Typed::new(Expr::GameVar(v), var.ty));
            }
            let of = if var.scope == VarScope::Player { "p" } else { "c" };
            self.diags.push(
                Diagnostic::new(
                    Code::UnknownName,
                    format!("`{}` belongs to each {}", id.name, var_scope_name(var.scope)),
                )
                .at(id.span, "used without one")
                .also(var.span, "declared here")
                .note(format!(
                    "write `{of}.{}` for the {}'s value",
                    id.name,
                    var_scope_name(var.scope)
                )),
            );
            return None;
        }
        if let Some(d) = COMPASS_NAMES.iter().position(|c| *c == id.name) {
            return Some(Typed::new(Expr::Direction(d as u8), Type::Direction));
        }
        let mut candidates: Vec<String> = self.locals.names().map(String::from).collect();
        candidates.extend(Builtin::names(Receiver::Global).map(String::from));
        if s.subject.is_some() {
            candidates.extend(Builtin::names(Receiver::Feature).map(String::from));
        }
        for ns in [
            n.kinds, n.markers, n.icons, n.figures, n.vars, n.cards, n.decks, n.spots,
        ] {
            candidates.extend(ns.visible_names(s.unit, s.vis).map(String::from));
        }
        let what = if s.subject.is_some() {
            "not a property, variable or declared name"
        } else {
            "not a variable, built-in or declared name"
        };
        self.diags.push(
            Diagnostic::new(Code::UnknownName, format!("unknown name `{}`", id.name))
                .at(id.span, what)
                .maybe_note(
                    did_you_mean(&id.name, candidates.iter().map(String::as_str))
                        .or_else(|| self.locals.unnamed_params(&id.name)),
                ),
        );
        None
    }

    /// `name(args)`: a global built-in, a feature query on the subject, or a function.
    fn call(&mut self, func: &ast::Ident, args: &[ast::Expr], span: crate::source::Span) -> Option<Typed> {
        let s = self.scope;
        if let Some(def) = Builtin::find(Receiver::Global, &func.name) {
            return self.query(def, None, func, Some(args), span);
        }
        if let Some((kind, _)) = s.subject {
            if let Some(def) = Builtin::find(Receiver::Feature, &func.name) {
                return self.query(def, Some((Expr::Subject, Some(kind))), func, Some(args), span);
            }
        }
        if s.names.fns.get(&func.name).is_some() {
            let (id, sig) = s.function(func, self.diags)?;
            let Some(result) = sig.result else {
                self.diags.push(
                    Diagnostic::new(
                        Code::TypeMismatch,
                        format!("`{}` has effects and gives no value", func.name),
                    )
                    .at(span, "used as a value")
                    .note(format!("call it as a statement: `{}(...)`", func.name)),
                );
                return None;
            };
            let args = self.args(&func.name, &sig.params, args, span)?;
            return Some(Typed::new(Expr::Call { func: id, args }, result));
        }
        let mut candidates: Vec<String> = Builtin::names(Receiver::Global).map(String::from).collect();
        candidates.extend(s.names.fns.visible_names(s.unit, s.vis).map(String::from));
        if s.subject.is_some() {
            candidates.extend(Builtin::names(Receiver::Feature).map(String::from));
        }
        self.diags.push(
            Diagnostic::new(Code::UnknownProperty, format!("unknown function `{}`", func.name))
                .at(func.span, "not a built-in or a function of the rules")
                .maybe_note(did_you_mean(&func.name, candidates.iter().map(String::as_str)))
                .note("docs/language.md lists the built-ins"),
        );
        None
    }

    fn member(
        &mut self,
        base: Typed,
        base_span: crate::source::Span,
        name: &ast::Ident,
        args: Option<&Vec<ast::Expr>>,
        span: crate::source::Span,
    ) -> Option<Typed> {
        let s = self.scope;
        let Some(receiver) = Receiver::of(base.ty) else {
            self.diags.push(
                Diagnostic::new(Code::TypeMismatch, format!("{} has no `.{}`", base.ty.a(), name.name))
                    .at(base_span, format!("this is {}", base.ty.a()))
                    .note("properties apply to features, figures, tiles, players and figure types"),
            );
            return None;
        };
        if let Some(e) = s.names.vars.get(&name.name) {
            let var = &s.names.var_decls[e.id as usize];
            let matches = matches!(
                (var.scope, receiver),
                (VarScope::Player, Receiver::Player) | (VarScope::Feature, Receiver::Feature)
            );
            if matches && args.is_none() {
                let v = s.names.vars.lookup(name, s.unit, s.vis, self.diags)?;
                return Some(Typed::new(
                    Expr::MemberVar {
                        var: v,
                        of: Box::new(base.expr),
                    },
                    var.ty,
                ));
            }
        }
        match Builtin::find(receiver, &name.name) {
            Some(def) => {
                let args = args.map(Vec::as_slice);
                self.query(def, Some((base.expr, base.kind)), name, args, span)
            }
            None => {
                // Player and feature variables are reached the same way as built-ins.
                let scope = match receiver {
                    Receiver::Player => Some(VarScope::Player),
                    Receiver::Feature => Some(VarScope::Feature),
                    _ => None,
                };
                let vars = s.names.vars.visible_names(s.unit, s.vis).filter(|v| {
                    let var = s.names.vars.get(v).and_then(|e| s.names.var_decls.get(e.id as usize));
                    scope.is_some() && var.map(|var| var.scope) == scope
                });
                let mut candidates: Vec<&str> = vars.collect();
                for builtin in Builtin::names(receiver) {
                    candidates.push(builtin);
                }
                self.diags.push(
                    Diagnostic::new(
                        Code::UnknownProperty,
                        format!("unknown property `{}` of {}", name.name, base.ty.a()),
                    )
                    .at(
                        name.span,
                        match scope {
                            Some(scope) => format!("not a built-in or a {} variable", var_scope_name(scope)),
                            None => "not a built-in".to_string(),
                        },
                    )
                    .maybe_note(did_you_mean(&name.name, candidates.iter().copied()))
                    .note("docs/language.md lists the built-ins"),
                );
                None
            }
        }
    }

    /// A built-in applied to an optional receiver (with its static kind).
    fn query(
        &mut self,
        def: &'static BuiltinDef,
        of: Option<(Expr, Option<KindId>)>,
        id: &ast::Ident,
        args: Option<&[ast::Expr]>,
        span: crate::source::Span,
    ) -> Option<Typed> {
        if self.scope.in_complete && def.builtin == Builtin::Completed {
            self.diags.push(
                Diagnostic::new(Code::UnknownProperty, "`completed` cannot be used in `complete when`")
                    .at(id.span, "completion would depend on completion")
                    .note("say when the feature is complete in terms of other properties, such as `open_edges == 0`"),
            );
            return None;
        }
        if let Some((_, Some(kind))) = &of {
            let topology = self.scope.names.kind_topology[*kind as usize];
            if !def.topologies.is_empty() && !def.topologies.contains(&topology) {
                let kind_name = &self.scope.names.kinds.entries[*kind as usize].name;
                self.diags.push(
                    Diagnostic::new(
                        Code::UnknownProperty,
                        format!(
                            "`{}` is not available on `{kind_name}`, which is {}",
                            def.name,
                            topology_words(topology)
                        ),
                    )
                    .at(id.span, "not available here")
                    .note(format!(
                        "`{}` applies to features that are {}",
                        def.name,
                        def.topologies
                            .iter()
                            .map(|t| topology_words(*t))
                            .collect::<Vec<_>>()
                            .join(" or ")
                    )),
                );
                return None;
            }
        }
        let given = args.unwrap_or(&[]);
        if args.is_none() && !def.params.is_empty() {
            self.diags.push(
                Diagnostic::new(
                    Code::Arity,
                    format!("`{}` takes {} argument(s)", def.name, def.params.len()),
                )
                .at(id.span, "called without arguments")
                .note(format!("for example: {}", def.example)),
            );
            return None;
        }
        if given.len() != def.params.len() {
            self.diags.push(
                Diagnostic::new(
                    Code::Arity,
                    format!(
                        "`{}` takes {} argument(s), {} given",
                        def.name,
                        def.params.len(),
                        given.len()
                    ),
                )
                .at(span, "wrong number of arguments")
                .note(format!("for example: {}", def.example)),
            );
            return None;
        }
        let args = self.args(def.name, def.params, given, span)?;
        // `t.feature(city)` is a city, as a binder's feature of a kind is:
        // a figure that cannot go on one is then refused (E0033).
        let kind = match (def.builtin, args.as_slice()) {
            (Builtin::TileFeature, [Expr::Kind(k)]) => Some(*k),
            _ => None,
        };
        Some(Typed {
            kind,
            ..Typed::new(
                Expr::Query {
                    builtin: def.builtin,
                    of: of.map(|(e, _)| Box::new(e)),
                    args,
                },
                def.result,
            )
        })
    }

    fn args(
        &mut self,
        name: &str,
        params: &[Type],
        args: &[ast::Expr],
        span: crate::source::Span,
    ) -> Option<Vec<Expr>> {
        if args.len() != params.len() {
            self.diags.push(
                Diagnostic::new(
                    Code::Arity,
                    format!("`{name}` takes {} argument(s), {} given", params.len(), args.len()),
                )
                .at(span, "wrong number of arguments"),
            );
            return None;
        }
        let mut out = Vec::with_capacity(args.len());
        let mut ok = true;
        for (a, want) in args.iter().zip(params) {
            match self.expr(a) {
                Some(t) if want.accepts(t.ty) => out.push(t.expr),
                Some(t) => {
                    self.diags
                        .push(mismatch(a.span(), *want, t.ty, &format!("this argument of `{name}`")));
                    ok = false;
                }
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    /// `if C then A else B`: a condition and two values of one type (or one
    /// of them `none` and the other a type that may be `none`).
    fn if_expr(&mut self, cond: &ast::Expr, then: &ast::Expr, otherwise: &ast::Expr) -> Option<Typed> {
        let c = self.expr(cond);
        let a = self.expr(then);
        let b = self.expr(otherwise);
        let (c, a, b) = (c?, a?, b?);
        if c.ty != Type::Bool {
            self.diags
                .push(mismatch(cond.span(), Type::Bool, c.ty, "the condition of `if`"));
            return None;
        }
        let ty = if a.ty.accepts(b.ty) {
            a.ty
        } else if b.ty.accepts(a.ty) {
            b.ty
        } else {
            self.diags.push(
                Diagnostic::new(
                    Code::TypeMismatch,
                    format!("the two values of `if` differ: {} and {}", a.ty.a(), b.ty.a()),
                )
                .at(otherwise.span(), format!("this is {}", b.ty.a()))
                .also(then.span(), format!("this is {}", a.ty.a()))
                .note("`if C then A else B` has one type: A and B must both be of it (or one of them `none`)"),
            );
            return None;
        };
        let kind = if a.kind == b.kind { a.kind } else { None };
        Some(Typed {
            expr: Expr::If {
                cond: Box::new(c.expr),
                then: Box::new(a.expr),
                otherwise: Box::new(b.expr),
            },
            ty,
            kind,
        })
    }

    fn binary(&mut self, op: BinOp, lhs: &ast::Expr, rhs: &ast::Expr) -> Option<Typed> {
        let l = self.expr(lhs);
        let r = self.expr(rhs);
        let (l, r) = (l?, r?);
        let (operand, result) = match op {
            BinOp::Or | BinOp::And => (Some(Type::Bool), Type::Bool),
            BinOp::Eq | BinOp::Ne => (None, Type::Bool),
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => (Some(Type::Int), Type::Bool),
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => (Some(Type::Int), Type::Int),
        };
        match operand {
            Some(want) => {
                for (side, ty) in [(lhs, l.ty), (rhs, r.ty)] {
                    if ty != want {
                        self.diags
                            .push(mismatch_of(self.scope, side, want, ty, &format!("`{}`", op.symbol())));
                        return None;
                    }
                }
            }
            None => {
                let comparable = (l.ty == r.ty && l.ty.element().is_none() && l.ty != Type::Marker)
                    || (l.ty.nullable() && r.ty == Type::Nothing)
                    || (r.ty.nullable() && l.ty == Type::Nothing);
                if !comparable {
                    self.diags.push(
                        Diagnostic::new(
                            Code::TypeMismatch,
                            format!("cannot compare {} with {}", l.ty.a(), r.ty.a()),
                        )
                        .at(rhs.span(), format!("this is {}", r.ty.a()))
                        .also(lhs.span(), format!("this is {}", l.ty.a()))
                        .note("`==` and `!=` compare two values of the same type, or a value with `none`")
                        .maybe_note(quoting(rhs, r.ty, l.ty).or_else(|| quoting(lhs, l.ty, r.ty))),
                    );
                    return None;
                }
            }
        }
        Some(Typed::new(Expr::Binary(op, Box::new(l.expr), Box::new(r.expr)), result))
    }
}

/// Resolves a domain word: `player`, `figure`, `feature`, `tile`, `card`,
/// `square`, a kind or a figure type.
pub(crate) fn domain(
    s: &ExprScope,
    id: &ast::Ident,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Domain, Type, Option<KindId>)> {
    let n = s.names;
    Some(match id.name.as_str() {
        "player" => (Domain::Players, Type::Player, None),
        "figure" => (Domain::Figures(None), Type::Figure, None),
        "feature" => (Domain::Features(None), Type::Feature, None),
        "tile" => (Domain::Tiles, Type::Tile, None),
        "card" => (Domain::Cards, Type::Card, None),
        "square" => (Domain::Squares, Type::Square, None),
        "direction" => (Domain::Directions, Type::Direction, None),
        name if n.kinds.get(name).is_some() => {
            let k = n.kinds.lookup(id, s.unit, s.vis, diags)?;
            (Domain::Features(Some(k)), Type::Feature, Some(k))
        }
        name if n.figures.get(name).is_some() => {
            let f = n.figures.lookup(id, s.unit, s.vis, diags)?;
            (Domain::Figures(Some(f)), Type::Figure, None)
        }
        _ => {
            let mut words = vec!["player", "figure", "feature", "tile", "card", "square", "direction"];
            words.extend(n.kinds.visible_names(s.unit, s.vis));
            words.extend(n.figures.visible_names(s.unit, s.vis));
            diags.push(
                Diagnostic::new(Code::UnknownName, format!("unknown domain `{}`", id.name))
                    .at(id.span, "not something to range over")
                    .maybe_note(did_you_mean(&id.name, words))
                    .note("a domain is `player`, `figure`, `feature`, `tile`, `card`, `square`, `direction`, a feature kind or a figure type"),
            );
            return None;
        }
    })
}

/// A checked binder: what it ranges over and the variable's slot.
pub(crate) struct Bound {
    /// The domain, given or taken from the list's members; `None` for a
    /// list whose members no domain holds.
    pub(crate) domain: Option<Domain>,
    pub(crate) slot: u16,
    pub(crate) list: Option<Expr>,
    pub(crate) filter: Option<Expr>,
}

/// Checks a binder — `DOMAIN x [in LIST] [where COND]` or `x in LIST [where
/// COND]` — with the variable bound for the condition (and left bound: the
/// caller ends its scope). `what` is the construct, for messages (`for`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn bind_range(
    scope: &ExprScope,
    locals: &mut Locals,
    first: &ast::Ident,
    second: Option<&ast::Ident>,
    list: Option<&ast::Expr>,
    filter: Option<&ast::Expr>,
    what: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Bound> {
    let (domain, element, kind, var, list_ir) = match (second, list) {
        (Some(var), list) => {
            let (dom, element, kind) = domain(scope, first, diags)?;
            let list_ir = match list {
                Some(l) => {
                    let want = match element {
                        Type::Player => Type::Players,
                        Type::Figure => Type::Figures,
                        Type::Feature => Type::Features,
                        Type::Direction => Type::Directions,
                        _ => {
                            // What the list is, when it is no list at all
                            // (`c.tiles` counts a feature's tiles).
                            let found = infer(scope, locals, l, &mut Vec::new())
                                .map(|t| t.ty)
                                .filter(|t| t.element().is_none());
                            // As written: `for tile t in ...`, `count(tile t in ...)`.
                            let written = |rest: &str| {
                                let binder = format!("{} {} {rest}", first.name, var.name);
                                if what == "count" {
                                    format!("count({binder})")
                                } else {
                                    format!("{what} {binder}")
                                }
                            };
                            // What such a variable ranges over (docs/language.md, Binders).
                            let whole = match first.name.as_str() {
                                "tile" => "every tile on the board",
                                "square" => "the empty squares next to the board",
                                "card" => "the cards in the chooser's hand",
                                _ => "its whole domain",
                            };
                            diags.push(
                                Diagnostic::new(
                                    Code::TypeMismatch,
                                    format!(
                                        "`{}`: a `{}` variable ranges over {whole}, not over a list",
                                        written("in ..."),
                                        first.name
                                    ),
                                )
                                .at(
                                    l.span(),
                                    match found {
                                        Some(t) => format!("this is {}, not a list", t.a()),
                                        None => "remove `in ...`".to_string(),
                                    },
                                )
                                .note(format!(
                                    "write `{}` to keep some of them; `in LIST` works with players, figures, features and directions",
                                    written("where CONDITION")
                                )),
                            );
                            return None;
                        }
                    };
                    Some(check_expr(scope, locals, l, want, "`in`", diags)?.expr)
                }
                None => None,
            };
            (Some(dom), element, kind, var, list_ir)
        }
        (None, Some(l)) => {
            let t = infer(scope, locals, l, diags)?;
            let Some(element) = t.ty.element() else {
                diags.push(mismatch(
                    l.span(),
                    Type::Features,
                    t.ty,
                    &format!("`{what} {} in LIST`", first.name),
                ));
                return None;
            };
            let dom = match element {
                Type::Player => Some(Domain::Players),
                Type::Figure => Some(Domain::Figures(None)),
                Type::Feature => Some(Domain::Features(None)),
                Type::Direction => Some(Domain::Directions),
                _ => None,
            };
            (dom, element, None, first, Some(t.expr))
        }
        (None, None) => {
            diags.push(
                Diagnostic::new(
                    Code::NoDomain,
                    format!("`{what} {}` says nothing to range over", first.name),
                )
                .at(first.span, "a variable without a domain or a list")
                .note(format!(
                    "name a domain before the variable (`{what} city {0}`) or a list after it (`{what} {0} in t.features`)",
                    first.name
                )),
            );
            return None;
        }
    };
    let slot = locals.bind(&var.name, element, kind);
    let filter_ir = match filter {
        Some(f) => Some(check_expr(scope, locals, f, Type::Bool, "`where`", diags)?.expr),
        None => None,
    };
    Some(Bound {
        domain,
        slot,
        list: list_ir,
        filter: filter_ir,
    })
}

/// How a variable scope reads in messages.
pub(crate) fn var_scope_name(scope: VarScope) -> &'static str {
    match scope {
        VarScope::Game => "game",
        VarScope::Player => "player",
        VarScope::Feature => "feature",
    }
}

/// How a topology reads in messages.
pub(crate) fn topology_words(t: Topology) -> &'static str {
    match t {
        Topology::Edges => "connected through edges",
        Topology::HalfEdges => "connected through half-edges",
        Topology::Area => "an area feature",
    }
}
