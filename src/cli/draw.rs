//! Text drawings of tiles and boards.
//!
//! Each tile is a 7×5 character picture: edge-connected wide features
//! (cities) as their kind's initial in capitals, narrow ones (roads) as `|`
//! and `=`, area features (monasteries) as their initial in the centre,
//! fields as `.`, and markers as `*` inside the city. On a board, a figure
//! shows as its owner's number (1–6), or `n` for a neutral figure.

use crate::engine::{Game, Rotated, Rules};
use crate::ir::geometry::{COMPASS_NAMES, EDGE_NAMES, HALF_EDGE_NAMES};
use crate::ir::{RulePack, TileType, Topology};
use std::fmt::Write as _;

const W: usize = 7;
const H: usize = 5;
const CENTRE: (usize, usize) = (2, 3);

/// A tile picture.
type Picture = [[char; W]; H];

/// Cells from each edge towards the centre, edge first: (row, col).
const SPOKES: [&[(usize, usize)]; 4] = [
    &[(0, 3), (1, 3)],
    &[(2, 6), (2, 5), (2, 4)],
    &[(4, 3), (3, 3)],
    &[(2, 0), (2, 1), (2, 2)],
];

/// The cell inside each half-edge's corner.
const HALF_CELLS: [(usize, usize); 8] = [(1, 1), (1, 5), (1, 5), (3, 5), (3, 5), (3, 1), (3, 1), (1, 1)];

/// Border cells of each edge (row, col), without the corners.
fn edge_cells(edge: u8) -> Vec<(usize, usize)> {
    match edge {
        0 => (1..W - 1).map(|c| (0, c)).collect(),
        1 => (1..H - 1).map(|r| (r, W - 1)).collect(),
        2 => (1..W - 1).map(|c| (H - 1, c)).collect(),
        _ => (1..H - 1).map(|r| (r, 0)).collect(),
    }
}

/// The picture of a tile as it lies in `rotated`.
fn picture(pack: &RulePack, tile: &TileType, rotated: &Rotated) -> Picture {
    let mut grid = [[' '; W]; H];
    for (r, row) in grid.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            *cell = match (r == 0 || r == H - 1, c == 0 || c == W - 1) {
                (true, true) => '+',
                (true, false) => '-',
                (false, true) => '|',
                (false, false) => ' ',
            };
        }
    }
    let has_field = tile
        .segments
        .iter()
        .any(|s| pack.kinds[s.kind as usize].topology == Topology::HalfEdges);
    if has_field {
        fill_inside(&mut grid, '.');
    }
    for (i, seg) in tile.segments.iter().enumerate() {
        let kind = &pack.kinds[seg.kind as usize];
        let initial = kind.name.chars().next().unwrap_or('?').to_ascii_uppercase();
        let edges = rotated.seg_edges[i];
        match kind.topology {
            Topology::Edges if !kind.narrow => {
                if edges.len() > 2 {
                    fill_inside(&mut grid, initial);
                }
                for e in edges.iter() {
                    for (r, c) in edge_cells(e) {
                        grid[r][c] = initial;
                    }
                    let inner = match e {
                        0 => vec![(1, 2), (1, 3), (1, 4)],
                        1 => vec![(2, 5)],
                        2 => vec![(3, 2), (3, 3), (3, 4)],
                        _ => vec![(2, 1)],
                    };
                    for (r, c) in inner {
                        grid[r][c] = initial;
                    }
                    if edges.len() > 1 {
                        for &(r, c) in SPOKES[e as usize] {
                            grid[r][c] = initial;
                        }
                    }
                }
                if !seg.markers.is_empty() {
                    let (r, c) = match edges.iter().next().unwrap_or(0) {
                        0 => (1, 1),
                        1 => (1, 5),
                        2 => (3, 5),
                        _ => (3, 1),
                    };
                    grid[r][c] = '*';
                }
            }
            Topology::Edges => {
                for e in edges.iter() {
                    let ch = if e % 2 == 0 { '|' } else { '=' };
                    for &(r, c) in SPOKES[e as usize] {
                        grid[r][c] = ch;
                    }
                }
                let centre = &mut grid[CENTRE.0][CENTRE.1];
                if *centre == '.' || *centre == ' ' {
                    *centre = if edges.len() == 1 { 'o' } else { '+' };
                }
            }
            Topology::Area => grid[CENTRE.0][CENTRE.1] = initial,
            Topology::HalfEdges => {}
        }
    }
    grid
}

fn fill_inside(grid: &mut Picture, ch: char) {
    for row in grid.iter_mut().take(H - 1).skip(1) {
        for cell in row.iter_mut().take(W - 1).skip(1) {
            *cell = ch;
        }
    }
}

