"""End-to-end tests of `beagle lsp` with a real LSP client (pytest-lsp over stdio).

Every test copies fixtures/fileshare to a temporary folder, starts the real binary
($BEAGLE_BIN, else target/release/beagle) with $BEAGLE_STATE_DIR in a temporary folder, and
talks to it as an editor would.
"""

import asyncio
import contextlib
import json
import os
import shutil
import time
from pathlib import Path
from typing import Union

import pytest
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "fixtures" / "fileshare"
MODEL = "model/fileshare.repository"

# Fast analyses for CI: no genetic programming, one repetition per workload point.
FAST = {"geneticProgramming": False, "repetitions": 1, "seed": 1}
if os.environ.get("BEAGLE_E2E_OPTIONS"):
    FAST = json.loads(os.environ["BEAGLE_E2E_OPTIONS"])


def beagle_bin() -> str:
    path = os.environ.get("BEAGLE_BIN") or str(REPO / "target" / "release" / "beagle")
    if not os.path.isfile(path):
        pytest.exit(f"no beagle binary at {path}: build it (cargo build --release -p beagle-cli) or set BEAGLE_BIN", 2)
    return path


@pytest.fixture
def workspace(tmp_path) -> Path:
    """A fresh copy of the fileshare fixture (never the fixture itself), without .beagle."""
    ws = tmp_path / "fileshare"
    shutil.copytree(FIXTURE, ws, ignore=shutil.ignore_patterns(".beagle", "out"))
    return ws.resolve()


@pytest.fixture
def state_dir(tmp_path) -> Path:
    d = tmp_path / "state"
    d.mkdir()
    return d


def uri_of(path: Path) -> str:
    return path.resolve().as_uri()


def fix_command_or_code_action(client: LanguageClient):
    """lsprotocol 2025.0.0 parses a CodeAction that carries a `command` as a Command (its hook
    tests `"command" in obj`): count an item as a Command only when `command` is a string."""
    conv = client.protocol._converter

    def hook(obj, _):
        if isinstance(obj.get("command"), str):
            return conv.structure(obj, t.Command)
        return conv.structure(obj, t.CodeAction)

    conv.register_structure_hook(Union[t.Command, t.CodeAction], hook)


MAX_UINTEGER = 2**31 - 1


def tolerate_out_of_range_positions(client: LanguageClient):
    """LSP's uinteger stops at 2^31 - 1; lsprotocol drops a whole message with a larger position
    (editors clamp it). Clamp, as editors do, and record each such position in
    `client.bad_positions` (test_protocol.py reports them)."""
    conv = client.protocol._converter
    client.bad_positions = []

    def hook(obj, _):
        line, character = obj["line"], obj["character"]
        if line > MAX_UINTEGER or character > MAX_UINTEGER:
            client.bad_positions.append(dict(obj))
        return t.Position(line=min(line, MAX_UINTEGER), character=min(character, MAX_UINTEGER))

    conv.register_structure_hook(t.Position, hook)


@contextlib.asynccontextmanager
async def session(workspace: Path, state_dir: Path, options=None, answer=None, capabilities=None, shutdown=True):
    """A running server with an initialised client.

    `answer`: the title the client picks when the server asks (window/showMessageRequest);
    None answers null (dismissed). Every request is recorded in `client.asked`, every
    workspace/applyEdit in `client.applied_edits` (and answered applied=True).
    """
    env = dict(os.environ, BEAGLE_STATE_DIR=str(state_dir), RUST_LOG=os.environ.get("RUST_LOG", "warn"))
    config = ClientServerConfig(server_command=[beagle_bin(), "lsp"], server_env=env)
    client: LanguageClient = await config.start()
    fix_command_or_code_action(client)
    tolerate_out_of_range_positions(client)
    client.applied_edits = []
    client.asked = []

    @client.feature(t.WORKSPACE_APPLY_EDIT)
    def apply_edit(params: t.ApplyWorkspaceEditParams):
        client.applied_edits.append(params)
        return t.ApplyWorkspaceEditResult(applied=True)

    @client.feature(t.WINDOW_SHOW_MESSAGE_REQUEST)
    def show_message_request(params: t.ShowMessageRequestParams):
        client.asked.append(params)
        if answer is None:
            return None
        return next(a for a in params.actions if a.title == answer)

    @client.feature(t.WORKSPACE_CODE_LENS_REFRESH)
    def code_lens_refresh(_):
        return None

    caps = capabilities or client_capabilities("visual-studio-code")
    root = uri_of(workspace)
    client.init_result = await asyncio.wait_for(
        client.initialize_session(
            t.InitializeParams(
                capabilities=caps,
                root_uri=root,
                workspace_folders=[t.WorkspaceFolder(uri=root, name=workspace.name)],
                initialization_options=options or {},
            )
        ),
        20,
    )
    try:
        yield client
    finally:
        if shutdown and client._server is not None and client._server.returncode is None:
            try:
                await asyncio.wait_for(client.shutdown_session(), 15)
            except Exception:
                client._server.kill()
        await client.stop()


