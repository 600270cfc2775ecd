"""`prefer p for action "LABEL": EXPR` — guided bots' preferences among the actions of a decision.

Why apart from the prompt rules: every `take actions` decision asks the same "Choose an action",
so a prompt cannot tell its options apart; the labels the rules and cards declare for their
actions (`action "Walk"`, a card's `action "Pay 2: walk twice"`) and the text that ends the
actions (`take actions "Stop"`) can. Both engines offer an action option as a tuple or
list whose second item is the `action` declaration and whose fifth is the card offering it (the
task engine's `ActionsTask`, direct code's `action_decision` as `DirectGame.option_values` gives it
to the task engine's code), and the option that ends the actions as `None`, last, labelled by its
text; that is all this module reads, so the rules rate the options alike on both.
"""
from __future__ import annotations

from typing import Any, Callable

__all__ = ["compile_action_prefs", "declared_label", "action_rules_of"]

# (label prefix, binder, compiled expression, the `prefer` declaration), longest label first
ActionRule = tuple[str, str, Callable, Any]


def compile_action_prefs(compiler: Any, prefers: list) -> list[ActionRule]:
    """The ruleset's `prefer ... for action` rules, compiled, the longest label first (the most
    specific rule wins, as the longest prompt does)."""
    rules = [(d.action, d.binder, compiler.expr(d.expr), d) for d in prefers if getattr(d, "action", None) is not None]
    return sorted(rules, key=lambda r: -len(r[0]))


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
