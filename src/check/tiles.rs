//! Tiles: building segments from their declarations, and checking each
//! finished tile's geometry (every edge covered once, fields only beside
//! roads and fields, `touches` naming a feature of the same tile).

use super::names::{Namespace, Visibility};
use crate::diagnostic::{Code, Diagnostic};
use crate::ir::geometry::{Bits, Location, COMPASS_NAMES, EDGE_NAMES, HALF_EDGE_NAMES};
use crate::ir::{FeatureKind, Icon, IconValue, Marker, Segment, TileIcon, TileType, Topology};
use crate::source::Span;
use crate::syntax::ast::{self, Ident};

/// A tile while its declarations are applied.
#[derive(Clone, Debug)]
pub(crate) struct TileBuild {
    pub(crate) name: Ident,
    pub(crate) count: u32,
    pub(crate) segments: Vec<SegBuild>,
    pub(crate) icons: Vec<TileIcon>,
    /// Where the count in force was set.
    pub(crate) count_span: Span,
    /// The pack that replaced the tile, if one did.
    pub(crate) replaced_by: Option<(usize, Span)>,
    /// A segment or icon failed to build: skip the coverage checks, whose
    /// errors would only repeat that failure.
    pub(crate) broken: bool,
    /// The stack it is drawn from (a draw position).
    pub(crate) stack: u16,
    /// `last`: where it was pinned to the end of its stack.
    pub(crate) last: Option<Span>,
}

/// A segment while its tile is built.
#[derive(Clone, Debug)]
pub(crate) struct SegBuild {
    pub(crate) segment: Segment,
    /// Each location with where it was written.
    pub(crate) locations: Vec<(Location, Span)>,
    pub(crate) touches: Vec<Ident>,
}

/// What building a tile needs to look up.
pub(crate) struct TileCx<'a> {
    pub(crate) unit: usize,
    pub(crate) vis: &'a Visibility,
    pub(crate) kinds: &'a [FeatureKind],
    pub(crate) kind_names: &'a Namespace,
    pub(crate) markers: &'a [Marker],
    pub(crate) marker_names: &'a Namespace,
    pub(crate) icons: &'a [Icon],
    pub(crate) icon_names: &'a Namespace,
}

/// Adds a tile body's segments and icons to `tile`.
pub(crate) fn add_body(tile: &mut TileBuild, body: &ast::TileBody, cx: &TileCx, diags: &mut Vec<Diagnostic>) {
    for item in &body.items {
        match item {
            ast::TileItem::Segment(decl) => match build_segment(decl, cx, diags) {
                Some(seg) => tile.segments.push(seg),
                None => tile.broken = true,
            },
            ast::TileItem::Icon { name, value, .. } => {
                if let Some(icon) = build_icon(name, value.as_ref(), cx, diags) {
                    tile.icons.push(icon);
                }
            }
        }
    }
}

fn build_icon(name: &Ident, value: Option<&Ident>, cx: &TileCx, diags: &mut Vec<Diagnostic>) -> Option<TileIcon> {
    let id = cx.icon_names.lookup(name, cx.unit, cx.vis, diags)?;
    let icon = &cx.icons[id as usize];
    match (icon.value, value) {
        (IconValue::None, None) => Some(TileIcon { icon: id, value: None }),
        (IconValue::None, Some(v)) => {
            diags.push(
                Diagnostic::new(Code::IconValue, format!("icon `{}` takes no value", name.name))
                    .at(v.span, "unexpected value")
                    .also(icon.span, "declared without a value here")
                    .note(format!(
                        "write `icon {}` alone, or declare `icon {}: compass`",
                        name.name, name.name
                    )),
            );
            None
        }
        (IconValue::Compass, Some(v)) => match COMPASS_NAMES.iter().position(|c| *c == v.name) {
            Some(dir) => Some(TileIcon {
                icon: id,
                value: Some(dir as u8),
            }),
            None => {
                diags.push(
                    Diagnostic::new(Code::IconValue, format!("`{}` is not a compass direction", v.name))
                        .at(v.span, "expected a compass direction")
                        .maybe_note(crate::diagnostic::did_you_mean(&v.name, COMPASS_NAMES))
                        .note("compass directions are N NE E SE S SW W NW"),
                );
                None
            }
        },
        (IconValue::Compass, None) => {
            diags.push(
                Diagnostic::new(
                    Code::IconValue,
                    format!("icon `{}` needs a compass direction", name.name),
                )
                .at(name.span, "no direction given")
                .also(icon.span, "declared with a compass value here")
                .note(format!("for example `icon {} NE`", name.name)),
            );
            None
        }
    }
}

