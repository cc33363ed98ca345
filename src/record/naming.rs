//! Naming in both directions: from the game to a record's words (a
//! segment's location name, a target as a [`Pick`]) and from a record's
//! words back to the game (a location to a segment, a pick to targets and to
//! the pending decision's option, a deployment to its choice, tile, figure,
//! card and action names to ids, degrees to quarter turns).

use super::format::{Deploy, Pick};
use crate::engine::{Choice, ErrorKind, Game, GameError, PlacedId, Player, Pos, Rotation, Rules, Target};
use crate::ir::geometry::{Location, EDGE_NAMES, HALF_EDGE_NAMES};
use crate::ir::program::Window;
use crate::ir::ActionId;
use crate::ir::{FigureTypeId, Ownership, TileId};

/// A target in the game's terms.
pub(crate) fn pick_of(game: &Game, target: Target, spot: Option<(PlacedId, u8)>) -> Option<Pick> {
    let at = |placed: PlacedId| game.board().placed.get(placed.index()).map(|p| p.pos);
    Some(match (target, spot) {
        (Target::Feature(_), Some((placed, seg))) => Pick::Feature {
            at: at(placed)?,
            on: segment_name(game, placed, seg),
        },
        (Target::Figure(id), Some((placed, seg))) => {
            let m = game.figure_or_gone(id)?;
            Pick::Figure {
                at: at(placed)?,
                on: segment_name(game, placed, seg),
                figure: Some(game.rules().pack.figures[m.figure_type as usize].name.clone()),
                player: m.owner.map(Player::index),
            }
        }
        (Target::Tile(t), _) => Pick::Tile { at: at(t)? },
        (Target::Square(x, y), _) => Pick::Square { at: (x, y) },
        (Target::Player(p), _) => Pick::Player(p.index()),
        (Target::Card(c), _) => Pick::Card(game.rules().pack.program.cards.get(c as usize)?.name.clone()),
        (Target::Option(body), _) => Pick::Named(game.rules().pack.program.option_name(body)?.to_string()),
        _ => return None,
    })
}

/// An action taken, in the game's terms: its name, and its target when it has one.
pub(crate) fn action_pick(game: &Game, action: ActionId, target: Target, spot: Option<(PlacedId, u8)>) -> Pick {
    Pick::Action {
        name: game.rules().pack.program.actions[action as usize].name.clone(),
        target: pick_of(game, target, spot).map(Box::new),
    }
}

/// A figure deployed onto a segment of a placed tile, in the game's terms.
pub(crate) fn deploy_of(game: &Game, figure: FigureTypeId, placed: PlacedId, seg: u8) -> Deploy {
    Deploy {
        figure: Some(game.rules().pack.figures[figure as usize].name.clone()),
        on: segment_name(game, placed, seg),
    }
}

/// A rotation as a record's degrees (the inverse of [`rotation`]).
pub(crate) fn degrees(rot: Rotation) -> i64 {
    i64::from(rot.degrees())
}

/// A segment's name in records: its first edge or half-edge in board
/// directions; for a segment with neither, its kind's name, numbered
/// (`"field 2"`) when the tile has several segments of that kind.
pub(crate) fn segment_name(game: &Game, placed: PlacedId, seg: u8) -> String {
    let name = game.segment_location(placed, seg);
    if Location::parse(&name).is_some() {
        return name;
    }
    let pack = &game.rules().pack;
    let tile = &pack.tiles[game.board().placed[placed.index()].tile as usize];
    let kind = tile.segments[seg as usize].kind;
    let same: Vec<usize> = (0..tile.segments.len())
        .filter(|s| tile.segments[*s].kind == kind)
        .collect();
    match same.iter().position(|s| *s == seg as usize) {
        Some(i) if same.len() > 1 => format!("{name} {}", i + 1),
        _ => name,
    }
}

