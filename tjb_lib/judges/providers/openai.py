"""OpenAI: GPT-5.5 over Chat Completions (the ``openai`` SDK), with a batch API."""
from __future__ import annotations

from tjb_lib.judges.openai_api import LOGPROBS, OpenAIJudge
from tjb_lib.judges.provider import JudgeSpec, Price, Provider, Rule, register

CHECKED = "2026-12-03"  # when every rule and price below was last checked against its source

PROVIDER = register(Provider(
    name="openai", backend="openai", build=OpenAIJudge.from_spec,
    base_url="https://api.openai.com/v1", key_env="OPENAI_API_KEY", sdk="openai", batch=True,
    rules=(
        Rule("GPT-5.x and o-series models refuse max_tokens on Chat Completions (400 "
             "unsupported_parameter, param max_tokens); send max_completion_tokens, which counts "
             "visible and reasoning tokens",
             "https://platform.openai.com/docs/api-reference/chat/create", CHECKED),
        Rule("temperature other than 1, top_p and logprobs are accepted only with "
             "reasoning_effort 'none' (GPT-5.1 and later); with reasoning on they are 400 "
             "unsupported_value",
             "https://developers.openai.com/api/docs/guides/reasoning", CHECKED),
        Rule("with reasoning on, reasoning tokens count against max_completion_tokens: a small cap "
             "can be spent on reasoning and return empty content with finish_reason 'length'",
             "https://developers.openai.com/api/docs/guides/reasoning", CHECKED),
        Rule("response_format json_object needs the word 'json' in a message (else 400)",
             "https://developers.openai.com/api/docs/guides/structured-outputs", CHECKED),
        Rule("prompt caching is automatic from 1,024 prompt tokens; cached ones are reported in "
             "usage.prompt_tokens_details.cached_tokens, reasoning tokens in "
             "usage.completion_tokens_details.reasoning_tokens (billed as output)",
             "https://developers.openai.com/api/docs/guides/prompt-caching", CHECKED),
        Rule("a batch is a JSONL file of /v1/chat/completions bodies; a batch whose file fails "
             "validation ends 'failed' with the reasons in batch.errors and no output file; a "
             "line the API refuses comes back in the error file with its status",
             "https://platform.openai.com/docs/api-reference/batch", CHECKED),
    ),
    prices=(
        Price("gpt-5.5", input=5.00, cached_input=0.50, cache_write=5.00, output=30.00,
              batch_discount=0.5, cache_min_tokens=1024, cache_step_tokens=128,
              price_date="2026-04-23", checked=CHECKED,
              source="https://developers.openai.com/api/docs/pricing: standard tier, prompts up "
                     "to 272K tokens ($5 input, $0.50 cached input, $30 output; Batch 50% off), "
                     "read from third-party copies of that page (not from openai.com directly); "
                     "cache writes are not billed; caching is automatic from 1,024 prompt tokens "
                     "in 128-token steps (https://developers.openai.com/api/docs/guides/"
                     "prompt-caching); reasoning tokens are billed as output"),
    ),
    judges=(
        JudgeSpec("gpt-5.5", "openai", "gpt-5.5", "commercial",
                  reported_snapshot="gpt-5.5-2026-04-23",
                  params={"temperature": 0, "max_tokens_param": "max_completion_tokens",
                          "reasoning_effort": "none", **LOGPROBS},
                  notes="Full diagnostic matrix in the paper, where the endpoint reported "
                        "snapshot gpt-5.5-2026-04-23 (its Table A7); what the replies to our calls "
                        "name is in each verdict row (model_returned). Reasoning is off (reasoning_effort 'none') so that "
                        "temperature 0 and logprobs are accepted and the output cap is the "
                        "reply's."),
    ),
))
