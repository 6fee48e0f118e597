"""AWQ 4-bit checkpoints (the paper's Qwen2.5-14B-Instruct-AWQ judge): quantize, inspect, load.

Loading runs the AWQ kernels, which need CUDA: autoawq's GEMM layers dispatch to its CUDA
extension or to Triton GPU kernels, and its CPU route needs intel_extension_for_pytorch;
transformers' own AWQ integration needs gptqmodel. So ``load_awq_judge`` refuses on a machine
without CUDA, with that reason. Quantizing (calibration and packing) is plain PyTorch and runs
on CPU, which lets the checkpoint format be tested anywhere.
"""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any, Sequence

import torch

NO_CUDA_REASON = "AWQ kernels need CUDA; this machine has none"
PACK = 32 // 4  # int32 words hold eight 4-bit values


def awq_unavailable_reason() -> str | None:
    """Why AWQ inference cannot run here, or None when it can."""
    if not torch.cuda.is_available():
        return NO_CUDA_REASON
    if importlib.util.find_spec("awq") is None and importlib.util.find_spec("gptqmodel") is None:
        return "no AWQ runtime installed: pip install 'autoawq==0.2.9' (the project's [gpu] extra)"
    return None


def quantize_to_awq(model_dir: str | Path, out_dir: str | Path, calib_texts: Sequence[str], *,
                    w_bit: int = 4, group_size: int = 128, zero_point: bool = True,
                    version: str = "GEMM", max_calib_seq_len: int = 512) -> Path:
    """Quantize a float checkpoint with autoawq, calibrating on ``calib_texts`` (no downloads)."""
    from awq import AutoAWQForCausalLM
    from transformers import AutoTokenizer

    if not calib_texts:
        raise ValueError("quantize_to_awq needs at least one calibration text")
    tok = AutoTokenizer.from_pretrained(str(model_dir), local_files_only=True)
    model = AutoAWQForCausalLM.from_pretrained(str(model_dir), device_map="cpu" if not torch.cuda.is_available() else "auto")
    quant_config = {"zero_point": zero_point, "q_group_size": group_size, "w_bit": w_bit, "version": version}
    model.quantize(tok, quant_config=quant_config, calib_data=list(calib_texts),
                   max_calib_samples=len(calib_texts), max_calib_seq_len=max_calib_seq_len,
                   n_parallel_calib_samples=None)
    out = Path(out_dir)
    model.save_quantized(str(out))
    tok.save_pretrained(str(out))
    return out


def describe_awq_checkpoint(folder: str | Path) -> dict[str, Any]:
    """The quantization config and the packed tensors of a saved AWQ (GEMM) checkpoint.

    Checks that every quantized linear has its qweight/qzeros/scales with consistent shapes
    (qweight [in, out/8] int32, qzeros [in/group, out/8] int32, scales [in/group, out]); raises
    naming the file and tensor otherwise.
    """
    from safetensors import safe_open

    folder = Path(folder)
    cfg_path = folder / "config.json"
    qc = json.loads(cfg_path.read_text()).get("quantization_config")
    if not qc or qc.get("quant_method") != "awq":
        raise ValueError(f"{cfg_path}: no quantization_config with quant_method 'awq'")
    bits, group = int(qc["bits"]), int(qc["group_size"])
    if bits != 4:
        raise ValueError(f"{cfg_path}: quantization_config.bits={bits}; only 4-bit GEMM packing is read")
    shapes: dict[str, dict[str, tuple[int, ...]]] = {}
    dtypes: dict[str, str] = {}
    files = sorted(folder.glob("*.safetensors"))
    if not files:
        raise FileNotFoundError(f"{folder}: no *.safetensors weights")
    for f in files:
        with safe_open(str(f), "pt") as st:
            for key in st.keys():
                for part in ("qweight", "qzeros", "scales"):
                    if key.endswith("." + part):
                        sl = st.get_slice(key)
                        shapes.setdefault(key[: -len(part) - 1], {})[part] = tuple(sl.get_shape())
                        dtypes[part] = str(sl.get_dtype())
    for module, s in shapes.items():
        if set(s) != {"qweight", "qzeros", "scales"}:
            raise ValueError(f"{folder}: {module} lacks {sorted({'qweight', 'qzeros', 'scales'} - set(s))}")
        n_in, out_packed = s["qweight"]
        want = {"qzeros": (n_in // group, out_packed), "scales": (n_in // group, out_packed * PACK)}
        for part, shape in want.items():
            if s[part] != shape:
                raise ValueError(f"{folder}: {module}.{part} has shape {s[part]}, expected {shape} "
                                 f"for qweight {s['qweight']} and group size {group}")
    return {"quantization_config": qc, "modules": shapes, "dtypes": dtypes}


def load_awq_model(model_id: str, *, device: str = "cuda"):
    """The Hugging Face model inside an AWQ checkpoint, on CUDA, through autoawq."""
    reason = awq_unavailable_reason()
    if reason:
        raise RuntimeError(f"cannot load AWQ checkpoint {model_id!r}: {reason}")
    if importlib.util.find_spec("awq") is not None:
        from awq import AutoAWQForCausalLM

        # the whole model on one device: accelerate takes a device only inside a map, a bare
        # "cuda" string is refused ("please choose 'auto', 'balanced', ...")
        wrapped = AutoAWQForCausalLM.from_quantized(model_id, fuse_layers=False,
                                                    device_map={"": device},
                                                    torch_dtype=torch.float16)
        return wrapped.model
    from transformers import AutoModelForCausalLM  # transformers' AWQ integration (gptqmodel)

    return AutoModelForCausalLM.from_pretrained(model_id, dtype=torch.float16,
                                                device_map={"": device})


def load_awq_judge(name: str, model_id: str, *, device: str = "cuda", **judge_kwargs):
    """A local judge over an AWQ checkpoint (hub id or folder); CUDA only."""
    from transformers import AutoTokenizer

    from tjb_lib.judges.local_hf import LocalHFJudge

    hf_model = load_awq_model(model_id, device=device)
    tok = AutoTokenizer.from_pretrained(model_id)
    params = {"quantization": "awq-w4", **judge_kwargs.pop("params", {})}
    return LocalHFJudge(name, model_id, hf_model, tok, device=device, params=params, **judge_kwargs)
