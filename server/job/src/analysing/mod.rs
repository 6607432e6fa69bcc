//! Analysing: the measurements analysed into expressions, repository by repository, with a
//! checkpoint in the store after every step (`analyse`). Before a result is final, what the
//! Java measuring knows is added to it: that more of the same measuring will not settle it
//! (`settled`), and which launch parameters bear on a result measured at one point
//! (`launch_hints`).
//!
//! Above measuring (it measures, or reads the measurements) and the units demands are written in;
//! below the job and the held-out validation, which analyses a copy of the repositories.

pub(crate) mod analyse;
mod launch_hints;
mod settled;
