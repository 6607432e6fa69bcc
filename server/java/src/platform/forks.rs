//! One profile from several runs of the suite, each in its own JVM (JMH's forks): per timing the
//! median over the runs. A JVM's timings share its compiled code's layout and the machine's state
//! while it ran, so they move together: a second JVM is another draw of both, and the median of
//! three drops one JVM whose code or window was off, which more samples in one JVM cannot.

use super::profile::{Cost, Profile};
use beagle_fit::stats::median;
use std::collections::BTreeMap;

/// The median profile of `runs` (the first run's platform; calibration time summed; notes of
/// every run, once each). `None` without runs.
pub fn median_profile(runs: &[Profile]) -> Option<Profile> {
    let first = runs.first()?;
    let mut notes: Vec<String> = Vec::new();
    for n in runs.iter().flat_map(|p| &p.notes) {
        if !notes.contains(n) {
            notes.push(n.clone());
        }
    }
    Some(Profile {
        platform: first.platform.clone(),
        clock_resolution_ns: median(&runs.iter().map(|p| p.clock_resolution_ns).collect::<Vec<_>>()),
        instructions: median_map(runs, |p| &p.instructions),
        interpreted: median_map(runs, |p| &p.interpreted),
        methods: median_costs(runs, |p| &p.methods),
        arrays: median_costs(runs, |p| &p.arrays),
        notes,
        quick: runs.iter().any(|p| p.quick),
        calibration_s: runs.iter().map(|p| p.calibration_s).sum(),
    })
}

/// Per key, the median over the runs that have it.
fn median_map(runs: &[Profile], of: impl Fn(&Profile) -> &BTreeMap<String, f64>) -> BTreeMap<String, f64> {
    let mut values: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for p in runs {
        for (k, v) in of(p) {
            values.entry(k).or_default().push(*v);
        }
    }
    values.into_iter().map(|(k, v)| (k.to_string(), median(&v))).collect()
}

/// Per key, the median call and element costs (each on its own: they are two timings).
fn median_costs(runs: &[Profile], of: impl Fn(&Profile) -> &BTreeMap<String, Cost>) -> BTreeMap<String, Cost> {
    let mut values: BTreeMap<&str, Vec<Cost>> = BTreeMap::new();
    for p in runs {
        for (k, c) in of(p) {
            values.entry(k).or_default().push(*c);
        }
    }
    values
        .into_iter()
        .map(|(k, cs)| {
            let cost = Cost {
                call_ns: median(&cs.iter().map(|c| c.call_ns).collect::<Vec<_>>()),
                element_ns: median(&cs.iter().map(|c| c.element_ns).collect::<Vec<_>>()),
            };
            (k.to_string(), cost)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(arith: f64, digest: f64, note: &str) -> Profile {
        Profile {
            clock_resolution_ns: 20.0,
            instructions: [("int-arith".to_string(), arith)].into(),
            methods: [(
                "java/security/MessageDigest.digest([B)[B".to_string(),
                Cost {
                    call_ns: 50.0,
                    element_ns: digest,
                },
            )]
            .into(),
            notes: vec![note.into()],
            calibration_s: 40.0,
            ..Profile::default()
        }
    }

    #[test]
    fn one_jvm_off_does_not_move_the_median() {
        // The second JVM ran in a slow window (every timing 8 % up): the median is the others'.
        let p = median_profile(&[run(0.25, 0.52, "a"), run(0.27, 0.5616, "b"), run(0.251, 0.521, "a")]).unwrap();
        assert_eq!(p.instructions["int-arith"], 0.251);
        assert_eq!(p.methods["java/security/MessageDigest.digest([B)[B"].element_ns, 0.521);
        assert_eq!(p.notes, vec!["a".to_string(), "b".to_string()]);
        assert_eq!(p.calibration_s, 120.0);
        assert!(median_profile(&[]).is_none());
        // One run is itself.
        let one = run(0.3, 0.5, "x");
        assert_eq!(median_profile(std::slice::from_ref(&one)).unwrap(), one);
    }
}
