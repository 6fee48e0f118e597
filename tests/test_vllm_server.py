"""The project's OpenAI-compatible judge against a real vLLM server (CPU build, 127.0.0.1).

The server is the session fixture ``vllm_server`` (tests/conftest.py): one start (~2.5 min) for
every test marked ``peers``; run them with ``make test-peers``.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from tjb_lib.judges import vllm_server as vllm
from tjb_lib.judges.catalog import get_judge
from tjb_lib.pairs import load_split
from tjb_lib.parse import parse_verdict
from tjb_lib.protocols import Spec, build_request
from tjb_lib.records import LABELS


@pytest.mark.peers
def test_openai_compatible_judge_gets_a_verdict_with_label_logprobs_from_real_vllm(vllm_server):
    judge = get_judge("smollm2", base_url=vllm_server.base_url,
                      model=vllm_server.served_model_name,
                      params={"logprobs": True, "top_logprobs": 5})
    pair = load_split("moderate_hotpotqa")[0]
    request = build_request(pair, "cited_first", Spec("ladder", "L2"))
    response = judge.complete(request)

    assert response.status == "ok", response.error
    assert response.model_returned == vllm_server.served_model_name
    assert response.input_tokens > 100 and response.output_tokens >= 1
    assert response.meta["finish_reason"] in ("stop", "length")
    # JSON mode plus logprobs: the label position is found and its probabilities read
    assert response.label_probs, response.text
    assert set(response.label_probs) <= set(LABELS)
    assert all(0.0 < p <= 1.0 for p in response.label_probs.values())
    verdict = parse_verdict(response.text, response.label_probs)
    assert verdict.status in ("json", "fallback", "scored", "unparsed")
    if verdict.status == "json":
        assert json.loads(response.text[response.text.index("{"):])["winner"] == verdict.label


@pytest.mark.peers
def test_a_server_that_cannot_start_is_one_error_naming_its_log_and_leaves_no_process(tmp_path):
    if vllm.vllm_python() is None:
        pytest.skip(vllm.missing_reason())
    folder = tmp_path / "not-a-model"
    folder.mkdir()
    (folder / "config.json").write_text('{"model_type": "no_such_architecture"}')
    server = vllm.VLLMServer(folder, log_path=tmp_path / "server.log", startup_timeout_s=300)
    with pytest.raises(vllm.VLLMStartError) as err:
        server.start()
    assert str(tmp_path / "server.log") in str(err.value)
    assert "exited with code" in str(err.value)
    assert server.pid is not None and not server.running()
    assert not vllm.group_alive(server.pid)
    assert (tmp_path / "server.log").stat().st_size > 0


def test_missing_vllm_install_is_named_with_the_command_that_makes_it(tmp_path, monkeypatch):
    monkeypatch.setenv(vllm.PYTHON_ENV, str(tmp_path / "no" / "python"))
    assert vllm.vllm_python() is None
    assert "make vllm-setup" in vllm.missing_reason()
    with pytest.raises(vllm.VLLMStartError, match="make vllm-setup"):
        vllm.VLLMServer(tmp_path)


def test_a_server_ends_when_the_process_that_started_it_is_killed(tmp_path):
    """A process killed outright (a benchmark stopped by a test's timeout) runs no atexit: the
    server it started must still end. A real process stands in for vLLM's server (Python's file
    server answering /v1/models), started through VLLMServer as the benchmark starts it."""
    site, folder = tmp_path / "site", tmp_path / "model"
    (site / "v1").mkdir(parents=True)
    (site / "v1" / "models").write_text('{"data": []}')
    folder.mkdir()
    (folder / "config.json").write_text("{}")
    script = (
        "import sys\n"
        "from tjb_lib.judges import vllm_server as vllm\n"
        "class Files(vllm.VLLMServer):\n"
        "    def command(self):\n"
        "        return [sys.executable, '-m', 'http.server', '--bind', '127.0.0.1',\n"
        f"                str(self.port), '--directory', {str(site)!r}]\n"
        f"server = Files({str(folder)!r}, python=sys.executable,\n"
        f"               log_path={str(tmp_path / 'server.log')!r}).start()\n"
        "print(server.pid, flush=True)\n"
        "sys.stdin.read()\n")
    starter = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    pid = int(starter.stdout.readline())
    try:
        assert vllm.group_alive(pid)
        starter.kill()
        starter.wait()
        deadline = time.monotonic() + 120  # a hang guard, not a timing: it ends at once
        while vllm.group_alive(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not vllm.group_alive(pid), "the server outlived the process that started it"
    finally:
        if vllm.group_alive(pid):
            os.killpg(pid, signal.SIGKILL)
