//! Gates: what a handler's `when` needs of the type of one tile or the
//! kind of one feature, worked out once per tile type and per kind when
//! the rules are prepared (`Rules::new`), so that an event passes over the
//! handlers that cannot hold for its tile or feature without judging their
//! guards.
//!
//! `on tile_placed(t) when t.has_icon(rose) and ...` cannot hold for a tile
//! type without the icon; `... when count(f in t.features where f.kind ==
//! road) > 0` cannot hold for a tile type without a road segment (a tile's
//! features are its segments' features, each of its segment's kind); and
//! `on feature_completed(c) when c.kind == city and ...` cannot hold for a
//! road. Such a guard is judged only where its gates are open.
//!
//! A gate is closed for a tile type or a kind only where the guard is
//! known to evaluate to `false` without failing ([`known`]), so passing
//! over it changes nothing but the evaluation work charged to the budgets:
//! a guard passed over charges none. (So a count that could fail only by
//! running out of that budget is taken as one that cannot: [`infallible`].)
//!
//! Two gates read the board instead. `on tile_placed(t) when count(m in
//! features where m.kind == monastery and distance(m.tile, t) == 1 and
//! ...) > 0` cannot hold where no tile in the 3×3 around `t` (`t`
//! included) has a monastery (one with a figure on it, when the filter
//! asks for one), so it is judged only where one has (a near gate);
//! `... when count(f in t.features where count(p in f.owners) > 0 and
//! ...) > 0` cannot hold where no feature of `t` has a figure on it (an
//! occupied gate, which a filter that first asks for roads or cities
//! narrows to those; both by [`board_gate`]). The board changes from one
//! event to the next, so such a gate is looked at only when the guard is
//! judged, as one on the placed tile is, or where the event fires when its
//! task is the next the machine runs (`Game::open_handlers`).
//!
//! Where a guard may hold, a tile's type may still decide some of its
//! conjuncts true: `t.has_icon(rose) and n > 0` is `n > 0` on a tile with
//! the icon. The guard is then judged without them, a guard left for each
//! set of conjuncts some types decide ([`residual`]).

use super::shapes::{
    and_chain, answered_alone, answered_with_arg, existence_test, kinds_test, local_query, member_test, near_test,
    occupied_test,
};
use crate::ir::expr::{Builtin, Expr};
use crate::ir::program::{FnBody, Program};
use crate::ir::shared::Domain;
use crate::ir::shared::FnId;
use crate::ir::{BinOp, KindId, RulePack, TileType, UnOp};
use std::cell::Cell;

/// The tile a gate reads: a handler's parameter, or `placed_tile`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum GateTile {
    Local(u16),
    Placed,
}

/// Where a guard may hold: by tile type, by feature kind, or by what is on
/// the board around a tile or on its features.
#[derive(Debug)]
pub(super) enum Gate {
    /// Open for the tile types marked `true` (by [`crate::ir::TileId`]).
    Tile { tile: GateTile, open: Box<[bool]> },
    /// Open for features of the kinds marked `true`, the feature being the
    /// handler's parameter in `slot`.
    Kind { slot: u16, open: Box<[bool]> },
    /// Open where some placed tile within `d` squares of `tile` has a
    /// segment of `kind` (of any kind when `None`), one whose feature has a
    /// figure on it when `occupied`.
    Near {
        tile: GateTile,
        kind: Option<KindId>,
        d: i64,
        occupied: bool,
    },
    /// Open where some feature of `tile` (of one of `kinds`, when given)
    /// has a figure on it.
    Occupied {
        tile: GateTile,
        kinds: Option<Box<[KindId]>>,
    },
}

impl Gate {
    /// The tile types it is open for, when it is a gate on the type of
    /// `tile`.
    pub(super) fn on_type_of(&self, tile: GateTile) -> Option<&[bool]> {
        match self {
            Gate::Tile { tile: t, open } if *t == tile => Some(open),
            _ => None,
        }
    }

    /// Whether what it reads may change before the event's guards are
    /// judged: the placed tile (`placed_tile`), which a later placement
    /// changes, the tiles around a tile, or the figures on its features.
    pub(super) fn reads_now(&self) -> bool {
        matches!(
            self,
            Gate::Tile {
                tile: GateTile::Placed,
                ..
            } | Gate::Near { .. }
                | Gate::Occupied { .. }
        )
    }
}

/// Most parameters an event hands its handlers.
const EVENT_ARGS: u16 = 3;

/// How deeply [`known`] looks into called functions.
const CALL_DEPTH: u8 = 8;

/// Most expression nodes [`known`] looks at while gating one pack's
/// handlers, in all: past it, the handlers left are judged on every event
/// (a gate is only ever a shortcut), so no pack loads slowly for its gates.
pub(super) const GATE_WORK: u32 = 2_000_000;

/// The gates of a guard: one for each tile or feature it reads whose type
/// or kind decides, for some, that it is false, and one on the board
/// ([`board_gate`]) for a guard that holds only where a count finds
/// something. None for most guards. `work` is what is left of the pack's
/// [`GATE_WORK`].
pub(super) fn gates(pack: &RulePack, when: &Expr, work: &Cell<u32>) -> Vec<Gate> {
    let program = &pack.program;
    let judge = Judge { program, work };
    let mut gates = Vec::new();
    // A guard that asks nothing of a tile (or a kind) is decided by none.
    let (tiles_read, kinds_read) = reads(program, when);
    let tiles = (0..EVENT_ARGS).map(GateTile::Local).chain([GateTile::Placed]);
    for tile in tiles.filter(|_| tiles_read) {
        let open: Box<[bool]> = pack
            .tiles
            .iter()
            .map(|t| judge.known(when, &Probe::Tile { tile, of: t }, 0) != Some(false))
            .collect();
        if open.contains(&false) {
            gates.push(Gate::Tile { tile, open });
        }
    }
    for slot in (0..EVENT_ARGS).filter(|_| kinds_read) {
        let open: Box<[bool]> = (0..pack.kinds.len())
            .map(|k| {
                let probe = Probe::Kind {
                    slot,
                    kind: k as KindId,
                };
                judge.known(when, &probe, 0) != Some(false)
            })
            .collect();
        if open.contains(&false) {
            gates.push(Gate::Kind { slot, open });
        }
    }
    gates.extend(board_gate(program, when));
    gates
}

/// A guard less the conjuncts of its `and` chain that the type of a tile
/// it reads decides true, for each tile type where some are: judged in
/// place of the whole guard where that tile is of that type.
///
/// A conjunct left out is one [`Judge::known`] finds true for the type: it
/// cannot fail, and it holds, so the chain judged without it answers as
/// the whole chain (in the same order, with the same failures); only the
/// evaluation work charged is less, as for a gate. The Roadside draw's
/// `roadside.left > 0 and count(f in t.features where f.kind == road) > 0
/// and count(f in t.features where f.kind != road and f.kind != field) ==
/// 0` is `roadside.left > 0` on a tile of roads and fields alone (where
/// its gate is open), and a guard that asks a tile for an icon only is
/// `true` where the tile has it.
#[derive(Debug)]
pub(super) struct Residual {
    /// The tile whose type picks the guard judged.
    pub tile: GateTile,
    /// For each tile type (by [`crate::ir::TileId`]), the guard judged for
    /// it: an index into `guards`, or `None` for the whole guard.
    pub by_type: Box<[Option<u8>]>,
    /// The guards left, each the whole chain less some conjuncts (`true`
    /// when none is left).
    pub guards: Vec<Expr>,
}

