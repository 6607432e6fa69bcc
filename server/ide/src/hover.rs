//! Hovers: what the model says about the element under the cursor and, for actions, what the
//! analysis found (expression, quality, statistics per parameter point), as markdown. A demand
//! shows its time beside its work units where the workspace has processing rates
//! ([`DemandUnits`]): the model's value in work units with its time, Beagle's law in time (ms)
//! with the work units it is written in.

use crate::navigate::{element_at, ElementAtKind};
use crate::results::{ElementResult, PointRow, ResultStatus};
use crate::text::{entity_name, format_number, spec_text, target_name, type_name};
use crate::typed::{component_actions, execution_order, typed_nodes, Typed};
use beagle_analysis::model::resource_name;
use beagle_analysis::predict::Predictor;
use beagle_analysis::units::short_number;
use beagle_analysis::validation::ServiceValidation;
use beagle_analysis::{DemandUnit, DemandUnits};
use beagle_pcm::model::system::Assembly;
use beagle_pcm::model::{Action, ActionBody, ActionKind, Behaviour, Component, Seff, TransitionKind, VariableUsage};
use beagle_pcm::{ModelFile, Span};
use std::collections::BTreeMap;
use std::fmt::Write;

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct HoverText {
    pub markdown: String,
    /// The start tag of the element the hover is about.
    pub span: Span,
}

/// Most parameter points a hover's table shows (evenly picked, first and last included).
const MAX_POINT_ROWS: usize = 12;

/// The hover for the element under `offset`; `None` outside the root element. `results` may hold
/// results for any action: those of the hovered one are picked by [`ElementResult::action`].
pub fn hover(file: &ModelFile, offset: usize, results: &[ElementResult]) -> Option<HoverText> {
    hover_with(file, offset, results, &BTreeMap::new(), None, None, None)
}

/// [`hover`], with the latest validation of each service (SEFF id -> validation): a SEFF's hover
/// then says how well the model predicts it; and with the units of the repository's demands
/// (`None`: not known, shown as written).
pub fn hover_with(
    file: &ModelFile,
    offset: usize,
    results: &[ElementResult],
    validations: &BTreeMap<String, ServiceValidation>,
    system: Option<&Assembly>,
    units: Option<&DemandUnits>,
    rates: Option<&beagle_analysis::predict::rates::Rates>,
) -> Option<HoverText> {
    let at = element_at(file, offset)?;
    let typed = file
        .repository
        .as_ref()
        .map(|r| typed_nodes(r, &file.tree, at.node))
        .unwrap_or_default();
    let markdown = match typed.get(&at.node) {
        Some(Typed::Component(c)) => component(file, c, results),
        Some(Typed::Seff(c, s)) => {
            let mut text = seff(file, c, s);
            if let Some(id) = &s.id {
                prediction(file, id, system, rates, &mut text);
            }
            if let Some(v) = s.id.as_ref().and_then(|id| validations.get(id)) {
                validation(v, &mut text);
            }
            text
        }
        Some(Typed::Action(c, a)) => {
            let unit = |resource: &str| match (units, c.id.as_deref()) {
                (Some(u), Some(c)) => Some(u.of(c, resource)),
                _ => None,
            };
            action(file, a, results, &unit)
        }
        None if at.kind == ElementAtKind::Repository => repository(file),
        None => other(file, at.node),
    };
    Some(HoverText {
        markdown,
        span: file.tree.element(at.node).start_tag,
    })
}

/// Inline code that survives backticks in the text.
fn code(s: &str) -> String {
    if s.contains('`') {
        format!("`` {s} ``")
    } else {
        format!("`{s}`")
    }
}

fn title(name: Option<&str>, kind: &str) -> String {
    format!("**{}** · {kind}", name.unwrap_or("(unnamed)"))
}

fn repository(file: &ModelFile) -> String {
    let Some(repo) = &file.repository else {
        return String::new();
    };
    format!(
        "{}\n\n{} components, {} interfaces, {} data types",
        title(repo.name.as_deref(), "Repository"),
        repo.components.len(),
        repo.interfaces.len(),
        repo.data_types.len()
    )
}

