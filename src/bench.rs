//! Throughput, measured one way for `meeple bench` and `cargo bench --bench
//! engine`: the suite of cases is data ([`SUITE`], `benches/suite.txt`), and
//! every figure is the median of several timed rounds. Nothing here prints;
//! callers show the [`Row`]s (with [`table_header`] and [`table_line`]).

use crate::agents::{agent_by_name, Agent, RandomAgent};
use crate::check::{load, PackRef};
use crate::engine::{Choice, Game, Rules, Setup};
use crate::sim::{default_threads, play_game, play_games, Run};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

/// The suite's text: `benches/suite.txt`, which says its format.
pub const SUITE: &str = include_str!("../benches/suite.txt");

/// Tiles on the board when search clones are measured.
pub const MID_GAME_TILES: usize = 36;

/// What a case measures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Measure {
    /// Complete games per second on one thread, this agent in every seat.
    Games {
        /// An agent name of [`agent_by_name`].
        agent: String,
    },
    /// [`Game::search_clone`] per second at mid-game ([`MID_GAME_TILES`]).
    SearchClone,
    /// Games per second of [`play_games`] with random agents, on one thread
    /// and on [`Settings::threads`].
    Sim,
}

/// One row of the suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// What is measured.
    pub measure: Measure,
    /// Players in each game.
    pub players: usize,
    /// Packs, as `meeple sim --rules` takes them (bundled names or paths).
    pub packs: Vec<String>,
    /// How the table names the packs.
    pub label: String,
}

/// Reads a suite (see `benches/suite.txt`); an error names the line.
pub fn parse_suite(text: &str) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: &str| format!("suite line {}: {why}: `{line}`", n + 1);
        let mut words = line.splitn(4, char::is_whitespace);
        let (Some(measure), Some(players), Some(packs)) = (words.next(), words.next(), words.next()) else {
            return Err(bad("a row is MEASURE PLAYERS PACKS [LABEL]"));
        };
        let measure = match measure {
            "search_clone" => Measure::SearchClone,
            "sim" => Measure::Sim,
            agent if agent_by_name(agent, 0).is_some() => Measure::Games { agent: agent.into() },
            _ => return Err(bad("the measure is an agent name, search_clone or sim")),
        };
        let players: usize = players.parse().map_err(|_| bad("players is a number"))?;
        let packs: Vec<String> = packs.split(',').map(str::to_string).collect();
        let label = words
            .next()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map_or_else(|| packs.join("+"), str::to_string);
        cases.push(Case {
            measure,
            players,
            packs,
            label,
        });
    }
    Ok(cases)
}

/// How long to measure.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Timed rounds per figure; the figure is their median.
    pub rounds: usize,
    /// Each round runs whole games (or clones) until this many seconds have passed.
    pub round_seconds: f64,
    /// The threads `sim` is compared at against one thread.
    pub threads: usize,
}

impl Settings {
    /// A full run: 5 rounds of 1 s per figure (a minute or two for the suite).
    pub fn full() -> Settings {
        Settings {
            rounds: 5,
            round_seconds: 1.0,
            threads: default_threads(),
        }
    }

    /// A smoke run of a few seconds: 3 rounds of 0.03 s (figures are rough).
    pub fn quick() -> Settings {
        Settings {
            rounds: 3,
            round_seconds: 0.03,
            threads: default_threads(),
        }
    }
}

/// One measured figure.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// What was measured: `random`, `greedy`, `search_clone`, `sim 1 thread`, `sim 2 threads`, ...
    pub what: String,
    /// The packs' label.
    pub packs: String,
    /// The packs loaded, as the suite names them.
    pub rules: Vec<String>,
    /// Players in each game.
    pub players: usize,
    /// The median over the rounds.
    pub median: f64,
    /// The unit of `median`: `games/s` or `clones/s`.
    pub unit: &'static str,
    /// The figure over another: a games/s row over the suite's first, a
    /// `sim` row over `sim` on one thread.
    pub ratio: Option<f64>,
    /// What `ratio` is over (`random base 2p`, `1 thread`).
    pub ratio_to: String,
    /// Each round's figure, in order.
    pub rounds: Vec<f64>,
}

