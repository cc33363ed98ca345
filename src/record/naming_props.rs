//! Round trips of [`super::naming`] on random games: every segment of every
//! placed tile, named as a record names it, resolves back to that segment,
//! and every option of the pending decision, in its record form and back,
//! is the same option. Packs are picked from the bundled ones at run time
//! (the base game, each bundled pack alone, and as many bundled packs as
//! load together), so no expansion is named here.

use super::format::{Deploy, Pick};
use super::naming::{
    action_pick, choice_for, degrees, deploy_choice, deploy_of, pick_of, rotation, segment_at, segment_name, tile_id,
};
use crate::check::{load, PackRef};
use crate::engine::{Choice, Decision, Game, PlacedId, Pos, Rng, Rules, Setup, Target};
use proptest::prelude::*;
use std::sync::{Arc, OnceLock};

fn rules_of(names: &[&str]) -> Option<Arc<Rules>> {
    crate::bundled::load_bundled(names)
        .ok()
        .map(|pack| Arc::new(Rules::new(pack)))
}

/// The base game.
fn base() -> Arc<Rules> {
    static RULES: OnceLock<Arc<Rules>> = OnceLock::new();
    RULES.get_or_init(|| rules_of(&["base"]).expect("base loads")).clone()
}

/// Every bundled pack that loads together with the ones before it (a
/// variant that replaces a pack already taken is left out).
fn together() -> Arc<Rules> {
    static RULES: OnceLock<Arc<Rules>> = OnceLock::new();
    RULES
        .get_or_init(|| {
            let mut names: Vec<&str> = Vec::new();
            for name in crate::bundled::bundled_names() {
                names.push(name);
                if rules_of(&names).is_none() {
                    names.pop();
                }
            }
            assert!(names.len() > 2, "several bundled packs load together: {names:?}");
            rules_of(&names).expect("checked above")
        })
        .clone()
}

/// Each bundled pack alone (with the packs it requires), in the order of
/// [`crate::bundled::bundled_names`].
fn alone(i: usize) -> Arc<Rules> {
    static RULES: OnceLock<Vec<Arc<Rules>>> = OnceLock::new();
    let all = RULES.get_or_init(|| {
        crate::bundled::bundled_names()
            .map(|name| rules_of(&[name]).unwrap_or_else(|| panic!("bundled pack {name} loads")))
            .collect()
    });
    all[i % all.len()].clone()
}

/// The base game with a rule that asks a named choice every turn, some of
/// whose options are offered only sometimes (so every option's name is
/// read back while others are missing).
fn named_options() -> Arc<Rules> {
    static RULES: OnceLock<Arc<Rules>> = OnceLock::new();
    RULES
        .get_or_init(|| {
            let text = "pack named_options\nrequires base\n\
                on turn_end {\n\
                  choose {\n\
                    bank when current_player.score > 4 { score -1 to current_player reason \"bank\" }\n\
                    draw_near when placed_tile.x > 0 { score 1 to current_player reason \"near\" }\n\
                    rest { }\n\
                  }\n\
                  choose by next_player { one { } two { } }\n\
                }\n";
            let pack = load(&[PackRef::Text {
                name: "named_options".into(),
                text: text.into(),
            }])
            .unwrap_or_else(|e| panic!("the named options pack loads: {}", e.render()));
            Arc::new(Rules::new(pack))
        })
        .clone()
}

/// Every segment of every placed tile resolves from its name back to itself.
fn check_segments(game: &Game) {
    for (placed, p) in game.board().placed.iter().enumerate() {
        let placed = PlacedId(placed as u16);
        let segments = game.rules().pack.tiles[p.tile as usize].segments.len();
        for seg in 0..segments as u8 {
            let name = segment_name(game, placed, seg);
            let back = segment_at(game, placed, &name)
                .unwrap_or_else(|e| panic!("segment {seg} of the tile at {:?} is named `{name}`: {e}", p.pos));
            assert_eq!(back, seg, "segment {seg} of the tile at {:?} is named `{name}`", p.pos);
        }
    }
}

