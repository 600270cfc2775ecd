"""Whether a ruleset's rules can end a game with no winner, for the search agents' scoring.

Where they can (`end game ... with no winner`: every player loses), a finished playout that ends so
scores 0 for every seat, and a playout cut before the end must score a seat still in the game above
that loss: `agents._value_shares` then takes 0, not the last seat's value, as the bottom of its
scale. In a game that someone always wins, being last is what losing looks like, and the last seat
keeps scoring 0.
"""
from __future__ import annotations

import dataclasses
import weakref
from typing import Any, Iterator

from ..engine.directgame import DirectGame
from ..language.tree import EndStmt, Node, walk

__all__ = ["can_end_with_no_winner"]

_KNOWN: "weakref.WeakKeyDictionary[Any, bool]" = weakref.WeakKeyDictionary()


def can_end_with_no_winner(game: DirectGame) -> bool:
    """True when some rule or card of `game`'s ruleset says `end game ... with no winner`
    (looked up once per program)."""
    program = game.program
    known = _KNOWN.get(program)
    if known is None:
        known = _KNOWN[program] = any(isinstance(n, EndStmt) and n.no_winner
                                      for root in _roots(game.rs) for n in walk(root))
    return known


def _roots(rs: Any) -> Iterator[Node]:
    """Every syntax tree the ruleset holds: its declarations (kept in lists and dicts by kind) and
    its cards' effects."""
    for f in dataclasses.fields(rs):
        value = getattr(rs, f.name)
        items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else [value]
        for item in items:
            for x in item if isinstance(item, list) else [item]:
                if isinstance(x, Node):
                    yield x
                elif getattr(x, "effect", None) is not None and isinstance(x.effect, Node):
                    yield x.effect
