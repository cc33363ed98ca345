//! The public [`Game`]: the game [`State`] plus the turn machine that
//! changes it (tasks, frames, the pending phase, the RNG and a replay's
//! forced draws, rules' pending adjustments and demands, budgets and the
//! event log). This module holds the type, its construction and its
//! read-only accessors; the machine's parts live in their own modules, each
//! adding to `impl Game`: `decide.rs` (options and `apply`), `turn.rs` (the
//! task loop), `statements.rs`, `scoring.rs`, `cards.rs` and `view.rs`.
//!
//! The state's own invariants are kept by `State`; the machine only reaches
//! it through `State`'s mutators.

use super::board::{Board, Pos};
use super::compile::compile;
use super::error::{ErrorKind, GameError};
use super::eval::{Budget, Compiled, Evaluator};
use super::features::{copy_with_room, FeatureId};
use super::ids::{PlacedId, Player, Rotation};
use super::rng::Rng;
use super::rules::Rules;
use super::setup::Setup;
use super::state::{full_stack, State};
use super::task::{Adjustment, Frame, Log, Phase, Spare, Steer, Task};
use super::types::{Decision, Event, Figure, Target};
use super::value::EvalError;
use crate::ir::geometry::{EDGE_NAMES, HALF_EDGE_NAMES};
use crate::ir::{ActionId, CardId};
use crate::ir::{FigureTypeId, ReasonId, TileId};
use std::collections::VecDeque;
use std::sync::Arc;

/// Tasks a search copy has room to queue before its task list grows.
const COPY_TASKS: usize = 16;

/// Frames a search copy has room to open before its frame list grows.
const COPY_FRAMES: usize = 4;

pub use super::ids::MAX_PLAYERS;

/// Most decisions one turn may ask for. Every turn places a tile from a
/// finite stack, so a game is bounded too.
pub const MAX_TURN_DECISIONS: u32 = 1_000;

