//! The platform profile: its file format and the cost of a counted key.
//!
//! Keys are those of counting runs (`beagle.probe.Counts`): an opcode class (`int-arith`, ...),
//! a JDK method by signature (`java/security/MessageDigest.digest([B)[B`), that method's elements
//! (`<signature> elements`: the elements of its array argument, or the length it is passed with
//! an offset), an array allocation (`new byte[]`) and its elements (`new byte[] elements`).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where a profile was measured: enough to tell two profiles apart and to see whether the
/// machine was the one meant.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MachineInfo {
    /// A name for the platform (`--name`, else host and JVM options).
    pub name: String,
    pub host: String,
    /// The CPU's model name (`/proc/cpuinfo`).
    pub cpu: String,
    pub cores: u32,
    pub os: String,
    /// The `java` command used.
    pub java: String,
    /// `java.vm.name` and `java.runtime.version`.
    pub jvm: String,
    /// The JVM options the suite ran under (what the measured system will run under).
    #[serde(default)]
    pub jvm_args: Vec<String>,
    /// When the calibration ran (RFC 3339, UTC).
    pub created: String,
    /// The Beagle version that measured it.
    pub beagle: String,
}

/// The cost of one kind of call or allocation: per call, and per element it is passed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Cost {
    pub call_ns: f64,
    #[serde(default)]
    pub element_ns: f64,
}

/// A calibrated platform.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    pub platform: MachineInfo,
    /// The clock's resolution (`System.nanoTime`, ns): the smallest step two reads differ by.
    pub clock_resolution_ns: f64,
    /// Per opcode class: ns per executed instruction once the JIT compiled the code (under
    /// `-Xint`, the interpreter's: nothing is compiled). Prediction uses these: a measured demand
    /// is a warm one.
    pub instructions: BTreeMap<String, f64>,
    /// Per opcode class: ns per instruction in the interpreter (the benchmark kept from the JIT).
    #[serde(default)]
    pub interpreted: BTreeMap<String, f64>,
    /// Per JDK method signature.
    #[serde(default)]
    pub methods: BTreeMap<String, Cost>,
    /// Per array element type (`byte`, `int`, `java.lang.Object`, ...: the type as the counting
    /// agent writes it in `new <type>[]`): allocation and element.
    #[serde(default)]
    pub arrays: BTreeMap<String, Cost>,
    /// What the calibration noticed: timings clamped at their floor, fits clamped at zero.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Measured with `--quick` (fewer, shorter samples): not repeatable within 2 %.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub quick: bool,
    /// How long the suite ran (s), from its JVM's start to its end.
    #[serde(default)]
    pub calibration_s: f64,
}

/// The key of [`Profile::native_ns`].
pub const NATIVE_REFERENCE: &str = "java/util/zip/Deflater.setInput([B)V";

#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{path}: not a platform profile: {source}")]
    Parse { path: PathBuf, source: ProfileParseError },
}

