//! The board: a square grid of placed tiles around the start tile, with the
//! set of empty squares next to a tile (the frontier) kept up to date.

use super::ids::{PlacedId, Rotation};
use super::rules::Rules;
use crate::ir::geometry::{opposite_edge, EDGE_OFFSETS};
use crate::ir::TileId;

/// A square of the board: (x, y) with y growing southwards.
pub type Pos = (i32, i32);

/// A tile on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacedTile {
    /// The tile type.
    pub tile: TileId,
    /// The square it lies on.
    pub pos: Pos,
    /// How it is turned.
    pub rot: Rotation,
    /// Feature-graph node of its first segment; segment `i` is `first_node + i`.
    pub(crate) first_node: u32,
    /// A bit for each of its segments of an area kind (at most 64 segments a
    /// tile), so the squares around a placement are searched for area
    /// features without looking their kinds up.
    pub(crate) areas: u64,
}

/// Why a tile cannot go somewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Misfit {
    /// The square already holds a tile.
    Occupied,
    /// The square touches no placed tile.
    Isolated,
    /// An edge of the new tile does not match its neighbour's facing edge.
    Mismatch {
        /// The board edge of the new tile (0 = north, clockwise).
        edge: u8,
        /// What the new tile shows there, as an edge signature (see
        /// [`crate::engine::Rotated::sig`]; 0 is nothing).
        mine: u16,
        /// What the neighbour shows on the facing edge, likewise.
        theirs: u16,
    },
    /// No tile type has the id asked about.
    NoSuchTile,
}

const EMPTY: u16 = 0;
/// Marks a cell on the frontier; the low bits hold its slot's index in
/// `Board::frontier`. A tile set holds at most 10 000 tiles, so placed
/// indices stay below this bit and the frontier (at most two squares more
/// than twice the tiles) fits in the bits under it.
const FRONTIER: u16 = 0x8000;

/// An empty square next to the board, with what its neighbours require.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Slot {
    pub(crate) pos: Pos,
    /// The edge signatures the neighbours require, packed like [`Rotated::packed`].
    need: u64,
    /// Which 16-bit lanes of `need` are set (the sides that have a neighbour).
    mask: u64,
}

impl Slot {
    /// Whether a tile showing `packed` fits here.
    pub(crate) fn accepts(&self, packed: u64) -> bool {
        packed & self.mask == self.need
    }
}

/// Side of a new board's grid; each axis doubles when a tile comes near its edge.
const START_SIDE: i64 = 25;

/// The grid of placed tiles. It covers the board's bounding box plus a
/// margin and grows along each axis separately, so its size follows the
/// board, not the tile set.
#[derive(Debug)]
pub struct Board {
    /// Coordinates of the grid's first cell.
    x0: i64,
    y0: i64,
    width: i64,
    height: i64,
    /// 0: empty; `FRONTIER | k`: empty next to a tile, its slot `frontier[k]`;
    /// else index + 1 into `placed`.
    cells: Vec<u16>,
    pub(crate) placed: Vec<PlacedTile>,
    /// Empty squares next to at least one tile.
    pub(crate) frontier: Vec<Slot>,
    /// The placed tiles with a segment of a kind some near gate asks for
    /// (`Rules::near_kinds`), in the order placed: where they are fewer
    /// than the squares a gate would look at, it reads them instead
    /// (`Game::near_open`).
    pub(crate) near: Vec<PlacedId>,
}

impl Clone for Board {
    /// A copy with room for a few more tiles and frontier squares, so a
    /// look-ahead copy that places a tile does not grow (and copy) them again.
    fn clone(&self) -> Board {
        Board {
            cells: self.cells.clone(),
            placed: super::features::copy_with_room(&self.placed, 2),
            frontier: super::features::copy_with_room(&self.frontier, 8),
            // (A copy of rules without near gates allocates nothing for it.)
            near: match self.near.is_empty() {
                true => Vec::new(),
                false => super::features::copy_with_room(&self.near, 2),
            },
            ..*self
        }
    }

    /// `source` copied into this board's lists: no allocation where they
    /// have the room.
    fn clone_from(&mut self, source: &Board) {
        // Every field named: one added later must be copied here too.
        let Board {
            x0,
            y0,
            width,
            height,
            cells,
            placed,
            frontier,
            near,
        } = self;
        (*x0, *y0, *width, *height) = (source.x0, source.y0, source.width, source.height);
        cells.clone_from(&source.cells);
        placed.clone_from(&source.placed);
        frontier.clone_from(&source.frontier);
        near.clone_from(&source.near);
    }
}

