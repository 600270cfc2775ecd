"""Every Talisman mod of rulesets/ stacks with every other (docs/modding.md, "The order of the
Talisman mods"): each pair validates with no diagnostic, given in either `--with` order, so a mod
added later is checked against all the others as soon as its folder exists. The mods that hook the
same steps say `after` each other, so a big stack is one game whatever order it is typed in, and
bots play it on generated code."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.api import check_path, load_program
from interpreter.content.loader import load
from interpreter.engine.factory import new_game
from interpreter.play.agents import make_agent

ROOT = Path(__file__).resolve().parents[2]
MODS = sorted(p.name for p in (ROOT / "rulesets").iterdir()
              if p.name.startswith("talisman_") and (p / "game.rules").is_file())
# the mods whose hooks meet: ordered by their `after` lines into one chain, in this order
ORDERED = ["talisman_bloodmoon", "talisman_reaper", "talisman_souls", "talisman_harbinger", "talisman_regions",
           "talisman_highland", "talisman_dungeon", "talisman_city", "talisman_woodland", "talisman_dragon"]


def stack(*mods: str) -> str:
    return f"{ROOT}/rulesets/talisman --with " + ",".join(f"{ROOT}/rulesets/{m}" for m in mods)


def shown(diagnostics) -> list[str]:
    return [f"{d.severity} {d.code}: {d.message}" for d in diagnostics]


@pytest.mark.parametrize("mod", MODS[:-1])
def test_each_pair_of_talisman_mods_validates_clean_in_either_order(mod):
    """The pairs of `mod` with every mod after it by name: checked whole one way, loaded the other
    way (the order a stack loads in is all that the `--with` order can change)."""
    for other in MODS[MODS.index(mod) + 1:]:
        _, content = check_path(stack(mod, other))
        assert shown(content.diagnostics) == [], (mod, other)
        assert shown(load(stack(other, mod)).diagnostics) == [], (other, mod)


def test_the_ordered_mods_load_in_one_order_whatever_the_with_order():
    layers = ["talisman", *ORDERED]
    for order in (ORDERED, ORDERED[::-1], sorted(ORDERED), ORDERED[1::2] + ORDERED[::2]):
        content = load(stack(*order))
        assert content.layers == layers and shown(content.diagnostics) == []
    assert set(ORDERED) <= set(MODS)


def test_bots_play_every_talisman_mod_together_on_generated_code():
    """A few short stretches of play of the whole stack (every mod), with 2 and 4 players: no
    error, and the game gets past its opening turns (the full games are `grimoire simulate`'s)."""
    _, content = check_path(stack(*MODS[::-1]))
    assert shown(content.diagnostics) == []
    program = load_program(stack(*MODS[::-1]))
    for players, seed in ((2, 1), (4, 2)):
        bots = [make_agent("guided", f"{seed}/{i}") for i in range(players)]
        g = new_game(program, players, seed, seats=bots)  # generated code (its compile is this test's cost)
        assert type(g).__name__ == "DirectGame"
        for _ in range(150):
            if g.over:
                break
            g.answer(bots[g.decision.player].choose(g, g.decision))
        assert g.error is None
        assert g.over or len(g.choices) == 150
