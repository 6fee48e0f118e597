"""Bad inputs to ``python -m tjb_lib judge``, shared by the in-process tests and the faults script.

Each case damages a copy of a finished run (a root whose split, store, rows and metadata are
real) and names what the one error line must mention. After the command, every output must be
as it was: the index (a cache the store rebuilds from its log) aside.
"""
from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parent.parent
SPLIT, PROTOCOL, LIMIT, JUDGE = "moderate_hotpotqa", "L0", 3, "local-vllm"
CACHES = ("calls.index.json",)


def damage_last_call(store: Path) -> tuple[str, str]:
    """Flip one byte of the last call record in ``store`` (its newline kept), as a disk or an
    editor might; returns (split, protocol) of a run whose rows need that call."""
    log = store / "calls.jsonl"
    lines = log.read_bytes().splitlines(keepends=True)
    last_key = json.loads(lines[-1])["key"]
    lines[-1] = lines[-1].replace(b'"status": "ok"', b'"status": "o\xff"', 1)
    assert lines[-1].endswith(b"\n") and b"\xff" in lines[-1]
    log.write_bytes(b"".join(lines))
    split, protocol = next(
        p.name.split(".")[:2] for p in sorted(store.glob("*.*.jsonl"))
        if any(last_key in json.loads(x)["request_hashes"] for x in p.read_text().splitlines()))
    return split, protocol


def make_root(tmp: Path) -> Path:
    """A TJB_ROOT holding a copy of one shipped split and the manifest; outputs start empty."""
    splits = tmp / "data" / "splits"
    splits.mkdir(parents=True)
    for name in (f"{SPLIT}.jsonl", "manifest.json"):
        shutil.copy(REPO / "data" / "splits" / name, splits / name)
    return tmp


def judge_argv(url: str, **options: str) -> list[str]:
    """The judge command's arguments; ``options`` replace or add ``--name value`` pairs."""
    opts = {"split": SPLIT, "protocol": PROTOCOL, "judge": JUDGE, "model": "served-model",
            "base-url": url + "/v1", "limit": str(LIMIT), "concurrency": "1"}
    opts.update({k.replace("_", "-"): v for k, v in options.items()})
    argv = ["judge"]
    for k, v in opts.items():
        if v is not None:
            argv += [f"--{k}", v] if v else [f"--{k}"]  # "": a flag
    return argv


def split_file(root: Path) -> Path:
    return root / "data" / "splits" / f"{SPLIT}.jsonl"


def judge_dir(root: Path) -> Path:
    return root / "outputs" / "raw_outputs" / JUDGE


def state(root: Path) -> dict[str, bytes]:
    """Every file of the root but the caches, by path: what a bad input must leave alone
    (a link by its target: /dev/full reads as endless zeros)."""
    return {str(p.relative_to(root)): (f"-> {p.readlink()}".encode() if p.is_symlink()
                                       else p.read_bytes())
            for p in sorted(root.rglob("*")) if (p.is_file() or p.is_symlink())
            and p.name not in CACHES}


def _edit_line(path: Path, number: int, edit: Callable[[bytes], bytes]) -> None:
    lines = path.read_bytes().splitlines(keepends=True)
    lines[number - 1] = edit(lines[number - 1])
    path.write_bytes(b"".join(lines))


def _set_field(name: str, value) -> Callable[[bytes], bytes]:
    return lambda line: (json.dumps({**json.loads(line), name: value}) + "\n").encode()


def _metadata(root: Path) -> Path:
    return root / "outputs" / "metadata" / f"{JUDGE}.json"


def _first_pair_id(root: Path) -> str:
    return json.loads(split_file(root).read_bytes().splitlines()[0])["pair_id"]


@dataclass
class BadInput:
    name: str
    expect: tuple[str, ...]                      # what the error line must name
    options: dict[str, str | None] = field(default_factory=dict)
    damage: Callable[[Path], None] = lambda root: None
    env: dict[str, str | None] = field(default_factory=dict)  # None: unset
    paid: int = 0                                # model calls made before the error


def _manifest_sha(root: Path, value) -> None:
    path = split_file(root).parent / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["splits"][SPLIT]["sha256"] = value
    path.write_text(json.dumps(manifest))


def _splits_with(edit: Callable[[Path], None]) -> Callable[[Path], None]:
    """The splits, copied, then edited."""
    def damage(root: Path) -> None:
        splits = root / "data" / "splits"
        splits.unlink()
        shutil.copytree(REPO / "data" / "splits", splits)
        edit(splits)
    return damage


def _full_disk(root: Path) -> None:
    """Every append to the store fails as on a full disk (/dev/full answers ENOSPC): the log
    is moved aside and the run writes to a fresh one on /dev/full."""
    log = judge_dir(root) / "calls.jsonl"
    log.rename(log.with_name("calls.jsonl.before-full-disk"))
    (judge_dir(root) / "calls.index.json").unlink()
    log.symlink_to("/dev/full")


