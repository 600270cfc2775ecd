"""The setup's prefix, played once per ruleset and player count.

Most setups begin by sorting the cards into their piles (`move all_cards() where it is T and
it.F == 2 to deck`) before anything is shuffled, asked or rolled. From a new game's
empty table those statements put the same cards in the same places in every game of a ruleset at
one player count, so the generated code runs them in the first game only and records where they
left the cards; each later game lays the cards out from that record (`restored`), which in a
short game (the dice game at one player) is about 3% of its work.

What the prefix may hold is decided on the rules (`prefix_length`): moves of cards chosen by
their printed fields, types and places, into shared piles and sets, under `if` tests of the
player count; nothing that reads a stat, a seat, the dice or the random stream. The compiler also
checks the code written for it (direct.py `_Gen.setup_prefix`): it asks nothing and draws nothing.
A game whose table is not empty or whose change bits differ from the first game's when its setup
begins runs the statements itself, as does every game where the first one's setup failed.
"""
from __future__ import annotations

from typing import Any

from ..language.tree import Node, walk

# the constructs a prefix statement may be built of (each also checked below)
_KINDS = frozenset({"move", "if", "where", "call", "is", "name", "attr", "compare", "in", "and", "or", "not", "lit"})


def prefix_length(body: list[Node], rs: Any, fields: set) -> int:
    """How many of the setup's first statements are the same in every game of a player count
    (`fields`: the cards' field names, the code generator's `card_fields`)."""
    n = 0
    for stmt in body:
        if not _static_stmt(stmt, rs, fields):
            break
        n += 1
    return n


def _static_stmt(stmt: Node, rs: Any, fields: set) -> bool:
    if stmt.kind == "move":
        dest = stmt.dest
        if stmt.name or stmt.position not in (None, "at bottom", "on top") or dest.kind != "name" or \
                not _shared_pile(dest.id, rs):
            return False
        return _static_expr(stmt.what, rs, fields)
    if stmt.kind == "if":
        return all(_static_expr(cond, rs, fields) and all(_static_stmt(s, rs, fields) for s in body)
                   for cond, body in stmt.branches) and all(_static_stmt(s, rs, fields) for s in stmt.orelse or ())
    return False


def _shared_pile(name: str, rs: Any) -> bool:
    z = rs.zones.get(name)
    return z is not None and not z.per_player and z.kind in ("pile", "set")


def _static_expr(n: Node, rs: Any, fields: set) -> bool:
    for m in walk(n):
        if m.kind not in _KINDS:
            return False
        if m.kind == "call" and (m.func != "all_cards" or m.args):
            return False
        if m.kind == "name" and m.id not in ("it", "player_count") and not _shared_pile(m.id, rs):
            return False
        if m.kind == "attr" and (m.obj.kind != "name" or m.obj.id != "it" or m.name not in fields):
            return False
        if m.kind == "is" and m.what not in rs.card_types and m.what not in rs.die_types and m.what != "empty":
            return False
    return True


def restored(R: Any) -> bool:
    """At the prefix: lay the cards out as the first game's prefix left them, if this game
    starts as it did (True: the prefix's statements are skipped); else note how it starts, for
    `recorded`."""
    st = R.state
    where = st.where
    key = "setup_prefix" if type(where) is dict else "setup_prefix_logged"  # (the second also notes the moves)
    memo = R.tables.get(key)
    empty = not where and not st.under and not any(st.zones.values()) and not getattr(where, "events", None)
    if memo is not None and empty and memo[0] == R.touched:
        _, zones, places, events, touched = memo
        table = st.zones
        for k, cards in zones:
            table[k].extend(cards)
        dict.update(where, places)  # (as the generated moves write it: no hook of a ChangeLog runs)
        if events:
            where.events.extend(events)
        R.touched = touched
        return True
    R.setup_prefix = (key, R.touched) if empty and memo is None else None
    return False


def recorded(R: Any) -> None:
    """After the prefix's statements ran: keep where they left the cards, for the next games."""
    start = R.__dict__.pop("setup_prefix", None)
    st = R.state
    if start is None or st.under:
        return
    key, touched = start
    zones = [(k, list(z)) for k, z in st.zones.items() if z]
    if any(k not in R.plain_keys for k, _ in zones):  # (a row or a board: not laid out here)
        return
    where = st.where
    R.tables[key] = (touched, zones, list(where.items()), list(where.events) if type(where) is not dict else None,
                     R.touched)
