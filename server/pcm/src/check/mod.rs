//! Diagnostics: `local` needs only the file itself, `references` resolves across files.

pub mod control_flow;
pub mod local;
pub mod references;
