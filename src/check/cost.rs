//! The worst case of each function, counted in calls. A function may call
//! only functions declared before it, so its count is one plus the counts of
//! every call written in its body, computed in declaration order. A call
//! inside a comprehension or a loop runs once per member, which is not known
//! until the game runs, so it counts once here: the figure is a floor, and a
//! function over [`MAX_CALLS`] is refused by construction (the run-time
//! budget catches the rest).

use crate::ir::expr::Expr;
use crate::ir::program::{FnBody, Program, Stmt};
use crate::ir::BlockId;

/// Most calls one run of a function may make, counted as above.
pub(crate) const MAX_CALLS: u64 = 1_000_000;

/// For each function, in order: the calls one run of it makes (itself included).
pub(crate) fn call_counts(program: &Program) -> Vec<u64> {
    let mut counts: Vec<u64> = Vec::with_capacity(program.functions.len());
    for function in &program.functions {
        let inner = match &function.body {
            FnBody::Expr(e) => expr_calls(e, &counts),
            FnBody::Block(b) => block_calls(program, *b, &counts, 0),
        };
        counts.push(inner.saturating_add(1));
    }
    counts
}

/// The functions over [`MAX_CALLS`] that are the cause: over the limit
/// although every function they call is within it (the functions calling
/// them are over only because of them). Each with its count.
pub(crate) fn too_many_calls(program: &Program) -> Vec<(usize, u64)> {
    let counts = call_counts(program);
    let within: Vec<u64> = counts.iter().map(|&c| if c > MAX_CALLS { 1 } else { 0 }).collect();
    program
        .functions
        .iter()
        .enumerate()
        .filter(|(f, _)| counts[*f] > MAX_CALLS)
        .filter(|(_, function)| {
            // Counted with every over-limit function as 1, it calls none of them.
            let calls_over = match &function.body {
                FnBody::Expr(e) => expr_calls(e, &within),
                FnBody::Block(b) => block_calls(program, *b, &within, 0),
            };
            calls_over == 0
        })
        .map(|(f, _)| (f, counts[f]))
        .collect()
}

/// The count of a call to `func`; a function not counted yet (it cannot be
/// called before its declaration) counts once.
fn called(func: usize, counts: &[u64]) -> u64 {
    counts.get(func).copied().unwrap_or(1)
}

fn expr_calls(expr: &Expr, counts: &[u64]) -> u64 {
    let all = |exprs: &[Expr]| exprs.iter().fold(0u64, |n, e| n.saturating_add(expr_calls(e, counts)));
    match expr {
        Expr::Call { func, args } => called(*func as usize, counts).saturating_add(all(args)),
        Expr::MemberVar { of, .. } => expr_calls(of, counts),
        Expr::Query { of, args, .. } => of
            .as_deref()
            .map_or(0, |o| expr_calls(o, counts))
            .saturating_add(all(args)),
        Expr::Unary(_, e) => expr_calls(e, counts),
        Expr::Binary(_, l, r) => expr_calls(l, counts).saturating_add(expr_calls(r, counts)),
        Expr::If { cond, then, otherwise } => {
            expr_calls(cond, counts).saturating_add(expr_calls(then, counts).max(expr_calls(otherwise, counts)))
        }
        Expr::Let { value, body, .. } => expr_calls(value, counts).saturating_add(expr_calls(body, counts)),
        Expr::Count { list, filter, .. } => list
            .as_deref()
            .map_or(0, |l| expr_calls(l, counts))
            .saturating_add(filter.as_deref().map_or(0, |f| expr_calls(f, counts))),
        Expr::Int(_)
        | Expr::Bool(_)
        | Expr::Nothing
        | Expr::Kind(_)
        | Expr::Marker(_)
        | Expr::Icon(_)
        | Expr::FigureType(_)
        | Expr::Direction(_)
        | Expr::Card(_)
        | Expr::Deck(_)
        | Expr::Reason(_)
        | Expr::Spot(_)
        | Expr::Subject
        | Expr::Local(_)
        | Expr::GameVar(_) => 0,
    }
}

/// Calls made by the statements of a block and the blocks inside it
/// (`depth` guards against a malformed program whose blocks nest in a loop).
fn block_calls(program: &Program, block: BlockId, counts: &[u64], depth: u32) -> u64 {
    let Some(stmts) = program.blocks.get(block as usize) else {
        return 0;
    };
    if depth > 256 {
        return 0;
    }
    let mut n: u64 = 0;
    let mut add = |k: u64| n = n.saturating_add(k);
    for at in stmts {
        let e = |x: &Expr| expr_calls(x, counts);
        let opt = |x: &Option<Expr>| x.as_ref().map_or(0, |x| expr_calls(x, counts));
        let inner = |b: &BlockId| block_calls(program, *b, counts, depth + 1);
        let opt_block = |b: &Option<BlockId>| b.as_ref().map_or(0, inner);
        match &at.stmt {
            Stmt::Score { amount, to, reason } => add(e(amount).saturating_add(e(to)).saturating_add(e(reason))),
            Stmt::Place { owner, on, at, .. } => add(opt(owner).saturating_add(e(on)).saturating_add(opt(at))),
            Stmt::Move { figure, to, at } => add(e(figure).saturating_add(e(to)).saturating_add(opt(at))),
            Stmt::DrawCard { player, .. } => add(e(player)),
            Stmt::ExtraTile { .. } => {}
            Stmt::Discard { card, player } => add(e(card).saturating_add(opt(player))),
            Stmt::Strengthen { player, feature, by } => add(e(player).saturating_add(e(feature)).saturating_add(e(by))),
            Stmt::Adjust { feature, amount, .. } => add(e(feature).saturating_add(e(amount))),
            Stmt::Delay { feature } => add(e(feature)),
            Stmt::Swap { a, b } => add(e(a).saturating_add(e(b))),
            Stmt::Steer { square } => add(e(square)),
            Stmt::ExtraTurn => {}
            Stmt::Return { figure } => add(e(figure)),
            Stmt::Set { of, value, .. } => add(opt(of).saturating_add(e(value))),
            Stmt::Let { value, .. } => add(e(value)),
            Stmt::If { cond, then, otherwise } => {
                add(e(cond).saturating_add(inner(then)).saturating_add(opt_block(otherwise)))
            }
            Stmt::ForEach { list, filter, body, .. } => {
                add(opt(list).saturating_add(opt(filter)).saturating_add(inner(body)))
            }
            Stmt::Choose {
                by,
                list,
                filter,
                body,
                otherwise,
                ..
            } => add(e(by)
                .saturating_add(opt(list))
                .saturating_add(opt(filter))
                .saturating_add(inner(body))
                .saturating_add(opt_block(otherwise))),
            Stmt::PlaceAtSpot { owner, .. } => add(opt(owner)),
            Stmt::MoveToSpot { figure, .. } => add(e(figure)),
            Stmt::ChooseOption { by, options } => add(options.iter().fold(e(by), |k, o| {
                k.saturating_add(opt(&o.when)).saturating_add(inner(&o.body))
            })),
            Stmt::Call { func, args } => add(args
                .iter()
                .fold(called(*func as usize, counts), |k, a| k.saturating_add(e(a)))),
        }
    }
    n
}
