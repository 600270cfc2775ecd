"""Lark, imported without two optional modules it would load that Grimoire never uses.

Why: on import Lark loads `regex` (used only for `Lark(regex=True)` and `\\p{...}` classes, which
the grammar does not use) and `interegular` (used only to warn about colliding terminals while a
grammar is built with validation; a grammar loaded from Lark's cache skips that check anyway).
Together they are about 0.03 s of every command that parses, a twentieth of `grimoire validate`
(docs/performance.md). While Lark is imported here, both names read as missing (`sys.modules`
entries of None make an import fail); afterwards they are importable as before. When something
imported Lark earlier, this changes nothing.
"""
from __future__ import annotations

import sys

_HIDDEN = [name for name in ("regex", "interegular") if name not in sys.modules]
for _name in _HIDDEN:
    sys.modules[_name] = None  # type: ignore[assignment]
try:
    from lark import Lark, Token, Transformer_NonRecursive, Tree, v_args
    from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken
    from lark.indenter import Indenter
    from lark.lexer import UnlessCallback
    from lark.parse_tree_builder import ChildFilterLALR, maybe_create_child_filter
    from lark.parsers.lalr_analysis import Shift
finally:
    for _name in _HIDDEN:
        if _name in sys.modules and sys.modules[_name] is None:
            del sys.modules[_name]

__all__ = ["Lark", "Token", "Transformer_NonRecursive", "Tree", "v_args", "LarkError", "UnexpectedCharacters",
           "UnexpectedInput", "UnexpectedToken", "Indenter", "UnlessCallback", "ChildFilterLALR", "maybe_create_child_filter", "Shift"]
