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
    assert_eq!(auto.len(), hand.len(), "no links beyond the hand-written ones");
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
