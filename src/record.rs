//! Game records: RON files in the game's own terms (see docs/records.md).
//! [`replay`] checks each step and the expectations; [`Record::from_game`]
//! writes what a played game did.

use crate::check::{load_within, LoadError, PackRef};
use crate::diagnostic::{Code, Diagnostic};
use crate::engine::{Choice, Decision, ErrorKind, Event, Game, GameError, Pos, Rules, Target};
use crate::ir::geometry::{Location, EDGE_NAMES, HALF_EDGE_NAMES};
use crate::ir::program::{Domain, Window};
use crate::ir::{FigureId, Ownership, TileId};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// When given, the stack holds exactly these tiles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tiles: Option<Vec<String>>,
    pub turns: Vec<Step>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expect: Vec<Expect>,
    /// When given, the record must fail, and in this way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fails: Option<Fails>,
}

/// How a record must fail: the step (counted from 0; none for a failure
/// before the steps or in the final `expect`), the kind, and optionally a
/// fragment of the message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fails {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<usize>,
    pub kind: ErrorKind,
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

/// One step of a record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Step {
    /// The current player drew `tile`, placed it, and deployed or not.
    /// `choices` answers, in order, every action taken and every rule's
    /// `choose` from this turn's placement decision until the next one.
    Turn {
        tile: String,
        at: Pos,
        /// Degrees clockwise; any integer parses, so that a bad one is
        /// reported at its step.
        rot: i64,
        #[serde(default)]
        deploy: Option<Deploy>,
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
    Discard { tile: String },
    /// Expectations checked at this point.
    Check(Vec<Expect>),
}

/// An answer to an action or a rule's `choose`, in the game's terms.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Pick {
    /// A feature, named by a tile and a segment location on it.
    Feature {
        at: Pos,
        on: String,
    },
    /// A figure, named by the tile and segment it stands on, and when
    /// several stand there, by its type and owner.
    Figure {
        at: Pos,
        on: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        figure: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<usize>,
    },
    Tile {
        at: Pos,
    },
    /// A player, by number (0 is the first).
    Player(usize),
    /// A card in the choosing player's hand, by name.
    Card(String),
    /// A square of the board.
    Square {
        at: Pos,
    },
    /// Decline an optional choice.
    Decline,
    /// Take an action, on a target when the action has one.
    Action {
        name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<Box<Pick>>,
    },
}

/// A deployment: which figure, onto which segment of the placed tile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deploy {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub figure: Option<String>,
    /// An edge, a half-edge, or a kind name, in board directions.
    pub on: String,
}

