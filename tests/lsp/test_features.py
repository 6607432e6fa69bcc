"""Diagnostics, symbols, navigation, hover and code actions on the fileshare fixture."""

import asyncio

from lsprotocol import types as t

from conftest import (
    MODEL,
    diagnostics_for,
    doc_id,
    line_of,
    open_doc,
    pos_in,
    session,
)

ERROR = t.DiagnosticSeverity.Error


async def change_whole(client, uri, version, text):
    client.diagnostics.pop(uri, None)
    client.text_document_did_change(
        t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[t.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )
    return await diagnostics_for(client, uri)


async def test_diagnostics_model_and_config(workspace, state_dir):
    async with session(workspace, state_dir) as client:
        path = workspace / MODEL
        text = path.read_text()
        uri = open_doc(client, path, text)
        diags = await diagnostics_for(client, uri)
        assert [d for d in diags if d.severity == ERROR] == [], diags

        # A dangling successor: an error on its line.
        broken = text.replace(
            'predecessor_AbstractAction="_fs_upload_seff_start" successor_AbstractAction="_fs_compress_loop"',
            'predecessor_AbstractAction="_fs_upload_seff_start" successor_AbstractAction="_fs_nowhere"',
        )
        assert broken != text
        diags = await change_whole(client, uri, 2, broken)
        errors = [d for d in diags if d.severity == ERROR]
        assert errors, diags
        line = line_of(broken, '"_fs_nowhere"')
        assert any(d.range.start.line == line and "_fs_nowhere" in d.message for d in errors), [
            (d.range.start.line, d.message) for d in errors
        ]

        # A StoEx that does not parse: an error on its line.
        broken = text.replace(
            '<iterationCount_LoopAction specification="1"/>',
            '<iterationCount_LoopAction specification="files.NUMBER_OF_ELEMENTS +"/>',
            1,
        )
        diags = await change_whole(client, uri, 3, broken)
        line = line_of(broken, "files.NUMBER_OF_ELEMENTS +")
        errors = [d for d in diags if d.severity == ERROR]
        assert any(d.range.start.line == line for d in errors), [(d.range.start.line, d.message) for d in diags]

        # Fixed again: no errors.
        diags = await change_whole(client, uri, 4, text)
        assert [d for d in diags if d.severity == ERROR] == [], diags

        # beagle.toml with an unknown key: a diagnostic on that line.
        toml_path = workspace / "beagle.toml"
        toml = toml_path.read_text().replace("[analysis]\n", "[analysis]\ncolour = \"blue\"\n")
        toml_uri = open_doc(client, toml_path, toml, language="toml")
        diags = await diagnostics_for(client, toml_uri)
        print("toml diagnostics", diags, client.bad_positions)
        line = line_of(toml, "colour")
        assert any(d.range.start.line == line and "colour" in d.message for d in diags), [
            (d.range.start.line, d.message) for d in diags
        ]

        # The links file of the fixture is valid.
        links_uri = open_doc(client, workspace / "model/links.toml", language="toml")
        diags = await diagnostics_for(client, links_uri)
        assert [d for d in diags if d.severity == ERROR] == [], diags


async def test_symbols_navigation_hover_code_actions(workspace, state_dir):
    async with session(workspace, state_dir) as client:
        path = workspace / MODEL
        text = path.read_text()
        uri = open_doc(client, path, text)

        # Document symbols: the repository, its components, a SEFF's actions in execution order.
        symbols = await client.text_document_document_symbol_async(t.DocumentSymbolParams(text_document=doc_id(uri)))
        (repo,) = symbols
        assert repo.name == "FileShare"
        components = [c.name for c in repo.children if c.kind == t.SymbolKind.Class]
        assert components == [
            "BusinessCore",
            "Compression",
            "Hashing",
            "CopyrightDatabase",
            "Storage",
            "LargeFileStorage",
            "SmallFileStorage",
        ], components
        core = next(c for c in repo.children if c.name == "BusinessCore")

        def walk(s):
            yield s
            for c in s.children or []:
                yield from walk(c)

        seff = next(s for s in walk(core) if s.kind == t.SymbolKind.Method)
        names = [c.name for c in seff.children]
        wanted = ["partition files", "compress loop", "file loop"]
        found = [n for n in names if n in wanted]
        assert found == wanted, names
        partition = next(s for s in walk(core) if s.name == "partition files")
        assert partition.kind == t.SymbolKind.Function
        assert partition.selection_range.start.line == line_of(text, 'entityName="partition files"')

        # Workspace symbols.
        found = await client.workspace_symbol_async(t.WorkspaceSymbolParams(query="compress"))
        names = {s.name for s in found}
        assert {"compress loop", "compress"} <= names, names
        assert all(s.location.uri == uri for s in found if s.name == "compress loop")

        # Definition: from an ExternalCallAction's called signature to the signature.
        call = pos_in(text, "_fs_IHashing_hash", after='entityName="hash" predecessor')
        location = await client.text_document_definition_async(
            t.DefinitionParams(text_document=doc_id(uri), position=call)
        )
        if isinstance(location, list):
            (location,) = location
        assert location.uri == uri
        assert location.range.start.line == line_of(text, 'id="_fs_IHashing_hash"'), location

        # References to the signature: the call and the SEFF that implements it.
        signature = pos_in(text, "_fs_IHashing_hash", after='<signatures__OperationInterface id="_fs_IHashing_hash"')
        refs = await client.text_document_references_async(
            t.ReferenceParams(
                text_document=doc_id(uri),
                position=signature,
                context=t.ReferenceContext(include_declaration=False),
            )
        )
        lines = {r.range.start.line for r in refs}
        assert line_of(text, 'entityName="hash" predecessor') in lines, lines
        assert line_of(text, 'describedService__SEFF="_fs_IHashing_hash"') in lines, lines

        # Hover on an internal action.
        at = pos_in(text, 'entityName="partition files"')
        hover = await client.text_document_hover_async(t.HoverParams(text_document=doc_id(uri), position=at))
        assert "partition files" in hover.contents.value and "InternalAction" in hover.contents.value, hover
        assert "Not analysed" in hover.contents.value, hover.contents.value

        # Code actions at an internal action.
        actions = await client.text_document_code_action_async(
            t.CodeActionParams(
                text_document=doc_id(uri),
                range=t.Range(start=at, end=at),
                context=t.CodeActionContext(diagnostics=[]),
            )
        )
        assert all(isinstance(a, t.CodeAction) for a in actions), actions
        titles = [a.title for a in actions]
        for wanted in [
            "Beagle: Analyse internal action partition files",
            "Beagle: Analyse component BusinessCore",
            "Beagle: Analyse repository",
        ]:
            assert wanted in titles, titles
        assert "Beagle: Apply results" not in titles
        by_title = {a.title: a for a in actions}
        cmd = by_title["Beagle: Analyse internal action partition files"].command
        assert cmd.command == "beagle.analyseAction" and list(cmd.arguments) == [uri, "_fs_partition"], cmd
        cmd = by_title["Beagle: Analyse component BusinessCore"].command
        assert cmd.command == "beagle.analyseComponent" and list(cmd.arguments) == [uri, "_fs_BusinessCore"], cmd

        # Code lenses above components and SEFFs.
        lenses = await client.text_document_code_lens_async(t.CodeLensParams(text_document=doc_id(uri)))
        commands = [lens.command.title for lens in lenses if lens.command]
        assert "▶ Analyse BusinessCore" in commands, commands
        assert "Beagle: not analysed" in commands, commands

        # The server advertises every command it handles.
        advertised = client.init_result.capabilities.execute_command_provider.commands
        assert "beagle.analyseRepository" in advertised and "beagle.status" in advertised, advertised
        await asyncio.sleep(0)
