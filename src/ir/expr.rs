//! Resolved expressions and the table of built-ins.
//!
//! Each built-in is declared once in [`BUILTINS`] (name, receiver,
//! parameters, result, doc, example); the checker, the language reference
//! (`docs/language.md`) and the evaluator all read that table.

use super::shared::{BinOp, Domain, FigureTypeId, FnId, IconId, KindId, MarkerId, ReasonId, Topology, UnOp, VarId};

/// The type of an expression.
// `Type::FigureType` is the language's own name for the type of `follower`.
#[allow(clippy::enum_variant_names)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// `int`: a 64-bit signed integer; arithmetic on it is checked.
    Int,
    /// `bool`: `true` or `false`.
    Bool,
    /// One feature on the board (a connected set of segments).
    Feature,
    /// A list of features, such as `t.features`.
    Features,
    /// A feature kind, such as `city`.
    Kind,
    /// A marker, such as `pennant`.
    Marker,
    /// A player (seat), such as `current_player`.
    Player,
    /// A list of players, such as `c.owners`.
    Players,
    /// A figure on the board.
    Figure,
    /// A list of figures, such as `c.figures`.
    Figures,
    /// A kind of figure, such as `follower`.
    FigureType,
    /// A tile on the board.
    Tile,
    /// An icon, such as a tile symbol.
    Icon,
    /// A compass direction.
    Direction,
    /// A list of directions, such as `sides`.
    Directions,
    /// A kind of card.
    Card,
    /// A deck of cards, such as `presents`.
    Deck,
    /// A square of the board (empty or not).
    Square,
    /// A place off the board that holds figures (`spot NAME`).
    Spot,
    /// Why points were scored: a feature kind's name or a rule's reason,
    /// compared with a quoted text (`why == "city"`).
    Reason,
    /// The type of `none`, which any player, figure, feature or tile may be.
    Nothing,
}

impl Type {
    /// The name shown in messages and written in declarations.
    pub fn name(self) -> &'static str {
        match self {
            Type::Int => "int",
            Type::Bool => "bool",
            Type::Feature => "feature",
            Type::Features => "list of features",
            Type::Kind => "feature kind",
            Type::Marker => "marker",
            Type::Player => "player",
            Type::Players => "list of players",
            Type::Figure => "figure",
            Type::Figures => "list of figures",
            Type::FigureType => "figure type",
            Type::Tile => "tile",
            Type::Icon => "icon",
            Type::Direction => "direction",
            Type::Directions => "list of directions",
            Type::Card => "card",
            Type::Deck => "deck",
            Type::Square => "square",
            Type::Reason => "reason",
            Type::Spot => "spot",
            Type::Nothing => "none",
        }
    }

    /// The name with its article, for sentences ("an int", "a feature").
    pub fn a(self) -> String {
        let name = self.name();
        match name.chars().next() {
            Some('a' | 'e' | 'i' | 'o' | 'u') => format!("an {name}"),
            _ if self == Type::Nothing => name.to_string(),
            _ => format!("a {name}"),
        }
    }

    /// The type named in a declaration (`var game x: tile`, `fn f(c: feature)`).
    pub fn by_name(name: &str) -> Option<Type> {
        Some(match name {
            "int" => Type::Int,
            "bool" => Type::Bool,
            "feature" => Type::Feature,
            "player" => Type::Player,
            "figure" => Type::Figure,
            "tile" => Type::Tile,
            "direction" => Type::Direction,
            "kind" => Type::Kind,
            "figure_type" => Type::FigureType,
            "card" => Type::Card,
            "square" => Type::Square,
            "reason" => Type::Reason,
            _ => return None,
        })
    }

    /// Names accepted by [`Type::by_name`].
    pub const DECLARABLE: &'static [&'static str] = &[
        "int",
        "bool",
        "feature",
        "player",
        "figure",
        "tile",
        "direction",
        "kind",
        "figure_type",
        "card",
        "square",
        "reason",
    ];

    /// Whether `none` may stand for a value of this type.
    pub fn nullable(self) -> bool {
        matches!(
            self,
            Type::Feature
                | Type::Player
                | Type::Figure
                | Type::Tile
                | Type::Direction
                | Type::Square
                | Type::Kind
                | Type::Spot
                | Type::Nothing
        )
    }

    /// Whether a value of type `other` may be used where `self` is expected.
    pub fn accepts(self, other: Type) -> bool {
        self == other || (other == Type::Nothing && self.nullable())
    }

    /// The element type of a list type.
    pub fn element(self) -> Option<Type> {
        match self {
            Type::Features => Some(Type::Feature),
            Type::Players => Some(Type::Player),
            Type::Figures => Some(Type::Figure),
            Type::Directions => Some(Type::Direction),
            _ => None,
        }
    }
}

