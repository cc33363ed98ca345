//! One tile type drawn from its declared geometry, unrotated, in a 100 × 100
//! box: fields by half-edge underneath, wide edge kinds (cities) as regions
//! reaching their edges, narrow ones (roads) as strokes from the middle of
//! their edges to the centre, area kinds as a shape in the middle, then
//! markers and icons. Also where a figure on each segment stands.

use super::palette::{darker, shape, Palette};
use crate::ir::geometry::Bits;
use crate::ir::{IconValue, RulePack, Segment, TileType, Topology};

/// A tile's side, in picture units.
pub const SIZE: f32 = 100.0;
const C: (f32, f32) = (SIZE / 2.0, SIZE / 2.0);

/// The corner where edge `e` starts, going clockwise (N starts top left).
fn start(e: u8) -> (f32, f32) {
    [(0.0, 0.0), (SIZE, 0.0), (SIZE, SIZE), (0.0, SIZE)][e as usize % 4]
}

/// The corner where edge `e` ends.
fn end(e: u8) -> (f32, f32) {
    start(e + 1)
}

/// The middle of edge `e`.
fn mid(e: u8) -> (f32, f32) {
    let (a, b) = (start(e), end(e));
    ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
}

/// The unit vector from edge `e` towards the centre.
fn inward(e: u8) -> (f32, f32) {
    [(0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0)][e as usize % 4]
}

fn toward(p: (f32, f32), q: (f32, f32), k: f32) -> (f32, f32) {
    (p.0 + (q.0 - p.0) * k, p.1 + (q.1 - p.1) * k)
}

fn step(p: (f32, f32), e: u8, d: f32) -> (f32, f32) {
    let i = inward(e);
    (p.0 + i.0 * d, p.1 + i.1 * d)
}

fn pt(p: (f32, f32)) -> String {
    format!("{:.1} {:.1}", p.0, p.1)
}

/// A point on the quadratic curve from `a` through control `c` to `b`.
fn bezier(a: (f32, f32), c: (f32, f32), b: (f32, f32), t: f32) -> (f32, f32) {
    let (s, u) = ((1.0 - t) * (1.0 - t), 2.0 * t * (1.0 - t));
    (s * a.0 + u * c.0 + t * t * b.0, s * a.1 + u * c.1 + t * t * b.1)
}

/// The outline of a wide segment reaching `edges`: along each edge it
/// reaches, and across the tile, bulging towards the centre, past the edges
/// it does not.
fn wide_path(edges: Bits) -> String {
    if edges.len() == 4 {
        return format!("M0 0H{SIZE}V{SIZE}H0z");
    }
    let first = (0..4u8).find(|e| edges.has(*e) && !edges.has((e + 3) % 4)).unwrap_or(0);
    let mut d = format!("M{}", pt(start(first)));
    let mut skipped: Vec<u8> = Vec::new();
    for i in 0..4u8 {
        let e = (first + i) % 4;
        if edges.has(e) {
            d.push_str(&format!("L{}", pt(end(e))));
            continue;
        }
        skipped.push(e);
        let next = (e + 1) % 4;
        if edges.has(next) {
            // The bulge: deeper the more edges it passes.
            let control = match skipped.len() {
                1 => toward(C, mid(skipped[0]), 0.1),
                2 => toward(C, end(skipped[0]), 0.2),
                _ => toward(C, mid(skipped[1]), 0.2),
            };
            d.push_str(&format!("Q{} {}", pt(control), pt(start(next))));
            skipped.clear();
        }
    }
    d.push('z');
    d
}

/// The path of a narrow segment: from the middle of each edge to the centre,
/// or one curve between two edges.
fn narrow_path(edges: Bits) -> String {
    let list: Vec<u8> = edges.iter().filter(|e| *e < 4).collect();
    match list.as_slice() {
        [a, b] => format!("M{}Q{} {}", pt(mid(*a)), pt(C), pt(mid(*b))),
        _ => list.iter().map(|e| format!("M{}L{}", pt(mid(*e)), pt(C))).collect(),
    }
}

/// The triangle of half-edge `h` (its half of the edge and the centre).
fn half_triangle(h: u8) -> String {
    let e = h / 2;
    let (a, b) = if h % 2 == 0 {
        (start(e), mid(e))
    } else {
        (mid(e), end(e))
    };
    format!("M{}L{}L{}z", pt(C), pt(a), pt(b))
}

