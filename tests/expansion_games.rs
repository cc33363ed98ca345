//! Random games with the expansion packs: figures are conserved, every tile
//! is placed or discarded, and each game's record — choices and actions
//! included — replays to exactly the same game.

use meeple::agents::{agent_by_name, play, Agent};
use meeple::engine::{Game, Rules};
use meeple::ir::Ownership;
use meeple::record::{replay_with, Record};
use meeple::{load, PackRef};
use std::sync::Arc;

const COMBINATIONS: &[&[&str]] = &[
    &["base", "abbot"],
    &["base", "wind_roses"],
    &["wind_roses_spielbox"],
    &["winter"],
    &["winter", "gingerbread_man"],
    &["winter", "gingerbread_man", "abbot", "wind_roses"],
    &["base", "the_gifts"],
    &["base", "christmas_present"],
    &[
        "winter",
        "gingerbread_man",
        "abbot",
        "wind_roses",
        "the_gifts",
        "christmas_present",
    ],
];

fn rules(packs: &[&str]) -> Arc<Rules> {
    let refs: Vec<PackRef> = packs.iter().map(|p| PackRef::Bundled(p.to_string())).collect();
    Arc::new(Rules::new(load(&refs).unwrap_or_else(|e| panic!("{}", e.render()))))
}

fn assert_conserved(game: &Game) {
    let pack = &game.rules().pack;
    for (f, fig) in pack.figures.iter().enumerate() {
        let on_board = |owner: Option<u8>| {
            game.meeples()
                .iter()
                .filter(|m| m.owner == owner && m.figure as usize == f)
                .count()
        };
        match fig.ownership {
            Ownership::PerPlayer => {
                for p in 0..game.players() {
                    let total = on_board(Some(p as u8)) + game.supply(p, f as u16) as usize;
                    assert_eq!(total, fig.count as usize, "{} of player {p}", fig.name);
                }
            }
            Ownership::Neutral => {
                let total = on_board(None) + game.neutral_supply(f as u16) as usize;
                assert_eq!(total, fig.count as usize, "{}", fig.name);
            }
        }
    }
}

#[test]
fn expansion_games_keep_the_rules_and_replay_exactly() {
    for packs in COMBINATIONS {
        let rules = rules(packs);
        let total = rules.pack.tile_count() as usize;
        for seed in 0..12u64 {
            let players = 2 + (seed as usize % 3);
            let mut game = Game::new(rules.clone(), players, seed).unwrap();
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
                let choice = agents[player].choose(&game, &options).unwrap();
                game.apply(choice)
                    .unwrap_or_else(|e| panic!("{packs:?} seed {seed}: {e}"));
                assert_conserved(&game);
            }
            assert_eq!(
                game.board().placed.len() + game.discarded() as usize,
                total,
                "{packs:?} seed {seed}"
            );
            let names = (0..players).map(|p| format!("P{p}")).collect();
            let record = Record::from_game(&game, packs.iter().map(|p| p.to_string()).collect(), names, Some(seed));
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
    let mut game = Game::new(rules.clone(), 3, 77).unwrap();
    let mut agents: Vec<Box<dyn Agent>> = (0..3).map(|p| agent_by_name("random", p).unwrap()).collect();
    play(&mut game, &mut agents).unwrap();
    let record = Record::from_game(&game, vec!["x".into()], vec!["a".into(), "b".into(), "c".into()], None);
    let draws = record.draw_names().map(|n| rules.pack.tile(n).unwrap()).collect();
    let mut again = Game::replaying(rules, 3, None, draws).unwrap();
    let mut scripted = meeple::record::ScriptedAgent::seats(&record, 3);
    play(&mut again, &mut scripted).unwrap();
    assert_eq!(again.log(), game.log());
}

/// Every hand each seat was shown: (seat, hands by player).
type Seen = std::rc::Rc<std::cell::RefCell<Vec<(usize, Vec<Vec<u16>>)>>>;

/// An agent that remembers every hand it was shown.
struct Spy {
    seat: usize,
    seen: Seen,
    inner: Box<dyn Agent>,
}

impl Agent for Spy {
    fn choose(
        &mut self,
        game: &Game,
        options: &[meeple::engine::Choice],
    ) -> Result<meeple::engine::Choice, meeple::engine::GameError> {
        let hands = (0..game.players()).map(|p| game.hand(p).to_vec()).collect();
        self.seen.borrow_mut().push((self.seat, hands));
        self.inner.choose(game, options)
    }

    fn name(&self) -> &str {
        "spy"
    }
}

#[test]
fn agents_never_see_other_players_cards() {
    use meeple::ir::program::HIDDEN;
    let rules = rules(&["base", "the_gifts"]);
    for seed in 0..6u64 {
        let mut game = Game::new(rules.clone(), 3, seed).unwrap();
        let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        let mut agents: Vec<Box<dyn Agent>> = (0..3)
            .map(|p| {
                Box::new(Spy {
                    seat: p,
                    seen: seen.clone(),
                    inner: agent_by_name("greedy", seed + p as u64).unwrap(),
                }) as Box<dyn Agent>
            })
            .collect();
        play(&mut game, &mut agents).unwrap();
        let seen = seen.borrow();
        assert!(
            seen.iter().any(|(_, hands)| hands.iter().any(|h| !h.is_empty())),
            "seed {seed}: nobody held a gift"
        );
        for (seat, hands) in seen.iter() {
            for (p, hand) in hands.iter().enumerate() {
                if p == *seat {
                    assert!(hand.iter().all(|c| *c < HIDDEN), "a player sees their own cards");
                } else {
                    assert!(
                        hand.iter().all(|c| *c >= HIDDEN),
                        "seat {seat} saw player {p}'s cards: {hand:?}"
                    );
                }
            }
        }
    }
    // The view keeps counts (card backs are public) and hides the draw pile too.
    let mut game = Game::new(rules.clone(), 2, 3).unwrap();
    let mut agents: Vec<Box<dyn Agent>> = (0..2).map(|p| agent_by_name("random", p).unwrap()).collect();
    play(&mut game, &mut agents).unwrap();
    let view = game.view_for(0);
    assert_eq!(view.hand(1).len(), game.hand(1).len());
    for d in 0..rules.pack.program.decks.len() as u16 {
        assert_eq!(view.deck_sizes(d), game.deck_sizes(d));
    }
}
