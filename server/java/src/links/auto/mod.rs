//! Automatic links in the spirit of SoMoX: for SEFF elements nobody linked, guess the code from
//! names and structure. Component -> class (simple name, case-insensitive, also with an `Impl` or
//! `Component` suffix; SoMoX's `<PC No. n pkg.File.java.Class>` and qualified names give the
//! package too, [`class_hint`]; none of its name: a class implementing the Java counterpart of
//! one of its provided interfaces, [`provided`]), signature -> method (name and parameter count,
//! parameter names to break ties; none of its name: one under a similar name, scored by its
//! parameters' names and kinds and by the interface that declares it, [`similar`]), then the
//! SEFF's actions in execution order -> statements ([`behaviour`]).
//!
//! Every link carries a confidence in [0, 1] and a reason a person can check; callers use only
//! confident links and show the rest as proposals.

mod behaviour;
mod by_interface;
mod inherit;
mod named;
mod provided;
mod similar;
mod template;

use super::{CodeLink, LinkOrigin, Sources};
use crate::params::{composite_members, java_type_is, pcm_type_class, pcm_type_name};
use crate::syntax::{JavaFile, Method};
use beagle_pcm::model::{Component, ComponentKind, Interface, Repository, Seff, Signature};
use inherit::{Resolved, Types};
pub use named::{class_hint, ClassHint};
use named::{named_class, no_class, ClassFound};
use similar::Wanted;
use std::cell::OnceCell;
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
    let code = Code {
        files: &files,
        types: Types::new(&files),
        classes: by_interface::ClassIndex::new(&files),
        implementations: OnceCell::new(),
    };
    let mut out = Vec::new();
    let mut misses = Vec::new();
    for repo in repositories {
        for component in repo.components.iter().filter(|c| c.kind == ComponentKind::Basic) {
            link_component(&model, component, &code, &mut out, &mut misses);
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

    /// The interface that declares the signature `id`.
    fn interface_of(&self, signature: &str) -> Option<&'a Interface> {
        self.repositories
            .iter()
            .flat_map(|r| r.signatures())
            .find(|(_, s)| s.id.as_deref() == Some(signature))
            .map(|(i, _)| i)
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

/// What a link search shares across components: the sources, their types, and (built when a
/// component first needs it) the classes with the interfaces they implement.
struct Code<'f> {
    files: &'f [(PathBuf, JavaFile)],
    types: Types<'f>,
    classes: by_interface::ClassIndex<'f>,
    implementations: OnceCell<Vec<provided::Implementation<'f>>>,
}

impl<'f> Code<'f> {
    fn implementations(&self) -> &[provided::Implementation<'f>] {
        self.implementations
            .get_or_init(|| provided::implementations(&self.types, self.files.len()))
    }
}

/// Finds each SEFF's class and links the SEFF. In order:
/// - a component named like a package (extraction tools make one per package): the class in it
///   named like the SEFF's interface ([`by_interface`]), else one implementing the interface's
///   Java counterpart;
/// - the class named like the component ([`named_class`]), unless it lacks a method of the
///   signature's name and a class named like the interface has one;
/// - a class named like the interface;
/// - a class that implements the Java counterpart of one of its interfaces (one model component
///   may stand for an endpoint class and a synchronizer class, each implementing one interface).
fn link_component(
    model: &Model,
    component: &Component,
    code: &Code,
    out: &mut Vec<CodeLink>,
    misses: &mut Vec<(String, String)>,
) {
    let Some(raw_name) = component.name.as_deref() else {
        return;
    };
    let hint = class_hint(raw_name);
    let shown = raw_name.trim();
    let package = by_interface::component_package(&code.classes, raw_name);
    // A package's last segment may be a class too (`org.acme.logic` and `Logic`): not the one.
    let named = match package {
        Some(_) => None,
        None => named_class(code.files, &hint, shown),
    };
    let provided: Vec<&Interface> = component
        .provided_roles
        .iter()
        .filter_map(|r| r.interface.as_ref()?.target.id())
        .filter_map(|id| model.interface(id))
        .collect();
    for seff in &component.seffs {
        let Some(seff_id) = &seff.id else { continue };
        let signature = seff
            .described_service
            .as_ref()
            .and_then(|r| r.target.id())
            .and_then(|id| model.signature(id));
        let own = signature
            .and_then(|s| s.id.as_deref())
            .and_then(|id| model.interface_of(id));
        let operation = signature.and_then(|s| s.name.as_deref()).unwrap_or_default();
        let component_is = package.as_deref();
        let by_name = || {
            let interface = own.and_then(|i| i.name.as_deref())?;
            let package = package.as_deref().or(hint.package.as_deref());
            let ranked = by_interface::classes_named_like_interface(&code.classes, interface, package);
            let mut found = with_the_method(code, &ranked, operation)?;
            if let Some(p) = component_is {
                found.reason = format!("component {shown} is package {p}; {}", found.reason);
            }
            Some(found)
        };
        let chosen = match &named {
            Some(class) if method_named(code, class, operation) == Some(true) => Some(class.clone()),
            Some(class) => by_name().or_else(|| Some(class.clone())),
            None => by_name(),
        };
        // A component named like a package holds that package's classes: one outside it named
        // like the interface yields to one inside with the interface's operations.
        let chosen = match (chosen, component_is) {
            (Some(outside), Some(p)) if !by_interface::file_within(&code.classes, outside.file, p) => {
                covering_class(code, shown, p, own).or(Some(outside))
            }
            (chosen, _) => chosen,
        };
        let found = match chosen {
            Some(found) => found,
            None => match class_by_the_interface(code, raw_name, package.as_deref(), own, &provided, operation) {
                Some(found) => found,
                None => {
                    misses.push((
                        seff_id.clone(),
                        no_class(&hint, own.and_then(|i| i.name.as_deref()), package.as_deref()),
                    ));
                    continue;
                }
            },
        };
        let Some(signature) = signature else { continue };
        if let Err(why) = link_seff(model, component, code, seff, signature, &found, out) {
            misses.push((seff_id.clone(), why));
        }
    }
}

/// The class of a component where no class is named like it or its interface (`package`: the
/// package the component is named like), by what the code says of the SEFF's interface `own`, in
/// order:
/// - the one class in the component's package (or module) with a method for each of `own`'s
///   operations ([`by_interface::classes_covering`]);
/// - a class implementing the Java counterpart of `own`, else of another of the component's
///   interfaces ([`provided::implementing_class`]), inside the package when the component is
///   one, and with a method of the operation's name;
/// - the one class in the package (or module) with a method of the operation's name
///   ([`by_interface::classes_in_package_with`]);
/// - the implementing class without such a method (its link then says the method is missing).
fn class_by_the_interface<'f>(
    code: &Code<'f>,
    raw_name: &str,
    package: Option<&str>,
    own: Option<&Interface>,
    provided: &[&Interface],
    operation: &str,
) -> Option<ClassFound<'f>> {
    let shown = raw_name.trim();
    let module = package
        .map(str::to_string)
        .or_else(|| by_interface::module_package(&code.classes, raw_name));
    let no_name = match package {
        Some(p) => format!("component {shown} is package {p}, no class in it is named like the interface"),
        None => format!("no class is named like component {shown}"),
    };
    let covering = module.as_deref().and_then(|p| covering_class(code, shown, p, own));
    let others: Vec<&Interface> = provided
        .iter()
        .copied()
        .filter(|i| own.is_none_or(|o| !std::ptr::eq(*i, o)))
        .collect();
    let admits = |file: usize| package.is_none_or(|p| by_interface::file_within(&code.classes, file, p));
    let implementer = provided::implementing_class(code.implementations(), own, &others, admits).map(|f| {
        let class_name = code.files[f.file].1.name_of(f.class).unwrap_or_default();
        ClassFound {
            file: f.file,
            class: f.class,
            confidence: f.confidence,
            reason: format!("{no_name}; class {class_name} {}", f.reason),
        }
    });
    let in_package = || {
        let p = module.as_deref()?;
        by_interface::classes_in_package_with(&code.classes, p, operation)
    };
    let with_reason = |mut found: ClassFound<'f>| {
        found.reason = format!(
            "no class is named like component {shown} or its interface; {}",
            found.reason
        );
        found
    };
    covering
        .or_else(|| {
            implementer
                .clone()
                .filter(|c| method_named(code, c, operation).is_some())
        })
        .or_else(|| in_package().map(with_reason))
        .or(implementer)
}

