//! Throughput, measured one way for `meeple bench` and `cargo bench --bench
//! engine`: the suite of cases is data ([`SUITE`], `benches/suite.txt`), and
//! every figure is the median of several timed rounds, and every ratio the
//! median of paired rounds' ratios (see [`run`]). Nothing here prints;
//! callers show the [`Row`]s (with [`table_header`] and [`table_line`]).

use crate::agents::{agent_by_name, play, Agent, AgentSpec, RandomAgent};
use crate::check::{load, PackRef};
use crate::engine::{Choice, Game, Rules, Setup};
use crate::sim::{default_threads, game_seed, play_game, play_games, Run};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
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
    /// [`Game::search_clone`] per second at mid-game ([`MID_GAME_TILES`]),
    /// and [`Game::search_clone_from`] into one kept copy.
    SearchClone,
    /// Games per second of [`play_games`] with random agents, on one thread
    /// and on [`Settings::threads`].
    Sim,
    /// A match ([`play_match`]) of [`Settings::match_games`] games on
    /// [`Settings::threads`]: the first agent against the second in every
    /// other seat, seats rotated.
    Match {
        /// The agent measured, an [`AgentSpec`] name.
        agent: String,
        /// Its opponents' agent.
        opponent: String,
    },
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
            versus if versus.starts_with("match:") => {
                let (agent, opponent) = versus["match:".len()..]
                    .split_once(',')
                    .ok_or_else(|| bad("a match is match:AGENT,OPPONENT"))?;
                for name in [agent, opponent] {
                    AgentSpec::parse(name).map_err(|e| bad(&e))?;
                }
                Measure::Match {
                    agent: agent.into(),
                    opponent: opponent.into(),
                }
            }
            agent if agent_by_name(agent, 0).is_some() => Measure::Games { agent: agent.into() },
            _ => {
                return Err(bad(
                    "the measure is an agent name, search_clone, sim or match:AGENT,OPPONENT",
                ))
            }
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
    /// The threads `sim` is compared at against one thread, and a match is played on.
    pub threads: usize,
    /// Games of a match (a match row of the suite).
    pub match_games: usize,
}

impl Settings {
    /// A full run: 5 rounds of 1 s per figure (a minute or two for the suite).
    pub fn full() -> Settings {
        Settings {
            rounds: 5,
            round_seconds: 1.0,
            threads: default_threads(),
            match_games: 100,
        }
    }

