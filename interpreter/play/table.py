"""A game at a table of seats, for the browser (`grimoire serve`): who sits where (a person or a
bot), what each seat may see, what happened since each seat last chose, and the designer's
stepping back and forward.

Everything a seat is sent is built here from the engine's rule of visibility (`view`, engine/views.py: a
`hidden` zone shows no seat its cards, an `owner` zone only its owner, cards under others stay
hidden), so the web layer (web.py) cannot show a seat more than its view by mistake. The narration
of other seats' moves and of `log` lines names a card only when the reader can see a card of that
name somewhere: a bot's "discard X" into a hidden pile reads "discard a hidden card".

The engine is deterministic, so the history is the seed and the list of answers: stepping back
replays the answers up to that point, stepping forward replays one more.
"""
from __future__ import annotations

import re
import secrets
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .agents import AGENT_KINDS, make_agent
from .session import end_line, header, load_saved, save_game, step_line, write_log
from ..content.model import CardData
from ..engine.factory import new_game
from ..engine.directgame import DirectGame
from ..engine.game import Program
from ..language.diagnostics import ContentError
from ..engine.views import board_graph
from ..printing import card_faces
from ..printing.faces import card_text, distinct_cards
from ..printing.layout import LAYOUT_FILE
from ..printing.svg import face_svg
from ..runtime.values import ZoneRef

__all__ = ["Table", "TableError", "SEAT_KINDS", "MAX_NARRATION"]

SEAT_KINDS = ("human", "bot", *AGENT_KINDS)  # `bot` is the random bot
MAX_NARRATION = 300  # entries sent to a seat at once (the designer downloads the whole log)
HIDDEN = "a hidden card"
MAX_LISTED = 12  # cards named in one line of moves; more are counted