fn build_segment(decl: &ast::SegmentDecl, cx: &TileCx, diags: &mut Vec<Diagnostic>) -> Option<SegBuild> {
    let kind_id = cx.kind_names.lookup(&decl.kind, cx.unit, cx.vis, diags)?;
    let kind = &cx.kinds[kind_id as usize];
    let errors_before = diags.len();
    let mut seg = SegBuild {
        segment: Segment {
            kind: kind_id,
            edges: Bits::default(),
            half_edges: Bits::default(),
            touches: Vec::new(),
            markers: Vec::new(),
            span: decl.span,
        },
        locations: Vec::new(),
        touches: decl.touches.clone(),
    };
    for word in &decl.words {
        match Location::parse(&word.name) {
            Some(loc) => add_location(&mut seg, kind, loc, word, diags),
            None => {
                if cx.marker_names.get(&word.name).is_none() {
                    let note = if cx.kind_names.get(&word.name).is_some() {
                        format!(
                            "`{}` is a feature kind: separate segments with `;`, as in `{} ...; {} ...`",
                            word.name, kind.name, word.name
                        )
                    } else {
                        "locations are edges N E S W or half-edges NL NR EL ER SL SR WL WR".to_string()
                    };
                    // A misspelt location or `touches` reads as an unknown marker.
                    let mut words: Vec<&str> = EDGE_NAMES.iter().chain(&HALF_EDGE_NAMES).copied().collect();
                    words.push("touches");
                    diags.push(cx.marker_names.unknown_or(word, cx.unit, cx.vis, &words).note(note));
                    continue;
                }
                let Some(marker) = cx.marker_names.lookup(word, cx.unit, cx.vis, diags) else {
                    continue;
                };
                let m = &cx.markers[marker as usize];
                // A marker whose `on` list names no kind that exists was
                // already refused there (E0003): no second error here.
                if m.on.is_empty() {
                    continue;
                }
                if !m.on.contains(&kind_id) {
                    let allowed: Vec<&str> = m.on.iter().map(|k| cx.kinds[*k as usize].name.as_str()).collect();
                    diags.push(
                        Diagnostic::new(
                            Code::MarkerNotAllowed,
                            format!("marker `{}` cannot be on a `{}`", word.name, kind.name),
                        )
                        .at(word.span, format!("on a `{}` segment", kind.name))
                        .also(
                            m.span,
                            format!("`{}` is declared for {} only", word.name, allowed.join(", ")),
                        )
                        .note(format!(
                            "add `{}` to the marker's `on` list, or move the marker",
                            kind.name
                        )),
                    );
                    continue;
                }
                seg.segment.markers.push(marker);
            }
        }
    }
    let empty = match kind.topology {
        Topology::Edges => seg.segment.edges.is_empty(),
        Topology::HalfEdges => seg.segment.half_edges.is_empty() && seg.touches.is_empty(),
        Topology::Area => false,
    };
    if diags.len() > errors_before {
        return None;
    }
    if empty {
        let what = match kind.topology {
            Topology::Edges => "an edge (N E S W)",
            _ => "a half-edge or a `touches` list",
        };
        diags.push(
            Diagnostic::new(
                Code::EmptySegment,
                format!("this `{}` segment names no location", kind.name),
            )
            .at(decl.span, "no location")
            .note(format!("a `{}` segment needs {what}", kind.name)),
        );
        return None;
    }
    Some(seg)
}

fn add_location(seg: &mut SegBuild, kind: &FeatureKind, loc: Location, word: &Ident, diags: &mut Vec<Diagnostic>) {
    let wrong = |what: &str| {
        Diagnostic::new(Code::WrongLocation, format!("`{}` segments take {what}", kind.name))
            .at(word.span, format!("`{}` is not allowed here", word.name))
            .also(
                kind.span,
                format!("`{}` is {}", kind.name, super::expr::topology_words(kind.topology)),
            )
    };
    let added = match (kind.topology, loc) {
        (Topology::Edges, Location::Edge(e)) => vec![Location::Edge(e)],
        (Topology::Edges, Location::HalfEdge(_)) => {
            diags.push(wrong("whole edges").note(format!("use the edge `{}`", &word.name[..1])));
            return;
        }
        (Topology::HalfEdges, Location::HalfEdge(h)) => vec![Location::HalfEdge(h)],
        (Topology::HalfEdges, Location::Edge(e)) => vec![Location::HalfEdge(2 * e), Location::HalfEdge(2 * e + 1)],
        (Topology::Area, _) => {
            diags
                .push(wrong("no location").note("an area feature sits in the middle of its tile; remove the location"));
            return;
        }
    };
    for l in added {
        if let Some((_, first)) = seg.locations.iter().find(|(x, _)| *x == l) {
            diags.push(
                Diagnostic::new(
                    Code::EdgeCoveredTwice,
                    format!("`{}` is named twice in one segment", location_name(l)),
                )
                .at(word.span, "named again here")
                .also(*first, "first named here")
                .note("remove one of them"),
            );
            continue;
        }
        match l {
            Location::Edge(e) => seg.segment.edges.insert(e),
            Location::HalfEdge(h) => seg.segment.half_edges.insert(h),
        }
        seg.locations.push((l, word.span));
    }
}

