//! The abstract syntax tree of a `.rules` file: owned data, every node with a span.

pub use crate::ir::shared::{BinOp, Ownership, Posture, Topology, UnOp};
use crate::source::Span;

/// A name as written in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// A number as written in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Number {
    pub value: u32,
    pub span: Span,
}

/// One parsed `.rules` file.
#[derive(Clone, Debug)]
pub struct File {
    pub header: Header,
    pub items: Vec<Item>,
}

/// `pack NAME "Title"`, `language N`, `requires A, B`.
#[derive(Clone, Debug)]
pub struct Header {
    pub name: Ident,
    pub title: Option<String>,
    pub language: Option<Number>,
    pub requires: Vec<Ident>,
}

/// A top-level declaration.
#[derive(Clone, Debug)]
pub enum Item {
    Feature(FeatureDecl),
    /// `extend feature NAME { clauses }`: clauses that replace those of a
    /// kind declared by a required pack.
    ExtendFeature(Ident, Vec<FeatureClause>),
    /// `extend figure NAME { stands on KIND ... }`: more kinds a figure
    /// declared by a required pack may go on.
    ExtendFigure(Ident, Vec<FigurePlace>),
    Figure(FigureDecl),
    Marker(MarkerDecl),
    Icon(IconDecl),
    /// `style NAME colour "#rrggbb" shape SHAPE`: how pictures draw a name.
    Style(StyleDecl),
    Tile(TileDecl),
    Start(StartDecl),
    /// `stack NAME before|after OTHER`.
    Stack(StackDecl),
    /// `forbid placement|deployment ... when COND reason "..."`.
    Forbid(ForbidDecl),
    Var(VarDecl),
    Handler(HandlerDecl),
    Action(Box<ActionDecl>),
    Fn(FnDecl),
    Deck(DeckDecl),
    /// `spot NAME [per_player]`: a place off the board that holds figures.
    Spot {
        name: Ident,
        per_player: bool,
    },
    /// `hand limit N [for DECK, ...]`
    HandLimit(Number, Vec<Ident>),
    Card(Box<CardDecl>),
}

/// `deck NAME [reshuffle]`.
#[derive(Clone, Debug)]
pub struct DeckDecl {
    pub name: Ident,
    pub reshuffle: bool,
}

/// `card NAME xN in DECK { parts }`.
#[derive(Clone, Debug)]
pub struct CardDecl {
    pub name: Ident,
    pub count: Number,
    pub deck: Ident,
    /// `on draw { ... }`: resolved at once when drawn, then discarded.
    pub on_draw: Option<Block>,
    /// `play in WINDOW ... { ... }`: kept in hand, played as an action.
    pub play: Option<ActionDecl>,
    /// `at game_end { ... }`: resolved at game end if still in hand.
    pub at_end: Option<Block>,
    /// Where `at` of the old spelling `at game_end` is written.
    pub old_at: Option<Span>,
    /// `kept`: held in the hand until a rule uses it.
    pub kept: bool,
}

/// `var SCOPE NAME: TYPE [= INIT] [merge POLICY]`.
#[derive(Clone, Debug)]
pub struct VarDecl {
    pub scope: Ident,
    pub name: Ident,
    pub ty: Ident,
    pub init: Option<Expr>,
    pub merge: Option<Ident>,
}

/// `on EVENT(names) [when COND] { ... }`.
#[derive(Clone, Debug)]
pub struct HandlerDecl {
    pub event: Ident,
    /// Names for the event's parameters.
    pub names: Vec<Ident>,
    pub when: Option<Expr>,
    pub body: Block,
    pub span: Span,
}

/// `for DOMAIN VAR [where COND]` of an action or a loop.
#[derive(Clone, Debug)]
pub struct DomainClause {
    /// The domain, or the variable when the domain is left out.
    pub domain: Ident,
    pub var: Option<Ident>,
    pub list: Option<Expr>,
    pub filter: Option<Expr>,
}

/// `action NAME in WINDOW [for DOMAIN VAR where COND] [when COND] { ... }`.
#[derive(Clone, Debug)]
pub struct ActionDecl {
    pub name: Ident,
    pub window: Ident,
    pub domain: Option<DomainClause>,
    pub when: Option<Expr>,
    pub body: Block,
    pub span: Span,
}

