//! A game's board: every placed tile at its square and rotation, the figures
//! on their segments in their players' colours (lying figures on their side),
//! and a legend of the kinds', players' and figure types' colours and shapes.

use super::palette::{shape, Palette};
use super::tile::{anchor, symbol_id, symbols, turn_point, SIZE};
use crate::engine::Game;
use crate::ir::{Ownership, Posture, RulePack, Topology};
use std::fmt::Write as _;

/// Room around the board, in picture units.
const MARGIN: f32 = 10.0;

/// The drawn board of one moment of a game, without its `<defs>`. Squares
/// keep their place as the board grows (square (x, y) is drawn at
/// (100x, 100y)), so a later moment's tiles are an earlier one's plus the
/// new ones.
pub(crate) struct BoardDrawing {
    /// One `<use>` of a tile symbol per placed tile, in the order placed.
    pub(crate) tiles: Vec<String>,
    /// The outline of the last tile placed, then the figures.
    pub(crate) overlay: String,
    /// The `viewBox`: the board's squares with a margin.
    pub(crate) view: [f32; 4],
}

/// The board of `game` as it stands; the most recently placed tile outlined.
pub(crate) fn draw_board(game: &Game, palette: &Palette) -> BoardDrawing {
    let pack = &game.rules().pack;
    let board = game.board();
    let ((min_x, min_y), (max_x, max_y)) = board.bounds();
    let origin = |(x, y): (i32, i32)| (x as f32 * SIZE, y as f32 * SIZE);
    let tiles = board
        .tiles()
        .iter()
        .map(|placed| {
            let (x, y) = origin(placed.pos);
            format!(
                r##"<use href="#{}" x="{x}" y="{y}" width="{SIZE}" height="{SIZE}" transform="rotate({} {} {})"/>"##,
                symbol_id(placed.tile as usize),
                placed.rot.degrees(),
                x + SIZE / 2.0,
                y + SIZE / 2.0
            )
        })
        .collect();
    let mut body = String::new();
    if let Some(last) = board.tiles().last().filter(|_| board.tiles().len() > 1) {
        let (x, y) = origin(last.pos);
        let _ = write!(
            body,
            r##"<rect class="last-placed" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#ffffff" stroke-width="3" stroke-dasharray="8 5"/>"##,
            x + 1.5,
            y + 1.5,
            SIZE - 3.0,
            SIZE - 3.0
        );
    }
    let figures = game.figures();
    for (i, figure) in figures.iter().enumerate() {
        let Some(placed) = board.tiles().get(figure.placed.index()) else {
            continue;
        };
        let tile = &pack.tiles()[placed.tile as usize];
        let seg = figure.seg as usize;
        if seg >= tile.segments.len() {
            continue;
        }
        // Figures sharing a segment stand side by side.
        let before = figures[..i]
            .iter()
            .filter(|f| f.placed == figure.placed && f.seg == figure.seg)
            .count();
        let (ax, ay) = turn_point(anchor(pack, tile, seg), placed.rot.quarter_turns());
        let (x, y) = origin(placed.pos);
        let kind = tile.segments[seg].kind;
        let figure_type = &pack.figures()[figure.figure_type as usize];
        let lying = figure_type.posture_on(kind) == Some(Posture::Lying);
        let colour = match figure.owner {
            Some(p) => Palette::player(p.index()),
            None => palette.figure_colour(figure.figure_type),
        };
        let size = match figure_type.weight {
            0 => 15.0,
            1 => 20.0,
            _ => 26.0,
        };
        body.push_str(&shape(
            palette.figure_shape(figure.figure_type),
            x + ax + before as f32 * 9.0,
            y + ay - before as f32 * 4.0,
            size,
            if lying { 90 } else { 0 },
            colour,
        ));
    }
    BoardDrawing {
        tiles,
        overlay: body,
        view: [
            min_x as f32 * SIZE - MARGIN,
            min_y as f32 * SIZE - MARGIN,
            2.0 * MARGIN + (max_x - min_x + 1) as f32 * SIZE,
            2.0 * MARGIN + (max_y - min_y + 1) as f32 * SIZE,
        ],
    }
}

