//! `meeple compare A B`: two variants played on the same games. Game `g` is
//! played under both from the same seeds (common random numbers: with the
//! same tiles, the same seed gives the same tile order, so the variants
//! differ only where their rules make them), and every statistic's
//! difference B − A is measured game by game, with its 95% interval and a
//! paired t-test.

use super::sim::{drive, GamesOut, Report, SimOptions};
use crate::engine::{GameError, Rules};
use crate::sim::{play_game, replay_seed, GameResult, Stopped, Totals};
use crate::stats::{Histogram, Paired};
use serde_json::json;
use std::path::PathBuf;
use std::sync::Arc;

/// One variant: its packs (as given) and rules.
pub struct Variant {
    pub packs: Vec<String>,
    pub rules: Arc<Rules>,
}

/// What is compared, game by game: one paired difference each.
struct Row {
    name: String,
    /// Figures are percentages (win rates), not points.
    percent: bool,
    paired: Paired,
}

impl Row {
    /// The interval of the difference B − A. A win rate's is clamped to the
    /// differences two rates can have, ±1 (±100 points): the t-interval of
    /// a few games can reach past them, and the true difference cannot.
    fn interval(&self) -> crate::stats::Interval {
        let i = self.paired.interval();
        // Untested (one game pair): no interval, as the table and JSON say.
        if self.percent && tested(&self.paired) {
            crate::stats::Interval {
                low: i.low.max(-1.0),
                high: i.high.min(1.0),
            }
        } else {
            i
        }
    }
}

/// A game that stopped, under which variant.
struct Failure {
    variant: usize,
    error: GameError,
}

/// The reasons of both variants, by name, in A's order then B's new ones.
fn reason_names(a: &Rules, b: &Rules) -> Vec<String> {
    let mut names = a.pack.reasons.clone();
    for r in &b.pack.reasons {
        if !names.contains(r) {
            names.push(r.clone());
        }
    }
    names
}

/// Mean points per seat for `reason` in a game (0 when its pack has no such reason).
fn reason_mean(result: &GameResult, rules: &Rules, reason: &str) -> f64 {
    let Some(r) = rules.pack.reasons.iter().position(|x| x == reason) else {
        return 0.0;
    };
    let seats = result.points.len().max(1) as f64;
    result.points.iter().map(|p| p[r] as f64).sum::<f64>() / seats
}

fn mean_score(result: &GameResult) -> f64 {
    result.scores.iter().map(|s| *s as f64).sum::<f64>() / result.scores.len().max(1) as f64
}

