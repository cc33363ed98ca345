//! Views are honest: an agent that searches its view learns nothing hidden
//! (it predicts the next tile no better than chance), and a view plays by
//! the real rules (cards drawn in a look-ahead resolve as in real games).

use meeple::agents::{play, Agent, RandomAgent};
use meeple::engine::{Choice, Decision, Event, Game, GameError, Rules, Setup};
use meeple::ir::TileId;
use meeple::{load, PackRef};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

fn rules(packs: &[&str]) -> Arc<Rules> {
    let refs: Vec<PackRef> = packs.iter().map(|p| PackRef::Bundled(p.to_string())).collect();
    Arc::new(Rules::new(load(&refs).unwrap_or_else(|e| panic!("{}", e.render()))))
}

/// At each deploy decision, passes in a copy of what it was shown and
/// notes the tile the next player would then draw.
struct Peeker {
    guesses: Rc<RefCell<Vec<TileId>>>,
}

impl Agent for Peeker {
    fn choose(&mut self, game: &Game, options: &[Choice]) -> Result<Choice, GameError> {
        if let Some(Decision::Deploy { .. }) = game.decision() {
            let mut ahead = game.search_clone();
            ahead.apply(Choice::Pass)?;
            if let Some(Decision::Place { tile, .. }) = ahead.decision() {
                self.guesses.borrow_mut().push(tile);
            }
            return Ok(Choice::Pass);
        }
        Ok(options[0])
    }

    fn name(&self) -> &str {
        "peeker"
    }
}

#[test]
fn a_peeking_agent_predicts_the_next_tile_at_chance_level() {
    let rules = rules(&["base"]);
    let (mut hits, mut tries) = (0, 0);
    for seed in 0..6u64 {
        let mut game = Game::new(rules.clone(), Setup::new(2).seed(seed)).expect("two players can play");
        let guesses = Rc::new(RefCell::new(Vec::new()));
        let mut agents: Vec<Box<dyn Agent>> = (0..2)
            .map(|_| {
                Box::new(Peeker {
                    guesses: guesses.clone(),
                }) as Box<dyn Agent>
            })
            .collect();
        play(&mut game, &mut agents).expect("the game finishes");
        // The tiles really drawn after each turn's first one, in order.
        let drawn: Vec<TileId> = game
            .log()
            .iter()
            .filter_map(|e| match e {
                Event::Drew { tile, .. } => Some(*tile),
                _ => None,
            })
            .skip(1)
            .collect();
        for (guess, real) in guesses.borrow().iter().zip(&drawn) {
            tries += 1;
            hits += usize::from(guess == real);
        }
    }
    assert!(tries > 300, "only {tries} predictions");
    // Guessing by the tile set's frequencies hits about 1 time in 12; the
    // real game's RNG would hit every time.
    assert!(hits * 4 < tries, "{hits} of {tries} next tiles predicted from views");
}

/// Cards drawn, and cards that left a hand (played, resolved or discarded),
/// in a game's log from event `from` on.
fn card_flow(game: &Game, from: usize) -> (usize, usize) {
    let log = &game.log()[from..];
    let drawn = log.iter().filter(|e| matches!(e, Event::CardDrawn { .. })).count();
    let left = log.iter().filter(|e| matches!(e, Event::CardDiscarded { .. })).count();
    (drawn, left)
}

fn random_agents(seed: u64) -> Vec<Box<dyn Agent>> {
    (0..3u64)
        .map(|p| Box::new(RandomAgent::new(seed * 10 + p)) as Box<dyn Agent>)
        .collect()
}

#[test]
fn rollouts_from_views_resolve_cards_like_real_games() {
    let rules = rules(&["base", "christmas_present"]);
    let (mut real, mut viewed) = ((0, 0), (0, 0));
    for seed in 0..24u64 {
        let mut game = Game::new(rules.clone(), Setup::new(3).seed(seed)).expect("three players can play");
        // Play the first 60 decisions, then roll out the rest twice: in the
        // game itself, and in the current player's view of it.
        let mut agents = random_agents(seed);
        let mut options = Vec::new();
        for _ in 0..60 {
            if game.decision().is_none() {
                break;
            }
            game.options_into(&mut options);
            let player = game.deciding_player().unwrap_or_default();
            let choice = agents[player.index()]
                .choose(&game, &options)
                .expect("random agents choose");
            game.apply(choice).expect("options are legal");
        }
        let viewer = game.deciding_player().unwrap_or_default();
        let mut from_view = game.view_for(viewer).expect("a player of the game").search_clone();
        from_view.set_logging(true);
        play(&mut from_view, &mut random_agents(seed + 100)).expect("a rollout from a view finishes");
        let (d, l) = card_flow(&from_view, 0);
        viewed = (viewed.0 + d, viewed.1 + l);
        let from = game.log().len();
        play(&mut game, &mut random_agents(seed + 100)).expect("the game finishes");
        let (d, l) = card_flow(&game, from);
        real = (real.0 + d, real.1 + l);
    }
    let rate = |(drawn, left): (usize, usize)| left as f64 / drawn.max(1) as f64;
    assert!(real.0 > 50 && viewed.0 > 50, "too few cards drawn: {real:?} {viewed:?}");
    assert!(
        (rate(real) - rate(viewed)).abs() < 0.15,
        "cards that left a hand: {:.2} in real games, {:.2} in rollouts from views",
        rate(real),
        rate(viewed)
    );
}

