//! The scripted agent: [`ScriptedAgent`] plays a record's moves one
//! decision at a time, so that [`crate::agents::play`] reproduces a recorded
//! game.

use super::format::{Deploy, Pick, Record, Step};
use super::naming::{action_window, choice_for, deploy_choice, rotation};
use crate::engine::{Choice, Decision, ErrorKind, Game, GameError, Pos};
use crate::ir::program::Window;

/// One turn of a script: the tile, where it goes, the deployment, the choices.
#[derive(Debug)]
struct ScriptTurn {
    tile: String,
    at: Pos,
    rot: i64,
    deploy: Option<Deploy>,
    choices: Vec<Pick>,
}

/// The moves of a record, answered one decision at a time.
#[derive(Debug)]
struct Script {
    turns: Vec<ScriptTurn>,
    turn: usize,
    next_choice: usize,
    placed: bool,
}

impl Script {
    fn next_pick(&mut self) -> Option<Pick> {
        let pick = self.turns.get(self.turn)?.choices.get(self.next_choice)?.clone();
        self.next_choice += 1;
        Some(pick)
    }

    fn peek_is_action(&self, game: &Game, window: Window) -> bool {
        let next = self.turns.get(self.turn).and_then(|t| t.choices.get(self.next_choice));
        action_window(game, next) == Some(window)
    }

    fn answer(&mut self, game: &Game) -> Result<Choice, GameError> {
        match game.decision() {
            Some(Decision::Place { .. }) => {
                if self.placed {
                    (self.turn, self.next_choice, self.placed) = (self.turn + 1, 0, false);
                }
                if self.peek_is_action(game, Window::BeforePlace) {
                    return choice_for(game, &self.next_pick().expect("peeked"));
                }
                let turn = self
                    .turns
                    .get(self.turn)
                    .ok_or_else(|| GameError::new(ErrorKind::MissingChoice, "the script has no more turns"))?;
                let tile =
                    game.rules().pack.tile(&turn.tile).ok_or_else(|| {
                        GameError::new(ErrorKind::UnknownName, format!("unknown tile `{}`", turn.tile))
                    })?;
                let choice = Choice::Place {
                    tile,
                    pos: turn.at,
                    rot: rotation(turn.rot)?,
                };
                self.placed = true;
                Ok(choice)
            }
            Some(Decision::Deploy { placed, .. }) => {
                if self.peek_is_action(game, Window::Deploy) {
                    return choice_for(game, &self.next_pick().expect("peeked"));
                }
                match self.turns.get(self.turn).and_then(|t| t.deploy.clone()) {
                    None => Ok(Choice::Pass),
                    Some(d) => deploy_choice(game, placed, &d),
                }
            }
            Some(Decision::Choose { .. }) => {
                let pick = self.next_pick().ok_or_else(|| {
                    GameError::new(ErrorKind::MissingChoice, "the script has no answer for this choice")
                })?;
                choice_for(game, &pick)
            }
            None => Err(GameError::new(ErrorKind::GameOver, "the game is over")),
        }
    }
}

/// An agent that plays a record's moves. All seats share one script, so a
/// choice asked of any player is answered from the record. With the record's
/// draws forced ([`Record::draw_names`] and [`Game::replaying`]), scripted
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
            .filter_map(|s| match s {
                Step::Turn {
                    tile,
                    at,
                    rot,
                    deploy,
                    choices,
                    ..
                } => Some(ScriptTurn {
                    tile: tile.clone(),
                    at: *at,
                    rot: *rot,
                    deploy: deploy.clone(),
                    choices: choices.clone(),
                }),
                _ => None,
            })
            .collect();
        let script = std::rc::Rc::new(std::cell::RefCell::new(Script {
            turns,
            turn: 0,
            next_choice: 0,
            placed: false,
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
