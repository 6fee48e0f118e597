"""Which protocol settings a CLI protocol name stands for, per split.

A ``Spec`` is one protocol setting (protocol, level, paraphrase); with a pair and an order it
makes one ordered comparison. Paraphrase coverage follows the paper (App. A.4, C.1) and is
declared per split in the split registry: three paraphrases per level for the equivalence and
correctness splits (and, here, every HotpotQA split), and the FinQA wording-check set for the
FinQA moderate tier.
"""
from __future__ import annotations

from dataclasses import dataclass

from tjb_lib.pairs.registry import SPLIT_NAMES, SPLITS

PROTOCOLS = ("ladder", "trace_v1", "trace_v2", "trace_lite")
LEVELS = ("L0", "L1", "L2", "L3", "L4")
PARAPHRASES = ("p0", "p1", "p2")
# FinQA wording check: two faithful L2 paraphrases, one faithful L3, one L4-like boundary variant.
FINQA_PARAPHRASES = (("L2", "finqa_a"), ("L2", "finqa_b"), ("L3", "finqa_a"),
                     ("L4", "finqa_boundary"))
# The paper's names for the TRACE variants are accepted as aliases.
ALIASES = {"decoupled_v1": "trace_v1", "decoupled_quality_v2": "trace_v2"}
CLI_NAMES = (*LEVELS, "ladder", "paraphrases", "trace_v1", "trace_v2", "trace_lite")


@dataclass(frozen=True)
class Spec:
    """One protocol setting: ``ladder`` needs a level (L0–L4); the TRACE protocols have none."""

    protocol: str
    level: str = ""
    paraphrase: str = "p0"

    def __post_init__(self) -> None:
        if self.protocol not in PROTOCOLS:
            raise ValueError(f"Spec.protocol {self.protocol!r} is not one of {PROTOCOLS}")
        if self.protocol == "ladder" and self.level not in LEVELS:
            raise ValueError(f"Spec.level {self.level!r} is not one of {LEVELS} (protocol ladder)")
        if self.protocol != "ladder" and (self.level or self.paraphrase != "p0"):
            raise ValueError(f"Spec for {self.protocol!r} takes no level or paraphrase, got "
                             f"level={self.level!r} paraphrase={self.paraphrase!r}")

    @property
    def single_call(self) -> bool:
        return self.protocol in ("ladder", "trace_lite")


def setting_name(protocol: str, level: str | None) -> str:
    """A protocol setting's name in tables and on the command line: the ladder level (L0..L4)
    for ladder rows, else the protocol (trace_v1, trace_v2, trace_lite)."""
    return level if protocol == "ladder" and level else protocol


def paraphrase_specs(split: str) -> list[Spec]:
    """Every paraphrase of every level that the paper runs on ``split`` (the split registry
    names each split's coverage)."""
    if split not in SPLITS:
        raise ValueError(f"no paraphrase set for split {split!r}; known splits: "
                         f"{', '.join(SPLIT_NAMES)}")
    if SPLITS[split].paraphrases == "finqa_wording_check":
        return [Spec("ladder", level, para) for level, para in FINQA_PARAPHRASES]
    return [Spec("ladder", level, para) for level in LEVELS for para in PARAPHRASES]


def expand(name: str, split: str) -> list[Spec]:
    """CLI protocol name → the protocol settings it runs on ``split``, in a fixed order."""
    name = ALIASES.get(name, name)
    if name in LEVELS:
        return [Spec("ladder", name, "p0")]
    if name == "ladder":
        return [Spec("ladder", level, "p0") for level in LEVELS]
    if name == "paraphrases":
        return paraphrase_specs(split)
    if name in ("trace_v1", "trace_v2", "trace_lite"):
        return [Spec(name)]
    raise ValueError(f"unknown protocol {name!r}; known: {', '.join(CLI_NAMES)} "
                     f"(aliases: {', '.join(ALIASES)})")


def template_names(spec: Spec) -> tuple[str, ...]:
    """The templates one comparison under ``spec`` uses, in call order."""
    if spec.protocol == "ladder":
        return (f"ladder_{spec.level}_{spec.paraphrase}",)
    if spec.protocol == "trace_lite":
        return ("trace_lite_judge",)
    return (f"{spec.protocol}_stage1", "trace_stage2")
