//! The searching agent, `IsmctsAgent`: deterministic for a seed, only legal
//! choices, blind to what its player cannot see, and able to play every
//! seed pack. (How well it plays is a benchmark, `meeple bench --match`,
//! not a test.)

use meeple::agents::{AgentSpec, Budget};
use meeple::{load, play, Agent, Choice, Event, Game, IsmctsAgent, PackRef, Record, Rules, Setup};
use std::sync::Arc;
use std::time::Duration;

mod common;

fn rules(packs: &[&str]) -> Arc<Rules> {
    let refs: Vec<PackRef> = packs.iter().map(|p| PackRef::Bundled(p.to_string())).collect();
    Arc::new(Rules::new(load(&refs).unwrap_or_else(|e| panic!("{}", e.render()))))
}

fn ismcts(seed: u64, iterations: u32) -> Box<dyn Agent> {
    Box::new(IsmctsAgent::new(seed, Budget::Iterations(iterations)))
}

/// A whole game with an ISMCTS agent in every seat; its record's text.
fn played(rules: &Arc<Rules>, players: usize, seed: u64, iterations: u32) -> String {
    let mut game = Game::new(rules.clone(), Setup::new(players).seed(seed)).expect("the game starts");
    let mut agents: Vec<Box<dyn Agent>> = (0..players)
        .map(|p| ismcts(seed ^ (p as u64 + 1), iterations))
        .collect();
    play(&mut game, &mut agents).expect("the game ends without error");
    assert!(game.is_over());
    Record::from_game(&game, vec![], vec![], Some(seed))
        .expect("a played game has a record")
        .to_ron()
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let base = rules(&["base"]);
    let first = played(&base, 2, 5, 8);
    assert_eq!(first, played(&base, 2, 5, 8));
    assert_ne!(first, played(&base, 2, 6, 8), "another seed, another game");
}

#[test]
fn every_choice_is_one_of_the_options() {
    let rules = rules(&["winter", "abbot", "christmas_present"]);
    let mut game = Game::new(rules, Setup::new(3).seed(2)).expect("three players can play");
    let mut agent = IsmctsAgent::new(9, Budget::Iterations(6));
    let mut asked = 0;
    while let Some(player) = game.deciding_player() {
        let options = game.options();
        let view = game.view_for(player).expect("a player of the game");
        let choice = agent.choose(&view, &options).expect("the agent chooses");
        assert!(options.contains(&choice), "{choice:?} is not among {options:?}");
        game.apply(choice).expect("options are legal");
        asked += 1;
    }
    assert!(asked > 100, "only {asked} decisions");
}

/// The first `turns` tiles drawn in a random game of base with seed 3, and
/// the choices made while they were played.
fn a_start(turns: usize) -> (Vec<meeple::ir::TileId>, Vec<Choice>) {
    let mut game = Game::new(rules(&["base"]), Setup::new(2).seed(3)).expect("two players can play");
    let mut agent = meeple::RandomAgent::new(4);
    let mut choices = Vec::new();
    while game.turn() < turns as u32 {
        let options = game.options();
        let choice = agent.choose(&game, &options).expect("random agents choose");
        game.apply(choice).expect("options are legal");
        choices.push(choice);
    }
    let drawn = game
        .log()
        .iter()
        .filter_map(|e| match e {
            Event::Drew { tile, .. } => Some(*tile),
            _ => None,
        })
        .collect();
    (drawn, choices)
}

