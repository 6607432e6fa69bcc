//! What a job reports: per element its expression and quality, and diagnostics that
//! name the file, the line and the element. `--json` has the shape the issue fixes:
//! `{"results": [{"element", "kind", "resource", "expression", "r2", "relative_error", "samples",
//! "status", "reasons", "evidence"}], "diagnostics": [{"severity", "file", "line", "element",
//! "message"}], "inputs": {"files": [...], "unmeasured": [...]}}` (`reasons` and `evidence`:
//! why a result is preliminary, and the points, held-out error, band and intervals behind it;
//! `inputs`: what each measurement file gave and the elements nothing measured). A resource
//! demand's `expression` is in milliseconds, as measured; where the model has processing rates,
//! `work_units` has the law `--write` writes and the rate that converts it.

use beagle_analysis::model::{action_of, resource_name};
use beagle_analysis::{Blackboard, DemandUnit, DemandUnits, ElementKind, FinalExpression, MeasurableElement, Status};
use beagle_pcm::{ModelFile, Severity};
use serde::Serialize;
use std::path::Path;

#[derive(Clone, Debug, Serialize)]
pub struct ResultRow {
    pub element: String,
    pub kind: &'static str,
    pub resource: Option<String>,
    pub expression: String,
    pub r2: Option<f64>,
    pub relative_error: Option<f64>,
    pub samples: usize,
    pub status: &'static str,
    /// Why the result is preliminary (too few points, noise, no better than a constant, ...).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
    /// What the measurements support: distinct points, held-out error, band, intervals of the
    /// constants, equivalent inputs (`beagle_analysis::ProposalEvidence`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<beagle_analysis::ProposalEvidence>,
    /// A resource demand in the work units of its resource type (what `--write` writes), where
    /// the model's processing rates convert it; `expression` stays in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub work_units: Option<WorkUnits>,
    /// The action's name in the model (for people; `element` is the id).
    #[serde(skip)]
    pub name: String,
    #[serde(skip)]
    pub cached: bool,
}

/// A demand's law converted into work units (`beagle_analysis::Conversion`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct WorkUnits {
    /// The law in work units of the row's resource type.
    pub expression: String,
    /// The container whose rate converts (the one measured on).
    pub container: String,
    /// Its processing rate: work units per `time_unit`.
    pub rate: f64,
    /// The simulation time unit of the rate: `"s"` or `"ms"`.
    pub time_unit: &'static str,
    /// Work units per measured millisecond.
    pub per_ms: f64,
}

impl WorkUnits {
    pub fn of(ms_law: &str, c: &beagle_analysis::Conversion) -> WorkUnits {
        WorkUnits {
            expression: c.to_units(ms_law),
            container: c.container.clone(),
            rate: c.rate,
            time_unit: c.time_unit.as_str(),
            per_ms: c.per_ms,
        }
    }

    /// `7.5E7 CPU units on AppServer at 1E9/s`.
    pub fn describe(&self, resource: &str) -> String {
        format!(
            "{} {resource} units on {} at {}/{}",
            self.expression,
            self.container,
            beagle_analysis::units::short_number(self.rate),
            self.time_unit
        )
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Diagnostic {
    /// `"error"`, `"warning"` or `"info"` in JSON.
    pub severity: Severity,
    pub file: Option<String>,
    pub line: Option<u32>,
    pub element: Option<String>,
    pub message: String,
}

impl Diagnostic {
    /// A note about the job as a whole (no file).
    pub fn info(element: Option<String>, message: String) -> Diagnostic {
        Diagnostic {
            severity: Severity::Info,
            file: None,
            line: None,
            element,
            message,
        }
    }

    /// A warning about the job as a whole (no file).
    pub fn warning(element: Option<String>, message: String) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::info(element, message)
        }
    }
}

#[derive(Clone, Debug, Serialize, Default)]
pub struct Report {
    pub results: Vec<ResultRow>,
    pub diagnostics: Vec<Diagnostic>,
    /// What the measurements were made of (`--json`: `"inputs": {"files": [...], "unmeasured":
    /// [...]}`; left out when nothing was read from files and every element was measured).
    #[serde(skip_serializing_if = "InputsReport::is_empty")]
    pub inputs: InputsReport,
}

/// Per input file what it gave, and the model's elements that no measurement reached.
#[derive(Clone, Debug, Serialize, Default, PartialEq)]
pub struct InputsReport {
    pub files: Vec<beagle_analysis::InputFile>,
    /// Elements of the analysed scope without a single observation.
    pub unmeasured: Vec<Unmeasured>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Unmeasured {
    pub element: String,
    /// The action's name in the model.
    pub name: String,
    pub file: String,
    pub line: Option<u32>,
}

impl InputsReport {
    pub fn is_empty(&self) -> bool {
        self.files.is_empty() && self.unmeasured.is_empty()
    }

