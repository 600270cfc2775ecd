"""Simultaneous decisions (`simultaneously each p in PLAYERS chooses ...`), on tiny rule files.

See docs/language-v2.md, "Version 3". No game's content is involved.
"""
from __future__ import annotations

from rulekit import answer, errors, game

CARDS = """
- {name: Ruby, type: Gem, value: 5}
- {name: Opal, type: Gem, value: 2}
- {name: Jade, type: Gem, value: 1}
"""

# Both players take from one shared pile in the same beat; a gem both want goes to nobody.
SHARED_PILE = """
game "Test":
    players 2..4
card type Gem:
    value: 1..9
zone pile: set, shared, public
zone kept: set, per player, public
setup:
    move all_cards() to pile
round:
    simultaneously each p in players chooses pick from pile "Take which gem?"
    for each p in players:
        if count(players where pick[it] == pick[p]) == 1:
            move pick[p] to kept of p
    end game
score p: sum((kept of p).value)
"""


def test_every_player_chooses_from_the_same_state_and_answers_apply_together(tmp_path):
    g = game(tmp_path, SHARED_PILE, CARDS)
    first = g.decision
    assert first.player == 0 and first.labels == ["Ruby (5)", "Opal (2)", "Jade (1)"]
    before = g.state.digest()
    answer(g, 0, "Ruby")
    # player 2 is asked next: the same options (Ruby is still there), and nothing has changed
    second = g.decision
    assert second.player == 1 and second.labels == ["Ruby (5)", "Opal (2)", "Jade (1)"]
    assert g.state.digest() == before
    assert "Ruby" not in second.prompt
    answer(g, 1, "Opal")
    assert g.over and g.error is None
    assert g.result["scores"][:2] == [5, 2]


def test_a_gem_both_players_pick_is_resolved_by_the_rules(tmp_path):
    g = game(tmp_path, SHARED_PILE, CARDS)
    answer(g, 0, "Ruby")
    answer(g, 1, "Ruby")
    assert g.over and g.error is None
    assert g.result["scores"][:2] == [0, 0]  # the rule above: a contested gem goes to nobody


def test_players_are_asked_in_the_given_order(tmp_path):
    rules = SHARED_PILE.replace("each p in players chooses", "each p in [players[2], players[1], players[0]] chooses")
    g = game(tmp_path, rules, CARDS, players=3)
    seen = []
    for label in ("Jade", "Opal", "Ruby"):
        seen.append(g.decision.player)
        answer(g, g.decision.player, label)
    assert seen == [2, 1, 0]
    assert g.over and g.result["scores"] == [5, 2, 1]


# A carriage between neighbours: a card put on it in this beat is not there for a taker.
CARRIAGE = """
game "Test":
    players 2..4
card type Gem:
    value: 1..9
zone carriage: stack, shared, public
zone hand: set, per player, hidden
zone kept: set, per player, public
setup:
    move all_cards() where it.value == 5 to hand of players[0]
    move all_cards() where it.value < 5 to carriage
round:
    simultaneously each p in players chooses act from ["give", "take"] "Your action"
    let there = [c for each c in carriage]
    for each p in players:
        if act[p] == "give":
            move hand of p to carriage
    for each p in players:
        if act[p] == "take":
            move there to kept of p
    end game
score p: sum((kept of p).value)
"""


def test_a_card_put_on_a_carriage_is_not_there_for_a_taker_in_the_same_beat(tmp_path):
    g = game(tmp_path, CARRIAGE, CARDS)
    answer(g, 0, "give")
    answer(g, 1, "take")
    assert g.over and g.error is None
    assert g.result["scores"][:2] == [0, 3]  # Opal and Jade, not the Ruby given in the same beat


COUNTED = """
game "Test":
    players 2..4
card type Gem:
    value: 1..9
zone hand: set, per player, hidden
zone pile: set, shared, public
setup:
    move all_cards() where it.value > 1 to hand of players[0]
    move all_cards() where it.value == 1 to hand of players[1]
round:
    simultaneously each p in players chooses up to 1 drop from hand of p "Discard?"
    for each p in players:
        move drop[p] to pile
    simultaneously each p in players chooses final from hand of p
    log final
    end game
score p: count(hand of p)
"""


def test_counted_choices_and_players_with_one_or_no_option(tmp_path):
    g = game(tmp_path, COUNTED, CARDS)
    assert g.decision.player == 0 and "stop choosing" in g.decision.labels
    answer(g, 0, "Ruby")
    answer(g, 1, "Jade")
    # now player 1 holds only Opal and player 2 nothing: nobody is asked
    assert g.over and g.error is None, g.error
    assert g.result["scores"][:2] == [1, 0]
    assert "player 1: Opal" in g.log[0] and "player 2: None" in g.log[0]  # one option: taken; none: none


def test_the_checker_knows_the_player_and_answer_names(tmp_path):
    assert errors(tmp_path, SHARED_PILE, CARDS) == []
    bad = SHARED_PILE.replace("chooses pick from pile", "chooses pick from stack of p")
    assert any("stack" in d.message for d in errors(tmp_path, bad, CARDS))
    shadow = SHARED_PILE.replace("each p in players chooses pick", "each p in players chooses pile")
    assert any(d.code == "name/shadow" for d in errors(tmp_path, shadow, CARDS))


def test_a_clone_mid_beat_keeps_the_pending_answers_separate(tmp_path):
    g = game(tmp_path, SHARED_PILE, CARDS)
    answer(g, 0, "Jade")
    copy = g.clone()
    answer(g, 1, "Ruby")
    answer(copy, 1, "Jade")
    assert g.result["scores"][:2] == [1, 5]
    assert copy.result["scores"][:2] == [0, 0]
