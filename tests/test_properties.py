"""Property-based tests (hypothesis, derandomized so every run tries the same cases) for issue 8:
(a) generated and mutated rule texts, and (b) mutated card YAML, go through the loader and checker
(`api.check_path`) without raising anything but diagnostics; content that still checks cleanly
also compiles and plays a few seeded steps without an exception escaping `Game`; (c) any
sequence of answers applied to a seeded game of every ruleset never raises out of `Game`,
and the same seed and answers give the same state digests (also through `Game.clone()`)."""
from __future__ import annotations

from typing import Any
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekit import played_rulesets
from interpreter.api import check_path
from interpreter.language.diagnostics import Diagnostic
from interpreter.engine.game import Limits, Program
from interpreter.content.loader import find_cards_dir
from interpreter.engine.factory import new_game

ROOT = Path(__file__).resolve().parent.parent
RULESETS = played_rulesets()
IDS = [p.name for p in RULESETS]
SOURCES = {p.name: (p / "game.rules").read_text(encoding="utf-8") for p in RULESETS}
FAST = [n for n in SOURCES if n != "stonehenge_wizards"]  # the big ruleset takes ~0.5 s a check
CARD_FILES = {f"{p.name}/{f.name}": f.read_text(encoding="utf-8")
              for p in RULESETS for f in sorted(find_cards_dir(p).glob("*.y*ml"))}

KEYWORDS = re.findall(r'"([a-z_]+)"', (ROOT / "grammar" / "grimoire.lark").read_text(encoding="utf-8"))
VOCAB = sorted(set(KEYWORDS) | set(re.findall(r"\S+", "\n".join(SOURCES.values())))
               | {":", "(", ")", "[", "]", "{", "}", ",", ".", "==", "+=", "-", "*", "/", "%", "..", "\"", "#",
                  "\t", "\\", "0", "-1", "99999999999999999999", "1e309", "é", "\u202e", "\x00", "\r"})

LIMITS = dict(max_steps=20_000, max_turns=60, max_decisions=300, max_depth=32, max_work=200_000)
SETTINGS = dict(derandomize=True, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])

_WORK = Path(tempfile.mkdtemp(prefix="grimoire-props-"))
_count = [0]
PLAYED: list[Path] = []  # the generated rulesets that checked cleanly and were played


def fresh_dir() -> Path:
    _count[0] += 1
    d = _WORK / f"rs{_count[0]}"
    d.mkdir()
    return d


@pytest.fixture(scope="module", autouse=True)
def _cleanup():
    yield
    print(f"\n{len(PLAYED)} of {_count[0]} generated rulesets checked cleanly and were played")
    shutil.rmtree(_WORK, ignore_errors=True)


def assert_diagnostics_only(d: Path) -> None:
    """check_path must return; each diagnostic is well formed; clean content must also play."""
    rs, content = check_path(d)
    for diag in content.diagnostics:
        assert isinstance(diag, Diagnostic) and diag.severity in ("error", "warning", "note", "info"), diag
        assert diag.message and isinstance(diag.message, str)
        if diag.loc is not None:
            assert diag.loc.line >= 1 and diag.loc.col >= 1, diag
            assert str(diag.loc).count(":") >= 2
        assert "Traceback" not in diag.message
    if rs is None or not content.ok:
        assert rs is not None or content.diagnostics, "nothing built, nothing said"
        return
    PLAYED.append(d)
    program = Program(rs)  # a RuleError here would be a compile step the checker let through
    for seed in (0, 1):
        g = new_game(program, rs.min_players, seed, limits=Limits(**LIMITS))
        n = 0
        while not g.over and n < 60:
            g.answer(n % len(g.decision.options))
            n += 1
        # a game is either waiting for a decision or over, with a result or a located rule error
        assert (g.decision is not None and g.decision.options) if not g.over else \
            (g.result is not None) != (g.error is not None), (g.over, g.result, g.error)


def write_ruleset(d: Path, rules: str, cards_from: str | None = None, cards: dict[str, str] | None = None) -> Path:
    (d / "game.rules").write_text(rules, encoding="utf-8", errors="surrogatepass")
    (d / "cards").mkdir()
    if cards_from is not None:
        for f in sorted(find_cards_dir(ROOT / "rulesets" / cards_from).glob("*.y*ml")):
            shutil.copy(f, d / "cards" / f.name)
    for name, text in (cards or {}).items():
        (d / "cards" / name).write_text(text, encoding="utf-8", errors="surrogatepass")
    return d


# ---- (a) rule texts ----------------------------------------------------------------------------

