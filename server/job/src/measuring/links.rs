//! The code links a Java job measures with, in the order they win: the link file's (a link that
//! does not resolve or links the wrong kind of code is dropped, with why), the loops and branches
//! around bodies it links, then automatic links for the elements still unlinked, used from
//! [`TRUSTED_CONFIDENCE`] up. Below it, a SEFF's candidate is a "did you mean ...?" warning, and
//! the language server's quick fix writes it into the link file (`crate::linking::proposals`):
//! both come from [`judge`], so that what is warned about is what is offered.

use crate::error::JobError;
use crate::report::{Diagnostic, Report};
use beagle_java::launch::JavaConfig;
use beagle_java::links::{CodeLink, LinkOrigin, Sources};
use beagle_pcm::model::{ActionBody, Repository};
use beagle_pcm::Severity;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Automatic links below this confidence are proposed, not used.
pub const TRUSTED_CONFIDENCE: f64 = 0.8;

fn info(report: &mut Report, severity: Severity, element: Option<String>, message: String) {
    report.diagnostics.push(Diagnostic {
        severity,
        ..Diagnostic::info(element, message)
    });
}

/// What becomes of an automatic candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Judged {
    /// Confident enough: measured.
    Used,
    /// A SEFF's candidate below the threshold: the SEFF stays unmeasured, and the user is asked
    /// "did you mean ...?".
    DidYouMean,
    /// An action's candidate below the threshold: its SEFF is measured, so only an info.
    Unused,
}

/// How an automatic `link` is used; `seffs` are the ids of the repositories' SEFFs. `None` for a
/// link that is not automatic.
pub(crate) fn judge(link: &CodeLink, seffs: &BTreeSet<&str>) -> Option<Judged> {
    let LinkOrigin::Automatic { confidence, .. } = &link.origin else {
        return None;
    };
    Some(if *confidence >= TRUSTED_CONFIDENCE {
        Judged::Used
    } else if seffs.contains(link.element.as_str()) {
        Judged::DidYouMean
    } else {
        Judged::Unused
    })
}

/// The ids of the repositories' SEFFs.
pub(crate) fn seff_ids<'r>(repositories: &[&'r Repository]) -> BTreeSet<&'r str> {
    repositories
        .iter()
        .flat_map(|r| r.seffs())
        .filter_map(|(_, s)| s.id.as_deref())
        .collect()
}

/// The links before automatic linking: the link file's that are used, and the statements
/// around the bodies they link.
pub(crate) struct KnownLinks {
    pub links: Vec<CodeLink>,
    /// The link file's `[[input]]`s: characterisations given as Java expressions.
    pub inputs: Vec<beagle_java::links::GivenInput>,
    /// Every element the link file links to code, those dropped as the wrong kind of code
    /// included: another entry for one of them would be "linked more than once".
    pub in_file: BTreeSet<String>,
}

/// The automatic links of the SEFFs not in `linked`, and why the others got none
/// (`beagle_java::links::auto::automatic_links_explained`), over `repositories` (read from
/// `paths`, in the same order) and the data types they take from other files
/// (`crate::measuring::referenced`). The job, `link --suggest` and the quick fix all link here.
pub(crate) fn automatic(
    config: &JavaConfig,
    paths: &[PathBuf],
    repositories: &[&Repository],
    linked: &BTreeSet<String>,
) -> (Vec<CodeLink>, Vec<(String, String)>) {
    let types = crate::measuring::referenced::type_repositories(paths, repositories);
    let with_types: Vec<&Repository> = repositories.iter().copied().chain(&types).collect();
    beagle_java::links::auto::automatic_links_explained(
        &with_types,
        &config.root,
        &config.sources,
        linked,
        &config.exclude,
    )
}

