//! `exp`, `ln` and `pow` for the search's evaluator, written branch-free so the compiler runs
//! them over several rows at once (the libm calls are scalar, one row per call: `pow` alone was
//! a fifth of the search's time). Accurate to a few ulp (the tests bound it against libm); the
//! answers the search hands on are re-evaluated with libm ([`crate::eval`]), so no printed law
//! depends on these last bits.
//!
//! The algorithms are the textbook ones: `exp` reduces `x = n·ln 2 + r` with `|r| ≤ ln 2 / 2`
//! and sums the Taylor series of `e^r` to degree 13 (remainder below 1e-17); `ln` splits
//! `x = m·2^e` with `m` in `[√½, √2)` and sums `ln m = 2·atanh(s)`, `s = (m - 1)/(m + 1)`, to
//! `s^23`, arranged as fdlibm does so that `m - 1` leads. Integer conversions use the `1.5·2^52` trick, which needs no integer-to-float
//! instruction (AVX2 has none for 64-bit integers).

/// `ln 2` split so that `n · LN2_HI` is exact for `|n| < 2^11`.
const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
const LOG2_E: f64 = std::f64::consts::LOG2_E;
/// `1.5 · 2^52`: adding it rounds to an integer held in the low bits of the mantissa.
const ROUND: f64 = 6_755_399_441_055_744.0;

/// `2^k` for an integer `k` in `-1022..=1023` given as a float.
#[inline(always)]
fn pow2(k: f64) -> f64 {
    let bits = (k + ROUND).to_bits().wrapping_sub(ROUND.to_bits());
    f64::from_bits(bits.wrapping_add(1023) << 52)
}

/// `e^x`.
#[inline(always)]
pub fn exp(x: f64) -> f64 {
    // Beyond these bounds the result is 0 or infinite; clamping keeps `n` where `2^n` is
    // representable in two factors. NaN stays NaN.
    let c = x.clamp(-746.0, 710.0);
    let n = (c * LOG2_E + ROUND) - ROUND;
    let r = (c - n * LN2_HI) - n * LN2_LO;
    // Taylor series of e^r to degree 13, in Estrin's scheme: pairs, then pairs of pairs, so the
    // dependency chain is four steps long instead of Horner's thirteen.
    let c = &INV_FACTORIAL;
    let (r2, r4) = (r * r, r * r * (r * r));
    let r8 = r4 * r4;
    let q = |k: usize| c[k] + c[k + 1] * r;
    let s0 = q(0) + q(2) * r2;
    let s1 = q(4) + q(6) * r2;
    let s2 = q(8) + q(10) * r2;
    let s3 = q(12);
    let p = (s0 + s1 * r4) + (s2 + s3 * r4) * r8;
    // 2^n as 2^h · 2^(n-h), each factor a normal number for n in -1077..=1025.
    let h = ((n * 0.5) + ROUND) - ROUND;
    let h = if h * 2.0 > n { h - 1.0 } else { h };
    p * pow2(h) * pow2(n - h)
}

/// `1/k!` for `k` in `0..=13`.
const INV_FACTORIAL: [f64; 14] = [
    1.0,
    1.0,
    1.0 / 2.0,
    1.0 / 6.0,
    1.0 / 24.0,
    1.0 / 120.0,
    1.0 / 720.0,
    1.0 / 5_040.0,
    1.0 / 40_320.0,
    1.0 / 362_880.0,
    1.0 / 3_628_800.0,
    1.0 / 39_916_800.0,
    1.0 / 479_001_600.0,
    1.0 / 6_227_020_800.0,
];

/// Smallest positive normal `f64`.
const MIN_NORMAL: f64 = f64::MIN_POSITIVE;

