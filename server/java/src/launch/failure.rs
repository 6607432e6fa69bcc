//! Why a JVM or a point could not be measured, wherever it ran.

/// Why a point could not be measured.
#[derive(Clone, Debug, PartialEq)]
pub enum RunFailure {
    Timeout {
        seconds: f64,
    },
    Exit {
        code: Option<i32>,
        stderr: String,
    },
    MainNotFound {
        stderr: String,
    },
    Spawn(String),
    /// The runner lost the JVM: its Slurm task ended without an exit code (cancelled, failed, its
    /// node gone), or the connection to its machine stayed lost.
    Lost(String),
}

/// A failed point: which launch, which point, what happened.
#[derive(Clone, Debug, PartialEq)]
pub struct RunError {
    pub launch: String,
    pub point: String,
    pub failure: RunFailure,
}

impl RunError {
    /// Whether other points of the launch will fail the same way (so there is no use trying them).
    pub fn is_fatal(&self) -> bool {
        matches!(self.failure, RunFailure::MainNotFound { .. } | RunFailure::Spawn(_))
    }

    /// What happened, in a few words (without the error output).
    pub fn failure_summary(&self) -> String {
        match &self.failure {
            RunFailure::Timeout { seconds } => format!("timed out after {seconds} s"),
            RunFailure::Exit { code: Some(c), .. } => format!("exited with code {c}"),
            RunFailure::Exit { code: None, .. } => "killed by a signal".to_string(),
            RunFailure::MainNotFound { stderr } => stderr.trim().lines().next().unwrap_or_default().to_string(),
            RunFailure::Spawn(e) => format!("cannot start: {e}"),
            RunFailure::Lost(why) => format!("lost: {why}"),
        }
    }
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "launch `{}` at {}: ", self.launch, self.point)?;
        match &self.failure {
            RunFailure::Timeout { seconds } => {
                write!(f, "timed out after {seconds} s; its process group was killed")
            }
            RunFailure::Exit { code, stderr } => {
                match code {
                    Some(c) => write!(f, "exited with code {c}")?,
                    None => write!(f, "was killed by a signal")?,
                }
                if !stderr.is_empty() {
                    write!(f, "; its error output ends with:\n{stderr}")?;
                }
                Ok(())
            }
            RunFailure::MainNotFound { stderr } => write!(f, "{}", stderr.trim()),
            RunFailure::Spawn(e) => write!(f, "cannot start: {e}"),
            RunFailure::Lost(why) => write!(f, "was lost: {why}"),
        }
    }
}

impl std::error::Error for RunError {}
