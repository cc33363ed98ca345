//! Evaluating rule expressions: an [`Evaluator`] reads the game state
//! (never the turn machine) through `&State`, with the rules and the
//! evaluation budget, so evaluation cannot change the game. Variables,
//! function calls, checked arithmetic, `count`, completion checks, score
//! formulas and the values a domain ranges over; the built-in queries are in
//! `queries.rs`.

use super::board::PlacedTile;
use super::features::FeatureId;
use super::rules::{kind_bit, Rules};
use super::shapes::{existence_test, itself_test, member_test, near_test, occupied_test, NEAR_MAX};
use super::state::State;
use super::value::{EvalError, Value, EVAL_BUDGET};
use crate::ir::expr::{Builtin, Expr};
use crate::ir::program::{Domain, FnBody};
use crate::ir::{BinOp, FigureTypeId, KindId, UnOp};
use std::cell::Cell;

/// Deepest nesting of function calls and completion checks while evaluating.
pub(super) const MAX_EVAL_DEPTH: u32 = 64;

/// Evaluation work done, counted against the budgets (cells, so that
/// evaluation, which only reads the game, can count).
#[derive(Default)]
pub(super) struct Budget {
    /// Evaluation work since the last decision (see `EVAL_BUDGET`).
    work: Cell<u64>,
    /// Evaluation work in the whole game (see `Compiled::game_eval_budget`).
    game_work: Cell<u64>,
    /// How many looks are running inside one another (see [`Budget::look`]).
    looking: Cell<u32>,
    /// Local frames of finished function calls and looks at actions'
    /// targets, kept for the next ones so that they allocate nothing (never
    /// cloned; their slots as they were: see [`Budget::frame`]).
    spare: std::cell::RefCell<Vec<Vec<Value>>>,
}

impl Clone for Budget {
    fn clone(&self) -> Budget {
        Budget {
            work: self.work.clone(),
            game_work: self.game_work.clone(),
            looking: self.looking.clone(),
            spare: Default::default(),
        }
    }
}

impl std::fmt::Debug for Budget {
    /// The counts; the spare frames are emptied lists, whichever game kept them.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Budget")
            .field("work", &self.work)
            .field("game_work", &self.game_work)
            .field("looking", &self.looking)
            .finish_non_exhaustive()
    }
}

impl Budget {
    /// The counts of `source`, this budget's spare frames kept.
    pub(super) fn copy_from(&mut self, source: &Budget) {
        // Every field named: one added later must be copied here too.
        let Budget {
            work,
            game_work,
            looking,
            spare: _,
        } = self;
        work.set(source.work.get());
        game_work.set(source.game_work.get());
        looking.set(source.looking.get());
    }

    /// Locals for a frame of `n` slots, all `none`, made while the game is
    /// only read (a function's call, a look at an action's targets): a
    /// spare frame when there is one, else one as `compiled` makes them.
    /// A spare frame keeps its length: the slots above the `n` asked for
    /// are those of calls inlined in it (`inline_call`), which each call
    /// writes before its body reads them (its parameters at the call, a
    /// count's variable for each member), so they are left as they are,
    /// not emptied after each use and grown again at the next.
    pub(super) fn frame(&self, compiled: &Compiled, n: usize) -> Vec<Value> {
        let mut spare = self.spare.borrow_mut().pop().unwrap_or_default();
        if spare.len() < n {
            spare.clear();
            return compiled.frame_in(spare, n);
        }
        for slot in &mut spare[..n] {
            *slot = Value::None;
        }
        spare
    }

    /// Keeps a frame made by [`Budget::frame`] for the next one (its slots
    /// as they are: see there).
    pub(super) fn keep(&self, locals: Vec<Value>) {
        self.spare.borrow_mut().push(locals);
    }

    /// Evaluation work charged to the game so far.
    #[cfg(test)]
    pub(super) fn game_work(&self) -> u64 {
        self.game_work.get()
    }

    /// Gives the next evaluations the whole budget of a decision again.
    pub(super) fn reset(&self) {
        self.work.set(0);
    }

    /// Runs a look at the game that decides nothing by itself (the
    /// options, an action's targets, a forbid rule's judgement) with the
    /// whole budget of a decision, and charges none of its work to the game:
    /// how often a program asks for the options must never change them.
    /// Looks inside a look share its budget, so listing the options costs at
    /// most one decision's budget however many candidates are judged.
    pub(super) fn look<T>(&self, f: impl FnOnce() -> T) -> T {
        let depth = self.looking.get();
        let saved = (self.work.get(), self.game_work.get());
        if depth == 0 {
            self.work.set(0);
        }
        self.looking.set(depth + 1);
        let out = f();
        self.looking.set(depth);
        if depth == 0 {
            self.work.set(saved.0);
            self.game_work.set(saved.1);
        }
        out
    }
}

/// The least room of a kept list of values ([`Compiled::list_room`]): the
/// short lists most loops go over (the players, a tile's features).
pub(super) const LIST_ROOM: usize = 16;

/// Local variables of the rule being evaluated, and the subject feature of a feature kind's clause.
pub struct Env<'a> {
    pub locals: &'a mut Vec<Value>,
    pub subject: Option<FeatureId>,
    pub depth: u32,
}

/// What evaluation reads: the game state, the rules, and the budget it
/// charges.
#[derive(Clone, Copy)]
pub(super) struct Evaluator<'a> {
    /// The game state read.
    pub state: &'a State,
    /// The rules played.
    pub rules: &'a Rules,
    /// The budgets charged.
    pub budget: &'a Budget,
    /// The candidate of a `forbid placement` rule: a tile not on the board,
    /// named by the tile value [`CANDIDATE`].
    pub candidate: Option<PlacedTile>,
    /// Where counts over the whole board are remembered, when the caller
    /// evaluates several expressions against one unchanging state.
    pub memo: Option<&'a Memo>,
    /// The rules' expressions compiled into closures (see `compile.rs`).
    pub compiled: &'a Compiled,
}

/// An expression compiled into a closure: what [`Evaluator::eval`] would
/// answer for it, with the same charges, failures and order of evaluation.
pub(super) type Node = Box<dyn Fn(&Evaluator, &mut Env) -> Result<Value, EvalError> + Send + Sync>;

/// A statement's compiled values, each with its expression's address
/// ([`Compiled::value`]).
pub(super) type StatementValues = Box<[(usize, Node)]>;

/// A condition compiled into a closure: whether [`Evaluator::eval`] would
/// answer `true`.
pub(super) type Test = Box<dyn Fn(&Evaluator, &mut Env) -> Result<bool, EvalError> + Send + Sync>;

/// A feature filter compiled into a closure judging a feature by its root,
/// with no value bound to the member's slot (see [`CompiledFilter::feature`]).
pub(super) type FeatureTest = Box<dyn Fn(&Evaluator, &mut Env, FeatureId) -> Result<bool, EvalError> + Send + Sync>;

/// A count compiled into a closure, given the limit at which it stops (see
/// [`Evaluator::count`]).
pub(super) type Counter = Box<dyn Fn(&Evaluator, &mut Env, i64) -> Result<i64, EvalError> + Send + Sync>;

