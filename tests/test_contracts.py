"""Every catalog judge runs every protocol against its provider's documented rules, enforced by
the contract emulator (``fault_server``, with each provider's rules beside its tests in
``tests/providers/``), and a request the provider will never accept stops the run with one line.
What one provider sends and answers is tested in its own file there."""
from __future__ import annotations

import importlib
import json
import os
import pkgutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tjb_lib.judges.anthropic_api import AnthropicJudge
from tjb_lib.judges.base import FatalJudgeError
from tjb_lib.judges.catalog import judges
from tjb_lib.judges.openai_api import OpenAIJudge
from tjb_lib.judges.retry import ProviderRejected
from tjb_lib.protocols import expand
from tjb_lib.runner import run

import contract_rules
from _emulated import PROTOCOLS, SPLIT, judge_at
from fault_server import FAKE_KEY, SNAPSHOT_SUFFIX  # noqa: E402

JUDGES = judges()
REPO = Path(__file__).resolve().parent.parent


def test_every_api_provider_has_its_documented_rules_in_the_emulator():
    """A provider without its rules file would be answered by another provider's dialect and
    pass every contract test; each provider module's API provider needs its own."""
    from tjb_lib.judges import providers
    from tjb_lib.judges.provider import Provider

    modules = [importlib.import_module(f"{providers.__name__}.{m.name}")
               for m in pkgutil.iter_modules(providers.__path__)]
    api = {v.name for m in modules for v in vars(m).values()
           if isinstance(v, Provider) and not v.in_process}
    assert {"openai", "anthropic"} <= api
    missing = sorted(api - contract_rules.dialect_names())
    assert missing == [], (f"no emulator rules for provider(s) {missing}: add "
                           f"tests/providers/<provider>_rules.py")


@pytest.mark.parametrize("name", [n for n, s in JUDGES.items() if s.role != "simulated"])
def test_every_catalog_judge_runs_every_protocol_within_its_providers_rules(emulator, name,
                                                                            tmp_path):
    judge = judge_at(name, emulator)
    for protocol, settings in PROTOCOLS.items():
        df = run(SPLIT, protocol, judge, limit=1, out_dir=tmp_path, progress=False)
        assert len(df) == 2 * settings, protocol  # one pair, both orders
        assert set(df["decision"]) <= {"cited", "plain", "tie"}, df["raw_text"].tolist()
        assert (df["calls"] == (1 if expand(protocol, SPLIT)[0].single_call else 2)).all()
        assert (df["model_returned"] == judge.model + SNAPSHOT_SUFFIX).all()
    assert emulator.violations == []
    bodies = [r.json for r in emulator.requests if r.json]
    stored = (tmp_path / judge.name / "calls.jsonl").read_text().splitlines()
    distinct = {json.dumps(b, sort_keys=True) for b in bodies}
    assert len(bodies) == len(stored) == len(distinct)  # every call made once, and stored
    if judge.params.get("logprobs"):
        assert df["p_a"].notna().all()  # label probabilities from the logprobs


def test_the_run_stops_at_the_first_refused_request_and_records_no_failed_row(emulator,
                                                                              tmp_path):
    judge = judge_at("gpt-5.5", emulator)
    judge.params["max_tokens_param"] = "max_tokens"
    with pytest.raises(ProviderRejected):
        run(SPLIT, "ladder", judge, limit=3, concurrency=1, out_dir=tmp_path, progress=False)
    assert emulator.count("/v1/chat/completions") == 1
    rows = tmp_path / judge.name / f"{SPLIT}.ladder.jsonl"
    assert not rows.exists() or rows.read_text() == ""
    calls = tmp_path / judge.name / "calls.jsonl"
    assert not calls.exists() or calls.read_text() == ""  # nothing stored as a failed call


def _cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    return subprocess.run([sys.executable, "-m", "tjb_lib", *args],
                          env={**clean, "PYTHONPATH": str(REPO), **env},
                          capture_output=True, text=True, timeout=300)


def _root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    root.mkdir()
    (root / "data").symlink_to(REPO / "data")
    return root


def _free_port() -> int:
    """A port on this machine where nothing listens (bound, then let go)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("case", ["missing_model", "missing_key", "bad_url",
                                  # every attempt waits out its real backoff (about 8 s)
                                  pytest.param("nothing_listens", marks=pytest.mark.slow)])
def test_the_judge_command_stops_with_one_line_and_a_non_zero_exit(emulator, tmp_path, case):
    root = _root(tmp_path)
    emulator.missing_models.add("gpt-5.5")
    env = {"TJB_ROOT": str(root)}
    base = ["judge", "--split", SPLIT, "--protocol", "L0", "--judge", "gpt-5.5", "--limit", "2",
            "--concurrency", "1"]
    if case == "missing_model":
        done = _cli(*base, "--base-url", emulator.openai_url,
                    env={**env, "OPENAI_COMPATIBLE_API_KEY": FAKE_KEY})
        expected = "HTTP 404"
    elif case == "missing_key":
        done = _cli(*base, env=env)
        expected = "needs an API key in the environment variable OPENAI_API_KEY"
    elif case == "bad_url":
        done = _cli(*base, "--base-url", "not a url", env=env)
        expected = "cannot be called"
    else:
        port = _free_port()
        done = _cli(*base, "--base-url", f"http://127.0.0.1:{port}/v1",
                    env={**env, "OPENAI_COMPATIBLE_API_KEY": FAKE_KEY})
        expected = f"nothing answers at 127.0.0.1:{port}"
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()  # the progress bar, then the one error line
    errors = [line for line in lines if line.startswith("error")]
    assert errors == [lines[-1]] and expected in lines[-1], lines
    assert "Traceback" not in done.stderr
    assert emulator.count("/v1/chat/completions") == (1 if case == "missing_model" else 0)
    assert not list((root / "outputs").rglob("*.jsonl")) or all(
        p.read_text() == "" for p in (root / "outputs").rglob("*.jsonl"))


def test_a_fatal_judge_error_is_what_missing_keys_and_refusals_are():
    from tjb_lib.judges.endpoints import MissingAPIKey, UnusableEndpoint

    assert issubclass(MissingAPIKey, FatalJudgeError) and issubclass(UnusableEndpoint,
                                                                     FatalJudgeError)
    assert issubclass(ProviderRejected, FatalJudgeError)
    with pytest.raises(UnusableEndpoint):
        OpenAIJudge("x", "gpt-5.5", base_url="http://localhost:notaport/v1")
    with pytest.raises(UnusableEndpoint):
        AnthropicJudge("x", "claude-sonnet-4-6", base_url="file:///etc")
