"""docs/api.md's example runs as it is written (from the repository's root), so the Python API
it documents (load, decision, answer, view, log, clone, save and resume) cannot drift from it."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_api_example_runs():
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 1
    r = subprocess.run([sys.executable, "-c", blocks[0]], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "seat 1 sees the jar holding" in r.stdout and "winners (players from 1): [" in r.stdout
