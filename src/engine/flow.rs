//! The turn as a stack of tasks. Core steps (draw, place, deploy, score)
//! and rule statements are tasks; an event pushes its handlers; a `choose`
//! stops the machine with a decision and the rest of the stack waits for the
//! answer. Every step counts against a budget, and handlers nest only so
//! deep, so a runaway rule ends the game with an error naming its place.

use super::eval::{Env, EvalError, Value};
use super::features::FeatureId;
use super::game::{Adjustment, ErrorKind, Event, Game, GameError, Meeple, Phase, Steer, Target};
use crate::ir::expr::Expr;
use crate::ir::program::{ActionId, BlockId, Domain, EventKind, FnBody, Stmt, Window};
use crate::ir::{Ownership, ReasonId, TileId, Topology};
use crate::source::Span;

/// Steps the machine may take between two decisions.
pub const STEP_BUDGET: u32 = 200_000;
/// Steps the machine may take in one turn, decisions included.
pub const TURN_STEP_BUDGET: u64 = 2_000_000;
/// Most events a game's log, and most figures its record of figures that
/// left the board, may hold: a game's memory is bounded.
pub const MAX_LOG_EVENTS: usize = 2_000_000;
/// How deeply handlers may trigger further handlers.
pub const MAX_DEPTH: u16 = 32;

/// One unit of work.
#[derive(Clone, Debug)]
pub(super) enum Task {
    StartTurn,
    Draw,
    AwaitPlace(TileId),
    AwaitDeploy(u16),
    /// Check the features around a placed tile for completion, then end the turn.
    Scoring(u16),
    /// Score a feature if it is complete and not yet scored.
    Complete(FeatureId),
    Score {
        feature: FeatureId,
        completed: bool,
    },
    ReturnAll(FeatureId),
    EndTurn,
    /// Make a player discard down to the hand limit.
    Trim(u8),
    NextTurn,
    /// The stack is empty: game-end event, cards, final scoring.
    GameEnd,
    /// Resolve the game-end cards of players from `next` on, in turn order,
    /// each as the current player; then the current player is `saved` again.
    EndCards {
        next: u8,
        saved: u8,
    },
    /// A card resolved on drawing goes to its discard pile.
    ToDiscard(u16),
    FinalScoring,
    Finish,
    /// An event fires: every handler's `when` is judged now, against the
    /// state at this moment, and the handlers whose guard held are queued.
    Fire {
        event: EventKind,
        args: Vec<Value>,
        depth: u16,
    },
    /// Handlers chosen when their event fired, the next one last.
    Handlers {
        args: Vec<Value>,
        chosen: Vec<u16>,
        depth: u16,
    },
    /// Run statement `pc` of a block in a frame.
    Run {
        frame: u32,
        block: BlockId,
        pc: u32,
    },
    /// A `for each` loop: the items left, the slot, the filter and the body.
    Each {
        frame: u32,
        slot: u16,
        items: Vec<Value>,
        filter: Option<Expr>,
        body: BlockId,
    },
    /// Drop the top frame.
    PopFrame,
}

/// The locals of a running handler, action or function.
#[derive(Clone, Debug)]
pub(super) struct Frame {
    pub locals: Vec<Value>,
    /// Where the rule is written, for error messages.
    pub origin: Span,
    pub depth: u16,
}

/// A `choose` waiting for its answer.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Pending {
    pub player: u8,
    pub domain: Domain,
    pub optional: bool,
    pub options: Vec<Target>,
    pub frame: u32,
    pub slot: u16,
    pub body: BlockId,
    pub otherwise: Option<BlockId>,
    /// The engine asks the player to discard down to the hand limit.
    pub trim: bool,
}

fn target_value(t: Target) -> Value {
    match t {
        Target::None => Value::None,
        Target::Player(p) => Value::Player(p),
        Target::Feature(f) => Value::Feature(f),
        Target::Figure(id) => Value::Figure(id),
        Target::Tile(t) => Value::Tile(t),
        Target::Card(c) => Value::Card(c),
        Target::Square(x, y) => Value::Square(x, y),
    }
}

fn value_target(v: &Value) -> Target {
    match v {
        Value::Player(p) => Target::Player(*p),
        Value::Feature(f) => Target::Feature(*f),
        Value::Figure(id) => Target::Figure(*id),
        Value::Tile(t) => Target::Tile(*t),
        Value::Card(c) => Target::Card(*c),
        Value::Square(x, y) => Target::Square(*x, *y),
        _ => Target::None,
    }
}

impl Game {
    /// Sets the game variables and runs `setup` and the first turn's start.
    pub(super) fn begin(&mut self) -> Result<(), GameError> {
        let vars = &self.rules.clone().pack.program.vars;
        for (i, var) in vars.iter().enumerate() {
            if let Some(init) = &var.init {
                let v = self.eval(
                    init,
                    &mut Env {
                        locals: &mut Vec::new(),
                        subject: None,
                        depth: 0,
                    },
                );
                self.game_vars[i] = v.map_err(|e| self.located(e, var.span))?;
            } else if var.ty == crate::ir::expr::Type::Int {
                self.game_vars[i] = Value::Int(0);
            } else if var.ty == crate::ir::expr::Type::Bool {
                self.game_vars[i] = Value::Bool(false);
            }
        }
        self.tasks.push(Task::StartTurn);
        self.fire(EventKind::Setup, Vec::new(), 0);
        self.run()
    }

