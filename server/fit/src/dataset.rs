//! A dataset: `k` named input columns and the measured target `y`.

use thiserror::Error;

/// Input columns (characterised parameters of each call) and the measured target.
#[derive(Clone, Debug, PartialEq)]
pub struct Dataset {
    /// Column names: `x1..xk` or PCM variable texts such as `files.NUMBER_OF_ELEMENTS`.
    pub names: Vec<String>,
    /// `columns[i][row]`: value of input `i` in a row.
    pub columns: Vec<Vec<f64>>,
    /// The target of each row.
    pub y: Vec<f64>,
    /// Name of the target column (`y` in the benchmark contract).
    pub target_name: String,
    /// The run each row was measured in (for Java: its launch point), or empty when every row
    /// is a run of its own. Rows of one run share its context (a JVM's JIT and heap state, a
    /// workload's mix), so a run's points are held out together ([`crate::evidence::holdout`])
    /// and count as one piece of evidence for a law's complexity.
    pub runs: Vec<u64>,
    /// The mean of the observations each row summarises, or empty when every row is one
    /// observation (its own mean). For Java a row is one JVM's median at a point, robust for
    /// fitting the law's form; its mean is what sets the published level
    /// ([`crate::level`]): a simulator adds means.
    pub means: Vec<f64>,
    /// The measurement's resolution, in the target's unit: a difference smaller than this cannot
    /// be told from the way it was measured (for Java: the probes' cost subtracted per run, which
    /// the code inlined around a short section can make a little more or less). 0: exact. A
    /// relative error is taken to at least this much ([`crate::ErrorScale::RelativeAbove`]): a
    /// 13 ns write net of a 150 ns probe is no 1,000 % miss of a law that says 150 ns.
    pub resolution: f64,
}

/// A dataset that cannot be built.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum DatasetError {
    #[error("column `{name}` has {found} values, expected {expected}")]
    Length {
        name: String,
        found: usize,
        expected: usize,
    },
    #[error("{count} names for {columns} input columns")]
    Names { count: usize, columns: usize },
    #[error("row {row} of column `{name}` is not a finite number ({value})")]
    NotFinite { name: String, row: usize, value: f64 },
    #[error("duplicate column name `{0}`")]
    Duplicate(String),
}

impl Dataset {
    /// Builds a dataset, checking lengths, names and that every value is finite.
    pub fn new(names: Vec<String>, columns: Vec<Vec<f64>>, y: Vec<f64>) -> Result<Dataset, DatasetError> {
        if names.len() != columns.len() {
            return Err(DatasetError::Names {
                count: names.len(),
                columns: columns.len(),
            });
        }
        for (i, n) in names.iter().enumerate() {
            if names[..i].contains(n) {
                return Err(DatasetError::Duplicate(n.clone()));
            }
        }
        let check = |name: &str, values: &[f64]| -> Result<(), DatasetError> {
            if values.len() != y.len() {
                return Err(DatasetError::Length {
                    name: name.to_string(),
                    found: values.len(),
                    expected: y.len(),
                });
            }
            match values.iter().position(|v| !v.is_finite()) {
                Some(row) => Err(DatasetError::NotFinite {
                    name: name.to_string(),
                    row,
                    value: values[row],
                }),
                None => Ok(()),
            }
        };
        for (name, c) in names.iter().zip(&columns) {
            check(name, c)?;
        }
        check("y", &y)?;
        Ok(Dataset {
            names,
            columns,
            y,
            target_name: "y".to_string(),
            runs: Vec::new(),
            means: Vec::new(),
            resolution: 0.0,
        })
    }

    /// The same rows measured at `resolution` ([`Dataset::resolution`]; finite, not negative).
    pub fn with_resolution(mut self, resolution: f64) -> Dataset {
        if resolution.is_finite() && resolution > 0.0 {
            self.resolution = resolution;
        }
        self
    }

    /// The same rows with the run of each ([`Dataset::runs`]).
    pub fn with_runs(mut self, runs: Vec<u64>) -> Result<Dataset, DatasetError> {
        if runs.len() != self.y.len() {
            return Err(DatasetError::Length {
                name: "runs".to_string(),
                found: runs.len(),
                expected: self.y.len(),
            });
        }
        self.runs = runs;
        Ok(self)
    }

    /// The same rows with the mean each summarises ([`Dataset::means`]; finite values).
    pub fn with_means(mut self, means: Vec<f64>) -> Result<Dataset, DatasetError> {
        if means.len() != self.y.len() {
            return Err(DatasetError::Length {
                name: "means".to_string(),
                found: means.len(),
                expected: self.y.len(),
            });
        }
        if let Some(row) = means.iter().position(|v| !v.is_finite()) {
            return Err(DatasetError::NotFinite {
                name: "means".to_string(),
                row,
                value: means[row],
            });
        }
        self.means = means;
        Ok(self)
    }

    /// The mean of the observations row `row` summarises (its value when the rows carry none).
    pub fn row_mean(&self, row: usize) -> f64 {
        self.means.get(row).copied().unwrap_or(self.y[row])
    }

    /// A dataset with columns named `x1..xk`.
    pub fn unnamed(columns: Vec<Vec<f64>>, y: Vec<f64>) -> Result<Dataset, DatasetError> {
        let names = (1..=columns.len()).map(|i| format!("x{i}")).collect();
        Dataset::new(names, columns, y)
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.y.len()
    }

    pub fn is_empty(&self) -> bool {
        self.y.is_empty()
    }

    /// Number of input columns.
    pub fn k(&self) -> usize {
        self.columns.len()
    }

    /// Input values of one row.
    pub fn row(&self, row: usize) -> Vec<f64> {
        self.columns.iter().map(|c| c[row]).collect()
    }

    /// The rows `rows` only (in that order).
    pub fn subset(&self, rows: &[usize]) -> Dataset {
        Dataset {
            names: self.names.clone(),
            columns: self
                .columns
                .iter()
                .map(|c| rows.iter().map(|r| c[*r]).collect())
                .collect(),
            y: rows.iter().map(|r| self.y[*r]).collect(),
            target_name: self.target_name.clone(),
            runs: if self.runs.is_empty() {
                Vec::new()
            } else {
                rows.iter().map(|r| self.runs[*r]).collect()
            },
            means: if self.means.is_empty() {
                Vec::new()
            } else {
                rows.iter().map(|r| self.means[*r]).collect()
            },
            resolution: self.resolution,
        }
    }

    /// Whether every target value is an integer (loop counts, call counts).
    pub fn integer_target(&self) -> bool {
        !self.y.is_empty() && self.y.iter().all(|v| *v == v.trunc())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks() {
        let d = Dataset::unnamed(vec![vec![1.0, 2.0], vec![3.0, 4.0]], vec![5.0, 6.0]).unwrap();
        assert_eq!(d.names, vec!["x1", "x2"]);
        assert_eq!((d.len(), d.k()), (2, 2));
        assert_eq!(d.row(1), vec![2.0, 4.0]);
        assert_eq!(d.subset(&[1]).y, vec![6.0]);
        assert!(d.integer_target());
        assert!(matches!(
            Dataset::unnamed(vec![vec![1.0]], vec![1.0, 2.0]),
            Err(DatasetError::Length { .. })
        ));
        assert!(matches!(
            Dataset::unnamed(vec![vec![1.0, f64::NAN]], vec![1.0, 2.0]),
            Err(DatasetError::NotFinite { row: 1, .. })
        ));
        assert!(matches!(
            Dataset::new(vec!["a".into(), "a".into()], vec![vec![], vec![]], vec![]),
            Err(DatasetError::Duplicate(_))
        ));
    }
}
