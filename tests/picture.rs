//! Pictures checked by what they show: SVG tiles and boards are rasterised
//! (resvg, pure Rust) and pixels at known places compared with the colours
//! the rules give; pages are checked by their content.

use meeple::engine::Rules;
use meeple::ir::style::{Colour, Styled};
use meeple::picture::{board_svg, gallery_html, replay_html, segment_names, tile_svg, Palette};
use meeple::{load, replay_with, PackRef, Record, RulePack};
use resvg::tiny_skia::{Pixmap, Transform};
use std::sync::Arc;

fn bundled(names: &[&str]) -> RulePack {
    let refs: Vec<PackRef> = names.iter().map(|n| PackRef::Bundled(n.to_string())).collect();
    load(&refs).unwrap_or_else(|e| panic!("{}", e.render()))
}

fn text_pack(text: &str) -> RulePack {
    load(&[PackRef::Text {
        name: "inline.rules".into(),
        text: text.into(),
    }])
    .unwrap_or_else(|e| panic!("{}", e.render()))
}

fn raster(svg: &str) -> Pixmap {
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default()).expect("the SVG parses");
    let size = tree.size().to_int_size();
    let mut pixmap = Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(&tree, Transform::default(), &mut pixmap.as_mut());
    pixmap
}

fn at(p: &Pixmap, x: u32, y: u32) -> [u8; 3] {
    let c = p
        .pixel(x, y)
        .unwrap_or_else(|| panic!("({x}, {y}) is outside the picture"))
        .demultiply();
    [c.red(), c.green(), c.blue()]
}

fn close(a: [u8; 3], b: Colour) -> bool {
    a.iter().zip(b.0).all(|(x, y)| x.abs_diff(y) <= 8)
}

#[track_caller]
fn assert_colour(p: &Pixmap, x: u32, y: u32, want: Colour, what: &str) {
    let got = at(p, x, y);
    assert!(
        close(got, want),
        "{what}: pixel ({x}, {y}) is {got:?}, expected {:?}",
        want.0
    );
}

fn tile_picture(pack: &RulePack, name: &str, quarter_turns: u8) -> Pixmap {
    let tile = pack.tile(name).unwrap() as usize;
    raster(&tile_svg(pack, &Palette::new(pack), tile, quarter_turns).unwrap())
}

fn kind_colour(pack: &RulePack, kind: &str) -> Colour {
    Palette::new(pack).kind(pack.kind(kind).unwrap())
}

#[test]
fn a_city_edge_is_city_coloured_and_the_rest_field() {
    let pack = bundled(&["base"]);
    let (city, field) = (kind_colour(&pack, "city"), kind_colour(&pack, "field"));
    // The base pack styles its kinds; the picture uses those colours.
    assert_eq!(pack.style(Styled::Kind(pack.kind("city").unwrap())).colour, Some(city));
    let e = tile_picture(&pack, "E", 0); // city N; field E S W
    assert_colour(&e, 50, 4, city, "E's north edge");
    assert_colour(&e, 10, 6, city, "E's north-west corner of the city");
    assert_colour(&e, 50, 95, field, "E's south edge");
    assert_colour(&e, 5, 50, field, "E's west edge");
    let c = tile_picture(&pack, "C", 0); // a city on every edge
    for (x, y) in [(50, 4), (96, 50), (50, 96), (4, 50)] {
        assert_colour(&c, x, y, city, "C's edges");
    }
}

#[test]
fn a_road_crosses_the_middle_of_a_straight_road_tile() {
    let pack = bundled(&["base"]);
    let (road, field) = (kind_colour(&pack, "road"), kind_colour(&pack, "field"));
    let u = tile_picture(&pack, "U", 0); // road W E
    for x in [3, 25, 50, 75, 97] {
        assert_colour(&u, x, 50, road, "U's road");
    }
    assert_colour(&u, 50, 25, field, "north of the road");
    assert_colour(&u, 50, 75, field, "south of the road");
    // A bend (V: road W S) leaves the north-east corner to the field.
    let v = tile_picture(&pack, "V", 0);
    assert_colour(&v, 3, 50, road, "V's road at W");
    assert_colour(&v, 50, 97, road, "V's road at S");
    assert_colour(&v, 80, 20, field, "V's outer field");
}

