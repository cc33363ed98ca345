//! meeple: a rules language and engine for Carcassonne.
//!
//! Every expansion, the base game included, is a `.rules` file. The pipeline
//! runs in one direction:
//!
//! ```text
//! .rules text --parse--> AST --check--> IR (RulePack) --run--> games
//! ```
//!
//! ```
//! use meeple::{load, PackRef};
//!
//! let pack = load(&[PackRef::Bundled("base".into())]).expect("the base game loads");
//! assert_eq!(pack.tile_count(), 72);
//! assert_eq!(pack.tiles[pack.start as usize].name, "D");
//! ```

pub mod agents;
pub mod bundled;
pub mod check;
pub mod cli;
pub mod diagnostic;
pub mod engine;
pub mod ir;
pub mod record;
pub mod source;
pub mod syntax;

pub use check::{load, LoadError, PackRef};
pub use diagnostic::{Code, Diagnostic};
pub use ir::RulePack;
