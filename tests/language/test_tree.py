"""The typed syntax tree: every construct renders itself in English (`describe()`), for card text,
`explain` and editor hover. The words are checked on small rules a designer might write, and every
construct of every shipped ruleset and card file must describe itself without failing."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.content.loader import load
from interpreter.language.parser import parse_effect, parse_rules
from interpreter.language import tree
from interpreter.language.tree import CONSTRUCTS, Node, _field_names, node_fields, walk

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted(p for p in (ROOT / "rulesets").iterdir() if list(p.glob("*.rules")))


def test_every_construct_has_its_own_english():
    missing = [c.__name__ for c in CONSTRUCTS if c.describe is Node.describe]
    assert not missing, f"constructs without describe(): {missing}"


def test_a_card_effect_reads_as_card_text():
    effect = parse_effect(
        'when picked_up:\n'
        '    you choose k from values(Gem.kind) "Which kind?"\n'
        '    for each p in other_players():\n'
        '        let held = trove of p where it.kind == k\n'
        '        if held is not empty:\n'
        '            p chooses c from held\n'
        '            move c to discard\n', "card.yaml")
    assert effect.describe() == (
        "When picked up: you choose k from values of the kind of Gem; for each p in other players: "
        "let held be the trove of p where the kind of it is k; if held is not empty: p chooses c from held; "
        "move c to discard.")


@pytest.mark.parametrize("rule, english", [
    ('action "Trade" once per turn if your coins >= 2:\n    you lose 2 coins\n    you gain 1 gems\n',
     "Action \u201cTrade\u201d (once per turn), if your coins is at least 2: you lose 2 coins; you gain 1 gems."),
    ("zone hand: set, per player, owner\n", "The hand is a zone: set, per player, owner."),
    ("player stat coins: 0..10 = 3\n", "Each player has coins (0 to 10), starting at 3."),
    ("player stat coins: 0.. = 3\n", "Each player has coins (at least 0), starting at 3."),
    ("score p: 2 * count(hand of p) - coins of p\n",
     "A player's score (p) is 2 times count of the hand of p minus the coins of p."),
    ("turn:\n    repeat 2 times:\n        draw 1 from deck to your hand\n    if you may \"Stop?\":\n        end game\n",
     "On a turn: repeat 2 times: draw a card from deck to your hand; if you agree to \u201cStop?\u201d: the game ends."),
])
def test_rules_read_as_sentences(rule: str, english: str):
    (decl,) = parse_rules(rule, "x.rules").decls
    assert decl.describe() == english


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda p: p.name)
def test_every_shipped_rule_and_card_describes_itself(ruleset: Path):
    content = load(ruleset)
    nodes = [n for m in content.modules for n in walk(m)]
    nodes += [n for spec in content.cards if getattr(spec, "effect", None) is not None
              for n in walk(spec.effect)]
    assert len(nodes) > 50
    for n in nodes:
        text = n.describe()
        assert text and "<" not in text and "Node" not in text, (type(n).__name__, text)


def _shipped_trees() -> list[Node]:
    from ruamel.yaml import YAML
    trees: list[Node] = [parse_rules(p.read_text(encoding="utf-8"), p.name) for p in sorted(ROOT.glob("rulesets/*/*.rules"))]
    for f in sorted(ROOT.glob("cards/*/*.yaml")):
        data = YAML().load(f.read_text(encoding="utf-8"))
        cards = data.get("cards", []) if isinstance(data, dict) else data or []
        trees += [parse_effect(str(c["effect"]), f.name) for c in cards
                  if isinstance(c, dict) and isinstance(c.get("effect"), str)]
    return trees


def test_only_the_node_fields_hold_constructs():
    """`node_fields` leaves out a field by its annotation (a text, a number, a location...): no
    construct of a shipped rule file or card effect holds a construct (or a list with one) there,
    so the walks that read only those fields (`walk`, the parser's depth check) miss nothing."""
    def holds_node(v) -> bool:
        return isinstance(v, Node) or isinstance(v, (list, tuple)) and any(holds_node(x) for x in v)

    seen: set[type] = set()
    trees = _shipped_trees()
    assert len(trees) > 300
    for t in trees:
        for n in walk(t):
            seen.add(type(n))
            skipped = set(_field_names(type(n))) - set(node_fields(type(n)))
            assert not [f for f in skipped if holds_node(getattr(n, f))], (type(n).__name__, n.loc)
            assert [f for f in _field_names(type(n)) if f in node_fields(type(n))] == list(node_fields(type(n)))
    assert len(seen) > 60
    assert not node_fields(tree.Name) and node_fields(tree.Arith)  # a leaf; a construct of parts