/// Something the game must show.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Expect {
    Scores(Vec<i64>),
    Points {
        player: usize,
        reason: String,
        points: i64,
    },
    Supply {
        player: usize,
        #[serde(default)]
        figure: Option<String>,
        count: u32,
    },
    Figure {
        player: usize,
        at: Pos,
        on: String,
        #[serde(default)]
        figure: Option<String>,
    },
    Empty {
        at: Pos,
        on: String,
    },
    GameOver(bool),
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
    Step { index: usize, error: GameError },
    /// An expectation does not hold.
    Expect { index: Option<usize>, message: String },
    /// The record's `fails` says how it must fail, and it did not fail so:
    /// `found` is how it failed, if it did.
    Fails {
        expected: Fails,
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
            _ => None,
        }
    }
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
                // Not found: the loader says so, naming where it looked.
                None => refs.push(PackRef::Path(roots[0].join(&path))),
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

    /// The record of a played game: every draw and decision, in order. A
    /// player's view (or a copy of one) is refused: its hidden parts are a
    /// sample, not the game that was played.
    pub fn from_game(
        game: &Game,
        rules: Vec<String>,
        players: Vec<String>,
        seed: Option<u64>,
    ) -> Result<Record, GameError> {
        if game.is_view() {
            return Err(ErrorKind::View
                .error("this is a player's view, whose hidden tiles and cards are a sample: record the game itself"));
        }
        let pack = &game.rules().pack;
        let mut turns: Vec<Step> = Vec::new();
        // Replay answers a Turn's choices from its placement decision on, so
        // an action taken before placing waits for its Turn step, as does any
        // choice made before the first placement; every other choice belongs
        // to the latest Turn.
        let mut early: Vec<Pick> = Vec::new();
        let mut early_cards: Vec<String> = Vec::new();
        let mut turn_draws: Vec<String> = Vec::new();
        // From a before-place action until the placement, choices belong to
        // the coming Turn.
        let mut placing = false;
        for event in game.log() {
            let pick = match event {
                Event::Drew { tile, .. } => {
                    turn_draws = vec![pack.tiles[*tile as usize].name.clone()];
                    placing = false;
                    None
                }
                Event::DrewExtra { tile, .. } => {
                    let name = pack.tiles[*tile as usize].name.clone();
                    match turns.last_mut() {
                        // Drawn after this turn's placement: it follows the turn's draws.
                        Some(Step::Turn {
                            tile: placed, draws, ..
                        }) if turn_draws.is_empty() => draws.get_or_insert_with(|| vec![placed.clone()]).push(name),
                        _ => turn_draws.push(name),
                    }
                    None
                }
                Event::CardDrawn { card, .. } => {
                    let name = pack.program.cards[*card as usize].name.clone();
                    match latest_turn(&mut turns) {
                        Some(Step::Turn { cards, .. }) if !placing => cards.push(name),
                        _ => early_cards.push(name),
                    }
                    None
                }
                Event::Discarded { tile, .. } => {
                    turns.push(Step::Discard {
                        tile: pack.tiles[*tile as usize].name.clone(),
                    });
                    None
                }
                Event::Placed { tile, pos, rot, .. } => {
                    turns.push(Step::Turn {
                        tile: pack.tiles[*tile as usize].name.clone(),
                        at: *pos,
                        rot: i64::from(*rot) * 90,
                        deploy: None,
                        choices: std::mem::take(&mut early),
                        draws: (turn_draws.len() > 1).then(|| turn_draws.clone()),
                        cards: std::mem::take(&mut early_cards),
                    });
                    turn_draws.clear();
                    placing = false;
                    None
                }
                Event::Deployed {
                    figure, placed, seg, ..
                } => {
                    if let Some(Step::Turn { deploy, .. }) = turns.last_mut() {
                        *deploy = Some(Deploy {
                            figure: Some(pack.figures[*figure as usize].name.clone()),
                            on: segment_name(game, *placed, *seg),
                        });
                    }
                    None
                }
                Event::Acted {
                    action, target, spot, ..
                } => Some(Pick::Action {
                    name: pack.program.actions[*action as usize].name.clone(),
                    target: pick_of(game, *target, *spot).map(Box::new),
                }),
                Event::Chose { target, spot, .. } => pick_of(game, *target, *spot),
                Event::Declined { .. } => Some(Pick::Decline),
                _ => None,
            };
            let Some(pick) = pick else { continue };
            if matches!(event, Event::Acted { action, .. }
                if pack.program.actions[*action as usize].window == Window::BeforePlace)
            {
                placing = true;
            }
            match latest_turn(&mut turns) {
                Some(Step::Turn { choices, .. }) if !placing => choices.push(pick),
                _ => early.push(pick),
            }
        }
        Ok(Record {
            rules,
            players,
            seed,
            tiles: None,
            turns,
            expect: Vec::new(),
            fails: None,
        })
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

/// The last Turn step so far.
fn latest_turn(turns: &mut [Step]) -> Option<&mut Step> {
    turns.iter_mut().rev().find(|s| matches!(s, Step::Turn { .. }))
}

/// A target in the game's terms.
fn pick_of(game: &Game, target: Target, spot: Option<(u16, u8)>) -> Option<Pick> {
    let at = |placed: u16| game.board().placed[placed as usize].pos;
    Some(match (target, spot) {
        (Target::Feature(_), Some((placed, seg))) => Pick::Feature {
            at: at(placed),
            on: segment_name(game, placed, seg),
        },
        (Target::Figure(id), Some((placed, seg))) => {
            let m = game.figure_by_id(id)?;
            Pick::Figure {
                at: at(placed),
                on: segment_name(game, placed, seg),
                figure: Some(game.rules().pack.figures[m.figure as usize].name.clone()),
                player: m.owner.map(usize::from),
            }
        }
        (Target::Tile(t), _) => Pick::Tile { at: at(t) },
        (Target::Square(x, y), _) => Pick::Square { at: (x, y) },
        (Target::Player(p), _) => Pick::Player(p as usize),
        (Target::Card(c), _) => Pick::Card(game.rules().pack.program.cards.get(c as usize)?.name.clone()),
        _ => return None,
    })
}

/// A segment's name in records: its first edge or half-edge in board
/// directions; for a segment with neither, its kind's name, numbered
/// (`"field 2"`) when the tile has several segments of that kind.
pub(crate) fn segment_name(game: &Game, placed: u16, seg: u8) -> String {
    let name = game.segment_location(placed, seg);
    if Location::parse(&name).is_some() {
        return name;
    }
    let pack = &game.rules().pack;
    let tile = &pack.tiles[game.board().placed[placed as usize].tile as usize];
    let kind = tile.segments[seg as usize].kind;
    let same: Vec<usize> = (0..tile.segments.len())
        .filter(|s| tile.segments[*s].kind == kind)
        .collect();
    match same.iter().position(|s| *s == seg as usize) {
        Some(i) if same.len() > 1 => format!("{name} {}", i + 1),
        _ => name,
    }
}

/// One turn of a script: the tile, where it goes, the deployment, the choices.
#[derive(Debug)]
struct ScriptTurn {
    tile: String,
    at: Pos,
    rot: i64,
    deploy: Option<Deploy>,
    choices: Vec<Pick>,
}

/// The moves of a record, answered one decision at a time.
#[derive(Debug)]
struct Script {
    turns: Vec<ScriptTurn>,
    turn: usize,
    next_choice: usize,
    placed: bool,
}

impl Script {
    fn next_pick(&mut self) -> Option<Pick> {
        let pick = self.turns.get(self.turn)?.choices.get(self.next_choice)?.clone();
        self.next_choice += 1;
        Some(pick)
    }

    fn peek_is_action(&self, game: &Game, window: Window) -> bool {
        let next = self.turns.get(self.turn).and_then(|t| t.choices.get(self.next_choice));
        action_window(game, next) == Some(window)
    }

    fn answer(&mut self, game: &Game) -> Result<Choice, GameError> {
        match game.decision() {
            Some(Decision::Place { .. }) => {
                if self.placed {
                    (self.turn, self.next_choice, self.placed) = (self.turn + 1, 0, false);
                }
                if self.peek_is_action(game, Window::BeforePlace) {
                    return choice_for(game, &self.next_pick().expect("peeked"));
                }
                let turn = self
                    .turns
                    .get(self.turn)
                    .ok_or_else(|| GameError::new(ErrorKind::MissingChoice, "the script has no more turns"))?;
                let tile =
                    game.rules().pack.tile(&turn.tile).ok_or_else(|| {
                        GameError::new(ErrorKind::UnknownName, format!("unknown tile `{}`", turn.tile))
                    })?;
                let choice = Choice::Place {
                    tile,
                    pos: turn.at,
                    rot: rotation(turn.rot)?,
                };
                self.placed = true;
                Ok(choice)
            }
            Some(Decision::Deploy { placed, .. }) => {
                if self.peek_is_action(game, Window::Deploy) {
                    return choice_for(game, &self.next_pick().expect("peeked"));
                }
                match self.turns.get(self.turn).and_then(|t| t.deploy.clone()) {
                    None => Ok(Choice::Pass),
                    Some(d) => deploy_choice(game, placed, &d),
                }
            }
            Some(Decision::Choose { .. }) => {
                let pick = self.next_pick().ok_or_else(|| {
                    GameError::new(ErrorKind::MissingChoice, "the script has no answer for this choice")
                })?;
                choice_for(game, &pick)
            }
            None => Err(GameError::new(ErrorKind::GameOver, "the game is over")),
        }
    }
}

/// An agent that plays a record's moves. All seats share one script, so a
/// choice asked of any player is answered from the record. With the record's
/// draws forced ([`Record::draw_names`] and [`Game::replaying`]), scripted
/// agents reproduce the recorded game through [`crate::agents::play`].
#[derive(Clone, Debug)]
pub struct ScriptedAgent {
    script: std::rc::Rc<std::cell::RefCell<Script>>,
}

impl ScriptedAgent {
    /// One agent per seat, all playing `record`.
    pub fn seats(record: &Record, players: usize) -> Vec<Box<dyn crate::agents::Agent>> {
        let turns = record
            .turns
            .iter()
            .filter_map(|s| match s {
                Step::Turn {
                    tile,
                    at,
                    rot,
                    deploy,
                    choices,
                    ..
                } => Some(ScriptTurn {
                    tile: tile.clone(),
                    at: *at,
                    rot: *rot,
                    deploy: deploy.clone(),
                    choices: choices.clone(),
                }),
                _ => None,
            })
            .collect();
        let script = std::rc::Rc::new(std::cell::RefCell::new(Script {
            turns,
            turn: 0,
            next_choice: 0,
            placed: false,
        }));
        (0..players)
            .map(|_| Box::new(ScriptedAgent { script: script.clone() }) as Box<dyn crate::agents::Agent>)
            .collect()
    }
}

impl crate::agents::Agent for ScriptedAgent {
    fn choose(&mut self, game: &Game, _options: &[Choice]) -> Result<Choice, GameError> {
        self.script.borrow_mut().answer(game)
    }

    fn name(&self) -> &str {
        "scripted"
    }

    fn looks(&self) -> bool {
        false
    }
}

/// What a record's replay showed, when it went as the record says.
#[derive(Debug)]
pub enum Outcome {
    /// Every step and expectation held; the game as it stands after them.
    Played(Box<Game>),
    /// The record failed as its `fails` says it must.
    FailedAsExpected(ReplayError),
}

/// Replays a record and holds it to its `fails`: a record with `fails` must
/// fail in just that way, and one without must replay.
pub fn replay_expecting(record: &Record, dir: &Path) -> Result<Outcome, ReplayError> {
    replay_expecting_in(record, dir, &[])
}

/// [`replay_expecting`], with the record's packs also looked for in `packs_dirs`.
pub fn replay_expecting_in(record: &Record, dir: &Path, packs_dirs: &[PathBuf]) -> Result<Outcome, ReplayError> {
    let result = record
        .load_rules_from(dir, packs_dirs)
        .and_then(|rules| replay_with(record, Arc::new(rules)));
    match (&record.fails, result) {
        (None, result) => result.map(|game| Outcome::Played(Box::new(game))),
        (Some(fails), Err(e)) if fails.matches(&e) => Ok(Outcome::FailedAsExpected(e)),
        (Some(fails), result) => Err(ReplayError::Fails {
            expected: fails.clone(),
            found: result.err().map(Box::new),
        }),
    }
}

/// Replays a record from its folder `dir`, checking every step and expectation.
pub fn replay(record: &Record, dir: &Path) -> Result<Game, ReplayError> {
    let rules = Arc::new(record.load_rules(dir)?);
    replay_with(record, rules)
}

/// Replays a record on already loaded rules.
pub fn replay_with(record: &Record, rules: Arc<Rules>) -> Result<Game, ReplayError> {
    let tile_id = |name: &str| {
        rules
            .pack
            .tile(name)
            .ok_or_else(|| unknown("tile", name, rules.pack.tiles.iter().map(|t| t.name.as_str())))
    };
    let stack = match &record.tiles {
        Some(names) => Some(
            names
                .iter()
                .map(|n| tile_id(n))
                .collect::<Result<Vec<TileId>, GameError>>()
                .map_err(|e| ReplayError::Setup(format!("in `tiles`: {e}")))?,
        ),
        None => None,
    };
    let mut left: Vec<u32> = vec![0; rules.pack.tiles.len()];
    match &stack {
        Some(s) => s.iter().for_each(|t| left[*t as usize] += 1),
        None => {
            for (t, tile) in rules.pack.tiles.iter().enumerate() {
                left[t] = tile.count.saturating_sub(u32::from(t == rules.pack.start as usize));
            }
        }
    }
    // Each step's names and draws are checked in order, but a step is
    // reported only after every earlier step has played: the first step
    // whose names or draws are wrong is remembered, and only the draws of
    // the steps before it are forced.
    let mut draws = Vec::new();
    let mut cards = Vec::new();
    let mut wrong: Option<ReplayError> = None;
    for (index, step) in record.turns.iter().enumerate() {
        match step_draws(record, &rules, stack.as_deref(), &mut left, step) {
            Ok((tiles, step_cards)) => {
                draws.extend(tiles);
                cards.extend(step_cards);
            }
            Err(error) => {
                wrong = Some(ReplayError::Step { index, error });
                break;
            }
        }
    }
    let playable = match &wrong {
        Some(e) => e.step().unwrap_or(0),
        None => record.turns.len(),
    };
    // Set-up errors (players) come before any step's.
    let mut game =
        Game::replaying_with_cards(rules.clone(), record.players.len(), stack, draws, cards).map_err(|e| {
            match e.kind() {
                ErrorKind::Setup => ReplayError::Setup(e.to_string()),
                _ => ReplayError::Step { index: 0, error: e },
            }
        })?;
    let mut draws_seen = 0;
    // Events before the first step (setup) count with the first step.
    let mut log_seen = 0;
    for (index, step) in record.turns.iter().enumerate().take(playable) {
        if index > 0 {
            log_seen = game.log().len();
        }
        replay_step(&mut game, step, index, &mut draws_seen)?;
        let drawn: Vec<&str> = game.log()[log_seen..]
            .iter()
            .filter_map(|e| match e {
                Event::CardDrawn { card, .. } => rules.pack.program.cards.get(*card as usize).map(|c| c.name.as_str()),
                _ => None,
            })
            .collect();
        let listed: Vec<&str> = match step {
            Step::Turn { cards, .. } => cards.iter().map(String::as_str).collect(),
            _ => Vec::new(),
        };
        if drawn != listed {
            return Err(ReplayError::Step {
                index,
                error: GameError::new(
                    ErrorKind::CardsMismatch,
                    format!(
                        "the cards drawn in this step were {drawn:?}, but the record lists {listed:?} (a step's `cards` are the cards drawn while it is played)"
                    ),
                ),
            });
        }
    }
    if let Some(e) = wrong {
        return Err(e);
    }
    for e in &record.expect {
        check(&game, e).map_err(|message| ReplayError::Expect { index: None, message })?;
    }
    Ok(game)
}

/// The tiles and cards a step draws, by id, after checking its names and
/// that each tile it places or discards is still to be drawn (`left`, by
/// tile type, counts down).
fn step_draws(
    record: &Record,
    rules: &Rules,
    stack: Option<&[TileId]>,
    left: &mut [u32],
    step: &Step,
) -> Result<(Vec<TileId>, Vec<u16>), GameError> {
    let tile_id = |name: &str| {
        rules
            .pack
            .tile(name)
            .ok_or_else(|| unknown("tile", name, rules.pack.tiles.iter().map(|t| t.name.as_str())))
    };
    let (placed, extra): (&String, &[String]) = match step {
        Step::Turn {
            tile, draws: Some(d), ..
        } => (tile, d.as_slice()),
        Step::Turn { tile, .. } | Step::Discard { tile } => (tile, std::slice::from_ref(tile)),
        Step::Check(_) => return Ok((Vec::new(), Vec::new())),
    };
    if !extra.contains(placed) {
        return Err(GameError::new(
            ErrorKind::TileNotDrawn,
            format!("tile {placed} is not among this turn's draws"),
        ));
    }
    let draws = extra.iter().map(|n| tile_id(n)).collect::<Result<Vec<_>, _>>()?;
    let cards = match step {
        Step::Turn { cards: names, .. } => names.iter().map(|n| card_id(rules, n)).collect::<Result<Vec<_>, _>>()?,
        _ => Vec::new(),
    };
    // Tiles drawn beside the placed one may go back into the stack, so
    // only the placed (or discarded) tile is counted off here.
    let id = tile_id(placed)?;
    if left[id as usize] == 0 {
        let whence = if record.tiles.is_some() {
            "the record's `tiles`"
        } else {
            "the tile set"
        };
        let never = match stack {
            Some(s) => !s.contains(&id),
            None => rules.pack.tiles[id as usize].count == 0,
        };
        return Err(GameError::new(
            ErrorKind::TileNotInStack,
            if never {
                format!("tile {placed} cannot be drawn: {whence} holds none")
            } else {
                format!("tile {placed} cannot be drawn: every copy in {whence} was drawn before")
            },
        ));
    }
    left[id as usize] -= 1;
    Ok((draws, cards))
}

/// "unknown tile `X`; did you mean `Y`?"
fn unknown<'a>(what: &str, name: &str, names: impl IntoIterator<Item = &'a str>) -> GameError {
    let hint = crate::diagnostic::did_you_mean(name, names).map_or(String::new(), |h| format!("; {h}"));
    GameError::new(ErrorKind::UnknownName, format!("unknown {what} `{name}`{hint}"))
}

