"""AWQ: a real autoawq quantization of a tiny random Llama on CPU, and the CUDA-only load path."""
from __future__ import annotations

import importlib.util
import json
import shutil

import pytest
import torch

from tjb_lib.judges import awq as awq_mod
from tjb_lib.records import LABELS

from _models import pair_requests, tiny_llama, tokenizer_or_skip

pytestmark = [
    pytest.mark.slow,  # a real autoawq quantization of a model, once for the module
    pytest.mark.skipif(importlib.util.find_spec("awq") is None,
                       reason="autoawq is not installed (the project's [gpu] extra)"),
]

GROUP = 64
HIDDEN, INTER, LAYERS = 128, 256, 2
CALIB = [
    "Berlin hosted the 1936 Summer Olympics, which opened in August of that year.",
    "Ernest Hemingway wrote The Old Man and the Sea, published in 1952.",
    "The Danube flows through Vienna, Bratislava, Budapest and Belgrade.",
    "Apollo 11 landed on the Moon on 20 July 1969; Armstrong stepped out first.",
    "Twelve times eleven is one hundred and thirty-two.",
    "The judge compares two candidate answers and replies with A, B or Tie.",
    "Citation markers such as [1] or [Source: NASA] do not change an answer's content.",
    "FinQA asks numerical questions about tables in financial reports.",
]


@pytest.fixture(scope="module")
def float_and_awq(tmp_path_factory):
    """(float folder, AWQ folder): a seeded tiny Llama with SmolLM2's tokenizer, quantized once."""
    tok = tokenizer_or_skip()
    root = tmp_path_factory.mktemp("awq")
    model = tiny_llama(len(tok), seed=0, layers=LAYERS, hidden=HIDDEN, init_range=0.02)
    float_dir, awq_dir = root / "float", root / "awq"
    model.save_pretrained(float_dir)
    tok.save_pretrained(float_dir)
    awq_mod.quantize_to_awq(float_dir, awq_dir, CALIB, group_size=GROUP, max_calib_seq_len=64)
    return float_dir, awq_dir


