//! A game as a state machine: the pending [`Decision`], its legal
//! [`Choice`]s, and [`Game::apply`]. Draws come from the one seeded RNG (or,
//! when replaying, from the record) and every outcome is logged as an
//! [`Event`].

use super::board::{Board, Misfit, PlacedTile, Pos};
use super::eval::View;
use super::features::{FeatureId, Features};
use super::rng::Rng;
use super::rules::Rules;
use crate::ir::geometry::EDGE_NAMES;
use crate::ir::{FigureId, Ownership, ReasonId, TileId, Topology};
use std::sync::Arc;

/// Most players a game may have.
pub const MAX_PLAYERS: usize = 6;

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The player drew `tile` and must place it.
    Place { player: usize, tile: TileId },
    /// The player may deploy a figure on the tile just placed.
    Deploy { player: usize, placed: u16 },
}

/// One answer to a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    /// Put the drawn tile at `pos`, turned `rot` quarter turns clockwise.
    Place { pos: Pos, rot: u8 },
    /// Deploy a figure from supply onto a segment of the tile just placed.
    Deploy { figure: FigureId, seg: u8 },
    /// Deploy nothing.
    Pass,
}

/// A figure on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Meeple {
    pub figure: FigureId,
    /// The owning player; `None` for a neutral figure.
    pub owner: Option<u8>,
    /// Index of the placed tile it stands on, and the segment.
    pub placed: u16,
    pub seg: u8,
}

/// Something that happened, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Drew {
        player: usize,
        tile: TileId,
    },
    /// The drawn tile fit nowhere and left the game.
    Discarded {
        player: usize,
        tile: TileId,
    },
    Placed {
        player: usize,
        tile: TileId,
        pos: Pos,
        rot: u8,
    },
    Deployed {
        player: usize,
        figure: FigureId,
        placed: u16,
        seg: u8,
    },
    Passed {
        player: usize,
    },
    Scored {
        player: usize,
        points: i64,
        reason: ReasonId,
    },
    Returned {
        meeple: Meeple,
    },
    Ended,
}

/// Why a game cannot go on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The choice is not legal now; the text says why in the game's terms.
    Illegal(String),
    /// A rule failed while running; the text names its file and line.
    Rule(String),
    /// The game cannot be set up as asked.
    Setup(String),
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameError::Illegal(m) | GameError::Rule(m) | GameError::Setup(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for GameError {}

/// Every tile of the set except one copy of the start tile.
fn full_stack(rules: &Rules) -> Vec<TileId> {
    let pack = &rules.pack;
    let mut stack = Vec::new();
    for (t, tile) in pack.tiles.iter().enumerate() {
        let copies = tile.count.saturating_sub(u32::from(t == pack.start as usize));
        stack.extend(std::iter::repeat_n(t as TileId, copies as usize));
    }
    stack
}

/// Why a figure may not be deployed (worded by [`Game::deploy_refusal`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refusal {
    NoSegment,
    Complete,
    Occupied,
    Neutral(FigureId),
    CannotStand(FigureId),
    NoneLeft(FigureId),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Place(TileId),
    Deploy(u16),
    Over,
}

/// A game in progress. Cloning is cheap enough for search (the rules are shared).
#[derive(Clone, Debug)]
pub struct Game {
    rules: Arc<Rules>,
    players: usize,
    current: usize,
    phase: Phase,
    board: Board,
    features: Features,
    meeples: Vec<Meeple>,
    /// `supply[player * figures + figure]`.
    supply: Vec<u16>,
    scores: Vec<i64>,
    /// `points[player * reasons + reason]`.
    points: Vec<i64>,
    stack: Vec<TileId>,
    /// Tiles drawn that fit nowhere and left the game.
    discarded: u32,
    /// Draws fixed in advance (a replay), next first.
    forced: std::collections::VecDeque<TileId>,
    rng: Rng,
    log: Vec<Event>,
    logging: bool,
}

impl Game {
    /// A new game of the whole tile set: the start tile placed, the first tile drawn.
    pub fn new(rules: Arc<Rules>, players: usize, seed: u64) -> Result<Game, GameError> {
        let stack = full_stack(&rules);
        Game::with_stack(rules, players, seed, stack)
    }

