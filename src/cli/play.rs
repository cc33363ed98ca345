//! `meeple play`: one game in the terminal, people against agents or
//! against each other (hot-seat), driven through [`crate::session::Session`].
//!
//! Everything goes to stderr (the board, the moves, the prompts) and the
//! answers come from stdin line by line, with no terminal tricks, so a pipe
//! plays as well as a terminal. A person is shown what their player may see:
//! the board, the scores, every supply, and their own hand only. The record
//! is written when the game ends, on `quit`, at the end of the input and on
//! Ctrl-C.

use super::draw;
use crate::agents::agent_by_name;
use crate::engine::{Choice, Decision, Event, Game, Player, Rules, Target};
use crate::ir::program::Domain;
use crate::ir::Ownership;
use crate::record::{move_text, move_words, read_move};
use crate::session::{Seat, Session};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::io::{BufRead, IsTerminal as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

/// What `meeple play` was asked for.
pub(super) struct PlayOptions {
    /// Packs as given on the command line.
    pub packs: Vec<String>,
    /// Each seat's player: `human` or an agent's name.
    pub seats: Vec<String>,
    /// The game's seed.
    pub seed: u64,
    /// Where the record goes.
    pub record: PathBuf,
}

/// The word for a seat played by a person.
pub(super) const HUMAN: &str = "human";

/// Reads `--seats` against `--players`: one seat per player, each `human`
/// or an agent's name. Without `--seats`, the first seat is a person's and
/// the others greedy agents'.
pub(super) fn parse_seats(spec: Option<&str>, players: usize) -> Result<Vec<String>, String> {
    let Some(spec) = spec else {
        return Ok((0..players)
            .map(|p| if p == 0 { HUMAN } else { "greedy" }.to_string())
            .collect());
    };
    let seats: Vec<String> = spec.split(',').map(|s| s.trim().to_string()).collect();
    if let Some(bad) = seats
        .iter()
        .find(|s| s.as_str() != HUMAN && agent_by_name(s, 0).is_none())
    {
        return Err(format!(
            "--seats: `{bad}` is not a seat; a seat is {HUMAN} or an agent ({})",
            crate::agents::AGENT_NAMES.join(", ")
        ));
    }
    if seats.len() != players {
        return Err(format!(
            "--seats names {} seat(s) but --players is {players}: give one seat per player, comma-separated (e.g. --seats {})",
            seats.len(),
            (0..players)
                .map(|p| if p == 0 { HUMAN } else { "greedy" })
                .collect::<Vec<_>>()
                .join(",")
        ));
    }
    Ok(seats)
}

/// The default record path: `meeple-game-SEED.ron` in the current folder,
/// numbered when such a file is already there, so no game overwrites another.
pub(super) fn default_record_path(seed: u64) -> PathBuf {
    let first = PathBuf::from(format!("meeple-game-{seed}.ron"));
    if !first.exists() {
        return first;
    }
    (2..)
        .map(|n| PathBuf::from(format!("meeple-game-{seed}-{n}.ron")))
        .find(|p| !p.exists())
        .unwrap_or(first)
}

/// Writes to stderr, where everything of a game goes.
fn say(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes());
    let _ = err.flush();
}

/// The game, its players' names and where its record goes.
struct Table {
    session: Session,
    names: Vec<String>,
    /// Names with what plays the seat: "Player 2 (greedy)".
    labels: Vec<String>,
    packs: Vec<String>,
    folders: Vec<PathBuf>,
    record: PathBuf,
    /// The record's text as of the last prompt, for Ctrl-C.
    snapshot: Arc<Mutex<Option<String>>>,
    /// How much of the game's log has been told.
    told: usize,
    /// Why the game stopped, when a rule failed.
    failure: Option<String>,
    /// The person who answered last, so that hot-seat can hide one
    /// player's screen from the next.
    last_human: Option<Player>,
    /// What was told since the person now answering last saw the screen
    /// (moves, points, cards: public facts only), told again after a
    /// hot-seat hand-over cleared the screen.
    missed: String,
}

