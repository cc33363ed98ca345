//! The library never panics on a caller's bad index and never answers for
//! someone else: ids out of range give `None` or an error naming the id.

use meeple::agents::{play, Agent};
use meeple::engine::{Choice, ErrorKind, Game, Player, Rules, Setup, Target};
use meeple::{load, PackRef};
use std::sync::Arc;

fn base_game(players: usize) -> Game {
    let rules = Arc::new(Rules::new(
        load(&[PackRef::Bundled("base".into())]).expect("base loads"),
    ));
    Game::new(rules, Setup::new(players).seed(1)).expect("the game sets up")
}

#[test]
fn out_of_range_ids_are_none() {
    let game = base_game(2);
    let reasons = game.rules().pack().reasons().len() as u16;
    assert_eq!(game.points(Player(0), 0), Some(0));
    assert_eq!(game.points(Player(0), reasons), None, "no reason past the last");
    assert_eq!(game.points(Player(0), 99), None);
    assert_eq!(game.points(Player(2), 0), None, "no player 2 in a 2-player game");
    assert_eq!(game.supply(Player(0), 0), Some(7));
    assert_eq!(game.supply(Player(5), 0), None);
    assert_eq!(game.supply(Player(0), 9), None);
    assert_eq!(game.neutral_supply(9), None);
    assert_eq!(game.hand(Player(1)).map(<[u16]>::len), Some(0));
    assert_eq!(game.hand(Player(2)), None);
    assert_eq!(game.deck_sizes(0), None, "base has no decks");
    assert!(game.view_for(Player(1)).is_some());
    assert!(game.view_for(Player(5)).is_none());
    assert!(game.figure(1_000).is_none());
}

#[test]
fn bad_choices_are_refused_with_their_kind() {
    let mut game = base_game(2);
    let place = game.options()[0];
    game.apply(place).expect("options are legal");
    let err = game
        .apply(Choice::Deploy { figure_type: 9, seg: 0 })
        .expect_err("there is no figure type 9");
    assert_eq!(err.kind(), ErrorKind::NoSuchId);
    let err = game
        .apply(Choice::Deploy {
            figure_type: 0,
            seg: 200,
        })
        .expect_err("the tile has no segment 200");
    assert_eq!(err.kind(), ErrorKind::NoSuchSegment);
}

#[test]
fn playing_without_agents_is_an_error() {
    let mut game = base_game(2);
    let mut agents: Vec<Box<dyn Agent>> = Vec::new();
    let err = play(&mut game, &mut agents).expect_err("nobody to play");
    assert_eq!(err.kind(), ErrorKind::NoSuchId);
}

#[test]
fn a_stack_of_unknown_tiles_is_a_setup_error() {
    let rules = Arc::new(Rules::new(
        load(&[PackRef::Bundled("base".into())]).expect("base loads"),
    ));
    let err = Game::new(rules, Setup::new(2).seed(1).stack(vec![0, 999])).expect_err("tile 999 does not exist");
    assert_eq!(err.kind(), ErrorKind::Setup);
}

#[test]
fn a_replay_of_unknown_tiles_is_a_setup_error() {
    let rules = Arc::new(Rules::new(
        load(&[PackRef::Bundled("base".into())]).expect("base loads"),
    ));
    let err = Game::new(rules, Setup::new(2).replay(vec![9_999], Vec::new())).expect_err("tile 9999 does not exist");
    assert_eq!(err.kind(), ErrorKind::Setup);
}

#[test]
fn pack_text_in_memory_is_held_to_the_file_cap() {
    let text = format!("pack big\nrequires base\n#{}\n", "x".repeat(5 << 20));
    let err = load(&[PackRef::Text {
        name: "big.rules".into(),
        text,
    }])
    .expect_err("over 4 MiB");
    assert!(err.render().contains("limited to"), "{}", err.render());
}

