"""The Python class of one struct or message: slots, constructor, ``write`` and ``read``.

``write`` and ``read`` are one function each, with per-field version checks; checks that cannot fail
within the versions the struct can appear in are left out, and runs of fixed-width fields that share
their versions are packed with one precompiled ``struct.Struct`` (``_S1`` ...).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .fieldcode import FIXED, FieldCode, cond, outside
from .plan import ModulePlan, StructPlan
from .spec import OPEN_END, VersionRange

_BASE_BY_KIND = {"request": "ApiMessage", "response": "ApiMessage", "header": "Message", "data": "Message"}


@dataclass(slots=True)
class Formats:
    """The module's precompiled ``struct.Struct`` formats, named in order of first use."""

    names: dict[str, str] = field(default_factory=dict)

    def name(self, fmt: str) -> str:
        if fmt not in self.names:
            self.names[fmt] = f"_S{len(self.names) + 1}"
        return self.names[fmt]


def _indent(lines: list[str], levels: int = 1) -> list[str]:
    pad = "    " * levels
    return [pad + line for line in lines]


class ClassEmitter:
    """Writes the class for ``plan`` (a struct of ``module``)."""

    def __init__(self, plan: StructPlan, module: ModulePlan, formats: Formats) -> None:
        self.plan = plan
        self.reach = plan.reach
        self.formats = formats
        owner = plan.message.name if plan.message is not None else plan.owners[0]
        self.fields = [
            FieldCode.of(
                spec,
                module.resolve.get((owner, spec.type.name)) if spec.type.is_struct else None,
                plan.reach,
                plan.flexible_from,
            )
            for spec in plan.fields
        ]
        if plan.flexible_from is None:
            self.flex = "False"
        else:
            self.flex = cond(VersionRange(plan.flexible_from, OPEN_END), plan.reach)

    # -- layout ---------------------------------------------------------------------------------------

    def lines(self) -> list[str]:
        plan = self.plan
        message = plan.message
        base = _BASE_BY_KIND[message.kind] if message is not None else "Struct"
        out = [f"class {plan.class_name}({base}):", f'    """{self._doc()}"""', ""]
        if message is not None:
            if message.api_key is not None:
                out.append(f"    API_KEY = {message.api_key}")
                out.append(f"    IS_REQUEST = {message.kind == 'request'}")
            out.append(f"    MIN_VERSION = {message.valid.lo}")
            out.append(f"    MAX_VERSION = {message.valid.hi}")
            out.append(f"    FLEXIBLE_FROM = {message.flexible_from}")
        slots = [fc.attr for fc in self.fields] + ["unknown_tagged_fields"]
        quoted = ", ".join(f'"{name}"' for name in slots)
        out.append(f"    __slots__ = ({quoted},)")
        out.extend(f"    {fc.attr}: {fc.annotation()}" for fc in self.fields)
        out.append("")
        out.extend(self._init())
        out.append("")
        out.extend(self._write())
        out.append("")
        out.extend(self._read())
        return out

    def _doc(self) -> str:
        plan = self.plan
        if plan.message is not None:
            flexible = f", flexible from {plan.flexible_from}" if plan.flexible_from is not None else ""
            return f"{plan.message.name}, versions {plan.message.valid}{flexible}."
        return f"{plan.kafka_name} of {', '.join(plan.owners)} (in versions {plan.reach})."

    def _init(self) -> list[str]:
        params = [f"{fc.attr}: {fc.annotation()} = {fc.param_default()}," for fc in self.fields]
        params.append("unknown_tagged_fields: dict[int, bytes] = DEFAULT,")
        body = [f"self.{fc.attr} = {fc.init_value()}" for fc in self.fields]
        body.append("self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields")
        head = ["def __init__(", "    self,", "    *,", *_indent(params), ") -> None:"]
        return _indent([*head, *_indent(body)])

    def _runs(self) -> list[list[FieldCode]]:
        """The fields in order, consecutive fixed-width in-line fields with equal versions grouped."""
        runs: list[list[FieldCode]] = []
        for fc in self.fields:
            groupable = fc.is_fixed and fc.spec.tagged is None
            if runs and groupable:
                last = runs[-1][-1]
                same_versions = cond(last.spec.versions, self.reach) == cond(fc.spec.versions, self.reach)
                if last.is_fixed and last.spec.tagged is None and same_versions:
                    runs[-1].append(fc)
                    continue
            runs.append([fc])
        return runs

    def _check(self, fc: FieldCode, when: str) -> str | None:
        """The test that raises for a non-default value where the field is absent (None when it cannot fail)."""
        if fc.spec.ignorable or when == "False":
            return None
        test = _differs(fc)
        if when == "True":
            return test
        return f"({when}) and {test}" if " or " in when else f"{when} and {test}"

    def _raise(self, fc: FieldCode) -> str:
        return f'    raise absent_field(self, "{fc.attr}", version)'

    def fields_table(self) -> list[str]:
        """The ``FIELDS`` assignment, written after every class of the module exists."""
        if not self.fields:
            return []
        rows = []
        for fc in self.fields:
            spec = fc.spec
            rows.append(
                f'    FieldInfo("{fc.attr}", "{spec.name}", "{spec.type}", {_pair(spec.versions)}, '
                f"{_pair(spec.nullable)}, {_pair(spec.tagged)}, {spec.tag}, {spec.ignorable}, {fc.struct_class}),"
            )
        return [f"{self.plan.class_name}.FIELDS = (", *rows, ")"]

    # -- write ----------------------------------------------------------------------------------------

    def _write(self) -> list[str]:
        body: list[str] = []
        if self.flex not in ("True", "False"):
            body.append(f"flexible = {self.flex}")
        for run in self._runs():
            body.extend(self._write_run(run) if len(run) > 1 else self._write_field(run[0]))
        body.extend(self._write_tags())
        head = "def write(self, out: bytearray, version: int) -> None:"
        return _indent([head, *_indent(body)])

    def _write_field(self, fc: FieldCode) -> list[str]:
        untagged = fc.spec.untagged
        if untagged is None:
            return []
        present = cond(untagged, self.reach)
        absent = self._check(fc, outside(fc.spec.versions, self.reach))
        if present == "False":
            return [f"if {absent}:", self._raise(fc)] if absent else []
        presence = untagged.intersect(self.reach)
        assert presence is not None
        stmt = fc.write_stmt("out", f"self.{fc.attr}", presence)
        if present == "True":
            return [stmt]
        lines = [f"if {present}:", f"    {stmt}"]
        if absent:
            lines += [f"elif {absent}:", self._raise(fc)]
        return lines

    def _write_run(self, run: list[FieldCode]) -> list[str]:
        present = cond(run[0].spec.versions, self.reach)
        fmt = self.formats.name(">" + "".join(fc_format(fc) for fc in run))
        pack = f"out += {fmt}.pack({', '.join(f'self.{fc.attr}' for fc in run)})"
        checks: list[str] = []
        for fc in run:
            check = self._check(fc, "True")
            if check:
                checks += [f"if {check}:", self._raise(fc)]
        if present == "True":
            return [pack]
        if present == "False":
            return checks
        return [f"if {present}:", f"    {pack}", *(["else:", *_indent(checks)] if checks else [])]

    def _tagged(self) -> list[FieldCode]:
        tagged = [fc for fc in self.fields if fc.spec.tagged is not None and fc.spec.tagged.intersect(self.reach)]
        return sorted(tagged, key=lambda fc: fc.spec.tag or 0)

    def _write_tags(self) -> list[str]:
        unsupported = ["raise tags_unsupported(self, version)"]
        lines: list[str] = []
        if self.flex == "False":
            lines = ["if self.unknown_tagged_fields:", *_indent(unsupported)]
        else:
            tagged = self._tagged()
            inner: list[str] = ["write_tagged_fields(out, self.unknown_tagged_fields)"]
            if tagged:
                inner = ["tags = dict(self.unknown_tagged_fields)"]
                for fc in tagged:
                    inner.extend(self._write_tag(fc))
                inner.append("write_tagged_fields(out, tags)")
            if self.flex == "True":
                lines = inner
            else:
                lines = ["if flexible:", *_indent(inner), "elif self.unknown_tagged_fields:", *_indent(unsupported)]
        for fc in self.fields:
            if fc.spec.untagged is None and (check := self._check(fc, outside(fc.spec.versions, self.reach))):
                lines += [f"if {check}:", self._raise(fc)]
        return lines

    def _write_tag(self, fc: FieldCode) -> list[str]:
        assert fc.spec.tagged is not None
        presence = fc.spec.tagged.intersect(self.reach)
        assert presence is not None
        when = cond(fc.spec.tagged, self.reach)
        test = _differs(fc)
        head = f"if {test}:" if when == "True" else f"if {when} and {test}:"
        stmt = fc.write_stmt("tb", f"self.{fc.attr}", presence)
        return [head, "    tb = bytearray()", f"    {stmt}", f"    tags[{fc.spec.tag}] = bytes(tb)"]

    # -- read -----------------------------------------------------------------------------------------

    def _read(self) -> list[str]:
        body = ["self = cls.__new__(cls)"]
        if self.flex not in ("True", "False"):
            body.append(f"flexible = {self.flex}")
        for run in self._runs():
            body.extend(self._read_run(run) if len(run) > 1 else self._read_field(run[0]))
        body.extend(self._read_tags())
        body.append("return self")
        head = ["@classmethod", "def read(cls, r: Reader, version: int) -> Self:"]
        return _indent([*head, *_indent(body)])

    def _read_field(self, fc: FieldCode) -> list[str]:
        untagged = fc.spec.untagged
        target = f"self.{fc.attr}"
        present = "False" if untagged is None else cond(untagged, self.reach)
        if present == "False":
            return [f"{target} = {fc.default_value()}"]
        presence = untagged.intersect(self.reach) if untagged is not None else None
        assert presence is not None
        expr = fc.read_expr("r", presence)
        if present == "True":
            return [f"{target} = {expr}"]
        return [f"{target} = {expr} if {present} else {fc.default_value()}"]

    def _read_run(self, run: list[FieldCode]) -> list[str]:
        present = cond(run[0].spec.versions, self.reach)
        fmt = self.formats.name(">" + "".join(fc_format(fc) for fc in run))
        unpack = f"{', '.join(f'self.{fc.attr}' for fc in run)} = r.fixed({fmt})"
        defaults = [f"self.{fc.attr} = {fc.default_value()}" for fc in run]
        if present == "True":
            return [unpack]
        if present == "False":
            return defaults
        return [f"if {present}:", f"    {unpack}", "else:", *_indent(defaults)]

    def _read_tags(self) -> list[str]:
        if self.flex == "False":
            return ["self.unknown_tagged_fields = {}"]
        tagged = self._tagged()
        inner = ["self.unknown_tagged_fields = r.tagged_fields()"]
        if tagged:
            inner = ["tags = r.tagged_fields()", "if tags:"]
            for fc in tagged:
                assert fc.spec.tagged is not None
                presence = fc.spec.tagged.intersect(self.reach)
                assert presence is not None
                when = cond(fc.spec.tagged, self.reach)
                test = f"{fc.spec.tag} in tags" + ("" if when == "True" else f" and {when}")
                inner += [
                    f"    if {test}:",
                    f"        tr = Reader(tags.pop({fc.spec.tag}))",
                    f"        self.{fc.attr} = {fc.read_expr('tr', presence)}",
                    "        tr.expect_end()",
                ]
            inner.append("self.unknown_tagged_fields = tags")
        if self.flex == "True":
            return inner
        return ["if flexible:", *_indent(inner), "else:", "    self.unknown_tagged_fields = {}"]


def fc_format(fc: FieldCode) -> str:
    """The ``struct`` code of a fixed-width field."""
    return FIXED[fc.type_name][2]


def _differs(fc: FieldCode) -> str:
    """The test "the field holds something else than its default"."""
    default = fc.default_value()
    if default == "None":
        return f"self.{fc.attr} is not None"
    return f"self.{fc.attr} != {default}"


def _pair(versions: VersionRange | None) -> str:
    return "None" if versions is None else f"({versions.lo}, {versions.hi})"