/// The expressions of a rule pack that evaluation starts from, compiled
/// once per pack by `compile.rs` and shared by its games: value functions'
/// bodies, handlers' guards, feature kinds' clauses, actions' conditions and
/// statements' conditions and filters, and who makes each `choose`'s
/// choice. Statements' other expressions are
/// walked by [`Evaluator::eval`], and call the compiled functions.
#[derive(Default)]
pub(super) struct Compiled {
    /// The evaluation work a whole game may do: `GAME_EVAL_BUDGET_PER_TILE`
    /// for every tile of the set (`Rules::tile_count`), and never less than
    /// one decision's budget ([`EVAL_BUDGET`]); worked out once, as every
    /// charge of evaluation work compares against it. (`Compiled::default()`
    /// has 0, so that every charge would fail: only a test's game that walks
    /// every expression starts from it, and keeps its compiled budget.)
    pub game_eval_budget: u64,
    /// By function; `None` for a function with statements.
    pub functions: Vec<Option<Node>>,
    /// By function whose body is a condition (a comparison, `and`, `or`,
    /// `not`): the body compiled as one, for calls asked only whether true.
    pub function_tests: Vec<Option<Test>>,
    /// By handler: its `when`.
    pub guards: Vec<Option<Test>>,
    /// By handler: its guards left for the types of a tile
    /// (`Rules::residuals`), each compiled, in their order there.
    pub residual_guards: Vec<Box<[Test]>>,
    /// By handler: whether its `when` may read or fill a [`Memo`] (see
    /// `compile::may_remember`); a guard that cannot is judged without one.
    pub guard_memo: Vec<bool>,
    /// By handler: whether its `when` reads and writes no local slot (see
    /// `compile::frame_free`); such a guard is judged with no frame.
    pub guard_frame_free: Vec<bool>,
    /// By handler whose body only sets game variables to constants or to
    /// other game variables (a turn's flags reset, say): those sets, in
    /// order, which run where the handler starts, with no frame of locals
    /// and no statement task ([`compile::plain_sets`]).
    ///
    /// [`compile::plain_sets`]: super::compile::plain_sets
    pub plain: Vec<Option<Box<[PlainSet]>>>,
    /// By event (`EventKind::index`): whether it has handlers and every one
    /// has no guard and only sets game variables (`plain`), so that fired
    /// as the next task it runs them at once (`Game::fire_next`).
    pub plain_events: Vec<bool>,
    /// By event whose handlers are plain (`plain_events`): their sets as
    /// one list, in the order its task would run them. (`plain_events` is
    /// this list's `is_some`, kept apart because the task loop asks it on
    /// every turn: reading this list there instead cost base 2p 0.8%.)
    pub plain_event_sets: Vec<Option<PlainEvent>>,
    /// By feature kind: `complete when`, the completed and final scores.
    pub complete: Vec<Option<Test>>,
    /// By feature kind: whether it is complete when it has no open edge
    /// (`complete when open_edges == 0`), answered from the feature's count
    /// of open edges with no node run.
    pub complete_when_closed: Vec<bool>,
    pub score_completed: Vec<Option<Node>>,
    pub score_final: Vec<Option<Node>>,
    /// By feature kind, for the completed and the final score: whether the
    /// formula uses local slots (a count's member, a `let`, an inlined
    /// call), so it runs in a frame from the spare ones, made with room,
    /// rather than in a list that grows (and allocates) as it runs.
    pub score_frames: Vec<[bool; 2]>,
    /// By action: its `when`, and the filter of its targets.
    pub action_when: Vec<Option<Test>>,
    pub action_filter: Vec<Option<CompiledFilter>>,
    /// By action: whether it has targets and its `when` or its targets'
    /// filter may read or fill a [`Memo`] (see `compile::may_remember`); a
    /// look at an action whose conditions cannot is made without one, and
    /// so is a look at an action without targets, whose `when` is judged
    /// once a look: a memo is exact, and there would spare only a count
    /// nested in another's filter that reads none of its members.
    pub action_memo: Vec<bool>,
    /// By action: whether it has no targets and its `when` reads and writes
    /// no local slot (see `compile::frame_free`); a look at it is made with
    /// no frame.
    pub action_frame_free: Vec<bool>,
    /// By action: the figure type of its targets when they are figures of
    /// one type that its filter requires the current player to own
    /// (`for pawn x where x.owner == current_player ...`, see
    /// `compile::owned_targets`): while all the player's figures of the
    /// type are in their supply, none is on the board and the look offers
    /// nothing, so it is not made.
    pub action_owned_type: Vec<Option<crate::ir::FigureTypeId>>,
    /// By block and statement: the condition of an `if`, the filter of a
    /// `for` or a `choose` (members bound to its slot).
    pub statements: Vec<Vec<Option<CompiledFilter>>>,
    /// By block and statement: the player who makes a `choose`'s choice,
    /// compiled, and whether its filter may read or fill a [`Memo`] (see
    /// `compile::may_remember`); the options of one whose filter cannot are
    /// judged without one.
    pub chooses: Vec<Vec<Option<CompiledChoose>>>,
    /// By block and statement: the values the statement evaluates (a
    /// `score`'s amount, a `set`'s value, a call's arguments ...),
    /// compiled, each with the address of its expression; a local or a
    /// constant is read as walked.
    pub values: Vec<Vec<StatementValues>>,
    /// The bodies of inlined calls, their slots moved up, which the
    /// closures compiled from them name their counts by.
    #[allow(clippy::vec_box, reason = "each body keeps the address its counts are named by")]
    pub inlined: Vec<Box<Expr>>,
    /// Local slots a frame has room for, inlined calls' frames included.
    pub frame_slots: usize,
}

/// One `set` of a handler that only sets game variables (`Compiled::plain`):
/// the variable, and where its new value comes from.
#[derive(Debug, Clone)]
pub(super) struct PlainSet {
    pub var: usize,
    pub value: PlainValue,
    /// Where the `set` is written: the last rule run, for a runaway's message.
    pub span: crate::source::Span,
}

/// The handlers of an event that only set game variables, as one list
/// ([`Compiled::plain_event_sets`]).
#[derive(Debug, Clone)]
pub(super) struct PlainEvent {
    /// Every handler's sets, the handlers in the order their task would
    /// run them.
    pub sets: Box<[PlainSet]>,
    /// The last rule run once they have run (the last set's, or the last
    /// handler's when it sets nothing), for a runaway's message.
    pub last: crate::source::Span,
}

/// The value a [`PlainSet`] gives its variable.
#[derive(Debug, Clone)]
pub(super) enum PlainValue {
    /// A constant (neither a list nor a feature).
    Constant(Value),
    /// The value another game variable holds when the set runs.
    GameVar(usize),
}

impl Compiled {
    /// A frame of `n` local slots (none set), with room for the frames of
    /// the calls inlined in the code it runs ([`Compiled::list_room`]).
    pub(super) fn frame(&self, n: usize) -> Vec<Value> {
        self.frame_in(Vec::new(), n)
    }

    /// [`Compiled::frame`] made in `spare`, an emptied list: no allocation
    /// when it has the room.
    pub(super) fn frame_in(&self, spare: Vec<Value>, n: usize) -> Vec<Value> {
        debug_assert!(spare.is_empty(), "a spare frame is emptied before reuse");
        self.frame_after(spare, n)
    }

    /// A frame of `n` local slots whose first ones hold `values` (at most
    /// `n` of them) and the rest none, with the room of [`Compiled::frame`].
    pub(super) fn frame_after(&self, mut values: Vec<Value>, n: usize) -> Vec<Value> {
        debug_assert!(values.len() <= n, "the values given fit the frame");
        values.reserve_exact(n.max(self.list_room()).saturating_sub(values.len()));
        values.resize_with(n, || Value::None);
        values
    }

    /// The room of the lists of values the game keeps for reuse that frames
    /// and a loop's members are made in: the deepest frame's, and at least
    /// [`LIST_ROOM`], so that a list kept from one of these uses has the
    /// room of the other and is not grown again. (An event's arguments and
    /// the guards' locals are listed in kept lists as they are, and grow
    /// once when they come back for a longer use.)
    pub(super) fn list_room(&self) -> usize {
        self.frame_slots.max(LIST_ROOM)
    }

    /// The compiled condition or filter of the statement at `at`.
    pub(super) fn statement(&self, at: (crate::ir::BlockId, u32)) -> Option<&CompiledFilter> {
        self.statements.get(at.0 as usize)?.get(at.1 as usize)?.as_ref()
    }

    /// The compiled value `expr` of the statement at `at`, if compiled.
    pub(super) fn value(&self, at: (crate::ir::BlockId, u32), expr: &Expr) -> Option<&Node> {
        let at_expr = expr as *const Expr as usize;
        let values = self.values.get(at.0 as usize)?.get(at.1 as usize)?;
        values.iter().find(|(e, _)| *e == at_expr).map(|(_, node)| node)
    }

    /// The compiled parts of the `choose` at `at`.
    pub(super) fn choose(&self, at: (crate::ir::BlockId, u32)) -> Option<&CompiledChoose> {
        self.chooses.get(at.0 as usize)?.get(at.1 as usize)?.as_ref()
    }
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Compiled {{ {} functions, {} guards }}",
            self.functions.len(),
            self.guards.len()
        )
    }
}

