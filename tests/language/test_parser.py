"""The parser on its own: the grammar is conflict-free, nodes know where their names are,
card effects map back into their YAML file, and syntax errors are worded, located and
reported one per broken declaration — never as a traceback."""
from __future__ import annotations

import pytest
from lark import Lark

from interpreter.language.tree import Node, walk
from interpreter.language.diagnostics import ContentError, Diagnostic
from interpreter.language.parser import (GRAMMAR_PATH, MAX_NESTING, MAX_SOURCE_BYTES, _Indenter, parse_effect, parse_rules,
                                parse_rules_partial)

HEADER = 'game "T":\n    players 2\n\nzone deck: pile, shared, hidden\n\n'


def _errors(text: str) -> list[Diagnostic]:
    _, diags = parse_rules_partial(text, "t.rules")
    return diags


def _one_error(text: str) -> Diagnostic:
    diags = _errors(text)
    assert len(diags) == 1, "\n".join(d.format() for d in diags)
    return diags[0]


def _find(node: Node, kind: str) -> Node:
    return next(n for n in walk(node) if n.kind == kind)


def test_grammar_has_no_conflicts() -> None:
    Lark(GRAMMAR_PATH.read_text(encoding="utf-8"), parser="lalr", start=["start", "effect"], postlex=_Indenter(),
         strict=True)


# ---- locations -----------------------------------------------------------------------------------

def test_names_carry_their_own_location() -> None:
    m = parse_rules(HEADER + "event hit\n\nturn:\n    fire hit on top(deck).value by you\n"
                    "    move deck to trove of you\n    let n = count(deck)\n", "t.rules")
    assert (_find(m, "attr").name_loc.line, _find(m, "attr").name_loc.col) == (9, 27)
    assert (_find(m, "of").name_loc.col, _find(m, "of").name_loc.end_col) == (18, 23)
    fire = _find(m, "fire")
    assert (fire.event_loc.line, fire.event_loc.col) == (9, 10)
    call = next(n for n in walk(m) if n.kind == "call" and n.func == "count")
    assert (call.name_loc.line, call.name_loc.col, call.name_loc.end_col) == (11, 13, 18)
    zone = next(d for d in m.decls if d.kind == "zone")
    assert (zone.name_loc.line, zone.name_loc.col) == (4, 6)


def test_block_effect_positions_are_shifted_on_every_line() -> None:
    eff = parse_effect("when hit:\n    move this to pile\n", "c.yaml", line_offset=7, col_offset=4, block=True)
    trig = eff.triggers[0]
    assert (trig.event_loc.line, trig.event_loc.col) == (8, 10)
    move = trig.body[0]
    assert (move.loc.line, move.loc.col) == (9, 9)


def test_inline_effect_positions_are_shifted_on_the_first_line_only() -> None:
    with pytest.raises(ContentError) as e:
        parse_effect("when hit: pass", "c.yaml", line_offset=3, col_offset=20)
    d = e.value.diagnostics[0]
    assert (d.loc.line, d.loc.col) == (4, 31)


def test_multiline_inline_effect_is_reported_at_its_start() -> None:
    with pytest.raises(ContentError) as e:
        parse_effect("when hit:\n    move this to\n", "c.yaml", line_offset=3, col_offset=20)
    assert [(d.loc.line, d.loc.col) for d in e.value.diagnostics] == [(4, 21)]


# ---- syntax errors -------------------------------------------------------------------------------

@pytest.mark.parametrize("text, line, col, message, hint", [
    ("turn:\n    if x = 1:\n        pass\n", 2, 10, "unexpected `=`", "compare with `==`"),
    ("turn:\n    if count(x) = 1:\n        pass\n", 2, 17, "unexpected `=`", "compare with `==`"),
    ("turn:\n    x = 1\n", 2, 7, "unexpected `=`", "set NAME to"),
    ("turn:\n    if x:\n        pass\n    else if y:\n        pass\n", 4, 10, "unexpected `if`", "`elif`"),
    ("turn:\n    for p in players:\n        pass\n", 2, 9, "unexpected name `p`", "for each NAME"),
    ("turn: pass\n", 1, 7, "unexpected `pass`", "next line"),
    ("turn:\n    if x: pass\n", 2, 11, "unexpected `pass`", "next line"),
    ("turn\n    pass\n", 1, 5, "expected `:` at the end of this line", "ends with `:`"),
    ("turn:  # the turn\n    if x   # comment\n        pass\n", 2, 9, "expected `:`", None),
    ("turn:\npass\n", 2, 1, "expected an indented block here", "indented"),
    ("turn:\n    pass\n        pass\n", 3, 9, "unexpected indentation", "only a line ending with `:`"),
    ("turn:\n    if x:\n        pass\n      pass\n", 4, 7, "indentation matches no enclosing block", "column 5 or 9"),
    ("score p: count(deck\n", 1, 15, "`(` is not closed", "close it with `)`"),
    ("turn:\n    let a = [1, 2\n    pass\n", 2, 13, "`[` is not closed", "`]`"),
    ("turn:\n    move all_cards( to deck\n", 2, 24, "unexpected name `deck`", "`(` at column 19 is not closed"),
    ("game 'x':\n    players 2\n", 1, 6, "unexpected character `'`", "double quotes"),
    ("turn:\n    let x = 1;\n", 2, 14, "unexpected character `;`", "remove the `;`"),
    ("score p: a && b\n", 1, 12, "unexpected character `&`", "`and`"),
    ("turn:\n    shufle deck\n", 2, 5, "`shufle` does not start a statement", "did you mean `shuffle`?"),
    ("zon deck: pile\n", 1, 1, "`zon` does not start", "did you mean `zone`?"),
    ('score p: "abc\n', 1, 10, "unexpected character", "close the text"),
    ("constant x = 2 +\n", 1, 17, "the line ends too early", "expected a value"),
])
def test_syntax_error_wording(text: str, line: int, col: int, message: str, hint: str | None) -> None:
    d = _one_error(text)
    assert (d.code, d.loc.line, d.loc.col) == ("syntax", line, col), d.format()
    assert message in d.message, d.format()
    if hint is not None:
        assert d.hint and hint in d.hint, d.format()
    assert d.source_line == text.split("\n")[line - 1]


