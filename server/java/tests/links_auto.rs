//! The automatic mapping: on the bundled file-sharing example (against its hand-written links),
//! on a small shop written for this test, and on an ambiguous case.

use beagle_java::links::auto::automatic_links;
use beagle_java::links::{read_links, validate, CodeLink, LinkOrigin};
use beagle_pcm::ModelSet;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn load(path: &Path) -> ModelSet {
    let mut models = ModelSet::new();
    models.load(path).unwrap();
    models
}

fn auto(models: &ModelSet, root: &Path, sources: &[PathBuf]) -> Vec<CodeLink> {
    let repos: Vec<_> = models.files().filter_map(|(_, f)| f.repository.as_ref()).collect();
    automatic_links(&repos, root, sources, &BTreeSet::new())
}

fn confidence(l: &CodeLink) -> f64 {
    match &l.origin {
        LinkOrigin::Automatic { confidence, .. } => *confidence,
        LinkOrigin::File { .. } => 1.0,
    }
}

fn reason(l: &CodeLink) -> &str {
    match &l.origin {
        LinkOrigin::Automatic { reason, .. } => reason,
        LinkOrigin::File { .. } => "",
    }
}

#[test]
fn reproduces_the_hand_written_links_of_the_fileshare_example() {
    let root = repo_root().join("fixtures/fileshare");
    let models = load(&root.join("model/fileshare.repository"));
    let hand = read_links(&root.join("model/links.toml"), &root, &[PathBuf::from("src")])
        .unwrap()
        .links;
    // As `beagle.toml`'s reader passes source roots: joined with the workspace root.
    let auto = auto(&models, &root, &[root.join("src")]);
    assert!(
        validate(&auto, &models, &root).is_empty(),
        "{:?}",
        validate(&auto, &models, &root)
    );
    let by_id: BTreeMap<&str, &CodeLink> = auto.iter().map(|l| (l.element.as_str(), l)).collect();
    for h in &hand {
        let a = by_id
            .get(h.element.as_str())
            .unwrap_or_else(|| panic!("{} not linked", h.element));
        assert_eq!((&a.file, &a.range), (&h.file, &h.range), "{}: {}", h.element, reason(a));
        assert!(confidence(a) >= 0.8, "{}: {} {}", h.element, confidence(a), reason(a));
    }
    // Beyond the hand-written links, each transition is linked to the arm that is its own (the
    // probes count it there): `isListed`'s rejected/accepted, `file size`'s large/small.
    let extra: BTreeSet<&str> = auto
        .iter()
        .map(|l| l.element.as_str())
        .filter(|e| !hand.iter().any(|h| h.element == *e))
        .collect();
    assert_eq!(
        extra,
        BTreeSet::from(["_fs_accepted", "_fs_large", "_fs_rejected", "_fs_small"]),
        "no other links beyond the hand-written ones"
    );
    let business = std::fs::read_to_string(root.join("src/fileshare/BusinessCore.java")).unwrap();
    assert_eq!(&business[by_id["_fs_rejected"].range.clone()], "rejected++;");
}

fn shop() -> (PathBuf, ModelSet, Vec<CodeLink>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/links/shop");
    let models = load(&root.join("Shop.repository"));
    let links = auto(&models, &root, &[PathBuf::from("src")]);
    (root, models, links)
}

#[test]
fn maps_a_shop_with_known_links() {
    let (root, models, links) = shop();
    let java = std::fs::read_to_string(root.join("src/shop/OrderServiceImpl.java")).unwrap();
    let code = |id: &str| -> (String, f64) {
        let l = links
            .iter()
            .find(|l| l.element == id)
            .unwrap_or_else(|| panic!("{id} not linked"));
        assert_eq!(l.file, Path::new("src/shop/OrderServiceImpl.java"));
        let text = &java[l.range.clone()];
        (text.lines().next().unwrap().to_string(), confidence(l))
    };
    let place = links.iter().find(|l| l.element == "_place_seff").unwrap();
    assert_eq!(
        reason(place),
        "class OrderServiceImpl matches component OrderService; method placeOrder(order, express) matches signature placeOrder"
    );
    assert!(
        java[place.range.clone()].starts_with("@Override\n    public void placeOrder(Order order, boolean express)")
    );
    assert_eq!(confidence(place), 0.9);
    let expected = [
        ("_p_prepare", "List<Item> items = order.items();"),
        ("_p_items", "for (Item item : items) {"),
        ("_p_reserve", "inventory.reserve(item);"),
        ("_p_retry", "while (tries < 3) {"),
        ("_p_count", "tries++;"),
        ("_p_express", "if (express) {"),
        ("_p_ship", "this.shipping.ship(order);"),
        ("_p_queue", "order.queue();"),
    ];
    for (id, first_line) in expected {
        let (text, c) = code(id);
        assert_eq!(text, first_line, "{id}");
        assert!(c >= 0.7, "{id}: {c}");
    }
    // The internal action before the loop runs up to it: both statements.
    let prepare = links.iter().find(|l| l.element == "_p_prepare").unwrap();
    assert!(java[prepare.range.clone()].ends_with("order.validate();"));
    let queue = links.iter().find(|l| l.element == "_p_queue").unwrap();
    assert!(java[queue.range.clone()].ends_with("order.log(\"queued\");"));
    // A loop without calls is the next loop in order: less sure.
    let retry = links.iter().find(|l| l.element == "_p_retry").unwrap();
    assert!(
        reason(retry).ends_with("while loop at line 26 is the next loop in order"),
        "{}",
        reason(retry)
    );
    assert!(confidence(retry) < confidence(links.iter().find(|l| l.element == "_p_items").unwrap()));
    let reserve = links.iter().find(|l| l.element == "_p_reserve").unwrap();
    assert!(reason(reserve).ends_with("statement at line 23 calls reserve through field inventory of type IInventory"));
    assert!(
        validate(&links, &models, &root).is_empty(),
        "{:?}",
        validate(&links, &models, &root)
    );
}

#[test]
fn an_ambiguous_mapping_gets_a_low_confidence() {
    let (_, _, links) = shop();
    let seff = links.iter().find(|l| l.element == "_price_seff").unwrap();
    assert_eq!(confidence(seff), 0.5);
    assert!(
        reason(seff).contains("one of 2 overloads that fit equally well"),
        "{}",
        reason(seff)
    );
    let rate = links.iter().find(|l| l.element == "_pr_rate").unwrap();
    assert!(confidence(rate) <= 0.3, "{}", confidence(rate));
    assert!(
        reason(rate).contains("another of that type too: a guess"),
        "{}",
        reason(rate)
    );
}

