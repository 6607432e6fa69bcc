//! Layered views of the blackboard: each tool layer gets a type with only the methods its layer may
//! use, and the wrapped blackboard is a private field, so a tool cannot reach what its layer
//! forbids: the compiler refuses it.
//!
//! - [`MeasurementToolView`]: the elements to measure; adds measurement results.
//! - [`MeasurementResultAnalyserView`]: also reads results; adds proposals.
//! - [`ProposedExpressionAnalyserView`]: also reads proposals.
//! - [`FinalJudgeView`]: sees everything.
//!
//! Every view reads and writes its own tool's private data only.
//!
//! A measurement-result analyser cannot read final expressions:
//! ```compile_fail
//! use beagle_analysis::{Blackboard, MeasurementResultAnalyserView};
//! let mut bb = Blackboard::default();
//! let view = MeasurementResultAnalyserView::new(&mut bb, "fit");
//! let _ = view.final_expressions();
//! ```
//! nor proposals:
//! ```compile_fail
//! use beagle_analysis::{Blackboard, MeasurementResultAnalyserView};
//! let mut bb = Blackboard::default();
//! let view = MeasurementResultAnalyserView::new(&mut bb, "fit");
//! let _ = view.proposals();
//! ```
//! nor get at the blackboard behind the view:
//! ```compile_fail
//! use beagle_analysis::{Blackboard, MeasurementResultAnalyserView};
//! let mut bb = Blackboard::default();
//! let view = MeasurementResultAnalyserView::new(&mut bb, "fit");
//! let _ = view.bb.final_expressions();
//! ```
//! A measurement tool cannot read results:
//! ```compile_fail
//! use beagle_analysis::{Blackboard, MeasurementToolView};
//! let mut bb = Blackboard::default();
//! let view = MeasurementToolView::new(&mut bb, "events");
//! let _ = view.results();
//! ```
//! while the layer's own methods compile:
//! ```
//! use beagle_analysis::{Blackboard, MeasurementResultAnalyserView, MeasurementToolView};
//! let mut bb = Blackboard::default();
//! let view = MeasurementToolView::new(&mut bb, "events");
//! assert!(view.to_measure().is_empty());
//! let view = MeasurementResultAnalyserView::new(&mut bb, "fit");
//! assert!(view.results().is_empty());
//! ```

use crate::blackboard::{
    Blackboard, FinalExpression, FitnessFunction, MeasurableElement, MeasurementResult, ProposedExpression,
};
use std::collections::{BTreeMap, BTreeSet};

macro_rules! common {
    () => {
        /// The elements of the analysis.
        pub fn elements(&self) -> impl Iterator<Item = &MeasurableElement> {
            self.bb.elements()
        }

        pub fn element(&self, id: &str) -> Option<&MeasurableElement> {
            self.bb.element(id)
        }

        /// Numeric constants found in and around the element's code (static analysis): candidate
        /// constants and thresholds for the fitting.
        pub fn code_constants(&self, id: &str) -> &[f64] {
            self.bb.code_constants(id)
        }

        /// This tool's private data.
        pub fn private_data(&self) -> Option<&serde_json::Value> {
            self.bb.private_data(&self.tool)
        }

        pub fn set_private_data(&mut self, value: serde_json::Value) {
            self.bb.private_data.insert(self.tool.clone(), value);
        }

        /// Records what the tool could not do.
        pub fn diagnostic(&mut self, message: String) {
            self.bb.diagnostics.push(message);
        }
    };
}

/// What a measurement tool may see: the code sections to measure.
pub struct MeasurementToolView<'a> {
    bb: &'a mut Blackboard,
    tool: String,
}

impl<'a> MeasurementToolView<'a> {
    pub fn new(bb: &'a mut Blackboard, tool: &str) -> Self {
        MeasurementToolView { bb, tool: tool.into() }
    }

    common!();

    /// Ids of the elements still to be measured.
    pub fn to_measure(&self) -> &BTreeSet<String> {
        self.bb.to_measure()
    }

    /// Adds observations for an element to be measured; other elements' results are refused
    /// (`false`).
    pub fn add_result(&mut self, result: MeasurementResult) -> bool {
        if !self.bb.to_measure.contains(&result.element) {
            return false;
        }
        self.bb.add_result(result);
        true
    }
}

/// What a measurement-result analyser may see: elements and results.
pub struct MeasurementResultAnalyserView<'a> {
    bb: &'a mut Blackboard,
    tool: String,
}

impl<'a> MeasurementResultAnalyserView<'a> {
    pub fn new(bb: &'a mut Blackboard, tool: &str) -> Self {
        MeasurementResultAnalyserView { bb, tool: tool.into() }
    }

    common!();

    pub fn results(&self) -> &BTreeMap<String, MeasurementResult> {
        self.bb.results()
    }

    pub fn add_proposal(&mut self, proposal: ProposedExpression) {
        self.bb.add_proposal(proposal);
    }
}

/// What a proposed-expression analyser may see: elements, results and proposals.
pub struct ProposedExpressionAnalyserView<'a> {
    bb: &'a mut Blackboard,
    tool: String,
}

impl<'a> ProposedExpressionAnalyserView<'a> {
    pub fn new(bb: &'a mut Blackboard, tool: &str) -> Self {
        ProposedExpressionAnalyserView { bb, tool: tool.into() }
    }

    common!();

    pub fn results(&self) -> &BTreeMap<String, MeasurementResult> {
        self.bb.results()
    }

    pub fn proposals(&self) -> &BTreeMap<String, Vec<ProposedExpression>> {
        self.bb.proposals()
    }

    pub fn add_proposal(&mut self, proposal: ProposedExpression) {
        self.bb.add_proposal(proposal);
    }
}

/// What the final judge sees: everything.
pub struct FinalJudgeView<'a> {
    bb: &'a mut Blackboard,
}

impl<'a> FinalJudgeView<'a> {
    pub fn new(bb: &'a mut Blackboard) -> Self {
        FinalJudgeView { bb }
    }

    pub fn blackboard(&self) -> &Blackboard {
        self.bb
    }

    pub fn fitness_function(&self) -> &FitnessFunction {
        self.bb.fitness_function()
    }

    pub fn set_final(&mut self, element: &str, expression: FinalExpression) {
        self.bb.finals.insert(element.to_string(), expression);
    }

    /// The judge's own private data (under the id `judge`).
    pub fn private_data(&self) -> Option<&serde_json::Value> {
        self.bb.private_data("judge")
    }

    pub fn set_private_data(&mut self, value: serde_json::Value) {
        self.bb.private_data.insert("judge".into(), value);
    }
}
