"""Anthropic: Claude Sonnet 4.6 over the Messages API (the ``anthropic`` SDK), with message
batches. The API version the calls pin, and why, is ``anthropic_api.API_VERSION``."""
from __future__ import annotations

from tjb_lib.judges.anthropic_api import API_VERSION, AnthropicJudge
from tjb_lib.judges.provider import JudgeSpec, Price, Provider, Rule, register

CHECKED = "2026-12-03"  # when the rules and prices below were last checked against their source
VERSIONS_CHECKED = "2026-12-04"

PROVIDER = register(Provider(
    name="anthropic", backend="anthropic", build=AnthropicJudge.from_spec,
    base_url="https://api.anthropic.com", key_env="ANTHROPIC_API_KEY", sdk="anthropic",
    batch=True,
    rules=(
        Rule(f"every call names anthropic-version {API_VERSION}: API version 2026-10-21 (the "
             "default of the anthropic SDK 2.x pinned here) removed temperature, top_p and top_k "
             "and answers any of them with 400, while 2023-06-01 still takes temperature 0-1; "
             "within one version its input parameters are kept",
             "https://platform.claude.com/docs/en/api/versioning", VERSIONS_CHECKED),
        Rule("the SDK majors released with API version 2026-10-21 (Python 2.0.0 and later) send "
             "it by default; a request names its version in the anthropic-version header",
             "https://platform.claude.com/docs/en/api/migration-2026-10-21", VERSIONS_CHECKED),
        Rule("the system prompt is the top-level 'system' field; message roles are only user and "
             "assistant; max_tokens is required",
             "https://platform.claude.com/docs/en/api/messages", CHECKED),
        Rule("temperature (0-1) and top_p cannot both be specified for Claude Sonnet 4.5 and "
             "later (400 invalid_request_error)",
             "https://platform.claude.com/docs/en/about-claude/models/migrating-to-claude-4",
             CHECKED),
        Rule("cache_control {'type': 'ephemeral'} on a content block caches the prefix up to it "
             "(at most 4 breakpoints; Sonnet 4.6 caches prefixes of 1,024 tokens or more); usage "
             "reports cache_creation_input_tokens and cache_read_input_tokens apart from "
             "input_tokens",
             "https://platform.claude.com/docs/en/build-with-claude/prompt-caching", CHECKED),
        Rule("Claude 4.6 models refuse a prefilled assistant message as the last turn (400)",
             "https://platform.claude.com/docs/en/about-claude/models/migration-guide", CHECKED),
        Rule("errors come as {'type': 'error', 'error': {'type': 'invalid_request_error', "
             "'message': ...}} with the HTTP status (400, 401, 403, 404, 413, 429, 500, 529)",
             "https://platform.claude.com/docs/en/api/errors", CHECKED),
    ),
    prices=(
        Price("claude-sonnet-4-6", input=3.00, cached_input=0.30, cache_write=3.75, output=15.00,
              batch_discount=0.5, cache_min_tokens=1024, price_date="2026-02-17",
              checked=CHECKED,
              source="https://platform.claude.com/docs/en/models/sonnet-4-6/overview ($3 input, "
                     "$15 output) and https://platform.claude.com/docs/en/about-claude/pricing "
                     "(5-minute cache write 1.25x input, cache read 0.1x input, Batch API 50% "
                     "off); caching needs cache_control and a prefix of at least 1,024 tokens for "
                     "Sonnet 4.6 (https://platform.claude.com/docs/en/build-with-claude/"
                     "prompt-caching; anthropic-sdk-python issue 1194 reports hits only from "
                     "2,048)"),
    ),
    judges=(
        JudgeSpec("claude-sonnet-4-6", "anthropic", "claude-sonnet-4-6", "commercial",
                  params={"temperature": 0, "cache_prefix": True},
                  notes="Full diagnostic matrix in the paper, whose endpoint did not expose the "
                        "provider snapshot. No logprobs on the Messages API. Called under API version "
                        f"{API_VERSION}, the version that still takes the paper's temperature "
                        "0 (the SDK's default, 2026-10-21, refuses any temperature)."),
    ),
))