@st.composite
def edited_lines(draw, text: str) -> str:
    """A few line- and token-level edits of a real rule file."""
    lines = text.splitlines()
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            lines = [""]
        i = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "indent", "dedent", "token", "replace",
                                   "truncate", "insert_line"]))
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "indent":
            lines[i] = draw(st.sampled_from(["    ", "  ", "\t", " "])) + lines[i]
        elif op == "dedent":
            lines[i] = lines[i].lstrip()
        elif op in ("token", "replace"):
            words = lines[i].split(" ")
            k = draw(st.integers(0, len(words)))
            tok = draw(st.sampled_from(VOCAB))
            if op == "token" or k == len(words):
                words.insert(k, tok)
            else:
                words[k] = tok
            lines[i] = " ".join(words)
        elif op == "truncate":
            lines[i] = lines[i][:draw(st.integers(0, len(lines[i])))]
            if draw(st.booleans()):
                lines = lines[:i + 1]
        else:
            lines.insert(i, draw(st.sampled_from(GENERATED_LINES)))
    return "\n".join(lines) + draw(st.sampled_from(["\n", "", "\n\n\n", "\r\n"]))


GENERATED_LINES = [
    "turn:", "    pass", "    repeat:", "        break", "setup:", "always:", "    n += 1", "stat n = 0",
    "stat n: 0..3", "player stat s: 0..9", "event e", "when e:", "    fire e", "procedure f(x):",
    "    f(x)", "function g(x): g(x)", "    end game", "score p: 1 / 0", "constant k = [1, 2][5]",
    "zone z: pile, shared, public", "card type T:", "    v: 1..", "    move all_cards() to z",
    "    if you may \"?\":", "        continue", "    while true:", "    let a = " + "(" * 300 + "1" + ")" * 300,
    "    log " + " + ".join(["1"] * 400), "as soon as n > 2:", "placement in z as row:",
    "    for each p in players:", "        " * 70 + "pass", "game \"X\":", "    players 0..1000",
]


@st.composite
def generated_rules(draw) -> str:
    """Small rule files from the language's statements, well or badly nested."""
    head = draw(st.sampled_from(['game "G":\n    players 2..4\n', 'game "G":\n    players 3\n', ""]))
    body = draw(st.lists(st.sampled_from(GENERATED_LINES), min_size=1, max_size=14))
    return head + "\n".join(body) + "\n"


@settings(max_examples=20, **SETTINGS)
@given(name=st.sampled_from(FAST), data=st.data())
def test_mutated_rule_files_give_diagnostics_not_exceptions(name, data):
    text = data.draw(edited_lines(SOURCES[name]))
    assert_diagnostics_only(write_ruleset(fresh_dir(), text, cards_from=name))


@settings(max_examples=2, **SETTINGS)
@given(data=st.data())
def test_mutated_big_ruleset_gives_diagnostics_not_exceptions(data):
    name = "stonehenge_wizards" if "stonehenge_wizards" in SOURCES else IDS[-1]
    text = data.draw(edited_lines(SOURCES[name]))
    assert_diagnostics_only(write_ruleset(fresh_dir(), text, cards_from=name))


@settings(max_examples=30, **SETTINGS)
@given(text=generated_rules(), with_cards=st.booleans())
def test_generated_rule_files_give_diagnostics_not_exceptions(text, with_cards):
    cards = {"c.yaml": "- {name: A, type: T, v: 1}\n- {name: B, type: T, v: 2, copies: 3}\n"} if with_cards else None
    assert_diagnostics_only(write_ruleset(fresh_dir(), text, cards=cards))


@settings(max_examples=15, **SETTINGS)
@given(text=st.text(st.characters(blacklist_categories=["Cs"]), max_size=300))
def test_arbitrary_text_as_a_rule_file(text):
    assert_diagnostics_only(write_ruleset(fresh_dir(), text))


# ---- (b) card files ----------------------------------------------------------------------------

HOSTILE_VALUES = [
    "!!python/object/apply:os.system ['touch PWNED']", "!!python/name:os.system", "!custom 3",
    "!!binary aGVsbG8=", "!!set {a, b}", "!!omap [a: 1]", "!!timestamp 2001-12-14", "&a [*a]", "*nowhere",
    "[" * 80 + "]" * 80, "{a: " * 60 + "1" + "}" * 60, "null", "~", "true", "-1", "1e400", ".nan", "0x1F",
    "99999999999999999999999", "''", "\"\\u0000\"", "[1, 2]", "{x: 1}", "|\n    when drawn:\n        fire nope",
    "|\n    when drawn:\n      " + "if true:\n          " * 3 + "pass", "\"when drawn:\\n    move x to y\"",
    "? [complex, key]", "- a", "'unterminated", "\t tab", "\u202e\u200b", "1..3", "Gold | Red",
]
FIELD_NAMES = ["name", "type", "copies", "effect", "text", "value", "color", "glow", "kind", "cards",
               "unknown_field", "<<", "__node__", "1", "null"]
BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8))


