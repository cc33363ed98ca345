//! The tile gallery: one self-contained HTML page with each tile's picture,
//! name, count, pack and the names records give its segments.

use super::board::legend;
use super::escape;
use super::palette::Palette;
use super::tile::{symbol_id, symbols};
use crate::ir::geometry::{EDGE_NAMES, HALF_EDGE_NAMES};
use crate::ir::RulePack;
use std::fmt::Write as _;

/// The names a record gives the segments of tile type `tile` lying
/// unrotated (as the start tile does): a segment's first edge, else its
/// first half-edge, else its kind's name, numbered (`"field 2"`) when the
/// tile has several segments of that kind. Each name is paired with the
/// segment's kind and markers, for people: `"N: city, pennant"`.
pub fn segment_names(pack: &RulePack, tile: usize) -> Vec<String> {
    let Some(t) = pack.tiles().get(tile) else {
        return Vec::new();
    };
    t.segments
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let kind = &pack.kinds()[s.kind as usize].name;
            let name = match (s.edges.iter().find(|e| *e < 4), s.half_edges.iter().next()) {
                (Some(e), _) => EDGE_NAMES[e as usize].to_string(),
                (None, Some(h)) => HALF_EDGE_NAMES[h as usize].to_string(),
                (None, None) => {
                    let same: Vec<usize> = (0..t.segments.len())
                        .filter(|j| t.segments[*j].kind == s.kind)
                        .collect();
                    match same.iter().position(|j| *j == i) {
                        Some(n) if same.len() > 1 => format!("{kind} {}", n + 1),
                        _ => kind.clone(),
                    }
                }
            };
            let markers: Vec<&str> = s
                .markers
                .iter()
                .map(|m| pack.markers()[*m as usize].name.as_str())
                .collect();
            if markers.is_empty() {
                format!("{name}: {kind}")
            } else {
                format!("{name}: {kind}, {}", markers.join(", "))
            }
        })
        .collect()
}

/// An HTML page showing the tile types `tiles` of `pack` (all of them when
/// `tiles` is empty is the caller's choice: this draws exactly those given).
pub fn gallery_html(pack: &RulePack, tiles: &[usize], title: &str) -> String {
    let palette = Palette::new(pack);
    let (legend, legend_height) = legend(pack, &palette, &[], 860.0);
    let mut cards = String::new();
    for &t in tiles {
        let Some(tile) = pack.tiles().get(t) else { continue };
        let from = pack
            .packs()
            .iter()
            .find(|p| p.file == tile.span.file)
            .map_or("", |p| p.name.as_str());
        let start = if pack.start() as usize == t {
            " · start tile"
        } else {
            ""
        };
        let icons: Vec<String> = tile
            .icons
            .iter()
            .map(|i| {
                let icon = &pack.icons()[i.icon as usize];
                match i.value {
                    Some(v) => format!(
                        "icon {} {}",
                        icon.name,
                        crate::ir::geometry::COMPASS_NAMES[usize::from(v) % 8]
                    ),
                    None => format!("icon {}", icon.name),
                }
            })
            .collect();
        let segments: String = segment_names(pack, t)
            .iter()
            .chain(icons.iter())
            .map(|s| format!("<li>{}</li>", escape(s)))
            .collect();
        let _ = write!(
            cards,
            r##"<figure class="tile" id="tile-{name}"><svg viewBox="0 0 100 100" width="140" height="140"><use href="#{symbol}"/></svg><figcaption><b class="name">{name}</b> <span class="count">×{count}</span><br><span class="pack">{from}{start}</span><ul>{segments}</ul></figcaption></figure>"##,
            name = escape(&tile.name),
            symbol = symbol_id(t),
            count = tile.count,
            from = escape(from),
        );
    }
    format!(
        r##"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: sans-serif; background: #f7f4ec; color: #222; margin: 1.5em; }}
h1 {{ font-size: 1.4em; }}
.tiles {{ display: flex; flex-wrap: wrap; gap: 14px; }}
.tile {{ margin: 0; width: 170px; background: #fff; border: 1px solid #ccc; border-radius: 6px; padding: 8px; }}
.tile svg {{ display: block; margin: 0 auto; }}
.tile figcaption {{ font-size: 13px; margin-top: 6px; }}
.tile ul {{ margin: 4px 0 0 0; padding-left: 1.1em; color: #444; }}
.pack {{ color: #777; }}
</style></head>
<body>
<h1>{title}</h1>
<p>{n} tile types, {total} tiles. Segment names are the ones records use for the tile lying unrotated.</p>
<svg width="860" height="{legend_height}" viewBox="0 0 860 {legend_height}" role="img" aria-label="legend">{legend}</svg>
<svg width="0" height="0" style="position:absolute"><defs>{symbols}</defs></svg>
<div class="tiles">{cards}</div>
</body></html>
"##,
        title = escape(title),
        n = tiles.len(),
        total = tiles
            .iter()
            .filter_map(|t| pack.tiles().get(*t))
            .map(|t| t.count)
            .sum::<u32>(),
        symbols = symbols(
            pack,
            &palette,
            tiles.iter().copied().filter(|t| *t < pack.tiles().len())
        ),
    )
}