fn location_name(l: Location) -> &'static str {
    match l {
        Location::Edge(e) => EDGE_NAMES[e as usize],
        Location::HalfEdge(h) => HALF_EDGE_NAMES[h as usize],
    }
}

/// Checks a finished tile's geometry, resolves `touches`, and returns the IR tile.
pub(crate) fn finish(tile: TileBuild, kinds: &[FeatureKind], diags: &mut Vec<Diagnostic>) -> TileType {
    // Crossings are looked for only on a tile whose edges are well given.
    let told = diags.len();
    let name = &tile.name;
    let has_fields = kinds.iter().any(|k| k.topology == Topology::HalfEdges) && !tile.broken;
    let mut edge_owner: [Option<(usize, Span)>; 4] = [None; 4];
    let mut half_owner: [Option<(usize, Span)>; 8] = [None; 8];
    for (i, seg) in tile.segments.iter().enumerate() {
        for &(loc, span) in &seg.locations {
            let (slot, label) = match loc {
                Location::Edge(e) => (&mut edge_owner[e as usize], EDGE_NAMES[e as usize]),
                Location::HalfEdge(h) => (&mut half_owner[h as usize], HALF_EDGE_NAMES[h as usize]),
            };
            match slot {
                Some((_, first)) => diags.push(
                    Diagnostic::new(
                        Code::EdgeCoveredTwice,
                        format!("`{label}` of tile `{}` belongs to two segments", name.name),
                    )
                    .at(span, "used again here")
                    .also(*first, "first used here")
                    .note(format!(
                        "each edge and half-edge belongs to exactly one segment; remove `{label}` from one of them"
                    )),
                ),
                None => *slot = Some((i, span)),
            }
        }
    }
    for (e, owner) in edge_owner.iter().enumerate() {
        let wide = owner.filter(|(i, _)| {
            let kind = &kinds[tile.segments[*i].segment.kind as usize];
            !kind.narrow
        });
        for h in [2 * e, 2 * e + 1] {
            match (wide, half_owner[h]) {
                (Some((i, edge_span)), Some((_, half_span))) => {
                    let kind = &kinds[tile.segments[i].segment.kind as usize].name;
                    diags.push(
                        Diagnostic::new(
                            Code::HalfEdgeOnWideEdge,
                            format!(
                                "half-edge `{}` lies on edge `{}`, which the `{kind}` fills",
                                HALF_EDGE_NAMES[h], EDGE_NAMES[e]
                            ),
                        )
                        .at(half_span, "a field half-edge here")
                        .also(edge_span, format!("the `{kind}` fills edge `{}` here", EDGE_NAMES[e]))
                        .note("fields may lie only on field edges and beside narrow features such as roads"),
                    );
                }
                (None, None) if has_fields => {
                    let what = if owner.is_some() {
                        format!(
                            "half-edge `{}` beside the road on edge `{}`",
                            HALF_EDGE_NAMES[h], EDGE_NAMES[e]
                        )
                    } else if half_owner[h ^ 1].is_some() {
                        format!("half-edge `{}`", HALF_EDGE_NAMES[h])
                    } else {
                        format!("edge `{}`", EDGE_NAMES[e])
                    };
                    let fix = if owner.is_some() || half_owner[h ^ 1].is_some() {
                        format!("add `{}` to a field", HALF_EDGE_NAMES[h])
                    } else {
                        format!("add `{}` to a city, road or field", EDGE_NAMES[e])
                    };
                    diags.push(
                        Diagnostic::new(
                            Code::EdgeUncovered,
                            format!("{what} of tile `{}` is not covered", name.name),
                        )
                        .at(name.span, "in this tile")
                        .note(fix),
                    );
                    if owner.is_none() && half_owner[h ^ 1].is_none() {
                        break; // one message for the whole edge
                    }
                }
                _ => {}
            }
        }
        if owner.is_none() && !has_fields && !tile.broken {
            diags.push(
                Diagnostic::new(
                    Code::EdgeUncovered,
                    format!("edge `{}` of tile `{}` is not covered", EDGE_NAMES[e], name.name),
                )
                .at(name.span, "in this tile")
                .note(format!("add `{}` to a segment", EDGE_NAMES[e])),
            );
        }
    }

    if !tile.broken && diags.len() == told {
        crossing_fields(&tile, kinds, diags);
    }
    let mut segments: Vec<Segment> = Vec::with_capacity(tile.segments.len());
    for seg in &tile.segments {
        let mut s = seg.segment.clone();
        for word in &seg.touches {
            let target = match Location::parse(&word.name) {
                Some(Location::Edge(e)) => edge_owner[e as usize].map(|(i, _)| i),
                _ => None,
            };
            match target {
                Some(i) if !s.touches.contains(&(i as u8)) => s.touches.push(i as u8),
                Some(_) => {}
                None if tile.broken => {}
                None => diags.push(
                    Diagnostic::new(Code::BadTouches, format!("`touches {}` names no feature of tile `{}`", word.name, name.name))
                        .at(word.span, "nothing to touch here")
                        .note("name a city (or another edge-connected feature) of this tile by one of its edges, e.g. `touches N`"),
                ),
            }
        }
        segments.push(s);
    }
    TileType {
        name: name.name.clone(),
        count: tile.count,
        segments,
        icons: tile.icons,
        span: name.span,
        count_span: tile.count_span,
        stack: tile.stack,
        last: tile.last.is_some(),
    }
}

