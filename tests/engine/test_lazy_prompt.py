"""`choose any` asks yes or no per option; its question's words (the option's label: a die and its
face) are made only when the decision's prompt is read (`Decision.prompt`, `prompt_of`), since a
dice game asks hundreds of them a game and bots never read one. What a reader sees must not
change: the words name the option asked about as it is while the decision is pending, in the
generator form, in the copyable form and in a copy of it."""
from __future__ import annotations

from interpreter.api import load_program
from interpreter.engine.directcover import CoverRuntime
from interpreter.engine.directgame import DirectGame
from interpreter.engine.factory import new_game
from interpreter.engine.resumablegame import ResumableGame
from interpreter.play.agents import RandomAgent
from rulekit import ruleset

DICE = """\
game "Dice":
    players 2..3

die type D6: 1..6, 3 dice

zone cup: set, shared, public

setup:
    move all_cards() to cup

turn:
    roll cup
    you choose any again from cup "Re-roll"
    roll again
    if turn_number >= 4:
        end game

score p: sum(cup.face)
"""


def _expected(g, asked: int) -> str:
    """The question about the `asked`-th die of the cup (the options are asked in the cup's order)."""
    return f"Re-roll — {g.label(g.state.zones['cup'][asked])}?"


def test_a_batch_game_makes_no_question_words_and_a_reader_sees_them(tmp_path, monkeypatch):
    program = load_program(ruleset(tmp_path, DICE))
    made = []
    real = CoverRuntime.subset_prompt
    monkeypatch.setattr(CoverRuntime, "subset_prompt", lambda R, *a: made.append(a) or real(R, *a))
    seats = [RandomAgent(1), RandomAgent(2)]
    g = new_game(program, 2, 7, seats=seats)
    assert isinstance(g, DirectGame) and not isinstance(g, ResumableGame)
    g.play_out(seats)
    assert g.over and g.error is None and len(g.choices) == 12  # 4 turns, 3 dice each
    assert made == []  # asked 12 times, never read
    for form in (new_game(program, 2, 7, seats=seats), new_game(program, 2, 7)):  # generator, copyable
        for turn in range(3):
            for asked in range(3):
                d = form.decision
                assert d.kind == "subset" and d.prompt == _expected(form, asked)
                form.answer(asked % 2)
    assert len(made) == 18  # each read once, when first read


def test_a_copy_of_a_pending_question_makes_its_words_from_its_own_state(tmp_path):
    """A search agent's copy (`ResumableGame.clone`) keeps the question unmade; read later, after
    the original has moved on and re-rolled the dice, it still names the die as the copy has it."""
    program = load_program(ruleset(tmp_path, DICE))
    g = new_game(program, 2, 11)
    assert isinstance(g, ResumableGame)
    g.answer(0)  # the second die's question is pending
    copy = g.clone()
    want = _expected(copy, 1)
    while not g.over:  # the original plays on: its dice are rolled again and again
        g.answer(0)
    assert copy.decision.prompt == want
    assert copy.decision.prompt.startswith("Re-roll — D6 #2 showing ")