fn other(file: &ModelFile, node: beagle_pcm::NodeId) -> String {
    let tree = &file.tree;
    let signature = file
        .repository
        .iter()
        .flat_map(|r| r.signatures())
        .find(|(_, s)| s.node == node);
    // Signatures have no `xsi:type`: their tag (`signatures__OperationInterface`) says nothing.
    let kind = if signature.is_some() {
        "Signature"
    } else {
        type_name(tree, node)
    };
    let mut out = title(entity_name(tree, node).as_deref(), kind);
    if let Some((interface, s)) = signature {
        let parameters: Vec<&str> = s.parameters.iter().map(|p| p.name.as_deref().unwrap_or("?")).collect();
        let _ = write!(
            out,
            "\n\n{}.{}({})",
            interface.name.as_deref().unwrap_or("?"),
            s.name.as_deref().unwrap_or("?"),
            parameters.join(", ")
        );
    }
    if let Some(id) = tree.raw_value(node, "id") {
        let _ = write!(out, "\n\nid {}", code(id));
    }
    out
}

fn component(file: &ModelFile, c: &Component, results: &[ElementResult]) -> String {
    let mut out = title(c.name.as_deref(), type_name(&file.tree, c.node));
    out.push('\n');
    for (label, roles) in [("Provides", &c.provided_roles), ("Requires", &c.required_roles)] {
        if roles.is_empty() {
            continue;
        }
        let listed: Vec<String> = roles
            .iter()
            .map(|r| {
                let interface = r.interface.as_ref().map_or("?".into(), |i| target_name(file, i));
                format!("{} ({})", code(&interface), r.name.as_deref().unwrap_or("unnamed role"))
            })
            .collect();
        let _ = write!(out, "\n{label}: {}  ", listed.join(", "));
    }
    let _ = write!(out, "\nSEFFs: {}\n\n", c.seffs.len());
    let measurable: Vec<&str> = component_actions(c)
        .filter(|a| beagle_analysis::model::is_measured_kind(a.kind))
        .filter_map(|a| a.id.as_deref())
        .collect();
    let mine: Vec<&ElementResult> = results
        .iter()
        .filter(|r| measurable.contains(&r.action.as_str()))
        .collect();
    if mine.is_empty() {
        out.push_str("Not analysed yet");
    } else {
        let mut analysed: Vec<&str> = mine.iter().map(|r| r.action.as_str()).collect();
        analysed.sort_unstable();
        analysed.dedup();
        let finals = mine.iter().filter(|r| r.status == ResultStatus::Final).count();
        let _ = write!(
            out,
            "Results: {} expressions for {} of {} actions ({finals} final, {} preliminary)",
            mine.len(),
            analysed.len(),
            measurable.len(),
            mine.len() - finals
        );
    }
    out
}

fn seff(file: &ModelFile, c: &Component, s: &Seff) -> String {
    let signature = s
        .described_service
        .as_ref()
        .map_or("?".into(), |r| target_name(file, r));
    let mut out = format!(
        "**SEFF** of {} in {}\n\n",
        code(&signature),
        code(c.name.as_deref().unwrap_or("?"))
    );
    outline(file, &s.behaviour, 0, &mut out);
    out.truncate(out.trim_end().len());
    out
}

/// Problems of a composed prediction a hover names; the rest are counted.
const MAX_PREDICTION_PROBLEMS: usize = 3;

/// The service's expected demand as a function of its inputs, composed from the SEFFs it calls
/// (bound through `system` when given).
fn prediction(
    file: &ModelFile,
    seff: &str,
    system: Option<&Assembly>,
    rates: Option<&beagle_analysis::predict::rates::Rates>,
    out: &mut String,
) {
    let Some(p) = Predictor::bound(file, system, rates) else {
        return;
    };
    let composed = p.compose(seff);
    if composed.demands.is_empty() && composed.problems.is_empty() {
        return;
    }
    let bound = match system.and_then(|a| a.name.as_deref()) {
        Some(name) => format!("calls bound by the system {}", code(name)),
        None => "calls bound in the repository".into(),
    };
    let _ = write!(out, "\n\n**Predicted demand** per execution, in ms ({bound}):\n");
    for (resource, e) in composed.printed() {
        let _ = write!(out, "\n- {}: {}", resource_name(&resource), code(&e));
    }
    if !composed.problems.is_empty() {
        let named: Vec<String> = composed
            .problems
            .iter()
            .take(MAX_PREDICTION_PROBLEMS)
            .map(|p| format!("{}: {}", code(&p.element), p.message))
            .collect();
        let more = composed.problems.len().saturating_sub(MAX_PREDICTION_PROBLEMS);
        let _ = write!(
            out,
            "\n\nLeft out of the prediction: {}{}",
            named.join("; "),
            if more > 0 {
                format!("; {more} more")
            } else {
                String::new()
            }
        );
    }
}

