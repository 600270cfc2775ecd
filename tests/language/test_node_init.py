"""The constructs' `__init__`s, written by language/nodeinit.py instead of `dataclass` (one
compilation for all, kept in the user's cache): they must take and set exactly what dataclass's
would (keyword-only fields, defaults, default factories), whether the code is compiled or read
back from the cache, and a broken cache file must cost only the compilation."""
from __future__ import annotations

import dataclasses
import inspect
from dataclasses import MISSING

import pytest

from interpreter.language import nodeinit, tree


def _required(cls: type) -> dict:
    return {f.name: object() for f in dataclasses.fields(cls)
            if f.default is MISSING and f.default_factory is MISSING}


def test_every_construct_takes_its_fields_as_keywords_with_dataclass_defaults():
    assert len(tree._constructs) >= len(tree.CONSTRUCTS)
    for cls in tree._constructs:
        params = list(inspect.signature(cls.__init__).parameters.values())[1:]
        fields = dataclasses.fields(cls)
        assert [p.name for p in params] == [f.name for f in fields], cls
        assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params), cls
        for p, f in zip(params, fields):
            if f.default is not MISSING:
                assert p.default is f.default, (cls, f.name)
            elif f.default_factory is MISSING:
                assert p.default is inspect.Parameter.empty, (cls, f.name)
        assert cls.__init__.__qualname__ == f"{cls.__qualname__}.__init__"


def test_a_construct_gets_every_value_given_and_each_default():
    for cls in tree._constructs:
        given = _required(cls)
        node = cls(**given)
        for f in dataclasses.fields(cls):
            if f.name in given:
                assert getattr(node, f.name) is given[f.name], (cls, f.name)
            elif f.default is not MISSING:
                assert getattr(node, f.name) is f.default, (cls, f.name)
            else:  # a factory's value, new for each node
                again = cls(**given)
                assert getattr(node, f.name) == f.default_factory()
                assert getattr(node, f.name) is not getattr(again, f.name), (cls, f.name)
        with pytest.raises(TypeError):
            cls(**given, no_such_field=1)
        if given:
            with pytest.raises(TypeError):
                cls(**dict(list(given.items())[1:]))  # a required field left out
            with pytest.raises(TypeError):
                cls(*given.values())  # fields are keywords only


def test_make_is_the_construct_s_init_without_a_class_call():
    """`cls._make(...)`, which the constructs' `build`s call, makes an instance of exactly that
    class, with the values and defaults its `__init__` gives, and the same parameters."""
    for cls in tree._constructs:
        assert "_make" in cls.__dict__, cls  # its own: a subclass never makes its base
        assert list(inspect.signature(cls._make).parameters) == list(inspect.signature(cls.__init__).parameters)[1:]
        given = _required(cls)
        made, called = cls._make(**given), cls(**given)
        assert type(made) is cls
        for f in dataclasses.fields(cls):
            assert getattr(made, f.name) == getattr(called, f.name), (cls, f.name)
            if f.name in given:
                assert getattr(made, f.name) is given[f.name]
            elif f.default is MISSING:  # a factory's value, new for each node
                assert getattr(made, f.name) is not getattr(cls._make(**given), f.name), (cls, f.name)
        with pytest.raises(TypeError):
            cls._make(**given, no_such_field=1)
        if given:
            with pytest.raises(TypeError):
                cls._make(*given.values())


def test_replace_and_fields_still_work():
    name = tree.Name(loc=None, id="x")
    other = dataclasses.replace(name, id="y")
    assert (other.id, other.loc, type(other)) == ("y", None, tree.Name)
    assert not hasattr(name, "__dict__")  # still slotted


def test_the_code_is_kept_and_read_back_and_a_broken_cache_is_rewritten(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))

    def fresh():
        @dataclasses.dataclass(eq=False, repr=False, kw_only=True, slots=True, init=False)
        class A:
            a: int
            b: list = dataclasses.field(default_factory=list)
            c: str = "c"
        nodeinit.install([A])
        return A

    A = fresh()
    kept = tmp_path / "grimoire" / "node-inits.marshal"
    assert kept.exists()
    with monkeypatch.context() as m:  # read back: no compilation
        m.setattr(nodeinit, "compile", lambda *a: pytest.fail("compiled again"), raising=False)
        B = fresh()
    assert (B(a=1).a, B(a=1).b, B(a=1).c) == (1, [], "c")
    kept.write_bytes(b"not marshal")
    C = fresh()
    assert (C(a=2).a, A(a=3, c="d").c) == (2, "d")
    assert kept.read_bytes() != b"not marshal"
