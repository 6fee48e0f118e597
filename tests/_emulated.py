"""Catalog judges pointed at the contract emulator, each at the path of its provider's own
endpoint there, their provider's rules and params kept (``FaultServer.url_for``)."""
from __future__ import annotations

from tjb_lib.judges.batch import collect, custom_id_for, submit_batch, wait
from tjb_lib.judges.catalog import get_judge, resolve
from tjb_lib.judges.provider import get
from tjb_lib.judges.retry import RetryPolicy
from tjb_lib.pairs import load_split
from tjb_lib.protocols import CLI_NAMES, LEVELS, Spec, build_request, expand
from tjb_lib.records import Request, Response

from fault_server import FaultServer

NO_RETRY = RetryPolicy(max_attempts=1, sleep=lambda s: None)
SPLIT = "moderate_hotpotqa"
#: every CLI protocol (a single level is one of the ladder's), with the settings each judges per
#: ordered comparison
PROTOCOLS = {name: len(expand(name, SPLIT)) for name in CLI_NAMES if name not in LEVELS}


def judge_at(name: str, server: FaultServer, **overrides):
    """Catalog judge ``name`` at the emulator (an in-process judge: as its served provider)."""
    provider = get(resolve(name, base_url=server.url).provider)
    return get_judge(name, base_url=server.url_for(provider), retry=NO_RETRY, **overrides)


def batch_with(judge, refused: Request) -> list[tuple[list[Response], Response]]:
    """Two real requests and ``refused`` in one batch, collected twice (as a rerun would):
    each time, (the two results, the refused one's)."""
    good = [build_request(p, "cited_first", Spec("ladder", "L0"))
            for p in load_split(SPLIT)[:2]]
    batch_id = submit_batch(judge, [*good, refused])
    wait(judge, batch_id, interval_s=0, sleep=lambda s: None)
    out = []
    for _ in range(2):
        results = collect(judge, batch_id)
        out.append(([results[custom_id_for(judge, r)] for r in good],
                    results[custom_id_for(judge, refused)]))
    return out
