//! Rule expressions compiled into closures, once per rule pack: each node
//! becomes a closure that does what [`Evaluator::eval`] does for it (the
//! same charges, failures and order of evaluation), without matching on the
//! node at every visit. Conditions compile to closures answering a `bool`,
//! and comparisons of integers to closures on `i64`, so the common guard
//! builds no value at all. Built-in queries, domains and counts share the
//! evaluator's code (`eval.rs`, `queries.rs`).

use super::eval::{
    compare_or_compute, constant_value, Compiled, CompiledChoose, CompiledFilter, Counter, Env, Evaluator, FeatureTest,
    Filter, Node, PlainEvent, PlainSet, PlainValue, Test, CANDIDATE, MAX_EVAL_DEPTH,
};
use super::features::FeatureId;
use super::gate::{decided_by_type, GateTile, GATE_WORK};
use super::queries::{arg_query, figure_owner, simple_query, small_list, tile_root_count, SimpleQuery, SMALL_LIST};
use super::rules::Rules;
use super::shapes::{and_chain, existence_test, itself_test, local_query, member_test, near_test, occupied_test};
use super::value::{EvalError, Value, EVAL_BUDGET, GAME_EVAL_BUDGET_PER_TILE};
use crate::ir::expr::{Builtin, Expr};
use crate::ir::program::{Domain, FnBody, Program, Stmt};
use crate::ir::shared::FnId;
use crate::ir::{BinOp, RulePack, UnOp};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;

/// A value read where it is, which cannot fail: a local variable, the
/// subject, a built-in answered from a local alone (`x.owner`), or a global
/// one without arguments (`current_player`).
#[derive(Clone)]
enum Direct {
    Local(usize),
    Subject,
    Of(SimpleQuery, usize),
    Global(SimpleQuery),
    /// A constant that is neither a list nor a feature.
    Constant(Value),
}

impl Direct {
    /// The value, as the node compiled from its expression answers it.
    fn read(&self, ev: &Evaluator, env: &Env) -> Value {
        match self {
            Direct::Local(slot) => env.locals.get(*slot).map_or(Value::None, read),
            Direct::Subject => env.subject.map_or(Value::None, Value::Feature),
            Direct::Of(answer, slot) => answer(ev, env.locals.get(*slot).unwrap_or(&Value::None)),
            Direct::Global(answer) => answer(ev, &Value::None),
            Direct::Constant(ref v) => read(v),
        }
    }
}

/// A conjunct of a feature filter judged of a feature found by a scan (a
/// root), with nothing bound to the member's slot
/// ([`CompiledFilter::feature`]), each with whether it must hold: what the
/// conjunct's compiled test answers with the feature bound.
enum OnFeature {
    /// `x.completed`: the kind's `complete when`, as the test asks it.
    Completed(bool),
    /// A built-in answered in place (`x.scored`), asked whether it is true.
    Query(SimpleQuery, bool),
    /// `x.q(E)`, `E` read in place (`x.controlled_by(current_player)`).
    Arg(super::queries::ArgQuery, Direct, bool),
    /// A variable of the feature (`x.locked`), whether it is a flag: a flag
    /// that is not 0 is true, anything else is not.
    Flag(crate::ir::VarId, bool, bool),
    /// `x == E`, `E` read in place (`d != from`), features by their roots.
    Same(Direct, bool),
    /// `x.q == E`, both read in place (`f.kind == k`).
    Equal(SimpleQuery, Direct, bool),
    /// A conjunct that does not read the member, compiled.
    Free(Test),
}

impl OnFeature {
    #[inline]
    fn holds(&self, ev: &Evaluator, env: &mut Env, f: FeatureId) -> Result<bool, EvalError> {
        let member = Value::Feature(f);
        Ok(match self {
            OnFeature::Completed(holds) => ev.completed_at(f, env.depth)? == *holds,
            OnFeature::Query(answer, holds) => answer(ev, &member).truthy() == *holds,
            OnFeature::Arg(answer, arg, holds) => answer(ev, &member, &arg.read(ev, env)).truthy() == *holds,
            OnFeature::Flag(var, flag, holds) => (*flag && ev.member_raw(*var, &member) != 0) == *holds,
            OnFeature::Same(other, equal) => {
                let same = match other {
                    Direct::Local(slot) => match env.locals.get(*slot) {
                        Some(Value::Feature(g)) => ev.state.features().find(*g) == f,
                        _ => false,
                    },
                    other => ev.normal(other.read(ev, env)) == member,
                };
                same == *equal
            }
            OnFeature::Equal(answer, other, equal) => {
                (ev.normal(answer(ev, &member)) == ev.normal(other.read(ev, env))) == *equal
            }
            OnFeature::Free(test) => test(ev, env)?,
        })
    }
}

/// An existence count over a tile's features that the tile's type decides
/// ([`decided_by_type`]): its answer for the type, read from `answers`
/// instead of judging the features; for no tile on the board (a count over
/// no feature), as a count of 0 answers. Charged as the count is: once for
/// each of the tile's features, found as the count finds them.
fn by_type(tile: GateTile, answers: Box<[bool]>, holds_if_some: bool) -> Test {
    Box::new(move |ev, env| {
        let t = match tile {
            GateTile::Local(slot) => match env.locals.get(usize::from(slot)) {
                // A placement candidate is no placed tile: its features
                // are not counted, as `t.features` lists none.
                Some(Value::Tile(t)) if *t != CANDIDATE => Some(*t),
                _ => None,
            },
            GateTile::Placed => ev.state.placed_tile().map(|p| p.0),
        };
        let Some((t, placed)) = t.and_then(|t| Some((t, ev.state.board().placed.get(usize::from(t))?))) else {
            return Ok(!holds_if_some);
        };
        ev.charge(tile_root_count(ev, t))?;
        Ok(answers[placed.tile as usize])
    })
}

/// Whether two [`Direct`] values are equal, features by their roots (as
/// `==` compares them): two locals compared where they lie, no copy made.
fn same(a: &Direct, b: &Direct, ev: &Evaluator, env: &Env) -> bool {
    if let (Direct::Local(x), Direct::Local(y)) = (a, b) {
        let none = &Value::None;
        return match (env.locals.get(*x).unwrap_or(none), env.locals.get(*y).unwrap_or(none)) {
            (Value::Feature(f), Value::Feature(g)) => {
                let features = ev.state.features();
                features.find(*f) == features.find(*g)
            }
            (x, y) => x == y,
        };
    }
    ev.normal(a.read(ev, env)) == ev.normal(b.read(ev, env))
}

/// The slot of `x` in `x.feature.kind`, asked of a local variable `x`.
fn figure_feature_kind(e: &Expr) -> Option<u16> {
    match e {
        Expr::Query {
            builtin: Builtin::Kind,
            of: Some(of),
            args,
        } if args.is_empty() => match local_query(of)? {
            (Builtin::FigureFeature, slot) => Some(slot),
            _ => None,
        },
        _ => None,
    }
}

/// The kind of the feature the figure in local `slot` stands or lies on
/// (`x.feature.kind`), read off the graph; `None` for a figure off the
/// board or a value that is no figure, as the query answers `none`.
fn figure_feature_kind_at(ev: &Evaluator, env: &Env, slot: usize) -> Option<u16> {
    match env.locals.get(slot) {
        Some(Value::Figure(id)) => ev
            .state
            .figure(*id)
            .map(|m| ev.state.features().kind(ev.state.feature_of(m.placed, m.seg))),
        _ => None,
    }
}

/// A built-in of one argument that is an [`ArgQuery`](super::queries::ArgQuery),
/// its receiver and argument both read in place (a [`Direct`] value, or a
/// constant argument): the query and both readers.
fn in_place_arg_query(e: &Expr) -> Option<(super::queries::ArgQuery, Direct, Direct)> {
    let Expr::Query { builtin, of, args } = e else {
        return None;
    };
    let [arg] = args.as_slice() else { return None };
    let answer = arg_query(*builtin)?;
    let of = direct(of.as_deref()?)?;
    let arg = direct(arg).or_else(|| constant_value(arg).map(Direct::Constant))?;
    Some((answer, of, arg))
}

/// `(c and a…) or (not c and b…)` (either way round) as `c` and the
/// conjuncts judged when it holds and when it does not, where `c` is a
/// built-in of a local answered in place (`x.lying`): asking it once
/// instead of twice gives the same answer and charges the same work.
fn select<'e>(l: &'e Expr, r: &'e Expr) -> Option<(&'e Expr, Vec<&'e Expr>, Vec<&'e Expr>)> {
    let (mut when, mut unless) = (Vec::new(), Vec::new());
    and_chain(l, &mut when);
    and_chain(r, &mut unless);
    let (first, rest) = when.split_first()?;
    let (other, others) = unless.split_first()?;
    let (c, a, b) = match (first, other) {
        (c, Expr::Unary(UnOp::Not, n)) if **n == **c => (*c, rest, others),
        (Expr::Unary(UnOp::Not, n), c) if **n == **c => (*c, others, rest),
        _ => return None,
    };
    let in_place = local_query(c).is_some_and(|(builtin, _)| simple_query(builtin).is_some());
    in_place.then(|| (c, a.to_vec(), b.to_vec()))
}

/// Whether a filter over `domain` judges features a scan of the board
/// found (not the members of a list, `listed`): those it may judge by
/// their root, unbound ([`CompiledFilter::feature`]).
fn scans_features(domain: &Domain, listed: bool) -> bool {
    !listed && matches!(domain, Domain::Features(_))
}

/// The slot of `x` in `x.owner == current_player` (either way round).
fn owner_against_current(l: &Expr, r: &Expr) -> Option<usize> {
    let current =
        |e: &Expr| matches!(e, Expr::Query { builtin: Builtin::CurrentPlayer, of: None, args } if args.is_empty());
    match (local_query(l), local_query(r)) {
        (Some((Builtin::Owner, slot)), _) if current(r) => Some(usize::from(slot)),
        (_, Some((Builtin::Owner, slot))) if current(l) => Some(usize::from(slot)),
        _ => None,
    }
}

/// Whether `e`, a [`Direct`] value, is a built-in's answer that is never
/// a feature (so `==` compares it as it is, with no root to look up).
fn never_feature(e: &Expr) -> bool {
    matches!(e, Expr::Query { builtin, .. } if *builtin != Builtin::FigureFeature)
}

/// The tests of a filter on a figure `x` (bound to `slot`) made only of
/// `x.owner == E` and `x.owner != E` joined by `and`, each `E` a value read
/// where it is that cannot fail ([`direct`]: `current_player`, another
/// local) or `none`: whether each is an `==`, and its `E`; and whether it
/// also asks that `x` be a follower (`x.type.weight > 0`, set in
/// `followers`). Such a filter charges nothing, cannot fail and reads
/// nothing but the owner and the weight, so how many of a feature's
/// figures pass it is known from how many each owner has there, and
/// whether any follower passes from the owners' majorities
/// ([`Compiler::owner_counter`]).
fn owner_tests<'e>(e: &'e Expr, slot: u16, out: &mut Vec<(bool, &'e Expr)>, followers: &mut bool) -> Option<()> {
    match e {
        Expr::Binary(BinOp::And, a, b) => {
            owner_tests(a, slot, out, followers)?;
            owner_tests(b, slot, out, followers)
        }
        _ if follower_test(e, slot) => {
            *followers = true;
            Some(())
        }
        Expr::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) => {
            let on_owner = |e: &Expr| local_query(e) == Some((Builtin::Owner, slot));
            let read = |e: &Expr| match e {
                Expr::Local(s) => *s != slot,
                _ => matches!(e, Expr::Nothing) || direct(e).is_some(),
            };
            let other = match (on_owner(a), on_owner(b)) {
                (true, false) if read(b) => b,
                (false, true) if read(a) => a,
                _ => return None,
            };
            out.push((*op == BinOp::Eq, other));
            Some(())
        }
        _ => None,
    }
}

/// Whether `e` asks that the figure in `slot` be a follower: its type's
/// weight above 0 (`x.type.weight > 0`, `>= 1`, `!= 0`, either way round).
fn follower_test(e: &Expr, slot: u16) -> bool {
    let weight = |e: &Expr| match e {
        Expr::Query {
            builtin: Builtin::Weight,
            of: Some(of),
            args,
        } if args.is_empty() => local_query(of) == Some((Builtin::FigureType, slot)),
        _ => false,
    };
    match e {
        Expr::Binary(op, l, r) => match (op, &**l, &**r) {
            (BinOp::Gt | BinOp::Ne, w, Expr::Int(0)) | (BinOp::Ge, w, Expr::Int(1)) => weight(w),
            (BinOp::Lt | BinOp::Ne, Expr::Int(0), w) | (BinOp::Le, Expr::Int(1), w) => weight(w),
            _ => false,
        },
        _ => false,
    }
}

/// The figure type of an action whose targets are figures of that one
/// type (`for pawn x`) and whose filter requires the current player to own
/// each target (it starts with `x.owner == current_player`, see
/// [`member_test`]): no figure of the player's stands on the board while
/// all of the type they were given are in their supply, since figures come
/// to the board only from a supply and go back only to their owner's.
fn owned_targets(program: &Program, a: &crate::ir::program::Action) -> Option<crate::ir::FigureTypeId> {
    let Some((crate::ir::program::Domain::Figures(Some(t)), Some(filter))) = &a.domain else {
        return None;
    };
    let owner = member_test(program, filter, 0, Builtin::Owner)?;
    matches!(owner, Expr::Query { builtin: Builtin::CurrentPlayer, of: None, args } if args.is_empty()).then_some(*t)
}

/// `e` as a [`Direct`] value, when it is one.
fn direct(e: &Expr) -> Option<Direct> {
    match e {
        Expr::Local(slot) => Some(Direct::Local(usize::from(*slot))),
        Expr::Subject => Some(Direct::Subject),
        Expr::Query { builtin, of, args } if args.is_empty() => {
            let answer = simple_query(*builtin)?;
            match of.as_deref() {
                None => Some(Direct::Global(answer)),
                Some(Expr::Local(slot)) => Some(Direct::Of(answer, usize::from(*slot))),
                Some(_) => None,
            }
        }
        _ => None,
    }
}

/// A closure answering an integer, for expressions that always evaluate to
/// one.
type IntNode = Box<dyn Fn(&Evaluator, &mut Env) -> Result<i64, EvalError> + Send + Sync>;

/// The arguments an inlined call passes: each parameter's index, and its
/// argument compiled.
type Args = Vec<(usize, Node)>;

/// Compiles every expression evaluation starts from (see [`Compiled`]).
pub(super) fn compile(rules: &Rules) -> Compiled {
    let pack = &rules.pack;
    let program = &pack.program;
    let c = Compiler {
        program,
        pack,
        by_type_work: Cell::new(GATE_WORK),
        top: Cell::new(frame_bound(rules)),
        deepest: Cell::new(0),
        named: RefCell::new(HashMap::new()),
        room: Cell::new(MAX_INLINED_NODES),
        inlining: RefCell::new(Vec::new()),
        kept: RefCell::new(Vec::new()),
        once: Cell::new(false),
    };
    let completed_counts = completed_may_remember(pack);
    let mut compiled = Compiled {
        game_eval_budget: rules
            .tile_count
            .saturating_mul(GAME_EVAL_BUDGET_PER_TILE)
            .max(EVAL_BUDGET),
        functions: program
            .functions
            .iter()
            .enumerate()
            .map(|(i, f)| match &f.body {
                FnBody::Expr(e) => Some(c.within(i as FnId, || c.node(e))),
                _ => None,
            })
            .collect(),
        function_tests: program
            .functions
            .iter()
            .enumerate()
            .map(|(i, f)| match &f.body {
                FnBody::Expr(e) if is_condition(e) => Some(c.within(i as FnId, || c.test(e))),
                _ => None,
            })
            .collect(),
        guards: program
            .handlers
            .iter()
            .map(|h| h.when.as_ref().map(|e| c.once(|| c.test(e))))
            .collect(),
        residual_guards: Vec::new(),
        guard_memo: program
            .handlers
            .iter()
            .map(|h| h.when.as_ref().is_some_and(|e| may_remember(e, completed_counts)))
            .collect(),
        guard_frame_free: program
            .handlers
            .iter()
            .map(|h| h.when.as_ref().is_some_and(frame_free))
            .collect(),
        plain: program.handlers.iter().map(|h| plain_sets(program, h.body)).collect(),
        complete: pack
            .kinds
            .iter()
            .map(|k| k.complete.as_ref().map(|e| c.test(e)))
            .collect(),
        complete_when_closed: pack
            .kinds
            .iter()
            .map(|k| k.complete.as_ref().is_some_and(when_closed))
            .collect(),
        score_completed: pack
            .kinds
            .iter()
            .map(|k| k.score_completed.as_ref().map(|e| c.node(e)))
            .collect(),
        score_frames: pack
            .kinds
            .iter()
            .map(|k| [&k.score_completed, &k.score_final].map(|e| e.as_ref().is_some_and(uses_slots)))
            .collect(),
        score_final: pack
            .kinds
            .iter()
            .map(|k| k.score_final.as_ref().map(|e| c.node(e)))
            .collect(),
        action_when: program
            .actions
            .iter()
            .map(|a| a.when.as_ref().map(|e| c.once(|| c.test(e))))
            .collect(),
        action_filter: program
            .actions
            .iter()
            .map(|a| {
                let (domain, filter) = a.domain.as_ref()?;
                Some(c.filter(filter.as_ref()?, 0, scans_features(domain, false)))
            })
            .collect(),
        action_memo: program
            .actions
            .iter()
            .map(|a| {
                let may = |e: &Expr| may_remember(e, completed_counts);
                a.domain.is_some()
                    && (a.when.as_ref().is_some_and(may)
                        || a.domain.as_ref().and_then(|(_, f)| f.as_ref()).is_some_and(may))
            })
            .collect(),
        action_frame_free: program
            .actions
            .iter()
            .map(|a| a.domain.is_none() && a.when.as_ref().is_none_or(frame_free))
            .collect(),
        action_owned_type: program.actions.iter().map(|a| owned_targets(program, a)).collect(),
        statements: by_statement(program, |stmt| match stmt {
            Stmt::If { cond, .. } => Some(CompiledFilter {
                test: c.test(cond),
                kind: None,
                owner: None,
                itself: None,
                near: None,
                occupied: false,
                rest: None,
                feature: None,
            }),
            Stmt::ForEach {
                slot, filter: Some(f), ..
            } => Some(c.filter(f, *slot, false)),
            Stmt::Choose {
                slot,
                domain,
                list,
                filter: Some(f),
                ..
            } => Some(c.filter(f, *slot, scans_features(domain, list.is_some()))),
            _ => None,
        }),
        chooses: by_statement(program, |stmt| match stmt {
            Stmt::Choose { by, filter, .. } => Some(CompiledChoose {
                by: c.node(by),
                memo: filter.as_ref().is_some_and(|f| may_remember(f, completed_counts)),
            }),
            Stmt::ChooseOption { by, .. } => Some(CompiledChoose {
                by: c.node(by),
                memo: false,
            }),
            _ => None,
        }),
        values: program
            .blocks
            .iter()
            .map(|block| {
                block
                    .iter()
                    .map(|s| {
                        statement_values(&s.stmt)
                            .into_iter()
                            .filter(|e| !matches!(e, Expr::Local(_)) && constant_value(e).is_none())
                            .map(|e| (e as *const Expr as usize, c.node(e)))
                            .collect()
                    })
                    .collect()
            })
            .collect(),
        inlined: Vec::new(),
        frame_slots: 0,
        plain_events: Vec::new(),
        plain_event_sets: Vec::new(),
    };
    compiled.plain_event_sets = rules
        .listeners
        .iter()
        .map(|hs| plain_event(program, &compiled.plain, hs))
        .collect();
    compiled.plain_events = compiled.plain_event_sets.iter().map(Option::is_some).collect();
    // The guards left for tile types last, so that the rules' own
    // expressions are compiled as they were before them (the inlining room
    // and the by-type work are shared).
    compiled.residual_guards = rules
        .residuals
        .iter()
        .map(|r| {
            r.as_ref().map_or_else(Box::default, |r| {
                r.guards.iter().map(|e| c.once(|| c.test(e))).collect()
            })
        })
        .collect();
    compiled.frame_slots = usize::from(c.deepest.get());
    compiled.inlined = c.kept.into_inner();
    compiled
}

