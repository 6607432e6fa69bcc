//! Preparing a measurement: from the elements to measure and their code links to probe sites,
//! an instrumented copy of the source roots (the user's files are never written), the probe
//! runtime and the copy compiled with javac, and the constants in and around each section.

mod plan;
mod shared;

use crate::instrument::{InstrumentError, SiteKind};
use crate::launch::{Classpath, JavaConfig};
use crate::links::{CodeLink, GivenInput};
use crate::params::{java_type_class, match_parameters, MatchedBy, TypeClass};
use crate::probe::ProbeError;
use crate::sections::{Section, SectionTable};
use beagle_analysis::MeasurableElement;
use beagle_measure::FileError;
use beagle_pcm::model::Repository;
use plan::{model_facts, plan, ModelFacts};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Why the sources could not be instrumented and compiled.
#[derive(Debug, thiserror::Error)]
pub enum PrepareError {
    #[error(transparent)]
    Probe(#[from] ProbeError),
    /// A source root or file that cannot be read or decoded.
    #[error(transparent)]
    File(#[from] FileError),
    /// `file`: relative to the workspace.
    #[error("{}: {source}", file.display())]
    Instrument { file: PathBuf, source: InstrumentError },
    /// Writing the instrumented copy.
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    /// A file the links name that is no `.java` file under `roots`.
    #[error("{}: linked in the code links, but not a .java file under the source roots ({})", file.display(), joined(roots))]
    NotASource { file: PathBuf, roots: Vec<PathBuf> },
    /// The user's own sources do not compile: the files javac names (relative to the workspace),
    /// and javac's output.
    #[error("{}", not_compiling(failing, output))]
    SourcesDoNotCompile { failing: Vec<PathBuf>, output: String },
    #[error("the instrumented copy does not compile (a Beagle bug; the sources themselves compile):\n{output}")]
    InstrumentedDoesNotCompile { output: String },
    /// An `[[input]]`'s Java expression does not compile in its service's method.
    #[error("{}:{}: [[input]] `{}.{}` of {}: the Java expression `{}` does not compile in the service's method: {message}", given.file.display(), given.line, given.variable, given.characterisation, given.service, given.java)]
    GivenInputDoesNotCompile { given: Box<GivenInput>, message: String },
}

/// The `[[input]]` whose expression javac's errors are about (javac quotes the line it fails on,
/// which holds the expression as written), with javac's first message.
fn given_that_does_not_compile(table: &SectionTable, javac: &str) -> Option<PrepareError> {
    let lines: Vec<&str> = javac.lines().collect();
    for given in table.given.values().flatten() {
        let quoted = format!("(double) ({})", given.java);
        let Some(at) = lines.iter().position(|l| l.contains(&quoted)) else {
            continue;
        };
        let message = lines[..at]
            .iter()
            .rev()
            .find_map(|l| l.split_once(": error: ").map(|(_, m)| m.trim().to_string()))
            .unwrap_or_else(|| "javac rejects it".to_string());
        return Some(PrepareError::GivenInputDoesNotCompile {
            given: Box::new(given.clone()),
            message,
        });
    }
    None
}

fn joined(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Palladio's CPU resource type: demands on it are measured as thread CPU time.
pub(crate) const CPU: &str = "_oro4gG3fEdy4YaaT-RYrLQ";

/// A compiled, instrumented system, ready to launch.
#[derive(Clone, Debug)]
pub struct Prepared {
    pub table: SectionTable,
    pub classpath: Classpath,
    /// Changes whenever the instrumented code or the probe does (keys stored measurements).
    pub code_key: String,
    /// Element id -> numeric constants in and around its code.
    pub constants: BTreeMap<String, Vec<f64>>,
    /// Elements that have no code to measure (no link), with why.
    pub unlinked: Vec<(String, String)>,
    /// Warnings about the code: files left out because they do not compile.
    pub notes: Vec<String>,
    /// What was decided about the code: parameters matched to the signature (by name, type or position).
    pub infos: Vec<String>,
}

/// Runs javac; its error output (paths as given) when it fails.
fn javac(
    javac: &Path,
    release: Option<u32>,
    out: &Path,
    classpath: &[PathBuf],
    files: &[PathBuf],
) -> Result<(), String> {
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut cmd = Command::new(javac);
    cmd.arg("-nowarn").arg("-encoding").arg("UTF-8").arg("-d").arg(out);
    if let Some(r) = release {
        cmd.arg("--release").arg(r.to_string());
    }
    if !classpath.is_empty() {
        let cp: Vec<String> = classpath.iter().map(|p| p.display().to_string()).collect();
        cmd.arg("-cp").arg(cp.join(":"));
    }
    cmd.args(files);
    let output = cmd
        .output()
        .map_err(|e| format!("cannot run {}: {e}", javac.display()))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&output.stderr).trim_end().to_string())
    }
}

