//! A player's [`View`] of a game: the game with everything that player
//! cannot see (the stack's order, other players' hands, the draw piles)
//! resampled from what they can see, so search can play on from it without
//! learning anything hidden. Resampling only reorders tiles and exchanges
//! cards between hands and draw piles, so the state's conservation of tiles
//! and cards holds in a view too.

use super::game::Game;
use super::ids::Player;
use super::rng::Rng;
use super::task::{Pending, Phase};
use super::types::Target;
use crate::ir::CardId;
use std::sync::Arc;

/// A game as one player may see it ([`Game::view_for`]): what the player
/// cannot see is a sample, so it reads like a game and can be searched
/// (`view.search_clone()` plays on by the real rules), but it is not the game
/// being played and cannot be written as its record.
#[derive(Clone, Debug)]
pub struct View {
    game: Game,
}

impl View {
    /// The player whose view this is.
    pub fn viewer(&self) -> Player {
        Player(self.game.viewer.unwrap_or(0))
    }
}

impl std::ops::Deref for View {
    type Target = Game;

    fn deref(&self) -> &Game {
        &self.game
    }
}

impl Game {
    /// The game as `player` may see it, or `None` for a player the game
    /// does not have. Everything the player cannot see is sampled anew with
    /// the view's own RNG, consistent with what they can see: the order of
    /// the tile stack, the cards in other players' hands (each still from
    /// the deck its back shows) and the draw piles. So every id in a view is
    /// a real tile or card, a search from the view plays by the real rules,
    /// and it learns nothing hidden: another player's pending choice offers
    /// what the rules offer in the sample (the cards of their sampled hand
    /// that pass its filter), and the sample gives them something to choose,
    /// as their being asked shows. The sample depends only on what the
    /// player has seen and on `seed`. Like a search copy, a view keeps no
    /// event log: an agent that wants the game's public history keeps it
    /// itself from the moves it sees (its board, scores and supplies are the
    /// view's own).
    pub fn view_for(&self, player: Player) -> Option<View> {
        self.view_with_seed(player, 0)
    }

    /// [`Game::view_for`] with another sample of the hidden parts for each
    /// `seed` (search that wants many samples asks with many seeds).
    pub fn view_with_seed(&self, player: Player, seed: u64) -> Option<View> {
        if player.index() >= self.state.players() {
            return None;
        }
        let mut view = self.search_clone();
        self.sample_hidden(player.index(), seed, &mut view);
        Some(View { game: view })
    }

    /// [`Game::view_with_seed`] made in the lists of `into`, a game kept
    /// for it (as [`Game::search_clone_from`] makes a copy): `into` becomes
    /// the same sample, as a game to play on, and a search that samples many
    /// views allocates only where this game outgrew `into`. `None`, `into`
    /// unchanged, for a player the game does not have.
    pub fn view_with_seed_into(&self, player: Player, seed: u64, into: &mut Game) -> Option<()> {
        if player.index() >= self.state.players() {
            return None;
        }
        into.search_clone_from(self);
        self.sample_hidden(player.index(), seed, into);
        Some(())
    }

    /// Turns `view`, a search copy of this game, into `player`'s view with
    /// the sample of `seed`.
    fn sample_hidden(&self, player: usize, seed: u64, view: &mut Game) {
        view.forced.clear();
        view.forced_cards.clear();
        view.replay = false;
        // The real stack's key order is hidden: the view draws at random.
        view.keyed = false;
        // Seeded from public facts only, never from the game's own RNG.
        let public = [
            player as u64,
            u64::from(self.turn),
            self.state.board().placed.len() as u64,
            u64::from(self.state.next_figure_id()),
            self.state.stack().len() as u64,
            seed,
        ];
        let mut rng = Rng::new(public.iter().fold(0x5eed_u64, |h, x| {
            (h ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29)
        }));
        // Hidden things are put in a canonical order before they are
        // shuffled, so the sample depends on what is hidden (public: the
        // tiles and cards not yet seen), never on where it really lies.
        let program = &self.rules.pack.program;
        view.state.resample_hidden(player, &mut rng, |c| program.deck_of(c));
        Self::relist_pending(player, view, &mut rng);
        view.rng = rng;
        view.viewer = Some(player as u8);
    }

