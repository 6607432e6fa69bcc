//! A folder on another machine (or a cluster's shared folder) where JVMs run: the classes copied
//! there once, content-addressed (`cp/<hash>`: an analysis after an edit copies only the class
//! folders that changed), and each JVM in a folder of its own under `runs/<session>/`, brought
//! back when it ends. Over ssh a JVM runs detached (`setsid`), and Beagle waits for its exit
//! code with a fresh connection whenever one drops: a lost connection resumes where it was.

use super::failure::RunFailure;
use super::host::{quote, Host, TreeError};
use super::job::{failure_of, JvmJob};
use super::run::{tail, Classpath};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long a connection may stay lost before the JVM counts as lost with it.
pub const RECONNECT_FOR: Duration = Duration::from_secs(120);

/// The remote side of a runner: its host, its folder, its `java` and the classes there.
#[derive(Clone, Debug)]
pub struct Remote {
    pub host: Host,
    /// Absolute, on the host.
    pub root: String,
    pub java: String,
    /// The class path on the host.
    pub classpath: String,
    /// A folder of this analysis under `root/runs/` (several analyses may share a machine).
    pub session: String,
}

/// Why [`Remote::open`] could not make the host ready. `host` names it for messages
/// (`this machine`, `ssh bench`).
#[derive(Debug, thiserror::Error)]
pub enum RemoteError {
    /// Its shell (or `ssh`) could not be run.
    #[error("{host}: {source}")]
    Unreachable { host: String, source: std::io::Error },
    /// `work_dir` could not be created or entered there (the host's error output).
    #[error("{host}: cannot use {work_dir}: {stderr}")]
    WorkDir {
        host: String,
        work_dir: String,
        stderr: String,
    },
    /// A local class path entry could not be read.
    #[error("{}: {source}", entry.display())]
    Entry { entry: PathBuf, source: std::io::Error },
    /// A class folder could not be copied there.
    #[error("{host}: {source}")]
    Tree { host: String, source: TreeError },
    /// A jar could not be copied there (the host's error output).
    #[error("{host}: copying {}: {stderr}", entry.display())]
    Copy {
        host: String,
        entry: PathBuf,
        stderr: String,
    },
}

/// What [`Remote::open`] did, for the log.
pub struct Opened {
    pub remote: Remote,
    pub copied: usize,
    pub reused: usize,
}

impl Remote {
    /// Creates `work_dir` on the host, and copies the class path's entries not there yet.
    pub fn open(host: Host, work_dir: &str, java: &str, classpath: &Classpath) -> Result<Opened, RemoteError> {
        let where_ = match &host {
            Host::Here => "this machine".to_string(),
            Host::Ssh(s) => format!("ssh {}", s.host),
        };
        let unreachable = |source| RemoteError::Unreachable {
            host: where_.clone(),
            source,
        };
        let unreadable = |entry: &Path| {
            let entry = entry.to_path_buf();
            move |source| RemoteError::Entry { entry, source }
        };
        let ran = host
            .run(
                &format!(
                    "mkdir -p {w} && cd {w} && mkdir -p cp runs && pwd && ls cp",
                    w = quote(work_dir)
                ),
                b"",
            )
            .map_err(unreachable)?;
        if !ran.ok() {
            return Err(RemoteError::WorkDir {
                host: where_.clone(),
                work_dir: work_dir.to_string(),
                stderr: ran.stderr.trim().to_string(),
            });
        }
        let mut lines = ran.stdout.lines();
        let root = lines.next().unwrap_or_default().to_string();
        let present: std::collections::BTreeSet<&str> = lines.collect();
        let (mut copied, mut reused, mut entries) = (0, 0, Vec::new());
        for entry in &classpath.entries {
            let key = content_hash(entry).map_err(unreadable(entry))?;
            let there = format!("{root}/cp/{key}");
            let name = entry
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if present.contains(key.as_str()) {
                reused += 1;
            } else if entry.is_dir() {
                host.put_tree(entry, &there).map_err(|source| RemoteError::Tree {
                    host: where_.clone(),
                    source,
                })?;
                copied += 1;
            } else {
                let bytes = std::fs::read(entry).map_err(unreadable(entry))?;
                let script = format!(
                    "rm -rf {p} && mkdir -p {p} && cat > {p}/{n} && mv {p} {t}",
                    p = quote(&format!("{there}.part")),
                    n = quote(&name),
                    t = quote(&there)
                );
                let ran = host.run(&script, &bytes).map_err(unreachable)?;
                if !ran.ok() {
                    return Err(RemoteError::Copy {
                        host: where_.clone(),
                        entry: entry.clone(),
                        stderr: ran.stderr.trim().to_string(),
                    });
                }
                copied += 1;
            }
            entries.push(if entry.is_dir() {
                there
            } else {
                format!("{there}/{name}")
            });
        }
        let session = format!(
            "{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default()
                .as_millis()
        );
        Ok(Opened {
            remote: Remote {
                host,
                root,
                java: java.to_string(),
                classpath: entries.join(":"),
                session,
            },
            copied,
            reused,
        })
    }

