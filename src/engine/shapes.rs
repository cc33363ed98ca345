//! What rule expressions look like: tests of an expression's shape that
//! read no game, shared by the evaluator, the compiler and the gates of
//! handlers (`gate.rs`, which the rules build below the evaluator).

use crate::ir::expr::{Builtin, Expr};
use crate::ir::BinOp;

/// `x.B`, a built-in `B` without arguments asked of a local variable `x`,
/// as `(B, x's slot)`.
pub(super) fn local_query(e: &Expr) -> Option<(Builtin, u16)> {
    match e {
        Expr::Query {
            builtin,
            of: Some(of),
            args,
        } if args.is_empty() => match **of {
            Expr::Local(slot) => Some((*builtin, slot)),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `queries.rs` answers the built-in from its receiver alone,
/// evaluating no rule, so that asking it cannot fail (its
/// `simple_query`; a test there keeps the two lists the same).
pub(super) fn answered_alone(b: Builtin) -> bool {
    matches!(
        b,
        Builtin::Tiles
            | Builtin::OpenEdges
            | Builtin::Neighbours
            | Builtin::Scored
            | Builtin::Kind
            | Builtin::Owner
            | Builtin::FigureFeature
            | Builtin::FeatureTile
            | Builtin::Left
            | Builtin::CurrentPlayer
            | Builtin::PlacedTile
            | Builtin::Score
            | Builtin::TileFeatures
            | Builtin::Figures
            | Builtin::Owners
            | Builtin::Touching
    )
}

/// `a op b` as `b op' a`.
pub(super) fn flipped(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Gt => BinOp::Lt,
        BinOp::Le => BinOp::Ge,
        BinOp::Ge => BinOp::Le,
        other => other,
    }
}

/// A comparison of a count with 0 or 1 that only asks whether some member
/// passes (`count(...) > 0`, `>= 1`, `!= 0`, `== 0`, `< 1`, `<= 0`, either
/// way round): the count, and whether the comparison holds when one does.
pub(super) fn existence_test<'e>(op: BinOp, l: &'e Expr, r: &'e Expr) -> Option<(&'e Expr, bool)> {
    against_zero(op, l, r).filter(|(e, _)| matches!(e, Expr::Count { .. }))
}

/// A comparison of a whole number that is never negative (a count, a
/// player's followers) with 0 or 1 that only asks whether it is 0 (`e > 0`,
/// `>= 1`, `!= 0`, `== 0`, `< 1`, `<= 0`, either way round): `e`, and
/// whether the comparison holds when `e` is not 0.
pub(super) fn against_zero<'e>(op: BinOp, l: &'e Expr, r: &'e Expr) -> Option<(&'e Expr, bool)> {
    let (e, op, n) = match (l, r) {
        (_, Expr::Int(n)) => (l, op, *n),
        (Expr::Int(n), _) => (r, flipped(op), *n),
        _ => return None,
    };
    let holds_if_some = match (op, n) {
        (BinOp::Gt | BinOp::Ne, 0) | (BinOp::Ge, 1) => true,
        (BinOp::Eq | BinOp::Le, 0) | (BinOp::Lt, 1) => false,
        _ => return None,
    };
    Some((e, holds_if_some))
}

/// Whether `queries.rs` answers the built-in from its receiver and one
/// argument alone, evaluating no rule, so that asking it cannot fail (its
/// `arg_query`; a test there keeps the two lists the same).
pub(super) fn answered_with_arg(b: Builtin) -> bool {
    matches!(
        b,
        Builtin::Markers
            | Builtin::Followers
            | Builtin::Has
            | Builtin::ControlledBy
            | Builtin::HasIcon
            | Builtin::Supply
            | Builtin::Holds
    )
}
