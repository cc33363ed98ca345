//! Rules that act: event handlers, actions offered at decisions, functions
//! and variables. Events and windows are declared once here, in tables that
//! the checker, the engine and the language reference all read.

use super::expr::{Expr, Type};
pub use super::shared::{ActionId, BlockId, CardId, DeckId, FnId, VarId};
use super::shared::{FigureId, KindId, ReasonId};
use crate::source::Span;

/// Something that happens in a game, which handlers can listen to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventKind {
    Setup,
    TurnStart,
    TileDrawn,
    TilePlaced,
    DeployPhase,
    FigureDeployed,
    FeatureCompleted,
    FeatureScored,
    FeatureDone,
    FigureReturned,
    TurnEnd,
    GameEnd,
    GameOver,
}

/// One row of the event table.
#[derive(Debug)]
pub struct EventDef {
    pub kind: EventKind,
    pub name: &'static str,
    /// The event's parameters: a name (for the docs) and a type.
    pub params: &'static [(&'static str, Type)],
    pub doc: &'static str,
}

/// Every event, in the order they happen in a turn.
pub const EVENTS: &[EventDef] = &[
    EventDef {
        kind: EventKind::Setup,
        name: "setup",
        params: &[],
        doc: "Once, after the start tile is placed and before the first tile is drawn.",
    },
    EventDef {
        kind: EventKind::TurnStart,
        name: "turn_start",
        params: &[("player", Type::Player)],
        doc: "A player's turn begins, before the tile is drawn.",
    },
    EventDef {
        kind: EventKind::TileDrawn,
        name: "tile_drawn",
        params: &[("player", Type::Player)],
        doc: "The player drew a tile that fits somewhere, before placing it.",
    },
    EventDef {
        kind: EventKind::TilePlaced,
        name: "tile_placed",
        params: &[("tile", Type::Tile)],
        doc: "The tile is on the board and joined to its neighbours; before the deploy phase and any scoring.",
    },
    EventDef {
        kind: EventKind::DeployPhase,
        name: "deploy_phase",
        params: &[("tile", Type::Tile)],
        doc: "Just before the player decides what to deploy.",
    },
    EventDef {
        kind: EventKind::FigureDeployed,
        name: "figure_deployed",
        params: &[("figure", Type::Figure)],
        doc: "A figure was deployed from the supply in the deploy phase.",
    },
    EventDef {
        kind: EventKind::FeatureCompleted,
        name: "feature_completed",
        params: &[("feature", Type::Feature)],
        doc: "A placement completed the feature; before it is scored.",
    },
    EventDef {
        kind: EventKind::FeatureScored,
        name: "feature_scored",
        params: &[("feature", Type::Feature)],
        doc: "The feature was just scored (on completion or at game end), its figures still on it.",
    },
    EventDef {
        kind: EventKind::FeatureDone,
        name: "feature_done",
        params: &[("feature", Type::Feature)],
        doc: "A completed feature has been scored and its players' figures returned.",
    },
    EventDef {
        kind: EventKind::FigureReturned,
        name: "figure_returned",
        params: &[("figure", Type::Figure)],
        doc: "A figure left the board for its owner's supply (or, neutral, the box).",
    },
    EventDef {
        kind: EventKind::TurnEnd,
        name: "turn_end",
        params: &[("player", Type::Player)],
        doc: "After the turn's scoring, before the next player's turn.",
    },
    EventDef {
        kind: EventKind::GameEnd,
        name: "game_end",
        params: &[],
        doc: "The last tile was played; before the final scoring.",
    },
    EventDef {
        kind: EventKind::GameOver,
        name: "game_over",
        params: &[],
        doc: "After the final scoring.",
    },
];