    /// A smoke run of a few seconds: 3 rounds of 0.03 s (figures are rough).
    pub fn quick() -> Settings {
        Settings {
            rounds: 3,
            round_seconds: 0.03,
            threads: default_threads(),
            match_games: 2,
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
    /// `sim` row over `sim` on one thread. The median of `ratio_rounds`, so
    /// a change in the machine's load between rows does not move it.
    pub ratio: Option<f64>,
    /// What `ratio` is over (`random base 2p`, `1 thread`).
    pub ratio_to: String,
    /// What else the figure needs to be read (a win rate's confidence
    /// interval and games); empty for most rows.
    pub note: String,
    /// A win rate's 95% confidence interval, in the unit of `median`
    /// (percent); `None` for the other rows.
    pub interval: Option<[f64; 2]>,
    /// A match's mean lead: the measured agent's points over its
    /// opponent's, a game; `None` for the other rows.
    pub lead: Option<f64>,
    /// Each round's figure, in order.
    pub rounds: Vec<f64>,
    /// Each round's figure over the figure it is paired with, timed right
    /// before it (a round of the suite's first row, or `sim` on one thread
    /// on the same games); empty when there is no ratio.
    pub ratio_rounds: Vec<f64>,
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
    (0..settings.rounds)
        .map(|r| games_round(rules, players, agent, logging, r, settings))
        .collect()
}

/// Round `r` of [`games_per_second`]: games `r * 1_000_000`, ... of the run
/// with seed 1, for a round's time.
fn games_round(
    rules: &Arc<Rules>,
    players: usize,
    agent: &str,
    logging: bool,
    r: usize,
    settings: &Settings,
) -> Result<f64, String> {
    agent_by_name(agent, 0).ok_or_else(|| format!("no agent `{agent}`"))?;
    let run = Run::new(players, 1).threads(1).logging(logging);
    let agents = |_seat: usize, seed: u64| agent_by_name(agent, seed).expect("the agent exists");
    let start = Instant::now();
    let mut games = 0usize;
    while games == 0 || start.elapsed().as_secs_f64() < settings.round_seconds {
        let game = play_game(rules, &run, &agents, r * 1_000_000 + games)
            .map_err(|s| format!("game {} stopped: {}", r * 1_000_000 + games, s.error))?;
        black_box(game);
        games += 1;
    }
    Ok(games as f64 / start.elapsed().as_secs_f64())
}

/// The baseline a games/s row is compared with: the suite's first row.
struct Baseline {
    rules: Arc<Rules>,
    players: usize,
    agent: String,
    name: String,
}

/// [`games_per_second`] of a row, each round timed right after a round of
/// the baseline's (the same games as its own rounds): the row's rounds and
/// each one's figure over its baseline round's.
fn paired_games_per_second(
    base: &Baseline,
    rules: &Arc<Rules>,
    players: usize,
    agent: &str,
    settings: &Settings,
) -> Result<(Vec<f64>, Vec<f64>), String> {
    let mut rounds = Vec::with_capacity(settings.rounds);
    let mut ratios = Vec::with_capacity(settings.rounds);
    for r in 0..settings.rounds {
        let before = games_round(&base.rules, base.players, &base.agent, false, r, settings)?;
        let figure = games_round(rules, players, agent, false, r, settings)?;
        rounds.push(figure);
        ratios.push(figure / before);
    }
    Ok((rounds, ratios))
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
    per_second(settings, || {
        black_box(if search { game.search_clone() } else { game.clone() });
    })
}

/// Copies of `game` per second into one kept copy ([`Game::search_clone_from`],
/// as a search that keeps its copies makes them); one figure a round.
pub fn copies_into_per_second(game: &Game, settings: &Settings) -> Vec<f64> {
    let mut copy = game.search_clone();
    per_second(settings, || {
        copy.search_clone_from(black_box(game));
        black_box(&copy);
    })
}

/// How many times per second `step` runs, in batches of 100 for at least
/// a round's time: one figure a round.
fn per_second(settings: &Settings, mut step: impl FnMut()) -> Vec<f64> {
    (0..settings.rounds)
        .map(|_| {
            let start = Instant::now();
            let mut steps = 0usize;
            while steps == 0 || start.elapsed().as_secs_f64() < settings.round_seconds {
                for _ in 0..100 {
                    step();
                }
                steps += 100;
            }
            steps as f64 / start.elapsed().as_secs_f64()
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
/// case's, which must measure games: each of their rounds is paired with a
/// round of the first case's timed right before it, and the ratio is the
/// median of the rounds' ratios, so a machine that slows down or speeds up
/// between rows (a shared one) moves the figures but hardly the ratios.
pub fn run(cases: &[Case], settings: &Settings, mut row: impl FnMut(&Row)) -> Result<Vec<Row>, String> {
    let mut rows: Vec<Row> = Vec::new();
    let mut base: Option<Baseline> = None;
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
                let (rounds, ratio_rounds) = match &base {
                    Some(base) => paired_games_per_second(base, &rules, case.players, agent, settings)?,
                    None => {
                        let rounds = games_per_second(&rules, case.players, agent, false, settings)?;
                        let ones = vec![1.0; rounds.len()];
                        (rounds, ones)
                    }
                };
                let base = base.get_or_insert_with(|| Baseline {
                    rules: rules.clone(),
                    players: case.players,
                    agent: agent.clone(),
                    name: format!("{agent} {} {}p", case.label, case.players),
                });
                push(Row {
                    what: agent.clone(),
                    packs: case.label.clone(),
                    rules: case.packs.clone(),
                    players: case.players,
                    median: median(&rounds),
                    unit: "games/s",
                    ratio: Some(median(&ratio_rounds)),
                    ratio_to: base.name.clone(),
                    note: String::new(),
                    interval: None,
                    lead: None,
                    rounds,
                    ratio_rounds,
                });
            }
            Measure::SearchClone => {
                let game = mid_game(&rules, case.players, MID_GAME_TILES)?;
                let fresh = clones_per_second(&game, true, settings);
                let into = copies_into_per_second(&game, settings);
                for (what, rounds) in [("search_clone", fresh), ("search_clone_from", into)] {
                    push(Row {
                        what: format!("{what} at {MID_GAME_TILES} tiles"),
                        packs: case.label.clone(),
                        rules: case.packs.clone(),
                        players: case.players,
                        median: median(&rounds),
                        unit: "clones/s",
                        ratio: None,
                        ratio_to: String::new(),
                        note: String::new(),
                        interval: None,
                        lead: None,
                        rounds,
                        ratio_rounds: Vec::new(),
                    });
                }
            }
            Measure::Sim => {
                let [one, many] = sim_per_second(&rules, case.players, settings)?;
                let (one_median, many_median) = (median(&one), median(&many));
                let speed_ups: Vec<f64> = many.iter().zip(&one).map(|(m, o)| m / o).collect();
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
                    note: String::new(),
                    interval: None,
                    lead: None,
                    ratio_rounds: vec![1.0; one.len()],
                    rounds: one,
                });
                push(Row {
                    what: format!("sim, {threads} thread{}", if threads == 1 { "" } else { "s" }),
                    packs: case.label.clone(),
                    rules: case.packs.clone(),
                    players: case.players,
                    median: many_median,
                    unit: "games/s",
                    ratio: Some(median(&speed_ups)),
                    ratio_to: "1 thread".into(),
                    note: String::new(),
                    interval: None,
                    lead: None,
                    rounds: many,
                    ratio_rounds: speed_ups,
                });
            }
            Measure::Match { agent, opponent } => {
                let played = play_match(
                    &rules,
                    case.players,
                    agent,
                    opponent,
                    settings.match_games,
                    settings.threads,
                )?;
                for row_ in match_rows(&played, case) {
                    push(row_);
                }
            }
        }
    }
    Ok(rows)
}

