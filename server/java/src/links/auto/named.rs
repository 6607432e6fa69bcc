//! The class named like a component: its simple name, case aside, also with an `Impl` or
//! `Component` suffix ([`class_score`]); SoMoX's `<PC No. n pkg.File.java.Class>` and qualified
//! names give the package too ([`class_hint`]).

use crate::syntax::JavaFile;
use std::path::PathBuf;
use tree_sitter::Node;

/// Suffixes tools and people put on a class's or interface's name around the same stem
/// (`RosterImpl`, `AuditLogBean`, `UserStoreAdapter`, `OrderService`, `CartComponent`,
/// `UserStoreInterface`), lower case.
const SUFFIXES: [&str; 6] = ["impl", "component", "bean", "adapter", "service", "interface"];

/// A name without its affixes, lower case: an `I` before a capital (`IUserStore`), an `If`
/// suffix (`UserStoreIf`), a `Default` prefix (`DefaultUserStore`), and the [`SUFFIXES`], as many
/// as there are (`UserServiceImpl`);
/// never down to nothing (a class named `Service` stays `service`).
pub(super) fn name_stem(name: &str) -> String {
    let mut stem = without_interface_marks(name).to_lowercase();
    if let Some(rest) = stem.strip_prefix("default").filter(|r| !r.is_empty()) {
        stem = rest.to_string();
    }
    while let Some(shorter) = SUFFIXES
        .iter()
        .find_map(|s| stem.strip_suffix(s).filter(|r| !r.is_empty()))
    {
        stem = shorter.to_string();
    }
    stem
}

/// A name without the marks of an interface, case kept: an `I` before a capital (`IUserStore`)
/// and an `If` suffix as written (CoCoME's `StoreIf`; a word may end in "if", `Motif`).
pub(super) fn without_interface_marks(name: &str) -> &str {
    let name = name.trim();
    let mut chars = name.chars();
    let without_i = match (chars.next(), chars.next()) {
        (Some('I'), Some(second)) if second.is_uppercase() => &name[1..],
        _ => name,
    };
    without_i
        .strip_suffix("If")
        .filter(|s| !s.is_empty())
        .unwrap_or(without_i)
}

/// How well a class name fits a component's or an interface's name: 1 for the same name (case
/// aside), 0.9 for the same stem ([`name_stem`]: `Roster`, `RosterImpl`, `IRoster`,
/// `DefaultRoster`, `RosterBean`, `RosterAdapter`, `RosterService`), else 0.
pub(super) fn class_score(class: &str, component: &str) -> f64 {
    if class.trim().eq_ignore_ascii_case(component.trim()) {
        1.0
    } else if name_stem(class) == name_stem(component) {
        0.9
    } else {
        0.0
    }
}

/// What a component's name says about its class: the simple name, and the package when the
/// name gives one.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassHint {
    pub class: String,
    pub package: Option<String>,
}

/// Reads a component name as models name components: SoMoX's
/// ` <PC No. 3 de.uka.ipd.sdq.palladiofileshare.businesslogic.BusinessCore.java.BusinessCore>`
/// (the file's fully qualified name, `.java.`, the class), a fully qualified class name
/// (`a.b.BusinessCore`), or a plain name (`BusinessCore`, `BusinessCoreImpl`).
pub fn class_hint(component: &str) -> ClassHint {
    let name = component.trim().trim_start_matches('<').trim_end_matches('>').trim();
    let somox = name.strip_prefix("PC No.").map(|rest| {
        rest.trim_start()
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim()
    });
    let qualified = somox.unwrap_or(name);
    let is_qualified = !qualified.contains(char::is_whitespace) && qualified.contains('.');
    if !is_qualified {
        return ClassHint {
            class: qualified.to_string(),
            package: None,
        };
    }
    // `pkg.File.java.Class`: the package is the file's, the class may differ from the file.
    let (file, class) = match qualified.split_once(".java.") {
        Some((file, class)) => (file, class.rsplit('.').next().unwrap_or(class)),
        None => (qualified, qualified.rsplit('.').next().unwrap_or(qualified)),
    };
    ClassHint {
        class: class.to_string(),
        package: file.rsplit_once('.').map(|(p, _)| p.to_string()),
    }
}

/// A component's class, and how sure and why.
#[derive(Clone)]
pub(super) struct ClassFound<'f> {
    /// Index into the files.
    pub file: usize,
    pub class: Node<'f>,
    pub confidence: f64,
    /// Why, as the start of a link's reason.
    pub reason: String,
}

