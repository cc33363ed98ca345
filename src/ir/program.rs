//! Rules that act: event handlers, actions offered at decisions, functions
//! and variables. Events and windows are declared once here, in tables that
//! the checker, the engine and the language reference all read.

use super::expr::{Expr, Type};
use super::shared::{ActionId, BlockId, CardId, DeckId, FigureTypeId, FnId, ReasonId, VarId};
use crate::source::Span;

/// Something that happens in a game, which handlers can listen to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// `setup`: once, after the start tile is placed and before the first draw.
    Setup,
    /// `turn_start(player)`: a player's turn begins, before the tile is drawn.
    TurnStart,
    /// `tile_drawn(player)`: the player drew a tile that fits, before placing it.
    TileDrawn,
    /// `tile_placed(tile)`: the tile is on the board and joined to its
    /// neighbours, before the deploy phase and any scoring.
    TilePlaced,
    /// `deploy_phase(tile)`: just before the player decides what to deploy.
    DeployPhase,
    /// `figure_deployed(figure)`: a figure went from the supply onto the
    /// placed tile in the deploy phase.
    FigureDeployed,
    /// `figure_placed(figure)`: a figure went onto the board, by a deployment
    /// or a rule's `place` (before `figure_deployed` for a deployment).
    FigurePlaced,
    /// `figure_moved(figure)`: a figure on the board went to another place
    /// (`move`, or each figure of a `swap`).
    FigureMoved,
    /// `deploy_done(tile)`: the deploy decision was made (a figure
    /// deployed, a pass, or an action taken instead), before the turn's scoring.
    DeployDone,
    /// `feature_completed(feature)`: a placement completed the feature (its
    /// kind's `complete when` became true); before it is scored.
    FeatureCompleted,
    /// `feature_scored(feature)`: the feature was just scored, on completion
    /// or at game end, with its figures still on it.
    FeatureScored,
    /// `feature_done(feature)`: a completed feature has been scored and its
    /// players' figures returned.
    FeatureDone,
    /// `figure_returned(figure)`: a figure left the board for its owner's
    /// supply (a neutral one for the box).
    FigureReturned,
    /// `points_scored(player, amount, reason)`: points were just added to a
    /// player's score, for any reason.
    PointsScored,
    /// `turn_end(player)`: after the turn's scoring, before the next turn.
    TurnEnd,
    /// `game_end`: the last tile was played; before the final scoring.
    GameEnd,
    /// `game_over`: after the final scoring.
    GameOver,
}

/// One row of the event table.
#[derive(Debug)]
pub struct EventDef {
    /// The event this row describes.
    pub kind: EventKind,
    /// The name a rules file writes after `on` (`tile_placed`).
    pub name: &'static str,
    /// The event's parameters, in the order `on EVENT(names)` binds them: a
    /// name (for the docs) and a type.
    pub params: &'static [(&'static str, Type)],
    /// When the event fires, in one sentence, as the language reference shows it.
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
        kind: EventKind::FigurePlaced,
        name: "figure_placed",
        params: &[("figure", Type::Figure)],
        doc: "A figure went onto the board: deployed (just before `figure_deployed`) or put there by a rule's `place`.",
    },
    EventDef {
        kind: EventKind::FigureMoved,
        name: "figure_moved",
        params: &[("figure", Type::Figure)],
        doc: "A figure on the board moved to another place (`move`, or each figure of a `swap`).",
    },
    EventDef {
        kind: EventKind::DeployDone,
        name: "deploy_done",
        params: &[("tile", Type::Tile)],
        doc: "The deploy decision was made: a figure deployed (after `figure_deployed`), a pass, or a `deploy` action taken instead (after its body); before the turn's scoring.",
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
        kind: EventKind::PointsScored,
        name: "points_scored",
        params: &[("player", Type::Player), ("amount", Type::Int), ("reason", Type::Reason)],
        doc: "Points were just added to the player's score (negative for a loss), for any reason: a feature's scoring (the reason is its kind, `\"city\"`), a `score` statement (its reason), final scoring.",
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

    /// Index in [`EVENTS`], for per-event tables: the table lists the
    /// events in their declaration order (a test sees to it).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
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

/// Every window: the window, the name a rules file writes after `in`
/// (`action NAME in before_place`), and its meaning for the language reference.
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
    /// `var game`: one value for the whole game, of any declarable type.
    Game,
    /// `var player`: one `int` or `bool` per player (`p.NAME`).
    Player,
    /// `var feature`: one `int` or `bool` per feature (`c.NAME`), combined by
    /// the variable's [`Merge`] when features join.
    Feature,
}

