//! A game copied into another (`Game::search_clone_from`) plays on exactly
//! as the same game's `search_clone` does, whatever the copy held before:
//! a game of other rules, one further along (longer lists to cut back), one
//! just begun (shorter lists to grow), or one caught in a rule's choice.

use common::{bundled_rules as rules, ALL_SEED_PACKS};
use meeple::engine::{Choice, Decision, Game, Rng, Rules, Setup};
use std::sync::Arc;

mod common;

/// A game of `rules` after `moves` random decisions (fewer if it ends).
fn played(rules: &Arc<Rules>, players: usize, seed: u64, moves: usize) -> Game {
    let mut game = Game::new(rules.clone(), Setup::new(players).seed(seed)).expect("a game starts");
    let mut rng = Rng::new(seed ^ 0xc0b1);
    for _ in 0..moves {
        if game.decision().is_none() {
            break;
        }
        step_at_random(&mut game, &mut rng);
    }
    game
}

/// Takes one of the pending decision's options, picked by `rng`.
fn step_at_random(game: &mut Game, rng: &mut Rng) {
    let options = game.options();
    game.apply(options[rng.below(options.len())])
        .expect("an offered choice applies");
}

/// A game of `rules` played at random past `moves` decisions up to the
/// next one where a rule asks a player to choose (its frames and pending
/// choice are copied too); `None` when the game ends first.
fn played_to_a_choice(rules: &Arc<Rules>, players: usize, seed: u64, moves: usize) -> Option<Game> {
    let mut game = played(rules, players, seed, moves);
    let mut rng = Rng::new(seed ^ 0xc401);
    while game.decision().is_some() {
        if matches!(game.decision(), Some(Decision::Choose { .. })) {
            return Some(game);
        }
        step_at_random(&mut game, &mut rng);
    }
    None
}

/// Plays `a` and `b` on with the same random choices, asserting at every
/// decision that both offer the same choices, to the end: the same scores.
fn assert_play_alike(mut a: Game, mut b: Game, seed: u64, what: &str) {
    let mut rng = Rng::new(seed);
    let mut decisions = 0;
    while a.decision().is_some() {
        let options: Vec<Choice> = a.options();
        assert_eq!(options, b.options(), "{what}: decision {decisions}");
        let choice = options[rng.below(options.len())];
        a.apply(choice).expect("an offered choice applies");
        b.apply(choice).expect("the copy takes the same choice");
        decisions += 1;
    }
    assert!(b.decision().is_none(), "{what}: the copy's game goes on");
    assert_eq!(a.scores(), b.scores(), "{what}");
    assert_eq!(a.turn(), b.turn(), "{what}");
}

#[test]
fn a_game_copied_into_another_plays_as_its_search_clone() {
    let base = rules(&["base"]);
    let all = rules(&ALL_SEED_PACKS);
    let mut in_choice = 0;
    for seed in 0..4u64 {
        let players = 2 + seed as usize % 3;
        let mut sources: Vec<(String, Game)> = [0, 25, 90, 200]
            .into_iter()
            .map(|moves| (format!("{moves} moves"), played(&all, players, seed, moves)))
            .collect();
        if let Some(waiting) = played_to_a_choice(&all, players, seed, 30) {
            in_choice += 1;
            sources.push(("waiting on a rule's choice".into(), waiting));
        }
        // A player's view, as a search samples it (a viewer, hidden parts
        // resampled), and a game with keyed draws.
        let midway = played(&all, players, seed, 60);
        let viewer = midway.current_player();
        sources.push((
            "a view".into(),
            midway.view_with_seed(viewer, seed).unwrap().search_clone(),
        ));
        let keyed = Game::new(all.clone(), Setup::new(players).seed(seed).keyed(seed ^ 0x4b)).unwrap();
        sources.push(("keyed draws".into(), keyed));
        for (source_is, source) in &sources {
            let copies = [
                ("a base game", played(&base, 2, seed + 7, 40)),
                ("a game further along", played(&all, 4, seed + 1, 400)),
                ("a game just begun", played(&all, 2, seed + 2, 0)),
                ("a finished game", played(&base, 3, seed, usize::MAX)),
            ];
            for (what, mut copy) in copies {
                copy.search_clone_from(source);
                let what = format!("seed {seed}, {source_is}, copied into {what}");
                // Field for field the copy `search_clone` makes (lists kept
                // for reuse aside, which a game's `Debug` leaves out).
                let fresh = source.search_clone();
                assert_eq!(format!("{fresh:?}"), format!("{copy:?}"), "{what}");
                assert!(copy.log().is_empty(), "{what}: a search copy keeps no log");
                assert_play_alike(fresh, copy, seed ^ 0x5eed, &what);
            }
        }
    }
    assert!(in_choice >= 2, "only {in_choice} games reached a rule's choice");
}

