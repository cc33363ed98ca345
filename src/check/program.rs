//! Checking rules that act: variables, functions, handlers, actions, and the
//! statements in their bodies.

use super::expr::{bind_range, check_expr, infer, reason_id, ExprScope, Locals, Typed};
use crate::diagnostic::{did_you_mean, Code, Diagnostic};
use crate::ir::expr::{Builtin, Expr, Type};
use crate::ir::program as ir_program;
use crate::ir::program::{Domain, EventKind, Merge, Stmt, StmtAt, VarScope, Window, EVENTS, WINDOWS};
use crate::ir::BlockId;
use crate::ir::{FigureType, KindId, Ownership};
use crate::source::Span;
use crate::syntax::ast;

/// What statement checking writes to.
pub(crate) struct Out<'a> {
    pub(crate) blocks: &'a mut Vec<Vec<StmtAt>>,
    pub(crate) reasons: &'a std::cell::RefCell<Vec<String>>,
    pub(crate) diags: &'a mut Vec<Diagnostic>,
}

/// What statement checking reads.
pub(crate) struct StmtScope<'a> {
    pub(crate) expr: ExprScope<'a>,
    pub(crate) figures: &'a [FigureType],
}

/// Reports a rule that binds more local variables than a frame may hold.
pub(crate) fn check_frame(locals: &Locals, span: Span, diags: &mut Vec<Diagnostic>) -> bool {
    if locals.overflowed() {
        diags.push(
            Diagnostic::new(Code::NumberOutOfRange, "too many local variables")
                .at(
                    span,
                    format!("more than {} variables in this rule", super::expr::MAX_LOCALS),
                )
                .note("split the rule into functions"),
        );
        return false;
    }
    true
}

/// Parses an event name.
pub(crate) fn event(id: &ast::Ident, diags: &mut Vec<Diagnostic>) -> Option<EventKind> {
    let found = EVENTS.iter().find(|e| e.name == id.name).map(|e| e.kind);
    if found.is_none() {
        diags.push(
            Diagnostic::new(Code::UnknownEvent, format!("unknown event `{}`", id.name))
                .at(id.span, "not an event")
                .maybe_note(did_you_mean(&id.name, EVENTS.iter().map(|e| e.name)))
                .note(format!(
                    "events are {}",
                    EVENTS.iter().map(|e| e.name).collect::<Vec<_>>().join(", ")
                )),
        );
    }
    found
}

/// Parses an action window name.
pub(crate) fn window(id: &ast::Ident, diags: &mut Vec<Diagnostic>) -> Option<Window> {
    let found = WINDOWS.iter().find(|(_, n, _)| *n == id.name).map(|(w, ..)| *w);
    if found.is_none() {
        diags.push(
            Diagnostic::new(Code::UnknownWindow, format!("unknown window `{}`", id.name))
                .at(id.span, "not a window")
                .maybe_note(did_you_mean(&id.name, WINDOWS.iter().map(|(_, n, _)| *n)))
                .note("actions are offered `in before_place` or `in deploy`"),
        );
    }
    found
}

