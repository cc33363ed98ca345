//! Scoring: which features a placement may have completed, completing
//! and scoring a feature by majority (with bonuses, rules' adjustments and
//! payments delayed to the end), returning its figures, and final scoring.
//! Points are paid only through `State::award`, which keeps every score
//! the sum of its points by reason.

use super::error::GameError;
use super::features::FeatureId;
use super::game::Game;
use super::ids::{PlacedId, Player};
use super::rules::Rules;
use super::state::State;
use super::task::{Adjustment, EventArgs, Log, Step, Task, UNJUDGED};
use super::types::Event;
use super::value::{EvalError, Value};
use crate::ir::program::EventKind;
use crate::ir::ReasonId;

impl Game {
    /// After the deploy decision: checks the features around the placed
    /// tile for completion, then ends the turn.
    pub(super) fn scoring(&mut self, placed: PlacedId) -> Step {
        self.tasks.push(Task::EndTurn);
        // The candidates go straight onto the task stack, first on top.
        let at = self.tasks.len();
        let kinds = &self.rules.pack.kinds;
        completion_candidates(&self.rules, &self.state, placed, |f| {
            // A feature whose kind never completes (fields) is not judged.
            if kinds[self.state.features().kind(f) as usize].complete.is_none() {
                return;
            }
            let queued = &mut self.tasks[at..];
            if !queued.iter().any(|t| matches!(t, Task::Complete(g) if *g == f)) {
                self.tasks.push(Task::Complete(f));
            }
        });
        self.tasks[at..].reverse();
        Step::Next
    }

    /// Scores a feature if it is complete and not yet scored: its events,
    /// its points, and its figures back to their supplies.
    pub(super) fn complete(&mut self, f: FeatureId) -> Result<Step, GameError> {
        let f = self.state.features().find(f);
        if !self.state.features().is_done(f) && self.completed(f).map_err(|e| self.kind_error(f, "complete when", e))? {
            self.state.set_done(f);
            let event = |event| self.feature_event(event, f);
            let tasks = [
                event(EventKind::FeatureCompleted),
                Some(Task::Score {
                    feature: f,
                    completed: true,
                }),
                event(EventKind::FeatureScored),
                Some(Task::ReturnAll(f)),
                event(EventKind::FeatureDone),
            ];
            self.then(tasks.into_iter().flatten());
        }
        Ok(Step::Next)
    }

    /// Returns the players' figures on a scored feature, unless its payment
    /// is delayed (its figures stay).
    pub(super) fn return_all(&mut self, f: FeatureId) -> Step {
        if self.delayed.contains(&self.state.features().find(f)) {
            return Step::Next;
        }
        // The players' figures go back last first; returning one moves no other.
        while let Some(m) = self.figures_on(f).filter(|m| m.owner.is_some()).last() {
            self.return_to_supply(m.id);
        }
        Step::Next
    }

    /// The game is over: points owed are paid, then every feature with
    /// figures on it and not yet scored is scored by its final formula.
    pub(super) fn final_scoring(&mut self) -> Result<Step, GameError> {
        let Game {
            rules,
            state,
            owed,
            log,
            ..
        } = self;
        // Draining: on a failure the rest of what is owed is dropped too.
        let mut paid = Vec::new();
        for (player, points, reason) in owed.drain(..) {
            pay(state, log, player, points, reason).map_err(|e| reason_error(rules, reason, e))?;
            paid.extend(points_event(rules, player, points, reason, 0));
        }
        let features = self.state.features();
        let mut roots: Vec<FeatureId> = self
            .state
            .figures()
            .iter()
            .map(|m| self.state.feature_of(m.placed, m.seg))
            .collect();
        roots.sort_unstable();
        roots.dedup();
        roots.retain(|f| !features.is_done(*f));
        roots.sort_by_key(|f| (features.kind(*f), *f));
        self.tasks.push(Task::Finish);
        self.fire(EventKind::GameOver, 0);
        let mut scoring = Vec::with_capacity(2 * roots.len());
        for f in roots {
            scoring.push(Task::Score {
                feature: f,
                completed: false,
            });
            scoring.extend(self.feature_event(EventKind::FeatureScored, f));
        }
        self.then(scoring);
        // What was owed was paid first, so its events come first.
        self.then(paid);
        Ok(Step::Next)
    }

