//! The CSV reader of the benchmark contract (`shared/bench/sr/CONTRACT.md`).
//!
//! Format: UTF-8 (a byte order mark is skipped), comma-separated, one header line, then one row
//! of numbers per line. The **last** column is the target (named `y` in the contract, any name
//! accepted); the others are inputs named by the header: `x1,x2,y` or PCM variable texts such as
//! `files.NUMBER_OF_ELEMENTS,data.BYTESIZE,y`. Fields are trimmed; blank lines are skipped;
//! CRLF line ends are accepted. Numbers are Rust `f64` syntax (`120.0`, `1e-05`, `3.5e+08`);
//! non-finite values (`nan`, `inf`) are rejected. Quoting is not supported (no name or number
//! needs it). Errors carry the 1-based line number.
//!
//! An input column named `run` is no input: it holds the run each row was measured in
//! (non-negative integers; [`Dataset::runs`]), e.g. the launch point of a Java measurement. One
//! named `row_mean` is none either: the mean of the observations the row summarises
//! ([`Dataset::means`], e.g. a JVM's mean beside its median), so a dumped dataset fits again to
//! the same level.

use crate::dataset::Dataset;
use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Error)]
pub enum CsvError {
    #[error("line {line}: {message}")]
    Syntax { line: usize, message: String },
    #[error("empty file: expected a header line such as `x1,y`")]
    Empty,
    #[error("no data rows after the header")]
    NoRows,
}

fn err(line: usize, message: impl Into<String>) -> CsvError {
    CsvError::Syntax {
        line,
        message: message.into(),
    }
}

/// Parses CSV text into a dataset (see the module documentation).
pub fn parse_csv(text: &str) -> Result<Dataset, CsvError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r')))
        .filter(|(_, l)| !l.trim().is_empty());
    let (header_line, header) = lines.next().ok_or(CsvError::Empty)?;
    let names: Vec<String> = header.split(',').map(|s| s.trim().to_string()).collect();
    if names.len() < 2 {
        return Err(err(
            header_line,
            format!("the header needs at least one input column and the target, found `{header}`"),
        ));
    }
    for (i, n) in names.iter().enumerate() {
        if n.is_empty() {
            return Err(err(header_line, format!("column {} has an empty name", i + 1)));
        }
        if names[..i].contains(n) {
            return Err(err(header_line, format!("duplicate column name `{n}`")));
        }
        if n.parse::<f64>().is_ok() {
            return Err(err(
                header_line,
                format!("the first line must be a header of column names, found the number `{n}`"),
            ));
        }
    }
    let k = names.len() - 1;
    let mut columns = vec![Vec::new(); k];
    let mut y = Vec::new();
    let mut row_lines = Vec::new();
    for (line, text) in lines {
        row_lines.push(line);
        let fields: Vec<&str> = text.split(',').collect();
        if fields.len() != names.len() {
            return Err(err(
                line,
                format!("{} fields, expected {} as in the header", fields.len(), names.len()),
            ));
        }
        for (i, f) in fields.iter().enumerate() {
            let f = f.trim();
            let v: f64 = f
                .parse()
                .map_err(|_| err(line, format!("column `{}`: `{f}` is not a number", names[i])))?;
            if !v.is_finite() {
                return Err(err(
                    line,
                    format!("column `{}`: `{f}` is not a finite number", names[i]),
                ));
            }
            if i < k {
                columns[i].push(v);
            } else {
                y.push(v);
            }
        }
    }
    if y.is_empty() {
        return Err(CsvError::NoRows);
    }
    let target = names[k].clone();
    let mut inputs = names[..k].to_vec();
    let runs = match inputs.iter().position(|n| n == "run") {
        Some(i) => {
            inputs.remove(i);
            let labels = columns.remove(i);
            if let Some(row) = labels.iter().position(|v| *v < 0.0 || v.fract() != 0.0) {
                return Err(err(
                    row_lines[row],
                    format!(
                        "column `run`: `{}` is not a run number (a non-negative integer)",
                        labels[row]
                    ),
                ));
            }
            labels.into_iter().map(|v| v as u64).collect()
        }
        None => Vec::new(),
    };
    let means = match inputs.iter().position(|n| n == "row_mean") {
        Some(i) => {
            inputs.remove(i);
            columns.remove(i)
        }
        None => Vec::new(),
    };
    let mut data = Dataset::new(inputs, columns, y).map_err(|e| err(header_line, e.to_string()))?;
    data.target_name = target;
    data.runs = runs;
    data.means = means;
    Ok(data)
}

