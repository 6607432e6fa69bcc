//! Minimal edits: set one specification (or a branch probability) and change nothing else.
//!
//! Each setter returns the text edits against the file as it is: only the bytes of the value when
//! the element exists, or one inserted element, indented like its siblings, when it does not.
//! Values are XML-escaped for the attribute's own quote character. Nothing is applied here: the CLI
//! writes the result atomically, the language server sends it as a workspace edit.

use crate::file::ModelFile;
use crate::model::{ActionBody, ActionKind, TransitionKind, UsageRole};
use crate::namespaces::{parse_namespace, Package};
use crate::reference::Target;
use crate::span::Span;
use crate::xml::{escape_attribute, NodeId};
use serde::Serialize;
use std::fmt;

/// Replace the bytes of `span` with `new_text`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TextEdit {
    pub span: Span,
    pub new_text: String,
}

#[derive(Clone, Debug, PartialEq)]
pub enum EditError {
    /// No element with this id, or not of the kind the edit needs.
    NotFound(String),
    /// The new value is not a valid stochastic expression.
    InvalidSpecification { text: String, message: String },
    /// The file cannot be edited safely (it has XML errors or is not a repository).
    NotEditable(String),
    /// Two edits overlap: the bytes `second` starts at were already replaced by the edit ending
    /// at `first_end`.
    Overlap { first_end: usize, second: Span },
    /// An edit lies outside the text (`len` bytes) or splits a character.
    OutOfRange { span: Span, len: usize },
    /// What the edit would add is there already (a signature's parameter of that name).
    Exists(String),
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::NotFound(what) => write!(f, "{what}"),
            EditError::InvalidSpecification { text, message } => {
                write!(f, "`{text}` is not a valid stochastic expression: {message}")
            }
            EditError::NotEditable(why) => write!(f, "the file cannot be edited: {why}"),
            EditError::Overlap { first_end, second } => write!(
                f,
                "the edits overlap: one replaces up to byte {first_end}, the next starts at byte {}",
                second.start
            ),
            EditError::OutOfRange { span, len } => write!(
                f,
                "an edit of bytes {}..{} lies outside the text ({len} bytes) or splits a character",
                span.start, span.end
            ),
            EditError::Exists(what) => write!(f, "{what}"),
        }
    }
}

impl std::error::Error for EditError {}

/// Applies edits (in any order, not overlapping) to a text.
pub fn apply(text: &str, edits: &[TextEdit]) -> Result<String, EditError> {
    let mut sorted: Vec<&TextEdit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.span.start, e.span.end));
    let mut out = String::with_capacity(text.len() + edits.iter().map(|e| e.new_text.len()).sum::<usize>());
    let mut at = 0;
    for e in sorted {
        let r = e.span.range();
        if r.start > r.end || r.end > text.len() || !text.is_char_boundary(r.start) || !text.is_char_boundary(r.end) {
            return Err(EditError::OutOfRange {
                span: e.span,
                len: text.len(),
            });
        }
        if r.start < at {
            return Err(EditError::Overlap {
                first_end: at,
                second: e.span,
            });
        }
        out.push_str(&text[at..r.start]);
        out.push_str(&e.new_text);
        at = r.end;
    }
    out.push_str(&text[at..]);
    Ok(out)
}

/// A variable characterisation of an action: `inputVariableUsages__CallAction` of an external
/// call, `returnVariableUsage__CallReturnAction`, or `localVariableUsages_SetVariableAction`.
#[derive(Clone, Debug, PartialEq)]
pub struct UsageTarget<'a> {
    pub action_id: &'a str,
    pub role: UsageRole,
    /// The variable as a dotted path: `audioRequest.Count`, `RETURN`.
    pub variable: &'a str,
    /// `VALUE`, `BYTESIZE`, `NUMBER_OF_ELEMENTS`, `TYPE`, `STRUCTURE`.
    pub characterisation: &'a str,
}

