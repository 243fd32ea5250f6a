"""The generator: spec parsing, a synthetic spec holding every field type and rule, deterministic output,
refusal of bad specs, and the shape of the committed ``messages`` package and its registry."""

from __future__ import annotations

import json
import re
import sys
import types
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from hypothesis import HealthCheck, given, settings

from rockafka.facade.protocol import API_SPECS, ApiSpec, EncodeError, UnknownApiKeyError, api_spec, messages
from rockafka.facade.protocol.codegen import SPEC_COMMIT, SpecError, generate
from rockafka.facade.protocol.codegen.spec import OPEN_END, VersionRange, strip_comments
from rockafka.facade.protocol.message import ApiMessage, Message

from .strategies import message_values

MESSAGES_DIR = Path(messages.__file__).parent

SYNTHETIC_REQUEST: dict[str, Any] = {
    "apiKey": 900,
    "type": "request",
    "name": "SyntheticRequest",
    "validVersions": "0-3",
    "flexibleVersions": "2+",
    "fields": [
        {"name": "Small", "type": "int8", "versions": "0+", "default": "-1"},
        {"name": "Port", "type": "uint16", "versions": "0+"},
        {"name": "Limit", "type": "int32", "versions": "0+", "default": "0x7fffffff"},
        {"name": "Delta", "type": "varint", "versions": "0+"},
        {"name": "Big", "type": "varlong", "versions": "1+", "ignorable": True},
        {"name": "Ratio", "type": "float64", "versions": "0+"},
        {"name": "Enabled", "type": "bool", "versions": "0+", "default": "true"},
        {"name": "Label", "type": "string", "versions": "0+", "default": "abc"},
        {"name": "Note", "type": "string", "versions": "1+", "nullableVersions": "1+", "default": "null"},
        {"name": "Blob", "type": "bytes", "versions": "0+", "nullableVersions": "2+"},
        {"name": "Records", "type": "records", "versions": "0+", "nullableVersions": "0+"},
        {"name": "Id", "type": "uuid", "versions": "0+"},
        {"name": "Ids", "type": "[]int64", "versions": "0+", "nullableVersions": "3+"},
        {"name": "Names", "type": "[]string", "versions": "0+"},
        {"name": "Keys", "type": "[]uuid", "versions": "2+"},
        {
            "name": "Items",
            "type": "[]Item",
            "versions": "0+",
            "fields": [
                {"name": "Value", "type": "int16", "versions": "0+"},
                {"name": "Extra", "type": "int64", "versions": "3+", "default": "-1"},
                {"name": "Where", "type": "Point", "versions": "0+"},
            ],
        },
        {"name": "Origin", "type": "Point", "versions": "1+", "nullableVersions": "1+", "default": "null"},
        {
            "name": "Hint",
            "type": "string",
            "versions": "2+",
            "taggedVersions": "2+",
            "tag": 0,
            "nullableVersions": "2+",
            "default": "null",
        },
        {"name": "Corner", "type": "Point", "versions": "3+", "taggedVersions": "3+", "tag": 5},
        {"name": "Legacy", "type": "string", "versions": "0+", "flexibleVersions": "none"},
    ],
    "commonStructs": [
        {
            "name": "Point",
            "versions": "0+",
            "fields": [
                {"name": "X", "type": "int32", "versions": "0+"},
                {"name": "Y", "type": "int32", "versions": "0+"},
            ],
        }
    ],
}
SYNTHETIC_RESPONSE: dict[str, Any] = {
    "apiKey": 900,
    "type": "response",
    "name": "SyntheticResponse",
    "validVersions": "0-3",
    "flexibleVersions": "2+",
    "latestVersionUnstable": True,
    "fields": [
        {
            "name": "Items",
            "type": "[]Item",
            "versions": "0+",
            "fields": [{"name": "Code", "type": "int16", "versions": "0+"}],
        }
    ],
}