    fn located(&self, e: EvalError, span: Span) -> GameError {
        e.kind()
            .error(format!("{e} in the rule at {}", self.rules.pack.locate(span)))
    }

    /// Pushes tasks to run in the order given.
    fn then(&mut self, tasks: impl IntoIterator<Item = Task>) {
        let at = self.tasks.len();
        self.tasks.extend(tasks);
        self.tasks[at..].reverse();
    }

    /// Queues an event's handlers, if it has any.
    fn fire(&mut self, event: EventKind, args: Vec<Value>, depth: u16) {
        if !self.rules.handlers_of(event).is_empty() {
            self.tasks.push(Task::Fire { event, args, depth });
        }
    }

    fn depth(&self) -> u16 {
        self.frames.last().map_or(0, |f| f.depth)
    }

    pub(super) fn after_place(&mut self, placed: u16) {
        self.tasks.push(Task::AwaitDeploy(placed));
        let depth = self.depth();
        self.fire(EventKind::DeployPhase, vec![Value::Tile(placed)], depth);
        self.fire(EventKind::TilePlaced, vec![Value::Tile(placed)], depth);
    }

    pub(super) fn after_deploy(&mut self, placed: u16, meeple: Option<u32>) {
        self.tasks.push(Task::Scoring(placed));
        if let Some(id) = meeple {
            let depth = self.depth();
            self.fire(EventKind::FigureDeployed, vec![Value::Figure(id)], depth);
        }
    }

    /// The targets an action may be taken on now (`Target::None` once for an action without a domain).
    pub(super) fn action_targets(&self, action: ActionId) -> Vec<Target> {
        let Some(a) = self.rules.pack.program.actions.get(action as usize) else {
            return Vec::new();
        };
        // Each look at an action's targets has the whole evaluation budget.
        self.work.set(0);
        if a.card.is_some_and(|c| !self.hands[self.current].contains(&c)) {
            return Vec::new();
        }
        let mut locals = vec![Value::None; a.slots as usize];
        let mut env = Env {
            locals: &mut locals,
            subject: None,
            depth: 0,
        };
        if let Some(when) = &a.when {
            if self.eval(when, &mut env) != Ok(Value::Bool(true)) {
                return Vec::new();
            }
        }
        let mut targets = match &a.domain {
            None => vec![Target::None],
            Some((domain, filter)) => self
                .domain_items(*domain, None, self.current, &mut env)
                .unwrap_or_default()
                .into_iter()
                .filter(|item| {
                    env.locals[0] = item.clone();
                    filter
                        .as_ref()
                        .is_none_or(|f| self.eval(f, &mut env) == Ok(Value::Bool(true)))
                })
                .map(|v| value_target(&v))
                .collect(),
        };
        // A card's play uses up the card, and a deploy action ends the
        // decision; any other action is offered once a turn on each target,
        // so no action can be taken again and again without changing anything.
        if a.card.is_none() && a.window == Window::BeforePlace {
            targets.retain(|t| {
                !self
                    .taken
                    .iter()
                    .any(|(x, done)| *x == action && self.same_target(*done, *t))
            });
        }
        targets
    }

    pub(super) fn start_action(&mut self, action: ActionId, target: Target) {
        let a = &self.rules.pack.program.actions[action as usize];
        let mut locals = vec![Value::None; a.slots as usize];
        if let Some(first) = locals.first_mut() {
            *first = target_value(target);
        }
        let (body, origin) = (a.body, a.span);
        self.push_frame(locals, origin, body);
    }

    fn push_frame(&mut self, locals: Vec<Value>, origin: Span, body: BlockId) {
        let depth = self.depth() + 1;
        self.frames.push(Frame { locals, origin, depth });
        self.tasks.push(Task::PopFrame);
        self.tasks.push(Task::Run {
            frame: (self.frames.len() - 1) as u32,
            block: body,
            pc: 0,
        });
    }

    pub(super) fn resume_pick(&mut self, p: &Pending, target: Target) {
        if p.trim {
            if let Target::Card(c) = target {
                self.discard_card(p.player as usize, c);
            }
            self.tasks.push(Task::Trim(p.player));
            return;
        }
        self.frames[p.frame as usize].locals[p.slot as usize] = target_value(target);
        self.tasks.push(Task::Run {
            frame: p.frame,
            block: p.body,
            pc: 0,
        });
    }

    pub(super) fn resume_decline(&mut self, p: &Pending) {
        if let Some(b) = p.otherwise {
            self.tasks.push(Task::Run {
                frame: p.frame,
                block: b,
                pc: 0,
            });
        }
    }

