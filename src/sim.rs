//! Many games at once. [`play_games`] plays the games of a [`Run`] on
//! several threads and hands back what the caller keeps of each game, in
//! game order, so a run's results never depend on the number of threads:
//! game `g`'s seeds depend on the run's seed and `g` alone ([`game_seed`]),
//! and whatever the caller sums it sums in the same order.
//!
//! ```
//! use meeple::sim::{play_games, Run};
//! use meeple::{load, Agent, PackRef, RandomAgent, Rules};
//! use std::sync::Arc;
//!
//! let rules = Arc::new(Rules::new(load(&[PackRef::Bundled("base".into())]).expect("base loads")));
//! let agents = |_seat: usize, seed: u64| Box::new(RandomAgent::new(seed)) as Box<dyn Agent>;
//! let run = Run::new(2, 20).seed(7).threads(2);
//! let scores: Vec<Vec<i64>> = play_games(&rules, &run, &agents, |_g, played| {
//!     played.map(|game| game.scores().to_vec()).expect("random base games finish")
//! });
//! assert_eq!(scores.len(), 20);
//! let alone = play_games(&rules, &run.clone().threads(1), &agents, |_g, played| {
//!     played.map(|game| game.scores().to_vec()).expect("random base games finish")
//! });
//! assert_eq!(scores, alone); // the same games, whatever the number of threads
//! ```

use crate::agents::{play, Agent};
use crate::engine::{Game, GameError, Rules, Setup};
use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// How long a worker of [`play_games_each`] keeps finished games before it
/// hands them on.
const BATCH_TIME: Duration = Duration::from_millis(5);

/// A run of games: how many, with how many players, from which seed, on how
/// many threads, and whether the games keep their event log (records need
/// it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// Players in every game.
    pub players: usize,
    /// How many games the run plays.
    pub games: usize,
    /// The run's seed; see [`game_seed`].
    pub seed: u64,
    /// At most this many games are played at once (0 counts as 1). They run
    /// on rayon's global pool, which has one thread per core unless the
    /// program configures it (or `RAYON_NUM_THREADS` is set); with 1, the
    /// games are played on the calling thread.
    pub threads: usize,
    /// Whether games keep their event log ([`Game::set_logging`]), which a
    /// [`Record`](crate::Record) of the game needs.
    pub logging: bool,
    /// Whether the run goes on past a game that stops with an error (its
    /// value is handed on like any other); otherwise it ends there.
    pub keep_going: bool,
    /// Whether the agents change seats from game to game, so that each
    /// plays every seat equally often: in game `g`, seat `s` is played by
    /// the agent in lineup slot `(s + g) % players` (see [`Run::slot`]).
    pub rotate_seats: bool,
    /// Keyed tile draws ([`Setup::keyed`] with the game's seed): two runs
    /// with the same seed draw the tiles their packs share in the same
    /// relative order, whatever else their packs add (`meeple compare`).
    pub keyed_draws: bool,
}

impl Run {
    /// `games` games of `players` players, seed 1, on [`default_threads`]
    /// threads, without event logs.
    pub fn new(players: usize, games: usize) -> Run {
        Run {
            players,
            games,
            seed: 1,
            threads: default_threads(),
            logging: false,
            keep_going: false,
            rotate_seats: false,
            keyed_draws: false,
        }
    }

    /// The same run, with keyed tile draws or not.
    pub fn keyed_draws(self, keyed_draws: bool) -> Run {
        Run { keyed_draws, ..self }
    }

    /// The same run, going on past failed games or not.
    pub fn keep_going(self, keep_going: bool) -> Run {
        Run { keep_going, ..self }
    }

    /// The same run, with seats rotating between games or not.
    pub fn rotate_seats(self, rotate_seats: bool) -> Run {
        Run { rotate_seats, ..self }
    }

