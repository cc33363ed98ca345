//! Replaying a record: [`replay`] and [`replay_with`] check every step
//! (naming the first illegal one by its index and error kind) and the
//! expectations; [`replay_expecting`] also holds a record to its `fails`.

use super::error::ReplayError;
use super::expect::check;
use super::format::{Record, Step};
use super::naming::{card_id, tile_id};
use super::walk::{StepCursor, TurnMoves};
use crate::engine::{Decision, ErrorKind, Event, Game, GameError, Rules, Setup};
use crate::ir::TileId;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a record's replay showed, when it went as the record says.
#[derive(Debug)]
pub enum Outcome {
    /// Every step and expectation held; the game as it stands after them.
    Played(Box<Game>),
    /// The record failed as its `fails` says it must.
    FailedAsExpected(ReplayError),
}

/// Replays a record and holds it to its `fails`: a record with `fails` must
/// fail in just that way, and one without must replay.
pub fn replay_expecting(record: &Record, dir: &Path) -> Result<Outcome, ReplayError> {
    replay_expecting_in(record, dir, &[])
}

/// [`replay_expecting`], with the record's packs also looked for in `packs_dirs`.
pub fn replay_expecting_in(record: &Record, dir: &Path, packs_dirs: &[PathBuf]) -> Result<Outcome, ReplayError> {
    let result = record
        .load_rules_from(dir, packs_dirs)
        .and_then(|rules| replay_with(record, Arc::new(rules)));
    match (&record.fails, result) {
        (None, result) => result.map(|game| Outcome::Played(Box::new(game))),
        (Some(fails), Err(e)) if fails.matches(&e) => Ok(Outcome::FailedAsExpected(e)),
        (Some(fails), result) => Err(ReplayError::Fails {
            expected: fails.clone(),
            found: result.err().map(Box::new),
        }),
    }
}

/// Replays a record from its folder `dir`, checking every step and expectation.
pub fn replay(record: &Record, dir: &Path) -> Result<Game, ReplayError> {
    let rules = Arc::new(record.load_rules(dir)?);
    replay_with(record, rules)
}

/// Replays a record on already loaded rules.
pub fn replay_with(record: &Record, rules: Arc<Rules>) -> Result<Game, ReplayError> {
    replay_watching(record, rules, &mut |_, _| {})
}

