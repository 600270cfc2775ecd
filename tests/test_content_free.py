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
           "pool"}  # multiprocessing's worker pool (sim/backends.py); a Talisman expansion is "The Sacred Pool"


def _game_words(path: Path) -> set[str]:
    rs, content = check_path(path)
    assert rs is not None and content.ok, f"{path.name} does not load"
    words = set(rs.card_types) | set(rs.enum_values()) | {c.name for c in rs.cards}
    words |= set(re.findall(r"[A-Za-z]{4,}", rs.title)) - {"Game", "Wizards", "Magical"}
    return {w for w in words if w.lower() not in GENERIC and len(w) >= 4}


@pytest.mark.parametrize("ruleset", RULESETS, ids=[p.name for p in RULESETS])
def test_interpreter_names_no_game_term(ruleset: Path) -> None:
    for word in _game_words(ruleset):
        pattern = re.compile(rf"\b{re.escape(word)}\b", re.IGNORECASE)
        hits = [f"{p.relative_to(ROOT)}:{i}" for p, text in SOURCE.items()
                for i, line in enumerate(text.splitlines(), 1) if pattern.search(line)]
        assert not hits, f"game term `{word}` of {ruleset.name} appears in the interpreter: {hits}"
