//! meeple: a rules language and engine for Carcassonne.
//!
//! Every expansion, the base game included, is a `.rules` file. The pipeline
//! runs in one direction:
//!
//! ```text
//! .rules text --parse--> AST --check--> IR (RulePack) --prepare--> Rules --run--> Game
//! ```
//!
//! ```
//! use meeple::agents::{play, Agent, RandomAgent};
//! use meeple::engine::{Game, Rules};
//! use meeple::{load, PackRef};
//! use std::sync::Arc;
//!
//! let pack = load(&[PackRef::Bundled("base".into())]).expect("the base game loads");
//! assert_eq!(pack.tile_count(), 72);
//! let rules = Arc::new(Rules::new(pack));
//! let mut game = Game::new(rules, 2, 42).expect("two players can play");
//! let first = game.options()[0];
//! game.apply(first).expect("options are legal");
//! let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(RandomAgent::new(1)), Box::new(RandomAgent::new(2))];
//! play(&mut game, &mut agents).expect("random games finish");
//! assert!(game.is_over());
//! ```

pub mod agents;
pub mod bundled;
pub mod check;
#[cfg(feature = "cli")]
pub mod cli;
pub mod diagnostic;
pub mod engine;
pub mod ir;
pub mod record;
pub mod source;
pub(crate) mod syntax;

pub use check::{load, LoadError, PackRef};
pub use diagnostic::{Code, Diagnostic};
pub use ir::RulePack;

/// The README's code examples, compiled and run by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeExamples;
