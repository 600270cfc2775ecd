"""The parser builds each construct as Lark reduces its rule, with its own child filter and position
bookkeeping in place of Lark's (`parser._reductions`): the trees must be exactly those of the plain way,
Lark's own parse tree with `propagate_positions` then `_ToAst` over it, on every shipped rule file
and card effect."""
from __future__ import annotations

from pathlib import Path

import pytest
from lark import Lark
from ruamel.yaml import YAML

from interpreter.language.parser import GRAMMAR_PATH, Place, _Indenter, _ToAst, parse_effect, parse_rules

ROOT = Path(__file__).resolve().parents[2]
RULE_FILES = sorted((ROOT / "rulesets").glob("*/*.rules"))


@pytest.fixture(scope="module")
def plain() -> Lark:
    return Lark(GRAMMAR_PATH.read_text(encoding="utf-8"), parser="lalr", start=["start", "effect"],
                postlex=_Indenter(), propagate_positions=True, maybe_placeholders=True)


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_rule_files_parse_as_the_plain_way(plain, path):
    text = path.read_text(encoding="utf-8")
    expected = _ToAst(Place(path.name)).transform(plain.parse(text, start="start"))
    assert repr(parse_rules(text, path.name)) == repr(expected)


def test_card_effects_parse_as_the_plain_way(plain):
    effects = []
    for f in sorted((ROOT / "cards").glob("*/*.yaml")):
        data = YAML().load(f.read_text(encoding="utf-8"))
        cards = data.get("cards", []) if isinstance(data, dict) else data or []
        effects += [str(c["effect"]) for c in cards if isinstance(c, dict) and isinstance(c.get("effect"), str)]
    assert len(effects) > 100
    for text in effects:
        text = text if text.endswith("\n") else text + "\n"
        expected = _ToAst(Place("c.yaml", 3, 4)).transform(plain.parse(text, start="effect"))
        assert repr(parse_effect(text, "c.yaml", 3, 4, block=True)) == repr(expected), text
