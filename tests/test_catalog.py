"""The judge catalog: the paper's judges as their providers declare them, one name resolution,
and the provider registry that builds each."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tjb_lib.judges import provider as provider_registry
from tjb_lib.judges.base import Judge
from tjb_lib.judges.catalog import (base_url_env, build, describe, find_spec, get_judge, judges,
                                    resolve)
from tjb_lib.judges.endpoints import COMPATIBLE_KEY_ENV
from tjb_lib.judges.provider import JudgeSpec, Provider, get, registered
from tjb_lib.records import Request, Response

JUDGES = judges()
REPO = Path(__file__).resolve().parent.parent
#: the paper's judges (its Table A7), which the catalog must hold whatever else it holds
PAPER_JUDGES = ("gpt-5.5", "claude-sonnet-4-6", "deepseek-v4-flash", "Qwen2.5-14B-Instruct-AWQ",
                "gemma-3-12b-it")


def test_catalog_holds_the_paper_judges_and_the_embedded_default_all_at_temperature_0():
    assert set(PAPER_JUDGES) | {"smollm2"} <= set(JUDGES)
    assert all(spec.params["temperature"] == 0 for spec in JUDGES.values())
    assert JUDGES["gpt-5.5"].reported_snapshot == "gpt-5.5-2026-04-23"
    assert (JUDGES["gpt-5.5"].backend, get("openai").key_env) == ("openai", "OPENAI_API_KEY")
    assert JUDGES["claude-sonnet-4-6"].backend == "anthropic"
    ds = get(JUDGES["deepseek-v4-flash"].provider)
    assert (ds.backend, ds.base_url, ds.key_env) == \
        ("openai_compatible", "https://api.deepseek.com", "DEEPSEEK_API_KEY")
    assert JUDGES["Qwen2.5-14B-Instruct-AWQ"].model == "Qwen/Qwen2.5-14B-Instruct-AWQ"
    assert JUDGES["Qwen2.5-14B-Instruct-AWQ"].quantization == "awq-w4"
    assert JUDGES["gemma-3-12b-it"].model == "google/gemma-3-12b-it"
    assert {JUDGES[n].device for n in ("Qwen2.5-14B-Instruct-AWQ", "gemma-3-12b-it")} == {"cuda"}
    assert (JUDGES["smollm2"].backend, JUDGES["smollm2"].device) == ("local_hf", "cpu")


def test_every_judge_comes_from_the_one_provider_it_names():
    declared = [(p.name, s) for p in registered().values() for s in p.judges]
    assert sorted(s.name for _, s in declared) == sorted(JUDGES)  # no name twice
    assert all(s.provider == name for name, s in declared)


def test_the_commercial_judges_send_what_their_providers_document():
    gpt = JUDGES["gpt-5.5"].params
    assert gpt["max_tokens_param"] == "max_completion_tokens" and gpt["reasoning_effort"] == "none"
    assert JUDGES["deepseek-v4-flash"].params["thinking"] == "disabled"
    assert "top_p" not in JUDGES["claude-sonnet-4-6"].params
    assert JUDGES["claude-sonnet-4-6"].params["cache_prefix"] is True


def test_every_provider_rule_and_price_names_a_public_source_and_the_date_it_was_checked():
    api = [p for p in registered().values() if not p.in_process]
    assert api and all(p.rules for p in api)
    for p in registered().values():
        for r in p.rules:
            assert r.source.startswith("https://") and re.fullmatch(r"\d{4}-\d\d-\d\d", r.checked)
        for price in p.prices:
            assert price.source and (price.checked == "n/a" or re.fullmatch(
                r"\d{4}-\d\d-\d\d", price.checked)), (p.name, price.model)
        assert all(s.provider == p.name for s in p.judges)


def test_what_an_endpoint_returned_is_said_of_the_papers_runs_never_of_ours():
    """A replay makes no call, so no note may read as if an endpoint had answered us."""
    from tjb_lib.run.notebook import about_judge

    for spec in JUDGES.values():
        for sentence in re.split(r"(?<=[.;])\s", spec.notes):
            if re.search(r"endpoint (reported|returns|returned)|snapshot", sentence):
                assert "paper" in sentence, (spec.name, sentence)
    shown = about_judge(find_spec("gpt-5.5"))
    assert "in the paper, where the endpoint reported snapshot gpt-5.5-2026-04-23" in shown


def test_smollm2_is_plainly_labelled_a_weak_judge():
    assert "weak judge" in describe("smollm2")["notes"]
    assert describe("smollm2")["role"] == "embedded"


def test_unknown_name_raises_listing_the_known_judges():
    with pytest.raises(ValueError) as e:
        get_judge("gpt-4o")
    for name in JUDGES:
        assert name in str(e.value)


def test_names_match_case_insensitively():
    assert resolve("qwen2.5-14b-instruct-awq").name == "Qwen2.5-14B-Instruct-AWQ"


def test_api_judges_are_built_lazily_without_reading_keys(monkeypatch):
    for p in registered().values():
        if p.key_env:
            monkeypatch.delenv(p.key_env, raising=False)
    gpt = get_judge("gpt-5.5")
    assert (type(gpt).__name__, gpt.model, gpt.backend, gpt.api_key_env) == \
        ("OpenAIJudge", "gpt-5.5", "openai", "OPENAI_API_KEY")
    assert gpt.identity()["endpoint"] == "https://api.openai.com/v1"
    claude = get_judge("claude-sonnet-4-6")
    assert (type(claude).__name__, claude.model, claude.backend) == \
        ("AnthropicJudge", "claude-sonnet-4-6", "anthropic")
    ds = get_judge("deepseek-v4-flash")
    assert (ds.backend, ds.base_url, ds.api_key_env) == \
        ("openai_compatible", "https://api.deepseek.com", "DEEPSEEK_API_KEY")


def test_base_url_serves_an_open_weight_judge_from_vllm_with_label_logprobs():
    j = get_judge("Qwen2.5-14B-Instruct-AWQ", base_url="http://localhost:8000/v1")
    assert (type(j).__name__, j.backend, j.model) == \
        ("OpenAIJudge", "openai_compatible", "Qwen/Qwen2.5-14B-Instruct-AWQ")
    assert j.name == "Qwen2.5-14B-Instruct-AWQ" and j.params["temperature"] == 0
    assert j.params["logprobs"] is True and j.api_key_env == COMPATIBLE_KEY_ENV
    g = get_judge("gemma-3-12b-it", base_url="http://localhost:8001/v1", model="gemma-3-12b-it")
    assert g.model == "gemma-3-12b-it"


def test_base_url_keeps_an_api_judges_rules_but_never_its_providers_key_elsewhere():
    proxied = get_judge("gpt-5.5", base_url="https://proxy.example.org/v1")
    assert proxied.api_key_env == COMPATIBLE_KEY_ENV
    assert proxied.params["reasoning_effort"] == "none"  # still OpenAI's rules
    assert proxied.identity()["endpoint"] == "https://proxy.example.org/v1"
    assert get_judge("gpt-5.5").identity() != proxied.identity()  # never served as gpt-5.5's
    assert get_judge("deepseek-v4-flash",
                     base_url="https://api.deepseek.com").api_key_env == "DEEPSEEK_API_KEY"


def test_base_url_with_a_name_outside_the_catalog_needs_a_model():
    j = get_judge("my-vllm-judge", base_url="http://localhost:8000/v1", model="org/some-model")
    assert (j.name, j.model) == ("my-vllm-judge", "org/some-model")
    with pytest.raises(ValueError, match="give model="):
        get_judge("my-vllm-judge", base_url="http://localhost:8000/v1")


def test_the_embedded_judge_takes_no_model_override():
    with pytest.raises(ValueError, match="no model= override"):
        resolve("smollm2", model="other/model")


def test_naming_and_building_any_local_judge_imports_no_torch():
    """The lazy local judges load (and import torch) only at their first call."""
    local = [s.name for p in registered().values() if p.in_process for s in p.judges]
    code = ("import sys\nfrom tjb_lib.judges.catalog import get_judge\n"
            f"ids = [get_judge(n).identity() for n in {local!r}]\n"
            "print(sorted(m for m in ('torch', 'transformers') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env={"PYTHONPATH": str(REPO), "PATH": ""})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]" and len(local) >= 3


def test_local_open_weight_judges_without_cuda_stop_before_a_run_and_point_to_vllm():
    import torch

    if torch.cuda.is_available():
        pytest.skip("checks the refusal on a machine without CUDA")
    from tjb_lib.judges.base import FatalJudgeError

    with pytest.raises(FatalJudgeError, match="AWQ kernels need CUDA; this machine has none.*"
                                              "base_url"):
        get_judge("Qwen2.5-14B-Instruct-AWQ").check_ready()
    with pytest.raises(FatalJudgeError, match="gemma-3-12b-it.*CUDA.*base_url"):
        get_judge("gemma-3-12b-it").check_ready()


def test_a_base_url_from_the_environment_routes_a_catalog_judge_to_its_server(monkeypatch):
    var = base_url_env("Qwen2.5-14B-Instruct-AWQ")
    assert var == "TJB_BASE_URL_QWEN2_5_14B_INSTRUCT_AWQ"
    monkeypatch.setenv(var, "http://127.0.0.1:8000/v1")
    judge = get_judge("Qwen2.5-14B-Instruct-AWQ")
    assert judge.backend == "openai_compatible"
    assert judge.model == "Qwen/Qwen2.5-14B-Instruct-AWQ"


class EchoJudge(Judge):
    backend = "echo-test"

    def complete(self, request: Request) -> Response:
        return Response(status="ok", text='{"winner": "Tie"}')


def test_a_provider_is_registered_by_name_and_built_through_its_builder(monkeypatch):
    # a copy of the registry, so the test provider never outlives the test
    monkeypatch.setattr(provider_registry, "_PROVIDERS", dict(registered()))
    echo = provider_registry.register(Provider(
        "echo-test", "echo-test", lambda spec, provider, **kw: EchoJudge(spec.name, spec.model)))
    judge = build(JudgeSpec("echo", "echo-test", "echo-1", "test"))
    assert isinstance(judge, EchoJudge) and judge.model == "echo-1"
    assert provider_registry.register(echo) is echo  # the same one again is no error
    with pytest.raises(ValueError, match="unknown judge provider 'nope'.*echo-test"):
        build(JudgeSpec("x", "nope", "m", "test"))
    with pytest.raises(ValueError, match="registered twice"):
        provider_registry.register(Provider("echo-test", "other", echo.build))


def test_the_test_provider_is_gone_after_its_test():
    assert "echo-test" not in registered()


def test_the_rationale_variant_is_resolved_with_the_judge_in_one_place(monkeypatch):
    made = []
    monkeypatch.setattr(provider_registry, "_PROVIDERS", dict(registered()))
    provider_registry.register(Provider(
        "echo-local", "echo-local", lambda spec, provider, **kw: made.append((spec, kw)) or
        EchoJudge(spec.name, spec.model), in_process=True,
        judges=(JudgeSpec("echo-l", "echo-local", "echo-1", "embedded"),)))
    judge = get_judge("echo-l", rationales=True)
    assert judge.name == "echo-l-rationales"
    assert made == [(JudgeSpec("echo-l-rationales", "echo-local", "echo-1", "embedded"),
                     {"params": {"rationales": True}})]
    with pytest.raises(ValueError, match="--rationales is for local judges"):
        get_judge("gpt-5.5", rationales=True)
