//! Lists of cards (draw piles, discard piles, hands) kept in one table, so
//! that a copy of the state copies all of them at once: a search copies
//! the state at every look ahead, and a list of lists is copied one list
//! at a time.

use crate::ir::CardId;

/// Room a list grows to at least when a card more arrives than its room
/// holds.
const START_ROOM: usize = 8;

/// Numbered lists of cards, each in a region of one table: list `i`'s
/// cards are `cards[start .. end]` of its [`Region`], with room up to
/// `limit`. A list that outgrows its room has the table laid out anew with
/// more room for it (rare: a pile starts with room for its whole deck).
#[derive(Clone)]
pub(super) struct CardLists {
    cards: Vec<CardId>,
    regions: Vec<Region>,
}

/// Where a list lies in the table: its cards `start .. end`, its room up
/// to `limit`.
#[derive(Clone, Copy)]
struct Region {
    start: u32,
    end: u32,
    limit: u32,
}

impl Region {
    fn len(self) -> usize {
        (self.end - self.start) as usize
    }

    fn room(self) -> usize {
        (self.limit - self.start) as usize
    }

    fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

impl CardLists {
    /// Empty lists with the rooms given, in one table made at once.
    pub fn with_rooms(rooms: impl IntoIterator<Item = usize>) -> CardLists {
        let mut start = 0;
        let regions: Vec<Region> = rooms
            .into_iter()
            .map(|room| {
                let limit = start + room as u32;
                let r = Region {
                    start,
                    end: start,
                    limit,
                };
                start = limit;
                r
            })
            .collect();
        CardLists {
            cards: vec![0; start as usize],
            regions,
        }
    }

    /// The cards of list `i`, in order. Panics for a list there is not, as
    /// indexing a slice does.
    #[inline]
    pub fn get(&self, i: usize) -> &[CardId] {
        &self.cards[self.regions[i].range()]
    }

    /// The cards of list `i`, to be changed in place.
    pub fn get_mut(&mut self, i: usize) -> &mut [CardId] {
        &mut self.cards[self.regions[i].range()]
    }

    /// How many lists there are.
    pub fn lists(&self) -> usize {
        self.regions.len()
    }

    /// Lists `first ..` (`count` of them), numbered from 0.
    #[inline]
    pub fn view(&self, first: usize, count: usize) -> Lists<'_> {
        Lists {
            cards: &self.cards,
            regions: &self.regions[first..first + count],
        }
    }

    /// Adds `card` at the end of list `i`.
    pub fn push(&mut self, i: usize, card: CardId) {
        if self.regions[i].end == self.regions[i].limit {
            self.grow(i, self.regions[i].len() + 1);
        }
        let r = &mut self.regions[i];
        self.cards[r.end as usize] = card;
        r.end += 1;
    }

    /// Takes the card at `at` out of list `i`, the cards after it moving
    /// up one place.
    pub fn remove(&mut self, i: usize, at: usize) -> CardId {
        let list = &mut self.cards[self.regions[i].range()];
        let card = list[at];
        list.copy_within(at + 1.., at);
        self.regions[i].end -= 1;
        card
    }

    /// Takes the card at `at` out of list `i`, the last card taking its place.
    pub fn swap_remove(&mut self, i: usize, at: usize) -> CardId {
        let list = &mut self.cards[self.regions[i].range()];
        let card = list[at];
        list[at] = list[list.len() - 1];
        self.regions[i].end -= 1;
        card
    }

    /// Moves every card of list `from` to the end of list `into`, in order.
    pub fn append(&mut self, into: usize, from: usize) {
        let (f, t) = (self.regions[from], self.regions[into]);
        if from == into || f.len() == 0 {
            return;
        }
        if t.len() + f.len() > t.room() {
            self.grow(into, t.len() + f.len());
        }
        let (f, t) = (self.regions[from], self.regions[into]);
        self.cards.copy_within(f.range(), t.end as usize);
        self.regions[into].end += f.len() as u32;
        self.regions[from].end = f.start;
    }

    /// Makes list `i` hold `cards`, in order.
    pub fn set(&mut self, i: usize, cards: &[CardId]) {
        if cards.len() > self.regions[i].room() {
            self.grow(i, cards.len());
        }
        let r = &mut self.regions[i];
        r.end = r.start + cards.len() as u32;
        self.cards[r.range()].copy_from_slice(cards);
    }

