"""Opt-in check that a card's hand-written `text:` still says what its effect does.

A designer writes `text:` for the printed card and `effect:` for the interpreter; when one is edited
and the other is not, the printed card lies. The check is rough on purpose: every number (2 and up)
in the effect's English (`describe()`) must also appear in the text, as digits or as a word
("two dice"). 0 and 1 are left out: the English says "more than 0" where a card says "any".
It is opt-in (`grimoire cards RULESET --check-text`) because hand-written text may rightly
leave out what the rules add (a solo variant's numbers, say).
"""
from __future__ import annotations

import re

from ..content.loader import Content
from ..language.diagnostics import Diagnostic

__all__ = ["text_drift"]

_WORDS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split())}
_WORDS |= {"once": "1", "twice": "2", "double": "2", "triple": "3"}
_NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")


def _numbers(text: str) -> set[str]:
    found = set(_NUMBER.findall(text))
    found |= {_WORDS[w] for w in re.findall(r"[a-z]+", text.lower()) if w in _WORDS}
    return found


def text_drift(content: Content) -> list[Diagnostic]:
    """A warning for each card whose text leaves out a number its effect uses."""
    out: list[Diagnostic] = []
    seen: set[tuple[str, str]] = set()
    for spec in content.cards:
        if not spec.text or spec.effect is None:
            continue
        if (spec.name, spec.text) in seen:
            continue
        seen.add((spec.name, spec.text))
        english = spec.effect.describe()
        missing = sorted(_numbers(english) - _numbers(spec.text) - {"0", "1"}, key=int)
        if missing:
            out.append(Diagnostic(
                "warning", "cards/text-drift",
                f"the text of `{spec.name}` does not mention {', '.join(missing)}, which its effect uses",
                spec.loc, f"the effect reads: {english}"))
    return out
