"""Our own token count of a text or a request: the embedded judge's tokenizer (SmolLM2's
49k-token BPE) standing in for each provider's, plus a few tokens of chat framing per message.

``estimate`` prices runs with it before anything is sent, and the budget takes it as the floor
of what a call costs, whatever usage the server reports.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterable

from tjb_lib.records import Request

FRAMING_TOKENS_PER_MESSAGE = 4  # role markers and separators of a chat request


@lru_cache(maxsize=1)
def _tokenizer():
    from tokenizers import Tokenizer

    from tjb_lib.judges.smollm2 import tokenizer_file

    return Tokenizer.from_file(str(tokenizer_file()))


#: tokens of every text counted so far: a pair's texts recur in every level and paraphrase
_COUNTS: dict[str, int] = {}


def count_texts(texts: Iterable[str]) -> None:
    """Count the texts not counted yet, in one batch (the tokenizer spreads it over the cores)."""
    todo = list(dict.fromkeys(t for t in texts if t not in _COUNTS))
    if todo:
        encoded = _tokenizer().encode_batch_fast(todo, add_special_tokens=False)
        _COUNTS.update((t, len(e.ids)) for t, e in zip(todo, encoded))


def count_text(text: str) -> int:
    count_texts([text])
    return _COUNTS[text]


def count_request(request: Request) -> int:
    return sum(count_text(content) + FRAMING_TOKENS_PER_MESSAGE for _, content in request.messages)