/// A card's action is refused to a player who does not hold the card, when
/// asked of the library directly (a record's steps are matched against the
/// options first), and so is an action id past the last.
#[test]
fn a_card_not_held_cannot_be_played() {
    let rules = Arc::new(Rules::new(
        load(&[PackRef::Bundled("base".into()), PackRef::Bundled("the_gifts".into())]).expect("the packs load"),
    ));
    let mut game = Game::new(rules, Setup::new(2).seed(1)).expect("the game sets up");
    assert_eq!(
        game.hand(Player(0)).map(<[u16]>::len),
        Some(0),
        "no gift is held at the start"
    );
    let options = game.options();
    let actions = game.rules().pack().program().actions.len() as u16;
    assert!(actions > 0, "the gifts are played as actions");
    for action in 0..=actions {
        let err = game
            .apply(Choice::Action {
                action,
                target: Target::None,
            })
            .expect_err("no card is held");
        // One past the last is no action at all.
        let kind = if action < actions {
            ErrorKind::ActionUnavailable
        } else {
            ErrorKind::NoSuchId
        };
        assert_eq!(err.kind(), kind, "action {action}");
    }
    assert_eq!(game.options(), options, "a refused action changes nothing");
}

/// Choices a careless program might build by hand, in any phase.
fn nonsense(tile: u16) -> Vec<Choice> {
    let rot = meeple::Rotation::ALL[0];
    vec![
        Choice::Place {
            tile: u16::MAX,
            pos: (0, 1),
            rot,
        },
        Choice::Place {
            tile,
            pos: (i32::MAX, i32::MIN),
            rot,
        },
        Choice::Deploy {
            figure_type: 999,
            seg: 0,
        },
        Choice::Deploy {
            figure_type: 0,
            seg: 255,
        },
        Choice::Action {
            action: u16::MAX,
            target: Target::Feature(u32::MAX),
        },
        Choice::Pick(Target::Feature(u32::MAX)),
        Choice::Pick(Target::Tile(meeple::PlacedId(u16::MAX))),
        Choice::Pick(Target::Figure(u32::MAX)),
        Choice::Pick(Target::Player(Player(200))),
    ]
}

#[test]
fn hand_built_nonsense_is_refused_by_every_entry_point_without_a_panic() {
    use meeple::record::{move_text, move_words};
    use meeple::session::{Seat, Session};
    let placing = base_game(2);
    let Some(meeple::Decision::Place { tile, .. }) = placing.decision() else {
        panic!("a game starts with a placement")
    };
    let mut deploying = placing.clone();
    deploying.apply(placing.options()[0]).expect("options are legal");
    for game in [&placing, &deploying] {
        for choice in nonsense(tile) {
            // Named, or not, but never a panic; and refused.
            let _ = move_text(game, choice);
            let _ = move_words(game, choice, &["A".into(), "B".into()]);
            assert!(game.clone().apply(choice).is_err(), "{choice:?}");
        }
    }
    let action = Choice::Action {
        action: u16::MAX,
        target: Target::None,
    };
    let err = placing.clone().apply(action).expect_err("no such action");
    assert_eq!(err.kind(), ErrorKind::NoSuchId);
    assert!(
        err.to_string()
            .contains("action 65535 does not exist; the packs define 0"),
        "{err}"
    );
    // A session names a move before it plays it: a nonsense one is refused.
    let rules = placing.rules().clone();
    for choice in nonsense(tile) {
        let mut session = Session::new(rules.clone(), vec![Seat::Human, Seat::Human], 1).unwrap();
        assert!(session.decide(choice).is_err(), "{choice:?}");
        let first = session.game().options()[0];
        session.decide(first).expect("options are legal");
        assert!(session.decide(choice).is_err(), "{choice:?}");
    }
}

#[test]
fn a_tile_id_the_packs_lack_fits_nowhere() {
    let game = base_game(2);
    let misfit = game
        .board()
        .fits(game.rules(), 60_000, (0, 1), meeple::Rotation::ALL[0])
        .expect_err("no tile 60000");
    assert_eq!(ErrorKind::from(misfit), ErrorKind::NoSuchId);
}

