//! The engine: plays games from a [`Rules`] (a checked pack with precomputed
//! tables). A game is a state machine — [`Game::decision`], [`Game::options`],
//! [`Game::apply`] — driven by agents or by a record.
//!
//! Inside, from the bottom up: the small value types and the setup (`ids`,
//! `setup`), the tables (`rules`, `board`, `features`, `rng`, `error`),
//! plain data (`types`, `value`, `task`), the game
//! `state` with its invariants (and `lookup`, questions it answers), expression evaluation over the state
//! (`eval`, `queries`) and the rules' expressions compiled into closures
//! (`compile`), the `Game` itself (`game`), and the parts of the turn
//! machine, each adding to `impl Game` (`decide`, `turn`, `statements`,
//! `scoring`, `cards`, `view`). No module imports one above it.

mod board;
mod card_lists;
mod cards;
mod compile;
mod decide;
mod error;
mod eval;
mod features;
mod game;
mod gate;
mod ids;
mod lookup;
mod queries;
mod rng;
mod rules;
mod scoring;
mod setup;
mod shapes;
mod state;
mod statements;
mod task;
mod turn;
mod types;
mod value;
mod view;

pub use board::{Board, Misfit, PlacedTile, Pos};
pub use error::{ErrorKind, GameError};
pub use game::{Game, MAX_PLAYERS, MAX_TURN_DECISIONS};
pub use ids::{PlacedId, Player, Rotation};
pub use rng::Rng;
pub use rules::{Rotated, Rules};
pub use setup::Setup;
pub use task::{MAX_DEPTH, MAX_LOG_EVENTS, STEP_BUDGET, TURN_STEP_BUDGET};
pub use types::{Choice, Decision, Event, Figure, SpotFigure, Target};
pub use value::{EVAL_BUDGET, GAME_EVAL_BUDGET_PER_TILE};
pub use view::View;