/// Every link of the job: [`known_links`], then the automatic ones used; what was not linked,
/// and why, into `report`.
pub(crate) fn links_for(
    config: &JavaConfig,
    links_path: Option<&Path>,
    repository_paths: &[PathBuf],
    repositories: &[&Repository],
    report: &mut Report,
) -> Result<Linked, JobError> {
    let known = known_links(config, links_path, repository_paths, repositories, report)?;
    let (mut links, inputs) = (known.links, known.inputs);
    if !config.automatic_links {
        return Ok(Linked { links, inputs });
    }
    let linked: BTreeSet<String> = links.iter().map(|l| l.element.clone()).collect();
    let (mut found, misses) = automatic(config, repository_paths, repositories, &linked);
    // A transition's automatic link says which arm of its branch it is; of a branch the link
    // file places, the file's statement is the branch, and its arms are not the linker's to say.
    let branch_of: BTreeMap<&str, &str> = repositories
        .iter()
        .flat_map(|r| r.actions())
        .filter_map(|a| match (&a.id, &a.body) {
            (Some(id), ActionBody::Branch { transitions }) => Some((id.as_str(), transitions)),
            _ => None,
        })
        .flat_map(|(id, ts)| ts.iter().filter_map(move |t| Some((t.id.as_deref()?, id))))
        .collect();
    found.retain(|l| branch_of.get(l.element.as_str()).is_none_or(|b| !linked.contains(*b)));
    for (seff, why) in misses {
        info(
            report,
            Severity::Info,
            Some(seff.clone()),
            format!("{seff}: no automatic link: {why}"),
        );
    }
    let seffs = seff_ids(repositories);
    for l in found {
        let (Some(judged), LinkOrigin::Automatic { confidence, reason }) = (judge(&l, &seffs), &l.origin) else {
            continue;
        };
        match judged {
            // The SEFF stays unmeasured: a warning that names the candidate, so that the user
            // can link it (an action's is an info: its SEFF is measured).
            // Several candidates for one SEFF: one line, the best first, the others after it.
            Judged::DidYouMean => {
                let said = format!("{}: not linked: did you mean ", l.element);
                let also = format!(" {} (confidence {confidence:.2})", l.file.display());
                match (report.diagnostics.iter_mut()).find(|d| d.message.starts_with(&said)) {
                    Some(d) if d.message.ends_with(')') => d.message = format!("{},{also})", &d.message[..d.message.len() - 1]),
                    Some(d) => d.message.push_str(&format!(" (other candidates below it:{also})")),
                    None => info(
                        report,
                        Severity::Warning,
                        Some(l.element.clone()),
                        format!(
                            "{said}{} (confidence {confidence:.2}, below {TRUSTED_CONFIDENCE}: {reason})? Link it in the link file to measure it",
                            l.file.display(),
                        ),
                    ),
                }
            }
            Judged::Used | Judged::Unused => {
                let used = judged == Judged::Used;
                // Transitions matched to the code's arms by order only: a guess to check.
                let severity = if used && reason.contains(beagle_java::links::auto::ARMS_BY_ORDER) {
                    Severity::Warning
                } else {
                    Severity::Info
                };
                info(
                    report,
                    severity,
                    Some(l.element.clone()),
                    format!(
                        "{}: automatic link to {} ({}confidence {confidence:.2}): {reason}",
                        l.element,
                        l.file.display(),
                        if used { "used; " } else { "not used, " }
                    ),
                );
                if used {
                    links.push(l);
                }
            }
        }
    }
    Ok(Linked { links, inputs })
}

/// What the job measures through: the links used, and the characterisations the link file gives
/// as Java expressions.
pub(crate) struct Linked {
    pub links: Vec<CodeLink>,
    pub inputs: Vec<beagle_java::links::GivenInput>,
}

/// The link file's links that are used (the first of an element's, of the right kind of code)
/// and the loops and branches whose bodies they link; the problems into `report`.
pub(crate) fn known_links(
    config: &JavaConfig,
    links_path: Option<&Path>,
    repository_paths: &[PathBuf],
    repositories: &[&Repository],
    report: &mut Report,
) -> Result<KnownLinks, JobError> {
    let mut sources = Sources::with_encoding(&config.root, config.encoding);
    let mut in_file = BTreeSet::new();
    let mut inputs = Vec::new();
    let mut links = match links_path {
        Some(p) => {
            let set = beagle_java::links::read_links_in(p, &mut sources, &config.sources)?;
            in_file.extend(set.links.iter().map(|l| l.element.clone()));
            inputs = set.inputs;
            // One link that does not resolve (a class this version lacks, an offset past the end
            // of a changed file) costs only its element, which falls back to automatic linking.
            let mut links: Vec<CodeLink> = Vec::new();
            let mut problems = set.problems;
            for link in set.links {
                if links.iter().any(|l| l.element == link.element) {
                    problems.push(
                        beagle_java::links::LinkError::of(
                            &link,
                            link.element.clone(),
                            "linked more than once: the first link is used",
                        )
                        .warning(),
                    );
                } else {
                    links.push(link);
                }
            }
            // A link to the wrong kind of code (a loop linked to a plain statement) would measure
            // something else: it is dropped with the reason, as a link that does not resolve is.
            let mut models = beagle_pcm::ModelSet::new();
            for path in repository_paths {
                let _ = models.load(path);
            }
            let invalid = beagle_java::links::validate(&links, &models, &config.root);
            let dropped: BTreeSet<String> = invalid
                .iter()
                .filter(|e| e.severity == Severity::Error)
                .filter_map(|e| e.element.as_deref())
                .filter_map(|e| e.split_whitespace().next().map(str::to_string))
                .collect();
            links.retain(|l| !dropped.contains(&l.element));
            problems.extend(invalid.into_iter().map(|e| e.warning()));
            for problem in &problems {
                // A link that does not resolve costs only its element: not an error of the job.
                let severity = match problem.severity {
                    Severity::Error | Severity::Warning => Severity::Warning,
                    Severity::Info => Severity::Info,
                };
                let element = problem
                    .element
                    .as_deref()
                    .and_then(|e| e.split_whitespace().next())
                    .map(String::from);
                info(report, severity, element, problem.to_string());
            }
            links
        }
        None => Vec::new(),
    };
    // Loops and branches whose bodies are linked (SoMoX links those): the statement around them.
    let linked: BTreeSet<String> = links.iter().map(|l| l.element.clone()).collect();
    for l in beagle_java::links::enclosing::from_behaviours(&links, repositories, &mut sources, &linked) {
        if let LinkOrigin::Automatic { reason, .. } = &l.origin {
            info(
                report,
                Severity::Info,
                Some(l.element.clone()),
                format!("{}: linked to {}: {reason}", l.element, l.file.display()),
            );
        }
        links.push(l);
    }
    Ok(KnownLinks { links, inputs, in_file })
}
