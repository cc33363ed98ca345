//! The record's RON format: the types ([`Record`], [`Step`], [`Pick`],
//! [`Deploy`], [`Expect`]), parsing with messages in the record's words,
//! reading a file ([`MAX_RECORD_BYTES`]), writing RON, and loading the
//! packs a record names from the folders it may read.

use super::error::{Fails, ReplayError};
use crate::check::{load_within, LoadError, PackRef};
use crate::diagnostic::{Code, Diagnostic};
use crate::engine::{Pos, Rules};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Record files larger than this (16 MiB) are refused rather than read.
pub const MAX_RECORD_BYTES: u64 = 16 << 20;

/// A whole game, or a scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Packs, as on the command line: bundled names or paths relative to the record.
    pub rules: Vec<String>,
    /// Player names in turn order.
    pub players: Vec<String>,
    /// The `--seed` of `meeple sim` that plays this game again (not needed
    /// to replay it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// When given, the stack holds exactly these tiles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tiles: Option<Vec<String>>,
    /// The steps, in order.
    pub turns: Vec<Step>,
    /// Checks made after the last step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expect: Vec<Expect>,
    /// When given, the record must fail, and in this way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fails: Option<Fails>,
}

/// One step of a record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Step {
    /// The current player drew `tile`, placed it, and deployed or not.
    /// `choices` answers, in order, every action taken and every rule's
    /// `choose` from this turn's placement decision until the next one.
    Turn {
        /// The tile placed.
        tile: String,
        /// Where: the start tile is at (0, 0), `y` grows to the south.
        at: Pos,
        /// Degrees clockwise; any integer parses, so that a bad one is
        /// reported at its step.
        rot: i64,
        /// The figure deployed on the placed tile, if any.
        #[serde(default)]
        deploy: Option<Deploy>,
        /// Actions taken and answers to `choose`, in order.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        choices: Vec<Pick>,
        /// Every tile drawn this turn, in order, when a rule drew more than
        /// one (`tile` is the one placed).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        draws: Option<Vec<String>>,
        /// Cards drawn from decks during this turn, in order.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        cards: Vec<String>,
    },
    /// The drawn tile fit nowhere and left the game.
    Discard {
        /// The tile discarded.
        tile: String,
    },
    /// Expectations checked at this point.
    Check(Vec<Expect>),
}

/// An answer to an action or a rule's `choose`, in the game's terms.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Pick {
    /// A feature, named by a tile and a segment location on it.
    Feature {
        /// A tile of the feature.
        at: Pos,
        /// The feature's segment on that tile.
        on: String,
    },
    /// A figure, named by the tile and segment it stands on, and when
    /// several stand there, by its type and owner.
    Figure {
        /// The tile it stands on.
        at: Pos,
        /// The segment it stands on.
        on: String,
        /// Its figure type.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        figure: Option<String>,
        /// Its owner; none for a neutral figure.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<usize>,
    },
    /// A placed tile.
    Tile {
        /// Where it lies.
        at: Pos,
    },
    /// A player, by number (0 is the first).
    Player(usize),
    /// A card in the choosing player's hand, by name.
    Card(String),
    /// A square of the board.
    Square {
        /// Its coordinates.
        at: Pos,
    },
    /// One of the named options of a rule's `choose { NAME { ... } ... }`,
    /// by its name: `Option("take_back")`.
    #[serde(rename = "Option")]
    Named(String),
    /// Decline an optional choice.
    Decline,
    /// Take an action, on a target when the action has one.
    Action {
        /// The action's name in the packs.
        name: String,
        /// What it is taken on, when it has a target.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<Box<Pick>>,
    },
}

/// A deployment: which figure, onto which segment of the placed tile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deploy {
    /// The figure type; without it, the first of the player's supply that
    /// may stand there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub figure: Option<String>,
    /// An edge, a half-edge, or a kind name, in board directions.
    pub on: String,
}

