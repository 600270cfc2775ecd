"""The fixed library of functions rule expressions may call. Pure, except `random`, which
draws from the game's one seeded RNG. Nothing here reaches files, the network or Python."""
from __future__ import annotations

from typing import Callable

from ..content.model import CardData
from ..language.kinds import BOOL, NUMBER
from ..runtime.errors import RuleError
from ..runtime.values import RowRef, Seat, Space, ZoneRef
from ..runtime.zones import row_ids, zone_cards

__all__ = ["CORE_BUILTINS", "Builtin", "ARGS", "TURN", "ANYWHERE"]


# What a builtin's value depends on (`Builtin.reads`), from least to most: settling re-runs a
# state-based rule only when something it reads changed (analysis/effects.py), so a function
# marked as reading less than it does would leave a rule stale.
ARGS = "args"          # its arguments only (a zone argument: that zone's cards)
TURN = "turn"          # may also read whose turn it is, who asks, or the random source
ANYWHERE = "anywhere"  # may read where any card of the game lies


class Builtin:
    """A function rules may call: `fn(g, env, *args)`, between `lo` and `hi` arguments, its doc;
    the kind of value it gives when always the same (`result`, see language/kinds.py), whether
    its first argument must be a collection (a zone, row or list) — what the checker reads — and
    what its value depends on (`reads`: ARGS, TURN or ANYWHERE; `pure` when ARGS)."""

    __slots__ = ("fn", "lo", "hi", "doc", "result", "collection", "reads")

    def __init__(self, fn: Callable, lo: int, hi: int, doc: str, *, result: str | None = None,
                 collection: bool = False, reads: str = TURN):
        self.fn, self.lo, self.hi, self.doc = fn, lo, hi, doc
        self.result, self.collection, self.reads = result, collection, reads

    @property
    def pure(self) -> bool:
        """Whether the value depends on the arguments alone (the same arguments, the same value)."""
        return self.reads == ARGS


def _distinct(g, e, xs):
    vals = [x for x in g.charged_list(xs) if x is not None]
    return len(vals) == len(set(vals))


def _distinct_values(g, e, xs):
    out = []
    for x in g.charged_list(xs):
        if x is not None and x not in out:
            out.append(x)
    return out


def _ascending(g, e, xs):
    vals = [x for x in g.charged_list(xs) if x is not None]
    return all(a < b for a, b in zip(vals, vals[1:]))


def _first(g, e, xs, n=None):
    lst = g.charged_list(xs)
    if n is None:
        return lst[0] if lst else None
    return lst[:n]


def _last(g, e, xs, n=None):
    lst = g.charged_list(xs)
    if n is None:
        return lst[-1] if lst else None
    return lst[-n:] if n else []


def _rest(g, e, xs):
    return g.charged_list(xs)[1:]


def _count(g, e, xs):
    return len(g.charged_list(xs))


def _sum(g, e, xs):
    return sum(x for x in g.charged_list(xs) if x is not None)


def _max(g, e, xs):
    vals = [x for x in g.charged_list(xs) if x is not None]
    return max(vals) if vals else 0


def _min(g, e, xs):
    vals = [x for x in g.charged_list(xs) if x is not None]
    return min(vals) if vals else 0


def _random(g, e, xs):
    lst = g.charged_list(xs)
    return g.state.rng.choice(lst) if lst else None


def _top(g, e, zone):
    lst = g.charged_list(zone)
    return lst[-1] if lst else None


def _bottom(g, e, zone):
    lst = g.charged_list(zone)
    return lst[0] if lst else None


def _rows(g, e, zone):
    if not isinstance(zone, ZoneRef) or not g.is_rows(zone):
        raise TypeError("rows() takes a zone of kind `rows`")
    key = zone.key
    return [RowRef(key, i, rid) for i, rid in enumerate(row_ids(g.state, key))]


