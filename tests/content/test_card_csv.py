"""Card lists kept as spreadsheets (issue "Cards people can read and print": card data from a
CSV a designer keeps, as nanDECK and Squib users expect): each row a card, checked like a YAML
card, with diagnostics at the row and column of the cell at fault."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.analysis.explain import explain
from interpreter.api import check_path
from interpreter.content.cardcsv import CsvProblem, csv_cards
from interpreter.api import load_program
from interpreter.engine.factory import new_game

RULES = """
game "Gems":
    players 2

card type Gem:
    color: Red | Blue
    worth: 1..3
    shiny: flag = false

zone bag: pile, shared, hidden
zone hand: set, per player, owner
event picked

setup:
    move all_cards() to bag
    shuffle bag

turn:
    draw 1 from bag to your hand
    fire picked on top(your hand) by you
    if bag is empty:
        end game

score p: sum((hand of p).worth)
"""

CSV = ('name,type,color,worth,shiny,copies,effect\n'
       'Ruby,Gem,Red,3,true,2,"when picked:\n    log ""a ruby, at last"""\n'
       '\n'
       'Pebble,Gem,Blue,1,,3,\n')


def _ruleset(tmp_path: Path, csv: str, yaml: str | None = None) -> Path:
    (tmp_path / "cards").mkdir(parents=True)
    (tmp_path / "game.rules").write_text(RULES.lstrip(), encoding="utf-8")
    (tmp_path / "cards" / "gems.csv").write_text(csv, encoding="utf-8")
    if yaml is not None:
        (tmp_path / "cards" / "more.yaml").write_text(yaml, encoding="utf-8")
    return tmp_path


def test_rows_become_cards_with_typed_fields_copies_and_effects(tmp_path):
    rs, content = check_path(_ruleset(tmp_path, CSV))
    assert content.ok, [d.format() for d in content.diagnostics]
    assert [(c.name, c.fields["color"], c.fields["worth"], c.fields["shiny"]) for c in rs.cards] == \
        [("Ruby", "Red", 3, True)] * 2 + [("Pebble", "Blue", 1, False)] * 3
    assert explain(rs, "Ruby").endswith("When picked: tell everyone \u201ca ruby, at last\u201d.")


def test_a_game_from_a_spreadsheet_plays_its_effects(tmp_path):
    program = load_program(_ruleset(tmp_path, CSV))
    logged = 0
    for seed in range(6):
        g = new_game(program, 2, seed)
        while not g.over:
            g.answer(0)
        assert g.error is None, g.error
        logged += sum("a ruby, at last" in str(line) for line in g.log)
    assert logged == 12  # both Rubies are drawn and picked in every game


def test_a_bad_cell_is_reported_at_its_row_and_column(tmp_path):
    bad = CSV.replace("Pebble,Gem,Blue,1", "Pebble,Gem,Green,1")
    _, content = check_path(_ruleset(tmp_path, bad))
    (d,) = [d for d in content.diagnostics if d.severity == "error"]
    assert (d.code, d.loc.line, d.loc.col) == ("cards/field", 5, 12)
    assert "Green" in d.message and d.source_line.startswith("Pebble,Gem,Green")


def test_an_effect_with_a_mistake_points_into_its_cell(tmp_path):
    bad = CSV.replace('log ""a ruby, at last""', "lgo 1")
    _, content = check_path(_ruleset(tmp_path, bad))
    (d,) = [d for d in content.diagnostics if d.severity == "error"]
    assert d.code == "syntax" and d.loc.file.endswith("gems.csv") and d.loc.line == 2
    assert "YAML" not in (d.hint or "")


@pytest.mark.parametrize("text, message, line, col", [
    ('name,type\n"Ruby,Gem\n', "never closed", 2, 1),
    ("name,type,name\n", "appears twice", 1, 11),
    ("name,type\nRuby,Gem,Red\n", "3 cells", 2, 10),
    ("name,two words\n", "not a field name", 1, 6),
    ('name,type\n"Ruby"x,Gem\n', "after a quoted cell", 2, 7),
])
def test_malformed_spreadsheets_get_diagnostics(tmp_path, text, message, line, col):
    with pytest.raises(CsvProblem, match=message) as e:
        csv_cards(text, "x.csv")
    assert (e.value.line, e.value.col) == (line, col)
    _, content = check_path(_ruleset(tmp_path, text))
    assert any(d.code == "cards/csv" and (d.loc.line, d.loc.col) == (line, col) for d in content.diagnostics)


def test_cells_quote_commas_quotes_and_line_breaks():
    rows = csv_cards('name,text\r\n"A, b","say ""hi""\nthen go"\r\nC,\r\n', "x.csv")
    assert [dict(entry) for entry, _ in rows] == [{"name": "A, b", "text": 'say "hi"\nthen go'}, {"name": "C"}]
    assert [(loc.line, loc.col) for _, loc in rows] == [(2, 1), (4, 1)]


def test_yaml_and_spreadsheet_cards_combine(tmp_path):
    rs, content = check_path(_ruleset(tmp_path, CSV, "- {name: Opal, type: Gem, color: Blue, worth: 2}\n"))
    assert content.ok
    assert sorted({c.name for c in rs.cards}) == ["Opal", "Pebble", "Ruby"]
