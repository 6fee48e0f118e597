"""Which dtype an in-process judge computes in on CPU, and that it is part of the call's identity."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from tjb_lib import cli, paths
from tjb_lib.judges import local_lazy
from tjb_lib.judges.catalog import get_judge
from tjb_lib.judges.local_lazy import (DTYPE_ENV, cpu_dtype, cpu_flags, native_bf16,
                                       processor_dtype, recorded_dtype)

SHIPPED_CALLS = paths.RAW_OUTPUTS / "smollm2" / "calls.jsonl"
CPUINFO_LINE = "flags\t\t: fpu vme sse sse2 avx2 avx512f {extra}\n"


def cpuinfo(tmp_path: Path, extra: str) -> Path:
    path = tmp_path / f"cpuinfo-{extra or 'plain'}"
    path.write_text("processor\t: 0\n" + CPUINFO_LINE.format(extra=extra) + "\n"
                    "processor\t: 1\n" + CPUINFO_LINE.format(extra=extra))
    return path


@pytest.mark.parametrize("extra, native", [("avx512_bf16", True), ("amx_bf16 amx_tile", True),
                                           ("avx512_vnni", False), ("", False)])
def test_bfloat16_is_native_only_with_amx_or_avx512_bf16(tmp_path, extra, native):
    assert native_bf16(cpuinfo(tmp_path, extra)) is native
    assert "avx512f" in cpu_flags(cpuinfo(tmp_path, extra))


def test_no_cpuinfo_means_no_native_bfloat16(tmp_path):
    assert cpu_flags(tmp_path / "absent") == set() and not native_bf16(tmp_path / "absent")


@pytest.mark.skipif(not local_lazy.CPUINFO.is_file(), reason="no /proc/cpuinfo on this system")
def test_the_flags_agree_with_torchs_own_detection():
    torch_says = torch.cpu._is_avx512_bf16_supported() or torch.cpu._is_amx_tile_supported()
    assert native_bf16() is torch_says


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """No dtype asked for and no recorded run; the CPU is the one in ``monkeypatch``'s file."""
    monkeypatch.delenv(DTYPE_ENV, raising=False)
    monkeypatch.setattr(paths, "METADATA", tmp_path / "metadata")
    return tmp_path


@pytest.mark.parametrize("extra, dtype", [("avx512_bf16", "bfloat16"), ("avx2", "float32")])
def test_a_new_judge_computes_in_bfloat16_where_the_cpu_has_it(fresh, monkeypatch, extra, dtype):
    monkeypatch.setattr(local_lazy, "CPUINFO", cpuinfo(fresh, extra))
    assert cpu_dtype("smollm2") == dtype
    judge = get_judge("smollm2")
    assert judge.identity()["params"]["dtype"] == dtype
    assert judge.metadata()["params"]["dtype"] == dtype  # what run metadata records
    assert get_judge("gemma-3-12b-it", device="cpu").identity()["params"]["dtype"] == dtype
    assert get_judge("gemma-3-12b-it").identity()["params"]["dtype"] == "bfloat16"  # CUDA