    /// Runs tasks until a decision is needed or the game ends.
    pub(super) fn run(&mut self) -> Result<(), GameError> {
        let mut steps = 0u32;
        self.work.set(0);
        let mut last: Option<Span> = None;
        while let Some(task) = self.tasks.pop() {
            steps += 1;
            if steps > STEP_BUDGET {
                let at = last.map_or("the rules".to_string(), |s| self.rules.pack.locate(s));
                return Err(ErrorKind::Runaway.error(format!(
                    "a rule ran away: more than {STEP_BUDGET} steps without a decision (last at {at})"
                )));
            }
            if self.log.len() > MAX_LOG_EVENTS || self.gone.len() > MAX_LOG_EVENTS {
                let at = last.map_or("the rules".to_string(), |s| self.rules.pack.locate(s));
                return Err(ErrorKind::Runaway.error(format!(
                    "a rule ran away: the game logged more than {MAX_LOG_EVENTS} events (last at {at})"
                )));
            }
            self.turn_steps += 1;
            if self.turn_steps > TURN_STEP_BUDGET {
                let at = last.map_or("the rules".to_string(), |s| self.rules.pack.locate(s));
                return Err(ErrorKind::Runaway.error(format!(
                    "a rule ran away: more than {TURN_STEP_BUDGET} steps in one turn (last at {at})"
                )));
            }
            match task {
                Task::StartTurn => {
                    self.turn += 1;
                    (self.turn_decisions, self.turn_steps, self.asking) = (0, 0, None);
                    self.taken.clear();
                    self.tasks.push(Task::Draw);
                    self.fire(EventKind::TurnStart, vec![Value::Player(self.current as u8)], 0);
                }
                Task::Draw => match self.draw()? {
                    None => self.tasks.push(Task::GameEnd),
                    Some(tile) => {
                        let player = self.current;
                        self.emit(Event::Drew { player, tile });
                        if self.fits_anywhere(tile) {
                            self.tasks.push(Task::AwaitPlace(tile));
                            self.fire(EventKind::TileDrawn, vec![Value::Player(player as u8)], 0);
                        } else {
                            self.discarded += 1;
                            self.emit(Event::Discarded { player, tile });
                            self.tasks.push(Task::Draw);
                        }
                    }
                },
                Task::AwaitPlace(tile) => {
                    self.phase = Phase::Place(tile);
                    return Ok(());
                }
                Task::AwaitDeploy(placed) => {
                    self.phase = Phase::Deploy(placed);
                    return Ok(());
                }
                Task::Scoring(placed) => {
                    let candidates = self.completion_candidates(placed);
                    self.tasks.push(Task::EndTurn);
                    self.then(candidates.into_iter().map(Task::Complete));
                }
                Task::Complete(f) => {
                    let f = self.features.find(f);
                    if !self.features.is_done(f)
                        && self.completed(f).map_err(|e| self.kind_error(f, "complete when", e))?
                    {
                        self.features.set_done(f);
                        let arg = || vec![Value::Feature(f)];
                        self.then([
                            Task::Fire {
                                event: EventKind::FeatureCompleted,
                                args: arg(),
                                depth: 0,
                            },
                            Task::Score {
                                feature: f,
                                completed: true,
                            },
                            Task::Fire {
                                event: EventKind::FeatureScored,
                                args: arg(),
                                depth: 0,
                            },
                            Task::ReturnAll(f),
                            Task::Fire {
                                event: EventKind::FeatureDone,
                                args: arg(),
                                depth: 0,
                            },
                        ]);
                    }
                }
                Task::Score { feature, completed } => self.score_feature(feature, completed)?,
                Task::ReturnAll(f) if self.delayed.contains(&self.features.find(f)) => {}
                Task::ReturnAll(f) => {
                    let players: Vec<Meeple> = self.meeples_on(f).filter(|m| m.owner.is_some()).copied().collect();
                    for m in players.into_iter().rev() {
                        self.remove_meeple(m.id);
                    }
                }
                Task::EndTurn => {
                    self.then([Task::Trim(self.current as u8), Task::NextTurn]);
                    self.fire(EventKind::TurnEnd, vec![Value::Player(self.current as u8)], 0);
                }
                Task::Trim(player) => {
                    let hand = &self.hands[player as usize];
                    let program = &self.rules.pack.program;
                    let over = program
                        .hand_limits
                        .iter()
                        .find(|h| hand.iter().filter(|c| h.covers(program.deck_of(**c))).count() > h.limit as usize);
                    if let Some(limit) = over {
                        let mut options: Vec<Target> = Vec::new();
                        for c in hand.iter().filter(|c| limit.covers(program.deck_of(**c))) {
                            if !options.contains(&Target::Card(*c)) {
                                options.push(Target::Card(*c));
                            }
                        }
                        self.phase = Phase::Choose(Box::new(Pending {
                            player,
                            domain: Domain::Cards,
                            optional: false,
                            options,
                            frame: 0,
                            slot: 0,
                            body: 0,
                            otherwise: None,
                            trim: true,
                        }));
                        return Ok(());
                    }
                }
                Task::GameEnd => {
                    self.then([
                        Task::EndCards {
                            next: 0,
                            saved: self.current as u8,
                        },
                        Task::FinalScoring,
                    ]);
                    self.fire(EventKind::GameEnd, Vec::new(), 0);
                }
                Task::EndCards { next: player, saved } => {
                    if (player as usize) >= self.players {
                        self.current = saved as usize;
                    } else {
                        self.tasks.push(Task::EndCards {
                            next: player + 1,
                            saved,
                        });
                        self.current = player as usize;
                        let program = &self.rules.clone().pack.program;
                        let cards: Vec<u16> = self.hands[player as usize]
                            .iter()
                            .copied()
                            .filter(|c| program.cards.get(*c as usize).is_some_and(|k| k.at_end.is_some()))
                            .collect();
                        for card in cards.into_iter().rev() {
                            let (block, slots) = program.cards[card as usize].at_end.expect("filtered above");
                            self.discard_card(player as usize, card);
                            self.push_frame(
                                vec![Value::None; slots as usize],
                                program.cards[card as usize].span,
                                block,
                            );
                        }
                    }
                }
                Task::ToDiscard(card) => {
                    let deck = self.rules.pack.program.deck_of(card);
                    self.discards[deck as usize].push(card);
                }
                Task::NextTurn => {
                    // Extra tiles drawn after this turn's placement go where their rule said.
                    for (tile, keep) in std::mem::take(&mut self.extras) {
                        if keep {
                            self.stack.push(tile);
                        } else {
                            self.discarded += 1;
                        }
                        self.emit(Event::TileSetAside { tile, kept: keep });
                    }
                    self.current = (self.current + 1) % self.players;
                    self.placed_tile = None;
                    self.tasks.push(Task::StartTurn);
                }
                Task::FinalScoring => {
                    for (player, points, reason) in std::mem::take(&mut self.owed) {
                        self.award(player, points, reason)
                            .map_err(|e| self.reason_error(reason, e))?;
                    }
                    let mut roots: Vec<FeatureId> =
                        self.meeples.iter().map(|m| self.feature_of(m.placed, m.seg)).collect();
                    roots.sort_unstable();
                    roots.dedup();
                    roots.retain(|f| !self.features.is_done(*f));
                    roots.sort_by_key(|f| (self.features.kind(*f), *f));
                    self.tasks.push(Task::Finish);
                    self.fire(EventKind::GameOver, Vec::new(), 0);
                    let scoring: Vec<Task> = roots
                        .into_iter()
                        .flat_map(|f| {
                            [
                                Task::Score {
                                    feature: f,
                                    completed: false,
                                },
                                Task::Fire {
                                    event: EventKind::FeatureScored,
                                    args: vec![Value::Feature(f)],
                                    depth: 0,
                                },
                            ]
                        })
                        .collect();
                    self.then(scoring);
                }
                Task::Finish => {
                    self.phase = Phase::Over;
                    self.emit(Event::Ended);
                    return Ok(());
                }
                Task::Fire { event, args, depth } => {
                    let mut chosen = Vec::new();
                    for &h in self.rules.clone().handlers_of(event).iter().rev() {
                        let handler = &self.rules.pack.program.handlers[h as usize];
                        last = Some(handler.span);
                        let Some(cond) = &handler.when else {
                            chosen.push(h);
                            continue;
                        };
                        let mut locals = vec![Value::None; handler.slots.max(args.len() as u16) as usize];
                        locals[..args.len()].clone_from_slice(&args);
                        let mut env = Env {
                            locals: &mut locals,
                            subject: None,
                            depth: 0,
                        };
                        let held = self.eval(cond, &mut env).map_err(|e| self.located(e, handler.span))?;
                        if held == Value::Bool(true) {
                            chosen.push(h);
                        }
                    }
                    if !chosen.is_empty() {
                        self.tasks.push(Task::Handlers { args, chosen, depth });
                    }
                }
                Task::Handlers {
                    args,
                    mut chosen,
                    depth,
                } => {
                    let Some(h) = chosen.pop() else { continue };
                    let handler = &self.rules.pack.program.handlers[h as usize];
                    let (body, origin, slots) = (handler.body, handler.span, handler.slots);
                    last = Some(origin);
                    if depth >= MAX_DEPTH {
                        return Err(ErrorKind::Runaway.error(format!(
                            "a rule ran away: handlers triggered each other {MAX_DEPTH} deep (at {})",
                            self.rules.pack.locate(origin)
                        )));
                    }
                    let mut locals = vec![Value::None; slots.max(args.len() as u16) as usize];
                    locals[..args.len()].clone_from_slice(&args);
                    if !chosen.is_empty() {
                        self.tasks.push(Task::Handlers { args, chosen, depth });
                    }
                    self.frames.push(Frame {
                        locals,
                        origin,
                        depth: depth + 1,
                    });
                    self.tasks.push(Task::PopFrame);
                    self.tasks.push(Task::Run {
                        frame: (self.frames.len() - 1) as u32,
                        block: body,
                        pc: 0,
                    });
                }
                Task::Run { frame, block, pc } => {
                    let rules = self.rules.clone();
                    let stmts = &rules.pack.program.blocks[block as usize];
                    let Some(stmt) = stmts.get(pc as usize) else { continue };
                    if (pc as usize) + 1 < stmts.len() {
                        self.tasks.push(Task::Run {
                            frame,
                            block,
                            pc: pc + 1,
                        });
                    }
                    last = Some(stmt.span);
                    let stopped = self.exec(frame, &stmt.stmt).map_err(|e| match e {
                        EvalError::Illegal(e) => e,
                        e => self.located(e, stmt.span),
                    })?;
                    if stopped {
                        return Ok(());
                    }
                }
                Task::Each {
                    frame,
                    slot,
                    mut items,
                    filter,
                    body,
                } => {
                    while !items.is_empty() {
                        let item = items.remove(0);
                        self.frames[frame as usize].locals[slot as usize] = item;
                        let keep = match &filter {
                            Some(f) => self.eval_in(frame, f)? == Value::Bool(true),
                            None => true,
                        };
                        if keep {
                            self.tasks.push(Task::Each {
                                frame,
                                slot,
                                items,
                                filter,
                                body,
                            });
                            self.tasks.push(Task::Run {
                                frame,
                                block: body,
                                pc: 0,
                            });
                            break;
                        }
                    }
                }
                Task::PopFrame => {
                    self.frames.pop();
                }
            }
        }
        Ok(())
    }

