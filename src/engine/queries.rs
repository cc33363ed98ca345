//! The built-in queries of `ir::expr::BUILTINS` (`tiles of`, `owners of`,
//! `supply of` ...): what an expression may ask about the game state.

use super::board::PlacedTile;
use super::eval::{Env, Evaluator, CANDIDATE};
use super::ids::PlacedId;
use super::value::{EvalError, Value};
use crate::ir::expr::{Builtin, Expr};
use crate::ir::program::Domain;
use thin_vec::ThinVec;

impl Evaluator<'_> {
    /// The members of list `l` that are of `domain`'s kind or figure type,
    /// added to `items` as [`Evaluator::narrowed`] lists its value (uncharged):
    /// a list a built-in answers on the stack ([`small_list`]: a feature's
    /// owners, the players ...) is listed from there, with no list value made.
    pub(super) fn list_into(
        &self,
        domain: Domain,
        l: &Expr,
        env: &mut Env,
        items: &mut Vec<Value>,
    ) -> Result<(), EvalError> {
        if let Expr::Query { builtin, of, args } = l {
            if let (Some((small, member)), true) = (small_list(*builtin), args.is_empty()) {
                // Its receiver evaluated as `eval` would (`none` when it has none).
                let of = match of {
                    Some(e) => self.eval(e, env)?,
                    None => Value::None,
                };
                let mut ids = [0; SMALL_LIST];
                if let Some(n) = small(self, &of, &mut ids) {
                    items.extend(
                        ids[..n]
                            .iter()
                            .map(|m| member(*m))
                            .filter(|v| self.in_domain(domain, v)),
                    );
                    return Ok(());
                }
                let list = self.query(*builtin, of, &[], env.depth)?;
                self.narrow_into(domain, &list, items);
                return Ok(());
            }
        }
        let list = self.eval(l, env)?;
        self.narrow_into(domain, &list, items);
        Ok(())
    }

    /// Answers a built-in query about `of` with `args`.
    pub(super) fn query(&self, builtin: Builtin, of: Value, args: &[Value], depth: u32) -> Result<Value, EvalError> {
        let pack = &self.rules.pack;
        let feature = |v: &Value| feature(self, v);
        let tile = |v: &Value| placed(self, v);
        // A figure off the board: at a spot (not gone from it).
        let spot_figure = |v: &Value| match v {
            Value::Figure(id) if self.state.figure_or_gone(*id).is_none() => self.state.spot_figure(*id),
            _ => None,
        };
        let int = |n: usize| Value::Int(n as i64);
        let arg0 = args.first().unwrap_or(&Value::None);
        Ok(match builtin {
            Builtin::Tiles => tiles(self, &of),
            Builtin::OpenEdges => open_edges(self, &of),
            Builtin::Neighbours => neighbours(self, &of),
            Builtin::Completed => match feature(&of) {
                Some(f) => Value::Bool(self.completed_at(f, depth)?),
                None => Value::Bool(false),
            },
            Builtin::Scored => scored(self, &of),
            Builtin::Touching => touching(self, &of),
            Builtin::Kind => kind(self, &of),
            Builtin::Markers => markers(self, &of, arg0),
            Builtin::Figures => figures(self, &of),
            Builtin::Followers => followers(self, &of, arg0),
            Builtin::Has => has(self, &of, arg0),
            Builtin::Owners => owners(self, &of),
            Builtin::ControlledBy => controlled_by(self, &of, arg0),
            Builtin::CompletedScore | Builtin::FinalScore => match feature(&of) {
                Some(f) => {
                    let kind = &pack.kinds[self.state.features().kind(f) as usize];
                    let formula = if builtin == Builtin::CompletedScore {
                        &kind.score_completed
                    } else {
                        &kind.score_final
                    };
                    match formula {
                        Some(e) => Value::Int(self.formula(e, f, builtin == Builtin::CompletedScore)?),
                        None => Value::Int(0),
                    }
                }
                None => Value::Int(0),
            },
            Builtin::Owner => owner(self, &of),
            Builtin::FigureType => figure_type(self, &of),
            Builtin::FigureSpot => spot_figure(&of).map_or(Value::None, |m| Value::Spot(m.spot)),
            Builtin::SpotFigures => match of {
                Value::Spot(s) => Value::Figures(
                    self.state
                        .spot_figures()
                        .iter()
                        .filter(|m| m.spot == s)
                        .map(|m| m.id)
                        .collect(),
                ),
                _ => Value::Figures(ThinVec::new()),
            },
            Builtin::FiguresAt => match (player(&of), args.first()) {
                (Some(p), Some(Value::Spot(s))) => Value::Figures(
                    self.state
                        .spot_figures()
                        .iter()
                        .filter(|m| m.spot == *s && m.area.or(m.owner).map(|a| a.index()) == Some(p))
                        .map(|m| m.id)
                        .collect(),
                ),
                _ => Value::Figures(ThinVec::new()),
            },
            Builtin::FigureFeature => figure_feature(self, &of),
            Builtin::FigureTile => figure_tile(self, &of),
            Builtin::X => tile(&of).map_or(Value::Int(0), |t| Value::Int(i64::from(t.pos.0))),
            Builtin::Y => tile(&of).map_or(Value::Int(0), |t| Value::Int(i64::from(t.pos.1))),
            Builtin::Rotation => tile(&of).map_or(Value::Int(0), |t| Value::Int(i64::from(t.rot.degrees()))),
            Builtin::HasIcon => has_icon(self, &of, arg0),
            Builtin::IconValue => match (tile(&of), args.first()) {
                (Some(t), Some(Value::Icon(i))) => pack.tiles[t.tile as usize]
                    .icons
                    .iter()
                    .find(|x| x.icon == *i)
                    .and_then(|x| x.value)
                    .map_or(Value::None, Value::Direction),
                _ => Value::None,
            },
            Builtin::TileFeature => match (&of, args.first()) {
                // A candidate tile is not on the board: it has no features yet.
                (Value::Tile(CANDIDATE), _) => Value::None,
                (Value::Tile(t), Some(Value::Kind(k))) => {
                    let placed = &self.state.board().placed[*t as usize];
                    pack.tiles[placed.tile as usize]
                        .segments
                        .iter()
                        .position(|s| s.kind == *k)
                        .map_or(Value::None, |s| {
                            Value::Feature(self.state.feature_of(PlacedId(*t), s as u8))
                        })
                }
                _ => Value::None,
            },
            Builtin::Score => score(self, &of),
            Builtin::Supply => supply(self, &of, arg0),
            Builtin::OnBoard => match of {
                Value::FigureType(t) => self
                    .state
                    .figures()
                    .iter()
                    .find(|m| m.figure_type == t)
                    .map_or(Value::None, |m| Value::Figure(m.id)),
                _ => Value::None,
            },
            Builtin::TypeFeature => match of {
                Value::FigureType(t) => self
                    .state
                    .figures()
                    .iter()
                    .find(|m| m.figure_type == t)
                    .map_or(Value::None, |m| Value::Feature(self.state.feature_of(m.placed, m.seg))),
                _ => Value::None,
            },
            Builtin::TileFeatures => tile_features(self, &of),
            Builtin::Lying => lying(self, &of),
            Builtin::LiesOn => lies_on(self, &of, arg0),
            Builtin::StandsOn => stands_on(self, &of, arg0),
            Builtin::Weight => weight(self, &of),
            Builtin::Cards => match (player(&of), args.first()) {
                (Some(p), Some(Value::Deck(d))) => int(self
                    .state
                    .hand(p)
                    .iter()
                    .filter(|c| pack.program.deck_of(**c) == *d)
                    .count()),
                _ => Value::Int(0),
            },
            Builtin::HandSize => player(&of).map_or(Value::Int(0), |p| int(self.state.hand(p).len())),
            Builtin::Holds => holds(self, &of, arg0),
            Builtin::Left => left(self, &of),
            Builtin::AllFeatures => {
                self.charge(self.state.features().len())?;
                Value::Features(self.state.features().roots(None).collect())
            }
            Builtin::Ends => feature(&of).map_or(Value::Int(0), |f| {
                let ends = self
                    .state
                    .features()
                    .members(f)
                    .filter(|(placed, seg)| {
                        let p = &self.state.board().placed[placed.index()];
                        self.rules.rotated[p.tile as usize][p.rot.index()].seg_edges[*seg as usize].len() == 1
                    })
                    .count();
                int(ends)
            }),
            Builtin::FeatureTile => feature_tile(self, &of),
            Builtin::Distance => match (
                tile(args.first().unwrap_or(&Value::None)),
                tile(args.get(1).unwrap_or(&Value::None)),
            ) {
                (Some(a), Some(b)) => {
                    let dx = (i64::from(a.pos.0) - i64::from(b.pos.0)).abs();
                    let dy = (i64::from(a.pos.1) - i64::from(b.pos.1)).abs();
                    Value::Int(dx.max(dy))
                }
                _ => Value::Int(0),
            },
            Builtin::SquareX | Builtin::SquareY => match of {
                Value::Square(x, y) => Value::Int(i64::from(if builtin == Builtin::SquareX { x } else { y })),
                _ => Value::Int(0),
            },
            Builtin::TilesLeft => int(self.state.stack().len()),
            Builtin::SquareAt => match (args.first(), args.get(1)) {
                (Some(Value::Int(x)), Some(Value::Int(y))) => match (i32::try_from(*x), i32::try_from(*y)) {
                    (Ok(x), Ok(y)) => Value::Square(x, y),
                    _ => Value::None,
                },
                _ => Value::None,
            },
            Builtin::SquareTile => match of {
                Value::Square(x, y) => self.state.board().at((x, y)).map_or(Value::None, |p| Value::Tile(p.0)),
                _ => Value::None,
            },
            Builtin::CurrentPlayer => current_player(self, &of),
            Builtin::NextPlayer => Value::Player(((self.state.current() + 1) % self.state.players()) as u8),
            Builtin::Opponents => Value::Players(
                (1..self.state.players())
                    .map(|i| ((self.state.current() + i) % self.state.players()) as u8)
                    .collect(),
            ),
            Builtin::Players => Value::Players((0..self.state.players() as u8).collect()),
            Builtin::PlacedTile => placed_tile(self, &of),
            Builtin::StartTile => Value::Tile(0),
            Builtin::Turn => match (args.first(), args.get(1)) {
                (Some(Value::Direction(d)), Some(Value::Int(deg))) => {
                    Value::Direction(((i64::from(*d) + deg.div_euclid(45)).rem_euclid(8)) as u8)
                }
                _ => Value::None,
            },
            Builtin::Side => match (tile(&of), args.first()) {
                (Some(t), Some(Value::Direction(d))) if d % 2 == 0 => {
                    let edge = usize::from(d / 2);
                    let rotated = &self.rules.rotated[t.tile as usize][t.rot.index()];
                    let seg = match rotated.edge_seg[edge] {
                        u8::MAX => rotated.half_seg[2 * edge],
                        seg => seg,
                    };
                    pack.tiles[t.tile as usize]
                        .segments
                        .get(usize::from(seg))
                        .map_or(Value::None, |s| Value::Kind(s.kind))
                }
                _ => Value::None,
            },
            Builtin::Neighbour => match (tile(&of), args.first()) {
                (Some(t), Some(Value::Direction(d))) => {
                    const STEPS: [(i32, i32); 8] =
                        [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)];
                    let (dx, dy) = STEPS[usize::from(d % 8)];
                    let pos = (t.pos.0.saturating_add(dx), t.pos.1.saturating_add(dy));
                    self.state.board().at(pos).map_or(Value::None, |p| Value::Tile(p.0))
                }
                _ => Value::None,
            },
            Builtin::Sides => Value::Directions(thin_vec::thin_vec![0, 2, 4, 6]),
            Builtin::Angle => match (args.first(), args.get(1)) {
                (Some(Value::Direction(a)), Some(Value::Direction(b))) => {
                    Value::Int(i64::from((8 + b % 8 - a % 8) % 8) * 45)
                }
                _ => Value::Int(0),
            },
            Builtin::Toward => match (
                tile(args.first().unwrap_or(&Value::None)),
                tile(args.get(1).unwrap_or(&Value::None)),
                args.get(2),
            ) {
                (Some(a), Some(b), Some(Value::Direction(d))) => Value::Bool(toward(a.pos, b.pos, *d)),
                _ => Value::Bool(false),
            },
        })
    }
}

