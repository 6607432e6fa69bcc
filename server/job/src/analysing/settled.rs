//! Results preliminary for good. The judge of a preliminary analysis asks for more measurements
//! (points, JVMs, holes filled) and the measurement tool measures them in rounds
//! (`crate::measuring::requests`). Where a result still asks for what was already measured for it,
//! or for a hole no launch point reaches, more of the same measuring will not settle it: it says
//! so, and asks for nothing more. A result that asks for something not yet measured (the rounds
//! ran out first) keeps asking.

use crate::measuring::measured::Requested;
use beagle_analysis::{FinalExpression, MeasurableElement, ProposalEvidence, Status, Want};
use std::collections::BTreeMap;

/// Marks the preliminary results of `finals` whose requests `requested` shows met in vain.
pub(crate) fn settle(
    finals: &mut BTreeMap<String, (MeasurableElement, FinalExpression)>,
    requested: &BTreeMap<String, Requested>,
) {
    for (id, (_, fe)) in finals.iter_mut() {
        if fe.status == Status::Final {
            continue;
        }
        let (Some(r), Some(evidence)) = (requested.get(id), fe.proposal.evidence.as_mut()) else {
            continue;
        };
        if let Some(why) = settled(evidence, r) {
            evidence.wants.clear();
            evidence.settled = Some(why);
        }
    }
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
        settle(&mut finals, &requested);
        let ev = |id: &str| finals[id].1.proposal.evidence.clone().unwrap();
        assert!(ev(&element.id).settled.is_some() && ev(&element.id).wants.is_empty());
        assert!(ev("other").settled.is_none() && ev("other").wants == vec![Want::Points]);
    }
}
