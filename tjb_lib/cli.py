"""Command line: ``python -m tjb_lib build | audit | reading | generate | judge | check | estimate
| reproduce | bench``."""
from __future__ import annotations

import argparse
import os
import sys

from tjb_lib.seeds import SEED


def _build(args: argparse.Namespace) -> int:
    from tjb_lib.data import DataError
    from tjb_lib.pairs.build import build_all, record_verified, verify

    try:
        if args.check:
            manifest, problems = verify(seed=args.seed, splits_dir=args.out)
            for line in problems:
                print(line, file=sys.stderr)
            if not problems:
                record_verified(args.seed, manifest, args.out)
        else:
            manifest, problems = build_all(seed=args.seed, out_dir=args.out), []
    except DataError as e:  # a raw record missing or broken: named by file and item
        return _error(str(e), 1)
    except OSError as e:
        return _error(_os_error(e), 1)
    for split, info in manifest["splits"].items():
        print(f"{split:32s} {info['count']:6d} pairs  sha256 {info['sha256'][:12]}")
    if args.check:
        print("the shipped splits differ from this build" if problems
              else "the shipped splits are this build, byte for byte")
    return 1 if problems else 0


def _audit(args: argparse.Namespace) -> int:
    from tjb_lib.pairs.audit import main as audit_main
    from tjb_lib.data import DataError

    try:
        return audit_main(args.splits, write_datasheet=args.write_datasheet)
    except (DataError, ValueError) as e:  # a split line that is not a pair (or not UTF-8)
        return _error(str(e), 1)
    except OSError as e:  # a split folder or file that is not there
        return _error(_os_error(e), 1)


def _reading(args: argparse.Namespace) -> int:
    from tjb_lib.pairs.reading import main_draw, main_tally

    try:
        if args.reading_command == "draw":
            return main_draw(args.split, args.seed, args.pairs, args.out)
        return main_tally(args.folder, args.json)
    except ValueError as e:  # a ReadingError (a malformed grades line), an unknown split
        return _error(str(e), 2)
    except OSError as e:  # a split or folder that is not there, an --out that cannot be made
        return _error(_os_error(e), 1)


def _generate(args: argparse.Namespace) -> int:
    from tjb_lib.run.generate import generate_natural
    from tjb_lib.judges.base import FatalJudgeError
    from tjb_lib.runner import RunError
    from tjb_lib.runner.comparisons import resolve_judge

    if not args.generator and not (args.base_url and args.model):
        return _error("generate: give --generator NAME, or --base-url URL and --model M", 2)
    try:
        judge = resolve_judge(args.generator or args.model, base_url=args.base_url,
                              model=args.model)
        record = generate_natural(judge, limit=args.limit, out_dir=args.out,
                                  concurrency=args.concurrency)
    except RunError as e:
        return _error(str(e), 2)
    except FatalJudgeError as e:
        return _error(str(e), 1)
    except OSError as e:  # an --out folder that cannot be made
        return _error(_os_error(e), 1)
    print(f"{record['kept']} of {record['items']} items kept as natural pairs "
          f"({record['calls_made']} calls made, {record['calls_from_store']} from the store); "
          f"rejected: {record['rejected'] or 'none'}")
    return 0


def _judge(args: argparse.Namespace) -> int:
    """The summary of the run, or one line naming the file and item to fix and a non-zero exit:
    2 for an input a person can fix, 1 for a run that cannot go on; never a traceback."""
    from tjb_lib.judges.base import FatalJudgeError
    from tjb_lib.judges.batch import BatchError
    from tjb_lib.runner import RunError, run, run_comparisons
    from tjb_lib.runner import comparisons
    from tjb_lib.runner.summary import summary
    from tjb_lib.store import SecretLeakError, StoreError

    try:
        _set_dtype(args.dtype)
        if args.budget is not None:
            from tjb_lib.judges.budget import set_budget
            set_budget(args.budget)  # the judge's calls read it when the judge is built
        # the comparisons are fixed (names checked, the split loaded) before a judge is made
        comps = run_comparisons(args.split, args.protocol, args.limit)
        judge = comparisons.resolve_judge(args.judge, base_url=args.base_url, model=args.model,
                                          rationales=args.rationales)
        df = run(args.split, args.protocol, judge, limit=args.limit,
                 concurrency=args.concurrency, replay_only=args.replay_only, batch=args.batch,
                 comparisons=comps)
    except (RunError, StoreError) as e:
        return _error(str(e), 2)
    except (FatalJudgeError, BatchError, SecretLeakError) as e:
        return _error(str(e), 1)
    except OSError as e:  # a full disk, a folder that cannot be written
        return _error(_os_error(e), 1)
    print(summary(df))
    return 0


