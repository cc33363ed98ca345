//! The engine: plays games from a [`Rules`] (a checked pack with precomputed
//! tables). A game is a state machine — [`Game::decision`], [`Game::options`],
//! [`Game::apply`] — driven by agents or by a record.

mod board;
mod eval;
mod features;
mod game;
mod rng;
mod rules;

pub use board::{Board, Misfit, PlacedTile, Pos, Slot};
pub use eval::{EvalError, Value, View};
pub use features::{FeatureId, Features};
pub use game::{Choice, Decision, Event, Game, GameError, Meeple, MAX_PLAYERS};
pub use rng::Rng;
pub use rules::{Rotated, Rules};