#[test]
fn turning_a_tile_moves_its_city() {
    let pack = bundled(&["base"]);
    let (city, field) = (kind_colour(&pack, "city"), kind_colour(&pack, "field"));
    let east = tile_picture(&pack, "E", 1);
    assert_colour(&east, 96, 50, city, "E turned 90°: city east");
    assert_colour(&east, 50, 4, field, "E turned 90°: field north");
    let south = tile_picture(&pack, "E", 2);
    assert_colour(&south, 50, 96, city, "E turned 180°: city south");
    let west = tile_picture(&pack, "E", 3);
    assert_colour(&west, 4, 50, city, "E turned 270°: city west");
    assert_colour(&west, 96, 50, field, "E turned 270°: field east");
}

#[test]
fn markers_area_features_and_other_packs_draw_in_their_colours() {
    let pack = bundled(&["base", "river", "abbot"]);
    let palette = Palette::new(&pack);
    let monastery = kind_colour(&pack, "monastery");
    let b = tile_picture(&pack, "B", 0); // a monastery in a field
    assert_colour(&b, 50, 50, monastery, "B's monastery");
    let river = kind_colour(&pack, "river");
    let straight = tile_picture(&pack, "R_straight", 0); // river W E
    assert_colour(&straight, 4, 50, river, "the river at W");
    assert_colour(&straight, 96, 50, river, "the river at E");
    let garden = kind_colour(&pack, "garden");
    assert_ne!(garden, monastery);
    let e_garden = tile_picture(&pack, "E_garden", 0);
    assert_colour(&e_garden, 50, 50, garden, "E_garden's garden");
    // C's pennant: some pixel of the tile has the marker's colour.
    let (pennant, _) = palette.marker(pack.marker("pennant").unwrap());
    let c = tile_picture(&pack, "C", 0);
    let found = (0..100)
        .flat_map(|y| (0..100).map(move |x| (x, y)))
        .any(|(x, y)| close(at(&c, x, y), pennant));
    assert!(found, "C shows its pennant");
}

const UNSEEN: &str = "pack moonbase
language 1
feature crater connects edges { }
feature track connects edges narrow { }
feature dust connects half_edges { }
feature dome area { }
figure rover x3 per_player {
  stands on crater, track, dome
  lies on dust
}
start M1
tile M1 x2 { crater N; track W E; dust EL WR touches N; dust ER S WL }
tile M2 x2 { dome; track S; dust N E S W }
";

#[test]
fn a_pack_with_no_style_still_draws_every_kind_apart() {
    let pack = text_pack(UNSEEN);
    let colours: Vec<Colour> = ["crater", "track", "dust", "dome"]
        .iter()
        .map(|k| kind_colour(&pack, k))
        .collect();
    for (i, a) in colours.iter().enumerate() {
        for b in &colours[i + 1..] {
            assert_ne!(a, b, "two kinds share a colour");
        }
    }
    let [crater, track, dust, dome] = colours[..] else {
        unreachable!()
    };
    let m1 = tile_picture(&pack, "M1", 0);
    assert_colour(&m1, 50, 4, crater, "the crater at N");
    assert_colour(&m1, 4, 50, track, "the track at W");
    assert_colour(&m1, 50, 50, track, "the track through the middle");
    assert_colour(&m1, 50, 90, dust, "the dust at S");
    let m2 = tile_picture(&pack, "M2", 0);
    assert_colour(&m2, 50, 50, dome, "the dome in the middle");
    assert_colour(&m2, 10, 10, dust, "dust around the dome");
    // The same names get the same colours in another load.
    assert_eq!(Palette::new(&text_pack(UNSEEN)).kind(0), crater);
}

