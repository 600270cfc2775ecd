"""A game's RNG (`directgame.GameRandom`) shuffles as `random.Random.shuffle` does: the same order
from the same seed, and the same bits drawn (the stream goes on alike), so seeds give the games
they gave before; a copy and a pickle keep its class. A die roll draws each face as
`Random.choice` would (`CoverRuntime.roll`)."""
from __future__ import annotations

import copy
import pickle
import random

from interpreter.engine.directgame import GameRandom


def test_shuffle_draws_as_random_does():
    for seed in range(200):
        for n in (0, 1, 2, 3, 7, 8, 20, 63, 64, 65, 100):
            a, b = random.Random(seed), GameRandom(seed)
            xs, ys = list(range(n)), list(range(n))
            a.shuffle(xs)
            b.shuffle(ys)
            assert xs == ys, (seed, n)
            assert a.getstate() == b.getstate() and a.random() == b.random()


def test_copies_keep_the_class_and_the_stream():
    g = GameRandom(7)
    g.random()
    for other in (copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        assert type(other) is GameRandom and other.getstate() == g.getstate()