/// Something the game must show.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Expect {
    /// Every player's score, in player order.
    Scores(Vec<i64>),
    /// A player's points from one reason.
    Points {
        /// The player, from 0.
        player: usize,
        /// A feature kind's name, or a reason given by a rule.
        reason: String,
        /// The points.
        points: i64,
    },
    /// Figures in a player's supply.
    Supply {
        /// The player, from 0.
        player: usize,
        /// Only figures of this type; without it, all figures.
        #[serde(default)]
        figure: Option<String>,
        /// How many.
        count: u32,
    },
    /// A figure of a player stands on a segment.
    Figure {
        /// The player, from 0.
        player: usize,
        /// The tile.
        at: Pos,
        /// The segment on it.
        on: String,
        /// The figure's type, if it matters.
        #[serde(default)]
        figure: Option<String>,
    },
    /// No figure stands on a segment.
    Empty {
        /// The tile.
        at: Pos,
        /// The segment on it.
        on: String,
    },
    /// Whether the game has ended.
    GameOver(bool),
}

impl Record {
    /// Parses a record from RON text; `name` is shown in errors.
    pub fn parse(name: &str, text: &str) -> Result<Record, ReplayError> {
        let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        options
            .from_str(text)
            .map_err(|e| ReplayError::Parse(parse_message(name, text, &e)))
    }

    /// Reads and parses a record file: a regular file of at most
    /// [`MAX_RECORD_BYTES`], UTF-8 text.
    pub fn read(path: &Path) -> Result<Record, ReplayError> {
        let cannot = |why: String| ReplayError::Parse(format!("cannot read {}: {why}", path.display()));
        if path.is_dir() {
            return Err(cannot("it is a folder; name a record file (.ron) in it".to_string()));
        }
        let bytes = crate::check::read_capped(path, MAX_RECORD_BYTES, "records").map_err(cannot)?;
        let text = String::from_utf8(bytes).map_err(|e| {
            cannot(format!(
                "it is not UTF-8 text (the first bad byte is at offset {}), so it is not a record",
                e.utf8_error().valid_up_to()
            ))
        })?;
        Record::parse(&path.display().to_string(), &text)
    }

    /// The record as RON text.
    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::new()
            .depth_limit(3)
            .struct_names(true)
            .extensions(ron::extensions::Extensions::IMPLICIT_SOME);
        ron::ser::to_string_pretty(self, config).unwrap_or_default()
    }

    /// Every tile the record draws, in order (placed, extra and discarded alike).
    pub fn draw_names(&self) -> impl Iterator<Item = &str> {
        self.turns.iter().flat_map(|s| -> Vec<&str> {
            match s {
                Step::Turn { draws: Some(d), .. } => d.iter().map(String::as_str).collect(),
                Step::Turn { tile, .. } | Step::Discard { tile } => vec![tile.as_str()],
                Step::Check(_) => Vec::new(),
            }
        })
    }

    /// Every card the record draws, in order.
    pub fn card_names(&self) -> impl Iterator<Item = &str> {
        self.turns.iter().flat_map(|s| match s {
            Step::Turn { cards, .. } => cards.iter().map(String::as_str).collect(),
            _ => Vec::new(),
        })
    }

    /// Loads the record's packs; paths are relative to `dir`, the record's folder.
    pub fn load_rules(&self, dir: &Path) -> Result<Rules, ReplayError> {
        self.load_rules_from(dir, &[])
    }

    /// Loads the record's packs: bundled names, or relative paths that lie
    /// in the record's folder `dir` or in one of `packs_dirs` (looked for in
    /// that order). Any other entry (an absolute path, a path that leads out of
    /// both folders, by `..` or a symbolic link) is refused unread, and every
    /// file read, required packs included, must lie in those folders and
    /// begin like a pack, so a record cannot show any other file.
    pub fn load_rules_from(&self, dir: &Path, packs_dirs: &[PathBuf]) -> Result<Rules, ReplayError> {
        let here = |d: &Path| {
            if d.as_os_str().is_empty() {
                Path::new(".").to_path_buf()
            } else {
                d.to_path_buf()
            }
        };
        let roots: Vec<PathBuf> = std::iter::once(here(dir))
            .chain(packs_dirs.iter().map(|d| here(d)))
            .collect();
        let allowed = if packs_dirs.is_empty() {
            format!(
                "the record's folder `{}` (or a folder given with --packs-dir)",
                roots[0].display()
            )
        } else {
            let others: Vec<String> = packs_dirs.iter().map(|p| format!("`{}`", p.display())).collect();
            format!(
                "the record's folder `{}` or the packs folders {}",
                roots[0].display(),
                others.join(", ")
            )
        };
        let mut refs = Vec::new();
        let mut refused = Vec::new();
        for entry in &self.rules {
            let path = match PackRef::from_arg(entry) {
                PackRef::Path(p) => p,
                other => {
                    refs.push(other);
                    continue;
                }
            };
            let refuse = |why: &str| {
                Diagnostic::new(Code::Unreadable, format!("the record's rules entry `{entry}` {why}")).note(format!(
                    "a record names bundled packs, or .rules files by paths relative to {allowed}"
                ))
            };
            if path.has_root() || path.is_absolute() {
                refused.push(refuse("is an absolute path"));
                continue;
            }
            let found = roots.iter().map(|r| r.join(&path)).find(|p| p.exists());
            let inside = |p: &Path| {
                p.canonicalize().is_ok_and(|real| {
                    roots
                        .iter()
                        .any(|r| r.canonicalize().is_ok_and(|r| real.starts_with(r)))
                })
            };
            match found {
                Some(p) if !inside(&p) => refused.push(refuse("leads outside the folders a record may read")),
                Some(p) => refs.push(PackRef::Path(p)),
                None => refused.push(
                    Diagnostic::new(
                        Code::Unreadable,
                        format!("the record's rules entry `{entry}` is not found in {allowed}"),
                    )
                    .note("a pack that lies in another folder is found with `meeple replay --packs-dir FOLDER`"),
                ),
            }
        }
        if !refused.is_empty() {
            return Err(ReplayError::Load(LoadError {
                sources: crate::source::Sources::new(),
                diagnostics: refused,
            }));
        }
        load_within(&refs, &roots).map(Rules::new).map_err(ReplayError::Load)
    }
}

