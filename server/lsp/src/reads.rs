//! Read requests run on blocking threads, off the protocol's tasks. When the client cancels one
//! (`$/cancelRequest`), tower-lsp-server drops the request's future and answers "cancelled"; the
//! guard here tells the blocking work, so it stops instead of finishing for nobody.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Set when the request that started a read is gone.
#[derive(Clone, Debug, Default)]
pub struct Cancelled(Arc<AtomicBool>);

impl Cancelled {
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    fn set(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Sets the flag when dropped: with the request's future, however it ends.
struct SetOnDrop(Cancelled);

impl Drop for SetOnDrop {
    fn drop(&mut self) {
        self.0.set();
    }
}

/// Runs `f` on a blocking thread; `None` if it panicked, or if the request was cancelled before
/// it began. Long work checks the flag it is given and returns early.
pub async fn run<T: Send + 'static>(f: impl FnOnce(&Cancelled) -> T + Send + 'static) -> Option<T> {
    let cancelled = Cancelled::default();
    let guard = SetOnDrop(cancelled.clone());
    let result = tokio::task::spawn_blocking(move || (!cancelled.is_set()).then(|| f(&cancelled))).await;
    drop(guard);
    result.ok().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[tokio::test]
    async fn dropping_a_read_stops_its_blocking_work() {
        let (tx, rx) = std::sync::mpsc::channel();
        let read = run(move |cancelled| {
            let start = Instant::now();
            while !cancelled.is_set() && start.elapsed() < Duration::from_secs(20) {
                std::thread::sleep(Duration::from_millis(1));
            }
            let _ = tx.send(cancelled.is_set());
        });
        // The client cancels: the framework drops the request's future.
        let dropped = tokio::time::timeout(Duration::from_millis(100), read).await;
        assert!(dropped.is_err(), "the work runs until cancelled");
        let stopped = tokio::task::spawn_blocking(move || rx.recv_timeout(Duration::from_secs(5)))
            .await
            .unwrap();
        assert_eq!(stopped, Ok(true), "the work saw the cancellation and stopped");
    }

    #[tokio::test]
    async fn a_read_that_finishes_gives_its_result() {
        assert_eq!(run(|c| (c.is_set(), 42)).await, Some((false, 42)));
    }
}