/// Most conjuncts of a guard's chain [`residual`] looks at (one bit each):
/// a longer chain has no guards left.
const RESIDUAL_CONJUNCTS: usize = 64;
/// Most guards left [`residual`] makes for one handler.
const RESIDUAL_GUARDS: usize = 16;

/// The guards left of guard `when` for the tile types that decide some of
/// its conjuncts true ([`Residual`]), for the first tile it reads (a
/// parameter, then `placed_tile`) whose type decides one for some type;
/// `None` when no type decides any, or when they would make more than
/// [`RESIDUAL_GUARDS`]. Once the pack's gate work `work` is spent,
/// [`Judge::known`] decides nothing more, so the conjuncts not yet
/// judged are kept.
pub(super) fn residual(pack: &RulePack, when: &Expr, work: &Cell<u32>) -> Option<Residual> {
    let program = &pack.program;
    if !reads(program, when).0 {
        return None;
    }
    let judge = Judge { program, work };
    let mut conjuncts = Vec::new();
    and_chain(when, &mut conjuncts);
    if conjuncts.len() > RESIDUAL_CONJUNCTS {
        return None;
    }
    for tile in (0..EVENT_ARGS).map(GateTile::Local).chain([GateTile::Placed]) {
        // For each type, the conjuncts it decides true, a bit each.
        let mut left_out: Vec<u64> = Vec::new();
        let mut by_type = Vec::with_capacity(pack.tiles.len());
        for of in &pack.tiles {
            let probe = Probe::Tile { tile, of };
            let mut out = 0u64;
            for (i, c) in conjuncts.iter().enumerate() {
                if judge.known(c, &probe, 0) == Some(true) {
                    out |= 1 << i;
                }
            }
            by_type.push(if out == 0 {
                None
            } else {
                let at = match left_out.iter().position(|&m| m == out) {
                    Some(at) => at,
                    None if left_out.len() < RESIDUAL_GUARDS => {
                        left_out.push(out);
                        left_out.len() - 1
                    }
                    None => return None,
                };
                Some(at as u8)
            });
        }
        if !left_out.is_empty() {
            let guards = left_out
                .iter()
                .map(|&out| {
                    let kept = conjuncts.iter().enumerate().filter(|(i, _)| out & (1 << i) == 0);
                    kept.map(|(_, c)| (*c).clone())
                        .reduce(|a, b| Expr::Binary(BinOp::And, Box::new(a), Box::new(b)))
                        .unwrap_or(Expr::Bool(true))
                })
                .collect();
            return Some(Residual {
                tile,
                by_type: by_type.into(),
                guards,
            });
        }
    }
    None
}

/// The gate on the board of a guard whose `and` chain holds, after
/// conjuncts that cannot fail ([`infallible`]), an existence count
/// (`count(...) > 0`, `>= 1`, `!= 0`, see [`existence_test`]) that finds
/// nothing where the gate is closed:
///
/// - a near gate, for a count over the board's features (`count(x in
///   features where F)`, `count(feature x where F)`) whose filter `F`
///   bounds how far `x`'s tile lies from tile `T` ([`near_test`]): where no
///   tile that near `T` has a segment of the kind `F` asks for first
///   (`x.kind == K`, [`member_test`]; else the count's kind, if any), the
///   evaluator's scan of the features there finds none; and where `F`
///   needs a figure on the feature ([`occupied_test`]), none of those
///   segments' features with one passes;
/// - an occupied gate, for a count over a tile's features (`count(f in
///   T.features where F)`) whose filter needs a figure on the feature
///   ([`occupied_test`]): where no feature of `T` has one, none passes; and
///   where `F` first lets only some kinds through (`f.kind == road or
///   f.kind == city`, [`kinds_test`]), none of those kinds with one.
///
/// `T` is a parameter or `placed_tile`. The count is then 0 and the guard
/// false.
fn board_gate(program: &Program, when: &Expr) -> Option<Gate> {
    let mut conjuncts = Vec::new();
    and_chain(when, &mut conjuncts);
    for conjunct in conjuncts {
        if let Some(gate) = board_count(program, conjunct) {
            return Some(gate);
        }
        if !infallible(conjunct) {
            return None;
        }
    }
    None
}

/// [`board_gate`]'s count, when `e` is one.
fn board_count(program: &Program, e: &Expr) -> Option<Gate> {
    let Expr::Binary(op, l, r) = e else {
        return None;
    };
    let (
        Expr::Count {
            slot,
            domain,
            list,
            filter: Some(filter),
            ..
        },
        true,
    ) = existence_test(*op, l, r)?
    else {
        return None;
    };
    // The tile `T` of a gate: a parameter or `placed_tile`.
    let tile = |e: &Expr| tile_named(e).filter(|t| !matches!(t, GateTile::Local(s) if *s >= EVENT_ARGS));
    match (domain, list.as_deref()) {
        (Some(Domain::Features(of_kind)), None) => {
            let (near, d) = near_test(filter, *slot)?;
            let kind = match member_test(program, filter, *slot, Builtin::Kind) {
                Some(Expr::Kind(k)) => Some(*k),
                // A kind known only in play, or none asked: the count's own.
                _ => *of_kind,
            };
            Some(Gate::Near {
                tile: tile(near)?,
                kind,
                d,
                occupied: occupied_test(program, filter, *slot),
            })
        }
        (
            None | Some(Domain::Features(None)),
            Some(Expr::Query {
                builtin: Builtin::TileFeatures,
                of: Some(of),
                args,
            }),
        ) if args.is_empty() && occupied_test(program, filter, *slot) => Some(Gate::Occupied {
            tile: tile(of)?,
            kinds: kinds_test(program, filter, *slot).map(Vec::into_boxed_slice),
        }),
        _ => None,
    }
}

/// The tile `e` names, when it is a local variable or `placed_tile`.
fn tile_named(e: &Expr) -> Option<GateTile> {
    match e {
        Expr::Local(s) => Some(GateTile::Local(*s)),
        Expr::Query {
            builtin: Builtin::PlacedTile,
            of: None,
            args,
        } if args.is_empty() => Some(GateTile::Placed),
        _ => None,
    }
}

/// For an existence count over a tile's features (`count(f in T.features
/// where F) > 0`, `== 0` ..., see [`existence_test`]; not `count(feature f
/// in ...)`, which a compiled count charges as listed) that the tile's type
/// decides, `T` being a local or `placed_tile`: the tile, and the count's
/// answer for each tile type (by [`crate::ir::TileId`]), as [`known`] finds
/// it. `None` when some type does not decide it, or `work` is spent.
pub(super) fn decided_by_type(pack: &RulePack, e: &Expr, work: &Cell<u32>) -> Option<(GateTile, Box<[bool]>)> {
    let Expr::Binary(op, l, r) = e else { return None };
    let (
        Expr::Count {
            domain: None,
            list: Some(list),
            ..
        },
        _,
    ) = existence_test(*op, l, r)?
    else {
        return None;
    };
    let Expr::Query {
        builtin: Builtin::TileFeatures,
        of: Some(of),
        args,
    } = &**list
    else {
        return None;
    };
    let tile = tile_named(of)?;
    if !args.is_empty() {
        return None;
    }
    let judge = Judge {
        program: &pack.program,
        work,
    };
    let answers = pack
        .tiles
        .iter()
        .map(|of| judge.tile_count(e, &Probe::Tile { tile, of }, 0))
        .collect::<Option<Box<[bool]>>>()?;
    Some((tile, answers))
}

