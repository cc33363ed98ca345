//! Evaluating rule expressions against a game: the built-in queries of
//! `ir::expr::BUILTINS`, variables, functions, checked arithmetic, `count`.

use super::error::{ErrorKind, GameError};
use super::features::FeatureId;
use super::game::Game;
use crate::ir::expr::{Builtin, Expr};
use crate::ir::program::FnBody;
use crate::ir::{BinOp, UnOp};
use crate::ir::{FigureId, IconId, KindId, MarkerId, Ownership};

/// Deepest nesting of function calls and completion checks while evaluating.
const MAX_EVAL_DEPTH: u32 = 64;

/// Evaluation work (function calls, list members visited) allowed between
/// two decisions; more is a runaway rule.
pub const EVAL_BUDGET: u64 = 500_000;

/// Evaluation work allowed in a whole game, for every tile of its set: a
/// game whose rules work near [`EVAL_BUDGET`] at every decision is stopped
/// long before it takes minutes.
pub const GAME_EVAL_BUDGET_PER_TILE: u64 = 10_000;

/// A value during evaluation. Features are held by any node of theirs and
/// compared by their current root.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    None,
    Int(i64),
    Bool(bool),
    Feature(u32),
    Features(Vec<u32>),
    Kind(KindId),
    Marker(MarkerId),
    Icon(IconId),
    FigureType(FigureId),
    Player(u8),
    Players(Vec<u8>),
    /// A figure by id.
    Figure(u32),
    Figures(Vec<u32>),
    Tile(u16),
    Direction(u8),
    Card(u16),
    Deck(u16),
    Square(i32, i32),
}

impl Value {
    /// The members of a list value, as single values.
    pub fn items(&self) -> Vec<Value> {
        match self {
            Value::Features(v) => v.iter().map(|f| Value::Feature(*f)).collect(),
            Value::Players(v) => v.iter().map(|p| Value::Player(*p)).collect(),
            Value::Figures(v) => v.iter().map(|f| Value::Figure(*f)).collect(),
            _ => Vec::new(),
        }
    }

    fn truthy(&self) -> bool {
        *self == Value::Bool(true)
    }
}

/// Why an expression could not be evaluated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    Overflow,
    DivisionByZero,
    /// Functions or completion checks nested too deeply.
    TooDeep,
    /// More than [`EVAL_BUDGET`] evaluation work without a decision.
    Runaway,
    /// More evaluation work in the whole game than its tile set allows.
    GameRunaway,
    /// A replay forced something the game cannot do (a card not in its pile).
    Illegal(GameError),
}

impl EvalError {
    pub fn kind(&self) -> ErrorKind {
        match self {
            EvalError::Overflow => ErrorKind::Overflow,
            EvalError::DivisionByZero => ErrorKind::DivisionByZero,
            EvalError::TooDeep => ErrorKind::TooDeep,
            EvalError::Runaway | EvalError::GameRunaway => ErrorKind::Runaway,
            EvalError::Illegal(e) => e.kind(),
        }
    }
}

impl std::fmt::Display for EvalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalError::Overflow => f.write_str("arithmetic overflow"),
            EvalError::DivisionByZero => f.write_str("division by zero"),
            EvalError::TooDeep => {
                f.write_str("rules nested too deeply (a completion check or function that depends on itself?)")
            }
            EvalError::Runaway => write!(
                f,
                "a rule ran away: more than {EVAL_BUDGET} function calls, list members and board segments evaluated without a decision"
            ),
            EvalError::GameRunaway => write!(
                f,
                "a rule ran away: the game evaluated more than {GAME_EVAL_BUDGET_PER_TILE} function calls, list members and board segments for every tile of its set"
            ),
            EvalError::Illegal(e) => f.write_str(e.message()),
        }
    }
}

/// Local variables of the rule being evaluated, and the subject feature of a feature kind's clause.
pub struct Env<'a> {
    pub locals: &'a mut Vec<Value>,
    pub subject: Option<FeatureId>,
    pub depth: u32,
}

