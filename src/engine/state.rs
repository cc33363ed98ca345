//! The game state: what is on the table, apart from the turn machine that
//! changes it. The board and its feature graph, the figures on the board and
//! those gone from it, the supplies, scores, tile stack, cards, variables,
//! the current player and the tile placed this turn.
//!
//! Every field is private to this module, and the mutators keep these
//! invariants, so no other part of the engine can break them:
//! - **figures are conserved**: a figure is in a supply (a player's, or the
//!   neutral one), on the board, or at a spot off the board. [`State::deploy`]
//!   and [`State::put_at_spot`] take one from a supply and
//!   [`State::return_figure`] gives it back (and records one from the board
//!   as gone); [`State::relocate`] is the one way a figure on the board moves
//!   (moves and swaps), [`State::move_to_spot`] and [`State::move_from_spot`] move one
//!   between the board and the spots; none of these three touches a supply.
//!   Figure ids are never reused.
//! - **the feature graph matches the board**: [`State::put_tile`] adds the
//!   tile's segments as nodes and joins them to their neighbours' at once.
//!   Each feature counts the figures standing on it and each player's
//!   followers there by weight; the figure mutators above keep both
//!   (through `stand` and `unstand`, and `relocate` directly). `stand` and
//!   `unstand` also keep `board_slots`, where each id stands on the board.
//! - **scores add up**: [`State::award`] is the one way points are paid, so
//!   a player's score is always the sum of their points by reason; a payment
//!   that would overflow changes neither.
//! - **tiles and cards are conserved**: a drawn tile is placed, goes back
//!   into the stack or is counted as discarded ([`State::set_aside_extras`]
//!   is the one place extra tiles leave); a card is in a draw pile, a hand, a
//!   discard pile, or being resolved on its way to its discard pile.

use super::board::{Board, PlacedTile, Pos};
use super::card_lists::{CardLists, Lists};
use super::error::{ErrorKind, GameError};
use super::features::{copy_with_room, FeatureId, Features};
use super::ids::{PlacedId, Player, Rotation};
use super::rng::Rng;
use super::rules::{Rules, NONE};
use super::types::{Figure, SpotFigure};
use super::value::{nones, EvalError, Value};
use crate::ir::geometry::{facing_half_edge, opposite_edge};
use crate::ir::CardId;
use crate::ir::{FigureTypeId, Ownership, ReasonId, TileId, Topology};
use std::sync::Arc;

/// Most entries of a table (feature-graph nodes, tiles, figures) a new game
/// makes room for at once.
const MAX_RESERVED: usize = 4096;

/// Every tile of the set except one copy of the start tile.
pub(super) fn full_stack(rules: &Rules) -> Vec<TileId> {
    let pack = &rules.pack;
    let mut stack = Vec::with_capacity(pack.tiles.iter().map(|t| t.count as usize).sum());
    for (t, tile) in pack.tiles.iter().enumerate() {
        let copies = tile.count.saturating_sub(u32::from(t == pack.start as usize));
        stack.extend(std::iter::repeat_n(t as TileId, copies as usize));
    }
    stack
}

/// `State::board_slots` for a figure not on the board.
const OFF_BOARD: u32 = u32::MAX;

/// The state of a game (see the module documentation for its invariants).
#[derive(Debug)]
pub(super) struct State {
    players: usize,
    current: usize,
    board: Board,
    features: Features,
    on_board: Vec<Figure>,
    /// Where each figure stands in `on_board`, by id ([`OFF_BOARD`] for one
    /// that does not): a figure is found at once, however many stand.
    board_slots: Vec<u32>,
    /// Figures off the board, at spots, in the order they came.
    at_spots: Vec<SpotFigure>,
    /// Figures that left the board, so rules can still ask about them.
    gone: Vec<Figure>,
    next_figure_id: u32,
    /// Figure types in the packs: the stride of `supply`.
    figure_types: usize,
    /// What a figure of each type counts for its owner's majority: its
    /// weight for a player's figure type, 0 for a neutral one.
    follower_weights: Arc<[u32]>,
    /// `supply[player * figures + figure]`.
    supply: Vec<u16>,
    /// Neutral figures off the board, by figure type.
    neutral: Vec<u16>,
    /// Scoring reasons in the packs: the stride of `points`.
    reasons: usize,
    scores: Vec<i64>,
    /// `points[player * reasons + reason]`; a player's row sums to their score.
    points: Vec<i64>,
    stack: Vec<TileId>,
    discarded: u32,
    /// Extra tiles drawn this turn, with whether they go back into the stack.
    extras: Vec<(TileId, bool)>,
    placed_tile: Option<PlacedId>,
    /// The current player plays again after this turn (`extra turn`).
    extra_turn: bool,
    game_vars: Vec<Value>,
    /// Player variables per player: the stride of `player_vars`.
    stride: usize,
    /// `player_vars[player * stride + k]`.
    player_vars: Vec<i64>,
    /// The draw piles by deck, then the discard piles by deck, then each
    /// player's hand (see [`State::piles`], [`State::discards`],
    /// [`State::hands`]): one table, copied at once.
    cards: CardLists,
    /// How many decks the packs have.
    decks: usize,
}

/// Cards a hand has room for before its list grows.
const HAND_ROOM: usize = 8;

/// Figures a copy of the state has room to stand (and ids to give) before
/// its lists grow: a search copy plays a few moves and is dropped.
const COPY_FIGURES: usize = 8;

impl Clone for State {
    /// A copy with room to play on: the lists that a turn grows (figures on
    /// the board, their slots) get a little room, so a search copy does not
    /// reallocate at its first deployment; hands and piles are in one
    /// table ([`CardLists`]).
    fn clone(&self) -> State {
        State {
            players: self.players,
            current: self.current,
            board: self.board.clone(),
            features: self.features.clone(),
            on_board: copy_with_room(&self.on_board, COPY_FIGURES),
            board_slots: copy_with_room(&self.board_slots, COPY_FIGURES),
            at_spots: self.at_spots.clone(),
            gone: self.gone.clone(),
            next_figure_id: self.next_figure_id,
            figure_types: self.figure_types,
            follower_weights: self.follower_weights.clone(),
            supply: self.supply.clone(),
            neutral: self.neutral.clone(),
            reasons: self.reasons,
            scores: self.scores.clone(),
            points: self.points.clone(),
            stack: self.stack.clone(),
            discarded: self.discarded,
            extras: self.extras.clone(),
            placed_tile: self.placed_tile,
            extra_turn: self.extra_turn,
            game_vars: self.game_vars.clone(),
            stride: self.stride,
            player_vars: self.player_vars.clone(),
            cards: self.cards.clone(),
            decks: self.decks,
        }
    }