/// A built-in query answered from its receiver alone, that cannot fail.
pub(super) type SimpleQuery = fn(&Evaluator, &Value) -> Value;

/// The function answering `builtin` when it is a [`SimpleQuery`]: compiled
/// expressions call it directly, without [`Evaluator::query`]'s dispatch
/// (which calls the same functions).
pub(super) fn simple_query(builtin: Builtin) -> Option<SimpleQuery> {
    Some(match builtin {
        Builtin::Tiles => tiles,
        Builtin::OpenEdges => open_edges,
        Builtin::Neighbours => neighbours,
        Builtin::Scored => scored,
        Builtin::Kind => kind,
        Builtin::Owner => owner,
        Builtin::FigureFeature => figure_feature,
        Builtin::FeatureTile => feature_tile,
        Builtin::Left => left,
        Builtin::CurrentPlayer => current_player,
        Builtin::PlacedTile => placed_tile,
        Builtin::Score => score,
        Builtin::TileFeatures => tile_features,
        Builtin::Figures => figures,
        Builtin::Owners => owners,
        Builtin::Touching => touching,
        Builtin::FigureType => figure_type,
        Builtin::FigureTile => figure_tile,
        Builtin::Lying => lying,
        Builtin::Weight => weight,
        _ => return None,
    })
}