    fn kind_error(&self, f: FeatureId, clause: &str, e: EvalError) -> GameError {
        let kind = &self.rules.pack.kinds[self.features.kind(f) as usize];
        e.kind().error(format!(
            "{e} in `{clause}` of feature `{}` ({})",
            kind.name,
            self.rules.pack.locate(kind.span)
        ))
    }

    fn eval_in(&mut self, frame: u32, expr: &Expr) -> Result<Value, GameError> {
        let mut locals = std::mem::take(&mut self.frames[frame as usize].locals);
        let v = self.eval(
            expr,
            &mut Env {
                locals: &mut locals,
                subject: None,
                depth: 0,
            },
        );
        self.frames[frame as usize].locals = locals;
        let origin = self.frames[frame as usize].origin;
        v.map_err(|e| self.located(e, origin))
    }

    /// Runs one statement; `Ok(true)` when it stopped the machine for a decision.
    fn exec(&mut self, frame: u32, stmt: &Stmt) -> Result<bool, EvalError> {
        let mut locals = std::mem::take(&mut self.frames[frame as usize].locals);
        let result = self.exec_with(frame, stmt, &mut locals);
        self.frames[frame as usize].locals = locals;
        result
    }

    fn exec_with(&mut self, frame: u32, stmt: &Stmt, locals: &mut Vec<Value>) -> Result<bool, EvalError> {
        let mut env = Env {
            locals,
            subject: None,
            depth: 0,
        };
        match stmt {
            Stmt::Score { amount, to, reason } => {
                if let (Value::Int(n), Value::Player(p)) = (self.eval(amount, &mut env)?, self.eval(to, &mut env)?) {
                    self.award(p as usize, n, *reason)?;
                }
            }
            Stmt::Place { figure, owner, on } => {
                let owner = match owner {
                    Some(o) => match self.eval(o, &mut env)? {
                        Value::Player(p) => Some(p),
                        _ => return Ok(false),
                    },
                    None => None,
                };
                if let Value::Feature(f) = self.eval(on, &mut env)? {
                    self.put_figure(*figure, owner, f);
                }
            }
            Stmt::Move { figure, to, at } => {
                let who = self.eval(figure, &mut env)?;
                let at = match at {
                    Some(t) => match self.eval(t, &mut env)? {
                        Value::Tile(t) => Some(t),
                        _ => return Ok(false),
                    },
                    None => None,
                };
                if let Value::Feature(f) = self.eval(to, &mut env)? {
                    self.move_figure(&who, f, at);
                }
            }
            Stmt::DrawCard { deck, player } => {
                if let Value::Player(p) = self.eval(player, &mut env)? {
                    self.draw_card(*deck, p as usize)?;
                }
            }
            Stmt::ExtraTile { keep } => {
                if let Some(tile) = self.draw().map_err(EvalError::Illegal)? {
                    self.extras.push((tile, *keep));
                    self.emit(Event::DrewExtra {
                        player: self.current,
                        tile,
                    });
                }
            }
            Stmt::Discard { card, player } => {
                let p = match player {
                    Some(p) => match self.eval(p, &mut env)? {
                        Value::Player(p) => p as usize,
                        _ => return Ok(false),
                    },
                    None => self.current,
                };
                if let Value::Card(c) = self.eval(card, &mut env)? {
                    self.discard_card(p, c);
                }
            }
            Stmt::Strengthen { player, feature, by } => {
                if let (Value::Player(p), Value::Feature(f), Value::Int(n)) = (
                    self.eval(player, &mut env)?,
                    self.eval(feature, &mut env)?,
                    self.eval(by, &mut env)?,
                ) {
                    self.features.strengthen(f, p as usize, n);
                }
            }
            Stmt::Adjust {
                feature,
                replace,
                amount,
                reason,
            } => {
                if let (Value::Feature(f), Value::Int(n)) =
                    (self.eval(feature, &mut env)?, self.eval(amount, &mut env)?)
                {
                    let root = self.features.find(f);
                    let i = match self.adjustments.iter().position(|a| a.feature == root) {
                        Some(i) => i,
                        None => {
                            self.adjustments.push(Adjustment {
                                feature: root,
                                replace: None,
                                add: 0,
                                reason: None,
                            });
                            self.adjustments.len() - 1
                        }
                    };
                    let entry = &mut self.adjustments[i];
                    if *replace {
                        (entry.replace, entry.add) = (Some(n), 0);
                    } else {
                        entry.add = entry.add.checked_add(n).ok_or(EvalError::Overflow)?;
                    }
                    if reason.is_some() {
                        entry.reason = *reason;
                    }
                }
            }
            Stmt::Delay { feature } => {
                if let Value::Feature(f) = self.eval(feature, &mut env)? {
                    let root = self.features.find(f);
                    if !self.delayed.contains(&root) {
                        self.delayed.push(root);
                    }
                }
            }
            Stmt::Swap { a, b } => {
                if let (Value::Figure(x), Value::Figure(y)) = (self.eval(a, &mut env)?, self.eval(b, &mut env)?) {
                    let (i, j) = (
                        self.meeples.iter().position(|m| m.id == x),
                        self.meeples.iter().position(|m| m.id == y),
                    );
                    if let (Some(i), Some(j)) = (i, j) {
                        let (pi, si) = (self.meeples[i].placed, self.meeples[i].seg);
                        (self.meeples[i].placed, self.meeples[i].seg) = (self.meeples[j].placed, self.meeples[j].seg);
                        (self.meeples[j].placed, self.meeples[j].seg) = (pi, si);
                        let (mi, mj) = (self.meeples[i], self.meeples[j]);
                        self.emit(Event::FigureSet { meeple: mi });
                        self.emit(Event::FigureSet { meeple: mj });
                    }
                }
            }
            Stmt::Steer { square } => {
                if let Value::Square(x, y) = self.eval(square, &mut env)? {
                    // The next turn's placement; in `setup`, the first turn's.
                    self.steers.push(Steer {
                        square: (x, y),
                        turn: self.turn + 1,
                    });
                }
            }
            Stmt::Return { figure } => {
                let id = match self.eval(figure, &mut env)? {
                    Value::Figure(id) => Some(id),
                    Value::FigureType(t) => self.meeples.iter().find(|m| m.figure == t).map(|m| m.id),
                    _ => None,
                };
                if let Some(id) = id {
                    self.remove_meeple(id);
                }
            }
            Stmt::Set { var, of, value } => {
                let v = self.eval(value, &mut env)?;
                let k = self.rules.var_index[*var as usize];
                let raw = match &v {
                    Value::Int(n) => *n,
                    Value::Bool(b) => i64::from(*b),
                    _ => 0,
                };
                match of {
                    None => self.game_vars[*var as usize] = v,
                    Some(o) => match self.eval(o, &mut env)? {
                        Value::Player(p) => {
                            let stride = self.rules.player_var_init.len();
                            self.player_vars[p as usize * stride + k] = raw;
                        }
                        Value::Feature(f) => self.features.set_var(f, k, raw),
                        _ => {}
                    },
                }
            }
            Stmt::Let { slot, value } => {
                let v = self.eval(value, &mut env)?;
                env.locals[*slot as usize] = v;
            }
            Stmt::If { cond, then, otherwise } => {
                let block = if self.eval(cond, &mut env)? == Value::Bool(true) {
                    Some(*then)
                } else {
                    *otherwise
                };
                if let Some(block) = block {
                    self.tasks.push(Task::Run { frame, block, pc: 0 });
                }
            }
            Stmt::ForEach {
                slot,
                domain,
                list,
                filter,
                body,
            } => {
                let items = self.domain_items(*domain, list.as_ref(), self.current, &mut env)?;
                self.tasks.push(Task::Each {
                    frame,
                    slot: *slot,
                    items,
                    filter: filter.clone(),
                    body: *body,
                });
            }
            Stmt::Choose {
                optional,
                by,
                slot,
                domain,
                list,
                filter,
                body,
                otherwise,
            } => {
                let Value::Player(player) = self.eval(by, &mut env)? else {
                    return Ok(false);
                };
                let mut options = Vec::new();
                for item in self.domain_items(*domain, list.as_ref(), player as usize, &mut env)? {
                    env.locals[*slot as usize] = item.clone();
                    let keep = match filter {
                        Some(f) => self.eval(f, &mut env)? == Value::Bool(true),
                        None => true,
                    };
                    if keep {
                        options.push(value_target(&item));
                    }
                }
                if options.is_empty() {
                    if let Some(b) = otherwise {
                        self.tasks.push(Task::Run {
                            frame,
                            block: *b,
                            pc: 0,
                        });
                    }
                    return Ok(false);
                }
                self.phase = Phase::Choose(Box::new(Pending {
                    player,
                    domain: *domain,
                    optional: *optional,
                    options,
                    frame,
                    slot: *slot,
                    body: *body,
                    otherwise: *otherwise,
                    trim: false,
                }));
                return Ok(true);
            }
            Stmt::Call { func, args } => {
                let f = &self.rules.pack.program.functions[*func as usize];
                let (slots, body, origin) = (f.slots, f.body.clone(), f.span);
                let mut call_locals = vec![Value::None; slots as usize];
                for (i, a) in args.iter().enumerate() {
                    call_locals[i] = self.eval(a, &mut env)?;
                }
                if let FnBody::Block(b) = body {
                    if self.depth() >= MAX_DEPTH {
                        return Err(EvalError::TooDeep);
                    }
                    self.push_frame(call_locals, origin, b);
                }
            }
        }
        Ok(false)
    }

