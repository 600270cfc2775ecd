"""The bounds the parser sets on untrusted rule text, in one place: parser.py checks them, and so
does Lark's indenter (larkside.py), which parser.py imports only for a text with errors."""
from __future__ import annotations

__all__ = ["MAX_SOURCE_BYTES", "MAX_NESTING", "MAX_AST_DEPTH", "MAX_NUMBER_DIGITS", "MAX_BINDING_NESTING"]

MAX_SOURCE_BYTES = 1_000_000  # rule files are untrusted: refuse absurd sizes up front
MAX_NESTING = 60  # blocks inside blocks
MAX_AST_DEPTH = 200  # brackets, operator chains, blocks: later stages recurse over the tree
MAX_NUMBER_DIGITS = 18  # a number literal stays below the arithmetic bound (2 ** 63)
MAX_BINDING_NESTING = 8  # `where`, `for`, `some/every/no` inside each other (the rulesets use 2);
                         # compiling them costs more than linear in their depth