/// The values a statement evaluates as it runs (what `statements.rs` asks
/// for at the statement; an `if`'s condition, a filter and a chooser are
/// compiled on their own, and a list is listed by the evaluator).
fn statement_values(stmt: &Stmt) -> Vec<&Expr> {
    let mut out: Vec<&Expr> = Vec::new();
    match stmt {
        Stmt::Score { amount, to, reason } => out.extend([amount, to, reason]),
        Stmt::Place { owner, on, at, .. } => out.extend(owner.iter().chain([on]).chain(at)),
        Stmt::Move { figure, to, at } => out.extend([figure, to].into_iter().chain(at)),
        Stmt::DrawCard { player, .. } => out.push(player),
        Stmt::Discard { card, player } => out.extend(player.iter().chain([card])),
        Stmt::Strengthen { player, feature, by } => out.extend([player, feature, by]),
        Stmt::Adjust { feature, amount, .. } => out.extend([feature, amount]),
        Stmt::Delay { feature } => out.push(feature),
        Stmt::Swap { a, b } => out.extend([a, b]),
        Stmt::Steer { square } => out.push(square),
        Stmt::Return { figure } | Stmt::MoveToSpot { figure, .. } => out.push(figure),
        Stmt::Set { of, value, .. } => out.extend(of.iter().chain([value])),
        Stmt::Let { value, .. } => out.push(value),
        Stmt::Call { args, .. } => out.extend(args),
        Stmt::PlaceAtSpot { owner, .. } => out.extend(owner),
        Stmt::ChooseOption { options, .. } => out.extend(options.iter().filter_map(|o| o.when.as_ref())),
        Stmt::ExtraTile { .. } | Stmt::ExtraTurn | Stmt::If { .. } | Stmt::ForEach { .. } | Stmt::Choose { .. } => {}
    }
    out
}

/// `each` of every statement of the program, by block and index.
fn by_statement<T>(program: &Program, mut each: impl FnMut(&Stmt) -> Option<T>) -> Vec<Vec<Option<T>>> {
    program
        .blocks
        .iter()
        .map(|block| block.iter().map(|s| each(&s.stmt)).collect())
        .collect()
}

/// The sets of a block that only sets game variables, each to a constant
/// or to another game variable: run in order, they do what the block's
/// statements do (a `set` queues nothing, logs nothing and cannot fail on
/// such a value), with no frame. `None` for any other block.
pub(super) fn plain_sets(program: &Program, body: crate::ir::BlockId) -> Option<Box<[PlainSet]>> {
    program.blocks[body as usize]
        .iter()
        .map(|s| match &s.stmt {
            Stmt::Set { var, of: None, value } => Some(PlainSet {
                var: usize::from(*var),
                value: match value {
                    Expr::GameVar(g) => PlainValue::GameVar(usize::from(*g)),
                    e => PlainValue::Constant(constant_value(e)?),
                },
                span: s.span,
            }),
            _ => None,
        })
        .collect()
}

/// The sets of an event's handlers `hs` as one list, in the order its
/// task runs them, when it has handlers and every one has no guard and
/// only sets game variables (`plain`, by handler).
fn plain_event(program: &Program, plain: &[Option<Box<[PlainSet]>>], hs: &[u16]) -> Option<PlainEvent> {
    let mut sets = Vec::new();
    let mut last = None;
    for &h in hs {
        let handler = &program.handlers[h as usize];
        let (None, Some(Some(its))) = (&handler.when, plain.get(h as usize)) else {
            return None;
        };
        sets.extend_from_slice(its);
        last = Some(its.last().map_or(handler.span, |s| s.span));
    }
    Some(PlainEvent {
        sets: sets.into(),
        last: last?,
    })
}

/// Most functions being inlined or compiled inside one another (the
/// function whose body is compiled counts as one); a function already being
/// inlined is called, not inlined again.
const MAX_INLINED: usize = 4;

/// Most local slots a frame grows to for inlined calls.
const MAX_INLINED_SLOTS: u16 = 256;

/// Most expression nodes inlined in a pack's compiled code in all: past it,
/// calls are called (a pack of functions each calling the one before many
/// times would otherwise compile to exponentially many closures).
const MAX_INLINED_NODES: usize = 100_000;

/// More local slots than any frame evaluation runs in has (a handler's, a
/// function's, an action's, a forbid rule's, a card's, a feature kind
/// clause's): inlined calls keep their parameters and variables above it.
fn frame_bound(rules: &Rules) -> u16 {
    let program = &rules.pack.program;
    let clauses = rules.pack.kinds.iter().flat_map(|k| {
        [&k.complete, &k.score_completed, &k.score_final]
            .into_iter()
            .flatten()
            .map(slot_bound)
    });
    let cards = program
        .cards
        .iter()
        .flat_map(|c| [c.on_draw, c.at_end])
        .flatten()
        .map(|(_, slots)| slots);
    program
        .handlers
        .iter()
        .map(|h| h.slots)
        .chain(program.functions.iter().map(|f| f.slots))
        .chain(program.actions.iter().map(|a| a.slots))
        .chain(program.forbids.iter().map(|f| f.slots.max(1)))
        .chain(cards)
        .chain(clauses)
        .max()
        .unwrap_or(0)
}

/// Whether evaluating `e` may use local slots: those it reads or binds
/// ([`slot_bound`]), or a call's (inlined calls run in slots of the
/// caller's frame).
fn uses_slots(e: &Expr) -> bool {
    let mut calls = false;
    visit(e, &mut |e| calls |= matches!(e, Expr::Call { .. }));
    calls || slot_bound(e) > 0
}

/// One more than the highest local slot `e` reads or binds (0 for none).
fn slot_bound(e: &Expr) -> u16 {
    let mut bound = 0;
    visit(e, &mut |e| {
        if let Expr::Local(slot) | Expr::Let { slot, .. } | Expr::Count { slot, .. } = e {
            bound = bound.max(slot.saturating_add(1));
        }
    });
    bound
}

/// How many nodes `e` has.
fn size(e: &Expr) -> usize {
    let mut n = 0;
    visit(e, &mut |_| n += 1);
    n
}

/// Whether evaluating `e` may read or fill an evaluator's [`Memo`]: it
/// counts, lists a tile's features, calls a function, or asks a built-in
/// that runs a feature kind's clauses (the scores, which may count; and
/// `completed` when `completed` says some kind's `complete when` may: see
/// [`completed_may_remember`]). An expression that cannot is judged the
/// same with no memo.
///
/// [`Memo`]: super::eval::Memo
fn may_remember(e: &Expr, completed: bool) -> bool {
    let mut may = false;
    visit(e, &mut |e| {
        may |= match e {
            Expr::Count { .. } | Expr::Call { .. } => true,
            Expr::Query {
                builtin: Builtin::Completed,
                ..
            } => completed,
            Expr::Query { builtin, .. } => matches!(
                builtin,
                Builtin::TileFeatures | Builtin::CompletedScore | Builtin::FinalScore
            ),
            _ => false,
        }
    });
    may
}

/// Whether `e` is judged with no local slot: it reads no local variable
/// (a handler's arguments, a target) and writes none (a count's member, a
/// `let`, an inlined call's parameters). Kinds' clauses run in frames of
/// their own. Such a condition needs no frame of locals.
fn frame_free(e: &Expr) -> bool {
    let mut free = true;
    visit(e, &mut |e| {
        free &= !matches!(
            e,
            Expr::Local(_) | Expr::Count { .. } | Expr::Call { .. } | Expr::Let { .. }
        );
    });
    free
}

/// Whether asking some feature's `completed` may read or fill a memo: some
/// kind's `complete when` is other than `open_edges == 0` (which is read
/// off the graph, `when_closed`) and may itself (asking `completed` of
/// another feature inside it counting as may).
fn completed_may_remember(pack: &RulePack) -> bool {
    pack.kinds
        .iter()
        .filter_map(|k| k.complete.as_ref())
        .any(|e| !when_closed(e) && may_remember(e, true))
}

/// Calls `each` on `e` and every expression inside it.
fn visit(e: &Expr, each: &mut impl FnMut(&Expr)) {
    each(e);
    match e {
        Expr::MemberVar { of, .. } => visit(of, each),
        Expr::Query { of, args, .. } => {
            of.iter().for_each(|e| visit(e, each));
            args.iter().for_each(|e| visit(e, each));
        }
        Expr::Call { args, .. } => args.iter().for_each(|e| visit(e, each)),
        Expr::Unary(_, x) => visit(x, each),
        Expr::Binary(_, a, b) => {
            visit(a, each);
            visit(b, each);
        }
        Expr::If { cond, then, otherwise } => {
            visit(cond, each);
            visit(then, each);
            visit(otherwise, each);
        }
        Expr::Let { value, body, .. } => {
            visit(value, each);
            visit(body, each);
        }
        Expr::Count { list, filter, .. } => {
            list.iter().for_each(|e| visit(e, each));
            filter.iter().for_each(|e| visit(e, each));
        }
        _ => {}
    }
}

/// `e` with every local slot it reads or binds moved up by `by` (a value
/// function's body, to run inlined in its caller's frame); `None` when a
/// slot would pass `u16::MAX` or `e` reads a clause's subject.
fn shifted(e: &Expr, by: u16) -> Option<Expr> {
    let boxed = |e: &Expr| shifted(e, by).map(Box::new);
    let all = |es: &[Expr]| es.iter().map(|e| shifted(e, by)).collect::<Option<Vec<_>>>();
    Some(match e {
        Expr::Subject => return None,
        Expr::Local(s) => Expr::Local(s.checked_add(by)?),
        Expr::MemberVar { var, of } => Expr::MemberVar {
            var: *var,
            of: boxed(of)?,
        },
        Expr::Query { builtin, of, args } => Expr::Query {
            builtin: *builtin,
            of: match of {
                Some(of) => Some(boxed(of)?),
                None => None,
            },
            args: all(args)?,
        },
        Expr::Call { func, args } => Expr::Call {
            func: *func,
            args: all(args)?,
        },
        Expr::Unary(op, x) => Expr::Unary(*op, boxed(x)?),
        Expr::Binary(op, a, b) => Expr::Binary(*op, boxed(a)?, boxed(b)?),
        Expr::If { cond, then, otherwise } => Expr::If {
            cond: boxed(cond)?,
            then: boxed(then)?,
            otherwise: boxed(otherwise)?,
        },
        Expr::Let { slot, value, body } => Expr::Let {
            slot: slot.checked_add(by)?,
            value: boxed(value)?,
            body: boxed(body)?,
        },
        Expr::Count {
            slot,
            domain,
            list,
            filter,
            memo,
            listed,
        } => Expr::Count {
            slot: slot.checked_add(by)?,
            domain: *domain,
            list: match list {
                Some(l) => Some(boxed(l)?),
                None => None,
            },
            filter: match filter {
                Some(f) => Some(boxed(f)?),
                None => None,
            },
            memo: match memo {
                Some(m) => Some(m.iter().map(|s| s.checked_add(by)).collect::<Option<Box<[u16]>>>()?),
                None => None,
            },
            listed: *listed,
        },
        other => other.clone(),
    })
}

/// `e` with every read of local slot `param` made a read of `with` (a
/// local variable or a constant); counts that remember `param` remember the
/// local variable's slot instead.
fn substitute(e: &mut Expr, param: u16, with: &Expr) {
    match e {
        Expr::Local(s) if *s == param => *e = with.clone(),
        Expr::MemberVar { of, .. } => substitute(of, param, with),
        Expr::Query { of, args, .. } => {
            of.iter_mut().for_each(|e| substitute(e, param, with));
            args.iter_mut().for_each(|e| substitute(e, param, with));
        }
        Expr::Call { args, .. } => args.iter_mut().for_each(|e| substitute(e, param, with)),
        Expr::Unary(_, x) => substitute(x, param, with),
        Expr::Binary(_, a, b) => {
            substitute(a, param, with);
            substitute(b, param, with);
        }
        Expr::If { cond, then, otherwise } => {
            substitute(cond, param, with);
            substitute(then, param, with);
            substitute(otherwise, param, with);
        }
        Expr::Let { value, body, .. } => {
            substitute(value, param, with);
            substitute(body, param, with);
        }
        Expr::Count { list, filter, memo, .. } => {
            list.iter_mut().for_each(|e| substitute(e, param, with));
            filter.iter_mut().for_each(|e| substitute(e, param, with));
            if let (Some(memo), Expr::Local(s)) = (memo, with) {
                memo.iter_mut().filter(|m| **m == param).for_each(|m| *m = *s);
            }
        }
        _ => {}
    }
}

/// Whether a count in `e` remembers its value by local slot `param`.
fn remembers(e: &Expr, param: u16) -> bool {
    let mut found = false;
    visit(e, &mut |e| {
        if let Expr::Count { memo: Some(m), .. } = e {
            found |= m.contains(&param);
        }
    });
    found
}

/// Runs a call inlined in the caller's frame: what
/// [`Evaluator::call_with`] does (the same depth limit, charge and order),
/// the callee's frame being the caller's local slots `region..end`, its
/// parameters filled by `args` (parameter, argument); those put in the
/// body by `substitute` are not among them (see [`Compiler::inlined`]).
fn inline_call<T>(
    ev: &Evaluator,
    env: &mut Env,
    args: &Args,
    (region, end): (usize, usize),
    body: impl FnOnce(&Evaluator, &mut Env) -> Result<T, EvalError>,
) -> Result<T, EvalError> {
    if env.depth >= MAX_EVAL_DEPTH {
        return Err(EvalError::TooDeep);
    }
    ev.charge(1)?;
    if env.locals.len() < end {
        env.locals.resize_with(end, || Value::None);
    }
    for (i, arg) in args {
        let v = arg(ev, env)?;
        env.locals[region + i] = v;
    }
    env.depth += 1;
    let out = body(ev, env);
    env.depth -= 1;
    out
}

struct Compiler<'p> {
    program: &'p Program,
    pack: &'p RulePack,
    /// What is left of the work [`decided_by_type`] may do for the pack
    /// (as much as its gates may).
    by_type_work: Cell<u32>,
    /// The first local slot free for the next inlined call's frame.
    top: Cell<u16>,
    /// Expression nodes that may still be inlined ([`MAX_INLINED_NODES`]).
    room: Cell<usize>,
    /// The count nodes of inlined bodies, by address: the address of the
    /// function's own node, which names the count in a memo (as calls in
    /// frames of their own and walked calls name it), whatever call site
    /// runs it.
    named: RefCell<HashMap<usize, usize>>,
    /// The end of the highest inlined call's frame (0: none).
    deepest: Cell<u16>,
    /// The functions being inlined (or compiled), innermost last.
    inlining: RefCell<Vec<FnId>>,
    /// Inlined bodies (their slots moved up), kept as long as the closures
    /// compiled from them: counts are remembered by their node's address.
    #[allow(clippy::vec_box, reason = "boxed, so a body keeps its address when the list grows")]
    kept: RefCell<Vec<Box<Expr>>>,
    /// Whether the node being compiled runs at most once while one memo
    /// lasts: true in a handler's guard (judged once as its event fires) and
    /// an action's `when` (once a look), outside the filters of counts and
    /// the bodies of functions (see [`Compiler::once`]).
    once: Cell<bool>,
}

/// Whether a kind's `complete when` is `open_edges == 0` (either way
/// round, of the subject): true exactly when its feature has no open edge.
fn when_closed(e: &Expr) -> bool {
    let open_edges = |e: &Expr| {
        matches!(e, Expr::Query { builtin: Builtin::OpenEdges, of, args }
            if args.is_empty() && matches!(of.as_deref(), Some(Expr::Subject)))
    };
    match e {
        Expr::Binary(BinOp::Eq, a, b) => {
            (open_edges(a) && matches!(**b, Expr::Int(0))) || (open_edges(b) && matches!(**a, Expr::Int(0)))
        }
        _ => false,
    }
}

/// The built-ins whose every answer is an integer (see `queries.rs`).
fn answers_int(b: Builtin) -> bool {
    matches!(
        b,
        Builtin::Tiles
            | Builtin::OpenEdges
            | Builtin::Neighbours
            | Builtin::Markers
            | Builtin::Followers
            | Builtin::CompletedScore
            | Builtin::FinalScore
            | Builtin::X
            | Builtin::Y
            | Builtin::Rotation
            | Builtin::Score
            | Builtin::Supply
            | Builtin::Cards
            | Builtin::HandSize
            | Builtin::Left
            | Builtin::Ends
            | Builtin::Distance
            | Builtin::Weight
            | Builtin::SquareX
            | Builtin::SquareY
            | Builtin::TilesLeft
            | Builtin::Angle
    )
}

/// Whether `op` answers a truth value (a comparison, `and`, `or`).
fn is_test(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::And | BinOp::Or | BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
    )
}