def _ends(g, e, zone):
    if not isinstance(zone, ZoneRef) or not g.is_rows(zone):
        raise TypeError("ends() takes a zone of kind `rows`")
    out = []
    for row in g.state.zones[zone.key]:
        out.append(g.cards[row[0]])
        if len(row) > 1:
            out.append(g.cards[row[-1]])
    return out


def _adjacent(g, e, xs):
    lst = g.charged_list(xs)
    return [[a, b] for a, b in zip(lst, lst[1:])]


def _cards_in(g, e, where):
    return g.charged_list(where)


def _cards_under(g, e, what):
    items = what if isinstance(what, list) else [what]
    out = []
    for c in items:
        if isinstance(c, CardData):
            out.extend(g.cards[i] for i in reversed(g.state.under.get(c.id, ())))
    return out


def _all_cards(g, e):
    return list(g.cards)


def _other_players(g, e):
    you = e.get("you")
    n = g.state.players
    start = (you if you is not None else g.state.active)
    if start >= n:  # a dummy: every player who takes turns, then the other dummies
        playing = [Seat(k) for k in range(n)]
    else:
        playing = [Seat((start + k) % n) for k in range(1, n)]
    return playing + [s for s in g.seats[n:] if s != start]


def _turn_order(g, e):
    n = g.state.players
    return [Seat((g.state.start_player + k) % n) for k in range(n)]


def _next_player(g, e, p=None):
    p = e.get("you") if p is None else p
    return Seat((p + 1) % g.state.players)


def _zone_of(g, e, card):
    key = g.state.where.get(card.id, "")
    while key.startswith("^"):
        key = g.state.where[int(key[1:])]
    name, _, owner = key.partition("#")
    return ZoneRef(name, int(owner) if owner else None)


def _position(g, e, card):
    """Card parts and markets: how many top-level cards lie before a card in its zone (0 for the
    first, the bottom of a pile); none when the card is covered or in no zone."""
    key = g.state.where.get(getattr(card, "id", None), "")
    if not key or key.startswith("^"):
        return None
    name = key.partition("#")[0]
    return zone_cards(g.state, key, name in g.program.rows_zones).index(card.id)


def _owner(g, e, card):
    z = _zone_of(g, e, card)
    return Seat(z.owner) if z.owner is not None else None


def _is_covered(g, e, card):
    return g.state.where.get(card.id, "").startswith("^")


def _values(g, e, xs):
    return g.charged_list(xs)


def _grid_key(g, z) -> str:
    if not isinstance(z, ZoneRef) or g.grid_size(z.key) is None:
        raise RuleError(f"{g.text(z)} is not a grid zone", None)
    return z.key


def _spaces(g, e, z):
    w, h = g.grid_size(_grid_key(g, z))
    return [Space(z.key, x, y) for y in range(h) for x in range(w)]


def _empty_spaces(g, e, z):
    taken = g.grid_occupied(_grid_key(g, z))
    w, _ = g.grid_size(z.key)
    return [s for s in _spaces(g, e, z) if s.y * w + s.x not in taken]


def _space(g, e, z, x, y):
    w, h = g.grid_size(_grid_key(g, z))
    if not (1 <= x <= w and 1 <= y <= h):
        raise RuleError(f"{z} has no space {x},{y} (it is {w} x {h})", None)
    return Space(z.key, x - 1, y - 1)


def _space_of(g, e, card):
    return g.space_of(card) if isinstance(card, CardData) else None


def _card_at(g, e, s):
    if s is None:
        return None
    if not isinstance(s, Space):
        raise RuleError(f"{g.text(s)} is not a grid space", None)
    w, _ = g.grid_size(s.key)
    cid = g.grid_occupied(s.key).get(s.y * w + s.x)
    return g.cards[cid] if cid is not None else None


_BESIDE = ((0, -1), (-1, 0), (1, 0), (0, 1))
_AROUND = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