/// How two features' values of a feature variable combine when they merge:
/// the `merge POLICY` of a `var feature` declaration (`any` by default for
/// booleans, `sum` for integers). Game and player variables carry the default
/// and never use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Merge {
    /// true if either is true (booleans).
    Any,
    /// true if both are true (booleans).
    All,
    /// The sum of both (integers; the default for `int`).
    Sum,
    /// The larger of both (integers).
    Max,
    /// The smaller of both (integers).
    Min,
}

/// A declared variable: `var SCOPE NAME: TYPE [= VALUE] [merge POLICY]`.
#[derive(Clone, Debug)]
pub struct Var {
    /// The name rules use to read and `set` it.
    pub name: String,
    /// Whether there is one value for the game, per player or per feature.
    pub scope: VarScope,
    /// The declared type (`int` or `bool` for player and feature variables).
    pub ty: Type,
    /// The initial value (evaluated at setup, for game variables).
    pub(crate) init: Option<Expr>,
    /// How feature values combine when features join.
    pub merge: Merge,
    /// Where the declaration is written.
    pub span: Span,
}

impl Program {
    /// The deck a card belongs to (deck 0 for a card id the pack does not have).
    pub fn deck_of(&self, card: CardId) -> DeckId {
        self.cards.get(card as usize).map_or(0, |c| c.deck)
    }
}

/// A deck of cards: `deck NAME [reshuffle]`.
#[derive(Clone, Debug)]
pub struct Deck {
    /// The name rules draw from (`draw card from NAME`).
    pub name: String,
    /// `reshuffle`: when the draw pile runs out, the discard pile becomes the
    /// new draw pile (otherwise it stays empty).
    pub reshuffle: bool,
    /// Where the declaration is written.
    pub span: Span,
}

/// A kind of card, with its copies in its deck and what it does:
/// `card NAME xN in DECK { ... }`.
#[derive(Clone, Debug)]
pub struct Card {
    /// The card's name, as records and `holds`/`discard` name it.
    pub name: String,
    /// The deck its copies are shuffled into, an index into [`Program::decks`].
    pub deck: DeckId,
    /// Copies in the deck (`xN`, at most 1 000).
    pub count: u32,
    /// `on draw`: resolved at once when drawn (then discarded): a block and
    /// its frame size.
    pub(crate) on_draw: Option<(BlockId, u16)>,
    /// `play in WINDOW`: kept in hand and played as this action, an index
    /// into [`Program::actions`]; playing it discards the card.
    pub play: Option<ActionId>,
    /// `at game_end`: resolved at game end while in hand.
    pub(crate) at_end: Option<(BlockId, u16)>,
    /// Where the declaration is written.
    pub span: Span,
}

pub use super::shared::Domain;

