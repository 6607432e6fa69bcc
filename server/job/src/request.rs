//! What a job is asked to do: the workspace and scope ([`Request`]) and how to analyse them
//! ([`Settings`]). A module of their own because every stage reads them: the analysis, the Java
//! measurements and both ways of validating.

use crate::workspace::Workspace;
use beagle_analysis::Scope;
use std::time::Duration;

/// What to analyse: a resolved workspace (its measurement source set), a scope, settings.
#[derive(Clone, Debug)]
pub struct Request {
    pub workspace: Workspace,
    pub scope: Scope,
    pub settings: Settings,
}

/// How to analyse.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Seed of every random choice (points, genetic programming): the same seed gives the same
    /// expressions.
    pub seed: u64,
    /// Wall time the analysis of one repository may take (results are preliminary when it runs out).
    pub budget_ms: Option<u64>,
    /// Genetic programming on (off: regression, thresholds and MARS only).
    pub gp: bool,
    /// Worker threads of the genetic programming (results do not depend on it).
    pub threads: usize,
    /// Analyse again even when the store holds results at least as precise.
    pub fresh: bool,
    /// Write the results into the repository files (atomically, only if unchanged meanwhile).
    pub write: bool,
    /// How a constant answer is published: the constant or the measured distribution.
    pub spread: beagle_fit::Spread,
    /// Then validate the analysed model on measurements it was not fitted to (Java: fresh
    /// points; measurements: a held-out share, analysed apart) and keep the validation.
    pub validate: bool,
    /// Then count the work per section (`[java] count` does too; issue 39).
    pub count: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            seed: 1,
            budget_ms: None,
            gp: true,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            fresh: false,
            write: false,
            spread: beagle_fit::Spread::Constant,
            validate: false,
            count: false,
        }
    }
}

impl Settings {
    pub(crate) fn fit_options(&self) -> beagle_fit::FitOptions {
        let mut options = beagle_fit::FitOptions {
            spread: self.spread,
            ..Default::default()
        };
        match &mut options.gp {
            Some(gp) if self.gp => {
                gp.seed = self.seed;
                gp.threads = self.threads.max(1);
                // A safety net per element; the generation budget normally ends the search first,
                // which keeps results independent of the machine's speed.
                gp.time_limit = Some(Duration::from_secs(20));
            }
            _ => options.gp = None,
        }
        options
    }
}
