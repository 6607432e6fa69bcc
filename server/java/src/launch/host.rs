//! Where a remote runner's commands run: this machine (a Slurm cluster reachable here) or another
//! over the system's `ssh`. A host runs a shell script and copies folders there and back (as `tar`
//! streams through `ssh`: nothing to install but the OpenSSH client). Credentials are never
//! Beagle's: `ssh` takes the agent, its own configuration or the identity file named in `[runner]`.

use super::runner::Ssh;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

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
    pub fn put_tree(&self, from: &Path, to: &str) -> Result<(), String> {
        let part = format!("{to}.part");
        let script = format!(
            "rm -rf {p} && mkdir -p {p} && tar -C {p} -xf - && rm -rf {t} && mv {p} {t}",
            p = quote(&part),
            t = quote(to)
        );
        let tar = tar_of(from)?;
        let ran = self.run(&script, &tar).map_err(|e| e.to_string())?;
        match ran.ok() {
            true => Ok(()),
            false => Err(format!("copying {} to {to}: {}", from.display(), ran.stderr.trim())),
        }
    }

    /// Copies the contents of the host's folder `from` into the local folder `to` (created).
    pub fn get_tree(&self, from: &str, to: &Path) -> Result<(), String> {
        std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
        let out = self.command(&format!("tar -C {} -cf - .", quote(from))).output();
        let out = out.map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(format!(
                "fetching {from}: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
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

fn tar_of(dir: &Path) -> Result<Vec<u8>, String> {
    let out = Command::new("tar")
        .arg("-C")
        .arg(dir)
        .args(["-cf", "-", "."])
        .output()
        .map_err(|e| format!("tar: {e}"))?;
    match out.status.success() {
        true => Ok(out.stdout),
        false => Err(format!(
            "tar {}: {}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        )),
    }
}

fn untar(tar: &[u8], to: &Path) -> Result<(), String> {
    let mut child = Command::new("tar")
        .arg("-C")
        .arg(to)
        .args(["-xf", "-"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("tar: {e}"))?;
    let write = child.stdin.take().expect("piped").write_all(tar);
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    match (write, out.status.success()) {
        (Ok(()), true) => Ok(()),
        _ => Err(format!(
            "unpacking into {}: {}",
            to.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        )),
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
        assert!(e.contains("/no/such/folder"), "{e}");
    }
}
