"""The job queue, cancelling through the progress token, and workspace trust."""

import pytest
from lsprotocol import types as t

from conftest import (
    FAST,
    MODEL,
    execute,
    job_token,
    open_doc,
    session,
    token_reports,
    wait_progress_end,
    wait_until,
)


def kinds(client, job):
    return [r.kind for r in token_reports(client, job_token(job))]


async def test_cancel_through_progress_token_aborts(workspace, state_dir):
    async with session(workspace, state_dir, dict(FAST, trustedWorkspace=True)) as client:
        uri = open_doc(client, workspace / MODEL)
        job = (await execute(client, "beagle.analyseRepository", uri))["job"]
        await wait_until(lambda: "report" in kinds(client, job), 60, "the first progress report")
        client.window_work_done_progress_cancel(t.WorkDoneProgressCancelParams(token=job_token(job)))
        reports = await wait_progress_end(client, job, 60)
        end = reports[-1]
        assert "abort" in end.message.lower(), end.message
        assert client.applied_edits == [], "an aborted analysis must not edit the model"
        status = await execute(client, "beagle.status")
        assert status["running"] is None and "abort" in status["last"], status
        # Nothing is written; the server still answers.
        symbols = await client.text_document_document_symbol_async(
            t.DocumentSymbolParams(text_document=t.TextDocumentIdentifier(uri=uri))
        )
        assert symbols


@pytest.mark.timeout(780)
async def test_queue_runs_jobs_in_order(workspace, state_dir):
    async with session(workspace, state_dir, dict(FAST, trustedWorkspace=True)) as client:
        uri = open_doc(client, workspace / MODEL)
        first = await execute(client, "beagle.analyseComponent", uri, "_fs_Storage")
        second = await execute(client, "beagle.analyseAction", uri, "_fs_store_seff")
        assert first["ahead"] == 0 and second["ahead"] == 1, (first, second)
        assert second["job"] == first["job"] + 1
        assert first["label"] == "component Storage in fileshare.repository", first
        status = await execute(client, "beagle.status")
        assert [q["id"] for q in status["queued"]] == [second["job"]], status

        # Real measurements, with the judge's rounds (issue 37: holes, corner points, more
        # JVMs): a local CI run took over 120 s for the first job on a busy 2-core machine.
        await wait_progress_end(client, first["job"], 360)
        await wait_progress_end(client, second["job"], 360)
        for job in (first, second):
            ks = kinds(client, job["job"])
            assert ks[0] == "begin" and ks[-1] == "end", ks
            assert token_reports(client, job_token(job["job"]))[-1].message.startswith("done"), job

        await wait_until(lambda: len([m for m in client.messages if " done: " in m.message]) >= 2, 10, "two done messages")
        done = [m.message for m in client.messages if " done: " in m.message]
        assert done[0].startswith(f"Beagle: {first['label']} done"), done
        assert done[1].startswith(f"Beagle: {second['label']} done"), done
        # The first writes Storage's results; the second finds them written already.
        assert len(client.applied_edits) >= 1


async def test_untrusted_not_now_runs_nothing(workspace, state_dir):
    async with session(workspace, state_dir, FAST, answer="Not now") as client:
        uri = open_doc(client, workspace / MODEL)
        result = await execute(client, "beagle.analyseRepository", uri)
        assert result["queued"] is True
        await wait_until(lambda: any("not analysed" in m.message for m in client.messages), 20, "the refusal message")
        (asked,) = client.asked
        assert asked.type == t.MessageType.Warning
        assert [a.title for a in asked.actions] == ["Allow and remember", "Not now"]
        assert str(workspace) in asked.message
        warning = next(m for m in client.messages if "not analysed" in m.message)
        assert warning.type == t.MessageType.Warning
        assert client.progress_reports == {}, "nothing may run without trust"
        assert client.applied_edits == []
        status = await execute(client, "beagle.status")
        assert "not allowed" in status["last"], status
    assert not (state_dir / "trusted-workspaces").exists()


async def test_allow_and_remember_is_remembered(workspace, state_dir):
    async with session(workspace, state_dir, FAST, answer="Allow and remember") as client:
        uri = open_doc(client, workspace / MODEL)
        job = (await execute(client, "beagle.analyseRepository", uri))["job"]
        await wait_until(lambda: "begin" in kinds(client, job), 20, "the analysis to begin")
        assert len(client.asked) == 1
        assert (await execute(client, "beagle.abort"))["running"] is True
        await wait_progress_end(client, job, 60)
    assert str(workspace) in (state_dir / "trusted-workspaces").read_text()

    # A new session with the same state folder runs without asking (and would refuse if asked).
    async with session(workspace, state_dir, FAST, answer="Not now") as client:
        uri = open_doc(client, workspace / MODEL)
        job = (await execute(client, "beagle.analyseRepository", uri))["job"]
        await wait_until(lambda: "begin" in kinds(client, job), 20, "the analysis to begin")
        assert client.asked == []
        await execute(client, "beagle.abort")
        reports = await wait_progress_end(client, job, 60)
        assert "abort" in reports[-1].message.lower(), reports[-1].message
