//! What rule expressions look like: tests of an expression's shape that
//! read no game, shared by the evaluator, the compiler and the gates of
//! handlers (`gate.rs`, which the rules build below the evaluator).

use crate::ir::expr::{Builtin, Expr};
use crate::ir::program::{FnBody, Program};
use crate::ir::shared::FnId;
use crate::ir::{BinOp, KindId, UnOp};

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

/// The operands of a chain of `and`s, left to right.
pub(super) fn and_chain<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match e {
        Expr::Binary(BinOp::And, l, r) => {
            and_chain(l, out);
            and_chain(r, out);
        }
        _ => out.push(e),
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
            | Builtin::FigureType
            | Builtin::FigureTile
            | Builtin::Lying
            | Builtin::Weight
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
            | Builtin::LiesOn
            | Builtin::StandsOn
    )
}

/// The value `E` of a filter that starts with `x.B == E` (or `E == x.B`),
/// `x` bound to `slot`, `B` the built-in `test` (a feature's kind, a figure's
/// owner) and `E` a constant, another local variable or a global query
/// without arguments (`current_player`): such a filter is false for every
/// member whose `B` is not `E`'s value, and `E` reads nothing the members
/// change. A filter that calls a value function with `x` and other such
/// simple arguments is looked into: `mine(x)` whose body starts
/// with `x.owner == current_player`.
pub(super) fn member_test<'e>(program: &'e Program, filter: &'e Expr, slot: u16, test: Builtin) -> Option<&'e Expr> {
    leading_test(program, filter, slot, &|e, slot| local_query(e) == Some((test, slot)))
}

/// The kinds a filter lets through by its first test: `x.kind == K`, or
/// an `or` of such tests, `x` bound to `slot` (also looked for in a called
/// function's body, as [`member_test`] looks): such a filter is false, with
/// no failure, for every member of another kind. `None` when it starts with
/// no such test. `(f.kind == road or f.kind == city) and ...` lets roads and
/// cities through.
pub(super) fn kinds_test(program: &Program, filter: &Expr, slot: u16) -> Option<Vec<KindId>> {
    match filter {
        Expr::Binary(BinOp::And, first, _) => kinds_test(program, first, slot),
        Expr::Binary(BinOp::Or, a, b) => {
            let mut kinds = kinds_test(program, a, slot)?;
            kinds.extend(kinds_test(program, b, slot)?);
            Some(kinds)
        }
        Expr::Binary(BinOp::Eq, ..) => match member_test(program, filter, slot, Builtin::Kind)? {
            Expr::Kind(k) => Some(vec![*k]),
            _ => None,
        },
        Expr::Call { func, args } => {
            let (body, param) = called_with_member(program, *func, args, slot)?;
            kinds_test(program, body, param)
        }
        _ => None,
    }
}

/// The value `E` of a filter that starts with `x == E` (or `E == x`), `x`
/// bound to `slot` and `E` as in [`member_test`] (also looked for in a
/// called function's body): such a filter is false for every member but
/// `E`'s value (`may`'s `choose` of the current player among the players).
pub(super) fn itself_test<'e>(program: &'e Program, filter: &'e Expr, slot: u16) -> Option<&'e Expr> {
    leading_test(
        program,
        filter,
        slot,
        &|e, slot| matches!(e, Expr::Local(s) if *s == slot),
    )
}

/// [`member_test`] and [`itself_test`]: the `E` of a leading `M == E`,
/// where `of_member(M, slot)` says that `M` reads the member bound to `slot`.
fn leading_test<'e>(
    program: &'e Program,
    filter: &'e Expr,
    slot: u16,
    of_member: &dyn Fn(&Expr, u16) -> bool,
) -> Option<&'e Expr> {
    let fixed = |e: &Expr| fixed(e, slot);
    match filter {
        Expr::Binary(BinOp::And, first, _) => leading_test(program, first, slot, of_member),
        Expr::Binary(BinOp::Eq, a, b) => {
            let of_member = |e: &Expr| of_member(e, slot);
            if of_member(a) && fixed(b) {
                Some(b)
            } else if of_member(b) && fixed(a) {
                Some(a)
            } else {
                None
            }
        }
        Expr::Call { func, args } => {
            let (body, param) = called_with_member(program, *func, args, slot)?;
            match leading_test(program, body, param, of_member)? {
                // A parameter: the argument given for it.
                Expr::Local(q) => args.get(*q as usize).filter(|a| fixed(a)),
                other => Some(other),
            }
        }
        _ => None,
    }
}

