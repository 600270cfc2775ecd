"""`grimoire validate` starts fast: it imports nothing it does not use (the compiler, the engines,
plotting, distributed runs, the language server, terminal colours, package metadata, and pydantic
while every card passes the cheap check)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("scipy", "matplotlib", "numpy", "rich", "pygls", "lsprotocol", "ray", "importlib.metadata",
         "pydantic", "interpreter.compile", "interpreter.engine", "interpreter.play", "interpreter.sim", "interpreter.printing")


def test_validate_imports_nothing_heavy():
    script = ("import sys, io, contextlib\nfrom interpreter.cli import main\n"
              "with contextlib.redirect_stdout(io.StringIO()):\n"
              "    code = main(['validate', sys.argv[1]])\n"
              "print(code, ' '.join(sorted(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", script, str(ROOT / "rulesets" / "talisman")], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.split()
    code, modules = out[0], set(out[1:])
    assert code == "0" and "interpreter.analysis.checker" in modules  # it did validate
    assert sorted(m for m in modules if m.split(".")[0] in HEAVY or m.startswith(HEAVY)) == []
