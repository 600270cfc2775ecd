"""Broken rule and card files: each diagnostic lands on the right file, line and column.

Every folder under tests/fixtures/broken/ is a small ruleset (a game.rules, and a cards/
folder where cards matter) with one kind of mistake; `clean` is the same game without any.
Each expectation names the text the column must point at, so a wrong column fails loudly.
"""
from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from interpreter.api import check_path
from interpreter.language.diagnostics import Diagnostic

ROOT = Path(__file__).resolve().parents[2]
BROKEN = Path(__file__).resolve().parents[1] / "fixtures" / "broken"
GAME = ROOT / "rulesets" / "toil_and_troublez"
GAME_CARDS = ROOT / "cards" / "toil_and_troublez"

R, Y = "game.rules", "cards/cards.yaml"

# case → every diagnostic expected, in report order (errors first, then by file, line, column):
# (code, file, line, column, text the column points at, words the hint must contain or None)
EXPECTED: dict[str, list[tuple[str, str, int, int, str, str | None]]] = {
    # ---- names --------------------------------------------------------------------------------
    "misspelt_zone": [("name/undefined", R, 20, 13, "dekc", "did you mean `deck`?")],
    "misspelt_player_zone": [("name/undefined", R, 32, 16, "hnad", "did you mean `hand`?")],
    "unknown_field_expr": [("field/unknown", R, 26, 10, "nubmer", "did you mean `number`?")],
    "bad_enum_expr": [("enum/value", R, 24, 34, "Steel", "did you mean `Steal`?")],
    "undefined_procedure": [("name/undefined", R, 26, 9, "steal_from", None)],
    "unknown_function": [("name/undefined", R, 32, 10, "cuont", "did you mean `count`?")],
    "unknown_card_type_is": [("name/undefined", R, 24, 13, "Spel", "did you mean `Spell`?")],
    "procedure_arity": [("call/arity", R, 26, 9, "keep", "keep(card, taker)")],
    "builtin_arity": [("call/arity", R, 32, 10, "count", "how many items")],
    "procedure_as_value": [("call/value", R, 35, 10, "tally", "on a line of its own")],
    "undeclared_event": [("name/undefined", R, 26, 14, "robbed", "event robbed"),
                         ("name/undefined", R, 30, 6, "stollen", "did you mean `stolen`?")],
    "break_outside_loop": [("flow/loop", R, 28, 9, "break", "repeat")],
    "zone_without_owner": [("zone/owner", R, 23, 23, "hand", "`your hand` or `hand of p`")],
    "shared_zone_with_owner": [("zone/owner", R, 20, 13, "deck", "write just `deck`")],
    "duplicate_decl": [("name/duplicate", R, 15, 6, "deck", None)],
    "zone_property": [("zone/property", R, 13, 21, "shraed", "did you mean `shared`?")],
    "card_field_reserved": [("card/field-name", R, 11, 5, "name", None)],
    "bad_players": [("game/players", R, 3, 13, "4..2", "players 2..4")],
    "many_errors": [("name/undefined", R, 20, 13, "dekc", "deck"),
                    ("field/unknown", R, 24, 25, "spel", "did you mean `spell`?"),
                    ("flow/loop", R, 28, 5, "break", None),
                    ("name/undefined", R, 33, 16, "hnad", "did you mean `hand`?")],
    "unused": [("unused/zone", R, 16, 6, "limbo", None),
               ("unused/stat", R, 17, 6, "gold", None),
               ("unused/procedure", R, 31, 11, "idle", None)],
    # ---- light type checks ----------------------------------------------------------------------
    "type_errors": [("type/argument", R, 26, 14, "5", "how many items"),
                    ("enum/value", R, 28, 20, "Red", "compare `number` with a number"),
                    ("type/cards", R, 30, 10, "3", None),
                    ("type/arith", R, 31, 13, "deck", "count(deck)"),
                    ("type/condition", R, 32, 8, "discard", "discard is empty")],
    # ---- syntax ---------------------------------------------------------------------------------
    "syntax_missing_colon": [("syntax", R, 22, 5, "", "ends with `:`")],
    "syntax_missing_colon_if": [("syntax", R, 26, 21, "", "ends with `:`")],
    "syntax_bad_indent": [("syntax", R, 26, 7, "shuffle", "column 5 or 9")],
    "syntax_unexpected_indent": [("syntax", R, 20, 9, "shuffle", "only a line ending with `:`")],
    "syntax_unclosed_paren": [("syntax", R, 32, 15, "(", "close it with `)`")],
    "syntax_unclosed_paren_inner": [("syntax", R, 19, 24, "deck", "`(` at column 19 is not closed")],
    "syntax_single_quote": [("syntax", R, 2, 6, "'Clean'", "double quotes")],
    "syntax_bad_char": [("syntax", R, 20, 17, ";", "remove the `;`")],
    "syntax_keyword_typo": [("syntax", R, 20, 5, "shufle", "did you mean `shuffle`?")],
    "syntax_else_if": [("syntax", R, 28, 10, "if", "`elif`")],
    "syntax_single_equals": [("syntax", R, 26, 17, "=", "compare with `==`")],
    "syntax_for_without_each": [("syntax", R, 33, 9, "p", "for each NAME in")],
    "syntax_block_on_same_line": [("syntax", R, 29, 14, "move", "next line")],
    "syntax_many": [("syntax", R, 22, 5, "", "ends with `:`"),
                    ("syntax", R, 32, 9, "count", "expected `:`")],
    # a declaration lost to a syntax error: its users are not reported as unknown names
    "syntax_lost_zone": [("syntax", R, 12, 11, "pile", "expected `:`")],
    "syntax_lost_card_type": [("syntax", R, 5, 14, "", "ends with `:`")],
    # one file's syntax error does not hide another file's (or its own file's) other errors
    # (a syntax error is reported first: it may be the cause of the errors after it)
    "syntax_and_check": [("syntax", "more.rules", 1, 21, "", "expected a value"),
                         ("name/undefined", R, 20, 13, "dekc", "deck")],
    # ---- cards ----------------------------------------------------------------------------------
    "yaml_unknown_field": [("cards/field", Y, 2, 31, "numbr", "did you mean `number`?")],
    "yaml_wrong_type": [("cards/field", Y, 1, 35, '"1"', "without quotes"),
                        ("cards/field", Y, 2, 39, "9", "from 1 to 5")],
    "yaml_bad_enum": [("cards/field", Y, 2, 49, "Bleu", "did you mean `Blue`?")],
    "yaml_syntax": [("yaml/syntax", Y, 6, 11, ":", "indentation")],
    "yaml_syntax_flow": [("yaml/syntax", Y, 2, 3, "{", "line 1, column 3 is not closed")],
    "yaml_tab": [("yaml/syntax", Y, 5, 1, "\t", "spaces")],
    "yaml_duplicate_key": [("yaml/duplicate-key", Y, 6, 3, "spell", None)],
    "yaml_missing_type": [("cards/type", Y, 2, 26, "Jewel", "card type Jewel")],
    "yaml_no_type": [("cards/type", Y, 3, 3, "name: Thief", "one of Gem, Spell")],
    "yaml_python_tag": [("yaml/tag", Y, 1, 3, "!!python", "plain data")],
    "yaml_bomb": [("limit/yaml-size", Y, 8, 6, "&f", "aliases")],
    # ---- card effects: positions point into the YAML file -------------------------------------
    "effect_syntax": [("syntax", Y, 10, 25, "", "ends with `:`")],
    "effect_check": [("name/undefined", Y, 10, 17, "dekc", "did you mean `deck`?")],
    "effect_flow_syntax": [("syntax", Y, 2, 88, "pass", "effect: |")],
    "effect_inline_multiline": [("name/undefined", Y, 2, 75, "when stolen", "deck")],
    "effect_block_many": [("name/undefined", Y, 11, 10, "stollen", "did you mean `stolen`?"),
                          ("name/undefined", Y, 12, 17, "dekc", "deck"),
                          ("zone/owner", Y, 13, 22, "hand", "your hand")],
    # ---- everything at once: rule syntax, rule names, card fields, YAML, over four files ----------
    # (what could not be read comes first, by file; then what the rest makes of it)
    "mixed": [("yaml/syntax", "cards/more.yaml", 3, 11, ":", None),
              ("syntax", R, 32, 9, "count", "expected `:`"),
              ("syntax", "more.rules", 1, 21, "", "expected a value"),
              ("cards/field", Y, 2, 49, "Bleu", "Blue"),
              ("name/undefined", R, 20, 13, "dekc", "deck")],
    "clean": [],
    # ---- silent mistakes ----------------------------------------------------------------------
    "no_cards": [("cards/none", R, 5, 11, "Gem", "card folder")],
    "unreachable": [("flow/unreachable", R, 32, 9, 'log "never"', "above `break`")],
    "card_trigger_never": [("trigger/never", Y, 14, 10, "turn_end", "whenever turn_end")],
    "card_event_without_subject": [("trigger/never", Y, 8, 10, "stolen", "fire it `on` the card")],
    "play_never_turns": [("flow/phase", R, 22, 1, "turn:", "play round")],
    "unused_event": [("unused/event", R, 17, 7, "robbed", "fire robbed on"),
                     ("unused/event", R, 18, 7, "shouted", "when shouted:")],
    # one misspelt word in `card type Spell:`: the only error, not one per Spell card and use
    "card_type_typo": [("syntax", R, 9, 6, "typ", "`type`")],
}


