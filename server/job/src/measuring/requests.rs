//! What the judge of a preliminary analysis asks the Java tool to measure, turned into launch
//! points (issue 37), and which requests the measurements met. Holes in an element's input (a
//! law not checked over a decade of it) are mapped to launch points through what the measured
//! points saw (`beagle_java::launch::holes`); more points and more JVMs go to the refinement and
//! replicate passes as before. The measurement loop asks again after each round, until nothing
//! is asked or the rounds run out, and the report says which requests were met and why the
//! others were not.

use crate::measuring::measured::Requested;
use beagle_analysis::{Blackboard, MeasurableElement, MeasurementResult};
use beagle_java::launch::holes::{hole_points, Hole};
use beagle_java::launch::{describe, Launch, Point};
use std::collections::{BTreeMap, BTreeSet};

/// Points asked per hole and round.
pub(crate) const POINTS_PER_HOLE: usize = 3;
/// Points asked per round for an element that wants more and that few launch points reach.
pub(crate) const POINTS_PER_CORNER: usize = 3;

/// One launch point's measurements: the point and what each element measured there.
pub(crate) type Seen<'a> = (&'a Point, &'a [(MeasurableElement, MeasurementResult)]);

/// A hole asked about, and what came of it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum HoleFate {
    /// Launch points measured for it (described).
    Measured(Vec<String>),
    /// Why no launch point was measured for it.
    Unreachable(String),
}

/// The holes asked about so far, by (element, input), and what was measured for the other
/// requests, by element.
#[derive(Debug, Default)]
pub(crate) struct Requests {
    pub holes: BTreeMap<(String, String), (Hole, HoleFate)>,
    pub served: BTreeMap<String, Requested>,
}

impl Requests {
    /// Counts, for every element, the launch points of `measured` that reached it: whichever
    /// element a round's points were chosen for, they are more evidence for each they reach.
    pub(crate) fn served(&mut self, measured: &[Seen], add: impl Fn(&mut Requested, usize)) {
        let mut reached: BTreeMap<&str, usize> = BTreeMap::new();
        for (_, results) in measured {
            let ids: BTreeSet<&str> = (results.iter())
                .filter(|(_, r)| !r.observations.is_empty())
                .map(|(e, _)| e.id.as_str())
                .collect();
            for id in ids {
                *reached.entry(id).or_default() += 1;
            }
        }
        for (id, n) in reached {
            add(self.served.entry(id.to_string()).or_default(), n);
        }
    }

    /// Per element, what was measured at its request, with the holes still `left` that no launch
    /// point reaches.
    pub(crate) fn requested(mut self, left: &[Hole]) -> BTreeMap<String, Requested> {
        for ((element, input), (hole, fate)) in &self.holes {
            let still = left.iter().any(|h| &h.element == element && &h.input == input);
            if let (HoleFate::Unreachable(why), true) = (fate, still) {
                (self.served.entry(element.clone()).or_default().unreachable)
                    .push((input.clone(), format!("the hole in {}: {why}", range(hole))));
            }
        }
        self.served
    }
}

/// The holes the preliminary results ask about: per element and input, the widest.
pub(crate) fn wanted_holes(bb: &Blackboard) -> Vec<Hole> {
    let mut out: BTreeMap<(String, String), Hole> = BTreeMap::new();
    for (element, (input, below, above)) in beagle_analysis::FinalJudge.wanted_holes(bb) {
        let hole = Hole {
            element: element.clone(),
            input: input.clone(),
            below,
            above,
        };
        let wider = |h: &Hole| (h.above / h.below) > (above / below);
        match out.get(&(element.clone(), input.clone())) {
            Some(h) if wider(h) => {}
            _ => {
                out.insert((element, input), hole);
            }
        }
    }
    out.into_values().collect()
}

/// Per launch point of `mine`, the values of `input` that `element` saw there; points where it
/// saw none are left out.
fn seen_by(mine: &[Seen], element: &str, input: &str) -> Vec<(Point, Vec<f64>)> {
    let mut by_point: BTreeMap<String, (Point, Vec<f64>)> = BTreeMap::new();
    for (point, results) in mine {
        let values: Vec<f64> = (results.iter())
            .filter(|(e, _)| e.id == element)
            .flat_map(|(_, r)| r.observations.iter())
            .filter_map(|o| o.parameters.get(input).copied())
            .collect();
        if !values.is_empty() {
            let entry = by_point
                .entry(describe(point))
                .or_insert_with(|| ((*point).clone(), Vec::new()));
            entry.1.extend(values);
        }
    }
    by_point.into_values().collect()
}

