//! Every `rules` block of docs/language.md loads as documented: clean, or
//! failing with the code in `rules,fails=E00NN`.

use meeple::{load, PackRef};

#[test]
fn language_reference_examples_hold() {
    let doc = std::fs::read_to_string("docs/language.md").unwrap();
    let mut blocks = 0;
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        let Some(info) = line.strip_prefix("```rules") else {
            continue;
        };
        let expected_code = info.strip_prefix(",fails=").map(str::to_string);
        let body: Vec<&str> = lines.by_ref().take_while(|l| !l.starts_with("```")).collect();
        blocks += 1;
        let text = body.join("\n") + "\n";
        let result = load(&[PackRef::Text {
            name: format!("docs/language.md block {blocks}"),
            text: text.clone(),
        }]);
        match (result, expected_code) {
            (Ok(_), None) => {}
            (Err(e), None) => panic!("block {blocks} should load:\n{text}\n{}", e.render()),
            (Ok(_), Some(code)) => panic!("block {blocks} should fail with {code}:\n{text}"),
            (Err(e), Some(code)) => {
                assert_eq!(
                    e.diagnostics[0].code.to_string(),
                    code,
                    "block {blocks}:\n{}",
                    e.render()
                );
            }
        }
    }
    assert!(blocks >= 8, "only {blocks} examples found");
}
