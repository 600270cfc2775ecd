"""What the task engine's `Game` offers people and tools, given to games of direct code too.

Sessions, scenarios, the terminal, `grimoire serve` and the guided agent use a game through one
interface (docs/api.md): `decision`, `answer`, `view`, `label`, `log`, `digests`, `preferences`,
`scores`, `held`. `DirectGame` (and so `ResumableGame`) takes this mix-in, so that each of them
can run on the generated code (`engine.factory.new_game` picks the engine).

Both engines keep the same `GameState` (zones of card ids, stats holding cards as cards), so
what a seat sees is made from the state by one implementation for both (views.py, `SeatViews`).
Rule-language expressions that are no part of the compiled program — a ruleset's `prefer` and
`value` rules, a scenario's `values:`, the parts of a failed rule — are compiled by direct code on
their own (directeval.py) and evaluated on this game's runtime.
"""
from __future__ import annotations

from typing import Any

from ..content.model import CardData
from ..runtime.errors import RuleError
from .actionprefs import action_rules_of
from .directeval import (Unsupported, as_list, bound_name, evaluate, option_kind, prefer_rule_for, prefer_rules,
                         rule_value)
from .game import Decision
from .views import SeatViews

__all__ = ["DirectFacade"]


class DirectFacade(SeatViews):
    """The `Game` interface that direct code's driver (`DirectGame`) lacks by itself."""

    # a state digest per decision, for event logs, saves and replays (sessions set it; batches
    # and search copies leave it off: a digest costs a walk over the whole state)
    record_digests = False
    # scenarios script dice through this (direct code refuses rulesets with dice: never read)
    forced_rolls: list = []

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

    @property
    def built(self) -> int:
        """`Game.built`: the list items and text characters built so far (its memory budget)."""
        return self.R.built

    def label(self, v: Any) -> str:
        """A value as options and logs show it (a card given as a card or by its id)."""
        return self.R.label(v.id if isinstance(v, CardData) else v)

    def values(self) -> list[float] | None:
        """`Game.values`: every seat's `value` now (None when the ruleset declares none), by the
        rule compiled on its own (directeval.py) where the game's module does not hold it."""
        if not self.rs.values:
            return None
        decl = self.rs.values[0]
        out = []
        for p in self.seats:
            v = self._rule_value(decl, [("you", "player", p), (decl.binder, "player", p)])
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                what = "none" if v is None else "a truth value" if isinstance(v, bool) else "not a number"
                raise RuleError(f"the value of player {int(p) + 1} is {what}: `value` must give a number", decl.loc)
            out.append(float(v))
        return out

    def preferences(self, decision: Decision) -> list[float] | None:
        """`Game.preferences`: each option by the ruleset's `prefer` rule for it (the longest
        prompt the decision's prompt begins with, else the rule without one; an action by the
        `prefer ... for action` rule of its label), `none` counting 0; None when no rule applies."""
        dp = self.dp
        by_prompt, by_label = prefer_rules(dp)
        if not by_prompt and not by_label:  # no `prefer` rule at all (a search's playouts ask at every decision)
            return None
        rule = prefer_rule_for(dp, decision.prompt or "")
        by_action = action_rules_of(by_label, decision.options, decision.labels) \
            if decision.kind == "action" and by_label else None
        if rule is None and by_action is None:
            return None
        me = self.seats[decision.player]
        labels = decision.labels
        out = []
        for i, option in enumerate(decision.options):
            named = by_action[i] if by_action is not None else None
            if named is not None:  # `prefer p for action "LABEL"`: `it` the label, `this` the card
                (_, binder, _, decl), label, card = named
                card = card.id if isinstance(card, CardData) else card
                names = [("you", "player", me), (binder, "player", me), ("it", "none" if label is None else "str", label),
                         ("this", "none" if card is None else "card", card)]
            elif rule is not None:
                _, binder, _, decl = rule
                names = [("you", "player", me), (binder, "player", me), ("it", *option_kind(self, option, labels[i]))]
            else:  # an option no rule names, beside options that a rule for actions rates
                out.append(0.0)
                continue
            v = self._rule_value(decl, names)
            if v is None:
                v = 0
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                what = "a truth value" if isinstance(v, bool) else "not a number"
                shown = named[1] if named is not None else labels[i]
                raise RuleError(f"the preference of player {decision.player + 1} for {shown} is {what}: "
                                "`prefer` must give a number (or none)", decl.loc)
            out.append(float(v))
        return out

    def _rule_value(self, decl: Any, names: list) -> Any:
        """A bot's rule (`value`, `prefer`) evaluated now; a failure names the rule. Where the
        rule does not compile for its option's kind (a text among cards, `last(it)` of a single
        value), the option is given as any value of a list of options would be (a card only if
        it is one), then as the list the rules make of a single value."""
        try:
            return evaluate(self, decl.expr, names, decl.loc)
        except Unsupported as why:
            refused = why
        last = names[-1] if names else None
        if last is not None and last[0] == "it" and last[1] not in ("mixed", "int"):  # the other ways, made
            # only now: a search's playouts ask a rule at every decision and nearly always the first compiles
            for bound in (names[:-1] + [("it", "item", last[2])], names[:-1] + [("it", "mixed", as_list(last[2]))]):
                try:
                    return evaluate(self, decl.expr, bound, decl.loc)
                except Unsupported as why:
                    refused = why
        raise RuleError(f"this rule cannot be evaluated ({refused})", decl.loc) from None

    def expression_value(self, node: Any, env: dict | None, tell: bool = True, kinds: dict | None = None) -> Any:
        """An expression of the rules (a scenario's `values:`, a failed rule's part) evaluated now
        with the variables `env` (rule values: cards as cards); `Unsupported` when direct code
        cannot compile it; with `tell` false, a failure is Python's own (engine/blame.py).
        `kinds`: a variable's kind where known, so that a none variable is read as that kind."""
        kinds = kinds or {}
        names = [(k, kinds[k], v) if v is None and k in kinds else bound_name(k, v) for k, v in (env or {}).items()]
        return evaluate(self, node, names, None, tell)

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
        """A constant's value as the rules give it (a card as the card; for scenarios' `stats:`
        checks), None for a name that is no constant."""
        const = self.R.const
        if name not in const:
            return None
        return rule_value(const[name], self.dp.info["expr_kinds"][2].get(name, "any"), self.cards)


def _task_value(v: Any, cards: list) -> Any:
    """A part of a tuple option (a walk over spaces) as the task engine has it: a card id as the
    card, a tuple as a list; players, text and flags as they are."""
    if type(v) is int:
        return cards[v]
    if type(v) is tuple:
        return [_task_value(x, cards) for x in v]
    return v