    /// The lineup slot whose agent plays seat `seat` in game `g`: the seat
    /// itself, or `(seat + g) % players` when seats rotate.
    pub fn slot(&self, g: usize, seat: usize) -> usize {
        if self.rotate_seats && self.players > 0 {
            (seat + g) % self.players
        } else {
            seat
        }
    }

    /// The same run with the seed `seed`.
    pub fn seed(self, seed: u64) -> Run {
        Run { seed, ..self }
    }

    /// The same run on `threads` threads.
    pub fn threads(self, threads: usize) -> Run {
        Run { threads, ..self }
    }

    /// The same run with event logs on or off.
    pub fn logging(self, logging: bool) -> Run {
        Run { logging, ..self }
    }
}

/// The number of threads the machine offers ([`std::thread::available_parallelism`]), 1 if unknown.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The seed of game `g` of a run with seed `seed`. It depends on `seed + g`
/// alone, so game `g` of a run is game 0 of the run with seed `seed + g`
/// (see [`replay_seed`]). Seat `p`'s agent gets the seed `game_seed ^ (p + 1)`.
pub fn game_seed(seed: u64, g: usize) -> u64 {
    replay_seed(seed, g).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The seed of the run whose first game is game `g` of the run with `seed`.
pub fn replay_seed(seed: u64, g: usize) -> u64 {
    seed.wrapping_add(g as u64)
}

/// A game that stopped with an error: the game as it stood (`None` if it
/// could not be set up) and the error.
#[derive(Clone, Debug)]
pub struct Stopped {
    /// The game as it stopped, or `None` when [`Game::new`] refused the setup.
    pub game: Option<Box<Game>>,
    /// Why it stopped.
    pub error: GameError,
}

/// Plays game `g` of `run` to its end. `agents(slot, seed)` makes the agent
/// of each lineup slot (the seat's own, unless seats rotate: [`Run::slot`])
/// with the seat's seed (`game_seed(run.seed, g) ^ (seat + 1)`).
pub fn play_game<F>(rules: &Arc<Rules>, run: &Run, agents: &F, g: usize) -> Result<Game, Stopped>
where
    F: Fn(usize, u64) -> Box<dyn Agent> + ?Sized,
{
    let seed = game_seed(run.seed, g);
    let setup = Setup::new(run.players).seed(seed);
    let setup = if run.keyed_draws { setup.keyed(seed) } else { setup };
    let mut game = Game::new(rules.clone(), setup).map_err(|error| Stopped { game: None, error })?;
    game.set_logging(run.logging);
    let mut seats: Vec<Box<dyn Agent>> = (0..run.players)
        .map(|seat| agents(run.slot(g, seat), seed ^ (seat as u64 + 1)))
        .collect();
    match play(&mut game, &mut seats) {
        Ok(()) => Ok(game),
        Err(error) => Err(Stopped {
            game: Some(Box::new(game)),
            error,
        }),
    }
}

/// Plays the games of `run` and returns what `keep(g, game)` makes of each
/// game `g`, in game order. `keep` runs on the thread that played the game,
/// so the work it does (a summary, a record) is shared out too.
///
/// Unless [`Run::keep_going`], the run stops at the first game, by index,
/// that stops with an error: its value is the last one returned, and no game
/// after it is handed to `keep` (games after it may have been played
/// meanwhile, and are dropped).
pub fn play_games<T, F, K>(rules: &Arc<Rules>, run: &Run, agents: &F, keep: K) -> Vec<T>
where
    T: Send,
    F: Fn(usize, u64) -> Box<dyn Agent> + Sync + ?Sized,
    K: Fn(usize, Result<Game, Stopped>) -> T + Sync,
{
    let mut kept = Vec::with_capacity(run.games);
    play_games_each(rules, run, agents, keep, |_, value| {
        kept.push(value);
        ControlFlow::Continue(())
    });
    kept
}

/// [`play_games`], handing each game's value to `take(g, value)` on the
/// calling thread, in game order, as soon as the games before it are done
/// (for progress, or to write records without holding them all). `take`
/// may stop the run by answering [`ControlFlow::Break`].
pub fn play_games_each<T, F, K, E>(rules: &Arc<Rules>, run: &Run, agents: &F, keep: K, mut take: E)
where
    T: Send,
    F: Fn(usize, u64) -> Box<dyn Agent> + Sync + ?Sized,
    K: Fn(usize, Result<Game, Stopped>) -> T + Sync,
    E: FnMut(usize, T) -> ControlFlow<()>,
{
    let workers = run.threads.clamp(1, run.games.max(1));
    if workers == 1 {
        for g in 0..run.games {
            let played = play_game(rules, run, agents, g);
            let failed = played.is_err() && !run.keep_going;
            if take(g, keep(g, played)).is_break() || failed {
                return;
            }
        }
        return;
    }
    // Workers take game indices in increasing order from `next`, so the
    // games held back for the ones before them stay few; none takes a game
    // past `last`, the first failed game (or the last one taken when the
    // caller stopped). A worker sends its games in batches, every
    // `BATCH_TIME` at most, so the calling thread is not woken for every
    // short game (waking it per game cost a tenth of the CPU time).
    let next = AtomicUsize::new(0);
    let last = AtomicUsize::new(usize::MAX);
    let (sender, receiver) = mpsc::channel::<Vec<(usize, bool, T)>>();
    rayon::in_place_scope(|scope| {
        for _ in 0..workers {
            let sender = sender.clone();
            let (next, last, keep) = (&next, &last, &keep);
            scope.spawn(move |_| {
                let mut batch = Vec::new();
                let mut since = Instant::now();
                loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= run.games || g > last.load(Ordering::Relaxed) {
                        break;
                    }
                    let played = play_game(rules, run, agents, g);
                    let failed = played.is_err() && !run.keep_going;
                    if failed {
                        last.fetch_min(g, Ordering::Relaxed);
                    }
                    batch.push((g, failed, keep(g, played)));
                    if failed || since.elapsed() >= BATCH_TIME {
                        if sender.send(std::mem::take(&mut batch)).is_err() {
                            return;
                        }
                        since = Instant::now();
                    }
                }
                if !batch.is_empty() {
                    let _ = sender.send(batch);
                }
            });
        }
        drop(sender);
        // Values wait here until every game before theirs has been taken.
        let mut waiting: BTreeMap<usize, (bool, T)> = BTreeMap::new();
        let mut due = 0;
        for (g, failed, value) in receiver.into_iter().flatten() {
            waiting.insert(g, (failed, value));
            while let Some((failed, value)) = waiting.remove(&due) {
                let stop = take(due, value).is_break() || failed;
                if stop {
                    last.fetch_min(due, Ordering::Relaxed);
                    return;
                }
                due += 1;
            }
        }
    });
}