    /// Lists another player's pending choice again in the sample `view`:
    /// its options may depend on what only they see (the cards in their
    /// hand that pass its filter, an option's `when p.holds(...)`), so the
    /// real game's would tell the viewer what is hidden, and a sample's
    /// hand may not hold them. That the player is asked is public, and so
    /// is that they have something to choose: a sample that leaves them no
    /// option is drawn again (at most [`RESAMPLES`] times; the first
    /// sample that does is kept, so the sample is the one the viewer's
    /// knowledge allows). A choice that no sample gives an option gets
    /// [`Game::unlisted_fallback`]'s, so the view always has an answer.
    fn relist_pending(player: usize, view: &mut Game, rng: &mut Rng) {
        let Phase::Choose(pending) = &view.phase else {
            return;
        };
        if pending.player() as usize == player {
            return;
        }
        let choice = match &**pending {
            Pending::Rule(choice) => choice.clone(),
            Pending::Trim { .. } => {
                // Discarding down to the hand limit: any card of the sampled
                // hand from the limited decks.
                let kinds = Self::sampled_cards(view, pending.player(), pending.options());
                if let Phase::Choose(p) = &mut view.phase {
                    *p.options_mut() = kinds;
                }
                return;
            }
        };
        let rules = Arc::clone(&view.rules);
        let compiled = Arc::clone(&view.compiled);
        // Listing charges nothing to the view's budgets, as a look does not.
        let saved = view.budget.clone();
        let mut listed = Vec::new();
        for attempt in 0..RESAMPLES {
            if attempt > 0 {
                let program = &rules.pack.program;
                view.state.resample_hidden(player, rng, |c| program.deck_of(c));
            }
            view.budget.reset();
            match view.relist_choice(&compiled, &choice) {
                // Nothing hidden changes what it offers.
                None => {
                    view.budget = saved;
                    return;
                }
                Some(Ok(options)) if !options.is_empty() => {
                    listed = options;
                    break;
                }
                Some(_) => {}
            }
        }
        view.budget = saved;
        if listed.is_empty() {
            listed = Self::unlisted_fallback(view, &choice);
        }
        if let Phase::Choose(p) = &mut view.phase {
            *p.options_mut() = listed;
        }
    }

    /// The options of another player's pending choice when no sample gave
    /// it one (the real state is far from what the sampler draws): never
    /// none, so a search from the view can go on. Named options: every
    /// arm; cards: every card of the chooser's sampled hand from the decks
    /// the question offers; anything else (public: features, figures,
    /// players): as the real game listed them.
    fn unlisted_fallback(view: &Game, choice: &super::task::RuleChoice) -> Vec<Target> {
        let program = &view.rules.pack.program;
        match choice.domain {
            crate::ir::program::Domain::Options => match program.statement_at(choice.at).map(|s| &s.stmt) {
                Some(crate::ir::program::Stmt::ChooseOption { options, .. }) => {
                    options.iter().map(|o| Target::Option(o.body)).collect()
                }
                _ => choice.options.clone(),
            },
            crate::ir::program::Domain::Cards => Self::sampled_cards(view, choice.player, &choice.options),
            _ => choice.options.clone(),
        }
    }

    /// The kinds of card in `player`'s hand in the sample `view` from the
    /// decks of the cards `offered` (a question about their cards, asked
    /// in the real game), in order: what the sampled hand can answer.
    fn sampled_cards(view: &Game, player: u8, offered: &[Target]) -> Vec<Target> {
        let program = &view.rules.pack.program;
        let decks: Vec<u16> = offered
            .iter()
            .filter_map(|t| match t {
                Target::Card(c) => Some(program.deck_of(*c)),
                _ => None,
            })
            .collect();
        let mut kinds: Vec<CardId> = view
            .state
            .hand(usize::from(player))
            .iter()
            .copied()
            .filter(|c| decks.contains(&program.deck_of(*c)))
            .collect();
        kinds.sort_unstable();
        kinds.dedup();
        kinds.into_iter().map(Target::Card).collect()
    }
}

