//! The class named like a SEFF's interface (issue 49). Extraction tools make a component per Java
//! package (`org.acme.logic`) and an OperationInterface per class, named after it (`Roster`, or
//! `org.acme.logic.Roster`), with a signature per public method: the operation is then the
//! method of the class the interface is named like, found inside the component's package.

use super::named::{class_hint, class_score, ClassFound};
use crate::syntax::JavaFile;
use std::path::PathBuf;
use tree_sitter::Node;

/// The sources' packages and classes, read once for all SEFFs: a model of 1,000 SEFFs asks for
/// them per SEFF (walking every file's tree each time took 7 s for 440 files).
pub(super) struct ClassIndex<'f> {
    files: &'f [(PathBuf, JavaFile)],
    /// Each file's package.
    packages: Vec<String>,
    /// Every class, enum and record (not interfaces), with its file and name.
    classes: Vec<(usize, Node<'f>, &'f str)>,
}

impl<'f> ClassIndex<'f> {
    pub(super) fn new(files: &'f [(PathBuf, JavaFile)]) -> ClassIndex<'f> {
        let packages = files.iter().map(|(_, java)| java.package()).collect();
        let mut classes = Vec::new();
        for (i, (_, java)) in files.iter().enumerate() {
            for class in java.classes() {
                if class.kind() == "interface_declaration" {
                    continue;
                }
                if let Some(name) = java.name_of(class) {
                    classes.push((i, class, name));
                }
            }
        }
        ClassIndex {
            files,
            packages,
            classes,
        }
    }
}

/// The package a component's name is, as the sources spell it: a dotted name without spaces
/// that is one of the sources' packages, lies above some (`org.acme` holds `org.acme.logic`),
/// or ends one, segment by segment and case aside (CoCoME's hand-made model names a component
/// `TradingSystem.Inventory.Data.Store` for `org.cocome.tradingsystem.inventory.data.store`). A
/// single segment counts only in lower case (`logic`): `Logic` is a class's name.
pub(super) fn component_package(index: &ClassIndex, component: &str) -> Option<String> {
    package_of(index, component, false)
}

/// [`component_package`], also for a single capitalised segment (`WebUI` for
/// `tools.descartes.teastore.webui`): where no class is named like the component, hand-drawn
/// models name a component after its module.
pub(super) fn module_package(index: &ClassIndex, component: &str) -> Option<String> {
    package_of(index, component, true)
}

fn package_of(index: &ClassIndex, component: &str, capitalised: bool) -> Option<String> {
    let name = component.trim();
    let segment_ok = |s: &str| {
        s.chars().next().is_some_and(char::is_alphabetic) && s.chars().all(|c| c.is_alphanumeric() || c == '_')
    };
    let single_lower = !name.contains('.') && (capitalised || name.chars().next().is_some_and(char::is_lowercase));
    if name.is_empty() || !name.split('.').all(segment_ok) || !(name.contains('.') || single_lower) {
        return None;
    }
    // `a.b.Storage` where class `Storage` is in package `a.b`: a qualified class name.
    if let Some((package, class)) = name.rsplit_once('.') {
        let declared = index
            .classes
            .iter()
            .any(|(f, _, n)| *n == class && index.packages[*f] == package);
        if class.starts_with(char::is_uppercase) && declared {
            return None;
        }
    }
    let wanted: Vec<String> = name.split('.').map(str::to_lowercase).collect();
    let mut found: Vec<String> = index
        .packages
        .iter()
        .filter_map(|p| package_named(p, &wanted))
        .collect();
    found.sort();
    found.dedup();
    // Several packages end so (`a.store` and `b.store`): the shortest, then the first.
    found.into_iter().min_by_key(|p| p.len())
}

/// The part of `package` that the segments `wanted` (lower case) name: `wanted` is its end, or
/// a run of its segments from the start or after a dot, as far as it goes.
fn package_named(package: &str, wanted: &[String]) -> Option<String> {
    let segments: Vec<&str> = package.split('.').collect();
    (0..segments.len())
        .find(|&start| {
            segments.len() >= start + wanted.len()
                && segments[start..start + wanted.len()]
                    .iter()
                    .zip(wanted)
                    .all(|(s, w)| s.eq_ignore_ascii_case(w))
        })
        .map(|start| segments[..start + wanted.len()].join("."))
}

/// How a class's package stands to `package`: `Some(0)` it is the package, `Some(n)` n levels
/// below it, `None` elsewhere.
fn within(class_package: &str, package: &str) -> Option<usize> {
    if class_package == package {
        return Some(0);
    }
    let rest = class_package.strip_prefix(package)?.strip_prefix('.')?;
    Some(rest.split('.').count())
}

/// Weight of a class by where it lies against the package the component or the interface names:
/// inside it 1, below it 0.9, elsewhere 0.5 (code moved since the model was made is still found,
/// but a class of that name inside the package wins).
fn package_weight(class_package: &str, package: Option<&str>) -> f64 {
    match package.map(|p| within(class_package, p)) {
        None | Some(Some(0)) => 1.0,
        Some(Some(_)) => 0.9,
        Some(None) => 0.5,
    }
}

/// The classes (not Java interfaces: a class implements one of those, `provided.rs`) named like
/// the interface `interface`, best first: its simple name or a qualified name's class, affixes
/// aside ([`class_score`]), weighed by the package the component is (`package`) or the
/// interface's qualified name gives, which wins.
pub(super) fn classes_named_like_interface<'f>(
    index: &ClassIndex<'f>,
    interface: &str,
    package: Option<&str>,
) -> Vec<ClassFound<'f>> {
    let hint = class_hint(interface);
    let package = hint.package.as_deref().or(package);
    let mut out = Vec::new();
    for &(i, class, name) in &index.classes {
        let score = class_score(name, &hint.class);
        if score <= 0.0 {
            continue;
        }
        let weight = package_weight(&index.packages[i], package);
        let place = match package {
            Some(p) if weight == 1.0 => format!(" in package {p}"),
            Some(p) if weight > 0.5 => format!(" below package {p}"),
            Some(p) => format!(" outside package {p}"),
            None => String::new(),
        };
        out.push(ClassFound {
            file: i,
            class,
            confidence: score * weight,
            reason: format!("class {name}{place} is named like interface {}", interface.trim()),
        });
    }
    out.sort_by(|a, b| b.confidence.total_cmp(&a.confidence));
    out
}