fn card_id(rules: &Rules, name: &str) -> Result<u16, GameError> {
    let cards = &rules.pack.program.cards;
    cards
        .iter()
        .position(|c| c.name == name)
        .map(|c| c as u16)
        .ok_or_else(|| unknown("card", name, cards.iter().map(|c| c.name.as_str())))
}

/// A record's rotation in degrees as quarter turns.
fn rotation(rot: i64) -> Result<u8, GameError> {
    match rot {
        0 | 90 | 180 | 270 => Ok((rot / 90) as u8),
        _ => Err(GameError::new(
            ErrorKind::BadRotation,
            format!("rotation {rot} must be 0, 90, 180 or 270"),
        )),
    }
}

/// Plays one step of a record.
fn replay_step(game: &mut Game, step: &Step, index: usize, draws_seen: &mut usize) -> Result<(), ReplayError> {
    let rules = game.rules().clone();
    let fail = |error: GameError| ReplayError::Step { index, error };
    match step {
        Step::Check(expects) => {
            for e in expects {
                check(game, e).map_err(|message| ReplayError::Expect {
                    index: Some(index),
                    message,
                })?;
            }
        }
        Step::Discard { tile } => {
            let (_, discarded) = nth_draw(game, *draws_seen).ok_or_else(|| {
                fail(GameError::new(
                    ErrorKind::GameOver,
                    "no tile is drawn here; the game is over",
                ))
            })?;
            *draws_seen += 1;
            if !discarded {
                return Err(fail(GameError::new(
                    ErrorKind::CannotDiscard,
                    format!("tile {tile} fits on the board, so it cannot be discarded"),
                )));
            }
        }
        Step::Turn {
            tile,
            at,
            rot,
            deploy,
            choices,
            ..
        } => {
            let mut choices = choices.iter();
            // Choices pending before the draw (at the very start of a game).
            while let Some(Decision::Choose { .. }) = game.decision() {
                answer(game, choices.next(), index)?;
            }
            let (_, discarded) = nth_draw(game, *draws_seen)
                .ok_or_else(|| fail(GameError::new(ErrorKind::GameOver, "the game is already over")))?;
            *draws_seen += 1;
            if discarded {
                return Err(fail(GameError::new(
                    ErrorKind::MustDiscard,
                    format!("tile {tile} fits nowhere on the board; the record must say Discard(tile: \"{tile}\")"),
                )));
            }
            // Actions taken before placing, and the choices they ask.
            loop {
                match game.decision() {
                    Some(Decision::Place { .. })
                        if action_window(game, choices.clone().next()) == Some(Window::BeforePlace) => {}
                    Some(Decision::Choose { .. }) => {}
                    _ => break,
                }
                answer(game, choices.next(), index)?;
            }
            let rot = rotation(*rot).map_err(fail)?;
            let placed_tile = rules
                .pack
                .tile(tile)
                .ok_or_else(|| fail(unknown("tile", tile, rules.pack.tiles.iter().map(|t| t.name.as_str()))))?;
            game.apply(Choice::Place {
                tile: placed_tile,
                pos: *at,
                rot,
            })
            .map_err(fail)?;
            // Choices the placement raises (before the deploy phase).
            while let Some(Decision::Choose { .. }) = game.decision() {
                answer(game, choices.next(), index)?;
            }
            let Some(Decision::Deploy { placed, .. }) = game.decision() else {
                return Err(fail(GameError::new(
                    ErrorKind::WrongDecision,
                    "the game did not ask for a deployment after the placement",
                )));
            };
            if let Some(Pick::Action { .. }) = choices.clone().next() {
                if deploy.is_some() {
                    return Err(fail(GameError::new(
                        ErrorKind::ActionAndDeploy,
                        "a turn takes an action or deploys a figure, not both",
                    )));
                }
                answer(game, choices.next(), index)?;
            } else {
                let choice = match deploy {
                    None => Choice::Pass,
                    Some(d) => deploy_choice(game, placed, d).map_err(|why| {
                        let figure = d.figure.as_deref().unwrap_or("a figure");
                        fail(why.context(format_args!(
                            "tile {tile} at {at:?}: cannot deploy {figure} on {}",
                            d.on
                        )))
                    })?,
                };
                game.apply(choice).map_err(fail)?;
            }
            // Every choice until the next placement.
            while let Some(Decision::Choose { .. }) = game.decision() {
                answer(game, choices.next(), index)?;
            }
            let unused = choices.count();
            if unused > 0 {
                return Err(fail(GameError::new(
                    ErrorKind::LeftoverChoices,
                    format!("{unused} choice(s) left over: the game asked for no more in this turn"),
                )));
            }
        }
    }
    Ok(())
}

