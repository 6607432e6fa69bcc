//! The typed view of PCM files: repositories (`types`), a system's assembly (`system`), and the
//! deployment's two files (`allocation`, `resource_environment`).

pub mod allocation;
pub(crate) mod build;
mod href;
pub mod order;
pub mod resource_environment;
pub mod system;
pub mod types;

pub use types::*;
