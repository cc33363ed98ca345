//! `style` declarations: the name each styles (a feature kind, marker, icon
//! or figure visible from its file), its colour (E0059) and its shape (E0060).

use super::names::{Namespace, Visibility};
use crate::diagnostic::{did_you_mean, Code, Diagnostic};
use crate::ir::style::{Colour, Shape, Style, Styled};
use crate::syntax::ast::{self, Item};

/// The namespaces a style may name, in the order they are tried.
pub(crate) struct Styleable<'a> {
    pub(crate) kinds: &'a Namespace,
    pub(crate) markers: &'a Namespace,
    pub(crate) icons: &'a Namespace,
    pub(crate) figures: &'a Namespace,
}

/// Every `style` declaration of `file` (unit `u`), checked, in order.
pub(crate) fn styles(
    u: usize,
    file: &ast::File,
    names: &Styleable,
    vis: &Visibility,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(Styled, Style)> {
    let mut out = Vec::new();
    for item in &file.items {
        let Item::Style(s) = item else { continue };
        let what = styled(s, u, names, vis, diags);
        let colour = s.colour.as_ref().and_then(|(text, span)| {
            let colour = Colour::parse(text);
            if colour.is_none() {
                diags.push(
                    Diagnostic::new(Code::BadColour, format!("`{text}` is not a colour"))
                        .at(*span, "expected `#rrggbb` or `#rgb`")
                        .note(
                            "write a colour as `#` and six hexadecimal digits (red, green, blue), e.g. `\"#c8a165\"`",
                        ),
                );
            }
            colour
        });
        let shape = s.shape.as_ref().and_then(|word| {
            let shape = Shape::parse(&word.name);
            if shape.is_none() {
                let words = Shape::NAMES.map(|(n, _)| n);
                diags.push(
                    Diagnostic::new(Code::UnknownShape, format!("unknown shape `{}`", word.name))
                        .at(word.span, "not a shape")
                        .note(format!("the shapes are {}", words.map(|w| format!("`{w}`")).join(", ")))
                        .maybe_note(did_you_mean(&word.name, words.iter().copied())),
                );
            }
            shape
        });
        if let Some(what) = what {
            out.push((what, Style { colour, shape }));
        }
    }
    out
}

/// Makes what a style names from its id in one namespace.
type StyledBy = fn(u16) -> Styled;

/// What `style NAME` names: the first namespace that has the name (so a
/// name of another pack not required is E0005), else E0003 with a suggestion
/// among every styleable name.
fn styled(
    s: &ast::StyleDecl,
    u: usize,
    names: &Styleable,
    vis: &Visibility,
    diags: &mut Vec<Diagnostic>,
) -> Option<Styled> {
    let tries: [(&Namespace, StyledBy); 4] = [
        (names.kinds, Styled::Kind),
        (names.markers, Styled::Marker),
        (names.icons, Styled::Icon),
        (names.figures, Styled::Figure),
    ];
    for (ns, make) in tries {
        if ns.get(&s.name.name).is_some() {
            return ns.lookup(&s.name, u, vis, diags).map(make);
        }
    }
    let all: Vec<&str> = [names.kinds, names.markers, names.icons, names.figures]
        .iter()
        .flat_map(|ns| ns.visible_names(u, vis))
        .collect();
    diags.push(
        Diagnostic::new(Code::UnknownName, format!("unknown name `{}` in a style", s.name.name))
            .at(s.name.span, "no feature kind, marker, icon or figure has this name")
            .maybe_note(did_you_mean(&s.name.name, all.iter().copied()))
            .note("a style names a feature kind, a marker, an icon or a figure"),
    );
    None
}
