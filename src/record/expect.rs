//! Expectations: [`check`] holds a game to one [`Expect`] entry of a
//! record, and says what it found when the entry does not hold.

use super::format::Expect;
use super::naming::{figure_id, segment_at};
use crate::engine::{Game, Player};
use crate::ir::FigureTypeId;

/// Checks one expectation; the error says what was found.
pub fn check(game: &Game, expect: &Expect) -> Result<(), String> {
    let pack = &game.rules().pack;
    let player_ok = |p: usize| {
        if p < game.players() {
            Ok(())
        } else {
            Err(format!(
                "player {p} does not exist; players are 0 to {}",
                game.players() - 1
            ))
        }
    };
    match expect {
        Expect::Scores(want) => {
            if want.as_slice() != game.scores() {
                return Err(format!("scores are {:?}, expected {want:?}", game.scores()));
            }
        }
        Expect::Points { player, reason, points } => {
            player_ok(*player)?;
            let r = pack
                .reasons
                .iter()
                .position(|x| x == reason)
                .ok_or_else(|| format!("unknown reason `{reason}`; reasons are {}", pack.reasons.join(", ")))?;
            let got = game.points(Player(*player as u8), r as u16).unwrap_or(0);
            if got != *points {
                return Err(format!(
                    "player {player} has {got} points from {reason}, expected {points}"
                ));
            }
        }
        Expect::Supply { player, figure, count } => {
            player_ok(*player)?;
            let got: u32 = match figure {
                Some(name) => u32::from(
                    game.supply(Player(*player as u8), figure_id(game, name).map_err(|e| e.to_string())?)
                        .unwrap_or(0),
                ),
                None => (0..pack.figures.len())
                    .map(|f| u32::from(game.supply(Player(*player as u8), f as FigureTypeId).unwrap_or(0)))
                    .sum(),
            };
            if got != *count {
                return Err(format!("player {player} has {got} figures in supply, expected {count}"));
            }
        }
        Expect::Figure { player, at, on, figure } => {
            player_ok(*player)?;
            let placed = game.board().at(*at).ok_or_else(|| format!("no tile at {at:?}"))?;
            let seg = segment_at(game, placed, on).map_err(|e| e.to_string())?;
            let want_figure = figure
                .as_deref()
                .map(|n| figure_id(game, n))
                .transpose()
                .map_err(|e| e.to_string())?;
            let found = game.figures().iter().any(|m| {
                m.placed == placed
                    && m.seg == seg
                    && m.owner == Some(Player(*player as u8))
                    && want_figure.is_none_or(|f| f == m.figure_type)
            });
            if !found {
                return Err(format!("no figure of player {player} at {at:?} on {on}"));
            }
        }
        Expect::Empty { at, on } => {
            let placed = game.board().at(*at).ok_or_else(|| format!("no tile at {at:?}"))?;
            let seg = segment_at(game, placed, on).map_err(|e| e.to_string())?;
            if let Some(m) = game.figures().iter().find(|m| m.placed == placed && m.seg == seg) {
                let owner = m.owner.map_or("neutral".to_string(), |o| format!("player {}", o.0));
                return Err(format!(
                    "a {} of {owner} is at {at:?} on {on}",
                    pack.figures[m.figure_type as usize].name
                ));
            }
        }
        Expect::GameOver(want) => {
            if game.is_over() != *want {
                return Err(format!("the game is {}over", if game.is_over() { "" } else { "not " }));
            }
        }
    }
    Ok(())
}