/// A function body: an expression (`= EXPR`) or effects (`{ ... }`).
#[derive(Clone, Debug)]
pub enum FnBody {
    Expr(Expr),
    Block(Block),
}

/// `fn NAME(param: type, ...) = EXPR` or `fn NAME(...) { ... }`.
#[derive(Clone, Debug)]
pub struct FnDecl {
    pub name: Ident,
    pub params: Vec<(Ident, Ident)>,
    /// `: TYPE` after the parameters: the type of the value it returns.
    pub result: Option<Ident>,
    pub body: FnBody,
}

/// `{ statements }`.
#[derive(Clone, Debug)]
pub struct Block {
    pub stmts: Vec<Stmt>,
}

/// An effect statement.
#[derive(Clone, Debug)]
pub enum Stmt {
    /// `score AMOUNT to PLAYER reason "why"`
    Score {
        amount: Expr,
        to: Expr,
        /// The quoted reason, or the name of a `reason` value.
        reason: String,
        reason_span: Span,
        /// `reason NAME` (a parameter or `let` of type reason) rather than a quoted text.
        reason_named: bool,
        span: Span,
    },
    /// `place FIGURE [of PLAYER] on FEATURE [at TILE]`
    Place {
        figure: Ident,
        owner: Option<Expr>,
        on: Expr,
        at: Option<Expr>,
        span: Span,
    },
    /// `move FIGURE to FEATURE [at TILE]`
    Move {
        figure: Expr,
        to: Expr,
        at: Option<Expr>,
        span: Span,
    },
    /// `draw card from DECK [for PLAYER]`
    DrawCard {
        deck: Ident,
        player: Option<Expr>,
        span: Span,
    },
    /// `draw tile [from STACK] then return|remove`: a second tile to choose from.
    ExtraTile {
        keep: bool,
        from: Option<Ident>,
        span: Span,
    },
    /// `discard CARD [of PLAYER]`
    Discard {
        card: Expr,
        player: Option<Expr>,
        span: Span,
    },
    /// `strengthen PLAYER on FEATURE [by N]`: counts for the majority.
    Strengthen {
        player: Expr,
        feature: Expr,
        by: Option<Expr>,
        span: Span,
    },
    /// `adjust scoring of FEATURE to|by N [reason "why"]`
    Adjust {
        feature: Expr,
        replace: bool,
        amount: Expr,
        reason: Option<(String, Span)>,
        span: Span,
    },
    /// `delay scoring of FEATURE`
    Delay { feature: Expr, span: Span },
    /// `swap FIGURE with FIGURE`
    Swap { a: Expr, b: Expr, span: Span },
    /// `steer next placement to SQUARE`
    Steer { square: Expr, span: Span },
    /// `extra turn`: the current player plays again after this turn.
    ExtraTurn { span: Span },
    /// `may { ... }`: the current player says yes or no.
    May { body: Block, span: Span },
    /// `return VALUE` (in a function with a result; elsewhere the old
    /// spelling of `take back`)
    Return { figure: Expr, span: Span },
    /// `take back FIGURE`
    TakeBack { figure: Expr, span: Span },
    /// `set NAME = EXPR` / `set THING.NAME = EXPR`
    Set {
        target: Ident,
        field: Option<Ident>,
        value: Expr,
        span: Span,
    },
    /// `let NAME = EXPR`
    Let { name: Ident, value: Expr, span: Span },
    /// `if COND { ... } else { ... }`
    If {
        cond: Expr,
        then: Block,
        otherwise: Option<Block>,
        span: Span,
    },
    /// `for DOMAIN VAR [in LIST] [where COND] { ... }` or `for VAR in LIST ...`
    ForEach {
        /// The domain, or the variable when the domain is left out.
        domain: Ident,
        var: Option<Ident>,
        list: Option<Expr>,
        filter: Option<Expr>,
        body: Block,
        /// Where the old spelling's `each` is written.
        old_each: Option<Span>,
        span: Span,
    },
    /// `[may] choose [by PLAYER] DOMAIN VAR [in LIST] [where COND] { ... } [else { ... }]`
    Choose {
        optional: bool,
        by: Option<Expr>,
        /// The domain, or the variable when the domain is missing.
        domain: Ident,
        var: Option<Ident>,
        list: Option<Expr>,
        filter: Option<Expr>,
        body: Block,
        otherwise: Option<Block>,
        span: Span,
    },
    /// `NAME(args)`: a function defined in the rules.
    Call { func: Ident, args: Vec<Expr>, span: Span },
    /// `place FIGURE [of PLAYER] on spot NAME`
    PlaceAtSpot {
        figure: Ident,
        owner: Option<Expr>,
        spot: Ident,
        span: Span,
    },
    /// `move FIGURE to spot NAME`
    MoveToSpot { figure: Expr, spot: Ident, span: Span },
    /// `choose [by PLAYER] { NAME [when COND] { ... } ... }`: one of named options.
    ChooseOption {
        by: Option<Expr>,
        options: Vec<OptionArm>,
        span: Span,
    },
}