/// A built-in of one argument answered from its receiver and argument
/// alone, which cannot fail: compiled calls call it as a plain function.
pub(super) type ArgQuery = fn(&Evaluator, &Value, &Value) -> Value;

/// The built-ins [`ArgQuery`] answers.
pub(super) fn arg_query(builtin: Builtin) -> Option<ArgQuery> {
    Some(match builtin {
        Builtin::Markers => markers,
        Builtin::Followers => followers,
        Builtin::Has => has,
        Builtin::ControlledBy => controlled_by,
        Builtin::HasIcon => has_icon,
        Builtin::Supply => supply,
        Builtin::Holds => holds,
        Builtin::LiesOn => lies_on,
        Builtin::StandsOn => stands_on,
        _ => return None,
    })
}

/// A figure's type, on the board, gone from it or at a spot (`x.type`).
fn figure_type(ev: &Evaluator, of: &Value) -> Value {
    let Value::Figure(id) = of else { return Value::None };
    ev.state
        .figure_or_gone(*id)
        .map(|m| m.figure_type)
        .or_else(|| ev.state.spot_figure(*id).map(|m| m.figure_type))
        .map_or(Value::None, Value::FigureType)
}

/// The tile a figure on the board stands on (`x.tile`); none off it.
fn figure_tile(ev: &Evaluator, of: &Value) -> Value {
    match of {
        Value::Figure(id) => ev.state.figure(*id).map_or(Value::None, |m| Value::Tile(m.placed.0)),
        _ => Value::None,
    }
}

