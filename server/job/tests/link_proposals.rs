//! Issue 38: below the threshold of use, a SEFF's automatic candidate is offered as text for the
//! link file. On a copy of `fixtures/fileshare` whose `Compression.compress` was renamed
//! `compressBytes(String input)` (a name like the signature's, its parameter of another kind:
//! below the threshold) and whose link file no longer links that SEFF, the proposal names the method,
//! and the text it gives, appended to the link file, links the SEFF when read back.

use beagle_java::links::read_links;
use beagle_job::{link_proposals, resolve, LinkProposals, Source, Workspace, TRUSTED_CONFIDENCE};
use beagle_pcm::ModelFile;
use std::path::{Path, PathBuf};

const SEFF: &str = "_fs_compress_seff";

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_name() == ".beagle" {
            continue;
        }
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// The fileshare copy with the compression method renamed and its links (the SEFF's and its
/// action's) gone from `model/links.toml`.
fn renamed_fileshare() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/fileshare"),
        dir.path(),
    );
    let java = dir.path().join("src/fileshare/Compression.java");
    let text = std::fs::read_to_string(&java).unwrap();
    let renamed = text.replace(
        "public byte[] compress(byte[] data)",
        "public byte[] compressBytes(String input)",
    );
    assert_ne!(renamed, text);
    std::fs::write(&java, renamed).unwrap();
    let links = dir.path().join("model/links.toml");
    let text = std::fs::read_to_string(&links).unwrap();
    let kept: Vec<&str> = text
        .split("\n\n")
        .filter(|entry| {
            !entry.contains("element = \"_fs_compress_seff\"") && !entry.contains("element = \"_fs_compress\"")
        })
        .collect();
    std::fs::write(&links, kept.join("\n\n")).unwrap();
    dir
}

fn proposals(ws: &Workspace) -> LinkProposals {
    let files: Vec<ModelFile> = ws.repositories.iter().map(|p| ModelFile::read(p).unwrap()).collect();
    let repositories: Vec<_> = files.iter().filter_map(|f| f.repository.as_ref()).collect();
    link_proposals(ws, &repositories).unwrap()
}

fn java_config(ws: &Workspace) -> (PathBuf, Vec<PathBuf>) {
    let Some(Source::Java { config, .. }) = &ws.source else {
        panic!("a Java workspace")
    };
    (config.root.clone(), config.sources.clone())
}

#[test]
fn a_renamed_method_is_proposed_and_its_text_links_the_seff() {
    let dir = renamed_fileshare();
    let ws = resolve(dir.path()).unwrap();
    let found = proposals(&ws);
    assert_eq!(found.link_file.path, dir.path().join("model/links.toml"));
    assert!(found.link_file.named);
    // Only the renamed SEFF: the others are linked by the file.
    let seffs: Vec<&str> = found.proposals.iter().map(|p| p.seff.as_str()).collect();
    assert_eq!(seffs, [SEFF]);
    let p = &found.proposals[0];
    assert_eq!(p.method, "Compression.compressBytes");
    assert!(p.confidence < TRUSTED_CONFIDENCE, "{}", p.confidence);
    assert!(p.reason.contains("compressBytes(input)"), "{}", p.reason);
    // The SEFF's entry names the method's whole declaration.
    assert!(
        p.entries.starts_with("\n[[link]]\nelement = \"_fs_compress_seff\"\n"),
        "{}",
        p.entries
    );
    assert!(
        p.entries
            .contains("file = \"src/fileshare/Compression.java\"\nfrom = \"17:5\""),
        "{}",
        p.entries
    );
    // The SEFF's action, which the linker found in the method's body, comes with it.
    let elements: Vec<&str> = p.links.iter().map(|l| l.element.as_str()).collect();
    assert_eq!(elements, [SEFF, "_fs_compress"]);

    let links_path = &found.link_file.path;
    let before = std::fs::read_to_string(links_path).unwrap();
    let appended = p.text_for(Some(&before)).unwrap();
    std::fs::write(links_path, format!("{before}{appended}")).unwrap();

    let (root, sources) = java_config(&ws);
    let read = read_links(links_path, &root, &sources).unwrap();
    assert!(read.problems.is_empty(), "{:?}", read.problems);
    let seff = read
        .links
        .iter()
        .find(|l| l.element == SEFF)
        .expect("the SEFF is linked");
    let java = std::fs::read_to_string(root.join(&seff.file)).unwrap();
    assert!(java[seff.range.clone()].starts_with("@Override\n    public byte[] compressBytes(String input)"));
    assert!(read.links.iter().any(|l| l.element == "_fs_compress"));
    // Linked now: no "did you mean" any more.
    assert!(proposals(&ws).proposals.is_empty());
}

#[test]
fn without_a_link_file_the_proposal_goes_into_a_new_one_that_beagle_toml_names() {
    let dir = renamed_fileshare();
    std::fs::remove_file(dir.path().join("model/links.toml")).unwrap();
    let toml_path = dir.path().join("beagle.toml");
    let toml = std::fs::read_to_string(&toml_path).unwrap();
    std::fs::write(&toml_path, toml.replace("links = \"model/links.toml\"\n", "")).unwrap();
    let ws = resolve(dir.path()).unwrap();
    let found = proposals(&ws);
    assert_eq!(found.link_file.path, dir.path().join("links.toml"));
    assert!(!found.link_file.named);
    // The other SEFFs are linked automatically, with confidence.
    let p = found.proposals.iter().find(|p| p.seff == SEFF).expect("a proposal");
    assert_eq!(found.proposals.len(), 1, "{:?}", found.proposals);

    let text = p.text_for(None).unwrap();
    assert!(text.starts_with("# PCM element -> code."), "{text}");
    std::fs::write(&found.link_file.path, text).unwrap();
    let toml = std::fs::read_to_string(&toml_path).unwrap();
    let (at, insert) = beagle_job::linking::file::name_link_file(&toml_path, &toml, "links.toml").unwrap();
    let mut named = toml.clone();
    named.insert_str(at, &insert);
    std::fs::write(&toml_path, named).unwrap();

    let ws = resolve(dir.path()).unwrap();
    let Some(Source::Java { links: Some(links), .. }) = &ws.source else {
        panic!("beagle.toml names the link file")
    };
    let (root, sources) = java_config(&ws);
    let read = read_links(links, &root, &sources).unwrap();
    assert!(read.links.iter().any(|l| l.element == SEFF));
    assert!(proposals(&ws).proposals.is_empty());
}

#[test]
fn xml_link_files_take_no_toml() {
    let dir = renamed_fileshare();
    let ws = resolve(dir.path()).unwrap();
    let p = proposals(&ws).proposals.remove(0);
    assert_eq!(p.text_for(Some("<?xml version=\"1.0\"?>\n<links/>")), None);
    // A file without a final line break gets one before the entries.
    assert_eq!(p.text_for(Some("# links")), Some(format!("\n{}", p.entries)));
}
