//! The intermediate representation: a checked, resolved rule pack. Every name
//! is a dense index; nothing here is looked up by string while a game runs.

pub(crate) mod expr;
pub mod geometry;
pub mod program;
pub mod reference;
pub mod style;

use crate::source::{FileId, Sources, Span};
pub mod shared;
use expr::Expr;
pub use expr::Type;
use geometry::Bits;
pub(crate) use shared::BlockId;
pub use shared::{
    ActionId, BinOp, CardId, DeckId, FigureTypeId, IconId, KindId, MarkerId, Ownership, PackId, Posture, ReasonId,
    TileId, Topology, UnOp, VarId,
};

/// Several packs loaded, checked and merged: everything a game needs.
#[derive(Clone, Debug)]
pub struct RulePack {
    /// The source files read, for diagnostics and rule locations.
    pub(crate) sources: Sources,
    /// Loaded packs, each after the packs it requires.
    pub(crate) packs: Vec<Pack>,
    pub(crate) kinds: Vec<FeatureKind>,
    pub(crate) figures: Vec<FigureType>,
    pub(crate) markers: Vec<Marker>,
    pub(crate) icons: Vec<Icon>,
    pub(crate) tiles: Vec<TileType>,
    /// The tile stacks' names in draw order (`main` among them); a tile's
    /// [`TileType::stack`] indexes this list.
    pub(crate) stacks: Vec<String>,
    /// The tile type of which one copy starts on the board.
    pub(crate) start: TileId,
    /// Handlers, actions, functions and variables.
    pub(crate) program: program::Program,
    /// Why points are scored, for statistics and logs: first every feature
    /// kind's name (reason `k` is kind `k`), then reasons named by rules.
    pub(crate) reasons: Vec<String>,
    /// `style` declarations in load order (a later one overrides the parts it sets).
    pub(crate) styles: Vec<(style::Styled, style::Style)>,
}

/// One loaded `.rules` file.
#[derive(Clone, Debug)]
pub struct Pack {
    /// The name in its header, `pack NAME`, by which others `requires` it.
    pub name: String,
    /// The quoted title after the name in its header, if any.
    pub title: Option<String>,
    /// The file it was read from, in [`RulePack::sources`].
    pub file: FileId,
    /// The packs its `requires` line names, as indices into [`RulePack::packs`].
    pub requires: Vec<PackId>,
}

/// A feature kind: how its segments connect, when it is complete, how it scores.
#[derive(Clone, Debug)]
pub struct FeatureKind {
    /// The name after `feature` (`city`), also the scoring reason with the same index.
    pub name: String,
    /// How its segments join across tiles (`connects edges`, `connects half_edges`, `area`).
    pub topology: Topology,
    /// Runs through the middle of an edge, leaving the halves to fields (roads).
    pub narrow: bool,
    /// `complete when`; `None`: never complete.
    pub(crate) complete: Option<Expr>,
    /// `score completed`; `None`: scores nothing when completed.
    pub(crate) score_completed: Option<Expr>,
    /// `score final`; `None`: scores nothing at game end.
    pub(crate) score_final: Option<Expr>,
    /// Where the declaration is written.
    pub span: Span,
}

/// A kind of figure.
#[derive(Clone, Debug)]
pub struct FigureType {
    /// The name after `figure` (`follower`), as records and rules name it.
    pub name: String,
    /// `per_player` (each player has copies) or `neutral` (copies belong to nobody).
    pub ownership: Ownership,
    /// Copies per player, or in all for a neutral figure.
    pub count: u32,
    /// How many figures it counts as for majorities (`weight N`, default 1);
    /// 0: not a follower (never counts, does not occupy a feature, and may
    /// join an occupied one).
    pub weight: u32,
    /// Kinds it may stand on, by [`KindId`], with its posture there.
    pub places: Vec<(KindId, Posture)>,
    /// Where the declaration is written.
    pub span: Span,
}

impl FigureType {
    /// The posture the figure takes on `kind`, if it may go there.
    pub fn posture_on(&self, kind: KindId) -> Option<Posture> {
        self.places.iter().find(|(k, _)| *k == kind).map(|(_, p)| *p)
    }
}

/// A segment marker, such as a pennant.
#[derive(Clone, Debug)]
pub struct Marker {
    /// The name after `marker`, written after a segment's locations on a tile.
    pub name: String,
    /// Kinds whose segments may carry it.
    pub on: Vec<KindId>,
    /// Where the declaration is written.
    pub span: Span,
}

/// The type of value an icon carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IconValue {
    /// No value: the icon is present or not.
    None,
    /// A compass direction (N, NE, ... NW).
    Compass,
}

/// A tile icon: a symbol printed on some tiles, optionally with a compass value.
#[derive(Clone, Debug)]
pub struct Icon {
    /// The name after `icon`, as tiles and `has_icon(NAME)` write it.
    pub name: String,
    /// Whether tiles give the icon a compass value (`icon NAME: compass`).
    pub value: IconValue,
    /// Where the declaration is written.
    pub span: Span,
}

/// An icon on a tile, with its value (a compass index for compass icons).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileIcon {
    /// Which icon, an index into [`RulePack::icons`].
    pub icon: IconId,
    /// For a compass icon, the direction as printed on the unrotated tile:
    /// an index into [`geometry::COMPASS_NAMES`] (0 = N, clockwise in
    /// eighths); `None` for an icon without a value.
    pub value: Option<u8>,
}