#[test]
fn agents_asked_to_choose_among_nothing_say_so() {
    use meeple::agents::{GreedyAgent, RandomAgent};
    let game = base_game(2);
    for agent in [&mut RandomAgent::new(1) as &mut dyn Agent, &mut GreedyAgent::new(1)] {
        let err = agent.choose(&game, &[]).expect_err("nothing to choose");
        assert_eq!(err.kind(), ErrorKind::NotAnOption);
    }
}

#[test]
fn a_record_needs_the_whole_log_and_a_name_per_player() {
    use meeple::Record;
    let mut game = base_game(2);
    for _ in 0..6 {
        let first = game.options()[0];
        game.apply(first).unwrap();
    }
    let names = || vec!["A".to_string(), "B".to_string()];
    let rules = || vec!["base".to_string()];
    assert!(Record::from_game(&game, rules(), names(), Some(1)).is_ok());
    let err = Record::from_game(&game, rules(), vec!["only one".into()], Some(1)).expect_err("two players");
    assert_eq!(err.kind(), ErrorKind::NoSuchId);
    let copy = game.search_clone();
    let err = Record::from_game(&copy, rules(), names(), Some(1)).expect_err("a search copy keeps no log");
    assert_eq!(err.kind(), ErrorKind::IncompleteLog);
    game.set_logging(false);
    game.set_logging(true);
    let err = Record::from_game(&game, rules(), names(), Some(1)).expect_err("events were missed");
    assert_eq!(err.kind(), ErrorKind::IncompleteLog);
}

/// A record's `rules` are the packs its game was played with: a pack name
/// the game did not load, or one left out, is refused (its replay would
/// fail or play another game); none lists the game's packs; paths are
/// taken as given.
#[test]
fn a_record_lists_the_packs_its_game_was_played_with() {
    use meeple::Record;
    let names = || vec!["A".to_string(), "B".to_string()];
    let game = base_game(2);
    let rules = |r: &[&str]| r.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let err = Record::from_game(&game, rules(&["abbot"]), names(), Some(1)).expect_err("abbot was not loaded");
    assert_eq!(err.kind(), ErrorKind::NoSuchId);
    assert!(
        err.to_string().contains("`abbot`, a pack this game did not load"),
        "{err}"
    );
    let listed = Record::from_game(&game, Vec::new(), names(), Some(1)).unwrap();
    assert_eq!(listed.rules, ["base"]);
    let paths = rules(&["my/own/base.rules"]);
    assert_eq!(
        Record::from_game(&game, paths.clone(), names(), Some(1)).unwrap().rules,
        paths
    );

    let packs = [PackRef::Bundled("base".into()), PackRef::Bundled("abbot".into())];
    let game = Game::new(Arc::new(Rules::new(load(&packs).unwrap())), Setup::new(2).seed(1)).unwrap();
    let err = Record::from_game(&game, rules(&["base"]), names(), Some(1)).expect_err("abbot is left out");
    assert!(err.to_string().contains("leave out `abbot`"), "{err}");
    // The abbot pack requires base, which is then not listed itself.
    assert_eq!(
        Record::from_game(&game, Vec::new(), names(), Some(1)).unwrap().rules,
        ["abbot"]
    );
    assert!(Record::from_game(&game, rules(&["abbot"]), names(), Some(1)).is_ok());
    assert!(Record::from_game(&game, rules(&["base", "abbot"]), names(), Some(1)).is_ok());
    let err = Record::from_game(&game, rules(&["abbot", "abbot"]), names(), Some(1)).expect_err("twice");
    assert!(err.to_string().contains("list `abbot` twice"), "{err}");

    // A pack read from a file is named by its path: a replay loads a name
    // as the bundled pack.
    let packs = [PackRef::Path("tests/data/forbid.rules".into())];
    let game = Game::new(Arc::new(Rules::new(load(&packs).unwrap())), Setup::new(2).seed(1)).unwrap();
    let path = rules(&["tests/data/forbid.rules"]);
    assert_eq!(
        Record::from_game(&game, Vec::new(), names(), Some(1)).unwrap().rules,
        path
    );
    assert_eq!(
        Record::from_game(&game, path.clone(), names(), Some(1)).unwrap().rules,
        path
    );
    let err = Record::from_game(&game, rules(&["forbid_test"]), names(), Some(1)).expect_err("not bundled");
    assert!(
        err.to_string()
            .contains("this game read it from `tests/data/forbid.rules`"),
        "{err}"
    );
}

