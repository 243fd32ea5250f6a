"""Field rules, checked for every struct of every message at every version, with deterministic values:

- every field a version carries survives a round trip holding a non-default value;
- a non-ignorable field set to a non-default value in a version that lacks it makes ``encode`` raise,
  an ignorable one is dropped silently (it decodes as its default);
- null where the version forbids it, and unknown tagged fields in a non-flexible version, raise.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest

from rockafka.facade.protocol import EncodeError
from rockafka.facade.protocol.message import FieldInfo, Message, Struct

from .messages_index import all_versions
from .strategies import carried_in, within

CASES = all_versions()
IDS = [f"{cls.__name__}-v{version}" for cls, version in CASES]
UNKNOWN_TAG = 1000  # a two-byte varint tag no spec uses


def _scalar(type_name: str, default: Any) -> Any:
    if type_name == "bool":
        return not default
    if type_name == "float64":
        return 1.5
    if type_name == "uuid":
        return UUID(int=1)
    if type_name in ("bytes", "records"):
        return b"\x01\x02"
    if type_name == "string":
        return "x" if default != "x" else "y"
    return 7 if default != 7 else 8


def non_default(info: FieldInfo, version: int, flexible: bool, default: Any) -> Any:
    if info.struct is None:
        element = _scalar(info.kafka_type.removeprefix("[]"), default)
    else:
        element = full(info.struct, version, flexible)
        if element == info.struct():  # none of its fields exists in this version: make it differ anyway
            element.unknown_tagged_fields = {UNKNOWN_TAG: b"?"}
    return [element] if info.kafka_type.startswith("[]") else element


def full(cls: type[Struct], version: int, flexible: bool) -> Struct:
    """An instance of ``cls`` whose every field carried at ``version`` holds a non-default value."""
    defaults = cls()
    kwargs = {
        info.attr: non_default(info, version, flexible, getattr(defaults, info.attr))
        for info in cls.FIELDS
        if carried_in(info, version, flexible)
    }
    if flexible:
        kwargs["unknown_tagged_fields"] = {UNKNOWN_TAG: b"?"}
    return cls(**kwargs)


def structs_in(value: Struct, version: int, flexible: bool) -> Iterator[Struct]:
    """``value`` and every struct it carries at ``version`` (the first element of each array)."""
    yield value
    for info in type(value).FIELDS:
        if info.struct is None or not carried_in(info, version, flexible):
            continue
        item = getattr(value, info.attr)
        for sub in item[:1] if isinstance(item, list) else [item]:
            if sub is not None:
                yield from structs_in(sub, version, flexible)


@pytest.mark.parametrize(("cls", "version"), CASES, ids=IDS)
def test_every_carried_field_survives_with_a_non_default_value(cls: type[Message], version: int) -> None:
    flexible = cls.is_flexible(version)
    value = full(cls, version, flexible)
    decoded = cls.decode(value.encode(version), version)
    assert decoded == value
    for struct in structs_in(decoded, version, flexible):
        defaults = type(struct)()
        for info in type(struct).FIELDS:
            if carried_in(info, version, flexible):
                assert getattr(struct, info.attr) != getattr(defaults, info.attr), info


@pytest.mark.parametrize(("cls", "version"), CASES, ids=IDS)
def test_fields_a_version_lacks(cls: type[Message], version: int) -> None:
    flexible = cls.is_flexible(version)
    count = len(list(structs_in(full(cls, version, flexible), version, flexible)))
    for index in range(count):
        for info in type(list(structs_in(full(cls, version, flexible), version, flexible))[index]).FIELDS:
            if carried_in(info, version, flexible):
                continue
            value = full(cls, version, flexible)
            target = list(structs_in(value, version, flexible))[index]
            default = getattr(type(target)(), info.attr)
            setattr(target, info.attr, non_default(info, version, flexible, default))
            if info.ignorable:
                decoded = cls.decode(value.encode(version), version)
                assert getattr(list(structs_in(decoded, version, flexible))[index], info.attr) == default
            else:
                with pytest.raises(EncodeError, match=info.attr):
                    value.encode(version)


@pytest.mark.parametrize(("cls", "version"), CASES, ids=IDS)
def test_null_where_the_version_forbids_it(cls: type[Message], version: int) -> None:
    flexible = cls.is_flexible(version)
    count = len(list(structs_in(full(cls, version, flexible), version, flexible)))
    for index in range(count):
        struct_class = type(list(structs_in(full(cls, version, flexible), version, flexible))[index])
        for info in struct_class.FIELDS:
            admits_null = info.nullable is not None or getattr(struct_class(), info.attr) is None
            if not admits_null or not carried_in(info, version, flexible) or within(version, info.nullable):
                continue
            value = full(cls, version, flexible)
            setattr(list(structs_in(value, version, flexible))[index], info.attr, None)
            with pytest.raises(EncodeError):
                value.encode(version)


@pytest.mark.parametrize(("cls", "version"), [case for case in CASES if not case[0].is_flexible(case[1])])
def test_unknown_tagged_fields_need_a_flexible_version(cls: type[Message], version: int) -> None:
    value = full(cls, version, False)
    value.unknown_tagged_fields = {UNKNOWN_TAG: b"?"}
    with pytest.raises(EncodeError, match="tagged fields"):
        value.encode(version)
