"""Mods that combine (docs/modding.md): `--with` stacks mods from any folder on a base in a stated
order; two mods replacing or hooking the same thing, or editing the same card, are `mod/conflict`
(both places named) unless one says `after "other"`; card files `remove:` and `replace:` cards."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.api import check_path, load_program
from interpreter.cli import main
from interpreter.content.loader import load
from interpreter.engine.factory import new_game
from rulekit import named_ruleset

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
    if deck is empty:
        end game

procedure work():
    you gain 1 gold
    draw from deck to your hand

score p: gold of p
"""

BASE_CARDS = """
- {name: Apple, type: Thing, value: 1, copies: 2}
- {name: Pear, type: Thing, value: 2}
"""


def _mod(name: str, body: str = "", header: str = "") -> str:
    return f'game "Mod {name}":\n    players 2\n{header}\n{body}'


def _worker(gold: int) -> str:
    return f"replace procedure work():\n    you gain {gold} gold\n    draw from deck to your hand\n"


def _errors(path, mods=()):
    _, content = check_path(_stack(path, mods))
    return [d for d in content.diagnostics if d.severity == "error"]


def _stack(path, mods):
    return f"{path} --with {','.join(str(m) for m in mods)}" if mods else str(path)


def _scores(path, mods=()) -> list[int]:
    """The base game plays itself (no decisions): three turns, one card drawn each."""
    g = new_game(load_program(_stack(path, mods)), 2, 1)
    assert g.over and g.error is None, g.error
    return g.result["scores"]


@pytest.fixture
def base(tmp_path) -> Path:
    return named_ruleset(tmp_path / "rulesets", "base", BASE, BASE_CARDS)


def test_mods_stack_in_the_stated_order_deterministically(tmp_path, base):
    """Each mod's cards follow the base's, in the order given; the same order gives the same list."""
    elsewhere = tmp_path / "somewhere" / "else"
    a = named_ruleset(elsewhere, "a", _mod("a"), "- {name: Fig, type: Thing}\n")
    b = named_ruleset(elsewhere, "b", _mod("b"), "- {name: Kiwi, type: Thing}\n")
    ab = load_program(_stack(base, [a, b])).rs
    ba = load_program(_stack(base, [b, a])).rs
    assert ab.content.layers == ["base", "a", "b"] and ba.content.layers == ["base", "b", "a"]
    assert [c.name for c in ab.cards] == ["Apple", "Apple", "Pear", "Fig", "Kiwi"]
    assert [c.name for c in ba.cards] == ["Apple", "Apple", "Pear", "Kiwi", "Fig"]
    again = check_path(_stack(base, [a, b]))[0]
    assert [c.name for c in again.cards] == [c.name for c in ab.cards]
    assert ab.title == "Mod b"  # the last mod's header names the game


def test_two_mods_replacing_the_same_procedure_conflict_at_both_places(tmp_path, base):
    a = named_ruleset(tmp_path / "mods", "a", _mod("a", _worker(2)))
    b = named_ruleset(tmp_path / "mods", "b", _mod("b", _worker(3)))
    errs = [e for e in _errors(base, [a, b]) if e.code == "mod/conflict"]
    assert len(errs) == 1, errs
    e = errs[0]
    assert e.loc.file.endswith("b/game.rules") and e.loc.line == 4  # the later mod's `replace`
    assert "a/game.rules:4:" in e.message and "`a`" in e.message and "`b`" in e.message
    assert 'after "a"' in e.hint


def test_after_orders_the_mods_and_the_later_one_wins(tmp_path, base):
    """`after "a"` in b's header resolves the conflict, and moves b after a even if given first."""
    a = named_ruleset(tmp_path / "mods", "a", _mod("a", _worker(2)))
    b = named_ruleset(tmp_path / "mods", "b", _mod("b", _worker(3), '    after "a"\n'))
    assert _errors(base, [a, b]) == [] and _errors(base, [b, a]) == []
    for order in ([a, b], [b, a]):
        p = load_program(_stack(base, order))
        assert p.rs.content.layers == ["base", "a", "b"]
        assert _scores(base, order) == [6, 3]  # b's `work` (3 gold a turn), not a's (2)


def test_after_in_both_directions_is_a_cycle(tmp_path, base):
    a = named_ruleset(tmp_path / "mods", "a", _mod("a", header='    after "b"\n'))
    b = named_ruleset(tmp_path / "mods", "b", _mod("b", header='    after "a"\n'))
    assert [e.code for e in _errors(base, [a, b])] == ["mod/cycle"]


