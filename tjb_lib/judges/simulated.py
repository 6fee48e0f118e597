"""A simulated judge whose verdicts are drawn at planted rates, so that every table can be checked
against the values it should recover (planted-effect recovery) and a metric that exchanges
cited and plain, or better and worse, is caught.

The rates are planted per cell: split, gold side, protocol, level and order (a table, "*" for
any value; :func:`default_rates` or a CSV named by ``TJB_SIMULATED_RATES``), with an optional
position bias (a share of calls that answer slot A whatever the rates) and a share of replies
that carry no verdict (counted unparsed). The judge sees only the request, as every judge does,
so it finds the comparison a request stands for by rendering the benchmark's requests for the
request's template (once per template); a TRACE stage-1 reply carries a tag that stage 2 reads
back. Two splits whose requests are the same text are one call, as for any judge: the first
split in the manifest decides its cell.

Its results are never a judge's results: it runs only with ``TJB_ROOT`` naming a folder other
than this checkout, so nothing it writes lands in the shipped outputs.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from tjb_lib.judges.base import FatalJudgeError, Judge
from tjb_lib.records import Request, Response
from tjb_lib.seeds import SEED

RATES_ENV = "TJB_SIMULATED_RATES"
POSITION_BIAS_ENV = "TJB_SIMULATED_POSITION_BIAS"
UNPARSED_ENV = "TJB_SIMULATED_UNPARSED"
#: the columns that name a cell of planted rates ("*" matches any value)
CELL = ("split", "gold", "protocol", "level", "order")
VERDICTS = ("cited", "plain", "tie")
#: the first line of anything written from its verdicts
BANNER = "simulated: planted rates"
_TAG = re.compile(r"simcell-(trace_v[12])-([0-9a-f]{64})")

# Planted rates by target relation and setting: cited, plain, tie (the cited-first order adds
# ORDER_SHIFT to cited, taken from tie, so an order gap is planted too).
_LADDER = {
    "equivalent": {"L0": (.60, .10, .30), "L1": (.45, .10, .45), "L2": (.30, .10, .60),
                   "L3": (.15, .10, .75), "L4": (.05, .05, .90)},
    "quality_moderate": {"L0": (.05, .85, .10), "L1": (.05, .80, .15), "L2": (.05, .70, .25),
                         "L3": (.05, .50, .45), "L4": (.05, .20, .75)},
    "quality_soft": {"L0": (.40, .10, .50), "L1": (.25, .05, .70), "L2": (.15, .05, .80),
                     "L3": (.05, .05, .90), "L4": (.02, .03, .95)},
    "identical": {lv: (.10, .10, .80) for lv in ("L0", "L1", "L2", "L3", "L4")},
    "system": {lv: (.45, .35, .20) for lv in ("L0", "L1", "L2", "L3", "L4")},
}
_TRACE = {"equivalent": (.05, .05, .90), "quality_moderate": (.03, .90, .07),
          "quality_soft": (.05, .10, .85), "identical": (.05, .05, .90), "system": (.40, .40, .20)}
#: correctness conflicts by gold side: the correct side wins 85%, the wrong one 5%
_CONFLICT = (.05, .85, .10)
ORDER_SHIFT = 0.10


def default_rates() -> pd.DataFrame:
    """The planted rates used unless ``TJB_SIMULATED_RATES`` names a table: one row per split
    of the split registry, gold side, protocol setting and order."""
    from tjb_lib.pairs.registry import SPLITS

    rows = []
    for split, entry in SPLITS.items():
        relation = entry.target_relation
        golds = ("plain", "cited") if relation == "correctness_conflict" else ("*",)
        for gold in golds:
            for protocol, level in [("ladder", lv) for lv in ("L0", "L1", "L2", "L3", "L4")] + \
                    [(p, "") for p in ("trace_v1", "trace_v2", "trace_lite")]:
                if relation == "correctness_conflict":
                    wrong, right, tie = _CONFLICT
                    base = (right, wrong, tie) if gold == "cited" else (wrong, right, tie)
                elif protocol == "ladder":
                    base = _LADDER[relation][level]
                else:
                    base = _TRACE[relation]
                for order in ("cited_first", "plain_first"):
                    c, p, t = base
                    if order == "cited_first" and relation != "correctness_conflict":
                        shift = min(ORDER_SHIFT, t)
                        c, t = c + shift, t - shift
                    rows.append({"split": split, "gold": gold, "protocol": protocol,
                                 "level": level, "order": order, "cited": c, "plain": p,
                                 "tie": t})
    return pd.DataFrame(rows)


def read_rates(path: str | Path) -> pd.DataFrame:
    """A table of planted rates: the :data:`CELL` columns and cited, plain, tie (each row's
    three adding to 1). One clear line naming the file and row otherwise."""
    path = Path(path)
    try:
        t = pd.read_csv(path, dtype={c: str for c in CELL}, keep_default_na=False)
    except (OSError, ValueError) as e:
        raise ValueError(f"{path}: cannot read the planted rates ({e})") from None
    missing = [c for c in (*CELL, *VERDICTS) if c not in t.columns]
    if missing:
        raise ValueError(f"{path}: planted rates lack column(s) {missing}")
    for i, r in t.iterrows():
        p = np.array([r[v] for v in VERDICTS], dtype=float)
        if np.any(p < 0) or not np.isclose(p.sum(), 1.0):
            raise ValueError(f"{path} row {i + 2}: cited, plain and tie must be >= 0 and add "
                             f"to 1, got {tuple(p)}")
    return t


@dataclass(frozen=True)
class Planted:
    """Rates per cell, position bias and unparsed share: what the simulated judge draws from."""

    rates: pd.DataFrame
    position_bias: float = 0.0
    unparsed: float = 0.0

    def __post_init__(self) -> None:
        for name in ("position_bias", "unparsed"):
            v = getattr(self, name)
            if not 0.0 <= v <= 1.0:
                raise ValueError(f"planted {name} must lie in [0, 1], got {v}")

    @classmethod
    def from_env(cls) -> "Planted":
        path = os.environ.get(RATES_ENV)
        return cls(read_rates(path) if path else default_rates(),
                   float(os.environ.get(POSITION_BIAS_ENV, 0.0)),
                   float(os.environ.get(UNPARSED_ENV, 0.0)))

    def digest(self) -> str:
        """What the store keys on besides the request: the rates and both shares."""
        cells = [[str(r[c]) for c in CELL] + [round(float(r[v]), 12) for v in VERDICTS]
                 for _, r in self.rates.iterrows()]
        body = json.dumps([cells, self.position_bias, self.unparsed])
        return hashlib.sha256(body.encode()).hexdigest()[:16]

    def side_probabilities(self, split: str, gold: str, protocol: str, level: str,
                           order: str) -> tuple[float, float, float]:
        """(cited, plain, tie) as planted for one cell, before the position bias."""
        r = self.rates
        mask = np.ones(len(r), dtype=bool)
        for col, val in zip(CELL, (split, gold, protocol, level, order)):
            mask &= ((r[col] == val) | (r[col] == "*")).to_numpy()
        if not mask.any():
            raise ValueError(f"no planted rate for split={split} gold={gold} protocol={protocol} "
                             f"level={level or '-'} order={order}")
        row = r.loc[mask].iloc[0]
        return tuple(float(row[v]) for v in VERDICTS)  # type: ignore[return-value]

    def slot_probabilities(self, split, gold, protocol, level, order) -> dict[str, float]:
        """P(A), P(B), P(Tie) of one call, the position bias included (A is the first slot)."""
        c, p, t = self.side_probabilities(split, gold, protocol, level, order)
        a, b = (c, p) if order == "cited_first" else (p, c)
        k = self.position_bias
        return {"A": k + (1 - k) * a, "B": (1 - k) * b, "Tie": (1 - k) * t}


def _digest(messages) -> str:
    return hashlib.sha256(json.dumps(messages).encode()).hexdigest()


class SimulatedJudge(Judge):
    """Draws each verdict from the planted rates of the comparison its request stands for."""

    backend = "simulated"

    def __init__(self, name: str, planted: Planted, seed: int = SEED):
        super().__init__(name, "planted-rates", {"temperature": 0, "planted": planted.digest(),
                                                  "seed": seed})
        self.planted, self.seed = planted, seed
        self._cells: dict[str, tuple] = {}       # request digest -> cell
        self._indexed: set[str] = set()
        self._lock = threading.Lock()

    def check_ready(self) -> None:
        from tjb_lib import paths

        if Path(os.environ.get("TJB_ROOT", paths.CHECKOUT)).resolve() == paths.CHECKOUT:
            raise FatalJudgeError(f"the simulated judge ({BANNER}) never writes into this "
                                  "checkout's outputs: set TJB_ROOT to a temporary folder that "
                                  "holds (or links) data/ and notebooks/")

    # ----------------------------------------------------------------- which comparison

    def _index(self, template: str) -> None:
        """Render the benchmark's requests of ``template`` once: digest -> cell."""
        from tjb_lib.pairs import load_split
        from tjb_lib.pairs.registry import SPLITS
        from tjb_lib.protocols.requests import build_request, stage1_request
        from tjb_lib.protocols.specs import Spec

        m = re.fullmatch(r"ladder_(L\d)_(p\d)", template)
        if m:
            spec = Spec("ladder", m.group(1), m.group(2))
        elif template == "trace_lite_judge":
            spec = Spec("trace_lite")
        elif (m := re.fullmatch(r"(trace_v[12])_stage1", template)):
            spec = Spec(m.group(1))
        else:
            raise ValueError(f"the simulated judge does not know template {template!r}")
        render = stage1_request if spec.protocol in ("trace_v1", "trace_v2") else build_request
        for split in SPLITS:
            try:
                pairs = load_split(split)
            except FileNotFoundError:
                continue
            for pair in pairs:
                for order in ("cited_first", "plain_first"):
                    key = _digest(render(pair, order, spec).messages)
                    self._cells.setdefault(key, (split, pair.gold, spec.protocol, spec.level,
                                                 order))
        self._indexed.add(template)

    def _lookup(self, template: str, digest: str) -> tuple | None:
        with self._lock:
            if template not in self._indexed:
                self._index(template)
        return self._cells.get(digest)

    def _cell(self, request: Request) -> tuple:
        if request.template == "trace_stage2":  # the stage-1 request's digest, carried in its tag
            found = _TAG.search("\n".join(c for _, c in request.messages))
            cell = found and self._lookup(f"{found.group(1)}_stage1", found.group(2))
            if not cell:
                raise ValueError("a TRACE stage-2 request without the tag of a simulated stage 1")
            return cell
        cell = self._lookup(request.template, _digest(request.messages))
        if cell is None:
            raise ValueError(f"request of template {request.template} is not one the benchmark "
                             "renders (splits changed since they were built?)")
        return cell

    # ----------------------------------------------------------------- answering

    def _rng(self, request: Request) -> np.random.Generator:
        h = hashlib.sha256(f"{self.seed}|{_digest(request.messages)}".encode()).digest()
        return np.random.default_rng(int.from_bytes(h[:8], "little"))

    def complete(self, request: Request) -> Response:
        from tjb_lib.protocols.requests import STAGE1_FIELDS

        cell = self._cell(request)
        rng = self._rng(request)
        tokens = sum(len(c) for _, c in request.messages) // 4
        if request.kind == "text":  # TRACE stage 1: a record per side carrying the cell's tag
            tag = f"simcell-{cell[2]}-{_digest(request.messages)}"
            fields = STAGE1_FIELDS[cell[2]]
            record = {f: (f"{tag} {f}" if f == "final_answer" else [tag]) for f in fields}
            text = json.dumps({"A": record, "B": record})
            return Response("ok", text=text, input_tokens=tokens, output_tokens=len(text) // 4,
                            model_returned="simulated")
        probs = self.planted.slot_probabilities(*cell)
        if rng.random() < self.planted.unparsed:
            text = "simulated reply with no verdict"
        else:
            label = ("A", "B", "Tie")[int(rng.choice(3, p=[probs["A"], probs["B"],
                                                            probs["Tie"]]))]
            text = json.dumps({"winner": label, "reason": BANNER})
        return Response("ok", text=text, label_probs=probs, input_tokens=tokens,
                        output_tokens=len(text) // 4, model_returned="simulated")


def build_simulated(name: str) -> SimulatedJudge:
    """The simulated judge with the rates and shares the environment plants."""
    return SimulatedJudge(name, Planted.from_env())


def expected_rates(rows: pd.DataFrame) -> pd.DataFrame:
    """Per verdict row of this judge, the probabilities its verdict was drawn from, in side
    terms (e_cited, e_plain, e_tie; read back from the stored P(A), P(B), P(Tie), so the
    position bias and any two splits that share a request are as the judge drew them): the
    planted value every metric of those rows should recover, computed without the metric
    code."""
    first_cited = (rows["order"] == "cited_first").to_numpy()
    a, b = rows["p_a"].to_numpy(float), rows["p_b"].to_numpy(float)
    return pd.DataFrame({"e_cited": np.where(first_cited, a, b),
                         "e_plain": np.where(first_cited, b, a),
                         "e_tie": rows["p_tie"].to_numpy(float)}, index=rows.index)
