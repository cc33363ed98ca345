//! A rule pack prepared for play: every tile type's geometry precomputed for
//! each of its distinct rotations, so placement checks are table lookups.

use super::gate::{self, Gate, GateTile, Residual};
use super::ids::Rotation;
use crate::ir::geometry::Bits;
use crate::ir::program::{EventKind, ForbidWhat, Merge, VarScope, Window, EVENTS};
use crate::ir::{ActionId, CardId, KindId, RulePack, TileId};
use std::any::Any;
use std::sync::{Arc, OnceLock};

/// No segment: the value in [`Rotated::edge_seg`] and [`Rotated::half_seg`].
pub const NONE: u8 = u8::MAX;

/// Marks an edge signature made of half-edge kinds.
pub const HALVES: u16 = 0x8000;

/// The half-edges of each board edge, west before east and north before south.
const HALVES_IN_ORDER: [(usize, usize); 4] = [(0, 1), (2, 3), (5, 4), (7, 6)];

/// The kinds (+1, 0 for none) of a half-edge signature's two halves.
pub fn half_kinds(sig: u16) -> (u16, u16) {
    ((sig >> 7) & 0x7f, sig & 0x7f)
}

/// A tile type turned by some quarter turns, in board directions.
#[derive(Clone, Debug)]
pub struct Rotated {
    /// What each board edge shows, for matching neighbours: `kind + 1` for
    /// an edge a city or road reaches; otherwise `0x8000` with the kinds
    /// (+1) of its two halves, west before east and north before south, so
    /// facing edges of matching tiles carry equal signatures.
    pub sig: [u16; 4],
    /// `sig` packed into one word, edge `e` in bits `16e..16e+16`.
    pub packed: u64,
    /// The segment reaching each board edge (edge-connected kinds), or `u8::MAX`.
    pub edge_seg: [u8; 4],
    /// The segment owning each board half-edge, or `u8::MAX`.
    pub half_seg: [u8; 8],
    /// Each segment's edges in board directions.
    pub seg_edges: Vec<Bits>,
    /// Each segment's half-edges in board directions.
    pub seg_halves: Vec<Bits>,
}

/// A checked rule pack with the tables the engine plays from.
#[derive(Debug)]
pub struct Rules {
    pub(crate) pack: RulePack,
    /// `rotated[tile][quarters]`, for all four rotations.
    pub(crate) rotated: Vec<[Rotated; 4]>,
    /// The rotations that give different layouts; a
    /// symmetric tile offers each distinct placement once.
    pub(crate) distinct_rotations: Vec<Vec<Rotation>>,
    /// Handlers listening to each event (by [`EventKind::index`]), in order.
    pub(crate) listeners: Vec<Vec<u16>>,
    /// By event: whether every handler of it has a guard with a gate, so
    /// that the gates alone may rule them all out (`Game::unheard`).
    pub(crate) all_gated: Vec<bool>,
    /// By handler: the tile types and feature kinds for which its `when`
    /// may hold ([`Gate`]); empty for most.
    pub(super) gates: Vec<Box<[Gate]>>,
    /// By event with at most 64 handlers, one or more of them gated by the
    /// type of the tile the event hands them first: those gates as one
    /// table ([`TypeGates`]).
    pub(super) type_gates: Vec<Option<TypeGates>>,
    /// By handler: its guard less the conjuncts the type of a tile it
    /// reads decides true, for the types that decide some ([`Residual`]).
    pub(super) residuals: Vec<Option<Residual>>,
    /// For each variable: its index among the variables of its scope.
    pub(crate) var_index: Vec<usize>,
    /// Feature variables' merge policies and start values, by index.
    pub(crate) feature_merges: Vec<Merge>,
    pub(crate) feature_var_init: Vec<i64>,
    /// Player variables' start values, by index.
    pub(crate) player_var_init: Vec<i64>,
    /// The actions offered in each window, in the program's order, each
    /// with the card it needs held (a card's play), if any.
    window_actions: [WindowActions; 2],
    /// Whether draws follow stacks: the pack has several stacks or a tile
    /// pinned `last`. Without, a draw is one pick from the whole stack.
    pub(crate) stacked: bool,
    /// Whether the packs have `forbid placement` / `forbid deployment`
    /// rules; without, no candidate is judged, so options cost as before.
    pub(crate) forbids_placement: bool,
    pub(crate) forbids_deployment: bool,
    /// For each tile type, the kinds of its segments as bits ([`kind_bit`]),
    /// so a scan for features of one kind passes over tiles without one.
    pub(crate) tile_kinds: Vec<u64>,
    /// The kinds (bits as in `tile_kinds`) that a near gate of one kind
    /// asks for (`Gate::Near`): the board lists the tiles with a segment of
    /// one of them as they are placed (`Board::near`).
    pub(crate) near_kinds: u64,
    /// Each deck's draw pile at the start of a game, its cards in the order
    /// the packs list them (made once; each game copies them).
    pub(crate) start_piles: Vec<Vec<CardId>>,
    /// How many tiles the set has ([`RulePack::tile_count`], counted once:
    /// the game's evaluation budget is made of it, `Compiled::game_eval_budget`).
    pub(crate) tile_count: u64,
    /// What the layers above derive from these rules once and share among
    /// their games (the compiled expressions of `compile.rs`), kept here
    /// as `Any` so that this module names nothing above it.
    pub(crate) derived: OnceLock<Arc<dyn Any + Send + Sync>>,
}