/// Whether `e`, or a value function it calls, asks a tile for an icon or
/// its features, and whether it asks anything for its kind: each function
/// looked into once.
fn reads(program: &Program, e: &Expr) -> (bool, bool) {
    fn walk(program: &Program, e: &Expr, seen: &mut Vec<FnId>, found: &mut (bool, bool)) {
        match e {
            Expr::Query { builtin, of, args } => {
                found.0 |= matches!(builtin, Builtin::HasIcon | Builtin::TileFeatures);
                found.1 |= *builtin == Builtin::Kind;
                of.iter().for_each(|o| walk(program, o, seen, found));
                args.iter().for_each(|a| walk(program, a, seen, found));
            }
            Expr::Call { func, args } => {
                args.iter().for_each(|a| walk(program, a, seen, found));
                if !seen.contains(func) {
                    seen.push(*func);
                    if let Some(FnBody::Expr(body)) = program.functions.get(*func as usize).map(|f| &f.body) {
                        walk(program, body, seen, found);
                    }
                }
            }
            Expr::MemberVar { of, .. } => walk(program, of, seen, found),
            Expr::Unary(_, a) => walk(program, a, seen, found),
            Expr::Binary(_, a, b) => {
                walk(program, a, seen, found);
                walk(program, b, seen, found);
            }
            Expr::If { cond, then, otherwise } => {
                for x in [cond, then, otherwise] {
                    walk(program, x, seen, found);
                }
            }
            Expr::Let { value, body, .. } => {
                walk(program, value, seen, found);
                walk(program, body, seen, found);
            }
            Expr::Count { list, filter, .. } => {
                list.iter()
                    .chain(filter.iter())
                    .for_each(|x| walk(program, x, seen, found));
            }
            _ => {}
        }
    }
    let mut found = (false, false);
    walk(program, e, &mut Vec::new(), &mut found);
    found
}

/// The pack's functions [`known`] may look into, and the work it has left.
struct Judge<'a> {
    program: &'a Program,
    work: &'a Cell<u32>,
}

/// What [`known`] takes as given: the type of a tile, or the kind of the
/// feature in a local slot.
enum Probe<'a> {
    Tile { tile: GateTile, of: &'a TileType },
    Kind { slot: u16, kind: KindId },
}

impl Probe<'_> {
    /// Whether `e` is the tile this probe knows.
    fn is_tile(&self, e: &Expr) -> bool {
        match (self, e) {
            (
                Probe::Tile {
                    tile: GateTile::Local(s),
                    ..
                },
                Expr::Local(x),
            ) => s == x,
            (
                Probe::Tile {
                    tile: GateTile::Placed, ..
                },
                Expr::Query {
                    builtin: Builtin::PlacedTile,
                    of: None,
                    args,
                },
            ) => args.is_empty(),
            _ => false,
        }
    }
}

impl Judge<'_> {
    /// The value of condition `e` for every game in which the probe's fact
    /// holds, when that fact alone decides it and evaluating it cannot fail
    /// (but for running out of evaluation budget); `None` when it does not,
    /// or when the pack's gate work is spent.
    fn known(&self, e: &Expr, probe: &Probe, depth: u8) -> Option<bool> {
        // Out of work: nothing more is known.
        let left = self.work.get().checked_sub(1)?;
        self.work.set(left);
        let program = self.program;
        let known_in = |e: &Expr| self.known(e, probe, depth);
        match e {
            Expr::Bool(b) => Some(*b),
            Expr::Unary(UnOp::Not, a) => known_in(a).map(|v| !v),
            // `a and b` is false when `a` is, or when `b` is and `a` has a
            // value (true or false) without failing; `or` the other way round.
            Expr::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                let decides = *op == BinOp::Or;
                match known_in(a) {
                    Some(v) if v == decides => Some(v),
                    Some(_) => known_in(b),
                    None => (infallible(a) && known_in(b) == Some(decides)).then_some(decides),
                }
            }
            Expr::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) => {
                let Probe::Kind { slot, kind } = probe else {
                    return self.tile_count(e, probe, depth);
                };
                let is_kind = |e: &Expr| local_query(e) == Some((Builtin::Kind, *slot));
                let other = match (&**a, &**b) {
                    (x, Expr::Kind(k)) | (Expr::Kind(k), x) if is_kind(x) => *k,
                    _ => return self.tile_count(e, probe, depth),
                };
                Some((other == *kind) == (*op == BinOp::Eq))
            }
            Expr::Binary(..) => self.tile_count(e, probe, depth),
            Expr::Query {
                builtin: Builtin::HasIcon,
                of: Some(of),
                args,
            } => match (probe, args.as_slice()) {
                (Probe::Tile { of: tile, .. }, [Expr::Icon(i)]) if probe.is_tile(of) => Some(tile.has_icon(*i)),
                _ => None,
            },
            Expr::Call { func, args } if depth < CALL_DEPTH => {
                // Arguments that cannot fail, as `member_test` asks: the call's
                // body is judged with the probe's slot renamed to the parameter.
                if !args.iter().all(infallible) {
                    return None;
                }
                let FnBody::Expr(body) = &program.functions.get(*func as usize)?.body else {
                    return None;
                };
                let param = |slot: u16| {
                    args.iter()
                        .position(|a| matches!(a, Expr::Local(s) if *s == slot))
                        .map(|p| p as u16)
                };
                let inner = match probe {
                    // The tile passed as an argument is the parameter there;
                    // `placed_tile` is itself in the body too.
                    Probe::Tile { tile, of } => {
                        let passed = args.iter().position(|a| probe.is_tile(a)).map(|p| p as u16);
                        match (tile, passed) {
                            (_, Some(p)) => Probe::Tile {
                                tile: GateTile::Local(p),
                                of,
                            },
                            (GateTile::Placed, None) => Probe::Tile { tile: *tile, of },
                            (GateTile::Local(_), None) => return None,
                        }
                    }
                    Probe::Kind { slot, kind } => Probe::Kind {
                        slot: param(*slot)?,
                        kind: *kind,
                    },
                };
                self.known(body, &inner, depth + 1)
            }
            _ => None,
        }
    }

    /// `count(f in T.features where F) > 0` (or `== 0`, see
    /// [`existence_test`]) of the probe's tile `T`: decided by its segments'
    /// kinds when `F` is decided by `f`'s kind for each of them.
    fn tile_count(&self, e: &Expr, probe: &Probe, depth: u8) -> Option<bool> {
        let (Expr::Binary(op, l, r), Probe::Tile { of: tile, .. }) = (e, probe) else {
            return None;
        };
        let (count, holds_if_some) = existence_test(*op, l, r)?;
        let Expr::Count {
            slot,
            domain: None | Some(Domain::Features(None)),
            list: Some(list),
            filter,
            ..
        } = count
        else {
            return None;
        };
        match &**list {
            Expr::Query {
                builtin: Builtin::TileFeatures,
                of: Some(of),
                args,
            } if args.is_empty() && probe.is_tile(of) => {}
            _ => return None,
        }
        let mut some = false;
        for segment in &tile.segments {
            let passes = match filter {
                None => true,
                Some(f) => self.known(
                    f,
                    &Probe::Kind {
                        slot: *slot,
                        kind: segment.kind,
                    },
                    depth,
                )?,
            };
            some |= passes;
        }
        Some(some == holds_if_some)
    }
}

