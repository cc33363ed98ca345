//! `rules/base.rules` against the reference tile table (tests/data/base_tiles.json,
//! transcribed independently from the public tile tables).

use meeple::ir::geometry::{EDGE_NAMES, HALF_EDGE_NAMES};
use meeple::ir::{RulePack, Topology};
use meeple::{load, PackRef};
use std::collections::BTreeSet;

fn base() -> RulePack {
    load(&[PackRef::Path("rules/base.rules".into())]).unwrap_or_else(|e| panic!("{}", e.render()))
}

#[test]
fn base_set_has_the_published_totals() {
    let pack = base();
    let city = pack.kind("city").unwrap();
    let monastery = pack.kind("monastery").unwrap();
    let pennant = pack.marker("pennant").unwrap();
    assert_eq!(pack.tile_count(), 72);
    assert_eq!(pack.tiles().len(), 24);
    let pennants: u32 = pack
        .tiles()
        .iter()
        .map(|t| t.count * t.marker_count(pennant) as u32)
        .sum();
    assert_eq!(pennants, 10);
    let monasteries: u32 = pack
        .tiles()
        .iter()
        .filter(|t| t.segments.iter().any(|s| s.kind == monastery))
        .map(|t| t.count)
        .sum();
    assert_eq!(monasteries, 6);
    assert_eq!(pack.tiles()[pack.start() as usize].name, "D");
    assert!(pack.tiles().iter().any(|t| t.segments.iter().any(|s| s.kind == city)));
    let follower = &pack.figures()[pack.figure("follower").unwrap() as usize];
    assert_eq!(follower.count, 7);
}

type EdgeSet = BTreeSet<String>;

fn names(bits: meeple::ir::geometry::Bits, table: &[&str]) -> EdgeSet {
    bits.iter().map(|i| table[i as usize].to_string()).collect()
}

fn strings(v: &serde_json::Value) -> EdgeSet {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn every_base_tile_matches_the_reference_table() {
    let pack = base();
    let city = pack.kind("city").unwrap();
    let road = pack.kind("road").unwrap();
    let monastery = pack.kind("monastery").unwrap();
    let pennant = pack.marker("pennant").unwrap();
    let json: serde_json::Value = serde_json::from_str(include_str!("data/base_tiles.json")).unwrap();
    let reference = json["tiles"].as_array().unwrap();
    assert_eq!(reference.len(), pack.tiles().len());
    for r in reference {
        let letter = r["letter"].as_str().unwrap();
        let tile = &pack.tiles()[pack.tile(letter).unwrap_or_else(|| panic!("tile {letter} missing")) as usize];
        assert_eq!(u64::from(tile.count), r["count"].as_u64().unwrap(), "count of {letter}");
        assert_eq!(
            pack.start() as usize == pack.tile(letter).unwrap() as usize,
            r["start_tile"].as_bool().unwrap()
        );
        for (e, edge) in EDGE_NAMES.iter().enumerate() {
            let kind = match tile.edge_segment(e as u8) {
                Some(s) if tile.segments[s].kind == city => "city",
                Some(s) if tile.segments[s].kind == road => "road",
                Some(_) => "other",
                None => "field",
            };
            assert_eq!(kind, r["edges"][edge].as_str().unwrap(), "edge {edge} of {letter}");
        }
        let cities: BTreeSet<(EdgeSet, u64)> = tile
            .segments
            .iter()
            .filter(|s| s.kind == city)
            .map(|s| {
                (
                    names(s.edges, &EDGE_NAMES),
                    s.markers.iter().filter(|m| **m == pennant).count() as u64,
                )
            })
            .collect();
        let ref_cities: Vec<(EdgeSet, u64)> = r["cities"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (strings(&c["edges"]), c["pennants"].as_u64().unwrap()))
            .collect();
        assert_eq!(cities, ref_cities.iter().cloned().collect(), "cities of {letter}");
        let roads: BTreeSet<EdgeSet> = tile
            .segments
            .iter()
            .filter(|s| s.kind == road)
            .map(|s| names(s.edges, &EDGE_NAMES))
            .collect();
        let ref_roads: BTreeSet<EdgeSet> = r["roads"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| strings(&x["edges"]))
            .collect();
        assert_eq!(roads, ref_roads, "roads of {letter}");
        let has_monastery = tile.segments.iter().any(|s| s.kind == monastery);
        assert_eq!(
            has_monastery,
            r["monastery"].as_bool().unwrap(),
            "monastery of {letter}"
        );
        let fields: BTreeSet<(EdgeSet, BTreeSet<EdgeSet>)> = tile
            .segments
            .iter()
            .filter(|s| pack.kinds()[s.kind as usize].topology == Topology::HalfEdges)
            .map(|s| {
                let touched = s
                    .touches
                    .iter()
                    .map(|t| names(tile.segments[*t as usize].edges, &EDGE_NAMES))
                    .collect();
                (names(s.half_edges, &HALF_EDGE_NAMES), touched)
            })
            .collect();
        let ref_fields: BTreeSet<(EdgeSet, BTreeSet<EdgeSet>)> = r["fields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                let adjacent = f["adjacent_cities"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|i| ref_cities[i.as_u64().unwrap() as usize].0.clone())
                    .collect();
                (strings(&f["half_edges"]), adjacent)
            })
            .collect();
        assert_eq!(fields, ref_fields, "fields of {letter}");
    }
}

#[test]
fn bundled_base_is_the_file_in_rules() {
    let bundled = load(&[PackRef::Bundled("base".into())]).unwrap();
    let file = base();
    assert_eq!(bundled.tiles().len(), file.tiles().len());
    assert_eq!(
        meeple::bundled::bundled("base").unwrap(),
        std::fs::read_to_string("rules/base.rules").unwrap()
    );
}
