//! Rewrites one Java source file for Beagle's probes (see README.md, "Sections and the probe API").
//! The user's files are never touched: callers pass the text and write the result into a copy.
//!
//! Every site becomes text insertions (and, for hoisted declarations, small replacements) at byte
//! offsets of the original; they are applied in one pass, ordered so that outer sites wrap inner
//! ones, which is what lets sites nest freely (a call in a loop in a timed section in a service).

mod branch;
mod call;
mod demand;
mod edits;
mod loops;
mod service;
mod tree;

use std::ops::Range;

use crate::sections::SectionTable;
use edits::{Edits, Side};

/// One place to instrument: a byte range of the source and what to record there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    pub range: Range<usize>,
    pub kind: SiteKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SiteKind {
    /// A SEFF's method (or constructor): `enter`, one `param` per formal parameter, the body in
    /// `try { } finally { exit }`.
    Service { section: i32 },
    /// Whole statements of one block (an internal action), timed with CPU or wall time.
    Demand { section: i32, cpu: bool },
    /// A loop statement: iterations per execution.
    Loop { section: i32 },
    /// An `if` or switch statement: `branch(t)` first in each transition's code, in model order.
    Branch { transitions: Vec<i32> },
    /// The statement making an external call: `call(section)` right before it.
    Call { section: i32 },
}

impl SiteKind {
    /// Which kind wraps which when two sites have the same range.
    fn rank(&self) -> u8 {
        match self {
            SiteKind::Service { .. } => 0,
            SiteKind::Demand { .. } => 1,
            SiteKind::Loop { .. } => 2,
            SiteKind::Branch { .. } => 3,
            SiteKind::Call { .. } => 4,
        }
    }
}

/// Why a file cannot be instrumented, at a 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct InstrumentError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// The fully qualified probe class: no import is added to the user's file.
const PROBE: &str = "beagle.probe.Probe";

/// Shared state of one file's rewrite.
pub(crate) struct Ctx<'s> {
    source: &'s str,
    edits: Edits,
    prefix: String,
    counter: usize,
    /// Declarations already hoisted by an enclosing timed section (by start offset).
    hoisted: Vec<usize>,
    /// What each site covers once resolved (labels, whole statements), with its range's start.
    claimed: Vec<(Range<usize>, usize)>,
    /// Nesting key and rank of the site being rewritten.
    outer: usize,
    rank: u8,
    site_start: usize,
    site_index: usize,
}

impl<'s> Ctx<'s> {
    fn new(source: &'s str) -> Self {
        Ctx {
            source,
            edits: Edits::default(),
            prefix: prefix(source),
            counter: 0,
            hoisted: Vec::new(),
            claimed: Vec::new(),
            outer: 0,
            rank: 0,
            site_start: 0,
            site_index: 0,
        }
    }

    /// A fresh local name, unique in the file: `__beagle<K><N>` with K a kind letter.
    pub(crate) fn fresh(&mut self, kind: char) -> String {
        let name = format!("{}{kind}{}", self.prefix, self.counter);
        self.counter += 1;
        name
    }

    /// Records the code a site covers; it orders the site's edits against other sites' (larger is
    /// outer).
    pub(crate) fn claim(&mut self, covered: Range<usize>) {
        self.outer = covered.len();
        self.claimed.push((covered, self.site_start));
    }

    /// Sites must nest or be apart: a timed section cannot end inside a loop it starts outside of.
    fn check_nesting(&self) -> Result<(), InstrumentError> {
        for (i, (a, _)) in self.claimed.iter().enumerate() {
            for (b, at) in &self.claimed[i + 1..] {
                let apart = a.end <= b.start || b.end <= a.start;
                let nested = (a.start <= b.start && b.end <= a.end) || (b.start <= a.start && a.end <= b.end);
                if !apart && !nested {
                    return Err(self.error(*at, "the site overlaps another without nesting in it"));
                }
            }
        }
        Ok(())
    }

    pub(crate) fn insert(&mut self, at: usize, text: String, side: Side) {
        self.edits
            .push(at, at, text, side, (self.outer, self.rank, self.site_index));
    }

    /// An insertion that belongs to a node inside the site (an `if` of a chain), nested inside
    /// every site that wraps that node.
    pub(crate) fn insert_within(&mut self, at: usize, text: String, side: Side, node: Range<usize>) {
        self.edits
            .push(at, at, text, side, (node.len(), u8::MAX, self.site_index));
    }

    pub(crate) fn replace(&mut self, range: Range<usize>, text: String) {
        let key = (self.outer, self.rank, self.site_index);
        self.edits.push(range.start, range.end, text, Side::Replace, key);
    }

    pub(crate) fn text(&self, node: tree_sitter::Node) -> &'s str {
        &self.source[node.byte_range()]
    }

    pub(crate) fn error(&self, offset: usize, message: impl Into<String>) -> InstrumentError {
        let (line, column) = tree::line_column(self.source, offset);
        InstrumentError {
            line,
            column,
            message: message.into(),
        }
    }
}

