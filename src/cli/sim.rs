//! `meeple sim`: many games, with statistics per seat.

use crate::agents::{agent_by_name, Agent, AgentSpec};
use crate::engine::{Game, GameError, Rules};
use crate::record::Record;
use crate::sim::{play_game, play_games_each, replay_seed, GameResult, Run, Stopped, Tally, Totals};
use crate::stats::Interval;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use std::io::{IsTerminal, Write as _};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Once};
use std::time::Instant;

/// What to simulate.
pub struct SimOptions {
    pub packs: Vec<String>,
    pub players: usize,
    pub games: usize,
    pub seed: u64,
    pub agents: Vec<String>,
    pub json: bool,
    pub record_dir: Option<PathBuf>,
    /// Games played at once (1 or more).
    pub threads: usize,
    /// Agents change seats from game to game.
    pub rotate_seats: bool,
    /// A failed game is reported and the run goes on.
    pub keep_going: bool,
    /// Where one line per game and seat is written (JSON Lines, or CSV for a `.csv` name).
    pub games_out: Option<PathBuf>,
    /// Where plots are written.
    pub plot: Option<PathBuf>,
    /// Keyed tile draws (see `Run::keyed_draws`).
    pub keyed_draws: bool,
}

impl SimOptions {
    /// The library's run for these options.
    pub(super) fn run(&self) -> Run {
        Run::new(self.players, self.games)
            .seed(self.seed)
            .threads(self.threads)
            .logging(self.record_dir.is_some())
            .keep_going(self.keep_going)
            .rotate_seats(self.rotate_seats)
            .keyed_draws(self.keyed_draws)
    }

    /// The agent of lineup slot `slot`, with its seed.
    pub(super) fn agent(&self, slot: usize, seed: u64) -> Box<dyn Agent> {
        agent_by_name(&self.agents[slot % self.agents.len()], seed).expect("agent names checked")
    }

    /// The agent's name in lineup slot `slot`.
    pub(super) fn agent_name(&self, slot: usize) -> &str {
        &self.agents[slot % self.agents.len()]
    }
}

/// What a worker keeps of a finished game: its result, and its record's
/// text when records are written (made on the worker's thread, written in
/// game order).
pub(super) struct Finished {
    pub(super) result: GameResult,
    record: Option<Result<String, String>>,
}

/// What a worker keeps of game `g`.
fn finish(opts: &SimOptions, g: usize, game: &Game) -> Finished {
    Finished {
        result: GameResult::of(game),
        record: opts
            .record_dir
            .as_deref()
            .map(|dir| record_of(game, opts, g, Some(dir)).map(|r| r.to_ron())),
    }
}

/// The record of game `g` of the run.
fn record_of(game: &Game, opts: &SimOptions, g: usize, dir: Option<&Path>) -> Result<Record, String> {
    Record::from_game(
        game,
        record_packs(&opts.packs, dir).0,
        seat_names(opts, g),
        Some(replay_seed(opts.seed, g)),
    )
    .map_err(|e| e.to_string())
}

/// The players of game `g`'s record, each named by its seat and the agent
/// that played it (`Player 1 (greedy)`; with rotating seats, game g's).
fn seat_names(opts: &SimOptions, g: usize) -> Vec<String> {
    let run = opts.run();
    (0..opts.players)
        .map(|seat| format!("Player {} ({})", seat + 1, opts.agent_name(run.slot(g, seat))))
        .collect()
}

/// `meeple replay` of the record at `path` in `dir`, with the folders of
/// the run's packs that lie outside `dir` (a record reads only its folder
/// and those named).
fn replay_command(opts: &SimOptions, dir: &Path, path: &Path) -> String {
    let packs_dirs: String = record_packs(&opts.packs, Some(dir))
        .1
        .iter()
        .map(|d| format!("--packs-dir {} ", shell_word(&d.display().to_string())))
        .collect();
    format!("meeple replay {packs_dirs}{}", shell_word(&path.display().to_string()))
}

