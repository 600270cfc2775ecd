"""The task engine's closures evaluated on a direct-compiled game: a ruleset's `value` and
`prefer` rules (what bots should value), which direct code does not compile.

Both engines keep the same `GameState` (zones of card ids, stats holding the cards themselves),
so a task engine `Game` that shares the direct game's state evaluates those expressions exactly
as the task engine would. The view is made from a template (a task engine game of the same
ruleset and player count, made once) with the direct game's state put in; a decision's options
(card ids, walks as tuples of ids) become the task engine's (cards, lists of cards). Evaluating
changes nothing: these rules only read.
"""
from __future__ import annotations

from typing import Any

from ..runtime.values import Seat
from .game import Game, Decision

__all__ = ["task_view", "task_decision"]

_FRESH = {"log": [], "choices": [], "digests": [], "decision": None, "steps": 0, "work": 0, "depth": 0,
          "touched": None, "dirty": False, "settling": False, "stack": [], "forced_rolls": [],
          "record_digests": False, "_after_setup": None}


def task_view(game: Any) -> Game:
    """A task engine `Game` reading `game`'s state (a direct game's), for evaluating only."""
    program = game.program
    templates = program.__dict__.setdefault("_task_views", {})
    players = game.state.players
    tpl = templates.get(players)
    if tpl is None:
        seed = Game(program, players, 0, record_digests=False)
        tpl = templates[players] = dict(seed.__dict__)
        tpl.pop("observer", None)
    view = Game.__new__(Game)
    view.__dict__.update(tpl)
    view.__dict__.update(_FRESH)
    view.log, view.choices, view.stack = [], [], []
    view.state = game.state
    view._seats = []
    view.__dict__["_placement_cache"] = None
    return view


def _task_value(v: Any, cards: list) -> Any:
    """A direct option as the task engine has it: a card id as the card, a walk as a list."""
    if v is None or isinstance(v, (bool, str, float, Seat)):
        return v
    if type(v) is int:
        return cards[v]
    if isinstance(v, (tuple, list)):
        return [_task_value(x, cards) for x in v]
    return v


def task_decision(game: Any, d: Decision) -> Decision:
    """`d` with its options as the task engine would give them (labels kept)."""
    cards = game.program.rs.cards
    return Decision(d.player, d.kind, d.prompt, [_task_value(o, cards) for o in d.options],
                    d._labels, d.loc, d._label_of)  # labels by index: the same