/// The window of the action a pick takes, if it is an action.
fn action_window(game: &Game, pick: Option<&Pick>) -> Option<Window> {
    let Some(Pick::Action { name, .. }) = pick else {
        return None;
    };
    game.rules()
        .pack
        .program
        .actions
        .iter()
        .find(|a| &a.name == name)
        .map(|a| a.window)
}

/// Answers the pending decision with the record's next choice.
fn answer(game: &mut Game, pick: Option<&Pick>, index: usize) -> Result<(), ReplayError> {
    let fail = |error: GameError| ReplayError::Step { index, error };
    let asked = describe_decision(game);
    let Some(pick) = pick else {
        return Err(fail(GameError::new(
            ErrorKind::MissingChoice,
            format!("{asked}; add the answer to this turn's `choices`"),
        )));
    };
    let choice = choice_for(game, pick).map_err(|why| fail(why.context(&asked)))?;
    game.apply(choice).map_err(fail)
}

/// What the pending decision asks, in words.
fn describe_decision(game: &Game) -> String {
    match game.decision() {
        Some(Decision::Choose {
            player,
            domain,
            optional,
        }) => {
            let what = match domain {
                Domain::Players => "a player".to_string(),
                Domain::Tiles => "a tile".to_string(),
                Domain::Figures(None) => "a figure".to_string(),
                Domain::Figures(Some(f)) => format!("a {}", game.rules().pack.figures[f as usize].name),
                Domain::Features(None) => "a feature".to_string(),
                Domain::Features(Some(k)) => format!("a {}", game.rules().pack.kinds[k as usize].name),
                Domain::Cards => "a card from their hand".to_string(),
                Domain::Squares => "a square next to the board".to_string(),
            };
            let may = if optional { " (or Decline)" } else { "" };
            format!("the game asks player {player} to choose {what}{may}")
        }
        Some(Decision::Place { player, .. }) => format!("the game asks player {player} to place the tile"),
        Some(Decision::Deploy { player, .. }) => format!("the game asks player {player} to deploy"),
        None => "the game is over".to_string(),
    }
}

