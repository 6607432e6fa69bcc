"""Robustness of the real binary: bad documents, unknown URIs and methods, shutdown and exit."""

import asyncio
import random
import re
import time

import pytest
from lsprotocol import types as t
from pygls.exceptions import JsonRpcException, JsonRpcMethodNotFound

from conftest import MODEL, diagnostics_for, doc_id, open_doc, session, uri_of


async def answers(coro, timeout=30):
    """The result, or the error response (as the exception); never a hang."""
    try:
        return await asyncio.wait_for(coro, timeout)
    except JsonRpcException as e:
        return e


def big_repository(text: str, size: int) -> str:
    """The fixture with copies of one component (fresh ids) until it is `size` bytes."""
    start = text.index('  <components__Repository xsi:type="repository:BasicComponent" id="_fs_Hashing"')
    end = text.index("</components__Repository>", start) + len("</components__Repository>\n")
    block = text[start:end]
    copies, i = [], 0
    while len(text) + sum(map(len, copies)) < size:
        copies.append(re.sub(r'(id|successor_AbstractAction|predecessor_AbstractAction)="_fs_', rf'\1="_c{i}_', block))
        i += 1
    return text[:end] + "".join(copies) + text[end:]


async def probe(client, uri, positions):
    """Every read request at each position: each answers (result or error response)."""
    out = []
    did = doc_id(uri)
    out.append(await answers(client.text_document_document_symbol_async(t.DocumentSymbolParams(text_document=did))))
    out.append(await answers(client.text_document_code_lens_async(t.CodeLensParams(text_document=did))))
    for pos in positions:
        out.append(await answers(client.text_document_hover_async(t.HoverParams(text_document=did, position=pos))))
        out.append(
            await answers(client.text_document_definition_async(t.DefinitionParams(text_document=did, position=pos)))
        )
        out.append(
            await answers(
                client.text_document_references_async(
                    t.ReferenceParams(
                        text_document=did, position=pos, context=t.ReferenceContext(include_declaration=True)
                    )
                )
            )
        )
        out.append(
            await answers(
                client.text_document_code_action_async(
                    t.CodeActionParams(
                        text_document=did, range=t.Range(start=pos, end=pos), context=t.CodeActionContext(diagnostics=[])
                    )
                )
            )
        )
    return out


async def alive(client, uri):
    """A later request still works."""
    symbols = await asyncio.wait_for(
        client.text_document_document_symbol_async(t.DocumentSymbolParams(text_document=doc_id(uri))), 20
    )
    assert symbols and symbols[0].name == "FileShare"
    assert client._server.returncode is None, "the server died"


POSITIONS = [
    t.Position(line=0, character=0),
    t.Position(line=3, character=40),
    t.Position(line=10, character=10_000),
    t.Position(line=1_000_000, character=0),
]


