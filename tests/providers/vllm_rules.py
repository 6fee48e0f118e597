"""vLLM's OpenAI-compatible server as the contract emulator enforces it, from vLLM's
documentation (checked 2026-12-03): https://docs.vllm.ai/en/latest/features/structured_outputs/
(response_format json_schema), top_logprobs capped by the server's --max-logprobs (default 20).
It answers every chat model no other dialect claims."""
from __future__ import annotations

import contract_rules as rules


class VLLM(rules.Dialect):
    name = "vllm"
    models = None  # any other model: a served one

    def error(self, message: str, param: str | None = None,
              code: str | None = None) -> rules.Violation:
        return rules.Violation(400, {"error": {"message": message, "type": "BadRequestError",
                                               "param": None, "code": 400}})


rules.register(VLLM())