/// An effect.
#[derive(Clone, Debug)]
pub(crate) enum Stmt {
    Score {
        amount: Expr,
        to: Expr,
        /// A `reason` value: a fixed reason, or a variable holding one.
        reason: Expr,
    },
    Place {
        figure: FigureTypeId,
        owner: Option<Expr>,
        on: Expr,
        /// The tile of the feature to stand on (else the segment the
        /// feature's value names).
        at: Option<Expr>,
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
    /// Draw another tile to choose from (from stack `from`, a draw
    /// position, else the current stack); the one not placed goes back into
    /// the stack (`keep`) or leaves the game.
    ExtraTile {
        keep: bool,
        from: Option<u16>,
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
    /// The current player plays another turn after this one.
    ExtraTurn,
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
    /// A figure from supply (a neutral one from the box) to a spot; for a
    /// `per_player` spot, into the owner's part.
    PlaceAtSpot {
        figure: FigureTypeId,
        owner: Option<Expr>,
        spot: u16,
    },
    /// A figure (on the board or at a spot) to a spot.
    MoveToSpot {
        figure: Expr,
        spot: u16,
    },
    /// `choose [by PLAYER] { NAME [when COND] { ... } ... }`: the player
    /// picks one of the options whose `when` holds (none offered: nothing).
    ChooseOption {
        by: Expr,
        options: Vec<OptionArm>,
    },
}

/// One named option of a `choose { ... }`. A game names it by its body's
/// block (`Target::Option`), records by its name.
#[derive(Clone, Debug)]
pub(crate) struct OptionArm {
    pub name: String,
    pub when: Option<Expr>,
    pub body: BlockId,
}

/// A statement with where it is written.
#[derive(Clone, Debug)]
pub(crate) struct StmtAt {
    pub stmt: Stmt,
    pub span: Span,
}

/// `on EVENT when COND { ... }`.
#[derive(Clone, Debug)]
pub(crate) struct Handler {
    pub event: EventKind,
    /// Local slots the handler needs (its parameters first).
    pub slots: u16,
    pub when: Option<Expr>,
    pub body: BlockId,
    pub span: Span,
}

/// `action NAME in WINDOW [for DOMAIN x where COND] [when COND] { ... }`,
/// or a card's `play in WINDOW ...`: options added to a decision.
#[derive(Clone, Debug)]
pub struct Action {
    /// The action's name, as records and `Choice::Action` name it (a card's
    /// play is named after the card).
    pub name: String,
    /// The decision it joins.
    pub window: Window,
    /// What the action is taken on; its variable is slot 0.
    pub(crate) domain: Option<(Domain, Option<Expr>)>,
    /// The `when` condition: the action is offered only while it holds.
    pub(crate) when: Option<Expr>,
    /// Local slots the body needs.
    pub(crate) slots: u16,
    /// The statements run when the action is taken.
    pub(crate) body: BlockId,
    /// A card the player must hold, an index into [`Program::cards`];
    /// playing the action discards it.
    pub card: Option<CardId>,
    /// Where the declaration is written.
    pub span: Span,
}

/// A function's body.
#[derive(Clone, Debug)]
pub(crate) enum FnBody {
    Expr(Expr),
    Block(BlockId),
}

/// `fn NAME(params) = EXPR` or `fn NAME(params) { ... }`.
#[derive(Clone, Debug)]
pub(crate) struct Function {
    /// The name rules call it by.
    pub name: String,
    /// Local slots a call needs (its parameters first).
    pub slots: u16,
    /// What a call evaluates or runs.
    pub body: FnBody,
    /// Where the declaration is written.
    pub span: Span,
}

/// All rules that act, from every loaded pack, in load order.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// Every `var`, by [`VarId`].
    pub vars: Vec<Var>,
    /// Every `on EVENT` handler, in load order (the order they run in).
    pub(crate) handlers: Vec<Handler>,
    /// Every action, by [`ActionId`]: declared `action`s and cards' `play`s.
    pub actions: Vec<Action>,
    /// Every `fn`, by [`FnId`].
    pub(crate) functions: Vec<Function>,
    /// The statement arena: every block of statements, by [`BlockId`].
    pub(crate) blocks: Vec<Vec<StmtAt>>,
    /// Every `deck`, by [`DeckId`].
    pub decks: Vec<Deck>,
    /// Every `card`, by [`CardId`].
    pub cards: Vec<Card>,
    /// Cards a player may keep at the end of their turn, by set of decks.
    pub hand_limits: Vec<HandLimit>,
    /// Every `forbid` rule, in load order.
    pub forbids: Vec<Forbid>,
    /// Every `spot`, by index (`Expr::Spot`).
    pub spots: Vec<Spot>,
}

/// A place off the board that holds figures: `spot NAME [per_player]`.
#[derive(Clone, Debug)]
pub struct Spot {
    /// The name rules write (`on spot NAME`, `NAME.figures`).
    pub name: String,
    /// `per_player`: each player has a part of their own.
    pub per_player: bool,
    /// Where the declaration is written.
    pub span: Span,
}

/// What a `forbid` rule judges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForbidWhat {
    /// Every candidate placement (tile type, square, rotation) that fits.
    Placement,
    /// Every deployment of a figure of this type (`None`: any figure).
    Deployment(Option<FigureTypeId>),
}

