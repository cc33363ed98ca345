//! One move typed by a person, in a record's words: [`move_text`] writes an
//! option of the pending decision the way a record writes it (a placement
//! as `at: (1, 0), rot: 90`, a deployment as `deploy: (figure: "follower",
//! on: "E")` or `deploy: None`, anything else as a [`Pick`] such as
//! `Feature(at: (1, 0), on: "N")`), [`move_words`] says it in words, and
//! [`read_move`] reads such a text back into the pending decision's choice.
//! Everything is named through [`super::naming`], so a typed move and a
//! record's step mean the same thing.

use super::format::{Deploy, Pick};
use super::naming::{action_pick, choice_for, degrees, deploy_choice, deploy_of, pick_of, rotation, tile_id};
use crate::engine::{Choice, Decision, ErrorKind, Game, GameError, Player, Pos, Target};
use serde::Deserialize;

/// A placement as typed: `at: (1, 0), rot: 90`, with `tile: "V"` when
/// the tile is not the one drawn.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlaceText {
    #[serde(default)]
    tile: Option<String>,
    at: Pos,
    rot: i64,
}

/// A deployment as typed: `deploy: (on: "E")` or `deploy: None`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DeployText {
    deploy: Option<Deploy>,
}

/// An option of the pending decision as a record writes it; `None` for a
/// choice the pending decision cannot take (a deployment outside a deploy
/// decision, a target the game does not have).
pub fn move_text(game: &Game, choice: Choice) -> Option<String> {
    if !names_known(game, choice) {
        return None;
    }
    Some(match choice {
        Choice::Place { tile, pos, rot } => {
            let drawn = matches!(game.decision(), Some(Decision::Place { tile: t, .. }) if t == tile);
            let at = format!("at: ({}, {}), rot: {}", pos.0, pos.1, degrees(rot));
            if drawn {
                at
            } else {
                format!("tile: {:?}, {at}", game.rules().pack.tiles.get(tile as usize)?.name)
            }
        }
        Choice::Deploy { figure_type, seg } => {
            let Some(Decision::Deploy { placed, .. }) = game.decision() else {
                return None;
            };
            format!("deploy: {}", deploy_text(&deploy_of(game, figure_type, placed, seg)))
        }
        Choice::Pass => "deploy: None".to_string(),
        Choice::Action { action, target } => pick_text(&action_pick(game, action, target, game.spot(target))),
        Choice::Pick(target) => pick_text(&pick_of(game, target, game.spot(target))?),
        Choice::Decline => pick_text(&Pick::Decline),
    })
}

/// Whether the action, figure type and segment `choice` names are ones the
/// game has (a choice built by hand may name any), so that they can be
/// named; whether the choice is legal now is [`Game::apply`]'s to say.
fn names_known(game: &Game, choice: Choice) -> bool {
    let pack = &game.rules().pack;
    match choice {
        Choice::Action { action, .. } => usize::from(action) < pack.program.actions.len(),
        Choice::Deploy { figure_type, seg } => {
            let segment = match game.decision() {
                Some(Decision::Deploy { placed, .. }) => game
                    .board()
                    .placed
                    .get(placed.index())
                    .and_then(|p| pack.tiles.get(p.tile as usize))
                    .is_some_and(|t| usize::from(seg) < t.segments.len()),
                _ => true,
            };
            usize::from(figure_type) < pack.figures.len() && segment
        }
        _ => true,
    }
}