/// What statistics keep of one finished game: every seat's score and points
/// by reason, its length in turns, and the tiles it discarded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// Final score per seat.
    pub scores: Vec<i64>,
    /// Points per seat and reason (indices into the pack's reasons).
    pub points: Vec<Vec<i64>>,
    /// Turns played: those begun, less the last one when it only found
    /// the stack empty and ended the game.
    pub turns: u32,
    /// Tiles discarded because they fitted nowhere.
    pub discarded: u32,
}

impl GameResult {
    /// The result of `game` as it stands (normally over).
    pub fn of(game: &Game) -> GameResult {
        let reasons = game.rules().pack.reasons.len();
        GameResult {
            scores: game.scores().to_vec(),
            points: (0..game.players())
                .map(|p| {
                    (0..reasons)
                        .map(|r| game.points(crate::Player(p as u8), r as u16).unwrap_or(0))
                        .collect()
                })
                .collect(),
            turns: if game.is_over() && game.placed_tile().is_none() {
                game.turn().saturating_sub(1)
            } else {
                game.turn()
            },
            discarded: game.discarded(),
        }
    }

    /// Seat 0's score minus the mean of the other seats' scores (`None`
    /// with fewer than two seats).
    pub fn first_margin(&self) -> Option<f64> {
        let (first, others) = self.scores.split_first()?;
        (!others.is_empty())
            .then(|| *first as f64 - others.iter().map(|s| *s as f64).sum::<f64>() / others.len() as f64)
    }