/// "unknown tile `X`; did you mean `Y`?"
pub(crate) fn unknown<'a>(what: &str, name: &str, names: impl IntoIterator<Item = &'a str>) -> GameError {
    let hint = crate::diagnostic::did_you_mean(name, names).map_or(String::new(), |h| format!("; {h}"));
    GameError::new(ErrorKind::UnknownName, format!("unknown {what} `{name}`{hint}"))
}

/// The tile type a record's tile name means.
pub(crate) fn tile_id(rules: &Rules, name: &str) -> Result<TileId, GameError> {
    rules
        .pack
        .tile(name)
        .ok_or_else(|| unknown("tile", name, rules.pack.tiles.iter().map(|t| t.name.as_str())))
}

/// The card a record's card name means.
pub(crate) fn card_id(rules: &Rules, name: &str) -> Result<u16, GameError> {
    let cards = &rules.pack.program.cards;
    cards
        .iter()
        .position(|c| c.name == name)
        .map(|c| c as u16)
        .ok_or_else(|| unknown("card", name, cards.iter().map(|c| c.name.as_str())))
}

/// A record's rotation in degrees as a [`Rotation`].
pub(crate) fn rotation(rot: i64) -> Result<Rotation, GameError> {
    Rotation::from_degrees(rot).ok_or_else(|| {
        GameError::new(
            ErrorKind::BadRotation,
            format!("rotation {rot} must be 0, 90, 180 or 270"),
        )
    })
}

/// The window of the action a pick takes, if it is an action.
pub(crate) fn action_window(game: &Game, pick: Option<&Pick>) -> Option<Window> {
    let Some(Pick::Action { name, .. }) = pick else {
        return None;
    };
    game.rules()
        .pack
        .program
        .actions
        .iter()
        .find(|a| &a.name == name)
        .map(|a| a.window)
}

/// Whether a pick is an action that no action of the rules is named as.
pub(crate) fn names_no_action(game: &Game, pick: Option<&Pick>) -> bool {
    matches!(pick, Some(Pick::Action { name, .. })
        if !game.rules().pack.program.actions.iter().any(|a| &a.name == name))
}

/// The targets a pick may mean on the board now (several figures can share a spot).
pub(crate) fn target_of(game: &Game, pick: &Pick) -> Result<Vec<Target>, GameError> {
    let no_target = |message: String| GameError::new(ErrorKind::NoSuchTarget, message);
    let tile_at = |at: Pos| {
        game.board()
            .at(at)
            .ok_or_else(|| no_target(format!("no tile at {at:?}")))
    };
    Ok(vec![match pick {
        Pick::Feature { at, on } => {
            let placed = tile_at(*at)?;
            Target::Feature(game.node_of(placed, segment_at(game, placed, on)?))
        }
        Pick::Figure { at, on, figure, player } => {
            let placed = tile_at(*at)?;
            let seg = segment_at(game, placed, on)?;
            let kind = figure.as_deref().map(|n| figure_id(game, n)).transpose()?;
            let found: Vec<Target> = game
                .figures()
                .iter()
                .filter(|m| m.placed == placed && m.seg == seg)
                .filter(|m| kind.is_none_or(|k| m.figure_type == k))
                .filter(|m| player.is_none_or(|p| m.owner.map(Player::index) == Some(p)))
                .map(|m| Target::Figure(m.id))
                .collect();
            if found.is_empty() {
                return Err(no_target(format!("no such figure at {at:?} on {on}")));
            }
            return Ok(found);
        }
        Pick::Tile { at } => Target::Tile(tile_at(*at)?),
        Pick::Square { at } => Target::Square(at.0, at.1),
        Pick::Player(p) => Target::Player(
            u8::try_from(*p)
                .ok()
                .map(Player)
                .filter(|p| p.index() < game.players())
                .ok_or_else(|| no_target(format!("no player {p}; players are 0 to {}", game.players() - 1)))?,
        ),
        Pick::Card(name) => Target::Card(card_id(game.rules(), name)?),
        Pick::Named(name) => option_target(game, name)?,
        Pick::Decline | Pick::Action { .. } => Target::None,
    }])
}

