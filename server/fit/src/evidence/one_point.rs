//! One distinct parameter point (issue 38): what a constant measured at one point can and cannot
//! carry.
//!
//! - **Inputs that never vary** ([`fixed_reason`]): where the fit sees inputs, one point means no
//!   run (for Java: no launch point) varied them. No law in them can be told, and the reason
//!   says which value they kept, so that the user can make a launch vary it.
//! - **Runs that differ** ([`AcrossRuns`]): where nothing the fit sees varies, a constant from one
//!   point is final when the runs agree. When they differ beyond their own repetitions' spread,
//!   the value depends on something the model does not declare (a 20-fold demand published as a
//!   final constant with an error of 53 % was the case): it is not final.
//!
//! Only runs measured more than once are compared, each against its own repetitions (for Java:
//! fresh JVMs at the same launch point, measured in a later pass). A run measured once shares
//! its JVM (and, with `points_per_jvm`, that JVM's JIT decisions) and its moment of the
//! machine's load with the runs next to it. In a permutation over all runs (twelve, six of them
//! replicated), four single runs slowed together by a burst of load differ from the rest at
//! about p = 0.005 (four values all among the six single runs: 15 of the 3,060 ways to place them
//! among 18), where their replicates, measured minutes later, would disagree with them.

use super::hypothesis;
use crate::dataset::Dataset;
use crate::numeric::round_significant;
use crate::print::format_number;
use std::collections::BTreeMap;

/// Level of the test that the runs differ ([`super::DEPENDENCY_ALPHA`], the level every test of
/// "differs beyond noise" here uses).
pub const ACROSS_RUNS_ALPHA: f64 = 0.01;
/// How much higher the highest compared run's median must be than the lowest's for the runs to
/// differ materially. Fresh JVMs scatter by 5-20 % (more under load: the compress timings of
/// `fit/tests/data/compress-busy-core` lie 0.22-0.39 ms apart at one size); the medians of six
/// runs in two JVMs each at a 20 % noise span about 1.4 times between the extremes. Significance
/// alone is no measure: finegrained's `audit`, hundreds of JVM medians per launch, differs
/// between its 14 launches at p < 0.001 by 11 % (`fit/tests/data/audit-launches`), and the value
/// its `weigh` call passes by 6 %. On seeded launches (`tests/one_point.rs`, six in two JVMs) the
/// two gates flag no constant whose JVMs scatter by 5-10 %, about one in a hundred at 20-30 % (the
/// test's level, where chance differences also pass the ratio), and 19 of 20 that spread 20-fold.
pub const MATERIAL_RATIO: f64 = 1.5;

/// What one distinct point says ([`super::Evidence::one_point`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OnePoint {
    /// The inputs the fit saw, each with its one value (empty: none).
    pub inputs: Vec<(String, f64)>,
    /// Whether the rows carry their runs (for Java: launch points).
    pub runs: bool,
    /// The comparison of the runs measured more than once, where it could be made.
    pub across_runs: Option<AcrossRuns>,
    /// What the values are, in the reason: `cost` for times, `value` otherwise.
    pub what: &'static str,
}

/// The runs measured more than once, compared (one-way analysis of variance of the logarithms,
/// permutation p-value: [`hypothesis::points_differ`] with runs in place of points).
#[derive(Clone, Debug, PartialEq)]
pub struct AcrossRuns {
    /// Runs compared.
    pub runs: usize,
    pub p: f64,
    /// The lowest and the highest run's median.
    pub lowest: f64,
    pub highest: f64,
    /// The measurement's resolution ([`Dataset::resolution`]): medians below it are known to it
    /// only.
    pub resolution: f64,
}

impl AcrossRuns {
    /// Whether the runs differ significantly and materially.
    pub fn differ(&self) -> bool {
        // Hotloop's checksum, about 1 ns net of a 30 ns probe, has JVM medians of 0 and 1 ns:
        // infinitely far apart as a ratio, and both within the resolution.
        let floor = self.lowest.max(self.resolution);
        self.p < ACROSS_RUNS_ALPHA && self.highest > 0.0 && self.highest >= MATERIAL_RATIO * floor
    }
}

/// What one distinct point of `data` says; `what`: the values' name in the reasons.
pub fn assess(data: &Dataset, seed: u64, what: &'static str) -> OnePoint {
    let inputs = (data.names.iter().zip(&data.columns))
        .map(|(n, c)| (n.clone(), c.first().copied().unwrap_or(0.0)))
        .collect();
    OnePoint {
        inputs,
        runs: !data.runs.is_empty(),
        across_runs: across_runs(data, seed),
        what,
    }
}

/// The comparison of `data`'s runs measured more than once; `None` without two such runs or with
/// negative values (no ratio).
pub fn across_runs(data: &Dataset, seed: u64) -> Option<AcrossRuns> {
    if data.runs.len() != data.y.len() || data.y.iter().any(|v| *v < 0.0) {
        return None;
    }
    let mut by_run: BTreeMap<u64, Vec<f64>> = BTreeMap::new();
    for (run, v) in data.runs.iter().zip(&data.y) {
        by_run.entry(*run).or_default().push(*v);
    }
    let groups: Vec<Vec<f64>> = by_run.into_values().filter(|g| g.len() >= 2).collect();
    let p = hypothesis::points_differ(&groups, seed)?;
    let medians: Vec<f64> = groups.iter().map(|g| crate::stats::median(g)).collect();
    Some(AcrossRuns {
        runs: groups.len(),
        p,
        lowest: medians.iter().copied().fold(f64::INFINITY, f64::min),
        highest: medians.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        resolution: data.resolution,
    })
}

