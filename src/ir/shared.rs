//! What every stage shares: the ids of a rule pack's tables and the small
//! enums that the syntax, the checker, the IR and the engine all speak
//! (topologies, ownership, postures, operators). They live here, at the
//! bottom, so the engine never reaches back into the syntax and no module of
//! `ir` needs another for an id.

/// Index into [`crate::ir::RulePack::kinds`].
pub type KindId = u16;

/// Index into [`crate::ir::RulePack::figures`].
pub type FigureTypeId = u16;

/// Index into [`crate::ir::RulePack::markers`].
pub type MarkerId = u16;

/// Index into [`crate::ir::RulePack::icons`].
pub type IconId = u16;

/// Index into [`crate::ir::RulePack::tiles`].
pub type TileId = u16;

/// Index into [`crate::ir::RulePack::reasons`].
pub type ReasonId = u16;

/// Index into [`crate::ir::RulePack::packs`].
pub type PackId = u16;

/// Index into [`crate::ir::program::Program::decks`].
pub type DeckId = u16;

/// Index into [`crate::ir::program::Program::cards`].
pub type CardId = u16;

/// Index into [`crate::ir::program::Program::blocks`].
pub(crate) type BlockId = u32;

/// Index into [`crate::ir::program::Program::functions`].
pub(crate) type FnId = u16;

/// Index into [`crate::ir::program::Program::vars`].
pub type VarId = u16;

/// Index into [`crate::ir::program::Program::actions`].
pub type ActionId = u16;

/// How segments of a feature kind join across tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Topology {
    /// Joined through whole edges (cities, roads).
    Edges,
    /// Joined through half-edges (fields).
    HalfEdges,
    /// Not joined; the 3×3 neighbourhood matters (monasteries).
    Area,
}

/// Who owns the copies of a figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ownership {
    /// `per_player N`: every player has N copies in their supply, and the
    /// copies count towards their majorities.
    PerPlayer,
    /// `neutral N`: N copies in all, belonging to nobody; they come from and
    /// return to the box and never count towards a majority.
    Neutral,
}

/// How a figure stands on a feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Posture {
    /// `stands on KIND`.
    Standing,
    /// `lies on KIND` (as farmers lie in fields); rules read it as `x.lying`.
    Lying,
}

/// Binary operators, loosest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `a or b`: true if either is true (booleans; `b` is evaluated only if `a` is false).
    Or,
    /// `a and b`: true if both are true (booleans; `b` is evaluated only if `a` is true).
    And,
    /// `a == b`: equal values of the same type.
    Eq,
    /// `a != b`: values of the same type that differ.
    Ne,
    /// `a < b` (integers).
    Lt,
    /// `a <= b` (integers).
    Le,
    /// `a > b` (integers).
    Gt,
    /// `a >= b` (integers).
    Ge,
    /// `a + b`: checked integer addition.
    Add,
    /// `a - b`: checked integer subtraction.
    Sub,
    /// `a * b`: checked integer multiplication.
    Mul,
    /// `a / b`: checked integer division, rounding towards zero; dividing by
    /// zero stops the game with an error.
    Div,
    /// `a % b`: checked integer remainder, with the sign of `a`; by zero it
    /// stops the game with an error.
    Rem,
}

impl BinOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "or",
            BinOp::And => "and",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
        }
    }
}

/// Prefix operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `not a` (booleans).
    Not,
    /// `-a`: checked integer negation.
    Neg,
}

/// What a `choose`, `for` or action ranges over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Domain {
    /// Every player, in seat order (`for player p`, `choose player p`).
    Players,
    /// Figures on the board, optionally of one type.
    Figures(Option<FigureTypeId>),
    /// Features on the board, optionally of one kind.
    Features(Option<KindId>),
    /// Placed tiles.
    Tiles,
    /// Cards in the choosing player's hand (each kind once).
    Cards,
    /// Empty squares next to the board.
    Squares,
    /// The four sides N, E, S, W (`for direction d`; never chosen).
    Directions,
    /// The named options of a `choose { NAME { ... } ... }` (only a
    /// decision's domain: no rule ranges over it).
    Options,
}

impl Domain {
    /// Whether the domain ranges over the board (features, figures, tiles,
    /// squares), so that going through it costs more the longer the game.
    pub fn is_board(self) -> bool {
        matches!(
            self,
            Domain::Figures(_) | Domain::Features(_) | Domain::Tiles | Domain::Squares
        )
    }
}