/// The legend every board carries: each feature kind's colour (area kinds
/// with their shape), each marker and icon, each player's colour, and each
/// figure type's shape, standing and lying. Drawn from (0, 0) down; returns
/// the markup and its height.
pub(crate) fn legend(pack: &RulePack, palette: &Palette, players: &[String], width: f32) -> (String, f32) {
    let mut out = String::new();
    let mut entries: Vec<(String, String)> = Vec::new();
    for (k, kind) in pack.kinds().iter().enumerate() {
        let colour = palette.kind(k as u16);
        let swatch = match (kind.topology, kind.narrow) {
            (Topology::Area, _) => shape(palette.kind_shape(k as u16), 9.0, 9.0, 16.0, 0, colour),
            (Topology::Edges, true) => format!(
                r##"<rect x="0" y="6" width="18" height="6" fill="{}" stroke="#555" stroke-width="1"/>"##,
                colour.hex()
            ),
            _ => format!(
                r##"<rect x="1" y="1" width="16" height="16" fill="{}" stroke="#555" stroke-width="1"/>"##,
                colour.hex()
            ),
        };
        entries.push((swatch, kind.name.clone()));
    }
    for (m, marker) in pack.markers().iter().enumerate() {
        let (colour, form) = palette.marker(m as u16);
        entries.push((
            shape(form, 9.0, 9.0, 14.0, 0, colour),
            format!("{} (marker)", marker.name),
        ));
    }
    for (i, icon) in pack.icons().iter().enumerate() {
        let (colour, form) = palette.icon(i as u16);
        entries.push((shape(form, 9.0, 9.0, 14.0, 0, colour), format!("{} (icon)", icon.name)));
    }
    for (p, name) in players.iter().enumerate() {
        let colour = Palette::player(p);
        entries.push((
            format!(
                r##"<circle cx="9" cy="9" r="8" fill="{}" stroke="#333" stroke-width="1"/>"##,
                colour.hex()
            ),
            name.clone(),
        ));
    }
    for (f, figure) in pack.figures().iter().enumerate() {
        let f = f as u16;
        let colour = match figure.ownership {
            Ownership::PerPlayer => Palette::player(0),
            Ownership::Neutral => palette.figure_colour(f),
        };
        let form = palette.figure_shape(f);
        let mut swatch = shape(form, 9.0, 9.0, 17.0, 0, colour);
        let lies = figure.places.iter().any(|(_, p)| *p == Posture::Lying);
        if lies {
            swatch.push_str(&shape(form, 30.0, 11.0, 17.0, 90, colour));
        }
        let what = match figure.ownership {
            Ownership::PerPlayer => "",
            Ownership::Neutral => ", neutral",
        };
        let posture = if lies { "; lying on its side" } else { "" };
        entries.push((swatch, format!("{}{what}{posture}", figure.name)));
    }
    let column = 210.0;
    let columns = ((width / column).floor() as usize).max(1);
    let row = 24.0;
    out.push_str(r##"<g class="legend" font-family="sans-serif" font-size="13" fill="#222">"##);
    for (i, (swatch, label)) in entries.iter().enumerate() {
        let x = MARGIN + (i % columns) as f32 * column;
        let y = 6.0 + (i / columns) as f32 * row;
        let _ = write!(
            out,
            r#"<g transform="translate({x} {y})">{swatch}<text x="46" y="14">{}</text></g>"#,
            super::escape(label)
        );
    }
    out.push_str("</g>");
    let rows = entries.len().div_ceil(columns) as f32;
    (out, 12.0 + rows * row)
}

/// The players' names: `names` where given, `player N` (counting from 0,
/// as records do) for the rest.
pub(crate) fn player_names(players: usize, names: &[String]) -> Vec<String> {
    (0..players)
        .map(|p| names.get(p).cloned().unwrap_or_else(|| format!("player {p}")))
        .collect()
}

/// A standalone SVG picture of `game`'s board with its legend underneath;
/// `names` name the players in the legend (`player N` for any not given).
pub fn board_svg(game: &Game, names: &[String]) -> String {
    let names = player_names(game.players(), names);
    let pack = &game.rules().pack;
    let palette = Palette::new(pack);
    let drawing = draw_board(game, &palette);
    let mut used: Vec<usize> = game.board().tiles().iter().map(|p| p.tile as usize).collect();
    used.sort_unstable();
    used.dedup();
    let [left, top, board_width, board_height] = drawing.view;
    let width = board_width.max(440.0);
    let (legend, legend_height) = legend(pack, &palette, &names, width);
    let height = board_height + legend_height;
    let scores: Vec<String> = names
        .iter()
        .zip(game.scores())
        .map(|(name, score)| format!("{name}: {score}"))
        .collect();
    // The board keeps its squares' coordinates; the picture starts at its
    // top left corner, and the legend sits under it.
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="{left} {top} {width} {height}"><title>{}</title><defs>{}</defs><rect x="{left}" y="{top}" width="{width}" height="{height}" fill="#f7f4ec"/>{}{}<g transform="translate({left} {})">{legend}</g></svg>
"##,
        super::escape(&scores.join(", ")),
        symbols(pack, &palette, used),
        drawing.tiles.concat(),
        drawing.overlay,
        top + board_height
    )
}
