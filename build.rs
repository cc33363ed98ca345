//! Bundles every `rules/*.rules` file into the binary: writes
//! `$OUT_DIR/bundled.rs`, a table of (pack file stem, file text), so the Rust
//! sources never name a pack and a new bundled pack needs no code change.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the rules/ folder exists")
        .map(|e| e.expect("rules/ is readable").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rules"))
        .collect();
    files.sort();
    let mut table = String::from("&[\n");
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("pack file names are UTF-8");
        let _ = writeln!(table, "    ({stem:?}, include_str!({:?})),", path.display().to_string());
    }
    table.push(']');
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("bundled.rs");
    std::fs::write(out, table).expect("OUT_DIR is writable");
}
