//! Text drawings of tiles and boards.
//!
//! Each tile is a 7×5 character picture: edge-connected wide features
//! (cities) as their kind's initial in capitals, narrow ones (roads) as `|`
//! and `=`, area features (monasteries) as their initial in the centre,
//! fields as `.`, and markers as `*` inside the city. On a board, a figure
//! shows as its owner's number (1–6), or `n` for a neutral figure. Every
//! drawing comes with a [`legend`] made from the pack's own kinds, markers
//! and figures.

use crate::engine::{Game, Player, Pos, Rotated, Rules};
use crate::ir::geometry::{COMPASS_NAMES, EDGE_NAMES, HALF_EDGE_NAMES};
use crate::ir::{Ownership, RulePack, TileId, TileType, Topology};
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
                // Opposite edges joined across the tile meet in the middle
                // (a city from west to east is one band, not two caps); a
                // corner city leaves the middle to a road bending there.
                if (edges.has(0) && edges.has(2)) || (edges.has(1) && edges.has(3)) {
                    grid[CENTRE.0][CENTRE.1] = initial;
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
                // The middle: an end, the straight line itself, or a bend
                // or junction. (A second road over the first, as on a
                // bridge, leaves the first one's middle.)
                let centre = &mut grid[CENTRE.0][CENTRE.1];
                if *centre == '.' || *centre == ' ' {
                    let across = |a, b| edges.len() == 2 && edges.has(a) && edges.has(b);
                    *centre = if edges.len() == 1 {
                        'o'
                    } else if across(0, 2) {
                        '|'
                    } else if across(1, 3) {
                        '='
                    } else {
                        '+'
                    };
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

/// The tiles `chosen` (indices into the pack's tiles), each with its name,
/// count, drawing and segments.
pub(super) fn tile_sheet(rules: &Rules, chosen: &[usize]) -> String {
    let pack = &rules.pack;
    let mut out = String::new();
    for &i in chosen {
        let tile = &pack.tiles[i];
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
    let ((x0, y0), (x1, y1)) = game.board().bounds();
    board_window(game, ((x0, y0), (x1, y1)), &[])
}

/// At most this many columns and rows of tiles are drawn around the action.
const WINDOW: (i32, i32) = (11, 7);

/// The board around `centre`, at most [`WINDOW`] tiles wide and high, with
/// each square of `marks` (where the drawn tile fits) drawn as a dotted
/// square holding its coordinates; a line says which part of the board is
/// shown when it is not all of it.
pub(super) fn board_around(game: &Game, centre: Pos, marks: &[Pos]) -> String {
    let ((mut x0, mut y0), (mut x1, mut y1)) = game.board().bounds();
    for &(x, y) in marks {
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    }
    let whole = ((x0, y0), (x1, y1));
    let crop = |lo: i32, hi: i32, c: i32, n: i32| {
        if hi - lo < n {
            return (lo, hi);
        }
        let start = (c - n / 2).clamp(lo, hi - n + 1);
        (start, start + n - 1)
    };
    let (cx0, cx1) = crop(x0, x1, centre.0, WINDOW.0);
    let (cy0, cy1) = crop(y0, y1, centre.1, WINDOW.1);
    let mut out = board_window(game, ((cx0, cy0), (cx1, cy1)), marks);
    if ((cx0, cy0), (cx1, cy1)) != whole {
        let _ = writeln!(
            out,
            "(showing x {cx0}..{cx1}, y {cy0}..{cy1} of the board's x {x0}..{x1}, y {y0}..{y1}, around ({}, {}))",
            centre.0, centre.1
        );
    }
    out
}

/// The picture of an empty square where the drawn tile fits: dotted, with
/// its coordinates inside.
fn mark_picture(pos: Pos) -> Picture {
    let mut grid = [[' '; W]; H];
    for (r, row) in grid.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            if r == 0 || r == H - 1 || c == 0 || c == W - 1 {
                *cell = ':';
            }
        }
    }
    let label = format!("{},{}", pos.0, pos.1);
    let inner: Vec<char> = if label.chars().count() <= W - 2 {
        format!("{label:^5}").chars().collect()
    } else {
        format!("{label:^W$}").chars().take(W).collect()
    };
    let start = if inner.len() == W { 0 } else { 1 };
    for (i, ch) in inner.into_iter().enumerate() {
        grid[CENTRE.0][start + i] = ch;
    }
    grid
}

/// The board's squares from `lo` to `hi` with their figures and `marks`.
fn board_window(game: &Game, (lo, hi): (Pos, Pos), marks: &[Pos]) -> String {
    let rules = game.rules();
    let pack = &rules.pack;
    let board = game.board();
    let ((x0, y0), (x1, y1)) = (lo, hi);
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
                        grid[r][c] = figure_char(m.owner);
                    }
                    grid
                }
                None if marks.contains(&(x, y)) => mark_picture((x, y)),
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