/// Weight of a class found as the only one in the component's package with a method of the
/// operation's name (with a body): the package and the method name agree, but no name ties the
/// class to the interface. At the threshold of use: `benchmarks/linking` measures it.
const ONLY_ONE_IN_PACKAGE: f64 = 0.8;

/// The classes in `package` (and below) with a method named `operation` that has a body; one:
/// [`ONLY_ONE_IN_PACKAGE`], several: that divided by their number (a guess among them).
pub(super) fn classes_in_package_with<'f>(
    index: &ClassIndex<'f>,
    package: &str,
    operation: &str,
) -> Option<ClassFound<'f>> {
    let found: Vec<(usize, Node<'f>, &str)> = index
        .classes
        .iter()
        .copied()
        .filter(|(f, _, _)| within(&index.packages[*f], package).is_some())
        .filter(|(f, class, _)| {
            index.files[*f]
                .1
                .methods(*class)
                .iter()
                .any(|m| m.name == operation && m.node.child_by_field_name("body").is_some())
        })
        .collect();
    let &(file, class, name) = found.first()?;
    let reason = match found.len() {
        1 => format!("class {name} is the only class in package {package} with a method {operation}"),
        n => format!("class {name} is one of {n} classes in package {package} with a method {operation}: a guess"),
    };
    Some(ClassFound {
        file,
        class,
        confidence: ONLY_ONE_IN_PACKAGE / found.len() as f64,
        reason,
    })
}

/// Weight of the class in the component's package with methods (with bodies) for the most of
/// the SEFF's interface's operations, at least three quarters of them: the interface's set of
/// names ties the class to it, more firmly the more names there are. Two operations: as an
/// implemented Java interface does (`provided.rs`'s 0.85); three or more: 0.95, so that a method
/// matched by its name and parameters is used. CoCoME's `StoreIf` (10 operations, 8 of them in
/// `StoreServer`, two dropped from the code since the model was drawn) is `StoreServer`, while
/// the entity `Store` implements the Java `IStore`.
const COVERS_TWO: f64 = 0.85;
const COVERS_MORE: f64 = 0.95;