    /// The values a domain (or a list in it) ranges over, in a stable order;
    /// `player`'s hand for cards. They are charged to the evaluation budget.
    fn domain_items(
        &self,
        domain: Domain,
        list: Option<&Expr>,
        player: usize,
        env: &mut Env,
    ) -> Result<Vec<Value>, EvalError> {
        let items = if let Some(l) = list {
            // A list is narrowed to the domain's kind or figure type.
            let items = self.eval(l, env)?.items();
            match domain {
                Domain::Features(Some(k)) => items
                    .into_iter()
                    .filter(|v| matches!(v, Value::Feature(f) if self.features.kind(*f) == k))
                    .collect(),
                Domain::Figures(Some(t)) => items
                    .into_iter()
                    .filter(|v| matches!(v, Value::Figure(id) if self.figure_by_id(*id).is_some_and(|m| m.figure == t)))
                    .collect(),
                _ => items,
            }
        } else {
            self.domain_values(domain, player)?
        };
        self.charge(items.len())?;
        Ok(items)
    }

    /// The values a whole domain ranges over.
    fn domain_values(&self, domain: Domain, player: usize) -> Result<Vec<Value>, EvalError> {
        Ok(match domain {
            Domain::Players => (0..self.players as u8).map(Value::Player).collect(),
            Domain::Figures(t) => self
                .meeples
                .iter()
                .filter(|m| t.is_none_or(|t| m.figure == t))
                .map(|m| Value::Figure(m.id))
                .collect(),
            Domain::Tiles => (0..self.board.placed.len() as u16).map(Value::Tile).collect(),
            Domain::Squares => {
                let mut squares: Vec<(i32, i32)> = self.board.frontier.iter().map(|s| s.pos).collect();
                squares.sort_unstable();
                squares.into_iter().map(|(x, y)| Value::Square(x, y)).collect()
            }
            Domain::Cards => {
                let mut kinds: Vec<u16> = self.hands[player].clone();
                kinds.sort_unstable();
                kinds.dedup();
                kinds.into_iter().map(Value::Card).collect()
            }
            Domain::Features(kind) => {
                self.charge(self.features.len())?;
                let mut roots: Vec<u32> = (0..self.features.len() as u32)
                    .filter(|n| self.features.find(*n) == *n)
                    .filter(|n| kind.is_none_or(|k| self.features.kind(*n) == k))
                    .collect();
                roots.sort_unstable();
                roots.into_iter().map(Value::Feature).collect()
            }
        })
    }

