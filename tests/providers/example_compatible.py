"""A throwaway OpenAI-compatible provider, whole in one module, as a new provider is added: copy
it into ``tjb_lib/judges/providers/`` with the provider's real endpoint, key variable, documented
rules, prices and judges (``test_new_provider.py`` loads it from here and runs every protocol
with it against the contract emulator)."""
from __future__ import annotations

from tjb_lib.judges.openai_api import LOGPROBS, OpenAIJudge
from tjb_lib.judges.provider import JudgeSpec, Price, Provider, Rule, register

CHECKED = "2026-12-04"

PROVIDER = register(Provider(
    name="example", backend="openai_compatible", build=OpenAIJudge.from_spec,
    base_url="https://api.example-llm.test/v1", key_env="EXAMPLE_API_KEY", sdk="openai",
    rules=(Rule("top_logprobs is at most 5", "https://docs.example-llm.test/chat", CHECKED),),
    prices=(Price("example-judge-1", input=1.0, cached_input=0.1, cache_write=1.0, output=4.0,
                  price_date="2026-12-01", checked=CHECKED,
                  source="https://docs.example-llm.test/pricing"),),
    judges=(JudgeSpec("example-judge", "example", "example-judge-1", "commercial",
                      params={"temperature": 0, **LOGPROBS}),),
))