/// Games that agree on everything seen so far (the same tiles drawn, the
/// same choices) but whose seeds differ, so the tiles still in the stack
/// come in another order: the agent, handed the real game rather than a
/// view, makes the same choice in each. Its search samples only views.
#[test]
fn the_choice_does_not_depend_on_the_hidden_tile_order() {
    let base = rules(&["base"]);
    let (drawn, choices) = a_start(9);
    let twins: Vec<Game> = [11u64, 12, 13]
        .iter()
        .map(|&seed| {
            let mut game = Game::new(base.clone(), Setup::new(2).seed(seed).replay(drawn.clone(), vec![]))
                .expect("two players can play");
            for choice in &choices {
                game.apply(*choice).expect("the same choices are legal");
            }
            game
        })
        .collect();
    // The twins really differ in what is hidden: the next tiles drawn.
    let next: Vec<Vec<Event>> = twins
        .iter()
        .map(|twin| {
            let mut ahead = twin.search_clone();
            ahead.set_logging(true);
            let mut agent = meeple::RandomAgent::new(1);
            for _ in 0..12 {
                let options = ahead.options();
                let choice = agent.choose(&ahead, &options).expect("random agents choose");
                ahead.apply(choice).expect("options are legal");
            }
            ahead.log().to_vec()
        })
        .collect();
    assert!(
        next[0] != next[1] || next[0] != next[2],
        "the twins draw the same tiles"
    );
    for agent_seed in [1u64, 2] {
        let picks: Vec<Choice> = twins
            .iter()
            .map(|twin| {
                let options = twin.options();
                ismcts(agent_seed, 30)
                    .choose(twin, &options)
                    .expect("the agent chooses")
            })
            .collect();
        assert!(picks.iter().all(|p| *p == picks[0]), "seed {agent_seed}: {picks:?}");
    }
}

/// Every placement draws a card into the hand, hidden from the other
/// players; a sun still held at the end is worth 20 points, so a hand
/// changes the outcome of a playout.
const TOKENS: &str = "pack tokens\nrequires base\ndeck tokens\n\
    card sun x4 in tokens { on game_end { score 20 to current_player reason \"sun\" } }\n\
    card moon x4 in tokens { kept }\n\
    on tile_placed { draw card from tokens }\n";

/// Games that agree on everything player 0 has seen but where player 1
/// holds another card: player 0's agent, handed the real game, makes the
/// same choice in both. (An agent that searched the game it is handed,
/// rather than samples of a view, fails this test and the one above.)
#[test]
fn the_choice_does_not_depend_on_an_opponents_hand() {
    let rules = common::rules_over_base("tokens.rules", TOKENS);
    let mut first = Game::new(rules.clone(), Setup::new(2).seed(5)).expect("two players can play");
    let mut agent = meeple::RandomAgent::new(6);
    let mut choices = Vec::new();
    // Until player 0 places a tile, both players having placed two.
    while first.turn() < 4 || first.deciding_player() != Some(meeple::Player(0)) || first.options().len() < 2 {
        let options = first.options();
        let choice = agent.choose(&first, &options).expect("random agents choose");
        first.apply(choice).expect("options are legal");
        choices.push(choice);
    }
    let (mut tiles, mut cards, mut twin_cards) = (Vec::new(), Vec::new(), Vec::new());
    for event in first.log() {
        match event {
            Event::Drew { tile, .. } => tiles.push(*tile),
            Event::CardDrawn { player, card } => {
                // Player 1's first card becomes the other kind (sun 0, moon 1).
                let flip = player.index() == 1 && twin_cards == cards;
                cards.push(*card);
                twin_cards.push(if flip { card ^ 1 } else { *card });
            }
            _ => {}
        }
    }
    // The cards still in the deck follow, all fixed, so that a search of
    // the real game (which replays them) would see the hands play out; the
    // twin's deck holds the card its player 1 no longer has.
    let flipped = twin_cards
        .iter()
        .zip(&cards)
        .find(|(t, c)| t != c)
        .map(|(_, c)| *c)
        .expect("player 1 drew a card");
    let rest: Vec<u16> = [0u16, 1]
        .iter()
        .flat_map(|&kind| std::iter::repeat_n(kind, 4 - cards.iter().filter(|c| **c == kind).count()))
        .collect();
    let mut twin_rest = rest.clone();
    let swap = twin_rest
        .iter()
        .position(|c| *c != flipped)
        .expect("a card of the other kind is left");
    twin_rest[swap] = flipped;
    cards.extend(rest);
    twin_cards.extend(twin_rest);
    let replayed = |cards: Vec<u16>| {
        let mut game =
            Game::new(rules.clone(), Setup::new(2).seed(5).replay(tiles.clone(), cards)).expect("two players can play");
        for choice in &choices {
            game.apply(*choice).expect("the same choices are legal");
        }
        game
    };
    let (one, other) = (replayed(cards), replayed(twin_cards));
    let me = meeple::Player(0);
    assert_eq!(one.deciding_player(), Some(me));
    assert_eq!(one.hand(me), other.hand(me));
    assert_ne!(
        one.hand(meeple::Player(1)),
        other.hand(meeple::Player(1)),
        "player 1's hands differ"
    );
    for agent_seed in [1u64, 2] {
        let options = one.options();
        assert_eq!(options, other.options());
        let picks = [&one, &other].map(|game| {
            ismcts(agent_seed, 30)
                .choose(game, &options)
                .expect("the agent chooses")
        });
        assert_eq!(picks[0], picks[1], "seed {agent_seed}");
    }
}

