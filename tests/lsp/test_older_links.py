"""Issue 17 in the editor: the original Beagle's link file of fixtures/fileshare-older shows the
problems `beagle analyse` reports (same words), and offers the re-anchoring as a quick fix."""

import shutil

import pytest
from lsprotocol import types as t

from conftest import REPO, apply_text_edits, diagnostics_for, doc_id, line_of, open_doc, session

INFO = t.DiagnosticSeverity.Information
WARNING = t.DiagnosticSeverity.Warning


@pytest.fixture
def older(tmp_path):
    ws = tmp_path / "fileshare-older"
    shutil.copytree(REPO / "fixtures" / "fileshare-older", ws, ignore=shutil.ignore_patterns(".beagle"))
    return ws.resolve()


async def test_the_link_file_shows_its_problems_and_offers_the_re_anchoring(older, state_dir):
    async with session(older, state_dir) as client:
        path = older / "model" / "links.xml"
        text = path.read_text()
        uri = open_doc(client, path, text)
        diags = await diagnostics_for(client, uri)

        # The links into the package this version lacks: a warning on the link's line, in the
        # words of the CLI.
        missing = [d for d in diags if "fileshare.copyrightedmaterialsdb.DbAccess" in d.message]
        assert len(missing) == 1, [(d.range.start.line, d.message) for d in diags]
        assert missing[0].severity == WARNING
        assert missing[0].range.start.line == line_of(text, 'DbAccess">155</FirstStatement>')
        assert "no `fileshare/copyrightedmaterialsdb/DbAccess.java` under the source roots" in missing[0].message

        # Each link into the edited class: an info on its line.
        moved = [d for d in diags if "re-anchored: `fileshare.BusinessCore` changed" in d.message]
        assert len(moved) == 9, [d.message for d in diags]
        assert all(d.severity == INFO and "moved by +175 characters" in d.message for d in moved)
        assert {d.range.start.line for d in moved} == {
            line_of(text, f'pcmElementId="{e}"')
            for e in [
                "_fs_partition",
                "_fs_compress_loop_body",
                "_fs_compress_call",
                "_fs_file_loop",
                "_fs_hash_call",
                "_fs_is_listed_call",
                "_fs_accept",
                "_fs_count_rejection",
                "_fs_store_call",
            ]
        }

        # The quick fix rewrites the positions and the class's hash.
        actions = await client.text_document_code_action_async(
            t.CodeActionParams(
                text_document=doc_id(uri),
                range=moved[0].range,
                context=t.CodeActionContext(diagnostics=moved),
            )
        )
        (fix,) = [a for a in actions if isinstance(a, t.CodeAction) and "re-anchored positions" in a.title]
        assert fix.kind == t.CodeActionKind.QuickFix
        edits = fix.edit.changes[uri]
        fixed = apply_text_edits(text, edits)
        assert fixed != text
        old_first = text.split('pcmElementId="_fs_partition"')[1].split("</FirstStatement>")[0].split(">")[-1]
        new_first = fixed.split('pcmElementId="_fs_partition"')[1].split("</FirstStatement>")[0].split(">")[-1]
        assert int(new_first) == int(old_first) + 175

        # Saved, the file has nothing left to re-anchor; the missing package is still named.
        path.write_text(fixed)
        client.text_document_did_close(t.DidCloseTextDocumentParams(text_document=doc_id(uri)))
        client.diagnostics.pop(uri, None)
        uri = open_doc(client, path, fixed, version=2)
        diags = await diagnostics_for(client, uri)
        assert not [d for d in diags if "re-anchored" in d.message], [d.message for d in diags]
        assert len([d for d in diags if "DbAccess" in d.message]) == 1


async def test_the_model_shows_its_elements_link_problems(older, state_dir):
    async with session(older, state_dir) as client:
        path = older / "model" / "fileshare.repository"
        text = path.read_text()
        uri = open_doc(client, path, text)
        diags = await diagnostics_for(client, uri)
        # On the element whose code is missing: the CLI's warning, at the element's start tag.
        (missing,) = [d for d in diags if "fileshare.copyrightedmaterialsdb.DbAccess" in d.message]
        assert missing.severity == WARNING
        assert missing.range.start.line == line_of(text, 'id="_old_query"')
        assert "links.xml:77: warning: `_old_query`: class" in missing.message
        # On each re-anchored element: an info.
        (moved,) = [d for d in diags if "re-anchored" in d.message and "_fs_partition" in d.message]
        assert moved.severity == INFO
        assert moved.range.start.line == line_of(text, 'id="_fs_partition"')