/// Plays the game; the exit code is 0 when the game ended or was stopped
/// and its record written.
pub(super) fn play(rules: Arc<Rules>, opts: PlayOptions) -> ExitCode {
    let humans = opts.seats.iter().filter(|s| s.as_str() == HUMAN).count();
    let seats: Vec<Seat> = opts
        .seats
        .iter()
        .enumerate()
        .map(|(p, s)| match agent_by_name(s, opts.seed.wrapping_add(p as u64 + 1)) {
            Some(agent) => Seat::Agent(agent),
            None => Seat::Human,
        })
        .collect();
    let session = match Session::new(rules, seats, opts.seed) {
        Ok(s) => s,
        Err(e) => {
            say(&format!("error: {e}\n"));
            return ExitCode::FAILURE;
        }
    };
    let names: Vec<String> = (1..=opts.seats.len()).map(|p| format!("Player {p}")).collect();
    let labels = names
        .iter()
        .zip(&opts.seats)
        .map(|(name, seat)| match seat.as_str() {
            HUMAN if humans == 1 => format!("{name} (you)"),
            seat => format!("{name} ({seat})"),
        })
        .collect();
    let dir = opts
        .record
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let (packs, folders) = super::sim::record_packs(&opts.packs, Some(dir));
    let mut table = Table {
        session,
        names,
        labels,
        packs,
        folders,
        record: opts.record,
        snapshot: Arc::new(Mutex::new(None)),
        told: 0,
        failure: None,
        last_human: None,
        missed: String::new(),
    };
    table.watch_interrupt();
    say(&format!(
        "meeple play: {} with {}, seed {}. Type ? for help.\n",
        opts.packs.join(", "),
        table.labels.join(", "),
        table.session.seed()
    ));
    let outcome = table.run(&mut std::io::stdin().lock());
    let written = table.write_record();
    // Both failures are told: the record's says where the game is kept.
    let failures: Vec<String> = [outcome.err(), written.err()].into_iter().flatten().collect();
    for e in &failures {
        say(&format!("error: {e}\n"));
    }
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `meeple replay RECORD` with the packs' `folders` named by `--packs-dir`.
fn replay_command<'a>(record: &Path, folders: impl Iterator<Item = &'a Path>) -> String {
    let mut command = format!("meeple replay {}", record.display());
    for folder in folders {
        let _ = write!(command, " --packs-dir {}", folder.display());
    }
    command
}

/// A record that could not be written to `record` (the error `e`), written
/// to the temporary folder instead: the message saying where, and how to
/// replay it from there (its packs are named from `record`'s folder, which
/// is given with --packs-dir, as are `folders`); or that it is lost.
fn keep_elsewhere(text: &str, record: &Path, folders: &[PathBuf], seed: u64, e: &std::io::Error) -> String {
    let kept = std::env::temp_dir().join(format!("meeple-play-{seed}-{}.ron", std::process::id()));
    let lost = format!("cannot write the record {}: {e}", record.display());
    match std::fs::write(&kept, text) {
        Ok(()) => {
            let dir = record.parent().filter(|d| !d.as_os_str().is_empty());
            let dir = dir.unwrap_or(Path::new("."));
            let replay = replay_command(&kept, std::iter::once(dir).chain(folders.iter().map(PathBuf::as_path)));
            format!(
                "{lost}\nthe game is kept in {} instead; replay it with {replay}",
                kept.display()
            )
        }
        Err(_) => lost,
    }
}

/// What a person's line asks for.
enum Line {
    Move(Choice),
    Undo,
    Help,
    Board,
    Quit,
}

impl Table {
    /// On Ctrl-C, writes the record as of the last prompt and stops.
    fn watch_interrupt(&self) {
        let snapshot = self.snapshot.clone();
        let path = self.record.clone();
        let replay = self.replay_command();
        let (folders, seed) = (self.folders.clone(), self.session.seed());
        let _ = ctrlc::set_handler(move || {
            let text = snapshot.lock().ok().and_then(|s| s.clone());
            match text.map(|t| std::fs::write(&path, &t).map_err(|e| (t, e))) {
                Some(Ok(())) => say(&format!(
                    "\ninterrupted: the game so far is recorded in {}; replay it with {replay}\n",
                    path.display()
                )),
                Some(Err((text, e))) => say(&format!(
                    "\ninterrupted: {}\n",
                    keep_elsewhere(&text, &path, &folders, seed, &e)
                )),
                None => say("\ninterrupted before a whole turn was played: no record written\n"),
            }
            std::process::exit(130);
        });
    }

