"""Building blocks for the transaction coordinator tests: a real store, a coordinator over it with a clock the
test moves, transactional batches (built by kafka-python, an encoder independent of the broker's), and the
Produce handler's steps for one batch."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from kafka.record.default_records import DefaultRecordBatchBuilder

from rockafka.core_pyx.recordbatch import validate_batches
from rockafka.facade.config import load_broker_config
from rockafka.facade.producers import InitGranted, InitRefused, ProducerService
from rockafka.facade.transactions import ProduceRefused, TransactionCoordinator
from rockafka.store import MessageStore

from ..group.helpers import open_store

T = TypeVar("T")
NOW = 1_700_000_000_000


@dataclass
class Clock:
    now_ms: int = NOW

    def __call__(self) -> int:
        return self.now_ms


@dataclass
class Setup:
    store: MessageStore
    coordinator: TransactionCoordinator
    producers: ProducerService
    clock: Clock = field(default_factory=Clock)


def new_setup(store: MessageStore, clock: Clock | None = None, **settings: str) -> Setup:
    clock = clock or Clock()
    config = load_broker_config(overrides=[f"{key}={value}" for key, value in settings.items()])
    producers = ProducerService(config, store, clock=clock)
    producers.load()
    coordinator = TransactionCoordinator(config, store, producers, clock=clock)
    return Setup(store, coordinator, producers, clock)


def run(root: Path, scenario: Callable[[Setup], Awaitable[T]], **settings: str) -> T:
    """Run ``scenario`` over a loaded coordinator on a fresh store in ``root``; close the store after."""

    async def main() -> T:
        store = open_store(root)
        setup = new_setup(store, **settings)
        setup.coordinator.load()
        try:
            return await scenario(setup)
        finally:
            store.close()

    return asyncio.run(main())


def txn_batch(producer_id: int, epoch: int, sequence: int, count: int = 2, *, transactional: bool = True) -> bytes:
    builder = DefaultRecordBatchBuilder(
        magic=2, compression_type=0, is_transactional=int(transactional), producer_id=producer_id,
        producer_epoch=epoch, base_sequence=sequence, batch_size=1 << 20,
    )  # fmt: skip
    for delta in range(count):
        builder.append(delta, timestamp=NOW + delta, key=None, value=b"v-%d-%d" % (sequence, delta), headers=[])
    return bytes(builder.build())


def produce(setup: Setup, transactional_id: str | None, topic: str, partition: int, batch: bytes) -> Any:
    """What the Produce handler does with one batch: the coordinator's check, then the append; the base offset,
    or the refusal."""
    header = validate_batches(batch)[0]
    if header.is_transactional:
        refused = setup.coordinator.check_produce(transactional_id, topic, partition, header)
        if refused is not None:
            return refused
    result = setup.store.records.append(topic, partition, batch, [header])
    setup.producers.record(topic, partition, header, result.base_offset)
    return result.base_offset


def granted(outcome: InitGranted | InitRefused) -> InitGranted:
    assert isinstance(outcome, InitGranted), outcome
    return outcome


def refused(outcome: object) -> ProduceRefused:
    assert isinstance(outcome, ProduceRefused), outcome
    return outcome