    /// Lays the table out anew with room for at least `need` cards in list
    /// `i` (twice its room, or more), every list's cards kept.
    #[cold]
    fn grow(&mut self, i: usize, need: usize) {
        let mut cards = Vec::with_capacity(self.cards.len() + need.max(START_ROOM));
        for (j, r) in self.regions.iter_mut().enumerate() {
            let room = match j == i {
                true => (2 * r.room()).max(need).max(START_ROOM),
                false => r.room(),
            };
            let start = cards.len() as u32;
            cards.extend_from_slice(&self.cards[r.range()]);
            *r = Region {
                start,
                end: cards.len() as u32,
                limit: start + room as u32,
            };
            cards.resize(r.limit as usize, 0);
        }
        self.cards = cards;
    }

    /// `source`'s lists copied into these: one copy of the table and one of
    /// the regions, with no allocation where there is the room.
    pub fn copy_from(&mut self, source: &CardLists) {
        self.cards.clone_from(&source.cards);
        self.regions.clone_from(&source.regions);
    }
}

impl PartialEq for CardLists {
    /// The same lists holding the same cards in the same order (whatever
    /// room each has).
    fn eq(&self, other: &CardLists) -> bool {
        self.view(0, self.lists()) == other.view(0, other.lists())
    }
}

impl Eq for CardLists {}

impl std::fmt::Debug for CardLists {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.view(0, self.lists()).fmt(f)
    }
}

/// Some consecutive lists of a [`CardLists`] (the draw piles, the discard
/// piles or the hands), numbered from 0: `lists[i]` is the cards of the
/// `i`-th.
#[derive(Clone, Copy)]
pub(crate) struct Lists<'a> {
    cards: &'a [CardId],
    regions: &'a [Region],
}

impl<'a> Lists<'a> {
    /// The cards of the `i`-th list; `None` past the last.
    pub fn get(&self, i: usize) -> Option<&'a [CardId]> {
        let r = self.regions.get(i)?;
        Some(&self.cards[r.range()])
    }

    /// Each list's cards, in order.
    pub fn iter(&self) -> impl Iterator<Item = &'a [CardId]> + 'a {
        let cards = self.cards;
        self.regions.iter().map(move |r| &cards[r.range()])
    }
}

impl std::ops::Index<usize> for Lists<'_> {
    type Output = [CardId];

    /// Panics past the last list, as indexing a slice does.
    #[inline]
    fn index(&self, i: usize) -> &[CardId] {
        &self.cards[self.regions[i].range()]
    }
}

impl PartialEq for Lists<'_> {
    fn eq(&self, other: &Lists<'_>) -> bool {
        self.regions.len() == other.regions.len() && self.iter().eq(other.iter())
    }
}