/// Natural logarithm.
#[inline(always)]
pub fn ln(x: f64) -> f64 {
    // Subnormals are scaled into the normal range first (2^54), and the exponent corrected.
    let subnormal = x < MIN_NORMAL;
    let y = if subnormal { x * 18_014_398_509_481_984.0 } else { x };
    let bits = y.to_bits();
    // The biased exponent as a float: OR-ing it into the mantissa of 2^52 makes 2^52 + e.
    let biased = f64::from_bits(0x4330_0000_0000_0000 | (bits >> 52) & 0x7ff) - 4_503_599_627_370_496.0;
    let m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    let high = m > std::f64::consts::SQRT_2;
    let m = if high { m * 0.5 } else { m };
    let e = biased - 1023.0 + if high { 1.0 } else { 0.0 } - if subnormal { 54.0 } else { 0.0 };
    let f = m - 1.0;
    let s = f / (2.0 + f);
    let z = s * s;
    // ln(1 + f) = 2·atanh(s) = f - f²/2 + s·(f²/2 + R), R = 2z/3 + 2z²/5 + … + 2z^11/23: the
    // exact `f` leads and the rest is a small correction, so the rounding stays below an ulp
    // near 1.
    // R in Estrin's scheme over z, as for exp.
    let o = &ODD_RECIPROCALS;
    let (z2, z4) = (z * z, z * z * (z * z));
    let z8 = z4 * z4;
    let q = |k: usize| o[k] + o[k + 1] * z;
    let t0 = q(1) + q(3) * z2;
    let t1 = q(5) + q(7) * z2;
    let t2 = q(9) + o[11] * z2;
    let r = 2.0 * z * ((t0 + t1 * z4) + t2 * z8);
    let hfsq = 0.5 * f * f;
    let v = e * LN2_HI - ((hfsq - (s * (hfsq + r) + e * LN2_LO)) - f);
    if x > 0.0 && x < f64::INFINITY {
        v
    } else if x == 0.0 {
        f64::NEG_INFINITY
    } else if x == f64::INFINITY {
        f64::INFINITY
    } else {
        f64::NAN
    }
}

/// `1/(2k+1)` for `k` in `0..=11`.
const ODD_RECIPROCALS: [f64; 12] = [
    1.0,
    1.0 / 3.0,
    1.0 / 5.0,
    1.0 / 7.0,
    1.0 / 9.0,
    1.0 / 11.0,
    1.0 / 13.0,
    1.0 / 15.0,
    1.0 / 17.0,
    1.0 / 19.0,
    1.0 / 21.0,
    1.0 / 23.0,
];

/// Whether `a^b` is `e^{b·ln a}` (`a` positive and finite, `b` finite); libm's `pow` answers the
/// rest (negative bases with integer exponents, `1^∞`, zero and infinite bases).
#[inline(always)]
fn regular(a: f64, b: f64) -> bool {
    a > 0.0 && a < f64::INFINITY && b.abs() < f64::INFINITY
}

/// `a^b` where [`regular`], with [`crate::expr::pow`]'s exact squares and cubes. Every branch
/// is computed and one kept, so loops over it vectorise.
#[inline(always)]
fn pow_positive(a: f64, b: f64) -> f64 {
    let general = exp(b * ln(a));
    let square = a * a;
    let cube = square * a;
    if b == 2.0 {
        square
    } else if b == 3.0 {
        cube
    } else {
        general
    }
}

/// `dst[k] = e^{src[k]}`.
#[inline(always)]
pub fn exp_into(dst: &mut [f64], src: &[f64]) {
    dst.iter_mut().zip(src).for_each(|(d, x)| *d = exp(*x));
}

/// `dst[k] = ln src[k]`.
#[inline(always)]
pub fn ln_into(dst: &mut [f64], src: &[f64]) {
    dst.iter_mut().zip(src).for_each(|(d, x)| *d = ln(*x));
}

/// `dst[k] = a[k]^b[k]` ([`crate::expr::pow`]): the rows with a positive finite base in one
/// vectorised pass, the others (negative bases with integer exponents, zero, infinities) by
/// libm after it ([`regular`]).
#[inline(always)]
pub fn pow_into(dst: &mut [f64], a: &[f64], b: &[f64]) {
    let mut other = false;
    for ((d, x), y) in dst.iter_mut().zip(a).zip(b) {
        other |= !regular(*x, *y);
        *d = pow_positive(*x, *y);
    }
    if other {
        for ((d, x), y) in dst.iter_mut().zip(a).zip(b) {
            if !regular(*x, *y) {
                *d = crate::expr::pow(*x, *y);
            }
        }
    }
}

/// The adjoints of `v = a^b` given the output's `g`: `da = g·b·a^(b-1)`, `db = g·v·ln a` (0
/// where `b` or `v` is 0). Where [`regular`], `a^(b-1)` is `v/a` (no second power) in one
/// vectorised pass; the other rows by libm after it.
#[inline(always)]
pub fn pow_adjoints(g: &[f64], a: &[f64], b: &[f64], v: &[f64], da: &mut [f64], db: &mut [f64]) {
    let m = g.len();
    let (a, b, v, da, db) = (&a[..m], &b[..m], &v[..m], &mut da[..m], &mut db[..m]);
    let mut other = false;
    for k in 0..m {
        other |= !regular(a[k], b[k]);
        let dx = b[k] * v[k] / a[k];
        let dy = v[k] * ln(a[k]);
        da[k] = g[k] * if b[k] == 0.0 { 0.0 } else { dx };
        db[k] = g[k] * if v[k] == 0.0 { 0.0 } else { dy };
    }
    if other {
        for k in 0..m {
            if !regular(a[k], b[k]) {
                let dx = if b[k] == 0.0 {
                    0.0
                } else {
                    b[k] * crate::expr::pow(a[k], b[k] - 1.0)
                };
                let dy = if v[k] == 0.0 { 0.0 } else { v[k] * a[k].ln() };
                da[k] = g[k] * dx;
                db[k] = g[k] * dy;
            }
        }
    }
}

