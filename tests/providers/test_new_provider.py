"""Adding an OpenAI-compatible provider is one module: a throwaway one
(``example_compatible.py``), registered for this test only, runs every protocol against the
contract emulator, which enforces its documented rule (registered here, beside its test), and the
catalog, key routing, prices and batch mode know it without another file changing."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

import contract_rules as rules
from tjb_lib.judges.prices import call_cost
from tjb_lib.judges import provider as registry
from tjb_lib.judges.batch import batch_api
from tjb_lib.judges.catalog import find_spec, get_judge
from tjb_lib.judges.endpoints import UnusableEndpoint, kind
from tjb_lib.judges.retry import ProviderRejected
from tjb_lib.runner import run

from _emulated import NO_RETRY, PROTOCOLS, SPLIT
from fault_server import SNAPSHOT_SUFFIX

MODULE = Path(__file__).with_name("example_compatible.py")


class Example(rules.Dialect):
    """The example provider's documented rule, as the emulator enforces it."""

    name = "example"
    models = r"^example-"

    def check(self, body, headers):
        super().check(body, headers)
        if (body.get("top_logprobs") or 0) > 5:
            raise self.error("top_logprobs must be at most 5", "top_logprobs")


@pytest.fixture
def example(monkeypatch):
    """The provider module loaded into a copy of the registry, and its rule in the emulator;
    neither outlives the test."""
    monkeypatch.setattr(registry, "_PROVIDERS", dict(registry.registered()))
    spec = importlib.util.spec_from_file_location("example_compatible", MODULE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    rules.register(Example())
    yield module.PROVIDER
    rules.unregister("example")


def test_a_new_openai_compatible_provider_runs_every_protocol_from_one_module(
        example, emulator, tmp_path):
    assert find_spec("example-judge").provider == "example"
    judge = get_judge("example-judge", base_url=emulator.url_for(example), retry=NO_RETRY)
    for protocol, settings in PROTOCOLS.items():
        df = run(SPLIT, protocol, judge, limit=1, out_dir=tmp_path, progress=False)
        assert len(df) == 2 * settings, protocol
        assert set(df["decision"]) <= {"cited", "plain", "tie"}, df["raw_text"].tolist()
        assert (df["model_returned"] == "example-judge-1" + SNAPSHOT_SUFFIX).all()
        assert df["p_a"].notna().all()
        assert call_cost(judge.model, int(df["input_tokens"].sum()),
                         int(df["output_tokens"].sum())) > 0  # its own prices
    assert emulator.violations == []
    bodies = [r.json for r in emulator.requests if r.json]
    stored = (tmp_path / "example-judge" / "calls.jsonl").read_text().splitlines()
    assert len(bodies) == len(stored) == len({json.dumps(b, sort_keys=True) for b in bodies})


def test_its_rule_is_enforced_and_its_key_stays_on_its_host(example, emulator, tmp_path):
    judge = get_judge("example-judge", base_url=emulator.url_for(example), retry=NO_RETRY)
    judge.params["top_logprobs"] = 10
    with pytest.raises(ProviderRejected, match="HTTP 400.*top_logprobs must be at most 5"):
        run(SPLIT, "L0", judge, limit=1, progress=False, out_dir=tmp_path)
    assert get_judge("example-judge").api_key_env == "EXAMPLE_API_KEY"
    assert judge.api_key_env == "OPENAI_COMPATIBLE_API_KEY"  # not its provider's host
    assert kind("https://api.example-llm.test/v1") == "example"
    with pytest.raises(UnusableEndpoint, match=r"refusing to send \$EXAMPLE_API_KEY"):
        get_judge("example-judge", base_url=emulator.url_for(example),
                  api_key_env="EXAMPLE_API_KEY")
    with pytest.raises(TypeError, match="no batch API"):
        batch_api(judge)

