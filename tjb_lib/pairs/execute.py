"""Run a HumanEval problem's own tests on a completion, and find a failing one-token mutant.

The wrong side of a code conflict must be shown to fail, not assumed to: each mutant is run
against the problem's ``check`` in a fresh interpreter with a timeout, and the failing output
is kept as evidence. Results are cached per process (keyed by the program text), so building
the splits twice runs each program once.
"""
from __future__ import annotations

import hashlib
import io
import random
import subprocess
import sys
import tokenize
from dataclasses import dataclass

from tjb_lib.data import HumanEvalProblem

TIMEOUT_S = 5.0
# One-token swaps that keep the program valid Python and change its meaning.
SWAPS = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "==", "+": "-", "-": "+",
         "and": "or", "or": "and", "True": "False", "False": "True", "min": "max", "max": "min"}


@dataclass(frozen=True)
class RunResult:
    passed: bool
    returncode: int | None   # None when the run timed out
    output: str              # the tail of stderr/stdout: the failing evidence

    def to_dict(self) -> dict:
        return {"passed": self.passed, "returncode": self.returncode, "output": self.output}


_CACHE: dict[str, RunResult] = {}


def program(problem: HumanEvalProblem, completion: str) -> str:
    return (f"{problem.prompt}{completion}\n\n{problem.test}\n\n"
            f"check({problem.entry_point})\n")


def run_tests(problem: HumanEvalProblem, completion: str, timeout_s: float = TIMEOUT_S) -> RunResult:
    """Execute prompt + completion + the problem's tests in an isolated subprocess."""
    src = program(problem, completion)
    key = hashlib.sha256(src.encode()).hexdigest()
    if key in _CACHE:
        return _CACHE[key]
    try:
        proc = subprocess.run([sys.executable, "-I", "-c", src], capture_output=True, text=True,
                              timeout=timeout_s)
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-6:]
        result = RunResult(proc.returncode == 0, proc.returncode, "\n".join(tail))
    except subprocess.TimeoutExpired:
        result = RunResult(False, None, f"timed out after {timeout_s:.0f} s")
    _CACHE[key] = result
    return result


@dataclass(frozen=True)
class Mutation:
    line: int          # 1-based line in the completion
    before: str
    after: str
    completion: str

    def describe(self) -> str:
        return f"line {self.line}: {self.before!r} -> {self.after!r}"


def mutations(completion: str, rng: random.Random) -> list[Mutation]:
    """Every single-token swap in ``completion``, in a seeded order."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(completion).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return []
    lines = completion.splitlines(keepends=True)
    out = []
    for tok in tokens:
        if tok.type not in (tokenize.OP, tokenize.NAME) or tok.string not in SWAPS:
            continue
        (row, col), (erow, ecol) = tok.start, tok.end
        if row != erow:
            continue
        line = lines[row - 1]
        new_line = line[:col] + SWAPS[tok.string] + line[ecol:]
        mutated = "".join(lines[:row - 1] + [new_line] + lines[row:])
        out.append(Mutation(row, tok.string, SWAPS[tok.string], mutated))
    rng.shuffle(out)
    return out


def failing_mutant(problem: HumanEvalProblem, rng: random.Random,
                   max_tries: int = 8) -> tuple[Mutation, RunResult] | None:
    """The first mutant (in seeded order) that fails the tests with a test failure or a runtime
    error rather than a timeout or a syntax error; None if none of the first tries does."""
    for mut in mutations(problem.canonical_solution, rng)[:max_tries]:
        res = run_tests(problem, mut.completion, timeout_s=3.0)
        if res.passed or res.returncode is None or "SyntaxError" in res.output:
            continue
        return mut, res
    return None
