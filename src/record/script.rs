//! The scripted agent: [`ScriptedAgent`] plays a record's moves one
//! decision at a time, so that [`crate::agents::play`] reproduces a recorded
//! game.

use super::format::{Record, Step};
use super::walk::{StepCursor, TurnMoves};
use crate::engine::{Choice, ErrorKind, Game, GameError};

/// The moves of a record, answered one decision at a time.
#[derive(Debug)]
struct Script {
    /// The record's Turn steps.
    turns: Vec<Step>,
    /// The Turn step being played.
    turn: usize,
    cursor: StepCursor,
}

impl Script {
    fn answer(&mut self, game: &Game) -> Result<Choice, GameError> {
        if game.decision().is_none() {
            return Err(GameError::new(ErrorKind::GameOver, "the game is over"));
        }
        if self.cursor.done(game) {
            (self.turn, self.cursor) = (self.turn + 1, StepCursor::default());
        }
        let turn = self
            .turns
            .get(self.turn)
            .and_then(TurnMoves::of)
            .ok_or_else(|| GameError::new(ErrorKind::MissingChoice, "the script has no more turns"))?;
        self.cursor.choice(game, &turn)
    }
}

/// An agent that plays a record's moves. All seats share one script, so a
/// choice asked of any player is answered from the record. With the record's
/// draws forced ([`Record::draw_names`] and [`crate::Setup::replay`]), scripted
/// agents reproduce the recorded game through [`crate::agents::play`].
#[derive(Clone, Debug)]
pub struct ScriptedAgent {
    script: std::rc::Rc<std::cell::RefCell<Script>>,
}

impl ScriptedAgent {
    /// One agent per seat, all playing `record`.
    pub fn seats(record: &Record, players: usize) -> Vec<Box<dyn crate::agents::Agent>> {
        let turns = record
            .turns
            .iter()
            .filter(|s| matches!(s, Step::Turn { .. }))
            .cloned()
            .collect();
        let script = std::rc::Rc::new(std::cell::RefCell::new(Script {
            turns,
            turn: 0,
            cursor: StepCursor::default(),
        }));
        (0..players)
            .map(|_| Box::new(ScriptedAgent { script: script.clone() }) as Box<dyn crate::agents::Agent>)
            .collect()
    }
}

impl crate::agents::Agent for ScriptedAgent {
    fn choose(&mut self, game: &Game, _options: &[Choice]) -> Result<Choice, GameError> {
        self.script.borrow_mut().answer(game)
    }

    fn name(&self) -> &str {
        "scripted"
    }

    fn looks(&self) -> bool {
        false
    }
}