/// The class in `package` with methods for the most of `own`'s operations
/// ([`by_interface::classes_covering`]), its reason saying no class is named like the component
/// `shown` or its interface there.
fn covering_class<'f>(code: &Code<'f>, shown: &str, package: &str, own: Option<&Interface>) -> Option<ClassFound<'f>> {
    let interface = own?;
    let operations: Vec<&str> = interface.signatures.iter().filter_map(|s| s.name.as_deref()).collect();
    let name = interface.name.as_deref().unwrap_or_default();
    let mut found = by_interface::classes_covering(&code.classes, package, name, &operations)?;
    found.reason = format!(
        "no class in package {package} is named like component {shown} or its interface; {}",
        found.reason
    );
    Some(found)
}

/// Whether the class (or a class it inherits from) has a method named `name`, case aside:
/// `Some(true)` one with a body, `Some(false)` only an abstract declaration (which runs nothing),
/// `None` none.
fn method_named(code: &Code, class: &ClassFound, name: &str) -> Option<bool> {
    if name.is_empty() {
        return None;
    }
    let methods = inherit::resolvable_methods(&code.types, class.file, class.class);
    let named: Vec<bool> = methods
        .iter()
        .filter(|r| r.method.name.eq_ignore_ascii_case(name))
        .map(|r| r.method.node.child_by_field_name("body").is_some())
        .collect();
    named.iter().copied().reduce(|a, b| a || b)
}

