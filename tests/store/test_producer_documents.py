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
        store.producer_state.save("txn:a", TXN)
        store.group_metadata.save("txn:a", {"generation": 1})
        assert store.producer_state.delete("txn:a") is True
        assert store.producer_state.delete("txn:a") is False
        store.producer_state.save("txn:b", TXN)
    with MessageStore.open(small_config(tmp_path)) as store:
        assert store.producer_state.documents() == {"producer-id-block": BLOCK, "txn:b": TXN}
        assert store.group_metadata.documents() == {"txn:a": {"generation": 1}}
    assert (tmp_path / "config" / "producerState.log").exists()


def test_a_durable_save_hands_out_a_future_even_under_async_flush(tmp_path: Path) -> None:
    with MessageStore.open(small_config(tmp_path, flush_mode="async")) as store:
        assert store.producer_state.save("k", BLOCK) is None
        future = store.producer_state.save("k", TXN, durable=True)
        assert future is not None
        assert future.result(timeout=10) is None
