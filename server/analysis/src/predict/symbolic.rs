//! The prediction as a function of the service's inputs: the same composition as the numeric
//! walk ([`super::walk`]), on expressions, then brought to a sum of products so that equal terms
//! meet (`0.05 * files.NUMBER_OF_ELEMENTS + files.NUMBER_OF_ELEMENTS * 2.0E-5 * size.VALUE + ...`).
//! For hovers: what a service costs, read off at a glance.
//!
//! Calls are bound as the numeric prediction binds them. Distributions become their means.
//! What cannot be composed (an unresolved call, recursion) is left out and named, as there.

use super::{Predictor, Problem};
use beagle_pcm::edit::resource_type_id;
use beagle_pcm::model::{
    Action, ActionBody, ActionKind, Behaviour, Component, Seff, SpecId, TransitionKind, UsageRole,
};
use beagle_stoex::{BinaryOp, Expr, ExprKind, UnaryOp};
use std::collections::BTreeMap;

/// Per resource type id, the expected demand of one execution as an expression of the inputs.
#[derive(Clone, Debug, Default)]
pub struct Composed {
    pub demands: BTreeMap<String, Expr>,
    /// What was left out.
    pub problems: Vec<Problem>,
}

impl Composed {
    /// `resource type id -> printed expression`.
    pub fn printed(&self) -> BTreeMap<String, String> {
        self.demands
            .iter()
            .map(|(r, e)| (r.clone(), beagle_stoex::print(e)))
            .collect()
    }
}

type Env = BTreeMap<String, Expr>;

/// Most actions one composition visits, counting each along every call path. A service whose
/// calls fan out level after level reaches exponentially many (the language benchmark's 10 MB
/// model: a hover composed for minutes and took 15 GB); a hover must answer at once, so beyond
/// this the service is not composed and the problem says why. Real models' services reach tens
/// to hundreds.
pub const MAX_COMPOSED_ACTIONS: usize = 2_000;

struct Compose<'p, 'a> {
    p: &'p Predictor<'a>,
    sums: BTreeMap<String, Vec<Expr>>,
    stack: Vec<String>,
    problems: Vec<Problem>,
    /// Actions visited so far, and whether [`MAX_COMPOSED_ACTIONS`] was passed.
    visited: usize,
    too_large: bool,
}

/// The composed demands of SEFF `seff` (see the module documentation).
pub fn compose(p: &Predictor<'_>, seff: &str) -> Composed {
    let mut c = Compose {
        p,
        sums: BTreeMap::new(),
        stack: Vec::new(),
        problems: Vec::new(),
        visited: 0,
        too_large: false,
    };
    if let Some((component, s)) = p.repo.seffs().find(|(_, s)| s.id.as_deref() == Some(seff)) {
        let context = component.id.as_deref().and_then(|id| p.system?.only_context_of(id));
        c.seff(component, context, s, &mut Env::new(), &one());
    }
    if c.too_large {
        // A part of the sum would be a wrong law: none, and why.
        return Composed {
            demands: BTreeMap::new(),
            problems: vec![Problem {
                element: seff.to_string(),
                message: format!(
                    "not composed: along its calls the service reaches more than {MAX_COMPOSED_ACTIONS} actions"
                ),
            }],
        };
    }
    let demands = c
        .sums
        .into_iter()
        .map(|(r, terms)| {
            let sum = terms
                .into_iter()
                .reduce(|a, b| binary(BinaryOp::Add, a, b))
                .unwrap_or_else(zero);
            (r, simplify(&sum))
        })
        .collect();
    let mut problems = c.problems;
    problems.sort();
    problems.dedup();
    Composed { demands, problems }
}

fn one() -> Expr {
    Expr::double(1.0)
}

fn zero() -> Expr {
    Expr::double(0.0)
}

fn binary(op: BinaryOp, a: Expr, b: Expr) -> Expr {
    Expr::binary(op, a, b)
}

