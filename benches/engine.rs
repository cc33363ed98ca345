//! Engine throughput: `cargo bench --bench engine`.
//! Complete random 2-player base games per second on one thread, and game
//! state clones per second (mid-game, as a search would clone). Each figure
//! is the median of several rounds.

use meeple::agents::{play, Agent, RandomAgent};
use meeple::engine::{Choice, Game, Rules, Setup};
use meeple::{load, PackRef};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn random_game(rules: &Arc<Rules>, seed: u64, logging: bool) -> Game {
    let mut game = Game::new(rules.clone(), Setup::new(2).seed(seed)).expect("base sets up");
    game.set_logging(logging);
    let mut agents: Vec<Box<dyn Agent>> = vec![
        Box::new(RandomAgent::new(seed ^ 1)),
        Box::new(RandomAgent::new(seed ^ 2)),
    ];
    play(&mut game, &mut agents).expect("random games finish");
    game
}

fn main() {
    let rules = Arc::new(Rules::new(
        load(&[PackRef::Bundled("base".into())]).expect("base loads"),
    ));
    let rounds = 7;
    let games_per_round = 2000;
    for logging in [false, true] {
        let rates: Vec<f64> = (0..rounds)
            .map(|r| {
                let start = Instant::now();
                for g in 0..games_per_round {
                    black_box(random_game(&rules, (r * games_per_round + g) as u64, logging));
                }
                games_per_round as f64 / start.elapsed().as_secs_f64()
            })
            .collect();
        let label = if logging { "with event log" } else { "without log" };
        println!(
            "random 2-player base games/s ({label}): median {:.0} over {rounds} rounds of {games_per_round}",
            median(rates)
        );
    }

    // A mid-game state: play 35 turns of a random game.
    let mut game = Game::new(rules.clone(), Setup::new(2).seed(7)).expect("base sets up");
    let mut agent = RandomAgent::new(3);
    let mut options: Vec<Choice> = Vec::new();
    while game.board().tiles().len() < 36 {
        game.options_into(&mut options);
        let choice = agent.choose(&game, &options).expect("random agents always choose");
        game.apply(choice).expect("options are legal");
    }
    let clones = 100_000;
    for (label, search) in [("Game::clone", false), ("Game::search_clone", true)] {
        let rates: Vec<f64> = (0..rounds)
            .map(|_| {
                let start = Instant::now();
                for _ in 0..clones {
                    black_box(if search { game.search_clone() } else { game.clone() });
                }
                clones as f64 / start.elapsed().as_secs_f64()
            })
            .collect();
        println!("{label} per second at 36 tiles: median {:.0}", median(rates));
    }
}
