"""Each rule's reduction is written for its shape (parser.py's `_reductions`) and its code kept in
the user's cache: read back, it parses as when compiled; a broken file or another generator costs
only the compilation. (That the trees are those of Lark's own parse tree transformed afterwards,
positions included, is tests/language/test_parse_positions.py's; mutants and errors go through
test_fast_parse.py.)"""
from __future__ import annotations

import marshal
from pathlib import Path

import pytest

from interpreter.language import parser

ROOT = Path(__file__).resolve().parents[2]


def _tables() -> dict:
    return parser._larkside().tables_from_lark(parser._lark())


def _parsed(reductions: list, tables: dict, text: str, start: str) -> str:
    loop = parser.FastParser(tables, reductions)
    parser._PARSING.ast = parser._Builder(parser.Place("f.rules"))
    try:
        return repr(loop.parse(text, start, parser.MAX_NESTING).value)
    finally:
        parser._PARSING.ast = None


def test_kept_code_is_read_back_and_parses_the_same(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    tables = _tables()
    kept = tmp_path / "grimoire" / "reductions.marshal"
    kept.unlink(missing_ok=True)  # (Lark's parser, if made here, kept its reductions)
    text = (ROOT / "rulesets" / "tutorial_fireflies" / "game.rules").read_text(encoding="utf-8")
    compiled = _parsed(parser._reductions(tables["rules"], keep=False), tables, text, "start")
    assert not kept.exists()  # keep=False: nothing written
    first = parser._reductions(tables["rules"])
    assert kept.exists()
    with monkeypatch.context() as m:  # read back: nothing compiled
        m.setattr(parser, "compile", lambda *a: pytest.fail("compiled again"), raising=False)
        again = parser._reductions(tables["rules"])
    assert _parsed(first, tables, text, "start") == _parsed(again, tables, text, "start") == compiled
    assert [r is None for r in again] == [parser._passes_on(f) for f in tables["rules"]]
    kept.write_bytes(b"not marshal")
    assert _parsed(parser._reductions(tables["rules"]), tables, text, "start") == compiled
    key, _ = marshal.loads(kept.read_bytes())  # written again
    assert key[3] is not None and key[3] == parser._reducer_source.__code__


def test_another_generator_or_other_shapes_compile_again(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    tables = _tables()
    parser._reductions(tables["rules"])
    kept = tmp_path / "grimoire" / "reductions.marshal"
    key, code = marshal.loads(kept.read_bytes())
    kept.write_bytes(marshal.dumps(((key[0], key[1], key[2], (lambda: None).__code__), code)))
    calls = []
    real = compile
    monkeypatch.setattr(parser, "compile", lambda *a: calls.append(1) or real(*a), raising=False)
    parser._reductions(tables["rules"])
    assert calls == [1]  # the generator in the key is not this one: compiled, and kept again
    assert marshal.loads(kept.read_bytes())[0] == key
    parser._reductions(tables["rules"][:5])  # other shapes (five rules'): compiled
    assert calls == [1, 1]


def test_rules_of_one_shape_share_its_code_with_their_own_name_and_build():
    rules = parser._lark().parser.parser.parser.callbacks
    facts = [parser._larkside().rule_facts(r) for r in rules]
    reductions = parser._reductions(facts, keep=False)
    by_code: dict = {}
    for f, r in zip(facts, reductions):
        if r is not None:
            by_code.setdefault(r.__code__, set()).add(f[0])
    assert len(by_code) < len([r for r in reductions if r is not None])  # shapes are shared
    name = facts.index(next(f for f in facts if f[0] == "name"))
    int_lit = facts.index(next(f for f in facts if f[0] == "int_lit"))
    assert reductions[name].__code__ is reductions[int_lit].__code__  # one shape, two constructs
    parser._PARSING.ast = parser._Builder(parser.Place("f.rules"))
    try:
        tok = parser.Token("NAME", "x", 0, 1, 1, 1, 2, 1)
        num = parser.Token("INT", "7", 0, 1, 1, 1, 2, 1)
        assert type(reductions[name]([tok]).value).__name__ == "Name"
        assert type(reductions[int_lit]([num]).value).__name__ == "Lit"
    finally:
        parser._PARSING.ast = None
