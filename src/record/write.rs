//! Writing a played game as a record: [`Record::from_game`] turns the
//! game's log of events into steps, naming everything in the game's terms
//! through [`super::naming`].

use super::format::{Pick, Record, Step};
use super::naming::{action_pick, degrees, deploy_of, pick_of};
use crate::engine::{ErrorKind, Event, Game, GameError};
use crate::ir::program::Window;

/// The packs a record of `game` lists: `rules` as given, checked against
/// the packs the game loaded when they are all pack names (paths are taken
/// as given), or, when none are given, the game's packs that no other of
/// its packs requires: by name when bundled, else by the path they were
/// read from. A replay loads a name as the bundled pack, so a name stands
/// only for a pack whose text is the bundled one's.
fn rules_of(game: &Game, rules: Vec<String>) -> Result<Vec<String>, GameError> {
    let rule_pack = &game.rules().pack;
    let packs = &rule_pack.packs;
    let required: Vec<bool> = (0..packs.len())
        .map(|i| packs.iter().any(|p| p.requires.iter().any(|r| usize::from(*r) == i)))
        .collect();
    let loaded = || packs.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", ");
    // A pack read from a file of its own, not the bundled text: its path.
    let from_file = |i: usize| {
        let p = &packs[i];
        (crate::bundled::bundled(&p.name) != Some(rule_pack.sources.text(p.file)))
            .then(|| rule_pack.sources.name(p.file).to_string())
    };
    let named = |name: &str| -> Result<(), GameError> {
        match packs.iter().position(|p| p.name == name) {
            None => Err(ErrorKind::NoSuchId.error(format!(
                "the record's rules name `{name}`, a pack this game did not load; give the packs it was played with ({}), or none to have them listed",
                loaded()
            ))),
            Some(i) => match from_file(i) {
                Some(path) => Err(ErrorKind::NoSuchId.error(format!(
                    "the record's rules name `{name}`, which a replay loads as the bundled pack, but this game read it from `{path}`: give the file's path"
                ))),
                None => Ok(()),
            },
        }
    };
    if rules.is_empty() {
        let top = (0..packs.len()).filter(|&i| !required[i]);
        return Ok(top
            .map(|i| from_file(i).unwrap_or_else(|| packs[i].name.clone()))
            .collect());
    }
    let is_path = |r: &String| r.contains(['/', '\\']) || r.ends_with(".rules");
    for r in rules.iter().filter(|r| !is_path(r)) {
        named(r)?;
    }
    if let Some((_, twice)) = rules.iter().enumerate().find(|(i, r)| rules[..*i].contains(r)) {
        return Err(ErrorKind::NoSuchId.error(format!("the record's rules list `{twice}` twice; list each pack once")));
    }
    if rules.iter().any(is_path) {
        return Ok(rules);
    }
    // Every pack the game loaded is listed, or required by one that is.
    let id = |name: &str| packs.iter().position(|p| p.name == name);
    let mut covered = vec![false; packs.len()];
    let mut todo: Vec<usize> = rules.iter().filter_map(|r| id(r)).collect();
    while let Some(i) = todo.pop() {
        if !std::mem::replace(&mut covered[i], true) {
            todo.extend(packs[i].requires.iter().map(|r| usize::from(*r)));
        }
    }
    if let Some(missing) = packs.iter().zip(&covered).find(|(_, c)| !**c).map(|(p, _)| p) {
        return Err(ErrorKind::NoSuchId.error(format!(
            "the record's rules leave out `{}`, a pack this game was played with; give the packs it was played with ({}), or none to have them listed",
            missing.name,
            loaded()
        )));
    }
    Ok(rules)
}

