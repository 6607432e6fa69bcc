"""An analysis on the Slurm runner from the editor (issue 40): `initializationOptions.runner` names
a real single-node Slurm cluster on loopback (tests/services/runners.sh, started by .ci/run); the
progress names the runner and its jobs, the trust prompt names where the code runs, and the laws
arrive as from a local run."""

import os
import re
import shutil
import subprocess

import pytest
from lsprotocol import types as t

from conftest import FAST, MODEL, execute, open_doc, session, wait_progress_end, wait_until


def slurm_up() -> bool:
    up = shutil.which("sinfo") is not None and subprocess.run(["sinfo", "-h"], capture_output=True).returncode == 0
    if not up and os.environ.get("BEAGLE_E2E_REQUIRE_RUNNERS") == "1":
        pytest.fail("the test Slurm cluster (tests/services/runners.sh) is not up")
    return up


async def test_an_analysis_on_slurm_reports_its_jobs_and_asks_trust_naming_the_runner(workspace, state_dir, tmp_path):
    if not slurm_up():
        pytest.skip("no Slurm cluster here (run tests/services/runners.sh as root)")
    runner = {"kind": "slurm", "work_dir": str(tmp_path / "slurm-work"), "max_parallel": 2}
    options = dict(FAST, runner=runner)
    path = workspace / MODEL
    async with session(workspace, state_dir, options, answer="Allow and remember") as client:
        uri = open_doc(client, path)
        job = (await execute(client, "beagle.analyseRepository", uri))["job"]
        reports = await wait_progress_end(client, job, 400)

        # The trust prompt says where the code will run.
        assert len(client.asked) == 1, client.asked
        assert "run it on slurm" in client.asked[0].message, client.asked[0].message

        messages = [r.message for r in reports if getattr(r, "message", None)]
        jobs = [m for m in messages if "running on slurm" in m]
        assert jobs, messages
        shape = re.compile(r"`upload`: (\d+) of (\d+) points running on slurm, (\d+) done$")
        seen = [shape.search(m) for m in jobs]
        assert all(seen), jobs
        counts = [(int(m[1]), int(m[2]), int(m[3])) for m in seen]
        assert all(running <= total and done <= total for running, total, done in counts), counts
        assert any(running > 0 for running, _, _ in counts), counts
        assert any(done == total for _, total, done in counts), counts
        assert reports[-1].message.startswith("done"), reports[-1].message

        await wait_until(lambda: client.applied_edits, 10, "workspace/applyEdit")
        text = client.applied_edits[0].edit.document_changes[0].edits
        written = " ".join(e.new_text for e in text)
        assert "files.NUMBER_OF_ELEMENTS" in written, written


async def test_a_runner_option_that_is_wrong_is_said_and_runs_nothing(workspace, state_dir, tmp_path):
    options = dict(FAST, trustedWorkspace=True, runner={"kind": "slurm", "max_parallel": 0})
    async with session(workspace, state_dir, options) as client:
        uri = open_doc(client, workspace / MODEL)
        job = (await execute(client, "beagle.analyseRepository", uri))["job"]
        await wait_until(
            lambda: any("initializationOptions.runner" in m.message for m in client.messages), 30, "the error"
        )
        said = next(m for m in client.messages if "initializationOptions.runner" in m.message)
        assert said.type == t.MessageType.Error, said
        assert "max_parallel must be at least 1" in said.message, said.message
        assert not (workspace / ".beagle" / "java" / "runs").exists(), "nothing ran"
