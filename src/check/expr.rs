//! Typing expressions: names resolved to built-ins, kinds, markers and local
//! variables; every operator checked; errors reported once, without cascades.

use super::names::{Namespace, Visibility};
use crate::diagnostic::{did_you_mean, Code, Diagnostic};
use crate::ir::expr::{Arg, Builtin, BuiltinDef, Expr, Type, BUILTINS};
use crate::ir::{KindId, Topology};
use crate::syntax::ast::{self, BinOp, UnOp};

/// Largest integer literal accepted in an expression.
const MAX_LITERAL: u32 = 1_000_000;

/// Where an expression appears.
pub struct ExprScope<'a> {
    /// The feature kind whose clause this is (the implicit subject).
    pub subject: (KindId, Topology),
    pub subject_name: &'a str,
    /// Inside `complete when`, where `completed` would be circular.
    pub in_complete: bool,
    pub unit: usize,
    pub kinds: &'a Namespace,
    pub markers: &'a Namespace,
    pub vis: &'a Visibility,
}

/// Checks `expr` and requires it to have type `want`.
pub fn check_expr(scope: &ExprScope, expr: &ast::Expr, want: Type, diags: &mut Vec<Diagnostic>) -> Option<Expr> {
    let mut cx = Cx {
        scope,
        locals: Vec::new(),
        diags,
    };
    let (ir, ty) = cx.expr(expr)?;
    if ty != want {
        cx.diags.push(mismatch(expr, want, ty, "this clause"));
        return None;
    }
    Some(ir)
}

struct Cx<'a, 'd> {
    scope: &'a ExprScope<'a>,
    locals: Vec<String>,
    diags: &'d mut Vec<Diagnostic>,
}

fn mismatch(expr: &ast::Expr, want: Type, got: Type, place: &str) -> Diagnostic {
    Diagnostic::new(
        Code::TypeMismatch,
        format!("expected a {}, found a {}", want.name(), got.name()),
    )
    .at(expr.span(), format!("this is a {}", got.name()))
    .note(format!("{place} needs a {}", want.name()))
}

