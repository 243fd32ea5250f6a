"""What a timed-out transaction looks like to librdkafka: its commit fails, and a read_committed reader sees nothing
of it (shared by the fault test and the simulated-time test)."""

from __future__ import annotations

import pytest
from confluent_kafka import Consumer, KafkaError, KafkaException, Producer

SETTLE_TIMEOUT_S = 60.0


def assert_aborted_and_fenced(producer: Producer, bootstrap: str, topic: str) -> None:
    """``producer``'s commit fails as fenced (fatal) or abortable, as librdkafka decides, and ``topic`` holds no
    committed record."""
    with pytest.raises(KafkaException) as failure:
        producer.commit_transaction(SETTLE_TIMEOUT_S)
    error = failure.value.args[0]
    assert error.fatal() or error.txn_requires_abort(), error
    reader = Consumer(
        {"bootstrap.servers": bootstrap, "group.id": f"{topic}-reader", "isolation.level": "read_committed",
         "auto.offset.reset": "earliest", "enable.partition.eof": True}
    )  # fmt: skip
    reader.subscribe([topic])
    try:
        for _ in range(int(SETTLE_TIMEOUT_S / 0.5)):
            message = reader.poll(0.5)
            if message is None:
                continue
            assert message.error() is not None and message.error().code() == KafkaError._PARTITION_EOF, message.value()
            break
        else:
            pytest.fail("the reader never reached the end of the partition")
    finally:
        reader.close()