impl Game {
    /// Evaluates an expression.
    pub(super) fn eval(&self, expr: &Expr, env: &mut Env) -> Result<Value, EvalError> {
        Ok(match expr {
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
            Expr::Subject => env.subject.map_or(Value::None, Value::Feature),
            Expr::Local(slot) => env.locals.get(*slot as usize).cloned().unwrap_or(Value::None),
            Expr::GameVar(v) => self.game_vars[*v as usize].clone(),
            Expr::MemberVar { var, of } => {
                let k = self.rules.var_index[*var as usize];
                let ty = self.rules.pack.program.vars[*var as usize].ty;
                let raw = match self.eval(of, env)? {
                    Value::Player(p) => self.player_vars[p as usize * self.rules.player_var_init.len() + k],
                    Value::Feature(f) => self.features.var(f, k),
                    _ => 0,
                };
                if ty == crate::ir::expr::Type::Bool {
                    Value::Bool(raw != 0)
                } else {
                    Value::Int(raw)
                }
            }
            Expr::Query { builtin, of, args } => {
                let receiver = match of {
                    Some(e) => self.eval(e, env)?,
                    None => Value::None,
                };
                let mut values = Vec::with_capacity(args.len());
                for a in args {
                    values.push(self.eval(a, env)?);
                }
                self.query(*builtin, receiver, &values, env.depth)?
            }
            Expr::Call { func, args } => {
                if env.depth >= MAX_EVAL_DEPTH {
                    return Err(EvalError::TooDeep);
                }
                self.charge(1)?;
                let f = &self.rules.pack.program.functions[*func as usize];
                let mut locals = vec![Value::None; f.slots as usize];
                for (i, a) in args.iter().enumerate() {
                    locals[i] = self.eval(a, env)?;
                }
                match &f.body {
                    FnBody::Expr(body) => self.eval(
                        body,
                        &mut Env {
                            locals: &mut locals,
                            subject: None,
                            depth: env.depth + 1,
                        },
                    )?,
                    FnBody::Block(_) => Value::None,
                }
            }
            Expr::Unary(UnOp::Not, e) => Value::Bool(!self.eval(e, env)?.truthy()),
            Expr::Unary(UnOp::Neg, e) => match self.eval(e, env)? {
                Value::Int(n) => Value::Int(n.checked_neg().ok_or(EvalError::Overflow)?),
                other => other,
            },
            Expr::Binary(op, l, r) => self.binary(*op, l, r, env)?,
            Expr::Count { slot, list, filter } => {
                let items = self.eval(list, env)?.items();
                self.charge(items.len())?;
                let slot = *slot as usize;
                if env.locals.len() <= slot {
                    env.locals.resize(slot + 1, Value::None);
                }
                let mut n = 0;
                for item in items {
                    env.locals[slot] = item;
                    let keep = match filter {
                        Some(cond) => self.eval(cond, env)?.truthy(),
                        None => true,
                    };
                    n += i64::from(keep);
                }
                Value::Int(n)
            }
        })
    }

    /// Counts evaluation work against [`EVAL_BUDGET`].
    pub(super) fn charge(&self, units: usize) -> Result<(), EvalError> {
        let spent = self.work.get().saturating_add(units as u64);
        self.work.set(spent);
        let total = self.game_work.get().saturating_add(units as u64);
        self.game_work.set(total);
        if spent > EVAL_BUDGET {
            return Err(EvalError::Runaway);
        }
        if total > self.game_eval_budget() {
            return Err(EvalError::GameRunaway);
        }
        Ok(())
    }

    /// The evaluation work a whole game may do: [`GAME_EVAL_BUDGET_PER_TILE`]
    /// for every tile of its set, and never less than ten decisions' worth.
    pub(super) fn game_eval_budget(&self) -> u64 {
        (self.rules.pack.tile_count() as u64)
            .saturating_mul(GAME_EVAL_BUDGET_PER_TILE)
            .max(EVAL_BUDGET)
    }