    /// A new game whose stack holds exactly `stack` (the start tile aside).
    pub fn with_stack(rules: Arc<Rules>, players: usize, seed: u64, stack: Vec<TileId>) -> Result<Game, GameError> {
        let mut game = Game::setup(rules, players, seed, stack)?;
        game.start_turn()?;
        Ok(game)
    }

    /// A new game whose draws are exactly `draws`, in order, from `stack`
    /// (the whole tile set when `None`): a replay, which needs no RNG.
    pub fn replaying(
        rules: Arc<Rules>,
        players: usize,
        stack: Option<Vec<TileId>>,
        draws: Vec<TileId>,
    ) -> Result<Game, GameError> {
        let stack = stack.unwrap_or_else(|| full_stack(&rules));
        let mut game = Game::setup(rules, players, 0, stack)?;
        game.forced.extend(draws);
        game.start_turn()?;
        Ok(game)
    }

    /// The start tile on the board, supplies filled, nothing drawn yet.
    fn setup(rules: Arc<Rules>, players: usize, seed: u64, stack: Vec<TileId>) -> Result<Game, GameError> {
        if players == 0 || players > MAX_PLAYERS {
            return Err(GameError::Setup(format!(
                "a game needs 1 to {MAX_PLAYERS} players, not {players}"
            )));
        }
        let pack = &rules.pack;
        let figures = pack.figures.len();
        let mut supply = vec![0; players * figures];
        for p in 0..players {
            for (f, fig) in pack.figures.iter().enumerate() {
                if fig.ownership == Ownership::PerPlayer {
                    supply[p * figures + f] = fig.count as u16;
                }
            }
        }
        let reasons = pack.reasons.len();
        let start = pack.start;
        let mut game = Game {
            board: Board::new(),
            rules,
            players,
            current: 0,
            phase: Phase::Over,
            features: Features::default(),
            meeples: Vec::new(),
            supply,
            scores: vec![0; players],
            points: vec![0; players * reasons],
            stack,
            discarded: 0,
            forced: Default::default(),
            rng: Rng::new(seed),
            log: Vec::new(),
            logging: true,
        };
        game.put_tile(start, (0, 0), 0);
        Ok(game)
    }

    /// Stops recording events (for search, where the log is not needed).
    pub fn set_logging(&mut self, on: bool) {
        self.logging = on;
    }

    /// A copy for look-ahead: no log is copied or kept.
    pub fn search_clone(&self) -> Game {
        let log = Vec::new();
        let mut copy = Game {
            log,
            rules: self.rules.clone(),
            board: self.board.clone(),
            features: self.features.clone(),
            meeples: self.meeples.clone(),
            supply: self.supply.clone(),
            scores: self.scores.clone(),
            points: self.points.clone(),
            stack: self.stack.clone(),
            forced: self.forced.clone(),
            rng: self.rng.clone(),
            ..*self
        };
        copy.logging = false;
        copy
    }