/// Writes game `g`'s record (its text) into `dir`; returns its path.
fn write_record(record: &str, dir: &Path, g: usize) -> Result<PathBuf, String> {
    let path = dir.join(format!("game-{g:05}.ron"));
    std::fs::write(&path, record).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// A game stopped by an error: what the run reports of it on stderr
/// ([`FailedGame::text`]) and in its JSON ([`FailedGame::json`]).
pub(super) struct FailedGame {
    game: usize,
    /// The seed that plays it again alone (`--seed S --games 1`).
    seed: u64,
    /// The variant of a comparison that failed (`A` or `B`).
    pub(super) variant: Option<&'static str>,
    kind: String,
    error: String,
    /// Met in an agent's look ahead: the record holds the moves before it.
    in_look: bool,
    /// The record written (its path and the command replaying it), or why
    /// it could not be.
    record: Result<(PathBuf, String), String>,
    /// The command that plays the game again.
    again: String,
}

impl FailedGame {
    /// The message on stderr: the error, the record, the commands.
    pub(super) fn text(&self) -> String {
        let mut out = match self.variant {
            Some(v) => format!("variant {v}: game {} stopped: {}", self.game, self.error),
            None => format!("game {} stopped: {}", self.game, self.error),
        };
        match &self.record {
            // A failure met in an agent's look ahead is in no move the game
            // made: the record replays the moves before it, and the game
            // played again meets it.
            Ok((path, replay)) if self.in_look => {
                out += &format!(
                    "\n  its record (the moves before it: the failure came in an agent's look ahead, which a replay does not make): {}\n  replay those moves: {replay}",
                    path.display(),
                )
            }
            Ok((path, replay)) => out += &format!("\n  its record: {}\n  replay it: {replay}", path.display()),
            Err(e) => out += &format!("\n  (its record could not be written: {e})"),
        }
        out += &format!("\n  play it again: {}", self.again);
        out
    }

    /// The failure in a run's JSON `failures` list: a program finds the
    /// game, its seed, the error and the commands without reading stderr.
    pub(super) fn json(&self) -> serde_json::Value {
        let (record, replay, unwritten) = match &self.record {
            Ok((path, replay)) => (json!(path.display().to_string()), json!(replay), json!(null)),
            Err(e) => (json!(null), json!(null), json!(e)),
        };
        let mut v = json!({
            "game": self.game, "seed": self.seed, "kind": self.kind, "error": self.error,
            "in_agents_look": self.in_look, "record": record, "replay": replay,
            "record_not_written": unwritten, "play_again": self.again,
        });
        if let Some(variant) = self.variant {
            v["variant"] = json!(variant);
        }
        v
    }
}

/// Game `g` stopped by `error`: its record (written to `--record-dir`,
/// else to a temporary file) and commands that reproduce it.
pub(super) fn stopped(rules: &Arc<Rules>, opts: &SimOptions, g: usize, error: &GameError) -> FailedGame {
    // Games run without their log unless records are written: play the
    // game again (the same seeds make the same game) with the log on.
    let game = match play_game(
        rules,
        &opts.run().logging(true),
        &|seat, seed| opts.agent(seat, seed),
        g,
    ) {
        Ok(game) => Some(game),
        Err(stopped) => stopped.game.map(|game| *game),
    };
    // A game that failed while being set up has a record with no turns,
    // which replays to the same failure.
    let record = |dir: Option<&Path>| match &game {
        Some(game) => record_of(game, opts, g, dir),
        None => Ok(Record {
            rules: record_packs(&opts.packs, dir).0,
            players: seat_names(opts, g),
            seed: Some(replay_seed(opts.seed, g)),
            tiles: None,
            turns: Vec::new(),
            expect: Vec::new(),
            fails: None,
        }),
    };
    let temporary = std::env::temp_dir();
    let folder = opts.record_dir.as_deref().unwrap_or(&temporary);
    let written = match &opts.record_dir {
        Some(dir) => record(Some(dir)).and_then(|r| write_record(&r.to_ron(), dir, g)),
        None => {
            let path = temporary.join(format!("meeple-sim-{}-game-{g:05}.ron", std::process::id()));
            record(Some(&temporary)).and_then(|record| {
                std::fs::write(&path, record.to_ron())
                    .map(|()| path.clone())
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))
            })
        }
    };
    let mut command = vec![
        "meeple".to_string(),
        "sim".to_string(),
        "--rules".to_string(),
        opts.packs.join(","),
        "--players".to_string(),
        opts.players.to_string(),
        "--agents".to_string(),
        // Game g's lineup, seat by seat (with rotating seats it is not the run's).
        (0..opts.players)
            .map(|seat| opts.agent_name(opts.run().slot(g, seat)))
            .collect::<Vec<_>>()
            .join(","),
        "--seed".to_string(),
        replay_seed(opts.seed, g).to_string(),
        "--games".to_string(),
        "1".to_string(),
    ];
    if opts.keyed_draws {
        command.push("--keyed-draws".to_string());
    }
    command.iter_mut().for_each(|w| *w = shell_word(w));
    FailedGame {
        game: g,
        seed: replay_seed(opts.seed, g),
        variant: None,
        kind: error.kind().to_string(),
        error: error.to_string(),
        in_look: error.met_in_look(),
        record: written.map(|path| {
            let replay = replay_command(opts, folder, &path);
            (path, replay)
        }),
        again: command.join(" "),
    }
}