    /// The host folder of a JVM (`n`: its number in this analysis, `attempt`: from 0).
    pub fn job_dir(&self, n: usize, attempt: u32) -> String {
        format!("{}/runs/{}/{n}-{attempt}", self.root, self.session)
    }

    /// Removes this analysis's JVM folders from the host.
    pub fn close(&self) {
        let _ = self.host.run(
            &format!("rm -rf {}", quote(&format!("{}/runs/{}", self.root, self.session))),
            b"",
        );
    }

    /// Kills what a JVM folder's script started (its session: `timeout` and the JVM).
    pub fn kill(&self, dir: &str) {
        let _ = self.host.run(
            &format!(
                "[ -e {d}/pid ] && pkill -KILL -s \"$(cat {d}/pid)\"; true",
                d = quote(dir)
            ),
            b"",
        );
    }

    /// Fetches a finished JVM's folder into `job.dir` (emptied first) and reads its exit code.
    pub fn fetch(&self, job: &JvmJob, dir: &str, code: Option<i32>) -> Result<(), RunFailure> {
        let _ = std::fs::remove_dir_all(&job.dir);
        let mut tries = 0;
        loop {
            match self.host.get_tree(dir, &job.dir) {
                Ok(()) => break,
                Err(_) if tries < 3 => {
                    tries += 1;
                    std::thread::sleep(Duration::from_secs(1));
                }
                Err(e) => return Err(RunFailure::Lost(e.to_string())),
            }
        }
        let _ = self.host.run(&format!("rm -rf {}", quote(dir)), b"");
        match code {
            Some(0) => Ok(()),
            code => Err(failure_of(
                code,
                tail(&job.dir.join("stderr.txt"), 20),
                job.timeout,
                true,
            )),
        }
    }

    /// Runs `job` on an ssh host: starts its script detached, waits for its exit code (a dropped
    /// connection is opened again, `note`d), fetches its folder. `abort` kills it.
    pub fn run_detached(
        &self,
        job: &JvmJob,
        dir: &str,
        abort: &AtomicBool,
        note: &dyn Fn(String),
    ) -> Result<(), RunFailure> {
        let d = quote(dir);
        let script = job.script(&self.java, dir, &self.classpath);
        // Started at most once: a connection lost after the start must not start a second JVM.
        let start = format!(
            "[ -e {d}/run.sh ] || {{ mkdir -p {d} && cat > {d}/run.sh.part && mv {d}/run.sh.part {d}/run.sh && (setsid sh {d}/run.sh > /dev/null 2>&1 < /dev/null &) ; }}"
        );
        let began = Instant::now();
        let mut lost_since: Option<Instant> = None;
        loop {
            match self.host.run(&start, script.as_bytes()) {
                Ok(r) if r.ok() => break,
                Ok(r) if r.connection_lost(&self.host) => {
                    self.lost(&mut lost_since, &r.stderr, note)?;
                }
                Ok(r) => return Err(RunFailure::Spawn(format!("starting the JVM: {}", r.stderr.trim()))),
                Err(e) => return Err(RunFailure::Spawn(e.to_string())),
            }
            if abort.load(Ordering::Relaxed) {
                return Err(RunFailure::Spawn("aborted".into()));
            }
        }
        lost_since = None;
        // Waits for the exit code, but not for ever: sshd does not end a command whose client is
        // gone, so a wait that outlived an abort (the JVM killed, its folder removed) would loop
        // on the host for good. It ends when the folder is gone, or when the script's process is
        // gone without an exit code (killed: `rc` is looked for once more after a second).
        let wait = format!(
            "while [ ! -e {d}/rc ]; do \
               [ -d {d} ] || exit 4; \
               if [ -e {d}/pid ] && ! kill -0 \"$(cat {d}/pid)\" 2>/dev/null; then sleep 1; [ -e {d}/rc ] || exit 4; fi; \
               sleep 0.1; \
             done; cat {d}/rc"
        );
        // The JVM's own `timeout` ends it; this is for a host that stopped answering.
        let deadline = job.timeout + Duration::from_secs(60);
        loop {
            let mut child = self
                .host
                .command(&wait)
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .map_err(|e| RunFailure::Spawn(e.to_string()))?;
            let status = loop {
                if let Some(status) = child.try_wait().map_err(|e| RunFailure::Spawn(e.to_string()))? {
                    break Some(status);
                }
                if abort.load(Ordering::Relaxed) || began.elapsed() > deadline {
                    let _ = child.kill();
                    let _ = child.wait();
                    break None;
                }
                std::thread::sleep(Duration::from_millis(20));
            };
            let Some(status) = status else {
                self.kill(dir);
                return Err(match abort.load(Ordering::Relaxed) {
                    true => RunFailure::Spawn("aborted".into()),
                    false => RunFailure::Timeout {
                        seconds: deadline.as_secs_f64(),
                    },
                });
            };
            let out = child.wait_with_output().map_err(|e| RunFailure::Spawn(e.to_string()))?;
            if status.code() == Some(super::host::SSH_CONNECTION_LOST) {
                self.lost(&mut lost_since, &String::from_utf8_lossy(&out.stderr), note)?;
                continue;
            }
            if lost_since.take().is_some() {
                note(format!("{}: connection back; the JVM ran on", self.host_name()));
            }
            let code = String::from_utf8_lossy(&out.stdout).trim().parse::<i32>().ok();
            return self.fetch(job, dir, code);
        }
    }