class TableError(ValueError):
    """A request the table refuses; `status` is the HTTP status the web layer answers with."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


@dataclass
class Entry:
    """One line of the narration: by seat (None: the rules), with the text each seat may read."""

    turn: int
    player: int | None
    texts: list[str]  # per seat (redacted for it), then the designer's full text last
    answer_of: int | None = None  # the seat whose answer this entry records


@dataclass
class Seat:
    kind: str  # "human" or an agent kind
    token: str
    agent: Any = None


@dataclass
class Table:
    """The game being played and everything the web layer asks about it (thread-safe)."""

    program: Program
    ruleset_path: str
    players: int
    seed: int
    kinds: list[str]
    designer: bool = False
    seats: list[Seat] = field(default_factory=list)
    designer_token: str | None = None
    game: DirectGame | None = None
    history: list[int] = field(default_factory=list)  # every answer of the timeline (rewinding keeps them)
    entries: list[Entry] = field(default_factory=list)
    paused: bool = False  # after the designer steps back or forward, bots wait for `resume`
    version: int = 0  # bumped on every change; the pages reload when it moves
    _faces: dict[tuple, str] | None = field(default=None, init=False, repr=False)  # SVG per look, made once

    def __post_init__(self) -> None:
        self.lock = threading.RLock()
        if len(self.kinds) != self.players:
            raise ValueError(f"{len(self.kinds)} seat kinds given for {self.players} players")
        for k in self.kinds:
            if k not in SEAT_KINDS:
                raise ValueError(f"unknown seat kind `{k}` (known: {', '.join(SEAT_KINDS)})")
        self.seats = [Seat(k, secrets.token_urlsafe(16)) for k in self.kinds]
        for i, s in enumerate(self.seats):
            s.agent = self._agent(s.kind, i)
        if self.designer:
            self.designer_token = secrets.token_urlsafe(16)
        self._restart([])

    # ---- seats and tokens ------------------------------------------------------------------
    def _agent(self, kind: str, seat: int) -> Any:
        if kind == "human":
            return None
        return make_agent("random" if kind == "bot" else kind, f"{self.seed}/{seat}")

    def who(self, token: str) -> int | None:
        """The seat (0-based) a token opens, None for the designer's; unknown tokens are refused."""
        key = token.encode("utf-8", "replace")  # compared as bytes: any text a URL holds is just unknown
        if self.designer_token is not None and secrets.compare_digest(key, self.designer_token.encode()):
            return None
        for i, s in enumerate(self.seats):
            if secrets.compare_digest(key, s.token.encode()):
                return i
        raise TableError("unknown link: ask the host for your seat's address", 404)

    # ---- playing ---------------------------------------------------------------------------
    def _restart(self, answers: list[int]) -> None:
        """A fresh game from the seed, then `answers` replayed (each narrated as it was)."""
        self.game = new_game(self.program, self.players, self.seed, record_digests=True)
        self.entries = []
        self._narrate_moves({})
        self._narrate_logs(0)
        for a in answers:
            if self.game.over:
                break
            self._advance(a)
        self.version += 1

    def _advance(self, index: int) -> None:
        """Answer the pending decision and narrate it and the `log` lines it caused."""
        g = self.game
        d = g.decision
        logged, turn, before = len(g.log), g.state.turn_number, dict(g.state.where)
        label = d.labels[index]
        prompt = d.prompt
        g.answer(index)
        if len(g.choices) <= len(self.history) and self.history[len(g.choices) - 1] != index:
            del self.history[len(g.choices) - 1:]  # a different answer: the old future is gone
        if len(g.choices) > len(self.history):
            self.history.append(index)
        text = f"player {d.player + 1}: {prompt} → {label}"
        self.entries.append(Entry(turn, d.player, self._texts(text, own=d.player), answer_of=d.player))
        if g.state.turn_number != turn:
            self.entries.append(Entry(g.state.turn_number, None, [f"turn {g.state.turn_number} begins"]
                                      * (self.players + 1)))
        self._narrate_moves(before)
        self._narrate_logs(logged)

    def _narrate_moves(self, before: dict[int, str]) -> None:
        """One entry for the cards that moved since `before` (card id → where it lay), as each seat
        saw it: a card it can see by its label, the others only counted."""
        after = self.game.state.where
        moved = [c for c in sorted(set(before) | set(after)) if before.get(c) != after.get(c)]
        if not moved:
            return
        texts = [self._moves_seen(moved, before, after, seat) for seat in range(self.players)]
        self.entries.append(Entry(self.game.state.turn_number, None, texts + [self._moves_seen(moved, before, after, None)]))

    def _moves_seen(self, moved: list[int], before: dict[int, str], after: dict[int, str], seat: int | None) -> str:
        """`moved: A → B: X, Y ×2; 3 hidden cards` for each pair of places, in the order first met."""
        groups: dict[tuple[str, str], dict[str, int]] = {}
        for cid in moved:
            old, new = before.get(cid), after.get(cid)
            seen = self._sees_at(new, seat) or (old is not None and self._sees_at(old, seat))
            what = self._short(cid) if seen else HIDDEN
            counts = groups.setdefault((self._place(old), self._place(new)), {})
            counts[what] = counts.get(what, 0) + 1
        parts = []
        for (a, b), counts in groups.items():
            items = [f"{n} hidden cards" if what == HIDDEN and n > 1 else what if n == 1 else f"{what} ×{n}"
                     for what, n in counts.items()]
            if len(items) > MAX_LISTED:  # setup fills whole decks: a count says enough
                items = [f"{sum(counts.values())} cards"]
            parts.append(f"{a} → {b}: " + ", ".join(items))
        return "moved " + "; ".join(parts)

    def _short(self, cid: int) -> str:
        """A card as the narration names it: its label, or its name when the label lists many fields."""
        c = self.game.cards[cid]
        return c.name if len(c.fields) > 4 else self.game.label(c)

    def _sees_at(self, where: str | None, seat: int | None) -> bool:
        """Whether `seat` sees a card lying at `where` (a zone key; `^id` under a card; None: nowhere)."""
        if where is None:
            return True
        if where.startswith("^"):
            return seat is None
        name, _, owner = where.partition("#")
        return self.visible_to(name, int(owner) if owner else None, seat)

    def _place(self, where: str | None) -> str:
        if where is None:
            return "the box"
        if where.startswith("^"):
            return "under a card"
        name, _, owner = where.partition("#")
        return str(ZoneRef(name, int(owner) if owner else None))

    def _narrate_logs(self, since: int) -> None:
        g = self.game
        for line in g.log[since:]:  # `log [a, b]` reads "[a, b]": shown without the brackets
            text = line[1:-1] if line.startswith("[") and line.endswith("]") else line
            self.entries.append(Entry(g.state.turn_number, None, self._texts(text)))
        if g.over:
            self.entries.append(Entry(g.state.turn_number, None, self._texts(self._ending())))

    def _ending(self) -> str:
        g = self.game
        if g.error is not None:
            return f"the game stopped: {g.error}"
        r = g.result
        scores = ", ".join(f"player {i + 1}: {s}" for i, s in enumerate(r["scores"]))
        return f"game over. scores: {scores}; winner(s): " + (", ".join(f"player {w + 1}" for w in r["winners"])
                                                              or "none")  # `end game ... with no winner`

    def _texts(self, text: str, own: int | None = None) -> list[str]:
        """The text as each seat may read it (the seat that chose reads its own answer whole)."""
        out = [text if seat == own else redact(text, self.hidden_names(seat)) for seat in range(self.players)]
        return out + [text]

    def run_bots(self) -> None:
        """Let bot seats answer until a person must choose, the game ends, or rewinding paused it."""
        g = self.game
        while not g.over and not self.paused and self.seats[g.decision.player].agent is not None:
            d = g.decision
            self._advance(self.seats[d.player].agent.choose(g, d))

    def answer(self, token: str, option: Any, step: Any) -> None:
        """A person's answer: `option` 1-based, `step` the number of answers the page saw."""
        with self.lock:
            seat = self.who(token)
            g = self.game
            if seat is None:
                raise TableError("the designer's link watches the game; answer from a seat's link", 403)
            if g.over:
                raise TableError("the game is over", 409)
            if g.decision.player != seat:
                raise TableError(f"it is not your decision: player {g.decision.player + 1} is choosing", 409)
            if not _is_int(step) or step != len(g.choices):
                raise TableError("the game has moved on since your page was drawn: reload it", 409)
            n = len(g.decision.options)
            if not _is_int(option) or not 1 <= option <= n:
                raise TableError(f"`option` must be a whole number from 1 to {n}", 400)
            self._advance(option - 1)
            self.paused = False
            self.run_bots()
            self.version += 1

    # ---- what a seat sees ------------------------------------------------------------------
    def visible_to(self, zone: str, owner: int | None, seat: int | None) -> bool:
        """The engine's rule (`view`, engine/views.py); seat None is the designer, who sees everything."""
        if seat is None:
            return True
        vis = self.program.rs.zones[zone].visibility
        return vis == "public" or (vis == "owner" and owner is not None and owner == seat)

    def hidden_names(self, seat: int | None) -> set[str]:
        """What `seat` may not read in a narration: the labels of cards it cannot see (unless a card
        with the same label is visible to it), and the names of which no card is visible to it."""
        if seat is None:
            return set()
        g = self.game
        seen_labels, seen_names, hidden = set(), set(), set()
        for name, o, ids in self._zone_ids():
            visible = self.visible_to(name, o, seat)
            for cid in ids:
                if visible:
                    seen_labels.add(g.label(g.cards[cid]))
                    seen_names.add(g.cards[cid].name)
                else:
                    hidden.add(cid)
                hidden.update(g.state.under.get(cid, ()))
        placed = g.state.where
        for c in g.cards:  # cards in no zone: the engine shows them
            if c.id not in placed:
                seen_labels.add(g.label(c))
                seen_names.add(c.name)
        out = {g.label(g.cards[c]) for c in hidden} - seen_labels
        return out | ({g.cards[c].name for c in hidden} - seen_names)

    def _zone_ids(self) -> list[tuple[str, int | None, list[int]]]:
        g = self.game
        out = []
        for name, zd in self.program.rs.zones.items():
            for o in (range(self.players) if zd.per_player else [None]):
                raw = g.state.zones[ZoneRef(name, o).key]
                out.append((name, o, [c for row in raw for c in row] if zd.kind == "rows" else list(raw)))
        return out

    def card(self, cid: int) -> dict:
        """A visible card as the page draws it: name, type, fields by name, its text in English."""
        g = self.game
        c: CardData = g.cards[cid]
        text = c.text or (c.effect.describe() if c.effect is not None else None)
        fields = {k.replace("_", " "): _plain(v) for k, v in c.fields.items() if not k.startswith("__")}
        return {"id": cid, "label": g.label(c), "name": c.name, "type": c.type, "fields": fields, "text": text,
                "under": len(g.state.under.get(cid, ()))}

    def zone(self, name: str, owner: int | None, seat: int | None) -> dict:
        g = self.game
        zd = self.program.rs.zones[name]
        raw = g.state.zones[ZoneRef(name, owner).key]
        visible = self.visible_to(name, owner, seat)
        out: dict[str, Any] = {"name": name, "title": str(ZoneRef(name, owner)), "owner": None if owner is None
                               else owner + 1, "kind": zd.kind, "visibility": zd.visibility, "visible": visible}
        if zd.kind == "rows":
            out["count"] = sum(len(r) for r in raw)
            out["rows"] = [[self.card(c) for c in r] for r in raw] if visible else [len(r) for r in raw]
            return out
        out["count"] = len(raw)
        out["cards"] = [self.card(c) for c in raw] if visible else None
        if visible and zd.kind == "grid":
            w, h = self.program.grids[name]
            spaces = g.state.spaces
            out["grid"] = {"width": w, "height": h,
                           "cells": [{"x": spaces[c] % w + 1, "y": spaces[c] // w + 1, "card": self.card(c)}
                                     for c in raw if c in spaces]}
        if zd.kind == "board":
            out["board"] = self._board(name, raw if visible else [])
        return out

    def _board(self, name: str, lying: list[int]) -> dict:
        """A board as a graph: its spaces in declaration order, their edges, what lies on each."""
        gr = board_graph(self.game)
        order = gr.order.get(name, [])
        on: dict[int, list[dict]] = {}
        for c in lying:
            sid = self.game.state.spaces.get(c)
            if sid is not None:
                on.setdefault(sid, []).append(self.card(c))
        nodes = [{"id": s, "label": self.game.cards[s].name, "region": gr.region.get(s), "cards": on.get(s, [])}
                 for s in order]
        edges = [{"from": a, "to": b, "kind": k} for a in order for b, k in gr.adj.get(a, []) if b in gr.adj]
        return {"nodes": nodes, "edges": edges}

    def seat_view(self, token: str, seat_asked: Any = None) -> dict:
        """Everything the page of `token` shows; `seat_asked` (1-based) must be the token's own seat
        unless the token is the designer's."""
        with self.lock:
            seat = self.who(token)
            if seat_asked is not None:
                if not _is_int(seat_asked) or not 1 <= seat_asked <= self.players:
                    raise TableError(f"seats are numbered 1 to {self.players}", 400)
                if seat is not None and seat_asked - 1 != seat:
                    raise TableError(f"player {seat + 1} may not see player {seat_asked}'s view", 403)
                seat = seat_asked - 1
            return self._view(seat, designer=self.who(token) is None and seat_asked is None)

    def _view(self, seat: int | None, designer: bool) -> dict:
        g = self.game
        plain = g.view(seat)
        d = g.decision
        mine = d is not None and seat is not None and d.player == seat and not g.over
        zones = [self.zone(name, o, seat) for name, o, _ in self._zone_ids()]
        out: dict[str, Any] = {
            "title": self.program.rs.title, "players": self.players, "seat": None if seat is None else seat + 1,
            "seats": [{"player": i + 1, "kind": s.kind} for i, s in enumerate(self.seats)],
            "turn": g.state.turn_number, "round": g.state.round_number, "active": g.state.active + 1,
            "step": len(g.choices), "over": g.over, "version": self.version, "paused": self.paused,
            "zones": zones, "stats": plain["stats"],
            "player_stats": [{"player": i + 1, "stats": s} for i, s in enumerate(plain["players"])],
            "decision": None, "waiting_for": None if g.over or d is None else d.player + 1,
            "result": self._result(), "stopped_by": str(g.error) if g.error else None, "faces": self.has_faces(),
            "narration": self._narration(seat),
        }
        if mine or (designer and d is not None and not g.over):
            out["decision"] = {"player": d.player + 1, "kind": d.kind, "prompt": d.prompt,
                               "options": [{"option": i + 1, "label": lab} for i, lab in enumerate(d.labels)]}
        elif d is not None and not g.over:
            out["waiting_prompt"] = redact(d.prompt, self.hidden_names(seat))
        if designer:
            out["designer"] = {"history": len(self.history), "at": len(g.choices), "seed": self.seed,
                               "digest": g.state.digest(), "ruleset": self.ruleset_path,
                               "agent_kinds": list(SEAT_KINDS[1:])}
        return out

    def _result(self) -> dict | None:
        r = self.game.result
        if r is None:
            return None
        return {"scores": [{"player": i + 1, "score": _plain(s)} for i, s in enumerate(r["scores"])],
                "winners": [w + 1 for w in r["winners"]], "reason": r.get("reason")}

    def _narration(self, seat: int | None) -> dict:
        """The latest entries as the seat may read them; `new_from` is where the entries since the
        seat's last answer begin (the page marks the earlier ones as read)."""
        col = self.players if seat is None else seat
        start = 0
        for i in range(len(self.entries) - 1, -1, -1):  # the designer: since the last answer
            if self.entries[i].answer_of == seat or (seat is None and self.entries[i].answer_of is not None):
                start = i
                break
        first = max(0, len(self.entries) - MAX_NARRATION)
        entries = [{"turn": e.turn, "player": None if e.player is None else e.player + 1, "text": e.texts[col]}
                   for e in self.entries[first:]]
        return {"entries": entries, "new_from": max(0, start - first)}

    # ---- card faces (when the ruleset has a layout.yaml: docs/cards.md) ----------------------
    def has_faces(self) -> bool:
        """Whether the ruleset (or a base it extends) draws its cards by a layout.yaml."""
        home = Path(self.program.rs.content.path)
        return any((d / LAYOUT_FILE).is_file() for d in [home, *(home.parent / n for n in self.program.rs.content.layers)])

    def face(self, token: str, cid: Any) -> str:
        """The SVG face of card `cid`, for a seat that can see that card now."""
        with self.lock:
            seat = self.who(token)
            g = self.game
            if not _is_int(cid) or not 0 <= cid < len(g.cards):
                raise TableError("no such card", 404)
            if not self._sees_at(g.state.where.get(cid), seat):
                raise TableError(f"player {seat + 1} may not see that card", 403)
            if self._faces is None:
                if not self.has_faces():
                    raise TableError("this ruleset has no layout.yaml: its cards have no faces to draw", 404)
                try:
                    cf = card_faces(Path(self.program.rs.content.path), self.program.rs)
                except ContentError as e:
                    raise TableError(f"the card layout has errors: {e.diagnostics[0].message}", 404) from None
                self._faces = {_face_key(c): face_svg(f) for (c, _), (f, _) in
                               zip(distinct_cards(self.program.rs), cf.faces)}
            svg = self._faces.get(_face_key(g.cards[cid]))
            if svg is None:
                raise TableError("this card has no face (dice are not drawn)", 404)
            return svg

    # ---- the designer ----------------------------------------------------------------------
    def _designer(self, token: str) -> None:
        if self.who(token) is not None:
            raise TableError("only the designer's link may do this", 403)

    def step(self, token: str, delta: int) -> None:
        """Rewinding: one answer back (-1) or forward (+1) along the timeline; bots then wait."""
        with self.lock:
            self._designer(token)
            at = len(self.game.choices) + delta
            if not 0 <= at <= len(self.history):
                raise TableError("no step there: " + ("this is the start of the game" if delta < 0
                                                      else "this is the latest step"), 409)
            self.paused = True
            self._restart(self.history[:at])

    def resume(self, token: str) -> None:
        with self.lock:
            self._designer(token)
            self.paused = False
            self.run_bots()
            self.version += 1

    def new_game(self, token: str, seed: Any) -> None:
        with self.lock:
            self._designer(token)
            if not _is_int(seed) or abs(seed) > 2 ** 63:
                raise TableError("`seed` must be a whole number", 400)
            self.seed, self.history, self.paused = seed, [], False
            for i, s in enumerate(self.seats):
                s.agent = self._agent(s.kind, i)
            self._restart([])
            self.run_bots()
            self.version += 1

    def set_seat(self, token: str, player: Any, kind: Any) -> None:
        """Replace a seat by a bot (or give it back to its person): the game goes on from here."""
        with self.lock:
            self._designer(token)
            if not _is_int(player) or not 1 <= player <= self.players:
                raise TableError(f"`player` must be a seat number from 1 to {self.players}", 400)
            if kind not in SEAT_KINDS:
                raise TableError(f"`kind` must be one of {', '.join(SEAT_KINDS)}", 400)
            s = self.seats[player - 1]
            s.kind, s.agent = kind, self._agent(kind, player - 1)
            self.run_bots()
            self.version += 1

    def save(self, token: str) -> str:
        """The game as a save file (`grimoire play --resume` reads it too)."""
        with self.lock:
            self._designer(token)
            with tempfile.TemporaryDirectory() as tmp:
                path = Path(tmp) / "game.json"
                save_game(self.game, path, self.ruleset_path, [s.agent for s in self.seats],
                          ["random" if s.kind == "bot" else s.kind for s in self.seats])  # kinds `play` knows
                return path.read_text(encoding="utf-8")

    def load(self, token: str, text: str) -> None:
        """Go on from a save of this ruleset (checked as `play --resume` checks it)."""
        with self.lock:
            self._designer(token)
            with tempfile.TemporaryDirectory() as tmp:
                path = Path(tmp) / "game.json"
                path.write_text(text, encoding="utf-8")
                try:
                    g, _ = load_saved(path, self.ruleset_path)
                except Exception as e:  # noqa: BLE001 - any refusal is the save's fault, said plainly
                    why = str(e).replace(f"saved game {path}: ", "").replace(f"{path}: ", "").replace(str(path), "it")
                    raise TableError(f"cannot load this save: {why}", 400) from None
            if g.state.players != self.players:
                raise TableError(f"this save is for {g.state.players} players, the table has {self.players}", 400)
            self.seed, self.history, self.paused = g.state.seed, list(g.choices), False
            self._restart(self.history)
            self.run_bots()
            self.version += 1

    def log_text(self, token: str) -> str:
        """The event log of the game so far, as `play --log` writes it (`grimoire replay` reads it
        once the game has ended)."""
        with self.lock:
            self._designer(token)
            again = new_game(self.program, self.players, self.seed, seats=[],
                             record_digests=True)
            lines = [header(self.program, self.players, self.seed, self.ruleset_path)]
            for a in self.game.choices:
                lines.append(step_line(again, a))
                again.answer(a)
            if again.over:
                lines.append(end_line(again))
            with tempfile.TemporaryDirectory() as tmp:
                path = Path(tmp) / "game.jsonl"
                write_log(path, lines)
                return path.read_text(encoding="utf-8")


def redact(text: str, names: set[str]) -> str:
    """`text` with every label or name in `names` (as whole words, a bare name with its fields in
    brackets after it) replaced by `a hidden card`; the longest first, so a label goes whole."""
    if not names:
        return text
    pattern = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.sub(rf"(?<!\w)(?:{pattern})(?!\w)(?: \([^()]*\))?", HIDDEN, text)


def _face_key(c: CardData) -> tuple:
    """What makes two cards look the same on paper (printing.faces.distinct_cards)."""
    return c.name, c.type, repr(sorted(c.fields.items(), key=lambda kv: kv[0])), card_text(c)


def _plain(v: Any) -> Any:
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return str(getattr(v, "name", None) or v)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)