impl ModelFile {
    pub(crate) fn editable(&self) -> Result<&crate::model::Repository, EditError> {
        if let Some(e) = self.tree.errors.first() {
            return Err(EditError::NotEditable(format!(
                "malformed XML at byte {}: {}",
                e.offset, e.message
            )));
        }
        self.repository
            .as_ref()
            .ok_or_else(|| EditError::NotEditable("it is not a PCM repository".into()))
    }

    fn action_of_kind(&self, id: &str, kinds: &[ActionKind]) -> Result<&crate::model::Action, EditError> {
        let repo = self.editable()?;
        let action = repo
            .action(id)
            .ok_or_else(|| EditError::NotFound(format!("no action with id `{id}`")))?;
        if !kinds.contains(&action.kind) {
            let want: Vec<&str> = kinds.iter().map(|k| k.as_str()).collect();
            return Err(EditError::NotFound(format!(
                "`{id}` is a {}, not a {}",
                action.kind.as_str(),
                want.join(" or ")
            )));
        }
        Ok(action)
    }

    /// Sets the demand of an action for one resource type (an id from `Palladio.resourcetype`, or
    /// one of its names `CPU`, `HDD`, `DELAY`, `LAN`), creating the `resourceDemand_Action` if needed.
    pub fn set_resource_demand(
        &self,
        action_id: &str,
        resource_type: &str,
        spec: &str,
    ) -> Result<Vec<TextEdit>, EditError> {
        validate(spec)?;
        let type_id = resource_type_id(resource_type);
        let action = self.action_of_kind(action_id, &[ActionKind::InternalAction])?;
        let existing = action
            .resource_demands
            .iter()
            .find(|d| d.resource_type.as_ref().is_some_and(|r| r.target.fragment() == type_id));
        if let Some(demand) = existing {
            return Ok(self.set_child_spec(demand.node, "specification_ParametericResourceDemand", spec));
        }
        let lines = self.set_resource_demand_lines(resource_type, spec);
        Ok(vec![self.insert_child(action.node, &lines)])
    }

    /// A new `resourceDemand_Action` element, as lines (relative indentation included).
    pub(crate) fn set_resource_demand_lines(&self, resource_type: &str, spec: &str) -> Vec<String> {
        let type_id = resource_type_id(resource_type);
        // Point at the resource type the way this file already does (pathmap, or a plug-in path).
        let uri = self
            .index
            .references()
            .iter()
            .filter(|r| r.feature == "requiredResource_ParametricResourceDemand")
            .find_map(|r| match &r.target {
                Target::External { uri, .. } => Some(uri.clone()),
                _ => None,
            })
            .unwrap_or_else(|| "pathmap://PCM_MODELS/Palladio.resourcetype".into());
        let q = b'"';
        vec![
            "<resourceDemand_Action>".to_string(),
            format!(
                "{}<specification_ParametericResourceDemand specification=\"{}\"/>",
                self.indent_unit(),
                escape_attribute(spec, q)
            ),
            format!(
                "{}<requiredResource_ParametricResourceDemand href=\"{}\"/>",
                self.indent_unit(),
                escape_attribute(&format!("{uri}#{type_id}"), q)
            ),
            "</resourceDemand_Action>".to_string(),
        ]
    }

    /// Sets the iteration count of a LoopAction.
    pub fn set_loop_iteration_count(&self, loop_id: &str, spec: &str) -> Result<Vec<TextEdit>, EditError> {
        validate(spec)?;
        let action = self.action_of_kind(loop_id, &[ActionKind::LoopAction])?;
        Ok(self.set_child_spec(action.node, "iterationCount_LoopAction", spec))
    }

