"""`game.asked`, the `Decision` the generated code yields without calling the class (a class call
costs an interpreter loop of its own at every decision): it must hold what `Decision(...)` holds,
slot for slot, and behave the same for its readers."""
from __future__ import annotations

from interpreter.engine.game import Decision, asked
from interpreter.engine.directgame import GENERATED_GLOBALS


def _slots(d: Decision) -> dict:
    return {s: getattr(d, s) for s in Decision.__slots__}


def test_asked_sets_every_slot_as_the_class_does():
    label_of, prompt_of = str, "{} of {}".format
    for args in ((1, "may", "Draw?", [True, False], ["yes", "no"], None),
                 (0, "choose", ("face", "die"), [3, 4, 5], None, None, label_of, prompt_of),
                 (2, "choose", "Which?", [7], None, None, label_of)):
        a, b = asked(*args), Decision(*args)
        assert type(a) is Decision and _slots(a) == _slots(b)


def test_an_asked_decision_makes_its_prompt_and_labels_when_read():
    d = asked(0, "choose", ("face", "die"), [3, 4], None, None, lambda o: f"card {o}", "{} of {}".format)
    assert d.labels == ["card 3", "card 4"] and d.prompt == "face of die"
    assert d.to_json() == {"player": 1, "kind": "choose", "prompt": "face of die", "options": ["card 3", "card 4"],
                           "rule": None}


def test_the_generated_code_asks_with_the_factory():
    assert GENERATED_GLOBALS["_Decision"] is asked