#[test]
fn skips_what_is_linked_already() {
    let (root, models, _) = shop();
    let repos: Vec<_> = models.files().filter_map(|(_, f)| f.repository.as_ref()).collect();
    let linked: BTreeSet<String> = ["_p_ship".to_string(), "_price_seff".to_string()].into();
    let links = automatic_links(&repos, &root, &[PathBuf::from("src")], &linked);
    assert!(links.iter().all(|l| !linked.contains(&l.element)));
    assert!(links.iter().any(|l| l.element == "_p_queue"));
}

/// Issue 38: the component's class inherits the operation from an abstract base (whose body
/// runs for it): the SEFF and its actions are linked in the base's file, and the reason says so.
#[test]
fn an_operation_inherited_from_an_abstract_base_is_linked_there() {
    let original = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/links/shop");
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src/shop")).unwrap();
    std::fs::copy(original.join("Shop.repository"), dir.path().join("Shop.repository")).unwrap();
    std::fs::copy(
        original.join("src/shop/Pricing.java"),
        dir.path().join("src/shop/Pricing.java"),
    )
    .unwrap();
    let text = std::fs::read_to_string(original.join("src/shop/OrderServiceImpl.java")).unwrap();
    // The whole body moves into an abstract base; the component's class keeps a constructor.
    let base = text
        .replace(
            "public class OrderServiceImpl implements IOrders",
            "public abstract class AbstractOrders implements IOrders",
        )
        .replace("private final", "protected final")
        .replace("public OrderServiceImpl(", "protected AbstractOrders(");
    std::fs::write(dir.path().join("src/shop/AbstractOrders.java"), base).unwrap();
    std::fs::write(
        dir.path().join("src/shop/OrderServiceImpl.java"),
        "package shop;\n\npublic class OrderServiceImpl extends AbstractOrders {\n    public OrderServiceImpl(IInventory inventory, IShipping shipping) {\n        super(inventory, shipping);\n    }\n}\n",
    )
    .unwrap();
    let models = load(&dir.path().join("Shop.repository"));
    let links = auto(&models, dir.path(), &[PathBuf::from("src")]);
    let place = links
        .iter()
        .find(|l| l.element == "_place_seff")
        .expect("the SEFF is linked");
    assert_eq!(place.file, Path::new("src/shop/AbstractOrders.java"));
    assert!(
        reason(place).ends_with(
            "method placeOrder(order, express) matches signature placeOrder, inherited from AbstractOrders (its body runs for OrderServiceImpl)"
        ),
        "{}",
        reason(place)
    );
    let items = links
        .iter()
        .find(|l| l.element == "_p_items")
        .expect("the loop is linked");
    assert_eq!(items.file, Path::new("src/shop/AbstractOrders.java"));
}

/// Issue 38: a method under a longer name (`placeCustomerOrder` for the signature's `placeOrder`)
/// is found by its words and its parameters' names, as a candidate below the threshold of use
/// (the class's name has an `Impl` suffix too): a proposal, with why.
#[test]
fn a_method_under_another_name_is_a_candidate_with_its_reason() {
    let original = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/links/shop");
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src/shop")).unwrap();
    std::fs::copy(original.join("Shop.repository"), dir.path().join("Shop.repository")).unwrap();
    let text = std::fs::read_to_string(original.join("src/shop/OrderServiceImpl.java")).unwrap();
    std::fs::write(
        dir.path().join("src/shop/OrderServiceImpl.java"),
        text.replace("placeOrder(", "placeCustomerOrder("),
    )
    .unwrap();
    let models = load(&dir.path().join("Shop.repository"));
    let links = auto(&models, dir.path(), &[PathBuf::from("src")]);
    let place = links.iter().find(|l| l.element == "_place_seff").expect("a candidate");
    assert!(
        reason(place).ends_with(
            "method placeCustomerOrder(order, express) has a name like signature placeOrder's, and 2 of its 2 parameters by name"
        ),
        "{}",
        reason(place)
    );
    let c = confidence(place);
    assert!((0.7..0.8).contains(&c), "{c}: a proposal, not used");
}

/// `tests/links/catalog`: a model whose operations the code has under other names (`find(items)`
/// is `findMatches(ownerId, currentItems)`, declared by the Java interface `ICatalog` that stands
/// for the model's), and a component (`Stock`) no class is named like, whose code is an endpoint
/// class and a synchronizer class, each implementing the counterpart of one of its interfaces.
fn catalog_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/links/catalog")
}

fn catalog_at(root: &Path) -> Vec<CodeLink> {
    let models = load(&root.join("Catalog.repository"));
    auto(&models, root, &[PathBuf::from("src")])
}

/// A copy of the catalog with `Catalog.java` edited by `edit`, and the links found in it.
fn edited_catalog(file: &str, edit: impl Fn(&str) -> String) -> Vec<CodeLink> {
    let dir = tempfile::tempdir().unwrap();
    let original = catalog_root();
    std::fs::copy(
        original.join("Catalog.repository"),
        dir.path().join("Catalog.repository"),
    )
    .unwrap();
    std::fs::create_dir_all(dir.path().join("src/catalog")).unwrap();
    for entry in std::fs::read_dir(original.join("src/catalog")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let text = if name == file { edit(&text) } else { text };
        std::fs::write(dir.path().join("src/catalog").join(name), text).unwrap();
    }
    catalog_at(dir.path())
}

fn link<'l>(links: &'l [CodeLink], id: &str) -> &'l CodeLink {
    links
        .iter()
        .find(|l| l.element == id)
        .unwrap_or_else(|| panic!("{id}: no candidate among {links:#?}"))
}

/// The automatic links of the repository `model` and the Java `files` (paths under `src/`, and
/// their text), written to a fresh folder as a workspace lays them out.
fn linked_in_folder(model: &str, files: &[(&str, &str)]) -> Vec<CodeLink> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("Model.repository"), model).unwrap();
    for (rel, text) in files {
        let path = dir.path().join("src").join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let models = load(&dir.path().join("Model.repository"));
    auto(&models, dir.path(), &[PathBuf::from("src")])
}

/// The confidence from which the job uses an automatic link (`TRUSTED_CONFIDENCE` in the job).
const USED: f64 = 0.8;