async def test_bad_documents_and_unknown_uris(workspace, state_dir):
    async with session(workspace, state_dir) as client:
        good = open_doc(client, workspace / MODEL)
        text = (workspace / MODEL).read_text()

        rng = random.Random(1)
        garbage = "".join(chr(rng.choice([0, 9, 10, 60, 62, 34, 38]) if rng.random() < 0.3 else rng.randrange(32, 0x2FFF)) for _ in range(20000))
        garbage += "😀\r\n\u2028<repository:Repository>"
        cases = {
            "garbage.repository": garbage,
            "truncated.repository": text[: len(text) // 2],
            "empty.repository": "",
            "big.repository": big_repository(text, 5 * 1024 * 1024),
            "garbage/beagle.toml": garbage,
            "links-garbage.toml": garbage,
        }
        for name, body in cases.items():
            path = workspace / "junk" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            start = time.monotonic()
            uri = open_doc(client, path, body, language="toml" if name.endswith(".toml") else "xml")
            await diagnostics_for(client, uri, timeout=60)
            results = await probe(client, uri, POSITIONS + [t.Position(line=len(body.splitlines()) // 2, character=5)])
            assert not any(isinstance(r, asyncio.TimeoutError) for r in results)
            await alive(client, good)
            print(f"{name}: {len(body)} characters, {time.monotonic() - start:.1f} s")

        # The 5 MB model parses: its symbols hold every copy.
        big = uri_of(workspace / "junk" / "big.repository")
        symbols = await client.text_document_document_symbol_async(t.DocumentSymbolParams(text_document=doc_id(big)))
        assert len(symbols[0].children) > 1000

        # A document that was never opened, and one on another scheme.
        for uri in [uri_of(workspace / "nowhere.repository"), "untitled:Untitled-1", "file:///definitely/not/here.xml"]:
            results = await probe(client, uri, POSITIONS[:2])
            assert all(r is None or r == [] or isinstance(r, JsonRpcException) for r in results), results
            client.text_document_did_change(
                t.DidChangeTextDocumentParams(
                    text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=9),
                    content_changes=[t.TextDocumentContentChangeWholeDocument(text="x")],
                )
            )
            client.text_document_did_close(t.DidCloseTextDocumentParams(text_document=doc_id(uri)))
        await alive(client, good)

        # Incremental changes with ranges past the end of the document.
        client.text_document_did_change(
            t.DidChangeTextDocumentParams(
                text_document=t.VersionedTextDocumentIdentifier(uri=good, version=2),
                content_changes=[
                    t.TextDocumentContentChangePartial(
                        range=t.Range(start=t.Position(line=5000, character=3), end=t.Position(line=6000, character=0)),
                        text="<!-- past the end -->",
                    )
                ],
            )
        )
        await alive(client, good)

        # Commands with bad arguments answer with errors.
        for command, args in [
            ("beagle.nonsense", []),
            ("beagle.analyseRepository", []),
            ("beagle.analyseRepository", [42]),
            ("beagle.analyseRepository", ["not a uri"]),
            ("beagle.analyseRepository", ["file:///etc/passwd"]),
            ("beagle.analyseComponent", [good]),
            ("beagle.applyResults", [good]),
        ]:
            r = await answers(
                client.workspace_execute_command_async(t.ExecuteCommandParams(command=command, arguments=args))
            )
            assert isinstance(r, JsonRpcException), (command, args, r)
        await alive(client, good)

        # An unknown method: MethodNotFound, and the server goes on.
        with pytest.raises(JsonRpcMethodNotFound):
            await asyncio.wait_for(client.protocol.send_request_async("beagle/noSuchMethod", {"x": 1}), 10)
        # An unknown notification is ignored.
        client.protocol.notify("beagle/noSuchNotification", {"x": 1})
        await alive(client, good)


async def test_shutdown_then_exit_ends_the_process(workspace, state_dir):
    async with session(workspace, state_dir, shutdown=False) as client:
        open_doc(client, workspace / MODEL)
        server = client._server
        assert await asyncio.wait_for(client.shutdown_async(None), 10) is None
        start = time.monotonic()
        client.exit(None)  # stdin stays open: the server must end by itself.
        code = await asyncio.wait_for(server.wait(), 5)
        assert code == 0, code
        print(f"exited {time.monotonic() - start:.2f} s after `exit`")


async def test_exit_without_shutdown_ends_the_process(workspace, state_dir):
    async with session(workspace, state_dir, shutdown=False) as client:
        server = client._server
        client.exit(None)
        code = await asyncio.wait_for(server.wait(), 5)
        # LSP: exit without a shutdown first ends with status 1.
        assert code == 1, code


async def test_positions_are_within_lsp_range(workspace, state_dir):
    async with session(workspace, state_dir) as client:
        toml = (workspace / "beagle.toml").read_text().replace("[analysis]\n", "[analysis]\ncolour = 1\n")
        uri = open_doc(client, workspace / "beagle.toml", toml, language="toml")
        await diagnostics_for(client, uri)
        assert client.bad_positions == [], client.bad_positions
