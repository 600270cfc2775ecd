"""tools/gen_snapshot.py: the byte-compare that proves a move of code generation between the
generator and the constructs (issue 15) changes nothing. A snapshot holds every form of the
generated code and the bot rules compiled on their own; `compare` passes on the same code and
names the target whose code changed. One tiny ruleset: a second or two."""
from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path

from rulekit import GUESS, TOKS, ruleset

TOOL = Path(__file__).resolve().parent.parent / "tools" / "gen_snapshot.py"

# rulekit's guessing game, with a bot rule (compiled on its own too)
RULES = 'game "Guess":\n    players 2\n' + textwrap.dedent(GUESS) + "prefer p: it * 2\n"
CARDS = TOKS


def _tool():
    spec = importlib.util.spec_from_file_location("gen_snapshot", TOOL)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["gen_snapshot"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_a_snapshot_holds_every_form_and_is_the_same_for_the_same_rules(tmp_path, monkeypatch):
    G = _tool()

    def snap(rules: str) -> str:
        folder = ruleset(tmp_path, rules, CARDS)
        monkeypatch.setattr(G, "ROOT", folder)  # the ruleset's folder is the "checkout" here
        return G.snapshot(str(folder))
    a = snap(RULES)
    for section in ("== direct source", "== constants", "== lines", "== observed source", "== resumable source",
                    "== bot rule 0 with it: card"):
        assert section in a, section
    assert "def build(R, K):" in a and "<root>/game.rules" in a and str(tmp_path) not in a  # locations from the root
    assert snap(RULES) == a
    assert snap(RULES.replace("it * 2", "it - 2")) != a


def test_compare_passes_on_the_same_code_and_names_the_target_that_changed(tmp_path, monkeypatch, capsys):
    G = _tool()
    monkeypatch.setattr(G, "ROOT", tmp_path)  # the rulesets' folder is the "checkout" here
    folder = ruleset(tmp_path, RULES, CARDS)
    monkeypatch.setattr(G, "targets", lambda: {"tally": str(folder)})
    before = tmp_path / "before"
    G.write(before, None)
    assert G.compare(before, None) == 0 and "byte-identical" in capsys.readouterr().out
    saved = before / "tally.txt"
    saved.write_text(saved.read_text().replace("def build(R, K):", "def build(R, Q):", 1))
    assert G.compare(before, None) == 1
    out = capsys.readouterr().out
    assert "CHANGED tally" in out and "1 target(s) changed" in out and "def build(R, Q):" in out
