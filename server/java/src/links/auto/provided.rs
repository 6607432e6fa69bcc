//! The model's provided interfaces against the code's Java interfaces. A Java interface stands
//! for an OperationInterface of the same name ([`corresponds`]); that gives two kinds of
//! evidence a name alone does not:
//!
//! - which class a component stands for when no class is named like it ([`implementing_class`]):
//!   one that implements the counterpart of the SEFF's interface (code split over an endpoint
//!   class and a synchronizer class, each implementing one of the component's interfaces);
//! - that a method under another name implements the operation ([`Counterpart::declares`]):
//!   the counterpart of the signature's interface declares it, and the class implements it.

use super::inherit::{self, Implemented, Types};
use crate::params::java_type_class;
use crate::syntax::Method;
use beagle_pcm::model::Interface;
use tree_sitter::Node;

/// Confidence of a class found by implementing the counterpart of the SEFF's own interface: below
/// a class named like the component (1, or 0.9 with a suffix), and enough, with a method of the
/// signature's name, to be used (0.85 >= 0.8). A class is its interface's only implementation
/// more often than its name is the component's, but a second implementation is a common thing
/// (two such classes halve it, as ties of names do).
const OWN_INTERFACE: f64 = 0.85;

/// A class implementing the counterpart of another of the component's provided interfaces (not
/// the one the signature is in): it may hold the operation, as one class often provides several
/// interfaces, but that is a proposal.
const OTHER_INTERFACE: f64 = 0.7;

/// The key interface names are compared by: case aside, without an `I` prefix before a capital
/// (`IOrders`), and without an `If` (CoCoME's `StoreQueryIf`), `Interface`, `Local` or `Remote`
/// suffix (an EJB's views: `IReportingLocal`), so that `IOrders`, `Orders`, `OrdersIf`,
/// `OrdersInterface` and `IOrdersLocal` are one name. A `Service` or `Api` suffix is not dropped:
/// a domain interface `Order` would then stand for a model's `IOrderService`.
fn interface_key(name: &str) -> String {
    let lower = super::named::without_interface_marks(name).to_lowercase();
    ["interface", "local", "remote"]
        .iter()
        .find_map(|suffix| lower.strip_suffix(suffix).filter(|stem| !stem.is_empty()))
        .map_or(lower.clone(), str::to_string)
}

/// Whether the Java interface named `java` stands for the model's interface named `model`.
pub(super) fn corresponds(java: &str, model: &str) -> bool {
    let key = interface_key(java);
    !key.is_empty() && key == interface_key(model)
}

/// A class that is not abstract (objects of it run code), and the names of the interfaces it
/// implements.
pub(super) struct Implementation<'f> {
    pub file: usize,
    pub class: Node<'f>,
    interfaces: Vec<String>,
}

/// Every class of the sources objects can be made of, with its interfaces: where a component
/// none is named like may be found.
pub(super) fn implementations<'f>(types: &Types<'f>, files: usize) -> Vec<Implementation<'f>> {
    let mut out = Vec::new();
    for file in 0..files {
        let java = types.java(file);
        for class in java.classes() {
            let concrete = matches!(
                class.kind(),
                "class_declaration" | "enum_declaration" | "record_declaration"
            ) && !inherit::has_modifier(java, class, "abstract");
            if !concrete {
                continue;
            }
            let interfaces: Vec<String> = inherit::implemented_interfaces(types, file, class)
                .into_iter()
                .map(|i| i.name)
                .collect();
            if !interfaces.is_empty() {
                out.push(Implementation {
                    file,
                    class,
                    interfaces,
                });
            }
        }
    }
    out
}

/// A class found for a component by the interfaces it implements.
pub(super) struct Found<'f> {
    pub file: usize,
    pub class: Node<'f>,
    pub confidence: f64,
    /// Why, after "class X ": "implements ..., which stands for ...".
    pub reason: String,
}

