//! How pictures draw a pack: the colours and shapes that `style` declarations
//! give feature kinds, markers, icons and figures. A game never reads them.

use super::shared::{FigureTypeId, IconId, KindId, MarkerId};

/// An RGB colour, written `"#rrggbb"` or `"#rgb"` in a rules file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Colour(pub [u8; 3]);

impl Colour {
    /// Reads `#rrggbb` or `#rgb` (hexadecimal digits in either case).
    pub fn parse(text: &str) -> Option<Colour> {
        let digits = text.strip_prefix('#')?;
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let nibble = |i: usize| u8::from_str_radix(&digits[i..i + 1], 16).ok();
        match digits.len() {
            3 => Some(Colour([nibble(0)? * 17, nibble(1)? * 17, nibble(2)? * 17])),
            6 => {
                let byte = |i: usize| u8::from_str_radix(&digits[i..i + 2], 16).ok();
                Some(Colour([byte(0)?, byte(2)?, byte(4)?]))
            }
            _ => None,
        }
    }

    /// `#rrggbb`, as SVG and CSS write it.
    pub fn hex(self) -> String {
        let [r, g, b] = self.0;
        format!("#{r:02x}{g:02x}{b:02x}")
    }
}

/// A symbol a picture draws for an area feature, a marker, an icon or a figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A house with a pointed roof.
    Building,
    /// A disc.
    Circle,
    /// A square.
    Square,
    /// A square standing on a corner.
    Diamond,
    /// A coat of arms.
    Shield,
    /// A five-pointed star.
    Star,
    /// A triangle pointing up.
    Triangle,
    /// The figure of a person.
    Meeple,
}

impl Shape {
    /// Every shape with the word a `style` declaration writes for it.
    pub const NAMES: [(&'static str, Shape); 8] = [
        ("building", Shape::Building),
        ("circle", Shape::Circle),
        ("square", Shape::Square),
        ("diamond", Shape::Diamond),
        ("shield", Shape::Shield),
        ("star", Shape::Star),
        ("triangle", Shape::Triangle),
        ("meeple", Shape::Meeple),
    ];

    /// The shape a `style` declaration names with `word`.
    pub fn parse(word: &str) -> Option<Shape> {
        Shape::NAMES.iter().find(|(n, _)| *n == word).map(|(_, s)| *s)
    }
}

/// What a `style` declaration applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Styled {
    /// A feature kind.
    Kind(KindId),
    /// A segment marker.
    Marker(MarkerId),
    /// A tile icon.
    Icon(IconId),
    /// A figure type (its colour is used for neutral figures; players' figures
    /// take their player's colour).
    Figure(FigureTypeId),
}

/// A colour and a shape, each optional: what is not set is chosen by the picture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// `colour "#rrggbb"`.
    pub colour: Option<Colour>,
    /// `shape WORD`.
    pub shape: Option<Shape>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_read_both_lengths() {
        assert_eq!(Colour::parse("#fff"), Some(Colour([255, 255, 255])));
        assert_eq!(Colour::parse("#C8a165"), Some(Colour([0xc8, 0xa1, 0x65])));
        assert_eq!(Colour::parse("#c8a165").map(Colour::hex).as_deref(), Some("#c8a165"));
        for bad in ["c8a165", "#c8a16", "#ggg", "#", "red", "#c8a1650", "#é12"] {
            assert_eq!(Colour::parse(bad), None, "{bad}");
        }
    }
}