/// The table's header line (with a newline), for [`table_line`]s.
pub fn table_header() -> String {
    format!(
        "{:<29} {:<30} {:>7} {:>11} {:<8} {:>6}  {}\n",
        "measure", "packs", "players", "median", "unit", "ratio", "ratio to"
    )
}

/// A row as one line of the table (with a newline).
pub fn table_line(row: &Row) -> String {
    let ratio = row.ratio.map_or(String::new(), |r| format!("{r:.3}"));
    // Small figures (a search's games/s) keep two decimals.
    let digits = if row.median.abs() < 100.0 { 2 } else { 0 };
    format!(
        "{:<29} {:<30} {:>7} {:>11.digits$} {:<8} {:>6}  {}{}\n",
        row.what, row.packs, row.players, row.median, row.unit, ratio, row.ratio_to, row.note
    )
}

/// What a match ([`play_match`]) gave.
#[derive(Clone, Debug, PartialEq)]
pub struct Match {
    /// The agent measured.
    pub agent: String,
    /// Its opponents' agent.
    pub opponent: String,
    /// Games played.
    pub games: usize,
    /// The agent's wins, a shared win counted as a fraction.
    pub wins: f64,
    /// The 95% confidence interval of the win rate (Wilson's, which stays
    /// inside 0..1 and is honest at rates near 0 or 1).
    pub interval: crate::stats::Interval,
    /// The agent's mean score minus its best opponent's, per game.
    pub lead: f64,
    /// Playouts the measured agent ran ([`Agent::playouts`]).
    pub playouts: u64,
    /// Wall-clock seconds of the match.
    pub seconds: f64,
    /// Threads the games were played on.
    pub threads: usize,
}

impl Match {
    /// The agent's share of the wins.
    pub fn win_rate(&self) -> f64 {
        self.wins / self.games.max(1) as f64
    }
}

/// What the measured agent did in one game of a match.
#[derive(Clone, Debug)]
struct MatchGame {
    /// 1 for a win, a share of a shared win, 0 for a loss.
    won: f64,
    /// Its score minus its best opponent's.
    lead: f64,
    /// Its playouts.
    playouts: u64,
}