/// The class named like the component ([`class_score`]); several of one name: the first by
/// path, its confidence divided by their number.
pub(super) fn named_class<'f>(
    files: &'f [(PathBuf, JavaFile)],
    hint: &ClassHint,
    shown: &str,
) -> Option<ClassFound<'f>> {
    let mut candidates = Vec::new();
    for (i, (_, java)) in files.iter().enumerate() {
        // A package the name gives decides between classes of one name (SoMoX models of real
        // systems have two `DbAccess`); code moved to another package since is still found.
        let package_factor = match &hint.package {
            Some(p) if *p != java.package() => 0.5,
            _ => 1.0,
        };
        for class in java.classes() {
            if class.kind() == "interface_declaration" {
                continue;
            }
            let score = java.name_of(class).map_or(0.0, |c| class_score(c, &hint.class)) * package_factor;
            if score > 0.0 {
                candidates.push((score, i, class));
            }
        }
    }
    let best = candidates.iter().map(|c| c.0).fold(0.0, f64::max);
    let tied: Vec<&(f64, usize, Node)> = candidates.iter().filter(|c| c.0 == best).collect();
    let &&(score, file, class) = tied.first()?;
    let class_name = files[file].1.name_of(class).unwrap_or_default();
    let mut reason = format!("class {class_name} matches component {shown}");
    if tied.len() > 1 {
        reason.push_str(&format!(" (one of {} classes of that name)", tied.len()));
    }
    Some(ClassFound {
        file,
        class,
        confidence: score / tied.len() as f64,
        reason,
    })
}

/// Why a SEFF got no class: none named like its component, none named like its interface
/// (`interface`) with a method of the operation's name, none implementing the interface's Java
/// counterpart; `package`: the package the component is named like, if it is one.
pub(super) fn no_class(hint: &ClassHint, interface: Option<&str>, package: Option<&str>) -> String {
    let interface = interface.map_or(String::new(), |i| format!(" or like interface {}", i.trim()));
    match package {
        Some(p) => format!(
            "component {p} is a package, and no class in it is named{interface} (affixes such as I, Impl, Bean, Adapter, Service, Default aside) with a method of the operation's name, nor implements its Java counterpart"
        ),
        None => {
            let package = hint
                .package
                .as_deref()
                .map_or(String::new(), |p| format!(" in package {p}"));
            format!(
                "no class named {}{interface} (affixes such as I, Impl, Bean, Adapter, Service, Default aside){package} under the source roots",
                hint.class
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hint(class: &str, package: Option<&str>) -> ClassHint {
        ClassHint {
            class: class.into(),
            package: package.map(String::from),
        }
    }

    #[test]
    fn component_names_as_models_write_them() {
        // Every component name of the original Beagle's SoMoX model has this form.
        assert_eq!(
            class_hint(" <PC No. 3 de.uka.ipd.sdq.palladiofileshare.businesslogic.BusinessCore.java.BusinessCore>"),
            hint("BusinessCore", Some("de.uka.ipd.sdq.palladiofileshare.businesslogic"))
        );
        assert_eq!(
            class_hint("<PC No. 12 a.b.Outer.java.Inner>"),
            hint("Inner", Some("a.b"))
        );
        assert_eq!(class_hint("a.b.Storage"), hint("Storage", Some("a.b")));
        assert_eq!(class_hint("Storage"), hint("Storage", None));
        assert_eq!(class_hint("File Share"), hint("File Share", None));
        assert_eq!(class_hint("BusinessCoreImpl"), hint("BusinessCoreImpl", None));
    }

    #[test]
    fn names_fit_with_the_affixes_tools_and_people_add() {
        for (class, model) in [
            ("BusinessCoreImpl", "BusinessCore"),
            ("CartComponent", "Cart"),
            ("AuditLogBean", "AuditLog"),
            ("UserStoreAdapter", "IUserStore"),
            ("DefaultUserStore", "UserStore"),
            ("OrderServiceImpl", "OrderService"),
            ("Roster", "IRoster"),
        ] {
            assert_eq!(class_score(class, model), 0.9, "{class} for {model}");
        }
        assert_eq!(class_score("roster", "Roster"), 1.0);
        for (class, model) in [
            ("Index", "Ndex"),
            ("Service", "Impl"),
            ("Roster", "Rosters"),
            ("Logic", "Roster"),
        ] {
            assert_eq!(class_score(class, model), 0.0, "{class} for {model}");
        }
        assert_eq!(name_stem("Service"), "service");
        assert_eq!(name_stem("IUserStoreAdapter"), "userstore");
    }
}
