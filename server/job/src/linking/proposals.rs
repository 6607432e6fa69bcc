//! What the language server's quick fix on "did you mean ...?" writes: for each SEFF that no link
//! file links and whose automatic candidate is below the threshold of use (the job's warning,
//! `crate::measuring::links::judge`), the `[[link]]` entries that link it, and the actions the
//! linker found in it, in Beagle's own format, for the workspace's link file
//! (`crate::linking::file`).

use crate::error::JobError;
use crate::linking::file::{link_file, LinkFile};
use crate::measuring::links::{automatic, judge, known_links, seff_ids, Judged};
use crate::report::Report;
use crate::workspace::{Source, Workspace};
use beagle_java::links::{CodeLink, LinkOrigin, Sources};
use beagle_pcm::model::{ActionBody, Repository, Seff};
use std::collections::BTreeSet;

/// The proposals of a Java workspace and where they go.
#[derive(Clone, Debug)]
pub struct LinkProposals {
    pub link_file: LinkFile,
    pub proposals: Vec<LinkProposal>,
}

/// One SEFF's candidate, below the threshold of use.
#[derive(Clone, Debug)]
pub struct LinkProposal {
    /// The SEFF's id.
    pub seff: String,
    /// The candidate method as people name it: `Class.method`.
    pub method: String,
    pub confidence: f64,
    /// Why the linker chose it, and why not surely.
    pub reason: String,
    /// The SEFF's link, then the links of the actions the linker found in its method.
    pub links: Vec<CodeLink>,
    /// `links` as `[[link]]` entries of Beagle's own format, each after a blank line.
    pub entries: String,
}

impl LinkProposal {
    /// The text to append to the link file whose text is `existing` (`None`: there is none yet,
    /// so the text starts with the format's header). `None` when the file is the original
    /// Beagle's XML, which takes no TOML.
    pub fn text_for(&self, existing: Option<&str>) -> Option<String> {
        let Some(existing) = existing else {
            return Some(format!("{}{}", beagle_java::links::own::HEADER, self.entries));
        };
        if existing.trim_start_matches('\u{feff}').trim_start().starts_with('<') {
            return None;
        }
        let line_break = if existing.is_empty() || existing.ends_with('\n') {
            ""
        } else {
            "\n"
        };
        Some(format!("{line_break}{}", self.entries))
    }
}

/// The proposals for the SEFFs of `repositories` (the workspace's, as the caller has them: an
/// editor's unsaved text included). Empty where the workspace does not link automatically (the
/// job then asks nothing either); an error where it measures no Java code or a linked Java file
/// cannot be read.
pub fn link_proposals(ws: &Workspace, repositories: &[&Repository]) -> Result<LinkProposals, JobError> {
    let (Some(Source::Java { config, .. }), Some(link_file)) = (&ws.source, link_file(ws)) else {
        return Err(JobError::NotJava);
    };
    let mut out = LinkProposals {
        link_file,
        proposals: Vec::new(),
    };
    if !config.automatic_links {
        return Ok(out);
    }
    // A link file that does not exist yet links nothing: the fix creates it.
    let existing = Some(out.link_file.path.as_path()).filter(|p| out.link_file.named && p.exists());
    let known = known_links(config, existing, &ws.repositories, repositories, &mut Report::default())?;
    let linked: BTreeSet<String> = known.links.iter().map(|l| l.element.clone()).collect();
    let (found, _) = automatic(config, &ws.repositories, repositories, &linked);
    // An element the file links already, to the wrong kind of code, would keep that first link.
    let found: Vec<CodeLink> = found
        .into_iter()
        .filter(|l| !known.in_file.contains(&l.element))
        .collect();
    let seffs = seff_ids(repositories);
    let mut sources = Sources::with_encoding(&config.root, config.encoding);
    for candidate in found.iter().filter(|l| judge(l, &seffs) == Some(Judged::DidYouMean)) {
        let LinkOrigin::Automatic { confidence, reason } = &candidate.origin else {
            continue;
        };
        let Some(seff) = repositories
            .iter()
            .flat_map(|r| r.seffs())
            .map(|(_, s)| s)
            .find(|s| s.id.as_deref() == Some(candidate.element.as_str()))
        else {
            continue;
        };
        let inside = element_ids(seff);
        let links: Vec<CodeLink> = std::iter::once(candidate)
            .chain(found.iter().filter(|l| inside.contains(l.element.as_str())))
            .cloned()
            .collect();
        let unwritable = |message: String| JobError::Edit {
            path: out.link_file.path.clone(),
            message,
        };
        let entries =
            beagle_java::links::own::write_entries(&links, &mut sources).map_err(|e| unwritable(e.to_string()))?;
        let java = sources.load(&candidate.file).map_err(|e| unwritable(e.to_string()))?;
        let method = java
            .method_label(candidate.range.start)
            .unwrap_or_else(|| candidate.file.display().to_string());
        out.proposals.push(LinkProposal {
            seff: candidate.element.clone(),
            method,
            confidence: *confidence,
            reason: reason.clone(),
            links,
            entries,
        });
    }
    Ok(out)
}