    fn replay_command(&self) -> String {
        replay_command(&self.record, self.folders.iter().map(PathBuf::as_path))
    }

    fn record_text(&self) -> Result<String, String> {
        self.session
            .record(self.packs.clone(), self.names.clone())
            .map(|r| r.to_ron())
            .map_err(|e| format!("cannot make the game's record: {e}"))
    }

    fn write_record(&self) -> Result<(), String> {
        let text = self.record_text()?;
        if let Err(e) = std::fs::write(&self.record, &text) {
            // The game is not lost: it goes to the temporary folder.
            return Err(keep_elsewhere(
                &text,
                &self.record,
                &self.folders,
                self.session.seed(),
                &e,
            ));
        }
        let game = self.session.game();
        let how_far = if game.is_over() {
            "the whole game".to_string()
        } else {
            let whole = self.session.whole_turns();
            let placements = self.session.decisions()[..whole]
                .iter()
                .filter(|d| matches!(d.choice, Choice::Place { .. }))
                .count();
            format!("the game so far ({placements} tiles placed in whole turns; a record ends between turns)")
        };
        say(&format!(
            "record: {how_far} written to {}; replay it with {}\n",
            self.record.display(),
            self.replay_command()
        ));
        Ok(())
    }

    /// Plays until the game ends or a person stops; an agent's or a rule's
    /// failure is an error.
    fn run(&mut self, input: &mut dyn BufRead) -> Result<(), String> {
        loop {
            self.agents_play()?;
            let game = self.session.game();
            let Some(player) = game.deciding_player() else {
                self.tell_events();
                say(&self.final_scores());
                return Ok(());
            };
            self.keep_snapshot();
            self.tell_events();
            self.hand_over(player, input);
            say(&self.screen(player));
            if !self.ask(player, input) {
                if let Some(failure) = self.failure.take() {
                    return Err(failure);
                }
                say(&format!("{} stops the game.\n", self.labels[player.index()]));
                return Ok(());
            }
        }
    }

    /// Keeps the record as it stands for Ctrl-C.
    fn keep_snapshot(&self) {
        if let Ok(mut s) = self.snapshot.lock() {
            *s = self.record_text().ok();
        }
    }

    /// Lets agents answer every decision that is theirs, announcing each.
    fn agents_play(&mut self) -> Result<(), String> {
        while let Some(player) = self.session.game().deciding_player() {
            if self.session.is_human(player) {
                return Ok(());
            }
            self.tell_events();
            let game = self.session.game().clone();
            let decided = self
                .session
                .play_agent()
                .map_err(|e| format!("{} cannot go on: {e}", self.labels[player.index()]))?
                .cloned();
            if self.session.whole_turns() == self.session.decisions().len() {
                // Between turns the record is the game itself: cheap to keep.
                self.keep_snapshot();
            }
            if let Some(d) = decided.filter(|d| seen_at_the_table(d.choice)) {
                self.announce(&format!(
                    "{}: {}   [{}]\n",
                    self.labels[player.index()],
                    choice_words(&game, d.choice, &self.names),
                    d.text
                ));
            }
        }
        Ok(())
    }

