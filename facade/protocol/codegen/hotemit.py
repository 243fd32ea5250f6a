"""The files of the hot-message codec (planned by :mod:`.hot`): ``_hotmessages.py`` (the named tuples),
``_hotcodec.pyx`` with its ``.pxd`` and ``.pyi`` (the compiled kernel), ``_hotcodec_py.py`` (its pure twin)
and ``hotcodec.py`` (the selector). Both twins come from one walk over the fields (:class:`_Body`), so they
cannot disagree on the layout; they differ only in how a value is declared and a sub-writer made.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .fieldcode import cond
from .hot import HOT, HotStruct, attr_name, default_value, flexible, has_records, python_type
from .plan import snake_case
from .spec import Field, MessageSpec, VersionRange

_INTS = {"int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64"}


def _header(sources: list[str], commit: str) -> str:
    return f"# GENERATED FROM apache/kafka@{commit} {', '.join(sources)} - DO NOT EDIT; make gen-protocol"


def _sources(structs: list[HotStruct]) -> list[str]:
    return sorted({s.message.source for s in structs})


def _classes(structs: list[HotStruct], message: MessageSpec) -> dict[str, str]:
    return {s.name: s.class_name for s in structs if s.message is message}


def _struct_for(structs: list[HotStruct], message: MessageSpec, name: str) -> HotStruct:
    return next(s for s in structs if s.message is message and s.name == name)


def _top(structs: list[HotStruct]) -> list[HotStruct]:
    return [s for s in structs if s.name == s.message.name]


def _api(top: HotStruct, parts: bool) -> str:
    verb = "decode" if top.hot.decode else "encode"
    return f"{verb}_{snake_case(top.message.name)}{'_parts' if parts and not top.hot.decode else ''}"


# --- _hotmessages.py ----------------------------------------------------------------------------------------


def emit_messages(structs: list[HotStruct], commit: str) -> str:
    lines = [
        _header(_sources(structs), commit),
        '"""The values of the hot-message codec (``hotcodec``): plain named tuples, shared by both twins.',
        "",
        "Each is a struct of Kafka's JSON specs, field for field: the spec's names in snake case (Produce's ``Index``",
        "is ``partition_index``: ``index`` would hide ``tuple.index``), in the spec's order, with the spec's defaults",
        "(arrays ``()``, records no buffers, a tagged struct ``None``). A field that a version lacks is ignored when",
        "writing that version; a tagged field is written only when it differs from its default. Sequences may be",
        "lists or tuples; records are one buffer or several written back to back. The compiled kernel reads the",
        "tuples by position: pass these types.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "import uuid",
        "from collections.abc import Sequence",
        "from typing import TYPE_CHECKING, Final, NamedTuple, TypeAlias",
        "",
        "if TYPE_CHECKING:",
        "    from typing_extensions import Buffer",
        "",
        "ZERO_UUID: Final = uuid.UUID(int=0)",
        'Records: TypeAlias = "Buffer | Sequence[Buffer]"',
        "",
    ]
    seen_constants: set[str] = set()
    for hot in HOT:
        if hot.constant not in seen_constants:
            seen_constants.add(hot.constant)
            lines.append(f"{hot.constant}: Final = ({hot.versions.lo}, {hot.versions.hi})")
    for struct in _unique(structs):
        classes = _classes(structs, struct.message)
        where = "" if struct.name == struct.message.name else f" of {struct.message.name}"
        lines += ["", "", f"class {struct.class_name}(NamedTuple):", f'    """{struct.name}{where}."""', ""]
        for spec_field in struct.fields:
            annotation = python_type(spec_field, classes, struct.hot.decode)
            tag = f"  # tagged ({spec_field.tag})" if spec_field.tagged is not None else ""
            default = default_value(spec_field, "")
            if struct.hot.decode and spec_field.type.name == "records":
                default = "None"  # decoded: a view of the body, or None
            lines.append(f"    {attr_name(spec_field)}: {annotation} = {default}{tag}")
    names = sorted({s.class_name for s in structs} | seen_constants | {"ZERO_UUID", "Records"})
    lines += ["", "", "__all__ = [", *[f'    "{name}",' for name in names], "]"]
    return "\n".join(lines) + "\n"


