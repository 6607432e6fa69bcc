//! Kieker's compressed logs. Kieker 1.13's writer zips each `.dat` file (`kieker-...-001.zip`,
//! one entry); 1.14 and later take a compression filter whose extension replaces `.dat`:
//! `.gz` (gzip), `.xz`, `.zip`, `.df` (zlib). `kieker.map` is never compressed. A file is decoded
//! by its first bytes, not its name: 1.15's bzip2 filter writes `.gz` files holding bzip2 data,
//! which Beagle does not read (an error naming the file, not wrong records). A whole log folder
//! may also come as one zip archive (`kieker.map` and the `.dat` files inside).

use super::KiekerError;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Extensions of the files of a log folder that hold records.
pub const RECORD_FILES: &[&str] = &["dat", "gz", "xz", "zip", "df"];

/// Whether `path` names a record file of a log folder.
pub fn is_record_file(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| RECORD_FILES.contains(&e))
}

fn io(path: &Path, e: impl std::fmt::Display) -> KiekerError {
    KiekerError::Io {
        path: path.to_path_buf(),
        source: std::io::Error::other(e.to_string()),
    }
}

/// The text of a record file, decompressed as its first bytes say.
pub fn text_of(path: &Path, bytes: Vec<u8>) -> Result<String, KiekerError> {
    let plain = match bytes.as_slice() {
        [0x1f, 0x8b, ..] => {
            let mut out = Vec::new();
            flate2::read::MultiGzDecoder::new(bytes.as_slice())
                .read_to_end(&mut out)
                .map_err(|e| io(path, format!("not readable gzip: {e}")))?;
            out
        }
        [0xfd, b'7', b'z', b'X', b'Z', 0x00, ..] => {
            let mut out = Vec::new();
            lzma_rs::xz_decompress(&mut bytes.as_slice(), &mut out)
                .map_err(|e| io(path, format!("not readable xz: {e}")))?;
            out
        }
        [b'P', b'K', 0x03, 0x04, ..] => {
            let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes))
                .map_err(|e| io(path, format!("not a readable zip: {e}")))?;
            let mut out = Vec::new();
            for i in 0..archive.len() {
                let mut entry = archive.by_index(i).map_err(|e| io(path, e))?;
                if entry.is_file() {
                    entry.read_to_end(&mut out).map_err(|e| io(path, e))?;
                }
            }
            out
        }
        [b'B', b'Z', b'h', ..] => {
            return Err(io(
                path,
                "bzip2 data (Kieker 1.15's BZip2CompressionFilter, which names its files .gz): not read; \
                 decompress it (bunzip2) or log with another filter",
            ))
        }
        // zlib (DeflateCompressionFilter): a CMF byte of deflate with a 32 KB window or less and
        // a header checksum.
        [cmf, flg, ..] if cmf & 0x0f == 8 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0 => {
            let mut out = Vec::new();
            flate2::read::ZlibDecoder::new(bytes.as_slice())
                .read_to_end(&mut out)
                .map_err(|e| io(path, format!("not readable zlib: {e}")))?;
            out
        }
        _ => bytes,
    };
    String::from_utf8(plain).map_err(|e| io(path, format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to())))
}

/// A log folder packed into one zip archive: its `kieker.map` and its record files (entry
/// names as paths under the archive's path), in name order.
pub fn archive(path: &Path) -> Result<(String, Vec<(PathBuf, String)>), KiekerError> {
    let file = std::fs::File::open(path).map_err(|source| KiekerError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let mut archive = zip::ZipArchive::new(file).map_err(|e| io(path, format!("not a readable zip: {e}")))?;
    let mut map = None;
    let mut files = Vec::new();
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).map_err(|e| io(path, e))?;
        if !entry.is_file() {
            continue;
        }
        let name = PathBuf::from(entry.name());
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).map_err(|e| io(path, e))?;
        let shown = path.join(&name);
        if name.file_name().is_some_and(|n| n == "kieker.map") {
            map = Some(text_of(&shown, bytes)?);
        } else if is_record_file(&name) {
            files.push((shown.clone(), text_of(&shown, bytes)?));
        }
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    let map = map.ok_or_else(|| KiekerError::MissingMap {
        dir: path.to_path_buf(),
    })?;
    Ok((map, files))
}
