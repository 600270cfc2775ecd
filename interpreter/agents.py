"""Agents: anything that answers a Decision. All play any ruleset through the same interface."""
from __future__ import annotations

import random
from typing import Protocol

from .engine import Decision, Game

__all__ = ["Agent", "RandomAgent", "FirstAgent", "make_agent", "AGENT_KINDS"]


class Agent(Protocol):
    def choose(self, game: Game, decision: Decision) -> int: ...


class RandomAgent:
    """Uniformly random legal choices from its own seeded RNG (not the game's)."""

    def __init__(self, seed: object = 0):
        self.rng = random.Random(str(seed))

    def choose(self, game: Game, decision: Decision) -> int:
        return self.rng.randrange(len(decision.options))


class FirstAgent:
    """Always the first legal option: a deterministic baseline."""

    def __init__(self, seed: object = 0):
        pass

    def choose(self, game: Game, decision: Decision) -> int:
        return 0


AGENT_KINDS = {"random": RandomAgent, "first": FirstAgent}


def make_agent(kind: str, seed: object) -> Agent:
    try:
        return AGENT_KINDS[kind](seed)
    except KeyError:
        raise ValueError(f"unknown agent `{kind}` (known: {', '.join(AGENT_KINDS)})") from None
