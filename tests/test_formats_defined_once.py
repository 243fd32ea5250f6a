"""Each binary format's constants are defined once, beside its spec, and imported everywhere else.

The source tree (``*.py``, ``*.pyx``, ``*.pxd``, ``*.pyi``; not the tests, not the generated messages) is read
as tokens, so docstrings and comments that draw a layout are free to name its values. It fails on:

- a magic number of the CommitLog (a record, a BLANK) as a literal outside its definition;
- a ``struct`` format of a file kind (CommitLog header, ConsumeQueue unit, IndexFile header and entry) as a
  string literal outside its definition;
- a layout constant (a size, a RecordBatch field offset) assigned to a name outside its definition.

The compiled kernels take the values as compile-time constants from ``core_pyx/_layouts.pxd``, the one file
allowed to restate them; the last test checks that it agrees with the Python definitions.
"""

from __future__ import annotations

import io
import os
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from rockafka.core_pyx import _indexhash_py, _logrecord_py, _recordbatch_py
from rockafka.store import consumequeue

ROOT = Path(__file__).resolve().parents[1]
SKIPPED = {"tests", "compat_tests", "build", "docs", ".venv", ".git", "rockafka.egg-info"}
GENERATED = ROOT / "facade" / "protocol" / "messages"
PXD = "core_pyx/_layouts.pxd"
SUFFIXES = {".py", ".pyx", ".pxd", ".pyi"}

LOGRECORD = "core_pyx/_logrecord_py.py"
INDEXFILE = "core_pyx/_indexhash_py.py"
RECORDBATCH = "core_pyx/_recordbatch_py.py"
CONSUMEQUEUE = "store/consumequeue.py"

MAGICS = {_logrecord_py.RECORD_MAGIC: LOGRECORD, _logrecord_py.BLANK_MAGIC: LOGRECORD}
STRUCTS = {
    _logrecord_py.HEADER.format: LOGRECORD,
    consumequeue.UNIT.format: CONSUMEQUEUE,
    _indexhash_py.HEADER.format: INDEXFILE,
    _indexhash_py.ENTRY.format: INDEXFILE,
}


@dataclass(frozen=True)
class Rule:
    """Assigning one of ``values`` to a name matching ``names`` defines a constant of the format of ``home``."""

    format: str
    names: str
    values: frozenset[int]
    home: frozenset[str]


RULES = (
    Rule("CommitLog record", r"HEADER_SIZE$", frozenset({_logrecord_py.HEADER_SIZE}), frozenset({LOGRECORD})),
    Rule("CommitLog BLANK", r"BLANK_SIZE$", frozenset({_logrecord_py.BLANK_SIZE}), frozenset({LOGRECORD})),
    Rule(
        "IndexFile",
        r"(HEADER|ENTRY|SLOT)_SIZE$",
        frozenset({_indexhash_py.HEADER_SIZE, _indexhash_py.ENTRY_SIZE, _indexhash_py.SLOT_SIZE}),
        frozenset({INDEXFILE}),
    ),
    Rule("ConsumeQueue unit", r"UNIT_SIZE$", frozenset({consumequeue.UNIT_SIZE}), frozenset({CONSUMEQUEUE})),
    Rule(
        "RecordBatch v2",
        r"(HEADER_SIZE|OVERHEAD)$",
        frozenset({_recordbatch_py.RECORD_BATCH_OVERHEAD}),
        frozenset({RECORDBATCH}),
    ),
    Rule(
        "RecordBatch v2 field offset",
        r"(_AT|_OFFSET)$",
        # magic, crc, attributes, lastOffsetDelta, baseTimestamp, maxTimestamp, producerId, producerEpoch,
        # baseSequence, recordCount
        frozenset({16, 17, 21, 23, 27, 35, 43, 51, 53, 57}),
        frozenset({RECORDBATCH}),
    ),
)
# Names that match a rule by coincidence: the ConsumeQueue unit's own base_offset field sits at 16.
COINCIDENCES = {(CONSUMEQUEUE, "_BASE_AT")}

# NAME [: annotation] = integer, or a cdef variable or enum entry of that shape
_DEFINITION = re.compile(r"^\s*(?:cdef\s+\w+\s+)?(\w+)\s*(?::\s*[\w\[\]]+\s*)?=\s*((?:0[xX])?[\dA-Fa-f_]+)\s*(?:#.*)?$")


def sources() -> Iterator[tuple[str, str]]:
    for folder, folders, files in os.walk(ROOT):
        here = Path(folder)
        folders[:] = sorted(name for name in folders if name not in SKIPPED and here / name != GENERATED)
        for name in sorted(files):
            if Path(name).suffix in SUFFIXES:
                yield (here / name).relative_to(ROOT).as_posix(), (here / name).read_text()


