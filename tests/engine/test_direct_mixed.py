"""Generated code (directmixed.py) runs the expressions whose sides are not plain numbers, as the
task engine runs them: `+` of a text with a card or list, a list and a single value, `==` of two
lists, `next_player of P`, `covered(c)`; and a card used as a number fails in rule words at the
rule (never by its id, which would quietly count as a number)."""
from __future__ import annotations

from interpreter.api import load_program
from interpreter.engine.direct import compile_direct
from interpreter.engine.directgame import DirectGame
from interpreter.engine.directobserved import compile_observed
from interpreter.engine.factory import new_game
from interpreter.engine.resumablegame import compile_resumable
from rulekit import HEADER, ruleset

ZONES = "card type Gem:\n    v: 1..3\nzone deck: pile, shared, hidden\nzone line: row\nplayer stat pts: 0..99\n"
CARDS = "- {name: Ruby, type: Gem, v: 1}\n- {name: Opal, type: Gem, v: 2}\n"


def _direct(tmp_path, turn: str) -> DirectGame:
    rules = HEADER + ZONES + "setup:\n    move all_cards() to deck\nturn:\n    " + turn.replace("\n", "\n    ") + \
        "\n    end game\n"
    return DirectGame(compile_direct(load_program(ruleset(tmp_path, rules, CARDS))), 2, 1)


def test_texts_lists_and_players_beyond_numbers(tmp_path):
    g = _direct(tmp_path, 'log "top: " + first(deck)\nlog [1, 2] + 3\nlog 0 + [5]\nlog cards_in(deck) + last(deck)\n'
                          'log [cards_in(deck) == [first(deck), last(deck)], [1, 2] != [1, 2], [1] == none]\n'
                          'log [next_player of you, next_player of next_player of you]')
    assert g.error is None
    assert g.log == ["top: Ruby (1)", "[1, 2, 3]", "[0, 5]", "[Ruby (1), Opal (2), Opal (2)]", "[yes, no, no]",
                     "[player 2, player 1]"]


def test_covered_as_a_call(tmp_path):
    g = _direct(tmp_path, "move all_cards() to line\nlet a = first(line)\nplace last(line) on a\n"
                          "log [covered(a), covered(last(line))]")
    assert g.error is None and g.log == ["[yes, no]"]


def test_a_card_among_numbers_fails_in_rule_words(tmp_path):
    g = _direct(tmp_path, "set your pts to your pts + first(deck)")
    assert g.over and g.error is not None and (g.error.loc.line, g.error.loc.col) == (12, 5)
    assert g.error.message == ("cannot add a number and a card in `your pts + first(deck)`: `your pts` is 0, "
                               "`first(deck)` is the card Ruby")
    g = _direct(tmp_path, "log 2 * last(deck)")
    assert g.error.message == "only numbers can be multiplied, not 2 and the card Opal" and g.error.loc.col == 9
    g = _direct(tmp_path, "let xs = [1, 2]\nlog xs[first(deck)]")
    assert g.error.message.startswith("a position in a list must be a number, not a card in `xs[first(deck)]`")
    g = _direct(tmp_path, 'let t = "x"\nlog t.v')
    assert g.error.message == "a text has no field `v`" and g.error.loc.line == 13


def test_a_stat_may_hold_a_list_mixing_cards_and_maps(tmp_path):
    rules = HEADER + ZONES + "stat held = 0\nsetup:\n    move all_cards() to deck\nturn:\n    set held to top(deck)\n" \
        '    you choose x from [1, 2] "x"\n    set held to [top(deck), {1: top(deck), 2: 3}, 4]\n    log held\n' \
        "    log {you: top(deck)}\n    end game\n"
    g = DirectGame(compile_direct(load_program(ruleset(tmp_path, rules, CARDS))), 2, 1)
    assert g.state.stats["held"] is g.rs.cards[1]  # the card itself, as the task engine keeps it
    g.answer(0)
    assert g.error is None and g.over
    opal = g.rs.cards[1]
    assert g.state.stats["held"] == [opal, {1: opal, 2: 3}, 4]
    assert g.log == [f"[Opal (2), {{1: {opal!r}, 2: 3}}, 4]", f"{{player 1: {opal!r}}}"]


def test_every_form_of_generated_code_runs_them(tmp_path):
    """The observed and the copyable (resumable) forms are made from the same source."""
    turn = 'log "top: " + first(deck)\nlog [next_player of you, [1] + 2, {you: first(deck)}]\nlog 2 * last(deck)'
    rules = HEADER + ZONES + "setup:\n    move all_cards() to deck\nturn:\n    " + turn.replace("\n", "\n    ") + \
        "\n    end game\n"
    program = load_program(ruleset(tmp_path, rules, CARDS))
    dp = compile_direct(program)
    compile_observed(dp)
    compile_resumable(dp)
    g = new_game(program, 2, 1, record_digests=True)  # the copyable form
    assert g.log == ["top: Ruby (1)", f"[player 2, [1, 2], {{player 1: {program.rs.cards[0]!r}}}]"]
    assert g.error.message == "only numbers can be multiplied, not 2 and the card Opal"
