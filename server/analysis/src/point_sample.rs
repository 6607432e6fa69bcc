//! Bounded observations per parameter point (issue 16): what the blackboard keeps of an element's
//! measurements, however many executions there were.
//!
//! The fit works on one summary per distinct parameter point (its median) and measures the noise
//! from the repetitions at each point (`beagle_fit::evidence::Points`). A hundred thousand
//! repetitions of a point estimate its median and spread no better for the law than a few dozen,
//! but cost memory, sorting and store space in proportion. So each (point, run) keeps at most
//! [`KEPT_PER_POINT`] observations, and beyond that a [`PointTally`] with the exact count, sum,
//! sum of squares, extremes and executions of all of them.
//!
//! The kept observations are a uniform random sample of the point's (reservoir sampling,
//! Vitter's algorithm R): the `i`-th observation of a point replaces a kept one with probability
//! `KEPT_PER_POINT / i`, drawn from a ChaCha8 stream seeded by the point and `i`. So the same
//! measurements in the same order give the same sample, in one batch or several; in another
//! order, a sample of the same distribution. (A sample by hashes of the observations' content
//! would not depend on the order, but timings repeat exactly: equal values share a hash and enter
//! or leave the sample together, ten copies of six values instead of sixty draws.)
//!
//! Below the bound nothing changes: every observation is kept, and no tally is written. An element
//! whose points are nearly all distinct (an input that changes at every execution) is bounded as
//! a whole instead ([`KEPT_PER_ELEMENT`]).

use crate::blackboard::{MeasurementResult, Observation};
use crate::events::Parameters;
pub use crate::point_tally::PointTally;
use std::collections::HashMap;

/// Most observations kept per parameter point and run.
pub const KEPT_PER_POINT: usize = 64;

/// Most observations kept per element: reached only when an input takes a new value at nearly
/// every execution (a loop index passed to a callee), where points are singletons and the element
/// keeps a uniform sample of all its observations ([`MeasurementResult::thinned`] counts the
/// others). Fifty points at the per-point bound keep 3,200.
pub const KEPT_PER_ELEMENT: usize = 16_384;

// Built from observations here, not in `point_tally`: the tally does not know the blackboard's
// `Observation`, so the blackboard can hold tallies without depending on this module.
impl PointTally {
    fn of(observations: &[&Observation]) -> PointTally {
        let first = observations[0];
        let mut t = PointTally {
            parameters: first.parameters.clone(),
            run: first.run,
            observations: 0,
            unkept: 0,
            executions: 0,
            sum: 0.0,
            sum_squares: 0.0,
            min: f64::INFINITY,
            max: f64::NEG_INFINITY,
        };
        for o in observations {
            t.add(o);
        }
        t
    }

    fn add(&mut self, o: &Observation) {
        self.observations += 1;
        self.executions += o.executions;
        self.sum += o.value;
        self.sum_squares += o.value * o.value;
        self.min = self.min.min(o.value);
        self.max = self.max.max(o.value);
    }
}

/// Identifies a point and run: parameter names and value bits, and the run.
type PointKey = (Vec<(String, u64)>, Option<u64>);

fn key_of(parameters: &Parameters, run: Option<u64>) -> PointKey {
    let values = parameters
        .iter()
        .map(|(k, v)| (k.clone(), if *v == 0.0 { 0 } else { v.to_bits() }))
        .collect();
    (values, run)
}

fn point_key(o: &Observation) -> PointKey {
    key_of(&o.parameters, o.run)
}

/// A stable hash of a point (FNV-1a over its key): seeds its draws.
fn point_seed(key: &PointKey) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for b in bytes {
            h = (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01B3);
        }
    };
    for (name, bits) in &key.0 {
        eat(name.as_bytes());
        eat(&bits.to_le_bytes());
    }
    eat(&key.1.map_or(u64::MAX, |r| r).to_le_bytes());
    h
}

