"""Scale: the paper's tables and 2,000-resample bootstraps over 100,000 verdict rows, in seconds.

Rows are synthetic but have the VERDICT_COLUMNS shape of real runner output (seeded): pairs of
several splits in both orders under L0-L4 for two judges. Each metrics table is timed on the
whole frame; the paired bootstrap is timed twice on the same 100,000 rows, once by the metrics'
count (multinomial) resampling and once by plain index resampling, to show what the former buys.
"""
from __future__ import annotations

import time

import numpy as np
import pandas as pd

from tjb_lib.paper import cost
from tjb_lib.analysis import metrics, stats
from tjb_lib.run.bench import arg_parser, figure_line, write_result
from tjb_lib.protocols import LEVELS
from tjb_lib.records import ORDERS, VERDICT_COLUMNS
from tjb_lib.seeds import SEED

NAME = "scale_metrics"
TARGET_S = 10.0  # every table plus the bootstraps, on 2 cores
# split -> (target relation, gold, P(cited), P(plain), P(tie), P(unparsed))
SPLITS = {
    "mechanical_hotpotqa": ("equivalent", "tie", 0.45, 0.25, 0.28, 0.02),
    "conflict": ("correctness_conflict", "plain", 0.05, 0.90, 0.04, 0.01),
    "moderate_hotpotqa": ("quality_moderate", "plain", 0.05, 0.55, 0.39, 0.01),
    "position_control": ("identical", "tie", 0.40, 0.40, 0.19, 0.01),
}
JUDGES = ("judge_a", "judge_b")