impl Record {
    /// The record of a played game: every draw and decision, in order, with
    /// one name per player in turn order (none: `Player 1`, `Player 2` ...).
    /// `rules` lists the packs a replay loads: pack names are checked
    /// against the packs the game was played with (each one loaded, every
    /// one listed or required by one listed, and not read from a file of
    /// its own), paths are taken as given, and none lists the game's packs
    /// that no other of them requires (bundled by name, others by path).
    /// A player's view (or a copy of one) is refused: its hidden parts are a
    /// sample, not the game that was played; so is a game whose log misses
    /// events (`IncompleteLog`: logging turned off, or a search copy).
    pub fn from_game(
        game: &Game,
        rules: Vec<String>,
        players: Vec<String>,
        seed: Option<u64>,
    ) -> Result<Record, GameError> {
        if game.is_view() {
            return Err(ErrorKind::View
                .error("this is a player's view, whose hidden tiles and cards are a sample: record the game itself"));
        }
        if !game.log_is_whole() {
            return Err(ErrorKind::IncompleteLog.error(
                "this game's log is not whole (logging was turned off, or it is a search copy, which keeps none): record a game played with its log on from the start",
            ));
        }
        let players_in_game = game.scores().len();
        // No names: the players are numbered.
        let players = if players.is_empty() {
            (1..=players_in_game).map(|p| format!("Player {p}")).collect()
        } else {
            players
        };
        if players.len() != players_in_game {
            return Err(ErrorKind::NoSuchId.error(format!(
                "{} player names for a game of {players_in_game} players: give one name per player, in turn order",
                players.len()
            )));
        }
        let rules = rules_of(game, rules)?;
        let pack = &game.rules().pack;
        let mut turns: Vec<Step> = Vec::new();
        // Replay answers a Turn's choices from its placement decision on, so
        // an action taken before placing waits for its Turn step, as does any
        // choice made before the first placement; every other choice belongs
        // to the latest Turn.
        let mut early: Vec<Pick> = Vec::new();
        let mut early_cards: Vec<String> = Vec::new();
        let mut turn_draws: Vec<String> = Vec::new();
        // From a before-place action until the placement, choices belong to
        // the coming Turn.
        let mut placing = false;
        for event in game.log() {
            let pick = match event {
                Event::Drew { tile, .. } => {
                    turn_draws = vec![pack.tiles[*tile as usize].name.clone()];
                    placing = false;
                    None
                }
                Event::DrewExtra { tile, .. } => {
                    let name = pack.tiles[*tile as usize].name.clone();
                    match turns.last_mut() {
                        // Drawn after this turn's placement: it follows the turn's draws.
                        Some(Step::Turn {
                            tile: placed, draws, ..
                        }) if turn_draws.is_empty() => draws.get_or_insert_with(|| vec![placed.clone()]).push(name),
                        _ => turn_draws.push(name),
                    }
                    None
                }
                Event::CardDrawn { card, .. } => {
                    let name = pack.program.cards[*card as usize].name.clone();
                    match latest_turn(&mut turns) {
                        Some(Step::Turn { cards, .. }) if !placing => cards.push(name),
                        _ => early_cards.push(name),
                    }
                    None
                }
                Event::Discarded { tile, .. } => {
                    turns.push(Step::Discard {
                        tile: pack.tiles[*tile as usize].name.clone(),
                    });
                    None
                }
                Event::Placed { tile, pos, rot, .. } => {
                    turns.push(Step::Turn {
                        tile: pack.tiles[*tile as usize].name.clone(),
                        at: *pos,
                        rot: degrees(*rot),
                        deploy: None,
                        choices: std::mem::take(&mut early),
                        draws: (turn_draws.len() > 1).then(|| turn_draws.clone()),
                        cards: std::mem::take(&mut early_cards),
                    });
                    turn_draws.clear();
                    placing = false;
                    None
                }
                Event::Deployed {
                    figure_type: figure,
                    placed,
                    seg,
                    ..
                } => {
                    if let Some(Step::Turn { deploy, .. }) = turns.last_mut() {
                        *deploy = Some(deploy_of(game, *figure, *placed, *seg));
                    }
                    None
                }
                Event::Acted {
                    action, target, spot, ..
                } => Some(action_pick(game, *action, *target, *spot)),
                Event::Chose { target, spot, .. } => pick_of(game, *target, *spot),
                Event::Declined { .. } => Some(Pick::Decline),
                _ => None,
            };
            let Some(pick) = pick else { continue };
            if matches!(event, Event::Acted { action, .. }
                if pack.program.actions[*action as usize].window == Window::BeforePlace)
            {
                placing = true;
            }
            match latest_turn(&mut turns) {
                Some(Step::Turn { choices, .. }) if !placing => choices.push(pick),
                _ => early.push(pick),
            }
        }
        Ok(Record {
            rules,
            players,
            seed,
            tiles: None,
            turns,
            expect: Vec::new(),
            fails: None,
        })
    }
}

/// The last Turn step so far.
fn latest_turn(turns: &mut [Step]) -> Option<&mut Step> {
    turns.iter_mut().rev().find(|s| matches!(s, Step::Turn { .. }))
}
