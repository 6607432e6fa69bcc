//! Editors hand over whatever is in the buffer: every feature must take broken, truncated and
//! random text without panicking, and give nothing or what the readable part says.

mod common;

use beagle_ide::{definition, document_symbols, element_at, hover, references, workspace_symbols, Symbol};
use beagle_pcm::{ModelFile, ModelSet};
use common::*;
use proptest::prelude::*;
use std::path::PathBuf;

/// Spans of a file's symbols nest, and stay inside the text.
fn assert_sound(symbols: &[Symbol], within: (u32, u32)) {
    for s in symbols {
        assert!(
            within.0 <= s.span.start && s.span.end <= within.1,
            "{} outside its parent",
            s.name
        );
        assert!(
            s.span.start <= s.selection.start && s.selection.end <= s.span.end,
            "{}",
            s.name
        );
        assert_sound(&s.children, (s.span.start, s.span.end));
    }
}

/// Runs every feature on `text` at every `step`th offset (and just past the end).
fn exercise(text: String, step: usize) {
    let path = fixture("fileshare/model/garbage.repository");
    let file = ModelFile::parse(path, text);
    let len = file.text().len();
    assert_sound(&document_symbols(&file), (0, len as u32));
    let _ = workspace_symbols(&[&file], "a");
    let mut set = ModelSet::new();
    let id = set.insert(file);
    set.load_referenced(id);
    let file = set.file(id);
    let results = Vec::new();
    for offset in (0..=len + 1).step_by(step.max(1)).chain([len]) {
        let _ = element_at(file, offset);
        let _ = hover(file, offset, &results);
        if let Some(at) = definition(&set, id, offset) {
            let target = set.file(set.id_of(&at.path).expect("in the set"));
            assert!(at.span.end as usize <= target.text().len());
        }
        for at in references(&set, id, offset, true) {
            assert!(set.id_of(&at.path).is_some());
        }
    }
}

#[test]
fn empty_and_whitespace_files_have_nothing() {
    for text in ["", "   \n", "<?xml version=\"1.0\"?>", "<", "</a>", "<a", "<a/><b/>"] {
        let file = ModelFile::parse(PathBuf::from("x.repository"), text.to_string());
        if text.starts_with("<a/>") {
            // A second root: the first is still read.
            assert_eq!(document_symbols(&file).len(), 1);
        } else {
            assert!(document_symbols(&file).is_empty(), "{text:?}");
        }
        if !text.starts_with("<a/>") {
            for offset in 0..=text.len() + 1 {
                assert_eq!(hover(&file, offset, &[]), None, "{text:?} at {offset}");
            }
        }
        exercise(text.to_string(), 1);
    }
}

#[test]
fn random_bytes_are_read_lossily_and_give_nothing() {
    let bytes: Vec<u8> = (0u32..4096)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let file = ModelFile::from_bytes(PathBuf::from("random.repository"), bytes);
    assert!(document_symbols(&file).is_empty());
    assert_eq!(element_at(&file, 100), None);
    exercise(file.text().to_string(), 7);
}

#[test]
fn every_truncation_of_the_fixture() {
    let text = std::fs::read_to_string(fixture(FILESHARE)).unwrap();
    for cut in (0..text.len()).step_by(97) {
        exercise(text[..cut].to_string(), 211);
    }
}

#[test]
fn a_truncated_file_keeps_what_was_read() {
    let text = std::fs::read_to_string(fixture(FILESHARE)).unwrap();
    let cut = offset_of(&text, "entityName=\"compress loop\"", 0, 0);
    let file = ModelFile::parse(PathBuf::from("cut.repository"), text[..cut].to_string());
    let symbols = document_symbols(&file);
    let rendered = render_symbols(&file, &symbols);
    assert!(rendered.contains("InternalAction partition files"), "{rendered}");
    // Inside an element left open by the cut: still that element.
    let at = element_at(&file, cut - 3).expect("inside the open loop action");
    assert_eq!(at.component.as_deref(), Some("_fs_BusinessCore"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn arbitrary_text(text in "\\PC{0,200}") {
        exercise(text, 3);
    }

    #[test]
    fn arbitrary_xml_like_text(
        text in r#"(<[a-z:]{1,6}( xsi:type="seff:[A-Za-z]{0,14}"| id="[ab]{0,2}"| entityName="[a-z&;]{0,4}"| successor_AbstractAction="[ab]{0,2}"| href="[a-z.#/]{0,8}")*/?>|</[a-z:]{1,6}>|[ a<>"\n]){0,25}"#
    ) {
        exercise(text, 2);
    }

    /// SEFFs with broken chains (cycles, dangling successors, duplicate ids, missing ends) inside
    /// a well-formed repository, so that the typed view is built from them.
    #[test]
    fn arbitrary_seffs(
        steps in proptest::collection::vec(
            r#"<steps_Behaviour xsi:type="seff:(StartAction|StopAction|InternalAction|LoopAction|BranchAction|ExternalCallAction)" id="[abc]" (successor|predecessor)_AbstractAction="[abc]"(/>|>(<bodyBehaviour_Loop id="[de]">|</bodyBehaviour_Loop>|<branches_Branch id="t"/>)?</steps_Behaviour>)"#,
            0..8,
        ),
        cut in 0usize..2000,
    ) {
        let text = format!(
            "{}<components__Repository xsi:type=\"repository:BasicComponent\" id=\"c\">\
             <serviceEffectSpecifications__BasicComponent xsi:type=\"seff:ResourceDemandingSEFF\" id=\"s\">{}\
             </serviceEffectSpecifications__BasicComponent></components__Repository></repository:Repository>",
            ROOT,
            steps.concat()
        );
        exercise(text.clone(), 5);
        exercise(text[..cut.min(text.len())].to_string(), 5);
    }
}

const ROOT: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<repository:Repository xmi:version="2.0" xmlns:xmi="http://www.omg.org/XMI" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:repository="http://palladiosimulator.org/PalladioComponentModel/Repository/5.2" xmlns:seff="http://palladiosimulator.org/PalladioComponentModel/SEFF/5.2" id="r" entityName="R">"#;

#[test]
fn a_broken_chain_still_lists_every_action_once() {
    // a → b → a: a cycle with no start; c dangles.
    let steps = r#"<steps_Behaviour xsi:type="seff:StartAction" id="s0" successor_AbstractAction="a"/>
<steps_Behaviour xsi:type="seff:InternalAction" id="b" entityName="B" successor_AbstractAction="a"/>
<steps_Behaviour xsi:type="seff:InternalAction" id="a" entityName="A" successor_AbstractAction="b"/>
<steps_Behaviour xsi:type="seff:InternalAction" id="c" entityName="C" successor_AbstractAction="nowhere"/>"#;
    let text = format!(
        "{ROOT}<components__Repository xsi:type=\"repository:BasicComponent\" id=\"comp\" entityName=\"K\">\
         <serviceEffectSpecifications__BasicComponent xsi:type=\"seff:ResourceDemandingSEFF\" id=\"s\">{steps}\
         </serviceEffectSpecifications__BasicComponent></components__Repository></repository:Repository>"
    );
    let file = ModelFile::parse(PathBuf::from("cycle.repository"), text);
    let symbols = document_symbols(&file);
    insta::assert_snapshot!(render_symbols(&file, &symbols), @r"
    Repository R — Repository @2
      Component K — BasicComponent @2
        Seff SEFF @2
          StartAction StartAction @2
          InternalAction A — InternalAction @4
          InternalAction B — InternalAction @3
          InternalAction C — InternalAction @5
    ");
}
