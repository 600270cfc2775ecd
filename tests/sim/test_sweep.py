"""`grimoire sweep`: a batch per player count, constant value, card field value or variant."""
import json

import pytest

from interpreter.cli import main
from interpreter.sim.sweep import parse_param, sweep
from interpreter.play.variants import VariantError, load_variant, parse_override
from rulekit import ruleset

RULES = """
game "Bonus race":
    players 2..3
card type Gem:
    worth: 0..9
zone pile: pile, shared, public
zone vault: set, per player, public
constant bonus = 1
setup:
    move all_cards() to pile
turn:
    if you may "Take a gem?":
        move first(pile) to your vault
    if turn_number == 2 * player_count:
        end game after this turn
score p: sum((vault of p).worth) + (bonus if p == first(players) else 0)
"""
CARDS = """
- {name: Ruby, type: Gem, worth: 1, copies: 8}
"""


def test_a_constant_and_a_card_field_change_the_game(tmp_path):
    """Seat 1 gets `bonus`; a big enough bonus makes it win every game, and gems worth 0 leave
    only the bonus to decide."""
    path = str(ruleset(tmp_path, RULES, CARDS))
    result = sweep([path], [2], [("bonus", [0, 9])], 30, 1, ["random"])
    rates = {b["params"]["bonus"]: b["report"]["seats"][0]["win_rate"] for b in result["batches"]}
    assert rates[9] == 1.0 and rates[0] < 0.9
    worthless = sweep([path], [2], [("Ruby.worth", [0])], 10, 1, ["random"])["batches"][0]["report"]
    assert worthless["seats"][0]["win_rate"] == 1.0 and worthless["score"]["max"] == 1


def test_players_sweep_and_table(tmp_path, capsys):
    path = str(ruleset(tmp_path, RULES, CARDS))
    out = tmp_path / "sweep.json"
    assert main(["sweep", path, "--players", "2,3", "--param", "bonus=0,2", "-n", "8", "--quiet",
                 "--json", str(out)]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split()[:3] == ["players", "bonus", "errors"]
    assert [line.split()[:2] for line in table[1:5]] == [["2", "0"], ["2", "2"], ["3", "0"], ["3", "2"]]
    data = json.loads(out.read_text())
    assert [(b["players"], b["params"]) for b in data["batches"]] == \
        [(2, {"bonus": 0}), (2, {"bonus": 2}), (3, {"bonus": 0}), (3, {"bonus": 2})]
    assert all(len(b["report"]["seats"]) == b["players"] for b in data["batches"])


def test_variants_are_other_folders(tmp_path, capsys):
    a = str(ruleset(tmp_path, RULES, CARDS))
    b = str(ruleset(tmp_path, RULES.replace("constant bonus = 1", "constant bonus = 9"), CARDS))
    assert main(["sweep", a, b, "-n", "6", "--quiet"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[0] == "ruleset" and len(lines) == 4


def test_bad_overrides_are_plain_errors(tmp_path, capsys):
    path = str(ruleset(tmp_path, RULES, CARDS))
    with pytest.raises(VariantError, match="neither a constant"):
        load_variant(path, (("bonsu", 1),))
    with pytest.raises(VariantError, match="no field `cost`"):
        load_variant(path, (("Ruby.cost", 1),))
    with pytest.raises(VariantError, match="int"):
        load_variant(path, (("Ruby.worth", "lots"),))
    with pytest.raises(ValueError, match="NAME=V1,V2"):
        parse_param("bonus")
    assert parse_override("Ruby.worth=3") == ("Ruby.worth", 3)
    assert main(["sweep", path, "--param", "bonsu=1,2", "-n", "2", "--quiet"]) == 2
    assert "neither a constant" in capsys.readouterr().err


def test_original_ruleset_is_untouched(tmp_path):
    """Variants are compiled copies: the cached program of the folder keeps its own values."""
    from interpreter.api import load_program
    path = str(ruleset(tmp_path, RULES, CARDS))
    variant = load_variant(path, (("Ruby.worth", 5),))
    assert {c.fields["worth"] for c in variant.rs.cards} == {5}
    assert {c.fields["worth"] for c in load_program(path).rs.cards} == {1}