/// Most rows of a validation's table in a hover.
const MAX_VALIDATION_ROWS: usize = 8;

/// How well the model predicted the service, at the last validation: the errors and a table
/// of predicted beside measured total demand.
fn validation(v: &ServiceValidation, out: &mut String) {
    let _ = write!(
        out,
        "\n\n**Predicted vs measured** (last validation, {} fresh points): median error {:.1} %, worst {:.1} %\n\n",
        v.points,
        100.0 * v.median_relative_error,
        100.0 * v.max_relative_error
    );
    let names: Vec<&String> = v.rows.first().map(|r| r.inputs.keys().collect()).unwrap_or_default();
    let header: Vec<String> = names.iter().map(|n| code(n)).collect();
    let _ = writeln!(out, "| {} | predicted ms | measured ms | error |", header.join(" | "));
    let _ = writeln!(out, "|{}---|---|---|", "---|".repeat(names.len()));
    for i in pick_evenly(v.rows.len(), MAX_VALIDATION_ROWS) {
        let r = &v.rows[i];
        let cells: Vec<String> = names
            .iter()
            .map(|n| r.inputs.get(*n).map_or("-".into(), |x| format_number(*x)))
            .collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {:.1} % |",
            cells.join(" | "),
            format_number(r.predicted_ms),
            format_number(r.measured_ms),
            100.0 * r.relative_error()
        );
    }
    if !v.problems.is_empty() {
        let _ = write!(out, "\nNot predicted: {}", v.problems.join("; "));
    }
    if let Some(u) = &v.unmodelled {
        // A negative share is the model predicting more than measured, and says so.
        let _ = write!(
            out,
            "\n\n**Unmodelled time** (no action carries it): {} (median of {} points); {} `{}` ms ({})",
            u.share_text(),
            u.points,
            u.law_name(),
            u.stoex,
            u.status
        );
    }
    for note in &v.notes {
        let _ = write!(out, "\n\nNote: {note}");
    }
    out.truncate(out.trim_end().len());
}

/// A behaviour's actions in execution order as a nested list (start and stop left out).
fn outline(file: &ModelFile, b: &Behaviour, depth: usize, out: &mut String) {
    let indent = "  ".repeat(depth);
    for a in execution_order(b) {
        if matches!(a.kind, ActionKind::StartAction | ActionKind::StopAction) {
            continue;
        }
        let name = a.name.as_deref().unwrap_or(a.kind.as_str());
        let _ = writeln!(
            out,
            "{indent}- {} ({}){}",
            code(name),
            a.kind.as_str(),
            summary(file, a)
        );
        match &a.body {
            ActionBody::Branch { transitions } => {
                for t in transitions {
                    let name = t.name.as_deref().unwrap_or("transition");
                    let _ = writeln!(
                        out,
                        "{indent}  - {}: {}",
                        code(name),
                        transition_condition(file, &t.kind)
                    );
                    if let Some(b) = &t.behaviour {
                        outline(file, b, depth + 2, out);
                    }
                }
            }
            body => {
                for b in body.behaviours() {
                    outline(file, b, depth + 1, out);
                }
            }
        }
    }
}

/// The action's specifications in one line, after a colon (empty when it has none).
fn summary(file: &ModelFile, a: &Action) -> String {
    let text = match &a.body {
        ActionBody::Loop { iteration_count, .. } => format!("iterations {}", code(&spec_text(file, *iteration_count))),
        ActionBody::ExternalCall {
            called_service: Some(r),
            ..
        } => format!("calls {}", code(&target_name(file, r))),
        _ if !a.resource_demands.is_empty() => a
            .resource_demands
            .iter()
            .map(|d| format!("{} {}", resource_of(d), code(&spec_text(file, d.specification))))
            .collect::<Vec<_>>()
            .join(", "),
        _ => return String::new(),
    };
    format!(": {text}")
}

fn resource_of(d: &beagle_pcm::model::ResourceDemand) -> &str {
    d.resource_type
        .as_ref()
        .map_or("?", |r| resource_name(r.target.fragment()))
}

fn transition_condition(file: &ModelFile, kind: &TransitionKind) -> String {
    match kind {
        TransitionKind::Probabilistic { probability: Some(p) } => format!("probability {}", format_number(*p)),
        TransitionKind::Probabilistic { probability: None } => "probability (none)".into(),
        TransitionKind::Guarded { condition } => format!("if {}", code(&spec_text(file, *condition))),
        TransitionKind::Unknown => "(unknown transition type)".into(),
    }
}

