"""Kafka's JSON message specs, read into a small typed model: :class:`MessageSpec`, :class:`Field`,
:class:`FieldType` and :class:`VersionRange`.

The spec files are JSON with ``//`` line comments (outside strings), which :func:`strip_comments`
removes. Version strings are ``"3"``, ``"3-7"``, ``"3+"`` (open-ended) or ``"none"``.
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

OPEN_END: Final[int] = 0x7FFF
PRIMITIVES: Final[frozenset[str]] = frozenset(
    {"int8", "int16", "int32", "int64", "uint16", "varint", "varlong", "float64", "bool", "uuid", "string", "bytes"}
    | {"records"}
)


class SpecError(ValueError):
    """A spec file the generator cannot accept."""


def strip_comments(text: str) -> str:
    """Remove ``//`` comments that are not inside a JSON string."""
    out: list[str] = []
    for line in text.splitlines():
        in_string = False
        escaped = False
        cut = len(line)
        for i, char in enumerate(line):
            if in_string:
                if escaped:
                    escaped = False
                elif char == "\\":
                    escaped = True
                elif char == '"':
                    in_string = False
            elif char == '"':
                in_string = True
            elif char == "/" and line.startswith("//", i):
                cut = i
                break
        out.append(line[:cut])
    return "\n".join(out)


@dataclass(frozen=True, slots=True)
class VersionRange:
    """Versions ``lo`` .. ``hi``, both inclusive (``hi`` is :data:`OPEN_END` for "N+")."""

    lo: int
    hi: int

    @classmethod
    def parse(cls, text: str | None) -> VersionRange | None:
        """Parse a spec version string; ``None`` for "none" or a missing key."""
        if text is None:
            return None
        text = str(text).strip()
        if text == "none" or not text:
            return None
        if match := re.fullmatch(r"(\d+)\+", text):
            return cls(int(match[1]), OPEN_END)
        if match := re.fullmatch(r"(\d+)-(\d+)", text):
            return cls(int(match[1]), int(match[2]))
        if re.fullmatch(r"\d+", text):
            return cls(int(text), int(text))
        raise SpecError(f"bad version range {text!r}")

    def __contains__(self, version: int) -> bool:
        return self.lo <= version <= self.hi

    def intersect(self, other: VersionRange | None) -> VersionRange | None:
        if other is None:
            return None
        lo, hi = max(self.lo, other.lo), min(self.hi, other.hi)
        return VersionRange(lo, hi) if lo <= hi else None

    def hull(self, other: VersionRange) -> VersionRange:
        return VersionRange(min(self.lo, other.lo), max(self.hi, other.hi))

    def covers(self, other: VersionRange) -> bool:
        return self.lo <= other.lo and other.hi <= self.hi

    def __str__(self) -> str:
        if self.hi == OPEN_END:
            return f"{self.lo}+"
        return str(self.lo) if self.lo == self.hi else f"{self.lo}-{self.hi}"


