"""Direct-style compilation (direct.py) of lists of small records mixing cards and plain values:
`[[card, 3], [other, 5]]`, kept in a stat (a card and the spot it holds, a card and a count).

A rule may remember such pairs (`set posts to posts + [[c, s]]`) and read them back
(`posts where it[0] in track`, `some pr in posts has pr[1] == s`). Here such a value has kind
`tuples:SHAPE` (SHAPE: the kinds of the positions, `card,int`): a list of lists whose items at
`card` positions are card ids, the others kept as they are; one record is `tuple:SHAPE`, and
`record[i]` with a literal `i` has the kind of position i. A stat holding them keeps the cards
themselves, as the task engine keeps them, so that the two engines' digests agree: reads turn
cards into ids (`_tids`), writes turn the `card` positions back into cards (`_tobjs`).

A stat starts as lists of card lists (`directpairs.pair_stats`, from the rules' text); the first
`+` that joins it with records of another shape tells its kind, and the module is compiled again
knowing it (`StatKindsFound`), as for any stat.
"""
from __future__ import annotations

from typing import Any

from .directexpr import _ITEM_KIND, StatKindsFound, V, _built_list

__all__ = ["TuplesGen", "TUPLES_GLOBALS", "TUPLES_KEYWORDS"]

_PLAIN = ("int", "str", "bool", "any")  # kept as they are (a card is kept as the card itself); `any`: an
# item of a list of numbers or texts (`values(0..5)`): the rules' card lists have their own kinds


def _tids(held: Any) -> list:
    """Records kept in a stat, with their cards as ids (none or another value: no records)."""
    if type(held) is not list:
        return []
    return [[getattr(x, "id", x) if not isinstance(x, (int, str, bool)) else x for x in t] for t in held]


def _tobjs(R: Any, records: list, cards_at: tuple) -> list:
    """Records of card ids and plain values, with the cards themselves at `cards_at`, to keep in a stat."""
    cards = R.rs.cards
    return [[cards[x] if i in cards_at and x is not None else x for i, x in enumerate(t)] for t in records]


TUPLES_GLOBALS = {"_tids": _tids, "_tobjs": _tobjs}
TUPLES_KEYWORDS = frozenset(TUPLES_GLOBALS)


def _shape(kind: str) -> list[str]:
    return kind.split(":", 1)[1].split(",")


def _unified(shapes: set) -> list[str] | None:
    """One shape for records of several, or None: a `none` position takes the kind the other
    records give it, a card where none does (`[[none, start, false]]`: a walk not yet come
    from anywhere); a shape that mixes kinds at a position is none."""
    if len({len(s) for s in shapes}) != 1:
        return None
    out = []
    for kinds in zip(*shapes):
        known = set(kinds) - {"none"}
        if len(known) > 1:
            return None
        out.append(known.pop() if known else "card")
    return out


def _record(shape: list[str] | None) -> bool:
    """Whether a shape is a record's: a card and plain values (a list of cards alone is no record)."""
    return shape is not None and "card" in shape and set(shape) <= {"card", *_PLAIN} and len(set(shape)) > 1


def _tuples(shape: list[str]) -> str:
    """The kind of a list of records of this shape (registered so that binding constructs iterate it)."""
    kind = "tuples:" + ",".join(shape)
    _ITEM_KIND.setdefault(kind, "tuple:" + ",".join(shape))
    return kind


class TuplesGen:
    """Mixed into `direct._Gen` before `PairsGen` (which provides `pairs_syntax`)."""

    def records_of(self, rows: list[list[V]]) -> V | None:
        """`[[a, 1], [b, 2]]` (each row's items compiled): lists of one shape, each a card and
        plain values; None if they are not records."""
        shape = _unified({tuple(v.kind for v in row) for row in rows})
        if _record(shape) and any(v.kind == "card" for row in rows for v in row):
            return V(_built_list([V(_built_list(row), "list") for row in rows]), _tuples(shape), nn=True)
        return None

    def record_of(self, items: list[V]) -> V | None:
        """`[step]` (a list of records) or `[w[1], nb, stopped]` (one record: a card and plain
        values), its items compiled; None if it is neither."""
        kinds = {v.kind for v in items}
        if len(kinds) == 1 and next(iter(kinds)).startswith("tuple:"):  # `[step]`: a list of records
            return V(_built_list(items), "tuples:" + kinds.pop()[6:], nn=True)
        shape = _unified({tuple(v.kind for v in items)})
        if _record(shape) and "card" in kinds:  # (`[none, 5, 4]`: numbers, some none, no record)
            # (else a mix the task engine alone plays)
            _tuples(shape)
            return V(_built_list(items), "tuple:" + ",".join(shape), nn=True)
        return None

    def record_shape(self, kind: str) -> list[str]:
        """The kinds of the positions of a record of kind `tuple:...`."""
        return _shape(kind)

    def records_syntax(self, x, scope: dict) -> bool:
        """Whether `x` is a variable holding records or card lists, or a list literal of records
        held in variables (`[w]`): cheap, before compiling both sides of a `+` or an `in`."""
        def kind(name: str) -> str:
            got = scope.get(name)
            return got[1] if isinstance(got, tuple) else ""  # (a rule function's parameter: `_Bound`)
        if x.kind == "name":
            return kind(x.id).startswith("tuples:") or kind(x.id) == "cardlists"
        if x.kind == "list" and x.items and all(i.kind == "name" for i in x.items):
            return all(kind(i.id).startswith("tuple:") for i in x.items)
        return False

    def learn_records(self, name: str, kind: str) -> None:
        if self.learning:  # (direct._learn_stats)
            self.stat_kinds[name] = kind
            return
        raise StatKindsFound({**self.stat_kinds, name: kind})

    def pairs_syntax(self, x) -> bool:
        return (x.kind == "name" and self.stat_kinds.get(x.id, "").startswith("tuples:")) or super().pairs_syntax(x)

    def stat_read(self, name: str, src: str) -> V:
        kind = self.stat_kinds.get(name, "")
        if kind.startswith("tuples:"):
            _tuples(_shape(kind))
            return V(f"_tids({src})", kind, nn=True, held=src)
        return super().stat_read(name, src)

    def stat_store(self, name: str, v: V) -> str:
        kind = self.stat_kinds.get(name, "")
        if kind.startswith("tuples:") and (v.kind == kind or v.src == "[]"):
            cards_at = tuple(i for i, k in enumerate(_shape(kind)) if k == "card")
            return f"_tobjs(R, {v.src}, {self.k(cards_at)})"
        return super().stat_store(name, v)

    def items(self, v: V) -> V:
        if v.kind.startswith("tuples:"):  # iterated as it is: each item one record
            return v
        return super().items(v)
