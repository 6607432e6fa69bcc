//! What the points' means said about a result's published level: the verdict of
//! [`crate::level`], kept here because [`crate::Evidence`] carries it.

/// What the means said about a result's level (in [`crate::Evidence::level`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    /// The robust fit's level: a constant's value, else the law's average over the points.
    pub robust: f64,
    /// The means' level, alike (the fenced mean of a constant; the means' average over the
    /// points).
    pub mean: f64,
    /// p-value of the departure (the smaller of the tests, times their number: Bonferroni).
    pub p: f64,
    /// Whether the published value was set from the means.
    pub from_means: bool,
    /// How, when it was.
    pub how: Refit,
}

/// How a published value was set from the means.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Refit {
    /// It was not.
    Kept,
    /// A constant became the fenced mean.
    Mean,
    /// The law's linear coefficients (this many) were refitted to the points' means.
    Linear(usize),
    /// The law was multiplied by this factor.
    Factor(f64),
}

impl Level {
    /// `mean / robust`: how far a median-level model would undercount (a ratio beyond noise
    /// marks a wide, skewed spread).
    pub fn ratio(&self) -> f64 {
        self.mean / self.robust
    }
}
