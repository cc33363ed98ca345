//! A game as a state machine: the pending [`Decision`], its legal
//! [`Choice`]s, and [`Game::apply`]. Draws come from the one seeded RNG (or,
//! when replaying, from the record) and every outcome is logged as an
//! [`Event`]. The turn itself runs as tasks in `flow.rs`.

use super::board::{Board, Misfit, PlacedTile, Pos};
pub use super::error::{ErrorKind, GameError};
use super::eval::Value;
use super::features::{FeatureId, Features};
use super::flow::{Frame, Pending, Task};
use super::rng::Rng;
use super::rules::Rules;
use crate::ir::geometry::EDGE_NAMES;
use crate::ir::program::{ActionId, CardId, Domain, Window};
use crate::ir::{FigureId, Ownership, ReasonId, TileId, Topology};
use std::sync::Arc;

/// Most players a game may have.
pub const MAX_PLAYERS: usize = 6;

/// Most decisions one turn may ask for. Every turn places a tile from a
/// finite stack, so a game is bounded too.
pub const MAX_TURN_DECISIONS: u32 = 1_000;

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The player drew `tile` and must place it (or take an action first).
    Place { player: usize, tile: TileId },
    /// The player may deploy a figure on the tile just placed (or take an action instead).
    Deploy { player: usize, placed: u16 },
    /// A rule asks the player to choose from `domain`; `optional` allows declining.
    Choose {
        player: usize,
        domain: Domain,
        optional: bool,
    },
}

/// Something on the board, or a player, that a choice names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    None,
    Player(u8),
    /// A feature, by one of its segment nodes: the one a player named, so a
    /// rule that puts a figure on it uses that tile and segment.
    Feature(u32),
    /// A figure on the board, by id.
    Figure(u32),
    /// A placed tile, by index.
    Tile(u16),
    /// A card (kind) in the choosing player's hand.
    Card(u16),
    /// A square of the board.
    Square(i32, i32),
}

/// One answer to a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    /// Put `tile` (the drawn one, or an extra one) at `pos`, turned `rot`
    /// quarter turns clockwise.
    Place { tile: TileId, pos: Pos, rot: u8 },
    /// Deploy a figure from supply onto a segment of the tile just placed.
    Deploy { figure: FigureId, seg: u8 },
    /// Deploy nothing.
    Pass,
    /// Take an action offered with the pending decision.
    Action { action: ActionId, target: Target },
    /// Answer a rule's `choose`.
    Pick(Target),
    /// Decline an optional `choose`.
    Decline,
}

/// A figure on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Meeple {
    /// Unique in the game, never reused.
    pub id: u32,
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
    /// The player took an action; `spot` is where its target was (tile, segment).
    Acted {
        player: usize,
        action: ActionId,
        target: Target,
        spot: Option<(u16, u8)>,
    },
    /// The player answered a `choose`; `spot` as for `Acted`.
    Chose {
        player: usize,
        target: Target,
        spot: Option<(u16, u8)>,
    },
    Declined {
        player: usize,
    },
    /// A card came from a deck into the player's hand (or was resolved at once).
    CardDrawn {
        player: usize,
        card: CardId,
    },
    /// A card left a hand for its discard pile.
    CardDiscarded {
        player: usize,
        card: CardId,
    },
    /// A rule drew another tile to choose from.
    DrewExtra {
        player: usize,
        tile: TileId,
    },
    /// A tile drawn but not placed went back into the stack (`kept`) or left the game.
    TileSetAside {
        tile: TileId,
        kept: bool,
    },
    Scored {
        player: usize,
        points: i64,
        reason: ReasonId,
    },
    /// A rule put a figure on the board, or moved one.
    FigureSet {
        meeple: Meeple,
    },
    Returned {
        meeple: Meeple,
    },
    Ended,
}

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

#[derive(Clone, Debug)]
pub(super) enum Phase {
    Running,
    Place(TileId),
    Deploy(u16),
    Choose(Box<Pending>),
    Over,
}

/// A rule's change to a feature's next scoring (`adjust scoring of`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Adjustment {
    pub(super) feature: FeatureId,
    /// The value that replaces the kind's own, if any.
    pub(super) replace: Option<i64>,
    /// Points added on top.
    pub(super) add: i64,
    /// Where the difference from the kind's own value is paid; `None` pays
    /// everything under the kind.
    pub(super) reason: Option<ReasonId>,
}

/// A rule's demand that the placement of turn `turn` use `square`, if the
/// drawn tile fits there (`steer next placement to`). Demands queue: several
/// for one turn are tried in the order issued, and the first square where
/// the tile fits binds; none is ever cancelled by a later one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Steer {
    pub(super) square: Pos,
    pub(super) turn: u32,
}

