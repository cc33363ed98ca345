//! Why a game or a replay stopped, as data: an [`ErrorKind`] that tests and
//! records can name, and the words for a person, rendered only when shown.

use super::board::Misfit;
use serde::{Deserialize, Serialize};

/// The kinds of failure of a game, or of a record's replay. A record that
/// must fail names one (`fails` in docs/records.md), so a record failing for
/// another reason is caught.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ErrorKind {
    // Placing a tile.
    /// The placed tile is not the one drawn (nor among the turn's draws).
    TileNotDrawn,
    /// A rotation other than 0, 90, 180 or 270 degrees.
    BadRotation,
    /// The square already holds a tile.
    SquareTaken,
    /// The tile would touch no placed tile.
    NotAdjacent,
    /// An edge of the tile meets a neighbour's edge of another kind.
    EdgeMismatch,
    /// A rule requires the tile on another square, where it fits.
    SquareRequired,
    /// The drawn tile fits nowhere, so the step must be a `Discard`.
    MustDiscard,
    /// A `Discard` of a tile that fits on the board.
    CannotDiscard,
    /// A `forbid placement` or `forbid deployment` rule forbids the choice;
    /// the message gives the rule's reason.
    Forbidden,
    /// The tile cannot be drawn: the stack holds no (more) copies of it.
    TileNotInStack,
    /// The tile cannot be drawn now: its stack comes after one that still
    /// holds tiles, or it is pinned `last` while other tiles remain in its stack.
    TileNotNext,
    // Deploying a figure.
    /// The placed tile has no segment at the location named.
    NoSuchSegment,
    /// The location names several segments of the tile.
    AmbiguousSegment,
    /// The feature already holds a player's figure.
    FeatureOccupied,
    /// The feature is already complete.
    FeatureComplete,
    /// The figure belongs to no player (a neutral figure).
    NeutralFigure,
    /// The figure may not stand on that kind of feature.
    FigureCannotStand,
    /// The player has no such figure left in their supply.
    SupplyEmpty,
    /// A turn both deploys a figure and takes an action in its place.
    ActionAndDeploy,
    // Actions and choices.
    /// The action is not offered now, or not on that target.
    ActionUnavailable,
    /// The answer is not one of the options of the choice asked.
    NotAnOption,
    /// `Decline` for a choice that must be made.
    CannotDecline,
    /// The answer names nothing on the board (no tile, no such figure there, no such player).
    NoSuchTarget,
    /// A player number, figure type, deck or other id the game does not have
    /// (a library caller's out-of-range id).
    NoSuchId,
    /// A player's view (whose hidden parts are a sample) where the game
    /// itself is needed, as in writing its record.
    View,
    /// A game whose log does not hold every event since it began (logging
    /// turned off, or a search copy), where its whole history is needed, as
    /// in writing its record.
    IncompleteLog,
    /// The game asks for an answer that the record does not give.
    MissingChoice,
    /// The record gives answers that the game does not ask for.
    LeftoverChoices,
    /// The choice does not answer the pending decision (placing while a choice is pending, ...).
    WrongDecision,
    /// The game is over, so no more steps can be played.
    GameOver,
    // Cards.
    /// A card the record draws is not in its deck's draw pile.
    CardNotInPile,
    /// The cards drawn differ from the cards the record lists for the step.
    CardsMismatch,
    // Names.
    /// A tile, card, action, figure, kind, location or reason that the packs do not define.
    UnknownName,
    // A rule failed.
    /// A rule's arithmetic overflowed.
    Overflow,
    /// A rule divided by zero.
    DivisionByZero,
    /// Functions or completion checks nested too deeply.
    TooDeep,
    /// Handlers triggered each other too deep, or ran too long without a decision.
    Runaway,
    // The record as a whole.
    /// The game cannot be set up as the record asks (players, `tiles`).
    Setup,
    /// The record is not a valid record (RON syntax, unknown fields).
    Parse,
    /// The record's packs do not load.
    Load,
    /// An expectation (`expect`, `Check`) does not hold.
    Expectation,
}

