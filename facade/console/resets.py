"""Where an offset reset puts a group, per partition, as ``kafka-consumer-groups --reset-offsets`` computes it:
``earliest`` is the log start offset, ``latest`` the high watermark, an offset is clamped into
[log start, high watermark], and a timestamp gives the first offset whose record is at or after it (the high
watermark when there is none)."""

from __future__ import annotations

from collections.abc import Iterable

from rockafka.store import MessageStore, StoreError, TopicPartition

from .errors import NotFoundError
from .params import Target


def reset_targets(store: MessageStore, topic: str, partitions: Iterable[int], to: Target) -> dict[TopicPartition, int]:
    targets, records = {}, store.records
    for number in partitions:
        try:
            offsets = records.partition_offsets(topic, number)
            if isinstance(to, dict):
                found = records.offset_for_timestamp(topic, number, to["timestamp"])
                target = offsets.high_watermark if found is None else found.offset
            elif to == "earliest":
                target = offsets.log_start_offset
            elif to == "latest":
                target = offsets.high_watermark
            else:
                target = min(max(int(to), offsets.log_start_offset), offsets.high_watermark)
        except StoreError as exc:
            raise NotFoundError(str(exc)) from None
        targets[TopicPartition(topic, number)] = target
    return targets