CASES: list[BadInput] = [
    BadInput("unknown split", ("split 'no_such_split'",), {"split": "no_such_split"}),
    BadInput("unknown protocol", ("protocol 'L9'",), {"protocol": "L9"}),
    BadInput("unknown judge", ("judge 'no-such-judge'",),
             {"judge": "no-such-judge", "base-url": None, "model": None}),
    BadInput("--limit 0", ("--limit must be at least 1",), {"limit": "0"}),
    BadInput("--limit -2", ("--limit must be at least 1",), {"limit": "-2"}),
    BadInput("empty split", (f"{SPLIT}.jsonl", "no pairs"),
             damage=lambda root: split_file(root).write_bytes(b"")),
    BadInput("plain: null", (f"{SPLIT}.jsonl line 2", "'plain' is null"),
             damage=lambda root: _edit_line(split_file(root), 2, _set_field("plain", None))),
    BadInput("plain: 123", (f"{SPLIT}.jsonl line 2", "'plain' is a number"),
             damage=lambda root: _edit_line(split_file(root), 2, _set_field("plain", 123))),
    BadInput("a line that is not JSON", (f"{SPLIT}.jsonl line 4",),
             damage=lambda root: _edit_line(split_file(root), 4, lambda line: b'{"pair_id": \n')),
    BadInput("duplicate pair_id", (f"{SPLIT}.jsonl line 3", "appears twice", "first at line 1"),
             damage=lambda root: _edit_line(split_file(root), 3,
                                            _set_field("pair_id", _first_pair_id(root)))),
    BadInput("non-UTF-8 byte in the split", (f"{SPLIT}.jsonl line 5", "0xff", "not UTF-8"),
             damage=lambda root: _edit_line(split_file(root), 5,
                                            lambda line: line.replace(b"Answer", b"Ans\xffwer", 1))),
    BadInput("split edited after it was built", (f"{SPLIT}.jsonl", "sha256", "manifest.json"),
             damage=lambda root: _edit_line(split_file(root), 7,
                                            lambda line: line.replace(b"Answer", b"Answ3r", 1))),
    BadInput("split without its manifest", (f"{SPLIT}.jsonl", "manifest.json", "sha256"),
             damage=lambda root: (split_file(root).parent / "manifest.json").unlink()),
    BadInput("judge name that leaves outputs/", ("judge name '../../escaped'",),
             {"judge": "../../escaped"}),
    BadInput("judge name that is a model id", ("judge name 'Qwen/Qwen2.5-7B-Instruct'",
                                               "--model"),
             {"judge": "Qwen/Qwen2.5-7B-Instruct", "model": "Qwen/Qwen2.5-7B-Instruct"}),
    BadInput("a 250-character judge name", ("250 characters long",), {"judge": "j" * 250}),
    BadInput("run metadata that is not JSON", (f"metadata/{JUDGE}.json", "not valid JSON"),
             damage=lambda root: _metadata(root).write_bytes(b'{"runs": {')),
    BadInput("call_window of numbers in the run metadata",
             (f"metadata/{JUDGE}.json", "'call_window'"),
             damage=lambda root: _metadata(root).write_text(json.dumps(
                 {**json.loads(_metadata(root).read_text()), "call_window": {"first": 12}}))),
    BadInput("a sha256 that is a number in the manifest", ("manifest.json", "sha256", "int"),
             damage=lambda root: _manifest_sha(root, 12345)),
    BadInput("run metadata of another shape", (f"metadata/{JUDGE}.json", "'runs'"),
             damage=lambda root: _metadata(root).write_text('{"runs": [1, 2]}')),
    BadInput("--concurrency 0", ("--concurrency",), {"concurrency": "0"}),
    BadInput("--concurrency -3", ("--concurrency",), {"concurrency": "-3"}),
    BadInput("bad store line in the middle", ("calls.jsonl line 2", "not a call record"),
             damage=lambda root: _edit_line(judge_dir(root) / "calls.jsonl", 2,
                                            lambda line: b"{this is not a record}\n")),
    BadInput("non-UTF-8 byte in the store", ("calls.jsonl line 3", "not UTF-8"),
             damage=lambda root: _edit_line(judge_dir(root) / "calls.jsonl", 3,
                                            lambda line: line.replace(b"winner", b"win\xfeer", 1))),
    BadInput("bad rows line in the middle", (f"{SPLIT}.{PROTOCOL}.jsonl line 2",),
             damage=lambda root: _edit_line(judge_dir(root) / f"{SPLIT}.{PROTOCOL}.jsonl", 2,
                                            lambda line: line[: len(line) // 2] + b"\n")),
    BadInput("a {} line in the rows file", (f"{SPLIT}.{PROTOCOL}.jsonl line 3", "no pair_id"),
             damage=lambda root: _edit_line(judge_dir(root) / f"{SPLIT}.{PROTOCOL}.jsonl", 3,
                                            lambda line: b"{}\n")),
    BadInput("full disk", ("calls.jsonl", "No space left on device"), damage=_full_disk,
             paid=1),
    BadInput("missing API key", ("OPENAI_API_KEY",),
             {"judge": "gpt-5.5", "base-url": None, "model": None},
             env={"OPENAI_API_KEY": None}),
    BadInput("--base-url that is not a URL", ("not a url",), {"base-url": "not a url"}),
    BadInput("--rationales for an API judge", ("--rationales is for local judges",),
             {"rationales": ""}),
]


@dataclass
class BadCommand:
    """A failing command of any subcommand, run as its own process in a root whose data are the
    repository's (``damage`` may replace a folder by a damaged copy)."""
    name: str
    argv: tuple[str, ...]
    expect: tuple[str, ...]                      # what the one error line must name
    damage: Callable[[Path], None] = lambda root: None


def _raw_without(relative: str) -> Callable[[Path], None]:
    """The raw data, but for one file."""
    def damage(root: Path) -> None:
        raw = root / "data" / "raw"
        raw.unlink()
        shutil.copytree(REPO / "data" / "raw", raw)
        (raw / relative).unlink()
    return damage


HOTPOT = "hotpotqa/hotpot_dev_distractor_v1_first500.json"
COMMANDS: list[BadCommand] = [
    BadCommand("build --check with a raw file missing", ("build", "--check"),
               ("hotpot_dev_distractor_v1_first500.json", "not found"), _raw_without(HOTPOT)),
    BadCommand("build --seed abc", ("build", "--seed", "abc"), ("--seed", "'abc'")),
    BadCommand("audit of a folder that is not there", ("audit", "--splits", "/nonexistent"),
               ("/nonexistent/", "does not exist")),
    BadCommand("audit with a raw file missing", ("audit",),
               ("hotpot_dev_distractor_v1_first500.json", "not found"), _raw_without(HOTPOT)),
    BadCommand("generate with an unknown generator",
               ("generate", "natural", "--generator", "no-such-judge"), ("'no-such-judge'",)),
    BadCommand("judge --limit abc", ("judge", "--split", SPLIT, "--protocol", PROTOCOL,
                                     "--judge", "smollm2", "--limit", "abc"), ("--limit", "'abc'")),
    BadCommand("judge --budget -1", ("judge", "--split", SPLIT, "--protocol", PROTOCOL,
                                     "--judge", "smollm2", "--budget", "-1"), ("--budget", "'-1'")),
    BadCommand("estimate of an unknown judge", ("estimate", "--judge", "no-such-judge"),
               ("'no-such-judge'",)),
    BadCommand("check of an unknown judge", ("check", "--judge", "no-such-judge"),
               ("'no-such-judge'",)),
    BadCommand("reproduce with an unknown judge", ("reproduce", "--judge", "no-such-judge"),
               ("parameter judge", "'no-such-judge'")),
    BadCommand("reproduce --scale huge", ("reproduce", "--scale", "huge"), ("--scale", "'huge'")),
    BadCommand("reproduce into a folder that cannot be made",
               ("reproduce", "--only", "02", "--replay-only", "--outputs-dir", "/dev/null/x"),
               ("/dev/null/x", "Not a directory")),
    BadCommand("an unknown command", ("nosuch",), ("'nosuch'",)),
    BadCommand("audit of a split with a byte that is not UTF-8", ("audit",),
               (f"{SPLIT}.jsonl line", "0xff", "not UTF-8"),
               _splits_with(lambda s: s.joinpath(f"{SPLIT}.jsonl").write_bytes(
                   s.joinpath(f"{SPLIT}.jsonl").read_bytes() + b"\xff\n"))),
    BadCommand("generate into a folder that cannot be made",
               ("generate", "natural", "--generator", "smollm2", "--limit", "1", "--out",
                "/dev/null/x"), ("/dev/null/x", "Not a directory")),
    BadCommand("estimate with a split missing", ("estimate", "--judge", "gpt-5.5", "--scale",
                                                 "default"),
               ("moderate_finqa.jsonl", "does not exist"),
               _splits_with(lambda s: s.joinpath("moderate_finqa.jsonl").unlink())),
]


def command_root(tmp: Path) -> Path:
    """A TJB_ROOT whose data (each folder), notebooks and bench are the repository's, linked."""
    (tmp / "data").mkdir(parents=True)
    for item in (REPO / "data").iterdir():
        (tmp / "data" / item.name).symlink_to(item)
    for name in ("notebooks", "bench"):
        (tmp / name).symlink_to(REPO / name)
    return tmp
