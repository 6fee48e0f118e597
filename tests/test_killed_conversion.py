"""A model conversion killed with SIGKILL leaves no orphan ``.tmp-*`` folder behind: the next
load, holding the conversions' turn, removes it (the embedded judge's GGUF -> safetensors)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_a_killed_conversion_leaves_no_temp_folder_once_the_model_is_next_loaded(tmp_path):
    smollm2 = pytest.importorskip("tjb_lib.judges.smollm2")
    try:
        real, _ = smollm2.ensure_checkpoint()  # the cached conversion (made once if missing)
    except ModuleNotFoundError as e:
        pytest.skip(f"the embedded judge's package is not installed: {e}")
    folder = tmp_path / real.name
    code = ("import sys; from pathlib import Path; from tjb_lib.judges.smollm2 import "
            "ensure_checkpoint; ensure_checkpoint(Path(sys.argv[1]))")
    proc = subprocess.Popen([sys.executable, "-c", code, str(folder)], cwd=REPO,
                            env={**os.environ, "PYTHONPATH": str(REPO)})
    deadline = time.monotonic() + 120
    while not list(tmp_path.glob(f"{folder.name}.tmp-*")) and time.monotonic() < deadline:
        assert proc.poll() is None, "the conversion ended before it could be killed"
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert list(tmp_path.glob(f"{folder.name}.tmp-*")), "killed before the temp folder existed"
    folder.symlink_to(real)  # meanwhile the model was converted (here: the cached conversion)
    assert smollm2.ensure_checkpoint(folder) == (folder, False)
    assert sorted(p.name for p in tmp_path.iterdir()) == [folder.name]
