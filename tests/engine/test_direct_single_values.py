"""Generated code reads a single value as the list of itself, as the rules say (`last(it)` of a
number is the number), and knows that a number is no card (`it is Gem` of a number is false, so
what reads a card after `it is Gem and ...` or in `A if it is Gem else B` is never compiled for a
number). One `prefer` rule for every decision — cards or numbers, as a mod's new question may ask —
then rates both, as the task engine did."""
from __future__ import annotations

from interpreter.engine.factory import new_game
from interpreter.play.agents import GuidedAgent
from rulekit import build

RULES = """
card type Gem:
    v: 1..9
zone pool: set, shared, public
zone won: set, per player, public
player stat bonus: 0..99
setup:
    move all_cards() to pool
turn:
    if pool is empty:
        end game
    else:
        you chooses c from pool "Take which gem?"
        move c to won of you
        you chooses n from [1, 2, 3] "Pick a number"
        set bonus of you to bonus of you + n
score p: sum((won of p).v) + bonus of p
prefer p: last(it).v if last(it) is Gem and last(it).v > 0 else 0
"""
CARDS = "".join(f"- {{name: G{v}, type: Gem, v: {v}}}\n" for v in (3, 9, 1))


def test_one_rule_rates_cards_by_their_field_and_numbers_as_themselves(tmp_path):
    program = build(tmp_path, RULES, CARDS)
    vs = [c.fields["v"] for c in program.rs.cards]
    g = new_game(program, 2, 0)
    assert type(g).__name__ in ("DirectGame", "ResumableGame")
    seats = [GuidedAgent(f"0/{i}") for i in range(2)]
    seen = set()
    while not g.over:
        d = g.decision
        prefs = g.preferences(d)
        if d.prompt == "Pick a number":  # numbers, no Gems: not the cards with those ids (v 9, 1, ...)
            assert prefs == [0.0, 0.0, 0.0]
        else:
            assert prefs == [float(vs[c]) for c in d.options]
        seen.add(d.prompt)
        g.answer(seats[d.player].choose(g, d))
    assert g.error is None and seen == {"Pick a number", "Take which gem?"}
    won = [sorted((vs[c] for c in g.state.zones[f"won#{p}"]), reverse=True) for p in range(2)]
    assert won == [[9, 1], [3]]  # the guided bots follow the rule: the best gem left, every time