    /// In hot-seat, when another person is to answer: on a terminal the
    /// last person reads what their move did and presses Enter, the
    /// screen and its scrollback (with their hand) are cleared, and the
    /// game waits until the next person presses Enter, then tells them the
    /// public facts they missed; on a pipe it only says whose turn it is.
    fn hand_over(&mut self, player: Player, input: &mut dyn BufRead) {
        let before = self.last_human.replace(player);
        if before.is_none_or(|p| p == player) {
            // Kept for the next person while this one plays on (all of
            // their turn); with one person at the table, never needed.
            let game = self.session.game();
            let people = (0..game.players())
                .filter(|&p| self.session.is_human(Player(p as u8)))
                .count();
            if before.is_none() || people < 2 {
                self.missed.clear();
            }
            return;
        }
        let name = self.names[player.index()].clone();
        if std::io::stdin().is_terminal() && std::io::stderr().is_terminal() {
            // The last person reads what their move did, then hides it:
            // the screen and the terminal's scrollback (`ESC[3J`), which
            // would still show their hand.
            let last = before.map_or("", |p| self.names[p.index()].as_str());
            say(&format!(
                "{last}: press Enter to hide your screen and hand over to {name}."
            ));
            let mut line = String::new();
            let _ = input.read_line(&mut line);
            say(&format!(
                "\x1b[H\x1b[2J\x1b[3J{name}: your turn. Press Enter when only you can see the screen."
            ));
            line.clear();
            let _ = input.read_line(&mut line);
            // What happened since they last looked, public facts only.
            say(&self.missed);
        } else {
            say(&format!("-- {name}, your turn --\n"));
        }
        self.missed.clear();
    }

    /// Tells what the log says happened since it was last told: points
    /// scored, cards drawn (by their deck) and discarded (face up), and
    /// tiles that fit nowhere (public facts only).
    fn tell_events(&mut self) {
        let game = self.session.game();
        let pack = &game.rules().pack;
        let mut out = String::new();
        for event in game.log().get(self.told..).unwrap_or_default() {
            match event {
                Event::Scored { player, points, reason } if *points != 0 => {
                    let _ = writeln!(
                        out,
                        "  {} scores {points} ({})",
                        self.names[player.index()],
                        pack.reasons.get(*reason as usize).map_or("?", String::as_str)
                    );
                }
                // A card's back shows its deck, not the card: the one who
                // drew it reads it in their hand.
                Event::CardDrawn { player, card } => {
                    let deck = pack.program.deck_of(*card);
                    let _ = writeln!(
                        out,
                        "  {} draws a card from {}",
                        self.names[player.index()],
                        pack.program
                            .decks
                            .get(usize::from(deck))
                            .map_or("?", |d| d.name.as_str())
                    );
                }
                // Cards are discarded face up: a card played, resolved
                // as drawn, or discarded down to the hand limit.
                Event::CardDiscarded { player, card } => {
                    let _ = writeln!(
                        out,
                        "  {} discards the card {}",
                        self.names[player.index()],
                        pack.program.cards.get(*card as usize).map_or("?", |c| c.name.as_str())
                    );
                }
                Event::Discarded { tile, .. } => {
                    let _ = writeln!(
                        out,
                        "  tile {} fits nowhere and leaves the game; another is drawn",
                        pack.tiles[*tile as usize].name
                    );
                }
                _ => {}
            }
        }
        self.told = game.log().len();
        self.announce(&out);
    }

    /// Says `text`, a public fact, and keeps it for the next person in
    /// hot-seat, who does not see it said.
    fn announce(&mut self, text: &str) {
        say(text);
        self.missed.push_str(text);
    }

