//! The feature graph: every segment of every placed tile is a node; nodes of
//! one feature are joined by union-find, every node pointing straight at its
//! root: a union by rank points the joined side's members, found on its
//! member list, at the new root (a node moves only to a root of higher rank,
//! so at most log2(nodes) times in a game). Each root carries what completion
//! checks need without a walk (open edges, the number of figures on it); the
//! members of a feature form a circular list, so scoring can visit them.

use super::ids::{PlacedId, MAX_PLAYERS};
use crate::ir::program::Merge;
use crate::ir::KindId;

/// A feature, named by its root node.
pub type FeatureId = u32;

/// One segment of a placed tile.
#[derive(Clone, Copy, Debug)]
struct Node {
    parent: u32,
    /// Next member of the same feature (a circular list).
    next: u32,
    /// Index of the placed tile.
    placed: PlacedId,
    /// Segment index on its tile.
    seg: u8,
    /// The union's rank (below [`DONE`]; at most log2 of the nodes), and
    /// at roots [`DONE`] once the feature was completed and scored: one
    /// byte, so that a node with its standings' row is no larger.
    rank_done: u8,
    /// At roots: edges or half-edges that face an empty square.
    open: u16,
    /// At roots: figures on the board standing on the feature.
    figures: u32,
    kind: KindId,
    /// At roots: the players' standings' row in `Features::standing`,
    /// counted from 1; 0 while no figure of a player has stood on the
    /// feature and no bonus was given there (all standings 0).
    row: u32,
}

/// A player's standing on a feature: what their majority there counts.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Standing {
    /// The summed weights of the player's figures standing on the feature,
    /// kept up to date on every figure move and union, so majorities are
    /// known without a look at the figures (the checker allows at most 1000
    /// figures of a type, each of weight at most 100: far within a `u32`).
    pub followers: u32,
    /// The player's majority bonus there (`strengthen`).
    pub bonus: i16,
    /// How many of the player's figures (of every type, followers or not)
    /// stand on the feature, modulo 2^16: exact while the feature holds
    /// fewer figures than that (each count is at most the feature's
    /// [`Features::figure_count`]), so a count of the feature's figures by
    /// owner needs no look at them.
    pub figures: u16,
}

/// All features on the board.
#[derive(Debug, Default)]
pub struct Features {
    nodes: Vec<Node>,
    /// Feature variables: `vars[node * stride + k]`, meaningful at roots.
    vars: Vec<i64>,
    stride: usize,
    /// Each player's standing on a feature: for a root whose `row` is `r`,
    /// `standing[(r - 1) * players + p]` (one table, so a copy allocates it
    /// once). Only features where a player's figure has stood, or a bonus
    /// was given, have a row, taken then: most features never hold one, and
    /// a search copy copies the table at each look ahead (at 4 players a row
    /// for every segment was the larger part of a copy).
    standing: Vec<Standing>,
    players: usize,
    /// The roots of each kind, made at the first scan for the features of
    /// one kind and kept up to date from then on (a game whose rules never
    /// ask for the features of one kind never makes it).
    index: std::sync::OnceLock<RootIndex>,
}

/// The roots of each kind, as bits: bit `node % 64` of word
/// `(node / 64) * kinds + kind` is set while `node` is a root of `kind`,
/// so the features of one kind are found in ascending order without a
/// look at the other nodes ([`Features::roots_holding`]).
#[derive(Clone, Debug, Default)]
struct RootIndex {
    bits: Vec<u64>,
    /// More than the highest kind of a node.
    kinds: usize,
}

impl RootIndex {
    /// The index of `nodes` as they are, with room for `room` nodes.
    fn of(nodes: &[Node], room: usize) -> RootIndex {
        let kinds = nodes.iter().map(|n| usize::from(n.kind) + 1).max().unwrap_or(0);
        // With room for the nodes the graph has room for, so that the
        // index does not grow as the game goes on.
        let mut bits = Vec::with_capacity(room.max(nodes.len()).div_ceil(64) * kinds);
        bits.resize(nodes.len().div_ceil(64) * kinds, 0);
        let mut index = RootIndex { bits, kinds };
        for (i, n) in nodes.iter().enumerate().filter(|(i, n)| n.parent == *i as u32) {
            index.bits[root_word(i as u32, n.kind, kinds)] |= root_bit(i as u32);
        }
        index
    }
}

