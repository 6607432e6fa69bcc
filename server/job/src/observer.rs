//! What a running job tells whoever drives it. The CLI draws progress bars from these events;
//! the language server turns them into `$/progress` and shows intermediate results in hovers.

use beagle_analysis::{Blackboard, MeasurableElement, MeasurementResult, Progress};
use std::fmt;
use std::path::Path;

/// A measuring pass of the Java tool, in the order they run: the quick pass and its replicates
/// before the preliminary analysis, then what that analysis asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pass {
    /// The launches' coarse points.
    Quick,
    /// Some quick points again, each in a fresh JVM.
    Replicates,
    /// Points added where the preliminary results err or disagree.
    Refining,
    /// A further JVM at the replicated points, for elements that want repetitions.
    MoreReplicates,
    /// Points whose element inputs fall in a hole the preliminary results leave unmeasured.
    FillingHoles,
}

impl Pass {
    /// Whether the pass refines what the preliminary analysis found (it follows that analysis).
    pub fn refines(self) -> bool {
        matches!(self, Pass::Refining | Pass::MoreReplicates | Pass::FillingHoles)
    }
}

/// What a progress line calls the pass.
impl fmt::Display for Pass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Pass::Quick => "quick pass",
            Pass::Replicates => "replicates",
            Pass::Refining => "refining (more points)",
            Pass::MoreReplicates => "replicates (more JVMs)",
            Pass::FillingHoles => "filling holes",
        })
    }
}

/// One thing that happened in a job. Borrowed data: copy what you keep.
#[derive(Debug)]
pub enum Event<'a> {
    /// A stage begins ("preparing the Java sources").
    Stage(&'a str),
    /// A measuring pass over one launch's parameter points begins.
    PassStarted {
        pass: Pass,
        launch: &'a str,
        points: usize,
    },
    /// Point `index` (from 0) of the pass is measured now (or taken from the store).
    Point {
        pass: Pass,
        launch: &'a str,
        index: usize,
        points: usize,
        point: &'a str,
    },
    /// Where a pass's JVMs are on a remote runner: "3 of 12 points running on slurm, 5 done".
    Jobs {
        pass: Pass,
        launch: &'a str,
        runner: &'a str,
        running: usize,
        done: usize,
        points: usize,
    },
    PassDone {
        pass: Pass,
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
    /// A warning of a job that is about to fail: its report is not printed, so each is said
    /// here, before the error (a run that fails says why, with every warning it had).
    Warning(&'a str),
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

#[cfg(test)]
mod tests {
    use super::Pass;

    #[test]
    fn passes_read_as_progress_lines_name_them() {
        let all = [
            Pass::Quick,
            Pass::Replicates,
            Pass::Refining,
            Pass::MoreReplicates,
            Pass::FillingHoles,
        ];
        let names: Vec<String> = all.iter().map(Pass::to_string).collect();
        assert_eq!(
            names,
            [
                "quick pass",
                "replicates",
                "refining (more points)",
                "replicates (more JVMs)",
                "filling holes"
            ]
        );
        let refining: Vec<bool> = all.iter().map(|p| p.refines()).collect();
        assert_eq!(refining, [false, false, true, true, true]);
    }
}