/// The dataset as CSV that [`parse_csv`] reads back to an equal dataset: inputs, then a `run`
/// column when the rows carry runs, then the target. Numbers are written in Rust's shortest
/// round-trip form, so nothing is lost. (Where a fit surprises, its data can be fitted again
/// with `examples/debug_fit.rs`.)
pub fn to_csv(data: &Dataset) -> String {
    let mut header = data.names.clone();
    if !data.runs.is_empty() {
        header.push("run".into());
    }
    if !data.means.is_empty() {
        header.push("row_mean".into());
    }
    header.push(data.target_name.clone());
    let mut text = header.join(",") + "\n";
    for r in 0..data.len() {
        let mut row: Vec<String> = data.columns.iter().map(|c| format!("{:?}", c[r])).collect();
        if let Some(run) = data.runs.get(r) {
            row.push(run.to_string());
        }
        if let Some(mean) = data.means.get(r) {
            row.push(format!("{mean:?}"));
        }
        row.push(format!("{:?}", data.y[r]));
        text += &(row.join(",") + "\n");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contract_format() {
        let d = parse_csv("x1,x2,y\n120.0,1e-05,3.5e+08\r\n\n2.0,0.0,1.0\n").unwrap();
        assert_eq!(d.names, vec!["x1", "x2"]);
        assert_eq!(d.columns, vec![vec![120.0, 2.0], vec![1e-5, 0.0]]);
        assert_eq!(d.y, vec![3.5e8, 1.0]);
        assert_eq!(d.target_name, "y");
    }

    #[test]
    fn a_run_column_labels_the_rows() {
        let d = parse_csv("x1,run,y\n1,4,2\n2,4,3\n").unwrap();
        assert_eq!(
            (d.names.clone(), d.columns.clone(), d.runs.clone()),
            (vec!["x1".to_string()], vec![vec![1.0, 2.0]], vec![4, 4])
        );
        let e = parse_csv("x1,run,y\n1,4,2\n2,0.5,3\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 3: column `run`: `0.5` is not a run number (a non-negative integer)"
        );
    }

    #[test]
    fn a_written_dataset_reads_back_equal() {
        for text in [
            "x1,run,y\n1,4,2\n2.5e-7,0,3\n",
            "x1,run,row_mean,y\n1,4,2.5,2\n2.5e-7,0,3,3\n",
            "files.NUMBER_OF_ELEMENTS,time\n0.1,1e300\n3,-2\n",
        ] {
            let d = parse_csv(text).unwrap();
            assert_eq!(parse_csv(&to_csv(&d)).unwrap(), d, "{}", to_csv(&d));
        }
    }

    #[test]
    fn pcm_names_and_bom() {
        let d = parse_csv("\u{feff}files.NUMBER_OF_ELEMENTS, data.BYTESIZE ,time\n1,2,3\n").unwrap();
        assert_eq!(d.names, vec!["files.NUMBER_OF_ELEMENTS", "data.BYTESIZE"]);
        assert_eq!(d.target_name, "time");
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(parse_csv(""), Err(CsvError::Empty));
        assert_eq!(parse_csv("x1,y\n"), Err(CsvError::NoRows));
        let e = parse_csv("x1,y\n1,2\n\n3\n").unwrap_err();
        assert_eq!(e.to_string(), "line 4: 1 fields, expected 2 as in the header");
        let e = parse_csv("x1,y\n1,2\n1,abc\n").unwrap_err();
        assert_eq!(e.to_string(), "line 3: column `y`: `abc` is not a number");
        let e = parse_csv("x1,y\n1,nan\n").unwrap_err();
        assert_eq!(e.to_string(), "line 2: column `y`: `nan` is not a finite number");
        let e = parse_csv("1,2\n").unwrap_err();
        assert!(
            e.to_string().starts_with("line 1: the first line must be a header"),
            "{e}"
        );
        let e = parse_csv("y\n1\n").unwrap_err();
        assert!(e.to_string().starts_with("line 1: the header needs"), "{e}");
        let e = parse_csv("x1,x1,y\n1,2,3\n").unwrap_err();
        assert_eq!(e.to_string(), "line 1: duplicate column name `x1`");
    }
}