/// What a built-in applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Receiver {
    /// Nothing: a global name or function (`current_player`, `turn(d, 90)`).
    Global,
    Feature,
    Figure,
    Tile,
    Player,
    FigureType,
    Deck,
    Square,
    Spot,
}

impl Receiver {
    /// The receiver a value of type `t` offers.
    pub fn of(t: Type) -> Option<Receiver> {
        Some(match t {
            Type::Feature => Receiver::Feature,
            Type::Figure => Receiver::Figure,
            Type::Tile => Receiver::Tile,
            Type::Player => Receiver::Player,
            Type::FigureType => Receiver::FigureType,
            Type::Deck => Receiver::Deck,
            Type::Square => Receiver::Square,
            Type::Spot => Receiver::Spot,
            _ => return None,
        })
    }
}

/// A built-in query.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    Tiles,
    OpenEdges,
    Neighbours,
    Completed,
    Scored,
    Touching,
    Kind,
    Markers,
    Figures,
    Followers,
    Has,
    Owners,
    ControlledBy,
    CompletedScore,
    FinalScore,
    Owner,
    FigureType,
    FigureFeature,
    FigureTile,
    X,
    Y,
    Rotation,
    HasIcon,
    IconValue,
    TileFeature,
    Score,
    Supply,
    OnBoard,
    TypeFeature,
    CurrentPlayer,
    NextPlayer,
    Opponents,
    Players,
    PlacedTile,
    StartTile,
    Turn,
    Toward,
    TileFeatures,
    Lying,
    LiesOn,
    StandsOn,
    Weight,
    Cards,
    HandSize,
    Holds,
    Left,
    AllFeatures,
    Ends,
    FeatureTile,
    Distance,
    SquareX,
    SquareY,
    SquareAt,
    SquareTile,
    TilesLeft,
    Side,
    Neighbour,
    Sides,
    Angle,
    SpotFigures,
    FiguresAt,
    FigureSpot,
}

/// The declaration of a built-in: one row of the language reference.
#[derive(Debug)]
pub struct BuiltinDef {
    pub builtin: Builtin,
    pub receiver: Receiver,
    pub name: &'static str,
    pub params: &'static [Type],
    pub result: Type,
    /// Topologies a feature query means something for (empty: all).
    pub topologies: &'static [Topology],
    pub doc: &'static str,
    pub example: &'static str,
}

macro_rules! builtins {
    ($($b:ident $recv:ident $name:literal ($($p:ident),*) -> $r:ident [$($topo:ident),*] $doc:literal $ex:literal;)*) => {
        /// Every built-in, by receiver.
        pub const BUILTINS: &[BuiltinDef] = &[$(BuiltinDef {
            builtin: Builtin::$b,
            receiver: Receiver::$recv,
            name: $name,
            params: &[$(Type::$p),*],
            result: Type::$r,
            topologies: &[$(Topology::$topo),*],
            doc: $doc,
            example: $ex,
        },)*];
    };
}