impl EventKind {
    /// The event's table row.
    pub fn def(self) -> &'static EventDef {
        EVENTS
            .iter()
            .find(|e| e.kind == self)
            .expect("every event has a row in EVENTS")
    }

    /// Index in [`EVENTS`], for per-event tables.
    pub fn index(self) -> usize {
        EVENTS
            .iter()
            .position(|e| e.kind == self)
            .expect("every event has a row in EVENTS")
    }
}

/// A decision at which actions may be offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Window {
    /// With the placement decision, after drawing and before placing; the
    /// placement is asked again afterwards.
    BeforePlace,
    /// With the deploy decision, instead of deploying.
    Deploy,
}

/// Every window: name and meaning.
pub const WINDOWS: &[(Window, &str, &str)] = &[
    (
        Window::BeforePlace,
        "before_place",
        "offered with the placement decision; afterwards the player still places the tile",
    ),
    (
        Window::Deploy,
        "deploy",
        "offered with the deploy decision, instead of deploying a figure",
    ),
];

/// The scope of a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarScope {
    Game,
    Player,
    Feature,
}

/// How two features' values of a feature variable combine when they merge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Merge {
    /// true if either is true (booleans).
    Any,
    /// true if both are true (booleans).
    All,
    Sum,
    Max,
    Min,
}

/// A declared variable.
#[derive(Clone, Debug)]
pub struct Var {
    pub name: String,
    pub scope: VarScope,
    pub ty: Type,
    /// The initial value (evaluated at setup, for game variables).
    pub init: Option<Expr>,
    pub merge: Merge,
    pub span: Span,
}

impl Program {
    /// The deck a card belongs to.
    pub fn deck_of(&self, card: CardId) -> DeckId {
        self.cards.get(card as usize).map_or(0, |c| c.deck)
    }
}

/// A deck of cards.
#[derive(Clone, Debug)]
pub struct Deck {
    pub name: String,
    /// When the draw pile runs out, the discard pile becomes the new draw pile.
    pub reshuffle: bool,
    pub span: Span,
}

/// A kind of card, with its copies in its deck and what it does.
#[derive(Clone, Debug)]
pub struct Card {
    pub name: String,
    pub deck: DeckId,
    pub count: u32,
    /// Resolved at once when drawn (then discarded): a block and its frame size.
    pub on_draw: Option<(BlockId, u16)>,
    /// Kept in hand and played as this action.
    pub play: Option<ActionId>,
    /// Resolved at game end while in hand.
    pub at_end: Option<(BlockId, u16)>,
    pub span: Span,
}

/// What a `choose`, `for each` or action ranges over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Domain {
    Players,
    /// Figures on the board, optionally of one type.
    Figures(Option<FigureId>),
    /// Features on the board, optionally of one kind.
    Features(Option<KindId>),
    /// Placed tiles.
    Tiles,
    /// Cards in the choosing player's hand (each kind once).
    Cards,
    /// Empty squares next to the board.
    Squares,
}