/// The class in `package` (and below) with methods with a body named like the most of
/// `operations` (case aside), at least two and three quarters of them; several with as many:
/// the weight divided by their number (a guess among them).
pub(super) fn classes_covering<'f>(
    index: &ClassIndex<'f>,
    package: &str,
    interface: &str,
    operations: &[&str],
) -> Option<ClassFound<'f>> {
    let mut wanted: Vec<&str> = operations.iter().copied().filter(|o| !o.is_empty()).collect();
    wanted.sort_unstable();
    wanted.dedup();
    let covered: Vec<(usize, Node<'f>, &str, usize)> = index
        .classes
        .iter()
        .copied()
        .filter(|(f, _, _)| within(&index.packages[*f], package).is_some())
        .map(|(f, class, name)| {
            let methods = index.files[f].1.methods(class);
            let n = (wanted.iter())
                .filter(|op| {
                    methods
                        .iter()
                        .any(|m| m.name.eq_ignore_ascii_case(op) && m.node.child_by_field_name("body").is_some())
                })
                .count();
            (f, class, name, n)
        })
        .collect();
    let most = covered.iter().map(|c| c.3).max()?;
    if most < 2 || most * 4 < wanted.len() * 3 {
        return None;
    }
    let best: Vec<&(usize, Node<'f>, &str, usize)> = covered.iter().filter(|c| c.3 == most).collect();
    let &(file, class, name, _) = best[0];
    let n = wanted.len();
    let interface = interface.trim();
    let share = if most == n {
        format!("each of interface {interface}'s {n} operations")
    } else {
        format!("{most} of interface {interface}'s {n} operations")
    };
    let reason = match best.len() {
        1 => format!("class {name} is the only class in package {package} with a method for {share}"),
        k => format!("class {name} is one of {k} classes in package {package} with a method for {share}: a guess"),
    };
    let weight = if most >= 3 { COVERS_MORE } else { COVERS_TWO };
    Some(ClassFound {
        file,
        class,
        confidence: weight / best.len() as f64,
        reason,
    })
}

/// Whether file `file`'s package is `package` or lies below it.
pub(super) fn file_within(index: &ClassIndex, file: usize, package: &str) -> bool {
    index.packages.get(file).is_some_and(|p| within(p, package).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(package: &str, body: &str) -> (PathBuf, JavaFile) {
        let text = format!("package {package};\n{body}\n");
        (PathBuf::from(format!("{package}.java")), JavaFile::parse(text).unwrap())
    }

    #[test]
    fn a_component_is_a_package_when_the_sources_have_it_or_packages_below_it() {
        let files = [file("org.acme.logic", "class Roster {}")];
        let index = ClassIndex::new(&files);
        let package = |component: &str| component_package(&index, component);
        assert_eq!(package("org.acme.logic").as_deref(), Some("org.acme.logic"));
        assert_eq!(package(" org.acme ").as_deref(), Some("org.acme"));
        assert_eq!(package("org.acme.web"), None, "no such package");
        assert_eq!(package("org.acme.logic.Roster"), None, "a class name");
        assert_eq!(package("Roster"), None);
        assert_eq!(package("org.ac"), None, "a prefix of a segment");
        // The end of a package, in the model's own case.
        assert_eq!(package("Acme.Logic").as_deref(), Some("org.acme.logic"));
        assert_eq!(package("logic").as_deref(), Some("org.acme.logic"));
        assert_eq!(package("Logic"), None, "a class's name");
        assert_eq!(package("acme").as_deref(), Some("org.acme"));
        let both = [
            file("org.acme", "class Logic {}"),
            file("org.acme.logic", "class Roster {}"),
        ];
        assert_eq!(
            component_package(&ClassIndex::new(&both), "org.acme.Logic"),
            None,
            "class Logic in org.acme"
        );
        assert_eq!(
            component_package(&ClassIndex::new(&both), "org.acme.logic").as_deref(),
            Some("org.acme.logic")
        );
    }

    #[test]
    fn the_class_in_the_components_package_wins_over_one_of_that_name_elsewhere() {
        let files = [
            file("org.acme.legacy", "class Roster {}"),
            file("org.acme.logic", "class Roster {}"),
            file("org.acme.logic.impl", "class RosterImpl {}"),
        ];
        let found = classes_named_like_interface(&ClassIndex::new(&files), "Roster", Some("org.acme.logic"));
        let ranked: Vec<(usize, f64)> = found.iter().map(|f| (f.file, f.confidence)).collect();
        assert_eq!(ranked[0], (1, 1.0));
        assert_eq!(ranked[1].0, 2, "below the package, with an affix");
        assert!((ranked[1].1 - 0.81).abs() < 1e-9, "{ranked:?}");
        assert_eq!(ranked[2], (0, 0.5));
        assert_eq!(
            found[0].reason,
            "class Roster in package org.acme.logic is named like interface Roster"
        );
        // A qualified interface name gives the package itself.
        let qualified = classes_named_like_interface(
            &ClassIndex::new(&files),
            "org.acme.legacy.Roster",
            Some("org.acme.logic"),
        );
        assert_eq!((qualified[0].file, qualified[0].confidence), (0, 1.0));
    }
}