/// A filter compiled: the condition, and the values a member's kind and
/// owner must have to pass (see [`member_test`]), compiled too.
pub(super) struct CompiledFilter {
    pub test: Test,
    pub kind: Option<Node>,
    pub owner: Option<Node>,
    /// The value of [`itself_test`], compiled.
    pub itself: Option<Node>,
    /// The tile and distance of [`near_test`], the tile compiled.
    pub near: Option<(Node, i64)>,
    /// Whether the filter is false for every feature with no figure on it
    /// ([`occupied_test`]).
    pub occupied: bool,
    /// The filter less its first conjunct, when that conjunct is the member
    /// test behind `kind`, `owner` or `itself` itself (not one found in a
    /// called function): what is left to judge of a member a scan found by
    /// that test ([`Filter::holds_found`]).
    pub rest: Option<Test>,
    /// The whole filter judged of a feature found by a scan, by its root,
    /// with nothing written to the member's slot: when every conjunct
    /// either reads the member as the graph answers it (`x.completed`,
    /// `x.scored`, `x != E`, `x.controlled_by(current_player)`) or does
    /// not read it at all. The same answers, charges and failures as
    /// [`Filter::holds`] with the feature bound (see
    /// `Compiler::feature_test`).
    pub feature: Option<FeatureTest>,
}

/// A `choose` statement's parts compiled (see [`Compiled::chooses`]).
pub(super) struct CompiledChoose {
    /// Who chooses.
    pub by: Node,
    /// Whether the filter may read or fill a [`Memo`].
    pub memo: bool,
}

impl Filter for CompiledFilter {
    fn holds(&self, ev: &Evaluator, env: &mut Env) -> Result<bool, EvalError> {
        (self.test)(ev, env)
    }

    fn holds_found(&self, ev: &Evaluator, env: &mut Env, domain: Domain) -> Result<bool, EvalError> {
        let found_by_test = match domain {
            Domain::Features(_) => self.kind.is_some(),
            Domain::Figures(_) => self.owner.is_some(),
            Domain::Players => self.itself.is_some(),
            _ => false,
        };
        match &self.rest {
            Some(rest) if found_by_test => rest(ev, env),
            _ => (self.test)(ev, env),
        }
    }

    fn wanted(&self, ev: &Evaluator, env: &mut Env, _slot: u16, test: Builtin) -> Result<Option<Value>, EvalError> {
        let node = match test {
            Builtin::Kind => &self.kind,
            Builtin::Owner => &self.owner,
            _ => return Ok(None),
        };
        node.as_ref().map(|n| n(ev, env)).transpose()
    }

    fn itself(&self, ev: &Evaluator, env: &mut Env, _slot: u16) -> Result<Option<Value>, EvalError> {
        self.itself.as_ref().map(|n| n(ev, env)).transpose()
    }

    fn near(&self, ev: &Evaluator, env: &mut Env, _slot: u16) -> Result<Option<(Value, i64)>, EvalError> {
        self.near.as_ref().map(|(n, d)| Ok((n(ev, env)?, *d))).transpose()
    }

    fn occupied(&self, _ev: &Evaluator, _slot: u16) -> bool {
        self.occupied
    }

    fn feature_test(&self) -> Option<&FeatureTest> {
        self.feature.as_ref()
    }
}

/// Most counts one [`Memo`] remembers.
const MEMO_ENTRIES: usize = 64;

/// Counts over a whole board domain (`count(feature y where ...)`), each
/// remembered by its expression and the values of the local variables it
/// reads. Made by a caller that evaluates many expressions against one state
/// (every target of an action, every handler guard of one event, every
/// option of a `choose`), so that a count that does not depend on the member
/// being judged is counted once, not once per member. It must not outlive the
/// state it was filled from: the evaluator borrows both for the same time.
/// Its first entries are kept in place, so that most memos allocate nothing
/// (one is made for every event fired that has guards to judge, every
/// `choose` and every look at an action's targets). It also keeps the
/// features of the last tile whose features were listed (`t.features`),
/// which every guard of a `tile_placed` event may ask for.
#[derive(Default)]
pub(super) struct Memo {
    entries: std::cell::RefCell<smallvec::SmallVec<[(usize, Key, i64); MEMO_IN_PLACE]>>,
    /// Counts that ran once while the memo lasts and were not kept
    /// ([`Memo::pass`]), each holding the place its entry would have taken
    /// among the [`MEMO_ENTRIES`].
    passed: std::cell::Cell<usize>,
    tile_roots: TileRoots,
}

/// The features of a placed tile (by their roots, in segment order), as
/// [`Memo`] keeps them: at most [`MEMO_ROOTS`] of them. Each in a cell of
/// its own, so a look reads only the tile it asks for and the roots it
/// copies.
#[derive(Default)]
struct TileRoots {
    /// The tile's id plus one; 0 while none is kept.
    tile: std::cell::Cell<u32>,
    len: std::cell::Cell<u8>,
    roots: [std::cell::Cell<u32>; MEMO_ROOTS],
}

/// Most features of one tile a [`Memo`] keeps.
const MEMO_ROOTS: usize = 16;

/// The entries a [`Memo`] keeps in place before it allocates.
const MEMO_IN_PLACE: usize = 2;

/// The values of the local variables a remembered count reads: up to two
/// kept in place, more listed.
enum Key {
    Few(u8, [Value; 2]),
    Many(Vec<Value>),
}

impl Key {
    fn values(&self) -> &[Value] {
        match self {
            Key::Few(n, values) => &values[..usize::from(*n)],
            Key::Many(values) => values,
        }
    }
}

impl Memo {
    /// The count remembered for the count expression at address `expr`
    /// (compiled or walked, a count is named by its node in the pack) with
    /// the values the local `slots` have in `locals` (read in place).
    pub(super) fn get(&self, expr: usize, slots: &[u16], locals: &[Value]) -> Option<i64> {
        let value = |s: &u16| locals.get(usize::from(*s)).unwrap_or(&Value::None);
        self.entries
            .borrow()
            .iter()
            .find(|(e, k, _)| *e == expr && k.values().iter().eq(slots.iter().map(value)))
            .map(|(_, _, n)| *n)
    }

    /// The features of placed tile `tile` remembered, copied into `out`:
    /// how many.
    pub(super) fn tile_roots(&self, tile: u16, out: &mut [u32]) -> Option<usize> {
        let n = self.tile_root_count(tile)?;
        for (o, root) in out.get_mut(..n)?.iter_mut().zip(&self.tile_roots.roots) {
            *o = root.get();
        }
        Some(n)
    }

    /// How many features placed tile `tile` has, when they are remembered.
    pub(super) fn tile_root_count(&self, tile: u16) -> Option<usize> {
        let kept = &self.tile_roots;
        (kept.tile.get() == u32::from(tile) + 1).then(|| usize::from(kept.len.get()))
    }

    /// Remembers the features of placed tile `tile` (not when there are
    /// more than [`MEMO_ROOTS`]).
    pub(super) fn keep_tile_roots(&self, tile: u16, roots: &[u32]) {
        if roots.len() <= MEMO_ROOTS {
            let kept = &self.tile_roots;
            kept.tile.set(u32::from(tile) + 1);
            kept.len.set(roots.len() as u8);
            for (cell, root) in kept.roots.iter().zip(roots) {
                cell.set(*root);
            }
        }
    }

    /// Remembers count `n` of `expr` with the values of `slots` in `locals`.
    pub(super) fn put(&self, expr: usize, slots: &[u16], locals: &[Value], n: i64) {
        let mut entries = self.entries.borrow_mut();
        if entries.len() + self.passed.get() < MEMO_ENTRIES {
            let value = |s: &u16| locals.get(usize::from(*s)).cloned().unwrap_or(Value::None);
            let key = match slots {
                [] => Key::Few(0, [Value::None, Value::None]),
                [a] => Key::Few(1, [value(a), Value::None]),
                [a, b] => Key::Few(2, [value(a), value(b)]),
                _ => Key::Many(slots.iter().map(value).collect()),
            };
            entries.push((expr, key, n));
        }
    }

    /// A count that runs once while the memo lasts was counted: it is not
    /// kept, but takes the place its entry would have filled, so the counts
    /// after it are kept (or not, once the memo is full) as they would be
    /// had it been kept, and walked and compiled evaluation charge the same.
    pub(super) fn pass(&self) {
        if self.entries.borrow().len() + self.passed.get() < MEMO_ENTRIES {
            self.passed.set(self.passed.get() + 1);
        }
    }
}

