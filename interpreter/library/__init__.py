"""The builtin registry: every function a rule can call, with its arity and doc (`BUILTINS`).

The functions live by subject (`builtins.py`: lists, zones, players; `boards.py`: grids and board
graphs); this is the one table that the checker, the compilers and the docs read.
"""
from __future__ import annotations

from .boards import BOARD_BUILTINS
from .builtins import CORE_BUILTINS, Builtin

__all__ = ["BUILTINS", "Builtin"]

BUILTINS: dict[str, Builtin] = {**CORE_BUILTINS, **BOARD_BUILTINS}