/// Whether an expression is a condition: its value is `true` or `false`,
/// and compiled as a [`Test`] it answers the same.
fn is_condition(e: &Expr) -> bool {
    match e {
        Expr::Bool(_) | Expr::Unary(UnOp::Not, _) => true,
        Expr::Binary(op, ..) => is_test(*op),
        _ => false,
    }
}

/// A copy of a local's value: single values copied in place, lists cloned.
#[inline(always)]
fn read(v: &Value) -> Value {
    match v {
        Value::Feature(f) => Value::Feature(*f),
        Value::Figure(f) => Value::Figure(*f),
        Value::Player(p) => Value::Player(*p),
        Value::Tile(t) => Value::Tile(*t),
        Value::Int(n) => Value::Int(*n),
        Value::Kind(k) => Value::Kind(*k),
        Value::None => Value::None,
        other => other.clone(),
    }
}

/// A closure answering a constant value.
fn constant(v: Value) -> Node {
    match v {
        Value::Int(n) => Box::new(move |_, _| Ok(Value::Int(n))),
        Value::Bool(b) => Box::new(move |_, _| Ok(Value::Bool(b))),
        Value::Kind(k) => Box::new(move |_, _| Ok(Value::Kind(k))),
        Value::None => Box::new(|_, _| Ok(Value::None)),
        other => Box::new(move |_, _| Ok(other.clone())),
    }
}

