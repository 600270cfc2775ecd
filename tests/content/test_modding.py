"""Modding: a ruleset that `extends` a base adds to it, replaces named parts and hooks procedures;
conflicts, dangling replacements and cycles in the chain are diagnosed (docs/modding.md)."""
from __future__ import annotations

from typing import Any
import textwrap
from pathlib import Path

from interpreter.api import check_path, load_program
from interpreter.engine.factory import new_game

BASE = """
game "Base":
    players 2

card type Thing:
    value: 0..9 = 1

zone deck: pile, shared, hidden
zone hand: set, per player, public
player stat gold = 0

setup:
    move all_cards() to deck

turn:
    work()
    you take actions
    if deck is empty:
        end game

procedure work():
    you gain 1 gold
    draw from deck to your hand

action "Shout" once per turn:
    you gain 10 gold

score p: gold of p
"""


def _tree(tmp: Path, rulesets: dict[str, str], cards: dict[str, str] | None = None) -> Path:
    for name, text in rulesets.items():
        (tmp / "rulesets" / name).mkdir(parents=True, exist_ok=True)
        (tmp / "rulesets" / name / "game.rules").write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    for name, text in (cards or {}).items():
        (tmp / "cards" / name).mkdir(parents=True, exist_ok=True)
        (tmp / "cards" / name / "cards.yaml").write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return tmp / "rulesets"


def _errors(path: Path) -> list:
    _, content = check_path(path)
    return [d for d in content.diagnostics if d.severity == "error"]


def _play(path: Path, seed: int = 1) -> Any:
    g = new_game(load_program(path), 2, seed)
    while not g.over:
        d = g.decision
        g.answer(len(d.labels) - 1)  # "Done": never shout
    assert g.error is None, g.error
    return g


def test_mod_adds_cards_stats_and_replaces_and_hooks(tmp_path):
    """Both card folders are loaded; the replaced procedure and the `after` hook both run."""
    root = _tree(tmp_path, {"base": BASE, "mod": """
        game "Base: Gems":
            extends "base"

        player stat gems = 0

        replace procedure work():
            you gain 2 gold
            draw from deck to your hand

        after procedure work():
            you gain 1 gems

        replace score p: gold of p + 100 * gems of p
        """}, {"base": "- {name: Coin, type: Thing, copies: 4}\n", "mod": "- {name: Gem, type: Thing, copies: 2}\n"})
    assert _errors(root / "mod") == []
    g = _play(root / "mod")
    assert len(g.cards) == 6 and {c.name for c in g.cards} == {"Coin", "Gem"}
    # 6 cards, 3 turns each: 2 gold and 1 gem a turn; the replaced score counts gems
    assert g.scores()["scores"] == [306, 306]
    base = _play(root / "base")
    assert base.scores()["scores"] == [2, 2]  # the base is untouched


def test_conflict_names_both_locations(tmp_path):
    """A mod declaring a base's procedure again without `replace` is refused, naming both places."""
    root = _tree(tmp_path, {"base": BASE, "clash": """
        game "Clash":
            extends "base"

        procedure work():
            pass
        """})
    errs = _errors(root / "clash")
    assert [e.code for e in errs] == ["mod/conflict"]
    e = errs[0]
    assert e.loc.file.endswith("clash/game.rules") and e.loc.line == 4
    assert "base/game.rules:20:11" in e.message and "replace procedure work" in e.hint


def test_phase_action_zone_and_score_conflicts(tmp_path):
    root = _tree(tmp_path, {"base": BASE, "clash": """
        game "Clash":
            extends "base"

        zone deck: pile, shared, hidden

        turn:
            pass

        action "Shout":
            pass

        score p: 0
        """})
    errs = _errors(root / "clash")
    assert [e.code for e in errs] == ["mod/conflict"] * 4
    assert all("base/game.rules:" in e.message for e in errs)


def test_replace_of_nothing_is_dangling(tmp_path):
    root = _tree(tmp_path, {"base": BASE, "dangle": """
        game "Dangle":
            extends "base"

        replace procedure wrok():
            pass

        replace action "Shuot":
            pass

        after procedure nothing():
            pass

        replace round:
            pass
        """})
    errs = _errors(root / "dangle")
    assert [e.code for e in errs] == ["mod/dangling"] * 4
    assert errs[0].hint == "did you mean `work`?"
    assert errs[1].hint == "did you mean `Shout`?"