/// Algorithm R's draw for the `i`-th item (0-based, `i >= kept`) of a stream sampled into `kept`
/// places: the place it takes, if any.
fn replaces_among(seed: u64, i: u64, kept: usize) -> Option<usize> {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let j = rng.random_range(0..=i);
    (j < kept as u64).then_some(j as usize)
}

/// Where a point's observations are: positions in `observations`, its tally if any.
#[derive(Default)]
struct Slot {
    kept: Vec<usize>,
    tally: Option<usize>,
}

impl MeasurementResult {
    /// A result of `observations`, bounded per point (see the module documentation).
    pub fn new(element: impl Into<String>, observations: Vec<Observation>) -> MeasurementResult {
        let mut r = MeasurementResult {
            element: element.into(),
            observations: Vec::new(),
            overflow: Vec::new(),
            thinned: 0,
            resolution: None,
        };
        r.absorb(observations);
        r
    }

    /// Observations made (kept or not).
    pub fn samples(&self) -> usize {
        self.observations.len() + self.overflow.iter().map(|t| t.unkept as usize).sum::<usize>() + self.thinned as usize
    }

    /// Adds another result's observations and tallies (of the same element): as if its
    /// observations had all been [`absorb`](Self::absorb)ed here, since a bottom-k sample of a
    /// union is the bottom-k of the samples.
    pub fn merge(&mut self, other: MeasurementResult) {
        self.absorb(other.observations.iter().cloned());
        self.thinned += other.thinned;
        self.resolution = match (self.resolution, other.resolution) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        for t in other.overflow {
            // What `t` counts beyond its kept observations (those were just absorbed).
            let kept: Vec<&Observation> = other
                .observations
                .iter()
                .filter(|o| o.run == t.run && o.parameters == t.parameters)
                .collect();
            let key = key_of(&t.parameters, t.run);
            let at = match self.overflow.iter().position(|u| key_of(&u.parameters, u.run) == key) {
                Some(at) => at,
                None => {
                    let mine: Vec<&Observation> = self
                        .observations
                        .iter()
                        .filter(|o| o.run == t.run && o.parameters == t.parameters)
                        .collect();
                    if mine.is_empty() {
                        continue;
                    }
                    self.overflow.push(PointTally::of(&mine));
                    self.overflow.len() - 1
                }
            };
            let u = &mut self.overflow[at];
            u.observations += t.observations - kept.len() as u64;
            u.unkept += t.observations - kept.len() as u64;
            u.executions += t.executions - kept.iter().map(|o| o.executions).sum::<u64>();
            u.sum += t.sum - kept.iter().map(|o| o.value).sum::<f64>();
            u.sum_squares += t.sum_squares - kept.iter().map(|o| o.value * o.value).sum::<f64>();
            u.min = u.min.min(t.min);
            u.max = u.max.max(t.max);
        }
    }

