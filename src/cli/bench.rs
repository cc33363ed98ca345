//! `meeple bench`: the benchmark suite's figures, as a table or JSON.

use crate::bench::{parse_suite, run, table_header, table_line, Settings, SUITE};
use serde_json::json;
use std::process::ExitCode;

/// Measures the suite and prints it: the table row by row as each is
/// measured, or one JSON object at the end.
pub fn bench(settings: &Settings, json: bool) -> ExitCode {
    if !(settings.round_seconds.is_finite() && settings.round_seconds > 0.0) {
        eprintln!("error: --seconds must be a number of seconds above 0, such as 0.5");
        return ExitCode::FAILURE;
    }
    let cases = parse_suite(SUITE).expect("the bundled suite reads");
    if !json {
        super::emit(&format!(
            "medians of {} round(s) of {} s; games/s on one thread unless sim says otherwise\n{}",
            settings.rounds,
            settings.round_seconds,
            table_header()
        ));
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
                })
            })
            .collect();
        let report = json!({
            "rounds": settings.rounds, "round_seconds": settings.round_seconds,
            "threads": settings.threads, "rows": rows,
        });
        super::emit(&format!("{report:#}\n"));
    }
    ExitCode::SUCCESS
}