    /// `source` copied into this state's lists: no allocation where they
    /// have the room (a search reusing one copy for many looks ahead).
    fn clone_from(&mut self, source: &State) {
        // Every field named: one added later must be copied here too.
        let State {
            players,
            current,
            board,
            features,
            on_board,
            board_slots,
            at_spots,
            gone,
            next_figure_id,
            figure_types,
            follower_weights,
            supply,
            neutral,
            reasons,
            scores,
            points,
            stack,
            discarded,
            extras,
            placed_tile,
            extra_turn,
            game_vars,
            stride,
            player_vars,
            cards,
            decks,
        } = self;
        (*players, *current) = (source.players, source.current);
        board.clone_from(&source.board);
        features.clone_from(&source.features);
        on_board.clone_from(&source.on_board);
        board_slots.clone_from(&source.board_slots);
        at_spots.clone_from(&source.at_spots);
        gone.clone_from(&source.gone);
        (*next_figure_id, *figure_types) = (source.next_figure_id, source.figure_types);
        follower_weights.clone_from(&source.follower_weights);
        supply.clone_from(&source.supply);
        neutral.clone_from(&source.neutral);
        *reasons = source.reasons;
        scores.clone_from(&source.scores);
        points.clone_from(&source.points);
        stack.clone_from(&source.stack);
        *discarded = source.discarded;
        extras.clone_from(&source.extras);
        (*placed_tile, *extra_turn) = (source.placed_tile, source.extra_turn);
        game_vars.clone_from(&source.game_vars);
        *stride = source.stride;
        player_vars.clone_from(&source.player_vars);
        cards.copy_from(&source.cards);
        *decks = source.decks;
    }
}

impl State {
    /// The start tile on the board, supplies and draw piles full, `stack`
    /// to draw from; the caller has checked the player count and tile ids.
    pub(super) fn new(rules: &Rules, players: usize, stack: Vec<TileId>) -> State {
        let pack = &rules.pack;
        let figures = pack.figures.len();
        let mut supply = vec![0; players * figures];
        let mut neutral = vec![0; figures];
        for (f, fig) in pack.figures.iter().enumerate() {
            match fig.ownership {
                Ownership::PerPlayer => (0..players).for_each(|p| supply[p * figures + f] = fig.count as u16),
                Ownership::Neutral => neutral[f] = fig.count as u16,
            }
        }
        // Room for every figure of the set on the board at once.
        let all_figures: usize = supply.iter().chain(&neutral).map(|n| usize::from(*n)).sum();
        let reasons = pack.reasons.len();
        let program = &pack.program;
        // A deck's draw and discard piles each have room for all its cards,
        // a hand for a few (it grows as it must).
        let piles = &rules.start_piles;
        let decks = piles.len();
        let mut cards = CardLists::with_rooms(
            piles
                .iter()
                .chain(piles)
                .map(Vec::len)
                .chain(std::iter::repeat_n(HAND_ROOM, players)),
        );
        for (deck, pile) in piles.iter().enumerate() {
            cards.set(deck, pile);
        }
        let mut state = State {
            players,
            current: 0,
            board: Board::new(),
            features: Features::with_vars(rules.feature_merges.len(), players),
            on_board: Vec::with_capacity(all_figures.min(MAX_RESERVED)),
            // Room for a game's worth of ids: figures return and stand
            // again under new ids, a few times each in most games.
            board_slots: Vec::with_capacity((4 * all_figures).min(MAX_RESERVED)),
            at_spots: Vec::new(),
            // Room for the figures that leave the board in most games:
            // each figure a few times.
            gone: Vec::with_capacity((4 * all_figures).min(MAX_RESERVED)),
            next_figure_id: 0,
            figure_types: figures,
            follower_weights: pack
                .figures
                .iter()
                .map(|f| {
                    if f.ownership == Ownership::PerPlayer {
                        f.weight
                    } else {
                        0
                    }
                })
                .collect(),
            supply,
            neutral,
            reasons,
            scores: vec![0; players],
            points: vec![0; players * reasons],
            stack,
            discarded: 0,
            extras: Vec::new(),
            placed_tile: None,
            extra_turn: false,
            game_vars: nones(program.vars.len()),
            stride: rules.player_var_init.len(),
            player_vars: (0..players)
                .flat_map(|_| rules.player_var_init.iter().copied())
                .collect(),
            cards,
            decks,
        };
        // Room for the segments of the whole tile set (up to a bound, so a
        // huge set grows as it is played instead).
        let segments: usize = pack.tiles.iter().map(|t| t.count as usize * t.segments.len()).sum();
        state.features.reserve(segments.min(MAX_RESERVED));
        // Room for the stack's tiles and the start tile.
        state.board.reserve((state.stack.len() + 1).min(MAX_RESERVED));
        state.put_tile(rules, pack.start, (0, 0), Rotation::default());
        state
    }

    // ----- reading -----

    /// Number of players.
    #[inline]
    pub(super) fn players(&self) -> usize {
        self.players
    }

    /// The player whose turn it is.
    #[inline]
    pub(super) fn current(&self) -> usize {
        self.current
    }

    /// The board.
    #[inline]
    pub(super) fn board(&self) -> &Board {
        &self.board
    }

    /// The segments of area kinds of a placed tile, a bit each (segment
    /// `i` is bit `i`).
    #[inline]
    pub(super) fn area_segments(&self, placed: PlacedId) -> u64 {
        self.board.placed[placed.index()].areas
    }

    /// The feature graph.
    #[inline]
    pub(super) fn features(&self) -> &Features {
        &self.features
    }

    /// Figures on the board.
    #[inline]
    pub(super) fn figures(&self) -> &[Figure] {
        &self.on_board
    }