    /// A figure from supply onto a feature, at the segment the value names
    /// (the one a player picked), if the figure may go there and one is left.
    fn put_figure(&mut self, figure: u16, owner: Option<u8>, f: FeatureId) {
        let Some((placed, seg)) = self.features.members(f).next() else {
            return;
        };
        if !self.may_stand(figure, placed, seg) {
            return;
        }
        let left = match owner {
            Some(p) => self.supply_of(p as usize, figure),
            None => self.neutral[figure as usize],
        };
        if left == 0 {
            return;
        }
        let owner = match self.rules.pack.figures[figure as usize].ownership {
            Ownership::PerPlayer => owner,
            Ownership::Neutral => None,
        };
        let id = self.add_meeple(figure, owner, placed, seg);
        let meeple = *self.meeple(id).expect("just added");
        self.emit(Event::FigureSet { meeple });
    }

    fn may_stand(&self, figure: u16, placed: u16, seg: u8) -> bool {
        let tile = &self.rules.pack.tiles[self.board.placed[placed as usize].tile as usize];
        self.rules.pack.figures[figure as usize]
            .posture_on(tile.segments[seg as usize].kind)
            .is_some()
    }

    /// Draws the top card of a deck for a player: resolved at once if it
    /// says so, else into the hand. An empty deck reshuffles its discard pile
    /// when it may; otherwise nothing is drawn.
    fn draw_card(&mut self, deck: u16, player: usize) -> Result<(), EvalError> {
        let d = deck as usize;
        if self.piles[d].is_empty() && self.rules.pack.program.decks[d].reshuffle {
            self.piles[d] = std::mem::take(&mut self.discards[d]);
        }
        if self.piles[d].is_empty() {
            return Ok(());
        }
        if self.replay && self.forced_cards.is_empty() {
            let deck_name = &self.rules.pack.program.decks[d].name;
            return Err(EvalError::Illegal(ErrorKind::CardsMismatch.error(format!(
                "a card is drawn from {deck_name} here, but the record names no more cards; add it to this turn's `cards`"
            ))));
        }
        let i = match self.forced_cards.pop_front() {
            Some(card) => self.piles[d].iter().position(|c| *c == card).ok_or_else(|| {
                let program = &self.rules.pack.program;
                let name = program.cards.get(card as usize).map_or("?", |c| c.name.as_str());
                let here = &program.decks[d].name;
                let message = match program.cards.get(card as usize).map(|c| c.deck as usize) {
                    Some(other) if other != d => format!(
                        "the record's next card, {name}, is from deck {}, but this draw is from deck {here}; list a step's cards in the order they are drawn",
                        program.decks[other].name
                    ),
                    _ => format!("card {name} is not in the draw pile of deck {here}"),
                };
                EvalError::Illegal(ErrorKind::CardNotInPile.error(message))
            })?,
            None => self.rng.below(self.piles[d].len()),
        };
        let card = self.piles[d].swap_remove(i);
        self.emit(Event::CardDrawn { player, card });
        match self
            .rules
            .pack
            .program
            .cards
            .get(card as usize)
            .and_then(|c| c.on_draw.map(|b| (b, c.span)))
        {
            Some(((block, slots), origin)) => {
                self.tasks.push(Task::ToDiscard(card));
                self.push_frame(vec![Value::None; slots as usize], origin, block);
            }
            None => self.hands[player].push(card),
        }
        Ok(())
    }

