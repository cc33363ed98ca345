//! The rule packs shipped inside the binary, so that `meeple sim --rules base`
//! works from an installed binary with no `rules/` folder beside it.

/// `(pack name, file text)` of every bundled pack.
pub const BUNDLED: &[(&str, &str)] = &[
    ("base", include_str!("../rules/base.rules")),
    ("winter", include_str!("../rules/winter.rules")),
    ("gingerbread_man", include_str!("../rules/gingerbread_man.rules")),
    ("abbot", include_str!("../rules/abbot.rules")),
    ("wind_roses", include_str!("../rules/wind_roses.rules")),
    (
        "wind_roses_spielbox",
        include_str!("../rules/wind_roses_spielbox.rules"),
    ),
];

/// The text of a bundled pack.
pub fn bundled(name: &str) -> Option<&'static str> {
    BUNDLED.iter().find(|(n, _)| *n == name).map(|(_, text)| *text)
}

/// Names of all bundled packs.
pub fn bundled_names() -> impl Iterator<Item = &'static str> {
    BUNDLED.iter().map(|(n, _)| *n)
}