    /// A figure on the board by id.
    #[inline]
    pub(super) fn figure(&self, id: u32) -> Option<&Figure> {
        self.on_board.get(self.board_index(id)?)
    }

    /// Where the figure `id` is in `on_board`.
    #[inline]
    fn board_index(&self, id: u32) -> Option<usize> {
        match self.board_slots.get(id as usize) {
            Some(&i) if i != OFF_BOARD => Some(i as usize),
            _ => None,
        }
    }

    /// Figures at spots off the board, in the order they came.
    pub(super) fn spot_figures(&self) -> &[SpotFigure] {
        &self.at_spots
    }

    /// A figure at a spot by id.
    pub(super) fn spot_figure(&self, id: u32) -> Option<&SpotFigure> {
        self.at_spots.iter().find(|m| m.id == id)
    }

    /// A figure by id, on the board or gone from it.
    pub(super) fn figure_or_gone(&self, id: u32) -> Option<&Figure> {
        self.figure(id).or_else(|| self.gone.iter().rev().find(|m| m.id == id))
    }

    /// How many figures have left the board so far.
    pub(super) fn gone_count(&self) -> usize {
        self.gone.len()
    }

    /// The id the next figure put on the board will get.
    pub(super) fn next_figure_id(&self) -> u32 {
        self.next_figure_id
    }

    /// Copies of `figure` in the player's supply, for ids known to be valid.
    #[inline]
    pub(super) fn supply_of(&self, player: usize, figure: FigureTypeId) -> u16 {
        self.supply[player * self.figure_types + figure as usize]
    }

    /// Copies of `figure` in the player's supply; `None` for a player or
    /// figure type the game does not have.
    pub(super) fn supply(&self, player: usize, figure: FigureTypeId) -> Option<u16> {
        if player >= self.players || figure as usize >= self.figure_types {
            return None;
        }
        Some(self.supply_of(player, figure))
    }

    /// Neutral figures of this type off the board; `None` for a figure type
    /// the game does not have.
    pub(super) fn neutral_supply(&self, figure: FigureTypeId) -> Option<u16> {
        self.neutral.get(figure as usize).copied()
    }

    /// Scores, by player.
    #[inline]
    pub(super) fn scores(&self) -> &[i64] {
        &self.scores
    }

    /// A player's points from one reason; `None` for a player or reason the
    /// game does not have.
    pub(super) fn points(&self, player: usize, reason: ReasonId) -> Option<i64> {
        if player >= self.players || reason as usize >= self.reasons {
            return None;
        }
        Some(self.points[player * self.reasons + reason as usize])
    }

    /// The tiles left to draw, in no meaningful order.
    #[inline]
    pub(super) fn stack(&self) -> &[TileId] {
        &self.stack
    }

    /// Tiles drawn so far that left the game.
    pub(super) fn discarded(&self) -> u32 {
        self.discarded
    }

    /// Extra tiles drawn this turn, with whether they go back into the stack.
    #[inline]
    pub(super) fn extras(&self) -> &[(TileId, bool)] {
        &self.extras
    }

    /// The tile placed this turn.
    #[inline]
    pub(super) fn placed_tile(&self) -> Option<PlacedId> {
        self.placed_tile
    }

    /// A game variable.
    #[inline]
    pub(super) fn game_var(&self, var: usize) -> &Value {
        &self.game_vars[var]
    }

    /// Player variable `k` of a player.
    #[inline]
    pub(super) fn player_var(&self, player: usize, k: usize) -> i64 {
        self.player_vars[player * self.stride + k]
    }

    /// A player's hand. Panics for a player the game does not have (the
    /// hands are the table's last lists).
    #[inline]
    pub(super) fn hand(&self, player: usize) -> &[CardId] {
        self.cards.get(self.hand_list(player))
    }

    /// A deck's draw pile. Panics for a deck the packs do not have.
    #[inline]
    pub(super) fn pile(&self, deck: usize) -> &[CardId] {
        self.cards.get(self.pile_list(deck))
    }