/// The best-ranked of `ranked` that has a method named `operation` with a body, else one that
/// declares it abstract (the link then says so); several of that rank: the first by path, its
/// confidence divided by their number (as for classes of one name).
fn with_the_method<'f>(code: &Code<'f>, ranked: &[ClassFound<'f>], operation: &str) -> Option<ClassFound<'f>> {
    let kinds: Vec<(Option<bool>, &ClassFound)> =
        ranked.iter().map(|c| (method_named(code, c, operation), c)).collect();
    let having_with = |body: bool| -> Vec<&ClassFound> {
        kinds
            .iter()
            .filter(|(k, _)| *k == Some(body))
            .map(|(_, c)| *c)
            .collect()
    };
    let mut having = having_with(true);
    if having.is_empty() {
        having = having_with(false);
    }
    let best = having.first()?;
    let tied = having.iter().filter(|c| c.confidence == best.confidence).count();
    let mut found = (*best).clone();
    if tied > 1 {
        found.confidence /= tied as f64;
        found
            .reason
            .push_str(&format!(" (one of {tied} such classes with a method {operation})"));
    }
    Some(found)
}

/// Links one SEFF (and its actions) into the component's class `found`; `Err`: why not.
fn link_seff(
    model: &Model,
    component: &Component,
    code: &Code,
    seff: &Seff,
    signature: &Signature,
    found: &ClassFound,
    out: &mut Vec<CodeLink>,
) -> Result<(), String> {
    let Some(seff_id) = &seff.id else { return Ok(()) };
    let own = signature.id.as_deref().and_then(|id| model.interface_of(id));
    let files = code.files;
    let class_name = files[found.file].1.name_of(found.class).unwrap_or_default();
    // Who runs the code for this component: an inherited body runs for other classes too.
    let receiver = files[found.file].1.binary_name(found.class);
    // Its own methods and those it inherits (a template method in an abstract base runs for it).
    let resolved = inherit::resolvable_methods(&code.types, found.file, found.class);
    let methods: Vec<Method> = resolved.iter().map(|r| r.method.clone()).collect();
    let wanted = Wanted {
        name: signature.name.as_deref().unwrap_or_default(),
        parameters: signature
            .parameters
            .iter()
            .map(|p| {
                let kind = pcm_type_class(model.repositories, p.data_type.as_ref());
                (p.name.clone().unwrap_or_default(), kind)
            })
            .collect(),
        type_names: signature
            .parameters
            .iter()
            .map(|p| pcm_type_name(model.repositories, p.data_type.as_ref()))
            .collect(),
        members: signature
            .parameters
            .iter()
            .map(|p| {
                composite_members(model.repositories, p.data_type.as_ref())
                    .into_iter()
                    .map(|(name, _)| name)
                    .collect()
            })
            .collect(),
    };
    // The Java interfaces that stand for the signature's: a method one declares implements it.
    let counterparts = own.map_or_else(Vec::new, |i| {
        provided::counterparts(&code.types, found.file, found.class, i)
    });
    let declared_by = |m: &Method| counterparts.iter().find(|c| c.declares(m)).map(|c| c.describe());
    let Some((picked, method_confidence, mut method_reason)) = pick_method(&methods, &wanted, &declared_by) else {
        return Err(format!(
            "class {class_name} has no method {}",
            signature.name.as_deref().unwrap_or("of the signature's name")
        ));
    };
    let Some(at) = methods.iter().position(|m| std::ptr::eq(m, picked)) else {
        return Ok(());
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
    // An abstract operation (Issue 49): its declaration has no body to measure; what runs is the
    // bodies of the classes implementing it, whose components' SEFFs are linked to them.
    if method.node.child_by_field_name("body").is_none() {
        let declaring_name = java.name_of(*declaring).unwrap_or_default();
        let implementing: Vec<String> = inherit::concrete_subtypes(&code.types, declaring_name)
            .into_iter()
            .filter_map(|(f, c)| code.files[f].1.name_of(c).map(str::to_string))
            .collect();
        let shown = if implementing.is_empty() {
            "no class under the source roots implements it".to_string()
        } else {
            format!(
                "it runs in {}, whose SEFFs are linked to their own bodies",
                implementing.join(", ")
            )
        };
        return Err(format!(
            "operation {} is abstract in {class_name} (a declaration without a body, nothing to measure): {shown}",
            method.name
        ));
    }
    let mut confidence = found.confidence * method_confidence;
    let mut reason = format!("{}; {method_reason}", found.reason);
    // An inherited template that hands steps to the component's own overrides, and a SEFF that
    // does not say which of the two it follows: both candidates, neither used.
    let mut steps = Vec::new();
    let mut step_links = Vec::new();
    if let (Some(template), true) = (inherited_from, template::describes_no_flow(seff)) {
        if let Some(body) = method.node.child_by_field_name("body") {
            steps = template::overridden_steps(body, java, &resolved, at);
        }
        if !steps.is_empty() {
            let names: Vec<String> = steps
                .iter()
                .map(|&i| match &resolved[i].inherited_from {
                    Some(from) => format!("{} (from {from})", resolved[i].method.name),
                    None => resolved[i].method.name.clone(),
                })
                .collect();
            confidence *= template::TEMPLATE_OR_STEP;
            reason.push_str(&format!(
                "; it calls {}, overridden for {class_name}: a SEFF of internal actions only may describe that step instead (link the one it describes)",
                names.join(", ")
            ));
        }
        for &i in &steps {
            let step = &resolved[i];
            step_links.push(CodeLink {
                element: seff_id.clone(),
                name: signature.name.clone(),
                file: files[step.file].0.clone(),
                range: step.method.range.clone(),
                origin: LinkOrigin::Automatic {
                    confidence: found.confidence * template::STEP_CANDIDATE,
                    reason: format!(
                        "{}; {}.{} is the step that {}, inherited from {template}, calls for {class_name} (a SEFF of internal actions only may describe the step or the template)",
                        found.reason,
                        step.inherited_from.as_deref().unwrap_or(class_name),
                        step.method.name,
                        method.name
                    ),
                },
                receiver: receiver.clone(),
            });
        }
    }
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
    out.append(&mut step_links);
    let Some(body) = method.node.child_by_field_name("body") else {
        return Ok(());
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
        receiver,
        links: Vec::new(),
    };
    matcher.behaviour(&seff.behaviour, body);
    out.extend(matcher.links);
    Ok(())
}

/// What the reason of a transition's link says when nothing in the transitions told the code's
/// arms apart: matched by order, a guess the job warns about.
pub const ARMS_BY_ORDER: &str = "no call in the transitions tells the arms apart: a guess";

/// The method implementing a signature: same name, same number of parameters; among several,
/// the one with the most parameter names in common. None of its name: one under a similar name
/// ([`similar::similar_method`]), scored by its parameters and interface.
fn pick_method<'m, 't>(
    methods: &'m [Method<'t>],
    wanted: &Wanted,
    declared_by: &dyn Fn(&Method) -> Option<String>,
) -> Option<(&'m Method<'t>, f64, String)> {
    let name = wanted.name;
    if name.is_empty() {
        return None;
    }
    let params: Vec<&str> = wanted.parameters.iter().map(|(n, _)| n.as_str()).collect();
    let same_name: Vec<&Method> = methods.iter().filter(|m| m.name == name).collect();
    let folded: Vec<&Method> = methods.iter().filter(|m| m.name.eq_ignore_ascii_case(name)).collect();
    let (pool, mut confidence) = match (same_name.is_empty(), folded.is_empty()) {
        (false, _) => (same_name, 1.0),
        (true, false) => (folded, 0.8),
        (true, true) => return similar::similar_method(methods, wanted, declared_by),
    };
    // A trailing varargs parameter may be missing from the signature (`log(message, Object...
    // args)` for `log(message)`).
    let arity_fits = |m: &Method| {
        m.parameters.len() == params.len()
            || (m.parameters.len() == params.len() + 1
                && m.parameter_types.last().is_some_and(|t| t.trim_end().ends_with("...")))
    };
    let same_count: Vec<&Method> = pool.iter().copied().filter(|m| arity_fits(m)).collect();
    // A signature parameter the method takes: by name, or by the model's composite type
    // (CoCoME's `markProductsUnavailableInStock(requiredProductsAndAmount: ProductMovementTO)` is
    // `(long storeID, ProductMovementTO movedProducts)`); primitives are never matched by type.
    let by_type = |m: &Method, i: usize| {
        let model = wanted.type_names.get(i).and_then(|t| t.as_deref());
        model.and_then(|t| m.parameter_types.iter().position(|j| java_type_is(j, t)))
    };
    // A composite parameter spread over the method's: most of its inner declarations taken by
    // name (`download(request: DownloadRequest)` with `Files`, `Size`, `Login` is `download(List<Long>
    // files, int size, String login, boolean local)`): the code parameters that take them.
    let spread = |m: &Method, i: usize| -> Vec<usize> {
        let inner = wanted.members.get(i).map(Vec::as_slice).unwrap_or_default();
        let taking: Vec<usize> = (0..m.parameters.len())
            .filter(|j| inner.iter().any(|d| crate::params::similar(&m.parameters[*j], d)))
            .collect();
        let taken = inner
            .iter()
            .filter(|d| m.parameters.iter().any(|q| crate::params::similar(q, d)))
            .count();
        if !inner.is_empty() && 2 * taken > inner.len() {
            taking
        } else {
            Vec::new()
        }
    };
    let takes = |m: &Method, i: usize, p: &str| {
        m.parameters.iter().any(|q| crate::params::similar(q, p)) || by_type(m, i).is_some() || !spread(m, i).is_empty()
    };
    // None with the signature's count: one that takes every parameter of the signature, and more
    // (an id or a setting the model leaves out), is that operation; else a guess.
    let carries_all =
        |m: &&Method| m.parameters.len() > params.len() && params.iter().enumerate().all(|(i, p)| takes(m, i, p));
    // The other way round: the one method of the name, whose every parameter the signature has
    // by name, and the signature more (a parameter the code dropped since the model was drawn:
    // CoCoME's `queryStoreById(storeId, pctx)` is `queryStoreById(long storeId)`). A method
    // without parameters says nothing of them: not so.
    let carried_by = |m: &&Method| {
        !m.parameters.is_empty()
            && m.parameters.len() < params.len()
            && m.parameters
                .iter()
                .all(|q| params.iter().any(|p| crate::params::similar(q, p)))
    };
    let mut extra = None;
    let pool = if !same_count.is_empty() {
        same_count
    } else if let (1, Some(m)) = (pool.len(), pool.first().filter(|m| carried_by(m))) {
        confidence *= 0.9;
        let dropped: Vec<&str> = (params.iter().copied())
            .filter(|p| !m.parameters.iter().any(|q| crate::params::similar(q, p)))
            .collect();
        extra = Some(format!(
            ", every parameter of the method by name; the signature's {} not in the code",
            match dropped.as_slice() {
                [one] => format!("{one} is"),
                more => format!("{} are", more.join(", ")),
            }
        ));
        pool
    } else if let Some(m) = pool.iter().copied().find(carries_all) {
        let by_name = |i: usize| m.parameters.iter().any(|q| crate::params::similar(q, params[i]));
        let typed: Vec<usize> = (0..params.len())
            .filter(|i| !by_name(*i))
            .filter_map(|i| by_type(m, i))
            .collect();
        let spreads: Vec<(usize, Vec<usize>)> = (0..params.len())
            .filter(|i| !by_name(*i) && by_type(m, *i).is_none())
            .map(|i| (i, spread(m, i)))
            .filter(|(_, taking)| !taking.is_empty())
            .collect();
        let more: Vec<usize> = (0..m.parameters.len())
            .filter(|j| {
                !params.iter().any(|p| crate::params::similar(&m.parameters[*j], p))
                    && !typed.contains(j)
                    && !spreads.iter().any(|(_, taking)| taking.contains(j))
            })
            .collect();
        let names = |of: &[usize]| {
            of.iter()
                .map(|j| m.parameters[*j].as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut how = match typed.as_slice() {
            [] => "by name".to_string(),
            _ => format!("by name or by its type ({} by type)", names(&typed)),
        };
        for (i, taking) in &spreads {
            how.push_str(&format!(
                " ({} spread over {}, named like its inner declarations)",
                params[*i],
                names(taking)
            ));
        }
        // What a web container passes (the request, the response) is no input the model left
        // out: the method is the operation as surely as one of the signature's own parameters.
        let container = !more.is_empty()
            && more.iter().all(|j| {
                m.parameter_types
                    .get(*j)
                    .is_some_and(|t| crate::params::container_supplied(t))
            });
        extra = Some(if params.is_empty() {
            // Nothing to carry: the method's parameters are all the model leaves out.
            confidence *= 0.9;
            format!(
                ", a signature without parameters for a method with {} ({})",
                m.parameters.len(),
                names(&more)
            )
        } else if container {
            format!(
                ", every parameter of the signature {how}, and what the web container passes ({})",
                names(&more)
            )
        } else {
            confidence *= 0.9;
            format!(
                ", every parameter of the signature {how} and {} more ({})",
                more.len(),
                names(&more)
            )
        });
        pool.iter().copied().filter(carries_all).collect()
    } else {
        confidence *= 0.5;
        pool
    };
    let common = |m: &Method| m.parameters.iter().filter(|p| params.contains(&p.as_str())).count();
    let best = pool.iter().map(|m| common(m)).max()?;
    let mut tied: Vec<&Method> = pool.iter().copied().filter(|m| common(m) == best).collect();
    // Overloads of one arity and the same parameter names (`update(UpdateByEmail request)`,
    // `update(UpdateById request)`): the parameters' types against the model's type names.
    let mut by_types = false;
    if tied.len() > 1 {
        let fit = |m: &Method| {
            m.parameter_types
                .iter()
                .zip(&wanted.type_names)
                .filter(|(java, model)| model.as_deref().is_some_and(|t| java_type_is(java, t)))
                .count()
        };
        let most = tied.iter().map(|m| fit(m)).max().unwrap_or(0);
        let fitting: Vec<&Method> = tied.iter().copied().filter(|m| fit(m) == most).collect();
        if most > 0 && fitting.len() < tied.len() {
            by_types = fitting.len() == 1;
            tied = fitting;
        }
    }
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
    } else if by_types {
        reason.push_str(" (by parameter types, among overloads)");
    } else if pool.len() > 1 {
        reason.push_str(" (by parameter names, among overloads)");
    }
    Some((method, confidence, reason))
}
