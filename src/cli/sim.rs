//! `meeple sim`: many games, with statistics per seat.

use crate::agents::{agent_by_name, Agent, AgentSpec};
use crate::engine::{Game, GameError, Player, Rules};
use crate::record::Record;
use crate::sim::{play_game, play_games_each, replay_seed, Run};
use serde_json::json;
use std::io::{IsTerminal, Write as _};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
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
}

impl SimOptions {
    /// The library's run for these options.
    fn run(&self) -> Run {
        Run::new(self.players, self.games)
            .seed(self.seed)
            .threads(self.threads)
            .logging(self.record_dir.is_some())
    }

    /// Seat `seat`'s agent, with its seed.
    fn agent(&self, seat: usize, seed: u64) -> Box<dyn Agent> {
        agent_by_name(&self.agents[seat % self.agents.len()], seed).expect("agent names checked")
    }
}

/// Per-seat totals.
struct Seat {
    agent: String,
    scores: Vec<i64>,
    wins: f64,
    /// Points by reason summed over the games: in `i128`, so the sum of any
    /// number of `i64` scores cannot wrap.
    reasons: Vec<i128>,
}

/// What a worker keeps of a finished game: its scores, each seat's points
/// by reason, its discarded tiles, and its record's text when records are
/// written (made on the worker's thread, written in game order).
struct Finished {
    scores: Vec<i64>,
    points: Vec<Vec<i64>>,
    discarded: usize,
    record: Option<Result<String, String>>,
}

/// What a worker keeps of game `g`.
fn finish(opts: &SimOptions, g: usize, game: &Game) -> Finished {
    let reasons = game.rules().pack.reasons.len();
    Finished {
        scores: game.scores().to_vec(),
        points: (0..opts.players)
            .map(|p| {
                (0..reasons)
                    .map(|r| game.points(Player(p as u8), r as u16).unwrap_or(0))
                    .collect()
            })
            .collect(),
        discarded: game.discarded() as usize,
        record: opts
            .record_dir
            .as_deref()
            .map(|dir| record_of(game, opts, g, Some(dir)).map(|r| r.to_ron())),
    }
}

/// The record of game `g` of the run.
fn record_of(game: &Game, opts: &SimOptions, g: usize, dir: Option<&Path>) -> Result<Record, String> {
    let names = (1..=opts.players).map(|p| format!("Player {p}")).collect();
    Record::from_game(
        game,
        record_packs(&opts.packs, dir).0,
        names,
        Some(replay_seed(opts.seed, g)),
    )
    .map_err(|e| e.to_string())
}