/// Issue 38: the model's `find(items)` is the code's `findMatches(ownerId, currentItems)`: a
/// longer name, one parameter more. Its words, the signature's parameter by a similar name and of
/// the same kind (a collection), and the Java interface that stands for the model's declaring
/// it carry it over the threshold, and the reason says each.
#[test]
fn a_longer_name_with_one_parameter_more_is_used_when_its_interface_stands_for_the_models() {
    let root = catalog_root();
    let links = catalog_at(&root);
    let java = std::fs::read_to_string(root.join("src/catalog/Catalog.java")).unwrap();
    let find = link(&links, "_find_seff");
    assert_eq!(find.file, Path::new("src/catalog/Catalog.java"));
    assert!(
        java[find.range.clone()]
            .starts_with("@Override\n    public List<Item> findMatches(long ownerId, List<Item> currentItems)"),
        "{}",
        &java[find.range.clone()]
    );
    assert_eq!(
        reason(find),
        "class Catalog matches component Catalog; method findMatches(ownerId, currentItems) has a name like signature find's, and 1 of its 1 parameters by name; kinds agree: currentItems is a collection like items; the signature lacks parameter ownerId; declared by interface ICatalog, which the class implements and which stands for the signature's interface ICatalog"
    );
    assert_eq!(
        confidence(find),
        0.95,
        "the most a name other than the signature's gets"
    );
    assert_eq!(find.receiver.as_deref(), Some("catalog.Catalog"));
    // Its action is linked inside it, as sure as the SEFF.
    let action = link(&links, "_f_match");
    assert_eq!(action.file, Path::new("src/catalog/Catalog.java"));
    assert!(java[action.range.clone()].starts_with("List<Item> out = new ArrayList<>();"));
    assert_eq!(confidence(action), confidence(find));
}

/// The same method without the interface: its name, parameter and kind still make it the
/// operation (an extra id lowers it only a little); with a parameter of a kind the signature's
/// cannot be, it is a proposal ("did you mean"), and the reason says what contradicts.
#[test]
fn the_same_method_without_its_interface_and_of_another_kind_is_a_proposal() {
    let without_interface = |text: &str| text.replace(" implements ICatalog", "").replace("    @Override\n", "");
    let links = edited_catalog("Catalog.java", without_interface);
    let find = link(&links, "_find_seff");
    assert!(!reason(find).contains("interface"), "{}", reason(find));
    let c = confidence(find);
    assert!((USED..0.9).contains(&c), "{c}: {}", reason(find));

    let links = edited_catalog("Catalog.java", |text| {
        without_interface(text).replace("List<Item> currentItems", "String currentItems")
    });
    let find = link(&links, "_find_seff");
    assert!(
        reason(find).ends_with(
            "method findMatches(ownerId, currentItems) has a name like signature find's, and 0 of its 1 parameters by name; kinds contradict: items is a collection, and no parameter of the method is; the signature lacks parameters ownerId, currentItems"
        ),
        "{}",
        reason(find)
    );
    let c = confidence(find);
    assert!(c < 0.5, "{c}: a proposal, far from use");
}

/// A method that shares one word with the signature and nothing else stays a proposal, whether
/// neither has parameters (`refreshCache()` for `refresh()`) or its parameter is of another kind
/// (`rankByName(String name)` for `rank(items)`, a collection).
#[test]
fn a_method_that_shares_only_a_word_with_the_signature_is_a_proposal() {
    let links = catalog_at(&catalog_root());
    let refresh = link(&links, "_refresh_seff");
    assert!(
        reason(refresh).ends_with("method refreshCache() has a name like signature refresh's, which has no parameters"),
        "{}",
        reason(refresh)
    );
    assert!(confidence(refresh) < USED, "{}", confidence(refresh));
    let rank = link(&links, "_rank_seff");
    assert!(reason(rank).contains("kinds contradict"), "{}", reason(rank));
    assert!(confidence(rank) < USED, "{}", confidence(rank));
}

/// Issue 38: one model component (`Stock`) stands for code spread over an endpoint class and a
/// synchronizer class, neither named like it. Each implements the Java counterpart of one of its
/// provided interfaces (`StockQuery` for `IStockQuery`, `IStockSync`): each SEFF is linked into the
/// class that implements its signature's interface, and the probe's receiver is that class.
#[test]
fn a_component_no_class_is_named_like_is_found_through_its_interfaces() {
    let links = catalog_at(&catalog_root());
    let available = link(&links, "_available_seff");
    assert_eq!(available.file, Path::new("src/catalog/StockEndpoint.java"));
    assert_eq!(
        reason(available),
        "no class is named like component Stock; class StockEndpoint implements StockQuery, which stands for its provided interface IStockQuery; method available(item) matches signature available"
    );
    assert_eq!(available.receiver.as_deref(), Some("catalog.StockEndpoint"));
    let sync = link(&links, "_sync_seff");
    assert_eq!(sync.file, Path::new("src/catalog/StockSynchronizer.java"));
    assert_eq!(sync.receiver.as_deref(), Some("catalog.StockSynchronizer"));
    // Below a class of the component's name, above the threshold of use.
    for l in [available, sync] {
        assert!((USED..1.0).contains(&confidence(l)), "{}", confidence(l));
    }
    // Two classes implementing the interface: a guess, halved as for classes of one name.
    let links = edited_catalog("StockSynchronizer.java", |text| {
        format!("{text}\nclass StockMirror implements IStockSync {{\n    public void sync(java.util.List<Item> items) {{}}\n}}\n")
    });
    let sync = link(&links, "_sync_seff");
    assert!(
        reason(sync).contains("(one of 2 classes that implement such an interface: a guess)"),
        "{}",
        reason(sync)
    );
    assert!(confidence(sync) < USED, "{}", confidence(sync));
}

/// Issue 49's small system laid out as extraction tools lay one out (`tests/links/extracted`): a
/// component per package, an interface per class named after it (simply or qualified), a
/// signature per public method, and a class named like the package's last segment as a trap.
fn extracted() -> (PathBuf, Vec<CodeLink>) {
    let (root, links, _) = extracted_explained();
    (root, links)
}

/// [`extracted`], with why each SEFF that got no link got none (SEFF id, reason).
fn extracted_explained() -> (PathBuf, Vec<CodeLink>, Vec<(String, String)>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/links/extracted");
    let models = load(&root.join("Extracted.repository"));
    let repos: Vec<_> = models.files().filter_map(|(_, f)| f.repository.as_ref()).collect();
    let (links, misses) = beagle_java::links::auto::automatic_links_explained(
        &repos,
        &root,
        &[PathBuf::from("src")],
        &BTreeSet::new(),
        &Default::default(),
    );
    (root, links, misses)
}

