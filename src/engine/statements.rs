//! Rule statements: running a block one statement at a time, `for each`
//! loops, and one function per statement (or per small group of them). A
//! statement reads through the evaluator with its frame's locals and
//! changes the game only through `State`'s mutators and the machine's
//! queues; a `choose` stops the machine with a pending decision.

use super::error::GameError;
use super::eval::{Compiled, Env, Evaluator, Filter, Memo, Walked};
use super::features::FeatureId;
use super::game::Game;
use super::ids::Player;
use super::rules::Rules;
use super::task::{Code, Pending, RuleChoice, Steer, Step, Task, MAX_DEPTH};
use super::types::{Event, Target};
use super::value::{value_target, EvalError, Halt, Value};
use crate::ir::expr::{Builtin, Expr};
use crate::ir::program::{Domain, EventKind, FnBody, OptionArm, Stmt};
use crate::ir::{BinOp, FigureTypeId, Ownership};
use crate::ir::{BlockId, VarId};
use crate::source::Span;
use std::sync::Arc;

/// The room of a choice's list of options and of a `choose`'s list of
/// members: most choices have fewer, so the kept lists seldom grow.
const CHOICE_ROOM: usize = 64;

impl Game {
    /// Runs statement `pc` of a block in a frame, and the next ones: a
    /// statement that queues nothing is followed at once by the next (as
    /// a queued one would have been), and one that queues tasks or stops
    /// the machine queues the next beneath what it queued. At the block's
    /// end, the frame's end is taken at once when it is the next task.
    /// When the next task is to run statements too (a block just queued,
    /// or the rest of a block), it is taken here as the task loop would
    /// take it, its step counted.
    /// `code` is the game's own rules and compiled expressions, held apart
    /// so statements borrowed from them can change the game.
    pub(super) fn run_statement(
        &mut self,
        code: Code,
        mut frame: u32,
        mut block: BlockId,
        mut pc: u32,
        last: &mut Option<Span>,
    ) -> Result<Step, GameError> {
        let mut stmts = &code.rules.pack.program.blocks[block as usize];
        loop {
            let Some(stmt) = stmts.get(pc as usize) else {
                if matches!(self.tasks.last(), Some(Task::PopFrame)) && self.frames.len() == frame as usize + 1 {
                    self.tasks.pop();
                    if let Some(done) = self.frames.pop() {
                        self.spare.values.keep(done.locals);
                    }
                }
                match self.next_run(*last)? {
                    Some(next) => {
                        (frame, block, pc) = next;
                        stmts = &code.rules.pack.program.blocks[block as usize];
                        continue;
                    }
                    None => return Ok(Step::Next),
                }
            };
            let queued = self.tasks.len();
            *last = Some(stmt.span);
            let stopped = self.exec(code, frame, (block, pc), &stmt.stmt).map_err(|e| match e {
                Halt::Illegal(e) => e,
                Halt::Eval(e) => self.located(e, stmt.span),
            })?;
            pc += 1;
            if !stopped && self.tasks.len() == queued {
                continue;
            }
            if (pc as usize) < stmts.len() {
                self.tasks.insert(queued, Task::Run { frame, block, pc });
            }
            if stopped {
                return Ok(Step::Stop);
            }
            match self.next_run(*last)? {
                Some(next) => {
                    (frame, block, pc) = next;
                    stmts = &code.rules.pack.program.blocks[block as usize];
                }
                None => return Ok(Step::Next),
            }
        }
    }

    /// Takes the next task when it runs statements, as a step of the task
    /// loop (counted against its budgets): its frame, block and statement.
    fn next_run(&mut self, last: Option<Span>) -> Result<Option<(u32, BlockId, u32)>, GameError> {
        let Some(&Task::Run { frame, block, pc }) = self.tasks.last() else {
            return Ok(None);
        };
        self.check_budgets(last)?;
        self.tasks.pop();
        Ok(Some((frame, block, pc)))
    }