/// How a figure shows on the board: its owner's number from 1, or `n`.
fn figure_char(owner: Option<Player>) -> char {
    owner.map_or('n', |o| char::from(b'1' + o.0))
}

/// The drawn tile in each of its rotations that look different, side by
/// side, each headed by its degrees as a record writes them.
pub(super) fn tile_rotations(rules: &Rules, tile: TileId) -> String {
    let pack = &rules.pack;
    let Some(kind) = pack.tiles.get(tile as usize) else {
        return String::new();
    };
    let rotations = rules.distinct_rotations(tile);
    let pictures: Vec<Picture> = rotations
        .iter()
        .map(|r| picture(pack, kind, &rules.rotated[tile as usize][r.index()]))
        .collect();
    let mut out = String::from("  ");
    for r in rotations {
        let _ = write!(out, "{:<W$}   ", format!("rot {}", r.degrees()));
    }
    out = out.trim_end().to_string();
    out.push('\n');
    for row in 0..H {
        let line: Vec<String> = pictures.iter().map(|p| p[row].iter().collect()).collect();
        let _ = writeln!(out, "  {}", line.join("   "));
    }
    out
}

/// What each character of a drawing means, from the pack's own kinds,
/// markers and figures: a kind's initial, the narrow kinds' lines, the
/// markers drawn as `*`; with `players`, each player's figure number and
/// the neutral figures; with `marks`, the squares where the drawn tile fits.
pub(super) fn legend(pack: &RulePack, players: Option<&[String]>, marks: bool) -> String {
    let mut entries: Vec<(String, Vec<String>)> = Vec::new();
    let mut add = |symbol: String, name: &str| match entries.iter_mut().find(|(s, _)| *s == symbol) {
        Some((_, names)) => {
            if !names.iter().any(|n| n == name) {
                names.push(name.to_string());
            }
        }
        None => entries.push((symbol, vec![name.to_string()])),
    };
    for kind in &pack.kinds {
        let initial = kind.name.chars().next().unwrap_or('?').to_ascii_uppercase();
        match kind.topology {
            Topology::Edges if !kind.narrow => add(initial.to_string(), &kind.name),
            Topology::Edges => add("| =".to_string(), &kind.name),
            Topology::Area => add(initial.to_string(), &kind.name),
            Topology::HalfEdges => add(".".to_string(), &kind.name),
        }
    }
    let mut marker_names: Vec<&str> = Vec::new();
    for tile in &pack.tiles {
        for seg in &tile.segments {
            let kind = &pack.kinds[seg.kind as usize];
            if kind.topology == Topology::Edges && !kind.narrow {
                for m in &seg.markers {
                    let name = pack.markers[*m as usize].name.as_str();
                    if !marker_names.contains(&name) {
                        marker_names.push(name);
                    }
                }
            }
        }
    }
    let mut items: Vec<String> = entries
        .iter()
        .map(|(symbol, names)| {
            let extra = if symbol == "| =" {
                " (o an end, + a bend or a junction)"
            } else {
                ""
            };
            format!("{symbol} {}{extra}", names.join("/"))
        })
        .collect();
    if !marker_names.is_empty() {
        items.push(format!("* {}", marker_names.join("/")));
    }
    if let Some(players) = players {
        for (p, name) in players.iter().enumerate() {
            items.push(format!("{} {name}'s figure", figure_char(Some(Player(p as u8)))));
        }
        let neutral: Vec<&str> = pack
            .figures
            .iter()
            .filter(|f| f.ownership != Ownership::PerPlayer)
            .map(|f| f.name.as_str())
            .collect();
        if !neutral.is_empty() {
            items.push(format!("{} {}", figure_char(None), neutral.join("/")));
        }
    }
    if marks {
        items.push(": x,y a square where the tile fits".to_string());
    }
    items.push("+ - | tile borders".to_string());
    let mut out = String::from("legend:");
    let mut width = out.len();
    for item in items {
        if width + 3 + item.len() > 100 {
            out.push('\n');
            out.push_str("       ");
            width = 7;
        }
        out.push_str("   ");
        out.push_str(&item);
        width += 3 + item.len();
    }
    out.push('\n');
    out
}
