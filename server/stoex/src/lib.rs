//! StoEx: work in progress.
