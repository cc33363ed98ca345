//! A function that returns a value from a block (`fn NAME(...): TYPE { ... }`):
//! its statements may only name values (`let`), choose (`if` / `else`) and
//! `return`, so the block is compiled into one expression — `let` becomes
//! [`Expr::Let`], `if` an [`Expr::If`] whose branches each carry the rest of
//! the block. Evaluating it never changes the game, like any expression.

use super::expr::{check_expr, infer, ExprScope, Locals};
use crate::diagnostic::{Code, Diagnostic};
use crate::ir::expr::{Expr, Type};
use crate::source::Span;
use crate::syntax::ast;

/// Most expression nodes a value function's block may compile to: every
/// `if` without `return` in both branches copies the statements after it.
const MAX_NODES: usize = 10_000;

/// The statements still to run after the current block: each with the
/// number of locals in scope when it resumes.
type Rest<'s> = Vec<(&'s [ast::Stmt], usize)>;

/// Compiles a value function's block into the expression it returns.
pub(crate) fn compile(
    scope: &ExprScope,
    locals: &mut Locals,
    block: &ast::Block,
    result: Type,
    name: Span,
    diags: &mut Vec<Diagnostic>,
) -> Option<Expr> {
    let before = diags.len();
    let mut cx = Cx {
        scope,
        locals,
        diags,
        result,
        name,
        nodes: 0,
    };
    let out = cx.seq(&block.stmts, &mut Vec::new());
    // The statements after an `if` are checked once for each way into
    // them: report each problem once.
    let mut seen = Vec::new();
    let mut i = before;
    while i < diags.len() {
        let key = (
            diags[i].code,
            diags[i].primary.as_ref().map(|(s, _)| *s),
            diags[i].message.clone(),
        );
        if seen.contains(&key) {
            diags.remove(i);
        } else {
            seen.push(key);
            i += 1;
        }
    }
    out
}

struct Cx<'a, 'l, 'd> {
    scope: &'a ExprScope<'a>,
    locals: &'l mut Locals,
    diags: &'d mut Vec<Diagnostic>,
    result: Type,
    name: Span,
    nodes: usize,
}

impl<'s> Cx<'_, '_, '_> {
    fn seq(&mut self, stmts: &'s [ast::Stmt], rest: &mut Rest<'s>) -> Option<Expr> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            self.diags.push(
                Diagnostic::new(Code::ValueFunction, "function too branchy")
                    .at(
                        self.name,
                        format!("this function's block compiles to more than {MAX_NODES} steps"),
                    )
                    .note("end each `if` branch with `return`, or split the function in two"),
            );
            return None;
        }
        let Some((first, tail)) = stmts.split_first() else {
            let Some((next, depth)) = rest.pop() else {
                self.diags.push(
                    Diagnostic::new(Code::ValueFunction, "function may end without a value")
                        .at(
                            self.name,
                            "some way through this function reaches its end without `return`",
                        )
                        .note("end the block, and every `if` without `else`, with `return VALUE`"),
                );
                return None;
            };
            self.locals.truncate(depth);
            let out = self.seq(next, rest);
            rest.push((next, depth));
            return out;
        };
        match first {
            ast::Stmt::Let { name, value, .. } => {
                let t = infer(self.scope, self.locals, value, self.diags)?;
                let slot = self.locals.bind(&name.name, t.ty, t.kind);
                let body = self.seq(tail, rest)?;
                Some(Expr::Let {
                    slot,
                    value: Box::new(t.expr),
                    body: Box::new(body),
                })
            }
            ast::Stmt::Return { figure: value, span } => {
                if let Some(next) = tail.first() {
                    self.diags.push(
                        Diagnostic::new(Code::ValueFunction, "statement after `return`")
                            .at(next.span(), "never runs")
                            .also(*span, "the function returns here")
                            .note("delete the statement, or put the `return` inside an `if`"),
                    );
                    return None;
                }
                let t = check_expr(
                    self.scope,
                    self.locals,
                    value,
                    self.result,
                    "the function's result",
                    self.diags,
                )?;
                Some(t.expr)
            }
            ast::Stmt::If {
                cond,
                then,
                otherwise,
                span,
            } => {
                if let Some(next) = tail.first().filter(|_| always_returns(first)) {
                    self.diags.push(
                        Diagnostic::new(Code::ValueFunction, "statement after `return`")
                            .at(next.span(), "never runs")
                            .also(*span, "every way through this `if` returns")
                            .note("delete the statement, or move it into a branch"),
                    );
                    return None;
                }
                let c = check_expr(self.scope, self.locals, cond, Type::Bool, "`if`", self.diags)?;
                let depth = self.locals.depth();
                rest.push((tail, depth));
                let a = self.seq(&then.stmts, rest);
                self.locals.truncate(depth);
                let b = match otherwise {
                    Some(b) => self.seq(&b.stmts, rest),
                    None => self.seq(&[], rest),
                };
                self.locals.truncate(depth);
                rest.pop();
                Some(Expr::If {
                    cond: Box::new(c.expr),
                    then: Box::new(a?),
                    otherwise: Box::new(b?),
                })
            }
            other => {
                self.diags.push(
                    Diagnostic::new(Code::ValueFunction, "a function that returns a value cannot have effects")
                        .at(other.span(), "this statement changes the game or asks a player")
                        .note("a function with a result type may only use `let`, `if` / `else` and `return`; drop `: TYPE` to make it a function with effects, called as a statement"),
                );
                None
            }
        }
    }
}

/// Whether every way through a statement ends in `return`.
fn always_returns(stmt: &ast::Stmt) -> bool {
    match stmt {
        ast::Stmt::Return { .. } => true,
        ast::Stmt::If {
            then,
            otherwise: Some(otherwise),
            ..
        } => ends_in_return(&then.stmts) && ends_in_return(&otherwise.stmts),
        _ => false,
    }
}

/// Whether a block's last statement always returns.
fn ends_in_return(stmts: &[ast::Stmt]) -> bool {
    stmts.last().is_some_and(always_returns)
}