/// Parses a variable's scope, type and merge policy.
pub(crate) fn var_shape(decl: &ast::VarDecl, diags: &mut Vec<Diagnostic>) -> Option<(VarScope, Type, Merge)> {
    let bad = |span: Span, what: String, note: &str| {
        Diagnostic::new(Code::BadVar, what)
            .at(span, "here")
            .note(note.to_string())
    };
    let scope = match decl.scope.name.as_str() {
        "game" => VarScope::Game,
        "player" => VarScope::Player,
        "feature" => VarScope::Feature,
        other => {
            diags.push(
                bad(
                    decl.scope.span,
                    format!("unknown variable scope `{other}`"),
                    "the scope is `game`, `player` or `feature`",
                )
                .maybe_note(did_you_mean(other, ["game", "player", "feature"])),
            );
            return None;
        }
    };
    let Some(ty) = Type::by_name(&decl.ty.name) else {
        diags.push(
            bad(
                decl.ty.span,
                format!("unknown type `{}`", decl.ty.name),
                &format!("types are {}", Type::DECLARABLE.join(", ")),
            )
            .maybe_note(did_you_mean(&decl.ty.name, Type::DECLARABLE.iter().copied())),
        );
        return None;
    };
    if scope != VarScope::Game && !matches!(ty, Type::Int | Type::Bool) {
        diags.push(bad(
            decl.ty.span,
            format!(
                "{} variables cannot be of type {}",
                super::expr::var_scope_name(scope),
                ty.name()
            ),
            "player and feature variables are int or bool",
        ));
        return None;
    }
    let merge = match (&decl.merge, ty) {
        (None, Type::Bool) => Merge::Any,
        (None, _) => Merge::Sum,
        (Some(m), _) if scope != VarScope::Feature => {
            diags.push(bad(m.span, "only feature variables merge".into(), "remove `merge`"));
            return None;
        }
        (Some(m), _) => match (m.name.as_str(), ty) {
            ("any", Type::Bool) => Merge::Any,
            ("all", Type::Bool) => Merge::All,
            ("sum", Type::Int) => Merge::Sum,
            ("max", Type::Int) => Merge::Max,
            ("min", Type::Int) => Merge::Min,
            (other, _) => {
                let (allowed, policies) = if ty == Type::Bool {
                    ("`any` or `all`", &["any", "all"][..])
                } else {
                    ("`sum`, `max` or `min`", &["sum", "max", "min"][..])
                };
                diags.push(
                    bad(
                        m.span,
                        format!("`{other}` is not a merge policy for {}", ty.a()),
                        &format!("{} variable merges with {allowed}", ty.a()),
                    )
                    .maybe_note(did_you_mean(other, policies.iter().copied())),
                );
                return None;
            }
        },
    };
    Some((scope, ty, merge))
}