    /// Every player's hand.
    #[inline]
    pub(super) fn hands(&self) -> Lists<'_> {
        self.cards.view(self.hand_list(0), self.players)
    }

    /// Draw piles, by deck.
    #[inline]
    pub(super) fn piles(&self) -> Lists<'_> {
        self.cards.view(0, self.decks)
    }

    /// Discard piles, by deck.
    pub(super) fn discards(&self) -> Lists<'_> {
        self.cards.view(self.decks, self.decks)
    }

    /// The list in `cards` of a player's hand: after the draw piles and
    /// the discard piles, the last lists, so a list past them is none.
    pub(super) fn hand_list(&self, player: usize) -> usize {
        2 * self.decks + player
    }

    /// The list in `cards` of a deck's draw pile: the first lists. Panics
    /// for a deck the packs do not have (its list would be a discard pile).
    #[inline]
    pub(super) fn pile_list(&self, deck: usize) -> usize {
        assert!(deck < self.decks, "no deck {deck} of {}", self.decks);
        deck
    }

    /// The list in `cards` of a deck's discard pile, after the draw piles.
    /// Panics for a deck the packs do not have (its list would be a hand).
    fn discard_list(&self, deck: usize) -> usize {
        self.decks + self.pile_list(deck)
    }

    // ----- the board -----

    /// Puts a tile on the board and joins its segments to their neighbours.
    pub(super) fn put_tile(&mut self, rules: &Rules, tile: TileId, pos: Pos, rot: Rotation) -> PlacedId {
        let pack = &rules.pack;
        let rotated = &rules.rotated[tile as usize][rot.index()];
        let first_node = self.features.len() as u32;
        let placed = self.board.put(
            rules,
            PlacedTile {
                tile,
                pos,
                rot,
                first_node,
                areas: 0,
            },
        );
        let mut areas = 0u64;
        for (i, seg) in pack.tiles[tile as usize].segments.iter().enumerate() {
            let open = match pack.kinds[seg.kind as usize].topology {
                Topology::Edges => rotated.seg_edges[i].len(),
                Topology::HalfEdges => rotated.seg_halves[i].len(),
                Topology::Area => {
                    areas |= 1 << i;
                    0
                }
            };
            self.features
                .add(placed, i as u8, seg.kind, open as u16, &rules.feature_var_init);
        }
        self.board.set_areas(placed, areas);
        for (edge, n) in self.board.beside(pos).into_iter().enumerate() {
            let Some(n) = n.copied() else {
                continue;
            };
            let theirs = &rules.rotated[n.tile as usize][n.rot.index()];
            let back = opposite_edge(edge as u8) as usize;
            let (a, b) = (rotated.edge_seg[edge], theirs.edge_seg[back]);
            if a != NONE && b != NONE {
                self.features.connect(
                    first_node + u32::from(a),
                    n.first_node + u32::from(b),
                    &rules.feature_merges,
                );
            }
            for h in [2 * edge, 2 * edge + 1] {
                let facing = facing_half_edge(h as u8) as usize;
                let (a, b) = (rotated.half_seg[h], theirs.half_seg[facing]);
                let same_kind = || {
                    pack.tiles[tile as usize].segments[a as usize].kind
                        == pack.tiles[n.tile as usize].segments[b as usize].kind
                };
                if a != NONE && b != NONE && same_kind() {
                    self.features.connect(
                        first_node + u32::from(a),
                        n.first_node + u32::from(b),
                        &rules.feature_merges,
                    );
                }
            }
        }
        placed
    }

    /// Puts this turn's tile on the board ([`State::put_tile`]) and
    /// remembers it as the tile placed this turn.
    pub(super) fn place(&mut self, rules: &Rules, tile: TileId, pos: Pos, rot: Rotation) -> PlacedId {
        let placed = self.put_tile(rules, tile, pos, rot);
        self.placed_tile = Some(placed);
        placed
    }

    /// Marks a completed feature as scored.
    pub(super) fn set_done(&mut self, f: FeatureId) {
        self.features.set_done(f);
    }

    /// Adds to a player's majority bonus on a feature.
    pub(super) fn strengthen(&mut self, f: FeatureId, player: usize, by: i64) {
        self.features.strengthen(f, player, by);
    }

    // ----- figures -----

    /// Takes a figure from its supply (the owner's, or the neutral one) and
    /// puts it on the board; returns it with its new id. The caller has
    /// checked that one is left.
    pub(super) fn deploy(&mut self, figure: FigureTypeId, owner: Option<Player>, placed: PlacedId, seg: u8) -> Figure {
        let figure = Figure {
            id: self.take_from_supply(figure, owner),
            figure_type: figure,
            owner,
            placed,
            seg,
        };
        self.stand(&figure);
        figure
    }

    /// Puts a figure on the board and counts it on its feature.
    fn stand(&mut self, figure: &Figure) {
        let node = self.node_of(figure.placed, figure.seg);
        self.features.add_figure(node, self.follower(figure));
        let id = figure.id as usize;
        if self.board_slots.len() <= id {
            self.board_slots.resize(id + 1, OFF_BOARD);
        }
        self.board_slots[id] = self.on_board.len() as u32;
        self.on_board.push(*figure);
    }

    /// Takes the figure at `i` off the board and uncounts it from its feature.
    fn unstand(&mut self, i: usize) -> Figure {
        let m = self.on_board.remove(i);
        self.board_slots[m.id as usize] = OFF_BOARD;
        for (j, after) in self.on_board.iter().enumerate().skip(i) {
            self.board_slots[after.id as usize] = j as u32;
        }
        let node = self.node_of(m.placed, m.seg);
        self.features.remove_figure(node, self.follower(&m));
        m
    }

    /// A figure's owner, and its weight for that player's majority (0 for
    /// a type that does not count there); `None` for a neutral figure.
    fn follower(&self, m: &Figure) -> Option<(usize, u32)> {
        let weight = self.follower_weights.get(m.figure_type as usize).copied().unwrap_or(0);
        m.owner.map(|p| (p.index(), weight))
    }

    /// Takes one figure of a type from its supply (the owner's, or the
    /// neutral one) and gives it a new id, never used before.
    fn take_from_supply(&mut self, figure: FigureTypeId, owner: Option<Player>) -> u32 {
        let left = match owner {
            Some(p) => &mut self.supply[p.index() * self.figure_types + figure as usize],
            None => &mut self.neutral[figure as usize],
        };
        debug_assert!(*left > 0, "a figure leaves only a supply that holds one");
        *left -= 1;
        self.next_figure_id += 1;
        self.next_figure_id - 1
    }

    /// Takes a figure from its supply (the owner's, or the neutral one) to a
    /// spot off the board; returns it with its new id. The caller has
    /// checked that one is left.
    pub(super) fn put_at_spot(
        &mut self,
        figure: FigureTypeId,
        owner: Option<Player>,
        spot: u16,
        area: Option<Player>,
    ) -> SpotFigure {
        let m = SpotFigure {
            id: self.take_from_supply(figure, owner),
            figure_type: figure,
            owner,
            spot,
            area,
        };
        self.at_spots.push(m);
        m
    }

    /// Moves a figure on the board or at a spot to a spot; `None` if it is
    /// in neither. Supplies do not change.
    pub(super) fn move_to_spot(&mut self, id: u32, spot: u16, area: Option<Player>) -> Option<SpotFigure> {
        let (figure_type, owner) = match self.board_index(id) {
            Some(i) => {
                let m = self.unstand(i);
                (m.figure_type, m.owner)
            }
            None => {
                let i = self.at_spots.iter().position(|m| m.id == id)?;
                let m = self.at_spots.remove(i);
                (m.figure_type, m.owner)
            }
        };
        let m = SpotFigure {
            id,
            figure_type,
            owner,
            spot,
            area,
        };
        self.at_spots.push(m);
        Some(m)
    }

    /// Moves a figure at a spot onto a segment of the board; `None` if it is
    /// at no spot. Supplies do not change.
    pub(super) fn move_from_spot(&mut self, id: u32, placed: PlacedId, seg: u8) -> Option<Figure> {
        let i = self.at_spots.iter().position(|m| m.id == id)?;
        let m = self.at_spots.remove(i);
        let figure = Figure {
            id,
            figure_type: m.figure_type,
            owner: m.owner,
            placed,
            seg,
        };
        self.stand(&figure);
        Some(figure)
    }

    /// Takes a figure at a spot back to its supply; `None` if it is at no spot.
    pub(super) fn return_from_spot(&mut self, id: u32) -> Option<SpotFigure> {
        let i = self.at_spots.iter().position(|m| m.id == id)?;
        let m = self.at_spots.remove(i);
        match m.owner {
            Some(owner) => self.supply[owner.index() * self.figure_types + m.figure_type as usize] += 1,
            None => self.neutral[m.figure_type as usize] += 1,
        }
        Some(m)
    }

    /// Takes a figure off the board back to its supply (the owner's, or the
    /// neutral one) and records it as gone; `None` if it is not on the board.
    pub(super) fn return_figure(&mut self, id: u32) -> Option<Figure> {
        let i = self.board_index(id)?;
        let m = self.unstand(i);
        match m.owner {
            Some(owner) => self.supply[owner.index() * self.figure_types + m.figure_type as usize] += 1,
            None => self.neutral[m.figure_type as usize] += 1,
        }
        self.gone.push(m);
        Some(m)
    }

    /// Moves a figure on the board to another segment; returns it as moved,
    /// or `None` if it is not on the board. Supplies do not change.
    pub(super) fn relocate(&mut self, id: u32, placed: PlacedId, seg: u8) -> Option<Figure> {
        let i = self.board_index(id)?;
        let (from, to) = (
            self.node_of(self.on_board[i].placed, self.on_board[i].seg),
            self.node_of(placed, seg),
        );
        let follower = self.follower(&self.on_board[i]);
        self.features.remove_figure(from, follower);
        self.features.add_figure(to, follower);
        let m = &mut self.on_board[i];
        (m.placed, m.seg) = (placed, seg);
        Some(*m)
    }

    // ----- scores -----

    /// Adds points to a player's score and to their points under `reason`,
    /// or, if either would overflow, changes neither.
    pub(super) fn award(&mut self, player: usize, points: i64, reason: ReasonId) -> Result<(), EvalError> {
        let slot = player * self.reasons + reason as usize;
        let score = self.scores[player].checked_add(points).ok_or(EvalError::Overflow)?;
        let under_reason = self.points[slot].checked_add(points).ok_or(EvalError::Overflow)?;
        (self.scores[player], self.points[slot]) = (score, under_reason);
        Ok(())
    }

    // ----- tiles -----

    /// Takes a tile out of the stack: `forced` (a replay's next draw) if
    /// given, else the one at the index `pick` chooses among the tiles that
    /// may be drawn now (called only when there is one). `Ok(None)` when
    /// nothing may be drawn.
    ///
    /// With stacks ([`Rules::stacked`]) the draw takes from `from` if given
    /// (`draw tile from STACK`), else from the first stack in draw order
    /// that still holds a tile, and a tile pinned `last` only once no other
    /// tile is left in its stack. `self.stack` holds every stack's tiles
    /// together, in no meaningful order; each tile type's stack is fixed by
    /// the rules. Without stacks a draw is one `pick` over the whole stack,
    /// so a base game draws exactly as before stacks existed.
    pub(super) fn draw_tile(
        &mut self,
        rules: &Rules,
        forced: Option<TileId>,
        from: Option<u16>,
        pick: impl FnOnce(usize) -> usize,
        keep_order: bool,
    ) -> Result<Option<TileId>, GameError> {
        // Keyed draws keep the stack in key order; random ones need no order.
        let take = |stack: &mut Vec<TileId>, i: usize| {
            if keep_order {
                stack.remove(i)
            } else {
                stack.swap_remove(i)
            }
        };
        let tiles = &rules.pack.tiles;
        if let Some(tile) = forced {
            let Some(i) = self.stack.iter().position(|t| *t == tile) else {
                return Err(ErrorKind::TileNotInStack.error(format!(
                    "tile {} is not in the stack: every copy has been drawn",
                    tiles[tile as usize].name
                )));
            };
            if rules.stacked {
                let t = &tiles[tile as usize];
                let stacks = &rules.pack.stacks;
                let now = from.or_else(|| self.current_stack(rules));
                if now != Some(t.stack) {
                    let now = now.map_or("none", |s| stacks[s as usize].as_str());
                    return Err(ErrorKind::TileNotNext.error(format!(
                        "tile {} cannot be drawn now: it is in stack `{}`, and the draw takes from stack `{now}`",
                        t.name, stacks[t.stack as usize]
                    )));
                }
                if t.last
                    && self
                        .stack
                        .iter()
                        .any(|x| tiles[*x as usize].stack == t.stack && !tiles[*x as usize].last)
                {
                    return Err(ErrorKind::TileNotNext.error(format!(
                        "tile {} cannot be drawn now: it is pinned last in stack `{}`, which still holds other tiles",
                        t.name, stacks[t.stack as usize]
                    )));
                }
            }
            return Ok(Some(take(&mut self.stack, i)));
        }
        if !rules.stacked {
            if self.stack.is_empty() {
                return Ok(None);
            }
            let i = pick(self.stack.len());
            return Ok(Some(take(&mut self.stack, i)));
        }
        let Some(stack) = from.or_else(|| self.current_stack(rules)) else {
            return Ok(None);
        };
        let in_stack = |t: &TileId| tiles[*t as usize].stack == stack;
        let free = self
            .stack
            .iter()
            .filter(|t| in_stack(t) && !tiles[**t as usize].last)
            .count();
        let pinned = free == 0;
        let n = if pinned {
            self.stack.iter().filter(|t| in_stack(t)).count()
        } else {
            free
        };
        if n == 0 {
            return Ok(None);
        }
        let k = pick(n);
        let i = self
            .stack
            .iter()
            .enumerate()
            .filter(|(_, t)| in_stack(t) && (pinned || !tiles[**t as usize].last))
            .nth(k)
            .map(|(i, _)| i)
            .expect("pick chooses below the number of candidates");
        Ok(Some(take(&mut self.stack, i)))
    }

    /// Whether a draw from `from` (else from the current stack) would take
    /// a tile.
    pub(super) fn can_draw(&self, rules: &Rules, from: Option<u16>) -> bool {
        if !rules.stacked {
            return !self.stack.is_empty();
        }
        from.or_else(|| self.current_stack(rules))
            .is_some_and(|s| self.stack.iter().any(|t| rules.pack.tiles[*t as usize].stack == s))
    }

    /// The stack draws take from now: the first in draw order that still
    /// holds a tile; `None` when every stack is empty.
    pub(super) fn current_stack(&self, rules: &Rules) -> Option<u16> {
        self.stack.iter().map(|t| rules.pack.tiles[*t as usize].stack).min()
    }

    /// A drawn tile that fits nowhere leaves the game.
    pub(super) fn discard_tile(&mut self) {
        self.discarded += 1;
    }

    /// Keeps an extra tile drawn this turn until it is placed or set aside.
    pub(super) fn add_extra(&mut self, tile: TileId, keep: bool) {
        self.extras.push((tile, keep));
    }

    /// The one place where tiles drawn but not placed go: back into the
    /// stack or out of the game, as the rule that drew the extra tile said.
    /// After a placement (`Some((drawn, placed))`) where an extra tile was
    /// placed, the drawn tile takes its place (and its rule), first.
    /// `each` hears of every tile set aside, in order.
    pub(super) fn set_aside_extras(&mut self, placement: Option<(TileId, TileId)>, mut each: impl FnMut(TileId, bool)) {
        if let Some((drawn, placed)) = placement {
            if let Some(i) = self.extras.iter().position(|(t, _)| *t == placed) {
                let (_, keep) = self.extras.remove(i);
                self.extras.insert(0, (drawn, keep));
            }
        }
        for (tile, keep) in self.extras.drain(..) {
            if keep {
                self.stack.push(tile);
            } else {
                self.discarded += 1;
            }
            each(tile, keep);
        }
    }

    // ----- turns -----

    /// Makes `player` the current player.
    pub(super) fn set_current(&mut self, player: usize) {
        debug_assert!(player < self.players, "the current player is a player of the game");
        self.current = player;
    }

    /// Passes the turn to the next player, or to the same player again when
    /// a rule granted an extra turn; no tile is placed yet.
    pub(super) fn next_player(&mut self) {
        if !std::mem::take(&mut self.extra_turn) {
            self.current = (self.current + 1) % self.players;
        }
        self.placed_tile = None;
    }

    /// The current player plays again after this turn (several grants in
    /// one turn still give one extra turn).
    pub(super) fn grant_extra_turn(&mut self) {
        self.extra_turn = true;
    }

    // ----- cards -----

    /// Refills an empty draw pile from its discard pile.
    pub(super) fn reshuffle(&mut self, deck: usize) {
        self.cards.append(self.pile_list(deck), self.discard_list(deck));
    }

    /// Takes the card at `i` out of a deck's draw pile.
    pub(super) fn take_card(&mut self, deck: usize, i: usize) -> CardId {
        self.cards.swap_remove(self.pile_list(deck), i)
    }

    /// A drawn card goes into a player's hand.
    pub(super) fn add_to_hand(&mut self, player: usize, card: CardId) {
        let hand = self.hand_list(player);
        self.cards.push(hand, card);
    }

    /// A card (drawn and resolved) goes onto its deck's discard pile.
    pub(super) fn put_on_discard(&mut self, rules: &Rules, card: CardId) {
        let deck = usize::from(rules.pack.program.deck_of(card));
        self.cards.push(self.discard_list(deck), card);
    }

    /// Moves a card from a player's hand to its deck's discard pile; false
    /// if the hand holds no such card.
    pub(super) fn discard_from_hand(&mut self, rules: &Rules, player: usize, card: CardId) -> bool {
        let hand = self.hand_list(player);
        let Some(i) = self.cards.get(hand).iter().position(|c| *c == card) else {
            return false;
        };
        let deck = usize::from(rules.pack.program.deck_of(card));
        self.cards.remove(hand, i);
        self.cards.push(self.discard_list(deck), card);
        true
    }

    /// The hidden parts, for a test that moves them (the stack, the hands,
    /// the draw piles); the game itself only resamples them through
    /// [`State::resample_hidden`].
    #[cfg(test)]
    pub(super) fn hidden_mut(&mut self) -> (&mut Vec<TileId>, &mut CardLists) {
        (&mut self.stack, &mut self.cards)
    }

    /// Samples anew what `viewer` cannot see: the order of the stack (draws
    /// choose within a stack by the tile types' stacks, never by place, so
    /// shuffling the whole stack resamples the order within each stack and
    /// keeps what each stack holds), and
    /// for each deck the cards in other players' hands and in its draw pile
    /// (each hand keeps its number of cards from each deck, as their backs
    /// show). Hidden things are put in a canonical order before they are
    /// shuffled, so the sample depends on what is hidden, never on where it
    /// really lies. Nothing is made or lost: tiles and cards are only
    /// reordered or exchanged.
    pub(super) fn resample_hidden(&mut self, viewer: usize, rng: &mut Rng, deck_of: impl Fn(CardId) -> u16) {
        self.stack.sort_unstable();
        rng.shuffle(&mut self.stack);
        for deck in 0..self.decks {
            let of_deck = |c: &CardId| deck_of(*c) as usize == deck;
            let mut pool: Vec<CardId> = self.pile(deck).to_vec();
            let first_hand = self.hand_list(0);
            let hands = (0..self.players).filter(|p| *p != viewer).map(|p| first_hand + p);
            for hand in hands.clone() {
                pool.extend(self.cards.get(hand).iter().copied().filter(of_deck));
            }
            pool.sort_unstable();
            rng.shuffle(&mut pool);
            for hand in hands {
                for card in self.cards.get_mut(hand).iter_mut().filter(|c| of_deck(c)) {
                    *card = pool.pop().expect("the pool holds every hidden card of the deck");
                }
            }
            self.cards.set(self.pile_list(deck), &pool);
        }
    }

    // ----- variables -----

    /// Sets a game variable.
    pub(super) fn set_game_var(&mut self, var: usize, value: Value) {
        self.game_vars[var] = value;
    }

    /// Sets player variable `k` of a player.
    pub(super) fn set_player_var(&mut self, player: usize, k: usize, value: i64) {
        self.player_vars[player * self.stride + k] = value;
    }

    /// Sets feature variable `k` of a feature.
    pub(super) fn set_feature_var(&mut self, f: FeatureId, k: usize, value: i64) {
        self.features.set_var(f, k, value);
    }
}

