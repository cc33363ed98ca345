//! Questions about the game state that follow from it without changing it:
//! which feature a segment belongs to, the figures on a feature and who
//! holds its majority, what a feature touches, where a tile could fit. They
//! read the state through its accessors only.

use super::features::FeatureId;
use super::ids::PlacedId;
use super::rules::Rules;
use super::state::State;
use super::types::Figure;
use crate::ir::{FigureTypeId, TileId};

impl State {
    /// The feature-graph node of a segment of a placed tile.
    #[inline]
    pub(super) fn node_of(&self, placed: PlacedId, seg: u8) -> u32 {
        self.board().placed[placed.index()].first_node + u32::from(seg)
    }

    /// The feature a segment of a placed tile belongs to.
    #[inline]
    pub(super) fn feature_of(&self, placed: PlacedId, seg: u8) -> FeatureId {
        self.features().find(self.node_of(placed, seg))
    }

    /// The tile and segment of a feature-graph node.
    pub(super) fn node_spot(&self, node: u32) -> (PlacedId, u8) {
        let placed = self.board().placed.partition_point(|p| p.first_node <= node) - 1;
        (
            PlacedId(placed as u16),
            (node - self.board().placed[placed].first_node) as u8,
        )
    }

    /// Figures on a feature, in the order they came to the board. The
    /// feature's count of figures ends the look early (at once when none).
    #[inline]
    pub(super) fn figures_on(&self, feature: FeatureId) -> impl Iterator<Item = &Figure> + '_ {
        let root = self.features().find(feature);
        let count = self.features().figure_count(root) as usize;
        self.figures()
            .iter()
            .filter(move |m| self.feature_of(m.placed, m.seg) == root)
            .take(count)
    }

    /// The players of greatest strength on a feature (all tied ones), as a
    /// set: bit `p` for player `p` (at most
    /// [`MAX_PLAYERS`](super::ids::MAX_PLAYERS)); empty if none. A
    /// player's strength is their figures' weights plus their `strengthen`
    /// bonus, which counts when they have a follower there (a figure of
    /// weight above 0); a strength of 0 or less holds no majority.
    pub(super) fn majority_mask(&self, f: FeatureId) -> u32 {
        // Read from the followers kept on the feature: no look at the figures.
        let standings = self.features().standings(f);
        // A player's strength is their followers' weight plus their bonus
        // (`strengthen`), which counts only with a follower of theirs there
        // (a figure of weight 0 never counts for a majority, bonus or
        // not); a strength of 0 or less is no majority.
        let (mut best, mut mask) = (i64::MIN, 0);
        for (p, s) in standings.iter().enumerate() {
            if s.followers == 0 {
                continue;
            }
            let count = i64::from(s.followers) + i64::from(s.bonus);
            if count <= 0 {
                continue;
            }
            if count > best {
                (best, mask) = (count, 1 << p);
            } else if count == best {
                mask |= 1 << p;
            }
        }
        mask
    }

    /// The features named by the `touches` lists of this feature's segments, each once.
    pub(super) fn touching(&self, rules: &Rules, f: FeatureId) -> Vec<FeatureId> {
        let mut out = Vec::new();
        self.each_touched(rules, f, |root| {
            if !out.contains(&root) {
                out.push(root);
            }
            true
        });
        out
    }

    /// [`State::touching`] into `out`, in the same order: how many, or
    /// `None` when there are more than `out` holds.
    pub(super) fn touching_into(&self, rules: &Rules, f: FeatureId, out: &mut [FeatureId]) -> Option<usize> {
        let (mut n, mut room) = (0, true);
        self.each_touched(rules, f, |root| {
            if out[..n].contains(&root) {
                return true;
            }
            let Some(slot) = out.get_mut(n) else {
                room = false;
                return false;
            };
            *slot = root;
            n += 1;
            true
        });
        room.then_some(n)
    }

    /// Each feature the `touches` lists of feature `f`'s segments name (as
    /// often as they name it), in the order of its members and their lists,
    /// to `visit`, until it returns `false`.
    fn each_touched(&self, rules: &Rules, f: FeatureId, mut visit: impl FnMut(FeatureId) -> bool) {
        for (placed, seg) in self.features().members(f) {
            let p = &self.board().placed[placed.index()];
            for &t in &rules.pack.tiles[p.tile as usize].segments[seg as usize].touches {
                if !visit(self.features().find(p.first_node + u32::from(t))) {
                    return;
                }
            }
        }
    }

    /// Whether the tile fits on some square in some rotation.
    pub(super) fn fits_anywhere(&self, rules: &Rules, tile: TileId) -> bool {
        let rotated = &rules.rotated[tile as usize];
        rules.distinct_rotations[tile as usize].iter().any(|&rot| {
            let packed = rotated[rot.index()].packed;
            self.board().frontier.iter().any(|slot| slot.accepts(packed))
        })
    }

    /// Whether a figure of this type may stand on the segment.
    pub(super) fn may_stand(&self, rules: &Rules, figure: FigureTypeId, placed: PlacedId, seg: u8) -> bool {
        let tile = &rules.pack.tiles[self.board().placed[placed.index()].tile as usize];
        rules.pack.figures[figure as usize]
            .posture_on(tile.segments[seg as usize].kind)
            .is_some()
    }
}