    fn binary(&self, op: BinOp, l: &Expr, r: &Expr, env: &mut Env) -> Result<Value, EvalError> {
        if matches!(op, BinOp::And | BinOp::Or) {
            let left = self.eval(l, env)?.truthy();
            if left == (op == BinOp::Or) {
                return Ok(Value::Bool(left));
            }
            return Ok(Value::Bool(self.eval(r, env)?.truthy()));
        }
        let a = self.normal(self.eval(l, env)?);
        let b = self.normal(self.eval(r, env)?);
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

    /// A value with features named by their root, for comparison.
    fn normal(&self, v: Value) -> Value {
        match v {
            Value::Feature(f) => Value::Feature(self.features.find(f)),
            other => other,
        }
    }

    /// Whether the feature satisfies its kind's `complete when`.
    pub(crate) fn completed(&self, f: FeatureId) -> Result<bool, EvalError> {
        self.completed_at(f, 0)
    }

    fn completed_at(&self, f: FeatureId, depth: u32) -> Result<bool, EvalError> {
        if depth >= MAX_EVAL_DEPTH {
            return Err(EvalError::TooDeep);
        }
        match &self.rules.pack.kinds[self.features.kind(f) as usize].complete {
            Some(rule) => Ok(self
                .eval(
                    rule,
                    &mut Env {
                        locals: &mut Vec::new(),
                        subject: Some(f),
                        depth: depth + 1,
                    },
                )?
                .truthy()),
            None => Ok(false),
        }
    }

    /// Evaluates a feature kind's score formula for a feature.
    pub(super) fn formula(&self, expr: &Expr, f: FeatureId) -> Result<i64, EvalError> {
        match self.eval(
            expr,
            &mut Env {
                locals: &mut Vec::new(),
                subject: Some(f),
                depth: 0,
            },
        )? {
            Value::Int(n) => Ok(n),
            _ => Ok(0),
        }
    }

    fn query(&self, builtin: Builtin, of: Value, args: &[Value], depth: u32) -> Result<Value, EvalError> {
        let pack = &self.rules.pack;
        let feature = |v: &Value| match v {
            Value::Feature(f) => Some(self.features.find(*f)),
            _ => None,
        };
        let tile = |v: &Value| match v {
            Value::Tile(t) => self.board.placed.get(*t as usize),
            _ => None,
        };
        let figure = |v: &Value| match v {
            Value::Figure(id) => self
                .meeple(*id)
                .or_else(|| self.gone.iter().rev().find(|m| m.id == *id)),
            _ => None,
        };
        let player = |v: &Value| match v {
            Value::Player(p) => Some(*p as usize),
            _ => None,
        };
        let int = |n: usize| Value::Int(n as i64);
        Ok(match builtin {
            Builtin::Tiles => feature(&of).map_or(Value::Int(0), |f| int(self.features.tile_count(f))),
            Builtin::OpenEdges => feature(&of).map_or(Value::Int(0), |f| Value::Int(i64::from(self.features.open(f)))),
            Builtin::Neighbours => feature(&of).map_or(Value::Int(0), |f| {
                let (placed, _) = self.features.members(f).next().unwrap_or((0, 0));
                int(self.board.neighbours(self.board.placed[placed as usize].pos))
            }),
            Builtin::Completed => match feature(&of) {
                Some(f) => Value::Bool(self.completed_at(f, depth)?),
                None => Value::Bool(false),
            },
            Builtin::Scored => Value::Bool(feature(&of).is_some_and(|f| self.features.is_done(f))),
            Builtin::Touching => Value::Features(feature(&of).map_or_else(Vec::new, |f| self.touching(f))),
            Builtin::Kind => feature(&of).map_or(Value::None, |f| Value::Kind(self.features.kind(f))),
            Builtin::Markers => match (feature(&of), args.first()) {
                (Some(f), Some(Value::Marker(m))) => {
                    let n: usize = self
                        .features
                        .members(f)
                        .map(|(placed, seg)| {
                            let tile = &pack.tiles[self.board.placed[placed as usize].tile as usize];
                            tile.segments[seg as usize].markers.iter().filter(|x| *x == m).count()
                        })
                        .sum();
                    int(n)
                }
                _ => Value::Int(0),
            },
            Builtin::Figures => {
                Value::Figures(feature(&of).map_or_else(Vec::new, |f| self.meeples_on(f).map(|m| m.id).collect()))
            }
            Builtin::Followers => match (feature(&of), player(args.first().unwrap_or(&Value::None))) {
                (Some(f), Some(p)) => int(self.meeples_on(f).filter(|m| m.owner == Some(p as u8)).count()),
                _ => Value::Int(0),
            },
            Builtin::Has => match (feature(&of), args.first()) {
                (Some(f), Some(Value::FigureType(t))) => Value::Bool(self.meeples_on(f).any(|m| m.figure == *t)),
                _ => Value::Bool(false),
            },
            Builtin::Owners => Value::Players(
                feature(&of).map_or_else(Vec::new, |f| self.majority(f).into_iter().map(|p| p as u8).collect()),
            ),
            Builtin::ControlledBy => match (feature(&of), player(args.first().unwrap_or(&Value::None))) {
                (Some(f), Some(p)) => Value::Bool(self.majority(f).contains(&p)),
                _ => Value::Bool(false),
            },
            Builtin::CompletedScore | Builtin::FinalScore => match feature(&of) {
                Some(f) => {
                    let kind = &pack.kinds[self.features.kind(f) as usize];
                    let formula = if builtin == Builtin::CompletedScore {
                        &kind.score_completed
                    } else {
                        &kind.score_final
                    };
                    match formula {
                        Some(e) => Value::Int(self.formula(e, f)?),
                        None => Value::Int(0),
                    }
                }
                None => Value::Int(0),
            },
            Builtin::Owner => figure(&of).and_then(|m| m.owner).map_or(Value::None, Value::Player),
            Builtin::FigureType => figure(&of).map_or(Value::None, |m| Value::FigureType(m.figure)),
            Builtin::FigureFeature => match &of {
                Value::Figure(id) => self
                    .meeple(*id)
                    .map_or(Value::None, |m| Value::Feature(self.feature_of(m.placed, m.seg))),
                _ => Value::None,
            },
            Builtin::FigureTile => match &of {
                Value::Figure(id) => self.meeple(*id).map_or(Value::None, |m| Value::Tile(m.placed)),
                _ => Value::None,
            },
            Builtin::X => tile(&of).map_or(Value::Int(0), |t| Value::Int(i64::from(t.pos.0))),
            Builtin::Y => tile(&of).map_or(Value::Int(0), |t| Value::Int(i64::from(t.pos.1))),
            Builtin::Rotation => tile(&of).map_or(Value::Int(0), |t| Value::Int(i64::from(t.rot) * 90)),
            Builtin::HasIcon => match (tile(&of), args.first()) {
                (Some(t), Some(Value::Icon(i))) => Value::Bool(pack.tiles[t.tile as usize].has_icon(*i)),
                _ => Value::Bool(false),
            },
            Builtin::IconValue => match (tile(&of), args.first()) {
                (Some(t), Some(Value::Icon(i))) => pack.tiles[t.tile as usize]
                    .icons
                    .iter()
                    .find(|x| x.icon == *i)
                    .and_then(|x| x.value)
                    .map_or(Value::None, Value::Direction),
                _ => Value::None,
            },
            Builtin::TileFeature => match (&of, args.first()) {
                (Value::Tile(t), Some(Value::Kind(k))) => {
                    let placed = &self.board.placed[*t as usize];
                    pack.tiles[placed.tile as usize]
                        .segments
                        .iter()
                        .position(|s| s.kind == *k)
                        .map_or(Value::None, |s| Value::Feature(self.feature_of(*t, s as u8)))
                }
                _ => Value::None,
            },
            Builtin::Score => player(&of).map_or(Value::Int(0), |p| Value::Int(self.scores[p])),
            Builtin::Supply => match (player(&of), args.first()) {
                (Some(p), Some(Value::FigureType(f))) => Value::Int(i64::from(self.supply(p, *f).unwrap_or(0))),
                _ => Value::Int(0),
            },
            Builtin::OnBoard => match of {
                Value::FigureType(t) => self
                    .meeples
                    .iter()
                    .find(|m| m.figure == t)
                    .map_or(Value::None, |m| Value::Figure(m.id)),
                _ => Value::None,
            },
            Builtin::TypeFeature => match of {
                Value::FigureType(t) => self
                    .meeples
                    .iter()
                    .find(|m| m.figure == t)
                    .map_or(Value::None, |m| Value::Feature(self.feature_of(m.placed, m.seg))),
                _ => Value::None,
            },
            Builtin::TileFeatures => match of {
                Value::Tile(t) => {
                    let placed = &self.board.placed[t as usize];
                    let mut roots: Vec<u32> = Vec::new();
                    for s in 0..pack.tiles[placed.tile as usize].segments.len() {
                        let root = self.feature_of(t, s as u8);
                        if !roots.contains(&root) {
                            roots.push(root);
                        }
                    }
                    Value::Features(roots)
                }
                _ => Value::Features(Vec::new()),
            },
            Builtin::Lying => figure(&of).map_or(Value::Bool(false), |m| {
                let kind = pack.tiles[self.board.placed[m.placed as usize].tile as usize].segments[m.seg as usize].kind;
                Value::Bool(pack.figures[m.figure as usize].posture_on(kind) == Some(crate::ir::Posture::Lying))
            }),
            Builtin::LiesOn | Builtin::StandsOn => match (of, args.first()) {
                (Value::FigureType(f), Some(Value::Kind(k))) => {
                    let want = if builtin == Builtin::LiesOn {
                        crate::ir::Posture::Lying
                    } else {
                        crate::ir::Posture::Standing
                    };
                    Value::Bool(pack.figures[f as usize].posture_on(*k) == Some(want))
                }
                _ => Value::Bool(false),
            },
            Builtin::Cards => match (player(&of), args.first()) {
                (Some(p), Some(Value::Deck(d))) => {
                    int(self.hands[p].iter().filter(|c| pack.program.deck_of(**c) == *d).count())
                }
                _ => Value::Int(0),
            },
            Builtin::HandSize => player(&of).map_or(Value::Int(0), |p| int(self.hands[p].len())),
            Builtin::Holds => match (player(&of), args.first()) {
                (Some(p), Some(Value::Card(c))) => Value::Bool(self.hands[p].contains(c)),
                _ => Value::Bool(false),
            },
            Builtin::Left => match of {
                Value::Deck(d) => int(self.piles[d as usize].len()),
                _ => Value::Int(0),
            },
            Builtin::AllFeatures => {
                self.charge(self.features.len())?;
                let mut roots: Vec<u32> = (0..self.features.len() as u32)
                    .filter(|n| self.features.find(*n) == *n)
                    .collect();
                roots.sort_unstable();
                Value::Features(roots)
            }
            Builtin::Ends => feature(&of).map_or(Value::Int(0), |f| {
                let ends = self
                    .features
                    .members(f)
                    .filter(|(placed, seg)| {
                        let p = &self.board.placed[*placed as usize];
                        self.rules.rotated[p.tile as usize][p.rot as usize].seg_edges[*seg as usize].len() == 1
                    })
                    .count();
                int(ends)
            }),
            Builtin::FeatureTile => feature(&of)
                .and_then(|f| self.features.members(f).next())
                .map_or(Value::None, |(t, _)| Value::Tile(t)),
            Builtin::Distance => match (
                tile(args.first().unwrap_or(&Value::None)),
                tile(args.get(1).unwrap_or(&Value::None)),
            ) {
                (Some(a), Some(b)) => {
                    let dx = (i64::from(a.pos.0) - i64::from(b.pos.0)).abs();
                    let dy = (i64::from(a.pos.1) - i64::from(b.pos.1)).abs();
                    Value::Int(dx.max(dy))
                }
                _ => Value::Int(0),
            },
            Builtin::SquareX | Builtin::SquareY => match of {
                Value::Square(x, y) => Value::Int(i64::from(if builtin == Builtin::SquareX { x } else { y })),
                _ => Value::Int(0),
            },
            Builtin::CurrentPlayer => Value::Player(self.current as u8),
            Builtin::NextPlayer => Value::Player(((self.current + 1) % self.players) as u8),
            Builtin::Opponents => Value::Players(
                (1..self.players)
                    .map(|i| ((self.current + i) % self.players) as u8)
                    .collect(),
            ),
            Builtin::Players => Value::Players((0..self.players as u8).collect()),
            Builtin::PlacedTile => self.placed_tile.map_or(Value::None, Value::Tile),
            Builtin::StartTile => Value::Tile(0),
            Builtin::Turn => match (args.first(), args.get(1)) {
                (Some(Value::Direction(d)), Some(Value::Int(deg))) => {
                    Value::Direction(((i64::from(*d) + deg.div_euclid(45)).rem_euclid(8)) as u8)
                }
                _ => Value::None,
            },
            Builtin::Toward => match (
                tile(args.first().unwrap_or(&Value::None)),
                tile(args.get(1).unwrap_or(&Value::None)),
                args.get(2),
            ) {
                (Some(a), Some(b), Some(Value::Direction(d))) => Value::Bool(toward(a.pos, b.pos, *d)),
                _ => Value::Bool(false),
            },
        })
    }

    /// The players with the most figures on a feature (all tied ones); empty if none.
    pub(crate) fn majority(&self, f: FeatureId) -> Vec<usize> {
        let mut counts = vec![0i64; self.players];
        let mut present = vec![false; self.players];
        for m in self.meeples_on(f) {
            if let Some(owner) = m.owner {
                if self.rules.pack.figures[m.figure as usize].ownership == Ownership::PerPlayer {
                    counts[owner as usize] += 1;
                    present[owner as usize] = true;
                }
            }
        }
        // Majority bonuses count only for players with a figure there.
        for (p, count) in counts.iter_mut().enumerate() {
            if present[p] {
                *count += self.features.strength(f, p);
            }
        }
        let best = counts
            .iter()
            .zip(&present)
            .filter(|(_, here)| **here)
            .map(|(c, _)| *c)
            .max()
            .unwrap_or(0);
        if !present.iter().any(|h| *h) {
            return Vec::new();
        }
        (0..self.players)
            .filter(|p| present[*p] && counts[*p] == best)
            .collect()
    }

    /// The features named by the `touches` lists of this feature's segments, each once.
    pub(crate) fn touching(&self, f: FeatureId) -> Vec<FeatureId> {
        let mut out = Vec::new();
        for (placed, seg) in self.features.members(f) {
            let p = &self.board.placed[placed as usize];
            for &t in &self.rules.pack.tiles[p.tile as usize].segments[seg as usize].touches {
                let root = self.features.find(p.first_node + u32::from(t));
                if !out.contains(&root) {
                    out.push(root);
                }
            }
        }
        out
    }
}

/// Whether `b` lies in direction `d` (0 = N, clockwise in eighths) from `a`:
/// the closed half-plane for N, E, S, W; the closed quadrant for the diagonals.
/// y grows southwards.
fn toward(a: (i32, i32), b: (i32, i32), d: u8) -> bool {
    let (dx, dy) = (i64::from(b.0) - i64::from(a.0), i64::from(b.1) - i64::from(a.1));
    let north = dy <= 0;
    let south = dy >= 0;
    let east = dx >= 0;
    let west = dx <= 0;
    match d % 8 {
        0 => north,
        1 => north && east,
        2 => east,
        3 => south && east,
        4 => south,
        5 => south && west,
        6 => west,
        _ => north && west,
    }
}

#[cfg(test)]
mod tests {
    use super::toward;

    #[test]
    fn directions_include_the_rose_row_and_column() {
        assert!(toward((0, 0), (3, -2), 1)); // NE
        assert!(toward((0, 0), (0, -2), 1)); // the column belongs to NE and NW
        assert!(toward((0, 0), (0, -2), 7));
        assert!(toward((0, 0), (4, 0), 3)); // the row belongs to NE and SE
        assert!(!toward((0, 0), (-1, -1), 1));
        assert!(toward((0, 0), (5, 0), 0)); // N is the half-plane y <= 0
        assert!(!toward((0, 0), (5, 1), 0));
    }
}