/// Checks a binder with the variable bound (the caller ends its scope): a
/// statement's domain (given, or taken from the list) and its parts.
#[allow(clippy::too_many_arguments)]
fn ranged(
    es: &ExprScope,
    locals: &mut Locals,
    first: &ast::Ident,
    second: Option<&ast::Ident>,
    list: Option<&ast::Expr>,
    filter: Option<&ast::Expr>,
    what: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Ranged> {
    let at = list.map_or(first.span, |l| l.span());
    let b = bind_range(es, locals, first, second, list, filter, what, diags)?;
    let Some(domain) = b.domain else {
        diags.push(
            Diagnostic::new(Code::TypeMismatch, format!("`{what}` cannot range over this list"))
                .at(at, "a list of values that are not players, figures or features")
                .note("`count(x in LIST ...)` counts any list; `for` and `choose` range over players, figures, features, tiles, squares and cards"),
        );
        return None;
    };
    Some((domain, b.slot, b.list, b.filter))
}

/// `current_player`, as an expression.
fn current_player() -> Expr {
    Expr::Query {
        builtin: Builtin::CurrentPlayer,
        of: None,
        args: Vec::new(),
    }
}

/// The player an optional `by` / `for` names, else the current player.
fn player_or_current(
    es: &ExprScope,
    locals: &mut Locals,
    player: Option<&ast::Expr>,
    place: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Expr> {
    match player {
        Some(p) => check_expr(es, locals, p, Type::Player, place, diags).map(|t| t.expr),
        None => Some(current_player()),
    }
}

/// A checked binder: its domain, its variable's slot, its list and condition.
type Ranged = (Domain, u16, Option<Expr>, Option<Expr>);

/// A binder and the block run with its variable bound (`for`, `choose`):
/// the block is checked even when the binder is not, so its errors show too.
type Binder<'a> = (
    &'a ast::Ident,
    Option<&'a ast::Ident>,
    Option<&'a ast::Expr>,
    Option<&'a ast::Expr>,
);

fn ranged_block(
    scope: &StmtScope,
    locals: &mut Locals,
    (first, second, list, filter): Binder,
    what: &str,
    body: &ast::Block,
    out: &mut Out,
) -> Option<(Ranged, BlockId)> {
    let depth = locals.depth();
    let r = ranged(&scope.expr, locals, first, second, list, filter, what, out.diags);
    let b = block(scope, locals, body, out);
    locals.truncate(depth);
    Some((r?, b))
}

/// Whose supply a `place` takes a figure from: the `of PLAYER` given, else
/// the current player's; nobody's for a neutral figure (the box).
fn placing_owner(scope: &StmtScope, fig: u16, owner: Option<Expr>) -> Option<Expr> {
    match (owner, scope.figures[fig as usize].ownership) {
        (Some(o), Ownership::PerPlayer) => Some(o),
        (None, Ownership::PerPlayer) => Some(current_player()),
        (_, Ownership::Neutral) => None,
    }
}

/// A short form of a figure expression for messages (`x`, `FIGURE`).
fn figure_text(e: &ast::Expr) -> String {
    match e {
        ast::Expr::Name(id) => id.name.clone(),
        _ => "FIGURE".into(),
    }
}

/// Checks a block; returns its id in `out.blocks`.
pub(crate) fn block(scope: &StmtScope, locals: &mut Locals, b: &ast::Block, out: &mut Out) -> BlockId {
    let id = out.blocks.len() as BlockId;
    out.blocks.push(Vec::new());
    let depth = locals.depth();
    let mut stmts = Vec::with_capacity(b.stmts.len());
    for s in &b.stmts {
        if let Some(stmt) = statement(scope, locals, s, out) {
            stmts.push(StmtAt { stmt, span: s.span() });
        }
    }
    locals.truncate(depth);
    out.blocks[id as usize] = stmts;
    id
}

fn figure_may_go(fig: &FigureType, kind: KindId) -> bool {
    fig.posture_on(kind).is_some()
}

/// The static figure type of an expression, when it is a figure-type name.
fn static_figure(e: &Typed) -> Option<u16> {
    match e.expr {
        Expr::FigureType(f) => Some(f),
        _ => None,
    }
}

fn wrong_kind(scope: &StmtScope, fig: u16, kind: KindId, at: Span) -> Diagnostic {
    let f = &scope.figures[fig as usize];
    let kind_name = &scope.expr.names.kinds.entries[kind as usize].name;
    let places: Vec<&str> = f
        .places
        .iter()
        .map(|(k, _)| scope.expr.names.kinds.entries[*k as usize].name.as_str())
        .collect();
    Diagnostic::new(Code::WrongKind, format!("a {} cannot go on a {kind_name}", f.name))
        .at(at, format!("this is a {kind_name}"))
        .also(
            f.span,
            format!(
                "`{}` goes on {}",
                f.name,
                if places.is_empty() {
                    "nothing".into()
                } else {
                    places.join(", ")
                }
            ),
        )
        .note(format!("choose a feature `{}` may stand on", f.name))
}

/// A spot's name where `place ... on` or `move ... to` wants a feature
/// (E0057): the statement says `spot` before a spot.
fn spot_as_feature(
    scope: &StmtScope,
    locals: &mut Locals,
    e: &ast::Expr,
    verb: &str,
    what: &str,
) -> Option<Diagnostic> {
    let es = &scope.expr;
    let ast::Expr::Name(id) = e else { return None };
    let mut quiet = Vec::new();
    let spot = es.names.spots.get(&id.name).is_some() && infer(es, locals, e, &mut quiet)?.ty == Type::Spot;
    spot.then(|| {
        let (prep, example) = match verb {
            "place" => ("on", format!("place {what} on spot {}", id.name)),
            _ => ("to", format!("move {what} to spot {}", id.name)),
        };
        Diagnostic::new(Code::SpotAsFeature, format!("`{}` is a spot, not a feature", id.name))
            .at(id.span, "a spot off the board")
            .note(format!(
                "`{verb} ... {prep} FEATURE` puts a figure on the board; to put it at the spot, write `{example}`"
            ))
    })
}

/// `choose [by PLAYER] { NAME [when COND] { ... } ... }`: at least two
/// options (E0056), each name once (E0055).
fn choose_option(
    scope: &StmtScope,
    locals: &mut Locals,
    by: Option<&ast::Expr>,
    options: &[ast::OptionArm],
    span: Span,
    out: &mut Out,
) -> Option<Stmt> {
    let es = &scope.expr;
    let mut ok = true;
    if options.len() < 2 {
        out.diags.push(
            Diagnostic::new(
                Code::TooFewOptions,
                match options.len() {
                    0 => "a choice without options".to_string(),
                    _ => "a choice with only one option".to_string(),
                },
            )
            .at(span, "this `choose` needs at least two named options")
            .note("for a yes/no question about one block, write `may { ... }`"),
        );
        ok = false;
    }
    for (i, o) in options.iter().enumerate() {
        if let Some(first) = options[..i].iter().find(|p| p.name.name == o.name.name) {
            out.diags.push(
                Diagnostic::new(
                    Code::DuplicateOption,
                    format!("option `{}` is named twice in one choice", o.name.name),
                )
                .at(o.name.span, "named again here")
                .also(first.name.span, "first named here")
                .note("records name the picked option, so each option of a choice needs its own name"),
            );
            ok = false;
        }
    }
    let by_ir = player_or_current(es, locals, by, "`choose by`", out.diags);
    let mut arms = Vec::with_capacity(options.len());
    for o in options {
        let when = o
            .when
            .as_ref()
            .map(|w| check_expr(es, locals, w, Type::Bool, "an option's `when`", out.diags).map(|t| t.expr));
        let body = block(scope, locals, &o.body, out);
        match when {
            Some(None) => ok = false,
            when => arms.push(ir_program::OptionArm {
                name: o.name.name.clone(),
                when: when.flatten(),
                body,
            }),
        }
    }
    let by = by_ir?;
    ok.then_some(Stmt::ChooseOption { by, options: arms })
}

fn statement(scope: &StmtScope, locals: &mut Locals, s: &ast::Stmt, out: &mut Out) -> Option<Stmt> {
    let es = &scope.expr;
    match s {
        ast::Stmt::Score {
            amount,
            to,
            reason,
            reason_span,
            reason_named,
            ..
        } => {
            let a = check_expr(es, locals, amount, Type::Int, "`score`", out.diags);
            let p = check_expr(es, locals, to, Type::Player, "`score ... to`", out.diags);
            let reason = if *reason_named {
                let name = ast::Expr::Name(ast::Ident {
                    name: reason.clone(),
                    span: *reason_span,
                });
                check_expr(es, locals, &name, Type::Reason, "`score ... reason`", out.diags).map(|t| t.expr)
            } else {
                reason_id(out.reasons, reason, *reason_span, out.diags).map(Expr::Reason)
            };
            Some(Stmt::Score {
                amount: a?.expr,
                to: p?.expr,
                reason: reason?,
            })
        }
        ast::Stmt::Place {
            figure, owner, on, at, ..
        } => {
            let fig = es.names.figures.lookup(figure, es.unit, es.vis, out.diags);
            let owner_ir = match owner {
                Some(o) => Some(check_expr(es, locals, o, Type::Player, "`place ... of`", out.diags)?.expr),
                None => None,
            };
            if let Some(d) = spot_as_feature(scope, locals, on, "place", &figure.name) {
                out.diags.push(d);
                return None;
            }
            let target = check_expr(es, locals, on, Type::Feature, "`place ... on`", out.diags)?;
            let at = match at {
                Some(a) => Some(check_expr(es, locals, a, Type::Tile, "`place ... at`", out.diags)?.expr),
                None => None,
            };
            let fig = fig?;
            if let Some(kind) = target.kind.filter(|k| !figure_may_go(&scope.figures[fig as usize], *k)) {
                out.diags.push(wrong_kind(scope, fig, kind, on.span()));
                return None;
            }
            let owner = placing_owner(scope, fig, owner_ir);
            Some(Stmt::Place {
                figure: fig,
                owner,
                on: target.expr,
                at,
            })
        }
        ast::Stmt::Move { figure, to, at, .. } => {
            let f = infer(es, locals, figure, out.diags);
            if let Some(d) = spot_as_feature(scope, locals, to, "move", "FIGURE") {
                out.diags.push(d);
                return None;
            }
            let t = check_expr(es, locals, to, Type::Feature, "`move ... to`", out.diags)?;
            let at = match at {
                Some(a) => Some(check_expr(es, locals, a, Type::Tile, "`move ... at`", out.diags)?.expr),
                None => None,
            };
            let f = f?;
            if !matches!(f.ty, Type::Figure | Type::FigureType) {
                out.diags.push(
                    Diagnostic::new(Code::TypeMismatch, format!("expected a figure, found {}", f.ty.a()))
                        .at(figure.span(), format!("this is {}", f.ty.a()))
                        .note("`move` takes a figure, or a neutral figure's type"),
                );
                return None;
            }
            if let (Some(fig), Some(kind)) = (static_figure(&f), t.kind) {
                if !figure_may_go(&scope.figures[fig as usize], kind) {
                    out.diags.push(wrong_kind(scope, fig, kind, to.span()));
                    return None;
                }
            }
            Some(Stmt::Move {
                figure: f.expr,
                to: t.expr,
                at,
            })
        }
        ast::Stmt::DrawCard { deck, player, .. } => {
            let d = es.names.decks.lookup(deck, es.unit, es.vis, out.diags);
            let p = player_or_current(es, locals, player.as_ref(), "`draw card ... for`", out.diags)?;
            Some(Stmt::DrawCard { deck: d?, player: p })
        }
        ast::Stmt::ExtraTile { keep, from, .. } => {
            let from = match from {
                Some(stack) => Some(es.names.stacks.resolve(stack, es.unit, es.vis, out.diags)?),
                None => None,
            };
            Some(Stmt::ExtraTile { keep: *keep, from })
        }
        ast::Stmt::Discard { card, player, .. } => {
            let c = check_expr(es, locals, card, Type::Card, "`discard`", out.diags)?;
            let p = match player {
                Some(p) => Some(check_expr(es, locals, p, Type::Player, "`discard ... of`", out.diags)?.expr),
                None => None,
            };
            Some(Stmt::Discard {
                card: c.expr,
                player: p,
            })
        }
        ast::Stmt::Strengthen {
            player, feature, by, ..
        } => {
            let p = check_expr(es, locals, player, Type::Player, "`strengthen`", out.diags);
            let f = check_expr(es, locals, feature, Type::Feature, "`strengthen ... on`", out.diags);
            let by = match by {
                Some(b) => check_expr(es, locals, b, Type::Int, "`strengthen ... by`", out.diags)?.expr,
                None => Expr::Int(1),
            };
            Some(Stmt::Strengthen {
                player: p?.expr,
                feature: f?.expr,
                by,
            })
        }
        ast::Stmt::Adjust {
            feature,
            replace,
            amount,
            reason,
            ..
        } => {
            let f = check_expr(es, locals, feature, Type::Feature, "`adjust scoring of`", out.diags);
            let a = check_expr(es, locals, amount, Type::Int, "`adjust scoring`", out.diags);
            let reason = match reason {
                Some((name, span)) => Some(reason_id(out.reasons, name, *span, out.diags)?),
                None => None,
            };
            Some(Stmt::Adjust {
                feature: f?.expr,
                replace: *replace,
                amount: a?.expr,
                reason,
            })
        }
        ast::Stmt::Delay { feature, .. } => {
            let f = check_expr(es, locals, feature, Type::Feature, "`delay scoring of`", out.diags)?;
            Some(Stmt::Delay { feature: f.expr })
        }
        ast::Stmt::Swap { a, b, .. } => {
            let x = check_expr(es, locals, a, Type::Figure, "`swap`", out.diags);
            let y = check_expr(es, locals, b, Type::Figure, "`swap ... with`", out.diags);
            Some(Stmt::Swap { a: x?.expr, b: y?.expr })
        }
        ast::Stmt::May { body, .. } => {
            // A yes/no question: an optional choice of the current player,
            // among just the current player.
            let current = current_player();
            let depth = locals.depth();
            let slot = locals.bind("#may", Type::Player, None);
            let b = block(scope, locals, body, out);
            locals.truncate(depth);
            Some(Stmt::Choose {
                optional: true,
                by: current.clone(),
                slot,
                domain: Domain::Players,
                list: None,
                filter: Some(Expr::Binary(
                    crate::syntax::ast::BinOp::Eq,
                    Box::new(Expr::Local(slot)),
                    Box::new(current),
                )),
                body: b,
                otherwise: None,
            })
        }
        ast::Stmt::ExtraTurn { .. } => Some(Stmt::ExtraTurn),
        ast::Stmt::Steer { square, .. } => {
            let s = check_expr(es, locals, square, Type::Square, "`steer next placement to`", out.diags)?;
            Some(Stmt::Steer { square: s.expr })
        }
        ast::Stmt::Return { figure, span } => {
            let what = infer(es, locals, figure, &mut Vec::new()).map(|t| t.ty);
            let d = if matches!(what, Some(Type::Figure | Type::FigureType)) {
                Diagnostic::new(Code::OldSpelling, "a figure goes back to its supply with `take back`")
                    .at(*span, "old spelling")
                    .note(format!(
                        "write `take back {}`; `return` gives a function's value",
                        figure_text(figure)
                    ))
            } else {
                Diagnostic::new(Code::ValueFunction, "`return VALUE` outside a function with a result")
                    .at(*span, "nothing receives this value")
                    .note(
                        "only a function declared with a result type, `fn NAME(params): TYPE { ... }`, returns a value",
                    )
            };
            out.diags.push(d);
            None
        }
        ast::Stmt::TakeBack { figure, .. } => {
            let f = infer(es, locals, figure, out.diags)?;
            if !matches!(f.ty, Type::Figure | Type::FigureType) {
                out.diags.push(
                    Diagnostic::new(Code::TypeMismatch, format!("expected a figure, found {}", f.ty.a()))
                        .at(figure.span(), format!("this is {}", f.ty.a()))
                        .note("`take back` takes a figure, or a neutral figure's type"),
                );
                return None;
            }
            Some(Stmt::Return { figure: f.expr })
        }
        ast::Stmt::Set {
            target,
            field,
            value,
            span,
        } => set(scope, locals, target, field.as_ref(), value, *span, out),
        ast::Stmt::Let { name, value, .. } => {
            let v = infer(es, locals, value, out.diags)?;
            let slot = locals.bind(&name.name, v.ty, v.kind);
            Some(Stmt::Let { slot, value: v.expr })
        }
        ast::Stmt::If {
            cond, then, otherwise, ..
        } => {
            let c = check_expr(es, locals, cond, Type::Bool, "`if`", out.diags);
            let t = block(scope, locals, then, out);
            let o = otherwise.as_ref().map(|b| block(scope, locals, b, out));
            Some(Stmt::If {
                cond: c?.expr,
                then: t,
                otherwise: o,
            })
        }
        ast::Stmt::ForEach {
            domain: d,
            var,
            list,
            filter,
            body,
            old_each,
            ..
        } => {
            if let Some(each) = old_each {
                out.diags.push(
                    Diagnostic::new(Code::OldSpelling, "`for each` is now written `for`")
                        .at(*each, "old spelling")
                        .note(format!(
                            "write `for {} {} ...`: one binder everywhere, as in `count`, `choose` and an action's `for`",
                            d.name,
                            var.as_ref().map_or("", |v| v.name.as_str())
                        )),
                );
            }
            let binder = (d, var.as_ref(), list.as_ref(), filter.as_ref());
            let ((domain, slot, list, filter), b) = ranged_block(scope, locals, binder, "for", body, out)?;
            Some(Stmt::ForEach {
                slot,
                domain,
                list,
                filter,
                body: b,
            })
        }
        ast::Stmt::Choose {
            optional,
            by,
            domain: d,
            var,
            list,
            filter,
            body,
            otherwise,
            ..
        } => {
            let by_ir = player_or_current(es, locals, by.as_ref(), "`choose by`", out.diags);
            let o = otherwise.as_ref().map(|b| block(scope, locals, b, out));
            let binder = (d, var.as_ref(), list.as_ref(), filter.as_ref());
            let ((domain, slot, list, filter), b) = ranged_block(scope, locals, binder, "choose", body, out)?;
            if domain == Domain::Directions {
                out.diags.push(no_direction_choice(d));
                return None;
            }
            Some(Stmt::Choose {
                optional: *optional,
                by: by_ir?,
                slot,
                domain,
                list,
                filter,
                body: b,
                otherwise: o,
            })
        }
        ast::Stmt::PlaceAtSpot {
            figure, owner, spot, ..
        } => {
            let fig = es.names.figures.lookup(figure, es.unit, es.vis, out.diags);
            let spot = es.names.spots.lookup(spot, es.unit, es.vis, out.diags);
            let owner = match owner {
                Some(o) => Some(check_expr(es, locals, o, Type::Player, "`place ... of`", out.diags)?.expr),
                None => None,
            };
            let fig = fig?;
            let owner = placing_owner(scope, fig, owner);
            Some(Stmt::PlaceAtSpot {
                figure: fig,
                owner,
                spot: spot?,
            })
        }
        ast::Stmt::MoveToSpot { figure, spot, .. } => {
            let f = check_expr(es, locals, figure, Type::Figure, "`move ... to spot`", out.diags);
            let spot = es.names.spots.lookup(spot, es.unit, es.vis, out.diags);
            Some(Stmt::MoveToSpot {
                figure: f?.expr,
                spot: spot?,
            })
        }
        ast::Stmt::ChooseOption { by, options, span } => choose_option(scope, locals, by.as_ref(), options, *span, out),
        ast::Stmt::Call { func, .. } if es.names.fns.get(&func.name).is_none() => {
            let fns: Vec<&str> = es.names.fns.visible_names(es.unit, es.vis).collect();
            out.diags.push(
                Diagnostic::new(Code::UnknownName, format!("unknown effect `{}`", func.name))
                    .at(func.span, "not a statement or a function of the rules")
                    .maybe_note(did_you_mean(&func.name, fns))
                    .note(format!(
                        "effects are the statements {} and the functions declared with `fn`",
                        crate::syntax::STATEMENTS.join(", ")
                    )),
            );
            None
        }
        ast::Stmt::Call { func, args, span } => {
            let (id, sig) = es.function(func, out.diags)?;
            if sig.result.is_some() {
                out.diags.push(
                    Diagnostic::new(
                        Code::TypeMismatch,
                        format!("`{}` gives a value and has no effects", func.name),
                    )
                    .at(*span, "its value is dropped")
                    .note("use it in an expression, such as `if` or `score`"),
                );
                return None;
            }
            if args.len() != sig.params.len() {
                out.diags.push(
                    Diagnostic::new(
                        Code::Arity,
                        format!(
                            "`{}` takes {} argument(s), {} given",
                            func.name,
                            sig.params.len(),
                            args.len()
                        ),
                    )
                    .at(*span, "wrong number of arguments"),
                );
                return None;
            }
            let mut ir = Vec::new();
            for (a, want) in args.iter().zip(&sig.params) {
                ir.push(
                    check_expr(
                        es,
                        locals,
                        a,
                        *want,
                        &format!("this argument of `{}`", func.name),
                        out.diags,
                    )?
                    .expr,
                );
            }
            Some(Stmt::Call { func: id, args: ir })
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn set(
    scope: &StmtScope,
    locals: &mut Locals,
    target: &ast::Ident,
    field: Option<&ast::Ident>,
    value: &ast::Expr,
    span: Span,
    out: &mut Out,
) -> Option<Stmt> {
    let es = &scope.expr;
    let n = es.names;
    let (name, of) = match field {
        None => (target, None),
        Some(f) => {
            let owner = infer(es, locals, &ast::Expr::Name(target.clone()), out.diags)?;
            (f, Some(owner))
        }
    };
    // `set n` where a local `n` hides the variable would read the local and
    // write the variable: refused, as locals cannot be changed.
    // (Only a game variable is set by its bare name: another is told below.)
    let game_var = n
        .vars
        .get(&name.name)
        .is_some_and(|e| n.var_decls[e.id as usize].scope == VarScope::Game);
    if field.is_none() && locals.holds(&name.name) && game_var {
        out.diags.push(
            Diagnostic::new(
                Code::NotAssignable,
                format!("`{}` here is a local variable, which cannot be changed", name.name),
            )
            .at(
                name.span,
                "a local (from `let`, a parameter or a binder), which hides the variable",
            )
            .note(format!(
                "to set the variable `{}`, give the local another name",
                name.name
            )),
        );
        return None;
    }
    let Some(entry) = n.vars.get(&name.name) else {
        out.diags.push(
            Diagnostic::new(Code::NotAssignable, format!("`{}` is not a variable", name.name))
                .at(name.span, "cannot be set")
                .maybe_note(did_you_mean(&name.name, n.vars.visible_names(es.unit, es.vis)))
                .note("declare it with `var game|player|feature NAME: TYPE`; locals cannot be changed"),
        );
        return None;
    };
    let var_id = n.vars.lookup(name, es.unit, es.vis, out.diags)?;
    let var = &n.var_decls[entry.id as usize];
    let fits = match (&of, var.scope) {
        (None, VarScope::Game) => true,
        (Some(o), VarScope::Player) => o.ty == Type::Player,
        (Some(o), VarScope::Feature) => o.ty == Type::Feature,
        _ => false,
    };
    if !fits {
        let how = match var.scope {
            VarScope::Game => format!("set {} = ...", name.name),
            VarScope::Player => format!("set p.{} = ... (p a player)", name.name),
            VarScope::Feature => format!("set c.{} = ... (c a feature)", name.name),
        };
        out.diags.push(
            Diagnostic::new(
                Code::NotAssignable,
                format!(
                    "`{}` is a {} variable",
                    name.name,
                    super::expr::var_scope_name(var.scope)
                ),
            )
            .at(span, "set the wrong way")
            .also(var.span, "declared here")
            .note(format!("write `{how}`")),
        );
        return None;
    }
    let v = check_expr(
        es,
        locals,
        value,
        var.ty,
        &format!("variable `{}`", name.name),
        out.diags,
    )?;
    Some(Stmt::Set {
        var: var_id,
        of: of.map(|o| o.expr),
        value: v.expr,
    })
}

/// Binds an event's parameters to the handler's names; too many names is an error.
pub(crate) fn bind_event_params(
    event: EventKind,
    names: &[ast::Ident],
    locals: &mut Locals,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    let def = event.def();
    if names.len() > def.params.len() {
        let listed: Vec<String> = def.params.iter().map(|(n, t)| format!("{n}: {}", t.name())).collect();
        diags.push(
            Diagnostic::new(
                Code::Arity,
                format!(
                    "event `{}` has {} parameter(s), {} named",
                    def.name,
                    def.params.len(),
                    names.len()
                ),
            )
            .at(names[def.params.len()].span, "one name too many")
            .note(format!("`{}` gives ({})", def.name, listed.join(", "))),
        );
        return false;
    }
    for (name, (_, ty)) in names.iter().zip(def.params) {
        locals.bind(&name.name, *ty, None);
    }
    locals.in_handler(event, names.len());
    // Unnamed parameters still take their slots.
    for (pname, ty) in def.params.iter().skip(names.len()) {
        locals.bind(&format!("#{pname}"), *ty, None);
    }
    true
}

/// The type for an action's or loop's domain variable (for actions, which
/// bind it as slot 0).
pub(crate) fn action_domain(
    scope: &StmtScope,
    locals: &mut Locals,
    clause: &ast::DomainClause,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Domain, Option<Expr>)> {
    if let (Some(l), Some(_)) = (&clause.list, &clause.var) {
        diags.push(
            Diagnostic::new(Code::TypeMismatch, "an action ranges over a whole domain")
                .at(l.span(), "remove `in ...`")
                .note("narrow the action's targets with `where`"),
        );
        return None;
    }
    let (dom, _, _, filter) = ranged(
        &scope.expr,
        locals,
        &clause.domain,
        clause.var.as_ref(),
        clause.list.as_ref(),
        clause.filter.as_ref(),
        "for",
        diags,
    )?;
    if dom == Domain::Directions {
        diags.push(no_direction_choice(&clause.domain));
        return None;
    }
    Some((dom, filter))
}

/// Directions are ranged over by `for` and `count`, never chosen: a
/// record names no direction as a target.
fn no_direction_choice(domain: &ast::Ident) -> Diagnostic {
    Diagnostic::new(Code::TypeMismatch, "a player cannot choose a direction")
        .at(domain.span, "directions are not targets of a choice")
        .note("range over directions with `for direction d in sides` or `count(d in sides where ...)`")
}

/// The result type a function declares (`: TYPE`): `Some(None)` when it
/// declares none, `None` when the type is unknown (reported).
pub(crate) fn fn_result(decl: &ast::FnDecl, diags: &mut Vec<Diagnostic>) -> Option<Option<Type>> {
    let Some(ty) = &decl.result else { return Some(None) };
    declared_type(ty, diags).map(Some)
}

/// A type named in a declaration, or a diagnostic.
fn declared_type(ty: &ast::Ident, diags: &mut Vec<Diagnostic>) -> Option<Type> {
    let t = Type::by_name(&ty.name);
    if t.is_none() {
        diags.push(
            Diagnostic::new(Code::BadVar, format!("unknown type `{}`", ty.name))
                .at(ty.span, "not a type")
                .maybe_note(did_you_mean(&ty.name, Type::DECLARABLE.iter().copied()))
                .note(format!("types are {}", Type::DECLARABLE.join(", "))),
        );
    }
    t
}

/// A function's signature from its declared parameter types.
pub(crate) fn fn_params(decl: &ast::FnDecl, locals: &mut Locals, diags: &mut Vec<Diagnostic>) -> Option<Vec<Type>> {
    let mut params = Vec::new();
    let mut ok = true;
    for (name, ty) in &decl.params {
        match declared_type(ty, diags) {
            Some(t) => {
                locals.bind(&name.name, t, None);
                params.push(t);
            }
            None => ok = false,
        }
    }
    ok.then_some(params)
}
