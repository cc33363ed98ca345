//! What every stage shares: the ids of a rule pack's tables and the small
//! enums that the syntax, the checker, the IR and the engine all speak
//! (topologies, ownership, postures, operators). They live here, at the
//! bottom, so the engine never reaches back into the syntax and no module of
//! `ir` needs another for an id.

/// Index into [`crate::ir::RulePack::kinds`].
pub type KindId = u16;

/// Index into [`crate::ir::RulePack::figures`].
pub type FigureId = u16;

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
pub type BlockId = u32;

/// Index into [`crate::ir::program::Program::functions`].
pub type FnId = u16;

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
    PerPlayer,
    Neutral,
}

/// How a figure stands on a feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Posture {
    Standing,
    Lying,
}

/// Binary operators, loosest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
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
    Not,
    Neg,
}
