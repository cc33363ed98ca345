//! `meeple bench`: the benchmark suite's figures, as a table or JSON.

use crate::agents::AgentSpec;
use crate::bench::{parse_suite, run, table_header, table_line, Settings, SUITE};
use serde_json::json;
use std::process::ExitCode;

/// Measures the suite (or only a match of two agents on 2-player base
/// games, `versus` being `AGENT,OPPONENT`) and
/// prints it: the table row by row as each is measured, or one JSON object
/// at the end.
pub fn bench(settings: &Settings, versus: Option<&str>, json: bool) -> ExitCode {
    if !(settings.round_seconds.is_finite() && settings.round_seconds > 0.0) {
        eprintln!("error: --seconds must be a number of seconds above 0, such as 0.5");
        return ExitCode::FAILURE;
    }
    let suite = match versus {
        Some(versus) => {
            let agents = versus
                .split_once(',')
                .filter(|(_, opponent)| !opponent.contains(','))
                .ok_or("give two agents, such as --match ismcts:100,greedy");
            if let Err(e) = agents.map_err(str::to_string).and_then(|(agent, opponent)| {
                AgentSpec::parse(agent)?;
                AgentSpec::parse(opponent).map(|_| ())
            }) {
                eprintln!("error: --match {versus}: {e}");
                return ExitCode::FAILURE;
            }
            format!("match:{versus} 2 base")
        }
        None => SUITE.to_string(),
    };
    let cases = parse_suite(&suite).expect("the suite and the match read");
    if !json {
        let how = match versus {
            Some(_) => format!(
                "{} games on {} thread(s), seats rotated; figures per thread are of wall-clock time",
                settings.match_games, settings.threads
            ),
            None => format!(
                "medians of {} round(s) of {} s; games/s on one thread unless sim says otherwise; \
                 a ratio is the median over rounds each timed right after the one it is over",
                settings.rounds, settings.round_seconds
            ),
        };
        super::emit(&format!("{how}\n{}", table_header()));
    }
    let rows = run(&cases, settings, |row| {
        if !json {
            super::emit(&table_line(row));
        }
    });
    let rows = match rows {
        Ok(rows) => rows,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if json {
        let rows: Vec<_> = rows
            .iter()
            .map(|r| {
                json!({
                    "measure": r.what, "packs": r.packs, "rules": r.rules, "players": r.players, "median": r.median,
                    "unit": r.unit, "ratio": r.ratio, "ratio_to": r.ratio_to, "rounds": r.rounds,
                    "ratio_rounds": r.ratio_rounds, "note": r.note, "interval": r.interval, "lead": r.lead,
                })
            })
            .collect();
        // A match is timed once, over its games: it has no rounds.
        let report = match versus {
            Some(_) => json!({ "games": settings.match_games, "threads": settings.threads, "rows": rows }),
            None => json!({
                "rounds": settings.rounds, "round_seconds": settings.round_seconds,
                "threads": settings.threads, "rows": rows,
            }),
        };
        super::emit(&format!("{report:#}\n"));
    }
    ExitCode::SUCCESS
}