/// [`replay_with`], showing the game to `watch` once it is set up (with
/// `None`) and after each step that plays (with the step's index), so a
/// viewer can take a snapshot of every turn.
pub fn replay_watching(
    record: &Record,
    rules: Arc<Rules>,
    watch: &mut dyn FnMut(Option<usize>, &Game),
) -> Result<Game, ReplayError> {
    let tile_id = |name: &str| tile_id(&rules, name);
    let stack = match &record.tiles {
        Some(names) => Some(
            names
                .iter()
                .map(|n| tile_id(n))
                .collect::<Result<Vec<TileId>, GameError>>()
                .map_err(|e| ReplayError::Setup(format!("in `tiles`: {e}")))?,
        ),
        None => None,
    };
    let mut left: Vec<u32> = vec![0; rules.pack.tiles.len()];
    match &stack {
        Some(s) => s.iter().for_each(|t| left[*t as usize] += 1),
        None => {
            for (t, tile) in rules.pack.tiles.iter().enumerate() {
                left[t] = tile.count.saturating_sub(u32::from(t == rules.pack.start as usize));
            }
        }
    }
    // Each step's names and draws are checked in order, but a step is
    // reported only after every earlier step has played: the first step
    // whose names or draws are wrong is remembered, and only the draws of
    // the steps before it are forced.
    let mut draws = Vec::new();
    let mut cards = Vec::new();
    let mut wrong: Option<ReplayError> = None;
    for (index, step) in record.turns.iter().enumerate() {
        match step_draws(record, &rules, stack.as_deref(), &mut left, step) {
            Ok((tiles, step_cards)) => {
                draws.extend(tiles);
                cards.extend(step_cards);
            }
            Err(error) => {
                wrong = Some(ReplayError::Step { index, error });
                break;
            }
        }
    }
    let playable = match &wrong {
        Some(e) => e.step().unwrap_or(0),
        None => record.turns.len(),
    };
    // Set-up errors (players) come before any step's.
    let mut setup = Setup::new(record.players.len()).replay(draws, cards);
    if let Some(stack) = stack {
        setup = setup.stack(stack);
    }
    let mut game = match Game::new(rules.clone(), setup) {
        Ok(game) => game,
        Err(e) if e.kind() == ErrorKind::Setup => return Err(ReplayError::Setup(e.to_string())),
        // The first step's wrong names are why a setup that draws what the
        // first step lists (cards drawn at setup count with it) failed.
        Err(e) => {
            return Err(match wrong {
                Some(wrong) if playable == 0 => wrong,
                // No step to lay the fault at: the setup's own.
                _ if record.turns.is_empty() => ReplayError::Setup(format!(
                    "{} (the record has no step; the cards a game's setup draws are listed in its first step's `cards`)",
                    e.message()
                )),
                _ => ReplayError::Step { index: 0, error: e },
            });
        }
    };
    let mut draws_seen = 0;
    watch(None, &game);
    // Events before the first step (setup) count with the first step.
    let mut log_seen = 0;
    for (index, step) in record.turns.iter().enumerate().take(playable) {
        if index > 0 {
            log_seen = game.log().len();
        }
        replay_step(&mut game, step, index, &mut draws_seen)?;
        watch(Some(index), &game);
        let drawn: Vec<&str> = game.log()[log_seen..]
            .iter()
            .filter_map(|e| match e {
                Event::CardDrawn { card, .. } => rules.pack.program.cards.get(*card as usize).map(|c| c.name.as_str()),
                _ => None,
            })
            .collect();
        let listed: Vec<&str> = match step {
            Step::Turn { cards, .. } => cards.iter().map(String::as_str).collect(),
            _ => Vec::new(),
        };
        if drawn != listed {
            return Err(ReplayError::Step {
                index,
                error: GameError::new(
                    ErrorKind::CardsMismatch,
                    format!(
                        "the cards drawn in this step were {drawn:?}, but the record lists {listed:?} (a step's `cards` are the cards drawn while it is played)"
                    ),
                ),
            });
        }
    }
    if let Some(e) = wrong {
        return Err(e);
    }
    for e in &record.expect {
        check(&game, e).map_err(|message| ReplayError::Expect { index: None, message })?;
    }
    Ok(game)
}

/// The tiles and cards a step draws, by id, after checking its names and
/// that each tile it places or discards is still to be drawn (`left`, by
/// tile type, counts down).
fn step_draws(
    record: &Record,
    rules: &Rules,
    stack: Option<&[TileId]>,
    left: &mut [u32],
    step: &Step,
) -> Result<(Vec<TileId>, Vec<u16>), GameError> {
    let tile_id = |name: &str| tile_id(rules, name);
    let (placed, extra): (&String, &[String]) = match step {
        Step::Turn {
            tile, draws: Some(d), ..
        } => (tile, d.as_slice()),
        Step::Turn { tile, .. } | Step::Discard { tile } => (tile, std::slice::from_ref(tile)),
        Step::Check(_) => return Ok((Vec::new(), Vec::new())),
    };
    if !extra.contains(placed) {
        return Err(GameError::new(
            ErrorKind::TileNotDrawn,
            format!("tile {placed} is not among this turn's draws"),
        ));
    }
    let draws = extra.iter().map(|n| tile_id(n)).collect::<Result<Vec<_>, _>>()?;
    let cards = match step {
        Step::Turn { cards: names, .. } => names.iter().map(|n| card_id(rules, n)).collect::<Result<Vec<_>, _>>()?,
        _ => Vec::new(),
    };
    // Tiles drawn beside the placed one may go back into the stack, so
    // only the placed (or discarded) tile is counted off here.
    let id = tile_id(placed)?;
    if left[id as usize] == 0 {
        let whence = if record.tiles.is_some() {
            "the record's `tiles`"
        } else {
            "the tile set"
        };
        if left.iter().all(|&n| n == 0) {
            return Err(GameError::new(
                ErrorKind::GameOver,
                format!(
                    "the game is over: the steps before drew every tile in {whence}, so no turn can follow; remove this step and those after it"
                ),
            ));
        }
        let never = match stack {
            Some(s) => !s.contains(&id),
            None => rules.pack.tiles[id as usize].count == 0,
        };
        return Err(GameError::new(
            ErrorKind::TileNotInStack,
            if never {
                format!("tile {placed} cannot be drawn: {whence} holds none")
            } else {
                format!("tile {placed} cannot be drawn: every copy in {whence} was drawn before")
            },
        ));
    }
    left[id as usize] -= 1;
    Ok((draws, cards))
}

