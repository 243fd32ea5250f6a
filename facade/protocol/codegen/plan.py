"""From specs to a plan of Python modules: which classes each module holds, their names, and the range
of message versions in which each struct can appear (so the emitter can drop version checks that can
never fail).

One module per API key (its request and response), and one per header or data message. Struct names
are Kafka's; when the request and the response of one API define different structs under one name,
both classes take their message's name as a prefix (``AlterPartitionRequestTopicData``). Identical
definitions share one class.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from .spec import Field, MessageSpec, SpecError, StructSpec, VersionRange

# Names a generated module imports or defines itself; no class or attribute may take them.
RESERVED_NAMES = frozenset(
    {"DEFAULT", "ApiMessage", "Message", "Struct", "Reader", "UUID", "ZERO_UUID", "Buffer", "ClassVar", "Self"}
    | {"TYPE_CHECKING", "absent_field", "tags_unsupported", "annotations"}
)
RESERVED_ATTRIBUTES = frozenset(
    {"unknown_tagged_fields", "read", "write", "encode", "decode", "check_version", "is_flexible"}
)


def snake_case(name: str) -> str:
    """Kafka's CamelCase field name as a Python attribute (``TopicId`` -> ``topic_id``), kafka-python's rule."""
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
    return f"{snake}_" if keyword.iskeyword(snake) else snake


def module_name(spec: MessageSpec) -> str:
    """``ProduceRequest`` -> ``produce``; headers and data messages keep their whole name."""
    name = spec.name
    if spec.kind in ("request", "response"):
        name = re.sub(r"(Request|Response)$", "", name)
    return snake_case(name)


@dataclass(slots=True)
class StructPlan:
    """One generated class: a top-level message or a struct inside one."""

    class_name: str
    kafka_name: str
    fields: tuple[Field, ...]
    reach: VersionRange  # the message versions in which this struct can be written or read
    flexible_from: int | None
    message: MessageSpec | None = None  # set for the top-level message class
    owners: list[str] = field(default_factory=list)  # messages that use it


@dataclass(slots=True)
class ModulePlan:
    """One generated module."""

    name: str
    messages: list[MessageSpec]
    classes: list[StructPlan]
    # (message name, Kafka struct name) -> class name, to resolve a field's struct type
    resolve: dict[tuple[str, str], str]

    @property
    def sources(self) -> list[str]:
        return [spec.source for spec in self.messages]


@dataclass(slots=True)
class _Occurrence:
    message: MessageSpec
    struct: StructSpec
    reach: VersionRange | None


def struct_of(message: MessageSpec, spec_field: Field) -> StructSpec:
    if spec_field.fields:
        return StructSpec(spec_field.type.name, spec_field.fields)
    for common in message.common_structs:
        if common.name == spec_field.type.name:
            return common
    raise SpecError(f"{message.source}: field {spec_field.name} names unknown struct {spec_field.type.name}")


def _walk(message: MessageSpec, fields: tuple[Field, ...], reach: VersionRange | None) -> Iterator[_Occurrence]:
    for spec_field in fields:
        if not spec_field.type.is_struct:
            continue
        struct = struct_of(message, spec_field)
        sub_reach = spec_field.versions.intersect(reach) if reach is not None else None
        yield _Occurrence(message, struct, sub_reach)
        yield from _walk(message, struct.fields, sub_reach)


def _same(a: StructSpec, b: StructSpec) -> bool:
    return tuple(f.comparable() for f in a.fields) == tuple(f.comparable() for f in b.fields)


def plan_module(name: str, messages: list[MessageSpec]) -> ModulePlan:
    """Plan the classes of one module holding ``messages`` (a request and its response, or one message)."""
    by_name: dict[str, list[_Occurrence]] = {}
    for message in messages:
        for occurrence in _walk(message, message.fields, message.valid):
            by_name.setdefault(occurrence.struct.name, []).append(occurrence)
    message_names = {message.name for message in messages}
    classes: list[StructPlan] = []
    resolve: dict[tuple[str, str], str] = {}
    for message in messages:
        classes.append(
            StructPlan(message.name, message.name, message.fields, message.valid, message.flexible_from, message)
        )
    for kafka_name, occurrences in by_name.items():
        for group in _group_definitions(occurrences):
            prefix = len(group) != len(occurrences)
            class_name = f"{group[0].message.name}{kafka_name}" if prefix else kafka_name
            if class_name in message_names or class_name in RESERVED_NAMES:
                raise SpecError(f"module {name}: struct {kafka_name} collides with a reserved or message name")
            classes.append(_plan_struct(class_name, kafka_name, group))
            for occurrence in group:
                resolve[(occurrence.message.name, kafka_name)] = class_name
    for plan in classes:
        _check_attributes(plan)
    return ModulePlan(name, messages, classes, resolve)


def _group_definitions(occurrences: list[_Occurrence]) -> list[list[_Occurrence]]:
    """Split the occurrences of one struct name into groups that can share a class."""
    groups: list[list[_Occurrence]] = []
    for occurrence in occurrences:
        for group in groups:
            head = group[0]
            if _same(head.struct, occurrence.struct) and (
                head.message.flexible_from == occurrence.message.flexible_from
            ):
                group.append(occurrence)
                break
            if head.message.name == occurrence.message.name:
                raise SpecError(f"{head.message.source}: struct {head.struct.name} is defined twice, differently")
        else:
            groups.append([occurrence])
    return groups


def _plan_struct(class_name: str, kafka_name: str, group: list[_Occurrence]) -> StructPlan:
    reach: VersionRange | None = None
    for occurrence in group:
        if occurrence.reach is not None:
            reach = occurrence.reach if reach is None else reach.hull(occurrence.reach)
    if reach is None:  # never reachable in a valid version: keep every declared version
        reach = group[0].message.valid
    owners = sorted({occurrence.message.name for occurrence in group})
    flexible_from = group[0].message.flexible_from
    return StructPlan(class_name, kafka_name, group[0].struct.fields, reach, flexible_from, None, owners)


def _check_attributes(plan: StructPlan) -> None:
    seen: set[str] = set()
    for spec_field in plan.fields:
        attr = snake_case(spec_field.name)
        if attr in RESERVED_ATTRIBUTES or attr.startswith("_") or attr in seen:
            raise SpecError(f"{plan.class_name}.{spec_field.name}: attribute name {attr!r} is reserved or repeated")
        seen.add(attr)
        if spec_field.tagged is not None and spec_field.tag is None:
            raise SpecError(f"{plan.class_name}.{spec_field.name}: taggedVersions without a tag")
    tags = [f.tag for f in plan.fields if f.tag is not None]
    if len(tags) != len(set(tags)):
        raise SpecError(f"{plan.class_name}: repeated tag")


def plan_modules(specs: list[MessageSpec]) -> list[ModulePlan]:
    """Group every spec into its module (sorted by module name) and plan each."""
    grouped: dict[str, list[MessageSpec]] = {}
    for spec in specs:
        if spec.kind not in ("request", "response", "header", "data"):
            raise SpecError(f"{spec.source}: unknown message type {spec.kind!r}")
        grouped.setdefault(module_name(spec), []).append(spec)
    modules = []
    for name in sorted(grouped):
        members = sorted(grouped[name], key=lambda spec: (spec.kind != "request", spec.name))
        modules.append(plan_module(name, members))
    return modules