/// A word as a POSIX shell reads it back, quoted when needed.
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./,=:+@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// Set by Ctrl-C: the run stops taking games and reports those finished.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Makes Ctrl-C stop a run cleanly (a second Ctrl-C ends the process at once).
fn catch_interrupt() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Without a handler Ctrl-C still ends the process, as before.
        let _ = ctrlc::set_handler(|| {
            if INTERRUPTED.swap(true, Ordering::SeqCst) {
                eprintln!(
                    "\nsecond Ctrl-C: stopped at once, with no figures (a --games-out file may end in the middle of a game); one Ctrl-C stops after the games being played and prints the figures of those finished"
                );
                std::process::exit(130);
            }
        });
    });
}

/// How a run of games ended.
pub(super) struct Driven {
    /// Games handed to the caller (finished, in game order).
    pub(super) played: usize,
    /// Games that stopped with an error (reported on stderr, and in the
    /// JSON; only with --keep-going), in game order.
    pub(super) failures: Vec<FailedGame>,
    /// Whether Ctrl-C stopped the run early.
    pub(super) interrupted: bool,
    pub(super) seconds: f64,
}

/// Plays the run's games, keeping `keep(g, game)` of each on the worker
/// thread and handing it to `take(g, value)` in game order, with a progress
/// bar on a terminal, Ctrl-C, and failed games reported (`failure(g, why)`
/// makes the message) and skipped with --keep-going, or ending the run.
pub(super) fn drive<T, W>(
    rules: &Arc<Rules>,
    opts: &SimOptions,
    keep: impl Fn(usize, Result<Game, Stopped>) -> Result<T, W> + Sync,
    failure: impl Fn(usize, &W) -> FailedGame,
    mut take: impl FnMut(usize, T) -> Result<(), String>,
) -> Result<Driven, String>
where
    T: Send,
    W: Send,
{
    catch_interrupt();
    INTERRUPTED.store(false, Ordering::SeqCst);
    let bar = if std::io::stderr().is_terminal() && opts.games > 1 {
        let bar = ProgressBar::new(opts.games as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} games, {per_sec}, {eta} left")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let started = Instant::now();
    let mut driven = Driven {
        played: 0,
        failures: Vec::new(),
        interrupted: false,
        seconds: 0.0,
    };
    let mut error: Option<String> = None;
    let run = opts.run();
    let agents = |slot: usize, seed: u64| opts.agent(slot, seed);
    play_games_each(rules, &run, &agents, keep, |g, kept| {
        bar.inc(1);
        match kept {
            Ok(value) => {
                if let Err(e) = take(g, value) {
                    error = Some(e);
                    return ControlFlow::Break(());
                }
                driven.played += 1;
            }
            Err(why) => {
                let failed = failure(g, &why);
                if !opts.keep_going {
                    error = Some(failed.text());
                    return ControlFlow::Break(());
                }
                bar.suspend(|| eprintln!("{}\n  (--keep-going: the run goes on without it)", failed.text()));
                driven.failures.push(failed);
            }
        }
        if INTERRUPTED.load(Ordering::SeqCst) {
            driven.interrupted = true;
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    bar.finish_and_clear();
    driven.seconds = started.elapsed().as_secs_f64();
    match error {
        Some(e) => Err(e),
        None => Ok(driven),
    }
}

/// A simulation's report and how it ended.
pub struct Report {
    /// The text (a table, or JSON) for stdout.
    pub text: String,
    /// Games that failed (with --keep-going).
    pub failed: usize,
    /// Whether Ctrl-C stopped the run early.
    pub interrupted: bool,
    /// Said on stderr after the report: how to replay the records written.
    pub note: Option<String>,
}

/// Runs the simulation; returns the report, or a message naming the failed game.
pub fn run(rules: Arc<Rules>, opts: &SimOptions) -> Result<Report, String> {
    let pack = &rules.pack;
    if let Some(dir) = &opts.record_dir {
        if dir.exists() && !dir.is_dir() {
            return Err(format!(
                "--record-dir {} is a file, not a folder; name a folder (it is made if missing)",
                dir.display()
            ));
        }
        // A run writes game-00000.ron and on: into a folder holding another
        // run's, it would overwrite some and leave the rest, one folder of
        // records of two runs.
        let old = records_in(dir);
        if let Some(first) = old.first() {
            return Err(format!(
                "--record-dir {}: it already holds records of a run ({first}{}); a run would overwrite some and leave the others, so empty the folder or name another",
                dir.display(),
                if old.len() > 1 { " and others" } else { "" }
            ));
        }
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("--record-dir {}: cannot make the folder: {e}", dir.display()))?;
    }
    let mut games_out = match &opts.games_out {
        Some(path) => Some(GamesOut::create(path, &pack.reasons, false)?),
        None => None,
    };
    if let Some(dir) = &opts.plot {
        super::plot::make_folder(dir)?;
    }
    let run = opts.run();
    let mut totals = Totals::new(opts.players);
    let keep = |g: usize, played: Result<Game, Stopped>| match played {
        Ok(game) => Ok(finish(opts, g, &game)),
        Err(stopped) => Err(stopped.error),
    };
    // Games are summed in game order, whatever the number of threads, so
    // the statistics (floating-point sums included) are the same for any.
    let driven = drive(
        &rules,
        opts,
        keep,
        |g, e| stopped(&rules, opts, g, e),
        |g, finished: Finished| {
            totals.add(&run, g, &finished.result);
            if let Some(out) = games_out.as_mut() {
                out.write(
                    g,
                    replay_seed(opts.seed, g),
                    None,
                    (&finished.result, &pack.reasons),
                    |seat| (run.slot(g, seat), opts.agent_name(run.slot(g, seat))),
                )?;
            }
            if let (Some(dir), Some(record)) = (&opts.record_dir, finished.record) {
                record.and_then(|r| write_record(&r, dir, g))?;
            }
            Ok(())
        },
    )?;
    if let Some(out) = games_out {
        out.finish()?;
    }
    if totals.games == 0 && !driven.failures.is_empty() && !driven.interrupted {
        return Err(format!(
            "every game that was played failed ({}, reported above): there are no statistics to give",
            driven.failures.len()
        ));
    }
    if let Some(dir) = &opts.plot {
        super::plot::sim_plots(
            dir,
            pack,
            &totals,
            &|slot| opts.agent_name(slot).to_string(),
            opts.rotate_seats,
        )?;
    }
    let text = if opts.json {
        sim_json(opts, pack, &totals, &driven)
    } else {
        sim_table(opts, pack, &totals, &driven)
    };
    // How to replay the records, named by the first written (after Ctrl-C,
    // game 0 may not be).
    let first = |dir: &Path| records_in(dir).first().map(|n| dir.join(n));
    let note = opts
        .record_dir
        .as_deref()
        .and_then(|dir| Some((dir, first(dir)?)))
        .map(|(dir, first)| {
            format!(
                "records: one per game in {}; replay one with {}",
                dir.display(),
                replay_command(opts, dir, &first)
            )
        });
    Ok(Report {
        text,
        failed: driven.failures.len(),
        interrupted: driven.interrupted,
        note,
    })
}

/// The names of the records a run writes (`game-00000.ron` and on) found
/// in `dir`, sorted; none when it cannot be read.
fn records_in(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("game-") && n.ends_with(".ron"))
        .collect();
    names.sort();
    names
}

/// A tally's figures as JSON (the keys of earlier versions kept: `mean`,
/// `stddev` (now the sample standard deviation), `min`, `max`, `win_rate`,
/// `points_by_reason`).
fn tally_json(t: &Tally, reasons: &[String]) -> serde_json::Value {
    let ci = |i: Interval| json!([i.low, i.high]);
    let by_reason: serde_json::Map<String, serde_json::Value> = reasons
        .iter()
        .zip(&t.reasons)
        .map(|(name, s)| (name.clone(), json!(s.mean())))
        .collect();
    let by_reason_ci: serde_json::Map<String, serde_json::Value> = reasons
        .iter()
        .zip(&t.reasons)
        .map(|(name, s)| (name.clone(), ci(s.interval())))
        .collect();
    let q = |p: f64| json!(t.scores.quantile(p));
    json!({
        "mean": t.score.mean(), "mean_ci": ci(t.score.interval()), "se": t.score.se(),
        "stddev": t.score.sd(), "min": t.score.min(), "max": t.score.max(),
        "quantiles": { "p10": q(0.1), "p25": q(0.25), "p50": q(0.5), "p75": q(0.75), "p90": q(0.9) },
        "win_rate": t.wins.rate(), "win_rate_ci": ci(t.wins.interval()),
        "points_by_reason": by_reason, "points_by_reason_ci": by_reason_ci,
    })
}

fn sim_json(opts: &SimOptions, pack: &crate::ir::RulePack, totals: &Totals, driven: &Driven) -> String {
    let with = |mut v: serde_json::Value, key: &str, extra: serde_json::Value| {
        v[key] = extra;
        v
    };
    let seats: Vec<_> = totals
        .seats
        .iter()
        .enumerate()
        .map(|(p, t)| {
            let v = with(tally_json(t, &pack.reasons), "seat", json!(p));
            // Without rotation, seat p is always lineup slot p's agent.
            let agent = if opts.rotate_seats {
                json!(null)
            } else {
                json!(opts.agent_name(p))
            };
            with(v, "agent", agent)
        })
        .collect();
    let agents: Vec<_> = totals
        .slots
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let v = with(tally_json(t, &pack.reasons), "slot", json!(i));
            with(v, "agent", json!(opts.agent_name(i)))
        })
        .collect();
    let first = &totals.seats.first();
    let fair = 1.0 / opts.players.max(1) as f64;
    let report = json!({
        "rules": opts.packs, "players": opts.players, "games": totals.games, "games_asked": opts.games,
        "failed_games": driven.failures.len(), "failures": failures_json(&driven.failures), "interrupted": driven.interrupted, "seed": opts.seed,
        "rotate_seats": opts.rotate_seats, "seconds": driven.seconds,
        "discarded_tiles_per_game": totals.discarded.mean(),
        "turns": { "mean": totals.turns.mean(), "mean_ci": [totals.turns.interval().low, totals.turns.interval().high],
                   "min": totals.turns.min(), "max": totals.turns.max(), "p50": totals.turn_counts.quantile(0.5) },
        "first_player": first.map(|t| json!({
            "win_rate": t.wins.rate(), "win_rate_ci": [t.wins.interval().low, t.wins.interval().high],
            "fair_share": fair, "p_value": t.wins.p_value_against(fair),
            "score_margin": totals.first_margin.mean(),
            "score_margin_ci": [totals.first_margin.interval().low, totals.first_margin.interval().high],
        })),
        "seats": seats, "agents": agents,
    });
    format!("{report:#}\n")
}