def _unique(structs: list[HotStruct]) -> list[HotStruct]:
    seen: set[str] = set()
    out = []
    for struct in structs:
        if struct.class_name not in seen:
            seen.add(struct.class_name)
            out.append(struct)
    return out


# --- the bodies, for both twins -----------------------------------------------------------------------------


@dataclass(slots=True)
class _Body:
    """The statements of one struct's writer or reader; ``compiled`` picks the Cython spelling."""

    struct: HotStruct
    structs: list[HotStruct]
    compiled: bool
    lines: list[str] = field(default_factory=list)
    depth: int = 1
    loops: int = 0
    flags: list[str] = field(default_factory=list)  # the tag flags of a writer (bint in the compiled twin)

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    def sub(self, spec_field: Field) -> HotStruct:
        return _struct_for(self.structs, self.struct.message, spec_field.type.name)

    # -- writing --------------------------------------------------------------------------------------

    def write(self) -> list[str]:
        reach = self.struct.reach
        tagged = []
        for index, spec_field in enumerate(self.struct.fields):
            if spec_field.tagged is not None:
                tagged.append((index, spec_field))
            untagged = spec_field.untagged
            present = "False" if untagged is None else cond(untagged, reach)
            if present == "False":
                continue
            presence = untagged.intersect(reach) if untagged is not None else None
            assert presence is not None
            self._when(
                present,
                lambda spec_field=spec_field, index=index, presence=presence: self._write_value(
                    "w", spec_field, index, presence
                ),
            )
        self._write_tags(tagged)
        return self.lines

    def _when(self, condition: str, body: object) -> None:
        if condition != "True":
            self.emit(f"if {condition}:")
            self.depth += 1
        body()  # type: ignore[operator]
        if condition != "True":
            self.depth -= 1

    def _write_value(self, writer: str, spec_field: Field, index: int, presence: VersionRange) -> None:
        value = f"v[{index}]"
        kind = spec_field.type
        null = cond(spec_field.nullable, presence) if spec_field.nullable else "False"
        if kind.is_array:
            self.emit(f"{writer}.array({value})")
            item = f"item{self.loops}"
            self.loops += 1
            loop = f"for {item} in {value}:"
            if spec_field.nullable_anywhere():
                self.emit(f"if {value} is not None:")
                self.depth += 1
            self.emit(loop)
            self.depth += 1
            if kind.is_struct:
                self.emit(f"_w_{self.sub(spec_field).function}({writer}, {item}, version)")
            else:
                self.emit(f"{writer}.{_INTS[kind.name]}({item})")
            self.depth -= 2 if spec_field.nullable_anywhere() else 1
        elif kind.is_struct:
            self.emit(f"_w_{self.sub(spec_field).function}({writer}, {value}, version)")
        elif kind.name in _INTS:
            self.emit(f"{writer}.{_INTS[kind.name]}({value})")
        elif kind.name == "bool":
            self.emit(f"{writer}.i8(1 if {value} else 0)")
        elif kind.name == "string":
            self.emit(f"{writer}.string({value}, {null})")
        elif kind.name == "uuid":
            self.emit(f"{writer}.uuid({value})")
        else:
            self.emit(f"{writer}.records({value})")

    def _differs(self, spec_field: Field, index: int) -> str:
        value = f"v[{index}]"
        if spec_field.type.is_array:
            return f"{value} is not None and len({value}) != 0"
        if spec_field.type.is_struct:
            return f"{value} is not None and {value} != _DEFAULT_{self.sub(spec_field).class_name}"
        return f"{value} != {default_value(spec_field, '_')}"

    def _write_tags(self, tagged: list[tuple[int, Field]]) -> None:
        flex = flexible(self.struct.message, self.struct.reach)
        if flex == "False":
            return
        first = self.struct.message.flexible_from
        assert first is not None
        domain = VersionRange(max(first, self.struct.reach.lo), self.struct.reach.hi)
        present = []
        for index, spec_field in sorted(tagged, key=lambda item: item[1].tag or 0):
            assert spec_field.tagged is not None
            when = cond(spec_field.tagged, domain)
            if when != "False":
                presence = spec_field.tagged.intersect(domain)
                assert presence is not None
                present.append((index, spec_field, when, presence))

        def tags() -> None:
            flags = []
            for index, spec_field, when, _presence in present:
                flag = f"tag{spec_field.tag}"
                self.flags.append(flag)
                test = self._differs(spec_field, index)
                self.emit(f"{flag} = {test}" if when == "True" else f"{flag} = ({when}) and {test}")
                flags.append(flag)
            self.emit(f"w.uvarint({' + '.join(flags) or '0'})")
            for index, spec_field, _when, presence in present:
                self.emit(f"if tag{spec_field.tag}:")
                self.depth += 1
                self.emit(f"sub = {'Out' if self.compiled else 'Writer'}(True)")
                if spec_field.type.is_struct and not spec_field.type.is_array and not self.compiled:
                    # the pure twin's type checker: the tag's flag said it is not None
                    self.emit(f"value{spec_field.tag} = v[{index}]")
                    self.emit(f"assert value{spec_field.tag} is not None")
                    self.emit(f"_w_{self.sub(spec_field).function}(sub, value{spec_field.tag}, version)")
                else:
                    self._write_value("sub", spec_field, index, presence)
                self.emit(f"w.tagged({spec_field.tag}, sub)")
                self.depth -= 1

        self._when(flex, tags)

    # -- reading --------------------------------------------------------------------------------------

    def read(self) -> list[str]:
        reach = self.struct.reach
        names = []
        for index, spec_field in enumerate(self.struct.fields):
            name = f"f{index}"
            names.append(name)
            present = cond(spec_field.versions, reach)
            default = default_value(spec_field, "_")
            if present == "False":
                self.emit(f"{name} = {default}")
                continue
            if present != "True":
                self.emit(f"if {present}:")
                self.depth += 1
            self._read_value(name, spec_field)
            if present != "True":
                self.depth -= 1
                self.emit("else:")
                self.emit(f"    {name} = {default}")
        self.emit("rk_skip_tags(r)" if self.compiled else "r.skip_tags()")
        values = ", ".join(names) + ("," if len(names) == 1 else "")
        if self.compiled:
            self.emit(f"return _tuple_new(_{self.struct.class_name}, ({values}))")
        else:
            self.emit(f"return {self.struct.class_name}._make(({values}))")
        return self.lines

    def _read_value(self, name: str, spec_field: Field) -> None:
        kind = spec_field.type
        null = cond(spec_field.nullable, self.struct.reach) if spec_field.nullable else "False"
        c = self.compiled
        if kind.is_array:
            self.emit(f"count = rk_array(r, {null})" if c else f"count = r.array({null})")
            item = f"_r_{self.sub(spec_field).function}(r, view, version)" if kind.is_struct else None
            if item is None:
                item = f"rk_{_INTS[kind.name]}(r)" if c else f"r.{_INTS[kind.name]}()"
            elif not c:
                item = f"_r_{self.sub(spec_field).function}(r, version)"
            self.emit(f"{name} = None if count < 0 else [{item} for _ in range(count)]")
        elif kind.name in _INTS:
            self.emit(f"{name} = rk_{_INTS[kind.name]}(r)" if c else f"{name} = r.{_INTS[kind.name]}()")
        elif kind.name == "string":
            self.emit(f"{name} = rk_string(r, {null})" if c else f"{name} = r.string({null})")
        else:
            self.emit(f"{name} = rk_records(r, view, {null})" if c else f"{name} = r.records({null})")