/// One named option of `choose { ... }`: `NAME [when COND] { ... }`.
#[derive(Clone, Debug)]
pub struct OptionArm {
    pub name: Ident,
    pub when: Option<Expr>,
    pub body: Block,
}

impl Stmt {
    /// The statement's source range.
    pub fn span(&self) -> Span {
        match self {
            Stmt::Score { span, .. }
            | Stmt::Place { span, .. }
            | Stmt::Move { span, .. }
            | Stmt::DrawCard { span, .. }
            | Stmt::ExtraTile { span, .. }
            | Stmt::Discard { span, .. }
            | Stmt::Strengthen { span, .. }
            | Stmt::Adjust { span, .. }
            | Stmt::Delay { span, .. }
            | Stmt::Swap { span, .. }
            | Stmt::Steer { span, .. }
            | Stmt::ExtraTurn { span }
            | Stmt::May { span, .. }
            | Stmt::Return { span, .. }
            | Stmt::Set { span, .. }
            | Stmt::Let { span, .. }
            | Stmt::If { span, .. }
            | Stmt::ForEach { span, .. }
            | Stmt::TakeBack { span, .. }
            | Stmt::Choose { span, .. }
            | Stmt::Call { span, .. }
            | Stmt::ChooseOption { span, .. }
            | Stmt::PlaceAtSpot { span, .. }
            | Stmt::MoveToSpot { span, .. } => *span,
        }
    }
}

/// `feature NAME TOPOLOGY { clauses }`.
#[derive(Clone, Debug)]
pub struct FeatureDecl {
    pub name: Ident,
    pub topology: Topology,
    pub topology_span: Span,
    /// `narrow`: the feature runs through the middle of an edge (a road).
    pub narrow: Option<Span>,
    pub clauses: Vec<FeatureClause>,
}

/// When a score formula applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreMoment {
    Completed,
    Final,
}

/// A clause inside a feature declaration.
#[derive(Clone, Debug)]
pub enum FeatureClause {
    /// `complete when EXPR`
    Complete { expr: Expr, span: Span },
    /// `score completed = EXPR` / `score final = EXPR`
    Score {
        moment: ScoreMoment,
        expr: Expr,
        span: Span,
    },
}

/// `figure NAME per_player N { stands on a, b; lies on c }`.
#[derive(Clone, Debug)]
pub struct FigureDecl {
    pub name: Ident,
    pub ownership: Ownership,
    pub count: Number,
    /// The count was written the old way, as a bare number after the ownership.
    pub old_count: bool,
    /// `weight N`: how many figures it counts as for majorities.
    pub weight: Option<Number>,
    pub places: Vec<FigurePlace>,
}

/// `stands on a, b` inside a figure declaration.
#[derive(Clone, Debug)]
pub struct FigurePlace {
    pub posture: Posture,
    pub kinds: Vec<Ident>,
}

/// `marker NAME on kind, kind`.
#[derive(Clone, Debug)]
pub struct MarkerDecl {
    pub name: Ident,
    pub on: Vec<Ident>,
}

/// `style NAME colour "TEXT" shape WORD`, either part optional but not both.
#[derive(Clone, Debug)]
pub struct StyleDecl {
    /// A feature kind, marker, icon or figure.
    pub name: Ident,
    /// The quoted colour without its quotes, and where it is written.
    pub colour: Option<(String, Span)>,
    pub shape: Option<Ident>,
}

/// `icon NAME` or `icon NAME: TYPE`.
#[derive(Clone, Debug)]
pub struct IconDecl {
    pub name: Ident,
    pub value_type: Option<Ident>,
}