/// Why a text is not a platform profile ([`Profile::parse`]).
#[derive(Debug, thiserror::Error)]
pub enum ProfileParseError {
    /// Not TOML, or not a profile's tables and keys: the parser's message names the line and the
    /// key (a missing `clock_resolution_ns`, a text where a number goes).
    #[error(transparent)]
    Toml(#[from] toml::de::Error),
    /// No opcode class is timed: nothing could be predicted with it.
    #[error("it has no [instructions] timings")]
    NoInstructions,
}

impl Profile {
    pub fn read(path: &Path) -> Result<Profile, ProfileError> {
        let text = std::fs::read_to_string(path).map_err(|source| ProfileError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Profile::parse(&text).map_err(|source| ProfileError::Parse {
            path: path.to_path_buf(),
            source,
        })
    }

    /// The profile written in `text` (what [`Profile::to_toml`] writes).
    pub fn parse(text: &str) -> Result<Profile, ProfileParseError> {
        let p: Profile = toml::from_str(text)?;
        if p.instructions.is_empty() {
            return Err(ProfileParseError::NoInstructions);
        }
        Ok(p)
    }

    /// The profile as TOML, with a header that says what it is.
    pub fn to_toml(&self) -> String {
        let body = toml::to_string(self).unwrap_or_default();
        format!(
            "# A Beagle platform profile, written by `beagle calibrate`: nanoseconds per counted unit\n\
             # of work on {}. `beagle predict --platform` reads it.\n{body}",
            self.platform.name
        )
    }

    /// Nanoseconds per count of `key` on this platform, or `None` where the profile has no
    /// timing for it (a JDK method the suite did not benchmark).
    pub fn cost_ns(&self, key: &str) -> Option<f64> {
        if let Some(t) = self.instructions.get(key) {
            return Some(*t);
        }
        if let Some(rest) = key.strip_prefix("new ") {
            let (ty, elements) = match rest.strip_suffix("[] elements") {
                Some(ty) => (ty, true),
                None => (rest.strip_suffix("[]")?, false),
            };
            let c = self.arrays.get(ty)?;
            return Some(if elements { c.element_ns } else { c.call_ns });
        }
        if let Some(sig) = key.strip_suffix(" elements") {
            return self.methods.get(sig).map(|c| c.element_ns);
        }
        self.methods.get(key).map(|c| c.call_ns)
    }

    /// The platform's processing rate in work units per second, where one work unit is the
    /// suite's reference mix: one of each timed key (one instruction of every class, one call and
    /// one element of every method and array allocation), whose time is
    /// [`Profile::suite_total_ns`]. Two platforms' rates are in the ratio of their speeds on
    /// that mix (`beagle calibrate --set-rate` writes it into a resource container).
    pub fn work_units_per_s(&self) -> f64 {
        let total = self.suite_total_ns();
        if total > 0.0 {
            1e9 / total
        } else {
            0.0
        }
    }

    /// Whether the platform runs bytecode without a JIT (`-Xint`): its steady timings are its
    /// interpreter's, and a factor for what the JIT makes of an algorithm does not apply there.
    pub fn interpreted_only(&self) -> bool {
        self.platform.jvm_args.iter().any(|a| a == "-Xint")
    }

    /// ns per byte of the suite's native reference: `Deflater`'s compression (zlib, compiled C:
    /// what no JVM option changes, and what another CPU runs at its own speed). Time the counts do
    /// not explain (native code, memory stalls) moves between two platforms as this does. `None`
    /// where the suite did not time it.
    pub fn native_ns(&self) -> Option<f64> {
        (self.methods.get(NATIVE_REFERENCE))
            .map(|c| c.element_ns)
            .filter(|t| t.is_finite() && *t > 0.0)
    }

    /// The suite's total: the sum of every timing (one of each key). Two platforms' totals give
    /// the single-scalar prediction a count-based one is compared with.
    pub fn suite_total_ns(&self) -> f64 {
        let ops: f64 = self.instructions.values().sum();
        let calls: f64 = (self.methods.values().chain(self.arrays.values()))
            .map(|c| c.call_ns + c.element_ns)
            .sum();
        ops + calls
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile() -> Profile {
        Profile {
            clock_resolution_ns: 20.0,
            instructions: [("int-arith".to_string(), 0.3), ("array-load".to_string(), 0.5)].into(),
            methods: [(
                "java/security/MessageDigest.digest([B)[B".to_string(),
                Cost {
                    call_ns: 200.0,
                    element_ns: 2.5,
                },
            )]
            .into(),
            arrays: [(
                "byte".to_string(),
                Cost {
                    call_ns: 15.0,
                    element_ns: 0.1,
                },
            )]
            .into(),
            ..Profile::default()
        }
    }

    #[test]
    fn every_kind_of_key_has_its_cost() {
        let p = profile();
        assert_eq!(p.cost_ns("int-arith"), Some(0.3));
        assert_eq!(p.cost_ns("java/security/MessageDigest.digest([B)[B"), Some(200.0));
        assert_eq!(
            p.cost_ns("java/security/MessageDigest.digest([B)[B elements"),
            Some(2.5)
        );
        assert_eq!(p.cost_ns("new byte[]"), Some(15.0));
        assert_eq!(p.cost_ns("new byte[] elements"), Some(0.1));
        assert_eq!(p.cost_ns("new int[]"), None);
        assert_eq!(p.cost_ns("java/util/Arrays.fill([II)V"), None);
    }

    #[test]
    fn a_profile_survives_its_file() {
        let p = profile();
        let back = Profile::parse(&p.to_toml()).unwrap();
        assert_eq!(back, p);
        assert!(Profile::parse("[platform]\nname = \"x\"").is_err());
    }

    /// A bad profile's error names what is wrong and where: the key and its line.
    #[test]
    fn a_bad_profile_says_where() {
        let text = profile().to_toml();
        let missing = text.replace("clock_resolution_ns = 20.0\n", "");
        let e = Profile::parse(&missing).unwrap_err();
        assert!(matches!(e, ProfileParseError::Toml(_)), "{e:?}");
        assert!(e.to_string().contains("missing field `clock_resolution_ns`"), "{e}");
        let wrong = text.replace("clock_resolution_ns = 20.0", "clock_resolution_ns = \"fast\"");
        let line = wrong.lines().position(|l| l.contains("\"fast\"")).unwrap() + 1;
        let e = Profile::parse(&wrong).unwrap_err().to_string();
        assert!(
            e.contains(&format!("line {line}")) && e.contains("clock_resolution_ns"),
            "{e}"
        );
        let empty = text.replace("int-arith = 0.3\n", "").replace("array-load = 0.5\n", "");
        let e = Profile::parse(&empty).unwrap_err();
        assert!(matches!(e, ProfileParseError::NoInstructions), "{e:?}");
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("p.toml");
        std::fs::write(&path, empty).unwrap();
        assert_eq!(
            Profile::read(&path).unwrap_err().to_string(),
            format!(
                "{}: not a platform profile: it has no [instructions] timings",
                path.display()
            )
        );
    }
}
