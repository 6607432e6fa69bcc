//! Results preliminary for good. The judge of a preliminary analysis asks for more measurements
//! (points, JVMs, holes filled) and the measurement tool measures them in rounds
//! (`crate::measuring::requests`). Where a result still asks for what was already measured for it,
//! or for a hole no launch point reaches, more of the same measuring will not settle it: it says
//! so, and asks for nothing more. A result that asks for something not yet measured (the rounds
//! ran out first) keeps asking. A timing that asks only for more JVMs while its net time lies
//! below the probes' own cost is settled too: it is known only to that cost, however often it
//! is measured.

use crate::measuring::measured::Requested;
use beagle_analysis::{ElementKind, FinalExpression, MeasurableElement, ProbeCost, ProposalEvidence, Status, Want};
use std::collections::BTreeMap;

/// Marks the preliminary results of `finals` whose requests `requested` shows met in vain, or
/// that `costs` (the probes' cost subtracted, by action) shows below what the probes resolve.
pub(crate) fn settle(
    finals: &mut BTreeMap<String, (MeasurableElement, FinalExpression)>,
    requested: &BTreeMap<String, Requested>,
    costs: &BTreeMap<String, ProbeCost>,
) {
    for (id, (element, fe)) in finals.iter_mut() {
        if fe.status == Status::Final {
            continue;
        }
        let Some(evidence) = fe.proposal.evidence.as_mut() else {
            continue;
        };
        let cost = match &element.kind {
            ElementKind::ResourceDemand { action, .. } => costs.get(action),
            _ => None,
        };
        let why = (requested.get(id).and_then(|r| settled(evidence, r)))
            .or_else(|| cost.and_then(|c| below_the_probes(evidence, c)));
        if let Some(why) = why {
            evidence.wants.clear();
            evidence.settled = Some(why);
        }
    }
}

/// Why more JVMs will not settle a timing whose net time per run lies below the probes' cost
/// subtracted per run (`beagle_fit::Dataset::resolution`): its spread is that of the probes
/// around it, which more of the same measuring does not narrow. The hotloop's checksum, 5.5 ns
/// a run net of 26 ns, came out ±180 % beside a CPU hog, asking for JVMs no round measured.
/// `None` where it asks for anything else (points tell a form), or lies above the cost.
fn below_the_probes(evidence: &ProposalEvidence, cost: &ProbeCost) -> Option<String> {
    let only_jvms = !evidence.wants.is_empty() && evidence.wants.iter().all(|w| *w == Want::Repetitions);
    if !only_jvms || cost.runs == 0 || cost.net_per_run() >= cost.subtracted_per_run() {
        return None;
    }
    Some(format!(
        "more measurements will not settle it: its net time, {} ns per run, lies below the {} ns its probes cost and are subtracted for, to which any measurement of it is known",
        round3(cost.net_per_run()),
        round3(cost.subtracted_per_run())
    ))
}

/// Three significant digits, as text.
fn round3(x: f64) -> String {
    beagle_fit::print::format_number(beagle_fit::numeric::round_significant(x, 3))
}

