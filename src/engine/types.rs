//! The engine's shared vocabulary: what a game waits for ([`Decision`]),
//! what names a thing on the board ([`Target`]), an answer ([`Choice`]), a
//! figure on the board ([`Figure`]) and what happened ([`Event`]). Plain data
//! with no behaviour, at the bottom of the engine so every part may use it.

use super::board::Pos;
use super::ids::{PlacedId, Player, Rotation};
use crate::ir::program::Domain;
use crate::ir::{ActionId, CardId};
use crate::ir::{FigureTypeId, ReasonId, TileId};

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The player drew `tile` and must place it (or take an action first).
    Place {
        /// Whose turn it is.
        player: Player,
        /// The tile drawn (a rule may have drawn extra tiles to choose from).
        tile: TileId,
    },
    /// The player may deploy a figure on the tile just placed (or take an action instead).
    Deploy {
        /// Whose turn it is.
        player: Player,
        /// The tile just placed.
        placed: PlacedId,
    },
    /// A rule asks the player to choose from `domain`; `optional` allows declining.
    Choose {
        /// Who must answer (not always the player whose turn it is).
        player: Player,
        /// What the options are: players, features, figures, tiles, squares or cards.
        domain: Domain,
        /// Whether the player may decline ([`Choice::Decline`]).
        optional: bool,
    },
}

/// Something on the board, or a player, that a choice names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// Nothing: an action without a target.
    None,
    /// A player.
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
    /// A named option of a rule's `choose { NAME { ... } ... }`, by the block
    /// of its body; `rules.pack().program().option_name(block)` is its name.
    Option(u32),
}

/// One answer to a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    /// Put `tile` (the drawn one, or an extra one) at `pos`, turned `rot`.
    Place {
        /// The tile type placed.
        tile: TileId,
        /// The square, one of the board's open squares.
        pos: Pos,
        /// How it is turned.
        rot: Rotation,
    },
    /// Deploy a figure from supply onto a segment of the tile just placed.
    Deploy {
        /// The figure type, from the deciding player's supply.
        figure_type: FigureTypeId,
        /// The segment of the placed tile, by index into its tile type's segments.
        seg: u8,
    },
    /// Deploy nothing.
    Pass,
    /// Take an action offered with the pending decision.
    Action {
        /// The action, by index into the program's actions.
        action: ActionId,
        /// What it is taken on ([`Target::None`] for an action without a domain).
        target: Target,
    },
    /// Answer a rule's `choose`.
    Pick(Target),
    /// Decline an optional `choose`.
    Decline,
}

/// A figure on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Figure {
    /// Unique in the game, never reused.
    pub id: u32,
    /// Its figure type.
    pub figure_type: FigureTypeId,
    /// The owning player; `None` for a neutral figure.
    pub owner: Option<Player>,
    /// The tile it stands on, and the segment.
    pub placed: PlacedId,
    /// The segment of that tile, by index into its tile type's segments.
    pub seg: u8,
}

/// A figure off the board, at a spot (`spot NAME`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpotFigure {
    /// Unique in the game, never reused (shared with figures on the board).
    pub id: u32,
    /// Its figure type.
    pub figure_type: FigureTypeId,
    /// The owning player; `None` for a neutral figure.
    pub owner: Option<Player>,
    /// The spot, by index into the program's spots.
    pub spot: u16,
    /// Whose part of a `per_player` spot it is in; `None` for a shared spot.
    pub area: Option<Player>,
}

/// Something that happened, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The player drew the turn's tile.
    Drew {
        /// The player it happened to (whose turn, or who answered).
        player: Player,
        /// The tile type.
        tile: TileId,
    },
    /// The drawn tile fit nowhere and left the game.
    Discarded {
        /// The player it happened to (whose turn, or who answered).
        player: Player,
        /// The tile type.
        tile: TileId,
    },
    /// The player placed a tile.
    Placed {
        /// The player it happened to (whose turn, or who answered).
        player: Player,
        /// The tile type.
        tile: TileId,
        /// The square.
        pos: Pos,
        /// How the tile is turned.
        rot: Rotation,
    },
    /// The player deployed a figure from supply.
    Deployed {
        /// The player it happened to (whose turn, or who answered).
        player: Player,
        /// The figure type.
        figure_type: FigureTypeId,
        /// The tile it went on.
        placed: PlacedId,
        /// The segment of that tile.
        seg: u8,
    },
    /// The player deployed nothing.
    Passed {
        /// The player it happened to (whose turn, or who answered).
        player: Player,
    },
    /// The player took an action; `spot` is where its target was (tile, segment).
    Acted {
        /// The player it happened to (whose turn, or who answered).
        player: Player,
        /// The action taken.
        action: ActionId,
        /// What it names.
        target: Target,
        /// Where the target lay when chosen: (tile, segment).
        spot: Option<(PlacedId, u8)>,
    },
    /// The player answered a `choose`; `spot` as for `Acted`.
    Chose {
        /// The player it happened to (whose turn, or who answered).
        player: Player,
        /// What it names.
        target: Target,
        /// Where the target lay when chosen: (tile, segment).
        spot: Option<(PlacedId, u8)>,
    },
    /// The player declined an optional `choose`.
    Declined {
        /// The player it happened to (whose turn, or who answered).
        player: Player,
    },
    /// A card came from a deck into the player's hand (or was resolved at once).
    CardDrawn {
        /// The player it happened to (whose turn, or who answered).
        player: Player,
        /// The card (its kind).
        card: CardId,
    },
    /// A card left a hand for its discard pile.
    CardDiscarded {
        /// The player it happened to (whose turn, or who answered).
        player: Player,
        /// The card (its kind).
        card: CardId,
    },
    /// A rule drew another tile to choose from.
    DrewExtra {
        /// The player it happened to (whose turn, or who answered).
        player: Player,
        /// The tile type.
        tile: TileId,
    },
    /// A tile drawn but not placed went back into the stack (`kept`) or left the game.
    TileSetAside {
        /// The tile type.
        tile: TileId,
        /// Whether it went back into the stack.
        kept: bool,
    },
    /// Points paid to a player.
    Scored {
        /// The player it happened to (whose turn, or who answered).
        player: Player,
        /// Points scored (negative for a loss).
        points: i64,
        /// Why, by index into the pack's reasons.
        reason: ReasonId,
    },
    /// A rule put a figure on the board, or moved one.
    FigureSet {
        /// The figure, where it now stands.
        figure: Figure,
    },
    /// A figure left the board for its owner's supply (or the neutral supply).
    Returned {
        /// The figure, where it stood.
        figure: Figure,
    },
    /// The game ended, final scoring done.
    Ended,
}