    fn transition(&self, id: &str) -> Result<&crate::model::BranchTransition, EditError> {
        let repo = self.editable()?;
        repo.actions()
            .filter_map(|a| match &a.body {
                ActionBody::Branch { transitions } => Some(transitions),
                _ => None,
            })
            .flatten()
            .find(|t| t.id.as_deref() == Some(id))
            .ok_or_else(|| EditError::NotFound(format!("no branch transition with id `{id}`")))
    }

    /// Sets the condition of a GuardedBranchTransition.
    pub fn set_branch_condition(&self, transition_id: &str, spec: &str) -> Result<Vec<TextEdit>, EditError> {
        validate(spec)?;
        let t = self.transition(transition_id)?;
        if !matches!(t.kind, TransitionKind::Guarded { .. }) {
            return Err(EditError::NotFound(format!(
                "`{transition_id}` is not a GuardedBranchTransition"
            )));
        }
        Ok(self.set_child_spec(t.node, "branchCondition_GuardedBranchTransition", spec))
    }

    /// Sets `branchProbability` of a ProbabilisticBranchTransition (a plain number, not StoEx).
    pub fn set_branch_probability(&self, transition_id: &str, probability: f64) -> Result<Vec<TextEdit>, EditError> {
        if !(0.0..=1.0).contains(&probability) {
            return Err(EditError::InvalidSpecification {
                text: probability.to_string(),
                message: "a branch probability lies between 0 and 1".into(),
            });
        }
        let t = self.transition(transition_id)?;
        if !matches!(t.kind, TransitionKind::Probabilistic { .. }) {
            return Err(EditError::NotFound(format!(
                "`{transition_id}` is not a ProbabilisticBranchTransition"
            )));
        }
        Ok(vec![self.set_attribute(
            t.node,
            "branchProbability",
            &probability.to_string(),
        )])
    }

    /// Sets one characterisation of a variable usage, creating the characterisation (and the usage,
    /// with its `namedReference__VariableUsage` chain) when the action has none yet.
    pub fn set_variable_characterisation(
        &self,
        target: &UsageTarget<'_>,
        spec: &str,
    ) -> Result<Vec<TextEdit>, EditError> {
        validate(spec)?;
        let kinds: &[ActionKind] = match target.role {
            UsageRole::Input => &[
                ActionKind::ExternalCallAction,
                ActionKind::EmitEventAction,
                ActionKind::InternalCallAction,
            ],
            UsageRole::Return => &[ActionKind::ExternalCallAction],
            UsageRole::Local => &[ActionKind::SetVariableAction],
        };
        let action = self.action_of_kind(target.action_id, kinds)?;
        let usage = action
            .body
            .variable_usages()
            .into_iter()
            .find(|u| u.role == target.role && u.name == target.variable);
        let q = b'"';
        let characterisation_lines = |unit: &str| {
            vec![
                format!(
                    "<variableCharacterisation_VariableUsage type=\"{}\">",
                    escape_attribute(target.characterisation, q)
                ),
                format!(
                    "{unit}<specification_VariableCharacterisation specification=\"{}\"/>",
                    escape_attribute(spec, q)
                ),
                "</variableCharacterisation_VariableUsage>".to_string(),
            ]
        };
        let unit = self.indent_unit();
        let Some(usage) = usage else {
            let (prefix, mut edits) = self.stoex_prefix();
            let mut lines = vec![format!("<{}>", target.role.tag())];
            lines.extend(characterisation_lines(unit).into_iter().map(|l| format!("{unit}{l}")));
            let xsi = self.xsi_prefix();
            lines.extend(
                named_reference(target.variable, &prefix, &xsi, unit)
                    .into_iter()
                    .map(|l| format!("{unit}{l}")),
            );
            lines.push(format!("</{}>", target.role.tag()));
            edits.push(self.insert_child(action.node, &lines));
            return Ok(edits);
        };
        match usage
            .characterisations
            .iter()
            .find(|c| c.kind == target.characterisation)
        {
            Some(c) => Ok(self.set_child_spec(c.node, "specification_VariableCharacterisation", spec)),
            None => Ok(vec![self.insert_child(usage.node, &characterisation_lines(unit))]),
        }
    }

