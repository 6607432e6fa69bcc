//! Text edits by byte offset, applied in one forward pass. Sites nest, so several insertions can
//! land on one offset; their order decides what wraps what, hence the explicit ordering keys.

use std::cmp::Ordering;

/// Where an edit sits relative to the code at its offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Side {
    /// Text closing something that ends here (inner sites close first).
    Close,
    /// Text opening something that starts here (outer sites open first).
    Open,
    /// A replacement of source text (always after the insertions at its start).
    Replace,
}

/// One edit: replace `start..end` (empty for insertions) by `text`.
#[derive(Clone, Debug)]
pub(crate) struct Edit {
    pub start: usize,
    pub end: usize,
    pub text: String,
    pub side: Side,
    /// The nesting key of the site that made it: length of its range, larger is outer.
    pub outer: usize,
    /// Tie-break between sites with equal ranges: lower ranks wrap higher ones.
    pub rank: u8,
    /// Emission order: keeps one site's edits at one offset in the order it made them.
    pub seq: usize,
}

/// Collects edits, numbering them in emission order.
#[derive(Default)]
pub(crate) struct Edits {
    edits: Vec<Edit>,
}

impl Edits {
    pub fn push(&mut self, start: usize, end: usize, text: String, side: Side, outer: usize, rank: u8) {
        let seq = self.edits.len();
        self.edits.push(Edit {
            start,
            end,
            text,
            side,
            outer,
            rank,
            seq,
        });
    }

    /// Applies every edit to `source`; `Err(offset)` when two replacements overlap or an insertion
    /// falls inside a replaced range (a bug in the caller, reported rather than producing garbage).
    pub fn apply(mut self, source: &str) -> Result<String, usize> {
        self.edits.sort_by(order);
        let extra: usize = self.edits.iter().map(|e| e.text.len()).sum();
        let mut out = String::with_capacity(source.len() + extra);
        let mut at = 0;
        for e in &self.edits {
            if e.start < at {
                return Err(e.start);
            }
            out.push_str(&source[at..e.start]);
            out.push_str(&e.text);
            at = e.end;
        }
        out.push_str(&source[at..]);
        Ok(out)
    }
}

fn order(a: &Edit, b: &Edit) -> Ordering {
    a.start
        .cmp(&b.start)
        .then(a.side.cmp(&b.side))
        .then_with(|| match a.side {
            Side::Open => b.outer.cmp(&a.outer).then(a.rank.cmp(&b.rank)).then(a.seq.cmp(&b.seq)),
            Side::Close => a.outer.cmp(&b.outer).then(b.rank.cmp(&a.rank)).then(a.seq.cmp(&b.seq)),
            Side::Replace => a.seq.cmp(&b.seq),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outer_opens_first_and_closes_last() {
        let mut e = Edits::default();
        e.push(0, 0, "[".into(), Side::Open, 1, 0);
        e.push(0, 0, "(".into(), Side::Open, 5, 0);
        e.push(1, 1, "]".into(), Side::Close, 1, 0);
        e.push(1, 1, ")".into(), Side::Close, 5, 0);
        assert_eq!(e.apply("x").unwrap(), "([x])");
    }

    #[test]
    fn closes_come_before_opens_and_replacements_last() {
        let mut e = Edits::default();
        e.push(1, 2, "B".into(), Side::Replace, 9, 0);
        e.push(1, 1, "<".into(), Side::Open, 9, 0);
        e.push(1, 1, ">".into(), Side::Close, 9, 0);
        assert_eq!(e.apply("abc").unwrap(), "a><Bc");
    }

    #[test]
    fn overlapping_replacements_are_refused() {
        let mut e = Edits::default();
        e.push(0, 2, "".into(), Side::Replace, 9, 0);
        e.push(1, 3, "".into(), Side::Replace, 9, 0);
        assert_eq!(e.apply("abcd"), Err(1));
    }
}
