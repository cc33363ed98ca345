//! The colours and shapes a picture uses: a pack's `style` declarations, and
//! for whatever they leave unset a default chosen by topology, with a colour
//! that depends only on the name (so a pack never seen draws the same way
//! every time).

use crate::ir::style::{Colour, Shape, Styled};
use crate::ir::{FigureTypeId, IconId, KindId, MarkerId, Ownership, RulePack, Topology};

/// Wide edge-connected kinds (cities): earthy colours.
const WIDE: [[u8; 3]; 6] = [
    [0xc8, 0xa1, 0x65],
    [0xb0, 0x7a, 0x4f],
    [0xa8, 0x8c, 0xc0],
    [0xd0, 0x8f, 0x8f],
    [0x9c, 0x9c, 0x8c],
    [0xc9, 0xb0, 0x7a],
];
/// Narrow edge-connected kinds (roads and the like): light or watery.
const NARROW: [[u8; 3]; 5] = [
    [0xf4, 0xef, 0xe2],
    [0x5b, 0x9b, 0xd5],
    [0xe8, 0xd4, 0x9a],
    [0xd9, 0xd9, 0xd9],
    [0x7f, 0xc8, 0xc8],
];
/// Half-edge-connected kinds (fields): green.
const HALF: [[u8; 3]; 4] = [
    [0x8f, 0xbf, 0x5f],
    [0x6f, 0xa8, 0x4a],
    [0xa9, 0xc9, 0x6a],
    [0x7d, 0xb3, 0x8a],
];
/// Area kinds (monasteries): strong colours that stand out on a field.
const AREA: [[u8; 3]; 5] = [
    [0xc0, 0x50, 0x4d],
    [0x8e, 0x44, 0xad],
    [0x2e, 0x86, 0x8c],
    [0xd3, 0x6f, 0x1c],
    [0x55, 0x55, 0x99],
];
/// Markers and icons.
const SYMBOL: [[u8; 3]; 6] = [
    [0x2b, 0x59, 0xc3],
    [0xb8, 0x32, 0x27],
    [0x3a, 0x8a, 0x3a],
    [0x8e, 0x2a, 0x5e],
    [0xd4, 0xa0, 0x17],
    [0x44, 0x44, 0x44],
];
/// Players' colours, by seat.
const PLAYERS: [[u8; 3]; 8] = [
    [0xd6, 0x28, 0x28],
    [0x1d, 0x4e, 0xd8],
    [0xf2, 0xc5, 0x00],
    [0x22, 0x22, 0x22],
    [0x8e, 0x44, 0xad],
    [0xf2, 0x8c, 0x28],
    [0x17, 0xa5, 0x89],
    [0xe3, 0x77, 0xc2],
];
/// Neutral figures without a style.
const NEUTRAL: [u8; 3] = [0xf5, 0xf5, 0xf5];

/// A 32-bit FNV-1a hash of a name: the same everywhere, so a name's default
/// colour never changes.
fn stable_hash(name: &str) -> u32 {
    name.bytes()
        .fold(0x811c_9dc5u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193))
}

fn pick(table: &[[u8; 3]], name: &str) -> Colour {
    Colour(table[stable_hash(name) as usize % table.len()])
}

/// Everything a picture of one pack needs to colour and shape, resolved once.
#[derive(Clone, Debug)]
pub struct Palette {
    kinds: Vec<(Colour, Shape)>,
    markers: Vec<(Colour, Shape)>,
    icons: Vec<(Colour, Shape)>,
    figures: Vec<(Colour, Shape)>,
}

impl Palette {
    /// The palette of `pack`: its styles, and defaults for the rest.
    pub fn new(pack: &RulePack) -> Palette {
        let kinds = pack
            .kinds()
            .iter()
            .enumerate()
            .map(|(k, kind)| {
                let style = pack.style(Styled::Kind(k as KindId));
                let table: &[[u8; 3]] = match (kind.topology, kind.narrow) {
                    (Topology::Edges, false) => &WIDE,
                    (Topology::Edges, true) => &NARROW,
                    (Topology::HalfEdges, _) => &HALF,
                    (Topology::Area, _) => &AREA,
                };
                (
                    style.colour.unwrap_or_else(|| pick(table, &kind.name)),
                    style.shape.unwrap_or(Shape::Building),
                )
            })
            .collect();
        let markers = (0..pack.markers().len())
            .map(|m| {
                let style = pack.style(Styled::Marker(m as MarkerId));
                (
                    style.colour.unwrap_or_else(|| pick(&SYMBOL, &pack.markers()[m].name)),
                    style.shape.unwrap_or(Shape::Shield),
                )
            })
            .collect();
        let icons = (0..pack.icons().len())
            .map(|i| {
                let style = pack.style(Styled::Icon(i as IconId));
                (
                    style.colour.unwrap_or_else(|| pick(&SYMBOL, &pack.icons()[i].name)),
                    style.shape.unwrap_or(Shape::Star),
                )
            })
            .collect();
        let figures = pack
            .figures()
            .iter()
            .enumerate()
            .map(|(f, figure)| {
                let style = pack.style(Styled::Figure(f as FigureTypeId));
                let colour = match figure.ownership {
                    Ownership::Neutral => style.colour.unwrap_or(Colour(NEUTRAL)),
                    // A player's figure takes the player's colour; this one
                    // is shown only in the legend's list of figure types.
                    Ownership::PerPlayer => style.colour.unwrap_or(Colour([0xee, 0xee, 0xee])),
                };
                (colour, style.shape.unwrap_or(Shape::Meeple))
            })
            .collect();
        Palette {
            kinds,
            markers,
            icons,
            figures,
        }
    }