def test_replace_action_by_label(tmp_path):
    root = _tree(tmp_path, {"base": BASE, "mod": """
        game "Quiet":
            extends "base"

        replace action "Shout" once per turn:
            you gain 1 gold
        """}, {"base": "- {name: Coin, type: Thing, copies: 2}\n"})
    assert _errors(root / "mod") == []
    g = new_game(load_program(root / "mod"), 2, 1)
    labels = g.decision.labels
    assert labels.count("Shout") == 1
    g.answer(labels.index("Shout"))
    assert g.state.pstats[0]["gold"] == 2  # 1 from work, 1 from the replaced action (not 10)


def test_extends_cycle_and_missing_base(tmp_path):
    root = _tree(tmp_path, {
        "a": 'game "A":\n    extends "b"\n\nturn:\n    end game\n',
        "b": 'game "B":\n    extends "a"\n',
        "c": 'game "C":\n    extends "bsae"\n\nturn:\n    end game\n',
        "base": BASE,
    })
    errs = _errors(root / "a")
    assert [e.code for e in errs] == ["mod/cycle"]
    assert "a → b → a" in errs[0].message
    errs = _errors(root / "c")
    assert [e.code for e in errs] == ["mod/extends"] and errs[0].hint == "did you mean `base`?"


def test_validate_on_a_mod_checks_the_base_too(tmp_path):
    """An error in the base is reported when the mod is validated, at the base's location."""
    broken = BASE.replace("you gain 1 gold", "you gain 1 goldd")
    root = _tree(tmp_path, {"base": broken, "mod": 'game "M":\n    extends "base"\n'})
    errs = _errors(root / "mod")
    assert errs and all(e.loc.file.endswith("base/game.rules") for e in errs)


def test_replace_in_own_ruleset_is_refused(tmp_path):
    root = _tree(tmp_path, {"solo": BASE + "\nreplace procedure work():\n    pass\n"})
    errs = _errors(root / "solo")
    assert [e.code for e in errs] == ["mod/replace"]


def test_hook_parameters_must_match(tmp_path):
    root = _tree(tmp_path, {"base": BASE + "\nprocedure pay(p, n):\n    p gains n gold\n", "mod": """
        game "M":
            extends "base"

        before procedure pay(x):
            pass
        """})
    errs = _errors(root / "mod")
    assert [e.code for e in errs] == ["mod/hook"]


def test_phase_hooks_run_around_the_base_phase(tmp_path):
    """`after setup:` adds steps after the base's setup; `before turn:` before each turn."""
    root = _tree(tmp_path, {"base": BASE, "mod": """
        game "M":
            extends "base"

        player stat turns = 0

        after setup:
            for each p in players:
                p gains 5 gold

        before turn:
            your turns += 1

        replace score p: gold of p * 100 + turns of p
        """, "bad": """
        game "B":
            extends "base"

        after round:
            pass
        """}, {"base": "- {name: Coin, type: Thing, copies: 4}\n"})
    assert _errors(root / "mod") == []
    g = _play(root / "mod")
    assert g.scores()["scores"] == [(5 + 2) * 100 + 2] * 2
    assert [e.code for e in _errors(root / "bad")] == ["mod/dangling"]


def test_mod_adds_zone_action_and_trigger(tmp_path):
    """New zones, rule-level actions and triggers of a mod work beside the base's."""
    root = _tree(tmp_path, {"base": BASE, "mod": """
        game "M":
            extends "base"

        zone vault: pile, shared, public
        player stat shouts = 0

        action "Hide a card" once per turn if not (your hand is empty):
            move first(values(your hand)) to vault

        when turn_start:
            your shouts += 1
        """}, {"base": "- {name: Coin, type: Thing, copies: 4}\n"})
    assert _errors(root / "mod") == []
    g = new_game(load_program(root / "mod"), 2, 1)
    assert g.state.pstats[0]["shouts"] == 1
    labels = g.decision.labels
    assert "Shout" in labels and "Hide a card" in labels
    g.answer(labels.index("Hide a card"))
    assert len(g.state.zones["vault"]) == 1 and g.state.zones["hand#0"] == []
