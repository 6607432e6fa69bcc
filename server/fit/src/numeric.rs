//! Numeric helpers every part of the fitting shares (the printers, the analysers, the evidence):
//! a module of their own so that the expression tree, the printers and the regression do not
//! depend on one another in a circle.

/// `v` rounded to `digits` significant digits (the double nearest the decimal).
pub fn round_significant(v: f64, digits: usize) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    format!("{:.*e}", digits.saturating_sub(1), v).parse().unwrap_or(v)
}

/// Number of significant decimal digits of `v` in its shortest representation (0 for 0).
pub fn significant_digits(v: f64) -> usize {
    if v == 0.0 || !v.is_finite() {
        return 0;
    }
    let s = format!("{:e}", v.abs());
    let mantissa = s.split('e').next().unwrap_or("");
    mantissa.chars().filter(|c| c.is_ascii_digit()).count()
}

#[cfg(test)]
mod tests {
    use super::round_significant;

    #[test]
    fn rounds_to_significant_digits() {
        assert_eq!(round_significant(123456.0, 2), 120000.0);
        assert_eq!(round_significant(0.0012345, 3), 0.00123);
        assert_eq!(round_significant(-2.56e-7, 2), -2.6e-7);
        assert_eq!(round_significant(0.0, 3), 0.0);
        assert!(round_significant(f64::NAN, 3).is_nan());
    }
}
