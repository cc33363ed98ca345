//! Random games with the expansion packs: figures are conserved, every tile
//! is placed or discarded, and each game's record — choices and actions
//! included — replays to exactly the same game.

use common::{bundled_rules as rules, ALL_SEED_PACKS};
use meeple::agents::{agent_by_name, play, Agent};
use meeple::engine::{Game, Player, Rules, Setup};
use meeple::ir::Ownership;
use meeple::record::{replay_with, Record};
use std::sync::Arc;

mod common;

const COMBINATIONS: &[&[&str]] = &[
    &["river"],
    &["inns_cathedrals"],
    &["traders_builders"],
    &[
        "river",
        "inns_cathedrals",
        "traders_builders",
        "winter",
        "gingerbread_man",
        "abbot",
        "the_gifts",
        "christmas_present",
    ],
    &["base", "abbot"],
    &["base", "wind_roses"],
    &["wind_roses_spielbox"],
    &["winter"],
    &["winter", "gingerbread_man"],
    &["winter", "gingerbread_man", "abbot", "wind_roses"],
    &["base", "the_gifts"],
    &["base", "christmas_present"],
    &ALL_SEED_PACKS,
];

fn assert_conserved(game: &Game) {
    let pack = &game.rules().pack();
    for (f, fig) in pack.figures().iter().enumerate() {
        let on_board = |owner: Option<Player>| {
            game.figures()
                .iter()
                .filter(|m| m.owner == owner && m.figure_type as usize == f)
                .count()
        };
        match fig.ownership {
            Ownership::PerPlayer => {
                for p in 0..game.players() {
                    let total = on_board(Some(Player(p as u8)))
                        + game.supply(Player(p as u8), f as u16).expect("ids are in range") as usize;
                    assert_eq!(total, fig.count as usize, "{} of player {p}", fig.name);
                }
            }
            Ownership::Neutral => {
                let total = on_board(None) + game.neutral_supply(f as u16).expect("ids are in range") as usize;
                assert_eq!(total, fig.count as usize, "{}", fig.name);
            }
        }
    }
}

#[test]
fn expansion_games_keep_the_rules_and_replay_exactly() {
    for packs in COMBINATIONS {
        let rules = rules(packs);
        let total = rules.pack().tile_count() as usize;
        for seed in 0..12u64 {
            let players = 2 + (seed as usize % 3);
            let mut game = Game::new(rules.clone(), Setup::new(players).seed(seed)).unwrap();
            let mut agents: Vec<Box<dyn Agent>> = (0..players)
                .map(|p| {
                    agent_by_name(
                        if p == 0 && seed % 2 == 0 { "greedy" } else { "random" },
                        seed + p as u64,
                    )
                    .unwrap()
                })
                .collect();
            let mut options = Vec::new();
            while game.decision().is_some() {
                game.options_into(&mut options);
                assert!(!options.is_empty(), "{packs:?} seed {seed}: a decision without options");
                let player = game.deciding_player().unwrap();
                let choice = agents[player.index()].choose(&game, &options).unwrap();
                game.apply(choice)
                    .unwrap_or_else(|e| panic!("{packs:?} seed {seed}: {e}"));
                assert_conserved(&game);
            }
            assert_eq!(
                game.board().tiles().len() + game.discarded() as usize,
                total,
                "{packs:?} seed {seed}"
            );
            let names = (0..players).map(|p| format!("P{p}")).collect();
            let record = Record::from_game(&game, packs.iter().map(|p| p.to_string()).collect(), names, Some(seed))
                .expect("a game, not a view");
            let parsed = Record::parse("generated", &record.to_ron()).unwrap();
            assert_eq!(parsed, record, "{packs:?} seed {seed}: the record survives RON");
            let again = replay_with(&parsed, rules.clone()).unwrap_or_else(|e| panic!("{packs:?} seed {seed}: {e}"));
            assert_eq!(again.log(), game.log(), "{packs:?} seed {seed}: the replay differs");
            assert_eq!(again.scores(), game.scores());
        }
    }
}

