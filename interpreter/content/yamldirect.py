"""Card YAML straight from libyaml's events to ruamel's round-trip values, for the plain files.

Why: `validate` spent most of its card-file time in ruamel's round-trip constructor (a generator
per collection, a node object per value, a method per scalar), not in scanning, which libyaml does
in C. A card file is mostly plain text, numbers and small mappings; this builds the same
`CommentedMap`/`CommentedSeq` values with the same positions (`.lc`), the same string types
(quote styles and `|` blocks are kept) and the same flow/block styles, in one pass over the
events, anchors, aliases and `<<` merge keys included (the shared values are the same objects,
as ruamel's). Anything it does not build the way ruamel would (tags, duplicate keys, empty values,
an alias inside its own anchor, nesting past the limit) raises `Unusual`, and the caller reads the
file the longer way; scalars it does not know (floats, `0x1F`, `0`, timestamps, `>` blocks) go
to ruamel's own constructor one by one. tests/content/test_fast_yaml.py compares the results with
ruamel's on every shipped card file and on unusual documents.
"""
from __future__ import annotations

from typing import Any

from ruamel.yaml import nodes as rt_nodes
from ruamel.yaml.comments import CommentedMap, CommentedSeq, LineCol
from ruamel.yaml.error import StreamMark
from ruamel.yaml.mergevalue import MergeValue
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, LiteralScalarString, SingleQuotedScalarString
from ruamel.yaml.serializer import templated_id

__all__ = ["Unusual", "direct_load"]

_STR, _INT, _BOOL, _NULL, _MERGE = ("tag:yaml.org,2002:" + t for t in ("str", "int", "bool", "null", "merge"))
_QUOTED = {"'": SingleQuotedScalarString, '"': DoubleQuotedScalarString, "|": LiteralScalarString}
_LC = LineCol.attrib


class Unusual(Exception):
    """This file holds something only ruamel's own composer and constructor build faithfully."""


def _plain_int(value: str) -> bool:
    """A decimal without sign, leading zero or underscore: ruamel gives a plain `int` for it."""
    return value.isdigit() and value.isascii() and value[0] != "0"


