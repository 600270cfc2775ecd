"""The token check of generated source (defence in depth: no rule text ever reaches it), in one
regular-expression pass instead of Python's `tokenize`, which is written in Python and took
seconds on the largest generated modules (4 MB of source: ~2.5 s, paid once per
form). It refuses at least everything the tokenize-based check the task engine had (kept as the reference in the test)
refuses, and more: any character outside plain ASCII letters, digits, spaces, newlines and
operator punctuation — so no string, comment, escape, tab or non-ASCII name — and any number
but a plain integer. tests/engine/test_directcheck.py compares the two on real modules and on
sources made to fail.
"""
from __future__ import annotations

import re
import string

__all__ = ["check_source"]

# the characters generated code may hold: no quote (strings), no '#' (comments), no backslash,
# no tab or other whitespace, nothing outside ASCII
_ALLOWED = frozenset(string.ascii_letters + string.digits + "_ \n()[]{}:,.;+-*/%<>=!&|^~@")
# a name, or anything that starts like a number (with what follows it: `1e5`, `0x1f`, `1_0`,
# `1j`, `1.5`, `.5`), so that a number's letters are never read as a name
_TOKEN = re.compile(r"\.?[0-9][0-9A-Za-z_.]*|[A-Za-z_][0-9A-Za-z_]*")


def check_source(src: str, names: set[str] | frozenset[str], own: re.Pattern) -> None:
    """Refuse generated source with any name but `names` and those matching `own`, any number
    but a plain integer, or any character that could start a string, comment or escape."""
    bad = set(src).difference(_ALLOWED)
    if bad:
        raise ValueError(f"unexpected character in generated code: {min(bad)!r}")
    if src.count("!") != src.count("!="):
        raise ValueError("unexpected token in generated code: '!'")
    for tok in set(_TOKEN.findall(src)):
        if tok[0] in "0123456789.":
            if not tok.isdigit():
                raise ValueError("unexpected number in generated code")
        elif tok not in names and not own.match(tok):
            raise ValueError(f"unexpected name in generated code: {tok!r}")
