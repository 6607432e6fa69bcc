//! The text report of `beagle analyse`: per repository a headline, then per element its
//! expression, quality and status in aligned columns. A demand's expression is in milliseconds;
//! where the model has processing rates, a line below says what it is in work units (what
//! `--write` writes).

use beagle_job::ResultRow;
use std::path::Path;

/// The text report of one repository.
pub fn print(path: &Path, rows: &[ResultRow], headline: &str) {
    println!("{}: {headline}", path.display());
    let width = |f: fn(&ResultRow) -> usize| rows.iter().map(f).max().unwrap_or(0);
    let name_w = width(|r| r.name.chars().count()).min(48);
    let expr_w = width(|r| r.expression.chars().count()).min(60);
    for r in rows {
        let what = match &r.resource {
            Some(res) => format!("{} {res}", r.kind),
            None => r.kind.to_string(),
        };
        let quality = match (r.r2, r.relative_error) {
            (Some(r2), Some(e)) => format!("R² {r2:.4}  error {:.1} %", e * 100.0),
            _ => "R² -".to_string(),
        };
        let points = r
            .evidence
            .as_ref()
            .map_or(String::new(), |e| format!("  {} points", e.points));
        let band = r
            .evidence
            .as_ref()
            .and_then(|e| e.band.filter(|_| e.relative).map(|b| format!("  ±{:.1} %", b * 100.0)))
            .unwrap_or_default();
        println!(
            "  {:<name_w$}  {:<20}  {:<expr_w$}  {quality}{band}  n={}{points}  {}{}",
            r.name,
            what,
            r.expression,
            r.samples,
            r.status,
            if r.cached { " (cached)" } else { "" },
        );
        if let (Some(w), Some(resource)) = (&r.work_units, &r.resource) {
            println!("  {:<name_w$}    in work units: {}", "", w.describe(resource));
        }
        for reason in &r.reasons {
            println!("  {:<name_w$}    preliminary: {reason}", "");
        }
        if let Some(settled) = r.evidence.as_ref().and_then(|e| e.settled.as_ref()) {
            println!("  {:<name_w$}    settled: {settled}", "");
        }
        if let Some(e) = &r.evidence {
            for note in &e.notes {
                println!("  {:<name_w$}    note: {note}", "");
            }
        }
    }
}