/// The unit of the hovered action's demands of a resource type id, where known.
type UnitOf<'a> = dyn Fn(&str) -> Option<DemandUnit> + 'a;

fn action(file: &ModelFile, a: &Action, results: &[ElementResult], unit: &UnitOf) -> String {
    let mut out = title(a.name.as_deref(), a.kind.as_str());
    out.push_str("\n\n");
    for d in &a.resource_demands {
        let spec = spec_text(file, d.specification);
        let resource = d.resource_type.as_ref().map(|r| r.target.fragment());
        let time = match resource.and_then(unit) {
            Some(DemandUnit::WorkUnits(c)) => format!(
                " {} units = {} ms {}",
                c.resource,
                code(&number_or_law(&c.to_ms(&spec))),
                c.on()
            ),
            Some(DemandUnit::Unconvertible(why)) => format!(" (work units; no time: {why})"),
            _ => String::new(),
        };
        let _ = writeln!(out, "- {} demand: {}{time}", resource_of(d), code(&spec));
    }
    match &a.body {
        ActionBody::Loop { iteration_count, .. } => {
            let _ = writeln!(out, "- Iterations: {}", code(&spec_text(file, *iteration_count)));
        }
        ActionBody::Branch { transitions } => {
            for t in transitions {
                let name = t.name.as_deref().unwrap_or("transition");
                let _ = writeln!(out, "- {}: {}", code(name), transition_condition(file, &t.kind));
            }
        }
        ActionBody::ExternalCall {
            called_service,
            role,
            inputs,
            returns,
        } => {
            let called = called_service.as_ref().map_or("?".into(), |r| target_name(file, r));
            let role = role.as_ref().map_or("?".into(), |r| target_name(file, r));
            let _ = writeln!(out, "- Calls {} through role {}", code(&called), code(&role));
            usages(file, "Input", inputs, &mut out);
            usages(file, "Return", returns, &mut out);
        }
        ActionBody::SetVariable { usages: set } => usages(file, "Sets", set, &mut out),
        _ => {}
    }
    let mine: Vec<&ElementResult> = results
        .iter()
        .filter(|r| a.id.as_deref() == Some(r.action.as_str()))
        .collect();
    if mine.is_empty() {
        if beagle_analysis::model::is_measured_kind(a.kind) {
            out.push_str("\nNot analysed yet\n");
        }
    } else {
        for r in mine {
            out.push('\n');
            result(r, &mut out);
            if let Some(line) = r.demand_resource().and_then(unit).map(|u| written_as(r, &u)) {
                let _ = writeln!(out, "\n{line}");
            }
        }
    }
    out.truncate(out.trim_end().len());
    out
}

/// A number as people read it (`7.5E7`), anything else as written.
fn number_or_law(text: &str) -> String {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() => short_number(v),
        _ => text.to_string(),
    }
}

/// What a demand's result (in ms) is written as.
fn written_as(r: &ElementResult, unit: &DemandUnit) -> String {
    match unit {
        DemandUnit::Milliseconds => "in ms (no resource environment: written in ms)".into(),
        DemandUnit::WorkUnits(c) => format!(
            "in ms; in work units: {} {} units {}",
            code(&number_or_law(&c.to_units(&r.expression))),
            c.resource,
            c.on()
        ),
        DemandUnit::Unconvertible(why) => format!("in ms; not written into the model: {why}"),
    }
}

fn usages(file: &ModelFile, label: &str, usages: &[VariableUsage], out: &mut String) {
    for u in usages {
        for c in &u.characterisations {
            let name = format!("{}.{}", u.name, c.kind);
            let _ = writeln!(
                out,
                "- {label} {} = {}",
                code(&name),
                code(&spec_text(file, c.specification))
            );
        }
    }
}

fn result(r: &ElementResult, out: &mut String) {
    let status = match r.status {
        ResultStatus::Final => "final",
        ResultStatus::Preliminary => "preliminary",
    };
    let _ = writeln!(out, "**{}** ({status})\n\n```stoex\n{}\n```", r.what, r.expression);
    if let Some(guard) = &r.guard {
        let _ = writeln!(out, "taken if {}", code(guard));
    }
    let mut quality = vec![
        format!("R² {}", r.r2.map_or("–".into(), format_number)),
        format!(
            "relative error {}",
            r.relative_error
                .map_or("–".into(), |e| format!("{} %", format_number(e * 100.0)))
        ),
        format!("{} samples", r.samples),
    ];
    quality.extend(
        r.parameter_ranges
            .iter()
            .map(|(name, lo, hi)| format!("{name} {}…{}", format_number(*lo), format_number(*hi))),
    );
    let _ = writeln!(out, "\n{}", quality.join(" · "));
    if let Some(e) = &r.evidence {
        evidence(e, out);
    }
    for reason in &r.reasons {
        let _ = writeln!(out, "\npreliminary: {reason}");
    }
    if let Some(settled) = r.evidence.as_ref().and_then(|e| e.settled.as_ref()) {
        let _ = writeln!(out, "\nsettled: {settled}");
    }
    if !r.points.is_empty() {
        out.push('\n');
        point_table(&r.points, out);
    }
}

