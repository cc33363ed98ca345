//! Resolved expressions and the table of built-in feature queries.
//!
//! Each built-in is declared once in [`BUILTINS`]; the checker, the language
//! reference (`docs/language.md`) and the evaluator all read that table.

use crate::ir::{KindId, MarkerId};
use crate::syntax::ast::{BinOp, Topology, UnOp};

/// The type of an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    Int,
    Bool,
    /// One feature on the board (a connected set of segments).
    Feature,
    /// Several features.
    Features,
    /// A feature kind, such as `city`.
    Kind,
    /// A marker, such as `pennant`.
    Marker,
}

impl Type {
    /// The name shown in messages.
    pub fn name(self) -> &'static str {
        match self {
            Type::Int => "number",
            Type::Bool => "true/false",
            Type::Feature => "feature",
            Type::Features => "list of features",
            Type::Kind => "feature kind",
            Type::Marker => "marker",
        }
    }
}

/// A built-in query on a feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    Tiles,
    OpenEdges,
    Neighbours,
    Completed,
    Touching,
    Kind,
    Markers,
}

/// The declaration of a built-in: one row of the language reference.
#[derive(Debug)]
pub struct BuiltinDef {
    pub builtin: Builtin,
    pub name: &'static str,
    pub params: &'static [Type],
    pub result: Type,
    /// Topologies the query means something for (empty: all).
    pub topologies: &'static [Topology],
    pub doc: &'static str,
    pub example: &'static str,
}

/// Every built-in feature query.
pub const BUILTINS: &[BuiltinDef] = &[
    BuiltinDef {
        builtin: Builtin::Tiles,
        name: "tiles",
        params: &[],
        result: Type::Int,
        topologies: &[],
        doc: "Number of distinct tiles the feature covers (a tile counts once even if the feature crosses it twice).",
        example: "score completed = 2 * tiles",
    },
    BuiltinDef {
        builtin: Builtin::OpenEdges,
        name: "open_edges",
        params: &[],
        result: Type::Int,
        topologies: &[Topology::Edges, Topology::HalfEdges],
        doc: "Number of the feature's edges (or half-edges) that face an empty square.",
        example: "complete when open_edges == 0",
    },
    BuiltinDef {
        builtin: Builtin::Neighbours,
        name: "neighbours",
        params: &[],
        result: Type::Int,
        topologies: &[Topology::Area],
        doc: "Number of tiles on the 8 squares around an area feature's tile.",
        example: "score final = 1 + neighbours",
    },
    BuiltinDef {
        builtin: Builtin::Completed,
        name: "completed",
        params: &[],
        result: Type::Bool,
        topologies: &[],
        doc: "Whether the feature is complete, by its kind's `complete when` rule (false for kinds without one).",
        example: "score final = 3 * count(c in touching where c.completed)",
    },
    BuiltinDef {
        builtin: Builtin::Touching,
        name: "touching",
        params: &[],
        result: Type::Features,
        topologies: &[],
        doc: "The features this feature touches through its tiles' `touches` lists (for a field: the cities it borders), each once.",
        example: "score final = 3 * count(c in touching where c.completed)",
    },
    BuiltinDef {
        builtin: Builtin::Kind,
        name: "kind",
        params: &[],
        result: Type::Kind,
        topologies: &[],
        doc: "The feature's kind, to compare with a kind name.",
        example: "score final = count(c in touching where c.kind == city)",
    },
    BuiltinDef {
        builtin: Builtin::Markers,
        name: "markers",
        params: &[Type::Marker],
        result: Type::Int,
        topologies: &[],
        doc: "Number of the given marker on the feature's segments.",
        example: "score completed = 2 * tiles + 2 * markers(pennant)",
    },
];

impl Builtin {
    /// The built-in's declaration.
    pub fn def(self) -> &'static BuiltinDef {
        BUILTINS
            .iter()
            .find(|d| d.builtin == self)
            .expect("every builtin has a row in BUILTINS")
    }

    /// Looks a built-in up by name.
    pub fn by_name(name: &str) -> Option<&'static BuiltinDef> {
        BUILTINS.iter().find(|d| d.name == name)
    }
}

/// A value a built-in takes as an argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    Marker(MarkerId),
}

/// A resolved, typed expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Int(i64),
    Bool(bool),
    Kind(KindId),
    /// The feature the clause belongs to.
    Subject,
    /// A variable bound by `count` (index into the evaluator's locals).
    Local(u8),
    /// A query on a feature.
    Query {
        builtin: Builtin,
        of: Box<Expr>,
        arg: Option<Arg>,
    },
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// Number of members of `list` for which `filter` holds, with the member bound to `slot`.
    Count {
        slot: u8,
        list: Box<Expr>,
        filter: Option<Box<Expr>>,
    },
}
