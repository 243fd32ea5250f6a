"""The Python for one field: its annotation, its default, the expression that reads it and the statement
that writes it. Version conditions arrive as Python expressions ("True", "False" or e.g. "version >= 3").
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Final

from .plan import snake_case
from .spec import OPEN_END, Field, SpecError, VersionRange

# type -> (Reader method, pack function, struct code, Python type)
FIXED: Final[dict[str, tuple[str, str, str, str]]] = {
    "int8": ("int8", "pack_int8", "b", "int"),
    "int16": ("int16", "pack_int16", "h", "int"),
    "int32": ("int32", "pack_int32", "i", "int"),
    "int64": ("int64", "pack_int64", "q", "int"),
    "uint16": ("uint16", "pack_uint16", "H", "int"),
    "float64": ("float64", "pack_float64", "d", "float"),
    "bool": ("boolean", "pack_bool", "?", "bool"),
}
_INT_LIMITS: Final[dict[str, tuple[int, int]]] = {
    "int8": (-(2**7), 2**7 - 1),
    "int16": (-(2**15), 2**15 - 1),
    "int32": (-(2**31), 2**31 - 1),
    "int64": (-(2**63), 2**63 - 1),
    "uint16": (0, 2**16 - 1),
    "varint": (-(2**31), 2**31 - 1),
    "varlong": (-(2**63), 2**63 - 1),
}
_ARRAY_READERS: Final[dict[str, str]] = {"string": "string_array", "uuid": "uuid_array"}
_ARRAY_WRITERS: Final[dict[str, str]] = {"string": "write_string_array", "uuid": "write_uuid_array"}
_VAR_READ: Final[dict[str, str]] = {"varint": "varint", "varlong": "varlong"}
_VAR_WRITE: Final[dict[str, str]] = {"varint": "write_varint", "varlong": "write_varlong"}
_BLOB_READ: Final[dict[str, str]] = {"string": "string", "bytes": "binary", "records": "records"}


def cond(versions: VersionRange | None, domain: VersionRange) -> str:
    """A Python condition on ``version`` that is true exactly for ``versions``, given ``version in domain``."""
    if versions is None:
        return "False"
    inside = versions.intersect(domain)
    if inside is None:
        return "False"
    parts = []
    if inside.lo > domain.lo:
        parts.append(f"version >= {inside.lo}")
    if inside.hi < domain.hi:
        parts.append(f"version <= {inside.hi}")
    return " and ".join(parts) or "True"


def outside(versions: VersionRange, domain: VersionRange) -> str:
    """A Python condition that is true exactly for the versions of ``domain`` outside ``versions``."""
    inside = versions.intersect(domain)
    if inside is None:
        return "True"
    parts = []
    if inside.lo > domain.lo:
        parts.append(f"version < {inside.lo}")
    if inside.hi < domain.hi:
        parts.append(f"version > {inside.hi}")
    return " or ".join(parts) or "False"


@dataclass(frozen=True, slots=True)
class FieldCode:
    """Code fragments for one field of a struct whose versions are ``reach``."""

    spec: Field
    attr: str
    struct_class: str | None  # the class of a struct or struct-array field
    reach: VersionRange
    flexible_from: int | None

    @classmethod
    def of(cls, spec: Field, struct_class: str | None, reach: VersionRange, flexible_from: int | None) -> FieldCode:
        return cls(spec, snake_case(spec.name), struct_class, reach, flexible_from)

    @property
    def type_name(self) -> str:
        return self.spec.type.name

    @property
    def is_fixed(self) -> bool:
        return not self.spec.type.is_array and self.type_name in FIXED

    @property
    def nullable_type(self) -> bool:
        """Whether None is a legal value of the attribute in some version."""
        return self.spec.nullable_anywhere()

    @property
    def mutable_default(self) -> bool:
        return self.spec.type.is_array or (self.spec.type.is_struct and self.spec.default != "null")

    def annotation(self) -> str:
        kind = self.spec.type
        if kind.is_struct:
            base = self.struct_class or kind.name
        elif kind.name in FIXED:
            base = FIXED[kind.name][3]
        else:
            base = {"varint": "int", "varlong": "int", "uuid": "UUID", "string": "str", "bytes": "bytes"}.get(
                kind.name, "Buffer"
            )
        if kind.is_array:
            base = f"list[{base}]"
        return f"{base} | None" if self.nullable_type else base

    def default_value(self) -> str:
        """The spec default as a Python expression (a fresh object for arrays and structs)."""
        raw = self.spec.default
        kind = self.spec.type
        if raw == "null":
            if not self.spec.nullable_anywhere():
                raise SpecError(f"{self.spec.name}: default null on a field that is never nullable")
            return "None"
        if kind.is_array:
            if raw not in (None, ""):
                raise SpecError(f"{self.spec.name}: arrays take no default but null")
            return "[]"
        if kind.is_struct:
            return f"{self.struct_class}()"
        return self._scalar_default(raw)

    def _scalar_default(self, raw: str | None) -> str:
        name = self.type_name
        if name in _INT_LIMITS:
            value = 0 if raw in (None, "") else int(raw, 0)
            low, high = _INT_LIMITS[name]
            if not low <= value <= high:
                raise SpecError(f"{self.spec.name}: default {raw} out of range for {name}")
            return str(value)
        if name == "bool":
            if raw in (None, "") or raw.lower() == "false":
                return "False"
            if raw.lower() == "true":
                return "True"
            raise SpecError(f"{self.spec.name}: bad bool default {raw!r}")
        if name == "float64":
            return repr(float(raw)) if raw not in (None, "") else "0.0"
        if name == "uuid":
            return "ZERO_UUID" if raw in (None, "") else f'UUID("{raw}")'
        if name == "string":
            return json.dumps(raw or "")
        if raw not in (None, ""):
            raise SpecError(f"{self.spec.name}: {name} takes no default but null")
        return "None" if name == "records" and self.nullable_type else 'b""'

    def param_default(self) -> str:
        return "DEFAULT" if self.mutable_default else self.default_value()

    def init_value(self) -> str:
        if self.mutable_default:
            return f"{self.default_value()} if {self.attr} is DEFAULT else {self.attr}"
        return self.attr

    # -- reading and writing ------------------------------------------------------------------------

    def flexible(self, presence: VersionRange) -> str:
        """The expression for "this version is flexible", for this field, within ``presence``."""
        if self.spec.flexible_override:
            return cond(self.spec.flexible, presence)
        if self.flexible_from is None:
            return "False"
        flexible = cond(VersionRange(self.flexible_from, OPEN_END), presence)
        return flexible if flexible in ("True", "False") else "flexible"

    def nullable(self, presence: VersionRange) -> str:
        return cond(self.spec.nullable, presence)

    def read_expr(self, reader: str, presence: VersionRange) -> str:
        """An expression reading the field, for versions within ``presence``."""
        flex = self.flexible(presence)
        null = self.nullable(presence)
        kind = self.spec.type
        if kind.is_array:
            return self._choose(reader, null, *self._array_read(flex))
        if kind.is_struct:
            plain = f"{self.struct_class}.read({reader}, version)"
            nullable = f"{reader}.nullable_struct({self.struct_class}.read, version)"
            return self._pick(null, plain, nullable)
        if self.type_name in FIXED:
            return f"{reader}.{FIXED[self.type_name][0]}()"
        if self.type_name in _VAR_READ:
            return f"{reader}.{_VAR_READ[self.type_name]}()"
        if self.type_name == "uuid":
            return f"{reader}.uuid()"
        method = _BLOB_READ[self.type_name]
        return self._pick(null, f"{reader}.{method}({flex})", f"{reader}.nullable_{method}({flex})")

    def _array_read(self, flex: str) -> tuple[str, str]:
        """(method, arguments) of the Reader call for an array field."""
        element = self.type_name
        if self.spec.type.is_struct:
            return "struct_array", f"{self.struct_class}.read, version, {flex}"
        if element in FIXED and element not in ("bool", "float64"):
            return "int_array", f'"{FIXED[element][2]}", {flex}'
        if element in _ARRAY_READERS:
            return _ARRAY_READERS[element], flex
        raise SpecError(f"{self.spec.name}: arrays of {element} are not supported")

    def _choose(self, reader: str, null: str, method: str, args: str) -> str:
        return self._pick(null, f"{reader}.{method}({args})", f"{reader}.nullable_{method}({args})")

    @staticmethod
    def _pick(null: str, plain: str, nullable: str) -> str:
        if null == "True":
            return nullable
        if null == "False":
            return plain
        return f"({nullable} if {null} else {plain})"

    def write_stmt(self, out: str, value: str, presence: VersionRange) -> str:
        """A statement writing ``value`` to the bytearray ``out``, for versions within ``presence``."""
        flex = self.flexible(presence)
        null = self.nullable(presence)
        tail = "" if null == "False" else f", {null}"
        kind = self.spec.type
        if kind.is_array:
            if kind.is_struct:
                return f"write_struct_array({out}, {value}, version, {flex}{tail})"
            if self.type_name in _ARRAY_WRITERS:
                return f"{_ARRAY_WRITERS[self.type_name]}({out}, {value}, {flex}{tail})"
            return f'write_int_array({out}, "{FIXED[self.type_name][2]}", {value}, {flex}{tail})'
        if kind.is_struct:
            if not self.nullable_type:
                return f"{value}.write({out}, version)"
            return f"write_struct({out}, {value}, version{tail})"
        if self.type_name in FIXED:
            return f"{out} += {FIXED[self.type_name][1]}({value})"
        if self.type_name in _VAR_WRITE:
            return f"{_VAR_WRITE[self.type_name]}({out}, {value})"
        if self.type_name == "uuid":
            return f"{out} += {value}.bytes"
        writer = "write_string" if self.type_name == "string" else "write_bytes"
        return f"{writer}({out}, {value}, {flex}{tail})"
