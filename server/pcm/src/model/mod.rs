//! The typed view of PCM repository files.

pub(crate) mod build;
pub mod order;
pub mod system;
pub mod types;

pub use types::*;