    /// One round of a `for each` loop: the next item that passes the filter
    /// runs the body, then the loop goes on.
    pub(super) fn each(
        &mut self,
        code: Code,
        frame: u32,
        slot: u16,
        mut items: Vec<Value>,
        at: (BlockId, u32),
        body: BlockId,
    ) -> Result<Step, GameError> {
        let filter = match code.rules.pack.program.blocks[at.0 as usize]
            .get(at.1 as usize)
            .map(|s| &s.stmt)
        {
            Some(Stmt::ForEach { filter, .. }) => filter.as_ref(),
            _ => {
                debug_assert!(false, "a for-each task names its own statement");
                None
            }
        };
        let fast = code.compiled.statement(at);
        while let Some(item) = items.pop() {
            self.frames[frame as usize].locals[slot as usize] = item;
            let keep = match (fast, filter) {
                (Some(fast), _) => {
                    let origin = self.frames[frame as usize].origin;
                    self.with_frame(frame, |ev, env| fast.holds(&ev, env))
                        .map_err(|e| self.located(e, origin))?
                }
                (None, Some(f)) => {
                    let origin = self.frames[frame as usize].origin;
                    self.eval_at(frame, at, f).map_err(|e| self.located(e, origin))? == Value::Bool(true)
                }
                (None, None) => true,
            };
            if keep {
                self.tasks.push(Task::Each {
                    frame,
                    slot,
                    items,
                    at,
                    body,
                });
                self.tasks.push(Task::Run {
                    frame,
                    block: body,
                    pc: 0,
                });
                return Ok(Step::Next);
            }
        }
        // Done: the emptied list is kept for the next loop.
        self.spare.values.keep(items);
        Ok(Step::Next)
    }