/// `e` with the variables `env` binds replaced by their expressions.
fn substitute(e: &Expr, env: &Env) -> Expr {
    if let Some(v) = e.variable_text() {
        if let Some(x) = env.get(&v) {
            return x.clone();
        }
        return e.clone();
    }
    let mut out = e.clone();
    match &mut out.kind {
        ExprKind::Unary { expr, .. } => **expr = substitute(expr, env),
        ExprKind::Binary { lhs, rhs, .. } | ExprKind::Compare { lhs, rhs, .. } => {
            **lhs = substitute(lhs, env);
            **rhs = substitute(rhs, env);
        }
        ExprKind::IfElse { cond, then, else_ } => {
            **cond = substitute(cond, env);
            **then = substitute(then, env);
            **else_ = substitute(else_, env);
        }
        ExprKind::FunctionCall { args, .. } => {
            for a in args {
                *a = substitute(a, env);
            }
        }
        _ => {}
    }
    out
}

impl<'a> Compose<'_, 'a> {
    fn spec(&mut self, action: &Action, spec: Option<SpecId>, env: &Env) -> Option<Expr> {
        let id = action.id.clone().unwrap_or_default();
        match spec.and_then(|s| self.p.file.specifications.get(s)).map(|s| &s.expr) {
            Some(Ok(e)) => Some(substitute(e, env)),
            _ => {
                self.problems.push(Problem {
                    element: id,
                    message: "a specification that is missing or not StoEx".into(),
                });
                None
            }
        }
    }

    fn seff(&mut self, component: &'a Component, context: Option<&'a str>, s: &'a Seff, env: &mut Env, w: &Expr) {
        self.stack.push(s.id.clone().unwrap_or_default());
        self.behaviour(component, context, &s.behaviour, env, w);
        self.stack.pop();
    }

    fn behaviour(
        &mut self,
        component: &'a Component,
        context: Option<&'a str>,
        b: &'a Behaviour,
        env: &mut Env,
        w: &Expr,
    ) {
        let actions: Vec<&Action> = if b.order.is_empty() {
            b.actions.iter().collect()
        } else {
            b.ordered().collect()
        };
        for a in actions {
            self.action(component, context, a, env, w);
        }
    }

    fn action(&mut self, component: &'a Component, context: Option<&'a str>, a: &'a Action, env: &mut Env, w: &Expr) {
        self.visited += 1;
        if self.visited > MAX_COMPOSED_ACTIONS {
            self.too_large = true;
            return;
        }
        let id = a.id.clone().unwrap_or_default();
        for d in &a.resource_demands {
            let resource = d
                .resource_type
                .as_ref()
                .map_or(resource_type_id("CPU"), |r| r.target.fragment())
                .to_string();
            if let Some(e) = self.spec(a, d.specification, env) {
                // With rates, work units over the container's rate (`walk` says why one has none).
                let e = match self.p.rates {
                    None => e,
                    Some(r) => match (r.container_of(component.id.as_deref(), context))
                        .and_then(|c| r.ms_per_unit(c, &resource))
                    {
                        Ok((k, _)) => binary(BinaryOp::Mul, number(k), e),
                        Err(_) => continue,
                    },
                };
                self.sums
                    .entry(resource)
                    .or_default()
                    .push(binary(BinaryOp::Mul, w.clone(), e));
            }
        }
        match (&a.kind, &a.body) {
            (ActionKind::LoopAction, ActionBody::Loop { iteration_count, body }) => {
                if let (Some(n), Some(body)) = (self.spec(a, *iteration_count, env), body) {
                    self.behaviour(
                        component,
                        context,
                        body,
                        &mut env.clone(),
                        &binary(BinaryOp::Mul, w.clone(), n),
                    );
                }
            }
            (ActionKind::CollectionIteratorAction, ActionBody::CollectionIterator { parameter, body }) => {
                let name = parameter
                    .as_ref()
                    .and_then(|r| self.p.file.resolve_local(&r.target))
                    .and_then(|n| self.p.file.tree.value(n, "parameterName").map(|v| v.to_string()));
                if let (Some(name), Some(body)) = (name, body) {
                    let count = beagle_stoex::parse(&format!("{name}.NUMBER_OF_ELEMENTS")).ok();
                    if let Some(n) = count.map(|c| substitute(&c, env)) {
                        self.behaviour(
                            component,
                            context,
                            body,
                            &mut env.clone(),
                            &binary(BinaryOp::Mul, w.clone(), n),
                        );
                    }
                }
            }
            (ActionKind::BranchAction, ActionBody::Branch { transitions }) => {
                for t in transitions {
                    let p = match &t.kind {
                        TransitionKind::Probabilistic { probability: Some(p) } => Expr::double(*p),
                        TransitionKind::Guarded { condition } => match self.spec(a, *condition, env) {
                            Some(c) => Expr::if_else(c, one(), zero()),
                            None => continue,
                        },
                        _ => continue,
                    };
                    if let Some(b) = &t.behaviour {
                        self.behaviour(
                            component,
                            context,
                            b,
                            &mut env.clone(),
                            &binary(BinaryOp::Mul, w.clone(), p),
                        );
                    }
                }
            }
            (
                ActionKind::ExternalCallAction,
                ActionBody::ExternalCall {
                    called_service,
                    role,
                    inputs,
                    returns,
                },
            ) => {
                let (Some(signature), Some(role)) = (called_service, role) else {
                    return;
                };
                let place = super::walk::Place { component, context };
                let resolved = super::walk::resolve(self.p, place, signature.target.fragment(), role.target.fragment());
                let (callee, seff, _) = match resolved {
                    Ok(r) => r,
                    Err(why) => {
                        self.problems.push(Problem {
                            element: id,
                            message: format!("not followed: {why}"),
                        });
                        return;
                    }
                };
                let seff_id = seff.id.clone().unwrap_or_default();
                if self.stack.contains(&seff_id) {
                    self.problems.push(Problem {
                        element: id,
                        message: format!("recursion: {seff_id} calls itself"),
                    });
                    return;
                }
                let mut callee_env = Env::new();
                for u in inputs.iter().filter(|u| u.role == UsageRole::Input) {
                    for c in &u.characterisations {
                        if let Some(e) = self.spec(a, c.specification, env) {
                            callee_env.insert(format!("{}.{}", u.name, c.kind), e);
                        }
                    }
                }
                self.seff(callee.component, callee.context, seff, &mut callee_env, w);
                for u in returns.iter().filter(|u| u.role == UsageRole::Return) {
                    for c in &u.characterisations {
                        if let Some(e) = self.spec(a, c.specification, &callee_env) {
                            env.insert(format!("{}.{}", u.name, c.kind), e);
                        }
                    }
                }
            }
            (ActionKind::SetVariableAction, ActionBody::SetVariable { usages }) => {
                for u in usages.iter().filter(|u| u.role == UsageRole::Local) {
                    for c in &u.characterisations {
                        if let Some(e) = self.spec(a, c.specification, env) {
                            env.insert(format!("{}.{}", u.name, c.kind), e);
                        }
                    }
                }
            }
            (ActionKind::ForkAction, ActionBody::Fork { behaviours }) => {
                for b in behaviours {
                    self.behaviour(component, context, b, &mut env.clone(), w);
                }
            }
            _ => {}
        }
    }
}

