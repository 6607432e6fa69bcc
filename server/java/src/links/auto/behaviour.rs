//! Matching one SEFF behaviour (actions in execution order) to the statements of a block.
//!
//! Calls are the strongest evidence: an ExternalCallAction is a call named like its signature on
//! a field whose type is the required role's interface. Loops and branches are found through the
//! calls they contain (the outermost loop, or `if`/`switch`, around the first call in their body),
//! else as the next one in order. Internal actions take the statements between their matched
//! neighbours. Nested behaviours are matched inside the loop body or the branch's parts.

use super::Model;
use crate::links::{CodeLink, LinkOrigin};
use crate::syntax::{ancestors, descendants, is_block, is_statement, JavaFile, Method, BRANCH_KINDS, LOOP_KINDS};
use beagle_pcm::model::{Action, ActionBody, ActionKind, Behaviour, BranchTransition, Component};
use std::collections::HashMap;
use std::path::Path;
use tree_sitter::Node;

pub(super) struct Matcher<'a> {
    pub model: &'a Model<'a>,
    pub component: &'a Component,
    pub java: &'a JavaFile,
    pub file: &'a Path,
    pub class: Node<'a>,
    pub method: &'a Method<'a>,
    /// Of the SEFF's link: every action's confidence is at most this.
    pub confidence: f64,
    pub reason: &'a str,
    /// The component's class ([`CodeLink::receiver`]).
    pub receiver: Option<String>,
    pub links: Vec<CodeLink>,
}

/// A call site that fits an ExternalCallAction.
struct CallSite<'a> {
    statement: Node<'a>,
    score: f64,
    why: String,
}

