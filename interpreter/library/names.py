"""The names the language itself binds: every rule can read them, no declaration may take them."""
from __future__ import annotations

__all__ = ["SPECIAL_NAMES"]

SPECIAL_NAMES = frozenset({"you", "this", "it", "players", "player_count", "start_player", "active_player",
                 "true", "false", "none", "turn_number", "round_number"})