    fn move_figure(&mut self, who: &Value, f: FeatureId, at: Option<u16>) {
        let id = match who {
            Value::Figure(id) => Some(*id),
            Value::FigureType(t) => match self.meeples.iter().find(|m| m.figure == *t) {
                Some(m) => Some(m.id),
                None => {
                    // A neutral figure off the board comes back.
                    if self.rules.pack.figures[*t as usize].ownership == Ownership::Neutral {
                        self.put_figure(*t, None, f);
                    }
                    None
                }
            },
            _ => None,
        };
        let Some(id) = id else { return };
        // The segment the value names first, so a picked location wins.
        let Some((placed, seg)) = self.features.members(f).find(|(p, _)| at.is_none_or(|t| *p == t)) else {
            return;
        };
        let Some(i) = self.meeples.iter().position(|m| m.id == id) else {
            return;
        };
        if !self.may_stand(self.meeples[i].figure, placed, seg) {
            return;
        }
        self.meeples[i].placed = placed;
        self.meeples[i].seg = seg;
        let meeple = self.meeples[i];
        self.emit(Event::FigureSet { meeple });
    }

    /// Takes a figure off the board to its owner's supply (or the box).
    fn remove_meeple(&mut self, id: u32) {
        let Some(i) = self.meeples.iter().position(|m| m.id == id) else {
            return;
        };
        let m = self.meeples.remove(i);
        let figures = self.rules.pack.figures.len();
        match m.owner {
            Some(owner) => self.supply[owner as usize * figures + m.figure as usize] += 1,
            None => self.neutral[m.figure as usize] += 1,
        }
        self.gone.push(m);
        self.emit(Event::Returned { meeple: m });
        let depth = self.depth();
        self.fire(EventKind::FigureReturned, vec![Value::Figure(m.id)], depth);
    }