/// Plays `games` games of `players` players, `agent` (an [`AgentSpec`]
/// name) in seat `g % players` of game `g` and `opponent` in every other
/// seat, so the agent plays each seat equally often. Game `g` has the seeds
/// of game `g` of a `sim` run with seed 1, and the games are played on
/// `threads` threads; whatever the number, the same games are played with
/// the same results (only the time differs).
pub fn play_match(
    rules: &Arc<Rules>,
    players: usize,
    agent: &str,
    opponent: &str,
    games: usize,
    threads: usize,
) -> Result<Match, String> {
    let (measured, other) = (AgentSpec::parse(agent)?, AgentSpec::parse(opponent)?);
    let one = |g: usize| -> Result<MatchGame, String> {
        let seed = game_seed(1, g);
        let mut game = Game::new(rules.clone(), Setup::new(players).seed(seed)).map_err(|e| e.to_string())?;
        game.set_logging(false);
        let seat = g % players;
        let mut seats: Vec<Box<dyn Agent>> = (0..players)
            .map(|p| {
                let spec = if p == seat { measured } else { other };
                spec.agent(seed ^ (p as u64 + 1))
            })
            .collect();
        play(&mut game, &mut seats).map_err(|e| format!("match game {g} stopped: {e}"))?;
        let scores = game.scores();
        let best = scores.iter().copied().max().unwrap_or(0);
        let winners = scores.iter().filter(|s| **s == best).count() as f64;
        let won = if scores[seat] == best { 1.0 / winners } else { 0.0 };
        let rival = (0..players)
            .filter(|&p| p != seat)
            .map(|p| scores[p])
            .max()
            .unwrap_or(0);
        Ok(MatchGame {
            won,
            lead: (scores[seat] - rival) as f64,
            playouts: seats[seat].playouts(),
        })
    };
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<MatchGame, String>>>> = Mutex::new(vec![None; games]);
    let threads = threads.clamp(1, games.max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= games {
                    break;
                }
                let result = one(g);
                results.lock().unwrap_or_else(|e| e.into_inner())[g] = Some(result);
            });
        }
    });
    let seconds = started.elapsed().as_secs_f64();
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut outcomes = Vec::with_capacity(games);
    let (mut lead, mut playouts) = (0.0, 0u64);
    for result in results {
        let played = result.ok_or("a match game was not played")??;
        outcomes.push(played.won);
        lead += played.lead;
        playouts += played.playouts;
    }
    let n = games.max(1) as f64;
    let wins: f64 = outcomes.iter().sum();
    let mut rate = crate::stats::Proportion::new();
    outcomes.iter().for_each(|w| rate.add(*w));
    Ok(Match {
        agent: agent.into(),
        opponent: opponent.into(),
        games,
        wins,
        interval: rate.interval(),
        lead: lead / n,
        playouts,
        seconds,
        threads,
    })
}

/// A match's rows: the win rate (its interval in the note), games per
/// second per thread, and the measured agent's playouts per second per
/// thread (when it searches).
pub fn match_rows(played: &Match, case: &Case) -> Vec<Row> {
    let per_thread = played.seconds * played.threads as f64;
    let row = |what: String, median: f64, unit: &'static str, note: String| Row {
        what,
        packs: case.label.clone(),
        rules: case.packs.clone(),
        players: case.players,
        median,
        unit,
        ratio: None,
        ratio_to: String::new(),
        note,
        interval: None,
        lead: None,
        rounds: vec![median],
        ratio_rounds: Vec::new(),
    };
    let versus = format!("{} vs {}", played.agent, played.opponent);
    let won = Row {
        interval: Some([100.0 * played.interval.low, 100.0 * played.interval.high]),
        lead: Some(played.lead),
        ..row(
            format!("{versus}: won"),
            100.0 * played.win_rate(),
            "%",
            format!(
                "[{:.1}, {:.1}] (95%), {} games, seats rotated, lead {:+.1} points",
                100.0 * played.interval.low,
                100.0 * played.interval.high,
                played.games,
                played.lead
            ),
        )
    };
    let mut rows = vec![
        won,
        row(
            format!("{versus}: games"),
            played.games as f64 / per_thread,
            "games/s",
            format!("per thread, {} thread(s)", played.threads),
        ),
    ];
    // An agent that does not search plays no playouts: no row of zeros.
    if played.playouts > 0 {
        rows.push(row(
            format!("{}: playouts", played.agent),
            played.playouts as f64 / per_thread,
            "/s",
            format!("per thread, {} thread(s)", played.threads),
        ));
    }
    rows
}
