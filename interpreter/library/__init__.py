"""The builtin registry: every function a rule can call, with its arity and doc (`BUILTINS`).

The functions live by subject (`builtins.py`: lists, zones, players; `boards.py`: grids and board
graphs); this is the one table that the checker, the compilers and the docs read.
"""
from __future__ import annotations

from .boards import BOARD_BUILTINS
from .builtins import ANYWHERE, ARGS, CORE_BUILTINS, TURN, Builtin

__all__ = ["BUILTINS", "Builtin", "PURE_BUILTINS", "ANYWHERE_BUILTINS", "ARGS", "TURN", "ANYWHERE"]

BUILTINS: dict[str, Builtin] = {**CORE_BUILTINS, **BOARD_BUILTINS}

# derived from `Builtin.reads`, never listed by hand: every user of "which calls are pure" reads these
PURE_BUILTINS: frozenset[str] = frozenset(n for n, b in BUILTINS.items() if b.reads == ARGS)
ANYWHERE_BUILTINS: frozenset[str] = frozenset(n for n, b in BUILTINS.items() if b.reads == ANYWHERE)
