"""What every game of a ruleset shares, whatever runs it: the compiled ruleset's data
(`Program`), the limits a game runs under (`Limits`), the pending question (`Decision`) and the
result, log and holdings helpers of engine/directgame.py's driver.

The rules themselves run as generated Python (engine/direct.py, docs/compilation.md); a game is
made by `engine.factory.new_game`.
"""
from __future__ import annotations

import copy
import sys
from dataclasses import dataclass
from typing import Any, Callable

from ..analysis import effects
from ..analysis.effects import is_sync
from ..analysis.playerplans import player_plan
from ..content.model import CardData, Ruleset
from ..language.diagnostics import Loc
from ..runtime.errors import LimitExceeded
from ..runtime.state import GameState

__all__ = ["Decision", "Limits", "Program", "asked"]


@dataclass
class Limits:
    max_steps: int = 2_000_000  # statements executed in one game
    max_depth: int = 64  # nested procedure calls and triggers
    max_turns: int = 5_000
    max_settle_passes: int = 100
    max_decisions: int = 100_000  # answered decisions in one game
    max_work: int = 50_000_000  # items visited by `where`, quantifiers, comprehensions, ranges,
    #                             builtins over collections, and rule function calls
    max_log_chars: int = 20_000_000  # the text of all `log` lines of one game (kept in memory)
    max_memory: int = 20_000_000  # list items and text characters built in one game (runtime/memory.py)


def write_log(game: Any, text: str, limits: "Limits") -> None:
    """Append a `log` line to `game.log`, counting its characters against `max_log_chars` (both
    engines' games keep their log in memory)."""
    game.log_chars += len(text) + 1
    if game.log_chars > limits.max_log_chars:
        raise LimitExceeded(f"the game's log passed {limits.max_log_chars} characters: a rule seems to log "
                            "without end", None)
    game.log.append(text)


class Decision:
    """A pending question: who answers, what kind ("choose" | "may" | "place" | "order"), the options.

    The options' labels are made when first read: bots answering by index never need them, and
    while the decision is pending the state they describe cannot change. So is the prompt where
    `prompt_of` is given (`prompt` then holds its arguments): a question asked per item, such as
    `choose any` asking yes or no per die (its words name the die and its face), is made
    hundreds of times a game and read only by people and tools."""

    __slots__ = ("player", "kind", "_prompt", "options", "_labels", "loc", "_label_of", "_prompt_of")

    def __init__(self, player: int, kind: str, prompt: Any, options: list[Any], labels: list[str] | None,
                 loc: Loc | None, label_of: Callable[[Any], str] | None = None,
                 prompt_of: Callable[..., str] | None = None):
        self.player, self.kind, self._prompt, self.options, self.loc = player, kind, prompt, options, loc
        self._labels, self._label_of, self._prompt_of = labels, label_of, prompt_of

    @property
    def prompt(self) -> str:
        if self._prompt_of is not None:
            self._prompt = self._prompt_of(*self._prompt)
            self._prompt_of = None
        return self._prompt

    @property
    def labels(self) -> list[str]:
        if self._labels is None:
            self._labels = [self._label_of(o) for o in self.options]
            self._label_of = None
        return self._labels

    def __deepcopy__(self, memo: dict) -> "Decision":
        """A copy that no longer refers to the game it was asked in (its labels are made now)."""
        return Decision(self.player, self.kind, self.prompt, copy.deepcopy(self.options, memo), list(self.labels),
                        self.loc)

    def __repr__(self) -> str:
        return f"Decision(player={self.player}, kind={self.kind!r}, prompt={self.prompt!r}, labels={self.labels!r})"

    def to_json(self) -> dict:
        """The decision as JSON data for people and tools: the player numbered from 1, as in every
        output (the `player` attribute stays the seat's index from 0, as `answer` takes indexes)."""
        return {"player": self.player + 1, "kind": self.kind, "prompt": self.prompt, "options": self.labels,
                "rule": str(self.loc) if self.loc else None}


_new_object = object.__new__


