//! `meeple sim`: many games, with statistics per seat.

use crate::agents::{agent_by_name, play, Agent};
use crate::engine::{Game, Rules};
use crate::record::Record;
use serde_json::json;
use std::io::{IsTerminal, Write as _};
use std::path::PathBuf;
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
}

/// Per-seat totals.
struct Seat {
    agent: String,
    scores: Vec<i64>,
    wins: f64,
    reasons: Vec<i64>,
}

/// The seed of game `g` and of each seat's agent in it.
fn game_seed(seed: u64, g: usize) -> u64 {
    seed.wrapping_add(g as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
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
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let progress = !opts.json && std::io::stderr().is_terminal() && opts.games > 1;
    let started = Instant::now();
    let mut discarded = 0usize;
    for g in 0..opts.games {
        let seed = game_seed(opts.seed, g);
        let mut game = Game::new(rules.clone(), opts.players, seed).map_err(|e| e.to_string())?;
        game.set_logging(opts.record_dir.is_some());
        let mut agents: Vec<Box<dyn Agent>> = seats
            .iter()
            .enumerate()
            .map(|(p, s)| agent_by_name(&s.agent, seed ^ (p as u64 + 1)).expect("agent names checked"))
            .collect();
        play(&mut game, &mut agents).map_err(|e| format!("game {g} (seed {seed}) stopped: {e}"))?;
        let best = game.scores().iter().copied().max().unwrap_or(0);
        let winners = game.scores().iter().filter(|s| **s == best).count() as f64;
        for (p, seat) in seats.iter_mut().enumerate() {
            seat.scores.push(game.scores()[p]);
            if game.scores()[p] == best {
                seat.wins += 1.0 / winners;
            }
            for (r, total) in seat.reasons.iter_mut().enumerate() {
                *total += game.points(p, r as u16);
            }
        }
        discarded += game.discarded() as usize;
        if let Some(dir) = &opts.record_dir {
            let names = (1..=opts.players).map(|p| format!("Player {p}")).collect();
            let record = Record::from_game(&game, record_packs(&opts.packs, dir), names, Some(seed));
            let path = dir.join(format!("game-{g:05}.ron"));
            std::fs::write(&path, record.to_ron()).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
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
    }
    if progress {
        eprintln!();
    }
    let seconds = started.elapsed().as_secs_f64();
    let n = opts.games.max(1) as f64;
    let stats: Vec<(f64, f64, i64, i64)> = seats
        .iter()
        .map(|s| {
            let mean = s.scores.iter().sum::<i64>() as f64 / n;
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
    out += &format!(
        "{:<5} {:<7} {:>7} {:>7} {:>5} {:>5} {:>6}",
        "seat", "agent", "mean", "stddev", "min", "max", "wins"
    );
    for reason in &pack.reasons {
        out += &format!(" {:>10}", reason);
    }
    out.push('\n');
    for (p, (s, (mean, sd, min, max))) in seats.iter().zip(&stats).enumerate() {
        out += &format!(
            "{p:<5} {:<7} {mean:>7.1} {sd:>7.1} {min:>5} {max:>5} {:>5.1}%",
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
        if agent_by_name(n, 0).is_none() {
            return Err(format!(
                "unknown agent `{n}`; agents are {}",
                crate::agents::AGENT_NAMES.join(", ")
            ));
        }
    }
    Ok(names)
}

/// Packs as a record in `dir` must name them: bundled names as they are,
/// paths relative to `dir` (replay reads them from the record's folder).
fn record_packs(packs: &[String], dir: &std::path::Path) -> Vec<String> {
    packs
        .iter()
        .map(|p| match crate::check::PackRef::from_arg(p) {
            crate::check::PackRef::Path(path) => relative_to(&path, dir).unwrap_or_else(|| p.clone()),
            _ => p.clone(),
        })
        .collect()
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
