//! Abort and pause of a running analysis. The core is synchronous: whoever drives it (the CLI, the
//! language server's background task) keeps a clone and flips the flags from another thread; the
//! loop checks them between steps, and long steps (genetic programming) check the token inside.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Cancellation: once cancelled, stays cancelled.
#[derive(Clone, Debug, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// The flag itself, for the fitting engine's `GpOptions::cancel`.
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.0.clone()
    }
}

/// Abort plus pause/continue.
#[derive(Clone, Debug, Default)]
pub struct Control {
    pub cancel: CancelToken,
    paused: Arc<AtomicBool>,
}

impl Control {
    pub fn new() -> Self {
        Self::default()
    }

    /// The loop stops before its next step until [`Control::resume`] (or an abort).
    pub fn pause(&self) {
        self.paused.store(true, Ordering::Relaxed);
    }

    pub fn resume(&self) {
        self.paused.store(false, Ordering::Relaxed);
    }

    pub fn is_paused(&self) -> bool {
        self.paused.load(Ordering::Relaxed)
    }

    pub fn abort(&self) {
        self.cancel.cancel();
    }
}
