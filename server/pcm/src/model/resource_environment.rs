//! The typed view of a `.resourceenvironment` file: its resource containers and their processing
//! resources, with each processing rate evaluated. PCM's convention: a resource demand is in work
//! units of its resource type, a rate is work units per simulation time unit, and the simulators
//! take `demand / rate` as the time; so a rate must be a positive number.

use super::href::{reference_id, root_named};
use crate::file::ModelFile;
use crate::span::Span;
use crate::xml::NodeId;
use beagle_stoex::{eval_number, lookup_function, Expr, ExprKind, FunctionKind};

/// Palladio's resource types (`Palladio.resourcetype`, bundled): id and name, so that a message
/// can say "HDD" rather than `_BIjHoQ3KEdyouMqirZIhzQ`.
pub const RESOURCE_TYPES: [(&str, &str); 4] = [
    ("_oro4gG3fEdy4YaaT-RYrLQ", "CPU"),
    ("_BIjHoQ3KEdyouMqirZIhzQ", "HDD"),
    ("_nvHX4KkREdyEA_b89s7q9w", "DELAY"),
    ("_o3sScH2AEdyH8uerKnHYug", "LAN"),
];

/// The name of one of Palladio's resource types, by id.
pub fn resource_type_name(id: &str) -> Option<&'static str> {
    RESOURCE_TYPES.iter().find(|(i, _)| *i == id).map(|(_, n)| *n)
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResourceEnvironment {
    pub node: NodeId,
    pub name: Option<String>,
    /// Every container, nested ones included (after their parent), in document order.
    pub containers: Vec<ResourceContainer>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ResourceContainer {
    pub node: NodeId,
    pub id: Option<String>,
    pub name: Option<String>,
    /// The container's start tag, for diagnostics and navigation.
    pub span: Span,
    /// The id of the container it is nested in, if any.
    pub parent: Option<String>,
    pub resources: Vec<ProcessingResource>,
}

/// A `ProcessingResourceSpecification` (or its HDD subtype): one resource type of a container.
#[derive(Clone, Debug, PartialEq)]
pub struct ProcessingResource {
    pub node: NodeId,
    pub id: Option<String>,
    /// The resource type's id (`_oro4gG3fEdy4YaaT-RYrLQ` for CPU).
    pub resource_type: Option<String>,
    pub scheduling: Option<SchedulingPolicy>,
    /// `numberOfReplicas` (1 when not written, EMF's default); `Err` holds a value that is not a
    /// positive integer, as written.
    pub replicas: Result<u32, String>,
    /// Work units per simulation time unit.
    pub rate: Result<Rate, RateError>,
    /// The rate's attribute value, or the element's start tag when it has none.
    pub rate_span: Span,
}

impl ProcessingResource {
    /// The resource type's name where Beagle knows it, else its id.
    pub fn type_label(&self) -> String {
        let id = self.resource_type.as_deref().unwrap_or("?");
        resource_type_name(id).map_or_else(|| id.to_string(), str::to_string)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Rate {
    pub value: f64,
    /// The StoEx as written (unescaped).
    pub text: String,
    /// Set when the rate is random: the simulators draw it, Beagle converts with its mean.
    pub note: Option<String>,
}

/// Why a processing rate is not a positive number.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RateError {
    #[error("no processing rate")]
    Missing,
    /// The StoEx does not parse (reported where it is wrong by the `stoex-syntax` diagnostic).
    #[error("processing rate `{text}` does not parse: {message}")]
    Syntax { text: String, message: String },
    #[error("processing rate `{text}` is not a number: {message}")]
    NotANumber { text: String, message: String },
    #[error("processing rate `{text}` is {value}, not a positive number")]
    NotPositive { text: String, value: f64 },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SchedulingPolicy {
    ProcessorSharing,
    Fcfs,
    Delay,
    /// Any other policy, by its id (a custom scheduler's).
    Other(String),
}

impl SchedulingPolicy {
    /// From the id in `Palladio.resourcetype` or PCM 3's enumeration literal.
    pub fn from_id(id: &str) -> SchedulingPolicy {
        match id {
            "ProcessorSharing" | "PROCESSOR_SHARING" => SchedulingPolicy::ProcessorSharing,
            "FCFS" => SchedulingPolicy::Fcfs,
            "Delay" | "DELAY" => SchedulingPolicy::Delay,
            other => SchedulingPolicy::Other(other.to_string()),
        }
    }
}

/// The resource environment of a `.resourceenvironment` file (`None` when it holds none).
/// Never fails on a bad item: a bad rate is an `Err` in its resource, the rest is read.
pub fn resource_environment(file: &ModelFile) -> Option<ResourceEnvironment> {
    let tree = &file.tree;
    let root = root_named(tree, "ResourceEnvironment")?;
    let mut out = ResourceEnvironment {
        node: root,
        name: tree.value(root, "entityName").map(|v| v.to_string()),
        containers: Vec::new(),
    };
    for n in tree.children_named(root, "resourceContainer_ResourceEnvironment") {
        containers(file, n, None, &mut out.containers);
    }
    Some(out)
}

fn containers(file: &ModelFile, n: NodeId, parent: Option<String>, out: &mut Vec<ResourceContainer>) {
    let tree = &file.tree;
    let id = tree.value(n, "id").map(|v| v.to_string());
    out.push(ResourceContainer {
        node: n,
        id: id.clone(),
        name: tree.value(n, "entityName").map(|v| v.to_string()),
        span: tree.element(n).start_tag,
        parent,
        resources: (tree.children_named(n, "activeResourceSpecifications_ResourceContainer"))
            .map(|r| processing_resource(file, r))
            .collect(),
    });
    // Nested containers are deployment targets too (PCM 5's `nestedResourceContainers`).
    for c in tree.children_named(n, "nestedResourceContainers__ResourceContainer") {
        containers(file, c, id.clone(), out);
    }
}

fn processing_resource(file: &ModelFile, n: NodeId) -> ProcessingResource {
    let tree = &file.tree;
    // PCM 5 points at a policy in `Palladio.resourcetype`; PCM 3 wrote an enumeration literal.
    let scheduling = (reference_id(tree, n, "schedulingPolicy"))
        .or_else(|| tree.value(n, "schedulingPolicy").map(|v| v.to_string()))
        .map(|id| SchedulingPolicy::from_id(&id));
    let replicas = match tree.value(n, "numberOfReplicas") {
        None => Ok(1),
        Some(v) => v
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|&r| r > 0)
            .ok_or_else(|| v.to_string()),
    };
    let rate_node = tree.child_named(n, "processingRate_ProcessingResourceSpecification");
    let spec = rate_node
        .and_then(|r| file.index.spec_of(r))
        .map(|i| &file.specifications[i]);
    ProcessingResource {
        node: n,
        id: tree.value(n, "id").map(|v| v.to_string()),
        resource_type: reference_id(tree, n, "activeResourceType_ActiveResourceSpecification"),
        scheduling,
        replicas,
        rate: spec.map_or(Err(RateError::Missing), |s| rate(&s.text, &s.expr)),
        rate_span: spec.map_or(tree.element(n).start_tag, |s| s.value),
    }
}

/// A rate's value: a number, or a random rate's mean (the evaluator's expectation), with a note.
pub fn rate(text: &str, expr: &Result<Expr, crate::SpecError>) -> Result<Rate, RateError> {
    let text = text.to_string();
    let expr = match expr {
        Ok(e) => e,
        Err(e) => {
            return Err(RateError::Syntax {
                text,
                message: e.message.clone(),
            })
        }
    };
    let value = eval_number(expr, &|_| None).map_err(|e| RateError::NotANumber {
        text: text.clone(),
        message: e.message,
    })?;
    if value <= 0.0 {
        return Err(RateError::NotPositive { text, value });
    }
    let note = is_random(expr).then(|| format!("`{text}` is random: its mean, {value}, is used"));
    Ok(Rate { value, text, note })
}

/// Whether the expression draws from a distribution anywhere.
fn is_random(expr: &Expr) -> bool {
    let mut random = false;
    expr.walk(&mut |e| match &e.kind {
        ExprKind::ProbFunction(_) => random = true,
        ExprKind::FunctionCall { name, .. } => {
            random |= lookup_function(name).is_some_and(|f| f.kind == FunctionKind::Distribution);
        }
        _ => {}
    });
    random
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn read(rel: &str) -> ModelFile {
        ModelFile::read(
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../fixtures/pcm")
                .join(rel),
        )
        .unwrap()
    }

    fn rate_of(text: &str) -> Result<Rate, RateError> {
        rate(
            text,
            &beagle_stoex::parse(text).map_err(|e| crate::SpecError {
                span: Span::default(),
                message: e.message,
            }),
        )
    }

    #[test]
    fn the_mediastore_rates_are_evaluated_from_their_products() {
        let env = resource_environment(&read("mediastore/MediaStore.resourceenvironment")).unwrap();
        let names: Vec<_> = env.containers.iter().map(|c| c.name.as_deref().unwrap()).collect();
        assert_eq!(names, ["ApplicationServer", "DatabaseServer"]);
        let db = &env.containers[1];
        assert_eq!(db.id.as_deref(), Some("_dH4W0Lg3EeSNPorBlo7x9g"));
        let labels: Vec<_> = db.resources.iter().map(ProcessingResource::type_label).collect();
        assert_eq!(labels, ["CPU", "HDD"]);
        let cpu = &db.resources[0];
        assert_eq!(cpu.rate.as_ref().unwrap().value, 1e9);
        assert_eq!(cpu.rate.as_ref().unwrap().note, None);
        assert_eq!(cpu.scheduling, Some(SchedulingPolicy::ProcessorSharing));
        assert_eq!(cpu.replicas, Ok(1));
        let hdd = &db.resources[1];
        assert_eq!(hdd.rate.as_ref().unwrap().value, 6e8);
        assert_eq!(hdd.scheduling, Some(SchedulingPolicy::Fcfs));
        assert_eq!(env.containers[0].resources[1].rate.as_ref().unwrap().value, 5e7);
        assert_eq!(
            &read("mediastore/MediaStore.resourceenvironment").text()[hdd.rate_span.range()],
            "600 * 1000 * 1000"
        );
    }

    #[test]
    fn the_minimum_example_has_one_cpu_with_a_fractional_rate() {
        let env = resource_environment(&read("minimum-example/My.resourceenvironment")).unwrap();
        assert_eq!(env.containers.len(), 1);
        let c = &env.containers[0];
        assert_eq!(
            (c.id.as_deref(), c.name.as_deref()),
            (Some("_B0aZ0CHdEd6lJo4DCALHMw"), Some("appserver"))
        );
        assert_eq!(c.resources[0].resource_type.as_deref(), Some("_oro4gG3fEdy4YaaT-RYrLQ"));
        assert_eq!(c.resources[0].rate.as_ref().unwrap().value, 1.0810638521955225);
    }

    #[test]
    fn a_random_rate_is_its_mean_with_a_note_and_a_bad_one_says_why() {
        let r = rate_of("Exp(0.001)").unwrap();
        assert!((r.value - 1000.0).abs() < 1e-9, "{r:?}");
        assert!(r.note.unwrap().contains("mean"));
        assert_eq!(rate_of("DoublePMF[(10; 0.5)(30; 0.5)]").unwrap().value, 20.0);
        assert!(matches!(rate_of("cpu.VALUE"), Err(RateError::NotANumber { .. })));
        assert!(matches!(rate_of("\"fast\""), Err(RateError::NotANumber { .. })));
        assert!(matches!(rate_of("0"), Err(RateError::NotPositive { value, .. }) if value == 0.0));
        assert!(matches!(rate_of("-2 * 1000"), Err(RateError::NotPositive { .. })));
        assert!(matches!(rate_of("1000 *"), Err(RateError::Syntax { .. })));
    }

    #[test]
    fn the_names_match_the_bundled_resource_types() {
        let text = crate::workspace::bundled("Palladio.resourcetype").unwrap();
        for (id, name) in RESOURCE_TYPES {
            assert!(
                text.contains(&format!("id=\"{id}\" entityName=\"{name}\"")),
                "{id} {name}"
            );
        }
        assert_eq!(SchedulingPolicy::from_id("Delay"), SchedulingPolicy::Delay);
    }
}
