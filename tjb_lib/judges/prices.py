"""The price of a model and the dollars of one judge call, from its provider's price list.

Prices are declared by each provider beside its other facts (``Provider.prices`` in
``tjb_lib/judges/providers/``: USD per million tokens, each with the date the price took effect,
the date it was checked and its public source). A price covers fresh input, cached input (a
prompt-cache hit), a cache write, and output; reasoning or thinking tokens are billed as output
by all three API providers, so they are inside ``output_tokens`` already. A model that no
provider prices has no dollar cost (None), never a silent zero. The runner (its cost per call
and run summary), the budget, ``estimate`` and ``cost.protocol_cost`` read prices here.
"""
from __future__ import annotations

from tjb_lib.judges.provider import Price, registered


def rates(model: str) -> Price | None:
    """The price of ``model`` (a model id or a catalog name), or None if no provider prices it.

    Matches the exact id, then case-insensitively, then the last path component with any
    ``@revision`` suffix dropped, so ``Qwen/Qwen2.5-14B-Instruct-AWQ`` served by vLLM and the
    embedded ``HuggingFaceTB/SmolLM2-135M-Instruct@...gguf`` find their local-model rows.
    """
    prices = {p.model: p for provider in registered().values() for p in provider.prices}
    lower = {m.lower(): p for m, p in prices.items()}
    base = model.split("@", 1)[0].rsplit("/", 1)[-1].lower()
    return prices.get(model) or lower.get(model.lower()) or lower.get(base)


def price(model: str) -> tuple[float, float] | None:
    """(USD per Mtok input, USD per Mtok output) for ``model``, or None if unpriced."""
    r = rates(model)
    return None if r is None else (r.input, r.output)


def call_cost(model: str, input_tokens: int | None, output_tokens: int | None,
              cached_input_tokens: int | None = None, cache_write_tokens: int | None = None,
              batch: bool = False) -> float | None:
    """Dollars for one call; None when the model is unpriced or usage is unknown."""
    r = rates(model)
    if r is None or input_tokens is None or output_tokens is None:
        return None
    return r.usd(input_tokens, output_tokens, cached_input_tokens or 0, cache_write_tokens or 0,
                 batch=batch)