    /// Evaluates with the locals of a frame (borrowed beside the state the
    /// evaluator reads).
    fn with_frame<R>(&mut self, frame: u32, f: impl FnOnce(Evaluator<'_>, &mut Env) -> R) -> R {
        let Game {
            state,
            rules,
            budget,
            frames,
            compiled,
            ..
        } = self;
        let ev = Evaluator {
            state,
            rules,
            budget,
            candidate: None,
            memo: None,
            compiled,
        };
        f(
            ev,
            &mut Env {
                locals: &mut frames[frame as usize].locals,
                subject: None,
                depth: 0,
            },
        )
    }

    /// Who makes the choice of the `choose` at `at`, `by`: its compiled
    /// node answers, as `by` walked would.
    fn chooser(&mut self, compiled: &Compiled, frame: u32, at: (BlockId, u32), by: &Expr) -> Result<Value, EvalError> {
        match compiled.choose(at) {
            Some(c) => self.with_frame(frame, |ev, env| (c.by)(&ev, env)),
            None => self.eval_at(frame, at, by),
        }
    }

    /// Evaluates `expr`, a value of the statement at `at`, with the locals
    /// of a frame: compiled when it was (`Compiled::value`), else walked.
    fn eval_at(&mut self, frame: u32, at: (BlockId, u32), expr: &Expr) -> Result<Value, EvalError> {
        self.with_frame(frame, |ev, env| match ev.compiled.value(at, expr) {
            Some(node) => node(&ev, env),
            None => ev.eval(expr, env),
        })
    }

    /// The items of a domain (or a list in it), with the locals of a frame.
    fn items_at(
        &mut self,
        frame: u32,
        domain: Domain,
        list: Option<&Expr>,
        player: usize,
    ) -> Result<Vec<Value>, EvalError> {
        // In a spare list, kept again when the loop is done (`Game::each`).
        let mut items = self.spare.values.take_with(self.compiled.list_room());
        self.with_frame(frame, |ev, env| {
            ev.domain_items_into(domain, list, player, env, &mut items)
        })?;
        Ok(items)
    }

    /// Runs one statement; `Ok(true)` when it stopped the machine for a decision.
    fn exec(&mut self, code: Code, frame: u32, at: (BlockId, u32), stmt: &Stmt) -> Result<bool, Halt> {
        let rules = code.rules;
        match stmt {
            Stmt::Score { amount, to, reason } => {
                if let (Value::Int(n), Value::Player(p), Value::Reason(r)) = (
                    self.eval_at(frame, at, amount)?,
                    self.eval_at(frame, at, to)?,
                    self.eval_at(frame, at, reason)?,
                ) {
                    self.award(p as usize, n, r)?;
                }
            }
            Stmt::Place {
                figure,
                owner,
                on,
                at: tile,
            } => self.exec_place(frame, at, *figure, owner.as_ref(), on, tile.as_ref())?,
            Stmt::Move { figure, to, at: tile } => self.exec_move(frame, at, figure, to, tile.as_ref())?,
            Stmt::Return { figure } => self.exec_return(frame, at, figure)?,
            Stmt::Swap { a, b } => self.exec_swap(frame, at, a, b)?,
            Stmt::DrawCard { deck, player } => {
                if let Value::Player(p) = self.eval_at(frame, at, player)? {
                    self.draw_card(*deck, p as usize)?;
                }
            }
            Stmt::Discard { card, player } => {
                let p = match player {
                    Some(p) => match self.eval_at(frame, at, p)? {
                        Value::Player(p) => p as usize,
                        _ => return Ok(false),
                    },
                    None => self.state.current(),
                };
                if let Value::Card(c) = self.eval_at(frame, at, card)? {
                    self.discard_card(p, c);
                }
            }
            Stmt::ExtraTile { keep, from } => {
                if let Some(tile) = self.draw(*from).map_err(Halt::Illegal)? {
                    self.state.add_extra(tile, *keep);
                    let player = self.state.current();
                    self.emit(Event::DrewExtra {
                        player: Player::at(player),
                        tile,
                    });
                }
            }
            Stmt::Strengthen { player, feature, by } => {
                if let (Value::Player(p), Value::Feature(f), Value::Int(n)) = (
                    self.eval_at(frame, at, player)?,
                    self.eval_at(frame, at, feature)?,
                    self.eval_at(frame, at, by)?,
                ) {
                    self.state.strengthen(f, p as usize, n);
                }
            }
            Stmt::Adjust {
                feature,
                replace,
                amount,
                reason,
            } => {
                if let (Value::Feature(f), Value::Int(n)) =
                    (self.eval_at(frame, at, feature)?, self.eval_at(frame, at, amount)?)
                {
                    self.adjust(f, *replace, n, *reason)?;
                }
            }
            Stmt::Delay { feature } => {
                if let Value::Feature(f) = self.eval_at(frame, at, feature)? {
                    self.delay(f);
                }
            }
            Stmt::ExtraTurn => self.state.grant_extra_turn(),
            Stmt::Steer { square } => {
                if let Value::Square(x, y) = self.eval_at(frame, at, square)? {
                    // The next turn's placement; in `setup`, the first turn's.
                    self.steers.push(Steer {
                        square: (x, y),
                        turn: self.turn + 1,
                    });
                }
            }
            Stmt::Set { var, of, value } => self.exec_set(rules, frame, at, *var, of.as_ref(), value)?,
            Stmt::Let { slot, value } => {
                let v = self.eval_at(frame, at, value)?;
                self.frames[frame as usize].locals[*slot as usize] = v;
            }
            Stmt::If { cond, then, otherwise } => {
                let holds = match code.compiled.statement(at) {
                    Some(fast) => self.with_frame(frame, |ev, env| fast.holds(&ev, env))?,
                    None => self.eval_at(frame, at, cond)? == Value::Bool(true),
                };
                let block = if holds { Some(*then) } else { *otherwise };
                if let Some(block) = block {
                    self.tasks.push(Task::Run { frame, block, pc: 0 });
                }
            }
            Stmt::ForEach {
                slot,
                domain,
                list,
                filter: _,
                body,
            } => {
                let mut items = self.items_at(frame, *domain, list.as_ref(), self.state.current())?;
                // Taken from the end, one at a time; `each` reads the filter
                // from the statement.
                items.reverse();
                self.tasks.push(Task::Each {
                    frame,
                    slot: *slot,
                    items,
                    at,
                    body: *body,
                });
            }
            Stmt::Choose { .. } => return Ok(self.exec_choose(code.compiled, frame, at, stmt)?),
            Stmt::ChooseOption { by, options } => {
                return Ok(self.exec_choose_option(code.compiled, frame, at, by, options)?)
            }
            Stmt::PlaceAtSpot { figure, owner, spot } => {
                self.exec_place_at_spot(frame, at, *figure, owner.as_ref(), *spot)?
            }
            Stmt::MoveToSpot { figure, spot } => {
                if let Value::Figure(id) = self.eval_at(frame, at, figure)? {
                    let owner = self
                        .state
                        .figure(id)
                        .map(|m| m.owner)
                        .or_else(|| self.state.spot_figure(id).map(|m| m.owner));
                    if let Some(owner) = owner {
                        let area = self.spot_area(*spot, owner);
                        self.state.move_to_spot(id, *spot, area);
                    }
                }
            }
            Stmt::Call { func, args } => {
                let f = &rules.pack.program.functions[*func as usize];
                let mut call_locals = self.locals(f.slots as usize);
                for (i, a) in args.iter().enumerate() {
                    call_locals[i] = self.eval_at(frame, at, a)?;
                }
                match &f.body {
                    FnBody::Block(b) => {
                        if self.depth() >= MAX_DEPTH {
                            return Err(EvalError::TooDeep.into());
                        }
                        self.push_frame(call_locals, f.span, *b);
                    }
                    _ => self.spare.values.keep(call_locals),
                }
            }
        }
        Ok(false)
    }

    /// `place figure for owner on feature`.
    fn exec_place(
        &mut self,
        frame: u32,
        at: (BlockId, u32),
        figure: FigureTypeId,
        owner: Option<&Expr>,
        on: &Expr,
        tile: Option<&Expr>,
    ) -> Result<(), EvalError> {
        let owner = match owner {
            Some(o) => match self.eval_at(frame, at, o)? {
                Value::Player(p) => Some(p),
                _ => return Ok(()),
            },
            None => None,
        };
        let tile = match tile {
            Some(t) => match self.eval_at(frame, at, t)? {
                Value::Tile(t) => Some(t),
                _ => return Ok(()),
            },
            None => None,
        };
        if let Value::Feature(f) = self.eval_at(frame, at, on)? {
            self.put_figure(figure, owner, f, tile);
        }
        Ok(())
    }

    /// Whose part of a spot a figure of `owner` goes into: none for a shared
    /// spot; for a `per_player` spot the owner's, a neutral figure's the
    /// current player's.
    fn spot_area(&self, spot: u16, owner: Option<Player>) -> Option<Player> {
        let per_player = self.rules.pack.program.spots[spot as usize].per_player;
        per_player.then(|| owner.unwrap_or(Player::at(self.state.current())))
    }

    /// `place FIGURE [of PLAYER] on spot NAME`: from the supply, if one is left.
    fn exec_place_at_spot(
        &mut self,
        frame: u32,
        at: (BlockId, u32),
        figure: FigureTypeId,
        owner: Option<&Expr>,
        spot: u16,
    ) -> Result<(), EvalError> {
        let owner = match owner {
            Some(o) => match self.eval_at(frame, at, o)? {
                Value::Player(p) => Some(Player(p)),
                _ => return Ok(()),
            },
            None => None,
        };
        let left = match owner {
            Some(p) => self.state.supply_of(p.index(), figure),
            None => self.state.neutral_supply(figure).expect("a figure type of the packs"),
        };
        if left > 0 {
            let area = self.spot_area(spot, owner);
            self.state.put_at_spot(figure, owner, spot, area);
        }
        Ok(())
    }

    /// `move figure to feature at tile`.
    fn exec_move(
        &mut self,
        frame: u32,
        at: (BlockId, u32),
        figure: &Expr,
        to: &Expr,
        tile: Option<&Expr>,
    ) -> Result<(), EvalError> {
        let who = self.eval_at(frame, at, figure)?;
        let tile = match tile {
            Some(t) => match self.eval_at(frame, at, t)? {
                Value::Tile(t) => Some(t),
                _ => return Ok(()),
            },
            None => None,
        };
        if let Value::Feature(f) = self.eval_at(frame, at, to)? {
            self.move_figure(&who, f, tile);
        }
        Ok(())
    }

    /// `return figure`: a figure, or the first on the board of a type.
    fn exec_return(&mut self, frame: u32, at: (BlockId, u32), figure: &Expr) -> Result<(), EvalError> {
        let id = match self.eval_at(frame, at, figure)? {
            Value::Figure(id) => Some(id),
            Value::FigureType(t) => self.state.figures().iter().find(|m| m.figure_type == t).map(|m| m.id),
            _ => None,
        };
        if let Some(id) = id {
            self.return_to_supply(id);
        }
        Ok(())
    }

    /// `swap a with b`: two figures on the board trade places.
    fn exec_swap(&mut self, frame: u32, at: (BlockId, u32), a: &Expr, b: &Expr) -> Result<(), EvalError> {
        if let (Value::Figure(x), Value::Figure(y)) = (self.eval_at(frame, at, a)?, self.eval_at(frame, at, b)?) {
            if let (Some(mx), Some(my)) = (self.state.figure(x).copied(), self.state.figure(y).copied()) {
                let mi = self.state.relocate(x, my.placed, my.seg).expect("on the board");
                let mj = self.state.relocate(y, mx.placed, mx.seg).expect("on the board");
                self.emit(Event::FigureSet { figure: mi });
                self.emit(Event::FigureSet { figure: mj });
                // Fired in reverse, so the first figure's handlers run first.
                self.fire_figure(EventKind::FigureMoved, y);
                self.fire_figure(EventKind::FigureMoved, x);
            }
        }
        Ok(())
    }

    /// `set var (of player or feature) to value`.
    fn exec_set(
        &mut self,
        rules: &Rules,
        frame: u32,
        at: (BlockId, u32),
        var: VarId,
        of: Option<&Expr>,
        value: &Expr,
    ) -> Result<(), EvalError> {
        let v = self.eval_at(frame, at, value)?;
        let k = rules.var_index[var as usize];
        let raw = match &v {
            Value::Int(n) => *n,
            Value::Bool(b) => i64::from(*b),
            _ => 0,
        };
        match of {
            None => self.state.set_game_var(var as usize, v),
            Some(o) => match self.eval_at(frame, at, o)? {
                Value::Player(p) => self.state.set_player_var(p as usize, k, raw),
                Value::Feature(f) => self.state.set_feature_var(f, k, raw),
                _ => {}
            },
        }
        Ok(())
    }

    /// `choose`: the options that pass the filter; none runs `otherwise`,
    /// some stop the machine for the player's answer.
    fn exec_choose(
        &mut self,
        compiled: &Compiled,
        frame: u32,
        at: (BlockId, u32),
        stmt: &Stmt,
    ) -> Result<bool, EvalError> {
        let Stmt::Choose {
            optional,
            by,
            slot,
            domain,
            list,
            filter,
            body,
            otherwise,
        } = stmt
        else {
            unreachable!("called for a choose")
        };
        let (player, options) = 'listed: {
            // A yes-or-no question (`may`) has one option, known without a look.
            if list.is_none() && asks_current_player_alone(by, *domain, *slot, filter.as_ref()) {
                let player = self.state.current() as u8;
                let mut options = self.spare.targets.take_with(CHOICE_ROOM);
                options.push(Target::Player(Player(player)));
                break 'listed (player, options);
            }
            let Value::Player(player) = self.chooser(compiled, frame, at, by)? else {
                return Ok(false);
            };
            let options = self.choose_options(compiled, frame, at, stmt, player)?;
            if options.is_empty() {
                self.spare.targets.keep(options);
                if let Some(b) = otherwise {
                    self.tasks.push(Task::Run {
                        frame,
                        block: *b,
                        pc: 0,
                    });
                }
                return Ok(false);
            }
            (player, options)
        };
        self.ask(Pending::Rule(RuleChoice {
            player,
            domain: *domain,
            optional: *optional,
            options,
            frame,
            slot: *slot,
            body: *body,
            otherwise: *otherwise,
            at,
        }));
        Ok(true)
    }

