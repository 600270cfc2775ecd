"""The rules in plain English: a ruleset, one card, or one named rule, as a designer reads them.

Every sentence comes from the constructs' own `describe()` (language/tree.py), so the words can
never drift from what the interpreter runs.
"""
from __future__ import annotations

from ..content.model import CardData, Ruleset
from ..language.diagnostics import did_you_mean
from ..language.tree import Node

__all__ = ["explain", "explain_card", "UnknownSubject"]


class UnknownSubject(ValueError):
    """Neither a card nor a named rule of the ruleset (the message says so, with a suggestion)."""


def explain(rs: Ruleset, subject: str | None = None) -> str:
    """The whole ruleset, or the card or named rule `subject` (a card name, or the name of a zone,
    stat, constant, event, card type, procedure, function, phase or board)."""
    if subject is None:
        return "\n\n".join(_module_text(m) for m in rs.content.modules if m.decls)
    cards = [c for c in rs.cards if c.name == subject]
    if cards:  # copies that read the same are shown once
        return "\n\n".join(dict.fromkeys(explain_card(c) for c in cards))
    decl = _named(rs).get(subject)
    if decl is not None:
        return decl.describe()
    names = sorted({c.name for c in rs.cards} | set(_named(rs)))
    hint = did_you_mean(subject, names)
    raise UnknownSubject(f"`{subject}` is neither a card nor a named rule of {rs.title}"
                         + (f"; {hint}" if hint else ""))


def explain_card(card: CardData) -> str:
    """`Name (Type; field value, ...)` and, when it has one, the card's effect in English."""
    fields = "; ".join(f"{k.replace('_', ' ')} {v}" for k, v in card.fields.items() if not k.startswith("__"))
    head = f"{card.name} ({card.type}" + (f"; {fields}" if fields else "") + ")"
    return head if card.effect is None else f"{head}\n{card.effect.describe()}"


def _module_text(module: Node) -> str:
    return "\n".join(d.describe() for d in module.decls)


def _named(rs: Ruleset) -> dict[str, Node]:
    """Every declaration a designer can name, by name (as the ruleset finally has it, mods applied)."""
    out: dict[str, Node] = {}
    for table in (rs.card_types, rs.constants, rs.procedures, rs.functions, rs.phases, rs.boards):
        out.update({name: d for name, d in table.items() if isinstance(d, Node)})
    for module in rs.content.modules:
        for d in module.decls:
            name = getattr(d, "name", None)
            if isinstance(name, str) and d.kind in ("zone", "stat", "event", "die_type"):
                out.setdefault(name, d)
    return out
