"""The hot-message codec, generated into ``core_pyx/`` from the same specs as ``messages/``.

The messages every client sends all the time (:data:`HOT`) also get a codec without per-field Python
work: the values are plain named tuples (``_hotmessages.py``), read and written by position by the
compiled kernel ``_hotcodec`` (``.pyx``, ``.pxd``, ``.pyi``) and by its pure-Python twin
(``_hotcodec_py.py``); ``hotcodec.py`` selects the twin. The writer and reader they are made of are the
hand-written ``_wire`` kernel (not per message). Only the versions the broker serves are generated.

Rules of the values: a field is the spec's field in snake case, in the spec's order, with the spec's
default (arrays ``()``, records no buffers, a struct ``None``); a field that a version lacks is ignored when
writing that version; a tagged field is written only when it differs from its default, as Kafka's generated
code does.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from .fieldcode import _INT_LIMITS, cond
from .plan import snake_case, struct_of
from .spec import OPEN_END, Field, MessageSpec, SpecError, VersionRange


@dataclass(frozen=True, slots=True)
class Hot:
    """One hot message: its spec, the direction the broker needs and the versions it serves."""

    spec_name: str
    decode: bool  # a request the broker reads (else a response it writes)
    versions: VersionRange
    constant: str  # the name of the served versions in _hotmessages, for the handler's registration


HOT: Final[tuple[Hot, ...]] = (
    Hot("ProduceRequest", True, VersionRange(0, 11), "PRODUCE_VERSIONS"),
    Hot("ProduceResponse", False, VersionRange(0, 11), "PRODUCE_VERSIONS"),
    Hot("FetchResponse", False, VersionRange(0, 17), "FETCH_VERSIONS"),
    Hot("MetadataResponse", False, VersionRange(0, 12), "METADATA_VERSIONS"),
)

#: The files of ``core_pyx/`` the generator writes (``make check-generated`` compares them too).
HOT_FILES: Final[tuple[str, ...]] = (
    "_hotmessages.py",
    "_hotcodec.pxd",
    "_hotcodec.pyx",
    "_hotcodec.pyi",
    "_hotcodec_py.py",
    "hotcodec.py",
)

#: Attributes a named tuple may not take (``index`` would hide ``tuple.index``), and what they are called instead.
TUPLE_RENAMES: Final[dict[str, str]] = {"index": "partition_index"}

_INTS: Final[dict[str, str]] = {"int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64"}
_KINDS: Final[frozenset[str]] = frozenset({*_INTS, "bool", "string", "uuid", "records"})


def attr_name(spec_field: Field) -> str:
    name = snake_case(spec_field.name)
    name = TUPLE_RENAMES.get(name, name)
    if hasattr(tuple, name) or name.startswith("_"):
        raise SpecError(f"field {spec_field.name}: {name!r} cannot be a named tuple field")
    return name


@dataclass(slots=True)
class HotStruct:
    """One struct of one hot message: its tuple class and the function that reads or writes it."""

    message: MessageSpec
    hot: Hot
    name: str  # the Kafka struct name (the message's name for the top level)
    fields: tuple[Field, ...]
    reach: VersionRange  # the served versions in which it can appear
    class_name: str = ""
    function: str = ""


def _walk(message: MessageSpec, hot: Hot, fields: tuple[Field, ...], reach: VersionRange) -> Iterator[HotStruct]:
    for spec_field in fields:
        if not spec_field.type.is_struct:
            continue
        sub_reach = spec_field.versions.intersect(reach)
        if sub_reach is None:
            continue
        struct = struct_of(message, spec_field)
        yield HotStruct(message, hot, struct.name, struct.fields, sub_reach)
        yield from _walk(message, hot, struct.fields, sub_reach)


def _shape(struct: HotStruct) -> tuple[tuple[str, str], ...]:
    return tuple((attr_name(f), default_value(f, "")) for f in struct.fields)


def plan_hot(specs: list[MessageSpec]) -> list[HotStruct]:
    """Every struct of the hot messages, named: one tuple class per struct name and shape (prefixed by its
    message's name when two messages define different structs under one name)."""
    by_name = {spec.name: spec for spec in specs}
    structs: list[HotStruct] = []
    for hot in HOT:
        message = by_name.get(hot.spec_name)
        if message is None or not message.valid.covers(hot.versions):
            raise SpecError(f"hot message {hot.spec_name} v{hot.versions} is not in the specs")
        top = HotStruct(message, hot, message.name, message.fields, hot.versions)
        structs += [top, *_walk(message, hot, message.fields, hot.versions)]
    shapes: dict[str, set[tuple[tuple[str, str], ...]]] = {}
    for struct in structs:
        shapes.setdefault(struct.name, set()).add(_shape(struct))
    for struct in structs:
        shared = len(shapes[struct.name]) == 1 or struct.name == struct.message.name
        struct.class_name = struct.name if shared else f"{struct.message.name}{struct.name}"
        struct.function = f"{snake_case(struct.message.name)}_{snake_case(struct.name)}"
        for spec_field in struct.fields:
            _check_supported(struct, spec_field)
    return structs


def _check_supported(struct: HotStruct, spec_field: Field) -> None:
    kind = spec_field.type
    if kind.is_array and not kind.is_struct and kind.name not in _INTS:
        raise SpecError(f"{struct.name}.{spec_field.name}: hot arrays of {kind.name} are not supported")
    if not kind.is_array and not kind.is_struct and kind.name not in _KINDS:
        raise SpecError(f"{struct.name}.{spec_field.name}: hot fields of type {kind.name} are not supported")
    if struct.hot.decode and kind.name in ("uuid", "bool"):
        raise SpecError(f"{struct.name}.{spec_field.name}: hot requests with {kind.name} fields are not supported")
    if kind.is_struct and not kind.is_array and spec_field.tagged is None:
        raise SpecError(f"{struct.name}.{spec_field.name}: hot struct fields must be tagged")
    if struct.hot.decode and spec_field.tagged is not None:
        raise SpecError(f"{struct.name}.{spec_field.name}: hot requests with tagged fields are not supported")


def default_value(spec_field: Field, prefix: str) -> str:
    """The field's default as a Python expression of the generated modules."""
    kind = spec_field.type
    raw = spec_field.default
    if kind.is_array:
        return "None" if raw == "null" else "()"
    if kind.is_struct:
        return "None"
    if kind.name == "records":
        return "None" if raw == "null" else "()"
    if raw == "null":
        return "None"
    if kind.name in _INT_LIMITS:
        return str(0 if raw in (None, "") else int(raw, 0))
    if kind.name == "bool":
        return "True" if (raw or "").lower() == "true" else "False"
    if kind.name == "uuid":
        return f"{prefix}ZERO_UUID"
    if kind.name == "string":
        return json.dumps(raw or "")
    raise SpecError(f"{spec_field.name}: no hot default for {kind}")


def python_type(spec_field: Field, classes: dict[str, str], decoded: bool) -> str:
    kind = spec_field.type
    if kind.is_struct:
        base = classes[kind.name]
    else:
        base = {"bool": "bool", "string": "str", "uuid": "uuid.UUID"}.get(kind.name, "int")
    if kind.name == "records":
        return "memoryview | None" if decoded else "Records | None"
    if kind.is_array:
        base = f"Sequence[{base}]"
    nullable = spec_field.nullable_anywhere() or (kind.is_struct and not kind.is_array)
    return f"{base} | None" if nullable else base


def flexible(message: MessageSpec, reach: VersionRange) -> str:
    if message.flexible_from is None:
        return "False"
    return cond(VersionRange(message.flexible_from, OPEN_END), reach)


def has_records(structs: list[HotStruct], message: MessageSpec) -> bool:
    """Whether the message carries records (its encoder then returns parts, big record buffers uncopied)."""
    return any(s.message is message and any(f.type.name == "records" for f in s.fields) for s in structs)


__all__ = [
    "HOT",
    "HOT_FILES",
    "TUPLE_RENAMES",
    "Hot",
    "HotStruct",
    "attr_name",
    "default_value",
    "plan_hot",
    "python_type",
]
