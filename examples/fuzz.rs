//! A fuzz harness on stable Rust: mutated packs, random rule programs and
//! mutated records, each run under a time and memory guard.
//!
//! ```text
//! cargo run --release --example fuzz -- --packs N --records M --seed S [--threads T] [--out DIR]
//! ```
//!
//! Input `i` is generated from `(seed, i)` alone, so a run is the same for a
//! seed whatever the thread count. Pack inputs alternate between mutations of
//! the bundled packs (three in four) and random rule programs (one in four);
//! every pack that loads plays one game with random agents (one in 64 to its
//! end, the others for 30 decisions). Record inputs are
//! records of random games, one set per combination of bundled packs that
//! loads, written with `Record::to_ron`, mutated as text and as steps, parsed
//! and replayed on the combination's rules.
//!
//! A failure is a panic, an input that takes over 1 s, or an input during
//! which the process's resident memory (VmRSS in /proc/self/status) grows by
//! more than 512 MiB. The memory guard is process-wide: with several threads,
//! growth is charged to every input running at the time, which can only
//! over-report. An input still running after 30 s is written out and the run
//! stops (a hang cannot be interrupted). Every failing input is written to
//! `tests/fuzz_regressions/` (packs `.rules`, records `.ron`, named after the
//! pack combination), which `tests/fuzz_regressions.rs` replays. An input
//! identical to a file in `tests/fuzz_regressions/known/` (an open finding,
//! not yet fixed) is counted as known, not as a new failure. The exit status
//! is 1 when anything new failed.

use meeple::agents::{Agent, RandomAgent};
use meeple::bundled::BUNDLED;
use meeple::engine::{Game, Rng, Rules, Setup};
use meeple::record::{replay_with, Record, Step};
use meeple::{load, PackRef};
use std::collections::HashSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The loader's cap on a pack file (`src/check/load.rs`).
const MAX_PACK_BYTES: usize = 4 << 20;
/// An input over this many seconds is a failure (`--slow-secs`; 1 by default).
static SLOW_SECS: AtomicU64 = AtomicU64::new(1);

fn slow() -> Duration {
    Duration::from_secs(SLOW_SECS.load(Ordering::Relaxed))
}
const HANG: Duration = Duration::from_secs(30);
const MEMORY_CAP_KIB: u64 = 512 * 1024;
/// Games of each pack combination whose records are mutated.
const GAMES_PER_COMBO: u64 = 3;
/// Decisions of a short game, and how often a game plays to its end instead.
const SHORT_GAME: usize = 30;
const FULL_GAME_EVERY: u64 = 64;

#[derive(Default)]
struct Counts {
    packs: AtomicU64,
    mutated: AtomicU64,
    generated: AtomicU64,
    loaded: AtomicU64,
    generated_loaded: AtomicU64,
    games: AtomicU64,
    full_games: AtomicU64,
    game_errors: AtomicU64,
    records: AtomicU64,
    records_parsed: AtomicU64,
    replays_ok: AtomicU64,
    panics: AtomicU64,
    slow: AtomicU64,
    memory: AtomicU64,
    known: AtomicU64,
    slowest_us: AtomicU64,
}

struct Options {
    packs: u64,
    records: u64,
    seed: u64,
    threads: u64,
    out: PathBuf,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        packs: 10_000,
        records: 1_000,
        seed: 1,
        threads: 1,
        out: PathBuf::from("tests/fuzz_regressions"),
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        let number = || value.parse::<u64>().map_err(|e| format!("{flag} {value}: {e}"));
        match flag.as_str() {
            "--packs" => o.packs = number()?,
            "--records" => o.records = number()?,
            "--seed" => o.seed = number()?,
            "--threads" => o.threads = number()?.max(1),
            "--out" => o.out = PathBuf::from(value),
            "--slow-secs" => SLOW_SECS.store(number()?.max(1), Ordering::Relaxed),
            _ => {
                return Err(format!(
                    "unknown flag {flag}; flags: --packs --records --seed --threads --out --slow-secs"
                ))
            }
        }
    }
    Ok(o)
}

