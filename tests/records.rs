//! Records reject what they do not understand, and say where and why;
//! `fails` holds a record to the failure it states.

use meeple::engine::ErrorKind;
use meeple::record::{replay_expecting, Outcome, Record, ReplayError};
use std::path::Path;

/// A two-tile city worth 4 for Red, with `edit` applied to its text.
fn record(edit: impl Fn(&str) -> String) -> String {
    edit(
        r#"Record(
    rules: ["base"],
    players: ["Red", "Blue"],
    tiles: Some(["E"]),
    turns: [
        Turn(tile: "E", at: (0, -1), rot: 180, deploy: Some((on: "S"))),
    ],
    expect: [Scores([4, 0])],
)
"#,
    )
}

fn parse_error(text: &str) -> String {
    match Record::parse("r.ron", text) {
        Err(e @ ReplayError::Parse(_)) => {
            assert_eq!(e.kind(), ErrorKind::Parse);
            e.to_string()
        }
        other => panic!("expected a parse error, got {other:?}"),
    }
}

fn replayed(text: &str) -> Result<Outcome, ReplayError> {
    let record = Record::parse("r.ron", text)?;
    replay_expecting(&record, Path::new("."))
}

#[test]
fn the_unedited_record_replays() {
    assert!(matches!(replayed(&record(str::to_string)), Ok(Outcome::Played(_))));
}

#[test]
fn an_unknown_field_is_named_with_the_nearest_valid_one() {
    let e = parse_error(&record(|t| t.replace("expect:", "expects:")));
    assert_eq!(
        e,
        "r.ron:8:5: `expects` is not a field in `Record`; did you mean `expect`? (records are RON, see docs/records.md)"
    );
    let e = parse_error(&record(|t| t.replace("deploy:", "deploys:")));
    assert!(e.starts_with("r.ron:6:"), "{e}");
    assert!(
        e.contains("`deploys` is not a field in `Turn`; did you mean `deploy`?"),
        "{e}"
    );
    let e = parse_error(&record(|t| t.replace("(on:", "(onn:")));
    assert!(
        e.contains("`onn` is not a field in `Deploy`; did you mean `on`?"),
        "{e}"
    );
}

#[test]
fn an_unknown_field_far_from_any_lists_the_valid_ones() {
    let e = parse_error(&record(|t| t.replace("tiles:", "xyzzy:")));
    assert!(
        e.contains("`xyzzy` is not a field in `Record`; the fields are rules, players"),
        "{e}"
    );
}

#[test]
fn an_unknown_variant_is_named_with_the_nearest_valid_one() {
    let e = parse_error(&record(|t| t.replace("Scores", "Scorse")));
    assert!(
        e.starts_with("r.ron:8:14: `Scorse` is not a variant of `Expect`; did you mean `Scores`?"),
        "{e}"
    );
    let e = parse_error(&record(|t| t.replace("Turn(", "Trun(")));
    assert!(
        e.contains("`Trun` is not a variant of `Step`; did you mean `Turn`?"),
        "{e}"
    );
    let e = parse_error(&record(|t| {
        t.replace("expect:", "fails: Fails(step: 0, kind: EdgeMismach),\n    expect:")
    }));
    assert!(
        e.contains("`EdgeMismach` is not a variant of `ErrorKind`; did you mean `EdgeMismatch`?"),
        "{e}"
    );
}

#[test]
fn a_missing_field_is_named() {
    let e = parse_error(&record(|t| t.replace("tile: \"E\", ", "")));
    assert!(e.contains("the field `tile` is missing in `Turn`"), "{e}");
}

#[test]
fn a_syntax_error_names_the_line_and_column_and_the_format() {
    let e = parse_error(&record(|t| t.replace("rules: [\"base\"],", "rules: [\"base\"]")));
    assert_eq!(e, "r.ron:3:5: Expected comma (records are RON, see docs/records.md)");
}

