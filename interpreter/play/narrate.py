"""The story of a game as one seat may see it: cards by their field names and text, the stats a
ruleset shows, and what happened between two moments (decisions taken, cards moved, stats
changed, dice rolled, `log` lines).

Shared by every screen that shows a game to people (the terminal's `grimoire play`, a browser):
each turns these plain lines and tuples into its own look. Nothing here prints, and nothing here
tells a seat what it may not see: a card in a zone the seat cannot look into is counted, never
named, and a bot's choice of such a card is told as "chose one of N options". Names, prompts
and `log` lines from the content are returned as they are, for each screen to escape for its
medium (`printable` for terminals); stat values come as `printable` text (a number too long
for Python to write reads as its size).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from ..content.model import CardData, Ruleset
from ..engine.directgame import DirectGame
from ..engine.game import Decision
from ..language.tree import Node, walk
from ..language.untrusted import printable
from ..runtime.values import Position, RowRef, ZoneRef

__all__ = ["EVERYONE", "Chronicle", "card_fields", "card_text", "card_line", "shown_stats", "value_text", "zone_title", "Moment",
           "moment", "story", "choice_line", "option_text", "prompt_text", "sees_card", "zone_visible", "zone_cards", "stat_rows"]


# ---- cards --------------------------------------------------------------------------------
def _default(field_node: Any) -> Any:
    """A card field's declared default as a value (`= 0`, `= false`, `= none`), or a marker."""
    d = field_node.default
    if d is None:
        return _NO_DEFAULT
    if d.kind == "lit":
        return d.value
    if d.kind == "name":
        if field_node.type.kind == "basic_type" and field_node.type.name == "flag":
            return d.id == "true"
        return d.id
    return _NO_DEFAULT


_NO_DEFAULT = object()


def card_fields(rs: Ruleset, card: CardData) -> list[tuple[str, Any]]:
    """A card's fields by name, leaving out those that only repeat their type's default (a card
    type with twenty fields, most of them 0 or `no`, reads as the few that matter)."""
    decl = rs.card_types.get(card.type)
    defaults = {f.name: _default(f) for f in getattr(decl, "fields_", ())}
    out = []
    for k, v in card.fields.items():
        if k.startswith("__"):
            continue
        d = defaults.get(k, _NO_DEFAULT)
        if d is not _NO_DEFAULT and d == v and type(d) is type(v):
            continue
        out.append((k.replace("_", " "), v))
    return out


def card_text(card: CardData) -> str:
    """What the card says: its hand-written `text:`, else its effect in English (from the rules)."""
    if card.text:
        return card.text
    return card.effect.describe() if card.effect is not None else ""


def value_text(v: Any) -> str:
    """A field or stat value as people read it: yes/no, none, a list joined with commas."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if v is None:
        return "none"
    if isinstance(v, CardData):
        return v.name
    if isinstance(v, (list, tuple)) and not isinstance(v, (ZoneRef, RowRef, Position)):
        return ", ".join(value_text(x) for x in v) if v else "none"
    return printable(v)  # as text; a number too long for Python to write reads as its size


def card_line(rs: Ruleset, card: CardData, face: Any = None) -> str:
    """`Name (Type: field value, field value)`, plus the face a die shows."""
    fields = ", ".join(f"{k} {value_text(v)}" for k, v in card_fields(rs, card))
    kind = "" if card.type == card.name else card.type
    inner = f"{kind}: {fields}" if kind and fields else kind or fields
    head = f"{card.name} ({inner})" if inner else card.name
    return head + (f" showing {face}" if face is not None else "")


# ---- what a seat may see ------------------------------------------------------------------
EVERYONE = -1  # the seat of a designer who sees every card (replays, inspectors)


def zone_visible(rs: Ruleset, key: str, seat: int | None) -> bool:
    """Whether `seat` (None: a spectator; EVERYONE: a designer) may look into the zone instance
    `key` ("name#owner")."""
    if seat == EVERYONE:
        return True
    if key.startswith("^"):
        return False
    name, _, owner = key.partition("#")
    zd = rs.zones.get(name)
    if zd is None:
        return False
    return zd.visibility == "public" or (zd.visibility == "owner" and owner != "" and seat is not None
                                         and int(owner) == seat)


def sees_card(game: DirectGame, cid: int, seat: int | None) -> bool:
    """Whether `seat` may see which card `cid` is, where it lies now (cards in no zone are open)."""
    at = game.state.where.get(cid)
    return True if at is None else zone_visible(game.rs, at, seat)


def zone_title(key: str, seat: int | None = None) -> str:
    """A zone instance's name for people, players numbered from 1 (`hand of player 2`, `your hand`)."""
    name, _, owner = key.partition("#")
    name = name.replace("_", " ")
    if owner == "":
        return name
    return f"your {name}" if seat is not None and int(owner) == seat else f"{name} of player {int(owner) + 1}"


def zone_cards(game: DirectGame, key: str) -> list[int]:
    """The card ids in a zone instance, rows flattened in order."""
    raw = game.state.zones.get(key, [])
    if raw and isinstance(raw[0], list):
        return [c for row in raw for c in row]
    return list(raw)