/// A kind's bit in [`Rules::tile_kinds`]: kinds from 63 on share the last.
pub(crate) fn kind_bit(k: KindId) -> u64 {
    1 << k.min(63)
}

/// The actions of one window, in the program's order, each with the card
/// it needs held (a card's play), if any; and, for a window of at most 64
/// actions, which of them a hand offers found by the hand's cards alone:
/// the places (bits) of the actions that need no card, and of each card's
/// plays. A decision's options look only at those, in order, rather than
/// asking of every card's play whether its card is held.
#[derive(Debug)]
pub(crate) struct WindowActions {
    list: Vec<(ActionId, Option<CardId>)>,
    /// The places of the actions that need no card.
    free: u64,
    /// For each card of the program, the places of its plays.
    plays: Box<[u64]>,
    /// Whether some action of the window is a card's play: if none is, a
    /// hand offers nothing more than the free actions, and is not read.
    card_plays: bool,
}

impl WindowActions {
    fn new(list: Vec<(ActionId, Option<CardId>)>, cards: usize) -> WindowActions {
        let mut free = 0;
        let mut plays = vec![0u64; cards].into_boxed_slice();
        for (i, &(_, card)) in list.iter().enumerate().take(64) {
            match card.and_then(|c| plays.get_mut(usize::from(c))) {
                Some(bits) => *bits |= 1 << i,
                None if card.is_none() => free |= 1 << i,
                None => {}
            }
        }
        let card_plays = list.iter().any(|(_, card)| card.is_some());
        WindowActions {
            list,
            free,
            plays,
            card_plays,
        }
    }

    /// The actions, in the program's order, each with the card it needs.
    pub(crate) fn list(&self) -> &[(ActionId, Option<CardId>)] {
        &self.list
    }

    /// The places in [`WindowActions::list`] of the actions a player holding
    /// `hand` is offered a look at (those that need no card, and the plays
    /// of the cards held), as bits; `None` for a window of more than 64
    /// actions, whose cards are looked for in the hand one by one. The hand
    /// is read only when some action of the window is a card's play.
    #[inline]
    pub(crate) fn offered<'h>(&self, hand: impl FnOnce() -> &'h [CardId]) -> Option<u64> {
        if self.list.len() > 64 {
            return None;
        }
        if !self.card_plays {
            return Some(self.free);
        }
        Some(hand().iter().fold(self.free, |bits, &c| {
            bits | self.plays.get(usize::from(c)).copied().unwrap_or(0)
        }))
    }
}

impl Rules {
    /// The checked rule pack being played.
    pub fn pack(&self) -> &RulePack {
        &self.pack
    }

