"""The cheap card check (content/cardfast.py) accepts only what the strict pydantic model of the card
type accepts, and gives the same values: compared on every shipped card and on each card type's
fields given wrong values, missing, or unknown."""
from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from interpreter.api import check_path
from interpreter.content.cardfast import card_shape, checked_card
from interpreter.content.loader import _model_for, _plain, load

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted(p for p in (ROOT / "rulesets").iterdir() if p.is_dir())
ODD = [True, False, 0, 1, -1, 7, 1000, 1001, 10 ** 6, 1.5, "", "1", "x", "true", None, [1], {"a": 1}]


def _pydantic(model, plain: dict):
    try:
        card = model.model_validate(plain)
    except ValidationError:
        return None
    return card.copies, card.text, card.effect, {info.alias: getattr(card, k) for k, info in model.model_fields.items()
                                                 if info.alias not in ("name", "type", "copies", "effect", "text")}


def _agree(shape, model, plain: dict) -> bool:
    """True when the cheap check took the card (and agreed with pydantic); fails on a disagreement."""
    fast, slow = checked_card(shape, plain), _pydantic(model, plain)
    if fast is not None:
        assert fast == slow and [type(v) for v in fast[3].values()] == [type(v) for v in slow[3].values()], plain
    return fast is not None


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda p: p.name)
def test_cheap_check_agrees_with_pydantic(ruleset):
    rs, _ = check_path(ruleset)
    content = load(ruleset)
    types = {name: (card_shape(name, node), _model_for(name, node)) for name, node in rs.card_types.items()}
    taken = total = 0
    example: dict[str, dict] = {}
    for spec in content.cards:
        entry = spec.fields["__node__"]
        if entry.get("type") not in types:
            continue
        plain = {k: _plain(v) for k, v in entry.items()}
        total += 1
        taken += _agree(*types[entry["type"]], plain)
        example.setdefault(entry["type"], plain)
    assert total and taken == total  # every shipped card passes the cheap check
    for tname, plain in example.items():
        shape, model = types[tname]
        keys = list(plain) + [f[0] for f in shape.fields] + ["copies", "text", "effect", "nonsense"]
        for key in keys:
            for value in ODD:
                _agree(shape, model, {**plain, key: value})
            _agree(shape, model, {k: v for k, v in plain.items() if k != key})
        for _, kind, allowed, _ in shape.fields:
            if kind == "enum":
                for value in allowed:
                    assert _agree(shape, model, {**plain, **{f[0]: value for f in shape.fields if f[2] == allowed}})


def test_a_wrong_field_does_not_hide_a_mistake_in_the_cards_effect(tmp_path):
    """A card whose field is out of range still has its effect parsed and checked: every mistake is
    reported, each at its own line of the card file."""
    folder = tmp_path / "rs"
    (folder / "cards").mkdir(parents=True)
    (folder / "game.rules").write_text('game "T":\n    players 2\n\ncard type Thing:\n    value: 0..9\n\n'
                                       'zone deck: pile, shared, hidden\nplayer stat gold = 0\n\nsetup:\n'
                                       '    move all_cards() to deck\n\nturn:\n    end game\n\nscore p: gold of p\n',
                                       encoding="utf-8")
    (folder / "cards" / "c.yaml").write_text("- name: Coin\n  type: Thing\n  value: 42\n  effect: |\n"
                                             "    when drawn:\n        you gaine 1 gold\n"
                                             "- name: Gem\n  type: Thing\n  value: -1\n  effect: |\n"
                                             "    when drawn:\n        you gain 1 goldd\n", encoding="utf-8")
    _, content = check_path(folder)
    found = sorted((d.code, d.loc.line) for d in content.diagnostics if d.severity == "error")
    # the syntax of one card's effect, and the names of the other's, are checked all the same
    assert found == [("cards/field", 3), ("cards/field", 9), ("name/undefined", 12), ("syntax", 6)]
