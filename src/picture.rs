//! Pictures of a pack and of a game, drawn from the rules alone: SVG tiles
//! and boards (with a legend), a tile gallery and a replay viewer as single
//! self-contained HTML files. Everything returns text; nothing prints.
//!
//! The modules, from the lowest: `palette` (colours and shapes: a pack's
//! `style` declarations and defaults by topology), `tile` (one tile type
//! from its geometry), `board` (placed tiles, figures, the legend), then
//! `gallery` and `replay` (the HTML pages). A module imports only lower ones.

mod board;
mod gallery;
mod palette;
mod replay;
mod tile;

pub use board::board_svg;
pub use gallery::{gallery_html, segment_names};
pub use palette::Palette;
pub use replay::replay_html;
pub use tile::{tile_svg, SIZE};

/// `text` with the characters XML and HTML give a meaning escaped.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