@dataclass(frozen=True, slots=True)
class FieldType:
    """A field's type: a primitive or a struct name, possibly an array of it."""

    name: str
    is_array: bool

    @classmethod
    def parse(cls, text: str) -> FieldType:
        is_array = text.startswith("[]")
        return cls(text[2:] if is_array else text, is_array)

    @property
    def is_struct(self) -> bool:
        return self.name not in PRIMITIVES

    def __str__(self) -> str:
        return f"[]{self.name}" if self.is_array else self.name


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a struct, as the spec declares it."""

    name: str
    type: FieldType
    versions: VersionRange
    nullable: VersionRange | None
    tagged: VersionRange | None
    tag: int | None
    default: str | None
    ignorable: bool
    flexible_override: bool  # the field has its own "flexibleVersions" (only RequestHeader.ClientId: "none")
    flexible: VersionRange | None  # that override, when present
    fields: tuple[Field, ...]  # inline struct fields ("fields" key), else empty

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Field:
        versions = VersionRange.parse(data.get("versions"))
        if versions is None:
            raise SpecError(f"field {data.get('name')!r} has no versions")
        tag = data.get("tag")
        default = data.get("default")
        return cls(
            name=data["name"],
            type=FieldType.parse(data["type"]),
            versions=versions,
            nullable=VersionRange.parse(data.get("nullableVersions")),
            tagged=VersionRange.parse(data.get("taggedVersions")),
            tag=None if tag is None else int(tag),
            default=None if default is None else str(default),
            ignorable=bool(data.get("ignorable", False)),
            flexible_override="flexibleVersions" in data,
            flexible=VersionRange.parse(data.get("flexibleVersions")),
            fields=tuple(cls.from_json(sub) for sub in data.get("fields", ())),
        )

    @property
    def untagged(self) -> VersionRange | None:
        """The versions in which the field is written in line (not as a tagged field)."""
        if self.tagged is None:
            return self.versions
        if self.tagged.hi < self.versions.hi:
            raise SpecError(f"field {self.name}: tagged versions {self.tagged} must run to its last version")
        if self.tagged.lo <= self.versions.lo:
            return None
        return VersionRange(self.versions.lo, self.tagged.lo - 1)

    def nullable_anywhere(self) -> bool:
        return self.nullable is not None and self.nullable.intersect(self.versions) is not None

    def comparable(self) -> tuple[Any, ...]:
        """Everything that decides the wire format and the Python API (the "about" text is left out)."""
        return (
            self.name,
            str(self.type),
            self.versions,
            self.nullable,
            self.tagged,
            self.tag,
            self.default,
            self.ignorable,
            self.flexible_override,
            self.flexible,
            tuple(field.comparable() for field in self.fields),
        )


@dataclass(frozen=True, slots=True)
class StructSpec:
    """A named list of fields: an inline struct or an entry of ``commonStructs``."""

    name: str
    fields: tuple[Field, ...]


@dataclass(frozen=True, slots=True)
class MessageSpec:
    """One spec file: a request, response, header or data message."""

    name: str
    kind: str  # request | response | header | data
    api_key: int | None
    valid: VersionRange
    flexible: VersionRange | None
    latest_version_unstable: bool
    fields: tuple[Field, ...]
    common_structs: tuple[StructSpec, ...]
    source: str  # the file name
    commit: str | None = None  # the apache/kafka commit its file names (``// FROM apache/kafka@<sha>``), if any

    @classmethod
    def from_json(cls, data: dict[str, Any], source: str) -> MessageSpec:
        valid = VersionRange.parse(data.get("validVersions"))
        if valid is None:
            raise SpecError(f"{source}: no validVersions")
        flexible = VersionRange.parse(data.get("flexibleVersions"))
        if flexible is not None and flexible.hi != OPEN_END:
            raise SpecError(f"{source}: flexibleVersions must be open-ended, not {flexible}")
        return cls(
            name=data["name"],
            kind=data["type"],
            api_key=data.get("apiKey"),
            valid=valid,
            flexible=flexible,
            latest_version_unstable=bool(data.get("latestVersionUnstable", False)),
            fields=tuple(Field.from_json(field) for field in data["fields"]),
            common_structs=tuple(
                StructSpec(struct["name"], tuple(Field.from_json(field) for field in struct["fields"]))
                for struct in data.get("commonStructs", ())
            ),
            source=source,
        )

    @property
    def flexible_from(self) -> int | None:
        """The first flexible version, or None when the message has none."""
        if self.flexible is None or self.flexible.intersect(self.valid) is None:
            return None
        return max(self.flexible.lo, self.valid.lo)


_FROM_COMMIT: Final = re.compile(r"^// FROM apache/kafka@([0-9a-f]{40})", re.MULTILINE)


def load_spec(path: Path, source: str | None = None) -> MessageSpec:
    """Read one spec file (``source`` names it in the output; its file name by default)."""
    text = path.read_text(encoding="utf-8")
    try:
        data = json.loads(strip_comments(text))
    except json.JSONDecodeError as exc:
        raise SpecError(f"{path.name}: {exc}") from exc
    spec = MessageSpec.from_json(data, source or path.name)
    found = _FROM_COMMIT.search(text)
    return spec if found is None else dataclasses.replace(spec, commit=found.group(1))


def load_specs(directory: Path, newer: Path | None = None) -> list[MessageSpec]:
    """Every ``*.json`` spec in ``directory``, sorted by file name; a file of the same name in ``newer`` (specs
    of a later Kafka commit than the pinned one, each naming its commit) replaces the pinned one."""
    paths = {path.name: (path, path.name) for path in directory.glob("*.json")}
    if not paths:
        raise SpecError(f"no *.json message specs in {directory}")
    if newer is not None:
        paths.update((p.name, (p, f"{newer.name}/{p.name}")) for p in newer.glob("*.json"))
    return [load_spec(path, source) for _, (path, source) in sorted(paths.items())]
