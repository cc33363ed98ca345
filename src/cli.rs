//! The `meeple` command line. Everything that prints lives here, outside the core.

mod bench;
mod compare;
mod draw;
mod picture;
mod play;
mod plot;
mod sim;

use crate::check::{load, LoadError, PackRef};
use crate::diagnostic::Code;
use crate::engine::{Player, Rules, MAX_PLAYERS};
use crate::ir::{IconValue, RulePack};
use crate::record::{Outcome, Record, ReplayError};
use clap::{Parser, Subcommand};
use codespan_reporting::term::{self, termcolor};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// A rules language and engine for Carcassonne.
#[derive(Parser, Debug)]
#[command(name = "meeple", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check rule packs and print every problem found.
    ///
    /// Each PACK is a path to a .rules file or the name of a bundled pack
    /// (base, ...). Each is checked on its own, with the packs it requires,
    /// unless --together is given; packs joined by commas (`base,mine.rules`,
    /// as `sim --rules` takes them) are checked together. Exits 0 when clean,
    /// 1 on any error.
    Check {
        #[arg(required = true, value_name = "FILE_OR_PACK")]
        packs: Vec<String>,
        /// Check all the packs loaded together as one game would load them.
        #[arg(long)]
        together: bool,
    },
    /// Draw every tile of a pack (with the packs it requires) and its count.
    ///
    /// Packs are given apart or joined by commas (`base,mine.rules`). Without
    /// --svg or --html, prints each tile as text.
    Tiles {
        #[arg(value_name = "FILE_OR_PACK", required = true)]
        packs: Vec<String>,
        /// Write one SVG picture per tile type into this folder (made if missing).
        #[arg(long, value_name = "DIR")]
        svg: Option<PathBuf>,
        /// Write a gallery of the tiles as one self-contained HTML page.
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
        /// Draw only the tiles the named packs add, not those of the packs they require (as text, or with --svg or --html).
        #[arg(long)]
        only: bool,
    },
    /// Replay a game record, checking every step and expectation.
    ///
    /// Exits 1 at the first illegal step (naming its index and why) or failed
    /// expectation. A record with `fails` exits 0 when it fails just as it
    /// says, and 1 otherwise. See docs/records.md for the format.
    Replay {
        #[arg(value_name = "RECORD")]
        record: PathBuf,
        /// Draw the final board.
        #[arg(long)]
        board: bool,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
        /// A folder the record's packs may also come from (repeatable). A
        /// record names bundled packs or .rules files by paths relative to
        /// its own folder or to these; no other file is read.
        #[arg(long, value_name = "DIR")]
        packs_dir: Vec<PathBuf>,
        /// Write a viewer that steps through the game turn by turn: one
        /// self-contained HTML page.
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
        /// Write the final board, with its legend, as an SVG picture.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
    },
    /// Play many games with agents and print statistics per seat.
    Sim {
        /// Packs to play, comma-separated: bundled names or paths.
        #[arg(long, value_delimiter = ',', default_value = "base")]
        rules: Vec<String>,
        #[arg(long, default_value_t = 2)]
        players: usize,
        /// How many games to play (1 or more).
        #[arg(long, default_value_t = 100, allow_negative_numbers = true, value_parser = games_arg)]
        games: usize,
        /// The run's seed. Game G of a run is the first game of the run
        /// with seed SEED+G, so `--seed SEED+G --games 1` plays it again
        /// (with --rotate-seats, give --agents in game G's seat order, not
        /// the run's, and leave out --rotate-seats: a failed game's message
        /// gives the whole command).
        #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = seed_arg)]
        seed: u64,
        /// Agents by seat, comma-separated, repeated as needed: random,
        /// greedy, ismcts (search; ismcts:N for N iterations per decision,
        /// ismcts:50ms for a time per decision, which is not deterministic).
        #[arg(long, default_value = "random")]
        agents: String,
        /// Print the statistics as one JSON object.
        #[arg(long)]
        json: bool,
        /// Write each game's record into this folder. A game stopped by a
        /// rule's failure writes its record here too (without this, to a
        /// temporary file), and the message says how to reproduce it.
        #[arg(long, value_name = "DIR")]
        record_dir: Option<PathBuf>,
        /// Games played at once, 1 or more (default: one per core). The
        /// results are the same for any number.
        #[arg(long, value_name = "N", value_parser = threads_arg)]
        threads: Option<usize>,
        #[command(flatten)]
        workbench: Workbench,
        /// Write one line per game and seat (seed, seat, slot: the agent's
        /// row in the report, agent, score, win, turns, points by reason)
        /// to FILE: JSON Lines, or CSV when FILE ends in .csv.
        #[arg(long, value_name = "FILE")]
        games_out: Option<PathBuf>,
        /// Draw tiles in an order fixed by the seed and the tiles' names
        /// (as `compare` does), so runs of packs that add different tiles
        /// draw the tiles they share in the same order.
        #[arg(long)]
        keyed_draws: bool,
    },
    /// Compare two variants on the same games, paired: game G is played
    /// under A and under B from the same seeds, and each statistic's
    /// difference B − A is given with its 95% interval and a paired t-test.
    ///
    /// A and B are pack lists, comma-separated (e.g. `base` and
    /// `base,my_variant.rules`).
    Compare {
        /// The first variant: packs, comma-separated (bundled names or paths).
        #[arg(value_name = "A")]
        a: String,
        /// The second variant, compared with the first (differences are B − A).
        #[arg(value_name = "B")]
        b: String,
        #[arg(long, default_value_t = 2)]
        players: usize,
        /// How many paired games to play (1 or more).
        #[arg(long, default_value_t = 200, allow_negative_numbers = true, value_parser = games_arg)]
        games: usize,
        /// The run's seed, as for sim.
        #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = seed_arg)]
        seed: u64,
        /// Agents by lineup slot, comma-separated, repeated as needed.
        #[arg(long, default_value = "greedy")]
        agents: String,
        /// Print the comparison as one JSON object.
        #[arg(long)]
        json: bool,
        /// Games played at once (default: one per core).
        #[arg(long, value_name = "N", value_parser = threads_arg)]
        threads: Option<usize>,
        #[command(flatten)]
        workbench: Workbench,
        /// Write one line per game, variant (A, then B) and seat (seed,
        /// variant, seat, slot, agent, score, win, turns, points by reason
        /// of both variants) to FILE: JSON Lines, or CSV when FILE ends in .csv.
        #[arg(long, value_name = "FILE")]
        games_out: Option<PathBuf>,
    },
    /// Measure the engine's speed: games per second for each row of the
    /// benchmark suite (benches/suite.txt), each the median of several rounds
    /// on one thread and compared with random base 2-player games; search
    /// clones per second at mid-game; and sim on 1 thread against every core.
    Bench {
        /// A smoke run of a few seconds (3 short rounds; rough figures).
        #[arg(long)]
        quick: bool,
        /// Timed rounds per figure (default 5, or 3 with --quick).
        #[arg(long, value_name = "N", value_parser = count_arg)]
        rounds: Option<usize>,
        /// Seconds per round (default 1, or 0.03 with --quick).
        #[arg(long, value_name = "S", allow_negative_numbers = true)]
        seconds: Option<f64>,
        /// Threads sim is measured on against one thread, and matches are
        /// played on (default: one per core).
        #[arg(long, value_name = "N", value_parser = threads_arg)]
        threads: Option<usize>,
        /// Play only a match of two agents on 2-player base games, seats
        /// rotated, such as `--match ismcts:100,greedy`: the first agent's
        /// win rate with its 95% interval, games/s and its playouts/s per thread.
        #[arg(long = "match", value_name = "AGENT,OPPONENT")]
        versus: Option<String>,
        /// Games of a match (default 100, or 2 with --quick).
        #[arg(long, value_name = "N", value_parser = count_arg)]
        games: Option<usize>,
        /// Print the figures as one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Play a game in the terminal: against agents, or hot-seat.
    ///
    /// Each of your turns shows the board around the action, the drawn
    /// tile, the scores and the legal moves, numbered and written the way
    /// records write them; answer with a number or a typed move (`?` for
    /// help, `u` to undo, `q` to quit). Everything is written to stderr and
    /// answers are read from stdin line by line, so a pipe works too. The
    /// record is written at the end, on quit, at the end of the input and
    /// on Ctrl-C.
    Play {
        /// Packs to play, comma-separated: bundled names or paths.
        #[arg(long, value_delimiter = ',', default_value = "base")]
        rules: Vec<String>,
        #[arg(long, default_value_t = 2)]
        players: usize,
        /// Who plays each seat, comma-separated, one per player: human, or an
        /// agent (random, greedy, ismcts, ismcts:N). Default: human, then
        /// greedy agents.
        #[arg(long)]
        seats: Option<String>,
        /// The game's seed: the same seed and moves give the same game.
        #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = seed_arg)]
        seed: u64,
        /// Where the game's record is written (default:
        /// meeple-game-SEED.ron in the current folder, numbered if taken).
        #[arg(long, value_name = "FILE")]
        record: Option<PathBuf>,
    },
    /// Print the language reference's tables (events, windows, built-ins) as Markdown.
    Reference,
    /// Explain a diagnostic code such as E0011, or list all codes.
    Explain {
        #[arg(value_name = "CODE")]
        code: Option<String>,
    },
}

