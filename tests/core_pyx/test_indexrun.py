"""The index-run kernel: both twins index real CommitLog segments into the same bytes as IndexFile.put does."""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rockafka.core_pyx import is_compiled, twins
from rockafka.core_pyx.compression import decompress
from rockafka.core_pyx.errors import KernelError
from rockafka.core_pyx.indexhash import key_hashes, put_entries
from rockafka.core_pyx.indexrun import IndexHeader, IndexStop
from rockafka.core_pyx.logrecord import HEADER_SIZE, scan_records
from rockafka.core_pyx.recordbatch import COMPRESSION_MASK, CONTROL_BIT, RECORD_BATCH_OVERHEAD
from rockafka.store.commitlog import CommitLog, StoredBatch
from rockafka.store.control import marker_batch
from rockafka.store.indexfile import IndexFile, file_name, file_size, topic_seed

from ..store.helpers import CODECS, build_batch

TWINS = twins("_indexrun")
TOPICS = (bytes(range(16)), bytes(range(50, 66)))
SLOTS = 8
_HEADER = struct.Struct(">qqqqii")
FRESH = IndexHeader(0, 0, 0, 0, 0, 1)


@pytest.fixture(params=sorted(TWINS), ids=lambda name: name)
def impl(request: pytest.FixtureRequest) -> ModuleType:
    return TWINS[request.param]


def test_compiled_twin_is_present() -> None:
    assert "compiled" in TWINS and is_compiled(TWINS["compiled"])


@dataclass
class Segment:
    data: bytes
    start: int
    end: int  # file-relative: the published offset, or the file's length
    records: list[StoredBatch]


def _write_log(directory: Path, batches: list[tuple[int, bytes]], segment_bytes: int = 1 << 16) -> list[Segment]:
    """Append (topic number, batch) pairs through the CommitLog's own write path; the segment files' bytes."""
    log = CommitLog(directory, segment_bytes, preallocate=False)
    log.load()
    stored = []
    for number, (topic, batch) in enumerate(batches):
        count = struct.unpack_from(">i", batch, 23)[0] + 1
        stored.append(log.append(batch, topic_id=TOPICS[topic], partition=topic, base_offset=number * 100,
                                 leader_epoch=0, record_count=count, store_timestamp=1_700_000_000_000 + number * 700,
                                 log_append_time=None))  # fmt: skip
    log.publish()
    log.close()
    segments = []
    for path in sorted(directory.iterdir()):
        start = int(path.name)
        end = min(log.published_offset - start, segment_bytes)
        records = [r for r in stored if start <= r.physical_offset < start + segment_bytes]
        segments.append(Segment(path.read_bytes(), start, end, records))
    return segments


def _keyed(*keys: bytes | None, codec: str = "none") -> bytes:
    value = b"v" * (200 if codec != "none" else 20)  # large enough for the codec to pay
    return build_batch([(key, value) for key in keys], codec=CODECS[codec])


def _marker() -> bytes:
    return marker_batch(producer_id=7, producer_epoch=0, coordinator_epoch=1, commit=True, timestamp=5)


def _mixed() -> list[tuple[int, bytes]]:
    return [
        (0, _keyed(b"a", b"b", b"a", None)),
        (1, _keyed(b"a")),  # same key, other topic: another hash
        (0, _keyed(None, None)),  # no key: no entry
        (0, _marker()),  # a control batch: not indexed although its record has a key
        (0, _keyed(b"c", b"d", b"c", codec="gzip")),
        (1, _keyed(b"e", b"a", b"e", b"f")),
        (0, _keyed(b"g", codec="lz4")),
        (0, _keyed(b"h", b"i")),
    ]


def _hashes_of(segment: Segment, record: StoredBatch) -> list[int]:
    """What the index thread computed per record before the kernel (decompressing as needed)."""
    at = record.physical_offset - segment.start
    batch = segment.data[at + HEADER_SIZE : at + record.size]
    count = struct.unpack_from(">i", batch, 57)[0]
    codec = record.attributes & COMPRESSION_MASK
    payload = batch[RECORD_BATCH_OVERHEAD:]
    try:
        return key_hashes(decompress(codec, payload) if codec else payload, count, topic_seed(record.topic_id))
    except KernelError:
        return []


