//! References into other files: the file must be readable and hold the fragment.

use crate::diagnostic::Diagnostic;
use crate::reference::Target;
use crate::workspace::{FileId, ModelSet};

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
