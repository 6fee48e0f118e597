"""A judge run locally with Hugging Face Transformers (CPU or CUDA).

Verdicts are read from logits, not from generated text: the chat prompt is followed by an
assistant prefix (``{"winner": "``, the paper's JSON schema) so that the next token *is* the
label, and one forward pass gives P(A), P(B), P(Tie). Judge prompts in a split share a long
instruction prefix, so ``score_many`` computes that prefix's key/value cache once and runs only
each comparison's suffix. Free text (TRACE stage 1, rationales) uses greedy ``generate()``.

On CPU the judge answers as many requests at once as the process has cores (``max_concurrency``;
``score_many`` and the runner use it), and each forward pass takes its share of the cores that
other processes leave free (``cpu_share``): every core for a pass alone on an idle machine, one
each for passes side by side or on a busy machine, where a pass split over threads would wait at
every operator for its slowest thread. The thread count is a setting of the machine, like the
CPU: it moves probabilities in their last float32 bits (none of 421 stored verdicts changed
label, bench/_numerics_check.py), so the metadata records it and the judge's identity does not.
"""
from __future__ import annotations

import copy
import inspect
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any, Iterator, Sequence

import torch

from tjb_lib.judges.base import Judge
from tjb_lib.judges.cpu_share import CoreShare
from tjb_lib.judges.local_lazy import (LABEL_PREFIX, local_params, native_bf16, processor_dtype,
                                       usable_cores)
from tjb_lib.records import LABELS, Request, Response


def resolve_device(device: str | None) -> str:
    """"auto"/None picks CUDA when present; asking for CUDA without it is an error, not a fallback."""
    if device in (None, "auto"):
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise RuntimeError(f"device {device!r} requested but torch sees no CUDA device on this machine")
    return device


def default_dtype(device: str) -> torch.dtype:
    """bfloat16 on CUDA, and on a CPU that computes it natively (AMX, AVX-512 BF16: about twice
    float32's speed); float32 on other CPUs, where bfloat16 is emulated."""
    return torch.bfloat16 if device != "cpu" else getattr(torch, processor_dtype())


def set_deterministic(seed: int, device: str) -> None:
    """Seed torch and ask CUDA for deterministic kernels (CPU inference is deterministic already)."""
    torch.manual_seed(seed)
    if device.startswith("cuda"):
        torch.cuda.manual_seed_all(seed)
        torch.backends.cudnn.deterministic = True
        torch.backends.cudnn.benchmark = False
        torch.use_deterministic_algorithms(True, warn_only=True)


def label_first_tokens(tokenizer, prefix: str = LABEL_PREFIX) -> dict[str, int]:
    """The first token of each label when it follows ``prefix``; they must be distinct.

    The label is tokenized together with the prefix (BPE merges depend on context) and the
    prefix's own tokens must survive unchanged, else reading "the next token" would be wrong.
    """
    base = tokenizer.encode(prefix, add_special_tokens=False)
    firsts: dict[str, int] = {}
    for label in LABELS:
        ids = tokenizer.encode(prefix + label, add_special_tokens=False)
        if ids[: len(base)] != base or len(ids) <= len(base):
            raise ValueError(f"label {label!r} merges with the assistant prefix {prefix!r} in this "
                             f"tokenizer; choose a prefix that ends on a token boundary")
        firsts[label] = ids[len(base)]
    if len(set(firsts.values())) != len(LABELS):
        raise ValueError(f"labels share a first token after {prefix!r}: {firsts}")
    return firsts


def _common_prefix_len(a: Sequence[int], b: Sequence[int]) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