#[test]
fn a_style_sets_the_colour_and_a_later_pack_overrides_it() {
    let styled = UNSEEN.to_string() + "style crater colour \"#123456\"\nstyle dome colour \"#a0f\" shape star\n";
    let pack = text_pack(&styled);
    let m1 = tile_picture(&pack, "M1", 0);
    assert_colour(&m1, 50, 4, Colour([0x12, 0x34, 0x56]), "the styled crater");
    let m2 = tile_picture(&pack, "M2", 0);
    assert_colour(&m2, 50, 50, Colour([0xaa, 0x00, 0xff]), "the styled dome");
    // A pack that requires base restyles its city.
    let pale = load(&[
        PackRef::Bundled("base".into()),
        PackRef::Text {
            name: "pale.rules".into(),
            text: "pack pale\nrequires base\nstyle city colour \"#eeeeee\"\n".into(),
        },
    ])
    .unwrap_or_else(|e| panic!("{}", e.render()));
    let e = tile_picture(&pale, "E", 0);
    assert_colour(&e, 50, 4, Colour([0xee, 0xee, 0xee]), "the restyled city");
}

fn replayed(text: &str, packs: &[&str]) -> (Record, meeple::engine::Game) {
    let record = Record::parse("inline.ron", text).unwrap();
    let rules = Arc::new(Rules::new(bundled(packs)));
    let game = replay_with(&record, rules).unwrap_or_else(|e| panic!("{e}"));
    (record, game)
}

/// The bounding box of the pixels of `colour` inside the square (x0, y0)..+100.
fn blob(p: &Pixmap, x0: u32, y0: u32, colour: Colour) -> Option<(u32, u32, u32, u32)> {
    let hits: Vec<(u32, u32)> = (y0..y0 + 100)
        .flat_map(|y| (x0..x0 + 100).map(move |x| (x, y)))
        .filter(|(x, y)| close(at(p, *x, *y), colour))
        .collect();
    let xs = hits.iter().map(|h| h.0);
    let ys = hits.iter().map(|h| h.1);
    (hits.len() > 20).then(|| {
        (
            xs.clone().min().unwrap(),
            ys.clone().min().unwrap(),
            xs.max().unwrap(),
            ys.max().unwrap(),
        )
    })
}

#[test]
fn figures_stand_in_their_players_colours_and_farmers_lie() {
    // D is the start tile at (0, 0); E below it turned 180° has its city
    // facing south. Red's follower stands in that city; Blue's farmer lies in
    // the field of a second E beside it.
    let (record, game) = replayed(
        r#"Record(
    rules: ["base"],
    players: ["Red", "Blue"],
    tiles: Some(["E", "E"]),
    turns: [
        Turn(tile: "E", at: (0, 1), rot: 180, deploy: Some((on: "city"))),
        Turn(tile: "E", at: (1, 1), rot: 180, deploy: Some((on: "NL"))),
    ],
)"#,
        &["base"],
    );
    let picture = raster(&board_svg(&game, &record.players));
    // The board starts 10 units in: D at (10, 10), the Es at (10, 110) and (110, 110).
    let (red, blue) = (Palette::player(0), Palette::player(1));
    let standing = blob(&picture, 10, 110, red).expect("Red's follower is on the first E");
    assert!(blob(&picture, 10, 110, blue).is_none(), "no blue on the first E");
    assert!(
        standing.3 > 150,
        "the follower stands in the city, in the south half: {standing:?}"
    );
    let lying = blob(&picture, 110, 110, blue).expect("Blue's farmer is on the second E");
    assert!(blob(&picture, 110, 110, red).is_none(), "no red on the second E");
    // A figure is taller than wide standing, and wider than tall lying on its side.
    let size = |(x0, y0, x1, y1): (u32, u32, u32, u32)| (x1 - x0, y1 - y0);
    assert!(size(standing).1 > size(standing).0, "the follower stands: {standing:?}");
    assert!(size(lying).0 > size(lying).1, "the farmer lies: {lying:?}");
}

#[test]
fn a_board_carries_a_legend_of_kinds_players_and_figures() {
    let (record, game) = replayed(
        r#"Record(rules: ["base"], players: ["Ada", "Bo"], tiles: Some(["E"]), turns: [Turn(tile: "E", at: (0, 1), rot: 180, deploy: None)])"#,
        &["base"],
    );
    let svg = board_svg(&game, &record.players);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let texts: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .collect();
    for word in ["city", "road", "monastery", "field", "Ada", "Bo"] {
        assert!(
            texts.iter().any(|t| t.starts_with(word)),
            "the legend names {word}: {texts:?}"
        );
    }
    assert!(
        texts.iter().any(|t| t.starts_with("follower")),
        "the legend names the figure type"
    );
    // Two tiles placed: two <use> of tile pictures.
    let uses = doc.descendants().filter(|n| n.has_tag_name("use")).count();
    assert_eq!(uses, 2);
}