impl Cx<'_, '_> {
    fn expr(&mut self, expr: &ast::Expr) -> Option<(Expr, Type)> {
        match expr {
            ast::Expr::Int(n) => {
                if n.value > MAX_LITERAL {
                    self.diags.push(
                        Diagnostic::new(Code::NumberOutOfRange, "number too large")
                            .at(n.span, format!("numbers are limited to {MAX_LITERAL}")),
                    );
                    return None;
                }
                Some((Expr::Int(i64::from(n.value)), Type::Int))
            }
            ast::Expr::Bool(b, _) => Some((Expr::Bool(*b), Type::Bool)),
            ast::Expr::Name(id) => self.name(id),
            ast::Expr::Call { func, args, span } => {
                let def = self.builtin(func)?;
                let arg = self.args(def, func, Some(args), *span)?;
                self.subject_query(def, func)?;
                Some((
                    Expr::Query {
                        builtin: def.builtin,
                        of: Box::new(Expr::Subject),
                        arg,
                    },
                    def.result,
                ))
            }
            ast::Expr::Member { base, name, args, span } => {
                let (base_ir, base_ty) = self.expr(base)?;
                if base_ty != Type::Feature {
                    self.diags.push(
                        Diagnostic::new(
                            Code::TypeMismatch,
                            format!("`.{}` needs a feature, found a {}", name.name, base_ty.name()),
                        )
                        .at(base.span(), format!("this is a {}", base_ty.name()))
                        .note("properties such as `.tiles` and `.completed` apply to features"),
                    );
                    return None;
                }
                let def = self.builtin(name)?;
                let arg = self.args(def, name, args.as_ref(), *span)?;
                Some((
                    Expr::Query {
                        builtin: def.builtin,
                        of: Box::new(base_ir),
                        arg,
                    },
                    def.result,
                ))
            }
            ast::Expr::Unary { op, expr: inner, .. } => {
                let want = match op {
                    UnOp::Not => Type::Bool,
                    UnOp::Neg => Type::Int,
                };
                let (ir, ty) = self.expr(inner)?;
                if ty != want {
                    let place = if *op == UnOp::Not { "`not`" } else { "`-`" };
                    self.diags.push(mismatch(inner, want, ty, place));
                    return None;
                }
                Some((Expr::Unary(*op, Box::new(ir)), want))
            }
            ast::Expr::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs),
            ast::Expr::Count { var, list, filter, .. } => {
                let (list_ir, list_ty) = self.expr(list)?;
                if list_ty != Type::Features {
                    self.diags
                        .push(mismatch(list, Type::Features, list_ty, "`count(x in LIST ...)`"));
                    return None;
                }
                let slot = self.locals.len() as u8;
                self.locals.push(var.name.clone());
                let filter_ir = match filter {
                    Some(f) => {
                        let checked = self.expr(f);
                        match checked {
                            Some((ir, Type::Bool)) => Some(Some(Box::new(ir))),
                            Some((_, ty)) => {
                                self.diags.push(mismatch(f, Type::Bool, ty, "`where`"));
                                None
                            }
                            None => None,
                        }
                    }
                    None => Some(None),
                };
                self.locals.pop();
                Some((
                    Expr::Count {
                        slot,
                        list: Box::new(list_ir),
                        filter: filter_ir?,
                    },
                    Type::Int,
                ))
            }
        }
    }

    fn name(&mut self, id: &ast::Ident) -> Option<(Expr, Type)> {
        if let Some(slot) = self.locals.iter().rposition(|l| *l == id.name) {
            return Some((Expr::Local(slot as u8), Type::Feature));
        }
        if let Some(def) = Builtin::by_name(&id.name) {
            if !def.params.is_empty() {
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
            self.subject_query(def, id)?;
            return Some((
                Expr::Query {
                    builtin: def.builtin,
                    of: Box::new(Expr::Subject),
                    arg: None,
                },
                def.result,
            ));
        }
        let s = self.scope;
        if let Some(e) = s.kinds.get(&id.name) {
            let kind = s.kinds.lookup(id, s.unit, s.vis, self.diags)?;
            let _ = e;
            return Some((Expr::Kind(kind), Type::Kind));
        }
        if s.markers.get(&id.name).is_some() {
            s.markers.lookup(id, s.unit, s.vis, self.diags)?;
            self.diags.push(
                Diagnostic::new(
                    Code::TypeMismatch,
                    format!("marker `{}` is not a value on its own", id.name),
                )
                .at(id.span, "a marker")
                .note(format!("count markers with `markers({})`", id.name)),
            );
            return None;
        }
        let candidates: Vec<&str> = self
            .locals
            .iter()
            .map(String::as_str)
            .chain(BUILTINS.iter().map(|d| d.name))
            .chain(s.kinds.visible_names(s.unit, s.vis))
            .collect();
        self.diags.push(
            Diagnostic::new(Code::UnknownName, format!("unknown name `{}`", id.name))
                .at(id.span, "not a property, feature kind or variable")
                .maybe_note(did_you_mean(&id.name, candidates)),
        );
        None
    }

    fn builtin(&mut self, id: &ast::Ident) -> Option<&'static BuiltinDef> {
        let def = Builtin::by_name(&id.name);
        if def.is_none() {
            self.diags.push(
                Diagnostic::new(
                    Code::UnknownProperty,
                    format!("unknown property or function `{}`", id.name),
                )
                .at(id.span, "not a built-in")
                .maybe_note(did_you_mean(&id.name, BUILTINS.iter().map(|d| d.name)))
                .note("docs/language.md lists the built-in feature queries"),
            );
        }
        def
    }

    /// Checks that a query on the implicit subject fits the subject's topology
    /// and does not read `completed` while defining completion.
    fn subject_query(&mut self, def: &BuiltinDef, id: &ast::Ident) -> Option<()> {
        let (_, topology) = self.scope.subject;
        if self.scope.in_complete && def.builtin == Builtin::Completed {
            self.diags.push(
                Diagnostic::new(Code::UnknownProperty, "`completed` cannot be used in `complete when`")
                    .at(id.span, "this is what `complete when` defines")
                    .note("say when the feature is complete in terms of other properties, such as `open_edges == 0`"),
            );
            return None;
        }
        if !def.topologies.is_empty() && !def.topologies.contains(&topology) {
            self.diags.push(
                Diagnostic::new(
                    Code::UnknownProperty,
                    format!(
                        "`{}` is not available on `{}`, which is {}",
                        def.name,
                        self.scope.subject_name,
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
        Some(())
    }

    fn args(
        &mut self,
        def: &BuiltinDef,
        id: &ast::Ident,
        args: Option<&Vec<ast::Expr>>,
        span: crate::source::Span,
    ) -> Option<Option<Arg>> {
        let given = args.map_or(0, Vec::len);
        if given != def.params.len() {
            self.diags.push(
                Diagnostic::new(
                    Code::Arity,
                    format!("`{}` takes {} argument(s), {} given", id.name, def.params.len(), given),
                )
                .at(span, "wrong number of arguments")
                .note(format!("for example: {}", def.example)),
            );
            return None;
        }
        let Some(arg) = args.and_then(|a| a.first()) else {
            return Some(None);
        };
        let s = self.scope;
        match (def.params[0], arg) {
            (Type::Marker, ast::Expr::Name(m)) if s.markers.get(&m.name).is_some() => {
                let marker = s.markers.lookup(m, s.unit, s.vis, self.diags)?;
                Some(Some(Arg::Marker(marker)))
            }
            (Type::Marker, ast::Expr::Name(m)) => {
                self.diags.push(s.markers.unknown(m, s.unit, s.vis));
                None
            }
            (want, other) => {
                let got = self.expr(other).map_or(want, |(_, t)| t);
                self.diags
                    .push(mismatch(other, want, got, &format!("the argument of `{}`", def.name)));
                None
            }
        }
    }

    fn binary(&mut self, op: BinOp, lhs: &ast::Expr, rhs: &ast::Expr) -> Option<(Expr, Type)> {
        let l = self.expr(lhs);
        let r = self.expr(rhs);
        let ((l_ir, l_ty), (r_ir, r_ty)) = (l?, r?);
        let (operand, result) = match op {
            BinOp::Or | BinOp::And => (Some(Type::Bool), Type::Bool),
            BinOp::Eq | BinOp::Ne => (None, Type::Bool),
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => (Some(Type::Int), Type::Bool),
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => (Some(Type::Int), Type::Int),
        };
        let place = format!("`{}`", op.symbol());
        match operand {
            Some(want) => {
                for (side, ty) in [(lhs, l_ty), (rhs, r_ty)] {
                    if ty != want {
                        self.diags.push(mismatch(side, want, ty, &place));
                        return None;
                    }
                }
            }
            None if l_ty != r_ty || matches!(l_ty, Type::Features | Type::Marker) => {
                self.diags.push(
                    Diagnostic::new(
                        Code::TypeMismatch,
                        format!("cannot compare a {} with a {}", l_ty.name(), r_ty.name()),
                    )
                    .at(rhs.span(), format!("this is a {}", r_ty.name()))
                    .also(lhs.span(), format!("this is a {}", l_ty.name()))
                    .note("`==` and `!=` compare two numbers, two truth values, two features or two kinds"),
                );
                return None;
            }
            None => {}
        }
        Some((Expr::Binary(op, Box::new(l_ir), Box::new(r_ir)), result))
    }
}

/// How a topology reads in messages.
pub fn topology_words(t: Topology) -> &'static str {
    match t {
        Topology::Edges => "connected through edges",
        Topology::HalfEdges => "connected through half-edges",
        Topology::Area => "an area feature",
    }
}
