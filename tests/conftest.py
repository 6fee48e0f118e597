"""Shared fixtures. Keep this file to fixtures only."""
from __future__ import annotations

import pytest

try:  # tests/ on sys.path (pytest's default rootdir-less import) or the repo root
    from fault_server import FaultServer
except ModuleNotFoundError:  # pragma: no cover - when tests/ becomes a package
    from tests.fault_server import FaultServer


@pytest.fixture
def fault_server():
    """A started local OpenAI/Anthropic wire-format server with fault injection; stopped after."""
    server = FaultServer().start()
    try:
        yield server
    finally:
        server.stop()