def _put_path(segments: list[Segment], path: Path, entries: int) -> bytes:
    """The IndexFile the per-record put path builds from the same records."""
    index_file = IndexFile.open(path, SLOTS, entries)
    for segment in segments:
        for record in segment.records:
            hashes = [] if record.attributes & CONTROL_BIT else _hashes_of(segment, record)
            if hashes:
                index_file.put(hashes, record.physical_offset, record.store_timestamp)
    index_file.close()
    return path.read_bytes()


def _put_one(index: bytearray, header: IndexHeader, segment: Segment, position: int) -> IndexHeader:
    """What the caller does at COMPRESSED: that one record through the put path (as ``IndexFile.put``)."""
    record = next(r for r in segment.records if r.physical_offset == segment.start + position)
    hashes = _hashes_of(segment, record)
    if not hashes:
        return header
    fresh = header.index_count <= 1
    begin = record.store_timestamp if fresh else header.begin_timestamp
    first = record.physical_offset if fresh else header.begin_physical_offset
    count, used = put_entries(index, SLOTS, header.index_count, header.hash_slot_count, begin,
                              record.physical_offset, record.store_timestamp, hashes)  # fmt: skip
    header = IndexHeader(begin, record.store_timestamp, first, record.physical_offset, used, count)
    _HEADER.pack_into(index, 0, *_fields(header))
    return header


def _fields(header: IndexHeader) -> tuple[int, int, int, int, int, int]:
    return (header.begin_timestamp, header.end_timestamp, header.begin_physical_offset, header.end_physical_offset,
            header.hash_slot_count, header.index_count)  # fmt: skip


def _run_all(
    impl: ModuleType, segments: list[Segment], index: bytearray, budget: int = 1 << 30
) -> list[tuple[IndexStop, int]]:
    """Follow every segment as the index thread does; the (stop, global position) of every call."""
    header, stops = FRESH, []
    for segment in segments:
        position = 0
        while True:
            run = impl.index_records(segment.data, position, segment.end, segment.start, index, SLOTS, header, -1,
                                     budget)  # fmt: skip
            stops.append((run.stop, segment.start + run.position))
            header, position = run.header, run.position
            assert _HEADER.unpack_from(index, 0) == (_fields(header) if header.index_count > 1 else (0,) * 6)
            if run.stop == IndexStop.COMPRESSED:
                header = _put_one(index, header, segment, position)
                position += struct.unpack_from(">i", segment.data, position)[0]
            elif run.stop != IndexStop.LIMIT:
                break
    return stops


def _record_ends(segment: Segment) -> list[int]:
    return [r.end for r in segment.records]


# --- the put path's bytes, whatever the records ---


def test_entries_are_those_the_put_path_writes(impl: ModuleType, tmp_path: Path) -> None:
    segments = _write_log(tmp_path / "log", _mixed() * 30, segment_bytes=1 << 14)
    assert len(segments) > 2  # BLANKs closed the first files
    entries = 1024
    expected = _put_path(segments, tmp_path / file_name(1), entries)
    index = bytearray(file_size(SLOTS, entries))
    stops = _run_all(impl, segments, index)
    assert bytes(index) == expected
    kinds = [stop for stop, _ in stops]
    assert kinds.count(IndexStop.SEGMENT_END) == len(segments) - 1 and kinds[-1] == IndexStop.END
    compressed = [r.physical_offset for s in segments for r in s.records if r.attributes & COMPRESSION_MASK]
    assert [at for stop, at in stops if stop == IndexStop.COMPRESSED] == compressed
    assert [at for stop, at in stops if stop == IndexStop.SEGMENT_END] == [s.records[-1].end for s in segments[:-1]]


def test_a_budget_bounds_each_call_to_whole_records(impl: ModuleType, tmp_path: Path) -> None:
    segments = _write_log(tmp_path / "log", [(0, _keyed(b"k%d" % i, b"x")) for i in range(12)])
    budget = segments[0].records[0].size * 3
    index = bytearray(file_size(SLOTS, 64))
    stops = _run_all(impl, segments, index, budget=budget)
    ends = [record.end for record in segments[0].records]
    assert stops == [
        (IndexStop.LIMIT, ends[2]),
        (IndexStop.LIMIT, ends[5]),
        (IndexStop.LIMIT, ends[8]),
        (IndexStop.END, ends[11]),
    ]
    assert bytes(index) == _put_path(segments, tmp_path / file_name(2), 64)
    one = impl.index_records(segments[0].data, 0, segments[0].end, 0, bytearray(len(index)), SLOTS, FRESH, -1, 0)
    assert (one.stop, one.position, one.header.index_count) == (IndexStop.LIMIT, segments[0].records[0].end, 3)