/// Whether a figure lies on its segment (`x.lying`): its type's posture
/// on the segment's kind (as it was where it stood, for one gone).
fn lying(ev: &Evaluator, of: &Value) -> Value {
    let Value::Figure(id) = of else {
        return Value::Bool(false);
    };
    let Some(m) = ev.state.figure_or_gone(*id) else {
        return Value::Bool(false);
    };
    let pack = &ev.rules.pack;
    let kind = pack.tiles[ev.state.board().placed[m.placed.index()].tile as usize].segments[m.seg as usize].kind;
    Value::Bool(pack.figures[m.figure_type as usize].posture_on(kind) == Some(crate::ir::Posture::Lying))
}

/// Whether a figure type takes `posture` on a feature of kind `k`.
fn takes_posture(ev: &Evaluator, of: &Value, k: &Value, posture: crate::ir::Posture) -> Value {
    match (of, k) {
        (Value::FigureType(f), Value::Kind(k)) => {
            Value::Bool(ev.rules.pack.figures[*f as usize].posture_on(*k) == Some(posture))
        }
        _ => Value::Bool(false),
    }
}

/// A figure type's weight (`t.weight`); 0 of anything else.
fn weight(ev: &Evaluator, of: &Value) -> Value {
    match of {
        Value::FigureType(t) => Value::Int(
            ev.rules
                .pack
                .figures
                .get(*t as usize)
                .map_or(0, |f| i64::from(f.weight)),
        ),
        _ => Value::Int(0),
    }
}