impl Board {
    /// The tiles on the board in the order placed: the start tile first.
    pub fn tiles(&self) -> &[PlacedTile] {
        &self.placed
    }

    /// The empty squares next to a placed tile, where a tile may go.
    pub fn open_squares(&self) -> impl Iterator<Item = Pos> + '_ {
        self.frontier.iter().map(|s| s.pos)
    }

    /// An empty board.
    pub(crate) fn new() -> Board {
        let half = START_SIDE / 2;
        Board {
            x0: -half,
            y0: -half,
            width: START_SIDE,
            height: START_SIDE,
            cells: vec![EMPTY; (START_SIDE * START_SIDE) as usize],
            placed: Vec::new(),
            frontier: Vec::new(),
            near: Vec::new(),
        }
    }

    /// Makes room for `tiles` placed tiles and the frontier they can make
    /// (at most two squares more than twice the tiles), so a game that
    /// knows its tile set does not grow them a step at a time.
    pub(crate) fn reserve(&mut self, tiles: usize) {
        self.placed.reserve(tiles);
        self.frontier.reserve(2 * tiles + 2);
    }

    /// Grows the grid until `pos` and its four neighbours lie inside it.
    fn make_room(&mut self, (x, y): Pos) {
        let (x, y) = (i64::from(x), i64::from(y));
        let (mut x0, mut y0, mut width, mut height) = (self.x0, self.y0, self.width, self.height);
        while x - 1 < x0 {
            x0 -= width;
            width *= 2;
        }
        while x + 1 >= x0 + width {
            width *= 2;
        }
        while y - 1 < y0 {
            y0 -= height;
            height *= 2;
        }
        while y + 1 >= y0 + height {
            height *= 2;
        }
        if (x0, y0, width, height) == (self.x0, self.y0, self.width, self.height) {
            return;
        }
        let mut cells = vec![EMPTY; (width * height) as usize];
        for row in 0..self.height {
            let from = (row * self.width) as usize;
            let to = ((row + self.y0 - y0) * width + (self.x0 - x0)) as usize;
            cells[to..to + self.width as usize].copy_from_slice(&self.cells[from..from + self.width as usize]);
        }
        (self.x0, self.y0, self.width, self.height, self.cells) = (x0, y0, width, height, cells);
    }

    fn index(&self, (x, y): Pos) -> Option<usize> {
        let (cx, cy) = (i64::from(x) - self.x0, i64::from(y) - self.y0);
        (cx >= 0 && cy >= 0 && cx < self.width && cy < self.height).then(|| (cy * self.width + cx) as usize)
    }

    /// The id of the tile at `pos`, if one is there.
    pub fn at(&self, pos: Pos) -> Option<PlacedId> {
        match self.index(pos).map(|i| self.cells[i]) {
            Some(v) if v != EMPTY && v & FRONTIER == 0 => Some(PlacedId(v - 1)),
            _ => None,
        }
    }

    /// The placed tile at `pos`.
    pub fn tile_at(&self, pos: Pos) -> Option<&PlacedTile> {
        self.at(pos).map(|i| &self.placed[i.index()])
    }

    /// Tiles on the 8 squares around `pos`.
    pub fn neighbours(&self, pos: Pos) -> usize {
        let mut n = 0;
        self.around(pos, |_, p| n += usize::from(p != pos));
        n
    }

    /// The tiles next to `pos` across each edge (north, east, south, west,
    /// as [`EDGE_OFFSETS`]). Around a placed tile the grid always holds the
    /// four squares (see `make_room`), so their cells are read directly.
    pub(crate) fn beside(&self, (x, y): Pos) -> [Option<&PlacedTile>; 4] {
        let (cx, cy) = (i64::from(x) - self.x0, i64::from(y) - self.y0);
        if cx >= 1 && cy >= 1 && cx + 1 < self.width && cy + 1 < self.height {
            let (c, w) = ((cy * self.width + cx) as usize, self.width as usize);
            let tile = |cell: u16| (cell != EMPTY && cell & FRONTIER == 0).then(|| &self.placed[usize::from(cell - 1)]);
            return [
                tile(self.cells[c - w]),
                tile(self.cells[c + 1]),
                tile(self.cells[c + w]),
                tile(self.cells[c - 1]),
            ];
        }
        EDGE_OFFSETS.map(|(dx, dy)| self.tile_at((x + dx, y + dy)))
    }

    /// The tiles on the 3×3 squares centred on `pos` (itself included),
    /// row by row from the north-west, each with its square. Around a placed
    /// tile the grid always holds the whole 3×3 (see `make_room`), so its
    /// cells are read directly; elsewhere square by square.
    pub(crate) fn around(&self, (x, y): Pos, mut each: impl FnMut(PlacedId, Pos)) {
        let (cx, cy) = (i64::from(x) - self.x0, i64::from(y) - self.y0);
        if cx >= 1 && cy >= 1 && cx + 1 < self.width && cy + 1 < self.height {
            let w = self.width as usize;
            let first = ((cy - 1) * self.width + cx - 1) as usize;
            for (dy, start) in [(-1, first), (0, first + w), (1, first + 2 * w)] {
                // One bounds check a row: its three cells.
                let Some(&[west, middle, east]) = self.cells.get(start..start + 3) else {
                    continue;
                };
                for (dx, cell) in [(-1, west), (0, middle), (1, east)] {
                    if cell != EMPTY && cell & FRONTIER == 0 {
                        each(PlacedId(cell - 1), (x + dx, y + dy));
                    }
                }
            }
            return;
        }
        for dy in -1..=1 {
            for dx in -1..=1 {
                if let Some(p) = self.at((x + dx, y + dy)) {
                    each(p, (x + dx, y + dy));
                }
            }
        }
    }

    /// The tiles within `d` squares of `pos` (`pos` itself included), as
    /// `distance` counts squares: the 3×3 around it ([`Board::around`]) for
    /// 1, row by row from the north-west.
    pub(crate) fn each_near(&self, (x, y): Pos, d: i32, mut each: impl FnMut(PlacedId)) {
        if d == 1 {
            self.around((x, y), |p, _| each(p));
            return;
        }
        for dy in -d..=d {
            for dx in -d..=d {
                if let Some(p) = self.at((x + dx, y + dy)) {
                    each(p);
                }
            }
        }
    }

    /// Whether `tile` turned `rot` quarters may go at `pos`, with the reason
    /// when not. (Options use a faster test of the same thing on frontier squares.)
    pub fn fits(&self, rules: &Rules, tile: TileId, pos: Pos, rot: Rotation) -> Result<(), Misfit> {
        let Some(i) = self.index(pos) else {
            // Outside the grid: nothing is there, and nothing is next to it.
            return Err(Misfit::Isolated);
        };
        let Some(mine) = rules.rotated(tile, rot) else {
            return Err(Misfit::NoSuchTile);
        };
        match self.cells[i] {
            // The frontier's packed test first; the edges one by one only to name a mismatch.
            v if v & FRONTIER != 0 => {
                if self.frontier[usize::from(v & !FRONTIER)].accepts(mine.packed) {
                    return Ok(());
                }
            }
            EMPTY if self.placed.is_empty() => return Ok(()),
            EMPTY => return Err(Misfit::Isolated),
            _ => return Err(Misfit::Occupied),
        }
        for (edge, (dx, dy)) in EDGE_OFFSETS.iter().enumerate() {
            if let Some(n) = self.tile_at((pos.0 + dx, pos.1 + dy)) {
                let theirs = rules.rotated[n.tile as usize][n.rot.index()].sig[opposite_edge(edge as u8) as usize];
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

    /// Puts a tile on the board (its fit already checked) and returns its id.
    /// Frontier squares are found through their cells, never by a search;
    /// the frontier keeps the order it always had (a slot leaves by
    /// `swap_remove`, new ones are pushed), which fixes the order of options.
    pub(crate) fn put(&mut self, rules: &Rules, tile: PlacedTile) -> PlacedId {
        self.make_room(tile.pos);
        let index = self.placed.len() as u16;
        let cell = self.index(tile.pos).expect("placement checked to be in bounds");
        let was = self.cells[cell];
        self.cells[cell] = index + 1;
        if rules.near_kinds != 0 {
            self.note_near(rules, tile.tile, index);
        }
        self.placed.push(tile);
        if was & FRONTIER != 0 {
            let k = usize::from(was & !FRONTIER);
            self.frontier.swap_remove(k);
            if let Some(moved) = self.frontier.get(k).map(|s| s.pos) {
                let i = self.index(moved).expect("frontier squares lie in the grid");
                self.cells[i] = FRONTIER | k as u16;
            }
        }
        let sig = rules.rotated[tile.tile as usize][tile.rot.index()].sig;
        for (edge, (dx, dy)) in EDGE_OFFSETS.iter().enumerate() {
            let p = (tile.pos.0 + dx, tile.pos.1 + dy);
            let Some(i) = self.index(p) else { continue };
            if self.cells[i] == EMPTY {
                debug_assert!(
                    self.frontier.len() < usize::from(FRONTIER),
                    "the frontier fits under the marker bit"
                );
                self.cells[i] = FRONTIER | self.frontier.len() as u16;
                self.frontier.push(Slot {
                    pos: p,
                    need: 0,
                    mask: 0,
                });
            }
            let v = self.cells[i];
            if v & FRONTIER != 0 {
                // The neighbour's side facing this tile must show what this edge shows.
                let lane = 16 * opposite_edge(edge as u8) as u64;
                let slot = &mut self.frontier[usize::from(v & !FRONTIER)];
                slot.need |= u64::from(sig[edge]) << lane;
                slot.mask |= 0xFFFF << lane;
            }
        }
        PlacedId(index)
    }

    /// Lists placed tile `index`, of type `tile`, among the tiles near
    /// gates read (`Board::near`) when it has a segment of a kind they ask
    /// for. (Out of line, and marked cold so that the placements of rules
    /// with no near gate, most of them, are laid out as before: inlined,
    /// base 2p cost 0.1% more instructions. With a near gate it runs at
    /// every placement.)
    #[cold]
    #[inline(never)]
    fn note_near(&mut self, rules: &Rules, tile: TileId, index: u16) {
        if rules
            .tile_kinds
            .get(tile as usize)
            .is_some_and(|k| k & rules.near_kinds != 0)
        {
            self.near.push(PlacedId(index));
        }
    }

    /// Records which segments of a placed tile are of an area kind (the
    /// board knows no kinds; the state tells it once the tile is down).
    pub(crate) fn set_areas(&mut self, placed: PlacedId, areas: u64) {
        if let Some(p) = self.placed.get_mut(placed.index()) {
            p.areas = areas;
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{load, PackRef};

    #[test]
    fn the_grid_grows_under_a_long_line_of_tiles() {
        let rules = Rules::new(load(&[PackRef::Bundled("base".into())]).unwrap());
        let u = rules.pack.tile("U").unwrap(); // straight road W-E
        let mut board = Board::new();
        board.put(
            &rules,
            PlacedTile {
                tile: u,
                pos: (0, 0),
                rot: Rotation::default(),
                first_node: 0,
                areas: 0,
            },
        );
        for x in 1..=100 {
            assert_eq!(
                board.fits(&rules, u, (x, 0), Rotation::wrapping(0)),
                Ok(()),
                "at x = {x}"
            );
            assert!(
                board.fits(&rules, u, (x, 0), Rotation::wrapping(1)).is_err(),
                "a road meets a field"
            );
            board.put(
                &rules,
                PlacedTile {
                    tile: u,
                    pos: (x, 0),
                    rot: Rotation::default(),
                    first_node: 0,
                    areas: 0,
                },
            );
        }
        for x in 0..=100 {
            assert_eq!(board.at((x, 0)), Some(PlacedId(x as u16)));
        }
        assert_eq!(board.fits(&rules, u, (101, 0), Rotation::wrapping(0)), Ok(()));
        assert_eq!(
            board.fits(&rules, u, (500, 0), Rotation::wrapping(0)),
            Err(Misfit::Isolated)
        );
        assert_eq!(
            board.fits(&rules, u, (50, 0), Rotation::wrapping(0)),
            Err(Misfit::Occupied)
        );
        // Both sides of the line and both ends are open: 2 * 101 + 2.
        assert_eq!(board.frontier.len(), 204);
        // Squares around: inside the line, beside it, at its end, far away.
        assert_eq!(board.neighbours((50, 0)), 2);
        assert_eq!(board.neighbours((50, 1)), 3);
        assert_eq!(board.neighbours((101, 1)), 1);
        assert_eq!(board.neighbours((500, 0)), 0);
        // Each frontier cell names its slot.
        for (k, slot) in board.frontier.iter().enumerate() {
            let cell = board.cells[board.index(slot.pos).unwrap()];
            assert_eq!(cell, FRONTIER | k as u16, "slot {k} at {:?}", slot.pos);
        }
    }
}
