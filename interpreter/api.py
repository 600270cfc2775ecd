"""The library entry points: load, check and compile a ruleset in one call."""
from __future__ import annotations

import functools
from pathlib import Path

from .analysis.validate import check_path
from .language.diagnostics import ContentError, Diagnostic
from .engine.game import Program
from .runtime.errors import RuleError
from .content.stack import split_stack, stack_path

__all__ = ["check_path", "load_program"]


@functools.lru_cache(maxsize=32)
def _load_program_cached(path: str) -> Program:
    rs, content = check_path(path)
    if rs is None or not content.ok:
        raise ContentError([d for d in content.diagnostics if d.severity == "error"])
    try:
        return Program(rs)
    except RuleError as e:
        raise ContentError([Diagnostic("error", "compile", e.message, e.loc)]) from None


def load_program(path: str | Path) -> Program:
    """A checked, compiled ruleset (cached per path); raises ContentError with diagnostics."""
    if not Path(path).exists():  # `BASE --with MOD,MOD`: each folder resolved, so the cache sees one stack
        base, mods = split_stack(str(path))
        path = stack_path(str(Path(base).resolve()), [str(Path(m).resolve()) for m in mods])
        return _load_program_cached(path)
    return _load_program_cached(str(Path(path).resolve()))