@pytest.mark.parametrize("word", ["and", "or"])
def test_a_may_joined_to_a_condition_is_refused_in_words(word: str) -> None:
    """`if x and you may "..."` parses as `(x and you) may "..."`: a player's `may` by an `and`."""
    d = _one_error(f'turn:\n    if x {word} you may "Go?":\n        pass\n')
    assert (d.code, d.loc.line, d.loc.col) == ("syntax", 2, 8), d.format()
    assert f"`{word}` cannot join a `may`" in d.message and "if you may" in d.hint


def test_one_error_per_broken_declaration_and_the_rest_still_parses() -> None:
    text = HEADER + ("turn\n    pass\n\n"                  # missing colon
                     "procedure f(:\n    pass\n\n"        # bad parameter list
                     "zone hand: set, per player\n\n"     # fine
                     "score p count(hand of p)\n")         # missing colon
    module, diags = parse_rules_partial(text, "t.rules")
    assert [(d.loc.line, d.loc.col) for d in diags] == [(6, 5), (9, 13), (14, 9)]
    assert [d.kind for d in module.decls] == ["game", "zone", "zone"]
    assert sorted(module.unparsed) == [("procedure", "f"), ("score", ""), ("turn", "")]


def test_parse_rules_raises_with_every_syntax_error() -> None:
    with pytest.raises(ContentError) as e:
        parse_rules("turn\n    pass\n\nscore p count(x)\n", "t.rules")
    assert len(e.value.diagnostics) == 2


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment", "# c\n\n   \n# d\n", "\ufeff", "\t\n",
                                  "turn:\n    pass", "turn:\r\n    pass\r\n", "turn:\n    pass\n# end"])
def test_odd_but_harmless_texts(text: str) -> None:
    parse_rules_partial(text, "t.rules")  # no exception, whatever it says


def test_crlf_line_endings_parse() -> None:
    assert parse_rules(HEADER.replace("\n", "\r\n") + "turn:\r\n    shuffle deck\r\n", "t.rules").decls


def test_texts_keep_escapes_and_accents() -> None:
    m = parse_rules('turn:\n    log "a\\"b\\\\c\\n é \\x"\n', "t.rules")
    assert _find(m, "lit").value == 'a"b\\c\n é \\x'


# ---- limits: untrusted files cannot exhaust the parser or the stages after it ------------------------

def test_deep_brackets_are_refused() -> None:
    d = _one_error("score p: count(" + "[" * 5000 + "1" + "]" * 5000 + ")\n")
    assert d.code == "limit/depth"


def test_long_operator_chains_are_refused() -> None:
    d = _one_error("score p: " + " + ".join(["1"] * 3000) + "\n")
    assert d.code == "limit/depth"


def test_deep_blocks_are_refused() -> None:
    text = "turn:\n" + "".join("  " * i + "if x:\n" for i in range(1, MAX_NESTING + 5)) + "  " * 70 + "pass\n"
    assert _one_error(text).code == "limit/depth"


def test_huge_file_is_refused() -> None:
    d = _one_error("# " + "x" * MAX_SOURCE_BYTES + "\n")
    assert d.code == "limit/size"


def _too_deep_by_full_walk(root: Node):
    """parser._too_deep as it was written first: every field of every node, every node visited."""
    from interpreter.language.limits import MAX_AST_DEPTH, MAX_BINDING_NESTING
    stack = [(root, 0, 0)]
    while stack:
        n, d, b = stack.pop()
        if d > MAX_AST_DEPTH:
            return n, False
        if n.kind in ("where", "comprehension", "quantified"):
            b += 1
            if b > MAX_BINDING_NESTING:
                return n, True
        stack += [(c, d + 1, b) for c in n.children()]
    return None


@pytest.mark.parametrize("depth", [150, 190, 196, 197, 198, 199, 200, 201, 202, 260])
def test_the_depth_check_finds_the_node_a_full_walk_finds(depth: int) -> None:
    """The depth check reads only each construct's `node_fields` and skips leaves that cannot be
    too deep (a name, a number): the node it reports is the one a walk over every field and node
    reports, whether the deepest is a leaf, a bracket or a binding, at each depth around the limit."""
    from interpreter.language import parser
    texts = ["score p: " + "-(" * depth + "x" + ")" * depth + "\n",
             "score p: " + "not " * depth + "y\n",
             "score p: " + "count(" * depth + "[1, z]" + ")" * depth + "\n",
             "score p: count(" + "[q for each q in " * (depth // 40) + "[1]" + " where q > 0]" * (depth // 40) + ")\n"]
    for text in texts:
        tree = parser._raw_parse(HEADER + text, "start", parser.Place("t.rules"))
        found, expected = parser._too_deep(tree), _too_deep_by_full_walk(tree)
        assert (found is None) == (expected is None), text[:40]
        if found is not None:
            assert found[0] is expected[0] and found[1] == expected[1], text[:40]
