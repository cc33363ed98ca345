//! How a replay fails: [`ReplayError`], a failure with its kind and step,
//! and [`Fails`], a record's statement of the failure it must end in. The
//! lowest module of the record: it imports none of the others.

use crate::check::LoadError;
use crate::engine::{ErrorKind, GameError};
use serde::{Deserialize, Serialize};

/// How a record must fail: the step (counted from 0; none for a failure
/// before the steps or in the final `expect`), the kind, and optionally a
/// fragment of the message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fails {
    /// The failing step, counted from 0; none for set-up or the final `expect`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<usize>,
    /// The kind of the failure.
    pub kind: ErrorKind,
    /// Words the error message must contain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl Fails {
    /// Whether `error` is the failure described.
    pub fn matches(&self, error: &ReplayError) -> bool {
        self.step == error.step()
            && self.kind == error.kind()
            && self
                .message
                .as_ref()
                .is_none_or(|m| error.to_string().contains(m.as_str()))
    }
}

impl std::fmt::Display for Fails {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.step {
            Some(step) => write!(f, "step {step} to fail with {}", self.kind)?,
            None => write!(f, "a failure with {} outside the steps", self.kind)?,
        }
        if let Some(m) = &self.message {
            write!(f, " saying \"{m}\"")?;
        }
        Ok(())
    }
}

/// Why a record could not be replayed.
#[derive(Debug)]
pub enum ReplayError {
    /// The record file is not valid RON for a record.
    Parse(String),
    /// Its packs do not load.
    Load(LoadError),
    /// The record's set-up is wrong (players, tiles).
    Setup(String),
    /// A step is illegal: its index (from 0) and why.
    Step {
        /// The step's index, counted from 0.
        index: usize,
        /// Why it is illegal.
        error: GameError,
    },
    /// An expectation does not hold.
    Expect {
        /// The `Check` step's index; none for the final `expect`.
        index: Option<usize>,
        /// What was found instead.
        message: String,
    },
    /// The record's `fails` says how it must fail, and it did not fail so:
    /// `found` is how it failed, if it did.
    Fails {
        /// The failure the record states.
        expected: Fails,
        /// How the replay failed instead, if it did.
        found: Option<Box<ReplayError>>,
    },
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayError::Parse(m) | ReplayError::Setup(m) => f.write_str(m),
            ReplayError::Load(e) => write!(f, "{}", e.render()),
            ReplayError::Step { index, error } => write!(f, "step {index}: {error}"),
            ReplayError::Expect {
                index: Some(i),
                message,
            } => write!(f, "step {i}: expectation failed: {message}"),
            ReplayError::Expect { index: None, message } => write!(f, "expectation failed: {message}"),
            ReplayError::Fails { expected, found: None } => {
                write!(f, "the record expects {expected}, but every step replayed")
            }
            ReplayError::Fails {
                expected,
                found: Some(e),
            } => write!(f, "the record expects {expected}, but it failed with {}: {e}", e.kind()),
        }
    }
}

impl std::error::Error for ReplayError {}

impl ReplayError {
    /// What kind of failure this is.
    pub fn kind(&self) -> ErrorKind {
        match self {
            ReplayError::Parse(_) => ErrorKind::Parse,
            ReplayError::Load(_) => ErrorKind::Load,
            ReplayError::Setup(_) => ErrorKind::Setup,
            ReplayError::Step { error, .. } => error.kind(),
            ReplayError::Expect { .. } | ReplayError::Fails { .. } => ErrorKind::Expectation,
        }
    }

    /// The step that failed (counted from 0), if a step did.
    pub fn step(&self) -> Option<usize> {
        match self {
            ReplayError::Step { index, .. } => Some(*index),
            ReplayError::Expect { index, .. } => *index,
            // A record that failed otherwise than its `fails` says: where it failed.
            ReplayError::Fails { found: Some(found), .. } => found.step(),
            _ => None,
        }
    }
}