def _diagnostics(case: str) -> list[Diagnostic]:
    """The case's diagnostics; most cases are rules alone (no card folder, see README.md), so the
    warning that no card file gives any card counts only where a case expects it."""
    _, content = check_path(BROKEN / case)
    expected = {code for code, *_ in EXPECTED.get(case, [])}
    return [d for d in content.diagnostics if d.code != "cards/none" or "cards/none" in expected]


def test_every_fixture_has_expectations() -> None:
    folders = {p.name for p in BROKEN.iterdir() if p.is_dir()}
    assert folders == set(EXPECTED)


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_diagnostics_land_on_the_right_spot(case: str) -> None:
    diags = _diagnostics(case)
    got = [(d.code, d.loc.file, d.loc.line, d.loc.col) if d.loc else (d.code,) for d in diags]
    assert len(diags) == len(EXPECTED[case]), "\n".join(d.format() for d in diags)
    for d, (code, file, line, col, at, hint) in zip(diags, EXPECTED[case]):
        assert d.loc is not None and d.loc.file.replace("\\", "/").endswith(f"{case}/{file}"), got
        assert (d.code, d.loc.line, d.loc.col) == (code, line, col), d.format()
        src = (BROKEN / case / file).read_text(encoding="utf-8").split("\n")[line - 1]
        assert src[col - 1:].startswith(at), f"column {col} points at {src[col - 1:]!r}, not {at!r}"
        assert d.source_line == src, "the excerpt is the file's own line"
        if hint is not None:
            assert d.hint and hint in d.hint, d.format()
        assert "^" in d.format() and str(d.loc) in d.format()


