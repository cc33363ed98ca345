//! The turn machine: the task loop. Core steps (draw, place, deploy, score)
//! and rule statements are tasks; an event pushes its handlers; a `choose`
//! stops the machine with a decision and the rest of the stack waits for the
//! answer. Every step counts against a budget, and handlers nest only so
//! deep, so a runaway rule ends the game with an error naming its place.
//!
//! [`Game::run`] pops tasks and hands each to one small function for its
//! group: turn steps here, statements in `statements.rs`, scoring in
//! `scoring.rs`, cards in `cards.rs`.

use super::board::{PlacedTile, Pos};
use super::error::{ErrorKind, GameError};
use super::eval::{Env, Evaluator, Memo, PlainSet, PlainValue};
use super::game::Game;
use super::gate::{Gate, GateTile};
use super::ids::{PlacedId, Player};
use super::rules::{kind_bit, Rules};
use super::task::{
    Code, EventArgs, Frame, Pending, Phase, Step, Task, MAX_DEPTH, MAX_LOG_EVENTS, STEP_BUDGET, TURN_STEP_BUDGET,
    UNJUDGED,
};
use super::types::{Event, Target};
use super::value::{target_value, EvalError, Value};
use crate::ir::expr::Expr;
use crate::ir::program::EventKind;
use crate::ir::{ActionId, BlockId};
use crate::ir::{KindId, TileId};
use crate::source::Span;
use std::sync::Arc;

impl Game {
    /// Sets the game variables and runs `setup` and the first turn's start.
    pub(super) fn begin(&mut self) -> Result<(), GameError> {
        let rules = &*self.rules;
        for (i, var) in rules.pack.program.vars.iter().enumerate() {
            if let Some(init) = &var.init {
                let v = self.evaluator().eval(
                    init,
                    &mut Env {
                        locals: &mut Vec::new(),
                        subject: None,
                        depth: 0,
                    },
                );
                let v = v.map_err(|e| self.located(e, var.span))?;
                self.state.set_game_var(i, v);
            } else if var.ty == crate::ir::expr::Type::Int {
                self.state.set_game_var(i, Value::Int(0));
            } else if var.ty == crate::ir::expr::Type::Bool {
                self.state.set_game_var(i, Value::Bool(false));
            }
        }
        self.tasks.push(Task::StartTurn);
        self.fire(EventKind::Setup, 0);
        self.run()
    }

    /// An evaluation failure, named by the rule where it happened.
    pub(super) fn located(&self, e: EvalError, span: Span) -> GameError {
        e.kind()
            .error(format!("{e} in the rule at {}", self.rules.pack.locate(span)))
    }

    /// Pushes tasks to run in the order given.
    pub(super) fn then(&mut self, tasks: impl IntoIterator<Item = Task>) {
        let at = self.tasks.len();
        self.tasks.extend(tasks);
        self.tasks[at..].reverse();
    }

    /// Queues the handlers of an event without arguments, if it has any.
    pub(super) fn fire(&mut self, event: EventKind, depth: u16) {
        if !self.rules.handlers_of(event).is_empty() {
            self.tasks.push(Task::Fire {
                event,
                args: EventArgs::List(Vec::new()),
                depth,
                open: UNJUDGED,
            });
        }
    }

    /// [`Game::fire`] with one argument, made only when some rule listens
    /// and kept in the task: a list is made only for handlers that run. An
    /// event none of whose handlers can run for the argument
    /// ([`Game::unheard`]) queues nothing.
    #[inline(always)]
    pub(super) fn fire_one(&mut self, event: EventKind, depth: u16, arg: impl FnOnce() -> Value) {
        self.fire_one_judged(event, depth, arg, false);
    }

    /// [`Game::fire_one`] for an event whose task is the next the machine
    /// runs (the caller queues nothing after it and changes nothing before
    /// it runs), so the placed tile and the board its guards would see are
    /// those there now: gates on them are judged too.
    #[inline(always)]
    fn fire_one_next(&mut self, event: EventKind, depth: u16, arg: impl FnOnce() -> Value) {
        self.fire_one_judged(event, depth, arg, true);
    }

    /// [`Game::fire_one_next`] at depth 0; but an event every handler of
    /// which has no guard and only sets game variables
    /// (`Compiled::plain_events`: such as a pack's game-wide
    /// flags reset at `turn_start`) has them run at once, in the order its
    /// task would run them. That task would run next, and they queue
    /// nothing, so the game goes on as it would: with no task, no guards'
    /// loop and no list of the chosen. The step the task would have taken
    /// is counted; where that step is over a budget, the task is queued
    /// after all, so the task loop stops the game there as it would have.
    #[inline(always)]
    fn fire_next(&mut self, code: Code, event: EventKind, arg: impl FnOnce() -> Value, last: &mut Option<Span>) {
        if code.rules.handlers_of(event).is_empty() {
            return;
        }
        self.fire_heard_next(code, event, arg(), last);
    }

    /// [`Game::fire_next`] of an event with handlers. Out of line: inlined
    /// with `fire_next` into the task loop, it made the loop compile worse
    /// for games that hear no such event (base 2p 0.4% more instructions).
    #[inline(never)]
    fn fire_heard_next(&mut self, code: Code, event: EventKind, arg: Value, last: &mut Option<Span>) {
        if code.compiled.plain_events.get(event.index()) == Some(&true) && !self.over_budgets(1) {
            self.run_plain_event(code, event, last);
        } else {
            self.fire_one_next(event, 0, || arg);
        }
    }

    /// The handlers of a plain event ([`Game::fire_next`]) run now: their
    /// sets, listed as one (`Compiled::plain_event_sets`).
    #[inline(never)]
    fn run_plain_event(&mut self, code: Code, event: EventKind, last: &mut Option<Span>) {
        self.steps += 1;
        self.turn_steps += 1;
        if let Some(Some(plain)) = code.compiled.plain_event_sets.get(event.index()) {
            self.run_plain(&plain.sets, last);
            *last = Some(plain.last);
        }
    }

    /// [`Game::fire_one`], or [`Game::fire_one_next`] when `placed_now`:
    /// then every handler's gates are judged here, once (`open_handlers`),
    /// and the task says which are open, so its guards are judged with
    /// no look at the gates; an event whose gates are all closed queues
    /// nothing.
    #[inline(always)]
    fn fire_one_judged(&mut self, event: EventKind, depth: u16, arg: impl FnOnce() -> Value, placed_now: bool) {
        if !self.rules.handlers_of(event).is_empty() {
            let arg = arg();
            let open = if placed_now {
                self.open_handlers(event, std::slice::from_ref(&arg))
            } else if self.unheard(event, std::slice::from_ref(&arg), false) {
                0
            } else {
                UNJUDGED
            };
            if open != 0 {
                let args = EventArgs::One(arg);
                self.tasks.push(Task::Fire {
                    event,
                    args,
                    depth,
                    open,
                });
            }
        }
    }