impl<'a> Matcher<'a> {
    /// Matches `behaviour` inside `region` (a block, or a single statement).
    pub fn behaviour(&mut self, behaviour: &Behaviour, region: Node<'a>) {
        let actions: Vec<&Action> = behaviour
            .ordered()
            .filter(|a| !matches!(a.kind, ActionKind::StartAction | ActionKind::StopAction))
            .collect();
        let mut pos = region.start_byte();
        // The region's top-level statement each non-internal action ended up in, with a label.
        let mut anchors: Vec<Option<(Node<'a>, String)>> = vec![None; actions.len()];
        let is_loop = |a: &&&Action| matches!(a.kind, ActionKind::LoopAction | ActionKind::CollectionIteratorAction);
        let loops = actions.iter().filter(is_loop).count();
        let branches = actions.iter().filter(|a| a.kind == ActionKind::BranchAction).count();
        for (i, action) in actions.iter().enumerate() {
            let found = match action.kind {
                ActionKind::ExternalCallAction => self.call(action, region, pos),
                ActionKind::LoopAction | ActionKind::CollectionIteratorAction => {
                    self.control(action, region, pos, (LOOP_KINDS, "loop"), loops)
                }
                ActionKind::BranchAction => self.control(action, region, pos, (BRANCH_KINDS, "if/switch"), branches),
                _ => None,
            };
            if let Some(node) = found {
                pos = node.end_byte();
                let line = self.java.line_col(node.start_byte()).0;
                let label = format!("the {} at line {line}", describe_kind(node.kind()));
                anchors[i] = top_child(region, node).map(|t| (t, label));
            }
        }
        self.internal_actions(&actions, &anchors, region);
    }

    /// Links an external call; returns its statement.
    fn call(&mut self, action: &Action, region: Node<'a>, pos: usize) -> Option<Node<'a>> {
        let site = self.call_site(action, region, pos)?;
        self.link(action, site.statement.byte_range(), site.score, site.why);
        Some(site.statement)
    }

    /// The best call site for `action` in `region` after `pos` (the first of equally good ones).
    fn call_site(&self, action: &Action, region: Node<'a>, pos: usize) -> Option<CallSite<'a>> {
        let ActionBody::ExternalCall {
            called_service, role, ..
        } = &action.body
        else {
            return None;
        };
        let signature = called_service
            .as_ref()?
            .target
            .id()
            .and_then(|id| self.model.signature(id))?;
        let name = signature.name.as_deref()?;
        let role = role.as_ref().and_then(|r| r.target.id()).and_then(|id| {
            self.component
                .required_roles
                .iter()
                .find(|r| r.id.as_deref() == Some(id))
        });
        let interface = role
            .and_then(|r| r.interface.as_ref())
            .and_then(|i| i.target.id())
            .and_then(|id| self.model.interface(id))
            .and_then(|i| i.name.as_deref());
        let role_name = role.and_then(|r| r.name.as_deref());
        let types = self.variable_types();
        let mut best: Option<CallSite> = None;
        for call in descendants(region, |n| n.kind() == "method_invocation") {
            if call.start_byte() < pos || call.child_by_field_name("name").map(|n| self.java.text_of(n)) != Some(name) {
                continue;
            }
            let Some(statement) = ancestors(call).find(|n| is_statement(*n)) else {
                continue;
            };
            let (score, through) = self.receiver_score(call, &types, interface, role_name);
            if best.as_ref().is_none_or(|b| score > b.score) {
                let line = self.java.line_col(statement.start_byte()).0;
                best = Some(CallSite {
                    statement,
                    score,
                    why: format!("statement at line {line} calls {name}{through}"),
                });
            }
        }
        best
    }

    /// How sure a call's receiver is the required role: a field (or variable) of the role's
    /// interface type is sure; several such fields need the role's name to pick one.
    fn receiver_score(
        &self,
        call: Node,
        types: &HashMap<String, (String, bool)>,
        interface: Option<&str>,
        role: Option<&str>,
    ) -> (f64, String) {
        let Some(object) = call.child_by_field_name("object") else {
            return (0.3, " without a receiver (a call inside the class?)".into());
        };
        let variable = match object.kind() {
            "identifier" => self.java.text_of(object),
            "field_access" if object.child_by_field_name("object").is_some_and(|o| o.kind() == "this") => {
                object.child_by_field_name("field").map_or("", |f| self.java.text_of(f))
            }
            _ => return (0.4, format!(" on `{}`", self.java.text_of(object))),
        };
        let Some((ty, is_field)) = types.get(variable) else {
            return (0.5, format!(" on `{variable}` of unknown type"));
        };
        let holder = if *is_field { "field" } else { "variable" };
        // The code's type may carry an affix the model's interface lacks (`IUserStoreAdapter` for
        // `IUserStore`, issue 49): the same stem, a little less sure.
        let named_like =
            |i: &str| super::named::name_stem(ty) == super::named::name_stem(i) || super::provided::corresponds(ty, i);
        match interface {
            Some(i) if i == ty || named_like(i) => {
                let exact = i == ty;
                let same_type = types.values().filter(|(t, _)| t == ty).count();
                let named_like_role = role.is_some_and(|r| r.eq_ignore_ascii_case(variable));
                let score = if same_type == 1 || named_like_role { 1.0 } else { 0.6 };
                let score = if *is_field { score } else { score * 0.9 };
                let score = if exact { score } else { score * 0.9 };
                let mut why = format!(" through {holder} {variable} of type {ty}");
                if !exact {
                    why.push_str(&format!(", named like the role's interface {i}"));
                }
                if same_type > 1 {
                    why.push_str(if named_like_role {
                        ", named like the role"
                    } else {
                        " (another of that type too: a guess)"
                    });
                }
                (score, why)
            }
            _ => (
                0.2,
                format!(" through {holder} {variable} of type {ty}, not the role's interface"),
            ),
        }
    }

    /// Names of the class's fields, the method's parameters and local variables, with their type's
    /// simple name and whether they are fields. Locals shadow fields.
    fn variable_types(&self) -> HashMap<String, (String, bool)> {
        let mut out = HashMap::new();
        let declarations = |root: Node<'a>, kind: &'static str| descendants(root, move |n| n.kind() == kind);
        if let Some(body) = self.class.child_by_field_name("body") {
            let mut cursor = body.walk();
            let fields: Vec<Node> = body
                .named_children(&mut cursor)
                .filter(|n| n.kind() == "field_declaration")
                .collect();
            for f in fields {
                self.declare(f, true, &mut out);
            }
        }
        for (name, ty) in self.method.parameters.iter().zip(&self.method.parameter_types) {
            out.insert(name.clone(), (simple_type(ty), false));
        }
        for local in declarations(self.method.node, "local_variable_declaration") {
            self.declare(local, false, &mut out);
        }
        out
    }

    fn declare(&self, declaration: Node, is_field: bool, out: &mut HashMap<String, (String, bool)>) {
        let Some(ty) = declaration.child_by_field_name("type") else {
            return;
        };
        let ty = simple_type(self.java.text_of(ty));
        let mut cursor = declaration.walk();
        for d in declaration.children_by_field_name("declarator", &mut cursor) {
            if let Some(name) = d.child_by_field_name("name") {
                out.insert(self.java.text_of(name).to_string(), (ty.clone(), is_field));
            }
        }
    }

    /// Links a loop or branch: the outermost one of `kinds` around the first call inside the action,
    /// else the next one after `pos`; then matches the nested behaviours inside it. `of_kind`:
    /// how many actions of its kind the behaviour has.
    fn control(
        &mut self,
        action: &Action,
        region: Node<'a>,
        pos: usize,
        (kinds, what): (&[&str], &str),
        of_kind: usize,
    ) -> Option<Node<'a>> {
        let inner_call = first_call(action);
        let around_call = inner_call.and_then(|call| {
            let site = self.call_site(call, region, pos)?;
            let node = ancestors(site.statement)
                .take_while(|n| *n != region)
                .filter(|n| kinds.contains(&n.kind()) && n.start_byte() >= pos && !is_else_if(*n))
                .last()?;
            let line = self.java.line_col(site.statement.start_byte()).0;
            let name = self.call_label(call);
            Some((node, site.score, format!("encloses the call `{name}` at line {line}")))
        });
        // A branch by early return: `if (one) { ...; return x; } pack(items);`, the call after an
        // `if` whose arm leaves the method.
        let around_call = around_call.or_else(|| {
            let call = inner_call.filter(|_| action.kind == ActionKind::BranchAction)?;
            let site = self.call_site(call, region, pos)?;
            let node = early_return_before(region, site.statement, pos)?;
            let line = self.java.line_col(site.statement.start_byte()).0;
            let name = self.call_label(call);
            Some((
                node,
                site.score,
                format!("returns early, leaving the call `{name}` at line {line} to the code after it"),
            ))
        });
        let (node, score, why) = match around_call {
            Some(found) => found,
            None => {
                let next = self.next_of(region, pos, kinds)?;
                // One such action and one such statement in the block: no order to guess (a
                // template method's one loop over the items).
                let fits = |n: &Node| kinds.contains(&n.kind()) && !is_else_if(*n);
                let alone = of_kind == 1
                    && descendants(region, |n| fits(&n)).len() == 1
                    && statements_of(region).contains(&next);
                if alone && inner_call.is_none() {
                    (next, 1.0, format!("is the block's only {what}, as the SEFF has one"))
                } else {
                    let factor = if inner_call.is_some() { 0.5 } else { 0.8 };
                    (next, factor, format!("is the next {what} in order"))
                }
            }
        };
        let line = self.java.line_col(node.start_byte()).0;
        self.link(
            action,
            node.byte_range(),
            score,
            format!("{} at line {line} {why}", describe_kind(node.kind())),
        );
        match &action.body {
            ActionBody::Loop { body: Some(b), .. } | ActionBody::CollectionIterator { body: Some(b), .. } => {
                if let Some(inner) = node.child_by_field_name("body") {
                    self.behaviour(b, inner);
                }
            }
            ActionBody::Branch { transitions } => {
                let parts = branch_parts(node);
                let after = code_after_early_return(node);
                let arms = self.arms(transitions, &parts, &after);
                for (t, arm) in transitions.iter().zip(arms) {
                    let Some((p, why)) = arm else { continue };
                    if p == parts.len() {
                        // The code after the early return: the transition's calls there.
                        self.after_early_return(t, &after, score, &why);
                        continue;
                    }
                    let part = parts[p];
                    if let Some(b) = &t.behaviour {
                        self.behaviour(b, part);
                    }
                    // The transition's own link tells the probes which arm is which transition:
                    // the arm's statements (a block's, or the one statement), an empty block itself.
                    if let Some(id) = &t.id {
                        let line = self.java.line_col(part.start_byte()).0;
                        let inside = arm_statements(part);
                        let range = match (inside.first(), inside.last()) {
                            (Some(first), Some(last)) => first.start_byte()..last.end_byte(),
                            _ => part.byte_range(),
                        };
                        self.links.push(CodeLink {
                            element: id.clone(),
                            name: t.name.clone(),
                            file: self.file.to_path_buf(),
                            range,
                            origin: LinkOrigin::Automatic {
                                confidence: (self.confidence * score).clamp(0.0, 1.0),
                                reason: format!("{}; the arm at line {line} {why}", self.reason),
                            },
                            receiver: self.receiver.clone(),
                        });
                    }
                }
            }
            _ => {}
        }
        Some(node)
    }

    /// How a call is named in reasons: its action's name, else the signature it calls, else its id.
    fn call_label(&self, call: &Action) -> String {
        let ActionBody::ExternalCall { called_service, .. } = &call.body else {
            return call.name.clone().unwrap_or_default();
        };
        let signature = called_service
            .as_ref()
            .and_then(|r| r.target.id())
            .and_then(|id| self.model.signature(id))
            .and_then(|s| s.name.clone());
        call.name
            .clone()
            .or(signature)
            .or_else(|| call.id.clone())
            .unwrap_or_else(|| "an external call".to_string())
    }

    /// Which arm (index into `parts`) each transition is, and why: the one arm that holds the
    /// transition's external calls (`pack` in the `else` of `if (files.size() == 1)`, whatever
    /// the model's order); the arms left, in order, to the transitions left (said: order is a
    /// guess where nothing in them tells).
    fn arms(
        &self,
        transitions: &[BranchTransition],
        parts: &[Node<'a>],
        after: &[Node<'a>],
    ) -> Vec<Option<(usize, String)>> {
        let mut out: Vec<Option<(usize, String)>> = vec![None; transitions.len()];
        // The code after an early return is one more arm (index `parts.len()`), the `else`.
        let arm_count = parts.len() + usize::from(!after.is_empty());
        let mut taken = vec![false; arm_count];
        let holds = |p: usize, call: &Action| {
            let region: &[Node<'a>] = if p < parts.len() { &parts[p..=p] } else { after };
            region
                .iter()
                .any(|r| self.call_site(call, *r, r.start_byte()).is_some())
        };
        for (i, t) in transitions.iter().enumerate() {
            let calls = t.behaviour.as_ref().map(calls_in).unwrap_or_default();
            let holding: Vec<(usize, String)> = (0..arm_count)
                .filter_map(|p| {
                    let held = calls.iter().find(|c| holds(p, c))?;
                    Some((p, self.call_label(held)))
                })
                .collect();
            if let [(p, call)] = &holding[..] {
                let p = *p;
                if !taken[p] {
                    taken[p] = true;
                    out[i] = Some((p, format!("holds its call `{call}`")));
                }
            }
        }
        let by_content = out.iter().any(Option::is_some);
        let mut free = (0..arm_count).filter(|p| !taken[*p]);
        for arm in out.iter_mut().filter(|a| a.is_none()) {
            *arm = free.next().map(|p| {
                let why = if by_content {
                    "is the arm left once the others were matched by the calls they hold".to_string()
                } else {
                    format!("is matched by order ({})", super::ARMS_BY_ORDER)
                };
                (p, why)
            });
        }
        out
    }

    /// A transition whose arm is the code after an early return: its external calls there, and
    /// its own link to that code (the probes count it as the `else` the return implies).
    fn after_early_return(&mut self, t: &BranchTransition, after: &[Node<'a>], score: f64, why: &str) {
        let (Some(first), Some(last)) = (after.first(), after.last()) else {
            return;
        };
        for call in t.behaviour.as_ref().map(calls_in).unwrap_or_default() {
            for region in after {
                if let Some(site) = self.call_site(call, *region, region.start_byte()) {
                    self.link(call, site.statement.byte_range(), site.score * score, site.why);
                    break;
                }
            }
        }
        if let Some(id) = &t.id {
            let line = self.java.line_col(first.start_byte()).0;
            self.links.push(CodeLink {
                element: id.clone(),
                name: t.name.clone(),
                file: self.file.to_path_buf(),
                range: first.start_byte()..last.end_byte(),
                origin: LinkOrigin::Automatic {
                    confidence: (self.confidence * score).clamp(0.0, 1.0),
                    reason: format!("{}; the code after the early return at line {line} {why}", self.reason),
                },
                receiver: self.receiver.clone(),
            });
        }
    }

    /// The next node of `kinds` after `pos`: a top-level statement of the region first, else any.
    fn next_of(&self, region: Node<'a>, pos: usize, kinds: &[&str]) -> Option<Node<'a>> {
        let fits = |n: &Node| kinds.contains(&n.kind()) && n.start_byte() >= pos && !is_else_if(*n);
        statements_of(region)
            .into_iter()
            .find(|n| fits(n))
            .or_else(|| descendants(region, |n| fits(&n)).into_iter().next())
    }

    /// Internal actions: the region's top-level statements between the matched neighbours.
    /// Several internal actions in one gap share its statements in order (a guess).
    fn internal_actions(&mut self, actions: &[&Action], anchors: &[Option<(Node<'a>, String)>], region: Node<'a>) {
        let statements = statements_of(region);
        let mut i = 0;
        while i < actions.len() {
            if actions[i].kind != ActionKind::InternalAction {
                i += 1;
                continue;
            }
            let group_end = (i..actions.len())
                .find(|&j| actions[j].kind != ActionKind::InternalAction)
                .unwrap_or(actions.len());
            let group = &actions[i..group_end];
            let before = anchors[..i].iter().rev().find_map(|a| a.as_ref());
            let after = anchors[group_end..].iter().find_map(|a| a.as_ref());
            // Non-internal actions next to the group that were not found blur its boundaries.
            let blurred =
                anchors[..i].last().is_some_and(Option::is_none) || anchors.get(group_end).is_some_and(Option::is_none);
            let start = before.map_or(region.start_byte(), |(n, _)| n.end_byte());
            let end = after.map_or(region.end_byte(), |(n, _)| n.start_byte());
            let run: Vec<Node> = statements
                .iter()
                .copied()
                .filter(|s| s.start_byte() >= start && s.end_byte() <= end)
                .collect();
            let from = before.map_or("the start of the block".to_string(), |(_, l)| l.clone());
            let to = after.map_or("its end".to_string(), |(_, l)| l.clone());
            for (k, action) in group.iter().enumerate() {
                let chunk = &run[k * run.len() / group.len()..(k + 1) * run.len() / group.len()];
                let (Some(first), Some(last)) = (chunk.first(), chunk.last()) else {
                    continue;
                };
                let mut score = if group.len() > 1 { 0.5 } else { 1.0 };
                if blurred {
                    score *= 0.5;
                }
                let (l1, l2) = (
                    self.java.line_col(first.start_byte()).0,
                    self.java.line_col(last.end_byte().saturating_sub(1)).0,
                );
                let lines = if l1 == l2 {
                    format!("line {l1}")
                } else {
                    format!("lines {l1}-{l2}")
                };
                let mut why = format!("statements at {lines}, between {from} and {to}");
                if group.len() > 1 {
                    why.push_str(&format!(" (shared in order by {} internal actions)", group.len()));
                }
                if blurred {
                    why.push_str(" (a neighbouring action was not found in the code)");
                }
                self.link(action, first.start_byte()..last.end_byte(), score, why);
            }
            i = group_end;
        }
    }

    fn link(&mut self, action: &Action, range: std::ops::Range<usize>, score: f64, why: String) {
        let Some(id) = &action.id else { return };
        self.links.push(CodeLink {
            element: id.clone(),
            name: action.name.clone(),
            file: self.file.to_path_buf(),
            range,
            origin: LinkOrigin::Automatic {
                confidence: (self.confidence * score).clamp(0.0, 1.0),
                reason: format!("{}; {why}", self.reason),
            },
            receiver: self.receiver.clone(),
        });
    }
}

/// Every external call of a behaviour, nested ones included, in execution order.
fn calls_in(behaviour: &Behaviour) -> Vec<&Action> {
    let mut out = Vec::new();
    for a in behaviour.ordered() {
        if a.kind == ActionKind::ExternalCallAction {
            out.push(a);
        }
        for b in a.body.behaviours() {
            out.extend(calls_in(b));
        }
    }
    out
}

/// The first external call in execution order inside a loop or branch action.
fn first_call(action: &Action) -> Option<&Action> {
    action.body.behaviours().into_iter().find_map(|b| {
        b.ordered().find_map(|a| match a.kind {
            ActionKind::ExternalCallAction => Some(a),
            _ => first_call(a),
        })
    })
}

/// The statements directly in a block, or the statement itself.
fn statements_of(region: Node) -> Vec<Node> {
    if is_block(region) {
        let mut cursor = region.walk();
        let out: Vec<Node> = region
            .named_children(&mut cursor)
            .filter(|n| is_statement(*n))
            .collect();
        out
    } else if is_statement(region) {
        vec![region]
    } else {
        Vec::new()
    }
}

/// An `if` without `else` whose arm leaves the method (ends in `return` or `throw`), among the
/// region's statements before the one holding `statement`, from `pos` on: the branch whose other
/// arm is the code after it.
fn early_return_before<'t>(region: Node<'t>, statement: Node<'t>, pos: usize) -> Option<Node<'t>> {
    let top = top_child(region, statement)?;
    statements_of(region)
        .into_iter()
        .rfind(|s| s.start_byte() >= pos && s.end_byte() <= top.start_byte() && !code_after_early_return(*s).is_empty())
}

/// The statements after an `if` without `else` whose arm ends in `return` or `throw` (its
/// implied `else`), in its block; none for any other node.
fn code_after_early_return(node: Node) -> Vec<Node> {
    if node.kind() != "if_statement" || node.child_by_field_name("alternative").is_some() {
        return Vec::new();
    }
    let Some(arm) = node.child_by_field_name("consequence") else {
        return Vec::new();
    };
    let last = arm_statements(arm).last().copied();
    if !last.is_some_and(|l| matches!(l.kind(), "return_statement" | "throw_statement")) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut next = node.next_named_sibling();
    while let Some(n) = next {
        if is_statement(n) {
            out.push(n);
        }
        next = n.next_named_sibling();
    }
    out
}

/// The statements of an arm: a block's, a switch group's (after its labels), or the statement.
fn arm_statements(part: Node) -> Vec<Node> {
    if part.kind() == "switch_block_statement_group" {
        let mut cursor = part.walk();
        let out: Vec<Node> = part.named_children(&mut cursor).filter(|n| is_statement(*n)).collect();
        out
    } else {
        statements_of(part)
    }
}

/// The ancestor of `node` that is a top-level statement of `region`.
fn top_child<'t>(region: Node<'t>, node: Node<'t>) -> Option<Node<'t>> {
    ancestors(node).find(|a| *a == region && !is_block(region) || a.parent() == Some(region))
}

/// An `if` that is the `else` of another: part of that one's chain.
fn is_else_if(n: Node) -> bool {
    n.kind() == "if_statement"
        && n.parent()
            .is_some_and(|p| p.kind() == "if_statement" && p.child_by_field_name("alternative") == Some(n))
}

/// The code of each transition, in order: an `if`'s `then`, each `else if`'s, the final `else`;
/// a `switch`'s case groups.
fn branch_parts(node: Node) -> Vec<Node> {
    let mut out = Vec::new();
    if node.kind() == "if_statement" {
        let mut n = Some(node);
        while let Some(i) = n {
            out.extend(i.child_by_field_name("consequence"));
            match i.child_by_field_name("alternative") {
                Some(a) if a.kind() == "if_statement" => n = Some(a),
                Some(a) => {
                    out.push(a);
                    n = None;
                }
                None => n = None,
            }
        }
    } else if let Some(body) = node.child_by_field_name("body") {
        let mut cursor = body.walk();
        for group in body.named_children(&mut cursor) {
            match group.kind() {
                "switch_block_statement_group" => out.push(group),
                "switch_rule" => {
                    let mut c = group.walk();
                    let last = group.named_children(&mut c).last();
                    out.extend(last);
                }
                _ => {}
            }
        }
    }
    out
}

/// `List<File>` -> `List`, `java.util.List` -> `List`, `byte[]` stays.
fn simple_type(ty: &str) -> String {
    let base = ty.split('<').next().unwrap_or(ty).trim();
    base.rsplit('.').next().unwrap_or(base).to_string()
}

fn describe_kind(kind: &str) -> &str {
    match kind {
        "for_statement" | "enhanced_for_statement" => "for loop",
        "while_statement" => "while loop",
        "do_statement" => "do loop",
        "if_statement" => "if",
        "switch_expression" => "switch",
        other => other,
    }
}
