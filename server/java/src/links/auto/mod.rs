//! Automatic links in the spirit of SoMoX: for SEFF elements nobody linked, guess the code from
//! names and structure. Component -> class (simple name, case-insensitive, also with an `Impl` or
//! `Component` suffix; SoMoX's `<PC No. n pkg.File.java.Class>` and qualified names give the
//! package too, [`class_hint`]), signature -> method (name and parameter count, parameter names to break
//! ties), then the SEFF's actions in execution order -> statements ([`behaviour`]).
//!
//! Every link carries a confidence in [0, 1] and a reason a person can check; callers use only
//! confident links and show the rest as proposals.

mod behaviour;
mod inherit;

use super::{CodeLink, LinkOrigin, Sources};
use crate::syntax::{JavaFile, Method};
use beagle_pcm::model::{Component, ComponentKind, Interface, Repository, Signature};
use inherit::Resolved;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Links for every SEFF, and every action in it, whose id is not in `linked`.
/// `sources` are the source roots (relative to `root`, joined with it, or absolute inside it).
pub fn automatic_links(
    repositories: &[&Repository],
    root: &Path,
    sources: &[PathBuf],
    linked: &BTreeSet<String>,
) -> Vec<CodeLink> {
    automatic_links_except(repositories, root, sources, linked, &crate::exclude::Exclude::default())
}

/// [`automatic_links`] without the files `exclude` leaves out (they are not compiled).
pub fn automatic_links_except(
    repositories: &[&Repository],
    root: &Path,
    sources: &[PathBuf],
    linked: &BTreeSet<String>,
    exclude: &crate::exclude::Exclude,
) -> Vec<CodeLink> {
    automatic_links_explained(repositories, root, sources, linked, exclude).0
}

/// [`automatic_links_except`], with why each SEFF that got no automatic link got none (SEFF id,
/// reason): no class of the component's name, or no method of the signature's name.
pub fn automatic_links_explained(
    repositories: &[&Repository],
    root: &Path,
    sources: &[PathBuf],
    linked: &BTreeSet<String>,
    exclude: &crate::exclude::Exclude,
) -> (Vec<CodeLink>, Vec<(String, String)>) {
    let index = Sources::new(root);
    let files: Vec<(PathBuf, JavaFile)> = java_files(&index, sources)
        .into_iter()
        .filter(|rel| !exclude.excludes(rel))
        .filter_map(|rel| {
            // Decoded as the instrumentation reads them: an ISO-8859-1 file is a class too.
            let text = crate::encoding::read(&root.join(&rel), None).ok()?.text;
            Some((rel, JavaFile::parse(text)?))
        })
        .collect();
    let model = Model { repositories };
    let mut out = Vec::new();
    let mut misses = Vec::new();
    for repo in repositories {
        for component in repo.components.iter().filter(|c| c.kind == ComponentKind::Basic) {
            link_component(&model, component, &files, &mut out, &mut misses);
        }
    }
    out.retain(|l| !linked.contains(&l.element));
    misses.retain(|(seff, _)| !linked.contains(seff));
    (out, misses)
}

/// Cross-repository look-ups by id.
pub(crate) struct Model<'a> {
    repositories: &'a [&'a Repository],
}

impl<'a> Model<'a> {
    pub(crate) fn signature(&self, id: &str) -> Option<&'a Signature> {
        self.repositories
            .iter()
            .flat_map(|r| r.signatures())
            .find(|(_, s)| s.id.as_deref() == Some(id))
            .map(|(_, s)| s)
    }

    pub(crate) fn interface(&self, id: &str) -> Option<&'a Interface> {
        self.repositories
            .iter()
            .flat_map(|r| &r.interfaces)
            .find(|i| i.id.as_deref() == Some(id))
    }
}