/// A run's failed games as its JSON `failures` list.
pub(super) fn failures_json(failures: &[FailedGame]) -> serde_json::Value {
    json!(failures.iter().map(FailedGame::json).collect::<Vec<_>>())
}

/// `x ± h` with `digits` decimals.
fn pm(x: f64, h: f64, digits: usize) -> String {
    if h.is_finite() {
        format!("{x:.digits$} ± {h:.digits$}")
    } else {
        format!("{x:.digits$} ± ?")
    }
}

/// A percentage with its interval, `51.2% [48.1, 54.3]`.
fn percent(p: &crate::stats::Proportion) -> String {
    let i = p.interval();
    format!("{:.1}% [{:.1}, {:.1}]", 100.0 * p.rate(), 100.0 * i.low, 100.0 * i.high)
}

/// Column headings for the reasons: each name that fits in a cell of
/// `cell` characters as it is, and every longer one as `r1`, `r2`, ...
/// (numbered by its place among all the reasons), explained by the key
/// returned.
pub(super) fn reason_columns(reasons: &[String], cell: usize) -> (Vec<String>, Option<String>) {
    let mut key = Vec::new();
    let names = reasons
        .iter()
        .enumerate()
        .map(|(i, r)| {
            if r.chars().count() > cell {
                key.push(format!("r{} = {r}", i + 1));
                format!("r{}", i + 1)
            } else {
                r.clone()
            }
        })
        .collect();
    (names, (!key.is_empty()).then(|| key.join("; ")))
}

