"""`grimoire schema RULESET`: the JSON Schema of a ruleset's card files accepts every shipped card
file and refuses a bad card, read by a draft-07 validator (what editors' YAML extensions speak)."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from ruamel.yaml import YAML

from interpreter.cli import main
from interpreter.content.loader import find_cards_dir

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted(p.name for p in (ROOT / "rulesets").iterdir() if p.is_dir())


def _schema(ruleset: str, capsys) -> dict:
    assert main(["schema", str(ROOT / "rulesets" / ruleset)]) == 0
    schema = json.loads(capsys.readouterr().out)
    jsonschema.Draft7Validator.check_schema(schema)
    return schema


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_shipped_card_file_validates_against_its_schema(ruleset, capsys):
    validator = jsonschema.Draft7Validator(_schema(ruleset, capsys))
    files = sorted(find_cards_dir(ROOT / "rulesets" / ruleset).glob("*.y*ml"))  # cards/NAME or its own cards/
    if not files:  # only a mod may have no cards of its own (its base's are checked with the base)
        assert "\n    extends " in (ROOT / "rulesets" / ruleset / "game.rules").read_text(encoding="utf-8")
        return
    for f in files:
        data = YAML(typ="safe").load(f.read_text(encoding="utf-8"))
        errors = [e.message for e in validator.iter_errors(data)]
        assert not errors, f"{f.name}: {errors[:3]}"


def test_a_bad_card_fails_the_schema(capsys):
    schema = _schema("tutorial_fireflies", capsys)
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert "discriminator" not in json.dumps(schema)  # ignored by draft-07 editors: matched by if/then
    firefly = schema["definitions"]["card_Firefly"]["properties"]
    assert firefly["glow"]["minimum"] == 1 and firefly["glow"]["maximum"] == 3
    assert firefly["glow"]["description"] == "a glow (a number from 1 to 3)"  # the field's describe(), for editors' hover
    v = jsonschema.Draft7Validator(schema)
    good = {"name": "Firefly", "type": "Firefly", "color": "Red", "glow": 2}
    assert not list(v.iter_errors([good]))
    assert not list(v.iter_errors({"cards": [good]}))
    for bad in ({**good, "color": "Purple"},       # not one of the enum's values
                {**good, "glow": 4},               # outside 1..3
                {**good, "glow": "2"},             # a text, not a number
                {**good, "colour": "Red"},         # a misspelt field
                {**good, "type": "Beetle"},        # no such card type
                {"name": "Firefly", "color": "Red", "glow": 1},   # no type
                {"name": "Frog", "type": "Critter", "kind": "Firefly"}):  # another type's value
        assert list(v.iter_errors([bad])), bad


def test_schema_of_a_missing_ruleset_is_a_diagnostic(tmp_path, capsys):
    assert main(["schema", str(tmp_path / "nope")]) == 1
    err = capsys.readouterr().err
    assert "no such ruleset" in err and "Traceback" not in err


def test_a_mods_remove_and_replace_entries_fit_the_schema(capsys):
    """`- remove: NAME` and `- replace: NAME` with a whole card (docs/modding.md) are accepted; a
    `remove:` carrying fields, or a replacement missing its type's fields, is not."""
    validator = jsonschema.Draft7Validator(_schema("tutorial_fireflies", capsys))
    base = next(c for c in YAML(typ="safe").load(
        next(find_cards_dir(ROOT / "rulesets" / "tutorial_fireflies").glob("*.y*ml")).read_text(encoding="utf-8"))
        if isinstance(c, dict) and "name" in c)
    ok = [{"remove": base["name"]}, {"replace": base["name"], **{k: v for k, v in base.items() if k != "name"}}]
    assert not list(validator.iter_errors(ok))
    assert list(validator.iter_errors([{"remove": base["name"], "copies": 2}]))
    assert list(validator.iter_errors([{"replace": base["name"], "type": base["type"]}]))
