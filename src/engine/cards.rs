//! Cards: drawing one (at random, or as a replay forces), discarding from a
//! hand, the hand limit (the engine's choice of a card to discard), and
//! the game-end cards each player resolves in turn. Cards move only
//! through `State`'s card mutators, so none is made or lost.

use super::error::ErrorKind;
use super::game::Game;
use super::ids::Player;
use super::task::{Pending, Step, Task};
use super::types::{Event, Target};
use super::value::Halt;
use crate::ir::{BlockId, CardId};
use crate::source::Span;

impl Game {
    /// Draws the top card of a deck for a player: resolved at once if it
    /// says so (as that player), else into the hand. An empty deck reshuffles its discard pile
    /// when it may; otherwise nothing is drawn.
    pub(super) fn draw_card(&mut self, deck: u16, player: usize) -> Result<(), Halt> {
        let d = deck as usize;
        let program = &self.rules.pack.program;
        if self.state.pile(d).is_empty() && program.decks[d].reshuffle {
            self.state.reshuffle(d);
        }
        let pile = self.state.pile(d);
        if pile.is_empty() {
            return Ok(());
        }
        if self.replay && self.forced_cards.is_empty() {
            let deck_name = &program.decks[d].name;
            return Err(Halt::Illegal(ErrorKind::CardsMismatch.error(format!(
                "a card is drawn from {deck_name} here, but the record names no more cards; add it to this turn's `cards`"
            ))));
        }
        let i = match self.forced_cards.pop_front() {
            Some(card) => pile.iter().position(|c| *c == card).ok_or_else(|| {
                let name = program.cards.get(card as usize).map_or("?", |c| c.name.as_str());
                let here = &program.decks[d].name;
                let message = match program.cards.get(card as usize).map(|c| c.deck as usize) {
                    Some(other) if other != d => format!(
                        "the record's next card, {name}, is from deck {}, but this draw is from deck {here}; list a step's cards in the order they are drawn",
                        program.decks[other].name
                    ),
                    _ => format!("card {name} is not in the draw pile of deck {here}"),
                };
                Halt::Illegal(ErrorKind::CardNotInPile.error(message))
            })?,
            None => self.rng.below(pile.len()),
        };
        let card = self.state.take_card(d, i);
        self.log.emit(Event::CardDrawn {
            player: Player::at(player),
            card,
        });
        match program
            .cards
            .get(card as usize)
            .and_then(|c| c.on_draw.map(|b| (b, c.span)))
        {
            Some(((block, slots), origin)) => {
                // The card acts as the player who drew it (its rules'
                // `current_player`, who answers its questions), as a hand's
                // game-end cards do; then the turn's player is current again.
                let current = self.state.current();
                if player != current {
                    self.tasks.push(Task::Current(current as u8));
                    self.state.set_current(player);
                }
                self.tasks.push(Task::ToDiscard(card));
                let locals = self.locals(slots as usize);
                self.push_frame(locals, origin, block);
            }
            None => self.state.add_to_hand(player, card),
        }
        Ok(())
    }

    /// Moves a card from a player's hand to its deck's discard pile.
    pub(super) fn discard_card(&mut self, player: usize, card: CardId) {
        if self.state.discard_from_hand(&self.rules, player, card) {
            self.emit(Event::CardDiscarded {
                player: Player::at(player),
                card,
            });
        }
    }

    /// A card resolved on drawing goes to its discard pile.
    pub(super) fn discard_resolved(&mut self, card: CardId) -> Step {
        self.state.put_on_discard(&self.rules, card);
        Step::Next
    }

    /// The hand limit: a player over a limit must discard one of the cards
    /// it covers (and is asked again until within every limit).
    pub(super) fn trim(&mut self, player: u8) -> Step {
        let hand = self.state.hand(player as usize);
        let program = &self.rules.pack.program;
        // A hand no bigger than a limit holds no more cards it covers.
        if program.hand_limits.iter().all(|h| hand.len() <= h.limit as usize) {
            return Step::Next;
        }
        let over = program
            .hand_limits
            .iter()
            .find(|h| hand.iter().filter(|c| h.covers(program.deck_of(**c))).count() > h.limit as usize);
        let Some(limit) = over else {
            return Step::Next;
        };
        let mut options = self.spare.targets.take();
        for c in hand.iter().filter(|c| limit.covers(program.deck_of(**c))) {
            if !options.contains(&Target::Card(*c)) {
                options.push(Target::Card(*c));
            }
        }
        self.ask(Pending::Trim { player, options });
        Step::Stop
    }

    /// Resolves the game-end cards of players from `next` on, in turn
    /// order, each as the current player; then `saved` is current again.
    pub(super) fn end_cards(&mut self, next: u8, saved: u8) -> Step {
        let player = next;
        if (player as usize) >= self.state.players() {
            self.state.set_current(saved as usize);
            return Step::Next;
        }
        self.tasks.push(Task::EndCards {
            next: player + 1,
            saved,
        });
        self.state.set_current(player as usize);
        let program = &self.rules.pack.program;
        let cards: Vec<(CardId, BlockId, u16, Span)> = self
            .state
            .hand(player as usize)
            .iter()
            .filter_map(|c| {
                let (block, slots) = program.cards.get(*c as usize)?.at_end?;
                Some((*c, block, slots, program.cards[*c as usize].span))
            })
            .collect();
        for (card, block, slots, origin) in cards.into_iter().rev() {
            self.discard_card(player as usize, card);
            let locals = self.locals(slots as usize);
            self.push_frame(locals, origin, block);
        }
        Step::Next
    }
}
