//! What a measurement tool's own probes cost, per element, and what was subtracted for it.
//!
//! The Java tool's probes calibrate their cost in every JVM and report each demand net of it
//! (`server/java/README.md`); beside each total they say what they subtracted. This is the
//! evidence of that subtraction, summed over a point's runs, and the rule that a demand below the
//! calibration's own noise cannot be told from nothing.

use serde::{Deserialize, Serialize};

/// Calibration noises (standard deviations) a net time per run must exceed to be measured: two
/// to be told from nothing at 95 %, and as many again for one fresh run's band to stay near the
/// law's own size. With two, the hotloop checksum came out at 1.26 ns net beside a noise of 1 ns
/// (±460 %) and, in a local CI, at 2.12 ns (±530 %, preliminary with nothing more to measure).
/// The noise is whole nanoseconds, so "1 ns" may be nearly two.
pub const TOO_SHORT_NOISES: f64 = 4.0;

/// The probes' cost subtracted from one element's measurements (sums over runs, in ns).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProbeCost {
    /// Runs (of a section) or executions (of a service) whose cost was subtracted.
    pub runs: u64,
    /// Their net time in all, after the subtraction.
    pub net_ns: u64,
    /// The probes' cost subtracted in all.
    pub subtracted_ns: u64,
    /// The calibration's noise per run: a net time per run below it cannot be told from nothing.
    pub noise_ns: u64,
}

impl ProbeCost {
    /// Adds another point's (or run's) costs; the noise is their mean weighted by runs (each
    /// JVM calibrates on its own; one calibration disturbed by a busy machine does not decide).
    pub fn add(&mut self, other: &ProbeCost) {
        let runs = self.runs + other.runs;
        if runs > 0 {
            let weighted = self.noise_ns as f64 * self.runs as f64 + other.noise_ns as f64 * other.runs as f64;
            self.noise_ns = (weighted / runs as f64).round() as u64;
        } else {
            self.noise_ns = self.noise_ns.max(other.noise_ns);
        }
        self.runs = runs;
        self.net_ns += other.net_ns;
        self.subtracted_ns += other.subtracted_ns;
    }

    /// Net ns per run.
    pub fn net_per_run(&self) -> f64 {
        self.net_ns as f64 / self.runs.max(1) as f64
    }

    /// Subtracted ns per run.
    pub fn subtracted_per_run(&self) -> f64 {
        self.subtracted_ns as f64 / self.runs.max(1) as f64
    }

    /// The share of the raw (probed) time that was the probes'.
    pub fn share(&self) -> f64 {
        let raw = (self.net_ns + self.subtracted_ns) as f64;
        if raw > 0.0 {
            self.subtracted_ns as f64 / raw
        } else {
            0.0
        }
    }

    /// Whether the net time per run is within [`TOO_SHORT_NOISES`] of the calibration's noise of
    /// nothing: too short to measure. The noise is the standard deviation of the calibration's
    /// batches: a net time below two of them cannot be told from zero at 95 %, and below four a
    /// fresh run's band is several times the law (see [`TOO_SHORT_NOISES`]).
    pub fn too_short(&self) -> bool {
        self.runs > 0 && self.net_per_run() < TOO_SHORT_NOISES * self.noise_ns as f64
    }

    /// One line for the evidence: `probe cost subtracted: 612 ns per run, 58 % of the raw time`.
    pub fn describe(&self) -> String {
        format!(
            "probe cost subtracted: {} ns per run, {} % of the raw time (net {} ns per run; calibration noise {} ns)",
            round3(self.subtracted_per_run()),
            round3(100.0 * self.share()),
            round3(self.net_per_run()),
            self.noise_ns
        )
    }

    /// Why an element too short to measure has no law.
    pub fn too_short_reason(&self) -> String {
        format!(
            "too short to measure: {} ns per run net of the probes' cost ({} ns subtracted), below four times the calibration's noise of {} ns (too close to nothing for a law)",
            round3(self.net_per_run()),
            round3(self.subtracted_per_run()),
            self.noise_ns
        )
    }
}

/// Three significant digits, as text.
fn round3(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let digits = 3 - 1 - x.abs().log10().floor() as i32;
    let p = 10f64.powi(digits.max(0));
    format!("{}", (x * p).round() / p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_and_too_short() {
        let mut c = ProbeCost {
            runs: 10,
            net_ns: 4000,
            subtracted_ns: 6000,
            noise_ns: 5,
        };
        assert_eq!(c.net_per_run(), 400.0);
        assert!((c.share() - 0.6).abs() < 1e-12);
        assert!(!c.too_short());
        c.add(&ProbeCost {
            runs: 990,
            net_ns: 0,
            subtracted_ns: 594_000,
            noise_ns: 8,
        });
        // Weighted by runs: (10 × 5 + 990 × 8) / 1000.
        assert_eq!(c.noise_ns, 8);
        // 4 ns per run, below a noise of 8 ns.
        assert!(c.too_short(), "{}", c.describe());
        assert!(
            c.too_short_reason().contains("4 ns per run"),
            "{}",
            c.too_short_reason()
        );
        assert!(c.describe().contains("600 ns per run"), "{}", c.describe());
        assert!(!ProbeCost::default().too_short());
        // Between one and four noises: too close to nothing for a law (1.26 ns and 2.12 ns
        // beside 1 ns came out ±460 % and ±530 %).
        let borderline = ProbeCost {
            runs: 100,
            net_ns: 126,
            subtracted_ns: 2870,
            noise_ns: 1,
        };
        assert!(borderline.too_short(), "{}", borderline.describe());
        assert!(ProbeCost {
            net_ns: 212,
            ..borderline
        }
        .too_short());
        assert!(!ProbeCost {
            net_ns: 401,
            ..borderline
        }
        .too_short());
    }
}