def test_hooks_on_the_same_side_conflict_but_before_and_after_commute(tmp_path, base):
    hook_a = named_ruleset(tmp_path / "m1", "a", _mod("a", "after procedure work():\n    you gain 5 gold\n"))
    hook_b = named_ruleset(tmp_path / "m1", "b", _mod("b", "after procedure work():\n    you gain 7 gold\n"))
    pre_b = named_ruleset(tmp_path / "m2", "b", _mod("b", "before procedure work():\n    you gain 7 gold\n"))
    errs = _errors(base, [hook_a, hook_b])
    assert [e.code for e in errs] == ["mod/conflict"] and "after procedure work" in errs[0].message
    assert "a/game.rules:4:" in errs[0].message
    assert _errors(base, [hook_a, pre_b]) == []


def test_a_mod_extending_the_base_by_name_combines_from_an_unrelated_folder(tmp_path, base):
    """`extends "base"` is met by the base given on the command line (not looked for beside the mod);
    the replacement it makes of the base is not a conflict."""
    m = named_ruleset(tmp_path / "downloads", "gems", 'game "Gems":\n    extends "base"\n    players 2\n\n' + _worker(4))
    assert _errors(base, [m]) == []
    alone = [e for e in _errors(m) if e.code == "mod/extends"]  # alone, it finds no base beside it
    assert len(alone) == 1 and "--with" in alone[0].hint
    assert _scores(base) == [2, 1] and _scores(base, [m]) == [8, 4]


def test_header_with_several_bases_loads_their_shared_base_once(tmp_path, base):
    root = base.parent
    named_ruleset(root, "a", 'game "A":\n    extends "base"\n    players 2\n\n' + _worker(2))
    named_ruleset(root, "b", 'game "B":\n    extends "base"\n    players 2\n\n' + _worker(3))
    named_ruleset(root, "ok_b", 'game "B":\n    extends "base"\n    after "a"\n    players 2\n\n' + _worker(3))
    both = named_ruleset(root, "both", 'game "Both":\n    extends "a"\n    extends "b"\n    players 2\n')
    ok = named_ruleset(root, "ok", 'game "Ok":\n    extends "a"\n    extends "ok_b"\n    players 2\n')
    assert [e.code for e in _errors(both)] == ["mod/conflict"]
    rs = load_program(ok).rs
    assert rs.content.layers == ["base", "a", "ok_b", "ok"]
    assert [c.name for c in rs.cards] == ["Apple", "Apple", "Pear"]  # the base's cards once


# ---- remove: / replace: in card files ---------------------------------------------------------

def test_remove_and_replace_cards(tmp_path, base):
    m = named_ruleset(tmp_path / "mods", "fix", _mod("fix"), """
        - remove: Apple
        - replace: Pear
          value: 5
          copies: 3
        - {name: Plum, type: Thing}
    """)
    rs = load_program(_stack(base, [m])).rs
    assert [(c.name, c.fields["value"]) for c in rs.cards] == [("Pear", 5)] * 3 + [("Plum", 1)]


def test_replace_may_rename_and_keeps_the_place_in_the_list(tmp_path, base):
    m = named_ruleset(tmp_path / "mods", "fix", _mod("fix"), "- {replace: Apple, name: Green apple, value: 4}\n")
    rs = load_program(_stack(base, [m])).rs
    assert [c.name for c in rs.cards] == ["Green apple", "Pear"]


def test_editing_a_card_that_does_not_exist_suggests_a_name(tmp_path, base):
    m = named_ruleset(tmp_path / "mods", "fix", _mod("fix"), "- remove: Aple\n- replace: Banana\n  value: 2\n")
    errs = _errors(base, [m])
    assert [e.code for e in errs] == ["mod/dangling", "mod/dangling"]
    assert errs[0].loc.line == 1 and "did you mean `Apple`" in errs[0].hint
    assert errs[1].loc.line == 2 and "Banana" in errs[1].message


def test_two_mods_editing_the_same_card_conflict_unless_ordered(tmp_path, base):
    a = named_ruleset(tmp_path / "m", "a", _mod("a"), "- remove: Pear\n")
    b = named_ruleset(tmp_path / "m", "b", _mod("b"), "- {replace: Pear, value: 9}\n")
    errs = _errors(base, [a, b])
    assert [e.code for e in errs] == ["mod/conflict"]
    assert errs[0].loc.file.endswith("b/cards/cards.yaml") and "a/cards/cards.yaml:1:" in errs[0].message
    later = named_ruleset(tmp_path / "n", "b", _mod("b", header='    after "a"\n'), "- {name: Pear, type: Thing}\n")
    assert _errors(base, [a, later]) == []  # ordered: a removes the base's Pear, b adds its own


