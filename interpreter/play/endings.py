"""Whether a game's rules can end with no winner, asked once per program by the search agents.

Where they can (`end game ... with no winner`: every player loses), a finished playout that ends so
scores 0 for every seat, and a playout cut before the end must score a seat still in the game above
that loss: `agents._value_shares` then takes 0, not the last seat's value, as the bottom of its
scale. In a game that someone always wins, being last is what losing looks like, and the last seat
keeps scoring 0. The question itself is the analysis stage's (`analysis.effects`).
"""
from __future__ import annotations

import weakref
from typing import Any

from ..analysis.effects import can_end_with_no_winner as _rules_can
from ..engine.directgame import DirectGame

__all__ = ["can_end_with_no_winner"]

_KNOWN: "weakref.WeakKeyDictionary[Any, bool]" = weakref.WeakKeyDictionary()


def can_end_with_no_winner(game: DirectGame) -> bool:
    """True when some rule or card of `game`'s ruleset says `end game ... with no winner`
    (looked up once per program: a playout asks at every cut)."""
    program = game.program
    known = _KNOWN.get(program)
    if known is None:
        known = _KNOWN[program] = _rules_can(game.rs)
    return known
