//! Palladio Component Model files, read losslessly.
//!
//! - [`xml`]: a lossless element tree; every element and attribute has a byte span.
//! - [`ModelFile`]: one file: tree, index (ids, references, StoEx specifications), typed view
//!   ([`model`]) and the diagnostics that need no other file.
//! - [`ModelSet`]: files that refer to each other, with Palladio's default models bundled.
//! - [`edit`]: minimal text edits that set specifications, creating missing elements
//!   ([`edit_unmodelled`]: a SEFF's unmodelled time; [`edit_parameter`]: a signature's new parameter).
//! - [`Deployment`]: an allocation with its system and resource environment: where each
//!   component runs and at what processing rates.
//!
//! Plain data and functions: no async, no LSP.

pub mod beside;
pub mod check;
pub mod deployment;
pub mod diagnostic;
pub mod edit;
pub mod edit_parameter;
pub mod edit_unmodelled;
pub mod file;
pub mod index;
mod load;
pub mod model;
pub mod namespaces;
pub mod reference;
pub mod span;
pub mod vocabulary;
pub mod workspace;
pub mod xml;

pub use deployment::{Deployment, TimeUnit};
pub use diagnostic::{Diagnostic, Severity};
pub use file::{FileKind, ModelFile, SpecError, Specification};
pub use span::{LineCol, Span};
pub use workspace::{FileId, ModelSet};
pub use xml::{NodeId, XmlTree};