def test_a_card_repeating_a_base_name_is_a_warning(tmp_path, base):
    m = named_ruleset(tmp_path / "mods", "dup", _mod("dup"), "- {name: Pear, type: Thing, value: 3}\n")
    _, content = check_path(_stack(base, [m]))
    warns = [d for d in content.diagnostics if d.code == "mod/card-twin"]
    assert len(warns) == 1 and "replace: Pear" in warns[0].hint


def test_remove_with_other_fields_is_refused(tmp_path, base):
    m = named_ruleset(tmp_path / "mods", "fix", _mod("fix"), "- {remove: Pear, value: 3}\n")
    assert [e.code for e in _errors(base, [m])] == ["cards/shape"]


# ---- the command line ---------------------------------------------------------------------------

def test_cli_validate_and_simulate_with_mods(tmp_path, base, capsys):
    a = named_ruleset(tmp_path / "m", "a", _mod("a", _worker(2)))
    b = named_ruleset(tmp_path / "m", "b", _mod("b", _worker(3)))
    assert main(["validate", str(base), "--with", f"{a},{b}"]) == 1
    said = capsys.readouterr().out  # the diagnostic names both mods, each at its place (issue 21)
    assert "mod/conflict" in said and "(in `a`)" in said and "(in `b`)" in said and "a/game.rules:" in said
    assert main(["validate", str(base), "--with", str(a)]) == 0
    out = tmp_path / "r.json"
    assert main(["simulate", str(base), "--with", str(a), "-n", "3", "--quiet", "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["completed"] == 3 and report["ruleset"].endswith(f"--with {a}")
    # 3 turns each, 2 gold per turn from the mod's `work` (the base gives 1): 6 + 4 between the seats
    assert report["winning_score"]["mean"] >= 4


def test_enchanters_overlords_with_gives_the_same_games_as_its_extends_ruleset():
    """The real mod: `enchanters --with enchanters_overlords` is the very game `enchanters_overlords`
    (which `extends` the base) is: same cards in the same order, same games seed by seed."""
    from interpreter.sim.simulate import simulate
    root = Path(__file__).resolve().parents[2] / "rulesets"
    stacked = f"{root / 'enchanters'} --with {root / 'enchanters_overlords'}"
    extended = str(root / "enchanters_overlords")
    assert [c.label() for c in load_program(stacked).rs.cards] == [c.label() for c in load_program(extended).rs.cards]
    for players in (2, 4):
        runs = [simulate(r, 4, players, 11, ["random"], per_game=True, card_stats=False)["per_game"]
                for r in (stacked, extended)]
        assert runs[0] == runs[1] and len(runs[0]) == 4
        assert len({tuple(row["scores"]) for row in runs[0]}) > 1  # four different games, not one repeated


def test_a_scenario_stacks_mods_with_its_with_key(tmp_path, base, capsys):
    """`with: [...]` in a scenario file (paths relative to it, like `ruleset:`) plays the stack."""
    named_ruleset(tmp_path / "mods", "gems", _mod("gems", _worker(4)))
    sc = tmp_path / "scenarios" / "s.yaml"
    sc.parent.mkdir()
    sc.write_text("name: the mod's work pays 4\nruleset: ../rulesets/base\nwith: [../mods/gems]\nplayers: 2\n"
                  "seed: 1\nexpect: {scores: [8, 4], winners: [1]}\n", encoding="utf-8")
    assert main(["scenario", str(sc)]) == 0
    sc.write_text(sc.read_text().replace("[8, 4]", "[2, 1]"), encoding="utf-8")
    assert main(["scenario", str(sc)]) == 1  # the base alone would score [2, 1]: the mod was played


def test_play_log_of_a_stack_replays_from_anywhere_and_each_mod_is_confined(tmp_path, base, capsys, monkeypatch):
    """A log names the stack (`BASE --with MOD`); replay finds each folder relative to the log, and
    refuses a mod outside the log's folders like it refuses a base there."""
    named_ruleset(tmp_path / "mods", "gems", _mod("gems", _worker(4)))
    monkeypatch.chdir(tmp_path)
    assert main(["play", "rulesets/base", "--with", "mods/gems", "--log", "g.jsonl"]) == 0
    head = json.loads((tmp_path / "g.jsonl").read_text().splitlines()[0])
    assert head["ruleset"] == "rulesets/base --with mods/gems"
    elsewhere = tmp_path / "rulesets" / "other"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    capsys.readouterr()
    assert main(["replay", str(tmp_path / "g.jsonl")]) == 0
    assert "[8, 4]" in capsys.readouterr().out  # the mod's game, not the base's [2, 1]
    log = tmp_path / "g.jsonl"
    log.write_text(log.read_text().replace("mods/gems", "/etc"), encoding="utf-8")
    assert main(["replay", str(log)]) == 1
    assert "/etc, outside" in capsys.readouterr().err


def test_after_contradicted_by_the_extends_order_is_reported(tmp_path, base):
    root = base.parent
    named_ruleset(root, "a", 'game "A":\n    extends "base"\n    after "b"\n    players 2\n')
    named_ruleset(root, "b", 'game "B":\n    extends "base"\n    players 2\n')
    wrong = named_ruleset(root, "wrong", 'game "W":\n    extends "a"\n    extends "b"\n    players 2\n')
    right = named_ruleset(root, "right", 'game "R":\n    extends "b"\n    extends "a"\n    players 2\n')
    errs = _errors(wrong)
    assert [e.code for e in errs] == ["mod/order"] and errs[0].loc.file.endswith("a/game.rules")
    assert _errors(right) == []


def test_cli_sweep_and_explain_take_with(tmp_path, base, capsys):
    m = named_ruleset(tmp_path / "mods", "gems", _mod("gems", _worker(4)))
    assert main(["explain", str(base), "work", "--with", str(m)]) == 0
    assert "4 gold" in capsys.readouterr().out
    assert main(["sweep", str(base), "--with", str(m), "-n", "2", "--quiet", "--json", "-"]) == 0
    batch = json.loads(capsys.readouterr().out)["batches"][0]
    assert batch["report"]["ruleset"].endswith(f"--with {m}") and batch["report"]["completed"] == 2


def test_with_a_file_or_a_missing_folder_is_a_clear_error(tmp_path, base, capsys):
    assert main(["validate", str(base), "--with", str(base / "game.rules")]) == 1
    assert "not a ruleset folder" in capsys.readouterr().out
    assert main(["validate", str(base), "--with", str(tmp_path / "nope")]) == 1
    assert "no such mod" in capsys.readouterr().out


def test_remove_and_replace_cannot_be_card_fields(tmp_path):
    """A field named `replace` would turn every card of its type into an edit: refused at the field."""
    rs = named_ruleset(tmp_path, "r", 'game "R":\n    players 2\n\ncard type Thing:\n    replace: 0..9 = 1\n')
    errs = _errors(rs)
    assert [(e.code, e.loc.line) for e in errs] == [("card/field-name", 5)]


def test_a_mod_extending_a_mod_given_later_loads_that_one_first_and_once(tmp_path, base):
    """`--with addon,gems` where addon `extends "gems"`: gems is the folder given, loaded first."""
    gems = named_ruleset(tmp_path / "mods", "gems", _mod("gems", _worker(4)), "- {name: Gem, type: Thing}\n")
    addon = named_ruleset(tmp_path / "other", "addon", 'game "Addon":\n    extends "gems"\n    players 2\n\n'
                          + _worker(5))
    assert _errors(base, [addon, gems]) == []
    rs = load_program(_stack(base, [addon, gems])).rs
    assert rs.content.layers == ["base", "gems", "addon"]
    assert [c.name for c in rs.cards].count("Gem") == 1
    assert _scores(base, [addon, gems]) == [10, 10]  # 4 cards, 2 turns each at 5 (the addon's work), not 4 (gems')


def test_after_takes_a_quoted_name(tmp_path, base):
    m = named_ruleset(tmp_path / "mods", "m", _mod("m", header="    after 3\n"))
    errs = _errors(base, [m])
    assert [(e.code, e.loc.line) for e in errs] == [("mod/after", 3)]


def test_after_a_base_of_a_mod_given_later_loads_that_base_first(tmp_path, base):
    """`early` says `after "region"`; `region` is in the stack only as the base of `city`, typed after
    `early`. The order both ask for exists (base, region, early, city), so it is the one loaded, with
    no `mod/order` (the other `--with` order loads city before early: fine too); and since `early` comes after `region`, their hooks
    of the same step are ordered, not a `mod/conflict`. A named mod that nothing brings in stays out."""
    root = base.parent
    hook = "after procedure work():\n    you gain 1 gold\n"
    named_ruleset(root, "region", 'game "Region":\n    extends "base"\n    players 2\n\n' + hook)
    city = named_ruleset(root, "city", 'game "City":\n    extends "region"\n    players 2\n')
    named_ruleset(root, "absent", 'game "Absent":\n    extends "base"\n    players 2\n')
    early = named_ruleset(root, "early", 'game "Early":\n    extends "base"\n    after "region"\n    after "absent"\n'
                          '    players 2\n\n' + hook)
    for mods, layers in (((early, city), ["region", "early", "city"]), ((city, early), ["region", "city", "early"])):
        content = load(_stack(base, mods))
        assert content.layers == ["base", *layers], mods
        assert _errors(base, mods) == []
    assert _scores(base, (early, city)) == [6, 3]  # 1 + 1 + 1 gold a turn (the base alone: [2, 1]): both hooks ran
