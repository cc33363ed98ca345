//! Tile geometry: edges, half-edges, rotations and compass directions.
//!
//! Edges are `N E S W` (indices 0..4, clockwise). Half-edges are
//! `NL NR EL ER SL SR WL WR` (indices 0..8, clockwise from the top-left
//! corner; L/R as seen from the tile centre looking out through the edge).
//! Rotating a tile 90° clockwise maps edge `e` to `e + 1` and half-edge `h`
//! to `h + 2` (mod 4 and mod 8).

/// Edge names, by index.
pub const EDGE_NAMES: [&str; 4] = ["N", "E", "S", "W"];

/// Half-edge names, by index.
pub const HALF_EDGE_NAMES: [&str; 8] = ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"];

/// Compass directions, by index (N, NE, ... clockwise).
pub const COMPASS_NAMES: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];

/// Grid offsets (dx, dy) of the neighbour through each edge; y grows southwards.
pub const EDGE_OFFSETS: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

/// A location on a tile, as named in a rules file or a game record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// A whole edge: an index into [`EDGE_NAMES`] (0 = N, clockwise, 0..4).
    Edge(u8),
    /// Half of an edge: an index into [`HALF_EDGE_NAMES`] (0 = NL, clockwise, 0..8).
    HalfEdge(u8),
}

impl Location {
    /// Parses `N`…`W` or `NL`…`WR`.
    pub fn parse(name: &str) -> Option<Location> {
        if let Some(i) = EDGE_NAMES.iter().position(|n| *n == name) {
            return Some(Location::Edge(i as u8));
        }
        HALF_EDGE_NAMES
            .iter()
            .position(|n| *n == name)
            .map(|i| Location::HalfEdge(i as u8))
    }
}

/// The edge opposite `edge`.
pub fn opposite_edge(edge: u8) -> u8 {
    (edge + 2) % 4
}

/// The half-edge that meets `half` across its edge on the neighbouring tile
/// (NL meets the neighbour's SR, NR meets SL, and so on).
pub fn facing_half_edge(half: u8) -> u8 {
    let edge = half / 2;
    let other_edge = opposite_edge(edge);
    other_edge * 2 + (1 - half % 2)
}

/// A small set of edges (bits 0..4) or half-edges (bits 0..8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bits(pub u8);

impl Bits {
    /// Whether `i` is in the set.
    pub fn has(self, i: u8) -> bool {
        self.0 & (1 << i) != 0
    }

    /// Adds `i`.
    pub fn insert(&mut self, i: u8) {
        self.0 |= 1 << i;
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of members.
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Members in increasing order.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        (0..8).filter(move |i| self.has(*i))
    }

    /// The set of edges rotated `quarters` × 90° clockwise.
    pub fn rotate_edges(self, quarters: u8) -> Bits {
        let q = quarters % 4;
        let v = self.0 & 0x0f;
        Bits(((v << q) | (v >> (4 - q))) & 0x0f)
    }

    /// The set of half-edges rotated `quarters` × 90° clockwise.
    pub fn rotate_half_edges(self, quarters: u8) -> Bits {
        let s = (quarters % 4) * 2;
        Bits(self.0.rotate_left(s as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_edges_face_their_partner() {
        // NL (west half of north) meets the northern neighbour's SR (west half of south).
        assert_eq!(HALF_EDGE_NAMES[facing_half_edge(0) as usize], "SR");
        assert_eq!(HALF_EDGE_NAMES[facing_half_edge(2) as usize], "WR");
        for h in 0..8 {
            assert_eq!(facing_half_edge(facing_half_edge(h)), h);
        }
    }

    #[test]
    fn rotation_moves_clockwise() {
        let north = Bits(0b0001);
        assert_eq!(north.rotate_edges(1), Bits(0b0010));
        assert_eq!(north.rotate_edges(3), Bits(0b1000));
        let nl = Bits(0b0000_0001);
        assert_eq!(nl.rotate_half_edges(1), Bits(0b0000_0100)); // NL -> EL
        assert_eq!(Bits(0b1000_0000).rotate_half_edges(1), Bits(0b0000_0010)); // WR -> NR
    }
}