/// The evidence line: distinct points and repetitions, held-out error and band, intervals of
/// the constants, notes (equivalent inputs, the complexity bound, no dependency).
fn evidence(e: &beagle_analysis::ProposalEvidence, out: &mut String) {
    let pct = |v: f64| {
        if e.relative {
            format!("{} %", format_number(v * 100.0))
        } else {
            format_number(v)
        }
    };
    let runs = e.runs.map(|r| format!(" from {r} runs")).unwrap_or_default();
    let mut parts = vec![format!(
        "{} distinct points{runs} ({}–{} repetitions)",
        e.points, e.repetitions.0, e.repetitions.1
    )];
    if let Some(h) = e.holdout_error {
        parts.push(format!("held-out error {}", pct(h)));
    }
    if let Some(b) = e.band {
        parts.push(format!("95 % band ±{}", pct(b)));
    }
    if let Some(n) = e.noise {
        parts.push(format!("noise {}", pct(n)));
    }
    let _ = writeln!(out, "\n{}", parts.join(" · "));
    if !e.intervals.is_empty() {
        let intervals: Vec<String> = e
            .intervals
            .iter()
            .map(|i| {
                let r = format_number;
                format!("{} [{}, {}]", i.value, r(i.low), r(i.high))
            })
            .collect();
        let _ = writeln!(out, "\nconstants (95 %): {}", intervals.join(", "));
    }
    for note in &e.notes {
        let _ = writeln!(out, "\n{note}");
    }
}

fn point_table(points: &[PointRow], out: &mut String) {
    let mut names: Vec<&str> = points
        .iter()
        .flat_map(|p| p.parameters.iter().map(|(n, _)| n.as_str()))
        .collect();
    names.sort_unstable();
    names.dedup();
    // Where observations stand for several executions (aggregated loops, sampled points), the
    // table says how many executions are behind each row.
    let executions = points.iter().any(|p| p.executions > p.n as u64);
    let counts: &[&str] = if executions { &["n", "executions"] } else { &["n"] };
    let header: Vec<&str> = names
        .iter()
        .copied()
        .chain(counts.iter().copied())
        .chain(["median", "Q1", "Q3"])
        .collect();
    let _ = writeln!(out, "| {} |", header.join(" | "));
    let _ = writeln!(out, "|{}", "---:|".repeat(header.len()));
    let shown = pick_evenly(points.len(), MAX_POINT_ROWS);
    for &i in &shown {
        let p = &points[i];
        let mut cells: Vec<String> = names
            .iter()
            .map(|n| {
                p.parameters
                    .iter()
                    .find(|(name, _)| name == n)
                    .map_or("–".into(), |(_, v)| format_number(*v))
            })
            .collect();
        cells.push(p.n.to_string());
        if executions {
            cells.push(p.executions.to_string());
        }
        cells.extend([p.median, p.q1, p.q3].map(format_number));
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    if shown.len() < points.len() {
        let _ = writeln!(out, "\n{} of {} parameter points shown", shown.len(), points.len());
    }
    if executions {
        let _ = writeln!(
            out,
            "\nn: observations the statistics are over (each point keeps a bounded sample); executions: the element's measured runs behind them"
        );
    }
}

/// At most `max` indices of `0..len`, evenly spread, first and last included.
fn pick_evenly(len: usize, max: usize) -> Vec<usize> {
    if len <= max {
        return (0..len).collect();
    }
    let mut out: Vec<usize> = (0..max).map(|i| i * (len - 1) / (max - 1)).collect();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::pick_evenly;

    #[test]
    fn picks_first_and_last() {
        assert_eq!(pick_evenly(3, 12), vec![0, 1, 2]);
        let picked = pick_evenly(40, 12);
        assert_eq!(picked.len(), 12);
        assert_eq!((picked[0], picked[11]), (0, 39));
        assert!(picked.windows(2).all(|w| w[0] < w[1]));
    }
}