    /// The event `event` about feature `f`, when a rule may hear it: an
    /// event none of whose handlers can run for the feature's kind
    /// ([`Game::unheard`]) would run nothing.
    fn feature_event(&self, event: EventKind, f: FeatureId) -> Option<Task> {
        // (`unheard` answers an event with no handler too; asked first here,
        // it costs base games, whose features no handler hears, 0.6% more.)
        let heard = !self.rules.handlers_of(event).is_empty() && !self.unheard(event, &[Value::Feature(f)], false);
        heard.then(|| Task::Fire {
            event,
            args: EventArgs::One(Value::Feature(f)),
            depth: 0,
            open: UNJUDGED,
        })
    }

    /// `adjust scoring of`: changes a feature's next scoring.
    pub(super) fn adjust(
        &mut self,
        f: FeatureId,
        replace: bool,
        n: i64,
        reason: Option<ReasonId>,
    ) -> Result<(), EvalError> {
        let root = self.state.features().find(f);
        let i = match self.adjustments.iter().position(|a| a.feature == root) {
            Some(i) => i,
            None => {
                self.adjustments.push(Adjustment {
                    feature: root,
                    replace: None,
                    add: 0,
                    reason: None,
                });
                self.adjustments.len() - 1
            }
        };
        let entry = &mut self.adjustments[i];
        if replace {
            (entry.replace, entry.add) = (Some(n), 0);
        } else {
            entry.add = entry.add.checked_add(n).ok_or(EvalError::Overflow)?;
        }
        if reason.is_some() {
            entry.reason = reason;
        }
        Ok(())
    }

    /// `delay scoring of`: a completed feature's points wait for the end,
    /// and its figures stay.
    pub(super) fn delay(&mut self, f: FeatureId) {
        let root = self.state.features().find(f);
        if !self.delayed.contains(&root) {
            self.delayed.push(root);
        }
    }

    /// Adds points to a player's score (and to their points under `reason`)
    /// and logs it; a score that would leave the range of `i64` is an
    /// overflow, which the caller reports as the failure of the rule that scored.
    /// `points_scored` fires next, one level deeper than the running rule.
    pub(super) fn award(&mut self, player: usize, points: i64, reason: ReasonId) -> Result<(), EvalError> {
        pay(&mut self.state, &mut self.log, player, points, reason)?;
        let event = points_event(&self.rules, player, points, reason, self.depth());
        self.tasks.extend(event);
        Ok(())
    }