/// `t.lies_on(K)`.
fn lies_on(ev: &Evaluator, of: &Value, k: &Value) -> Value {
    takes_posture(ev, of, k, crate::ir::Posture::Lying)
}

/// `t.stands_on(K)`.
fn stands_on(ev: &Evaluator, of: &Value, k: &Value) -> Value {
    takes_posture(ev, of, k, crate::ir::Posture::Standing)
}

/// The player a value names.
fn player(v: &Value) -> Option<usize> {
    match v {
        Value::Player(p) => Some(*p as usize),
        _ => None,
    }
}

fn markers(ev: &Evaluator, of: &Value, marker: &Value) -> Value {
    match (feature(ev, of), marker) {
        (Some(f), Value::Marker(m)) => {
            let n: usize = ev
                .state
                .features()
                .members(f)
                .map(|(placed, seg)| {
                    let tile = &ev.rules.pack.tiles[ev.state.board().placed[placed.index()].tile as usize];
                    tile.segments[seg as usize].markers.iter().filter(|x| *x == m).count()
                })
                .sum();
            Value::Int(n as i64)
        }
        _ => Value::Int(0),
    }
}

fn followers(ev: &Evaluator, of: &Value, p: &Value) -> Value {
    match (feature(ev, of), player(p)) {
        (Some(f), Some(p)) if p < ev.state.players() => Value::Int(i64::from(ev.state.features().followers(f, p))),
        _ => Value::Int(0),
    }
}

fn has(ev: &Evaluator, of: &Value, figure_type: &Value) -> Value {
    match (feature(ev, of), figure_type) {
        (Some(f), Value::FigureType(t)) => Value::Bool(ev.state.figures_on(f).any(|m| m.figure_type == *t)),
        _ => Value::Bool(false),
    }
}

fn controlled_by(ev: &Evaluator, of: &Value, p: &Value) -> Value {
    match (feature(ev, of), player(p)) {
        (Some(f), Some(p)) => Value::Bool(ev.state.majority_mask(f) & (1 << p) != 0),
        _ => Value::Bool(false),
    }
}

fn has_icon(ev: &Evaluator, of: &Value, icon: &Value) -> Value {
    match (placed(ev, of), icon) {
        (Some(t), Value::Icon(i)) => Value::Bool(ev.rules.pack.tiles[t.tile as usize].has_icon(*i)),
        _ => Value::Bool(false),
    }
}

fn supply(ev: &Evaluator, of: &Value, figure_type: &Value) -> Value {
    match (player(of), figure_type) {
        (Some(p), Value::FigureType(f)) => Value::Int(i64::from(ev.state.supply(p, *f).unwrap_or(0))),
        _ => Value::Int(0),
    }
}

fn holds(ev: &Evaluator, of: &Value, card: &Value) -> Value {
    match (player(of), card) {
        (Some(p), Value::Card(c)) => Value::Bool(ev.state.hand(p).contains(c)),
        _ => Value::Bool(false),
    }
}

/// The placed tile a value names: the candidate of a `forbid placement`
/// rule too.
fn placed<'e>(ev: &'e Evaluator, v: &Value) -> Option<&'e PlacedTile> {
    match v {
        Value::Tile(CANDIDATE) => ev.candidate.as_ref(),
        Value::Tile(t) => ev.state.board().placed.get(*t as usize),
        _ => None,
    }
}

