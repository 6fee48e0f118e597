"""An OpenAI-compatible server (vLLM) at a base URL the caller gives: any model it serves, and
the open-weight and embedded judges when they are served rather than loaded in this process."""
from __future__ import annotations

from tjb_lib.judges.openai_api import LOGPROBS, OpenAIJudge
from tjb_lib.judges.provider import Provider, Rule, register

CHECKED = "2026-12-03"  # when the rule below was last checked against its source

PROVIDER = register(Provider(
    name="vllm", backend="openai_compatible", build=OpenAIJudge.from_spec, sdk="openai",
    rules=(
        Rule("vLLM's OpenAI-compatible server takes max_tokens, logprobs with top_logprobs (at "
             "most --max-logprobs, default 20) and response_format json_schema, which its "
             "structured-output backends (xgrammar, guidance) enforce while decoding",
             "https://docs.vllm.ai/en/latest/features/structured_outputs/", CHECKED),
    ),
    default_params={"temperature": 0, **LOGPROBS},
))