def _near(g, x, steps):
    s = g.space_of(x) if isinstance(x, CardData) else x
    if s is None:
        return []  # a card that lies on no grid space has no neighbours
    if not isinstance(s, Space):
        raise RuleError(f"{g.text(x)} is neither a grid space nor a card on one", None)
    w, h = g.grid_size(s.key)
    return [Space(s.key, s.x + dx, s.y + dy) for dx, dy in steps if 0 <= s.x + dx < w and 0 <= s.y + dy < h]


def _spaces_beside(g, e, x):
    return _near(g, x, _BESIDE)


def _spaces_around(g, e, x):
    return _near(g, x, _AROUND)


def _cards_beside(g, e, x):
    return [c for c in (_card_at(g, e, s) for s in _near(g, x, _BESIDE)) if c is not None]


def _cards_around(g, e, x):
    return [c for c in (_card_at(g, e, s) for s in _near(g, x, _AROUND)) if c is not None]


CORE_BUILTINS: dict[str, Builtin] = {
    "count": Builtin(_count, 1, 1, "how many items (cards in a zone, elements of a list)",
                       result=NUMBER, collection=True, reads=ARGS),
    "distinct": Builtin(_distinct, 1, 1, "true when no two known values are equal (unknowns are skipped)",
                          result=BOOL, collection=True, reads=ARGS),
    "distinct_values": Builtin(_distinct_values, 1, 1, "the different known values, in first-seen order",
                                 collection=True, reads=ARGS),
    "ascending": Builtin(_ascending, 1, 1, "true when the known values rise strictly",
                           result=BOOL, collection=True, reads=ARGS),
    "first": Builtin(_first, 1, 2, "the first item, or the first n items",
                       collection=True, reads=ARGS),
    "last": Builtin(_last, 1, 2, "the last item, or the last n items",
                      collection=True, reads=ARGS),
    "rest": Builtin(_rest, 1, 1, "all items but the first",
                      collection=True, reads=ARGS),
    "sum": Builtin(_sum, 1, 1, "the sum of the known values",
                     result=NUMBER, collection=True, reads=ARGS),
    "max": Builtin(_max, 1, 1, "the largest known value (0 when none)",
                     result=NUMBER, collection=True, reads=ARGS),
    "min": Builtin(_min, 1, 1, "the smallest known value (0 when none)",
                     result=NUMBER, collection=True, reads=ARGS),
    "random": Builtin(_random, 1, 1, "one item at random, from the game's seeded RNG",
                        collection=True),
    "top": Builtin(_top, 1, 1, "the top card of a pile",
                     collection=True, reads=ARGS),
    "bottom": Builtin(_bottom, 1, 1, "the bottom card of a pile",
                        collection=True, reads=ARGS),
    "rows": Builtin(_rows, 1, 1, "the rows of a `rows` zone",
                      collection=True, reads=ARGS),
    "ends": Builtin(_ends, 1, 1, "the cards at either end of every row of a `rows` zone",
                      collection=True, reads=ARGS),
    "adjacent": Builtin(_adjacent, 1, 1, "the pairs of neighbouring items, left to right",
                          collection=True, reads=ARGS),
    "cards_in": Builtin(_cards_in, 1, 1, "the cards of a zone or row (top cards only)",
                          collection=True, reads=ARGS),
    "cards_under": Builtin(_cards_under, 1, 1, "the cards lying under a card (or under each card of a list)", reads=ANYWHERE),
    "all_cards": Builtin(_all_cards, 0, 0, "every card of the game", reads=ANYWHERE),
    "other_players": Builtin(_other_players, 0, 0, "the other players, clockwise from you, then dummy players"),
    "turn_order": Builtin(_turn_order, 0, 0, "all players, clockwise from the start player"),
    "next_player": Builtin(_next_player, 0, 1, "the player to the left (clockwise) of you or of a player"),
    "zone_of": Builtin(_zone_of, 1, 1, "the zone a card is in", reads=ANYWHERE),
    "owner": Builtin(_owner, 1, 1, "the player whose zone holds a card (none for shared zones)", reads=ANYWHERE),
    "position": Builtin(_position, 1, 1, "how many cards lie before a card in its zone (0: first, a pile's bottom)", reads=ANYWHERE),
    "covered": Builtin(_is_covered, 1, 1, "true when a card lies under another card",
                         result=BOOL, reads=ANYWHERE),
    "values": Builtin(_values, 1, 1, "the items of a list or zone as a list",
                        collection=True, reads=ARGS),
    "spaces": Builtin(_spaces, 1, 1, "every space of a grid zone, row by row"),
    "empty_spaces": Builtin(_empty_spaces, 1, 1, "the spaces of a grid zone with no card on them"),
    "space": Builtin(_space, 3, 3, "the space of a grid zone at column x, row y (from 1)"),
    "space_of": Builtin(_space_of, 1, 1, "the grid space a card lies on (none when it lies on none)", reads=ANYWHERE),
    "card_at": Builtin(_card_at, 1, 1, "the card on a grid space (none when it is empty)"),
    "spaces_beside": Builtin(_spaces_beside, 1, 1, "the up to 4 spaces sharing a side with a space or card"),
    "spaces_around": Builtin(_spaces_around, 1, 1, "the up to 8 spaces touching a space or card, corners too"),
    "cards_beside": Builtin(_cards_beside, 1, 1, "the cards on the spaces beside a space or card"),
    "cards_around": Builtin(_cards_around, 1, 1, "the cards on the spaces around a space or card, corners too"),
}