/// The terminal's width from `COLUMNS` (at least 40), else 100.
pub(super) fn terminal_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse().ok())
        .map(|w: usize| w.max(40))
        .unwrap_or(100)
}

/// The width of a table's first column: 16, or the longest label.
fn label_width(rows: usize, label: &dyn Fn(usize) -> String) -> usize {
    (0..rows).map(|i| label(i).chars().count()).max().unwrap_or(0).max(16)
}

/// The score table of `tallies`, one row each, labelled by `label(i)`.
fn score_table(heading: &str, tallies: &[Tally], label: &dyn Fn(usize) -> String) -> String {
    let w = label_width(tallies.len(), label);
    let mut out = format!(
        "{heading:<w$} {:>13} {:>6} {:>4} {:>4} {:>4} {:>4} {:>4}  {}\n",
        "mean ± 95%", "sd", "min", "p25", "p50", "p75", "max", "wins [95%]"
    );
    for (i, t) in tallies.iter().enumerate() {
        let q = |p: f64| t.scores.quantile(p).map_or("-".into(), |x| x.to_string());
        out += &format!(
            "{:<w$} {:>13} {:>6.1} {:>4} {:>4} {:>4} {:>4} {:>4}  {}\n",
            label(i),
            pm(t.score.mean(), t.score.interval().half_width(), 1),
            t.score.sd(),
            // The least and the greatest score exactly, as the quantiles
            // between them are (the summary's are floating-point).
            q(0.0),
            q(0.25),
            q(0.5),
            q(0.75),
            q(1.0),
            percent(&t.wins)
        );
    }
    out
}

