"""The methods `dataclass` compiles while `grimoire validate` imports its modules are kept compiled
(language/dataclasscode.py): a later run takes them from the cache file and compiles none of them,
the classes behave as `dataclass` alone makes them, and a missing, broken or foreign file only
means they are compiled as before."""
from __future__ import annotations

import dataclasses
import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.language import dataclasscode

ROOT = Path(__file__).resolve().parents[2]

# In a fresh process: import what `validate` imports (the CLI warms first) and report how many texts
# were taken from the file and how many were compiled since.
PROBE = r"""
import interpreter.cli
import interpreter.analysis.validate
kept, new = interpreter.cli._WARMED_CODE
print(repr((len(kept), len(new))))
"""


def _env(cache: Path) -> dict:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _validate(cache: Path) -> str:
    return subprocess.run([sys.executable, "-m", "interpreter", "validate", "rulesets/tutorial_fireflies"], cwd=ROOT,
                          env=_env(cache), capture_output=True, text=True, check=True).stdout


def _probe(cache: Path) -> tuple:
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=_env(cache), capture_output=True, text=True,
                         check=True).stdout
    return eval(out)  # noqa: S307 - our own probe's repr


def test_a_later_run_compiles_none_of_the_kept_methods(tmp_path):
    kept, new = _probe(tmp_path)
    assert kept == 0 and new > 20  # no file yet: every method compiled (the probe keeps nothing)
    first = _validate(tmp_path)
    assert (tmp_path / "grimoire" / "dataclass-code.marshal").is_file()
    assert _probe(tmp_path) == (new, 0)
    assert _validate(tmp_path) == first


def test_a_broken_or_foreign_file_is_compiled_around_and_written_again(tmp_path):
    _validate(tmp_path)
    path = tmp_path / "grimoire" / "dataclass-code.marshal"
    key, kept = marshal.loads(path.read_bytes())
    path.write_bytes(marshal.dumps((key, {text: "not code" for text in kept})))
    assert _probe(tmp_path)[0] == 0  # no entry taken: each compiled
    for junk in (b"not marshal data", marshal.dumps((("another", "python"), kept))):
        path.write_bytes(junk)
        assert _probe(tmp_path)[0] == 0
        _validate(tmp_path)  # written again, whole
        assert marshal.loads(path.read_bytes()) == (key, kept)


def test_classes_made_with_kept_code_behave_as_dataclass_makes_them(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))

    def make():
        @dataclasses.dataclass(frozen=True)
        class P:
            a: int
            b: tuple = dataclasses.field(default_factory=tuple)
            c: str = "c"
        return P

    plain = make()
    for _ in range(2):  # compiled and kept, then taken from the file
        warmed = dataclasscode.warm()
        assert warmed is not None and dataclasses.exec is not exec
        try:
            P = make()
        finally:
            dataclasscode.keep(warmed)
        assert "exec" not in vars(dataclasses)
        assert (repr(P(1)), P(1) == P(1), hash(P(1)) == hash(P(1)), P(2, (3,)).b) == \
            (repr(plain(1)), True, True, (3,))
        with pytest.raises(dataclasses.FrozenInstanceError):
            P(1).a = 2
    assert len(warmed[0]) >= 5 and warmed[1] == {}  # the second time: every method from the file