# --- _hotcodec.pyx and .pxd ---------------------------------------------------------------------------------


def _signature(struct: HotStruct) -> str:
    if struct.hot.decode:
        return f"cdef object _r_{struct.function}(Cursor *r, object view, int version)"
    return f"cdef int _w_{struct.function}(Out w, object value, int version) except -1"


def emit_pxd(structs: list[HotStruct], commit: str) -> str:
    lines = [
        _header(_sources(structs), commit),
        "# C-level API of the generated hot-message kernel: one reader or writer per struct (values: _hotmessages).",
        "from rockafka.core_pyx._wire cimport Cursor, Out",
        "",
    ]
    lines += [_signature(struct) for struct in structs]
    return "\n".join(lines) + "\n"


def emit_pyx(structs: list[HotStruct], commit: str) -> str:
    classes = sorted({s.class_name for s in structs})
    lines = [
        _header(_sources(structs), commit),
        "# cython: language_level=3",
        '"""Compiled hot-message kernel, generated: the readers and writers of the hot messages\' structs.',
        "",
        "Wire rules and errors: ``_wire_py``; the values: ``_hotmessages``; the twin: ``_hotcodec_py``.",
        '"""',
        "",
        "from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer",
        "",
        "from rockafka.core_pyx._wire cimport (",
        "    rk_array, rk_check_version, rk_fields, rk_i8, rk_i16, rk_i32, rk_i64, rk_records, rk_skip_tags,",
        "    rk_string,",
        ")",
        "from rockafka.core_pyx._hotmessages import (",
        *[f"    {name}," for name in classes],
        ")",
        "from rockafka.core_pyx.errors import MalformedMessageError",
        "",
        "# Cursor, Out and the declarations of the functions below come from _hotcodec.pxd, included automatically.",
        "",
        "cdef object _tuple_new = tuple.__new__",
    ]
    lines += [f"cdef object _{name} = {name}" for name in classes]
    lines += _defaults(structs)
    for struct in structs:
        body = _Body(struct, structs, compiled=True)
        lines += ["", ""]
        if struct.hot.decode:
            lines += [f"{_signature(struct)}:", "    cdef Py_ssize_t count", *body.read()]
        else:
            size = len(struct.fields)
            written = body.write()
            declare = ["    cdef Out sub"] if body.flags else []
            declare += [f"    cdef bint {', '.join(body.flags)}"] if body.flags else []
            lines += [
                f"{_signature(struct)}:",
                *declare,
                f'    cdef tuple v = rk_fields(value, {size}, "{struct.class_name}")',
                *written,
                "    return 0",
            ]
    for top in _top(structs):
        lines += ["", "", *_api_compiled(top, structs)]
    return "\n".join(lines) + "\n"


