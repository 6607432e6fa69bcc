//! What a running job tells whoever drives it. The CLI draws progress bars from these events;
//! the language server turns them into `$/progress` and shows intermediate results in hovers.

use beagle_analysis::{Blackboard, MeasurableElement, MeasurementResult, Progress};
use std::path::Path;

/// One thing that happened in a job. Borrowed data: copy what you keep.
#[derive(Debug)]
pub enum Event<'a> {
    /// A stage begins ("preparing the Java sources").
    Stage(&'a str),
    /// A measuring pass over one launch's parameter points begins.
    PassStarted {
        pass: &'a str,
        launch: &'a str,
        points: usize,
    },
    /// Point `index` (from 0) of the pass is measured now (or taken from the store).
    Point {
        pass: &'a str,
        launch: &'a str,
        index: usize,
        points: usize,
        point: &'a str,
    },
    PassDone {
        pass: &'a str,
        launch: &'a str,
    },
    /// Preliminary results, from the quick pass (no genetic programming).
    Preliminary {
        blackboard: &'a Blackboard,
        raw: &'a [(MeasurableElement, MeasurementResult)],
    },
    /// The analysis of a repository begins (or resumes, after `steps` steps).
    AnalysisStarted {
        repository: &'a Path,
        elements: usize,
        steps: u64,
    },
    /// A step of the analysis loop.
    Analysis {
        repository: &'a Path,
        progress: &'a Progress,
        elements: usize,
    },
    /// The blackboard after a judged step (just stored).
    Checkpoint {
        repository: &'a Path,
        blackboard: &'a Blackboard,
    },
    AnalysisDone {
        repository: &'a Path,
    },
    /// Something worth a line in a verbose log.
    Note(&'a str),
}

/// Receives a job's events, on the job's thread.
pub trait Observer {
    fn on(&mut self, event: Event<'_>);
}

impl<F: FnMut(Event<'_>)> Observer for F {
    fn on(&mut self, event: Event<'_>) {
        self(event)
    }
}

/// Ignores everything.
pub struct Quiet;

impl Observer for Quiet {
    fn on(&mut self, _: Event<'_>) {}
}