/// Segments a copy has room for beyond the original's without growing: a
/// look-ahead copy places a tile or two (a tile has at most a dozen
/// segments), and growing a table copies all of it again.
const COPY_ROOM: usize = 24;

/// The bit of [`Node::rank_done`] set at the root of a completed and
/// scored feature.
const DONE: u8 = 0x80;

// A node with its standings' row is as large as one was before without it.
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Node>() == 24);

/// Rows of standings a copy has room for beyond the original's: a
/// look-ahead copy's deployment or rule takes a row or two.
const COPY_ROWS: usize = 4;

/// The standings of a feature without a row: every player's nothing.
static NO_STANDINGS: [Standing; MAX_PLAYERS] = [Standing {
    followers: 0,
    bonus: 0,
    figures: 0,
}; MAX_PLAYERS];

/// A copy of `v` with room for `extra` more elements.
pub(crate) fn copy_with_room<T: Clone>(v: &[T], extra: usize) -> Vec<T> {
    let mut copy = Vec::with_capacity(v.len() + extra);
    copy.extend_from_slice(v);
    copy
}

impl Clone for Features {
    fn clone(&self) -> Features {
        Features {
            nodes: copy_with_room(&self.nodes, COPY_ROOM),
            vars: copy_with_room(&self.vars, COPY_ROOM * self.stride),
            stride: self.stride,
            standing: copy_with_room(&self.standing, COPY_ROWS * self.players),
            players: self.players,
            index: match self.index.get() {
                Some(index) => RootIndex {
                    bits: copy_with_room(&index.bits, COPY_ROOM.div_ceil(64) * index.kinds),
                    kinds: index.kinds,
                }
                .into(),
                None => std::sync::OnceLock::new(),
            },
        }
    }

    /// `source` copied into this graph's lists: no allocation where they
    /// have the room.
    fn clone_from(&mut self, source: &Features) {
        // Every field named: one added later must be copied here too.
        let Features {
            nodes,
            vars,
            stride,
            standing,
            players,
            index,
        } = self;
        nodes.clone_from(&source.nodes);
        vars.clone_from(&source.vars);
        *stride = source.stride;
        standing.clone_from(&source.standing);
        *players = source.players;
        match (source.index.get(), index.get_mut()) {
            (Some(from), Some(into)) => {
                into.bits.clone_from(&from.bits);
                into.kinds = from.kinds;
            }
            (Some(from), None) => *index = from.clone().into(),
            (None, _) => *index = std::sync::OnceLock::new(),
        }
    }
}

impl Features {
    /// A graph whose features carry `stride` variables and a majority bonus
    /// for each of `players` players.
    pub fn with_vars(stride: usize, players: usize) -> Features {
        debug_assert!(players <= MAX_PLAYERS, "a game has at most {MAX_PLAYERS} players");
        Features {
            stride,
            players,
            ..Features::default()
        }
    }

    /// Makes room for `nodes` more segments at once, so a game that
    /// knows its tile set does not grow the tables a step at a time.
    pub(crate) fn reserve(&mut self, nodes: usize) {
        self.nodes.reserve(nodes);
        self.vars.reserve(nodes * self.stride);
        // A segment takes at most one row in a game (as a root without
        // one; once joined to another feature it never takes one again), so
        // the rows never outgrow the room of the segments (a copy copies
        // only the rows taken).
        self.standing.reserve(nodes * self.players);
    }

    /// Adds to a player's majority bonus on a feature.
    pub fn strengthen(&mut self, f: FeatureId, player: usize, by: i64) {
        let root = self.find(f) as usize;
        if let Some(s) = self.standing_mut(root, player) {
            s.bonus = (i64::from(s.bonus) + by).clamp(i64::from(i16::MIN), i64::from(i16::MAX)) as i16;
        }
    }

    /// A player's standing on the feature of root `root`, its row taken
    /// first when it has none; `None` for a player the graph does not have.
    fn standing_mut(&mut self, root: usize, player: usize) -> Option<&mut Standing> {
        if player >= self.players {
            return None;
        }
        let mut row = self.nodes[root].row as usize;
        if row == 0 {
            // (Pushed, not resized: a resize of two or four entries calls memset.)
            for _ in 0..self.players {
                self.standing.push(Standing::default());
            }
            row = self.standing.len() / self.players;
            self.nodes[root].row = row as u32;
        }
        self.standing.get_mut((row - 1) * self.players + player)
    }