    /// The options of `choose` statement `stmt` (at `at`, running in
    /// `frame`) for `player` now: the members of its domain or list that
    /// pass its filter, in order. A view lists another player's pending
    /// choice again with this ([`Game::relist_choice`]), as the sample of
    /// what only they see may offer other options.
    pub(super) fn choose_options(
        &mut self,
        compiled: &Compiled,
        frame: u32,
        at: (BlockId, u32),
        stmt: &Stmt,
        player: u8,
    ) -> Result<Vec<Target>, EvalError> {
        let Stmt::Choose {
            slot,
            domain,
            list,
            filter,
            ..
        } = stmt
        else {
            return Ok(Vec::new());
        };
        // Every option is judged against the same state: counts over the
        // board that do not depend on the option are counted once, in a
        // memo made for a filter that may count.
        let memo = compiled.choose(at).is_none_or(|c| c.memo).then(Memo::default);
        let mut options = self.spare.targets.take_with(CHOICE_ROOM);
        let walked = filter.as_ref().map(|expr| Walked { expr, slot: *slot });
        let filter: Option<&dyn Filter> = match compiled.statement(at) {
            Some(fast) => Some(fast),
            None => walked.as_ref().map(|f| f as &dyn Filter),
        };
        let judged = match list {
            // Members of a whole domain are judged as the scan finds
            // them: its leading member test is not judged again
            // (`Filter::holds_found`), and no list of them is made.
            None => self.with_frame(frame, |ev, env| {
                let ev = Evaluator {
                    memo: memo.as_ref(),
                    ..ev
                };
                // The members met are charged once the scan is done:
                // the same total as when they were listed first, so a
                // choice that ran out of budget still does (near the
                // limit, a filter's own failure may now be met first).
                let mut owed = 0;
                // A feature is judged by its root where the filter can be,
                // with nothing bound (`CompiledFilter::feature`).
                let on_feature = filter.and_then(|f| f.feature_test());
                ev.scan_candidates(*domain, *slot, filter, player as usize, env, |env, item, charge| {
                    owed += usize::from(charge);
                    if let (Some(test), Value::Feature(f)) = (on_feature, &item) {
                        if test(&ev, env, *f)? {
                            options.push(Target::Feature(*f));
                        }
                        return Ok(());
                    }
                    let target = value_target(&item);
                    env.locals[*slot as usize] = item;
                    if filter.map_or(Ok(true), |f| f.holds_found(&ev, env, *domain))? {
                        options.push(target);
                    }
                    Ok(())
                })?;
                ev.charge(owed)
            }),
            // A list's members are listed (and charged) first, as the
            // list is a value; a figure on it that has left the board is
            // no option.
            Some(l) => {
                let mut items = std::mem::take(&mut self.spare.members);
                items.reserve(CHOICE_ROOM);
                let judged = self.with_frame(frame, |ev, env| {
                    ev.domain_items_into(*domain, Some(l), player as usize, env, &mut items)?;
                    let ev = Evaluator {
                        memo: memo.as_ref(),
                        ..ev
                    };
                    for item in items.drain(..) {
                        let target = value_target(&item);
                        let off_board = matches!(item, Value::Figure(id) if ev.state.figure(id).is_none());
                        env.locals[*slot as usize] = item;
                        if filter.map_or(Ok(true), |f| f.holds(&ev, env))? && !off_board {
                            options.push(target);
                        }
                    }
                    Ok::<_, EvalError>(())
                });
                items.clear();
                self.spare.members = items;
                judged
            }
        };
        match judged {
            Ok(()) => Ok(options),
            Err(e) => {
                self.spare.targets.keep(options);
                Err(e)
            }
        }
    }