def synthetic_rows(n_rows: int, seed: int = 0) -> pd.DataFrame:
    """``n_rows`` verdict rows (rounded to whole pairs): pair x order x level x judge, seeded."""
    rng = np.random.default_rng(seed)
    per_pair = len(ORDERS) * len(LEVELS) * len(JUDGES)
    n_pairs = max(len(SPLITS), n_rows // per_pair)
    split_of = np.array(list(SPLITS))[np.arange(n_pairs) % len(SPLITS)]
    grid = pd.MultiIndex.from_product(
        [range(n_pairs), ORDERS, LEVELS, JUDGES], names=["pair", "order", "level", "judge"]
    ).to_frame(index=False)
    split = split_of[grid["pair"].to_numpy()]
    rel = np.array([SPLITS[s][0] for s in split])
    gold = np.array([SPLITS[s][1] for s in split])
    probs = np.array([SPLITS[s][2:] for s in split])
    level_idx = grid["level"].map({lv: i for i, lv in enumerate(LEVELS)}).to_numpy()
    probs[:, 2] += 0.08 * level_idx  # stricter levels say Tie more often, as in the paper
    probs /= probs.sum(axis=1, keepdims=True)
    u = rng.random(len(grid))[:, None]
    choice = (u > np.cumsum(probs, axis=1)).sum(axis=1)
    decision = np.array(["cited", "plain", "tie", "unparsed"])[np.minimum(choice, 3)]
    first = np.where(grid["order"] == "cited_first", "cited", "plain")
    parsed = np.where(decision == "tie", "Tie", np.where(decision == "unparsed", None,
                                                         np.where(decision == first, "A", "B")))
    n = len(grid)
    df = pd.DataFrame({
        "pair_id": [f"p{i:06d}" for i in grid["pair"]], "split": split, "source": "hotpotqa",
        "target_relation": rel, "gold": gold, "variant": "", "system_plain": None,
        "system_cited": None, "order": grid["order"], "protocol": "ladder",
        "level": grid["level"], "paraphrase": "p0", "judge": grid["judge"],
        "model_returned": grid["judge"], "raw_text": None, "parsed": parsed,
        "parse_status": np.where(decision == "unparsed", "unparsed", "json"),
        "decision": decision, "p_a": None, "p_b": None, "p_tie": None, "calls": 1,
        "input_tokens": rng.integers(500, 1500, n), "output_tokens": rng.integers(10, 60, n),
        "cached_input_tokens": None, "cache_write_tokens": None, "reasoning_tokens": None,
        "latency_s": rng.random(n), "attempts": 1, "request_hashes": None, "templates": None,
        "normalized": None, "cached": False, "created_at": "2026-01-01T00:00:00+00:00",
    })
    return df[list(VERDICT_COLUMNS)]


def timed(fn, *args, **kwargs) -> tuple[object, float]:
    t0 = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - t0


def main() -> int:
    args = arg_parser(__doc__.splitlines()[0]).parse_args()
    n_rows, n_resamples = (5_000, 200) if args.quick else (100_000, 2_000)
    df, build_s = timed(synthetic_rows, n_rows, SEED)
    by = ("judge", "split", "protocol", "level")
    eq = df[df["target_relation"] == "equivalent"]
    conflict = df[df["split"] == "conflict"]
    graded = df[df["split"] == "moderate_hotpotqa"]
    position = df[df["split"] == "position_control"]
    tables = {
        "decision_rates": lambda: metrics.decision_rates(df, by),
        "tie_by_relation": lambda: metrics.tie_by_relation(df),
        "equivalence_table": lambda: metrics.equivalence_table(eq, by, n_resamples=n_resamples),
        "correctness_table": lambda: metrics.correctness_table(conflict, by,
                                                               n_resamples=n_resamples),
        "graded_table": lambda: metrics.graded_table(graded, by, n_resamples=n_resamples),
        "position_table": lambda: metrics.position_table(position, by),
        "order_gap_table": lambda: metrics.order_gap_table(df, by, n_resamples=n_resamples),
        "paired_contrast_L0_L4": lambda: metrics.paired_contrast(
            df, {"level": "L0"}, {"level": "L4"}, by=("judge", "split"), n_resamples=n_resamples),
        "protocol_cost": lambda: cost.protocol_cost(df, prices=(5.0, 30.0)),
    }
    table_s, table_rows = {}, {}
    for name, fn in tables.items():
        out, table_s[name] = timed(fn)
        table_rows[name] = len(out)
    total_tables_s = sum(table_s.values())

    # One 2,000-resample paired bootstrap over every row: indicator "plain" under L0 vs L4 of
    # the same ordered comparisons (half the rows each side), by counts and by indices.
    key = ["judge", "pair_id", "order"]
    wide = (df.assign(x=(df["decision"] == "plain").astype(float))
            .pivot_table(index=key, columns="level", values="x", aggfunc="first"))
    x, y = wide["L0"].to_numpy(), wide["L4"].to_numpy()
    (est_c, lo_c, hi_c), count_s = timed(stats.bootstrap, x, y, n_resamples=n_resamples,
                                         seed=0, resampling="counts")
    (est_i, lo_i, hi_i), index_s = timed(stats.bootstrap, x, y, n_resamples=n_resamples,
                                         seed=0, resampling="indices")
    total_s = total_tables_s + count_s
    speedup = index_s / count_s if count_s > 0 else None
    met = total_s <= TARGET_S
    measured = {
        "rows": len(df), "n_resamples": n_resamples, "build_rows_s": build_s,
        "table_seconds": table_s, "table_rows": table_rows, "tables_total_s": total_tables_s,
        "bootstrap_units": int(len(x)), "bootstrap_count_resampling_s": count_s,
        "bootstrap_index_resampling_s": index_s,
        "bootstrap_count_ci": [est_c, lo_c, hi_c], "bootstrap_index_ci": [est_i, lo_i, hi_i],
        "total_s": total_s,
    }
    for name, s in table_s.items():
        print(f"{name}: {s:.2f} s ({table_rows[name]} rows)")
    print(figure_line(f"tables + bootstrap over {len(df):,} rows, {n_resamples} resamples",
                      total_s, f"<= {TARGET_S:.0f} s", met, unit=" s"))
    print(figure_line("count vs index bootstrap speed-up", speedup, "none", None) + f" ({count_s:.3f} s vs {index_s:.2f} s; "
          f"CI {100 * lo_c:.2f}..{100 * hi_c:.2f} vs {100 * lo_i:.2f}..{100 * hi_i:.2f} points)")
    write_result(NAME, args.out, measured=measured, ratio=speedup,
                 target=f"tables and a {n_resamples}-resample bootstrap over {len(df)} rows in "
                        f"<= {TARGET_S:.0f} s", met=met, quick=args.quick,
                 notes="ratio = index-resampling bootstrap time / count-resampling bootstrap "
                       "time on the same units; met compares total_s with the target")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