@st.composite
def edited_cards(draw, text: str) -> str:
    lines = text.splitlines() or [""]
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["value", "value", "field", "delete", "duplicate", "indent", "raw"]))
        if op == "value":
            key = lines[i].split(":", 1)[0] if ":" in lines[i] else "  " + draw(st.sampled_from(FIELD_NAMES))
            value = draw(st.one_of(st.sampled_from(HOSTILE_VALUES), st.integers().map(str),
                                   st.text(max_size=20).map(repr)))
            lines[i] = f"{key}: {value}"
        elif op == "field":
            pad = re.match(r"\s*(- )?", lines[i]).group(0).replace("-", " ") or "  "
            lines.insert(i + 1, f"{pad}{draw(st.sampled_from(FIELD_NAMES))}: {draw(st.sampled_from(HOSTILE_VALUES))}")
        elif op == "delete":
            del lines[i]
            lines = lines or [""]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "indent":
            lines[i] = draw(st.sampled_from(["  ", "\t", "- "])) + lines[i]
        else:
            lines.insert(i, draw(st.sampled_from(HOSTILE_VALUES + [BOMB, "%YAML 9.9", "---", "...", "cards:"])))
    return "\n".join(lines) + "\n"


@settings(max_examples=25, **SETTINGS)
@given(key=st.sampled_from([k for k in CARD_FILES if k.split("/")[0] in FAST]), data=st.data())
def test_mutated_card_files_give_diagnostics_not_exceptions(key, data):
    name, fname = key.split("/")
    text = data.draw(edited_cards(CARD_FILES[key]))
    d = write_ruleset(fresh_dir(), SOURCES[name], cards_from=name, cards={fname: text})
    assert_diagnostics_only(d)
    assert not (d / "PWNED").exists() and not Path("PWNED").exists()


def card_value():
    leaf = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=True),
                     st.text(max_size=12), st.sampled_from(["Gold", "Frog", "1..3", "when drawn:\n    pass"]))
    return st.recursive(leaf, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                      st.dictionaries(st.text(max_size=5), inner, max_size=3)),
                        max_leaves=8)


@settings(max_examples=15, **SETTINGS)
@given(cards=st.lists(st.dictionaries(st.sampled_from(FIELD_NAMES), card_value(), max_size=6),
                      max_size=4),
       depth=st.integers(0, 120), tagged=st.booleans())
def test_generated_card_values_of_any_type(cards, depth, tagged):
    """Cards as JSON-ish YAML with fields of any type (and optionally deep nesting or a tag)."""
    import json
    text = json.dumps(cards) + "\n"
    if depth:
        text = "- name: Deep\n  type: Firefly\n  glow: " + "[" * depth + "1" + "]" * depth + "\n"
    if tagged:
        text = text.replace("\n", "\n- !!python/object/new:os.system [echo hi]\n", 1)
    d = write_ruleset(fresh_dir(), SOURCES["tutorial_fireflies"], cards_from="tutorial_fireflies",
                      cards={"extra.yaml": text})
    assert_diagnostics_only(d)


@pytest.mark.parametrize("value", ["[]", "{a: 1}"])
def test_card_type_that_is_a_list_or_map(value):
    d = write_ruleset(fresh_dir(), SOURCES["tutorial_fireflies"], cards_from="tutorial_fireflies",
                      cards={"extra.yaml": f"- name: X\n  type: {value}\n"})
    assert_diagnostics_only(d)


# ---- (c) any answers to a seeded game of every ruleset ------------------------------------------

def play(program, players: int, seed: int, answers: list[int], split: int | None = None) -> Any:
    g = new_game(program, players, seed)
    clone = None
    for n, a in enumerate(answers):
        if g.over:
            break
        if n == split:
            clone = g.clone()
        g.answer(a % len(g.decision.options))
    guard = 0
    while not g.over:  # finish with answers that depend only on the decision number
        if len(g.choices) == split:
            clone = g.clone()
        g.answer(len(g.choices) * 7919 % len(g.decision.options))
        guard += 1
        assert guard < 20_000
    if clone is not None:  # a copy made mid-game, answered the same, ends the same
        for c in g.choices[len(clone.choices):]:
            clone.answer(c)
        assert clone.over and clone.digests == g.digests and clone.result == g.result
        assert clone.state.digest() == g.state.digest()
    return g


@pytest.mark.parametrize("path", RULESETS, ids=IDS)
def test_any_answers_never_raise_out_of_game_and_replay_the_same(path):
    from interpreter.api import load_program
    program = load_program(path)
    rs = program.rs

    @settings(max_examples={"stonehenge_wizards": 3, "toil_and_troublez": 4}.get(path.name, 6), **SETTINGS)
    @given(players=st.integers(rs.min_players, rs.max_players), seed=st.integers(0, 2 ** 32),
           answers=st.lists(st.integers(0, 10 ** 6), max_size=400), split=st.none() | st.integers(0, 60))
    def check(players, seed, answers, split):
        g = play(program, players, seed, answers, split)
        assert g.over and g.error is None, g.error
        assert g.result is not None and len(g.result["scores"]) >= players
        h = new_game(program, players, seed)
        for c in g.choices:
            assert not h.over
            h.answer(c)
        assert h.over and h.digests == g.digests and h.result == g.result and h.log == g.log

    check()