def _defaults(structs: list[HotStruct]) -> list[str]:
    """The default of every tagged struct, for the "differs from its default" test."""
    names = sorted(
        {
            _struct_for(structs, s.message, f.type.name).class_name
            for s in structs
            for f in s.fields
            if f.tagged is not None and f.type.is_struct and not f.type.is_array
        }
    )
    return [f"_DEFAULT_{name} = {name}()" for name in names]


def _doc(top: HotStruct, parts: bool) -> str:
    versions = f"v{top.hot.versions.lo}-{top.hot.versions.hi}"
    if top.hot.decode:
        return f"Decode a {top.message.name} body ({versions}); records are zero-copy views of ``body``."
    if parts:
        return (
            f"Encode a {top.message.name} ({versions}) as parts to write back to back: the body, or with "
            "``correlation_id`` the whole frame; record buffers of ``min_zero_copy`` bytes or more are parts of "
            "their own, uncopied, the rest is copied into ``bytes`` parts between them."
        )
    return f"Encode a {top.message.name} ({versions}): the body, or with ``correlation_id`` the whole frame."


def _api_compiled(top: HotStruct, structs: list[HotStruct]) -> list[str]:
    lo, hi = top.hot.versions.lo, top.hot.versions.hi
    flex = flexible(top.message, top.hot.versions)
    check = f'    rk_check_version("{top.message.name}", version, {lo}, {hi})'
    if top.hot.decode:
        return [
            f"def {_api(top, False)}(body, int version):",
            f'    """{_doc(top, False)}"""',
            check,
            "    view = memoryview(body)",
            '    if view.ndim != 1 or view.format != "B":',
            '        view = view.cast("B")',
            "    cdef Py_buffer buf",
            "    cdef Cursor r",
            "    PyObject_GetBuffer(view, &buf, PyBUF_SIMPLE)",
            "    try:",
            "        r.data = <const unsigned char *>buf.buf",
            "        r.pos = 0",
            "        r.end = buf.len",
            f"        r.flexible = {flex}",
            f"        value = _r_{top.function}(&r, view, version)",
            "        if r.pos != r.end:",
            f'            raise MalformedMessageError(f"{top.message.name} has {{r.end - r.pos}} trailing bytes")',
            "    finally:",
            "        PyBuffer_Release(&buf)",
            "    return value",
        ]
    parts = has_records(structs, top.message)
    head = f"def {_api(top, parts)}(int version, response, correlation_id=None"
    head += ", Py_ssize_t min_zero_copy=0):" if parts else "):"
    return [
        head,
        f'    """{_doc(top, parts)}"""',
        check,
        f"    cdef Out w = Out({flex}, correlation_id, {flex})",
        f"    _w_{top.function}(w, response, version)",
        "    return w.finish_parts(min_zero_copy)" if parts else "    return w.finish()",
    ]


