"""Games are content: no game title, card name, card type or enumeration value of any
ruleset in rulesets/ may appear as a word in the interpreter's source."""
import re
from pathlib import Path

import pytest

from interpreter.api import check_path

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted(p for p in (ROOT / "rulesets").iterdir() if p.is_dir())
SOURCE = {p: p.read_text(encoding="utf-8") for p in (ROOT / "interpreter").rglob("*.py")}
# words common in English that a game may also use as a value; they say nothing about a game
GENERIC = {"none", "true", "false", "yes", "no", "left", "right", "top", "bottom", "red", "blue", "green",
           "shadow",  # `shadow` also names a variable hiding a declaration (diagnostic name/shadow)
           "patches",  # matplotlib's drawing module (printing/sheets.py); Stonehenge Wizards has a Patches card
           "item",  # the elements of a list; Enchanters also calls a card type `Item`
           "expansion",  # `grimoire new --expansion` scaffolds a mod; a mod's title may say so
           "pool",  # multiprocessing's worker pool (sim/backends.py); a Talisman expansion is "The Sacred Pool"
           "deep"}  # nesting too deep (limits, copies); a Talisman expansion is "The Deep Realms"


def _game_words(path: Path) -> set[str]:
    rs, content = check_path(path)
    assert rs is not None and content.ok, f"{path.name} does not load"
    words = set(rs.card_types) | set(rs.enum_values()) | {c.name for c in rs.cards}
    words |= set(re.findall(r"[A-Za-z]{4,}", rs.title)) - {"Game", "Wizards", "Magical"}
    return {w for w in words if w.lower() not in GENERIC and len(w) >= 4}


@pytest.mark.parametrize("ruleset", RULESETS, ids=[p.name for p in RULESETS])
def test_interpreter_names_no_game_term(ruleset: Path) -> None:
    words = sorted(_game_words(ruleset), key=len, reverse=True)
    # one pass over each file with every word at once; lines are located only for a file that has a hit
    pattern = re.compile(r"\b(?:" + "|".join(map(re.escape, words)) + r")\b", re.IGNORECASE)
    hits = {}
    for p, text in SOURCE.items():
        if pattern.search(text) is None:
            continue
        for i, line in enumerate(text.splitlines(), 1):
            for m in pattern.finditer(line):
                hits.setdefault(m.group(0).lower(), []).append(f"{p.relative_to(ROOT)}:{i}")
    assert not hits, f"game terms of {ruleset.name} appear in the interpreter: {hits}"


def test_a_game_term_in_the_interpreter_is_found(monkeypatch) -> None:
    """The search above finds a planted word, whole words only and in any case."""
    ruleset = next(p for p in RULESETS if p.name == "toil_and_troublez")
    word = next(w for w in sorted(_game_words(ruleset)) if w.isalpha())
    monkeypatch.setitem(SOURCE, ROOT / "interpreter" / "planted.py", f"x = 1\n# the {word.upper()} here\n")
    with pytest.raises(AssertionError, match=rf"{word.lower()}.*interpreter/planted.py:2"):
        test_interpreter_names_no_game_term(ruleset)
    monkeypatch.setitem(SOURCE, ROOT / "interpreter" / "planted.py", f"x = 1\n# the {word}s and pre{word} here\n")
    test_interpreter_names_no_game_term(ruleset)