/// The tile value of a placement candidate (see [`Evaluator::candidate`]):
/// no tile on the board has this id, since a board holds fewer tiles.
pub(super) const CANDIDATE: u16 = u16::MAX;

impl Evaluator<'_> {
    /// Evaluates an expression.
    pub(super) fn eval(&self, expr: &Expr, env: &mut Env) -> Result<Value, EvalError> {
        Ok(match expr {
            Expr::Subject => env.subject.map_or(Value::None, Value::Feature),
            Expr::Local(slot) => env.locals.get(*slot as usize).cloned().unwrap_or(Value::None),
            Expr::GameVar(v) => self.state.game_var(*v as usize).clone(),
            Expr::MemberVar { var, of } => self.member_var(*var, of, env)?,
            Expr::Query { builtin, of, args } if args.is_empty() => {
                let receiver = match of {
                    Some(e) => self.eval(e, env)?,
                    None => Value::None,
                };
                self.query(*builtin, receiver, &[], env.depth)?
            }
            Expr::Query { builtin, of, args } => self.query_with_args(*builtin, of.as_deref(), args, env)?,
            Expr::Call { func, args } => self.call(*func, args, env)?,
            Expr::Unary(UnOp::Not, e) => Value::Bool(!self.eval(e, env)?.truthy()),
            Expr::Unary(UnOp::Neg, e) => match self.eval(e, env)? {
                Value::Int(n) => Value::Int(n.checked_neg().ok_or(EvalError::Overflow)?),
                other => other,
            },
            Expr::Binary(op, l, r) => self.binary(*op, l, r, env)?,
            Expr::If { cond, then, otherwise } => {
                if self.eval(cond, env)?.truthy() {
                    self.eval(then, env)?
                } else {
                    self.eval(otherwise, env)?
                }
            }
            Expr::Let { slot, value, body } => self.bind(*slot, value, body, env)?,
            Expr::Count { .. } => Value::Int(self.count(expr, env, i64::MAX)?),
            // The constants.
            _ => constant_value(expr).unwrap_or(Value::None),
        })
    }

    /// A player's or feature's variable (`p.score_bonus`, `f.locked`).
    #[inline(never)]
    fn member_var(&self, var: crate::ir::VarId, of: &Expr, env: &mut Env) -> Result<Value, EvalError> {
        let of = self.eval(of, env)?;
        Ok(self.member_value(var, of))
    }

    /// The value of variable `var` of a player or feature.
    fn member_value(&self, var: crate::ir::VarId, of: Value) -> Value {
        let raw = self.member_raw(var, &of);
        if self.rules.pack.program.vars[var as usize].ty == crate::ir::expr::Type::Bool {
            Value::Bool(raw != 0)
        } else {
            Value::Int(raw)
        }
    }

    /// Variable `var` of a player or feature as it is kept (a flag as 0 or
    /// 1); 0 of anything else.
    #[inline]
    pub(super) fn member_raw(&self, var: crate::ir::VarId, of: &Value) -> i64 {
        let k = self.rules.var_index[var as usize];
        match *of {
            Value::Player(p) => self.state.player_var(p as usize, k),
            Value::Feature(f) => self.state.features().var(f, k),
            _ => 0,
        }
    }

    /// A built-in query with arguments. Kept out of [`Evaluator::eval`], as
    /// every case that needs room on the stack is, so that the frame of the
    /// evaluation of every node stays small.
    #[inline(never)]
    fn query_with_args(
        &self,
        builtin: Builtin,
        of: Option<&Expr>,
        args: &[Expr],
        env: &mut Env,
    ) -> Result<Value, EvalError> {
        let receiver = match of {
            Some(e) => self.eval(e, env)?,
            None => Value::None,
        };
        // No built-in takes more than three arguments (a longer list would
        // still be answered, from the heap).
        if args.len() <= 3 {
            let mut values = [Value::None, Value::None, Value::None];
            for (v, a) in values.iter_mut().zip(args) {
                *v = self.eval(a, env)?;
            }
            self.query(builtin, receiver, &values[..args.len()], env.depth)
        } else {
            let values = args.iter().map(|a| self.eval(a, env)).collect::<Result<Vec<_>, _>>()?;
            self.query(builtin, receiver, &values, env.depth)
        }
    }

    /// A call of a value function: its arguments in a fresh frame of
    /// locals (taken from the spare frames), then its body.
    #[inline(never)]
    fn call(&self, func: crate::ir::shared::FnId, args: &[Expr], env: &mut Env) -> Result<Value, EvalError> {
        self.call_with(func, args.len(), env, |i, env| self.eval(&args[i], env))
    }

    /// A call of value function `func` whose `n` arguments `arg(i)`
    /// evaluates in the caller's `env`: they fill a fresh frame of locals
    /// (taken from the spare frames), then the body is evaluated, compiled.
    pub(super) fn call_with(
        &self,
        func: crate::ir::shared::FnId,
        n: usize,
        env: &mut Env,
        arg: impl FnMut(usize, &mut Env) -> Result<Value, EvalError>,
    ) -> Result<Value, EvalError> {
        self.in_frame(func, n, env, arg, Value::None, |ev, body, inner| {
            match ev.compiled.functions.get(func as usize) {
                Some(Some(node)) => node(ev, inner),
                _ => ev.eval(body, inner),
            }
        })
    }

    /// [`Evaluator::call_with`] asked only whether the value is true: a
    /// function whose body is a condition runs it compiled as one.
    pub(super) fn call_test(
        &self,
        func: crate::ir::shared::FnId,
        n: usize,
        env: &mut Env,
        arg: impl FnMut(usize, &mut Env) -> Result<Value, EvalError>,
    ) -> Result<bool, EvalError> {
        match self.compiled.function_tests.get(func as usize) {
            Some(Some(test)) => self.in_frame(func, n, env, arg, false, |ev, _, inner| test(ev, inner)),
            _ => Ok(self.call_with(func, n, env, arg)?.truthy()),
        }
    }

    /// Runs `body` on the body of value function `func` in a fresh frame of
    /// locals (taken from the spare frames) that its `n` arguments `arg(i)`
    /// fill, evaluated in the caller's `env`; `none` for a function with
    /// statements.
    fn in_frame<T>(
        &self,
        func: crate::ir::shared::FnId,
        n: usize,
        env: &mut Env,
        mut arg: impl FnMut(usize, &mut Env) -> Result<Value, EvalError>,
        none: T,
        body: impl FnOnce(&Evaluator, &Expr, &mut Env) -> Result<T, EvalError>,
    ) -> Result<T, EvalError> {
        if env.depth >= MAX_EVAL_DEPTH {
            return Err(EvalError::TooDeep);
        }
        self.charge(1)?;
        let f = &self.rules.pack.program.functions[func as usize];
        let FnBody::Expr(expr) = &f.body else {
            return Ok(none);
        };
        // The checker gives a function a slot for each parameter at least.
        debug_assert!(
            n <= f.slots as usize,
            "a call passes no more arguments than its function has slots"
        );
        let mut locals = self.budget.frame(self.compiled, f.slots as usize);
        let mut out = Ok(none);
        for (i, local) in locals.iter_mut().enumerate().take(n) {
            match arg(i, env) {
                Ok(v) => *local = v,
                Err(e) => {
                    out = Err(e);
                    break;
                }
            }
        }
        if out.is_ok() {
            let inner = &mut Env {
                locals: &mut locals,
                subject: None,
                depth: env.depth + 1,
            };
            out = body(self, expr, inner);
        }
        self.budget.keep(locals);
        out
    }

    /// `let slot = value` while `body` is evaluated.
    #[inline(never)]
    fn bind(&self, slot: u16, value: &Expr, body: &Expr, env: &mut Env) -> Result<Value, EvalError> {
        let v = self.eval(value, env)?;
        let slot = slot as usize;
        if env.locals.len() <= slot {
            env.locals.resize_with(slot + 1, || Value::None);
        }
        env.locals[slot] = v;
        self.eval(body, env)
    }

    /// The value of a count expression, or `limit` when it reaches it: the
    /// members past that are not judged (`count(...) > 0` stops at the
    /// first member that passes).
    fn count(&self, expr: &Expr, env: &mut Env, limit: i64) -> Result<i64, EvalError> {
        let Expr::Count {
            slot,
            domain,
            list,
            filter,
            memo,
            listed,
        } = expr
        else {
            return Ok(0);
        };
        match (domain, list) {
            (Some(domain), None) => {
                // The node is always counted with the same limit (its parent
                // expression decides it), so what is remembered is that count.
                let filter = filter.as_deref().map(|expr| Walked { expr, slot: *slot });
                let at = expr as *const Expr as usize;
                self.remembered(at, memo.as_deref(), env, |env| {
                    let filter = filter.as_ref().map(|f| f as &dyn Filter);
                    self.count_domain(*domain, *slot, filter, env, limit, *listed)
                })
            }
            (None, Some(l)) => {
                let list = self.eval(l, env)?;
                let filter = filter.as_deref().map(|expr| Walked { expr, slot: *slot });
                self.count_list(&list, *slot, filter.as_ref().map(|f| f as &dyn Filter), env, limit)
            }
            (Some(d), Some(_)) => {
                let items = self.domain_items(*d, list.as_deref(), self.state.current(), env)?;
                self.charge(items.len())?;
                let filter = filter.as_deref().map(|expr| Walked { expr, slot: *slot });
                Ok(self
                    .judge(
                        items.into_iter(),
                        *slot,
                        filter.as_ref().map(|f| f as &dyn Filter),
                        env,
                        limit,
                    )?
                    .0)
            }
            (None, None) => Ok(0),
        }
    }

    /// A count over a whole board domain, `count(env)`, remembered in the
    /// evaluator's [`Memo`] (when it has one and no placement candidate is
    /// judged) by the count's node `at` and the values of the local `slots`
    /// it reads: a count that does not depend on the member being judged is
    /// counted once.
    pub(super) fn remembered(
        &self,
        at: usize,
        slots: Option<&[u16]>,
        env: &mut Env,
        count: impl FnOnce(&mut Env) -> Result<i64, EvalError>,
    ) -> Result<i64, EvalError> {
        self.remembered_or_once(at, slots, false, env, count)
    }

    /// [`Evaluator::remembered`], or when `once` (a count that runs at most
    /// once while the memo lasts: `Compiler::once`) counted without a look
    /// in the memo and kept there only as a place taken ([`Memo::pass`]).
    pub(super) fn remembered_or_once(
        &self,
        at: usize,
        slots: Option<&[u16]>,
        once: bool,
        env: &mut Env,
        count: impl FnOnce(&mut Env) -> Result<i64, EvalError>,
    ) -> Result<i64, EvalError> {
        let (Some(memo), Some(slots), None) = (self.memo, slots, self.candidate) else {
            return count(env);
        };
        if once {
            let n = count(env)?;
            memo.pass();
            return Ok(n);
        }
        if let Some(n) = memo.get(at, slots, env.locals) {
            return Ok(n);
        }
        let n = count(env)?;
        memo.put(at, slots, env.locals, n);
        Ok(n)
    }

    /// How many members of a list value pass `filter`, each bound to
    /// `slot` (as [`Value::items`] lists them, without collecting them).
    pub(super) fn count_list(
        &self,
        list: &Value,
        slot: u16,
        filter: Option<&dyn Filter>,
        env: &mut Env,
        limit: i64,
    ) -> Result<i64, EvalError> {
        match list {
            Value::Features(v) => self.count_features(v.iter().copied(), slot, filter, env, limit),
            Value::Players(v) => self.count_members(v.iter().map(|p| Value::Player(*p)), slot, filter, env, limit),
            Value::Figures(v) => self.count_members(v.iter().map(|f| Value::Figure(*f)), slot, filter, env, limit),
            Value::Directions(v) => {
                self.count_members(v.iter().map(|d| Value::Direction(*d)), slot, filter, env, limit)
            }
            _ => self.count_members(std::iter::empty(), slot, filter, env, limit),
        }
    }

    /// [`Evaluator::count_members`] of a list of features: those with no
    /// figure on them are charged with the list but not judged when the
    /// filter needs a figure ([`occupied_test`]), as a scan of the board's
    /// features passes over them.
    pub(super) fn count_features(
        &self,
        members: impl ExactSizeIterator<Item = FeatureId>,
        slot: u16,
        filter: Option<&dyn Filter>,
        env: &mut Env,
        limit: i64,
    ) -> Result<i64, EvalError> {
        match filter {
            Some(f) if f.occupied(self, slot) => {
                self.charge(members.len())?;
                let features = self.state.features();
                let held = members.filter(|m| features.figure_count(*m) > 0);
                Ok(self.judge(held.map(Value::Feature), slot, filter, env, limit)?.0)
            }
            _ => self.count_members(members.map(Value::Feature), slot, filter, env, limit),
        }
    }

    /// How many of a list's `members` pass `filter`, each bound to `slot`:
    /// the list is charged, then its members are judged.
    pub(super) fn count_members(
        &self,
        members: impl ExactSizeIterator<Item = Value>,
        slot: u16,
        filter: Option<&dyn Filter>,
        env: &mut Env,
        limit: i64,
    ) -> Result<i64, EvalError> {
        let n = members.len();
        self.charge(n)?;
        if filter.is_none() {
            return Ok((n as i64).min(limit));
        }
        Ok(self.judge(members, slot, filter, env, limit)?.0)
    }

    /// Judges members one by one, each bound to `slot`, until `limit` of
    /// them passed `filter` (every member passes without one): how many
    /// passed, and how many were judged.
    pub(super) fn judge(
        &self,
        members: impl Iterator<Item = Value>,
        slot: u16,
        filter: Option<&dyn Filter>,
        env: &mut Env,
        limit: i64,
    ) -> Result<(i64, usize), EvalError> {
        self.judge_found(members, slot, filter, None, env, limit)
    }

    /// [`Evaluator::judge`] of the members a scan of the whole `found`
    /// domain found, when given ([`Filter::holds_found`]).
    fn judge_found(
        &self,
        members: impl Iterator<Item = Value>,
        slot: u16,
        filter: Option<&dyn Filter>,
        found: Option<Domain>,
        env: &mut Env,
        limit: i64,
    ) -> Result<(i64, usize), EvalError> {
        let slot = slot as usize;
        if env.locals.len() <= slot {
            env.locals.resize_with(slot + 1, || Value::None);
        }
        let (mut passed, mut judged) = (0, 0);
        let on_feature = filter.and_then(|f| f.feature_test()).filter(|_| found.is_some());
        for member in members {
            if passed >= limit {
                break;
            }
            judged += 1;
            if let (Some(test), Value::Feature(f)) = (on_feature, &member) {
                passed += i64::from(test(self, env, *f)?);
                continue;
            }
            env.locals[slot] = member;
            passed += match (filter, found) {
                (Some(cond), Some(domain)) => i64::from(cond.holds_found(self, env, domain)?),
                (Some(cond), None) => i64::from(cond.holds(self, env)?),
                (None, _) => 1,
            };
        }
        Ok((passed, judged))
    }

    /// How many members of a whole domain pass `filter`, each bound to
    /// `slot`: the members of [`Evaluator::domain_values`], in its order, with
    /// the same charges, visited without collecting them.
    pub(super) fn count_domain(
        &self,
        domain: Domain,
        slot: u16,
        filter: Option<&dyn Filter>,
        env: &mut Env,
        limit: i64,
        listed: bool,
    ) -> Result<i64, EvalError> {
        let features = self.state.features();
        let (n, judged) = match domain {
            Domain::Features(kind) => {
                self.charge(features.len())?;
                match self.feature_scan(kind, slot, filter, env)? {
                    Some(scan) => self.judge_found(scan.map(Value::Feature), slot, filter, Some(domain), env, limit)?,
                    None => return Ok(0),
                }
            }
            Domain::Figures(t) => {
                let figures = self.figure_scan(t, slot, filter, env)?.map(Value::Figure);
                self.judge_found(figures, slot, filter, Some(domain), env, limit)?
            }
            Domain::Tiles => {
                let tiles = self.state.board().placed.len() as u16;
                self.judge((0..tiles).map(Value::Tile), slot, filter, env, limit)?
            }
            _ => {
                let items = self.domain_items(domain, None, self.state.current(), env)?;
                self.charge(items.len())?;
                let (n, _) = self.judge(items.into_iter(), slot, filter, env, limit)?;
                return Ok(n);
            }
        };
        // Charged twice, as a listed domain is (once listed, once counted);
        // `x in features` once, as its list was.
        self.charge(judged.saturating_mul(if listed { 1 } else { 2 }))?;
        Ok(n)
    }

    /// Counts evaluation work against [`EVAL_BUDGET`].
    pub(super) fn charge(&self, units: usize) -> Result<(), EvalError> {
        let spent = self.budget.work.get().saturating_add(units as u64);
        self.budget.work.set(spent);
        let total = self.budget.game_work.get().saturating_add(units as u64);
        self.budget.game_work.set(total);
        if spent > EVAL_BUDGET {
            return Err(EvalError::Runaway);
        }
        if total > self.game_eval_budget() {
            return Err(EvalError::GameRunaway);
        }
        Ok(())
    }

    /// The evaluation work a whole game may do (`Compiled::game_eval_budget`).
    pub(super) fn game_eval_budget(&self) -> u64 {
        self.compiled.game_eval_budget
    }

    fn binary(&self, op: BinOp, l: &Expr, r: &Expr, env: &mut Env) -> Result<Value, EvalError> {
        if matches!(op, BinOp::And | BinOp::Or) {
            let left = self.eval(l, env)?.truthy();
            if left == (op == BinOp::Or) {
                return Ok(Value::Bool(left));
            }
            return Ok(Value::Bool(self.eval(r, env)?.truthy()));
        }
        // `count(...) > 0` and the like need to know only whether one
        // member passes: the count stops at the first.
        if let Some((count, holds_if_some)) = existence_test(op, l, r) {
            let some = self.count(count, env, 1)? > 0;
            return Ok(Value::Bool(some == holds_if_some));
        }
        let a = self.normal(self.eval(l, env)?);
        let b = self.normal(self.eval(r, env)?);
        compare_or_compute(op, a, b)
    }

    /// A value with features named by their root, for comparison.
    pub(super) fn normal(&self, v: Value) -> Value {
        match v {
            Value::Feature(f) => Value::Feature(self.state.features().find(f)),
            other => other,
        }
    }

    /// Whether the feature satisfies its kind's `complete when`.
    pub(super) fn completed(&self, f: FeatureId) -> Result<bool, EvalError> {
        self.completed_at(f, 0)
    }

    /// [`Evaluator::completed`] inside an evaluation `depth` deep. A kind
    /// complete when closed is answered here, where it is asked (most
    /// are); any other kind's clause in [`Evaluator::completed_by_clause`].
    #[inline]
    pub(super) fn completed_at(&self, f: FeatureId, depth: u32) -> Result<bool, EvalError> {
        if depth < MAX_EVAL_DEPTH {
            let features = self.state.features();
            if self.compiled.complete_when_closed.get(features.kind(f) as usize) == Some(&true) {
                return Ok(features.open(features.find(f)) == 0);
            }
        }
        self.completed_by_clause(f, depth)
    }

    /// [`Evaluator::completed_at`] for a kind not complete when closed (or
    /// too deep): its `complete when` judged, the feature its subject.
    #[inline(never)]
    fn completed_by_clause(&self, f: FeatureId, depth: u32) -> Result<bool, EvalError> {
        if depth >= MAX_EVAL_DEPTH {
            return Err(EvalError::TooDeep);
        }
        let kind = self.state.features().kind(f) as usize;
        let env = &mut Env {
            locals: &mut Vec::new(),
            subject: Some(f),
            depth: depth + 1,
        };
        match (self.compiled.complete.get(kind), &self.rules.pack.kinds[kind].complete) {
            (Some(Some(test)), _) => test(self, env),
            (_, Some(rule)) => Ok(self.eval(rule, env)?.truthy()),
            (_, None) => Ok(false),
        }
    }

    /// Evaluates a feature kind's score formula `expr` for a feature: its
    /// `score completed` when `completed`, else its `score final`.
    pub(super) fn formula(&self, expr: &Expr, f: FeatureId, completed: bool) -> Result<i64, EvalError> {
        let kind = self.state.features().kind(f) as usize;
        let compiled = if completed {
            &self.compiled.score_completed
        } else {
            &self.compiled.score_final
        };
        let framed = self
            .compiled
            .score_frames
            .get(kind)
            .is_some_and(|f| f[usize::from(!completed)]);
        let mut locals = if framed {
            self.budget.frame(self.compiled, 0)
        } else {
            Vec::new()
        };
        let env = &mut Env {
            locals: &mut locals,
            subject: Some(f),
            depth: 0,
        };
        let clause = &self.rules.pack.kinds[kind];
        debug_assert!(
            [&clause.score_completed, &clause.score_final][usize::from(!completed)]
                .as_ref()
                .is_some_and(|e| std::ptr::eq(e, expr)),
            "the formula given is the kind's clause named by `completed`"
        );
        let value = match compiled.get(kind) {
            Some(Some(node)) => node(self, env),
            _ => self.eval(expr, env),
        };
        if framed {
            self.budget.keep(locals);
        }
        match value? {
            Value::Int(n) => Ok(n),
            _ => Ok(0),
        }
    }

    /// The values a domain (or a list in it) ranges over, in a stable order;
    /// `player`'s hand for cards. They are charged to the evaluation budget.
    pub(super) fn domain_items(
        &self,
        domain: Domain,
        list: Option<&Expr>,
        player: usize,
        env: &mut Env,
    ) -> Result<Vec<Value>, EvalError> {
        let mut items = Vec::new();
        self.domain_items_into(domain, list, player, env, &mut items)?;
        Ok(items)
    }

    /// [`Evaluator::domain_items`] added to `items` (a spare list, so that
    /// a rule's loop over the players or a feature's owners allocates
    /// nothing), charged for those added alone.
    pub(super) fn domain_items_into(
        &self,
        domain: Domain,
        list: Option<&Expr>,
        player: usize,
        env: &mut Env,
        items: &mut Vec<Value>,
    ) -> Result<(), EvalError> {
        let before = items.len();
        match list {
            Some(l) => self.list_into(domain, l, env, items)?,
            None => self.domain_values_into(domain, player, items)?,
        }
        self.charge(items.len() - before)
    }

    /// The members of a list value, narrowed to the domain's kind or figure
    /// type (uncharged).
    pub(super) fn narrowed(&self, domain: Domain, list: &Value) -> Vec<Value> {
        let mut items = Vec::new();
        self.narrow_into(domain, list, &mut items);
        items
    }

    /// [`Evaluator::narrowed`] added to `items`.
    pub(super) fn narrow_into(&self, domain: Domain, list: &Value, items: &mut Vec<Value>) {
        let ours = |v: &Value| self.in_domain(domain, v);
        match list {
            Value::Features(v) => items.extend(v.iter().map(|f| Value::Feature(*f)).filter(ours)),
            Value::Players(v) => items.extend(v.iter().map(|p| Value::Player(*p)).filter(ours)),
            Value::Figures(v) => items.extend(v.iter().map(|f| Value::Figure(*f)).filter(ours)),
            Value::Directions(v) => items.extend(v.iter().map(|d| Value::Direction(*d)).filter(ours)),
            _ => {}
        }
    }

    /// Whether a list's member is of the domain's kind or figure type, when
    /// it names one ([`Evaluator::narrowed`]).
    pub(super) fn in_domain(&self, domain: Domain, v: &Value) -> bool {
        match domain {
            Domain::Features(Some(k)) => matches!(v, Value::Feature(f) if self.state.features().kind(*f) == k),
            Domain::Figures(Some(t)) => matches!(v, Value::Figure(id) if self.figure_type_of(*id) == Some(t)),
            _ => true,
        }
    }

    /// The members of a whole domain that `filter` (each bound to `slot`)
    /// may pass, in the domain's order, each handed to `visit` (with `env`)
    /// as it is found: all of them, less the features of another kind when
    /// the filter starts with `x.kind == K` and the figures of another owner
    /// when it starts with `x.owner == P` (see [`member_test`]), and only
    /// `E`'s player when it starts with `p == E` (see [`itself_test`]). Charged as
    /// [`Evaluator::domain_items`] is, each member as it comes. The board's
    /// features and figures are walked where they lie: a look at them lists
    /// nothing.
    pub(super) fn each_candidate(
        &self,
        domain: Domain,
        slot: u16,
        filter: Option<&dyn Filter>,
        player: usize,
        env: &mut Env,
        mut visit: impl FnMut(&mut Env, Value) -> Result<(), EvalError>,
    ) -> Result<(), EvalError> {
        self.scan_candidates(domain, slot, filter, player, env, |env, item, owed| {
            if owed {
                self.charge(1)?;
            }
            visit(env, item)
        })
    }

    /// The scan behind [`Evaluator::each_candidate`] and a `choose` over a
    /// whole domain (`Game::exec_choose`): each member handed to `visit`
    /// with whether it is still to be charged (a board feature or figure
    /// met; other domains' lists are charged as they are listed), which
    /// the caller charges.
    pub(super) fn scan_candidates(
        &self,
        domain: Domain,
        slot: u16,
        filter: Option<&dyn Filter>,
        player: usize,
        env: &mut Env,
        mut visit: impl FnMut(&mut Env, Value, bool) -> Result<(), EvalError>,
    ) -> Result<(), EvalError> {
        match domain {
            Domain::Features(kind) => {
                self.charge(self.state.features().len())?;
                if let Some(scan) = self.feature_scan(kind, slot, filter, env)? {
                    for f in scan {
                        visit(env, Value::Feature(f), true)?;
                    }
                }
            }
            Domain::Figures(t) => {
                for id in self.figure_scan(t, slot, filter, env)? {
                    visit(env, Value::Figure(id), true)?;
                }
            }
            Domain::Players => {
                // Charged as the list of players is; a filter that starts
                // with `p == E` is judged for `E`'s player alone.
                let players = self.state.players();
                self.charge(players)?;
                let only = filter.map(|f| f.itself(self, env, slot)).transpose()?.flatten();
                for p in 0..players as u8 {
                    if only.as_ref().is_none_or(|v| *v == Value::Player(p)) {
                        visit(env, Value::Player(p), false)?;
                    }
                }
            }
            _ => {
                for item in self.domain_items(domain, None, player, env)? {
                    visit(env, item, false)?;
                }
            }
        }
        Ok(())
    }

    /// The features of the board (of `kind`, when given) that `filter`,
    /// each bound to `slot`, may pass, by root in ascending order: none when
    /// it starts with `x.kind == K` for another kind than `kind`, else those
    /// of kind `K` (see [`member_test`]); and of those, only the features
    /// whose tile lies within `d` squares of `E`'s when its leading conjuncts
    /// include `distance(x.tile, E) <= d` (see [`near_test`]; none when no
    /// tile there has a segment of the kind), and only the features with a
    /// figure on them when the filter asks for one (see [`occupied_test`]).
    // Inlined into its two callers: the scan it returns (a near one holds
    // its tiles in place) is then made where it is used, not moved there.
    #[inline(always)]
    fn feature_scan(
        &self,
        kind: Option<KindId>,
        slot: u16,
        filter: Option<&dyn Filter>,
        env: &mut Env,
    ) -> Result<Option<impl Iterator<Item = FeatureId> + '_>, EvalError> {
        let Some(filter) = filter else {
            return Ok(Some(Scan::All(self.state.features().roots_holding(kind, false))));
        };
        let occupied = filter.occupied(self, slot);
        // Features of another kind than the one wanted are not judged at all.
        let kind = match filter.wanted(self, env, slot, Builtin::Kind)? {
            Some(Value::Kind(k)) if kind.is_none_or(|kind| kind == k) => Some(k),
            Some(_) => return Ok(None),
            None => kind,
        };
        let features = self.state.features();
        let board = self.state.board();
        // A tile `E` that is no tile is 0 squares from every tile: no narrowing.
        let near = match filter.near(self, env, slot)? {
            Some((Value::Tile(CANDIDATE), d)) => self.candidate.map(|c| (c.pos, d)),
            Some((Value::Tile(t), d)) => board.placed.get(t as usize).map(|p| (p.pos, d)),
            _ => None,
        };
        let Some(((x, y), d)) = near else {
            return Ok(Some(Scan::All(features.roots_holding(kind, occupied))));
        };
        let mut scan = NearScan {
            features,
            placed: &board.placed,
            rules: self.rules,
            kind,
            occupied,
            tiles: [0; NEAR_TILES],
            len: 0,
            next: 0,
            nodes: 0..0,
        };
        // Tiles with no segment of the kind wanted hold none of its
        // features (as a near gate finds, `Game::gate_open`).
        let wanted = kind.map_or(u64::MAX, kind_bit);
        board.each_near((x, y), d as i32, |p| {
            if self.rules.tile_kinds[board.placed[p.index()].tile as usize] & wanted != 0 {
                scan.tiles[scan.len] = p.0;
                scan.len += 1;
            }
        });
        // No tile near with a segment of the kind: no member, and no scan
        // to hand on.
        if scan.len == 0 {
            return Ok(None);
        }
        // A tile's nodes follow those of the tiles placed before it: in the
        // order of placement, roots come out in ascending order.
        scan.tiles[..scan.len].sort_unstable();
        Ok(Some(Scan::Near(scan)))
    }

    /// The figures on the board (of type `t`, when given) that `filter`,
    /// each bound to `slot`, may pass, by id in board order: those of owner
    /// `P` when it starts with `x.owner == P` (see [`member_test`]), matched
    /// as the figures keep their owners (no value made for each).
    fn figure_scan(
        &self,
        t: Option<FigureTypeId>,
        slot: u16,
        filter: Option<&dyn Filter>,
        env: &mut Env,
    ) -> Result<impl Iterator<Item = u32> + '_, EvalError> {
        let wanted = filter
            .map(|f| f.wanted(self, env, slot, Builtin::Owner))
            .transpose()?
            .flatten();
        // `x.owner` is a player or `none`: any other value wanted passes no figure.
        let (any, owner, never) = match wanted {
            None => (true, None, false),
            Some(Value::None) => (false, None, false),
            Some(Value::Player(p)) => (false, Some(p), false),
            Some(_) => (false, None, true),
        };
        Ok(self
            .state
            .figures()
            .iter()
            .filter(move |m| !never && t.is_none_or(|t| m.figure_type == t) && (any || m.owner.map(|p| p.0) == owner))
            .map(|m| m.id))
    }

    /// A figure's type, wherever it is: on the board, at a spot, or gone.
    fn figure_type_of(&self, id: u32) -> Option<crate::ir::FigureTypeId> {
        self.state
            .figure_or_gone(id)
            .map(|m| m.figure_type)
            .or_else(|| self.state.spot_figure(id).map(|m| m.figure_type))
    }

    /// The values a whole domain ranges over, added to `items`.
    fn domain_values_into(&self, domain: Domain, player: usize, items: &mut Vec<Value>) -> Result<(), EvalError> {
        match domain {
            Domain::Players => items.extend((0..self.state.players() as u8).map(Value::Player)),
            Domain::Figures(t) => items.extend(
                self.state
                    .figures()
                    .iter()
                    .filter(|m| t.is_none_or(|t| m.figure_type == t))
                    .map(|m| Value::Figure(m.id)),
            ),
            Domain::Tiles => items.extend((0..self.state.board().placed.len() as u16).map(Value::Tile)),
            Domain::Directions => items.extend([0, 2, 4, 6].into_iter().map(Value::Direction)),
            Domain::Squares => {
                let mut squares: Vec<(i32, i32)> = self.state.board().frontier.iter().map(|s| s.pos).collect();
                squares.sort_unstable();
                items.extend(squares.into_iter().map(|(x, y)| Value::Square(x, y)));
            }
            Domain::Cards => {
                let mut kinds: Vec<u16> = self.state.hand(player).to_vec();
                kinds.sort_unstable();
                kinds.dedup();
                items.extend(kinds.into_iter().map(Value::Card));
            }
            // Named options are a decision's, never a rule's, domain.
            Domain::Options => {}
            Domain::Features(kind) => {
                self.charge(self.state.features().len())?;
                items.extend(self.state.features().roots(kind).map(Value::Feature));
            }
        }
        Ok(())
    }
}

