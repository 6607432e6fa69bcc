//! JVMs as Slurm job arrays: the JVMs waiting to run become one `sbatch --array=0-N%P` (one JVM
//! per task, `--exclusive` by default: a node to each), Slurm schedules them, and Beagle watches
//! with `squeue` and the exit code each task's script leaves in its folder. A task that leaves
//! Slurm without one (cancelled from outside, out of time, its node gone) is lost and tried
//! again in a new array. An abort is `scancel`. The cluster's accounting (`sacct`) is not needed.

use super::failure::RunFailure;
use super::host::{quote, Host, TreeError};
use super::job::JvmJob;
use super::remote::Remote;
use super::runner::Slurm;
use super::tracker::{Tracker, Update};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::PathBuf;
use std::time::Duration;

/// How often Beagle asks Slurm.
const POLL: Duration = Duration::from_millis(500);

/// Why an array could not be submitted (each of its JVMs fails to start with this).
#[derive(Debug, thiserror::Error)]
enum SubmitError {
    /// The local folder the scripts are written to could not be created.
    #[error("{}: {source}", path.display())]
    Stage { path: PathBuf, source: std::io::Error },
    /// A script could not be written into it.
    #[error(transparent)]
    Script(std::io::Error),
    /// The scripts could not be copied to the cluster.
    #[error(transparent)]
    Tree(#[from] TreeError),
    /// `sbatch` could not be run.
    #[error("sbatch: {0}")]
    Sbatch(std::io::Error),
    /// `sbatch` did not take the array (its error output).
    #[error("sbatch refused the array: {stderr}")]
    Refused { stderr: String },
}

/// A submitted array: its Slurm id, its folder, and the JVM (index, attempt) of each task.
struct Array {
    id: String,
    dir: String,
    tasks: Vec<(usize, u32)>,
    running: BTreeSet<usize>,
    ended: BTreeSet<usize>,
    /// Tasks missing from `squeue` without an exit code at the last poll (lost if again).
    missing: BTreeSet<usize>,
}

/// Runs `jobs` as job arrays on the cluster of `remote`.
pub(crate) fn run_arrays(
    remote: &Remote,
    slurm: &Slurm,
    max_parallel: usize,
    jobs: &[JvmJob],
    tracker: &mut Tracker,
    cancelled: &dyn Fn() -> bool,
    on: &mut dyn FnMut(Update),
) {
    let mut pending: VecDeque<usize> = (0..jobs.len()).collect();
    let mut arrays: Vec<Array> = Vec::new();
    let mut submitted = 0usize;
    loop {
        if cancelled() || tracker.fatal {
            for a in &arrays {
                let _ = remote.host.run(&format!("scancel {}", a.id), b"");
            }
            break;
        }
        // Each array throttles its own tasks (`%P`), so a retry's array only goes in when the
        // arrays out there leave room, and gets only that room: never more than `max_parallel`
        // tasks at once over all arrays. A retry may so wait for the first array's end.
        let unfinished: usize = arrays.iter().map(|a| a.tasks.len() - a.ended.len()).sum();
        if !pending.is_empty() && unfinished < max_parallel {
            let tasks: Vec<(usize, u32)> = pending.drain(..).map(|i| (i, tracker.attempts[i])).collect();
            let dir = format!("{}/runs/{}/array-{submitted}", remote.root, remote.session);
            submitted += 1;
            match submit(remote, slurm, max_parallel - unfinished, jobs, &tasks, &dir) {
                Ok(id) => arrays.push(Array {
                    id,
                    dir,
                    tasks,
                    running: BTreeSet::new(),
                    ended: BTreeSet::new(),
                    missing: BTreeSet::new(),
                }),
                Err(e) => {
                    for (i, _) in tasks {
                        tracker.settle(i, Err(jobs[i].error(RunFailure::Spawn(e.to_string()))), on);
                    }
                }
            }
        }
        if arrays.is_empty() {
            break;
        }
        std::thread::sleep(POLL);
        for a in &mut arrays {
            let Some((states, codes)) = poll(&remote.host, a) else {
                continue;
            };
            for (task, &(i, _)) in a.tasks.iter().enumerate() {
                if a.ended.contains(&task) {
                    continue;
                }
                let result = match (codes.get(&task), states.get(&task)) {
                    (Some(code), _) => Some(remote.fetch(&jobs[i], &format!("{}/{task}", a.dir), *code)),
                    (None, Some(state)) => {
                        a.missing.remove(&task);
                        if state == "RUNNING" && a.running.insert(task) {
                            on(Update::Running(i));
                        }
                        None
                    }
                    // Gone from the queue without an exit code; twice, so that a task between
                    // ending and writing its code is not taken for lost.
                    (None, None) if !a.missing.insert(task) => Some(Err(RunFailure::Lost(format!(
                        "Slurm task {}_{task} ended without an exit code (cancelled, out of time or its node lost; see {}/{task}/slurm.out)",
                        a.id, a.dir
                    )))),
                    (None, None) => None,
                };
                if let Some(result) = result {
                    // A task can start and end between two polls: it is still reported running
                    // first, so that its points are announced and the count of those running
                    // (running minus ended) does not take another task's off.
                    if a.running.insert(task) {
                        on(Update::Running(i));
                    }
                    a.ended.insert(task);
                    if tracker.settle(i, result.map_err(|f| jobs[i].error(f)), on) {
                        pending.push_back(i);
                    }
                }
            }
        }
        arrays.retain(|a| a.ended.len() < a.tasks.len());
    }
    remote.close();
}

/// Writes each task's script and the array's into `dir` and submits the array; its job id.
fn submit(
    remote: &Remote,
    slurm: &Slurm,
    max_parallel: usize,
    jobs: &[JvmJob],
    tasks: &[(usize, u32)],
    dir: &str,
) -> Result<String, SubmitError> {
    let stage = tempfile_dir()?;
    for (task, &(i, _)) in tasks.iter().enumerate() {
        let task_dir = stage.join(task.to_string());
        std::fs::create_dir_all(&task_dir).map_err(SubmitError::Script)?;
        let script = jobs[i].script(&remote.java, &format!("{dir}/{task}"), &remote.classpath);
        std::fs::write(task_dir.join("run.sh"), script).map_err(SubmitError::Script)?;
    }
    let array_script = format!(
        "#!/bin/sh\n# Written by Beagle: task N runs the JVM in folder N.\nexec sh {}/\"$SLURM_ARRAY_TASK_ID\"/run.sh\n",
        quote(dir)
    );
    std::fs::write(stage.join("array.sh"), array_script).map_err(SubmitError::Script)?;
    remote.host.put_tree(&stage, dir)?;
    let _ = std::fs::remove_dir_all(&stage);
    let longest = tasks.iter().map(|&(i, _)| jobs[i].timeout).max().unwrap_or_default();
    let mut args = vec![
        "sbatch".to_string(),
        "--parsable".into(),
        "--job-name=beagle".into(),
        format!("--array=0-{}%{max_parallel}", tasks.len() - 1),
        format!("--output={dir}/%a/slurm.out"),
        format!("--chdir={dir}"),
        // Slurm's limit is the backstop: each task's own `timeout` ends its JVM first.
        format!(
            "--time={}",
            slurm
                .time_limit
                .clone()
                .unwrap_or_else(|| minutes(longest + Duration::from_secs(60)))
        ),
    ];
    if slurm.exclusive {
        args.push("--exclusive".into());
    }
    if let Some(p) = &slurm.partition {
        args.push(format!("--partition={p}"));
    }
    if let Some(c) = slurm.cpus_per_task {
        args.push(format!("--cpus-per-task={c}"));
    }
    args.extend(slurm.sbatch_args.iter().cloned());
    args.push(format!("{dir}/array.sh"));
    let command: Vec<String> = args.iter().map(|a| quote(a)).collect();
    let ran = remote.host.run(&command.join(" "), b"").map_err(SubmitError::Sbatch)?;
    let id = ran.stdout.trim().split(';').next().unwrap_or_default().to_string();
    match ran.ok() && !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()) {
        true => Ok(id),
        false => Err(SubmitError::Refused {
            stderr: ran.stderr.trim().to_string(),
        }),
    }
}