    /// Prepares a pack for play.
    pub fn new(pack: RulePack) -> Rules {
        let rotated: Vec<[Rotated; 4]> = (0..pack.tiles.len())
            .map(|t| std::array::from_fn(|q| rotate(&pack, t as TileId, q as u8)))
            .collect();
        let distinct_rotations = (0..pack.tiles.len())
            .map(|t| {
                let mut keys: Vec<Vec<[u64; 5]>> = Vec::new();
                let mut distinct = Vec::new();
                for q in 0..4u8 {
                    let key = layout_key(&pack, t as TileId, &rotated[t][q as usize], q);
                    if !keys.contains(&key) {
                        keys.push(key);
                        distinct.push(Rotation::wrapping(q));
                    }
                }
                distinct
            })
            .collect();
        let program = &pack.program;
        let listeners: Vec<Vec<u16>> = EVENTS
            .iter()
            .map(|e| program.handlers_for(e.kind).map(|(i, _)| i as u16).collect())
            .collect();
        let gate_work = std::cell::Cell::new(gate::GATE_WORK);
        let gates: Vec<Box<[Gate]>> = program
            .handlers
            .iter()
            .map(|h| {
                h.when
                    .as_ref()
                    .map_or_else(Vec::new, |e| gate::gates(&pack, e, &gate_work))
                    .into()
            })
            .collect();
        let residuals = program
            .handlers
            .iter()
            .map(|h| h.when.as_ref().and_then(|e| gate::residual(&pack, e, &gate_work)))
            .collect();
        let all_gated = listeners
            .iter()
            .map(|hs| !hs.is_empty() && hs.iter().all(|&h| !gates[h as usize].is_empty()))
            .collect();
        let type_gates = listeners
            .iter()
            .map(|hs| TypeGates::of(hs, &gates, pack.tiles.len()))
            .collect();
        let near_kinds = gates.iter().flat_map(|g| g.iter()).fold(0, |bits, g| match g {
            Gate::Near { kind: Some(k), .. } => bits | kind_bit(*k),
            _ => bits,
        });
        let mut var_index = Vec::with_capacity(program.vars.len());
        let (mut feature_merges, mut feature_var_init, mut player_var_init) = (Vec::new(), Vec::new(), Vec::new());
        for var in &program.vars {
            let start = match var.init {
                Some(crate::ir::expr::Expr::Int(n)) => n,
                Some(crate::ir::expr::Expr::Bool(b)) => i64::from(b),
                _ => 0,
            };
            match var.scope {
                VarScope::Game => var_index.push(0),
                VarScope::Player => {
                    var_index.push(player_var_init.len());
                    player_var_init.push(start);
                }
                VarScope::Feature => {
                    var_index.push(feature_merges.len());
                    feature_merges.push(var.merge);
                    feature_var_init.push(start);
                }
            }
        }
        let window_actions = [Window::BeforePlace, Window::Deploy].map(|w| {
            WindowActions::new(
                (0..program.actions.len())
                    .filter(|&a| program.actions[a].window == w)
                    .map(|a| (a as ActionId, program.actions[a].card))
                    .collect(),
                program.cards.len(),
            )
        });
        let stacked = pack.stacks.len() > 1 || pack.tiles.iter().any(|t| t.last);
        let forbids_placement = program.forbids.iter().any(|f| f.what == ForbidWhat::Placement);
        let forbids_deployment = program.forbids.iter().any(|f| f.what != ForbidWhat::Placement);
        let tile_kinds = pack
            .tiles
            .iter()
            .map(|t| t.segments.iter().fold(0, |bits, s| bits | kind_bit(s.kind)))
            .collect();
        let mut start_piles = vec![Vec::new(); program.decks.len()];
        for (c, card) in program.cards.iter().enumerate() {
            start_piles[card.deck as usize].extend(std::iter::repeat_n(c as CardId, card.count as usize));
        }
        Rules {
            start_piles,
            tile_kinds,
            near_kinds,
            tile_count: u64::from(pack.tile_count()),
            stacked,
            forbids_placement,
            forbids_deployment,
            pack,
            rotated,
            distinct_rotations,
            listeners,
            all_gated,
            gates,
            type_gates,
            residuals,
            var_index,
            feature_merges,
            feature_var_init,
            player_var_init,
            window_actions,
            derived: OnceLock::new(),
        }
    }

    /// A tile type turned by `rot`: what each board edge shows and which
    /// segment reaches it; `None` for a tile type the pack does not have.
    pub fn rotated(&self, tile: TileId, rot: Rotation) -> Option<&Rotated> {
        Some(&self.rotated.get(tile as usize)?[rot.index()])
    }