    /// `choose { NAME [when COND] { ... } ... }`: the options whose `when`
    /// holds; none does nothing, some stop the machine for the player's
    /// pick (a `Target::Option`, which runs that option's body).
    fn exec_choose_option(
        &mut self,
        compiled: &Compiled,
        frame: u32,
        at: (BlockId, u32),
        by: &Expr,
        arms: &[OptionArm],
    ) -> Result<bool, EvalError> {
        let Value::Player(player) = self.chooser(compiled, frame, at, by)? else {
            return Ok(false);
        };
        let options = self.offered_arms(frame, at, arms)?;
        let Some(&Target::Option(first)) = options.first() else {
            self.spare.targets.keep(options);
            return Ok(false);
        };
        self.ask(Pending::Rule(RuleChoice {
            player,
            domain: Domain::Options,
            optional: false,
            options,
            frame,
            slot: 0,
            body: first,
            otherwise: None,
            at,
        }));
        Ok(true)
    }

    /// The arms of a `choose { NAME [when COND] { ... } ... }` (at `at`,
    /// running in `frame`) whose `when` holds now, in order.
    fn offered_arms(&mut self, frame: u32, at: (BlockId, u32), arms: &[OptionArm]) -> Result<Vec<Target>, EvalError> {
        let mut options = self.spare.targets.take_with(CHOICE_ROOM);
        for arm in arms {
            let offered = match &arm.when {
                Some(w) => self.eval_at(frame, at, w),
                None => Ok(Value::Bool(true)),
            };
            match offered {
                Ok(Value::Bool(true)) => options.push(Target::Option(arm.body)),
                Ok(_) => {}
                Err(e) => {
                    self.spare.targets.keep(options);
                    return Err(e);
                }
            }
        }
        Ok(options)
    }