/// Whether a tile declaration defines, extends or replaces a tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TileMode {
    /// `tile NAME ...`
    Define,
    /// `extend tile NAME ...`: add to / recount a tile of a required pack.
    Extend,
    /// `replace tile NAME ...`: redefine a tile of a required pack.
    Replace,
}

/// A tile declaration.
#[derive(Clone, Debug)]
pub struct TileDecl {
    pub mode: TileMode,
    pub name: Ident,
    /// `from OTHER`: start from a copy of another tile's layout.
    pub from: Option<Ident>,
    pub count: Option<Number>,
    /// `in STACK [last]`: the stack it is drawn from, and whether it is pinned to the stack's end.
    pub stack: Option<TileStack>,
    pub body: Option<TileBody>,
}

/// `in STACK [last]` of a tile declaration.
#[derive(Clone, Debug)]
pub struct TileStack {
    pub stack: Ident,
    /// `last`: drawn only once it is the last tile type left in its stack.
    pub last: Option<Span>,
}

/// `forbid placement of t when COND reason "..."` or
/// `forbid deployment of FIGURE_TYPE|figure on f when COND reason "..."`.
#[derive(Clone, Debug)]
pub struct ForbidDecl {
    pub what: Forbidden,
    pub when: Expr,
    pub reason: String,
    pub span: Span,
}

/// What a `forbid` rule judges.
#[derive(Clone, Debug)]
pub enum Forbidden {
    /// `placement of t`: every candidate placement, `t` the candidate tile.
    Placement { tile: Ident },
    /// `deployment of FIGURE_TYPE|figure on f`: every deployment, `f` the feature.
    Deployment { figure: Ident, feature: Ident },
}

/// `stack NAME before|after OTHER`: a named tile stack and its place in the draw order.
#[derive(Clone, Debug)]
pub struct StackDecl {
    pub name: Ident,
    /// `before` (true) or `after` (false) `other`.
    pub before: bool,
    pub other: Ident,
}

/// `{ item; item }` of a tile declaration.
#[derive(Clone, Debug)]
pub struct TileBody {
    pub items: Vec<TileItem>,
}

/// One entry of a tile body.
#[derive(Clone, Debug)]
pub enum TileItem {
    Segment(SegmentDecl),
    /// `icon NAME [VALUE]`
    Icon {
        name: Ident,
        value: Option<Ident>,
    },
}

/// `KIND word* [touches word+]`: words are edges, half-edges or markers.
#[derive(Clone, Debug)]
pub struct SegmentDecl {
    pub kind: Ident,
    pub words: Vec<Ident>,
    pub touches: Vec<Ident>,
    pub span: Span,
}

/// `start TILE` or `replace start TILE`.
#[derive(Clone, Debug)]
pub struct StartDecl {
    pub replace: bool,
    pub tile: Ident,
    pub span: Span,
}

/// An expression.
#[derive(Clone, Debug)]
pub enum Expr {
    Int(Number),
    Bool(bool, Span),
    /// `"city"`: a quoted text, a scoring reason.
    Str(String, Span),
    Name(Ident),
    Call {
        func: Ident,
        args: Vec<Expr>,
        span: Span,
    },
    /// `base.name` or `base.name(args)`
    Member {
        base: Box<Expr>,
        name: Ident,
        args: Option<Vec<Expr>>,
        span: Span,
    },
    Unary {
        op: UnOp,
        expr: Box<Expr>,
        span: Span,
    },
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `if COND then A else B`
    If {
        cond: Box<Expr>,
        then: Box<Expr>,
        otherwise: Box<Expr>,
        span: Span,
    },
    /// `count(DOMAIN x [in LIST] [where COND])` or `count(x in LIST ...)`
    Count {
        domain: Option<Ident>,
        var: Ident,
        list: Option<Box<Expr>>,
        filter: Option<Box<Expr>>,
        span: Span,
    },
}

impl Expr {
    /// The source range the expression covers.
    pub fn span(&self) -> Span {
        match self {
            Expr::Int(n) => n.span,
            Expr::Bool(_, span) | Expr::Str(_, span) => *span,
            Expr::Name(id) => id.span,
            Expr::Call { span, .. }
            | Expr::Member { span, .. }
            | Expr::Unary { span, .. }
            | Expr::Count { span, .. }
            | Expr::If { span, .. } => *span,
            Expr::Binary { lhs, rhs, .. } => lhs.span().to(rhs.span()),
        }
    }
}
