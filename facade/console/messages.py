"""Messages as the console shows them: a window of a partition, and the records of a key found through the IndexFile.

A window is at most ``MAX_RECORDS`` records read from the store a few batches at a time (``READ_BYTES`` per
read), never the whole partition: oldest first from an offset (or from the first offset at or after a
timestamp), or newest first down from an offset (the high watermark when none is given). Keys, values and header
values are shown as ``text`` (UTF-8, with undecodable bytes replaced), ``json`` (parsed when the bytes are JSON,
else text) or ``hex``; null stays null. Transaction markers are records of control batches: they are shown as
``COMMIT`` or ``ABORT`` markers with their producer id, not as data.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from rockafka.core_pyx.recordbatch import read_batch_header
from rockafka.core_pyx.records import Record, read_records
from rockafka.store import KeyedRecord, OffsetOutOfRangeError, StoreError

from ..broker import Broker
from .errors import BadRequestError, NotFoundError

Json = dict[str, Any]
MAX_RECORDS = 500
READ_BYTES = 1 << 20
FORMATS = ("text", "json", "hex")
_MARKER_TYPES = {0: "ABORT", 1: "COMMIT"}


def render(data: bytes | None, form: str) -> Any:
    """Bytes as the viewer asked: text, parsed JSON (text when not JSON) or hex; None stays None."""
    if data is None:
        return None
    if form == "hex":
        return data.hex()
    text = data.decode("utf-8", errors="replace")
    if form == "json":
        try:
            return json.loads(text)
        except ValueError:
            return text
    return text


def parse_key(text: str, form: str) -> bytes:
    """A key typed by the viewer: UTF-8 text, or hex (``form == "hex"``)."""
    if form != "hex":
        return text.encode("utf-8")
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise BadRequestError(f"the key is not hex: {text!r}") from None


class MessageReader:
    def __init__(self, broker: Broker) -> None:
        self._broker = broker

    def window(
        self,
        topic: str,
        partition: int,
        *,
        offset: int | None,
        timestamp: int | None,
        newest_first: bool,
        limit: int,
        form: str,
    ) -> Json:
        """Up to ``limit`` records of the partition from ``offset`` (or ``timestamp``), in the order asked."""
        if not 1 <= limit <= MAX_RECORDS:
            raise BadRequestError(f"limit must be between 1 and {MAX_RECORDS}")
        records = self._broker.store.records
        try:
            offsets = records.partition_offsets(topic, partition)
        except StoreError as exc:
            raise NotFoundError(str(exc)) from None
        start, end = offsets.log_start_offset, offsets.high_watermark
        if timestamp is not None:
            found = records.offset_for_timestamp(topic, partition, timestamp)
            offset = end if found is None else found.offset
        if offset is not None and not start <= offset <= end:
            raise BadRequestError(f"offset {offset} is outside the partition's offsets [{start}, {end}]")
        if newest_first:
            top = end if offset is None else min(end, offset + 1)
            rows = list(self._rows(topic, partition, max(start, top - limit), top, form))[-limit:]
            rows.reverse()
        else:
            first = start if offset is None else offset
            rows = list(self._rows(topic, partition, first, end, form, limit))
        return {
            "topic": topic,
            "partition": partition,
            "log_start_offset": start,
            "high_watermark": end,
            "last_stable_offset": records.last_stable_offset(topic, partition),
            "records": rows,
        }

    def _rows(
        self, topic: str, partition: int, first: int, end: int, form: str, limit: int = MAX_RECORDS
    ) -> Iterator[Json]:
        """Records with offsets in [first, end), oldest first, at most ``limit``."""
        records = self._broker.store.records
        position, given = first, 0
        while position < end and given < limit:
            try:
                result = records.read(topic, partition, position, READ_BYTES, max_offset=end)
            except OffsetOutOfRangeError:
                return  # retention moved the log start past the window meanwhile
            if not result.batches:
                return
            for batch in result.batches:
                header = read_batch_header(batch, 0)
                for record in read_records(batch):
                    if first <= record.offset < end and given < limit:
                        given += 1
                        yield _row(record, header.is_control, header.is_transactional, header.producer_id, form)
            position = result.next_offset

    def by_key(self, topic: str, key: bytes, begin_ms: int, end_ms: int | None, limit: int, form: str) -> list[Json]:
        """The records of ``topic`` with ``key`` that the broker stored within [begin_ms, end_ms] (the IndexFile
        keeps the time of storing, not the record's own timestamp), newest first."""
        if not 1 <= limit <= MAX_RECORDS:
            raise BadRequestError(f"limit must be between 1 and {MAX_RECORDS}")
        found = self._broker.store.keys.query(topic, key, begin_ms, end_ms, limit)
        return [_keyed_row(item, form) for item in found]


def _row(record: Record, control: bool, transactional: bool, producer_id: int, form: str) -> Json:
    row: Json = {"offset": record.offset, "timestamp": record.timestamp, "transactional": transactional}
    if control:
        kind = int.from_bytes(record.key[2:4], "big") if record.key is not None and len(record.key) >= 4 else -1
        row["marker"] = _MARKER_TYPES.get(kind, f"CONTROL {kind}")
        row["producer_id"] = producer_id
        return row
    row["key"] = render(record.key, form)
    row["value"] = render(record.value, form)
    row["headers"] = [{"key": name, "value": render(value, form)} for name, value in record.headers]
    return row


def _keyed_row(item: KeyedRecord, form: str) -> Json:
    return {
        "partition": item.partition,
        "offset": item.offset,
        "timestamp": item.timestamp,
        "stored": item.store_timestamp,
        "key": render(item.key, form),
        "value": render(item.value, form),
    }
