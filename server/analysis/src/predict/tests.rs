//! Composition on hand-written repositories with totals computed by hand, and on MediaStore with
//! its original specifications.

use super::*;
use beagle_pcm::model::system::assembly;
use std::fmt::Write;
use std::path::Path;

const CPU: &str = "_oro4gG3fEdy4YaaT-RYrLQ";
const HDD: &str = "_BIjHoQ3KEdyouMqirZIhzQ";

/// A SEFF action, for [`repository`].
enum A {
    /// id, [(resource type id, demand)]
    Internal(&'static str, Vec<(&'static str, &'static str)>),
    /// id, iteration count, body
    Loop(&'static str, &'static str, Vec<A>),
    /// id, [(probability or guard, behaviour)]
    Branch(&'static str, Vec<(T, Vec<A>)>),
    /// id, signature id, role id, inputs (var, characterisation, spec), returns
    Call(&'static str, &'static str, &'static str, Vec<U>, Vec<U>),
    /// id, RETURN usages
    Set(&'static str, Vec<U>),
}

enum T {
    P(f64),
    Guard(&'static str),
}

type U = (&'static str, &'static str, &'static str);

fn usages(tag: &str, us: &[U], out: &mut String) {
    for (var, kind, spec) in us {
        write!(
            out,
            r#"<{tag}><variableCharacterisation_VariableUsage type="{kind}"><specification_VariableCharacterisation specification="{}"/></variableCharacterisation_VariableUsage><namedReference__VariableUsage xsi:type="stoex:VariableReference" referenceName="{var}"/></{tag}>"#,
            escape(spec)
        )
        .unwrap();
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `<steps_Behaviour>`s from a start to a stop through `actions`.
fn behaviour(prefix: &str, actions: &[A], out: &mut String) {
    let ids: Vec<String> = actions
        .iter()
        .map(|a| match a {
            A::Internal(id, _) | A::Loop(id, _, _) | A::Branch(id, _) | A::Call(id, ..) | A::Set(id, _) => {
                id.to_string()
            }
        })
        .collect();
    let start = format!("{prefix}_start");
    let stop = format!("{prefix}_stop");
    let chain: Vec<&str> = std::iter::once(start.as_str())
        .chain(ids.iter().map(String::as_str))
        .chain(std::iter::once(stop.as_str()))
        .collect();
    write!(
        out,
        r#"<steps_Behaviour xsi:type="seff:StartAction" id="{start}" successor_AbstractAction="{}"/>"#,
        chain[1]
    )
    .unwrap();
    for (i, a) in actions.iter().enumerate() {
        let links = format!(
            r#"predecessor_AbstractAction="{}" successor_AbstractAction="{}""#,
            chain[i],
            chain[i + 2]
        );
        match a {
            A::Internal(id, demands) => {
                write!(
                    out,
                    r#"<steps_Behaviour xsi:type="seff:InternalAction" id="{id}" entityName="{id}" {links}>"#
                )
                .unwrap();
                for (resource, spec) in demands {
                    write!(out, r#"<resourceDemand_Action><specification_ParametericResourceDemand specification="{}"/><requiredResource_ParametricResourceDemand href="pathmap://PCM_MODELS/Palladio.resourcetype#{resource}"/></resourceDemand_Action>"#, escape(spec)).unwrap();
                }
            }
            A::Loop(id, count, body) => {
                write!(out, r#"<steps_Behaviour xsi:type="seff:LoopAction" id="{id}" {links}><bodyBehaviour_Loop id="{id}_body">"#).unwrap();
                behaviour(&format!("{id}_body"), body, out);
                write!(
                    out,
                    r#"</bodyBehaviour_Loop><iterationCount_LoopAction specification="{}"/>"#,
                    escape(count)
                )
                .unwrap();
            }
            A::Branch(id, transitions) => {
                write!(
                    out,
                    r#"<steps_Behaviour xsi:type="seff:BranchAction" id="{id}" {links}>"#
                )
                .unwrap();
                for (i, (t, body)) in transitions.iter().enumerate() {
                    let tid = format!("{id}_t{i}");
                    match t {
                        T::P(p) => write!(out, r#"<branches_Branch xsi:type="seff:ProbabilisticBranchTransition" id="{tid}" branchProbability="{p}">"#).unwrap(),
                        T::Guard(g) => write!(out, r#"<branches_Branch xsi:type="seff:GuardedBranchTransition" id="{tid}"><branchCondition_GuardedBranchTransition specification="{}"/>"#, escape(g)).unwrap(),
                    }
                    write!(out, r#"<branchBehaviour_BranchTransition id="{tid}_b">"#).unwrap();
                    behaviour(&format!("{tid}_b"), body, out);
                    out.push_str("</branchBehaviour_BranchTransition></branches_Branch>");
                }
            }
            A::Call(id, signature, role, inputs, returns) => {
                write!(out, r#"<steps_Behaviour xsi:type="seff:ExternalCallAction" id="{id}" {links} calledService_ExternalService="{signature}" role_ExternalService="{role}">"#).unwrap();
                usages("inputVariableUsages__CallAction", inputs, out);
                usages("returnVariableUsage__CallReturnAction", returns, out);
            }
            A::Set(id, us) => {
                write!(
                    out,
                    r#"<steps_Behaviour xsi:type="seff:SetVariableAction" id="{id}" {links}>"#
                )
                .unwrap();
                usages("localVariableUsages_SetVariableAction", us, out);
            }
        }
        out.push_str("</steps_Behaviour>");
    }
    write!(
        out,
        r#"<steps_Behaviour xsi:type="seff:StopAction" id="{stop}" predecessor_AbstractAction="{}"/>"#,
        chain[chain.len() - 2]
    )
    .unwrap();
}

/// A component: name, provided interfaces, required (role id, interface), SEFFs (id, signature, actions).
struct C(
    &'static str,
    Vec<&'static str>,
    Vec<(&'static str, &'static str)>,
    Vec<(&'static str, &'static str, Vec<A>)>,
);

/// A repository of `components`; interface `I<x>` has signatures `I<x>_<op>` for each op named
/// in a SEFF.
fn repository(components: Vec<C>) -> ModelFile {
    let mut out = String::from(
        r#"<?xml version="1.0" encoding="UTF-8"?><repository:Repository xmi:version="2.0" xmlns:xmi="http://www.omg.org/XMI" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:repository="http://palladiosimulator.org/PalladioComponentModel/Repository/5.2" xmlns:seff="http://palladiosimulator.org/PalladioComponentModel/SEFF/5.2" xmlns:stoex="http://sdq.ipd.uka.de/StochasticExpressions/2.2" id="_r" entityName="R">"#,
    );
    let mut interfaces: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for C(name, provides, requires, seffs) in &components {
        write!(
            out,
            r#"<components__Repository xsi:type="repository:BasicComponent" id="{name}" entityName="{name}">"#
        )
        .unwrap();
        for i in provides {
            interfaces.entry(i).or_default();
            write!(out, r#"<providedRoles_InterfaceProvidingEntity xsi:type="repository:OperationProvidedRole" id="{name}_{i}" providedInterface__OperationProvidedRole="{i}"/>"#).unwrap();
        }
        for (role, i) in requires {
            interfaces.entry(i).or_default();
            write!(out, r#"<requiredRoles_InterfaceRequiringEntity xsi:type="repository:OperationRequiredRole" id="{role}" entityName="{role}" requiredInterface__OperationRequiredRole="{i}"/>"#).unwrap();
        }
        for (id, signature, actions) in seffs {
            let (i, _) = signature.rsplit_once('_').unwrap();
            let sigs = interfaces
                .entry(provides.iter().find(|p| **p == i).copied().unwrap_or(i))
                .or_default();
            if !sigs.contains(signature) {
                sigs.push(signature);
            }
            write!(out, r#"<serviceEffectSpecifications__BasicComponent xsi:type="seff:ResourceDemandingSEFF" id="{id}" describedService__SEFF="{signature}">"#).unwrap();
            behaviour(id, actions, &mut out);
            out.push_str("</serviceEffectSpecifications__BasicComponent>");
        }
        out.push_str("</components__Repository>");
    }
    for (i, sigs) in interfaces {
        write!(
            out,
            r#"<interfaces__Repository xsi:type="repository:OperationInterface" id="{i}" entityName="{i}">"#
        )
        .unwrap();
        for s in sigs {
            write!(
                out,
                r#"<signatures__OperationInterface id="{s}" entityName="{}"/>"#,
                s.rsplit('_').next().unwrap()
            )
            .unwrap();
        }
        out.push_str("</interfaces__Repository>");
    }
    out.push_str("</repository:Repository>");
    let file = ModelFile::parse("test.repository".into(), out);
    assert!(file.tree.errors.is_empty(), "{:?}", file.tree.errors);
    file
}

fn at(pairs: &[(&str, f64)]) -> Bindings {
    pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

fn close(got: f64, want: f64) -> bool {
    (got - want).abs() <= 1e-9 * want.abs().max(1.0)
}

/// A calls B in a loop of branches and once more with a distribution; B passes its input on to
/// C (two levels) and returns a value that A uses.
fn three_levels() -> ModelFile {
    repository(vec![
        C(
            "A",
            vec!["IA"],
            vec![("A_b", "IB")],
            vec![(
                "_run",
                "IA_run",
                vec![
                    A::Internal("a1", vec![(CPU, "2 * n.VALUE + 1")]),
                    A::Loop(
                        "L",
                        "n.VALUE",
                        vec![A::Branch(
                            "Br",
                            vec![
                                (
                                    T::P(0.25),
                                    vec![A::Call(
                                        "c1",
                                        "IB_work",
                                        "A_b",
                                        vec![("x", "VALUE", "n.VALUE * 3")],
                                        vec![],
                                    )],
                                ),
                                (T::P(0.75), vec![A::Internal("a2", vec![(CPU, "0.5")])]),
                            ],
                        )],
                    ),
                    A::Call(
                        "c2",
                        "IB_work",
                        "A_b",
                        vec![("x", "VALUE", "IntPMF[(1;0.5)(3;0.5)]")],
                        vec![("r", "VALUE", "RETURN.VALUE")],
                    ),
                    A::Internal("a3", vec![(CPU, "r.VALUE / 10")]),
                ],
            )],
        ),
        C(
            "B",
            vec!["IB"],
            vec![("B_c", "IC")],
            vec![(
                "_work",
                "IB_work",
                vec![
                    A::Internal("b1", vec![(CPU, "x.VALUE"), (HDD, "0.1 * x.VALUE")]),
                    A::Call("c3", "IC_leaf", "B_c", vec![("y", "VALUE", "x.VALUE + 1")], vec![]),
                    A::Set("s1", vec![("RETURN", "VALUE", "x.VALUE * 10")]),
                ],
            )],
        ),
        C(
            "Cc",
            vec!["IC"],
            vec![],
            vec![("_leaf", "IC_leaf", vec![A::Internal("c1i", vec![(CPU, "y.VALUE ^ 2")])])],
        ),
    ])
}

#[test]
fn loops_of_branches_of_calls_two_levels_of_parameters_and_distributions() {
    let file = three_levels();
    let p = Predictor::new(&file).unwrap();
    let got = p.predict("_run", &at(&[("n.VALUE", 4.0)]));
    assert!(got.is_complete(), "{:?}", got.problems);
    // a1: 2*4+1 = 9. The loop, 4 times: 1/4 of B.work at x = 12 (CPU 12 + C.leaf at y = 13:
    // 169; HDD 1.2) and 3/4 of 0.5 CPU: CPU 4*(0.25*181 + 0.375) = 182.5, HDD 4*0.25*1.2 = 1.2.
    // c2: x = E[IntPMF] = 2: CPU 2 + (2+1)^2 = 11, HDD 0.2; it returns 20, so a3 = 2.
    // (Distributions count by their means at each expression: C sees E[x]+1 = 3, not the mean
    // of (x+1)^2, which would be 10.)
    assert!(close(got.demands[CPU], 9.0 + 182.5 + 11.0 + 2.0), "{got:?}");
    assert!(got.notes.is_empty(), "{:?}", got.notes);
    assert!(close(got.demands[HDD], 1.4), "{got:?}");
    assert!(close(got.total(), 204.5 + 1.4));
    // Each action's share: C's leaf runs in the loop (4 * 0.25 at 169) and once at 9.
    assert!(close(got.actions["c1i"][CPU], 169.0 + 9.0), "{:?}", got.actions);
    assert!(close(got.actions["a2"][CPU], 1.5));
    let shares: f64 = got.actions.values().flat_map(|r| r.values()).sum();
    assert!(close(shares, got.total()));
    // Each call says how it was bound.
    let routes: Vec<(&str, &str)> = got.calls.iter().map(|c| (c.call.as_str(), c.seff.as_str())).collect();
    assert_eq!(routes, [("c1", "_work"), ("c2", "_work"), ("c3", "_leaf")]);
    assert!(
        got.calls.iter().all(|c| c.via.starts_with("repository: ")),
        "{:?}",
        got.calls
    );
    // Linear in the loop count where it should be: n = 0 leaves a1 = 1 and the last call.
    let zero = p.predict("_run", &at(&[("n.VALUE", 0.0)]));
    assert!(close(zero.demands[CPU], 1.0 + 11.0 + 2.0), "{zero:?}");
}

#[test]
fn every_action_books_what_runs_inside_it() {
    let file = three_levels();
    let p = Predictor::new(&file).unwrap();
    let got = p.predict("_run", &at(&[("n.VALUE", 4.0)]));
    let e = &got.elements;
    // The loop holds everything its body runs: 182.5 CPU and 1.2 HDD (see the test above);
    // its branch the same; the branch's call c1, 4 * 0.25 of B.work at x = 12 (181 + 1.2).
    assert!(close(e["L"], 182.5 + 1.2), "{e:?}");
    assert!(close(e["Br"], e["L"]), "{e:?}");
    assert!(close(e["c1"], 181.0 + 1.2), "{e:?}");
    assert!(close(e["a2"], 1.5), "{e:?}");
    // The call c2 runs B.work once at x = 2: 2 + 0.2 + C.leaf at y = 3.
    assert!(close(e["c2"], 2.0 + 0.2 + 9.0), "{e:?}");
    // The SEFF's own actions add up to the service's total; an action that adds nothing has 0.
    let top: f64 = ["a1", "L", "c2", "a3"].iter().map(|a| e[*a]).sum();
    assert!(close(top, got.total()), "{top} {}", got.total());
    assert_eq!(e.get("s1").copied(), Some(0.0));
}

#[test]
fn guards_decide_and_a_missing_input_is_a_problem_not_a_guess() {
    let file = repository(vec![C(
        "A",
        vec!["IA"],
        vec![],
        vec![(
            "_run",
            "IA_run",
            vec![A::Branch(
                "G",
                vec![
                    (
                        T::Guard("n.VALUE > 3"),
                        vec![A::Internal("big", vec![(CPU, "10 * n.VALUE")])],
                    ),
                    (T::Guard("n.VALUE <= 3"), vec![A::Internal("small", vec![(CPU, "1")])]),
                ],
            )],
        )],
    )]);
    let p = Predictor::new(&file).unwrap();
    assert!(close(p.predict("_run", &at(&[("n.VALUE", 5.0)])).demands[CPU], 50.0));
    assert!(close(p.predict("_run", &at(&[("n.VALUE", 2.0)])).demands[CPU], 1.0));
    let missing = p.predict("_run", &at(&[("m.VALUE", 2.0)]));
    assert!(!missing.is_complete());
    assert!(
        missing.problems.iter().all(|x| x.element == "G"),
        "{:?}",
        missing.problems
    );
    assert!(
        missing.problems[0].message.contains("n.VALUE"),
        "{:?}",
        missing.problems
    );
    assert!(missing.demands.is_empty(), "{missing:?}");
}

#[test]
fn recursion_and_ambiguous_providers_are_reported() {
    let file = repository(vec![
        C(
            "A",
            vec!["IA"],
            vec![("A_self", "IA"), ("A_c", "IC")],
            vec![(
                "_run",
                "IA_run",
                vec![
                    A::Internal("a", vec![(CPU, "1")]),
                    A::Call("again", "IA_run", "A_self", vec![], vec![]),
                    A::Call("leaf", "IC_leaf", "A_c", vec![], vec![]),
                ],
            )],
        ),
        C(
            "C1",
            vec!["IC"],
            vec![],
            vec![("_l1", "IC_leaf", vec![A::Internal("l1", vec![(CPU, "2")])])],
        ),
        C(
            "C2",
            vec!["IC"],
            vec![],
            vec![("_l2", "IC_leaf", vec![A::Internal("l2", vec![(CPU, "3")])])],
        ),
    ]);
    let got = Predictor::new(&file).unwrap().predict("_run", &Bindings::new());
    assert!(close(got.demands[CPU], 1.0), "{got:?}");
    let messages: Vec<(&str, &str)> = got
        .problems
        .iter()
        .map(|p| (p.element.as_str(), p.message.as_str()))
        .collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(
        messages[0].0 == "again" && messages[0].1.contains("recursion"),
        "{messages:?}"
    );
    assert!(
        messages[1].0 == "leaf" && messages[1].1.contains("2 components provide IC (C1, C2)"),
        "{messages:?}"
    );
}

fn mediastore(file: &str) -> ModelFile {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/pcm/mediastore")
        .join(file);
    ModelFile::read(&path).unwrap()
}

/// The mean of a boxed `DoublePDF[(x1;p1)...]` (bins from the previous x, the first from 0).
fn pdf_mean(text: &str) -> f64 {
    let inner = text.trim_start_matches("DoublePDF[").trim_end_matches(']');
    let (mut lo, mut sum, mut mass) = (0.0, 0.0, 0.0);
    for pair in inner.split(")(") {
        let pair = pair.trim_matches(|c| c == '(' || c == ')');
        let (x, p) = pair.split_once(';').unwrap();
        let (x, p): (f64, f64) = (x.parse().unwrap(), p.parse().unwrap());
        sum += p * (lo + x) / 2.0;
        mass += p;
        lo = x;
    }
    sum / mass
}

#[test]
fn mediastore_download_through_its_system_matches_a_hand_computation() {
    let repo = mediastore("MediaStore.repository");
    let system_file = mediastore("MediaStore-Cacheless.system");
    let system = assembly(&system_file).unwrap();
    let p = Predictor::new(&repo).unwrap().with_system(&system);
    let download = p.find_service("MediaManagement.download").unwrap();
    let jndi = pdf_mean(
        &repo
            .specifications
            .iter()
            .find(|s| s.text.starts_with("DoublePDF[(248240.0"))
            .unwrap()
            .text,
    );
    let resource = |action: &str| {
        let a = repo.repository.as_ref().unwrap().action(action).unwrap();
        a.resource_demands
            .iter()
            .map(|d| d.resource_type.as_ref().unwrap().target.fragment().to_string())
            .collect::<Vec<_>>()
    };
    // FileStorage's "get files": CPU Count*75182981.91, HDD Size*Count.
    let get_files = resource("_vwTL0L0LEeSAHuL4ItXOLQ");
    for (count, size) in [(1.0, 4.0e6), (3.0, 2.5e6)] {
        let got = p.predict(
            &download,
            &at(&[("audioRequest.Count.VALUE", count), ("audioRequest.Size.VALUE", size)]),
        );
        assert!(got.is_complete(), "{:?}", got.problems);
        // MediaManagement's and MediaAccess's JNDI overheads, FileStorage's get files, and for
        // more than one file Packaging's zip (1.0512 * bytes + 4e8) and its JNDI overhead.
        let mut want: BTreeMap<String, f64> = BTreeMap::new();
        *want.entry(get_files[0].clone()).or_default() += count * 75182981.91;
        *want.entry(get_files[1].clone()).or_default() += size * count;
        *want.entry(CPU.to_string()).or_default() += 2.0 * jndi;
        if count > 1.0 {
            *want.entry(CPU.to_string()).or_default() += 1.0512 * count * size + 4.0e8 + jndi;
        }
        for (r, w) in &want {
            assert!(
                (got.demands[r] - w).abs() <= 1e-9 * w,
                "{r}: {} vs {w} at {count}",
                got.demands[r]
            );
        }
        assert_eq!(got.demands.len(), want.len(), "{got:?}");
        assert!(
            got.calls.iter().all(|c| c.via.starts_with("system MediaStoreSystem")),
            "{:?}",
            got.calls
        );
    }
    // Without the system, three components provide IDownload: the call is not followed.
    let alone = Predictor::new(&repo).unwrap().predict(
        &download,
        &at(&[("audioRequest.Count.VALUE", 1.0), ("audioRequest.Size.VALUE", 1.0)]),
    );
    assert!(
        alone
            .problems
            .iter()
            .any(|p| p.message.contains("3 components provide") && p.message.contains(".system")),
        "{:?}",
        alone.problems
    );
}

#[test]
fn a_return_value_the_callee_does_not_set_matters_only_where_it_is_used() {
    let file = |use_it: bool| {
        let mut actions = vec![A::Call(
            "c",
            "IB_get",
            "A_b",
            vec![],
            vec![("d", "BYTESIZE", "RETURN.BYTESIZE")],
        )];
        if use_it {
            actions.push(A::Internal("uses", vec![(CPU, "d.BYTESIZE * 2")]));
        } else {
            actions.push(A::Internal("plain", vec![(CPU, "3")]));
        }
        repository(vec![
            C("A", vec!["IA"], vec![("A_b", "IB")], vec![("_run", "IA_run", actions)]),
            C(
                "B",
                vec!["IB"],
                vec![],
                vec![("_get", "IB_get", vec![A::Internal("g", vec![(CPU, "1")])])],
            ),
        ])
    };
    let unused = file(false);
    let got = Predictor::new(&unused).unwrap().predict("_run", &Bindings::new());
    assert!(got.is_complete(), "{:?}", got.problems);
    assert!(close(got.total(), 4.0));
    let used = file(true);
    let got = Predictor::new(&used).unwrap().predict("_run", &Bindings::new());
    let elements: Vec<&str> = got.problems.iter().map(|p| p.element.as_str()).collect();
    assert_eq!(elements, ["c", "uses"], "{:?}", got.problems);
    assert!(
        got.problems[0].message.contains("RETURN.BYTESIZE"),
        "{:?}",
        got.problems
    );
}

/// The composed expressions, evaluated at the inputs, give the numeric prediction.
#[test]
fn a_demand_below_zero_is_a_problem_that_names_its_law() {
    // A law fitted to sizes of 10 and more, asked about a size of 1.
    let file = repository(vec![C(
        "A",
        vec!["IA"],
        vec![],
        vec![(
            "_run",
            "IA_run",
            vec![
                A::Internal("hash", vec![(CPU, "0.5 * n.VALUE - 2")]),
                A::Internal("frame", vec![(CPU, "1")]),
            ],
        )],
    )]);
    let p = Predictor::new(&file).unwrap();
    let fine = p.predict("_run", &at(&[("n.VALUE", 10.0)]));
    assert!(fine.is_complete(), "{:?}", fine.problems);
    assert!(close(fine.demands[CPU], 4.0));
    let below = p.predict("_run", &at(&[("n.VALUE", 1.0)]));
    assert!(!below.is_complete());
    assert_eq!(below.problems.len(), 1, "{:?}", below.problems);
    assert_eq!(below.problems[0].element, "hash");
    let message = &below.problems[0].message;
    assert!(
        message.contains("`0.5 * n.VALUE - 2`") && message.contains("-1.5"),
        "{message}"
    );
    // Summed as the composed expression sums it.
    assert!(close(below.demands[CPU], -0.5));
}

fn composed_matches_numeric(p: &Predictor, seff: &str, points: &[Bindings]) {
    let composed = p.compose(seff);
    assert!(composed.problems.is_empty(), "{:?}", composed.problems);
    for inputs in points {
        let numeric = p.predict(seff, inputs);
        assert_eq!(
            composed.demands.keys().collect::<Vec<_>>(),
            numeric.demands.keys().collect::<Vec<_>>()
        );
        for (r, e) in &composed.demands {
            let got = beagle_stoex::eval_number(e, &|n| inputs.get(n).copied()).unwrap();
            let want = numeric.demands[r];
            assert!(
                (got - want).abs() <= 1e-9 * want.abs().max(1.0),
                "{r} at {inputs:?}: {} = {got}, numeric {want}",
                beagle_stoex::print(e)
            );
        }
    }
}

#[test]
fn the_composed_expression_is_the_prediction_as_a_function() {
    let file = three_levels();
    let p = Predictor::new(&file).unwrap();
    let points: Vec<Bindings> = [0.0, 1.0, 4.0, 17.0].iter().map(|n| at(&[("n.VALUE", *n)])).collect();
    composed_matches_numeric(&p, "_run", &points);
    // One term per product: a1 (2n + 1), the loop's 1/4 of B (3n + (3n + 1)^2 expanded as a
    // product) and 3/4 of 0.5, then c2 and a3 (constants: 11 + 2).
    let cpu = beagle_stoex::print(&p.compose("_run").demands[CPU]);
    assert!(cpu.ends_with("+ 14"), "{cpu}");
    assert!(cpu.contains("0.75 * n.VALUE ^ 2"), "{cpu}");
    assert!(!cpu.contains("IntPMF"), "{cpu}");
    let repo = mediastore("MediaStore.repository");
    let system_file = mediastore("MediaStore-Cacheless.system");
    let system = assembly(&system_file).unwrap();
    let p = Predictor::new(&repo).unwrap().with_system(&system);
    let download = p.find_service("MediaManagement.download").unwrap();
    let points: Vec<Bindings> = [(1.0, 4.0e6), (3.0, 2.5e6), (7.0, 1.0e5)]
        .iter()
        .map(|(c, s)| at(&[("audioRequest.Count.VALUE", *c), ("audioRequest.Size.VALUE", *s)]))
        .collect();
    composed_matches_numeric(&p, &download, &points);
}

#[test]
fn a_called_seff_whose_demands_are_all_zero_is_noted() {
    let file = repository(vec![
        C(
            "A",
            vec!["IA"],
            vec![("A_b", "IB")],
            vec![(
                "_run",
                "IA_run",
                vec![
                    A::Internal("a", vec![(CPU, "5")]),
                    A::Call("c", "IB_get", "A_b", vec![], vec![]),
                ],
            )],
        ),
        C(
            "B",
            vec!["IB"],
            vec![],
            vec![("_get", "IB_get", vec![A::Internal("g", vec![(CPU, "0"), (HDD, "0")])])],
        ),
    ]);
    let got = Predictor::new(&file).unwrap().predict("_run", &Bindings::new());
    assert!(got.is_complete());
    assert_eq!(got.notes.len(), 1, "{:?}", got.notes);
    assert!(
        got.notes[0].starts_with("B.get: every resource demand is 0"),
        "{:?}",
        got.notes
    );
}

#[test]
fn a_service_that_is_not_there_is_named_with_the_services_that_are() {
    let repo = mediastore("MediaStore.repository");
    let p = Predictor::new(&repo).unwrap();
    let Err(ServiceError::Unknown { key, services }) = p.find_service("nope") else {
        panic!("not unknown")
    };
    assert_eq!(key, "nope");
    assert!(services.iter().any(|s| s == "MediaManagement.download"), "{services:?}");
    let e = p.find_service("nope").unwrap_err().to_string();
    assert!(e.starts_with("no SEFF named `nope` (services: "), "{e}");
}

/// MediaStore's deployment, from its real files; `environment` may change the resource
/// environment's text first.
fn mediastore_rates(environment: impl Fn(String) -> String, unit: beagle_pcm::TimeUnit) -> rates::Rates {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/pcm/mediastore");
    let env_path = dir.join("MediaStore.resourceenvironment");
    let env_text = environment(std::fs::read_to_string(&env_path).unwrap());
    let env_file = ModelFile::parse(env_path, env_text);
    let d = beagle_pcm::Deployment::from_files(
        &mediastore("MediaStore-Cacheless.allocation"),
        Some(&mediastore("MediaStore-Cacheless.system")),
        Some(&env_file),
    )
    .unwrap();
    rates::Rates::from_deployment(&d, unit).unwrap()
}

/// Issue 36: with the deployment, each action's demand in work units is divided by the rate of
/// the container its component is allocated to: FileStorage on the DatabaseServer (HDD 6E8 per
/// second), the rest on the ApplicationServer (CPU 1E9, HDD 5E7). By hand, in milliseconds.
#[test]
fn mediastore_download_in_time_is_its_units_over_each_containers_rate() {
    let repo = mediastore("MediaStore.repository");
    let system_file = mediastore("MediaStore-Cacheless.system");
    let system = assembly(&system_file).unwrap();
    let rates = mediastore_rates(|t| t, beagle_pcm::TimeUnit::Seconds);
    let p = Predictor::new(&repo).unwrap().with_system(&system).with_rates(&rates);
    let download = p.find_service("MediaManagement.download").unwrap();
    let jndi = pdf_mean(
        &(repo.specifications.iter())
            .find(|s| s.text.starts_with("DoublePDF[(248240.0"))
            .unwrap()
            .text,
    );
    for (count, size) in [(1.0, 4.0e6), (3.0, 2.5e6)] {
        let got = p.predict(
            &download,
            &at(&[("audioRequest.Count.VALUE", count), ("audioRequest.Size.VALUE", size)]),
        );
        assert!(got.is_complete(), "{:?}", got.problems);
        let ms = |units: f64, rate: f64| 1e3 * units / rate;
        let mut app_cpu = 2.0 * jndi;
        if count > 1.0 {
            app_cpu += 1.0512 * count * size + 4.0e8 + jndi;
        }
        let db_cpu = count * 75182981.91;
        let db_hdd = size * count;
        let want_cpu = ms(app_cpu, 1e9) + ms(db_cpu, 1e9);
        let want_hdd = ms(db_hdd, 6e8);
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b;
        assert!(
            close(got.demands[CPU], want_cpu),
            "CPU {} vs {want_cpu}",
            got.demands[CPU]
        );
        assert!(
            close(got.demands[HDD], want_hdd),
            "HDD {} vs {want_hdd}",
            got.demands[HDD]
        );
        let db = &got.deployed["DatabaseServer"];
        assert!(close(db[HDD].units, db_hdd) && close(db[HDD].ms, want_hdd) && db[HDD].rate == 6e8);
        assert!(close(got.deployed["ApplicationServer"][CPU].units, app_cpu));
        assert!(
            !got.deployed["ApplicationServer"].contains_key(HDD),
            "no HDD demand there"
        );
    }
    // The time unit is the model's convention: read as rates per millisecond, the same model's
    // rates are 1000 times higher, its times 1000 times shorter.
    let per_ms = mediastore_rates(|t| t, beagle_pcm::TimeUnit::Milliseconds);
    let in_ms = Predictor::new(&repo).unwrap().with_system(&system).with_rates(&per_ms);
    let inputs = at(&[("audioRequest.Count.VALUE", 1.0), ("audioRequest.Size.VALUE", 1e6)]);
    let (a, b) = (p.predict(&download, &inputs), in_ms.predict(&download, &inputs));
    assert!((a.total() / b.total() - 1000.0).abs() < 1e-6);
}

/// What-if: Packaging (CPU only) moved to a container with half its CPU rate takes twice the
/// time; the rest of the service is unchanged.
#[test]
fn a_component_moved_to_a_container_at_half_the_rate_takes_twice_the_time() {
    let repo = mediastore("MediaStore.repository");
    let system_file = mediastore("MediaStore-Cacheless.system");
    let system = assembly(&system_file).unwrap();
    // The database server's CPU at half the application server's.
    let half = |t: String| {
        let at = t.find("entityName=\"DatabaseServer\"").unwrap();
        let (head, tail) = t.split_at(at);
        format!("{head}{}", tail.replacen("1000 * 1000 * 1000", "500 * 1000 * 1000", 1))
    };
    let rates = mediastore_rates(half, beagle_pcm::TimeUnit::Seconds);
    let mut moved = rates.clone();
    let database = moved.container("DatabaseServer").unwrap().id.clone();
    moved.moved.insert("_B5geQHDsEeSqnN80MQ2uGw".into(), database);
    let inputs = at(&[("audioRequest.Count.VALUE", 3.0), ("audioRequest.Size.VALUE", 2.5e6)]);
    let predict = |r: &rates::Rates| {
        let p = Predictor::new(&repo).unwrap().with_system(&system).with_rates(r);
        p.predict(&p.find_service("MediaManagement.download").unwrap(), &inputs)
    };
    let (before, after) = (predict(&rates), predict(&moved));
    let packaging = |p: &Prediction| {
        let zip = repo
            .repository
            .as_ref()
            .unwrap()
            .components
            .iter()
            .find(|c| c.name.as_deref() == Some("Packaging"))
            .unwrap();
        let ids: Vec<String> = zip
            .seffs
            .iter()
            .flat_map(|s| s.behaviour.walk())
            .filter_map(|a| a.id.clone())
            .collect();
        ids.iter()
            .filter_map(|id| p.actions.get(id))
            .flat_map(|m| m.values())
            .sum::<f64>()
    };
    let (b, a) = (packaging(&before), packaging(&after));
    assert!(b > 0.0 && (a / b - 2.0).abs() < 1e-9, "Packaging: {b} ms, moved {a} ms");
    assert!(
        ((after.total() - a) - (before.total() - b)).abs() < 1e-9 * before.total(),
        "the rest is unchanged"
    );
}

/// A component that runs on no container, or a container without the demand's resource type:
/// the demand has no time, and the prediction says which and why.
#[test]
fn a_demand_without_a_rate_is_a_problem_that_names_it() {
    let repo = mediastore("MediaStore.repository");
    let system_file = mediastore("MediaStore-Cacheless.system");
    let system = assembly(&system_file).unwrap();
    // The database server without its HDD.
    let no_hdd = |t: String| {
        let at = t.find("entityName=\"DatabaseServer\"").unwrap();
        let (head, tail) = t.split_at(at);
        format!("{head}{}", tail.replacen("#_BIjHoQ3KEdyouMqirZIhzQ", "#_nothing", 1))
    };
    let rates = mediastore_rates(no_hdd, beagle_pcm::TimeUnit::Seconds);
    let p = Predictor::new(&repo).unwrap().with_system(&system).with_rates(&rates);
    let got = p.predict(
        &p.find_service("MediaManagement.download").unwrap(),
        &at(&[("audioRequest.Count.VALUE", 1.0), ("audioRequest.Size.VALUE", 1e6)]),
    );
    assert!(
        got.problems.iter().any(|x| x
            .message
            .contains("`DatabaseServer` has no processing rate for resource type HDD")),
        "{:?}",
        got.problems
    );
    let mut unplaced = rates.clone();
    unplaced.placed.clear();
    unplaced.of_component.clear();
    let p = Predictor::new(&repo)
        .unwrap()
        .with_system(&system)
        .with_rates(&unplaced);
    let got = p.predict(
        &p.find_service("MediaManagement.download").unwrap(),
        &at(&[("audioRequest.Count.VALUE", 1.0), ("audioRequest.Size.VALUE", 1e6)]),
    );
    assert!(
        got.problems
            .iter()
            .any(|x| x.message.contains("runs on no resource container")),
        "{:?}",
        got.problems
    );
}

#[test]
fn a_sum_whose_first_term_is_negative_prints_its_sign_on_the_number_and_keeps_its_value() {
    // (source, what the simplified sum prints as)
    let cases = [
        (
            "a.VALUE * b.VALUE * -7.4E-6 + 3 * b.VALUE",
            "-7.4E-6 * a.VALUE * b.VALUE + 3 * b.VALUE",
        ),
        ("0 - a.VALUE * b.VALUE + b.VALUE", "-a.VALUE * b.VALUE + b.VALUE"),
        ("0 - a.VALUE * a.VALUE * 2 - 5", "-2 * a.VALUE ^ 2 - 5"),
        // A power keeps its parentheses: `-a ^ 2` would be `(-a) ^ 2`.
        ("0 - a.VALUE * a.VALUE + 1", "-(a.VALUE ^ 2) + 1"),
        ("2 - 5", "-3"),
        ("a.VALUE - 400 * b.VALUE", "a.VALUE - 400 * b.VALUE"),
    ];
    for (source, printed) in cases {
        let e = beagle_stoex::parse(source).unwrap();
        let simple = simplify(&e);
        let text = beagle_stoex::print(&simple);
        assert_eq!(text, printed, "{source}");
        assert!(!text.contains("+ -") && !text.contains("- -"), "{text}");
        let again = beagle_stoex::parse(&text).unwrap();
        for (a, b) in [(0.5, 3.0), (-2.0, 7.0), (11.0, -0.25)] {
            let env = |n: &str| match n {
                "a.VALUE" => Some(a),
                "b.VALUE" => Some(b),
                _ => None,
            };
            let want = beagle_stoex::eval_number(&e, &env).unwrap();
            let got = beagle_stoex::eval_number(&again, &env).unwrap();
            assert!(
                (got - want).abs() <= 1e-9 * want.abs().max(1.0),
                "{source} = {want}, {text} = {got}"
            );
        }
    }
}

/// `levels` components in a chain, each SEFF calling the next one's `fan_out` times: the calls
/// reach `fan_out ^ level` executions of the last level's action.
fn fanning_out(levels: usize, fan_out: usize) -> ModelFile {
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    let components = (0..levels)
        .map(|k| {
            let mut actions = vec![A::Internal(leak(format!("w{k}")), vec![(CPU, "1")])];
            if k + 1 < levels {
                for c in 0..fan_out {
                    let call = leak(format!("call{k}_{c}"));
                    actions.push(A::Call(
                        call,
                        leak(format!("I{}_op", k + 1)),
                        leak(format!("R{k}")),
                        vec![],
                        vec![],
                    ));
                }
            }
            let required = if k + 1 < levels {
                vec![(leak(format!("R{k}")), leak(format!("I{}", k + 1)))]
            } else {
                vec![]
            };
            C(
                leak(format!("K{k}")),
                vec![leak(format!("I{k}"))],
                required,
                vec![(leak(format!("_s{k}")), leak(format!("I{k}_op")), actions)],
            )
        })
        .collect();
    repository(components)
}

#[test]
fn calls_that_fan_out_beyond_the_bounds_are_not_composed_and_say_why() {
    // 4 calls per level, 4 levels: 1 + 4 + 16 + 64 = 85 executions of `w`, composed as ever.
    let small = fanning_out(4, 4);
    let p = Predictor::new(&small).unwrap();
    let got = p.predict("_s0", &Bindings::new());
    assert!(got.is_complete(), "{:?}", got.problems);
    assert!(close(got.demands[CPU], 85.0), "{got:?}");
    assert_eq!(p.compose("_s0").printed()[CPU], "85");

    // 10 levels: 4^9 executions of the last level's action alone. The hover's composition and
    // the numeric walk stop at their bounds (unbounded, the composition took minutes and 15 GB)
    // and say why; no part of a sum is passed off as the service's law.
    let large = fanning_out(10, 4);
    let p = Predictor::new(&large).unwrap();
    let composed = p.compose("_s0");
    assert!(composed.demands.is_empty(), "{:?}", composed.printed());
    assert_eq!(composed.problems.len(), 1);
    assert!(
        composed.problems[0]
            .message
            .contains(&format!("more than {} actions", symbolic::MAX_COMPOSED_ACTIONS)),
        "{:?}",
        composed.problems
    );
    let got = p.predict("_s0", &Bindings::new());
    assert!(got.demands.is_empty() && !got.is_complete(), "{got:?}");
    assert!(got.problems[0]
        .message
        .contains(&format!("more than {} actions", walk::MAX_WALKED_ACTIONS)));
}