def test_asked_for_beats_the_environment_beats_the_record_beats_the_cpu(fresh, monkeypatch):
    monkeypatch.setattr(local_lazy, "CPUINFO", cpuinfo(fresh, "avx512_bf16"))
    paths.METADATA.mkdir()
    (paths.METADATA / "smollm2.json").write_text(json.dumps({"parameters": {"dtype": "float32"}}))
    assert recorded_dtype("smollm2") == "float32" and recorded_dtype("other") is None
    assert cpu_dtype("smollm2") == "float32"            # the stored runs' dtype
    assert cpu_dtype("other") == "bfloat16"             # no stored run: the CPU's
    monkeypatch.setattr(local_lazy, "CPUINFO", cpuinfo(fresh, "avx2"))
    assert cpu_dtype("smollm2") == "float32" and cpu_dtype("other") == "float32"
    (paths.METADATA / "smollm2.json").write_text(json.dumps({"parameters": {"dtype": "bfloat16"}}))
    # the record wins for the judge; what the processor computes natively (P1 measures in it) not
    assert cpu_dtype("smollm2") == "bfloat16" and processor_dtype() == "float32"
    monkeypatch.setattr(local_lazy, "CPUINFO", cpuinfo(fresh, "avx512_bf16"))
    (paths.METADATA / "smollm2.json").write_text(json.dumps({"parameters": {"dtype": "float32"}}))
    assert processor_dtype() == "bfloat16"
    monkeypatch.setenv(DTYPE_ENV, "bfloat16")
    assert cpu_dtype("smollm2") == "bfloat16"           # --dtype, through the environment
    assert cpu_dtype("smollm2", "float32") == "float32"  # the argument
    monkeypatch.setenv(DTYPE_ENV, "float16")
    with pytest.raises(ValueError, match="smollm2 runs on CPU in float32 or bfloat16, not 'float16'"):
        get_judge("smollm2")


def test_a_damaged_run_record_names_no_dtype(fresh):
    paths.METADATA.mkdir()
    (paths.METADATA / "smollm2.json").write_text("{not json")
    (paths.METADATA / "odd.json").write_text(json.dumps({"parameters": {"dtype": "int8"}}))
    assert recorded_dtype("smollm2") is None and recorded_dtype("odd") is None


def stored_identity() -> dict:
    with SHIPPED_CALLS.open(encoding="utf-8") as f:
        return json.loads(f.readline())["judge"]


@pytest.mark.skipif(not SHIPPED_CALLS.is_file(), reason="needs the shipped raw outputs of smollm2")
def test_the_shipped_calls_keep_their_identity_and_replay_by_default(monkeypatch):
    monkeypatch.delenv(DTYPE_ENV, raising=False)
    stored = stored_identity()
    assert get_judge("smollm2", dtype=stored["params"]["dtype"]).identity() == stored
    assert get_judge("smollm2").identity() == stored  # the dtype the shipped runs record
    if stored["params"]["dtype"] == "float32":  # the float32 identity is the one it always was
        assert get_judge("smollm2", dtype="float32").identity() == stored


@pytest.mark.skipif(not SHIPPED_CALLS.is_file(), reason="needs the shipped raw outputs of smollm2")
def test_judge_dtype_flag_picks_which_stored_calls_a_replay_reads(monkeypatch, capsys):
    monkeypatch.setenv(DTYPE_ENV, "")  # restored afterwards; --dtype sets it
    stored = stored_identity()["params"]["dtype"]
    other = "bfloat16" if stored == "float32" else "float32"
    base = ["judge", "--split", "position_control", "--protocol", "L0", "--judge", "smollm2",
            "--limit", "2", "--replay-only"]
    assert cli.main([*base, "--dtype", stored]) == 0
    assert cli.main([*base, "--dtype", other]) != 0
    assert "replay" in capsys.readouterr().err.lower()


@pytest.mark.parametrize("extra, said", [("avx2", True), ("avx512_bf16", False)])
def test_a_judge_in_bfloat16_on_a_cpu_that_emulates_it_says_so_once(fresh, monkeypatch, capsys,
                                                                    extra, said):
    monkeypatch.setattr(local_lazy, "CPUINFO", cpuinfo(fresh, extra))
    judge = get_judge("smollm2", dtype="bfloat16")
    judge.loaded()
    judge.loaded()
    err = capsys.readouterr().err
    assert err.count("computes in bfloat16 on a CPU without bfloat16 instructions") == int(said)
    assert ("TJB_DTYPE=float32" in err) is said


def test_a_judge_in_float32_says_nothing_of_bfloat16(fresh, monkeypatch, capsys):
    monkeypatch.setattr(local_lazy, "CPUINFO", cpuinfo(fresh, "avx2"))
    get_judge("smollm2", dtype="float32").loaded()
    assert "bfloat16" not in capsys.readouterr().err