#[test]
fn the_gallery_shows_each_tile_with_its_count_and_segment_names() {
    let pack = bundled(&["base"]);
    let all: Vec<usize> = (0..pack.tiles().len()).collect();
    let html = gallery_html(&pack, &all, "base");
    for tile in pack.tiles() {
        assert!(
            html.contains(&format!(r#"id="tile-{}""#, tile.name)),
            "{} is shown",
            tile.name
        );
    }
    assert!(html.contains(r#"<b class="name">U</b> <span class="count">×8</span>"#));
    let d = pack.tile("D").unwrap() as usize;
    assert_eq!(
        segment_names(&pack, d),
        ["N: city", "E: road", "EL: field", "ER: field"]
    );
    assert!(html.contains("<li>E: road</li>"));
    assert!(!html.contains("http"), "the page fetches nothing");
}

#[test]
fn the_replay_page_has_one_step_per_turn_and_the_final_scores() {
    let text = std::fs::read_to_string("tests/scenarios/base/city_majority.ron").unwrap();
    let record = Record::parse("city_majority.ron", &text).unwrap();
    let rules = Arc::new(Rules::new(bundled(&["base"])));
    let game = replay_with(&record, rules.clone()).unwrap();
    let html = replay_html(&record, rules, "city majority").unwrap();
    let data = html.split_once("const DATA = ").unwrap().1.split_once(";\n").unwrap().0;
    let data: serde_json::Value = serde_json::from_str(data).unwrap();
    let steps = data["steps"].as_array().unwrap();
    let turns = record
        .turns
        .iter()
        .filter(|s| !matches!(s, meeple::record::Step::Check(_)))
        .count();
    assert_eq!(steps.len(), turns + 1, "the set-up and one step per turn");
    let last = steps.last().unwrap();
    let scores: Vec<i64> = last["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["score"].as_i64().unwrap())
        .collect();
    assert_eq!(scores, game.scores());
    assert_eq!(scores, [10, 0]);
    assert_eq!(last["players"][0]["reasons"], serde_json::json!([["city", 10]]));
    assert!(last["log"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e == "Red scored 10 for city"));
    // The set-up shows the start tile and each turn adds the tile it placed:
    // the page adds the steps' tiles up to the one shown.
    for (i, step) in steps.iter().enumerate() {
        assert_eq!(step["tiles"].as_str().unwrap().matches("<use ").count(), 1, "step {i}");
    }
    assert!(last["overlay"].as_str().unwrap().contains("last-placed"));
    assert!(
        !html.contains("src=\"http") && !html.contains("href=\"http"),
        "the page fetches nothing"
    );
}

#[test]
fn a_player_name_cannot_break_the_replay_page() {
    let text = std::fs::read_to_string("tests/scenarios/base/city_majority.ron").unwrap();
    let mut record = Record::parse("city_majority.ron", &text).unwrap();
    let hostile = "</script><!--<script>alert(1)</SCRIPT>";
    record.players[0] = hostile.to_string();
    let rules = Arc::new(Rules::new(bundled(&["base"])));
    let html = replay_html(&record, rules, "hostile names").unwrap();
    // The page's own script is the only one: no `</`, `<!--` or `<script`
    // from the data reaches the browser's script reader.
    assert_eq!(html.to_ascii_lowercase().matches("<script").count(), 1);
    assert_eq!(html.to_ascii_lowercase().matches("</script").count(), 1);
    assert!(!html.contains("<!--"));
    // And the name comes back whole when the data is read.
    let data = html.split_once("const DATA = ").unwrap().1.split_once(";\n").unwrap().0;
    let data: serde_json::Value = serde_json::from_str(data).unwrap();
    assert!(data.to_string().contains(hostile), "the name comes back whole");
}
