//! Typed access to the `;`-separated fields of one `.dat` line, producing errors that name the
//! field by position and by its Kieker name.

use super::error::LineError;

/// The fields of one record line after `$n`, with the record's simple class name and field names
/// for error messages.
pub(crate) struct Fields<'a> {
    pub(crate) record: &'static str,
    names: &'static [&'static str],
    values: Vec<&'a str>,
}

/// Kieker's value of an unset string.
pub const NOT_SET: &str = "<not set>";

impl<'a> Fields<'a> {
    /// `values` are the fields after `$n` (logging timestamp first); `names` the record's field
    /// names after the logging timestamp. The count must match exactly.
    pub(crate) fn new(
        record: &'static str,
        names: &'static [&'static str],
        values: Vec<&'a str>,
    ) -> Result<Self, LineError> {
        if values.len() != names.len() + 1 {
            return Err(LineError::FieldCount {
                record,
                expected: names.len() + 1,
                found: values.len(),
            });
        }
        Ok(Fields { record, names, values })
    }

    fn name(&self, i: usize) -> &'static str {
        if i == 0 {
            "loggingTimestamp"
        } else {
            self.names[i - 1]
        }
    }

    pub(crate) fn err(&self, i: usize, problem: &'static str) -> LineError {
        LineError::Field {
            index: i + 1,
            name: self.name(i),
            record: self.record,
            problem,
            value: self.values[i].to_string(),
        }
    }

    pub(crate) fn str(&self, i: usize) -> String {
        self.values[i].to_string()
    }

    /// A string field where `<not set>` means none.
    pub(crate) fn opt_str(&self, i: usize) -> Option<String> {
        (self.values[i] != NOT_SET).then(|| self.str(i))
    }

    pub(crate) fn raw(&self, i: usize) -> &'a str {
        self.values[i]
    }

    pub(crate) fn u64(&self, i: usize) -> Result<u64, LineError> {
        self.values[i]
            .parse()
            .map_err(|_| self.err(i, "not a non-negative integer"))
    }

    pub(crate) fn i64(&self, i: usize) -> Result<i64, LineError> {
        self.values[i].parse().map_err(|_| self.err(i, "not an integer"))
    }

    pub(crate) fn i32(&self, i: usize) -> Result<i32, LineError> {
        self.values[i].parse().map_err(|_| self.err(i, "not an integer"))
    }

    pub(crate) fn f64(&self, i: usize) -> Result<f64, LineError> {
        self.values[i].parse().map_err(|_| self.err(i, "not a number"))
    }

    pub(crate) fn bool(&self, i: usize) -> Result<bool, LineError> {
        match self.values[i] {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(self.err(i, "not a boolean")),
        }
    }
}
