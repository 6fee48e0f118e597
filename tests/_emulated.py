"""Catalog judges pointed at the contract emulator, each at the path of its provider's own
endpoint there, their provider's rules and params kept (``FaultServer.url_for``)."""
from __future__ import annotations

from tjb_lib.judges.catalog import get_judge, resolve
from tjb_lib.judges.provider import get
from tjb_lib.judges.retry import RetryPolicy

from fault_server import FaultServer

NO_RETRY = RetryPolicy(max_attempts=1, sleep=lambda s: None)
SPLIT = "moderate_hotpotqa"
#: every CLI protocol, with the settings each judges per ordered comparison
PROTOCOLS = {"ladder": 5, "paraphrases": 15, "trace_v1": 1, "trace_v2": 1, "trace_lite": 1}


def judge_at(name: str, server: FaultServer, **overrides):
    """Catalog judge ``name`` at the emulator (an in-process judge: as its served provider)."""
    provider = get(resolve(name, base_url=server.url).provider)
    return get_judge(name, base_url=server.url_for(provider), retry=NO_RETRY, **overrides)