/// Options `sim` and `compare` share.
#[derive(clap::Args, Debug, Clone)]
struct Workbench {
    /// Rotate the agents through the seats from game to game, so each
    /// plays every seat equally often (statistics per agent and per seat).
    #[arg(long)]
    rotate_seats: bool,
    /// A game that fails is reported (with its record) and left out, and
    /// the run goes on; the exit status is 1 if any failed.
    #[arg(long)]
    keep_going: bool,
    /// Write SVG charts into DIR (score distributions, points by reason).
    #[arg(long, value_name = "DIR")]
    plot: Option<PathBuf>,
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let code = run(Cli::parse());
    // Output that could not be written (a full disk) is a failure, whatever
    // the command made of it.
    if let Some(e) = OUTPUT_FAILED.get() {
        eprintln!("error: cannot write the output: {e}");
        return ExitCode::FAILURE;
    }
    code
}

fn run(cli: Cli) -> ExitCode {
    match cli.command {
        Command::Check { packs, together } => check(&packs, together),
        Command::Tiles { packs, svg, html, only } => tiles(
            // `base,mine.rules` as `sim --rules` writes them, or apart.
            &pack_list(&packs),
            &picture::TilesOutput {
                svg: svg.as_deref(),
                html: html.as_deref(),
                only,
            },
        ),
        Command::Explain { code } => explain(code.as_deref()),
        Command::Bench {
            quick,
            rounds,
            seconds,
            threads,
            versus,
            games,
            json,
        } => {
            let mut settings = if quick {
                crate::bench::Settings::quick()
            } else {
                crate::bench::Settings::full()
            };
            settings.rounds = rounds.unwrap_or(settings.rounds);
            settings.round_seconds = seconds.unwrap_or(settings.round_seconds);
            settings.threads = threads.unwrap_or(settings.threads);
            settings.match_games = games.unwrap_or(settings.match_games);
            bench::bench(&settings, versus.as_deref(), json)
        }
        Command::Reference => {
            emit(&crate::ir::reference::tables());
            ExitCode::SUCCESS
        }
        Command::Replay {
            record,
            board,
            json,
            packs_dir,
            html,
            svg,
        } => replay(&record, board, json, &packs_dir, (html.as_deref(), svg.as_deref())),
        Command::Play {
            rules,
            players,
            seats,
            seed,
            record,
        } => play(rules, players, seats.as_deref(), seed, record),
        Command::Sim {
            rules,
            players,
            games,
            seed,
            agents,
            json,
            record_dir,
            threads,
            workbench,
            games_out,
            keyed_draws,
        } => simulate(sim::SimOptions {
            packs: rules,
            players,
            games,
            seed,
            agents: vec![agents],
            json,
            record_dir,
            threads: threads.unwrap_or_else(crate::sim::default_threads),
            rotate_seats: workbench.rotate_seats,
            keep_going: workbench.keep_going,
            games_out,
            plot: workbench.plot,
            keyed_draws,
        }),
        Command::Compare {
            a,
            b,
            players,
            games,
            seed,
            agents,
            json,
            threads,
            workbench,
            games_out,
        } => compare(
            &a,
            &b,
            sim::SimOptions {
                packs: Vec::new(),
                players,
                games,
                seed,
                agents: vec![agents],
                json,
                record_dir: None,
                threads: threads.unwrap_or_else(crate::sim::default_threads),
                rotate_seats: workbench.rotate_seats,
                keep_going: workbench.keep_going,
                games_out,
                plot: workbench.plot,
                // The same seed draws the tiles both variants share in the same order.
                keyed_draws: true,
            },
        ),
    }
}

