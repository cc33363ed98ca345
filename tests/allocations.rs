//! A base game's turns allocate nothing: every list a turn uses is made
//! with room when the game is set up (the board, the features, the figures
//! on the board and those that left it, the task stack) or kept and reused
//! (frame locals, event arguments, the options a player is offered), so
//! only the final scoring, once a game, makes lists. Counted by an
//! allocator that counts the allocations of the thread that asks.

use common::{bundled_rules as rules, rules_over_base, ALL_SEED_PACKS};
use meeple::{Agent, Game, RandomAgent, Rules, Setup};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Arc;

/// The system allocator, counting each thread's allocations and
/// reallocations.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    // A thread being torn down has no counter left: its allocations are
    // not this test's.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

// SAFETY: every call is passed on to `System` unchanged; counting touches
// only a thread-local cell, which allocates nothing.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's guarantees for `alloc` hold for `System`.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: `ptr` was allocated by `System` with `layout`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

mod common;

/// Plays a game with random agents, as `meeple sim` does (no event log):
/// the allocations each decision's options, choice and turn made, in order.
fn allocations_per_decision(rules: &Arc<Rules>, players: usize, seed: u64) -> Vec<usize> {
    let mut game = Game::new(rules.clone(), Setup::new(players).seed(seed)).expect("the game sets up");
    game.set_logging(false);
    let mut agent = RandomAgent::new(seed);
    let mut options = Vec::with_capacity(64);
    let mut made = Vec::new();
    while game.decision().is_some() {
        let before = allocations();
        game.options_into(&mut options);
        let choice = agent.choose(&game, &options).expect("a random agent chooses");
        game.apply(choice).expect("a legal choice applies");
        made.push(allocations() - before);
    }
    assert!(game.is_over(), "the game ran to its end");
    made
}

#[test]
fn a_base_game_allocates_only_for_its_final_scoring() {
    let base = rules(&["base"]);
    for seed in 0..12 {
        let players = 2 + seed as usize % 4;
        let made = allocations_per_decision(&base, players, seed);
        let (last, turns) = made.split_last().expect("a game has decisions");
        let allocating: Vec<(usize, usize)> = turns.iter().copied().enumerate().filter(|(_, n)| *n > 0).collect();
        assert!(
            allocating.is_empty(),
            "seed {seed}, {players} players: decisions that allocated (index, allocations): {allocating:?}"
        );
        // The count works: the final scoring lists the cities each field
        // touches.
        assert!(*last > 0, "seed {seed}: the final scoring allocates");
    }
}

/// With rules that make lists (a feature's owners, a domain's members, a
/// player's choice among cities), a game allocates as those rules run, but
/// far less than once a decision: the boxes and option lists of the
/// players' choices, the locals of handlers, the lists of their arguments
/// and the members of their loops are reused, and the kept lists are made
/// with room for most uses. (About 17 allocations in some 230 decisions,
/// most of them in the first turns, while the kept lists are made.)
#[test]
fn a_game_of_every_seed_pack_allocates_less_than_once_in_eight_decisions() {
    let packs = rules(&ALL_SEED_PACKS);
    for seed in 0..6 {
        let made = allocations_per_decision(&packs, 4, seed);
        let turns = &made[..made.len() - 1];
        let total: usize = turns.iter().sum();
        assert!(
            total * 8 < turns.len(),
            "seed {seed}: {total} allocations in {} decisions before the final scoring",
            turns.len()
        );
    }
}

/// A rule's loops over a whole domain (`for player p where ...`) and over
/// a list a built-in answers (`opponents`, a tile's features, a feature's
/// owners) list their members in kept lists: once the first turns have
/// made those lists, a turn of such rules allocates nothing.
#[test]
fn loops_of_rules_allocate_nothing_once_their_lists_are_kept() {
    let text = "pack loops\nlanguage 1\nrequires base\nvar game n: int = 0\n\
        on turn_end {\n\
          for player p where p != current_player { set n = n + 1 }\n\
          for player p in opponents { set n = n + 1 }\n\
          for feature f in placed_tile.features {\n\
            for player q in f.owners { set n = n + 1 }\n\
          }\n\
        }\n";
    let rules = rules_over_base("loops.rules", text);
    for seed in 0..6 {
        let players = 2 + seed as usize % 4;
        let made = allocations_per_decision(&rules, players, seed);
        // The first turns make the lists; the final scoring makes its own.
        let warm = 12;
        let later = &made[warm..made.len() - 1];
        let allocating: Vec<(usize, usize)> = later
            .iter()
            .copied()
            .enumerate()
            .filter(|(_, n)| *n > 0)
            .map(|(i, n)| (i + warm, n))
            .collect();
        assert!(
            allocating.is_empty(),
            "seed {seed}, {players} players: decisions that allocated (index, allocations): {allocating:?}"
        );
    }
}