/// The targets a pick may mean on the board now (several figures can share a spot).
fn target_of(game: &Game, pick: &Pick) -> Result<Vec<Target>, GameError> {
    let no_target = |message: String| GameError::new(ErrorKind::NoSuchTarget, message);
    let tile_at = |at: Pos| {
        game.board()
            .at(at)
            .ok_or_else(|| no_target(format!("no tile at {at:?}")))
    };
    Ok(vec![match pick {
        Pick::Feature { at, on } => {
            let placed = tile_at(*at)?;
            Target::Feature(game.node_of(placed, segment_at(game, placed, on)?))
        }
        Pick::Figure { at, on, figure, player } => {
            let placed = tile_at(*at)?;
            let seg = segment_at(game, placed, on)?;
            let kind = figure.as_deref().map(|n| figure_id(game, n)).transpose()?;
            let found: Vec<Target> = game
                .meeples()
                .iter()
                .filter(|m| m.placed == placed && m.seg == seg)
                .filter(|m| kind.is_none_or(|k| m.figure == k))
                .filter(|m| player.is_none_or(|p| m.owner.map(usize::from) == Some(p)))
                .map(|m| Target::Figure(m.id))
                .collect();
            if found.is_empty() {
                return Err(no_target(format!("no such figure at {at:?} on {on}")));
            }
            return Ok(found);
        }
        Pick::Tile { at } => Target::Tile(tile_at(*at)?),
        Pick::Square { at } => Target::Square(at.0, at.1),
        Pick::Player(p) => Target::Player(
            u8::try_from(*p)
                .ok()
                .filter(|p| usize::from(*p) < game.players())
                .ok_or_else(|| no_target(format!("no player {p}; players are 0 to {}", game.players() - 1)))?,
        ),
        Pick::Card(name) => Target::Card(card_id(game.rules(), name)?),
        Pick::Decline | Pick::Action { .. } => Target::None,
    }])
}

