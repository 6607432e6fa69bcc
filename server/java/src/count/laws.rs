//! Count laws: each section's counts fitted over its inputs, as loop counts are (integer and
//! exact forms where every count per run is whole). A section names few keys in its results: the
//! [`KEYS_PER_SECTION`] largest, the rest summed as `others`; the observations keep them all
//! (a platform prediction wants each key's count over the inputs).

use super::run::CountObservation;
use beagle_fit::{fit, Dataset, FitOptions, FitResult, Target};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

/// Keys per section in the results, the largest by their total count.
pub const KEYS_PER_SECTION: usize = 20;

/// One key's count law for one section.
#[derive(Clone, Debug)]
pub struct CountLaw {
    /// `<action>/count/<key>`, the key shortened ([`short_key`]).
    pub element: String,
    pub action: String,
    /// The key as counted (a JDK method with its descriptor); `others` for the rest.
    pub key: String,
    /// The law per run of the section over the inputs, or why none.
    pub law: Result<FitResult, String>,
}

/// A key as results show it: a JDK method without its descriptor
/// (`java/util/zip/Deflater.deflate([BII)I` → `java/util/zip/Deflater.deflate`), the elements it
/// is passed likewise (`java/security/MessageDigest.digest([B)[B elements` →
/// `java/security/MessageDigest.digest elements`).
pub fn short_key(key: &str) -> Cow<'_, str> {
    match key.split_once('(') {
        None => Cow::Borrowed(key),
        Some((name, rest)) => match rest.strip_suffix(" elements") {
            Some(_) => Cow::Owned(format!("{name} elements")),
            None => Cow::Borrowed(name),
        },
    }
}

/// The keys of one action that results name: the [`KEYS_PER_SECTION`] largest by total count.
fn kept_keys(observations: &[&CountObservation]) -> BTreeSet<String> {
    let mut totals: BTreeMap<&str, f64> = BTreeMap::new();
    for o in observations {
        *totals.entry(&o.key).or_default() += o.per_run * o.runs as f64;
    }
    let mut ranked: Vec<(&str, f64)> = totals.into_iter().collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    ranked
        .into_iter()
        .take(KEYS_PER_SECTION)
        .map(|(k, _)| k.to_string())
        .collect()
}

/// A row to fit: the execution's inputs by name, and the count per run.
type Row = (Vec<(String, f64)>, f64);

/// Inputs as their values' bits (a map key).
type Bits = Vec<(String, u64)>;

/// At one input: its values, the executions there, and their counts by key (summed).
type AtInputs<'a> = (Vec<(String, f64)>, BTreeSet<&'a str>, BTreeMap<String, f64>);

/// Per action and key (`others` for the keys beyond the kept ones), the counts per distinct
/// input: (inputs, count per run), the mean over the executions at those inputs (the same point
/// runs main several times). An execution that did not count a key counted 0 of it.
fn series(observations: &[CountObservation]) -> BTreeMap<(String, String), Vec<Row>> {
    let mut by_action: BTreeMap<&str, Vec<&CountObservation>> = BTreeMap::new();
    for o in observations {
        by_action.entry(&o.action).or_default().push(o);
    }
    let mut out = BTreeMap::new();
    for (action, obs) in by_action {
        let kept = kept_keys(&obs);
        // Per distinct inputs: their values, the executions there, the counts by key (summed).
        let mut at_inputs: BTreeMap<Bits, AtInputs> = BTreeMap::new();
        for o in &obs {
            let key = if kept.contains(&o.key) {
                o.key.clone()
            } else {
                "others".into()
            };
            let at: Vec<(String, f64)> = o.parameters.iter().map(|(k, v)| (k.clone(), *v)).collect();
            let bits = at.iter().map(|(k, v)| (k.clone(), v.to_bits())).collect();
            let entry = at_inputs
                .entry(bits)
                .or_insert_with(|| (at, BTreeSet::new(), BTreeMap::new()));
            entry.1.insert(&o.execution);
            *entry.2.entry(key).or_default() += o.per_run;
        }
        let keys: BTreeSet<String> = at_inputs.values().flat_map(|(_, _, k)| k.keys().cloned()).collect();
        for (at, executions, sums) in at_inputs.into_values() {
            let n = executions.len().max(1) as f64;
            for key in &keys {
                let mean = sums.get(key).copied().unwrap_or(0.0) / n;
                out.entry((action.to_string(), key.clone()))
                    .or_insert_with(Vec::new)
                    .push((at.clone(), mean));
            }
        }
    }
    out
}