/// Two targets are the same in a record's words: the same thing (a feature
/// wherever named), or figures a record cannot tell apart (same type and
/// owner on the same segment).
fn same(game: &Game, a: Target, b: Target) -> bool {
    if game.same_target(a, b) {
        return true;
    }
    match (a, b) {
        (Target::Figure(x), Target::Figure(y)) => match (game.figure_or_gone(x), game.figure_or_gone(y)) {
            (Some(m), Some(n)) => {
                (m.placed, m.seg, m.figure_type, m.owner) == (n.placed, n.seg, n.figure_type, n.owner)
            }
            _ => false,
        },
        _ => false,
    }
}

/// An option of the pending decision in a record's words.
#[derive(Debug)]
enum Form {
    Pick(Pick),
    Deploy(PlacedId, Deploy),
    Place(String, Pos, i64),
}

fn record_form(game: &Game, choice: Choice) -> Option<Form> {
    Some(match choice {
        Choice::Pick(t) => Form::Pick(pick_of(game, t, game.spot(t))?),
        Choice::Action { action, target } => Form::Pick(action_pick(game, action, target, game.spot(target))),
        Choice::Decline => Form::Pick(Pick::Decline),
        Choice::Deploy {
            figure_type: figure,
            seg,
        } => {
            let Some(Decision::Deploy { placed, .. }) = game.decision() else {
                panic!("a deploy option outside a deploy decision");
            };
            Form::Deploy(placed, deploy_of(game, figure, placed, seg))
        }
        Choice::Place { tile, pos, rot } => {
            Form::Place(game.rules().pack.tiles[tile as usize].name.clone(), pos, degrees(rot))
        }
        Choice::Pass => return None,
    })
}

/// Every option of the pending decision, in its record form and back, is itself.
fn check_options(game: &Game) {
    for option in game.options() {
        let Some(form) = record_form(game, option) else {
            continue;
        };
        let back = match &form {
            Form::Pick(pick) => choice_for(game, pick),
            Form::Deploy(placed, d) => deploy_choice(game, *placed, d),
            Form::Place(tile, pos, rot) => tile_id(game.rules(), tile).and_then(|tile| {
                Ok(Choice::Place {
                    tile,
                    pos: *pos,
                    rot: rotation(*rot)?,
                })
            }),
        }
        .unwrap_or_else(|e| panic!("{option:?} as {form:?} does not read back: {e}"));
        let equal = match (option, back) {
            (Choice::Pick(a), Choice::Pick(b)) => same(game, a, b),
            (Choice::Action { action: a, target: t }, Choice::Action { action: b, target: u }) => {
                a == b && same(game, t, u)
            }
            (a, b) => a == b,
        };
        assert!(equal, "{option:?} as {form:?} reads back as {back:?}");
    }
}

/// Plays a game with seeded random choices, checking the naming at every
/// `every`-th decision (and at the end).
fn play_checking(rules: Arc<Rules>, players: usize, seed: u64, every: usize) {
    let mut game = Game::new(rules, Setup::new(players).seed(seed)).expect("the game sets up");
    let mut rng = Rng::new(seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut decisions = 0;
    while game.decision().is_some() {
        if decisions % every == 0 {
            check_segments(&game);
            check_options(&game);
        }
        let options = game.options();
        let choice = options[rng.below(options.len())];
        if game.apply(choice).is_err() {
            break;
        }
        decisions += 1;
    }
    check_segments(&game);
    assert!(game.is_over(), "the game played to its end");
    assert!(game.board().placed.len() > 50, "the game placed its tiles");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn base_game_names_read_back(seed in any::<u64>(), players in 2usize..=5, every in 1usize..=8) {
        play_checking(base(), players, seed, every);
    }

    #[test]
    fn each_bundled_pack_names_read_back(pack in 0usize..64, seed in any::<u64>(), players in 2usize..=5, every in 1usize..=8) {
        play_checking(alone(pack), players, seed, every);
    }

    #[test]
    fn named_options_read_back(seed in any::<u64>(), players in 2usize..=5, every in 1usize..=3) {
        play_checking(named_options(), players, seed, every);
    }

    #[test]
    fn bundled_packs_together_names_read_back(seed in any::<u64>(), players in 2usize..=5, every in 1usize..=8) {
        play_checking(together(), players, seed, every);
    }
}
