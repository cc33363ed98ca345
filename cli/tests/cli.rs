//! The `meeple` command as a person runs it: bad arguments are refused with
//! a message naming the fix, and a game stopped by a rule can be reproduced
//! from what `sim` prints.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn meeple(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_meeple"))
        .args(args)
        .output()
        .expect("meeple runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("meeple-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(path: &Path) -> String {
    path.to_str().expect("temporary paths are UTF-8").to_string()
}

#[test]
fn zero_games_are_refused() {
    let out = meeple(&["sim", "--games", "0"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("--games 0 plays nothing; give 1 or more"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn pack_lists_are_trimmed() {
    let out = meeple(&["sim", "--rules", "base, abbot", "--games", "1", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["rules"], serde_json::json!(["base", "abbot"]));
}

#[test]
fn a_folder_given_as_a_pack_is_called_a_folder() {
    let dir = scratch("folder-pack");
    std::fs::write(dir.join("mine.rules"), "pack mine\nrequires base\n").unwrap();
    // As a path, and as a bare name (which would otherwise name a bundled pack).
    let out = meeple(&["sim", "--rules", &text(&dir), "--games", "1"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("it is a folder, not a .rules file"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("mine.rules"), "{}", stderr(&out));
    // A bare name is a bundled pack's; run beside the folder, it is the folder.
    let bare = dir.file_name().unwrap().to_str().unwrap();
    let out2 = Command::new(env!("CARGO_BIN_EXE_meeple"))
        .args(["sim", "--rules", bare, "--games", "1"])
        .current_dir(dir.parent().unwrap())
        .output()
        .unwrap();
    assert!(!out2.status.success());
    assert!(
        stderr(&out2).contains(&format!("`{bare}` is a folder here, not a pack")),
        "{}",
        stderr(&out2)
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_record_dir_that_is_a_file_is_refused() {
    let dir = scratch("record-dir-file");
    let file = dir.join("not-a-folder");
    std::fs::write(&file, "").unwrap();
    let out = meeple(&["sim", "--games", "1", "--record-dir", &text(&file)]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("is a file, not a folder; name a folder"),
        "{}",
        stderr(&out)
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// A pack whose rule fails in some games only: a division by zero once a
/// player ends a turn with more than 5 points.
const FLAKY: &str = "pack flaky\nrequires base\n\nvar game zero: int = 0\n\n\
                     on turn_end(p) when p.score > 5 {\n  set zero = 1 / zero\n}\n";

/// The value after `label` on its line of `text`.
fn after<'a>(text: &'a str, label: &str) -> &'a str {
    let line = text
        .lines()
        .find(|l| l.contains(label))
        .unwrap_or_else(|| panic!("no `{label}` in:\n{text}"));
    line.split_once(label).unwrap().1.trim()
}

#[test]
fn a_game_stopped_by_a_rule_writes_its_record_and_a_command_that_plays_it_again() {
    let dir = scratch("stopped");
    let pack = dir.join("flaky.rules");
    std::fs::write(&pack, FLAKY).unwrap();
    let first = dir.join("first");
    let out = meeple(&[
        "sim",
        "--rules",
        &text(&pack),
        "--games",
        "20",
        "--seed",
        "1",
        "--record-dir",
        &text(&first),
    ]);
    assert!(!out.status.success());
    let message = stderr(&out);
    let stopped = after(&message, "error: game ");
    let (game, error) = stopped.split_once(" stopped: ").unwrap();
    assert!(error.starts_with("division by zero in the rule at"), "{message}");
    let record = PathBuf::from(after(&message, "its record:"));
    assert_eq!(
        record,
        first.join(format!("game-{:05}.ron", game.parse::<usize>().unwrap()))
    );
    // The pack lies outside the record's folder, and a record reads only its
    // folder and those the command names.
    assert_eq!(
        after(&message, "replay it:"),
        format!("meeple replay --packs-dir {} {}", dir.display(), record.display())
    );

    // The record replays to the rule's failure, by the printed command.
    let out = meeple(&["replay", &text(&record)]);
    assert!(stderr(&out).contains("No such file"), "{}", stderr(&out));
    let out = meeple(&["replay", "--packs-dir", &text(&dir), &text(&record)]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("division by zero in the rule at"),
        "{}",
        stderr(&out)
    );

    // The printed command plays the same game again: same error, same record.
    let again = after(&message, "play it again: meeple ");
    let mut args: Vec<String> = again.split(' ').map(str::to_string).collect();
    assert!(args.ends_with(&["--games".to_string(), "1".to_string()]), "{again}");
    let second = dir.join("second");
    args.extend(["--record-dir".to_string(), text(&second)]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = meeple(&args);
    assert!(!out.status.success());
    let message2 = stderr(&out);
    assert!(message2.contains(&format!("game 0 stopped: {error}")), "{message2}");
    assert_eq!(
        std::fs::read_to_string(&record).unwrap(),
        std::fs::read_to_string(second.join("game-00000.ron")).unwrap()
    );

    // Without --record-dir, the record goes to a temporary file that replays.
    let out = meeple(&["sim", "--rules", &text(&pack), "--games", "20", "--seed", "1"]);
    let message3 = stderr(&out);
    let temporary = PathBuf::from(after(&message3, "its record:"));
    assert!(temporary.starts_with(std::env::temp_dir()), "{message3}");
    let command = after(&message3, "replay it: meeple ");
    let args: Vec<&str> = command.split(' ').collect();
    let out = meeple(&args);
    assert!(
        stderr(&out).contains("division by zero in the rule at"),
        "{}",
        stderr(&out)
    );
    std::fs::remove_file(temporary).unwrap();
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_record_that_fails_as_it_says_replays_with_success() {
    let out = meeple(&["replay", "../tests/scenarios/base/illegal_edge_mismatch.ron"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("its south edge (road) meets a city"),
        "{}",
        stdout(&out)
    );
    assert!(
        stdout(&out).contains("the record fails as its `fails` expects"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_misspelt_record_field_is_an_error() {
    let dir = scratch("typo");
    let record = dir.join("typo.ron");
    std::fs::write(
        &record,
        "Record(rules: [\"base\"], players: [\"Red\"], turns: [], expects: [Scores([99])])\n",
    )
    .unwrap();
    let out = meeple(&["replay", &text(&record)]);
    assert!(!out.status.success());
    assert_eq!(
        stderr(&out),
        format!(
            "error: {}:1:54: `expects` is not a field in `Record`; did you mean `expect`? (records are RON, see docs/records.md)\n",
            record.display()
        )
    );
    let out = meeple(&["replay", &text(&dir)]);
    assert!(
        stderr(&out).contains("it is a folder; name a record file"),
        "{}",
        stderr(&out)
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn statistics_of_scores_near_the_limit_do_not_wrap() {
    // Each game pays seat 0 about 2^62 points: four games sum past i64.
    let dir = scratch("huge");
    let pack = dir.join("huge.rules");
    std::fs::write(
        &pack,
        "pack huge\nrequires base\n\non setup {\n  score 1024 * 1024 * 1024 * 1024 * 1024 * 1024 * 4 to current_player reason \"huge\"\n}\n",
    )
    .unwrap();
    let out = meeple(&["sim", "--rules", &text(&pack), "--games", "4", "--seed", "1", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json = stdout(&out);
    assert!(json.contains("\"mean\": 4.611686018427388e+18"), "{json}");
    assert!(json.contains("\"huge\": 4.611686018427388e+18"), "{json}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// A record's packs may come from `--packs-dir` (and only from there or
/// its own folder).
#[test]
fn the_command_takes_a_packs_folder() {
    let base = scratch("packs-dir");
    let packs = base.join("packs");
    std::fs::create_dir_all(&packs).unwrap();
    std::fs::write(packs.join("theirs.rules"), "pack theirs\nrequires base\n").unwrap();
    let record = base.join("r.ron");
    std::fs::write(
        &record,
        "Record(rules: [\"theirs.rules\"], players: [\"A\"], turns: [], expect: [Scores([0])])",
    )
    .unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_meeple"))
            .arg("replay")
            .args(args)
            .arg(&record)
            .output()
            .unwrap()
    };
    assert!(!run(&[]).status.success());
    let out = run(&["--packs-dir", packs.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// `sim --json` without its timing field.
fn sim_json(args: &[&str]) -> serde_json::Value {
    let out = meeple(args);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    report.as_object_mut().unwrap().remove("seconds");
    report
}

#[test]
fn sim_gives_the_same_statistics_on_any_number_of_threads() {
    for (packs, players, games) in [
        ("base", "2", "40"),
        ("winter,gingerbread_man,abbot,the_gifts,christmas_present", "3", "30"),
    ] {
        let args = [
            "sim",
            "--rules",
            packs,
            "--players",
            players,
            "--games",
            games,
            "--agents",
            "random,greedy",
            "--json",
        ];
        let one = sim_json(&[&args[..], &["--threads", "1"]].concat());
        let four = sim_json(&[&args[..], &["--threads", "4"]].concat());
        assert_eq!(one, four, "{packs}");
    }
}

#[test]
fn bad_thread_counts_are_refused() {
    for (value, message) in [
        ("0", "0 threads play nothing; give 1 or more"),
        (
            "two",
            "`two` is not a number of threads; give a whole number, 1 or more",
        ),
        ("-1", "give a whole number, 1 or more"),
    ] {
        let out = meeple(&["sim", "--games", "1", &format!("--threads={value}")]);
        assert!(!out.status.success(), "--threads {value}");
        assert!(stderr(&out).contains(message), "--threads {value}: {}", stderr(&out));
    }
}

#[test]
fn a_stopped_game_is_the_same_on_any_number_of_threads() {
    // Fails in the games where someone passes 20 points before the end.
    let dir = scratch("stopped-threads");
    let pack = dir.join("flaky.rules");
    std::fs::write(&pack, FLAKY.replace("p.score > 5", "p.score > 20")).unwrap();
    let run = |threads: &str| {
        let records = dir.join(format!("threads-{threads}"));
        let out = meeple(&[
            "sim",
            "--rules",
            &text(&pack),
            "--games",
            "60",
            "--seed",
            "3",
            "--threads",
            threads,
            "--record-dir",
            &text(&records),
        ]);
        assert!(!out.status.success());
        let mut written: Vec<String> = std::fs::read_dir(&records)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        written.sort();
        let message = stderr(&out).replace(&text(&records), "RECORDS");
        (message, written)
    };
    let (message, written) = run("1");
    let game: usize = after(&message, "error: game ")
        .split_once(' ')
        .unwrap()
        .0
        .parse()
        .unwrap();
    assert!(game > 0, "a later game fails first: {message}");
    // The games before the failed one and the failed one, none after it.
    let expected: Vec<String> = (0..=game).map(|g| format!("game-{g:05}.ron")).collect();
    assert_eq!(written, expected);
    assert_eq!(run("4"), (message, written));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bench_quick_runs_every_row() {
    let out = meeple(&[
        "bench",
        "--quick",
        "--rounds",
        "1",
        "--seconds",
        "0.01",
        "--threads",
        "2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let table = stdout(&out);
    for row in [
        "random ",
        "greedy ",
        "search_clone at 36 tiles",
        "sim, 1 thread",
        "sim, 2 threads",
    ] {
        assert!(table.contains(row), "no `{row}` row in:\n{table}");
    }
    let out = meeple(&["bench", "--quick", "--rounds", "1", "--seconds", "0.01", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["rows"][0]["ratio"], serde_json::json!(1.0));
    let out = meeple(&["bench", "--seconds", "0"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--seconds must be"), "{}", stderr(&out));
}

/// `sim --json` figures of games played by the engine as it was before the
/// speed work of issue 13 (commit 8c373b3), in `tests/data/sim_golden/`:
/// however the engine evaluates rules, the same seeds give the same games.
#[test]
fn simulations_match_the_figures_recorded_before_the_speed_work() {
    let all = "winter,gingerbread_man,abbot,wind_roses,wind_roses_spielbox,the_gifts,christmas_present";
    let runs = [
        ("base", "base", "2", "100", "5"),
        ("seed_packs", all, "3", "40", "6"),
        ("big_boxes", "river,inns_cathedrals,traders_builders", "4", "40", "7"),
    ];
    let golden_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sim_golden");
    for (name, rules, players, games, seed) in runs {
        let out = meeple(&[
            "sim",
            "--rules",
            rules,
            "--players",
            players,
            "--games",
            games,
            "--seed",
            seed,
            "--agents",
            "random,greedy",
            "--json",
        ]);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        let now: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("sim --json prints JSON");
        let path = golden_dir.join(format!("{name}.json"));
        let golden: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("the golden file exists")).expect("JSON");
        for field in ["games", "players", "rules", "seats", "discarded_tiles_per_game"] {
            assert_eq!(
                now[field],
                golden[field],
                "{name}: `{field}` differs from {}",
                path.display()
            );
        }
    }
}

#[test]
fn tiles_svg_writes_one_picture_per_tile_type() {
    let dir = scratch("tiles-svg").join("pictures");
    let out = meeple(&["tiles", "base", "--svg", &text(&dir)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("wrote 24 tile pictures"), "{}", stdout(&out));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 24);
    assert_eq!(names[0], "A.svg");
    let d = std::fs::read_to_string(dir.join("D.svg")).unwrap();
    assert!(d.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""), "{d}");
    assert!(d.contains("<title>D</title>"));
}

#[test]
fn tiles_without_a_picture_flag_still_prints_text() {
    let out = meeple(&["tiles", "base"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("72 tiles in 24 types; start tile D"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn tiles_html_only_shows_the_tiles_the_named_packs_add() {
    let dir = scratch("tiles-html");
    let all = dir.join("all.html");
    let out = meeple(&["tiles", "river", "--html", &text(&all)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let page = std::fs::read_to_string(&all).unwrap();
    assert!(page.contains(r#"id="tile-R_spring""#) && page.contains(r#"id="tile-D""#));
    let only = dir.join("only.html");
    let out = meeple(&["tiles", "river", "abbot", "--html", &text(&only), "--only"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("gallery of 18 tile types"), "{}", stdout(&out));
    let page = std::fs::read_to_string(&only).unwrap();
    assert!(page.contains(r#"id="tile-R_spring""#) && page.contains(r#"id="tile-E_garden""#));
    assert!(!page.contains(r#"id="tile-D""#), "base's tiles are left out");
    // The segment names records use are listed.
    assert!(page.contains("<li>E: river</li>"), "R_spring's river is named");
}

#[test]
fn tiles_picture_flags_are_refused_with_the_fix() {
    let dir = scratch("tiles-bad");
    let page = text(&dir.join("g.html"));
    let cases: [(&[&str], &str); 4] = [
        (
            &["tiles", "the_gifts", "--html", &page, "--only"],
            "pack `the_gifts` adds no tiles of its own",
        ),
        (
            &["tiles", "base", "--only"],
            "--only chooses the tiles of --svg DIR or --html FILE",
        ),
        (&["tiles", "nopack", "--html", &page], "no pack named `nopack`"),
        (
            &["tiles", "base", "--html", "/nonexistent-folder/g.html"],
            "cannot write the file",
        ),
    ];
    std::fs::write(&page, "a file where a folder is wanted").unwrap();
    for (args, message) in cases {
        let out = meeple(args);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
    let out = meeple(&["tiles", "base", "--svg", &page]);
    assert!(stderr(&out).contains("it is a file, not a folder"), "{}", stderr(&out));
}

#[test]
fn a_sim_record_opens_in_the_replay_viewer_and_its_final_board_is_drawn() {
    let dir = scratch("replay-html");
    let records = dir.join("records");
    let out = meeple(&[
        "sim",
        "--rules",
        "base",
        "--games",
        "1",
        "--seed",
        "5",
        "--record-dir",
        &text(&records),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let record = records.join("game-00000.ron");
    let (page, board) = (dir.join("game.html"), dir.join("final.svg"));
    let out = meeple(&["replay", &text(&record), "--html", &text(&page), "--svg", &text(&board)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("wrote the replay viewer"), "{}", stdout(&out));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.contains("const DATA = "));
    let svg = std::fs::read_to_string(&board).unwrap();
    assert!(svg.starts_with("<svg"), "{svg}");
    // The scores printed are the final step's.
    let json = meeple(&["replay", &text(&record), "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let scores = report["scores"].as_array().unwrap();
    let data = html.split_once("const DATA = ").unwrap().1.split_once(";\n").unwrap().0;
    let data: serde_json::Value = serde_json::from_str(data).unwrap();
    let last = data["steps"].as_array().unwrap().last().unwrap().clone();
    for (p, score) in scores.iter().enumerate() {
        assert_eq!(&last["players"][p]["score"], score);
    }
    assert_eq!(last["over"], true);
}

#[test]
fn a_record_that_fails_as_it_says_has_no_game_to_draw() {
    let dir = scratch("replay-fails");
    let page = dir.join("g.html");
    let out = meeple(&[
        "replay",
        "../tests/scenarios/base/illegal_edge_mismatch.ron",
        "--html",
        &text(&page),
    ]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("there is no game to draw"), "{}", stderr(&out));
    assert!(!page.exists());
}