/// Points by reason, mean per game with the interval's half-width.
/// Columns that do not fit the terminal's width go on in another block
/// below, with the same rows.
fn reason_table(reasons: &[String], tallies: &[Tally], label: &dyn Fn(usize) -> String) -> String {
    let cell = 12;
    let w = label_width(tallies.len(), label);
    let (names, key) = reason_columns(reasons, cell);
    let per_block = (terminal_width().saturating_sub(w) / (cell + 1)).max(1);
    let mut out = String::new();
    for (b, start) in (0..names.len()).step_by(per_block).enumerate() {
        let end = (start + per_block).min(names.len());
        if b > 0 {
            out.push('\n');
        }
        out += &format!("{:<w$}", "points by reason");
        for n in &names[start..end] {
            out += &format!(" {n:>cell$}");
        }
        out.push('\n');
        for (i, t) in tallies.iter().enumerate() {
            out += &format!("{:<w$}", label(i));
            // (A tally that has seen no game has no reasons yet.)
            for s in t.reasons.get(start..end).unwrap_or(&[]) {
                out += &format!(" {:>cell$}", pm(s.mean(), s.interval().half_width(), 1));
            }
            out.push('\n');
        }
    }
    if let Some(key) = key {
        out += &format!("  key: {key}\n");
    }
    out
}

