//! What a counting run found for one internal action (issue 39): its counts as laws over the
//! inputs, one per key, and the factor R that turns the count-based estimate into the measured
//! demand on the platform it was measured on. Kept in the store beside the results, so that a
//! prediction for another platform (`beagle predict --platform`) needs no measurement.
//!
//! On a platform with costs `t_k` (ns per count of key `k`), the count-based estimate is
//! `E = Σ_k count_k(inputs) × t_k`, and R = measured / E on the measuring platform (Krogmann et
//! al., IEEE TSE 2010: the per-algorithm factor for what the JIT does). How a prediction for
//! another platform uses R is `beagle_job::predicting::platform`'s.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One key's count law.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CountLaw {
    /// The count per run of the section, as a StoEx of the inputs.
    pub stoex: String,
    /// Whether the law is final (its evidence carries it), else preliminary.
    pub is_final: bool,
    /// NaN where the counts do not vary (a constant count).
    #[serde(with = "crate::blackboard::non_finite")]
    pub r2: f64,
}

/// The counts of one internal action and its platform factor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SectionCounts {
    /// The internal action's id.
    pub action: String,
    /// Its name in the model.
    pub name: String,
    /// Per counted key (an opcode class, a JDK method, an array allocation; `others` for the
    /// smallest keys together, costed as an `invoke` each): the law.
    pub laws: BTreeMap<String, CountLaw>,
    /// The number of JVMs (points) the counts come from.
    pub points: usize,
    /// R: measured demand / count-based estimate on the measuring platform, the median over the
    /// counted points; `None` without a profile of the measuring platform.
    pub factor: Option<Factor>,
}

/// R, and where it comes from.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Factor {
    #[serde(with = "crate::blackboard::non_finite")]
    pub r: f64,
    /// The spread of the per-point ratios (interquartile range / median): how far one R carries
    /// the action over its inputs.
    #[serde(with = "crate::blackboard::non_finite")]
    pub spread: f64,
    /// The profile of the measuring platform (its name).
    pub platform: String,
    /// The measuring platform's ns per count of each counted key (an estimate there is
    /// `Σ count × cost`): what a prediction for another platform splits the time with. Empty in
    /// stores written before they were kept.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub costs: BTreeMap<String, f64>,
    /// The measuring platform's native reference (ns per byte of `Deflater`'s compression), which
    /// moves the time the counts do not explain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub native_ns: Option<f64>,
}