/// How many samples a view draws, at most, for another player's pending
/// choice to have an option ([`Game::relist_pending`]).
pub const RESAMPLES: usize = 1000;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{Agent, RandomAgent};
    use crate::engine::{Choice, Rules, Setup};

    /// Every placement draws a card, kept in the hand.
    const TOKENS: &str = "pack tokens\nrequires base\ndeck tokens\n\
        card sun x4 in tokens { kept }\ncard moon x4 in tokens { kept }\n\
        on tile_placed { draw card from tokens }\n";

    /// A game of base and a pack with a deck, played at random until
    /// player 1 holds a card that differs from one left in its draw pile.
    fn game_with_a_hidden_card() -> Game {
        let rules = Arc::new(Rules::new(crate::bundled::over_base("tokens.rules", TOKENS)));
        let mut game = Game::new(rules, Setup::new(2).seed(7)).expect("two players can play");
        let mut agent = RandomAgent::new(3);
        while !(game
            .state
            .hand(1)
            .iter()
            .any(|c| game.state.pile(0).iter().any(|d| d != c)))
        {
            let options = game.options();
            let choice = agent.choose(&game, &options).expect("random agents choose");
            game.apply(choice).expect("options are legal");
        }
        game
    }

    /// Plays a random game of `rules` (2 players) and hands each pending
    /// choice of a rule to `judge`, which says how many views of it it
    /// judged, until `enough` were judged or the game is over: how many
    /// were.
    fn judge_rule_choices(
        rules: &Arc<Rules>,
        enough: usize,
        mut judge: impl FnMut(&Game, &super::super::task::RuleChoice) -> usize,
    ) -> usize {
        let mut game = Game::new(rules.clone(), Setup::new(2).seed(5)).expect("two players can play");
        let mut agent = RandomAgent::new(1);
        let mut judged = 0;
        while game.decision().is_some() && judged < enough {
            if let Phase::Choose(p) = &game.phase {
                if let Pending::Rule(choice) = &**p {
                    judged += judge(&game, choice);
                }
            }
            let options = game.options();
            let choice = agent.choose(&game, &options).expect("random agents choose");
            game.apply(choice).expect("options are legal");
        }
        judged
    }

    /// Another player's named options whose `when` reads their hand are
    /// judged on the view's sample of it: offered when the sampled hand
    /// holds the card, whatever the real hand holds.
    #[test]
    fn another_players_named_options_are_judged_on_the_sample() {
        let pack = format!(
            "{TOKENS}on tile_placed {{\n  choose by next_player {{\n    \
             play_sun when next_player.holds(sun) {{ score 1 to next_player reason \"sun\" }}\n    \
             play_moon when next_player.holds(moon) {{ score 1 to next_player reason \"moon\" }}\n    \
             pass {{ }}\n  }}\n}}\n"
        );
        let rules = Arc::new(Rules::new(crate::bundled::over_base("tokens.rules", &pack)));
        let program = &rules.pack.program;
        let card = |name: &str| program.cards.iter().position(|c| c.name == name).expect("a card") as CardId;
        let (sun, moon) = (card("sun"), card("moon"));
        let judged = judge_rule_choices(&rules, 40, |game, choice| {
            let chooser = usize::from(choice.player);
            let viewer = Player((choice.player + 1) % 2);
            for seed in 0..4 {
                let view = game.view_with_seed(viewer, seed).expect("a player of the game");
                let hand = view.state.hand(chooser);
                let offered: Vec<&str> = view
                    .options()
                    .iter()
                    .filter_map(|c| match c {
                        Choice::Pick(Target::Option(b)) => program.option_name(*b),
                        _ => None,
                    })
                    .collect();
                assert_eq!(
                    offered.contains(&"play_sun"),
                    hand.contains(&sun),
                    "{offered:?} {hand:?}"
                );
                assert_eq!(
                    offered.contains(&"play_moon"),
                    hand.contains(&moon),
                    "{offered:?} {hand:?}"
                );
                assert!(offered.contains(&"pass"));
            }
            4
        });
        assert!(judged >= 40, "only {judged} views of the other player's choice");
    }

    /// When no sample gives another player's card choice an option, the
    /// view offers every kind of card in the chooser's sampled hand from
    /// the decks the question offers (in order, each once), never the real
    /// hand's, so the view leaves them something to choose and reveals
    /// nothing hidden.
    #[test]
    fn a_card_choice_no_sample_answers_offers_the_sampled_hand() {
        let pack = format!(
            "{TOKENS}deck stars\ncard star x4 in stars {{ kept }}\n\
             on tile_placed {{\n  draw card from stars for next_player\n  \
             choose by next_player card k where k == sun {{ }}\n}}\n"
        );
        let rules = Arc::new(Rules::new(crate::bundled::over_base("tokens.rules", &pack)));
        let program = &rules.pack.program;
        let tokens = program.deck_of(program.cards.iter().position(|c| c.name == "sun").expect("sun") as CardId);
        let kinds = |hand: &[CardId]| {
            let mut kinds: Vec<CardId> = hand.iter().copied().filter(|c| program.deck_of(*c) == tokens).collect();
            kinds.sort_unstable();
            kinds.dedup();
            kinds.into_iter().map(Target::Card).collect::<Vec<_>>()
        };
        let (mut unlike_real, mut other_decks) = (0, 0);
        let judged = judge_rule_choices(&rules, 40, |game, choice| {
            assert_eq!(choice.domain, crate::ir::program::Domain::Cards);
            let chooser = usize::from(choice.player);
            let viewer = Player((choice.player + 1) % 2);
            for seed in 0..4 {
                let view = game.view_with_seed(viewer, seed).expect("a player of the game");
                let offered = Game::unlisted_fallback(&view, choice);
                let hand = view.state.hand(chooser);
                assert_eq!(offered, kinds(hand), "the sampled hand's cards of the offered deck");
                assert!(!offered.is_empty(), "the chooser holds a card of the offered deck");
                unlike_real += usize::from(offered != kinds(game.state.hand(chooser)));
                other_decks += usize::from(hand.iter().any(|c| program.deck_of(*c) != tokens));
            }
            4
        });
        assert!(judged >= 40, "only {judged} views of the other player's card choice");
        assert!(unlike_real > 0, "no sampled hand differed from the real one");
        assert!(
            other_decks > 0,
            "the chooser never held a card the question does not offer"
        );
    }

    /// When no sample gives another player's named options one, the view
    /// offers every option of the `choose`, whichever `when`s hold.
    #[test]
    fn named_options_no_sample_answers_offer_every_arm() {
        let pack = format!(
            "{TOKENS}on tile_placed {{\n  choose by next_player {{\n    \
             play_sun when next_player.holds(sun) {{ }}\n    \
             play_moon when next_player.holds(moon) {{ }}\n    \
             pass {{ }}\n  }}\n}}\n"
        );
        let rules = Arc::new(Rules::new(crate::bundled::over_base("tokens.rules", &pack)));
        let program = &rules.pack.program;
        let mut fewer_real = 0;
        let judged = judge_rule_choices(&rules, 20, |game, choice| {
            let view = game
                .view_for(Player((choice.player + 1) % 2))
                .expect("a player of the game");
            let names: Vec<_> = Game::unlisted_fallback(&view, choice)
                .into_iter()
                .map(|t| match t {
                    Target::Option(b) => program.option_name(b),
                    _ => None,
                })
                .collect();
            assert_eq!(names, [Some("play_sun"), Some("play_moon"), Some("pass")]);
            fewer_real += usize::from(choice.options.len() < names.len());
            1
        });
        assert!(judged >= 20, "only {judged} views of the other player's choice");
        assert!(fewer_real > 0, "the real game always offered every option");
    }

    #[test]
    fn a_view_depends_only_on_what_its_player_sees() {
        let game = game_with_a_hidden_card();
        // The same game as player 0 sees it, with everything hidden moved:
        // a card of player 1 swapped with another from the draw pile, the
        // stack and the piles reordered, another RNG.
        let mut twin = game.clone();
        let (hand, pile) = (twin.state.hand_list(1), twin.state.pile_list(0));
        let (stack, cards) = twin.state.hidden_mut();
        let held = cards.get(hand)[0];
        let i = cards
            .get(pile)
            .iter()
            .position(|c| *c != held)
            .expect("a different card");
        cards.get_mut(hand)[0] = cards.get(pile)[i];
        cards.get_mut(pile)[i] = held;
        stack.reverse();
        cards.get_mut(pile).reverse();
        twin.rng = Rng::new(99);
        let (a, b) = (
            game.view_for(Player(0)).expect("player 0"),
            twin.view_for(Player(0)).expect("player 0"),
        );
        assert_eq!(a.state.hands(), b.state.hands());
        assert_eq!(a.state.piles(), b.state.piles());
        assert_eq!(a.state.stack(), b.state.stack());
        assert_eq!(format!("{:?}", a.rng), format!("{:?}", b.rng));
        assert_eq!(a.state.hand(0), game.state.hand(0), "a player sees their own hand");
        // Another seed samples again.
        let c = game.view_with_seed(Player(0), 1).expect("player 0");
        assert!(c.state.stack() != a.state.stack() || c.state.hands() != a.state.hands());
    }
}
