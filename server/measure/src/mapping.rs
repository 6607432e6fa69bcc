//! The operation mapping file: which Java operation (as Kieker's standard records name it) stands
//! for which PCM element. TOML, so that it is readable and diffable:
//!
//! ```toml
//! [operations]
//! "public void app.Upload.upload(java.util.List)" = { seff = "_seff1" }
//! "private byte[] app.Lzw.compress(byte[])" = { action = "_action1", resource = "CPU" }
//! ```
//! `resource` is a resource type's name (`CPU`, `HDD`, `DELAY`, `LAN`) or id; CPU when omitted.

use crate::convert::{MappedOperation, OperationMapping};
use crate::error::FileError;
use beagle_pcm::edit::resource_type_id;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    operations: BTreeMap<String, Entry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    seff: Option<String>,
    action: Option<String>,
    resource: Option<String>,
}

/// Parses a mapping; errors name `path` and the line.
pub fn parse_mapping(text: &str, path: &Path) -> Result<OperationMapping, FileError> {
    let file: File = toml::from_str(text).map_err(|e| FileError::toml(path, text, &e))?;
    let mut out = OperationMapping::new();
    for (operation, entry) in file.operations {
        let mapped = match (entry.seff, entry.action) {
            (Some(seff), None) if entry.resource.is_none() => MappedOperation::Seff(seff),
            (None, Some(action)) => MappedOperation::InternalAction {
                action,
                resource: resource_type_id(entry.resource.as_deref().unwrap_or("CPU")).to_string(),
            },
            _ => {
                return Err(FileError::at_offset(
                    path,
                    text,
                    text.find(&format!("\"{operation}\"")),
                    format!("`{operation}` needs either `seff = \"<id>\"` or `action = \"<id>\"` (with an optional `resource`)"),
                ));
            }
        };
        out.insert(operation, mapped);
    }
    Ok(out)
}

/// Reads a mapping file.
pub fn read_mapping(path: &Path) -> Result<OperationMapping, FileError> {
    let text = std::fs::read_to_string(path).map_err(|e| FileError::new(path, format!("cannot read: {e}")))?;
    parse_mapping(&text, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seffs_and_actions() {
        let text = "[operations]\n\"void a.B.c()\" = { seff = \"_s\" }\n\"int a.B.d(int)\" = { action = \"_a\", resource = \"HDD\" }\n\"int a.B.e()\" = { action = \"_e\" }\n";
        let m = parse_mapping(text, Path::new("ops.toml")).unwrap();
        assert_eq!(m["void a.B.c()"], MappedOperation::Seff("_s".into()));
        assert_eq!(
            m["int a.B.d(int)"],
            MappedOperation::InternalAction {
                action: "_a".into(),
                resource: "_BIjHoQ3KEdyouMqirZIhzQ".into()
            }
        );
        assert!(
            matches!(&m["int a.B.e()"], MappedOperation::InternalAction { resource, .. } if resource == "_oro4gG3fEdy4YaaT-RYrLQ")
        );
    }

    #[test]
    fn bad_entries_name_file_and_line() {
        let text = "[operations]\n\"void a.B.c()\" = { seff = \"_s\" }\n\"x\" = { seff = \"_s\", action = \"_a\" }\n";
        let e = parse_mapping(text, Path::new("ops.toml")).unwrap_err();
        assert!(e.to_string().starts_with("ops.toml:3: `x` needs"), "{e}");
        let e = parse_mapping("[operations]\n\"x\" = { sef = \"_s\" }\n", Path::new("ops.toml")).unwrap_err();
        assert!(e.to_string().starts_with("ops.toml:2"), "{e}");
    }
}
