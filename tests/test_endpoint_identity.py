"""The endpoint's port is part of a judge's identity: a second local server under the same judge
name and model is called, not answered from the first one's stored replies (its rows once held
the first server's). The embedded judge has no endpoint, so its call keys and the shipped store
are as they were."""
from __future__ import annotations

import json
import os
import subprocess
import sys

from tjb_lib.judges.catalog import get_judge
from tjb_lib.judges.endpoints import endpoint_id
from tjb_lib.records import Request, request_key

from _bad_inputs import REPO, judge_argv, make_root  # noqa: E402
from fault_server import FaultServer  # noqa: E402


def test_two_local_servers_on_two_ports_are_two_endpoints():
    assert endpoint_id("http://127.0.0.1:8000/v1") != endpoint_id("http://127.0.0.1:8001/v1")
    assert endpoint_id("http://127.0.0.1:8000/v1/") == endpoint_id("http://localhost:8000/v1")


def test_a_second_server_under_the_same_name_and_model_is_called(tmp_path):
    root = make_root(tmp_path)
    env = {**{k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")},
           "TJB_ROOT": str(root), "PYTHONPATH": str(REPO)}
    calls = []
    for _ in range(2):
        with FaultServer() as server:
            done = subprocess.run([sys.executable, "-m", "tjb_lib", *judge_argv(server.url)],
                                  env=env, capture_output=True, text=True, timeout=300)
            assert done.returncode == 0, done.stderr
            calls.append(server.count("/v1/chat/completions"))
    assert calls[0] > 0 and calls[1] == calls[0]  # the second server judged every comparison


def test_the_embedded_judge_has_no_endpoint_so_the_shipped_store_keys_hold():
    assert "endpoint" not in get_judge("smollm2").identity()
    log = REPO / "outputs" / "raw_outputs" / "smollm2" / "calls.jsonl"
    for line in log.read_bytes().splitlines()[:50]:
        rec = json.loads(line)
        assert "endpoint" not in rec["judge"]
        d = dict(rec["request"])
        d["messages"] = tuple((m["role"], m["content"]) for m in d["messages"])
        assert request_key(rec["judge"], Request(**d)) == rec["key"]