/// An option of the pending decision in words: "place U at (1, 0) turned
/// 90°", "a follower on the city at E", "the road at (1, 0) W"; players by
/// the names in `players`.
pub fn move_words(game: &Game, choice: Choice, players: &[String]) -> String {
    let pack = &game.rules().pack;
    if !names_known(game, choice) {
        return format!("a move this game does not have ({choice:?})");
    }
    match choice {
        Choice::Place { tile, pos, rot } => format!(
            "place {} at ({}, {}) turned {}°",
            pack.tiles.get(tile as usize).map_or("?", |t| t.name.as_str()),
            pos.0,
            pos.1,
            degrees(rot)
        ),
        Choice::Deploy { figure_type, seg } => {
            let Some(Decision::Deploy { placed, .. }) = game.decision() else {
                return "a deployment".to_string();
            };
            let d = deploy_of(game, figure_type, placed, seg);
            let tile = &pack.tiles[game.board().placed[placed.index()].tile as usize];
            let kind = &pack.kinds[tile.segments[seg as usize].kind as usize].name;
            let figure = d.figure.unwrap_or_default();
            if d.on.starts_with(kind.as_str()) {
                // A segment with no edge is named by its kind ("field 2").
                format!("a {figure} on the {}", d.on)
            } else {
                format!("a {figure} on the {kind} at {}", d.on)
            }
        }
        Choice::Pass => "no figure".to_string(),
        Choice::Decline => "decline".to_string(),
        Choice::Action { action, target } => {
            let name = &pack.program.actions[action as usize].name;
            match target {
                Target::None => format!("take the action {name}"),
                t => format!("take the action {name} on {}", target_words(game, t, players)),
            }
        }
        Choice::Pick(t) => target_words(game, t, players),
    }
}

/// A target in words.
fn target_words(game: &Game, target: Target, players: &[String]) -> String {
    let pack = &game.rules().pack;
    let player = |p: Player| players.get(p.index()).cloned().unwrap_or_else(|| format!("player {p}"));
    let pick = pick_of(game, target, game.spot(target));
    match (target, pick) {
        (Target::Feature(node), Some(Pick::Feature { at, on })) => {
            let (placed, seg) = game.node_spot(node);
            let tile = &pack.tiles[game.board().placed[placed.index()].tile as usize];
            let kind = &pack.kinds[tile.segments[seg as usize].kind as usize].name;
            format!("the {kind} at ({}, {}) {on}", at.0, at.1)
        }
        (
            Target::Figure(_),
            Some(Pick::Figure {
                at,
                on,
                figure,
                player: owner,
            }),
        ) => {
            let whose = owner.map_or("the neutral".to_string(), |o| format!("{}'s", player(Player(o as u8))));
            format!("{whose} {} at ({}, {}) {on}", figure.unwrap_or_default(), at.0, at.1)
        }
        (_, Some(Pick::Tile { at })) => format!("the tile at ({}, {})", at.0, at.1),
        (_, Some(Pick::Square { at })) => format!("the square ({}, {})", at.0, at.1),
        (Target::Player(p), _) => player(p),
        (_, Some(Pick::Card(name))) => format!("the card {name}"),
        (_, Some(Pick::Named(name))) => name,
        (_, Some(pick)) => pick_text(&pick),
        (_, None) => "something no longer there".to_string(),
    }
}

/// [`choice_for`], its refusals of a pick that is not an option, or of an
/// action not offered on its target, listing what is offered as a record
/// writes it (at most [`OPTIONS_LISTED`], and how many more).
pub(crate) fn choice_listed(game: &Game, pick: &Pick) -> Result<Choice, GameError> {
    choice_for(game, pick).map_err(|e| {
        let options = game.options();
        let offered = match (e.kind(), pick) {
            // A named option's refusal lists the names already.
            (ErrorKind::NotAnOption, Pick::Named(_)) => return e,
            (ErrorKind::NotAnOption, _) => {
                let listed = offered_text(
                    game,
                    options
                        .iter()
                        .filter(|c| matches!(c, Choice::Pick(_) | Choice::Decline)),
                );
                if listed.is_empty() {
                    "nothing is to be picked now".to_string()
                } else {
                    format!("the options: {listed}")
                }
            }
            (ErrorKind::ActionUnavailable, Pick::Action { name, .. }) => {
                let actions = &game.rules().pack.program.actions;
                let action = actions.iter().position(|a| &a.name == name);
                let listed = offered_text(
                    game,
                    options
                        .iter()
                        .filter(|c| matches!(c, Choice::Action { action: a, .. } if Some(*a as usize) == action)),
                );
                if listed.is_empty() {
                    "it is not offered now".to_string()
                } else {
                    format!("offered now: {listed}")
                }
            }
            _ => return e,
        };
        GameError::new(e.kind(), format!("{} ({offered})", e.message()))
    })
}

/// Most options a refusal lists.
const OPTIONS_LISTED: usize = 12;

