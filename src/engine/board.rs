//! The board: a square grid of placed tiles around the start tile, with the
//! set of empty squares next to a tile (the frontier) kept up to date.

use super::rules::Rules;
use crate::ir::geometry::{opposite_edge, EDGE_OFFSETS};
use crate::ir::TileId;

/// A square of the board: (x, y) with y growing southwards.
pub type Pos = (i32, i32);

/// A tile on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacedTile {
    pub tile: TileId,
    pub pos: Pos,
    /// Quarter turns clockwise.
    pub rot: u8,
    /// Feature-graph node of its first segment; segment `i` is `first_node + i`.
    pub first_node: u32,
}

/// Why a tile cannot go somewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Misfit {
    Occupied,
    Isolated,
    OutOfBounds,
    /// Board edge of the new tile, and what each side shows there (0 = field).
    Mismatch {
        edge: u8,
        mine: u16,
        theirs: u16,
    },
}

const EMPTY: u16 = 0;
const FRONTIER: u16 = u16::MAX;

/// An empty square next to the board, with what its neighbours require.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub pos: Pos,
    /// The edge signatures the neighbours require, packed like [`Rotated::packed`].
    need: u64,
    /// Which 16-bit lanes of `need` are set (the sides that have a neighbour).
    mask: u64,
}

impl Slot {
    /// Whether a tile showing `packed` fits here.
    pub fn accepts(&self, packed: u64) -> bool {
        packed & self.mask == self.need
    }
}

/// The grid of placed tiles.
#[derive(Clone, Debug)]
pub struct Board {
    half: i32,
    side: i32,
    /// 0: empty; `FRONTIER`: empty next to a tile; else index + 1 into `placed`.
    cells: Vec<u16>,
    pub placed: Vec<PlacedTile>,
    /// Empty squares next to at least one tile.
    pub frontier: Vec<Slot>,
}

impl Board {
    /// A board large enough for `tiles` tiles in any shape.
    pub fn new(tiles: usize) -> Board {
        let half = tiles as i32 + 2;
        let side = 2 * half + 1;
        Board {
            half,
            side,
            cells: vec![EMPTY; (side * side) as usize],
            placed: Vec::with_capacity(tiles),
            frontier: Vec::new(),
        }
    }

    fn index(&self, (x, y): Pos) -> Option<usize> {
        let (cx, cy) = (x + self.half, y + self.half);
        (cx >= 0 && cy >= 0 && cx < self.side && cy < self.side).then(|| (cy * self.side + cx) as usize)
    }

    /// The placed tile at `pos`, by index into `placed`.
    pub fn at(&self, pos: Pos) -> Option<u16> {
        match self.index(pos).map(|i| self.cells[i]) {
            Some(EMPTY) | Some(FRONTIER) | None => None,
            Some(v) => Some(v - 1),
        }
    }

    /// The placed tile at `pos`.
    pub fn tile_at(&self, pos: Pos) -> Option<&PlacedTile> {
        self.at(pos).map(|i| &self.placed[i as usize])
    }

    /// Tiles on the 8 squares around `pos`.
    pub fn neighbours(&self, (x, y): Pos) -> usize {
        let mut n = 0;
        for dy in -1..=1 {
            for dx in -1..=1 {
                if (dx, dy) != (0, 0) && self.at((x + dx, y + dy)).is_some() {
                    n += 1;
                }
            }
        }
        n
    }

    /// Whether `tile` turned `rot` quarters may go at `pos`, with the reason
    /// when not. [`Slot::accepts`] is the fast test for frontier squares.
    pub fn fits(&self, rules: &Rules, tile: TileId, pos: Pos, rot: u8) -> Result<(), Misfit> {
        let Some(i) = self.index(pos) else {
            return Err(Misfit::OutOfBounds);
        };
        match self.cells[i] {
            FRONTIER => {}
            EMPTY if self.placed.is_empty() => return Ok(()),
            EMPTY => return Err(Misfit::Isolated),
            _ => return Err(Misfit::Occupied),
        }
        let mine = &rules.rotated[tile as usize][rot as usize];
        for (edge, (dx, dy)) in EDGE_OFFSETS.iter().enumerate() {
            if let Some(n) = self.tile_at((pos.0 + dx, pos.1 + dy)) {
                let theirs = rules.rotated[n.tile as usize][n.rot as usize].sig[opposite_edge(edge as u8) as usize];
                if theirs != mine.sig[edge] {
                    return Err(Misfit::Mismatch {
                        edge: edge as u8,
                        mine: mine.sig[edge],
                        theirs,
                    });
                }
            }
        }
        Ok(())
    }

    /// Puts a tile on the board (its fit already checked) and returns its index.
    pub fn put(&mut self, rules: &Rules, tile: PlacedTile) -> u16 {
        let index = self.placed.len() as u16;
        let cell = self.index(tile.pos).expect("placement checked to be in bounds");
        self.cells[cell] = index + 1;
        self.placed.push(tile);
        if let Some(k) = self.frontier.iter().position(|s| s.pos == tile.pos) {
            self.frontier.swap_remove(k);
        }
        let sig = rules.rotated[tile.tile as usize][tile.rot as usize].sig;
        for (edge, (dx, dy)) in EDGE_OFFSETS.iter().enumerate() {
            let p = (tile.pos.0 + dx, tile.pos.1 + dy);
            let Some(i) = self.index(p) else { continue };
            if self.cells[i] == EMPTY {
                self.cells[i] = FRONTIER;
                self.frontier.push(Slot {
                    pos: p,
                    need: 0,
                    mask: 0,
                });
            }
            if self.cells[i] == FRONTIER {
                // The neighbour's side facing this tile must show what this edge shows.
                let lane = 16 * opposite_edge(edge as u8) as u64;
                let slot = self
                    .frontier
                    .iter_mut()
                    .find(|s| s.pos == p)
                    .expect("frontier squares have a slot");
                slot.need |= u64::from(sig[edge]) << lane;
                slot.mask |= 0xFFFF << lane;
            }
        }
        index
    }

    /// Smallest and largest x and y of placed tiles.
    pub fn bounds(&self) -> (Pos, Pos) {
        let xs = self.placed.iter().map(|p| p.pos.0);
        let ys = self.placed.iter().map(|p| p.pos.1);
        (
            (xs.clone().min().unwrap_or(0), ys.clone().min().unwrap_or(0)),
            (xs.max().unwrap_or(0), ys.max().unwrap_or(0)),
        )
    }
}
