"""Terminal play for humans: the story of the game as it goes, told with rich.

Every turn is told, the bots' too (what each decided, which cards moved, which stats changed,
the rules' `log` lines), from the point of view of the human seat (narrate.py keeps hidden cards
hidden). At a decision the seat sees its table: zones with their cards by field name, the stats
the ruleset shows, and the options by number; `cards` adds every visible card's text, `stats`
every stat, `q` quits.

Every text the content supplies (zone and card names, prompts, labels, errors) goes through
`printable` and is printed as a rich `Text` (never parsed as markup): a card named with terminal
escapes, newlines or `[bold]` cannot clear the screen, fake a menu option or restyle the output.
"""
from __future__ import annotations

import sys
from typing import Any, TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..engine.directgame import DirectGame
from ..engine.game import Decision
from ..language.untrusted import printable
from .narrate import (EVERYONE, Chronicle, card_line, card_text, choice_line, option_text, prompt_text, sees_card,
                      stat_rows, zone_cards, zone_title, zone_visible)

__all__ = ["HumanAgent", "QuitGame", "show_result", "show_table", "Narrator", "Stepper", "console"]

STYLE = {"turn": "bold cyan", "choice": "bold", "log": "italic", "move": "", "stat": "bold", "roll": "bold"}
MARK = {"turn": "──", "choice": "▸", "log": "»", "move": "·", "stat": "±", "roll": "⚄"}


class QuitGame(Exception):
    pass


def console(file: TextIO | None = None) -> Console:
    """The console stories are told on: no markup, emoji or number highlighting of content text."""
    return Console(file=file or sys.stdout, highlight=False, emoji=False, markup=False, soft_wrap=True)


def _t(text: Any, style: str = "") -> Text:
    return Text(printable(text), style=style)


class Narrator(Chronicle):
    """A Chronicle that prints what happened since it last spoke, on the terminal."""

    def __init__(self, seat: int | None, out: Console | None = None, game: DirectGame | None = None):
        super().__init__(seat, game)
        self.out = out or console()

    def flush(self) -> None:
        """Print what happened since the last flush."""
        for kind, text in self.take():
            if kind == "turn":
                self.out.print()
            line = Text(f"{MARK[kind]} ", style=STYLE[kind])
            line.append(_t(text, STYLE[kind]))
            self.out.print(line)


def show_table(game: DirectGame, seat: int | None, out: Console, texts: bool = False,
               stats: list[str] | None = None, most: int = 12) -> None:
    """The zones `seat` may see with their cards (the others with their size), and the stats.
    A zone shows its first `most` cards (all of them with `texts`)."""
    rs = game.rs
    st = game.state
    out.print(Text(f"turn {st.turn_number}, player {st.active + 1} is active"
                   + (f"; you are player {seat + 1}" if seat is not None and seat >= 0 else "")
                   + ("; every card shown" if seat == EVERYONE else ""), style="bold"))
    for key in st.zones:
        ids = zone_cards(game, key)
        if not ids:
            continue
        title = zone_title(key, seat)
        if not zone_visible(rs, key, seat):
            out.print(_t(f"  {title}: {len(ids)} card{'s' if len(ids) != 1 else ''}, face down", "dim"))
            continue
        out.print(_t(f"  {title}:", "bold"))
        own = seat is not None and key.endswith(f"#{seat}")
        raw = st.zones[key]
        if raw and isinstance(raw[0], list):  # a rows zone: one line per row, in order
            for r, row in enumerate(raw):
                out.print(_t(f"    row {r + 1}: " + "; ".join(card_line(rs, game.cards[c], st.faces.get(c))
                                                          for c in row)))
            continue
        runs = _runs([(card_line(rs, game.cards[c], st.faces.get(c)), card_text(game.cards[c])) for c in ids])
        for n, ((line, words), times) in enumerate(runs):
            if n == most and not texts:
                out.print(_t(f"    ... and {sum(t for _, t in runs[most:])} more", "dim"))
                break
            out.print(_t(f"    {line}" + (f" ×{times}" if times > 1 else "")))
            if (texts or own) and words:
                out.print(_t(f"        {words}", "dim"))
    rows = list(stat_rows(game, seat, stats))
    if rows:
        table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        whos = list(dict.fromkeys(w for w, _, _ in rows))
        names = list(dict.fromkeys(s for _, s, _ in rows))
        table.add_column("")
        for w in whos:
            table.add_column(_t(w or "game"))
        for s in names:
            table.add_row(_t(s), *[_t(next((v for w2, s2, v in rows if w2 == w and s2 == s), "")) for w in whos])
        out.print(table)


