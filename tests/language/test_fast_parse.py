"""The one-loop parser (language/fastparse.py) must give what Lark's own lexer, indenter and parser
give: the same constructs at the same positions for text that parses, and for text that does not,
the same diagnostics (it hands such text to Lark). Checked on every shipped rule file and on a few
hundred mutants of them (a character dropped, doubled or replaced, a bracket opened, a line
indented wrongly), against the parser with the loop switched off."""
from __future__ import annotations

import marshal
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

import interpreter.content.loader as loader
import interpreter.language.fastparse as fastparse
from interpreter.analysis.validate import check_path
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
        parser._PARSING.ast = parser._ToAst(parser.Place(path.name))
        try:
            built = fast.parse(text if text.endswith("\n") else text + "\n", "start", parser.MAX_NESTING)
        finally:
            parser._PARSING.ast = None
        assert built.value.decls, path  # parsed by the loop, not handed to Lark


def test_the_loop_hands_errors_to_lark():
    fast = parser._fast()
    parser._PARSING.ast = parser._ToAst(parser.Place("t.rules"))
    try:
        for bad in ("game \"T\":\n    players 2\n  zone x: pile\n", "zone deck: pile, shared, hidden)\n",
                    "turn:\n    move 3 % from deck\n", "turn:\n    log 'x'\n"):
            with pytest.raises(Unusual):
                fast.parse(bad, "start", parser.MAX_NESTING)
    finally:
        parser._PARSING.ast = None


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


def test_the_tables_come_from_their_cache_without_lark(monkeypatch, tmp_path):
    """The loop's tables are kept in a cache file (plain data): a fresh process with the file
    reads them and parses a correct text without importing Lark; one without it builds them
    from Lark's and writes the file; a file for another grammar or version is not used."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
    code = ("import sys; from interpreter.language.parser import parse_rules, parse_effect; "
            "parse_rules(open(sys.argv[1], encoding='utf-8').read(), 'g.rules'); "
            "parse_effect('when played:\\n    draw 1 from deck to hand\\n', 'c.yaml', block=True); "
            "print('lark' in sys.modules)")

    def run() -> str:
        return subprocess.run([sys.executable, "-c", code, str(RULE_FILES[0])], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
    assert run() == "True"  # no cache yet: Lark's tables are read, and kept
    cache = tmp_path / "grimoire" / "fastparse.marshal"
    assert cache.is_file()
    assert run() == "False"  # from the cache: no Lark at all
    key, tables = marshal.loads(cache.read_bytes())
    cache.write_bytes(marshal.dumps(("another grammar", tables)))
    assert run() == "True"  # a key that is not this grammar's: built again from Lark's
    cache.write_bytes(b"not marshal data")
    assert run() == "True"
    assert marshal.loads(cache.read_bytes())[0] == key


def test_cached_tables_parse_as_lark_s_own():
    """The tables as read back from their cache file give the loop the same parse as the tables
    just read from Lark, and each scanner's kept compiled form is the pattern `re` compiles."""
    tables = parser._larkside().tables_from_lark(parser._lark())
    again = marshal.loads(marshal.dumps(tables))
    assert again == tables
    for spec in tables["scanners"]:
        form = marshal.loads(spec[5])
        assert form is not None  # this Python's `re`: every form kept
        assert fastparse._compile(spec[0], spec[1], form) == re.compile(spec[0], spec[1])
        per_char, default, subsets = marshal.loads(spec[6])  # every scanner has its dispatch
        for pattern, form in subsets:
            assert form is not None and fastparse._compile(pattern, spec[1], form) == re.compile(pattern, spec[1])
    assert fastparse._compile("a|b", 0, (0, [1, 2, 3], 0, {}, (None,))) == re.compile("a|b")  # a bad form: compiled
    loops = [fastparse.FastParser(t, [parser._reduction(f) for f in t["rules"]]) for t in (tables, again)]
    for path in RULE_FILES:
        text = path.read_text(encoding="utf-8")
        text += "" if text.endswith("\n") else "\n"
        built = []
        for loop in loops:
            parser._PARSING.ast = parser._Builder(parser.Place(path.name))
            try:
                built.append(repr(loop.parse(text, "start", parser.MAX_NESTING).value))
            finally:
                parser._PARSING.ast = None
        assert built[0] == built[1], path


def _whole(spec: tuple):
    """A scanner's whole alternation, as Lark's contextual lexer runs it."""
    return re.compile(spec[0], spec[1]).match


def _same(m1, m2) -> bool:
    return (m1 is None and m2 is None) or (m1 is not None and m2 is not None and
                                            (m1.group(), m1.lastgroup) == (m2.group(), m2.lastgroup))


def _matcher(dispatched, char: str):
    """What the loop makes of `_first`'s answer for `char`, as a `match`: a one-character terminal
    (`(name, char)`, taken without a pattern) as the pattern of that terminal alone."""
    if dispatched.__class__ is not tuple:
        return dispatched
    name, value = dispatched
    assert value == char
    return re.compile(f"(?P<{name}>{re.escape(value)})").match