    /// The rules being played.
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.players
    }

    /// The player whose turn it is.
    pub fn current_player(&self) -> usize {
        self.current
    }

    /// What the game waits for; `None` once it is over.
    pub fn decision(&self) -> Option<Decision> {
        match self.phase {
            Phase::Place(tile) => Some(Decision::Place {
                player: self.current,
                tile,
            }),
            Phase::Deploy(placed) => Some(Decision::Deploy {
                player: self.current,
                placed,
            }),
            Phase::Over => None,
        }
    }

    /// Whether the game has ended (final scoring done).
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Scores, by player.
    pub fn scores(&self) -> &[i64] {
        &self.scores
    }

    /// A player's points from one reason.
    pub fn points(&self, player: usize, reason: ReasonId) -> i64 {
        self.points[player * self.rules.pack.reasons.len() + reason as usize]
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Figures on the board.
    pub fn meeples(&self) -> &[Meeple] {
        &self.meeples
    }

    /// Copies of `figure` in the player's supply.
    pub fn supply(&self, player: usize, figure: FigureId) -> u16 {
        self.supply[player * self.rules.pack.figures.len() + figure as usize]
    }

    /// Tiles drawn so far that fit nowhere and left the game.
    pub fn discarded(&self) -> u32 {
        self.discarded
    }

    /// Tiles left to draw.
    pub fn tiles_left(&self) -> usize {
        self.stack.len()
    }

    /// Everything that happened so far.
    pub fn log(&self) -> &[Event] {
        &self.log
    }

    /// The feature a segment of a placed tile belongs to.
    pub fn feature_of(&self, placed: u16, seg: u8) -> FeatureId {
        self.features
            .find(self.board.placed[placed as usize].first_node + u32::from(seg))
    }

    /// The feature graph.
    pub fn features(&self) -> &Features {
        &self.features
    }

    /// An evaluator over the current board.
    pub fn view(&self) -> View<'_> {
        View {
            pack: &self.rules.pack,
            features: &self.features,
            board: &self.board,
        }
    }

    /// The legal choices for the pending decision.
    pub fn options(&self) -> Vec<Choice> {
        let mut out = Vec::new();
        self.options_into(&mut out);
        out
    }

    /// The legal choices, written into `out` (cleared first) to avoid allocating.
    pub fn options_into(&self, out: &mut Vec<Choice>) {
        out.clear();
        match self.phase {
            Phase::Place(tile) => {
                let rules = &*self.rules;
                for slot in &self.board.frontier {
                    for &rot in &rules.distinct_rotations[tile as usize] {
                        if slot.accepts(rules.rotated[tile as usize][rot as usize].packed) {
                            out.push(Choice::Place { pos: slot.pos, rot });
                        }
                    }
                }
            }
            Phase::Deploy(placed) => {
                out.push(Choice::Pass);
                self.deploy_options(placed, out);
            }
            Phase::Over => {}
        }
    }

    fn deploy_options(&self, placed: u16, out: &mut Vec<Choice>) {
        let pack = &self.rules.pack;
        let tile = &pack.tiles[self.board.placed[placed as usize].tile as usize];
        for seg in 0..tile.segments.len() as u8 {
            if self.deploy_check(placed, seg, None).is_err() {
                continue;
            }
            for (f, fig) in pack.figures.iter().enumerate() {
                let f = f as FigureId;
                if fig.ownership == Ownership::PerPlayer && self.deploy_check(placed, seg, Some(f)).is_ok() {
                    out.push(Choice::Deploy { figure: f, seg });
                }
            }
        }
    }

    /// Why `figure` (or any figure, when `None`) may not be deployed on the
    /// segment, in words, or `None` when it may.
    pub fn deploy_refusal(&self, placed: u16, seg: u8, figure: Option<FigureId>) -> Option<String> {
        let refusal = self.deploy_check(placed, seg, figure).err()?;
        let pack = &self.rules.pack;
        let tile = &pack.tiles[self.board.placed[placed as usize].tile as usize];
        let kind = |seg: u8| &pack.kinds[tile.segments[seg as usize].kind as usize].name;
        let fig = |f: FigureId| &pack.figures[f as usize].name;
        Some(match refusal {
            Refusal::NoSegment => format!("tile {} has no segment {seg}", tile.name),
            Refusal::Complete => format!("the {} is already complete", kind(seg)),
            Refusal::Occupied => format!("the {} already has a figure on it", kind(seg)),
            Refusal::Neutral(f) => format!("{} is not a player's figure", fig(f)),
            Refusal::CannotStand(f) => format!("a {} cannot go on a {}", fig(f), kind(seg)),
            Refusal::NoneLeft(f) => format!("no {} is left in the supply", fig(f)),
        })
    }

    fn deploy_check(&self, placed: u16, seg: u8, figure: Option<FigureId>) -> Result<(), Refusal> {
        let pack = &self.rules.pack;
        let tile = &pack.tiles[self.board.placed[placed as usize].tile as usize];
        let segment = tile.segments.get(seg as usize).ok_or(Refusal::NoSegment)?;
        let feature = self.feature_of(placed, seg);
        if self.features.is_done(feature) && self.meeples_on(feature).next().is_some() {
            return Err(Refusal::Complete);
        }
        if self.meeples_on(feature).any(|m| m.owner.is_some()) {
            return Err(Refusal::Occupied);
        }
        let Some(f) = figure else { return Ok(()) };
        let fig = &pack.figures[f as usize];
        if fig.ownership != Ownership::PerPlayer {
            return Err(Refusal::Neutral(f));
        }
        if fig.posture_on(segment.kind).is_none() {
            return Err(Refusal::CannotStand(f));
        }
        if self.supply(self.current, f) == 0 {
            return Err(Refusal::NoneLeft(f));
        }
        Ok(())
    }

    /// Figures on a feature.
    pub fn meeples_on(&self, feature: FeatureId) -> impl Iterator<Item = &Meeple> + '_ {
        self.meeples
            .iter()
            .filter(move |m| self.feature_of(m.placed, m.seg) == feature)
    }

    /// Applies a choice to the pending decision.
    pub fn apply(&mut self, choice: Choice) -> Result<(), GameError> {
        match (self.phase, choice) {
            (Phase::Place(tile), Choice::Place { pos, rot }) => {
                if rot > 3 {
                    return Err(GameError::Illegal(format!(
                        "rotation must be 0 to 3 quarter turns, not {rot}"
                    )));
                }
                if let Err(misfit) = self.board.fits(&self.rules, tile, pos, rot) {
                    return Err(GameError::Illegal(self.describe_misfit(tile, pos, rot, misfit)));
                }
                let placed = self.put_tile(tile, pos, rot);
                self.emit(Event::Placed {
                    player: self.current,
                    tile,
                    pos,
                    rot,
                });
                self.phase = Phase::Deploy(placed);
                Ok(())
            }
            (Phase::Deploy(placed), Choice::Pass) => self.finish_turn(placed, choice),
            (Phase::Deploy(placed), Choice::Deploy { figure, seg }) => {
                if let Some(why) = self.deploy_refusal(placed, seg, Some(figure)) {
                    return Err(GameError::Illegal(why));
                }
                self.finish_turn(placed, choice)
            }
            (Phase::Over, _) => Err(GameError::Illegal("the game is over".into())),
            (Phase::Place(tile), _) => Err(GameError::Illegal(format!(
                "tile {} must be placed first",
                self.rules.pack.tiles[tile as usize].name
            ))),
            (Phase::Deploy(_), Choice::Place { .. }) => Err(GameError::Illegal(
                "the tile is already placed; deploy a figure or pass".into(),
            )),
        }
    }

    /// The message for a tile that does not fit, in the game's terms.
    pub fn describe_misfit(&self, tile: TileId, pos: Pos, rot: u8, misfit: Misfit) -> String {
        let pack = &self.rules.pack;
        let name = &pack.tiles[tile as usize].name;
        let here = format!("tile {name} at ({}, {}) rot {}", pos.0, pos.1, u32::from(rot) * 90);
        let what = |sig: u16| match sig {
            0 => "field".to_string(),
            k => pack.kinds[k as usize - 1].name.clone(),
        };
        match misfit {
            Misfit::Occupied => {
                let other = self
                    .board
                    .tile_at(pos)
                    .map_or("?", |p| pack.tiles[p.tile as usize].name.as_str());
                format!("{here}: the square already holds tile {other}")
            }
            Misfit::Isolated => format!("{here}: it touches no placed tile"),
            Misfit::Mismatch { edge, mine, theirs } => {
                let side = ["north", "east", "south", "west"][edge as usize];
                let article = if what(theirs).starts_with(['a', 'e', 'i', 'o', 'u']) {
                    "an"
                } else {
                    "a"
                };
                format!(
                    "{here}: its {side} edge ({}) meets {article} {}",
                    what(mine),
                    what(theirs)
                )
            }
        }
    }

    fn emit(&mut self, event: Event) {
        if self.logging {
            self.log.push(event);
        }
    }

    /// Puts a tile on the board and joins its segments to their neighbours.
    fn put_tile(&mut self, tile: TileId, pos: Pos, rot: u8) -> u16 {
        let rules = self.rules.clone();
        let pack = &rules.pack;
        let rotated = &rules.rotated[tile as usize][rot as usize];
        let first_node = self.features.len() as u32;
        let placed = self.board.put(
            &rules,
            PlacedTile {
                tile,
                pos,
                rot,
                first_node,
            },
        );
        for (i, seg) in pack.tiles[tile as usize].segments.iter().enumerate() {
            let open = match pack.kinds[seg.kind as usize].topology {
                Topology::Edges => rotated.seg_edges[i].len(),
                Topology::HalfEdges => rotated.seg_halves[i].len(),
                Topology::Area => 0,
            };
            self.features.add(placed, i as u8, seg.kind, open as u16);
        }
        for (edge, (dx, dy)) in crate::ir::geometry::EDGE_OFFSETS.iter().enumerate() {
            let Some(n) = self.board.tile_at((pos.0 + dx, pos.1 + dy)).copied() else {
                continue;
            };
            let theirs = &rules.rotated[n.tile as usize][n.rot as usize];
            let back = crate::ir::geometry::opposite_edge(edge as u8) as usize;
            let (a, b) = (rotated.edge_seg[edge], theirs.edge_seg[back]);
            if a != super::rules::NONE && b != super::rules::NONE {
                self.features
                    .connect(first_node + u32::from(a), n.first_node + u32::from(b));
            }
            for h in [2 * edge, 2 * edge + 1] {
                let facing = crate::ir::geometry::facing_half_edge(h as u8) as usize;
                let (a, b) = (rotated.half_seg[h], theirs.half_seg[facing]);
                if a != super::rules::NONE && b != super::rules::NONE {
                    self.features
                        .connect(first_node + u32::from(a), n.first_node + u32::from(b));
                }
            }
        }
        placed
    }

    /// Draws tiles until one fits somewhere, or ends the game.
    fn start_turn(&mut self) -> Result<(), GameError> {
        loop {
            let Some(tile) = self.draw()? else {
                return self.end_game();
            };
            self.emit(Event::Drew {
                player: self.current,
                tile,
            });
            if self.fits_anywhere(tile) {
                self.phase = Phase::Place(tile);
                return Ok(());
            }
            self.discarded += 1;
            self.emit(Event::Discarded {
                player: self.current,
                tile,
            });
        }
    }

    fn draw(&mut self) -> Result<Option<TileId>, GameError> {
        if let Some(tile) = self.forced.pop_front() {
            let Some(i) = self.stack.iter().position(|t| *t == tile) else {
                return Err(GameError::Illegal(format!(
                    "tile {} is not in the stack: every copy has been drawn",
                    self.rules.pack.tiles[tile as usize].name
                )));
            };
            return Ok(Some(self.stack.swap_remove(i)));
        }
        if self.stack.is_empty() {
            return Ok(None);
        }
        let i = self.rng.below(self.stack.len());
        Ok(Some(self.stack.swap_remove(i)))
    }

    /// Whether the tile fits on some square in some rotation.
    pub fn fits_anywhere(&self, tile: TileId) -> bool {
        let rotated = &self.rules.rotated[tile as usize];
        self.board.frontier.iter().any(|slot| {
            self.rules.distinct_rotations[tile as usize]
                .iter()
                .any(|&rot| slot.accepts(rotated[rot as usize].packed))
        })
    }

    fn finish_turn(&mut self, placed: u16, choice: Choice) -> Result<(), GameError> {
        let player = self.current;
        match choice {
            Choice::Deploy { figure, seg } => {
                let figures = self.rules.pack.figures.len();
                self.supply[player * figures + figure as usize] -= 1;
                self.meeples.push(Meeple {
                    figure,
                    owner: Some(player as u8),
                    placed,
                    seg,
                });
                self.emit(Event::Deployed {
                    player,
                    figure,
                    placed,
                    seg,
                });
            }
            _ => self.emit(Event::Passed { player }),
        }
        self.score_completed(placed)?;
        self.current = (self.current + 1) % self.players;
        self.start_turn()
    }

    /// Scores every feature the placement completed.
    fn score_completed(&mut self, placed: u16) -> Result<(), GameError> {
        let pack = &self.rules.pack;
        let p = self.board.placed[placed as usize];
        let mut candidates: Vec<FeatureId> = Vec::new();
        for seg in 0..pack.tiles[p.tile as usize].segments.len() as u8 {
            candidates.push(self.feature_of(placed, seg));
        }
        for dy in -1..=1 {
            for dx in -1..=1 {
                let Some(other) = self.board.at((p.pos.0 + dx, p.pos.1 + dy)) else {
                    continue;
                };
                let tile = &pack.tiles[self.board.placed[other as usize].tile as usize];
                for (seg, s) in tile.segments.iter().enumerate() {
                    if pack.kinds[s.kind as usize].topology == Topology::Area {
                        candidates.push(self.feature_of(other, seg as u8));
                    }
                }
            }
        }
        let mut seen = Vec::with_capacity(candidates.len());
        for f in candidates {
            if seen.contains(&f) || self.features.is_done(f) {
                continue;
            }
            seen.push(f);
            let complete = self
                .view()
                .completed(f)
                .map_err(|e| self.rule_error(f, "complete when", e))?;
            if complete {
                self.features.set_done(f);
                self.score_feature(f, true)?;
                self.return_figures(f);
            }
        }
        Ok(())
    }

    fn rule_error(&self, f: FeatureId, clause: &str, e: super::eval::EvalError) -> GameError {
        let kind = &self.rules.pack.kinds[self.features.kind(f) as usize];
        GameError::Rule(format!(
            "{e} in `{clause}` of feature `{}` ({})",
            kind.name,
            self.rules.pack.locate(kind.span)
        ))
    }

    /// Pays a feature's value to the majority of its figures.
    fn score_feature(&mut self, f: FeatureId, completed: bool) -> Result<(), GameError> {
        let rules = self.rules.clone();
        let kind_id = self.features.kind(f);
        let kind = &rules.pack.kinds[kind_id as usize];
        let (formula, clause) = if completed {
            (&kind.score_completed, "score completed")
        } else {
            (&kind.score_final, "score final")
        };
        let Some(formula) = formula else { return Ok(()) };
        let mut counts = vec![0u32; self.players];
        for m in self.meeples_on(f) {
            if let Some(owner) = m.owner {
                counts[owner as usize] += 1;
            }
        }
        let best = counts.iter().copied().max().unwrap_or(0);
        if best == 0 {
            return Ok(());
        }
        let value = self.view().int(formula, f).map_err(|e| self.rule_error(f, clause, e))?;
        for (player, _) in counts.iter().enumerate().filter(|(_, c)| **c == best) {
            self.award(player, value, kind_id);
        }
        Ok(())
    }

    fn award(&mut self, player: usize, points: i64, reason: ReasonId) {
        self.scores[player] += points;
        self.points[player * self.rules.pack.reasons.len() + reason as usize] += points;
        self.emit(Event::Scored { player, points, reason });
    }

    /// Returns every player's figure on the feature to its owner's supply.
    fn return_figures(&mut self, f: FeatureId) {
        let figures = self.rules.pack.figures.len();
        let mut i = 0;
        while i < self.meeples.len() {
            let m = self.meeples[i];
            if m.owner.is_some() && self.feature_of(m.placed, m.seg) == f {
                self.meeples.remove(i);
                if let Some(owner) = m.owner {
                    self.supply[owner as usize * figures + m.figure as usize] += 1;
                }
                self.emit(Event::Returned { meeple: m });
            } else {
                i += 1;
            }
        }
    }

    /// Final scoring of every incomplete feature that holds figures.
    fn end_game(&mut self) -> Result<(), GameError> {
        let mut roots: Vec<FeatureId> = self.meeples.iter().map(|m| self.feature_of(m.placed, m.seg)).collect();
        roots.sort_unstable();
        roots.dedup();
        roots.sort_by_key(|f| (self.features.kind(*f), *f));
        for f in roots {
            if !self.features.is_done(f) {
                self.score_feature(f, false)?;
            }
        }
        self.phase = Phase::Over;
        self.emit(Event::Ended);
        Ok(())
    }

    /// The location name of a segment of a placed tile, in board directions:
    /// its first edge, first half-edge, or its kind's name.
    pub fn segment_location(&self, placed: u16, seg: u8) -> String {
        let p = &self.board.placed[placed as usize];
        let rotated = &self.rules.rotated[p.tile as usize][p.rot as usize];
        if let Some(e) = rotated.seg_edges[seg as usize].iter().next() {
            return EDGE_NAMES[e as usize].to_string();
        }
        if let Some(h) = rotated.seg_halves[seg as usize].iter().next() {
            return crate::ir::geometry::HALF_EDGE_NAMES[h as usize].to_string();
        }
        let pack = &self.rules.pack;
        let kind = pack.tiles[p.tile as usize].segments[seg as usize].kind;
        pack.kinds[kind as usize].name.clone()
    }
}