/// The option of the pending decision that a pick means.
fn choice_for(game: &Game, pick: &Pick) -> Result<Choice, GameError> {
    let options = game.options();
    let same = |a: Target, b: Target| game.same_target(a, b);
    let wanted = match pick {
        Pick::Decline => {
            return options
                .contains(&Choice::Decline)
                .then_some(Choice::Decline)
                .ok_or_else(|| GameError::new(ErrorKind::CannotDecline, "it cannot be declined"))
        }
        Pick::Action { name, target } => {
            let actions = &game.rules().pack.program.actions;
            let action = actions
                .iter()
                .position(|a| &a.name == name)
                .ok_or_else(|| unknown("action", name, actions.iter().map(|a| a.name.as_str())))?;
            let targets = match target {
                Some(t) => target_of(game, t)?,
                None => vec![Target::None],
            };
            // The target as the record names it, so a feature keeps its location.
            return options
                .iter()
                .find_map(|c| match c {
                    Choice::Action { action: a, target: t } if *a as usize == action => targets
                        .iter()
                        .find(|w| same(*t, **w))
                        .map(|w| Choice::Action { action: *a, target: *w }),
                    _ => None,
                })
                .ok_or_else(|| {
                    GameError::new(
                        ErrorKind::ActionUnavailable,
                        format!("the action `{name}` is not available on that now"),
                    )
                });
        }
        other => target_of(game, other)?,
    };
    options
        .iter()
        .find_map(|c| match c {
            Choice::Pick(t) => wanted.iter().find(|w| same(*t, **w)).map(|w| Choice::Pick(*w)),
            _ => None,
        })
        .ok_or_else(|| GameError::new(ErrorKind::NotAnOption, "that is not one of the options"))
}