#[test]
fn scripted_agents_replay_expansion_games() {
    let rules = rules(&["winter", "gingerbread_man", "abbot", "wind_roses"]);
    let mut game = Game::new(rules.clone(), Setup::new(3).seed(77)).unwrap();
    let mut agents: Vec<Box<dyn Agent>> = (0..3).map(|p| agent_by_name("random", p).unwrap()).collect();
    play(&mut game, &mut agents).unwrap();
    let record = Record::from_game(&game, Vec::new(), vec!["a".into(), "b".into(), "c".into()], None)
        .expect("a game, not a view");
    let draws = record.draw_names().map(|n| rules.pack().tile(n).unwrap()).collect();
    let mut again = Game::new(rules, Setup::new(3).replay(draws, Vec::new())).unwrap();
    let mut scripted = meeple::record::ScriptedAgent::seats(&record, 3);
    play(&mut again, &mut scripted).unwrap();
    assert_eq!(again.log(), game.log());
}

/// What each seat was shown: (seat, whether it was a view, the deciding player).
type Seen = std::rc::Rc<std::cell::RefCell<Vec<(Player, bool, Option<Player>)>>>;

/// An agent that remembers what it was shown.
struct Spy {
    seat: Player,
    seen: Seen,
    inner: Box<dyn Agent>,
}

impl Agent for Spy {
    fn choose(
        &mut self,
        game: &Game,
        options: &[meeple::engine::Choice],
    ) -> Result<meeple::engine::Choice, meeple::engine::GameError> {
        self.seen
            .borrow_mut()
            .push((self.seat, game.is_view(), game.deciding_player()));
        self.inner.choose(game, options)
    }

    fn name(&self) -> &str {
        "spy"
    }
}

#[test]
fn agents_that_look_see_only_views() {
    let rules = rules(&["base", "the_gifts"]);
    for seed in 0..6u64 {
        let mut game = Game::new(rules.clone(), Setup::new(3).seed(seed)).unwrap();
        let seen: Seen = Default::default();
        let mut agents: Vec<Box<dyn Agent>> = (0..3)
            .map(|p| {
                Box::new(Spy {
                    seat: Player(p),
                    seen: seen.clone(),
                    inner: agent_by_name("greedy", seed + u64::from(p)).unwrap(),
                }) as Box<dyn Agent>
            })
            .collect();
        play(&mut game, &mut agents).unwrap();
        for (seat, view, deciding) in seen.borrow().iter() {
            assert!(*view, "seat {seat} was shown the game itself");
            assert_eq!(*deciding, Some(*seat), "seat {seat} decided for another player");
        }
    }
    // The view keeps the viewer's own hand, every hand's size and deck
    // counts (card backs are public), and every id in it is a real card.
    let mut game = Game::new(rules.clone(), Setup::new(2).seed(3)).unwrap();
    let mut agents: Vec<Box<dyn Agent>> = (0..2).map(|p| agent_by_name("random", p).unwrap()).collect();
    play(&mut game, &mut agents).unwrap();
    let view = game.view_for(Player(0)).expect("player 0 plays");
    assert_eq!(view.hand(Player(0)), game.hand(Player(0)));
    assert_eq!(
        view.hand(Player(1)).map(<[u16]>::len),
        game.hand(Player(1)).map(<[u16]>::len)
    );
    assert!(view
        .hand(Player(1))
        .unwrap()
        .iter()
        .all(|c| (*c as usize) < rules.pack().program().cards.len()));
    for d in 0..rules.pack().program().decks.len() as u16 {
        assert_eq!(view.deck_sizes(d), game.deck_sizes(d));
    }
    assert!(game.view_for(Player(2)).is_none(), "a 2-player game has no player 2");
    assert!(
        meeple::record::Record::from_game(&view, Vec::new(), Vec::new(), None).is_err(),
        "a view cannot be written as the game's record"
    );
}

/// Asking for the options (and for views) any number of times never changes
/// a game: looks charge nothing to the game's evaluation budget.
#[test]
fn asking_for_the_options_never_changes_a_game() {
    let play_asking = |rules: Arc<Rules>, seed: u64, extra: usize| {
        let mut game = Game::new(rules, Setup::new(3).seed(seed)).unwrap();
        let mut agent = agent_by_name("random", seed).unwrap();
        while game.decision().is_some() {
            for _ in 0..extra {
                let _ = game.options();
                let _ = game.view_for(Player(0));
            }
            let options = game.options();
            let choice = agent.choose(&game, &options).unwrap();
            game.apply(choice).unwrap();
        }
        game
    };
    for packs in [
        &["river", "traders_builders", "inns_cathedrals"][..],
        &["base", "christmas_present"][..],
    ] {
        let rules = rules(packs);
        for seed in 0..6 {
            let once = play_asking(rules.clone(), seed, 0);
            let often = play_asking(rules.clone(), seed, 3);
            assert_eq!(once.log(), often.log(), "{packs:?} seed {seed}");
        }
    }
}
