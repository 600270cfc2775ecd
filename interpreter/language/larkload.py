"""Every name Grimoire takes from Lark, imported in one place (parser.py and fastparse.py use
them): Lark's internals that the fast parse loop builds on (`UnlessCallback`, `Shift`, the child
filters) are pinned here, so an upgrade of Lark that moves one fails at one import."""
from __future__ import annotations

from lark import Lark, Token, Transformer_NonRecursive, Tree, v_args
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.indenter import Indenter
from lark.lexer import UnlessCallback
from lark.parse_tree_builder import ChildFilterLALR, maybe_create_child_filter
from lark.parsers.lalr_analysis import Shift

__all__ = ["Lark", "Token", "Transformer_NonRecursive", "Tree", "v_args", "LarkError", "UnexpectedCharacters",
           "UnexpectedInput", "UnexpectedToken", "Indenter", "UnlessCallback", "ChildFilterLALR", "maybe_create_child_filter", "Shift"]
