"""Our own token count of a text or a request: the embedded judge's tokenizer (SmolLM2's
49k-token BPE) standing in for each provider's, plus a few tokens of chat framing per message.

``estimate`` prices runs with it before anything is sent, and the budget takes it as the floor
of what a call costs, whatever usage the server reports.
"""
from __future__ import annotations

import hashlib
import json
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
#: counts kept from earlier estimates, by the text's sha256 (:func:`kept_counts`)
_KEPT: dict[str, int] | None = None
_NEW: dict[str, int] = {}


def _kept_path():
    from tjb_lib.judges.smollm2 import cache_root, package_version

    return cache_root() / f"token-counts-smollm2-{package_version()}.json"


def kept_counts() -> dict[str, int]:
    """The counts earlier estimates kept ({} when none, or when the file is not theirs: it is
    a cache, never a source of truth)."""
    global _KEPT
    if _KEPT is None:
        try:
            data = json.loads(_kept_path().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        _KEPT = {k: v for k, v in data.items() if isinstance(v, int)} \
            if isinstance(data, dict) else {}
    return _KEPT


def keep_counts() -> None:
    """Add this process's new counts to the kept ones (one atomic write)."""
    if _NEW:
        from tjb_lib.files import write_atomically

        path = _kept_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        merged = {**kept_counts(), **_NEW}
        write_atomically(path, json.dumps(merged, separators=(",", ":"),
                                          sort_keys=True).encode("utf-8"))
        _NEW.clear()


def _key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


def count_texts(texts: Iterable[str]) -> None:
    """Count the texts not counted yet: from the kept counts, else in one batch (the tokenizer
    spreads it over the cores)."""
    todo = list(dict.fromkeys(t for t in texts if t not in _COUNTS))
    kept = kept_counts() if todo else {}
    keys = {t: _key(t) for t in todo}
    _COUNTS.update((t, kept[keys[t]]) for t in todo if keys[t] in kept)
    todo = [t for t in todo if keys[t] not in kept]
    if todo:
        encoded = _tokenizer().encode_batch_fast(todo, add_special_tokens=False)
        for t, e in zip(todo, encoded):
            _COUNTS[t] = _NEW[keys[t]] = len(e.ids)


def count_text(text: str) -> int:
    count_texts([text])
    return _COUNTS[text]


def count_request(request: Request) -> int:
    return sum(count_text(content) + FRAMING_TOKENS_PER_MESSAGE for _, content in request.messages)


def counted_new() -> int:
    """How many texts this process has counted with the tokenizer (not read from kept counts)."""
    return len(_NEW)