def _runs(items: list) -> list[tuple[Any, int]]:
    """Consecutive equal items as (item, how many): a pile of twelve alike reads as one line."""
    out: list[tuple[Any, int]] = []
    for x in items:
        if out and out[-1][0] == x:
            out[-1] = (x, out[-1][1] + 1)
        else:
            out.append((x, 1))
    return out


class HumanAgent:
    """A seat played at the keyboard: shows its table and asks for a number."""

    def __init__(self, out: Console | None = None):
        self.out = out or console()

    def choose(self, game: DirectGame, decision: Decision) -> int:
        out = self.out
        out.print()
        show_table(game, decision.player, out)
        out.print(_t(prompt_text(game, decision.prompt), "bold"))
        values = game.option_values(decision)  # cards as cards (direct code offers their ids)
        for i in range(len(decision.options)):
            out.print(_t(f"  {i + 1}) {option_text(game, decision, i)}"))
            card = values[i]
            if getattr(card, "effect", None) is not None or getattr(card, "text", None):
                if sees_card(game, card.id, decision.player):
                    out.print(_t(f"       {card_text(card)}", "dim"))
        while True:
            try:
                raw = input("choice (number; cards, stats, q to quit): ").strip()
            except EOFError:  # input closed: leave as if `q` was typed (the game can be saved)
                print()
                raise QuitGame() from None
            low = raw.lower()
            if low in ("q", "quit"):
                raise QuitGame()
            if low == "cards":
                show_table(game, decision.player, out, texts=True)
                continue
            if low == "stats":
                show_table(game, decision.player, out, stats=list(game.rs.stats))
                continue
            if raw.isdigit() and 1 <= int(raw) <= len(decision.options):
                return int(raw) - 1
            out.print(f"  please type a number from 1 to {len(decision.options)} (or cards, stats, q)")


def show_result(game: DirectGame, out: Console | None = None) -> None:
    out = out or console()
    if game.error:
        out.print(_t(f"the game stopped: {game.error}", "bold red"))
        return
    r = game.result
    out.print()
    out.print(_t("final scores: " + ", ".join(f"player {i + 1}: {printable(s)}" for i, s in enumerate(r["scores"])), "bold"))
    out.print(_t("winner(s): " + (", ".join(f"player {w + 1}" for w in r["winners"]) or "none"), "bold"))
    if r.get("reason"):
        out.print(_t(f"the game ended: {r['reason']}"))


class Stepper:
    """`grimoire replay LOG --step`: tells each logged decision with what it led to (every card
    shown: a replay is the designer's view) and waits for Enter; `c` runs on without stopping,
    `t` shows the whole table, `q` stops. With no terminal input left it runs on."""

    def __init__(self, game_out: Console | None = None):
        self.out = game_out or console()
        self.narrator: Narrator | None = None
        self.pause = True

    def step(self, game: DirectGame, line: dict) -> None:
        if self.narrator is None:
            self.narrator = Narrator(EVERYONE, self.out, game)
            show_table(game, EVERYONE, self.out)
        self.narrator.flush()
        d = game.decision
        self.out.print(_t(f"step {line['step']}: {choice_line(game, d, line['choice'], EVERYONE, '')}", "bold"))
        while self.pause:
            try:
                raw = input("Enter: next step; t: table; c: run on; q: stop > ").strip().lower()
            except EOFError:
                self.pause = False
                break
            if raw == "q":
                raise QuitGame()
            if raw == "t":
                show_table(game, EVERYONE, self.out, texts=True)
                continue
            if raw == "c":
                self.pause = False
            break

    def mismatch(self, game: DirectGame, message: str) -> None:
        """The state where the log and the rules part ways, and the decision the game asks."""
        if self.narrator is not None:
            self.narrator.flush()
        self.out.print()
        self.out.print(_t(f"MISMATCH: {message}", "bold red"))
        self.out.print(_t("the game as replayed up to there:", "bold"))
        show_table(game, EVERYONE, self.out)
        d = game.decision
        if d is not None:
            self.out.print(_t(f"player {d.player + 1} is asked: {d.prompt}", "bold"))
            for i in range(len(d.options)):
                self.out.print(_t(f"  choice {i}) {option_text(game, d, i)}"))
