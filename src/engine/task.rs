//! The turn machine's data: its [`Task`]s and [`Frame`]s, the [`Phase`] it
//! waits in, a [`Pending`] choice, rules' pending changes to scoring and
//! placement, the event [`Log`], and the machine's limits. Plain data below
//! the `Game`, so every part of the engine may name it.

use super::board::Pos;
use super::eval::Compiled;
use super::features::FeatureId;
use super::ids::PlacedId;
use super::rules::Rules;
use super::types::{Event, Target};
use super::value::Value;
use crate::ir::program::{Domain, EventKind};
use crate::ir::BlockId;
use crate::ir::{ReasonId, TileId};
use crate::source::Span;
use std::sync::Arc;

/// Steps the machine may take between two decisions.
pub const STEP_BUDGET: u32 = 200_000;
/// Steps the machine may take in one turn, decisions included.
pub const TURN_STEP_BUDGET: u64 = 2_000_000;
/// Most events a game's log, and most figures its record of figures that
/// left the board, may hold: a game's memory is bounded.
pub const MAX_LOG_EVENTS: usize = 2_000_000;
/// How deeply handlers may trigger further handlers.
pub const MAX_DEPTH: u16 = 32;

/// One unit of work.
#[derive(Clone, Debug)]
pub(super) enum Task {
    StartTurn,
    Draw,
    AwaitPlace(TileId),
    AwaitDeploy(PlacedId),
    /// Check the features around a placed tile for completion, then end the turn.
    Scoring(PlacedId),
    /// Score a feature if it is complete and not yet scored.
    Complete(FeatureId),
    Score {
        feature: FeatureId,
        completed: bool,
    },
    ReturnAll(FeatureId),
    EndTurn,
    /// Make a player discard down to the hand limit.
    Trim(u8),
    NextTurn,
    /// The stack is empty: game-end event, cards, final scoring.
    GameEnd,
    /// Resolve the game-end cards of players from `next` on, in turn order,
    /// each as the current player; then the current player is `saved` again.
    EndCards {
        next: u8,
        saved: u8,
    },
    /// A card resolved on drawing goes to its discard pile.
    ToDiscard(u16),
    /// The player is current again (after a card another player drew
    /// acted as that player).
    Current(u8),
    FinalScoring,
    Finish,
    /// An event fires: every handler's `when` is judged now, against the
    /// state at this moment, and the handlers whose guard held are queued.
    Fire {
        event: EventKind,
        args: EventArgs,
        depth: u16,
        /// The handlers whose gates were judged open where the event fired,
        /// its task then being the next (a bit for each of the first 64 by
        /// their place in `Rules::handlers_of`, the others' gates judged
        /// with their guards), or [`UNJUDGED`].
        open: u64,
    },
    /// Handlers chosen when their event fired, the next one last.
    Handlers {
        args: Vec<Value>,
        chosen: Vec<u16>,
        depth: u16,
    },
    /// Run statement `pc` of a block in a frame.
    Run {
        frame: u32,
        block: BlockId,
        pc: u32,
    },
    /// A `for each` loop: the items left (last first), the slot, the
    /// statement (block and index) whose filter judges them, and the body.
    Each {
        frame: u32,
        slot: u16,
        items: Vec<Value>,
        at: (BlockId, u32),
        body: BlockId,
    },
    /// Drop the top frame.
    PopFrame,
}

/// The locals of a running handler, action or function.
#[derive(Debug)]
pub(super) struct Frame {
    pub locals: Vec<Value>,
    /// Where the rule is written, for error messages.
    pub origin: Span,
    pub depth: u16,
}

impl Clone for Frame {
    fn clone(&self) -> Frame {
        Frame {
            locals: self.locals.clone(),
            origin: self.origin,
            depth: self.depth,
        }
    }

    /// `source` copied into this frame's list of locals.
    fn clone_from(&mut self, source: &Frame) {
        let Frame { locals, origin, depth } = self;
        locals.clone_from(&source.locals);
        (*origin, *depth) = (source.origin, source.depth);
    }
}

/// Most emptied lists of each sort [`Spare`] keeps.
const MAX_SPARE: usize = 16;

/// Emptied lists kept for reuse (up to [`MAX_SPARE`] of each sort), so
/// that the task loop mostly allocates only while they grow: `values`, the
/// locals of handler, action, call and card frames and event arguments;
/// `ids`, the handlers an event chose; `targets`, the options of a rule's
/// choice or of a hand to trim; and `pending`, the box of the last choice
/// answered, for the next. (`members` and `guards` are single lists, kept
/// as their fields say.) A copy of a game starts with none (search clones
/// stay small); a game made a copy of another (`search_clone_from`) keeps
/// its own.
#[derive(Default)]
pub(super) struct Spare {
    pub values: Pool<Value>,
    /// The members of a `choose ... in LIST`, listed before they are
    /// judged: one list for every such `choose` (no `choose` runs while
    /// another lists), so it grows to the longest listing once a game. (A
    /// `choose` over a whole domain judges its members as its scan finds
    /// them, with no list.)
    pub members: Vec<Value>,
    /// The locals of the guards of an event's handlers, kept whole from one
    /// event to the next: a guard writes the slots above the event's
    /// arguments before it reads them, so what an earlier event left there
    /// is never read, and a list kept whole is not emptied value by value.
    pub guards: Vec<Value>,
    pub ids: Pool<u16>,
    pub targets: Pool<Target>,
    pub pending: Option<Box<Pending>>,
    /// The game's own handles on its rules and compiled expressions, which
    /// the task loop holds apart from the game while it runs (taken out
    /// and put back, see `Game::run`).
    pub code: Option<(Arc<Rules>, Arc<Compiled>)>,
}

