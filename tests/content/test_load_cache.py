"""The loader parses each rule file, card file and effect text once per process (and once per
editing session in the language server): loading again must give the same ruleset and the same
diagnostics as a fresh process, and nothing a later load does may change what an earlier one kept."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from interpreter.api import check_path
from interpreter.content import loader
from rulekit import named_ruleset

ROOT = Path(__file__).resolve().parents[2]

BASE = """
game "Base":
    players 2

card type Thing:
    value: 0..9 = 1

zone deck: pile, shared, hidden
player stat gold = 0

setup:
    move all_cards() to deck

turn:
    you gain 1 gold
    end game

score p: gold of p
"""
BASE_CARDS = """
- {name: Apple, type: Thing, value: 1}
- name: Pear
  type: Thing
  value: 2
  effect: |
    when drawn:
        you gain 1 gold
"""
MOD = 'game "Fix":\n    extends "base"\n    players 2\n'


def _cards(path) -> list[tuple]:
    rs, content = check_path(path)
    assert content.ok, content.diagnostics
    return [(c.name, c.fields.get("value")) for c in rs.cards]


def test_a_base_is_parsed_once_for_every_ruleset_extending_it(tmp_path):
    # the process-wide cache empties itself when full (MAX_PARSED): start from an empty one, so a
    # worker that parsed many rulesets before cannot empty it between the two loads below
    loader._PARSED.get().clear()
    base = named_ruleset(tmp_path, "base", BASE, BASE_CARDS)
    mod = named_ruleset(tmp_path, "fix", MOD, "- {name: Plum, type: Thing}\n")
    alone, _ = check_path(base)
    extended, _ = check_path(mod)
    # the same objects: the base's declarations and its card's effect were not parsed a second time
    assert alone.card_types["Thing"] is extended.card_types["Thing"]
    pear = [c for c in alone.cards if c.name == "Pear"][0]
    assert pear.effect is not None and pear.effect is [c for c in extended.cards if c.name == "Pear"][0].effect


def test_a_mods_card_edit_does_not_change_the_cached_card_data(tmp_path):
    base = named_ruleset(tmp_path, "base", BASE, BASE_CARDS)
    mod = named_ruleset(tmp_path, "fix", MOD, "- replace: Pear\n  value: 5\n- {replace: Apple, name: Green apple}\n")
    first = _cards(mod)
    assert first == [("Green apple", 1), ("Pear", 5)]
    assert _cards(mod) == first  # `replace:` is still there the second time
    assert _cards(base) == [("Apple", 1), ("Pear", 2)]


def test_an_edited_file_is_parsed_again(tmp_path):
    base = named_ruleset(tmp_path, "base", BASE, BASE_CARDS)
    assert _cards(base)[1] == ("Pear", 2)
    cards = base / "cards" / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("value: 2", "value: 3"), encoding="utf-8")
    assert _cards(base)[1] == ("Pear", 3)
    rules = base / "game.rules"
    rules.write_text(rules.read_text(encoding="utf-8").replace("0..9 = 1", "0..9 = 4"), encoding="utf-8")
    assert _cards(base)[0] == ("Apple", 1) and check_path(base)[0].card_types["Thing"].fields_[0].default.value == 4


def test_an_effect_with_errors_reports_them_every_time(tmp_path):
    base = named_ruleset(tmp_path, "base", BASE, BASE_CARDS.replace("you gain 1 gold", "you gain gold gold"))
    words = [[d.to_json() for d in check_path(base)[1].diagnostics] for _ in range(3)]
    assert words[0] and words[0] == words[1] == words[2]


def test_the_cache_is_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(loader, "MAX_PARSED", 3)
    cache: dict = {}
    with loader.overlay({}, cache):
        for i in range(3):
            check_path(named_ruleset(tmp_path, f"r{i}", BASE, BASE_CARDS.replace("value: 2", f"value: {i}")))
            assert len(cache) <= 3


def test_shipped_rulesets_cached_give_what_a_fresh_process_gives():
    """Every shipped ruleset checked in one process (bases shared, the cache warm from the first
    round) gives the diagnostics and cards that separate fresh processes give."""
    paths = sorted(str(p) for p in (ROOT / "rulesets").iterdir() if p.is_dir())
    in_process = {}
    for _ in range(2):
        for p in paths:
            rs, content = check_path(p)
            in_process[p] = json.dumps([[d.to_json() for d in content.diagnostics],
                                        [(c.id, c.name, c.text, sorted(c.fields.items()), c.effect is None)
                                         for c in rs.cards]], default=str)
    script = ("import json, sys\nfrom interpreter.api import check_path\n"
              "rs, c = check_path(sys.argv[1])\n"
              "print(json.dumps([[d.to_json() for d in c.diagnostics], "
              "[(x.id, x.name, x.text, sorted(x.fields.items()), x.effect is None) for x in rs.cards]], default=str))")
    for p in paths:
        out = subprocess.run([sys.executable, "-c", script, p], capture_output=True, text=True, check=True, cwd=ROOT)
        assert out.stdout.strip() == in_process[p], p
