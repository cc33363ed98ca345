//! The engine's small value types: who plays ([`Player`]), which tile on the
//! board ([`PlacedId`]) and how a tile is turned ([`Rotation`]). Each is its
//! own type, so a player is never confused with a tile index and a rotation
//! is never read in degrees where quarter turns are meant.

/// Most players a game may have.
pub const MAX_PLAYERS: usize = 6;

/// A seat at the table: 0 for the first player, in turn order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Player(pub u8);

impl Player {
    /// The seat of `index` (0 for the first player), for code that has
    /// already checked it against the number of players.
    #[inline]
    pub(crate) fn at(index: usize) -> Player {
        Player(index as u8)
    }

    /// The seat as an index into per-player tables such as [`crate::Game::scores`].
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

impl std::fmt::Display for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A tile on the board, by the order of placement: 0 is the start tile, 1
/// the first tile placed, and so on. Tiles never leave the board, so an id
/// stays valid for the rest of the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PlacedId(pub u16);

impl PlacedId {
    /// The id as an index into [`crate::engine::Board::tiles`].
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// How a tile is turned: 0 to 3 quarter turns clockwise. Records write it
/// in degrees (0, 90, 180, 270); [`Rotation::from_degrees`] and
/// [`Rotation::degrees`] convert.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rotation(u8);

impl Rotation {
    /// Every rotation, unturned first.
    pub const ALL: [Rotation; 4] = [Rotation(0), Rotation(1), Rotation(2), Rotation(3)];

    /// `quarter_turns` clockwise, if it is 0 to 3.
    pub fn new(quarter_turns: u8) -> Option<Rotation> {
        (quarter_turns < 4).then_some(Rotation(quarter_turns))
    }

    /// A rotation given in degrees clockwise: 0, 90, 180 or 270.
    pub fn from_degrees(degrees: i64) -> Option<Rotation> {
        match degrees {
            0 => Some(Rotation(0)),
            90 => Some(Rotation(1)),
            180 => Some(Rotation(2)),
            270 => Some(Rotation(3)),
            _ => None,
        }
    }

    /// `quarter_turns` modulo 4, for code that has already checked the range.
    pub(crate) const fn wrapping(quarter_turns: u8) -> Rotation {
        Rotation(quarter_turns & 3)
    }

    /// The rotation as an index into per-rotation tables.
    #[inline]
    pub(crate) fn index(self) -> usize {
        usize::from(self.0)
    }

    /// Quarter turns clockwise, 0 to 3.
    pub fn quarter_turns(self) -> u8 {
        self.0
    }

    /// Degrees clockwise: 0, 90, 180 or 270.
    pub fn degrees(self) -> u16 {
        u16::from(self.0) * 90
    }
}

impl std::fmt::Display for Rotation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}°", self.degrees())
    }
}