/// The resident set size of this process in KiB (0 where /proc is missing).
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len())]
}

// ---------------------------------------------------------------- packs

const HUGE: &[&str] = &[
    "99999999999999999999",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "18446744073709551616",
    "0",
    "-1",
    "4294967296",
    "x99999999999",
    "x0",
    "1e308",
];

const UNICODE: &[&str] = &[
    "\u{301}",
    "e\u{301}\u{302}\u{303}",
    "\u{202E}",
    "\u{200F}",
    "\u{FEFF}",
    "\u{200B}",
    "\u{1F600}",
    "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}",
    "é",
    "ß",
    "\u{10FFFF}",
    "\u{FFFD}",
    "\0",
    "\r\n",
    "\r",
    "\t",
    "\u{85}",
    "\u{2028}",
];

const SNIPPETS: &[&str] = &[
    "requires base",
    "requires winter",
    "requires nothing_here",
    "pack other",
    "language 1",
    "language 99999999999999999999",
    "on setup { }",
    "on turn_end { score 1 to current_player reason \"x\" }",
    "fn f(a: int) = a + 1",
    "var game v: int = 0",
    "var player v: int = 0",
    "count(",
    "count(f in features where f.completed)",
    "for player p { }",
    "choose city c { }",
    " if true then 1 else 2 ",
    "tile Q x1 { city N; field E S W touches N }",
    "extend tile D x99",
    "replace tile E x0",
    "feature k area { complete when neighbours == 8 score completed = 9 }",
    "figure f x1 per_player { stands on city }",
    "deck d { card c x2 { } }",
    "#",
    "\"",
    "{",
    "}",
    "(",
    ")",
    ";",
    ",",
    ".",
    "==",
    "not",
    "and",
    "none",
];