/// Whether two paths name one place (`t.html` and `./t.html`), whether or
/// not it exists yet.
fn same_path(a: &Path, b: &Path) -> bool {
    let whole = |p: &Path| {
        let p = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        p.components().collect::<PathBuf>()
    };
    whole(a) == whole(b)
}

/// `n` things: "1 pack", "2 packs".
fn counted(n: usize, thing: &str) -> String {
    format!("{n} {thing}{}", if n == 1 { "" } else { "s" })
}

/// Reads `--games`: a whole number (0 is refused with the run's other
/// settings, `checked`).
fn games_arg(text: &str) -> Result<usize, String> {
    text.trim()
        .parse::<usize>()
        .map_err(|_| format!("`{text}` is not a number of games; give a whole number, 1 or more"))
}

/// Reads `--seed`: a whole number from 0 to 2^64 - 1.
fn seed_arg(text: &str) -> Result<u64, String> {
    text.trim()
        .parse::<u64>()
        .map_err(|_| format!("`{text}` is not a seed; give a whole number from 0 to {}", u64::MAX))
}

/// Reads `--threads`: a whole number, 1 or more.
fn threads_arg(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        Ok(_) => Err("0 threads play nothing; give 1 or more (the default is one per core)".into()),
        Err(_) => Err(format!(
            "`{text}` is not a number of threads; give a whole number, 1 or more (the default is one per core)"
        )),
    }
}