# --- _hotcodec_py.py ----------------------------------------------------------------------------------------


def emit_py(structs: list[HotStruct], commit: str) -> str:
    classes = sorted({s.class_name for s in structs})
    lines = [
        _header(_sources(structs), commit),
        '"""Pure-Python twin of the generated hot-message kernel (``_hotcodec``): the same functions, the same bytes.',
        "",
        "Wire rules and errors: ``_wire_py``; the values: ``_hotmessages``.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import TYPE_CHECKING",
        "",
        "from ._hotmessages import (",
        *[f"    {name}," for name in classes],
        ")",
        "from ._wire_py import Reader, Writer, check_version",
        "from .errors import MalformedMessageError",
        "",
        "if TYPE_CHECKING:",
        "    from typing_extensions import Buffer",
        "",
        "__all__ = [" + ", ".join(f'"{_api(t, has_records(structs, t.message))}"' for t in _top(structs)) + "]",
        "",
    ]
    lines += _defaults(structs)
    for struct in structs:
        body = _Body(struct, structs, compiled=False)
        lines += ["", ""]
        if struct.hot.decode:
            lines += [f"def _r_{struct.function}(r: Reader, version: int) -> {struct.class_name}:", *body.read()]
        else:
            lines += [f"def _w_{struct.function}(w: Writer, v: {struct.class_name}, version: int) -> None:"]
            lines += body.write() or ["    pass"]
    for top in _top(structs):
        lines += ["", "", *_api_pure(top, structs)]
    return "\n".join(lines) + "\n"