/// Plays the comparison; `opts` names A's packs (B's come with `b`).
pub fn run(a: &Variant, b: &Variant, opts: &SimOptions, plot: Option<PathBuf>) -> Result<Report, String> {
    if let Some(dir) = &plot {
        super::plot::make_folder(dir)?;
    }
    let run = opts.run();
    let players = opts.players;
    let reasons = reason_names(&a.rules, &b.rules);
    let mut games_out = match &opts.games_out {
        Some(path) => Some(GamesOut::create(path, &reasons, true)?),
        None => None,
    };
    let mut rows: Vec<Row> = Vec::new();
    let row = |name: String, percent: bool| Row {
        name,
        percent,
        paired: Paired::new(),
    };
    rows.push(row("mean score (all seats)".into(), false));
    let distinct: Vec<usize> = (0..players)
        .filter(|&i| (0..i).all(|j| opts.agent_name(j) != opts.agent_name(i)))
        .collect();
    // One score and win-rate row per lineup slot, named by its agent (and
    // its slot when several slots hold the same agent).
    let slot_name = |i: usize| {
        if distinct.len() == players {
            opts.agent_name(i).to_string()
        } else {
            format!("{} (slot {i})", opts.agent_name(i))
        }
    };
    for i in 0..players {
        rows.push(row(format!("score of {}", slot_name(i)), false));
    }
    for i in 0..players {
        rows.push(row(format!("win rate of {}", slot_name(i)), true));
    }
    for r in &reasons {
        rows.push(row(format!("points: {r}"), false));
    }
    if players > 1 {
        rows.push(row("win rate of seat 0 (first player)".into(), true));
        rows.push(row("seat 0's margin over the others".into(), false));
    }
    rows.push(row("game length (turns)".into(), false));
    let (mut pooled_a, mut pooled_b) = (Histogram::new(), Histogram::new());
    let (mut totals_a, mut totals_b) = (Totals::new(players), Totals::new(players));
    let agents = |slot: usize, seed: u64| opts.agent(slot, seed);
    let keep = |g: usize, played: Result<crate::Game, Stopped>| -> Result<(GameResult, GameResult), Failure> {
        let first = played.map_err(|s| Failure {
            variant: 0,
            error: s.error,
        })?;
        let second = play_game(&b.rules, &run, &agents, g).map_err(|s| Failure {
            variant: 1,
            error: s.error,
        })?;
        Ok((GameResult::of(&first), GameResult::of(&second)))
    };
    let b_opts = SimOptions {
        packs: b.packs.clone(),
        agents: opts.agents.clone(),
        record_dir: None,
        games_out: None,
        plot: None,
        ..*opts
    };
    let failure = |g: usize, f: &Failure| {
        let (which, o) = if f.variant == 0 { ("A", opts) } else { ("B", &b_opts) };
        let rules = if f.variant == 0 { &a.rules } else { &b.rules };
        let mut failed = super::sim::stopped(rules, o, g, &f.error);
        failed.variant = Some(which);
        failed
    };
    let driven = drive(
        &a.rules,
        opts,
        keep,
        failure,
        |g, (ra, rb): (GameResult, GameResult)| {
            if let Some(out) = games_out.as_mut() {
                let seed = replay_seed(opts.seed, g);
                let agent = |seat| (run.slot(g, seat), opts.agent_name(run.slot(g, seat)));
                out.write(g, seed, Some("A"), (&ra, &a.rules.pack.reasons), agent)?;
                out.write(g, seed, Some("B"), (&rb, &b.rules.pack.reasons), agent)?;
            }
            totals_a.add(&run, g, &ra);
            totals_b.add(&run, g, &rb);
            for s in &ra.scores {
                pooled_a.add(*s);
            }
            for s in &rb.scores {
                pooled_b.add(*s);
            }
            let (sa, sb) = (ra.win_shares(), rb.win_shares());
            let mut k = 0;
            let mut add = |x: f64, y: f64| {
                rows[k].paired.add(x, y);
                k += 1;
            };
            add(mean_score(&ra), mean_score(&rb));
            // The seat each lineup slot played this game.
            let seat_of = |slot: usize| (0..players).find(|&s| run.slot(g, s) == slot).unwrap_or(slot);
            for i in 0..players {
                add(ra.scores[seat_of(i)] as f64, rb.scores[seat_of(i)] as f64);
            }
            for i in 0..players {
                add(sa[seat_of(i)], sb[seat_of(i)]);
            }
            for r in &reasons {
                add(reason_mean(&ra, &a.rules, r), reason_mean(&rb, &b.rules, r));
            }
            if players > 1 {
                add(sa[0], sb[0]);
                add(ra.first_margin().unwrap_or(0.0), rb.first_margin().unwrap_or(0.0));
            }
            add(f64::from(ra.turns), f64::from(rb.turns));
            Ok(())
        },
    )?;
    if let Some(out) = games_out {
        out.finish()?;
    }
    if totals_a.games == 0 && !driven.failures.is_empty() && !driven.interrupted {
        return Err(format!(
            "every game pair that was played failed ({}, reported above): there is nothing to compare",
            driven.failures.len()
        ));
    }
    if let Some(dir) = &plot {
        let path = super::plot::file_in(dir, "compare-scores.svg")?;
        super::plot::distributions(
            &path,
            &format!("Final scores, all seats: A against B, {} paired games", totals_a.games),
            &[
                (format!("A: {}", a.packs.join("+")), &pooled_a),
                (format!("B: {}", b.packs.join("+")), &pooled_b),
            ],
        )?;
        let bars = super::plot::file_in(dir, "compare-points-by-reason.svg")?;
        let reason_rows: Vec<&Row> = rows.iter().filter(|r| r.name.starts_with("points: ")).collect();
        let first: Vec<_> = reason_rows.iter().map(|r| r.paired.first().clone()).collect();
        let second: Vec<_> = reason_rows.iter().map(|r| r.paired.second().clone()).collect();
        super::plot::reason_bars(
            &bars,
            "Mean points per seat by reason: A against B",
            &reasons,
            &[
                (format!("A: {}", a.packs.join("+")), &first[..]),
                (format!("B: {}", b.packs.join("+")), &second[..]),
            ],
        )?;
    }
    let summary = summary_line(&rows, players, opts.rotate_seats);
    let text = if opts.json {
        let rows_json: Vec<_> = rows
            .iter()
            .map(|r| {
                let i = r.interval();
                json!({
                    "statistic": r.name, "a": r.paired.first().mean(), "b": r.paired.second().mean(),
                    "difference": r.paired.mean(), "difference_ci": [i.low, i.high],
                    "p_value": tested(&r.paired).then(|| r.paired.p_value()),
                    "significant": r.paired.significant(),
                })
            })
            .collect();
        format!(
            "{:#}\n",
            json!({
                "a": a.packs, "b": b.packs, "players": players, "games": totals_a.games, "games_asked": opts.games,
                "failed_games": driven.failures.len(), "failures": super::sim::failures_json(&driven.failures), "interrupted": driven.interrupted, "seed": opts.seed,
                "agents": opts.agents, "rotate_seats": opts.rotate_seats, "seconds": driven.seconds,
                "summary": summary, "statistics": rows_json,
            })
        )
    } else {
        table(a, b, opts, &rows, &summary, &driven, totals_a.games)
    };
    Ok(Report {
        text,
        failed: driven.failures.len(),
        interrupted: driven.interrupted,
        note: None,
    })
}

