//! A problem with one of Beagle's input files (`beagle.toml`, an operation mapping, ...): the file,
//! the line when it is known, and what is wrong. Callers that show it print `file:line: message`;
//! the language server puts `message` on `line` of the file, with no need to parse the text back.

use std::fmt;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    pub file: PathBuf,
    /// 1-based.
    pub line: Option<usize>,
    pub message: String,
}

impl FileError {
    /// A problem with the file as a whole (or at a line nobody knows).
    pub fn new(file: &Path, message: impl Into<String>) -> FileError {
        FileError {
            file: file.to_path_buf(),
            line: None,
            message: message.into(),
        }
    }

    /// A problem at byte `offset` of `text`, the file's text.
    pub fn at_offset(file: &Path, text: &str, offset: Option<usize>, message: impl Into<String>) -> FileError {
        let line = offset.map(|o| {
            text.as_bytes()[..o.min(text.len())]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1
        });
        FileError {
            file: file.to_path_buf(),
            line,
            message: message.into(),
        }
    }

    /// A TOML parse error of `text`, at its line.
    pub fn toml(file: &Path, text: &str, e: &toml::de::Error) -> FileError {
        FileError::at_offset(file, text, e.span().map(|s| s.start), e.message())
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.file.display(), self.message),
            None => write!(f, "{}: {}", self.file.display(), self.message),
        }
    }
}

impl std::error::Error for FileError {}

#[cfg(test)]
mod tests {
    use super::FileError;
    use std::path::Path;

    #[test]
    fn a_file_error_names_the_file_and_the_line_it_knows() {
        let text = "a = 1\nb = [\n";
        let e = FileError::at_offset(Path::new("/w/beagle.toml"), text, Some(8), "bad");
        assert_eq!((e.line, e.to_string().as_str()), (Some(2), "/w/beagle.toml:2: bad"));
        assert_eq!(FileError::new(Path::new("x.toml"), "gone").to_string(), "x.toml: gone");
        let parsed: Result<toml::Table, _> = toml::from_str(text);
        let e = FileError::toml(Path::new("/w/beagle.toml"), text, &parsed.unwrap_err());
        assert!(e.line.is_some(), "{e}");
    }
}