/// An effect.
#[derive(Clone, Debug)]
pub enum Stmt {
    Score {
        amount: Expr,
        to: Expr,
        reason: ReasonId,
    },
    Place {
        figure: FigureId,
        owner: Option<Expr>,
        on: Expr,
    },
    Move {
        figure: Expr,
        to: Expr,
        /// The tile of the feature to stand on (else its first segment).
        at: Option<Expr>,
    },
    DrawCard {
        deck: DeckId,
        player: Expr,
    },
    /// Draw another tile to choose from; the one not placed goes back into
    /// the stack (`keep`) or leaves the game.
    ExtraTile {
        keep: bool,
    },
    /// A card from a player's hand (the current player's by default) to its discard pile.
    Discard {
        card: Expr,
        player: Option<Expr>,
    },
    /// A player counts as `by` more figures on the feature for majorities.
    Strengthen {
        player: Expr,
        feature: Expr,
        by: Expr,
    },
    /// The feature's next scoring pays `amount` (`replace`) or `amount`
    /// more; with a reason, the difference is paid under that reason.
    Adjust {
        feature: Expr,
        replace: bool,
        amount: Expr,
        reason: Option<ReasonId>,
    },
    /// The feature's completion scoring is paid at game end, and its figures
    /// stay on it until then.
    Delay {
        feature: Expr,
    },
    /// Two figures exchange places.
    Swap {
        a: Expr,
        b: Expr,
    },
    /// The next player's tile must go on this square if it can.
    Steer {
        square: Expr,
    },
    Return {
        figure: Expr,
    },
    Set {
        var: VarId,
        /// The player or feature whose variable it is (`None` for game variables).
        of: Option<Expr>,
        value: Expr,
    },
    Let {
        slot: u16,
        value: Expr,
    },
    If {
        cond: Expr,
        then: BlockId,
        otherwise: Option<BlockId>,
    },
    ForEach {
        slot: u16,
        domain: Domain,
        list: Option<Expr>,
        filter: Option<Expr>,
        body: BlockId,
    },
    Choose {
        optional: bool,
        by: Expr,
        slot: u16,
        domain: Domain,
        list: Option<Expr>,
        filter: Option<Expr>,
        body: BlockId,
        otherwise: Option<BlockId>,
    },
    Call {
        func: FnId,
        args: Vec<Expr>,
    },
}

/// A statement with where it is written.
#[derive(Clone, Debug)]
pub struct StmtAt {
    pub stmt: Stmt,
    pub span: Span,
}

/// `on EVENT when COND { ... }`.
#[derive(Clone, Debug)]
pub struct Handler {
    pub event: EventKind,
    /// Local slots the handler needs (its parameters first).
    pub slots: u16,
    pub when: Option<Expr>,
    pub body: BlockId,
    pub span: Span,
}

/// `action NAME in WINDOW [for DOMAIN x where COND] [when COND] { ... }`.
#[derive(Clone, Debug)]
pub struct Action {
    pub name: String,
    pub window: Window,
    /// What the action is taken on; its variable is slot 0.
    pub domain: Option<(Domain, Option<Expr>)>,
    pub when: Option<Expr>,
    pub slots: u16,
    pub body: BlockId,
    /// A card the player must hold; playing the action discards it.
    pub card: Option<CardId>,
    pub span: Span,
}

/// A function's body.
#[derive(Clone, Debug)]
pub enum FnBody {
    Expr(Expr),
    Block(BlockId),
}

/// `fn NAME(params) = EXPR` or `fn NAME(params) { ... }`.
#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub params: Vec<Type>,
    /// The result type of an expression function.
    pub result: Option<Type>,
    pub slots: u16,
    pub body: FnBody,
    pub span: Span,
}

/// All rules that act, from every loaded pack, in load order.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub vars: Vec<Var>,
    pub handlers: Vec<Handler>,
    pub actions: Vec<Action>,
    pub functions: Vec<Function>,
    pub blocks: Vec<Vec<StmtAt>>,
    pub decks: Vec<Deck>,
    pub cards: Vec<Card>,
    /// Cards a player may keep at the end of their turn, by set of decks.
    pub hand_limits: Vec<HandLimit>,
}

/// `hand limit N for DECKS`: at the end of their turn a player discards down
/// to `limit` cards of these decks (of every deck when `decks` is empty).
#[derive(Clone, Debug)]
pub struct HandLimit {
    pub limit: u32,
    pub decks: Vec<DeckId>,
    pub span: Span,
}

impl HandLimit {
    /// Whether the limit counts cards of this deck.
    pub fn covers(&self, deck: DeckId) -> bool {
        self.decks.is_empty() || self.decks.contains(&deck)
    }
}

impl Program {
    /// Handlers of an event, in order.
    pub fn handlers_for(&self, event: EventKind) -> impl Iterator<Item = (usize, &Handler)> + '_ {
        self.handlers.iter().enumerate().filter(move |(_, h)| h.event == event)
    }
}