def _set_dtype(dtype: str | None) -> None:
    """Name the CPU dtype of in-process judges for this process and those it starts."""
    if dtype is not None:
        from tjb_lib.judges.local_lazy import DTYPE_ENV
        os.environ[DTYPE_ENV] = dtype


def _error(message: str, code: int) -> int:
    print("error: " + " ".join(message.split()), file=sys.stderr)
    return code


def _os_error(e: OSError) -> str:
    """A file error as a person reads it: the file, then what went wrong."""
    return f"{e.filename}: {e.strerror or e}" if e.filename else str(e.strerror or e)


def _check(args: argparse.Namespace) -> int:
    from tjb_lib.judges.base import FatalJudgeError
    from tjb_lib.run.check import check_cli

    try:
        return check_cli(args)
    except FatalJudgeError as e:
        return _error(str(e), 1)
    except ValueError as e:  # an unknown judge name
        return _error(str(e), 2)


def _estimate(args: argparse.Namespace) -> int:
    from tjb_lib.run.estimate import estimate_cli

    try:
        return estimate_cli(args)
    except ValueError as e:
        return _error(str(e), 2)
    except OSError as e:  # a split that is not there
        return _error(_os_error(e) if e.filename else str(e), 1)


def _compare(judges: list[str]) -> int:
    """``reproduce --compare [JUDGES ...]``: every judge's results side by side, no notebook run."""
    from tjb_lib.run.side_by_side import ComparisonError, write

    try:
        path = write(judges or None)
    except ComparisonError as e:
        return _error(str(e), 2)
    except OSError as e:
        return _error(_os_error(e), 1)
    print(f"{path} sets the judges side by side, beside the paper's")
    return 0


def _reproduce(args: argparse.Namespace) -> int:
    from tjb_lib.run.reproduce import DamagedStore, reproduce
    from tjb_lib.run.results import RunUnderWay

    if args.compare is not None:
        return _compare(args.compare)
    from tjb_lib.judges.budget import shared_budget

    from tjb_lib.run.kernels import Stopped
    from tjb_lib.run.notebook import ParameterError

    _set_dtype(args.dtype)  # the notebooks' kernels inherit it
    try:
        with shared_budget(args.budget):  # one budget across the notebooks' kernels
            return reproduce(only=args.only, replay_only=args.replay_only, judge=args.judge,
                             scale=args.scale, outputs_dir=args.outputs_dir,
                             base_url=args.base_url, model=args.model)
    except Stopped as e:
        return _error(f"stopped by {e}: the running notebook's kernel was killed and no further "
                      "judge call was made; every call made is in the store; nothing was "
                      "published", 128 + e.signum)
    except (ParameterError, DamagedStore) as e:
        return _error(str(e), 2)
    except RunUnderWay as e:
        return _error(str(e), 1)
    except OSError as e:  # an outputs folder that cannot be made or written
        return _error(_os_error(e), 1)


def _compact(args: argparse.Namespace) -> int:
    from tjb_lib.run.compact import compact

    try:
        r = compact(args.judge)
    except ValueError as e:
        return _error(str(e), 2)
    except OSError as e:
        return _error(_os_error(e), 2)
    where = f", moved {r['moved']:,} to {r['superseded']}" if r["moved"] else ", moved none"
    print(f"{r['judge']}: kept {r['kept']:,} records of the {r['named']:,} calls the verdict "
          f"rows name{where}")
    return 0


def _bench(args: argparse.Namespace) -> int:
    from tjb_lib.run.bench import run_benchmarks

    return run_benchmarks(only=args.only)


def _coverage(args: argparse.Namespace) -> int:
    from tjb_lib.run.coverage import COVERAGE_CSV, write

    if args.seeds < 1:
        return _error(f"--seeds must be at least 1, got {args.seeds}", 2)
    table = write(args.seeds, args.out or COVERAGE_CSV)
    print(table[["scenario", "interval", "scale", "pairs", "coverage", "alt_coverage",
                 "trust"]].to_string(index=False))
    print(f"wrote {args.out or COVERAGE_CSV}")
    return 0