/// A game in progress. Cloning is cheap enough for search (the rules are shared).
#[derive(Clone, Debug)]
pub struct Game {
    pub(super) rules: Arc<Rules>,
    pub(super) players: usize,
    pub(super) current: usize,
    pub(super) phase: Phase,
    pub(super) board: Board,
    pub(super) features: Features,
    pub(super) meeples: Vec<Meeple>,
    /// Figures that left the board, so rules can still ask about them.
    pub(super) gone: Vec<Meeple>,
    pub(super) next_meeple: u32,
    /// `supply[player * figures + figure]`.
    pub(super) supply: Vec<u16>,
    /// Neutral figures off the board, by figure type.
    pub(super) neutral: Vec<u16>,
    pub(super) scores: Vec<i64>,
    /// `points[player * reasons + reason]`.
    pub(super) points: Vec<i64>,
    pub(super) stack: Vec<TileId>,
    pub(super) discarded: u32,
    /// Draws fixed in advance (a replay), next first.
    pub(super) forced: std::collections::VecDeque<TileId>,
    pub(super) rng: Rng,
    pub(super) placed_tile: Option<u16>,
    pub(super) game_vars: Vec<Value>,
    /// `player_vars[player * stride + k]`.
    pub(super) player_vars: Vec<i64>,
    /// Draw and discard piles, by deck.
    pub(super) piles: Vec<Vec<CardId>>,
    pub(super) discards: Vec<Vec<CardId>>,
    /// Each player's hand.
    pub(super) hands: Vec<Vec<CardId>>,
    /// Card draws fixed in advance (a replay), next first.
    pub(super) forced_cards: std::collections::VecDeque<CardId>,
    /// In a replay every card draw must be one of the forced ones.
    pub(super) replay: bool,
    /// Extra tiles drawn this turn, with whether they go back into the stack.
    pub(super) extras: Vec<(TileId, bool)>,
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
    pub(super) log: Vec<Event>,
    pub(super) logging: bool,
    /// Set in a player's view: its hidden parts are a sample.
    pub(super) viewer: Option<u8>,
    /// Evaluation work since the last decision (see `EVAL_BUDGET`).
    pub(super) work: std::cell::Cell<u64>,
    /// Evaluation work in the whole game (see `GAME_EVAL_BUDGET_PER_TILE`).
    pub(super) game_work: std::cell::Cell<u64>,
    /// Decisions and rule steps in this turn so far (see `MAX_TURN_DECISIONS`
    /// and `TURN_STEP_BUDGET`), and the rule that asked for the latest
    /// action or choice.
    pub(super) turn_decisions: u32,
    pub(super) turn_steps: u64,
    pub(super) asking: Option<crate::source::Span>,
    /// Actions (that are not a card's play) taken this turn, with their targets.
    pub(super) taken: Vec<(ActionId, Target)>,
}

/// A game as one player may see it ([`Game::view_for`]): what the player
/// cannot see is a sample, so it reads like a game and can be searched
/// (`view.search_clone()` plays on by the real rules), but it is not the game
/// being played and cannot be written as its record.
#[derive(Clone, Debug)]
pub struct View {
    game: Game,
}

impl View {
    /// The player whose view this is.
    pub fn viewer(&self) -> usize {
        self.game.viewer.map_or(0, usize::from)
    }
}

impl std::ops::Deref for View {
    type Target = Game;

    fn deref(&self) -> &Game {
        &self.game
    }
}

