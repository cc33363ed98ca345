//! The engine: plays games from a [`Rules`] (a checked pack with precomputed
//! tables). A game is a state machine — [`Game::decision`], [`Game::options`],
//! [`Game::apply`] — driven by agents or by a record.

mod board;
mod error;
mod eval;
mod features;
mod flow;
mod game;
mod rng;
mod rules;

pub use board::{Board, Misfit, PlacedTile, Pos};
pub use error::{ErrorKind, GameError};
pub use eval::{EvalError, Value, EVAL_BUDGET, GAME_EVAL_BUDGET_PER_TILE};
pub use features::{FeatureId, Features};
pub use flow::{MAX_DEPTH, MAX_LOG_EVENTS, STEP_BUDGET, TURN_STEP_BUDGET};
pub use game::{Choice, Decision, Event, Game, Meeple, Target, View, MAX_PLAYERS, MAX_TURN_DECISIONS};
pub use rng::Rng;
pub use rules::{Rotated, Rules};