fn sim_table(opts: &SimOptions, pack: &crate::ir::RulePack, totals: &Totals, driven: &Driven) -> String {
    let n = totals.games.max(1) as f64;
    let mut out = format!(
        "{} game(s) of {} with {} players, seed {} ({:.2} s, {:.0} games/s){}\n",
        totals.games,
        opts.packs.join("+"),
        opts.players,
        opts.seed,
        driven.seconds,
        n / driven.seconds.max(1e-9),
        if opts.rotate_seats { "; seats rotate" } else { "" }
    );
    if driven.interrupted {
        out += &format!(
            "stopped by Ctrl-C after {} of {} games: the figures cover those\n",
            totals.games, opts.games
        );
    }
    if !driven.failures.is_empty() {
        out += &format!(
            "{} game(s) failed and are left out (reported above)\n",
            driven.failures.len()
        );
    }
    out.push('\n');
    let by_seat = |p: usize| {
        if opts.rotate_seats {
            format!("seat {p}")
        } else {
            format!("{p} {}", opts.agent_name(p))
        }
    };
    // Each lineup slot by its number, as a seat is: one agent may hold
    // several slots (`--agents greedy,random` with 4 players).
    let by_slot = |i: usize| format!("{i} {}", opts.agent_name(i));
    if opts.rotate_seats {
        out += &score_table("slot agent", &totals.slots, &by_slot);
        out.push('\n');
        out += &reason_table(&pack.reasons, &totals.slots, &by_slot);
        out.push('\n');
        out += &score_table("seat", &totals.seats, &by_seat);
    } else {
        out += &score_table("seat agent", &totals.seats, &by_seat);
        out.push('\n');
        out += &reason_table(&pack.reasons, &totals.seats, &by_seat);
    }
    out.push('\n');
    out += &format!(
        "game length: {} turns (min {}, median {}, max {}); discarded tiles: {:.2} per game\n",
        pm(totals.turns.mean(), totals.turns.interval().half_width(), 1),
        totals.turns.min(),
        totals.turn_counts.quantile(0.5).unwrap_or(0),
        totals.turns.max(),
        totals.discarded.mean()
    );
    if let (Some(first), true) = (totals.seats.first(), opts.players > 1) {
        let fair = 1.0 / opts.players as f64;
        out += &format!(
            "first player: wins {} against a fair {:.1}% (p = {:.3});\n  scores {} points more than the others' mean{}\n",
            percent(&first.wins),
            100.0 * fair,
            first.wins.p_value_against(fair),
            pm(totals.first_margin.mean(), totals.first_margin.interval().half_width(), 1),
            if opts.rotate_seats { "" } else { "\n  (agents keep their seats: --rotate-seats separates the seat from the agent)" }
        );
    }
    out += "(± and [..] are 95% confidence intervals; a shared victory counts as a fraction)\n";
    out
}

/// One line per game and seat, written as games finish: JSON Lines, or CSV
/// for a file named `*.csv`.
pub(super) struct GamesOut {
    file: std::io::BufWriter<std::fs::File>,
    path: PathBuf,
    csv: bool,
    /// The reasons written, in order: a comparison's are both variants'.
    reasons: Vec<String>,
    /// Whether each line names its variant (compare's lines do).
    variants: bool,
}

