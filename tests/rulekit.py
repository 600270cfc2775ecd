"""Helpers for tests that write tiny rule files: one place, shared by the construct tests."""
from __future__ import annotations

import itertools
import textwrap
from pathlib import Path

from interpreter.api import check_path, load_program
from interpreter.engine.game import Game

_counter = itertools.count(1)


def ruleset(tmp_path: Path, rules: str, cards: str | None = None) -> Path:
    """A ruleset folder holding `game.rules` (and `cards/cards.yaml`); a fresh path each call."""
    folder = tmp_path / f"game{next(_counter)}"
    folder.mkdir()
    (folder / "game.rules").write_text(textwrap.dedent(rules).lstrip(), encoding="utf-8")
    if cards is not None:
        (folder / "cards").mkdir()
        (folder / "cards" / "cards.yaml").write_text(textwrap.dedent(cards).lstrip(), encoding="utf-8")
    return folder


def game(tmp_path: Path, rules: str, cards: str | None = None, players: int = 2, seed: int = 0) -> Game:
    return Game(load_program(ruleset(tmp_path, rules, cards)), players, seed)


def answer(g: Game, player: int, label: str) -> None:
    """Answer the pending decision of `player` with the option labelled `label` (or `label ...`)."""
    d = g.decision
    assert d is not None, f"no decision pending (error: {g.error})"
    assert d.player == player, f"decision is for player {d.player + 1}, expected {player + 1}"
    hits = [i for i, text in enumerate(d.labels) if text == label or text.startswith(label + " ")]
    assert hits, f"{label!r} is not among {d.labels}"
    g.answer(hits[0])


def errors(tmp_path: Path, rules: str, cards: str | None = None) -> list:
    _, content = check_path(ruleset(tmp_path, rules, cards))
    return [d for d in content.diagnostics if d.severity == "error"]