    /// Adds a segment as a feature of its own, its variables at `init`; returns its node.
    pub fn add(&mut self, placed: PlacedId, seg: u8, kind: KindId, open: u16, init: &[i64]) -> u32 {
        if self.stride > 0 {
            self.vars.extend_from_slice(&init[..self.stride]);
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(Node {
            parent: id,
            next: id,
            placed,
            seg,
            rank_done: 0,
            open,
            figures: 0,
            kind,
            row: 0,
        });
        if let Some(index) = self.index.get_mut() {
            if usize::from(kind) >= index.kinds {
                *index = RootIndex::of(&self.nodes, self.nodes.capacity());
            } else {
                if id % 64 == 0 {
                    index.bits.extend(std::iter::repeat_n(0, index.kinds));
                }
                index.bits[root_word(id, kind, index.kinds)] |= root_bit(id);
            }
        }
        id
    }

    /// Number of nodes (segments on the board).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Every feature (of `kind`, when given), by its root, in ascending
    /// order: read off the index of roots when a kind is given, else a scan
    /// of the nodes that judges nothing else.
    pub fn roots(&self, kind: Option<KindId>) -> impl Iterator<Item = FeatureId> + Clone + '_ {
        self.roots_holding(kind, false)
    }

    /// [`Features::roots`], and when `occupied` only the features with a
    /// figure on them.
    ///
    /// The roots of one kind are read off their bits in the graph's index
    /// of roots (made at the first such scan); of every kind, found by a
    /// scan of the nodes.
    pub fn roots_holding(&self, kind: Option<KindId>, occupied: bool) -> Roots<'_> {
        let kind = kind.map(|k| {
            (
                usize::from(k),
                self.index
                    .get_or_init(|| RootIndex::of(&self.nodes, self.nodes.capacity())),
            )
        });
        Roots {
            nodes: &self.nodes,
            // A kind no node has has no word, and no root.
            bits: kind
                .and_then(|(k, index)| index.bits.get(k).filter(|_| k < index.kinds))
                .copied()
                .unwrap_or(0),
            kind,
            occupied,
            chunk: 0,
            next: 0,
        }
    }

    /// Whether `node` is a feature's root (of `kind`, when given; with a
    /// figure on it, when `occupied`).
    pub fn is_root(&self, node: u32, kind: Option<KindId>, occupied: bool) -> bool {
        let n = &self.nodes[node as usize];
        n.parent == node && kind.is_none_or(|k| n.kind == k) && (!occupied || n.figures > 0)
    }

    /// The feature a node belongs to: every node points at its feature's
    /// root ([`Features::connect`] points a joined feature's members at
    /// their new root), so this is one look.
    pub fn find(&self, node: u32) -> FeatureId {
        let root = self.nodes[node as usize].parent;
        debug_assert_eq!(self.nodes[root as usize].parent, root, "node {node} points at a root");
        root
    }

    /// A feature variable.
    pub fn var(&self, f: FeatureId, k: usize) -> i64 {
        self.vars[self.find(f) as usize * self.stride + k]
    }

    /// Sets a feature variable.
    pub fn set_var(&mut self, f: FeatureId, k: usize, value: i64) {
        let root = self.find(f) as usize;
        self.vars[root * self.stride + k] = value;
    }

    /// Joins the features of `a` and `b` across an edge (or half-edge): each
    /// side loses the open edge they now share, and their variables merge.
    pub fn connect(&mut self, a: u32, b: u32, merges: &[Merge]) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            let n = &mut self.nodes[ra as usize];
            n.open = n.open.saturating_sub(2);
            return;
        }
        let open = (self.nodes[ra as usize].open + self.nodes[rb as usize].open).saturating_sub(2);
        let done = (self.nodes[ra as usize].rank_done | self.nodes[rb as usize].rank_done) & DONE;
        let figures = self.nodes[ra as usize].figures + self.nodes[rb as usize].figures;
        let rank = |n: u32| self.nodes[n as usize].rank_done & !DONE;
        let (root, child) = if rank(ra) >= rank(rb) { (ra, rb) } else { (rb, ra) };
        let raised = u8::from(rank(root) == rank(child));
        // (A rank is at most log2 of the nodes, far below the flag's bit.)
        debug_assert!(rank(root) + raised < DONE, "a rank stays below the done flag");
        self.nodes[root as usize].rank_done += raised;
        self.nodes[child as usize].parent = root;
        if let Some(index) = self.index.get_mut() {
            let kind = self.nodes[child as usize].kind;
            index.bits[root_word(child, kind, index.kinds)] &= !root_bit(child);
        }
        // Splice the two circular member lists.
        let root_next = self.nodes[root as usize].next;
        self.nodes[root as usize].next = self.nodes[child as usize].next;
        self.nodes[child as usize].next = root_next;
        // Every member of the child's feature (now from the root's next to
        // the child) points at the root: a find is one look.
        let mut n = self.nodes[root as usize].next;
        loop {
            self.nodes[n as usize].parent = root;
            if n == child {
                break;
            }
            n = self.nodes[n as usize].next;
        }
        let r = &mut self.nodes[root as usize];
        r.open = open;
        r.rank_done = (r.rank_done & !DONE) | done;
        r.figures = figures;
        // The child's standings join the root's: its row becomes the
        // root's when the root has none (the child's is read no more).
        match (
            self.nodes[root as usize].row as usize,
            self.nodes[child as usize].row as usize,
        ) {
            (_, 0) => {}
            (0, c) => self.nodes[root as usize].row = c as u32,
            (r, c) => {
                for p in 0..self.players {
                    let child = self.standing[(c - 1) * self.players + p];
                    let root = &mut self.standing[(r - 1) * self.players + p];
                    root.bonus = root.bonus.saturating_add(child.bonus);
                    root.followers = root.followers.saturating_add(child.followers);
                    root.figures = root.figures.wrapping_add(child.figures);
                }
            }
        }
        for (k, merge) in merges.iter().enumerate() {
            let (x, y) = (
                self.vars[root as usize * self.stride + k],
                self.vars[child as usize * self.stride + k],
            );
            self.vars[root as usize * self.stride + k] = match merge {
                Merge::Any => i64::from(x != 0 || y != 0),
                Merge::All => i64::from(x != 0 && y != 0),
                Merge::Sum => x.saturating_add(y),
                Merge::Max => x.max(y),
                Merge::Min => x.min(y),
            };
        }
    }

    /// Edges (or half-edges) of the feature facing an empty square.
    pub fn open(&self, f: FeatureId) -> u16 {
        self.nodes[f as usize].open
    }

    /// The feature's kind.
    pub fn kind(&self, f: FeatureId) -> KindId {
        self.nodes[f as usize].kind
    }

    /// How many figures on the board stand on the feature of `node`, kept
    /// up to date by the state's figure mutators, so a feature without
    /// figures is known as such without a look at the figures.
    pub(crate) fn figure_count(&self, node: u32) -> u32 {
        self.nodes[self.find(node) as usize].figures
    }

    /// A figure came to stand on the segment `node`; `owner` is its owner
    /// and its weight for that player's majority (0 for a figure that does
    /// not count there), `None` for a neutral figure.
    pub(crate) fn add_figure(&mut self, node: u32, owner: Option<(usize, u32)>) {
        let root = self.find(node) as usize;
        self.nodes[root].figures += 1;
        let Some((p, weight)) = owner else {
            return;
        };
        if let Some(s) = self.standing_mut(root, p) {
            s.followers = s.followers.saturating_add(weight);
            s.figures = s.figures.wrapping_add(1);
        }
    }

    /// A figure left the segment `node` (`owner` as it came).
    pub(crate) fn remove_figure(&mut self, node: u32, owner: Option<(usize, u32)>) {
        let root = self.find(node) as usize;
        debug_assert!(
            self.nodes[root].figures > 0,
            "a figure leaves only a feature it stands on"
        );
        self.nodes[root].figures = self.nodes[root].figures.saturating_sub(1);
        let Some((p, weight)) = owner else {
            return;
        };
        // A player's figure stood here, so the feature has its row (a
        // player the graph does not have took none, and changes nothing).
        let row = self.nodes[root].row as usize;
        debug_assert!(
            row != 0 || p >= self.players,
            "a player's figure leaves only a feature it stood on"
        );
        if row != 0 && p < self.players {
            let s = &mut self.standing[(row - 1) * self.players + p];
            s.followers = s.followers.saturating_sub(weight);
            s.figures = s.figures.wrapping_sub(1);
        }
    }

    /// The summed weights of a player's figures on the feature of `node`.
    pub fn followers(&self, node: u32, player: usize) -> u32 {
        self.standings(node).get(player).map_or(0, |s| s.followers)
    }

    /// Each player's standing on the feature of `node` (all 0 for a
    /// feature without a row).
    pub(crate) fn standings(&self, node: u32) -> &[Standing] {
        match self.nodes[self.find(node) as usize].row as usize {
            0 => NO_STANDINGS.get(..self.players).unwrap_or_default(),
            row => {
                let at = (row - 1) * self.players;
                self.standing.get(at..at + self.players).unwrap_or_default()
            }
        }
    }

    /// Whether the feature was completed and scored.
    pub fn is_done(&self, f: FeatureId) -> bool {
        self.nodes[f as usize].rank_done & DONE != 0
    }

    /// Marks the feature completed and scored.
    pub fn set_done(&mut self, f: FeatureId) {
        self.nodes[f as usize].rank_done |= DONE;
    }

    /// The members of a feature: (placed tile index, segment index).
    pub fn members(&self, f: FeatureId) -> impl Iterator<Item = (PlacedId, u8)> + '_ {
        let mut current = Some(f);
        std::iter::from_fn(move || {
            let node = current?;
            let n = &self.nodes[node as usize];
            current = (n.next != f).then_some(n.next);
            Some((n.placed, n.seg))
        })
    }

    /// Number of distinct tiles the feature covers, counted on the stack
    /// (a list is made only for a feature of more than 64 segments).
    pub fn tile_count(&self, f: FeatureId) -> usize {
        let mut tiles: smallvec::SmallVec<[u16; 64]> = self.members(f).map(|(t, _)| t.0).collect();
        tiles.sort_unstable();
        tiles.dedup();
        tiles.len()
    }
}

