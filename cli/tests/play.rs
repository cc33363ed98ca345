//! `meeple play` end to end through a pipe, as a script or a person at a
//! terminal would play it: moves by number or typed as records write them,
//! illegal moves refused with the reason, undo, the record written at the
//! end, on quit, at the end of the input and on Ctrl-C, and replayable; and
//! the legend beside every board and tile sheet.

use std::io::{BufRead, BufReader, Read, Write};
#[path = "../../tests/common/scratch.rs"]
mod scratch;

use scratch::Scratch;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

/// A fresh folder for one test, removed when it passes.
fn scratch(name: &str) -> Scratch {
    Scratch::new("meeple-play", name)
}

fn text(path: &Path) -> &str {
    path.to_str().expect("temporary paths are UTF-8")
}

/// `meeple play ARGS` with `input` piped to its stdin, run in `dir`.
fn play(dir: &Path, args: &[&str], input: impl AsRef<[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_meeple"))
        .arg("play")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("meeple runs");
    // The game may end before it reads everything: a closed pipe is fine.
    let _ = child.stdin.take().expect("piped").write_all(input.as_ref());
    child.wait_with_output().expect("meeple ends")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `meeple replay RECORD --json`, which must succeed.
fn replay_json(record: &Path) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_meeple"))
        .args(["replay", text(record), "--json"])
        .output()
        .expect("meeple runs");
    assert!(out.status.success(), "the record replays: {}", stderr(&out));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

#[test]
fn a_scripted_human_answering_1_finishes_a_whole_game_against_a_bot() {
    let dir = scratch("whole");
    let out = play(&dir, &["--seed", "4", "--seats", "human,greedy"], "1\n".repeat(500));
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("the game is over. final scores:"), "{err}");
    // The default record: in the current folder, named by the seed.
    let record = dir.join("meeple-game-4.ron");
    assert!(
        err.contains("record: the whole game written to meeple-game-4.ron"),
        "{err}"
    );
    let replayed = replay_json(&record);
    assert_eq!(replayed["over"], true);
    assert_eq!(replayed["tiles_placed"], 72, "every tile of the base game is placed");
    // The bot's moves were announced in the game's words and a record's.
    assert!(err.contains("Player 2 (greedy): place "), "{err}");
    assert!(err.contains("[at: ("), "{err}");
}

#[test]
fn a_human_typing_the_moves_as_shown_plays_them() {
    // A person at a terminal: read the screen, type the first move's
    // bracketed form, again and again, then quit.
    let dir = scratch("typed");
    let mut child = Command::new(env!("CARGO_BIN_EXE_meeple"))
        .args(["play", "--seed", "9", "--rules", "base,abbot", "--record", "typed.ron"])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("meeple runs");
    let mut screen = Screen::new(&mut child);
    let mut input = child.stdin.take().expect("piped");
    let mut typed = Vec::new();
    for _ in 0..12 {
        let shown = screen.until_prompt();
        let first = shown
            .lines()
            .find(|l| l.trim_start().starts_with("1. "))
            .unwrap_or_else(|| panic!("the moves are listed:\n{shown}"));
        let form = first[first.rfind('[').unwrap() + 1..first.rfind(']').unwrap()].to_string();
        writeln!(input, "{form}").unwrap();
        typed.push(form);
    }
    writeln!(input, "quit").unwrap();
    drop(input);
    let rest = screen.rest();
    assert!(child.wait().unwrap().success(), "{rest}");
    // Each typed move was played, and announced with its typed form.
    let played: Vec<&str> = screen
        .seen
        .lines()
        .filter(|l| l.starts_with("Player 1 (you): "))
        .collect();
    assert_eq!(played.len(), typed.len(), "{}", screen.seen);
    for (line, form) in played.iter().zip(&typed) {
        assert!(line.ends_with(&format!("   [{form}]")), "`{line}` announces `{form}`");
    }
    assert!(
        typed.iter().any(|t| t.starts_with("at: (")),
        "placements typed: {typed:?}"
    );
    assert!(
        typed.iter().any(|t| t.starts_with("deploy: ")),
        "deployments typed: {typed:?}"
    );
    let replayed = replay_json(&dir.join("typed.ron"));
    assert_eq!(replayed["over"], false);
}

/// A child's stderr read up to each prompt, with no timing: reads block
/// until the game has written its prompt.
struct Screen {
    err: BufReader<std::process::ChildStderr>,
    /// Everything read so far.
    seen: String,
}

impl Screen {
    fn new(child: &mut Child) -> Screen {
        Screen {
            err: BufReader::new(child.stderr.take().expect("piped")),
            seen: String::new(),
        }
    }

    /// What the game writes up to its next prompt ("Player N> ").
    fn until_prompt(&mut self) -> String {
        let mut shown = String::new();
        loop {
            let mut chunk = Vec::new();
            let n = self.err.read_until(b'>', &mut chunk).expect("stderr reads");
            assert!(n > 0, "the game ended before asking:\n{shown}");
            shown.push_str(&String::from_utf8_lossy(&chunk));
            let last_line = shown.rsplit('\n').next().unwrap_or("");
            if last_line.starts_with("Player ") && last_line.ends_with('>') {
                self.seen.push_str(&shown);
                return shown;
            }
        }
    }

    /// Everything until the game ends.
    fn rest(&mut self) -> String {
        let mut rest = String::new();
        self.err.read_to_string(&mut rest).expect("stderr reads");
        self.seen.push_str(&rest);
        rest
    }
}

#[test]
fn an_illegal_typed_move_is_refused_with_the_reason_and_asked_again() {
    let dir = scratch("illegal");
    let out = play(
        &dir,
        &["--seed", "3", "--record", "g.ron"],
        "at: (5, 5), rot: 0\nat: (1, 0), rot: 90\nFeature(at: (0, 0), on: \"N\")\n7 7\n99\n1\nq\n",
    );
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    // Not next to the board; a road meeting a field; not the question asked;
    // not a move at all; no such number.
    for reason in [
        "refused: tile U at (5, 5) rot 0: it touches no placed tile",
        "refused: tile U at (1, 0) rot 90: its west edge (field) meets a road",
        "refused: `Feature(at: (0, 0), on: \"N\")` answers a rule's question, but the game asks for a placement, typed `at: (x, y), rot: DEGREES` (or an action)",
        "refused: `7 7` is not a move; type the number of a move, or the move as shown",
        "refused: there is no move 99; the moves are numbered 1 to 3",
    ] {
        assert!(err.contains(reason), "`{reason}` in:\n{err}");
    }
    // Asked again each time, and the game went on with the legal move.
    assert_eq!(err.matches("Player 1> ").count(), 7, "{err}");
    let placed = err
        .find("Player 1 (you): place U at (1, 0) turned 0°")
        .expect("the legal move is played");
    assert!(err.rfind("refused:").unwrap() < placed, "{err}");
    assert_eq!(replay_json(&dir.join("g.ron"))["tiles_placed"], 1, "no whole turn yet");
}

#[test]
fn undo_takes_back_the_humans_last_move_and_the_bots_after_it() {
    let dir = scratch("undo");
    // Place, no figure (the bot then plays its turn), undo: back to the deploy.
    let out = play(
        &dir,
        &["--seed", "3", "--record", "g.ron"],
        "1\n1\nu\n2\nu\nu\nu\n3\n1\nq\n",
    );
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    let undone: Vec<&str> = err.lines().filter(|l| l.contains("undone: ")).collect();
    assert_eq!(undone.len(), 3, "{err}");
    // The human's deploy and the greedy bot's whole turn after it.
    assert!(
        undone[0].ends_with("undone: Player 1: deploy: None; Player 2: at: (0, -1), rot: 180; Player 2: deploy: (figure: \"follower\", on: \"E\")"),
        "{}",
        undone[0]
    );
    // Then the deploy chosen instead (a follower), and the placement.
    assert!(
        undone[1].contains("undone: Player 1: deploy: (figure: \"follower\""),
        "{}",
        undone[1]
    );
    assert!(
        undone[2].ends_with("undone: Player 1: at: (1, 0), rot: 0"),
        "{}",
        undone[2]
    );
    assert!(
        err.contains("nothing to undo: Player 1 has made no decision yet"),
        "{err}"
    );
    // The game goes on from the first placement, with the third square.
    assert!(err.contains("Player 1 (you): place U at (-1, 0) turned 0°"), "{err}");
    let replayed = replay_json(&dir.join("g.ron"));
    assert_eq!(replayed["tiles_placed"], 3, "the start tile, the human's and the bot's");
}

#[test]
fn the_end_of_the_input_stops_the_game_and_writes_a_record_that_replays_as_far_as_it_went() {
    let dir = scratch("eof");
    // Place and pass (the bot plays its turn), then place: the input ends
    // in the middle of the turn.
    let out = play(&dir, &["--seed", "3", "--record", "g.ron"], "1\n1\n1\n");
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("(end of input)"), "{err}");
    assert!(
        err.contains(
            "record: the game so far (2 tiles placed in whole turns; a record ends between turns) written to g.ron"
        ),
        "{err}"
    );
    let replayed = replay_json(&dir.join("g.ron"));
    assert_eq!(replayed["over"], false);
    assert_eq!(replayed["tiles_placed"], 3, "the start tile and the two whole turns");
}

