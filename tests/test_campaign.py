"""The fuzzing campaign (tools/campaign.py, issue 25) in a CI-sized slice: mutants of two rulesets
and random games with their invariants give no internal error, hang, outside read or broken
invariant; and each invariant check and the outside-read watch catch what they are for."""
from __future__ import annotations

import importlib.util
import os
import random
import time
from pathlib import Path

import pytest

from interpreter.api import load_program
from interpreter.engine.directgame import DirectGame
from interpreter.engine.factory import new_game

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "campaign.py"


def _tool():
    spec = importlib.util.spec_from_file_location("campaign", TOOL)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


campaign = _tool()


def test_a_slice_of_the_campaign_finds_nothing_and_reports_every_outcome():
    start = time.perf_counter()
    s = campaign.campaign(mutants=8, games=2, seed=3, workers=0, budget=20,
                          names=["tutorial_fireflies", "toil_and_troublez"], progress=False)
    assert time.perf_counter() - start < 20
    assert s["failures"] == 0, (s["mutants"]["examples"], s["games"]["examples"])
    assert s["mutants"]["total"] == 16 and s["games"]["total"] == 4
    assert s["mutants"]["outcomes"]["diagnostic"] > 0  # the mutations do break files
    assert s["games"]["outcomes"]["ended"] == 4 and s["games"]["decisions"] > 0
    assert set(s["mutants"]["by_ruleset"]) == {"tutorial_fireflies", "toil_and_troublez"}


def test_the_same_seed_gives_the_same_report_whatever_the_workers():
    a = campaign.campaign(mutants=3, games=1, seed=5, workers=0, names=["tutorial_fireflies"], progress=False)
    b = campaign.campaign(mutants=3, games=1, seed=5, workers=2, names=["tutorial_fireflies"], progress=False)
    for part in ("mutants", "games"):
        assert a[part]["outcomes"] == b[part]["outcomes"] and a[part]["by_ruleset"] == b[part]["by_ruleset"]
    assert a["games"]["decisions"] == b["games"]["decisions"]


def test_a_slice_of_two_rulesets_finds_nothing():
    """A small slice on generated code: no failure, every game ends, within its time."""
    start = time.perf_counter()
    s = campaign.campaign(mutants=4, games=2, seed=4, workers=0, budget=20,
                          names=["tutorial_fireflies", "toil_and_troublez"], progress=False)
    assert time.perf_counter() - start < 20
    assert s["failures"] == 0, (s["mutants"]["examples"], s["games"]["examples"])
    assert s["games"]["outcomes"]["ended"] == 4 and s["games"]["decisions"] > 0
    assert s["mutants"]["outcomes"]["ran"] > 0  # mutants that check clean were played


def _game(ruleset: str = "toil_and_troublez") -> DirectGame:
    g = new_game(load_program(ROOT / "rulesets" / ruleset), 3, 1, seats=[])
    rng = random.Random(1)
    for _ in range(5):
        g.answer(rng.randrange(len(g.decision.options)))
    campaign.check_invariants(g)  # a real game keeps them
    return g


def test_a_card_in_two_places_breaks_conservation():
    g = _game()
    key = next(k for k, z in g.state.zones.items() if z and isinstance(z[0], int))
    other = next(k for k in g.state.zones if k != key)
    g.state.zones[other] = g.state.zones[other] + [g.state.zones[key][0]]
    with pytest.raises(campaign.InvariantBroken, match="not conserved"):
        campaign.check_invariants(g)


def test_a_stat_past_its_bound_is_caught():
    g = _game("stonehenge_wizards")
    name, sd = next((n, sd) for n, sd in g.rs.stats.items() if sd.hi is not None)
    if sd.per_player:
        g.state.pstats[0][name] = sd.hi + 1
    else:
        g.state.stats[name] = sd.hi + 1
    with pytest.raises(campaign.InvariantBroken, match=f"{name} = {sd.hi + 1} outside {sd.lo}..{sd.hi} "):
        campaign.check_invariants(g)


def test_a_stat_below_an_open_range_is_caught():
    """`crystals: 0..` has no top: a value under its floor is still caught, and said as `0..`."""
    g = _game("enchanters")
    name, sd = next((n, sd) for n, sd in g.rs.stats.items() if sd.lo is not None and sd.hi is None)
    g.state.pstats[0][name] = sd.lo - 1
    with pytest.raises(campaign.InvariantBroken, match=f"{name} = {sd.lo - 1} outside {sd.lo}\\.\\. at"):
        campaign.check_invariants(g)


def test_a_view_that_shows_a_hidden_zone_is_caught(monkeypatch):
    g = _game()
    hidden = next(n for n, zd in g.rs.zones.items() if zd.visibility != "public")
    real = type(g).view

    def leaky(self, seat):
        out = real(self, seat)
        for label in out:
            if label.startswith(hidden) and isinstance(out[label], int):
                out[label] = ["a card"] * out[label] or ["a card"]
        return out
    monkeypatch.setattr(type(g), "view", leaky)
    with pytest.raises(campaign.InvariantBroken, match="sees the cards"):
        campaign.check_invariants(g)


def test_opening_a_file_outside_the_mutants_folder_is_seen(tmp_path):
    campaign._scratch()  # installs the watch
    inside, outside = tmp_path / "tree", tmp_path / "elsewhere.txt"
    inside.mkdir()
    (inside / "a.rules").write_text("x", encoding="utf-8")
    outside.write_text("secret", encoding="utf-8")
    campaign._Watch.root, campaign._Watch.seen = os.path.realpath(inside), []
    try:
        (inside / "a.rules").read_text(encoding="utf-8")
        assert campaign._Watch.seen == []
        outside.read_text(encoding="utf-8")
    finally:
        campaign._Watch.root = None
    assert campaign._Watch.seen == [os.path.realpath(outside)]
