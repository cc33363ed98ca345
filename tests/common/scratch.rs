//! A scratch folder for a test that writes files, shared by the test files
//! that do (`#[path = ...] mod scratch;`, from `tests/` and `cli/tests/`).

use std::ops::Deref;
use std::path::{Path, PathBuf};

/// A fresh folder for one test, under the target directory's scratch
/// space rather than the system's temporary folder: removed when the test
/// ends, kept for a look when it fails.
pub struct Scratch(PathBuf);

impl Scratch {
    /// The folder `PREFIX-PID-NAME`, emptied if an earlier run left it.
    pub fn new(prefix: &str, name: &str) -> Scratch {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{prefix}-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("the target directory is writable");
        Scratch(dir)
    }
}

impl Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}