builtins! {
    Tiles Feature "tiles" () -> Int []
        "Number of distinct tiles the feature covers (a tile counts once even if the feature crosses it twice)."
        "score completed = 2 * tiles";
    OpenEdges Feature "open_edges" () -> Int [Edges, HalfEdges]
        "Number of the feature's edges (or half-edges) that face an empty square."
        "complete when open_edges == 0";
    Neighbours Feature "neighbours" () -> Int [Area]
        "Number of tiles on the 8 squares around an area feature's tile."
        "score final = 1 + neighbours";
    Completed Feature "completed" () -> Bool []
        "Whether the feature is complete, by its kind's `complete when` rule (false for kinds without one)."
        "score final = 3 * count(c in touching where c.completed)";
    Scored Feature "scored" () -> Bool []
        "Whether the feature's completion has been taken up by the scoring step (true from its `feature_completed` on). A feature that the tile just placed completed is `completed` but not yet `scored`, so a card drawn at placement may still act on it."
        "choose road r where not r.scored { place follower on r }";
    Touching Feature "touching" () -> Features []
        "The features this feature touches through its tiles' `touches` lists (for a field: the cities it borders), each once."
        "score final = 3 * count(c in touching where c.completed)";
    Kind Feature "kind" () -> Kind []
        "The feature's kind, to compare with a kind name."
        "score final = count(c in touching where c.kind == city)";
    Markers Feature "markers" (Marker) -> Int []
        "Number of the given marker on the feature's segments."
        "score completed = 2 * tiles + 2 * markers(pennant)";
    Figures Feature "figures" () -> Figures []
        "The figures on the feature, players' and neutral."
        "for figure x in c.figures { take back x }";
    Followers Feature "followers" (Player) -> Int []
        "The summed weights of the player's figures on the feature (a follower counts 1, a figure of weight 0 nothing; `strengthen` bonuses not included)."
        "score c.followers(p) * c.tiles to p reason \"bonus\"";
    Has Feature "has" (FigureType) -> Bool []
        "Whether a figure of that type is on the feature."
        "on feature_completed(c) when c.has(dragon) { }";
    Owners Feature "owners" () -> Players []
        "The players with the most figures on the feature (all of them when tied); empty when none."
        "for player p in c.owners { score 1 to p reason \"bonus\" }";
    ControlledBy Feature "controlled_by" (Player) -> Bool []
        "Whether the player is among the feature's owners."
        "choose road r where r.controlled_by(current_player) { }";
    CompletedScore Feature "completed_score" () -> Int []
        "What the feature's kind pays for it when completed (`score completed`), as it stands now."
        "score c.completed_score to current_player reason \"bonus\"";
    FinalScore Feature "final_score" () -> Int []
        "What the feature's kind pays for it at game end (`score final`), as it stands now."
        "score a.feature.final_score to current_player reason \"recall\"";
    Owner Figure "owner" () -> Player []
        "The figure's owner; `none` for a neutral figure."
        "x.owner == current_player";
    FigureType Figure "type" () -> FigureType []
        "The figure's type, to compare with a figure name."
        "x.type == follower";
    FigureFeature Figure "feature" () -> Feature []
        "The feature the figure stands on."
        "x.feature.completed";
    FigureTile Figure "tile" () -> Tile []
        "The tile the figure stands on."
        "x.tile.x";
    X Tile "x" () -> Int []
        "The tile's column; the start tile is at 0, x grows eastwards."
        "t.x > 0";
    Y Tile "y" () -> Int []
        "The tile's row; the start tile is at 0, y grows southwards."
        "t.y < 0";
    Rotation Tile "rotation" () -> Int []
        "How far the tile is turned clockwise, in degrees (0, 90, 180, 270)."
        "turn(d, t.rotation)";
    HasIcon Tile "has_icon" (Icon) -> Bool []
        "Whether the tile carries the icon."
        "on turn_end when placed_tile.has_icon(star) { }";
    IconValue Tile "icon" (Icon) -> Direction []
        "The compass value of a compass icon on the tile, as printed (not turned); `none` without the icon."
        "t.icon(arrow)";
    TileFeature Tile "feature" (Kind) -> Feature []
        "The feature of that kind with a segment on the tile (the first, if several); `none` if there is none."
        "place sheep on start_tile.feature(field)";
    Score Player "score" () -> Int []
        "The player's score."
        "p.score >= 50";
    Supply Player "supply" (FigureType) -> Int []
        "How many figures of that type the player has in supply."
        "current_player.supply(follower) > 0";
    OnBoard FigureType "on_board" () -> Figure []
        "The first figure of this type on the board, or `none`."
        "dragon.on_board.tile";
    TypeFeature FigureType "feature" () -> Feature []
        "The feature the first figure of this type on the board stands on, or `none`."
        "let from = dragon.feature";
    CurrentPlayer Global "current_player" () -> Player []
        "The player whose turn it is."
        "score 3 to current_player reason \"bonus\"";
    NextPlayer Global "next_player" () -> Player []
        "The player after the current one."
        "score 1 to next_player reason \"kindness\"";
    Opponents Global "opponents" () -> Players []
        "The other players, in turn order from the one after the current player."
        "for player v in opponents { score 1 to v reason \"kindness\" }";
    Players Global "players" () -> Players []
        "Every player, in turn order from the first."
        "count(p in players where p.score > 10)";
    PlacedTile Global "placed_tile" () -> Tile []
        "The tile placed this turn; `none` before the placement."
        "placed_tile.has_icon(star)";
    StartTile Global "start_tile" () -> Tile []
        "The start tile."
        "var game reference: tile = start_tile";
    Turn Global "turn" (Direction, Int) -> Direction []
        "The direction turned clockwise by the given degrees (a multiple of 45)."
        "turn(t.icon(arrow), reference.rotation)";
    TileFeatures Tile "features" () -> Features []
        "Every feature with a segment on the tile, each once."
        "count(f in t.features where f.kind == road)";
    Lying Figure "lying" () -> Bool []
        "Whether the figure lies (as a farmer does) rather than stands."
        "x.lying";
    LiesOn FigureType "lies_on" (Kind) -> Bool []
        "Whether this figure type lies (rather than stands) on features of that kind."
        "follower.lies_on(field)";
    StandsOn FigureType "stands_on" (Kind) -> Bool []
        "Whether this figure type stands (rather than lies) on features of that kind."
        "follower.stands_on(road)";
    Weight FigureType "weight" () -> Int []
        "How many figures this type counts as for majorities (its `weight`, 1 unless declared): a follower is a figure of weight above 0."
        "count(x in f.figures where x.type.weight > 0)";
    Cards Player "cards" (Deck) -> Int []
        "How many cards of that deck the player holds."
        "score 2 * p.cards(presents) to p reason \"kept presents\"";
    HandSize Player "hand_size" () -> Int []
        "How many cards the player holds, of all decks."
        "p.hand_size < 5";
    Holds Player "holds" (Card) -> Bool []
        "Whether the player holds a card of that kind."
        "p.holds(shield)";
    SpotFigures Spot "figures" () -> Figures []
        "The figures at the spot (for a `per_player` spot, every player's), in the order they came."
        "count(x in track.figures where x.owner == current_player)";
    FiguresAt Player "figures_at" (Spot) -> Figures []
        "The figures in the player's own part of a `per_player` spot (of any other spot: the player's figures there)."
        "count(x in p.figures_at(area) where x.type == follower)";
    FigureSpot Figure "spot" () -> Spot []
        "The spot the figure is at; `none` for a figure on the board (whose `feature` and `tile` are `none` at a spot)."
        "x.spot == track";
    Left Deck "left" () -> Int []
        "Cards left in the deck's draw pile."
        "presents.left > 0";
    AllFeatures Global "features" () -> Features []
        "Every feature on the board, each once."
        "count(m in features where m.kind == monastery and not m.completed)";
    Ends Feature "ends" () -> Int [Edges]
        "Number of the feature's segments that reach a single edge: a road's dead ends (at junctions, cities, monasteries). A road with none is a closed loop."
        "r.completed and r.ends == 0";
    FeatureTile Feature "tile" () -> Tile []
        "A tile the feature covers (for an area feature, its own tile)."
        "distance(m.tile, t) == 1";
    Distance Global "distance" (Tile, Tile) -> Int []
        "How many squares apart two tiles are, diagonals counting 1 (so the 8 around a tile are at 1)."
        "distance(m.tile, placed_tile) <= 1";
    SquareX Square "x" () -> Int []
        "The square's column."
        "s.x == 0";
    SquareY Square "y" () -> Int []
        "The square's row."
        "s.y < 0";
    TilesLeft Global "tiles_left" () -> Int []
        "How many tiles are left to draw, in every stack (public: players see the stacks' height)."
        "on turn_end when tiles_left > 0 { }";
    SquareAt Global "square" (Int, Int) -> Square []
        "The square at a column and row (the start tile's square is `square(0, 0)`)."
        "steer next placement to square(0, -2)";
    SquareTile Square "tile" () -> Tile []
        "The tile on the square, or `none` when it is empty."
        "square(t.x + 1, t.y).tile == none";
    Side Tile "side" (Direction) -> Kind []
        "The feature kind the tile, as turned, shows on that side (N, E, S or W): the edge-connected kind reaching it, else the kind of its half-edges (a field); `none` if nothing (or for a diagonal)."
        "t.side(N) == road";
    Neighbour Tile "neighbour" (Direction) -> Tile []
        "The placed tile next to this one in that direction (diagonals too), or `none`."
        "t.neighbour(W).side(E) == road";
    Sides Global "sides" () -> Directions []
        "The four sides of a tile, N, E, S, W, as a list of directions."
        "count(d in sides where t.side(d) == road)";
    Angle Global "angle" (Direction, Direction) -> Int []
        "Degrees clockwise from the first direction to the second, 0 to 315."
        "angle(N, E) == 90";
    Toward Global "toward" (Tile, Tile, Direction) -> Bool []
        "Whether the second tile lies in that direction from the first: for N, E, S, W the closed half-plane (the first tile's row or column counts), for NE, SE, SW, NW the closed quadrant."
        "toward(reference, t, NE)";
}

