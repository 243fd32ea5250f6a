"""kafka-python 3.0.12 as an independent oracle: its message classes, its schemas, and a converter from our
values to its objects.

kafka-python bundles newer JSON specs than ours (Kafka >= 4.1), so a version is compared only when both
schemas describe the same wire layout there: :func:`layout` projects a schema to what decides the bytes
at one version (fields present, their order, types, nullability, tags, flexibility).
"""

from __future__ import annotations

import importlib
import pkgutil
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rockafka.facade.protocol.codegen.spec import Field, MessageSpec, load_spec
from rockafka.facade.protocol.message import Message, Struct

from .strategies import carried_in, within

with warnings.catch_warnings():  # kafka-python's schema loader uses the deprecated importlib.resources.read_text
    warnings.simplefilter("ignore", DeprecationWarning)
    import kafka.protocol
    import kafka.protocol.old
    from kafka.protocol.api_message import ApiMessage as KafkaPythonMessage
    from kafka.protocol.schemas.fields.codecs.types import BitField

RESOURCES = Path(kafka.protocol.__file__).parent / "schemas" / "resources"
Layout = tuple[Any, ...]


def kafka_python_old_classes() -> dict[tuple[str, int], type]:
    """kafka-python's older hand-written classes (``kafka.protocol.old``), by (message name, version)."""
    found: dict[tuple[str, int], type] = {}
    for info in pkgutil.iter_modules(kafka.protocol.old.__path__):
        module = importlib.import_module(f"kafka.protocol.old.{info.name}")
        for name in dir(module):
            obj = getattr(module, name)
            if isinstance(obj, type) and "_v" in name and hasattr(obj, "SCHEMA") and hasattr(obj, "API_VERSION"):
                found[(name.rsplit("_v", 1)[0], obj.API_VERSION)] = obj
    return found


def to_old_values(value: Struct, version: int, flexible: bool) -> tuple[Any, ...]:
    """Our ``value`` as the positional tuple an old kafka-python class takes (its schema lists the fields in
    wire order, plus a trailing tagged-field dict in flexible versions)."""
    items: list[Any] = []
    for info in type(value).FIELDS:
        if not carried_in(info, version, flexible):
            continue
        item = getattr(value, info.attr)
        if info.struct is not None and item is not None:
            if isinstance(item, list):
                item = [to_old_values(sub, version, flexible) for sub in item]
            else:
                item = to_old_values(item, version, flexible)
        elif isinstance(item, memoryview):
            item = item.tobytes()
        items.append(item)
    if flexible:
        items.append({})
    return tuple(items)


def kafka_python_classes() -> dict[str, type[KafkaPythonMessage]]:
    """kafka-python's request and response classes by name."""
    found: dict[str, type[KafkaPythonMessage]] = {}
    for info in pkgutil.walk_packages(kafka.protocol.__path__, "kafka.protocol."):
        if ".schemas" in info.name or info.name.endswith("generate_stubs"):
            continue
        with warnings.catch_warnings():  # its schema loader uses importlib.resources.read_text
            warnings.simplefilter("ignore", DeprecationWarning)
            module = importlib.import_module(info.name)
        for name in dir(module):
            obj = getattr(module, name)
            if isinstance(obj, type) and issubclass(obj, KafkaPythonMessage) and getattr(obj, "_json", None):
                found[obj.__name__] = obj
    return found


def _range_at(versions: Any, version: int) -> bool:
    return versions is not None and versions.lo <= version <= versions.hi


def _spec_layout(fields: tuple[Field, ...], spec: MessageSpec, version: int, flexible: bool) -> Layout:
    rows = []
    for field in fields:
        tagged = flexible and _range_at(field.tagged, version)
        if not (_range_at(field.versions, version) and (tagged or not _range_at(field.tagged, version))):
            continue
        nested: Layout = ()
        if field.type.is_struct:
            sub = field.fields or next(s.fields for s in spec.common_structs if s.name == field.type.name)
            nested = _spec_layout(sub, spec, version, flexible)
        kind = "struct" if field.type.is_struct else field.type.name
        nullable = _range_at(field.nullable, version)
        rows.append((field.name, kind, field.type.is_array, nullable, field.tag if tagged else None, nested))
    return tuple(rows)


def kafka_python_layout(name: str, version: int) -> Layout:
    """The wire layout of kafka-python's bundled schema ``name`` at ``version``."""
    spec = load_spec(RESOURCES / f"{name}.json")
    flexible = spec.flexible is not None and version >= spec.flexible.lo
    return (flexible, _spec_layout(spec.fields, spec, version, flexible))


def _our_layout(cls: type[Struct], version: int, flexible: bool) -> Layout:
    rows = []
    for info in cls.FIELDS:
        if not carried_in(info, version, flexible):
            continue
        is_array = info.kafka_type.startswith("[]")
        nested = _our_layout(info.struct, version, flexible) if info.struct is not None else ()
        kind = "struct" if info.struct is not None else info.kafka_type.removeprefix("[]")
        tag = info.tag if flexible and within(version, info.tagged) else None
        rows.append((info.kafka_name, kind, is_array, within(version, info.nullable), tag, nested))
    return tuple(rows)


def our_layout(cls: type[Message], version: int) -> Layout:
    flexible = cls.is_flexible(version)
    return (flexible, _our_layout(cls, version, flexible))


def _bits(value: int) -> set[int]:
    value &= 0xFFFFFFFF
    return {bit for bit in range(32) if value >> bit & 1}


def _convert(value: Any, info_struct: type[Struct] | None, kp_field: Any, version: int, flexible: bool) -> Any:
    if value is None:
        return None
    if info_struct is not None:
        data_class = kp_field.data_class
        if isinstance(value, list):
            return [to_kafka_python(item, data_class, version, flexible) for item in value]
        return to_kafka_python(value, data_class, version, flexible)
    if getattr(kp_field, "_type", None) is BitField:
        return _bits(value)
    if isinstance(value, memoryview):
        return value.tobytes()
    return value


def _their_name(kp_class: Any, attr: str) -> str:
    """kafka-python renames the ``*_authorized_operations`` bit fields to ``authorized_operations``."""
    if attr not in kp_class.fields and attr.endswith("_authorized_operations"):
        return "authorized_operations"
    return attr


def to_kafka_python(value: Struct, kp_class: Any, version: int, flexible: bool, top: bool = False) -> Any:
    """Our ``value`` as an instance of kafka-python's ``kp_class`` (tagged fields at their default left out)."""
    defaults = type(value)()
    kwargs: dict[str, Any] = {}
    for info in type(value).FIELDS:
        if not carried_in(info, version, flexible):
            continue
        item = getattr(value, info.attr)
        if within(version, info.tagged) and item == getattr(defaults, info.attr):
            continue
        name = _their_name(kp_class, info.attr)
        kwargs[name] = _convert(item, info.struct, kp_class.fields[name], version, flexible)
    return kp_class(version=version, **kwargs) if top else kp_class(**kwargs)


def matching_versions(ours: type[Message], theirs: type[KafkaPythonMessage]) -> Iterator[tuple[int, bool]]:
    """Every version both support, with whether the two schemas agree on its wire layout."""
    low = max(ours.MIN_VERSION, theirs.valid_versions[0])
    high = min(ours.MAX_VERSION, theirs.valid_versions[1])
    for version in range(low, high + 1):
        yield version, our_layout(ours, version) == kafka_python_layout(ours.__name__, version)