/// The options `choices` as a record writes them, comma-separated: at most
/// [`OPTIONS_LISTED`], and how many more.
fn offered_text<'c>(game: &Game, choices: impl Iterator<Item = &'c Choice>) -> String {
    let texts: Vec<String> = choices.filter_map(|c| move_text(game, *c)).collect();
    let mut listed = texts
        .iter()
        .take(OPTIONS_LISTED)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if texts.len() > OPTIONS_LISTED {
        listed += &format!(" and {} more", texts.len() - OPTIONS_LISTED);
    }
    listed
}

/// A deployment as RON: `(figure: "follower", on: "E")`.
fn deploy_text(d: &Deploy) -> String {
    match &d.figure {
        Some(f) => format!("(figure: {f:?}, on: {:?})", d.on),
        None => format!("(on: {:?})", d.on),
    }
}

/// A pick as RON, on one line: `Feature(at: (1, 0), on: "N")`.
fn pick_text(pick: &Pick) -> String {
    let at = |p: &Pos| format!("at: ({}, {})", p.0, p.1);
    match pick {
        Pick::Feature { at: p, on } => format!("Feature({}, on: {on:?})", at(p)),
        Pick::Figure {
            at: p,
            on,
            figure,
            player,
        } => {
            let mut fields = vec![at(p), format!("on: {on:?}")];
            if let Some(f) = figure {
                fields.push(format!("figure: {f:?}"));
            }
            if let Some(owner) = player {
                fields.push(format!("player: {owner}"));
            }
            format!("Figure({})", fields.join(", "))
        }
        Pick::Tile { at: p } => format!("Tile({})", at(p)),
        Pick::Square { at: p } => format!("Square({})", at(p)),
        Pick::Player(p) => format!("Player({p})"),
        Pick::Card(name) => format!("Card({name:?})"),
        Pick::Named(name) => format!("Option({name:?})"),
        Pick::Decline => "Decline".to_string(),
        Pick::Action { name, target } => match target {
            Some(t) => format!("Action(name: {name:?}, target: {})", pick_text(t)),
            None => format!("Action(name: {name:?})"),
        },
    }
}

/// Reads a typed move (as [`move_text`] writes it) into a choice for the
/// pending decision. A text that is not a move, or names nothing the game
/// has, is an error saying so; a move that names things but breaks the
/// rules (a tile that does not fit there) becomes a choice that the game
/// refuses with the reason when it is applied.
pub fn read_move(game: &Game, text: &str) -> Result<Choice, GameError> {
    let text = text.trim();
    // A move copied with the brackets the screen shows it in.
    let text = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .map_or(text, str::trim);
    let decision = game
        .decision()
        .ok_or_else(|| GameError::new(ErrorKind::GameOver, "the game is over"))?;
    // What the game asks now, in words without player numbers (the person
    // answering sees the question on their screen).
    let asked = match decision {
        Decision::Place { .. } => "the game asks for a placement",
        Decision::Deploy { .. } => "the game asks for a deployment",
        Decision::Choose { .. } => "the game asks a rule's question",
    };
    let bad_text = |e: ron::error::SpannedError| {
        // Say what RON found only when the text looks like a move at all.
        let detail = if text.contains(['(', ':']) {
            format!(
                " ({} at column {})",
                typed_fault(&e.code),
                e.span.start.col.saturating_sub(1)
            )
        } else {
            String::new()
        };
        GameError::new(
            ErrorKind::Parse,
            format!("`{text}` is not a move{detail}; type the number of a move, or the move as shown"),
        )
    };
    let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    let starts = |word: &str| {
        text.strip_prefix(word)
            .is_some_and(|rest| rest.trim_start().starts_with(':'))
    };
    if starts("deploy") {
        let typed: DeployText = options.from_str(&format!("({text})")).map_err(bad_text)?;
        let Decision::Deploy { placed, .. } = decision else {
            return Err(GameError::new(
                ErrorKind::WrongDecision,
                format!("{asked}, not a deployment"),
            ));
        };
        return match typed.deploy {
            None => Ok(Choice::Pass),
            Some(d) => deploy_choice(game, placed, &d),
        };
    }
    if starts("at") || starts("tile") {
        let typed: PlaceText = options.from_str(&format!("({text})")).map_err(bad_text)?;
        let Decision::Place { tile: drawn, .. } = decision else {
            return Err(GameError::new(
                ErrorKind::WrongDecision,
                format!("{asked}, not a placement"),
            ));
        };
        let tile = match &typed.tile {
            Some(name) => tile_id(game.rules(), name)?,
            None => drawn,
        };
        return Ok(Choice::Place {
            tile,
            pos: typed.at,
            rot: rotation(typed.rot)?,
        });
    }
    let pick: Pick = options.from_str(text).map_err(bad_text)?;
    let expected = match decision {
        Decision::Place { .. } => Some("a placement, typed `at: (x, y), rot: DEGREES`"),
        Decision::Deploy { .. } => Some("a deployment, typed `deploy: (on: \"LOCATION\")` or `deploy: None`"),
        Decision::Choose { .. } => None,
    };
    match (expected, &pick) {
        (Some(expected), pick) if !matches!(pick, Pick::Action { .. }) => Err(GameError::new(
            ErrorKind::WrongDecision,
            format!("`{text}` answers a rule's question, but the game asks for {expected} (or an action)"),
        )),
        _ => choice_listed(game, &pick),
    }
}

