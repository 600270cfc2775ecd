"""The fixed library of functions rule expressions may call: each one's name, arity, English
doc, result kind and what its value depends on — what the checker, the editor and settling read.
Their meaning is generated code's (engine/directexpr.py and its runtime helpers). Pure, except
`random`, which draws from the game's one seeded RNG. Nothing here reaches files, the network or
Python."""
from __future__ import annotations

from ..language.kinds import BOOL, NUMBER

__all__ = ["CORE_BUILTINS", "Builtin", "ARGS", "TURN", "ANYWHERE"]


# What a builtin's value depends on (`Builtin.reads`), from least to most: settling re-runs a
# state-based rule only when something it reads changed (analysis/effects.py), so a function
# marked as reading less than it does would leave a rule stale.
ARGS = "args"          # its arguments only (a zone argument: that zone's cards)
TURN = "turn"          # may also read whose turn it is, who asks, or the random source
ANYWHERE = "anywhere"  # may read where any card of the game lies


class Builtin:
    """A function rules may call, with between `lo` and `hi` arguments, its doc;
    the kind of value it gives when always the same (`result`, see language/kinds.py), whether
    its first argument must be a collection (a zone, row or list) — what the checker reads — and
    what its value depends on (`reads`: ARGS, TURN or ANYWHERE; `pure` when ARGS); `args_first`:
    its generated call evaluates its arguments first, each once and in order, then does its own
    work (so the code generator may write a list made in an argument just before the statement)."""

    __slots__ = ("lo", "hi", "doc", "result", "collection", "reads", "args_first")

    def __init__(self, lo: int, hi: int, doc: str, *, result: str | None = None,
                 collection: bool = False, reads: str = TURN, args_first: bool = False):
        self.lo, self.hi, self.doc = lo, hi, doc
        self.result, self.collection, self.reads = result, collection, reads
        self.args_first = args_first

    @property
    def pure(self) -> bool:
        """Whether the value depends on the arguments alone (the same arguments, the same value)."""
        return self.reads == ARGS




CORE_BUILTINS: dict[str, Builtin] = {
    "count": Builtin(1, 1, "how many items (cards in a zone, elements of a list)",
                       result=NUMBER, collection=True, reads=ARGS, args_first=True),
    "distinct": Builtin(1, 1, "true when no two known values are equal (unknowns are skipped)",
                          result=BOOL, collection=True, reads=ARGS, args_first=True),
    "distinct_values": Builtin(1, 1, "the different known values, in first-seen order",
                                 collection=True, reads=ARGS, args_first=True),
    "ascending": Builtin(1, 1, "true when the known values rise strictly",
                           result=BOOL, collection=True, reads=ARGS, args_first=True),
    "first": Builtin(1, 2, "the first item, or the first n items",
                       collection=True, reads=ARGS, args_first=True),
    "last": Builtin(1, 2, "the last item, or the last n items",
                      collection=True, reads=ARGS),
    "rest": Builtin(1, 1, "all items but the first",
                      collection=True, reads=ARGS, args_first=True),
    "sum": Builtin(1, 1, "the sum of the known values",
                     result=NUMBER, collection=True, reads=ARGS),
    "max": Builtin(1, 1, "the largest known value (0 when none)",
                     result=NUMBER, collection=True, reads=ARGS),
    "min": Builtin(1, 1, "the smallest known value (0 when none)",
                     result=NUMBER, collection=True, reads=ARGS),
    "random": Builtin(1, 1, "one item at random, from the game's seeded RNG",
                        collection=True),
    "top": Builtin(1, 1, "the top card of a pile",
                     collection=True, reads=ARGS),
    "bottom": Builtin(1, 1, "the bottom card of a pile",
                        collection=True, reads=ARGS),
    "rows": Builtin(1, 1, "the rows of a `rows` zone",
                      collection=True, reads=ARGS),
    "ends": Builtin(1, 1, "the cards at either end of every row of a `rows` zone",
                      collection=True, reads=ARGS),
    "adjacent": Builtin(1, 1, "the pairs of neighbouring items, left to right",
                          collection=True, reads=ARGS),
    "cards_in": Builtin(1, 1, "the cards of a zone or row (top cards only)",
                          collection=True, reads=ARGS),
    "cards_under": Builtin(1, 1, "the cards lying under a card (or under each card of a list)", reads=ANYWHERE,
                           args_first=True),
    "all_cards": Builtin(0, 0, "every card of the game", reads=ANYWHERE),
    "other_players": Builtin(0, 0, "the other players, clockwise from you, then dummy players"),
    "turn_order": Builtin(0, 0, "all players, clockwise from the start player"),
    "next_player": Builtin(0, 1, "the player to the left (clockwise) of you or of a player"),
    "zone_of": Builtin(1, 1, "the zone a card is in", reads=ANYWHERE),
    "owner": Builtin(1, 1, "the player whose zone holds a card (none for shared zones)", reads=ANYWHERE),
    "position": Builtin(1, 1, "how many cards lie before a card in its zone (0: first, a pile's bottom)", reads=ANYWHERE),
    "covered": Builtin(1, 1, "true when a card lies under another card",
                         result=BOOL, reads=ANYWHERE),
    "values": Builtin(1, 1, "the items of a list or zone as a list",
                        collection=True, reads=ARGS),
    "spaces": Builtin(1, 1, "every space of a grid zone, row by row"),
    "empty_spaces": Builtin(1, 1, "the spaces of a grid zone with no card on them"),
    "space": Builtin(3, 3, "the space of a grid zone at column x, row y (from 1)"),
    "space_of": Builtin(1, 1, "the grid space a card lies on (none when it lies on none)", reads=ANYWHERE),
    "card_at": Builtin(1, 1, "the card on a grid space (none when it is empty)"),
    "spaces_beside": Builtin(1, 1, "the up to 4 spaces sharing a side with a space or card"),
    "spaces_around": Builtin(1, 1, "the up to 8 spaces touching a space or card, corners too"),
    "cards_beside": Builtin(1, 1, "the cards on the spaces beside a space or card"),
    "cards_around": Builtin(1, 1, "the cards on the spaces around a space or card, corners too"),
}


# ---- neighbours, sole leaders and linked groups (language 4 additions) ----------------------


CORE_BUILTINS.update({
    "sort_by": Builtin(2, 2, "the items ordered by their values, lowest first (ties keep their order)"),
    "previous_player": Builtin(0, 1, "the player to the right (counterclockwise) of you or of a player"),
    "unique_most": Builtin(2, 2, "the item with the single largest value (none when tied)"),
    "linked": Builtin(2, 2, "an item and every item joined to it through a chain of pairs"),
})

