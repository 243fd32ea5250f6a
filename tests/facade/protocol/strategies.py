"""Hypothesis strategies for any generated message at any version, built from the classes' ``FIELDS``.

A drawn value holds only what the version can carry: fields absent from the version keep their
defaults, nulls appear only where the version allows them, and unknown tagged fields only in flexible
versions (on tags the version does not know). So ``decode(encode(v)) == v`` must hold for every draw.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from rockafka.facade.protocol.message import FieldInfo, Message, Struct

INT_BOUNDS = {
    "int8": (-(2**7), 2**7 - 1),
    "int16": (-(2**15), 2**15 - 1),
    "int32": (-(2**31), 2**31 - 1),
    "int64": (-(2**63), 2**63 - 1),
    "uint16": (0, 2**16 - 1),
    "varint": (-(2**31), 2**31 - 1),
    "varlong": (-(2**63), 2**63 - 1),
}


def within(version: int, versions: tuple[int, int] | None) -> bool:
    return versions is not None and versions[0] <= version <= versions[1]


def untagged_in(info: FieldInfo, version: int) -> bool:
    return within(version, info.versions) and not within(version, info.tagged)


def carried_in(info: FieldInfo, version: int, flexible: bool) -> bool:
    """Whether a value of the field reaches the wire at ``version``."""
    return untagged_in(info, version) or (flexible and within(version, info.tagged))


def _scalar(type_name: str) -> st.SearchStrategy[Any]:
    if type_name in INT_BOUNDS:
        return st.integers(*INT_BOUNDS[type_name])
    strategies: dict[str, st.SearchStrategy[Any]] = {
        "float64": st.floats(allow_nan=False),
        "bool": st.booleans(),
        "uuid": st.uuids(),
        "string": st.text(max_size=8),
        "bytes": st.binary(max_size=8),
        "records": st.binary(max_size=24),
    }
    return strategies[type_name]


def field_values(
    info: FieldInfo, version: int, flexible: bool, depth: int, unknown_tags: bool
) -> st.SearchStrategy[Any]:
    """Values of one field that survive a round trip at ``version``."""
    is_array = info.kafka_type.startswith("[]")
    base = info.kafka_type[2:] if is_array else info.kafka_type
    if info.struct is not None:
        element: st.SearchStrategy[Any] = struct_values(info.struct, version, flexible, depth + 1, unknown_tags)
    else:
        element = _scalar(base)
    values = st.lists(element, max_size=3 if depth < 2 else 1) if is_array else element
    if within(version, info.nullable):
        values = st.none() | values
    return values


def struct_values(
    cls: type[Struct], version: int, flexible: bool, depth: int = 0, unknown_tags: bool = True
) -> st.SearchStrategy[Struct]:
    """Instances of ``cls`` (a struct of a message at ``version``) holding only what the version carries."""
    kwargs: dict[str, st.SearchStrategy[Any]] = {
        info.attr: field_values(info, version, flexible, depth, unknown_tags)
        for info in cls.FIELDS
        if carried_in(info, version, flexible)
    }
    if flexible and unknown_tags:
        known = {info.tag for info in cls.FIELDS if within(version, info.tagged)}
        tags = st.integers(0, 300).filter(lambda tag: tag not in known)
        kwargs["unknown_tagged_fields"] = st.dictionaries(tags, st.binary(max_size=6), max_size=2)
    return st.builds(cls, **kwargs)


def message_values(cls: type[Message], version: int, unknown_tags: bool = True) -> st.SearchStrategy[Struct]:
    """Instances of a top-level message that round-trip at ``version``."""
    return struct_values(cls, version, cls.is_flexible(version), 0, unknown_tags)