    /// The prefix bound to the StoEx namespace on the root, and the edit that binds one if none is
    /// (`stoex`, or `stoex1`, ... when the file already uses `stoex` for something else).
    fn stoex_prefix(&self) -> (String, Vec<TextEdit>) {
        let Some(root) = self.tree.root() else {
            return ("stoex".into(), vec![]);
        };
        let mut taken = Vec::new();
        for a in self.tree.attributes(root) {
            if let Some(prefix) = self.tree.str(a.name).strip_prefix("xmlns:") {
                if parse_namespace(self.tree.str(a.value)).is_some_and(|ns| ns.package == Package::StoEx) {
                    return (prefix.to_string(), vec![]);
                }
                taken.push(prefix);
            }
        }
        let prefix = std::iter::once("stoex".to_string())
            .chain((1..).map(|i| format!("stoex{i}")))
            .find(|p| !taken.contains(&p.as_str()))
            .unwrap_or_default();
        let edit = self.insert_attribute_edit(
            root,
            &format!("xmlns:{prefix}"),
            "http://sdq.ipd.uka.de/StochasticExpressions/2.2",
        );
        (prefix, vec![edit])
    }

    /// The prefix the root binds to XML Schema instances (`xsi` in every file EMF writes).
    pub(crate) fn xsi_prefix(&self) -> String {
        self.tree
            .root()
            .and_then(|root| {
                self.tree.attributes(root).iter().find_map(|a| {
                    let prefix = self.tree.str(a.name).strip_prefix("xmlns:")?;
                    (self.tree.str(a.value) == crate::xml::XSI_URI).then(|| prefix.to_string())
                })
            })
            .unwrap_or_else(|| "xsi".into())
    }

    /// Sets `specification` on the child `tag` of `parent`, creating the child if it is missing.
    fn set_child_spec(&self, parent: NodeId, tag: &str, spec: &str) -> Vec<TextEdit> {
        match self.tree.child_named(parent, tag) {
            Some(child) => vec![self.set_attribute(child, "specification", spec)],
            None => {
                let line = format!("<{tag} specification=\"{}\"/>", escape_attribute(spec, b'"'));
                vec![self.insert_child(parent, &[line])]
            }
        }
    }

    /// Replaces an attribute's value bytes, or adds the attribute after the last one.
    pub(crate) fn set_attribute(&self, node: NodeId, name: &str, value: &str) -> TextEdit {
        match self.tree.attribute(node, name) {
            Some(a) => TextEdit {
                span: a.value,
                new_text: escape_attribute(value, a.quote).into_owned(),
            },
            None => self.insert_attribute_edit(node, name, value),
        }
    }

    fn insert_attribute_edit(&self, node: NodeId, name: &str, value: &str) -> TextEdit {
        let at = self
            .tree
            .attributes(node)
            .last()
            .map_or(self.tree.element(node).name.end as usize, |a| a.value.end as usize + 1);
        TextEdit {
            span: Span::empty(at),
            new_text: format!(" {name}=\"{}\"", escape_attribute(value, b'"')),
        }
    }