impl Clone for Spare {
    fn clone(&self) -> Spare {
        Spare::default()
    }
}

impl std::fmt::Debug for Spare {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Spare")
    }
}

/// [`Task::Fire`]'s `open` when no gate was judged where the event fired:
/// every handler's gates are judged with its guard. (A mask of 64 open
/// handlers reads the same, and their gates are judged again, as they
/// may be: a gate only reads.)
pub(super) const UNJUDGED: u64 = u64::MAX;

/// An event's arguments. Most events have one, kept in the task itself, so
/// no list is made for an event whose handlers all pass it by.
#[derive(Clone, Debug)]
pub(super) enum EventArgs {
    One(Value),
    List(Vec<Value>),
}

impl EventArgs {
    /// The arguments in order.
    pub fn as_slice(&self) -> &[Value] {
        match self {
            EventArgs::One(v) => std::slice::from_ref(v),
            EventArgs::List(list) => list,
        }
    }

    /// The arguments as a list, made in a spare one of `spare` for one.
    pub fn into_list(self, spare: &mut Pool<Value>) -> Vec<Value> {
        match self {
            EventArgs::One(v) => {
                let mut list = spare.take();
                list.push(v);
                list
            }
            EventArgs::List(list) => list,
        }
    }

    /// Done with: a list goes back to `spare`.
    pub fn keep(self, spare: &mut Pool<Value>) {
        if let EventArgs::List(list) = self {
            spare.keep(list);
        }
    }
}

/// Emptied lists of one sort (see [`Spare`]).
pub(super) struct Pool<T>(Vec<Vec<T>>);

impl<T> Default for Pool<T> {
    fn default() -> Pool<T> {
        Pool(Vec::new())
    }
}

impl<T> Pool<T> {
    /// An empty list: a kept one when there is one.
    pub fn take(&mut self) -> Vec<T> {
        self.0.pop().unwrap_or_default()
    }

    /// An empty list with room for `room` members: a kept one when there is
    /// one, grown to that room when it has less, so that lists taken for
    /// the same uses grow once a game, not again and again.
    pub fn take_with(&mut self, room: usize) -> Vec<T> {
        let mut v = self.take();
        v.reserve(room);
        v
    }

    /// Keeps a list for reuse, emptied.
    pub fn keep(&mut self, mut v: Vec<T>) {
        if self.0.len() < MAX_SPARE && v.capacity() > 0 {
            v.clear();
            self.0.push(v);
        }
    }
}

/// The rules and their compiled expressions, borrowed from handles the
/// task loop holds apart from the game (so statements borrowed from them can
/// change it).
#[derive(Clone, Copy)]
pub(super) struct Code<'a> {
    pub rules: &'a Rules,
    pub compiled: &'a Compiled,
}

/// What a task asks of the loop.
pub(super) enum Step {
    /// Go on with the next task.
    Next,
    /// Stop: a decision is pending, or the game is over.
    Stop,
}

/// A choice the game waits for, other than placing a tile or deploying.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Pending {
    /// A rule's `choose`.
    Rule(RuleChoice),
    /// The engine makes `player` discard a card of `options` (one at a time)
    /// until their hand is within its limit.
    Trim { player: u8, options: Vec<Target> },
}

/// A rule's `choose` waiting for its answer: the answer goes into local
/// `slot` of `frame`, then `body` runs; declining runs `otherwise`.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct RuleChoice {
    pub player: u8,
    pub domain: Domain,
    pub optional: bool,
    pub options: Vec<Target>,
    pub frame: u32,
    pub slot: u16,
    pub body: BlockId,
    pub otherwise: Option<BlockId>,
    /// The `choose` statement that asks (its block and place), which a
    /// view lists again for its sample (`Game::relist_choice`).
    pub at: (BlockId, u32),
}

impl Pending {
    /// The player who must answer.
    pub(super) fn player(&self) -> u8 {
        match self {
            Pending::Rule(c) => c.player,
            Pending::Trim { player, .. } => *player,
        }
    }

    /// What the choice ranges over (cards, for the hand limit).
    pub(super) fn domain(&self) -> Domain {
        match self {
            Pending::Rule(c) => c.domain,
            Pending::Trim { .. } => Domain::Cards,
        }
    }

    /// Whether the choice may be declined (never, for the hand limit).
    pub(super) fn optional(&self) -> bool {
        match self {
            Pending::Rule(c) => c.optional,
            Pending::Trim { .. } => false,
        }
    }

    /// The targets offered.
    pub(super) fn options(&self) -> &[Target] {
        match self {
            Pending::Rule(c) => &c.options,
            Pending::Trim { options, .. } => options,
        }
    }

    /// The targets offered, to resample in a view.
    pub(super) fn options_mut(&mut self) -> &mut Vec<Target> {
        match self {
            Pending::Rule(c) => &mut c.options,
            Pending::Trim { options, .. } => options,
        }
    }
}

/// The event log: every event, in order, while logging is on.
#[derive(Clone, Debug)]
pub(super) struct Log {
    /// The events so far, in order.
    pub events: Vec<Event>,
    /// Whether events are recorded (search turns it off).
    pub on: bool,
    /// Whether every event since the game began is here: never after
    /// logging was turned off, nor in a search copy. A record needs it.
    pub whole: bool,
}

impl Log {
    /// Records an event if logging is on.
    #[inline]
    pub(super) fn emit(&mut self, event: Event) {
        if self.on {
            self.events.push(event);
        }
    }
}

/// Where the turn machine stands.
#[derive(Clone, Debug)]
pub(super) enum Phase {
    Running,
    Place(TileId),
    Deploy(PlacedId),
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

// Every task is moved as the stack grows and shrinks: a field added to one
// (such as `Fire`'s `open`) must not make them all bigger.
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Task>() == 56);
