//! The replay viewer: one self-contained HTML page (inline SVG, CSS and
//! script, nothing fetched) that steps through a recorded game turn by turn.
//! Each moment is a snapshot taken while the record replays: the board
//! (drawn here, as `<use>` of tile symbols defined once), whose turn, the
//! tiles drawn, scores with points by reason, figures in supply, every hand
//! (a replay is omniscient) and the turn's events in words.

use super::board::{draw_board, legend, player_names};
use super::escape;
use super::palette::Palette;
use super::tile::symbols;
use crate::engine::{Event, Game, Player, Rules, Target};
use crate::ir::Ownership;
use crate::record::{replay_watching, Record, ReplayError, Step};
use serde_json::{json, Value};
use std::sync::Arc;

/// What one player is called in words.
fn who(names: &[String], p: Player) -> String {
    names
        .get(p.index())
        .cloned()
        .unwrap_or_else(|| format!("player {}", p.index()))
}

/// Where a tile lies, in the record's terms.
fn square(game: &Game, placed: crate::engine::PlacedId) -> String {
    game.board()
        .tiles()
        .get(placed.index())
        .map_or("?".into(), |p| format!("({}, {})", p.pos.0, p.pos.1))
}

/// A segment of a placed tile, as records name it, with its kind.
fn segment(game: &Game, placed: crate::engine::PlacedId, seg: u8) -> String {
    let pack = &game.rules().pack;
    let kind = game
        .board()
        .tiles()
        .get(placed.index())
        .and_then(|p| pack.tiles()[p.tile as usize].segments.get(seg as usize))
        .map_or("?", |s| pack.kinds()[s.kind as usize].name.as_str());
    format!(
        "the {kind} at {} of the tile at {}",
        game.segment_location(placed, seg),
        square(game, placed)
    )
}

/// A figure type's name and whose it is.
fn figure_words(game: &Game, names: &[String], figure: &crate::engine::Figure) -> String {
    let name = &game.rules().pack.figures()[figure.figure_type as usize].name;
    match figure.owner {
        Some(p) => format!("{}'s {name}", who(names, p)),
        None => format!("the {name}"),
    }
}

/// What a target names, in words.
fn target_words(game: &Game, names: &[String], target: Target, spot: Option<(crate::engine::PlacedId, u8)>) -> String {
    let pack = &game.rules().pack;
    match (target, spot) {
        (Target::None, _) => String::new(),
        (Target::Player(p), _) => who(names, p),
        (Target::Feature(_), Some((placed, seg))) => segment(game, placed, seg),
        (Target::Figure(id), Some((placed, seg))) => match game.figure_or_gone(id) {
            Some(f) => format!("{} on {}", figure_words(game, names, f), segment(game, placed, seg)),
            None => segment(game, placed, seg),
        },
        (Target::Tile(placed), _) => format!("the tile at {}", square(game, placed)),
        (Target::Card(card), _) => pack
            .program()
            .cards
            .get(card as usize)
            .map_or("a card".into(), |c| format!("card {}", c.name)),
        (Target::Square(x, y), _) => format!("the square ({x}, {y})"),
        (Target::Option(block), _) => pack.program().option_name(block).unwrap_or("an option").to_string(),
        (Target::Feature(_) | Target::Figure(_), None) => "a feature".into(),
    }
}

