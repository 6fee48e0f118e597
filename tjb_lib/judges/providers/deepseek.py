"""DeepSeek: V4-Flash over its OpenAI-compatible Chat Completions (the ``openai`` SDK); no batch
API."""
from __future__ import annotations

from tjb_lib.judges.openai_api import LOGPROBS, OpenAIJudge
from tjb_lib.judges.provider import JudgeSpec, Price, Provider, Rule, register

CHECKED = "2026-12-03"  # when every rule and price below was last checked against its source

PROVIDER = register(Provider(
    name="deepseek", backend="openai_compatible", build=OpenAIJudge.from_spec,
    base_url="https://api.deepseek.com", key_env="DEEPSEEK_API_KEY", sdk="openai",
    rules=(
        Rule("JSON Output: response_format json_object, and the system or user prompt must "
             "contain the word 'json'",
             "https://api-docs.deepseek.com/guides/json_mode", CHECKED),
        Rule("thinking mode is on by default; {'thinking': {'type': 'disabled'}} turns it off. "
             "In thinking mode temperature is ignored and logprobs/top_logprobs are refused",
             "https://api-docs.deepseek.com/guides/thinking_mode", CHECKED),
        Rule("the output cap is max_tokens; context caching is automatic and usage reports "
             "prompt_cache_hit_tokens and prompt_cache_miss_tokens",
             "https://api-docs.deepseek.com/guides/kv_cache", CHECKED),
        Rule("the legacy model name deepseek-v4-flash is still accepted and served by "
             "DeepSeek-V4.1-Flash (deepseek-flash); 402 means an empty balance, 422 invalid "
             "parameters",
             "https://api-docs.deepseek.com/quick_start/pricing", CHECKED),
    ),
    prices=(
        Price("deepseek-v4-flash", input=0.30, cached_input=0.006, cache_write=0.30, output=1.20,
              cache_min_tokens=0, price_date="2026-10-17", checked=CHECKED,
              source="https://api-docs.deepseek.com/quick_start/pricing: peak-hour rates (cache "
                     "miss $0.30, cache hit $0.006, output $1.20; off-peak half) of "
                     "deepseek-flash, which now serves the legacy name deepseek-v4-flash (model "
                     "version DeepSeek-V4.1-Flash-1017, whose date is used as the price date); "
                     "no batch API; context caching is automatic with no documented minimum "
                     "(https://api-docs.deepseek.com/guides/kv_cache)"),
    ),
    judges=(
        JudgeSpec("deepseek-v4-flash", "deepseek", "deepseek-v4-flash", "commercial",
                  params={"temperature": 0, "thinking": "disabled", **LOGPROBS},
                  notes="Full diagnostic matrix in the paper, whose endpoint returned the alias "
                        "only. Thinking is off so that temperature 0 applies and logprobs are "
                        "allowed."),
    ),
))