#[cfg(test)]
thread_local! {
    /// In tests: games made on this thread walk every expression instead of
    /// running its compiled closures (see `compile.rs`'s test).
    pub(super) static WALKED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The expressions of `rules` compiled: once per rules, kept in them and
/// shared by their games.
fn compiled(rules: &Rules) -> Arc<Compiled> {
    let derived = rules
        .derived
        .get_or_init(|| Arc::new(Arc::new(compile(rules))) as Arc<dyn std::any::Any + Send + Sync>);
    match derived.downcast_ref::<Arc<Compiled>>() {
        Some(compiled) => compiled.clone(),
        // Only this function fills the slot.
        None => Arc::new(compile(rules)),
    }
}

/// A game in progress. Cloning is cheap enough for search (the rules are shared).
#[derive(Clone, Debug)]
pub struct Game {
    pub(super) rules: Arc<Rules>,
    /// The rules' expressions compiled, shared by every game of the rules.
    pub(super) compiled: Arc<Compiled>,
    /// Everything on the table; changed only through its mutators.
    pub(super) state: State,
    pub(super) phase: Phase,
    /// Draws fixed in advance (a replay), next first.
    pub(super) forced: VecDeque<TileId>,
    pub(super) rng: Rng,
    /// Card draws fixed in advance (a replay), next first.
    pub(super) forced_cards: VecDeque<CardId>,
    /// Keyed draws ([`Setup::keyed`]): the stack is in key order and every
    /// draw takes the first tile it may take.
    pub(super) keyed: bool,
    /// In a replay every card draw must be one of the forced ones.
    pub(super) replay: bool,
    /// Scorings changed by rules before they are paid.
    pub(super) adjustments: Vec<Adjustment>,
    /// Completed features whose points wait for game end, figures staying.
    pub(super) delayed: Vec<FeatureId>,
    /// Points owed at game end: (player, points, reason).
    pub(super) owed: Vec<(usize, i64, ReasonId)>,
    /// Squares rules require placements to use (`steer`), in the order issued.
    pub(super) steers: Vec<Steer>,
    /// Turns begun so far: 0 during setup, 1 in the first turn.
    pub(super) turn: u32,
    pub(super) tasks: Vec<Task>,
    pub(super) frames: Vec<Frame>,
    pub(super) log: Log,
    /// Set in a player's view: its hidden parts are a sample.
    pub(super) viewer: Option<u8>,
    /// Evaluation work, against `EVAL_BUDGET` and the game's budget.
    pub(super) budget: Budget,
    /// Decisions and rule steps in this turn so far (see `MAX_TURN_DECISIONS`
    /// and `TURN_STEP_BUDGET`), and the rule that asked for the latest
    /// action or choice.
    pub(super) turn_decisions: u32,
    pub(super) turn_steps: u64,
    /// Steps the machine has taken since it last stopped (see `STEP_BUDGET`).
    pub(super) steps: u32,
    pub(super) asking: Option<crate::source::Span>,
    /// Actions (that are not a card's play) taken this turn, with their targets.
    pub(super) taken: Vec<(ActionId, Target)>,
    /// Emptied lists the task loop reuses.
    pub(super) spare: Spare,
}

impl Game {
    /// A new game as `setup` says: the start tile placed, `setup` rules
    /// run, the first tile drawn for the first player.
    ///
    /// Fails with [`ErrorKind::Setup`] for a number of players outside 1 to
    /// [`MAX_PLAYERS`] or a tile or card id the packs do not define, and with the
    /// rule's error when a `setup` rule fails.
    pub fn new(rules: Arc<Rules>, setup: Setup) -> Result<Game, GameError> {
        let Setup {
            players,
            seed,
            stack,
            replay,
            keyed,
        } = setup;
        if let Some(bad) = replay
            .as_ref()
            .and_then(|r| r.draws.iter().find(|t| **t as usize >= rules.pack.tiles.len()))
        {
            return Err(GameError::setup(format!(
                "drawn tile id {bad} is not a tile of the packs, which define {} tile types",
                rules.pack.tiles.len()
            )));
        }
        let cards = rules.pack.program.cards.len();
        if let Some(bad) = replay
            .as_ref()
            .and_then(|r| r.cards.iter().find(|c| **c as usize >= cards))
        {
            return Err(GameError::setup(format!(
                "drawn card id {bad} is not a card of the packs, which define {cards} card kinds"
            )));
        }
        let mut stack = stack.unwrap_or_else(|| full_stack(&rules));
        if let Some(key) = keyed {
            keyed_order(&rules, &mut stack, key);
        }
        let mut game = Game::setup(rules, players, seed, stack)?;
        #[cfg(test)]
        if WALKED.get() {
            // No expression compiled; the game's evaluation budget, made
            // with the compiled ones, is kept.
            game.compiled = Arc::new(Compiled {
                game_eval_budget: game.compiled.game_eval_budget,
                ..Compiled::default()
            });
        }
        game.keyed = keyed.is_some();
        if let Some(replay) = replay {
            game.forced.extend(replay.draws);
            game.forced_cards.extend(replay.cards);
            game.replay = true;
        }
        game.begin()?;
        Ok(game)
    }

    /// The start tile on the board, supplies filled, nothing run yet.
    fn setup(rules: Arc<Rules>, players: usize, seed: u64, stack: Vec<TileId>) -> Result<Game, GameError> {
        if players == 0 || players > MAX_PLAYERS {
            return Err(ErrorKind::Setup.error(format!("a game needs 1 to {MAX_PLAYERS} players, not {players}")));
        }
        let pack = &rules.pack;
        if let Some(bad) = stack.iter().find(|t| **t as usize >= pack.tiles.len()) {
            return Err(GameError::setup(format!(
                "tile id {bad} is not a tile of the packs, which define {} tile types",
                pack.tiles.len()
            )));
        }
        Ok(Game {
            state: State::new(&rules, players, stack),
            compiled: compiled(&rules),
            rules,
            phase: Phase::Running,
            forced: VecDeque::new(),
            rng: Rng::new(seed),
            forced_cards: VecDeque::new(),
            replay: false,
            keyed: false,
            adjustments: Vec::new(),
            delayed: Vec::new(),
            owed: Vec::new(),
            steers: Vec::new(),
            turn: 0,
            tasks: Vec::with_capacity(COPY_TASKS),
            frames: Vec::new(),
            log: Log {
                events: Vec::new(),
                on: true,
                whole: true,
            },
            viewer: None,
            budget: Budget::default(),
            turn_decisions: 0,
            turn_steps: 0,
            steps: 0,
            asking: None,
            taken: Vec::new(),
            spare: Spare::default(),
        })
    }

    /// Stops recording events (for search and simulation, where the log is not needed).
    pub fn set_logging(&mut self, on: bool) {
        self.log.on = on;
        // Events missed from here on leave the log a part of the game.
        self.log.whole &= on;
    }

    /// Whether the log holds every event since the game began (logging
    /// never turned off, and no search copy), as a record needs.
    pub fn log_is_whole(&self) -> bool {
        self.log.whole
    }

    /// A copy for look-ahead: no log is copied or kept.
    pub fn search_clone(&self) -> Game {
        Game {
            rules: self.rules.clone(),
            compiled: self.compiled.clone(),
            phase: self.phase.clone(),
            // Cloning an empty deque still costs a hundred instructions;
            // outside a replay these are always empty.
            forced: clone_deque(&self.forced),
            rng: self.rng.clone(),
            forced_cards: clone_deque(&self.forced_cards),
            adjustments: self.adjustments.clone(),
            delayed: self.delayed.clone(),
            owed: self.owed.clone(),
            steers: self.steers.clone(),
            // Room for the tasks and frames of the next moves: a search
            // copy does not grow them at its first step.
            tasks: copy_with_room(&self.tasks, COPY_TASKS),
            frames: copy_with_room(&self.frames, COPY_FRAMES),
            log: Log {
                events: Vec::new(),
                on: false,
                whole: false,
            },
            budget: self.budget.clone(),
            taken: self.taken.clone(),
            spare: Spare::default(),
            // Cloned last, so the copy can be built in place rather than
            // moved (no clone that could fail comes after it).
            state: self.state.clone(),
            ..*self
        }
    }

    /// Makes this game a search copy of `source`, as
    /// [`Game::search_clone`] would make it, in this game's lists: a search
    /// that looks ahead many times from one game keeps one copy and
    /// allocates only where `source` holds more than the copy has room for.
    /// Any game will do as the copy, of any rules.
    pub fn search_clone_from(&mut self, source: &Game) {
        let Game {
            rules,
            compiled,
            state,
            phase,
            forced,
            rng,
            forced_cards,
            keyed,
            replay,
            adjustments,
            delayed,
            owed,
            steers,
            turn,
            tasks,
            frames,
            log,
            viewer,
            budget,
            turn_decisions,
            turn_steps,
            steps,
            asking,
            taken,
            // Emptied lists, whatever game they were kept in.
            spare: _,
        } = self;
        if !Arc::ptr_eq(rules, &source.rules) {
            *rules = source.rules.clone();
        }
        if !Arc::ptr_eq(compiled, &source.compiled) {
            *compiled = source.compiled.clone();
        }
        state.clone_from(&source.state);
        phase.clone_from(&source.phase);
        forced.clone_from(&source.forced);
        *rng = source.rng.clone();
        forced_cards.clone_from(&source.forced_cards);
        (*keyed, *replay, *turn, *viewer) = (source.keyed, source.replay, source.turn, source.viewer);
        adjustments.clone_from(&source.adjustments);
        delayed.clone_from(&source.delayed);
        owed.clone_from(&source.owed);
        steers.clone_from(&source.steers);
        tasks.clone_from(&source.tasks);
        frames.clone_from(&source.frames);
        // No log, as in any search copy.
        log.events.clear();
        (log.on, log.whole) = (false, false);
        budget.copy_from(&source.budget);
        (*turn_decisions, *turn_steps, *steps, *asking) =
            (source.turn_decisions, source.turn_steps, source.steps, source.asking);
        taken.clone_from(&source.taken);
    }

    /// What evaluation reads: the state, the rules and the budget.
    #[inline]
    pub(super) fn evaluator(&self) -> Evaluator<'_> {
        Evaluator {
            state: &self.state,
            rules: &self.rules,
            budget: &self.budget,
            candidate: None,
            memo: None,
            compiled: &self.compiled,
        }
    }

    /// Records an event if logging is on.
    #[inline]
    pub(super) fn emit(&mut self, event: Event) {
        self.log.emit(event);
    }

    /// The rules being played.
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.state.players()
    }

    /// The player whose turn it is.
    pub fn current_player(&self) -> Player {
        Player::at(self.state.current())
    }

    /// What the game waits for; `None` once it is over.
    pub fn decision(&self) -> Option<Decision> {
        match &self.phase {
            Phase::Place(tile) => Some(Decision::Place {
                player: Player::at(self.state.current()),
                tile: *tile,
            }),
            Phase::Deploy(placed) => Some(Decision::Deploy {
                player: Player::at(self.state.current()),
                placed: *placed,
            }),
            Phase::Choose(p) => Some(Decision::Choose {
                player: Player(p.player()),
                domain: p.domain(),
                optional: p.optional(),
            }),
            Phase::Over | Phase::Running => None,
        }
    }

    /// Where a pending rule's choice is asked: the span of its `choose` or
    /// `may` statement in the packs' sources (`rules.pack().sources()`),
    /// and whether it is a `may` (a yes-or-no question: its one option,
    /// the deciding player, is "yes", and declining is "no"); `None` at
    /// any other decision, and for discarding down to a hand limit, which
    /// no statement asks.
    pub fn question(&self) -> Option<(crate::source::Span, bool)> {
        let Phase::Choose(p) = &self.phase else {
            return None;
        };
        let super::task::Pending::Rule(choice) = &**p else {
            return None;
        };
        let at = self.rules.pack.program.statement_at(choice.at)?;
        Some((at.span, super::statements::is_may(&at.stmt)))
    }

    /// The player who must answer the pending decision.
    pub fn deciding_player(&self) -> Option<Player> {
        match self.decision()? {
            Decision::Place { player, .. } | Decision::Deploy { player, .. } | Decision::Choose { player, .. } => {
                Some(player)
            }
        }
    }

    /// Whether the game has ended (final scoring done).
    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Over)
    }

    /// Scores, by player.
    pub fn scores(&self) -> &[i64] {
        self.state.scores()
    }

    /// A player's points from one reason; `None` for a player or reason the
    /// game does not have.
    pub fn points(&self, player: Player, reason: ReasonId) -> Option<i64> {
        self.state.points(player.index(), reason)
    }

    /// The board.
    pub fn board(&self) -> &Board {
        self.state.board()
    }

    /// Figures on the board.
    pub fn figures(&self) -> &[Figure] {
        self.state.figures()
    }

    /// A figure on the board by id.
    pub fn figure(&self, id: u32) -> Option<&Figure> {
        self.state.figure(id)
    }

    /// A figure by id, on the board or gone from it.
    pub fn figure_or_gone(&self, id: u32) -> Option<&Figure> {
        self.state.figure_or_gone(id)
    }

    /// Copies of `figure` in the player's supply; `None` for a player or
    /// figure type the game does not have.
    pub fn supply(&self, player: Player, figure: FigureTypeId) -> Option<u16> {
        self.state.supply(player.index(), figure)
    }

    /// Neutral figures of this type off the board; `None` for a figure type
    /// the game does not have.
    pub fn neutral_supply(&self, figure: FigureTypeId) -> Option<u16> {
        self.state.neutral_supply(figure)
    }

    /// Tiles drawn so far that fit nowhere and left the game.
    pub fn discarded(&self) -> u32 {
        self.state.discarded()
    }

    /// Tiles left to draw.
    pub fn tiles_left(&self) -> usize {
        self.state.stack().len()
    }

    /// Everything that happened so far.
    pub fn log(&self) -> &[Event] {
        &self.log.events
    }

    /// The cards in a player's hand, by kind; `None` for a player the game
    /// does not have. In a [`View`](crate::engine::View), other players' hands are a sample.
    pub fn hand(&self, player: Player) -> Option<&[CardId]> {
        self.state.hands().get(player.index())
    }

    /// Cards left in a deck's draw pile, and in its discard pile; `None` for
    /// a deck the game does not have.
    pub fn deck_sizes(&self, deck: u16) -> Option<(usize, usize)> {
        Some((
            self.state.piles().get(deck as usize)?.len(),
            self.state.discards().get(deck as usize)?.len(),
        ))
    }

    /// The cards in a deck's discard pile, oldest first, by kind; `None`
    /// for a deck the game does not have. Cards are discarded face up, so
    /// the pile is public: a view keeps it as it is (and samples the cards
    /// not seen, in hands and draw piles, from the rest), and an agent
    /// counting cards reads it here.
    pub fn discard_pile(&self, deck: u16) -> Option<&[CardId]> {
        self.state.discards().get(deck as usize)
    }

    /// Whether this game is a player's [`View`](crate::engine::View) (or a copy of
    /// one), whose hidden parts are a sample rather than what is really there.
    pub fn is_view(&self) -> bool {
        self.viewer.is_some()
    }

    /// The tile placed this turn.
    pub fn placed_tile(&self) -> Option<PlacedId> {
        self.state.placed_tile()
    }

    /// Turns begun so far: 0 before the first turn (during `setup`), 1 in
    /// the first turn.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// The feature-graph node of a segment of a placed tile: the feature,
    /// named at that segment.
    #[inline]
    pub(crate) fn node_of(&self, placed: PlacedId, seg: u8) -> u32 {
        self.state.node_of(placed, seg)
    }

    /// The feature a segment of a placed tile belongs to.
    #[inline]
    pub(crate) fn feature_of(&self, placed: PlacedId, seg: u8) -> FeatureId {
        self.state.feature_of(placed, seg)
    }

    /// Figures on a feature.
    #[inline]
    pub(crate) fn figures_on(&self, feature: FeatureId) -> impl Iterator<Item = &Figure> + '_ {
        self.state.figures_on(feature)
    }

    /// Whether the feature satisfies its kind's `complete when`.
    pub(crate) fn completed(&self, f: FeatureId) -> Result<bool, EvalError> {
        self.evaluator().completed(f)
    }

    /// Whether the tile fits on some square in some rotation.
    pub(crate) fn fits_anywhere(&self, tile: TileId) -> bool {
        if !self.rules.forbids_placement {
            return self.state.fits_anywhere(&self.rules, tile);
        }
        self.budget.look(|| self.fits_anywhere_judged(tile))
    }

    /// [`Game::fits_anywhere`] with the pack's forbid rules judged.
    fn fits_anywhere_judged(&self, tile: TileId) -> bool {
        // A tile that fits only where `forbid placement` rules forbid it
        // counts as fitting nowhere.
        let rules = &*self.rules;
        self.state.board().frontier.iter().any(|slot| {
            rules.distinct_rotations[tile as usize].iter().any(|&rot| {
                slot.accepts(rules.rotated[tile as usize][rot.index()].packed)
                    && self.placement_forbidden(tile, slot.pos, rot).is_none()
            })
        })
    }

    /// Whether two targets name the same thing: features are the same when
    /// they share a root, wherever on the feature each was named.
    pub(crate) fn same_target(&self, a: Target, b: Target) -> bool {
        let features = self.state.features();
        let nodes = features.len() as u32;
        match (a, b) {
            (Target::Feature(x), Target::Feature(y)) if x < nodes && y < nodes => features.find(x) == features.find(y),
            (x, y) => x == y,
        }
    }

    /// Where a target lies on the board: (placed tile, segment).
    pub(crate) fn spot(&self, target: Target) -> Option<(PlacedId, u8)> {
        match target {
            Target::Feature(node) if (node as usize) < self.state.features().len() => Some(self.node_spot(node)),
            Target::Feature(_) => None,
            Target::Figure(id) => self.figure(id).map(|m| (m.placed, m.seg)),
            Target::Tile(t) if t.index() < self.state.board().placed.len() => Some((t, 0)),
            Target::Tile(_) => None,
            Target::None | Target::Player(_) | Target::Card(_) | Target::Square(..) | Target::Option(_) => None,
        }
    }

    /// The tile and segment of a feature-graph node.
    pub(crate) fn node_spot(&self, node: u32) -> (PlacedId, u8) {
        self.state.node_spot(node)
    }

    /// The location name of a segment of a placed tile, in board directions:
    /// its first edge, first half-edge, or its kind's name.
    pub(crate) fn segment_location(&self, placed: PlacedId, seg: u8) -> String {
        let p = &self.state.board().placed[placed.index()];
        let rotated = &self.rules.rotated[p.tile as usize][p.rot.index()];
        if let Some(e) = rotated.seg_edges[seg as usize].iter().next() {
            return EDGE_NAMES[e as usize].to_string();
        }
        if let Some(h) = rotated.seg_halves[seg as usize].iter().next() {
            return HALF_EDGE_NAMES[h as usize].to_string();
        }
        let pack = &self.rules.pack;
        let kind = pack.tiles[p.tile as usize].segments[seg as usize].kind;
        pack.kinds[kind as usize].name.clone()
    }

    /// The square this turn's placement must use: the first square a rule
    /// demanded for this turn where a drawn tile fits, in some rotation no
    /// `forbid placement` rule forbids.
    pub(super) fn bound_square(&self) -> Option<Pos> {
        let Phase::Place(drawn) = self.phase else {
            return None;
        };
        let board = self.state.board();
        let fits = |square: Pos| {
            std::iter::once(drawn)
                .chain(self.state.extras().iter().map(|(t, _)| *t))
                .any(|tile| {
                    Rotation::ALL.iter().any(|&rot| {
                        board.fits(&self.rules, tile, square, rot).is_ok()
                            && self.placement_forbidden(tile, square, rot).is_none()
                    })
                })
        };
        self.steers
            .iter()
            .filter(|s| s.turn == self.turn)
            .map(|s| s.square)
            .find(|square| fits(*square))
    }
}