/// Where a figure standing on segment `seg` of `tile` is drawn, unrotated.
pub(crate) fn anchor(pack: &RulePack, tile: &TileType, seg: usize) -> (f32, f32) {
    let s = &tile.segments[seg];
    let kind = &pack.kinds()[s.kind as usize];
    let edges: Vec<u8> = s.edges.iter().filter(|e| *e < 4).collect();
    match (kind.topology, kind.narrow, edges.as_slice()) {
        (Topology::Edges, _, []) | (Topology::Area, _, _) => area_spot(pack, tile, seg),
        (Topology::Edges, false, [e]) => step(mid(*e), *e, 16.0),
        (Topology::Edges, false, [a, b]) if (a + 2) % 4 == *b => step(mid(*a), *a, 25.0),
        (Topology::Edges, false, list) if list.len() == 4 => C,
        (Topology::Edges, false, list) => {
            let n = list.len() as f32;
            let (x, y) = list
                .iter()
                .map(|e| step(mid(*e), *e, 28.0))
                .fold((0.0, 0.0), |acc, p| (acc.0 + p.0, acc.1 + p.1));
            (x / n, y / n)
        }
        (Topology::Edges, true, [a, b]) => bezier(mid(*a), C, mid(*b), 0.3),
        (Topology::Edges, true, list) => step(mid(list[0]), list[0], 26.0),
        (Topology::HalfEdges, _, _) => match s.half_edges.iter().next() {
            Some(h) => {
                let e = h / 2;
                let corner = if h % 2 == 0 { start(e) } else { end(e) };
                step(toward(corner, mid(e), 0.55), e, 16.0)
            }
            None => C,
        },
    }
}

/// Where an area segment (or a segment with no location) sits: the centre,
/// or side by side when a tile has several.
fn area_spot(pack: &RulePack, tile: &TileType, seg: usize) -> (f32, f32) {
    let central: Vec<usize> = (0..tile.segments.len())
        .filter(|&i| {
            let s = &tile.segments[i];
            let k = &pack.kinds()[s.kind as usize];
            k.topology == Topology::Area || (k.topology == Topology::Edges && s.edges.is_empty())
        })
        .collect();
    let n = central.len().max(1) as f32;
    let i = central.iter().position(|&i| i == seg).unwrap_or(0) as f32;
    (C.0 + (i - (n - 1.0) / 2.0) * 30.0, C.1)
}

/// Where marker number `i` of segment `seg` is drawn, beside the figure spot.
fn marker_spot(pack: &RulePack, tile: &TileType, seg: usize, i: usize) -> (f32, f32) {
    let s: &Segment = &tile.segments[seg];
    let (x, y) = anchor(pack, tile, seg);
    let along = match s.edges.iter().find(|e| *e < 4) {
        Some(0) | Some(2) => (1.0, 0.0),
        Some(_) => (0.0, 1.0),
        None => (1.0, 0.0),
    };
    let d = 15.0 + 12.0 * i as f32;
    (x + along.0 * d, y + along.1 * d)
}