/// `meeple play --seed 3 --record RECORD` in `dir` through a pipe, the
/// human having placed and passed, and the bot played its turn: the human
/// is asked to place again.
#[cfg(unix)]
fn two_turns_played(dir: &Path, record: &str) -> (Child, Screen, std::process::ChildStdin) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_meeple"))
        .args(["play", "--seed", "3", "--record", record])
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("meeple runs");
    let mut screen = Screen::new(&mut child);
    let mut input = child.stdin.take().expect("piped");
    screen.until_prompt();
    writeln!(input, "1").unwrap();
    screen.until_prompt();
    writeln!(input, "1").unwrap();
    screen.until_prompt();
    (child, screen, input)
}

/// Ctrl-C to `child`; its exit status.
#[cfg(unix)]
fn interrupt(child: &mut Child) -> std::process::ExitStatus {
    let interrupted = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(interrupted.success());
    child.wait().unwrap()
}

#[cfg(unix)]
#[test]
fn ctrl_c_writes_the_record_of_the_game_so_far() {
    let dir = scratch("interrupt");
    let (mut child, mut screen, _input) = two_turns_played(&dir, "g.ron");
    let status = interrupt(&mut child);
    let rest = screen.rest();
    assert_eq!(status.code(), Some(130), "{rest}");
    assert!(
        rest.contains("interrupted: the game so far is recorded in g.ron"),
        "{rest}"
    );
    assert_eq!(replay_json(&dir.join("g.ron"))["tiles_placed"], 3);
}

