//! What a runner reports of its JVMs ([`Update`]), and how often a failed one runs again
//! ([`Tracker`]): shared by the runners here, over ssh and on Slurm.

use super::failure::RunError;

/// What happened to the JVMs of a `Executor::run_all`, by their index in its list.
#[derive(Debug)]
pub enum Update {
    /// The JVM started (on Slurm: its task is running).
    Running(usize),
    /// It failed, and runs again (`attempt` from 1).
    Retrying { job: usize, error: RunError, attempt: u32 },
    /// It ended: measured, or failed for good.
    Done(usize, Result<(), RunError>),
    /// Worth a line in the log (a connection lost and back, classes copied).
    Note(String),
}

/// Attempts per JVM, and whether a failure every point would share was seen.
pub(crate) struct Tracker {
    pub attempts: Vec<u32>,
    retries: u32,
    pub fatal: bool,
}

impl Tracker {
    /// `jobs` JVMs, none tried yet, each tried again up to `retries` times.
    pub fn new(jobs: usize, retries: u32) -> Tracker {
        Tracker {
            attempts: vec![0; jobs],
            retries,
            fatal: false,
        }
    }

    /// Reports `result` of job `i`; true when it is to run again.
    pub fn settle(&mut self, i: usize, result: Result<(), RunError>, on: &mut dyn FnMut(Update)) -> bool {
        match result {
            Err(error) if !error.is_fatal() && self.attempts[i] < self.retries => {
                self.attempts[i] += 1;
                on(Update::Retrying {
                    job: i,
                    error,
                    attempt: self.attempts[i],
                });
                true
            }
            result => {
                self.fatal |= matches!(&result, Err(e) if e.is_fatal());
                on(Update::Done(i, result));
                false
            }
        }
    }
}
