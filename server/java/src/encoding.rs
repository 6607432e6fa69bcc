//! Reading Java sources as they come: UTF-8 today, ISO-8859-1 or windows-1252 in code bases
//! written before UTF-8 was every editor's default (`[java] encoding`, `docs/src/java.md`).
//!
//! A file is read in the configured encoding; without one, as UTF-8 (a byte-order mark is
//! dropped) and, when its bytes are not UTF-8, as windows-1252, which decodes every byte (it is
//! ISO-8859-1 with printable characters where ISO-8859-1 has C1 controls, which Java sources do
//! not contain) and is what such files almost always are. Which files needed the fallback is
//! reported, so a user whose files are in another legacy encoding knows to set it.

use beagle_measure::FileError;
use encoding_rs::{Encoding, UTF_8, WINDOWS_1252};
use std::path::Path;

/// Bytes that are not text in the configured encoding: its name and the first byte it cannot
/// decode (0-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not valid {encoding} (byte {byte})")]
pub struct DecodeError {
    pub encoding: &'static str,
    pub byte: usize,
}

/// A source file's text and how it was decoded.
#[derive(Clone, Debug, PartialEq)]
pub struct Decoded {
    pub text: String,
    /// The encoding the bytes were read in.
    pub encoding: &'static Encoding,
    /// Read in the fallback encoding because the bytes were not UTF-8 (none was configured).
    pub fell_back: bool,
}

/// The encoding a `[java] encoding` label names (WHATWG labels: `utf-8`, `iso-8859-1`,
/// `latin1`, `windows-1252`, `cp1252`, `shift_jis`, ...).
pub fn by_label(label: &str) -> Option<&'static Encoding> {
    Encoding::for_label(label.trim().as_bytes())
}

/// Decodes a file's bytes: in `configured` when given (malformed bytes are an error naming the
/// first one), else as described in the module documentation.
pub fn decode(bytes: &[u8], configured: Option<&'static Encoding>) -> Result<Decoded, DecodeError> {
    if let Some(encoding) = configured {
        let (text, had_errors) = encoding.decode_without_bom_handling(strip_bom(bytes, encoding));
        if had_errors {
            return Err(DecodeError {
                encoding: encoding.name(),
                byte: first_malformed(bytes, encoding),
            });
        }
        return Ok(Decoded {
            text: text.into_owned(),
            encoding,
            fell_back: false,
        });
    }
    match std::str::from_utf8(strip_bom(bytes, UTF_8)) {
        Ok(text) => Ok(Decoded {
            text: text.to_string(),
            encoding: UTF_8,
            fell_back: false,
        }),
        Err(_) => Ok(Decoded {
            text: WINDOWS_1252.decode_without_bom_handling(bytes).0.into_owned(),
            encoding: WINDOWS_1252,
            fell_back: true,
        }),
    }
}

/// Reads and decodes a file; errors name it.
pub fn read(path: &Path, configured: Option<&'static Encoding>) -> Result<Decoded, FileError> {
    let bytes = std::fs::read(path).map_err(|e| FileError::new(path, format!("cannot read: {e}")))?;
    decode(&bytes, configured).map_err(|e| FileError::new(path, e.to_string()))
}

fn strip_bom<'b>(bytes: &'b [u8], encoding: &'static Encoding) -> &'b [u8] {
    if encoding == UTF_8 {
        bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
    } else {
        bytes
    }
}

/// Index of the first byte `encoding` cannot decode (for the error message).
fn first_malformed(bytes: &[u8], encoding: &'static Encoding) -> usize {
    (1..=bytes.len())
        .find(|n| encoding.decode_without_bom_handling(&bytes[..*n]).1)
        .map_or(bytes.len(), |n| n - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_is_read_as_is_and_a_bom_dropped() {
        let d = decode("class Ü {}".as_bytes(), None).unwrap();
        assert_eq!((d.text.as_str(), d.encoding, d.fell_back), ("class Ü {}", UTF_8, false));
        let d = decode(b"\xEF\xBB\xBFclass A {}", None).unwrap();
        assert_eq!(d.text, "class A {}");
    }

    #[test]
    fn latin1_falls_back_to_windows_1252() {
        // "// Größe" in ISO-8859-1.
        let d = decode(b"// Gr\xF6\xDFe\nclass A {}", None).unwrap();
        assert_eq!(d.text, "// Größe\nclass A {}");
        assert_eq!((d.encoding, d.fell_back), (WINDOWS_1252, true));
    }

    #[test]
    fn a_configured_encoding_is_used_and_checked() {
        let latin1 = by_label("ISO-8859-1").unwrap();
        assert_eq!(decode(b"\xE9", Some(latin1)).unwrap().text, "é");
        // Shift_JIS cannot decode a lone 0x81 at the end.
        let sjis = by_label("shift_jis").unwrap();
        let e = decode(b"ab\x81", Some(sjis)).unwrap_err();
        assert_eq!((e.encoding, e.byte), ("Shift_JIS", 2));
        assert_eq!(e.to_string(), "not valid Shift_JIS (byte 2)");
        assert!(by_label("no-such-encoding").is_none());
    }
}
