"""Turn a split into verdict rows: one judge, one protocol, every pair in both orders.

The response store is the source of truth: every call goes through it, so a run killed at any
point resumes with no lost row and no repeated call, a rerun of a finished run makes zero judge
calls, and two processes on one store never make the same call twice. Verdict rows are appended
to ``<out_dir>/<judge>/<split>.<protocol>.jsonl`` as they complete and the file is rewritten
atomically, in the fixed comparison order, at the end.

One module per job: ``comparisons`` (what to judge, checked before any call), ``calls`` (one
cached, leased call), ``batches`` (provider batch rounds), ``rows`` (the rows file),
``summary`` (the terminal report) and ``job`` (one run, start to end).
"""
from tjb_lib.runner.comparisons import RunError, run_comparisons
from tjb_lib.runner.job import run

__all__ = ["RunError", "run", "run_comparisons"]