/// [`pow_into`] of one value.
#[inline(always)]
pub fn pow(a: f64, b: f64) -> f64 {
    if regular(a, b) {
        pow_positive(a, b)
    } else {
        crate::expr::pow(a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Distance in units in the last place.
    fn ulps(a: f64, b: f64) -> u64 {
        if a == b || (a.is_nan() && b.is_nan()) {
            return 0;
        }
        let key = |v: f64| {
            let i = v.to_bits() as i64;
            if i < 0 {
                i64::MIN - i
            } else {
                i
            }
        };
        key(a).abs_diff(key(b))
    }

    #[test]
    fn exp_and_ln_are_within_two_ulp_of_libm_over_their_whole_range() {
        let mut rng = ChaCha8Rng::seed_from_u64(21);
        let mut worst = (0, 0);
        for _ in 0..200_000 {
            let x: f64 = rng.random_range(-745.0..709.7);
            worst.0 = worst.0.max(ulps(exp(x), x.exp()));
            // Logarithms over every binade, subnormals included.
            let y = f64::from_bits(rng.random_range(1..f64::INFINITY.to_bits()));
            worst.1 = worst.1.max(ulps(ln(y), y.ln()));
        }
        // Near 1, where ln is smallest.
        for _ in 0..50_000 {
            let y: f64 = rng.random_range(0.99..1.01);
            worst.1 = worst.1.max(ulps(ln(y), y.ln()));
        }
        // Results in the subnormal range lose relative precision in any implementation.
        assert!(worst.0 <= 2 && worst.1 <= 2, "worst ulps (exp, ln): {worst:?}");
    }

    #[test]
    fn special_values_are_libms() {
        for x in [
            0.0,
            -0.0,
            -1.0,
            1e-320,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            710.0,
            -746.0,
            -1e300,
            1e300,
        ] {
            assert_eq!(ulps(exp(x), x.exp()), 0, "exp({x}) = {} vs {}", exp(x), x.exp());
            assert_eq!(ulps(ln(x), x.ln()), 0, "ln({x}) = {} vs {}", ln(x), x.ln());
        }
        // 1^∞ and friends are libm's.
        for (a, b) in [
            (1.0, f64::INFINITY),
            (1.0, f64::NAN),
            (0.0, 2.5),
            (0.0, -2.5),
            (-2.0, 3.0),
            (-2.0, 0.5),
        ] {
            let (got, want) = (pow(a, b), crate::expr::pow(a, b));
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "{a}^{b}"
            );
        }
    }

    #[test]
    fn pow_agrees_with_libm_to_the_error_of_its_exponent() {
        let mut rng = ChaCha8Rng::seed_from_u64(22);
        let (mut a, mut b, mut d) = (vec![0.0; 4096], vec![0.0; 4096], vec![0.0; 4096]);
        for (x, y) in a.iter_mut().zip(&mut b) {
            *x = match rng.random_range(0..6) {
                0 => -rng.random_range(0.0..10.0f64).round(),
                1 => 0.0,
                _ => 10f64.powf(rng.random_range(-8.0..8.0)),
            };
            *y = match rng.random_range(0..4) {
                0 => rng.random_range(-4.0..4.0f64).round(),
                _ => rng.random_range(-5.0..5.0),
            };
        }
        pow_into(&mut d, &a, &b);
        for k in 0..a.len() {
            let want = crate::expr::pow(a[k], b[k]);
            assert_eq!(d[k].to_bits(), pow(a[k], b[k]).to_bits());
            if !regular(a[k], b[k]) || want.is_nan() || want.is_infinite() || want == 0.0 {
                assert!(
                    d[k].to_bits() == want.to_bits() || (d[k].is_nan() && want.is_nan()),
                    "{}^{}",
                    a[k],
                    b[k]
                );
            } else {
                // The exponent b·ln a carries its rounding into the result's relative error.
                let bound = 8e-16 * (1.0 + (b[k] * a[k].ln()).abs());
                assert!(
                    ((d[k] - want) / want).abs() <= bound,
                    "{}^{}: {} vs {want}",
                    a[k],
                    b[k],
                    d[k]
                );
            }
        }
    }
}