/// What is wrong with a typed move, in the words a move is typed in: RON's
/// own message names the program's types (`in enum Pick`, `in PlaceText`),
/// which a person typing a move never sees.
fn typed_fault(code: &ron::error::Error) -> String {
    use ron::error::Error;
    let words = |names: &[&str]| names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
    match code {
        Error::NoSuchEnumVariant { expected, found, .. } => {
            format!(
                "no move starts with `{found}`; a rule's answer starts with one of {}",
                words(expected)
            )
        }
        Error::NoSuchStructField { expected, found, .. } => {
            format!(
                "`{found}` is not a part of this move; its parts are {}",
                words(expected)
            )
        }
        Error::MissingStructField { field, .. } => format!("`{field}` is missing"),
        Error::DuplicateStructField { field, .. } => format!("`{field}` is given twice"),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Rng, Rules, Setup};
    use std::sync::Arc;

    fn rules(names: &[&str]) -> Arc<Rules> {
        Arc::new(Rules::new(
            crate::bundled::load_bundled(names).expect("bundled packs load"),
        ))
    }

    /// Every option of every decision of a random game, typed as shown,
    /// reads back as a choice that is typed the same way, and is legal.
    fn typed_options_read_back(rules: Arc<Rules>, seed: u64) {
        let mut game = Game::new(rules, Setup::new(3).seed(seed)).expect("3 players");
        let mut rng = Rng::new(seed);
        while game.decision().is_some() {
            let options = game.options();
            for &option in &options {
                let text = move_text(&game, option).expect("every option has a typed form");
                let back = read_move(&game, &text).unwrap_or_else(|e| panic!("`{text}` does not read back: {e}"));
                assert_eq!(move_text(&game, back).as_deref(), Some(text.as_str()), "{option:?}");
                assert!(
                    game.clone().apply(back).is_ok(),
                    "`{text}` reads back as a legal choice"
                );
                assert!(!move_words(&game, option, &[]).is_empty());
            }
            game.apply(options[rng.below(options.len())])
                .expect("options are legal");
        }
    }

    #[test]
    fn base_moves_read_back() {
        typed_options_read_back(rules(&["base"]), 7);
    }

    #[test]
    fn every_bundled_pack_moves_read_back() {
        for name in crate::bundled::bundled_names() {
            typed_options_read_back(rules(&[name]), 11);
        }
    }

    #[test]
    fn a_text_that_is_no_move_is_refused_with_the_fix() {
        let game = Game::new(rules(&["base"]), Setup::new(2).seed(1)).expect("2 players");
        let e = read_move(&game, "at: (1, 0) rot: 90").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Parse);
        assert!(e.to_string().contains("type the number of a move"), "{e}");
        let e = read_move(&game, "deploy: (on: \"E\")").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::WrongDecision, "{e}");
        let e = read_move(&game, "at: (1, 0), rot: 45").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::BadRotation, "{e}");
        // A placement that names things the game has is a choice; the game
        // judges whether it fits.
        let far = read_move(&game, "at: (9, 9), rot: 0").expect("a placement");
        assert_eq!(game.clone().apply(far).unwrap_err().kind(), ErrorKind::NotAdjacent);
    }
}
