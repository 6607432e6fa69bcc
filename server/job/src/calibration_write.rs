//! Writing each calibrated SEFF's factor into its repository (`beagle validate
//! --write-calibration`): every demand of the internal actions its prediction is composed of
//! ([`beagle_analysis::validation::Calibration::actions`]) multiplied by the factor, carried into
//! the law's own constants where its form allows (`2·x + 3` times 1.1 is `2.2·x + 3.3`). Each file
//! is edited as a whole and written atomically.

use crate::atomic::replace_if_unchanged;
use crate::error::JobError;
use crate::validation::ValidationReport;
use beagle_pcm::ModelFile;
use beagle_stoex::{BinaryOp, Expr, ExprKind, UnaryOp};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Significant digits of a scaled constant: the factor itself is known to a few per cent.
const DIGITS: i32 = 4;

/// Writes the factor of every calibrated service that can take it; one line per SEFF.
pub fn write_calibration(report: &ValidationReport) -> Result<Vec<String>, JobError> {
    let mut by_file: BTreeMap<PathBuf, Vec<_>> = BTreeMap::new();
    for s in &report.services {
        if let Some(c) = &s.calibration {
            by_file.entry(PathBuf::from(&s.repository)).or_default().push((s, c));
        }
    }
    let mut written = Vec::new();
    for (path, services) in by_file {
        let original = std::fs::read(&path).map_err(JobError::unreadable(&path))?;
        let mut file = ModelFile::from_bytes(path.clone(), original.clone());
        for (s, c) in services {
            if let Some(why) = &c.not_writable {
                written.push(format!("{}: {} not calibrated: {why}", path.display(), s.service));
                continue;
            }
            let mut changed = 0;
            for action in &c.actions {
                for (resource, old) in demands(&file, action) {
                    let new = scaled_text(&old, c.factor);
                    let edits = (file.set_resource_demand(action, &resource, &new)).map_err(|e| JobError::Edit {
                        path: path.clone(),
                        message: format!("{action}: {e}"),
                    })?;
                    let text = beagle_pcm::edit::apply(file.text(), &edits).map_err(|e| JobError::Edit {
                        path: path.clone(),
                        message: format!("{action}: {e}"),
                    })?;
                    file = ModelFile::from_bytes(path.clone(), text.into_bytes());
                    changed += 1;
                }
            }
            written.push(format!(
                "{}: {}: {changed} demands × {:.3} (calibrated against the plain build)",
                path.display(),
                s.service,
                c.factor
            ));
        }
        replace_if_unchanged(&path, &original, file.text())?;
    }
    Ok(written)
}

/// The demands of internal action `id`: (resource type id, specification text).
fn demands(file: &ModelFile, id: &str) -> Vec<(String, String)> {
    let Some(action) = (file.repository.as_ref()).and_then(|r| r.actions().find(|a| a.id.as_deref() == Some(id)))
    else {
        return Vec::new();
    };
    (action.resource_demands.iter())
        .filter_map(|d| {
            let resource = d.resource_type.as_ref()?.target.fragment().to_string();
            let spec = file.specifications[d.specification?].text.clone();
            Some((resource, spec))
        })
        .collect()
}

/// `factor · spec` as StoEx text; a specification that does not parse is wrapped whole.
pub(crate) fn scaled_text(spec: &str, factor: f64) -> String {
    match beagle_stoex::parse(spec) {
        Ok(e) => beagle_stoex::print(&scaled(&e, factor)),
        Err(_) => format!("{} * ({spec})", number(factor)),
    }
}

fn number(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return beagle_stoex::format_double(v);
    }
    let scale = 10f64.powi(DIGITS - 1 - v.abs().log10().floor() as i32);
    beagle_stoex::format_double((v * scale).round() / scale)
}

fn constant(e: &Expr) -> Option<f64> {
    match e.kind {
        ExprKind::Int(i) => Some(i as f64),
        ExprKind::Double(d) => Some(d),
        _ => None,
    }
}

fn with(e: &Expr, kind: ExprKind) -> Expr {
    Expr { kind, span: e.span }
}

/// `s·e`, the factor carried into the constants of a sum's terms, a product's constant factor,
/// a condition's two sides; anything else multiplied whole.
fn scaled(e: &Expr, s: f64) -> Expr {
    let boxed = |x: Expr| Box::new(x);
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Double(_) => {
            with(e, ExprKind::Double(constant(e).unwrap_or_default() * s)).map_number()
        }
        ExprKind::Binary {
            op: op @ (BinaryOp::Add | BinaryOp::Sub),
            lhs,
            rhs,
        } => with(
            e,
            ExprKind::Binary {
                op: *op,
                lhs: boxed(scaled(lhs, s)),
                rhs: boxed(scaled(rhs, s)),
            },
        ),
        ExprKind::Binary {
            op: op @ (BinaryOp::Mul | BinaryOp::Div),
            lhs,
            rhs,
        } if constant(lhs).is_some() => with(
            e,
            ExprKind::Binary {
                op: *op,
                lhs: boxed(scaled(lhs, s)),
                rhs: rhs.clone(),
            },
        ),
        ExprKind::Binary {
            op: BinaryOp::Mul,
            lhs,
            rhs,
        } if constant(rhs).is_some() => with(
            e,
            ExprKind::Binary {
                op: BinaryOp::Mul,
                lhs: lhs.clone(),
                rhs: boxed(scaled(rhs, s)),
            },
        ),
        ExprKind::Unary { op: UnaryOp::Neg, expr } => with(
            e,
            ExprKind::Unary {
                op: UnaryOp::Neg,
                expr: boxed(scaled(expr, s)),
            },
        ),
        ExprKind::IfElse { cond, then, else_ } => with(
            e,
            ExprKind::IfElse {
                cond: cond.clone(),
                then: boxed(scaled(then, s)),
                else_: boxed(scaled(else_, s)),
            },
        ),
        _ => with(
            e,
            ExprKind::Binary {
                op: BinaryOp::Mul,
                lhs: boxed(with(e, ExprKind::Double(s)).map_number()),
                rhs: Box::new(e.clone()),
            },
        ),
    }
}

trait RoundNumber {
    fn map_number(self) -> Self;
}

impl RoundNumber for Expr {
    /// A constant rounded to [`DIGITS`] significant digits (the printer writes it back whole).
    fn map_number(self) -> Self {
        match self.kind {
            ExprKind::Double(d) => {
                let rounded: f64 = number(d).parse().unwrap_or(d);
                Expr {
                    kind: ExprKind::Double(rounded),
                    span: self.span,
                }
            }
            _ => self,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_factor_goes_into_the_laws_constants() {
        assert_eq!(scaled_text("0.5", 0.9), "0.45");
        assert_eq!(scaled_text("1.1E-5 * data.BYTESIZE", 0.9), "9.9E-6 * data.BYTESIZE");
        assert_eq!(scaled_text("2 * n.VALUE + 3", 1.1), "2.2 * n.VALUE + 3.3");
        assert_eq!(
            scaled_text("n.VALUE > 10 ? 4 : 2", 0.5),
            "n.VALUE > 10 ? 2.0 : 1.0",
            "a condition's sides"
        );
        assert_eq!(scaled_text("n.VALUE ^ 2", 2.0), "2.0 * n.VALUE ^ 2");
        assert_eq!(scaled_text("1/3", 3.0), "3.0 / 3", "a quotient's constant numerator");
    }

    #[test]
    fn what_does_not_parse_is_wrapped_whole() {
        assert_eq!(scaled_text("n.VALUE +", 0.9), "0.9 * (n.VALUE +)");
    }
}