/// Splits a text into tokens: runs of word characters, runs of spaces, and
/// single other characters.
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut class = 0;
    for (i, c) in text.char_indices() {
        let k = if c.is_alphanumeric() || c == '_' {
            1
        } else if c.is_whitespace() {
            2
        } else {
            3
        };
        if i > start && (k != class || k == 3) {
            out.push(&text[start..i]);
            start = i;
        }
        class = k;
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

fn floor_boundary(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn insert_at(rng: &mut Rng, text: &mut String, piece: &str) {
    let at = floor_boundary(text, rng.below(text.len() + 1));
    text.insert_str(at, piece);
}

/// One mutation of `text`; `other` is another bundled pack to splice from.
fn mutate_pack(rng: &mut Rng, text: &mut String, other: &str) {
    match rng.below(16) {
        // Token splice: a run of the other pack's tokens replaces a run of ours.
        0 | 1 => {
            let ours = tokens(text);
            let theirs = tokens(other);
            if ours.is_empty() || theirs.is_empty() {
                return;
            }
            let a = rng.below(ours.len());
            let b = (a + rng.below(8)).min(ours.len());
            let c = rng.below(theirs.len());
            let d = (c + 1 + rng.below(12)).min(theirs.len());
            let mut out = ours[..a].concat();
            out.push_str(&theirs[c..d].concat());
            out.push_str(&ours[b..].concat());
            *text = out;
        }
        // Line splice: lines of the other pack replace or join ours.
        2 | 3 => {
            let mut ours: Vec<&str> = text.lines().collect();
            let theirs: Vec<&str> = other.lines().collect();
            if theirs.is_empty() {
                return;
            }
            let c = rng.below(theirs.len());
            let d = (c + 1 + rng.below(6)).min(theirs.len());
            let at = rng.below(ours.len() + 1);
            let cut = if rng.below(2) == 0 { 0 } else { rng.below(4) };
            let end = (at + cut).min(ours.len());
            ours.splice(at..end, theirs[c..d].iter().copied());
            *text = ours.join("\n");
        }
        // Delete, duplicate or swap lines.
        4 => {
            let mut lines: Vec<&str> = text.lines().collect();
            if !lines.is_empty() {
                let i = rng.below(lines.len());
                let n = 1 + rng.below(3);
                lines.drain(i..(i + n).min(lines.len()));
            }
            *text = lines.join("\n");
        }
        5 => {
            let mut lines: Vec<&str> = text.lines().collect();
            if !lines.is_empty() {
                let i = rng.below(lines.len());
                let times = if rng.below(8) == 0 { 200 } else { 1 + rng.below(3) };
                for _ in 0..times {
                    lines.insert(i, lines[i]);
                }
            }
            *text = lines.join("\n");
        }
        6 => {
            let mut lines: Vec<&str> = text.lines().collect();
            if lines.len() > 1 {
                let (i, j) = (rng.below(lines.len()), rng.below(lines.len()));
                lines.swap(i, j);
            }
            *text = lines.join("\n");
        }
        // Deep nesting.
        7 => {
            let depth = *pick(rng, &[8usize, 64, 200, 1000, 100_000]);
            let (open, close) = *pick(rng, &[("(", ")"), ("{", "}"), ("[", "]"), ("not ", ""), ("-", "")]);
            let balanced = rng.below(2) == 0;
            let piece = format!(
                "{}1{}",
                open.repeat(depth),
                if balanced { close.repeat(depth) } else { String::new() }
            );
            insert_at(rng, text, &piece);
        }
        // Huge numbers, in place of a number or anywhere.
        8 => {
            let huge = *pick(rng, HUGE);
            let digits: Vec<usize> = text
                .char_indices()
                .filter(|(_, c)| c.is_ascii_digit())
                .map(|(i, _)| i)
                .collect();
            if digits.is_empty() || rng.below(4) == 0 {
                insert_at(rng, text, huge);
            } else {
                let at = *pick(rng, &digits);
                let end = text[at..]
                    .find(|c: char| !c.is_ascii_digit())
                    .map_or(text.len(), |e| at + e);
                text.replace_range(at..end, huge.trim_start_matches('x'));
            }
        }
        // Long identifiers, in place of a word or anywhere.
        9 => {
            let len = *pick(rng, &[257usize, 300, 5000, 70_000]);
            let name: String = std::iter::once('a')
                .chain((1..len).map(|i| (b'a' + (i % 26) as u8) as char))
                .collect();
            let words: Vec<(usize, &str)> = tokens(text)
                .into_iter()
                .scan(0, |pos, t| {
                    let at = *pos;
                    *pos += t.len();
                    Some((at, t))
                })
                .filter(|(_, t)| t.chars().next().is_some_and(char::is_alphabetic))
                .collect();
            if words.is_empty() || rng.below(3) == 0 {
                insert_at(rng, text, &format!(" {name} "));
            } else {
                let (at, w) = *pick(rng, &words);
                text.replace_range(at..at + w.len(), &name);
            }
        }
        // Unicode, control characters, NUL.
        10 | 11 => {
            let piece = *pick(rng, UNICODE);
            insert_at(rng, text, piece);
        }
        // CRLF line endings throughout.
        12 => *text = text.replace('\n', "\r\n"),
        // A grammar snippet anywhere.
        13 => {
            let piece = format!(" {} ", pick(rng, SNIPPETS));
            insert_at(rng, text, &piece);
        }
        // A character replaced.
        14 => {
            if !text.is_empty() {
                let at = floor_boundary(text, rng.below(text.len()));
                let len = text[at..].chars().next().map_or(0, char::len_utf8);
                let c = *pick(
                    rng,
                    &[
                        '{', '}', '(', ')', ';', ',', '"', '#', '\n', ' ', 'x', '0', '-', '=', '.',
                    ],
                );
                text.replace_range(at..at + len, c.encode_utf8(&mut [0; 4]));
            }
        }
        // Truncated.
        _ => {
            let at = floor_boundary(text, rng.below(text.len() + 1));
            text.truncate(at);
        }
    }
}

/// A mutant of a bundled pack.
fn mutated_pack(rng: &mut Rng) -> String {
    let (_, base) = *pick(rng, BUNDLED);
    let mut text = base.to_string();
    for _ in 0..1 + rng.below(4) {
        let (_, other) = *pick(rng, BUNDLED);
        mutate_pack(rng, &mut text, other);
    }
    // A pack file over 4 MiB is refused before parsing; `PackRef::Text` has
    // no such cap, so keep mutants to what a file could hold.
    let cap = floor_boundary(&text, MAX_PACK_BYTES);
    text.truncate(cap);
    text
}

// ------------------------------------------------------ random programs

const EVENTS: &[(&str, Option<&str>)] = &[
    ("setup", None),
    ("turn_start", Some("player")),
    ("tile_drawn", Some("player")),
    ("tile_placed", Some("tile")),
    ("deploy_phase", Some("tile")),
    ("figure_deployed", Some("figure")),
    ("figure_placed", Some("figure")),
    ("figure_moved", Some("figure")),
    ("deploy_done", Some("tile")),
    ("feature_completed", Some("feature")),
    ("feature_scored", Some("feature")),
    ("feature_done", Some("feature")),
    ("figure_returned", Some("figure")),
    ("turn_end", Some("player")),
    ("game_end", None),
    ("game_over", None),
];

/// An int expression; `feature` names a feature variable in scope.
fn int_expr(rng: &mut Rng, feature: Option<&str>, depth: usize) -> String {
    let leaf = depth == 0 || rng.below(3) == 0;
    if leaf {
        return match (rng.below(7), feature) {
            (0, Some(f)) => format!("{f}.tiles"),
            (1, Some(f)) => format!("{f}.open_edges"),
            (2, _) => "current_player.score".to_string(),
            (3, _) => "count(f in features where f.completed)".to_string(),
            (4, _) => "count(p in players where p.score > 3)".to_string(),
            (5, _) => "counter".to_string(),
            _ => rng.below(10).to_string(),
        };
    }
    let a = int_expr(rng, feature, depth - 1);
    let b = int_expr(rng, feature, depth - 1);
    match rng.below(5) {
        0 => format!("({a} + {b})"),
        1 => format!("({a} - {b})"),
        2 => format!("({a} * {b})"),
        3 => format!("bonus({a})"),
        _ => format!("mix({a}, {b})"),
    }
}

fn statement(rng: &mut Rng, feature: Option<&str>, depth: usize) -> String {
    match rng.below(if depth == 0 { 3 } else { 6 }) {
        0 => format!("score {} to current_player reason \"gen\"", int_expr(rng, feature, 2)),
        1 => format!("set counter = {}", int_expr(rng, feature, 1)),
        2 => format!("set flag = {}", ["true", "false", "not flag"][rng.below(3)]),
        3 => format!(
            "for player p where p.score >= {} {{ score {} to p reason \"each\" }}",
            rng.below(20),
            int_expr(rng, feature, 1)
        ),
        4 => format!(
            "for feature g in features {{ {} }}",
            statement(rng, Some("g"), depth - 1)
        ),
        _ => format!(
            "if {} > {} {{ {} }} else {{ {} }}",
            int_expr(rng, feature, 1),
            rng.below(10),
            statement(rng, feature, depth - 1),
            statement(rng, feature, depth - 1)
        ),
    }
}

/// A small rule pack on top of the base game, built from templates so that
/// it should load.
fn generated_pack(rng: &mut Rng, n: u64) -> String {
    let mut out = format!("pack gen{n} \"Generated\"\nlanguage 1\nrequires base\n\n");
    out.push_str("var game counter: int = 0\nvar game flag: bool = false\n");
    out.push_str(&format!("fn bonus(a: int) = a * {} + 1\n", rng.below(4)));
    out.push_str("fn mix(a: int, b: int) = bonus(a) - 2 * b\n");
    for _ in 0..1 + rng.below(5) {
        let (event, kind) = *pick(rng, EVENTS);
        let param = kind.map(|_| "x");
        let feature = (kind == Some("feature")).then_some("x");
        let head = match param {
            Some(p) => format!("on {event}({p})"),
            None => format!("on {event}"),
        };
        let when = match (rng.below(3), feature) {
            (0, Some(f)) => format!(" when {f}.kind == city"),
            (1, _) => " when not flag".to_string(),
            _ => String::new(),
        };
        let body: Vec<String> = (0..1 + rng.below(3)).map(|_| statement(rng, feature, 2)).collect();
        out.push_str(&format!("{head}{when} {{\n  {}\n}}\n", body.join("\n  ")));
    }
    if rng.below(2) == 0 {
        out.push_str(&format!(
            "action gen_action in {} when counter < {} {{\n  set counter = counter + 1\n  score {} to current_player reason \"act\"\n}}\n",
            ["deploy", "before_place"][rng.below(2)],
            1 + rng.below(5),
            int_expr(rng, None, 1)
        ));
    }
    out
}

// ---------------------------------------------------------------- games

/// Plays one game with random agents; a rule error is an expected outcome.
fn play_game(counts: &Counts, pack: meeple::RulePack, seed: u64) {
    let rules = Arc::new(Rules::new(pack));
    let players = 2 + (seed % 3) as usize;
    let Ok(mut game) = Game::new(rules, Setup::new(players).seed(seed)) else {
        counts.game_errors.fetch_add(1, Ordering::Relaxed);
        return;
    };
    let mut agents: Vec<Box<dyn Agent>> = (0..players)
        .map(|p| Box::new(RandomAgent::new(seed ^ (p as u64 + 1))) as Box<dyn Agent>)
        .collect();
    counts.games.fetch_add(1, Ordering::Relaxed);
    // One game in FULL_GAME_EVERY plays to its end; the others stop after
    // SHORT_GAME decisions, which keeps a million inputs within an hour.
    let limit = if seed % FULL_GAME_EVERY == 0 {
        counts.full_games.fetch_add(1, Ordering::Relaxed);
        usize::MAX
    } else {
        SHORT_GAME
    };
    let mut options = Vec::new();
    let mut decisions = 0;
    while game.decision().is_some() && decisions < limit {
        game.options_into(&mut options);
        let player = game.deciding_player().unwrap_or_default().index();
        let choice = match agents[player % players].choose(&game, &options) {
            Ok(c) => c,
            Err(_) => break,
        };
        if game.apply(choice).is_err() {
            counts.game_errors.fetch_add(1, Ordering::Relaxed);
            return;
        }
        decisions += 1;
    }
}

fn pack_input(counts: &Counts, rng: &mut Rng, i: u64) -> String {
    if i % 4 == 3 {
        counts.generated.fetch_add(1, Ordering::Relaxed);
        generated_pack(rng, i)
    } else {
        counts.mutated.fetch_add(1, Ordering::Relaxed);
        mutated_pack(rng)
    }
}

fn run_pack(counts: &Counts, text: &str, seed: u64, generated: bool) {
    let loaded = load(&[PackRef::Text {
        name: "fuzz.rules".into(),
        text: text.to_string(),
    }]);
    if let Ok(pack) = loaded {
        counts.loaded.fetch_add(1, Ordering::Relaxed);
        if generated {
            counts.generated_loaded.fetch_add(1, Ordering::Relaxed);
        }
        play_game(counts, pack, seed);
    }
}

// -------------------------------------------------------------- records

/// Every combination of bundled packs that loads and starts a game, with its
/// rules.
fn combinations() -> Vec<(Vec<String>, Arc<Rules>)> {
    let names: Vec<&str> = BUNDLED.iter().map(|(n, _)| *n).collect();
    let mut out = Vec::new();
    for mask in 1u32..(1 << names.len()) {
        let combo: Vec<String> = (0..names.len())
            .filter(|b| mask & (1 << b) != 0)
            .map(|b| names[b].to_string())
            .collect();
        let refs: Vec<PackRef> = combo.iter().map(|n| PackRef::Bundled(n.clone())).collect();
        if let Ok(pack) = load(&refs) {
            let rules = Arc::new(Rules::new(pack));
            if Game::new(rules.clone(), Setup::new(2).seed(1)).is_ok() {
                out.push((combo, rules));
            }
        }
    }
    out
}

/// The record of a random game of `rules`, as `sim --record-dir` writes it.
fn record_of_game(combo: &[String], rules: &Arc<Rules>, seed: u64) -> Record {
    let players = 2 + (seed % 3) as usize;
    let mut game = Game::new(rules.clone(), Setup::new(players).seed(seed)).expect("the combination starts");
    game.set_logging(true);
    let mut agents: Vec<Box<dyn Agent>> = (0..players)
        .map(|p| Box::new(RandomAgent::new(seed ^ (p as u64 + 1))) as Box<dyn Agent>)
        .collect();
    let _ = meeple::agents::play(&mut game, &mut agents);
    let names = (1..=players).map(|p| format!("Player {p}")).collect();
    Record::from_game(&game, combo.to_vec(), names, Some(seed)).expect("a game records")
}

fn mutate_record_text(rng: &mut Rng, text: &mut String) {
    match rng.below(9) {
        0 => {
            let mut lines: Vec<&str> = text.lines().collect();
            if !lines.is_empty() {
                let i = rng.below(lines.len());
                lines.drain(i..(i + 1 + rng.below(4)).min(lines.len()));
            }
            *text = lines.join("\n");
        }
        1 => {
            let mut lines: Vec<&str> = text.lines().collect();
            if !lines.is_empty() {
                let i = rng.below(lines.len());
                lines.insert(i, lines[i]);
            }
            *text = lines.join("\n");
        }
        2 => {
            let mut lines: Vec<&str> = text.lines().collect();
            if lines.len() > 1 {
                let (i, j) = (rng.below(lines.len()), rng.below(lines.len()));
                lines.swap(i, j);
            }
            *text = lines.join("\n");
        }
        3 | 4 => {
            let digits: Vec<usize> = text
                .char_indices()
                .filter(|(_, c)| c.is_ascii_digit())
                .map(|(i, _)| i)
                .collect();
            if !digits.is_empty() {
                let at = *pick(rng, &digits);
                let end = text[at..]
                    .find(|c: char| !c.is_ascii_digit())
                    .map_or(text.len(), |e| at + e);
                let n = *pick(
                    rng,
                    &[
                        "0",
                        "1",
                        "7",
                        "45",
                        "360",
                        "-1",
                        "2147483648",
                        "99999999999999999999",
                        "18446744073709551615",
                    ],
                );
                text.replace_range(at..end, n);
            }
        }
        5 => {
            if !text.is_empty() {
                let at = floor_boundary(text, rng.below(text.len()));
                let len = text[at..].chars().next().map_or(0, char::len_utf8);
                let c = *pick(rng, &['(', ')', '[', ']', ',', '"', ':', ' ', 'x', '0', '\0', 'é']);
                text.replace_range(at..at + len, c.encode_utf8(&mut [0; 4]));
            }
        }
        6 => {
            let piece = *pick(
                rng,
                &[
                    "Turn(tile: \"NOPE\", at: (0, 1), rot: 0),",
                    "Discard(tile: \"A\"),",
                    "Check(Score(player: 0, is: 3)),",
                    "choices: [],",
                    "seed: Some(3),",
                    "\u{FEFF}",
                    "\r\n",
                    "((((((((((((((((((((((((",
                    "[[[[[[[[[[[[[[[[[[[[[[[[",
                ],
            );
            insert_at(rng, text, piece);
        }
        7 => {
            let at = floor_boundary(text, rng.below(text.len() + 1));
            text.truncate(at);
        }
        _ => {
            // A name replaced by a long or unknown one.
            if let Some(at) = text.find("tile: \"") {
                let from = at + 7 + rng.below(3);
                let from = floor_boundary(text, from.min(text.len()));
                let piece = if rng.below(2) == 0 {
                    "Z".repeat(300)
                } else {
                    "E".to_string()
                };
                text.insert_str(from, &piece);
            }
        }
    }
}

/// A mutant of `record`: steps swapped, removed or repeated, then the text.
fn mutated_record(rng: &mut Rng, record: &Record) -> String {
    let mut record = record.clone();
    let n = record.turns.len();
    if n > 1 && rng.below(2) == 0 {
        match rng.below(3) {
            0 => record.turns.swap(rng.below(n), rng.below(n)),
            1 => {
                record.turns.remove(rng.below(n));
            }
            _ => {
                let i = rng.below(n);
                let step: Step = record.turns[i].clone();
                record.turns.insert(rng.below(n), step);
            }
        }
    }
    let mut text = record.to_ron();
    for _ in 0..rng.below(4) {
        mutate_record_text(rng, &mut text);
    }
    text
}

fn run_record(counts: &Counts, text: &str, rules: &Arc<Rules>) {
    if let Ok(record) = Record::parse("fuzz.ron", text) {
        counts.records_parsed.fetch_add(1, Ordering::Relaxed);
        if replay_with(&record, rules.clone()).is_ok() {
            counts.replays_ok.fetch_add(1, Ordering::Relaxed);
        }
    }
}

// ---------------------------------------------------------------- guard

/// What each worker is running now, for the hang watchdog.
type Current = Mutex<Option<(Instant, String, String)>>;

/// Runs `f` on one input under the guards; records a failure by writing
/// `text` as `out/<file>`.
fn guarded(
    counts: &Counts,
    out: &Path,
    known: &HashSet<String>,
    current: &Current,
    file: String,
    text: &str,
    f: impl FnOnce(),
) {
    *current.lock().unwrap() = Some((Instant::now(), file.clone(), text.to_string()));
    let before = rss_kib();
    let start = Instant::now();
    let result = catch_unwind(AssertUnwindSafe(f));
    let took = start.elapsed();
    let grew = rss_kib().saturating_sub(before);
    *current.lock().unwrap() = None;
    counts.slowest_us.fetch_max(took.as_micros() as u64, Ordering::Relaxed);
    let failed = result.is_err() || took > slow() || grew > MEMORY_CAP_KIB;
    if failed && known.contains(text) {
        counts.known.fetch_add(1, Ordering::Relaxed);
        eprintln!("known failure ({file}): {took:?}, panic: {}", result.is_err());
        return;
    }
    let mut why = Vec::new();
    if result.is_err() {
        counts.panics.fetch_add(1, Ordering::Relaxed);
        why.push("panic".to_string());
    }
    if took > slow() {
        counts.slow.fetch_add(1, Ordering::Relaxed);
        why.push(format!("took {took:?}"));
    }
    if grew > MEMORY_CAP_KIB {
        counts.memory.fetch_add(1, Ordering::Relaxed);
        why.push(format!("resident memory grew by {grew} KiB"));
    }
    if !why.is_empty() {
        let _ = std::fs::create_dir_all(out);
        let path = out.join(&file);
        let _ = std::fs::write(&path, text);
        eprintln!("FAIL {}: {}", path.display(), why.join(", "));
    }
}

/// What a worker shares: the options, the counts, the combinations, the known
/// failures, its current input and the stop flag.
struct Shared<'a> {
    o: &'a Options,
    counts: &'a Counts,
    combos: &'a [(Vec<String>, Arc<Rules>)],
    known: &'a HashSet<String>,
    stop: &'a AtomicBool,
}

fn worker(sh: &Shared, t: u64, current: &Current) {
    let Shared {
        o,
        counts,
        combos,
        known,
        stop,
    } = *sh;
    let mut i = t;
    while i < o.packs && !stop.load(Ordering::Relaxed) {
        let mut rng = Rng::new(o.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ i);
        let text = pack_input(counts, &mut rng, i);
        let generated = i % 4 == 3;
        let seed = rng.next_u64();
        counts.packs.fetch_add(1, Ordering::Relaxed);
        let file = format!("pack-s{}-{i}.rules", o.seed);
        guarded(counts, &o.out, known, current, file, &text, || {
            run_pack(counts, &text, seed, generated)
        });
        i += o.threads;
    }
    // Records of each combination's games, made on demand by this worker.
    let mut cache: std::collections::HashMap<(usize, u64), Record> = std::collections::HashMap::new();
    let mut i = t;
    while i < o.records && !combos.is_empty() && !stop.load(Ordering::Relaxed) {
        let c = (i as usize) % combos.len();
        let g = (i / combos.len() as u64) % GAMES_PER_COMBO;
        let (combo, rules) = &combos[c];
        let record = cache
            .entry((c, g))
            .or_insert_with(|| record_of_game(combo, rules, o.seed.wrapping_add(g)));
        let mut rng = Rng::new(o.seed.wrapping_mul(0xD1B5_4A32_D192_ED03) ^ i);
        let text = mutated_record(&mut rng, record);
        counts.records.fetch_add(1, Ordering::Relaxed);
        let file = format!("record-{}-s{}-{i}.ron", combo.join("+"), o.seed);
        guarded(counts, &o.out, known, current, file, &text, || {
            run_record(counts, &text, rules)
        });
        i += o.threads;
    }
}

fn main() {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("fuzz: {e}");
            std::process::exit(2);
        }
    };
    let started = Instant::now();
    // Panics are counted and their inputs kept; the default message stays.
    let combos = if o.records > 0 { combinations() } else { Vec::new() };
    let counts = Counts::default();
    let currents: Vec<Current> = (0..o.threads).map(|_| Mutex::new(None)).collect();
    let stop = AtomicBool::new(false);
    let known: HashSet<String> = std::fs::read_dir(o.out.join("known"))
        .into_iter()
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.ok()?.path()).ok())
        .collect();
    let shared = Shared {
        o: &o,
        counts: &counts,
        combos: &combos,
        known: &known,
        stop: &stop,
    };
    let hung = AtomicBool::new(false);
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..o.threads)
            .map(|t| {
                let (shared, current) = (&shared, &currents[t as usize]);
                s.spawn(move || worker(shared, t, current))
            })
            .collect();
        // The watchdog: an input running past HANG is written out, and the
        // run stops, since a hang cannot be interrupted.
        while workers.iter().any(|w| !w.is_finished()) {
            std::thread::sleep(Duration::from_millis(200));
            for current in &currents {
                if let Some((since, file, text)) = current.lock().unwrap().as_ref() {
                    if since.elapsed() > HANG {
                        let _ = std::fs::create_dir_all(&o.out);
                        let path = o.out.join(file);
                        let _ = std::fs::write(&path, text);
                        eprintln!("HANG {}: still running after {:?}", path.display(), since.elapsed());
                        hung.store(true, Ordering::Relaxed);
                    }
                }
            }
            if hung.load(Ordering::Relaxed) {
                eprintln!("fuzz: stopping: an input hangs");
                std::process::exit(1);
            }
        }
    });
    let n = |a: &AtomicU64| a.load(Ordering::Relaxed);
    let took = started.elapsed();
    println!(
        "fuzz seed {} threads {} in {:.1} s",
        o.seed,
        o.threads,
        took.as_secs_f64()
    );
    println!(
        "packs: {} inputs ({} mutated, {} generated), {} loaded ({} of the generated), {} games played ({} to their end), {} stopped by a rule or game error",
        n(&counts.packs),
        n(&counts.mutated),
        n(&counts.generated),
        n(&counts.loaded),
        n(&counts.generated_loaded),
        n(&counts.games),
        n(&counts.full_games),
        n(&counts.game_errors)
    );
    println!(
        "records: {} inputs over {} pack combinations, {} parsed, {} replayed without error",
        n(&counts.records),
        combos.len(),
        n(&counts.records_parsed),
        n(&counts.replays_ok)
    );
    println!(
        "failures: {} panics, {} over {:?}, {} over the {} MiB memory cap, {} known (tests/fuzz_regressions/known/); slowest input {:.3} s; peak RSS {} KiB",
        n(&counts.panics),
        n(&counts.slow),
        slow(),
        n(&counts.memory),
        MEMORY_CAP_KIB / 1024,
        n(&counts.known),
        n(&counts.slowest_us) as f64 / 1e6,
        peak_kib()
    );
    if n(&counts.panics) + n(&counts.slow) + n(&counts.memory) > 0 {
        std::process::exit(1);
    }
}

/// The peak resident set size of this process in KiB.
fn peak_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}
