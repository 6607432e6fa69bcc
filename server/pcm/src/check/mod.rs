//! Diagnostics: `local` needs only the file itself, `references`, `deployment` and `providers`
//! (a call into an interface no component provides) resolve across files.

pub mod control_flow;
pub mod deployment;
pub mod local;
pub mod providers;
pub mod references;
pub mod resource_environment;
pub mod vocabulary;
