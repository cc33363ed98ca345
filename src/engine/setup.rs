//! How a game starts ([`Setup`]): the number of players, the seed, and
//! optionally the exact tile stack or every draw fixed in advance (a
//! replay). One value instead of a constructor per combination, so a new
//! option (a variant's setup, a stack phase) is one more method.

use crate::ir::{CardId, TileId};

/// The choices made before a game begins, given to [`crate::Game::new`].
///
/// ```
/// use meeple::Setup;
/// let setup = Setup::new(3).seed(42); // three players; seed 42 gives the same game every time
/// assert_eq!(setup.players(), 3);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub(super) players: usize,
    pub(super) seed: u64,
    pub(super) stack: Option<Vec<TileId>>,
    pub(super) replay: Option<Replay>,
    pub(super) keyed: Option<u64>,
}

/// Draws fixed in advance, next first: every tile and card a replay draws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Replay {
    pub(super) draws: Vec<TileId>,
    pub(super) cards: Vec<CardId>,
}

impl Setup {
    /// A game of `players` players (1 to [`crate::engine::MAX_PLAYERS`],
    /// checked when the game starts) with the whole tile set and seed 0.
    pub fn new(players: usize) -> Setup {
        Setup {
            players,
            seed: 0,
            stack: None,
            replay: None,
            keyed: None,
        }
    }

    /// The seed of the game's one random number generator: the same rules,
    /// setup and decisions always give the same game.
    pub fn seed(mut self, seed: u64) -> Setup {
        self.seed = seed;
        self
    }

    /// The stack holds exactly `tiles` (the start tile aside) instead of the
    /// whole tile set; the order does not matter, draws are random.
    pub fn stack(mut self, tiles: Vec<TileId>) -> Setup {
        self.stack = Some(tiles);
        self
    }

    /// A replay: the tiles are drawn as `draws` says, in order (once the
    /// list is used up, from the stack with the seeded RNG), and every card
    /// drawn from a deck is the next of `cards`; a card draw the list does
    /// not cover is an error rather than a random draw.
    pub fn replay(mut self, draws: Vec<TileId>, cards: Vec<CardId>) -> Setup {
        self.replay = Some(Replay { draws, cards });
        self
    }

    /// Keyed draws: every tile draw takes, among the tiles it may take, the
    /// one with the smallest key, a hash of `key`, the tile type's name and
    /// the copy's number (first, second, ... copy of that type), instead of
    /// one at random. Two games with the same `key` whose tile sets differ
    /// still draw their common tiles in the same relative order (common
    /// random numbers for comparing variants); the game's other random
    /// draws still come from its seed.
    pub fn keyed(mut self, key: u64) -> Setup {
        self.keyed = Some(key);
        self
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.players
    }
}
