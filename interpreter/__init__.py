"""Grimoire: a rules language and a generic, event-driven interpreter for tabletop games."""
from __future__ import annotations

from typing import Any

__all__ = ["load_program", "check_path"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """Import the library lazily, so that `grimoire --help` does not load the parser."""
    if name in __all__:
        from . import api
        return getattr(api, name)
    raise AttributeError(name)