/// The median of `xs` (the upper one of an even count; 0 for none).
pub fn median(xs: &[f64]) -> f64 {
    let mut xs = xs.to_vec();
    xs.sort_by(f64::total_cmp);
    xs.get(xs.len() / 2).copied().unwrap_or(0.0)
}

/// Loads packs as `meeple sim --rules` does (each with what it requires).
pub fn rules_of(packs: &[String]) -> Result<Arc<Rules>, String> {
    let refs: Vec<PackRef> = packs.iter().map(|p| PackRef::from_arg(p)).collect();
    let pack = load(&refs).map_err(|e| {
        let first = e.diagnostics.first().map(|d| d.render(&e.sources)).unwrap_or_default();
        format!("{} do not load: {first}", packs.join(","))
    })?;
    Ok(Arc::new(Rules::new(pack)))
}

/// Complete games per second on the calling thread, `agent` in every seat,
/// with or without event logs: one figure a round. Round `r` plays games
/// `r * 1_000_000`, ... of the run with seed 1, so every run plays the same
/// games.
pub fn games_per_second(
    rules: &Arc<Rules>,
    players: usize,
    agent: &str,
    logging: bool,
    settings: &Settings,
) -> Result<Vec<f64>, String> {
    agent_by_name(agent, 0).ok_or_else(|| format!("no agent `{agent}`"))?;
    let run = Run::new(players, 1).threads(1).logging(logging);
    let agents = |_seat: usize, seed: u64| agent_by_name(agent, seed).expect("the agent exists");
    (0..settings.rounds)
        .map(|r| {
            let start = Instant::now();
            let mut games = 0usize;
            while games == 0 || start.elapsed().as_secs_f64() < settings.round_seconds {
                let game = play_game(rules, &run, &agents, r * 1_000_000 + games)
                    .map_err(|s| format!("game {} stopped: {}", r * 1_000_000 + games, s.error))?;
                black_box(game);
                games += 1;
            }
            Ok(games as f64 / start.elapsed().as_secs_f64())
        })
        .collect()
}

/// A game of `players` played by random agents (seed 7) until `tiles` tiles
/// are on the board (or it ends).
pub fn mid_game(rules: &Arc<Rules>, players: usize, tiles: usize) -> Result<Game, String> {
    let mut game = Game::new(rules.clone(), Setup::new(players).seed(7)).map_err(|e| e.to_string())?;
    let mut agent = RandomAgent::new(3);
    let mut options: Vec<Choice> = Vec::new();
    while game.board().tiles().len() < tiles && game.decision().is_some() {
        game.options_into(&mut options);
        let choice = agent.choose(&game, &options).map_err(|e| e.to_string())?;
        game.apply(choice).map_err(|e| e.to_string())?;
    }
    Ok(game)
}

/// Clones of `game` per second: [`Game::search_clone`] if `search`, else
/// [`Game::clone`]; one figure a round.
pub fn clones_per_second(game: &Game, search: bool, settings: &Settings) -> Vec<f64> {
    (0..settings.rounds)
        .map(|_| {
            let start = Instant::now();
            let mut clones = 0usize;
            while clones == 0 || start.elapsed().as_secs_f64() < settings.round_seconds {
                for _ in 0..100 {
                    black_box(if search { game.search_clone() } else { game.clone() });
                }
                clones += 100;
            }
            clones as f64 / start.elapsed().as_secs_f64()
        })
        .collect()
}

/// Games per second of [`play_games`] (random agents) on 1 thread and on
/// `settings.threads`: per round, the same games on each, as many as one
/// thread plays in about `threads` rounds' time.
pub fn sim_per_second(rules: &Arc<Rules>, players: usize, settings: &Settings) -> Result<[Vec<f64>; 2], String> {
    let calibration = Settings {
        rounds: 1,
        ..settings.clone()
    };
    let rate = median(&games_per_second(rules, players, "random", false, &calibration)?);
    let games = ((rate * settings.round_seconds * settings.threads as f64) as usize).max(2 * settings.threads);
    let agents = |_seat: usize, seed: u64| Box::new(RandomAgent::new(seed)) as Box<dyn Agent>;
    let mut figures = [Vec::new(), Vec::new()];
    for r in 0..settings.rounds {
        for (figure, threads) in figures.iter_mut().zip([1, settings.threads]) {
            let run = Run::new(players, games).seed(1 + (r * games) as u64).threads(threads);
            let start = Instant::now();
            let failed = play_games(rules, &run, &agents, |_, played| played.err().map(|s| s.error));
            if let Some(Some(error)) = failed.last() {
                return Err(format!("a sim game stopped: {error}"));
            }
            figure.push(games as f64 / start.elapsed().as_secs_f64());
        }
    }
    Ok(figures)
}