/// Parameter slots of services whose method names its parameters unlike the signature it
/// implements (`upload(byte[][] uploadFiles, int[] compressedIndices)` for `upload(files,
/// alreadyCompressed)`, or the same names in another order): the method's parameters are matched
/// to the signature's by name, then similar name, type and position ([`match_parameters`]), and
/// the slots of matched ones renamed to the signature's names, so that the measurements are
/// inputs of the service. A composite parameter of the model no code parameter stands for is
/// looked for spread over the method's parameters, named and typed like its inner declarations
/// (`download(request: DownloadRequest)` with `Files` and `Size` for `download(List<Long> files,
/// int size, ...)`: `request.Files`, `request.Size`); one a code object stands for has its inner
/// declarations read through that object's fields or getters ([`SectionTable::members`]). A
/// collection matched to a number of the model, or to a parameter its callers pass as a VALUE
/// (`entries: INT` for `List<Entry> currentEntries`), is measured by its size, as the model's
/// `entries.VALUE` ([`SectionTable::sizes_as_value`]); one whose BYTESIZE the callers pass, by
/// the sum over its elements ([`SectionTable::elements_bytesize`]). The slots from `first_slot` on
/// are those this file's instrumentation added (each service's are its parameters in order).
/// Returns what was matched and how, for the user.
fn match_to_signature(
    text: &str,
    services: &[(String, std::ops::Range<usize>)],
    facts: &ModelFacts,
    table: &mut SectionTable,
    first_slot: usize,
) -> Vec<String> {
    let Some(java) = crate::syntax::JavaFile::parse(text.to_string()) else {
        return Vec::new();
    };
    let no_members = BTreeMap::new();
    let no_words = beagle_pcm::vocabulary::Words::new();
    let mut out = Vec::new();
    for (seff, range) in services {
        let Some(model) = facts.parameters_of_seff.get(seff) else {
            continue;
        };
        let Some(node) = java.root().descendant_for_byte_range(range.start, range.end) else {
            continue;
        };
        let Some(method) = crate::syntax::ancestors(node).find(|n| crate::syntax::METHOD_KINDS.contains(&n.kind()))
        else {
            continue;
        };
        let method = java.method(method);
        let code = &method.parameters;
        let model_names: Vec<&String> = model.iter().map(|(n, _)| n).collect();
        if code.is_empty() {
            continue;
        }
        let slots = &table.slots[first_slot..];
        let Some(at) = (0..=slots.len().saturating_sub(code.len())).find(|i| slots[*i..*i + code.len()] == code[..])
        else {
            continue;
        };
        let at = first_slot + at;
        let typed: Vec<(String, TypeClass)> = code
            .iter()
            .zip(&method.parameter_types)
            .map(|(n, t)| (n.clone(), java_type_class(t)))
            .collect();
        let members = facts.members_of_seff.get(seff).unwrap_or(&no_members);
        let words = facts.words_of_seff.get(seff).unwrap_or(&no_words);
        let matched = match_with_members(&typed, model, members);
        let mut said = Vec::new();
        let mut renamed_any = false;
        for (i, name) in code.iter().enumerate() {
            let Some(target) = &matched.targets[i] else {
                said.push(format!("{name}: not in the signature (not an input of the model)"));
                renamed_any = true;
                continue;
            };
            let slot = (at + i) as i32;
            if target.path != *name {
                table.slots[at + i] = target.path.clone();
                renamed_any = true;
            }
            let mut how = String::new();
            if typed[i].1 == TypeClass::Collection {
                let as_value = target.class == TypeClass::Number
                    || beagle_pcm::vocabulary::in_the_models_words(words, &target.path, "NUMBER_OF_ELEMENTS")
                        == Some("VALUE");
                if as_value {
                    table.sizes_as_value.insert(slot);
                    how.push_str(&format!(", its size the model's {}.VALUE", target.path));
                }
                let holds_objects = !crate::params::is_primitive_array(&method.parameter_types[i]);
                if holds_objects && words.get(&target.path).is_some_and(|w| w.contains("BYTESIZE")) {
                    table.elements_bytesize.insert(slot);
                    how.push_str(&format!(", its elements' bytes the model's {}.BYTESIZE", target.path));
                    renamed_any = true;
                }
            }
            if typed[i].1 == TypeClass::Composite {
                if let Some(inner) = members.get(&target.path) {
                    let read: Vec<(String, i32)> = inner
                        .iter()
                        .map(|(member, class)| {
                            let member_slot = table.add_slot(&format!("{}.{member}", target.path));
                            if *class == TypeClass::Number {
                                table.sizes_as_value.insert(member_slot);
                            }
                            (member.clone(), member_slot)
                        })
                        .collect();
                    how.push_str(&format!(
                        ", its {} read through the object's fields or getters",
                        inner
                            .iter()
                            .map(|(m, _)| format!("{}.{m}", target.path))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                    table.members.insert(slot, read);
                    renamed_any = true;
                }
            }
            if target.by == MatchedBy::Name && target.path == *name {
                said.push(format!("{name} by name{how}"));
            } else {
                said.push(format!("{name} as {} ({}{how})", target.path, target.by.describe()));
            }
        }
        let in_the_signatures_order = code.iter().eq(model_names.iter().copied());
        if in_the_signatures_order && !renamed_any && matched.unmatched.is_empty() {
            // The signature's names, in its order: say only what is measured by its size.
            let sizes: Vec<String> = (0..code.len())
                .filter(|i| table.sizes_as_value.contains(&((at + i) as i32)))
                .map(|i| format!("{name}: its size is the model's {name}.VALUE", name = code[i]))
                .collect();
            if !sizes.is_empty() {
                out.push(format!("{seff}: {}", sizes.join("; ")));
            }
            continue;
        }
        let mut line = format!(
            "{seff}: the method's parameters ({}) matched to its signature's ({}): {}",
            code.join(", "),
            model_names.iter().map(|n| n.as_str()).collect::<Vec<_>>().join(", "),
            said.join("; ")
        );
        if !matched.unmatched.is_empty() {
            line.push_str(&format!(
                "; no parameter of the method stands for {} (link or rename it to measure it)",
                matched.unmatched.join(", ")
            ));
        }
        out.push(line);
    }
    out
}

/// What a code parameter stands for: a signature parameter or an inner declaration of one
/// (`request.Files`), of the model's kind, matched `by`.
#[derive(Clone, Debug)]
struct Target {
    path: String,
    class: TypeClass,
    by: MatchedBy,
}

/// Per code parameter its [`Target`]; the model's parameters (or inner declarations) nothing
/// stands for.
struct Matched {
    targets: Vec<Option<Target>>,
    unmatched: Vec<String>,
}

/// [`match_parameters`], then each composite parameter of the model left unmatched looked for
/// among the code parameters left, by its inner declarations (by name, similar name or type;
/// never by position: a spread is no order).
fn match_with_members(
    code: &[(String, TypeClass)],
    model: &[(String, TypeClass)],
    members: &BTreeMap<String, Vec<(String, TypeClass)>>,
) -> Matched {
    let matches = match_parameters(code, model);
    let mut targets: Vec<Option<Target>> = vec![None; code.len()];
    for m in &matches {
        targets[m.code] = Some(Target {
            path: model[m.model].0.clone(),
            class: model[m.model].1,
            by: m.by,
        });
    }
    let mut unmatched = Vec::new();
    for (j, (name, _)) in model.iter().enumerate() {
        if matches.iter().any(|m| m.model == j) {
            continue;
        }
        let Some(inner) = members.get(name) else {
            unmatched.push(name.clone());
            continue;
        };
        let free: Vec<usize> = (0..code.len()).filter(|c| targets[*c].is_none()).collect();
        let free_typed: Vec<(String, TypeClass)> = free.iter().map(|c| code[*c].clone()).collect();
        let found: Vec<_> = match_parameters(&free_typed, inner)
            .into_iter()
            .filter(|m| m.by != MatchedBy::Position)
            .collect();
        if found.is_empty() {
            unmatched.push(name.clone());
            continue;
        }
        for m in &found {
            targets[free[m.code]] = Some(Target {
                path: format!("{name}.{}", inner[m.model].0),
                class: inner[m.model].1,
                by: m.by,
            });
        }
        unmatched.extend(
            inner
                .iter()
                .enumerate()
                .filter(|(k, _)| !found.iter().any(|m| m.model == *k))
                .map(|(_, (member, _))| format!("{name}.{member}")),
        );
    }
    Matched { targets, unmatched }
}

/// Most rounds of leaving out files that do not compile (each may uncover files that used them).
const MAX_LEFT_OUT_ROUNDS: usize = 8;

/// javac's first error message about `file` (`path:line: error: message`), as `line N: message`.
fn first_error(javac_output: &str, file: &Path) -> Option<String> {
    let shown = file.display().to_string();
    javac_output.lines().find_map(|l| {
        let rest = l.strip_prefix(&shown)?.strip_prefix(':')?;
        let (line, message) = rest.split_once(':')?;
        let message = message.trim().strip_prefix("error:")?.trim();
        Some(format!("line {line}: {message}"))
    })
}

/// The user's sources that javac names in its output, relative to the workspace, sorted.
fn failing_sources(config: &JavaConfig, originals: &[PathBuf], javac_output: &str) -> Vec<PathBuf> {
    let mut failing: Vec<PathBuf> = originals
        .iter()
        .filter(|f| {
            let shown = f.display().to_string();
            javac_output
                .lines()
                .any(|l| l.starts_with(&shown) && l[shown.len()..].starts_with(':'))
        })
        .map(|f| f.strip_prefix(&config.root).unwrap_or(f).to_path_buf())
        .collect();
    failing.sort();
    failing.dedup();
    failing
}

/// Why the user's own sources do not compile, with the files javac names and the `exclude`
/// that would leave them out (an old code base often has a class that no longer compiles and
/// that the measured services never use).
fn not_compiling(failing: &[PathBuf], javac_output: &str) -> String {
    let mut out = String::from("the Java sources do not compile");
    if !failing.is_empty() {
        let names: Vec<String> = failing.iter().map(|f| f.display().to_string()).collect();
        let globs: Vec<String> = failing
            .iter()
            .map(|f| format!("\"{}\"", crate::exclude::Exclude::suggest(f)))
            .collect();
        out.push_str(&format!(
            " (errors in {}); if the measured services do not need them, leave them out with `exclude = [{}]` under [java] in beagle.toml",
            names.join(", "),
            globs.join(", ")
        ));
    }
    out.push_str(&format!(":\n{javac_output}"));
    out
}

/// Instruments a copy of the source roots into `work` and compiles it with the probe runtime.
pub fn prepare(
    config: &JavaConfig,
    repositories: &[&Repository],
    elements: &[MeasurableElement],
    services: &BTreeSet<String>,
    links: &[CodeLink],
    inputs: &[GivenInput],
    work: &Path,
) -> Result<Prepared, PrepareError> {
    let facts = model_facts(repositories);
    // Only code that is copied and compiled can be measured: a link into a file that `exclude`
    // leaves out, or that lies outside the source roots, costs only its element.
    let (links, elsewhere): (Vec<CodeLink>, Vec<CodeLink>) = links.iter().cloned().partition(|l| {
        let path = config.root.join(&l.file);
        config.sources.iter().any(|s| path.starts_with(s)) && !config.exclude.excludes(&l.file)
    });
    let not_copied: BTreeMap<String, String> = elsewhere
        .iter()
        .map(|l| {
            let why = if config.exclude.excludes(&l.file) {
                "[java] exclude leaves it out"
            } else {
                "it is not under the source roots"
            };
            (
                l.element.clone(),
                format!("{} is linked to {}, but {why}", l.element, l.file.display()),
            )
        })
        .collect();
    let mut notes = Vec::new();
    let mut plan = plan(elements, services, &links, &facts, &not_copied);
    // What the link file gives as Java expressions, evaluated at its service's entry.
    for given in inputs {
        let section = plan
            .table
            .sections
            .iter()
            .position(|s| matches!(s, Section::Service { service } if *service == given.service));
        match section {
            Some(section) => plan.table.given.entry(section as i32).or_default().push(given.clone()),
            None => notes.push(format!(
                "{}:{}: [[input]] `{}.{}` of {}: not measured: {} is not a linked service in the analysis",
                given.file.display(),
                given.line,
                given.variable,
                given.characterisation,
                given.service,
                given.service
            )),
        }
    }
    let probe_dir = work.join("probe");
    crate::probe::compile_probe(&probe_dir)?;
    let probe_classes = crate::probe::classes_dir(&probe_dir);
    let copy = work.join("src");
    let _ = std::fs::remove_dir_all(&copy);
    let mut hasher = blake3::Hasher::new();
    hasher.update(b"beagle-java-code");
    for (_, src) in crate::PROBE_SOURCES {
        hasher.update(src.as_bytes());
    }
    let mut originals = Vec::new();
    let mut copies = Vec::new();
    let mut infos = Vec::new();
    // Whether each copy must be compiled: it carries probes or a launch's main class (any other
    // file can be left out when it does not compile).
    let mut instrumented = Vec::new();
    let mut constants = BTreeMap::new();
    for (i, root) in config.sources.iter().enumerate() {
        for rel in crate::links::java_files(root)? {
            let original = root.join(&rel);
            if config
                .exclude
                .excludes(original.strip_prefix(&config.root).unwrap_or(&original))
            {
                continue;
            }
            // Old code bases mix encodings (an ISO-8859-1 file among UTF-8 ones): every file is
            // decoded ([`crate::encoding`]) and the copy written as UTF-8, which javac is told.
            // The same characters reach the compiler, whatever each file was saved in.
            let decoded = crate::encoding::read(&original, config.encoding)?;
            if decoded.fell_back {
                infos.push(format!(
                    "{}: not UTF-8, read as windows-1252 (ISO-8859-1); set `[java] encoding` if it is another encoding",
                    original.strip_prefix(&config.root).unwrap_or(&original).display()
                ));
            }
            let text = decoded.text;
            // Links name files relative to the workspace root.
            let key = original.strip_prefix(&config.root).unwrap_or(&original).to_path_buf();
            let sites = plan.sites.remove(&key).unwrap_or_default();
            let slots_before = plan.table.slots.len();
            let out_text = if sites.is_empty() {
                text.clone()
            } else {
                let out = crate::instrument::instrument_report(&text, &sites, &mut plan.table).map_err(|source| {
                    PrepareError::Instrument {
                        file: key.clone(),
                        source,
                    }
                })?;
                // A demand linked to declarations only (`boolean listed;`) has no code that runs.
                for skipped in &out.skipped {
                    match skipped.site.kind {
                        SiteKind::Demand { section, .. } => {
                            if let Some(Section::Demand { action, resource, .. }) = plan.table.section(section) {
                                plan.unlinked
                                    .push((format!("{action}/{resource}"), skipped.reason.clone()));
                            }
                        }
                        // Shared by several components, but nothing tells them apart: the first's.
                        SiteKind::Service { section } => {
                            let first = plan.table.service_of(section).unwrap_or_default().to_string();
                            for other in plan.table.dispatch.others(section) {
                                let service = plan.table.service_of(other).unwrap_or_default().to_string();
                                plan.unlinked
                                    .push((service, format!("{}; measured for {first} only", skipped.reason)));
                            }
                        }
                        _ => {}
                    }
                }
                out.text
            };
            if let Some(services) = plan.services_in.get(&key) {
                let renamed = match_to_signature(&text, services, &facts, &mut plan.table, slots_before);
                infos.extend(renamed.into_iter().map(|m| format!("{}: {m}", key.display())));
            }
            for (element, (file, range)) in &plan.code_of {
                if *file == key {
                    constants.insert(
                        element.clone(),
                        crate::constants::constants_around(&text, range.clone()),
                    );
                }
            }
            let target = copy.join(i.to_string()).join(&rel);
            let io = |path: &Path| {
                let path = path.to_path_buf();
                move |source| PrepareError::Io { path, source }
            };
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent).map_err(io(parent))?;
            }
            std::fs::write(&target, &out_text).map_err(io(&target))?;
            hasher.update(rel.as_os_str().as_encoded_bytes());
            hasher.update(out_text.as_bytes());
            originals.push(original);
            copies.push(target);
            // The launches' main classes are never left out: without them nothing runs.
            let is_main = config.launches.iter().any(|l| match &l.target {
                crate::launch::Target::Main(main) => {
                    let mut path: PathBuf = main.split('.').collect();
                    path.set_extension("java");
                    rel == path
                }
                crate::launch::Target::Command(_) => false,
            });
            instrumented.push(!sites.is_empty() || is_main);
        }
    }
    if let Some((file, _)) = plan.sites.iter().next() {
        return Err(PrepareError::NotASource {
            file: file.clone(),
            roots: config.sources.clone(),
        });
    }
    let classes = work.join("classes");
    let _ = std::fs::remove_dir_all(&classes);
    let mut cp = vec![probe_classes.clone()];
    cp.extend(config.classpath.iter().cloned());
    // Compile what compiles: an old code base often has a class that no longer compiles (a
    // benchmark against a library nobody has) and that the measured services never use. Files
    // without probes that javac names are left out, with a warning, and the rest compiled again;
    // an error in a file with probes is the user's to fix (or ours), and stops here.
    let mut compiled = javac(&config.javac, config.release, &classes, &cp, &copies);
    for _ in 0..MAX_LEFT_OUT_ROUNDS {
        let Err(errors) = &compiled else { break };
        let failing: Vec<usize> = (0..copies.len())
            .filter(|i| first_error(errors, &copies[*i]).is_some())
            .collect();
        if failing.is_empty() || failing.iter().any(|i| instrumented[*i]) {
            break;
        }
        for &i in failing.iter().rev() {
            let shown = originals[i]
                .strip_prefix(&config.root)
                .unwrap_or(&originals[i])
                .to_path_buf();
            let error = first_error(errors, &copies[i]).unwrap_or_default();
            notes.push(format!(
                "{}: left out: it does not compile ({error}) and no measured code is in it; `exclude = [\"{}\"]` under [java] says so for good",
                shown.display(),
                crate::exclude::Exclude::suggest(&shown)
            ));
            originals.remove(i);
            copies.remove(i);
            instrumented.remove(i);
        }
        let _ = std::fs::remove_dir_all(&classes);
        compiled = javac(&config.javac, config.release, &classes, &cp, &copies);
    }
    if let Err(errors) = compiled {
        // The user's own code, or our instrumentation? Compile the originals to tell.
        let check = work.join("classes-original");
        let _ = std::fs::remove_dir_all(&check);
        return Err(
            match javac(&config.javac, config.release, &check, &config.classpath, &originals) {
                Err(own) => PrepareError::SourcesDoNotCompile {
                    failing: failing_sources(config, &originals, &own),
                    output: own,
                },
                Ok(()) => given_that_does_not_compile(&plan.table, &errors)
                    .unwrap_or(PrepareError::InstrumentedDoesNotCompile { output: errors }),
            },
        );
    }
    // The members of composite parameters the probe reads, where it finds them.
    if !plan.table.members.is_empty() {
        let resource = classes.join(crate::sections::MEMBERS_RESOURCE);
        std::fs::write(&resource, plan.table.members_text()).map_err(|source| PrepareError::Io {
            path: resource.clone(),
            source,
        })?;
    }
    // The classes that pick a shared body's section, where the probe finds them.
    if !plan.table.dispatch.tables.is_empty() {
        let resource = classes.join(crate::sections::DISPATCH_RESOURCE);
        std::fs::write(&resource, plan.table.dispatch.resource_text()).map_err(|source| PrepareError::Io {
            path: resource.clone(),
            source,
        })?;
    }
    hasher.update(serde_json::to_string(&plan.table).unwrap_or_default().as_bytes());
    for entry in &config.classpath {
        hasher.update(entry.as_os_str().as_encoded_bytes());
        if let Ok(m) = std::fs::metadata(entry) {
            hasher.update(&m.len().to_le_bytes());
            if let Ok(t) = m
                .modified()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).map_err(std::io::Error::other))
            {
                hasher.update(&t.as_nanos().to_le_bytes());
            }
        }
    }
    let mut entries = vec![classes, probe_classes];
    entries.extend(config.classpath.iter().cloned());
    Ok(Prepared {
        table: plan.table,
        classpath: Classpath { entries },
        code_key: hasher.finalize().to_hex().to_string(),
        constants,
        unlinked: plan.unlinked,
        notes,
        infos,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use TypeClass::*;

    fn p(name: &str, class: TypeClass) -> (String, TypeClass) {
        (name.to_string(), class)
    }

    fn paths(m: &Matched) -> Vec<Option<String>> {
        m.targets.iter().map(|t| t.as_ref().map(|t| t.path.clone())).collect()
    }

    /// Issue 50: `download(request: DownloadRequest)` with `Files: INT`, `Size: INT`, `Login:
    /// STRING` for `download(List<Long> files, int size, String login, boolean local)`. Before,
    /// nothing matched `request` and every measurement of the service was dropped.
    #[test]
    fn a_composite_no_code_parameter_takes_is_found_spread_over_them_by_its_inner_declarations() {
        let code = [
            p("files", Collection),
            p("size", Number),
            p("login", Text),
            p("local", Bool),
        ];
        let model = [p("request", Composite)];
        let members = BTreeMap::from([(
            "request".to_string(),
            vec![p("Files", Number), p("Size", Number), p("Login", Text)],
        )]);
        let m = match_with_members(&code, &model, &members);
        assert_eq!(
            paths(&m),
            [
                Some("request.Files".to_string()),
                Some("request.Size".to_string()),
                Some("request.Login".to_string()),
                None
            ]
        );
        assert!(m.unmatched.is_empty());
        // An inner declaration nothing takes is named, under its composite.
        let code = [p("files", Collection), p("local", Bool)];
        let m = match_with_members(&code, &model, &members);
        assert_eq!(paths(&m), [Some("request.Files".to_string()), None]);
        assert_eq!(m.unmatched, ["request.Size", "request.Login"]);
        // Never by position: a spread has no order to go by.
        let code = [p("a", Text), p("b", Bool)];
        let members = BTreeMap::from([("request".to_string(), vec![p("Login", Text), p("Local", Bool)])]);
        let m = match_with_members(&code, &model, &members);
        assert_eq!(
            m.targets.iter().filter(|t| t.is_some()).count(),
            2,
            "one of a kind each: by type"
        );
        let code = [p("a", Text), p("b", Text)];
        let members = BTreeMap::from([("request".to_string(), vec![p("Login", Text), p("Name", Text)])]);
        let m = match_with_members(&code, &model, &members);
        assert!(m.targets.iter().all(Option::is_none), "{:?}", paths(&m));
    }

    /// A code object of the composite's own name keeps it whole (its members are read through its
    /// getters, `SectionTable::members`), and is not spread.
    #[test]
    fn a_composite_a_code_parameter_takes_is_not_spread() {
        let code = [p("request", Composite)];
        let model = [p("request", Composite)];
        let members = BTreeMap::from([("request".to_string(), vec![p("Parts", Number)])]);
        let m = match_with_members(&code, &model, &members);
        assert_eq!(paths(&m), [Some("request".to_string())]);
        assert!(m.unmatched.is_empty());
    }
}
