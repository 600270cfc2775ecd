"""`prefer p for action "LABEL": EXPR` — guided bots' preferences among the actions of a decision.

Why apart from the prompt rules: every `take actions` decision asks the same "Choose an action",
so a prompt cannot tell its options apart; the labels the rules and cards declare for their
actions (`action "Walk"`, a card's `action "Pay 2: walk twice"`) and the text that ends the
actions (`take actions "Stop"`) can. Generated code offers an action option as a tuple whose
second item is the `action` declaration and whose fifth is the card offering it
(`action_decision`, as `DirectFacade.option_values` gives it to the rules), and the option that
ends the actions as `None`, last, labelled by its text; that is all this module reads.
"""
from __future__ import annotations

from typing import Any, Callable

__all__ = ["declared_label", "action_rules_of"]

# (label prefix, binder, compiled expression or None, the `prefer` declaration), longest label first
ActionRule = tuple[str, str, Callable, Any]


def declared_label(option: Any, index: int, labels: list[str]) -> tuple[str | None, Any]:
    """An action decision's option as its rules declared it: (its label, the card offering it or
    None); the option that ends the actions is its text (`take actions "Stop"`)."""
    if option is None:
        return (labels[index] if labels is not None and index < len(labels) else None), None
    if isinstance(option, (tuple, list)) and len(option) == 5:
        node = option[1]
        return getattr(node, "label", None), option[4]
    return None, None


def action_rules_of(rules: list[ActionRule], options: list, labels: list[str]) \
        -> list[tuple[ActionRule, str, Any] | None] | None:
    """For each option of an action decision, the rule that rates it (the longest label its
    declared label begins with) with that label and its card, or None; None when no rule rates
    any option (the decision is then rated as before such rules existed)."""
    out: list[tuple[ActionRule, str, Any] | None] = []
    for i, option in enumerate(options):
        label, card = declared_label(option, i, labels)
        rule = next((r for r in rules if label is not None and label.startswith(r[0])), None)
        out.append((rule, label, card) if rule is not None else None)
    return out if any(r is not None for r in out) else None