#[cfg(test)]
mod tests {
    use crate::agents::{Agent, RandomAgent};
    use crate::bundled::bundled_names;
    use crate::check::{load, PackRef};
    use crate::engine::task::{Phase, Task};
    use crate::engine::{Game, Player, Rules, Setup};
    use crate::ir::Ownership;
    use std::sync::Arc;

    /// Fails unless the state keeps its invariants: every figure is in a
    /// supply, on the board or at a spot, and every score is the sum of its points.
    fn assert_invariants(game: &Game) {
        let (state, pack) = (&game.state, &game.rules.pack);
        // Each figure on the board is found by its id, and no other.
        let standing = state.board_slots.iter().filter(|&&i| i != super::OFF_BOARD).count();
        assert_eq!(standing, state.on_board.len());
        for m in &state.on_board {
            assert_eq!(
                state.figure(m.id).map(|f| (f.id, f.placed, f.seg)),
                Some((m.id, m.placed, m.seg))
            );
        }
        for (f, fig) in pack.figures.iter().enumerate() {
            let on_board = |owner: Option<Player>| {
                let at_spots = state
                    .spot_figures()
                    .iter()
                    .filter(|m| m.owner == owner && m.figure_type as usize == f)
                    .count();
                state
                    .figures()
                    .iter()
                    .filter(|m| m.owner == owner && m.figure_type as usize == f)
                    .count()
                    + at_spots
            };
            let count = fig.count as usize;
            let neutral = usize::from(state.neutral_supply(f as u16).expect("a figure type"));
            match fig.ownership {
                Ownership::PerPlayer => {
                    for p in 0..state.players() {
                        let supply = usize::from(state.supply_of(p, f as u16));
                        assert_eq!(
                            supply + on_board(Some(Player(p as u8))),
                            count,
                            "figure {} of player {p}",
                            fig.name
                        );
                    }
                    assert_eq!(neutral + on_board(None), 0, "figure {} without owner", fig.name);
                }
                Ownership::Neutral => assert_eq!(neutral + on_board(None), count, "neutral figure {}", fig.name),
            }
        }
        // Each feature counts the figures standing on it.
        for m in state.figures() {
            let f = state.feature_of(m.placed, m.seg);
            let standing = state
                .figures()
                .iter()
                .filter(|x| state.feature_of(x.placed, x.seg) == f)
                .count();
            assert_eq!(
                state.features().figure_count(f) as usize,
                standing,
                "figures counted on feature {f}"
            );
            // ... and each player's followers there, by weight (what
            // majorities are read from).
            for p in 0..state.players() {
                let weight: u32 = state
                    .figures()
                    .iter()
                    .filter(|x| state.feature_of(x.placed, x.seg) == f && x.owner == Some(Player(p as u8)))
                    .map(|x| pack.figures[x.figure_type as usize].weight)
                    .sum();
                assert_eq!(
                    state.features().followers(f, p),
                    weight,
                    "player {p}'s followers on feature {f}"
                );
            }
        }
        for p in 0..state.players() {
            let sum: i128 = (0..pack.reasons.len())
                .map(|r| i128::from(state.points(p, r as u16).expect("a reason")))
                .sum();
            assert_eq!(
                i128::from(state.scores()[p]),
                sum,
                "player {p}'s score is their points by reason"
            );
        }
        // Tiles: in the stack, on the board, drawn and waiting (the turn's
        // tile and extra ones), or out of the game.
        let waiting = usize::from(matches!(game.phase, Phase::Place(_)))
            + game.tasks.iter().filter(|t| matches!(t, Task::AwaitPlace(_))).count();
        let tiles = state.stack().len()
            + state.board().tiles().len()
            + state.extras().len()
            + waiting
            + state.discarded() as usize;
        assert_eq!(tiles, pack.tile_count() as usize, "every tile is somewhere");
        // Cards: in a draw pile, a hand, a discard pile, or being resolved.
        let resolving = game.tasks.iter().filter(|t| matches!(t, Task::ToDiscard(_))).count();
        let held: usize = [state.piles(), state.hands(), state.discards()]
            .iter()
            .flat_map(|v| v.iter())
            .map(|cards| cards.len())
            .sum();
        let declared: usize = pack.program.cards.iter().map(|c| c.count as usize).sum();
        assert_eq!(held + resolving, declared, "every card is somewhere");
    }