impl Builtin {
    /// Looks a built-in up by receiver and name.
    pub fn find(receiver: Receiver, name: &str) -> Option<&'static BuiltinDef> {
        BUILTINS.iter().find(|d| d.receiver == receiver && d.name == name)
    }

    /// Names of the built-ins of a receiver.
    pub fn names(receiver: Receiver) -> impl Iterator<Item = &'static str> {
        BUILTINS.iter().filter(move |d| d.receiver == receiver).map(|d| d.name)
    }
}

/// A resolved, typed expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Int(i64),
    Bool(bool),
    Nothing,
    Kind(KindId),
    Marker(MarkerId),
    Icon(IconId),
    FigureType(FigureTypeId),
    /// A compass direction (0 = N, clockwise).
    Direction(u8),
    Card(u16),
    Deck(u16),
    /// A scoring reason, by index into the pack's reasons.
    Reason(ReasonId),
    /// A spot off the board, by index into the program's spots.
    Spot(u16),
    /// The feature a feature kind's clause is about.
    Subject,
    /// A local variable: parameter, `let`, loop or `count` variable.
    Local(u16),
    /// A game variable.
    GameVar(VarId),
    /// A player's or feature's variable.
    MemberVar {
        var: VarId,
        of: Box<Expr>,
    },
    /// A built-in; `of` is the receiver (`None` for globals).
    Query {
        builtin: Builtin,
        of: Option<Box<Expr>>,
        args: Vec<Expr>,
    },
    /// A function defined in the rules.
    Call {
        func: FnId,
        args: Vec<Expr>,
    },
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `if cond then then else otherwise`: only the chosen branch is evaluated.
    If {
        cond: Box<Expr>,
        then: Box<Expr>,
        otherwise: Box<Expr>,
    },
    /// `value` bound to `slot` while `body` is evaluated (a value function's
    /// `let`, compiled into its expression).
    Let {
        slot: u16,
        value: Box<Expr>,
        body: Box<Expr>,
    },
    /// Number of members for which `filter` holds, each bound to `slot`:
    /// of the domain (narrowed to `list` when given), or of `list`.
    Count {
        slot: u16,
        domain: Option<Domain>,
        list: Option<Box<Expr>>,
        filter: Option<Box<Expr>>,
        /// For a count over a whole board domain (features, figures, tiles,
        /// squares): the local slots it reads from outside, by which its
        /// result is remembered while the game state cannot change (see
        /// `engine::eval::Memo`); `None` for any other count.
        memo: Option<Box<[u16]>>,
        /// `x in features` read as the features domain: each member is
        /// charged once, as the listed form was (a domain twice).
        listed: bool,
    },
}

