//! The units of a repository's demands in the language server (`beagle_job::writing::units`): what
//! "apply results" and the unmodelled-time code action write, and what hovers show beside the
//! time, the results view and the diagram beside a law (a note: the law in work units and on
//! which container). Read from the workspace's allocation and resource environment each time it is
//! asked, so that an edited deployment counts at once.

use crate::protocol::graph_shapes::{GraphFlow, SeffGraph};
use crate::protocol::shapes::ElementResults;
use beagle_analysis::{DemandUnit, DemandUnits};
use beagle_job::JobError;
use beagle_pcm::ModelFile;
use std::path::Path;

/// The units of `file`'s demands in the workspace around `path` (`root`: the workspace folder;
/// without one, the repository's own folder). `Err`: why no demand can be converted
/// (`[model] measured_on` names no container); a workspace that does not resolve converts nothing.
pub fn demand_units(path: &Path, root: Option<&Path>, file: &ModelFile) -> Result<DemandUnits, JobError> {
    let ws = match beagle_job::workspace::folder_above(path, root) {
        Some(dir) => beagle_job::resolve(&dir).ok(),
        None => beagle_job::resolve(path).ok(),
    };
    match ws {
        Some(ws) => beagle_job::writing::units::demand_units(&ws, file),
        None => Ok(DemandUnits::milliseconds()),
    }
}

/// The note beside a demand's result (its law in ms) in the results view and the diagram: the law
/// in work units and on which container, or why it is not written; `None` without rates.
pub fn note(units: &DemandUnits, model: &ModelFile, action: &str, resource: &str, ms_law: &str) -> Option<String> {
    let repo = model.repository.as_ref()?;
    match units.of_action(repo, action, resource) {
        DemandUnit::Milliseconds => None,
        DemandUnit::WorkUnits(c) => Some(format!(
            "in work units: {} {} units {}",
            c.to_units(ms_law),
            c.resource,
            c.on()
        )),
        DemandUnit::Unconvertible(why) => Some(format!("not written into the model: {why}")),
    }
}

/// `beagle.elementResults`' demands with their notes.
pub fn annotate_results(results: &mut ElementResults, model: &ModelFile, units: &DemandUnits) {
    for r in &mut results.results {
        let resource = (r.element.strip_prefix(r.action.as_str()))
            .and_then(|rest| rest.strip_prefix('/'))
            .filter(|_| r.what.ends_with(" demand"));
        if let Some(resource) = resource {
            r.work_units = note(units, model, &r.action, resource, &r.expression);
        }
    }
}

/// `beagle.seffGraph`'s demands with their notes (a result's `what` names its resource type:
/// `CPU demand`).
pub fn annotate_graph(graph: &mut SeffGraph, model: &ModelFile, units: &DemandUnits) {
    fn walk(flow: &mut GraphFlow, model: &ModelFile, units: &DemandUnits) {
        for node in &mut flow.nodes {
            if let Some(action) = node.id.clone() {
                for r in &mut node.results {
                    if let Some(name) = r.what.strip_suffix(" demand") {
                        let resource = beagle_pcm::edit::resource_type_id(name);
                        r.work_units = note(units, model, &action, resource, &r.expression);
                    }
                }
            }
            for body in &mut node.bodies {
                walk(&mut body.flow, model, units);
            }
        }
    }
    walk(&mut graph.flow, model, units);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::shapes::{FitStatus, FittedResult};

    /// MediaStore as it is (no `beagle.toml`: the repository's folder is its workspace): the
    /// results view's note says what FileStorage's "store file" (on the DatabaseServer) is written
    /// as; a loop count gets none.
    #[test]
    fn a_demands_result_says_what_it_is_written_as() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/pcm/mediastore/MediaStore.repository");
        let model = ModelFile::read(&path).unwrap();
        let units = demand_units(&path, None, &model).unwrap();
        let result = |element: &str, action: &str, what: &str| FittedResult {
            element: element.into(),
            action: action.into(),
            action_name: None,
            what: what.into(),
            expression: "75".into(),
            guard: None,
            status: FitStatus::Final,
            r2: None,
            relative_error: None,
            samples: 1,
            parameter_ranges: Vec::new(),
            points: Vec::new(),
            reasons: Vec::new(),
            evidence: None,
            work_units: None,
        };
        let mut results = ElementResults {
            repository: String::new(),
            stage: None,
            headline: None,
            name: None,
            results: vec![
                result(
                    "_RXdHoL0XEeSAHuL4ItXOLQ/_oro4gG3fEdy4YaaT-RYrLQ",
                    "_RXdHoL0XEeSAHuL4ItXOLQ",
                    "CPU demand",
                ),
                result("_JGRMMGrVEeajAsHLADMRRw", "_JGRMMGrVEeajAsHLADMRRw", "loop iterations"),
            ],
            unmodelled: Vec::new(),
        };
        annotate_results(&mut results, &model, &units);
        assert_eq!(
            results.results[0].work_units.as_deref(),
            Some("in work units: 75000000.0 CPU units on DatabaseServer at 1E9/s")
        );
        assert_eq!(results.results[1].work_units, None);
        // Without rates, nothing to add.
        annotate_results(&mut results, &model, &DemandUnits::milliseconds());
        assert_eq!(results.results[0].work_units, None);
    }
}