/// The link of `seff`: its file, the first line of the linked method, its confidence and reason.
fn seff_link(root: &Path, links: &[CodeLink], seff: &str) -> (PathBuf, String, f64, String) {
    let l = links
        .iter()
        .find(|l| l.element == seff)
        .unwrap_or_else(|| panic!("{seff} not linked: {links:#?}"));
    let text = std::fs::read_to_string(root.join(&l.file)).unwrap();
    let first = text[l.range.clone()].lines().next().unwrap().trim().to_string();
    (l.file.clone(), first, confidence(l), reason(l).to_string())
}

#[test]
fn a_component_named_like_a_package_holds_the_classes_its_interfaces_are_named_like() {
    let (root, links) = extracted();
    for (seff, file, first) in [
        (
            "_addMember_seff",
            "src/org/acme/logic/Roster.java",
            "public void addMember(String name, int age) {",
        ),
        (
            "_searchMembers_seff",
            "src/org/acme/logic/Roster.java",
            "public List<String> searchMembers(String query) {",
        ),
        // The interface's qualified name gives the class too.
        (
            "_scheduleReminders_seff",
            "src/org/acme/logic/Mailer.java",
            "public int scheduleReminders(List<String> recipients) {",
        ),
    ] {
        let (f, line, c, why) = seff_link(&root, &links, seff);
        assert_eq!((f.to_str().unwrap(), line.as_str()), (file, first), "{seff}: {why}");
        assert!(c >= 0.8, "{seff}: {c} {why}");
        assert!(
            why.starts_with("component org.acme.logic is package org.acme.logic; class "),
            "{seff}: {why}"
        );
    }
    let (_, _, _, why) = seff_link(&root, &links, "_addMember_seff");
    assert!(
        why.contains("class Roster in package org.acme.logic is named like interface Roster"),
        "{why}"
    );
}

#[test]
fn an_interface_named_like_a_class_with_an_affix_is_that_class() {
    let (root, links) = extracted();
    let (file, line, c, why) = seff_link(&root, &links, "_record_seff");
    assert_eq!(file, Path::new("src/org/acme/storage/AuditLogBean.java"), "{why}");
    assert_eq!(line, "public void record(String entry) {");
    assert!(c >= 0.8, "{c} {why}");
    assert!(
        why.contains("class AuditLogBean in package org.acme.storage is named like interface AuditLog"),
        "{why}"
    );
}

#[test]
fn a_class_named_like_the_packages_last_segment_is_not_the_component() {
    // `org.acme.logic` is not class `Logic`: its `searchMembers` delegates to the roster's, and
    // nothing of the mailer's is in it.
    let (_, links) = extracted();
    assert!(
        !links.iter().any(|l| l.file.ends_with("Logic.java")),
        "{:#?}",
        links
            .iter()
            .filter(|l| l.file.ends_with("Logic.java"))
            .collect::<Vec<_>>()
    );
}

#[test]
fn an_abstract_operation_is_not_linked_to_its_declaration_and_says_where_it_runs() {
    let (root, links, misses) = extracted_explained();
    assert!(!links.iter().any(|l| l.element == "_notifier_send_seff"), "{links:#?}");
    let why = misses
        .iter()
        .find(|(seff, _)| seff == "_notifier_send_seff")
        .map(|(_, why)| why.as_str())
        .unwrap_or_else(|| panic!("{misses:?}"));
    assert_eq!(
        why,
        "operation send is abstract in Notifier (a declaration without a body, nothing to measure): it runs in EmailNotifier, whose SEFFs are linked to their own bodies"
    );
    // The concrete class's own SEFF is linked to its body.
    let (file, line, c, reason) = seff_link(&root, &links, "_email_send_seff");
    assert_eq!(file, Path::new("src/org/acme/logic/EmailNotifier.java"), "{reason}");
    assert_eq!(line, "@Override");
    assert!(c >= 0.8, "{c} {reason}");
}

#[test]
fn overloads_are_told_apart_by_the_models_type_names() {
    let (root, links) = extracted();
    for (seff, first_line) in [
        ("_update_email_seff", "public void update(UpdateByEmail request) {"),
        // A nested class, `Requests.UpdateById` in the code, `UpdateById` in the model.
        ("_update_id_seff", "public void update(Requests.UpdateById request) {"),
    ] {
        let (file, line, c, why) = seff_link(&root, &links, seff);
        assert_eq!(file, Path::new("src/org/acme/logic/Accounts.java"), "{why}");
        assert_eq!(line, first_line, "{seff}: {why}");
        assert!(c >= 0.8, "{seff}: {c} {why}");
        assert!(why.ends_with("(by parameter types, among overloads)"), "{seff}: {why}");
    }
}

#[test]
fn a_trailing_varargs_parameter_may_be_missing_from_the_signature() {
    let (root, links) = extracted();
    let (file, line, c, why) = seff_link(&root, &links, "_log_seff");
    assert_eq!(file, Path::new("src/org/acme/logic/Mailer.java"), "{why}");
    assert_eq!(line, "public String log(String message, Object... args) {");
    assert_eq!(c, 1.0, "{why}");
    assert!(
        why.ends_with("method log(message, args) matches signature log"),
        "{why}"
    );
}

#[test]
fn a_call_through_a_required_interface_named_with_an_affix_in_the_code_is_linked() {
    // The model's required interface `IUserStore` is `IUserStoreAdapter` in the code.
    let (root, links) = extracted();
    let (file, line, c, why) = seff_link(&root, &links, "_rec_save");
    assert_eq!(file, Path::new("src/org/acme/storage/AuditLogBean.java"), "{why}");
    assert_eq!(line, "users.save(entry);");
    assert!(c >= 0.8, "{c} {why}");
    assert!(
        why.ends_with("statement at line 9 calls save through field users of type IUserStoreAdapter, named like the role's interface IUserStore"),
        "{why}"
    );
}