/// The condition members of a domain or a list are judged by, each bound
/// to its slot: an expression walked by [`Evaluator::eval`], or one compiled
/// (`compile.rs`).
pub(super) trait Filter {
    /// Whether the member bound in `env` passes.
    fn holds(&self, ev: &Evaluator, env: &mut Env) -> Result<bool, EvalError>;

    /// [`Filter::holds`] for a member that a scan of the whole `domain`
    /// found ([`Evaluator::each_candidate`], [`Evaluator::count_domain`], a
    /// `choose`'s [`Evaluator::scan_candidates`]):
    /// the scan passed over every member that fails the filter's leading
    /// member test ([`member_test`], [`itself_test`]), so the test is not
    /// judged again. The test reads nothing that can fail or be charged
    /// ([`fixed`]), so the answer, the charges and the failures are those
    /// of [`Filter::holds`].
    fn holds_found(&self, ev: &Evaluator, env: &mut Env, _domain: Domain) -> Result<bool, EvalError> {
        self.holds(ev, env)
    }

    /// The value `E` of a filter that starts with `x.B == E` ([`member_test`]),
    /// evaluated now, `x` bound to `slot` and `B` the built-in `test`; `None`
    /// when the filter does not start so.
    fn wanted(&self, ev: &Evaluator, env: &mut Env, slot: u16, test: Builtin) -> Result<Option<Value>, EvalError>;