    /// Adds observations, keeping at most [`KEPT_PER_POINT`] per point and run (see the module
    /// documentation).
    pub fn absorb(&mut self, observations: impl IntoIterator<Item = Observation>) {
        let mut slots: HashMap<PointKey, Slot> = HashMap::new();
        // The point of each kept observation (to move a position between points).
        let mut keys: Vec<PointKey> = Vec::with_capacity(self.observations.len());
        for (i, o) in self.observations.iter().enumerate() {
            let key = point_key(o);
            slots.entry(key.clone()).or_default().kept.push(i);
            keys.push(key);
        }
        for (i, t) in self.overflow.iter().enumerate() {
            slots.entry(key_of(&t.parameters, t.run)).or_default().tally = Some(i);
        }
        // Seeded by the element's first PCM id (`branch` of `branch/transition`): the transitions
        // of one branch, observed at the same decisions, then keep the same decisions, so that
        // their kept observations still add up to 1 row by row (`crate::untaken`).
        let owner = self.element.split('/').next().unwrap_or(&self.element);
        let element_seed = point_seed(&(vec![(owner.to_string(), 0)], None));
        for o in observations {
            let key = point_key(&o);
            let slot = slots.entry(key.clone()).or_default();
            if slot.tally.is_none() && slot.kept.len() < KEPT_PER_POINT {
                if self.observations.len() < KEPT_PER_ELEMENT {
                    slot.kept.push(self.observations.len());
                    self.observations.push(o);
                    keys.push(key);
                    continue;
                }
                // So many points that the element's bound is reached (an input that takes a new
                // value at nearly every execution): a uniform sample of all observations.
                let seen = self.samples() as u64;
                self.thinned += 1;
                if let Some(j) = replaces_among(element_seed, seen, KEPT_PER_ELEMENT) {
                    let old = std::mem::replace(&mut keys[j], key.clone());
                    if let Some(previous) = slots.get_mut(&old) {
                        previous.kept.retain(|at| *at != j);
                        if previous.kept.is_empty() && previous.tally.is_none() {
                            slots.remove(&old);
                        }
                    }
                    slots.entry(key).or_default().kept.push(j);
                    self.observations[j] = o;
                } else if slot.kept.is_empty() && slot.tally.is_none() {
                    // Bounded memory: no slot for a point that kept nothing.
                    slots.remove(&key);
                }
                continue;
            }
            let tally = *slot.tally.get_or_insert_with(|| {
                let kept: Vec<&Observation> = slot.kept.iter().map(|i| &self.observations[*i]).collect();
                self.overflow.push(PointTally::of(&kept));
                self.overflow.len() - 1
            });
            let t = &mut self.overflow[tally];
            let i = t.observations;
            t.add(&o);
            t.unkept += 1;
            if let Some(j) = replaces_among(point_seed(&key), i, KEPT_PER_POINT) {
                match slot.kept.get(j) {
                    Some(at) => self.observations[*at] = o,
                    None if self.observations.len() < KEPT_PER_ELEMENT => {
                        // Fewer kept than the bound (outliers were removed): keep it as well.
                        t.unkept -= 1;
                        slot.kept.push(self.observations.len());
                        self.observations.push(o);
                        keys.push(key);
                    }
                    None => {}
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;

    fn observation(n: f64, value: f64, run: Option<u64>) -> Observation {
        Observation {
            parameters: [("n.VALUE".to_string(), n)].into(),
            value,
            run,
            executions: 1,
            mean: None,
        }
    }

    #[test]
    fn below_the_bound_every_observation_is_kept_and_nothing_else_written() {
        let obs: Vec<Observation> = (0..KEPT_PER_POINT).map(|i| observation(1.0, i as f64, None)).collect();
        let r = MeasurementResult::new("e", obs.clone());
        assert_eq!(r.observations, obs);
        assert!(r.overflow.is_empty());
        assert_eq!(r.samples(), KEPT_PER_POINT);
        let json = serde_json::to_string(&r).unwrap();
        assert!(!json.contains("overflow"), "{json}");
    }

    #[test]
    fn beyond_the_bound_a_point_keeps_a_sample_and_tallies_all() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let values: Vec<f64> = (0..10_000).map(|i| 1.0 + (i % 997) as f64 / 997.0).collect();
        let mut obs: Vec<Observation> = values.iter().map(|v| observation(3.0, *v, Some(2))).collect();
        obs.push(observation(5.0, 9.0, Some(2)));
        obs.shuffle(&mut rng);
        let r = MeasurementResult::new("e", obs);
        assert_eq!(r.samples(), 10_001);
        assert_eq!(r.observations.len(), KEPT_PER_POINT + 1);
        let t = &r.overflow[0];
        assert_eq!(
            (t.observations, t.unkept, t.executions),
            (10_000, 10_000 - KEPT_PER_POINT as u64, 10_000)
        );
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        assert!((t.mean() - mean).abs() < 1e-9);
        assert_eq!((t.min, t.max), (1.0, 1.0 + 996.0 / 997.0));
        // The kept sample is spread over the values (a uniform sample: median near 1.5).
        let mut kept: Vec<f64> = r
            .observations
            .iter()
            .filter(|o| o.parameters["n.VALUE"] == 3.0)
            .map(|o| o.value)
            .collect();
        kept.sort_by(f64::total_cmp);
        let median = kept[kept.len() / 2];
        assert!((median - 1.5).abs() < 0.15, "{median}");
        assert!(kept[0] < 1.2 && kept[kept.len() - 1] > 1.8, "{kept:?}");
    }

    #[test]
    fn the_kept_sample_does_not_depend_on_batches_and_its_median_not_on_order() {
        let obs: Vec<Observation> = (0..3000)
            .map(|i| observation((i % 3) as f64, ((i * 7919) % 1000) as f64 / 10.0, Some((i % 2) as u64)))
            .collect();
        let reference = MeasurementResult::new("e", obs.clone());
        let tallies = |r: &MeasurementResult| {
            let mut t: Vec<(Option<u64>, u64, u64, u64, u64, u64)> = r
                .overflow
                .iter()
                .map(|t| {
                    (
                        t.run,
                        t.parameters["n.VALUE"].to_bits(),
                        t.observations,
                        t.unkept,
                        t.sum.to_bits(),
                        t.max.to_bits(),
                    )
                })
                .collect();
            t.sort_unstable();
            t
        };
        for seed in 0..5 {
            let mut batched = MeasurementResult::new("e", Vec::new());
            for chunk in obs.chunks(1 + seed * 257) {
                batched.absorb(chunk.to_vec());
            }
            assert_eq!(batched, reference, "batches of {}", 1 + seed * 257);
            // Another order: another sample, of the same distribution (values 0-99.9, uniform).
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed as u64);
            let mut shuffled = obs.clone();
            shuffled.shuffle(&mut rng);
            let other = MeasurementResult::new("e", shuffled);
            assert_eq!(other.samples(), 3000);
            let counts = |r: &MeasurementResult| tallies(r).iter().map(|t| (t.0, t.1, t.2, t.3)).collect::<Vec<_>>();
            assert_eq!(counts(&other), counts(&reference));
            let mut values: Vec<f64> = other.observations.iter().map(|o| o.value).collect();
            values.sort_by(f64::total_cmp);
            let median = values[values.len() / 2];
            assert!((median - 50.0).abs() < 8.0, "{median}");
        }
    }

    #[test]
    fn an_element_of_singleton_points_keeps_a_uniform_sample_of_them() {
        let n = 3 * KEPT_PER_ELEMENT;
        let obs: Vec<Observation> = (0..n).map(|i| observation(i as f64, (i % 100) as f64, None)).collect();
        let r = MeasurementResult::new("e", obs.clone());
        assert_eq!(r.observations.len(), KEPT_PER_ELEMENT);
        assert_eq!(r.samples(), n);
        assert_eq!(r.thinned as usize, n - KEPT_PER_ELEMENT);
        // Uniform over the stream: a third from each third of the inputs, within a few percent.
        let early = r
            .observations
            .iter()
            .filter(|o| o.parameters["n.VALUE"] < KEPT_PER_ELEMENT as f64)
            .count();
        let share = early as f64 / KEPT_PER_ELEMENT as f64;
        assert!((share - 1.0 / 3.0).abs() < 0.03, "{share}");
        // Merged in batches: the same.
        let mut batched = MeasurementResult::new("e", Vec::new());
        for chunk in obs.chunks(5000) {
            batched.absorb(chunk.to_vec());
        }
        assert_eq!(batched, r);
    }

    #[test]
    fn runs_are_points_of_their_own() {
        let obs: Vec<Observation> = (0..200).map(|i| observation(1.0, i as f64, Some(i % 2))).collect();
        let r = MeasurementResult::new("e", obs);
        assert_eq!(r.overflow.len(), 2);
        assert_eq!(r.observations.len(), 2 * KEPT_PER_POINT);
    }
}