    /// The options of a rule's pending choice listed again in this game's
    /// state (a view's sample of what the viewer cannot see, which may
    /// offer other options than the real game did); `None` for a choice
    /// whose options nothing hidden can change (a `may` asks its one
    /// question whatever the sample).
    pub(super) fn relist_choice(
        &mut self,
        compiled: &Compiled,
        choice: &RuleChoice,
    ) -> Option<Result<Vec<Target>, EvalError>> {
        let rules = Arc::clone(&self.rules);
        let stmt: &Stmt = &rules.pack.program.statement_at(choice.at)?.stmt;
        match stmt {
            Stmt::Choose { .. } => {
                if is_may(stmt) {
                    return None;
                }
                Some(self.choose_options(compiled, choice.frame, choice.at, stmt, choice.player))
            }
            Stmt::ChooseOption { options, .. } => Some(self.offered_arms(choice.frame, choice.at, options)),
            _ => None,
        }
    }

    /// The segment of feature `f` a figure goes on: its segment on tile `at`
    /// when given, else the segment the value names first (so a location a
    /// player picked wins).
    fn segment_at(&self, f: FeatureId, at: Option<u16>) -> Option<(super::ids::PlacedId, u8)> {
        self.state
            .features()
            .members(f)
            .find(|(p, _)| at.is_none_or(|t| p.0 == t))
    }