/// Reads `--rounds`: a whole number, 1 or more.
fn count_arg(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("`{text}` is not a count; give a whole number, 1 or more")),
    }
}

/// The first failure to write to stdout, told when the command ends.
static OUTPUT_FAILED: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Writes to stdout; a closed pipe (`meeple tiles base | head`) is not an
/// error, any other failure is ([`OUTPUT_FAILED`]).
fn emit(text: &str) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            let _ = OUTPUT_FAILED.set(e.to_string());
        }
    }
}

fn pack_refs(args: &[String]) -> Vec<PackRef> {
    args.iter().map(|a| PackRef::from_arg(a)).collect()
}

/// Prints load errors to stderr, in colour on a terminal.
fn report(error: &LoadError) {
    let choice = if std::io::stderr().is_terminal() {
        termcolor::ColorChoice::Auto
    } else {
        termcolor::ColorChoice::Never
    };
    let mut stderr = termcolor::StandardStream::stderr(choice);
    let config = term::Config::default();
    for d in &error.diagnostics {
        if term::emit_to_write_style(&mut stderr, &config, &error.sources, &d.to_codespan()).is_err() {
            eprint!("{}", d.render(&error.sources));
        }
    }
    let n = error.diagnostics.len();
    eprintln!("{n} error{}", if n == 1 { "" } else { "s" });
}

/// Loads packs, printing diagnostics on failure.
fn load_or_report(args: &[String]) -> Option<RulePack> {
    match load(&pack_refs(args)) {
        Ok(pack) => Some(pack),
        Err(e) => {
            report(&e);
            None
        }
    }
}

