//! The one walker of a record's step: [`StepCursor`] turns a Turn step and
//! the game's pending decision into the next [`Choice`] (a `choose` answer,
//! an action before placing, the placement, an action instead of deploying,
//! the deployment). The replay applies its choices and checks the step
//! around them; the scripted agent hands them to the game.

use super::format::{Deploy, Pick, Step};
use super::moves::choice_listed;
use super::naming::{action_window, deploy_choice, names_no_action, rotation, tile_id};
use crate::engine::{Choice, Decision, ErrorKind, Game, GameError, Pos};
use crate::ir::program::{Domain, Window};

/// The moves of one Turn step, borrowed from the record.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TurnMoves<'a> {
    tile: &'a str,
    at: Pos,
    rot: i64,
    deploy: Option<&'a Deploy>,
    choices: &'a [Pick],
}

impl<'a> TurnMoves<'a> {
    /// The moves of a Turn step; `None` for any other step.
    pub(crate) fn of(step: &'a Step) -> Option<Self> {
        match step {
            Step::Turn {
                tile,
                at,
                rot,
                deploy,
                choices,
                ..
            } => Some(TurnMoves {
                tile,
                at: *at,
                rot: *rot,
                deploy: deploy.as_ref(),
                choices,
            }),
            _ => None,
        }
    }
}

/// How far a Turn step has been played: the next of its `choices`, and
/// whether its tile is placed. It answers every decision from the first
/// `choose` of the step (or its placement decision) until the next turn's
/// placement decision.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct StepCursor {
    next: usize,
    placed: bool,
}

impl StepCursor {
    /// Whether the step's tile is placed.
    pub(crate) fn placed(&self) -> bool {
        self.placed
    }

    /// How many of the step's choices are still unused.
    pub(crate) fn unused(&self, turn: &TurnMoves) -> usize {
        turn.choices.len().saturating_sub(self.next)
    }

    /// Whether the step is played out at the pending decision: its tile is
    /// placed, and the game asks for the next placement or is over.
    pub(crate) fn done(&self, game: &Game) -> bool {
        self.placed && matches!(game.decision(), Some(Decision::Place { .. }) | None)
    }

    /// The step's choice for the game's pending decision:
    /// - a `choose`: the next of `choices`;
    /// - the placement decision: the next of `choices` when it is an action
    ///   taken before placing, otherwise the step's placement;
    /// - the deploy decision: the next of `choices` when it is an action
    ///   (taken instead of deploying, so the step must not deploy), otherwise
    ///   the step's `deploy` or a pass.
    pub(crate) fn choice(&mut self, game: &Game, turn: &TurnMoves) -> Result<Choice, GameError> {
        let next = turn.choices.get(self.next);
        match game.decision() {
            Some(Decision::Choose { .. }) => self.answer(game, turn),
            // An action taken before placing, or one the rules do not have
            // (refused here, with the names it may have meant).
            Some(Decision::Place { .. })
                if !self.placed
                    && (action_window(game, next) == Some(Window::BeforePlace) || names_no_action(game, next)) =>
            {
                self.answer(game, turn)
            }
            Some(Decision::Deploy { placed, .. }) if self.placed => {
                if let Some(Pick::Action { .. }) = next {
                    if turn.deploy.is_some() {
                        return Err(GameError::new(
                            ErrorKind::ActionAndDeploy,
                            "a turn takes an action or deploys a figure, not both",
                        ));
                    }
                    return self.answer(game, turn);
                }
                match turn.deploy {
                    None => Ok(Choice::Pass),
                    Some(d) => deploy_choice(game, placed, d).map_err(|why| {
                        let figure = d.figure.as_deref().unwrap_or("a figure");
                        why.context(format_args!(
                            "tile {} at {:?}: cannot deploy {figure} on {}",
                            turn.tile, turn.at, d.on
                        ))
                    }),
                }
            }
            // The placement, even when the game asks for something else: the
            // game then refuses it and says why.
            _ if !self.placed => {
                let rot = rotation(turn.rot)?;
                let tile = tile_id(game.rules(), turn.tile)?;
                self.placed = true;
                Ok(Choice::Place {
                    tile,
                    pos: turn.at,
                    rot,
                })
            }
            // Both walkers move to the next step once this one is played out
            // (`done`), so this answers only a caller that asks again anyway.
            _ => Err(GameError::new(
                ErrorKind::WrongDecision,
                format!("{}, but this turn is played out", describe_decision(game)),
            )),
        }
    }

    /// The next of the step's choices, as the option of the pending decision.
    fn answer(&mut self, game: &Game, turn: &TurnMoves) -> Result<Choice, GameError> {
        let asked = describe_decision(game);
        let Some(pick) = turn.choices.get(self.next) else {
            return Err(GameError::new(
                ErrorKind::MissingChoice,
                format!("{asked}; add the answer to this turn's `choices`"),
            ));
        };
        self.next += 1;
        choice_listed(game, pick).map_err(|why| why.context(&asked))
    }
}

/// What the pending decision asks, in words.
pub(crate) fn describe_decision(game: &Game) -> String {
    match game.decision() {
        Some(Decision::Choose {
            player,
            domain,
            optional,
        }) => {
            let what = match domain {
                Domain::Players => "a player".to_string(),
                Domain::Tiles => "a tile".to_string(),
                Domain::Figures(None) => "a figure".to_string(),
                Domain::Figures(Some(f)) => format!("a {}", game.rules().pack.figures[f as usize].name),
                Domain::Features(None) => "a feature".to_string(),
                Domain::Features(Some(k)) => format!("a {}", game.rules().pack.kinds[k as usize].name),
                Domain::Cards => "a card from their hand".to_string(),
                Domain::Squares => "a square next to the board".to_string(),
                Domain::Directions => "a direction".to_string(),
                Domain::Options => "one of the named options".to_string(),
            };
            let may = if optional { " (or Decline)" } else { "" };
            format!("the game asks player {player} to choose {what}{may}")
        }
        Some(Decision::Place { player, .. }) => format!("the game asks player {player} to place the tile"),
        Some(Decision::Deploy { player, .. }) => format!("the game asks player {player} to deploy"),
        None => "the game is over".to_string(),
    }
}
