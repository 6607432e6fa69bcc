//! Beagle's editor features as plain data and functions: document and workspace symbols,
//! go-to-definition, find-references, "what is under the cursor", hovers, SEFF graphs (for
//! diagrams) and each SEFF's unmodelled time over PCM files.
//!
//! Everything here works on byte offsets into a file's text and returns [`Span`]s (byte ranges):
//! this crate knows no LSP, no JSON-RPC and no async runtime (rust-analyzer's `ide` crate style).
//! The language server converts offsets to and from its UTF-16 positions and turns these values
//! into protocol messages; tests and other front ends use them directly.
//!
//! Every function accepts broken and partial files (an editor's text mid-typing): it returns what
//! the readable part of the file gives, possibly nothing, and never panics.

mod components;
mod counts;
mod graph;
mod hover;
mod navigate;
mod results;
mod symbols;
mod text;
mod typed;
mod unmodelled;

pub use beagle_pcm::Span;
pub use components::{repository_overview, ComponentBox, RepositoryOverview, RoleEnd, SeffEntry};
pub use counts::counts_section;
pub use graph::{seff_graph, seff_graphs, Body, Call, Flow, GraphNode, GraphResult, GraphSpec, Provider, SeffGraph};
pub use hover::{hover, hover_with, HoverText};
pub use navigate::{definition, element_at, reference_at, references, ElementAt, ElementAtKind, Location};
pub use results::{element_results, reused_results, ElementResult, PointRow, ResultStatus};
pub use symbols::{document_symbols, workspace_symbols, FlatSymbol, Symbol, SymbolKind, MAX_WORKSPACE_SYMBOLS};
pub use text::format_number;
pub use unmodelled::{unmodelled_time, unmodelled_within, UnmodelledTime};