/// The cell where a figure on segment `seg` is drawn.
fn figure_cell(pack: &RulePack, tile: &TileType, rotated: &Rotated, seg: usize) -> (usize, usize) {
    let kind = &pack.kinds[tile.segments[seg].kind as usize];
    match kind.topology {
        Topology::Area => CENTRE,
        Topology::Edges => match rotated.seg_edges[seg].iter().next().unwrap_or(0) {
            0 => (1, 3),
            1 => (2, 5),
            2 => (3, 3),
            _ => (2, 1),
        },
        Topology::HalfEdges => rotated.seg_halves[seg]
            .iter()
            .next()
            .map_or((3, 2), |h| HALF_CELLS[h as usize]),
    }
}

/// One tile, unrotated, with its segment list beside it.
fn draw_tile(rules: &Rules, t: usize) -> Vec<String> {
    let pack = &rules.pack;
    let tile = &pack.tiles[t];
    let grid = picture(pack, tile, &rules.rotated[t][0]);
    let mut lines: Vec<String> = grid.iter().map(|row| row.iter().collect()).collect();
    let mut notes: Vec<String> = tile.segments.iter().map(|s| describe_segment(pack, tile, s)).collect();
    for icon in &tile.icons {
        let name = &pack.icons[icon.icon as usize].name;
        notes.push(match icon.value {
            Some(v) => format!("icon {name} {}", COMPASS_NAMES[v as usize]),
            None => format!("icon {name}"),
        });
    }
    let height = lines.len().max(notes.len());
    lines.resize(height, " ".repeat(W));
    for (line, note) in lines.iter_mut().zip(notes) {
        line.push_str("   ");
        line.push_str(&note);
    }
    lines
}

fn describe_segment(pack: &RulePack, tile: &TileType, seg: &crate::ir::Segment) -> String {
    let kind = &pack.kinds[seg.kind as usize];
    let mut words = vec![kind.name.clone()];
    words.extend(seg.edges.iter().map(|e| EDGE_NAMES[e as usize].to_string()));
    words.extend(seg.half_edges.iter().map(|h| HALF_EDGE_NAMES[h as usize].to_string()));
    words.extend(seg.markers.iter().map(|m| pack.markers[*m as usize].name.clone()));
    if !seg.touches.is_empty() {
        words.push("touches".into());
        for t in &seg.touches {
            let other = &tile.segments[*t as usize];
            let edge = other.edges.iter().next().map_or("?", |e| EDGE_NAMES[e as usize]);
            words.push(edge.to_string());
        }
    }
    words.join(" ")
}

/// Every tile of the pack, each with its name, count and drawing.
pub(super) fn tile_sheet(rules: &Rules) -> String {
    let pack = &rules.pack;
    let mut out = String::new();
    for (i, tile) in pack.tiles.iter().enumerate() {
        let start = if i == pack.start as usize { "  (start tile)" } else { "" };
        let _ = writeln!(out, "{} x{}{start}", tile.name, tile.count);
        for line in draw_tile(rules, i) {
            let _ = writeln!(out, "  {}", line.trim_end());
        }
        out.push('\n');
    }
    out
}

/// The whole board with its figures, x along the top and y down the side.
pub(super) fn board_map(game: &Game) -> String {
    let rules = game.rules();
    let pack = &rules.pack;
    let board = game.board();
    let ((x0, y0), (x1, y1)) = board.bounds();
    let mut out = String::new();
    let _ = write!(out, "     ");
    for x in x0..=x1 {
        let _ = write!(out, "{x:^W$}");
    }
    out.push('\n');
    for y in y0..=y1 {
        let mut rows = vec![String::new(); H];
        for x in x0..=x1 {
            let grid = match board.at((x, y)) {
                Some(i) => {
                    let p = &board.placed[i.index()];
                    let tile = &pack.tiles[p.tile as usize];
                    let rotated = &rules.rotated[p.tile as usize][p.rot.index()];
                    let mut grid = picture(pack, tile, rotated);
                    for m in game.figures().iter().filter(|m| m.placed == i) {
                        let (r, c) = figure_cell(pack, tile, rotated, m.seg as usize);
                        grid[r][c] = m.owner.map_or('n', |o| char::from(b'1' + o.0));
                    }
                    grid
                }
                None => [[' '; W]; H],
            };
            for (r, row) in grid.iter().enumerate() {
                rows[r].extend(row.iter());
            }
        }
        for (r, row) in rows.iter().enumerate() {
            let label = if r == H / 2 {
                format!("{y:>4} ")
            } else {
                "     ".to_string()
            };
            let _ = writeln!(out, "{label}{}", row.trim_end());
        }
    }
    out
}
