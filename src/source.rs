//! Source files and byte-offset spans; line and column numbers are computed
//! only when a diagnostic is rendered.

use codespan_reporting::files::{self, Files, SimpleFile};
use std::ops::Range;

/// Index of a file in [`Sources`].
pub type FileId = usize;

/// A byte range in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// The file, in the [`Sources`] that read it.
    pub file: FileId,
    /// Byte offset of the first byte in the file's text.
    pub start: u32,
    /// Byte offset just past the last byte (`start..end`, so `end == start`
    /// for an empty span).
    pub end: u32,
}

impl Span {
    /// A span covering `range` in `file`.
    pub fn new(file: FileId, range: Range<usize>) -> Span {
        Span {
            file,
            start: range.start as u32,
            end: range.end as u32,
        }
    }

    /// The smallest span covering both `self` and `other` (same file).
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// The byte range of the span.
    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// Every file a load has read, by [`FileId`].
#[derive(Clone, Debug, Default)]
pub struct Sources {
    files: Vec<SimpleFile<String, String>>,
}

impl Sources {
    /// An empty set of files.
    pub fn new() -> Sources {
        Sources::default()
    }

    /// Adds a file and returns its id.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push(SimpleFile::new(name.into(), text.into()));
        self.files.len() - 1
    }

    /// The file's display name (its path, or `rules/NAME.rules` for a bundled pack).
    pub fn name(&self, id: FileId) -> &str {
        self.files[id].name()
    }

    /// The file's text.
    pub fn text(&self, id: FileId) -> &str {
        self.files[id].source()
    }

    /// The text a span covers.
    pub fn slice(&self, span: Span) -> &str {
        self.text(span.file).get(span.range()).unwrap_or("")
    }

    /// The 1-based line of the span's start.
    pub fn line(&self, span: Span) -> usize {
        let text = self.text(span.file);
        let end = (span.start as usize).min(text.len());
        text.as_bytes()[..end].iter().filter(|&&b| b == b'\n').count() + 1
    }

    /// The 1-based column of the span's start, in characters, as rendered
    /// diagnostics count it (`file:line:column`).
    pub fn column(&self, span: Span) -> usize {
        let text = self.text(span.file);
        let mut end = (span.start as usize).min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let line_start = text[..end].rfind('\n').map_or(0, |i| i + 1);
        text[line_start..end].chars().count() + 1
    }

    /// Number of files.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether no file was added.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

impl<'a> Files<'a> for Sources {
    type FileId = FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<&'a str, files::Error> {
        self.files
            .get(id)
            .map(|f| f.name().as_str())
            .ok_or(files::Error::FileMissing)
    }

    fn source(&'a self, id: FileId) -> Result<&'a str, files::Error> {
        self.files
            .get(id)
            .map(|f| f.source().as_str())
            .ok_or(files::Error::FileMissing)
    }

    fn line_index(&'a self, id: FileId, byte_index: usize) -> Result<usize, files::Error> {
        self.files
            .get(id)
            .ok_or(files::Error::FileMissing)?
            .line_index((), byte_index)
    }

    fn line_range(&'a self, id: FileId, line_index: usize) -> Result<Range<usize>, files::Error> {
        self.files
            .get(id)
            .ok_or(files::Error::FileMissing)?
            .line_range((), line_index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines and columns count as rendered diagnostics do: from 1, the
    /// column in characters (a multi-byte character counts once).
    #[test]
    fn lines_and_columns_count_from_one_in_characters() {
        let mut sources = Sources::new();
        let text = "pack p\n  é x\nlast";
        let file = sources.add("p.rules", text);
        let at = |needle: &str| {
            let i = text.find(needle).expect("in the text");
            Span::new(file, i..i + needle.len())
        };
        assert_eq!((sources.line(at("pack")), sources.column(at("pack"))), (1, 1));
        assert_eq!((sources.line(at("p\n")), sources.column(at("p\n"))), (1, 6));
        assert_eq!((sources.line(at("é")), sources.column(at("é"))), (2, 3));
        assert_eq!((sources.line(at("x")), sources.column(at("x"))), (2, 5));
        assert_eq!((sources.line(at("last")), sources.column(at("last"))), (3, 1));
        let d = crate::diagnostic::Diagnostic::new(crate::diagnostic::Code::ALL[0], "here").at(at("x"), "this");
        assert!(d.render(&sources).contains("p.rules:2:5"), "{}", d.render(&sources));
    }
}