def test_warnings_are_not_errors() -> None:
    diags = _diagnostics("unused")
    assert diags and all(d.severity == "warning" for d in diags)


def test_python_tag_is_never_run(tmp_path: Path) -> None:
    marker = Path("/tmp/grimoire_pwned")
    marker.unlink(missing_ok=True)
    _diagnostics("yaml_python_tag")
    assert not marker.exists()


def test_alias_bomb_is_refused_fast() -> None:
    start = time.perf_counter()
    diags = _diagnostics("yaml_bomb")
    assert time.perf_counter() - start < 1.0
    assert [d.code for d in diags] == ["limit/yaml-size"]


def test_a_card_file_alone_is_not_a_ruleset() -> None:
    _, content = check_path(GAME_CARDS / "cards.yaml")
    assert [d.code for d in content.diagnostics] == ["load/missing"]
    assert "ruleset folder" in content.diagnostics[0].hint


def test_real_game_is_clean() -> None:
    _, content = check_path(GAME)
    assert content.diagnostics == [], "\n".join(d.format() for d in content.diagnostics)


# ---- through the command line --------------------------------------------------------------------

def _validate(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "interpreter", "validate", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_cli_clean_exits_0_with_nothing_to_say() -> None:
    r = _validate(str(BROKEN / "clean"))
    assert (r.returncode, r.stdout.strip(), r.stderr) == (0, "no problems found", "")


def test_cli_warnings_exit_0_unless_strict() -> None:
    r = _validate(str(BROKEN / "unused"))
    assert r.returncode == 0 and "0 error(s), 4 warning(s)" in r.stdout  # 3 unused things, no cards
    assert _validate("--strict", str(BROKEN / "unused")).returncode == 1


def test_cli_text_shows_location_line_caret_and_hint() -> None:
    r = _validate("tests/fixtures/broken/misspelt_zone")
    assert r.returncode == 1
    assert r.stdout.splitlines()[:4] == [
        "tests/fixtures/broken/misspelt_zone/game.rules:20:13: error: unknown name `dekc` [name/undefined]",
        "        shuffle dekc",
        "                ^^^^",
        "    hint: did you mean `deck`?",
    ]


def test_cli_json_lists_every_problem_of_every_path() -> None:
    r = _validate("--format", "json", "tests/fixtures/broken/many_errors", "tests/fixtures/broken/yaml_bad_enum")
    assert r.returncode == 1
    data = json.loads(r.stdout)
    assert data["ok"] is False
    rows = [(d["code"], Path(d["file"]).name, d["line"], d["column"]) for d in data["diagnostics"]]
    assert rows == [("name/undefined", "game.rules", 20, 13), ("field/unknown", "game.rules", 24, 25),
                    ("flow/loop", "game.rules", 28, 5), ("name/undefined", "game.rules", 33, 16),
                    ("cards/none", "game.rules", 5, 11), ("cards/field", "cards.yaml", 2, 49)]
    for d in data["diagnostics"]:
        assert set(d) >= {"severity", "code", "message", "file", "line", "column", "hint"}


def test_cli_never_shows_a_traceback() -> None:
    paths = sorted(str(p) for p in BROKEN.iterdir() if p.is_dir()) + ["tests/fixtures/broken/no_such_ruleset"]
    for fmt in ("text", "json"):
        r = _validate("--format", fmt, *paths)
        assert r.returncode == 1
        assert "Traceback" not in r.stdout + r.stderr and "internal error" not in r.stdout + r.stderr
    assert "no such ruleset" in r.stdout


# ---- mutation fuzzing: whatever the bytes, only diagnostics come out -----------------------------

_INSERTS = [":", "(", ")", "[", "]", "{", "}", '"', "'", "#", "\t", " ", "    ", "\n", "|", "&", "*", "!", "-",
            "=", "==", ".", ",", "..", "x", "9", "é", "\\", "\r", "&a ", "*a", "!!python/object ", "- ", ": "]
_WORDS = ["if", "else", "elif", "for each", "repeat", "move", "to", "of", "your", "zone", "card type", "when",
          "let", "set", "break", "count(", "deck", "Gem", "true", "none", "1..5", "type:", "name:", "copies: 0",
          "effect: |", "-1", "999999999999999999999"]


def _mutate(text: str, rng: random.Random) -> str:
    """One to three random edits: characters, words, whole lines, indentation, truncation."""
    for _ in range(rng.randint(1, 3)):
        lines = text.split("\n")
        op = rng.randrange(8)
        pos = rng.randrange(len(text) + 1)
        i = rng.randrange(len(lines))
        if op == 0:
            text = text[:pos] + text[pos + 1:]
        elif op == 1:
            text = text[:pos] + rng.choice(_INSERTS) + text[pos:]
        elif op == 2:
            text = text[:pos] + rng.choice(_WORDS) + " " + text[pos:]
        elif op == 3:
            del lines[i]
            text = "\n".join(lines)
        elif op == 4:
            lines.insert(i, lines[rng.randrange(len(lines))])
            text = "\n".join(lines)
        elif op == 5:
            lines[i] = " " * rng.choice([1, 2, 3, 4, 8]) + lines[i] if rng.random() < 0.5 else lines[i].lstrip()
            text = "\n".join(lines)
        elif op == 6:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        else:
            text = text[:pos]
    return text


def test_mutated_game_and_cards_give_only_diagnostics(tmp_path: Path) -> None:
    rng = random.Random(20240607)
    rules = (GAME / "game.rules").read_text(encoding="utf-8")
    cards = {p.name: p.read_text(encoding="utf-8") for p in sorted(GAME_CARDS.glob("*.yaml"))}
    ruleset = tmp_path / "mutant"
    (ruleset / "cards").mkdir(parents=True)
    start = time.perf_counter()
    for n in range(200):
        target = rng.choice(["game.rules", *cards])
        texts = {"game.rules": rules, **cards}
        texts[target] = _mutate(texts[target], rng)
        (ruleset / "game.rules").write_text(texts["game.rules"], encoding="utf-8", newline="")
        for name in cards:
            (ruleset / "cards" / name).write_text(texts[name], encoding="utf-8", newline="")
        try:
            _, content = check_path(ruleset)
        except Exception as e:  # pragma: no cover - the failure report
            shutil.copytree(ruleset, tmp_path / f"crash{n}")
            raise AssertionError(f"mutation {n} of {target} raised {type(e).__name__}: {e} "
                                 f"(kept in {tmp_path / f'crash{n}'})") from e
        for d in content.diagnostics:
            assert isinstance(d, Diagnostic) and d.code and d.message
            d.format()
    # a guard against pathological slowness, generous enough for a loaded 2-core machine
    assert time.perf_counter() - start < 300
