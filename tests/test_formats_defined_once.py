"""Each binary format's constants are defined once, beside its spec, and imported everywhere else.

The source tree (``*.py``, ``*.pyx``, ``*.pxd``, ``*.pyi``; not the tests, not the generated messages) is read
as tokens, so docstrings and comments that draw a layout are free to name its values. It fails on:

- a magic number of the CommitLog (a record, a BLANK) as a literal outside its definition;
- a ``struct`` format of a file kind (CommitLog header, ConsumeQueue unit, IndexFile header and entry) as a
  string literal outside its definition;
- a layout constant (a size, a CommitLog record or RecordBatch field offset, a RecordBatch attributes bit)
  assigned to a name outside its definition;
- a store kernel (the CommitLog record, index-run and RecordBatch kernels and their twins) that adds a
  field offset to a pointer or position as a bare number instead of by its name.

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
    Rule(
        "RecordBatch v2 attributes",
        r"(_BIT|_MASK)$",
        frozenset({0x07, 0x08, 0x10, 0x20, 0x40}),
        frozenset({RECORDBATCH}),
    ),
    Rule(
        "CommitLog record field offset",
        r"(MAGIC|HEADER_CRC|TOPIC_ID|PARTITION|BASE_OFFSET|PHYSICAL_OFFSET|STORE_TIMESTAMP|RECORD_COUNT|FLAGS)_AT$",
        frozenset({4, 8, 12, 28, 32, 40, 48, 56, 60, 62}),
        frozenset({LOGRECORD}),
    ),
)
# Names that match a rule by coincidence: the ConsumeQueue unit's own base_offset field and the IndexFile
# header's beginPhysicalOffset sit at 16.
COINCIDENCES = {(CONSUMEQUEUE, "_BASE_AT"), (INDEXFILE, "BEGIN_PHYSICAL_AT")}

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


KERNELS = tuple(
    f"core_pyx/{name}{suffix}" for name in ("_logrecord", "_indexrun", "_recordbatch") for suffix in (".pyx", "_py.py")
)
# Where a CommitLog record header field or a RecordBatch v2 field starts
FIELD_OFFSETS = frozenset({4, 8, 12, 16, 17, 21, 23, 27, 28, 32, 35, 40, 43, 48, 51, 53, 56, 57, 60, 62})


def bare_offsets(path: str, text: str) -> list[str]:
    """Every ``+ <field offset>`` in the code of a store kernel, as ``path:line: + n``."""
    found = []
    previous = None
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        after_plus = previous is not None and previous.string == "+"
        if token.type == tokenize.NUMBER and after_plus and _number(token.string) in FIELD_OFFSETS:
            found.append(f"{path}:{token.start[0]}: + {token.string}")
        if token.type not in (tokenize.NL, tokenize.COMMENT):
            previous = token
    return found


def test_the_store_kernels_name_every_field_offset() -> None:
    assert [found for path in KERNELS for found in bare_offsets(path, (ROOT / path).read_text())] == []


def test_a_bare_field_offset_in_a_kernel_is_found() -> None:
    assert bare_offsets("core_pyx/_logrecord.pyx", "cdef int64_t base = rk_load_be64(p + 32)\n") == [
        "core_pyx/_logrecord.pyx:1: + 32"
    ]


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
        ("core_pyx/_recordbatch.pyx", "cdef enum:\n    CONTROL_BIT = 0x20"),
        ("core_pyx/_indexrun.pyx", "cdef enum:\n    COMPRESSION_MASK = 0x07"),
        ("store/partition.py", "_STORE_TIMESTAMP_AT = 48"),
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
        "INDEX_BEGIN_TIMESTAMP_AT": _indexhash_py.BEGIN_TIMESTAMP_AT,
        "INDEX_END_TIMESTAMP_AT": _indexhash_py.END_TIMESTAMP_AT,
        "INDEX_BEGIN_PHYSICAL_AT": _indexhash_py.BEGIN_PHYSICAL_AT,
        "INDEX_END_PHYSICAL_AT": _indexhash_py.END_PHYSICAL_AT,
        "INDEX_HASH_SLOT_COUNT_AT": _indexhash_py.HASH_SLOT_COUNT_AT,
        "INDEX_COUNT_AT": _indexhash_py.INDEX_COUNT_AT,
        "LOG_MAGIC_AT": _logrecord_py.MAGIC_AT,
        "LOG_HEADER_CRC_AT": _logrecord_py.HEADER_CRC_AT,
        "LOG_TOPIC_ID_AT": _logrecord_py.TOPIC_ID_AT,
        "LOG_PARTITION_AT": _logrecord_py.PARTITION_AT,
        "LOG_BASE_OFFSET_AT": _logrecord_py.BASE_OFFSET_AT,
        "LOG_PHYSICAL_OFFSET_AT": _logrecord_py.PHYSICAL_OFFSET_AT,
        "LOG_STORE_TIMESTAMP_AT": _logrecord_py.STORE_TIMESTAMP_AT,
        "LOG_RECORD_COUNT_AT": _logrecord_py.RECORD_COUNT_AT,
        "LOG_FLAGS_AT": _logrecord_py.FLAGS_AT,
        "LOG_RESERVED_AT": _logrecord_py.RESERVED_AT,
        "BATCH_HEADER_SIZE": _recordbatch_py.RECORD_BATCH_OVERHEAD,
        "BATCH_LOG_OVERHEAD": _recordbatch_py.LOG_OVERHEAD,
        "BATCH_LENGTH_AT": _recordbatch_py.LENGTH_OFFSET,
        "BATCH_PARTITION_LEADER_EPOCH_AT": _recordbatch_py.PARTITION_LEADER_EPOCH_OFFSET,
        "BATCH_MAGIC_AT": _recordbatch_py.MAGIC_OFFSET,
        "BATCH_CRC_AT": _recordbatch_py.CRC_OFFSET,
        "BATCH_ATTRIBUTES_AT": _recordbatch_py.ATTRIBUTES_OFFSET,
        "BATCH_LAST_OFFSET_DELTA_AT": _recordbatch_py.LAST_OFFSET_DELTA_OFFSET,
        "BATCH_BASE_TIMESTAMP_AT": _recordbatch_py.BASE_TIMESTAMP_OFFSET,
        "BATCH_MAX_TIMESTAMP_AT": _recordbatch_py.MAX_TIMESTAMP_OFFSET,
        "BATCH_PRODUCER_ID_AT": _recordbatch_py.PRODUCER_ID_OFFSET,
        "BATCH_PRODUCER_EPOCH_AT": _recordbatch_py.PRODUCER_EPOCH_OFFSET,
        "BATCH_BASE_SEQUENCE_AT": _recordbatch_py.BASE_SEQUENCE_OFFSET,
        "BATCH_RECORD_COUNT_AT": _recordbatch_py.RECORD_COUNT_OFFSET,
        "BATCH_COMPRESSION_MASK": _recordbatch_py.COMPRESSION_MASK,
        "BATCH_TIMESTAMP_TYPE_BIT": _recordbatch_py.TIMESTAMP_TYPE_BIT,
        "BATCH_TRANSACTIONAL_BIT": _recordbatch_py.TRANSACTIONAL_BIT,
        "BATCH_CONTROL_BIT": _recordbatch_py.CONTROL_BIT,
        "BATCH_MAX_CODEC": _recordbatch_py.MAX_CODEC,
    }