/// Measures every case, handing each row to `row` as it is measured (a
/// `sim` case makes two rows). Games/s rows are compared with the first
/// case's, which must measure games.
pub fn run(cases: &[Case], settings: &Settings, mut row: impl FnMut(&Row)) -> Result<Vec<Row>, String> {
    let mut rows: Vec<Row> = Vec::new();
    let mut base: Option<(f64, String)> = None;
    // A first round not timed, so the baseline (the first row) is not
    // measured on a cold machine.
    if let Some(Case {
        measure: Measure::Games { agent },
        players,
        packs,
        ..
    }) = cases.first()
    {
        let warm_up = Settings {
            rounds: 1,
            ..settings.clone()
        };
        games_per_second(&rules_of(packs)?, *players, agent, false, &warm_up)?;
    }
    for case in cases {
        let rules = rules_of(&case.packs)?;
        let mut push = |row_: Row| {
            row(&row_);
            rows.push(row_);
        };
        match &case.measure {
            Measure::Games { agent } => {
                let rounds = games_per_second(&rules, case.players, agent, false, settings)?;
                let median = median(&rounds);
                let (base_median, base_name) =
                    base.get_or_insert_with(|| (median, format!("{agent} {} {}p", case.label, case.players)));
                push(Row {
                    what: agent.clone(),
                    packs: case.label.clone(),
                    rules: case.packs.clone(),
                    players: case.players,
                    median,
                    unit: "games/s",
                    ratio: Some(median / *base_median),
                    ratio_to: base_name.clone(),
                    rounds,
                });
            }
            Measure::SearchClone => {
                let game = mid_game(&rules, case.players, MID_GAME_TILES)?;
                let rounds = clones_per_second(&game, true, settings);
                push(Row {
                    what: format!("search_clone at {MID_GAME_TILES} tiles"),
                    packs: case.label.clone(),
                    rules: case.packs.clone(),
                    players: case.players,
                    median: median(&rounds),
                    unit: "clones/s",
                    ratio: None,
                    ratio_to: String::new(),
                    rounds,
                });
            }
            Measure::Sim => {
                let [one, many] = sim_per_second(&rules, case.players, settings)?;
                let (one_median, many_median) = (median(&one), median(&many));
                let threads = settings.threads;
                push(Row {
                    what: "sim, 1 thread".into(),
                    packs: case.label.clone(),
                    rules: case.packs.clone(),
                    players: case.players,
                    median: one_median,
                    unit: "games/s",
                    ratio: Some(1.0),
                    ratio_to: "1 thread".into(),
                    rounds: one,
                });
                push(Row {
                    what: format!("sim, {threads} thread{}", if threads == 1 { "" } else { "s" }),
                    packs: case.label.clone(),
                    rules: case.packs.clone(),
                    players: case.players,
                    median: many_median,
                    unit: "games/s",
                    ratio: Some(many_median / one_median),
                    ratio_to: "1 thread".into(),
                    rounds: many,
                });
            }
        }
    }
    Ok(rows)
}

/// The table's header line (with a newline), for [`table_line`]s.
pub fn table_header() -> String {
    format!(
        "{:<24} {:<30} {:>7} {:>11} {:<8} {:>6}  {}\n",
        "measure", "packs", "players", "median", "unit", "ratio", "ratio to"
    )
}

/// A row as one line of the table (with a newline).
pub fn table_line(row: &Row) -> String {
    let ratio = row.ratio.map_or(String::new(), |r| format!("{r:.3}"));
    format!(
        "{:<24} {:<30} {:>7} {:>11.0} {:<8} {:>6}  {}\n",
        row.what, row.packs, row.players, row.median, row.unit, ratio, row.ratio_to
    )
}