    /// A figure from supply onto feature `f`, if the figure may go there and
    /// one is left: on its segment on tile `at` when given (nothing when it
    /// has none there), else at the segment the value names (the one a
    /// player picked).
    fn put_figure(&mut self, figure: FigureTypeId, owner: Option<u8>, f: FeatureId, at: Option<u16>) {
        let Some((placed, seg)) = self.segment_at(f, at) else {
            return;
        };
        if !self.state.may_stand(&self.rules, figure, placed, seg) {
            return;
        }
        let left = match owner {
            Some(p) => self.state.supply_of(p as usize, figure),
            None => self.state.neutral_supply(figure).expect("a figure type of the packs"),
        };
        if left == 0 {
            return;
        }
        let owner = match self.rules.pack.figures[figure as usize].ownership {
            Ownership::PerPlayer => owner,
            Ownership::Neutral => None,
        };
        let figure = self.state.deploy(figure, owner.map(Player), placed, seg);
        self.emit(Event::FigureSet { figure });
        self.fire_figure(EventKind::FigurePlaced, figure.id);
    }

    /// Fires a figure's event at once (before the next statement).
    fn fire_figure(&mut self, event: EventKind, id: u32) {
        let depth = self.depth();
        self.fire_one(event, depth, || Value::Figure(id));
    }

    /// Moves a figure (or the first on the board of a type; a neutral one
    /// off the board comes back) to a feature, at tile `at` if given.
    fn move_figure(&mut self, who: &Value, f: FeatureId, at: Option<u16>) {
        let id = match who {
            Value::Figure(id) => Some(*id),
            Value::FigureType(t) => match self.state.figures().iter().find(|m| m.figure_type == *t) {
                Some(m) => Some(m.id),
                None => {
                    // A neutral figure off the board comes back.
                    if self.rules.pack.figures[*t as usize].ownership == Ownership::Neutral {
                        self.put_figure(*t, None, f, at);
                    }
                    None
                }
            },
            _ => None,
        };
        let Some(id) = id else { return };
        let Some((placed, seg)) = self.segment_at(f, at) else {
            return;
        };
        let Some(m) = self.state.figure(id) else {
            // A figure at a spot comes onto the board.
            if let Some(m) = self.state.spot_figure(id) {
                if self.state.may_stand(&self.rules, m.figure_type, placed, seg) {
                    let figure = self.state.move_from_spot(id, placed, seg).expect("at a spot");
                    self.emit(Event::FigureSet { figure });
                }
            }
            return;
        };
        if !self.state.may_stand(&self.rules, m.figure_type, placed, seg) {
            return;
        }
        let figure = self.state.relocate(id, placed, seg).expect("on the board");
        self.emit(Event::FigureSet { figure });
        self.fire_figure(EventKind::FigureMoved, id);
    }

