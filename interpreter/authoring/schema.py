"""`grimoire schema RULESET`: a JSON Schema of the ruleset's card files, for YAML editors.

It is made from the same pydantic models the loader validates cards with (`loader.card_model`),
one per declared card type. Editors' YAML validators (VS Code's YAML extension among them) speak
draft-07 and ignore OpenAPI's `discriminator`, so a card is matched to its type's schema with
`if type is T then ...` clauses rather than a discriminated union.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from ..api import check_path
from ..content.loader import card_model
from ..language.diagnostics import ContentError

__all__ = ["card_schema"]

DRAFT = "http://json-schema.org/draft-07/schema#"
_COMMON = {"name": "the card's name (rules and scenarios find cards by it)",
           "type": "the card type, declared in the rules with `card type NAME:`",
           "copies": "how many cards of this entry the game has (default 1)",
           "effect": "the card's triggers and actions, in the rule language (write `effect: |`, lines indented)",
           "text": "the card's printed text, for people (the rules do not read it)"}


def _retarget(value: Any) -> Any:
    """pydantic writes `$defs` (draft 2020-12); draft-07 readers look in `definitions`."""
    text = json.dumps(value).replace('"#/$defs/', '"#/definitions/')
    return json.loads(text)


def card_schema(ruleset: str | Path) -> dict:
    """The JSON Schema of a card file of `ruleset`: a list of cards (or a mapping with a `cards:`
    list), each with a declared `type` and that type's fields."""
    rs, content = check_path(ruleset)
    if rs is None:
        raise ContentError([d for d in content.diagnostics if d.severity == "error"])
    definitions: dict[str, Any] = {}
    clauses, replace_clauses = [], []
    for name, node in rs.card_types.items():
        model = card_model(name, node)
        schema = _retarget(model.model_json_schema(by_alias=True, ref_template="#/definitions/{model}"))
        definitions.update(schema.pop("definitions", {}))
        schema.pop("$defs", None)
        props = schema.get("properties", {})
        for f in node.fields_:  # what an editor shows on hover over a card's field
            if f.name in props:
                props[f.name]["description"] = f.describe()
        for key, text in _COMMON.items():
            if key in props:
                props[key]["description"] = text
        schema["title"] = f"{name} card"
        schema["description"] = node.describe()
        definitions[f"card_{name}"] = schema
        clauses.append({"if": {"properties": {"type": {"const": name}}, "required": ["type"]},
                        "then": {"$ref": f"#/definitions/card_{name}"}})
        definitions[f"replace_{name}"] = _replacement(schema, name)
        replace_clauses.append({"if": {"properties": {"type": {"const": name}}, "required": ["type"]},
                                "then": {"$ref": f"#/definitions/replace_{name}"}})
    card = {
        "type": "object",
        "description": "a card: its name, its type (a declared card type) and that type's fields",
        "required": ["name", "type"],
        "properties": {"name": {"type": "string"}, "type": {"enum": sorted(rs.card_types)}},
        "allOf": clauses,
    }
    # a mod's card file may also drop a base card (`- remove: NAME`) or give a whole new one in
    # its place (`- replace: NAME` and the card's fields), docs/modding.md
    remove = {"type": "object", "description": "every copy of the named base card leaves the game",
              "required": ["remove"], "properties": {"remove": {"type": "string"}}, "additionalProperties": False}
    replace = {"type": "object", "description": "a whole card in place of the named base card",
               "required": ["replace", "type"],
               "properties": {"replace": {"type": "string"}, "type": {"enum": sorted(rs.card_types)}},
               "allOf": replace_clauses}
    cards = {"type": "array", "items": {"anyOf": [{"$ref": "#/definitions/card"}, {"$ref": "#/definitions/remove"},
                                                  {"$ref": "#/definitions/replace"}]}}
    definitions.update(card=card, remove=remove, replace=replace)
    return {
        "$schema": DRAFT,
        "title": f"cards of {rs.title}",
        "description": f"a card file of {rs.title} (made by `grimoire schema` from its card types)",
        "oneOf": [cards, {"type": "object", "required": ["cards"], "properties": {"cards": cards}}],
        "definitions": definitions,
    }


def _replacement(schema: dict, name: str) -> dict:
    """A card type's schema for a `replace:` entry: the same fields, `replace` added, `name` optional
    (the entry keeps the replaced card's name unless it gives another)."""
    out = copy.deepcopy(schema)
    out["title"] = f"{name} card in place of a base card"
    out.setdefault("properties", {})["replace"] = {"type": "string", "description": "the base card this one replaces"}
    out["required"] = ["replace", *[r for r in out.get("required", []) if r != "name"]]
    return out
