"""`prefer` rates the options of an action decision (`P takes actions`) by the action's label, the
text in quotes, with the end of the actions as `none` (docs/language.md, "prefer"): a guided bot
then takes the actions a ruleset's guidance names, in both engines."""
from __future__ import annotations

from rulekit import ruleset

from interpreter.sim.simulate import simulate

# Each turn a player may Dig (a point) and Nap (nothing), once each, in any order, or stop at
# once. The guidance rates Dig over Nap over stopping: a guided player always scores 1 a turn.
RULES = """
game "Dig":
    players 2

player stat points: 0..99

action "Dig" once per turn:
    your points += 1

action "Nap" once per turn:
    pass

turn:
    you take actions "Stop"
    if round_number >= 4:
        end game after this round

score p: points of p

prefer p for "Choose an action": 2 if it == "Dig" else (1 if it == "Nap" else 0)
"""


def test_guided_bots_take_the_actions_the_guidance_names(tmp_path):
    folder = ruleset(tmp_path, RULES)
    for engine in ("tasks", "direct"):
        report = simulate(str(folder), 4, 2, 0, ["guided"], engine=engine, per_game=True, card_stats=False)
        assert [r["scores"] for r in report["per_game"]] == [[4, 4]] * 4, engine


def test_random_bots_do_not(tmp_path):
    """The same games with random bots: some turns end before the Dig (the test above is not luck)."""
    report = simulate(str(ruleset(tmp_path, RULES)), 4, 2, 0, ["random"], per_game=True, card_stats=False)
    assert any(r["scores"] != [4, 4] for r in report["per_game"])