/// Shuffles in place (Fisher–Yates) with the given RNG.
fn shuffle<T>(items: &mut [T], rng: &mut Rng) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i + 1));
    }
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
        game.begin()?;
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
        Game::replaying_with_cards(rules, players, stack, draws, Vec::new())
    }

    /// A replay whose card draws are fixed too.
    pub fn replaying_with_cards(
        rules: Arc<Rules>,
        players: usize,
        stack: Option<Vec<TileId>>,
        draws: Vec<TileId>,
        cards: Vec<CardId>,
    ) -> Result<Game, GameError> {
        if let Some(bad) = draws.iter().find(|t| **t as usize >= rules.pack.tiles.len()) {
            return Err(GameError::setup(format!(
                "drawn tile id {bad} is not a tile of the packs, which define {} tile types",
                rules.pack.tiles.len()
            )));
        }
        let stack = stack.unwrap_or_else(|| full_stack(&rules));
        let mut game = Game::setup(rules, players, 0, stack)?;
        game.forced.extend(draws);
        game.forced_cards.extend(cards);
        game.replay = true;
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
        let figures = pack.figures.len();
        let mut supply = vec![0; players * figures];
        let mut neutral = vec![0; figures];
        for (f, fig) in pack.figures.iter().enumerate() {
            match fig.ownership {
                Ownership::PerPlayer => (0..players).for_each(|p| supply[p * figures + f] = fig.count as u16),
                Ownership::Neutral => neutral[f] = fig.count as u16,
            }
        }
        let reasons = pack.reasons.len();
        let start = pack.start;
        let program = &pack.program;
        let mut piles = vec![Vec::new(); program.decks.len()];
        for (c, card) in program.cards.iter().enumerate() {
            piles[card.deck as usize].extend(std::iter::repeat_n(c as CardId, card.count as usize));
        }
        let mut game = Game {
            discards: vec![Vec::new(); piles.len()],
            piles,
            hands: vec![Vec::new(); players],
            forced_cards: Default::default(),
            replay: false,
            extras: Vec::new(),
            adjustments: Vec::new(),
            delayed: Vec::new(),
            owed: Vec::new(),
            steers: Vec::new(),
            turn: 0,
            board: Board::new(),
            features: Features::with_vars(rules.feature_merges.len(), players),
            player_vars: (0..players)
                .flat_map(|_| rules.player_var_init.iter().copied())
                .collect(),
            game_vars: vec![Value::None; pack.program.vars.len()],
            rules,
            players,
            current: 0,
            phase: Phase::Running,
            meeples: Vec::new(),
            gone: Vec::new(),
            next_meeple: 0,
            supply,
            neutral,
            scores: vec![0; players],
            points: vec![0; players * reasons],
            stack,
            discarded: 0,
            forced: Default::default(),
            rng: Rng::new(seed),
            placed_tile: None,
            tasks: Vec::new(),
            frames: Vec::new(),
            log: Vec::new(),
            logging: true,
            viewer: None,
            work: Default::default(),
            game_work: Default::default(),
            turn_decisions: 0,
            turn_steps: 0,
            asking: None,
            taken: Vec::new(),
        };
        game.put_tile(start, (0, 0), 0);
        Ok(game)
    }

    /// Stops recording events (for search and simulation, where the log is not needed).
    pub fn set_logging(&mut self, on: bool) {
        self.logging = on;
    }

    /// A copy for look-ahead: no log is copied or kept.
    pub fn search_clone(&self) -> Game {
        let mut copy = Game {
            log: Vec::new(),
            rules: self.rules.clone(),
            phase: self.phase.clone(),
            board: self.board.clone(),
            features: self.features.clone(),
            meeples: self.meeples.clone(),
            gone: self.gone.clone(),
            supply: self.supply.clone(),
            neutral: self.neutral.clone(),
            scores: self.scores.clone(),
            points: self.points.clone(),
            stack: self.stack.clone(),
            forced: self.forced.clone(),
            rng: self.rng.clone(),
            game_vars: self.game_vars.clone(),
            player_vars: self.player_vars.clone(),
            piles: self.piles.clone(),
            discards: self.discards.clone(),
            hands: self.hands.clone(),
            forced_cards: self.forced_cards.clone(),
            extras: self.extras.clone(),
            adjustments: self.adjustments.clone(),
            delayed: self.delayed.clone(),
            owed: self.owed.clone(),
            tasks: self.tasks.clone(),
            frames: self.frames.clone(),
            steers: self.steers.clone(),
            work: self.work.clone(),
            game_work: self.game_work.clone(),
            taken: self.taken.clone(),
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
        match &self.phase {
            Phase::Place(tile) => Some(Decision::Place {
                player: self.current,
                tile: *tile,
            }),
            Phase::Deploy(placed) => Some(Decision::Deploy {
                player: self.current,
                placed: *placed,
            }),
            Phase::Choose(p) => Some(Decision::Choose {
                player: p.player as usize,
                domain: p.domain,
                optional: p.optional,
            }),
            Phase::Over | Phase::Running => None,
        }
    }

    /// The player who must answer the pending decision.
    pub fn deciding_player(&self) -> Option<usize> {
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
        &self.scores
    }

    /// A player's points from one reason; `None` for a player or reason the
    /// game does not have.
    pub fn points(&self, player: usize, reason: ReasonId) -> Option<i64> {
        let reasons = self.rules.pack.reasons.len();
        if player >= self.players || reason as usize >= reasons {
            return None;
        }
        Some(self.points[player * reasons + reason as usize])
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Figures on the board.
    pub fn meeples(&self) -> &[Meeple] {
        &self.meeples
    }

    /// A figure on the board by id.
    pub fn meeple(&self, id: u32) -> Option<&Meeple> {
        self.meeples.iter().find(|m| m.id == id)
    }

    /// A figure by id, on the board or gone from it.
    pub fn figure_by_id(&self, id: u32) -> Option<&Meeple> {
        self.meeple(id).or_else(|| self.gone.iter().rev().find(|m| m.id == id))
    }

    /// Copies of `figure` in the player's supply; `None` for a player or
    /// figure type the game does not have.
    pub fn supply(&self, player: usize, figure: FigureId) -> Option<u16> {
        let figures = self.rules.pack.figures.len();
        if player >= self.players || figure as usize >= figures {
            return None;
        }
        Some(self.supply_of(player, figure))
    }

    /// [`Game::supply`] for ids the engine knows to be valid.
    pub(super) fn supply_of(&self, player: usize, figure: FigureId) -> u16 {
        self.supply[player * self.rules.pack.figures.len() + figure as usize]
    }

    /// Neutral figures of this type off the board; `None` for a figure type
    /// the game does not have.
    pub fn neutral_supply(&self, figure: FigureId) -> Option<u16> {
        self.neutral.get(figure as usize).copied()
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

    /// The cards in a player's hand, by kind; `None` for a player the game
    /// does not have. In a [`View`], other players' hands are a sample.
    pub fn hand(&self, player: usize) -> Option<&[CardId]> {
        self.hands.get(player).map(Vec::as_slice)
    }

    /// Cards left in a deck's draw pile, and in its discard pile; `None` for
    /// a deck the game does not have.
    pub fn deck_sizes(&self, deck: u16) -> Option<(usize, usize)> {
        Some((
            self.piles.get(deck as usize)?.len(),
            self.discards.get(deck as usize)?.len(),
        ))
    }

    /// The game as `player` may see it, or `None` for a player the game
    /// does not have. Everything the player cannot see is sampled anew with
    /// the view's own RNG, consistent with what they can see: the order of
    /// the tile stack, the cards in other players' hands (each still from
    /// the deck its back shows) and the draw piles. So every id in a view is
    /// a real tile or card, a search from the view plays by the real rules,
    /// and it learns nothing hidden. The sample depends only on what the
    /// player has seen and on `seed`.
    pub fn view_for(&self, player: usize) -> Option<View> {
        self.view_with_seed(player, 0)
    }

    /// [`Game::view_for`] with another sample of the hidden parts for each
    /// `seed` (search that wants many samples asks with many seeds).
    pub fn view_with_seed(&self, player: usize, seed: u64) -> Option<View> {
        if player >= self.players {
            return None;
        }
        let mut view = self.search_clone();
        view.forced.clear();
        view.forced_cards.clear();
        view.replay = false;
        // Seeded from public facts only, never from the game's own RNG.
        let public = [
            player as u64,
            u64::from(self.turn),
            self.board.placed.len() as u64,
            u64::from(self.next_meeple),
            self.stack.len() as u64,
            seed,
        ];
        let mut rng = Rng::new(public.iter().fold(0x5eed_u64, |h, x| {
            (h ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29)
        }));
        // Hidden things are put in a canonical order before they are
        // shuffled, so the sample depends on what is hidden (public: the
        // tiles and cards not yet seen), never on where it really lies.
        view.stack.sort_unstable();
        shuffle(&mut view.stack, &mut rng);
        let program = &self.rules.pack.program;
        for deck in 0..view.piles.len() {
            let of_deck = |c: &CardId| program.deck_of(*c) as usize == deck;
            let mut pool: Vec<CardId> = std::mem::take(&mut view.piles[deck]);
            for (p, hand) in view.hands.iter().enumerate() {
                if p != player {
                    pool.extend(hand.iter().copied().filter(of_deck));
                }
            }
            pool.sort_unstable();
            shuffle(&mut pool, &mut rng);
            for (p, hand) in view.hands.iter_mut().enumerate() {
                if p != player {
                    for card in hand.iter_mut().filter(|c| of_deck(c)) {
                        *card = pool.pop().expect("the pool holds every hidden card of the deck");
                    }
                }
            }
            view.piles[deck] = pool;
        }
        // Another player's pending choice of cards offers the cards of their
        // sampled hand (from the same decks), not their real ones.
        if let Phase::Choose(p) = &mut view.phase {
            if p.domain == Domain::Cards && p.player as usize != player {
                let decks: Vec<u16> = p
                    .options
                    .iter()
                    .filter_map(|t| match t {
                        Target::Card(c) => Some(program.deck_of(*c)),
                        _ => None,
                    })
                    .collect();
                let mut kinds: Vec<CardId> = view.hands[p.player as usize]
                    .iter()
                    .copied()
                    .filter(|c| decks.contains(&program.deck_of(*c)))
                    .collect();
                kinds.sort_unstable();
                kinds.dedup();
                p.options = kinds.into_iter().map(Target::Card).collect();
            }
        }
        view.rng = rng;
        view.viewer = Some(player as u8);
        Some(View { game: view })
    }

    /// Whether this game is a player's [`View`] (or a copy of one), whose
    /// hidden parts are a sample rather than what is really there.
    pub fn is_view(&self) -> bool {
        self.viewer.is_some()
    }

    /// The tile placed this turn.
    pub fn placed_tile(&self) -> Option<u16> {
        self.placed_tile
    }

    /// The feature-graph node of a segment of a placed tile: the feature,
    /// named at that segment.
    pub(crate) fn node_of(&self, placed: u16, seg: u8) -> u32 {
        self.board.placed[placed as usize].first_node + u32::from(seg)
    }

    /// The feature a segment of a placed tile belongs to.
    pub(crate) fn feature_of(&self, placed: u16, seg: u8) -> FeatureId {
        self.features
            .find(self.board.placed[placed as usize].first_node + u32::from(seg))
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
        match &self.phase {
            Phase::Place(drawn) => {
                let rules = &*self.rules;
                for tile in std::iter::once(*drawn).chain(self.extras.iter().map(|(t, _)| *t)) {
                    for slot in &self.board.frontier {
                        for &rot in &rules.distinct_rotations[tile as usize] {
                            if slot.accepts(rules.rotated[tile as usize][rot as usize].packed) {
                                out.push(Choice::Place {
                                    tile,
                                    pos: slot.pos,
                                    rot,
                                });
                            }
                        }
                    }
                }
                if let Some(square) = self.bound_square() {
                    out.retain(|c| matches!(c, Choice::Place { pos, .. } if *pos == square));
                }
                self.action_options(Window::BeforePlace, out);
            }
            Phase::Deploy(placed) => {
                out.push(Choice::Pass);
                self.deploy_options(*placed, out);
                self.action_options(Window::Deploy, out);
            }
            Phase::Choose(p) => {
                out.extend(p.options.iter().map(|t| Choice::Pick(*t)));
                if p.optional {
                    out.push(Choice::Decline);
                }
            }
            Phase::Over | Phase::Running => {}
        }
    }

    fn action_options(&self, window: Window, out: &mut Vec<Choice>) {
        if !self.rules.has_actions(window) {
            return;
        }
        for (id, action) in self.rules.pack.program.actions.iter().enumerate() {
            if action.window == window {
                for target in self.action_targets(id as ActionId) {
                    out.push(Choice::Action {
                        action: id as ActionId,
                        target,
                    });
                }
            }
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
    /// segment, or `None` when it may.
    pub(crate) fn deploy_refusal(&self, placed: u16, seg: u8, figure: Option<FigureId>) -> Option<GameError> {
        let refusal = self.deploy_check(placed, seg, figure).err()?;
        let pack = &self.rules.pack;
        let tile = &pack.tiles[self.board.placed[placed as usize].tile as usize];
        let kind = |seg: u8| &pack.kinds[tile.segments[seg as usize].kind as usize].name;
        let fig = |f: FigureId| &pack.figures[f as usize].name;
        Some(match refusal {
            Refusal::NoSegment => ErrorKind::NoSuchSegment.error(format!("tile {} has no segment {seg}", tile.name)),
            Refusal::NoFigure(f) => ErrorKind::NoSuchId.error(format!(
                "figure type {f} does not exist; the packs define {}",
                pack.figures.len()
            )),
            Refusal::Complete => ErrorKind::FeatureComplete.error(format!("the {} is already complete", kind(seg))),
            Refusal::Occupied => {
                ErrorKind::FeatureOccupied.error(format!("the {} already has a figure on it", kind(seg)))
            }
            Refusal::Neutral(f) => ErrorKind::NeutralFigure.error(format!("{} is not a player's figure", fig(f))),
            Refusal::CannotStand(f) => {
                ErrorKind::FigureCannotStand.error(format!("{} cannot go on a {}", with_article(fig(f)), kind(seg)))
            }
            Refusal::NoneLeft(f) => ErrorKind::SupplyEmpty.error(format!("no {} is left in the supply", fig(f))),
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
        let fig = pack.figures.get(f as usize).ok_or(Refusal::NoFigure(f))?;
        if fig.ownership != Ownership::PerPlayer {
            return Err(Refusal::Neutral(f));
        }
        if fig.posture_on(segment.kind).is_none() {
            return Err(Refusal::CannotStand(f));
        }
        if self.supply_of(self.current, f) == 0 {
            return Err(Refusal::NoneLeft(f));
        }
        Ok(())
    }

    /// Figures on a feature.
    pub(crate) fn meeples_on(&self, feature: FeatureId) -> impl Iterator<Item = &Meeple> + '_ {
        let root = self.features.find(feature);
        self.meeples
            .iter()
            .filter(move |m| self.feature_of(m.placed, m.seg) == root)
    }

    /// Applies a choice to the pending decision.
    pub fn apply(&mut self, choice: Choice) -> Result<(), GameError> {
        if self.turn_decisions >= MAX_TURN_DECISIONS && self.decision().is_some() {
            let at = self
                .asking
                .map_or("the rules".to_string(), |s| self.rules.pack.locate(s));
            return Err(ErrorKind::Runaway.error(format!(
                "a rule ran away: more than {MAX_TURN_DECISIONS} decisions in one turn (the rule that keeps asking: {at})"
            )));
        }
        let asking = match (&self.phase, choice) {
            (Phase::Place(_) | Phase::Deploy(_), Choice::Action { action, .. }) => {
                self.rules.pack.program.actions.get(action as usize).map(|a| a.span)
            }
            (Phase::Choose(p), _) if !p.trim => self.frames.get(p.frame as usize).map(|f| f.origin),
            _ => None,
        };
        let player = self.current;
        match (&self.phase, choice) {
            (Phase::Place(drawn), Choice::Place { tile, pos, rot }) => {
                let drawn = *drawn;
                if tile != drawn && !self.extras.iter().any(|(t, _)| *t == tile) {
                    let name = |t: TileId| self.rules.pack.tiles.get(t as usize).map_or("?", |x| x.name.as_str());
                    return Err(ErrorKind::TileNotDrawn.error(format!(
                        "tile {} was not drawn; the drawn tile is {}",
                        name(tile),
                        name(drawn)
                    )));
                }
                if rot > 3 {
                    return Err(
                        ErrorKind::BadRotation.error(format!("rotation must be 0 to 3 quarter turns, not {rot}"))
                    );
                }
                if let Err(misfit) = self.board.fits(&self.rules, tile, pos, rot) {
                    return Err(ErrorKind::from(misfit).error(self.describe_misfit(tile, pos, rot, misfit)));
                }
                if let Some(square) = self.bound_square().filter(|s| *s != pos) {
                    return Err(ErrorKind::SquareRequired.error(format!(
                        "the tile must go on square ({}, {}), where it fits",
                        square.0, square.1
                    )));
                }
                // Demands on this turn's placement are spent, used or not.
                let turn = self.turn;
                self.steers.retain(|s| s.turn > turn);
                let placed = self.put_tile(tile, pos, rot);
                self.placed_tile = Some(placed);
                self.emit(Event::Placed { player, tile, pos, rot });
                self.set_aside_unplaced(drawn, tile);
                self.after_place(placed);
            }
            (Phase::Deploy(placed), Choice::Pass) => {
                let placed = *placed;
                self.emit(Event::Passed { player });
                self.after_deploy(placed, None);
            }
            (Phase::Deploy(placed), Choice::Deploy { figure, seg }) => {
                let placed = *placed;
                if let Some(why) = self.deploy_refusal(placed, seg, Some(figure)) {
                    return Err(why);
                }
                let meeple = self.add_meeple(figure, Some(player as u8), placed, seg);
                self.emit(Event::Deployed {
                    player,
                    figure,
                    placed,
                    seg,
                });
                self.after_deploy(placed, Some(meeple));
            }
            (Phase::Place(_) | Phase::Deploy(_), Choice::Action { action, target }) => {
                let window = self.rules.pack.program.actions.get(action as usize).map(|a| a.window);
                let allowed = match (&self.phase, window) {
                    (Phase::Place(_), Some(Window::BeforePlace)) | (Phase::Deploy(_), Some(Window::Deploy)) => {
                        self.action_targets(action).iter().any(|t| self.same_target(*t, target))
                    }
                    _ => false,
                };
                if !allowed {
                    let name = self
                        .rules
                        .pack
                        .program
                        .actions
                        .get(action as usize)
                        .map_or("?", |a| a.name.as_str());
                    return Err(
                        ErrorKind::ActionUnavailable.error(format!("the action `{name}` is not available on that now"))
                    );
                }
                let spot = self.spot(target);
                self.emit(Event::Acted {
                    player,
                    action,
                    target,
                    spot,
                });
                match self.rules.pack.program.actions[action as usize].card {
                    Some(card) => self.discard_card(player, card),
                    None => self.taken.push((action, target)),
                }
                let after = match self.phase {
                    Phase::Place(tile) => Task::AwaitPlace(tile),
                    Phase::Deploy(placed) => Task::Scoring(placed),
                    _ => unreachable!("actions are checked against the phase above"),
                };
                self.tasks.push(after);
                self.start_action(action, target);
            }
            (Phase::Choose(p), Choice::Pick(target)) => {
                if !p.options.iter().any(|t| self.same_target(*t, target)) {
                    return Err(ErrorKind::NotAnOption.error("that is not one of the choices"));
                }
                let p = p.clone();
                let spot = self.spot(target);
                self.emit(Event::Chose {
                    player: p.player as usize,
                    target,
                    spot,
                });
                self.resume_pick(&p, target);
            }
            (Phase::Choose(p), Choice::Decline) => {
                if !p.optional {
                    return Err(ErrorKind::CannotDecline.error("this choice must be made; it cannot be declined"));
                }
                let p = p.clone();
                self.emit(Event::Declined {
                    player: p.player as usize,
                });
                self.resume_decline(&p);
            }
            (Phase::Over, _) => return Err(ErrorKind::GameOver.error("the game is over")),
            (Phase::Place(tile), _) => {
                return Err(ErrorKind::WrongDecision.error(format!(
                    "tile {} must be placed first",
                    self.rules.pack.tiles[*tile as usize].name
                )))
            }
            (Phase::Deploy(_), _) => {
                return Err(ErrorKind::WrongDecision.error("the tile is already placed; deploy a figure or pass"))
            }
            (Phase::Choose(_), _) => {
                return Err(ErrorKind::WrongDecision.error("a choice is pending; pick one of its options"))
            }
            (Phase::Running, _) => return Err(ErrorKind::WrongDecision.error("the game is not waiting for a decision")),
        }
        self.turn_decisions += 1;
        self.asking = asking.or(self.asking);
        self.phase = Phase::Running;
        self.run()
    }

    /// Whether two targets name the same thing: features are the same when
    /// they share a root, wherever on the feature each was named.
    pub(crate) fn same_target(&self, a: Target, b: Target) -> bool {
        let nodes = self.features.len() as u32;
        match (a, b) {
            (Target::Feature(x), Target::Feature(y)) if x < nodes && y < nodes => {
                self.features.find(x) == self.features.find(y)
            }
            (x, y) => x == y,
        }
    }

    /// The square this turn's placement must use: the first square a rule
    /// demanded for this turn where a drawn tile fits, in some rotation.
    fn bound_square(&self) -> Option<Pos> {
        let Phase::Place(drawn) = self.phase else {
            return None;
        };
        let fits = |square: Pos| {
            std::iter::once(drawn)
                .chain(self.extras.iter().map(|(t, _)| *t))
                .any(|tile| (0..4).any(|rot| self.board.fits(&self.rules, tile, square, rot).is_ok()))
        };
        self.steers
            .iter()
            .filter(|s| s.turn == self.turn)
            .map(|s| s.square)
            .find(|square| fits(*square))
    }

    /// Turns begun so far: 0 before the first turn (during `setup`), 1 in
    /// the first turn.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Where a target lies on the board: (placed tile, segment).
    pub(crate) fn spot(&self, target: Target) -> Option<(u16, u8)> {
        match target {
            Target::Feature(node) if (node as usize) < self.features.len() => Some(self.node_spot(node)),
            Target::Feature(_) => None,
            Target::Figure(id) => self.meeple(id).map(|m| (m.placed, m.seg)),
            Target::Tile(t) => Some((t, 0)),
            Target::None | Target::Player(_) | Target::Card(_) | Target::Square(..) => None,
        }
    }

    /// The tile and segment of a feature-graph node.
    pub(crate) fn node_spot(&self, node: u32) -> (u16, u8) {
        let placed = self.board.placed.partition_point(|p| p.first_node <= node) - 1;
        (placed as u16, (node - self.board.placed[placed].first_node) as u8)
    }

    /// The message for a tile that does not fit, in the game's terms.
    pub(crate) fn describe_misfit(&self, tile: TileId, pos: Pos, rot: u8, misfit: Misfit) -> String {
        let pack = &self.rules.pack;
        let name = &pack.tiles[tile as usize].name;
        let here = format!("tile {name} at ({}, {}) rot {}", pos.0, pos.1, u32::from(rot) * 90);
        let kind_name = |k: u16| {
            if k == 0 {
                "nothing".to_string()
            } else {
                pack.kinds[k as usize - 1].name.clone()
            }
        };
        let what = |sig: u16| match sig {
            0 => "nothing".to_string(),
            s if s & super::rules::HALVES != 0 => match super::rules::half_kinds(s) {
                (a, b) if a == b => kind_name(a),
                (a, b) => format!("{} and {}", kind_name(a), kind_name(b)),
            },
            k => kind_name(k),
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

    /// Moves a card from a player's hand to its deck's discard pile.
    pub(super) fn discard_card(&mut self, player: usize, card: CardId) {
        if let Some(i) = self.hands[player].iter().position(|c| *c == card) {
            self.hands[player].remove(i);
            let deck = self.rules.pack.program.deck_of(card);
            self.discards[deck as usize].push(card);
            self.emit(Event::CardDiscarded { player, card });
        }
    }

    /// After a placement, the tiles drawn but not placed go back into the
    /// stack or leave the game, as the rule that drew the extra one said.
    fn set_aside_unplaced(&mut self, drawn: TileId, placed: TileId) {
        let mut unplaced: Vec<(TileId, bool)> = std::mem::take(&mut self.extras);
        if let Some(i) = unplaced.iter().position(|(t, _)| *t == placed) {
            let (_, keep) = unplaced.remove(i);
            unplaced.insert(0, (drawn, keep));
        }
        for (tile, keep) in unplaced {
            if keep {
                self.stack.push(tile);
            } else {
                self.discarded += 1;
            }
            self.emit(Event::TileSetAside { tile, kept: keep });
        }
    }

    pub(super) fn emit(&mut self, event: Event) {
        if self.logging {
            self.log.push(event);
        }
    }

    /// Puts a figure on the board; returns its id.
    pub(super) fn add_meeple(&mut self, figure: FigureId, owner: Option<u8>, placed: u16, seg: u8) -> u32 {
        let figures = self.rules.pack.figures.len();
        match owner {
            Some(p) => self.supply[p as usize * figures + figure as usize] -= 1,
            None => self.neutral[figure as usize] -= 1,
        }
        let id = self.next_meeple;
        self.next_meeple += 1;
        self.meeples.push(Meeple {
            id,
            figure,
            owner,
            placed,
            seg,
        });
        id
    }

    /// Puts a tile on the board and joins its segments to their neighbours.
    pub(super) fn put_tile(&mut self, tile: TileId, pos: Pos, rot: u8) -> u16 {
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
            self.features
                .add(placed, i as u8, seg.kind, open as u16, &rules.feature_var_init);
        }
        for (edge, (dx, dy)) in crate::ir::geometry::EDGE_OFFSETS.iter().enumerate() {
            let Some(n) = self.board.tile_at((pos.0 + dx, pos.1 + dy)).copied() else {
                continue;
            };
            let theirs = &rules.rotated[n.tile as usize][n.rot as usize];
            let back = crate::ir::geometry::opposite_edge(edge as u8) as usize;
            let (a, b) = (rotated.edge_seg[edge], theirs.edge_seg[back]);
            if a != super::rules::NONE && b != super::rules::NONE {
                self.features.connect(
                    first_node + u32::from(a),
                    n.first_node + u32::from(b),
                    &rules.feature_merges,
                );
            }
            for h in [2 * edge, 2 * edge + 1] {
                let facing = crate::ir::geometry::facing_half_edge(h as u8) as usize;
                let (a, b) = (rotated.half_seg[h], theirs.half_seg[facing]);
                let same_kind = || {
                    pack.tiles[tile as usize].segments[a as usize].kind
                        == pack.tiles[n.tile as usize].segments[b as usize].kind
                };
                if a != super::rules::NONE && b != super::rules::NONE && same_kind() {
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

    /// Draws a tile: the next forced draw, or one at random; `None` when the stack is empty.
    pub(super) fn draw(&mut self) -> Result<Option<TileId>, GameError> {
        if let Some(tile) = self.forced.pop_front() {
            let Some(i) = self.stack.iter().position(|t| *t == tile) else {
                return Err(ErrorKind::TileNotInStack.error(format!(
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
    pub(crate) fn fits_anywhere(&self, tile: TileId) -> bool {
        let rotated = &self.rules.rotated[tile as usize];
        self.board.frontier.iter().any(|slot| {
            self.rules.distinct_rotations[tile as usize]
                .iter()
                .any(|&rot| slot.accepts(rotated[rot as usize].packed))
        })
    }

    /// The location name of a segment of a placed tile, in board directions:
    /// its first edge, first half-edge, or its kind's name.
    pub(crate) fn segment_location(&self, placed: u16, seg: u8) -> String {
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

/// Why a figure may not be deployed (worded by [`Game::deploy_refusal`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refusal {
    NoSegment,
    NoFigure(FigureId),
    Complete,
    Occupied,
    Neutral(FigureId),
    CannotStand(FigureId),
    NoneLeft(FigureId),
}

/// "a follower", "an eagle".
pub fn with_article(word: &str) -> String {
    match word.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u') => format!("an {word}"),
        _ => format!("a {word}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{Agent, RandomAgent};
    use crate::check::{load, PackRef};

    /// Every placement draws a card, kept in the hand.
    const TOKENS: &str = "pack tokens\nrequires base\ndeck tokens\n\
        card sun x4 in tokens { kept }\ncard moon x4 in tokens { kept }\n\
        on tile_placed { draw card from tokens }\n";

    /// A game of base and a pack with a deck, played at random until
    /// player 1 holds a card that differs from one left in its draw pile.
    fn game_with_a_hidden_card() -> Game {
        let refs = [
            PackRef::Bundled("base".into()),
            PackRef::Text {
                name: "tokens.rules".into(),
                text: TOKENS.into(),
            },
        ];
        let rules = Arc::new(Rules::new(load(&refs).expect("bundled packs load")));
        let mut game = Game::new(rules, 2, 7).expect("two players can play");
        let mut agent = RandomAgent::new(3);
        while !(game.hands[1].iter().any(|c| game.piles[0].iter().any(|d| d != c))) {
            let options = game.options();
            let choice = agent.choose(&game, &options).expect("random agents choose");
            game.apply(choice).expect("options are legal");
        }
        game
    }

    #[test]
    fn a_view_depends_only_on_what_its_player_sees() {
        let game = game_with_a_hidden_card();
        // The same game as player 0 sees it, with everything hidden moved:
        // a card of player 1 swapped with another from the draw pile, the
        // stack and the piles reordered, another RNG.
        let mut twin = game.clone();
        let held = twin.hands[1][0];
        let i = twin.piles[0].iter().position(|c| *c != held).expect("a different card");
        std::mem::swap(&mut twin.hands[1][0], &mut twin.piles[0][i]);
        twin.stack.reverse();
        twin.piles[0].reverse();
        twin.rng = Rng::new(99);
        let (a, b) = (game.view_for(0).expect("player 0"), twin.view_for(0).expect("player 0"));
        assert_eq!(a.hands, b.hands);
        assert_eq!(a.piles, b.piles);
        assert_eq!(a.stack, b.stack);
        assert_eq!(format!("{:?}", a.rng), format!("{:?}", b.rng));
        assert_eq!(a.hands[0], game.hands[0], "a player sees their own hand");
        // Another seed samples again.
        let c = game.view_with_seed(0, 1).expect("player 0");
        assert!(c.stack != a.stack || c.hands != a.hands);
    }
}