# ---- stats --------------------------------------------------------------------------------
def shown_stats(rs: Ruleset) -> list[str]:
    """The stats people are shown: those the header's `show [...]` names, else those the score
    and tiebreaks read (the rest are usually the rules' own bookkeeping)."""
    named = rs.settings.get("show")
    if named is not None:
        items = named.items if named.kind == "list" else [named]
        return [n.id for n in items if n.kind == "name" and n.id in rs.stats]
    return sorted(_stats_read(rs, [d.expr for d in (*rs.scores, *rs.tiebreaks)]), key=list(rs.stats).index)


def _stats_read(rs: Ruleset, nodes: list[Node]) -> set[str]:
    """Stat names these expressions mention, seeing through functions and constants."""
    out: set[str] = set()
    seen: set[str] = set()
    stack = list(nodes)
    while stack:
        for n in walk(stack.pop()):
            name = getattr(n, "id", None) if n.kind == "name" else getattr(n, "name", None) \
                if n.kind in ("of", "attr") else None
            if isinstance(name, str) and name in rs.stats:
                out.add(name)
            elif n.kind == "name" and n.id in rs.constants and n.id not in seen:
                seen.add(n.id)
                stack.append(rs.constants[n.id].value)
            elif n.kind == "call" and n.func in rs.functions and "()" + n.func not in seen:
                seen.add("()" + n.func)
                stack.append(rs.functions[n.func].expr)
    return out


def stat_rows(game: DirectGame, seat: int | None, names: list[str] | None = None) -> Iterator[tuple[str, str, str]]:
    """(who, stat, value) for each shown stat: the game's own (who ""), then each player's."""
    rs = game.rs
    names = shown_stats(rs) if names is None else names
    for s in names:
        if not rs.stats[s].per_player and s in game.state.stats:
            yield "", s.replace("_", " "), _stat_value(game, game.state.stats[s], seat)
    for p, values in enumerate(game.state.pstats[:game.state.players]):
        for s in names:
            if rs.stats[s].per_player and s in values:
                yield f"player {p + 1}", s.replace("_", " "), _stat_value(game, values[s], seat)


def _stat_value(game: DirectGame, v: Any, seat: int | None) -> str:
    """A stat's value as text; a card the seat may not see reads `?`."""
    if isinstance(v, CardData):
        return v.name if sees_card(game, v.id, seat) else "?"
    if isinstance(v, (list, tuple)) and not isinstance(v, (ZoneRef, RowRef, Position)):
        return ", ".join(_stat_value(game, x, seat) for x in v) if v else "none"
    return value_text(v)


# ---- what happened between two moments ----------------------------------------------------
@dataclass
class Moment:
    """What a seat saw at one moment, to tell later what changed since."""

    where: dict[int, str]
    faces: dict[int, Any]
    stats: list[tuple[str, str, str]]
    log_len: int
    turn: int
    active: int
    events: list[str] = field(default_factory=list)  # decisions taken since (choice_line)


def moment(game: DirectGame, seat: int | None) -> Moment:
    st = game.state
    return Moment(dict(st.where), dict(st.faces), list(stat_rows(game, seat)), len(game.log),
                  st.turn_number, st.active)


def _option_cards(v: Any, depth: int = 0) -> Iterator[CardData]:
    if isinstance(v, CardData):
        yield v
    elif isinstance(v, (list, tuple)) and depth < 4:
        for x in v:
            yield from _option_cards(x, depth + 1)


def prompt_text(game: DirectGame, text: str) -> str:
    """A prompt or label with the engine's card labels (`Name (v1, v2, ...)`, values without
    their field names) shortened to the card's name: the card itself is shown beside it."""
    if "(" not in text:
        return text
    labels = {c.label(): c.name for c in game.cards if c.fields}
    for label in sorted((x for x in labels if x in text), key=len, reverse=True):
        text = text.replace(label, labels[label])
    return text


def option_text(game: DirectGame, d: Decision, index: int) -> str:
    """An option as people read it: a card by its fields by name, a list of cards by their
    names; any other option by the engine's own label."""
    v = game.option_values(d)[index]  # cards as cards (direct code offers their ids)
    if isinstance(v, CardData):
        return card_line(game.rs, v, game.state.faces.get(v.id))
    if isinstance(v, list) and v and all(isinstance(x, CardData) for x in v):
        return ", ".join(x.name for x in v)
    return prompt_text(game, d.labels[index])


def choice_line(game: DirectGame, d: Decision, index: int, seat: int | None, who: str) -> str:
    """`player 2 (greedy) — prompt: answer`, told before the answer is applied; a choice of a
    card `seat` may not see is told without naming it."""
    hidden = any(not sees_card(game, c.id, seat) for c in _option_cards(game.option_values(d)[index]))
    answer = f"one of {len(d.options)} options" if hidden else option_text(game, d, index)
    name = "you" if seat is not None and d.player == seat else f"player {d.player + 1}"
    kind = f" ({who})" if who and name != "you" else ""
    return f"{name}{kind} — {prompt_text(game, d.prompt)} → {answer}"