/// The `n`-th draw of the game (from 0): the tile, and whether it was discarded.
fn nth_draw(game: &Game, n: usize) -> Option<(TileId, bool)> {
    let log = game.log();
    let (i, tile) = log
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match e {
            Event::Drew { tile, .. } => Some((i, *tile)),
            _ => None,
        })
        .nth(n)?;
    let discarded = matches!(log.get(i + 1), Some(Event::Discarded { .. }));
    Some((tile, discarded))
}

/// The segment of a placed tile that a location names, in board directions.
fn segment_at(game: &Game, placed: u16, on: &str) -> Result<u8, GameError> {
    let pack = &game.rules().pack;
    let p = &game.board().placed[placed as usize];
    let tile = &pack.tiles[p.tile as usize];
    let rotated = &game.rules().rotated[p.tile as usize][p.rot as usize];
    let seg = match Location::parse(on) {
        Some(Location::Edge(e)) => Some(rotated.edge_seg[e as usize]).filter(|s| *s != u8::MAX),
        Some(Location::HalfEdge(h)) => Some(rotated.half_seg[h as usize]).filter(|s| *s != u8::MAX),
        None => {
            // "field 2": the second segment of that kind on the tile.
            let (kind_name, nth) = match on.rsplit_once(' ') {
                Some((k, n)) if n.parse::<usize>().is_ok_and(|n| n >= 1) => (k, n.parse::<usize>().ok()),
                _ => (on, None),
            };
            let on = kind_name;
            let Some(kind) = pack.kind(on) else {
                let hint = crate::diagnostic::did_you_mean(on, pack.kinds.iter().map(|k| k.name.as_str()))
                    .map_or(String::new(), |h| format!("; {h}"));
                return Err(GameError::new(
                    ErrorKind::UnknownName,
                    format!(
                        "`{on}` is not a location: use an edge ({}), a half-edge ({}) or a feature kind{hint}",
                        EDGE_NAMES.join(" "),
                        HALF_EDGE_NAMES.join(" ")
                    ),
                ));
            };
            let matching: Vec<u8> = (0..tile.segments.len() as u8)
                .filter(|s| tile.segments[*s as usize].kind == kind)
                .collect();
            match (nth, matching.as_slice()) {
                (Some(n), segments) => segments.get(n - 1).copied(),
                (None, [one]) => Some(*one),
                (None, []) => None,
                (None, _) => {
                    return Err(GameError::new(
                        ErrorKind::AmbiguousSegment,
                        format!(
                            "tile {} has several {on} segments; name one by its edge, or as `{on} 2` (the second)",
                            tile.name
                        ),
                    ))
                }
            }
        }
    };
    seg.ok_or_else(|| {
        GameError::new(
            ErrorKind::NoSuchSegment,
            match Location::parse(on) {
                Some(Location::Edge(e)) if rotated.half_seg[2 * e as usize] != u8::MAX => format!(
                    "edge {on} of tile {} is a field edge; name its field by a half-edge, {} or {}",
                    tile.name,
                    HALF_EDGE_NAMES[2 * e as usize],
                    HALF_EDGE_NAMES[2 * e as usize + 1]
                ),
                _ => format!("tile {} has no segment at {on}", tile.name),
            },
        )
    })
}