# ---- neighbours, sole leaders and linked groups (language 4 additions) ----------------------

def _previous_player(g, e, p=None):
    """The player to the right (counterclockwise): the one whose `next_player` is p."""
    p = e.get("you") if p is None else p
    return Seat((p - 1) % g.state.players)


def _unique_most(g, e, items, keys):
    """The item whose key is strictly larger than every other item's key; none on a tie."""
    xs, ks = g.charged_list(items), g.charged_list(keys)
    if len(xs) != len(ks):
        raise RuleError(f"unique_most: {len(xs)} items but {len(ks)} values", None)
    known = [(k, x) for x, k in zip(xs, ks) if k is not None]
    if not known:
        return None
    best = max(k for k, _ in known)
    winners = [x for k, x in known if k == best]
    return winners[0] if len(winners) == 1 else None


def _linked(g, e, start, pairs):
    """`start` and every item joined to it through a chain of pairs [a, b] (a connected group)."""
    links = [g.charged_list(pr) for pr in g.charged_list(pairs)]
    group, frontier = [start], [start]
    while frontier:
        x = frontier.pop()
        for pr in links:
            if len(pr) != 2:
                raise RuleError("linked: each link must be a pair [a, b]", None)
            for a, b in (pr, pr[::-1]):
                if a == x and b not in group:
                    group.append(b)
                    frontier.append(b)
    return group


def _sort_by(g, e, items, keys):
    """The items in the order of their values, lowest first; equal values keep their order."""
    xs, ks = g.charged_list(items), g.charged_list(keys)
    if len(xs) != len(ks):
        raise RuleError(f"sort_by: {len(xs)} items but {len(ks)} values", None)
    known = [k for k in ks if k is not None]
    if any(type(k) is not type(known[0]) for k in known[1:]):
        raise RuleError("sort_by: the values must be all numbers or all texts", None)
    order = sorted(range(len(xs)), key=lambda i: (ks[i] is None, ks[i] if ks[i] is not None else 0))
    return [xs[i] for i in order]


CORE_BUILTINS.update({
    "sort_by": Builtin(_sort_by, 2, 2, "the items ordered by their values, lowest first (ties keep their order)"),
    "previous_player": Builtin(_previous_player, 0, 1, "the player to the right (counterclockwise) of you or of a player"),
    "unique_most": Builtin(_unique_most, 2, 2, "the item with the single largest value (none when tied)"),
    "linked": Builtin(_linked, 2, 2, "an item and every item joined to it through a chain of pairs"),
})