/// `forbid placement|deployment ... when COND reason "..."`: a candidate
/// for which `when` holds is not offered, and choosing it fails with
/// `ErrorKind::Forbidden` and the reason.
#[derive(Clone, Debug)]
pub struct Forbid {
    /// Placements, or deployments of which figures.
    pub what: ForbidWhat,
    /// Local slots; slot 0 holds the candidate tile (placement) or the
    /// feature (deployment).
    pub slots: u16,
    /// The condition that forbids the candidate.
    pub when: Expr,
    /// Why, shown when a record tries a forbidden candidate.
    pub reason: String,
    /// Where the rule is written.
    pub span: Span,
}

/// `hand limit N for DECKS`: at the end of their turn a player discards down
/// to `limit` cards of these decks (of every deck when `decks` is empty).
#[derive(Clone, Debug)]
pub struct HandLimit {
    /// Most cards of these decks a player keeps at the end of their turn.
    pub limit: u32,
    /// The decks counted, as indices into [`Program::decks`]; empty for every deck.
    pub decks: Vec<DeckId>,
    /// Where the declaration is written.
    pub span: Span,
}

impl HandLimit {
    /// Whether the limit counts cards of this deck.
    pub fn covers(&self, deck: DeckId) -> bool {
        self.decks.is_empty() || self.decks.contains(&deck)
    }
}

impl Program {
    /// The statement at `at`: its block, and its place in the block (as a
    /// pending rule's choice names where it is asked).
    pub(crate) fn statement_at(&self, at: (BlockId, u32)) -> Option<&StmtAt> {
        self.blocks.get(at.0 as usize)?.get(at.1 as usize)
    }

    /// The name of the named option of a `choose { NAME { ... } ... }` whose
    /// body is block `body` (as `Target::Option` names it); `None` for any
    /// other block.
    pub fn option_name(&self, body: BlockId) -> Option<&str> {
        self.blocks.iter().flatten().find_map(|s| match &s.stmt {
            Stmt::ChooseOption { options, .. } => options.iter().find(|o| o.body == body).map(|o| o.name.as_str()),
            _ => None,
        })
    }

    /// Handlers of an event, in order.
    pub(crate) fn handlers_for(&self, event: EventKind) -> impl Iterator<Item = (usize, &Handler)> + '_ {
        self.handlers.iter().enumerate().filter(move |(_, h)| h.event == event)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`EventKind::index`] is the declaration order: [`EVENTS`] lists every
    /// event once, in that order.
    #[test]
    fn the_event_table_is_in_declaration_order() {
        for (i, e) in EVENTS.iter().enumerate() {
            assert_eq!(e.kind.index(), i, "{} is row {i} of EVENTS", e.name);
            assert_eq!(e.kind.def().name, e.name);
        }
        assert_eq!(
            EVENTS.len(),
            EventKind::GameOver.index() + 1,
            "the last event is the last row"
        );
    }
}
