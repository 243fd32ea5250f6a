"""Exactly-once consume-transform-produce with real transactional clients: aiokafka
(``send_offsets_to_transaction``), confluent-kafka and kafkajs (``sendOffsets``).

Each worker reads an input topic (2 partitions) and writes every record, transformed, to an output topic inside
a transaction that also commits the consumed offsets; every third transaction is aborted and redone. The
first worker is killed (SIGKILL) with a transaction open after two commits; a second worker with the same
transactional id takes over: its InitProducerId aborts the open transaction and fences the dead one, and it
goes on from the committed offsets. Then, read by kafka-python (another client): the read_committed output is
the transformed input, each record exactly once; read_uncommitted shows the aborted records besides; the
group's committed offsets are the input's end; the output's read_committed end (the LSO) is its high watermark.
The records of the transaction the first worker left open are among those only read_uncommitted shows.
"""

from __future__ import annotations

import pytest

from .brokerproc import BrokerProcess
from .clients.fixtures import module_broker
from .clients.kafkajs_driver import kafkajs_missing
from .clients.records import unique_topic
from .txnscenario import (
    TXN_BROKER_SETTINGS,
    assert_exactly_once,
    committed_offsets,
    create_topics,
    end_offsets,
    run_worker,
    write_input,
)

broker = module_broker(**TXN_BROKER_SETTINGS)
INPUT_RECORDS = 60
CLIENTS = ["aiokafka", "confluent-kafka", "kafkajs"]


@pytest.mark.parametrize("client", CLIENTS)
def test_exactly_once_through_commits_aborts_and_a_killed_worker(broker: BrokerProcess, client: str) -> None:
    if client == "kafkajs" and (missing := kafkajs_missing()) is not None:
        pytest.skip(missing)
    source, sink = unique_topic(f"eos-in-{client}"), unique_topic(f"eos-out-{client}")
    create_topics(broker.bootstrap, **{source: 2, sink: 1})
    inputs = write_input(broker.bootstrap, source, INPUT_RECORDS, 2)
    settings = {"bootstrap": broker.bootstrap, "input": source, "input_partitions": 2, "output": sink,
                "group": f"eos-group-{client}", "transactional_id": f"eos-{client}"}  # fmt: skip

    first = run_worker(client, {**settings, "crash_after": 2})
    assert first.returncode == -9, (first.events, first.stderr, broker.log_text())
    assert [e["event"] for e in first.events if e["event"] != "aborted"] == ["committed", "committed", "crashing"]

    second = run_worker(client, settings)
    assert second.returncode == 0 and second.done, (second.events, second.stderr, broker.log_text())
    assert second.aborted > 0

    surplus = assert_exactly_once(broker.bootstrap, inputs, sink, 1)
    # librdkafka drops records still queued when a transaction aborts, so only the records of the
    # transaction the first worker left open are sure to be there
    assert sum(surplus.values()) >= first.left_open > 0
    assert committed_offsets(broker.bootstrap, settings["group"], source, 2) == end_offsets(
        broker.bootstrap, source, 2, committed=False
    )
    assert end_offsets(broker.bootstrap, sink, 1, committed=True) == end_offsets(
        broker.bootstrap, sink, 1, committed=False
    )