/// Whether evaluating `e` cannot fail: constants, variables, comparisons,
/// `and`, `or` and `not` of such, the built-ins answered from their
/// receiver (and argument) alone, and counts over such a list (or a whole
/// domain) with such a filter. (A count charges the evaluation budget for
/// each member, and so fails when the budget runs out; but the budget only
/// stops rules that run away, and a gate changes the work charged anyway:
/// a guard passed over charges none.)
fn infallible(e: &Expr) -> bool {
    match e {
        e if e.is_constant() => true,
        Expr::Local(_) | Expr::GameVar(_) => true,
        Expr::MemberVar { of, .. } => infallible(of),
        Expr::Query { builtin, of, args } => {
            let answered = match args.as_slice() {
                [] => answered_alone(*builtin),
                [arg] => answered_with_arg(*builtin) && infallible(arg),
                _ => false,
            };
            answered && of.as_deref().is_none_or(infallible)
        }
        Expr::Count { list, filter, .. } => {
            list.as_deref().is_none_or(infallible) && filter.as_deref().is_none_or(infallible)
        }
        Expr::Unary(UnOp::Not, a) => infallible(a),
        Expr::Binary(
            BinOp::And | BinOp::Or | BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge,
            a,
            b,
        ) => infallible(a) && infallible(b),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::{Gate, GateTile};
    use crate::bundled::test_sets;
    use crate::check::{load, PackRef};
    use crate::engine::ids::PlacedId;
    use crate::engine::value::Value;
    use crate::engine::{Game, PlacedTile, Rng, Rules, Setup};
    use crate::ir::program::EventKind;
    use crate::ir::KindId;
    use std::sync::Arc;

    /// Bundled packs loaded together.
    fn rules_of(names: &[&str]) -> Result<Rules, crate::check::LoadError> {
        let refs: Vec<PackRef> = names.iter().map(|p| PackRef::Bundled(p.to_string())).collect();
        Ok(Rules::new(load(&refs)?))
    }

    fn rules(packs: &[&str], text: Option<&str>) -> Rules {
        let mut refs: Vec<PackRef> = packs.iter().map(|p| PackRef::Bundled(p.to_string())).collect();
        if let Some(text) = text {
            refs.push(PackRef::Text {
                name: "gates.rules".into(),
                text: text.into(),
            });
        }
        Rules::new(load(&refs).unwrap_or_else(|e| panic!("{}", e.render())))
    }

    /// The gates of the handlers of `event` (in the order written).
    fn gates_of(rules: &Rules, event: EventKind) -> Vec<&[Gate]> {
        rules
            .handlers_of(event)
            .iter()
            .map(|h| &*rules.gates[*h as usize])
            .collect()
    }

    /// The names of what a gate lets through: tile types or kinds, by `name`.
    fn open_names<'r>(gate: &Gate, name: impl Fn(usize) -> &'r str) -> Vec<&'r str> {
        let (Gate::Tile { open, .. } | Gate::Kind { open, .. }) = gate else {
            panic!("{gate:?} has no table");
        };
        (0..open.len()).filter(|i| open[*i]).map(name).collect()
    }

    fn open_tiles<'r>(rules: &'r Rules, gate: &Gate) -> Vec<&'r str> {
        assert!(matches!(gate, Gate::Tile { .. }), "{gate:?} is no tile gate");
        open_names(gate, |t| rules.pack.tiles[t].name.as_str())
    }

    fn open_kinds<'r>(rules: &'r Rules, gate: &Gate) -> Vec<&'r str> {
        assert!(matches!(gate, Gate::Kind { .. }), "{gate:?} is no kind gate");
        open_names(gate, |k| rules.pack.kinds[k].name.as_str())
    }

    /// Existence counts over a tile's features get an answer for every tile
    /// type where the features' kinds decide them (of a parameter or of
    /// `placed_tile`, `> 0` or `== 0`), and none where more than the kinds
    /// decide, the list is another, or the count names a domain.
    #[test]
    fn counts_of_a_tiles_features_are_decided_by_type_where_kinds_decide() {
        let text = "pack by_type\nlanguage 1\nrequires base\n\
            var game n: int = 0\n\
            on tile_placed(t) when count(f in t.features where f.kind == monastery) > 0 { set n = 1 }\n\
            on tile_placed(t) when count(f in t.features where f.kind != road and f.kind != field) == 0 { set n = 2 }\n\
            on turn_end when count(f in placed_tile.features where f.kind == city) >= 1 { set n = 3 }\n\
            on tile_placed(t) when count(f in t.features where f.kind == road and f.tiles > 2) > 0 { set n = 4 }\n\
            on tile_placed(t) when count(f in t.features where f.kind == road) > n { set n = 5 }\n\
            on tile_placed(t) when count(feature f in t.features where f.kind == road) > 0 { set n = 6 }\n";
        let rules = rules(&["base"], Some(text));
        let pack = &rules.pack;
        let work = std::cell::Cell::new(super::GATE_WORK);
        let decided = |event: EventKind, i: usize| {
            let h = rules.handlers_of(event)[i] as usize;
            let when = pack.program.handlers[h]
                .when
                .as_ref()
                .expect("every handler is guarded");
            super::decided_by_type(pack, when, &work).map(|(tile, answers)| {
                let names: Vec<&str> = (0..answers.len())
                    .filter(|t| answers[*t])
                    .map(|t| pack.tiles[t].name.as_str())
                    .collect();
                (tile, names)
            })
        };
        let placed = |i| decided(EventKind::TilePlaced, i);
        assert_eq!(placed(0), Some((GateTile::Local(0), vec!["A", "B"])));
        // Roads and fields only: the straight, curved and crossing roads.
        assert_eq!(placed(1), Some((GateTile::Local(0), vec!["U", "V", "W", "X"])));
        let (tile, cities) = decided(EventKind::TurnEnd, 0).expect("placed_tile's features are decided");
        assert_eq!(tile, GateTile::Placed);
        assert!(
            cities.len() > 10 && !cities.contains(&"U") && cities.contains(&"D"),
            "{cities:?}"
        );
        for undecided in 2..5 {
            assert_eq!(placed(undecided), None, "handler {undecided}");
        }
    }

    /// Each guard form is gated where its tile's type or feature's kind
    /// decides it: icons, the kinds of a tile's features (through a
    /// called function too), `placed_tile`, a feature's kind; and not
    /// where something before that may fail, or where more than the type
    /// or kind decides.
    #[test]
    fn guards_are_gated_where_a_type_or_kind_decides_them() {
        let text = "pack gates\nlanguage 1\nrequires base\n\
            icon bell\n\
            tile BELL x1 { road W E; field WR N EL; field ER S WL; icon bell }\n\
            var game n: int = 0\n\
            fn roads(t: tile) = count(f in t.features where f.kind == road) > 0\n\
            on tile_placed(t) when t.has_icon(bell) { set n = 1 }\n\
            on tile_placed(t) when n >= 0 and not t.has_icon(bell) { set n = 2 }\n\
            on tile_placed(t) when roads(t) and count(f in t.features where f.kind == city) == 0 { set n = 3 }\n\
            on tile_placed(t) when 10 / n > 1 and t.has_icon(bell) { set n = 4 }\n\
            on tile_placed(t) when t.has_icon(bell) or count(f in t.features where f.kind == monastery) > 0 { set n = 5 }\n\
            on tile_placed(t) when count(f in t.features where f.kind == road and f.tiles > 2) > 0 { set n = 6 }\n\
            on tile_placed(t) when count(f in t.features where f.kind == road or f.tiles > 2) > 0 { set n = 7 }\n\
            on tile_placed(t) when n >= 0 and count(f in t.features where f.kind == road) > 0\n\
                and count(f in t.features where f.kind != road and f.kind != field) == 0 { set n = 16 }\n\
            on tile_placed(t) when count(f in t.features where 10 / n > 1) > 0 and t.has_icon(bell) { set n = 17 }\n\
            on turn_end when placed_tile.has_icon(bell) { set n = 8 }\n\
            on feature_completed(c) when c.kind == city and c.tiles > 2 { set n = 9 }\n\
            on feature_completed(c) when c.kind != road or c.tiles > 2 { set n = 10 }\n\
            on feature_completed(c) when c.tiles > 2 and c.kind == city { set n = 11 }\n\
            on feature_completed(c) when c.kind != road and c.kind != field { set n = 12 }\n\
            fn bell_with(t: tile, k: int) = t.has_icon(bell)\n\
            on turn_end when 10 / n > 1 or placed_tile.has_icon(bell) { set n = 13 }\n\
            on turn_end when bell_with(placed_tile, 10 / n) { set n = 14 }\n\
            on turn_end when bell_with(placed_tile, n) { set n = 15 }\n";
        let rules = rules(&["base"], Some(text));
        let placed = gates_of(&rules, EventKind::TilePlaced);
        assert_eq!(placed.len(), 9);
        let tile_gate = |gates: &[Gate]| match gates {
            [gate @ Gate::Tile {
                tile: GateTile::Local(0),
                ..
            }] => open_tiles(&rules, gate),
            other => panic!("one gate on the tile expected: {other:?}"),
        };
        assert_eq!(tile_gate(placed[0]), ["BELL"]);
        // `n >= 0` cannot fail: the tile's type decides after it.
        assert_eq!(tile_gate(placed[1]).len(), rules.pack.tiles.len() - 1);
        assert!(!tile_gate(placed[1]).contains(&"BELL"));
        // Roads and no city, the first half asked in a called function.
        let roads_only = tile_gate(placed[2]);
        assert_eq!(roads_only, ["A", "U", "V", "W", "X", "BELL"]);
        // `10 / n` may fail (n is 0 at first): the guard is always judged.
        assert!(placed[3].is_empty(), "{:?}", placed[3]);
        assert_eq!(tile_gate(placed[4]), ["A", "B", "BELL"]);
        // A road is needed whatever its length; one of any kind may do.
        assert!(!tile_gate(placed[5]).contains(&"B"));
        assert!(placed[6].is_empty(), "{:?}", placed[6]);
        // A count whose filter cannot fail, before what the type decides
        // (it fails only when the evaluation budget runs out).
        assert_eq!(tile_gate(placed[7]), ["U", "V", "W", "X", "BELL"]);
        // A count whose filter may fail.
        assert!(placed[8].is_empty(), "{:?}", placed[8]);
        let ended = gates_of(&rules, EventKind::TurnEnd);
        let placed_gate = |gates: &[Gate]| match gates {
            [gate @ Gate::Tile {
                tile: GateTile::Placed, ..
            }] => open_tiles(&rules, gate),
            other => panic!("one gate on the placed tile expected: {other:?}"),
        };
        assert_eq!(placed_gate(ended[0]), ["BELL"]);
        // `10 / n` may fail, as the left of an `or` or as an argument.
        assert!(ended[1].is_empty() && ended[2].is_empty(), "{ended:?}");
        assert_eq!(placed_gate(ended[3]), ["BELL"]);
        let completed = gates_of(&rules, EventKind::FeatureCompleted);
        let kind_gate = |gates: &[Gate]| match gates {
            [gate @ Gate::Kind { slot: 0, .. }] => open_kinds(&rules, gate),
            other => panic!("one gate on the feature expected: {other:?}"),
        };
        assert_eq!(kind_gate(completed[0]), ["city"]);
        assert!(completed[1].is_empty(), "{:?}", completed[1]);
        // `c.tiles > 2` cannot fail either: the kind decides after it.
        assert_eq!(kind_gate(completed[2]), ["city"]);
        assert_eq!(kind_gate(completed[3]), ["city", "monastery"]);
    }

    /// Guards of every shape [`board_gate`] reads (each scores a point, so
    /// that its judgement shows in a game), and of shapes it must not gate.
    const BOARD_GATED: &str = "pack board_gates\nlanguage 1\nrequires base\nvar game n: int = 0\n\
        on tile_placed(t) when n >= 0 and count(m in features where m.kind == monastery and distance(m.tile, t) == 1) > 0 { score 1 to current_player reason \"1\" }\n\
        on tile_placed(t) when count(feature c where distance(c.tile, t) <= 2) >= 1 { score 1 to current_player reason \"2\" }\n\
        on turn_end when count(feature r where r.kind == road and distance(r.tile, placed_tile) < 2) != 0 { score 1 to current_player reason \"3\" }\n\
        on tile_placed(t) when 10 / (n - 9) < 0 and count(m in features where m.kind == monastery and distance(m.tile, t) == 1) > 0 { score 1 to current_player reason \"4\" }\n\
        on tile_placed(t) when count(m in features where m.kind == monastery) > 0 { score 1 to current_player reason \"5\" }\n\
        on tile_placed(t) when count(f in t.features where count(p in f.owners) > 0) > 0 { score 1 to current_player reason \"6\" }\n\
        on tile_placed(t) when count(f in t.features where f.tiles > 1) > 0 { score 1 to current_player reason \"7\" }\n\
        on tile_placed(t) when count(city c where distance(c.tile, t) <= 1) > 0 { score 1 to current_player reason \"8\" }\n\
        on tile_placed(t) when count(m in features where m.kind == monastery and distance(m.tile, start_tile) <= 1) > 0 { score 1 to current_player reason \"9\" }\n\
        on tile_placed(t) when count(m in features where m.kind == monastery and distance(m.tile, t) <= 4) > 0 { score 1 to current_player reason \"10\" }\n\
        on turn_end when count(f in placed_tile.features where f.followers(current_player) > 0) > 0 { score 1 to current_player reason \"11\" }\n\
        on tile_placed(t) when count(feature f in t.features where count(x in f.figures) > 0) > 0 { score 1 to current_player reason \"12\" }\n\
        fn held(f: feature) = (f.kind == road or f.kind == city) and count(p in f.owners) > 0\n\
        on tile_placed(t) when count(f in t.features where held(f)) > 0 { score 1 to current_player reason \"13\" }\n\
        on tile_placed(t) when count(m in features where m.kind == monastery and distance(m.tile, t) == 1 and count(x in m.figures) > 0) > 0 { score 1 to current_player reason \"14\" }\n";

    /// A guard that holds only where a count of the board's features finds
    /// some near a tile gets a near gate: on a parameter or on
    /// `placed_tile`, for the kind the filter asks for first, else the
    /// count's own, else any; none after a conjunct that may fail (a
    /// division), where the filter bounds no distance or one past
    /// `NEAR_MAX`, or where the tile is neither a parameter nor
    /// `placed_tile`. A guard that holds only where a count of a tile's
    /// features that needs a figure on them finds one gets an occupied gate
    /// (one that needs no figure, none), for the kinds the filter lets
    /// through first when it asks (`f.kind == road or f.kind == city`, in a
    /// called function too). Bundled packs have both.
    #[test]
    fn counts_on_the_board_gate_their_guards() {
        let rules = Arc::new(rules(&["base"], Some(BOARD_GATED)));
        let kind = |name: &str| {
            rules
                .pack
                .kinds
                .iter()
                .position(|k| k.name == name)
                .map(|k| k as KindId)
        };
        let board_gates = |event| -> Vec<Option<&Gate>> {
            gates_of(&rules, event)
                .into_iter()
                .map(|gates| gates.iter().find(|g| g.reads_now()))
                .collect()
        };
        let near = |tile, kind, d| {
            Some(Gate::Near {
                tile,
                kind,
                d,
                occupied: false,
            })
        };
        let t = GateTile::Local(0);
        let occupied = |tile| Some(Gate::Occupied { tile, kinds: None });
        let road_or_city = [kind("road").unwrap(), kind("city").unwrap()];
        let expected = [
            near(t, kind("monastery"), 1),
            near(t, None, 2),
            None,
            None,
            occupied(t),
            None,
            near(t, kind("city"), 1),
            None,
            None,
            occupied(t),
            Some(Gate::Occupied {
                tile: t,
                kinds: Some(Box::new(road_or_city)),
            }),
            Some(Gate::Near {
                tile: t,
                kind: kind("monastery"),
                d: 1,
                occupied: true,
            }),
        ];
        assert_eq!(
            format!("{:?}", board_gates(EventKind::TilePlaced)),
            format!("{:?}", expected.iter().map(Option::as_ref).collect::<Vec<_>>())
        );
        let expected = [near(GateTile::Placed, kind("road"), 1), occupied(GateTile::Placed)];
        assert_eq!(
            format!("{:?}", board_gates(EventKind::TurnEnd)),
            format!("{:?}", expected.iter().map(Option::as_ref).collect::<Vec<_>>())
        );
        // Bundled packs' guards are gated so: a draw for a tile placed next
        // to a monastery with a figure on it, after a deck's count; one for
        // a tile that adds to a road or city with a figure on it.
        let (mut near_gated, mut occupied_gated) = (false, false);
        for set in test_sets(|names| rules_of(names).is_ok()) {
            let rules = rules_of(&set).unwrap();
            for gate in gates_of(&rules, EventKind::TilePlaced).into_iter().flatten() {
                near_gated |= matches!(
                    gate,
                    Gate::Near {
                        tile: GateTile::Local(0),
                        d: 1,
                        kind: Some(_),
                        occupied: true,
                    }
                );
                occupied_gated |= matches!(
                    gate,
                    Gate::Occupied {
                        tile: GateTile::Local(0),
                        kinds: Some(_),
                    }
                );
            }
        }
        assert!(
            near_gated && occupied_gated,
            "bundled packs have near and occupied gates"
        );
    }

    /// A guard's conjuncts that the type of the tile it reads decides true
    /// are left out for that type, the others kept in their order, and the
    /// guard is kept whole for a type that decides none: two counts of a
    /// tile's features by kind on a tile of roads and fields alone (the
    /// flag before them left), one count between two conjuncts the tile
    /// cannot decide, an icon of the tile (`true` left) and of
    /// `placed_tile`, and two counts of held features of a kind, each
    /// decided (0) only on tiles without the kind (three guards left, each
    /// for tiles that are judged: picking another would change the
    /// games); a count that asks who holds the features is decided by no
    /// type, and a chain of 65 conjuncts has no guards left. Games with
    /// the guards left play as games with every guard judged whole, for
    /// less work.
    #[test]
    fn residual_guards_leave_out_the_conjuncts_a_tile_type_decides_true() {
        use crate::ir::expr::Expr;
        // A chain of 65 conjuncts, past what a guard left can keep track of.
        let long = vec!["n >= 0"; 64].join(" and ");
        let text = String::from(
            "pack residual\nlanguage 1\nrequires base\nicon star\n\
                    tile STAR x3 { road W E; field WR N EL; field ER S WL; icon star }\n\
                    tile MEADOW x3 { field N E S W }\n\
                    var game n: int = 0\nvar game flag: bool = false\n\
                    fn held(f: feature) = (f.kind == road or f.kind == city) and count(p in f.owners) > 0\n\
                    on tile_placed(t) when not flag and count(f in t.features where f.kind == road) > 0\n\
                    \x20   and count(f in t.features where f.kind != road and f.kind != field) == 0 { score 1 to current_player reason \"left 1\" }\n\
                    on tile_placed(t) when n >= 0 and count(f in t.features where f.kind == road) > 0 and n < 100 { score 2 to current_player reason \"left 2\" }\n\
                    on tile_placed(t) when t.has_icon(star) { score 3 to current_player reason \"left 3\" }\n\
                    on turn_end when placed_tile.has_icon(star) and not flag { score 4 to current_player reason \"left 4\" }\n\
                    on tile_placed(t) when not flag and count(f in t.features where held(f)) > 0 { score 5 to current_player reason \"left 5\" }\n\
                    on tile_placed(t) when not flag and count(f in t.features where f.kind == road and held(f)) == 0\n\
                    \x20   and count(f in t.features where f.kind == city and held(f)) == 0 { score 6 to current_player reason \"left 6\" }\n",
        ) + &format!("on tile_placed(t) when t.has_icon(star) and {long} {{ score 7 to current_player reason \"left 7\" }}\n");
        let text = text.as_str();
        let r = rules(&["base"], Some(text));
        let pack = &r.pack;
        let kinds_of = |t: usize| {
            let segments = &pack.tiles[t].segments;
            segments
                .iter()
                .map(|s| pack.kinds[s.kind as usize].name.as_str())
                .collect::<Vec<_>>()
        };
        let star = |t: usize| pack.tiles[t].name == "STAR";
        let chain = |e: &Expr| {
            let mut out = Vec::new();
            super::and_chain(e, &mut out);
            out.into_iter().cloned().collect::<Vec<Expr>>()
        };
        // The places of the conjuncts that hold.
        let places = |c: [(usize, bool); 2]| c.into_iter().filter(|c| c.1).map(|c| c.0).collect::<Vec<_>>();
        // For each handler (by its reason), the tile it reads and
        // the conjuncts (by place) each tile type decides true.
        type LeftOut<'a> = Box<dyn Fn(usize) -> Vec<usize> + 'a>;
        let cases: [(&str, GateTile, LeftOut); 5] = [
            (
                "left 1",
                GateTile::Local(0),
                Box::new(|t| {
                    let k = kinds_of(t);
                    let roads_and_fields = k.iter().all(|k| *k == "road" || *k == "field");
                    places([(1, k.contains(&"road")), (2, roads_and_fields)])
                }),
            ),
            (
                "left 2",
                GateTile::Local(0),
                Box::new(|t| if kinds_of(t).contains(&"road") { vec![1] } else { vec![] }),
            ),
            // A count the tile's kinds decide only where it has none of
            // the kind asked: three guards left, each for tiles judged.
            (
                "left 6",
                GateTile::Local(0),
                Box::new(|t| {
                    let k = kinds_of(t);
                    places([(1, !k.contains(&"road")), (2, !k.contains(&"city"))])
                }),
            ),
            (
                "left 3",
                GateTile::Local(0),
                Box::new(|t| if star(t) { vec![0] } else { vec![] }),
            ),
            (
                "left 4",
                GateTile::Placed,
                Box::new(|t| if star(t) { vec![0] } else { vec![] }),
            ),
        ];
        let handler = |body: &str| {
            let found = pack.program.handlers.iter().position(|h| {
                let source = pack.sources.text(h.span.file);
                source[h.span.start as usize..h.span.end as usize].contains(body)
            });
            found.unwrap_or_else(|| panic!("a handler scores {body}"))
        };
        assert!(
            r.residuals[handler("left 5")].is_none(),
            "who holds a feature is no tile's type"
        );
        assert!(
            r.residuals[handler("left 7")].is_none(),
            "a chain too long to keep track of"
        );
        for (body, tile, left_out) in cases {
            let h = handler(body);
            let whole = chain(pack.program.handlers[h].when.as_ref().unwrap());
            let residual = r.residuals[h]
                .as_ref()
                .unwrap_or_else(|| panic!("no guard left for {body}"));
            assert_eq!(residual.tile, tile, "{body}");
            for t in 0..pack.tiles.len() {
                let out = left_out(t);
                let name = &pack.tiles[t].name;
                let Some(i) = residual.by_type[t] else {
                    assert!(out.is_empty(), "{body}: tile {name} keeps its whole guard");
                    continue;
                };
                let kept: Vec<Expr> = whole
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| !out.contains(j))
                    .map(|c| c.1.clone())
                    .collect();
                let left = &residual.guards[usize::from(i)];
                match kept.is_empty() {
                    true => assert_eq!(left, &Expr::Bool(true), "{body}: tile {name}"),
                    false => assert_eq!(chain(left), kept, "{body}: tile {name}"),
                }
            }
        }
        let full = rules(&["base"], Some(text)).without_gates();
        let less_work = same_games_for_less_work(&Arc::new(r), &Arc::new(full), 6, "guards left");
        assert!(less_work, "a guard left counts less");
    }

    /// Board gates open exactly where their counts may find something: a
    /// near gate where a tile within `d` squares (as `distance` counts
    /// them, the tile itself included) has a segment of its kind (whose
    /// feature has a figure, for one that needs it), for every
    /// placed tile at every step of random games, `d` from 0 to 3; an
    /// occupied gate where a feature of the tile (of the gate's kinds, when
    /// it has some) has a figure; both open
    /// where the tile is not there. Games of guards of every gated shape
    /// play the same with their gates as judged in full, for less work,
    /// and a guard passed over by a gate is not judged before its event is
    /// queued (the board may change first).
    #[test]
    fn board_gates_open_where_their_counts_may_find_something() {
        let gated = Arc::new(rules(&["base"], Some(BOARD_GATED)));
        let kinds = [None, Some(0 as KindId), Some(1), Some(2), Some(3)];
        let has_kind = |tile: usize, kind: Option<KindId>| {
            kind.is_none_or(|k| gated.pack.tiles[tile].segments.iter().any(|s| s.kind == k))
        };
        let occupied = |kinds: Option<&[KindId]>| Gate::Occupied {
            tile: GateTile::Local(0),
            kinds: kinds.map(Box::from),
        };
        for seed in 0..3 {
            let mut game = Game::new(gated.clone(), Setup::new(2).seed(seed)).unwrap();
            let mut rng = Rng::new(seed);
            let (mut shut, mut open) = (0, 0);
            while game.decision().is_some() {
                let placed = &game.state.board().placed;
                // Whether a segment of placed tile `j` of a kind `kind_ok`
                // passes has a figure on its feature.
                let held = |j: usize, kind_ok: &dyn Fn(KindId) -> bool| {
                    let segments = &gated.pack.tiles[placed[j].tile as usize].segments;
                    segments.iter().enumerate().any(|(s, segment)| {
                        kind_ok(segment.kind)
                            && game
                                .state
                                .features()
                                .figure_count(game.feature_of(PlacedId(j as u16), s as u8))
                                > 0
                    })
                };
                for (i, p) in placed.iter().enumerate() {
                    let arg = [Value::Tile(i as u16)];
                    for d in 0..=3 {
                        for (kind, occupied) in kinds.into_iter().flat_map(|k| [(k, false), (k, true)]) {
                            let gate = Gate::Near {
                                tile: GateTile::Local(0),
                                kind,
                                d,
                                occupied,
                            };
                            let within =
                                |q: &PlacedTile| (q.pos.0 - p.pos.0).abs().max((q.pos.1 - p.pos.1).abs()) <= d as i32;
                            let of_kind = |k: KindId| kind.is_none_or(|wanted| k == wanted);
                            let expected = placed.iter().enumerate().any(|(j, q)| {
                                within(q) && has_kind(q.tile as usize, kind) && (!occupied || held(j, &of_kind))
                            });
                            assert_eq!(game.gate_open(&gate, &arg), expected, "{gate:?} on tile {i}");
                            (shut, open) = if expected { (shut, open + 1) } else { (shut + 1, open) };
                        }
                    }
                    for kinds in [None, Some(&[0][..]), Some(&[1, 3][..]), Some(&[][..])] {
                        let figures = held(i, &|k| kinds.is_none_or(|kinds| kinds.contains(&k)));
                        assert_eq!(game.gate_open(&occupied(kinds), &arg), figures, "tile {i}, {kinds:?}");
                    }
                }
                let options = game.options();
                game.apply(options[rng.below(options.len())]).unwrap();
            }
            assert!(shut > 0 && open > 0, "seed {seed}: {shut} shut, {open} open");
            let unplaced = [Value::Tile(game.state.board().placed.len() as u16)];
            assert!(game.gate_open(&occupied(None), &unplaced));
            assert!(game.gate_open(
                &Gate::Near {
                    tile: GateTile::Local(0),
                    kind: Some(0),
                    d: 1,
                    occupied: true,
                },
                &unplaced
            ));
        }
        // Judged in full: the same games, for more work.
        let full = rules(&["base"], Some(BOARD_GATED)).without_gates();
        let less_work = same_games_for_less_work(&gated, &Arc::new(full), 4, "board gates");
        assert!(less_work, "a board gate passed a count over");
        // Before the event is queued, a board gate counts as open.
        let game = Game::new(gated.clone(), Setup::new(2).seed(1)).unwrap();
        let start = [Value::Tile(0)];
        let h = gated.handlers_of(EventKind::TilePlaced)[0];
        assert!(
            !game.gate_open(&gated.gates[h as usize][0], &start),
            "no monastery by the start tile"
        );
        assert!(game.ruled_out(h, &start, true));
        assert!(!game.ruled_out(h, &start, false));
    }

    /// Plays a game choosing at random with `seed`: the scores, the events
    /// and the evaluation work the game was charged.
    fn play(rules: &Arc<Rules>, players: usize, seed: u64) -> (Vec<i64>, Vec<String>, u64) {
        let mut game = Game::new(rules.clone(), Setup::new(players).seed(seed)).unwrap();
        game.set_logging(true);
        let mut rng = Rng::new(seed ^ 0x9a7e);
        while game.decision().is_some() {
            let options = game.options();
            game.apply(options[rng.below(options.len())]).unwrap();
        }
        (
            game.scores().to_vec(),
            game.log().iter().map(|e| format!("{e:?}")).collect(),
            game.budget.game_work(),
        )
    }

    /// Plays `seeds` games (2 to 4 players) of `gated` and of `full`, the
    /// same rules with no gates: asserts the same scores and events and no
    /// more evaluation work gated, and answers whether some game was
    /// charged less.
    fn same_games_for_less_work(gated: &Arc<Rules>, full: &Arc<Rules>, seeds: u64, what: &str) -> bool {
        let mut less_work = false;
        for seed in 0..seeds {
            let players = 2 + seed as usize % 3;
            let (with, without) = (play(gated, players, seed), play(full, players, seed));
            assert_eq!(with.0, without.0, "{what} seed {seed}");
            assert_eq!(with.1, without.1, "{what} seed {seed}");
            assert!(with.2 <= without.2, "{what} seed {seed}");
            less_work |= with.2 < without.2;
        }
        less_work
    }

    /// Gates change no game: games of every bundled pack with base, and of
    /// as many as load together, play the same events and scores with
    /// their gates as with every guard judged, and are charged no more
    /// evaluation work (less where a guard passed over counts; asking for
    /// an icon is not charged).
    #[test]
    fn gated_games_are_the_games_judged_in_full() {
        let (mut gated_sets, mut less_work) = (0, false);
        for set in test_sets(|names| rules_of(names).is_ok()) {
            let gated = Arc::new(rules_of(&set).unwrap());
            if gated.gates.iter().all(|g| g.is_empty()) && gated.residuals.iter().all(Option::is_none) {
                continue;
            }
            gated_sets += 1;
            let full = rules_of(&set).unwrap().without_gates();
            less_work |= same_games_for_less_work(&gated, &Arc::new(full), 3, &format!("{set:?}"));
        }
        assert!(gated_sets >= 3, "bundled packs have gated guards");
        assert!(less_work, "some gated guard counts");
    }

    /// An event's gates judged where it fires (`Game::open_handlers`, for
    /// a `tile_placed` or `turn_end` whose task runs next: those on the
    /// type of its tile, or of `placed_tile`, looked up in one table,
    /// `Rules::type_gates`, the others judged one by one with the table's
    /// passed over) pass over the same handlers as gates judged with the
    /// guards. Packs whose handlers have, in turn, a tile gate, a tile and
    /// an occupied gate, and a near gate play the games they play with no
    /// gates, with 9 handlers (a bit each in the task) and with 70 (more
    /// than the task's bits: those past 64 judged with their guards); so
    /// do packs with an ungated handler among them (every gate then judged
    /// with its guard), and packs whose gates all read the board (no
    /// table: each handler's gates judged in turn). Each handler pays its
    /// own number of points, so a handler passed over that should run, or
    /// run that should not, changes the scores.
    #[test]
    fn gates_judged_where_an_event_fires_pass_over_the_same_handlers() {
        let guards = [
            "count(f in T.features where f.kind == road) > 0",
            "count(f in T.features where f.kind == city and busy(f)) > 0",
            "count(m in features where m.kind == monastery and distance(m.tile, T) == 1) > 0",
            "n >= 1",
            "count(f in T.features where busy(f)) > 0",
        ];
        // The guards each pack's handlers take in turn, and whether the
        // event has a table of gates on its tile's type.
        let mixes: [(&[usize], bool); 3] = [(&[0, 1, 2], true), (&[0, 1, 2, 3], true), (&[2, 4], false)];
        // The event, as written, and the tile its guards read.
        let events = [
            (EventKind::TilePlaced, "tile_placed(t)", "t"),
            (EventKind::TurnEnd, "turn_end", "placed_tile"),
        ];
        for (event, on, tile) in events {
            for n in [9, 70] {
                for (mix, typed) in mixes {
                    let mut text = String::from(
                        "pack gates\nlanguage 1\nrequires base\nvar game n: int = 0\n\
                         fn busy(f: feature) = count(p in f.owners) > 0\n",
                    );
                    for i in 0..n {
                        let guard = guards[mix[i % mix.len()]].replace('T', tile);
                        text += &format!(
                            "on {on} when {guard} {{\n  score {} to current_player reason \"h\"\n  set n = {}\n}}\n",
                            i + 1,
                            i % 3
                        );
                    }
                    let what = format!("{on}: {n} handlers, guards {mix:?}");
                    let gated = Arc::new(rules(&["base"], Some(&text)));
                    let gates = gates_of(&gated, event);
                    assert_eq!(gates.len(), n);
                    assert_eq!(gates.iter().all(|g| !g.is_empty()), !mix.contains(&3), "{what}");
                    let table = gated.type_gates[event.index()].as_ref();
                    assert_eq!(table.is_some(), typed && n <= 64, "{what}");
                    let full = rules(&["base"], Some(&text)).without_gates();
                    let less_work = same_games_for_less_work(&gated, &Arc::new(full), 6, &what);
                    assert!(less_work, "{what}: a gate passed a count over");
                }
            }
        }
    }

    /// An open gate lets through exactly the tiles and features its type
    /// or kind table marks: on the start tile, a feature gate opens for
    /// its city and not its road or fields, a tile gate for an icon stays
    /// shut, and a gate whose argument is not there stays open.
    #[test]
    fn gates_open_by_the_arguments_type_or_kind() {
        let text = "pack gates\nlanguage 1\nrequires base\nicon bell\n\
            on feature_completed(c) when c.kind == city { }\n\
            on tile_placed(t) when t.has_icon(bell) { }\n";
        let rules = Arc::new(rules(&["base"], Some(text)));
        let game = Game::new(rules.clone(), Setup::new(2).seed(1)).unwrap();
        let only = |event| match gates_of(&rules, event).as_slice() {
            [[gate]] => gate,
            other => panic!("{other:?}"),
        };
        let (city, bell) = (only(EventKind::FeatureCompleted), only(EventKind::TilePlaced));
        let start = &rules.pack.tiles[game.state.board().placed[0].tile as usize];
        let mut kinds = Vec::new();
        for (seg, segment) in start.segments.iter().enumerate() {
            let feature = Value::Feature(game.feature_of(PlacedId(0), seg as u8));
            let kind = rules.pack.kinds[segment.kind as usize].name.as_str();
            assert_eq!(
                game.gate_open(city, std::slice::from_ref(&feature)),
                kind == "city",
                "{kind}"
            );
            // A tile gate asks nothing of a feature.
            assert!(game.gate_open(bell, &[feature]));
            kinds.push(kind);
        }
        assert!(kinds.contains(&"city") && kinds.contains(&"road"), "{kinds:?}");
        assert!(!game.gate_open(bell, &[Value::Tile(0)]));
        assert!(game.gate_open(bell, &[Value::Tile(7)]), "no tile 7 is placed");
        assert!(game.gate_open(city, &[]));
    }

    /// Calls that branch in every function called are looked into only as
    /// far as the pack's gate work allows, so such a pack loads at once
    /// (its games are another matter: the evaluation budget stops them).
    #[test]
    fn gating_a_branching_call_chain_is_bounded() {
        let mut text = String::from("pack gates\nlanguage 1\nrequires base\nicon bell\nvar game n: int = 0\n");
        text += "fn g0(t: tile) = t.has_icon(bell)\n";
        // Five levels of twelve calls: as many as the checker allows.
        for i in 1..=5 {
            let calls = vec![format!("g{}(t)", i - 1); 12].join(" or ");
            text += &format!("fn g{i}(t: tile) = {calls}\n");
        }
        text += "on tile_placed(t) when g5(t) { set n = 1 }\n";
        text += "on tile_placed(t) when t.has_icon(bell) { set n = 2 }\n";
        let rules = Arc::new(rules(&["base"], Some(&text)));
        // The work ran out on the first guard (closed only for the tile
        // types judged before that), before the second was gated.
        let placed = gates_of(&rules, EventKind::TilePlaced);
        assert!(placed[1].is_empty(), "{:?}", placed[1]);
        match placed[0] {
            [Gate::Tile { open, .. }] => assert!(open.contains(&true) && open.contains(&false), "{open:?}"),
            other => panic!("{other:?}"),
        }
    }
}
