//! The engine's shared vocabulary: what a game waits for ([`Decision`]),
//! what names a thing on the board ([`Target`]), an answer ([`Choice`]), a
//! figure on the board ([`Meeple`]) and what happened ([`Event`]). Plain data
//! with no behaviour, at the bottom of the engine so every part may use it.

use super::board::Pos;
use super::ids::{PlacedId, Player, Rotation};
use crate::ir::program::Domain;
use crate::ir::{ActionId, CardId};
use crate::ir::{FigureId, ReasonId, TileId};

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The player drew `tile` and must place it (or take an action first).
    Place { player: Player, tile: TileId },
    /// The player may deploy a figure on the tile just placed (or take an action instead).
    Deploy { player: Player, placed: PlacedId },
    /// A rule asks the player to choose from `domain`; `optional` allows declining.
    Choose {
        player: Player,
        domain: Domain,
        optional: bool,
    },
}

/// Something on the board, or a player, that a choice names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    None,
    Player(Player),
    /// A feature, by one of its segment nodes: the one a player named, so a
    /// rule that puts a figure on it uses that tile and segment.
    Feature(u32),
    /// A figure on the board, by id.
    Figure(u32),
    /// A tile on the board.
    Tile(PlacedId),
    /// A card (kind) in the choosing player's hand.
    Card(u16),
    /// A square of the board.
    Square(i32, i32),
}

/// One answer to a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    /// Put `tile` (the drawn one, or an extra one) at `pos`, turned `rot`.
    Place { tile: TileId, pos: Pos, rot: Rotation },
    /// Deploy a figure from supply onto a segment of the tile just placed.
    Deploy { figure: FigureId, seg: u8 },
    /// Deploy nothing.
    Pass,
    /// Take an action offered with the pending decision.
    Action { action: ActionId, target: Target },
    /// Answer a rule's `choose`.
    Pick(Target),
    /// Decline an optional `choose`.
    Decline,
}

/// A figure on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Meeple {
    /// Unique in the game, never reused.
    pub id: u32,
    pub figure: FigureId,
    /// The owning player; `None` for a neutral figure.
    pub owner: Option<Player>,
    /// The tile it stands on, and the segment.
    pub placed: PlacedId,
    pub seg: u8,
}

/// Something that happened, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Drew {
        player: Player,
        tile: TileId,
    },
    /// The drawn tile fit nowhere and left the game.
    Discarded {
        player: Player,
        tile: TileId,
    },
    Placed {
        player: Player,
        tile: TileId,
        pos: Pos,
        rot: Rotation,
    },
    Deployed {
        player: Player,
        figure: FigureId,
        placed: PlacedId,
        seg: u8,
    },
    Passed {
        player: Player,
    },
    /// The player took an action; `spot` is where its target was (tile, segment).
    Acted {
        player: Player,
        action: ActionId,
        target: Target,
        spot: Option<(PlacedId, u8)>,
    },
    /// The player answered a `choose`; `spot` as for `Acted`.
    Chose {
        player: Player,
        target: Target,
        spot: Option<(PlacedId, u8)>,
    },
    Declined {
        player: Player,
    },
    /// A card came from a deck into the player's hand (or was resolved at once).
    CardDrawn {
        player: Player,
        card: CardId,
    },
    /// A card left a hand for its discard pile.
    CardDiscarded {
        player: Player,
        card: CardId,
    },
    /// A rule drew another tile to choose from.
    DrewExtra {
        player: Player,
        tile: TileId,
    },
    /// A tile drawn but not placed went back into the stack (`kept`) or left the game.
    TileSetAside {
        tile: TileId,
        kept: bool,
    },
    Scored {
        player: Player,
        points: i64,
        reason: ReasonId,
    },
    /// A rule put a figure on the board, or moved one.
    FigureSet {
        meeple: Meeple,
    },
    Returned {
        meeple: Meeple,
    },
    Ended,
}
