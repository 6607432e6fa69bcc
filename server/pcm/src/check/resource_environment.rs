//! A resource environment's own problems: processing rates that are not positive numbers (the
//! simulators divide every demand by its rate), replicas that are not positive integers, and
//! processing resources without a type, or two of one type in a container.

use crate::diagnostic::Diagnostic;
use crate::file::ModelFile;
use crate::model::resource_environment::{resource_environment, RateError};

pub fn check(file: &ModelFile, out: &mut Vec<Diagnostic>) {
    let Some(env) = resource_environment(file) else { return };
    for c in &env.containers {
        let container = c.name.as_deref().or(c.id.as_deref()).unwrap_or("?");
        for (i, r) in c.resources.iter().enumerate() {
            let element = file.nearest_id(r.node);
            let start_tag = file.tree.element(r.node).start_tag;
            let what = format!("{} of `{container}`", r.type_label());
            match &r.rate {
                // Reported where the expression is wrong by the `stoex-syntax` error.
                Ok(_) | Err(RateError::Syntax { .. }) => {}
                Err(e) => out.push(Diagnostic::error(
                    "processing-rate",
                    r.rate_span,
                    element.clone(),
                    format!("{what}: {e}; the simulators divide each demand by it, so it must be a positive number"),
                )),
            }
            if let Err(raw) = &r.replicas {
                let span = (file.tree.attribute(r.node, "numberOfReplicas")).map_or(start_tag, |a| a.value);
                out.push(Diagnostic::error(
                    "processing-resource",
                    span,
                    element.clone(),
                    format!("{what}: `numberOfReplicas` is `{raw}`, not a positive integer"),
                ));
            }
            match &r.resource_type {
                None => out.push(Diagnostic::warning(
                    "processing-resource",
                    start_tag,
                    element,
                    format!("a processing resource of `{container}` names no resource type"),
                )),
                Some(t) if c.resources[..i].iter().any(|o| o.resource_type.as_deref() == Some(t)) => {
                    out.push(Diagnostic::warning(
                        "processing-resource",
                        start_tag,
                        element,
                        format!(
                            "`{container}` has more than one {} processing resource; the simulators use one",
                            r.type_label()
                        ),
                    ))
                }
                Some(_) => {}
            }
        }
    }
}
