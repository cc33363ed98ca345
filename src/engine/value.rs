//! Values of rule expressions and the ways evaluating one can fail. Plain
//! data, below the game state (which holds variables as values).

use super::error::{ErrorKind, GameError};
use super::ids::{PlacedId, Player};
use super::types::Target;
use crate::ir::{FigureTypeId, IconId, KindId, MarkerId};
use thin_vec::ThinVec;

/// Evaluation work (function calls, list members visited) allowed between
/// two decisions; more is a runaway rule.
pub const EVAL_BUDGET: u64 = 500_000;

/// Evaluation work allowed in a whole game, for every tile of its set: a
/// game whose rules work near [`EVAL_BUDGET`] at every decision is stopped
/// long before it takes minutes.
pub const GAME_EVAL_BUDGET_PER_TILE: u64 = 10_000;

/// A value during evaluation. Features are held by any node of theirs and
/// compared by their current root.
///
/// Two words, and so is an evaluation's `Result<Value, EvalError>`: every
/// compiled node returns its value in registers. Lists are therefore
/// [`ThinVec`]s (one pointer), and a new variant's data must fit in 8 bytes.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    None,
    Int(i64),
    Bool(bool),
    Feature(u32),
    Features(ThinVec<u32>),
    Kind(KindId),
    Marker(MarkerId),
    Icon(IconId),
    FigureType(FigureTypeId),
    Player(u8),
    Players(ThinVec<u8>),
    /// A figure by id.
    Figure(u32),
    Figures(ThinVec<u32>),
    Tile(u16),
    Direction(u8),
    Directions(ThinVec<u8>),
    Card(u16),
    Deck(u16),
    Square(i32, i32),
    /// A scoring reason, by index into the pack's reasons.
    Reason(u16),
    /// A spot off the board, by index into the program's spots.
    Spot(u16),
}

#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Value>() == 16);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Result<Value, EvalError>>() == 16);

impl Value {
    /// Whether the value is `true` (anything else is false).
    pub(super) fn truthy(&self) -> bool {
        matches!(self, Value::Bool(true))
    }
}

/// Why an expression could not be evaluated: one byte, with no data, so
/// that results stay small (see [`Value`]; a replay's illegal step is a
/// statement's [`Halt`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalError {
    Overflow,
    DivisionByZero,
    /// Functions or completion checks nested too deeply.
    TooDeep,
    /// More than [`EVAL_BUDGET`] evaluation work without a decision.
    Runaway,
    /// More evaluation work in the whole game than its tile set allows.
    GameRunaway,
}

impl EvalError {
    /// The kind of game error this failure is reported as.
    pub fn kind(&self) -> ErrorKind {
        match self {
            EvalError::Overflow => ErrorKind::Overflow,
            EvalError::DivisionByZero => ErrorKind::DivisionByZero,
            EvalError::TooDeep => ErrorKind::TooDeep,
            EvalError::Runaway | EvalError::GameRunaway => ErrorKind::Runaway,
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
        }
    }
}

/// Why a statement stopped short: an evaluation failed, or a replay forced
/// something the game cannot do (a card or tile the record names wrongly: not
/// in its pile, from another deck, drawn but not named). Kept apart from
/// [`EvalError`], which every evaluation returns, so that an evaluation's
/// result stays two words.
#[derive(Debug)]
pub(super) enum Halt {
    Eval(EvalError),
    Illegal(GameError),
}

impl From<EvalError> for Halt {
    fn from(e: EvalError) -> Halt {
        Halt::Eval(e)
    }
}

/// The value a rule sees for a chosen target.
pub(super) fn target_value(t: Target) -> Value {
    match t {
        Target::None | Target::Option(_) => Value::None,
        Target::Player(p) => Value::Player(p.0),
        Target::Feature(f) => Value::Feature(f),
        Target::Figure(id) => Value::Figure(id),
        Target::Tile(t) => Value::Tile(t.0),
        Target::Card(c) => Value::Card(c),
        Target::Square(x, y) => Value::Square(x, y),
    }
}

/// The target a value names; `Target::None` for a value that names no target.
pub(super) fn value_target(v: &Value) -> Target {
    match v {
        Value::Player(p) => Target::Player(Player(*p)),
        Value::Feature(f) => Target::Feature(*f),
        Value::Figure(id) => Target::Figure(*id),
        Value::Tile(t) => Target::Tile(PlacedId(*t)),
        Value::Card(c) => Target::Card(*c),
        Value::Square(x, y) => Target::Square(*x, *y),
        _ => Target::None,
    }
}

/// `n` values `none` (a frame of locals), made without cloning one.
pub(super) fn nones(n: usize) -> Vec<Value> {
    std::iter::repeat_with(|| Value::None).take(n).collect()
}
