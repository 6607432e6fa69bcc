//! Byte spans into a file's text, and the line index that turns them into lines and columns.

use serde::Serialize;
use std::ops::Range;

/// A half-open byte range `start..end` into the original text of one file.
///
/// `u32` keeps the index of a large repository compact; files over 4 GiB are refused when read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }

    pub fn empty(at: usize) -> Span {
        Span::new(at, at)
    }

    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }

    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    pub fn contains(self, offset: usize) -> bool {
        (self.start as usize..=self.end as usize).contains(&offset)
    }
}

/// A 1-based line and a 1-based column counted in characters (Unicode scalar values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LineCol {
    pub line: u32,
    pub column: u32,
}

/// Start offsets of every line, so that offsets turn into lines in O(log n).
#[derive(Clone, Debug, Default)]
pub struct LineIndex {
    line_starts: Vec<u32>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut line_starts = vec![0];
        line_starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| (i + 1) as u32));
        LineIndex { line_starts }
    }

    /// Line and column of a byte offset; offsets inside a multi-byte character count as that character.
    pub fn line_col(&self, text: &str, offset: usize) -> LineCol {
        let offset = offset.min(text.len());
        let line = self.line_starts.partition_point(|&s| s as usize <= offset) - 1;
        let start = self.line_starts[line] as usize;
        let column = text
            .get(start..offset)
            .map(|s| s.chars().count())
            .unwrap_or_else(|| String::from_utf8_lossy(&text.as_bytes()[start..offset]).chars().count());
        LineCol {
            line: line as u32 + 1,
            column: column as u32 + 1,
        }
    }

    /// Byte offset where a 1-based line starts.
    pub fn line_start(&self, line: u32) -> Option<usize> {
        self.line_starts.get(line.checked_sub(1)? as usize).map(|&s| s as usize)
    }
}