/// One event in words.
fn describe(game: &Game, names: &[String], event: &Event) -> String {
    let pack = &game.rules().pack;
    let tile = |t: u16| pack.tiles().get(t as usize).map_or("?", |t| t.name.as_str());
    let card = |c: u16| pack.program().cards.get(c as usize).map_or("?", |c| c.name.as_str());
    match event {
        Event::Drew { player, tile: t } => format!("{} drew tile {}", who(names, *player), tile(*t)),
        Event::DrewExtra { player, tile: t } => format!("{} drew another tile, {}", who(names, *player), tile(*t)),
        Event::Discarded { tile: t, .. } => format!("tile {} fit nowhere and left the game", tile(*t)),
        Event::Placed {
            player,
            tile: t,
            pos,
            rot,
        } => format!(
            "{} placed tile {} at ({}, {}) turned {}°",
            who(names, *player),
            tile(*t),
            pos.0,
            pos.1,
            rot.degrees()
        ),
        Event::Deployed {
            player,
            figure_type,
            placed,
            seg,
        } => format!(
            "{} put a {} on {}",
            who(names, *player),
            pack.figures()[*figure_type as usize].name,
            segment(game, *placed, *seg)
        ),
        Event::Passed { player } => format!("{} put no figure on the tile", who(names, *player)),
        Event::Acted {
            player,
            action,
            target,
            spot,
        } => {
            let name = pack
                .program()
                .actions
                .get(*action as usize)
                .map_or("?", |a| a.name.as_str());
            let on = target_words(game, names, *target, *spot);
            if on.is_empty() {
                format!("{} took the action {name}", who(names, *player))
            } else {
                format!("{} took the action {name} on {on}", who(names, *player))
            }
        }
        Event::Chose { player, target, spot } => {
            format!(
                "{} chose {}",
                who(names, *player),
                target_words(game, names, *target, *spot)
            )
        }
        Event::Declined { player } => format!("{} declined", who(names, *player)),
        Event::CardDrawn { player, card: c } => format!("{} drew card {}", who(names, *player), card(*c)),
        Event::CardDiscarded { player, card: c } => format!("{} discarded card {}", who(names, *player), card(*c)),
        Event::TileSetAside { tile: t, kept: true } => format!("tile {} went back into the stack", tile(*t)),
        Event::TileSetAside { tile: t, kept: false } => format!("tile {} left the game unplaced", tile(*t)),
        Event::Scored { player, points, reason } => format!(
            "{} scored {points} for {}",
            who(names, *player),
            pack.reasons().get(*reason as usize).map_or("?", String::as_str)
        ),
        Event::FigureSet { figure } => format!(
            "{} now stands on {}",
            figure_words(game, names, figure),
            segment(game, figure.placed, figure.seg)
        ),
        Event::Returned { figure } => format!("{} went back to the supply", figure_words(game, names, figure)),
        Event::Ended => "the game ended; final scores counted".into(),
    }
}

/// One moment of the game, as the page's script reads it.
/// `turn` is the number of turns played (0 at set-up).
/// Only the tiles placed since the last snapshot (the first `tiles_drawn`
/// are in earlier ones) are in this one: the page adds them up, so a page
/// grows with the turns, not with turns × tiles.
fn snapshot(
    game: &Game,
    names: &[String],
    palette: &Palette,
    (label, turn): (String, usize),
    tiles_drawn: &mut usize,
    events: &[Event],
) -> Value {
    let pack = &game.rules().pack;
    let board = draw_board(game, palette);
    let new_tiles = board.tiles[(*tiles_drawn).min(board.tiles.len())..].concat();
    *tiles_drawn = board.tiles.len();
    let tile_name = |t: u16| pack.tiles().get(t as usize).map_or("?", |t| t.name.as_str());
    // What the step's player did with their tile; the draws after it are the
    // next turn's, made as this step ends.
    let played = events.iter().find_map(|e| match e {
        Event::Placed { player, tile, .. } => Some((who(names, *player), format!("placed {}", tile_name(*tile)))),
        Event::Discarded { player, tile } => Some((who(names, *player), format!("discarded {}", tile_name(*tile)))),
        _ => None,
    });
    let drawer = events.iter().rev().find_map(|e| match e {
        Event::Drew { player, .. } => Some(who(names, *player)),
        _ => None,
    });
    let drawn: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::Drew { tile, .. } | Event::DrewExtra { tile, .. } => Some(tile_name(*tile)),
            _ => None,
        })
        .collect();
    let players: Vec<Value> = (0..game.players())
        .map(|p| {
            let seat = Player(p as u8);
            let reasons: Vec<Value> = pack
                .reasons()
                .iter()
                .enumerate()
                .filter_map(|(r, name)| {
                    let points = game.points(seat, r as u16)?;
                    (points != 0).then(|| json!([name, points]))
                })
                .collect();
            let supply: Vec<Value> = pack
                .figures()
                .iter()
                .enumerate()
                .filter(|(_, f)| f.ownership == Ownership::PerPlayer)
                .map(|(f, figure)| json!([figure.name, game.supply(seat, f as u16).unwrap_or(0)]))
                .collect();
            let hand: Vec<&str> = game
                .hand(seat)
                .unwrap_or(&[])
                .iter()
                .filter_map(|c| pack.program().cards.get(*c as usize).map(|c| c.name.as_str()))
                .collect();
            json!({
                "name": names[p],
                "score": game.scores()[p],
                "reasons": reasons,
                "supply": supply,
                "hand": hand,
            })
        })
        .collect();
    let neutral: Vec<Value> = pack
        .figures()
        .iter()
        .enumerate()
        .filter(|(_, f)| f.ownership == Ownership::Neutral)
        .map(|(f, figure)| json!([figure.name, game.neutral_supply(f as u16).unwrap_or(0)]))
        .collect();
    json!({
        "label": label,
        "turn": turn,
        "player": played.as_ref().map(|(p, _)| p),
        "played": played.as_ref().map(|(_, what)| what),
        "drawer": drawer,
        "drawn": drawn,
        "tiles_left": game.tiles_left(),
        "tiles": new_tiles,
        "overlay": board.overlay,
        "view": board.view,
        "players": players,
        "neutral": neutral,
        "log": events.iter().map(|e| describe(game, names, e)).collect::<Vec<_>>(),
        "over": game.is_over(),
    })
}

