"""Invariants of the runtime over many seeded random games of every ruleset in rulesets/, at every
player count, checked after every decision: every card lies in exactly one place, no card is lost
or made, stats stay in their bounds, a seat's view never shows hidden zones nor cards under another
card, and every game ends within the limits without an error."""
from __future__ import annotations

from typing import Any
from pathlib import Path

import pytest

from rulekit import played_rulesets
from interpreter.play.agents import RandomAgent
from interpreter.api import load_program
from interpreter.engine.factory import new_game

ROOT = Path(__file__).resolve().parents[2]
RULESETS = played_rulesets()
GAMES = {"toil_and_troublez": 15, "talisman": 2}  # games per player count; other rulesets: DEFAULT_GAMES (talisman: 60-round games)
DEFAULT_GAMES = 4
CASES = [(path, players) for path in RULESETS
         for players in range(load_program(path).rs.min_players, load_program(path).rs.max_players + 1)]


def check_places(g: Any) -> None:
    """Every card is in exactly one place, and `where`, `zones` and `under` agree."""
    st, n = g.state, len(g.cards)
    seen: dict[int, str] = {}
    tops: set[int] = set()

    def note(cid: int, place: str) -> None:
        assert cid not in seen, f"card {g.cards[cid]!r} is both in {seen[cid]} and {place}"
        seen[cid] = place

    for key, z in st.zones.items():
        name = key.partition("#")[0]
        if name in g.program.rows_zones:
            ids = st.row_ids.get(key, [])  # every row keeps a stable id of its own
            assert len(ids) == len(z) and len(set(ids)) == len(ids), (key, ids, z)
            for row in z:
                assert row, f"an empty row remains in {key}"
                for cid in row:
                    note(cid, key)
                    tops.add(cid)
        else:
            for cid in z:
                note(cid, key)
                tops.add(cid)
    for top, below in st.under.items():
        assert below, f"card {top} has an empty `under` list"
        assert top in tops, f"card {top} has cards under it but is not itself on top of a zone"
        for cid in below:
            note(cid, f"^{top}")
    assert set(seen) == set(range(n)), f"cards nowhere: {sorted(set(range(n)) - set(seen))}"
    assert st.where == seen, {c: (st.where.get(c), seen.get(c)) for c in range(n) if st.where.get(c) != seen.get(c)}


def check_stats(g: Any) -> None:
    for name, sd in g.rs.stats.items():
        values = [s[name] for s in g.state.pstats] if sd.per_player else [g.state.stats[name]]
        for v in values:
            assert sd.lo is None or v >= sd.lo, (name, v)
            assert sd.hi is None or v <= sd.hi, (name, v)


def check_view(g: Any, seat: int | None, labels: list[str]) -> None:
    """A seat sees sizes only of hidden zones (and of others' `owner` zones); in the zones it may
    see, exactly the top cards, never what lies under them."""
    view = g.view(seat)
    st = g.state
    for name, zd in g.rs.zones.items():
        for o in (range(st.players) if zd.per_player else [None]):
            key = name if o is None else f"{name}#{o}"
            shown = view[name if o is None else f"{name} of player {o + 1}"]
            raw = st.zones[key]
            if not (zd.visibility == "public" or (zd.visibility == "owner" and o == seat)):
                assert shown == ([len(r) for r in raw] if zd.kind == "rows" else len(raw)), (key, shown)
                continue
            rows_shown, rows_raw = (shown, raw) if zd.kind == "rows" else ([shown], [raw])
            for row_shown, row_raw in zip(rows_shown, rows_raw, strict=True):
                for text, cid in zip(row_shown, row_raw, strict=True):
                    assert text.startswith(labels[cid]), (text, labels[cid])
                    rest = text[len(labels[cid]):]
                    for below in st.under.get(cid, ()):
                        assert labels[below] not in rest, (text, labels[below])


def check_all(g: Any, labels: list[str], seats) -> None:
    assert len(g.cards) == len(g.rs.cards)
    check_places(g)
    check_stats(g)
    for seat in seats:
        check_view(g, seat, labels)


@pytest.mark.parametrize("path,players", CASES, ids=[f"{p.name}-{n}p" for p, n in CASES])
def test_random_games_keep_invariants(path, players):
    program = load_program(path)
    for k in range(GAMES.get(path.name, DEFAULT_GAMES)):
        seed = 1000 * players + k
        agents = [RandomAgent(f"{seed}/{p}") for p in range(players)]
        g = new_game(program, players, seed, seats=agents)  # generator code: random seats copy nothing
        labels = [c.label() for c in g.cards]
        turn = g.state.turn_number
        check_all(g, labels, [None, *range(players)])
        decisions = 0
        while not g.over:
            d = g.decision
            assert d is not None and 0 <= d.player < players and len(d.options) >= 2
            assert len(d.labels) == len(d.options)
            g.answer(agents[d.player].choose(g, d))
            decisions += 1
            # views: a spectator's, the seat that just chose, the seat to choose next and, in turn,
            # every other seat (all seats are checked at every turn's first decision)
            seats = {None, d.player, decisions % players}
            if g.decision is not None:
                seats.add(g.decision.player)
            if g.state.turn_number != turn:
                turn, seats = g.state.turn_number, {None, *range(players)}
            check_all(g, labels, seats)
        assert g.error is None, f"seed {seed}: {g.error}"
        assert g.result is not None and len(g.result["scores"]) == len(g.seats)  # dummy seats are scored too
        # someone wins, unless the rules ended the game `with no winner` (then nobody does)
        assert bool(g.result["winners"]) != g.state.no_winner and g.decisions_made == decisions
        assert g.result["turns"] <= g.limits.max_turns and g.steps <= g.limits.max_steps
        if path.name == "toil_and_troublez":
            assert g.state.zones["draw_pile"] == []  # TT-081..TT-083: it ends when the pile runs out
