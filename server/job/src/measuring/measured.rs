//! What measuring gives the analysis, whichever way it measured: [`Measured`], read from files
//! ([`crate::measuring::files`]) or measured on the Java system (`crate::measuring::java`). A
//! module of its own so that both ways, and the analysis that reads it, name one type.

use beagle_analysis::{EventsSummary, InputFile, MeasurableElement, MeasurementResult};
use beagle_java::launch::Point;
use std::collections::BTreeMap;

/// Measurement results ready for the analysis.
pub struct Measured {
    pub key: String,
    pub tool: String,
    pub summary: EventsSummary,
    pub results: Vec<(MeasurableElement, MeasurementResult)>,
    /// Every observation where `results` holds less (timings as one median per point): what a
    /// hover tabulates. Empty when `results` are the raw observations.
    pub raw: Vec<(MeasurableElement, MeasurementResult)>,
    /// Taken from the store, not read again.
    pub cached: bool,
    /// What the import could not use.
    pub notes: Vec<String>,
    /// What each input file gave (measurements read from files).
    pub inputs: Vec<InputFile>,
    /// Element id -> constants in and around its code (from the Java tool's static analysis).
    pub constants: BTreeMap<String, Vec<f64>>,
    /// Element id -> what the measurement tool measured at the judge's request (the Java tool's
    /// rounds): a result still preliminary for the same want after it is settled
    /// (`crate::analysing::settled`).
    pub requested: BTreeMap<String, Requested>,
    /// The launch point of each run the observations name (the Java tool): what the reasons of a
    /// result measured at one distinct point say about the launches
    /// (`crate::analysing::launch_hints`).
    pub launches: LaunchPoints,
}

/// What a measurement tool measured because the judge of a preliminary analysis asked for it,
/// for one element.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Requested {
    /// Launch points measured after the first pass that reached it (chosen for it or for
    /// another element: where the laws erred or disagreed most, in its corner, in a hole).
    pub points: usize,
    /// Further JVMs at points measured before, that reached it.
    pub jvms: usize,
    /// Holes in its inputs that no launch point reaches: the input, and why.
    pub unreachable: Vec<(String, String)>,
}

/// The launch point of each run (an observation's `run`): the launch's name and its parameters.
pub type LaunchPoints = BTreeMap<u64, (String, Point)>;

impl Measured {
    pub fn elements(&self) -> Vec<MeasurableElement> {
        self.results.iter().map(|(e, _)| e.clone()).collect()
    }
}