    /// A feature kind's colour.
    pub fn kind(&self, kind: KindId) -> Colour {
        self.kinds[kind as usize].0
    }

    /// An area kind's shape (other kinds draw by their geometry).
    pub fn kind_shape(&self, kind: KindId) -> Shape {
        self.kinds[kind as usize].1
    }

    /// A marker's colour and shape.
    pub fn marker(&self, marker: MarkerId) -> (Colour, Shape) {
        self.markers[marker as usize]
    }

    /// An icon's colour and shape (a compass icon also draws its arrow).
    pub fn icon(&self, icon: IconId) -> (Colour, Shape) {
        self.icons[icon as usize]
    }

    /// A figure type's shape.
    pub fn figure_shape(&self, figure: FigureTypeId) -> Shape {
        self.figures[figure as usize].1
    }

    /// A figure type's own colour: what a neutral figure is painted.
    pub fn figure_colour(&self, figure: FigureTypeId) -> Colour {
        self.figures[figure as usize].0
    }

    /// Seat `seat`'s colour (seats past the table reuse it).
    pub fn player(seat: usize) -> Colour {
        Colour(PLAYERS[seat % PLAYERS.len()])
    }
}

/// A colour darkened to `percent` of its brightness, for outlines.
pub(crate) fn darker(colour: Colour, percent: u16) -> Colour {
    Colour(colour.0.map(|c| (u16::from(c) * percent / 100) as u8))
}

/// SVG markup of `shape` centred at (`x`, `y`), `size` across, turned
/// `turn` degrees clockwise, filled with `fill` and outlined in a darker tone.
pub(crate) fn shape(shape: Shape, x: f32, y: f32, size: f32, turn: u16, fill: Colour) -> String {
    let h = size / 2.0;
    let path = match shape {
        Shape::Building => format!(
            "M{} {}h{}v{}l{} {}l{} {}z",
            -h * 0.8,
            h,
            size * 0.8,
            -h * 1.1,
            -h * 0.8,
            -h * 0.9,
            -h * 0.8,
            h * 0.9
        ),
        Shape::Circle => format!("M{} 0a{h} {h} 0 1 0 {} 0a{h} {h} 0 1 0 {} 0z", -h, size, -size),
        Shape::Square => format!(
            "M{} {}h{}v{}h{}z",
            -h * 0.85,
            -h * 0.85,
            size * 0.85,
            size * 0.85,
            -size * 0.85
        ),
        Shape::Diamond => format!("M0 {}L{h} 0L0 {h}L{} 0z", -h, -h),
        Shape::Shield => format!(
            "M{} {}h{}v{}q0 {} {} {}q{} {} {} {}z",
            -h * 0.8,
            -h,
            size * 0.8,
            h,
            h * 0.7,
            -h * 0.8,
            h,
            -h * 0.8,
            -h * 0.3,
            -h * 0.8,
            -h
        ),
        Shape::Star => {
            let points: Vec<String> = (0..10)
                .map(|i| {
                    let r = if i % 2 == 0 { h } else { h * 0.45 };
                    let a = std::f32::consts::PI * (i as f32) / 5.0;
                    format!("{:.1} {:.1}", r * a.sin(), -r * a.cos())
                })
                .collect();
            format!("M{}z", points.join("L"))
        }
        Shape::Triangle => format!("M0 {}L{h} {}L{} {}z", -h, h * 0.8, -h, h * 0.8),
        Shape::Meeple => {
            // Head, arms out, legs apart: the usual wooden figure, 10 units tall.
            let u = size / 10.0;
            let body = [
                (-1.0, -2.0),
                (-4.6, -1.4),
                (-4.2, 0.2),
                (-1.8, 0.4),
                (-3.6, 5.4),
                (-1.0, 5.4),
                (0.0, 3.0),
                (1.0, 5.4),
                (3.6, 5.4),
                (1.8, 0.4),
                (4.2, 0.2),
                (4.6, -1.4),
                (1.0, -2.0),
            ];
            let points: Vec<String> = body.iter().map(|(a, b)| format!("{:.1} {:.1}", a * u, b * u)).collect();
            let r = 1.7 * u;
            format!(
                "M{}zM{:.1} {:.1}a{r:.1} {r:.1} 0 1 0 {:.1} 0a{r:.1} {r:.1} 0 1 0 {:.1} 0z",
                points.join("L"),
                -r,
                -3.4 * u,
                2.0 * r,
                -2.0 * r
            )
        }
    };
    format!(
        r#"<path d="{path}" transform="translate({x:.1} {y:.1}) rotate({turn})" fill="{}" stroke="{}" stroke-width="{:.1}" stroke-linejoin="round"/>"#,
        fill.hex(),
        darker(fill, 45).hex(),
        (size / 14.0).max(0.8)
    )
}