#[test]
fn bad_seats_are_refused_with_the_fix() {
    let dir = scratch("seats");
    let out = play(&dir, &["--seats", "human,wizard"], "");
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("--seats: `wizard` is not a seat; a seat is human or an agent (random, greedy, ismcts)"),
        "{}",
        stderr(&out)
    );
    let out = play(&dir, &["--players", "3", "--seats", "human,greedy"], "");
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("--seats names 2 seat(s) but --players is 3: give one seat per player"),
        "{}",
        stderr(&out)
    );
    assert!(
        std::fs::read_dir(&dir).unwrap().next().is_none(),
        "no record is written"
    );
}

#[test]
fn agents_alone_play_a_game_with_no_input() {
    let dir = scratch("agents");
    let out = play(&dir, &["--seats", "random,greedy", "--record", "g.ron"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(replay_json(&dir.join("g.ron"))["over"], true);
}

#[test]
fn every_drawing_has_a_legend_made_from_the_packs() {
    let meeple = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_meeple"))
            .args(args)
            .output()
            .expect("meeple runs");
        assert!(out.status.success(), "{}", stderr(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let base = meeple(&["tiles", "base"]);
    assert!(base.starts_with("legend:"), "{base}");
    for entry in ["C city", "| = road", "M monastery", ". field", "* pennant"] {
        assert!(base.contains(entry), "`{entry}` in the legend");
    }
    // A pack's own kind comes with it: the abbot's gardens.
    assert!(!base.contains("garden"));
    assert!(meeple(&["tiles", "abbot"]).contains("G garden"));
    // A replayed board: the players' figures too.
    let dir = scratch("legend");
    let out = play(&dir, &["--seats", "random,random", "--record", "g.ron"], "");
    assert!(out.status.success());
    let board = meeple(&["replay", text(&dir.join("g.ron")), "--board"]);
    assert!(board.contains("legend:"), "{board}");
    assert!(
        board.contains("1 Player 1's figure") && board.contains("2 Player 2's figure"),
        "{board}"
    );
}

#[test]
fn hot_seat_shows_each_player_their_own_hand_and_the_others_only_as_counts() {
    let dir = scratch("hot-seat");
    let out = play(
        &dir,
        &[
            "--rules",
            "christmas_present",
            "--seats",
            "human,human",
            "--seed",
            "2",
            "--record",
            "g.ron",
        ],
        "1\n".repeat(3000),
    );
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    // Between two people the game says who sits down next (on a terminal
    // it also clears the screen and waits for Enter).
    assert!(
        err.contains("-- Player 2, your turn --") && err.contains("-- Player 1, your turn --"),
        "{err}"
    );
    // Each screen: a header naming whose decision it is, then that
    // player's hand and the other's card count.
    let mut whose = "";
    let mut own_cards = [false, false];
    for line in err.lines() {
        if let Some(header) = line.strip_prefix("== turn ") {
            whose = if header.contains("· Player 1 (human): ") {
                "Player 1"
            } else {
                "Player 2"
            };
        }
        if let Some(hand) = line.strip_prefix("your hand: ") {
            let other = if whose == "Player 1" { "Player 2" } else { "Player 1" };
            let (own, others) = hand.split_once(" · ").expect("own hand, then the others");
            assert!(others.starts_with(&format!("{other} holds ")), "{whose} sees `{line}`");
            assert!(!others.contains(','), "other hands only as counts: `{line}`");
            if own != "no cards" {
                own_cards[usize::from(whose == "Player 2")] = true;
            }
        }
    }
    assert_eq!(own_cards, [true, true], "both players held cards and saw them:\n{err}");
}

#[test]
fn a_rule_that_fails_stops_the_game_with_its_error_and_the_record_replays_up_to_before_it() {
    let dir = scratch("rule-fails");
    // Every payment pays again: the first placement runs away.
    std::fs::write(
        dir.join("echo.rules"),
        "pack echo\nrequires base\n\non tile_placed(t) {\n  score 1 to current_player reason \"x\"\n}\n\n\
         on points_scored(p, n) {\n  score 1 to p reason \"echo\"\n}\n",
    )
    .unwrap();
    let out = play(&dir, &["--rules", "echo.rules", "--record", "g.ron"], "1\n");
    let err = stderr(&out);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("error: a rule failed after that move, so the game cannot go on: "),
        "{err}"
    );
    assert!(err.contains("echo.rules:"), "the error names the rule: {err}");
    assert!(err.contains("written to g.ron"), "{err}");
    assert_eq!(
        replay_json(&dir.join("g.ron"))["tiles_placed"],
        1,
        "only the start tile"
    );
}

#[test]
fn a_record_that_cannot_be_written_is_refused_before_the_game() {
    let dir = scratch("unwritable");
    let out = play(
        &dir,
        &["--seed", "3", "--record", "no/such/folder/g.ron"],
        "1\n".repeat(200),
    );
    let err = stderr(&out);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("error: --record no/such/folder/g.ron: cannot write there"),
        "{err}"
    );
    assert!(!err.contains("meeple play:"), "no game starts: {err}");
    // The look at a writable place leaves nothing behind: a game that
    // cannot start writes no record.
    std::fs::write(
        dir.join("fails.rules"),
        "pack fails\nrequires base\n\nvar game zero: int = 0\n\non setup {\n  set zero = 1 / zero\n}\n",
    )
    .unwrap();
    let out = play(&dir, &["--rules", "base,fails.rules", "--record", "g.ron"], "q\n");
    let err = stderr(&out);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("division by zero"), "{err}");
    assert!(!dir.join("g.ron").exists(), "{err}");
}

#[cfg(unix)]
#[test]
fn a_record_that_cannot_be_written_at_the_end_is_kept_in_the_temporary_folder() {
    let dir = scratch("kept");
    std::fs::create_dir(dir.join("sub")).unwrap();
    let (mut child, mut screen, mut input) = two_turns_played(&dir, "sub/g.ron");
    // The folder goes away during the game.
    std::fs::remove_dir(dir.join("sub")).unwrap();
    writeln!(input, "q").unwrap();
    let status = child.wait().unwrap();
    let rest = screen.rest();
    assert!(!status.success(), "{rest}");
    assert!(rest.contains("cannot write the record sub/g.ron"), "{rest}");
    let kept = rest
        .split("the game is kept in ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .unwrap_or_else(|| panic!("where the game is kept: {rest}"));
    assert!(
        rest.contains(&format!("replay it with meeple replay {kept} --packs-dir sub")),
        "{rest}"
    );
    let kept = Path::new(kept.trim_end_matches(';'));
    assert_eq!(
        replay_json(kept)["tiles_placed"],
        3,
        "the start tile and the two whole turns"
    );
    std::fs::remove_file(kept).unwrap();
}

#[test]
fn a_line_that_is_not_text_is_refused_and_the_game_goes_on() {
    let dir = scratch("bytes");
    let mut input = b"1\n\xff\xfe\n".to_vec();
    input.extend("1\n".repeat(500).as_bytes());
    let out = play(&dir, &["--seed", "4", "--seats", "human,greedy"], input);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("that line is not text (UTF-8)"), "{err}");
    assert!(err.contains("the game is over. final scores:"), "{err}");
}

#[cfg(unix)]
#[test]
fn an_input_that_cannot_be_read_is_an_error() {
    let dir = scratch("unreadable");
    // A folder as stdin: reading it fails.
    let out = Command::new(env!("CARGO_BIN_EXE_meeple"))
        .args(["play", "--seed", "3", "--record", "g.ron"])
        .current_dir(&dir)
        .stdin(std::fs::File::open(&dir).unwrap())
        .output()
        .expect("meeple runs");
    let err = stderr(&out);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("error: cannot read the input:"), "{err}");
}

