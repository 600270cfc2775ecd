"""The constructs' `__init__`s (language/tree.py), written once for all of them and kept compiled.

Why: every construct is a slotted, keyword-only dataclass, and `dataclass` writes and compiles
each class's `__init__` on its own (an `exec` of a few lines per class): about 90 compilations,
2% of a `grimoire validate` from a cold start, only to import the syntax tree. Here `dataclass`
still does everything else (fields, defaults, slots: `fields()` and `replace()` work as before),
with `init=False`; `install` then writes the same `__init__`s (each field a keyword-only
parameter, a default's value or its factory's, one assignment per field) as one source text,
compiles it once and keeps the code (no values: the defaults are looked up by name) in the user's
cache folder, keyed by that text and Python's version, so a later process only reads it.
"""
from __future__ import annotations

import sys
from dataclasses import MISSING, fields

from .usercache import cache_dir, read_cached, write_cached

__all__ = ["install"]

_FORMAT = 2  # the shape of the cache file; another shape is written again


class _Factory:
    """The default of a parameter whose field has a `default_factory` (as dataclass's own marker)."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def _source(i: int, cls: type, names: dict) -> str:
    """Class `i`'s `__init__` as dataclass writes it for `kw_only=True` (no `__post_init__`, no
    frozen fields); its defaults go into `names` under the names the text uses."""
    params, body = [], []
    for f in fields(cls):
        if not f.init:
            raise ValueError(f"{cls.__name__}.{f.name}: a field outside __init__")
        if f.default is not MISSING:
            names[f"_d{i}_{f.name}"] = f.default
            params.append(f"{f.name}=_d{i}_{f.name}")
            body.append(f"    self.{f.name} = {f.name}")
        elif f.default_factory is not MISSING:
            names[f"_f{i}_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_FACTORY")
            body.append(f"    self.{f.name} = _f{i}_{f.name}() if {f.name} is _FACTORY else {f.name}")
        else:
            params.append(f.name)
            body.append(f"    self.{f.name} = {f.name}")
    head = f"def _init{i}(self, *, {', '.join(params)}):" if params else f"def _init{i}(self):"
    # `_make{i}`: the same, as a plain function that makes the instance itself (`cls._make(...)`)
    make = f"def _make{i}(*, {', '.join(params)}):" if params else f"def _make{i}():"
    return "\n".join([head] + (body or ["    pass"]) + [make, f"    self = _new(_cls{i})"] + body + ["    return self"]) + "\n"


def install(classes: list[type]) -> None:
    """Give each class (a dataclass made with `init=False`, `kw_only=True`) its `__init__`, and
    `_make`, a plain function with the same keyword parameters that makes the instance and sets
    its fields as `__init__` does. Why: calling a class with keywords packs them into a dict for
    `__init__` and unpacks them again (`type.__call__`); the parser makes about 16,000 constructs a
    `validate`, each through its class's `build`, which calls `cls._make(...)` (half the cost)."""
    if any(hasattr(cls, "__post_init__") for cls in classes):
        raise ValueError("a construct with __post_init__: let dataclass write its __init__")
    names: dict = {"_FACTORY": _FACTORY, "_new": object.__new__}
    text = "".join(_source(i, cls, names) for i, cls in enumerate(classes))
    names.update((f"_cls{i}", cls) for i, cls in enumerate(classes))
    exec(_code(text), names)
    for i, cls in enumerate(classes):
        init, make = names[f"_init{i}"], names[f"_make{i}"]
        init.__name__, init.__qualname__, init.__module__ = "__init__", f"{cls.__qualname__}.__init__", cls.__module__
        make.__name__, make.__qualname__, make.__module__ = "_make", f"{cls.__qualname__}._make", cls.__module__
        cls.__init__ = init
        cls._make = staticmethod(make)


def _code(text: str):
    """`compile(text)`, read from the cache when an earlier process kept it for this text."""
    key = (_FORMAT, sys.version, text)
    folder = cache_dir()
    path = folder / "node-inits.marshal" if folder is not None else None
    code = read_cached(path, key)
    if code is None:
        code = compile(text, "<construct __init__s>", "exec")
        write_cached(path, key, code)
    return code