//! Evaluating rule expressions against the board: the feature queries of
//! `ir::expr::BUILTINS`, arithmetic (checked, so a rule cannot overflow), and
//! `count`.

use super::board::Board;
use super::features::{FeatureId, Features};
use crate::ir::expr::{Arg, Builtin, Expr};
use crate::ir::{KindId, RulePack};
use crate::syntax::ast::{BinOp, UnOp};

/// A value during evaluation.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Bool(bool),
    Feature(FeatureId),
    Features(Vec<FeatureId>),
    Kind(KindId),
}

/// Why an expression could not be evaluated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    Overflow,
    DivisionByZero,
}

impl std::fmt::Display for EvalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            EvalError::Overflow => "arithmetic overflow",
            EvalError::DivisionByZero => "division by zero",
        })
    }
}

/// What an expression may look at.
pub struct View<'a> {
    pub pack: &'a RulePack,
    pub features: &'a Features,
    pub board: &'a Board,
}

impl View<'_> {
    /// Evaluates a number-valued expression about feature `subject`.
    pub fn int(&self, expr: &Expr, subject: FeatureId) -> Result<i64, EvalError> {
        match self.eval(expr, subject, &mut Vec::new())? {
            Value::Int(n) => Ok(n),
            _ => Ok(0),
        }
    }

    /// Evaluates a condition about feature `subject`.
    pub fn truth(&self, expr: &Expr, subject: FeatureId) -> Result<bool, EvalError> {
        Ok(self.eval(expr, subject, &mut Vec::new())? == Value::Bool(true))
    }

    /// Whether the feature satisfies its kind's `complete when`.
    pub fn completed(&self, f: FeatureId) -> Result<bool, EvalError> {
        match &self.pack.kinds[self.features.kind(f) as usize].complete {
            Some(rule) => self.truth(rule, f),
            None => Ok(false),
        }
    }

    fn eval(&self, expr: &Expr, subject: FeatureId, locals: &mut Vec<FeatureId>) -> Result<Value, EvalError> {
        Ok(match expr {
            Expr::Int(n) => Value::Int(*n),
            Expr::Bool(b) => Value::Bool(*b),
            Expr::Kind(k) => Value::Kind(*k),
            Expr::Subject => Value::Feature(subject),
            Expr::Local(slot) => Value::Feature(locals.get(*slot as usize).copied().unwrap_or(subject)),
            Expr::Query { builtin, of, arg } => {
                let Value::Feature(f) = self.eval(of, subject, locals)? else {
                    return Ok(Value::Int(0));
                };
                self.query(*builtin, f, *arg)?
            }
            Expr::Unary(UnOp::Not, e) => Value::Bool(self.eval(e, subject, locals)? != Value::Bool(true)),
            Expr::Unary(UnOp::Neg, e) => match self.eval(e, subject, locals)? {
                Value::Int(n) => Value::Int(n.checked_neg().ok_or(EvalError::Overflow)?),
                other => other,
            },
            Expr::Binary(op, l, r) => self.binary(*op, l, r, subject, locals)?,
            Expr::Count { slot, list, filter } => {
                let Value::Features(members) = self.eval(list, subject, locals)? else {
                    return Ok(Value::Int(0));
                };
                let mut n = 0;
                for m in members {
                    locals.truncate(*slot as usize);
                    locals.push(m);
                    let keep = match filter {
                        Some(cond) => self.eval(cond, subject, locals)? == Value::Bool(true),
                        None => true,
                    };
                    n += i64::from(keep);
                }
                locals.truncate(*slot as usize);
                Value::Int(n)
            }
        })
    }

    fn binary(
        &self,
        op: BinOp,
        l: &Expr,
        r: &Expr,
        subject: FeatureId,
        locals: &mut Vec<FeatureId>,
    ) -> Result<Value, EvalError> {
        // `and` / `or` short-circuit.
        if matches!(op, BinOp::And | BinOp::Or) {
            let left = self.eval(l, subject, locals)? == Value::Bool(true);
            if left == (op == BinOp::Or) {
                return Ok(Value::Bool(left));
            }
            return Ok(Value::Bool(self.eval(r, subject, locals)? == Value::Bool(true)));
        }
        let a = self.eval(l, subject, locals)?;
        let b = self.eval(r, subject, locals)?;
        Ok(match (op, a, b) {
            (BinOp::Eq, a, b) => Value::Bool(a == b),
            (BinOp::Ne, a, b) => Value::Bool(a != b),
            (op, Value::Int(x), Value::Int(y)) => match op {
                BinOp::Lt => Value::Bool(x < y),
                BinOp::Le => Value::Bool(x <= y),
                BinOp::Gt => Value::Bool(x > y),
                BinOp::Ge => Value::Bool(x >= y),
                BinOp::Add => Value::Int(x.checked_add(y).ok_or(EvalError::Overflow)?),
                BinOp::Sub => Value::Int(x.checked_sub(y).ok_or(EvalError::Overflow)?),
                BinOp::Mul => Value::Int(x.checked_mul(y).ok_or(EvalError::Overflow)?),
                BinOp::Div if y == 0 => return Err(EvalError::DivisionByZero),
                BinOp::Div => Value::Int(x.checked_div(y).ok_or(EvalError::Overflow)?),
                BinOp::Rem if y == 0 => return Err(EvalError::DivisionByZero),
                BinOp::Rem => Value::Int(x.checked_rem(y).ok_or(EvalError::Overflow)?),
                _ => Value::Bool(false),
            },
            _ => Value::Bool(false),
        })
    }

    fn query(&self, builtin: Builtin, f: FeatureId, arg: Option<Arg>) -> Result<Value, EvalError> {
        Ok(match builtin {
            Builtin::Tiles => Value::Int(self.features.tile_count(f) as i64),
            Builtin::OpenEdges => Value::Int(i64::from(self.features.open(f))),
            Builtin::Neighbours => {
                let (placed, _) = self.features.members(f).next().unwrap_or((0, 0));
                Value::Int(self.board.neighbours(self.board.placed[placed as usize].pos) as i64)
            }
            Builtin::Completed => Value::Bool(self.completed(f)?),
            Builtin::Touching => Value::Features(self.touching(f)),
            Builtin::Kind => Value::Kind(self.features.kind(f)),
            Builtin::Markers => {
                let Some(Arg::Marker(m)) = arg else {
                    return Ok(Value::Int(0));
                };
                let n: usize = self
                    .features
                    .members(f)
                    .map(|(placed, seg)| {
                        let tile = &self.pack.tiles[self.board.placed[placed as usize].tile as usize];
                        tile.segments[seg as usize].markers.iter().filter(|x| **x == m).count()
                    })
                    .sum();
                Value::Int(n as i64)
            }
        })
    }

    /// The features named by the `touches` lists of this feature's segments, each once.
    pub fn touching(&self, f: FeatureId) -> Vec<FeatureId> {
        let mut out = Vec::new();
        for (placed, seg) in self.features.members(f) {
            let p = &self.board.placed[placed as usize];
            for &t in &self.pack.tiles[p.tile as usize].segments[seg as usize].touches {
                let root = self.features.find(p.first_node + u32::from(t));
                if !out.contains(&root) {
                    out.push(root);
                }
            }
        }
        out
    }
}