    /// Features the placement may have completed: the tile's own, and area
    /// features on the 3×3 around it.
    fn completion_candidates(&self, placed: u16) -> Vec<FeatureId> {
        let pack = &self.rules.pack;
        let p = self.board.placed[placed as usize];
        let mut candidates: Vec<FeatureId> = Vec::new();
        let mut push = |f: FeatureId| {
            if !candidates.contains(&f) {
                candidates.push(f);
            }
        };
        for seg in 0..pack.tiles[p.tile as usize].segments.len() as u8 {
            push(self.feature_of(placed, seg));
        }
        for dy in -1..=1 {
            for dx in -1..=1 {
                let Some(other) = self.board.at((p.pos.0 + dx, p.pos.1 + dy)) else {
                    continue;
                };
                let tile = &pack.tiles[self.board.placed[other as usize].tile as usize];
                for (seg, s) in tile.segments.iter().enumerate() {
                    if pack.kinds[s.kind as usize].topology == Topology::Area {
                        push(self.feature_of(other, seg as u8));
                    }
                }
            }
        }
        candidates
    }

    /// Pays a feature's value to the majority of its figures.
    fn score_feature(&mut self, f: FeatureId, completed: bool) -> Result<(), GameError> {
        let rules = self.rules.clone();
        let kind_id = self.features.kind(f);
        let kind = &rules.pack.kinds[kind_id as usize];
        let (formula, clause) = if completed {
            (&kind.score_completed, "score completed")
        } else {
            (&kind.score_final, "score final")
        };
        let root = self.features.find(f);
        let adjustment = self
            .adjustments
            .iter()
            .position(|a| a.feature == root)
            .map(|i| self.adjustments.remove(i));
        let owners = self.majority(f);
        if owners.is_empty() {
            return Ok(());
        }
        // The kind's own value; not needed when a reasonless adjustment replaces it.
        let replaced = matches!(
            adjustment,
            Some(Adjustment {
                replace: Some(_),
                reason: None,
                ..
            })
        );
        let base = match formula {
            Some(formula) if !replaced => self.formula(formula, f).map_err(|e| self.kind_error(f, clause, e))?,
            None if adjustment.is_none() => return Ok(()),
            _ => 0,
        };
        // What is paid under the kind, and the extra paid under an adjustment's reason.
        let (own, extra) = match adjustment {
            None => (base, None),
            Some(a) => {
                let overflow = |_| self.kind_error(f, clause, EvalError::Overflow);
                let adjusted = a
                    .replace
                    .unwrap_or(base)
                    .checked_add(a.add)
                    .ok_or(())
                    .map_err(overflow)?;
                match a.reason {
                    None => (adjusted, None),
                    Some(reason) => (
                        base,
                        Some((adjusted.checked_sub(base).ok_or(()).map_err(overflow)?, reason)),
                    ),
                }
            }
        };
        let extra = extra.filter(|&(points, _)| points != 0);
        let later = completed && self.delayed.contains(&root);
        for player in owners {
            for (points, reason) in std::iter::once((own, kind_id)).chain(extra) {
                if later {
                    self.owed.push((player, points, reason));
                } else {
                    self.award(player, points, reason)
                        .map_err(|e| self.kind_error(f, clause, e))?;
                }
            }
        }
        Ok(())
    }

    /// Adds points to a player's score (and to their points under `reason`);
    /// a score that would leave the range of `i64` is an overflow, which the
    /// caller reports as the failure of the rule that scored.
    pub(super) fn award(&mut self, player: usize, points: i64, reason: ReasonId) -> Result<(), EvalError> {
        let slot = player * self.rules.pack.reasons.len() + reason as usize;
        let score = self.scores[player].checked_add(points).ok_or(EvalError::Overflow)?;
        let under_reason = self.points[slot].checked_add(points).ok_or(EvalError::Overflow)?;
        (self.scores[player], self.points[slot]) = (score, under_reason);
        self.emit(Event::Scored { player, points, reason });
        Ok(())
    }

    /// A failure paying points delayed to the end of the game under `reason`:
    /// named by the feature kind when the reason is one.
    fn reason_error(&self, reason: ReasonId, e: EvalError) -> GameError {
        let pack = &self.rules.pack;
        let name = &pack.reasons[reason as usize];
        match pack.kinds.get(reason as usize).filter(|k| &k.name == name) {
            Some(kind) => e.kind().error(format!(
                "{e} paying the delayed points of feature `{}` ({})",
                kind.name,
                pack.locate(kind.span)
            )),
            None => e.kind().error(format!("{e} paying the delayed points for `{name}`")),
        }
    }
}
