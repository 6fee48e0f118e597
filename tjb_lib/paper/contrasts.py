"""Paired protocol contrasts (§5.4, §E.5): the better-plain indicator under one setting minus
under another on the same ordered comparisons, with its interval, the exact McNemar test, its
direction in words and the paper's statement of it."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

import numpy as np
import pandas as pd

from tjb_lib.analysis import metrics, stats
from tjb_lib.paper.float_metrics import original_wording
from tjb_lib.paper.paper_match import test_agrees
from tjb_lib.protocols.specs import setting_name
from tjb_lib.paper.report import claim_value


@dataclass(frozen=True)
class Contrast:
    """A paired protocol contrast (§5.4, §E.5): the better-plain indicator under ``a`` minus
    under ``b`` on the same ordered comparisons, and how the paper states it (``paper`` is a
    template filled from in_text_claims.csv by claim id)."""

    label: str
    split: str
    a: Mapping[str, object]
    b: Mapping[str, object]
    paper: str
    p_claim: str     # the claim id of the paper's McNemar p for this contrast
    paper_sign: int  # the sign of a - b the paper found (+1, -1; 0: not significant)


CONTRASTS = (
    Contrast("L0 vs L4", "moderate_hotpotqa", {"level": "L0"}, {"level": "L4"},
             "better-plain falls from L0 to L4 by {C046} points [{C047}, {C048}] for Claude and "
             "{C049} [{C050}, {C051}] for GPT-5.5; exact McNemar p < {C044} for each commercial "
             "judge", "C044", +1),
    Contrast("L4 vs TRACE", "moderate_hotpotqa", {"level": "L4"}, {"protocol": "trace_v2"},
             "better-plain recovers from L4 under TRACE; exact McNemar p < {C045} for each "
             "commercial judge", "C045", -1),
    Contrast("L3 vs TRACE", "moderate_hotpotqa", {"level": "L3"}, {"protocol": "trace_v2"},
             "significant for Claude and DeepSeek; not for GPT-5.5 (p = {C108})", "C108", 0),
)


def _side_name(side: Mapping[str, object]) -> str:
    return setting_name(str(side.get("protocol", "ladder")), str(side.get("level", "")))


def contrast(rows: pd.DataFrame, c: Contrast, judge: str, seed: int = 0) -> dict:
    """One paired contrast on the better-plain indicator (§5.4, §E.5), with its direction in
    words and the paper's statement of it."""
    sub = original_wording(rows.loc[(rows["split"] == c.split) & (rows["judge"] == judge)]) \
        if len(rows) else rows
    a, b = _side_name(c.a), _side_name(c.b)
    out = {"contrast": c.label, "split": c.split, "n": 0, "rate_a": np.nan, "rate_b": np.nan,
           "difference": np.nan, "difference_low": np.nan, "difference_high": np.nan,
           "interval": stats.PAIR_BY_ORDER, "discordant_a_only": 0, "discordant_b_only": 0, "mcnemar_p": np.nan, "p": "",
           "agrees": "", "n_unparsed": 0, "n_failed": 0, "judge": judge}
    try:
        r = metrics.paired_contrast(sub, c.a, c.b, outcome="plain", by=("judge", "split"),
                                    keys=("pair_id", "order"), seed=seed).iloc[0]
    except ValueError:  # one side was not run
        return {**out, "direction": f"not run: no verdict rows for {a} or {b}",
                "paper": contrast_paper_text(c)}
    p = r["mcnemar_p"]
    out.update(n=int(r["n"]), rate_a=r["rate_a"], rate_b=r["rate_b"],
               difference=r["difference"], difference_low=r["difference_low"],
               difference_high=r["difference_high"], discordant_a_only=int(r["b_only"]),
               discordant_b_only=int(r["c_only"]), mcnemar_p=p,
               p="" if not r["n"] else ("p<0.001" if p < 0.001 else f"p={p:.3g}"),
               agrees=test_agrees(claim_value(c.p_claim), c.paper_sign, p, r["difference"]),
               n_unparsed=int(r["n_unparsed"]), n_failed=int(r["n_failed"]))
    if not r["n"]:
        direction = (f"no ordered comparison has a parsed verdict under both {a} and {b} "
                     f"({int(r['n_unparsed'])} with an unparsed side)")
    elif r["difference"] == 0:
        direction = f"no difference: better-plain {r['rate_a']:.1f}% under both {a} and {b}"
    else:
        word = "higher" if r["difference"] > 0 else "lower"
        direction = (f"better-plain {word} under {a} ({r['rate_a']:.1f}%) than under {b} "
                     f"({r['rate_b']:.1f}%)")
    return {**out, "direction": direction, "paper": contrast_paper_text(c)}


def contrasts_e5(nb) -> pd.DataFrame:
    """The paired contrasts of :data:`CONTRASTS` (L0 vs L4, L4 vs TRACE, L3 vs TRACE)."""
    return pd.DataFrame([contrast(nb.rows, c, nb.judge, nb.seed) for c in CONTRASTS])


def contrast_paper_text(c: Contrast) -> str:
    """The paper's statement of a contrast, its numbers filled in from in_text_claims.csv."""
    ids = re.findall(r"\{(C\d{3})\}", c.paper)
    return c.paper.format(**{i: f"{claim_value(i):g}" for i in ids})
