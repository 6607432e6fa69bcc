//! A deterministic PCM repository of a given size, shaped like `fixtures/fileshare`: basic
//! components in a chain (each requires the interface of the one before it), each providing an
//! interface whose operations have SEFFs with internal actions, loops, probabilistic branches and
//! external calls to the required interface, nested a few levels deep. Valid XMI as the fixtures
//! write it (PCM 5.2 namespaces, `xsi:type`s, ids, predecessor/successor links).

use std::fmt::Write;

/// xorshift64*: enough variety for shapes, fully deterministic.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const CPU: &str = "pathmap://PCM_MODELS/Palladio.resourcetype#_oro4gG3fEdy4YaaT-RYrLQ";

pub struct Stats {
    pub bytes: usize,
    pub components: usize,
    pub seffs: usize,
    pub actions: usize,
}

struct Gen {
    rng: Rng,
    out: String,
    next_id: u64,
    actions: usize,
}

impl Gen {
    fn id(&mut self, prefix: &str) -> String {
        self.next_id += 1;
        format!("_g_{prefix}{}", self.next_id)
    }

    /// One behaviour's steps (StartAction, 1..=width actions, StopAction) at `indent`.
    /// `call`: (role id, called signature id) for external calls, if the component requires one.
    fn behaviour(&mut self, indent: usize, depth: u32, call: Option<(&str, &str)>) {
        let pad = " ".repeat(indent);
        let width = 2 + self.rng.below(3) as usize;
        let ids: Vec<String> = (0..width + 2).map(|_| self.id("a")).collect();
        let last = ids.len() - 1;
        writeln!(
            self.out,
            r#"{pad}<steps_Behaviour xsi:type="seff:StartAction" id="{}" successor_AbstractAction="{}"/>"#,
            ids[0], ids[1]
        )
        .unwrap();
        self.actions += 2;
        for k in 1..last {
            let (pred, succ, me) = (ids[k - 1].clone(), ids[k + 1].clone(), ids[k].clone());
            let links = format!(r#"predecessor_AbstractAction="{pred}" successor_AbstractAction="{succ}""#);
            let mut choice = self.rng.below(10);
            if depth >= 2 && choice >= 6 {
                choice = self.rng.below(6); // no deeper nesting
            }
            if call.is_none() && (3..6).contains(&choice) {
                choice = 0;
            }
            self.actions += 1;
            match choice {
                0..=2 => {
                    let scale = 1 + self.rng.below(50);
                    writeln!(
                        self.out,
                        r#"{pad}<steps_Behaviour xsi:type="seff:InternalAction" id="{me}" entityName="work {me}" {links}>
{pad}  <resourceDemand_Action>
{pad}    <specification_ParametericResourceDemand specification="data.BYTESIZE * 0.00{scale} + {scale}"/>
{pad}    <requiredResource_ParametricResourceDemand href="{CPU}"/>
{pad}  </resourceDemand_Action>
{pad}</steps_Behaviour>"#
                    )
                    .unwrap();
                }
                3..=5 => {
                    let (role, sig) = call.unwrap();
                    writeln!(
                        self.out,
                        r#"{pad}<steps_Behaviour xsi:type="seff:ExternalCallAction" id="{me}" entityName="call {me}" {links} calledService_ExternalService="{sig}" role_ExternalService="{role}">
{pad}  <inputVariableUsages__CallAction>
{pad}    <variableCharacterisation_VariableUsage type="BYTESIZE">
{pad}      <specification_VariableCharacterisation specification="data.BYTESIZE"/>
{pad}    </variableCharacterisation_VariableUsage>
{pad}    <namedReference__VariableUsage xsi:type="stoex:VariableReference" referenceName="data"/>
{pad}  </inputVariableUsages__CallAction>
{pad}</steps_Behaviour>"#
                    )
                    .unwrap();
                }
                6 | 7 => {
                    let body = self.id("b");
                    writeln!(
                        self.out,
                        r#"{pad}<steps_Behaviour xsi:type="seff:LoopAction" id="{me}" entityName="loop {me}" {links}>
{pad}  <bodyBehaviour_Loop id="{body}">"#
                    )
                    .unwrap();
                    self.behaviour(indent + 4, depth + 1, call);
                    writeln!(
                        self.out,
                        r#"{pad}  </bodyBehaviour_Loop>
{pad}  <iterationCount_LoopAction specification="data.NUMBER_OF_ELEMENTS"/>
{pad}</steps_Behaviour>"#
                    )
                    .unwrap();
                }
                _ => {
                    writeln!(
                        self.out,
                        r#"{pad}<steps_Behaviour xsi:type="seff:BranchAction" id="{me}" entityName="branch {me}" {links}>"#
                    )
                    .unwrap();
                    let p = 1 + self.rng.below(9);
                    for prob in [format!("0.{p}"), format!("0.{}", 10 - p)] {
                        let (t, b) = (self.id("t"), self.id("b"));
                        writeln!(
                            self.out,
                            r#"{pad}  <branches_Branch xsi:type="seff:ProbabilisticBranchTransition" id="{t}" entityName="case {t}" branchProbability="{prob}">
{pad}    <branchBehaviour_BranchTransition id="{b}">"#
                        )
                        .unwrap();
                        self.behaviour(indent + 6, depth + 1, call);
                        writeln!(
                            self.out,
                            r#"{pad}    </branchBehaviour_BranchTransition>
{pad}  </branches_Branch>"#
                        )
                        .unwrap();
                    }
                    writeln!(self.out, "{pad}</steps_Behaviour>").unwrap();
                }
            }
        }
        writeln!(
            self.out,
            r#"{pad}<steps_Behaviour xsi:type="seff:StopAction" id="{}" predecessor_AbstractAction="{}"/>"#,
            ids[last],
            ids[last - 1]
        )
        .unwrap();
    }
}

/// The repository's text, at least `target` bytes (stops after the component that passes it).
pub fn repository(target: usize, seed: u64) -> (String, Stats) {
    let mut g = Gen {
        rng: Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1),
        out: String::with_capacity(target + 200_000),
        next_id: 0,
        actions: 0,
    };
    g.out.push_str(concat!(
        r#"<?xml version="1.0" encoding="UTF-8"?>"#,
        "\n",
        r#"<repository:Repository xmi:version="2.0" xmlns:xmi="http://www.omg.org/XMI" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:repository="http://palladiosimulator.org/PalladioComponentModel/Repository/5.2" xmlns:seff="http://palladiosimulator.org/PalladioComponentModel/SEFF/5.2" xmlns:stoex="http://sdq.ipd.uka.de/StochasticExpressions/2.2" id="_g_repository" entityName="Generated" repositoryDescription="Generated by benchmarks/lsp (beagle-bench-lsp generate): a chain of components with SEFFs.">"#,
        "\n"
    ));
    let mut interfaces = String::new();
    let mut ops_of: Vec<u64> = Vec::new();
    let mut seffs = 0;
    let mut c = 0usize;
    while g.out.len() + interfaces.len() + 1000 < target {
        let ops = 1 + g.rng.below(3);
        ops_of.push(ops);
        writeln!(
            g.out,
            r#"  <components__Repository xsi:type="repository:BasicComponent" id="_g_c{c}" entityName="Component{c}">
    <providedRoles_InterfaceProvidingEntity xsi:type="repository:OperationProvidedRole" id="_g_c{c}_provides" entityName="IService{c}" providedInterface__OperationProvidedRole="_g_i{c}"/>"#
        )
        .unwrap();
        let role = format!("_g_c{c}_requires");
        let called = if c > 0 {
            let target_c = c - 1;
            writeln!(
                g.out,
                r#"    <requiredRoles_InterfaceRequiringEntity xsi:type="repository:OperationRequiredRole" id="{role}" entityName="next" requiredInterface__OperationRequiredRole="_g_i{target_c}"/>"#
            )
            .unwrap();
            let op = g.rng.below(ops_of[target_c]);
            Some(format!("_g_i{target_c}_op{op}"))
        } else {
            None
        };
        writeln!(
            interfaces,
            r#"  <interfaces__Repository xsi:type="repository:OperationInterface" id="_g_i{c}" entityName="IService{c}">"#
        )
        .unwrap();
        for op in 0..ops {
            let sig = format!("_g_i{c}_op{op}");
            writeln!(
                g.out,
                r#"    <serviceEffectSpecifications__BasicComponent xsi:type="seff:ResourceDemandingSEFF" id="_g_c{c}_seff{op}" describedService__SEFF="{sig}">"#
            )
            .unwrap();
            g.behaviour(6, 0, called.as_deref().map(|s| (role.as_str(), s)));
            writeln!(g.out, "    </serviceEffectSpecifications__BasicComponent>").unwrap();
            writeln!(
                interfaces,
                r#"    <signatures__OperationInterface id="{sig}" entityName="operation{op}">
      <parameters__OperationSignature dataType__Parameter="_g_ByteArray" parameterName="data"/>
    </signatures__OperationInterface>"#
            )
            .unwrap();
            seffs += 1;
        }
        interfaces.push_str("  </interfaces__Repository>\n");
        g.out.push_str("  </components__Repository>\n");
        c += 1;
    }
    g.out.push_str(&interfaces);
    g.out.push_str(
        r#"  <dataTypes__Repository xsi:type="repository:CollectionDataType" id="_g_ByteArray" entityName="ByteArray">
    <innerType_CollectionDataType xsi:type="repository:PrimitiveDataType" href="pathmap://PCM_MODELS/PrimitiveTypes.repository#//@dataTypes__Repository.5"/>
  </dataTypes__Repository>
</repository:Repository>
"#,
    );
    let stats = Stats {
        bytes: g.out.len(),
        components: c,
        seffs,
        actions: g.actions,
    };
    (g.out, stats)
}
