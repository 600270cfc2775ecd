"""The patterns the Talisman expansions II mods are built from (docs/language.md, "Patterns: a life
after death, cards that survive it, a countdown for everyone"), each on a tiny base and mod: a
`before`/`after procedure kill` pair turns death into a Ghost state (a replaced `lose` lets the
Ghost play on at zero lives), cards marked `bound` are set aside before the base body ditches
everything and given back after, a resurrection ends the state, and a pile that loses a card every
turn ends the game `with no winner` when empty. Both engines play the same games."""
from __future__ import annotations

from collections import Counter

from interpreter.api import load_program
from interpreter.play.session import agents_for, game_seed
from interpreter.engine.factory import new_game
from rulekit import same_games_in_both_forms

BASE = """\
game "Afterlife":
    players 2..3

card type Charm:
    bound: flag = false

card type Omen:
    n: 1..9

die type D6: 1..6, 1 dice

zone tray: set
zone pool: set
zone box: set
zone charms: set, per player
player stat lives: 0..9
player stat out: 0..1
player stat dead: 0..1                  # killed: out of the game from his next turn

setup:
    move all_cards() where it is D6 to tray
    move all_cards() where it is Charm to pool
    for each p in players:
        set lives of p to 2
        move first(pool where it.bound) to charms of p
        move first(pool where not it.bound) to charms of p

turn:
    if dead of you == 1:
        set your out to 1
    if out of you == 0:
        if you may "Tempt fate?":
            roll first(tray)
            if first(tray).face <= 3:
                lose(you)

procedure lose(p):
    p loses 1 lives
    if lives of p == 0:
        kill(p)

procedure kill(p):
    log [p, "dies"]
    move charms of p to box
    set dead of p to 1

as soon as count(players where out of it == 0) <= 1:
    end game "last one standing"

score p: 1 - out of p
"""

MOD = """\
game "Afterlife with Ghosts":
    extends "afterlife"

zone omens: pile
zone kept: set, per player
player stat ghost: 0..1
stat doom_set: 0..1

after setup:
    move all_cards() where it is Omen to omens
    set doom_set to 1

before procedure kill(p):
    if ghost of p == 0:
        move charms of p where it.bound to kept of p

after procedure kill(p):
    if ghost of p == 0:
        set dead of p to 0
        set ghost of p to 1
        move kept of p to charms of p
        log [p, "becomes a Ghost"]
    else:
        set ghost of p to 0

replace procedure lose(p):
    if ghost of p == 1 and lives of p > 0:
        p loses 1 lives
    else:
        p loses 1 lives
        if lives of p == 0:
            kill(p)

after turn:
    if ghost of you == 1 and first(tray).face >= 5:
        you gains 1 lives
        set ghost of you to 0
        log [you, "is resurrected"]
    if count(omens) > 0:
        move top(omens) to box

as soon as doom_set == 1 and count(omens) == 0:
    end game "the omens are fulfilled" with no winner
"""

CARDS = """\
cards:
  - {name: Soul Charm, type: Charm, bound: true, copies: 3}
  - {name: Trinket, type: Charm, copies: 3}
  - {name: Omen, type: Omen, n: 1, copies: 9}
"""


def stack(tmp_path):
    for name, rules in (("afterlife", BASE), ("ghosts", MOD)):
        (tmp_path / name / "cards").mkdir(parents=True)
        (tmp_path / name / "game.rules").write_text(rules, encoding="utf-8")
    (tmp_path / "afterlife" / "cards" / "cards.yaml").write_text(CARDS, encoding="utf-8")
    return load_program(f"{tmp_path / 'afterlife'} --with {tmp_path / 'ghosts'}")


def names(g, zone):
    return sorted(g.cards[c].name for c in g.state.zones[zone])


def test_ghosts_keep_bound_cards_play_on_and_the_countdown_ends_the_game_for_everyone(tmp_path):
    """After every decision: a Ghost is in play and holds only his bound card (the Trinket was
    ditched by the base's `kill`); a dead player holds nothing. Over the seeds there are Ghosts,
    resurrections, and both endings: the last one standing (one winner) and the empty countdown
    (nobody wins)."""
    program = stack(tmp_path)
    seen, endings = Counter(), Counter()
    for i in range(16):
        seed = game_seed(11, i)
        g = new_game(program, 2, seed)
        seats = agents_for(["random"], 2, seed)
        while not g.over:
            g.answer(seats[g.decision.player].choose(g, g.decision))
            for p in range(2):
                if g.state.pstats[p]["ghost"] == 1:
                    seen["ghost"] += 1
                    assert g.state.pstats[p]["out"] == 0
                    assert names(g, f"charms#{p}") == ["Soul Charm"]
                if g.state.pstats[p]["dead"] == 1:
                    assert names(g, f"charms#{p}") == []
        assert g.error is None, g.error
        seen["resurrected"] += sum("is resurrected" in str(line) for line in g.log)
        endings[(g.result["reason"], len(g.result["winners"]))] += 1
    assert seen["ghost"] > 0 and seen["resurrected"] > 0, (seen, endings)
    assert endings[("the omens are fulfilled", 0)] > 0 and endings[("last one standing", 1)] > 0, endings


def test_both_engines_play_the_same_games(tmp_path):
    """The task engine and the direct engine: same decisions, result, log and final state."""
    same_games_in_both_forms(stack(tmp_path), games=4)