def test_awq_checkpoint_is_4bit_grouped_with_packed_gemm_tensors(float_and_awq):
    _, awq_dir = float_and_awq
    d = awq_mod.describe_awq_checkpoint(awq_dir)
    qc = d["quantization_config"]
    assert (qc["quant_method"], qc["bits"], qc["group_size"], qc["version"]) == ("awq", 4, GROUP, "gemm")
    assert qc["zero_point"] is True
    # every linear of every decoder layer is quantized; the lm_head stays float
    per_layer = {"self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj",
                 "mlp.gate_proj", "mlp.up_proj", "mlp.down_proj"}
    assert set(d["modules"]) == {f"model.layers.{i}.{m}" for i in range(LAYERS) for m in per_layer}
    q = d["modules"]["model.layers.0.self_attn.q_proj"]
    assert q == {"qweight": (HIDDEN, HIDDEN // 8), "qzeros": (HIDDEN // GROUP, HIDDEN // 8),
                 "scales": (HIDDEN // GROUP, HIDDEN)}
    down = d["modules"]["model.layers.1.mlp.down_proj"]
    assert down["qweight"] == (INTER, HIDDEN // 8) and down["scales"] == (INTER // GROUP, HIDDEN)
    assert d["dtypes"] == {"qweight": "I32", "qzeros": "I32", "scales": "F16"}


def dequantized_reference(awq_dir):
    """A float Llama whose linears are the checkpoint's 4-bit weights unpacked: what AWQ kernels
    compute, done in plain PyTorch so the checkpoint can be checked on CPU."""
    from awq.utils.packing_utils import dequantize_gemm
    from safetensors.torch import load_file
    from transformers import LlamaConfig, LlamaForCausalLM

    cfg_dict = json.loads((awq_dir / "config.json").read_text())
    cfg_dict.pop("quantization_config")
    cfg = LlamaConfig(**{k: v for k, v in cfg_dict.items() if k not in ("architectures", "transformers_version")})
    state = load_file(str(awq_dir / "model.safetensors"))
    plain = {}
    for key in list(state):
        if key.endswith(".qweight"):
            m = key[: -len(".qweight")]
            w = dequantize_gemm(state[key], state[m + ".qzeros"], state[m + ".scales"], 4, GROUP)
            plain[m + ".weight"] = w.float().t().contiguous()
        elif not key.endswith((".qzeros", ".scales")):
            plain[key] = state[key].float()
    ref = LlamaForCausalLM(cfg).eval()
    missing, unexpected = ref.load_state_dict(plain, strict=False)
    assert not unexpected and all("rotary" in k for k in missing), (missing, unexpected)
    return ref


def test_each_dequantized_linear_is_the_float_weight_up_to_awq_input_channel_scales(float_and_awq):
    from awq.utils.packing_utils import dequantize_gemm
    from safetensors.torch import load_file

    float_dir, awq_dir = float_and_awq
    orig, st = load_file(str(float_dir / "model.safetensors")), load_file(str(awq_dir / "model.safetensors"))
    for key in (k for k in st if k.endswith(".qweight")):
        m = key[: -len(".qweight")]
        w = dequantize_gemm(st[key], st[m + ".qzeros"], st[m + ".scales"], 4, GROUP).float().t()
        o = orig[m + ".weight"]
        assert w.shape == o.shape
        # AWQ multiplies each input channel by a searched scale (folded into the previous op)
        s = (w * o).sum(0) / (o * o).sum(0)
        corr = torch.corrcoef(torch.stack([(w / s).flatten(), o.flatten()]))[0, 1]
        assert float(corr) > 0.99, m
        assert not torch.allclose(w / s, o, atol=1e-6), m  # and it is really rounded to 4 bits


def test_dequantized_awq_model_reproduces_the_float_model(float_and_awq):
    from transformers import AutoModelForCausalLM

    float_dir, awq_dir = float_and_awq
    original = AutoModelForCausalLM.from_pretrained(str(float_dir), dtype=torch.float32).eval()
    ref = dequantized_reference(awq_dir)
    tok = tokenizer_or_skip()
    x = torch.tensor([tok.encode(CALIB[0] + " " + CALIB[2])])
    with torch.inference_mode():
        a, b = original(input_ids=x).logits[0], ref(input_ids=x).logits[0]
    cos = torch.nn.functional.cosine_similarity(a, b, dim=-1)
    assert float(cos.min()) > 0.95  # 4-bit, group 64: close to, but not equal to, the float model
    assert not torch.allclose(a, b, atol=1e-5)  # it really is quantized


def test_describe_rejects_a_checkpoint_whose_group_size_does_not_match_its_tensors(float_and_awq, tmp_path):
    _, awq_dir = float_and_awq
    bad = tmp_path / "bad"
    shutil.copytree(awq_dir, bad)
    cfg = json.loads((bad / "config.json").read_text())
    cfg["quantization_config"]["group_size"] = 32
    (bad / "config.json").write_text(json.dumps(cfg))
    with pytest.raises(ValueError, match="qzeros has shape"):
        awq_mod.describe_awq_checkpoint(bad)


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the refusal on a machine without CUDA")
def test_awq_judge_refuses_without_cuda_and_says_why(float_and_awq):
    _, awq_dir = float_and_awq
    assert awq_mod.awq_unavailable_reason() == awq_mod.NO_CUDA_REASON
    with pytest.raises(RuntimeError, match="AWQ kernels need CUDA; this machine has none"):
        awq_mod.load_awq_judge("tiny-awq", str(awq_dir))


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason=awq_mod.NO_CUDA_REASON)
def test_awq_judge_scores_on_cuda_close_to_the_dequantized_reference(float_and_awq):
    from tjb_lib.judges.local_hf import LocalHFJudge

    _, awq_dir = float_and_awq
    judge = awq_mod.load_awq_judge("tiny-awq", str(awq_dir))
    ref = LocalHFJudge("ref", "dequantized", dequantized_reference(awq_dir), judge.tokenizer, device="cuda")
    out, want = judge.score_many(pair_requests()), ref.score_many(pair_requests())
    for r, w in zip(out, want):
        assert r.status == "ok" and sum(r.label_probs.values()) == pytest.approx(1.0)
        for lab in LABELS:  # fp16 kernels vs fp32 reference
            assert r.label_probs[lab] == pytest.approx(w.label_probs[lab], abs=2e-2)