    /// Takes a figure off the board to its owner's supply (or the box).
    pub(super) fn return_to_supply(&mut self, id: u32) {
        let Some(m) = self.state.return_figure(id) else {
            // From a spot: back to the supply, and its event (the figure is
            // then nowhere, so rules see no owner or type for it).
            if self.state.return_from_spot(id).is_some() {
                let depth = self.depth();
                self.fire_one(EventKind::FigureReturned, depth, || Value::Figure(id));
            }
            return;
        };
        self.emit(Event::Returned { figure: m });
        self.fire_figure(EventKind::FigureReturned, m.id);
    }
}

/// Whether `stmt` is a yes-or-no question (`may { ... }`): a `choose` of
/// the current player by the current player alone.
pub(super) fn is_may(stmt: &Stmt) -> bool {
    matches!(stmt, Stmt::Choose { by, slot, domain, list: None, filter, .. }
        if asks_current_player_alone(by, *domain, *slot, filter.as_ref()))
}

/// Whether a `choose` by the current player among the players passes only
/// the current player (`p == current_player`, as `may` is lowered): its
/// one option needs no look at the players, and no frame to judge it in.
fn asks_current_player_alone(by: &Expr, domain: Domain, slot: u16, filter: Option<&Expr>) -> bool {
    let current =
        |e: &Expr| matches!(e, Expr::Query { builtin: Builtin::CurrentPlayer, of: None, args } if args.is_empty());
    let Some(Expr::Binary(BinOp::Eq, l, r)) = filter else {
        return false;
    };
    domain == Domain::Players
        && current(by)
        && ((matches!(**l, Expr::Local(s) if s == slot) && current(r))
            || (matches!(**r, Expr::Local(s) if s == slot) && current(l)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundled::over_base;
    use crate::engine::Rng;
    use crate::engine::{Choice, Decision, Setup};
    use std::sync::Arc;

    /// A pack whose `tile_placed` handler asks the current player `question`
    /// (a `choose` statement with body `{ score 1 ... }`).
    fn asking(question: &str) -> Arc<Rules> {
        let text = format!(
            "pack asking\nlanguage 1\nrequires base\n\
             on tile_placed(t) {{\n  {question} {{\n    score 1 to current_player reason \"yes\"\n  }}\n}}\n"
        );
        Arc::new(Rules::new(over_base("asking", text)))
    }

    /// The one choose statement of a pack's handlers' bodies.
    fn the_choose(rules: &Rules) -> &Stmt {
        let program = &rules.pack.program;
        let handler = program.handlers.last().unwrap();
        &program.blocks[handler.body as usize][0].stmt
    }

    fn alone(stmt: &Stmt) -> bool {
        let Stmt::Choose {
            by,
            domain,
            slot,
            filter,
            list: None,
            ..
        } = stmt
        else {
            return false;
        };
        asks_current_player_alone(by, *domain, *slot, filter.as_ref())
    }

    /// A `may` (its one option known without a look) offers what the same
    /// question asked by a look at the players offers: at every decision of
    /// random games, the same options, and the same scores at the end; the
    /// question was answered both ways.
    #[test]
    fn a_may_offers_what_a_look_at_the_players_offers() {
        let may = asking("may");
        let look = asking("may choose player p where p == current_player and p.score >= 0");
        assert!(alone(the_choose(&may)), "may is asked without a look");
        assert!(!alone(the_choose(&look)), "the longer filter is judged by a look");
        let (mut yes, mut no) = (0, 0);
        for seed in 0..3 {
            let mut a = Game::new(may.clone(), Setup::new(2 + seed as usize).seed(seed)).unwrap();
            let mut b = Game::new(look.clone(), Setup::new(2 + seed as usize).seed(seed)).unwrap();
            let mut rng = Rng::new(seed);
            while a.decision().is_some() {
                let options = a.options();
                assert_eq!(options, b.options(), "seed {seed}, turn {}", a.turn());
                let choice = options[rng.below(options.len())];
                if let Some(Decision::Choose { .. }) = a.decision() {
                    match choice {
                        Choice::Pick(_) => yes += 1,
                        _ => no += 1,
                    }
                }
                a.apply(choice).unwrap();
                b.apply(choice).unwrap();
            }
            assert_eq!(a.scores(), b.scores(), "seed {seed}");
        }
        assert!(yes > 20 && no > 20, "answered yes {yes} times, no {no} times");
    }
}