/// A prefix for inserted names that no identifier of the file contains.
fn prefix(source: &str) -> String {
    if !source.contains("__beagle") {
        return "__beagle".to_string();
    }
    (0..)
        .map(|k| format!("__beagle{k}_"))
        .find(|p| !source.contains(p.as_str()))
        .expect("some prefix is free")
}

/// A site that [`instrument_report`] left alone: it covers no code that runs, so it has nothing
/// to measure, and its element is not measured (rather than measured as the probe's own cost).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    pub site: Site,
    /// Why, for "not measured: {reason}".
    pub reason: String,
}

/// What [`instrument_report`] made of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instrumented {
    pub text: String,
    /// Sites that got no probes (their elements are never observed).
    pub skipped: Vec<Skipped>,
}

/// Rewrites `source` so that the probes record every site; adds parameter slots to `table`.
/// Sites without code that runs are left out silently: [`instrument_report`] names them.
pub fn instrument(source: &str, sites: &[Site], table: &mut SectionTable) -> Result<String, InstrumentError> {
    instrument_report(source, sites, table).map(|i| i.text)
}

/// [`instrument`], also naming the sites it left out and why (a demand site whose statements are
/// only declarations without initialiser, `boolean isCopyrighted;`: timing it would time the
/// probe alone).
pub fn instrument_report(
    source: &str,
    sites: &[Site],
    table: &mut SectionTable,
) -> Result<Instrumented, InstrumentError> {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_java::LANGUAGE.into())
        .expect("tree-sitter-java matches tree-sitter");
    let parsed = parser.parse(source, None).expect("parsing without a timeout succeeds");
    let root = parsed.root_node();
    let mut ctx = Ctx::new(source);
    let mut skipped = Vec::new();
    if !sites.is_empty() {
        if let Some(at) = hides_probe(root, source) {
            return Err(ctx.error(
                at,
                "a local, parameter or field named `beagle` would hide the probe class beagle.probe.Probe",
            ));
        }
    }
    // Outer sites first, so timed sections see the declarations their enclosing ones hoisted.
    let mut order: Vec<&Site> = sites.iter().collect();
    order.sort_by_key(|s| (std::cmp::Reverse(s.range.len()), s.kind.rank(), s.range.start));
    for (index, site) in order.into_iter().enumerate() {
        if site.range.start > site.range.end
            || site.range.end > source.len()
            || !source.is_char_boundary(site.range.start)
            || !source.is_char_boundary(site.range.end)
        {
            return Err(ctx.error(site.range.start.min(source.len()), "the range is outside the file"));
        }
        ctx.outer = site.range.len();
        ctx.site_start = site.range.start;
        ctx.site_index = index;
        ctx.rank = site.kind.rank();
        match &site.kind {
            SiteKind::Service { section } => {
                if let Some(reason) = service::instrument(&mut ctx, root, site.range.clone(), *section, table)? {
                    skipped.push(Skipped {
                        site: site.clone(),
                        reason,
                    });
                }
            }
            SiteKind::Demand { section, cpu } => {
                if let Some(reason) = demand::instrument(&mut ctx, root, site.range.clone(), *section, *cpu)? {
                    skipped.push(Skipped {
                        site: site.clone(),
                        reason,
                    });
                }
            }
            SiteKind::Loop { section } => loops::instrument(&mut ctx, root, site.range.clone(), *section)?,
            SiteKind::Branch { transitions } => branch::instrument(&mut ctx, root, site.range.clone(), transitions)?,
            SiteKind::Call { section } => call::instrument(&mut ctx, root, site.range.clone(), *section)?,
        }
    }
    ctx.check_nesting()?;
    let Ctx { edits, .. } = ctx;
    let text = edits.apply(source).map_err(|offset| {
        let (line, column) = tree::line_column(source, offset);
        InstrumentError {
            line,
            column,
            message: "sites overlap without nesting".to_string(),
        }
    })?;
    // In the callers' order, not the rewrite's.
    skipped.sort_by_key(|s| sites.iter().position(|x| *x == s.site));
    Ok(Instrumented { text, skipped })
}

/// Where a variable named `beagle` is declared: inserted code names `beagle.probe.Probe`, which
/// such a variable would shadow (JLS 6.4.2: a variable wins over a package).
fn hides_probe(root: tree_sitter::Node, source: &str) -> Option<usize> {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.kind() == "identifier" && &source[n.byte_range()] == "beagle" {
            let declares = n.parent().is_some_and(|p| {
                matches!(
                    p.kind(),
                    "variable_declarator"
                        | "formal_parameter"
                        | "catch_formal_parameter"
                        | "lambda_expression"
                        | "inferred_parameters"
                        | "enhanced_for_statement"
                        | "resource"
                )
            });
            if declares {
                return Some(n.start_byte());
            }
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    None
}

#[cfg(test)]
mod tests;
