//! Automatic mapping (to come).