class _Builder:
    def __init__(self, get: Any, events: Any, resolver: Any, constructor: Any, max_depth: int):
        self.get, self.resolver, self.constructor, self.max_depth = get, resolver, constructor, max_depth
        self.scalar_ev, self.map_ev, self.seq_ev = events.ScalarEvent, events.MappingStartEvent, events.SequenceStartEvent
        self.map_end, self.seq_end = events.MappingEndEvent, events.SequenceEndEvent
        self.tags: dict[tuple, str] = {}  # (value, implicit) -> resolved tag name
        self.anchors: dict[str, Any] = {}  # anchor -> its value (None while it is being built)
        self.marks: dict[str, tuple[int, int]] = {}  # anchor -> where its value starts (an alias's place too)
        self.alias_ev = events.AliasEvent
        # ruamel's implicit resolvers by a plain value's first character (as `resolve` picks them);
        # None where its resolver is configured beyond that (then `resolve` itself is asked)
        table = resolver.versioned_resolver
        self.by_first = None if None in table or resolver.yaml_path_resolvers else table

    def scalar(self, e: Any) -> Any:
        value, style = e.value, e.style
        if e.tag is not None or not value and not style:
            raise Unusual
        if e.anchor is not None:  # an anchored scalar is a ruamel type that keeps its anchor
            return self.ruamel(e)
        if style:
            cls = _QUOTED.get(style)
            if cls is not None:  # preserve_quotes: quoted and `|` texts keep their style
                return cls(value)
            return self.ruamel(e)
        tag = self.tag(value, e.implicit)
        if tag == _STR:
            return value
        if tag == _INT and _plain_int(value):
            return int(value)
        if tag == _BOOL:
            return value.lower() == "true"
        if tag == _NULL:
            return None
        if tag == _MERGE or not tag.startswith("tag:yaml.org,2002:"):
            raise Unusual
        return self.ruamel(e)

    def tag(self, value: str, implicit: tuple) -> str:
        """The tag ruamel's resolver gives a scalar, without its per-call version lookup."""
        if implicit[0] and self.by_first is not None:
            for tag, regexp in self.by_first.get(value[0], ()):
                if regexp.match(value):
                    return tag
            return _STR
        key = (value, implicit)
        tag = self.tags.get(key)
        if tag is None:
            tag = self.tags[key] = self.resolver.resolve(rt_nodes.ScalarNode, value, implicit).value
        return tag

    def ruamel(self, e: Any) -> Any:
        """One scalar built by ruamel's own constructor (its number and date forms)."""
        m = e.start_mark
        start = StreamMark(None, m.index, m.line, m.column)
        m = e.end_mark
        node = rt_nodes.ScalarNode(self.resolver.resolve(rt_nodes.ScalarNode, e.value, e.implicit), e.value, start,
                                   StreamMark(None, m.index, m.line, m.column), style=e.style or None,
                                   anchor=e.anchor)
        value = self.constructor.construct_object(node, deep=True)
        if e.anchor is not None:
            self.anchors[e.anchor] = value
        return value

    def value(self, e: Any, depth: int) -> Any:
        if depth > self.max_depth:
            raise Unusual  # ruamel words the limit
        cls = e.__class__
        if cls is self.scalar_ev:
            return self.scalar(e)
        if cls is self.alias_ev:
            value = self.anchors.get(e.anchor)
            if value is None:
                raise Unusual  # undefined, or inside its own anchor: ruamel words (or reads) it
            return value
        if e.tag is not None:
            raise Unusual
        mark = e.start_mark
        lc = LineCol()
        lc.line, lc.col = mark.line, mark.column
        get = self.get
        if cls is self.map_ev:
            data = CommentedMap()
            setattr(data, _LC, lc)
            self.anchor(e, data)
            end, scalar_ev = self.map_end, self.scalar_ev
            where: dict = {}
            merge = None
            while True:
                k = get()
                if k.__class__ is end:
                    break
                if k.__class__ is not scalar_ev:
                    raise Unusual  # a list or mapping as a key
                if k.value == "<<" and not k.style and self.tag(k.value, k.implicit) == _MERGE:
                    if merge is not None or k.anchor is not None:
                        raise Unusual  # a second `<<`: ruamel words it
                    merge = self.merged(get(), depth + 1, len(where))
                    continue
                key = self.scalar(k)
                if key in data:
                    raise Unusual  # ruamel words the duplicate key
                v = get()
                km = k.start_mark
                where[key] = [km.line, km.column, *self.place(v)]
                data[key] = self.value(v, depth + 1)
            if where:
                lc.data = where
            if merge is not None:  # after the own keys, as ruamel's `construct_mapping` does
                data.add_yaml_merge(merge)
        elif cls is self.seq_ev:
            items: list = []
            where = {}
            if e.anchor is not None:
                self.anchors[e.anchor] = None  # an alias to it inside it: Unusual
                # (the items go in at the end, so an anchored list is not shareable before then)
            end = self.seq_end
            while True:
                v = get()
                if v.__class__ is end:
                    break
                where[len(items)] = list(self.place(v))
                items.append(self.value(v, depth + 1))
            data = CommentedSeq(items)
            setattr(data, _LC, lc)
            self.anchor(e, data)
            if where:
                lc.data = where
        else:
            raise Unusual  # no other event starts a value
        if e.anchor is not None:
            self.anchors[e.anchor] = data
        if len(data):
            if e.flow_style is True:
                data.fa.set_flow_style()
            elif e.flow_style is False:
                data.fa.set_block_style()
        return data


    def place(self, e: Any) -> tuple[int, int]:
        """Where a value starts, as ruamel records it: an alias shares its anchored value's node."""
        if e.__class__ is self.alias_ev:
            at = self.marks.get(e.anchor)
            if at is None:
                raise Unusual
            return at
        m = e.start_mark
        if e.anchor is not None:
            self.marks[e.anchor] = (m.line, m.column)
        return m.line, m.column

    def anchor(self, e: Any, data: Any) -> None:
        """ruamel keeps a collection's anchor name (not its own generated `id001` ones)."""
        if e.anchor is not None:
            self.anchors[e.anchor] = None  # being built: an alias to it inside it is Unusual
            if not templated_id(e.anchor):
                data.yaml_set_anchor(e.anchor)

    def merged(self, e: Any, depth: int, position: int) -> MergeValue:
        """The mappings a `<<` key merges in (one, or a list of them), as ruamel's `flatten_mapping`."""
        value = self.value(e, depth)
        merge = MergeValue()
        merge.merge_pos = position
        if isinstance(value, CommentedMap):
            merge.append(value)
        elif isinstance(value, CommentedSeq) and all(isinstance(m, CommentedMap) for m in value):
            merge.set_sequence(value)
            for m in value:
                merge.append(m)
        else:
            raise Unusual  # ruamel words what cannot be merged
        return merge


def direct_load(text: str, parser: Any, events: Any, resolver: Any, constructor: Any, max_depth: int) -> Any:
    """The document of `text` as ruamel's round-trip loader gives it; `Unusual` when this pass
    cannot tell (the caller then composes the file the longer way). `parser`: libyaml's CParser;
    `events`: PyYAML's event classes; `resolver`/`constructor`: a configured ruamel YAML's."""
    get = parser(text).get_event
    get()  # stream start
    start = get()
    if start.__class__ is not events.DocumentStartEvent or start.version or start.tags:
        raise Unusual
    builder = _Builder(get, events, resolver, constructor, max_depth)
    first = get()
    if first.__class__ is events.DocumentEndEvent:
        raise Unusual  # an empty document
    data = builder.value(first, 1)
    if get().__class__ is not events.DocumentEndEvent or get().__class__ is not events.StreamEndEvent:
        raise Unusual
    return data
