//! Engine throughput: `cargo bench --bench engine`.
//! The benchmark suite (`benches/suite.txt`, measured by `meeple::bench` as
//! `meeple bench` measures it): games per second on one thread for each row
//! and its ratio to random 2-player base games, search clones per second at
//! mid-game, and sim on one thread against every core. Then two figures only
//! this bench shows: base games with the event log on, and `Game::clone`
//! against `Game::search_clone`. Each figure is the median of several rounds.

use meeple::bench::{
    clones_per_second, games_per_second, median, mid_game, parse_suite, rules_of, run, table_header, table_line,
    Settings, MID_GAME_TILES, SUITE,
};

fn main() {
    let settings = Settings::full();
    let cases = parse_suite(SUITE).expect("the suite reads");
    print!("{}", table_header());
    run(&cases, &settings, |row| print!("{}", table_line(row))).expect("the suite runs");

    let base = rules_of(&["base".into()]).expect("base loads");
    for logging in [false, true] {
        let rates = games_per_second(&base, 2, "random", logging, &settings).expect("random games finish");
        let label = if logging { "with event log" } else { "without log" };
        println!(
            "random 2-player base games/s ({label}): median {:.0} over {} rounds",
            median(&rates),
            settings.rounds
        );
    }
    let game = mid_game(&base, 2, MID_GAME_TILES).expect("base sets up");
    for (label, search) in [("Game::clone", false), ("Game::search_clone", true)] {
        let rates = clones_per_second(&game, search, &settings);
        println!(
            "{label} per second at {MID_GAME_TILES} tiles: median {:.0}",
            median(&rates)
        );
    }
}