def test_a_record_whose_entries_do_not_fit_stops_the_run_before_it(impl: ModuleType, tmp_path: Path) -> None:
    segments = _write_log(tmp_path / "log", [(0, _keyed(b"a", b"b")), (0, _keyed(b"c", b"d")), (0, _keyed(b"e", b"f"))])
    segment = segments[0]
    index = bytearray(file_size(SLOTS, 6))  # entries 1 to 5
    run = impl.index_records(segment.data, 0, segment.end, 0, index, SLOTS, FRESH, -1, 1 << 20)
    assert (run.stop, run.position) == (IndexStop.FULL, segment.records[2].physical_offset)
    assert run.header == IndexHeader(
        segment.records[0].store_timestamp, segment.records[1].store_timestamp, 0, segment.records[1].physical_offset,
        run.header.hash_slot_count, 5,
    )  # fmt: skip
    two_records = Segment(segment.data, 0, segment.records[1].end, segment.records[:2])
    assert bytes(index) == _put_path([two_records], tmp_path / file_name(3), 6)
    fresh = bytearray(len(index))
    rest = impl.index_records(segment.data, run.position, segment.end, 0, fresh, SLOTS, FRESH, -1, 1 << 20)
    assert (rest.stop, rest.header.index_count, rest.header.begin_physical_offset) == (
        IndexStop.END, 3, segment.records[2].physical_offset,
    )  # fmt: skip


def test_control_batches_keyless_and_already_indexed_records_get_no_entries(impl: ModuleType, tmp_path: Path) -> None:
    batches = [(0, _marker()), (0, _keyed(None, None)), (0, _keyed(b"k1")), (1, _keyed(b"k2")), (0, _marker())]
    segment = _write_log(tmp_path / "log", batches)[0]
    index = bytearray(file_size(SLOTS, 16))
    through = segment.records[2].physical_offset  # the third record is indexed already
    run = impl.index_records(segment.data, 0, segment.end, 0, index, SLOTS, FRESH, through, 1 << 20)
    assert (run.stop, run.position) == (IndexStop.END, segment.end)
    fourth = segment.records[3]
    assert run.header == IndexHeader(fourth.store_timestamp, fourth.store_timestamp, fourth.physical_offset,
                                     fourth.physical_offset, 1, 2)  # fmt: skip
    only_fourth = Segment(segment.data, 0, segment.end, [fourth])
    assert bytes(index) == _put_path([only_fourth], tmp_path / file_name(4), 16)


def test_a_payload_that_does_not_decode_gets_no_entries_and_the_run_goes_on(impl: ModuleType, tmp_path: Path) -> None:
    damaged = bytearray(_keyed(b"lost"))
    damaged[RECORD_BATCH_OVERHEAD] = 0x7E  # the first record claims 63 bytes: past the payload
    segment = _write_log(tmp_path / "log", [(0, bytes(damaged)), (0, _keyed(b"kept"))])[0]
    index = bytearray(file_size(SLOTS, 16))
    run = impl.index_records(segment.data, 0, segment.end, 0, index, SLOTS, FRESH, -1, 1 << 20)
    assert run.stop == IndexStop.END and run.header.index_count == 2
    assert run.header.end_physical_offset == segment.records[1].physical_offset


def _damage(data: bytearray, at: int, how: str) -> None:
    if how == "magic":
        data[at + 4] ^= 0xFF
    elif how == "physical offset":
        struct.pack_into(">q", data, at + 40, at + 1)
    elif how == "batch length":
        struct.pack_into(">i", data, at + HEADER_SIZE + 8, 10)
    elif how == "size":
        struct.pack_into(">i", data, at, len(data))
    elif how == "zeros":
        data[at:] = bytes(len(data) - at)
    else:
        struct.pack_into(">iI", data, at, 100, 0x524B4342)  # a BLANK that does not reach the end