/// Issue 49, point 2: two components inherit a template method that calls a step each overrides.
/// `SlopeOne`'s SEFF has internal actions only: it may describe the template or the step (CIPM's
/// TeaStore model describes the step), so neither is used, and both are listed with why.
/// `Popular`'s SEFF has the template's loop: it describes the template, which is used.
#[test]
fn an_inherited_template_and_the_step_it_hands_over_are_both_candidates_when_the_seff_fits_either() {
    const MODEL: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<repository:Repository xmi:version="2.0" xmlns:xmi="http://www.omg.org/XMI" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:repository="http://palladiosimulator.org/PalladioComponentModel/Repository/5.2" xmlns:seff="http://palladiosimulator.org/PalladioComponentModel/SEFF/5.2" id="_r" entityName="Recommenders">
  <components__Repository xsi:type="repository:BasicComponent" id="_slope" entityName="SlopeOne">
    <providedRoles_InterfaceProvidingEntity xsi:type="repository:OperationProvidedRole" id="_slope_p" entityName="Recommending" providedInterface__OperationProvidedRole="_Recommending"/>
    <serviceEffectSpecifications__BasicComponent xsi:type="seff:ResourceDemandingSEFF" id="_slope_seff" describedService__SEFF="_recommend">
      <steps_Behaviour xsi:type="seff:StartAction" id="_s_start" successor_AbstractAction="_s_work"/>
      <steps_Behaviour xsi:type="seff:InternalAction" id="_s_work" entityName="recommend" predecessor_AbstractAction="_s_start" successor_AbstractAction="_s_stop"/>
      <steps_Behaviour xsi:type="seff:StopAction" id="_s_stop" predecessor_AbstractAction="_s_work"/>
    </serviceEffectSpecifications__BasicComponent>
  </components__Repository>
  <components__Repository xsi:type="repository:BasicComponent" id="_popular" entityName="Popular">
    <providedRoles_InterfaceProvidingEntity xsi:type="repository:OperationProvidedRole" id="_popular_p" entityName="Recommending" providedInterface__OperationProvidedRole="_Recommending"/>
    <serviceEffectSpecifications__BasicComponent xsi:type="seff:ResourceDemandingSEFF" id="_popular_seff" describedService__SEFF="_recommend">
      <steps_Behaviour xsi:type="seff:StartAction" id="_p_start" successor_AbstractAction="_p_items"/>
      <steps_Behaviour xsi:type="seff:LoopAction" id="_p_items" entityName="for each item" predecessor_AbstractAction="_p_start" successor_AbstractAction="_p_stop">
        <bodyBehaviour_Loop id="_p_body">
          <steps_Behaviour xsi:type="seff:StartAction" id="_pb_start" successor_AbstractAction="_pb_work"/>
          <steps_Behaviour xsi:type="seff:InternalAction" id="_pb_work" entityName="score item" predecessor_AbstractAction="_pb_start" successor_AbstractAction="_pb_stop"/>
          <steps_Behaviour xsi:type="seff:StopAction" id="_pb_stop" predecessor_AbstractAction="_pb_work"/>
        </bodyBehaviour_Loop>
        <iterationCount_LoopAction specification="1"/>
      </steps_Behaviour>
      <steps_Behaviour xsi:type="seff:StopAction" id="_p_stop" predecessor_AbstractAction="_p_items"/>
    </serviceEffectSpecifications__BasicComponent>
  </components__Repository>
  <interfaces__Repository xsi:type="repository:OperationInterface" id="_Recommending" entityName="Recommending">
    <signatures__OperationInterface id="_recommend" entityName="recommend">
      <parameters__OperationSignature parameterName="items"><dataType__Parameter href="pathmap://PCM_MODELS/PrimitiveTypes.repository#//@dataTypes__Repository.0"/></parameters__OperationSignature>
    </signatures__OperationInterface>
  </interfaces__Repository>
</repository:Repository>
"#;
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src/rec");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(dir.path().join("Rec.repository"), MODEL).unwrap();
    std::fs::write(
        src.join("AbstractRecommender.java"),
        "package rec;\n\npublic abstract class AbstractRecommender {\n    public int recommend(int[] items) {\n        int found = 0;\n        for (int i = 0; i < items.length; i++) {\n            found += execute(items[i]);\n        }\n        return found;\n    }\n\n    protected abstract int execute(int item);\n}\n",
    )
    .unwrap();
    for (class, body) in [("SlopeOne", "item * 3 % 7"), ("Popular", "item % 5")] {
        std::fs::write(
            src.join(format!("{class}.java")),
            format!("package rec;\n\npublic class {class} extends AbstractRecommender {{\n    @Override\n    protected int execute(int item) {{\n        return {body};\n    }}\n}}\n"),
        )
        .unwrap();
    }
    let models = load(&dir.path().join("Rec.repository"));
    let links = auto(&models, dir.path(), &[PathBuf::from("src")]);
    let of = |seff: &str| -> Vec<&CodeLink> { links.iter().filter(|l| l.element == seff).collect() };

    let slope = of("_slope_seff");
    let template = slope
        .iter()
        .find(|l| l.file == Path::new("src/rec/AbstractRecommender.java"))
        .unwrap_or_else(|| panic!("{slope:#?}"));
    let step = slope
        .iter()
        .find(|l| l.file == Path::new("src/rec/SlopeOne.java"))
        .unwrap_or_else(|| panic!("{slope:#?}"));
    assert!(
        confidence(template) < 0.8,
        "{}: {}",
        confidence(template),
        reason(template)
    );
    assert!(
        reason(template).ends_with("it calls execute, overridden for SlopeOne: a SEFF of internal actions only may describe that step instead (link the one it describes)"),
        "{}",
        reason(template)
    );
    assert!(confidence(step) < confidence(template), "{}", confidence(step));
    assert!(
        reason(step).contains(
            "SlopeOne.execute is the step that recommend, inherited from AbstractRecommender, calls for SlopeOne"
        ),
        "{}",
        reason(step)
    );
    // Its internal action follows the template's link: not used either.
    assert!(
        of("_s_work").iter().all(|l| confidence(l) < 0.8),
        "{:#?}",
        of("_s_work")
    );

    let popular = of("_popular_seff");
    assert_eq!(popular.len(), 1, "{popular:#?}");
    assert_eq!(popular[0].file, Path::new("src/rec/AbstractRecommender.java"));
    assert!(
        confidence(popular[0]) >= 0.8,
        "{}: {}",
        confidence(popular[0]),
        reason(popular[0])
    );
    assert!(of("_p_items").iter().any(|l| confidence(l) >= 0.8), "{links:#?}");
}