    /// Inserts an element (given as lines, relative indentation included) as the last child of
    /// `parent`, indented like its siblings; an empty tag `<a .../>` is opened up to hold it.
    pub(crate) fn insert_child(&self, parent: NodeId, lines: &[String]) -> TextEdit {
        let nl = self.newline();
        let tree = &self.tree;
        let element = tree.element(parent);
        let parent_indent = tree.indentation(parent);
        let indent = match tree.last_child(parent) {
            Some(c) => tree.indentation(c).to_string(),
            None => format!("{parent_indent}{}", self.indent_unit()),
        };
        let body: String = lines.iter().map(|l| format!("{nl}{indent}{l}")).collect();
        if let Some(last) = tree.last_child(parent) {
            let at = tree.element(last).span().end as usize;
            return TextEdit {
                span: Span::empty(at),
                new_text: body,
            };
        }
        match element.end_tag {
            // `<a ...></a>` or `<a ...>\n  </a>`: put the child right after the start tag.
            Some(end) => {
                let between = &self.text()[element.start_tag.end as usize..end.start as usize];
                let span = if between.trim().is_empty() {
                    Span::new(element.start_tag.end as usize, end.start as usize)
                } else {
                    Span::empty(element.start_tag.end as usize)
                };
                TextEdit {
                    span,
                    new_text: format!("{body}{nl}{parent_indent}"),
                }
            }
            // `<a .../>`: replace `/>` (and any space before it) with `>`, the child and `</a>`.
            None => {
                let tag = &self.text()[element.start_tag.range()];
                let close = tag.trim_end_matches('>').trim_end_matches('/').trim_end().len();
                let qname = tree.qname(parent);
                TextEdit {
                    span: Span::new(element.start_tag.start as usize + close, element.start_tag.end as usize),
                    new_text: format!(">{body}{nl}{parent_indent}</{qname}>"),
                }
            }
        }
    }

    /// One level of indentation as this file writes it (two spaces if it cannot tell).
    pub(crate) fn indent_unit(&self) -> &str {
        let tree = &self.tree;
        let Some(root) = tree.root() else { return "  " };
        let Some(child) = tree.children(root).next() else {
            return "  ";
        };
        let (r, c) = (tree.indentation(root), tree.indentation(child));
        match c.strip_prefix(r) {
            Some(unit) if !unit.is_empty() => unit,
            _ => "  ",
        }
    }

    pub(crate) fn newline(&self) -> &'static str {
        if self.text().contains("\r\n") {
            "\r\n"
        } else {
            "\n"
        }
    }
}

fn validate(spec: &str) -> Result<(), EditError> {
    beagle_stoex::parse(spec)
        .map(|_| ())
        .map_err(|e| EditError::InvalidSpecification {
            text: spec.to_string(),
            message: e.message,
        })
}

/// Ids of the resource types in Palladio's default `Palladio.resourcetype`.
pub const RESOURCE_TYPES: [(&str, &str); 4] = [
    ("CPU", "_oro4gG3fEdy4YaaT-RYrLQ"),
    ("HDD", "_BIjHoQ3KEdyouMqirZIhzQ"),
    ("DELAY", "_nvHX4KkREdyEA_b89s7q9w"),
    ("LAN", "_o3sScH2AEdyH8uerKnHYug"),
];

/// A resource type's id from its name (`CPU`) or its id.
pub fn resource_type_id(name_or_id: &str) -> &str {
    RESOURCE_TYPES
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name_or_id))
        .map_or(name_or_id, |(_, id)| id)
}

/// `a.b.c` as nested `namedReference__VariableUsage` / `innerReference_NamespaceReference` lines.
fn named_reference(variable: &str, prefix: &str, xsi: &str, unit: &str) -> Vec<String> {
    let parts: Vec<&str> = variable.split('.').collect();
    let mut open = Vec::new();
    let mut close = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        let tag = if i == 0 {
            "namedReference__VariableUsage"
        } else {
            "innerReference_NamespaceReference"
        };
        let pad = unit.repeat(i);
        let name = escape_attribute(part, b'"');
        if i + 1 == parts.len() {
            open.push(format!(
                "{pad}<{tag} {xsi}:type=\"{prefix}:VariableReference\" referenceName=\"{name}\"/>"
            ));
        } else {
            open.push(format!(
                "{pad}<{tag} {xsi}:type=\"{prefix}:NamespaceReference\" referenceName=\"{name}\">"
            ));
            close.push(format!("{pad}</{tag}>"));
        }
    }
    open.extend(close.into_iter().rev());
    open
}
