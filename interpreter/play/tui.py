"""Terminal play for humans: shows only what the seat may see, asks for a choice by number.

Every text the content supplies (zone and card names, prompts, labels, errors) goes through
`printable`: a card named with terminal escapes or newlines cannot clear the screen or fake a
menu option."""
from __future__ import annotations

import json

from ..engine.game import Decision, Game
from ..language.untrusted import printable

__all__ = ["HumanAgent", "QuitGame", "show_result"]


class QuitGame(Exception):
    pass


class HumanAgent:
    def choose(self, game: Game, decision: Decision) -> int:
        view = game.view(decision.player)
        print()
        print(f"--- turn {game.state.turn_number}, player {game.state.active + 1} is active; "
              f"you are player {decision.player + 1} ---")
        for zone, content in view.items():
            if content:
                print(f"  {printable(zone)}: {printable(json.dumps(content, ensure_ascii=False, default=str))}")
        print(printable(decision.prompt))
        for i, label in enumerate(decision.labels):
            print(f"  {i + 1}) {printable(label)}")
        while True:
            try:
                raw = input("choice (number, q to quit): ").strip()
            except EOFError:  # input closed: leave as if `q` was typed (the game can be saved)
                print()
                raise QuitGame() from None
            if raw.lower() in ("q", "quit"):
                raise QuitGame()
            if raw.isdigit() and 1 <= int(raw) <= len(decision.options):
                return int(raw) - 1
            print(f"  please type a number from 1 to {len(decision.options)}")


def show_result(game: Game) -> None:
    if game.error:
        print(f"the game stopped: {printable(game.error)}")
        return
    r = game.result
    print("final scores: " + ", ".join(f"player {i + 1}: {printable(s)}" for i, s in enumerate(r["scores"])))
    print("winner(s): " + ", ".join(f"player {w + 1}" for w in r["winners"]))
