"""Checks of `prefer p for action "LABEL": EXPR` (docs/language.md, option preferences).

Why: such a rule names an option by the label the rules or cards declare for it; a misspelt label
matches nothing, and the bots would silently ignore the designer's word. So a label that no
declared action begins with, nor any text that ends `take actions`, is an error at the rule, with
the closest label as a hint.
"""
from __future__ import annotations

from typing import Any

from ..language.tree import walk
from ..content.model import Ruleset

__all__ = ["action_option_labels", "check_action_prefers"]


def action_option_labels(rs: Ruleset) -> set[str]:
    """Every label an action decision of this ruleset can offer: the rules' and cards' `action
    "LABEL"` declarations and the texts that end `take actions` ("Done" when none is given)."""
    roots: list[Any] = list(rs.content.modules)
    roots += [card.effect for card in rs.cards if card.effect is not None]
    roots += list(rs.content.unbuilt_effects)
    labels: set[str] = set()
    seen: set[int] = set()
    for root in roots:
        if id(root) in seen:
            continue
        seen.add(id(root))
        for n in walk(root):
            if n.kind == "action":
                labels.add(n.label)
            elif n.kind == "take_actions":
                labels.add(n.done)
    return labels


def check_action_prefers(rs: Ruleset) -> None:
    """Report every `prefer ... for action "LABEL"` whose LABEL begins no option's label."""
    rules = [d for d in rs.prefers if getattr(d, "action", None) is not None]
    if not rules or rs.partial:  # with rules that did not parse, a label may be declared there
        return
    labels = action_option_labels(rs)
    for d in rules:
        if any(label.startswith(d.action) for label in labels):
            continue
        import difflib  # only for a label no option has (see diagnostics.did_you_mean)
        close = difflib.get_close_matches(d.action, sorted(labels), n=1, cutoff=0.5)
        hint = f'did you mean "{close[0]}"?' if close else \
            "name an action as its `action \"LABEL\"` declares it, or the text that ends `take actions`"
        rs.content.error("prefer/action", f'no action decision offers an option labelled "{d.action}…": '
                         "no `action` declares such a label, and no `take actions` ends with it", d.action_loc or d.loc, hint)
