//! PCM: work in progress.