impl std::fmt::Debug for Lists<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    impl CardLists {
        /// Lists with the rooms given, each holding the cards given (more
        /// than the room: the room grows).
        fn new(lists: impl IntoIterator<Item = (usize, Vec<CardId>)>) -> CardLists {
            let lists: Vec<(usize, Vec<CardId>)> = lists.into_iter().collect();
            let mut store = CardLists::with_rooms(lists.iter().map(|(room, _)| *room));
            for (i, (_, cards)) in lists.iter().enumerate() {
                store.set(i, cards);
            }
            store
        }
    }

    /// One change to the lists, as the state makes them.
    #[derive(Clone, Debug)]
    enum Op {
        Push(usize, CardId),
        Remove(usize, usize),
        SwapRemove(usize, usize),
        Append(usize, usize),
        Set(usize, Vec<CardId>),
        /// A copy made into lists of another layout, which then stand in.
        CopyInto(Vec<(usize, Vec<CardId>)>),
    }

    fn op(lists: usize) -> impl Strategy<Value = Op> {
        let cards = prop::collection::vec(0..50u16, 0..40);
        prop_oneof![
            4 => (0..lists, 0..50u16).prop_map(|(i, c)| Op::Push(i, c)),
            2 => (0..lists, 0..40usize).prop_map(|(i, at)| Op::Remove(i, at)),
            2 => (0..lists, 0..40usize).prop_map(|(i, at)| Op::SwapRemove(i, at)),
            1 => (0..lists, 0..lists).prop_map(|(i, j)| Op::Append(i, j)),
            1 => (0..lists, cards.clone()).prop_map(|(i, c)| Op::Set(i, c)),
            1 => prop::collection::vec((0..5usize, cards), 0..4).prop_map(Op::CopyInto),
        ]
    }

    proptest! {
        /// The lists hold what a list of vectors changed the same way holds,
        /// through growth, removals and copies into lists of other layouts.
        #[test]
        fn lists_hold_what_vectors_would(
            start in prop::collection::vec((0..6usize, prop::collection::vec(0..50u16, 0..6)), 1..6),
            ops in prop::collection::vec(op(6), 0..60),
        ) {
            let mut lists = CardLists::new(start.clone());
            let mut model: Vec<Vec<CardId>> = start.into_iter().map(|(_, c)| c).collect();
            for op in ops {
                let n = model.len();
                match op {
                    Op::Push(i, c) => {
                        lists.push(i % n, c);
                        model[i % n].push(c);
                    }
                    Op::Remove(i, at) if at < model[i % n].len() => {
                        prop_assert_eq!(lists.remove(i % n, at), model[i % n].remove(at));
                    }
                    Op::SwapRemove(i, at) if at < model[i % n].len() => {
                        prop_assert_eq!(lists.swap_remove(i % n, at), model[i % n].swap_remove(at));
                    }
                    Op::Remove(..) | Op::SwapRemove(..) => {}
                    Op::Append(i, j) => {
                        lists.append(i % n, j % n);
                        if i % n != j % n {
                            let moved = std::mem::take(&mut model[j % n]);
                            model[i % n].extend(moved);
                        }
                    }
                    Op::Set(i, c) => {
                        lists.set(i % n, &c);
                        model[i % n] = c;
                    }
                    Op::CopyInto(other) => {
                        let mut copy = CardLists::new(other);
                        copy.copy_from(&lists);
                        prop_assert_eq!(&copy, &lists);
                        lists = copy;
                    }
                }
                prop_assert_eq!(lists.lists(), model.len());
                for (i, cards) in model.iter().enumerate() {
                    prop_assert_eq!(lists.get(i), cards.as_slice());
                }
            }
        }
    }

    #[test]
    fn lists_are_equal_by_their_cards_not_their_rooms() {
        let lists = |rooms: [usize; 2], cards: [Vec<CardId>; 2]| CardLists::new(rooms.into_iter().zip(cards));
        let a = lists([1, 0], [vec![1], vec![]]);
        assert_eq!(a, lists([5, 9], [vec![1], vec![]]));
        assert_ne!(a, lists([1, 0], [vec![2], vec![]]));
        assert_ne!(a, lists([1, 1], [vec![], vec![1]]));
        assert_ne!(a, CardLists::new([(1, vec![1])]));
        assert_eq!(a.view(0, 1), lists([3, 3], [vec![1], vec![4]]).view(0, 1));
    }

    #[test]
    fn a_list_is_changed_in_place() {
        let mut store = CardLists::new([(2, vec![1, 2]), (3, vec![3, 4, 5])]);
        store.get_mut(1).reverse();
        store.get_mut(0)[1] = 9;
        assert_eq!(store.get(0), &[1, 9]);
        assert_eq!(store.get(1), &[5, 4, 3]);
    }

    #[test]
    fn views_number_their_lists_from_zero() {
        let store = CardLists::new([(3, vec![1, 2, 3]), (3, vec![]), (0, vec![7]), (0, vec![8, 9])]);
        let hands = store.view(2, 2);
        assert_eq!(hands.iter().count(), 2);
        assert_eq!(&hands[1], &[8, 9]);
        assert_eq!(hands.get(0), Some(&[7][..]));
        assert_eq!(hands.get(2), None);
        assert_eq!(hands.iter().map(<[CardId]>::len).sum::<usize>(), 3);
        assert_eq!(format!("{hands:?}"), "[[7], [8, 9]]");
        assert_eq!(store.view(0, 0).iter().count(), 0);
    }

    #[test]
    #[should_panic(expected = "index out of bounds")]
    fn a_view_refuses_a_list_it_has_not() {
        let store = CardLists::new([(0, vec![]), (0, vec![]), (0, vec![])]);
        let _ = &store.view(0, 2)[2];
    }

    #[test]
    fn a_list_grows_past_its_room_and_keeps_the_others() {
        let mut store = CardLists::new([(2, vec![1, 2]), (0, vec![5])]);
        for c in 10..30 {
            store.push(0, c);
        }
        assert_eq!(store.get(0).len(), 22);
        assert_eq!(store.get(1), &[5]);
        store.append(1, 0);
        assert_eq!(store.get(0), &[] as &[CardId]);
        assert_eq!(store.get(1).len(), 23);
        assert_eq!(store.get(1)[..3], [5, 1, 2]);
    }
}