def _api_pure(top: HotStruct, structs: list[HotStruct]) -> list[str]:
    lo, hi = top.hot.versions.lo, top.hot.versions.hi
    flex = flexible(top.message, top.hot.versions)
    check = f'    check_version("{top.message.name}", version, {lo}, {hi})'
    if top.hot.decode:
        return [
            f"def {_api(top, False)}(body: Buffer, version: int) -> {top.class_name}:",
            f'    """{_doc(top, False)}"""',
            check,
            f"    r = Reader(body, {flex})",
            f"    value = _r_{top.function}(r, version)",
            "    if r.pos != len(r.view):",
            f'        raise MalformedMessageError(f"{top.message.name} has {{len(r.view) - r.pos}} trailing bytes")',
            "    return value",
        ]
    parts = has_records(structs, top.message)
    name = _api(top, parts)
    if parts:
        head = (
            f"def {name}(\n    version: int, response: {top.class_name}, correlation_id: int | None = None, "
            "min_zero_copy: int = 0\n) -> list[bytes | memoryview]:"
        )
    else:
        head = f"def {name}(version: int, response: {top.class_name}, correlation_id: int | None = None) -> bytes:"
    return [
        head,
        f'    """{_doc(top, parts)}"""',
        check,
        f"    w = Writer({flex}, correlation_id, {flex})",
        f"    _w_{top.function}(w, response, version)",
        "    return w.finish_parts(min_zero_copy)" if parts else "    return w.finish()",
    ]


# --- _hotcodec.pyi and hotcodec.py --------------------------------------------------------------------------


def emit_pyi(structs: list[HotStruct], commit: str) -> str:
    lines = [
        _header(_sources(structs), commit),
        "from typing_extensions import Buffer",
        "",
        "from ._hotmessages import " + ", ".join(t.class_name for t in _top(structs)),
        "",
    ]
    for top in _top(structs):
        parts = has_records(structs, top.message)
        name = _api(top, parts)
        if top.hot.decode:
            lines.append(f"def {name}(body: Buffer, version: int) -> {top.class_name}: ...")
        elif parts:
            lines.append(
                f"def {name}(\n    version: int, response: {top.class_name}, correlation_id: int | None = None, "
                "min_zero_copy: int = 0\n) -> list[bytes | memoryview]: ..."
            )
        else:
            lines.append(
                f"def {name}(version: int, response: {top.class_name}, correlation_id: int | None = None) -> bytes: ..."
            )
    return "\n".join(lines) + "\n"


def emit_selector(structs: list[HotStruct], commit: str, message_names: list[str]) -> str:
    functions = [_api(t, has_records(structs, t.message)) for t in _top(structs)]
    lines = [
        _header(_sources(structs), commit),
        '"""The hot-message codec: the messages every client sends all the time, without per-field Python work.',
        "",
        "Generated from the specs with the rest of the codec (``make gen-protocol``; the plan:",
        "``rockafka.facade.protocol.codegen.hot``). Functions: the compiled ``_hotcodec`` or its pure twin",
        "``_hotcodec_py``, chosen by :func:`rockafka.core_pyx.kernel`; values: ``_hotmessages``.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import TYPE_CHECKING",
        "",
        "from . import kernel",
        "from ._hotmessages import (",
        *[f"    {name}," for name in message_names],
        ")",
        "",
        "if TYPE_CHECKING:",
        "    from ._hotcodec_py import (",
        *[f"        {name}," for name in functions],
        "    )",
        "else:",
        '    _impl = kernel("_hotcodec")',
        *[f"    {name} = _impl.{name}" for name in functions],
        "",
        "__all__ = [",
        *[f'    "{name}",' for name in sorted([*message_names, *functions])],
        "]",
    ]
    return "\n".join(lines) + "\n"


def emit_hot(structs: list[HotStruct], commit: str) -> dict[str, str]:
    """Every generated file of ``core_pyx/``, by name (:data:`~.hot.HOT_FILES`)."""
    message_names = sorted({s.class_name for s in structs} | {h.constant for h in HOT} | {"ZERO_UUID", "Records"})
    return {
        "_hotmessages.py": emit_messages(structs, commit),
        "_hotcodec.pxd": emit_pxd(structs, commit),
        "_hotcodec.pyx": emit_pyx(structs, commit),
        "_hotcodec.pyi": emit_pyi(structs, commit),
        "_hotcodec_py.py": emit_py(structs, commit),
        "hotcodec.py": emit_selector(structs, commit, message_names),
    }