    /// Lines for people: one per file (every file with something not used, and the others up
    /// to `most` lines in all, the rest summed in one line), then the unmeasured elements.
    pub fn describe(&self, most: usize) -> Vec<String> {
        let mut lines = Vec::new();
        let problems = self.files.iter().filter(|f| f.has_problems()).count();
        let mut room = most.saturating_sub(problems);
        let (mut rest, mut records, mut executions) = (0, 0, 0);
        for f in &self.files {
            if f.has_problems() {
                lines.push(f.describe());
            } else if room > 0 {
                room -= 1;
                lines.push(f.describe());
            } else {
                rest += 1;
                records += f.records;
                executions += f.executions;
            }
        }
        if rest > 0 {
            lines.push(format!(
                "{rest} more files: {records} records, {executions} executions, nothing skipped"
            ));
        }
        for u in &self.unmeasured {
            lines.push(format!(
                "{}:{}: {} ({}): no measurements",
                u.file,
                u.line.unwrap_or(0),
                u.name,
                u.element
            ));
        }
        lines
    }
}

fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

/// The line of the element's action in `file`.
pub fn line_of(file: &ModelFile, action_id: &str) -> Option<u32> {
    let node = file.node_by_id(action_id)?;
    Some(file.line_col(file.tree.element(node).span().start as usize).line)
}

pub fn row(
    file: &ModelFile,
    element: &MeasurableElement,
    fe: &FinalExpression,
    cached: bool,
    units: &DemandUnits,
) -> ResultRow {
    let p = &fe.proposal;
    let action = action_of(&element.kind);
    let name = file
        .repository
        .as_ref()
        .and_then(|r| r.action(action))
        .and_then(|a| a.name.clone())
        .unwrap_or_default();
    let (resource, name) = match &element.kind {
        ElementKind::ResourceDemand { resource, .. } => (Some(resource_name(resource).to_string()), name),
        ElementKind::Branch { transition, .. } => {
            let t = transition_name(file, action, transition).unwrap_or_else(|| transition.clone());
            (None, format!("{name} -> {t}"))
        }
        ElementKind::CallParameter { parameter, .. } => (None, format!("{name}: {parameter}")),
        ElementKind::Loop { .. } => (None, name),
    };
    let work_units = match (&element.kind, &file.repository) {
        (ElementKind::ResourceDemand { action, resource }, Some(repo)) => match units.of_action(repo, action, resource)
        {
            DemandUnit::WorkUnits(c) => Some(WorkUnits::of(&p.stoex, &c)),
            _ => None,
        },
        _ => None,
    };
    ResultRow {
        element: element.id.clone(),
        kind: element.kind.name(),
        resource,
        expression: p.stoex.clone(),
        r2: finite(p.r2),
        relative_error: finite(p.relative_error),
        samples: p.samples,
        status: match fe.status {
            Status::Final => "final",
            Status::Preliminary => "preliminary",
        },
        reasons: fe.reasons.clone(),
        evidence: p.evidence.clone(),
        work_units,
        name,
        cached,
    }
}

fn transition_name(file: &ModelFile, branch: &str, transition: &str) -> Option<String> {
    let a = file.repository.as_ref()?.action(branch)?;
    match &a.body {
        beagle_pcm::model::ActionBody::Branch { transitions } => transitions
            .iter()
            .find(|t| t.id.as_deref() == Some(transition))
            .and_then(|t| t.name.clone()),
        _ => None,
    }
}

/// A blackboard diagnostic (`<element id>: message`) placed at its element's line.
pub fn from_blackboard(file: &ModelFile, path: &Path, bb: &Blackboard, message: &str) -> Diagnostic {
    let id = message.split_once(": ").map(|(id, _)| id);
    let element = id.and_then(|id| bb.element(id));
    // A parameter the signature lacks, dropped: an info. Where the cost follows it, the element's
    // laws say so themselves (preliminary, `undeclared`); otherwise there is nothing to do.
    let severity = if message.ends_with(beagle_analysis::blackboard::NOT_AN_INPUT) {
        Severity::Info
    } else {
        Severity::Warning
    };
    Diagnostic {
        severity,
        file: Some(path.display().to_string()),
        // An element's action, else what the message names (a SEFF).
        line: element
            .and_then(|e| line_of(file, action_of(&e.kind)))
            .or_else(|| id.and_then(|id| line_of(file, id))),
        element: element.map(|e| e.id.clone()),
        message: message.to_string(),
    }
}