/// CoCoME's shape (`benchmarks/linking`): a component named like its package, whose interface
/// `StoreIf` the code has as `IStore`, implemented by an entity in another package, while the
/// operations are the methods of a server class in the component's package. The model has an
/// operation the code dropped since (`flushDatabase`).
#[test]
fn the_class_with_most_of_the_interfaces_operations_in_the_components_package_is_its_class() {
    const MODEL: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<repository:Repository xmi:version="2.0" xmlns:xmi="http://www.omg.org/XMI" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:repository="http://palladiosimulator.org/PalladioComponentModel/Repository/5.2" xmlns:seff="http://palladiosimulator.org/PalladioComponentModel/SEFF/5.2" id="_r" entityName="Shop">
  <components__Repository xsi:type="repository:BasicComponent" id="_store" entityName="Inventory.Application.Store">
    <providedRoles_InterfaceProvidingEntity xsi:type="repository:OperationProvidedRole" id="_store_p" entityName="StoreIf" providedInterface__OperationProvidedRole="_StoreIf"/>
    <serviceEffectSpecifications__BasicComponent xsi:type="seff:ResourceDemandingSEFF" id="_seff_getOrder" describedService__SEFF="_getOrder">
      <steps_Behaviour xsi:type="seff:StartAction" id="_o_start" successor_AbstractAction="_o_work"/>
      <steps_Behaviour xsi:type="seff:InternalAction" id="_o_work" entityName="read" predecessor_AbstractAction="_o_start" successor_AbstractAction="_o_stop"/>
      <steps_Behaviour xsi:type="seff:StopAction" id="_o_stop" predecessor_AbstractAction="_o_work"/>
    </serviceEffectSpecifications__BasicComponent>
  </components__Repository>
  <interfaces__Repository xsi:type="repository:OperationInterface" id="_StoreIf" entityName="StoreIf">
    <signatures__OperationInterface id="_getOrder" entityName="getOrder">
      <parameters__OperationSignature parameterName="orderId"><dataType__Parameter href="pathmap://PCM_MODELS/PrimitiveTypes.repository#//@dataTypes__Repository.6"/></parameters__OperationSignature>
    </signatures__OperationInterface>
    <signatures__OperationInterface id="_changePrice" entityName="changePrice"/>
    <signatures__OperationInterface id="_getStore" entityName="getStore"/>
    <signatures__OperationInterface id="_flushDatabase" entityName="flushDatabase"/>
  </interfaces__Repository>
</repository:Repository>
"#;
    let links = linked_in_folder(
        MODEL,
        &[
            (
                "org/shop/data/IStore.java",
                "package org.shop.data;\n\npublic interface IStore {\n    long getId();\n    String getOrder();\n}\n",
            ),
            (
                "org/shop/data/Store.java",
                "package org.shop.data;\n\npublic class Store implements IStore {\n    private long id;\n    public long getId() {\n        return id;\n    }\n    public String getOrder() {\n        return \"\";\n    }\n}\n",
            ),
            (
                "org/shop/inventory/application/store/StoreServer.java",
                "package org.shop.inventory.application.store;\n\npublic class StoreServer {\n    public String getOrder(long storeId, long orderId) {\n        return storeId + \":\" + orderId;\n    }\n    public void changePrice(long storeId, double price) {\n        System.out.println(price);\n    }\n    public long getStore(long storeId) {\n        return storeId;\n    }\n}\n",
            ),
            (
                "org/shop/inventory/application/store/StoreHelper.java",
                "package org.shop.inventory.application.store;\n\nclass StoreHelper {\n    long getStore(long storeId) {\n        return storeId + 1;\n    }\n}\n",
            ),
        ],
    );
    let seff = link(&links, "_seff_getOrder");
    assert_eq!(
        seff.file,
        Path::new("src/org/shop/inventory/application/store/StoreServer.java"),
        "{}",
        reason(seff)
    );
    assert!(
        reason(seff).contains("the only class in package org.shop.inventory.application.store with a method for 3 of interface StoreIf's 4 operations"),
        "{}",
        reason(seff)
    );
    // The class is identified by the interface's names, the method by its name and its
    // parameter's: used.
    assert!(confidence(seff) >= 0.8, "{} {}", confidence(seff), reason(seff));
}

/// CoCoME's queries (`benchmarks/linking`): the signature `queryStoreById(storeId, pctx)`, the
/// method `queryStoreById(long storeId)`: the code dropped the persistence context since the
/// model was drawn. The one method of the name, whose every parameter the signature has by name,
/// is the operation; a method without parameters says nothing of them.
#[test]
fn a_method_whose_parameters_the_signature_has_all_and_more_is_the_operation() {
    const MODEL: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<repository:Repository xmi:version="2.0" xmlns:xmi="http://www.omg.org/XMI" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:repository="http://palladiosimulator.org/PalladioComponentModel/Repository/5.2" xmlns:seff="http://palladiosimulator.org/PalladioComponentModel/SEFF/5.2" id="_r" entityName="Shop">
  <components__Repository xsi:type="repository:BasicComponent" id="_q" entityName="StoreQuery">
    <providedRoles_InterfaceProvidingEntity xsi:type="repository:OperationProvidedRole" id="_q_p" entityName="IStoreQuery" providedInterface__OperationProvidedRole="_IStoreQuery"/>
    <serviceEffectSpecifications__BasicComponent xsi:type="seff:ResourceDemandingSEFF" id="_seff_byId" describedService__SEFF="_byId">
      <steps_Behaviour xsi:type="seff:StartAction" id="_b_start" successor_AbstractAction="_b_work"/>
      <steps_Behaviour xsi:type="seff:InternalAction" id="_b_work" entityName="read" predecessor_AbstractAction="_b_start" successor_AbstractAction="_b_stop"/>
      <steps_Behaviour xsi:type="seff:StopAction" id="_b_stop" predecessor_AbstractAction="_b_work"/>
    </serviceEffectSpecifications__BasicComponent>
    <serviceEffectSpecifications__BasicComponent xsi:type="seff:ResourceDemandingSEFF" id="_seff_items" describedService__SEFF="_items">
      <steps_Behaviour xsi:type="seff:StartAction" id="_i_start" successor_AbstractAction="_i_work"/>
      <steps_Behaviour xsi:type="seff:InternalAction" id="_i_work" entityName="read" predecessor_AbstractAction="_i_start" successor_AbstractAction="_i_stop"/>
      <steps_Behaviour xsi:type="seff:StopAction" id="_i_stop" predecessor_AbstractAction="_i_work"/>
    </serviceEffectSpecifications__BasicComponent>
  </components__Repository>
  <interfaces__Repository xsi:type="repository:OperationInterface" id="_IStoreQuery" entityName="IStoreQuery">
    <signatures__OperationInterface id="_byId" entityName="queryStoreById">
      <parameters__OperationSignature parameterName="storeId"><dataType__Parameter href="pathmap://PCM_MODELS/PrimitiveTypes.repository#//@dataTypes__Repository.6"/></parameters__OperationSignature>
      <parameters__OperationSignature parameterName="pctx"><dataType__Parameter href="pathmap://PCM_MODELS/PrimitiveTypes.repository#//@dataTypes__Repository.1"/></parameters__OperationSignature>
    </signatures__OperationInterface>
    <signatures__OperationInterface id="_items" entityName="getStockItems">
      <parameters__OperationSignature parameterName="storeId"><dataType__Parameter href="pathmap://PCM_MODELS/PrimitiveTypes.repository#//@dataTypes__Repository.6"/></parameters__OperationSignature>
    </signatures__OperationInterface>
  </interfaces__Repository>
</repository:Repository>
"#;
    let links = linked_in_folder(
        MODEL,
        &[(
            "shop/StoreQuery.java",
            "package shop;\n\npublic class StoreQuery {\n    public String queryStoreById(long storeId) {\n        return \"store \" + storeId;\n    }\n    public int getStockItems() {\n        return 3;\n    }\n}\n",
        )],
    );
    let of = |seff: &str| link(&links, seff);
    let by_id = of("_seff_byId");
    assert!(confidence(by_id) >= 0.8, "{} {}", confidence(by_id), reason(by_id));
    assert!(
        reason(by_id).contains("every parameter of the method by name; the signature's pctx is not in the code"),
        "{}",
        reason(by_id)
    );
    let items = of("_seff_items");
    assert!(confidence(items) < 0.8, "{} {}", confidence(items), reason(items));
}