/// Launch points of `launch` for `holes` (at most `limit`, none already in `mine`); each hole's
/// fate is recorded in `requests` (a hole the launch never reaches is recorded only when no
/// other launch measured for it).
pub(crate) fn hole_plan(
    launch: &Launch,
    mine: &[Seen],
    holes: &[Hole],
    limit: usize,
    seed: u64,
    requests: &mut Requests,
) -> Vec<Point> {
    let mut out: Vec<Point> = Vec::new();
    for hole in holes {
        let seen = seen_by(mine, &hole.element, &hole.input);
        if seen.is_empty() {
            continue;
        }
        let key = (hole.element.clone(), hole.input.clone());
        match hole_points(launch, &seen, hole, POINTS_PER_HOLE, seed).map_err(|e| e.to_string()) {
            Ok(points) => {
                // Said with every point chosen for it, also those another hole chose first.
                let shown = points
                    .iter()
                    .map(|p| format!("{} at {}", launch.name, describe(p)))
                    .collect();
                let fresh: Vec<Point> = (points.into_iter())
                    .filter(|p| !out.contains(p) && !mine.iter().any(|(m, _)| *m == p))
                    .take(limit.saturating_sub(out.len()))
                    .collect();
                out.extend(fresh);
                let entry = requests
                    .holes
                    .entry(key)
                    .or_insert_with(|| (hole.clone(), HoleFate::Measured(Vec::new())));
                entry.0 = hole.clone();
                match &mut entry.1 {
                    HoleFate::Measured(all) => all.extend::<Vec<String>>(shown),
                    fate => *fate = HoleFate::Measured(shown),
                }
            }
            Err(why) => {
                let entry = requests
                    .holes
                    .entry(key)
                    .or_insert_with(|| (hole.clone(), HoleFate::Unreachable(why.clone())));
                if matches!(entry.1, HoleFate::Unreachable(_)) {
                    entry.1 = HoleFate::Unreachable(why);
                }
            }
        }
    }
    out
}

/// The report's lines on the holes asked about: (is it a warning, text). `left`: the holes the
/// last preliminary analysis still found.
pub(crate) fn hole_report(requests: &Requests, left: &[Hole], rounds: usize) -> Vec<(bool, String)> {
    let still = |element: &str, input: &str| left.iter().any(|h| h.element == element && h.input == input);
    let mut out = Vec::new();
    for ((element, input), (hole, fate)) in &requests.holes {
        let line = match (fate, still(element, input)) {
            (HoleFate::Measured(points), false) => {
                (false, format!("request met: the hole in {} was measured ({})", range(hole), points.join("; ")))
            }
            (HoleFate::Measured(points), true) => (
                true,
                format!(
                    "request not met: the hole in {} is still unmeasured after {rounds} rounds (measured {}): the launch points the map chose did not reach it",
                    range(hole),
                    points.join("; ")
                ),
            ),
            (HoleFate::Unreachable(why), _) => (true, format!("request not met: the hole in {}: {why}", range(hole))),
        };
        out.push(line);
    }
    out
}

/// Launch points for the elements of `asked` that fewer than half of the launch points of
/// `mine` reach (the large-file write: compressed files above 200 KB): up to
/// [`POINTS_PER_CORNER`] each, in the corner where they are reached
/// (`beagle_java::launch::reaching_points`), none already measured or chosen.
pub(crate) fn corner_plan(launch: &Launch, mine: &[Seen], asked: &BTreeSet<String>) -> Vec<Point> {
    let mut measured: Vec<Point> = Vec::new();
    for (p, _) in mine {
        if !measured.contains(p) {
            measured.push((*p).clone());
        }
    }
    let mut out: Vec<Point> = Vec::new();
    for id in asked {
        let mut reaching: Vec<Point> = Vec::new();
        for (p, results) in mine {
            let reached = results.iter().any(|(e, r)| &e.id == id && !r.observations.is_empty());
            if reached && !reaching.contains(p) {
                reaching.push((*p).clone());
            }
        }
        if reaching.is_empty() || 2 * reaching.len() >= measured.len() {
            continue;
        }
        let mut taken = measured.clone();
        taken.extend(out.iter().cloned());
        out.extend(beagle_java::launch::reaching_points(
            launch,
            &reaching,
            &taken,
            POINTS_PER_CORNER,
        ));
    }
    out
}

/// `input of element between below and above`.
fn range(h: &Hole) -> String {
    format!(
        "{} of {} between {} and {}",
        h.input,
        h.element,
        beagle_fit::print::format_number(beagle_fit::numeric::round_significant(h.below, 3)),
        beagle_fit::print::format_number(beagle_fit::numeric::round_significant(h.above, 3))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hole(element: &str, below: f64) -> Hole {
        Hole {
            element: element.into(),
            input: "data.BYTESIZE".into(),
            below,
            above: 31800.0,
        }
    }

    #[test]
    fn the_report_says_which_holes_were_filled_and_why_the_others_were_not() {
        let mut r = Requests::default();
        r.holes.insert(
            ("compress".into(), "data.BYTESIZE".into()),
            (
                hole("compress", 1000.0),
                HoleFate::Measured(vec!["upload at size=3000".into()]),
            ),
        );
        r.holes.insert(
            ("hash".into(), "data.BYTESIZE".into()),
            (
                hole("hash", 10.0),
                HoleFate::Unreachable("the launch `upload` does not reach it".into()),
            ),
        );
        let lines = hole_report(&r, &[], 2);
        assert_eq!(lines.len(), 2);
        assert!(
            !lines[0].0
                && lines[0]
                    .1
                    .starts_with("request met: the hole in data.BYTESIZE of compress between 1000 and 31800")
        );
        assert!(lines[1].0 && lines[1].1.contains("does not reach it"), "{lines:?}");
        let left = [hole("compress", 1000.0)];
        let lines = hole_report(&r, &left, 2);
        assert!(
            lines[0].0 && lines[0].1.contains("still unmeasured after 2 rounds"),
            "{lines:?}"
        );
    }
}