/// The feature a value names, by its root.
fn feature(ev: &Evaluator, v: &Value) -> Option<u32> {
    match v {
        Value::Feature(f) => Some(ev.state.features().find(*f)),
        _ => None,
    }
}

fn tiles(ev: &Evaluator, of: &Value) -> Value {
    feature(ev, of).map_or(Value::Int(0), |f| Value::Int(ev.state.features().tile_count(f) as i64))
}

fn open_edges(ev: &Evaluator, of: &Value) -> Value {
    feature(ev, of).map_or(Value::Int(0), |f| Value::Int(i64::from(ev.state.features().open(f))))
}

fn neighbours(ev: &Evaluator, of: &Value) -> Value {
    feature(ev, of).map_or(Value::Int(0), |f| {
        let (placed, _) = ev.state.features().members(f).next().unwrap_or((PlacedId(0), 0));
        Value::Int(ev.state.board().neighbours(ev.state.board().placed[placed.index()].pos) as i64)
    })
}

/// The features of a placed tile, by their roots, each once, in the order
/// of the tile's segments.
fn tile_features(ev: &Evaluator, of: &Value) -> Value {
    let mut ids = [0; SMALL_LIST];
    let n = tile_roots(ev, of, &mut ids);
    Value::Features(ThinVec::from(&ids[..n]))
}

/// Most members of a list answered on the stack ([`small_list`]): a tile
/// has at most 64 segments (the checker's bound) and a game at most 32
/// players (majorities are 32-bit masks); a feature may hold more figures
/// or touch more features, and those are listed on the heap.
pub(super) const SMALL_LIST: usize = 64;

/// A list built-in answered into a buffer on the stack: the members' ids,
/// and how many there are; `None` when there are more than it holds.
pub(super) type SmallList = fn(&Evaluator, &Value, &mut [u32; SMALL_LIST]) -> Option<usize>;

/// A list member's value, by its id.
pub(super) type Member = fn(u32) -> Value;

/// The built-ins whose lists [`SmallList`] answers, and the value of a
/// member by its id: a count over them lists nothing on the heap (unless
/// a feature holds more than [`SMALL_LIST`] figures or touches more than
/// [`SMALL_LIST`] features).
pub(super) fn small_list(builtin: Builtin) -> Option<(SmallList, Member)> {
    match builtin {
        Builtin::TileFeatures => Some((|ev, of, out| Some(tile_roots(ev, of, out)), Value::Feature)),
        Builtin::Owners => Some((|ev, of, out| Some(owner_ids(ev, of, out)), |p| Value::Player(p as u8))),
        Builtin::Figures => Some((figure_ids, Value::Figure)),
        Builtin::Touching => Some((touching_ids, Value::Feature)),
        Builtin::Players => Some((player_ids, |p| Value::Player(p as u8))),
        Builtin::Opponents => Some((opponent_ids, |p| Value::Player(p as u8))),
        _ => None,
    }
}

/// How many features [`tile_roots`] finds on a tile: read off the memo
/// when it keeps them (it keeps those of placed tiles only), else found
/// (and kept there).
pub(super) fn tile_root_count(ev: &Evaluator, t: u16) -> usize {
    if let Some(n) = ev.memo.and_then(|m| m.tile_root_count(t)) {
        return n;
    }
    let mut ids = [0; SMALL_LIST];
    tile_roots(ev, &Value::Tile(t), &mut ids)
}