/// Writes game `g`'s record (its text) into `dir`; returns its path.
fn write_record(record: &str, dir: &Path, g: usize) -> Result<PathBuf, String> {
    let path = dir.join(format!("game-{g:05}.ron"));
    std::fs::write(&path, record).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// The message for game `g` stopped by `error`: its record (written to
/// `--record-dir`, else to a temporary file) and commands that reproduce it.
fn stopped(rules: &Arc<Rules>, opts: &SimOptions, g: usize, error: &GameError) -> String {
    let mut out = format!("game {g} stopped: {error}");
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
    {
        // A game that failed while being set up has a record with no turns,
        // which replays to the same failure.
        let record = |dir: Option<&Path>| match &game {
            Some(game) => record_of(game, opts, g, dir),
            None => Ok(Record {
                rules: record_packs(&opts.packs, dir).0,
                players: (1..=opts.players).map(|p| format!("Player {p}")).collect(),
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
        match written {
            Ok(path) => {
                let packs_dirs: String = record_packs(&opts.packs, Some(folder))
                    .1
                    .iter()
                    .map(|d| format!("--packs-dir {} ", shell_word(&d.display().to_string())))
                    .collect();
                out += &format!(
                    "\n  its record: {}\n  replay it: meeple replay {packs_dirs}{}",
                    path.display(),
                    shell_word(&path.display().to_string())
                )
            }
            Err(e) => out += &format!("\n  (its record could not be written: {e})"),
        }
    }
    let mut command = vec![
        "meeple".to_string(),
        "sim".to_string(),
        "--rules".to_string(),
        opts.packs.join(","),
        "--players".to_string(),
        opts.players.to_string(),
        "--agents".to_string(),
        opts.agents.join(","),
        "--seed".to_string(),
        replay_seed(opts.seed, g).to_string(),
        "--games".to_string(),
        "1".to_string(),
    ];
    command.iter_mut().for_each(|w| *w = shell_word(w));
    out += &format!("\n  play it again: {}", command.join(" "));
    out
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

/// Runs the simulation; returns the report, or a message naming the failed game.
pub fn run(rules: Arc<Rules>, opts: &SimOptions) -> Result<String, String> {
    let pack = &rules.pack;
    let mut seats: Vec<Seat> = (0..opts.players)
        .map(|p| Seat {
            agent: opts.agents[p % opts.agents.len()].clone(),
            scores: Vec::new(),
            wins: 0.0,
            reasons: vec![0; pack.reasons.len()],
        })
        .collect();
    if let Some(dir) = &opts.record_dir {
        if dir.exists() && !dir.is_dir() {
            return Err(format!(
                "--record-dir {} is a file, not a folder; name a folder (it is made if missing)",
                dir.display()
            ));
        }
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot make the folder {}: {e}", dir.display()))?;
    }
    let progress = !opts.json && std::io::stderr().is_terminal() && opts.games > 1;
    let started = Instant::now();
    let mut discarded = 0usize;
    let mut failure: Option<Result<(usize, GameError), String>> = None;
    let run = opts.run();
    let agents = |seat: usize, seed: u64| opts.agent(seat, seed);
    let keep = |g: usize, played: Result<Game, crate::sim::Stopped>| match played {
        Ok(game) => Ok(finish(opts, g, &game)),
        Err(stopped) => Err(stopped.error),
    };
    // Games are summed in game order, whatever the number of threads, so
    // the statistics (floating-point sums included) are the same for any.
    play_games_each(&rules, &run, &agents, keep, |g, finished| {
        let finished = match finished {
            Ok(finished) => finished,
            Err(e) => {
                failure = Some(Ok((g, e)));
                return ControlFlow::Break(());
            }
        };
        let best = finished.scores.iter().copied().max().unwrap_or(0);
        let winners = finished.scores.iter().filter(|s| **s == best).count() as f64;
        for (p, seat) in seats.iter_mut().enumerate() {
            seat.scores.push(finished.scores[p]);
            if finished.scores[p] == best {
                seat.wins += 1.0 / winners;
            }
            for (total, points) in seat.reasons.iter_mut().zip(&finished.points[p]) {
                *total += i128::from(*points);
            }
        }
        discarded += finished.discarded;
        if let (Some(dir), Some(record)) = (&opts.record_dir, finished.record) {
            if let Err(e) = record.and_then(|r| write_record(&r, dir, g)) {
                failure = Some(Err(e));
                return ControlFlow::Break(());
            }
        }
        if progress && (g % 10 == 9 || g + 1 == opts.games) {
            let done = (g + 1) * 30 / opts.games;
            eprint!(
                "\r[{}{}] {}/{}",
                "#".repeat(done),
                " ".repeat(30 - done),
                g + 1,
                opts.games
            );
            let _ = std::io::stderr().flush();
        }
        ControlFlow::Continue(())
    });
    match failure {
        None => {}
        Some(Ok((g, e))) => {
            if progress {
                eprintln!();
            }
            return Err(stopped(&rules, opts, g, &e));
        }
        Some(Err(e)) => return Err(e),
    }
    if progress {
        eprintln!();
    }
    let seconds = started.elapsed().as_secs_f64();
    let n = opts.games.max(1) as f64;
    let stats: Vec<(f64, f64, i64, i64)> = seats
        .iter()
        .map(|s| {
            // Summed in i128: scores near i64's limits must not wrap.
            let mean = s.scores.iter().map(|x| i128::from(*x)).sum::<i128>() as f64 / n;
            let var = s.scores.iter().map(|x| (*x as f64 - mean).powi(2)).sum::<f64>() / n;
            (
                mean,
                var.sqrt(),
                *s.scores.iter().min().unwrap_or(&0),
                *s.scores.iter().max().unwrap_or(&0),
            )
        })
        .collect();
    if opts.json {
        let seats_json: Vec<_> = seats
            .iter()
            .zip(&stats)
            .enumerate()
            .map(|(p, (s, (mean, sd, min, max)))| {
                let reasons: serde_json::Map<String, serde_json::Value> = pack
                    .reasons
                    .iter()
                    .zip(&s.reasons)
                    .map(|(name, total)| (name.clone(), json!(*total as f64 / n)))
                    .collect();
                json!({
                    "seat": p, "agent": s.agent, "mean": mean, "stddev": sd, "min": min, "max": max,
                    "win_rate": s.wins / n, "points_by_reason": reasons,
                })
            })
            .collect();
        let report = json!({
            "rules": opts.packs, "players": opts.players, "games": opts.games, "seed": opts.seed,
            "seconds": seconds, "discarded_tiles_per_game": discarded as f64 / n, "seats": seats_json,
        });
        return Ok(format!("{report:#}\n"));
    }
    let mut out = format!(
        "{} game(s) of {} with {} players, seed {} ({:.2} s, {:.0} games/s)\n",
        opts.games,
        opts.packs.join("+"),
        opts.players,
        opts.seed,
        seconds,
        n / seconds.max(1e-9)
    );
    // As wide as the longest agent's name (`ismcts:100`), so columns line up.
    let width = seats.iter().map(|s| s.agent.len()).max().unwrap_or(0).max(7);
    out += &format!(
        "{:<5} {:<width$} {:>7} {:>7} {:>5} {:>5} {:>6}",
        "seat", "agent", "mean", "stddev", "min", "max", "wins"
    );
    for reason in &pack.reasons {
        out += &format!(" {:>10}", reason);
    }
    out.push('\n');
    for (p, (s, (mean, sd, min, max))) in seats.iter().zip(&stats).enumerate() {
        out += &format!(
            "{p:<5} {:<width$} {mean:>7.1} {sd:>7.1} {min:>5} {max:>5} {:>5.1}%",
            s.agent,
            100.0 * s.wins / n
        );
        for total in &s.reasons {
            out += &format!(" {:>10.1}", *total as f64 / n);
        }
        out.push('\n');
    }
    out += "(points by reason are means per game; shared victories count as fractions)\n";
    Ok(out)
}

/// Checks agent names, returning the list to use.
pub fn parse_agents(spec: &str) -> Result<Vec<String>, String> {
    let names: Vec<String> = spec
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    if names.is_empty() {
        return Err("--agents needs at least one agent".into());
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
fn record_packs(packs: &[String], dir: Option<&Path>) -> (Vec<String>, Vec<PathBuf>) {
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
