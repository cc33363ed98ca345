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

/// The bundled packs `names`, loaded together (for tests).
#[cfg(test)]
pub(crate) fn load_bundled(names: &[&str]) -> Result<crate::RulePack, crate::check::LoadError> {
    let refs: Vec<crate::check::PackRef> = names
        .iter()
        .map(|n| crate::check::PackRef::Bundled(n.to_string()))
        .collect();
    crate::check::load(&refs)
}

/// The bundled base pack with the pack `text` named `name` over it (for
/// tests); a pack that does not load panics with its diagnostics.
#[cfg(test)]
pub(crate) fn over_base(name: &str, text: impl Into<String>) -> crate::RulePack {
    let packs = [
        crate::check::PackRef::Bundled("base".into()),
        crate::check::PackRef::Text {
            name: name.into(),
            text: text.into(),
        },
    ];
    crate::check::load(&packs).unwrap_or_else(|e| panic!("{}", e.render()))
}

/// The sets of bundled packs that tests play every pack in: base with each
/// other pack, then as many as load together (`loads`; two packs may both
/// claim the start tile), in the bundled list's order.
#[cfg(test)]
pub(crate) fn test_sets(loads: impl Fn(&[&str]) -> bool) -> Vec<Vec<&'static str>> {
    let mut sets: Vec<Vec<&str>> = bundled_names()
        .filter(|n| *n != "base")
        .map(|n| vec!["base", n])
        .collect();
    let mut together = vec!["base"];
    for name in bundled_names().filter(|n| *n != "base") {
        together.push(name);
        if !loads(&together) {
            together.pop();
        }
    }
    assert!(together.len() > 5, "most bundled packs load together: {together:?}");
    sets.push(together);
    sets
}