    /// Reads lines until one decides (true) or the person stops (false).
    fn ask(&mut self, player: Player, input: &mut dyn BufRead) -> bool {
        loop {
            say(&format!("{}> ", self.names[player.index()]));
            let mut bytes = Vec::new();
            match input.read_until(b'\n', &mut bytes) {
                Ok(0) => {
                    say("\n(end of input)\n");
                    return false;
                }
                Ok(_) => {}
                Err(e) => {
                    self.failure = Some(format!("cannot read the input: {e}"));
                    return false;
                }
            }
            // A line that is not text is refused, and the next one read.
            let Ok(line) = String::from_utf8(bytes) else {
                say("\nthat line is not text (UTF-8); type the number of a move, or ? for help\n");
                continue;
            };
            if !std::io::stdin().is_terminal() {
                // A pipe's answers are not echoed: show them beside the prompt.
                say(&line);
            }
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let game = self.session.game();
            let options = game.options();
            let answer = match line.to_ascii_lowercase().as_str() {
                "u" | "undo" => Ok(Line::Undo),
                "?" | "h" | "help" => Ok(Line::Help),
                "b" | "board" => Ok(Line::Board),
                "q" | "quit" | "exit" => Ok(Line::Quit),
                _ => match line.parse::<usize>() {
                    Ok(n) if (1..=options.len()).contains(&n) => Ok(Line::Move(options[n - 1])),
                    Ok(n) => Err(format!(
                        "there is no move {n}; the moves are numbered 1 to {}",
                        options.len()
                    )),
                    // A number too big to read is no move either.
                    Err(_) if line.bytes().all(|b| b.is_ascii_digit()) => Err(format!(
                        "there is no move {}; the moves are numbered 1 to {}",
                        shortened(line),
                        options.len()
                    )),
                    Err(_) => read_move(game, line).map(Line::Move).map_err(|e| e.to_string()),
                },
            };
            match answer {
                Ok(Line::Move(choice)) => {
                    let before = game.clone();
                    match self.session.decide(choice) {
                        Ok(d) => {
                            let text = d.text.clone();
                            let said = format!(
                                "{}: {}   [{text}]\n",
                                self.labels[player.index()],
                                choice_words(&before, choice, &self.names)
                            );
                            // A card picked is the picker's secret: said
                            // to them, not kept for the next person.
                            if seen_at_the_table(choice) {
                                self.announce(&said);
                            } else {
                                say(&said);
                            }
                            return true;
                        }
                        Err(e) if e.kind().is_rule_failure() => {
                            self.failure =
                                Some(format!("a rule failed after that move, so the game cannot go on: {e}"));
                            return false;
                        }
                        Err(e) => say(&format!("refused: {e}\n(type a number from the list, or ? for help)\n")),
                    }
                }
                Ok(Line::Undo) if !self.session.decisions().iter().any(|d| d.player == player) => say(&format!(
                    "nothing to undo: {} has made no decision yet\n",
                    self.names[player.index()]
                )),
                Ok(Line::Undo) => match self.session.undo(player) {
                    Ok(undone) => {
                        let moves: Vec<String> = undone
                            .iter()
                            .filter(|d| d.player == player || seen_at_the_table(d.choice))
                            .map(|d| format!("{}: {}", self.names[d.player.index()], d.text))
                            .collect();
                        say(&format!("undone: {}\n", moves.join("; ")));
                        if undone.iter().any(|d| d.turn != undone[0].turn) {
                            say(
                                "note: the game is played again from its seed, so the tiles and cards drawn \
                                 since come again in the same order\n",
                            );
                        }
                        self.told = self.session.game().log().len();
                        return true;
                    }
                    Err(e) => say(&format!("cannot undo: {e}\n")),
                },
                Ok(Line::Help) => say(HELP),
                Ok(Line::Board) => {
                    let game = self.session.game();
                    say(&draw::board_map(game));
                    say(&draw::legend(&game.rules().pack, Some(&self.names), false));
                }
                Ok(Line::Quit) => return false,
                Err(why) => say(&format!(
                    "refused: {why}\n(type a number from the list, or ? for help)\n"
                )),
            }
        }
    }