/// The start of [`fixed_reason`]'s text, whoever measured (a measurement tool adds which of its
/// parameters could vary the inputs).
pub const FIXED_START: &str = "no launch varies its inputs";
/// The start of [`differ_reason`]'s text after the values' name.
pub const DIFFER_MIDDLE: &str = "differs between launches beyond their noise";

/// Why a law in inputs that take one value everywhere cannot be told: `no launch varies its
/// inputs: items.NUMBER_OF_ELEMENTS = 20 at every point (1 distinct parameter point)`. Without
/// runs the measurements are no launches: `no measurement varies ...`.
pub fn fixed_reason(one: &OnePoint) -> String {
    let values: Vec<String> = (one.inputs.iter())
        .map(|(n, v)| format!("{n} = {}", format_number(round_significant(*v, 6))))
        .collect();
    let start = if one.runs {
        FIXED_START.to_string()
    } else {
        FIXED_START.replace("launch", "measurement")
    };
    format!(
        "{start}: {} at every point (1 distinct parameter point)",
        values.join(", ")
    )
}

/// Why a constant from one point whose runs differ is not final, where they do ([`AcrossRuns::differ`]).
pub fn differ_reason(one: &OnePoint) -> Option<String> {
    let a = one.across_runs.as_ref().filter(|a| a.differ())?;
    let times = if a.lowest > 0.0 {
        format!(", {} times", format_number(round_significant(a.highest / a.lowest, 2)))
    } else {
        String::new()
    };
    Some(format!(
        "its {} {DIFFER_MIDDLE} (medians from {} to {}{times}, at {} launches each measured more than once; {}), though nothing the signature declares varies: it depends on something the model does not declare",
        one.what,
        format_number(round_significant(a.lowest, 2)),
        format_number(round_significant(a.highest, 2)),
        a.runs,
        super::p_text(a.p)
    ))
}

/// Whether `reason` is [`fixed_reason`]'s.
pub fn is_fixed_reason(reason: &str) -> bool {
    reason.starts_with(FIXED_START)
}

/// Whether `reason` is [`differ_reason`]'s.
pub fn is_differ_reason(reason: &str) -> bool {
    reason.starts_with("its ") && reason.contains(DIFFER_MIDDLE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(levels: &[(f64, usize)]) -> Dataset {
        let (mut y, mut r) = (Vec::new(), Vec::new());
        for (i, (level, n)) in levels.iter().enumerate() {
            for j in 0..*n {
                y.push(level * (1.0 + 0.02 * j as f64));
                r.push(i as u64);
            }
        }
        Dataset::new(Vec::new(), Vec::new(), y).unwrap().with_runs(r).unwrap()
    }

    #[test]
    fn only_runs_measured_more_than_once_are_compared() {
        // Four single runs far above the rest say nothing: they are not compared.
        let mut levels = vec![(1.0, 2); 5];
        levels.extend([(3.0, 1); 4]);
        let a = across_runs(&runs(&levels), 1).unwrap();
        assert_eq!((a.runs, a.lowest, a.highest), (5, 1.01, 1.01));
        assert!(!a.differ());
        // Six replicated runs spread over 20-fold: they differ.
        let levels: Vec<(f64, usize)> = [1.0, 2.0, 4.0, 8.0, 16.0, 20.0].iter().map(|l| (*l, 2)).collect();
        let a = across_runs(&runs(&levels), 1).unwrap();
        assert!(a.differ(), "{a:?}");
        let text = differ_reason(&OnePoint {
            across_runs: Some(a),
            what: "cost",
            ..OnePoint::default()
        })
        .unwrap();
        assert!(
            text.starts_with("its cost differs between launches beyond their noise (medians from 1 to 20, 20 times, at 6 launches each measured more than once; p "),
            "{text}"
        );
        assert!(is_differ_reason(&text));
        // Without runs nothing is compared.
        let plain = Dataset::new(Vec::new(), Vec::new(), vec![1.0, 2.0, 30.0]).unwrap();
        assert_eq!(across_runs(&plain, 1), None);
    }

    #[test]
    fn a_difference_within_the_resolution_is_none() {
        let levels: Vec<(f64, usize)> = (0..12).map(|r| (if r < 6 { 0.0 } else { 1e-6 }, 2)).collect();
        let mut d = runs(&levels);
        assert!(across_runs(&d, 1).unwrap().differ());
        d = d.with_resolution(3e-5);
        assert!(!across_runs(&d, 1).unwrap().differ());
    }

    #[test]
    fn the_fixed_inputs_are_named_with_their_value() {
        let d = Dataset::new(
            vec!["items.NUMBER_OF_ELEMENTS".into()],
            vec![vec![20.0, 20.0]],
            vec![1.0, 1.1],
        )
        .unwrap()
        .with_runs(vec![0, 1])
        .unwrap();
        let one = assess(&d, 1, "cost");
        assert_eq!(
            fixed_reason(&one),
            "no launch varies its inputs: items.NUMBER_OF_ELEMENTS = 20 at every point (1 distinct parameter point)"
        );
        assert!(is_fixed_reason(&fixed_reason(&one)));
        let one = OnePoint { runs: false, ..one };
        assert!(fixed_reason(&one).starts_with("no measurement varies its inputs: "));
    }
}