/// A RON error in a record's words: where, what, and the nearest valid name.
fn parse_message(name: &str, text: &str, e: &ron::error::SpannedError) -> String {
    use ron::Error as E;
    let within = |outer: &Option<String>| outer.as_deref().map_or(String::new(), |o| format!(" in `{o}`"));
    let nearest =
        |found: &str, valid: &[&str], what: &str| match crate::diagnostic::did_you_mean(found, valid.iter().copied()) {
            Some(hint) => format!("; {hint}"),
            None if valid.is_empty() => String::new(),
            None => format!("; the {what} are {}", valid.join(", ")),
        };
    let what = match &e.code {
        E::NoSuchStructField { expected, found, outer } => format!(
            "`{found}` is not a field{}{}",
            within(outer),
            nearest(found, expected, "fields")
        ),
        E::NoSuchEnumVariant { expected, found, outer } => {
            let of = outer.as_deref().map_or(String::new(), |o| format!(" of `{o}`"));
            format!("`{found}` is not a variant{of}{}", nearest(found, expected, "variants"))
        }
        E::MissingStructField { field, outer } => format!("the field `{field}` is missing{}", within(outer)),
        E::DuplicateStructField { field, outer } => format!("the field `{field}` is given twice{}", within(outer)),
        E::ExpectedDifferentStructName { expected, found } => format!("`{found}` should be `{expected}`"),
        E::IntegerOutOfBounds => match field_before(text, &e.span.start) {
            Some(field @ "at") => format!(
                "a coordinate of `{field}` is out of range: coordinates are {} to {}",
                i32::MIN,
                i32::MAX
            ),
            Some(field @ "rot") => format!("the number for `{field}` is out of range: a rotation is 0, 90, 180 or 270"),
            Some(field @ ("player" | "step" | "count")) => {
                format!("the number for `{field}` is out of range: it counts from 0")
            }
            Some(field) => format!("the number for `{field}` is out of range"),
            None => "this number is out of range".to_string(),
        },
        other => other.to_string(),
    };
    format!(
        "{name}:{}:{}: {what} (records are RON, see docs/records.md)",
        e.span.start.line, e.span.start.col
    )
}

/// The name of the last field (`name:`) that starts before `at` in `text`.
fn field_before<'a>(text: &'a str, at: &ron::error::Position) -> Option<&'a str> {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(at.line.saturating_sub(1))
        .map(str::len)
        .sum();
    let column: usize = text[line_start..]
        .chars()
        .take(at.col.saturating_sub(1))
        .map(char::len_utf8)
        .sum();
    let before = &text[..(line_start + column).min(text.len())];
    let colon = before.rfind(':')?;
    let name = before[..colon].trim_end();
    let start = name
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    Some(&name[start..]).filter(|n| !n.is_empty())
}