#[test]
fn a_bad_rotation_gets_the_rotation_message_at_its_step() {
    for rot in ["-90", "45", "360", "-9223372036854775808"] {
        let e = replayed(&record(|t| t.replace("rot: 180", &format!("rot: {rot}")))).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::BadRotation, "{e}");
        assert_eq!(e.step(), Some(0));
        assert_eq!(
            e.to_string(),
            format!("step 0: rotation {rot} must be 0, 90, 180 or 270")
        );
    }
    let e = parse_error(&record(|t| t.replace("rot: 180", "rot: 99999999999999999999")));
    assert!(
        e.contains("the number for `rot` is out of range: a rotation is 0, 90, 180 or 270"),
        "{e}"
    );
}

#[test]
fn a_coordinate_out_of_range_is_named() {
    let e = parse_error(&record(|t| t.replace("(0, -1)", "(0, -3000000000)")));
    assert!(e.starts_with("r.ron:6:"), "{e}");
    assert!(
        e.contains("a coordinate of `at` is out of range: coordinates are -2147483648 to 2147483647"),
        "{e}"
    );
    let e = parse_error(&record(|t| t.replace("Scores([4, 0])", "Supply(player: -1, count: 7)")));
    assert!(e.contains("the number for `player` is out of range"), "{e}");
}

#[test]
fn a_record_that_fails_as_it_says_is_accepted() {
    let text = record(|t| {
        t.replace("at: (0, -1)", "at: (1, 1)").replace(
            "expect: [Scores([4, 0])],",
            "fails: Fails(step: 0, kind: NotAdjacent, message: \"touches no placed tile\"),",
        )
    });
    match replayed(&text) {
        Ok(Outcome::FailedAsExpected(e)) => assert_eq!(e.kind(), ErrorKind::NotAdjacent),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_record_that_fails_otherwise_than_it_says_is_refused() {
    // Wrong kind, wrong step, wrong words: each is a failure of the record.
    for fails in [
        "Fails(step: 0, kind: EdgeMismatch)",
        "Fails(step: 1, kind: NotAdjacent)",
        "Fails(step: 0, kind: NotAdjacent, message: \"meets a city\")",
        "Fails(kind: NotAdjacent)",
    ] {
        let text = record(|t| {
            t.replace("at: (0, -1)", "at: (1, 1)")
                .replace("expect: [Scores([4, 0])],", &format!("fails: {fails},"))
        });
        let e = replayed(&text).unwrap_err();
        let ReplayError::Fails { found: Some(found), .. } = &e else {
            panic!("{fails}: {e:?}")
        };
        assert_eq!(found.kind(), ErrorKind::NotAdjacent);
        assert!(e.to_string().contains("but it failed with NotAdjacent"), "{e}");
    }
}

#[test]
fn a_record_that_says_it_fails_but_replays_is_refused() {
    let text = record(|t| t.replace("expect:", "fails: Fails(step: 0, kind: EdgeMismatch),\n    expect:"));
    let e = replayed(&text).unwrap_err();
    assert!(matches!(e, ReplayError::Fails { found: None, .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        "the record expects step 0 to fail with EdgeMismatch, but every step replayed"
    );
}

#[test]
fn a_failed_expectation_can_be_the_stated_failure() {
    let text = record(|t| {
        t.replace("Scores([4, 0])", "Scores([99, 99])").replace(
            "expect:",
            "fails: Fails(kind: Expectation, message: \"scores are [4, 0]\"),\n    expect:",
        )
    });
    assert!(matches!(replayed(&text), Ok(Outcome::FailedAsExpected(_))));
}

#[test]
fn every_error_kind_is_documented() {
    let doc = std::fs::read_to_string("docs/records.md").unwrap();
    for kind in ErrorKind::ALL {
        assert!(
            doc.contains(&format!("| `{kind}` |")),
            "docs/records.md does not describe the error kind {kind}"
        );
    }
}

#[test]
fn the_records_in_the_docs_replay_as_they_say() {
    let doc = std::fs::read_to_string("docs/records.md").unwrap();
    let blocks: Vec<&str> = doc
        .split("```ron\n")
        .skip(1)
        .filter_map(|b| b.split("```").next())
        .filter(|b| b.contains("Record("))
        .collect();
    assert!(blocks.len() >= 2, "docs/records.md has no whole records");
    for block in blocks {
        if let Err(e) = replayed(block) {
            panic!("{e}\n{block}");
        }
    }
}