    /// The value `E` of a filter that starts with `x == E` ([`itself_test`]),
    /// evaluated now, `x` bound to `slot`; `None` when it does not start so.
    fn itself(&self, ev: &Evaluator, env: &mut Env, slot: u16) -> Result<Option<Value>, EvalError>;

    /// The tile `E`, evaluated now, and the distance `d` of a feature
    /// filter whose leading conjuncts include `distance(x.tile, E) <= d`
    /// ([`near_test`]), `x` bound to `slot`; `None` when it has none.
    fn near(&self, ev: &Evaluator, env: &mut Env, slot: u16) -> Result<Option<(Value, i64)>, EvalError>;

    /// Whether the filter, a feature bound to `slot`, is false for every
    /// feature with no figure on it ([`occupied_test`]).
    fn occupied(&self, ev: &Evaluator, slot: u16) -> bool;

    /// The filter as a test of a feature found by a scan, judged with no
    /// value bound to the member's slot ([`CompiledFilter::feature`]);
    /// `None` when it has none: the member is bound and judged.
    fn feature_test(&self) -> Option<&FeatureTest> {
        None
    }
}

/// A filter walked as an expression.
pub(super) struct Walked<'e> {
    pub expr: &'e Expr,
    pub slot: u16,
}

impl Filter for Walked<'_> {
    fn holds(&self, ev: &Evaluator, env: &mut Env) -> Result<bool, EvalError> {
        Ok(ev.eval(self.expr, env)?.truthy())
    }

    fn wanted(&self, ev: &Evaluator, env: &mut Env, slot: u16, test: Builtin) -> Result<Option<Value>, EvalError> {
        debug_assert_eq!(slot, self.slot);
        member_test(&ev.rules.pack.program, self.expr, slot, test)
            .map(|e| ev.eval(e, env))
            .transpose()
    }

    fn itself(&self, ev: &Evaluator, env: &mut Env, slot: u16) -> Result<Option<Value>, EvalError> {
        debug_assert_eq!(slot, self.slot);
        itself_test(&ev.rules.pack.program, self.expr, slot)
            .map(|e| ev.eval(e, env))
            .transpose()
    }

    fn near(&self, ev: &Evaluator, env: &mut Env, slot: u16) -> Result<Option<(Value, i64)>, EvalError> {
        debug_assert_eq!(slot, self.slot);
        near_test(self.expr, slot)
            .map(|(e, d)| Ok((ev.eval(e, env)?, d)))
            .transpose()
    }

    fn occupied(&self, ev: &Evaluator, slot: u16) -> bool {
        debug_assert_eq!(slot, self.slot);
        occupied_test(&ev.rules.pack.program, self.expr, slot)
    }
}

