//! References into other files: the file must be readable and hold the fragment.

use crate::diagnostic::Diagnostic;
use crate::reference::Target;
use crate::workspace::{FileId, ModelSet};

// Here rather than in workspace.rs: the model set does not depend on its checks.
impl ModelSet {
    /// Every diagnostic of a file: its own, and its references into other files.
    pub fn check(&mut self, id: FileId) -> Vec<crate::Diagnostic> {
        self.load_referenced(id);
        let file = self.file(id);
        let mut out = file.diagnostics.clone();
        if file.tree.errors.is_empty() {
            check(self, id, &mut out);
            super::deployment::check(self, id, &mut out);
            super::providers::check(self, id, &mut out);
        }
        out.sort_by_key(|d| (d.span.start, d.severity));
        out
    }
}

pub fn check(set: &ModelSet, id: FileId, out: &mut Vec<Diagnostic>) {
    let file = set.file(id);
    for r in file.index.references() {
        if !matches!(r.target, Target::External { .. }) {
            continue; // Same-file references are checked with the file itself.
        }
        if let Err(why) = set.resolve(id, r) {
            out.push(Diagnostic::error(
                "unresolved-reference",
                r.span,
                file.nearest_id(r.node),
                format!("`{}` does not resolve: {why}", r.feature),
            ));
        }
    }
}