const SEED_PACKS: [&str; 7] = [
    "winter",
    "gingerbread_man",
    "abbot",
    "wind_roses",
    "wind_roses_spielbox",
    "the_gifts",
    "christmas_present",
];

#[test]
fn plays_every_seed_pack_alone() {
    for (i, pack) in SEED_PACKS.iter().enumerate() {
        played(&rules(&[pack]), 2 + i % 3, i as u64, 3);
    }
}

/// Every combination of the seed packs (each loaded with the packs it
/// requires), one 2-player game each at one iteration a decision: the
/// search's views and playouts work with every pack's rules.
#[test]
fn plays_every_combination_of_the_seed_packs() {
    for mask in 1..(1u32 << SEED_PACKS.len()) {
        let packs: Vec<&str> = (0..SEED_PACKS.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| SEED_PACKS[i])
            .collect();
        played(&rules(&packs), 2, u64::from(mask), 1);
    }
}

#[test]
fn plays_the_seed_packs_together_with_2_to_4_players() {
    let all = rules(&SEED_PACKS);
    for players in 2..=4 {
        played(&all, players, players as u64, 3);
    }
}

#[test]
fn a_time_budget_plays_too() {
    let mut game = Game::new(rules(&["base"]), Setup::new(2).seed(1)).expect("two players can play");
    let mut agents: Vec<Box<dyn Agent>> = vec![
        Box::new(IsmctsAgent::new(1, Budget::Time(Duration::from_millis(1)))),
        AgentSpec::parse("random").expect("an agent").agent(2),
    ];
    play(&mut game, &mut agents).expect("the game ends without error");
    assert!(agents[0].playouts() > 0);
}

#[test]
fn budgets_read_as_the_command_line_writes_them() {
    assert_eq!(Budget::parse("250"), Ok(Budget::Iterations(250)));
    assert_eq!(Budget::parse("50ms"), Ok(Budget::Time(Duration::from_millis(50))));
    assert_eq!(Budget::parse("2s"), Ok(Budget::Time(Duration::from_secs(2))));
    assert_eq!(Budget::parse("1.5s"), Ok(Budget::Time(Duration::from_millis(1500))));
    assert_eq!(Budget::parse("0.25ms"), Ok(Budget::Time(Duration::from_micros(250))));
    assert_eq!(
        AgentSpec::parse("ismcts"),
        Ok(AgentSpec::Ismcts(Budget::Iterations(
            meeple::agents::DEFAULT_ISMCTS_ITERATIONS
        )))
    );
    for (bad, says) in [
        ("ismcts:0", "ismcts:0 searches nothing; give iterations per decision"),
        ("ismcts:0ms", "ismcts:0ms searches nothing"),
        ("ismcts:abc", "`abc` is not a budget for ismcts; give iterations"),
        ("ismcts:", "`` is not a budget for ismcts"),
        ("ismcts:-3", "`-3` is not a budget"),
        ("ismcts:5min", "`5min` is not a budget"),
        ("ismcts:99999999999", "too many iterations"),
        ("ismcts:1.5", "`1.5` is not a budget"),
        ("ismcts:1.2.3s", "`1.2.3s` is not a budget"),
        ("ismcts:0.0s", "searches nothing"),
        ("ismcts:100000s", "more than a day a decision"),
        ("mcts", "unknown agent `mcts`; agents are random, greedy, ismcts"),
    ] {
        let error = AgentSpec::parse(bad).expect_err(bad);
        assert!(error.contains(says), "{bad}: {error}");
    }
}

/// A benchmark match plays the same games on any number of threads: only
/// its time differs.
#[test]
fn a_match_is_the_same_on_1_and_2_threads() {
    let base = rules(&["base"]);
    let play = |threads| {
        let played = meeple::bench::play_match(&base, 2, "ismcts:3", "greedy", 4, threads).expect("the match plays");
        (played.wins, played.lead, played.playouts, played.games)
    };
    let one = play(1);
    assert_eq!(one, play(2));
    assert!(one.2 > 0, "the search agent ran playouts");
}