class LocalHFJudge(Judge):
    """A causal LM judge: verdict probabilities from next-token logits, text by greedy decoding."""

    backend = "local_hf"

    def __init__(self, name: str, model: str, hf_model, tokenizer, *, device: str | None = None,
                 label_prefix: str = LABEL_PREFIX, batch_size: int | None = None,
                 min_prefix_tokens: int = 16, prefix_cache_size: int = 8, seed: int = 0,
                 params: dict[str, Any] | None = None, notes: str = "",
                 extra_metadata: dict[str, Any] | None = None, threads: int | None = None,
                 max_concurrency: int | None = None):
        self.device = resolve_device(device)
        self.hf_model = hf_model.to(self.device).eval() if not _is_dispatched(hf_model) else hf_model.eval()
        self.tokenizer = tokenizer
        self.label_prefix = label_prefix
        self.label_ids = label_first_tokens(tokenizer, label_prefix)
        # Batching pays on a GPU; on a few CPU cores it barely helps and costs padding.
        self.batch_size = batch_size or (1 if self.device == "cpu" else 8)
        self.min_prefix_tokens = min_prefix_tokens
        self.seed = seed
        self.notes = notes
        self.extra_metadata = dict(extra_metadata or {})
        self._prefix_cache: OrderedDict[tuple[int, ...], Any] = OrderedDict()
        self._prefix_cache_size = prefix_cache_size
        self._last_ids: tuple[int, ...] = ()
        self._cache_lock = threading.RLock()  # concurrent calls share the prefix cache
        on_cpu = self.device == "cpu"
        # CPU: as many passes at once as there are cores, each on its share of the free cores
        # (``threads`` fixes the threads per pass instead)
        self.threads = threads
        self.share = CoreShare(fixed=threads) if on_cpu else None
        concurrency = max_concurrency or (max(1, usable_cores() // (threads or 1)) if on_cpu else 1)
        # transformers 5.x renamed ``past_key_values`` to ``cache``; speak whichever this model takes
        self._cache_kw = ("cache" if "cache" in inspect.signature(self.hf_model.forward).parameters
                          else "past_key_values")
        self._pad_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
        dtype = str(next(self.hf_model.parameters()).dtype).replace("torch.", "")
        super().__init__(name, model, params=local_params(label_prefix, dtype, params),
                         max_concurrency=concurrency)
        set_deterministic(seed, self.device)

    @contextmanager
    def _pass(self) -> Iterator[None]:
        """Run one forward pass (or one generation) on its share of the CPU's free cores."""
        if self.share is None:
            yield
            return
        with self.share.one_pass() as threads:
            torch.set_num_threads(threads)
            yield

    # ---- Judge interface -------------------------------------------------------------------
    def complete(self, request: Request) -> Response:
        return self.score_many([request])[0]

    def count_tokens(self, text: str) -> int:
        return len(self.tokenizer.encode(text, add_special_tokens=False))

    def metadata(self) -> dict[str, Any]:
        import transformers
        return {**super().metadata(), "device": self.device, "batch_size": self.batch_size,
                "threads_per_pass": self.threads or ("free cores / passes in flight"
                                                     if self.share else torch.get_num_threads()),
                "max_concurrency": self.max_concurrency,
                "cpu_native_bf16": native_bf16() if self.device == "cpu" else None,
                "label_token_ids": dict(self.label_ids), "torch": torch.__version__,
                "transformers": transformers.__version__, "notes": self.notes,
                **self.extra_metadata}

    # ---- batch entry point -----------------------------------------------------------------
    def score_many(self, requests: Sequence[Request]) -> list[Response]:
        """Answer many requests; verdicts share prefix key/value caches and run in batches."""
        out: list[Response | None] = [None] * len(requests)
        verdict_idx: list[int] = []
        for i, req in enumerate(requests):
            if req.temperature not in (0, 0.0):
                raise ValueError(f"request {i}: local_hf decodes greedily (temperature 0); "
                                 f"got temperature={req.temperature}")
            if req.kind == "verdict" and self.params.get("rationales"):
                # rationales on request: the verdict is generated as JSON text with its reason
                # (for the keyword audit), parsed like an API reply, at generation's cost
                out[i] = self._generate(req)
            elif req.kind == "verdict":
                verdict_idx.append(i)
            elif req.kind == "text":
                out[i] = self._generate(req)
            else:
                raise ValueError(f"request {i}: unknown kind {req.kind!r} (expected 'verdict' or 'text')")
        if verdict_idx:
            ids = [self.verdict_ids(requests[i]) for i in verdict_idx]
            for i, resp in zip(verdict_idx, self._score_ids(ids)):
                out[i] = resp
        return out  # type: ignore[return-value]

    # ---- prompt rendering ------------------------------------------------------------------
    def prompt_ids(self, request: Request) -> list[int]:
        """The chat-templated prompt, ending with the assistant turn's opening."""
        text = self.tokenizer.apply_chat_template(request.chat(), tokenize=False,
                                                  add_generation_prompt=True)
        return self.tokenizer.encode(text, add_special_tokens=False)

    def verdict_ids(self, request: Request) -> list[int]:
        """Prompt plus the label prefix, tokenized apart so the prefix tokens are exactly those
        used to find the label tokens."""
        return self.prompt_ids(request) + self.tokenizer.encode(self.label_prefix, add_special_tokens=False)

    # ---- verdict scoring -------------------------------------------------------------------
    def _label_probs(self, logits: torch.Tensor) -> list[tuple[dict[str, float], float]]:
        """Rows of next-token logits -> (renormalised label probs, raw label mass)."""
        logp = torch.log_softmax(logits.float(), dim=-1)
        idx = torch.tensor([self.label_ids[lab] for lab in LABELS], device=logp.device)
        p = logp[:, idx].exp().double().cpu()
        res = []
        for row in p:
            mass = float(row.sum())
            res.append(({lab: float(row[k] / mass) for k, lab in enumerate(LABELS)}, mass))
        return res

    def _group(self, ids: list[list[int]]) -> list[tuple[int, list[int]]]:
        """Group prompts by a shared token prefix: (prefix length, member indices).

        Sorted prompts put shared prefixes next to each other; a group's prefix is the common
        prefix of all its members, kept only if it is at least ``min_prefix_tokens`` long and
        leaves every member one token of suffix (the position whose logits we read).
        """
        order = sorted(range(len(ids)), key=lambda i: ids[i])
        groups: list[tuple[int, list[int]]] = []
        for i in order:
            if groups:
                plen, members = groups[-1]
                first = ids[members[0]]
                shared = min(plen, _common_prefix_len(first, ids[i]), len(ids[i]) - 1)
                if shared >= self.min_prefix_tokens:
                    groups[-1] = (shared, members + [i])
                    continue
            groups.append((len(ids[i]) - 1, [i]))
        return groups

    def _cached_prefix(self, seq: tuple[int, ...]) -> tuple[int, ...] | None:
        """The longest cached prefix of ``seq`` that leaves at least one suffix token."""
        best = None
        for key in self._prefix_cache:
            if (self.min_prefix_tokens <= len(key) < len(seq) and seq[: len(key)] == key
                    and (best is None or len(key) > len(best))):
                best = key
        return best

    def _prefix_kv(self, prefix: tuple[int, ...]):
        """Key/value cache of exactly ``prefix``, computed once and kept in a small LRU."""
        if prefix in self._prefix_cache:
            self._prefix_cache.move_to_end(prefix)
            return len(prefix), self._prefix_cache[prefix]
        x = torch.tensor([prefix], device=self.device)
        with self._pass():
            out = self.hf_model(input_ids=x, attention_mask=torch.ones_like(x), use_cache=True,
                                logits_to_keep=1)  # only the cache is wanted, not prefix logits
        pkv = out["cache"] if self._cache_kw == "cache" else out["past_key_values"]
        self._prefix_cache[prefix] = pkv
        while len(self._prefix_cache) > self._prefix_cache_size:
            self._prefix_cache.popitem(last=False)
        return len(prefix), pkv

    def _run_suffixes(self, prefix_len: int, pkv, suffixes: list[list[int]]) -> torch.Tensor:
        """Next-token logits after prefix+suffix for a right-padded batch of suffixes."""
        b = len(suffixes)
        width = max(len(s) for s in suffixes)
        x = torch.full((b, width), self._pad_id, dtype=torch.long)
        mask = torch.zeros((b, prefix_len + width), dtype=torch.long)
        mask[:, :prefix_len] = 1
        for r, s in enumerate(suffixes):
            x[r, : len(s)] = torch.tensor(s)
            mask[r, prefix_len: prefix_len + len(s)] = 1
        last = [len(s) - 1 for s in suffixes]
        keep = sorted(set(last))
        kv = None
        if pkv is not None:
            kv = copy.deepcopy(pkv)  # the model extends the cache in place
            if b > 1:
                kv.batch_repeat_interleave(b)
        with self._pass():
            out = self.hf_model(input_ids=x.to(self.device), attention_mask=mask.to(self.device),
                                use_cache=kv is not None,
                                logits_to_keep=torch.tensor(keep, device=self.device),
                                **{self._cache_kw: kv})
        rows = torch.arange(b, device=self.device)
        cols = torch.tensor([keep.index(p) for p in last], device=self.device)
        return out.logits[rows, cols]

    def _reusable_prefix(self, ids: list[list[int]], plen: int, members: list[int]):
        """(tokens reused, their key/value cache or None) for one group of prompts."""
        with self._cache_lock:
            if len(members) > 1:
                return self._prefix_kv(tuple(ids[members[0]][:plen]))
            lone = tuple(ids[members[0]])
            cached = self._cached_prefix(lone)
            shared = _common_prefix_len(self._last_ids, lone)
            self._last_ids = lone
            if cached is not None:  # a lone request after one with the same instructions
                return self._prefix_kv(cached)
            if self.min_prefix_tokens <= shared < len(lone):
                # one request at a time (the runner's way): the instructions this prompt
                # shares with the previous one become a cached prefix for the ones to come
                return self._prefix_kv(lone[:shared])
            return 0, None

    def _score_ids(self, ids: list[list[int]]) -> list[Response]:
        out: list[Response | None] = [None] * len(ids)

        def failed(members: list[int], e: Exception) -> None:
            for i in members:
                out[i] = Response(status="failed", error=f"{type(e).__name__}: {e}",
                                  input_tokens=len(ids[i]), output_tokens=0,
                                  model_returned=self.model)

        batches = []  # (members, tokens reused, their cache, prefix seconds per member)
        for plen, members in self._group(ids):
            t0 = time.perf_counter()
            try:
                with torch.inference_mode():
                    reused, pkv = self._reusable_prefix(ids, plen, members)
            except (RuntimeError, torch.cuda.OutOfMemoryError) as e:
                failed(members, e)
                continue
            prefix_share = (time.perf_counter() - t0) / len(members)
            batches += [(members[k: k + self.batch_size], reused, pkv, prefix_share)
                        for k in range(0, len(members), self.batch_size)]

        def run(batch):
            chunk, reused, pkv, _ = batch
            t0 = time.perf_counter()
            try:
                with torch.inference_mode():
                    return self._label_probs(
                        self._run_suffixes(reused, pkv, [ids[i][reused:] for i in chunk])
                    ), (time.perf_counter() - t0) / len(chunk)
            except (RuntimeError, torch.cuda.OutOfMemoryError) as e:
                return e, 0.0

        workers = min(self.max_concurrency, len(batches))
        if workers > 1:  # independent one-thread passes on as many cores
            with ThreadPoolExecutor(workers) as pool:
                done = list(pool.map(run, batches))
        else:
            done = [run(batch) for batch in batches]
        for (chunk, reused, _, prefix_share), (results, share) in zip(batches, done):
            if isinstance(results, Exception):
                failed(chunk, results)
                continue
            for i, (probs, mass) in zip(chunk, results):
                out[i] = Response(status="ok", text=None, label_probs=probs, input_tokens=len(ids[i]),
                                  output_tokens=0, model_returned=self.model,
                                  latency_s=share + prefix_share,
                                  meta={"label_mass": mass, "prefix_tokens_reused": reused})
        return out  # type: ignore[return-value]

    def clear_prefix_cache(self) -> None:
        with self._cache_lock:
            self._prefix_cache.clear()
            self._last_ids = ()

    # ---- free text -------------------------------------------------------------------------
    @torch.inference_mode()
    def _generate(self, request: Request) -> Response:
        from transformers import GenerationConfig

        ids = self.prompt_ids(request)
        x = torch.tensor([ids], device=self.device)
        # a judge may cap generation below the request's budget (recorded in its params, so in
        # its store keys): a truncated record then fails to parse and is counted, never guessed
        cap = self.params.get("max_new_tokens_cap") or request.max_tokens
        cfg = GenerationConfig(do_sample=False, max_new_tokens=min(request.max_tokens, cap),
                               pad_token_id=self._pad_id, eos_token_id=self.tokenizer.eos_token_id)
        t0 = time.perf_counter()
        try:
            with self._pass():
                gen = self.hf_model.generate(input_ids=x, attention_mask=torch.ones_like(x),
                                             generation_config=cfg)
        except (RuntimeError, torch.cuda.OutOfMemoryError) as e:
            return Response(status="failed", error=f"{type(e).__name__}: {e}", input_tokens=len(ids),
                            model_returned=self.model)
        new = gen[0, len(ids):].tolist()
        eos = self.tokenizer.eos_token_id
        finish = "stop" if (new and new[-1] == eos) else "length"
        text = self.tokenizer.decode(new, skip_special_tokens=True)
        return Response(status="ok", text=text, input_tokens=len(ids), output_tokens=len(new),
                        model_returned=self.model, latency_s=time.perf_counter() - t0,
                        meta={"finish_reason": finish})


def _is_dispatched(hf_model) -> bool:
    """Models placed by accelerate's device_map must not be moved again."""
    return bool(getattr(hf_model, "hf_device_map", None))


def load_local_hf(name: str, model_id: str, *, model_name: str | None = None, device: str | None = None,
                  dtype: torch.dtype | None = None, revision: str | None = None,
                  local_files_only: bool | None = None, **judge_kwargs) -> LocalHFJudge:
    """Load a hub id or local folder with Transformers and wrap it as a judge.

    ``model_name`` is what the judge's identity records (default ``model_id``), so a cache folder
    on one machine does not leak into store keys. Offline-friendly: a local folder never touches
    the hub; ``HF_HUB_OFFLINE=1`` is honoured.
    """
    import os
    from pathlib import Path

    from transformers import AutoModelForCausalLM, AutoTokenizer

    dev = resolve_device(device)
    if local_files_only is None:
        local_files_only = Path(model_id).is_dir() or os.environ.get("HF_HUB_OFFLINE") == "1"
    kw = {"revision": revision, "local_files_only": local_files_only}
    tok = AutoTokenizer.from_pretrained(model_id, **kw)
    model = AutoModelForCausalLM.from_pretrained(model_id, dtype=dtype or default_dtype(dev), **kw)
    return LocalHFJudge(name, model_name or model_id, model, tok, device=dev, **judge_kwargs)