/// An array's tasks still in the queue (task -> Slurm state) and the exit codes written so far.
type Polled = (BTreeMap<usize, String>, BTreeMap<usize, Option<i32>>);

/// What [`Polled`] says of array `a`; `None` when Slurm did not answer (asked again at the next
/// poll).
fn poll(host: &Host, a: &Array) -> Option<Polled> {
    // The queue first, the codes second: a task ending in between has its code read.
    let script = format!(
        "squeue -h -r -j {id} -o '%K %T' 2>&1; echo \"squeue $?\"; cd {d} && for t in *; do [ -e \"$t/rc\" ] && echo \"rc $t $(cat \"$t/rc\")\"; done; true",
        id = a.id,
        d = quote(&a.dir)
    );
    let ran = host.run(&script, b"").ok()?;
    let mut states = BTreeMap::new();
    let mut codes = BTreeMap::new();
    let mut squeue_ok = false;
    for line in ran.stdout.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["squeue", code] => squeue_ok = *code == "0",
            ["rc", task, code] => {
                if let Ok(task) = task.parse::<usize>() {
                    codes.insert(task, code.parse::<i32>().ok());
                }
            }
            [task, state] => {
                if let Ok(task) = task.parse::<usize>() {
                    states.insert(task, state.to_string());
                }
            }
            _ => {}
        }
    }
    // A job Slurm has forgotten is one with no tasks left; any other error is no answer.
    let forgotten = ran.stdout.contains("Invalid job id");
    (squeue_ok || forgotten).then_some((states, codes))
}

/// A Slurm time in whole minutes, rounded up.
fn minutes(d: Duration) -> String {
    (d.as_secs().div_ceil(60).max(1)).to_string()
}

fn tempfile_dir() -> Result<PathBuf, SubmitError> {
    let dir = std::env::temp_dir().join(format!(
        "beagle-slurm-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos()
    ));
    std::fs::create_dir_all(&dir).map_err(|source| SubmitError::Stage {
        path: dir.clone(),
        source,
    })?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slurm_times_round_up_to_minutes() {
        assert_eq!(minutes(Duration::from_secs(61)), "2");
        assert_eq!(minutes(Duration::from_secs(1)), "1");
        assert_eq!(minutes(Duration::from_secs(180)), "3");
    }
}