    /// What `player` sees at their decision: the board around the action,
    /// the legend, scores, supplies, their hand, the drawn tile and the
    /// numbered moves. Drawn from the player's view, so nothing hidden shows.
    fn screen(&self, player: Player) -> String {
        let real = self.session.game();
        let Some(view) = real.view_for(player) else {
            return String::new();
        };
        let game: &Game = &view;
        let rules = game.rules();
        let pack = &rules.pack;
        let me = &self.labels[player.index()];
        let mut out = String::new();
        let decision = real.decision();
        let asks = match decision {
            Some(Decision::Place { tile, .. }) => format!("place tile {}", pack.tiles[tile as usize].name),
            Some(Decision::Deploy { .. }) => "deploy a figure on the tile just placed, or not".to_string(),
            Some(Decision::Choose { domain, optional, .. }) => match real.question() {
                Some((span, true)) => format!("a rule asks, yes or no: {}", rule_text(pack, span)),
                Some((span, false)) => {
                    let may = if optional { " (or decline)" } else { "" };
                    format!(
                        "answer a rule: choose {}{may}: {}",
                        domain_words(game, domain),
                        rule_text(pack, span)
                    )
                }
                None => {
                    let may = if optional { " (or decline)" } else { "" };
                    format!("answer a rule: choose {}{may}", domain_words(game, domain))
                }
            },
            None => "nothing".to_string(),
        };
        let _ = writeln!(
            out,
            "\n== turn {} · {me}: {asks} · {} tiles left ==",
            game.turn(),
            game.tiles_left()
        );
        let options = real.options();
        let marks: Vec<(i32, i32)> = options
            .iter()
            .filter_map(|c| match c {
                Choice::Place { pos, .. } => Some(*pos),
                _ => None,
            })
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let centre = game
            .placed_tile()
            .or_else(|| {
                game.board()
                    .placed
                    .len()
                    .checked_sub(1)
                    .map(|i| crate::engine::PlacedId(i as u16))
            })
            .map_or((0, 0), |p| game.board().placed[p.index()].pos);
        out += &draw::board_around(game, centre, &marks);
        out += &draw::legend(pack, Some(&self.names), !marks.is_empty());
        let scores: Vec<String> = self
            .labels
            .iter()
            .zip(game.scores())
            .map(|(l, s)| format!("{l} {s}"))
            .collect();
        let _ = writeln!(out, "scores: {}", scores.join(" · "));
        let supplies: Vec<String> = (0..game.players())
            .map(|p| {
                let figures: Vec<String> = pack
                    .figures
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| f.ownership == Ownership::PerPlayer)
                    .map(|(f, fig)| {
                        let n = game.supply(Player(p as u8), f as u16).unwrap_or(0);
                        format!("{n} {}", fig.name)
                    })
                    .collect();
                format!("{}: {}", self.names[p], figures.join(", "))
            })
            .collect();
        let _ = writeln!(out, "supply: {}", supplies.join(" · "));
        if !pack.program.cards.is_empty() {
            let own: Vec<&str> = game
                .hand(player)
                .unwrap_or_default()
                .iter()
                .map(|c| pack.program.cards[*c as usize].name.as_str())
                .collect();
            let others: Vec<String> = (0..game.players())
                .filter(|p| *p != player.index())
                .map(|p| {
                    let n = game.hand(Player(p as u8)).map_or(0, <[_]>::len);
                    format!("{} holds {n}", self.names[p])
                })
                .collect();
            let own = if own.is_empty() {
                "no cards".to_string()
            } else {
                own.join(", ")
            };
            let _ = writeln!(out, "your hand: {own} · {}", others.join(" · "));
        }
        if let Some(Decision::Place { tile, .. }) = decision {
            let t = &pack.tiles[tile as usize];
            let _ = writeln!(
                out,
                "tile {} (x{} in the set), as it lies at each rotation:",
                t.name, t.count
            );
            out += &draw::tile_rotations(rules, tile);
        }
        let _ = writeln!(
            out,
            "moves (type the number, or the move as a record writes it, in brackets):"
        );
        let width = options.len().to_string().len();
        for (i, &choice) in options.iter().enumerate() {
            let words = choice_words(real, choice, &self.names);
            let text = move_text(real, choice).unwrap_or_default();
            let _ = writeln!(out, "  {:>width$}. {words:<40} [{text}]", i + 1);
        }
        out += "(u undo · b board · ? help · q quit)\n";
        out
    }

    /// Every player's score and points by reason, at the end.
    fn final_scores(&self) -> String {
        let game = self.session.game();
        let pack = &game.rules().pack;
        let mut out = String::from("\nthe game is over. final scores:\n");
        for (p, label) in self.labels.iter().enumerate() {
            let reasons: Vec<String> = (0..pack.reasons.len())
                .filter_map(|r| {
                    let points = game.points(Player(p as u8), r as u16)?;
                    (points != 0).then(|| format!("{} {points}", pack.reasons[r]))
                })
                .collect();
            let _ = writeln!(out, "  {label:<20} {:>4}   {}", game.scores()[p], reasons.join(", "));
        }
        out
    }
}