/// The body of value function `func` called with `args`, and the slot of
/// its parameter given the member bound to `slot`, when every argument is
/// simple (a local variable or [`fixed`]: evaluating them cannot fail, so a
/// call not made for a member passed over fails no differently). Functions
/// call only those declared before them, so looking into bodies ends.
fn called_with_member<'e>(program: &'e Program, func: FnId, args: &[Expr], slot: u16) -> Option<(&'e Expr, u16)> {
    if !args.iter().all(|a| matches!(a, Expr::Local(_)) || fixed(a, slot)) {
        return None;
    }
    let FnBody::Expr(body) = &program.functions.get(func as usize)?.body else {
        return None;
    };
    let param = args.iter().position(|a| matches!(a, Expr::Local(s) if *s == slot))?;
    Some((body, param as u16))
}

/// Whether `e` is a constant, a local variable other than `slot` or a
/// global query without arguments (`current_player`): evaluating it cannot
/// fail, and it reads nothing a member bound to `slot` changes.
pub(super) fn fixed(e: &Expr, slot: u16) -> bool {
    match e {
        Expr::Kind(_) | Expr::Nothing | Expr::FigureType(_) => true,
        Expr::Local(s) => *s != slot,
        Expr::Query { of: None, args, .. } => args.is_empty(),
        _ => false,
    }
}

/// Farthest distance a scan of the features near a tile looks ([`near_test`]):
/// 7 by 7 squares.
pub(super) const NEAR_MAX: i64 = 3;

/// The tile `E` and the distance `d` of a feature filter whose leading
/// conjuncts, after member tests only (`x.kind == K`, `x.owner == P`),
/// include `distance(x.tile, E) <= d` (or `== d`, `< d + 1`, either way
/// round), `x` bound to `slot`, `E` [`fixed`] and `d` at most [`NEAR_MAX`]:
/// such a filter is false, with no failure, for every feature whose tile
/// (the tile of its root) lies farther from `E`, so a scan may pass over
/// those features without judging them.
pub(super) fn near_test(filter: &Expr, slot: u16) -> Option<(&Expr, i64)> {
    // `Ok(None)`: only member tests so far; `Err`: something else first.
    fn leading(e: &Expr, slot: u16) -> Result<Option<(&Expr, i64)>, ()> {
        match e {
            Expr::Binary(BinOp::And, l, r) => match leading(l, slot)? {
                Some(found) => Ok(Some(found)),
                None => leading(r, slot),
            },
            Expr::Binary(BinOp::Eq, a, b) => {
                let member =
                    |e: &Expr| matches!(local_query(e), Some((Builtin::Kind | Builtin::Owner, s)) if s == slot);
                if (member(a) && fixed(b, slot)) || (member(b) && fixed(a, slot)) {
                    return Ok(None);
                }
                distance_bound(e, slot).map(Some).ok_or(())
            }
            _ => distance_bound(e, slot).map(Some).ok_or(()),
        }
    }
    leading(filter, slot).ok().flatten()
}

/// `distance(x.tile, E) op c` as `(E, d)`: every feature it holds for lies
/// within `d` squares of `E` (see [`near_test`]).
pub(super) fn distance_bound(e: &Expr, slot: u16) -> Option<(&Expr, i64)> {
    let Expr::Binary(op, l, r) = e else {
        return None;
    };
    let (distance, op, c) = match (&**l, &**r) {
        (_, Expr::Int(c)) => (&**l, *op, *c),
        (Expr::Int(c), _) => (&**r, flipped(*op), *c),
        _ => return None,
    };
    let d = match op {
        BinOp::Eq | BinOp::Le => c,
        BinOp::Lt => c.checked_sub(1)?,
        _ => return None,
    };
    let Expr::Query {
        builtin: Builtin::Distance,
        of: None,
        args,
    } = distance
    else {
        return None;
    };
    let tile_of_member = |e: &Expr| local_query(e) == Some((Builtin::FeatureTile, slot));
    let other = match args.as_slice() {
        [a, b] if tile_of_member(a) && fixed(b, slot) => b,
        [a, b] if tile_of_member(b) && fixed(a, slot) => a,
        _ => return None,
    };
    (0..=NEAR_MAX).contains(&d).then_some((other, d))
}

