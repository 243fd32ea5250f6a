"""``StoreHealth``: the closed and offline state, the OSError translation, and the channel from the store's threads."""

from __future__ import annotations

import errno
import threading
from pathlib import Path

import pytest

from rockafka.store import MessageStore, StorageError, StorageFullError, StoreClosedError
from rockafka.store.health import StoreHealth, guarded
from rockafka.store.space import FreeSpace

from .helpers import append, build_batch, small_config


class _Service:
    """A service as the store's are: it holds the health, never the facade."""

    def __init__(self, health: StoreHealth, error: OSError | None = None) -> None:
        self._health = health
        self.error = error
        self.calls = 0

    @guarded
    def call(self) -> int:
        self.calls += 1
        if self.error is not None:
            raise self.error
        return self.calls


@pytest.fixture
def health(tmp_path: Path) -> StoreHealth:
    return StoreHealth(FreeSpace(tmp_path, 0))


def test_a_failure_reported_from_another_thread_takes_the_store_offline_at_the_next_call(health: StoreHealth) -> None:
    service = _Service(health)
    assert service.call() == 1
    reporter = threading.Thread(target=health.report, args=(OSError(errno.EIO, "flusher: EIO"),))
    reporter.start()
    reporter.join()
    assert health.failure is None  # the reporting thread wrote nothing the loop reads
    with pytest.raises(StorageError, match=r"offline after an I/O error: .*EIO"):
        service.call()
    assert service.calls == 1 and health.failed()
    health.report(OSError(errno.EIO, "a second failure"))
    with pytest.raises(StorageError, match="flusher: EIO"):  # the first failure is the one kept
        service.call()


def test_an_os_error_in_a_call_takes_the_store_offline_once(health: StoreHealth) -> None:
    service = _Service(health, OSError(errno.EIO, "read failed"))
    with pytest.raises(StorageError, match=r"I/O error, the store is offline: .*read failed") as raised:
        service.call()
    assert isinstance(raised.value.__cause__, OSError)
    service.error = None
    with pytest.raises(StorageError, match="offline after an I/O error"):
        service.call()
    assert service.calls == 1


def test_a_full_file_system_is_storage_full_and_the_store_stays_online(health: StoreHealth) -> None:
    service = _Service(health, OSError(errno.ENOSPC, "no space left"))
    with pytest.raises(StorageFullError):
        service.call()
    service.error = None
    assert service.call() == 2 and not health.failed()


def test_a_closed_store_refuses_before_the_call(health: StoreHealth) -> None:
    service = _Service(health)
    health.closed = True
    with pytest.raises(StoreClosedError):
        service.call()
    assert service.calls == 0


def test_every_service_of_a_store_refuses_once_it_is_closed(tmp_path: Path) -> None:
    store = MessageStore.open(small_config(tmp_path))
    store.topics.create("t", 1)
    append(store, "t", 0, build_batch([(b"k", b"v")]))
    store.close()
    calls = [
        lambda: store.records.read("t", 0, 0, 1024),
        lambda: store.records.partition_bounds("t", 0),
        lambda: store.topics.list(),
        lambda: store.transactions.open("t", 0),
        lambda: store.offsets.groups(),
        lambda: store.group_metadata.documents(),
        lambda: store.producer_state.documents(),
        lambda: store.retention.enforce(),
        lambda: store.keys.query("t", b"k"),
        store.flush,
    ]
    for call in calls:
        with pytest.raises(StoreClosedError):
            call()


def test_a_flusher_failure_reaches_the_loop_through_the_channel(tmp_path: Path) -> None:
    store = MessageStore.open(small_config(tmp_path))
    try:
        store.topics.create("t", 1)
        store._health.report(OSError(errno.EIO, "fsync failed"))  # what the flusher's on_error does
        with pytest.raises(StorageError, match="fsync failed"):
            append(store, "t", 0, build_batch([(b"k", b"v")]))
        with pytest.raises(StorageError):
            store.offsets.groups()
    finally:
        store.close()
    assert (tmp_path / "abort").exists()  # an offline store is not marked clean
