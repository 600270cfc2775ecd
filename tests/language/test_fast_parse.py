"""The one-loop parser (language/fastparse.py) must give what Lark's own lexer, indenter and parser
give: the same constructs at the same positions for text that parses, and for text that does not,
the same diagnostics (it hands such text to Lark). Checked on every shipped rule file and on a few
hundred mutants of them (a character dropped, doubled or replaced, a bracket opened, a line
indented wrongly), against the parser with the loop switched off."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import interpreter.language.parser as parser
from interpreter.language.fastparse import Unusual
from interpreter.language.parser import parse_effect, parse_rules_partial
from interpreter.language.diagnostics import ContentError

ROOT = Path(__file__).resolve().parents[2]
RULE_FILES = sorted((ROOT / "rulesets").glob("*/*.rules"))


def _both(monkeypatch, parse):
    """`parse()` with the loop, then with Lark alone: both results as text."""
    fast = repr(parse())
    with monkeypatch.context() as m:
        m.setattr(parser, "_fast", lambda: None)
        plain = repr(parse())
    return fast, plain


def test_the_loop_parses_every_shipped_file_itself():
    fast = parser._fast()
    assert fast is not None
    for path in RULE_FILES:
        text = path.read_text(encoding="utf-8")
        parser._PARSING.ast, parser._PARSING.error = parser._ToAst(parser.Place(path.name)), None
        try:
            built = fast.parse(text if text.endswith("\n") else text + "\n", "start", parser.MAX_NESTING)
        finally:
            parser._PARSING.ast = parser._PARSING.error = None
        assert built.value.decls, path  # parsed by the loop, not handed to Lark


def test_the_loop_hands_errors_to_lark():
    fast = parser._fast()
    parser._PARSING.ast, parser._PARSING.error = parser._ToAst(parser.Place("t.rules")), None
    try:
        for bad in ("game \"T\":\n    players 2\n  zone x: pile\n", "zone deck: pile, shared, hidden)\n",
                    "turn:\n    move 3 % from deck\n", "turn:\n    log 'x'\n"):
            with pytest.raises(Unusual):
                fast.parse(bad, "start", parser.MAX_NESTING)
    finally:
        parser._PARSING.ast = parser._PARSING.error = None


def _mutants(text: str, rng: random.Random, count: int) -> list[str]:
    out = []
    for _ in range(count):
        i = rng.randrange(len(text))
        kind = rng.randrange(6)
        if kind == 0:
            out.append(text[:i] + text[i + 1:])
        elif kind == 1:
            out.append(text[:i] + text[i] + text[i:])
        elif kind == 2:
            out.append(text[:i] + rng.choice("()[]{}:,.=+-\"#\t'x ") + text[i + 1:])
        elif kind == 3:
            out.append(text[:i] + rng.choice(["(", "[", "\n    ", "\n  ", " when ", " if ", " end "]) + text[i:])
        elif kind == 4:  # a line indented by one more or one less space
            lines = text.split("\n")
            j = rng.randrange(len(lines))
            lines[j] = (" " + lines[j]) if rng.random() < 0.5 else lines[j][1:]
            out.append("\n".join(lines))
        else:  # a whole line dropped
            lines = text.split("\n")
            del lines[rng.randrange(len(lines))]
            out.append("\n".join(lines))
    return out


@pytest.mark.parametrize("path", RULE_FILES[::4], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_mutants_parse_and_fail_as_with_lark_alone(monkeypatch, path):
    text = path.read_text(encoding="utf-8")
    rng = random.Random(path.name)
    clean = 0
    for mutant in _mutants(text, rng, 40):
        fast, plain = _both(monkeypatch, lambda: parse_rules_partial(mutant, path.name))
        assert fast == plain, mutant
        clean += "[]" == fast[-3:-1]
    assert clean > 0  # some mutants still parse (a trailing space, a doubled letter in a name)


def test_effect_mutants_as_with_lark_alone(monkeypatch):
    text = "when played:\n    if count(hand) > 2:\n        draw 1 from deck to hand\n    gain 2 gold\n"
    rng = random.Random(7)

    def effect(t):
        try:
            return parse_effect(t, "c.yaml", 3, 4, block=True)
        except ContentError as e:
            return e.diagnostics
    for mutant in [text] + _mutants(text, rng, 80):
        fast, plain = _both(monkeypatch, lambda: effect(mutant))
        assert fast == plain, mutant