    /// Pays a feature's value to the majority of its figures.
    pub(super) fn score_feature(&mut self, f: FeatureId, completed: bool) -> Result<(), GameError> {
        let rules = &*self.rules;
        let kind_id = self.state.features().kind(f);
        let kind = &rules.pack.kinds[kind_id as usize];
        let (formula, clause) = if completed {
            (&kind.score_completed, "score completed")
        } else {
            (&kind.score_final, "score final")
        };
        let root = self.state.features().find(f);
        let adjustment = self
            .adjustments
            .iter()
            .position(|a| a.feature == root)
            .map(|i| self.adjustments.remove(i));
        let owners = self.state.majority_mask(f);
        if owners == 0 {
            return Ok(());
        }
        // The kind's own value; not needed when a reasonless adjustment replaces it.
        let replaced = matches!(
            adjustment,
            Some(Adjustment {
                replace: Some(_),
                reason: None,
                ..
            })
        );
        let base = match formula {
            Some(formula) if !replaced => self
                .evaluator()
                .formula(formula, f, completed)
                .map_err(|e| self.kind_error(f, clause, e))?,
            None if adjustment.is_none() => return Ok(()),
            _ => 0,
        };
        // What is paid under the kind, and the extra paid under an adjustment's reason.
        let (own, extra) = match adjustment {
            None => (base, None),
            Some(a) => {
                let overflow = |_| self.kind_error(f, clause, EvalError::Overflow);
                let adjusted = a
                    .replace
                    .unwrap_or(base)
                    .checked_add(a.add)
                    .ok_or(())
                    .map_err(overflow)?;
                match a.reason {
                    None => (adjusted, None),
                    Some(reason) => (
                        base,
                        Some((adjusted.checked_sub(base).ok_or(()).map_err(overflow)?, reason)),
                    ),
                }
            }
        };
        let extra = extra.filter(|&(points, _)| points != 0);
        let later = completed && self.delayed.contains(&root);
        let mut paid = Vec::new();
        for player in (0..self.state.players()).filter(|p| owners & (1 << p) != 0) {
            for (points, reason) in std::iter::once((own, kind_id)).chain(extra) {
                if later {
                    self.owed.push((player, points, reason));
                } else {
                    pay(&mut self.state, &mut self.log, player, points, reason)
                        .map_err(|e| self.kind_error(f, clause, e))?;
                    paid.extend(points_event(&self.rules, player, points, reason, 0));
                }
            }
        }
        self.then(paid);
        Ok(())
    }

    /// A failure in a clause of a feature kind, named by the kind.
    pub(super) fn kind_error(&self, f: FeatureId, clause: &str, e: EvalError) -> GameError {
        let kind = &self.rules.pack.kinds[self.state.features().kind(f) as usize];
        e.kind().error(format!(
            "{e} in `{clause}` of feature `{}` ({})",
            kind.name,
            self.rules.pack.locate(kind.span)
        ))
    }
}

/// A failure paying points delayed to the end of the game under `reason`:
/// named by the feature kind when the reason is one.
fn reason_error(rules: &Rules, reason: ReasonId, e: EvalError) -> GameError {
    let pack = &rules.pack;
    let name = &pack.reasons[reason as usize];
    match pack.kinds.get(reason as usize).filter(|k| &k.name == name) {
        Some(kind) => e.kind().error(format!(
            "{e} paying the delayed points of feature `{}` ({})",
            kind.name,
            pack.locate(kind.span)
        )),
        None => e.kind().error(format!("{e} paying the delayed points for `{name}`")),
    }
}

/// The `points_scored` event of a payment, when a rule listens to it.
fn points_event(rules: &Rules, player: usize, points: i64, reason: ReasonId, depth: u16) -> Option<Task> {
    let event = EventKind::PointsScored;
    (!rules.handlers_of(event).is_empty()).then(|| Task::Fire {
        event,
        args: EventArgs::List(vec![
            Value::Player(player as u8),
            Value::Int(points),
            Value::Reason(reason),
        ]),
        depth,
        open: UNJUDGED,
    })
}

/// Features the placement may have completed, each handed to `each` (it
/// may come more than once): the tile's own, and area features on the 3×3
/// around it.
fn completion_candidates(rules: &Rules, state: &State, placed: PlacedId, mut each: impl FnMut(FeatureId)) {
    let pack = &rules.pack;
    let board = state.board();
    let p = board.placed[placed.index()];
    for seg in 0..pack.tiles[p.tile as usize].segments.len() as u8 {
        each(state.feature_of(placed, seg));
    }
    board.around(p.pos, |other, _| {
        let mut areas = state.area_segments(other);
        while areas != 0 {
            each(state.feature_of(other, areas.trailing_zeros() as u8));
            areas &= areas - 1;
        }
    });
}

/// Pays points into the state and logs the payment: [`Game::award`] for
/// callers that hold other parts of the game borrowed.
fn pay(state: &mut State, log: &mut Log, player: usize, points: i64, reason: ReasonId) -> Result<(), EvalError> {
    state.award(player, points, reason)?;
    log.emit(Event::Scored {
        player: Player::at(player),
        points,
        reason,
    });
    Ok(())
}