/// `.java` files under the source roots, workspace-relative, sorted (a stable order makes ties
/// break the same way every run).
fn java_files(index: &Sources, sources: &[PathBuf]) -> Vec<PathBuf> {
    let roots: Vec<PathBuf> = if sources.is_empty() {
        vec![PathBuf::new()]
    } else {
        sources.iter().filter_map(|s| index.relative_root(s).ok()).collect()
    };
    let mut out: Vec<PathBuf> = roots
        .iter()
        .flat_map(|r| {
            let files = super::java_files(&index.root.join(r)).unwrap_or_default();
            files.into_iter().map(move |f| r.join(f))
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// How well a class name fits a component name: 1 for the same name (ignoring case), 0.9 with
/// an `Impl` or `Component` suffix on either side, else 0.
fn class_score(class: &str, component: &str) -> f64 {
    let (c, m) = (class.to_lowercase(), component.to_lowercase());
    if c == m {
        return 1.0;
    }
    let strip = |s: &str| {
        ["impl", "component"]
            .iter()
            .find_map(|suffix| s.strip_suffix(suffix).map(str::to_string))
            .unwrap_or_else(|| s.to_string())
    };
    if strip(&c) == strip(&m) {
        0.9
    } else {
        0.0
    }
}

/// What a component's name says about its class: the simple name, and the package when the
/// name gives one.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassHint {
    pub class: String,
    pub package: Option<String>,
}

/// Reads a component name as models name components: SoMoX's
/// ` <PC No. 3 de.uka.ipd.sdq.palladiofileshare.businesslogic.BusinessCore.java.BusinessCore>`
/// (the file's fully qualified name, `.java.`, the class), a fully qualified class name
/// (`a.b.BusinessCore`), or a plain name (`BusinessCore`, `BusinessCoreImpl`).
pub fn class_hint(component: &str) -> ClassHint {
    let name = component.trim().trim_start_matches('<').trim_end_matches('>').trim();
    let somox = name.strip_prefix("PC No.").map(|rest| {
        rest.trim_start()
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim()
    });
    let qualified = somox.unwrap_or(name);
    let is_qualified = !qualified.contains(char::is_whitespace) && qualified.contains('.');
    if !is_qualified {
        return ClassHint {
            class: qualified.to_string(),
            package: None,
        };
    }
    // `pkg.File.java.Class`: the package is the file's, the class may differ from the file.
    let (file, class) = match qualified.split_once(".java.") {
        Some((file, class)) => (file, class.rsplit('.').next().unwrap_or(class)),
        None => (qualified, qualified.rsplit('.').next().unwrap_or(qualified)),
    };
    ClassHint {
        class: class.to_string(),
        package: file.rsplit_once('.').map(|(p, _)| p.to_string()),
    }
}

/// Finds the component's class and links its SEFFs.
fn link_component(
    model: &Model,
    component: &Component,
    files: &[(PathBuf, JavaFile)],
    out: &mut Vec<CodeLink>,
    misses: &mut Vec<(String, String)>,
) {
    let Some(hint) = component.name.as_deref().map(class_hint) else {
        return;
    };
    let seffs = || component.seffs.iter().filter_map(|s| s.id.clone());
    let name = hint.class.as_str();
    let mut candidates = Vec::new();
    for (i, (_, java)) in files.iter().enumerate() {
        // A package the name gives decides between classes of one name (SoMoX models of real
        // systems have two `DbAccess`); code moved to another package since is still found.
        let package_factor = match &hint.package {
            Some(p) if *p != java.package() => 0.5,
            _ => 1.0,
        };
        for class in java.classes() {
            if class.kind() == "interface_declaration" {
                continue;
            }
            let score = java.name_of(class).map_or(0.0, |c| class_score(c, name)) * package_factor;
            if score > 0.0 {
                candidates.push((score, i, class.start_byte()));
            }
        }
    }
    let best = candidates.iter().map(|c| c.0).fold(0.0, f64::max);
    let tied: Vec<&(f64, usize, usize)> = candidates.iter().filter(|c| c.0 == best).collect();
    let Some(&&(score, file_index, start)) = tied.first() else {
        let package = hint
            .package
            .as_deref()
            .map_or(String::new(), |p| format!(" in package {p}"));
        let why = format!(
            "no class named {} (or with an Impl or Component suffix){package} under the source roots",
            hint.class
        );
        misses.extend(seffs().map(|s| (s, why.clone())));
        return;
    };
    let java = &files[file_index].1;
    let Some(class) = java.classes().into_iter().find(|c| c.start_byte() == start) else {
        return;
    };
    let class_name = java.name_of(class).unwrap_or_default().to_string();
    // Who runs the code for this component: an inherited body runs for other classes too.
    let receiver = java.binary_name(class);
    // Several classes of the same name: the first (by path) is a guess.
    let class_confidence = score / tied.len() as f64;
    let shown = component.name.as_deref().map(str::trim).unwrap_or(name);
    let mut class_reason = format!("class {class_name} matches component {shown}");
    if tied.len() > 1 {
        class_reason.push_str(&format!(" (one of {} classes of that name)", tied.len()));
    }
    // Its own methods and those it inherits (a template method in an abstract base runs for it).
    let resolved = inherit::resolvable_methods(files, file_index, class);
    let methods: Vec<Method> = resolved.iter().map(|r| r.method.clone()).collect();
    for seff in &component.seffs {
        let Some(seff_id) = &seff.id else { continue };
        let Some(signature) = seff
            .described_service
            .as_ref()
            .and_then(|r| r.target.id())
            .and_then(|id| model.signature(id))
        else {
            continue;
        };
        let Some((picked, method_confidence, mut method_reason)) = pick_method(&methods, signature) else {
            misses.push((
                seff_id.clone(),
                format!(
                    "class {class_name} has no method {}",
                    signature.name.as_deref().unwrap_or("of the signature's name")
                ),
            ));
            continue;
        };
        let Some(at) = methods.iter().position(|m| std::ptr::eq(m, picked)) else {
            continue;
        };
        let Resolved {
            file: declared_in,
            class: declaring,
            method,
            inherited_from,
        } = &resolved[at];
        if let Some(base) = inherited_from {
            method_reason.push_str(&format!(", inherited from {base} (its body runs for {class_name})"));
        }
        let (file, java) = &files[*declared_in];
        let confidence = class_confidence * method_confidence;
        let reason = format!("{class_reason}; {method_reason}");
        out.push(CodeLink {
            element: seff_id.clone(),
            name: signature.name.clone(),
            file: file.clone(),
            range: method.range.clone(),
            origin: LinkOrigin::Automatic {
                confidence,
                reason: reason.clone(),
            },
            receiver: receiver.clone(),
        });
        let Some(body) = method.node.child_by_field_name("body") else {
            continue;
        };
        let mut matcher = behaviour::Matcher {
            model,
            component,
            java,
            file,
            class: *declaring,
            method,
            confidence,
            reason: &reason,
            receiver: receiver.clone(),
            links: Vec::new(),
        };
        matcher.behaviour(&seff.behaviour, body);
        out.extend(matcher.links);
    }
}

/// The method implementing a signature: same name, same number of parameters; among several,
/// the one with the most parameter names in common.
fn pick_method<'m, 't>(methods: &'m [Method<'t>], signature: &Signature) -> Option<(&'m Method<'t>, f64, String)> {
    let name = signature.name.as_deref()?;
    let params: Vec<&str> = signature.parameters.iter().filter_map(|p| p.name.as_deref()).collect();
    let same_name: Vec<&Method> = methods.iter().filter(|m| m.name == name).collect();
    let folded: Vec<&Method> = methods.iter().filter(|m| m.name.eq_ignore_ascii_case(name)).collect();
    let (pool, mut confidence) = match (same_name.is_empty(), folded.is_empty()) {
        (false, _) => (same_name, 1.0),
        (true, false) => (folded, 0.8),
        (true, true) => return similar_method(methods, name, &params),
    };
    let same_count: Vec<&Method> = pool
        .iter()
        .copied()
        .filter(|m| m.parameters.len() == signature.parameters.len())
        .collect();
    // None with the signature's count: one that takes every parameter of the signature by name,
    // and more (an id or a setting the model leaves out), is that operation; else a guess.
    let carries_all = |m: &&Method| {
        m.parameters.len() > params.len()
            && params
                .iter()
                .all(|p| m.parameters.iter().any(|q| crate::params::similar(q, p)))
    };
    let mut extra = None;
    let pool = if !same_count.is_empty() {
        same_count
    } else if let Some(m) = pool.iter().copied().find(carries_all) {
        confidence *= 0.9;
        let more: Vec<&str> = m
            .parameters
            .iter()
            .filter(|q| !params.iter().any(|p| crate::params::similar(q, p)))
            .map(String::as_str)
            .collect();
        extra = Some(format!(
            ", every parameter of the signature by name and {} more ({})",
            more.len(),
            more.join(", ")
        ));
        pool.iter().copied().filter(carries_all).collect()
    } else {
        confidence *= 0.5;
        pool
    };
    let common = |m: &Method| m.parameters.iter().filter(|p| params.contains(&p.as_str())).count();
    let best = pool.iter().map(|m| common(m)).max()?;
    let tied: Vec<&Method> = pool.iter().copied().filter(|m| common(m) == best).collect();
    if tied.len() > 1 {
        confidence *= 0.5;
    }
    let method = tied[0];
    let mut reason = format!(
        "method {}({}) matches signature {name}",
        method.name,
        method.parameters.join(", ")
    );
    if let Some(extra) = extra {
        reason.push_str(&extra);
    }
    if tied.len() > 1 {
        reason.push_str(&format!(
            " (one of {} overloads that fit equally well: a guess)",
            tied.len()
        ));
    } else if pool.len() > 1 {
        reason.push_str(" (by parameter names, among overloads)");
    }
    Some((method, confidence, reason))
}

/// Confidence of a method found by a similar name alone (`findMatches` for `find`): below the
/// threshold of use, so it is a proposal ("did you mean"), unless its parameters bear it out.
const SIMILAR_NAME: f64 = 0.6;

/// A method whose name shares its words with the signature's (`findMatches` for `find`,
/// `doRank` for `rank`), when none has its name: the one whose parameters carry most of the
/// signature's names (`currentItems` for `items`). Confidence [`SIMILAR_NAME`], raised by the
/// share of the signature's parameters found by name (to 0.85), lowered when the counts differ.
fn similar_method<'m, 't>(
    methods: &'m [Method<'t>],
    name: &str,
    params: &[&str],
) -> Option<(&'m Method<'t>, f64, String)> {
    let carried = |m: &Method| {
        params
            .iter()
            .filter(|p| m.parameters.iter().any(|q| crate::params::similar(q, p)))
            .count()
    };
    let candidates: Vec<&Method> = methods
        .iter()
        .filter(|m| m.node.kind() == "method_declaration" && crate::params::similar(&m.name, name))
        .collect();
    let best = candidates.iter().map(|m| carried(m)).max()?;
    let tied: Vec<&Method> = candidates.iter().copied().filter(|m| carried(m) == best).collect();
    let method = tied[0];
    let share = if params.is_empty() {
        1.0
    } else {
        best as f64 / params.len() as f64
    };
    let mut confidence = SIMILAR_NAME + 0.25 * share;
    if method.parameters.len() != params.len() {
        confidence *= 0.9;
    }
    if tied.len() > 1 {
        confidence *= 0.5;
    }
    let mut reason = format!(
        "method {}({}) has a name like signature {name}'s, and {best} of its {} parameters by name",
        method.name,
        method.parameters.join(", "),
        params.len()
    );
    if tied.len() > 1 {
        reason.push_str(&format!(
            " (one of {} methods that fit equally well: a guess)",
            tied.len()
        ));
    }
    Some((method, confidence, reason))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hint(class: &str, package: Option<&str>) -> ClassHint {
        ClassHint {
            class: class.into(),
            package: package.map(String::from),
        }
    }

    #[test]
    fn component_names_as_models_write_them() {
        // Every component name of the original Beagle's SoMoX model has this form.
        assert_eq!(
            class_hint(" <PC No. 3 de.uka.ipd.sdq.palladiofileshare.businesslogic.BusinessCore.java.BusinessCore>"),
            hint("BusinessCore", Some("de.uka.ipd.sdq.palladiofileshare.businesslogic"))
        );
        assert_eq!(
            class_hint("<PC No. 12 a.b.Outer.java.Inner>"),
            hint("Inner", Some("a.b"))
        );
        assert_eq!(class_hint("a.b.Storage"), hint("Storage", Some("a.b")));
        assert_eq!(class_hint("Storage"), hint("Storage", None));
        assert_eq!(class_hint("File Share"), hint("File Share", None));
        assert_eq!(class_hint("BusinessCoreImpl"), hint("BusinessCoreImpl", None));
    }
}