impl ErrorKind {
    /// Every kind, in declaration order.
    pub const ALL: &'static [ErrorKind] = &[
        ErrorKind::TileNotDrawn,
        ErrorKind::BadRotation,
        ErrorKind::SquareTaken,
        ErrorKind::NotAdjacent,
        ErrorKind::EdgeMismatch,
        ErrorKind::SquareRequired,
        ErrorKind::MustDiscard,
        ErrorKind::CannotDiscard,
        ErrorKind::Forbidden,
        ErrorKind::TileNotInStack,
        ErrorKind::TileNotNext,
        ErrorKind::NoSuchSegment,
        ErrorKind::AmbiguousSegment,
        ErrorKind::FeatureOccupied,
        ErrorKind::FeatureComplete,
        ErrorKind::NeutralFigure,
        ErrorKind::FigureCannotStand,
        ErrorKind::SupplyEmpty,
        ErrorKind::ActionAndDeploy,
        ErrorKind::ActionUnavailable,
        ErrorKind::NotAnOption,
        ErrorKind::CannotDecline,
        ErrorKind::NoSuchTarget,
        ErrorKind::NoSuchId,
        ErrorKind::View,
        ErrorKind::IncompleteLog,
        ErrorKind::MissingChoice,
        ErrorKind::LeftoverChoices,
        ErrorKind::WrongDecision,
        ErrorKind::GameOver,
        ErrorKind::CardNotInPile,
        ErrorKind::CardsMismatch,
        ErrorKind::UnknownName,
        ErrorKind::Overflow,
        ErrorKind::DivisionByZero,
        ErrorKind::TooDeep,
        ErrorKind::Runaway,
        ErrorKind::Setup,
        ErrorKind::Parse,
        ErrorKind::Load,
        ErrorKind::Expectation,
    ];

    /// An error of this kind, with the words for a person.
    pub fn error(self, message: impl Into<String>) -> GameError {
        GameError::new(self, message)
    }

    /// Whether a rule of the packs failed (rather than a choice being illegal).
    pub fn is_rule_failure(self) -> bool {
        matches!(
            self,
            ErrorKind::Overflow | ErrorKind::DivisionByZero | ErrorKind::TooDeep | ErrorKind::Runaway
        )
    }
}

impl std::fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self, f)
    }
}

impl From<Misfit> for ErrorKind {
    fn from(misfit: Misfit) -> ErrorKind {
        match misfit {
            Misfit::Occupied => ErrorKind::SquareTaken,
            Misfit::Isolated => ErrorKind::NotAdjacent,
            Misfit::Mismatch { .. } => ErrorKind::EdgeMismatch,
            Misfit::NoSuchTile => ErrorKind::NoSuchId,
        }
    }
}

/// Why the game refused a choice or stopped: its kind, and what happened in
/// the game's terms (a rule's failure names its file and line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameError {
    kind: ErrorKind,
    message: String,
    /// Met in an agent's look ahead ([`GameError::in_look`]).
    looked: bool,
}

impl GameError {
    /// An error of `kind` with the words that explain it (the place and the fix).
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> GameError {
        GameError {
            kind,
            message: message.into(),
            looked: false,
        }
    }

    /// The game cannot be set up as asked.
    pub fn setup(message: impl Into<String>) -> GameError {
        GameError::new(ErrorKind::Setup, message)
    }

    /// What kind of failure this is; records name it in `fails`.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// What happened, in words.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The same error, marked as met in an agent's look ahead (a move it
    /// tried in a copy of the game), not in a move the game made: the
    /// game's record stops before the decision, and replays without it.
    pub fn in_look(self) -> GameError {
        GameError { looked: true, ..self }
    }

    /// Whether the error was met in an agent's look ahead ([`GameError::in_look`]).
    pub fn met_in_look(&self) -> bool {
        self.looked
    }

    /// The same error, its words preceded by `context` ("tile E at (0, 1): ...").
    pub fn context(self, context: impl std::fmt::Display) -> GameError {
        GameError {
            message: format!("{context}: {}", self.message),
            ..self
        }
    }
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for GameError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_lists_every_kind_once_in_order() {
        assert_eq!(ErrorKind::ALL.len(), ErrorKind::Expectation as usize + 1);
        for (i, kind) in ErrorKind::ALL.iter().enumerate() {
            assert_eq!(*kind as usize, i, "{kind} out of place in ErrorKind::ALL");
        }
    }
}