#[test]
fn loading_no_packs_says_so() {
    let err = load(&[]).expect_err("nothing to load");
    assert!(err.render().contains("no packs to load"), "{}", err.render());
}

/// A tile id the packs do not define is named as such when placed (it was
/// "tile ? was not drawn"), and a replay's card draws are checked when the
/// game is set up, as its tile draws are (a bad card id used to wait for
/// the first card draw).
#[test]
fn out_of_range_tile_and_card_ids_are_named_where_given() {
    let mut game = base_game(2);
    let err = game
        .apply(Choice::Place {
            tile: 9999,
            pos: (0, 1),
            rot: meeple::Rotation::ALL[0],
        })
        .expect_err("no tile 9999");
    assert_eq!(err.kind(), ErrorKind::NoSuchId, "{err}");
    assert!(err.to_string().contains("tile id 9999 does not exist"), "{err}");
    let rules = game.rules().clone();
    let err = Game::new(rules.clone(), Setup::new(2).replay(vec![], vec![9999])).expect_err("no card 9999");
    assert_eq!(err.kind(), ErrorKind::Setup, "{err}");
    assert!(err.to_string().contains("card id 9999"), "{err}");
    assert!(Game::new(rules, Setup::new(2).replay(vec![], vec![])).is_ok());
}

/// An agent whose choice the game refuses is named in the error, with what
/// it chose: a program's own agent may be at fault.
#[test]
fn a_refused_choice_names_the_agent_that_made_it() {
    struct Decliner;
    impl Agent for Decliner {
        fn choose(&mut self, _: &Game, _: &[Choice]) -> Result<Choice, meeple::engine::GameError> {
            Ok(Choice::Decline)
        }
        fn name(&self) -> &str {
            "decliner"
        }
    }
    let mut game = base_game(2);
    let mut agents: Vec<Box<dyn Agent>> = vec![Box::new(Decliner)];
    let err = play(&mut game, &mut agents).expect_err("a placement cannot be declined");
    let text = err.to_string();
    assert!(
        text.contains("agent `decliner` chose Decline, which is not among the"),
        "{text}"
    );
    assert!(text.contains("must be placed"), "the game's own reason is kept: {text}");
}

/// A session answers a person's seat through `decide` and an agent's through
/// `play_agent`: a choice given for an agent's seat is refused, and so is
/// taking back the moves of a player the game does not have.
#[test]
fn a_session_keeps_agents_seats_and_its_players_apart() {
    use meeple::agents::RandomAgent;
    use meeple::session::{Seat, Session};
    let rules = base_game(2).rules().clone();
    let seats = vec![Seat::Agent(Box::new(RandomAgent::new(3))), Seat::Human];
    let mut session = Session::new(rules, seats, 1).unwrap();
    let first = session.game().options()[0];
    let err = session.decide(first).expect_err("player 0 is an agent's seat");
    assert_eq!(err.kind(), ErrorKind::WrongDecision);
    assert!(err.to_string().contains("the agent `random`"), "{err}");
    assert!(session.decisions().is_empty(), "the refused choice changed nothing");
    session.play_agent().unwrap().expect("the agent decides");
    let err = session.undo(Player(9)).expect_err("no player 9");
    assert_eq!(err.kind(), ErrorKind::NoSuchId);
    assert!(
        err.to_string().contains("no player 9 in this game of 2 players"),
        "{err}"
    );
}