/// The class of a component no class is named like, for a SEFF whose signature is in `own`: one
/// that implements the counterpart of `own` ([`OWN_INTERFACE`]), else of another of the
/// component's provided interfaces `others` ([`OTHER_INTERFACE`]). Several: the first by path,
/// its confidence divided by their number, as for classes of one name. Only classes whose file
/// `admits` count: a component named like a package holds that package's classes, and an entity
/// elsewhere implementing a Java interface of the same name (CoCoME's `Store implements IStore`
/// for the model's `StoreIf`) is not it.
pub(super) fn implementing_class<'f>(
    implementations: &[Implementation<'f>],
    own: Option<&Interface>,
    others: &[&Interface],
    admits: impl Fn(usize) -> bool,
) -> Option<Found<'f>> {
    let tiers = [
        (OWN_INTERFACE, own.into_iter().collect::<Vec<_>>()),
        (OTHER_INTERFACE, others.to_vec()),
    ];
    for (confidence, interfaces) in tiers {
        let matching: Vec<(&Implementation, &str, &str)> = implementations
            .iter()
            .filter(|imp| admits(imp.file))
            .filter_map(|imp| {
                interfaces.iter().find_map(|model| {
                    let model_name = model.name.as_deref()?;
                    let java = imp.interfaces.iter().find(|j| corresponds(j, model_name))?;
                    Some((imp, java.as_str(), model_name))
                })
            })
            .collect();
        let Some(&(first, java, model)) = matching.first() else {
            continue;
        };
        let mut reason = format!("implements {java}, which stands for its provided interface {model}");
        if matching.len() > 1 {
            reason.push_str(&format!(
                " (one of {} classes that implement such an interface: a guess)",
                matching.len()
            ));
        }
        return Some(Found {
            file: first.file,
            class: first.class,
            confidence: confidence / matching.len() as f64,
            reason,
        });
    }
    None
}

/// A Java interface among the sources that the class implements and that stands for the
/// signature's OperationInterface, with the methods it declares.
pub(super) struct Counterpart<'f> {
    java: String,
    model: String,
    methods: Vec<Method<'f>>,
}

impl Counterpart<'_> {
    /// Whether this interface declares `method`: the same name, as many parameters, of kinds that
    /// fit (a generic `T` or `List<T>` in the interface is written otherwise in the class).
    pub(super) fn declares(&self, method: &Method) -> bool {
        self.methods.iter().any(|m| {
            m.name == method.name
                && m.parameter_types.len() == method.parameter_types.len()
                && m.parameter_types
                    .iter()
                    .zip(&method.parameter_types)
                    .all(|(a, b)| java_type_class(a).compatible(java_type_class(b)))
        })
    }

    /// The evidence in words, for a reason.
    pub(super) fn describe(&self) -> String {
        format!(
            "declared by interface {}, which the class implements and which stands for the signature's interface {}",
            self.java, self.model
        )
    }
}

/// The counterparts of `interface` (the signature's own) among the interfaces `class` implements.
pub(super) fn counterparts<'f>(
    types: &Types<'f>,
    file: usize,
    class: Node<'f>,
    interface: &Interface,
) -> Vec<Counterpart<'f>> {
    let Some(model) = interface.name.as_deref() else {
        return Vec::new();
    };
    inherit::implemented_interfaces(types, file, class)
        .into_iter()
        .filter(|i| corresponds(&i.name, model))
        .filter_map(|Implemented { name, declaration }| {
            let (f, node) = declaration?;
            Some(Counterpart {
                java: name,
                model: model.to_string(),
                methods: types.java(f).methods(node),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interface_names_as_models_and_code_write_them() {
        assert!(corresponds("IOrders", "IOrders"));
        assert!(corresponds("Orders", "IOrders"));
        assert!(corresponds("IStockQuery", "StockQueryInterface"));
        assert!(corresponds("catalog", "ICatalog"), "case aside");
        // An `I` that begins a word is no prefix.
        assert!(!corresponds("Index", "Ndex"));
        assert!(!corresponds("Order", "IOrderService"));
        assert!(corresponds("IPersistence", "PersistenceIf"), "CoCoME's model and code");
        assert!(corresponds("IReportingLocal", "ReportingIf"), "an EJB's local view");
        assert!(corresponds("IStoreQuery", "StoreQueryIf"));
        assert!(!corresponds("Motif", "Mot"), "a word ending in if");
        assert!(!corresponds("Interface", "I"));
    }
}