/// The word of a [`RootIndex`] holding `node`'s bit for `kind`.
fn root_word(node: u32, kind: KindId, kinds: usize) -> usize {
    node as usize / 64 * kinds + usize::from(kind)
}

/// `node`'s bit in its word of a [`RootIndex`].
fn root_bit(node: u32) -> u64 {
    1 << (node % 64)
}

/// The features of a graph (of one kind, when given; with a figure on
/// them, when `occupied`), by root in ascending order: see
/// [`Features::roots_holding`].
#[derive(Clone)]
pub struct Roots<'a> {
    nodes: &'a [Node],
    /// The kind and the index its roots are read off; `None`: every kind,
    /// by a scan of the nodes.
    kind: Option<(usize, &'a RootIndex)>,
    occupied: bool,
    /// The 64 nodes whose bits `bits` holds.
    chunk: usize,
    /// The kind's roots among them not yet visited.
    bits: u64,
    /// The next node a scan of every kind looks at.
    next: usize,
}

impl Iterator for Roots<'_> {
    type Item = FeatureId;

    fn next(&mut self) -> Option<FeatureId> {
        let Some((kind, index)) = self.kind else {
            while let Some(n) = self.nodes.get(self.next) {
                let i = self.next as u32;
                self.next += 1;
                if n.parent == i && (!self.occupied || n.figures > 0) {
                    return Some(i);
                }
            }
            return None;
        };
        if kind >= index.kinds {
            return None;
        }
        loop {
            while self.bits == 0 {
                self.chunk += 1;
                self.bits = *index.bits.get(self.chunk * index.kinds + kind)?;
            }
            let node = (self.chunk * 64) as u32 + self.bits.trailing_zeros();
            self.bits &= self.bits - 1;
            if !self.occupied || self.nodes[node as usize].figures > 0 {
                return Some(node);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connecting_merges_members_and_open_edges() {
        let mut f = Features::default();
        let a = f.add(PlacedId(0), 0, 0, 1, &[]);
        let b = f.add(PlacedId(1), 0, 0, 2, &[]);
        let c = f.add(PlacedId(2), 1, 0, 1, &[]);
        f.connect(a, b, &[]);
        assert_eq!(f.open(f.find(a)), 1);
        f.connect(b, c, &[]);
        let root = f.find(c);
        assert_eq!(f.open(root), 0);
        let mut members: Vec<_> = f.members(root).collect();
        members.sort();
        assert_eq!(members, vec![(PlacedId(0), 0), (PlacedId(1), 0), (PlacedId(2), 1)]);
        assert_eq!(f.tile_count(root), 3);
    }

    #[test]
    fn a_loop_closes_on_itself() {
        let mut f = Features::default();
        let a = f.add(PlacedId(0), 0, 0, 2, &[]);
        let b = f.add(PlacedId(1), 0, 0, 2, &[]);
        f.connect(a, b, &[]);
        f.connect(a, b, &[]);
        assert_eq!(f.open(f.find(a)), 0);
        assert_eq!(f.tile_count(f.find(a)), 2);
    }

    /// Random unions leave every node pointing straight at its root, the
    /// root a union-find of the same unions by rank picks (a plain one,
    /// kept beside it, walking its parents), with every member of a
    /// feature on its root's member list.
    #[test]
    fn every_node_points_at_the_root_union_by_rank_picks() {
        let mut f = Features::default();
        let (mut parent, mut rank): (Vec<u32>, Vec<u8>) = (Vec::new(), Vec::new());
        let plain_find = |parent: &[u32], mut n: u32| {
            while parent[n as usize] != n {
                n = parent[n as usize];
            }
            n
        };
        let mut seed = 0xfeed_u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for step in 0..3000u32 {
            if step % 3 == 0 || parent.len() < 2 {
                let id = f.add(PlacedId(parent.len() as u16), 0, 0, 4, &[]);
                assert_eq!(id as usize, parent.len());
                parent.push(id);
                rank.push(0);
                continue;
            }
            let (a, b) = (next(parent.len() as u64) as u32, next(parent.len() as u64) as u32);
            f.connect(a, b, &[]);
            let (ra, rb) = (plain_find(&parent, a), plain_find(&parent, b));
            if ra != rb {
                let (root, child) = if rank[ra as usize] >= rank[rb as usize] {
                    (ra, rb)
                } else {
                    (rb, ra)
                };
                if rank[root as usize] == rank[child as usize] {
                    rank[root as usize] += 1;
                }
                parent[child as usize] = root;
            }
        }
        for n in 0..parent.len() as u32 {
            let root = plain_find(&parent, n);
            assert_eq!(f.nodes[n as usize].parent, root, "node {n}");
            assert_eq!(f.find(n), root);
        }
        for root in (0..parent.len() as u32).filter(|&n| parent[n as usize] == n) {
            let mut members: Vec<u32> = (0..parent.len() as u32)
                .filter(|&n| plain_find(&parent, n) == root)
                .collect();
            let mut listed: Vec<u32> = f.members(root).map(|(p, _)| u32::from(p.0)).collect();
            members.sort_unstable();
            listed.sort_unstable();
            assert_eq!(listed, members, "root {root}");
        }
    }

    /// The roots of one kind read off the index are those a scan of the
    /// nodes finds, in the same order, with and without figures asked for:
    /// the index made at the first scan (here after 50 segments), kept up
    /// to date through later segments, unions and figures, made again when
    /// a segment of a new kind comes, and copied with the graph.
    #[test]
    fn roots_of_one_kind_are_those_a_scan_finds() {
        let scan = |f: &Features, kind: KindId, occupied: bool| -> Vec<FeatureId> {
            (0..f.nodes.len() as u32)
                .filter(|&i| {
                    let n = &f.nodes[i as usize];
                    n.parent == i && n.kind == kind && (!occupied || n.figures > 0)
                })
                .collect()
        };
        let check = |f: &Features| {
            for kind in 0..7 {
                for occupied in [false, true] {
                    let found: Vec<FeatureId> = f.roots_holding(Some(kind), occupied).collect();
                    assert_eq!(found, scan(f, kind, occupied), "kind {kind}, occupied {occupied}");
                }
            }
        };
        let mut f = Features::with_vars(0, 2);
        let mut seed = 0x5eed_u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let mut unions = 0;
        for step in 0..1500u16 {
            // Kinds 0-2 at first; 3-5 only once the index is made.
            let kinds = if step < 400 { 3 } else { 6 };
            match next(4) {
                0 | 1 => {
                    f.add(PlacedId(step), 0, next(kinds) as KindId, 2, &[]);
                }
                2 if f.len() > 1 => {
                    let (a, b) = (next(f.len() as u64) as u32, next(f.len() as u64) as u32);
                    if f.kind(f.find(a)) == f.kind(f.find(b)) {
                        f.connect(a, b, &[]);
                        unions += 1;
                    }
                }
                _ if f.len() > 0 => f.add_figure(next(f.len() as u64) as u32, Some((0, 1))),
                _ => {}
            }
            if step == 50 {
                assert!(f.index.get().is_none(), "no index before the first scan");
                let copy = f.clone();
                check(&f);
                assert!(copy.index.get().is_none() && f.index.get().is_some());
            } else if step > 50 && step % 100 == 0 {
                check(&f);
                check(&f.clone());
            }
        }
        assert!(unions > 50 && f.len() > 500, "{unions} unions of {} segments", f.len());
        check(&f);
    }

    /// Each player's figures, followers and bonus on a feature, and its
    /// figures of no owner, are those of the figures standing on its
    /// segments and the bonuses given there: through figures coming and
    /// going (neutral ones, owned ones that count for a majority and owned
    /// ones that do not), bonuses, unions, and copies of the graph (a
    /// clone, and one copied into another graph's lists) played on.
    #[test]
    fn standings_count_the_figures_on_each_feature() {
        let players = 3;
        let mut f = Features::with_vars(0, players);
        // Figures standing: their segment, and owner and weight.
        let mut standing: Vec<(u32, Option<(usize, u32)>)> = Vec::new();
        // Bonuses given: the segment, the player and the bonus.
        let mut bonuses: Vec<(u32, usize, i64)> = Vec::new();
        let mut seed = 0x0ee5_u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for step in 0..3000u16 {
            if step == 1000 {
                f = f.clone();
            } else if step == 2000 {
                let mut into = Features::with_vars(0, players);
                into.add(PlacedId(0), 0, 0, 2, &[]);
                into.add_figure(0, Some((1, 1)));
                into.clone_from(&f);
                f = into;
            }
            match next(6) {
                0 => {
                    f.add(PlacedId(step), 0, next(2) as KindId, 2, &[]);
                }
                1 if f.len() > 1 => {
                    let (a, b) = (next(f.len() as u64) as u32, next(f.len() as u64) as u32);
                    if f.kind(f.find(a)) == f.kind(f.find(b)) {
                        f.connect(a, b, &[]);
                    }
                }
                2 | 3 if f.len() > 0 => {
                    let node = next(f.len() as u64) as u32;
                    let owner = match next(3) {
                        0 => None,
                        _ => Some((next(players as u64) as usize, next(3) as u32)),
                    };
                    f.add_figure(node, owner);
                    standing.push((node, owner));
                }
                4 if !standing.is_empty() => {
                    let (node, owner) = standing.swap_remove(next(standing.len() as u64) as usize);
                    f.remove_figure(node, owner);
                }
                5 if f.len() > 0 && next(4) == 0 => {
                    let (node, player, by) = (
                        next(f.len() as u64) as u32,
                        next(players as u64) as usize,
                        next(5) as i64 - 2,
                    );
                    f.strengthen(node, player, by);
                    bonuses.push((node, player, by));
                }
                _ => {}
            }
        }
        assert!(
            standing.len() > 100 && f.len() > 400,
            "{} figures, {} segments",
            standing.len(),
            f.len()
        );
        for root in (0..f.len() as u32).filter(|&n| f.find(n) == n) {
            let on = || standing.iter().filter(|(n, _)| f.find(*n) == root);
            assert_eq!(f.figure_count(root) as usize, on().count(), "root {root}");
            for (p, s) in f.standings(root).iter().enumerate() {
                let mine = || on().filter(|(_, o)| o.is_some_and(|(q, _)| q == p));
                assert_eq!(usize::from(s.figures), mine().count(), "root {root}, player {p}");
                let weight: u32 = mine().map(|(_, o)| o.map_or(0, |(_, w)| w)).sum();
                assert_eq!(s.followers, weight, "root {root}, player {p}");
                let bonus: i64 = bonuses
                    .iter()
                    .filter(|(n, q, _)| f.find(*n) == root && *q == p)
                    .map(|(_, _, by)| by)
                    .sum();
                assert_eq!(i64::from(s.bonus), bonus, "root {root}, player {p}");
            }
        }
    }

    /// A feature takes a row of standings only when a player's figure
    /// stands there or a bonus is given there; a union keeps one row, the
    /// one of either side when only one has a row; a feature without a row
    /// answers every player's nothing.
    #[test]
    fn standings_take_a_row_only_where_something_stands() {
        let players = 4;
        let mut f = Features::with_vars(0, players);
        let nodes: Vec<u32> = (0..6).map(|i| f.add(PlacedId(i), 0, 0, 2, &[])).collect();
        let rows = |f: &Features| f.standing.len() / players;
        assert_eq!(rows(&f), 0, "no figure, no row");
        assert_eq!(f.standings(nodes[0]).len(), players);
        assert!(f
            .standings(nodes[0])
            .iter()
            .all(|s| s.followers == 0 && s.figures == 0 && s.bonus == 0));
        // A neutral figure counts on the feature but takes no row.
        f.add_figure(nodes[0], None);
        assert_eq!((rows(&f), f.figure_count(nodes[0])), (0, 1));
        f.add_figure(nodes[1], Some((2, 1)));
        f.strengthen(nodes[2], 3, 1);
        assert_eq!(rows(&f), 2);
        // A feature without a row joins one with a row: that row serves both.
        f.connect(nodes[0], nodes[1], &[]);
        assert_eq!(rows(&f), 2);
        assert_eq!(f.followers(nodes[0], 2), 1);
        // Two features with rows: one row, the sum of both.
        f.connect(nodes[1], nodes[2], &[]);
        assert_eq!(rows(&f), 2);
        let s = f.standings(nodes[2]);
        assert_eq!((s[2].followers, s[2].figures, s[3].bonus), (1, 1, 1));
        // Another figure on the joined feature takes no new row.
        f.add_figure(nodes[0], Some((0, 1)));
        assert_eq!(rows(&f), 2);
        assert_eq!(f.followers(nodes[2], 0), 1);
        // A feature with a row joined by one without keeps its row.
        f.connect(nodes[2], nodes[3], &[]);
        assert_eq!((rows(&f), f.followers(nodes[3], 2)), (2, 1));
        // A player the graph does not have changes nothing, here or on
        // the next feature.
        f.strengthen(nodes[4], players, 5);
        f.add_figure(nodes[4], Some((players, 1)));
        assert_eq!((rows(&f), f.figure_count(nodes[4])), (2, 1));
        f.remove_figure(nodes[4], Some((players, 1)));
        f.add_figure(nodes[4], Some((players, 1)));
        assert!(f
            .standings(nodes[4])
            .iter()
            .chain(f.standings(nodes[5]))
            .all(|s| s.bonus == 0 && s.followers == 0));
        // A copy into a graph with more rows has the source's.
        let mut into = Features::with_vars(0, players);
        for i in 0..4 {
            let n = into.add(PlacedId(i), 0, 0, 2, &[]);
            into.add_figure(n, Some((1, 1)));
        }
        into.clone_from(&f);
        assert_eq!(rows(&into), rows(&f));
        assert_eq!((into.followers(nodes[0], 1), into.followers(nodes[0], 2)), (0, 1));
    }

    /// The done flag shares its byte with the union's rank: a feature
    /// marked done stays done through unions on either side, and the ranks
    /// still choose the roots they did.
    #[test]
    fn done_features_stay_done_through_unions() {
        let mut f = Features::default();
        let nodes: Vec<u32> = (0..4).map(|i| f.add(PlacedId(i), 0, 0, 2, &[])).collect();
        f.connect(nodes[0], nodes[1], &[]);
        let big = f.find(nodes[0]);
        f.set_done(big);
        assert!(f.is_done(big) && !f.is_done(nodes[2]));
        // The feature of rank 1 stays the root of one of rank 0, done or not.
        f.connect(nodes[2], nodes[0], &[]);
        assert_eq!(f.find(nodes[2]), big);
        assert!(f.is_done(big));
        // Done on the absorbed side is kept by the root.
        f.set_done(nodes[3]);
        f.connect(nodes[0], nodes[3], &[]);
        assert_eq!(f.find(nodes[3]), big);
        assert!(f.is_done(big));
        // A done feature of rank 0 joins one of rank 1 not done: the rank
        // alone picks the root, which is then done.
        let more: Vec<u32> = (4..7).map(|i| f.add(PlacedId(i), 0, 0, 2, &[])).collect();
        f.connect(more[0], more[1], &[]);
        let ranked = f.find(more[0]);
        f.set_done(more[2]);
        f.connect(more[2], more[0], &[]);
        assert_eq!(f.find(more[2]), ranked);
        assert!(f.is_done(ranked));
    }

    #[test]
    fn variables_merge_by_policy() {
        let mut f = Features::with_vars(2, 0);
        let a = f.add(PlacedId(0), 0, 0, 1, &[1, 3]);
        let b = f.add(PlacedId(1), 0, 0, 1, &[0, 4]);
        f.connect(a, b, &[Merge::Any, Merge::Sum]);
        assert_eq!(f.var(a, 0), 1);
        assert_eq!(f.var(b, 1), 7);
    }
}