/// A rule that fails in a game an agent only looks at is the game's error,
/// named as met by the agent: an agent that steered around it would hide a
/// broken rule (a designer's run would count no failure and its figures
/// would lean away from the failing move). Every completed city here
/// divides by zero, so a random game fails where it completes one, and
/// the looking agents fail as soon as one of their looks completes one.
#[test]
fn a_rule_failing_in_an_agents_look_stops_the_game() {
    let pack = load(&[
        PackRef::Bundled("base".into()),
        PackRef::Text {
            name: "boom.rules".into(),
            text: "pack boom\nlanguage 1\nrequires base\n\
                   on feature_completed(c) when c.kind == city {\n  \
                   score 1 / (c.tiles - c.tiles) to current_player reason \"boom\"\n}\n"
                .into(),
        },
    ])
    .unwrap_or_else(|e| panic!("{}", e.render()));
    let rules = Arc::new(Rules::new(pack));
    for (spec, said) in [
        (AgentSpec::Greedy, "greedy, trying one of its moves"),
        (AgentSpec::Ismcts(Budget::Iterations(20)), "ismcts, searching a game"),
    ] {
        for seed in 0..3 {
            let mut game = Game::new(rules.clone(), Setup::new(2).seed(seed)).expect("the game starts");
            let mut agents: Vec<Box<dyn Agent>> = vec![spec.agent(seed), spec.agent(seed + 1)];
            let error = play(&mut game, &mut agents).expect_err("a completed city fails");
            assert_eq!(error.kind(), meeple::ErrorKind::DivisionByZero, "{error}");
            assert!(error.message().starts_with(said), "{spec:?}, seed {seed}: {error}");
            assert!(error.message().contains("boom.rules:5"), "the rule is named: {error}");
            assert!(error.met_in_look(), "{error}");
        }
    }
    // A random agent looks at nothing: the failure is in a move the game made.
    let mut game = Game::new(rules.clone(), Setup::new(2).seed(1)).expect("the game starts");
    let mut agents: Vec<Box<dyn Agent>> = vec![AgentSpec::Random.agent(1)];
    let error = play(&mut game, &mut agents).expect_err("a completed city fails");
    assert_eq!(error.kind(), meeple::ErrorKind::DivisionByZero, "{error}");
    assert!(!error.met_in_look(), "{error}");
}

/// Asked to choose among no options, every agent says so (the search agent
/// used to panic, reading the first); and a budget of no iterations still
/// searches one, as a time too short for one does, rather than playing the
/// first option unsearched.
#[test]
fn no_options_is_an_error_and_every_budget_searches() {
    use meeple::{ErrorKind, GreedyAgent, RandomAgent};
    let rules = rules(&["base"]);
    let mut game = Game::new(rules, Setup::new(2).seed(1)).expect("two players can play");
    let mut agents: Vec<Box<dyn Agent>> = vec![
        Box::new(RandomAgent::new(1)),
        Box::new(GreedyAgent::new(1)),
        ismcts(1, 10),
    ];
    for agent in &mut agents {
        let err = agent.choose(&game, &[]).expect_err("no options, no choice");
        assert_eq!(err.kind(), ErrorKind::NotAnOption, "{}: {err}", agent.name());
    }
    let mut zero = IsmctsAgent::new(1, Budget::Iterations(0));
    assert_eq!(zero.name(), "ismcts:1");
    let options = game.options();
    assert!(options.len() > 1);
    let choice = zero.choose(&game, &options).expect("the agent chooses");
    assert!(options.contains(&choice));
    assert_eq!(zero.playouts(), 1, "one iteration searched");
    let mut rest: Vec<Box<dyn Agent>> = vec![Box::new(RandomAgent::new(2))];
    play(&mut game, &mut rest).expect("random games finish");
    assert!(game.is_over());
    for agent in &mut agents {
        let err = agent.choose(&game, &[]).expect_err("a game over has no options");
        assert_eq!(err.kind(), ErrorKind::NotAnOption, "{}: {err}", agent.name());
    }
}