/// Plays one step of a record.
fn replay_step(game: &mut Game, step: &Step, index: usize, draws_seen: &mut usize) -> Result<(), ReplayError> {
    let fail = |error: GameError| ReplayError::Step { index, error };
    match step {
        Step::Check(expects) => {
            for e in expects {
                check(game, e).map_err(|message| ReplayError::Expect {
                    index: Some(index),
                    message,
                })?;
            }
        }
        Step::Discard { tile } => {
            let (_, discarded) = nth_draw(game, *draws_seen).ok_or_else(|| {
                fail(GameError::new(
                    ErrorKind::GameOver,
                    "no tile is drawn here; the game is over",
                ))
            })?;
            *draws_seen += 1;
            if !discarded {
                return Err(fail(GameError::new(
                    ErrorKind::CannotDiscard,
                    format!("tile {tile} fits on the board, so it cannot be discarded"),
                )));
            }
        }
        Step::Turn { tile, .. } => {
            let turn = TurnMoves::of(step).expect("a Turn step");
            let mut cursor = StepCursor::default();
            let play = |game: &mut Game, cursor: &mut StepCursor| {
                let choice = cursor.choice(game, &turn).map_err(fail)?;
                game.apply(choice).map_err(fail)
            };
            // Choices pending before the draw (at the very start of a game).
            while let Some(Decision::Choose { .. }) = game.decision() {
                play(game, &mut cursor)?;
            }
            let (_, discarded) = nth_draw(game, *draws_seen)
                .ok_or_else(|| fail(GameError::new(ErrorKind::GameOver, "the game is already over")))?;
            *draws_seen += 1;
            if discarded {
                return Err(fail(GameError::new(
                    ErrorKind::MustDiscard,
                    format!("tile {tile} fits nowhere on the board; the record must say Discard(tile: \"{tile}\")"),
                )));
            }
            // Actions taken before placing, the choices they ask, and the placement.
            while !cursor.placed() {
                play(game, &mut cursor)?;
            }
            // Choices the placement raises (before the deploy phase).
            while let Some(Decision::Choose { .. }) = game.decision() {
                play(game, &mut cursor)?;
            }
            if !matches!(game.decision(), Some(Decision::Deploy { .. })) {
                return Err(fail(GameError::new(
                    ErrorKind::WrongDecision,
                    "the game did not ask for a deployment after the placement",
                )));
            }
            // The deployment, or an action taken instead.
            play(game, &mut cursor)?;
            // Every choice until the next placement.
            while let Some(Decision::Choose { .. }) = game.decision() {
                play(game, &mut cursor)?;
            }
            let unused = cursor.unused(&turn);
            if unused > 0 {
                return Err(fail(GameError::new(
                    ErrorKind::LeftoverChoices,
                    format!("{unused} choice(s) left over: the game asked for no more in this turn"),
                )));
            }
        }
    }
    Ok(())
}

/// The `n`-th draw of the game (from 0): the tile, and whether it was discarded.
fn nth_draw(game: &Game, n: usize) -> Option<(TileId, bool)> {
    let log = game.log();
    let (i, tile) = log
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match e {
            Event::Drew { tile, .. } => Some((i, *tile)),
            _ => None,
        })
        .nth(n)?;
    let discarded = matches!(log.get(i + 1), Some(Event::Discarded { .. }));
    Some((tile, discarded))
}
