//! Small dense least squares: Householder QR on column-scaled data (the basis columns span many
//! orders of magnitude: `x^3` of a byte size is 1e26, `1/x` is 1e-9, so normal equations would
//! lose all precision).

/// Smallest `|R_kk|` (columns scaled to unit norm) accepted before the columns are called
/// linearly dependent.
pub const RANK_TOLERANCE: f64 = 1e-10;

/// Solves `min ||A c - b||` for `A` given by columns (all of length `b.len()`), by Householder QR.
/// `None` when a column is zero or the columns are (numerically) linearly dependent, or when there
/// are more columns than rows. The inputs are consumed as workspace.
pub fn lstsq(mut cols: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let p = cols.len();
    let n = b.len();
    if p == 0 {
        return Some(Vec::new());
    }
    if p > n {
        return None;
    }
    let mut norms = Vec::with_capacity(p);
    for c in &mut cols {
        debug_assert_eq!(c.len(), n);
        let norm = c.iter().map(|v| v * v).sum::<f64>().sqrt();
        if norm == 0.0 || !norm.is_finite() {
            return None;
        }
        c.iter_mut().for_each(|v| *v /= norm);
        norms.push(norm);
    }
    let mut diag = vec![0.0; p];
    for k in 0..p {
        let (head, tail) = cols.split_at_mut(k + 1);
        let v = &mut head[k][k..];
        let xnorm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if xnorm < RANK_TOLERANCE {
            return None;
        }
        let alpha = if v[0] > 0.0 { -xnorm } else { xnorm };
        v[0] -= alpha;
        let vnorm2: f64 = v.iter().map(|x| x * x).sum();
        if vnorm2 > 0.0 {
            for c in tail.iter_mut() {
                let seg = &mut c[k..];
                let f = 2.0 * dot(v, seg) / vnorm2;
                seg.iter_mut().zip(v.iter()).for_each(|(s, vi)| *s -= f * vi);
            }
            let seg = &mut b[k..];
            let f = 2.0 * dot(v, seg) / vnorm2;
            seg.iter_mut().zip(v.iter()).for_each(|(s, vi)| *s -= f * vi);
        }
        diag[k] = alpha;
    }
    // Back substitution: R c = Q^T b, R[i][j] = cols[j][i] for j > i.
    let mut c = vec![0.0; p];
    for i in (0..p).rev() {
        let mut s = b[i];
        for (j, cj) in c.iter().enumerate().skip(i + 1) {
            s -= cols[j][i] * cj;
        }
        c[i] = s / diag[i];
    }
    let out: Vec<f64> = c.iter().zip(&norms).map(|(ci, ni)| ci / ni).collect();
    out.iter().all(|v| v.is_finite()).then_some(out)
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_exact_and_overdetermined_systems() {
        // y = 3 + 2x over badly scaled columns.
        let x: Vec<f64> = (1..=20).map(|i| f64::from(i) * 1e6).collect();
        let y: Vec<f64> = x.iter().map(|v| 3.0 + 2.0 * v).collect();
        let c = lstsq(vec![vec![1.0; 20], x.clone()], y).unwrap();
        assert!((c[0] - 3.0).abs() < 1e-6 && (c[1] - 2.0).abs() < 1e-12, "{c:?}");
        // Least squares of 1, 2, 4 on a constant: the mean.
        let c = lstsq(vec![vec![1.0; 3]], vec![1.0, 2.0, 4.0]).unwrap();
        assert!((c[0] - 7.0 / 3.0).abs() < 1e-12);
        // Cubic with huge values.
        let x: Vec<f64> = (1..=30).map(|i| f64::from(i) * 1000.0).collect();
        let cols = vec![
            vec![1.0; 30],
            x.clone(),
            x.iter().map(|v| v * v).collect(),
            x.iter().map(|v| v * v * v).collect(),
        ];
        let y: Vec<f64> = x.iter().map(|v| 5.0 + 1.5e-6 * v * v * v).collect();
        let c = lstsq(cols, y).unwrap();
        assert!((c[3] - 1.5e-6).abs() < 1e-15, "{c:?}");
    }

    #[test]
    fn dependent_columns_are_refused() {
        let x = vec![1.0, 2.0, 3.0];
        assert!(lstsq(
            vec![x.clone(), x.iter().map(|v| 2.0 * v).collect()],
            vec![1.0, 2.0, 3.0]
        )
        .is_none());
        assert!(lstsq(vec![vec![0.0; 3]], vec![1.0, 2.0, 3.0]).is_none());
        assert!(lstsq(vec![vec![1.0], vec![2.0]], vec![1.0]).is_none());
    }
}