impl Expr {
    /// Whether `self` is a constant (a number, a truth value, `none`, or
    /// a name of the packs: a kind, marker, icon, figure type, direction,
    /// card, deck, reason or spot).
    pub fn is_constant(&self) -> bool {
        matches!(
            self,
            Expr::Int(_)
                | Expr::Bool(_)
                | Expr::Nothing
                | Expr::Kind(_)
                | Expr::Marker(_)
                | Expr::Icon(_)
                | Expr::FigureType(_)
                | Expr::Direction(_)
                | Expr::Card(_)
                | Expr::Deck(_)
                | Expr::Reason(_)
                | Expr::Spot(_)
        )
    }

    /// The local slots `self` reads that it does not bind itself, in
    /// ascending order; `None` when it reads the subject of a feature kind's
    /// clause (which no slot names).
    pub fn free_slots(&self) -> Option<Vec<u16>> {
        fn walk(e: &Expr, bound: &mut Vec<u16>, free: &mut Vec<u16>) -> bool {
            fn all<'e>(es: impl IntoIterator<Item = &'e Expr>, bound: &mut Vec<u16>, free: &mut Vec<u16>) -> bool {
                es.into_iter().all(|e| walk(e, bound, free))
            }
            match e {
                Expr::Subject => false,
                Expr::Local(s) => {
                    if !bound.contains(s) && !free.contains(s) {
                        free.push(*s);
                    }
                    true
                }
                Expr::MemberVar { of, .. } => walk(of, bound, free),
                Expr::Query { of, args, .. } => all(of.as_deref().into_iter().chain(args.iter()), bound, free),
                Expr::Call { args, .. } => all(args, bound, free),
                Expr::Unary(_, e) => walk(e, bound, free),
                Expr::Binary(_, a, b) => walk(a, bound, free) && walk(b, bound, free),
                Expr::If { cond, then, otherwise } => {
                    walk(cond, bound, free) && walk(then, bound, free) && walk(otherwise, bound, free)
                }
                Expr::Let { slot, value, body } => {
                    if !walk(value, bound, free) {
                        return false;
                    }
                    bound.push(*slot);
                    let ok = walk(body, bound, free);
                    bound.pop();
                    ok
                }
                Expr::Count { slot, list, filter, .. } => {
                    if !list.as_deref().is_none_or(|l| walk(l, bound, free)) {
                        return false;
                    }
                    bound.push(*slot);
                    let ok = filter.as_deref().is_none_or(|f| walk(f, bound, free));
                    bound.pop();
                    ok
                }
                Expr::Int(_)
                | Expr::Bool(_)
                | Expr::Nothing
                | Expr::Kind(_)
                | Expr::Marker(_)
                | Expr::Icon(_)
                | Expr::FigureType(_)
                | Expr::Direction(_)
                | Expr::Card(_)
                | Expr::Deck(_)
                | Expr::Reason(_)
                | Expr::Spot(_)
                | Expr::GameVar(_) => true,
            }
        }
        let mut free = Vec::new();
        walk(self, &mut Vec::new(), &mut free).then(|| {
            free.sort_unstable();
            free
        })
    }
}