/// "B raises mean score by 3.1 ± 0.4 points (p < 0.001); win rate of seat 0
/// (first player) goes from 50.1% to 54.0%": the mean score, then every win
/// rate that differs (each agent's and the first seat's).
fn summary_line(rows: &[Row], players: usize, rotated: bool) -> String {
    let mean = &rows[0].paired;
    if !tested(mean) {
        return format!(
            "{}: too few for a paired test, which needs 2 or more (give --games 2 or more)",
            match mean.count() {
                0 => "no game pair",
                _ => "one game pair",
            }
        );
    }
    let h = mean.interval().half_width();
    let score = if mean.significant() {
        format!(
            "B {} mean score by {:.1} ± {:.1} points (p {})",
            if mean.mean() > 0.0 { "raises" } else { "lowers" },
            mean.mean().abs(),
            h,
            p_text(mean.p_value())
        )
    } else {
        format!(
            "mean scores do not differ significantly ({:+.1} ± {:.1} points, p {})",
            mean.mean(),
            h,
            p_text(mean.p_value())
        )
    };
    // The agents' win rates, and the first seat's: a change of balance
    // between the seats shows there even when every agent wins as often.
    // (Without rotation slot 0's agent always sits in seat 0: the same figure.)
    let first_seat = rows
        .iter()
        .filter(|r| rotated && r.name.starts_with("win rate of seat 0"));
    let wins: Vec<String> = rows[1 + players..1 + 2 * players]
        .iter()
        .chain(first_seat)
        .filter(|r| r.paired.significant())
        .map(|r| {
            format!(
                "{} goes from {:.1}% to {:.1}%",
                r.name,
                100.0 * r.paired.first().mean(),
                100.0 * r.paired.second().mean()
            )
        })
        .collect();
    let wins = if wins.is_empty() {
        if rotated {
            "win rates (the agents' and the first seat's) do not differ".to_string()
        } else {
            "win rates do not differ".to_string()
        }
    } else {
        wins.join(", ")
    };
    format!("{score}; {wins}")
}