// --- simplification: a sum of products ---------------------------------------------------------

/// A product: coefficient times factors (sorted by their printed text).
#[derive(Clone, Debug)]
struct Term {
    coefficient: f64,
    factors: Vec<(String, Expr)>,
}

/// Most terms an expansion may make; beyond, a product stays a product.
const MAX_TERMS: usize = 64;

fn constant(e: &Expr) -> Option<f64> {
    if !beagle_stoex::variables(e).is_empty() {
        return None;
    }
    beagle_stoex::eval_number(e, &|_| None).ok().filter(|v| v.is_finite())
}

fn atom(e: Expr) -> Vec<Term> {
    vec![Term {
        coefficient: 1.0,
        factors: vec![(beagle_stoex::print(&e), e)],
    }]
}

fn scale(terms: Vec<Term>, k: f64) -> Vec<Term> {
    terms
        .into_iter()
        .map(|t| Term {
            coefficient: t.coefficient * k,
            ..t
        })
        .collect()
}

fn terms_of(e: &Expr) -> Vec<Term> {
    if let Some(c) = constant(e) {
        return vec![Term {
            coefficient: c,
            factors: Vec::new(),
        }];
    }
    match &e.kind {
        ExprKind::Binary {
            op: BinaryOp::Add,
            lhs,
            rhs,
        } => {
            let mut t = terms_of(lhs);
            t.extend(terms_of(rhs));
            t
        }
        ExprKind::Binary {
            op: BinaryOp::Sub,
            lhs,
            rhs,
        } => {
            let mut t = terms_of(lhs);
            t.extend(scale(terms_of(rhs), -1.0));
            t
        }
        ExprKind::Unary { op: UnaryOp::Neg, expr } => scale(terms_of(expr), -1.0),
        ExprKind::Binary {
            op: BinaryOp::Mul,
            lhs,
            rhs,
        } => {
            let (a, b) = (collect(terms_of(lhs)), collect(terms_of(rhs)));
            if a.len() * b.len() > MAX_TERMS {
                return atom(e.clone());
            }
            let mut out = Vec::new();
            for x in &a {
                for y in &b {
                    let mut factors = x.factors.clone();
                    factors.extend(y.factors.iter().cloned());
                    factors.sort_by(|p, q| p.0.cmp(&q.0));
                    out.push(Term {
                        coefficient: x.coefficient * y.coefficient,
                        factors,
                    });
                }
            }
            out
        }
        ExprKind::Binary {
            op: BinaryOp::Div,
            lhs,
            rhs,
        } => match constant(rhs) {
            Some(k) if k != 0.0 => scale(terms_of(lhs), 1.0 / k),
            _ => atom(Expr::binary(BinaryOp::Div, simplify(lhs), simplify(rhs))),
        },
        ExprKind::IfElse { cond, then, else_ } => atom(Expr::if_else(simplify(cond), simplify(then), simplify(else_))),
        _ => atom(e.clone()),
    }
}

