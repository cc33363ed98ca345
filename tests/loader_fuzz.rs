//! No input makes the loader panic or hang: arbitrary bytes and mutated
//! copies of base.rules either load or produce rendered diagnostics.

use meeple::{load, PackRef};
use proptest::prelude::*;

const BASE: &str = include_str!("../rules/base.rules");

/// Loads `text` as a file and checks the outcome is well-formed.
fn check_text(text: String) -> Result<(), TestCaseError> {
    match load(&[PackRef::Text {
        name: "fuzz.rules".into(),
        text,
    }]) {
        Ok(pack) => {
            prop_assert!(!pack.tiles().is_empty());
            prop_assert!((pack.start() as usize) < pack.tiles().len());
        }
        Err(e) => {
            prop_assert!(!e.diagnostics.is_empty());
            let rendered = e.render();
            prop_assert!(rendered.contains("error["));
        }
    }
    Ok(())
}

/// A mutation of a text, applied by line or by character.
#[derive(Clone, Debug)]
enum Mutation {
    DeleteLine(usize),
    DuplicateLine(usize),
    Truncate(usize),
    Replace(usize, char),
    Insert(usize, String),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let interesting = prop::sample::select(vec![
        '{',
        '}',
        '(',
        ')',
        ';',
        ',',
        '#',
        '"',
        '\n',
        ' ',
        'x',
        '0',
        '9',
        '-',
        '+',
        '*',
        '/',
        '=',
        '<',
        '>',
        '.',
        ':',
        'N',
        'é',
        '\u{0}',
        '\u{1F600}',
    ]);
    let snippet = prop::sample::select(vec![
        "tile",
        "city",
        "road",
        "field",
        "touches",
        "start",
        "replace",
        "extend",
        "from",
        "requires base",
        "requires fuzz",
        "x0",
        "x99999999999",
        "pack other",
        "count(",
        "markers(",
        "language 7",
        "{",
        "}",
        "NL",
        "WR",
        "feature",
        "figure",
        "stands on",
        "marker",
        "icon",
        "not",
        "and",
        "in",
        " if tiles then ",
        " then ",
        " else ",
        "requires bsae",
    ]);
    prop_oneof![
        (0usize..200).prop_map(Mutation::DeleteLine),
        (0usize..200).prop_map(Mutation::DuplicateLine),
        (0usize..BASE.len()).prop_map(Mutation::Truncate),
        ((0usize..BASE.len()), interesting).prop_map(|(i, c)| Mutation::Replace(i, c)),
        ((0usize..BASE.len()), snippet).prop_map(|(i, s)| Mutation::Insert(i, s.to_string())),
    ]
}

fn floor_boundary(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn apply(text: &str, m: &Mutation) -> String {
    let lines: Vec<&str> = text.lines().collect();
    if lines.is_empty() && matches!(m, Mutation::DeleteLine(_) | Mutation::DuplicateLine(_)) {
        return text.to_string();
    }
    match m {
        Mutation::DeleteLine(i) => {
            let i = i % lines.len();
            lines
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, l)| *l)
                .collect::<Vec<_>>()
                .join("\n")
        }
        Mutation::DuplicateLine(i) => {
            let i = i % lines.len();
            let mut out: Vec<&str> = lines.clone();
            out.insert(i, lines[i]);
            out.join("\n")
        }
        Mutation::Truncate(n) => text[..floor_boundary(text, *n)].to_string(),
        Mutation::Replace(i, c) => {
            let at = floor_boundary(text, *i);
            let next = text[at..].chars().next().map_or(0, char::len_utf8);
            format!("{}{}{}", &text[..at], c, &text[at + next..])
        }
        Mutation::Insert(i, s) => {
            let at = floor_boundary(text, *i);
            format!("{} {s} {}", &text[..at], &text[at..])
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in ".{0,400}") {
        check_text(text)?;
    }

    #[test]
    fn arbitrary_bytes_from_a_file_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("meeple-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("case.rules");
        std::fs::write(&path, &bytes).unwrap();
        match load(&[PackRef::Path(path)]) {
            Ok(_) => {}
            Err(e) => prop_assert!(!e.render().is_empty()),
        }
    }

    #[test]
    fn mutated_base_never_panics(mutations in prop::collection::vec(mutation(), 1..4)) {
        let mut text = BASE.to_string();
        for m in &mutations {
            text = apply(&text, m);
        }
        check_text(text)?;
    }

    #[test]
    fn mutated_expansion_never_panics(mutations in prop::collection::vec(mutation(), 1..3)) {
        let expansion = "pack fuzz \"Fuzz\"\nlanguage 1\nrequires base\n\nicon star\nmarker gem on city\n\
            tile Z from E x2 { icon star }\nextend tile D x3\ntile Y x1 { city N E gem; field S W touches N }\n";
        let mut text = expansion.to_string();
        for m in &mutations {
            text = apply(&text, m);
        }
        check_text(text)?;
    }
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let deep = format!(
        "pack deep\nfeature f area {{ score final = {}1{} }}\n",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let err = load(&[PackRef::Text {
        name: "deep.rules".into(),
        text: deep,
    }])
    .unwrap_err();
    assert_eq!(err.diagnostics[0].code, meeple::Code::TooDeep);
    let prefixes = format!(
        "pack deep\nfeature f area {{ score final = {}1 }}\n",
        "not -".repeat(50_000)
    );
    assert!(load(&[PackRef::Text {
        name: "prefix.rules".into(),
        text: prefixes
    }])
    .is_err());
}

#[test]
fn syntax_hints_respect_multibyte_characters() {
    // The word before a failure, and an `if` near it, are found by byte
    // offset; a character of several bytes there must not split.
    for text in [
        "pack t\non setup { é 1 }\n",
        "pack t\non setup { xé 1 }\n",
        "pack t\non setup { score é if x then 1 else 2 to current_player reason \"é\" }\n",
        "#¡",
    ] {
        check_text(text.to_string()).unwrap();
    }
}
