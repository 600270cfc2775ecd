"""Speed work must not change any game: seeded games of every ruleset at every player count
are compared with fingerprints recorded before the optimisations (tests/golden_games.py;
`python tests/golden_games.py` checks all 30 games per count, this test the first 6)."""
from __future__ import annotations

import json

import pytest

from golden_games import GOLDEN, cases, fingerprint, key, same_game

RECORDED = json.loads(GOLDEN.read_text())
CASES = [c for c in cases(6)]


def test_golden_covers_every_ruleset_and_count():
    assert len(CASES) >= 60
    assert all(key(*c) in RECORDED for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: key(*c))
def test_same_game_as_recorded(case):
    fp = fingerprint(*case)
    assert same_game(RECORDED[key(*case)], fp), (RECORDED[key(*case)], fp)