    /// Each move of a card takes it from the list it names and puts it on
    /// the one it names (a deck's draw pile, its discard pile, a player's
    /// hand, each a region of one table), in order, through a hand that
    /// outgrows its room.
    #[test]
    fn cards_move_between_the_lists_they_name() {
        let text = "pack decks\nrequires base\ndeck a\ndeck b\n\
            card star x2 in a { kept }\ncard sun x10 in a { kept }\ncard moon x2 in b { kept }\n";
        let rules = Arc::new(Rules::new(crate::bundled::over_base("decks.rules", text)));
        let card = |name: &str| {
            let program = &rules.pack.program;
            program
                .cards
                .iter()
                .position(|c| c.name == name)
                .expect("the pack has the card") as u16
        };
        let (star, sun, moon) = (card("star"), card("sun"), card("moon"));
        // A card of a draw pile, taken by its place there.
        let take = |state: &mut super::State, deck: usize, c: u16| {
            let i = state
                .pile(deck)
                .iter()
                .position(|x| *x == c)
                .expect("the pile holds the card");
            state.take_card(deck, i)
        };
        let mut game = Game::new(rules.clone(), Setup::new(3).seed(1)).expect("three players can play");
        let state = &mut game.state;
        assert_eq!(
            state.pile(0),
            &[star, star, sun, sun, sun, sun, sun, sun, sun, sun, sun, sun]
        );
        assert_eq!(state.pile(1), &[moon; 2]);
        assert!(state
            .hands()
            .iter()
            .chain(state.discards().iter())
            .all(<[u16]>::is_empty));
        // Player 2 takes a moon, a star and nine suns: more than a hand's room.
        for (deck, c) in [(1, moon), (0, star)].into_iter().chain([(0, sun); 9]) {
            let taken = take(state, deck, c);
            state.add_to_hand(2, taken);
        }
        let mut hand = vec![moon, star];
        hand.extend([sun; 9]);
        assert_eq!(state.hand(2), hand.as_slice());
        let mut pile = state.pile(0).to_vec();
        pile.sort_unstable();
        assert_eq!(pile, [star, sun]);
        assert_eq!(state.pile(1), &[moon]);
        assert!(state.hand(0).is_empty() && state.hand(1).is_empty());
        // The moon leaves the hand for its own deck's discard pile, the other
        // cards keeping their order; a player without one discards nothing.
        let taken = take(state, 0, sun);
        state.add_to_hand(1, taken);
        assert!(state.discard_from_hand(&rules, 2, moon));
        assert!(!state.discard_from_hand(&rules, 0, moon));
        assert_eq!(state.hand(2), &hand[1..]);
        assert_eq!(state.hand(1), &[sun]);
        assert_eq!(state.discards()[1], [moon]);
        assert!(state.discards()[0].is_empty());
        state.put_on_discard(&rules, star);
        assert_eq!(state.discards()[0], [star]);
        // An empty draw pile is refilled from its own discard pile.
        assert_eq!(state.take_card(1, 0), moon);
        assert!(state.pile(1).is_empty());
        state.reshuffle(1);
        assert_eq!(state.pile(1), &[moon]);
        assert!(state.discards()[1].is_empty());
        assert_eq!(state.discards()[0], [star], "the other deck's discards stay");
        // A card resolved goes onto its own deck's discard pile.
        let moon_drawn = state.take_card(1, 0);
        state.put_on_discard(&rules, moon_drawn);
        assert_eq!(state.discards()[1], [moon]);
        assert_eq!(state.discards()[0], [star]);
        // A copy into a state whose hands never grew holds the same lists.
        let mut copy = Game::new(rules, Setup::new(3).seed(2)).expect("three players can play");
        copy.state.clone_from(&game.state);
        assert_eq!(copy.state.hands(), game.state.hands());
        assert_eq!(copy.state.piles(), game.state.piles());
        assert_eq!(copy.state.discards(), game.state.discards());
    }