def write_specs(folder: Path, *specs: dict[str, Any]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for spec in specs:
        text = "// Licensed to the Apache Software Foundation\n" + json.dumps(spec, indent=2)
        (folder / f"{spec['name']}.json").write_text(text + "  // trailing comment\n")
    return folder


def load_generated(path: Path) -> types.ModuleType:
    """Execute a generated module as if it sat in ``rockafka.facade.protocol.messages``."""
    name = f"{messages.__name__}._test_{path.stem}"
    module = types.ModuleType(name)
    module.__package__ = messages.__name__
    sys.modules[name] = module
    exec(compile(path.read_text(), str(path), "exec"), module.__dict__)
    return module


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> types.ModuleType:
    root = tmp_path_factory.mktemp("codegen")
    specs = write_specs(root / "specs", SYNTHETIC_REQUEST, SYNTHETIC_RESPONSE)
    generate(specs, root / "out")
    return load_generated(root / "out" / "synthetic.py")


def test_strip_comments_keeps_slashes_inside_strings() -> None:
    text = '{"a": "http://x//y", // note\n "b": "q\\"//"} // end\n// whole line'
    assert json.loads(strip_comments(text)) == {"a": "http://x//y", "b": 'q"//'}


@pytest.mark.parametrize(
    ("text", "expected"),
    [("3", VersionRange(3, 3)), ("3-7", VersionRange(3, 7)), ("3+", VersionRange(3, OPEN_END)), ("none", None)],
)
def test_version_ranges(text: str, expected: VersionRange | None) -> None:
    assert VersionRange.parse(text) == expected


def test_bad_version_range() -> None:
    with pytest.raises(SpecError):
        VersionRange.parse("3-")


def test_synthetic_defaults(synthetic: types.ModuleType) -> None:
    request = synthetic.SyntheticRequest()
    assert (request.small, request.port, request.limit, request.delta, request.big) == (-1, 0, 2**31 - 1, 0, 0)
    assert (request.ratio, request.enabled, request.label, request.note, request.blob) == (0.0, True, "abc", None, b"")
    assert (request.records, request.id, request.ids, request.names, request.items) == (None, UUID(int=0), [], [], [])
    assert request.origin is None and request.hint is None and request.corner == synthetic.Point()
    assert request.unknown_tagged_fields == {}
    assert request.items is not synthetic.SyntheticRequest().items  # fresh mutable defaults


def test_synthetic_exact_bytes(synthetic: types.ModuleType) -> None:
    item = synthetic.SyntheticRequestItem(value=2, where=synthetic.Point(x=1, y=-1))
    request = synthetic.SyntheticRequest(
        small=1, port=65535, limit=3, delta=-2, ratio=0.5, enabled=False, label="é", blob=b"z", records=b"r",
        id=UUID(int=9), ids=[7], names=["n"], items=[item], legacy="L",
    )  # fmt: skip
    head = bytes.fromhex("01ffff0000000303")  # int8, uint16, int32, zigzag varint -2
    middle = bytes.fromhex("3fe000000000000000")  # float64 0.5, bool false
    point = bytes.fromhex("00000001ffffffff")
    v0 = (
        head + middle + b"\x00\x02\xc3\xa9" + b"\x00\x00\x00\x01z" + b"\x00\x00\x00\x01r" + UUID(int=9).bytes
        + bytes.fromhex("00000001" "0000000000000007") + b"\x00\x00\x00\x01\x00\x01n"
        + b"\x00\x00\x00\x01\x00\x02" + point + b"\x00\x01L"
    )  # fmt: skip
    assert request.encode(0) == v0
    v2 = (
        head + b"\x00" + middle + b"\x03\xc3\xa9" + b"\x00" + b"\x02z" + b"\x02r" + UUID(int=9).bytes
        + bytes.fromhex("02" "0000000000000007") + b"\x02\x02n" + b"\x01"
        + b"\x02\x00\x02" + point + b"\x00\x00" + b"\xff" + b"\x00\x01L" + b"\x00"
    )  # fmt: skip
    assert request.encode(2) == v2
    assert synthetic.SyntheticRequest.decode(v2, 2) == request


def test_synthetic_tagged_fields(synthetic: types.ModuleType) -> None:
    request = synthetic.SyntheticRequest(hint="h", corner=synthetic.Point(x=1), unknown_tagged_fields={3: b"?"})
    encoded = request.encode(3)
    assert encoded.endswith(b"\x03" + b"\x00\x02\x02h" + b"\x03\x01?" + b"\x05\x09\x00\x00\x00\x01\x00\x00\x00\x00\x00")
    assert synthetic.SyntheticRequest.decode(encoded, 3) == request
    with pytest.raises(EncodeError, match="corner"):
        synthetic.SyntheticRequest(corner=synthetic.Point(x=1)).encode(2)
    with pytest.raises(EncodeError, match="hint"):
        synthetic.SyntheticRequest(hint="h").encode(1)


def test_synthetic_version_rules(synthetic: types.ModuleType) -> None:
    assert synthetic.SyntheticRequest(big=5).encode(0) == synthetic.SyntheticRequest().encode(0)  # ignorable
    with pytest.raises(EncodeError, match="note"):
        synthetic.SyntheticRequest(note="n").encode(0)
    with pytest.raises(EncodeError):
        synthetic.SyntheticRequest(blob=None).encode(1)  # nullable from 2 only
    assert synthetic.SyntheticRequest.decode(synthetic.SyntheticRequest(blob=None).encode(2), 2).blob is None
    assert synthetic.SyntheticResponse.FLEXIBLE_FROM == 2 and synthetic.SyntheticResponse.IS_REQUEST is False


@pytest.mark.parametrize("version", range(4))
def test_synthetic_round_trips(synthetic: types.ModuleType, version: int) -> None:
    for cls in (synthetic.SyntheticRequest, synthetic.SyntheticResponse):

        @settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        @given(message_values(cls, version))
        def check(value: Message) -> None:
            assert type(value).decode(value.encode(version), version) == value

        check()


def test_response_and_request_structs_with_one_name_get_prefixes(synthetic: types.ModuleType) -> None:
    assert synthetic.SyntheticRequestItem.__name__ == "SyntheticRequestItem"
    assert synthetic.SyntheticResponseItem.FIELDS[0].attr == "code"
    assert not hasattr(synthetic, "Item")


def test_a_newer_spec_replaces_the_pinned_one_and_names_its_commit(tmp_path: Path) -> None:
    pinned = write_specs(tmp_path / "specs", SYNTHETIC_REQUEST, SYNTHETIC_RESPONSE)
    newer = write_specs(tmp_path / "newer_specs", {**SYNTHETIC_REQUEST, "validVersions": "1-4"})
    commit = "0123456789abcdef0123456789abcdef01234567"
    request = newer / "SyntheticRequest.json"
    request.write_text(f"// FROM apache/kafka@{commit}\n" + request.read_text())
    generate(pinned, tmp_path / "out", newer=newer)
    first = (tmp_path / "out" / "synthetic.py").read_text().splitlines()[0]
    assert first.startswith(f"# GENERATED FROM apache/kafka@{commit} newer_specs/SyntheticRequest.json, ")
    assert "versions 1-4" in (tmp_path / "out" / "synthetic.py").read_text()


def test_output_is_deterministic_and_stale_files_go(tmp_path: Path) -> None:
    specs = write_specs(tmp_path / "specs", SYNTHETIC_REQUEST, SYNTHETIC_RESPONSE)
    out = tmp_path / "out"
    first = generate(specs, out)
    assert sorted(path.name for path in first) == ["__init__.py", "synthetic.py"]
    snapshot = {path.name: path.read_text() for path in out.iterdir()}
    assert generate(specs, out) == []
    (out / "gone.py").write_text(f"# GENERATED FROM apache/kafka@{SPEC_COMMIT} Gone.json - DO NOT EDIT\n")
    (out / "handwritten.py").write_text("x = 1\n")
    assert [path.name for path in generate(specs, out)] == ["gone.py"]
    assert {path.name: path.read_text() for path in out.iterdir() if path.name != "handwritten.py"} == snapshot
    registry = snapshot["__init__.py"]
    assert "900: ApiSpec(900, 'Synthetic', SyntheticRequest, SyntheticResponse, 0, 3, 2, 2, False)" in registry


@pytest.mark.parametrize(
    "field",
    [
        {"name": "A", "type": "int32", "versions": "0+", "default": "null"},
        {"name": "A", "type": "int8", "versions": "0+", "default": "300"},
        {"name": "A", "type": "int32", "versions": "0+", "taggedVersions": "0+"},
        {"name": "A", "type": "Missing", "versions": "0+"},
        {"name": "Read", "type": "int32", "versions": "0+"},
        {"name": "A", "type": "[]bool", "versions": "0+"},
        {"name": "A", "type": "int32"},
    ],
)
def test_bad_specs_are_refused(tmp_path: Path, field: dict[str, Any]) -> None:
    spec = {"type": "data", "name": "Bad", "validVersions": "0", "flexibleVersions": "0+", "fields": [field]}
    with pytest.raises(SpecError):
        generate(write_specs(tmp_path / "specs", spec), tmp_path / "out")


def test_committed_modules_are_one_per_api_with_the_header() -> None:
    files = sorted(MESSAGES_DIR.glob("*.py"))
    # APIs (the pinned specs' and the share-group offset admin APIs' from newer_specs), request/response headers,
    # data messages, the registry
    assert len(files) == 88 + 3 + 2 + 8 + 1
    for path in files:
        first = path.read_text().splitlines()[0]
        pinned = first.startswith(f"# GENERATED FROM apache/kafka@{SPEC_COMMIT} ")
        newer = re.match(r"# GENERATED FROM apache/kafka@[0-9a-f]{40} newer_specs/", first) is not None
        assert (pinned or newer) and first.endswith(" - DO NOT EDIT; make gen-protocol"), path.name
    assert "ProduceRequest.json, ProduceResponse.json" in (MESSAGES_DIR / "produce.py").read_text()
    assert sum(path.stat().st_size for path in files) < 2_000_000


def test_registry() -> None:
    assert sorted(API_SPECS) == [*range(88), 90, 91, 92]  # 90-92: the share-group offset admin APIs' newer specs
    for key, spec in API_SPECS.items():
        assert isinstance(spec, ApiSpec) and spec.api_key == key
        assert issubclass(spec.request, ApiMessage) and key == spec.request.API_KEY and spec.request.IS_REQUEST
        assert key == spec.response.API_KEY and not spec.response.IS_REQUEST
        assert spec.request.__name__ == f"{spec.name}Request"
        assert (spec.min_version, spec.max_version) == (spec.request.MIN_VERSION, spec.request.MAX_VERSION)
    produce = api_spec(0)
    assert (produce.name, produce.max_version, produce.request_flexible_from, produce.response_flexible_from) == (
        "Produce",
        11,
        9,
        9,
    )
    assert api_spec(17).request_flexible_from is None  # SaslHandshake has no flexible version
    assert api_spec(68).latest_version_unstable and not api_spec(3).latest_version_unstable
    with pytest.raises(UnknownApiKeyError):
        api_spec(88)


def test_header_version_rules() -> None:
    assert [api_spec(3).request_header_version(v) for v in (8, 9)] == [1, 2]
    assert [api_spec(3).response_header_version(v) for v in (8, 9)] == [0, 1]
    assert api_spec(18).request_header_version(3) == 2 and api_spec(18).response_header_version(4) == 0
    assert api_spec(7).request_header_version(0) == 0 and api_spec(7).request_header_version(1) == 1