    /// The rotations of a tile type that look different,
    /// so a symmetric tile is offered once per distinct placement; empty for
    /// a tile type the pack does not have.
    pub fn distinct_rotations(&self, tile: TileId) -> &[Rotation] {
        self.distinct_rotations.get(tile as usize).map_or(&[], Vec::as_slice)
    }

    /// The actions offered in `window`, in the program's order, each with
    /// the card it needs held, if any.
    pub(crate) fn actions_in(&self, window: Window) -> &WindowActions {
        &self.window_actions[window as usize]
    }

    /// The handlers of an event.
    pub(crate) fn handlers_of(&self, event: EventKind) -> &[u16] {
        &self.listeners[event.index()]
    }

    /// Whether every handler of an event (it has some) has a guard with a gate.
    pub(crate) fn all_gated(&self, event: EventKind) -> bool {
        self.all_gated[event.index()]
    }

    /// The same rules with no gates: every guard judged whole on every event.
    #[cfg(test)]
    pub(super) fn without_gates(mut self) -> Rules {
        self.gates.iter_mut().for_each(|g| *g = Box::new([]));
        self.type_gates.iter_mut().for_each(|t| *t = None);
        self.residuals.iter_mut().for_each(|r| *r = None);
        self.all_gated.iter_mut().for_each(|g| *g = false);
        self.near_kinds = 0;
        self
    }
}

fn rotate(pack: &RulePack, tile: TileId, quarters: u8) -> Rotated {
    let t = &pack.tiles[tile as usize];
    let mut r = Rotated {
        sig: [0; 4],
        packed: 0,
        edge_seg: [NONE; 4],
        half_seg: [NONE; 8],
        seg_edges: Vec::with_capacity(t.segments.len()),
        seg_halves: Vec::with_capacity(t.segments.len()),
    };
    for (i, seg) in t.segments.iter().enumerate() {
        let edges = seg.edges.rotate_edges(quarters);
        let halves = seg.half_edges.rotate_half_edges(quarters);
        for e in edges.iter() {
            r.edge_seg[e as usize] = i as u8;
            r.sig[e as usize] = seg.kind + 1;
        }
        for h in halves.iter() {
            r.half_seg[h as usize] = i as u8;
        }
        r.seg_edges.push(edges);
        r.seg_halves.push(halves);
    }
    for (e, (first, second)) in HALVES_IN_ORDER.iter().enumerate() {
        if r.edge_seg[e] != NONE {
            continue;
        }
        let kind = |h: usize| match r.half_seg[h] {
            NONE => 0,
            s => t.segments[s as usize].kind + 1,
        };
        let (a, b) = (kind(*first), kind(*second));
        if (a, b) != (0, 0) {
            r.sig[e] = HALVES | (a << 7) | b;
        }
    }
    r.packed = r.sig.iter().enumerate().map(|(e, s)| u64::from(*s) << (16 * e)).sum();
    r
}

/// A value equal for two rotations exactly when they place the same layout:
/// each segment's kind, board edges, board half-edges, markers and touched
/// segments, plus compass icons (which turn with the tile).
fn layout_key(pack: &RulePack, tile: TileId, r: &Rotated, quarters: u8) -> Vec<[u64; 5]> {
    let t = &pack.tiles[tile as usize];
    let place = |i: usize| u64::from(r.seg_edges[i].0) | u64::from(r.seg_halves[i].0) << 8;
    let mut key: Vec<[u64; 5]> = t
        .segments
        .iter()
        .enumerate()
        .map(|(i, seg)| {
            let mut markers: Vec<u16> = seg.markers.clone();
            markers.sort_unstable();
            let mut touched: Vec<u64> = seg.touches.iter().map(|&o| place(o as usize)).collect();
            touched.sort_unstable();
            let digest = |v: &[u64]| {
                v.iter()
                    .fold(0u64, |a, x| a.wrapping_mul(1_000_003).wrapping_add(x + 1))
            };
            [
                u64::from(seg.kind),
                place(i),
                digest(&touched),
                digest(&markers.iter().map(|m| u64::from(*m)).collect::<Vec<_>>()),
                0,
            ]
        })
        .collect();
    key.sort_unstable();
    for icon in &t.icons {
        if let Some(v) = icon.value {
            key.push([u64::MAX, u64::from(icon.icon), u64::from((v + 2 * quarters) % 8), 0, 0]);
        }
    }
    key
}