/// Issue 49, points 3 and 4: a method with more parameters than the signature is the operation
/// when it takes each of the signature's, by name or by the model's composite type (CoCoME's
/// `markProductsUnavailableInStock(requiredProductsAndAmount: ProductMovementTO)` is
/// `(long storeID, ProductMovementTO movedProducts)`); and what a web container passes (TeaStore's
/// `updateOrder(HttpServletRequest request, List<OrderItem> orderItems, HttpServletResponse
/// response)` for `updateOrder(items)`) is no input the model left out.
#[test]
fn a_parameter_taken_by_its_composite_type_or_beside_the_containers_request_is_the_operation() {
    const MODEL: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<repository:Repository xmi:version="2.0" xmlns:xmi="http://www.omg.org/XMI" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:repository="http://palladiosimulator.org/PalladioComponentModel/Repository/5.2" xmlns:seff="http://palladiosimulator.org/PalladioComponentModel/SEFF/5.2" id="_r" entityName="Shop">
  <components__Repository xsi:type="repository:BasicComponent" id="_c" entityName="Store">
    <providedRoles_InterfaceProvidingEntity xsi:type="repository:OperationProvidedRole" id="_c_p" entityName="StoreIf" providedInterface__OperationProvidedRole="_StoreIf"/>
    <serviceEffectSpecifications__BasicComponent xsi:type="seff:ResourceDemandingSEFF" id="_seff_mark" describedService__SEFF="_mark"/>
    <serviceEffectSpecifications__BasicComponent xsi:type="seff:ResourceDemandingSEFF" id="_seff_sold" describedService__SEFF="_sold"/>
    <serviceEffectSpecifications__BasicComponent xsi:type="seff:ResourceDemandingSEFF" id="_seff_update" describedService__SEFF="_update"/>
    <serviceEffectSpecifications__BasicComponent xsi:type="seff:ResourceDemandingSEFF" id="_seff_rename" describedService__SEFF="_rename"/>
  </components__Repository>
  <interfaces__Repository xsi:type="repository:OperationInterface" id="_StoreIf" entityName="StoreIf">
    <signatures__OperationInterface id="_mark" entityName="markUnavailable">
      <parameters__OperationSignature dataType__Parameter="_movement" parameterName="required"/>
    </signatures__OperationInterface>
    <signatures__OperationInterface id="_sold" entityName="markSold">
      <parameters__OperationSignature dataType__Parameter="_movement" parameterName="sold"/>
    </signatures__OperationInterface>
    <signatures__OperationInterface id="_update" entityName="updateOrder">
      <parameters__OperationSignature parameterName="items"><dataType__Parameter href="pathmap://PCM_MODELS/PrimitiveTypes.repository#//@dataTypes__Repository.0"/></parameters__OperationSignature>
    </signatures__OperationInterface>
    <signatures__OperationInterface id="_rename" entityName="rename">
      <parameters__OperationSignature parameterName="name"><dataType__Parameter href="pathmap://PCM_MODELS/PrimitiveTypes.repository#//@dataTypes__Repository.1"/></parameters__OperationSignature>
    </signatures__OperationInterface>
  </interfaces__Repository>
  <dataTypes__Repository xsi:type="repository:CompositeDataType" id="_movement" entityName="shop.ProductMovementTO"/>
</repository:Repository>
"#;
    const CODE: &str = "package shop;\n\nimport java.util.List;\nimport javax.servlet.http.HttpServletRequest;\nimport javax.servlet.http.HttpServletResponse;\n\npublic class Store {\n    public void markUnavailable(long storeId, final ProductMovementTO moved) {\n        moved.apply(storeId);\n    }\n    public void markSold(long storeId, OrderTO order) {\n        order.close(storeId);\n    }\n    private void updateOrder(HttpServletRequest request, List<String> items, HttpServletResponse response) {\n        items.clear();\n    }\n    public void rename(String name, boolean force) {\n        this.name = force ? name : this.name;\n    }\n    private String name;\n}\n";
    let links = linked_in_folder(MODEL, &[("shop/Store.java", CODE)]);
    let of = |seff: &str| link(&links, seff);
    let mark = of("_seff_mark");
    assert!(confidence(mark) >= 0.8, "{} {}", confidence(mark), reason(mark));
    assert!(
        reason(mark).contains("(moved by type)") && reason(mark).contains("1 more (storeId)"),
        "{}",
        reason(mark)
    );
    // Another composite type: not the signature's parameter, a guess.
    let sold = of("_seff_sold");
    assert!(confidence(sold) < 0.8, "{} {}", confidence(sold), reason(sold));
    // The request and the response cost nothing: the class by its name (1.0), the method fully.
    let update = of("_seff_update");
    assert!(confidence(update) >= 0.95, "{} {}", confidence(update), reason(update));
    assert!(
        reason(update).contains("what the web container passes (request, response)"),
        "{}",
        reason(update)
    );
    // A parameter of the code's own is one the model left out: used, below the container's case.
    let rename = of("_seff_rename");
    assert!(
        (0.8..0.95).contains(&confidence(rename)) && reason(rename).contains("1 more (force)"),
        "{} {}",
        confidence(rename),
        reason(rename)
    );
}