/// Why more measurements will not settle `evidence`'s reasons, given what was measured for it;
/// `None` while it asks for something not measured yet.
fn settled(evidence: &ProposalEvidence, r: &Requested) -> Option<String> {
    let mut parts = Vec::new();
    for want in &evidence.wants {
        match want {
            Want::Points if r.points > 0 => parts.push(format!(
                "{} more launch point{} reaching it (measured after the first pass)",
                r.points,
                plural(r.points)
            )),
            Want::Repetitions if r.jvms > 0 => parts.push(format!("{} more JVM{}", r.jvms, plural(r.jvms))),
            _ => return None,
        }
    }
    let mut unreachable = Vec::new();
    for (input, _, _) in &evidence.holes {
        let (_, why) = r.unreachable.iter().find(|(i, _)| i == input)?;
        unreachable.push(why.clone());
    }
    if parts.is_empty() && unreachable.is_empty() {
        return None;
    }
    let mut out = Vec::new();
    if !parts.is_empty() {
        let mut said = format!("{} left it preliminary", parts.join(" and "));
        if evidence.points < beagle_fit::evidence::MIN_POINTS {
            said.push_str(&format!(
                " (its inputs took {} distinct value{} wherever the launches went: they do not vary them)",
                evidence.points,
                plural(evidence.points)
            ));
        }
        out.push(said);
    }
    out.extend(unreachable);
    Some(format!("more measurements will not settle it: {}", out.join("; ")))
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn evidence(wants: Vec<Want>, holes: Vec<(String, f64, f64)>, points: usize) -> ProposalEvidence {
        ProposalEvidence {
            points,
            wants,
            holes,
            ..ProposalEvidence::default()
        }
    }

    #[test]
    fn a_want_met_in_vain_is_settled_and_one_not_yet_measured_is_not() {
        let measured = Requested {
            points: 8,
            jvms: 0,
            unreachable: Vec::new(),
        };
        let why = settled(&evidence(vec![Want::Points], Vec::new(), 40), &measured).unwrap();
        assert!(why.contains("8 more launch points"), "{why}");
        assert!(!why.contains("distinct"), "{why}");
        // More JVMs were asked for too, and none were measured: the rounds ran out first.
        assert_eq!(
            settled(
                &evidence(vec![Want::Points, Want::Repetitions], Vec::new(), 40),
                &measured
            ),
            None
        );
        // One distinct point after more launch points: the launches do not vary the input.
        let why = settled(&evidence(vec![Want::Points], Vec::new(), 1), &measured).unwrap();
        assert!(why.contains("1 distinct value wherever"), "{why}");
    }

    #[test]
    fn a_timing_below_its_probes_cost_asking_only_for_jvms_is_settled() {
        // The hotloop's checksum beside a CPU hog: 5.47 ns a run net of 26.1 ns.
        let checksum = ProbeCost {
            runs: 1000,
            net_ns: 5470,
            subtracted_ns: 26_100,
            noise_ns: 1,
        };
        let why = below_the_probes(&evidence(vec![Want::Repetitions], Vec::new(), 40), &checksum).unwrap();
        assert!(
            why.starts_with("more measurements will not settle it: ")
                && why.contains("5.47 ns per run")
                && why.contains("26.1 ns"),
            "{why}"
        );
        // Points may still tell its form; and a timing above its probes' cost is measured by them.
        assert_eq!(
            below_the_probes(
                &evidence(vec![Want::Points, Want::Repetitions], Vec::new(), 40),
                &checksum
            ),
            None
        );
        assert_eq!(below_the_probes(&evidence(Vec::new(), Vec::new(), 40), &checksum), None);
        let above = ProbeCost {
            net_ns: 30_000,
            ..checksum
        };
        assert_eq!(
            below_the_probes(&evidence(vec![Want::Repetitions], Vec::new(), 40), &above),
            None
        );
    }

    #[test]
    fn a_hole_is_settled_only_where_no_launch_point_reaches_it() {
        let hole = vec![("data.BYTESIZE".to_string(), 10.0, 5000.0)];
        let unreachable = Requested {
            unreachable: vec![("data.BYTESIZE".into(), "the launch range ends at 400000".into())],
            ..Requested::default()
        };
        let why = settled(&evidence(Vec::new(), hole.clone(), 40), &unreachable).unwrap();
        assert!(why.contains("the launch range ends"), "{why}");
        assert_eq!(settled(&evidence(Vec::new(), hole, 40), &Requested::default()), None);
    }

    #[test]
    fn only_preliminary_results_with_requests_are_marked() {
        use beagle_analysis::{ElementKind, ProposedExpression};
        let element = MeasurableElement::new(ElementKind::ResourceDemand {
            action: "a".into(),
            resource: "cpu".into(),
        });
        let proposal = |evidence| ProposedExpression {
            element: element.id.clone(),
            analyser: "fit".into(),
            stoex: "1".into(),
            infix: "1".into(),
            r2: 0.0,
            relative_error: 0.0,
            samples: 40,
            parameter_ranges: BTreeMap::new(),
            size: 1,
            depth: 1,
            variables: Vec::new(),
            guard: None,
            predictions: Vec::new(),
            evidence: Some(evidence),
        };
        let fe = |status, evidence| FinalExpression {
            proposal: proposal(evidence),
            fitness: 0.0,
            status,
            reasons: Vec::new(),
            fitted: None,
        };
        let mut finals = BTreeMap::from([
            (
                element.id.clone(),
                (
                    element.clone(),
                    fe(Status::Preliminary, evidence(vec![Want::Points], Vec::new(), 40)),
                ),
            ),
            (
                "other".to_string(),
                (
                    element.clone(),
                    fe(Status::Preliminary, evidence(vec![Want::Points], Vec::new(), 40)),
                ),
            ),
        ]);
        let requested = BTreeMap::from([(
            element.id.clone(),
            Requested {
                points: 3,
                ..Requested::default()
            },
        )]);
        settle(&mut finals, &requested, &BTreeMap::new());
        let ev = |id: &str| finals[id].1.proposal.evidence.clone().unwrap();
        assert!(ev(&element.id).settled.is_some() && ev(&element.id).wants.is_empty());
        assert!(ev("other").settled.is_none() && ev("other").wants == vec![Want::Points]);
    }
}