/// The greedy agent's choice made with a fresh `search_clone` for every
/// look ahead, as it was made before it kept its copies: the oracle.
struct FreshGreedy {
    rng: Rng,
}

impl FreshGreedy {
    fn gain(game: &Game, choice: Choice) -> i64 {
        let player = game.deciding_player().unwrap_or_else(|| game.current_player());
        let before = game.scores()[player.index()];
        let mut next = game.search_clone();
        if next.apply(choice).is_err() {
            return i64::MIN;
        }
        let mut best = next.scores()[player.index()] - before;
        if matches!(choice, Choice::Place { .. }) && next.deciding_player() == Some(player) && !next.is_over() {
            for deploy in next.options() {
                let mut after = next.search_clone();
                if after.apply(deploy).is_ok() {
                    best = best.max(after.scores()[player.index()] - before);
                }
            }
        }
        best
    }
}

impl meeple::agents::Agent for FreshGreedy {
    fn choose(&mut self, game: &Game, options: &[Choice]) -> Result<Choice, meeple::engine::GameError> {
        let gains: Vec<i64> = options.iter().map(|c| FreshGreedy::gain(game, *c)).collect();
        let best = gains.iter().copied().max().unwrap_or(0);
        let top: Vec<usize> = (0..options.len()).filter(|&i| gains[i] == best).collect();
        Ok(options[top[self.rng.below(top.len())]])
    }

    fn name(&self) -> &str {
        "fresh greedy"
    }
}

/// The greedy agent looks ahead in copies it keeps from one look to the
/// next: its games are those it played with a fresh copy for every look.
#[test]
fn greedy_agents_keeping_their_copies_play_as_with_fresh_copies() {
    use meeple::agents::{play, Agent, GreedyAgent};
    for names in [&["base"][..], &ALL_SEED_PACKS[..]] {
        let rules = rules(names);
        for seed in 0..2u64 {
            let players = 2 + seed as usize;
            let mut kept = Game::new(rules.clone(), Setup::new(players).seed(seed)).unwrap();
            kept.set_logging(true);
            let mut agents: Vec<Box<dyn Agent>> = (0..players as u64)
                .map(|p| Box::new(GreedyAgent::new(seed + p)) as _)
                .collect();
            play(&mut kept, &mut agents).unwrap();
            let mut fresh = Game::new(rules.clone(), Setup::new(players).seed(seed)).unwrap();
            fresh.set_logging(true);
            let mut oracles: Vec<Box<dyn Agent>> = (0..players as u64)
                .map(|p| {
                    Box::new(FreshGreedy {
                        rng: Rng::new(seed + p),
                    }) as _
                })
                .collect();
            play(&mut fresh, &mut oracles).unwrap();
            assert_eq!(kept.log(), fresh.log(), "packs {names:?}, seed {seed}");
            assert_eq!(kept.scores(), fresh.scores(), "packs {names:?}, seed {seed}");
        }
    }
}

/// A view sampled into a kept game (`Game::view_with_seed_into`) is the
/// view `view_with_seed` samples, field for field, and plays on alike;
/// a player the game does not have leaves the kept game as it was.
#[test]
fn a_view_sampled_into_a_kept_game_is_the_view() {
    let base = rules(&["base"]);
    let all = rules(&ALL_SEED_PACKS);
    for seed in 0..3u64 {
        let players = 2 + seed as usize % 3;
        let mut sources = vec![played(&all, players, seed, 70)];
        sources.extend(played_to_a_choice(&all, players, seed, 40));
        for source in &sources {
            let mut kept = played(&base, 2, seed + 3, 30);
            for player in 0..players {
                let player = meeple::engine::Player(player as u8);
                let sample = seed ^ 0x71e;
                source
                    .view_with_seed_into(player, sample, &mut kept)
                    .expect("a player of the game");
                let view = source.view_with_seed(player, sample).unwrap().search_clone();
                let what = format!("seed {seed}, viewer {player}");
                assert_eq!(format!("{view:?}"), format!("{kept:?}"), "{what}");
                assert_play_alike(view, kept.search_clone(), seed, &what);
            }
            let before = format!("{kept:?}");
            let nobody = meeple::engine::Player(players as u8);
            assert!(source.view_with_seed_into(nobody, 1, &mut kept).is_none());
            assert_eq!(
                before,
                format!("{kept:?}"),
                "no player {players}: the kept game is unchanged"
            );
        }
    }
}