/// Another player's pending choice, seen in a view, offers what the rules
/// offer in the view's sample, never what the real hand holds: in
/// Christmas Present a victim may discard Prevent Attack (`choose by
/// victim card k where k == prevent_attack`), and a view used to offer
/// every card of the victim's sampled hand, any of which then "cancelled"
/// the attack. That the victim is asked is public (they hold the card), so
/// the sample gives them one.
#[test]
fn another_players_pending_card_choice_is_listed_again_in_the_sample() {
    use meeple::engine::{Player, Target};
    use meeple::ir::program::Domain;
    let rules = rules(&["base", "christmas_present"]);
    let cards = &rules.pack().program().cards;
    let prevent = cards.iter().position(|c| c.name == "prevent_attack").expect("the card") as u16;
    let (mut questions, mut views) = (0, 0);
    for seed in 0..120u64 {
        let mut game = Game::new(rules.clone(), Setup::new(3).seed(seed)).expect("three players can play");
        let mut agents = random_agents(seed);
        let mut options = Vec::new();
        while let Some(decision) = game.decision() {
            game.options_into(&mut options);
            if let Decision::Choose {
                player: chooser,
                domain: Domain::Cards,
                optional,
            } = decision
            {
                // The question of Prevent Attack (a `may`, where discarding
                // down to the hand limit is not).
                let real_prevent = optional
                    && options.iter().all(|c| match c {
                        Choice::Decline => true,
                        Choice::Pick(Target::Card(k)) => *k == prevent,
                        _ => false,
                    });
                questions += usize::from(real_prevent);
                for viewer in (0..3).map(Player).filter(|p| *p != chooser) {
                    for sample in 0..4 {
                        let view = game.view_with_seed(viewer, sample).expect("a player of the game");
                        let offered = view.options();
                        let hand = view.hand(chooser).expect("the chooser's sampled hand");
                        views += 1;
                        for choice in &offered {
                            if let Choice::Pick(Target::Card(k)) = choice {
                                assert!(hand.contains(k), "{choice:?} is not in the sampled hand {hand:?}");
                                if real_prevent {
                                    assert_eq!(
                                        *k, prevent,
                                        "seed {seed}: the view offers another card than Prevent Attack"
                                    );
                                }
                            }
                        }
                        assert!(
                            offered.iter().any(|c| matches!(c, Choice::Pick(_))),
                            "seed {seed}: the question is asked, so the sample holds an answer: {offered:?}"
                        );
                        // The search plays on by the rules from the view.
                        let mut ahead = view.search_clone();
                        ahead.apply(offered[0]).expect("a view's option is legal in it");
                    }
                }
            }
            let player = game.deciding_player().unwrap_or_default();
            let choice = agents[player.index()]
                .choose(&game, &options)
                .expect("random agents choose");
            game.apply(choice).expect("options are legal");
        }
    }
    assert!(questions >= 3, "only {questions} Prevent Attack questions met");
    assert!(views >= 24, "only {views} views of another player's card choice");
}

/// Discard piles are public (cards are discarded face up): a view shows
/// them as they are, and `discard_pile` agrees with `deck_sizes`.
#[test]
fn discard_piles_are_the_same_in_every_view() {
    use meeple::engine::Player;
    let rules = rules(&["base", "christmas_present"]);
    let mut game = Game::new(rules.clone(), Setup::new(3).seed(4)).expect("three players can play");
    let mut agents = random_agents(4);
    let decks = rules.pack().program().decks.len() as u16;
    let mut seen = 0;
    while game.decision().is_some() {
        let options = game.options();
        let player = game.deciding_player().unwrap_or_default();
        let choice = agents[player.index()]
            .choose(&game, &options)
            .expect("random agents choose");
        game.apply(choice).expect("options are legal");
        for deck in 0..decks {
            let pile = game.discard_pile(deck).expect("a deck of the game");
            assert_eq!(pile.len(), game.deck_sizes(deck).expect("a deck").1);
            seen += pile.len();
            for viewer in 0..3 {
                let view = game.view_for(Player(viewer)).expect("a player of the game");
                assert_eq!(view.discard_pile(deck), Some(pile));
            }
        }
    }
    assert!(seen > 0, "no card was discarded");
    assert_eq!(game.discard_pile(decks), None, "no such deck");
}