fn check(args: &[String], together: bool) -> ExitCode {
    // `base,mine.rules` (as `sim --rules` writes packs) is one group.
    let groups: Vec<Vec<String>> = if together {
        vec![pack_list(args)]
    } else {
        args.iter().map(|a| pack_list(std::slice::from_ref(a))).collect()
    };
    let mut failed = false;
    for group in &groups {
        match load(&pack_refs(group)) {
            Ok(pack) => emit(&format!(
                "{}: ok ({}, {} in {}, {}, {})\n",
                group.join(" + "),
                counted(pack.packs.len(), "pack"),
                counted(pack.tile_count() as usize, "tile"),
                counted(pack.tiles.len(), "type"),
                counted(pack.kinds.len(), "feature kind"),
                counted(pack.figures.len(), "figure")
            )),
            Err(e) => {
                report(&e);
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn tiles(args: &[String], out: &picture::TilesOutput) -> ExitCode {
    if let Some((svg, html)) = out.svg.zip(out.html).filter(|(svg, html)| same_path(svg, html)) {
        eprintln!(
            "error: --svg {} and --html {} name the same path; --svg names a folder for the pictures and --html a file, so give two",
            svg.display(),
            html.display()
        );
        return ExitCode::FAILURE;
    }
    let Some(pack) = load_or_report(args) else {
        return ExitCode::FAILURE;
    };
    if out.svg.is_some() || out.html.is_some() {
        return picture::tiles(args, &pack, out);
    }
    let chosen = match picture::chosen_tiles(args, &pack, out.only) {
        Ok(chosen) => chosen,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let pack = Rules::new(pack);
    emit(&draw::legend(&pack.pack, None, false));
    emit("\n");
    emit(&draw::tile_sheet(&pack, &chosen));
    let pack = &pack.pack;
    if out.only {
        let count: u32 = chosen.iter().map(|&t| pack.tiles[t].count).sum();
        emit(&format!(
            "{} in {} added by {} ({} in all with the packs they require)\n",
            counted(count as usize, "tile"),
            counted(chosen.len(), "type"),
            args.join(", "),
            counted(pack.tile_count() as usize, "tile")
        ));
        return ExitCode::SUCCESS;
    }
    let icons: Vec<String> = pack
        .icons
        .iter()
        .map(|i| match i.value {
            IconValue::None => i.name.clone(),
            IconValue::Compass => format!("{} (compass)", i.name),
        })
        .collect();
    emit(&format!(
        "{} tiles in {} types; start tile {}{}\n",
        pack.tile_count(),
        pack.tiles.len(),
        pack.tiles[pack.start as usize].name,
        if icons.is_empty() {
            String::new()
        } else {
            format!("; icons: {}", icons.join(", "))
        }
    ));
    ExitCode::SUCCESS
}

fn explain(code: Option<&str>) -> ExitCode {
    match code {
        None => {
            let list: String = Code::ALL.iter().map(|c| format!("{c}  {}\n", c.title())).collect();
            emit(&list);
            ExitCode::SUCCESS
        }
        Some(text) => match text.parse::<Code>() {
            Ok(c) => {
                emit(&format!("{c}: {}\n\n{}\n", c.title(), c.explanation()));
                ExitCode::SUCCESS
            }
            Err(()) => {
                eprintln!("error: `{text}` is not a diagnostic code; `meeple explain` lists them all");
                ExitCode::FAILURE
            }
        },
    }
}

/// `meeple replay`'s picture files: the viewer (`--html`) and the final board (`--svg`).
type Pictures<'a> = (Option<&'a Path>, Option<&'a Path>);

fn replay(path: &Path, board: bool, json: bool, packs_dirs: &[PathBuf], pictures: Pictures) -> ExitCode {
    if let Some((html, svg)) = pictures.0.zip(pictures.1).filter(|(html, svg)| same_path(html, svg)) {
        eprintln!(
            "error: --html {} and --svg {} name the same file; the second would overwrite the first, so give two",
            html.display(),
            svg.display()
        );
        return ExitCode::FAILURE;
    }
    if let Some(dir) = packs_dirs.iter().find(|d| !d.is_dir()) {
        eprintln!(
            "error: --packs-dir {}: it is not a folder; name the folder that holds the record's .rules files",
            dir.display()
        );
        return ExitCode::FAILURE;
    }
    let result = Record::read(path).and_then(|record| {
        let dir = path.parent().unwrap_or(Path::new("."));
        crate::record::replay_expecting_in(&record, dir, packs_dirs).map(|outcome| (record, outcome))
    });
    let (record, game) = match result {
        Ok((record, Outcome::Played(game))) => (record, game),
        Ok((_, Outcome::FailedAsExpected(e))) => {
            if pictures.0.is_some() || pictures.1.is_some() {
                eprintln!(
                    "{}: {e}\nerror: the record fails as its `fails` expects, so there is no game to draw; --html and --svg need a record that replays",
                    path.display()
                );
                return ExitCode::FAILURE;
            }
            if json {
                let out = serde_json::json!({
                    "failed_as_expected": true,
                    "step": e.step(),
                    "kind": e.kind().to_string(),
                    "message": e.to_string(),
                });
                emit(&format!("{out:#}\n"));
            } else {
                emit(&format!(
                    "{}: {e}\nthe record fails as its `fails` expects ({})\n",
                    path.display(),
                    e.kind()
                ));
            }
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // A script asking for JSON gets it on failure too: what failed,
            // where, and why (the message is also on standard error).
            if json {
                let message = match &e {
                    ReplayError::Load(load) => load.render(),
                    e => e.to_string(),
                };
                let out = serde_json::json!({
                    "failed_as_expected": false,
                    "failed": true,
                    "step": e.step(),
                    "kind": e.kind().to_string(),
                    "message": message,
                });
                emit(&format!("{out:#}\n"));
            }
            match e {
                ReplayError::Load(e) => report(&e),
                // A parse error names the file and the place already.
                e @ ReplayError::Parse(_) => eprintln!("error: {e}"),
                e => eprintln!("{}: {e}", path.display()),
            }
            return ExitCode::FAILURE;
        }
    };
    let pack = &game.rules().pack;
    let drawn = match picture::replay(&record, path, &game, pictures.0, pictures.1) {
        Ok(said) => said,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::FAILURE;
        }
    };
    if json {
        let reasons: Vec<serde_json::Value> = (0..game.players())
            .map(|p| {
                let map: serde_json::Map<String, serde_json::Value> = pack
                    .reasons
                    .iter()
                    .enumerate()
                    .map(|(r, name)| {
                        (
                            name.clone(),
                            serde_json::json!(game.points(Player(p as u8), r as u16).unwrap_or(0)),
                        )
                    })
                    .collect();
                serde_json::Value::Object(map)
            })
            .collect();
        let out = serde_json::json!({
            "players": record.players,
            "scores": game.scores(),
            "points_by_reason": reasons,
            "over": game.is_over(),
            "tiles_placed": game.board().placed.len(),
        });
        emit(&format!("{out:#}\n"));
        return ExitCode::SUCCESS;
    }
    let mut out = drawn;
    if board {
        out += &draw::board_map(&game);
        out += &draw::legend(pack, Some(&record.players), false);
        out.push('\n');
    }
    let state = if game.is_over() {
        "final scores"
    } else {
        "scores so far (the game is not over)"
    };
    out += &format!("{} replayed; {state}:\n", counted(record.turns.len(), "step"));
    for (p, name) in record.players.iter().enumerate() {
        out += &format!("  {name:<12} {:>4}\n", game.scores()[p]);
    }
    emit(&out);
    ExitCode::SUCCESS
}

/// Checks what `sim` and `compare` share: players, games, agents; returns
/// the options with the agent list read (`agents` holds the raw text).
fn checked(mut opts: sim::SimOptions) -> Result<sim::SimOptions, String> {
    if opts.players == 0 || opts.players > MAX_PLAYERS {
        return Err(format!(
            "--players {}: a game needs 1 to {MAX_PLAYERS} players",
            opts.players
        ));
    }
    if opts.games == 0 {
        return Err("--games 0 plays nothing; give 1 or more".into());
    }
    if let Some(dir) = opts.record_dir.as_ref().filter(|d| d.exists() && !d.is_dir()) {
        return Err(format!(
            "--record-dir {} is a file, not a folder; name a folder (it is made if missing)",
            dir.display()
        ));
    }
    if let Some(dir) = opts.plot.as_ref().filter(|d| d.exists() && !d.is_dir()) {
        return Err(format!(
            "--plot {} is a file, not a folder; name a folder (it is made if missing)",
            dir.display()
        ));
    }
    opts.agents = sim::parse_agents(&opts.agents.concat())?;
    if opts.agents.len() > opts.players {
        return Err(format!(
            "--agents names {} agents for {} players; name at most one per player (the list repeats to fill the seats)",
            opts.agents.len(),
            opts.players
        ));
    }
    Ok(opts)
}

/// A pack a list names twice (a slip: it would load once, and the run's
/// title would name it twice).
fn listed_twice(packs: &[String]) -> Option<&str> {
    packs
        .iter()
        .enumerate()
        .find(|(i, p)| packs[..*i].contains(p))
        .map(|(_, p)| p.as_str())
}

/// `--rules "base, mine"`: the spaces around the commas are not part of the names.
fn pack_list(packs: &[String]) -> Vec<String> {
    packs
        .iter()
        .flat_map(|p| p.split(','))
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

/// Prints a run's report (or its error: with `json`, as a JSON object on
/// standard output too, so a script reads every outcome) and gives its
/// exit status: 1 if any game failed, 130 after Ctrl-C.
fn reported(run: Result<sim::Report, String>, json: bool) -> ExitCode {
    match run {
        Ok(report) => {
            emit(&report.text);
            if let Some(note) = &report.note {
                eprintln!("{note}");
            }
            if report.interrupted {
                ExitCode::from(130)
            } else if report.failed > 0 {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            if json {
                emit(&format!("{:#}\n", serde_json::json!({ "failed": true, "error": e })));
            }
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn simulate(opts: sim::SimOptions) -> ExitCode {
    let mut opts = match checked(opts) {
        Ok(opts) => opts,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    opts.packs = pack_list(&opts.packs);
    if opts.packs.is_empty() {
        eprintln!("error: --rules names no pack; give bundled names or paths, comma-separated");
        return ExitCode::FAILURE;
    }
    if let Some(twice) = listed_twice(&opts.packs) {
        eprintln!("error: --rules lists `{twice}` twice; list each pack once");
        return ExitCode::FAILURE;
    }
    let Some(pack) = load_or_report(&opts.packs) else {
        return ExitCode::FAILURE;
    };
    let rules = Arc::new(Rules::new(pack));
    let json = opts.json;
    reported(sim::run(rules, &opts), json)
}

fn compare(a: &str, b: &str, opts: sim::SimOptions) -> ExitCode {
    let opts = match checked(opts) {
        Ok(opts) => opts,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut variants = Vec::new();
    for (name, text) in [("A", a), ("B", b)] {
        let packs = pack_list(&[text.to_string()]);
        if packs.is_empty() {
            eprintln!("error: variant {name} names no pack; give bundled names or paths, comma-separated");
            return ExitCode::FAILURE;
        }
        if let Some(twice) = listed_twice(&packs) {
            eprintln!("error: variant {name} lists `{twice}` twice; list each pack once");
            return ExitCode::FAILURE;
        }
        let pack = match load(&pack_refs(&packs)) {
            Ok(pack) => pack,
            Err(e) => {
                report(&e);
                eprintln!("error: variant {name} ({}) does not load", packs.join(","));
                return ExitCode::FAILURE;
            }
        };
        variants.push(compare::Variant {
            packs,
            rules: Arc::new(Rules::new(pack)),
        });
    }
    let plot = opts.plot.clone();
    let opts = sim::SimOptions {
        packs: variants[0].packs.clone(),
        ..opts
    };
    reported(compare::run(&variants[0], &variants[1], &opts, plot), opts.json)
}

/// Whether a file can be written at `path`: opened to append (which changes
/// nothing), and when nothing was there (not even a link), made and removed
/// again. (A link to nowhere is left with the empty file it leads to, where
/// the record will go.)
fn writable(path: &Path) -> std::io::Result<()> {
    let existed = path.symlink_metadata().is_ok();
    std::fs::OpenOptions::new().append(true).create(true).open(path)?;
    if !existed {
        std::fs::remove_file(path)?;
    }
    Ok(())
}

fn play(packs: Vec<String>, players: usize, seats: Option<&str>, seed: u64, record: Option<PathBuf>) -> ExitCode {
    if players == 0 || players > MAX_PLAYERS {
        eprintln!("error: --players {players}: a game needs 1 to {MAX_PLAYERS} players");
        return ExitCode::FAILURE;
    }
    let seats = match play::parse_seats(seats, players) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let packs = pack_list(&packs);
    if packs.is_empty() {
        eprintln!("error: --rules names no pack; give bundled names or paths, comma-separated");
        return ExitCode::FAILURE;
    }
    if let Some(twice) = listed_twice(&packs) {
        eprintln!("error: --rules lists `{twice}` twice; list each pack once");
        return ExitCode::FAILURE;
    }
    if let Some(path) = record.as_ref().filter(|p| p.is_dir()) {
        eprintln!(
            "error: --record {} is a folder; name the file the record goes to (e.g. {}/game.ron)",
            path.display(),
            path.display()
        );
        return ExitCode::FAILURE;
    }
    let Some(pack) = load_or_report(&packs) else {
        return ExitCode::FAILURE;
    };
    let given = record.is_some();
    let record = record.unwrap_or_else(|| play::default_record_path(seed));
    // The record is written when the game ends: a place it cannot go is
    // found now, before any move is played.
    if let Err(e) = writable(&record) {
        match given {
            true => eprintln!("error: --record {}: cannot write there ({e}); name a file in a folder you can write to", record.display()),
            false => eprintln!(
                "error: cannot write the game's record to {} in this folder ({e}); name another file with --record FILE",
                record.display()
            ),
        }
        return ExitCode::FAILURE;
    }
    play::play(
        Arc::new(Rules::new(pack)),
        play::PlayOptions {
            packs,
            seats,
            seed,
            record,
        },
    )
}