/// Most tiles within [`NEAR_MAX`] squares of one.
const NEAR_TILES: usize = ((2 * NEAR_MAX + 1) * (2 * NEAR_MAX + 1)) as usize;

/// The features (of `kind`, when given) whose root lies on one of a few
/// placed tiles, by root in ascending order (see [`Evaluator::feature_scan`]).
struct NearScan<'a> {
    features: &'a super::features::Features,
    placed: &'a [PlacedTile],
    rules: &'a Rules,
    kind: Option<KindId>,
    /// Only features with a figure on them.
    occupied: bool,
    /// The tiles, by placed index in ascending order.
    tiles: [u16; NEAR_TILES],
    len: usize,
    /// The next tile whose nodes are visited.
    next: usize,
    /// The nodes of the tile being visited not yet visited.
    nodes: std::ops::Range<u32>,
}

impl Iterator for NearScan<'_> {
    type Item = FeatureId;

    fn next(&mut self) -> Option<FeatureId> {
        loop {
            for node in self.nodes.by_ref() {
                if self.features.is_root(node, self.kind, self.occupied) {
                    return Some(node);
                }
            }
            let &placed = self.tiles[..self.len].get(self.next)?;
            self.next += 1;
            let p = &self.placed[placed as usize];
            let segments = self.rules.pack.tiles[p.tile as usize].segments.len() as u32;
            self.nodes = p.first_node..p.first_node + segments;
        }
    }
}