/// `fixtures/downloads` (issue 50) and its automatic links.
fn downloads() -> (PathBuf, Vec<CodeLink>) {
    let root = repo_root().join("fixtures/downloads");
    let links = auto(
        &load(&root.join("model/downloads.repository")),
        &root,
        &[PathBuf::from("src")],
    );
    (root, links)
}

/// Issue 50, `fixtures/downloads`: the model's `download(request: DownloadRequest)` (inner
/// declarations `Files`, `Size`, `Login`) is the code's `download(List<Long> files, int size,
/// String login, boolean local)`. Before, no parameter of the method took `request` and the SEFF
/// was a guess at 0.5; the composite spread over the method's parameters, named like its inner
/// declarations, makes it the operation.
#[test]
fn a_composite_spread_over_the_methods_parameters_is_the_operation() {
    let (_, links) = downloads();
    let download = link(&links, "_dl_download");
    assert!(confidence(download) >= USED, "{download:#?}");
    assert!(
        reason(download).contains("request spread over files, size, login, named like its inner declarations")
            && reason(download).contains("and 1 more (local)"),
        "{}",
        reason(download)
    );
}

/// Issue 50: the model's first transition (`packed`, the call `pack`) is the code's `else` arm of
/// `if (files.size() == 1)`; each transition is linked to the arm that holds its call, the other
/// to the arm left, and the actions inside follow. Before, they were matched by order: `packed`
/// was the `then` arm and `send single` was linked to `return packer.pack(items);`.
#[test]
fn transitions_are_the_arms_that_hold_their_calls_whatever_the_models_order() {
    let (root, links) = downloads();
    let java = std::fs::read_to_string(root.join("src/org/acme/media/MediaStore.java")).unwrap();
    let packed = link(&links, "_dl_packed");
    assert!(java[packed.range.clone()].contains("packer.pack(items)"), "{packed:#?}");
    assert!(reason(packed).contains("holds its call `pack`"), "{}", reason(packed));
    let single = link(&links, "_dl_single");
    assert!(java[single.range.clone()].contains("framed"), "{single:#?}");
    assert!(
        packed.range.start > single.range.end,
        "the else arm follows the then arm"
    );
    let send = link(&links, "_dl_download_send");
    assert!(
        java[send.range.clone()].starts_with("byte[] content = items.get(0).getContent();"),
        "{}",
        &java[send.range.clone()]
    );
    assert!(confidence(link(&links, "_dl_download_pack")) >= USED);
}

/// Issue 50: the reasons read right on a signature without parameters. Before: "every parameter
/// of the signature by name and 1 more (user)", of a signature that has none.
#[test]
fn a_signature_without_parameters_is_said_to_have_none() {
    const MODEL: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<repository:Repository xmi:version="2.0" xmlns:xmi="http://www.omg.org/XMI" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:repository="http://palladiosimulator.org/PalladioComponentModel/Repository/5.2" xmlns:seff="http://palladiosimulator.org/PalladioComponentModel/SEFF/5.2" id="_r" entityName="Shop">
  <components__Repository xsi:type="repository:BasicComponent" id="_c" entityName="Store">
    <providedRoles_InterfaceProvidingEntity xsi:type="repository:OperationProvidedRole" id="_c_p" entityName="StoreIf" providedInterface__OperationProvidedRole="_StoreIf"/>
    <serviceEffectSpecifications__BasicComponent xsi:type="seff:ResourceDemandingSEFF" id="_seff_list" describedService__SEFF="_list"/>
  </components__Repository>
  <interfaces__Repository xsi:type="repository:OperationInterface" id="_StoreIf" entityName="StoreIf">
    <signatures__OperationInterface id="_list" entityName="listOrders"/>
  </interfaces__Repository>
</repository:Repository>
"#;
    const CODE: &str = "package shop;\n\npublic class Store {\n    public int listOrders(String user) {\n        return user.length();\n    }\n}\n";
    let links = linked_in_folder(MODEL, &[("shop/Store.java", CODE)]);
    let list = link(&links, "_seff_list");
    assert!(
        reason(list).contains("a signature without parameters for a method with 1 (user)")
            && !reason(list).contains("every parameter of the signature"),
        "{}",
        reason(list)
    );
    assert!(confidence(list) >= USED, "{}", confidence(list));
}

/// Issue 50: the `else` of an early return. `if (files.size() == 1) { ...; return ...; } return
/// packer.pack(items);`: the branch is that `if`, and the model's `packed` transition (the call
/// `pack`) is the code after it. Before, the `if` was found only as "the next if in order" (0.5,
/// not used) and `packed` was its `then`.
#[test]
fn the_code_after_an_early_return_is_the_other_arm() {
    let root = repo_root().join("fixtures/downloads");
    let model = std::fs::read_to_string(root.join("model/downloads.repository")).unwrap();
    let store = std::fs::read_to_string(root.join("src/org/acme/media/MediaStore.java")).unwrap();
    let start = store.find("        if (files.size() == 1) {").unwrap();
    let end = store.find("    /** Stores each part").unwrap();
    let early = "        if (files.size() == 1) {\n            byte[] content = items.get(0).getContent();\n            return content.clone();\n        }\n        return packer.pack(items);\n    }\n\n";
    let store = format!("{}{early}{}", &store[..start], &store[end..]);
    let mut files: Vec<(String, String)> = Vec::new();
    for name in ["Library", "Packer", "Item", "UploadRequest"] {
        let rel = format!("org/acme/media/{name}.java");
        files.push((
            rel.clone(),
            std::fs::read_to_string(root.join("src").join(&rel)).unwrap(),
        ));
    }
    files.push(("org/acme/media/MediaStore.java".to_string(), store.clone()));
    let borrowed: Vec<(&str, &str)> = files.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let links = linked_in_folder(&model, &borrowed);
    let branch = link(&links, "_dl_download_branch");
    assert!(
        confidence(branch) >= USED && reason(branch).contains("returns early, leaving the call `pack`"),
        "{} {}",
        confidence(branch),
        reason(branch)
    );
    assert!(store[branch.range.clone()].starts_with("if (files.size() == 1)"));
    let packed = link(&links, "_dl_packed");
    assert_eq!(&store[packed.range.clone()], "return packer.pack(items);");
    assert_eq!(
        &store[link(&links, "_dl_download_pack").range.clone()],
        "return packer.pack(items);"
    );
    let single = link(&links, "_dl_single");
    assert!(store[single.range.clone()].contains("content.clone()"), "{single:#?}");
    assert!(single.range.end < packed.range.start);
}