/// [`tile_features`] into a buffer.
pub(super) fn tile_roots(ev: &Evaluator, of: &Value, out: &mut [u32; SMALL_LIST]) -> usize {
    let Value::Tile(t) = *of else { return 0 };
    let Some(placed) = ev.state.board().placed.get(t as usize).filter(|_| t != CANDIDATE) else {
        return 0;
    };
    // Every look sharing a memo sees the same state: the tile's features
    // are found once.
    if let Some(n) = ev.memo.and_then(|m| m.tile_roots(t, out)) {
        return n;
    }
    let segments = ev.rules.pack.tiles[placed.tile as usize].segments.len();
    let mut n = 0;
    for s in 0..segments.min(SMALL_LIST) {
        let root = ev.state.feature_of(PlacedId(t), s as u8);
        if !out[..n].contains(&root) {
            out[n] = root;
            n += 1;
        }
    }
    if let Some(m) = ev.memo {
        m.keep_tile_roots(t, &out[..n]);
    }
    n
}

/// [`owners`] into a buffer.
fn owner_ids(ev: &Evaluator, of: &Value, out: &mut [u32; SMALL_LIST]) -> usize {
    let mask = feature(ev, of).map_or(0, |f| ev.state.majority_mask(f));
    let mut n = 0;
    for p in (0..ev.state.players().min(32) as u32).filter(|p| mask & (1 << p) != 0) {
        out[n] = p;
        n += 1;
    }
    n
}

/// [`figures`] into a buffer, when they fit.
fn figure_ids(ev: &Evaluator, of: &Value, out: &mut [u32; SMALL_LIST]) -> Option<usize> {
    let Some(f) = feature(ev, of) else { return Some(0) };
    if ev.state.features().figure_count(f) as usize > SMALL_LIST {
        return None;
    }
    let mut n = 0;
    for m in ev.state.figures_on(f) {
        out[n] = m.id;
        n += 1;
    }
    Some(n)
}

/// The figures on a feature, in the order they came to the board.
fn figures(ev: &Evaluator, of: &Value) -> Value {
    Value::Figures(feature(ev, of).map_or_else(ThinVec::new, |f| ev.state.figures_on(f).map(|m| m.id).collect()))
}

/// The players holding a feature's majority.
fn owners(ev: &Evaluator, of: &Value) -> Value {
    let mut ids = [0; SMALL_LIST];
    let n = owner_ids(ev, of, &mut ids);
    Value::Players(ids[..n].iter().map(|p| *p as u8).collect())
}

/// The players, in seat order, into a buffer (as `players` lists them).
fn player_ids(ev: &Evaluator, _of: &Value, out: &mut [u32; SMALL_LIST]) -> Option<usize> {
    let n = ev.state.players();
    for (p, id) in out.get_mut(..n)?.iter_mut().enumerate() {
        *id = p as u32;
    }
    Some(n)
}

/// The current player's opponents, from the next player on, into a buffer
/// (as `opponents` lists them).
fn opponent_ids(ev: &Evaluator, _of: &Value, out: &mut [u32; SMALL_LIST]) -> Option<usize> {
    let (n, current) = (ev.state.players(), ev.state.current());
    let opponents = out.get_mut(..n.saturating_sub(1))?;
    for (i, id) in opponents.iter_mut().enumerate() {
        *id = ((current + i + 1) % n) as u32;
    }
    Some(opponents.len())
}

/// [`touching`] into a buffer; `None` when it holds more than the buffer.
fn touching_ids(ev: &Evaluator, of: &Value, out: &mut [u32; SMALL_LIST]) -> Option<usize> {
    let Some(f) = feature(ev, of) else { return Some(0) };
    ev.state.touching_into(ev.rules, f, out)
}

/// The features a feature's segments name as touching, each once.
fn touching(ev: &Evaluator, of: &Value) -> Value {
    Value::Features(feature(ev, of).map_or_else(ThinVec::new, |f| ev.state.touching(ev.rules, f).into()))
}

fn scored(ev: &Evaluator, of: &Value) -> Value {
    Value::Bool(feature(ev, of).is_some_and(|f| ev.state.features().is_done(f)))
}

fn kind(ev: &Evaluator, of: &Value) -> Value {
    feature(ev, of).map_or(Value::None, |f| Value::Kind(ev.state.features().kind(f)))
}

fn owner(ev: &Evaluator, of: &Value) -> Value {
    figure_owner(ev, of).map_or(Value::None, Value::Player)
}