    /// A dropped connection: noted once, waited for, given up after [`RECONNECT_FOR`].
    fn lost(&self, since: &mut Option<Instant>, stderr: &str, note: &dyn Fn(String)) -> Result<(), RunFailure> {
        let first = since.get_or_insert_with(|| {
            note(format!(
                "{}: connection lost ({}); reconnecting, the JVM runs on",
                self.host_name(),
                stderr.trim().lines().last().unwrap_or("no message")
            ));
            Instant::now()
        });
        if first.elapsed() > RECONNECT_FOR {
            return Err(RunFailure::Lost(format!(
                "{}: connection lost for {} s: {}",
                self.host_name(),
                RECONNECT_FOR.as_secs(),
                stderr.trim()
            )));
        }
        std::thread::sleep(Duration::from_millis(500));
        Ok(())
    }

    fn host_name(&self) -> String {
        match &self.host {
            Host::Here => "this machine".into(),
            Host::Ssh(s) => format!("ssh {}", s.host),
        }
    }
}

/// A key of a class path entry's contents (a folder: every file's path and bytes, in order).
fn content_hash(entry: &Path) -> std::io::Result<String> {
    let mut hasher = blake3::Hasher::new();
    let mut files = Vec::new();
    walk(entry, entry, &mut files)?;
    files.sort();
    for (rel, path) in files {
        hasher.update(rel.as_bytes());
        hasher.update(&[0]);
        hasher.update(&std::fs::read(&path)?);
        hasher.update(&[0]);
    }
    Ok(hasher.finalize().to_hex()[..24].to_string())
}

fn walk(root: &Path, p: &Path, out: &mut Vec<(String, std::path::PathBuf)>) -> std::io::Result<()> {
    if p.is_dir() {
        for e in std::fs::read_dir(p)? {
            walk(root, &e?.path(), out)?;
        }
    } else {
        let rel = p.strip_prefix(root).unwrap_or(p);
        let rel = if rel.as_os_str().is_empty() {
            p.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        } else {
            rel.display().to_string()
        };
        out.push((rel, p.to_path_buf()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_are_copied_once_per_content() {
        let d = tempfile::tempdir().unwrap();
        let classes = d.path().join("classes");
        std::fs::create_dir_all(classes.join("app")).unwrap();
        std::fs::write(classes.join("app/Main.class"), b"v1").unwrap();
        let jar = d.path().join("lib.jar");
        std::fs::write(&jar, b"jar").unwrap();
        let cp = Classpath {
            entries: vec![classes.clone(), jar.clone()],
        };
        let work = d.path().join("remote").display().to_string();
        let first = Remote::open(Host::Here, &work, "java", &cp).unwrap();
        assert_eq!((first.copied, first.reused), (2, 0));
        let entries: Vec<&str> = first.remote.classpath.split(':').collect();
        assert!(Path::new(entries[0]).join("app/Main.class").is_file());
        assert!(entries[1].ends_with("/lib.jar") && Path::new(entries[1]).is_file());
        let again = Remote::open(Host::Here, &work, "java", &cp).unwrap();
        assert_eq!((again.copied, again.reused), (0, 2));
        // An edit copies the changed folder only, under a key of its own.
        std::fs::write(classes.join("app/Main.class"), b"v2").unwrap();
        let edited = Remote::open(Host::Here, &work, "java", &cp).unwrap();
        assert_eq!((edited.copied, edited.reused), (1, 1));
        assert_ne!(edited.remote.classpath, first.remote.classpath);
    }

    /// A work folder that cannot be made, and a class path entry that cannot be read: each error
    /// names the host and the folder, or the entry.
    #[test]
    fn what_cannot_be_opened_is_named() {
        let d = tempfile::tempdir().unwrap();
        let file = d.path().join("a-file");
        std::fs::write(&file, b"").unwrap();
        let cp = Classpath { entries: vec![] };
        let under_a_file = format!("{}/work", file.display());
        let e = Remote::open(Host::Here, &under_a_file, "java", &cp).err().unwrap();
        assert!(
            matches!(&e, RemoteError::WorkDir { host, work_dir, .. } if host == "this machine" && *work_dir == under_a_file),
            "{e:?}"
        );
        assert!(
            e.to_string()
                .starts_with(&format!("this machine: cannot use {under_a_file}: ")),
            "{e}"
        );
        let missing = d.path().join("no-such.jar");
        let cp = Classpath {
            entries: vec![missing.clone()],
        };
        let work = d.path().join("remote").display().to_string();
        let e = Remote::open(Host::Here, &work, "java", &cp).err().unwrap();
        assert!(
            matches!(&e, RemoteError::Entry { entry, .. } if *entry == missing),
            "{e:?}"
        );
        assert!(e.to_string().starts_with(&format!("{}: ", missing.display())), "{e}");
    }
}
