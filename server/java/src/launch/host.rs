//! Where a remote runner's commands run: this machine (a Slurm cluster reachable here) or another
//! over the system's `ssh`. A host runs a shell script and copies folders there and back (as `tar`
//! streams through `ssh`: nothing to install but the OpenSSH client). Credentials are never
//! Beagle's: `ssh` takes the agent, its own configuration or the identity file named in `[runner]`.

use super::runner::Ssh;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Why a folder could not be copied to a host or back ([`Host::put_tree`], [`Host::get_tree`]).
#[derive(Debug, thiserror::Error)]
pub enum TreeError {
    /// The host's command (its shell, or `ssh`) could not be run, or the local `tar` waited for.
    #[error(transparent)]
    Command(std::io::Error),
    /// The local `tar` could not be started.
    #[error("tar: {0}")]
    Tar(std::io::Error),
    /// The local `tar` could not pack `dir`.
    #[error("tar {}: {stderr}", dir.display())]
    Pack { dir: PathBuf, stderr: String },
    /// The local `tar` could not unpack into `to`.
    #[error("unpacking into {}: {stderr}", to.display())]
    Unpack { to: PathBuf, stderr: String },
    /// The local folder to copy into could not be created.
    #[error("{}: {source}", path.display())]
    Folder { path: PathBuf, source: std::io::Error },
    /// The host did not unpack the copy into `to` (its error output).
    #[error("copying {} to {to}: {stderr}", from.display())]
    Put { from: PathBuf, to: String, stderr: String },
    /// The host did not pack its folder `from` (its error output).
    #[error("fetching {from}: {stderr}")]
    Get { from: String, stderr: String },
}

/// A machine to run shell scripts on.
#[derive(Clone, Debug, PartialEq)]
pub enum Host {
    Here,
    Ssh(Ssh),
}

/// `ssh`'s exit code when the connection failed (not the remote command).
pub const SSH_CONNECTION_LOST: i32 = 255;

/// A script's result: its exit code (`None`: killed by a signal), stdout and stderr.
#[derive(Clone, Debug)]
pub struct Ran {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Ran {
    pub fn ok(&self) -> bool {
        self.code == Some(0)
    }

    /// Whether `ssh` itself failed: the connection was refused, dropped or never authenticated.
    pub fn connection_lost(&self, host: &Host) -> bool {
        matches!(host, Host::Ssh(_)) && self.code == Some(SSH_CONNECTION_LOST)
    }

