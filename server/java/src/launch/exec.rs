//! Running many JVMs on the runner of `[runner]`: here one after another, over ssh up to
//! `max_parallel` at once, on Slurm as job arrays. Each JVM's end is reported as it comes (in any
//! order: the caller files each point under its own key), a failure that is not the launch's
//! (a crash, a timeout, a lost node) is tried again up to `retries` times, and an abort stops
//! what runs (`scancel`, or the remote process group killed).

use super::failure::RunFailure;
use super::host::Host;
use super::job::JvmJob;
use super::remote::{Remote, RemoteError};
use super::run::{run_local, Classpath};
use super::runner::{Runner, Slurm};
use super::tracker::{Tracker, Update};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// Why a runner could not be opened ([`Executor::open`]).
#[derive(Debug, thiserror::Error)]
pub enum ExecutorError {
    /// The Slurm host's shell (or `ssh` to the login node) could not be run.
    #[error("slurm: {0}")]
    Slurm(std::io::Error),
    /// Slurm's commands are not all there: on this machine (`login`: `None`) or the login node.
    #[error(
        "slurm: sbatch, squeue and scancel are not all on the PATH of {} (found: {})",
        login.as_ref().map_or_else(|| "this machine".to_string(), |l| format!("the login node {l}")),
        found.join(", ")
    )]
    SlurmCommands { login: Option<String>, found: Vec<String> },
    /// The remote folder could not be made ready, or the classes copied there.
    #[error(transparent)]
    Remote(#[from] RemoteError),
}

/// A runner ready to run JVMs: the classes are where it runs them.
pub struct Executor {
    place: Place,
    retries: u32,
    max_parallel: usize,
    name: String,
    /// What opening it did (classes copied), for the log.
    pub notes: Vec<String>,
}

enum Place {
    Local { java: PathBuf, classpath: Classpath },
    Ssh(Remote),
    Slurm(Remote, Box<Slurm>),
}

impl Executor {
    /// Opens `runner` for JVMs on `classpath` (copying the classes where they run). `java`: the
    /// local `java` (the runner's own names the remote one).
    pub fn open(runner: &Runner, java: &Path, classpath: &Classpath) -> Result<Executor, ExecutorError> {
        let (place, retries, notes) = match runner {
            Runner::Local => (
                Place::Local {
                    java: java.to_path_buf(),
                    classpath: classpath.clone(),
                },
                0,
                vec![],
            ),
            Runner::Ssh(ssh) => {
                let o = Remote::open(Host::Ssh(ssh.clone()), &ssh.work_dir, &ssh.java, classpath)?;
                let note = copied_note(&o, runner);
                (Place::Ssh(o.remote), ssh.retries, vec![note])
            }
            Runner::Slurm(s) => {
                let host = s.login.clone().map(Host::Ssh).unwrap_or(Host::Here);
                let ran = host
                    .run("for c in sbatch squeue scancel; do command -v $c; done", b"")
                    .map_err(ExecutorError::Slurm)?;
                if ran.stdout.lines().count() < 3 {
                    return Err(ExecutorError::SlurmCommands {
                        login: s.login.as_ref().map(|l| l.host.clone()),
                        found: ran.stdout.split_whitespace().map(str::to_string).collect(),
                    });
                }
                let o = Remote::open(host, &s.work_dir.display().to_string(), &s.java, classpath)?;
                let note = copied_note(&o, runner);
                (Place::Slurm(o.remote, Box::new(s.clone())), s.retries, vec![note])
            }
        };
        Ok(Executor {
            place,
            retries,
            max_parallel: runner.max_parallel(),
            name: runner.name(),
            notes,
        })
    }

    /// "slurm (partition debug)", "ssh bench", "this machine".
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn max_parallel(&self) -> usize {
        self.max_parallel
    }

