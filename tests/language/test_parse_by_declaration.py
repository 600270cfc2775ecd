"""An editor's parse (`parse_rules_by_declaration`: each top-level declaration parsed on its own and
kept between edits, moved when lines above it change) gives exactly the tree and the diagnostics a
fresh parse of the whole file gives, edit after edit, broken or not."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter.language.parser import parse_rules_by_declaration, parse_rules_partial

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "rulesets").glob("*/*.rules"))


def _same(text: str, name: str, memo) -> None:
    fresh, fresh_diags = parse_rules_partial(text, name)
    kept, kept_diags = parse_rules_by_declaration(text, name, memo)
    assert repr(kept) == repr(fresh)  # every node, every field, every location
    assert [d.to_json() for d in kept_diags] == [d.to_json() for d in fresh_diags]


def _edits(text: str, rng: random.Random) -> list[str]:
    """What typing does: a line added at the top, one removed, a character inserted or deleted
    anywhere (often a syntax error), then the text restored."""
    lines = text.split("\n")
    out = ["\n" + text, text.replace("\n", "", 1), text]
    for _ in range(6):
        at = rng.randrange(len(text))
        out.append(text[:at] + rng.choice(["x", ":", "(", " ", "\n", "\n    "]) + text[at:])
        out.append(text[:at] + text[at + 1:])
    out.append("\n".join(lines[len(lines) // 2:] + lines[:len(lines) // 2]))  # declarations moved around
    return out + [text]


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_editing_session_parses_like_a_fresh_parse(path):
    text = path.read_text(encoding="utf-8")
    memo_store: dict = {}

    def memo(key, make):
        if key not in memo_store:
            memo_store[key] = make()
        return memo_store[key]

    name = str(path.relative_to(ROOT))
    for edited in _edits(text, random.Random(path.name)):
        _same(edited, name, memo)


def test_only_the_edited_declaration_is_parsed_again():
    text = (ROOT / "rulesets" / "talisman" / "game.rules").read_text(encoding="utf-8")
    made: list = []

    def memo(key, make, store={}):
        if key not in store:
            made.append(key[0])
            store[key] = make()
        return store[key]

    parse_rules_by_declaration(text, "game.rules", memo)
    first = len(made)
    made.clear()
    at = text.rindex("\n    ", 0, len(text) // 2)
    parse_rules_by_declaration(text[:at] + "\n    # a comment" + text[at:], "game.rules", memo)
    assert first > 50 and made.count("declaration") == 1  # one declaration parsed; the ones below moved
