//! Records are downloaded from strangers: a record reads only regular files
//! of bounded size, names only bundled packs and packs in its own folder (or
//! a folder the user passes), and no message shows a file that is not a pack.

use meeple::engine::ErrorKind;
use meeple::record::{replay_expecting_in, Outcome, Record, ReplayError, MAX_RECORD_BYTES};
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "common/scratch.rs"]
mod scratch;

use scratch::Scratch;

/// A fresh folder for one test, removed when it passes.
fn scratch(name: &str) -> Scratch {
    Scratch::new("hostile", name)
}

/// A record of no steps that loads `rules`.
fn record_loading(rules: &str) -> Record {
    Record::parse(
        "r.ron",
        &format!("Record(rules: [{rules:?}], players: [\"A\", \"B\"], turns: [])"),
    )
    .unwrap()
}

/// The load error of replaying `record` from `dir`, as text.
fn load_error(record: &Record, dir: &Path, packs_dirs: &[PathBuf]) -> String {
    match replay_expecting_in(record, dir, packs_dirs) {
        Err(e @ ReplayError::Load(_)) => {
            assert_eq!(e.kind(), ErrorKind::Load);
            e.to_string()
        }
        other => panic!("expected a load error, got {other:?}"),
    }
}

const SECRET: &str = "hunter2-do-not-show";

#[test]
fn an_absolute_path_is_refused_unread() {
    let dir = scratch("absolute");
    let elsewhere = scratch("absolute-outside");
    let outside = elsewhere.join("secret.rules");
    std::fs::write(&outside, format!("{SECRET}\n")).unwrap();
    let e = load_error(&record_loading(outside.to_str().unwrap()), &dir, &[]);
    assert!(e.contains("is an absolute path"), "{e}");
    assert!(e.contains("a record names bundled packs"), "{e}");
    assert!(!e.contains(SECRET), "{e}");
    let e = load_error(&record_loading("/etc/passwd"), &dir, &[]);
    assert!(e.contains("`/etc/passwd` is an absolute path"), "{e}");
    assert!(!e.contains("root:"), "{e}");
}

#[test]
fn a_path_that_leads_out_of_the_folder_is_refused() {
    let base = scratch("escape");
    let dir = base.join("records");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(base.join("secret.rules"), format!("{SECRET}\n")).unwrap();
    let e = load_error(&record_loading("../secret.rules"), &dir, &[]);
    assert!(
        e.contains("`../secret.rules` leads outside the folders a record may read"),
        "{e}"
    );
    assert!(!e.contains(SECRET), "{e}");
    // A way out and back in is no escape.
    std::fs::write(dir.join("mine.rules"), "pack mine\nrequires base\n").unwrap();
    let record = record_loading("../records/mine.rules");
    assert!(matches!(
        replay_expecting_in(&record, &dir, &[]),
        Ok(Outcome::Played(_))
    ));
    // A folder the user passes may hold the packs.
    let packs = base.join("packs");
    std::fs::create_dir_all(&packs).unwrap();
    std::fs::write(packs.join("theirs.rules"), "pack theirs\nrequires base\n").unwrap();
    let record = record_loading("theirs.rules");
    assert!(matches!(
        replay_expecting_in(&record, &dir, std::slice::from_ref(&packs)),
        Ok(Outcome::Played(_))
    ));
    let missing = load_error(&record, &dir, &[]);
    assert!(
        missing.contains("`theirs.rules` is not found in the record's folder"),
        "{missing}"
    );
    assert!(missing.contains("--packs-dir FOLDER"), "{missing}");
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_out_of_the_folder_is_refused_even_through_requires() {
    let base = scratch("symlink");
    let dir = base.join("records");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(base.join("secret.rules"), format!("pack secret\n{SECRET}\n")).unwrap();
    std::os::unix::fs::symlink(base.join("secret.rules"), dir.join("link.rules")).unwrap();
    let e = load_error(&record_loading("link.rules"), &dir, &[]);
    assert!(e.contains("`link.rules` leads outside"), "{e}");
    assert!(!e.contains(SECRET), "{e}");
    // A pack in the folder that requires a pack whose file beside it is a link out.
    std::os::unix::fs::symlink(base.join("secret.rules"), dir.join("secret.rules")).unwrap();
    std::fs::write(dir.join("mine.rules"), "pack mine\nrequires secret\n").unwrap();
    let e = load_error(&record_loading("mine.rules"), &dir, &[]);
    assert!(
        e.contains("lies outside the folders a record may read packs from"),
        "{e}"
    );
    assert!(!e.contains(SECRET), "{e}");
}

#[test]
fn a_file_that_is_not_a_pack_is_not_shown() {
    let dir = scratch("not-a-pack");
    std::fs::write(dir.join("notes.rules"), format!("{SECRET}: one\nsecond line\n")).unwrap();
    let e = load_error(&record_loading("notes.rules"), &dir, &[]);
    assert!(e.contains("it does not begin with `pack`"), "{e}");
    assert!(!e.contains(SECRET), "{e}");
    std::fs::write(dir.join("binary.rules"), b"pack \xff\xfe secret").unwrap();
    let e = load_error(&record_loading("binary.rules"), &dir, &[]);
    assert!(e.contains("not UTF-8"), "{e}");
    assert!(!e.contains("0xFF"), "{e}");
    // Comments and white space may come first; then the file is rules source.
    std::fs::write(dir.join("ok.rules"), "# mine\n\n  pack ok\nrequires base\n").unwrap();
    assert!(matches!(
        replay_expecting_in(&record_loading("ok.rules"), &dir, &[]),
        Ok(Outcome::Played(_))
    ));
}

#[test]
fn a_record_larger_than_the_cap_is_refused() {
    let dir = scratch("big");
    let path = dir.join("big.ron");
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(MAX_RECORD_BYTES + 1).unwrap();
    let e = Record::read(&path).unwrap_err().to_string();
    assert!(e.contains(&format!("records are limited to {MAX_RECORD_BYTES}")), "{e}");
}

#[cfg(unix)]
#[test]
fn a_device_is_not_read() {
    let e = Record::read(Path::new("/dev/zero")).unwrap_err().to_string();
    assert!(e.contains("it is a device, not a file"), "{e}");
    let dir = scratch("device");
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.rules")).unwrap();
    // Through a link in the folder, it still leads out of it.
    let e = load_error(&record_loading("zero.rules"), &dir, &[]);
    assert!(e.contains("leads outside"), "{e}");
}

#[test]
fn a_fifo_is_refused_without_blocking() {
    let dir = scratch("fifo");
    let fifo = dir.join("pipe.rules");
    match Command::new("mkfifo").arg(&fifo).status() {
        Ok(s) if s.success() => {}
        _ => {
            eprintln!("skipped: mkfifo is not available here");
            return;
        }
    }
    let e = load_error(&record_loading("pipe.rules"), &dir, &[]);
    assert!(e.contains("it is a FIFO (named pipe), not a file"), "{e}");
    let e = Record::read(&fifo).unwrap_err().to_string();
    assert!(e.contains("it is a FIFO (named pipe), not a file"), "{e}");
}