/// The SVG elements of `tile`, unrotated, in a 100 × 100 box.
pub(crate) fn body(pack: &RulePack, palette: &Palette, tile: &TileType) -> String {
    let kinds = pack.kinds();
    let kind_of = |s: &Segment| &kinds[s.kind as usize];
    let background = tile
        .segments
        .iter()
        .find(|s| kind_of(s).topology == Topology::HalfEdges)
        .map(|s| s.kind)
        .or_else(|| {
            kinds
                .iter()
                .position(|k| k.topology == Topology::HalfEdges)
                .map(|k| k as u16)
        })
        .map_or("#e8e4d8".to_string(), |k| palette.kind(k).hex());
    let mut out = format!(r#"<rect width="{SIZE}" height="{SIZE}" fill="{background}"/>"#);
    for s in tile
        .segments
        .iter()
        .filter(|s| kind_of(s).topology == Topology::HalfEdges)
    {
        let fill = palette.kind(s.kind).hex();
        for h in s.half_edges.iter() {
            out.push_str(&format!(
                r#"<path d="{}" fill="{fill}" stroke="{fill}" stroke-width="0.5"/>"#,
                half_triangle(h)
            ));
        }
    }
    for s in tile
        .segments
        .iter()
        .filter(|s| kind_of(s).topology == Topology::Edges && !kind_of(s).narrow && !s.edges.is_empty())
    {
        let fill = palette.kind(s.kind);
        out.push_str(&format!(
            r#"<path d="{}" fill="{}" stroke="{}" stroke-width="2" stroke-linejoin="round"/>"#,
            wide_path(s.edges),
            fill.hex(),
            darker(fill, 70).hex()
        ));
    }
    let narrow: Vec<&Segment> = tile
        .segments
        .iter()
        .filter(|s| kind_of(s).topology == Topology::Edges && kind_of(s).narrow)
        .collect();
    for s in &narrow {
        let colour = palette.kind(s.kind);
        let d = narrow_path(s.edges);
        out.push_str(&format!(
            r#"<path d="{d}" fill="none" stroke="{}" stroke-width="15" stroke-linecap="butt"/><path d="{d}" fill="none" stroke="{}" stroke-width="10" stroke-linecap="butt"/>"#,
            darker(colour, 55).hex(),
            colour.hex()
        ));
    }
    let has_area = tile.segments.iter().any(|s| kind_of(s).topology == Topology::Area);
    let has_wide = tile
        .segments
        .iter()
        .any(|s| kind_of(s).topology == Topology::Edges && !kind_of(s).narrow);
    let ends: Vec<&&Segment> = narrow.iter().filter(|s| s.edges.len() == 1).collect();
    if !has_area {
        match ends.as_slice() {
            // A lone end in the middle of a field: a source, a pond, a dead end.
            [one] if narrow.len() == 1 && !has_wide => {
                let colour = palette.kind(one.kind);
                out.push_str(&format!(
                    r#"<circle cx="50" cy="50" r="11" fill="{}" stroke="{}" stroke-width="2.5"/>"#,
                    colour.hex(),
                    darker(colour, 55).hex()
                ));
            }
            [] | [_] => {}
            // Several ends meet: a junction.
            _ => out.push_str(
                r##"<rect x="40" y="40" width="20" height="20" fill="#7d7264" stroke="#3d372f" stroke-width="2"/>"##,
            ),
        }
    }
    for (i, s) in tile.segments.iter().enumerate() {
        let k = kind_of(s);
        if k.topology == Topology::Area || (k.topology == Topology::Edges && s.edges.is_empty()) {
            let (x, y) = area_spot(pack, tile, i);
            out.push_str(&shape(palette.kind_shape(s.kind), x, y, 34.0, 0, palette.kind(s.kind)));
        }
    }
    for (seg, s) in tile.segments.iter().enumerate() {
        for (i, m) in s.markers.iter().enumerate() {
            let (colour, form) = palette.marker(*m);
            let (x, y) = marker_spot(pack, tile, seg, i);
            out.push_str(&shape(form, x, y, 13.0, 0, colour));
        }
    }
    for (i, icon) in tile.icons.iter().enumerate() {
        let (colour, form) = palette.icon(icon.icon);
        let (x, y) = (86.0 - 18.0 * i as f32, 86.0);
        out.push_str(&format!(
            r##"<circle cx="{x:.1}" cy="{y:.1}" r="9" fill="#ffffff" fill-opacity="0.8" stroke="#555" stroke-width="1"/>"##
        ));
        match (pack.icons()[icon.icon as usize].value, icon.value) {
            (IconValue::Compass, Some(v)) => out.push_str(&format!(
                r#"<path d="M0 -7L4 3L0 1L-4 3z" transform="translate({x:.1} {y:.1}) rotate({})" fill="{}"/>"#,
                u16::from(v) * 45,
                colour.hex()
            )),
            _ => out.push_str(&shape(form, x, y, 13.0, 0, colour)),
        }
    }
    out.push_str(r##"<rect width="100" height="100" fill="none" stroke="#4a4a4a" stroke-width="1"/>"##);
    out
}

/// The id of a tile type's `<symbol>` in a picture's `<defs>`.
pub(crate) fn symbol_id(tile: usize) -> String {
    format!("tile-{tile}")
}

/// A `<symbol>` of every tile type in `tiles`, for `<use>` to place.
pub(crate) fn symbols(pack: &RulePack, palette: &Palette, tiles: impl IntoIterator<Item = usize>) -> String {
    tiles
        .into_iter()
        .map(|t| {
            format!(
                r#"<symbol id="{}" viewBox="0 0 {SIZE} {SIZE}">{}</symbol>"#,
                symbol_id(t),
                body(pack, palette, &pack.tiles()[t])
            )
        })
        .collect()
}

/// A standalone SVG picture of tile type `tile` turned `quarter_turns`
/// clockwise; `None` for a tile the pack does not have.
pub fn tile_svg(pack: &RulePack, palette: &Palette, tile: usize, quarter_turns: u8) -> Option<String> {
    let t = pack.tiles().get(tile)?;
    Some(format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{SIZE}" height="{SIZE}" viewBox="0 0 {SIZE} {SIZE}"><title>{}</title><g transform="rotate({} 50 50)">{}</g></svg>
"#,
        super::escape(&t.name),
        u16::from(quarter_turns % 4) * 90,
        body(pack, palette, t)
    ))
}

/// A point of the unrotated tile after turning it `quarter_turns` clockwise.
pub(crate) fn turn_point(p: (f32, f32), quarter_turns: u8) -> (f32, f32) {
    (0..quarter_turns % 4).fold(p, |(x, y), _| (SIZE - y, x))
}
