//! Diagnostics: `local` needs only the file itself, `references` and `deployment` resolve across
//! files.

pub mod control_flow;
pub mod deployment;
pub mod local;
pub mod references;
pub mod resource_environment;
pub mod vocabulary;