fn p_text(p: f64) -> String {
    if p < 0.001 {
        "< 0.001".into()
    } else {
        format!("= {p:.3}")
    }
}

/// Whether a statistic has the two pairs or more a paired t-test needs
/// (one pair has no spread to test against: no interval, no p-value).
fn tested(paired: &Paired) -> bool {
    paired.count() >= 2
}

fn table(
    a: &Variant,
    b: &Variant,
    opts: &SimOptions,
    rows: &[Row],
    summary: &str,
    driven: &super::sim::Driven,
    games: u64,
) -> String {
    let mut out = format!(
        "A: {}\nB: {}\n{} paired game(s), {} players, agents {}, seed {} ({:.2} s){}\n",
        a.packs.join("+"),
        b.packs.join("+"),
        games,
        opts.players,
        opts.agents.join(","),
        opts.seed,
        driven.seconds,
        if opts.rotate_seats { "; seats rotate" } else { "" }
    );
    if driven.interrupted {
        out += &format!(
            "stopped by Ctrl-C after {games} of {} games: the figures cover those\n",
            opts.games
        );
    }
    if !driven.failures.is_empty() {
        out += &format!(
            "{} game(s) failed and are left out (reported above)\n",
            driven.failures.len()
        );
    }
    let width = rows
        .iter()
        .map(|r| r.name.chars().count())
        .max()
        .unwrap_or(10)
        .clamp(10, 40);
    out += &format!(
        "\n{:<width$} {:>9} {:>9} {:>22} {:>8}\n",
        "statistic", "A", "B", "B − A [95%]", "p"
    );
    for r in rows {
        let (scale, unit) = if r.percent { (100.0, "%") } else { (1.0, "") };
        let i = r.interval();
        let name: String = r.name.chars().take(width).collect();
        out += &format!(
            "{name:<width$} {:>9} {:>9} {:>22} {:>8}{}\n",
            format!("{:.1}{unit}", scale * r.paired.first().mean()),
            format!("{:.1}{unit}", scale * r.paired.second().mean()),
            if tested(&r.paired) {
                format!(
                    "{:+.2} [{:+.2}, {:+.2}]",
                    scale * r.paired.mean(),
                    scale * i.low,
                    scale * i.high
                )
            } else {
                format!("{:+.2} [no interval]", scale * r.paired.mean())
            },
            if tested(&r.paired) {
                format!("{:.3}", r.paired.p_value())
            } else {
                "-".to_string()
            },
            if r.paired.significant() { " *" } else { "" }
        );
    }
    out += &format!("\n{summary}\n(* significant at 5%, paired t-test; each statistic is tested on its own)\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Five games whose win shares swing both ways: the paired t-interval
    /// reaches past ±1, and a win rate's is clamped to what two rates can
    /// differ by; a score's is not.
    #[test]
    fn a_win_rate_difference_stays_within_a_hundred_points() {
        let mut paired = Paired::new();
        for (a, b) in [(1.0, 0.0), (0.0, 1.0), (1.0, 0.0), (0.0, 1.0), (1.0, 0.0)] {
            paired.add(a, b);
        }
        let raw = paired.interval();
        assert!(raw.low < -1.0 && raw.high > 1.0, "{raw:?}");
        let rate = Row {
            name: "win rate".into(),
            percent: true,
            paired: paired.clone(),
        };
        assert_eq!((rate.interval().low, rate.interval().high), (-1.0, 1.0));
        let score = Row {
            name: "score".into(),
            percent: false,
            paired,
        };
        assert_eq!(score.interval(), raw);
    }
}
