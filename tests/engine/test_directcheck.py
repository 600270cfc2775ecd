"""The token check of generated source (engine/directcheck.py, one regular-expression pass) is at
least as strict as the tokenize-based check it replaced: it accepts the modules the compiler
writes, and refuses every source the old check refused — hand-made ones (strings, comments,
floats, unknown names) and random corruptions of a real module."""
from __future__ import annotations

import io
import random
import re
import tokenize
from pathlib import Path

import pytest

from interpreter.api import load_program
from interpreter.engine.direct import _KEYWORDS, _OWN_NAME, compile_direct
from interpreter.engine.directcheck import check_source

ROOT = Path(__file__).resolve().parents[2]


def old_check(src: str, names, own: re.Pattern) -> None:
    """The check as it was (compile/codegen.py's check_tokens), the reference."""
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type == tokenize.NAME:
            if tok.string not in names and not own.match(tok.string):
                raise ValueError(tok.string)
        elif tok.type == tokenize.NUMBER:
            if not tok.string.isdigit():
                raise ValueError(tok.string)
        elif tok.type in (tokenize.STRING, tokenize.COMMENT) or (tok.type == tokenize.ERRORTOKEN and tok.string.strip()):
            raise ValueError(tok.string)


def refuses(check, src: str) -> bool:
    """Whether `check`, then Python's compile (as the compiler runs them), refuse `src`."""
    try:
        check(src, _KEYWORDS, _OWN_NAME)
        compile(src, "<generated>", "exec")
    except (ValueError, SyntaxError, tokenize.TokenError):
        return True
    return False


@pytest.fixture(scope="module")
def source() -> str:
    return compile_direct(load_program(ROOT / "rulesets" / "tutorial_fireflies")).source


def test_accepts_what_the_compiler_writes(source):
    assert not refuses(old_check, source)
    assert not refuses(check_source, source)


BAD = ["x = 'a'", 'x = "a"', "x = b'a'", "x = 1  # note", "x = 1.5", "x = .5", "x = 1e5", "x = 0x1f", "x = 1_000",
       "x = 1j", "x = 1if 1 else 2", "x = open", "x = eval", "x = \u00f1", "x = $", "x = `", "x = ?",
       "x = !1", "x = f'{R}'", "x = 1\t+ 1", "x = 1 + \\\n 2", "x = R.\u0430"]


@pytest.mark.parametrize("bad", BAD)
def test_refuses_what_could_carry_text(source, bad):
    src = source.replace("    _LBL = R.label\n", f"    _LBL = R.label\n    {bad}\n", 1)
    assert src != source
    assert refuses(check_source, src)


def test_refuses_every_corruption_the_old_check_refused(source):
    rng = random.Random(7)
    lines = source.split("\n")[:60]  # the head of the module: bindings and the first functions
    base = "\n".join(lines) + "\n"
    assert not refuses(old_check, base) and not refuses(check_source, base)
    pieces = ["'", '"', "#", "\\", "\t", "1.0", "2e3", "0o7", "x", "open", "print", "\u00e9", "$", "?", "!", "`",
              ".5", "1j", "0b1", "_ok", "R", "__class__", " ", "\n", ":", "(", "+"]
    old_refused = 0
    for _ in range(400):
        at = rng.randrange(len(base))
        src = base[:at] + rng.choice(pieces) + base[at:]
        if refuses(old_check, src):
            old_refused += 1
            assert refuses(check_source, src), repr(src[max(0, at - 30):at + 30])
    assert old_refused > 100  # the corruptions did test the refusals