def test_every_token_of_every_shipped_text_is_the_whole_scanner_s(monkeypatch):
    """The loop picks a scanner's branches by the token's first character (larkside's
    `first_char_dispatch`): every match it makes lexing every shipped rule file and card effect
    is the one the whole alternation makes at that place (same text, same terminal)."""
    fast = parser._fast()
    checked, wrong = [], []

    def first(self, i, char):
        dispatched, whole = _matcher(original(self, i, char), char), _whole(self.scanners[i])

        def match(text, pos):
            m = dispatched(text, pos)
            if not _same(m, whole(text, pos)):  # kept, not raised: the parser words any exception
                wrong.append((i, text[pos:pos + 30]))
            checked.append(m is not None)
            return m
        return match
    original = fastparse.FastParser._first
    monkeypatch.setattr(fastparse.FastParser, "_first", first)
    monkeypatch.setattr(fast, "lexers", {})
    monkeypatch.setattr(fast, "compiled", {})
    saved = dict(loader._PROCESS_CACHE)
    loader._PROCESS_CACHE.clear()  # nothing parsed before: every file and effect parsed here
    try:
        for folder in sorted({p.parent for p in RULE_FILES}):
            check_path(folder)  # its rule files and every card's effect, through the wrapped scanners
    finally:
        loader._PROCESS_CACHE.clear()
        loader._PROCESS_CACHE.update(saved)
    assert not wrong
    assert len(checked) > 50_000 and all(checked)


def test_the_dispatch_keeps_the_branch_the_whole_scanner_picks():
    """Every scanner at the start of texts beginning with every character its terminals can start
    with, and others (a space, a quote, a digit, a letter no keyword starts with, a character no
    terminal takes, a text that ends there): the dispatched match is the whole alternation's."""
    fast = parser._fast()
    chars = set(map(chr, range(1, 256))) | {"\u2014", "\u00e9", "\U0001F600"}
    for i, spec in enumerate(fast.scanners):
        chars |= set(marshal.loads(spec[6])[0])
    tails = ["", "a", "x1", "_b", "1", "12 times", " ", "\n", "\n    x", "\"s\"", "# c\n", "=", "way", " way",
             "top", "n", "nd", "ter", "\u2014"]
    for i, spec in enumerate(fast.scanners):
        whole = _whole(spec)
        for c in sorted(chars):
            for tail in tails:
                text = "x" + c + tail
                assert _same(_matcher(fast._first(i, c), c)(text, 1), whole(text, 1)), (i, text)


def test_one_character_terminals_are_taken_without_a_match():
    """A subset that is one terminal of one character (as Lark writes a one-character string) is
    taken by the loop without `sre`; anything that may match otherwise keeps its pattern."""
    assert fastparse._literal("(?P<LPAR>\\()", 0, "(") == "LPAR"
    assert fastparse._literal("(?P<COMMA>,)", 0, ",") == "COMMA"
    assert fastparse._literal("(?P<A>a)", 0, "a") == "A"
    assert fastparse._literal("(?P<DOT>.)", 0, ".") is None  # any character: not the literal
    assert fastparse._literal("(?P<END>$)", 0, "$") is None  # an assertion, which matches nothing
    assert fastparse._literal("(?P<EQ>=)|(?P<EQEQ>==)", 0, "=") is None  # two terminals
    assert fastparse._literal("(?P<EQEQ>==)", 0, "=") is None
    assert fastparse._literal("(?P<A>a+)", 0, "a") is None
    assert fastparse._literal("(?P<A>a)", re.VERBOSE, "a") is None
    fast = parser._fast()
    taken = {(i, c): fast._first(i, c) for i, spec in enumerate(fast.scanners) for c in "(),:[]{}"}
    assert any(v.__class__ is tuple for v in taken.values())  # today's grammar has them

def _with_locs(node) -> list:
    """Every construct of a tree with its location (a construct's repr leaves its location out)."""
    from interpreter.language.tree import walk
    return [(n.kind, n.loc) for n in walk(node)]


def test_a_lone_space_is_skipped_as_the_ignored_terminal_would_be(monkeypatch):
    """The loop skips one space after a token without a match (`lone_space`, which holds for this
    grammar: in every scanner a space starts only the ignored `[\\t \\f]+`); runs of spaces, tabs,
    form feeds, a space before a line's end or the text's end go through the scanner. The
    constructs and their locations are those of Lark alone."""
    assert parser._fast().lone_space is True
    text = ('game "T":\n    players 2\n\nzone deck: pile, shared, hidden\n\n'
            "turn: \n    let a = 1 +  2 *\t3 \n    let b =\x0c a  -  (a)\n"
            "    if a  >  b :\n        log \"x  y\" \n    set a to [ 1 , 2 ] \n"
            "score p: a + b ")
    fast = parser.parse_rules(text, "t.rules")
    with monkeypatch.context() as m:
        m.setattr(parser, "_fast", lambda: None)
        plain = parser.parse_rules(text, "t.rules")
    assert repr(fast) == repr(plain) and _with_locs(fast) == _with_locs(plain)
    loop = parser._fast()
    assert "lone_space" in loop.__dict__ and not parser._larkside()._lone_space([])
    spec = loop.scanners[0]
    per_char, default, subsets = marshal.loads(spec[6])
    other = [(s if i != per_char.get(" ", default) else ("(?P<X>[ ]+)|" + s[0], s[1])) for i, s in enumerate(subsets)]
    changed = spec[:6] + (marshal.dumps((per_char, default, other)),) + spec[7:]
    assert parser._larkside()._lone_space([changed]) is False  # a space may start another terminal
    assert parser._larkside()._lone_space([spec]) is True