/// The named option of the pending choice that a record's name means:
/// names are unique within a choice (E0055), so the pending decision's
/// options tell which `choose` it is.
fn option_target(game: &Game, name: &str) -> Result<Target, GameError> {
    let program = &game.rules().pack.program;
    let offered: Vec<Target> = game
        .options()
        .into_iter()
        .filter_map(|c| match c {
            Choice::Pick(t @ Target::Option(_)) => Some(t),
            _ => None,
        })
        .collect();
    let name_of = |t: &Target| match t {
        Target::Option(b) => program.option_name(*b).unwrap_or(""),
        _ => "",
    };
    if let Some(t) = offered.iter().find(|t| name_of(t) == name) {
        return Ok(*t);
    }
    let hint =
        crate::diagnostic::did_you_mean(name, offered.iter().map(name_of)).map_or(String::new(), |h| format!("; {h}"));
    Err(GameError::new(
        ErrorKind::NotAnOption,
        if offered.is_empty() {
            format!("no named options are offered now, so `{name}` cannot be picked")
        } else {
            let names: Vec<&str> = offered.iter().map(name_of).collect();
            format!(
                "`{name}` is not one of the options offered now ({}){hint}",
                names.join(", ")
            )
        },
    ))
}

/// The option of the pending decision that a pick means.
pub(crate) fn choice_for(game: &Game, pick: &Pick) -> Result<Choice, GameError> {
    let options = game.options();
    let same = |a: Target, b: Target| game.same_target(a, b);
    let wanted = match pick {
        Pick::Decline => {
            return options
                .contains(&Choice::Decline)
                .then_some(Choice::Decline)
                .ok_or_else(|| GameError::new(ErrorKind::CannotDecline, "it cannot be declined"))
        }
        Pick::Action { name, target } => {
            let actions = &game.rules().pack.program.actions;
            let action = actions
                .iter()
                .position(|a| &a.name == name)
                .ok_or_else(|| unknown("action", name, actions.iter().map(|a| a.name.as_str())))?;
            let targets = match target {
                Some(t) => target_of(game, t)?,
                None => vec![Target::None],
            };
            // The target as the record names it, so a feature keeps its location.
            return options
                .iter()
                .find_map(|c| match c {
                    Choice::Action { action: a, target: t } if *a as usize == action => targets
                        .iter()
                        .find(|w| same(*t, **w))
                        .map(|w| Choice::Action { action: *a, target: *w }),
                    _ => None,
                })
                .ok_or_else(|| {
                    GameError::new(
                        ErrorKind::ActionUnavailable,
                        format!("the action `{name}` is not available on that now"),
                    )
                });
        }
        other => target_of(game, other)?,
    };
    options
        .iter()
        .find_map(|c| match c {
            Choice::Pick(t) => wanted.iter().find(|w| same(*t, **w)).map(|w| Choice::Pick(*w)),
            _ => None,
        })
        .ok_or_else(|| GameError::new(ErrorKind::NotAnOption, "that is not one of the options"))
}