/// The features a scan judges: all of them (of a kind), or those near a
/// tile (see [`Evaluator::feature_scan`]).
enum Scan<A, B> {
    All(A),
    Near(B),
}

impl<A: Iterator<Item = FeatureId>, B: Iterator<Item = FeatureId>> Iterator for Scan<A, B> {
    type Item = FeatureId;

    fn next(&mut self) -> Option<FeatureId> {
        match self {
            Scan::All(all) => all.next(),
            Scan::Near(near) => near.next(),
        }
    }
}

/// The value of a comparison or arithmetic `a op b` of two evaluated
/// operands (features named by their roots): comparisons of any values,
/// checked arithmetic of integers; `false` for anything else.
pub(super) fn compare_or_compute(op: BinOp, a: Value, b: Value) -> Result<Value, EvalError> {
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

/// The value of a constant expression (never a feature).
#[inline]
pub(super) fn constant_value(e: &Expr) -> Option<Value> {
    Some(match e {
        Expr::Int(n) => Value::Int(*n),
        Expr::Bool(b) => Value::Bool(*b),
        Expr::Nothing => Value::None,
        Expr::Kind(k) => Value::Kind(*k),
        Expr::Marker(m) => Value::Marker(*m),
        Expr::Icon(i) => Value::Icon(*i),
        Expr::FigureType(f) => Value::FigureType(*f),
        Expr::Direction(d) => Value::Direction(*d),
        Expr::Card(c) => Value::Card(*c),
        Expr::Deck(d) => Value::Deck(*d),
        Expr::Reason(r) => Value::Reason(*r),
        Expr::Spot(s) => Value::Spot(*s),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::{Memo, MEMO_ROOTS};

    /// A memo gives back the features of the tile it kept them for, and of
    /// no other; a tile with more features than it keeps is not kept.
    #[test]
    fn a_memo_keeps_the_features_of_one_tile() {
        let memo = Memo::default();
        let mut out = [0; 64];
        assert_eq!(memo.tile_roots(3, &mut out), None, "nothing kept yet");
        memo.keep_tile_roots(3, &[7, 9, 12]);
        assert_eq!(memo.tile_roots(3, &mut out), Some(3));
        assert_eq!(out[..3], [7, 9, 12]);
        assert_eq!(memo.tile_roots(4, &mut out), None, "another tile");
        // The last tile kept is the one remembered.
        memo.keep_tile_roots(4, &[1]);
        assert_eq!(memo.tile_roots(3, &mut out), None);
        assert_eq!(memo.tile_roots(4, &mut out), Some(1));
        assert_eq!((memo.tile_root_count(4), memo.tile_root_count(3)), (Some(1), None));
        let many: Vec<u32> = (0..=MEMO_ROOTS as u32).collect();
        memo.keep_tile_roots(5, &many);
        assert_eq!(memo.tile_roots(5, &mut out), None, "too many to keep");
        // Too small a buffer is not filled past its end.
        assert_eq!(memo.tile_roots(4, &mut [0; 0]), None);
    }
}