    /// Each seat's share of the victory: 1 for a sole winner, 1/k for each
    /// of k tied leaders, 0 for the others.
    pub fn win_shares(&self) -> Vec<f64> {
        let best = self.scores.iter().copied().max().unwrap_or(0);
        let winners = self.scores.iter().filter(|s| **s == best).count().max(1) as f64;
        self.scores
            .iter()
            .map(|s| if *s == best { 1.0 / winners } else { 0.0 })
            .collect()
    }
}

/// Statistics of one group of seats over a run: a seat, or a lineup slot
/// (one agent, whichever seat it played).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Final scores.
    pub score: crate::stats::Summary,
    /// Final scores, for quantiles and plots.
    pub scores: crate::stats::Histogram,
    /// Share of victories.
    pub wins: crate::stats::Proportion,
    /// Points per reason (indices into the pack's reasons).
    pub reasons: Vec<crate::stats::Summary>,
}

impl Tally {
    fn add(&mut self, result: &GameResult, seat: usize, shares: &[f64]) {
        self.score.add(result.scores[seat] as f64);
        self.scores.add(result.scores[seat]);
        self.wins.add(shares[seat]);
        if self.reasons.len() < result.points[seat].len() {
            self.reasons
                .resize(result.points[seat].len(), crate::stats::Summary::new());
        }
        for (summary, points) in self.reasons.iter_mut().zip(&result.points[seat]) {
            summary.add(*points as f64);
        }
    }
}

/// The statistics of a run, accumulated game by game in game order: per
/// seat, per lineup slot (differs from per seat only when seats rotate),
/// game length, discarded tiles, and the first player's advantage.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Totals {
    /// One tally per seat.
    pub seats: Vec<Tally>,
    /// One tally per lineup slot (the agent in slot `i` of the lineup).
    pub slots: Vec<Tally>,
    /// Turns per game.
    pub turns: crate::stats::Summary,
    /// Turns per game, for quantiles.
    pub turn_counts: crate::stats::Histogram,
    /// Discarded tiles per game.
    pub discarded: crate::stats::Summary,
    /// Seat 0's score minus the mean of the other seats' scores, per game.
    pub first_margin: crate::stats::Summary,
    /// Games counted.
    pub games: u64,
}

impl Totals {
    /// Empty totals for `players` seats.
    pub fn new(players: usize) -> Totals {
        Totals {
            seats: vec![Tally::default(); players],
            slots: vec![Tally::default(); players],
            ..Totals::default()
        }
    }

    /// Counts game `g` of `run`. A game with more seats than the totals
    /// were made for adds the tallies it needs, so no seat is dropped.
    pub fn add(&mut self, run: &Run, g: usize, result: &GameResult) {
        let shares = result.win_shares();
        let players = result.scores.len();
        if self.seats.len() < players {
            self.seats.resize(players, Tally::default());
        }
        for seat in 0..players {
            self.seats[seat].add(result, seat, &shares);
            // A game of more seats than the run's players has no lineup
            // to rotate through: each seat is its own slot.
            let slot = if players > run.players { seat } else { run.slot(g, seat) };
            if self.slots.len() <= slot {
                self.slots.resize(slot + 1, Tally::default());
            }
            self.slots[slot].add(result, seat, &shares);
        }
        self.turns.add(f64::from(result.turns));
        self.turn_counts.add(i64::from(result.turns));
        self.discarded.add(f64::from(result.discarded));
        if let Some(margin) = result.first_margin() {
            self.first_margin.add(margin);
        }
        self.games += 1;
    }
}