/// A copy of a deque, without the cost of `VecDeque::clone` when it is empty.
fn clone_deque<T: Clone>(deque: &VecDeque<T>) -> VecDeque<T> {
    if deque.is_empty() {
        VecDeque::new()
    } else {
        deque.clone()
    }
}

/// Puts `stack` in key order for [`Setup::keyed`]: each copy's key hashes
/// `key`, its tile type's name and its copy number, so the order of two
/// tiles never depends on which other tiles the packs define.
fn keyed_order(rules: &Rules, stack: &mut [TileId], key: u64) {
    let mix = |mut h: u64| {
        // SplitMix64's finaliser.
        h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        h ^ (h >> 31)
    };
    let mut copies: std::collections::HashMap<TileId, u64> = std::collections::HashMap::new();
    let mut keyed: Vec<(u64, TileId)> = stack
        .iter()
        .map(|&t| {
            let copy = copies.entry(t).or_insert(0);
            *copy += 1;
            // FNV-1a of the name: stable across runs and machines.
            let name = rules.pack.tiles[t as usize]
                .name
                .bytes()
                .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
                    (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
                });
            (mix(mix(key ^ name).wrapping_add(*copy)), t)
        })
        .collect();
    keyed.sort_unstable();
    for (slot, (_, t)) in stack.iter_mut().zip(keyed) {
        *slot = t;
    }
}