#[cfg(unix)]
#[test]
fn ctrl_c_keeps_the_record_in_the_temporary_folder_when_its_place_is_gone() {
    let dir = scratch("interrupt-kept");
    std::fs::create_dir(dir.join("sub")).unwrap();
    let (mut child, mut screen, _input) = two_turns_played(&dir, "sub/g.ron");
    std::fs::remove_dir(dir.join("sub")).unwrap();
    let status = interrupt(&mut child);
    let rest = screen.rest();
    assert_eq!(status.code(), Some(130), "{rest}");
    assert!(
        rest.contains("interrupted: cannot write the record sub/g.ron"),
        "{rest}"
    );
    let kept = rest
        .split("the game is kept in ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .unwrap_or_else(|| panic!("where the game is kept: {rest}"));
    assert_eq!(replay_json(Path::new(kept))["tiles_placed"], 3);
    std::fs::remove_file(kept).unwrap();
}

#[cfg(unix)]
#[test]
fn a_record_path_that_is_a_link_to_nowhere_stays_a_link() {
    let dir = scratch("link");
    std::os::unix::fs::symlink("target.ron", dir.join("link.ron")).unwrap();
    let out = play(&dir, &["--seed", "3", "--record", "link.ron"], "1\n1\nq\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let link = std::fs::symlink_metadata(dir.join("link.ron")).unwrap();
    assert!(link.file_type().is_symlink(), "the look left the link in place");
    assert_eq!(replay_json(&dir.join("target.ron"))["tiles_placed"], 3);
}

/// A `may` is asked as a yes-or-no question naming its rule, answered
/// "yes" or "no"; a card drawn is told by its deck (its back), not named.
#[test]
fn a_may_is_a_yes_or_no_question_naming_its_rule() {
    let dir = scratch("may");
    let args = [
        "--rules",
        "base,christmas_present",
        "--seed",
        "3",
        "--seats",
        "human,greedy",
    ];
    let out = play(&dir, &args, "1\n1\n1\nq\n");
    let err = stderr(&out);
    assert!(
        err.contains("a rule asks, yes or no: may { draw card from roadside } (rules/christmas_present.rules:"),
        "{err}"
    );
    assert!(err.contains("1. yes ") && err.contains("2. no "), "{err}");
    assert!(err.contains("Player 1 (you): yes   [Player(0)]"), "{err}");
    assert!(err.contains("Player 1 draws a card from roadside"), "{err}");
}

/// A move copied with its brackets is read; a typed move that is wrong is
/// refused in the words moves are typed in (not the program's type names);
/// a number too big to read is no move.
#[test]
fn typed_moves_are_read_with_brackets_and_refused_in_move_words() {
    let dir = scratch("typed");
    let out = play(
        &dir,
        &["--seed", "7"],
        "rot: 0\nat: (1, 0)\n99999999999999999999999999\n[at: (1, 0), rot: 0]\nq\n",
    );
    let err = stderr(&out);
    assert!(err.contains("no move starts with `rot`"), "{err}");
    assert!(err.contains("`rot` is missing"), "{err}");
    assert!(!err.contains("Pick") && !err.contains("PlaceText"), "{err}");
    assert!(
        err.contains("there is no move 99999999999999999999999999; the moves are numbered 1 to"),
        "{err}"
    );
    assert!(err.contains("Player 1 (you): place U at (1, 0) turned 0°"), "{err}");
}
