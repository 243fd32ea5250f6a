"""Model-based test: random appends, reads, time lookups, DeleteRecords, topic changes, offset commits and
restarts, with small segments and queue files so rolls happen, compared with an in-memory model."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from rockafka.store import CommittedOffset, MessageStore, OffsetCommit, TopicPartition

from .helpers import CODECS, PartitionModel, append, build_batch, decoded, small_config, with_base_offset

NAMES = ["a", "b", "c"]
records_strategy = st.lists(
    st.tuples(st.sampled_from([None, b"k1", b"k2"]), st.integers(min_value=0, max_value=900)), min_size=1, max_size=4
)


class StoreMachine(RuleBasedStateMachine):
    base: Path
    runs = itertools.count()

    def __init__(self) -> None:
        super().__init__()
        self.root = self.base / f"run{next(self.runs)}"
        self.config = small_config(self.root, commitlog_segment_bytes=4096, consume_queue_units_per_file=2)
        self.store = MessageStore.open(self.config)
        self.topics: dict[str, list[PartitionModel]] = {}
        self.offsets: dict[str, dict[TopicPartition, int]] = {}
        self.clock = 1_000

    def teardown(self) -> None:
        self.store.close()
        shutil.rmtree(self.root, ignore_errors=True)

    @initialize(count=st.integers(min_value=1, max_value=3))
    def first_topic(self, count: int) -> None:
        self.create_topic("a", count)

    def _partitions(self) -> list[tuple[str, int]]:
        return [(name, p) for name, parts in self.topics.items() for p in range(len(parts))]

    def create_topic(self, name: str, count: int) -> None:
        if name not in self.topics:
            self.store.topics.create(name, count)
            self.topics[name] = [PartitionModel() for _ in range(count)]

    @rule(action=st.sampled_from(["create", "delete", "grow"]), name=st.sampled_from(NAMES), count=st.integers(1, 3))
    def change_topics(self, action: str, name: str, count: int) -> None:
        if action == "create":
            self.create_topic(name, count)
        elif name in self.topics and action == "delete":
            self.store.topics.delete(name)
            del self.topics[name]
            for group in self.offsets.values():
                for key in [k for k in group if k.topic == name]:
                    del group[key]
        elif name in self.topics and len(self._partitions()) < 6:
            self.store.topics.create_partitions(name, len(self.topics[name]) + 1)
            self.topics[name].append(PartitionModel())

    @precondition(lambda self: self.topics)
    @rule(data=st.data(), records=records_strategy, codec=st.sampled_from(sorted(CODECS)), batches=st.integers(1, 3))
    def append(self, data: st.DataObject, records: list[tuple[bytes | None, int]], codec: str, batches: int) -> None:
        name, number = data.draw(st.sampled_from(self._partitions()))
        model = self.topics[name][number]
        built = []
        for _ in range(batches):
            stamps = data.draw(st.lists(st.integers(0, 10_000), min_size=len(records), max_size=len(records)))
            payload = [(key, bytes([size % 251]) * size) for key, size in records]
            built.append(build_batch(payload, timestamps=stamps, codec=CODECS[codec]))
        result = append(self.store, name, number, *built)
        bases = [model.add(batch, len(records)) for batch in built]
        assert (result.base_offset, result.last_offset) == (bases[0], model.next_offset - 1)

    @precondition(lambda self: self.topics)
    @rule(data=st.data(), records=records_strategy, gaps=st.lists(st.integers(0, 5), min_size=1, max_size=3))
    def copy_at_kept_offsets(
        self, data: st.DataObject, records: list[tuple[bytes | None, int]], gaps: list[int]
    ) -> None:
        """Batches copied from another broker at their own offsets (a partition moving in), gaps between them."""
        name, number = data.draw(st.sampled_from(self._partitions()))
        model = self.topics[name][number]
        payload = [(key, bytes([size % 251]) * size) for key, size in records]
        built, base = [], model.next_offset
        for gap in gaps:
            built.append(with_base_offset(build_batch(payload), base + gap))
            base += gap + len(records)
        if not model.batches and data.draw(st.booleans()):  # an empty partition first takes the copy's log start
            start = model.next_offset + gaps[0]
            self.store.kept_offsets.start_at(name, number, start)
            model.next_offset, model.log_start = start, max(model.log_start, start)
        assert self.store.kept_offsets.append(name, number, b"".join(built)) == base
        if not model.batches:  # the first batch held is where an empty partition's log starts
            model.log_start = max(model.log_start, int.from_bytes(built[0][:8], "big"))
        for batch in built:
            model.add_at(batch, int.from_bytes(batch[:8], "big"), len(records))

    @precondition(lambda self: any(model.batches for models in self.topics.values() for model in models))
    @rule(data=st.data())
    def log_start_back_down(self, data: st.DataObject) -> None:
        """A partition moving back to a store that retired its copy: the log start goes down to records still held."""
        name, number = data.draw(st.sampled_from([p for p in self._partitions() if self.topics[p[0]][p[1]].batches]))
        model = self.topics[name][number]
        first = model.batches[0][0]
        start = data.draw(st.integers(first, max(first, model.log_start)))
        self.store.kept_offsets.start_at(name, number, start)
        model.log_start = start

    @precondition(lambda self: any(self.topics.values()))
    @rule(data=st.data(), max_bytes=st.integers(0, 6000))
    def read(self, data: st.DataObject, max_bytes: int) -> None:
        name, number = data.draw(st.sampled_from(self._partitions()))
        model = self.topics[name][number]
        offset = data.draw(st.integers(model.log_start, model.next_offset))
        result = self.store.records.read(name, number, offset, max_bytes)
        assert [bytes(view) for view in result.batches] == model.expected_read(offset, max_bytes)
        assert (result.high_watermark, result.log_start_offset) == (model.next_offset, model.log_start)
        last = max(model.next_offset - 1, model.log_start)
        for follow_up in (result.next_offset, last, data.draw(st.integers(model.log_start, model.next_offset))):
            again = self.store.records.read(name, number, follow_up, max_bytes)  # sequential, last, anywhere
            assert [bytes(view) for view in again.batches] == model.expected_read(follow_up, max_bytes)

    @precondition(lambda self: any(self.topics.values()))
    @rule(data=st.data(), timestamp=st.integers(-1, 10_001))
    def offset_for_timestamp(self, data: st.DataObject, timestamp: int) -> None:
        name, number = data.draw(st.sampled_from(self._partitions()))
        found = self.store.records.offset_for_timestamp(name, number, timestamp)
        expected = self.topics[name][number].first_at_or_after(timestamp)
        assert (found.offset, found.timestamp) == expected if found else expected is None

    @precondition(lambda self: any(self.topics.values()))
    @rule(data=st.data())
    def delete_records(self, data: st.DataObject) -> None:
        name, number = data.draw(st.sampled_from(self._partitions()))
        model = self.topics[name][number]
        target = data.draw(st.integers(model.log_start, model.next_offset))
        assert self.store.records.delete_records(name, number, target) == max(target, model.log_start)
        model.log_start = max(target, model.log_start)

    @precondition(lambda self: any(self.topics.values()))
    @rule(data=st.data(), group=st.sampled_from(["g1", "g2"]), offset=st.integers(0, 100), delete=st.booleans())
    def offsets_change(self, data: st.DataObject, group: str, offset: int, delete: bool) -> None:
        if delete:
            assert self.store.offsets.delete_group(group) == bool(self.offsets.pop(group, None))
            return
        name, number = data.draw(st.sampled_from(self._partitions()))
        self.store.offsets.commit(group, [OffsetCommit(name, number, offset, None, f"m{offset}")])
        self.offsets.setdefault(group, {})[TopicPartition(name, number)] = offset

    @rule()
    def restart(self) -> None:
        self.store.close()
        self.store = MessageStore.open(self.config)

    @invariant()
    def offsets_and_groups_match(self) -> None:
        for group, expected in self.offsets.items():
            fetched = self.store.offsets.fetch(group)
            assert {key: value.offset for key, value in fetched.items()} == expected
            assert all(isinstance(value, CommittedOffset) for value in fetched.values())
        assert self.store.offsets.groups() == sorted(group for group, offsets in self.offsets.items() if offsets)

    @invariant()
    def partitions_match(self) -> None:
        assert [t.name for t in self.store.topics.list()] == sorted(self.topics)
        for name, models in self.topics.items():
            for number, model in enumerate(models):
                offsets = self.store.records.partition_offsets(name, number)
                assert (offsets.log_start_offset, offsets.high_watermark) == (model.log_start, model.next_offset)
                everything = decoded(self.store.records.read(name, number, model.log_start, 1 << 30).batches)
                assert [r for r in everything if r[0] >= model.log_start] == model.records()


def test_store_matches_the_model(tmp_path: Path) -> None:
    StoreMachine.base = tmp_path
    run_state_machine_as_test(
        StoreMachine,
        settings=settings(
            max_examples=150, stateful_step_count=30, deadline=None, suppress_health_check=list(HealthCheck)
        ),
    )