def open_doc(client: LanguageClient, path: Path, text=None, language="xml", version=1) -> str:
    uri = uri_of(path)
    if text is None:
        text = path.read_text()
    client.text_document_did_open(
        t.DidOpenTextDocumentParams(
            text_document=t.TextDocumentItem(uri=uri, language_id=language, version=version, text=text)
        )
    )
    return uri


async def wait_until(predicate, timeout: float, what: str, step=0.05):
    """Polls `predicate` (notifications may already have arrived: never wait for the next one)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(step)


async def diagnostics_for(client: LanguageClient, uri: str, timeout=15):
    """The diagnostics published for `uri` (pytest-lsp keeps the last per URI; delete the key
    before a change to wait for the next publication)."""
    await wait_until(lambda: uri in client.diagnostics, timeout, f"diagnostics of {uri}")
    return client.diagnostics[uri]


def line_of(text: str, needle: str) -> int:
    """0-based line of the first line containing `needle`."""
    for i, line in enumerate(text.splitlines()):
        if needle in line:
            return i
    raise AssertionError(f"{needle!r} not in text")


def pos_in(text: str, needle: str, after: str = None) -> t.Position:
    """The position of `needle` (optionally its first occurrence on a line containing `after`)."""
    for i, line in enumerate(text.splitlines()):
        if (after is None or after in line) and needle in line:
            return t.Position(line=i, character=line.index(needle) + 1)
    raise AssertionError(f"{needle!r} not in text")


def doc_id(uri: str) -> t.TextDocumentIdentifier:
    return t.TextDocumentIdentifier(uri=uri)


async def execute(client: LanguageClient, command: str, *args, timeout=20):
    return await asyncio.wait_for(
        client.workspace_execute_command_async(t.ExecuteCommandParams(command=command, arguments=list(args))),
        timeout,
    )


def token_reports(client: LanguageClient, token):
    return client.progress_reports.get(token, [])


def job_token(job: int) -> str:
    return f"beagle/analysis/{job}"


async def wait_progress_end(client: LanguageClient, job: int, timeout: float):
    tok = job_token(job)
    await wait_until(
        lambda: any(getattr(r, "kind", None) == "end" for r in token_reports(client, tok)),
        timeout,
        f"the end of progress {tok}",
        step=0.2,
    )
    return token_reports(client, tok)


def apply_text_edits(text: str, edits) -> str:
    """Applies LSP TextEdits (UTF-16 positions, all against the original text) to `text`."""
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)

    def offset(pos: t.Position) -> int:
        line = lines[pos.line]
        # UTF-16 code units to Python indices.
        units, idx = 0, 0
        while idx < len(line) and units < pos.character:
            units += 2 if ord(line[idx]) > 0xFFFF else 1
            idx += 1
        return starts[pos.line] + idx

    spans = sorted(((offset(e.range.start), offset(e.range.end), e.new_text) for e in edits), reverse=True)
    for a, b, new in spans:
        text = text[:a] + new + text[b:]
    return text


# pytest-xdist (tests/lsp/run.sh: two workers, --dist loadgroup): every test has its own server,
# workspace copy and state folder, so tests may run side by side; those that measure real JVMs run
# on one worker, one after another, as no two timing measurements may share the machine's two cores
# (issue 48), and the Slurm test shares the one Slurm node with nothing of this suite.
MEASURING_MODULES = {"test_analysis", "test_jobs", "test_runner"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.module.__name__ in MEASURING_MODULES:
            item.add_marker(pytest.mark.xdist_group("measuring"))
