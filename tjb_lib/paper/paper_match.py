"""Whether ours agrees with the paper: the one rule every comparison table, claims table and
REPORT.md applies (column ``agrees``)."""
from __future__ import annotations

import numpy as np

#: the significance level a test's agreement is read at
ALPHA = 0.05
#: the rule, as the tables state it
RULE = ("`agrees` is yes when the paper's value lies inside our 95% interval (a value of ours "
        "without an interval must equal it) or ours lies inside the paper's own interval or "
        "stated range; for a significance test, when both find the same direction and the same "
        "side of p = 0.05; for a sample size, `scope` when ours is smaller only because this run "
        "judged the default sample, not every pair. It is empty where nothing can be set "
        "against the paper: ours not computed, or a bound of the paper's interval (compared "
        "through the value it bounds).")
#: the word for a value that differs from the paper's only in the sample judged
SCOPE = "scope"


def _missing(*values) -> bool:
    return any(v is None or (isinstance(v, float) and np.isnan(v)) for v in values)


def agrees(paper, ours, low=np.nan, high=np.nan, paper_low=np.nan, paper_high=np.nan) -> str:
    """'yes', 'no' or '' (nothing to compare) for one value of ours beside the paper's."""
    if _missing(paper, ours):
        return ""
    lo, hi = (ours, ours) if _missing(low, high) else (low, high)
    inside_ours = lo - 1e-9 <= paper <= hi + 1e-9
    inside_paper = not _missing(paper_low, paper_high) and paper_low <= ours <= paper_high
    return "yes" if inside_ours or inside_paper else "no"


def size_agrees(paper, ours, every_pair: bool) -> str:
    """'yes', 'scope', 'no' or '' for a sample size of ours beside the paper's: equal agrees;
    smaller on a run that did not judge every pair (the default sample) differs only in
    scope, not in fact; anything else (larger, or smaller when every pair was judged) is no."""
    if _missing(paper, ours):
        return ""
    if np.isclose(paper, ours):
        return "yes"
    return SCOPE if ours < paper and not every_pair else "no"


def test_agrees(paper_p, paper_sign: int, ours_p, ours_difference) -> str:
    """'yes', 'no' or '' for a paired test: the paper's p and the sign of the difference it
    found (+1, -1; 0 where it found none), beside ours."""
    if _missing(paper_p, ours_p, ours_difference):
        return ""
    paper_sig, ours_sig = paper_p <= ALPHA, ours_p < ALPHA
    same = paper_sig == ours_sig and (not ours_sig or np.sign(ours_difference) == paper_sign)
    return "yes" if same else "no"
