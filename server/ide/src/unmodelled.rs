//! A SEFF's unmodelled time (`beagle_analysis::unmodelled`: the measured total less the model's
//! prediction of its parts) as the editor's views show it: the results view has a row per SEFF
//! of the element asked for, the diagrams a badge on the SEFF. Found at the last validation
//! stored for the SEFF; the texts are the ones the CLI and the hover use, so a negative share
//! reads as the model predicting more than measured everywhere.

use crate::results::ResultStatus;
use beagle_analysis::validation::ServiceValidation;
use beagle_pcm::ModelFile;
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct UnmodelledTime {
    pub seff: String,
    /// `Component.operation`.
    pub service: String,
    /// Median over the validation's points of (measured − predicted) / measured: negative where
    /// the model predicts more than measured.
    pub share: f64,
    pub points: usize,
    /// Per call, over the service's inputs (StoEx, ms).
    pub law: String,
    pub status: ResultStatus,
    /// Why the law is preliminary (empty when final).
    pub reasons: Vec<String>,
    /// Whether the model predicts more than measured (a negative share, once rounded).
    pub overpredicted: bool,
    /// `unmodelled 23 %`, or `the model predicts 6 % more than measured`.
    pub label: String,
    /// The whole line, with the law and its status (a tooltip's text).
    pub detail: String,
}

/// The unmodelled time found at a SEFF's validation; `None` where none was found (too few
/// points, or a prediction that left something out).
pub fn unmodelled_time(v: &ServiceValidation) -> Option<UnmodelledTime> {
    let u = v.unmodelled.as_ref()?;
    // The fitting's status text: `final`, or `preliminary: reason; reason`.
    let (status, reasons) = match u.status.strip_prefix("preliminary") {
        Some(rest) => {
            let rest = rest.trim_start_matches(':').trim();
            let reasons = rest.split("; ").filter(|r| !r.is_empty()).map(String::from).collect();
            (ResultStatus::Preliminary, reasons)
        }
        None => (ResultStatus::Final, Vec::new()),
    };
    Some(UnmodelledTime {
        seff: v.seff.clone(),
        service: v.service.clone(),
        share: u.median_share,
        points: u.points,
        law: u.stoex.clone(),
        status,
        reasons,
        overpredicted: u.overpredicted(),
        label: u.label(),
        detail: u.describe(),
    })
}

/// The unmodelled time of every SEFF inside element `id` that has one: the SEFF itself, a
/// component's SEFFs, or the repository's, in the file's order. Empty for an action (its view
/// is about the action) and an unknown id.
pub fn unmodelled_within(
    file: &ModelFile,
    validations: &BTreeMap<String, ServiceValidation>,
    id: &str,
) -> Vec<UnmodelledTime> {
    let Some(repository) = &file.repository else {
        return Vec::new();
    };
    let whole = repository.id.as_deref() == Some(id);
    repository
        .components
        .iter()
        .flat_map(|c| {
            let component = whole || c.id.as_deref() == Some(id);
            c.seffs.iter().filter(move |s| component || s.id.as_deref() == Some(id))
        })
        .filter_map(|s| validations.get(s.id.as_deref()?))
        .filter_map(unmodelled_time)
        .collect()
}

impl UnmodelledTime {
    /// The law's value at `inputs` (ms per call); `None` where an input it names is missing.
    pub fn at(&self, inputs: &BTreeMap<String, f64>) -> Option<f64> {
        let law = beagle_stoex::parse(&self.law).ok()?;
        let env = |name: &str| inputs.get(name).copied();
        beagle_stoex::eval_number(&law, &env).ok().filter(|v| v.is_finite())
    }
}