/// Equal products added up; zeros dropped.
fn collect(terms: Vec<Term>) -> Vec<Term> {
    let mut by: BTreeMap<String, Term> = BTreeMap::new();
    for t in terms {
        let key: Vec<&str> = t.factors.iter().map(|(k, _)| k.as_str()).collect();
        let key = key.join(" * ");
        match by.get_mut(&key) {
            Some(old) => old.coefficient += t.coefficient,
            None => {
                by.insert(key, t);
            }
        }
    }
    let mut out: Vec<Term> = by.into_values().filter(|t| t.coefficient != 0.0).collect();
    // The constant last, as people write a law.
    out.sort_by_key(|t| t.factors.is_empty());
    out
}

/// Rounds a coefficient to 12 significant digits (sums of binary fractions print as written).
fn tidy(v: f64) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let digits = 12 - v.abs().log10().floor() as i32;
    let p = 10f64.powi(digits.clamp(-300, 300));
    (v * p).round() / p
}

/// A number as people write it: integers without a fraction.
fn number(v: f64) -> Expr {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        Expr::int(v as i64)
    } else {
        Expr::double(v)
    }
}

/// `k * f1 * f2 ^ 2 * ...`: left to right, equal factors as a power; `k` is |coefficient|, or
/// the coefficient itself when `signed` (a sum's first term: `-7.4E-6 * a * b + ...`, not
/// `-(7.4E-6 * a * b) + ...`).
fn product(t: &Term, signed: bool) -> Expr {
    let negative = signed && t.coefficient < 0.0;
    let k = tidy(t.coefficient.abs());
    let mut powers: Vec<(&str, &Expr, i64)> = Vec::new();
    for (key, e) in &t.factors {
        match powers.last_mut() {
            Some((k, _, n)) if *k == key.as_str() => *n += 1,
            _ => powers.push((key.as_str(), e, 1)),
        }
    }
    let factors = powers.into_iter().map(|(_, e, n)| match n {
        1 => e.clone(),
        n => Expr::binary(BinaryOp::Pow, e.clone(), Expr::int(n)),
    });
    let start = (k != 1.0 || t.factors.is_empty()).then(|| number(if negative { -k } else { k }));
    let mut out = start;
    for f in factors {
        out = Some(match out {
            // `-a * b`: the sign on the first factor when there is no number to carry it.
            None if negative => Expr::unary(UnaryOp::Neg, f),
            None => f,
            Some(acc) => Expr::binary(BinaryOp::Mul, acc, f),
        });
    }
    out.unwrap_or_else(|| number(k))
}

/// `e` as a sum of products with equal products added up (module documentation).
pub fn simplify(e: &Expr) -> Expr {
    let terms = collect(terms_of(e));
    let mut out: Option<Expr> = None;
    for t in &terms {
        out = Some(match out {
            None => product(t, true),
            Some(sum) if t.coefficient < 0.0 => Expr::binary(BinaryOp::Sub, sum, product(t, false)),
            Some(sum) => Expr::binary(BinaryOp::Add, sum, product(t, false)),
        });
    }
    out.unwrap_or_else(|| Expr::int(0))
}