/// Fits every kept key of every action over the inputs (`names`: action id → readable name).
pub fn fit_counts(observations: &[CountObservation], names: &BTreeMap<String, String>) -> Vec<CountLaw> {
    let mut laws = Vec::new();
    for ((action, key), rows) in series(observations) {
        let name = names.get(&action).cloned().unwrap_or_else(|| action.clone());
        laws.push(CountLaw {
            element: format!("{name}/count/{}", short_key(&key)),
            law: fit_rows(&rows),
            action,
            key,
        });
    }
    laws
}

fn fit_rows(rows: &[Row]) -> Result<FitResult, String> {
    let inputs: BTreeSet<&str> = rows
        .iter()
        .flat_map(|(at, _)| at.iter().map(|(k, _)| k.as_str()))
        .collect();
    let names: Vec<String> = inputs.iter().map(|s| s.to_string()).collect();
    let columns = (names.iter())
        .map(|n| {
            (rows.iter())
                .map(|(at, _)| at.iter().find(|(k, _)| k == n).map_or(0.0, |(_, v)| *v))
                .collect()
        })
        .collect();
    let y: Vec<f64> = rows.iter().map(|(_, c)| *c).collect();
    let whole = y.iter().all(|v| v.fract() == 0.0);
    let data = Dataset::new(names, columns, y).map_err(|e| e.to_string())?;
    let options = FitOptions {
        target: if whole { Target::Count } else { Target::Value },
        ..FitOptions::default()
    };
    fit(&data, &options).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obs(key: &str, size: f64, per_run: f64) -> CountObservation {
        CountObservation {
            execution: format!("e{size}"),
            action: "_a".into(),
            key: key.into(),
            parameters: [("data.BYTESIZE".to_string(), size)].into(),
            per_run,
            runs: 1,
        }
    }

    #[test]
    fn an_exact_count_is_an_exact_law() {
        let o: Vec<_> = [10.0, 20.0, 40.0, 80.0, 160.0, 320.0, 640.0, 1280.0]
            .iter()
            .flat_map(|s| {
                [
                    obs("int-arith", *s, 7.0 * s + 12.0),
                    obs("java/util/zip/Deflater.deflate([BII)I", *s, 1.0),
                ]
            })
            .collect();
        let names = [("_a".to_string(), "compress".to_string())].into();
        let laws = fit_counts(&o, &names);
        let arith = laws.iter().find(|l| l.key == "int-arith").unwrap();
        assert_eq!(arith.element, "compress/count/int-arith");
        assert_eq!(arith.law.as_ref().unwrap().stoex, "7 * data.BYTESIZE + 12");
        let deflate = laws.iter().find(|l| l.key.starts_with("java/")).unwrap();
        assert_eq!(deflate.element, "compress/count/java/util/zip/Deflater.deflate");
        assert_eq!(deflate.law.as_ref().unwrap().stoex, "1");
    }

    #[test]
    fn executions_at_equal_inputs_are_not_summed() {
        // Two repetitions of each point (equal inputs, two executions), each calling once.
        let o: Vec<_> = [10.0, 20.0, 40.0, 80.0, 160.0, 320.0]
            .iter()
            .flat_map(|s| {
                ["a", "b"].map(|rep| CountObservation {
                    execution: format!("t:{rep}{s}"),
                    ..obs("java/security/MessageDigest.digest([B)[B elements", *s, *s)
                })
            })
            .collect();
        let laws = fit_counts(&o, &BTreeMap::new());
        assert_eq!(laws.len(), 1);
        assert_eq!(laws[0].element, "_a/count/java/security/MessageDigest.digest elements");
        assert_eq!(laws[0].law.as_ref().unwrap().stoex, "data.BYTESIZE");
    }

    #[test]
    fn a_methods_elements_keep_their_suffix() {
        assert_eq!(short_key("int-arith"), "int-arith");
        assert_eq!(short_key("new byte[] elements"), "new byte[] elements");
        assert_eq!(
            short_key("java/security/MessageDigest.digest([B)[B"),
            "java/security/MessageDigest.digest"
        );
        assert_eq!(
            short_key("java/security/MessageDigest.digest([B)[B elements"),
            "java/security/MessageDigest.digest elements"
        );
    }

    #[test]
    fn keys_beyond_the_largest_are_others() {
        let o: Vec<_> = (0..KEYS_PER_SECTION as u32 + 8)
            .map(|k| obs(&format!("k{k:02}"), 1.0, f64::from(k + 1)))
            .collect();
        let laws = fit_counts(&o, &BTreeMap::new());
        assert_eq!(laws.len(), KEYS_PER_SECTION + 1);
        let others = laws.iter().find(|l| l.key == "others").unwrap();
        // The eight smallest: 1 + ... + 8.
        assert_eq!(others.law.as_ref().unwrap().stoex, "36");
    }
}
