"""Shared fixtures. Keep this file to fixtures only."""
from __future__ import annotations

import os
import pickle

import pytest
from filelock import FileLock

from tjb_lib import paths
from tjb_lib.judges import vllm_server as vllm

try:  # tests/ on sys.path (pytest's default rootdir-less import) or the repo root
    from fault_server import FAKE_KEY, FaultServer
except ModuleNotFoundError:  # pragma: no cover - when tests/ becomes a package
    from tests.fault_server import FAKE_KEY, FaultServer


@pytest.fixture(scope="session", autouse=True)
def this_checkout_in_subprocesses():
    """Every Python process a test starts imports this checkout's tjb_lib, as the test does."""
    before = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = paths.python_path()
    yield
    if before is None:
        os.environ.pop("PYTHONPATH", None)
    else:
        os.environ["PYTHONPATH"] = before


@pytest.fixture
def fault_server():
    """A started local OpenAI/Anthropic wire-format server with fault injection; stopped after."""
    server = FaultServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def emulator(monkeypatch):
    """A started contract emulator, and the key for it (the emulator is not a provider host)."""
    monkeypatch.setenv("OPENAI_COMPATIBLE_API_KEY", FAKE_KEY)
    with FaultServer() as server:
        yield server


@pytest.fixture(scope="session")
def vllm_server(tmp_path_factory):
    """One real vLLM server (CPU build, its own venv) serving the embedded judge's weights, shared
    by every test that asks for it; skipped with the reason only when vLLM is not installed."""
    if vllm.vllm_python() is None:
        pytest.skip(vllm.missing_reason())
    server = vllm.embedded_judge_server(log_path=tmp_path_factory.mktemp("vllm") / "server.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()
        assert not vllm.group_alive(server.pid), f"vLLM processes outlived stop(); see {server.log_path}"


def _once_per_run(tmp_path_factory, name: str, make):
    """``make()``, made by the first pytest-xdist worker that asks and read back by the others
    (the recipe of pytest-xdist's documentation), so that two workers do not each build and
    audit every split; in one process (no ``PYTEST_XDIST_WORKER``) simply ``make()``."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return make()
    path = tmp_path_factory.getbasetemp().parent / f"{name}.pickle"
    with FileLock(f"{path}.lock"):
        if path.is_file():
            return pickle.loads(path.read_bytes())
        value = make()
        path.write_bytes(pickle.dumps(value))
        return value


@pytest.fixture(scope="session")
def session_build(tmp_path_factory):
    """(files, manifest) of one build of every split in memory (``build.in_memory``), made once
    per test run: every test that needs this build's bytes or compares a folder with it."""
    from tjb_lib.pairs.build import in_memory

    return _once_per_run(tmp_path_factory, "session_build", in_memory)


@pytest.fixture(scope="session")
def fresh_build(tmp_path_factory, session_build):
    """(folder, manifest) of the session's build written into a tmp folder, shared read-only by
    the split tests (a test that edits files copies them first)."""
    from tjb_lib.pairs.build import build_all

    root = tmp_path_factory.mktemp("fresh_build")
    return root, build_all(out_dir=root, built=session_build)


@pytest.fixture(scope="session")
def shipped_audit(tmp_path_factory):
    """(audits, tier classifier) of the shipped splits, audited once per test run."""
    from tjb_lib.pairs import audit

    return _once_per_run(tmp_path_factory, "shipped_audit", audit.run_audit)
