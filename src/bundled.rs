//! The rule packs shipped inside the binary, so that `meeple sim --rules base`
//! works from an installed binary with no `rules/` folder beside it.

/// `(pack name, file text)` of every bundled pack: every `rules/*.rules`
/// file, gathered by `build.rs`.
pub const BUNDLED: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/bundled.rs"));

/// The text of a bundled pack.
pub fn bundled(name: &str) -> Option<&'static str> {
    BUNDLED.iter().find(|(n, _)| *n == name).map(|(_, text)| *text)
}

/// Names of all bundled packs.
pub fn bundled_names() -> impl Iterator<Item = &'static str> {
    BUNDLED.iter().map(|(n, _)| *n)
}