def tokens(text: str) -> Iterator[tokenize.TokenInfo]:
    """The NUMBER and STRING tokens of a file's code (Cython reads as Python does, token by token)."""
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type in (tokenize.NUMBER, tokenize.STRING):
            yield token


def _number(literal: str) -> int | None:
    try:
        return int(literal.replace("_", ""), 0)
    except ValueError:
        return None


def _string(literal: str) -> str | None:
    match = re.fullmatch(r"[rRbB]?(['\"])(.*)\1", literal)
    return match.group(2) if match else None


def second_definitions(files: Iterator[tuple[str, str]]) -> list[str]:
    """Every restated constant, as ``path:line: what``."""
    found = []
    for path, text in files:
        if path == PXD:
            continue
        for token in tokens(text):
            where = f"{path}:{token.start[0]}"
            if token.type == tokenize.NUMBER and MAGICS.get(_number(token.string) or -1, path) != path:
                found.append(f"{where}: the CommitLog magic {token.string} (defined in {LOGRECORD})")
            value = _string(token.string) if token.type == tokenize.STRING else None
            if value in STRUCTS and STRUCTS[value] != path:
                found.append(f"{where}: the struct format {token.string} (defined in {STRUCTS[value]})")
        for number, line in enumerate(text.splitlines(), 1):
            match = _DEFINITION.match(line)
            value = _number(match.group(2)) if match else None
            if match is None or value is None or (path, match.group(1)) in COINCIDENCES:
                continue
            for rule in RULES:
                if re.search(rule.names, match.group(1)) and value in rule.values and path not in rule.home:
                    found.append(f"{path}:{number}: {match.group(1)} = {value}, of the {rule.format} layout")
    return found


def test_no_format_constant_is_defined_twice() -> None:
    assert second_definitions(sources()) == []


@pytest.mark.parametrize(
    ("planted", "line"),
    [
        ("store/commitlog.py", "MAGIC = 0x524B4331"),
        ("core_pyx/_indexrun.pyx", "cdef uint32_t BLANK = 1380664130"),
        ("pipeline/storefiles.py", 'UNIT = struct.Struct(">qiiqqqqqhHI")'),
        ("store/indexfile.py", "HEADER_SIZE: Final = 40"),
        ("core_pyx/_indexrun.pyx", "cdef enum:\n    RECORD_HEADER_SIZE = 64"),
        ("store/partition.py", "_MAX_TIMESTAMP_AT = 35"),
        ("facade/handlers/api_00_produce.py", "ATTRIBUTES_AT = 21"),
    ],
)
def test_a_planted_second_definition_is_found(planted: str, line: str) -> None:
    files = [(path, f"{text}\n{line}\n" if path == planted else text) for path, text in sources()]
    assert len(second_definitions(iter(files))) == 1


def test_the_kernels_compile_time_constants_agree_with_the_definitions() -> None:
    declared = dict(re.findall(r"^\s+(\w+) = (0x[0-9A-Fa-f]+|\d+)$", (ROOT / PXD).read_text(), re.MULTILINE))
    assert {name: int(value, 0) for name, value in declared.items()} == {
        "LOG_HEADER_SIZE": _logrecord_py.HEADER_SIZE,
        "LOG_RECORD_MAGIC": _logrecord_py.RECORD_MAGIC,
        "LOG_BLANK_MAGIC": _logrecord_py.BLANK_MAGIC,
        "LOG_BLANK_SIZE": _logrecord_py.BLANK_SIZE,
        "INDEX_HEADER_SIZE": _indexhash_py.HEADER_SIZE,
        "INDEX_SLOT_SIZE": _indexhash_py.SLOT_SIZE,
        "INDEX_ENTRY_SIZE": _indexhash_py.ENTRY_SIZE,
        "INDEX_MAX_TIME_DIFF": _indexhash_py.MAX_TIME_DIFF,
        "BATCH_HEADER_SIZE": _recordbatch_py.RECORD_BATCH_OVERHEAD,
        "BATCH_MAGIC_AT": _recordbatch_py.MAGIC_OFFSET,
        "BATCH_CRC_AT": _recordbatch_py.CRC_OFFSET,
        "BATCH_ATTRIBUTES_AT": _recordbatch_py.ATTRIBUTES_OFFSET,
        "BATCH_MAX_TIMESTAMP_AT": _recordbatch_py.MAX_TIMESTAMP_OFFSET,
        "BATCH_RECORD_COUNT_AT": _recordbatch_py.RECORD_COUNT_OFFSET,
    }