def _usd(text: str) -> float:
    """A budget in dollars: a finite number, zero or more."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not (value >= 0 and value != float("inf")):
        raise argparse.ArgumentTypeError(f"expected a number of US dollars, got {text!r}")
    return value


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, like every other error of the command
    line (the usage is one ``--help`` away)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        _error(f"{message} (see {self.prog} --help)", 2)
        raise SystemExit(2)


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m tjb_lib", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)

    b = sub.add_parser("build", help="build every split and the manifest (deterministic)")
    b.add_argument("--seed", type=int, default=SEED)
    b.add_argument("--out", default=None, help="split folder (default data/splits)")
    b.add_argument("--check", action="store_true",
                   help="build in memory and compare with the folder's manifest; write nothing")
    b.set_defaults(func=_build)

    a = sub.add_parser("audit", help="artifact audit of the built splits (budgets, classifier)")
    a.add_argument("--splits", default=None, help="split folder (default data/splits)")
    a.add_argument("--write-datasheet", action="store_true",
                   help="also rewrite the audit figures block of data/DATASHEET.md")
    a.set_defaults(func=_audit)

    rd = sub.add_parser("reading", help="a blind reading: draw a packet of pairs for a reader "
                        "(and its key), or tally the readers' grades (data/DATASHEET.md)")
    rsub = rd.add_subparsers(dest="reading_command", required=True)
    rdd = rsub.add_parser("draw", help="write packet-<seed>.md for the reader and key-<seed>.json")
    rdd.add_argument("--split", required=True)
    rdd.add_argument("--seed", type=int, default=None,
                     help="default: a fresh one (secrets.randbelow(2**24)), printed")
    rdd.add_argument("--pairs", type=int, default=20, help="pairs drawn (default 20)")
    rdd.add_argument("--out", required=True, help="folder for the packet and its key")
    rdd.set_defaults(func=_reading)
    rdt = rsub.add_parser("tally", help="read every grades-<seed>.txt in a folder with its key; "
                          "print F, F + B, N and verdict = gold per split and the quoted defects")
    rdt.add_argument("folder")
    rdt.add_argument("--json", default=None, metavar="FILE", help="also write the tally here")
    rdt.set_defaults(func=_reading)

    g = sub.add_parser("generate", help="write natural pairs with an LLM (a catalog judge or a "
                       "served model)")
    g.add_argument("kind", choices=("natural",))
    g.add_argument("--generator", default=None, help="judge name from tjb_lib.judges.catalog")
    g.add_argument("--base-url", default=None, help="OpenAI-compatible endpoint (vLLM)")
    g.add_argument("--model", default=None, help="model id at --base-url")
    g.add_argument("--limit", type=int, default=None, help="first N HotpotQA items (seeded order)")
    g.add_argument("--out", default=None, help="output folder (default outputs/generated/natural)")
    g.add_argument("--concurrency", type=int, default=1)
    g.set_defaults(func=_generate)

    j = sub.add_parser("judge", help="judge one split under one protocol with one judge")
    j.add_argument("--split", required=True)
    j.add_argument("--protocol", required=True,
                   help="L0..L4, ladder, paraphrases, trace_v1, trace_v2, trace_lite")
    j.add_argument("--judge", required=True,
                   help="judge name from tjb_lib.judges.catalog (e.g. smollm2)")
    j.add_argument("--limit", type=int, default=None, help="first N pairs of the split")
    j.add_argument("--base-url", default=None,
                   help="OpenAI-compatible endpoint (vLLM, DeepSeek); key from the environment")
    j.add_argument("--model", default=None, help="model id at --base-url")
    j.add_argument("--concurrency", type=int, default=None,
                   help="parallel judge calls (default: the judge's max_concurrency)")
    j.add_argument("--batch", action="store_true",
                   help="send the calls through the provider's batch API first (OpenAI, Anthropic)")
    j.add_argument("--rationales", action="store_true",
                   help="local judges: generate each verdict as JSON with its reason (for the "
                        "rationale keyword audit) instead of scoring label probabilities")
    j.add_argument("--replay-only", action="store_true",
                   help="answer only from stored calls; fail naming the first missing comparison")
    j.add_argument("--budget", type=_usd, default=None, metavar="USD",
                   help="stop cleanly before the call that could take this run's spend past USD "
                        "(list price; stored calls cost nothing)")
    j.add_argument("--dtype", choices=("float32", "bfloat16"), default=None,
                   help="in-process judges on CPU compute in this dtype (default: the one the "
                        "judge's stored runs used, else bfloat16 where the CPU has it natively)")
    j.set_defaults(func=_judge)

    c = sub.add_parser("check", help="one tiny real call: what the endpoint returns, and the "
                       "price per 1,000 comparisons of each protocol")
    c.add_argument("--judge", required=True, help="judge name from tjb_lib.judges.catalog")
    c.add_argument("--base-url", default=None, help="another endpoint for the judge")
    c.add_argument("--model", default=None, help="model id at --base-url")
    c.add_argument("--pairs", type=int, default=20,
                   help="pairs of moderate_hotpotqa the price estimate counts (default 20)")
    c.set_defaults(func=_check)

    e = sub.add_parser("estimate", help="calls, tokens and dollars per paper float and in "
                       "total, before anything is sent")
    e.add_argument("--judge", required=True, help="judge name from tjb_lib.judges.catalog")
    e.add_argument("--scale", default="paper", choices=("default", "paper"))
    e.set_defaults(func=_estimate)

    r = sub.add_parser("reproduce", help="run every notebook in order with papermill")
    r.add_argument("--only", default=None, help="run just the notebooks whose name contains this")
    r.add_argument("--replay-only", action="store_true",
                   help="use only stored judge outputs; fail instead of calling a judge")
    r.add_argument("--judge", default=None, help="judge every notebook with this judge: a "
                   "catalog name, or any name with --base-url and --model (default: the "
                   "embedded smollm2); API keys come from the environment")
    r.add_argument("--base-url", default=None,
                   help="OpenAI-compatible endpoint of the judge (vLLM, a proxy); its results "
                        "and REPORT.md go under the judge's own name")
    r.add_argument("--model", default=None, help="model id at --base-url")
    r.add_argument("--scale", default=None, choices=("default", "paper"),
                   help="default: the documented sample; paper: every pair")
    r.add_argument("--outputs-dir", default=None,
                   help="write tables, figures and executed notebooks here instead of outputs/")
    r.add_argument("--budget", type=_usd, default=None, metavar="USD",
                   help="stop cleanly before the judge call that could take the spend of all "
                        "notebooks past USD (list price)")
    r.add_argument("--compare", nargs="*", default=None, metavar="JUDGE",
                   help="run no notebook: write outputs/comparison/ (tables, figures, "
                        "COMPARISON.md) setting every judge under outputs/judges/ (or those "
                        "named) side by side, beside the paper's judges")
    r.add_argument("--dtype", choices=("float32", "bfloat16"), default=None,
                   help="in-process judges on CPU compute in this dtype (default: the one the "
                        "judge's stored runs used, else bfloat16 where the CPU has it natively)")
    r.set_defaults(func=_reproduce)

    cv = sub.add_parser("coverage", help="coverage of the 95%% intervals on simulated verdict "
                        "rows over many seeds (writes the CSV notebook 09 reads)")
    cv.add_argument("--seeds", type=int, default=200)
    cv.add_argument("--out", default=None, help="CSV path (default outputs/stats/"
                    "interval_coverage.csv)")
    cv.set_defaults(func=_coverage)

    k = sub.add_parser("compact", help="keep in a judge's store only the calls its verdict "
                       "rows name; move the rest to superseded/ beside it")
    k.add_argument("--judge", required=True, help="the judge's folder under outputs/raw_outputs")
    k.set_defaults(func=_compact)

    be = sub.add_parser("bench", help="run the benchmarks in bench/")
    be.add_argument("--only", default=None)
    be.set_defaults(func=_bench)
    return p


def _warning_line(message, category, filename, lineno, line=None) -> str:
    """A warning as one line for people (what and where is in the message), not a source
    excerpt: ``warning: <message>``."""
    return "warning: " + " ".join(str(message).split()) + "\n"


def main(argv: list[str] | None = None) -> int:
    import warnings

    from tjb_lib.redaction import guard_output

    guard_output()  # a key a server echoes is never printed (check, errors, progress)
    warnings.formatwarning = _warning_line
    args = parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