    /// The handlers of `event` whose gates are open for its arguments
    /// `args` now, all of them judged (the event's task runs next, so
    /// the placed tile and the board are those its guards would see): a
    /// bit for each by its place in `Rules::handlers_of`, 0 when none is
    /// open. An event with a handler that has no gate, or with more than
    /// 64 handlers, has its gates judged with its guards ([`UNJUDGED`]),
    /// the latter unless all are closed.
    fn open_handlers(&self, event: EventKind, args: &[Value]) -> u64 {
        let handlers = self.rules.handlers_of(event);
        // A handler with no gate is heard: the others' gates are judged
        // with their guards, as many events have no gate at all.
        if !self.rules.all_gated(event) {
            return UNJUDGED;
        }
        if handlers.len() > 64 {
            return if self.unheard(event, args, true) { 0 } else { UNJUDGED };
        }
        if let Some(Some(types)) = self.rules.type_gates.get(event.index()) {
            return self.open_by_type(types, handlers, args);
        }
        let mut open = 0;
        for (i, &h) in handlers.iter().enumerate() {
            if !self.ruled_out(h, args, true) {
                open |= 1 << i;
            }
        }
        open
    }

    /// [`Game::open_handlers`] of an event with gates on the type of a tile
    /// (`types`, for its `handlers`, at most 64): those looked up at once,
    /// the others judged for the handlers they leave open.
    #[inline(never)]
    fn open_by_type(&self, types: &super::rules::TypeGates, handlers: &[u16], args: &[Value]) -> u64 {
        // (`TypeGates::of` makes a table only for 1 to 64 handlers.)
        let all = u64::MAX >> (64 - handlers.len());
        let mut open = self
            .gate_tile(types.tile, args)
            .and_then(|p| types.open.get(p.tile as usize))
            .map_or(all, |bits| bits & all);
        let mut rest = open & types.other;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if self.ruled_out_past(handlers[i], args, types.tile) {
                open &= !(1 << i);
            }
        }
        open
    }

    /// Whether a gate of handler `h`'s guard, other than those on the type
    /// of `table`'s tile (looked up already, `TypeGates`), rules out the
    /// event's arguments `args` now (the event's task runs next).
    fn ruled_out_past(&self, h: u16, args: &[Value], table: GateTile) -> bool {
        self.rules.gates[h as usize]
            .iter()
            .any(|g| g.on_type_of(table).is_none() && !self.gate_open(g, args))
    }

    /// Whether no handler of `event` can run for its arguments `args`,
    /// whatever happens before its guards are judged: each has a guard that
    /// a gate rules out for the arguments' tile type or feature kind, which
    /// never change (as `judge_guards` would find; true when it has no
    /// handler). A gate that reads what may change before then (the placed
    /// tile, the board: `Gate::reads_now`) is judged only when `placed_now`
    /// (the event's task runs next, so they are those there now); else it
    /// counts as open.
    pub(super) fn unheard(&self, event: EventKind, args: &[Value], placed_now: bool) -> bool {
        let rules = &self.rules;
        // Most events have a handler with no gate, which some rule hears.
        if !rules.all_gated(event) {
            return rules.handlers_of(event).is_empty();
        }
        rules
            .handlers_of(event)
            .iter()
            .all(|&h| self.ruled_out(h, args, placed_now))
    }

    /// Whether a gate of handler `h`'s guard rules out the event's
    /// arguments `args` (a gate that reads what may change before the
    /// guards are judged, `Gate::reads_now`, only when `placed_now`).
    #[inline]
    pub(super) fn ruled_out(&self, h: u16, args: &[Value], placed_now: bool) -> bool {
        self.rules.gates[h as usize]
            .iter()
            .any(|g| (placed_now || !g.reads_now()) && !self.gate_open(g, args))
    }

    /// Locals for a new frame of `n` slots, all `none`, with room for the
    /// inlined calls evaluation runs in them ([`Compiled::frame_in`]), in a
    /// spare list when there is one.
    ///
    /// [`Compiled::frame_in`]: super::eval::Compiled::frame_in
    pub(super) fn locals(&mut self, n: usize) -> Vec<Value> {
        let spare = self.spare.values.take();
        self.compiled.frame_in(spare, n)
    }

    /// Waits for the answer to `pending`, held in the box of the last
    /// choice answered when one is kept.
    pub(super) fn ask(&mut self, pending: Pending) {
        let pending = match self.spare.pending.take() {
            Some(mut kept) => {
                *kept = pending;
                kept
            }
            None => Box::new(pending),
        };
        self.phase = Phase::Choose(pending);
    }

    /// Done with an answered choice: its box and its list of options are
    /// kept for the next ([`Game::ask`]).
    pub(super) fn keep_pending(&mut self, mut pending: Box<Pending>) {
        let options = std::mem::take(pending.options_mut());
        self.spare.targets.keep(options);
        self.spare.pending = Some(pending);
    }

    /// How deeply the running rule is nested in handlers and calls.
    pub(super) fn depth(&self) -> u16 {
        self.frames.last().map_or(0, |f| f.depth)
    }

    /// After a placement: the deploy decision, after the placement's events.
    pub(super) fn after_place(&mut self, placed: PlacedId) {
        self.tasks.push(Task::AwaitDeploy(placed));
        let depth = self.depth();
        self.fire_one(EventKind::DeployPhase, depth, || Value::Tile(placed.0));
        // Its task is the next the machine runs (`apply` runs it at once).
        self.fire_one_next(EventKind::TilePlaced, depth, || Value::Tile(placed.0));
    }

    /// After a deployment (or a pass): scoring, after the deployment's event.
    pub(super) fn after_deploy(&mut self, placed: PlacedId, figure: Option<u32>) {
        self.tasks.push(Task::Scoring(placed));
        // Queued before the figure's events, so it runs after them.
        self.deploy_done(placed);
        if let Some(id) = figure {
            let depth = self.depth();
            self.fire_one(EventKind::FigureDeployed, depth, || Value::Figure(id));
            // Fired last, so it runs first.
            self.fire_one(EventKind::FigurePlaced, depth, || Value::Figure(id));
        }
    }

    /// Fires `deploy_done` for the placed tile, when a pack listens (the
    /// test in line: the base game has no handler of it).
    #[inline]
    pub(super) fn deploy_done(&mut self, placed: PlacedId) {
        if !self.rules.handlers_of(EventKind::DeployDone).is_empty() {
            let depth = self.depth();
            self.fire_one(EventKind::DeployDone, depth, || Value::Tile(placed.0));
        }
    }

    /// Runs an action's body on its target.
    pub(super) fn start_action(&mut self, action: ActionId, target: Target) {
        let a = &self.rules.pack.program.actions[action as usize];
        let (body, origin, slots) = (a.body, a.span, a.slots);
        let mut locals = self.locals(slots as usize);
        if let Some(first) = locals.first_mut() {
            *first = target_value(target);
        }
        self.push_frame(locals, origin, body);
    }

    /// Runs a block in a new frame, one level deeper.
    pub(super) fn push_frame(&mut self, locals: Vec<Value>, origin: Span, body: BlockId) {
        let depth = self.depth() + 1;
        self.push_frame_at(locals, origin, body, depth);
    }

    fn push_frame_at(&mut self, locals: Vec<Value>, origin: Span, body: BlockId, depth: u16) {
        self.frames.push(Frame { locals, origin, depth });
        self.tasks.push(Task::PopFrame);
        self.tasks.push(Task::Run {
            frame: (self.frames.len() - 1) as u32,
            block: body,
            pc: 0,
        });
    }

    /// Goes on after the answer to a pending choice.
    pub(super) fn resume_pick(&mut self, p: &Pending, target: Target) {
        match p {
            Pending::Trim { player, .. } => {
                if let Target::Card(c) = target {
                    self.discard_card(*player as usize, c);
                }
                self.tasks.push(Task::Trim(*player));
            }
            Pending::Rule(c) => {
                // A named option runs its own body and binds nothing.
                let block = match target {
                    Target::Option(body) => body,
                    _ => {
                        self.frames[c.frame as usize].locals[c.slot as usize] = target_value(target);
                        c.body
                    }
                };
                self.tasks.push(Task::Run {
                    frame: c.frame,
                    block,
                    pc: 0,
                });
            }
        }
    }

    /// Goes on after an optional choice was declined.
    pub(super) fn resume_decline(&mut self, p: &Pending) {
        if let Pending::Rule(c) = p {
            if let Some(b) = c.otherwise {
                self.tasks.push(Task::Run {
                    frame: c.frame,
                    block: b,
                    pc: 0,
                });
            }
        }
    }

    /// Runs tasks until a decision is needed or the game ends.
    pub(super) fn run(&mut self) -> Result<(), GameError> {
        // The rules and their compiled expressions, held apart from the
        // game so statements borrowed from them can change it: the game's
        // own handles, made at its first run, taken out for the run and put
        // back. Every game of the rules, on every thread, shares their
        // reference counts, so a run that took new handles would make the
        // threads wait on each other's counting (some tenth of a 2-thread
        // `sim`). Handles on other rules (a game made a copy of another's)
        // are made anew.
        let code = match self.spare.code.take() {
            Some(handles) if Arc::ptr_eq(&handles.0, &self.rules) && Arc::ptr_eq(&handles.1, &self.compiled) => handles,
            _ => (Arc::clone(&self.rules), Arc::clone(&self.compiled)),
        };
        let ran = self.run_tasks(Code {
            rules: &code.0,
            compiled: &code.1,
        });
        self.spare.code = Some(code);
        ran
    }

    /// [`Game::run`]'s loop (inlined: as a call of its own it cost each
    /// run some 60 instructions more).
    #[inline(always)]
    fn run_tasks(&mut self, code: Code) -> Result<(), GameError> {
        self.steps = 0;
        self.budget.reset();
        let mut last: Option<Span> = None;
        while let Some(task) = self.tasks.pop() {
            self.check_budgets(last)?;
            let step = match task {
                Task::StartTurn => self.start_turn(code, &mut last),
                Task::Draw => self.draw_step(code, &mut last)?,
                Task::AwaitPlace(tile) => {
                    self.phase = Phase::Place(tile);
                    Step::Stop
                }
                Task::AwaitDeploy(placed) => {
                    self.phase = Phase::Deploy(placed);
                    Step::Stop
                }
                Task::Scoring(placed) => self.scoring(placed),
                Task::Complete(f) => self.complete(f)?,
                Task::Score { feature, completed } => {
                    self.score_feature(feature, completed)?;
                    Step::Next
                }
                Task::ReturnAll(f) => self.return_all(f),
                Task::EndTurn => self.end_turn(code, &mut last),
                Task::Trim(player) => self.trim(player),
                Task::GameEnd => self.game_end(),
                Task::EndCards { next, saved } => self.end_cards(next, saved),
                Task::ToDiscard(card) => self.discard_resolved(card),
                Task::Current(player) => {
                    self.state.set_current(usize::from(player));
                    Step::Next
                }
                Task::NextTurn => self.next_turn(code, &mut last),
                Task::FinalScoring => self.final_scoring()?,
                Task::Finish => {
                    self.phase = Phase::Over;
                    self.emit(Event::Ended);
                    Step::Stop
                }
                Task::Fire {
                    event,
                    args,
                    depth,
                    open,
                } => self.fire_handlers(code, event, args, depth, open, &mut last)?,
                Task::Handlers { args, chosen, depth } => self.run_handler(code, args, chosen, depth, &mut last)?,
                Task::Run { frame, block, pc } => self.run_statement(code, frame, block, pc, &mut last)?,
                Task::Each {
                    frame,
                    slot,
                    items,
                    at,
                    body,
                } => self.each(code, frame, slot, items, at, body)?,
                Task::PopFrame => {
                    if let Some(frame) = self.frames.pop() {
                        self.spare.values.keep(frame.locals);
                    }
                    Step::Next
                }
            };
            if let Step::Stop = step {
                return Ok(());
            }
        }
        Ok(())
    }

    /// Counts a step of the machine, and fails the game when a rule has run
    /// away: too many steps since the last decision or in the turn, or too
    /// many events logged.
    #[inline]
    pub(super) fn check_budgets(&mut self, last: Option<Span>) -> Result<(), GameError> {
        self.steps += 1;
        self.turn_steps += 1;
        if self.over_budgets(0) {
            return Err(self.runaway(last));
        }
        Ok(())
    }

    /// Whether `more` steps than those counted would go over a step budget,
    /// or the log or the figures gone from the board are over their caps.
    #[inline(always)]
    fn over_budgets(&self, more: u32) -> bool {
        self.steps.saturating_add(more) > STEP_BUDGET
            || self.turn_steps.saturating_add(u64::from(more)) > TURN_STEP_BUDGET
            || self.log.events.len() > MAX_LOG_EVENTS
            || self.state.gone_count() > MAX_LOG_EVENTS
    }

    /// The error of a machine over one of its budgets ([`Game::check_budgets`]),
    /// naming the rule it ran last.
    #[cold]
    #[inline(never)]
    fn runaway(&self, last: Option<Span>) -> GameError {
        let at = last.map_or("the rules".to_string(), |s| self.rules.pack.locate(s));
        let what = if self.steps > STEP_BUDGET {
            format!("more than {STEP_BUDGET} steps without a decision")
        } else if self.log.events.len() > MAX_LOG_EVENTS || self.state.gone_count() > MAX_LOG_EVENTS {
            format!("the game logged more than {MAX_LOG_EVENTS} events")
        } else {
            format!("more than {TURN_STEP_BUDGET} steps in one turn")
        };
        ErrorKind::Runaway.error(format!("a rule ran away: {what} (last at {at})"))
    }

    fn start_turn(&mut self, code: Code, last: &mut Option<Span>) -> Step {
        self.turn += 1;
        (self.turn_decisions, self.turn_steps, self.asking) = (0, 0, None);
        self.taken.clear();
        self.tasks.push(Task::Draw);
        let player = self.state.current() as u8;
        self.fire_next(code, EventKind::TurnStart, || Value::Player(player), last);
        Step::Next
    }

    /// Draws a tile: the next forced draw, or one at random, from the
    /// stack `from` (else the current one); `None` when nothing may be drawn.
    pub(super) fn draw(&mut self, from: Option<u16>) -> Result<Option<TileId>, GameError> {
        // A replay's next tile belongs to the next draw that happens: a draw
        // from an empty stack takes nothing, in a replay as in a live game.
        if !self.state.can_draw(&self.rules, from) {
            return Ok(None);
        }
        let forced = self.forced.pop_front();
        if self.keyed {
            // The stack is in key order: the first tile the draw may take.
            return self.state.draw_tile(&self.rules, forced, from, |_| 0, true);
        }
        let rng = &mut self.rng;
        self.state.draw_tile(&self.rules, forced, from, |n| rng.below(n), false)
    }

    fn draw_step(&mut self, code: Code, last: &mut Option<Span>) -> Result<Step, GameError> {
        match self.draw(None)? {
            None => self.tasks.push(Task::GameEnd),
            Some(tile) => {
                let player = self.state.current();
                self.emit(Event::Drew {
                    player: Player::at(player),
                    tile,
                });
                if self.fits_anywhere(tile) {
                    self.tasks.push(Task::AwaitPlace(tile));
                    self.fire_next(code, EventKind::TileDrawn, || Value::Player(player as u8), last);
                } else {
                    self.state.discard_tile();
                    self.emit(Event::Discarded {
                        player: Player::at(player),
                        tile,
                    });
                    self.tasks.push(Task::Draw);
                }
            }
        }
        Ok(Step::Next)
    }

    fn end_turn(&mut self, code: Code, last: &mut Option<Span>) -> Step {
        let player = self.state.current() as u8;
        self.tasks.push(Task::NextTurn);
        let queued = self.tasks.len();
        self.fire_next(code, EventKind::TurnEnd, || Value::Player(player), last);
        // No hand is ever over a limit: nothing to trim.
        if self.rules.pack.program.hand_limits.is_empty() {
            return Step::Next;
        }
        self.trim_next(player, queued)
    }

    /// The hand of `player` trimmed to its limits after the turn-end
    /// event's handlers, as a task queued under them (at `queued`) would:
    /// at once when they queued nothing (its step counted, as the loop
    /// counts a task's, and queued after all when that step would go over
    /// a budget, so the loop stops the game there).
    #[inline(never)]
    fn trim_next(&mut self, player: u8, queued: usize) -> Step {
        if self.tasks.len() != queued || self.over_budgets(1) {
            self.tasks.insert(queued, Task::Trim(player));
            return Step::Next;
        }
        self.steps += 1;
        self.turn_steps += 1;
        self.trim(player)
    }

    fn next_turn(&mut self, code: Code, last: &mut Option<Span>) -> Step {
        // Extra tiles drawn after this turn's placement go where their rule said.
        let log = &mut self.log;
        self.state
            .set_aside_extras(None, |tile, kept| log.emit(Event::TileSetAside { tile, kept }));
        self.state.next_player();
        // The next turn starts at once (as its own task would, next).
        self.start_turn(code, last)
    }

    fn game_end(&mut self) -> Step {
        self.then([
            Task::EndCards {
                next: 0,
                saved: self.state.current() as u8,
            },
            Task::FinalScoring,
        ]);
        self.fire(EventKind::GameEnd, 0);
        Step::Next
    }

    /// An event fires: judges every handler's `when` now (but those whose
    /// gates rule out the event's tile type or feature kind, which would be
    /// false), and starts the first of the handlers whose guard held
    /// (`run_handler`), the rest queued. (Out of line: inlined into the
    /// task loop, it made the loop compile worse for every game, base 2p
    /// 1.2% more instructions with no event heard.)
    #[inline(never)]
    fn fire_handlers(
        &mut self,
        code: Code,
        event: EventKind,
        args: EventArgs,
        depth: u16,
        open: u64,
        last: &mut Option<Span>,
    ) -> Result<Step, GameError> {
        // The handlers whose guards held, the next to run last: on the
        // stack, as most events choose none.
        let mut chosen: smallvec::SmallVec<[u16; 8]> = smallvec::SmallVec::new();
        self.judge_guards(code, event, args.as_slice(), open, last, &mut chosen)?;
        let rules = code.rules;
        // Handlers that only set game variables run here, in their turn, as
        // `run_handler` would run them, with no list made.
        while let Some(&h) = chosen.last() {
            let Some(Some(sets)) = code.compiled.plain.get(h as usize) else {
                break;
            };
            if depth >= MAX_DEPTH {
                break;
            }
            *last = Some(rules.pack.program.handlers[h as usize].span);
            self.run_plain(sets, last);
            chosen.pop();
        }
        if chosen.is_empty() {
            args.keep(&mut self.spare.values);
            return Ok(Step::Next);
        }
        // The first handler starts at once, as its queued task would next.
        let args = args.into_list(&mut self.spare.values);
        let mut list = self.spare.ids.take();
        list.extend_from_slice(&chosen);
        self.run_handler(code, args, list, depth, last)
    }

    /// Judges the guards of `event`'s handlers for its arguments `args`,
    /// the last handler first, and adds those that hold (and those with no
    /// guard) to `chosen`. Handlers whose gates were judged where the
    /// event fired (`open`, see [`Task::Fire`]) are passed over when
    /// closed and have their guards judged with no look at them when open.
    fn judge_guards(
        &mut self,
        code: Code,
        event: EventKind,
        args: &[Value],
        open: u64,
        last: &mut Option<Span>,
        chosen: &mut smallvec::SmallVec<[u16; 8]>,
    ) -> Result<(), GameError> {
        let rules = code.rules;
        // The guards' locals, made for the first guard judged.
        let mut guard_locals: Option<Vec<Value>> = None;
        let mut no_locals = Vec::new();
        // Every guard is judged against the same state: counts over the
        // board that do not depend on the handler are counted once, in a
        // memo made for the first guard that may count (`Compiled::guard_memo`).
        let mut memo: Option<Memo> = None;
        let judged = open != UNJUDGED;
        for (i, &h) in rules.handlers_of(event).iter().enumerate().rev() {
            let handler = &rules.pack.program.handlers[h as usize];
            let gated = judged && i < 64;
            if gated && open & (1 << i) == 0 {
                continue;
            }
            let Some(cond) = &handler.when else {
                chosen.push(h);
                continue;
            };
            // A guard that cannot hold for this tile's type or this
            // feature's kind is not judged.
            if !gated && self.ruled_out(h, args, true) {
                continue;
            }
            // The last rule run: a guard judged (a handler chosen without
            // one names itself when it runs).
            *last = Some(handler.span);
            // A guard that uses no local slot is judged with no frame.
            let locals = if code.compiled.guard_frame_free.get(h as usize) == Some(&true) {
                &mut no_locals
            } else {
                // The event's arguments are set once: a guard writes only the
                // slots above them (its counts' and calls'), each before reading it.
                let locals = guard_locals.get_or_insert_with(|| {
                    let mut locals = std::mem::take(&mut self.spare.guards);
                    if locals.len() < args.len() {
                        locals.reserve(code.compiled.frame_slots.max(args.len()));
                        locals.resize_with(args.len(), || Value::None);
                    }
                    locals[..args.len()].clone_from_slice(args);
                    locals
                });
                if locals.len() < handler.slots as usize {
                    locals.resize_with(handler.slots as usize, || Value::None);
                }
                locals
            };
            let mut env = Env {
                locals,
                subject: None,
                depth: 0,
            };
            let memo = match code.compiled.guard_memo.get(h as usize) {
                Some(false) => None,
                _ => Some(&*memo.get_or_insert_with(Memo::default)),
            };
            let ev = Evaluator {
                memo,
                ..self.evaluator()
            };
            // Where its tile's type decides some of its conjuncts true, the
            // guard left without them.
            let (compiled, walked) = match self.residual_of(rules, h, args) {
                Some((i, left)) => (
                    code.compiled.residual_guards.get(h as usize).and_then(|g| g.get(i)),
                    left,
                ),
                None => (code.compiled.guards.get(h as usize).and_then(Option::as_ref), cond),
            };
            let held = match compiled {
                Some(guard) => guard(&ev, &mut env),
                None => ev.eval(walked, &mut env).map(|v| v.truthy()),
            };
            if held.map_err(|e| self.located(e, handler.span))? {
                chosen.push(h);
            }
        }
        // The guards' counts end with them: the handlers change the state.
        if let Some(locals) = guard_locals {
            self.spare.guards = locals;
        }
        Ok(())
    }

    /// Runs a handler that only sets game variables ([`Compiled::plain`]).
    ///
    /// [`Compiled::plain`]: super::eval::Compiled::plain
    fn run_plain(&mut self, sets: &[PlainSet], last: &mut Option<Span>) {
        for set in sets {
            // The last rule run, as the statement runner would name it.
            *last = Some(set.span);
            let value = match &set.value {
                PlainValue::Constant(v) => v.clone(),
                PlainValue::GameVar(g) => self.state.game_var(*g).clone(),
            };
            self.state.set_game_var(set.var, value);
        }
    }

    /// The guard of handler `h` left for the type of the tile it reads
    /// (`Rules::residuals`), with its place among the handler's guards
    /// left; `None` when the whole guard is judged.
    #[inline]
    fn residual_of<'r>(&self, rules: &'r Rules, h: u16, args: &[Value]) -> Option<(usize, &'r Expr)> {
        let r = rules.residuals.get(h as usize)?.as_ref()?;
        let t = self.gate_tile(r.tile, args)?;
        let i = usize::from((*r.by_type.get(t.tile as usize)?)?);
        Some((i, r.guards.get(i)?))
    }

    /// Whether a handler's `gate` lets its guard be judged for the event's
    /// arguments `args` now; open when the tile or feature it reads is not
    /// there.
    pub(super) fn gate_open(&self, gate: &Gate, args: &[Value]) -> bool {
        let state = &self.state;
        match gate {
            Gate::Tile { tile, open } => self
                .gate_tile(*tile, args)
                .is_none_or(|t| open.get(t.tile as usize).copied().unwrap_or(true)),
            Gate::Kind { slot, open } => match args.get(usize::from(*slot)) {
                Some(Value::Feature(f)) => {
                    let features = state.features();
                    open.get(features.kind(features.find(*f)) as usize)
                        .copied()
                        .unwrap_or(true)
                }
                _ => true,
            },
            Gate::Near {
                tile,
                kind,
                d,
                occupied,
            } => self.near_open(*tile, args, *kind, *d, *occupied),
            Gate::Occupied { tile, kinds } => self.occupied_open(*tile, kinds.as_deref(), args),
        }
    }

    /// Whether an occupied gate is open: some feature of the tile it reads
    /// (of one of `kinds`, when given) has a figure on it (`t.features`
    /// lists the features of its segments, each of its segment's kind);
    /// open when its tile is not there.
    #[inline(never)]
    fn occupied_open(&self, tile: GateTile, kinds: Option<&[KindId]>, args: &[Value]) -> bool {
        let Some(t) = self.gate_tile(tile, args) else {
            return true;
        };
        self.held_segment(t, |k| kinds.is_none_or(|kinds| holds_kind(kinds, k)))
    }

    /// Whether a segment of placed tile `t` whose kind passes `kind`
    /// belongs to a feature with a figure on it (the look of the occupied
    /// and near gates).
    fn held_segment(&self, t: &PlacedTile, kind: impl Fn(KindId) -> bool) -> bool {
        let features = self.state.features();
        (t.first_node..)
            .zip(&self.rules.pack.tiles[t.tile as usize].segments)
            .any(|(node, s)| kind(s.kind) && features.figure_count(node) > 0)
    }

    /// The placed tile a gate on `tile` reads of an event's arguments
    /// `args`; `None` when it is not there.
    #[inline]
    fn gate_tile(&self, tile: GateTile, args: &[Value]) -> Option<&PlacedTile> {
        let state = &self.state;
        let placed = match tile {
            GateTile::Local(s) => match args.get(usize::from(s)) {
                Some(Value::Tile(t)) => usize::from(*t),
                _ => return None,
            },
            GateTile::Placed => state.placed_tile()?.index(),
        };
        state.board().placed.get(placed)
    }

    /// Whether a near gate is open: some tile within `d` squares of the
    /// one it reads has a segment of `kind` (of any kind when `None`), as
    /// the evaluator's scan of the features near a tile finds tiles to look
    /// at (`Evaluator::feature_scan`), and when `occupied` one whose feature
    /// has a figure on it; open when its tile is not there. Where the
    /// board lists fewer tiles of the kinds near gates ask for
    /// (`Board::near`, all the tiles of `kind` among them) than there are
    /// squares to look at, those are looked at instead: the same tiles pass.
    #[inline(never)]
    fn near_open(&self, tile: GateTile, args: &[Value], kind: Option<KindId>, d: i64, occupied: bool) -> bool {
        let Some(t) = self.gate_tile(tile, args) else {
            return true;
        };
        let listed = kind.is_some_and(|k| self.rules.near_kinds & kind_bit(k) != 0);
        if listed && (self.state.board().near.len() as i64) < (2 * d + 1) * (2 * d + 1) {
            return self.near_listed(t.pos, kind, d, occupied);
        }
        self.near_on_squares(t.pos, kind, d, occupied)
    }

    /// [`Game::near_open`] by the tiles the board lists for near gates: to
    /// be asked only of a kind they list (`Rules::near_kinds`). Each tile is
    /// judged by the test `near_on_squares` makes of it, written in each:
    /// one function both call made an all-packs game 0.13% slower.
    fn near_listed(&self, (x, y): Pos, kind: Option<KindId>, d: i64, occupied: bool) -> bool {
        let board = self.state.board();
        let wanted = kind.map_or(u64::MAX, kind_bit);
        board.near.iter().any(|p| {
            let placed = &board.placed[p.index()];
            (i64::from(placed.pos.0) - i64::from(x)).abs() <= d
                && (i64::from(placed.pos.1) - i64::from(y)).abs() <= d
                && self.rules.tile_kinds[placed.tile as usize] & wanted != 0
                && (!occupied || self.held_segment(placed, |k| kind.is_none_or(|wanted| k == wanted)))
        })
    }

    /// [`Game::near_open`] by the squares within `d` of `pos`.
    fn near_on_squares(&self, pos: Pos, kind: Option<KindId>, d: i64, occupied: bool) -> bool {
        let board = self.state.board();
        let wanted = kind.map_or(u64::MAX, kind_bit);
        let mut near = false;
        board.each_near(pos, d as i32, |p| {
            let placed = &board.placed[p.index()];
            if near || self.rules.tile_kinds[placed.tile as usize] & wanted == 0 {
                return;
            }
            near = !occupied || self.held_segment(placed, |k| kind.is_none_or(|wanted| k == wanted));
        });
        near
    }

    /// Starts the next of the handlers chosen when their event fired, and
    /// runs its first statements (as the tasks it queues would run next).
    /// A handler that only sets game variables (`Compiled::plain`) runs
    /// here whole, with no frame, and the next chosen one starts after it.
    fn run_handler(
        &mut self,
        code: Code,
        args: Vec<Value>,
        mut chosen: Vec<u16>,
        depth: u16,
        last: &mut Option<Span>,
    ) -> Result<Step, GameError> {
        let h = loop {
            let Some(h) = chosen.pop() else {
                self.spare.values.keep(args);
                self.spare.ids.keep(chosen);
                return Ok(Step::Next);
            };
            let origin = self.rules.pack.program.handlers[h as usize].span;
            *last = Some(origin);
            if depth >= MAX_DEPTH {
                return Err(ErrorKind::Runaway.error(format!(
                    "a rule ran away: handlers triggered each other {MAX_DEPTH} deep (at {})",
                    self.rules.pack.locate(origin)
                )));
            }
            let Some(Some(sets)) = code.compiled.plain.get(h as usize) else {
                break h;
            };
            self.run_plain(sets, last);
        };
        let handler = &self.rules.pack.program.handlers[h as usize];
        let (body, origin, slots) = (handler.body, handler.span, handler.slots);
        let n = usize::from(slots).max(args.len());
        let locals = if chosen.is_empty() {
            // The last handler takes the event's arguments as its locals.
            self.spare.ids.keep(chosen);
            self.compiled.frame_after(args, n)
        } else {
            let mut locals = self.locals(n);
            locals[..args.len()].clone_from_slice(&args);
            self.tasks.push(Task::Handlers { args, chosen, depth });
            locals
        };
        self.frames.push(Frame {
            locals,
            origin,
            depth: depth + 1,
        });
        self.tasks.push(Task::PopFrame);
        self.run_statement(code, (self.frames.len() - 1) as u32, body, 0, last)
    }
}