/// The replay viewer of `record` played on `rules`: one HTML page with a
/// snapshot after set-up and after every turn and discard (a step that only
/// checks expectations changes nothing and is not shown). Fails as the
/// replay fails.
pub fn replay_html(record: &Record, rules: Arc<Rules>, title: &str) -> Result<String, ReplayError> {
    let pack = &rules.pack;
    let palette = Palette::new(pack);
    let names = player_names(record.players.len(), &record.players);
    let mut steps: Vec<Value> = Vec::new();
    let mut seen = 0;
    let mut tiles_drawn = 0;
    let mut turns = 0;
    let game = replay_watching(record, rules.clone(), &mut |index, game| {
        let label = match index.map(|i| &record.turns[i]) {
            None => "set-up".to_string(),
            Some(Step::Check(_)) => return,
            Some(Step::Discard { tile }) => format!("discard {tile}"),
            Some(Step::Turn { tile, .. }) => {
                turns += 1;
                format!("tile {tile}")
            }
        };
        let events = &game.log()[seen.min(game.log().len())..];
        // Turns played so far: a discard is a step, not a turn.
        let turn = turns;
        steps.push(snapshot(
            game,
            &names,
            &palette,
            (label, turn),
            &mut tiles_drawn,
            events,
        ));
        seen = game.log().len();
    })?;
    let (legend, legend_height) = legend(pack, &palette, &names, 640.0);
    let colours: Vec<String> = (0..names.len()).map(|p| Palette::player(p).hex()).collect();
    let data = json!({ "steps": steps, "colours": colours });
    // Nothing in the data may end the script or change how the browser
    // reads it (`</`, `<!--`, `<script`, from player names among others):
    // those characters are written as JSON escapes.
    let data = data
        .to_string()
        .replace("</", "<\\/")
        .replace("<!", "<\\u0021")
        .replace("<s", "<\\u0073")
        .replace("<S", "<\\u0053");
    let mut used: Vec<usize> = game.board().tiles().iter().map(|p| p.tile as usize).collect();
    used.sort_unstable();
    used.dedup();
    Ok(fill(
        include_str!("replay.html"),
        &[
            ("@TITLE@", &escape(title)),
            ("@LEGEND_HEIGHT@", &legend_height.to_string()),
            ("@LEGEND@", &legend),
            ("@SYMBOLS@", &symbols(pack, &palette, used)),
            ("@DATA@", &data),
        ],
    ))
}

/// `template` with each token replaced by its value, in the order the
/// tokens appear in it; only the template is searched, never a value.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + values.iter().map(|(_, v)| v.len()).sum::<usize>());
    let mut rest = template;
    for (token, value) in values {
        match rest.split_once(token) {
            Some((before, after)) => {
                out.push_str(before);
                out.push_str(value);
                rest = after;
            }
            None => debug_assert!(false, "the template lacks {token}"),
        }
    }
    out.push_str(rest);
    out
}