fn figure_id(game: &Game, name: &str) -> Result<FigureId, GameError> {
    let pack = &game.rules().pack;
    pack.figure(name)
        .ok_or_else(|| unknown("figure", name, pack.figures.iter().map(|f| f.name.as_str())))
}

fn deploy_choice(game: &Game, placed: u16, d: &Deploy) -> Result<Choice, GameError> {
    let pack = &game.rules().pack;
    let seg = segment_at(game, placed, &d.on)?;
    let figure = match &d.figure {
        Some(name) => figure_id(game, name)?,
        None => {
            let kind = pack.tiles[game.board().placed[placed as usize].tile as usize].segments[seg as usize].kind;
            let player = game.current_player();
            let may_stand = |f: FigureId| {
                let fig = &pack.figures[f as usize];
                fig.ownership == Ownership::PerPlayer && fig.posture_on(kind).is_some()
            };
            let figures = 0..pack.figures.len() as FigureId;
            let kind_name = &pack.kinds[kind as usize].name;
            match figures
                .clone()
                .find(|f| may_stand(*f) && game.supply(player, *f).unwrap_or(0) > 0)
            {
                Some(f) => f,
                None if figures.clone().any(may_stand) => {
                    return Err(GameError::new(
                        ErrorKind::SupplyEmpty,
                        format!("player {player} has no figure left in their supply that may go on the {kind_name}"),
                    ))
                }
                None => {
                    return Err(GameError::new(
                        ErrorKind::FigureCannotStand,
                        format!("no player's figure may go on the {kind_name}"),
                    ))
                }
            }
        }
    };
    if let Some(why) = game.deploy_refusal(placed, seg, Some(figure)) {
        return Err(why);
    }
    Ok(Choice::Deploy { figure, seg })
}

/// Checks one expectation; the error says what was found.
pub fn check(game: &Game, expect: &Expect) -> Result<(), String> {
    let pack = &game.rules().pack;
    let player_ok = |p: usize| {
        if p < game.players() {
            Ok(())
        } else {
            Err(format!(
                "player {p} does not exist; players are 0 to {}",
                game.players() - 1
            ))
        }
    };
    match expect {
        Expect::Scores(want) => {
            if want.as_slice() != game.scores() {
                return Err(format!("scores are {:?}, expected {want:?}", game.scores()));
            }
        }
        Expect::Points { player, reason, points } => {
            player_ok(*player)?;
            let r = pack
                .reasons
                .iter()
                .position(|x| x == reason)
                .ok_or_else(|| format!("unknown reason `{reason}`; reasons are {}", pack.reasons.join(", ")))?;
            let got = game.points(*player, r as u16).unwrap_or(0);
            if got != *points {
                return Err(format!(
                    "player {player} has {got} points from {reason}, expected {points}"
                ));
            }
        }
        Expect::Supply { player, figure, count } => {
            player_ok(*player)?;
            let got: u32 = match figure {
                Some(name) => u32::from(
                    game.supply(*player, figure_id(game, name).map_err(|e| e.to_string())?)
                        .unwrap_or(0),
                ),
                None => (0..pack.figures.len())
                    .map(|f| u32::from(game.supply(*player, f as FigureId).unwrap_or(0)))
                    .sum(),
            };
            if got != *count {
                return Err(format!("player {player} has {got} figures in supply, expected {count}"));
            }
        }
        Expect::Figure { player, at, on, figure } => {
            player_ok(*player)?;
            let placed = game.board().at(*at).ok_or_else(|| format!("no tile at {at:?}"))?;
            let seg = segment_at(game, placed, on).map_err(|e| e.to_string())?;
            let want_figure = figure
                .as_deref()
                .map(|n| figure_id(game, n))
                .transpose()
                .map_err(|e| e.to_string())?;
            let found = game.meeples().iter().any(|m| {
                m.placed == placed
                    && m.seg == seg
                    && m.owner == Some(*player as u8)
                    && want_figure.is_none_or(|f| f == m.figure)
            });
            if !found {
                return Err(format!("no figure of player {player} at {at:?} on {on}"));
            }
        }
        Expect::Empty { at, on } => {
            let placed = game.board().at(*at).ok_or_else(|| format!("no tile at {at:?}"))?;
            let seg = segment_at(game, placed, on).map_err(|e| e.to_string())?;
            if let Some(m) = game.meeples().iter().find(|m| m.placed == placed && m.seg == seg) {
                let owner = m.owner.map_or("neutral".to_string(), |o| format!("player {o}"));
                return Err(format!(
                    "a {} of {owner} is at {at:?} on {on}",
                    pack.figures[m.figure as usize].name
                ));
            }
        }
        Expect::GameOver(want) => {
            if game.is_over() != *want {
                return Err(format!("the game is {}over", if game.is_over() { "" } else { "not " }));
            }
        }
    }
    Ok(())
}
