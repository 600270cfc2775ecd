"""Lowered generators kept between processes (resumablelazy.py, `LazyLowering.save`): a later
process of the same generated source takes them from the user cache instead of lowering them
again, and plays the same game; another source, another lowering code or a damaged file is
lowered anew."""
from __future__ import annotations

import copy
import marshal
import os
import random

import pytest

from golden_games import ROOT
from interpreter.api import load_program
from interpreter.engine import resumable, resumablelazy
from interpreter.engine.direct import compile_direct
from interpreter.engine.directgame import DirectGame
from interpreter.engine.resumablegame import ResumableGame


@pytest.fixture
def cache(monkeypatch, tmp_path):
    monkeypatch.setattr(resumablelazy, "cache_dir", lambda: tmp_path)
    return tmp_path


def _fresh(name: str):
    """The program as a new process compiles it: no lowering made yet."""
    dp = compile_direct(load_program(ROOT / "rulesets" / name))
    out = copy.copy(dp)
    out.__dict__.pop("_resumable", None)
    return out


def _play(g, seed: int) -> tuple:
    rng = random.Random(seed)
    while not g.over:
        g.answer(rng.randrange(len(g.decision.options)))
    return g.error, g.result, g.state.digest(), g.log


def _refuse(*args, **kwargs):
    raise resumable.NotLowerable("lowered again")


def test_a_later_process_takes_the_kept_lowerings_and_plays_the_same_game(cache, monkeypatch):
    first = ResumableGame(_fresh("stonehenge_wizards"), 2, 3)
    expected = _play(first, 7)
    low = first.rp.lowering
    made = dict(low.code)
    assert made and not list(cache.glob("lowered-*.marshal"))  # written when saved (at exit), not per generator
    low.save()
    assert len(list(cache.glob("lowered-*.marshal"))) == 1
    monkeypatch.setattr(resumablelazy, "lower_function", _refuse)  # a lowering now would fail the game
    again = ResumableGame(_fresh("stonehenge_wizards"), 2, 3)
    assert _play(again, 7) == expected == _play(DirectGame(_fresh("stonehenge_wizards"), 2, 3), 7)
    kept = again.rp.lowering
    assert kept.code.keys() == made.keys() and all(kept.code[i] == made[i] for i in made)
    assert kept.meta == low.meta


@pytest.mark.parametrize("spoil", ["key", "file", "entry"])
def test_a_lowering_kept_under_another_key_or_damaged_is_made_again(cache, monkeypatch, spoil):
    """Another Python or lowering code (the key), an unreadable file or an entry of another shape:
    the generator is lowered again (here refused, so the game says so)."""
    low = ResumableGame(_fresh("stonehenge_wizards"), 2, 3).rp.lowering
    low.save()
    (path,) = cache.glob("lowered-*.marshal")
    if spoil == "key":
        monkeypatch.setattr(resumablelazy, "_lowering_key", lambda: ("another", "lowering"))
    elif spoil == "file":
        path.write_bytes(b"\x00garbage")
    else:
        key, kept = marshal.loads(path.read_bytes())
        path.write_bytes(marshal.dumps((key, {i: (v[0], v[0], "no table") for i, v in kept.items()})))
    monkeypatch.setattr(resumablelazy, "lower_function", _refuse)
    g = ResumableGame(_fresh("stonehenge_wizards"), 2, 3)
    assert g.over and "cannot go on in its copyable form (lowered again)" in g.error.message


def test_another_source_has_its_own_file(cache):
    for name in ("stonehenge_wizards", "toil_and_troublez"):
        ResumableGame(_fresh(name), 2, 1).rp.lowering.save()
    assert len(list(cache.glob("lowered-*.marshal"))) == 2


def test_the_oldest_files_go_when_a_new_source_is_kept(cache):
    """At most `MAX_LOWERED_FILES` files stay (one per generated source): the oldest goes first."""
    old = []
    for k in range(resumablelazy.MAX_LOWERED_FILES):
        f = cache / f"lowered-old{k:02d}.marshal"
        f.write_bytes(b"")
        os.utime(f, (1000 + k, 1000 + k))
        old.append(f)
    ResumableGame(_fresh("toil_and_troublez"), 2, 1).rp.lowering.save()
    kept = set(cache.glob("lowered-*.marshal"))
    assert len(kept) == resumablelazy.MAX_LOWERED_FILES and old[0] not in kept and old[1] in kept