impl GamesOut {
    /// A file of one line per game and seat, with a column per reason of
    /// `reasons`, and (for compare) one naming the variant.
    pub(super) fn create(path: &Path, reasons: &[String], variants: bool) -> Result<GamesOut, String> {
        let csv = match path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("csv") => true,
            Some("jsonl" | "ndjson") => false,
            _ => {
                return Err(format!(
                    "--games-out {}: name a .jsonl file (JSON Lines) or a .csv file",
                    path.display()
                ))
            }
        };
        let file = std::fs::File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let mut out = GamesOut {
            file: std::io::BufWriter::new(file),
            path: path.to_path_buf(),
            csv,
            reasons: reasons.to_vec(),
            variants,
        };
        if csv {
            let mut header = vec![
                "game", "seed", "variant", "seat", "slot", "agent", "score", "win", "turns",
            ]
            .into_iter()
            .filter(|c| variants || *c != "variant")
            .map(String::from)
            .collect::<Vec<_>>();
            header.extend(reasons.iter().map(|r| csv_field(&format!("points:{r}"))));
            out.line(&header.join(","))?;
        }
        Ok(out)
    }

    fn line(&mut self, text: &str) -> Result<(), String> {
        writeln!(self.file, "{text}").map_err(|e| format!("cannot write {}: {e}", self.path.display()))
    }

    /// The lines of game `g` (played from `seed`), one per seat; `variant`
    /// names a comparison's variant, whose `reasons` are its own pack's
    /// (a reason the file has and the variant lacks is 0). `agent` gives a
    /// seat's lineup slot (the report's row: the seat itself unless seats
    /// rotate) and its agent's name.
    pub(super) fn write<'a>(
        &mut self,
        g: usize,
        seed: u64,
        variant: Option<&str>,
        (result, reasons): (&GameResult, &[String]),
        agent: impl Fn(usize) -> (usize, &'a str),
    ) -> Result<(), String> {
        let shares = result.win_shares();
        for (seat, share) in shares.iter().enumerate() {
            let (slot, name) = agent(seat);
            let points = self.reasons.iter().map(|r| {
                let at = reasons.iter().position(|x| x == r);
                at.and_then(|i| result.points[seat].get(i).copied()).unwrap_or(0)
            });
            let line = if self.csv {
                let mut fields = vec![g.to_string(), seed.to_string()];
                if self.variants {
                    fields.push(csv_field(variant.unwrap_or("")));
                }
                fields.extend([
                    seat.to_string(),
                    slot.to_string(),
                    csv_field(name),
                    result.scores[seat].to_string(),
                    share.to_string(),
                    result.turns.to_string(),
                ]);
                fields.extend(points.map(|p| p.to_string()));
                fields.join(",")
            } else {
                let points: serde_json::Map<String, serde_json::Value> = self
                    .reasons
                    .iter()
                    .zip(points)
                    .map(|(r, p)| (r.clone(), json!(p)))
                    .collect();
                let mut line = json!({
                    "game": g, "seed": seed, "seat": seat, "slot": slot, "agent": name, "score": result.scores[seat],
                    "win": share, "turns": result.turns, "points": points,
                });
                if self.variants {
                    line["variant"] = json!(variant);
                }
                line.to_string()
            };
            self.line(&line)?;
        }
        Ok(())
    }

    pub(super) fn finish(mut self) -> Result<(), String> {
        self.file
            .flush()
            .map_err(|e| format!("cannot write {}: {e}", self.path.display()))
    }
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// Checks agent names, returning the list to use.
pub fn parse_agents(spec: &str) -> Result<Vec<String>, String> {
    let names: Vec<String> = spec.split(',').map(|s| s.trim().to_string()).collect();
    if names.iter().all(String::is_empty) {
        return Err("--agents needs at least one agent".into());
    }
    if names.iter().any(String::is_empty) {
        return Err(format!(
            "--agents {spec}: a name is missing between commas; name one agent per seat (random, greedy, ismcts or ismcts:N), such as `greedy,random`"
        ));
    }
    for n in &names {
        AgentSpec::parse(n)?;
    }
    Ok(names)
}

/// Packs as a record in `dir` must name them, since replay reads only the
/// record's folder and the folders given with `--packs-dir`: bundled names
/// as they are, a file in `dir` (or below it) by its path from `dir`, any
/// other file by its name, with its folder among the folders returned.
pub(super) fn record_packs(packs: &[String], dir: Option<&Path>) -> (Vec<String>, Vec<PathBuf>) {
    let mut folders: Vec<PathBuf> = Vec::new();
    let names = packs
        .iter()
        .map(|p| match crate::check::PackRef::from_arg(p) {
            crate::check::PackRef::Path(path) => {
                let inside = dir
                    .and_then(|dir| relative_to(&path, dir))
                    .filter(|rel| !Path::new(rel).starts_with(".."));
                match (inside, path.canonicalize()) {
                    (Some(rel), _) => rel,
                    (None, Ok(real)) => match (real.parent(), real.file_name()) {
                        (Some(folder), Some(name)) => {
                            if !folders.iter().any(|f| f == folder) {
                                folders.push(folder.to_path_buf());
                            }
                            name.to_string_lossy().into_owned()
                        }
                        _ => p.clone(),
                    },
                    (None, Err(_)) => p.clone(),
                }
            }
            _ => p.clone(),
        })
        .collect();
    (names, folders)
}

/// `path` as seen from `dir`, both made absolute first.
fn relative_to(path: &std::path::Path, dir: &std::path::Path) -> Option<String> {
    let path = path.canonicalize().ok()?;
    let dir = dir.canonicalize().ok()?;
    let common = path
        .components()
        .zip(dir.components())
        .take_while(|(a, b)| a == b)
        .count();
    let mut rel = std::path::PathBuf::new();
    for _ in dir.components().skip(common) {
        rel.push("..");
    }
    rel.extend(path.components().skip(common));
    Some(rel.display().to_string())
}
