//! meeple: a rules language and engine for Carcassonne.
//!
//! Every expansion, the base game included, is a `.rules` file. The pipeline
//! runs in one direction:
//!
//! ```text
//! .rules text --parse--> AST --check--> IR (RulePack) --prepare--> Rules --run--> Game
//! ```
//!
//! The crate root is the API for programs: load packs, prepare [`Rules`],
//! start a [`Game`] from a [`Setup`], answer its [`Decision`]s with
//! [`Choice`]s (or let [`Agent`]s play: random, greedy, or searching with
//! [`IsmctsAgent`]), give an agent a player's [`View`],
//! and write or replay a [`Record`]. [`sim::play_games`] plays many games
//! on several threads, with the same results for any number of threads;
//! [`session::Session`] plays one game with people and agents, with undo.
//!
//! ```
//! use meeple::{load, play, Agent, Decision, Game, PackRef, RandomAgent, Record, Rules, Setup};
//! use std::sync::Arc;
//!
//! let pack = load(&[PackRef::Bundled("base".into())]).expect("the base game loads");
//! assert_eq!(pack.tile_count(), 72);
//! let rules = Arc::new(Rules::new(pack));
//! // Two players, seed 42: the same seed and decisions always give the same game.
//! let mut game = Game::new(rules, Setup::new(2).seed(42)).expect("two players can play");
//! let Some(Decision::Place { player, .. }) = game.decision() else { unreachable!() };
//! assert_eq!(player.index(), 0);
//! let first = game.options()[0]; // every legal choice of the pending decision
//! game.apply(first).expect("options are legal");
//! let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(RandomAgent::new(1)), Box::new(RandomAgent::new(2))];
//! play(&mut game, &mut agents).expect("random games finish");
//! assert!(game.is_over());
//! let record = Record::from_game(&game, vec!["base".into()], vec!["Ann".into(), "Bob".into()], Some(42))
//!     .expect("a played game has a record");
//! assert!(record.to_ron().contains("Turn("));
//! ```

#![warn(missing_docs)]

pub mod agents;
pub mod bench;
pub mod bundled;
pub mod check;
#[cfg(feature = "cli")]
pub mod cli;
pub mod diagnostic;
pub mod engine;
pub mod ir;
pub mod picture;
pub mod record;
pub mod session;
pub mod sim;
pub mod source;
pub mod stats;
pub(crate) mod syntax;

pub use agents::{play, Agent, GreedyAgent, IsmctsAgent, RandomAgent};
pub use check::{load, LoadError, PackRef};
pub use diagnostic::{Code, Diagnostic};
pub use engine::{
    Choice, Decision, ErrorKind, Event, Game, GameError, PlacedId, Player, Pos, Rotation, Rules, Setup, Target, View,
};
pub use ir::RulePack;
pub use record::{replay, replay_with, Record, ReplayError};

/// The README's code examples, compiled and run by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeExamples;