/// What a rule's `choose` ranges over, in words.
fn domain_words(game: &Game, domain: Domain) -> String {
    let pack = &game.rules().pack;
    match domain {
        Domain::Players => "a player".to_string(),
        Domain::Tiles => "a tile".to_string(),
        Domain::Figures(None) => "a figure".to_string(),
        Domain::Figures(Some(f)) => format!("a {}", pack.figures[f as usize].name),
        Domain::Features(None) => "a feature".to_string(),
        Domain::Features(Some(k)) => format!("a {}", pack.kinds[k as usize].name),
        Domain::Cards => "a card from your hand".to_string(),
        Domain::Squares => "a square next to the board".to_string(),
        Domain::Directions => "a direction".to_string(),
        Domain::Options => "one of the options".to_string(),
    }
}

const HELP: &str = "\
Answer with the number of a move, or type the move as a record writes it
(shown in brackets beside each move; docs/records.md has the format):
  at: (1, 0), rot: 90           place the drawn tile at x 1, y 0 (y grows to the
                                south, the start tile is at (0, 0)), turned 90°
                                clockwise (0, 90, 180 or 270)
  deploy: (on: \"E\")             put a figure on the placed tile's segment at E
                                (an edge N E S W, a half-edge NL..WR, or a kind);
                                deploy: (figure: \"NAME\", on: \"E\") names the figure
  deploy: None                  put no figure
  Feature(at: (1, 0), on: \"N\")  answers to a rule's question, and actions:
  Decline  Option(\"NAME\")       Figure(...), Tile(at: ...), Square(at: ...),
  Action(name: \"NAME\")          Player(N), Card(\"NAME\")
A move the rules refuse is refused with the reason, and you are asked again.
Commands:
  u, undo    take back your last decision (and the other players' moves after it);
             the game is played again from its seed, so what was drawn since
             comes again in the same order: undo shows what comes next
  b, board   draw the whole board
  ?, help    this text
  q, quit    stop the game; its record so far is written (also at the end of
             the input, and on Ctrl-C)
";

/// Whether an agent's answer is seen at the table and so announced: a
/// placement, a deployment, an action, a pick of anything but a card.
/// Declining a rule's question, or picking a card from a hand, can tell
/// what the hand holds (a rule may ask only a player who holds a card),
/// so those are kept quiet; what they do shows in the log.
fn seen_at_the_table(choice: Choice) -> bool {
    !matches!(choice, Choice::Decline | Choice::Pick(Target::Card(_)))
}

/// `text` as a message quotes it: at most 40 characters.
fn shortened(text: &str) -> String {
    if text.chars().count() > 40 {
        text.chars().take(39).collect::<String>() + "…"
    } else {
        text.to_string()
    }
}

/// A move in words, as the screen lists it; a yes-or-no question's
/// answers are "yes" and "no" (its one option names the player asked).
fn choice_words(game: &Game, choice: Choice, names: &[String]) -> String {
    match (game.question(), choice) {
        (Some((_, true)), Choice::Pick(_)) => "yes".to_string(),
        (Some((_, true)), Choice::Decline) => "no".to_string(),
        _ => move_words(game, choice, names),
    }
}

/// The rule a question comes from, as written (on one line, at most 72
/// characters), and where: `may { draw card from the deck } (rules/my_pack.rules:54)`.
fn rule_text(pack: &crate::ir::RulePack, span: crate::source::Span) -> String {
    let words: Vec<&str> = pack.sources().slice(span).split_whitespace().collect();
    let mut text = words.join(" ");
    if text.chars().count() > 72 {
        text = text.chars().take(71).collect::<String>() + "…";
    }
    format!("{text} ({})", pack.locate(span))
}

#[cfg(test)]
mod hidden_tests {
    use super::*;

    #[test]
    fn declines_and_card_picks_are_not_announced() {
        assert!(!seen_at_the_table(Choice::Decline));
        assert!(!seen_at_the_table(Choice::Pick(Target::Card(3))));
        assert!(seen_at_the_table(Choice::Pass));
        assert!(seen_at_the_table(Choice::Pick(Target::Feature(0))));
    }
}
