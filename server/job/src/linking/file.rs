//! Where links written for a Java workspace go: the link file `[model] links` names, else
//! `links.toml` beside `beagle.toml`, which `beagle.toml` must then name, or the job would not
//! read it ([`name_link_file`]).

use crate::workspace::{from_toml, Source, Workspace};
use std::path::{Path, PathBuf};

/// The link file of a Java workspace whose `beagle.toml` names none (beside `beagle.toml`).
pub const DEFAULT_LINKS: &str = "links.toml";

/// A Java workspace's link file.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkFile {
    pub path: PathBuf,
    /// Whether `beagle.toml` names it; when not, it is [`DEFAULT_LINKS`] and has to be named.
    pub named: bool,
}

/// The link file of `ws`; `None` when it measures no Java code.
pub fn link_file(ws: &Workspace) -> Option<LinkFile> {
    let Some(Source::Java { links, .. }) = &ws.source else {
        return None;
    };
    Some(match links {
        Some(path) => LinkFile {
            path: path.clone(),
            named: true,
        },
        None => LinkFile {
            path: ws.root.join(DEFAULT_LINKS),
            named: false,
        },
    })
}

/// The insertion that makes `beagle.toml` (at `toml_path`, its `text`) name `links` (relative to
/// its folder) as the link file: the byte offset and the text, a `links = "..."` line right
/// after the `[model]` header. `None` when that would not do it: no `[model]` header of its own
/// line, a `links` key there already, or a file that does not parse (checked by reading the
/// result as the job does).
pub fn name_link_file(toml_path: &Path, text: &str, links: &str) -> Option<(usize, String)> {
    let mut offset = 0;
    let header_end = text.split_inclusive('\n').find_map(|line| {
        offset += line.len();
        let code = line.split('#').next().unwrap_or("").trim();
        (code == "[model]").then_some(offset)
    })?;
    let line_break = if text[..header_end].ends_with('\n') { "" } else { "\n" };
    let insert = format!("{line_break}links = {}\n", toml::Value::String(links.to_string()));
    let mut named = text.to_string();
    named.insert_str(header_end, &insert);
    let dir = toml_path.parent().unwrap_or(Path::new(""));
    let ws = from_toml(dir, toml_path, &named).ok()?;
    (link_file(&ws)?
        == LinkFile {
            path: dir.join(links),
            named: true,
        })
    .then_some((header_end, insert))
}

#[cfg(test)]
mod tests {
    use super::*;

    const JAVA: &str = "[java]\nsources = [\"src\"]\n[[launch]]\nname = \"run\"\nmain = \"app.Main\"\n";

    #[test]
    fn the_link_file_is_named_under_model_and_reads_back() {
        let path = Path::new("ws/beagle.toml");
        let text = format!("# a workspace\n[model] # the model\nrepository = \"a.repository\"\n{JAVA}");
        let (at, insert) = name_link_file(path, &text, "links.toml").unwrap();
        assert_eq!(insert, "links = \"links.toml\"\n");
        assert_eq!(&text[..at], "# a workspace\n[model] # the model\n");
        let mut named = text.clone();
        named.insert_str(at, &insert);
        let ws = from_toml(Path::new("ws"), path, &named).unwrap();
        assert_eq!(
            link_file(&ws),
            Some(LinkFile {
                path: PathBuf::from("ws/links.toml"),
                named: true
            })
        );
    }

    #[test]
    fn without_a_link_file_the_default_is_beside_beagle_toml() {
        let text = format!("[model]\nrepository = \"a.repository\"\n{JAVA}");
        let ws = from_toml(Path::new("ws"), Path::new("ws/beagle.toml"), &text).unwrap();
        assert_eq!(
            link_file(&ws),
            Some(LinkFile {
                path: PathBuf::from("ws/links.toml"),
                named: false
            })
        );
    }

    #[test]
    fn a_model_table_that_cannot_take_the_line_is_not_edited() {
        let path = Path::new("ws/beagle.toml");
        // Named already: a second `links` key would not parse.
        let named = format!("[model]\nrepository = \"a.repository\"\nlinks = \"l.toml\"\n{JAVA}");
        assert_eq!(name_link_file(path, &named, "links.toml"), None);
        // An inline table has no header to add the line under.
        let inline = format!("model = {{ repository = \"a.repository\" }}\n{JAVA}");
        assert_eq!(name_link_file(path, &inline, "links.toml"), None);
    }
}