def asked(player: int, kind: str, prompt: Any, options: list[Any], labels: list[str] | None, loc: Loc | None,
          label_of: Callable[[Any], str] | None = None, prompt_of: Callable[..., str] | None = None) -> Decision:
    """`Decision(...)` made without calling the class: what the generated code yields at every
    decision (`_Decision`, about 260 a game in a card game). In Python 3.11 a class call enters
    `__init__` from C, in an interpreter loop of its own (about 2,500 instructions with the eight
    stores); a function called from generated code runs in the caller's loop (about 1,800). Sets
    the slots exactly as `Decision.__init__` does (tests/engine/test_decision.py compares them)."""
    d = _new_object(Decision)
    d.player = player
    d.kind = kind
    d._prompt = prompt
    d.options = options
    d.loc = loc
    d._labels = labels
    d._label_of = label_of
    d._prompt_of = prompt_of
    return d


class Program:
    """A ruleset loaded once, with what the code generator and the games of it read besides the
    rules themselves; many games can run from it (its generated code is made on first use and
    kept on it: direct.py `compile_direct`)."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        # state-based rules that never stop at a decision or call: settling can run at once,
        # inside the statement that changed the state (direct.py's plain `_settle`)
        self.settles_at_once = all(is_sync(a.body) for a in rs.always) and all(is_sync(w.body) for w in rs.watchers)
        # what each state-based rule reads, so that settling skips rules nothing touched
        self.always_reads = [effects.reads(a.body, rs) for a in rs.always]
        # per-player `always` loops re-run only for the players whose zones changed (playerplans.py)
        self.always_players = [player_plan(a.body, rs) for a in rs.always]
        self.watcher_reads = [effects.reads([w.cond], rs) for w in rs.watchers]
        self.rows_zones = frozenset(n for n, z in rs.zones.items() if z.kind == "rows")
        self.grids = {n: (z.width, z.height) for n, z in rs.zones.items() if z.kind == "grid"}
        # board items in declaration order: (board, item) — their spaces are compiled with the rules
        self.boards = [(name, item) for name, b in rs.boards.items() for item in b.items]
        self.board_names = frozenset(rs.boards)
        # (a face's text as the one object of its value, as the generated code's constants: `==` is a pointer test)
        self.die_faces = {name: [sys.intern(f) if type(f) is str else f for f in rs.die_faces(name)]
                          for name in rs.die_types}
        # zones where covered cards keep only one part of their abilities (card parts)
        self.kept_parts = {n: z.keeps for n, z in rs.zones.items() if z.keeps}


def trigger_label(source: str | None, loc: Loc | None) -> str:
    """A trigger's option when the active player orders several: its card and its rule's file
    name and line — not the path, which depends on where the game was started from."""
    where = f"{loc.file.replace(chr(92), '/').rsplit('/', 1)[-1]}:{loc.line}" if loc is not None else "?"
    return f"{source}: {where}" if source else where


def record_answer(g: Any, index: int) -> Decision:
    """Check an answer to `g`'s pending decision and note it (both engines' `answer`)."""
    d = g.decision
    if d is None:
        raise ValueError("no decision is pending")
    if not 0 <= index < len(d.options):
        raise ValueError(f"choice {index} is out of range 0..{len(d.options) - 1}")
    g.choices.append(index)
    g.decisions_made += 1
    g.decision = None
    return d


def game_result(st: GameState, scores: list, keys: list[tuple], decisions: int, first_player: int) -> dict:
    """A finished game's result: scores, winners (best score, then tiebreaks), length, decisions."""
    best = max(keys) if keys else None
    if st.all_win:  # `end game ... with every player winning`: the seats that take turns win together
        won = list(range(min(st.players, len(keys))))
    else:
        won = [p for p in range(len(keys)) if keys[p] == best and not st.no_winner]
    result = {"scores": scores, "winners": won,
              "turns": st.turn_number, "rounds": st.round_number, "decisions": decisions,
              "first_player": first_player}
    if st.end_reason is not None:  # `end game "reason"`
        result["reason"] = st.end_reason
    if st.end_cap:  # `end game ... by cap`: stopped by a safety cap, not by the rules
        result["cap"] = True
    return result


def held_names(st: GameState, cards: list[CardData], rows_zones: frozenset[str], seats: int) -> list[list[str]]:
    """Per seat, the names of the cards in its own zones (cards under others included)."""
    out: list[list[str]] = [[] for _ in range(seats)]
    for key, z in st.zones.items():
        name, _, owner = key.partition("#")
        if not owner:
            continue
        ids = [c for row in z for c in row] if name in rows_zones else list(z)
        for cid in ids:
            out[int(owner)].append(cards[cid].name)
            out[int(owner)] += [cards[u].name for u in st.under.get(cid, ())]
    return out