    /// Runs `jobs`, reporting each one's progress and end to `on` (on this thread). Stops starting
    /// JVMs when `cancelled` or after a failure every point would share (the rest never report).
    pub fn run_all(&self, jobs: &[JvmJob], cancelled: &dyn Fn() -> bool, on: &mut dyn FnMut(Update)) {
        let mut tracker = Tracker::new(jobs.len(), self.retries);
        match &self.place {
            Place::Local { java, classpath } => {
                let mut queue: VecDeque<usize> = (0..jobs.len()).collect();
                while let Some(i) = queue.pop_front() {
                    if cancelled() || tracker.fatal {
                        break;
                    }
                    on(Update::Running(i));
                    let result = run_local(java, classpath, &jobs[i]).map_err(|f| jobs[i].error(f));
                    if tracker.settle(i, result, on) {
                        queue.push_back(i);
                    }
                }
            }
            Place::Ssh(remote) => self.run_ssh(remote, jobs, &mut tracker, cancelled, on),
            Place::Slurm(remote, slurm) => {
                super::slurm::run_arrays(remote, slurm, self.max_parallel, jobs, &mut tracker, cancelled, on)
            }
        }
    }

    /// Up to `max_parallel` JVMs at once, each on a thread of its own waiting for its remote end.
    fn run_ssh(
        &self,
        remote: &Remote,
        jobs: &[JvmJob],
        tracker: &mut Tracker,
        cancelled: &dyn Fn() -> bool,
        on: &mut dyn FnMut(Update),
    ) {
        let abort = AtomicBool::new(false);
        let (send, receive) = mpsc::channel::<(usize, Option<Result<(), RunFailure>>, Option<String>)>();
        let mut queue: VecDeque<usize> = (0..jobs.len()).collect();
        let mut in_flight = 0usize;
        std::thread::scope(|scope| loop {
            while in_flight < self.max_parallel && !tracker.fatal && !abort.load(Ordering::Relaxed) {
                let Some(i) = queue.pop_front() else { break };
                in_flight += 1;
                let (send, abort, job) = (send.clone(), &abort, &jobs[i]);
                let dir = remote.job_dir(i, tracker.attempts[i]);
                scope.spawn(move || {
                    let note_send = send.clone();
                    let note = move |n: String| {
                        let _ = note_send.send((i, None, Some(n)));
                    };
                    let result = remote.run_detached(job, &dir, abort, &note);
                    let _ = send.send((i, Some(result), None));
                });
                on(Update::Running(i));
            }
            if in_flight == 0 {
                break;
            }
            match receive.recv_timeout(Duration::from_millis(100)) {
                Ok((_, None, Some(note))) => on(Update::Note(note)),
                Ok((i, Some(result), _)) => {
                    in_flight -= 1;
                    if abort.load(Ordering::Relaxed) {
                        continue;
                    }
                    if tracker.settle(i, result.map_err(|f| jobs[i].error(f)), on) {
                        queue.push_back(i);
                    }
                }
                _ => {}
            }
            if cancelled() {
                abort.store(true, Ordering::Relaxed);
            }
        });
        remote.close();
    }
}

fn copied_note(o: &super::remote::Opened, runner: &Runner) -> String {
    format!(
        "{}: {} class path entries copied to {}, {} already there",
        runner.name(),
        o.copied,
        o.remote.root,
        o.reused
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_slurm_commands_are_said_of_where_they_were_looked_for() {
        let here = ExecutorError::SlurmCommands {
            login: None,
            found: vec!["/usr/bin/squeue".into()],
        };
        assert_eq!(
            here.to_string(),
            "slurm: sbatch, squeue and scancel are not all on the PATH of this machine (found: /usr/bin/squeue)"
        );
        let login = ExecutorError::SlurmCommands {
            login: Some("login1".into()),
            found: vec![],
        };
        assert_eq!(
            login.to_string(),
            "slurm: sbatch, squeue and scancel are not all on the PATH of the login node login1 (found: )"
        );
    }
}