/// The segment of a placed tile that a location names, in board directions.
pub(crate) fn segment_at(game: &Game, placed: PlacedId, on: &str) -> Result<u8, GameError> {
    let pack = &game.rules().pack;
    let p = &game.board().placed[placed.index()];
    let tile = &pack.tiles[p.tile as usize];
    let rotated = &game.rules().rotated[p.tile as usize][p.rot.index()];
    let seg = match Location::parse(on) {
        Some(Location::Edge(e)) => Some(rotated.edge_seg[e as usize]).filter(|s| *s != u8::MAX),
        Some(Location::HalfEdge(h)) => Some(rotated.half_seg[h as usize]).filter(|s| *s != u8::MAX),
        None => {
            // "field 2": the second segment of that kind on the tile.
            let (kind_name, nth) = match on.rsplit_once(' ') {
                Some((k, n)) if n.parse::<usize>().is_ok_and(|n| n >= 1) => (k, n.parse::<usize>().ok()),
                _ => (on, None),
            };
            let on = kind_name;
            let Some(kind) = pack.kind(on) else {
                let hint = crate::diagnostic::did_you_mean(on, pack.kinds.iter().map(|k| k.name.as_str()))
                    .map_or(String::new(), |h| format!("; {h}"));
                return Err(GameError::new(
                    ErrorKind::UnknownName,
                    format!(
                        "`{on}` is not a location: use an edge ({}), a half-edge ({}) or a feature kind{hint}",
                        EDGE_NAMES.join(" "),
                        HALF_EDGE_NAMES.join(" ")
                    ),
                ));
            };
            let matching: Vec<u8> = (0..tile.segments.len() as u8)
                .filter(|s| tile.segments[*s as usize].kind == kind)
                .collect();
            match (nth, matching.as_slice()) {
                (Some(n), segments) => segments.get(n - 1).copied(),
                (None, [one]) => Some(*one),
                (None, []) => None,
                (None, _) => {
                    return Err(GameError::new(
                        ErrorKind::AmbiguousSegment,
                        format!(
                            "tile {} has several {on} segments; name one by its edge, or as `{on} 2` (the second)",
                            tile.name
                        ),
                    ))
                }
            }
        }
    };
    seg.ok_or_else(|| {
        GameError::new(
            ErrorKind::NoSuchSegment,
            match Location::parse(on) {
                Some(Location::Edge(e)) if rotated.half_seg[2 * e as usize] != u8::MAX => format!(
                    "edge {on} of tile {} is a field edge; name its field by a half-edge, {} or {}",
                    tile.name,
                    HALF_EDGE_NAMES[2 * e as usize],
                    HALF_EDGE_NAMES[2 * e as usize + 1]
                ),
                _ => format!("tile {} has no segment at {on}", tile.name),
            },
        )
    })
}

pub(crate) fn figure_id(game: &Game, name: &str) -> Result<FigureTypeId, GameError> {
    let pack = &game.rules().pack;
    pack.figure(name)
        .ok_or_else(|| unknown("figure", name, pack.figures.iter().map(|f| f.name.as_str())))
}

pub(crate) fn deploy_choice(game: &Game, placed: PlacedId, d: &Deploy) -> Result<Choice, GameError> {
    let pack = &game.rules().pack;
    let seg = segment_at(game, placed, &d.on)?;
    let figure = match &d.figure {
        Some(name) => figure_id(game, name)?,
        None => {
            let kind = pack.tiles[game.board().placed[placed.index()].tile as usize].segments[seg as usize].kind;
            let player = game.current_player();
            let may_stand = |f: FigureTypeId| {
                let fig = &pack.figures[f as usize];
                fig.ownership == Ownership::PerPlayer && fig.posture_on(kind).is_some()
            };
            let figures = 0..pack.figures.len() as FigureTypeId;
            let kind_name = &pack.kinds[kind as usize].name;
            match figures
                .clone()
                .find(|f| may_stand(*f) && game.supply(player, *f).unwrap_or(0) > 0)
            {
                Some(f) => f,
                None if figures.clone().any(may_stand) => {
                    return Err(GameError::new(
                        ErrorKind::SupplyEmpty,
                        format!(
                            "player {} has no figure left in their supply that may go on the {kind_name}",
                            player.0
                        ),
                    ))
                }
                None => {
                    return Err(GameError::new(
                        ErrorKind::FigureCannotStand,
                        format!("no player's figure may go on the {kind_name}"),
                    ))
                }
            }
        }
    };
    if let Some(why) = game.deploy_refusal(placed, seg, Some(figure)) {
        return Err(why);
    }
    Ok(Choice::Deploy {
        figure_type: figure,
        seg,
    })
}