impl Compiler<'_> {
    /// Whether variable `var` is a flag (of type `bool`).
    fn is_flag(&self, var: crate::ir::VarId) -> bool {
        self.program
            .vars
            .get(var as usize)
            .is_some_and(|v| v.ty == crate::ir::expr::Type::Bool)
    }

    /// Whether `e` always evaluates to an integer.
    fn is_int(&self, e: &Expr) -> bool {
        match e {
            Expr::Int(_) | Expr::Count { .. } => true,
            Expr::Query { builtin, .. } => answers_int(*builtin),
            Expr::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem, l, r) => {
                self.is_int(l) && self.is_int(r)
            }
            _ => false,
        }
    }

    /// An expression [`Compiler::is_int`] holds for, answering its integer.
    fn int(&self, e: &Expr) -> IntNode {
        match e {
            Expr::Int(n) => {
                let n = *n;
                Box::new(move |_, _| Ok(n))
            }
            Expr::Count { .. } => {
                let count = self.counter(e);
                Box::new(move |ev, env| count(ev, env, i64::MAX))
            }
            Expr::Binary(op, l, r) => {
                let (l, r) = (self.int(l), self.int(r));
                match op {
                    BinOp::Add => {
                        Box::new(move |ev, env| l(ev, env)?.checked_add(r(ev, env)?).ok_or(EvalError::Overflow))
                    }
                    BinOp::Sub => {
                        Box::new(move |ev, env| l(ev, env)?.checked_sub(r(ev, env)?).ok_or(EvalError::Overflow))
                    }
                    BinOp::Mul => {
                        Box::new(move |ev, env| l(ev, env)?.checked_mul(r(ev, env)?).ok_or(EvalError::Overflow))
                    }
                    BinOp::Div => Box::new(move |ev, env| {
                        let (x, y) = (l(ev, env)?, r(ev, env)?);
                        if y == 0 {
                            return Err(EvalError::DivisionByZero);
                        }
                        x.checked_div(y).ok_or(EvalError::Overflow)
                    }),
                    _ => Box::new(move |ev, env| {
                        let (x, y) = (l(ev, env)?, r(ev, env)?);
                        if y == 0 {
                            return Err(EvalError::DivisionByZero);
                        }
                        x.checked_rem(y).ok_or(EvalError::Overflow)
                    }),
                }
            }
            Expr::Query { builtin, of, args } if args.is_empty() && simple_query(*builtin).is_some() => {
                let answer = simple_query(*builtin).unwrap_or(|_, _| Value::Int(0));
                let int = |v: Value| match v {
                    Value::Int(n) => n,
                    // Never: `answers_int` lists only built-ins that answer integers.
                    _ => 0,
                };
                if let Some(answer) = self.on_local(e) {
                    return Box::new(move |ev, env| Ok(int(answer(ev, env))));
                }
                match of.as_deref() {
                    Some(Expr::Subject) => {
                        Box::new(move |ev, env| Ok(int(answer(ev, &env.subject.map_or(Value::None, Value::Feature)))))
                    }
                    Some(of) => match (constant_value(of), direct(of)) {
                        // `cloister.left`: the receiver is a constant, kept here.
                        (Some(of), _) => Box::new(move |ev, _| Ok(int(answer(ev, &of)))),
                        // `x.type.weight`: the receiver read in place.
                        (None, Some(of)) => Box::new(move |ev, env| Ok(int(answer(ev, &of.read(ev, env))))),
                        (None, None) => {
                            let of = self.node(of);
                            Box::new(move |ev, env| Ok(int(answer(ev, &of(ev, env)?))))
                        }
                    },
                    None => Box::new(move |ev, _| Ok(int(answer(ev, &Value::None)))),
                }
            }
            _ => {
                if let Some((answer, of, arg)) = in_place_arg_query(e) {
                    // `f.followers(p)`: receiver and argument read in place.
                    return Box::new(move |ev, env| match answer(ev, &of.read(ev, env), &arg.read(ev, env)) {
                        Value::Int(n) => Ok(n),
                        // Never: `answers_int` lists only built-ins that answer integers.
                        _ => Ok(0),
                    });
                }
                let node = self.value(e);
                Box::new(move |ev, env| match node(ev, env)? {
                    Value::Int(n) => Ok(n),
                    // Never: `answers_int` lists only built-ins that answer integers.
                    _ => Ok(0),
                })
            }
        }
    }

    /// An expression as a closure answering its value.
    fn node(&self, e: &Expr) -> Node {
        if matches!(e, Expr::Binary(..)) && self.is_int(e) {
            let int = self.int(e);
            return Box::new(move |ev, env| Ok(Value::Int(int(ev, env)?)));
        }
        self.value(e)
    }

    /// [`Compiler::node`] without its integer arithmetic.
    fn value(&self, e: &Expr) -> Node {
        if let Some(v) = constant_value(e) {
            return constant(v);
        }
        match e {
            Expr::Subject => Box::new(|_, env| Ok(env.subject.map_or(Value::None, Value::Feature))),
            Expr::Local(slot) => {
                let slot = *slot as usize;
                Box::new(move |_, env| Ok(env.locals.get(slot).map_or(Value::None, read)))
            }
            Expr::GameVar(v) => {
                let v = *v as usize;
                Box::new(move |ev, _| Ok(ev.state.game_var(v).clone()))
            }
            Expr::MemberVar { var, of } => {
                // The variable's type is known here: its value is made
                // from the number kept, with no look at the declaration.
                let var = *var;
                let flag = self.is_flag(var);
                let value = move |raw: i64| if flag { Value::Bool(raw != 0) } else { Value::Int(raw) };
                if let Some(of) = direct(of) {
                    // `f.locked`: the feature or player read in place.
                    return Box::new(move |ev, env| Ok(value(ev.member_raw(var, &of.read(ev, env)))));
                }
                let of = self.node(of);
                Box::new(move |ev, env| Ok(value(ev.member_raw(var, &of(ev, env)?))))
            }
            Expr::Query { builtin, of, args } => {
                let builtin = *builtin;
                if let Some(answer) = self.on_local(e) {
                    return Box::new(move |ev, env| Ok(answer(ev, env)));
                }
                if let Some((answer, of, arg)) = in_place_arg_query(e) {
                    // Read in place where both can be
                    // (`f.controlled_by(current_player)`).
                    return Box::new(move |ev, env| Ok(answer(ev, &of.read(ev, env), &arg.read(ev, env))));
                }
                let of = of.as_deref().map(|e| self.node(e));
                let args: Vec<Node> = args.iter().map(|a| self.node(a)).collect();
                let receiver = move |ev: &Evaluator, env: &mut Env| match &of {
                    Some(of) => of(ev, env),
                    None => Ok(Value::None),
                };
                match args.len() {
                    0 => match simple_query(builtin) {
                        Some(answer) => Box::new(move |ev, env| Ok(answer(ev, &receiver(ev, env)?))),
                        None => Box::new(move |ev, env| {
                            let r = receiver(ev, env)?;
                            ev.query(builtin, r, &[], env.depth)
                        }),
                    },
                    1 => match arg_query(builtin) {
                        // From their nodes, where not both read in place.
                        Some(answer) => Box::new(move |ev, env| {
                            let r = receiver(ev, env)?;
                            Ok(answer(ev, &r, &args[0](ev, env)?))
                        }),
                        None => Box::new(move |ev, env| {
                            let r = receiver(ev, env)?;
                            let a = [args[0](ev, env)?];
                            ev.query(builtin, r, &a, env.depth)
                        }),
                    },
                    2 => Box::new(move |ev, env| {
                        let r = receiver(ev, env)?;
                        let a = [args[0](ev, env)?, args[1](ev, env)?];
                        ev.query(builtin, r, &a, env.depth)
                    }),
                    3 => Box::new(move |ev, env| {
                        let r = receiver(ev, env)?;
                        let a = [args[0](ev, env)?, args[1](ev, env)?, args[2](ev, env)?];
                        ev.query(builtin, r, &a, env.depth)
                    }),
                    _ => Box::new(move |ev, env| {
                        let r = receiver(ev, env)?;
                        let values = args.iter().map(|a| a(ev, env)).collect::<Result<Vec<_>, _>>()?;
                        ev.query(builtin, r, &values, env.depth)
                    }),
                }
            }
            Expr::Call { func, args } => {
                let func = *func;
                if let Some((args, frame, body)) = self.inlined(func, args, |body| self.node(body)) {
                    return Box::new(move |ev, env| inline_call(ev, env, &args, frame, |ev, env| body(ev, env)));
                }
                let args: Vec<Node> = args.iter().map(|a| self.node(a)).collect();
                Box::new(move |ev, env| ev.call_with(func, args.len(), env, |i, env| args[i](ev, env)))
            }
            Expr::Unary(UnOp::Not, _) => {
                let test = self.test(e);
                Box::new(move |ev, env| Ok(Value::Bool(test(ev, env)?)))
            }
            Expr::Binary(op, l, r) => {
                let op = *op;
                if is_test(op) {
                    let test = self.test(e);
                    return Box::new(move |ev, env| Ok(Value::Bool(test(ev, env)?)));
                }
                // Arithmetic on operands not known to be integers.
                let (l, r) = (self.node(l), self.node(r));
                Box::new(move |ev, env| {
                    let a = ev.normal(l(ev, env)?);
                    let b = ev.normal(r(ev, env)?);
                    compare_or_compute(op, a, b)
                })
            }
            Expr::Unary(UnOp::Neg, x) => {
                let x = self.node(x);
                Box::new(move |ev, env| match x(ev, env)? {
                    Value::Int(n) => Ok(Value::Int(n.checked_neg().ok_or(EvalError::Overflow)?)),
                    other => Ok(other),
                })
            }
            Expr::If { cond, then, otherwise } => {
                let (cond, then, otherwise) = (self.test(cond), self.node(then), self.node(otherwise));
                Box::new(move |ev, env| {
                    if cond(ev, env)? {
                        then(ev, env)
                    } else {
                        otherwise(ev, env)
                    }
                })
            }
            Expr::Let { slot, value, body } => {
                let (slot, value, body) = (*slot as usize, self.node(value), self.node(body));
                Box::new(move |ev, env| {
                    let v = value(ev, env)?;
                    if env.locals.len() <= slot {
                        env.locals.resize_with(slot + 1, || Value::None);
                    }
                    env.locals[slot] = v;
                    body(ev, env)
                })
            }
            Expr::Count { .. } => {
                let count = self.counter(e);
                Box::new(move |ev, env| Ok(Value::Int(count(ev, env, i64::MAX)?)))
            }
            // The constants, answered above.
            _ => constant(Value::None),
        }
    }

    /// A condition as a closure answering whether its value is `true`.
    fn test(&self, e: &Expr) -> Test {
        self.test_as::<true>(e)
    }

    /// A condition as a closure answering whether its value is `HOLDS`:
    /// [`Compiler::test`], or with `HOLDS` false the test of `not e`, made
    /// as one closure (a `not` of a leaf answers the opposite, and of
    /// `and` and `or` chains the `or` and `and` of its operands' opposites,
    /// judged in the same order and stopping at the same operand).
    fn test_as<const HOLDS: bool>(&self, e: &Expr) -> Test {
        match e {
            Expr::Bool(b) => {
                let b = *b;
                Box::new(move |_, _| Ok(b == HOLDS))
            }
            Expr::Unary(UnOp::Not, x) => {
                if HOLDS {
                    self.test_as::<false>(x)
                } else {
                    self.test_as::<true>(x)
                }
            }
            // A game variable asked whether it is true, read where it lies.
            Expr::GameVar(v) => {
                let v = *v as usize;
                Box::new(move |ev, _| Ok(ev.state.game_var(v).truthy() == HOLDS))
            }
            Expr::Binary(BinOp::And, l, r) => {
                // A chain `a and b and c` judged in one loop, left to right,
                // stopping at the first that fails (as nested `and`s do).
                let mut conjuncts = Vec::new();
                and_chain(e, &mut conjuncts);
                if conjuncts.len() > 2 {
                    return self.all_of_as::<HOLDS>(&conjuncts);
                }
                let (l, r) = (self.test_as::<HOLDS>(l), self.test_as::<HOLDS>(r));
                if HOLDS {
                    Box::new(move |ev, env| Ok(l(ev, env)? && r(ev, env)?))
                } else {
                    Box::new(move |ev, env| Ok(l(ev, env)? || r(ev, env)?))
                }
            }
            Expr::Binary(BinOp::Or, l, r) => {
                // `(c and a) or (not c and b)`: `c` judged once, as
                // `if c then a else b` would (`x.lying` in a posture test).
                if let Some((c, a, b)) = select(l, r) {
                    let c = self.test_as::<true>(c);
                    let (a, b) = (self.all_of_or_true::<HOLDS>(&a), self.all_of_or_true::<HOLDS>(&b));
                    return Box::new(move |ev, env| if c(ev, env)? { a(ev, env) } else { b(ev, env) });
                }
                let (l, r) = (self.test_as::<HOLDS>(l), self.test_as::<HOLDS>(r));
                if HOLDS {
                    Box::new(move |ev, env| Ok(l(ev, env)? || r(ev, env)?))
                } else {
                    Box::new(move |ev, env| Ok(l(ev, env)? && r(ev, env)?))
                }
            }
            Expr::Binary(op, l, r) => {
                let op = *op;
                if let Some((count, holds_if_some)) = existence_test(op, l, r) {
                    // Judged by the tile's type alone when its features'
                    // kinds decide the filter, which calls no function (a
                    // call is charged as it runs, so the count would charge
                    // more than its list).
                    let mut calls = false;
                    visit(count, &mut |x| calls |= matches!(x, Expr::Call { .. }));
                    let decided = (!calls).then(|| decided_by_type(self.pack, e, &self.by_type_work));
                    if let Some((tile, answers)) = decided.flatten() {
                        let answers = answers.iter().map(|a| *a == HOLDS).collect();
                        return by_type(tile, answers, holds_if_some == HOLDS);
                    }
                    let count = self.counter(count);
                    let holds_if_some = holds_if_some == HOLDS;
                    return Box::new(move |ev, env| Ok((count(ev, env, 1)? > 0) == holds_if_some));
                }
                if is_test(op) && self.is_int(l) && self.is_int(r) {
                    if let Expr::Int(c) = **r {
                        let l = self.int(l);
                        return match op {
                            BinOp::Eq => Box::new(move |ev, env| Ok((l(ev, env)? == c) == HOLDS)),
                            BinOp::Ne => Box::new(move |ev, env| Ok((l(ev, env)? != c) == HOLDS)),
                            BinOp::Lt => Box::new(move |ev, env| Ok((l(ev, env)? < c) == HOLDS)),
                            BinOp::Le => Box::new(move |ev, env| Ok((l(ev, env)? <= c) == HOLDS)),
                            BinOp::Gt => Box::new(move |ev, env| Ok((l(ev, env)? > c) == HOLDS)),
                            _ => Box::new(move |ev, env| Ok((l(ev, env)? >= c) == HOLDS)),
                        };
                    }
                    let (l, r) = (self.int(l), self.int(r));
                    return match op {
                        BinOp::Eq => Box::new(move |ev, env| Ok((l(ev, env)? == r(ev, env)?) == HOLDS)),
                        BinOp::Ne => Box::new(move |ev, env| Ok((l(ev, env)? != r(ev, env)?) == HOLDS)),
                        BinOp::Lt => Box::new(move |ev, env| Ok((l(ev, env)? < r(ev, env)?) == HOLDS)),
                        BinOp::Le => Box::new(move |ev, env| Ok((l(ev, env)? <= r(ev, env)?) == HOLDS)),
                        BinOp::Gt => Box::new(move |ev, env| Ok((l(ev, env)? > r(ev, env)?) == HOLDS)),
                        _ => Box::new(move |ev, env| Ok((l(ev, env)? >= r(ev, env)?) == HOLDS)),
                    };
                }
                if matches!(op, BinOp::Eq | BinOp::Ne) {
                    // A comparison with a constant (never a feature, so
                    // naming features by their roots changes nothing).
                    let (c, other) = match (constant_value(l), constant_value(r)) {
                        (_, Some(c)) => (Some(c), l),
                        (Some(c), None) => (Some(c), r),
                        (None, None) => (None, l),
                    };
                    if let Some(c) = c {
                        let equal = (op == BinOp::Eq) == HOLDS;
                        if let (Value::Kind(k), Some((Builtin::Kind, slot))) = (&c, local_query(other)) {
                            // `x.kind == K`: the kind read off the feature graph, no value made.
                            let (k, slot) = (*k, usize::from(slot));
                            return Box::new(move |ev, env| {
                                let features = ev.state.features();
                                Ok(match env.locals.get(slot) {
                                    Some(Value::Feature(f)) => features.kind(features.find(*f)) == k,
                                    _ => false,
                                } == equal)
                            });
                        }
                        if let (Value::None, Some((Builtin::Owner, slot))) = (&c, local_query(other)) {
                            // `x.owner == none`: the figure's owner read where it lies.
                            let slot = usize::from(slot);
                            return Box::new(move |ev, env| {
                                Ok(figure_owner(ev, env.locals.get(slot).unwrap_or(&Value::None)).is_none() == equal)
                            });
                        }
                        if let (Value::Kind(k), Some(slot)) = (&c, figure_feature_kind(other)) {
                            // `x.feature.kind == K`: the kind of the figure's
                            // feature read off the graph, no value made
                            // (a figure off the board has no feature, no kind).
                            let (k, slot) = (*k, usize::from(slot));
                            return Box::new(move |ev, env| {
                                Ok((figure_feature_kind_at(ev, env, slot) == Some(k)) == equal)
                            });
                        }
                        if let Some(answer) = self.on_local(other) {
                            return Box::new(move |ev, env| Ok((answer(ev, env) == c) == equal));
                        }
                        let other = self.node(other);
                        return Box::new(move |ev, env| Ok((other(ev, env)? == c) == equal));
                    }
                }
                if let (BinOp::Eq | BinOp::Ne, Some(a), Some(b)) = (op, figure_feature_kind(l), figure_feature_kind(r))
                {
                    // `x.feature.kind == y.feature.kind`: both kinds read
                    // off the graph, no value made (two figures off the
                    // board have the same kind, none, as the values do).
                    let (a, b) = (usize::from(a), usize::from(b));
                    let equal = (op == BinOp::Eq) == HOLDS;
                    return Box::new(move |ev, env| {
                        Ok((figure_feature_kind_at(ev, env, a) == figure_feature_kind_at(ev, env, b)) == equal)
                    });
                }
                if let (BinOp::Eq | BinOp::Ne, Some(a), Some(b)) = (op, direct(l), direct(r)) {
                    // Two values read in place (`d != from`,
                    // `x.owner == current_player`): compared with no node
                    // called for either.
                    let equal = (op == BinOp::Eq) == HOLDS;
                    if let Some(slot) = owner_against_current(l, r) {
                        // `x.owner == current_player`: the figure's owner
                        // and the player read where they lie, no value made.
                        return Box::new(move |ev, env| {
                            let owner = figure_owner(ev, env.locals.get(slot).unwrap_or(&Value::None));
                            Ok((owner.map(usize::from) == Some(ev.state.current())) == equal)
                        });
                    }
                    if never_feature(l) && never_feature(r) {
                        // Neither is a feature (`x.owner == current_player`):
                        // compared as read, with no root to look up.
                        return Box::new(move |ev, env| Ok((a.read(ev, env) == b.read(ev, env)) == equal));
                    }
                    return Box::new(move |ev, env| Ok(same(&a, &b, ev, env) == equal));
                }
                let (l, r) = (self.node(l), self.node(r));
                Box::new(move |ev, env| {
                    let a = ev.normal(l(ev, env)?);
                    let b = ev.normal(r(ev, env)?);
                    Ok(compare_or_compute(op, a, b)?.truthy() == HOLDS)
                })
            }
            Expr::Query {
                builtin: Builtin::Completed,
                of: Some(of),
                args,
            } if args.is_empty() && matches!(**of, Expr::Local(_)) => {
                // `x.completed`: the kind's `complete when` asked of the
                // feature, as the query would, with no value made.
                let Expr::Local(slot) = **of else { unreachable!() };
                let slot = usize::from(slot);
                Box::new(move |ev, env| match env.locals.get(slot) {
                    Some(Value::Feature(f)) => Ok(ev.completed_at(ev.state.features().find(*f), env.depth)? == HOLDS),
                    _ => Ok(!HOLDS),
                })
            }
            Expr::Call { func, args } => {
                let func = *func;
                let inlined = self.inlined(func, args, |body| -> Test {
                    if is_condition(body) {
                        return self.test_as::<HOLDS>(body);
                    }
                    let node = self.node(body);
                    Box::new(move |ev, env| Ok(node(ev, env)?.truthy() == HOLDS))
                });
                if let Some((args, frame, body)) = inlined {
                    return Box::new(move |ev, env| inline_call(ev, env, &args, frame, |ev, env| body(ev, env)));
                }
                let args: Vec<Node> = args.iter().map(|a| self.node(a)).collect();
                Box::new(move |ev, env| Ok(ev.call_test(func, args.len(), env, |i, env| args[i](ev, env))? == HOLDS))
            }
            _ => {
                // A built-in answered in place asked whether it is true
                // (`x.scored`, `f.controlled_by(current_player)`): its
                // answer read with no node between.
                if let Some(answer) = self.on_local(e) {
                    return Box::new(move |ev, env| Ok(answer(ev, env).truthy() == HOLDS));
                }
                if let Some((answer, of, arg)) = in_place_arg_query(e) {
                    return Box::new(move |ev, env| {
                        Ok(answer(ev, &of.read(ev, env), &arg.read(ev, env)).truthy() == HOLDS)
                    });
                }
                // A player's or feature's variable of an owner read in place
                // (`f.locked`), which can neither fail nor charge: a flag that
                // is not 0 (an integer is never true), with no value made.
                if let Expr::MemberVar { var, of } = e {
                    if let Some(of) = direct(of) {
                        let (var, flag) = (*var, self.is_flag(*var));
                        return Box::new(move |ev, env| {
                            Ok((flag && ev.member_raw(var, &of.read(ev, env)) != 0) == HOLDS)
                        });
                    }
                }
                let node = self.node(e);
                Box::new(move |ev, env| Ok(node(ev, env)?.truthy() == HOLDS))
            }
        }
    }

    /// `compile` run while function `func` is being compiled: calls to it
    /// in there are not inlined.
    fn within<T>(&self, func: FnId, compile: impl FnOnce() -> T) -> T {
        self.inlining.borrow_mut().push(func);
        let out = self.in_context(false, compile);
        self.inlining.borrow_mut().pop();
        out
    }

    /// `compile` of an expression that runs at most once while one memo
    /// lasts (a guard, an action's `when`): a count in it, outside the
    /// filters of counts and the bodies of functions, cannot find itself
    /// remembered, so it neither looks in the memo nor fills it: it only
    /// takes the place its entry would have among the memo's entries
    /// (`Memo::pass`), so the counts after it are kept, or not once the
    /// memo is full, as before. Such a count is named by its own node,
    /// which no other expression has, so no other count asks for its entry
    /// either. The memo changes only what is charged for a count it finds,
    /// so passing it by changes nothing else.
    fn once<T>(&self, compile: impl FnOnce() -> T) -> T {
        self.in_context(true, compile)
    }

    /// `compile` with [`Compiler::once`]'s context set to `once`, restored
    /// after.
    fn in_context<T>(&self, once: bool, compile: impl FnOnce() -> T) -> T {
        let outer = self.once.replace(once);
        let out = compile();
        self.once.set(outer);
        out
    }

    /// A call of value function `func` with `args`, inlined: its arguments
    /// compiled, the slots of its frame in the caller's (`inline_call`), and
    /// `compile` of its body with its slots moved there. `None` for a
    /// function with statements, one already being inlined (recursion) or
    /// too deep in inlined calls, or a frame grown too big.
    fn inlined<T>(
        &self,
        func: FnId,
        args: &[Expr],
        compile: impl FnOnce(&Expr) -> T,
    ) -> Option<(Args, (usize, usize), T)> {
        let f = self.program.functions.get(func as usize)?;
        let FnBody::Expr(body) = &f.body else {
            return None;
        };
        {
            let inlining = self.inlining.borrow();
            if inlining.len() >= MAX_INLINED || inlining.contains(&func) {
                return None;
            }
        }
        let region = self.top.get();
        let end = region.checked_add(f.slots).filter(|end| *end <= MAX_INLINED_SLOTS)?;
        let room = self.room.get().checked_sub(size(body))?;
        let mut moved = Box::new(shifted(body, region)?);
        // A parameter given a local variable, or a constant other than an
        // integer that its counts do not remember, is read from the argument
        // where it is: nothing is copied at each call. Reading either cannot
        // fail or charge, so not reading it at the call changes nothing; and
        // the body is compiled as it would run called, with the same
        // shortcuts. Not an integer: `count(...) > n` given 0 would become a
        // count that stops at its first member (`existence_test`), which the
        // called body does not do (other charges, and a memo that names the
        // count by the function's node would remember a count stopped early
        // for every caller). A constant a count reads (a kind, a distance
        // bound) is remembered by it, so never put in.
        let mut passed = Vec::new();
        for (i, arg) in args.iter().enumerate() {
            let param = region.checked_add(u16::try_from(i).ok()?)?;
            match arg {
                Expr::Local(_) => substitute(&mut moved, param, arg),
                Expr::Int(_) => passed.push((i, arg)),
                _ if constant_value(arg).is_some() && !remembers(&moved, param) => substitute(&mut moved, param, arg),
                _ => passed.push((i, arg)),
            }
        }
        self.room.set(room);
        // Each count of the moved body is named by the function's own node
        // (both are visited in the same order).
        let counts = |e: &Expr| {
            let mut at = Vec::new();
            visit(e, &mut |e| {
                if matches!(e, Expr::Count { .. }) {
                    at.push(e as *const Expr as usize);
                }
            });
            at
        };
        self.named
            .borrow_mut()
            .extend(counts(&moved).into_iter().zip(counts(body)));
        let body = moved;
        // The arguments and the body run above the frame, so calls inlined
        // in them keep out of it.
        self.top.set(end);
        self.deepest.set(self.deepest.get().max(end));
        let args: Args = passed.into_iter().map(|(i, a)| (i, self.node(a))).collect();
        let compiled = self.within(func, || compile(&body));
        self.top.set(region);
        self.kept.borrow_mut().push(body);
        Some((args, (usize::from(region), usize::from(end)), compiled))
    }

    /// A built-in answered from its receiver alone (`x.kind`, `f.owner`)
    /// asked of a local variable: answered from the variable where it
    /// lies, with no copy of it and no closure to read it.
    fn on_local(&self, e: &Expr) -> Option<impl Fn(&Evaluator, &mut Env) -> Value + Send + Sync + use<>> {
        let (builtin, slot) = local_query(e)?;
        let (answer, slot) = (simple_query(builtin)?, usize::from(slot));
        Some(move |ev: &Evaluator, env: &mut Env| match env.locals.get(slot) {
            Some(v) => answer(ev, v),
            None => answer(ev, &Value::None),
        })
    }

    /// A count's filter, its members bound to `slot`; judged unbound too
    /// when `scanned`, the board's features found by a scan
    /// ([`CompiledFilter::feature`]).
    fn filter(&self, e: &Expr, slot: u16, scanned: bool) -> CompiledFilter {
        // A filter runs once for each member.
        self.in_context(false, || CompiledFilter {
            test: self.test(e),
            kind: member_test(self.program, e, slot, Builtin::Kind).map(|k| self.node(k)),
            owner: member_test(self.program, e, slot, Builtin::Owner).map(|o| self.node(o)),
            itself: itself_test(self.program, e, slot).map(|v| self.node(v)),
            near: near_test(e, slot).map(|(tile, d)| (self.node(tile), d)),
            occupied: occupied_test(self.program, e, slot),
            rest: self.after_member_test(e, slot),
            feature: scanned.then(|| self.feature_test(e, slot)).flatten(),
        })
    }

    /// Filter `e` of a feature bound to `slot` as a test of the feature by
    /// its root, with nothing bound ([`CompiledFilter::feature`]): when
    /// each of its conjuncts is one of [`OnFeature`]'s, judged in order
    /// and stopping at the first that fails, as the chain is.
    fn feature_test(&self, e: &Expr, slot: u16) -> Option<FeatureTest> {
        let mut conjuncts = Vec::new();
        and_chain(e, &mut conjuncts);
        let shapes: Vec<_> = conjuncts
            .iter()
            .map(|c| self.on_feature(c, slot, true))
            .collect::<Option<_>>()?;
        // A filter that never reads the member gains nothing. Conjuncts
        // that do not read it are compiled only now, once the filter is
        // found to be one (each takes its share of the inlining room).
        if shapes.iter().all(Result::is_err) {
            return None;
        }
        let tests: Box<[OnFeature]> = shapes
            .into_iter()
            .map(|shape| {
                shape.unwrap_or_else(|(c, holds)| {
                    OnFeature::Free(if holds { self.test(c) } else { self.test_as::<false>(c) })
                })
            })
            .collect();
        Some(Box::new(move |ev, env, f| {
            for t in &tests {
                if !t.holds(ev, env, f)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }))
    }

    /// Conjunct `c` of a feature filter (the feature bound to `slot`) as
    /// an [`OnFeature`] asking whether it is `holds` (`Err`: a conjunct
    /// that does not read the feature, and `holds`, to compile as
    /// [`OnFeature::Free`]); `None` when it reads the feature otherwise.
    fn on_feature<'e>(&self, c: &'e Expr, slot: u16, holds: bool) -> Option<Result<OnFeature, (&'e Expr, bool)>> {
        let reads = |e: &Expr| {
            let mut reads = false;
            visit(e, &mut |x| reads |= matches!(x, Expr::Local(s) if *s == slot));
            reads
        };
        if !reads(c) {
            return Some(Err((c, holds)));
        }
        let member = |e: &Expr| matches!(e, Expr::Local(s) if *s == slot);
        match c {
            Expr::Unary(UnOp::Not, x) => self.on_feature(x, slot, !holds),
            Expr::Query {
                builtin: Builtin::Completed,
                of: Some(of),
                args,
            } if args.is_empty() && member(of) => Some(Ok(OnFeature::Completed(holds))),
            Expr::MemberVar { var, of } if member(of) => Some(Ok(OnFeature::Flag(*var, self.is_flag(*var), holds))),
            Expr::Binary(op @ (BinOp::Eq | BinOp::Ne), l, r) => {
                // The member's side and the other, read in place: `x == E`
                // or `x.q == E` (`f.kind == k`). Comparisons of integers,
                // compiled on `i64`, are left to the chain.
                let (mine, other) = match (reads(l), reads(r)) {
                    (true, false) => (&**l, &**r),
                    (false, true) => (&**r, &**l),
                    _ => return None,
                };
                if self.is_int(mine) && self.is_int(other) {
                    return None;
                }
                let equal = (*op == BinOp::Eq) == holds;
                let other = direct(other).or_else(|| constant_value(other).map(Direct::Constant))?;
                if member(mine) {
                    return Some(Ok(OnFeature::Same(other, equal)));
                }
                match local_query(mine) {
                    Some((builtin, s)) if s == slot => Some(Ok(OnFeature::Equal(simple_query(builtin)?, other, equal))),
                    _ => None,
                }
            }
            _ => {
                if let Some((builtin, s)) = local_query(c) {
                    let answer = simple_query(builtin).filter(|_| s == slot)?;
                    return Some(Ok(OnFeature::Query(answer, holds)));
                }
                let Expr::Query { of: Some(of), args, .. } = c else {
                    return None;
                };
                if !member(of) || args.iter().any(reads) {
                    return None;
                }
                let (answer, _, arg) = in_place_arg_query(c)?;
                Some(Ok(OnFeature::Arg(answer, arg, holds)))
            }
        }
    }

    /// Filter `e` less its first conjunct, when that conjunct is itself a
    /// member test of the member bound to `slot` (`x.kind == K`,
    /// `x.owner == P`, `x == E`: [`member_test`], [`itself_test`]): the
    /// other conjuncts judged in order, as the whole chain judges them
    /// after the first (`true` when there are none).
    fn after_member_test(&self, e: &Expr, slot: u16) -> Option<Test> {
        let mut conjuncts = Vec::new();
        and_chain(e, &mut conjuncts);
        let (first, rest) = conjuncts.split_first()?;
        let program = self.program;
        let member = |b| member_test(program, first, slot, b).is_some();
        let leading = member(Builtin::Kind) || member(Builtin::Owner) || itself_test(program, first, slot).is_some();
        // A test found in a called function's body is not the conjunct.
        if !leading || !matches!(first, Expr::Binary(BinOp::Eq, ..)) {
            return None;
        }
        Some(match rest {
            [] => Box::new(|_, _| Ok(true)),
            [one] => self.test(one),
            many => self.all_of(many),
        })
    }

    /// Conjuncts judged in one loop, left to right, stopping at the first
    /// that fails (as nested `and`s do).
    fn all_of(&self, conjuncts: &[&Expr]) -> Test {
        self.all_of_as::<true>(conjuncts)
    }

    /// The conjuncts `conjuncts` asked whether they all are `HOLDS`, as
    /// [`Compiler::all_of_as`] (`true` when there are none).
    fn all_of_or_true<const HOLDS: bool>(&self, conjuncts: &[&Expr]) -> Test {
        match conjuncts {
            [] => Box::new(|_, _| Ok(HOLDS)),
            [one] => self.test_as::<HOLDS>(one),
            _ => self.all_of_as::<HOLDS>(conjuncts),
        }
    }

    /// [`Compiler::all_of`] answering whether the chain's value is
    /// `HOLDS`: with `HOLDS` false, whether some conjunct fails, judged in
    /// the same order and stopping at the same conjunct.
    fn all_of_as<const HOLDS: bool>(&self, conjuncts: &[&Expr]) -> Test {
        let tests: Box<[Test]> = conjuncts.iter().map(|c| self.test_as::<HOLDS>(c)).collect();
        Box::new(move |ev, env| {
            for t in &tests {
                // A conjunct that fails: `false` as the chain's value.
                if t(ev, env)? != HOLDS {
                    return Ok(!HOLDS);
                }
            }
            Ok(HOLDS)
        })
    }

    /// A count of the figures on feature `of` that pass a filter made of
    /// [`owner_tests`]: the figures of each owner that passes
    /// them, read off the feature's standings, charged as the list of the
    /// feature's figures is. A feature with more figures than a list on
    /// the stack holds is counted as `count_list` counts it.
    fn owner_counter(
        &self,
        of: &Expr,
        tests: Vec<(bool, Direct)>,
        followers: bool,
        slot: u16,
        filter: Option<CompiledFilter>,
    ) -> Counter {
        // The feature: read in place when it can be (`Ok`: a local variable),
        // else evaluated by its node (`Err`).
        let of = direct(of).ok_or_else(|| self.node(of));
        // The owners that pass every test: bit `p` for player `p`, the top
        // bit for no owner. The tests of constants (`x.owner != none`)
        // are judged here, once.
        const NEUTRAL: u32 = 1 << 31;
        let owner_bit = |v: &Value| match v {
            // (No game has 31 players: `MAX_PLAYERS`.)
            Value::Player(p) if *p < 31 => 1 << p,
            Value::None => NEUTRAL,
            _ => 0,
        };
        let mut fixed = u32::MAX;
        let mut tests_read = Vec::new();
        for (eq, e) in tests {
            match e {
                Direct::Constant(v) => {
                    let met = owner_bit(&v);
                    fixed &= if eq { met } else { !met };
                }
                e => tests_read.push((eq, e)),
            }
        }
        Box::new(move |ev, env, limit| {
            let of = match &of {
                Ok(direct) => direct.read(ev, env),
                Err(node) => node(ev, env)?,
            };
            let Value::Feature(f) = of else {
                // No feature has no figure: an empty list.
                ev.charge(0)?;
                return Ok(0);
            };
            let features = ev.state.features();
            let total = features.figure_count(f) as usize;
            let mut passing = fixed;
            for (eq, e) in &tests_read {
                let met = owner_bit(&e.read(ev, env));
                passing &= if *eq { met } else { !met };
            }
            // Only whether some follower passes is known from the owners'
            // majorities (their summed weights), and only for owners: a
            // count of them, or one that neutral figures may pass, looks
            // at the figures.
            let by_figure = followers && (limit > 1 || passing & NEUTRAL != 0);
            if total > SMALL_LIST || by_figure {
                let list = ev.query(Builtin::Figures, of, &[], env.depth)?;
                return ev.count_list(&list, slot, filter.as_ref().map(|f| f as &dyn Filter), env, limit);
            }
            ev.charge(total)?;
            if total == 0 {
                return Ok(0);
            }
            if followers {
                let any = features
                    .standings(f)
                    .iter()
                    .enumerate()
                    .any(|(p, s)| passing & (1 << p) != 0 && s.followers > 0);
                return Ok(i64::from(any).min(limit));
            }
            let (mut passed, mut owned) = (0usize, 0usize);
            for (p, s) in features.standings(f).iter().enumerate() {
                owned += usize::from(s.figures);
                if passing & (1 << p) != 0 {
                    passed += usize::from(s.figures);
                }
            }
            if passing & NEUTRAL != 0 {
                passed += total.saturating_sub(owned);
            }
            Ok((passed as i64).min(limit))
        })
    }

    /// A count as a closure given the limit at which it stops: what
    /// `Evaluator::count` does for the node.
    fn counter(&self, e: &Expr) -> Counter {
        let Expr::Count {
            slot,
            domain,
            list,
            filter,
            memo,
            listed,
        } = e
        else {
            return Box::new(|_, _, _| Ok(0));
        };
        let (slot, listed) = (*slot, *listed);
        // Counts are remembered by their node in the pack, as walked ones
        // are (an inlined body's by its function's node).
        let at = e as *const Expr as usize;
        let at = self.named.borrow().get(&at).copied().unwrap_or(at);
        // A count that runs once while its memo lasts is never found there.
        let once = self.once.get();
        let mut followers = false;
        let owner_tests = filter.as_deref().and_then(|f| {
            let mut tests = Vec::new();
            owner_tests(f, slot, &mut tests, &mut followers)?;
            // Each `E` read in place: `none`, or a value `direct` reads.
            let read = |e: &Expr| match e {
                Expr::Nothing => Some(Direct::Constant(Value::None)),
                e => direct(e),
            };
            tests
                .into_iter()
                .map(|(eq, e)| Some((eq, read(e)?)))
                .collect::<Option<Vec<_>>>()
        });
        let scanned = domain.is_some_and(|d| scans_features(&d, list.is_some()));
        let filter = filter.as_deref().map(|f| self.filter(f, slot, scanned));
        match (domain, list) {
            (Some(domain), None) => {
                let (domain, memo) = (*domain, memo.clone());
                Box::new(move |ev, env, limit| {
                    ev.remembered_or_once(at, memo.as_deref(), once, env, |env| {
                        let filter = filter.as_ref().map(|f| f as &dyn Filter);
                        ev.count_domain(domain, slot, filter, env, limit, listed)
                    })
                })
            }
            (None, Some(list)) => {
                // A list a built-in answers on the stack (a tile's features, a
                // feature's owners, figures or touching features, the players)
                // is counted there, as its value would be; one too long for
                // the stack is listed.
                if let Expr::Query { builtin, of, args } = &**list {
                    if let (Builtin::Figures, true, Some(tests), Some(of)) = (builtin, args.is_empty(), owner_tests, of)
                    {
                        return self.owner_counter(of, tests, followers, slot, filter);
                    }
                    if let (Some((small, member)), true) = (small_list(*builtin), args.is_empty()) {
                        // A built-in with no receiver is asked of `none`, as walked.
                        let of = match of {
                            Some(of) => self.node(of),
                            None => constant(Value::None),
                        };
                        let builtin = *builtin;
                        let features = matches!(builtin, Builtin::TileFeatures | Builtin::Touching);
                        return Box::new(move |ev, env, limit| {
                            let of = of(ev, env)?;
                            let filter = filter.as_ref().map(|f| f as &dyn Filter);
                            let mut ids = [0; SMALL_LIST];
                            match small(ev, &of, &mut ids) {
                                Some(n) if features => {
                                    ev.count_features(ids[..n].iter().copied(), slot, filter, env, limit)
                                }
                                Some(n) => {
                                    ev.count_members(ids[..n].iter().map(|m| member(*m)), slot, filter, env, limit)
                                }
                                None => {
                                    let list = ev.query(builtin, of, &[], env.depth)?;
                                    ev.count_list(&list, slot, filter, env, limit)
                                }
                            }
                        });
                    }
                }
                let list = self.node(list);
                Box::new(move |ev, env, limit| {
                    let list = list(ev, env)?;
                    ev.count_list(&list, slot, filter.as_ref().map(|f| f as &dyn Filter), env, limit)
                })
            }
            (Some(domain), Some(list)) => {
                let (domain, list) = (*domain, self.node(list));
                Box::new(move |ev, env, limit| {
                    let list = list(ev, env)?;
                    let items = ev.narrowed(domain, &list);
                    // Charged as listed, then as counted.
                    ev.charge(items.len())?;
                    ev.charge(items.len())?;
                    let filter = filter.as_ref().map(|f| f as &dyn Filter);
                    Ok(ev.judge(items.into_iter(), slot, filter, env, limit)?.0)
                })
            }
            (None, None) => Box::new(|_, _, _| Ok(0)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::game::WALKED;
    use super::super::{Game, Rng, Rules, Setup};
    use crate::bundled::{load_bundled, over_base, test_sets};
    use crate::check::{load, PackRef};
    use std::sync::Arc;

    /// The built-ins compiled as integers are those the table of built-ins
    /// declares integers (and `queries.rs` answers them with integers only).
    #[test]
    fn integer_builtins_are_declared_integers() {
        use crate::ir::expr::{Type, BUILTINS};
        for def in BUILTINS {
            assert_eq!(
                super::answers_int(def.builtin),
                def.result == Type::Int,
                "{} ({:?})",
                def.name,
                def.builtin
            );
        }
    }

    /// The compiled table is what games run: with every `complete when`
    /// compiled to `false` (none answered from open edges), no feature of
    /// a base game completes, so nobody scores in its first 50 turns, while
    /// the same game with the real table does.
    #[test]
    fn games_run_the_compiled_table() {
        use super::super::eval::Compiled;
        let rules = Arc::new(Rules::new(load(&[PackRef::Bundled("base".into())]).unwrap()));
        let scores_after_50_turns = |table: Option<Compiled>| {
            let mut game = Game::new(rules.clone(), Setup::new(2).seed(3)).unwrap();
            if let Some(table) = table {
                game.compiled = Arc::new(table);
            }
            let mut rng = Rng::new(3 ^ 0x5eed);
            while game.decision().is_some() && game.turn() < 50 {
                let options = game.options();
                game.apply(options[rng.below(options.len())]).unwrap();
            }
            game.scores().to_vec()
        };
        let mut never = super::compile(&rules);
        for clause in never.complete.iter_mut().flatten() {
            *clause = Box::new(|_, _| Ok(false));
        }
        // Nor answered from the open edges.
        never.complete_when_closed.fill(false);
        assert_eq!(scores_after_50_turns(Some(never)), vec![0, 0]);
        let real = scores_after_50_turns(None);
        assert!(real.iter().any(|s| *s > 0), "{real:?}");
    }

    /// The body of the value function `case_{i}` of a test's pack.
    fn case_body(program: &crate::ir::program::Program, i: usize) -> &crate::ir::expr::Expr {
        let f = program
            .functions
            .iter()
            .find(|f| f.name == format!("case_{i}"))
            .unwrap_or_else(|| panic!("no function case_{i}"));
        match &f.body {
            crate::ir::program::FnBody::Expr(body) => body,
            _ => panic!("case_{i} is a value function"),
        }
    }

    /// Plays a game choosing at random with `seed`; `walked` evaluates every
    /// expression by walking it instead of through its compiled closures.
    /// The scores, the events and the evaluation work the game was charged.
    fn play(rules: &Arc<Rules>, players: usize, seed: u64, walked: bool) -> (Vec<i64>, Vec<String>, u64) {
        // From the start: set-up handlers and the first turn run walked too.
        WALKED.set(walked);
        let mut game = Game::new(rules.clone(), Setup::new(players).seed(seed)).unwrap();
        WALKED.set(false);
        assert_eq!(game.compiled.complete.is_empty(), walked);
        game.set_logging(true);
        let mut rng = Rng::new(seed ^ 0x5eed);
        while game.decision().is_some() {
            let options = game.options();
            let choice = options[rng.below(options.len())];
            game.apply(choice).unwrap();
        }
        (
            game.scores().to_vec(),
            game.log().iter().map(|e| format!("{e:?}")).collect(),
            game.budget.game_work(),
        )
    }

    /// Plays four games of `rules` (2 to 4 players) compiled and walked:
    /// the same scores, events and work either way, and more than `margin`
    /// points beyond base's same games. The compiled games.
    fn plays_as_walked_beyond_base(rules: &Arc<Rules>, margin: i64) -> Vec<(Vec<i64>, Vec<String>, u64)> {
        let base = Arc::new(Rules::new(load(&[PackRef::Bundled("base".into())]).unwrap()));
        let total = |scores: &[i64]| scores.iter().sum::<i64>();
        (0..4)
            .map(|seed| {
                let players = 2 + seed as usize % 3;
                let compiled = play(rules, players, seed, false);
                assert_eq!(compiled, play(rules, players, seed, true), "seed {seed}");
                let beyond = total(&compiled.0) - total(&play(&base, players, seed, false).0);
                assert!(beyond > margin, "seed {seed}: {beyond} points beyond base's");
                compiled
            })
            .collect()
    }

    /// How many times games' events (as `play` lists them) paid `points`.
    fn paid(games: &[(Vec<i64>, Vec<String>, u64)], points: i64) -> usize {
        let paid = format!("points: {points},");
        games
            .iter()
            .map(|(_, events, _)| events.iter().filter(|e| e.contains(&paid)).count())
            .sum()
    }

    /// Plays the same games with a pack over base made by `text` from
    /// `filters` of features, whose scans are narrowed, and from the same
    /// filters made to scan everything (`t != none` first), compiled and
    /// walked: the same scores and events either way, less evaluation work
    /// narrowed, and points found beyond base's.
    fn assert_narrowing_keeps_games(filters: &[&str], text: impl Fn(&[String]) -> String) {
        let pack = |full_scan: bool| {
            let filters: Vec<String> = filters
                .iter()
                .map(|f| {
                    if full_scan {
                        format!("t != none and {f}")
                    } else {
                        f.to_string()
                    }
                })
                .collect();
            Arc::new(Rules::new(over_base("narrowed.rules", text(&filters))))
        };
        let (narrow, full) = (pack(false), pack(true));
        let base = Arc::new(Rules::new(load(&[PackRef::Bundled("base".into())]).unwrap()));
        for seed in 0..4 {
            let players = 2 + seed as usize % 3;
            let narrowed = play(&narrow, players, seed, false);
            let with_full = play(&full, players, seed, false);
            assert_eq!(narrowed.0, with_full.0, "seed {seed}");
            assert_eq!(narrowed.1, with_full.1, "seed {seed}");
            // Narrowed scans judge fewer features, compiled and walked alike.
            assert!(narrowed.2 < with_full.2, "seed {seed}: the scans were narrowed");
            assert_eq!(narrowed, play(&narrow, players, seed, true), "seed {seed}");
            assert_eq!(with_full, play(&full, players, seed, true), "seed {seed}");
            let total = |scores: &[i64]| scores.iter().sum::<i64>();
            assert!(
                total(&narrowed.0) > total(&play(&base, players, seed, false).0) + 100,
                "the scans find features: {:?}",
                narrowed.0
            );
        }
    }

    /// Existence counts over a tile's features that the tile's type decides
    /// (`count(f in t.features where f.kind == road) > 0` and the like, of a
    /// parameter, of `placed_tile`, inside called functions, and of a
    /// placement candidate, whose features are none) answer as counting
    /// them does: the same games as with the same counts made undecided by
    /// type (`and f.tiles > 0`, true of every feature), compiled and walked
    /// alike (the same evaluation work too: the count's list is charged).
    #[test]
    fn counts_a_tile_type_decides_answer_as_counted() {
        let pack = |extra: &str| {
            let text = format!(
                "pack decided\nrequires base\n\
                 fn roads(x: tile) = count(f in x.features where f.kind == road{extra}) > 0\n\
                 fn roadless(x: tile) = count(f in x.features where f.kind == road{extra}) == 0\n\
                 on tile_placed(t) when count(f in t.features where f.kind == city{extra}) > 0 {{\n  score 1 to current_player reason \"a\"\n}}\n\
                 on tile_placed(t) when count(f in t.features where f.kind != field and f.kind != road{extra}) == 0 {{\n  score 2 to current_player reason \"b\"\n}}\n\
                 on tile_placed(t) when roads(t) and not (count(f in t.features where f.kind == monastery or f.kind == city{extra}) >= 1) {{\n  score 4 to current_player reason \"c\"\n}}\n\
                 on turn_end when count(f in placed_tile.features where f.kind == monastery{extra}) < 1 {{\n  score 8 to current_player reason \"d\"\n}}\n\
                 forbid placement of t when roadless(t) and t.x < -2 reason \"no candidate has a feature\"\n"
            );
            Arc::new(Rules::new(over_base("decided.rules", text)))
        };
        let (decided, counted) = (pack(""), pack(" and f.tiles > 0"));
        let base = Arc::new(Rules::new(load(&[PackRef::Bundled("base".into())]).unwrap()));
        for seed in 0..4 {
            let players = 2 + seed as usize % 3;
            let by_type = play(&decided, players, seed, false);
            let by_count = play(&counted, players, seed, false);
            assert_eq!(by_type.0, by_count.0, "seed {seed}");
            assert_eq!(by_type.1, by_count.1, "seed {seed}");
            assert_eq!(by_type, play(&decided, players, seed, true), "seed {seed}");
            assert_eq!(by_count, play(&counted, players, seed, true), "seed {seed}");
            let total = |scores: &[i64]| scores.iter().sum::<i64>();
            assert!(
                total(&by_type.0) > total(&play(&base, players, seed, false).0) + 200,
                "{:?}",
                by_type.0
            );
            // No tile is placed west of x = -2: a candidate has no features.
            let west = |e: &&String| {
                e.split_once("pos: (")
                    .and_then(|(_, rest)| rest.split_once(','))
                    .is_some_and(|(x, _)| x.parse::<i32>().is_ok_and(|x| x < -2))
            };
            assert!(
                by_type.1.iter().any(|e| e.contains("pos: (-2,")),
                "seed {seed}: the west is reached"
            );
            assert_eq!(by_type.1.iter().filter(west).count(), 0, "seed {seed}");
        }
    }

    /// A count over the board's features that looks only near a tile
    /// (`distance(x.tile, E) <= d` among its leading conjuncts) counts what
    /// a scan of every feature counts: the same games, compiled (`if`) and
    /// walked (`score`), with such counts in every form as with the same
    /// counts made to scan everything (`t != none` first).
    #[test]
    fn counts_near_a_tile_count_what_full_scans_count() {
        let filters = [
            "distance(m.tile, t) <= 1",
            "distance(t, m.tile) < 3",
            "m.kind == city and distance(m.tile, t) == 2",
            "1 >= distance(m.tile, t)",
            "m.kind == monastery and distance(placed_tile, m.tile) <= 3 and m.completed",
            "distance(m.tile, t) == 0",
            "m.kind == road and distance(m.tile, t) == 1 and m.open_edges > 1",
        ];
        let text = |filters: &[String]| {
            let mut text = String::from("pack near\nlanguage 1\nrequires base\non tile_placed(t) {\n");
            for (i, f) in filters.iter().enumerate() {
                text += &format!(
                    "  if count(m in features where {f}) > {i} {{\n    \
                     score count(m in features where {f}) to current_player reason \"near\"\n  }}\n"
                );
            }
            text + "}\n"
        };
        assert_narrowing_keeps_games(&filters, text);
    }

    /// A count over a feature's figures is made on the stack while they
    /// fit there and over their listed value past that: with more figures
    /// on one road than the stack holds, compiled and walked games agree.
    #[test]
    fn counts_of_many_figures_count_them_all() {
        let text = "pack crowd\nlanguage 1\nrequires base\n\
            figure pawn x90 neutral { stands on road }\n\
            on tile_placed(t) {\n  \
              for feature f where f.kind == road or f.kind == city {\n    \
                place pawn on start_tile.feature(road)\n  }\n  \
              if count(x in start_tile.feature(road).figures where x.owner == none) > 64 {\n    \
                score 1000 to current_player reason \"crowd\"\n  }\n}\n";
        let rules = Arc::new(Rules::new(over_base("crowd.rules", text)));
        for seed in 0..2 {
            let compiled = play(&rules, 2, seed, false);
            assert_eq!(compiled, play(&rules, 2, seed, true), "seed {seed}");
            assert!(
                compiled.0.iter().sum::<i64>() >= 1000,
                "more than 64 figures were counted: {:?}",
                compiled.0
            );
        }
    }

    /// A count of a feature's figures whose filter asks only who owns each
    /// (`==` or `!=` a player, `none`, `current_player`, a local) is read
    /// off the feature's standings: compiled and walked games agree, on
    /// features holding followers of several players and a neutral figure,
    /// and the counts add points beyond base's.
    #[test]
    fn counts_of_figures_by_owner_count_as_walked() {
        let counts = [
            "x.owner == current_player",
            "x.owner != current_player and x.owner != none",
            "none == x.owner",
            "x.owner != none",
            "x.owner == p and current_player != x.owner",
            "x.owner != p and x.owner == x.owner",
        ];
        let mut text = String::from(
            "pack owners\nlanguage 1\nrequires base\n\
             figure pawn x2 neutral { stands on road, city }\n\
             on setup {\n  place pawn on start_tile.feature(road)\n  place pawn on start_tile.feature(city)\n}\n\
             on tile_placed(t) {\n  for feature f in t.features {\n    for player p {\n",
        );
        for (i, filter) in counts.iter().enumerate() {
            text += &format!(
                "      score {} * count(x in f.figures where {filter}) to p reason \"owners {i}\"\n",
                i + 1
            );
        }
        text += "    }\n  }\n}\n";
        let rules = Arc::new(Rules::new(over_base("owners.rules", text)));
        plays_as_walked_beyond_base(&rules, 20);
    }

    /// Which actions `owned_targets` finds offer only figures of one type
    /// that the current player owns: those on one type whose filter starts
    /// with `x.owner == current_player` (or calls a function whose body
    /// does); not those on figures of any type, without a filter, on
    /// another owner, or testing the owner after something else.
    #[test]
    fn owned_targets_are_figures_of_one_type_the_current_player_owns() {
        let cases = [
            (
                "for pawn x where x.owner == current_player and not x.feature.completed",
                true,
            ),
            ("for pawn x where current_player == x.owner", true),
            ("for pawn x where mine(x)", true),
            ("for figure x where x.owner == current_player", false),
            ("for pawn x", false),
            ("for pawn x where x.owner != current_player", false),
            ("for pawn x where x.owner == next_player", false),
            (
                "for pawn x where x.feature.completed and x.owner == current_player",
                false,
            ),
            ("for pawn x where x.owner == current_player or x.owner == none", false),
        ];
        let mut text = String::from(
            "pack owned\nlanguage 1\nrequires base\nfigure pawn x2 per_player { stands on road }\n\
             fn mine(y: figure) = y.owner == current_player and y.feature.tiles > 0\n",
        );
        for (i, (head, _)) in cases.iter().enumerate() {
            text += &format!("action case_{i} in deploy {head} {{\n  take back x\n}}\n");
        }
        let pack = over_base("owned.rules", text);
        for (i, (head, owned)) in cases.iter().enumerate() {
            let action = pack
                .program
                .actions
                .iter()
                .find(|a| a.name == format!("case_{i}"))
                .unwrap();
            assert_eq!(super::owned_targets(&pack.program, action).is_some(), *owned, "{head}");
        }
    }

    /// Which filters are compiled less their first conjunct for members a
    /// scan found by it: those whose first conjunct is itself the member
    /// test a scan narrows by (a feature's kind, a figure's owner); not one
    /// found in a called function, one after another conjunct, or a
    /// filter with no member test.
    #[test]
    fn filters_whose_first_conjunct_a_scan_answers_are_judged_less_it() {
        let cases = [
            ("for feature x where x.kind == city and not x.completed", true),
            (
                "for feature x where city == x.kind and x.tiles > 1 and not x.scored",
                true,
            ),
            ("for figure x where x.owner == current_player", true),
            ("for figure x where x.owner == none and x.feature.tiles > 1", true),
            ("for figure x where mine(x) and x.feature.tiles > 1", false),
            ("for feature x where not x.completed and x.kind == city", false),
            ("for feature x where x.kind == city or x.kind == road", false),
            ("for feature x where x.tiles > 2", false),
        ];
        let mut text = String::from(
            "pack found\nlanguage 1\nrequires base\n\
             fn mine(y: figure) = y.owner == current_player\n",
        );
        for (i, (head, _)) in cases.iter().enumerate() {
            text += &format!("action case_{i} in deploy {head} {{\n  score 1 to current_player reason \"found\"\n}}\n");
        }
        let rules = Arc::new(Rules::new(over_base("found.rules", text)));
        let game = Game::new(rules.clone(), Setup::new(2).seed(1)).unwrap();
        for (i, (head, less)) in cases.iter().enumerate() {
            let action = rules
                .pack
                .program
                .actions
                .iter()
                .position(|a| a.name == format!("case_{i}"));
            let filter = game.compiled.action_filter[action.unwrap()].as_ref().unwrap();
            assert_eq!(filter.rest.is_some(), *less, "{head}");
        }
    }

    /// Which filters of figures `owner_tests` finds ask only who owns the
    /// figure: `==` and `!=` against values read where they are, joined by
    /// `and`; not `or`, a call, the owner against itself or a value that
    /// could fail.
    #[test]
    fn owner_tests_find_filters_that_ask_only_the_owner() {
        let cases = [
            ("x.owner == current_player", Some((1, false))),
            ("x.owner != none and x.owner != current_player", Some((2, false))),
            ("none == x.owner", Some((1, false))),
            (
                "x.owner == p and x.owner != current_player and p != x.owner",
                Some((3, false)),
            ),
            ("x.owner == current_player or x.owner == none", None),
            ("x.owner == x.owner", None),
            ("x.owner == current_player and x.type == pawn", None),
            ("mine(x)", None),
            ("x.owner == same(p)", None),
            ("not (x.owner == p)", None),
            // Followers: a type's weight above 0, said three ways.
            ("x.owner != none and x.type.weight > 0", Some((1, true))),
            ("0 != x.type.weight and x.owner == p", Some((1, true))),
            ("x.type.weight >= 1", Some((0, true))),
            ("x.type.weight > 1 and x.owner == p", None),
            ("x.owner == p or x.type.weight > 0", None),
        ];
        let mut text = String::from(
            "pack owners\nlanguage 1\nrequires base\nfigure pawn x1 neutral { stands on road }\n\
             fn mine(y: figure) = y.owner == current_player\nfn same(q: player) = q\n",
        );
        for (i, (filter, _)) in cases.iter().enumerate() {
            text += &format!("fn case_{i}(x: figure, p: player) = {filter}\n");
        }
        let pack = over_base("owners.rules", text);
        for (i, (filter, tests)) in cases.iter().enumerate() {
            let (mut found, mut followers) = (Vec::new(), false);
            let found = super::owner_tests(case_body(&pack.program, i), 0, &mut found, &mut followers)
                .map(|()| (found.len(), followers));
            assert_eq!(found, *tests, "{filter}");
        }
    }

    /// Which filters of features `occupied_test` finds false for every
    /// feature with no figure on it: those whose leading conjuncts, after
    /// tests that cannot fail, ask for a figure on the member; not those
    /// where something that can fail or ask anything else comes first, nor
    /// a count that holds with no figure.
    #[test]
    fn occupied_tests_find_filters_that_need_a_figure() {
        let cases = [
            ("count(x in m.figures) > 0", true),
            ("count(x in m.figures where x.owner != none) >= 1", true),
            ("0 != count(x in m.figures)", true),
            ("m.kind == city and not m.scored and busy(m)", true),
            ("distance(m.tile, placed_tile) <= 1 and count(x in m.figures) > 0", true),
            ("m.kind == city and busy(m) and m.tiles > 2", true),
            ("(m.kind == road or m.kind == city) and count(p in m.owners) > 0", true),
            (
                "count(p in m.owners where p != current_player) != 0 and m.tiles > 1",
                true,
            ),
            ("m.kind == road or m.kind == city or busy(m)", false),
            ("(m.kind == road or m.tiles > 1) and busy(m)", false),
            ("count(p in m.owners) == 0", false),
            ("m.kind == city and m.followers(current_player) > 0", true),
            ("1 <= m.followers(current_player) and m.tiles > 1", true),
            ("m.followers(current_player) > 1", false),
            ("m.followers(current_player) >= 0", false),
            ("m.followers(current_player) != 0 or m.tiles > 1", false),
            ("count(p in placed_tile.feature(road).owners) > 0", false),
            ("count(x in m.figures) == 0", false),
            ("count(x in m.figures) > 1", false),
            ("not m.completed and busy(m)", false),
            ("m.tiles > 2 and busy(m)", false),
            // Compared with a truth value: not taken for a member test.
            ("m.scored == false and busy(m)", false),
            ("busy(m) or m.kind == city", false),
            ("count(x in placed_tile.features) > 0 and busy(m)", false),
            ("count(x in current_player.figures_at(area) where true) > 0", false),
            ("not busy(m)", false),
            ("far(m, m.tiles)", false),
        ];
        let mut text = String::from(
            "pack occupied\nlanguage 1\nrequires base\nspot area per_player\n\
             fn busy(f: feature) = count(x in f.figures where x.owner != none) >= 1\n\
             fn far(f: feature, n: int) = count(x in f.figures) > 0 and n > 2\n",
        );
        for (i, (filter, _)) in cases.iter().enumerate() {
            text += &format!("fn case_{i}(m: feature) = {filter}\n");
        }
        let pack = over_base("occupied.rules", text);
        let program = &pack.program;
        for (i, (filter, needs_figure)) in cases.iter().enumerate() {
            let body = case_body(program, i);
            assert_eq!(super::occupied_test(program, body, 0), *needs_figure, "{filter}");
        }
    }

    /// A kind's `complete when open_edges == 0` (either way round, of the
    /// subject) is answered from the open edges (`when_closed`); any other
    /// condition runs as written. That both answer alike is what
    /// `compiled_expressions_play_the_games_walked_ones_play` plays.
    #[test]
    fn completion_by_open_edges_is_found() {
        use crate::ir::expr::{Builtin, Expr};
        use crate::ir::BinOp;
        let open = |of: Option<Expr>| Expr::Query {
            builtin: Builtin::OpenEdges,
            of: of.map(Box::new),
            args: Vec::new(),
        };
        let eq = |op, a, b| Expr::Binary(op, Box::new(a), Box::new(b));
        assert!(super::when_closed(&eq(
            BinOp::Eq,
            open(Some(Expr::Subject)),
            Expr::Int(0)
        )));
        assert!(super::when_closed(&eq(
            BinOp::Eq,
            Expr::Int(0),
            open(Some(Expr::Subject))
        )));
        // Of nothing, `open_edges` is 0 whatever the feature: not the same.
        assert!(!super::when_closed(&eq(BinOp::Eq, Expr::Int(0), open(None))));
        assert!(!super::when_closed(&eq(
            BinOp::Eq,
            open(Some(Expr::Subject)),
            Expr::Int(1)
        )));
        assert!(!super::when_closed(&eq(
            BinOp::Le,
            open(Some(Expr::Subject)),
            Expr::Int(0)
        )));
        assert!(!super::when_closed(&eq(
            BinOp::Eq,
            open(Some(Expr::Local(0))),
            Expr::Int(0)
        )));
        let neighbours = Expr::Query {
            builtin: Builtin::Neighbours,
            of: None,
            args: Vec::new(),
        };
        assert!(!super::when_closed(&eq(BinOp::Eq, neighbours, Expr::Int(0))));
        // Base's roads and cities are answered so; its monasteries are not.
        let base = Rules::new(load(&[PackRef::Bundled("base".into())]).unwrap());
        let compiled = super::compile(&base);
        let closed: Vec<&str> = base
            .pack
            .kinds
            .iter()
            .zip(&compiled.complete_when_closed)
            .filter(|(_, c)| **c)
            .map(|(k, _)| k.name.as_str())
            .collect();
        assert_eq!(closed, ["city", "road"]);
    }

    /// `itself_test` finds the value a filter's leading `p == E` (either
    /// way round, after `and`, inside a called function) asks the member
    /// to be, and nothing else: not `!=`, not a query of the member, not an
    /// `E` that reads the member or could fail.
    #[test]
    fn itself_tests_find_filters_of_one_member() {
        let cases = [
            ("p == current_player", Some("current_player")),
            ("current_player == p", Some("current_player")),
            ("p == next_player and p.supply(follower) > 0", Some("next_player")),
            ("mine(p)", Some("current_player")),
            ("mine(p) and p.supply(follower) > 1", Some("current_player")),
            ("p == q", Some("q")),
            ("p != current_player", None),
            ("p.supply(follower) > 0 and p == current_player", None),
            ("p == current_player or p == next_player", None),
            ("p == p", None),
            ("not (p == current_player)", None),
        ];
        let mut text = String::from(
            "pack itself\nlanguage 1\nrequires base\n\
             fn mine(x: player) = x == current_player and x.supply(follower) >= 0\n",
        );
        for (i, (filter, _)) in cases.iter().enumerate() {
            text += &format!("fn case_{i}(p: player, q: player) = {filter}\n");
        }
        let pack = over_base("itself.rules", text);
        let program = &pack.program;
        for (i, (filter, wanted)) in cases.iter().enumerate() {
            let body = case_body(program, i);
            let found = super::itself_test(program, body, 0).map(|e| match e {
                crate::ir::expr::Expr::Query { builtin, .. } => format!("{builtin:?}"),
                crate::ir::expr::Expr::Local(1) => "q".to_string(),
                other => format!("{other:?}"),
            });
            let wanted = wanted.map(|w| match w {
                "current_player" => format!("{:?}", crate::ir::expr::Builtin::CurrentPlayer),
                "next_player" => format!("{:?}", crate::ir::expr::Builtin::NextPlayer),
                other => other.to_string(),
            });
            assert_eq!(found, wanted, "{filter}");
        }
    }

    /// A `choose` of a player whose filter starts with `p == E` (`may`'s
    /// own form) judges `E`'s player alone, and plays the same games as
    /// the same filters made to judge every player (`t != none` first):
    /// the same scores and events, compiled and walked, with less work (a
    /// function called in the filter is called for `E`'s player only).
    #[test]
    fn choices_of_one_player_play_as_choices_among_all() {
        let filters = [
            "p == current_player",
            "next_player == p and p.supply(follower) >= 0",
            "mine(p)",
            "p == none",
        ];
        let pack = |full: bool| {
            let mut text = String::from(
                "pack one\nlanguage 1\nrequires base\n\
                 fn mine(x: player) = x == current_player and x.supply(follower) >= 0\n\
                 on tile_placed(t) {\n",
            );
            for (i, f) in filters.iter().enumerate() {
                let f = if full {
                    format!("t != none and {f}")
                } else {
                    f.to_string()
                };
                text += &format!(
                    "  choose player p where {f} {{\n    score {} to p reason \"one\"\n  }}\n",
                    i + 1
                );
            }
            text += "  may {\n    score 1 to current_player reason \"may\"\n  }\n}\n";
            Arc::new(Rules::new(over_base("one.rules", text)))
        };
        let (narrow, full) = (pack(false), pack(true));
        let narrowed = plays_as_walked_beyond_base(&narrow, 100);
        let judged_all = plays_as_walked_beyond_base(&full, 100);
        for (seed, (a, b)) in narrowed.iter().zip(&judged_all).enumerate() {
            assert_eq!(a.0, b.0, "seed {seed}: scores");
            assert!(a.1 == b.1, "seed {seed}: events");
            // `mine(p)` is called for one player, not for each.
            assert!(a.2 < b.2, "seed {seed}: {} units of work narrowed, {} not", a.2, b.2);
        }
    }

    /// A scan of the board's features whose filter asks for a figure on
    /// the feature (`count(x in m.figures ...) > 0` among its leading
    /// conjuncts, or in the body of a function it calls) passes over the
    /// features with no figure and finds what a scan of every feature finds:
    /// the same games, in counts, `for` loops and `choose`, compiled and
    /// walked, as with the same filters made to judge everything
    /// (`t != none` first).
    #[test]
    fn scans_of_occupied_features_find_what_full_scans_find() {
        let filters = [
            "count(x in m.figures) > 0",
            "m.kind == city and count(x in m.figures where x.owner != current_player) > 0",
            "not m.completed and busy(m)",
            "m.kind == road and distance(m.tile, t) <= 2 and count(x in m.figures) != 0",
            "busy(m) and m.tiles > 2",
            "count(x in m.figures) >= 1 and m.kind == field",
            "count(x in m.figures) == 0 and m.kind == city",
            "busy(m) and m.kind == road",
        ];
        // The last filter is a `choose`'s.
        let text = |filters: &[String]| {
            let (choose, filters) = filters.split_last().expect("filters");
            let mut text = String::from(
                "pack occupied\nlanguage 1\nrequires base\n\
                 fn busy(f: feature) = count(x in f.figures where x.owner != none) >= 1\n\
                 on tile_placed(t) {\n",
            );
            for (i, f) in filters.iter().enumerate() {
                text += &format!(
                    "  if count(m in features where {f}) > {i} {{\n    \
                     score count(m in features where {f}) to current_player reason \"occupied\"\n  }}\n  \
                     for feature m where {f} {{\n    score 1 to current_player reason \"occupied\"\n  }}\n"
                );
            }
            text + &format!(
                "  may {{\n    choose feature m where {choose} {{\n      \
                 score m.tiles to current_player reason \"occupied\"\n    }}\n  }}\n}}\n"
            )
        };
        assert_narrowing_keeps_games(&filters, text);
        // Filters no other narrowing applies to: less work here is the
        // figure narrowing's alone.
        assert_narrowing_keeps_games(&["count(x in m.figures) > 0", "busy(m)"], text);
    }

    /// A count over a tile's features whose filter asks for a figure on
    /// the feature (`occupied_test`: through a feature's figures, its
    /// owners or a player's followers there, after tests that cannot fail,
    /// `or` included) counts what judging all of them counts: the same
    /// games, compiled and walked, as with the same filters made to judge
    /// everything (`t != none` first). That it judges fewer features shows
    /// in the work charged only where judging calls a function (`busy(m)`,
    /// `mine(m)`, played alone too); which forms are recognised is
    /// `occupied_tests_find_filters_that_need_a_figure`'s to check.
    #[test]
    fn counts_of_a_tiles_features_skip_those_with_no_figure() {
        let filters = [
            "(m.kind == road or m.kind == city) and count(p in m.owners) > 0 and not m.controlled_by(current_player)",
            "busy(m)",
            "m.kind == city and count(x in m.figures where x.owner != current_player) > 0",
            "count(p in m.owners) > 0 and busy(m)",
            "m.followers(current_player) > 0",
        ];
        let text = |filters: &[String]| {
            let mut text = String::from(
                "pack occupied\nlanguage 1\nrequires base\n\
                 fn busy(f: feature) = count(x in f.figures where x.owner != none) >= 1\n\
                 fn mine(f: feature) = f.followers(current_player) > 0\n\
                 on tile_placed(t) {\n",
            );
            for f in filters {
                text += &format!(
                    "  if count(m in t.features where {f}) > 0 {{\n    \
                     score 20 * count(m in t.features where {f}) to current_player reason \"occupied\"\n  }}\n"
                );
            }
            text + "}\n"
        };
        assert_narrowing_keeps_games(&filters, text);
        assert_narrowing_keeps_games(&["busy(m)"], text);
        assert_narrowing_keeps_games(&["mine(m)"], text);
    }

    /// Calls inlined in their callers' frames answer what calls in frames
    /// of their own answer: value functions with `let`, `if`, counts that
    /// read their parameters, calls as arguments of calls, in conditions,
    /// values and arithmetic, parameters given local variables or constants
    /// (read where they are, unless a count remembers them or the constant
    /// is an integer, which would stop a count early),
    /// play the same games compiled as walked (the same events, scores and
    /// evaluation work), and their points are paid.
    #[test]
    fn inlined_calls_play_the_games_called_ones_play() {
        let text = "pack inlined\nlanguage 1\nrequires base\n\
            fn roads(t: tile) = count(f in t.features where f.kind == road)\n\
            fn owned(f: feature) = count(p in f.owners) > 0\n\
            fn mine(f: feature) = f.controlled_by(current_player) and owned(f)\n\
            fn both(a: int, b: int) = a + b\n\
            fn bigger(f: feature) = count(feature g where g.kind == f.kind and g.tiles > f.tiles)\n\
            fn of_kind(t: tile, k: kind) = count(f in t.features where f.kind == k)\n\
            fn many(k: kind, n: int) = count(feature g where g.kind == k and g.tiles > n)\n\
            fn cities_over(n: int) = count(feature g where g.kind == city) > n\n\
            fn near_roads(t: tile, d: int) = count(feature g where g.kind == road and distance(g.tile, t) <= d)\n\
            fn helps(f: feature, n: int) = count(x in f.figures) > n\n\
            fn value(t: tile): int {\n  let n = roads(t)\n  if n >= 2 {\n    return both(n, n)\n  }\n  \
              return both(count(feature g where g.kind == city and mine(g)), roads(t))\n}\n\
            on tile_placed(t) when count(f in t.features where mine(f)) > 0 or value(t) > 2 {\n  \
              score value(t) + both(roads(t), value(t)) to current_player reason \"inlined\"\n}\n\
            on tile_placed(t) when count(f in t.features where bigger(f) > 2 and bigger(f) < 6) > 1 {\n  \
              score 1 to current_player reason \"inlined\"\n}\n\
            on tile_placed(t) when of_kind(t, monastery) + of_kind(t, road) > 1 and many(city, 2) > 1 {\n  \
              score both(of_kind(t, road), 3) to current_player reason \"inlined\"\n}\n\
            on tile_placed(t) when many(road, 1) != many(city, 1) {\n  \
              score many(field, 0) to current_player reason \"inlined\"\n}\n\
            on tile_placed(t) when cities_over(0) and cities_over(3) {\n  \
              score near_roads(t, 1) + near_roads(t, 2) to current_player reason \"inlined\"\n}\n\
            on tile_placed(t) when count(f in t.features where helps(f, 0) and helps(f, 1)) > 0 {\n  \
              score 1 to current_player reason \"inlined\"\n}\n";
        let rules = Arc::new(Rules::new(over_base("inlined.rules", text)));
        let compiled = super::compile(&rules);
        assert!(!compiled.inlined.is_empty(), "calls are inlined");
        // A constant argument is read where it is written: `monastery`
        // appears only as `of_kind`'s argument.
        let monastery = rules.pack.kinds.iter().position(|k| k.name == "monastery").unwrap();
        let mut constant_read = false;
        for body in &compiled.inlined {
            super::visit(body, &mut |e| {
                constant_read |= matches!(e, crate::ir::expr::Expr::Kind(k) if usize::from(*k) == monastery)
            });
        }
        assert!(constant_read, "the constant argument was put in the body");
        plays_as_walked_beyond_base(&rules, 50);
    }

    /// A `not` is compiled into the test it negates (`test_as`): of a
    /// game variable, a comparison of integers, with a constant or of two
    /// values read in place (`placed_tile != t`),
    /// `x.completed`, a count's existence (judged and by the tile's type),
    /// a built-in answered in place, an inlined call, `and` and `or`
    /// chains (their opposites, judged in the same order) and a `not`
    /// again. Each guard below holds on some tiles and not others, and the
    /// games are the same compiled as walked (events, scores and the
    /// evaluation work charged).
    #[test]
    fn negations_play_as_walked() {
        let text = "pack negated\nlanguage 1\nrequires base\n\
            var game flip: bool = false\n\
            fn roads(t: tile) = count(f in t.features where f.kind == road)\n\
            fn mine(f: feature) = f.controlled_by(current_player)\n\
            on tile_placed(t) when not flip and not (roads(t) < 2) {\n  \
              set flip = true\n  score 11 to current_player reason \"negated\"\n}\n\
            on tile_placed(t) when not (flip and roads(t) == 1) and not not (roads(t) != 0) {\n  \
              set flip = false\n  score 12 to current_player reason \"negated\"\n}\n\
            on tile_placed(t) when not (count(f in t.features where f.kind == city) > 0 or roads(t) >= 3)\n    \
              and not (placed_tile != t) {\n  \
              score 13 to current_player reason \"negated\"\n}\n\
            on tile_placed(t) when not (count(f in t.features where f.kind == field) == 0)\n    \
              and not (roads(t) > 1 and flip and roads(t) < 4) {\n  \
              score 14 to current_player reason \"negated\"\n}\n\
            on tile_placed(t) when count(f in t.features where not f.completed and not mine(f)\n    \
              and not (f.kind != road)) > 0 {\n  \
              score 15 to current_player reason \"negated\"\n}\n\
            on tile_placed(t) when count(feature g where not (g.kind == city) and not g.scored\n    \
              and not (distance(g.tile, t) > 1)) > 3 {\n  \
              score 16 to current_player reason \"negated\"\n}\n";
        let rules = Arc::new(Rules::new(over_base("negated.rules", text)));
        let games = plays_as_walked_beyond_base(&rules, 20);
        // Each guard held in some game (each pays its own points) and
        // failed in some (it did not pay at every placement).
        for points in 11..=16 {
            let paid = format!("points: {points},");
            let times: usize = games
                .iter()
                .map(|(_, events, _)| events.iter().filter(|e| e.contains(&paid)).count())
                .sum();
            let placed: usize = games
                .iter()
                .map(|(_, events, _)| events.iter().filter(|e| e.starts_with("Placed")).count())
                .sum();
            assert!(
                times > 0 && times < placed,
                "the rule paying {points}: {times} of {placed} placements"
            );
        }
    }

    /// Which disjunctions `select` judges as `if c then a else b`: `c` a
    /// built-in of a local answered in place, negated on the other side
    /// (either way round), with any conjuncts after it; not where `c` is a
    /// count or a call (charged as they run, so asking once would charge
    /// less), nor where the sides ask different things.
    #[test]
    fn selects_are_found_where_asking_once_changes_nothing() {
        use crate::ir::{expr::Expr, BinOp};
        let cases = [
            (
                "(x.lying and x.owner == p) or (not x.lying and x.owner != p)",
                Some((1, 1)),
            ),
            (
                "(not x.lying and x.owner == p) or (x.lying and x.owner != p)",
                Some((1, 1)),
            ),
            (
                "(x.lying and x.owner == p and x.type.weight > 0) or (not x.lying and x.owner != p)",
                Some((2, 1)),
            ),
            ("x.lying or not x.lying", Some((0, 0))),
            ("(x.lying and x.owner == p) or (not x.lying)", Some((1, 0))),
            // The same question on both sides, but not negated.
            ("(x.lying and x.owner == p) or (x.lying and x.owner != p)", None),
            // Another question on the other side.
            ("(x.lying and x.owner == p) or (not (x.owner == p) and x.lying)", None),
            // Neither a built-in of a local: a call and a count.
            ("(flat(x) and x.owner == p) or (not flat(x) and x.owner != p)", None),
            (
                "(count(y in x.tile.features where y.kind == road) > 0 and x.lying)\n  \
                 or (not (count(y in x.tile.features where y.kind == road) > 0) and not x.lying)",
                None,
            ),
        ];
        let mut text = String::from("pack selects\nlanguage 1\nrequires base\nfn flat(y: figure) = y.lying\n");
        for (i, (test, _)) in cases.iter().enumerate() {
            text += &format!("fn case_{i}(x: figure, p: player) = {test}\n");
        }
        let pack = over_base("selects.rules", text);
        for (i, (test, shape)) in cases.iter().enumerate() {
            let Expr::Binary(BinOp::Or, l, r) = case_body(&pack.program, i) else {
                panic!("{test}: not a disjunction");
            };
            let found = super::select(l, r).map(|(_, a, b)| (a.len(), b.len()));
            assert_eq!(found, *shape, "{test}");
        }
    }

    /// Disjunctions judged as `if c then a else b` (`select`) play the
    /// games the walked ones play, with the same work: both ways round,
    /// with conjuncts after `c`, in a count's filter, in a guard, and
    /// negated (asked whether they fail).
    #[test]
    fn selects_play_as_walked() {
        let text = "pack selects\nlanguage 1\nrequires base\n\
            fn turns(x: figure, f: feature) =\n  \
              (x.lying and x.type.stands_on(f.kind)) or (not x.lying and x.type.lies_on(f.kind))\n\
            on tile_placed(t) when count(figure x where (x.lying and x.owner == current_player)\n    \
              or (not x.lying and x.owner != current_player and x.type.weight > 0)) > 2 {\n  \
              score 21 to current_player reason \"select\"\n}\n\
            on tile_placed(t) when count(figure x where (not x.lying and x.owner == current_player)\n    \
              or (x.lying and x.owner != none)) > 1 {\n  \
              score 22 to current_player reason \"select\"\n}\n\
            on tile_placed(t) when count(figure x where x.owner == current_player\n    \
              and count(f in x.tile.features where turns(x, f)) > 1) > 0 {\n  \
              score 23 to current_player reason \"select\"\n}\n\
            on tile_placed(t) when count(figure x where not ((x.lying and x.owner == current_player)\n    \
              or (not x.lying and x.owner != current_player))) > 3 {\n  \
              score 24 to current_player reason \"select\"\n}\n";
        let rules = Arc::new(Rules::new(over_base("selects.rules", text)));
        let games = plays_as_walked_beyond_base(&rules, 20);
        let placed: usize = games
            .iter()
            .map(|(_, events, _)| events.iter().filter(|e| e.starts_with("Placed")).count())
            .sum();
        // Each guard held at some placement and failed at another.
        for points in 21..=24 {
            let times = paid(&games, points);
            assert!(
                times > 0 && times < placed,
                "the rule paying {points}: {times} of {placed} placements"
            );
        }
    }

    /// Players' and features' variables read by the compiled nodes (the
    /// variable's type known when compiled, its owner read in place) play
    /// the games the walked ones play: a flag asked whether it holds, and
    /// negated, in guards and in a count's filter; a flag and a number as
    /// values compared; and a flag of a feature found by a built-in with an
    /// argument (not read in place), which may be none.
    #[test]
    fn member_variables_play_as_walked() {
        let text = "pack members\nlanguage 1\nrequires base\n\
            var feature marked: bool = false merge any\n\
            var player tally: int = 0\n\
            on feature_completed(f) when not f.marked and f.kind != field {\n  \
              set f.marked = true\n  set current_player.tally = current_player.tally + 1\n  \
              score 21 to current_player reason \"members\"\n}\n\
            on feature_scored(f) when f.marked and current_player.tally > 2 {\n  \
              score 22 to current_player reason \"members\"\n}\n\
            on tile_placed(t) when count(feature g where g.kind == city and g.marked == true) > 1 {\n  \
              score 23 to current_player reason \"members\"\n}\n\
            on tile_placed(t) when not t.feature(road).marked and t.feature(city).marked == false {\n  \
              score 24 to current_player reason \"members\"\n}\n";
        let rules = Arc::new(Rules::new(over_base("members.rules", text)));
        let games = plays_as_walked_beyond_base(&rules, 20);
        let paid = |points: i64| paid(&games, points);
        // Each rule paid in some game.
        for points in [21, 22, 23, 24] {
            assert!(paid(points) > 0, "the rule paying {points} never paid");
        }
    }

    /// An event fired as the next task whose handlers have no guard and
    /// only set game variables runs them at once (`Game::fire_next`), in
    /// the order its task runs them, and the games are those walked (where
    /// every handler runs as a task): `turn_start`'s two handlers read and
    /// set the same flag (run the other way round, `x` would hold and pay
    /// 41 every turn), `tile_drawn`'s reads it after them, and `turn_end`'s
    /// clears it.
    #[test]
    fn plain_events_run_at_once_as_their_task_would() {
        use crate::ir::program::EventKind;
        let text = "pack plain\nlanguage 1\nrequires base\n\
            var game x: bool = false\nvar game y: bool = false\nvar game z: bool = false\n\
            on turn_start { set x = y }\n\
            on turn_start { set y = true }\n\
            on tile_drawn(p) { set z = y }\n\
            on turn_end(p) { set y = false\n  set z = false }\n\
            on tile_placed(t) when x { score 41 to current_player reason \"plain\" }\n\
            on tile_placed(t) when z { score 42 to current_player reason \"plain\" }\n";
        let rules = Arc::new(Rules::new(over_base("plain.rules", text)));
        let plain = super::compile(&rules).plain_events;
        for event in [EventKind::TurnStart, EventKind::TileDrawn, EventKind::TurnEnd] {
            assert!(plain[event.index()], "{event:?} runs its handlers at once");
        }
        assert!(
            !plain[EventKind::TilePlaced.index()],
            "guarded handlers are judged as a task"
        );
        let games = plays_as_walked_beyond_base(&rules, 50);
        let paid = |points: i64| paid(&games, points);
        assert!(paid(42) > 0 && paid(41) == 0, "z held when tiles were placed, x never");
    }

    /// A plain event run at once is held to the step budgets as its task
    /// is: with the turn's steps brought near their budget before the
    /// deploy decision, the game ends with the same error (naming the same
    /// rule) and the same flag, set or not, compiled (`turn_end`'s handler
    /// run at once) as walked (run as a task), whichever step of the turn
    /// goes over the budget.
    #[test]
    fn plain_events_are_held_to_the_step_budgets_as_their_tasks() {
        use super::super::task::TURN_STEP_BUDGET;
        let text = "pack plain\nlanguage 1\nrequires base\nvar game flag: bool = false\n\
            on turn_end { set flag = true }\n";
        let rules = Arc::new(Rules::new(over_base("plain.rules", text)));
        assert!(super::compile(&rules).plain_events[crate::ir::program::EventKind::TurnEnd.index()]);
        let flag = rules.pack.program.vars.iter().position(|v| v.name == "flag").unwrap();
        let flag = rules.var_index[flag];
        let mut stopped = 0;
        for left in 1..8 {
            let outcome = |walked: bool| {
                WALKED.set(walked);
                let mut game = Game::new(rules.clone(), Setup::new(2).seed(1)).unwrap();
                WALKED.set(false);
                let place = game.options()[0];
                game.apply(place).unwrap();
                game.turn_steps = TURN_STEP_BUDGET - left;
                let deploy = game.options()[0];
                let ended = game.apply(deploy).map_err(|e| e.to_string());
                (ended, game.state.game_var(flag).clone())
            };
            let compiled = outcome(false);
            assert_eq!(compiled, outcome(true), "{left} steps left");
            stopped += usize::from(compiled.0.is_err());
        }
        assert!(
            stopped > 0 && stopped < 7,
            "the budget is reached at some steps, not all"
        );
    }

    /// Counts that run once while their memo lasts (written in a guard or
    /// an action's `when`, outside filters and function bodies) pass the
    /// memo by, and those that may run again keep it: a function's count
    /// called twice in a guard, in two guards of one event and in an
    /// action's `when`, and counts inside filters, are found remembered as
    /// walked ones are. The games are the same compiled as walked (events,
    /// scores and the evaluation work charged, which a count counted again
    /// instead of found would raise).
    #[test]
    fn counts_run_once_play_as_remembered() {
        let text = "pack once\nlanguage 1\nrequires base\n\
            fn cities() = count(feature g where g.kind == city)\n\
            on tile_placed(t) when count(feature g where g.kind == road) > 2 and cities() > 1 and cities() > 2 {\n  \
              score 1 to current_player reason \"once\"\n}\n\
            on tile_placed(t) when cities() > 3\n    \
              and count(feature g where g.kind == road and count(feature h where h.kind == city) > g.tiles) > 0 {\n  \
              score 2 to current_player reason \"once\"\n}\n\
            action look in before_place for feature f where f.kind == road and cities() > f.tiles\n    \
              when count(feature g where g.kind == field) > 1 and cities() > 0 {\n  \
              score 1 to current_player reason \"looked\"\n}\n";
        let rules = Arc::new(Rules::new(over_base("once.rules", text)));
        let games = plays_as_walked_beyond_base(&rules, 50);
        assert!(
            games
                .iter()
                .any(|(_, events, _)| events.iter().any(|e| e.starts_with("Acted"))),
            "the action is taken"
        );
    }

    /// A count that runs once still takes the place of its entry in a memo
    /// that fills up: the guard's second count keeps one entry for each
    /// feature of the board (its inner count reads `g`), so the memo fills
    /// as the board grows; the count over cities after it, whose inner
    /// count depends on no city, is kept (and found for the other cities)
    /// exactly when a walked guard keeps it. The games, and the work they
    /// are charged, are the same compiled as walked; without the places
    /// taken, compiled games keep one more count near a full memo and are
    /// charged less.
    #[test]
    fn counts_run_once_hold_their_place_in_a_full_memo() {
        let text = "pack full\nlanguage 1\nrequires base\n\
            on tile_placed(t) when count(feature a where a.kind == road) > 0\n    \
              and count(feature g where count(figure m where m.feature != g) > 0) > 1000\n    \
              or count(feature x where x.kind == city and count(figure m where m.owner != none) > 1) < 1000 {\n  \
              score 1 to current_player reason \"full\"\n}\n";
        let rules = Arc::new(Rules::new(over_base("full.rules", text)));
        plays_as_walked_beyond_base(&rules, 20);
    }

    /// Comparisons of two values read in place (local variables, built-ins
    /// answered from one, global built-ins without arguments), built-ins of
    /// one argument called as plain functions, on values read in place or
    /// on nodes, and `x.completed` of a local feature answer what their
    /// nodes answer: the games play the same compiled as walked, with points
    /// found beyond base's. A road kept in a game variable across turns is
    /// met again; by then other tiles may have joined it under another
    /// root (comparing node ids instead of roots makes this test fail, as
    /// checked by hand).
    #[test]
    fn comparisons_read_in_place_answer_what_nodes_answer() {
        let text = "pack direct\nlanguage 1\nrequires base\n\
            var game last: feature = none\n\
            fn mine(x: figure) = x.owner == current_player\n\
            on tile_placed(t) {\n  \
              let old = last\n  \
              for m in t.features where m.kind == road {\n    \
                if m == old {\n      score 1000 to current_player reason \"direct\"\n    }\n    \
                if old != m {\n      score 1 to current_player reason \"direct\"\n    }\n    \
                set last = m\n  }\n  \
              for feature a where a.kind == city and not a.completed {\n    \
                score count(feature b where b.kind == city and b != a and b.tiles == a.tiles) to current_player reason \"direct\"\n  }\n  \
              score count(figure x where mine(x) and x.owner != none) to current_player reason \"direct\"\n  \
              score count(figure x where x.owner != current_player and current_player != x.owner) to current_player reason \"direct\"\n  \
              score count(m in t.features where not m.completed and m == m) to current_player reason \"direct\"\n  \
              score count(m in t.features where m.controlled_by(current_player) or m.followers(current_player) > 1) to current_player reason \"direct\"\n  \
              score count(figure x where x.feature.controlled_by(x.owner) and x.feature.markers(pennant) > 0) to current_player reason \"direct\"\n  \
              score count(figure x where x.feature.kind == road and current_player == x.owner and x.feature.kind != city) to current_player reason \"direct\"\n  \
              score 2 * count(figure x where x.feature.kind != field and x.owner != current_player) to current_player reason \"direct\"\n  \
              for player p where t.feature(road).controlled_by(p) {\n    \
                score p.supply(follower) + t.feature(road).followers(p) to p reason \"direct\"\n  }\n}\n";
        let rules = Arc::new(Rules::new(over_base("direct.rules", text)));
        let met_again: usize = plays_as_walked_beyond_base(&rules, 100)
            .iter()
            .map(|game| game.1.iter().filter(|e| e.contains("points: 1000,")).count())
            .sum();
        // A road extended again is found equal to the one remembered.
        assert!(met_again > 0, "a remembered road met again");
    }

    /// Feature filters judged by the feature's root with nothing bound
    /// (`CompiledFilter::feature`) play the games the walked filters play,
    /// with the same work: in counts (cut short or not), `choose`s and an
    /// action's targets, for every shape of conjunct (`OnFeature`): a
    /// completion by a clause (a monastery's) included, `x == E` against a
    /// local (one holding a feature that a later join made no root) and a
    /// constant, `x.q == E` against a constant, a local and a global,
    /// `x.q(E)` of a local player, and conjuncts that do not read the
    /// feature (a count remembered, an inlined call) first, between and
    /// last. Filters with another shape (a call reading the feature) are
    /// judged bound; so are `for` loops, which no scan judges.
    #[test]
    fn feature_filters_judged_by_root_play_as_walked() {
        let text = "pack rooted\nlanguage 1\nrequires base\n\
            var feature marked: bool = false merge any\n\
            var game last: feature = none\n\
            fn wide(f: feature) = f.tiles > 2\n\
            fn some_cities() = count(feature g where g.kind == city) > 1\n\
            action mark in before_place for feature f where f.kind == road and not f.completed and not f.marked {\n  \
              set f.marked = true\n}\n\
            on tile_placed(t) {\n  \
              let k = city\n  \
              let here = t.feature(road)\n  \
              let old = last\n  \
              score count(feature f where f.kind == k and not f.completed and f != here) to current_player reason \"rooted\"\n  \
              score count(feature f where f.completed and not f.scored and current_player.supply(follower) > 0) to current_player reason \"rooted\"\n  \
              score 2 * count(monastery m where not m.completed and m.controlled_by(current_player)) to current_player reason \"rooted\"\n  \
              score 3 * count(road r where r.marked and here == r) to current_player reason \"rooted\"\n  \
              score count(feature f where current_player.supply(follower) >= 0 and f.tile == placed_tile and f != none and some_cities()) to current_player reason \"rooted\"\n  \
              for player p in players {\n    \
                score count(road r where r.controlled_by(p) and not r.completed) to p reason \"rooted\"\n  }\n  \
              if count(feature f where f == old and not f.completed) > 0 {\n    \
                score 5 to current_player reason \"rooted\"\n  }\n  \
              set last = here\n  \
              choose feature f where f.kind == road and not f.completed and here != f {\n    \
                score 1 to current_player reason \"rooted\"\n  }\n  \
              choose feature f where f != old and count(feature g where g.kind == road) > 2 and road == f.kind and some_cities() {\n    \
                score 1 to current_player reason \"rooted\"\n  }\n  \
              choose city c where wide(c) and not c.completed {\n    \
                score 1 to current_player reason \"rooted\"\n  }\n  \
              for feature f where not f.completed and f.kind == k {\n    \
                score 0 to current_player reason \"rooted\"\n  }\n}\n";
        let rules = Arc::new(Rules::new(over_base("rooted.rules", text)));
        let games = plays_as_walked_beyond_base(&rules, 100);
        // A road remembered from the turn before was met again (a root
        // or, after a join, a member of one).
        assert!(paid(&games, 5) > 0, "a remembered road met again");
        // The first two chooses' filters are judged by root; the third's
        // (a call reading the city) and the loop's bound; the action's
        // targets by root.
        let compiled = &super::compile(&rules);
        let kinds = super::by_statement(&rules.pack.program, |stmt| {
            Some(match stmt {
                crate::ir::program::Stmt::Choose { .. } => "choose",
                crate::ir::program::Stmt::ForEach { .. } => "for",
                _ => "other",
            })
        });
        let rooted: Vec<(&str, bool)> = kinds
            .iter()
            .flatten()
            .zip(compiled.statements.iter().flatten())
            .filter_map(|(kind, filter)| Some(((*kind)?, filter.as_ref()?.feature.is_some())))
            .filter(|(kind, _)| *kind != "other")
            .collect();
        assert_eq!(
            rooted,
            [("choose", true), ("choose", true), ("choose", false), ("for", false)]
        );
        assert!(compiled.action_filter.iter().flatten().all(|f| f.feature.is_some()));
    }

    /// A count over the board remembered while a `choose`'s options are
    /// judged is remembered for each value of the variables it reads: the
    /// options (and so the games) are those of the same count over a list,
    /// which is never remembered, for counts reading one, two and three
    /// variables.
    #[test]
    fn remembered_counts_answer_for_each_member() {
        let pack = |domain: &str| {
            let text = format!(
                "pack remembered\nlanguage 1\nrequires base\n\
                 on tile_placed(t) {{\n  let n = 1\n  let k = road\n  \
                   if t.y == 0 {{\n    \
                     choose feature f where f.kind == city and count({domain} where g.kind == f.kind and g.tiles > f.tiles) == 0 {{\n      \
                       score f.tiles to current_player reason \"one\"\n    }}\n  }}\n  \
                   if t.x == 1 {{\n    \
                     choose feature f where f.kind == road and count({domain} where g.kind == f.kind and g.tiles > f.tiles + n) < 2 {{\n      \
                       score 1 to current_player reason \"two\"\n    }}\n  }}\n  \
                   if t.x == 0 {{\n    \
                     choose feature f where f.kind == city and count({domain} where g.kind == f.kind and g.kind != k and g.tiles > f.tiles + n) == 1 {{\n      \
                       score 2 to current_player reason \"three\"\n    }}\n  }}\n}}\n"
            );
            Arc::new(Rules::new(over_base("remembered.rules", text)))
        };
        let (remembered, listed) = (pack("feature g"), pack("feature g in features"));
        for seed in 0..4 {
            let players = 2 + seed as usize % 3;
            let (a, b) = (
                play(&remembered, players, seed, false),
                play(&listed, players, seed, false),
            );
            assert_eq!((&a.0, &a.1), (&b.0, &b.1), "seed {seed}");
            assert!(
                a.1.iter().filter(|e| e.contains("Scored")).count() > 20,
                "the choices score"
            );
        }
    }

    /// Handlers that only set game variables, to constants or to other
    /// game variables, are run as plain sets; any other statement, a
    /// computed value or a player's variable leaves a handler to its frame.
    /// A statement's values are compiled, each found by its expression,
    /// except locals and constants (read as walked); an `if`'s condition is
    /// compiled on its own, not among them.
    #[test]
    fn statement_values_are_compiled_but_locals_and_constants() {
        use crate::ir::program::Stmt;
        let pack = over_base(
            "values",
            "pack values \"values\"\nlanguage 1\nrequires base\n\
             var game a: int = 0\n\
             on turn_end(p) {\n  \
               score 2 * count(f in features where f.kind == road) to p reason \"r\"\n  \
               set a = a + 1\n  \
               if a > 3 { set a = 0 }\n\
             }\n",
        );
        let rules = Rules::new(pack);
        let compiled = super::compile(&rules);
        let program = &rules.pack.program;
        let handler = program.handlers.last().expect("the pack's handler");
        let block = &program.blocks[handler.body as usize];
        let at = |i: usize| (handler.body, i as u32);
        let Stmt::Score { amount, to, reason } = &block[0].stmt else {
            panic!("a score first: {:?}", block[0].stmt)
        };
        assert!(compiled.value(at(0), amount).is_some(), "the amount is compiled");
        assert!(compiled.value(at(0), to).is_none(), "a local is walked");
        assert!(compiled.value(at(0), reason).is_none(), "a constant is walked");
        let Stmt::Set { value, .. } = &block[1].stmt else {
            panic!("a set second: {:?}", block[1].stmt)
        };
        assert!(compiled.value(at(1), value).is_some(), "the value is compiled");
        assert!(
            compiled.value(at(0), value).is_none(),
            "found only at its own statement"
        );
        assert!(
            compiled.values[handler.body as usize][2].is_empty(),
            "an if has no values"
        );
    }

    #[test]
    fn plain_handlers_are_found() {
        use super::super::eval::PlainValue;
        let pack = over_base(
            "plain",
            "pack plain \"plain\"\nlanguage 1\nrequires base\n\
             var game a: int = 0\nvar game b: int = 0\nvar player p: int = 0\n\
             on turn_start { set b = a  set a = 3 }\n\
             fn zero() = 0\n\
             on turn_start when a > 1 { set a = zero() }\n\
             on turn_start { set a = b + 1 }\n\
             on turn_start { set current_player.p = 1 }\n\
             on turn_start { set a = 1  if a > 0 { set b = 2 } }\n\
             on turn_end { }\n",
        );
        let rules = Rules::new(pack);
        let plain = super::compile(&rules).plain;
        let sets: Vec<Option<Vec<String>>> = plain
            .iter()
            .map(|p| {
                p.as_ref().map(|sets| {
                    sets.iter()
                        .map(|s| match &s.value {
                            PlainValue::Constant(v) => format!("{} = {v:?}", s.var),
                            PlainValue::GameVar(g) => format!("{} = var {g}", s.var),
                        })
                        .collect()
                })
            })
            .collect();
        let (a, b) = (
            rules.pack.program.vars.iter().position(|v| v.name == "a").unwrap(),
            rules.pack.program.vars.iter().position(|v| v.name == "b").unwrap(),
        );
        assert_eq!(
            sets,
            vec![
                Some(vec![format!("{b} = var {a}"), format!("{a} = Int(3)")]),
                None,
                None,
                None,
                None,
                Some(vec![]),
            ]
        );
    }

    /// An action without targets judges its `when` once a look, so the look
    /// makes no memo, whatever the `when` counts (there it would spare only
    /// a count nested in another's filter that reads none of its members).
    #[test]
    fn actions_without_targets_are_judged_without_a_memo() {
        let pack = over_base(
            "memo",
            "pack memo \"memo\"\nlanguage 1\nrequires base\nvar game flag: bool = false\n\
             action a in before_place when count(figure x where x.owner == current_player) > 0 { set flag = true }\n\
             action b in before_place for figure y where y.owner == current_player \
             when count(road r where not r.completed) > 0 { set flag = true }\n"
                .to_string(),
        );
        let compiled = super::compile(&Rules::new(pack));
        assert_eq!(compiled.action_memo, [false, true]);
    }

    /// A guard, or an action's target filter, may fill a memo when it
    /// counts, lists a tile's features, calls a function or asks a built-in
    /// that runs a kind's clauses (`completed` only where some kind's
    /// `complete when` may count, which no base kind's does, but a pack's
    /// pond here does); any other is judged without one (the games stay as
    /// walked ones, which always have a memo:
    /// `compiled_expressions_play_the_games_walked_ones_play`).
    #[test]
    fn guards_that_cannot_count_are_judged_without_a_memo() {
        let conditions = [
            ("flag", false),
            ("not flag and current_player != none", false),
            ("c.kind == city and c.markers(pennant) > 0", false),
            ("c.completed", false),
            ("c.completed_score > 2", true),
            ("c.final_score > 2", true),
            ("count(p in c.owners) > 1", true),
            ("wide(c)", true),
        ];
        for pond in [false, true] {
            let text: String = conditions
                .iter()
                .enumerate()
                .map(|(i, (g, _))| {
                    format!(
                        "on feature_completed(c) when {g} {{ set flag = true }}
                         action a{i} in before_place for feature c where {g} {{ set flag = true }}
                         on turn_end {{ choose feature c where {g} {{ set flag = true }} }}
"
                    )
                })
                .collect();
            let kind = if pond {
                "feature pond area {
  complete when count(c in touching where c.kind == city) > 0
}
"
            } else {
                ""
            };
            let pack = over_base(
                "memo",
                format!(
                    "pack memo \"memo\"\nlanguage 1\nrequires base\nvar game flag: bool = false\n\
                     fn wide(f: feature) = f.tiles > 3\n{kind}{text}"
                ),
            );
            let rules = Rules::new(pack);
            let wanted: Vec<bool> = conditions
                .iter()
                .map(|(g, may)| *may || (pond && g.contains("completed")))
                .collect();
            let compiled = super::compile(&rules);
            // Every other handler is the unguarded one holding the `choose`.
            let guards: Vec<bool> = compiled.guard_memo.iter().step_by(2).copied().collect();
            assert_eq!(guards, wanted, "guards, pond: {pond}");
            assert_eq!(compiled.action_memo, wanted, "actions, pond: {pond}");
            // The same conditions as `choose` filters, in the order written.
            let chooses: Vec<bool> = compiled.chooses.iter().flatten().flatten().map(|c| c.memo).collect();
            assert_eq!(chooses, wanted, "chooses, pond: {pond}");
        }
    }

    /// A guard, or the `when` of an action with no targets, that neither
    /// reads a local variable (the event's arguments) nor writes one (a
    /// count's member, an inlined call's parameters) is judged with no
    /// frame; an action with targets always has one (its target's slot).
    #[test]
    fn conditions_that_use_no_slot_are_judged_without_a_frame() {
        let conditions = [
            ("flag", true),
            ("not flag and current_player != none", true),
            ("placed_tile.has_icon(pennant_icon) and not flag", true),
            ("count(p in players where p != current_player) > 1", false),
            ("wide(placed_tile)", false),
        ];
        let text: String = conditions
            .iter()
            .enumerate()
            .map(|(i, (g, _))| {
                format!(
                    "on turn_end when {g} {{ set flag = true }}
                     action a{i} in before_place when {g} {{ set flag = true }}
"
                )
            })
            .collect();
        let pack = over_base(
            "frames",
            format!(
                "pack frames \"frames\"\nlanguage 1\nrequires base\nvar game flag: bool = false\n\
                 icon pennant_icon\n\
                 fn wide(t: tile) = t.has_icon(pennant_icon)\n\
                 on tile_placed(t) when t.has_icon(pennant_icon) {{ set flag = true }}\n\
                 action targeted in deploy for follower x where flag {{ set flag = true }}\n{text}"
            ),
        );
        let rules = Rules::new(pack);
        let compiled = super::compile(&rules);
        let wanted: Vec<bool> = conditions.iter().map(|(_, free)| *free).collect();
        // The `tile_placed` guard reads its argument `t`.
        assert!(!compiled.guard_frame_free[0]);
        assert_eq!(&compiled.guard_frame_free[1..], wanted.as_slice(), "guards");
        // `targeted` has targets.
        assert!(!compiled.action_frame_free[0]);
        assert_eq!(&compiled.action_frame_free[1..], wanted.as_slice(), "actions");
    }

    /// Plain handlers run in their place among their event's other
    /// handlers: a handler after one sees its sets, one before it does not
    /// (each turn scores `a + b` after the first sets and before the
    /// second, then `a` at the turn's end: 3 + 0 and 1 the first turn,
    /// 3 + 1 and 1 every other, 3 + 1 the last, which has no end),
    /// compiled as walked.
    #[test]
    fn plain_handlers_run_in_their_place() {
        let pack = over_base(
            "plain",
            "pack plain \"plain\"\nlanguage 1\nrequires base\n\
             var game a: int = 0\nvar game b: int = 0\n\
             on turn_start { set b = a  set a = 3 }\n\
             on turn_start { score a + b to current_player reason \"flag\" }\n\
             on turn_start { set a = 1 }\n\
             on turn_end { score a to current_player reason \"flag\" }\n",
        );
        let flag = pack.reasons.iter().position(|r| r == "flag").unwrap();
        let rules = Arc::new(Rules::new(pack));
        for seed in 0..3 {
            let (compiled, walked) = (play(&rules, 2, seed, false), play(&rules, 2, seed, true));
            assert_eq!(compiled, walked, "seed {seed}");
            let mut game = Game::new(rules.clone(), Setup::new(2).seed(seed)).unwrap();
            game.set_logging(true);
            let mut rng = Rng::new(seed ^ 0x5eed);
            while game.decision().is_some() {
                let options = game.options();
                game.apply(options[rng.below(options.len())]).unwrap();
            }
            let points: i64 = game
                .log()
                .iter()
                .filter_map(|e| match e {
                    crate::engine::Event::Scored { points, reason, .. } if usize::from(*reason) == flag => {
                        Some(*points)
                    }
                    _ => None,
                })
                .sum();
            let turns = game.turn() as i64;
            // The last turn starts, finds no tile to draw and ends the game
            // without a turn's end.
            assert_eq!(points, 5 * turns - 2, "seed {seed}: {turns} turns");
        }
    }

    /// Compiled expressions answer what walked ones answer: every bundled
    /// pack with base, and as many as load together, play the same games (the
    /// same events, in the same order, and the same scores) either way,
    /// from the set-up on.
    #[test]
    fn compiled_expressions_play_the_games_walked_ones_play() {
        let packs = load_bundled;
        for set in test_sets(|names| packs(names).is_ok()) {
            let rules = Arc::new(Rules::new(packs(&set).unwrap()));
            for seed in 0..6 {
                let players = 2 + seed as usize % 3;
                let compiled = play(&rules, players, seed, false);
                let walked = play(&rules, players, seed, true);
                assert!(compiled.1.len() > 100, "packs {set:?}: a whole game has many events");
                assert_eq!(compiled, walked, "packs {set:?}, seed {seed}");
            }
        }
    }
}