/// The gates of an event's handlers on the type of one tile (the tile the
/// first such gate reads: the event's tile argument, or `placed_tile`), as
/// one table: an event whose task runs next looks up which of them are open
/// with no look at each (`Game::open_handlers`).
#[derive(Debug)]
pub(super) struct TypeGates {
    /// The tile whose type the table is looked up by.
    pub tile: GateTile,
    /// By tile type: the handlers (a bit each, by their place among the
    /// event's) that no such gate rules out for that type.
    pub open: Box<[u64]>,
    /// The handlers with another gate, judged one by one
    /// (`Game::ruled_out_past`, which passes over the table's gates).
    pub other: u64,
}

impl TypeGates {
    /// The table of handlers `hs` (by handler, their gates `gates`), for
    /// `types` tile types; `None` when none has a gate on a tile's type,
    /// or there are more than 64 handlers.
    fn of(hs: &[u16], gates: &[Box<[Gate]>], types: usize) -> Option<TypeGates> {
        if hs.len() > 64 {
            return None;
        }
        let tile = hs
            .iter()
            .flat_map(|&h| gates[h as usize].iter())
            .find_map(|g| match g {
                Gate::Tile { tile, .. } => Some(*tile),
                _ => None,
            })?;
        let mut open = vec![0u64; types];
        let mut other = 0;
        for (i, &h) in hs.iter().enumerate() {
            let gates = &gates[h as usize];
            if gates.iter().any(|g| g.on_type_of(tile).is_none()) {
                other |= 1 << i;
            }
            for (t, bits) in open.iter_mut().enumerate() {
                let shut = gates
                    .iter()
                    .filter_map(|g| g.on_type_of(tile))
                    .any(|open| !open.get(t).copied().unwrap_or(true));
                if !shut {
                    *bits |= 1 << i;
                }
            }
        }
        Some(TypeGates {
            tile,
            open: open.into(),
            other,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{load, PackRef};

    /// A hand is offered a look at the actions that need no card and at
    /// the plays of the cards it holds, each once and at its place in the
    /// window's order; a window of more than 64 actions says none, and its
    /// cards are looked for in the hand.
    #[test]
    fn a_hand_is_offered_the_free_actions_and_its_cards_plays() {
        // Actions 0..6: free, card 2, card 0, free, card 2, card 5 (card 5
        // is not a card of the program, which has 4: never offered).
        let list = vec![
            (0, None),
            (1, Some(2)),
            (2, Some(0)),
            (3, None),
            (4, Some(2)),
            (5, Some(5)),
        ];
        let window = WindowActions::new(list.clone(), 4);
        let places = |hand: &[CardId]| {
            let bits = window.offered(|| hand).unwrap();
            (0..64).filter(|i| bits & (1 << i) != 0).collect::<Vec<_>>()
        };
        let expected = |hand: &[CardId]| {
            (0..list.len())
                .filter(|&i| list[i].1.is_none_or(|c| usize::from(c) < 4 && hand.contains(&c)))
                .collect::<Vec<_>>()
        };
        for hand in [&[][..], &[2], &[2, 2], &[0, 3], &[3], &[5], &[1, 0, 2], &[9]] {
            assert_eq!(places(hand), expected(hand), "hand {hand:?}");
        }
        assert_eq!(places(&[0, 2]), [0, 1, 2, 3, 4]);
        let long: Vec<_> = (0..65).map(|a| (a, Some(0))).collect();
        assert_eq!(WindowActions::new(long, 1).offered(|| &[0]), None);
        let full: Vec<_> = (0..64).map(|a| (a, if a == 63 { Some(1) } else { None })).collect();
        assert_eq!(WindowActions::new(full, 2).offered(|| &[1]), Some(u64::MAX));
        assert_eq!(
            WindowActions::new((0..64).map(|a| (a, Some(1))).collect(), 2).offered(|| &[]),
            Some(0)
        );
        // A window without card plays offers its free actions and never
        // reads the hand.
        let free = WindowActions::new(vec![(0, None), (1, None)], 3);
        assert_eq!(
            free.offered(|| unreachable!("no card's play: the hand is not read")),
            Some(0b11)
        );
    }

    /// An event's table of gates on a tile's type is made for the tile the
    /// first such gate reads; each handler's bit is open for the types none
    /// of its gates on that tile shuts, and a handler with any other gate
    /// (on another tile, on a feature's kind) is marked to be judged apart.
    #[test]
    fn a_type_table_is_made_for_the_tile_the_first_gate_reads() {
        let on = |tile, open: [bool; 3]| Gate::Tile {
            tile,
            open: open.into(),
        };
        let kind = || Gate::Kind {
            slot: 0,
            open: [true].into(),
        };
        let (placed, local) = (GateTile::Placed, GateTile::Local(0));
        let mut gates: Vec<Box<[Gate]>> = (0..8).map(|_| Box::from([])).collect();
        // By place among the event's handlers (handler ids 7, 2, 4, 0, 6, 1):
        // none; a kind; placed open for 0 and 2; the event's tile; placed
        // open for 0 and 1 with the event's tile; placed twice (0 only).
        gates[2] = [kind()].into();
        gates[4] = [on(placed, [true, false, true])].into();
        gates[0] = [on(local, [false, true, false])].into();
        gates[6] = [on(placed, [true, true, false]), on(local, [false, false, true])].into();
        gates[1] = [on(placed, [true, false, true]), on(placed, [true, true, false])].into();
        let hs = [7, 2, 4, 0, 6, 1];
        let table = TypeGates::of(&hs, &gates, 3).unwrap();
        assert_eq!(table.tile, placed);
        assert_eq!(&*table.open, &[0b111111, 0b011011, 0b001111]);
        assert_eq!(table.other, 0b011010);
        // The event's tile read first: the table is its.
        let table = TypeGates::of(&[0, 6, 4], &gates, 3).unwrap();
        assert_eq!(table.tile, local);
        assert_eq!(&*table.open, &[0b100, 0b101, 0b110]);
        assert_eq!(table.other, 0b110);
        // No gate on a tile's type, or more than 64 handlers: no table.
        assert!(TypeGates::of(&[7, 2], &gates, 3).is_none());
        assert!(TypeGates::of(&[4; 65], &gates, 3).is_none());
    }

    #[test]
    fn symmetric_tiles_offer_fewer_rotations() {
        let rules = Rules::new(load(&[PackRef::Bundled("base".into())]).unwrap());
        let n = |name: &str| rules.distinct_rotations[rules.pack.tile(name).unwrap() as usize].len();
        assert_eq!(n("B"), 1); // monastery in a field
        assert_eq!(n("C"), 1); // city on all sides
        assert_eq!(n("X"), 1); // crossroads
        assert_eq!(n("U"), 2); // straight road
        assert_eq!(n("H"), 2); // two opposite cities
        assert_eq!(n("D"), 4);
        assert_eq!(n("V"), 4);
    }

    #[test]
    fn fields_and_ponds_do_not_match() {
        let text = "pack ponds\nrequires base\nfeature pond connects half_edges { score final = tiles }\n\
                    tile POND x1 { pond N E S W }\ntile FF x1 { field N E S W }\n";
        let pack = load(&[PackRef::Text {
            name: "ponds.rules".into(),
            text: text.into(),
        }])
        .unwrap();
        let rules = Rules::new(pack);
        let (l, f, u) = (
            rules.pack.tile("POND").unwrap(),
            rules.pack.tile("FF").unwrap(),
            rules.pack.tile("U").unwrap(),
        );
        // Any rotation: a pond edge never shows what a field edge shows.
        for q in 0..4 {
            for e in 0..4 {
                assert_ne!(rules.rotated[l as usize][q].sig[e], rules.rotated[f as usize][0].sig[e]);
            }
        }
        // A straight road's field edges (N and S) look like a field tile's.
        assert_eq!(rules.rotated[u as usize][0].sig[0], rules.rotated[f as usize][0].sig[2]);
    }

    #[test]
    fn rotation_moves_edges_clockwise() {
        let rules = Rules::new(load(&[PackRef::Bundled("base".into())]).unwrap());
        let d = rules.pack.tile("D").unwrap() as usize;
        let city = rules.pack.kind("city").unwrap() + 1;
        assert_eq!(rules.rotated[d][0].sig[0], city);
        assert_eq!(rules.rotated[d][1].sig[1], city); // 90°: the city faces east
        assert_eq!(rules.rotated[d][1].sig[0], rules.pack.kind("road").unwrap() + 1);
    }
}
