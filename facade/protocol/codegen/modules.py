"""Whole generated files: one module per API (or header, or data message), and the package
``__init__.py`` holding the registry ``API_SPECS``. Output depends only on the specs (sorted, no
timestamps), so regenerating unchanged specs changes nothing.
"""

from __future__ import annotations

import re

from .classes import ClassEmitter, Formats
from .plan import ModulePlan
from .spec import MessageSpec

SPEC_COMMIT = "1eb7644349cb07139d6a3c1ad1986979647cac99"

_PRIMITIVES = (
    "Reader",
    "ZERO_UUID",
    "pack_bool",
    "pack_float64",
    "pack_int8",
    "pack_int16",
    "pack_int32",
    "pack_int64",
    "pack_uint16",
    "write_bytes",
    "write_int_array",
    "write_string",
    "write_string_array",
    "write_struct",
    "write_struct_array",
    "write_tagged_fields",
    "write_uuid_array",
    "write_varint",
    "write_varlong",
)
_MESSAGE = ("DEFAULT", "ApiMessage", "FieldInfo", "Message", "Struct", "absent_field", "tags_unsupported")


def header_line(sources: list[str], commit: str) -> str:
    return f"# GENERATED FROM apache/kafka@{commit} {', '.join(sources)} - DO NOT EDIT; make gen-protocol"


def _uses(body: str, name: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(name)}\b", body) is not None


def _doc(plan: ModulePlan) -> str:
    names = " and ".join(spec.name for spec in plan.messages)
    first = plan.messages[0]
    if first.api_key is not None and first.kind in ("request", "response"):
        return f"{api_name(first)} (API key {first.api_key}): {names}, versions {first.valid}."
    return f"{names} ({first.kind}), versions {first.valid}."


def api_name(spec: MessageSpec) -> str:
    return re.sub(r"(Request|Response)$", "", spec.name)


def emit_module(plan: ModulePlan, commit: str = SPEC_COMMIT) -> str:
    """The source of one generated module."""
    formats = Formats()
    classes: list[str] = []
    tables: list[str] = []
    for struct in plan.classes:
        emitter = ClassEmitter(struct, plan, formats)
        classes.extend(["", "", *emitter.lines()])
        tables.extend(emitter.fields_table())
    if tables:
        classes.extend(["", "", *tables])
    body = "\n".join(classes)
    lines = [
        header_line(plan.sources, plan.messages[0].commit or commit),
        f'"""{_doc(plan)}"""',
        "",
        "from __future__ import annotations",
        "",
    ]
    if formats.names:
        lines.append("from struct import Struct as _Struct")
    typing_names = [name for name in ("TYPE_CHECKING", "Self") if name == "Self" or _uses(body, "Buffer")]
    lines.append(f"from typing import {', '.join(typing_names)}")
    if _uses(body, "UUID"):
        lines.append("from uuid import UUID")
    lines.append("")
    message_names = [name for name in _MESSAGE if _uses(body, name)]
    lines.append(f"from ..message import {', '.join(message_names)}")
    primitive_names = [name for name in _PRIMITIVES if _uses(body, name)]
    lines.append(f"from ..primitives import {', '.join(primitive_names)}")
    if _uses(body, "Buffer"):
        lines += ["", "if TYPE_CHECKING:", "    from typing_extensions import Buffer"]
    if formats.names:
        lines.append("")
        lines.extend(f'{name} = _Struct("{fmt}")' for fmt, name in formats.names.items())
    lines.append(body)
    exported = sorted(struct.class_name for struct in plan.classes)
    lines += ["", "", "__all__ = ["]
    lines.extend(f'    "{name}",' for name in exported)
    lines.append("]")
    return "\n".join(lines) + "\n"


def emit_registry(plans: list[ModulePlan], commit: str = SPEC_COMMIT) -> str:
    """The source of ``messages/__init__.py``: imports of every API message and ``API_SPECS``."""
    apis: list[tuple[int, ModulePlan, MessageSpec, MessageSpec]] = []
    for plan in plans:
        kinds = {spec.kind: spec for spec in plan.messages}
        if "request" in kinds and "response" in kinds:
            request, response = kinds["request"], kinds["response"]
            assert request.api_key is not None and request.api_key == response.api_key
            apis.append((request.api_key, plan, request, response))
    apis.sort(key=lambda item: item[0])
    lines = [
        f"# GENERATED FROM apache/kafka@{commit} - DO NOT EDIT; make gen-protocol",
        '"""Every message of the Kafka protocol, one module per API (plus the headers and data messages, imported',
        "by module), and the registry ``API_SPECS``: API key -> :class:`ApiSpec`.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from collections.abc import Mapping",
        "from types import MappingProxyType",
        "from typing import Final",
        "",
        "from ..api import ApiSpec",
        "from ..errors import UnknownApiKeyError",
    ]
    for _key, plan, request, response in sorted(apis, key=lambda item: item[1].name):
        lines.append(f"from .{plan.name} import {request.name}, {response.name}")
    lines += ["", "API_SPECS: Final[Mapping[int, ApiSpec]] = MappingProxyType(", "    {"]
    for key, _plan, request, response in apis:
        lines.append(
            f"        {key}: ApiSpec({key}, {api_name(request)!r}, {request.name}, {response.name}, "
            f"{request.valid.lo}, {request.valid.hi}, {request.flexible_from}, {response.flexible_from}, "
            f"{request.latest_version_unstable}),"
        )
    lines += ["    }", ")", ""]
    lines += [
        "",
        "def api_spec(api_key: int) -> ApiSpec:",
        '    """The spec of ``api_key``; :class:`UnknownApiKeyError` when the protocol has no such API."""',
        "    try:",
        "        return API_SPECS[api_key]",
        "    except KeyError:",
        "        raise UnknownApiKeyError(api_key) from None",
        "",
        "",
        "__all__ = [",
        '    "API_SPECS",',
    ]
    names = sorted([name for _k, _p, rq, rs in apis for name in (rq.name, rs.name)] + ["api_spec"])
    lines.extend(f'    "{name}",' for name in names)
    lines.append("]")
    return "\n".join(lines) + "\n"