/// The ids of everything inside a SEFF that a link may name: its actions at any depth, their
/// branch transitions and nested behaviours.
fn element_ids(seff: &Seff) -> BTreeSet<&str> {
    let mut out = BTreeSet::new();
    for action in seff.behaviour.walk() {
        out.extend(action.id.as_deref());
        out.extend(action.body.behaviours().into_iter().filter_map(|b| b.id.as_deref()));
        if let ActionBody::Branch { transitions } = &action.body {
            out.extend(transitions.iter().filter_map(|t| t.id.as_deref()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measuring::links::links_for;
    use beagle_pcm::ModelFile;
    use std::path::Path;

    fn copy_dir(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap().map(Result::unwrap) {
            if e.file_type().unwrap().is_dir() {
                copy_dir(&e.path(), &to.join(e.file_name()));
            } else {
                std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
            }
        }
    }

    /// The job's own linking agrees with the proposals: before, it warns "did you mean" about
    /// exactly the SEFF proposed and does not measure it; with the proposal's text appended to
    /// the link file, it links the SEFF from the file and asks nothing.
    #[test]
    fn the_job_asks_about_what_is_proposed_and_links_what_was_written() {
        let dir = tempfile::tempdir().unwrap();
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/fileshare");
        copy_dir(&fixture.join("src"), &dir.path().join("src"));
        copy_dir(&fixture.join("model"), &dir.path().join("model"));
        let toml = std::fs::read_to_string(fixture.join("beagle.toml")).unwrap();
        // Hashing's method renamed `digestHash(String bytes)` (its kind contradicts the signature's), its links gone.
        std::fs::write(
            dir.path().join("beagle.toml"),
            toml.replace("links = \"model/links.toml\"\n", ""),
        )
        .unwrap();
        let java = dir.path().join("src/fileshare/Hashing.java");
        let text = std::fs::read_to_string(&java).unwrap();
        std::fs::write(&java, text.replace("hash(byte[] data)", "digestHash(String bytes)")).unwrap();

        let ws = crate::resolve(dir.path()).unwrap();
        let Some(Source::Java { config, .. }) = &ws.source else {
            panic!("a Java workspace")
        };
        let linked = |links: Option<&Path>| {
            let files: Vec<ModelFile> = ws.repositories.iter().map(|p| ModelFile::read(p).unwrap()).collect();
            let repositories: Vec<&Repository> = files.iter().filter_map(|f| f.repository.as_ref()).collect();
            let mut report = Report::default();
            let links = links_for(config, links, &ws.repositories, &repositories, &mut report)
                .unwrap()
                .links;
            let asked: Vec<String> = (report.diagnostics.iter())
                .filter(|d| d.message.contains("did you mean"))
                .filter_map(|d| d.element.clone())
                .collect();
            let proposed: Vec<String> = (link_proposals(&ws, &repositories).unwrap().proposals)
                .into_iter()
                .map(|p| p.seff)
                .collect();
            let hash = links
                .iter()
                .find(|l| l.element == "_fs_hash_seff")
                .map(|l| l.origin.clone());
            (asked, proposed, hash)
        };
        let (asked, proposed, hash) = linked(None);
        assert_eq!(asked, ["_fs_hash_seff"]);
        assert_eq!(proposed, asked);
        assert_eq!(hash, None, "not measured");

        let files: Vec<ModelFile> = ws.repositories.iter().map(|p| ModelFile::read(p).unwrap()).collect();
        let repositories: Vec<&Repository> = files.iter().filter_map(|f| f.repository.as_ref()).collect();
        let found = link_proposals(&ws, &repositories).unwrap();
        let path = found.link_file.path.clone();
        std::fs::write(&path, found.proposals[0].text_for(None).unwrap()).unwrap();
        let (asked, _, hash) = linked(Some(&path));
        assert!(asked.is_empty(), "{asked:?}");
        assert!(matches!(hash, Some(LinkOrigin::File { .. })), "{hash:?}");
    }
}
