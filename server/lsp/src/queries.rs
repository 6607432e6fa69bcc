//! Commands that answer questions for clients with their own UI (the VS Code extension's
//! "analyse at the cursor" and its results view): which element is at a position, what was
//! measured and fitted for it, and the values of an expression over a grid. Plain JSON out, so
//! any client can use them.

use crate::documents::{DocKind, Snapshot};
use crate::position;
use crate::results::RepositoryResults;
use beagle_ide::{ElementAtKind, ElementResult};
use beagle_pcm::model::{Behaviour, Repository};
use beagle_pcm::ModelFile;
use serde_json::{json, Map, Value};
use std::collections::HashSet;
use tower_lsp_server::ls_types::Position;

/// Most points `beagle.evaluate` computes per call: a chart needs a few hundred.
pub const MAX_BINDINGS: usize = 10_000;

/// `beagle.elementAt`: the element holding `pos`, with its enclosing component.
pub fn element_at(doc: &Snapshot, pos: Position) -> Value {
    if doc.kind != DocKind::Model {
        return Value::Null;
    }
    let model = doc.model();
    let offset = position::offset(&doc.rope, pos);
    let Some(at) = beagle_ide::element_at(&model, offset) else {
        return Value::Null;
    };
    let (kind, action_kind) = match at.kind {
        ElementAtKind::Repository => ("repository", None),
        ElementAtKind::Component => ("component", None),
        ElementAtKind::Seff => ("seff", None),
        ElementAtKind::Action(k) => ("action", Some(k.as_str())),
        ElementAtKind::Other => ("other", None),
    };
    let component_name = at
        .component
        .as_deref()
        .and_then(|c| model.node_by_id(c))
        .and_then(|n| model.tree.value(n, "entityName").map(|v| v.to_string()));
    json!({
        "kind": kind,
        "actionKind": action_kind,
        "id": at.id,
        "name": at.name,
        "component": at.component,
        "componentName": component_name,
    })
}

/// `beagle.elementResults`: the results about the action, SEFF or component `id` (everything
/// measured inside it), with the action names a view needs. `results` is empty when nothing
/// about it was analysed yet.
pub fn element_results(model: &ModelFile, results: Option<&RepositoryResults>, id: &str) -> Value {
    let actions = model
        .repository
        .as_ref()
        .map(|r| actions_within(r, id))
        .unwrap_or_default();
    let name_of = |action: &str| {
        model
            .node_by_id(action)
            .and_then(|n| model.tree.value(n, "entityName").map(|v| v.to_string()))
    };
    let list: Vec<Value> = results
        .map(|r| &r.results[..])
        .unwrap_or_default()
        .iter()
        .filter(|r| r.action == id || actions.contains(r.action.as_str()))
        .map(|r| with_action_name(r, name_of(&r.action)))
        .collect();
    json!({
        "repository": model.path,
        "stage": results.map(|r| r.stage.label()),
        "headline": results.map(|r| r.headline.as_str()),
        "name": name_of(id),
        "results": list,
    })
}

fn with_action_name(r: &ElementResult, name: Option<String>) -> Value {
    let mut v = serde_json::to_value(r).unwrap_or(Value::Null);
    if let Value::Object(o) = &mut v {
        o.insert("actionName".into(), json!(name));
    }
    v
}

/// The ids of every action inside the component or SEFF `id` (nested behaviours included);
/// empty for an action or an unknown id.
fn actions_within<'a>(repository: &'a Repository, id: &str) -> HashSet<&'a str> {
    let ids = |b: &'a Behaviour| b.walk().into_iter().filter_map(|a| a.id.as_deref());
    let mut out = HashSet::new();
    for c in &repository.components {
        let whole = c.id.as_deref() == Some(id);
        for s in &c.seffs {
            if whole || s.id.as_deref() == Some(id) {
                out.extend(ids(&s.behaviour));
            }
        }
        if whole {
            for b in &c.internal_behaviours {
                out.extend(ids(b));
            }
        }
    }
    out
}

/// `beagle.evaluate` `[{expression, bindings: [{variable: value}]}]`: the expression's value for
/// each binding (`null` where it has none, say a variable left unbound).
pub fn evaluate(args: &[Value]) -> Result<Value, String> {
    let request = args
        .first()
        .and_then(Value::as_object)
        .ok_or("expected {\"expression\": ..., \"bindings\": [...]} as the argument")?;
    let text = request
        .get("expression")
        .and_then(Value::as_str)
        .ok_or("`expression` must be a string")?;
    let expr = beagle_stoex::parse(text).map_err(|e| format!("`{text}`: {e}"))?;
    let empty = Vec::new();
    let bindings = match request.get("bindings") {
        None => &empty,
        Some(Value::Array(b)) => b,
        Some(_) => return Err("`bindings` must be a list of objects".into()),
    };
    if bindings.len() > MAX_BINDINGS {
        return Err(format!(
            "{} bindings asked for; at most {MAX_BINDINGS} per call",
            bindings.len()
        ));
    }
    let no_values = Map::new();
    let values: Vec<Value> = bindings
        .iter()
        .map(|b| {
            let b = b.as_object().unwrap_or(&no_values);
            let env = |name: &str| b.get(name).and_then(Value::as_f64);
            match beagle_stoex::eval_number(&expr, &env) {
                Ok(v) if v.is_finite() => json!(v),
                _ => Value::Null,
            }
        })
        .collect();
    Ok(json!({ "values": values }))
}