@pytest.mark.parametrize("how", ["magic", "physical offset", "batch length", "size", "zeros", "short BLANK"])
def test_what_is_not_a_record_stops_the_run_there(impl: ModuleType, tmp_path: Path, how: str) -> None:
    segment = _write_log(tmp_path / "log", [(0, _keyed(b"a")), (0, _keyed(b"b")), (0, _keyed(b"c"))])[0]
    data = bytearray(segment.data)
    at = segment.records[1].physical_offset
    _damage(data, at, how)
    index = bytearray(file_size(SLOTS, 16))
    run = impl.index_records(data, 0, segment.end, 0, index, SLOTS, FRESH, -1, 1 << 20)
    assert (run.stop, run.position, run.header.index_count) == (IndexStop.UNPARSED, at, 2)
    _, _, stop, _ = scan_records(data, at, 0, 1 << 62, 1)
    assert stop != 0  # LIMIT: the record scan does not accept it either


def test_end_stops_the_run_at_a_record_boundary(impl: ModuleType, tmp_path: Path) -> None:
    segment = _write_log(tmp_path / "log", [(0, _keyed(b"a")), (0, _keyed(b"b")), (0, _keyed(b"c"))])[0]
    end = segment.records[1].end
    run = impl.index_records(segment.data, 0, end, 0, bytearray(file_size(SLOTS, 16)), SLOTS, FRESH, -1, 1 << 20)
    assert (run.stop, run.position, run.header.index_count) == (IndexStop.END, end, 3)
    again = impl.index_records(segment.data, end, end, 0, bytearray(file_size(SLOTS, 16)), SLOTS, FRESH, -1, 1)
    assert (again.stop, again.position, again.header) == (IndexStop.END, end, FRESH)


def test_arguments_the_walk_cannot_start_from_are_refused(impl: ModuleType) -> None:
    segment, index = bytes(1024), bytearray(file_size(SLOTS, 4))
    for position, end, slots, header, target in [
        (2048, 1024, SLOTS, FRESH, index),  # position past the segment
        (0, 4096, SLOTS, FRESH, index),  # end past it
        (0, 1024, 0, FRESH, index),  # no slots
        (0, 1024, SLOTS, IndexHeader(0, 0, 0, 0, 0, 0), index),  # index_count starts at 1
        (0, 1024, SLOTS, FRESH, bytearray(40 + SLOTS * 4)),  # room for no entry
    ]:
        with pytest.raises(ValueError):
            impl.index_records(segment, position, end, 0, target, slots, header, -1, 1 << 20)
    with pytest.raises(BufferError):
        impl.index_records(segment, 0, 1024, 0, bytes(len(index)), SLOTS, FRESH, -1, 1 << 20)  # read-only index


_KEYS = st.lists(st.one_of(st.none(), st.sampled_from([b"a", b"b", b"c", b"dd", b""]), st.binary(max_size=6)),
                 min_size=1, max_size=6)  # fmt: skip


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    batches=st.lists(st.tuples(st.integers(0, 1), _KEYS, st.sampled_from(["none", "none", "none", "gzip"])),
                     min_size=1, max_size=25),
    entries=st.integers(2, 40),
    budget=st.integers(0, 3000),
)  # fmt: skip
def test_the_twins_agree(tmp_path_factory: pytest.TempPathFactory, batches: list, entries: int, budget: int) -> None:
    directory = tmp_path_factory.mktemp("log")
    log_batches = [(topic, _keyed(*keys, codec=codec)) for topic, keys, codec in batches]
    segments = _write_log(directory, log_batches, segment_bytes=4096)
    results = {}
    for name, twin in TWINS.items():
        index, runs, header = bytearray(file_size(SLOTS, entries)), [], FRESH
        for segment in segments:
            position = 0
            while position < segment.end:
                run = twin.index_records(segment.data, position, segment.end, segment.start, index, SLOTS, header,
                                         -1, budget)  # fmt: skip
                runs.append(run)
                header, position = run.header, run.position
                if run.stop == IndexStop.FULL and header.index_count > 1:
                    index, header = bytearray(len(index)), FRESH  # a new file
                elif run.stop in (IndexStop.FULL, IndexStop.COMPRESSED):  # more keys than a file holds; compressed
                    position += struct.unpack_from(">i", segment.data, position)[0]
                elif run.stop != IndexStop.LIMIT:
                    break
        results[name] = (runs, bytes(index))
    assert results["compiled"] == results["pure"]