/// Whether a feature filter, `x` bound to `slot`, is false with no failure
/// for every feature with no figure on it: its leading conjuncts, after
/// tests that cannot fail (member tests `x.kind == K`, `x.owner == P`,
/// and `or` of two such tests;
/// yes-or-no questions of `x` alone, bare or negated: a built-in answered
/// from `x` alone, `x.scored`, or a variable of `x`, `not x.locked`;
/// distance bounds of [`near_test`]), include one that some figure on `x`
/// must pass:
/// `count(m in x.figures where ...) > 0` (or `>= 1`, `!= 0`; the same of
/// `x.owners`, whose members each have a figure there), `x.followers(P) > 0`
/// (`P` as in a member test), or a call of a
/// value function with `x` and other simple arguments whose body is such a
/// filter (`occupied_by_others(x)`). A scan may then pass over the features
/// with no figure on them without judging them: a feature's figures are
/// those counted on it.
pub(super) fn occupied_test(program: &Program, filter: &Expr, slot: u16) -> bool {
    /// `Ok(true)`: a test some figure must pass; `Ok(false)`: only tests
    /// that cannot fail so far; `Err`: something else first.
    fn leading(program: &Program, e: &Expr, slot: u16) -> Result<bool, ()> {
        let on_member = |e: &Expr| matches!(local_query(e), Some((b, s)) if s == slot && answered_alone(b));
        match e {
            Expr::Binary(BinOp::And, l, r) => match leading(program, l, slot)? {
                true => Ok(true),
                false => leading(program, r, slot),
            },
            // Either of two tests that cannot fail: one that cannot fail.
            Expr::Binary(BinOp::Or, l, r) => match (leading(program, l, slot)?, leading(program, r, slot)?) {
                (false, false) => Ok(false),
                _ => Err(()),
            },
            Expr::Binary(op, l, r) => {
                // A player's followers there are figures there.
                if let Some(Expr::Query {
                    builtin: Builtin::Followers,
                    of: Some(of),
                    args,
                }) = positive(*op, l, r)
                {
                    if matches!(**of, Expr::Local(s) if s == slot) && args.iter().all(|a| fixed(a, slot)) {
                        return Ok(true);
                    }
                }
                if let Some((count, true)) = existence_test(*op, l, r) {
                    if let Expr::Count { list: Some(list), .. } = count {
                        // A feature's owners hold a figure there too.
                        if let Expr::Query {
                            builtin: Builtin::Figures | Builtin::Owners,
                            of: Some(of),
                            args,
                        } = &**list
                        {
                            if args.is_empty() && matches!(**of, Expr::Local(s) if s == slot) {
                                return Ok(true);
                            }
                        }
                    }
                    return Err(());
                }
                let member_test =
                    *op == BinOp::Eq && ((on_member(l) && fixed(r, slot)) || (on_member(r) && fixed(l, slot)));
                if member_test || distance_bound(e, slot).is_some() {
                    return Ok(false);
                }
                Err(())
            }
            Expr::Unary(UnOp::Not, x) => match &**x {
                x if on_member(x) => Ok(false),
                Expr::MemberVar { of, .. } if matches!(**of, Expr::Local(s) if s == slot) => Ok(false),
                _ => Err(()),
            },
            Expr::MemberVar { of, .. } if matches!(**of, Expr::Local(s) if s == slot) => Ok(false),
            e if on_member(e) => Ok(false),
            Expr::Call { func, args } => {
                let (body, param) = called_with_member(program, *func, args, slot).ok_or(())?;
                match leading(program, body, param)? {
                    true => Ok(true),
                    false => Err(()),
                }
            }
            _ => Err(()),
        }
    }
    leading(program, filter, slot) == Ok(true)
}

/// `e > 0` (or `>= 1`, `!= 0`, either way round) as `e`.
pub(super) fn positive<'e>(op: BinOp, l: &'e Expr, r: &'e Expr) -> Option<&'e Expr> {
    match against_zero(op, l, r)? {
        (e, true) => Some(e),
        (_, false) => None,
    }
}
