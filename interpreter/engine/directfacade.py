"""What the task engine's `Game` offers people and tools, given to games of direct code too.

Sessions, scenarios, the terminal, `grimoire serve` and the guided agent use a game through one
interface (docs/api.md): `decision`, `answer`, `view`, `label`, `log`, `digests`, `preferences`,
`scores`, `held`. `DirectGame` (and so `ResumableGame`) takes this mix-in, so that each of them
can run on the generated code (`engine.factory.new_game` picks the engine).

Both engines keep the same `GameState` (zones of card ids, stats holding cards as cards), so
what a seat sees is made from the state by one implementation for both (views.py, `SeatViews`). Rule-language expressions that are no part of the compiled program —
a ruleset's `prefer` rules, a scenario's `values:` — are evaluated by the task engine's compiled
form over this game's state (`evaluator`): the same code, the same answers.
"""
from __future__ import annotations

import copy
from typing import Any

from ..content.model import CardData
from .game import Decision, Game, Limits
from .views import SeatViews

__all__ = ["DirectFacade"]


class DirectFacade(SeatViews):
    """The `Game` interface that direct code's driver (`DirectGame`) lacks by itself."""

    # a state digest per decision, for event logs, saves and replays (sessions set it; batches
    # and search copies leave it off: a digest costs a walk over the whole state)
    record_digests = False
    # scenarios script dice through this (direct code refuses rulesets with dice: never read)
    forced_rolls: list = []
    _evaluator: Game | None = None

    # told what the state does not show (`Game.observer`); only games of the observed form of
    # the code (directobserved.py) tell it of decisions taken without asking and of shuffles
    observer: Any = None

    def note_digest(self) -> None:
        """Keep the state's digest at the decision just asked (`Game._run` does the same)."""
        if self.record_digests and self.decision is not None:
            self.__dict__.setdefault("digests", []).append(self.state.digest())

    @property
    def digests(self) -> list[str]:
        return self.__dict__.setdefault("digests", [])

    def label(self, v: Any) -> str:
        """A value as options and logs show it (a card given as a card or by its id)."""
        return self.R.label(v.id if isinstance(v, CardData) else v)

    def evaluator(self) -> Game:
        """A task-engine `Game` over this game's state, to evaluate rule-language expressions
        that the compiled program does not hold (a `prefer` rule, a scenario's `values:`). It
        shares the state (so an expression that draws from the RNG draws as it would in the task
        engine); its constants were evaluated as the game's were, before setup."""
        ev = self._evaluator
        if ev is None:
            ev = self._evaluator = _evaluator(self)
        elif ev.state is not self.state:  # a copy of the game (clone): its constants are the same
            ev = self._evaluator = copy.copy(ev)
            ev.state, ev._seats, ev._placement_cache = self.state, [], None
        return ev

    def values(self) -> list[float] | None:
        """`Game.values`: every seat's `value` now, by the task engine's code over this game's
        state (None when the ruleset declares none)."""
        if self.program.value is None:
            return None
        ev = self.evaluator()
        ev.work = 0  # counted per question, as for `preferences`
        return ev.values()

    def preferences(self, decision: Decision) -> list[float] | None:
        """`Game.preferences`: each option by the ruleset's `prefer` rule for it; card options
        (ids in direct code) are given to the rule as the cards themselves."""
        if self.program.prefer is None:
            return None
        ev = self.evaluator()
        ev.work = 0  # counted per question: the game's own work limit is its generated code's
        # an action decision's labels name the option that ends the actions (`prefer ... for action`)
        task = Decision(decision.player, decision.kind, decision.prompt, self.option_values(decision),
                        decision.labels if decision.kind == "action" else None, decision.loc, ev.label)
        return ev.preferences(task)

    def option_values(self, decision: Decision) -> list:
        """The options of `decision` as the task engine offers them: a card as the card, where
        direct code offers its id. An int option is a card when it is labelled as that card (a
        choice among numbers is labelled by the numbers)."""
        cards, label = self.cards, self.R.label
        labels = decision.labels
        return [cards[o] if type(o) is int and 0 <= o < len(cards) and labels[i] == label(o)
                else _task_value(o, cards) if type(o) is tuple else o
                for i, o in enumerate(decision.options)]

    def observe_turn(self) -> None:
        """A turn begins (as `TurnTask` tells it: before the turn's settling and its start triggers)."""
        if hasattr(self.observer, "turn_started"):
            self.observer.turn_started(self)

    def arranged(self) -> None:
        """The caller changed the state directly (a scenario's `setup:`, in `after_setup`): take
        which cards lie covered from the state again, and let every state-based rule look."""
        R = self.R
        covered = R.covered
        covered[:] = bytes(len(covered))
        for below in self.state.under.values():
            for c in below:
                covered[c] = 1
        R.grid_version += 1
        R.touched = -1  # directgame.ANYTHING: anything may have changed

    def constants_value(self, name: str) -> Any:
        """A constant's value as the task engine holds it (for scenarios' `stats:` checks)."""
        return self.evaluator().constants.get(name)


def _task_value(v: Any, cards: list) -> Any:
    """A part of a tuple option (a walk over spaces) as the task engine has it: a card id as the
    card, a tuple as a list; players, text and flags as they are."""
    if type(v) is int:
        return cards[v]
    if type(v) is tuple:
        return [_task_value(x, cards) for x in v]
    return v


def _evaluator(game: Any) -> Game:
    """A `Game` that runs no rules: `Game.__init__`'s fields, its constants evaluated on a fresh
    state of the same seed (as the game's own were, before anything else drew from the RNG), then
    pointed at `game`'s state."""
    ev = Game.__new__(Game)
    st = game.state
    ev.init_fields(game.program, st.players, st.seed, Limits(), False, None)
    ev.cards = game.cards
    ev._init_state()
    ev.init_values()
    ev.state = st
    return ev
