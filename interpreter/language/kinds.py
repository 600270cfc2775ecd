"""The kinds of value the checker can be sure of (the language's static types); None means "could be anything"."""
from __future__ import annotations

__all__ = ["ZONE", "NUMBER", "BOOL", "TEXT", "ARTICLE"]

ZONE, NUMBER, BOOL, TEXT = "zone", "number", "true/false value", "text"
ARTICLE = {ZONE: "a zone", NUMBER: "a number", BOOL: "a true/false value", TEXT: "a text"}
