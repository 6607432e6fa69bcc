//! The queue of analyses, as plain data: what waits, what runs, how the last one ended. Owned by
//! the session's loop ([`crate::session`]); the job worker only ever holds one job's spec.

use crate::protocol::shapes::{ControlAnswer, RunningJob, Status, WaitingJob};
use beagle_analysis::{Control, Scope};
use beagle_job::Workspace;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use tower_lsp_server::ls_types::NumberOrString;

/// One queued analysis.
#[derive(Clone, Debug)]
pub struct JobSpec {
    pub id: u64,
    /// What the user asked for, for people ("component FileStore in fileshare.repository").
    pub label: String,
    /// The workspace folder (what trust and path checks are about).
    pub root: PathBuf,
    pub workspace: Workspace,
    pub scope: Scope,
}

/// The job running now.
#[derive(Clone, Debug)]
pub struct Running {
    pub id: u64,
    pub label: String,
    pub control: Control,
    /// The repository files it analyses (lenses show its progress on them).
    pub repositories: Vec<PathBuf>,
    pub token: Option<NumberOrString>,
    pub percentage: u32,
    pub message: String,
}

/// What the running analysis is doing, for the lenses of the files it analyses.
#[derive(Clone, Debug)]
pub struct Activity {
    /// The repository files it analyses.
    pub repositories: Vec<PathBuf>,
    pub percentage: u32,
    pub message: String,
}

impl Activity {
    /// Whether it analyses the file at `path` (a repository path may be written otherwise:
    /// relative, through a link).
    pub fn analyses(&self, path: &Path) -> bool {
        let canonical = |p: &Path| std::fs::canonicalize(p).ok();
        self.repositories
            .iter()
            .any(|r| r == path || canonical(r).is_some_and(|c| Some(c) == canonical(path)))
    }
}

/// Pause, resume or abort, from the user.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobControl {
    Pause,
    Resume,
    Abort,
}

#[derive(Default, Debug)]
pub struct Queue {
    pub waiting: VecDeque<JobSpec>,
    pub running: Option<Running>,
    next_id: u64,
    /// How the last job ended, for `beagle.status`.
    pub last: Option<String>,
    /// What the last job's measurements were made of, per input file, for `beagle.status`.
    pub last_inputs: Option<beagle_job::InputsReport>,
    /// Paused with nothing running: the next job starts paused.
    pub paused: bool,
}

impl Queue {
    /// Queues a job; returns its id and how many jobs are ahead of it.
    pub fn push(&mut self, label: String, root: PathBuf, workspace: Workspace, scope: Scope) -> (u64, usize) {
        self.next_id += 1;
        let ahead = self.waiting.len() + usize::from(self.running.is_some());
        self.waiting.push_back(JobSpec {
            id: self.next_id,
            label,
            root,
            workspace,
            scope,
        });
        (self.next_id, ahead)
    }

    /// Starts the next waiting job, if nothing runs: its spec and its control (paused when the
    /// queue is).
    pub fn start_next(&mut self) -> Option<(JobSpec, Control)> {
        if self.running.is_some() {
            return None;
        }
        let spec = self.waiting.pop_front()?;
        let control = Control::new();
        if self.paused {
            control.pause();
        }
        self.running = Some(Running {
            id: spec.id,
            label: spec.label.clone(),
            control: control.clone(),
            repositories: spec.workspace.repositories.clone(),
            token: None,
            percentage: 0,
            message: "starting".into(),
        });
        Some((spec, control))
    }

    /// The running job, if it is job `id` (a late message of an ended job finds none).
    pub fn running_job(&mut self, id: u64) -> Option<&mut Running> {
        self.running.as_mut().filter(|r| r.id == id)
    }

    /// Job `id` ended with `outcome`.
    pub fn ended(&mut self, id: u64, label: &str, outcome: &str) {
        if self.running.as_ref().is_some_and(|r| r.id == id) {
            self.running = None;
        }
        self.last = Some(format!("{label}: {outcome}"));
    }

    /// Pause and resume hold for the queue too: a job started while paused waits.
    pub fn control(&mut self, what: JobControl) -> ControlAnswer {
        match what {
            JobControl::Pause => self.paused = true,
            JobControl::Resume => self.paused = false,
            JobControl::Abort => {}
        }
        let Some(running) = &self.running else {
            return ControlAnswer {
                running: false,
                job: None,
                paused: self.paused,
            };
        };
        match what {
            JobControl::Pause => running.control.pause(),
            JobControl::Resume => running.control.resume(),
            JobControl::Abort => running.control.abort(),
        }
        ControlAnswer {
            running: true,
            job: Some(running.id),
            paused: running.control.is_paused(),
        }
    }