    #[test]
    fn random_games_keep_the_invariants_with_every_bundled_pack() {
        let mut packs = 0;
        for name in bundled_names() {
            let mut refs = vec![PackRef::Bundled("base".into())];
            if name != "base" {
                refs.push(PackRef::Bundled(name.into()));
            }
            // A pack that needs more than base is left to the scenario tests.
            let Ok(pack) = load(&refs) else { continue };
            packs += 1;
            let rules = Arc::new(Rules::new(pack));
            for seed in 0..3 {
                let mut game =
                    Game::new(rules.clone(), Setup::new(2 + seed as usize).seed(seed)).expect("bundled packs set up");
                let mut agent = RandomAgent::new(seed);
                assert_invariants(&game);
                while !game.is_over() {
                    let options = game.options();
                    let choice = agent.choose(&game, &options).expect("random agents choose");
                    if game.apply(choice).is_err() {
                        break;
                    }
                    assert_invariants(&game);
                }
            }
        }
        assert!(packs > 1, "base and at least one more pack were played");
    }

    #[test]
    fn random_games_with_stacks_keep_the_invariants() {
        let refs = [
            PackRef::Bundled("base".into()),
            PackRef::Path("tests/data/stacks.rules".into()),
        ];
        let rules = Arc::new(Rules::new(load(&refs).expect("the stacks test pack loads")));
        for seed in 0..3 {
            let mut game = Game::new(rules.clone(), Setup::new(2).seed(seed)).expect("the pack sets up");
            let mut agent = RandomAgent::new(seed);
            assert_invariants(&game);
            while !game.is_over() {
                let options = game.options();
                let choice = agent.choose(&game, &options).expect("random agents choose");
                game.apply(choice).expect("a random agent's choice is legal");
                assert_invariants(&game);
            }
        }
    }

