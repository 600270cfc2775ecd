"""The regular expressions compiled while `grimoire validate` imports its modules are kept compiled
(language/reforms.py): a later run hands them to `re` from the cache file, compiles none of them,
and gets patterns equal to what `re.compile` makes; a missing, broken or foreign file only means
`re` compiles them as before."""
from __future__ import annotations

import marshal
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# In a fresh process: warm `re` from the file as the CLI does, import what `validate` imports, and
# report how many entries were taken from the file, the file's patterns `re` compiled itself, whether
# every pattern taken from the file is equal to the one `re` compiles, and if PyYAML's big one was.
PROBE = r"""
import re, sys
from re import _compiler
compiled = []
original = _compiler.compile
def counting(p, flags=0):
    compiled.append(p)
    return original(p, flags)
_compiler.compile = counting
import interpreter.cli
import interpreter.analysis.validate
import yaml.reader
_compiler.compile = original
from interpreter.language import reforms
kept = interpreter.cli._WARMED[1]  # the entries `warm` took from the file
found = reforms.read_cached(reforms._file(), reforms._key())
in_file = {e[0] for e in found if isinstance(e, tuple)} if isinstance(found, list) else set()
same = all(re._cache.get((type(p), p, f)) == original(p, f) for p, f, form in kept if form is not None)
print(repr((len(kept), [p for p in compiled if p in in_file], same,
            yaml.reader.Reader.NON_PRINTABLE.pattern in {k[0] for k in kept})))
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


def test_a_later_run_compiles_none_of_the_kept_patterns(tmp_path):
    assert _probe(tmp_path) == (0, [], True, False)  # no file yet: nothing kept, `re` compiles everything
    first = _validate(tmp_path)
    assert (tmp_path / "grimoire" / "regexes.marshal").is_file()
    count, recompiled, same, non_printable = _probe(tmp_path)
    assert count > 20 and recompiled == [] and same and non_printable
    assert _validate(tmp_path) == first


def test_a_broken_or_foreign_file_is_compiled_around_and_written_again(tmp_path):
    _validate(tmp_path)
    path = tmp_path / "grimoire" / "regexes.marshal"
    key, kept = marshal.loads(path.read_bytes())
    wrong = [(p, f, (0, [1, 2, 3], 0, {}, (None,))) for p, f, form in kept]  # forms `_sre` refuses
    path.write_bytes(marshal.dumps((key, wrong + ["not an entry"])))
    count, recompiled, same, _ = _probe(tmp_path)
    assert count == 0 and len(recompiled) > 20 and same  # each refused form: `re` compiled it itself
    for junk in (None, b"not marshal data", marshal.dumps((("another", "python"), kept))):
        if junk is not None:
            path.write_bytes(junk)
            assert _probe(tmp_path)[0] == 0
        _validate(tmp_path)  # written again, whole
        assert marshal.loads(path.read_bytes())[0] == key
        count, recompiled, same, non_printable = _probe(tmp_path)
        assert count >= len(kept) and recompiled == [] and same and non_printable