    /// Aborts the job that owns `token` (running: through its control; waiting: dropped).
    pub fn cancel_token(&mut self, token: &NumberOrString) -> bool {
        if let Some(r) = self.running.as_ref().filter(|r| r.token.as_ref() == Some(token)) {
            r.control.abort();
            return true;
        }
        let waiting = self.waiting.len();
        self.waiting.retain(|j| &progress_token(j.id) != token);
        self.waiting.len() < waiting
    }

    pub fn activity(&self) -> Option<Activity> {
        self.running.as_ref().map(|r| Activity {
            repositories: r.repositories.clone(),
            percentage: r.percentage,
            message: r.message.clone(),
        })
    }

    /// The queue for `beagle/status` (and `beagle.status`, which adds the results).
    pub fn status(&self) -> Status {
        Status {
            running: self.running.as_ref().map(|r| RunningJob {
                id: r.id,
                label: r.label.clone(),
                paused: r.control.is_paused(),
                percentage: r.percentage,
                message: r.message.clone(),
            }),
            queued: self
                .waiting
                .iter()
                .map(|j| WaitingJob {
                    id: j.id,
                    label: j.label.clone(),
                })
                .collect(),
            last: self.last.clone(),
            inputs: self.last_inputs.as_ref().map(Into::into),
            paused: self.paused,
            results: None,
        }
    }
}

/// The progress token of job `id`: known from the start, so a job still waiting can be
/// cancelled by it too.
pub fn progress_token(id: u64) -> NumberOrString {
    NumberOrString::String(format!("beagle/analysis/{id}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> (PathBuf, Workspace, Scope) {
        let workspace = Workspace {
            root: PathBuf::from("/w"),
            repositories: Vec::new(),
            source: None,
            seed: None,
            budget_s: None,
            spread: None,
            system: None,
            deployment: Default::default(),
        };
        (PathBuf::from("/w"), workspace, Scope::Repository)
    }

    fn push(q: &mut Queue, label: &str) -> u64 {
        let (r, w, s) = spec();
        q.push(label.into(), r, w, s).0
    }

    #[test]
    fn a_progress_cancel_aborts_the_running_job_or_drops_a_waiting_one() {
        // It once only ever aborted the running job, though its doc said otherwise.
        let mut q = Queue::default();
        let first = push(&mut q, "first");
        let second = push(&mut q, "second");
        let third = push(&mut q, "third");
        let (running, _) = q.start_next().unwrap();
        assert_eq!(running.id, first);
        q.running_job(first).unwrap().token = Some(progress_token(first));
        assert!(q.cancel_token(&progress_token(second)));
        let left: Vec<u64> = q.waiting.iter().map(|j| j.id).collect();
        assert_eq!(left, [third]);
        assert!(!q.running.as_ref().unwrap().control.cancel.is_cancelled());
        assert!(q.cancel_token(&progress_token(first)));
        assert!(q.running.as_ref().unwrap().control.cancel.is_cancelled());
        assert!(!q.cancel_token(&NumberOrString::String("someone else's".into())));
        assert_eq!(q.waiting.len(), 1);
    }

    #[test]
    fn one_job_runs_at_a_time_and_a_paused_queue_starts_its_next_job_paused() {
        let mut q = Queue::default();
        let first = push(&mut q, "first");
        let second = push(&mut q, "second");
        let (spec, control) = q.start_next().unwrap();
        assert_eq!(spec.id, first);
        assert!(!control.is_paused());
        assert!(q.start_next().is_none(), "the first still runs");
        assert!(q.control(JobControl::Pause).paused);
        assert!(control.is_paused());
        q.ended(first, "first", "done");
        assert!(q.running_job(first).is_none());
        let (spec, control) = q.start_next().unwrap();
        assert_eq!(spec.id, second);
        assert!(control.is_paused(), "the queue was paused");
        // A late end of the first job leaves the second running.
        q.ended(first, "first", "done");
        assert_eq!(q.running.as_ref().map(|r| r.id), Some(second));
        assert_eq!(q.status().last.as_deref(), Some("first: done"));
    }
}