def story(game: DirectGame, before: Moment, seat: int | None) -> list[tuple[str, str]]:
    """What happened since `before`, as (kind, text): kind is "choice", "log", "move", "roll",
    "stat", or "turn" (last: a new turn began). Moves are told as net changes (where a card lay
    then and where it lies now): a screen that wants each turn told apart takes a moment at each
    turn's start (a game's observer is told `turn_started`)."""
    st = game.state
    out: list[tuple[str, str]] = [("choice", e) for e in before.events]
    out += [("log", line) for line in game.log[before.log_len:]]
    out += [("move", t) for t in _moves(game, before, seat)]
    for die, face in sorted(st.faces.items()):
        if before.faces.get(die) != face and sees_card(game, die, seat):
            out.append(("roll", f"{game.cards[die].name} shows {face}"))
    was = {(w, s): v for w, s, v in before.stats}
    for w, s, v in stat_rows(game, seat):
        if (w, s) in was and was[(w, s)] != v:
            out.append(("stat", f"{w + ' ' if w else ''}{s}: {was[(w, s)]} → {v}"))
    if st.turn_number != before.turn:
        out.append(("turn", f"turn {st.turn_number}: player {st.active + 1}"))
    return out


def _moves(game: DirectGame, before: Moment, seat: int | None) -> list[str]:
    """Net card moves, grouped by (from, to): named where the seat saw the card at either end,
    counted where it saw neither."""
    rs = game.rs
    groups: dict[tuple[str, str], list[int]] = {}
    for cid, now in game.state.where.items():
        was = before.where.get(cid, "")
        if was != now:
            groups.setdefault((was, now), []).append(cid)
    lines = []
    for (was, now), cids in groups.items():
        named = [c for c in cids if (was and zone_visible(rs, was, seat)) or zone_visible(rs, now, seat)]
        unnamed = len(cids) - len(named)
        src = _place(was, seat)
        dst = _place(now, seat)
        if not was and len(named) > 5:  # setup filling a zone: counted, the table shows them
            unnamed, named = len(cids), []
        lines_of = [card_line(rs, game.cards[c]) for c in named]
        what = [f"{x} ×{lines_of.count(x)}" if lines_of.count(x) > 1 else x for x in dict.fromkeys(lines_of)]
        if unnamed:
            what.append(f"{unnamed} card{'s' if unnamed > 1 else ''}")
        lines.append(f"{'; '.join(what)}: {src} → {dst}" if src else f"{'; '.join(what)} → {dst}")
    return lines


def _place(key: str, seat: int | None) -> str:
    if not key:
        return ""
    if key.startswith("^"):
        return "under another card"
    return zone_title(key, seat)


class Chronicle:
    """Keeps the story of a game as `seat` sees it (None: public only), told apart by turn.

    As the game's observer it is told when each turn starts, each decision taken without asking
    and each shuffle, so each turn is told apart, in order. Given to `new_game(..., observer=)`, it
    tells the setup too (`attach` it once the game is made); given a game already under way, it
    tells what happens from now on."""

    def __init__(self, seat: int | None, game: DirectGame | None = None):
        self.seat = seat
        self.game: DirectGame | None = None
        self.last: Moment | None = None
        self.pending: list[tuple[str, str]] = []
        self.early: list[tuple[str, str]] = []
        if game is not None:
            self.game, self.last = game, moment(game, seat)
            self.last.turn = -1  # the first `take` tells which turn it is
            game.observer = self

    def attach(self, game: DirectGame) -> None:
        """The game this chronicle was given to as observer, made: its story starts before setup."""
        if self.game is None:
            self.game, self.last = game, Moment({}, {}, [], 0, -1, 0)
        game.observer = self

    def _cut(self, event: tuple[str, str] | None = None) -> None:
        """Close the story so far (told at the next `take`), then note `event`."""
        if self.game is None:  # setup, before the game is made: told after the setup's moves
            self.early += [event] if event is not None else []
            return
        self.pending += story(self.game, self.last, self.seat) + self.early
        self.early = []
        self.last = moment(self.game, self.seat)
        if event is not None:
            self.pending.append(event)

    def turn_started(self, game: DirectGame) -> None:
        self.attach(game)
        self._cut()

    def only_option(self, d: Decision) -> None:
        if self.game is None:  # during setup, before the game can be asked what the seat sees
            self._cut(("choice", f"player {d.player + 1} — {d.prompt} (the only option)"))
        else:
            self._cut(("choice", choice_line(self.game, d, 0, self.seat, "") + " (the only option)"))

    def shuffled(self, zone: Any) -> None:
        self._cut(("move", f"{zone_title(zone.key, self.seat)} is shuffled"))

    def decided(self, d: Decision, index: int, who: str) -> None:
        """Note a decision about to be applied (told with what follows it)."""
        self.last.events.append(choice_line(self.game, d, index, self.seat, who))

    def take(self) -> list[tuple[str, str]]:
        """What happened since the last `take`, as (kind, text) pairs (see `story`)."""
        self._cut()
        out, self.pending = self.pending, []
        return out