/// Whether `kinds` holds `k`: a loop the compiler inlines where it is
/// asked (`slice::contains` of `u16` is a call of its own).
#[inline]
fn holds_kind(kinds: &[KindId], k: KindId) -> bool {
    for &kind in kinds {
        if kind == k {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::super::{Game, Rules, Setup};
    use super::Value;
    use crate::check::{load, PackRef};
    use std::sync::Arc;

    /// An event none of whose handlers can run for its argument is not
    /// heard: every handler has a guard whose gate rules out the feature's
    /// kind (or the placed tile's type, judged only for an event whose task
    /// runs next). An event with an ungated handler, or none, is judged as
    /// before.
    #[test]
    fn events_whose_handlers_are_all_gated_out_are_not_heard() {
        use crate::ir::program::EventKind;
        let text = "pack gated \"gated\"\nlanguage 1\nrequires base\nvar game flag: bool = false\nicon mark\n\
                    on feature_scored(f) when f.kind == field { set flag = true }\n\
                    on turn_end when placed_tile.has_icon(mark) and not flag { set flag = true }\n\
                    on tile_placed(t) when flag { set flag = false }\n";
        let rules = Arc::new(Rules::new(crate::bundled::over_base("gated", text)));
        let mut game = Game::new(Arc::clone(&rules), Setup::new(2).seed(1)).unwrap();
        let place = game.options()[0];
        game.apply(place).unwrap();
        assert!(game.placed_tile().is_some());
        let kind = |name: &str| rules.pack.kinds.iter().position(|k| k.name == name).unwrap();
        let features = game.state.features();
        let of_kind = |k: usize| {
            (0..features.len() as u32)
                .find(|&f| usize::from(features.kind(f)) == k)
                .unwrap()
        };
        let (city, field) = (of_kind(kind("city")), of_kind(kind("field")));
        assert!(game.unheard(EventKind::FeatureScored, &[Value::Feature(city)], false));
        assert!(!game.unheard(EventKind::FeatureScored, &[Value::Feature(field)], false));
        // No base tile has the mark, but a later placement might have.
        assert!(game.unheard(EventKind::TurnEnd, &[Value::Player(0)], true));
        assert!(!game.unheard(EventKind::TurnEnd, &[Value::Player(0)], false));
        // A guard with no gate may hold; an event with no handler is never heard.
        assert!(!game.unheard(EventKind::TilePlaced, &[Value::Tile(0)], true));
        assert!(game.unheard(EventKind::FigureMoved, &[Value::Figure(0)], true));
    }

    /// A near gate reads the tiles the board lists for its kind where they
    /// are fewer than the squares around (`Game::near_open`): at every
    /// placement of random games, around every tile on the board, at every
    /// distance a near gate may ask and with a figure needed or not, the
    /// listed tiles give the gate the squares give it, for a rare kind (a
    /// monastery) and a common one (a city); and a copy of the game
    /// (`search_clone`, and `search_clone_from` into a game of base alone,
    /// which lists no tile) keeps the list and gives the same gates.
    #[test]
    fn near_gates_read_the_listed_tiles_as_the_squares() {
        use super::super::rules::kind_bit;
        use super::super::shapes::NEAR_MAX;
        use super::super::{Decision, Rng};
        let text = "pack near\nlanguage 1\nrequires base\nvar game flag: bool = false\n\
                    on tile_placed(t) when count(m in features where m.kind == monastery \
                    and distance(m.tile, t) <= 1 and count(x in m.figures) > 0) > 0 { set flag = true }\n\
                    on tile_placed(t) when count(c in features where c.kind == city \
                    and distance(c.tile, t) <= 2) > 0 { set flag = false }\n";
        let rules = Arc::new(Rules::new(crate::bundled::over_base("near", text)));
        let kind = |name: &str| rules.pack.kinds.iter().position(|k| k.name == name).unwrap() as u16;
        let kinds = [kind("monastery"), kind("city")];
        assert!(
            kinds.iter().all(|&k| rules.near_kinds & kind_bit(k) != 0),
            "both kinds are listed"
        );
        let base = Arc::new(Rules::new(load(&[PackRef::Bundled("base".into())]).unwrap()));
        let mut seen = [0; 2];
        for seed in 0..3 {
            let mut game = Game::new(Arc::clone(&rules), Setup::new(3).seed(seed)).unwrap();
            let mut into = Game::new(Arc::clone(&base), Setup::new(3).seed(seed)).unwrap();
            let mut rng = Rng::new(seed);
            while let Some(decision) = game.decision() {
                if matches!(decision, Decision::Place { .. }) {
                    let copy = game.search_clone();
                    into.search_clone_from(&game);
                    for other in [&copy, &into] {
                        assert_eq!(
                            other.state.board().near,
                            game.state.board().near,
                            "seed {seed}, a copy's list"
                        );
                    }
                    for t in game.state.board().tiles() {
                        for (d, occupied, k) in (0..=NEAR_MAX).flat_map(|d| {
                            [false, true]
                                .into_iter()
                                .flat_map(move |o| kinds.map(|k| (d, o, Some(k))))
                        }) {
                            let squares = game.near_on_squares(t.pos, k, d, occupied);
                            for g in [&game, &copy, &into] {
                                assert_eq!(
                                    g.near_listed(t.pos, k, d, occupied),
                                    squares,
                                    "seed {seed}, turn {}, around {:?}, kind {k:?}, within {d}, occupied {occupied}",
                                    game.turn(),
                                    t.pos
                                );
                            }
                            seen[usize::from(squares)] += 1;
                        }
                    }
                }
                let options = game.options();
                game.apply(options[rng.below(options.len())]).unwrap();
            }
        }
        assert!(seen.iter().all(|&n| n > 1000), "gates closed and open: {seen:?}");
    }

    /// A hand over its limit at the end of a turn is trimmed after the
    /// turn-end event's handlers have run: at once when none is heard,
    /// else after them (a task queued under theirs). Each placement draws
    /// a card and, in the second pack, a guarded `turn_end` handler draws
    /// another, so with a limit of one card every hand holds at most one
    /// at each placement, and the players discard one card a turn, or
    /// two. Trimmed before the `turn_end` draw, a hand would hold two.
    #[test]
    fn hands_are_trimmed_after_the_turn_end_handlers() {
        use super::super::types::{Choice, Decision, Target};
        let pack = "pack trim\nlanguage 1\nrequires base\ndeck d reshuffle\n\
                    card c x40 in d { kept }\nhand limit 1 for d\nvar game n: int = 0\n\
                    on tile_placed(t) { draw card from d }\n";
        let with_end = format!("{pack}on turn_end when n >= 0 {{ draw card from d }}\n");
        for (text, drawn) in [(pack.to_string(), 1), (with_end, 2)] {
            let rules = Arc::new(Rules::new(crate::bundled::over_base("trim", &text)));
            let mut game = Game::new(rules, Setup::new(3).seed(4)).unwrap();
            let (mut discards, mut placements) = (0, 0);
            while let Some(decision) = game.decision() {
                let options = game.options();
                let choice = match decision {
                    Decision::Place { .. } => {
                        for p in 0..3 {
                            assert!(game.state.hand(p).len() <= 1, "{drawn} a turn: player {p}");
                        }
                        placements += 1;
                        options[0]
                    }
                    Decision::Choose { .. } => {
                        assert!(matches!(options[0], Choice::Pick(Target::Card(_))), "{options:?}");
                        discards += 1;
                        options[0]
                    }
                    Decision::Deploy { .. } => Choice::Pass,
                };
                game.apply(choice).unwrap();
            }
            // Every turn but each player's first discards `drawn` cards.
            assert!(placements > 60, "{placements} placements");
            assert!(
                discards >= (placements - 3) * drawn,
                "{drawn} a turn: {discards} discards"
            );
        }
    }

    /// A trim run at once is held to the step budgets as its task is: with
    /// the turn's steps brought near their budget before the deploy
    /// decision, and the hand over its limit at the end of the turn, the
    /// game either stops over the budget or asks for the discard within
    /// it; it never asks having counted more steps than the budget allows
    /// (as it would if the trim counted its step unchecked).
    #[test]
    fn a_trim_run_at_once_is_held_to_the_step_budgets() {
        use super::super::task::TURN_STEP_BUDGET;
        use super::super::types::Decision;
        let text = "pack trim\nlanguage 1\nrequires base\ndeck d\ncard c x40 in d { kept }\n\
                    hand limit 1 for d\non tile_placed(t) { draw card from d\n  draw card from d }\n";
        let rules = Arc::new(Rules::new(crate::bundled::over_base("trim", text)));
        let (mut stopped, mut asked) = (0, 0);
        for left in 1..8 {
            let mut game = Game::new(Arc::clone(&rules), Setup::new(2).seed(1)).unwrap();
            let place = game.options()[0];
            game.apply(place).unwrap();
            game.turn_steps = TURN_STEP_BUDGET - left;
            let deploy = game.options()[0];
            match game.apply(deploy) {
                Err(e) => {
                    assert!(e.to_string().contains("steps in one turn"), "{left} steps left: {e}");
                    stopped += 1;
                }
                Ok(()) => {
                    assert!(
                        matches!(game.decision(), Some(Decision::Choose { .. })),
                        "{left} steps left"
                    );
                    assert!(
                        game.turn_steps <= TURN_STEP_BUDGET,
                        "{left} steps left: {}",
                        game.turn_steps
                    );
                    asked += 1;
                }
            }
        }
        assert!(stopped > 0 && asked > 0, "{stopped} stopped, {asked} asked");
    }

    /// A frame for a call or a look (`Budget::frame`) holds `none` in every
    /// slot it is made for, however its list was used before: the slots
    /// above (those of calls inlined in it, each written before read) are
    /// kept as they were, and the list is not grown again.
    #[test]
    fn budget_frames_start_with_none_in_their_slots() {
        let rules = Arc::new(Rules::new(load(&[PackRef::Bundled("base".into())]).unwrap()));
        let game = Game::new(rules, Setup::new(2).seed(1)).unwrap();
        for (before, n) in [(0, 3), (8, 3), (2, 5), (5, 5)] {
            game.budget.keep(vec![Value::Int(7); before]);
            let locals = game.budget.frame(&game.compiled, n);
            assert_eq!(locals.len(), n.max(before));
            assert!(locals[..n].iter().all(|v| *v == Value::None), "{locals:?}");
            assert!(locals[n..].iter().all(|v| *v == Value::Int(7)), "{locals:?}");
            game.budget.keep(locals);
            // The list kept is the next frame's: no other is made.
            let again = game.budget.frame(&game.compiled, 0);
            assert_eq!(again.len(), n.max(before));
        }
    }

    /// A frame made from a spare list holds `none` in every slot, however
    /// full the list was when it was kept, and a game's copy keeps none.
    #[test]
    fn frames_from_spare_lists_start_empty() {
        let rules = Arc::new(Rules::new(load(&[PackRef::Bundled("base".into())]).unwrap()));
        let mut game = Game::new(rules, Setup::new(2).seed(1)).unwrap();
        for n in [0, 1, 3, 8] {
            game.spare.values.keep(vec![Value::Int(7); 8]);
            game.spare
                .values
                .keep(vec![Value::Players(thin_vec::thin_vec![1, 2]); 2]);
            let locals = game.locals(n);
            assert_eq!(locals.len(), n);
            assert!(locals.iter().all(|v| *v == Value::None), "{locals:?}");
            assert!(locals.capacity() >= game.compiled.frame_slots);
        }
        for mut copy in [game.search_clone(), game.clone()] {
            assert_eq!(
                copy.spare.values.take().capacity(),
                0,
                "a copy starts with no spare lists"
            );
        }
    }

    /// The guards' locals are kept whole from one event to the next
    /// (`Spare::guards`): a guard writes every slot above the event's
    /// arguments before it reads it, so the bundled packs' games play the
    /// same whatever an earlier event left there (here, other values put
    /// there before every decision).
    #[test]
    fn guards_read_no_local_an_earlier_event_left() {
        use super::super::Rng;
        use crate::bundled::{load_bundled, test_sets};
        let play = |rules: &Arc<Rules>, seed: u64, junk: bool| {
            let mut game = Game::new(rules.clone(), Setup::new(2 + seed as usize % 3).seed(seed)).unwrap();
            let mut rng = Rng::new(seed);
            let mut seen = Vec::new();
            while game.decision().is_some() {
                if junk {
                    game.spare.guards = (0..64)
                        .map(|i| match i % 6 {
                            0 => Value::Tile(0),
                            1 => Value::Feature(0),
                            2 => Value::Player(1),
                            3 => Value::Int(7),
                            4 => Value::Bool(true),
                            _ => Value::Players(thin_vec::thin_vec![0, 1]),
                        })
                        .collect();
                }
                let options = game.options();
                seen.push(options.len());
                game.apply(options[rng.below(options.len())]).unwrap();
            }
            (seen, game.scores().to_vec())
        };
        for set in test_sets(|names| load_bundled(names).is_ok()) {
            let rules = Arc::new(Rules::new(load_bundled(&set).unwrap()));
            for seed in 0..3 {
                assert_eq!(
                    play(&rules, seed, false),
                    play(&rules, seed, true),
                    "packs {set:?}, seed {seed}"
                );
            }
        }
    }

    /// A game made a copy of a game of other rules runs those rules: the
    /// handles it kept for the task loop are on the rules it ran before, so
    /// they are made anew, and it plays on as a fresh copy of the game does.
    #[test]
    fn a_copy_of_a_game_of_other_rules_runs_those_rules() {
        let packs = |text: Option<&str>| {
            let mut refs = vec![PackRef::Bundled("base".into())];
            refs.extend(text.map(|text| PackRef::Text {
                name: "other.rules".into(),
                text: text.into(),
            }));
            Arc::new(Rules::new(load(&refs).unwrap()))
        };
        let mut copy = Game::new(packs(None), Setup::new(2).seed(1)).unwrap();
        for _ in 0..4 {
            let options = copy.options();
            copy.apply(options[0]).unwrap();
        }
        let other = "pack other\nlanguage 1\nrequires base\n\
                     on tile_placed(t) {\n  score 1 to current_player reason \"placed\"\n}\n";
        let original = Game::new(packs(Some(other)), Setup::new(2).seed(2)).unwrap();
        copy.search_clone_from(&original);
        let mut fresh = original.search_clone();
        let mut rng = super::super::Rng::new(7);
        while fresh.decision().is_some() {
            let options = fresh.options();
            assert_eq!(copy.options(), options, "turn {}", fresh.turn());
            let choice = options[rng.below(options.len())];
            fresh.apply(choice).unwrap();
            copy.apply(choice).unwrap();
        }
        assert_eq!(copy.scores(), fresh.scores());
        assert!(copy.scores().iter().sum::<i64>() > 30, "the other rules' points");
        let (rules, compiled) = copy.spare.code.as_ref().unwrap();
        assert!(Arc::ptr_eq(rules, &original.rules) && Arc::ptr_eq(compiled, &original.compiled));
    }
}