/// Where `loc`, of a segment of a wide kind (a city, filling its edge) or
/// not, lies on the tile's border: of the 12 places going round it
/// clockwise (`NL N NR EL E ER SL S SR WL W WR`), those it takes.
fn border_places(loc: Location, wide: bool) -> std::ops::Range<usize> {
    match loc {
        Location::Edge(e) if wide => 3 * e as usize..3 * e as usize + 3,
        Location::Edge(e) => 3 * e as usize + 1..3 * e as usize + 2,
        Location::HalfEdge(h) => {
            let at = 3 * (h as usize / 2) + 2 * (h as usize % 2);
            at..at + 1
        }
    }
}

/// E0062 for each field of `tile` that crosses another segment: going
/// round the border, the two alternate (field, other, field, other). A
/// flat tile's field lies between roads and cities, never across them.
fn crossing_fields(tile: &TileBuild, kinds: &[FeatureKind], diags: &mut Vec<Diagnostic>) {
    let places = |seg: &SegBuild| {
        let kind = &kinds[seg.segment.kind as usize];
        let wide = kind.topology == Topology::Edges && !kind.narrow;
        let mut taken = [false; 12];
        for &(loc, _) in &seg.locations {
            for p in border_places(loc, wide) {
                taken[p] = true;
            }
        }
        taken
    };
    let all: Vec<[bool; 12]> = tile.segments.iter().map(places).collect();
    let is_field = |s: &SegBuild| kinds[s.segment.kind as usize].topology == Topology::HalfEdges;
    // One error a field: against a road or city it crosses, else a field.
    let mut told = vec![false; tile.segments.len()];
    for (i, field) in tile.segments.iter().enumerate() {
        if !is_field(field) || told[i] {
            continue;
        }
        let crossed = |fields: bool| {
            (0..tile.segments.len())
                .find(|&j| j != i && is_field(&tile.segments[j]) == fields && !told[j] && alternate(&all[i], &all[j]))
        };
        let Some(j) = crossed(false).or_else(|| crossed(true)) else {
            continue;
        };
        let other = &tile.segments[j];
        let kind = |s: &SegBuild| kinds[s.segment.kind as usize].name.clone();
        let span = |s: &SegBuild| s.locations.first().map(|&(_, span)| span);
        let (Some(at), Some(other_at)) = (span(field), span(other)) else {
            continue;
        };
        told[i] = true;
        told[j] = is_field(other);
        diags.push(
            Diagnostic::new(
                Code::SegmentsCross,
                format!(
                    "a {} of tile `{}` crosses a {}",
                    kind(field),
                    tile.name.name,
                    kind(other)
                ),
            )
            .at(
                at,
                format!("this {} reaches both sides of the {}", kind(field), kind(other)),
            )
            .also(other_at, format!("the {} runs between them", kind(other)))
            .note("going round the tile, the two alternate; split the field in two, one on each side"),
        );
    }
}

/// Whether the places `a` and `b` take alternate going round the border:
/// a, b, a, b (each a run of places), which on a flat tile means crossing.
fn alternate(a: &[bool; 12], b: &[bool; 12]) -> bool {
    // The owners met going round, each run counted once.
    let mut runs: Vec<bool> = Vec::new();
    for p in 0..12 {
        let owner = match (a[p], b[p]) {
            (true, _) => true,
            (false, true) => false,
            (false, false) => continue,
        };
        if runs.last() != Some(&owner) {
            runs.push(owner);
        }
    }
    // Going round, the last run meets the first.
    if runs.len() > 1 && runs.first() == runs.last() {
        runs.pop();
    }
    runs.len() >= 4
}