    fn of(out: Output) -> Ran {
        Ran {
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

/// Quotes `s` for a POSIX shell.
pub fn quote(s: &str) -> String {
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+=:,@%".contains(&b))
    {
        return s.to_string();
    }
    format!("'{}'", s.replace('\'', r"'\''"))
}

impl Host {
    /// The command that runs `sh -c script` on the host.
    pub fn command(&self, script: &str) -> Command {
        match self {
            Host::Here => {
                let mut c = Command::new("sh");
                c.arg("-c").arg(script);
                c
            }
            Host::Ssh(ssh) => {
                let mut c = ssh_base(ssh);
                c.arg("--").arg(&ssh.host).arg(format!("sh -c {}", quote(script)));
                c
            }
        }
    }

    /// Runs `script` (stdin: `input`), waiting for it.
    pub fn run(&self, script: &str, input: &[u8]) -> std::io::Result<Ran> {
        let mut child = self
            .command(script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let mut stdin = child.stdin.take().expect("piped");
        let input = input.to_vec();
        // Written on a thread of its own: a script that prints much before reading would block.
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let out = child.wait_with_output()?;
        let _ = writer.join();
        Ok(Ran::of(out))
    }

    /// Copies the contents of the local folder `from` to `to` on the host (created; a folder of
    /// that name already there is replaced). Written to `to.part` first and renamed: a copy cut
    /// short never looks complete.
    pub fn put_tree(&self, from: &Path, to: &str) -> Result<(), TreeError> {
        let part = format!("{to}.part");
        let script = format!(
            "rm -rf {p} && mkdir -p {p} && tar -C {p} -xf - && rm -rf {t} && mv {p} {t}",
            p = quote(&part),
            t = quote(to)
        );
        let tar = tar_of(from)?;
        let ran = self.run(&script, &tar).map_err(TreeError::Command)?;
        match ran.ok() {
            true => Ok(()),
            false => Err(TreeError::Put {
                from: from.to_path_buf(),
                to: to.to_string(),
                stderr: ran.stderr.trim().to_string(),
            }),
        }
    }

    /// Copies the contents of the host's folder `from` into the local folder `to` (created).
    pub fn get_tree(&self, from: &str, to: &Path) -> Result<(), TreeError> {
        std::fs::create_dir_all(to).map_err(|source| TreeError::Folder {
            path: to.to_path_buf(),
            source,
        })?;
        let out = self.command(&format!("tar -C {} -cf - .", quote(from))).output();
        let out = out.map_err(TreeError::Command)?;
        if !out.status.success() {
            return Err(TreeError::Get {
                from: from.to_string(),
                stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
            });
        }
        untar(&out.stdout, to)
    }
}

/// `ssh` in batch mode (never a password prompt) with the runner's user, port and identity.
fn ssh_base(ssh: &Ssh) -> Command {
    let mut c = Command::new("ssh");
    c.args([
        "-o",
        "BatchMode=yes",
        "-o",
        "ConnectTimeout=10",
        "-o",
        "ServerAliveInterval=5",
    ]);
    c.args(["-o", "ServerAliveCountMax=3", "-o", "StrictHostKeyChecking=accept-new"]);
    if let Some(user) = &ssh.user {
        c.arg("-l").arg(user);
    }
    if let Some(port) = ssh.port {
        c.arg("-p").arg(port.to_string());
    }
    if let Some(identity) = &ssh.identity {
        c.arg("-i").arg(identity).args(["-o", "IdentitiesOnly=yes"]);
    }
    c
}

fn tar_of(dir: &Path) -> Result<Vec<u8>, TreeError> {
    let out = Command::new("tar")
        .arg("-C")
        .arg(dir)
        .args(["-cf", "-", "."])
        .output()
        .map_err(TreeError::Tar)?;
    match out.status.success() {
        true => Ok(out.stdout),
        false => Err(TreeError::Pack {
            dir: dir.to_path_buf(),
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        }),
    }
}

fn untar(tar: &[u8], to: &Path) -> Result<(), TreeError> {
    let mut child = Command::new("tar")
        .arg("-C")
        .arg(to)
        .args(["-xf", "-"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(TreeError::Tar)?;
    let write = child.stdin.take().expect("piped").write_all(tar);
    let out = child.wait_with_output().map_err(TreeError::Command)?;
    match (write, out.status.success()) {
        (Ok(()), true) => Ok(()),
        _ => Err(TreeError::Unpack {
            to: to.to_path_buf(),
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_survives_the_shell() {
        for s in ["plain", "with space", "it's", "$HOME", "a\"b", "", "x;rm -rf /"] {
            let ran = Host::Here.run(&format!("printf %s {}", quote(s)), b"").unwrap();
            assert_eq!(ran.stdout, s);
        }
    }

    #[test]
    fn trees_go_there_and_back_whole() {
        let d = tempfile::tempdir().unwrap();
        let from = d.path().join("from");
        std::fs::create_dir_all(from.join("a/b")).unwrap();
        std::fs::write(from.join("a/b/C.class"), [0xca, 0xfe, 0xba, 0xbe]).unwrap();
        let there = d.path().join("there").display().to_string();
        Host::Here.put_tree(&from, &there).unwrap();
        assert!(!Path::new(&format!("{there}.part")).exists());
        let back = d.path().join("back");
        Host::Here.get_tree(&there, &back).unwrap();
        assert_eq!(
            std::fs::read(back.join("a/b/C.class")).unwrap(),
            [0xca, 0xfe, 0xba, 0xbe]
        );
        let e = Host::Here.get_tree("/no/such/folder", &back).unwrap_err();
        assert!(
            matches!(&e, TreeError::Get { from, .. } if from == "/no/such/folder"),
            "{e:?}"
        );
        assert!(e.to_string().starts_with("fetching /no/such/folder: "), "{e}");
    }
}
