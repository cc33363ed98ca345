//! Game records: RON files in the game's own terms (see docs/records.md).
//! [`replay`] checks each step and the expectations; [`Record::from_game`]
//! writes what a played game did.
//!
//! The modules, from the lowest: `error` (how a replay fails), `format` (the
//! RON types, reading and loading), `naming` (game ↔ record words),
//! `write` (a game's record), `expect` (expectations), `walk` (the one
//! walker of a step, turning it into choices), `script` (the scripted
//! agent), `replay` and `moves` (one move typed by a person, in a record's
//! words). A module imports only lower ones.

mod error;
mod expect;
mod format;
mod moves;
mod naming;
#[cfg(test)]
mod naming_props;
mod replay;
mod script;
mod walk;
mod write;

pub use error::{Fails, ReplayError};
pub use expect::check;
pub use format::{Deploy, Expect, Pick, Record, Step, MAX_RECORD_BYTES};
pub use moves::{move_text, move_words, read_move};
pub use replay::{replay, replay_expecting, replay_expecting_in, replay_watching, replay_with, Outcome};
pub use script::ScriptedAgent;