/// The player who owns the figure `of` is, on the board, gone from it or
/// off it (`x.owner`); none for a neutral figure or a value that is no figure.
pub(super) fn figure_owner(ev: &Evaluator, of: &Value) -> Option<u8> {
    let Value::Figure(id) = of else { return None };
    match ev.state.figure_or_gone(*id) {
        Some(m) => m.owner,
        None => ev.state.spot_figure(*id).and_then(|m| m.owner),
    }
    .map(|p| p.0)
}

fn figure_feature(ev: &Evaluator, of: &Value) -> Value {
    match of {
        Value::Figure(id) => ev
            .state
            .figure(*id)
            .map_or(Value::None, |m| Value::Feature(ev.state.feature_of(m.placed, m.seg))),
        _ => Value::None,
    }
}

fn feature_tile(ev: &Evaluator, of: &Value) -> Value {
    feature(ev, of)
        .and_then(|f| ev.state.features().members(f).next())
        .map_or(Value::None, |(t, _)| Value::Tile(t.0))
}

fn left(ev: &Evaluator, of: &Value) -> Value {
    match of {
        Value::Deck(d) => Value::Int(ev.state.pile(*d as usize).len() as i64),
        _ => Value::Int(0),
    }
}

fn current_player(ev: &Evaluator, _: &Value) -> Value {
    Value::Player(ev.state.current() as u8)
}

fn placed_tile(ev: &Evaluator, _: &Value) -> Value {
    ev.state.placed_tile().map_or(Value::None, |p| Value::Tile(p.0))
}

fn score(ev: &Evaluator, of: &Value) -> Value {
    match of {
        Value::Player(p) => Value::Int(ev.state.scores()[*p as usize]),
        _ => Value::Int(0),
    }
}

/// Whether `b` lies in direction `d` (0 = N, clockwise in eighths) from `a`:
/// the closed half-plane for N, E, S, W; the closed quadrant for the diagonals.
/// y grows southwards.
fn toward(a: (i32, i32), b: (i32, i32), d: u8) -> bool {
    let (dx, dy) = (i64::from(b.0) - i64::from(a.0), i64::from(b.1) - i64::from(a.1));
    let north = dy <= 0;
    let south = dy >= 0;
    let east = dx >= 0;
    let west = dx <= 0;
    match d % 8 {
        0 => north,
        1 => north && east,
        2 => east,
        3 => south && east,
        4 => south,
        5 => south && west,
        6 => west,
        _ => north && west,
    }
}

#[cfg(test)]
mod tests {
    use super::toward;

    /// The evaluator's list of built-ins answered from their receiver alone
    /// (which scans of features trust not to fail) is this file's.
    #[test]
    fn built_ins_answered_alone_are_the_simple_queries() {
        use crate::ir::expr::BUILTINS;
        for def in BUILTINS {
            assert_eq!(
                super::super::shapes::answered_alone(def.builtin),
                super::simple_query(def.builtin).is_some(),
                "{}",
                def.name
            );
        }
    }

    /// The built-ins the gates of handlers trust to answer from their
    /// receiver and one argument without failing are this file's.
    #[test]
    fn built_ins_answered_with_an_argument_are_the_arg_queries() {
        use crate::ir::expr::BUILTINS;
        for def in BUILTINS {
            assert_eq!(
                super::super::shapes::answered_with_arg(def.builtin),
                super::arg_query(def.builtin).is_some(),
                "{}",
                def.name
            );
        }
    }

    #[test]
    fn directions_include_the_rose_row_and_column() {
        assert!(toward((0, 0), (3, -2), 1)); // NE
        assert!(toward((0, 0), (0, -2), 1)); // the column belongs to NE and NW
        assert!(toward((0, 0), (0, -2), 7));
        assert!(toward((0, 0), (4, 0), 3)); // the row belongs to NE and SE
        assert!(!toward((0, 0), (-1, -1), 1));
        assert!(toward((0, 0), (5, 0), 0)); // N is the half-plane y <= 0
        assert!(!toward((0, 0), (5, 1), 0));
    }
}