/// A tile type with its count in the tile set.
#[derive(Clone, Debug)]
pub struct TileType {
    /// The name after `tile` (`D`), as records name it.
    pub name: String,
    /// Copies in the tile set (`xN`, at most 1 000), the start tile's copy included.
    pub count: u32,
    /// Its feature segments, in the order written; [`Segment::touches`]
    /// indexes into this list.
    pub segments: Vec<Segment>,
    /// The icons printed on it.
    pub icons: Vec<TileIcon>,
    /// Where the tile was defined.
    pub span: Span,
    /// Where its count was last set (`extend tile` may change it).
    pub count_span: Span,
    /// The stack it is drawn from (`in STACK`), as a position in
    /// [`RulePack::stacks()`]: the draw takes from the first non-empty stack.
    pub stack: u16,
    /// `last`: pinned, drawn only once no other tile is left in its stack.
    pub last: bool,
}

impl TileType {
    /// The segment filling `edge` (a city or road), if any; `None` means the
    /// edge is a field edge.
    pub fn edge_segment(&self, edge: u8) -> Option<usize> {
        self.segments.iter().position(|s| s.edges.has(edge))
    }

    /// Number of `marker`s on the tile.
    pub fn marker_count(&self, marker: MarkerId) -> usize {
        self.segments
            .iter()
            .map(|s| s.markers.iter().filter(|m| **m == marker).count())
            .sum()
    }

    /// Whether the tile carries `icon`.
    pub fn has_icon(&self, icon: IconId) -> bool {
        self.icons.iter().any(|i| i.icon == icon)
    }
}

/// One feature segment of a tile.
#[derive(Clone, Debug)]
pub struct Segment {
    /// Its feature kind, an index into [`RulePack::kinds`].
    pub kind: KindId,
    /// Edges it reaches (edge-connected kinds), in the unrotated tile:
    /// bit `e` for edge `e` of [`geometry::EDGE_NAMES`].
    pub edges: Bits,
    /// Half-edges it reaches (half-edge-connected kinds), in the unrotated
    /// tile: bit `h` for half-edge `h` of [`geometry::HALF_EDGE_NAMES`].
    pub half_edges: Bits,
    /// Other segments of the same tile it touches, by index.
    pub touches: Vec<u8>,
    /// Markers, one entry per copy.
    pub markers: Vec<MarkerId>,
    /// Where the segment is written in its tile.
    pub span: Span,
}

impl RulePack {
    /// The source files read, for diagnostics and rule locations.
    pub fn sources(&self) -> &Sources {
        &self.sources
    }

    /// The loaded packs, each after the packs it requires.
    pub fn packs(&self) -> &[Pack] {
        &self.packs
    }

    /// The feature kinds, by [`KindId`].
    pub fn kinds(&self) -> &[FeatureKind] {
        &self.kinds
    }

    /// The figure types, by [`FigureTypeId`].
    pub fn figures(&self) -> &[FigureType] {
        &self.figures
    }

    /// The segment markers, by [`MarkerId`].
    pub fn markers(&self) -> &[Marker] {
        &self.markers
    }

    /// The tile icons, by [`IconId`].
    pub fn icons(&self) -> &[Icon] {
        &self.icons
    }

    /// The tile types with their counts, by [`TileId`].
    pub fn tiles(&self) -> &[TileType] {
        &self.tiles
    }

    /// The tile stacks' names in draw order (`main`, the stack of tiles
    /// declared without `in`, among them); [`TileType::stack`] indexes it.
    pub fn stacks(&self) -> &[String] {
        &self.stacks
    }

    /// The tile type of which one copy starts on the board.
    pub fn start(&self) -> TileId {
        self.start
    }

    /// Handlers, actions, functions, variables, decks and cards.
    pub fn program(&self) -> &program::Program {
        &self.program
    }

    /// Why points are scored, by [`ReasonId`]: first every feature kind's
    /// name (reason `k` is kind `k`), then the reasons rules name.
    pub fn reasons(&self) -> &[String] {
        &self.reasons
    }

    /// How pictures draw `what`: the parts the packs' `style` declarations
    /// set (a later pack's overriding an earlier one's); the rest `None`.
    pub fn style(&self, what: style::Styled) -> style::Style {
        let mut found = style::Style::default();
        for (_, s) in self.styles.iter().filter(|(w, _)| *w == what) {
            found.colour = s.colour.or(found.colour);
            found.shape = s.shape.or(found.shape);
        }
        found
    }

    /// The kind with this name.
    pub fn kind(&self, name: &str) -> Option<KindId> {
        self.kinds.iter().position(|k| k.name == name).map(|i| i as KindId)
    }

    /// The tile type with this name.
    pub fn tile(&self, name: &str) -> Option<TileId> {
        self.tiles.iter().position(|t| t.name == name).map(|i| i as TileId)
    }

    /// The figure with this name.
    pub fn figure(&self, name: &str) -> Option<FigureTypeId> {
        self.figures
            .iter()
            .position(|f| f.name == name)
            .map(|i| i as FigureTypeId)
    }

    /// The marker with this name.
    pub fn marker(&self, name: &str) -> Option<MarkerId> {
        self.markers.iter().position(|m| m.name == name).map(|i| i as MarkerId)
    }

    /// Total number of tiles in the set, the start tile included.
    pub fn tile_count(&self) -> u32 {
        self.tiles.iter().map(|t| t.count).sum()
    }

    /// `file:line` of a span, for runtime messages.
    pub fn locate(&self, span: Span) -> String {
        format!("{}:{}", self.sources.name(span.file), self.sources.line(span))
    }
}
