"""Producer documents: a store of their own beside group metadata, kept across reopen, durable on request."""

from __future__ import annotations

from pathlib import Path

from rockafka.store import MessageStore

from .helpers import small_config

BLOCK = {"version": 1, "next_block_start": 2000}
TXN = {"version": 1, "producer_id": 7, "epoch": 3}


def test_producer_documents_survive_a_reopen_apart_from_group_metadata(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path)) as store:
        store.producer_state.save("producer-id-block", BLOCK)
        store.producer_state.save("a", TXN)
        store.group_metadata.save("a", {"generation": 1})
        store.transaction_state.save("a", {"state": "Empty"})
        assert store.producer_state.delete("a") is True
        assert store.producer_state.delete("a") is False
        store.producer_state.save("b", TXN)
    with MessageStore.open(small_config(tmp_path)) as store:
        assert store.producer_state.documents() == {"producer-id-block": BLOCK, "b": TXN}
        assert store.group_metadata.documents() == {"a": {"generation": 1}}
        assert store.transaction_state.documents() == {"a": {"state": "Empty"}}
    assert (tmp_path / "config" / "producerState.log").exists()


def test_transactional_ids_of_an_earlier_version_move_into_the_transaction_state_topic(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path)) as store:  # as an earlier version kept them
        store.producer_state.save("producer-id-block", BLOCK)
        store.producer_state.save("txn:a", TXN)
    with MessageStore.open(small_config(tmp_path)) as store:
        assert store.producer_state.documents() == {"producer-id-block": BLOCK}
        assert store.transaction_state.documents() == {"a": TXN}
        partition = store.transaction_partitions.partition_of("a")
        assert store.records.partition_offsets("__transaction_state", partition).high_watermark == 1
    with MessageStore.open(small_config(tmp_path)) as store:  # once: nothing moves again
        assert store.transaction_state.documents() == {"a": TXN}
        assert store.records.partition_offsets("__transaction_state", partition).high_watermark == 1


def test_a_durable_save_hands_out_a_future_even_under_async_flush(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path, flush_mode="async")) as store:
        assert store.producer_state.save("k", BLOCK) is None
        future = store.producer_state.save("k", TXN, durable=True)
        assert future is not None
        assert future.result(timeout=10) is None