    /// Figures going to spots, between spots, back onto the board and back to
    /// their supplies are conserved too.
    #[test]
    fn random_games_with_spots_keep_the_invariants() {
        let text = "pack spots\nrequires base\n\
            figure marker_stone x2 neutral { stands on road }\n\
            spot track\nspot area per_player\n\
            on setup { place marker_stone on spot track }\n\
            on turn_end {\n\
              choose {\n\
                park when current_player.supply(follower) > 0 { place follower on spot area }\n\
                fetch when count(x in current_player.figures_at(area) where true) > 0 {\n\
                  for figure x in current_player.figures_at(area) { move x to spot track }\n\
                }\n\
                send when count(x in track.figures where x.owner == current_player) > 0 {\n\
                  for figure x in track.figures where x.owner == current_player { take back x }\n\
                }\n\
                board when placed_tile.feature(road) != none {\n\
                  for figure x in track.figures where x.owner == none { move x to placed_tile.feature(road) }\n\
                }\n\
                recall when count(figure x where x.owner == none and x.type == marker_stone) > 0 {\n\
                  for figure x where x.owner == none and x.type == marker_stone { move x to spot track }\n\
                }\n\
                stay { }\n\
              }\n\
            }\n";
        let pack = load(&[PackRef::Text {
            name: "spots".into(),
            text: text.into(),
        }])
        .unwrap_or_else(|e| panic!("{}", e.render()));
        let rules = Arc::new(Rules::new(pack));
        // Some figure comes back onto the board from a spot, out of order
        // of id, and stays there for a decision or more.
        let mut unordered = false;
        for seed in 0..6 {
            let mut game =
                Game::new(rules.clone(), Setup::new(2 + seed as usize % 3).seed(seed)).expect("the pack sets up");
            let mut agent = RandomAgent::new(seed);
            assert_invariants(&game);
            while !game.is_over() {
                let options = game.options();
                let choice = agent.choose(&game, &options).expect("random agents choose");
                game.apply(choice).expect("a legal choice");
                assert_invariants(&game);
                unordered |= !game.state.on_board.windows(2).all(|w| w[0].id < w[1].id);
            }
        }
        assert!(unordered, "a figure came back from a spot");
    }
}
